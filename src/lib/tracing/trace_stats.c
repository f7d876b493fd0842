/*
 * trace_stats.c — the syscall summary: perf trace -s's arithmetic (a call
 * counted at its exit; Welford mean/M2; "stddev" is the standard error of
 * the mean as a percentage of it) and its text.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/trace.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct sc_stat {
	long nr;
	uint64_t n, errors;
	double mean, m2;
	uint64_t min, max;
};

struct sc_thread {
	pid_t pid, tid;
	char *comm;
	uint64_t nr_events;
	uint64_t entry_time; /* 0: no enter seen */
	struct sc_stat *st;
	size_t nr_st, cap_st;
};

struct perfev_sctrace {
	struct sc_thread *th;
	size_t nr_th, cap_th;
	size_t last; /* the thread of the previous event: consecutive events share it */
	uint64_t nr_events;
};

PERFEV_API struct perfev_sctrace *perfev_sctrace_new(void)
{
	struct perfev_sctrace *t = calloc(1, sizeof(*t));
	if (!t)
		return pv_error_null(ENOMEM, "out of memory");
	return t;
}

PERFEV_API void perfev_sctrace_free(struct perfev_sctrace *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr_th; i++) {
		free(t->th[i].comm);
		free(t->th[i].st);
	}
	free(t->th);
	free(t);
}

static struct sc_thread *thread_of(struct perfev_sctrace *t, pid_t pid, pid_t tid)
{
	if (t->last < t->nr_th && t->th[t->last].tid == tid)
		return &t->th[t->last];
	for (size_t i = 0; i < t->nr_th; i++)
		if (t->th[i].tid == tid) {
			t->last = i;
			return &t->th[i];
		}
	if (pv_grow(&t->th, &t->cap_th, t->nr_th + 1, sizeof(*t->th)) < 0)
		return pv_error_null(ENOMEM, "out of memory");
	struct sc_thread *th = &t->th[t->nr_th];
	memset(th, 0, sizeof(*th));
	th->pid = pid;
	th->tid = tid;
	t->last = t->nr_th++;
	return th;
}

/* perf's trace__syscall_info: a negative id (the sys_exit of rt_sigreturn,
 * whose orig_ax is -1) is no syscall: an event of the total only. */
static bool no_syscall(struct perfev_sctrace *t, long nr)
{
	if (nr >= 0)
		return false;
	t->nr_events++;
	return true;
}

PERFEV_API int perfev_sctrace_enter(struct perfev_sctrace *t, pid_t pid, pid_t tid,
				    uint64_t time, long nr)
{
	if (no_syscall(t, nr))
		return 0;
	struct sc_thread *th = thread_of(t, pid, tid);
	if (!th)
		return -ENOMEM;
	th->entry_time = time;
	th->nr_events++;
	t->nr_events++;
	return 0;
}

PERFEV_API int perfev_sctrace_exit(struct perfev_sctrace *t, pid_t pid, pid_t tid,
				   uint64_t time, long nr, int64_t ret)
{
	if (no_syscall(t, nr))
		return 0;
	struct sc_thread *th = thread_of(t, pid, tid);
	if (!th)
		return -ENOMEM;
	th->nr_events++;
	t->nr_events++;
	struct sc_stat *s = NULL;
	for (size_t i = 0; i < th->nr_st && !s; i++)
		if (th->st[i].nr == nr)
			s = &th->st[i];
	if (!s) {
		if (pv_grow(&th->st, &th->cap_st, th->nr_st + 1, sizeof(*th->st)) < 0)
			return pv_error(ENOMEM, "out of memory");
		s = &th->st[th->nr_st++];
		memset(s, 0, sizeof(*s));
		s->nr = nr;
		s->min = UINT64_MAX;
	}
	uint64_t d = th->entry_time && time > th->entry_time ? time - th->entry_time : 0;
	/* perf's update_stats: Welford's running mean and M2 */
	s->n++;
	double delta = (double)d - s->mean;
	s->mean += delta / (double)s->n;
	s->m2 += delta * ((double)d - s->mean);
	if (d > s->max)
		s->max = d;
	if (d < s->min)
		s->min = d;
	if (ret < 0)
		s->errors++;
	return 0;
}

PERFEV_API int perfev_sctrace_comm(struct perfev_sctrace *t, pid_t pid, pid_t tid,
				   const char *comm)
{
	struct sc_thread *th = thread_of(t, pid, tid);
	if (!th)
		return -ENOMEM;
	char *c = pv_strdup(comm);
	if (!c)
		return -ENOMEM;
	free(th->comm);
	th->comm = c;
	return 0;
}

static double total_ms(const struct sc_stat *s)
{
	/* perf: (u64)n * (mean / NSEC_PER_MSEC), a double */
	return (double)s->n * (s->mean / 1e6);
}

static void fill_row(const struct sc_thread *th, const struct sc_stat *s,
		     struct perfev_syscall_stat *r)
{
	const char *name = perfev_syscall_name(s->nr);
	r->pid = th->pid;
	r->tid = th->tid;
	r->comm = th->comm ? th->comm : "";
	r->nr = s->nr;
	r->name = name ? name : "";
	r->calls = s->n;
	r->errors = s->errors;
	r->total_ms = total_ms(s);
	r->min_ms = s->n ? (double)s->min / 1e6 : 0;
	r->max_ms = (double)s->max / 1e6;
	r->avg_ms = s->mean / 1e6;
	double sd = 0;
	if (s->n >= 2)
		sd = sqrt(s->m2 / (double)(s->n - 1) / (double)s->n);
	r->stddev_pct = s->mean ? 100.0 * sd / s->mean : 0.0;
}

static int cmp_tid(const void *a, const void *b)
{
	const struct sc_thread *x = *(const struct sc_thread *const *)a;
	const struct sc_thread *y = *(const struct sc_thread *const *)b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int cmp_total(const void *a, const void *b)
{
	/* perf resorts by msecs, largest first; ties by syscall number */
	const struct sc_stat *x = a, *y = b;
	double tx = total_ms(x), ty = total_ms(y);
	if (tx != ty)
		return tx < ty ? 1 : -1;
	return (x->nr > y->nr) - (x->nr < y->nr);
}

/* Threads by tid, each one's syscalls sorted (copies; caller frees). */
static const struct sc_thread **sorted_threads(const struct perfev_sctrace *t)
{
	const struct sc_thread **v = calloc(t->nr_th ? t->nr_th : 1, sizeof(*v));
	if (!v)
		return pv_error_null(ENOMEM, "out of memory");
	for (size_t i = 0; i < t->nr_th; i++) {
		v[i] = &t->th[i];
		qsort(t->th[i].st, t->th[i].nr_st, sizeof(*t->th[i].st), cmp_total);
	}
	qsort(v, t->nr_th, sizeof(*v), cmp_tid);
	return v;
}

PERFEV_API int perfev_sctrace_stats(const struct perfev_sctrace *t,
				    struct perfev_syscall_stat **rows)
{
	size_t n = 0;
	for (size_t i = 0; i < t->nr_th; i++)
		n += t->th[i].nr_st;
	*rows = calloc(n ? n : 1, sizeof(**rows));
	const struct sc_thread **v = sorted_threads(t);
	if (!*rows || !v) {
		free(*rows);
		free(v);
		*rows = NULL;
		return pv_error(ENOMEM, "out of memory");
	}
	size_t k = 0;
	for (size_t i = 0; i < t->nr_th; i++)
		for (size_t j = 0; j < v[i]->nr_st; j++)
			fill_row(v[i], &v[i]->st[j], &(*rows)[k++]);
	free(v);
	return (int)k;
}

PERFEV_API int perfev_sctrace_print(const struct perfev_sctrace *t, FILE *f)
{
	const struct sc_thread **v = sorted_threads(t);
	if (!v)
		return -ENOMEM;
	fprintf(f, "\n Summary of events:\n\n");
	for (size_t i = 0; i < t->nr_th; i++) {
		const struct sc_thread *th = v[i];
		double ratio = t->nr_events ? (double)th->nr_events / (double)t->nr_events * 100.0 : 0;
		if (th->comm) /* perf names a thread without a comm ":TID" */
			fprintf(f, " %s (%d), ", th->comm, (int)th->tid);
		else
			fprintf(f, " :%d (%d), ", (int)th->tid, (int)th->tid);
		fprintf(f, "%llu events, %.1f%%\n", (unsigned long long)th->nr_events, ratio);
		if (!th->nr_st)
			continue;
		fprintf(f, "\n   syscall            calls  errors  total       min       avg       max       stddev\n"
			   "                                     (msec)    (msec)    (msec)    (msec)        (%%)\n"
			   "   --------------- --------  ------ -------- --------- --------- ---------     ------\n");
		for (size_t j = 0; j < th->nr_st; j++) {
			struct perfev_syscall_stat r;
			fill_row(th, &th->st[j], &r);
			char num[24];
			if (!r.name[0])
				snprintf(num, sizeof(num), "%ld", r.nr);
			fprintf(f, "   %-15s %8llu %6llu %9.3f %9.3f %9.3f %9.3f %9.2f%%\n",
				r.name[0] ? r.name : num, (unsigned long long)r.calls,
				(unsigned long long)r.errors, total_ms(&th->st[j]), r.min_ms, r.avg_ms,
				r.max_ms, r.stddev_pct);
		}
		fprintf(f, "\n\n");
	}
	free(v);
	return ferror(f) ? -EIO : 0;
}
