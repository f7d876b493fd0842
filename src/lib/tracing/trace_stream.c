/*
 * trace_stream.c — perf trace's line per system call, fed the tracer's
 * enter and exit events in time order:
 *
 *      0.532 ( 0.013 ms): cat/32126 openat(dfd: CWD, filename: 0x64d890b1, flags: RDONLY|CLOEXEC)         = 3
 *
 * the entry's time in ms since the first event, the call's duration, the
 * thread, the call with its arguments (syscall_beauty.c) padded to perf's
 * 70 columns, and the return value. As perf's (builtin-trace.c): an exit
 * without its entry (execve's, entered before the tracing began) is
 * "? (         ): ... [continued]: execve())", exit and exit_group print at
 * entry with "= ?", and a call another thread's event interrupts prints
 * its entry with " ..." and later its end as continued.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "tracing/trace_int.h"

#include <stdlib.h>
#include <string.h>

#define ALIGN 70    /* perf trace's args_alignment */
#define MAX_NR 1024 /* syscall numbers the format cache holds */

struct sc_thread {
	pid_t tid;
	char comm[16];
	bool named;
	/* the call entered and not yet ended */
	bool pending, printed; /* printed: its entry was (interrupted) */
	long nr;
	uint64_t time;
	char entry[512];
};

struct pv_sc_stream {
	struct perfev_tp *tp;
	FILE *out;
	uint64_t min_ns; /* --duration */
	uint64_t base;   /* the first event's time */
	struct pv_sc_fmt *fmts; /* [MAX_NR], loaded on first use */
	struct sc_thread *th;
	size_t nr_th, cap_th;
	size_t current; /* the thread of the last entry (perf's trace->current), or nr_th */
};

struct pv_sc_stream *pv_sc_stream_new(struct perfev_tp *tp, FILE *out, double min_ms)
{
	struct pv_sc_stream *s = calloc(1, sizeof(*s));
	if (!s || !(s->fmts = calloc(MAX_NR, sizeof(*s->fmts)))) {
		free(s);
		return pv_error_null(ENOMEM, "out of memory");
	}
	s->tp = tp;
	s->out = out;
	s->min_ns = min_ms > 0 ? (uint64_t)(min_ms * 1e6) : 0;
	return s;
}

void pv_sc_stream_free(struct pv_sc_stream *s)
{
	if (!s)
		return;
	free(s->fmts);
	free(s->th);
	free(s);
}

static struct sc_thread *thread_of(struct pv_sc_stream *s, pid_t tid)
{
	for (size_t i = s->nr_th; i-- > 0;) /* (recent threads last) */
		if (s->th[i].tid == tid)
			return &s->th[i];
	if (pv_grow(&s->th, &s->cap_th, s->nr_th + 1, sizeof(*s->th)) < 0)
		return NULL;
	struct sc_thread *t = &s->th[s->nr_th++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	return t;
}

/* the thread's name: its COMM, else what /proc says now (a thread that
 * existed before the tracing), else "?" */
static const char *comm_of(struct sc_thread *t)
{
	if (!t->named) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)t->tid);
		if (pv_read_line(path, t->comm, sizeof(t->comm)) < 0)
			snprintf(t->comm, sizeof(t->comm), "?");
		t->named = true;
	}
	return t->comm;
}

int pv_sc_stream_comm(struct pv_sc_stream *s, pid_t tid, const char *comm)
{
	struct sc_thread *t = thread_of(s, tid);
	if (!t)
		return pv_error(ENOMEM, "out of memory");
	snprintf(t->comm, sizeof(t->comm), "%s", comm);
	t->named = true;
	return 0;
}

static const struct pv_sc_fmt *fmt_of(struct pv_sc_stream *s, long nr)
{
	static __thread struct pv_sc_fmt other;
	struct pv_sc_fmt *f = nr >= 0 && nr < MAX_NR ? &s->fmts[nr] : &other;
	if (!f->loaded || f == &other)
		pv_sc_fmt_load(f, s->tp, nr);
	return f;
}

/* "%10.3f ( %6.3f ms): comm/tid " (perf's trace__fprintf_entry_head) */
static void head(struct pv_sc_stream *s, struct sc_thread *t, uint64_t time, bool timed, uint64_t dur)
{
	if (time)
		fprintf(s->out, "%10.3f (", (double)(time - s->base) / 1e6);
	else
		fprintf(s->out, "%10s (", "?");
	if (timed)
		fprintf(s->out, "%6.3f ms", (double)dur / 1e6);
	else
		fprintf(s->out, "         ");
	fprintf(s->out, "): %.14s/%d ", comm_of(t), (int)t->tid);
}

/* perf's trace__printf_interrupted_entry: the current thread's call, entered
 * and not ended, printed before another thread's event */
static void interrupted(struct pv_sc_stream *s, pid_t tid)
{
	if (s->current >= s->nr_th)
		return;
	struct sc_thread *t = &s->th[s->current];
	if (t->tid == tid || !t->pending || t->printed)
		return;
	head(s, t, t->time, false, 0);
	int len = fprintf(s->out, "%s)", t->entry);
	if (len < ALIGN - 4)
		fprintf(s->out, "%-*s", ALIGN - 4 - len, " ");
	fprintf(s->out, " ...\n");
	t->printed = true;
}

static void note_time(struct pv_sc_stream *s, uint64_t time)
{
	if (!s->base)
		s->base = time;
}

int pv_sc_stream_enter(struct pv_sc_stream *s, pid_t tid, uint64_t time, long nr, const uint64_t *args)
{
	note_time(s, time);
	struct sc_thread *t = thread_of(s, tid);
	if (!t)
		return pv_error(ENOMEM, "out of memory");
	if (!s->min_ns)
		interrupted(s, tid);
	t = thread_of(s, tid); /* (interrupted may not move the table, but be plain) */
	const struct pv_sc_fmt *f = fmt_of(s, nr);
	pv_sc_args_text(f, args, t->entry, sizeof(t->entry));
	t->nr = nr;
	t->time = time;
	t->printed = false;
	if (f->ret == PV_RET_NONE) { /* exit, exit_group: no return */
		t->pending = false;
		if (!s->min_ns) {
			head(s, t, time, false, 0);
			int printed = fprintf(s->out, "%s)", t->entry);
			fprintf(s->out, "%*s= ?\n", printed < ALIGN ? ALIGN - printed : 0, " ");
		}
	} else {
		t->pending = true;
	}
	s->current = (size_t)(t - s->th);
	return 0;
}

int pv_sc_stream_exit(struct pv_sc_stream *s, pid_t tid, uint64_t time, long nr, int64_t ret)
{
	note_time(s, time);
	struct sc_thread *t = thread_of(s, tid);
	if (!t)
		return pv_error(ENOMEM, "out of memory");
	const struct pv_sc_fmt *f = fmt_of(s, nr);
	bool entered = t->pending && t->nr == nr;
	uint64_t dur = entered && time >= t->time ? time - t->time : 0;
	t->pending = false;
	if (s->min_ns && (!entered || dur < s->min_ns)) /* (perf: no duration, no line) */
		return 0;
	int printed;
	if (entered && !t->printed) {
		head(s, t, t->time, true, dur);
		printed = fprintf(s->out, "%s", t->entry);
	} else { /* entered before the tracing, or printed as interrupted */
		head(s, t, entered ? t->time : 0, entered, dur);
		printed = fprintf(s->out, " ... [continued]: %s()", f->name);
	}
	printed++; /* the ')' */
	fprintf(s->out, ")%*s= ", printed < ALIGN ? ALIGN - printed : 0, " ");
	char rbuf[128];
	struct sc_thread *child = f->ret == PV_RET_PID && ret > 0 ? thread_of(s, (pid_t)ret) : NULL;
	pv_sc_ret_text(f, ret, child ? comm_of(child) : NULL, rbuf, sizeof(rbuf));
	fprintf(s->out, "%s\n", rbuf);
	return 0;
}
