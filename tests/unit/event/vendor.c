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
	/* (the uncore units' events follow the core's: no such PMU here) */
	cr_assert_eq(ev->attr.type, strcmp(ev->pmu, "cpu") ? UINT32_MAX : 4, "%s on %s", ev->name, ev->pmu);
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

/* Uncore events (tests/data/vendor/uncore.tsv): one event per box of the
 * unit, each with that box's type and the config perf 6.1 built. */
Test(unit_vendor, uncore_table_attrs_equal_perfs, .timeout = 120)
{
	size_t n;
	struct urow *rows = vendor_uncore_table(&n);
	cr_assert_geq(n, 500, "the uncore table holds %zu events", n);
	char skx[512], zen3[512];
	snprintf(skx, sizeof(skx), "%s/intel-skx", test_tmpdir());
	snprintf(zen3, sizeof(zen3), "%s/amd-zen3", test_tmpdir());
	vendor_fake_sysfs_uncore(skx, "intel", "skx");
	vendor_fake_sysfs_uncore(zen3, "amd", "zen3");
	size_t bad = 0, amd = 0;
	char report[8192] = "";
	for (size_t i = 0; i < n; i++) {
		char msg[400];
		amd += !strcmp(rows[i].unc, "zen3");
		const char *why = vendor_uncore_check(&rows[i], !strcmp(rows[i].unc, "zen3") ? zen3 : skx, msg,
						      sizeof(msg));
		if (why) {
			bad++;
			size_t o = strlen(report);
			snprintf(report + o, sizeof(report) - o, "  %s %s: %s\n", rows[i].cpuid, rows[i].event, why);
		}
	}
	free(rows);
	cr_assert_geq(amd, 3);
	cr_assert_eq(bad, 0, "%zu of %zu uncore events differ from perf's attrs (perfev/perf):\n%s", bad, n,
		     report);
}

/* Where the machine has no such PMU, the model's boxes with a type that
 * never opens; libpfm4's names and a numbered table (one box) work too. */
Test(unit_vendor, uncore_without_the_pmu)
{
	setenv("PERF_CPUID", "GenuineIntel-6-55-4", 1);
	static const struct { const char *ev; size_t boxes; unsigned long long config, config1; } c[] = {
		{"unc_m_cas_count.rd", 6, 0x304, 0},
		{"UNC_M_CAS_COUNT:WR", 6, 0xc04, 0},
		{"skx_unc_imc3::UNC_M_CAS_COUNT:RD", 1, 0x304, 0},
		{"llc_misses.mem_read", 6, 0x304, 0},
		/* libpfm4 filters the CHA's TOR on local and remote misses: uncore_differ.tsv */
		{"unc_cha_tor_inserts.ia_miss", 28, 0x2135, 0x3b00000000ULL},
	};
	char dir[512];
	snprintf(dir, sizeof(dir), "%s/intel", test_tmpdir());
	vendor_fake_sysfs(dir, "intel"); /* the core PMU, no uncore */
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct perfev_evlist *l = perfev_evlist_new();
		struct perfev_parse_opts o = {sizeof(o), dir, NULL};
		struct perfev_parse_error err;
		cr_assert_eq(perfev_evlist_parse_opts(l, c[i].ev, &o, &err), 0, "%s: %s", c[i].ev, err.msg);
		cr_assert_eq(perfev_evlist_count(l), c[i].boxes, "%s: %zu events", c[i].ev, perfev_evlist_count(l));
		for (size_t k = 0; k < c[i].boxes; k++) {
			const struct perfev_evsel *e = perfev_evlist_at(l, k);
			const struct perfev_attr *a = perfev_evsel_attr_const(e);
			cr_assert_eq(a->type, UINT32_MAX, "%s", c[i].ev);
			cr_assert_eq(a->config, c[i].config, "%s: %#llx", c[i].ev, (unsigned long long)a->config);
			cr_assert_eq(a->config1, c[i].config1, "%s", c[i].ev);
			cr_assert(perfev_evsel_flags(e) & PERFEV_EVSEL_VENDOR);
			cr_assert_str_eq(perfev_evsel_name(e), c[i].ev);
		}
		cr_assert_str_eq(perfev_evsel_pmu_name(perfev_evlist_at(l, 0)),
				 c[i].boxes == 1 ? "uncore_imc_3" : strstr(c[i].ev, "cha") ? "uncore_cha_0" : "uncore_imc_0");
		perfev_evlist_free(l);
	}
	setenv("PERF_CPUID", "GenuineIntel-6-6A-6", 1); /* Ice Lake-SP: libpfm4 4.13 has no uncore table */
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_parse_error err;
	cr_assert_eq(perfev_evlist_parse(l, "unc_m_cas_count.rd", &err), -ENOENT);
	perfev_evlist_free(l);
}

/* perfev list: the model's uncore events too, under perf's names and
 * headings (uncore_imc's under "uncore memory"), each with the config perf
 * 6.1 built for it on the unit's first box (uncore.tsv). */
struct listed {
	char name[160], pmu[32];
	uint64_t config, config1;
	uint32_t type;
};
struct listing {
	struct listed *e;
	size_t n, cap;
};

static int collect_uncore(void *arg, const struct perfev_event_info *ev)
{
	struct listing *l = arg;
	if (!strcmp(ev->pmu, "cpu"))
		return 0;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->e = realloc(l->e, l->cap * sizeof(*l->e));
		cr_assert_not_null(l->e);
	}
	struct listed *e = &l->e[l->n++];
	snprintf(e->name, sizeof(e->name), "%s", ev->name);
	snprintf(e->pmu, sizeof(e->pmu), "%s", ev->pmu);
	e->config = ev->attr.config;
	e->config1 = ev->attr.config1;
	e->type = ev->attr.type;
	if (!strcmp(ev->pmu, "uncore_imc"))
		cr_assert_str_eq(ev->topic, "uncore memory", "%s", ev->name);
	if (!strcmp(ev->pmu, "uncore_cha"))
		cr_assert_str_eq(ev->topic, "uncore other", "%s", ev->name);
	return 0;
}

static const struct listed *listed_find(const struct listing *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->e[i].name, name))
			return &l->e[i];
	return NULL;
}

/* The unit of box PMU "uncore_imc_3" ("uncore_imc"), of "amd_l3" itself. */
static void unit_of(const char *box, char *unit, size_t len)
{
	snprintf(unit, len, "%s", box);
	char *u = strrchr(unit, '_');
	if (u && u[1] >= '0' && u[1] <= '9')
		*u = 0;
}

Test(unit_vendor, list_shows_uncore_events_as_perf, .timeout = 60)
{
	size_t n;
	struct urow *rows = vendor_uncore_table(&n);
	const char *models[] = {"GenuineIntel-6-55-4", "AuthenticAMD-25-1-1"};
	for (size_t m = 0; m < 2; m++) {
		setenv("PERF_CPUID", models[m], 1);
		struct listing l = {0};
		cr_assert_gt(perfev_events_foreach("vendor", 0, collect_uncore, &l), 0);
		size_t want = 0, bad = 0;
		char report[4096] = "";
		for (size_t i = 0; i < n; i++) {
			if (strcmp(rows[i].cpuid, models[m]))
				continue;
			want++;
			const struct vattr *w = &rows[i].want[0];
			const struct listed *e = listed_find(&l, rows[i].event);
			char unit[32];
			unit_of(w->pmu, unit, sizeof(unit));
			if (e && !strcmp(e->pmu, unit) && e->config == w->config && e->config1 == w->config1 &&
			    e->type == UINT32_MAX)
				continue;
			bad++;
			size_t o = strlen(report);
			snprintf(report + o, sizeof(report) - o, "  %s: %s\n", rows[i].event,
				 e ? "listed with another attr or unit" : "not listed");
		}
		cr_assert_geq(want, 3, "%s: uncore.tsv has %zu events", models[m], want);
		cr_assert_eq(bad, 0, "%s: %zu of perf's %zu uncore events are not listed as perf builds them:\n%s",
			     models[m], bad, want, report);
		cr_log_info("%s: %zu uncore events listed, perf's %zu among them", models[m], l.n, want);
		free(l.e);
	}
	free(rows);
}

/* perf's PMU/EVENT/ form: the model's uncore event on the box named
 * (uncore_imc_0/unc_m_cas_count.rd/) or on every box of its unit
 * (uncore_imc/unc_m_cas_count.rd/), with terms after it; the attrs perf
 * 6.1 built (uncore.tsv). */
Test(unit_vendor, uncore_event_as_pmu_term, .timeout = 120)
{
	size_t n;
	struct urow *rows = vendor_uncore_table(&n);
	char skx[512], zen3[512];
	snprintf(skx, sizeof(skx), "%s/intel-skx", test_tmpdir());
	snprintf(zen3, sizeof(zen3), "%s/amd-zen3", test_tmpdir());
	vendor_fake_sysfs_uncore(skx, "intel", "skx");
	vendor_fake_sysfs_uncore(zen3, "amd", "zen3");
	size_t bad = 0;
	char report[8192] = "";
	for (size_t i = 0; i < n; i++) {
		const char *sysfs = !strcmp(rows[i].unc, "zen3") ? zen3 : skx;
		char unit[32], msg[400];
		unit_of(rows[i].want[0].pmu, unit, sizeof(unit));
		struct urow all = rows[i], one = rows[i];
		snprintf(all.event, sizeof(all.event), "%s/%s/", unit, rows[i].event);
		snprintf(one.event, sizeof(one.event), "%s/%s/", rows[i].want[0].pmu, rows[i].event);
		one.nwant = 1;
		const char *why = vendor_uncore_check(&all, sysfs, msg, sizeof(msg));
		if (!why)
			why = vendor_uncore_check(&one, sysfs, msg, sizeof(msg));
		if (why) {
			bad++;
			size_t o = strlen(report);
			snprintf(report + o, sizeof(report) - o, "  %s: %s\n", rows[i].event, why);
		}
	}
	free(rows);
	cr_assert_eq(bad, 0, "%zu of %zu uncore events as PMU terms differ from perf's:\n%s", bad, n, report);
	/* with a term after it, ORed in as perf does */
	struct urow t = {.nwant = 1};
	snprintf(t.cpuid, sizeof(t.cpuid), "GenuineIntel-6-55-4");
	snprintf(t.event, sizeof(t.event), "uncore_imc_1/llc_misses.mem_read,thresh=1/");
	snprintf(t.want[0].pmu, sizeof(t.want[0].pmu), "uncore_imc_1");
	t.want[0].type = 21; /* mkfake.sh's */
	t.want[0].config = 0x1000304; /* perf 6.1 over the same fake sysfs */
	char msg[400];
	const char *why = vendor_uncore_check(&t, skx, msg, sizeof(msg));
	cr_assert_null(why, "%s", why);
}
