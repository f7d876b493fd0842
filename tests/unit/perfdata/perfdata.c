/* perf.data writer and reader: round trips in file and pipe mode, with and
 * without compression, time ordering by rounds, a file finalized early,
 * truncated files, and a big-endian file. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"

#include <byteswap.h>
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <sys/wait.h>

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD)

static struct perfev_attr attr_of(uint64_t config)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.size = PERFEV_ATTR_SIZE_LATEST;
	a.sample_type = ST;
	a.sample_id_all = 1;
	a.sample_period = 1000;
	a.exclude_guest = 1; /* as perf sets it: the name has no :HG */
	return a;
}

static size_t sample(uint8_t *buf, const struct perfev_attr *a, uint64_t id, uint64_t time, uint64_t ip)
{
	struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER};
	r.u.sample.ip = ip;
	r.u.sample.pid = r.u.sample.tid = 42;
	r.u.sample.time = time;
	r.u.sample.id = id;
	r.u.sample.period = 1000;
	int n = perfev_record_encode(&r, a, buf, 256);
	cr_assert_gt(n, 0);
	return (size_t)n;
}

struct seen {
	uint64_t times[64];
	uint64_t ips[64];
	int attr[64];
	int n, comms, rounds;
	char comm[32];
};

static int collect(void *ctx, const struct perfev_record *r)
{
	struct seen *s = ctx;
	if (r->type == PERF_RECORD_SAMPLE && s->n < 64) {
		s->times[s->n] = r->u.sample.time;
		s->ips[s->n] = r->u.sample.ip;
		s->attr[s->n++] = r->attr_idx;
	} else if (r->type == PERF_RECORD_COMM) {
		s->comms++;
		snprintf(s->comm, sizeof(s->comm), "%s", r->u.comm.comm);
	} else if (r->type == PERFEV_RECORD_FINISHED_ROUND)
		s->rounds++;
	return 0;
}

/* Writes: COMM, round 1 = samples at 50, 30 (event 0, 1), round 2 = sample at 10
 * (older than round 1's), round 3 = sample at 70. */
static void write_file(const char *path, bool pipe, int level)
{
	struct perfev_attr a0 = attr_of(PERF_COUNT_SW_CPU_CLOCK), a1 = attr_of(PERF_COUNT_SW_TASK_CLOCK);
	uint64_t id0[] = {11, 12}, id1[] = {21};
	struct perfev_perfdata_event ev[] = {{&a0, "cpu-clock", id0, 2}, {&a1, NULL, id1, 1}};
	char *argv[] = {"record", "-e", "cpu-clock", NULL};
	struct perfev_perfdata_write_opts o = {.sz = sizeof(o), .pipe = pipe, .compress_level = level,
					       .argc = 3, .argv = argv};
	struct perfev_perfdata_writer *w = perfev_perfdata_writer_open(path, -1, ev, 2, &o);
	cr_assert(w, "writer: %s", perfev_errmsg());
	uint8_t buf[256];
	struct perfev_record c = {.type = PERF_RECORD_COMM, .misc = PERF_RECORD_MISC_COMM_EXEC};
	c.u.comm.pid = c.u.comm.tid = 42;
	c.u.comm.comm = "worker";
	c.sid.id = 11;
	c.sid.time = 1;
	int n = perfev_record_encode(&c, &a0, buf, sizeof(buf));
	cr_assert_eq(perfev_perfdata_writer_write(w, buf, (size_t)n), 0);
	cr_assert_eq(perfev_perfdata_writer_write(w, buf, sample(buf, &a0, 12, 50, 0x5000)), 0);
	cr_assert_eq(perfev_perfdata_writer_write(w, buf, sample(buf, &a1, 21, 30, 0x3000)), 0);
	cr_assert_eq(perfev_perfdata_writer_finish_round(w), 0);
	cr_assert_eq(perfev_perfdata_writer_write(w, buf, sample(buf, &a0, 11, 10, 0x1000)), 0);
	cr_assert_eq(perfev_perfdata_writer_finish_round(w), 0);
	cr_assert_eq(perfev_perfdata_writer_write(w, buf, sample(buf, &a1, 21, 70, 0x7000)), 0);
	cr_assert_eq(perfev_perfdata_writer_finish_round(w), 0);
	static const uint8_t bid[20] = {0xde, 0xad, 0xbe, 0xef};
	cr_assert_eq(perfev_perfdata_writer_add_build_id(w, 42, PERF_RECORD_MISC_USER, bid, 20, "/usr/bin/worker"), 0);
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
}

static void check_file(const char *path, bool pipe)
{
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	cr_assert(pd, "open: %s", perfev_errmsg());
	cr_assert_eq(perfev_perfdata_is_pipe(pd), pipe);
	struct seen s = {0};
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro)};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, collect, &s), 0, "%s", perfev_errmsg());
	cr_assert_eq(perfev_perfdata_nr_events(pd), 2);
	cr_assert_str_eq(perfev_perfdata_event_name(pd, 0), "cpu-clock");
	cr_assert_str_eq(perfev_perfdata_event_name(pd, 1), "task-clock");
	size_t nids;
	const uint64_t *ids = perfev_perfdata_event_ids(pd, 0, &nids);
	cr_assert(nids == 2 && ids[1] == 12);
	cr_assert_eq(s.n, 4);
	cr_assert_eq(s.comms, 1);
	cr_assert_str_eq(s.comm, "worker");
	/* perf's rounds: everything ends up in time order here */
	uint64_t want[] = {10, 30, 50, 70};
	for (int i = 0; i < 4; i++)
		cr_assert_eq(s.times[i], want[i], "record %d at %llu", i, (unsigned long long)s.times[i]);
	cr_assert_eq(s.attr[0], 0);
	cr_assert_eq(s.attr[1], 1);
	cr_assert_eq(s.rounds, 3);
	const char *host = perfev_perfdata_feature_str(pd, PERFEV_FEAT_HOSTNAME);
	cr_assert(host && *host);
	cr_assert(perfev_perfdata_feature_str(pd, PERFEV_FEAT_OSRELEASE));
	struct perfev_perfdata_info info;
	perfev_perfdata_info(pd, &info);
	cr_assert_gt(info.nr_cpus_online, 0);
	cr_assert_gt(info.total_mem_kb, 0);
	if (!pipe) {
		size_t sz;
		cr_assert(perfev_perfdata_feature(pd, PERFEV_FEAT_BUILD_ID, &sz) && sz > 36);
		cr_assert(perfev_perfdata_has_feature(pd, PERFEV_FEAT_CPU_TOPOLOGY));
		cr_assert(perfev_perfdata_has_feature(pd, PERFEV_FEAT_CMDLINE));
		/* the recorder's path, then its arguments */
		cr_assert_str_eq(perfev_perfdata_feature_list(pd, PERFEV_FEAT_CMDLINE, 1), "record");
		cr_assert_str_eq(perfev_perfdata_feature_list(pd, PERFEV_FEAT_CMDLINE, 3), "cpu-clock");
		cr_assert_null(perfev_perfdata_feature_list(pd, PERFEV_FEAT_CMDLINE, 4));
		cr_assert(perfev_perfdata_feature_list(pd, PERFEV_FEAT_CPU_TOPOLOGY, 0));
	}
	/* unordered: file order */
	struct seen u = {0};
	ro.unordered = true;
	cr_assert_eq(perfev_perfdata_process(pd, &ro, collect, &u), 0);
	cr_assert_eq(u.times[0], 50);
	perfev_perfdata_close(pd);
}

Test(unit_perfdata, file_round_trip)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/f.data", test_tmpdir());
	write_file(p, false, 0);
	check_file(p, false);
}

/* A round as perf writes it: each CPU's buffer in time order, one after
 * another, in several chunks, with equal times across CPUs; then a round
 * with older records. Delivery is by time, ties in file order. */
Test(unit_perfdata, rounds_of_interleaved_runs_in_time_order)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/runs.data", test_tmpdir());
	struct perfev_attr a0 = attr_of(PERF_COUNT_SW_CPU_CLOCK);
	uint64_t id0[] = {11};
	struct perfev_perfdata_event ev[] = {{&a0, "cpu-clock", id0, 1}};
	struct perfev_perfdata_write_opts o = {.sz = sizeof(o)};
	struct perfev_perfdata_writer *w = perfev_perfdata_writer_open(p, -1, ev, 1, &o);
	cr_assert(w, "writer: %s", perfev_errmsg());
	uint64_t t[64];
	int n = 0;
	/* round 1: chunks "cpu0 10..", "cpu1 11..", "cpu0 ..", "cpu1 .." (times collide) */
	for (int chunk = 0; chunk < 4; chunk++)
		for (int i = 0; i < 12; i++)
			t[n++] = 10 + (uint64_t)(chunk % 2) + (uint64_t)(chunk / 2) * 40 + (uint64_t)i * 3;
	uint8_t buf[256];
	for (int i = 0; i < n; i++)
		cr_assert_eq(perfev_perfdata_writer_write(w, buf, sample(buf, &a0, 11, t[i], (uint64_t)i)), 0);
	cr_assert_eq(perfev_perfdata_writer_finish_round(w), 0);
	for (int i = 0; i < 8; i++, n++) {
		t[n] = 5 + (uint64_t)(7 - i) * 13; /* descending, some older than round 1 */
		cr_assert_eq(perfev_perfdata_writer_write(w, buf, sample(buf, &a0, 11, t[n], (uint64_t)n)), 0);
	}
	cr_assert_eq(perfev_perfdata_writer_finish_round(w), 0);
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());

	struct perfev_perfdata *pd = perfev_perfdata_open(p);
	cr_assert(pd, "open: %s", perfev_errmsg());
	struct seen s = {0};
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro)};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, collect, &s), 0, "%s", perfev_errmsg());
	cr_assert_eq(s.n, n);
	/* a round's end delivers what is older than the round before it ended:
	 * here that makes one order over both rounds, by (time, file order) */
	int order[64];
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = 1; i < n; i++) /* insertion sort: stable */
		for (int j = i; j > 0 && t[order[j]] < t[order[j - 1]]; j--) {
			int x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	for (int i = 0; i < n; i++) {
		cr_assert_eq(s.times[i], t[order[i]], "record %d at %llu", i, (unsigned long long)s.times[i]);
		cr_assert_eq(s.ips[i], (uint64_t)order[i], "record %d at %llu", i, (unsigned long long)s.times[i]);
	}
	perfev_perfdata_close(pd);
}

Test(unit_perfdata, pipe_round_trip)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/p.data", test_tmpdir());
	write_file(p, true, 0);
	check_file(p, true);
	/* and from a real pipe */
	int fd = open(p, O_RDONLY);
	int pfd[2];
	cr_assert_eq(pipe(pfd), 0);
	size_t len;
	char *bytes = slurp(p, &len);
	if (fork() == 0) {
		close(pfd[0]);
		ssize_t k = write(pfd[1], bytes, len);
		_exit(k == (ssize_t)len ? 0 : 1);
	}
	close(pfd[1]);
	struct perfev_perfdata *pd = perfev_perfdata_open_fd(pfd[0]);
	cr_assert(pd, "%s", perfev_errmsg());
	struct seen s = {0};
	cr_assert_eq(perfev_perfdata_process(pd, NULL, collect, &s), 0, "%s", perfev_errmsg());
	cr_assert_eq(s.n, 4);
	perfev_perfdata_close(pd);
	close(fd);
	close(pfd[0]);
	free(bytes);
}

Test(unit_perfdata, compressed_round_trip)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/z.data", test_tmpdir());
	write_file(p, false, 3);
	check_file(p, false);
	struct perfev_perfdata *pd = perfev_perfdata_open(p);
	struct perfev_perfdata_info info;
	perfev_perfdata_info(pd, &info);
	cr_assert_eq(info.comp_type, 1);
	cr_assert_eq(info.comp_level, 3);
	struct perfev_perfdata_stats st;
	cr_assert_eq(perfev_perfdata_process(pd, NULL, collect, &(struct seen){0}), 0);
	perfev_perfdata_stats(pd, &st);
	cr_assert_gt(st.nr_records[PERFEV_RECORD_COMPRESSED], 0);
	perfev_perfdata_close(pd);
	snprintf(p, sizeof(p), "%s/zp.data", test_tmpdir());
	write_file(p, true, 1);
	check_file(p, true);
}

/* A recording stopped at any moment is a valid file: finalize is called
 * before the writer is done (as a SIGINT handler would). */
Test(unit_perfdata, finalized_early_is_valid)
{
	char p[256], q[300];
	snprintf(p, sizeof(p), "%s/early.data", test_tmpdir());
	snprintf(q, sizeof(q), "%s/early-copy.data", test_tmpdir());
	struct perfev_attr a = attr_of(0);
	struct perfev_perfdata_event ev = {&a, "cpu-clock", (uint64_t[]){5}, 1};
	struct perfev_perfdata_write_opts o = {.sz = sizeof(o), .no_host_features = true};
	struct perfev_perfdata_writer *w = perfev_perfdata_writer_open(p, -1, &ev, 1, &o);
	cr_assert(w);
	uint8_t buf[256];
	for (int i = 0; i < 10; i++)
		perfev_perfdata_writer_write(w, buf, sample(buf, &a, 5, 100 + (uint64_t)i, 0x400000));
	cr_assert_eq(perfev_perfdata_writer_finalize(w), 0);
	struct run_result r = run_cmd("cp '%s' '%s'", p, q);
	run_result_free(&r);
	perfev_perfdata_writer_write(w, buf, sample(buf, &a, 5, 200, 0x400000));
	cr_assert_eq(perfev_perfdata_writer_close(w), 0);
	struct seen s = {0};
	struct perfev_perfdata *pd = perfev_perfdata_open(q);
	cr_assert(pd, "%s", perfev_errmsg());
	cr_assert_eq(perfev_perfdata_process(pd, NULL, collect, &s), 0);
	cr_assert_eq(s.n, 10);
	perfev_perfdata_close(pd);
	memset(&s, 0, sizeof(s));
	pd = perfev_perfdata_open(p);
	cr_assert_eq(perfev_perfdata_process(pd, NULL, collect, &s), 0);
	cr_assert_eq(s.n, 11);
	perfev_perfdata_close(pd);
}

/* Every truncation of a file gives an error or fewer records, never a crash. */
Test(unit_perfdata, truncated_files)
{
	char p[256], q[300];
	snprintf(p, sizeof(p), "%s/t.data", test_tmpdir());
	snprintf(q, sizeof(q), "%s/t-cut.data", test_tmpdir());
	write_file(p, false, 0);
	size_t len;
	char *bytes = slurp(p, &len);
	for (size_t cut = 0; cut < len; cut += 7) {
		int fd = open(q, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		cr_assert(write(fd, bytes, cut) == (ssize_t)cut);
		close(fd);
		struct perfev_perfdata *pd = perfev_perfdata_open(q);
		if (!pd)
			continue;
		struct seen s = {0};
		(void)perfev_perfdata_process(pd, NULL, collect, &s);
		cr_assert_leq(s.n, 4);
		perfev_perfdata_close(pd);
	}
	free(bytes);
}

/* A file from a big-endian machine: header, attr and records byte-swapped. */
Test(unit_perfdata, big_endian_file)
{
	struct perfev_attr a = attr_of(PERF_COUNT_SW_CPU_CLOCK);
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	a.sample_id_all = 0;
	a.size = 128;
	uint8_t f[1024] = {0};
	uint64_t *h = (uint64_t *)f;
	/* header: magic, size, attr_size, attrs{off,size}, data{off,size} */
	h[0] = bswap_64(0x32454c4946524550ULL);
	h[1] = bswap_64(104);
	h[2] = bswap_64(128 + 16);
	h[3] = bswap_64(104);
	h[4] = bswap_64(128 + 16);
	h[5] = bswap_64(104 + 144);
	h[6] = bswap_64(3 * 40);
	/* the attr, swapped field by field; bit-fields as a big-endian compiler lays them */
	uint8_t *at = f + 104;
	uint32_t t32 = bswap_32(a.type), s32 = bswap_32(128);
	memcpy(at, &t32, 4);
	memcpy(at + 4, &s32, 4);
	uint64_t v = bswap_64(a.config);
	memcpy(at + 8, &v, 8);
	v = bswap_64(a.sample_period);
	memcpy(at + 16, &v, 8);
	v = bswap_64(a.sample_type);
	memcpy(at + 24, &v, 8);
	uint64_t bits = 1ULL << (63 - 0); /* disabled:1 is the most significant bit there */
	v = bswap_64(bits);
	memcpy(at + 40, &v, 8);
	/* three samples: ip, pid/tid, time, period */
	for (int i = 0; i < 3; i++) {
		uint8_t *r = f + 104 + 144 + i * 40;
		uint32_t type = bswap_32(PERF_RECORD_SAMPLE);
		uint16_t misc = bswap_16(PERF_RECORD_MISC_USER), size = bswap_16(40);
		memcpy(r, &type, 4);
		memcpy(r + 4, &misc, 2);
		memcpy(r + 6, &size, 2);
		v = bswap_64(0x400000 + (uint64_t)i);
		memcpy(r + 8, &v, 8);
		uint32_t pid = bswap_32(7), tid = bswap_32(8);
		memcpy(r + 16, &pid, 4);
		memcpy(r + 20, &tid, 4);
		v = bswap_64(1000 + (uint64_t)i);
		memcpy(r + 24, &v, 8);
		v = bswap_64(555);
		memcpy(r + 32, &v, 8);
	}
	char p[256];
	snprintf(p, sizeof(p), "%s/be.data", test_tmpdir());
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert(write(fd, f, 104 + 144 + 120) == 104 + 144 + 120);
	close(fd);
	struct perfev_perfdata *pd = perfev_perfdata_open(p);
	cr_assert(pd, "%s", perfev_errmsg());
	cr_assert(perfev_perfdata_is_swapped(pd));
	const struct perfev_attr *ra = perfev_perfdata_event_attr(pd, 0);
	cr_assert_eq(ra->sample_type, a.sample_type);
	cr_assert_eq(ra->disabled, 1);
	cr_assert_eq(ra->inherit, 0);
	struct seen s = {0};
	cr_assert_eq(perfev_perfdata_process(pd, NULL, collect, &s), 0, "%s", perfev_errmsg());
	cr_assert_eq(s.n, 3);
	cr_assert_eq(s.ips[2], 0x400002);
	cr_assert_eq(s.times[1], 1001);
	perfev_perfdata_close(pd);
}

Test(unit_perfdata, not_perf_data)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/junk.data", test_tmpdir());
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	cr_assert(write(fd, "PERFFILE0123456789abcdef", 24) == 24);
	close(fd);
	cr_assert_null(perfev_perfdata_open(p));
	cr_assert(strstr(perfev_errmsg(), "version 1"), "%s", perfev_errmsg());
	cr_assert_null(perfev_perfdata_open("/nonexistent/perf.data"));
	cr_assert_eq(errno, ENOENT);
}

/* SIGINT in the middle of writing: a handler that calls finalize and exits
 * leaves a file that reads back whole. */
static struct perfev_perfdata_writer *sig_writer;
static void on_sigint(int sig)
{
	(void)sig;
	perfev_perfdata_writer_finalize(sig_writer);
	_exit(0);
}

Test(unit_perfdata, sigint_leaves_a_valid_file)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/sig.data", test_tmpdir());
	int ready[2];
	cr_assert_eq(pipe(ready), 0);
	pid_t pid = fork();
	if (pid == 0) {
		struct perfev_attr a = attr_of(0);
		struct perfev_perfdata_event ev = {&a, "cpu-clock", (uint64_t[]){5}, 1};
		struct perfev_perfdata_write_opts o = {.sz = sizeof(o), .no_host_features = true, .compress_level = 1};
		sig_writer = perfev_perfdata_writer_open(p, -1, &ev, 1, &o);
		if (!sig_writer)
			_exit(2);
		signal(SIGINT, on_sigint);
		uint8_t buf[256];
		for (uint64_t t = 1;; t++) {
			perfev_perfdata_writer_write(sig_writer, buf, sample(buf, &a, 5, t, 0x400000 + t));
			if (t % 100 == 0)
				perfev_perfdata_writer_finish_round(sig_writer);
			if (t == 20000 && write(ready[1], "x", 1) != 1)
				_exit(3);
		}
	}
	char c;
	cr_assert_eq(read(ready[0], &c, 1), 1);
	kill(pid, SIGINT);
	int st;
	waitpid(pid, &st, 0);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writer child status %d", st);
	struct perfev_perfdata *pd = perfev_perfdata_open(p);
	cr_assert(pd, "%s", perfev_errmsg());
	struct seen s = {0};
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro)};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, collect, &s), 0, "%s", perfev_errmsg());
	struct perfev_perfdata_stats st2;
	perfev_perfdata_stats(pd, &st2);
	cr_assert_geq(st2.nr_records[PERF_RECORD_SAMPLE], 20000);
	perfev_perfdata_close(pd);
	close(ready[0]);
	close(ready[1]);
}

/* A recording above the pager's 32 MB threshold: a second thread maps its
 * pages ahead of the reader and gives back those behind it. What is read
 * must not depend on it: the same records in the same order, including
 * records queued for time ordering across a 3 MB round whose pages were
 * given back before the round's end delivered them. */
struct big_seen {
	uint64_t n, hash, last_time, max_tasks;
	bool ordered;
};

static uint64_t nr_tasks(void)
{
	char line[256];
	uint64_t n = 0;
	FILE *f = fopen("/proc/self/status", "r");
	cr_assert(f);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Threads: %llu", (unsigned long long *)&n) == 1)
			break;
	fclose(f);
	return n;
}

static int big_collect(void *ctx, const struct perfev_record *r)
{
	struct big_seen *s = ctx;
	if (r->type != PERF_RECORD_SAMPLE)
		return 0;
	const uint8_t *raw = r->u.sample.raw;
	uint64_t h = s->hash ^ r->u.sample.time;
	for (uint32_t i = 0; i < r->u.sample.raw_size; i += 61)
		h = (h ^ raw[i]) * 0x100000001b3ull;
	s->hash = h * 31 + r->u.sample.ip;
	if (r->u.sample.time < s->last_time)
		s->ordered = false;
	s->last_time = r->u.sample.time;
	if (++s->n % 4000 == 0) {
		uint64_t t = nr_tasks();
		if (t > s->max_tasks)
			s->max_tasks = t;
	}
	return 0;
}

Test(unit_perfdata, big_file_reads_the_same_with_the_pager)
{
	char p[256];
	snprintf(p, sizeof(p), "%s/big.data", test_tmpdir());
	struct perfev_attr a = attr_of(PERF_COUNT_SW_CPU_CLOCK);
	a.sample_type |= PERF_SAMPLE_RAW;
	uint64_t id[] = {11};
	struct perfev_perfdata_event ev[] = {{&a, "cpu-clock", id, 1}};
	struct perfev_perfdata_write_opts o = {.sz = sizeof(o)};
	struct perfev_perfdata_writer *w = perfev_perfdata_writer_open(p, -1, ev, 1, &o);
	cr_assert(w, "writer: %s", perfev_errmsg());
	enum { N = 10000, RAW = 4000 };
	static uint8_t raw[RAW + 64], buf[RAW + 256];
	for (int i = 0; i < N; i++) {
		for (int k = 0; k < RAW; k += 61)
			raw[k] = (uint8_t)(i * 7 + k);
		/* rounds of 100 samples, each CPU's run in time order; samples
		 * 3000..3749 are one 3 MB round */
		struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER};
		r.u.sample.ip = 0x400000 + (uint64_t)i;
		r.u.sample.pid = r.u.sample.tid = 42;
		r.u.sample.time = 1000 + (uint64_t)(i / 100) * 1000 + (uint64_t)(i % 2) * 500 + (uint64_t)(i % 100);
		r.u.sample.id = 11;
		r.u.sample.period = 1000;
		r.u.sample.raw = raw;
		r.u.sample.raw_size = RAW + 4; /* with its u32 size: 8-byte aligned */
		int n = perfev_record_encode(&r, &a, buf, sizeof(buf));
		cr_assert_gt(n, 0, "%s", perfev_errmsg());
		cr_assert_eq(perfev_perfdata_writer_write(w, buf, (size_t)n), 0);
		if (i % 100 == 99 && (i < 3000 || i >= 3749))
			cr_assert_eq(perfev_perfdata_writer_finish_round(w), 0);
	}
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());

	struct big_seen with = {.ordered = true}, without = {.ordered = true};
	uint64_t before = nr_tasks();
	for (int pass = 0; pass < 2; pass++) {
		if (pass)
			setenv("PERFEV_PAGER", "0", 1);
		struct perfev_perfdata *pd = perfev_perfdata_open(p);
		cr_assert(pd, "open: %s", perfev_errmsg());
		struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro)};
		cr_assert_eq(perfev_perfdata_process(pd, &ro, big_collect, pass ? &without : &with), 0, "%s",
			     perfev_errmsg());
		perfev_perfdata_close(pd);
	}
	unsetenv("PERFEV_PAGER");
	cr_assert_eq(with.n, N);
	cr_assert_eq(without.n, N);
	cr_assert(with.ordered && without.ordered, "delivered out of time order");
	cr_assert_eq(with.hash, without.hash, "the pager changed what was read");
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2) {
		cr_assert_gt(with.max_tasks, before, "no pager thread while reading %s", p);
		cr_assert_eq(without.max_tasks, before, "a pager thread despite PERFEV_PAGER=0");
	}
	cr_assert_eq(nr_tasks(), before, "the pager thread outlived the read");
}
