/* The recorder without a file (perfev_record_opts.no_output) and its ticks
 * (tick_ms, on_tick): what perfev top runs on. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct live {
	struct perfev_recorder *r;
	unsigned ticks, stop_at;
	uint64_t samples, samples_at_tick[8];
	int tick_ret;
};

static int count(void *ctx, const struct perfev_record *rec)
{
	struct live *l = ctx;
	l->samples += rec->type == PERF_RECORD_SAMPLE;
	return 0;
}

static int tick(void *ctx)
{
	struct live *l = ctx;
	if (l->ticks < 8)
		l->samples_at_tick[l->ticks] = l->samples;
	if (++l->ticks == l->stop_at)
		perfev_recorder_stop(l->r);
	return l->tick_ret;
}

/* A busy command recorded to nowhere, its records handed over; stopped from
 * the stop_at-th tick. Returns run()'s result. */
static int run_live(struct live *l, const char *dir)
{
	cr_assert_eq(chdir(dir), 0);
	char *argv[] = {WORKLOAD("spin"), "20000", NULL};
	struct perfev_record_opts o = {.sz = sizeof(o), .argv = argv, .freq = 1000, .no_output = true,
				       .on_record = count, .on_record_ctx = l, .tick_ms = 100, .on_tick = tick,
				       .on_tick_ctx = l};
	struct perfev_evlist *ev = perfev_evlist_new();
	cr_assert_eq(perfev_evlist_parse(ev, "cpu-clock", NULL), 0, "%s", perfev_errmsg());
	o.events = ev;
	l->r = perfev_recorder_new(&o);
	cr_assert(l->r, "%s", perfev_errmsg());
	int e = perfev_recorder_run(l->r);
	perfev_recorder_free(l->r);
	perfev_evlist_free(ev);
	return e;
}

Test(live_recorder_live, no_file_records_hand_over_and_ticks_come, .timeout = 60)
{
	require_root();
	const char *dir = test_tmpdir();
	struct live l = {.stop_at = 3};
	cr_assert_eq(run_live(&l, dir), 0, "%s", perfev_errmsg());
	cr_assert_eq(l.ticks, 3, "stopped from the third tick");
	cr_assert_gt(l.samples, 0);
	/* each tick sees the records the rings held: more at every one */
	cr_assert_gt(l.samples_at_tick[0], 0, "the first tick already has the first records");
	cr_assert_gt(l.samples_at_tick[2], l.samples_at_tick[0]);
	cr_assert_neq(access("perf.data", F_OK), 0, "no file written");
}

Test(live_recorder_live, a_failing_tick_ends_the_recording, .timeout = 60)
{
	require_root();
	struct live l = {.tick_ret = -EIO};
	cr_assert_eq(run_live(&l, test_tmpdir()), -EIO);
	cr_assert_eq(l.ticks, 1);
	cr_assert(strstr(perfev_errmsg(), "on_tick"), "%s", perfev_errmsg());
}

/* examples/live_profile: perfev top's loop written with the public API alone. */
Test(live_recorder_live, the_live_profile_example, .timeout = 60)
{
	require_root();
	struct run_result r = run_cmd("%s/examples/live_profile %s 1200", PERFEV_BUILDDIR, WORKLOAD("spin"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	const char *second = strstr(r.out, "refresh 2: Samples: ");
	cr_assert(second, "%s", r.out);
	cr_assert(strstr(second, "[.] spin_kernel"), "%s", r.out);
	run_result_free(&r);
}
