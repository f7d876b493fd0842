/*
 * Metrics: the formula language, and each model's metrics computed from
 * counts given per event (as perfev_stat_add_counts takes a replayed
 * reading), including perf's multiplexing scaling (count * enabled /
 * running) and inputs that could not count.
 *
 * The counts are constructed, not recorded on the hardware (this machine
 * has no hardware PMU): round numbers whose metric values are worked out by
 * hand in each test from the vendor's formula.
 */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double eval(const char *text, const double *vals)
{
	struct perfev_metric_expr *e = perfev_metric_expr_parse(text);
	cr_assert(e, "%s: %s", text, perfev_errmsg());
	double v = perfev_metric_expr_eval(e, vals);
	perfev_metric_expr_free(e);
	return v;
}

Test(unit_metric, formula_arithmetic)
{
	double v[] = {6, 3, 2};
	cr_assert_float_eq(eval("a + b * c", v), 12, 1e-12);
	cr_assert_float_eq(eval("(a + b) * c", v), 18, 1e-12);
	cr_assert_float_eq(eval("a - b - c", v), 1, 1e-12);        /* left-associative */
	cr_assert_float_eq(eval("a / b / c", v), 1, 1e-12);
	cr_assert_float_eq(eval("-a + 10", v), 4, 1e-12);
	cr_assert_float_eq(eval("min(a, b) + max(b, c)", v), 6, 1e-12);
	cr_assert_float_eq(eval("1e3 * .5", v), 500, 1e-12);
	cr_assert(isnan(eval("a / (b - 3)", v)), "a division by zero is NaN, not inf");
}

Test(unit_metric, formula_names)
{
	struct perfev_metric_expr *e =
		perfev_metric_expr_parse("branch-misses / branches + uncore_imc@cas_count_read@ - L1-dcache-loads "
					 "+ branches + INST_RETIRED:ANY_P:c=1");
	cr_assert(e, "%s", perfev_errmsg());
	cr_assert_eq(perfev_metric_expr_nr_vars(e), 5); /* branches once */
	cr_assert_str_eq(perfev_metric_expr_var(e, 0), "branch-misses");
	cr_assert_str_eq(perfev_metric_expr_var(e, 1), "branches");
	cr_assert_str_eq(perfev_metric_expr_var(e, 2), "uncore_imc/cas_count_read/");
	cr_assert_str_eq(perfev_metric_expr_var(e, 3), "L1-dcache-loads");
	cr_assert_str_eq(perfev_metric_expr_var(e, 4), "INST_RETIRED:ANY_P:c=1");
	perfev_metric_expr_free(e);
}

Test(unit_metric, formula_errors_say_where)
{
	static const char *const bad[] = {"1 +", "(a + b", "a $ b", "min(a)", "", "a b"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct perfev_metric_expr *e = perfev_metric_expr_parse(bad[i]);
		cr_assert_null(e, "'%s' parsed", bad[i]);
		cr_assert_eq(errno, EINVAL);
		cr_assert(strstr(perfev_errmsg(), "at byte"), "%s", perfev_errmsg());
	}
}

/* Counts for every event of list by name; run = ena * share[name] (multiplexing). */
struct count_of {
	const char *event;
	double val;    /* what the event counted over the whole run (scaled) */
	double share;  /* the fraction of the time it ran: 0 means 1 */
	int status;    /* -errno: it could not be opened */
};

static struct perfev_stat *collect(struct perfev_evlist *l, const struct count_of *c, size_t nc)
{
	size_t n = perfev_evlist_count(l);
	struct perfev_count *counts = calloc(n, sizeof(*counts));
	int *status = calloc(n, sizeof(int));
	for (size_t i = 0; i < n; i++) {
		const char *name = perfev_evsel_name(perfev_evlist_at(l, i));
		size_t k = 0;
		while (k < nc && strcmp(c[k].event, name))
			k++;
		cr_assert(k < nc, "the test gives no count for %s", name);
		double share = c[k].share ? c[k].share : 1;
		counts[i].ena = 1000000000;
		counts[i].run = (uint64_t)(1e9 * share);
		counts[i].val = (uint64_t)llround(c[k].val * share); /* the kernel counts while running */
		status[i] = c[k].status;
	}
	struct perfev_stat *s = perfev_stat_new(l, PERFEV_AGGR_GLOBAL);
	int label = -1;
	cr_assert_eq(perfev_stat_add_counts(s, counts, &label, false, 1, status, 1000000000), 0);
	free(counts);
	free(status);
	return s;
}

static struct perfev_metric_value value_of(const struct perfev_metrics *m, const struct perfev_stat *s,
					   const char *name)
{
	for (size_t i = 0; i < perfev_metrics_count(m); i++) {
		struct perfev_metric_value v;
		cr_assert_eq(perfev_metrics_value(m, s, i, 0, &v), 0);
		if (!strcmp(v.info->name, name))
			return v;
	}
	cr_assert_fail("no metric %s", name);
	return (struct perfev_metric_value){0};
}

/* A metric set counted: PERF_CPUID=cpuid, -M spec, then the counts given. */
struct mrun {
	struct perfev_evlist *l;
	struct perfev_metrics *m;
	struct perfev_stat *s;
};

static struct mrun mrun_start(const char *cpuid, const char *spec, const struct count_of *c, size_t nc)
{
	struct mrun r;
	setenv("PERF_CPUID", cpuid, 1);
	r.l = perfev_evlist_new();
	r.m = perfev_metrics_add(r.l, spec);
	cr_assert(r.m, "%s: %s", spec, perfev_errmsg());
	r.s = collect(r.l, c, nc);
	return r;
}

static void mrun_end(struct mrun *r)
{
	perfev_stat_free(r->s);
	perfev_metrics_free(r->m);
	perfev_evlist_free(r->l);
}

/* What perfev_metrics_print writes for r's metrics. Caller frees. */
static char *mrun_text(const struct mrun *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_eq(perfev_metrics_print(r->m, r->s, f, NULL, false), 0);
	fclose(f);
	return text;
}

/* Skylake-SP, TMA level 1 (4 slots a cycle):
 *   slots = 4 * 1e9; frontend 8e8 / 4e9 = 20%;
 *   bad speculation (2.6e9 - 2.4e9 + 4 * 2.5e7) / 4e9 = 7.5%;
 *   retiring 2.4e9 / 4e9 = 60%; backend 1 - 0.875 = 12.5% */
static const struct count_of skx_l1[] = {
	{"cpu_clk_unhalted.thread", 1e9}, {"idq_uops_not_delivered.core", 8e8},
	{"uops_issued.any", 2.6e9}, {"uops_retired.retire_slots", 2.4e9},
	{"int_misc.recovery_cycles", 2.5e7},
};

Test(unit_metric, skylake_sp_topdown_level1)
{
	struct mrun r = mrun_start("GenuineIntel-6-55-4", "TopdownL1", skx_l1, sizeof(skx_l1) / sizeof(skx_l1[0]));
	struct perfev_metrics *m = r.m;
	struct perfev_stat *s = r.s;
	cr_assert_eq(perfev_metrics_count(m), 4);
	cr_assert_float_eq(value_of(m, s, "tma_frontend_bound").value, 20.0, 1e-9);
	cr_assert_float_eq(value_of(m, s, "tma_bad_speculation").value, 7.5, 1e-9);
	cr_assert_float_eq(value_of(m, s, "tma_retiring").value, 60.0, 1e-9);
	cr_assert_float_eq(value_of(m, s, "tma_backend_bound").value, 12.5, 1e-9);
	struct perfev_metric_value v = value_of(m, s, "tma_retiring");
	cr_assert_float_eq(v.pcnt_running, 100.0, 1e-9);
	cr_assert_str_eq(v.info->unit, "%");
	cr_assert(strstr(v.info->source, "Yasin"), "each formula cites its source");
	mrun_end(&r);
}

Test(unit_metric, multiplexed_inputs_are_scaled_and_said)
{
	/* both ran a quarter of the time: perf scales each count by enabled/running */
	static const struct count_of c[] = {
		{"cpu_clk_unhalted.thread", 1e9, 0.25}, {"uops_retired.retire_slots", 2.4e9, 0.25},
	};
	struct mrun r = mrun_start("GenuineIntel-6-55-4", "tma_retiring", c, 2);
	struct perfev_metric_value v = value_of(r.m, r.s, "tma_retiring");
	cr_assert_float_eq(v.value, 60.0, 1e-6);
	cr_assert_float_eq(v.pcnt_running, 25.0, 1e-9);
	char *text = mrun_text(&r);
	cr_assert(strstr(text, "multiplexed: inputs counted 25.00% of the time, scaled up"), "%s", text);
	free(text);
	mrun_end(&r);
}

/* Skylake-SP level 2: memory bound splits backend bound by stall cycles.
 *   backend cycles = stalls_total 4e8 + 1_ports 1e8 + retiring 0.6 * 2_ports 1e8 + stores 4e7 = 6e8
 *   memory fraction = (stalls_mem_any 2e8 + stores 4e7) / 6e8 = 0.4; * backend 12.5% = 5%;
 *   core bound 7.5%. fetch latency 4 * 1e8 / 4e9 = 10%, bandwidth 20 - 10 = 10%.
 *   mispredicts 9e6 / (9e6 + 1e6) * 7.5% = 6.75%, clears 0.75%.
 *   microcode 2.4e9 / 2.6e9 * 2.6e8 / 4e9 = 6%, base 54%. */
Test(unit_metric, skylake_sp_topdown_level2_and_groups)
{
	struct count_of c[32];
	size_t nc = 0;
	for (size_t i = 0; i < sizeof(skx_l1) / sizeof(skx_l1[0]); i++)
		c[nc++] = skx_l1[i];
	static const struct count_of more[] = {
		{"idq_uops_not_delivered.cycles_0_uops_deliv.core", 1e8},
		{"br_misp_retired.all_branches", 9e6}, {"machine_clears.count", 1e6},
		{"cycle_activity.stalls_mem_any", 2e8}, {"exe_activity.bound_on_stores", 4e7},
		{"cycle_activity.stalls_total", 4e8}, {"exe_activity.1_ports_util", 1e8},
		{"exe_activity.2_ports_util", 1e8}, {"idq.ms_uops", 2.6e8},
	};
	for (size_t i = 0; i < sizeof(more) / sizeof(more[0]); i++)
		c[nc++] = more[i];
	struct mrun r = mrun_start("GenuineIntel-6-55-4", "TopdownL2", c, nc);
	struct perfev_metrics *m = r.m;
	struct perfev_stat *s = r.s;
	cr_assert_float_eq(value_of(m, s, "tma_fetch_latency").value, 10.0, 1e-9);
	cr_assert_float_eq(value_of(m, s, "tma_fetch_bandwidth").value, 10.0, 1e-9);
	cr_assert_float_eq(value_of(m, s, "tma_branch_mispredicts").value, 6.75, 1e-9);
	cr_assert_float_eq(value_of(m, s, "tma_machine_clears").value, 0.75, 1e-9);
	cr_assert_float_eq(value_of(m, s, "tma_memory_bound").value, 5.0, 1e-9);
	cr_assert_float_eq(value_of(m, s, "tma_core_bound").value, 7.5, 1e-9);
	cr_assert_float_eq(value_of(m, s, "tma_microcode_sequencer").value, 6.0, 1e-9);
	cr_assert_float_eq(value_of(m, s, "tma_base").value, 54.0, 1e-9);
	/* memory bound reads 10 core events: split into groups of at most 4 counters */
	cr_assert_geq(value_of(m, s, "tma_memory_bound").nr_groups, 3);
	for (size_t i = 0; i < perfev_evlist_count(r.l); i++) {
		struct perfev_evsel *e = perfev_evlist_at(r.l, i);
		if (perfev_evsel_is_leader(e))
			cr_assert_leq(perfev_evsel_group_size(e), 4, "group of %s", perfev_evsel_name(e));
	}
	mrun_end(&r);
}

/* Zen 3: 3e9 instructions / 1.5e9 cycles = 2; 5e6 mispredicted of 2e8 branches = 2.5% */
Test(unit_metric, zen3_ipc_and_branches)
{
	static const struct count_of c[] = {
		{"ex_ret_instr", 3e9}, {"ls_not_halted_cyc", 1.5e9}, {"ex_ret_brn_misp", 5e6}, {"ex_ret_brn", 2e8},
	};
	struct mrun r = mrun_start("AuthenticAMD-25-1-1", "zen_ipc,zen_branch_misprediction_ratio", c, 4);
	cr_assert_float_eq(value_of(r.m, r.s, "zen_ipc").value, 2.0, 1e-9);
	cr_assert_float_eq(value_of(r.m, r.s, "zen_branch_misprediction_ratio").value, 2.5, 1e-9);
	mrun_end(&r);
}

/* Zen 4 pipeline utilization, 6 slots a cycle, 1e9 cycles = 6e9 slots:
 * frontend 1.2e9 = 20%, backend 1.8e9 = 30%, SMT 6e8 = 10%, retiring 2.1e9 = 35%,
 * bad speculation (2.4e9 dispatched - 2.1e9 retired) = 5% */
Test(unit_metric, zen4_pipeline_utilization)
{
	static const struct count_of c[] = {
		{"cycles_not_in_halt", 1e9}, {"dispatch_stalls_1.fe_no_ops", 1.2e9},
		{"dispatch_stalls_1.be_stalls", 1.8e9}, {"dispatch_stalls_1.smt_contention", 6e8},
		{"retired_ops", 2.1e9}, {"OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER", 2.4e9},
	};
	struct mrun r = mrun_start("AuthenticAMD-25-17-0", "PipelineL1", c, 6);
	struct perfev_metrics *m = r.m;
	struct perfev_stat *s = r.s;
	cr_assert_eq(perfev_metrics_count(m), 5);
	cr_assert_float_eq(value_of(m, s, "frontend_bound").value, 20.0, 1e-9);
	cr_assert_float_eq(value_of(m, s, "backend_bound").value, 30.0, 1e-9);
	cr_assert_float_eq(value_of(m, s, "smt_contention").value, 10.0, 1e-9);
	cr_assert_float_eq(value_of(m, s, "retiring").value, 35.0, 1e-9);
	cr_assert_float_eq(value_of(m, s, "bad_speculation").value, 5.0, 1e-9);
	mrun_end(&r);
}

Test(unit_metric, missing_inputs_are_not_supported_with_the_reason)
{
	static const struct count_of c[] = {{"instructions", 0, 0, -ENOENT}, {"cycles", 0, 0, -ENOENT}};
	struct mrun r = mrun_start("GenuineIntel-6-55-4", "IPC", c, 2);
	struct perfev_metric_value v = value_of(r.m, r.s, "IPC");
	cr_assert_eq(v.status, -ENOENT);
	cr_assert(isnan(v.value), "not a zero");
	cr_assert_str_eq(v.missing, "instructions");
	char *text = mrun_text(&r);
	cr_assert(strstr(text, "<not supported>") && strstr(text, "IPC") && strstr(text, "instructions: "),
		  "%s", text);
	free(text);
	mrun_end(&r);
}

Test(unit_metric, unknown_metric_lists_what_there_is)
{
	setenv("PERF_CPUID", "AuthenticAMD-26-2-1", 1); /* no vendor table: generic metrics only */
	struct perfev_evlist *l = perfev_evlist_new();
	cr_assert_null(perfev_metrics_add(l, "TopdownL1"));
	cr_assert_eq(errno, ENOENT);
	cr_assert(strstr(perfev_errmsg(), "TopdownL1") && strstr(perfev_errmsg(), "IPC"), "%s", perfev_errmsg());
	cr_assert_eq(perfev_evlist_count(l), 0);
	perfev_evlist_free(l);
}

static int check_source(void *arg, const struct perfev_metric_info *m)
{
	cr_assert(m->source && *m->source, "%s cites no source", m->name);
	struct perfev_metric_expr *e = perfev_metric_expr_parse(m->expr);
	cr_assert(e, "%s: %s", m->name, perfev_errmsg());
	perfev_metric_expr_free(e);
	(*(int *)arg)++;
	return 0;
}

Test(unit_metric, every_formula_parses_and_cites_a_source)
{
	static const char *const models[] = {"GenuineIntel-6-55-4", "GenuineIntel-6-5E-3", "AuthenticAMD-25-1-1",
					     "AuthenticAMD-25-17-0", "0x00000000410fd0c0"};
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		setenv("PERF_CPUID", models[i], 1);
		int n = 0;
		cr_assert_eq(perfev_metrics_foreach(NULL, check_source, &n), n);
		cr_assert_geq(n, 9, "%s has %d metrics", models[i], n);
	}
}
