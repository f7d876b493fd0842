/*
 * Self-monitoring against the running kernel: sets, reads, regions,
 * threads, inherit, the at-exit report, and what a region costs in
 * system calls (strace).
 */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include "count/selfmon_int.h"
#include "count/selfmon_math.h"
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static struct perfev_selfmon *sw_set(unsigned flags, int n, ...)
{
	static const char *names[] = {
		[PERF_COUNT_SW_TASK_CLOCK] = "task-clock",
		[PERF_COUNT_SW_PAGE_FAULTS] = "page-faults",
		[PERF_COUNT_SW_CONTEXT_SWITCHES] = "context-switches",
		[PERF_COUNT_SW_CPU_MIGRATIONS] = "cpu-migrations",
	};
	struct perfev_evlist *l = perfev_evlist_new();
	va_list ap;
	va_start(ap, n);
	for (int i = 0; i < n; i++) {
		struct perfev_attr a = {0};
		a.type = PERF_TYPE_SOFTWARE;
		a.config = va_arg(ap, unsigned);
		cr_assert(perfev_evlist_add(l, &a, names[a.config]));
	}
	va_end(ap);
	struct perfev_selfmon *s = perfev_selfmon_new_evlist(l, flags);
	cr_assert(s, "%s", perfev_errmsg());
	perfev_evlist_free(l);
	perfev_regions_output("off");
	return s;
}

/* Touches n new pages: n page faults. */
static void touch_pages(long n)
{
	volatile char *p = mmap(NULL, (size_t)n * 4096, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cr_assert(p != MAP_FAILED);
	madvise((void *)p, (size_t)n * 4096, MADV_NOHUGEPAGE); /* no (m)THP: one fault a page */
	for (long i = 0; i < n; i++)
		p[i * 4096] = 1;
	munmap((void *)p, (size_t)n * 4096);
}

/* A plain read(2) of the group through fd, values in the set's order. */
static void plain_read(struct perfev_selfmon *s, size_t fd_idx, uint64_t *vals)
{
	uint64_t buf[3 + 2 * PERFEV_SELFMON_MAX_EVENTS], id;
	size_t nr = perfev_selfmon_count(s);
	int fd = perfev_selfmon_fd(s, fd_idx);
	cr_assert_geq(fd, 0);
	cr_assert_eq(read(fd, buf, sizeof(buf)), (ssize_t)((3 + 2 * nr) * 8));
	cr_assert_eq(buf[0], nr);
	for (size_t i = 0; i < nr; i++) {
		cr_assert_eq(perfev_ioc_id(perfev_selfmon_fd(s, i), &id), 0);
		cr_assert_eq(buf[4 + 2 * i], id);
		vals[i] = buf[3 + 2 * i];
	}
}

Test(live_selfmon, read_is_the_group_read)
{
	struct perfev_selfmon *s = sw_set(0, 2, PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS);
	cr_assert_eq(perfev_selfmon_count(s), 2);
	cr_assert_str_eq(perfev_selfmon_name(s, 1), "page-faults");
	cr_assert_null(perfev_selfmon_name(s, 2));
	cr_assert_eq(perfev_selfmon_start(s), 0);
	touch_pages(64);
	cr_assert_eq(perfev_selfmon_stop(s), 0);
	struct perfev_selfmon_values v;
	uint64_t plain[2];
	cr_assert_eq(perfev_selfmon_read(s, &v), 0, "%s", perfev_errmsg());
	plain_read(s, 1, plain); /* through the member's fd: the same group */
	cr_assert_eq(v.nr, 2);
	cr_assert_eq(v.value[0], plain[0]);
	cr_assert_eq(v.value[1], plain[1]);
	cr_assert_geq(v.value[1], 64, "64 pages touched, %llu faults", (unsigned long long)v.value[1]);
	cr_assert_gt(v.enabled, 0);
	cr_assert_eq(v.enabled, v.running, "software events are never multiplexed");
	cr_assert_eq(v.scaled[0], v.value[0]);
	/* software events: every read is read(2), and the path says why */
	cr_assert(strstr(perfev_selfmon_path(s), "software event"), "%s", perfev_selfmon_path(s));
	cr_assert_eq(perfev_selfmon_reset(s), 0);
	cr_assert_eq(perfev_selfmon_read(s, &v), 0);
	cr_assert_eq(v.value[0], 0);
	cr_assert_eq(v.value[1], 0);
	perfev_selfmon_free(s);
	perfev_selfmon_free(NULL);
}

Test(live_selfmon, region_counts_equal_plain_reads)
{
	struct perfev_selfmon *s = sw_set(0, 2, PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS);
	uint64_t a[2], b[2], total[2] = {0, 0};
	cr_assert_eq(perfev_selfmon_start(s), 0);
	for (int round = 0; round < 3; round++) {
		/* the group is stopped at begin and end, so the region's reads and
		 * the plain reads see the same values */
		cr_assert_eq(perfev_selfmon_stop(s), 0);
		plain_read(s, 0, a);
		cr_assert_eq(perfev_selfmon_region_begin(s, "r"), 0, "%s", perfev_errmsg());
		cr_assert_eq(perfev_selfmon_start(s), 0);
		touch_pages(32 * (round + 1));
		cr_assert_eq(perfev_selfmon_stop(s), 0);
		plain_read(s, 0, b);
		cr_assert_eq(perfev_selfmon_region_end(s, "r"), 0, "%s", perfev_errmsg());
		struct perfev_region_stats st;
		cr_assert_eq(perfev_selfmon_region_stats(s, "r", false, &st), 0);
		cr_assert_eq(st.calls, (uint64_t)round + 1);
		for (int i = 0; i < 2; i++) {
			total[i] += b[i] - a[i];
			cr_assert_eq(st.total[i], total[i], "event %d round %d: region %llu, read() %llu",
				     i, round, (unsigned long long)st.total[i], (unsigned long long)total[i]);
			cr_assert_leq(st.min[i], b[i] - a[i]);
			cr_assert_geq(st.max[i], b[i] - a[i]);
		}
		cr_assert_geq(b[1] - a[1], 32 * (round + 1), "round %d: %llu faults", round,
			      (unsigned long long)(b[1] - a[1]));
	}
	perfev_selfmon_free(s);
}

Test(live_selfmon, regions_nest_and_say_what_is_wrong)
{
	struct perfev_selfmon *s = sw_set(0, 1, PERF_COUNT_SW_PAGE_FAULTS);
	cr_assert_eq(perfev_selfmon_region_end(s, "x"), -EINVAL);
	cr_assert(strstr(perfev_errmsg(), "no region is open"), "%s", perfev_errmsg());
	cr_assert_eq(perfev_selfmon_region_begin(s, "outer"), 0);
	cr_assert_eq(perfev_selfmon_region_begin(s, "inner"), 0);
	touch_pages(16);
	cr_assert_eq(perfev_selfmon_region_end(s, "outer"), -EINVAL);
	cr_assert(strstr(perfev_errmsg(), "'inner' is the innermost"), "%s", perfev_errmsg());
	cr_assert_eq(perfev_selfmon_region_end(s, "inner"), 0);
	touch_pages(16);
	cr_assert_eq(perfev_selfmon_region_end(s, "outer"), 0);
	struct perfev_region_stats in, out;
	cr_assert_eq(perfev_selfmon_region_stats(s, "inner", false, &in), 0);
	cr_assert_eq(perfev_selfmon_region_stats(s, "outer", false, &out), 0);
	cr_assert_geq(in.total[0], 16);
	cr_assert_geq(out.total[0], in.total[0] + 16, "outer includes inner");
	cr_assert_eq(perfev_selfmon_region_stats(s, "nowhere", true, &in), -ENOENT);
	perfev_selfmon_free(s);
}

struct worker_arg {
	struct perfev_selfmon *s;
	long pages;
	struct perfev_selfmon_values v;
};

static void *worker(void *p)
{
	struct worker_arg *w = p;
	perfev_selfmon_start(w->s);
	perfev_selfmon_region_begin(w->s, "work");
	touch_pages(w->pages);
	perfev_selfmon_region_end(w->s, "work");
	perfev_selfmon_stop(w->s);
	perfev_selfmon_read(w->s, &w->v);
	return NULL;
}

Test(live_selfmon, threads_have_their_own_groups_and_a_total)
{
	struct perfev_selfmon *s = sw_set(0, 2, PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_TASK_CLOCK);
	struct worker_arg w[4];
	pthread_t t[4];
	for (int i = 0; i < 4; i++) {
		w[i] = (struct worker_arg){.s = s, .pages = 100 * (i + 1)};
		cr_assert_eq(pthread_create(&t[i], NULL, worker, &w[i]), 0);
	}
	uint64_t sum = 0;
	for (int i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		cr_assert_geq(w[i].v.value[0], (uint64_t)w[i].pages, "thread %d: %llu faults", i,
			      (unsigned long long)w[i].v.value[0]);
		/* each thread counted itself, not the others (they touch 100..400 pages) */
		cr_assert_lt(w[i].v.value[0], (uint64_t)w[i].pages + 90);
		sum += w[i].v.value[0];
	}
	struct perfev_selfmon_values tot;
	cr_assert_eq(perfev_selfmon_read_total(s, &tot), 0, "%s", perfev_errmsg());
	cr_assert_eq(tot.threads, 4);
	cr_assert_eq(tot.value[0], sum, "the total of exited threads' groups is their sum");
	struct perfev_region_stats st;
	cr_assert_eq(perfev_selfmon_region_stats(s, "work", true, &st), 0);
	cr_assert_eq(st.calls, 4);
	cr_assert_eq(st.threads, 4);
	cr_assert_geq(st.total[0], 1000);
	cr_assert_geq(st.min[0], 100);
	cr_assert_geq(st.max[0], 400);
	perfev_selfmon_free(s);
}

static void *touch_300(void *arg)
{
	(void)arg;
	touch_pages(300);
	return NULL;
}

Test(live_selfmon, inherit_counts_children)
{
	struct perfev_selfmon *s = sw_set(PERFEV_SELFMON_INHERIT, 1, PERF_COUNT_SW_PAGE_FAULTS);
	cr_assert_eq(perfev_selfmon_start(s), 0);
	cr_assert(strstr(perfev_selfmon_path(s), "inherited"), "%s", perfev_selfmon_path(s));
	pid_t pid = fork();
	if (pid == 0) {
		touch_pages(500);
		_exit(0);
	}
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	pthread_t t;
	cr_assert_eq(pthread_create(&t, NULL, touch_300, NULL), 0);
	pthread_join(t, NULL);
	struct perfev_selfmon_values v;
	cr_assert_eq(perfev_selfmon_read(s, &v), 0);
	cr_assert_geq(v.value[0], 800, "child process 500 + thread 300 pages, %llu faults",
		      (unsigned long long)v.value[0]);
	perfev_selfmon_free(s);
}

Test(live_selfmon, too_many_events_or_none)
{
	struct perfev_evlist *l = perfev_evlist_new();
	cr_assert_null(perfev_selfmon_new_evlist(l, 0));
	cr_assert_eq(errno, EINVAL);
	struct perfev_attr a = {.type = PERF_TYPE_SOFTWARE, .config = PERF_COUNT_SW_DUMMY};
	for (int i = 0; i <= PERFEV_SELFMON_MAX_EVENTS; i++)
		perfev_evlist_add(l, &a, "dummy");
	cr_assert_null(perfev_selfmon_new_evlist(l, 0));
	cr_assert(strstr(perfev_errmsg(), "one group"), "%s", perfev_errmsg());
	perfev_evlist_free(l);
}

/* ---- the examples: report, and what a region costs ----------------------- */

Test(live_selfmon, at_exit_report_text_and_json)
{
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("PERFEV_REGIONS=json:%s/r.json %s/examples/regions 7 && "
				      "python3 -m json.tool %s/r.json >/dev/null",
				      dir, PERFEV_BUILDDIR, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	char path[512];
	snprintf(path, sizeof(path), "%s/r.json", dir);
	char *doc = slurp(path, NULL);
	cr_assert(strstr(doc, "\"name\":\"step\""), "%s", doc);
	cr_assert(strstr(doc, "\"threads\":1,\"calls\":7,"), "%s", doc);
	cr_assert(strstr(doc, "\"event\":\"page-faults\""), "%s", doc);
	free(doc);
	r = run_cmd("%s/examples/regions 3", PERFEV_BUILDDIR);
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.err, "region"), "%s", r.err);
	cr_assert(strstr(r.err, "step"), "%s", r.err);
	cr_assert(strstr(r.err, "task-clock"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("PERFEV_REGIONS=off %s/examples/regions 3", PERFEV_BUILDDIR);
	cr_assert_eq(r.status, 0);
	cr_assert_eq(r.err_len, 0, "%s", r.err);
	run_result_free(&r);
}

/* Total system calls of `examples/regions n` under strace -f -c. */
static long syscalls_of_regions(long n)
{
	const char *dir = test_tmpdir();
	/* LeakSanitizer cannot run under ptrace: off for the traced example */
	struct run_result r = run_cmd("ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0 PERFEV_REGIONS=off "
				      "strace -f -c -U calls,name -o %s/c%ld "
				      "%s/examples/regions %ld && awk '$2 == \"total\" {print $1}' %s/c%ld",
				      dir, n, PERFEV_BUILDDIR, n, dir, n);
	cr_assert_eq(r.status, 0, "strace: %s", r.err);
	long calls = strtol(r.out, NULL, 10);
	cr_assert_gt(calls, 0, "no total in strace's summary: %s", r.out);
	run_result_free(&r);
	return calls;
}

Test(live_selfmon, a_region_costs_at_most_two_syscalls)
{
	struct run_result probe = run_cmd("strace -f -c -U calls,name -o /dev/null true");
	if (probe.status != 0)
		cr_skip_test("strace cannot trace here: %s", probe.err);
	run_result_free(&probe);
	long a = syscalls_of_regions(1000), b = syscalls_of_regions(3000);
	double per_region = (double)(b - a) / 2000.0;
	cr_log_info("regions: %ld syscalls for 1000 regions, %ld for 3000: %.3f per region", a, b,
		    per_region);
	cr_assert_leq(per_region, 2.0, "a region costs %.3f system calls (%ld vs %ld)", per_region,
		      a, b);
	cr_assert_geq(per_region, 1.0, "no PMU here: begin and end should each read(2) (%.3f)",
		      per_region);
}

Test(live_selfmon, a_forked_child_gets_its_own_group)
{
	struct perfev_selfmon *s = sw_set(0, 1, PERF_COUNT_SW_PAGE_FAULTS);
	cr_assert_eq(perfev_selfmon_start(s), 0);
	touch_pages(200);
	int parent_fd = perfev_selfmon_fd(s, 0);
	pid_t pid = fork();
	if (pid == 0) {
		struct perfev_selfmon_values v;
		if (perfev_selfmon_fd(s, 0) == parent_fd)
			_exit(2); /* still the parent's counter */
		if (perfev_selfmon_start(s) < 0)
			_exit(3);
		touch_pages(20);
		if (perfev_selfmon_read(s, &v) < 0)
			_exit(4);
		_exit(v.value[0] >= 20 && v.value[0] < 150 ? 0 : 5); /* its own faults only */
	}
	int st;
	cr_assert_eq(waitpid(pid, &st, 0), pid);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "child status %d", st);
	perfev_selfmon_free(s);
}

Test(live_selfmon, event_strings_and_the_manual_example)
{
	struct run_result r = run_cmd("%s/examples/count_printf task-clock,page-faults", PERFEV_BUILDDIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "Measuring instruction count for this printf\nUsed "), "%s", r.out);
	cr_assert(strstr(r.out, " task-clock\n") && strstr(r.out, " page-faults\n"), "%s", r.out);
	unsigned long long tc = 0;
	cr_assert_eq(sscanf(strstr(r.out, "Used "), "Used %llu task-clock", &tc), 1, "%s", r.out);
	cr_assert_gt(tc, 0);
	run_result_free(&r);
	/* the manual's own event: counted with a PMU, explained without one */
	r = run_cmd("%s/examples/count_printf", PERFEV_BUILDDIR);
	struct perfev_attr a = {.type = PERF_TYPE_HARDWARE, .config = PERF_COUNT_HW_INSTRUCTIONS,
				.exclude_kernel = 1, .exclude_hv = 1};
	int fd = perfev_open(&a, 0, -1, -1, 0);
	if (fd >= 0) {
		close(fd);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_assert(strstr(r.out, " instructions:u\n"), "%s", r.out);
	} else {
		cr_assert_eq(r.status, 1);
		cr_assert(strstr(r.err, "count_printf: counter set, event 'instructions:u'"), "%s", r.err);
		cr_assert(strstr(r.err, "PMU"), "%s", r.err);
	}
	run_result_free(&r);
	/* a string that does not parse says where */
	cr_assert_null(perfev_selfmon_new("task-clock,,", 0));
	cr_assert_eq(errno, EINVAL);
	cr_assert(strstr(perfev_errmsg(), "\\___"), "%s", perfev_errmsg());
	/* groups in the string are one set */
	struct perfev_selfmon *s = perfev_selfmon_new("{task-clock,page-faults},context-switches", 0);
	cr_assert(s, "%s", perfev_errmsg());
	cr_assert_eq(perfev_selfmon_count(s), 3);
	struct perfev_selfmon_values v;
	cr_assert_eq(perfev_selfmon_start(s), 0);
	touch_pages(10);
	cr_assert_eq(perfev_selfmon_read(s, &v), 0, "%s", perfev_errmsg());
	cr_assert_geq(v.value[1], 10);
	perfev_selfmon_free(s);
}

Test(live_selfmon, default_region_set_from_the_environment)
{
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("PERFEV_REGION_EVENTS=page-faults,minor-faults "
				      "PERFEV_REGIONS=json:%s/t.json %s/examples/threads 3 50",
				      dir, PERFEV_BUILDDIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "page-faults        total"), "%s", r.out);
	cr_assert(strstr(r.out, "over 3 threads (3 calls)"), "%s", r.out);
	run_result_free(&r);
	char path[512];
	snprintf(path, sizeof(path), "%s/t.json", dir);
	char *doc = slurp(path, NULL);
	cr_assert(strstr(doc, "\"events\":[\"page-faults\",\"minor-faults\"]"), "%s", doc);
	cr_assert(strstr(doc, "\"name\":\"touch\""), "%s", doc);
	cr_assert(strstr(doc, "\"threads\":3,\"calls\":3,"), "%s", doc);
	free(doc);
	cr_assert_eq(perfev_regions_output("yaml"), -EINVAL);
	cr_assert(strstr(perfev_errmsg(), "text, json or off"), "%s", perfev_errmsg());
}

/* ---- the user-page path, with fake pages and a fake counter ---------------- */
struct fake_hw {
	uint64_t pmc[2];
	uint64_t clock;
};
static uint64_t fake_hw_pmc(uint32_t counter, void *ctx) { return ((struct fake_hw *)ctx)->pmc[counter]; }
static uint64_t fake_hw_clock(void *ctx) { return ((struct fake_hw *)ctx)->clock; }

Test(live_selfmon, user_page_path_serves_reads_and_falls_back)
{
	struct perfev_selfmon *s = sw_set(0, 2, PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_PAGE_FAULTS);
	cr_assert_eq(perfev_selfmon_start(s), 0);
	struct pv_sm_group *g = pv_sm_group_get(s);
	cr_assert(g);
	cr_assert_not(g->fast, "software events: no user-space counter");
	struct perf_event_mmap_page *p[2] = {calloc(1, sizeof(*p[0])), calloc(1, sizeof(*p[1]))};
	for (int i = 0; i < 2; i++) {
		p[i]->lock = 2;
		p[i]->index = (uint32_t)i + 1;
		p[i]->capabilities = PV_SM_CAP_USER_RDPMC | PV_SM_CAP_USER_TIME;
		p[i]->pmc_width = 48;
		p[i]->time_enabled = 1000;
		p[i]->time_running = 1000;
		p[i]->time_mult = 1;
	}
	p[0]->offset = 100;
	p[1]->offset = 7;
	struct fake_hw hw = {.pmc = {0xFFFFFFFFFFFEULL, 5}, .clock = 50}; /* -2 in 48 bits */
	struct pv_sm_reader rd = {fake_hw_pmc, fake_hw_clock, &hw, true};
	s->test_reader = &rd;
	g->page[0] = p[0];
	g->page[1] = p[1];
	g->fast = true;

	struct perfev_selfmon_values v;
	cr_assert_eq(perfev_selfmon_read(s, &v), 0);
	cr_assert_eq(v.value[0], 98);
	cr_assert_eq(v.value[1], 12);
	cr_assert_eq(v.enabled, 1050, "time extrapolated by the clock: %llu", (unsigned long long)v.enabled);
	cr_assert_eq(v.running, 1050);
	/* a region on the page path: the counter moved by 3 */
	cr_assert_eq(perfev_selfmon_region_begin(s, "hw"), 0);
	hw.pmc[1] += 3;
	hw.clock += 10;
	cr_assert_eq(perfev_selfmon_region_end(s, "hw"), 0);
	struct perfev_region_stats st;
	cr_assert_eq(perfev_selfmon_region_stats(s, "hw", false, &st), 0);
	cr_assert_eq(st.total[0], 0);
	cr_assert_eq(st.total[1], 3);
	cr_assert_eq(st.enabled, 10);

	/* one member off the PMU (index 0): the whole group is read(2) */
	p[1]->index = 0;
	cr_assert_eq(perfev_selfmon_stop(s), 0);
	uint64_t plain[2];
	plain_read(s, 0, plain);
	cr_assert_eq(perfev_selfmon_read(s, &v), 0);
	cr_assert_eq(v.value[0], plain[0]);
	cr_assert_eq(v.value[1], plain[1]);
	cr_assert_neq(v.value[0], 98);

	g->page[0] = g->page[1] = NULL; /* not ours to munmap */
	g->fast = false;
	free(p[0]);
	free(p[1]);
	perfev_selfmon_free(s);
}
