/* perf report --stats's counts from the reader: a crafted two-event file
 * (per-event samples, LOST_SAMPLES by their sample_id, a record type perf
 * 6.1 does not know), a group read by PERF_SAMPLE_READ, and the text
 * perfev_perfdata_print_stats makes of it, in file and pipe mode. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ST (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_PERIOD)

static struct perfev_attr attr_of(uint64_t config, uint64_t extra)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	a.size = PERFEV_ATTR_SIZE_LATEST;
	a.sample_type = ST | extra;
	a.sample_id_all = 1;
	a.sample_period = 1000;
	a.exclude_guest = 1;
	return a;
}

static void put(struct perfev_perfdata_writer *w, const struct perfev_record *r, const struct perfev_attr *a)
{
	uint8_t buf[512];
	int n = perfev_record_encode(r, a, buf, sizeof(buf));
	cr_assert_gt(n, 0, "%s", perfev_errmsg());
	cr_assert_eq(perfev_perfdata_writer_write(w, buf, (size_t)n), 0, "%s", perfev_errmsg());
}

static void put_sample(struct perfev_perfdata_writer *w, const struct perfev_attr *a, uint64_t id, uint64_t t)
{
	struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER};
	r.u.sample.ip = 0x1000;
	r.u.sample.pid = r.u.sample.tid = 7;
	r.u.sample.time = t;
	r.u.sample.id = id;
	r.u.sample.period = 1000;
	put(w, &r, a);
}

static int nothing(void *ctx, const struct perfev_record *r)
{
	(void)ctx, (void)r;
	return 0;
}

static char *stats_text(const char *path, struct perfev_perfdata **keep)
{
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	cr_assert(pd, "%s", perfev_errmsg());
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro), .unordered = true};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, nothing, NULL), 0, "%s", perfev_errmsg());
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_eq(perfev_perfdata_print_stats(pd, f), 0);
	fclose(f);
	*keep = pd;
	return text;
}

/* Two events: samples of each, lost samples of the second, a COMM, a round. */
static void write_two(const char *path, bool pipe)
{
	struct perfev_attr a = attr_of(PERF_COUNT_SW_CPU_CLOCK, 0), b = attr_of(PERF_COUNT_SW_TASK_CLOCK, 0);
	uint64_t ida = 11, idb = 22;
	struct perfev_perfdata_event ev[2] = {{&a, "cpu-clock", &ida, 1}, {&b, "task-clock", &idb, 1}};
	struct perfev_perfdata_write_opts o = {.sz = sizeof(o), .no_host_features = true, .pipe = pipe};
	struct perfev_perfdata_writer *w = perfev_perfdata_writer_open(path, -1, ev, 2, &o);
	cr_assert(w, "%s", perfev_errmsg());
	struct perfev_record c = {.type = PERF_RECORD_COMM, .has_sid = true};
	c.u.comm.pid = c.u.comm.tid = 7;
	c.u.comm.comm = "work";
	c.sid.pid = c.sid.tid = 7;
	c.sid.time = 1;
	c.sid.id = ida;
	put(w, &c, &a);
	for (int i = 0; i < 3; i++)
		put_sample(w, &a, ida, 10 + i);
	put_sample(w, &b, idb, 20);
	struct perfev_record l = {.type = PERF_RECORD_LOST_SAMPLES, .has_sid = true};
	l.u.lost_samples.lost = 5;
	l.sid.pid = l.sid.tid = 7;
	l.sid.time = 21;
	l.sid.id = idb;
	put(w, &l, &b);
	cr_assert_eq(perfev_perfdata_writer_finish_round(w), 0);
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
}

Test(unit_perfdata_stats, per_event_counts_and_perf_text)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/two.data", test_tmpdir());
	write_two(path, false);
	struct perfev_perfdata *pd;
	char *text = stats_text(path, &pd);
	struct perfev_perfdata_event_stats es;
	cr_assert_eq(perfev_perfdata_event_stats(pd, 0, &es), 0);
	cr_expect_eq(es.nr_samples, 3);
	cr_expect_eq(es.nr_lost_samples, 0);
	cr_assert_eq(perfev_perfdata_event_stats(pd, 1, &es), 0);
	cr_expect_eq(es.nr_samples, 1);
	cr_expect_eq(es.nr_lost_samples, 5, "LOST_SAMPLES goes to the event of its sample_id: %llu",
		     (unsigned long long)es.nr_lost_samples);
	cr_expect_lt(perfev_perfdata_event_stats(pd, 2, &es), 0, "past the last event");
	/* perf's layout: %16s names, %10d counts, shares of the total of 7 */
	const char *want = "\nAggregated stats:\n"
			   "           TOTAL events:          7\n"
			   "            COMM events:          1  (14.3%)\n"
			   "          SAMPLE events:          4  (57.1%)\n"
			   "    LOST_SAMPLES events:          1  (14.3%)\n"
			   "  FINISHED_ROUND events:          1  (14.3%)\n"
			   "cpu-clock stats:\n"
			   "          SAMPLE events:          3\n"
			   "task-clock stats:\n"
			   "          SAMPLE events:          1\n"
			   "    LOST_SAMPLES events:          5\n";
	cr_expect_str_eq(text, want, "got:\n%s", text);
	free(text);
	perfev_perfdata_close(pd);
}

Test(unit_perfdata_stats, pipe_counts_attr_records)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/two.pipe", test_tmpdir());
	write_two(path, true);
	struct perfev_perfdata *pd;
	char *text = stats_text(path, &pd);
	/* a pipe's attrs come as ATTR records (perf counts them too), and its
	 * events keep the names perf derives from their attrs */
	cr_expect(strstr(text, "            ATTR events:          2  ("), "%s", text);
	cr_expect(strstr(text, "cpu-clock stats:\n          SAMPLE events:          3\n"), "%s", text);
	struct perfev_perfdata_stats st;
	perfev_perfdata_stats(pd, &st);
	cr_expect_eq(st.nr_records[PERFEV_RECORD_HEADER_ATTR], 2);
	free(text);
	perfev_perfdata_close(pd);
}

/* PERF_SAMPLE_READ of a group: one sample per member whose count moved. */
Test(unit_perfdata_stats, sample_read_group_counts_members_that_moved)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/group.data", test_tmpdir());
	struct perfev_attr a = attr_of(PERF_COUNT_SW_CPU_CLOCK, PERF_SAMPLE_READ);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID;
	struct perfev_attr b = a;
	b.config = PERF_COUNT_SW_TASK_CLOCK;
	uint64_t ida = 11, idb = 22;
	struct perfev_perfdata_event ev[2] = {{&a, "cpu-clock", &ida, 1}, {&b, "task-clock", &idb, 1}};
	struct perfev_perfdata_write_opts o = {.sz = sizeof(o), .no_host_features = true};
	struct perfev_perfdata_writer *w = perfev_perfdata_writer_open(path, -1, ev, 2, &o);
	cr_assert(w, "%s", perfev_errmsg());
	/* values (a, b): (10, 0) (20, 0) (30, 5): a moves 3 times, b once */
	const uint64_t va[] = {10, 20, 30}, vb[] = {0, 0, 5};
	for (int i = 0; i < 3; i++) {
		struct perfev_read_value v[2] = {{va[i], ida, 0}, {vb[i], idb, 0}};
		struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER};
		r.u.sample.ip = 0x1000;
		r.u.sample.pid = r.u.sample.tid = 7;
		r.u.sample.time = 10 + (uint64_t)i;
		r.u.sample.id = ida;
		r.u.sample.period = 1000;
		r.u.sample.read.nr = 2;
		r.u.sample.read.values = v;
		put(w, &r, &a);
	}
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
	struct perfev_perfdata *pd;
	char *text = stats_text(path, &pd);
	struct perfev_perfdata_event_stats es;
	perfev_perfdata_event_stats(pd, 0, &es);
	cr_expect_eq(es.nr_samples, 3, "%s", text);
	perfev_perfdata_event_stats(pd, 1, &es);
	cr_expect_eq(es.nr_samples, 1, "%s", text);
	free(text);
	perfev_perfdata_close(pd);
}
