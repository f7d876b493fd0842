/*
 * perfev/event.h — event lists: what to open, as perf_event_attrs with names
 * and groups, built by hand or parsed from perf's event syntax.
 *
 * An evlist owns its evsels; an evsel lives until its evlist is freed.
 * Every event leads its own group unless given a leader; a leader always
 * precedes its members in the list.
 */
#ifndef PERFEV_EVENT_H
#define PERFEV_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_evlist;
struct perfev_evsel;

PERFEV_API struct perfev_evlist *perfev_evlist_new(void);
PERFEV_API void perfev_evlist_free(struct perfev_evlist *list);
PERFEV_API size_t perfev_evlist_count(const struct perfev_evlist *list);
/* The idx-th event, or NULL (errno ERANGE) past the end. */
PERFEV_API struct perfev_evsel *perfev_evlist_at(const struct perfev_evlist *list, size_t idx);
/*
 * Appends an event: a copy of attr (attr->size 0 becomes
 * PERFEV_ATTR_SIZE_LATEST) under `name` (copied; NULL names it after its
 * type and config). Returns the new evsel or NULL (errno ENOMEM).
 */
PERFEV_API struct perfev_evsel *perfev_evlist_add(struct perfev_evlist *list,
						  const struct perfev_attr *attr,
						  const char *name);

PERFEV_API struct perfev_attr *perfev_evsel_attr(struct perfev_evsel *evsel);
PERFEV_API const struct perfev_attr *perfev_evsel_attr_const(const struct perfev_evsel *evsel);
PERFEV_API size_t perfev_evsel_index(const struct perfev_evsel *evsel);
PERFEV_API const char *perfev_evsel_name(const struct perfev_evsel *evsel);
PERFEV_API int perfev_evsel_set_name(struct perfev_evsel *evsel, const char *name);

/*
 * Groups. set_leader makes evsel a member of leader's group; the leader must
 * come earlier in the same list and lead a group itself (-EINVAL otherwise).
 */
PERFEV_API int perfev_evsel_set_leader(struct perfev_evsel *evsel, struct perfev_evsel *leader);
PERFEV_API struct perfev_evsel *perfev_evsel_leader(const struct perfev_evsel *evsel);
PERFEV_API bool perfev_evsel_is_leader(const struct perfev_evsel *evsel);
/* Members of the group led by leader, the leader included. */
PERFEV_API size_t perfev_evsel_group_size(const struct perfev_evsel *leader);

/* Details from sysfs and the event string. Strings are copied; NULL clears. */
PERFEV_API const char *perfev_evsel_pmu_name(const struct perfev_evsel *evsel);
PERFEV_API int perfev_evsel_set_pmu_name(struct perfev_evsel *evsel, const char *pmu);
/* The .scale and .unit of a sysfs event alias (1.0 and "" by default). */
PERFEV_API double perfev_evsel_scale(const struct perfev_evsel *evsel);
PERFEV_API const char *perfev_evsel_unit(const struct perfev_evsel *evsel);
PERFEV_API int perfev_evsel_set_scale_unit(struct perfev_evsel *evsel, double scale, const char *unit);
/* A filter applied with PERF_EVENT_IOC_SET_FILTER after open. */
PERFEV_API const char *perfev_evsel_filter(const struct perfev_evsel *evsel);
PERFEV_API int perfev_evsel_set_filter(struct perfev_evsel *evsel, const char *filter);

/*
 * What an event string asks for beyond the attr: modifiers and terms that
 * the opener or the reader acts on. perfev_evlist_parse sets them.
 */
enum perfev_evsel_flag {
	PERFEV_EVSEL_SAMPLE_READ = 1u << 0,  /* :S  read the group's counts in each sample */
	PERFEV_EVSEL_WEAK_GROUP = 1u << 1,   /* :W  open members alone if the group fails */
	PERFEV_EVSEL_PRECISE_MAX = 1u << 2,  /* :P  the highest precise_ip that opens */
	PERFEV_EVSEL_BPF_COUNTER = 1u << 3,  /* :b  (perf's BPF counters; not used by perfev) */
	PERFEV_EVSEL_PERCORE = 1u << 4,      /* percore term: sum the counts of a core's threads */
	PERFEV_EVSEL_PER_PKG = 1u << 5,      /* sysfs .per-pkg: count once per package */
	PERFEV_EVSEL_SNAPSHOT = 1u << 6,     /* sysfs .snapshot: a value, not a running total */
	/* perf's tool events: opened as dummies, their value comes from the tool */
	PERFEV_EVSEL_TOOL_DURATION = 1u << 7,    /* duration_time: wall-clock ns of the run */
	PERFEV_EVSEL_TOOL_USER_TIME = 1u << 8,   /* user_time: the child's user CPU ns */
	PERFEV_EVSEL_TOOL_SYSTEM_TIME = 1u << 9, /* system_time: the child's system CPU ns */
	PERFEV_EVSEL_VENDOR = 1u << 10, /* from the CPU model's vendor table (perfev_cpu_model_get) */
};
PERFEV_API unsigned perfev_evsel_flags(const struct perfev_evsel *evsel);
PERFEV_API void perfev_evsel_set_flags(struct perfev_evsel *evsel, unsigned flags);
/* The name of the group a leader leads (perf's NAME{a,b}), or NULL. */
PERFEV_API const char *perfev_evsel_group_name(const struct perfev_evsel *evsel);
PERFEV_API int perfev_evsel_set_group_name(struct perfev_evsel *evsel, const char *name);
/* The max-events=N term: stop after N samples; 0 means no limit. */
PERFEV_API uint64_t perfev_evsel_max_events(const struct perfev_evsel *evsel);
PERFEV_API void perfev_evsel_set_max_events(struct perfev_evsel *evsel, uint64_t n);

/* ---- perf's event syntax -------------------------------------------------- */
struct perfev_parse_error {
	int pos;       /* byte offset of the offending character, -1 if none */
	char msg[256]; /* what is wrong there and what would be right */
};

/*
 * Parses an event string in perf's syntax (comma lists, groups {a,b}:mod,
 * symbolic/cache/raw/pmu/tracepoint/breakpoint events, modifiers, terms)
 * and appends its events to list, with perf 6.1's semantics: the attrs
 * perf's parser builds (exclude_guest by default, modifier rules, sample
 * period 1 for breakpoints and tracepoints, which counting callers clear as
 * perf stat does), names as perf gives them, groups as leaders, and what is
 * not an attr bit in perfev_evsel_flags(). On failure nothing is appended,
 * err (if not NULL) says where and why, perfev_errmsg() says the same, and
 * -errno is returned: EINVAL (syntax), ENOENT (unknown event, PMU or
 * tracepoint), ERANGE (a value too big for its bits), EACCES (tracefs not
 * readable), ENOMEM.
 */
PERFEV_API int perfev_evlist_parse(struct perfev_evlist *list, const char *events,
				   struct perfev_parse_error *err);

/* Where perfev_evlist_parse_opts looks things up (for tests: fake trees). */
struct perfev_parse_opts {
	size_t sz;                /* sizeof(struct perfev_parse_opts) */
	const char *sysfs_root;   /* PMUs; NULL: /sys/bus/event_source/devices */
	const char *tracefs_events; /* tracepoints; NULL: the mounted tracefs's events/ */
};
#define perfev_parse_opts__last_field tracefs_events
/* perfev_evlist_parse with lookups redirected by opts (NULL: the defaults). */
PERFEV_API int perfev_evlist_parse_opts(struct perfev_evlist *list, const char *events,
					const struct perfev_parse_opts *opts,
					struct perfev_parse_error *err);
/*
 * Writes err as a message for people: the string quoted, a caret under the
 * offending character, and the explanation. Returns the length (snprintf).
 */
PERFEV_API int perfev_parse_error_format(const struct perfev_parse_error *err,
					 const char *events, char *buf, size_t len);

/* ---- an attr for people ---------------------------------------------------- */
/*
 * attr as a JSON object, e.g. {"type": 1, "size": 136, "config": 3, ...}.
 * Unions print under the name that applies: sample_freq when freq is set
 * (else sample_period), wakeup_watermark when watermark is set (else
 * wakeup_events), bp_addr/bp_len for breakpoints (else config1/config2).
 * Returns a malloc'ed string the caller frees, or NULL (errno ENOMEM).
 */
PERFEV_API char *perfev_attr_to_json(const struct perfev_attr *attr);
/*
 * The event as `perfev attr` prints it: perfev_attr_to_json of its attr with
 * one more key, "perfev": {"name", "index", "leader" (the group leader's
 * index), "group_name", "pmu", "scale", "unit", "flags" (perfev_evsel_flags)}.
 * Returns a malloc'ed string the caller frees, or NULL (errno ENOMEM; EINVAL
 * for no evsel).
 */
PERFEV_API char *perfev_evsel_to_json(const struct perfev_evsel *evsel);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_EVENT_H */
