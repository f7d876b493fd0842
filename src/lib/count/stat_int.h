/* stat_int.h — shared by stat.c (collecting) and stat_print.c (output). */
#ifndef PERFEV_STAT_INT_H
#define PERFEV_STAT_INT_H

#include "perfev/stat.h"
#include "perfev/metric.h"

/* Running mean and variance (Welford). */
struct pv_acc {
	unsigned n;
	double mean, m2;
	double run, ena; /* sums over the samples */
};

struct perfev_stat {
	const struct perfev_evlist *list;
	enum perfev_stat_aggr aggr;
	size_t nev, nlines;
	struct pv_acc *acc; /* [ev * nlines + line] */
	int *status;        /* per event */
	int *labels;        /* per line: CPU or thread id */
	/* CORE, DIE, SOCKET, NODE: per line, where its CPUs sit and how many;
	 * the first run's CPUs and their lines (later runs and intervals of the
	 * same CPUs read no sysfs again) */
	struct pv_cpu_topo *topo;
	int *topo_cpus;
	int *topo_place_cpu;
	size_t *topo_place_line, topo_places;
	char **comm;        /* per line, per-thread output */
	bool labels_cpus;
	struct pv_acc elapsed;
	double *run_ns;     /* each run's wall-clock time (perf's --table) */
	size_t nruns;
	struct rusage ru;
	bool have_ru;
	struct perfev_count *prev; /* interval mode: last raw reading per event/place */
	size_t nprev;
};

void pv_acc_add(struct pv_acc *a, double v);
double pv_acc_stddev_mean(const struct pv_acc *a); /* stddev of the mean, as perf */
/* The multiplier and unit perf shows an event in (task-clock: 1e-6 "msec"). */
double pv_stat_scale(const struct perfev_evsel *e, const char **unit);
/* A rate per second as perf prints it: value in G/sec, M/sec, K/sec or /sec. */
void pv_stat_rate(double per_sec, double *value, const char **unit);
/* The rate per second of such a value and unit; false for another metric. */
bool pv_stat_rate_of(double value, const char *unit, double *per_sec);

/* Whether the aggregation sums CPUs by topology (CORE, DIE, SOCKET, NODE). */
static inline bool pv_stat_by_topo(enum perfev_stat_aggr a)
{
	return a >= PERFEV_AGGR_CORE && a <= PERFEV_AGGR_NODE;
}

/* The metrics' lines (metric.c), into b, as perfev_stat_print lays them out. */
struct pv_buf;
void pv_metrics_format(const struct perfev_metrics *ms, const struct perfev_stat *s, struct pv_buf *b,
		       const struct perfev_stat_output *o, bool metric_only, const char *sep);

#endif
