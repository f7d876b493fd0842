/*
 * metric.c — metrics counted: the table's formulas for the current model
 * resolved to events (added to an evlist, grouped as perf groups a metric's
 * events), then computed from what perfev_stat collected, saying when an
 * input could not count and when inputs were multiplexed.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "count/stat_int.h"
#include "event/metric_int.h"
#include "perfev/metric.h"
#include "perfev/pmu.h"
#include "perfev/sys.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- which metrics apply ------------------------------------------------------ */

static bool applies(const struct perfev_metric_info *m, const struct perfev_cpu_model *model)
{
	if (!strcmp(m->models, "any"))
		return true;
	for (int i = 0; i < 2; i++) {
		const char *t = model->tables[i];
		if (t && model->name && pv_list_has(m->models, t))
			return true;
	}
	return false;
}

static bool in_group(const struct perfev_metric_info *m, const char *g)
{
	const char *p = m->groups;
	size_t n = strlen(g);
	while (p && *p) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (len == n && !strncasecmp(p, g, n))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

static const struct perfev_metric_info *find_metric(const char *name, size_t n,
						    const struct perfev_cpu_model *model)
{
	for (size_t i = 0; i < pv_metric_table_len; i++) {
		const struct perfev_metric_info *m = &pv_metric_table[i];
		if (strlen(m->name) == n && !strncasecmp(m->name, name, n) && applies(m, model))
			return m;
	}
	return NULL;
}

PERFEV_API int perfev_metrics_foreach(const char *pattern, perfev_metric_fn fn, void *arg)
{
	struct perfev_cpu_model model = {.sz = sizeof(model)};
	perfev_cpu_model_get(&model);
	int n = 0;
	for (size_t i = 0; i < pv_metric_table_len; i++) {
		const struct perfev_metric_info *m = &pv_metric_table[i];
		if (!applies(m, &model))
			continue;
		if (pattern && *pattern && strcasecmp(m->name, pattern) && !in_group(m, pattern) &&
		    !strcasestr(m->name, pattern))
			continue;
		n++;
		int r = fn ? fn(arg, m) : 0;
		if (r)
			return r;
	}
	return n;
}

/* ---- formulas with other metrics expanded ------------------------------------- */

static bool name_char(char c)
{
	return c && (isalnum((unsigned char)c) || strchr("_.:=@", c));
}

/* The formula with every metric it names replaced by that metric's, in parentheses. */
static int expand(const char *expr, const struct perfev_cpu_model *model, int depth, struct pv_buf *out)
{
	if (depth > 8)
		return pv_error(ELOOP, "metric formulas name each other in a loop: '%s'", expr);
	for (const char *p = expr; *p;) {
		if (!name_char(*p) || isdigit((unsigned char)*p)) {
			pv_buf_putc(out, *p++);
			continue;
		}
		const char *s = p;
		while (name_char(*p) || (p > s && *p == '-' && isalpha((unsigned char)p[1])))
			p++; /* as the formula parser reads names: branch-misses is one */
		const struct perfev_metric_info *m = find_metric(s, (size_t)(p - s), model);
		if (!m) {
			pv_buf_add(out, s, (size_t)(p - s));
			continue;
		}
		pv_buf_putc(out, '(');
		int r = expand(m->expr, model, depth + 1, out);
		if (r < 0)
			return r;
		pv_buf_putc(out, ')');
	}
	return out->oom ? pv_error(ENOMEM, "out of memory") : 0;
}

/* ---- counting ------------------------------------------------------------------------ */

struct var_events {
	size_t first, last; /* its evsels in the list: [first, last) */
	bool duration;      /* duration_time: the run's wall-clock ns */
	bool unknown;       /* not an event of this model (its name does not parse) */
};

struct metric {
	const struct perfev_metric_info *info;
	struct perfev_metric_expr *expr;
	struct var_events *vars;
	unsigned nr_groups;
};

struct perfev_metrics {
	const struct perfev_evlist *list;
	struct metric *m;
	size_t n, cap;
};

PERFEV_API void perfev_metrics_free(struct perfev_metrics *ms)
{
	if (!ms)
		return;
	for (size_t i = 0; i < ms->n; i++) {
		perfev_metric_expr_free(ms->m[i].expr);
		free(ms->m[i].vars);
	}
	free(ms->m);
	free(ms);
}

PERFEV_API size_t perfev_metrics_count(const struct perfev_metrics *ms)
{
	return ms ? ms->n : 0;
}

/* General counters a group may use: perf's metric groups fit the PMU (Intel's
 * core PMU has 4 with SMT on, AMD's Zen 6, Arm's Neoverse 6). */
static size_t counters(const struct perfev_cpu_model *model)
{
	const char *t = model->tables[0] ? model->tables[0] : "";
	return !strncmp(t, "amd64", 5) || !strncmp(t, "arm", 3) ? 6 : 4;
}

static bool groupable(const struct perfev_evsel *e)
{
	const struct perfev_attr *a = perfev_evsel_attr_const(e);
	return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
	       (perfev_evsel_flags(e) & PERFEV_EVSEL_VENDOR);
}

/* Appends metric m's events to list, grouped; fills mt. */
static int add_metric(struct perfev_evlist *list, const struct perfev_metric_info *m,
		      const struct perfev_cpu_model *model, struct metric *mt)
{
	struct pv_buf text = PV_BUF_INIT;
	int r = expand(m->expr, model, 0, &text);
	if (r < 0) {
		pv_buf_free(&text);
		return r;
	}
	mt->info = m;
	mt->expr = perfev_metric_expr_parse(text.data);
	pv_buf_free(&text);
	if (!mt->expr)
		return -errno;
	size_t nv = perfev_metric_expr_nr_vars(mt->expr);
	mt->vars = calloc(nv ? nv : 1, sizeof(*mt->vars));
	if (!mt->vars)
		return pv_error(ENOMEM, "out of memory");
	size_t limit = counters(model), in_group = 0;
	struct perfev_evsel *leader = NULL;
	for (size_t v = 0; v < nv; v++) {
		const char *ev = perfev_metric_expr_var(mt->expr, v);
		struct var_events *ve = &mt->vars[v];
		ve->first = ve->last = perfev_evlist_count(list);
		if (!strcmp(ev, "duration_time")) {
			ve->duration = true;
			continue;
		}
		struct perfev_parse_error err;
		if ((r = perfev_evlist_parse(list, ev, &err)) == -ENOENT) {
			/* the table's formula names an event this model's table lacks
			 * (libpfm4's Neoverse N1 has no op_retired): the metric cannot be
			 * computed, the others can */
			ve->unknown = true;
			continue;
		}
		if (r < 0)
			return pv_error(-r, "metric %s reads '%s', which does not parse here: %s", m->name, ev,
					err.msg);
		ve->last = perfev_evlist_count(list);
		for (size_t i = ve->first; i < ve->last; i++) {
			struct perfev_evsel *e = perfev_evlist_at(list, i);
			if (!groupable(e) || ve->last - ve->first > 1)
				continue; /* uncore, software, hybrid: counted alone, as perf does */
			if (!leader || in_group == limit) {
				leader = e;
				in_group = 1;
				mt->nr_groups++;
				continue;
			}
			if ((r = perfev_evsel_set_leader(e, leader)) < 0)
				return r;
			in_group++;
		}
	}
	/* a group of one is no group; perf's weak groups (:W) say so to the opener */
	for (size_t v = 0; v < nv; v++)
		for (size_t i = mt->vars[v].first; i < mt->vars[v].last; i++) {
			struct perfev_evsel *e = perfev_evlist_at(list, i);
			if (perfev_evsel_is_leader(e) && perfev_evsel_group_size(e) > 1)
				perfev_evsel_set_flags(e, perfev_evsel_flags(e) | PERFEV_EVSEL_WEAK_GROUP);
		}
	return 0;
}

static int list_names(void *arg, const struct perfev_metric_info *m)
{
	struct pv_buf *b = arg;
	pv_buf_printf(b, "%s%s", b->len ? ", " : "", m->name);
	return 0;
}

PERFEV_API struct perfev_metrics *perfev_metrics_add(struct perfev_evlist *list, const char *spec)
{
	if (!list || !spec || !*spec)
		return pv_error_null(EINVAL, "-M needs metric names or groups ('perfev list metrics')");
	struct perfev_cpu_model model = {.sz = sizeof(model)};
	perfev_cpu_model_get(&model);
	struct perfev_metrics *ms = calloc(1, sizeof(*ms));
	char *copy = strdup(spec), *save = NULL;
	if (!ms || !copy) {
		free(ms);
		free(copy);
		return pv_error_null(ENOMEM, "out of memory");
	}
	ms->list = list;
	int r = 0;
	for (char *w = strtok_r(copy, ",", &save); w && !r; w = strtok_r(NULL, ",", &save)) {
		size_t found = 0;
		for (size_t i = 0; i < pv_metric_table_len && !r; i++) {
			const struct perfev_metric_info *m = &pv_metric_table[i];
			if (!applies(m, &model) || (strcasecmp(m->name, w) && !in_group(m, w)))
				continue;
			found++;
			bool dup = false;
			for (size_t k = 0; k < ms->n; k++)
				dup |= ms->m[k].info == m;
			if (dup)
				continue;
			if (pv_grow(&ms->m, &ms->cap, ms->n + 1, sizeof(*ms->m)) < 0) {
				r = pv_error(ENOMEM, "out of memory");
				break;
			}
			memset(&ms->m[ms->n], 0, sizeof(ms->m[0]));
			r = add_metric(list, m, &model, &ms->m[ms->n]);
			ms->n++; /* freed with the set even when it failed half-way */
		}
		if (!r && !found) {
			struct pv_buf b = PV_BUF_INIT;
			perfev_metrics_foreach(NULL, list_names, &b);
			r = pv_error(ENOENT, "no metric or metric group '%s' for %s (%s%s); metrics here: %s", w,
				     model.name ? model.name : "this CPU", model.cpuid,
				     model.overridden ? ", from PERF_CPUID" : "", b.data ? b.data : "none");
			pv_buf_free(&b);
		}
	}
	free(copy);
	if (r < 0) {
		perfev_metrics_free(ms);
		errno = -r;
		return NULL;
	}
	return ms;
}

PERFEV_API int perfev_metrics_value(const struct perfev_metrics *ms, const struct perfev_stat *s,
				    size_t idx, size_t line, struct perfev_metric_value *out)
{
	if (!ms || !s || idx >= ms->n || !out)
		return pv_error(EINVAL, "perfev_metrics_value: no such metric (%zu)", idx);
	const struct metric *mt = &ms->m[idx];
	memset(out, 0, sizeof(*out));
	out->info = mt->info;
	out->nr_groups = mt->nr_groups;
	out->pcnt_running = 100.0;
	size_t nv = perfev_metric_expr_nr_vars(mt->expr);
	double *vals = calloc(nv ? nv : 1, sizeof(double));
	if (!vals)
		return pv_error(ENOMEM, "out of memory");
	for (size_t v = 0; v < nv; v++) {
		const struct var_events *ve = &mt->vars[v];
		if (ve->duration) {
			vals[v] = s->elapsed.mean;
			continue;
		}
		if (ve->unknown && !out->status) {
			out->status = -ENOENT;
			out->missing = perfev_metric_expr_var(mt->expr, v);
			out->unknown_event = true;
		}
		for (size_t i = ve->first; i < ve->last; i++) {
			struct perfev_stat_value sv;
			const struct perfev_evsel *e = perfev_evlist_at(ms->list, i);
			if (perfev_stat_value(s, i, line, &sv) < 0)
				continue;
			if (sv.status || !sv.counted) {
				if (!out->status) {
					out->status = sv.status ? sv.status : -ENODATA;
					out->missing = perfev_evsel_name(e);
				}
				continue;
			}
			/* the sysfs alias's scale (uncore MiB) applies; otherwise the kernel's count */
			vals[v] += perfev_evsel_scale(e) != 1.0 ? sv.val : sv.raw;
			out->pcnt_running = PV_MIN(out->pcnt_running, sv.pcnt_running);
		}
	}
	out->value = out->status ? NAN : perfev_metric_expr_eval(mt->expr, vals) * mt->info->scale;
	free(vals);
	return 0;
}

/* ---- output ------------------------------------------------------------------------ */

static void why(const struct perfev_metric_value *v, char *buf, size_t len)
{
	buf[0] = 0;
	if (v->status) {
		char model[300] = "";
		perfev_cpu_model_mismatch(model, sizeof(model));
		struct perfev_cpu_model cm = {.sz = sizeof(cm)};
		if (v->unknown_event) {
			perfev_cpu_model_get(&cm);
			if (cm.name && !cm.tables_present)
				snprintf(buf, len, "%s: this build of libpfm4 has no %s table (Arm's are only in "
					 "Arm builds)", v->missing, cm.name);
			else
				snprintf(buf, len, "%s: not an event of %s (its libpfm4 table has none)", v->missing,
					 cm.name ? cm.name : cm.cpuid);
			return;
		}
		snprintf(buf, len, "%s: %s", v->missing ? v->missing : "an input",
			 v->status == -ENODATA ? "not counted (it never ran)"
			 : *model && v->status != -EACCES && v->status != -EPERM ? model
			 : v->status == -ENOENT ? "no PMU here counts it (ENOENT): this machine has no such counter"
			 : v->status == -ENODEV ? "the PMU is absent (ENODEV)"
			 : v->status == -EOPNOTSUPP ? "the PMU cannot count this (EOPNOTSUPP)"
			 : strerror(-v->status));
	} else if (isnan(v->value)) {
		snprintf(buf, len, "a divisor counted zero");
	} else if (v->pcnt_running < 100.0) {
		snprintf(buf, len, "multiplexed: inputs counted %.2f%% of the time, scaled up", v->pcnt_running);
	}
	if (v->nr_groups > 1) {
		size_t o = strlen(buf);
		snprintf(buf + o, len - o, "%sevents split into %u groups", o ? "; " : "", v->nr_groups);
	}
}

void pv_metrics_format(const struct perfev_metrics *ms, const struct perfev_stat *s, struct pv_buf *b,
		       const struct perfev_stat_output *o, bool metric_only, const char *sep)
{
	if (!ms || !ms->n)
		return;
	if (o->format == PERFEV_STAT_TEXT && metric_only) {
		/* perf's --metric-only: a row of names, a row of units, a row of values */
		int w[64];
		size_t n = PV_MIN(ms->n, PV_ARRAY_SIZE(w));
		for (size_t i = 0; i < n; i++)
			w[i] = (int)PV_MAX(PV_MAX(strlen(ms->m[i].info->name), strlen(ms->m[i].info->unit)), 15);
		pv_buf_puts(b, " ");
		for (size_t i = 0; i < n; i++)
			pv_buf_printf(b, " %*s", w[i], ms->m[i].info->name);
		pv_buf_puts(b, "\n ");
		for (size_t i = 0; i < n; i++)
			pv_buf_printf(b, " %*s", w[i], ms->m[i].info->unit);
		pv_buf_puts(b, "\n ");
		for (size_t i = 0; i < n; i++) {
			struct perfev_metric_value v;
			perfev_metrics_value(ms, s, i, 0, &v);
			if (v.status)
				pv_buf_printf(b, " %*s", w[i], "<not supported>");
			else
				pv_buf_printf(b, " %*.2f", w[i], v.value);
		}
		pv_buf_putc(b, '\n');
		for (size_t i = 0; i < n; i++) {
			struct perfev_metric_value v;
			char note[512];
			perfev_metrics_value(ms, s, i, 0, &v);
			why(&v, note, sizeof(note));
			if (*note)
				pv_buf_printf(b, "  # %s: %s\n", ms->m[i].info->name, note);
		}
		return;
	}
	if (o->format == PERFEV_STAT_TEXT)
		pv_buf_puts(b, "\n");
	for (size_t i = 0; i < ms->n; i++) {
		for (size_t line = 0; line < s->nlines; line++) {
			struct perfev_metric_value v;
			char note[512];
			perfev_metrics_value(ms, s, i, line, &v);
			why(&v, note, sizeof(note));
			const struct perfev_metric_info *m = ms->m[i].info;
			if (o->format == PERFEV_STAT_CSV) {
				if (v.status || isnan(v.value))
					pv_buf_printf(b, "<not supported>%s%s%s%s%s%s\n", sep, m->unit, sep, m->name, sep, note);
				else
					pv_buf_printf(b, "%.6f%s%s%s%s%s%s\n", v.value, sep, m->unit, sep, m->name, sep, note);
			} else if (o->format == PERFEV_STAT_JSON) {
				pv_buf_puts(b, "{\"metric\" : ");
				pv_buf_json_str(b, m->name);
				if (v.status || isnan(v.value))
					pv_buf_puts(b, ", \"metric-value\" : null");
				else
					pv_buf_printf(b, ", \"metric-value\" : %f", v.value);
				pv_buf_puts(b, ", \"metric-unit\" : ");
				pv_buf_json_str(b, m->unit);
				pv_buf_printf(b, ", \"pcnt-running\" : %.2f, \"groups\" : %u, \"note\" : ",
					      v.pcnt_running, v.nr_groups);
				pv_buf_json_str(b, note);
				pv_buf_puts(b, "}\n");
			} else if (v.status || isnan(v.value)) {
				pv_buf_printf(b, " %18s      %-36s # %s\n", "<not supported>", m->name, note);
			} else {
				pv_buf_printf(b, " %18.2f %-5s %-36s%s%s\n", v.value, m->unit, m->name,
					      *note ? " # " : "", note);
			}
		}
	}
}

PERFEV_API int perfev_metrics_print(const struct perfev_metrics *ms, const struct perfev_stat *s,
				    FILE *f, const struct perfev_stat_output *o, bool metric_only)
{
	if (!PV_OPTS_VALID(o, perfev_stat_output))
		return -errno;
	struct perfev_stat_output def; /* NULL, or an older struct's missing fields: text */
	PV_OPTS_COPY(def, o);
	struct pv_buf b = PV_BUF_INIT;
	pv_metrics_format(ms, s, &b, &def, metric_only, def.sep ? def.sep : ",");
	int r = 0;
	if (b.oom)
		r = pv_error(ENOMEM, "out of memory");
	else if (b.len && fwrite(b.data, 1, b.len, f) != b.len)
		r = pv_error(EIO, "cannot write the metrics: %s", strerror(errno));
	pv_buf_free(&b);
	return r;
}
