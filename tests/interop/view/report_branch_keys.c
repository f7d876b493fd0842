/* perfev report's branch view under --sort/-F against perf report's: on
 * recordings with branch stacks perf stays in its branch mode, every branch
 * of every sample an entry of value 1 keyed by the branch's TARGET (its
 * object and symbol, an unknown one by its absolute address) at the level
 * of the sample, its command the sample's; no call graphs, no Children. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *const branch_files[] = {
	"perf.data.branch-4.14",	      /* [k] 0000000000000000, ld.so without symbols, an exec */
	"perf.data.branch_stack_hw_index",    /* an event group of which one event branches */
	"perf.data.branch_stack_spec",
	"perf.data.callgraph_and_branch-3.4", /* call chains too: no graphs, no Children */
	"perf.data.callgraph_and_branch-3.8",
	"perf.data.raw_callgraph_branch-3.4",
};

/* The brief's option sets on every corpus branch file, line for line
 * (before: 14 to 12551 lines differed per file and option set). */
Test(interop_report_branch_keys, corpus_sort_keys_like_perf, .timeout = 600)
{
	require_perf_tool();
	require_corpus();
	static const char *const options[] = {"--sort sym", "--sort dso,sym", "--sort comm,dso",
					      "--no-children --sort sym -g none", "-F overhead,sym"};
	for (size_t i = 0; i < NELEM(branch_files); i++)
		for (size_t o = 0; o < NELEM(options); o++)
			report_expect_corpus_like_perf(branch_files[i], options[o], 0);
}

/* The columns and filters around the keys: -n, --show-total-period,
 * --percent-limit, -b, --children and -g (cancelled, as perf), cpu, -F
 * with a --sort key, and --comms, which perf applies to entries (an entry
 * made by a listed command's branch shows whole, its other commands'
 * branches included). */
Test(interop_report_branch_keys, corpus_options_like_perf, .timeout = 600)
{
	require_perf_tool();
	require_corpus();
	static const char *const options[] = {
		"--sort sym -n --show-total-period",
		"--sort comm,dso --percent-limit 1",
		"-b --sort sym",
		"--sort dso,sym --children",
		"--sort cpu,sym",
		"--sort pid,sym",
		"-F overhead,sample,comm,dso --sort dso",
		"--sort sym --comms perf",
		"--sort comm,sym --comms perf,swapper,echo",
		"--sort comm,dso --comms perf,swapper,echo,chrome",
		/* percentages and the header of the entries shown, whole */
		"--sort comm,sym --comms perf,swapper,echo --percentage relative",
	};
	for (size_t i = 0; i < NELEM(branch_files); i++)
		for (size_t o = 0; o < NELEM(options); o++) {
			if (i >= 3 && o >= 2 && o <= 6)
				continue; /* (those once on the small files suffice) */
			report_expect_corpus_like_perf(branch_files[i], options[o], 0);
		}
}

/* perf's branch keys (the branch table by the keys given; with "symbol" in
 * the list perf's IPC column, which keys rows by the target's symbol too).
 * Not on branch-4.14, where perf 6.1 crashes with symbol_from/symbol_to
 * (SIGSEGV), but for the objects. */
Test(interop_report_branch_keys, corpus_branch_keys_like_perf, .timeout = 600)
{
	require_perf_tool();
	require_corpus();
	static const char *const options[] = {
		"--sort dso_from,dso_to",
		"--sort symbol_from,symbol_to",
		"--sort symbol_from",
		"--sort comm,symbol_to,cycles",
		"--sort cycles,dso_to -n --show-total-period",
		"--sort symbol_from --comms perf",
		"--sort dso_to,comm --comms perf,swapper --percent-limit 0.1",
		"--sort symbol_from --comms perf --percentage relative",
	};
	for (size_t i = 0; i < NELEM(branch_files); i++)
		for (size_t o = 0; o < NELEM(options); o++) {
			if (i == 0 && strstr(options[o], "symbol"))
				continue;
			report_expect_corpus_like_perf(branch_files[i], options[o], 0);
		}
}

/* What the branch mode does not take under --sort: an error naming the fix. */
Test(interop_report_branch_keys, refused_with_the_fix)
{
	require_corpus();
	static const char *const refused[] = {"--sort sym --dsos ld-2.23.so", "-b --sort sym --event 0",
					      "--sort sym --pid 1", "--time 0,1"};
	for (size_t i = 0; i < NELEM(refused); i++) {
		struct run_result r = run_cmd("%s report -q -i '%s/perf.data.branch-4.14' --stdio %s", PERFEV_BIN,
					      CORPUS_DIR, refused[i]);
		cr_expect_neq(r.status, 0, "%s: %s", refused[i], r.out);
		cr_expect(strstr(r.err, "--no-branch-stack"), "%s: %s", refused[i], r.err);
		run_result_free(&r);
	}
	/* perf's branch keys perfev does not sort by, mixed with the targets' keys, or in -F */
	static const char *const keys[] = {"--sort mispredict", "--sort symbol_from,dso", "-F overhead,symbol_from"};
	for (size_t i = 0; i < NELEM(keys); i++) {
		struct run_result r = run_cmd("%s report -q -i '%s/perf.data.branch-4.14' --stdio %s", PERFEV_BIN,
					      CORPUS_DIR, keys[i]);
		cr_expect_neq(r.status, 0, "%s: %s", keys[i], r.out);
		cr_expect(strstr(r.err, "perfev report:") && strstr(r.err, keys[i][2] == 'F' ? "-F" : "sort"), "%s: %s",
			  keys[i], r.err);
		run_result_free(&r);
	}
	/* -b --sort on a file without branch stacks */
	struct run_result r = run_cmd("%s report -q -i '%s/perf.data.callgraph-3.4' --stdio -b --sort sym",
				      PERFEV_BIN, CORPUS_DIR);
	cr_expect_neq(r.status, 0, "%s", r.out);
	cr_expect(strstr(r.err, "drop -b"), "%s", r.err);
	run_result_free(&r);
}
