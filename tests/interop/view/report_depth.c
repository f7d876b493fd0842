/* perfev report against perf report on a crafted recording whose call
 * graph branches deeper than 32 levels: perf draws a level's pipe from bit
 * `1 << depth` of an int mask, which wraps at 32 on x86, so a branch at
 * level 33 takes the pipe of level 1 away from the lines below it (and a
 * level-33 pipe shows where level 1 has one). */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>

#define LEVELS 36

/* A sample of pid whose stack, outermost first, is the common frames
 * 0x1000, 0x1010 ... 0x1000 + 0x10 * k, then a frame of its own (branch
 * k), unless k is LEVELS: the deepest, the common frames alone. */
static void put_comb(struct perfev_perfdata_writer *w, const struct perfev_attr *a, uint64_t time, int k,
		     uint64_t period)
{
	uint64_t chain[LEVELS + 4];
	size_t n = 0;
	chain[n++] = 0xfffffffffffffe00ull; /* PERF_CONTEXT_USER */
	if (k < LEVELS)
		chain[n++] = 0x200000 + 0x10 * (uint64_t)k;
	for (int level = k; level >= 0; level--)
		chain[n++] = 0x1000 + 0x10 * (uint64_t)level;
	report_put_sample(w, a, PERF_RECORD_MISC_USER, 5001, chain[1], time, period, chain, n);
}

Test(interop_report, call_graph_pipes_past_32_levels_like_perf, .timeout = 60)
{
	require_perf_tool();
	char data[4200];
	snprintf(data, sizeof(data), "%s/deep.data", test_tmpdir());
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, PERF_SAMPLE_CALLCHAIN);
	report_put_comm(w, &a, 5001, "deep", 1, true);
	/* a comb: at each level one light branch leaves (printed last, so
	 * it clears its level's bit) and the heavy path goes on, 36 levels */
	for (int k = 0; k <= LEVELS; k++)
		put_comb(w, &a, 10 + (uint64_t)k, k, k == LEVELS ? 2000 : 1000);
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
	static const char *const options[] = {"--no-children --sort sym -g caller", "--children --sort sym",
					      "--no-children --sort comm -g caller",
					      "--no-children --sort comm -g fractal,0.5,caller"};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		report_expect_like_perf(data, options[i], 0);
}
