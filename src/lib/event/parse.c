/*
 * parse.c — perf's event strings to attrs: comma lists, groups {a,b}:mod,
 * symbolic, cache, raw, numeric, PMU, tracepoint and breakpoint events,
 * modifiers. Terms (pmu/a=b,.../) are in parse_terms.c.
 *
 * A hand-written recursive descent over the string; every failure records
 * the byte where it happened. Events are built in a private list and moved
 * to the caller's only when the whole string parsed, so a failure appends
 * nothing.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "event/parse_ctx.h"
#include "event/parse_int.h"
#include "event/pfm_int.h"
#include "event/pmu_int.h"
#include "perfev/sys.h"
#include "perfev/pmu.h"

#include <linux/hw_breakpoint.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int pv_fail(struct pctx *c, int err, size_t pos, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (c->err && c->err->pos < 0) { /* the first failure is the one to report */
		c->err->pos = (int)PV_MIN(pos, c->len);
		snprintf(c->err->msg, sizeof(c->err->msg), "%s", msg);
	}
	return pv_error(err, "%s (at byte %zu of '%s')", msg, pos, c->s);
}

static bool word_char(char ch)
{
	return isalnum((unsigned char)ch) || strchr("_.-*?[]", ch);
}

static bool at_end_of_event(const struct pctx *c, size_t pos)
{
	char ch = c->s[pos];
	return pos >= c->len || ch == ',' || (ch == '}' && c->in_group);
}

int pv_parse_num(const char *s, size_t n, uint64_t *out)
{
	int base = 10;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2, n -= 2;
	if (!n || n > 20)
		return -EINVAL;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		int d;
		char ch = s[i];
		if (ch >= '0' && ch <= '9')
			d = ch - '0';
		else if (base == 16 && ch >= 'a' && ch <= 'f')
			d = ch - 'a' + 10;
		else if (base == 16 && ch >= 'A' && ch <= 'F')
			d = ch - 'A' + 10;
		else
			return -EINVAL;
		if (v > (UINT64_MAX - d) / base)
			return -ERANGE;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/* ---- the private list and per-event parse state ------------------------- */

struct perfev_evsel *pv_new_event(struct pctx *c, uint32_t type, uint64_t config)
{
	struct perfev_attr a = {0};
	a.type = type;
	a.config = config;
	a.size = PERFEV_ATTR_SIZE_LATEST;
	a.exclude_guest = 1; /* perf's event_attr_init (perf_guest is false) */
	if (pv_grow(&c->st, &c->st_cap, perfev_evlist_count(c->tmp) + 1, sizeof(*c->st)) < 0) {
		pv_fail(c, ENOMEM, c->pos, "out of memory");
		return NULL;
	}
	struct perfev_evsel *e = perfev_evlist_add(c->tmp, &a, "");
	if (!e) {
		pv_fail(c, ENOMEM, c->pos, "out of memory");
		return NULL;
	}
	c->st[perfev_evsel_index(e)] = (struct pv_evstate){0};
	return e;
}

static struct perfev_evsel *ev_at(struct pctx *c, size_t i) { return perfev_evlist_at(c->tmp, i); }

/* ---- modifiers ------------------------------------------------------------ */

#define MODIFIER_CHARS "ukhpPGHSDIWeb"

/*
 * perf 6.1 get_event_modifier()/parse_events__modifier_event(). For an
 * event's own modifiers (add false) the exclusion state starts from zero,
 * which is why cs:k has no exclude_guest; for a group's (add true) it starts
 * from each member's attr.
 */
static int apply_modifiers(struct pctx *c, size_t at, size_t n, size_t first, size_t last, bool add)
{
	const char *m = c->s + at;
	if (n > sizeof("ukhGHpppPSDIWeb") - 1) /* perf's check_modifier() limit */
		return pv_fail(c, EINVAL, at, "too many modifiers: '%.*s'", (int)n, m);
	for (size_t i = 0; i < n; i++)
		if (m[i] != 'p' && memchr(m + i + 1, m[i], n - i - 1))
			return pv_fail(c, EINVAL, at + (size_t)((char *)memchr(m + i + 1, m[i], n - i - 1) - m),
				       "modifier '%c' given twice", m[i]);
	for (size_t idx = first; idx < last; idx++) {
		struct perfev_evsel *e = ev_at(c, idx);
		struct perfev_attr *a = perfev_evsel_attr(e);
		struct pv_evstate *st = &c->st[idx];
		int eu = add ? a->exclude_user : 0, ek = add ? a->exclude_kernel : 0;
		int eh = add ? a->exclude_hv : 0, eH = add ? a->exclude_host : 0;
		int eG = add ? a->exclude_guest : 0, eI = add ? a->exclude_idle : 0;
		int precise = add ? a->precise_ip : 0, pinned = add ? a->pinned : 0;
		int exclusive = add ? a->exclusive : 0;
		int exclude = eu | ek | eh, exclude_GH = add ? st->exclude_gh : 0;
		unsigned flags = 0;
		for (size_t i = 0; i < n; i++) {
			switch (m[i]) {
			case 'u':
				if (!exclude)
					exclude = eu = ek = eh = 1;
				if (!exclude_GH)
					eG = 1;
				eu = 0;
				break;
			case 'k':
				if (!exclude)
					exclude = eu = ek = eh = 1;
				ek = 0;
				break;
			case 'h':
				if (!exclude)
					exclude = eu = ek = eh = 1;
				eh = 0;
				break;
			case 'G':
				if (!exclude_GH)
					exclude_GH = eG = eH = 1;
				eG = 0;
				break;
			case 'H':
				if (!exclude_GH)
					exclude_GH = eG = eH = 1;
				eH = 0;
				break;
			case 'I': eI = 1; break;
			case 'p':
				precise++;
				if (!exclude_GH) /* precise sampling needs exclude_guest */
					eG = 1;
				break;
			case 'P': flags |= PERFEV_EVSEL_PRECISE_MAX; break;
			case 'S': flags |= PERFEV_EVSEL_SAMPLE_READ; break;
			case 'D': pinned = 1; break;
			case 'e': exclusive = 1; break;
			case 'W': flags |= PERFEV_EVSEL_WEAK_GROUP; break;
			case 'b': flags |= PERFEV_EVSEL_BPF_COUNTER; break;
			}
		}
		if (precise > 3)
			return pv_fail(c, EINVAL, at, "at most 3 'p' modifiers (precise_ip 0..3), got %d",
				       precise);
		a->exclude_user = eu;
		a->exclude_kernel = ek;
		a->exclude_hv = eh;
		a->precise_ip = precise;
		a->exclude_host = eH;
		a->exclude_guest = eG;
		a->exclude_idle = eI;
		st->exclude_gh = exclude_GH;
		const unsigned modflags = PERFEV_EVSEL_PRECISE_MAX | PERFEV_EVSEL_SAMPLE_READ |
					  PERFEV_EVSEL_WEAK_GROUP | PERFEV_EVSEL_BPF_COUNTER;
		perfev_evsel_set_flags(e, (perfev_evsel_flags(e) & ~modflags) | flags);
		if (perfev_evsel_is_leader(e)) {
			a->pinned = pinned;
			a->exclusive = exclusive;
		}
	}
	return 0;
}

/* Modifiers at c->pos (after ':' or a PMU's closing '/'), up to the event's end. */
static int parse_modifiers(struct pctx *c, size_t first, size_t last, bool add)
{
	size_t at = c->pos, n = 0;
	while (at + n < c->len && strchr(MODIFIER_CHARS, c->s[at + n]) && c->s[at + n])
		n++;
	if (!n && at_end_of_event(c, at))
		return pv_fail(c, EINVAL, at, "expected modifiers (one or more of u k h H G I p P S D W e b) after ':'");
	if (!at_end_of_event(c, at + n))
		return pv_fail(c, EINVAL, at + n, "'%c' is not a modifier; modifiers are u k h H G I p P S D W e b",
			       c->s[at + n]);
	c->pos = at + n;
	return apply_modifiers(c, at, n, first, last, add);
}

/* ---- one event -------------------------------------------------------------- */

static bool is_raw(const char *w, size_t n)
{
	if (n < 2 || w[0] != 'r')
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isxdigit((unsigned char)w[i]))
			return false;
	return true;
}

static bool is_number(const char *w, size_t n)
{
	uint64_t v;
	return pv_parse_num(w, n, &v) == 0;
}

/* A name perf knows without sysfs: symbolic (2), cache or raw (1); 0 not such, <0 error. */
static int builtin_event(struct pctx *c, const char *w, size_t n, size_t at)
{
	const struct pv_sym *sym = pv_sym_find(w, n);
	if (sym) { /* 2: perf's value_sym, which takes no ':' after its terms */
		struct perfev_evsel *e = pv_new_event(c, sym->type, sym->config);
		if (!e)
			return -ENOMEM;
		perfev_evsel_set_flags(e, sym->flags);
		return 2;
	}
	uint64_t config;
	int r = pv_cache_parse(w, n, &config);
	if (r == 0) {
		struct perfev_evsel *e = pv_new_event(c, PERF_TYPE_HW_CACHE, config);
		if (!e || !(c->st[perfev_evsel_index(e)].base_name = strndup(w, n)))
			return pv_fail(c, ENOMEM, at, "out of memory");
		return 1;
	}
	if (r != -ENOENT)
		return pv_fail(c, -r, at, "%s", perfev_errmsg());
	if (is_raw(w, n)) {
		if (n - 1 > 16)
			return pv_fail(c, ERANGE, at, "raw event '%.*s' is wider than 64 bits", (int)n, w);
		return pv_new_event(c, PERF_TYPE_RAW, strtoull(w + 1, NULL, 16)) ? 1 : -ENOMEM;
	}
	return 0;
}

int pv_ctx_pmus(struct pctx *c)
{
	if (!c->pmus && !(c->pmus = perfev_pmus_load(c->sysfs)))
		return -errno;
	return 0;
}

/* A bare name that is an events/ alias of some PMU (perf looks in all of them). */
static int alias_event(struct pctx *c, const char *w, size_t n, size_t at)
{
	char *name = strndup(w, n);
	if (!name || pv_ctx_pmus(c) < 0) {
		free(name);
		return 0;
	}
	int made = 0;
	for (size_t i = 0; i < perfev_pmus_count(c->pmus); i++) {
		const struct perfev_pmu *p = perfev_pmus_at(c->pmus, i);
		const struct perfev_pmu_alias *al = perfev_pmu_alias_find(p, name);
		if (!al)
			continue;
		int r = pv_pmu_event_alias(c, p, al, at, n);
		if (r < 0) {
			free(name);
			return r;
		}
		made++;
	}
	free(name);
	if (!made)
		made = pv_parse_vendor(c, w, n, at);
	return made;
}

/*
 * Names as perf 6.1 gives them: the event as written (modifiers included),
 * except that tracepoints are "sys:name" and cache events their name
 * without modifiers, and a breakpoint's name stops at its '/'.
 */
static void name_events(struct pctx *c, size_t first, size_t start)
{
	size_t last = perfev_evlist_count(c->tmp), end = c->pos;
	const char *slash = memchr(c->s + start, '/', end - start);
	if (slash && end - start > 4 && !memcmp(c->s + start, "mem:", 4))
		end = (size_t)(slash - c->s);
	for (size_t i = first; i < last; i++) {
		struct perfev_evsel *e = ev_at(c, i);
		if (c->st[i].named)
			continue;
		char *n = c->st[i].base_name ? strdup(c->st[i].base_name) : strndup(c->s + start, end - start);
		if (n)
			perfev_evsel_set_name(e, n);
		free(n);
	}
}

static int parse_mem(struct pctx *c, size_t start)
{
	const char *s = c->s;
	size_t at = c->pos;
	while (at < c->len && (isxdigit((unsigned char)s[at]) || s[at] == 'x' || s[at] == 'X'))
		at++;
	uint64_t addr, len = 0;
	if (pv_parse_num(s + c->pos, at - c->pos, &addr) < 0)
		return pv_fail(c, EINVAL, c->pos, "expected an address (0x1234 or decimal) after 'mem:'");
	c->pos = at;
	if (s[c->pos] == '/') {
		at = ++c->pos;
		while (at < c->len && (isxdigit((unsigned char)s[at]) || s[at] == 'x'))
			at++;
		if (pv_parse_num(s + c->pos, at - c->pos, &len) < 0)
			return pv_fail(c, EINVAL, c->pos, "expected a length (1, 2, 4 or 8) after '/'");
		c->pos = at;
	}
	uint32_t bp = 0;
	if (s[c->pos] == ':') {
		at = c->pos + 1;
		while (at < c->len && strchr("rwx", s[at]) && s[at])
			at++;
		if (at > c->pos + 1 && at - c->pos - 1 <= 3 && (at_end_of_event(c, at) || s[at] == ':')) {
			for (size_t i = c->pos + 1; i < at; i++) {
				uint32_t bit = s[i] == 'r' ? HW_BREAKPOINT_R : s[i] == 'w' ? HW_BREAKPOINT_W
											   : HW_BREAKPOINT_X;
				if (bp & bit)
					return pv_fail(c, EINVAL, i, "access type '%c' given twice", s[i]);
				bp |= bit;
			}
			c->pos = at;
		}
	}
	if (!bp)
		bp = HW_BREAKPOINT_R | HW_BREAKPOINT_W;
	if (!len)
		len = bp == HW_BREAKPOINT_X ? sizeof(long) : HW_BREAKPOINT_LEN_4;
	struct perfev_evsel *e = pv_new_event(c, PERF_TYPE_BREAKPOINT, 0);
	if (!e)
		return -ENOMEM;
	struct perfev_attr *a = perfev_evsel_attr(e);
	a->bp_type = bp;
	a->bp_addr = addr;
	a->bp_len = len;
	a->sample_period = 1; /* as perf's parser: a sample per hit (perf stat clears it) */
	(void)start;
	return 0;
}

struct tp_walk {
	struct pctx *c;
	int err;
};

static int tp_add(void *arg, const char *sys, const char *name, int id)
{
	struct tp_walk *w = arg;
	struct perfev_evsel *e = pv_new_event(w->c, PERF_TYPE_TRACEPOINT, (uint64_t)id);
	if (!e)
		return w->err = -ENOMEM;
	perfev_evsel_attr(e)->sample_period = 1; /* as perf's parser (perf stat clears it) */
	struct pv_evstate *st = &w->c->st[perfev_evsel_index(e)];
	if (asprintf(&st->base_name, "%s:%s", sys, name) < 0) {
		st->base_name = NULL;
		return w->err = -ENOMEM;
	}
	return 0;
}

static bool has_glob(const char *s) { return strpbrk(s, "*?[") != NULL; }

static int parse_tracepoint(struct pctx *c, const char *sys, size_t nsys, size_t start)
{
	size_t at = ++c->pos; /* past ':' */
	while (at < c->len && word_char(c->s[at]))
		at++;
	if (at == c->pos)
		return pv_fail(c, EINVAL, c->pos, "expected a tracepoint name after '%.*s:'", (int)nsys, sys);
	char *s = strndup(sys, nsys), *n = strndup(c->s + c->pos, at - c->pos);
	int r = 0;
	if (!s || !n) {
		r = pv_fail(c, ENOMEM, start, "out of memory");
	} else if (!c->tracefs && !(c->tracefs = perfev_tracefs_events_dir())) {
		r = pv_fail(c, errno, start, "'%s:%s' looks like a tracepoint, but %s", s, n, perfev_errmsg());
	} else if (has_glob(s) || has_glob(n)) {
		struct tp_walk w = {c, 0};
		int found = perfev_tracepoints_foreach(c->tracefs, s, n, tp_add, &w);
		if (w.err)
			r = pv_fail(c, -w.err, start, "out of memory");
		else if (found < 0)
			r = pv_fail(c, -found, start, "%s", perfev_errmsg());
		else if (found == 0)
			r = pv_fail(c, ENOENT, start, "no tracepoint matches '%s:%s'; 'perfev list tracepoint' "
				    "shows those available", s, n);
	} else {
		int id = perfev_tracepoint_id(c->tracefs, s, n);
		if (id < 0)
			r = pv_fail(c, -id, start, "%s", perfev_errmsg());
		else if (tp_add(&(struct tp_walk){c, 0}, s, n, id) < 0)
			r = -ENOMEM;
	}
	free(s);
	free(n);
	c->pos = at;
	return r;
}

/*
 * After the event proper: optional /terms/ (not for PMU events, which have
 * theirs already), then modifiers after ':' (or right after the terms'
 * '/'), then the event's end.
 */
static int event_tail(struct pctx *c, size_t first, size_t start, bool terms_ok, bool after_slash,
		      bool colon_after_slash)
{
	int r;
	const struct perfev_pmu *pmu = c->tail_pmu; /* a vendor event's: its format terms apply */
	c->tail_pmu = NULL;
	if (terms_ok && c->s[c->pos] == '/') {
		if ((r = pv_parse_event_terms(c, pmu, first)) < 0)
			return r;
		after_slash = true;
	}
	size_t last = perfev_evlist_count(c->tmp);
	if (c->s[c->pos] == ':' && !after_slash) {
		c->pos++;
		if ((r = parse_modifiers(c, first, last, false)) < 0)
			return r;
	} else if (after_slash && c->s[c->pos] == ':' && colon_after_slash) {
		/* perf's grammar takes r1a8/name=x/:u, but not cycles/name=x/:u or cpu/x/:u */
		c->pos++;
		if ((r = parse_modifiers(c, first, last, false)) < 0)
			return r;
	} else if (after_slash && !at_end_of_event(c, c->pos)) {
		/* perf takes modifiers right after the terms' '/' too (cpu/x/u) */
		if ((r = parse_modifiers(c, first, last, false)) < 0)
			return r;
	}
	if (!at_end_of_event(c, c->pos))
		return pv_fail(c, EINVAL, c->pos, "unexpected '%c' after the event; events are "
			       "separated by ','", c->s[c->pos]);
	name_events(c, first, start);
	return 0;
}

static int parse_event(struct pctx *c)
{
	const char *s = c->s;
	size_t start = c->pos, first = perfev_evlist_count(c->tmp);
	while (c->pos < c->len && word_char(s[c->pos]))
		c->pos++;
	size_t n = c->pos - start;
	const char *w = s + start;
	if (!n) {
		if (c->pos >= c->len || s[c->pos] == ',' || s[c->pos] == '}')
			return pv_fail(c, EINVAL, c->pos, "expected an event here");
		return pv_fail(c, EINVAL, c->pos, "'%c' cannot start an event name", s[c->pos]);
	}
	char next = s[c->pos];
	int r;
	if (n == 1 && (w[0] == 'u' || w[0] == 'k') && next == ':') {
		if ((r = pv_parse_probe(c, start)) < 0)
			return r;
		return event_tail(c, first, start, false, false, false);
	}
	if (n == 3 && !memcmp(w, "mem", 3) && next == ':') {
		c->pos++;
		if ((r = parse_mem(c, start)) < 0)
			return r;
		return event_tail(c, first, start, false, false, false);
	}
	if (next == ':') {
		/* name:MODS, else TYPE:CONFIG, else a tracepoint SYS:NAME */
		size_t j = c->pos + 1;
		while (j < c->len && s[j] && strchr(MODIFIER_CHARS, s[j]))
			j++;
		bool mods = j > c->pos + 1 && at_end_of_event(c, j);
		uint64_t cfg;
		/* after a name perf knows, ':' can only start modifiers */
		if (pv_sym_find(w, n) || pv_cache_parse(w, n, &cfg) != -ENOENT || is_raw(w, n))
			mods = true;
		if (!mods && is_number(w, n)) {
			size_t k = ++c->pos;
			while (k < c->len && isalnum((unsigned char)s[k]))
				k++;
			uint64_t type, config;
			pv_parse_num(w, n, &type);
			if (pv_parse_num(s + c->pos, k - c->pos, &config) < 0)
				return pv_fail(c, EINVAL, c->pos, "expected a config number after '%.*s:'", (int)n, w);
			if (type > UINT32_MAX)
				return pv_fail(c, ERANGE, start, "event type %.*s does not fit 32 bits", (int)n, w);
			c->pos = k;
			if (!pv_new_event(c, (uint32_t)type, config))
				return -ENOMEM;
			return event_tail(c, first, start, true, false, true);
		}
		if (!mods) {
			/* libpfm4's syntax as libpfm4 and PAPI write it, in capitals
			 * (EVENT:UMASK:mod=val), or TABLE::EVENT:UMASK; a lower-case
			 * sys:name is a tracepoint, without asking libpfm4 */
			size_t end = c->pos;
			while (end < c->len && (isalnum((unsigned char)s[end]) || strchr("_.:=", s[end])))
				end++;
			bool caps = false;
			for (size_t k = 0; k < n; k++)
				caps |= isupper((unsigned char)w[k]);
			r = caps || s[c->pos + 1] == ':' ? pv_parse_vendor(c, w, end - start, start) : 0;
			if (r < 0)
				return r;
			if (r > 0) {
				c->pos = end;
				return event_tail(c, first, start, false, false, false);
			}
			if ((r = parse_tracepoint(c, w, n, start)) < 0)
				return r;
			return event_tail(c, first, start, true, false, true);
		}
	}
	if ((r = builtin_event(c, w, n, start)) < 0)
		return r;
	if (r > 0)
		return event_tail(c, first, start, true, false, r == 1);
	if (next == '/' && n < 256) {
		/* inst_retired.any_p/cmask=1/: a vendor event with terms, unless a PMU has the name */
		char pmu[256];
		snprintf(pmu, sizeof(pmu), "%.*s", (int)n, w);
		if (!pv_pmu_exists(c->sysfs, pmu) && (r = pv_parse_vendor(c, w, n, start)) != 0) {
			if (r < 0)
				return r;
			return event_tail(c, first, start, true, false, false);
		}
	}
	if (next == '/') {
		if ((r = pv_parse_pmu_event(c, w, n, start)) < 0)
			return r;
		return event_tail(c, first, start, false, true, false);
	}
	if ((r = alias_event(c, w, n, start)) < 0)
		return r;
	if (r > 0)
		return event_tail(c, first, start, true, false, false);
	char sug[64], hint[300] = "";
	if (memchr(w, '.', n) || memchr(w, '_', n)) /* looks like a vendor event's name */
		pv_vendor_unknown_hint(w, hint, sizeof(hint));
	if (pv_suggest(w, n, sug, sizeof(sug)))
		return pv_fail(c, ENOENT, start, "unknown event '%.*s'; did you mean '%s'? ('perfev list' "
			       "shows the events here)%s", (int)n, w, sug, hint);
	return pv_fail(c, ENOENT, start, "unknown event '%.*s'; 'perfev list' shows the events here%s",
		       (int)n, w, hint);
}

/* ---- lists and groups ----------------------------------------------------------- */

static int parse_list(struct pctx *c);

/* A group at c->pos: '{' or perf's NAME'{' (which names the group). */
static int parse_group(struct pctx *c)
{
	size_t name_at = c->pos;
	while (c->s[c->pos] != '{')
		c->pos++;
	size_t open = c->pos, first = perfev_evlist_count(c->tmp);
	if (c->in_group)
		return pv_fail(c, EINVAL, open, "groups cannot be nested");
	c->pos++;
	c->in_group = true;
	int r = parse_list(c);
	c->in_group = false;
	if (r < 0)
		return r;
	if (c->s[c->pos] != '}')
		return pv_fail(c, EINVAL, c->pos, "missing '}' to close the group opened at byte %zu", open);
	c->pos++;
	size_t last = perfev_evlist_count(c->tmp);
	struct perfev_evsel *leader = ev_at(c, first);
	if (open > name_at) {
		char *gname = strndup(c->s + name_at, open - name_at);
		if (!gname || perfev_evsel_set_group_name(leader, gname) < 0) {
			free(gname);
			return pv_fail(c, ENOMEM, name_at, "out of memory");
		}
		free(gname);
	}
	for (size_t i = first + 1; i < last; i++)
		if ((r = perfev_evsel_set_leader(ev_at(c, i), leader)) < 0)
			return pv_fail(c, -r, open, "%s", perfev_errmsg());
	if (c->s[c->pos] == ':') {
		c->pos++;
		if ((r = parse_modifiers(c, first, last, true)) < 0)
			return r;
	}
	if (c->pos < c->len && c->s[c->pos] != ',')
		return pv_fail(c, EINVAL, c->pos, "unexpected '%c' after the group; modifiers follow a ':'",
			       c->s[c->pos]);
	return 0;
}

static int parse_list(struct pctx *c)
{
	for (;;) {
		size_t w = c->pos;
		while (w < c->len && (isalnum((unsigned char)c->s[w]) || c->s[w] == '_' || c->s[w] == '-' ||
				      c->s[w] == '.'))
			w++;
		int r = c->s[w] == '{' ? parse_group(c) : parse_event(c);
		if (r < 0)
			return r;
		if (c->s[c->pos] != ',')
			return 0;
		c->pos++;
	}
}

/* Moves the parsed events to the caller's list, keeping groups. */
static int move_events(struct pctx *c, struct perfev_evlist *list)
{
	size_t base = perfev_evlist_count(list), n = perfev_evlist_count(c->tmp);
	for (size_t i = 0; i < n; i++) {
		struct perfev_evsel *t = ev_at(c, i);
		struct perfev_evsel *e = perfev_evlist_add(list, perfev_evsel_attr(t), perfev_evsel_name(t));
		if (!e || perfev_evsel_set_pmu_name(e, perfev_evsel_pmu_name(t)) < 0 ||
		    perfev_evsel_set_scale_unit(e, perfev_evsel_scale(t), perfev_evsel_unit(t)) < 0 ||
		    perfev_evsel_set_filter(e, perfev_evsel_filter(t)) < 0)
			return -ENOMEM;
		perfev_evsel_set_flags(e, perfev_evsel_flags(t));
		perfev_evsel_set_max_events(e, perfev_evsel_max_events(t));
		if (perfev_evsel_group_name(t) && perfev_evsel_set_group_name(e, perfev_evsel_group_name(t)) < 0)
			return -ENOMEM;
		if (!perfev_evsel_is_leader(t)) {
			size_t li = perfev_evsel_index(perfev_evsel_leader(t));
			perfev_evsel_set_leader(e, perfev_evlist_at(list, base + li));
		}
	}
	return 0;
}

PERFEV_API int perfev_evlist_parse_opts(struct perfev_evlist *list, const char *events,
					const struct perfev_parse_opts *opts,
					struct perfev_parse_error *err)
{
	struct perfev_parse_error dummy;
	struct pctx c = {.s = events ? events : "", .err = err ? err : &dummy};
	c.len = strlen(c.s);
	c.err->pos = -1;
	c.err->msg[0] = 0;
	if (!PV_OPTS_VALID(opts, perfev_parse_opts)) {
		snprintf(c.err->msg, sizeof(c.err->msg), "%s", perfev_errmsg());
		return -EINVAL;
	}
	c.sysfs = PV_OPTS_GET(opts, sysfs_root, NULL);
	c.tracefs = PV_OPTS_GET(opts, tracefs_events, NULL);
	if (!list)
		return pv_fail(&c, EINVAL, 0, "no event list to add to");
	if (!(c.tmp = perfev_evlist_new()))
		return -ENOMEM;
	int r;
	if (!c.len)
		r = pv_fail(&c, EINVAL, 0, "no event given; 'perfev list' shows the events here");
	else if ((r = parse_list(&c)) == 0 && c.pos < c.len)
		r = pv_fail(&c, EINVAL, c.pos, c.s[c.pos] == '}' ? "'}' closes no group"
				: "unexpected '%c'", c.s[c.pos]);
	if (r == 0 && move_events(&c, list) < 0)
		r = pv_fail(&c, ENOMEM, 0, "out of memory");
	size_t n = perfev_evlist_count(c.tmp);
	for (size_t i = 0; i < n; i++)
		free(c.st[i].base_name);
	free(c.st);
	perfev_evlist_free(c.tmp);
	perfev_pmus_free(c.pmus);
	for (size_t i = 0; i < PV_ARRAY_SIZE(c.vendor_pmus); i++)
		pv_pmu_free(c.vendor_pmus[i]);
	if (r < 0) {
		/* perfev_errmsg() keeps the message of the failure itself */
		int e = -r;
		if (c.err->pos < 0)
			pv_fail(&c, e, 0, "%s", perfev_errmsg());
		pv_error(e, "%s (at byte %d of '%s')", c.err->msg, c.err->pos, c.s);
		return -e;
	}
	return 0;
}

PERFEV_API int perfev_evlist_parse(struct perfev_evlist *list, const char *events,
				   struct perfev_parse_error *err)
{
	return perfev_evlist_parse_opts(list, events, NULL, err);
}

PERFEV_API int perfev_parse_error_format(const struct perfev_parse_error *err, const char *events,
					 char *buf, size_t len)
{
	if (!err)
		return snprintf(buf, len, "event syntax error");
	if (!events)
		events = "";
	int pos = err->pos;
	if (pos < 0)
		return snprintf(buf, len, "event syntax error: '%s'\n  %s", events, err->msg);
	if ((size_t)pos > strlen(events))
		pos = (int)strlen(events);
	/* the caret sits under the character: after "event syntax error: '" */
	const int lead = (int)strlen("event syntax error: '");
	return snprintf(buf, len, "event syntax error: '%s'\n%*s\\___ %s", events, lead + pos, "",
			err->msg);
}
