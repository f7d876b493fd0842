/*
 * diff.c — perf diff (perfev/diff.h): each file's report table (the
 * profile's flat entries under the report's sort keys), rows matched across
 * files by the keys' names as the report prints them (an object's base
 * name, a symbol's name: addresses play no part unless a symbol is
 * unknown), perf diff's computations, its order and its --stdio layout
 * (builtin-diff.c). The JSON form and the event checks are in diff_json.c.
 */
#define _GNU_SOURCE
#include "view/diff_int.h"
#include "core/opts.h"
#include "export/export_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const compute_names[] = {[PV_DIFF_DELTA] = "Delta", [PV_DIFF_DELTA_ABS] = "Delta Abs",
					     [PV_DIFF_RATIO] = "Ratio", [PV_DIFF_WDIFF] = "Weighted diff"};
static const int compute_widths[] = {[PV_DIFF_DELTA] = 7, [PV_DIFF_DELTA_ABS] = 7, [PV_DIFF_RATIO] = 14,
				     [PV_DIFF_WDIFF] = 14};

/* perf's -c: delta, delta-abs, ratio, wdiff:W1,W2 */
static int parse_compute(const char *s, struct pv_diff *d)
{
	d->compute = PV_DIFF_DELTA_ABS;
	if (!s)
		return 0;
	if (!strcmp(s, "delta"))
		d->compute = PV_DIFF_DELTA;
	else if (!strcmp(s, "delta-abs"))
		d->compute = PV_DIFF_DELTA_ABS;
	else if (!strcmp(s, "ratio"))
		d->compute = PV_DIFF_RATIO;
	else if (!strncmp(s, "wdiff", 5) && (s[5] == ':' || !s[5])) {
		d->compute = PV_DIFF_WDIFF;
		char *end;
		const char *w = s[5] ? s + 6 : "";
		errno = 0;
		d->w1 = strtoll(w, &end, 10);
		bool ok = end != w && *end == ',' && !errno;
		const char *w2 = ok ? end + 1 : "";
		d->w2 = ok ? strtoll(w2, &end, 10) : 0;
		ok = ok && end != w2 && !*end && !errno && d->w1 && d->w2;
		if (!ok)
			return pv_error(EINVAL, "-c %s: wrong weights, use wdiff:W1,W2 with nonzero integers "
					"(e.g. wdiff:1,2)", s);
	} else {
		return pv_error(EINVAL, "-c %s: not a computation; use delta, delta-abs, ratio or wdiff:W1,W2", s);
	}
	return 0;
}

int pv_diff_setup(struct pv_diff *d, const struct perfev_diff_opts *o0, size_t nr_files)
{
	memset(d, 0, sizeof(*d));
	if (!PV_OPTS_VALID(o0, perfev_diff_opts))
		return -EINVAL;
	PV_OPTS_COPY(d->o, o0);
	int err = parse_compute(d->o.compute, d);
	if (err < 0)
		return err;
	if (pv_report_parse_sort(&d->v, d->o.sort ? d->o.sort : "dso,sym") < 0)
		return -EINVAL;
	d->v.value = PERFEV_VALUE_PERIOD; /* perf diff: shares of the periods */
	/* perf's elision: a filter on one comm/dso/symbol drops its column */
	const struct perfev_profile_filter *flt = d->o.load ? PV_OPTS_GET(d->o.load, filter, NULL) : NULL;
	if (flt) {
		d->v.only_comm = PV_OPTS_GET(flt, comm, NULL);
		d->v.only_dso = PV_OPTS_GET(flt, dso, NULL);
		d->v.only_sym = PV_OPTS_GET(flt, symbol, NULL);
	}
	d->order = d->o.order_given ? d->o.order : 1;
	if (nr_files && d->order >= nr_files)
		return pv_error(EINVAL, "-o %u: there are %zu files (0 the baseline): give -o 0..%zu", d->order,
				nr_files, nr_files - 1);
	return 0;
}

PERFEV_API int perfev_diff_check(const struct perfev_diff_opts *o)
{
	struct pv_diff d;
	return pv_diff_setup(&d, o, 0);
}

/* ---- rows ---------------------------------------------------------------------- */
/* A row's identity: its keys' text, as the report prints them. */
static char *row_name(const struct pv_diff *d, const struct perfev_profile_entry *e)
{
	struct pv_buf b = PV_BUF_INIT;
	char buf[4096];
	for (size_t k = 0; k < d->v.nr_keys; k++) {
		pv_report_column(e, d->v.keys[k], buf, sizeof(buf));
		pv_buf_printf(&b, "%s\x1f", buf);
	}
	if (b.oom) {
		pv_buf_free(&b);
		return NULL;
	}
	return b.data ? b.data : strdup("");
}

static int add_entry(struct pv_diff *d, struct pv_keymap *map, size_t f, const struct perfev_profile_entry *e)
{
	char *name = row_name(d, e);
	if (!name)
		return -ENOMEM;
	uint64_t h = pv_hash_bytes(name, strlen(name));
	uint32_t at = pv_keymap_get(map, h);
	/* (a collision of two names: probe on) */
	while (at && strcmp(d->rows[at - 1].name, name))
		at = pv_keymap_get(map, ++h);
	if (!at) {
		if (pv_grow(&d->rows, &d->cap, d->nr + 1, sizeof(*d->rows)) < 0 ||
		    pv_keymap_put(map, h, (uint32_t)d->nr + 1) < 0) {
			free(name);
			return -ENOMEM;
		}
		struct pv_diff_row *r = &d->rows[d->nr];
		memset(r, 0, sizeof(*r));
		r->name = name;
		r->e = e;
		r->index = d->nr;
		at = (uint32_t)++d->nr;
	} else {
		free(name);
	}
	struct pv_diff_row *r = &d->rows[at - 1];
	r->present |= 1ull << f;
	r->period[f] += e->self[PERFEV_VALUE_PERIOD];
	return 0;
}

/* perf's computation of file f's value of row r against the baseline */
static void compute_row(const struct pv_diff *d, struct pv_diff_row *r, size_t f)
{
	double old_pct = pv_report_pct(r->period[0], d->total[0]);
	double new_pct = pv_report_pct(r->period[f], d->total[f]);
	r->delta[f] = new_pct - old_pct;
	r->ratio[f] = (double)r->period[f] / (double)(r->period[0] ? r->period[0] : 1);
	r->wdiff[f] = (int64_t)r->period[f] * d->w2 - (int64_t)r->period[0] * d->w1;
}

int pv_diff_build(struct pv_diff *d, const struct perfev_profile *const *p, size_t nr)
{
	struct pv_keymap map = {0};
	int ret = 0;
	d->nr_files = nr;
	for (size_t f = 0; f < nr; f++) {
		d->total[f] = p[f] ? perfev_profile_total(p[f], PERFEV_VALUE_PERIOD) +
					     (d->o.relative ? 0 : perfev_profile_hidden(p[f], PERFEV_VALUE_PERIOD))
				   : 0;
		if (p[f] && perfev_profile_flat(p[f], d->v.key_mask, PERFEV_VALUE_PERIOD, false, 0, &d->e[f],
						&d->ne[f]) < 0) {
			ret = -errno;
			goto out;
		}
		for (size_t i = 0; i < d->ne[f]; i++)
			if ((ret = add_entry(d, &map, f, &d->e[f][i])) < 0) {
				pv_error(ENOMEM, "out of memory matching the files' entries");
				goto out;
			}
	}
	for (size_t r = 0; r < d->nr; r++)
		for (size_t f = 1; f < nr; f++)
			compute_row(d, &d->rows[r], f);
out:
	pv_keymap_free(&map);
	return ret;
}

void pv_diff_free(struct pv_diff *d)
{
	for (size_t r = 0; r < d->nr; r++)
		free(d->rows[r].name);
	free(d->rows);
	for (size_t f = 0; f < PV_DIFF_MAX_FILES; f++)
		free(d->e[f]);
	d->rows = NULL;
	d->nr = d->cap = 0;
	memset(d->e, 0, sizeof(d->e));
	memset(d->ne, 0, sizeof(d->ne));
}

/* ---- perf diff's order (its hists__output_resort with the diff columns) ------- */
static bool has(const struct pv_diff_row *r, size_t f)
{
	return r->present >> f & 1;
}

static int cmp_doubles(double l, double r)
{
	return l > r ? -1 : l < r;
}

/* a before b (<0) when a's value is the greater: perf's __hist_entry__cmp_compute */
static int cmp_value(const struct pv_diff *d, const struct pv_diff_row *a, const struct pv_diff_row *b, size_t f)
{
	switch (d->compute) {
	case PV_DIFF_DELTA:
		return cmp_doubles(a->delta[f], b->delta[f]);
	case PV_DIFF_DELTA_ABS:
		return cmp_doubles(fabs(a->delta[f]), fabs(b->delta[f]));
	case PV_DIFF_RATIO:
		return cmp_doubles(a->ratio[f], b->ratio[f]);
	case PV_DIFF_WDIFF:
		return (a->wdiff[f] < b->wdiff[f]) - (a->wdiff[f] > b->wdiff[f]);
	}
	return 0;
}

/* perf's -o column: rows file f has first; rows the baseline lacks last
 * (but for deltas, which need no baseline); then the value */
static int cmp_order(const struct pv_diff *d, const struct pv_diff_row *a, const struct pv_diff_row *b, size_t f)
{
	if (has(a, f) != has(b, f))
		return has(b, f) - has(a, f);
	if (!has(a, f))
		return 0;
	if (d->compute != PV_DIFF_DELTA && d->compute != PV_DIFF_DELTA_ABS && has(a, 0) != has(b, 0))
		return has(b, 0) - has(a, 0);
	return cmp_value(d, a, b, f);
}

/* a file's column: rows with a pair in any newer file first, then those
 * with one in this file, then the value */
static int cmp_column(const struct pv_diff *d, const struct pv_diff_row *a, const struct pv_diff_row *b, size_t f)
{
	bool pa = a->present >> 1 != 0, pb = b->present >> 1 != 0;
	if (pa != pb)
		return pb - pa;
	if (!pa)
		return 0;
	if (has(a, f) != has(b, f))
		return has(b, f) - has(a, f);
	return has(a, f) ? cmp_value(d, a, b, f) : 0;
}

static int cmp_row(const void *pa, const void *pb, void *arg)
{
	const struct pv_diff *d = arg;
	const struct pv_diff_row *a = pa, *b = pb;
	int c = 0;
	if (d->order)
		c = cmp_order(d, a, b, d->order);
	if (!c) /* the baseline's share, greatest first */
		c = (a->period[0] < b->period[0]) - (a->period[0] > b->period[0]);
	for (size_t f = 1; f < d->nr_files && !c; f++)
		c = cmp_column(d, a, b, f);
	for (size_t k = 0; k < d->v.nr_keys && !c; k++)
		c = pv_report_cmp_key(a->e, b->e, d->v.keys[k]);
	if (!c) /* perf's output tree keeps full ties in the order they came */
		c = (a->index > b->index) - (a->index < b->index);
	return c;
}

void pv_diff_sort(struct pv_diff *d)
{
	if (d->nr > 1)
		qsort_r(d->rows, d->nr, sizeof(*d->rows), cmp_row, d);
}

/* ---- perf diff --stdio ----------------------------------------------------------- */
/* The text of file f's column of row r (f 0: the baseline), unpadded. */
void pv_diff_cell(const struct pv_diff *d, const struct pv_diff_row *r, size_t f, char *buf, size_t len)
{
	buf[0] = 0;
	if (f == 0) {
		if (has(r, 0))
			snprintf(buf, len, "%6.2f%%", pv_report_pct(r->period[0], d->total[0]));
		return;
	}
	if (!has(r, f))
		return;
	switch (d->compute) {
	case PV_DIFF_DELTA:
	case PV_DIFF_DELTA_ABS:
		snprintf(buf, len, "%+4.2f%%", r->delta[f]);
		break;
	case PV_DIFF_RATIO: /* (no point without the baseline) */
		if (!has(r, 0))
			snprintf(buf, len, "N/A");
		else if (r->ratio[f] > 0.0)
			snprintf(buf, len, "%14.6f", r->ratio[f]);
		break;
	case PV_DIFF_WDIFF:
		if (!has(r, 0))
			snprintf(buf, len, "N/A");
		else
			snprintf(buf, len, "%14lld", (long long)r->wdiff[f]);
		break;
	}
}

/* perf's headers: "Baseline", the computation's name ("/N" after each
 * with more than two files), at least the column's width */
static void header_of(const struct pv_diff *d, size_t f, char *buf, size_t len, int *width)
{
	const char *name = f ? compute_names[d->compute] : "Baseline";
	if (d->nr_files > 2)
		snprintf(buf, len, "%s/%zu", name, f);
	else
		snprintf(buf, len, "%s", name);
	int w = f ? compute_widths[d->compute] : 0;
	*width = PV_MAX(w, (int)strlen(buf));
}

/* Whether key k's column is left out (perf's elision of a filtered key,
 * unless it would leave none) */
static bool key_hidden(const struct pv_diff *d, size_t k)
{
	if (!pv_report_elided(&d->v, d->v.keys[k]))
		return false;
	for (size_t i = 0; i < d->v.nr_keys; i++)
		if (!pv_report_elided(&d->v, d->v.keys[i]))
			return true;
	return false;
}

static void print_header(const struct pv_diff *d, const size_t *kw, FILE *out)
{
	struct pv_buf h = PV_BUF_INIT, dots = PV_BUF_INIT;
	char name[64];
	int w;
	pv_buf_puts(&h, "# ");
	pv_buf_puts(&dots, "# ");
	for (size_t f = 0; f < d->nr_files; f++) {
		header_of(d, f, name, sizeof(name), &w);
		pv_buf_printf(&h, "%s%*s", f ? "  " : "", w, name);
		pv_buf_printf(&dots, "%s%.*s", f ? "  " : "", w,
			      "........................................................................");
	}
	for (size_t k = 0; k < d->v.nr_keys; k++) {
		if (key_hidden(d, k))
			continue;
		pv_buf_printf(&h, "  %-*s", (int)kw[k], pv_report_header_of(d->v.keys[k]));
		pv_buf_puts(&dots, "  ");
		for (size_t i = 0; i < kw[k]; i++)
			pv_buf_putc(&dots, '.');
	}
	fprintf(out, "%s\n%s\n#\n", h.data ? h.data : "", dots.data ? dots.data : "");
	pv_buf_free(&h);
	pv_buf_free(&dots);
}

static void print_row(const struct pv_diff *d, const struct pv_diff_row *r, const size_t *kw, FILE *out)
{
	struct pv_buf line = PV_BUF_INIT;
	char cell[128], name[64], key[4096];
	int w;
	pv_buf_puts(&line, "  ");
	for (size_t f = 0; f < d->nr_files; f++) {
		header_of(d, f, name, sizeof(name), &w);
		pv_diff_cell(d, r, f, cell, sizeof(cell));
		/* perf prints a weighted diff "%14ld" and pads it on the right to
		 * its header's width (hist_entry__snprintf_alignment) */
		bool raw = f && d->compute == PV_DIFF_WDIFF && has(r, 0) && has(r, f);
		pv_buf_printf(&line, raw ? "%s%-*s" : "%s%*s", f ? "  " : "", w, cell);
	}
	size_t last = 0;
	for (size_t k = 0; k < d->v.nr_keys; k++)
		if (!key_hidden(d, k))
			last = k;
	for (size_t k = 0; k < d->v.nr_keys; k++) {
		if (key_hidden(d, k))
			continue;
		pv_report_column(r->e, d->v.keys[k], key, sizeof(key));
		/* perf pads every column but a last symbol or srcline */
		bool pad = k != last || !pv_report_unpadded(d->v.keys[k]);
		pv_buf_printf(&line, "  %-*s", pad ? (int)kw[k] : 0, key);
	}
	fprintf(out, "%s\n", line.data ? line.data : "");
	pv_buf_free(&line);
}

int pv_diff_print_stdio(const struct pv_diff *d, FILE *out)
{
	size_t kw[PV_REPORT_MAX_KEYS];
	for (size_t k = 0; k < d->v.nr_keys; k++) {
		kw[k] = strlen(pv_report_header_of(d->v.keys[k]));
		for (size_t r = 0; r < d->nr; r++)
			kw[k] = PV_MAX(kw[k], pv_report_entry_width(&d->v, d->v.keys[k], d->rows[r].e));
	}
	print_header(d, kw, out);
	for (size_t r = 0; r < d->nr; r++)
		print_row(d, &d->rows[r], kw, out);
	return 0;
}
