/*
 * The vendor-event and metric commands as a user meets them: perfev attr
 * and stat -e with another model's events (PERF_CPUID), perfev list's
 * vendor listing and its JSON, metric groups, and stat -M / --topdown /
 * --metric-only / -d on this machine (inputs it cannot count are
 * <not supported> with the reason, never a zero or a crash).
 */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SKX "PERF_CPUID=GenuineIntel-6-55-4 "

static struct run_result perfev(const char *env, const char *args)
{
	return run_cmd("%s%s %s", env, PERFEV_BIN, args);
}

Test(unit_vendor_cli, attr_of_another_models_event)
{
	struct run_result r = perfev(SKX, "attr cycle_activity.stalls_total:u INST_RETIRED:ANY_P:c=1");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"type\": 4, \"size\": 136, \"config\": 67110051"), "%s", r.out); /* 0x40004a3 */
	cr_assert(strstr(r.out, "\"config\": 16777408"), "%s", r.out);                            /* 0x10000c0 */
	cr_assert(strstr(r.out, "\"exclude_kernel\": 1"), "%s", r.out);
	run_result_free(&r);
}

Test(unit_vendor_cli, stat_says_this_cpu_is_not_the_model)
{
	struct run_result h = run_cmd("grep -q GenuineIntel /proc/cpuinfo && grep -qE 'model\\s+: 85$' /proc/cpuinfo");
	if (h.status == 0)
		cr_skip_test("this machine is a Skylake-SP: its events would count");
	run_result_free(&h);
	struct run_result r = perfev(SKX, "stat -e inst_retired.any_p -- true");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "<not supported>") && strstr(r.err, "inst_retired.any_p"), "%s", r.err);
	cr_assert(strstr(r.err, "this CPU is not Skylake-SP"), "%s", r.err);
	run_result_free(&r);
}

Test(unit_vendor_cli, list_groups_by_topic_and_json_carries_encodings)
{
	struct run_result r = perfev(SKX, "list vendor");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "Skylake-SP (GenuineIntel-6-55-4 from PERF_CPUID, cpu), cache:"), "%s", r.out);
	cr_assert(strstr(r.out, "Skylake-SP (GenuineIntel-6-55-4 from PERF_CPUID, cpu), pipeline:"));
	cr_assert(strstr(r.out, "cycle_activity.stalls_total OR CYCLE_ACTIVITY:STALLS_TOTAL"));
	run_result_free(&r);
	r = perfev(SKX, "list --json cycle_activity.stalls_total > /dev/null && " SKX PERFEV_BIN
		   " list --json cycle_activity.stalls_total | python3 -c 'import json,sys; d=json.load(sys.stdin); "
		   "e=[x for x in d[\"events\"] if x[\"name\"]==\"cycle_activity.stalls_total\"][0]; "
		   "print(e[\"encoding\"], e[\"topic\"], e[\"alias\"], e[\"model\"])'");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "cpu/config=0x40004a3/ pipeline CYCLE_ACTIVITY:STALLS_TOTAL Skylake-SP\n");
	run_result_free(&r);
}

Test(unit_vendor_cli, metricgroups_and_metrics_listed_with_sources)
{
	struct run_result r = perfev(SKX, "list metricgroups");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "TopdownL1") && strstr(r.out, "tma_frontend_bound"), "%s", r.out);
	cr_assert(strstr(r.out, "TopdownL2"));
	run_result_free(&r);
	r = perfev(SKX, "list metrics");
	cr_assert(strstr(r.out, "source: TMA"), "%s", r.out);
	run_result_free(&r);
}

Test(unit_vendor_cli, ipc_here_is_a_value_or_not_supported_with_the_reason)
{
	struct run_result r = perfev("", "stat -M IPC -- true");
	cr_assert_eq(r.status, 0, "%s", r.err);
	if (strstr(r.err, "<not supported>")) /* no hardware PMU (this VM): say why */
		cr_assert(strstr(r.err, "IPC") && (strstr(r.err, "# instructions: ") || strstr(r.err, "# cycles: ")),
			  "%s", r.err);
	else
		cr_assert(strstr(r.err, "insn per cycle") && strstr(r.err, "IPC"), "%s", r.err);
	cr_assert_null(strstr(r.err, " 0.00 insn per cycle"), "a missing input is not a zero: %s", r.err);
	run_result_free(&r);
}

/* A metric whose formula names an event the model's table lacks (libpfm4's
 * Neoverse N1 has no op_retired; an x86 build of libpfm4 has no Arm table at
 * all) is <not supported> saying which event and why; the command goes on. */
Test(unit_vendor_cli, metric_of_an_event_the_table_lacks_is_not_supported)
{
	struct run_result r = perfev("PERF_CPUID=0x00000000410fd0c0 ", "stat -M TopdownL1 -- true");
	cr_assert_eq(r.status, 0, "%s", r.err);
	static const char *const names[] = {"arm_frontend_bound", "arm_backend_bound", "arm_bad_speculation",
					    "arm_retiring"};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *l = strstr(r.err, names[i]);
		cr_assert(l, "no %s line:\n%s", names[i], r.err);
		const char *eol = strchr(l, '\n');
		cr_assert(eol && memmem(l, (size_t)(eol - l), "Arm Neoverse N1", 15), "%s says not why:\n%s",
			  names[i], r.err);
	}
	cr_assert(strstr(r.err, "op_retired: "), "%s", r.err);
	cr_assert_null(strstr(r.err, "does not parse"), "%s", r.err);
	run_result_free(&r);
}

Test(unit_vendor_cli, topdown_is_metric_only_and_names_missing_groups)
{
	struct run_result r = perfev(SKX, "stat --topdown -- true");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "tma_frontend_bound tma_bad_speculation    tma_retiring tma_backend_bound"),
		  "%s", r.err);
	cr_assert_null(strstr(r.err, "uops_issued.any   "), "--topdown prints no event lines: %s", r.err);
	run_result_free(&r);
	r = perfev("PERF_CPUID=AuthenticAMD-26-2-1 ", "stat --topdown -- true"); /* no table: say so */
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "no metric or metric group 'TopdownL1'") && strstr(r.err, "metrics here: IPC"),
		  "%s", r.err);
	run_result_free(&r);
	r = perfev(SKX, "stat -M NoSuchMetric -- true");
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "NoSuchMetric") && strstr(r.err, "tma_retiring"), "%s", r.err);
	run_result_free(&r);
}

Test(unit_vendor_cli, detailed_adds_perfs_cache_events)
{
	struct run_result r = perfev("", "stat -dd -x, -- true");
	cr_assert_eq(r.status, 0, "%s", r.err);
	static const char *const ev[] = {"task-clock", "L1-dcache-loads", "LLC-load-misses", "dTLB-load-misses",
					 "iTLB-loads"};
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++)
		cr_assert(strstr(r.err, ev[i]), "no %s in -dd's output:\n%s", ev[i], r.err);
	cr_assert_null(strstr(r.err, "L1-dcache-prefetches"), "-ddd's events came with -dd");
	run_result_free(&r);
}
