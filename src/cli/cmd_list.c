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
};

static const char *access_text(const struct perfev_event_info *ev, char *buf, size_t len)
{
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
		json_str("access", access_key[ev->access]);
		json_str("note", ev->access == PERFEV_ACCESS_UNKNOWN ? NULL : access_text(ev, buf, sizeof(buf)));
		printf("}");
	} else {
		if (!o->n || ev->klass != o->last)
			printf("\n%s events:\n", ev->class_name);
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

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev list [PATTERN] [--json]\n\n"
		   "Lists every event usable in -e here, each probed once to show what the current\n"
		   "permissions allow. PATTERN is a class (hw, sw, cache, pmu, tracepoint,\n"
		   "breakpoint, raw), a PMU name, a glob ('sched:*') or a word in the name.\n");
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
