/*
 * Fuzz target: perf event strings (and sysfs format/ texts). Any input must parse or fail with an
 * error position inside the string, never crash, leak or hang; what parses
 * must print as JSON. PMUs and tracepoints come from the fake trees under
 * tests/data/, so runs do not depend on the machine.
 */
#define _GNU_SOURCE
#include "perfev.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static char sysfs[4096], tracefs[4096];

static void find_trees(void)
{
	if (sysfs[0])
		return;
	/* __FILE__ is .../fuzz/parse_events.c; the trees are in .../tests/data */
	char dir[4000];
	snprintf(dir, sizeof(dir), "%s", __FILE__);
	char *slash = strrchr(dir, '/');
	if (slash)
		*slash = 0;
	else
		strcpy(dir, ".");
	snprintf(sysfs, sizeof(sysfs), "%s/../tests/data/sysfs", dir);
	snprintf(tracefs, sizeof(tracefs), "%s/../tests/data/tracefs/events", dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 4096)
		return 0;
	find_trees();
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	struct perfev_parse_opts opts = {sizeof(opts), sysfs, tracefs};
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_parse_error err;
	int r = perfev_evlist_parse_opts(l, s, &opts, &err);
	size_t len = strlen(s);
	if (r < 0) {
		if (err.pos < 0 || (size_t)err.pos > len || perfev_evlist_count(l))
			abort();
		char buf[8192];
		perfev_parse_error_format(&err, s, buf, sizeof(buf));
	} else {
		for (size_t i = 0; i < perfev_evlist_count(l); i++) {
			struct perfev_evsel *e = perfev_evlist_at(l, i);
			char *j = perfev_attr_to_json(perfev_evsel_attr(e));
			if (!j || !perfev_evsel_name(e))
				abort();
			free(j);
		}
	}
	perfev_evlist_free(l);
	/* the same bytes as a sysfs format/ file ("config1:0-7,32-35") */
	int field;
	uint64_t mask;
	if (perfev_pmu_format_parse(s, &field, &mask) == 0 && (field < 0 || field > 3 || !mask))
		abort();
	free(s);
	return 0;
}
