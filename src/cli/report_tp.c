/* report_tp.c — perfev report --sort by tracepoint fields (perf's dynamic
 * keys), which the library's perfev_tp_report prints as perf does. */
#define _GNU_SOURCE
#include "cli.h"
#include "report.h"
#include "perfev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int report_tracepoint_sort(const char *input, const char *sort)
{
	char *copy = strdup(sort), *save = NULL;
	bool any_standard = false;
	for (char *k = strtok_r(copy, ",", &save); copy && k; k = strtok_r(NULL, ",", &save)) {
		while (*k == ' ')
			k++;
		any_standard |= report_is_sort_key(k);
	}
	free(copy);
	if (any_standard)
		return -ENOENT; /* the profile's keys (mixing both kinds is not supported) */
	struct perfev_perfdata *pd = perfev_perfdata_open(input);
	if (!pd)
		return cli_error("report", "%s", perfev_errmsg());
	/* with --header, perf's hint line (the library's first) is left out */
	char *text = NULL;
	size_t len = 0;
	FILE *out = report_header_shown ? open_memstream(&text, &len) : stdout;
	int r = out ? perfev_tp_report(pd, sort, out) : -ENOMEM;
	if (out && out != stdout) {
		fclose(out);
		static const char hint[] = "# To display the perf.data header info, please use --header/--header-only "
					   "options.\n#\n";
		size_t skip = len >= sizeof(hint) - 1 && !memcmp(text, hint, sizeof(hint) - 1) ? sizeof(hint) - 1 : 0;
		fwrite(text + skip, 1, len - skip, stdout);
		free(text);
	}
	perfev_perfdata_close(pd);
	if (r == -ENOENT)
		return cli_error("report", "%s (the keys are " REPORT_SORT_KEYS ", or "
				 "tracepoint fields: FIELD, EVENT.FIELD, SYS:EVENT.FIELD, trace)",
				 perfev_errmsg());
	return r < 0 ? cli_error("report", "%s", perfev_errmsg()) : 0;
}
