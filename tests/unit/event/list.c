/* The event lister: classes, patterns, cache combinations. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int count_class(void *arg, const struct perfev_event_info *ev)
{
	int *n = arg;
	n[ev->klass]++;
	cr_assert_not_null(ev->name);
	cr_assert_not_null(ev->class_name);
	return 0;
}

Test(unit_list, classes_and_patterns)
{
	int n[8] = {0};
	int total = perfev_events_foreach("cache", 0, count_class, n);
	/* every op perf accepts per cache (L1d 3, L1i 2, LLC 3, dTLB 3, iTLB 1, branch 1, node 3), refs and misses */
	cr_assert_eq(total, 32);
	cr_assert_eq(n[PERFEV_CLASS_CACHE], 32);
	memset(n, 0, sizeof(n));
	cr_assert_eq(perfev_events_foreach("hw", 0, count_class, n), 10);
	memset(n, 0, sizeof(n));
	cr_assert_geq(perfev_events_foreach("sw", 0, count_class, n), 12);
	cr_assert_eq(n[PERFEV_CLASS_HARDWARE], 0);
	/* a plain word matches names or aliases containing it */
	memset(n, 0, sizeof(n));
	cr_assert_geq(perfev_events_foreach("faults", 0, count_class, n), 5);
	cr_assert_eq(perfev_events_foreach("no-event-is-called-this", 0, count_class, n), 0);
	cr_assert_eq(perfev_events_foreach("mem:*", 0, NULL, NULL), 1);
}

static int stop_at_first(void *arg, const struct perfev_event_info *ev) { return 5; }

Test(unit_list, stop_and_every_name_parses)
{
	cr_assert_eq(perfev_events_foreach(NULL, 0, stop_at_first, NULL), 5);
}

static int parses(void *arg, const struct perfev_event_info *ev)
{
	if (ev->klass == PERFEV_CLASS_BREAKPOINT || ev->klass == PERFEV_CLASS_RAW ||
	    ev->klass == PERFEV_CLASS_TRACEPOINT)
		return 0;
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_parse_error err;
	cr_assert_eq(perfev_evlist_parse(l, ev->name, &err), 0, "listed '%s' does not parse: %s",
		     ev->name, err.msg);
	const struct perfev_attr *a = perfev_evsel_attr_const(perfev_evlist_at(l, 0));
	cr_assert(a->type == ev->attr.type && a->config == ev->attr.config, "%s", ev->name);
	if (ev->alias)
		cr_assert_eq(perfev_evlist_parse(l, ev->alias, &err), 0, "alias '%s'", ev->alias);
	perfev_evlist_free(l);
	(*(int *)arg)++;
	return 0;
}

Test(unit_list, listed_names_parse_to_their_attr)
{
	int n = 0;
	perfev_events_foreach(NULL, 0, parses, &n);
	cr_assert_geq(n, 10 + 12 + 32);
}

/* perfev_list_print into a string: its return, the text in *out (freed by the caller). */
static int list_print(const char *pattern, bool json, char **out)
{
	size_t len;
	FILE *f = open_memstream(out, &len);
	cr_assert_not_null(f);
	struct perfev_list_print_opts o = {.sz = sizeof(o), .json = json};
	int n = perfev_list_print(f, pattern, &o);
	fclose(f);
	return n;
}

Test(unit_list, print_text_and_json)
{
	char *t = NULL;
	int n = list_print("sw", false, &t);
	cr_assert_geq(n, 12);
	cr_assert_eq(n, perfev_events_foreach("sw", 0, count_class, (int[16]){0}));
	cr_assert(!strncmp(t, "Permissions: perf_event_paranoid=", 33), "%s", t);
	cr_assert(strstr(t, "\nsoftware events:\n"), "%s", t);
	cr_assert(strstr(t, "\n  task-clock "), "%s", t);
	cr_assert_null(strstr(t, "hardware events:"), "sw lists no hardware event");
	free(t);

	n = list_print("sw", true, &t);
	cr_assert_geq(n, 12);
	cr_assert(!strncmp(t, "{\"permissions\": {\"perf_event_paranoid\": ", 40), "%s", t);
	cr_assert(strstr(t, "\"events\": [\n  {\"class\": \"software\", \"name\": "), "%s", t);
	cr_assert(strstr(t, "\"name\": \"task-clock\""), "%s", t);
	cr_assert(strstr(t, "\"access\": \"unknown\", \"note\": null}"), "not probed: %s", t);
	size_t len = strlen(t);
	cr_assert(len > 4 && !strcmp(t + len - 4, "\n]}\n"), "%s", t + len - 10);
	free(t);
}

Test(unit_list, print_nothing_matches_and_bad_opts)
{
	char *t = NULL;
	cr_assert_eq(list_print("no-event-is-called-this", false, &t), 0);
	size_t len = strlen(t);
	const char *tail = "\nNo event matches 'no-event-is-called-this'.\n";
	cr_assert(len > strlen(tail) && !strcmp(t + len - strlen(tail), tail), "%s", t);
	free(t);
	cr_assert_eq(list_print("no-event-is-called-this", true, &t), 0);
	cr_assert(strstr(t, "\"events\": [\n\n]}\n"), "%s", t);
	free(t);

	struct { struct perfev_list_print_opts o; long more; } big = {{.sz = sizeof(big)}, 1};
	cr_assert_eq(perfev_list_print(stdout, NULL, &big.o), -EINVAL);
	cr_assert_eq(perfev_list_print(NULL, NULL, NULL), -EINVAL);
	cr_assert_eq(perfev_metrics_list_print(NULL, false, NULL), -EINVAL);
}

static int count_metric(void *ctx, const struct perfev_metric_info *m)
{
	(void)m;
	++*(int *)ctx;
	return 0;
}

Test(unit_list, metrics_print)
{
	setenv("PERF_CPUID", "GenuineIntel-6-55-4", 1);
	int nmetrics = 0;
	perfev_metrics_foreach(NULL, count_metric, &nmetrics);
	cr_assert_gt(nmetrics, 10);
	char *t = NULL;
	size_t len;
	FILE *f = open_memstream(&t, &len);
	cr_assert_eq(perfev_metrics_list_print(f, false, NULL), nmetrics);
	fclose(f);
	const char *title = "Metrics for Skylake-SP (GenuineIntel-6-55-4, from PERF_CPUID):\n";
	cr_assert(!strncmp(t, title, strlen(title)), "%s", t);
	cr_assert(strstr(t, "\n  IPC "), "%s", t);
	char formula[64];
	snprintf(formula, sizeof(formula), "\n  %-32s  = ", "");
	cr_assert(strstr(t, formula), "a formula line: %s", t);
	cr_assert(strstr(t, "groups: "), "%s", t);
	free(t);

	struct perfev_list_print_opts o = {.sz = sizeof(o), .json = true};
	f = open_memstream(&t, &len);
	int ngroups = perfev_metrics_list_print(f, true, &o);
	fclose(f);
	cr_assert_gt(ngroups, 1);
	const char *head = "{\"model\": \"Skylake-SP\", \"cpuid\": \"GenuineIntel-6-55-4\", \"metricgroups\": [\n";
	cr_assert(!strncmp(t, head, strlen(head)), "%s", t);
	cr_assert(strstr(t, "{\"group\": \"TopdownL1\", \"metrics\": \""), "%s", t);
	len = strlen(t);
	cr_assert(!strcmp(t + len - 4, "\n]}\n"));
	/* one object per group */
	int objs = 0;
	for (const char *p = t; (p = strstr(p, "{\"group\": ")); p++)
		objs++;
	cr_assert_eq(objs, ngroups);
	free(t);
	unsetenv("PERF_CPUID");
}
