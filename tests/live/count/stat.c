/* Counting against ground truth on the real kernel (library level). */
#define _GNU_SOURCE
#include "support.h"
#include "support_stat.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/hw_breakpoint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static uint64_t faults_of(const char *pages)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	perfev_evlist_add(l, &a, "page-faults");
	uint64_t v;
	char *argv[] = {WORKLOAD("pages"), (char *)pages, NULL};
	cr_assert_eq(count_child(l, argv, &v, NULL), 0);
	perfev_evlist_free(l);
	return v;
}

Test(live_stat, page_faults_are_pages_touched_plus_baseline)
{
	uint64_t base = faults_of("0"), n = faults_of("5000");
	cr_assert_gt(base, 0, "the start-up (loader, libc) faults too");
	/* the 5000 pages; the start-up baseline itself varies by a few faults */
	cr_assert_geq(n + 5, base + 5000, "%llu faults, baseline %llu", (unsigned long long)n,
		      (unsigned long long)base);
	cr_assert_leq(n, base + 5000 + 10, "%llu faults, baseline %llu", (unsigned long long)n,
		      (unsigned long long)base);
}

Test(live_stat, writes_are_exactly_sys_enter_write)
{
	require_root();
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = tracepoint_id("syscalls", "sys_enter_write");
	struct perfev_evlist *l = perfev_evlist_new();
	perfev_evlist_add(l, &a, "syscalls:sys_enter_write");
	uint64_t v;
	char *argv[] = {WORKLOAD("writes"), "1234", NULL};
	cr_assert_eq(count_child(l, argv, &v, NULL), 0);
	cr_assert_eq(v, 1234, "sys_enter_write counted %llu", (unsigned long long)v);
	char *argv0[] = {WORKLOAD("writes"), "0", NULL};
	cr_assert_eq(count_child(l, argv0, &v, NULL), 0);
	cr_assert_eq(v, 0);
	perfev_evlist_free(l);
}

Test(live_stat, stores_are_exactly_mem_w)
{
	require_breakpoint();
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = stores_address();
	a.bp_len = HW_BREAKPOINT_LEN_4;
	a.exclude_kernel = 1;
	struct perfev_evlist *l = perfev_evlist_new();
	perfev_evlist_add(l, &a, "mem:w");
	uint64_t v;
	char *argv[] = {WORKLOAD("stores"), "20000", NULL};
	cr_assert_eq(count_child(l, argv, &v, NULL), 0);
	cr_assert_eq(v, 20000, "mem:0x%llx:w counted %llu", (unsigned long long)a.bp_addr,
		     (unsigned long long)v);
	perfev_evlist_free(l);
}

Test(live_stat, task_clock_agrees_with_rusage)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	perfev_evlist_add(l, &a, "task-clock");
	uint64_t v;
	struct rusage ru;
	char *argv[] = {WORKLOAD("spin"), "400", NULL};
	cr_assert_eq(count_child(l, argv, &v, &ru), 0);
	double cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
		     (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
	double ratio = (double)v / cpu;
	cr_assert(ratio > 0.95 && ratio < 1.05, "task-clock %llu ns, rusage %.0f ns (ratio %.3f)",
		  (unsigned long long)v, cpu, ratio);
	perfev_evlist_free(l);
}

Test(live_stat, exit_status_and_signals_are_preserved)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	perfev_evlist_add(l, &a, "task-clock");
	char *argv[] = {"sh", "-c", "exit 7", NULL};
	cr_assert_eq(count_child(l, argv, NULL, NULL), 7);
	char *argv2[] = {"sh", "-c", "kill -TERM $$", NULL};
	cr_assert_eq(count_child(l, argv2, NULL, NULL), 128 + SIGTERM);
	perfev_evlist_free(l);
}

Test(live_stat, command_not_found_is_explained)
{
	char *argv[] = {"perfev-no-such-command", NULL};
	struct perfev_child *ch = perfev_child_new(argv);
	cr_assert(ch);
	cr_assert_eq(perfev_child_start(ch), -ENOENT);
	cr_assert(strstr(perfev_errmsg(), "command not found"), "%s", perfev_errmsg());
	int ws;
	cr_assert_eq(perfev_child_wait(ch, &ws, NULL), 0);
	cr_assert_eq(perfev_exit_code(ws), 127);
	perfev_child_free(ch);
}

Test(live_stat, unstarted_child_is_reaped_without_running)
{
	char path[128];
	snprintf(path, sizeof(path), "%s/ran", test_tmpdir());
	char *argv[] = {"touch", path, NULL};
	struct perfev_child *ch = perfev_child_new(argv);
	cr_assert(ch);
	perfev_child_free(ch);
	cr_assert_neq(access(path, F_OK), 0, "the command ran though never started");
}

static void burn(void)
{
	for (volatile long i = 0; i < 3000000; i++)
		;
}

/* A group read in one syscall; per-fd disable/enable leaves every member
 * counting again (the PERF_IOC_FLAG_GROUP problem seen on 6.18). */
Test(live_stat, group_read_and_reenable)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = sw_attr(PERF_COUNT_SW_TASK_CLOCK), b = sw_attr(PERF_COUNT_SW_CPU_CLOCK),
			   f = sw_attr(PERF_COUNT_SW_PAGE_FAULTS);
	struct perfev_evsel *lead = perfev_evlist_add(l, &a, "task-clock");
	perfev_evsel_set_leader(perfev_evlist_add(l, &b, "cpu-clock"), lead);
	perfev_evsel_set_leader(perfev_evlist_add(l, &f, "page-faults"), lead);
	struct perfev_target t = {sizeof(t), PERFEV_TARGET_THREAD, 0};
	struct perfev_counters *c = perfev_counters_open(l, &t);
	cr_assert(c, "%s", perfev_errmsg());
	cr_assert(perfev_evsel_attr(lead)->read_format & PERF_FORMAT_GROUP);
	struct perfev_count v[3];
	cr_assert_eq(perfev_counters_read(c), 0);
	for (int i = 0; i < 3; i++) {
		perfev_counters_sum(c, i, &v[i]);
		cr_assert_eq(v[i].val, 0, "event %d counted while disabled", i);
	}
	for (int round = 0; round < 3; round++) {
		cr_assert_eq(perfev_counters_enable(c), 0);
		burn();
		char *p = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		cr_assert(p != MAP_FAILED);
		for (int k = 0; k < (1 << 20); k += 4096)
			p[k] = 1;
		munmap(p, 1 << 20);
		cr_assert_eq(perfev_counters_disable(c), 0);
		struct perfev_count w[3];
		cr_assert_eq(perfev_counters_read(c), 0);
		for (int i = 0; i < 3; i++) {
			perfev_counters_sum(c, i, &w[i]);
			cr_assert_gt(w[i].val, v[i].val, "round %d: event %d stopped counting "
				     "(%llu then %llu)", round, i, (unsigned long long)v[i].val,
				     (unsigned long long)w[i].val);
			cr_assert_eq(w[i].ena, w[0].ena, "a group shares its times");
			v[i] = w[i];
		}
		burn();
		cr_assert_eq(perfev_counters_read(c), 0);
		perfev_counters_sum(c, 0, &w[0]);
		cr_assert_eq(w[0].val, v[0].val, "counted while disabled");
	}
	cr_assert_eq(perfev_counters_reset(c), 0);
	cr_assert_eq(perfev_counters_read(c), 0);
	perfev_counters_sum(c, 2, &v[2]);
	cr_assert_eq(v[2].val, 0);
	perfev_counters_close(c);
	perfev_evlist_free(l);
}

Test(live_stat, per_cpu_counting)
{
	require_root();
	struct perfev_cpus *online = perfev_cpus_online();
	cr_assert(online);
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	perfev_evlist_add(l, &a, "cpu-clock");
	struct perfev_target t = {sizeof(t), PERFEV_TARGET_CPUS, .cpus = online, .enabled = true};
	struct perfev_counters *c = perfev_counters_open(l, &t);
	cr_assert(c, "%s", perfev_errmsg());
	cr_assert_eq(perfev_counters_nr_places(c), perfev_cpus_count(online));
	usleep(50000);
	cr_assert_eq(perfev_counters_read(c), 0);
	for (size_t pl = 0; pl < perfev_counters_nr_places(c); pl++) {
		struct perfev_count v;
		perfev_counters_get(c, 0, pl, &v);
		cr_assert_eq(perfev_counters_place_cpu(c, pl), perfev_cpus_at(online, pl));
		/* cpu-clock on a CPU runs all the time: about 50 ms each */
		cr_assert_gt(v.val, 40000000, "CPU %d: %llu ns", perfev_counters_place_cpu(c, pl),
			     (unsigned long long)v.val);
	}
	perfev_counters_close(c);
	perfev_evlist_free(l);
	perfev_cpus_free(online);
}

Test(live_stat, process_target_counts_every_thread)
{
	char *argv[] = {WORKLOAD("spin"), "5000", NULL};
	struct perfev_child *ch = perfev_child_new(argv);
	cr_assert_eq(perfev_child_start(ch), 0);
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = sw_attr(PERF_COUNT_SW_TASK_CLOCK);
	perfev_evlist_add(l, &a, "task-clock");
	struct perfev_target t = {sizeof(t), PERFEV_TARGET_PROCESS, perfev_child_pid(ch)};
	struct perfev_counters *c = perfev_counters_open(l, &t);
	cr_assert(c, "%s", perfev_errmsg());
	cr_assert_eq(perfev_counters_place_tid(c, 0), perfev_child_pid(ch));
	cr_assert_eq(perfev_counters_enable(c), 0);
	usleep(100000);
	cr_assert_eq(perfev_counters_read(c), 0);
	struct perfev_count v;
	perfev_counters_sum(c, 0, &v);
	cr_assert_gt(v.val, 10000000, "the spinning process ran %llu ns in 100 ms",
		     (unsigned long long)v.val);
	perfev_counters_close(c);
	perfev_child_free(ch);
	perfev_evlist_free(l);
}

Test(live_stat, cgroup_counting)
{
	require_root();
	const char *root = "/sys/fs/cgroup/unified";
	struct stat st;
	if (stat(root, &st) != 0)
		root = "/sys/fs/cgroup";
	char dir[256];
	snprintf(dir, sizeof(dir), "%s/perfev-test-%d", root, (int)getpid());
	if (mkdir(dir, 0755) != 0)
		cr_skip_test("cannot create a cgroup under %s: %s", root, strerror(errno));
	char *argv[] = {WORKLOAD("spin"), "300", NULL};
	struct perfev_child *ch = perfev_child_new(argv);
	char procs[300], pid[32];
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d\n", (int)perfev_child_pid(ch));
	FILE *f = fopen(procs, "w");
	cr_assert(f && fputs(pid, f) >= 0 && fclose(f) == 0, "moving the child into %s", dir);
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	perfev_evlist_add(l, &a, "task-clock");
	struct perfev_target t = {sizeof(t), PERFEV_TARGET_CGROUP, .cgroup = dir, .enabled = true};
	struct perfev_counters *c = perfev_counters_open(l, &t);
	cr_assert(c, "%s", perfev_errmsg());
	cr_assert_eq(perfev_child_start(ch), 0);
	int ws;
	cr_assert_eq(perfev_child_wait(ch, &ws, NULL), 0);
	cr_assert_eq(perfev_counters_read(c), 0);
	struct perfev_count v;
	perfev_counters_sum(c, 0, &v);
	perfev_counters_close(c);
	perfev_child_free(ch);
	perfev_evlist_free(l);
	rmdir(dir);
	cr_assert_gt(v.val, 250000000, "the cgroup ran %llu ns; its task spun 300 ms",
		     (unsigned long long)v.val);
}

Test(live_stat, unsupported_events_are_kept_and_explained)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = sw_attr(PERF_COUNT_SW_TASK_CLOCK), h = {0};
	h.type = PERF_TYPE_HARDWARE;
	h.config = PERF_COUNT_HW_CPU_CYCLES;
	h.exclude_kernel = 1;
	perfev_evlist_add(l, &a, "task-clock");
	perfev_evlist_add(l, &h, "cycles");
	int fd = perfev_open(&h, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		cr_skip_test("this machine has a hardware PMU: cycles opens");
	}
	struct perfev_target t = {sizeof(t), PERFEV_TARGET_THREAD, 0, .keep_unsupported = true};
	struct perfev_counters *c = perfev_counters_open(l, &t);
	cr_assert(c, "%s", perfev_errmsg());
	cr_assert_eq(perfev_counters_status(c, 0), 0);
	cr_assert_lt(perfev_counters_status(c, 1), 0);
	cr_assert(strstr(perfev_counters_error(c, 1), "cycles"), "%s", perfev_counters_error(c, 1));
	cr_assert(strstr(perfev_counters_error(c, 1), "PMU"), "%s", perfev_counters_error(c, 1));
	cr_assert_eq(perfev_counters_fd(c, 1, 0), -1);
	perfev_counters_close(c);
	t.keep_unsupported = false;
	cr_assert_null(perfev_counters_open(l, &t));
	perfev_evlist_free(l);
}

Test(live_stat, unprivileged_system_wide_is_explained)
{
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	if (s.paranoid < 1)
		cr_skip_test("perf_event_paranoid is %lld: system-wide counting is allowed",
			     (long long)s.paranoid);
	become_nobody();
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = sw_attr(PERF_COUNT_SW_CPU_CLOCK);
	perfev_evlist_add(l, &a, "cpu-clock");
	struct perfev_target t = {sizeof(t), PERFEV_TARGET_CPUS, .keep_unsupported = true};
	cr_assert_null(perfev_counters_open(l, &t));
	int e = errno;
	cr_assert(e == EACCES || e == EPERM, "errno %d", e);
	const char *m = perfev_errmsg();
	cr_assert(strstr(m, "cpu-clock") && strstr(m, "perf_event_paranoid") &&
		  strstr(m, "system-wide") && strstr(m, "CAP_PERFMON"), "%s", m);
	perfev_evlist_free(l);
}

Test(live_stat, unprivileged_kernel_counting_is_explained)
{
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	if (s.paranoid < 2)
		cr_skip_test("perf_event_paranoid is %lld: kernel counting is allowed",
			     (long long)s.paranoid);
	become_nobody();
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK; /* exclude_kernel = 0 */
	perfev_evlist_add(l, &a, "task-clock:k");
	struct perfev_target t = {sizeof(t), PERFEV_TARGET_THREAD, 0};
	cr_assert_null(perfev_counters_open(l, &t));
	const char *m = perfev_errmsg();
	cr_assert(strstr(m, "kernel") && strstr(m, "paranoid") && strstr(m, ":u"), "%s", m);
	perfev_evlist_free(l);
}

/* perf stat's fallback as a user whom perf_event_paranoid keeps out of the
 * kernel: run in a child that drops root. Exit 0: as expected; 77: the
 * sysctl lets users count the kernel (nothing to fall back from); else the
 * number of the check that failed. */
static int fallback_as_nobody(void)
{
	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		return 10;
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	if (s.paranoid < 2)
		return 77;
	struct perfev_evlist *l = perfev_evlist_new();
	if (perfev_evlist_parse(l, "task-clock,page-faults:k,cpu-clock:u", NULL))
		return 11;
	struct perfev_target cpus = {.sz = sizeof(cpus), .kind = PERFEV_TARGET_CPUS};
	if (perfev_stat_user_fallback(l, &cpus)) /* CPU-wide: no fallback, the open's error stands */
		return 1;
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_THREAD, .pid = getpid()};
	if (!perfev_stat_user_fallback(l, &t))
		return 2;
	if (strcmp(perfev_evsel_name(perfev_evlist_at(l, 0)), "task-clock:u") ||
	    !perfev_evsel_attr_const(perfev_evlist_at(l, 0))->exclude_kernel)
		return 3;
	if (strcmp(perfev_evsel_name(perfev_evlist_at(l, 1)), "page-faults:k")) /* asked for the kernel */
		return 4;
	if (strcmp(perfev_evsel_name(perfev_evlist_at(l, 2)), "cpu-clock:u"))
		return 5;
	if (perfev_stat_user_fallback(l, &t)) /* nothing left to change */
		return 6;
	/* and the changed list opens */
	struct perfev_counters *c = perfev_counters_open(l, &t);
	if (c) /* page-faults:k stays refused: only the others could change */
		return 7;
	perfev_evlist_free(l);
	return 0;
}

Test(live_stat, user_fallback_only_for_tasks_of_users_kept_out)
{
	struct perfev_evlist *l = perfev_evlist_new();
	perfev_evlist_parse(l, "task-clock", NULL);
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_THREAD, .pid = getpid()};
	if (geteuid() == 0) /* root counts the kernel: nothing to fall back from */
		cr_assert_not(perfev_stat_user_fallback(l, &t));
	cr_assert_not(perfev_stat_user_fallback(NULL, &t));
	perfev_evlist_free(l);
	if (geteuid() != 0)
		cr_skip_test("dropping to nobody needs root");
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0)
		_exit(fallback_as_nobody());
	int ws;
	cr_assert_eq(waitpid(pid, &ws, 0), pid);
	cr_assert(WIFEXITED(ws));
	if (WEXITSTATUS(ws) == 77)
		cr_skip_test("perf_event_paranoid < 2: users count the kernel here");
	cr_assert_eq(WEXITSTATUS(ws), 0, "check %d failed", WEXITSTATUS(ws));
}

Test(live_stat, target_ended_sees_exit_and_zombies)
{
	struct perfev_target self = {.sz = sizeof(self), .kind = PERFEV_TARGET_PROCESS, .pid = getpid()};
	cr_assert_not(perfev_target_ended(&self));
	cr_assert_not(perfev_target_ended(NULL));
	struct perfev_target cpus = {.sz = sizeof(cpus), .kind = PERFEV_TARGET_CPUS, .pid = getpid()};
	cr_assert_not(perfev_target_ended(&cpus));

	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		pause();
		_exit(0);
	}
	struct perfev_target t = {.sz = sizeof(t), .kind = PERFEV_TARGET_THREAD, .pid = pid};
	cr_assert_not(perfev_target_ended(&t), "a sleeping child runs on");
	kill(pid, SIGKILL);
	siginfo_t si;
	cr_assert_eq(waitid(P_PID, pid, &si, WEXITED | WNOWAIT), 0); /* a zombie now, not reaped */
	cr_assert(perfev_target_ended(&t), "a zombie has ended");
	cr_assert_eq(waitpid(pid, NULL, 0), pid);
	cr_assert(perfev_target_ended(&t), "a reaped child has ended");
}
