/* perfev report --sort by keys of the sample beyond thread and frame
 * (cpu), against perf report: corpus recordings of several CPUs and a local
 * recording of workloads/calls with PERF_SAMPLE_CPU (perf record
 * --sample-cpu: a per-thread recording that still says where each sample
 * ran), alone and combined with other keys, with and without children and
 * call graphs. Files without PERF_SAMPLE_CPU: perf's CPU is -1, "-001". */
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
	for (size_t i = 0; i < nr; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, cases[i].file);
		char *diff;
		size_t lines;
		int differ = report_diff_perf(path, cases[i].options, &diff, &lines);
		cr_expect_leq(differ, cases[i].slack, "%s %s: %d of %zu lines differ from perf's:\n%.4000s",
			      cases[i].file, cases[i].options, differ, lines, diff);
		free(diff);
	}
}

Test(interop_report_keys, cpu_corpus_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct key_case cases[] = {
		/* 4 CPUs, cycles without call graphs */
		{"perf.data.systemwide.1-3.8", "--sort cpu", 0},
		{"perf.data.systemwide.1-3.8", "--sort cpu,sym -g none --no-children", 0},
		{"perf.data.systemwide.0-3.4", "-s comm,cpu -g none --no-children", 0},
		{"perf.data.systemwide.0-3.4", "-F overhead,cpu,sym -g none", 0},
		/* 32 CPUs of two NUMA nodes */
		{"perf.data.numatopology-3.2", "--sort cpu", 0},
		{"perf.data.numatopology-3.2", "--sort cpu,sym", 0},
		/* no PERF_SAMPLE_CPU: one row, "-001" */
		{"perf.data.hybrid_topology", "--sort cpu", 0},
		{"perf.data.singleprocess-3.8", "--sort cpu,sym", 0},
		/* call graphs under each (cpu, symbol), children and self */
		{"perf.data.busy.1-3.8", "--sort cpu,sym", 0},
		{"perf.data.callgraph-3.8", "--sort cpu", 0},
		{"perf.data.callgraph-3.8", "--sort sym,cpu --no-children -g caller", 0},
	};
	corpus_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

Test(interop_report_keys, cpu_local_recording_like_perf, .timeout = 300)
{
	char *data = perf_record("--sample-cpu -g -e cpu-clock -c 1000000", "keys_cpu.data",
				 WORKLOAD("calls") " 300");
	static const char *const options[] = {
		"--sort cpu",
		"--sort cpu --no-children",
		"--sort cpu -g none --no-children",
		"--sort cpu,sym",
		"--sort cpu,sym -g callee",
		"--sort cpu,sym -g none --no-children",
		"-s comm,cpu",
		"-F overhead,cpu,sym -g none",
		"--sort pid,cpu,dso",
	};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		report_expect_like_perf(data, options[i], 0);
	free(data);
}

/* --json names each entry's CPU */
Test(interop_report_keys, cpu_in_json, .timeout = 120)
{
	char *data = perf_record("--sample-cpu -e cpu-clock -c 1000000", "keys_cpu_json.data",
				 WORKLOAD("calls") " 100");
	struct run_result r = run_cmd("%s report -q -i '%s' --json --sort cpu", PERFEV_BIN, data);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"cpu\":"), "no cpu in %s", r.out);
	cr_assert(!strstr(r.out, "\"cpu\":-1"), "a CPU unknown in a recording with them: %s", r.out);
	run_result_free(&r);
	free(data);
}
