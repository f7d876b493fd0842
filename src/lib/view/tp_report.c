/*
 * tp_report.c — perf report --stdio with tracepoint fields as sort keys
 * (perf's "dynamic" keys: FIELD, EVENT.FIELD, SYS:EVENT.FIELD, and trace):
 * per event, samples grouped by the raw bytes of those fields, each group
 * shown with the field's text as the event's print fmt prints it (perf takes
 * "FIELD=value" out of the printed line), widths and order as perf's.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "perfev/perfdata.h"
#include "perfev/record.h"
#include "perfev/tracepoint.h"
#include "tracing/tp_int.h"
#include "view/report_int.h"

#include <stdlib.h>
#include <string.h>
#include <traceevent/trace-seq.h>

#define MAX_KEYS 8

struct tkey {
	char *event; /* "sys:name", "name" or NULL (any event with the field) */
	char *field; /* NULL: the whole trace line ("trace") */
};

struct group {
	uint8_t *key; /* the fields' bytes, each prefixed by its length */
	size_t key_len;
	uint64_t period;
	void *raw; /* the first sample's raw data: what the columns show */
	size_t raw_size;
};

struct tevent {
	bool tracepoint;
	struct tep_event *ev;
	struct tep_format_field *field[MAX_KEYS]; /* per key; NULL: key not for this event */
	bool whole[MAX_KEYS];                     /* the "trace" key */
	int nkeys;                                /* keys that apply */
	struct group *g;
	size_t nr, cap;
	uint64_t samples, period;
};

struct rep {
	struct perfev_perfdata *pd;
	struct perfev_tp *tp;
	struct tkey keys[MAX_KEYS];
	size_t nr_keys;
	struct tevent *ev;
	size_t nr_ev;
	int err;
};

static int parse_keys(struct rep *r, const char *sort)
{
	char *copy = pv_strdup(sort), *save = NULL;
	if (!copy)
		return -ENOMEM;
	for (char *k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		while (*k == ' ')
			k++;
		if (r->nr_keys == MAX_KEYS) {
			free(copy);
			return pv_error(EINVAL, "--sort: at most %d tracepoint keys", MAX_KEYS);
		}
		struct tkey *t = &r->keys[r->nr_keys++];
		char *dot = strrchr(k, '.');
		if (dot) {
			*dot = 0;
			t->event = pv_strdup(k);
			t->field = pv_strdup(dot + 1);
		} else if (strcmp(k, "trace")) {
			t->field = pv_strdup(k);
		}
	}
	free(copy);
	return 0;
}

/* Does key t name event ev ("sys:name" or "name")? */
static bool key_event_is(const struct tkey *t, const struct tep_event *ev)
{
	if (!t->event)
		return true;
	const char *colon = strchr(t->event, ':');
	if (!colon)
		return !strcmp(t->event, ev->name);
	return !strncmp(t->event, ev->system, (size_t)(colon - t->event)) &&
	       !ev->system[colon - t->event] && !strcmp(colon + 1, ev->name);
}

static int bind_keys(struct rep *r)
{
	r->nr_ev = perfev_perfdata_nr_events(r->pd);
	r->ev = calloc(r->nr_ev ? r->nr_ev : 1, sizeof(*r->ev));
	if (!r->ev)
		return pv_error(ENOMEM, "out of memory");
	for (size_t k = 0; k < r->nr_keys; k++) {
		bool found = false;
		for (size_t i = 0; i < r->nr_ev; i++) {
			const struct perfev_attr *a = perfev_perfdata_event_attr(r->pd, i);
			struct tevent *e = &r->ev[i];
			if (a->type != PERF_TYPE_TRACEPOINT || !r->tp)
				continue;
			e->tracepoint = true;
			e->ev = tep_find_event(r->tp->tep, (int)a->config);
			if (!e->ev || !key_event_is(&r->keys[k], e->ev))
				continue;
			if (!r->keys[k].field) {
				e->whole[k] = found = true;
			} else if ((e->field[k] = tep_find_any_field(e->ev, r->keys[k].field))) {
				found = true;
			}
			e->nkeys += e->whole[k] || e->field[k];
		}
		if (!found)
			return pv_error(ENOENT, "--sort %s%s%s: no tracepoint of the file has this field",
					r->keys[k].event ? r->keys[k].event : "",
					r->keys[k].event ? "." : "",
					r->keys[k].field ? r->keys[k].field : "trace");
	}
	return 0;
}

/* The bytes perf compares for a field: the field, or a __data_loc's data. */
static bool field_bytes(const struct tep_format_field *f, const uint8_t *raw, size_t size,
			const uint8_t **p, size_t *n)
{
	if ((size_t)f->offset + (size_t)f->size > size)
		return false;
	size_t off = (size_t)f->offset, len = (size_t)f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc;
		if (f->size != 4)
			return false;
		memcpy(&loc, raw + f->offset, 4);
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (size_t)f->offset + (size_t)f->size;
		if (off + len > size)
			return false;
	}
	*p = raw + off;
	*n = len;
	return true;
}

static char *trace_line(struct rep *r, const void *raw, size_t size)
{
	char *t = NULL;
	if (perfev_tp_print(r->tp, raw, size, 0, &t) < 0)
		return NULL;
	return t;
}

static int add_sample(struct rep *r, struct tevent *e, const struct perfev_sample *s, uint64_t period)
{
	struct pv_buf key = PV_BUF_INIT;
	for (size_t k = 0; k < r->nr_keys; k++) {
		const uint8_t *p = NULL;
		size_t n = 0;
		char *t = NULL;
		if (e->whole[k]) {
			t = trace_line(r, s->raw, s->raw_size);
			p = (const uint8_t *)(t ? t : "");
			n = strlen((const char *)p);
		} else if (e->field[k] && !field_bytes(e->field[k], s->raw, s->raw_size, &p, &n)) {
			p = NULL, n = 0;
		}
		uint32_t l = (uint32_t)n;
		pv_buf_add(&key, &l, sizeof(l));
		if (n)
			pv_buf_add(&key, p, n);
		free(t);
	}
	if (key.oom)
		return pv_error(ENOMEM, "out of memory");
	e->samples++;
	e->period += period;
	for (size_t i = 0; i < e->nr; i++)
		if (e->g[i].key_len == key.len && !memcmp(e->g[i].key, key.data, key.len)) {
			e->g[i].period += period;
			pv_buf_free(&key);
			return 0;
		}
	void *raw = malloc(s->raw_size ? s->raw_size : 1);
	if (!raw || pv_grow(&e->g, &e->cap, e->nr + 1, sizeof(*e->g)) < 0) {
		free(raw);
		pv_buf_free(&key);
		return pv_error(ENOMEM, "out of memory");
	}
	memcpy(raw, s->raw, s->raw_size);
	e->g[e->nr++] = (struct group){(uint8_t *)key.data, key.len, period, raw, s->raw_size};
	return 0;
}

static int on_record(void *ctx, const struct perfev_record *rec)
{
	struct rep *r = ctx;
	if (rec->type != PERF_RECORD_SAMPLE || rec->attr_idx < 0 || (size_t)rec->attr_idx >= r->nr_ev)
		return 0;
	struct tevent *e = &r->ev[rec->attr_idx];
	const struct perfev_attr *a = perfev_perfdata_event_attr(r->pd, (size_t)rec->attr_idx);
	const struct perfev_sample *s = &rec->u.sample;
	uint64_t period = (s->sample_type & PERF_SAMPLE_PERIOD) ? s->period : a->sample_period;
	if (!e->nkeys || !s->raw) { /* perf: the event's block has Overhead alone */
		e->samples++;
		e->period += period;
		return 0;
	}
	int err = add_sample(r, e, s, period);
	if (err < 0)
		r->err = err;
	return err < 0 ? err : 0;
}

/* The text perf shows for a field: "FIELD=value" out of the printed line
 * (the first space-separated word starting with the field's name), else the
 * raw field. */
static char *column_text(struct rep *r, const struct tevent *e, size_t k, const struct group *g)
{
	char *line = trace_line(r, g->raw, g->raw_size);
	if (e->whole[k])
		return line ? line : pv_strdup("");
	const struct tep_format_field *f = e->field[k];
	size_t namelen = strlen(f->name);
	for (char *w = line; w && *w;) {
		char *sp = strchr(w, ' ');
		size_t n = sp ? (size_t)(sp - w) : strlen(w);
		if (!strncmp(w, f->name, namelen)) {
			char *v = n > namelen ? pv_strndup(w + namelen + 1, n - namelen - 1) : pv_strdup("");
			free(line);
			return v;
		}
		w = sp ? sp + 1 : NULL;
	}
	free(line);
	char *t = NULL;
	if (perfev_tp_field_text(r->tp, g->raw, g->raw_size, f->name, &t) < 0)
		return pv_strdup("");
	return t;
}

static const struct tevent *sort_ev; /* qsort has no context argument */
static size_t sort_nkeys;

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->period != y->period)
		return x->period < y->period ? 1 : -1;
	/* perf: then key by key; a field's bytes the larger first, the trace
	 * line (sort_trace, strcmp) the smaller first */
	size_t ox = 0, oy = 0;
	for (size_t k = 0; k < sort_nkeys; k++) {
		uint32_t lx, ly;
		memcpy(&lx, x->key + ox, 4);
		memcpy(&ly, y->key + oy, 4);
		int c = memcmp(x->key + ox + 4, y->key + oy + 4, PV_MIN(lx, ly));
		if (!c)
			c = (lx > ly) - (lx < ly);
		if (c)
			return sort_ev->whole[k] ? c : -c;
		ox += 4 + lx;
		oy += 4 + ly;
	}
	return 0;
}

/* perf's convert_unit: "7 " "6K" "2M" (strictly more than 1000 steps up) */
static void samples_unit(uint64_t n, char *buf, size_t len)
{
	char unit = ' ';
	static const char units[] = "KMG";
	for (int i = 0; i < 3 && n > 1000; i++) {
		n /= 1000;
		unit = units[i];
	}
	snprintf(buf, len, "%llu%c", (unsigned long long)n, unit);
}

static void print_event(struct rep *r, size_t i, FILE *out)
{
	struct tevent *e = &r->ev[i];
	char sbuf[32];
	samples_unit(e->samples, sbuf, sizeof(sbuf));
	fprintf(out, "# Samples: %s of event '%s'\n# Event count (approx.): %llu\n#\n", sbuf,
		perfev_perfdata_event_name(r->pd, i), (unsigned long long)e->period);
	sort_ev = e;
	sort_nkeys = r->nr_keys;
	if (e->nr)
		qsort(e->g, e->nr, sizeof(*e->g), cmp_group);
	size_t nk = r->nr_keys;
	char **text = calloc(e->nr * nk + 1, sizeof(*text));
	int width[MAX_KEYS] = {0};
	for (size_t k = 0; k < nk && text; k++) {
		if (!e->whole[k] && !e->field[k])
			continue;
		const struct tep_format_field *f = e->field[k];
		/* perf's hde_width: the name, the widest value, the field's size
		 * (strings) or its hex digits (numbers) */
		int w = (int)strlen(f ? f->name : "Trace output");
		if (f) {
			int fl = (f->flags & TEP_FIELD_IS_STRING) ? f->size : f->size * 2 + 2;
			w = PV_MAX(w, fl);
		}
		for (size_t g = 0; g < e->nr; g++) {
			text[g * nk + k] = column_text(r, e, k, &e->g[g]);
			if (text[g * nk + k])
				w = PV_MAX(w, (int)strlen(text[g * nk + k]));
		}
		width[k] = w;
	}
	struct pv_buf h = PV_BUF_INIT, d = PV_BUF_INIT;
	pv_buf_puts(&h, "# Overhead");
	pv_buf_puts(&d, "# ........");
	for (size_t k = 0; k < nk; k++) {
		if (!width[k])
			continue;
		const struct tep_format_field *f = e->field[k];
		if (f)
			pv_buf_printf(&h, "  %*.*s", width[k], width[k], f->name);
		else /* perf's sort_trace column: left-aligned */
			pv_buf_printf(&h, "  %-*.*s", width[k], width[k], "Trace output");
		pv_buf_puts(&d, "  ");
		for (int c = 0; c < width[k]; c++)
			pv_buf_putc(&d, '.');
	}
	fprintf(out, "%s\n%s\n#\n", h.data, d.data);
	pv_buf_free(&h);
	pv_buf_free(&d);
	if (!e->nkeys)
		fprintf(out, "  %7.2f%%\n", 100.0);
	for (size_t g = 0; g < e->nr; g++) {
		fprintf(out, "  %7.2f%%", e->period ? 100.0 * (double)e->g[g].period / (double)e->period : 0.0);
		for (size_t k = 0; k < nk; k++)
			if (width[k] && e->whole[k]) /* perf's sort_trace: "%-.*s", unpadded */
				fprintf(out, "  %-.*s", width[k], text && text[g * nk + k] ? text[g * nk + k] : "");
			else if (width[k])
				fprintf(out, "  %*.*s", width[k], width[k],
					text && text[g * nk + k] ? text[g * nk + k] : "");
		fputc('\n', out);
	}
	fprintf(out, "\n\n");
	for (size_t t = 0; text && t < e->nr * nk; t++)
		free(text[t]);
	free(text);
}

static void rep_free(struct rep *r)
{
	for (size_t k = 0; k < r->nr_keys; k++) {
		free(r->keys[k].event);
		free(r->keys[k].field);
	}
	for (size_t i = 0; r->ev && i < r->nr_ev; i++) {
		for (size_t g = 0; g < r->ev[i].nr; g++) {
			free(r->ev[i].g[g].key);
			free(r->ev[i].g[g].raw);
		}
		free(r->ev[i].g);
	}
	free(r->ev);
	perfev_tp_free(r->tp);
}

PERFEV_API int perfev_tp_report(struct perfev_perfdata *pd, const char *sort, FILE *out)
{
	return perfev_tp_report_with(pd, sort, out, NULL);
}

PERFEV_API int perfev_tp_report_with(struct perfev_perfdata *pd, const char *sort, FILE *out,
				     const struct perfev_tp_report_opts *opts)
{
	if (!PV_OPTS_VALID(opts, perfev_tp_report_opts))
		return -EINVAL;
	bool hint = !PV_OPTS_GET(opts, no_header_hint, false);
	struct rep r = {.pd = pd};
	size_t size = 0;
	const void *td = perfev_perfdata_has_feature(pd, PERFEV_FEAT_TRACING_DATA)
				 ? perfev_perfdata_feature(pd, PERFEV_FEAT_TRACING_DATA, &size)
				 : NULL;
	r.tp = td ? perfev_tp_from_tracing_data(td, size, NULL) : NULL;
	if (!r.tp && (r.tp = perfev_tp_new()))
		for (size_t i = 0; i < perfev_perfdata_nr_events(pd); i++) {
			const struct perfev_attr *a = perfev_perfdata_event_attr(pd, i);
			if (a->type == PERF_TYPE_TRACEPOINT)
				perfev_tp_load_id(r.tp, a->config);
		}
	int err = r.tp ? parse_keys(&r, sort) : -ENOMEM;
	if (!err)
		err = bind_keys(&r);
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro)};
	if (!err)
		err = perfev_perfdata_process(pd, &ro, on_record, &r);
	if (!err && r.err)
		err = r.err;
	if (!err) {
		struct perfev_perfdata_stats st;
		perfev_perfdata_stats(pd, &st);
		if (hint)
			fputs("# To display the perf.data header info, please use --header/--header-only "
			      "options.\n#\n", out);
		fprintf(out, "#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)st.nr_lost_samples);
		for (size_t i = 0; i < r.nr_ev; i++)
			if (r.ev[i].samples)
				print_event(&r, i, out);
	}
	rep_free(&r);
	return err < 0 ? err : (err > 0 ? -EINVAL : 0);
}
