/* cli_events.c — the -e parser every command shares. */
#include "cli_events.h"

#include <stdio.h>

int cli_parse_events(const char *cmd, struct perfev_evlist *list, const char *events)
{
	struct perfev_parse_error err;
	int r = perfev_evlist_parse(list, events, &err);
	if (r < 0) {
		char msg[2048];
		perfev_parse_error_format(&err, events, msg, sizeof(msg));
		/* the caret lines up with the quoted string, so it starts its own line */
		fprintf(stderr, "perfev %s: cannot use the events given\n%s\n", cmd, msg);
	}
	return r;
}
