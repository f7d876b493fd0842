/*
 * report_model.c — the browser's model (perfev/report.h): one section of
 * perf report --stdio, printed by the same code (pv_report_print_stdio)
 * into memory, cut into lines that know their entry and their depth in
 * the entry's call graph, with fold state. The browser draws these lines;
 * no number is computed here.
 */
#define _GNU_SOURCE
#include "view/report_int.h"
#include "core/opts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct mline {
	size_t off;          /* in text */
	unsigned depth;
	bool folded;
	size_t entry;        /* the entry's index in ents */
};

struct ment {
	size_t off;          /* where its line starts in text */
	const char *comm, *dso, *symbol;
	int32_t pid, tid;
};

struct perfev_report_model {
	struct pv_report_loaded l;
	struct pv_report_section *secs;
	size_t nsecs, event;
	char *text;          /* the section as --stdio prints it, lines NUL-terminated */
	size_t text_len;
	char *title, *columns;
	struct mline *lines;
	size_t nlines;
	struct ment *ents;
	size_t nents, cap_ents;
	size_t *shown;       /* line indexes not folded away */
	size_t nshown;
	bool oom;
};

static void on_row(void *ctx, const struct perfev_profile_entry *e, FILE *out)
{
	struct perfev_report_model *m = ctx;
	fflush(out);
	long off = ftell(out);
	if (off < 0 || pv_grow(&m->ents, &m->cap_ents, m->nents + 1, sizeof(*m->ents)) < 0) {
		m->oom = true;
		return;
	}
	m->ents[m->nents++] = (struct ment){(size_t)off, e->comm ? e->comm : e->first_comm, e->dso, e->symbol,
					    e->pid, e->tid};
}

/* A graph line's depth from its columns (report_graph.c's layout: a
 * margin of 12 or 15, 11 per level, branches "|--" or " --" where their
 * level's column is): 1 for the entry's first level. Lines of a chain
 * (a name alone) and separators ("|") get theirs from the lines around. */
static unsigned branch_depth(const char *s, bool *branch)
{
	size_t p = strspn(s, " |");
	*branch = s[p] == '-' && s[p + 1] == '-';
	if (!*branch)
		return 0;
	if (s[p + 2] == '-') /* "---name": the entry's common path */
		return 1;
	return p >= 13 ? (unsigned)((p - 13) / 11 + 2) : 2;
}

static void set_depths(struct perfev_report_model *m)
{
	unsigned cur = 1;
	for (size_t i = 0; i < m->nlines; i++) {
		const char *s = m->text + m->lines[i].off;
		if (m->lines[i].depth == 0 && m->ents[m->lines[i].entry].off == m->lines[i].off) {
			cur = 1;
			continue; /* the entry */
		}
		bool branch;
		unsigned d = branch_depth(s, &branch);
		bool separator = s[strspn(s, " |")] == 0;
		if (branch)
			cur = d;
		m->lines[i].depth = separator ? 0 : cur; /* (separators: the next line's, below) */
	}
	for (size_t i = m->nlines; i-- > 0;)
		if (m->lines[i].depth == 0 && m->ents[m->lines[i].entry].off != m->lines[i].off)
			m->lines[i].depth = i + 1 < m->nlines && m->lines[i + 1].depth ? m->lines[i + 1].depth : 1;
}

/* The header lines perf's browser shows: its title and the column line. */
static int take_header(struct perfev_report_model *m, size_t end)
{
	const char *samples = NULL, *count = NULL, *cols = NULL, *prev = NULL;
	for (size_t at = 0; at < end; at += strlen(m->text + at) + 1) {
		const char *s = m->text + at;
		if (!strncmp(s, "# Samples: ", 11))
			samples = s + 2;
		else if (!strncmp(s, "# Event count", 13) || !strncmp(s, "# Total weight", 14))
			count = s + 2;
		else if (!strncmp(s, "# ..", 4) && prev)
			cols = prev;
		prev = s;
	}
	free(m->title);
	free(m->columns);
	m->title = NULL, m->columns = NULL;
	if (asprintf(&m->title, "%s%s%s", samples ? samples : "", count ? ", " : "", count ? count : "") < 0 ||
	    !(m->columns = strdup(cols ? cols : ""))) {
		m->title = NULL;
		return pv_error(ENOMEM, "out of memory");
	}
	if (m->columns[0] == '#')
		m->columns[0] = ' '; /* (a blank where the lines have their first column) */
	return 0;
}

/* The printed section into lines: before the first entry its header, then
 * each entry's line and its graph's (blank lines dropped). */
static int cut_lines(struct perfev_report_model *m)
{
	size_t start = m->nents ? m->ents[0].off : m->text_len;
	for (size_t i = 0; i < m->text_len; i++)
		if (m->text[i] == '\n')
			m->text[i] = 0;
	if (take_header(m, start) < 0)
		return -ENOMEM;
	free(m->lines);
	m->lines = calloc(m->nents + (m->text_len - start) / 2 + 1, sizeof(*m->lines));
	if (!m->lines)
		return pv_error(ENOMEM, "out of memory");
	m->nlines = 0;
	size_t ent = 0;
	for (size_t at = start; at < m->text_len; at += strlen(m->text + at) + 1) {
		while (ent + 1 < m->nents && m->ents[ent + 1].off <= at)
			ent++;
		if (!m->text[at])
			continue;
		bool is_entry = m->ents[ent].off == at;
		m->lines[m->nlines++] = (struct mline){at, 0, is_entry, ent};
	}
	set_depths(m);
	return 0;
}

static int refold(struct perfev_report_model *m)
{
	free(m->shown);
	m->shown = malloc((m->nlines ? m->nlines : 1) * sizeof(*m->shown));
	if (!m->shown)
		return pv_error(ENOMEM, "out of memory");
	m->nshown = 0;
	for (size_t i = 0; i < m->nlines;) {
		m->shown[m->nshown++] = i;
		size_t j = i + 1;
		if (m->lines[i].folded)
			while (j < m->nlines && m->lines[j].depth > m->lines[i].depth)
				j++;
		i = j;
	}
	return 0;
}

PERFEV_API int perfev_report_model_show(struct perfev_report_model *m, const struct perfev_report_zoom *z)
{
	if (!m || !PV_OPTS_VALID(z, perfev_report_zoom))
		return pv_error(EINVAL, "report model: NULL or bad zoom options");
	size_t event = PV_OPTS_GET(z, event, 0);
	if (event >= m->nsecs)
		return pv_error(EINVAL, "report model: event %zu of %zu", event, m->nsecs);
	struct pv_report_view v = *m->l.v;
	v.symbol_filter = PV_OPTS_GET(z, symbol, NULL) ? PV_OPTS_GET(z, symbol, NULL) : v.symbol_filter;
	v.zoom_dso = PV_OPTS_GET(z, dso, NULL);
	v.zoom_comm = PV_OPTS_GET(z, comm, NULL);
	v.zoom_tid = PV_OPTS_GET(z, tid, -1);
	v.on_row = on_row, v.row_ctx = m;
	if (m->secs[event].no_chains)
		v.graph = PV_GRAPH_NONE;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return pv_error(ENOMEM, "out of memory");
	m->nents = 0;
	m->oom = false;
	int ret = pv_report_print_stdio(&m->secs[event], &v, f);
	if (fclose(f) != 0 && !ret)
		ret = pv_error(ENOMEM, "out of memory");
	if (!ret && m->oom)
		ret = pv_error(ENOMEM, "out of memory");
	if (ret) {
		free(text);
		return ret;
	}
	free(m->text);
	m->text = text, m->text_len = len;
	m->event = event;
	if ((ret = cut_lines(m)) < 0 || (ret = refold(m)) < 0)
		m->nlines = m->nshown = 0;
	return ret;
}

/* A new model's first show (its first section, every entry folded), unless
 * err (-errno) says making it failed: m, or NULL with errno set (m freed). */
static struct perfev_report_model *model_first_show(struct perfev_report_model *m, int err)
{
	struct perfev_report_zoom z = {.sz = sizeof(z), .tid = -1};
	if (!err)
		err = perfev_report_model_show(m, &z);
	if (err) {
		perfev_report_model_free(m);
		errno = -err;
		return NULL;
	}
	return m;
}

PERFEV_API struct perfev_report_model *perfev_report_model_new(struct perfev_perfdata *pd,
							       const struct perfev_report_opts *o)
{
	struct perfev_report_model *m = calloc(1, sizeof(*m));
	if (!m)
		return pv_error_null(ENOMEM, "out of memory");
	int err = pv_report_load_view(pd, o, &m->l);
	if (!err && !(m->secs = calloc(m->l.nev ? m->l.nev : 1, sizeof(*m->secs))))
		err = pv_error(ENOMEM, "out of memory");
	if (!err && !(m->nsecs = pv_report_sections(m->l.ev, m->l.nev, m->l.group, m->secs, m->l.nev)))
		err = pv_error(ENODATA, "%s has no samples: nothing to show (record longer, or at a higher "
			       "frequency with -F)", perfev_perfdata_path(pd));
	return model_first_show(m, err);
}

PERFEV_API struct perfev_report_model *perfev_report_model_new_profile(const struct perfev_profile *p,
								       const struct perfev_profile_load_info *info,
								       const struct perfev_report_opts *o)
{
	if (!p)
		return pv_error_null(EINVAL, "report model: NULL profile");
	if (!PV_OPTS_VALID(info, perfev_profile_load_info))
		return NULL;
	struct perfev_report_model *m = calloc(1, sizeof(*m));
	if (!m || !(m->secs = calloc(1, sizeof(*m->secs)))) {
		free(m);
		return pv_error_null(ENOMEM, "out of memory");
	}
	int err = pv_report_profile_view(o, p, info, &m->l, &m->secs[0]);
	m->nsecs = 1;
	return model_first_show(m, err);
}

PERFEV_API void perfev_report_model_free(struct perfev_report_model *m)
{
	if (!m)
		return;
	int err = errno;
	pv_report_loaded_free(&m->l);
	free(m->secs);
	free(m->text);
	free(m->title);
	free(m->columns);
	free(m->lines);
	free(m->ents);
	free(m->shown);
	free(m);
	errno = err;
}

PERFEV_API int perfev_report_model_info(const struct perfev_report_model *m, struct perfev_report_model_info *out)
{
	if (!m || !out || out->sz < offsetof(struct perfev_report_model_info, nr_events))
		return pv_error(EINVAL, "report model: NULL or a too short info");
	struct perfev_report_model_info i = {.sz = out->sz, .title = m->title, .columns = m->columns,
					     .nr_events = m->nsecs, .event = m->event, .nr_lines = m->nlines,
					     .nr_entries = m->nents};
	memcpy(out, &i, PV_MIN(out->sz, sizeof(i)));
	return 0;
}

PERFEV_API int perfev_report_model_line(const struct perfev_report_model *m, size_t i, struct perfev_report_line *out)
{
	if (!m || !out || i >= m->nlines || out->sz < offsetof(struct perfev_report_line, depth))
		return pv_error(EINVAL, "report model: no line %zu", i);
	const struct mline *l = &m->lines[i];
	const struct ment *e = &m->ents[l->entry];
	size_t first = i;
	while (first > 0 && m->lines[first].depth)
		first--;
	struct perfev_report_line r = {
		.sz = out->sz, .text = m->text + l->off, .depth = l->depth, .entry = l->depth == 0,
		.has_children = i + 1 < m->nlines && m->lines[i + 1].depth > l->depth, .folded = l->folded,
		.entry_line = first, .comm = e->comm, .dso = e->dso, .symbol = e->symbol, .pid = e->pid,
		.tid = e->tid};
	r.folded &= r.has_children;
	memcpy(out, &r, PV_MIN(out->sz, sizeof(r)));
	return 0;
}

PERFEV_API int perfev_report_model_fold(struct perfev_report_model *m, size_t i, enum perfev_report_fold how)
{
	if (!m || (i != (size_t)-1 && i >= m->nlines) || how > PERFEV_REPORT_COLLAPSE)
		return pv_error(EINVAL, "report model: no line %zu to fold", i);
	size_t from = i == (size_t)-1 ? 0 : i, to = i == (size_t)-1 ? m->nlines : i + 1;
	if (how == PERFEV_REPORT_TOGGLE) {
		m->lines[i].folded = !m->lines[i].folded;
	} else {
		while (i != (size_t)-1 && to < m->nlines && m->lines[to].depth > m->lines[i].depth)
			to++;
		for (size_t k = from; k < to; k++)
			m->lines[k].folded = how == PERFEV_REPORT_COLLAPSE;
	}
	return refold(m);
}

PERFEV_API size_t perfev_report_model_nr_shown(const struct perfev_report_model *m)
{
	return m ? m->nshown : 0;
}

PERFEV_API size_t perfev_report_model_shown(const struct perfev_report_model *m, size_t k)
{
	return m && k < m->nshown ? m->shown[k] : (size_t)-1;
}

PERFEV_API size_t perfev_report_model_shown_at(const struct perfev_report_model *m, size_t line)
{
	if (!m || !m->nshown)
		return 0;
	size_t lo = 0, hi = m->nshown; /* the last shown line <= line */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->shown[mid] <= line)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}
