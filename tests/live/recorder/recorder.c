/* The recorder library against the running kernel. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/stat.h>

Test(live_recorder, command_samples_and_exit_status, .timeout = 120)
{
	char out[512];
	snprintf(out, sizeof(out), "%s/rec.data", test_tmpdir());
	char *argv[] = {"sh", "-c", WORKLOAD("spin") " 300; exit 3", NULL};
	struct perfev_record_opts o = {.sz = sizeof(o), .argv = argv, .output = out, .freq = 1000};
	struct perfev_recorder *r = perfev_recorder_new(&o);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	cr_assert_eq(perfev_recorder_run(r), 0, "%s", perfev_errmsg());
	struct perfev_record_stats s;
	perfev_recorder_stats(r, &s);
	cr_log_info("%llu samples, %llu bytes, %llu wakeups, lost %llu",
		    (unsigned long long)s.samples, (unsigned long long)s.bytes,
		    (unsigned long long)s.wakeups, (unsigned long long)s.lost);
	cr_assert(s.command_ran);
	cr_assert(WIFEXITED(s.command_status) && WEXITSTATUS(s.command_status) == 3);
	cr_assert(s.samples > 300 * 0.9 && s.samples < 300 * 1.2, "%llu samples",
		  (unsigned long long)s.samples);
	cr_assert_eq(s.lost, 0);
	perfev_recorder_free(r);
}

Test(live_recorder, missing_command_is_explained, .timeout = 60)
{
	char out[512];
	snprintf(out, sizeof(out), "%s/rec.data", test_tmpdir());
	char *argv[] = {"/nonexistent/cmd", NULL};
	struct perfev_record_opts o = {.sz = sizeof(o), .argv = argv, .output = out};
	struct perfev_recorder *r = perfev_recorder_new(&o);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	cr_assert_eq(perfev_recorder_run(r), -ENOENT);
	cr_assert(strstr(perfev_errmsg(), "/nonexistent/cmd"), "%s", perfev_errmsg());
	perfev_recorder_free(r);
}

Test(live_recorder, no_target_is_explained)
{
	struct perfev_record_opts o = {.sz = sizeof(o)};
	cr_assert_null(perfev_recorder_new(&o));
	cr_assert(strstr(perfev_errmsg(), "nothing to record"), "%s", perfev_errmsg());
	o.mmap_pages = 3;
	o.all_cpus = true;
	cr_assert_null(perfev_recorder_new(&o));
	cr_assert(strstr(perfev_errmsg(), "power of two"), "%s", perfev_errmsg());
}

/* Records with opts, returns the stats (the recorder is freed). */
static struct perfev_record_stats record_with(struct perfev_record_opts *o)
{
	struct perfev_recorder *r = perfev_recorder_new(o);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	cr_assert_eq(perfev_recorder_run(r), 0, "%s", perfev_errmsg());
	struct perfev_record_stats s;
	perfev_recorder_stats(r, &s);
	perfev_recorder_free(r);
	cr_log_info("%llu samples, lost %llu, throttled %llu", (unsigned long long)s.samples,
		    (unsigned long long)s.lost, (unsigned long long)s.throttled);
	return s;
}

/* The tracepoint as an event list, or the test skips saying why. */
static struct perfev_evlist *tracepoint_or_skip(const char *name)
{
	require_root();
	require_tracefs();
	struct perfev_evlist *ev = perfev_evlist_new();
	if (perfev_evlist_parse(ev, name, NULL) < 0) {
		perfev_evlist_free(ev);
		cr_skip_test("no %s tracepoint: %s", name, perfev_errmsg());
	}
	return ev;
}

/* A one-page ring cannot hold a 16 KiB stack copy: every sample of ev
 * (NULL: the default) running argv is lost. */
static struct perfev_record_stats record_all_lost(const struct perfev_evlist *ev, char **argv,
						  uint64_t period)
{
	char out[512];
	snprintf(out, sizeof(out), "%s/lost.data", test_tmpdir());
	struct perfev_record_opts o = {.sz = sizeof(o), .events = ev, .argv = argv, .output = out,
				       .period = period, .mmap_pages = 1,
				       .call_graph = PERFEV_CALLGRAPH_DWARF, .dwarf_stack_size = 16384};
	struct perfev_record_stats s = record_with(&o);
	cr_assert_eq(s.samples, 0, "%llu samples fit a ring smaller than one", (unsigned long long)s.samples);
	return s;
}

/* Every sample lost, and the count is exact. The event is
 * syscalls:sys_enter_getppid at period 1 and calls_n makes exactly N getppid
 * calls, so there are exactly N overflows. The kernel's LOST records can miss
 * the run's tail (it reports a loss only when it next has room); the events'
 * PERF_FORMAT_LOST counts, read at the end, do not. */
Test(live_recorder, lost_samples_are_counted, .timeout = 120)
{
	enum { N = 50 }; /* below perf_event_max_sample_rate / HZ: no throttling */
	struct perfev_evlist *ev = tracepoint_or_skip("syscalls:sys_enter_getppid");
	char n[16];
	snprintf(n, sizeof(n), "%d", N);
	char *argv[] = {WORKLOAD("calls_n"), "syscalls", n, NULL};
	struct perfev_record_stats s = record_all_lost(ev, argv, 0);
	perfev_evlist_free(ev);
	cr_assert_eq(s.throttled, 0, "throttled: fewer overflows than getppid calls");
	cr_assert_eq(s.lost, N, "lost %llu of %d samples", (unsigned long long)s.lost, N);
}

/* The same with cpu-clock: ~200 overflows, each lost, the tail included. */
Test(live_recorder, lost_cpu_clock_samples_include_the_tail, .timeout = 120)
{
	char *argv[] = {WORKLOAD("spin"), "200", NULL};
	struct perfev_record_stats s = record_all_lost(NULL, argv, 1000000);
	cr_assert(s.lost >= 180 && s.lost <= 230, "lost %llu, ~200 expected (200 ms at 1 ms)",
		  (unsigned long long)s.lost);
}

struct seen {
	uint64_t samples, comm_init, kernel_map, mmap2, rounds;
};

static int see(void *ctx, const struct perfev_record *rec)
{
	struct seen *s = ctx;
	switch (rec->type) {
	case PERF_RECORD_SAMPLE: s->samples++; break;
	case PERF_RECORD_COMM: s->comm_init += rec->u.comm.pid == 1; break;
	case PERF_RECORD_MMAP:
		s->kernel_map += !strcmp(rec->u.mmap.filename, "[kernel.kallsyms]_text");
		break;
	case PERF_RECORD_MMAP2: s->mmap2++; break;
	case PERFEV_RECORD_FINISHED_ROUND: s->rounds++; break;
	}
	return 0;
}

static void *stop_later(void *rec)
{
	usleep(1500000); /* describing every process takes a while on a busy machine */
	perfev_recorder_stop(rec);
	return NULL;
}

/* -a: what already runs is described (pid 1's COMM, the kernel map, MMAP2s),
 * stop() from another thread ends with a complete file our reader reads back. */
Test(live_recorder, system_wide_synthesis_and_stop, .timeout = 120)
{
	char out[512];
	snprintf(out, sizeof(out), "%s/a.data", test_tmpdir());
	struct perfev_record_opts o = {.sz = sizeof(o), .all_cpus = true, .output = out, .freq = 500};
	struct perfev_recorder *r = perfev_recorder_new(&o);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	pthread_t t;
	pthread_create(&t, NULL, stop_later, r);
	cr_assert_eq(perfev_recorder_run(r), 0, "%s", perfev_errmsg());
	pthread_join(t, NULL);
	struct perfev_record_stats st;
	perfev_recorder_stats(r, &st);
	perfev_recorder_free(r);
	struct perfev_perfdata *pd = perfev_perfdata_open(out);
	cr_assert_not_null(pd, "%s", perfev_errmsg());
	struct seen s = {0};
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro)};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, see, &s), 0, "%s", perfev_errmsg());
	cr_assert_gt(st.samples, 0, "no samples in 1.5 s on every CPU");
	cr_assert_geq(s.comm_init, 1, "no COMM for pid 1");
	cr_assert_eq(s.kernel_map, 1, "no [kernel.kallsyms]_text map");
	cr_assert_gt(s.mmap2, 10);
	cr_assert_gt(s.rounds, 0);
	cr_assert_eq(s.samples, st.samples, "the file holds every sample counted");
	cr_assert(perfev_perfdata_has_feature(pd, PERFEV_FEAT_BUILD_ID));
	perfev_perfdata_close(pd);
}

/* An unprivileged user at perf_event_paranoid 2 still records, user space only, and is told so. */
Test(live_recorder, unprivileged_records_user_space, .timeout = 120)
{
	require_root();
	struct perfev_sysctl sc;
	perfev_sysctl_read(&sc);
	if (sc.paranoid < 2)
		cr_skip_test("perf_event_paranoid is %lld: the kernel is allowed", (long long)sc.paranoid);
	char out[512];
	snprintf(out, sizeof(out), "%s/u.data", test_tmpdir());
	cr_assert_eq(chmod(test_tmpdir(), 0777), 0);
	cr_assert_eq(setgid(65534), 0);
	cr_assert_eq(setuid(65534), 0);
	/* setuid made us non-dumpable, and so the held child until its exec:
	 * perf_event_open would refuse it (a perfev started as a user is dumpable). */
	prctl(PR_SET_DUMPABLE, 1);
	char *argv[] = {WORKLOAD("spin"), "100", NULL};
	struct perfev_record_opts o = {.sz = sizeof(o), .argv = argv, .output = out, .freq = 1000};
	struct perfev_recorder *r = perfev_recorder_new(&o);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	cr_assert_eq(perfev_recorder_run(r), 0, "%s", perfev_errmsg());
	struct perfev_record_stats s;
	perfev_recorder_stats(r, &s);
	cr_assert(s.user_only);
	cr_assert_gt(s.samples, 50, "%llu samples", (unsigned long long)s.samples);
	char want[64]; /* cpu-clock:u here; cycles:u where a PMU counts cycles */
	snprintf(want, sizeof(want), "%s:u",
		 perfev_evsel_name(perfev_evlist_at(perfev_recorder_evlist(r), 0)));
	perfev_recorder_free(r);
	/* named as perf names its own fallback, so perf report/script show the same */
	struct perfev_perfdata *pd = perfev_perfdata_open(out);
	cr_assert_not_null(pd, "%s", perfev_errmsg());
	cr_assert_eq(perfev_perfdata_nr_events(pd), 1);
	cr_assert_str_eq(perfev_perfdata_event_name(pd, 0), want);
	cr_assert(perfev_perfdata_event_attr(pd, 0)->exclude_kernel);
	perfev_perfdata_close(pd);
}

static int count_throttles(void *ctx, const struct perfev_record *rec)
{
	*(uint64_t *)ctx += rec->type == PERF_RECORD_THROTTLE;
	return 0;
}

static uint64_t throttles_in(const char *path)
{
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	cr_assert_not_null(pd, "%s", perfev_errmsg());
	uint64_t n = 0;
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro)};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, count_throttles, &n), 0, "%s", perfev_errmsg());
	perfev_perfdata_close(pd);
	return n;
}

/* Throttling without touching the sysctls: sched_stat_runtime counts
 * nanoseconds of run time, and a frequency event starts at period 1, so the
 * first update is thousands of overflows at once, far beyond
 * perf_event_max_sample_rate / HZ in one tick: the kernel throttles the event
 * and says so with PERF_RECORD_THROTTLE. -F replaces the tracepoint's default
 * period 1, as in perf. The end line reports as many as the file holds. */
Test(live_recorder, throttling_is_counted, .timeout = 120)
{
	struct perfev_evlist *ev = tracepoint_or_skip("sched:sched_stat_runtime");
	char out[512];
	snprintf(out, sizeof(out), "%s/thr.data", test_tmpdir());
	char *argv[] = {WORKLOAD("spin"), "300", NULL};
	struct perfev_record_opts o = {.sz = sizeof(o), .events = ev, .argv = argv, .output = out,
				       .freq = 1000};
	struct perfev_record_stats s = record_with(&o);
	perfev_evlist_free(ev);
	if (!s.throttled)
		cr_skip_test("the kernel did not throttle sched_stat_runtime at -F 1000 "
			     "(perf_event_max_sample_rate too high for this HZ?)");
	uint64_t in_file = throttles_in(out);
	cr_assert_eq(s.throttled, in_file, "stats say %llu, the file holds %llu THROTTLE records",
		     (unsigned long long)s.throttled, (unsigned long long)in_file);

	/* the command's end line, the same way */
	struct run_result c = run_cmd(PERFEV_BIN " record -e sched:sched_stat_runtime -F 1000 -o %s -- "
				      WORKLOAD("spin") " 300", out);
	cr_assert_eq(c.status, 0, "%s", c.err);
	unsigned long long thr = 0;
	const char *line = strstr(c.err, "[ perfev record: Captured");
	cr_assert_not_null(line, "%s", c.err);
	const char *t = strstr(line, ", throttled ");
	cr_assert_not_null(t, "no throttle count in the end line: %s", c.err);
	cr_assert_eq(sscanf(t, ", throttled %llu times", &thr), 1, "%s", c.err);
	in_file = throttles_in(out);
	cr_assert_eq(thr, in_file, "the end line says %llu, the file holds %llu", thr,
		     (unsigned long long)in_file);
	run_result_free(&c);
}

/* An event that cannot open, with a command held before exec: the command
 * is released and perfev exits at once with the explanation (it used to
 * wait for a held child that survived SIGTERM, forever). */
Test(live_recorder, failed_open_with_command_exits, .timeout = 60)
{
	struct perfev_attr a = {.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_CPU_CYCLES,
				.exclude_kernel = 1, .exclude_hv = 1};
	int fd = perfev_open(&a, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		cr_skip_test("cycles opens on this machine: no failing event to record");
	}
	for (int i = 0; i < 5; i++) {
		struct run_result r = run_cmd("timeout 10 %s record -o %s/x.data -e cycles -- true",
					      PERFEV_BIN, test_tmpdir());
		cr_assert_eq(r.status, 1, "run %d: status %d (124: hung): %s", i, r.status, r.err);
		cr_assert(strstr(r.err, "cycles"), "%s", r.err);
		run_result_free(&r);
	}
}
