/* cli_events.h — -e EVENTS for every command: parse, or print perf's caret error. */
#ifndef PERFEV_CLI_EVENTS_H
#define PERFEV_CLI_EVENTS_H

#include "perfev.h"

/*
 * Parses events (perf's syntax) into list. On failure prints, to stderr,
 * "perfev CMD: " and the string with a caret under the offending byte and
 * the explanation, and returns -errno; list is unchanged then.
 */
int cli_parse_events(const char *cmd, struct perfev_evlist *list, const char *events);

/*
 * --filter FILTER for event idx of list (the last one given before it, as
 * perf): it must be a tracepoint; the filter is checked against its format
 * (a field that does not exist is named) and kept for the open. On failure
 * prints the reason to stderr and returns -1.
 */
int cli_set_filter(const char *cmd, struct perfev_evlist *list, size_t idx, const char *filter);

#endif
