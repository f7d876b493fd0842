/* cmd_list.c — `perfev list [PATTERN] [--json]`: the events usable here and what they need. */
#include "cli.h"
#include "core/internal.h"
#include "perfev.h"

#include <errno.h>
#include <string.h>

struct out {
	bool json;
	int n;
	enum perfev_event_class last;
	const char *last_topic, *last_pmu;
	struct perfev_cpu_model model;
};

static const char *access_text(const struct perfev_event_info *ev, char *buf, size_t len)
{
	if (ev->klass == PERFEV_CLASS_VENDOR && ev->access != PERFEV_ACCESS_FULL &&
	    ev->access != PERFEV_ACCESS_USER_ONLY && *perfev_cpu_model_mismatch(buf, len)) {
		return buf;
	}
	switch (ev->access) {
	case PERFEV_ACCESS_FULL: return "usable";
	case PERFEV_ACCESS_USER_ONLY: return "user space only (perf_event_paranoid; root or CAP_PERFMON lifts it)";
	case PERFEV_ACCESS_DENIED:
		snprintf(buf, len, "denied: %s (root or CAP_PERFMON, or lower perf_event_paranoid)", strerror(ev->err));
		return buf;
	case PERFEV_ACCESS_UNSUPPORTED:
		snprintf(buf, len, "not supported here: %s",
			 ev->err == ENOENT ? "no PMU here counts it (ENOENT)"
			 : ev->err == ENODEV ? "the PMU is absent (ENODEV)"
			 : ev->err == EOPNOTSUPP ? "the PMU cannot do this (EOPNOTSUPP)"
			 : ev->err == EINVAL ? "the PMU rejects this configuration (EINVAL)"
			 : strerror(ev->err));
		return buf;
	default: return "syntax";
	}
}

static void json_str(const char *key, const char *s)
{
	struct pv_buf b = PV_BUF_INIT;
	pv_buf_printf(&b, ", \"%s\": ", key);
	if (s)
		pv_buf_json_str(&b, s);
	else
		pv_buf_puts(&b, "null");
	fputs(b.data ? b.data : "", stdout);
	pv_buf_free(&b);
}

static const char *const access_key[] = {"unknown", "full", "user-only", "denied", "unsupported"};

static int print_event(void *arg, const struct perfev_event_info *ev)
{
	struct out *o = arg;
	char buf[256];
	if (o->json) {
		printf("%s  {\"class\": \"%s\"", o->n ? ",\n" : "", ev->class_name);
		json_str("name", ev->name);
		json_str("alias", ev->alias);
		json_str("pmu", ev->pmu);
		json_str("description", ev->desc);
		printf(", \"type\": %u, \"config\": %llu", ev->attr.type, (unsigned long long)ev->attr.config);
		if (ev->klass == PERFEV_CLASS_VENDOR) {
			printf(", \"config1\": %llu, \"config2\": %llu",
			       (unsigned long long)ev->attr.config1, (unsigned long long)ev->attr.config2);
			snprintf(buf, sizeof(buf), "%s/config=%#llx%s/", ev->pmu ? ev->pmu : "cpu",
				 (unsigned long long)ev->attr.config, "");
			if (ev->attr.config1)
				snprintf(buf, sizeof(buf), "%s/config=%#llx,config1=%#llx/", ev->pmu ? ev->pmu : "cpu",
					 (unsigned long long)ev->attr.config, (unsigned long long)ev->attr.config1);
			json_str("encoding", buf);
			json_str("topic", ev->topic);
			json_str("model", o->model.name);
			json_str("cpuid", o->model.cpuid);
		}
		json_str("access", access_key[ev->access]);
		json_str("note", ev->access == PERFEV_ACCESS_UNKNOWN ? NULL : access_text(ev, buf, sizeof(buf)));
		printf("}");
	} else {
		if (ev->klass == PERFEV_CLASS_VENDOR) {
			/* grouped as perf groups them: by PMU, then topic */
			if (ev->klass != o->last || !o->last_topic || strcmp(o->last_topic, ev->topic) ||
			    strcmp(o->last_pmu, ev->pmu))
				printf("\n%s (%s%s, %s), %s:\n", o->model.name ? o->model.name : "vendor",
				       o->model.cpuid, o->model.overridden ? " from PERF_CPUID" : "",
				       ev->pmu, ev->topic);
			o->last_topic = ev->topic;
			o->last_pmu = ev->pmu;
		} else if (!o->n || ev->klass != o->last) {
			printf("\n%s events:\n", ev->class_name);
		}
		char name[512];
		snprintf(name, sizeof(name), "%s%s%s", ev->name, ev->alias ? " OR " : "",
			 ev->alias ? ev->alias : "");
		printf("  %-44s [%s]\n", name, access_text(ev, buf, sizeof(buf)));
		if (ev->desc)
			printf("  %-44s  %s\n", "", ev->desc);
	}
	o->last = ev->klass;
	o->n++;
	return 0;
}

static void print_permissions(bool json)
{
	struct perfev_permissions p;
	perfev_permissions_get(&p);
	if (json) {
		printf("{\"permissions\": {\"perf_event_paranoid\": %lld, \"root\": %s, \"cap_perfmon\": %s, "
		       "\"kernel\": %s, \"cpu_wide\": %s, \"tracepoint_raw\": %s, \"any_process\": %s},\n"
		       " \"events\": [\n",
		       (long long)p.paranoid, p.root ? "true" : "false", p.cap_perfmon ? "true" : "false",
		       p.kernel ? "true" : "false", p.cpu_wide ? "true" : "false",
		       p.tracepoint_raw ? "true" : "false", p.any_process ? "true" : "false");
		return;
	}
	printf("Permissions: perf_event_paranoid=%lld, %s%s.\n", (long long)p.paranoid,
	       p.root ? "running as root" : "not root", p.cap_perfmon ? ", CAP_PERFMON held" : "");
	printf("  kernel code in own processes: %s; whole CPUs (-a, -C): %s; other users' processes: %s;\n"
	       "  tracepoint raw data: %s.\n",
	       p.kernel ? "yes" : "no (user space only)", p.cpu_wide ? "yes" : "no",
	       p.any_process ? "yes" : "no", p.tracepoint_raw ? "yes" : "no");
	if (!p.kernel || !p.cpu_wide)
		printf("  To allow more: run as root, grant CAP_PERFMON (setcap cap_perfmon+ep), or lower\n"
		       "  /proc/sys/kernel/perf_event_paranoid (1: kernel, 0: CPU-wide, -1: everything).\n");
}

/* ---- perfev list metrics / metricgroups ---- */

struct mlist {
	bool json;
	int n;
	char groups[64][64];
	int ngroups;
};

static int print_metric(void *arg, const struct perfev_metric_info *m)
{
	struct mlist *l = arg;
	if (l->json) {
		printf("%s  {\"name\": ", l->n ? ",\n" : "");
		struct pv_buf b = PV_BUF_INIT;
		pv_buf_json_str(&b, m->name);
		fputs(b.data ? b.data : "\"\"", stdout);
		pv_buf_free(&b);
		json_str("groups", m->groups);
		json_str("expr", m->expr);
		json_str("unit", m->unit);
		printf(", \"scale\": %g", m->scale);
		json_str("description", m->desc);
		json_str("source", m->source);
		json_str("models", m->models);
		printf("}");
	} else {
		printf("  %-32s [%s] %s\n", m->name, m->unit, m->desc);
		printf("  %-32s  = %s%s\n", "", m->expr, m->scale != 1 ? (m->scale == 100 ? " (x 100)" : " (scaled)") : "");
		printf("  %-32s  groups: %s; source: %s\n", "", m->groups, m->source);
	}
	l->n++;
	return 0;
}

static int note_groups(void *arg, const struct perfev_metric_info *m)
{
	struct mlist *l = arg;
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

static int group_member(void *arg, const struct perfev_metric_info *m)
{
	struct group_walk *g = arg;
	char key[80];
	snprintf(key, sizeof(key), ";%s;", g->group);
	char all[256];
	snprintf(all, sizeof(all), ";%s;", m->groups);
	if (strstr(all, key))
		pv_buf_printf(g->b, "%s%s", g->b->len ? ", " : "", m->name);
	return 0;
}

static int list_metrics(bool json, bool groups)
{
	struct mlist l = {.json = json};
	struct perfev_cpu_model model = {.sz = sizeof(model)};
	perfev_cpu_model_get(&model);
	if (json)
		printf("{\"model\": \"%s\", \"cpuid\": \"%s\", \"%s\": [\n", model.name ? model.name : "",
		       model.cpuid, groups ? "metricgroups" : "metrics");
	else
		printf("%s for %s (%s%s):\n", groups ? "Metric groups" : "Metrics",
		       model.name ? model.name : "this CPU (no vendor table: generic metrics only)",
		       model.cpuid, model.overridden ? ", from PERF_CPUID" : "");
	if (!groups) {
		perfev_metrics_foreach(NULL, print_metric, &l);
	} else {
		perfev_metrics_foreach(NULL, note_groups, &l);
		for (int i = 0; i < l.ngroups; i++) {
			struct pv_buf b = PV_BUF_INIT;
			struct group_walk g = {l.groups[i], &b};
			perfev_metrics_foreach(NULL, group_member, &g);
			if (json) {
				printf("%s  {\"group\": \"%s\"", i ? ",\n" : "", l.groups[i]);
				json_str("metrics", b.data);
				printf("}");
			} else {
				printf("  %-24s %s\n", l.groups[i], b.data ? b.data : "");
			}
			pv_buf_free(&b);
		}
	}
	if (json)
		printf("\n]}\n");
	return 0;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev list [PATTERN] [--json]\n\n"
		   "Lists every event usable in -e here, each probed once to show what the current\n"
		   "permissions allow. PATTERN is a class (hw, sw, cache, pmu, tracepoint,\n"
		   "breakpoint, raw, vendor), a PMU name, a vendor topic (pipeline, frontend, ...),\n"
		   "a glob ('sched:*') or a word in the name. Vendor events are the CPU model's\n"
		   "(libpfm4's tables), under perf's names OR libpfm4's; PERF_CPUID=MODEL (e.g.\n"
		   "GenuineIntel-6-55-4) lists another model's. 'perfev list metrics' shows the\n"
		   "metrics (-M) with their formulas and sources, 'perfev list metricgroups' their groups.\n");
}

static int cmd_list(int argc, char **argv)
{
	struct out o = {0};
	const char *pattern = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			o.json = true;
		else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (argv[i][0] == '-')
			return cli_usage_error("list", usage, "unknown option '%s'", argv[i]);
		else if (pattern)
			return cli_usage_error("list", usage, "one PATTERN only ('%s' and '%s'); a glob can match several",
					 pattern, argv[i]);
		else
			pattern = argv[i];
	}
	if (pattern && (!strcmp(pattern, "metrics") || !strcmp(pattern, "metric") ||
			!strcmp(pattern, "metricgroups") || !strcmp(pattern, "metricgroup")))
		return list_metrics(o.json, !strncmp(pattern, "metricgroup", 11));
	o.model.sz = sizeof(o.model);
	perfev_cpu_model_get(&o.model);
	print_permissions(o.json);
	int n = perfev_events_foreach(pattern, PERFEV_LIST_PROBE, print_event, &o);
	if (o.json)
		printf("\n]}\n");
	if (n < 0)
		return cli_error("list", "%s", perfev_errmsg());
	if (!o.json && n == 0)
		printf("\nNo event matches '%s'.\n", pattern ? pattern : "");
	return 0;
}
CLI_COMMAND(list, cmd_list, "list the events usable here and what permissions allow");
