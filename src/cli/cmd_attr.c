/* cmd_attr.c — `perfev attr EVENTS`: the perf_event_attrs perfev would open, as JSON. */
#include "cli.h"
#include "cli_events.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev attr EVENTS...\n\n"
		   "Prints a JSON array with one object per event: the perf_event_attr that\n"
		   "perfev builds for it (keys are the fields of linux/perf_event.h), and under\n"
		   "\"perfev\" its name, group leader index, PMU, scale and unit. Nothing is opened.\n"
		   "EVENTS uses perf's syntax (see 'perfev list'); several arguments are joined by ','.\n");
}

static void print_event(const struct perfev_evsel *e)
{
	char *json = perfev_evsel_to_json(e);
	if (json)
		printf("  %s", json);
	free(json);
}

static int cmd_attr(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("attr", usage, "give the events to describe");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	for (int i = 1; i < argc; i++) /* no event starts with '-' */
		if (argv[i][0] == '-')
			return cli_usage_error("attr", usage, "unknown option '%s'", argv[i]);
	size_t len = 1;
	for (int i = 1; i < argc; i++)
		len += strlen(argv[i]) + 1;
	char *events = calloc(1, len);
	if (!events)
		return cli_error("attr", "out of memory");
	for (int i = 1; i < argc; i++) {
		if (i > 1)
			strcat(events, ",");
		strcat(events, argv[i]);
	}
	struct perfev_evlist *list = perfev_evlist_new();
	if (!list || cli_parse_events("attr", list, events) < 0) {
		perfev_evlist_free(list);
		free(events);
		return 1;
	}
	printf("[\n");
	for (size_t i = 0; i < perfev_evlist_count(list); i++) {
		print_event(perfev_evlist_at(list, i));
		printf(i + 1 < perfev_evlist_count(list) ? ",\n" : "\n");
	}
	printf("]\n");
	perfev_evlist_free(list);
	free(events);
	return 0;
}
CLI_COMMAND(attr, cmd_attr, "print the perf_event_attrs an event string opens, as JSON");
