/*
 * parse_vendor.c — vendor events in event strings: perf's names
 * (inst_retired.any_p, with perf's modifiers and terms after them) and
 * libpfm4's (INST_RETIRED:ANY_P:c=1:u, skx::INST_RETIRED:ANY_P), as attrs
 * on the model's core PMU: one event per core PMU that has it, as perf
 * makes one per hybrid PMU; an uncore event (pfm_uncore.c) is one event per
 * box of its unit (uncore_imc_0 .. uncore_imc_5), as perf makes them.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "event/parse_ctx.h"
#include "event/pfm_int.h"
#include "event/pmu_int.h"
#include "perfev/sys.h"

#include <string.h>

/* The core PMU `name`, loaded once per parse (sysfs's, or built for a model
 * this machine is not). */
const struct perfev_pmu *pv_ctx_vendor_pmu(struct pctx *c, const char *name)
{
	for (size_t i = 0; i < PV_ARRAY_SIZE(c->vendor_pmus); i++) {
		if (c->vendor_pmus[i] && !strcmp(perfev_pmu_name(c->vendor_pmus[i]), name))
			return c->vendor_pmus[i];
		if (!c->vendor_pmus[i])
			return c->vendor_pmus[i] = pv_vendor_pmu_load(c->sysfs, name);
	}
	return NULL;
}

void pv_vendor_apply(struct perfev_evsel *e, const struct pv_vendor_event *v)
{
	struct perfev_attr *a = perfev_evsel_attr(e);
	a->config |= v->config;
	a->config1 |= v->config1;
	a->config2 |= v->config2;
	if (v->native) { /* libpfm4's u/k say what perf's :u/:k would */
		a->exclude_user = v->exclude_user;
		a->exclude_kernel = v->exclude_kernel;
		a->exclude_hv = v->exclude_user || v->exclude_kernel;
	}
	if (v->precise_ip)
		a->precise_ip = v->precise_ip;
	perfev_evsel_set_flags(e, perfev_evsel_flags(e) | PERFEV_EVSEL_VENDOR);
}

/* One event of uncore event u on box `pmu` of type `type`. */
static int uncore_box(struct pctx *c, const struct pv_uncore_event *u, const char *pmu, uint32_t type,
		      size_t at)
{
	struct perfev_evsel *e = pv_new_event(c, type, 0);
	if (!e)
		return -ENOMEM;
	if (perfev_evsel_set_pmu_name(e, pmu) < 0)
		return pv_fail(c, ENOMEM, at, "out of memory");
	struct perfev_attr *a = perfev_evsel_attr(e);
	a->config |= u->config;
	a->config1 |= u->config1;
	perfev_evsel_set_flags(e, perfev_evsel_flags(e) | PERFEV_EVSEL_VENDOR);
	return 1;
}

/*
 * The boxes of u's unit this machine (or c->sysfs) has, in name order; where
 * it has none, the model's boxes with a type that never opens, so that
 * perfev attr shows the attrs and stat says <not supported>.
 */
static int parse_uncore(struct pctx *c, const struct pv_uncore_event *u, size_t at)
{
	int r = pv_ctx_pmus(c), made = 0;
	for (size_t i = 0; r >= 0 && i < perfev_pmus_count(c->pmus); i++) {
		const struct perfev_pmu *q = perfev_pmus_at(c->pmus, i);
		if (!pv_uncore_box_of(perfev_pmu_name(q), u))
			continue;
		r = uncore_box(c, u, perfev_pmu_name(q), perfev_pmu_type(q), at);
		made++;
		c->tail_pmu = q;
	}
	if (r < 0 || made)
		return r < 0 ? r : made;
	pv_note("no %s PMU here (%s): the %sevent%s of %s will not open", u->unit,
		c->sysfs ? c->sysfs : PERFEV_PMU_SYSFS_ROOT, u->boxes > 1 && u->box < 0 ? "per-box " : "",
		u->boxes > 1 && u->box < 0 ? "s" : "", u->pfm_name);
	for (unsigned b = 0; r >= 0 && b < u->boxes; b++) {
		char name[64];
		if (u->box >= 0 && b != (unsigned)u->box)
			continue;
		if (u->boxes > 1)
			snprintf(name, sizeof(name), "%s_%u", u->unit, b);
		else
			snprintf(name, sizeof(name), "%s", u->unit);
		r = uncore_box(c, u, name, PV_UNCORE_TYPE_ABSENT, at);
		made++;
	}
	return r < 0 ? r : made;
}

int pv_parse_vendor(struct pctx *c, const char *w, size_t n, size_t at)
{
	struct pv_vendor_event v[2];
	int found = pv_vendor_resolve(w, n, v);
	if (found < 0)
		return pv_fail(c, -found, at, "%s", perfev_errmsg());
	if (!found) {
		struct pv_uncore_event u;
		int r = pv_uncore_resolve(w, n, &u);
		if (r < 0)
			return pv_fail(c, -r, at, "%s", perfev_errmsg());
		if (r > 0)
			return parse_uncore(c, &u, at);
	}
	for (int i = 0; i < found; i++) {
		const struct perfev_pmu *p = pv_ctx_vendor_pmu(c, v[i].pmu);
		if (!p)
			return pv_fail(c, errno ? errno : ENOMEM, at, "%s", perfev_errmsg());
		struct perfev_evsel *e = pv_new_event(c, perfev_pmu_type(p), 0);
		if (!e)
			return -ENOMEM;
		if (perfev_evsel_set_pmu_name(e, v[i].pmu) < 0)
			return pv_fail(c, ENOMEM, at, "out of memory");
		pv_vendor_apply(e, &v[i]);
		c->tail_pmu = p;
	}
	return found;
}
