/*
 * parse_vendor.c — vendor events in event strings: perf's names
 * (inst_retired.any_p, with perf's modifiers and terms after them) and
 * libpfm4's (INST_RETIRED:ANY_P:c=1:u, skx::INST_RETIRED:ANY_P), as attrs
 * on the model's core PMU: one event per core PMU that has it, as perf
 * makes one per hybrid PMU.
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

int pv_parse_vendor(struct pctx *c, const char *w, size_t n, size_t at)
{
	struct pv_vendor_event v[2];
	int found = pv_vendor_resolve(w, n, v);
	if (found < 0)
		return pv_fail(c, -found, at, "%s", perfev_errmsg());
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
