/*
 * parse_terms.c — the terms of an event: `pmu/event=0x3c,umask=1,name=x/`,
 * `cycles/period=1000/`, and the terms a sysfs alias stands for.
 *
 * perf's generic terms (config.., name, period, freq, branch_type, time,
 * call-graph, stack-size, inherit, overwrite, max-stack, max-events,
 * percore, aux-output, aux-sample-size, metric-id) apply to any event and
 * go straight into the attr or the evsel; a PMU's format/ terms are
 * scattered into the config fields' bits; a value-less term that is one of
 * the PMU's events/ aliases is replaced by the alias's terms, in place.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "event/parse_ctx.h"
#include "event/pfm_int.h"
#include "event/pmu_int.h"
#include "perfev/sys.h"

#include <ctype.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

struct term {
	const char *key, *val;
	size_t klen, vlen;
	bool has_val;
	size_t pos, vpos; /* where it is in the user's string */
};

struct terms {
	struct term *t;
	size_t n, cap;
};

static bool key_is(const struct term *t, const char *k)
{
	return strlen(k) == t->klen && !memcmp(t->key, k, t->klen);
}

static bool key_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '_' || ch == '-' || ch == '.';
}

/*
 * Splits text[0..len) into terms. For the user's string (user true) text is
 * the string itself from byte `from`, ending at a '/'; *end gets the byte
 * after it. For an alias's sysfs text, every term reports position `at`.
 */
static int lex_terms(struct pctx *c, const char *text, size_t len, size_t from, bool user,
		     size_t at, struct terms *out, size_t *end)
{
	size_t p = from;
#define POS(x) (user ? (x) : at)
	for (;;) {
		if (user && p < len && text[p] == '/' && out->n == 0 && p == from) {
			*end = p + 1; /* pmu// : no terms */
			return 0;
		}
		size_t k = p;
		while (p < len && key_char(text[p]))
			p++;
		if (p == k) {
			if (p >= len)
				return pv_fail(c, EINVAL, POS(p), user ? "missing '/' to close the terms"
									: "empty term in a sysfs alias");
			return pv_fail(c, EINVAL, POS(p), "expected a term name, not '%c'", text[p]);
		}
		struct term t = {.key = text + k, .klen = p - k, .pos = POS(k)};
		if (p < len && text[p] == '=') {
			p++;
			t.has_val = true;
			t.vpos = POS(p);
			if (p < len && (text[p] == '"' || text[p] == '\'')) {
				const char *q = memchr(text + p + 1, text[p], len - p - 1);
				if (!q)
					return pv_fail(c, EINVAL, POS(p), "unterminated quote");
				t.val = text + p + 1;
				t.vlen = (size_t)(q - t.val);
				p = (size_t)(q - text) + 1;
			} else {
				size_t v = p;
				while (p < len && text[p] != ',' && text[p] != '/' && text[p] != '\n')
					p++;
				t.val = text + v;
				t.vlen = p - v;
				if (!t.vlen)
					return pv_fail(c, EINVAL, POS(v), "term '%.*s' needs a value after '='",
						       (int)t.klen, t.key);
			}
		}
		if (pv_grow(&out->t, &out->cap, out->n + 1, sizeof(t)) < 0)
			return pv_fail(c, ENOMEM, POS(p), "out of memory");
		out->t[out->n++] = t;
		if (p < len && text[p] == ',') {
			p++;
			continue;
		}
		if (user) {
			if (p < len && text[p] == '/') {
				*end = p + 1;
				return 0;
			}
			if (p >= len)
				return pv_fail(c, EINVAL, p, "missing '/' to close the terms");
			return pv_fail(c, EINVAL, p, "unexpected '%c' in the terms; terms are "
				       "separated by ',' and end with '/'", text[p]);
		}
		while (p < len && (text[p] == '\n' || text[p] == ' '))
			p++;
		if (p >= len)
			return 0;
		return pv_fail(c, EINVAL, at, "cannot read the sysfs alias's terms at '%c'", text[p]);
	}
#undef POS
}

static int term_num(struct pctx *c, const struct term *t, uint64_t *v)
{
	if (!t->has_val) {
		*v = 1; /* a bare term is a flag set to 1, as in perf */
		return 0;
	}
	int r = pv_parse_num(t->val, t->vlen, v);
	if (r == -ERANGE)
		return pv_fail(c, ERANGE, t->vpos, "'%.*s' does not fit 64 bits", (int)t->vlen, t->val);
	if (r < 0)
		return pv_fail(c, EINVAL, t->vpos, "term '%.*s' wants a number (decimal or 0x...), not '%.*s'",
			       (int)t->klen, t->key, (int)t->vlen, t->val);
	return 0;
}

static int term_str(struct pctx *c, const struct term *t)
{
	if (!t->has_val)
		return pv_fail(c, EINVAL, t->pos, "term '%.*s' needs a value: %.*s=VALUE",
			       (int)t->klen, t->key, (int)t->klen, t->key);
	return 0;
}

/* branch_type=VALUE: perf's branch filter names (builtin-record branch_modes). */
static const struct {
	const char *name;
	uint64_t mask;
} branch_modes[] = {
	{"u", PERF_SAMPLE_BRANCH_USER},
	{"k", PERF_SAMPLE_BRANCH_KERNEL},
	{"hv", PERF_SAMPLE_BRANCH_HV},
	{"any", PERF_SAMPLE_BRANCH_ANY},
	{"any_call", PERF_SAMPLE_BRANCH_ANY_CALL},
	{"any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN},
	{"ind_call", PERF_SAMPLE_BRANCH_IND_CALL},
	{"abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX},
	{"in_tx", PERF_SAMPLE_BRANCH_IN_TX},
	{"no_tx", PERF_SAMPLE_BRANCH_NO_TX},
	{"cond", PERF_SAMPLE_BRANCH_COND},
	{"ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP},
	{"call", PERF_SAMPLE_BRANCH_CALL},
	{"save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE},
	{"stack", PERF_SAMPLE_BRANCH_CALL_STACK},
};

/* perf's x86-64 PERF_REGS_MASK: every register but the segment registers ds, es, fs, gs. */
#if defined(__x86_64__)
#define USER_REGS_MASK 0xff0fffULL
#elif defined(__aarch64__)
#define USER_REGS_MASK ((1ULL << 33) - 1)
#else
#define USER_REGS_MASK 0ULL
#endif

static int apply_callgraph(struct pctx *c, struct perfev_attr *a, const struct term *t)
{
	const char *v = t->val;
	size_t n = t->vlen;
	a->sample_type &= ~(uint64_t)(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER |
				      PERF_SAMPLE_STACK_USER);
	if (n == 2 && !memcmp(v, "fp", 2)) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	} else if (n == 5 && !memcmp(v, "dwarf", 5)) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user = USER_REGS_MASK;
		if (!a->sample_stack_user)
			a->sample_stack_user = 8192; /* perf's default dump size */
		a->exclude_callchain_user = 1;
	} else if (n == 3 && !memcmp(v, "lbr", 3)) {
		a->sample_type |= PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK |
					PERF_SAMPLE_BRANCH_NO_CYCLES | PERF_SAMPLE_BRANCH_NO_FLAGS;
	} else if (!(n == 2 && !memcmp(v, "no", 2))) {
		return pv_fail(c, EINVAL, t->vpos, "call-graph is fp, dwarf, lbr or no, not '%.*s'",
			       (int)n, v);
	}
	return 0;
}

/* 1: a generic term, applied; 0: not one; <0: a bad value. */
static int apply_generic(struct pctx *c, struct perfev_evsel *e, const struct term *t)
{
	struct perfev_attr *a = perfev_evsel_attr(e);
	uint64_t v = 0;
	int r;
	static const char *const cfg[] = {"config", "config1", "config2", "config3"};
	for (int i = 0; i < 4; i++)
		if (key_is(t, cfg[i])) {
			if ((r = term_num(c, t, &v)) < 0)
				return r;
			*pv_attr_config_field(a, i) = v;
			return 1;
		}
	if (key_is(t, "name")) {
		if ((r = term_str(c, t)) < 0)
			return r;
		char *n = strndup(t->val, t->vlen);
		if (!n || perfev_evsel_set_name(e, n) < 0) {
			free(n);
			return pv_fail(c, ENOMEM, t->pos, "out of memory");
		}
		free(n);
		c->st[perfev_evsel_index(e)].named = true;
		return 1;
	}
	if (key_is(t, "period") || key_is(t, "freq")) {
		if ((r = term_str(c, t)) < 0 || (r = term_num(c, t, &v)) < 0)
			return r;
		a->sample_period = v;
		a->freq = key_is(t, "freq");
		return 1;
	}
	if (key_is(t, "branch_type")) {
		if ((r = term_str(c, t)) < 0)
			return r;
		for (size_t i = 0; i < PV_ARRAY_SIZE(branch_modes); i++)
			if (strlen(branch_modes[i].name) == t->vlen &&
			    !memcmp(branch_modes[i].name, t->val, t->vlen)) {
				a->branch_sample_type |= branch_modes[i].mask;
				a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
				return 1;
			}
		return pv_fail(c, EINVAL, t->vpos, "unknown branch_type '%.*s' (any, any_call, any_ret, "
			       "ind_call, ind_jmp, call, cond, u, k, hv, ...)", (int)t->vlen, t->val);
	}
	if (key_is(t, "time")) {
		if ((r = term_num(c, t, &v)) < 0)
			return r;
		if (v)
			a->sample_type |= PERF_SAMPLE_TIME;
		else
			a->sample_type &= ~(uint64_t)PERF_SAMPLE_TIME;
		return 1;
	}
	if (key_is(t, "call-graph")) {
		if ((r = term_str(c, t)) < 0)
			return r;
		return apply_callgraph(c, a, t) < 0 ? -EINVAL : 1;
	}
	if (key_is(t, "stack-size")) {
		if ((r = term_str(c, t)) < 0 || (r = term_num(c, t, &v)) < 0)
			return r;
		if (v > UINT32_MAX)
			return pv_fail(c, ERANGE, t->vpos, "stack-size is at most %u", UINT32_MAX);
		a->sample_stack_user = (uint32_t)v;
		return 1;
	}
	if (key_is(t, "inherit") || key_is(t, "no-inherit")) {
		a->inherit = key_is(t, "inherit");
		return 1;
	}
	if (key_is(t, "overwrite") || key_is(t, "no-overwrite")) {
		a->write_backward = key_is(t, "overwrite");
		return 1;
	}
	if (key_is(t, "max-stack")) {
		if ((r = term_str(c, t)) < 0 || (r = term_num(c, t, &v)) < 0)
			return r;
		if (v > UINT16_MAX)
			return pv_fail(c, ERANGE, t->vpos, "max-stack is at most %u", UINT16_MAX);
		a->sample_max_stack = (uint16_t)v;
		return 1;
	}
	if (key_is(t, "max-events")) {
		if ((r = term_str(c, t)) < 0 || (r = term_num(c, t, &v)) < 0)
			return r;
		perfev_evsel_set_max_events(e, v);
		return 1;
	}
	if (key_is(t, "percore")) {
		if ((r = term_num(c, t, &v)) < 0)
			return r;
		unsigned f = perfev_evsel_flags(e) & ~(unsigned)PERFEV_EVSEL_PERCORE;
		perfev_evsel_set_flags(e, f | (v ? PERFEV_EVSEL_PERCORE : 0));
		return 1;
	}
	if (key_is(t, "aux-output")) {
		if ((r = term_num(c, t, &v)) < 0)
			return r;
		a->aux_output = !!v;
		return 1;
	}
	if (key_is(t, "aux-sample-size")) {
		if ((r = term_str(c, t)) < 0 || (r = term_num(c, t, &v)) < 0)
			return r;
		if (v > UINT32_MAX)
			return pv_fail(c, ERANGE, t->vpos, "aux-sample-size is at most %u", UINT32_MAX);
		a->aux_sample_size = (uint32_t)v;
		return 1;
	}
	if (key_is(t, "metric-id"))
		return term_str(c, t) < 0 ? -EINVAL : 1; /* names the event in metrics; no attr effect */
	return 0;
}

#define GENERIC_TERMS "config, config1, config2, config3, name, period, freq, branch_type, time, " \
		      "call-graph, stack-size, inherit, no-inherit, overwrite, no-overwrite, "     \
		      "max-stack, max-events, percore, aux-output, aux-sample-size, metric-id"

static int apply_pmu_terms(struct pctx *c, const struct perfev_pmu *p, struct perfev_evsel *e,
			   const struct terms *ts, const struct terms *user, int depth);

int pv_parse_event_terms(struct pctx *c, const struct perfev_pmu *pmu, size_t first)
{
	struct terms ts = {0};
	size_t end = c->pos;
	int r = lex_terms(c, c->s, c->len, c->pos + 1, true, 0, &ts, &end);
	size_t last = perfev_evlist_count(c->tmp);
	/* perf's config_term_tracepoint: only these terms for tracepoints */
	static const char *const tp_terms[] = {"call-graph", "stack-size", "inherit", "no-inherit",
		"max-stack", "overwrite", "no-overwrite", "aux-output", "aux-sample-size"};
	if (r >= 0 && first < last &&
	    perfev_evsel_attr(perfev_evlist_at(c->tmp, first))->type == PERF_TYPE_TRACEPOINT)
		for (size_t i = 0; r >= 0 && i < ts.n; i++) {
			bool ok = false;
			for (size_t k = 0; k < PV_ARRAY_SIZE(tp_terms); k++)
				ok |= key_is(&ts.t[i], tp_terms[k]);
			if (!ok)
				r = pv_fail(c, EINVAL, ts.t[i].pos, "unknown term '%.*s' for a tracepoint; valid "
					    "terms: call-graph, stack-size, inherit, no-inherit, max-stack, "
					    "overwrite, no-overwrite, aux-output, aux-sample-size",
					    (int)ts.t[i].klen, ts.t[i].key);
		}
	for (size_t j = first; pmu && r >= 0 && j < last; j++) /* a vendor event's format terms */
		r = apply_pmu_terms(c, pmu, perfev_evlist_at(c->tmp, j), &ts, &ts, 1);
	for (size_t i = 0; !pmu && r >= 0 && i < ts.n; i++)
		for (size_t j = first; r >= 0 && j < last; j++) {
			r = apply_generic(c, perfev_evlist_at(c->tmp, j), &ts.t[i]);
			if (r == 0)
				r = pv_fail(c, EINVAL, ts.t[i].pos, "unknown term '%.*s' for this event; "
					    "valid terms: " GENERIC_TERMS, (int)ts.t[i].klen, ts.t[i].key);
		}
	free(ts.t);
	if (r < 0)
		return r;
	c->pos = end;
	return 0;
}

static int apply_pmu_terms(struct pctx *c, const struct perfev_pmu *p, struct perfev_evsel *e,
			   const struct terms *ts, const struct terms *user, int depth);

static int apply_alias(struct pctx *c, const struct perfev_pmu *p, struct perfev_evsel *e,
		       const struct perfev_pmu_alias *al, size_t at, const struct terms *user,
		       int depth)
{
	struct terms ts = {0};
	int r = lex_terms(c, al->terms, strlen(al->terms), 0, false, at, &ts, NULL);
	if (r >= 0)
		r = apply_pmu_terms(c, p, e, &ts, user, depth + 1);
	free(ts.t);
	if (r < 0)
		return r;
	if (perfev_evsel_set_scale_unit(e, al->scale, al->unit) < 0)
		return pv_fail(c, ENOMEM, at, "out of memory");
	unsigned f = perfev_evsel_flags(e);
	if (al->per_pkg)
		f |= PERFEV_EVSEL_PER_PKG;
	if (al->snapshot)
		f |= PERFEV_EVSEL_SNAPSHOT;
	perfev_evsel_set_flags(e, f);
	return 0;
}

static void list_valid_terms(const struct perfev_pmu *p, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = 0;
	for (size_t i = 0; i < perfev_pmu_format_count(p) && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s, ", perfev_pmu_format_at(p, i)->name);
}

/* Does the user's term list give key a value? */
static bool user_gives(const struct terms *user, const struct term *t)
{
	for (size_t i = 0; user && i < user->n; i++)
		if (user->t[i].has_val && user->t[i].klen == t->klen &&
		    !memcmp(user->t[i].key, t->key, t->klen))
			return true;
	return false;
}

static int apply_pmu_terms(struct pctx *c, const struct perfev_pmu *p, struct perfev_evsel *e,
			   const struct terms *ts, const struct terms *user, int depth)
{
	for (size_t i = 0; i < ts->n; i++) {
		const struct term *t = &ts->t[i];
		int r = apply_generic(c, e, t);
		if (r < 0)
			return r;
		if (r > 0)
			continue;
		char key[256];
		snprintf(key, sizeof(key), "%.*s", (int)t->klen, t->key);
		const struct perfev_pmu_alias *al = NULL;
		if (!t->has_val && depth == 0)
			al = perfev_pmu_alias_find(p, key);
		if (al) {
			if ((r = apply_alias(c, p, e, al, t->pos, ts, depth)) < 0)
				return r;
			continue;
		}
		if (!t->has_val && depth == 0 && pv_vendor_core_pmu(perfev_pmu_name(p))) {
			/* cpu/inst_retired.any_p,cmask=1/: the model's event, as perf's JSON alias */
			struct pv_vendor_event v[2];
			int n = pv_vendor_resolve(t->key, t->klen, v);
			if (n < 0)
				return pv_fail(c, -n, t->pos, "%s", perfev_errmsg());
			int k = 0;
			while (k < n && strcmp(v[k].pmu, perfev_pmu_name(p)))
				k++;
			if (k < n) {
				pv_vendor_apply(e, &v[k]);
				continue;
			}
		}
		if (!t->has_val && depth == 0) {
			/* uncore_imc_0/unc_m_cas_count.rd/: the model's uncore event on that box */
			struct pv_uncore_event u;
			int n = pv_uncore_resolve(t->key, t->klen, &u);
			if (n < 0)
				return pv_fail(c, -n, t->pos, "%s", perfev_errmsg());
			if (n > 0 && pv_uncore_box_of(perfev_pmu_name(p), &u)) {
				perfev_evsel_attr(e)->config |= u.config;
				perfev_evsel_attr(e)->config1 |= u.config1;
				perfev_evsel_set_flags(e, perfev_evsel_flags(e) | PERFEV_EVSEL_VENDOR);
				continue;
			}
		}
		const struct perfev_pmu_format *f = perfev_pmu_format_find(p, key);
		if (!f) {
			char valid[160];
			list_valid_terms(p, valid, sizeof(valid));
			return pv_fail(c, EINVAL, t->pos, "unknown term '%s' for PMU '%s'; valid terms: %s"
				       "%s (and its events: 'perfev list %s')", key, perfev_pmu_name(p),
				       valid, "config, config1, config2, name, period, ...", perfev_pmu_name(p));
		}
		uint64_t v;
		if (t->has_val && t->vlen == 1 && t->val[0] == '?') {
			/* a parameter of the alias: the user's own term supplies it */
			if (user_gives(user, t))
				continue;
			return pv_fail(c, EINVAL, t->pos, "'%s' needs a value: give %s=N in the event's terms",
				       key, key);
		}
		if ((r = term_num(c, t, &v)) < 0)
			return r;
		uint64_t before = *pv_attr_config_field(perfev_evsel_attr(e), f->field);
		if (pv_format_encode(f, v, perfev_evsel_attr(e)) < 0)
			return pv_fail(c, ERANGE, t->vpos, "%s", perfev_errmsg());
		/* perf ORs a term into the bits a vendor event's own terms set (its
		 * pmu_format_value does not clear): cmask=2 on an event with cmask=1 is 3 */
		if (perfev_evsel_flags(e) & PERFEV_EVSEL_VENDOR)
			*pv_attr_config_field(perfev_evsel_attr(e), f->field) |= before;
	}
	return 0;
}

static struct perfev_evsel *pmu_event(struct pctx *c, const struct perfev_pmu *p)
{
	struct perfev_evsel *e = pv_new_event(c, perfev_pmu_type(p), 0);
	if (e && perfev_evsel_set_pmu_name(e, perfev_pmu_name(p)) < 0) {
		pv_fail(c, ENOMEM, c->pos, "out of memory");
		return NULL;
	}
	return e;
}

static int one_pmu_event(struct pctx *c, const struct perfev_pmu *p, const struct terms *ts)
{
	struct perfev_evsel *e = pmu_event(c, p);
	if (!e)
		return -ENOMEM;
	return apply_pmu_terms(c, p, e, ts, ts, 0);
}

/*
 * perf's PMU matching when no PMU has the exact name: "imc" or "uncore_imc"
 * names every uncore_imc_N, and a glob names every PMU it matches.
 */
static bool pmu_matches(const char *pmu, const char *tok)
{
	if (!strncmp(pmu, "uncore_", 7) && strncmp(tok, "uncore_", 7))
		pmu += 7;
	char pattern[300];
	snprintf(pattern, sizeof(pattern), "%s*", tok);
	if (fnmatch(pattern, pmu, 0))
		return false;
	if (strpbrk(tok, "*?["))
		return true;
	const char *rest = pmu + strlen(tok);
	return !*rest || (rest[0] == '_' && isdigit((unsigned char)rest[1]));
}

int pv_parse_pmu_event(struct pctx *c, const char *w, size_t n, size_t start)
{
	char name[256];
	if (n >= sizeof(name))
		return pv_fail(c, ENOENT, start, "unknown PMU '%.*s'", (int)n, w);
	snprintf(name, sizeof(name), "%.*s", (int)n, w);
	struct terms ts = {0};
	size_t end = c->pos;
	int r = lex_terms(c, c->s, c->len, c->pos + 1, true, 0, &ts, &end);
	struct perfev_pmu *p = r < 0 ? NULL : pv_pmu_load(c->sysfs, name);
	if (!p && r >= 0 && pv_vendor_core_pmu(name)) /* the model's core PMU, absent here */
		p = pv_vendor_pmu_load(c->sysfs, name);
	if (p) {
		r = one_pmu_event(c, p, &ts);
		pv_pmu_free(p);
	} else if (r >= 0 && (r = pv_ctx_pmus(c)) >= 0) {
		int found = 0;
		for (size_t i = 0; r >= 0 && i < perfev_pmus_count(c->pmus); i++) {
			const struct perfev_pmu *q = perfev_pmus_at(c->pmus, i);
			if (pmu_matches(perfev_pmu_name(q), name)) {
				r = one_pmu_event(c, q, &ts);
				found++;
			}
		}
		if (r >= 0 && !found)
			r = pv_fail(c, ENOENT, start, "unknown PMU '%s' (not in %s); 'perfev list' shows "
				    "the PMUs here", name, c->sysfs ? c->sysfs : PERFEV_PMU_SYSFS_ROOT);
	}
	free(ts.t);
	if (r < 0)
		return r;
	c->pos = end;
	return 0;
}

int pv_pmu_event_alias(struct pctx *c, const struct perfev_pmu *p, const struct perfev_pmu_alias *al,
		       size_t at, size_t n)
{
	struct perfev_evsel *e = pmu_event(c, p);
	if (!e)
		return -ENOMEM;
	return apply_alias(c, p, e, al, at, NULL, 0);
}
