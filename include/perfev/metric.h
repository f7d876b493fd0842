/*
 * perfev/metric.h — metrics: figures computed from event counts by
 * formulas the CPU vendors publish (IPC, miss rates, Intel's Top-down
 * Microarchitecture Analysis levels 1 and 2, AMD Zen 4's pipeline
 * utilization, Arm's stall ratios, memory bandwidth from uncore counters),
 * as perf stat -M computes them. Each formula in the table cites where it
 * comes from (perfev_metric_info.source).
 *
 * Inputs are the counts perfev_stat collected, already scaled for
 * multiplexing (count * time enabled / time running, perf's scaling); a
 * metric says how much of the time its least-counted input ran, so a
 * reader knows when it rests on extrapolated counts.
 */
#ifndef PERFEV_METRIC_H
#define PERFEV_METRIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "perfev/event.h"
#include "perfev/pmu.h"
#include "perfev/stat.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- expressions ------------------------------------------------------------ */
/*
 * A metric formula: numbers, + - * / ( ), min(a, b), max(a, b), and names:
 * an event as an event string names it (inst_retired.any, cycles,
 * DISPATCH_STALLS_1:FE_NO_OPS; '@' stands for '/' as in perf's metrics:
 * uncore_imc@cas_count_read@), or another metric of the table (expanded).
 */
struct perfev_metric_expr;
/* NULL + errno (EINVAL: err says where and why, as perfev_errmsg()). */
PERFEV_API struct perfev_metric_expr *perfev_metric_expr_parse(const char *text);
PERFEV_API void perfev_metric_expr_free(struct perfev_metric_expr *e);
/* The event names it reads, each once, in order of first use. */
PERFEV_API size_t perfev_metric_expr_nr_vars(const struct perfev_metric_expr *e);
PERFEV_API const char *perfev_metric_expr_var(const struct perfev_metric_expr *e, size_t idx);
/* The value with vals[i] for var i; NaN when it divides by zero. */
PERFEV_API double perfev_metric_expr_eval(const struct perfev_metric_expr *e, const double *vals);

/* ---- the table ---------------------------------------------------------------- */
struct perfev_metric_info {
	const char *name;    /* "IPC", "tma_frontend_bound" */
	const char *groups;  /* its metric groups: "TopdownL1;Default" */
	const char *expr;    /* the formula, as written in the table */
	const char *unit;    /* what the value is: "insn per cycle", "%", "MiB/s" */
	double scale;        /* the formula's value times this is shown (100 for %) */
	const char *desc;
	const char *source;  /* the vendor document the formula is taken from */
	const char *models;  /* where it applies: "any", or libpfm4 tables "skl,skx,clx" */
};
typedef int (*perfev_metric_fn)(void *ctx, const struct perfev_metric_info *m);
/*
 * Calls fn for every metric of the table that applies to the current model
 * (PERF_CPUID, or this CPU: see perfev_cpu_model_get), whose name or group
 * matches pattern (NULL: all; case-insensitive). A non-zero return of fn
 * stops the walk and is returned; else the number of metrics.
 */
PERFEV_API int perfev_metrics_foreach(const char *pattern, perfev_metric_fn fn, void *ctx);
/*
 * `perfev list metrics` on f: every metric of the current model's table
 * (perfev_metrics_foreach) with its unit, description, formula, groups and
 * source; groups: `perfev list metricgroups`, each metric group with the
 * metrics in it. A heading names the model. opts->json: one JSON document
 * ({"model", "cpuid", "metrics": [...]} or "metricgroups"); opts->flags is
 * not used; opts may be NULL (text). Returns the number of metrics (of
 * groups), or -errno (EINVAL: bad opts or no f). Nothing is allocated for
 * the caller.
 */
PERFEV_API int perfev_metrics_list_print(FILE *f, bool groups, const struct perfev_list_print_opts *opts);

/* ---- counting metrics ------------------------------------------------------------ */
struct perfev_metrics;
/*
 * Resolves spec ("IPC,TopdownL1": metric names or groups, as perf stat -M
 * takes them) for the current model and appends the events the metrics read
 * to list, one group per metric as perf makes it (a group with more events
 * than the CPU has general counters is split into groups that fit; the
 * metric then says so). A formula's event that is no event of the model
 * (the vendor table lacks it) adds nothing: that metric's value is then
 * <not supported> (perfev_metric_value.unknown_event). NULL + errno: ENOENT
 * when a name is no metric or group here (the message lists what is),
 * EINVAL when a formula's event does not parse here for another reason.
 */
PERFEV_API struct perfev_metrics *perfev_metrics_add(struct perfev_evlist *list, const char *spec);
PERFEV_API void perfev_metrics_free(struct perfev_metrics *m);
PERFEV_API size_t perfev_metrics_count(const struct perfev_metrics *m);

struct perfev_metric_value {
	const struct perfev_metric_info *info;
	double value;        /* already times info->scale; NaN when not computable */
	int status;          /* 0, or the -errno of an input that could not count */
	const char *missing; /* that input's event name (status != 0), else NULL */
	bool unknown_event;  /* status -ENOENT because missing is not an event of the model at all */
	double pcnt_running; /* the least share of time (%) any input counted: < 100 when multiplexed */
	unsigned nr_groups;  /* how many event groups its inputs were split into */
};
/* Metric idx computed from s (collected for the list m was added to) at line. */
PERFEV_API int perfev_metrics_value(const struct perfev_metrics *m, const struct perfev_stat *s,
				    size_t idx, size_t line, struct perfev_metric_value *out);
/*
 * Prints the metrics: text (one line each, perf's "#" column, with the
 * multiplexing and the reason a metric could not be computed), CSV or JSON
 * as o->format says. metric_only: perf's --metric-only table (a header of
 * metric names and units, one row of values), without the events.
 */
PERFEV_API int perfev_metrics_print(const struct perfev_metrics *m, const struct perfev_stat *s,
				    FILE *f, const struct perfev_stat_output *o, bool metric_only);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_METRIC_H */
