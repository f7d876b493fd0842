/* Event lists built by hand: groups, names, details. */
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static struct perfev_attr sw(unsigned long long config)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = config;
	return a;
}

Test(unit_evlist, add_and_group)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = sw(PERF_COUNT_SW_TASK_CLOCK), b = sw(PERF_COUNT_SW_PAGE_FAULTS);
	struct perfev_evsel *e0 = perfev_evlist_add(l, &a, "task-clock");
	struct perfev_evsel *e1 = perfev_evlist_add(l, &b, NULL);
	struct perfev_evsel *e2 = perfev_evlist_add(l, &b, "faults");
	cr_assert(e0 && e1 && e2);
	cr_assert_eq(perfev_evlist_count(l), 3);
	cr_assert_str_eq(perfev_evsel_name(e1), "1:0x2");
	cr_assert_eq(perfev_evsel_attr(e0)->size, PERFEV_ATTR_SIZE_LATEST);
	cr_assert_eq(perfev_evsel_set_leader(e1, e0), 0);
	cr_assert_eq(perfev_evsel_set_leader(e2, e0), 0);
	cr_assert_eq(perfev_evsel_group_size(e0), 3);
	cr_assert_eq(perfev_evsel_leader(e2), e0);
	cr_assert(perfev_evsel_is_leader(e0));
	cr_assert_not(perfev_evsel_is_leader(e1));
	/* a member cannot lead, and a later event cannot lead an earlier one */
	cr_assert_eq(perfev_evsel_set_leader(e2, e1), -EINVAL);
	cr_assert(strstr(perfev_errmsg(), "cannot lead"));
	cr_assert_null(perfev_evlist_at(l, 3));
	cr_assert_eq(errno, ERANGE);
	perfev_evlist_free(l);
	perfev_evlist_free(NULL);
}

Test(unit_evlist, details)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_attr a = sw(0);
	struct perfev_evsel *e = perfev_evlist_add(l, &a, "x");
	cr_assert_float_eq(perfev_evsel_scale(e), 1.0, 1e-12);
	cr_assert_str_eq(perfev_evsel_unit(e), "");
	cr_assert_eq(perfev_evsel_set_scale_unit(e, 2.3283064365386962890625e-10, "Joules"), 0);
	cr_assert_str_eq(perfev_evsel_unit(e), "Joules");
	cr_assert_eq(perfev_evsel_set_filter(e, "common_pid == 1"), 0);
	cr_assert_str_eq(perfev_evsel_filter(e), "common_pid == 1");
	cr_assert_eq(perfev_evsel_set_filter(e, NULL), 0);
	cr_assert_null(perfev_evsel_filter(e));
	cr_assert_eq(perfev_evsel_set_pmu_name(e, "msr"), 0);
	cr_assert_str_eq(perfev_evsel_pmu_name(e), "msr");
	perfev_evlist_free(l);
}

Test(unit_evlist, evsel_to_json)
{
	struct perfev_evlist *l = perfev_evlist_new();
	cr_assert_eq(perfev_evlist_parse(l, "page-faults:u,{cpu-clock,task-clock}", NULL), 0, "%s", perfev_errmsg());
	char *j = perfev_evsel_to_json(perfev_evlist_at(l, 0));
	cr_assert_not_null(j, "%s", perfev_errmsg());
	/* the attr's object (perfev_attr_to_json) with the "perfev" key appended */
	char *attr = perfev_attr_to_json(perfev_evsel_attr_const(perfev_evlist_at(l, 0)));
	cr_assert(!strncmp(j, attr, strlen(attr) - 1), "%s", j);
	cr_assert(strstr(j, "\"exclude_kernel\": 1"), "%s", j);
	cr_assert(strstr(j, ", \"perfev\": {\"name\": \"page-faults:u\", \"index\": 0, \"leader\": 0, "
			    "\"group_name\": \"\", \"pmu\": \"\", \"scale\": 1, \"unit\": \"\", \"flags\": "),
		  "%s", j);
	cr_assert(!strcmp(j + strlen(j) - 2, "}}"), "%s", j);
	free(attr);
	free(j);
	/* the group's second event names its leader */
	j = perfev_evsel_to_json(perfev_evlist_at(l, 2));
	cr_assert(strstr(j, "\"name\": \"task-clock\", \"index\": 2, \"leader\": 1,"), "%s", j);
	free(j);
	errno = 0;
	cr_assert_null(perfev_evsel_to_json(NULL));
	cr_assert_eq(errno, EINVAL);
	perfev_evlist_free(l);
}
