/*
 * perfev/pmu.h — the kernel's PMUs as sysfs describes them
 * (/sys/bus/event_source/devices/NAME): the attr type, the format/ bit
 * fields that terms like event=0x3c map onto, the events/ aliases with
 * their .scale/.unit/.per-pkg/.snapshot, cpumask and caps/; and tracepoints,
 * whose ids tracefs gives.
 *
 * A perfev_pmus is a snapshot of one devices directory (the real one, or a
 * fake tree for tests); its PMUs and their strings live until it is freed.
 */
#ifndef PERFEV_PMU_H
#define PERFEV_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where the kernel lists PMUs; every root argument below defaults to it. */
#define PERFEV_PMU_SYSFS_ROOT "/sys/bus/event_source/devices"

struct perfev_pmus;
struct perfev_pmu;

/* One format/ entry: term `name` occupies the set bits of `mask` in attr
 * field config (field 0), config1, config2 or config3. */
struct perfev_pmu_format {
	const char *name;
	int field;     /* 0..3: config, config1, config2, config3 */
	uint64_t mask; /* the bits, possibly non-contiguous ("0-7,32-35") */
};

/* One events/ alias: `terms` is the file's text ("event=0x3c,umask=0x0"). */
struct perfev_pmu_alias {
	const char *name;
	const char *terms;
	const char *desc;  /* NULL: sysfs gives none */
	const char *unit;  /* "" when absent */
	double scale;      /* 1.0 when absent */
	bool per_pkg, snapshot;
};

/*
 * Reads every PMU under root (NULL: PERFEV_PMU_SYSFS_ROOT). Unreadable PMUs
 * are skipped. Returns NULL (errno) when root itself cannot be read.
 */
PERFEV_API struct perfev_pmus *perfev_pmus_load(const char *root);
PERFEV_API void perfev_pmus_free(struct perfev_pmus *pmus);
PERFEV_API size_t perfev_pmus_count(const struct perfev_pmus *pmus);
/* The idx-th PMU in name order, or NULL (ERANGE). */
PERFEV_API const struct perfev_pmu *perfev_pmus_at(const struct perfev_pmus *pmus, size_t idx);
/* The PMU called name, or NULL (ENOENT). */
PERFEV_API const struct perfev_pmu *perfev_pmus_find(const struct perfev_pmus *pmus,
						      const char *name);

PERFEV_API const char *perfev_pmu_name(const struct perfev_pmu *pmu);
/* The value for perf_event_attr.type. */
PERFEV_API uint32_t perfev_pmu_type(const struct perfev_pmu *pmu);
/* The cpumask file's text ("0-3"), or NULL when the PMU has none. */
PERFEV_API const char *perfev_pmu_cpumask(const struct perfev_pmu *pmu);
/* A caps/ file's text (e.g. "max_precise"), or NULL when absent. */
PERFEV_API const char *perfev_pmu_cap(const struct perfev_pmu *pmu, const char *cap);

PERFEV_API size_t perfev_pmu_format_count(const struct perfev_pmu *pmu);
PERFEV_API const struct perfev_pmu_format *perfev_pmu_format_at(const struct perfev_pmu *pmu,
								 size_t idx);
PERFEV_API const struct perfev_pmu_format *perfev_pmu_format_find(const struct perfev_pmu *pmu,
								   const char *name);
/* Aliases in name order; find matches names case-insensitively, as perf does. */
PERFEV_API size_t perfev_pmu_alias_count(const struct perfev_pmu *pmu);
PERFEV_API const struct perfev_pmu_alias *perfev_pmu_alias_at(const struct perfev_pmu *pmu,
							       size_t idx);
PERFEV_API const struct perfev_pmu_alias *perfev_pmu_alias_find(const struct perfev_pmu *pmu,
								 const char *name);

/*
 * Writes value into the bits of format term `term` of attr (config ..
 * config3), clearing them first. -ENOENT when the PMU has no such term,
 * -ERANGE when value does not fit its bits; perfev_errmsg() says which.
 */
PERFEV_API int perfev_pmu_encode_term(const struct perfev_pmu *pmu, const char *term,
				      uint64_t value, struct perfev_attr *attr);

/*
 * Parses a format/ file's text ("config1:0-7,32-35", "config:63") into
 * *field and *mask. Returns 0 or -EINVAL.
 */
PERFEV_API int perfev_pmu_format_parse(const char *text, int *field, uint64_t *mask);

/* ---- tracepoints (the tracepoint PMU's events live in tracefs) ----------- */
/*
 * The events directory of the mounted tracefs: /sys/kernel/tracing/events,
 * else /sys/kernel/debug/tracing/events. NULL (errno ENOENT, with a message
 * saying how to mount it) when neither exists.
 */
PERFEV_API const char *perfev_tracefs_events_dir(void);

/*
 * The id of tracepoint sys:name under events_dir (NULL: the mounted one).
 * Returns the id (>= 0) or -ENOENT (no such tracepoint) / -errno.
 */
PERFEV_API int perfev_tracepoint_id(const char *events_dir, const char *sys, const char *name);

typedef int (*perfev_tracepoint_fn)(const char *sys, const char *name, int id, void *arg);
/*
 * Calls fn for every tracepoint whose system matches sys_glob and whose
 * name matches name_glob (fnmatch(3) patterns; NULL matches all), sorted by
 * system then name. A non-zero return from fn stops the walk and is
 * returned. Otherwise returns the number of matches (0 is not an error).
 */
PERFEV_API int perfev_tracepoints_foreach(const char *events_dir, const char *sys_glob,
					  const char *name_glob, perfev_tracepoint_fn fn,
					  void *arg);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_PMU_H */
