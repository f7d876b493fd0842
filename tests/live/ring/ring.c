/* The ring buffer against the running kernel: sample counts, overwrite mode,
 * SET_OUTPUT, context-switch records, wake-ups, the mlock limit explained. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile uint64_t sink;

static void spin_ms(double ms)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 10000; i++)
			sink = sink * 3 + 1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}

static struct perfev_attr clock_attr(uint64_t period_ns, uint64_t sample_type)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = period_ns;
	a.sample_type = sample_type;
	a.disabled = 1;
	a.exclude_kernel = 1; /* works at perf_event_paranoid 2 too */
	a.exclude_hv = 1;
	return a;
}

struct counts {
	int samples, lost_records, other;
	uint64_t lost;
};

static int count_rec(void *ctx, const void *rec, size_t size)
{
	struct counts *c = ctx;
	const struct perf_event_header *h = rec;
	if (h->type == PERF_RECORD_SAMPLE)
		c->samples++;
	else if (h->type == PERF_RECORD_LOST) {
		c->lost_records++;
		c->lost += ((const uint64_t *)rec)[2];
	} else
		c->other++;
	return 0;
}

Test(live_ring, cpu_clock_samples_match_duration_times_frequency, .timeout = 60)
{
	int go[2];
	cr_assert_eq(pipe(go), 0);
	pid_t pid = fork();
	if (pid == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execl(WORKLOAD("spin"), "spin", "400", (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	struct perfev_attr a = clock_attr(0, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME);
	a.freq = 1;
	a.sample_freq = 1000;
	a.enable_on_exec = 1;
	int fd = perfev_open(&a, pid, -1, -1, 0);
	cr_assert_geq(fd, 0, "%s", perfev_errmsg());
	struct perfev_ring *r = perfev_ring_mmap(fd, 0, false);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	struct perfev_poller *p = perfev_poller_new();
	cr_assert_eq(perfev_poller_add(p, fd, r), 0);
	cr_assert_eq(write(go[1], "x", 1), 1);
	close(go[1]);
	struct counts c = {0};
	bool hup = false;
	while (!hup) {
		struct perfev_poll_event ev[4];
		int n = perfev_poller_wait(p, ev, 4, 1000);
		cr_assert_geq(n, 0);
		for (int i = 0; i < n; i++) {
			cr_assert_eq(ev[i].ctx, r);
			hup |= ev[i].hangup;
		}
		cr_assert_geq(perfev_ring_drain(r, count_rec, &c), 0, "%s", perfev_errmsg());
	}
	int status;
	struct rusage ru;
	cr_assert_eq(wait4(pid, &status, 0, &ru), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	cr_assert_geq(perfev_ring_drain(r, count_rec, &c), 0);
	double cpu_ms = ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3 +
			ru.ru_stime.tv_sec * 1e3 + ru.ru_stime.tv_usec / 1e3;
	double want = cpu_ms; /* 1000 Hz: one sample per ms of CPU time */
	cr_log_info("%d samples for %.1f ms of CPU at 1000 Hz (lost %llu)", c.samples, cpu_ms,
		    (unsigned long long)c.lost);
	cr_assert_eq(c.lost, 0);
	cr_assert(c.samples > want * 0.9 && c.samples < want * 1.1,
		  "%d samples, want %.0f +-10%%", c.samples, want);
	perfev_poller_free(p);
	perfev_ring_munmap(r);
	close(fd);
}

/* Overwrite mode: a one-page flight recorder over many more samples than fit. */
Test(live_ring, overwrite_keeps_the_latest_samples, .timeout = 60)
{
	struct perfev_attr a = clock_attr(100000, PERF_SAMPLE_IP | PERF_SAMPLE_TIME);
	a.write_backward = 1;
	int fd = perfev_open(&a, 0, -1, -1, 0);
	cr_assert_geq(fd, 0, "%s", perfev_errmsg());
	struct perfev_ring *r = perfev_ring_mmap(fd, 1, true);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	size_t size = perfev_ring_data_size(r);
	perfev_ioc_enable(fd, false);
	spin_ms(200); /* ~2000 samples of 24 bytes: the page wraps many times */
	perfev_ioc_disable(fd, false);
	int64_t avail = perfev_ring_read_begin(r);
	cr_assert_eq(avail, (int64_t)size, "the buffer wrapped, so all of it is new");
	const void *rec;
	size_t rs;
	int n = 0;
	uint64_t prev_time = UINT64_MAX, newest = 0;
	while (perfev_ring_read_next(r, &rec, &rs) > 0) {
		const uint64_t *u = rec;
		cr_assert_eq(((const struct perf_event_header *)rec)->type, PERF_RECORD_SAMPLE);
		cr_assert_eq(rs, 24);
		cr_assert_lt(u[2], prev_time, "newest first: times decrease");
		prev_time = u[2];
		if (!n)
			newest = u[2];
		n++;
	}
	cr_assert_eq(perfev_ring_read_end(r), 0);
	cr_assert_geq(n, (int)(size / 24) - 1, "%d samples in %zu bytes", n, size);
	/* Nothing new since: an empty batch. Then more samples: only those. */
	cr_assert_eq(perfev_ring_read_begin(r), 0);
	perfev_ring_read_end(r);
	perfev_ioc_enable(fd, false);
	spin_ms(2);
	perfev_ioc_disable(fd, false);
	int64_t more = perfev_ring_read_begin(r);
	cr_assert_gt(more, 0);
	int m = 0;
	while (perfev_ring_read_next(r, &rec, &rs) > 0) {
		cr_assert_gt(((const uint64_t *)rec)[2], newest, "only newer samples");
		m++;
	}
	perfev_ring_read_end(r);
	cr_assert_eq(m * 24, more);
	perfev_ring_munmap(r);
	close(fd);
}

/* SET_OUTPUT: two events, one buffer; IDENTIFIER tells them apart. */
Test(live_ring, set_output_shares_one_buffer, .timeout = 60)
{
	struct perfev_attr a = clock_attr(500000, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP);
	int fd1 = perfev_open(&a, 0, -1, -1, 0);
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	int fd2 = perfev_open(&a, 0, -1, -1, 0);
	cr_assert(fd1 >= 0 && fd2 >= 0, "%s", perfev_errmsg());
	struct perfev_ring *r = perfev_ring_mmap(fd1, 8, false);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	cr_assert_eq(perfev_ring_add_event(r, fd2), 0, "%s", perfev_errmsg());
	struct perfev_idmap *m = perfev_idmap_new();
	int which[2] = {0, 0};
	cr_assert_eq(perfev_idmap_add_fd(m, fd1, &which[0], NULL), 0);
	cr_assert_eq(perfev_idmap_add_fd(m, fd2, &which[1], NULL), 0);
	perfev_ioc_enable(fd1, false);
	perfev_ioc_enable(fd2, false);
	spin_ms(50);
	perfev_ioc_disable(fd1, false);
	perfev_ioc_disable(fd2, false);
	cr_assert_gt(perfev_ring_read_begin(r), 0);
	const void *rec;
	size_t rs;
	while (perfev_ring_read_next(r, &rec, &rs) > 0) {
		if (((const struct perf_event_header *)rec)->type != PERF_RECORD_SAMPLE)
			continue;
		int *w = perfev_idmap_find_record(m, rec, rs);
		cr_assert_not_null(w, "a sample with an unknown id");
		(*w)++;
	}
	perfev_ring_read_end(r);
	cr_log_info("cpu-clock %d, task-clock %d samples in one buffer", which[0], which[1]);
	cr_assert_gt(which[0], 20);
	cr_assert_gt(which[1], 20);
	/* The second event cannot be mapped itself any more. */
	cr_assert_null(perfev_ring_mmap(fd2, 8, false));
	perfev_idmap_free(m);
	perfev_ring_munmap(r);
	close(fd2);
	close(fd1);
}

Test(live_ring, context_switch_records, .timeout = 60)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.context_switch = 1;
	a.sample_id_all = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	a.exclude_kernel = 1;
	a.disabled = 1;
	int fd = perfev_open(&a, 0, -1, -1, 0);
	cr_assert_geq(fd, 0, "%s", perfev_errmsg());
	struct perfev_ring *r = perfev_ring_mmap(fd, 8, false);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	perfev_ioc_enable(fd, false);
	for (int i = 0; i < 10; i++)
		usleep(1000);
	perfev_ioc_disable(fd, false);
	int in = 0, out = 0;
	const void *rec;
	size_t rs;
	cr_assert_gt(perfev_ring_read_begin(r), 0);
	while (perfev_ring_read_next(r, &rec, &rs) > 0) {
		const struct perf_event_header *h = rec;
		if (h->type != PERF_RECORD_SWITCH)
			continue;
		if (h->misc & PERF_RECORD_MISC_SWITCH_OUT)
			out++;
		else
			in++;
		/* sample_id_all: pid/tid then time follow the header */
		const uint32_t *pt = (const uint32_t *)(h + 1);
		cr_assert_eq(pt[0], (uint32_t)getpid());
	}
	perfev_ring_read_end(r);
	cr_assert_geq(out, 10, "%d switch-out records for 10 sleeps", out);
	cr_assert_geq(in, 10, "%d switch-in records for 10 sleeps", in);
	perfev_ring_munmap(r);
	close(fd);
}

Test(live_ring, wakeup_watermark_gates_poll, .timeout = 60)
{
	struct perfev_attr a = clock_attr(100000, PERF_SAMPLE_IP);
	cr_assert_eq(perfev_attr_set_wakeup(&a, 0, 1024), 0);
	int fd = perfev_open(&a, 0, -1, -1, 0);
	cr_assert_geq(fd, 0, "%s", perfev_errmsg());
	struct perfev_ring *r = perfev_ring_mmap(fd, 1, false);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	short rev;
	cr_assert_eq(perfev_poll_fds(&fd, &rev, 1, 0), 0, "nothing written: not readable");
	struct perf_event_mmap_page *pg = perfev_ring_user_page(r);
	perfev_ioc_enable(fd, false);
	while (__atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE) < 512)
		spin_ms(0.2);
	perfev_ioc_disable(fd, false);
	if (__atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE) < 1024)
		cr_assert_eq(perfev_poll_fds(&fd, &rev, 1, 0), 0, "below the watermark: not readable");
	perfev_ioc_enable(fd, false);
	while (__atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE) < 1100)
		spin_ms(0.2);
	perfev_ioc_disable(fd, false);
	cr_assert_eq(perfev_poll_fds(&fd, &rev, 1, 0), 1, "past the watermark: readable");
	cr_assert(rev & POLLIN);
	perfev_ring_munmap(r);
	close(fd);
}

Test(live_ring, mlock_limit_is_explained, .timeout = 60)
{
	require_root();
	/* As an unprivileged user (no CAP_IPC_LOCK), map far beyond every limit. */
	struct rlimit rl = {64 * 1024, 64 * 1024};
	cr_assert_eq(setrlimit(RLIMIT_MEMLOCK, &rl), 0);
	cr_assert_eq(setgid(65534), 0);
	cr_assert_eq(setuid(65534), 0);
	struct perfev_attr a = clock_attr(100000, PERF_SAMPLE_IP);
	int fd = perfev_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		cr_skip_test("an unprivileged user cannot open events here: %s", perfev_errmsg());
	struct perfev_ring *r = perfev_ring_mmap(fd, 4096, false);
	cr_assert_null(r);
	cr_assert_eq(errno, EPERM, "errno %d: %s", errno, perfev_errmsg());
	cr_assert(strstr(perfev_errmsg(), "perf_event_mlock_kb"), "%s", perfev_errmsg());
	cr_assert(strstr(perfev_errmsg(), "CAP_IPC_LOCK"), "%s", perfev_errmsg());
	r = perfev_ring_mmap(fd, 1, false);
	cr_assert_not_null(r, "one page fits: %s", perfev_errmsg());
	perfev_ring_munmap(r);
	close(fd);
}

Test(live_ring, aux_area_needs_a_tracing_pmu, .timeout = 60)
{
	struct perfev_attr a = clock_attr(100000, PERF_SAMPLE_IP);
	int fd = perfev_open(&a, 0, -1, -1, 0);
	cr_assert_geq(fd, 0);
	struct perfev_ring *r = perfev_ring_mmap(fd, 1, false);
	cr_assert_not_null(r);
	int e = perfev_ring_aux_mmap(r, 4, false);
	cr_assert_lt(e, 0, "cpu-clock has no AUX area");
	cr_assert(strstr(perfev_errmsg(), "AUX"), "%s", perfev_errmsg());
	perfev_ring_munmap(r);
	close(fd);
}
