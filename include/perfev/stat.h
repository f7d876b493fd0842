/*
 * perfev/stat.h — what `perfev stat` computes, for library users too:
 * counts collected over runs (-r: mean and standard deviation) or intervals
 * (-I: deltas), aggregated globally, per CPU or per thread; derived metrics
 * (CPUs utilized, rates per second, IPC, miss ratios, stalls); and output in
 * perf stat's text, CSV (-x) and JSON (--json) layouts.
 */
#ifndef PERFEV_STAT_H
#define PERFEV_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include "perfev/counter.h"

#ifdef __cplusplus
extern "C" {
#endif

enum perfev_stat_aggr {
	PERFEV_AGGR_GLOBAL, /* everything summed (perf stat's default) */
	PERFEV_AGGR_PLACE,  /* one line per CPU (-A) or per thread (--per-thread) */
	/* CPUs summed by where they sit (sysfs topology), as perf stat's
	 * --per-core ("S0-D0-C3"), --per-die ("S0-D1"), --per-socket ("S1")
	 * and --per-node ("N0"): one line per core, die, socket or NUMA node,
	 * with the number of CPUs in it. Counts of CPUs only (-a, -C). */
	PERFEV_AGGR_CORE,
	PERFEV_AGGR_DIE,
	PERFEV_AGGR_SOCKET,
	PERFEV_AGGR_NODE,
};

struct perfev_stat;
struct perfev_metrics;

/* A collector for the events of list (which must outlive it). NULL + errno. */
PERFEV_API struct perfev_stat *perfev_stat_new(const struct perfev_evlist *list,
					       enum perfev_stat_aggr aggr);
PERFEV_API void perfev_stat_free(struct perfev_stat *s);

/*
 * Adds one run: the counters' current reading (call perfev_counters_read
 * first) and the run's wall-clock time. Events the counters could not open
 * are marked unsupported. Each run adds one sample to every mean.
 */
PERFEV_API int perfev_stat_add(struct perfev_stat *s, const struct perfev_counters *c,
			       uint64_t elapsed_ns);
/*
 * Interval mode: replaces what was collected by the change since the
 * previous call (the first call measures from zero), over elapsed_ns.
 */
PERFEV_API int perfev_stat_add_interval(struct perfev_stat *s, const struct perfev_counters *c,
					uint64_t elapsed_ns);
/*
 * The same from plain numbers (tests, replayed data): counts[ev * nplaces +
 * place] for every event of the list, labels[place] a CPU number (labels_are
 * _cpus) or a thread id, status[ev] 0 or the -errno of a failed open (NULL:
 * all 0). With PERFEV_AGGR_GLOBAL the places are summed.
 */
PERFEV_API int perfev_stat_add_counts(struct perfev_stat *s, const struct perfev_count *counts,
				      const int *labels, bool labels_are_cpus, size_t nplaces,
				      const int *status, uint64_t elapsed_ns);
/* The child's CPU time, printed as "seconds user/sys" after a single run. */
PERFEV_API void perfev_stat_set_rusage(struct perfev_stat *s, const struct rusage *ru);

/* One event's figures at one output line (unit: 0, or a place index). */
struct perfev_stat_value {
	double val;      /* mean of the scaled counts, in the event's unit (msec for task-clock) */
	double raw;      /* mean of the scaled counts, as the kernel counts (ns for task-clock) */
	double stddev;   /* standard deviation of that mean (0 for one run) */
	double run, ena; /* mean time running / enabled, ns */
	double pcnt_running; /* 100 * run / ena: below 100 when multiplexed */
	unsigned runs;
	int status;      /* 0, or -errno: the event could not be opened */
	bool counted;    /* it ran at all (run > 0) */
	const char *unit;/* "msec", the sysfs .unit, or "" */
};
PERFEV_API size_t perfev_stat_nr_lines(const struct perfev_stat *s);
PERFEV_API int perfev_stat_value(const struct perfev_stat *s, size_t ev, size_t line,
				 struct perfev_stat_value *out);
/*
 * The derived figure perf stat prints beside event ev, when the events it
 * needs were counted: *value and *unit ("CPUs utilized", "M/sec", "insn per
 * cycle", "of all branches", ...). Returns false when there is none.
 */
PERFEV_API bool perfev_stat_metric(const struct perfev_stat *s, size_t ev, size_t line,
				   double *value, const char **unit);

/* ---- the events perf stat counts ------------------------------------------- */
/*
 * Appends perf stat's default events to l: task-clock, context-switches,
 * cpu-migrations, page-faults (software: they count everywhere), then
 * cycles, instructions, branches, branch-misses (hardware; open them with
 * perfev_target.keep_unsupported to keep them as <not supported> where no
 * PMU counts them). Where perf_event_paranoid forbids kernel counting to
 * this user they count user space only and are named with perf's ":u".
 * 0, or -errno (events added before the failure stay in l).
 */
PERFEV_API int perfev_stat_default_events(struct perfev_evlist *l);
/*
 * Appends perf stat -d's cache events for level 1 (L1-dcache and LLC loads
 * and misses), 2 (-dd: also L1-icache, dTLB and iTLB) or 3 (-ddd: also
 * L1-dcache prefetches); level 0 adds nothing. 0, or -errno (EINVAL: a
 * level outside 0..3).
 */
PERFEV_API int perfev_stat_detailed_events(struct perfev_evlist *l, int level);
/*
 * perf stat's fallback after an open failed with EACCES/EPERM: when
 * perf_event_paranoid forbids kernel counting to this (non-root) user and t
 * counts tasks (not CPUs or a cgroup), every event of l that did not choose
 * its spaces (neither exclude_kernel nor exclude_user set) is changed to
 * count user space only and renamed NAME:u. Returns true when any event
 * changed (then open again); false when nothing could, with errno EACCES
 * when the fallback applied but found nothing to change.
 */
PERFEV_API bool perfev_stat_user_fallback(struct perfev_evlist *l, const struct perfev_target *t);

enum perfev_stat_format { PERFEV_STAT_TEXT, PERFEV_STAT_CSV, PERFEV_STAT_JSON };

struct perfev_stat_output {
	size_t sz;                     /* sizeof(struct perfev_stat_output) */
	enum perfev_stat_format format;
	const char *sep;               /* CSV separator (default ",") */
	/* What was measured, for the text header: "'cmd args'", "system wide",
	 * "process id '42'", "CPU(s) 0-3"... */
	const char *what;
	bool interval;                 /* -I: prefix each line with the time */
	double interval_ts;            /* seconds since the start */
	bool interval_header;          /* print the -I column header first */
	/* metrics to print after the events (perfev/metric.h), or NULL */
	const struct perfev_metrics *metrics;
	bool metric_only;              /* perf's --metric-only: the metrics alone, as columns */
	/* perf's --no-merge: an event made once per box of a PMU (uncore
	 * vendor events: uncore_imc_0..5) prints a line per box, named "NAME
	 * [PMU]", instead of one line of their sum */
	bool no_merge;
	/* perf's -n (null run, no default events): no blank line before the
	 * elapsed time */
	bool null_run;
	/* perf's --table with runs > 1: each run's time and its distance from
	 * the mean before the final result */
	bool table;
	/* perf's -B (its default in text): counts with the locale's thousands
	 * separator (printf's ' flag; the caller sets LC_NUMERIC) */
	bool big_num;
};
#define perfev_stat_output__last_field big_num

/* Prints the collected figures in perf stat's layout. 0 or -errno. */
PERFEV_API int perfev_stat_print(const struct perfev_stat *s, FILE *f,
				 const struct perfev_stat_output *o);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_STAT_H */
