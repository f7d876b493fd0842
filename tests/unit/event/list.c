/* The event lister: classes, patterns, cache combinations. */
#include "support.h"
#include "perfev.h"
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
