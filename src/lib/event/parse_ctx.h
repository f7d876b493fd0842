/* parse_ctx.h — the state of one perfev_evlist_parse, shared by parse.c and parse_terms.c. */
#ifndef PERFEV_PARSE_CTX_H
#define PERFEV_PARSE_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/event.h"
#include "perfev/pmu.h"

/* What the parser tracks per event beyond the evsel. */
struct pv_evstate {
	bool exclude_gh; /* a G or H modifier chose between guest and host */
	bool named;      /* a name= term named it */
	char *base_name; /* the name perf gives regardless of modifiers (tracepoints, cache) */
};

struct pctx {
	const char *s;
	size_t len, pos;
	struct perfev_parse_error *err;
	const char *sysfs, *tracefs; /* NULL: the real ones */
	struct perfev_evlist *tmp;   /* events parsed so far */
	struct pv_evstate *st;       /* parallel to tmp */
	size_t st_cap;
	struct perfev_pmus *pmus;    /* loaded on first need */
	bool in_group;
	struct perfev_pmu *vendor_pmus[2]; /* the model's core PMUs, loaded on first need */
	const struct perfev_pmu *tail_pmu; /* the PMU whose terms may follow a vendor event */
};

/* Records the failure (the first one wins) at byte pos; returns -err. */
int pv_fail(struct pctx *c, int err, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Decimal or 0x-hex, all of s[0..n); 0, -EINVAL or -ERANGE. */
int pv_parse_num(const char *s, size_t n, uint64_t *out);
/* Appends an event with perf's defaults (exclude_guest). */
struct perfev_evsel *pv_new_event(struct pctx *c, uint32_t type, uint64_t config);

/* Loads every PMU into c->pmus once; 0 or -errno. */
int pv_ctx_pmus(struct pctx *c);
/* /terms/ at c->pos for the events from index first on (generic terms only). */
int pv_parse_event_terms(struct pctx *c, const struct perfev_pmu *pmu, size_t first);
/* PMU/terms/ with the PMU's name w[0..n) at start; c->pos is at the '/'. */
int pv_parse_pmu_event(struct pctx *c, const char *w, size_t n, size_t start);
/* One event for sysfs alias al of PMU p, named in the string at byte at. */
int pv_pmu_event_alias(struct pctx *c, const struct perfev_pmu *p,
		       const struct perfev_pmu_alias *al, size_t at, size_t n);

/* Vendor events (parse_vendor.c): the events for w[0..n) named at byte at;
 * 0 when no table of the model has it, else how many (one per core PMU). */
int pv_parse_vendor(struct pctx *c, const char *w, size_t n, size_t at);
const struct perfev_pmu *pv_ctx_vendor_pmu(struct pctx *c, const char *name);
struct pv_vendor_event;
/* ORs a vendor encoding into e's attr and marks e PERFEV_EVSEL_VENDOR. */
void pv_vendor_apply(struct perfev_evsel *e, const struct pv_vendor_event *v);

/* u:PATH:SYMBOL / k:SYMBOL at start (parse_probe.c): one probe event. */
int pv_parse_probe(struct pctx *c, size_t start);

#endif
