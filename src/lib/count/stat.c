/*
 * stat.c — collecting perf stat's figures: per-run means and deviations,
 * interval deltas, aggregation, and the derived metrics of perf's
 * stat-shadow (which need the other events of the same line).
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "count/stat_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void pv_acc_add(struct pv_acc *a, double v)
{
	a->n++;
	double d = v - a->mean;
	a->mean += d / a->n;
	a->m2 += d * (v - a->mean);
}

double pv_acc_stddev_mean(const struct pv_acc *a)
{
	if (a->n < 2)
		return 0;
	double variance = a->m2 / (a->n - 1);
	return sqrt(variance / a->n);
}

static bool is_clock(const struct perfev_attr *a)
{
	return a->type == PERF_TYPE_SOFTWARE &&
	       (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK);
}

double pv_stat_scale(const struct perfev_evsel *e, const char **unit)
{
	const char *u = perfev_evsel_unit(e);
	if ((!u || !u[0]) && is_clock(perfev_evsel_attr_const(e))) {
		*unit = "msec";
		return 1e-6;
	}
	*unit = u ? u : "";
	return perfev_evsel_scale(e);
}

PERFEV_API struct perfev_stat *perfev_stat_new(const struct perfev_evlist *list,
					       enum perfev_stat_aggr aggr)
{
	if ((unsigned)aggr > PERFEV_AGGR_NODE)
		return pv_error_null(EINVAL, "stat: unknown aggregation %d", (int)aggr);
	struct perfev_stat *s = calloc(1, sizeof(*s));
	if (!s)
		return pv_error_null(ENOMEM, "out of memory");
	s->list = list;
	s->aggr = aggr;
	s->nev = perfev_evlist_count(list);
	s->status = calloc(s->nev ? s->nev : 1, sizeof(*s->status));
	if (!s->status) {
		free(s);
		return pv_error_null(ENOMEM, "out of memory");
	}
	return s;
}

static void free_lines(struct perfev_stat *s)
{
	if (s->comm)
		for (size_t i = 0; i < s->nlines; i++)
			free(s->comm[i]);
	free(s->comm);
	free(s->acc);
	free(s->labels);
	free(s->topo);
	free(s->topo_cpus);
	free(s->topo_place_cpu);
	free(s->topo_place_line);
	s->comm = NULL;
	s->acc = NULL;
	s->labels = NULL;
	s->topo = NULL;
	s->topo_cpus = NULL;
	s->topo_place_cpu = NULL;
	s->topo_place_line = NULL;
	s->topo_places = 0;
	s->nlines = 0;
}

PERFEV_API void perfev_stat_free(struct perfev_stat *s)
{
	if (!s)
		return;
	free_lines(s);
	free(s->status);
	free(s->prev);
	free(s->run_ns);
	free(s);
}

static char *thread_comm(int tid, const char *fallback)
{
	char path[64], comm[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", tid);
	if (pv_read_line(path, comm, sizeof(comm)) < 0)
		snprintf(comm, sizeof(comm), "%s", fallback);
	return strdup(comm);
}

/* Thread names: as they are now (a thread may exec after the open), or as
 * the counters saw them at open when the thread is gone. */
static void comms_from(struct perfev_stat *s, const struct perfev_counters *c)
{
	if (s->aggr != PERFEV_AGGR_PLACE || s->labels_cpus)
		return;
	for (size_t i = 0; i < s->nlines && i < perfev_counters_nr_places(c); i++) {
		const char *n = perfev_counters_place_comm(c, i);
		char *d = thread_comm(s->labels[i], n[0] ? n : "?");
		if (d) {
			free(s->comm[i]);
			s->comm[i] = d;
		}
	}
}

/* cpu's place in the aggregation: the parts of its topology that count */
static struct pv_cpu_topo topo_key(enum perfev_stat_aggr aggr, int cpu)
{
	if (aggr == PERFEV_AGGR_NODE)
		return (struct pv_cpu_topo){-1, -1, -1, pv_cpu_node(cpu)};
	struct pv_cpu_topo t;
	pv_cpu_topo(cpu, &t);
	if (aggr != PERFEV_AGGR_CORE)
		t.core = -1;
	if (aggr == PERFEV_AGGR_SOCKET)
		t.die = -1;
	return t;
}

static int cmp_topo(const void *pa, const void *pb)
{
	const struct pv_cpu_topo *a = pa, *b = pb;
	int c = (a->socket > b->socket) - (a->socket < b->socket);
	c = c ? c : (a->die > b->die) - (a->die < b->die);
	c = c ? c : (a->core > b->core) - (a->core < b->core);
	return c ? c : (a->node > b->node) - (a->node < b->node);
}

/* By topology: each place's line (line_of), the lines' keys and CPU counts
 * on the first run (perf's order: socket, die, core; node). 0 or -errno. */
static int topo_lines(struct perfev_stat *s, const int *labels, bool cpus, size_t nplaces, size_t *line_of)
{
	if (!cpus || !labels)
		return pv_error(EINVAL, "stat: --per-core, --per-die, --per-socket and --per-node sum CPUs: "
				"count CPUs (-a or -C), not threads");
	if (s->topo_places && s->topo_places == nplaces && !memcmp(s->topo_place_cpu, labels, nplaces * sizeof(*labels))) {
		memcpy(line_of, s->topo_place_line, nplaces * sizeof(*line_of)); /* the first run's CPUs */
		return (int)s->nlines;
	}
	struct pv_cpu_topo *key = calloc(nplaces + 1, sizeof(*key)), *uniq = calloc(nplaces + 1, sizeof(*uniq));
	if (!key || !uniq) {
		free(key);
		free(uniq);
		return pv_error(ENOMEM, "out of memory");
	}
	for (size_t pl = 0; pl < nplaces; pl++)
		uniq[pl] = key[pl] = topo_key(s->aggr, labels[pl]);
	qsort(uniq, nplaces, sizeof(*uniq), cmp_topo);
	size_t n = 0;
	for (size_t i = 0; i < nplaces; i++)
		if (!n || cmp_topo(&uniq[n - 1], &uniq[i]))
			uniq[n++] = uniq[i];
	int r = 0;
	if (!s->topo) {
		s->topo = uniq;
		s->topo_cpus = calloc(n + 1, sizeof(*s->topo_cpus));
		s->topo_place_cpu = malloc((nplaces + 1) * sizeof(*s->topo_place_cpu));
		s->topo_place_line = malloc((nplaces + 1) * sizeof(*s->topo_place_line));
		uniq = NULL;
		if (!s->topo_cpus || !s->topo_place_cpu || !s->topo_place_line)
			r = pv_error(ENOMEM, "out of memory");
	}
	for (size_t pl = 0; pl < nplaces && !r; pl++) {
		struct pv_cpu_topo *at = bsearch(&key[pl], s->topo, s->nlines ? s->nlines : n, sizeof(*key), cmp_topo);
		if (!at) {
			r = pv_error(EINVAL, "stat: CPU %d is in no core, die, socket or node of the first run", labels[pl]);
			break;
		}
		line_of[pl] = (size_t)(at - s->topo);
		if (!s->nlines)
			s->topo_cpus[line_of[pl]]++;
	}
	if (!r && !s->nlines) {
		memcpy(s->topo_place_cpu, labels, nplaces * sizeof(*labels));
		memcpy(s->topo_place_line, line_of, nplaces * sizeof(*line_of));
		s->topo_places = nplaces;
	}
	free(key);
	free(uniq);
	return r < 0 ? r : (int)n;
}

static int setup_lines(struct perfev_stat *s, const int *labels, bool cpus, size_t nplaces, size_t *line_of)
{
	size_t n = s->aggr == PERFEV_AGGR_GLOBAL ? 1 : nplaces;
	if (pv_stat_by_topo(s->aggr)) {
		int r = topo_lines(s, labels, cpus, nplaces, line_of);
		if (r < 0)
			return r;
		n = (size_t)r;
	} else {
		for (size_t pl = 0; pl < nplaces; pl++)
			line_of[pl] = s->aggr == PERFEV_AGGR_GLOBAL ? 0 : pl;
	}
	if (s->nlines) {
		if (s->nlines != n)
			return pv_error(EINVAL, "the number of CPUs/threads changed between runs "
					"(%zu, now %zu)", s->nlines, n);
		return 0;
	}
	s->acc = calloc(n * (s->nev ? s->nev : 1) + 1, sizeof(*s->acc));
	s->labels = calloc(n + 1, sizeof(*s->labels));
	s->comm = calloc(n + 1, sizeof(*s->comm));
	if (!s->acc || !s->labels || !s->comm) {
		free_lines(s);
		return pv_error(ENOMEM, "out of memory");
	}
	s->nlines = n;
	s->labels_cpus = cpus;
	for (size_t i = 0; i < n && s->aggr == PERFEV_AGGR_PLACE; i++) {
		s->labels[i] = labels ? labels[i] : (int)i;
		if (!cpus && !(s->comm[i] = thread_comm(s->labels[i], "?"))) {
			free_lines(s);
			return pv_error(ENOMEM, "out of memory");
		}
	}
	return 0;
}

PERFEV_API int perfev_stat_add_counts(struct perfev_stat *s, const struct perfev_count *counts,
				      const int *labels, bool labels_are_cpus, size_t nplaces,
				      const int *status, uint64_t elapsed_ns)
{
	size_t *line_of = calloc(nplaces + 1, sizeof(*line_of));
	struct perfev_count *sum = calloc(s->nlines ? s->nlines : nplaces + 1, sizeof(*sum));
	double *runs = realloc(s->run_ns, (s->nruns + 1) * sizeof(*runs));
	if (runs)
		s->run_ns = runs;
	int r = !line_of || !sum || !runs ? pv_error(ENOMEM, "out of memory")
					  : setup_lines(s, labels, labels_are_cpus, nplaces, line_of);
	for (size_t ev = 0; ev < s->nev && r == 0; ev++) {
		if (status)
			s->status[ev] = status[ev];
		memset(sum, 0, s->nlines * sizeof(*sum));
		for (size_t pl = 0; pl < nplaces; pl++) {
			const struct perfev_count *v = &counts[ev * nplaces + pl];
			struct perfev_count *to = &sum[line_of[pl]];
			to->val += v->val;
			to->ena += v->ena;
			to->run += v->run;
		}
		for (size_t line = 0; line < s->nlines; line++) {
			struct pv_acc *a = &s->acc[ev * s->nlines + line];
			pv_acc_add(a, perfev_count_scaled(&sum[line], NULL));
			a->run += (double)sum[line].run;
			a->ena += (double)sum[line].ena;
		}
	}
	if (r == 0) {
		pv_acc_add(&s->elapsed, (double)elapsed_ns);
		s->run_ns[s->nruns++] = (double)elapsed_ns;
	}
	free(line_of);
	free(sum);
	return r;
}

static struct perfev_count *reading(const struct perfev_counters *c, size_t nev, int *labels,
				    bool *cpus, int *status)
{
	size_t np = perfev_counters_nr_places(c);
	struct perfev_count *v = calloc(nev * np + 1, sizeof(*v));
	if (!v)
		return pv_error_null(ENOMEM, "out of memory");
	for (size_t ev = 0; ev < nev; ev++) {
		status[ev] = perfev_counters_status(c, ev);
		for (size_t pl = 0; pl < np; pl++)
			perfev_counters_get(c, ev, pl, &v[ev * np + pl]);
	}
	*cpus = np && perfev_counters_place_cpu(c, 0) >= 0;
	for (size_t pl = 0; pl < np; pl++)
		labels[pl] = *cpus ? perfev_counters_place_cpu(c, pl) : (int)perfev_counters_place_tid(c, pl);
	return v;
}

static int add_from(struct perfev_stat *s, const struct perfev_counters *c, uint64_t ns, bool delta)
{
	size_t np = perfev_counters_nr_places(c);
	int *labels = calloc(np + 1, sizeof(int)), *status = calloc(s->nev + 1, sizeof(int));
	bool cpus = false;
	struct perfev_count *v = labels && status ? reading(c, s->nev, labels, &cpus, status) : NULL;
	int r;
	if (!v) {
		r = pv_error(ENOMEM, "out of memory");
		goto out;
	}
	if (delta) {
		size_t n = s->nev * np;
		if (s->prev && s->nprev != n) {
			r = pv_error(EINVAL, "the counters changed shape between intervals");
			goto out;
		}
		struct perfev_count *cur = malloc((n + 1) * sizeof(*cur));
		if (!cur) {
			r = pv_error(ENOMEM, "out of memory");
			goto out;
		}
		memcpy(cur, v, n * sizeof(*cur));
		for (size_t i = 0; s->prev && i < n; i++) {
			v[i].val -= s->prev[i].val;
			v[i].ena -= s->prev[i].ena;
			v[i].run -= s->prev[i].run;
		}
		free(s->prev);
		s->prev = cur;
		s->nprev = n;
		/* an interval stands alone: forget the previous one */
		for (size_t i = 0; i < s->nev * s->nlines; i++)
			s->acc[i] = (struct pv_acc){0};
		s->elapsed = (struct pv_acc){0};
		s->nruns = 0;
	}
	r = perfev_stat_add_counts(s, v, labels, cpus, np, status, ns);
	if (r == 0)
		comms_from(s, c);
out:
	free(v);
	free(labels);
	free(status);
	return r;
}

PERFEV_API int perfev_stat_add(struct perfev_stat *s, const struct perfev_counters *c,
			       uint64_t elapsed_ns)
{
	return add_from(s, c, elapsed_ns, false);
}

PERFEV_API int perfev_stat_add_interval(struct perfev_stat *s, const struct perfev_counters *c,
					uint64_t elapsed_ns)
{
	return add_from(s, c, elapsed_ns, true);
}

PERFEV_API void perfev_stat_set_rusage(struct perfev_stat *s, const struct rusage *ru)
{
	s->ru = *ru;
	s->have_ru = true;
}

PERFEV_API size_t perfev_stat_nr_lines(const struct perfev_stat *s) { return s->nlines; }

PERFEV_API int perfev_stat_value(const struct perfev_stat *s, size_t ev, size_t line,
				 struct perfev_stat_value *o)
{
	if (ev >= s->nev || line >= s->nlines)
		return pv_error(ERANGE, "event %zu / line %zu out of range", ev, line);
	const struct pv_acc *a = &s->acc[ev * s->nlines + line];
	const struct perfev_evsel *e = perfev_evlist_at(s->list, ev);
	double scale = pv_stat_scale(e, &o->unit);
	o->raw = a->mean;
	o->val = a->mean * scale;
	o->stddev = pv_acc_stddev_mean(a) * scale;
	o->runs = a->n;
	o->run = a->n ? a->run / a->n : 0;
	o->ena = a->n ? a->ena / a->n : 0;
	o->pcnt_running = o->ena > 0 ? 100.0 * o->run / o->ena : 100.0;
	o->status = s->status[ev];
	o->counted = o->status == 0 && a->run > 0;
	return 0;
}

/* ---- derived metrics (perf's stat-shadow) ------------------------------- */
static bool find(const struct perfev_stat *s, size_t line, uint32_t type, uint64_t config, double *v)
{
	for (size_t ev = 0; ev < s->nev; ev++) {
		const struct perfev_attr *a = perfev_evsel_attr_const(perfev_evlist_at(s->list, ev));
		if (a->type != type || a->config != config)
			continue;
		struct perfev_stat_value sv;
		perfev_stat_value(s, ev, line, &sv);
		if (!sv.counted)
			continue;
		*v = sv.raw;
		return true;
	}
	return false;
}

static bool find_clock(const struct perfev_stat *s, size_t line, double *v)
{
	return find(s, line, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, v) ||
	       find(s, line, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, v);
}

#define CACHE(id, op, res) ((id) | ((op) << 8) | ((res) << 16))

static const char *cache_ratio_name(uint64_t config)
{
	switch (config & 0xff) {
	case PERF_COUNT_HW_CACHE_L1D: return "of all L1-dcache accesses";
	case PERF_COUNT_HW_CACHE_L1I: return "of all L1-icache accesses";
	case PERF_COUNT_HW_CACHE_LL: return "of all LL-cache accesses";
	case PERF_COUNT_HW_CACHE_DTLB: return "of all dTLB cache accesses";
	case PERF_COUNT_HW_CACHE_ITLB: return "of all iTLB cache accesses";
	}
	return NULL;
}

static bool ratio(const struct perfev_stat *s, size_t line, double num, uint32_t type,
		  uint64_t config, double *value)
{
	double den;
	if (!find(s, line, type, config, &den) || den == 0)
		return false;
	*value = 100.0 * num / den;
	return true;
}

PERFEV_API bool perfev_stat_metric(const struct perfev_stat *s, size_t ev, size_t line,
				   double *value, const char **unit)
{
	struct perfev_stat_value sv;
	if (perfev_stat_value(s, ev, line, &sv) < 0 || !sv.counted)
		return false;
	const struct perfev_attr *a = perfev_evsel_attr_const(perfev_evlist_at(s->list, ev));
	double v = sv.raw, clock, den;
	if (is_clock(a)) {
		double el = s->elapsed.mean;
		if (el <= 0)
			return false;
		*value = v / el;
		*unit = "CPUs utilized";
		return true;
	}
	if (a->type == PERF_TYPE_HARDWARE) {
		switch (a->config) {
		case PERF_COUNT_HW_CPU_CYCLES:
			if (!find_clock(s, line, &clock) || clock == 0)
				break;
			*value = v / clock;
			*unit = "GHz";
			return true;
		case PERF_COUNT_HW_INSTRUCTIONS:
			if (!find(s, line, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, &den) || den == 0)
				break;
			*value = v / den;
			*unit = "insn per cycle";
			return true;
		case PERF_COUNT_HW_BRANCH_MISSES:
			*unit = "of all branches";
			if (ratio(s, line, v, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, value))
				return true;
			break;
		case PERF_COUNT_HW_CACHE_MISSES:
			*unit = "of all cache refs";
			if (ratio(s, line, v, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, value))
				return true;
			break;
		case PERF_COUNT_HW_STALLED_CYCLES_FRONTEND:
			*unit = "frontend cycles idle";
			if (ratio(s, line, v, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, value))
				return true;
			break;
		case PERF_COUNT_HW_STALLED_CYCLES_BACKEND:
			*unit = "backend cycles idle";
			if (ratio(s, line, v, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, value))
				return true;
			break;
		}
	}
	if (a->type == PERF_TYPE_HW_CACHE && (a->config >> 16) == PERF_COUNT_HW_CACHE_RESULT_MISS &&
	    cache_ratio_name(a->config)) {
		uint64_t access = (a->config & 0xffff) | ((uint64_t)PERF_COUNT_HW_CACHE_RESULT_ACCESS << 16);
		*unit = cache_ratio_name(a->config);
		if (ratio(s, line, v, PERF_TYPE_HW_CACHE, access, value))
			return true;
	}
	/* any other event: a rate per second of task-clock, as perf */
	if (!find_clock(s, line, &clock) || clock == 0)
		return false;
	pv_stat_rate(1e9 * v / clock, value, unit);
	return true;
}

static const struct {
	double mult;
	const char *unit;
} rates[] = {{1e9, "G/sec"}, {1e6, "M/sec"}, {1e3, "K/sec"}, {1, "/sec"}};

void pv_stat_rate(double per_sec, double *value, const char **unit)
{
	size_t i = 0;
	while (i + 1 < PV_ARRAY_SIZE(rates) && per_sec < rates[i].mult)
		i++;
	*value = per_sec / rates[i].mult;
	*unit = rates[i].unit;
}

bool pv_stat_rate_of(double value, const char *unit, double *per_sec)
{
	for (size_t i = 0; i < PV_ARRAY_SIZE(rates); i++)
		if (!strcmp(unit, rates[i].unit)) {
			*per_sec = value * rates[i].mult;
			return true;
		}
	return false;
}
