/* perfev report --sort by perf 6.1's keys of the sample's own values:
 * weight, local_weight, ins_lat, local_ins_lat (PERF_SAMPLE_WEIGHT_STRUCT's
 * var1/var2), p_stage_cyc and local_p_stage_cyc (x86's perf takes them and
 * shows nothing), time (cut to --time-quantum), addr, and the columns
 * period, sample and overhead named in --sort; against perf report line for
 * line on corpus recordings that carry the data and on a local recording
 * with call graphs and weights (perf record -W). */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct key_case {
	const char *file, *options;
	int slack;
};

static void corpus_cases(const struct key_case *cases, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		report_expect_corpus_like_perf(cases[i].file, cases[i].options, cases[i].slack);
}

/* 14 loads of a Skylake server's load-latency event, DATA_SRC|WEIGHT_STRUCT:
 * two of weight 70 make one entry ("70", weight "140") */
Test(interop_report_keys2, weights_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct key_case cases[] = {
		{"perf.data.weight_struct", "--sort weight", 0},
		{"perf.data.weight_struct", "--sort local_weight", 0},
		{"perf.data.weight_struct", "--sort local_weight,weight", 0},
		{"perf.data.weight_struct", "--sort ins_lat", 0},
		{"perf.data.weight_struct", "--sort local_ins_lat,sym", 0},
		{"perf.data.weight_struct", "--sort p_stage_cyc", 0},
		{"perf.data.weight_struct", "--sort local_p_stage_cyc,dso", 0},
		{"perf.data.weight_struct", "--sort sym,weight,ins_lat", 0},
		{"perf.data.weight_struct", "--sort cpu,weight", 0},
		{"perf.data.weight_struct", "-F overhead,sample,weight,sym", 0},
		{"perf.data.lost_samples-4.4", "--sort weight,addr,time", 0},
	};
	corpus_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

Test(interop_report_keys2, time_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct key_case cases[] = {
		{"perf.data.weight_struct", "--sort time", 0},
		{"perf.data.weight_struct", "--sort dso,time", 0},
		{"perf.data.weight_struct", "--sort time --time-quantum 1s", 0},
		{"perf.data.weight_struct", "--sort time --time-quantum 500000us", 0},
		/* times past 99999 s: cut to the column's 12 characters ("346832.30000");
		 * --children: perf's call-chain entries lack the time, every frame adds */
		{"perf.data.callgraph-3.8", "--sort time", 0},
		{"perf.data.callgraph-3.8", "--sort time,sym --no-children", 0},
		{"perf.data.callgraph-3.8", "--sort time --time-quantum 1ms -g none", 0},
		{"perf.data.callgraph-3.8", "--sort time --time-quantum 10ms --no-children -g caller", 0},
		{"perf.data.callgraph-3.8", "--sort time,comm,dso", 0},
		{"perf.data.callgraph-3.8", "-F overhead,time,sym --no-children -g none", 0},
		{"perf.data.busy.1-3.8", "--sort time,sym", 0},
		/* event groups side by side; the time unpadded when last */
		{"perf.data.lost_samples-4.4", "--sort time", 0},
		{"perf.data.lost_samples-4.4", "--sort time,comm", 0},
	};
	corpus_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

Test(interop_report_keys2, addr_and_columns_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct key_case cases[] = {
		{"perf.data.weight_struct", "--sort addr", 0},
		{"perf.data.weight_struct", "--sort time,addr", 0},
		{"perf.data.weight_struct", "--sort local_ins_lat,addr -F overhead,period,addr", 0},
		{"perf.data.callgraph-3.8", "--sort addr --no-children", 0},
		{"perf.data.callgraph-3.8", "--sort addr,sym --no-children -g caller", 0},
		{"perf.data.lost_samples-4.4", "--sort addr", 0},
		/* columns named in --sort */
		{"perf.data.weight_struct", "--sort period", 0},
		{"perf.data.weight_struct", "--sort sample", 0},
		{"perf.data.weight_struct", "--sort period,local_weight", 0},
		{"perf.data.weight_struct", "--sort local_weight,period", 0},
		{"perf.data.weight_struct", "--sort overhead,sym", 0},
	};
	corpus_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Call graphs (children by default) and weights (0 for cpu-clock). */
Test(interop_report_keys2, local_recording_like_perf, .timeout = 300)
{
	char *data = perf_record("-D 30 -g -W -e cpu-clock -c 1000000", "keys2.data", WORKLOAD("calls") " 300");
	static const char *const options[] = {
		"--sort time",
		"--sort time,sym",
		"-F overhead,time,sym -g none",
		"--sort time,pid --time-quantum 20ms",
		"--sort addr",
		"--sort addr --no-children -g none",
		"--sort addr,sym --no-children",
		"--sort weight,sym",
		"--sort local_weight",
		"--sort ins_lat,dso",
		"--sort period,sym",
		"--sort sym,sample",
		"--sort sym,period --no-children",
		"--sort sym,overhead",
	};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		report_expect_like_perf(data, options[i], 0);
	free(data);
}

/* --json names the keys' values; a bad --time-quantum names the fix */
Test(interop_report_keys2, json_and_errors, .timeout = 120)
{
	require_corpus();
	char path[512];
	snprintf(path, sizeof(path), "%s/perf.data.weight_struct", CORPUS_DIR);
	struct run_result r = run_cmd("%s report -q -i '%s' --json --sort local_weight,time,addr", PERFEV_BIN, path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"local_weight\":70,"), "%s", r.out);
	cr_assert(strstr(r.out, "\"time\":13170200000000"), "%s", r.out);
	cr_assert(strstr(r.out, "\"addr\":"), "%s", r.out);
	run_result_free(&r);
	r = run_cmd("%s report -q -i '%s' --sort time --time-quantum 0", PERFEV_BIN, path);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "time quantum") && strstr(r.err, "10ms"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s report -q -i '%s' --sort time --time-quantum 5min", PERFEV_BIN, path);
	cr_assert_neq(r.status, 0);
	run_result_free(&r);
}
