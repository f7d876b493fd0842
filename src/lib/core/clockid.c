/* clockid.c — perf record -k's clock names (tools/perf/builtin-record.c). */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/recorder.h"

#include <stdlib.h>
#include <strings.h>
#include <time.h>

#ifndef CLOCK_TAI
#define CLOCK_TAI 11
#endif

static const struct {
	const char *name;
	int id;
} clocks[] = {
	{"monotonic", CLOCK_MONOTONIC}, {"monotonic_raw", CLOCK_MONOTONIC_RAW},
	{"realtime", CLOCK_REALTIME},   {"boottime", CLOCK_BOOTTIME},
	{"tai", CLOCK_TAI},             {"mono", CLOCK_MONOTONIC},
	{"raw", CLOCK_MONOTONIC_RAW},   {"real", CLOCK_REALTIME},
	{"boot", CLOCK_BOOTTIME},
};

PERFEV_API int perfev_clockid_parse(const char *name)
{
	if (!name || !*name)
		return pv_error(EINVAL, "no clock given: use monotonic, monotonic_raw, realtime, boottime, "
				"tai or a clock number");
	char *end;
	long v = strtol(name, &end, 0);
	if (end != name && !*end) {
		struct timespec res;
		if (v < 0 || v > 0x7fffffff || clock_getres((clockid_t)v, &res) < 0)
			return pv_error(EINVAL, "clock %s: this system has no such clock (man clock_gettime "
					"lists them)", name);
		return (int)v;
	}
	const char *n = strncasecmp(name, "CLOCK_", 6) ? name : name + 6;
	for (size_t i = 0; i < PV_ARRAY_SIZE(clocks); i++)
		if (!strcasecmp(n, clocks[i].name))
			return clocks[i].id;
	return pv_error(EINVAL, "unknown clockid '%s': use monotonic, monotonic_raw, realtime, boottime, "
			"tai (or mono, raw, real, boot, or a clock number)", name);
}

PERFEV_API const char *perfev_clockid_name(int clockid)
{
	for (size_t i = 0; i < PV_ARRAY_SIZE(clocks); i++)
		if (clocks[i].id == clockid)
			return clocks[i].name;
	return "(not found)";
}
