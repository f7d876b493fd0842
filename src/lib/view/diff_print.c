/*
 * diff_print.c — perfev_diff_print: each file read once (every event in
 * one pass), the baseline's events in order, each matched in the other
 * files by type and config as perf diff matches them, printed as perf diff
 * --stdio prints them (diff.c) or as JSON; and the warnings when the
 * recordings are not alike (other events, other sampling rates).
 */
#define _GNU_SOURCE
#include "view/diff_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *compute_name(const struct pv_diff *d)
{
	static const char *const n[] = {[PV_DIFF_DELTA] = "delta", [PV_DIFF_DELTA_ABS] = "delta-abs",
					[PV_DIFF_RATIO] = "ratio", [PV_DIFF_WDIFF] = "wdiff"};
	return n[d->compute];
}

/* "sampled at 4000 Hz" / "every 100000 events" */
static void rate(const struct perfev_attr *a, char *buf, size_t len)
{
	if (a->freq)
		snprintf(buf, len, "sampled at %llu Hz", (unsigned long long)a->sample_freq);
	else
		snprintf(buf, len, "sampled every %llu events", (unsigned long long)a->sample_period);
}

PERFEV_API int perfev_diff_compare_events(const struct perfev_perfdata *a, const struct perfev_perfdata *b)
{
	int differ = 0;
	size_t na = perfev_perfdata_nr_events(a), nb = perfev_perfdata_nr_events(b);
	for (size_t i = 0; i < na; i++) {
		const struct perfev_attr *x = perfev_perfdata_event_attr(a, i);
		const char *name = perfev_perfdata_event_name(a, i);
		const struct perfev_attr *y = NULL;
		for (size_t j = 0; j < nb && !y; j++) {
			const struct perfev_attr *c = perfev_perfdata_event_attr(b, j);
			if (c && x && c->type == x->type && c->config == x->config)
				y = c;
		}
		if (!x)
			continue;
		if (!y) {
			pv_warn("%s recorded event '%s', %s did not: its rows compare with nothing",
				perfev_perfdata_path(a), name ? name : "?", perfev_perfdata_path(b));
			differ = 1;
			continue;
		}
		char ra[64], rb[64];
		rate(x, ra, sizeof(ra));
		rate(y, rb, sizeof(rb));
		if (strcmp(ra, rb)) {
			pv_warn("event '%s' was %s in %s but %s in %s: the shares compare, periods and ratios "
				"less so", name ? name : "?", ra, perfev_perfdata_path(a), rb, perfev_perfdata_path(b));
			differ = 1;
		}
	}
	for (size_t j = 0; j < nb; j++) {
		const struct perfev_attr *y = perfev_perfdata_event_attr(b, j);
		bool found = false;
		for (size_t i = 0; i < na && y && !found; i++) {
			const struct perfev_attr *x = perfev_perfdata_event_attr(a, i);
			found = x && x->type == y->type && x->config == y->config;
		}
		if (y && !found) {
			const char *name = perfev_perfdata_event_name(b, j);
			pv_warn("%s recorded event '%s', the baseline %s did not: it is not shown",
				perfev_perfdata_path(b), name ? name : "?", perfev_perfdata_path(a));
			differ = 1;
		}
	}
	return differ;
}

/* ---- JSON ---------------------------------------------------------------------- */
static void json_number(struct pv_buf *b, const char *cell)
{
	const char *s = cell;
	while (*s == ' ' || *s == '+')
		s++;
	if (!*s || !strcmp(s, "N/A")) {
		pv_buf_puts(b, "null");
		return;
	}
	size_t n = strlen(s);
	pv_buf_printf(b, "%.*s", (int)(n && s[n - 1] == '%' ? n - 1 : n), s);
}

static void json_rows(const struct pv_diff *d, struct pv_buf *b)
{
	char buf[4096];
	for (size_t r = 0; r < d->nr; r++) {
		const struct pv_diff_row *w = &d->rows[r];
		pv_buf_puts(b, r ? ",\n    {" : "\n    {");
		for (size_t k = 0; k < d->v.nr_keys; k++) {
			pv_buf_json_str(b, d->v.keys[k]);
			pv_buf_putc(b, ':');
			pv_report_column(w->e, d->v.keys[k], buf, sizeof(buf));
			pv_buf_json_str(b, buf);
			pv_buf_putc(b, ',');
		}
		pv_buf_puts(b, "\"period\":[");
		for (size_t f = 0; f < d->nr_files; f++)
			pv_buf_printf(b, f ? ",%llu" : "%llu", (unsigned long long)w->period[f]);
		pv_buf_puts(b, "],\"percent\":[");
		for (size_t f = 0; f < d->nr_files; f++)
			if (w->present >> f & 1)
				pv_buf_printf(b, f ? ",%.4f" : "%.4f", pv_report_pct(w->period[f], d->total[f]));
			else
				pv_buf_puts(b, f ? ",null" : "null");
		pv_buf_printf(b, "],\"%s\":[null", compute_name(d));
		for (size_t f = 1; f < d->nr_files; f++) {
			pv_buf_putc(b, ',');
			pv_diff_cell(d, w, f, buf, sizeof(buf));
			json_number(b, buf);
		}
		pv_buf_puts(b, "]}");
	}
}

static int print_json(const struct pv_diff *d, const char *event, bool first, FILE *out)
{
	struct pv_buf b = PV_BUF_INIT;
	pv_buf_puts(&b, first ? "" : ",\n");
	pv_buf_puts(&b, "  {\"event\":");
	pv_buf_json_str(&b, event);
	pv_buf_printf(&b, ",\"compute\":\"%s\",\"total_period\":[", compute_name(d));
	for (size_t f = 0; f < d->nr_files; f++)
		pv_buf_printf(&b, f ? ",%llu" : "%llu", (unsigned long long)d->total[f]);
	pv_buf_puts(&b, "],\"rows\":[");
	json_rows(d, &b);
	pv_buf_puts(&b, "]}");
	if (b.oom) {
		pv_buf_free(&b);
		return pv_error(ENOMEM, "out of memory writing the diff as JSON");
	}
	fwrite(b.data, 1, b.len, out);
	pv_buf_free(&b);
	return 0;
}

/* ---- the driver ------------------------------------------------------------------ */
struct loaded {
	struct perfev_profile_event *ev;
	size_t nev;
};

static int load_all(struct pv_diff *d, struct perfev_perfdata *const *pd, size_t nr, struct loaded *l)
{
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .group = PERFEV_GROUP_THREAD};
	if (d->o.load)
		memcpy(&lo, d->o.load, PV_MIN(d->o.load->sz, sizeof(lo)));
	lo.sz = sizeof(lo);
	lo.event = -1;
	lo.no_callchain = true; /* perf diff: the sampled addresses alone */
	unsigned keys = d->v.key_mask;
	lo.srclines |= (keys & (PERFEV_KEY_SRCLINE | PERFEV_KEY_SRCFILE)) != 0;
	if (keys & (PERFEV_KEY_CPU | PERFEV_KEY_SOCKET))
		lo.flags |= PERFEV_PROFILE_KEEP_CPU;
	if (keys & (PERFEV_KEY_WEIGHT | PERFEV_KEY_INS_LAT | PERFEV_KEY_P_STAGE_CYC))
		lo.flags |= PERFEV_PROFILE_KEEP_WEIGHTS;
	if (keys & PERFEV_KEY_TIME)
		lo.flags |= PERFEV_PROFILE_KEEP_TIME;
	if (keys & PERFEV_KEY_ADDR)
		lo.flags |= PERFEV_PROFILE_KEEP_ADDR;
	for (size_t f = 0; f < nr; f++) {
		struct perfev_profile_load_info info = {.sz = sizeof(info)};
		l[f].ev = perfev_profile_load_events_from(pd[f], &lo, &info, &l[f].nev);
		if (!l[f].ev)
			return -errno;
	}
	return 0;
}

/* file f's profile of the baseline's event i (matched by type and config) */
static const struct perfev_profile *match(struct perfev_perfdata *const *pd, const struct loaded *l, size_t f,
					  size_t i)
{
	const struct perfev_attr *x = perfev_perfdata_event_attr(pd[0], i);
	for (size_t j = 0; x && j < l[f].nev; j++) {
		const struct perfev_attr *y = perfev_perfdata_event_attr(pd[f], j);
		if (y && y->type == x->type && y->config == x->config)
			return l[f].ev[j].profile;
	}
	return NULL;
}

static int print_event(struct pv_diff *d, struct perfev_perfdata *const *pd, const struct loaded *l, size_t i,
		       FILE *out)
{
	const struct perfev_profile *p[PV_DIFF_MAX_FILES];
	p[0] = l[0].ev[i].profile;
	for (size_t f = 1; f < d->nr_files; f++)
		p[f] = match(pd, l, f, i);
	int ret = pv_diff_build(d, p, d->nr_files);
	if (ret == 0) {
		pv_diff_sort(d);
		if (d->o.json) {
			ret = print_json(d, l[0].ev[i].name, i == 0, out);
		} else {
			fprintf(out, "%s# Event '%s'\n#\n", i ? "\n" : "", l[0].ev[i].name);
			if (d->nr_files > 2) { /* perf names the files with more than two */
				fprintf(out, "# Data files:\n");
				for (size_t f = 0; f < d->nr_files; f++)
					fprintf(out, "#  [%zu] %s %s\n", f, perfev_perfdata_path(pd[f]),
						f ? "" : "(Baseline)");
				fprintf(out, "#\n");
			}
			ret = pv_diff_print_stdio(d, out);
		}
	}
	pv_diff_free(d);
	return ret;
}

PERFEV_API int perfev_diff_print(struct perfev_perfdata *const *pd, size_t nr, const struct perfev_diff_opts *o,
				 FILE *out)
{
	if (!pd || nr < 2 || nr > PV_DIFF_MAX_FILES)
		return pv_error(EINVAL, "perf diff compares 2 to %d files, not %zu", PV_DIFF_MAX_FILES, nr);
	for (size_t f = 0; f < nr; f++)
		if (!pd[f])
			return pv_error(EINVAL, "file %zu of the diff is not open", f);
	struct pv_diff d;
	int ret = pv_diff_setup(&d, o, nr);
	if (ret < 0)
		return ret;
	d.nr_files = nr;
	for (size_t f = 1; f < nr; f++)
		perfev_diff_compare_events(pd[0], pd[f]);
	struct loaded l[PV_DIFF_MAX_FILES] = {{0}};
	ret = load_all(&d, pd, nr, l);
	if (ret == 0 && d.o.json)
		fputs("{\"events\":[\n", out);
	for (size_t i = 0; ret == 0 && i < l[0].nev; i++)
		ret = print_event(&d, pd, l, i, out);
	if (ret == 0 && d.o.json)
		fputs("\n]}\n", out);
	for (size_t f = 0; f < nr; f++)
		perfev_profile_events_free(l[f].ev, l[f].nev);
	if (ret == 0 && (fflush(out) != 0 || ferror(out)))
		ret = pv_error(EIO, "writing the diff failed: %s", strerror(errno));
	return ret;
}
