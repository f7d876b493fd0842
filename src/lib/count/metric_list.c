/*
 * metric_list.c — `perfev list metrics` and `perfev list metricgroups`: the
 * metric table of the current model (perfev_metrics_foreach), for people
 * or as JSON.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "event/list_int.h"
#include "perfev/metric.h"
#include "perfev/pmu.h"

#include <errno.h>
#include <string.h>

struct mlist {
	FILE *f;
	bool json;
	int n;
	char groups[64][64];
	int ngroups;
};

static int print_metric(void *ctx, const struct perfev_metric_info *m)
{
	struct mlist *l = ctx;
	FILE *f = l->f;
	if (l->json) {
		fprintf(f, "%s  {\"name\": ", l->n ? ",\n" : "");
		struct pv_buf b = PV_BUF_INIT;
		pv_buf_json_str(&b, m->name);
		fputs(b.data ? b.data : "\"\"", f);
		pv_buf_free(&b);
		pv_list_json_key(f, "groups", m->groups);
		pv_list_json_key(f, "expr", m->expr);
		pv_list_json_key(f, "unit", m->unit);
		fprintf(f, ", \"scale\": %g", m->scale);
		pv_list_json_key(f, "description", m->desc);
		pv_list_json_key(f, "source", m->source);
		pv_list_json_key(f, "models", m->models);
		fputs("}", f);
	} else {
		fprintf(f, "  %-32s [%s] %s\n", m->name, m->unit, m->desc);
		fprintf(f, "  %-32s  = %s%s\n", "", m->expr,
			m->scale != 1 ? (m->scale == 100 ? " (x 100)" : " (scaled)") : "");
		fprintf(f, "  %-32s  groups: %s; source: %s\n", "", m->groups, m->source);
	}
	l->n++;
	return 0;
}

static int note_groups(void *ctx, const struct perfev_metric_info *m)
{
	struct mlist *l = ctx;
	const char *p = m->groups;
	while (*p) {
		size_t n = strcspn(p, ";");
		bool seen = false;
		for (int i = 0; i < l->ngroups; i++)
			seen |= strlen(l->groups[i]) == n && !strncmp(l->groups[i], p, n);
		if (!seen && l->ngroups < 64 && n < 64)
			snprintf(l->groups[l->ngroups++], 64, "%.*s", (int)n, p);
		p += n + (p[n] == ';');
	}
	return 0;
}

struct group_walk {
	const char *group;
	struct pv_buf *b;
};

static int group_member(void *ctx, const struct perfev_metric_info *m)
{
	struct group_walk *g = ctx;
	char key[80];
	snprintf(key, sizeof(key), ";%s;", g->group);
	char all[256];
	snprintf(all, sizeof(all), ";%s;", m->groups);
	if (strstr(all, key))
		pv_buf_printf(g->b, "%s%s", g->b->len ? ", " : "", m->name);
	return 0;
}

static void print_groups(struct mlist *l)
{
	perfev_metrics_foreach(NULL, note_groups, l);
	for (int i = 0; i < l->ngroups; i++) {
		struct pv_buf b = PV_BUF_INIT;
		struct group_walk g = {l->groups[i], &b};
		perfev_metrics_foreach(NULL, group_member, &g);
		if (l->json) {
			fprintf(l->f, "%s  {\"group\": \"%s\"", i ? ",\n" : "", l->groups[i]);
			pv_list_json_key(l->f, "metrics", b.data);
			fputs("}", l->f);
		} else {
			fprintf(l->f, "  %-24s %s\n", l->groups[i], b.data ? b.data : "");
		}
		pv_buf_free(&b);
	}
}

PERFEV_API int perfev_metrics_list_print(FILE *f, bool groups, const struct perfev_list_print_opts *opts)
{
	if (!PV_OPTS_VALID(opts, perfev_list_print_opts))
		return -errno;
	if (!f)
		return pv_error(EINVAL, "perfev_metrics_list_print: no output stream");
	struct mlist l = {.f = f, .json = PV_OPTS_GET(opts, json, false)};
	struct perfev_cpu_model model = {.sz = sizeof(model)};
	perfev_cpu_model_get(&model);
	if (l.json)
		fprintf(f, "{\"model\": \"%s\", \"cpuid\": \"%s\", \"%s\": [\n", model.name ? model.name : "",
			model.cpuid, groups ? "metricgroups" : "metrics");
	else
		fprintf(f, "%s for %s (%s%s):\n", groups ? "Metric groups" : "Metrics",
			model.name ? model.name : "this CPU (no vendor table: generic metrics only)", model.cpuid,
			model.overridden ? ", from PERF_CPUID" : "");
	if (groups)
		print_groups(&l);
	else
		perfev_metrics_foreach(NULL, print_metric, &l);
	if (l.json)
		fputs("\n]}\n", f);
	return groups ? l.ngroups : l.n;
}
