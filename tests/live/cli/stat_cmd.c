/* `perfev stat` as users run it: the default set, exit status, SIGINT,
 * output layouts, targets, and explanations for unprivileged users. */
#define _GNU_SOURCE
#include "support.h"
#include "support_stat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PERFEV PERFEV_BIN

/* The count of event `name` in CSV output (-x,), or -1 if absent. */
static double csv_count(const char *csv, const char *name)
{
	return stat_csv_count(csv, name, NULL);
}

Test(live_stat, demo_default_set)
{
	struct run_result r = run_cmd("%s stat -- %s 20 100 10", PERFEV, WORKLOAD("demo"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	const char *want[] = {"Performance counter stats for", "task-clock", "context-switches",
			      "cpu-migrations", "page-faults", "cycles", "instructions", "branches",
			      "branch-misses", "CPUs utilized", "seconds time elapsed", "seconds user"};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		cr_assert(strstr(r.err, want[i]), "no '%s' in:\n%s", want[i], r.err);
	run_result_free(&r);
}

Test(live_stat, cli_exit_status_is_the_commands)
{
	struct run_result r = run_cmd("%s stat -e task-clock -- sh -c 'exit 5'", PERFEV);
	cr_assert_eq(r.status, 5, "%s", r.err);
	cr_assert(strstr(r.err, "task-clock"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s stat -e task-clock -- perfev-no-such-command", PERFEV);
	cr_assert_eq(r.status, 127);
	cr_assert(strstr(r.err, "command not found"), "%s", r.err);
	run_result_free(&r);
}

Test(live_stat, sigint_prints_what_was_counted)
{
	struct run_result r = run_cmd(
		"%s stat -x, -e task-clock,page-faults -- sleep 10 & pid=$!; "
		/* once the command runs, perfev has its handler: a busy machine
		 * may take a while to get there */
		"for i in $(seq 200); do pgrep -x -P $pid sleep >/dev/null && break; sleep 0.05; done; "
		"kill -INT $pid; wait $pid; echo rc=$?", PERFEV);
	cr_assert(strstr(r.out, "rc=130"), "stdout: %s\nstderr: %s", r.out, r.err);
	cr_assert_gt(csv_count(r.err, "task-clock"), 0, "%s", r.err);
	cr_assert_gt(csv_count(r.err, "page-faults"), 10, "%s", r.err);
	run_result_free(&r);
}

Test(live_stat, cli_ground_truth)
{
	struct run_result r = run_cmd("%s stat -x, -e page-faults -- %s 0", PERFEV, WORKLOAD("pages"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	double base = csv_count(r.err, "page-faults");
	run_result_free(&r);
	r = run_cmd("%s stat -x, -e page-faults -- %s 3000", PERFEV, WORKLOAD("pages"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	double pf = csv_count(r.err, "page-faults");
	cr_assert(base > 0 && fabs(pf - base - 3000) <= 10,
		  "page-faults %.0f for 3000 pages, %.0f for none:\n%s", pf, base, r.err);
	run_result_free(&r);
	require_root();
	require_tracefs();
	r = run_cmd("%s stat -x, -e syscalls:sys_enter_write -- %s 777", PERFEV, WORKLOAD("writes"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(csv_count(r.err, "syscalls:sys_enter_write"), 777, "%s", r.err);
	run_result_free(&r);
}

Test(live_stat, cli_stores_are_exact)
{
	require_breakpoint();
	char ev[64];
	snprintf(ev, sizeof(ev), "mem:0x%llx:w", (unsigned long long)stores_address());
	struct run_result r = run_cmd("%s stat -x, -e %s -- %s 4321", PERFEV, ev, WORKLOAD("stores"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(csv_count(r.err, ev), 4321, "%s", r.err);
	run_result_free(&r);
}

Test(live_stat, repeats_intervals_json_output_file)
{
	char path[256];
	snprintf(path, sizeof(path), "%s/stat.json", test_tmpdir());
	struct run_result r = run_cmd("%s stat -r 3 --json -o %s -e task-clock,page-faults -- true",
				      PERFEV, path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	char *j = slurp(path, NULL);
	cr_assert(strstr(j, "\"event\" : \"task-clock\", \"variance\" : "), "%s", j);
	cr_assert(strstr(j, "\"metric-unit\" : \"CPUs utilized\"}"), "%s", j);
	free(j);
	run_result_free(&r);
	r = run_cmd("%s stat -I 100 -x, -e task-clock -- %s 350", PERFEV, WORKLOAD("spin"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	int lines = 0;
	double sum = 0;
	for (char *p = r.err; (p = strstr(p, ",msec,task-clock,")); p++) {
		char *start = p;
		while (start > r.err && start[-1] != ',')
			start--;
		sum += atof(start);
		lines++;
	}
	/* 350 ms of CPU in 100 ms intervals (more on a busy machine); together
	 * the intervals add up to the whole */
	cr_assert_geq(lines, 4, "%d interval lines:\n%s", lines, r.err);
	cr_assert(sum > 340 && sum < 370, "intervals sum to %.2f ms:\n%s", sum, r.err);
	run_result_free(&r);
}

Test(live_stat, per_cpu_and_per_thread)
{
	require_root();
	struct run_result r = run_cmd("%s stat -a -A -x, -e cpu-clock -- sleep 0.05", PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "CPU0,"), "%s", r.err);
	run_result_free(&r);
	/* attach once the shell's child has become spin (its name at open) */
	r = run_cmd("%s & pid=$!; while [ \"$(cat /proc/$pid/comm)\" != spin ]; do sleep 0.01; done; "
		    "%s stat --per-thread -x, -p $pid -e task-clock; wait", WORKLOAD("spin") " 300",
		    PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "spin-"), "%s", r.err);
	cr_assert_gt(csv_count(r.err, "task-clock"), 200, "%s", r.err);
	run_result_free(&r);
}

static const char *nobody = "setpriv --reuid=nobody --regid=nogroup --clear-groups";

static void require_paranoid(int level)
{
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	if (s.paranoid < level)
		cr_skip_test("perf_event_paranoid is %lld, below %d", (long long)s.paranoid, level);
	require_root();
}

Test(live_stat, unprivileged_system_wide_gets_the_explanation)
{
	require_paranoid(1);
	struct run_result r = run_cmd("%s %s stat -a -e cpu-clock -- true", nobody, PERFEV);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "perf_event_paranoid") && strstr(r.err, "CAP_PERFMON") &&
		  strstr(r.err, "system-wide"), "%s", r.err);
	run_result_free(&r);
}

Test(live_stat, unprivileged_kernel_counting_gets_the_explanation)
{
	require_paranoid(2);
	struct run_result r = run_cmd("%s %s stat -e task-clock:k -- true", nobody, PERFEV);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "kernel") && strstr(r.err, "perf_event_paranoid") &&
		  strstr(r.err, "CAP_PERFMON"), "%s", r.err);
	run_result_free(&r);
	/* no explicit :k: counted in user space, named as perf does */
	r = run_cmd("%s %s stat -x, -- true", nobody, PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, ",task-clock:u,"), "%s", r.err);
	run_result_free(&r);
}

/* Another user's process, user space only: perf_event_paranoid (<= 2)
 * allows it; the kernel's ptrace check refuses it, and the message says
 * so instead of sending the user to lower perf_event_paranoid. */
Test(live_stat, another_users_process_names_the_ptrace_check)
{
	require_root();
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	if (s.paranoid >= 3)
		cr_skip_test("perf_event_paranoid is %lld: it denies unprivileged users everything",
			     (long long)s.paranoid);
	struct run_result r = run_cmd("%s %s stat -e task-clock:u -p 1 -- sleep 0.1", nobody, PERFEV);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "Pid 1 is another user's") && strstr(r.err, "ptrace") &&
		  strstr(r.err, "perf_event_paranoid is not what blocks it") &&
		  strstr(r.err, "run as the process's owner or root") && !strstr(r.err, "sysctl"),
		  "%s", r.err);
	run_result_free(&r);
}

Test(live_stat, usage_errors_say_what_to_do)
{
	struct run_result r = run_cmd("%s stat", PERFEV);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "give a command"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s stat -e 'task-clock,nonsense-event' -- true", PERFEV);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "nonsense-event") && strstr(r.err, "\\___"), "%s", r.err);
	run_result_free(&r);
}

Test(live_stat, no_inherit_counts_the_command_alone)
{
	struct run_result a = run_cmd("%s stat -x, -e task-clock -- sh -c '%s 200; true'", PERFEV,
				      WORKLOAD("spin"));
	struct run_result b = run_cmd("%s stat --no-inherit -x, -e task-clock -- sh -c '%s 200; true'",
				      PERFEV, WORKLOAD("spin"));
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_assert_eq(b.status, 0, "%s", b.err);
	double with = csv_count(a.err, "task-clock"), without = csv_count(b.err, "task-clock");
	cr_assert_gt(with, 190, "inherit: the shell's child spun 200 ms, counted %.2f", with);
	cr_assert_lt(without, 50, "no-inherit: the shell alone, counted %.2f", without);
	run_result_free(&a);
	run_result_free(&b);
}

Test(live_stat, cgroup_target)
{
	require_root();
	const char *root = access("/sys/fs/cgroup/unified/cgroup.procs", F_OK) == 0
				   ? "/sys/fs/cgroup/unified" : "/sys/fs/cgroup";
	char dir[256];
	snprintf(dir, sizeof(dir), "%s/perfev-cli-%d", root, (int)getpid());
	if (mkdir(dir, 0755) != 0)
		cr_skip_test("cannot create a cgroup under %s", root);
	/* the shell moves itself into the cgroup, then spins 200 ms there */
	struct run_result r = run_cmd(
		"%s stat -G %s -x, -e task-clock -- sh -c 'echo $$ > %s/cgroup.procs && %s 200'",
		PERFEV, dir, dir, WORKLOAD("spin"));
	double v = csv_count(r.err, "task-clock");
	rmdir(dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(v > 190 && v < 400, "cgroup task-clock %.2f ms for a 200 ms spin:\n%s", v, r.err);
	run_result_free(&r);
}

/* The msr PMU refuses exclusion bits; the parser's default exclude_guest
 * is dropped on EINVAL, as perf does, and the event counts. */
Test(live_stat, pmu_without_exclusion_bits_counts)
{
	if (access("/sys/bus/event_source/devices/msr/events/tsc", F_OK) != 0)
		cr_skip_test("no msr PMU with a tsc event here");
	struct run_result r = run_cmd("%s stat -x, -e msr/tsc/ -- true", PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_gt(csv_count(r.err, "msr/tsc/"), 1000, "%s", r.err);
	run_result_free(&r);
}

/* perfev's start-up is part of every measurement (bench/stat_startup:
 * target a quarter of perf's): the binary loads libc and libm only. A new
 * shared dependency costs milliseconds per run: load it with dlopen on first
 * use (src/lib/symbols/debuginfod_dl.c) or add its static archive to the CLI link. */
Test(live_stat, perfev_binary_loads_only_libc)
{
#if defined(__SANITIZE_ADDRESS__)
	cr_skip_test("sanitizer builds link the shared libraries");
#endif
	struct run_result r = run_cmd("ldd %s", PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	char *copy = strdup(r.out), *save;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		bool ok = strstr(line, "linux-vdso") || strstr(line, "libc.so") ||
			  strstr(line, "libm.so") || strstr(line, "ld-linux") ||
			  strstr(line, "libpthread.so") || strstr(line, "libdl.so");
		cr_assert(ok, "perfev loads '%s' at start-up:\n%s", line, r.out);
	}
	free(copy);
	run_result_free(&r);
}

/* perf stat's everyday options: -D, --pre/--post, -v, --quiet,
 * --interval-count, and the refusals that say what to use instead */
Test(live_stat, delay_pre_post_verbose_quiet_interval_count, .timeout = 60)
{
	struct run_result r = run_cmd("%s stat -D 50 -e task-clock -- sleep 0.3", PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	const char *dis = strstr(r.err, "Events disabled\n"), *en = strstr(r.err, "Events enabled\n");
	cr_assert(dis && en && dis < en && strstr(en, "task-clock"), "%s", r.err);
	run_result_free(&r);

	r = run_cmd("%s stat -r 2 --pre 'echo pre' --post 'echo post' -e task-clock -- true", PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "pre\npost\npre\npost\n");
	cr_assert(strstr(r.err, "(2 runs)"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s stat --pre 'exit 3' -e task-clock -- true", PERFEV);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "--pre 'exit 3' exited with 3") && !strstr(r.err, "task-clock"), "%s", r.err);
	run_result_free(&r);

	r = run_cmd("%s stat -v -r 2 -e task-clock,page-faults -- true", PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	unsigned long long v, e, n;
	const char *raw = strstr(r.err, "\npage-faults: ");
	cr_assert(raw && sscanf(raw, "\npage-faults: %llu %llu %llu", &v, &e, &n) == 3 && v > 0 && e == n && e > 0,
		  "%s", r.err);
	cr_assert(strstr(r.err, "[ perfev stat: executing run #2 ... ]"), "%s", r.err);
	run_result_free(&r);

	r = run_cmd("%s stat --quiet -e task-clock -- sh -c 'exit 4'", PERFEV);
	cr_assert_eq(r.status, 4);
	cr_assert_str_eq(r.err, "");
	run_result_free(&r);

	/* perf prints that many intervals, then waits for the command */
	r = run_cmd("%s stat -I 100 --interval-count 2 -x, -e task-clock -- sleep 0.6", PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	size_t lines = 0;
	for (const char *p = r.err; (p = strstr(p, ",task-clock,")); p++)
		lines++;
	cr_assert_eq(lines, 2, "%s", r.err);
	run_result_free(&r);

	const char *refused[][2] = {
		{"--per-cache -a -- true", "perf 6.5 added it"},
		{"-D -1 -- true", "--control"},
		{"--table -- true", "give -r N"},
		{"--interval-count 2 -- true", "give -I MS"},
		{"--per-socket -- true", "with -a or -C"},
		{"--per-core -a -A -- true", "choose one"},
		{"--timeout 5 -- true", "at least 10"},
		{"-B -x, -- true", "drop -B"},
	};
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		r = run_cmd("%s stat %s", PERFEV, refused[i][0]);
		cr_assert_eq(r.status, 1, "%s: %d", refused[i][0], r.status);
		cr_assert(strstr(r.err, refused[i][1]), "%s: %s", refused[i][0], r.err);
		run_result_free(&r);
	}
}
