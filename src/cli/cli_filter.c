/* cli_filter.c — --filter EXPR for the event given just before it, as perf:
 * a tracepoint's filter, checked against its format before the kernel
 * (which only answers EINVAL) sees it. */
#include "cli_events.h"

#include <stdio.h>

int cli_set_filter(const char *cmd, struct perfev_evlist *list, size_t idx, const char *filter)
{
	struct perfev_evsel *e = idx < perfev_evlist_count(list) ? perfev_evlist_at(list, idx) : NULL;
	if (!e || perfev_evsel_attr_const(e)->type != PERF_TYPE_TRACEPOINT) {
		fprintf(stderr, "perfev %s: --filter '%s' must follow a -e tracepoint (it applies to the "
				"event given just before it)%s%s\n", cmd, filter, e ? "; not to " : "",
			e ? perfev_evsel_name(e) : "");
		return -1;
	}
	uint64_t id = perfev_evsel_attr_const(e)->config;
	struct perfev_tp *tp = perfev_tp_new();
	int r = tp ? perfev_tp_load_id(tp, id) : -1;
	if (r == 0 && perfev_tp_filter_check(tp, id, filter) < 0) {
		fprintf(stderr, "perfev %s: %s\n", cmd, perfev_errmsg());
		perfev_tp_free(tp);
		return -1;
	}
	perfev_tp_free(tp);
	if (perfev_evsel_set_filter(e, filter) < 0) {
		fprintf(stderr, "perfev %s: %s\n", cmd, perfev_errmsg());
		return -1;
	}
	return 0;
}
