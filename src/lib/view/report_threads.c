/* report_threads.c — perf report -T: the values of PERF_RECORD_READ records
 * (perf record -s, inherit_stat: one per thread at its exit) per thread and
 * event, after the report, as perf's util/values.c prints them (its
 * "normal" style, or --pretty raw's). Collected in the report's one pass
 * through the load's on_record hook. */
#define _GNU_SOURCE
#include "view/report_int.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

struct pv_thread_values {
	struct perfev_perfdata *pd;      /* event names */
	struct tv_thread { uint32_t pid, tid; } *threads;
	struct tv_counter { int idx; char name[128]; } *counters;
	struct tv_value { size_t thread, counter; uint64_t value; } *values;
	size_t nthreads, ncounters, nvalues, cthreads, ccounters, cvalues;
	/* the caller's own hook, called after ours */
	int (*next)(void *ctx, const struct perfev_record *rec);
	void *next_ctx;
};

/* perf's perf_read_values__findnew_thread/_counter: in the order first seen. */
static int thread_index(struct pv_thread_values *t, uint32_t pid, uint32_t tid, size_t *out)
{
	for (*out = 0; *out < t->nthreads; ++*out)
		if (t->threads[*out].pid == pid && t->threads[*out].tid == tid)
			return 0;
	if (pv_grow(&t->threads, &t->cthreads, t->nthreads + 1, sizeof(*t->threads)) < 0)
		return -ENOMEM;
	t->threads[t->nthreads++] = (struct tv_thread){pid, tid};
	return 0;
}

static int counter_index(struct pv_thread_values *t, int idx, size_t *out)
{
	for (*out = 0; *out < t->ncounters; ++*out)
		if (t->counters[*out].idx == idx)
			return 0;
	if (pv_grow(&t->counters, &t->ccounters, t->ncounters + 1, sizeof(*t->counters)) < 0)
		return -ENOMEM;
	struct tv_counter *c = &t->counters[t->ncounters++];
	c->idx = idx;
	const char *name = idx >= 0 ? perfev_perfdata_event_name(t->pd, (size_t)idx) : NULL;
	snprintf(c->name, sizeof(c->name), "%s", name ? name : "unknown");
	return 0;
}

static int on_record(void *ctx, const struct perfev_record *rec)
{
	struct pv_thread_values *t = ctx;
	if (rec->type == PERF_RECORD_READ && rec->u.read.values.nr) {
		size_t ti, ci;
		if (thread_index(t, rec->u.read.pid, rec->u.read.tid, &ti) < 0 ||
		    counter_index(t, rec->attr_idx, &ci) < 0 ||
		    pv_grow(&t->values, &t->cvalues, t->nvalues + 1, sizeof(*t->values)) < 0)
			return pv_error(ENOMEM, "report -T: out of memory");
		/* perf takes the first value of the record's read_format block */
		t->values[t->nvalues++] = (struct tv_value){ti, ci, rec->u.read.values.values[0].value};
	}
	return t->next ? t->next(t->next_ctx, rec) : 0;
}

struct pv_thread_values *pv_thread_values_hook(struct perfev_perfdata *pd, struct perfev_profile_load_opts *lo)
{
	struct pv_thread_values *t = calloc(1, sizeof(*t));
	if (!t)
		return pv_error_null(ENOMEM, "out of memory");
	t->pd = pd;
	t->next = lo->on_record, t->next_ctx = lo->on_record_ctx;
	lo->on_record = on_record, lo->on_record_ctx = t;
	return t;
}

void pv_thread_values_free(struct pv_thread_values *t)
{
	if (!t)
		return;
	free(t->threads);
	free(t->counters);
	free(t->values);
	free(t);
}

static int width_u64(uint64_t v) { return snprintf(NULL, 0, "%" PRIu64, v); }
static int width_d(uint32_t v) { return snprintf(NULL, 0, "%d", (int)v); }
static int max_int(int a, int b) { return a > b ? a : b; }

/* perf_read_values__display_pretty */
static void print_pretty(const struct pv_thread_values *t, const uint64_t *m, FILE *out)
{
	int pidw = 3, tidw = 3, cw[t->ncounters ? t->ncounters : 1];
	for (size_t j = 0; j < t->ncounters; j++)
		cw[j] = (int)strlen(t->counters[j].name);
	for (size_t i = 0; i < t->nthreads; i++) {
		pidw = max_int(pidw, width_d(t->threads[i].pid));
		tidw = max_int(tidw, width_d(t->threads[i].tid));
		for (size_t j = 0; j < t->ncounters; j++)
			cw[j] = max_int(cw[j], width_u64(m[i * t->ncounters + j]));
	}
	fprintf(out, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (size_t j = 0; j < t->ncounters; j++)
		fprintf(out, "  %*s", cw[j], t->counters[j].name);
	fputc('\n', out);
	for (size_t i = 0; i < t->nthreads; i++) {
		fprintf(out, "  %*d  %*d", pidw, (int)t->threads[i].pid, tidw, (int)t->threads[i].tid);
		for (size_t j = 0; j < t->ncounters; j++)
			fprintf(out, "  %*" PRIu64, cw[j], m[i * t->ncounters + j]);
		fputc('\n', out);
	}
}

/* perf_read_values__display_raw: one line per thread and event (perf 6.1
 * ends none of them with a newline; nor does this) */
static void print_raw(const struct pv_thread_values *t, const uint64_t *m, FILE *out)
{
	int pidw = 3, tidw = 3, namew = 4, raww = 3, countw = 5;
	for (size_t i = 0; i < t->nthreads; i++) {
		pidw = max_int(pidw, width_d(t->threads[i].pid));
		tidw = max_int(tidw, width_d(t->threads[i].tid));
		for (size_t j = 0; j < t->ncounters; j++)
			countw = max_int(countw, width_u64(m[i * t->ncounters + j]));
	}
	for (size_t j = 0; j < t->ncounters; j++) {
		namew = max_int(namew, (int)strlen(t->counters[j].name));
		raww = max_int(raww, snprintf(NULL, 0, "%x", (unsigned)t->counters[j].idx));
	}
	fprintf(out, "# %*s  %*s  %*s  %*s  %*s\n", pidw, "PID", tidw, "TID", namew, "Name", raww, "Raw", countw,
		"Count");
	for (size_t i = 0; i < t->nthreads; i++)
		for (size_t j = 0; j < t->ncounters; j++)
			fprintf(out, "  %*d  %*d  %*s  %*x  %*" PRIu64, pidw, (int)t->threads[i].pid, tidw,
				(int)t->threads[i].tid, namew, t->counters[j].name, raww, (unsigned)t->counters[j].idx,
				countw, m[i * t->ncounters + j]);
}

int pv_thread_values_print(const struct pv_thread_values *t, bool raw, FILE *out)
{
	uint64_t *m = calloc(t->nthreads * t->ncounters + 1, sizeof(*m));
	if (!m)
		return pv_error(ENOMEM, "out of memory");
	for (size_t k = 0; k < t->nvalues; k++) /* perf adds a thread's values up */
		m[t->values[k].thread * t->ncounters + t->values[k].counter] += t->values[k].value;
	(raw ? print_raw : print_pretty)(t, m, out);
	free(m);
	return ferror(out) ? pv_error(EIO, "report -T: write error") : 0;
}
