/*
 * pfm_names.c — where perf's name for a vendor event and libpfm4's differ.
 *
 * The names perf gives (its pmu-events JSON, from the vendors' event files)
 * and libpfm4's mostly map as event.umask <-> EVENT:UMASK; these are the
 * ones that do not. Each pair encodes the same attr: the perf oracle
 * (tests/interop/event/vendor.c) holds that, and found them by matching the
 * encodings of perf 6.1's events against libpfm4 4.13's.
 */
#include "core/internal.h"
#include "event/pfm_int.h"

#include <string.h>
#include <strings.h>

struct name_pair {
	const char *table, *perf, *pfm;
};

static const struct name_pair pairs[] = {
#include "event/pfm_names.h"
};

const char *pv_pfm_perf_name(const char *table, const char *pfm_name)
{
	for (size_t i = 0; i < PV_ARRAY_SIZE(pairs); i++)
		if (!strcmp(pairs[i].table, table) && !strcasecmp(pairs[i].pfm, pfm_name))
			return pairs[i].perf;
	return NULL;
}

const char *pv_pfm_name_of_perf(const char *table, const char *perf_name)
{
	for (size_t i = 0; i < PV_ARRAY_SIZE(pairs); i++)
		if (!strcmp(pairs[i].table, table) && !strcasecmp(pairs[i].perf, perf_name))
			return pairs[i].pfm;
	return NULL;
}
