/*
 * list_print.c — `perfev list` for people and for programs: the permissions,
 * then every event (perfev_events_foreach) in text or JSON. The metric
 * table's listing is count/metric_list.c's.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "event/list_int.h"
#include "perfev/pmu.h"

#include <errno.h>
#include <string.h>

struct out {
	FILE *f;
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

void pv_list_json_key(FILE *f, const char *key, const char *s)
{
	struct pv_buf b = PV_BUF_INIT;
	pv_buf_printf(&b, ", \"%s\": ", key);
	if (s)
		pv_buf_json_str(&b, s);
	else
		pv_buf_puts(&b, "null");
	fputs(b.data ? b.data : "", f);
	pv_buf_free(&b);
}

static const char *const access_key[] = {"unknown", "full", "user-only", "denied", "unsupported"};

static void event_json(struct out *o, const struct perfev_event_info *ev)
{
	char buf[256];
	FILE *f = o->f;
	fprintf(f, "%s  {\"class\": \"%s\"", o->n ? ",\n" : "", ev->class_name);
	pv_list_json_key(f, "name", ev->name);
	pv_list_json_key(f, "alias", ev->alias);
	pv_list_json_key(f, "pmu", ev->pmu);
	pv_list_json_key(f, "description", ev->desc);
	fprintf(f, ", \"type\": %u, \"config\": %llu", ev->attr.type, (unsigned long long)ev->attr.config);
	if (ev->klass == PERFEV_CLASS_VENDOR) {
		fprintf(f, ", \"config1\": %llu, \"config2\": %llu", (unsigned long long)ev->attr.config1,
			(unsigned long long)ev->attr.config2);
		snprintf(buf, sizeof(buf), "%s/config=%#llx%s/", ev->pmu ? ev->pmu : "cpu",
			 (unsigned long long)ev->attr.config, "");
		if (ev->attr.config1)
			snprintf(buf, sizeof(buf), "%s/config=%#llx,config1=%#llx/", ev->pmu ? ev->pmu : "cpu",
				 (unsigned long long)ev->attr.config, (unsigned long long)ev->attr.config1);
		pv_list_json_key(f, "encoding", buf);
		pv_list_json_key(f, "topic", ev->topic);
		pv_list_json_key(f, "model", o->model.name);
		pv_list_json_key(f, "cpuid", o->model.cpuid);
	}
	pv_list_json_key(f, "access", access_key[ev->access]);
	pv_list_json_key(f, "note", ev->access == PERFEV_ACCESS_UNKNOWN ? NULL : access_text(ev, buf, sizeof(buf)));
	fputs("}", f);
}

static void event_text(struct out *o, const struct perfev_event_info *ev)
{
	char buf[256];
	FILE *f = o->f;
	if (ev->klass == PERFEV_CLASS_VENDOR) {
		/* grouped as perf groups them: by PMU, then topic */
		if (ev->klass != o->last || !o->last_topic || strcmp(o->last_topic, ev->topic) ||
		    strcmp(o->last_pmu, ev->pmu))
			fprintf(f, "\n%s (%s%s, %s), %s:\n", o->model.name ? o->model.name : "vendor",
				o->model.cpuid, o->model.overridden ? " from PERF_CPUID" : "", ev->pmu, ev->topic);
		o->last_topic = ev->topic;
		o->last_pmu = ev->pmu;
	} else if (!o->n || ev->klass != o->last) {
		fprintf(f, "\n%s events:\n", ev->class_name);
	}
	char name[512];
	snprintf(name, sizeof(name), "%s%s%s", ev->name, ev->alias ? " OR " : "", ev->alias ? ev->alias : "");
	fprintf(f, "  %-44s [%s]\n", name, access_text(ev, buf, sizeof(buf)));
	if (ev->desc)
		fprintf(f, "  %-44s  %s\n", "", ev->desc);
}

static int print_event(void *ctx, const struct perfev_event_info *ev)
{
	struct out *o = ctx;
	if (o->json)
		event_json(o, ev);
	else
		event_text(o, ev);
	o->last = ev->klass;
	o->n++;
	return 0;
}

static void print_permissions(FILE *f, bool json)
{
	struct perfev_permissions p;
	perfev_permissions_get(&p);
	if (json) {
		fprintf(f, "{\"permissions\": {\"perf_event_paranoid\": %lld, \"root\": %s, \"cap_perfmon\": %s, "
			   "\"kernel\": %s, \"cpu_wide\": %s, \"tracepoint_raw\": %s, \"any_process\": %s},\n"
			   " \"events\": [\n",
			(long long)p.paranoid, p.root ? "true" : "false", p.cap_perfmon ? "true" : "false",
			p.kernel ? "true" : "false", p.cpu_wide ? "true" : "false",
			p.tracepoint_raw ? "true" : "false", p.any_process ? "true" : "false");
		return;
	}
	fprintf(f, "Permissions: perf_event_paranoid=%lld, %s%s.\n", (long long)p.paranoid,
		p.root ? "running as root" : "not root", p.cap_perfmon ? ", CAP_PERFMON held" : "");
	fprintf(f, "  kernel code in own processes: %s; whole CPUs (-a, -C): %s; other users' processes: %s;\n"
		   "  tracepoint raw data: %s.\n",
		p.kernel ? "yes" : "no (user space only)", p.cpu_wide ? "yes" : "no", p.any_process ? "yes" : "no",
		p.tracepoint_raw ? "yes" : "no");
	if (!p.kernel || !p.cpu_wide)
		fprintf(f, "  To allow more: run as root, grant CAP_PERFMON (setcap cap_perfmon+ep), or lower\n"
			   "  /proc/sys/kernel/perf_event_paranoid (1: kernel, 0: CPU-wide, -1: everything).\n");
}

PERFEV_API int perfev_list_print(FILE *f, const char *pattern, const struct perfev_list_print_opts *opts)
{
	if (!PV_OPTS_VALID(opts, perfev_list_print_opts))
		return -errno;
	if (!f)
		return pv_error(EINVAL, "perfev_list_print: no output stream");
	struct out o = {.f = f, .json = PV_OPTS_GET(opts, json, false)};
	o.model.sz = sizeof(o.model);
	perfev_cpu_model_get(&o.model);
	print_permissions(f, o.json);
	int n = perfev_events_foreach(pattern, PV_OPTS_GET(opts, flags, 0u), print_event, &o);
	int err = n < 0 ? errno : 0;
	if (o.json)
		fputs("\n]}\n", f);
	else if (n == 0)
		fprintf(f, "\nNo event matches '%s'.\n", pattern ? pattern : "");
	errno = err;
	return n;
}
