/* report_tp.c — perfev report --sort by tracepoint fields (perf's dynamic
 * keys), which tp_report.c prints as perf does. */
#define _GNU_SOURCE
#include "view/report_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int pv_report_tracepoint_sort(struct perfev_perfdata *pd, const char *sort, bool no_hint, FILE *out)
{
	char *copy = strdup(sort), *save = NULL;
	if (!copy)
		return pv_error(ENOMEM, "out of memory");
	bool any_standard = false;
	for (char *k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		while (*k == ' ')
			k++;
		any_standard |= pv_report_is_sort_key(k);
	}
	free(copy);
	if (any_standard)
		return -ENOENT; /* the profile's keys (mixing both kinds is not supported) */
	struct perfev_tp_report_opts to = {.sz = sizeof(to), .no_header_hint = no_hint};
	int r = perfev_tp_report_with(pd, sort, out, &to);
	if (r == -ENOENT)
		return pv_error(EINVAL, "%s (the keys are " PV_REPORT_SORT_KEYS ", or tracepoint fields: FIELD, "
				"EVENT.FIELD, SYS:EVENT.FIELD, trace)", perfev_errmsg());
	return r;
}
