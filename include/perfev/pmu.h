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
#include <stdio.h>
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

/* ---- every event usable here (perfev list) ------------------------------ */
enum perfev_event_class {
	PERFEV_CLASS_HARDWARE,   /* cycles, instructions ... (PERF_TYPE_HARDWARE) */
	PERFEV_CLASS_SOFTWARE,   /* cpu-clock, page-faults ... */
	PERFEV_CLASS_CACHE,      /* L1-dcache-load-misses ... (PERF_TYPE_HW_CACHE) */
	PERFEV_CLASS_PMU,        /* a sysfs alias: pmu/name/ */
	PERFEV_CLASS_TRACEPOINT, /* sys:name */
	PERFEV_CLASS_BREAKPOINT, /* the mem:ADDR[/LEN][:rwx] syntax */
	PERFEV_CLASS_RAW,        /* the rNNNN and pmu/term=value/ syntax */
	PERFEV_CLASS_TOOL,       /* duration_time, user_time, system_time: counted by the tool */
	PERFEV_CLASS_VENDOR,     /* the CPU model's own events (libpfm4's tables): inst_retired.any */
};

/* What a probe open (this process, any CPU) found. */
enum perfev_access {
	PERFEV_ACCESS_UNKNOWN,     /* not probed */
	PERFEV_ACCESS_FULL,        /* opens counting user and kernel */
	PERFEV_ACCESS_USER_ONLY,   /* opens only with exclude_kernel (perf_event_paranoid) */
	PERFEV_ACCESS_DENIED,      /* permission refused even user-only */
	PERFEV_ACCESS_UNSUPPORTED, /* this machine lacks it (no such PMU, event or counter) */
};

struct perfev_event_info {
	enum perfev_event_class klass;
	const char *class_name; /* "hardware", "software", "cache", "pmu", "tracepoint", ... */
	const char *name;       /* as written in an event string */
	const char *alias;      /* another spelling, or NULL */
	const char *pmu;        /* the sysfs PMU of a PMU event, else NULL */
	const char *desc;       /* what it counts, or NULL */
	struct perfev_attr attr; /* what name parses to (zero for syntax entries) */
	enum perfev_access access;
	int err;                /* the probe's errno when not FULL */
	/* vendor events: perf's topic for it ("cache", "pipeline", ...), else NULL;
	 * name is perf's spelling, alias libpfm4's */
	const char *topic;
};

/* Probe-open every event to fill perfev_event_info.access. */
#define PERFEV_LIST_PROBE 1u

typedef int (*perfev_event_fn)(void *ctx, const struct perfev_event_info *ev);
/*
 * Calls fn for every event usable in an event string here: the symbolic
 * hardware and software events, every hardware cache combination perf
 * accepts, each PMU's sysfs events, the tracepoints, and the breakpoint and
 * raw syntaxes. pattern (NULL: all) is a class name ("hardware"/"hw",
 * "software"/"sw", "cache", "pmu", "tracepoint", "breakpoint", "raw",
 * "tool", "vendor"), a PMU name, or an fnmatch(3) glob on the name (a plain word matches names
 * containing it). With PERFEV_LIST_PROBE each event is opened and closed
 * once (tracepoints: one probe for all). A non-zero return from fn stops the
 * walk and is returned; otherwise returns the number of events reported.
 */
PERFEV_API int perfev_events_foreach(const char *pattern, unsigned flags, perfev_event_fn fn,
				     void *ctx);

/* How perfev_list_print and perfev_metrics_list_print (perfev/metric.h) print. */
struct perfev_list_print_opts {
	size_t sz;      /* sizeof(struct perfev_list_print_opts) */
	bool json;      /* one JSON document instead of the text for people */
	unsigned flags; /* perfev_events_foreach's: PERFEV_LIST_PROBE fills in each event's access */
};
#define perfev_list_print_opts__last_field flags
/*
 * `perfev list [PATTERN]` on f: what the current permissions allow
 * (perfev_permissions_get), then every event perfev_events_foreach reports
 * for pattern, by class (vendor events by PMU and topic, with the CPU
 * model), each with its access and description; "No event matches" when
 * none does. json: {"permissions": {...}, "events": [{"class", "name",
 * "alias", "pmu", "description", "type", "config", ..., "access", "note"}]}.
 * opts may be NULL (text, no probing). Returns the number of events, or
 * -errno (EINVAL: bad opts or no f; perfev_errmsg() says why), after
 * closing the JSON document. Nothing is allocated for the caller.
 */
PERFEV_API int perfev_list_print(FILE *f, const char *pattern, const struct perfev_list_print_opts *opts);

/* ---- the CPU model and its vendor events ------------------------------------ */
/*
 * Which CPU's event tables apply: this machine's (x86 cpuid, arm64 MIDR_EL1),
 * or the model the PERF_CPUID environment variable names, as perf reads it
 * ("GenuineIntel-6-55-4": vendor, decimal family, hex model and stepping;
 * "0x00000000410fd0c0": a MIDR), so any model's events can be inspected
 * and their attrs built anywhere. Vendor events come from libpfm4's tables
 * and are named as perf names them (inst_retired.any_p, case-insensitive,
 * with perf's modifiers and pmu terms: inst_retired.any_p:u,
 * inst_retired.any_p/cmask=1/, cpu/inst_retired.any_p,inv,cmask=2/) or as
 * libpfm4 and PAPI do (INST_RETIRED:ANY_P:c=1:u, skx::INST_RETIRED:ANY_P).
 */
struct perfev_cpu_model {
	size_t sz;               /* sizeof(struct perfev_cpu_model) */
	char cpuid[128];         /* the model in use, in perf's spelling */
	char host_cpuid[128];    /* this machine's, even when PERF_CPUID overrides */
	bool overridden;         /* PERF_CPUID chose cpuid */
	const char *name;        /* "Skylake-SP", or NULL when no table is known */
	const char *tables[2];   /* libpfm4's tables: "skx"; a hybrid CPU has two */
	const char *core_pmus[2];/* the sysfs PMUs they open on: "cpu", or "cpu_core", "cpu_atom" */
	bool tables_present;     /* this build of libpfm4 has them (Arm's only in Arm builds) */
	bool is_host;            /* this machine is that model: its events can count here */
};
#define perfev_cpu_model__last_field is_host
/*
 * Fills *out, as much of it as out->sz (set by the caller) holds. Returns 0, or -ENOENT (fields
 * still filled; name NULL) when no vendor table is known for the model.
 */
PERFEV_API int perfev_cpu_model_get(struct perfev_cpu_model *out);
/*
 * Why vendor events of the current model cannot count here, for people:
 * "this CPU is not Skylake-SP (it is AuthenticAMD-26-2-1; PERF_CPUID=... chose
 * the table)", or "" when the model is this machine's. Returns buf.
 */
PERFEV_API const char *perfev_cpu_model_mismatch(char *buf, size_t len);

/* What the current credentials and perf_event_paranoid allow. */
struct perfev_permissions {
	int64_t paranoid;      /* perf_event_paranoid, PERFEV_SYSCTL_ABSENT if missing */
	bool root, cap_perfmon, cap_sys_admin;
	bool kernel;           /* may count kernel code in own processes */
	bool cpu_wide;         /* may count a whole CPU (-a, -C) */
	bool tracepoint_raw;   /* may sample tracepoints' raw data */
	bool any_process;      /* may attach to others' processes */
};
PERFEV_API void perfev_permissions_get(struct perfev_permissions *out);

/* ---- tracepoints (the tracepoint PMU's events live in tracefs) ----------- */
/*
 * The events directory of the mounted tracefs: /sys/kernel/tracing/events,
 * else /sys/kernel/debug/tracing/events. NULL when neither is usable:
 * errno ENOENT (the message says how to mount it) or EACCES (not root).
 */
PERFEV_API const char *perfev_tracefs_events_dir(void);

/*
 * The id of tracepoint sys:name under events_dir (NULL: the mounted one).
 * Returns the id (>= 0) or -ENOENT (no such tracepoint) / -errno.
 */
PERFEV_API int perfev_tracepoint_id(const char *events_dir, const char *sys, const char *name);

typedef int (*perfev_tracepoint_fn)(void *ctx, const char *sys, const char *name, int id);
/*
 * Calls fn for every tracepoint whose system matches sys_glob and whose
 * name matches name_glob (fnmatch(3) patterns; NULL matches all), sorted by
 * system then name. A non-zero return from fn stops the walk and is
 * returned. Otherwise returns the number of matches (0 is not an error).
 */
PERFEV_API int perfev_tracepoints_foreach(const char *events_dir, const char *sys_glob,
					  const char *name_glob, perfev_tracepoint_fn fn,
					  void *ctx);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_PMU_H */
