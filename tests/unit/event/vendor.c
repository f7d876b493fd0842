/*
 * Vendor events (libpfm4's tables under perf's and libpfm4's names): the
 * attrs perfev builds for every event of tests/data/vendor/events.tsv equal
 * the ones perf 6.1 built for it (recorded; tests/interop/event/vendor.c asks perf
 * again where it can), over six models; PERF_CPUID picks the model.
 */
#define _GNU_SOURCE
#include "support.h"
#include "support_vendor.h"
#include "perfev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

Test(unit_vendor, table_attrs_equal_perfs, .timeout = 60)
{
	size_t n;
	struct vrow *rows = vendor_table(&n);
	cr_assert_geq(n, 300, "the table holds %zu events; the issue asks for at least 300", n);
	char dirs[3][512];
	const char *kinds[3] = {"intel", "amd", "hybrid"};
	for (int k = 0; k < 3; k++) {
		snprintf(dirs[k], sizeof(dirs[k]), "%s/%s", test_tmpdir(), kinds[k]);
		vendor_fake_sysfs(dirs[k], kinds[k]);
	}
	size_t models = 0, bad = 0;
	char report[8192] = "";
	for (size_t i = 0; i < n; i++) {
		const struct vrow *r = &rows[i];
		if (!i || strcmp(r->cpuid, rows[i - 1].cpuid))
			models++;
		int k = !strcmp(r->kind, "amd") ? 1 : !strcmp(r->kind, "hybrid") ? 2 : 0;
		struct vattr got[4];
		char msg[300], diff[300];
		int m = vendor_perfev_attrs(r, dirs[k], got, 4, msg, sizeof(msg));
		const char *why = NULL;
		if (m < 0)
			why = msg;
		else if (m != r->nwant)
			why = (snprintf(msg, sizeof(msg), "%d events, perf made %d", m, r->nwant), msg);
		for (int j = 0; !why && j < m; j++)
			if (*vattr_diff(&got[j], &r->want[j], diff, sizeof(diff)))
				why = diff;
		if (why) {
			bad++;
			size_t o = strlen(report);
			snprintf(report + o, sizeof(report) - o, "  %s %s: %s\n", r->cpuid, r->event, why);
		}
	}
	free(rows);
	cr_assert_geq(models, 6);
	cr_assert_eq(bad, 0, "%zu of %zu events differ from perf's attrs (perfev/perf):\n%s", bad, n, report);
}

Test(unit_vendor, names_and_modifiers)
{
	setenv("PERF_CPUID", "GenuineIntel-6-55-4", 1);
	static const struct { const char *ev; unsigned long long config; int eu, ek; } c[] = {
		{"inst_retired.any_p", 0xc0, 0, 0},
		{"INST_RETIRED.ANY_P", 0xc0, 0, 0},             /* case-insensitive, as perf */
		{"INST_RETIRED:ANY_P", 0xc0, 0, 0},             /* libpfm4's (PAPI's) name */
		{"INST_RETIRED:ANY_P:c=1:i", 0x18000c0, 0, 0},  /* libpfm4's modifiers */
		{"INST_RETIRED:ANY_P:u", 0xc0, 0, 1},
		{"skx::INST_RETIRED:ANY_P:k", 0xc0, 1, 0},      /* a table named */
		{"skx::inst_retired:any_p", 0xc0, 0, 0},        /* named by table, any case */
		{"cycle_activity.stalls_total", 0x40004a3, 0, 0},
		{"cycle_activity.stalls_total/cmask=2/", 0x60004a3, 0, 0}, /* perf ORs: 4|2 */
		{"cycle_activity.stalls_total/period=1000/", 0x40004a3, 0, 0},
		{"cpu_clk_unhalted.thread", 0x3c, 0, 0},        /* perf's name for libpfm4's CPU_CLK_UNHALTED */
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct perfev_evlist *l = perfev_evlist_new();
		struct perfev_parse_error err;
		int r = perfev_evlist_parse(l, c[i].ev, &err);
		cr_assert_eq(r, 0, "%s: %s", c[i].ev, err.msg);
		cr_assert_eq(perfev_evlist_count(l), 1);
		const struct perfev_evsel *e = perfev_evlist_at(l, 0);
		const struct perfev_attr *a = perfev_evsel_attr_const(e);
		cr_assert_eq(a->config, c[i].config, "%s: config %#llx, want %#llx", c[i].ev,
			     (unsigned long long)a->config, c[i].config);
		cr_assert_eq(a->exclude_user, c[i].eu, "%s", c[i].ev);
		cr_assert_eq(a->exclude_kernel, c[i].ek, "%s", c[i].ev);
		cr_assert(perfev_evsel_flags(e) & PERFEV_EVSEL_VENDOR);
		cr_assert_str_eq(perfev_evsel_name(e), c[i].ev);
		if (strstr(c[i].ev, "period="))
			cr_assert_eq(a->sample_period, 1000);
		perfev_evlist_free(l);
	}
}

Test(unit_vendor, unknown_names_say_which_model)
{
	struct perfev_parse_error err;
	struct perfev_evlist *l = perfev_evlist_new();
	setenv("PERF_CPUID", "GenuineIntel-6-55-4", 1);
	cr_assert_eq(perfev_evlist_parse(l, "inst_retired.nonsense", &err), -ENOENT);
	cr_assert(strstr(err.msg, "Skylake-SP"), "%s", err.msg);
	cr_assert_eq(perfev_evlist_parse(l, "INST_RETIRED:ANY_P:c=999", &err), -EINVAL);
	cr_assert(strstr(err.msg, "libpfm4"), "%s", err.msg);
	setenv("PERF_CPUID", "AuthenticAMD-26-2-1", 1); /* Zen 5: libpfm4 4.13 has no table */
	cr_assert_eq(perfev_evlist_parse(l, "ls_dispatch.ld_dispatch", &err), -ENOENT);
	cr_assert(strstr(err.msg, "no vendor event table") && strstr(err.msg, "PERF_CPUID"), "%s", err.msg);
	cr_assert_eq(perfev_evlist_count(l), 0);
	perfev_evlist_free(l);
}

Test(unit_vendor, cpu_model_from_perf_cpuid)
{
	struct perfev_cpu_model m = {.sz = sizeof(m)};
	setenv("PERF_CPUID", "GenuineIntel-6-97-2", 1);
	cr_assert_eq(perfev_cpu_model_get(&m), 0);
	cr_assert(m.overridden);
	cr_assert_str_eq(m.cpuid, "GenuineIntel-6-97-2");
	cr_assert_str_eq(m.name, "Alder Lake");
	cr_assert_str_eq(m.core_pmus[0], "cpu_atom");
	cr_assert_str_eq(m.core_pmus[1], "cpu_core");
	cr_assert_str_eq(m.tables[1], "spr");
	setenv("PERF_CPUID", "0x00000000410fd0c0", 1); /* a MIDR: Neoverse N1 */
	cr_assert_eq(perfev_cpu_model_get(&m), 0);
	cr_assert_str_eq(m.name, "Arm Neoverse N1");
	setenv("PERF_CPUID", "GenuineIntel-6-55-7", 1); /* stepping 7: Cascade Lake */
	cr_assert_eq(perfev_cpu_model_get(&m), 0);
	cr_assert_str_eq(m.name, "Cascade Lake-SP");
	char why[256];
	cr_assert(strstr(perfev_cpu_model_mismatch(why, sizeof(why)), "this CPU is not Cascade Lake-SP"),
		  "%s", why);
	setenv("PERF_CPUID", "NoSuchVendor-1-2-3", 1);
	cr_assert_eq(perfev_cpu_model_get(&m), -ENOENT);
	cr_assert_null(m.name);
}

static int count_vendor(void *arg, const struct perfev_event_info *ev)
{
	int *n = arg;
	cr_assert_eq(ev->klass, PERFEV_CLASS_VENDOR);
	cr_assert(ev->topic && ev->alias && ev->pmu);
	cr_assert_eq(ev->attr.type, 4);
	if (!strcmp(ev->name, "cycle_activity.stalls_total")) {
		cr_assert_eq(ev->attr.config, 0x40004a3);
		cr_assert_str_eq(ev->alias, "CYCLE_ACTIVITY:STALLS_TOTAL");
		cr_assert_str_eq(ev->topic, "pipeline");
	}
	if (!strcmp(ev->name, "l2_rqsts.all_demand_data_rd"))
		cr_assert_str_eq(ev->topic, "cache");
	(*n)++;
	return 0;
}

Test(unit_vendor, list_shows_the_models_events_by_topic)
{
	setenv("PERF_CPUID", "GenuineIntel-6-55-4", 1);
	int n = 0;
	int r = perfev_events_foreach("vendor", 0, count_vendor, &n);
	cr_assert_eq(r, n);
	cr_assert_geq(n, 400, "Skylake-SP lists %d vendor events", n);
}
