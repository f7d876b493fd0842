/*
 * trace_run.c — the live syscall tracer: raw_syscalls:sys_enter/sys_exit
 * opened on a command (per CPU, inherited by what it forks), on the
 * threads of a process or on every CPU, one ring per CPU or thread with the
 * exit event's records sent into the enter event's ring (a filter on the
 * syscall id keeps the calls asked for); the records are gathered, put in
 * time order (a thread may enter on one CPU and leave on another: each
 * poll round's records are held until the next round is read, as perf's
 * ordered events) and fed to the summary and the line per call
 * (trace_stream.c).
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "perfev/counter.h"
#include "perfev/record.h"
#include "perfev/ring.h"
#include "perfev/sys.h"
#include "perfev/tracepoint.h"
#include "perfev/trace.h"
#include "tracing/tp_int.h"
#include "tracing/trace_int.h"

#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct sc_event {
	uint64_t time;
	pid_t pid, tid;
	long nr;
	int64_t ret;
	bool exit;
	uint64_t args[6]; /* an entry's */
};

struct perfev_tracer {
	struct perfev_trace_opts opts;
	struct perfev_child *child;
	int *fds;
	size_t nr_fds, cap_fds;
	struct perfev_ring **rings;
	size_t nr_rings, cap_rings;
	struct perfev_tp *tp;
	struct perfev_decoder *dec;
	uint64_t enter_id, exit_id;
	int id_off, ret_off; /* raw_syscalls' long id and long ret (8 bytes each) */
	int args_off;        /* sys_enter's unsigned long args[6] */
	char *filter;        /* the id filter of opts.syscalls, or NULL */
	struct sc_event *ev; /* read, not yet delivered */
	size_t nr_ev, cap_ev;
	uint64_t round_end;  /* the last time of the previous poll round */
	struct perfev_sctrace *sum;
	struct pv_sc_stream *stream;
	volatile sig_atomic_t stop;
	int status;
	uint64_t lost;
	int err;
};

static void base_attr(struct perfev_attr *a, uint64_t id, bool comm)
{
	memset(a, 0, sizeof(*a));
	a->size = PERFEV_ATTR_SIZE_LATEST;
	a->type = PERF_TYPE_TRACEPOINT;
	a->config = id;
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_RAW;
	a->sample_id_all = 1;
	a->comm = comm;
	a->comm_exec = comm;
	a->watermark = 1;
	a->wakeup_watermark = 16384;
}

static int add_fd(struct perfev_tracer *tr, int fd)
{
	if (pv_grow(&tr->fds, &tr->cap_fds, tr->nr_fds + 1, sizeof(*tr->fds)) < 0) {
		close(fd);
		return pv_error(ENOMEM, "out of memory");
	}
	tr->fds[tr->nr_fds++] = fd;
	return 0;
}

/* sys_enter and sys_exit on (pid, cpu), one ring for both. */
static int open_pair(struct perfev_tracer *tr, pid_t pid, int cpu, bool child)
{
	int fd[2];
	for (int i = 0; i < 2; i++) {
		struct perfev_attr a;
		base_attr(&a, i ? tr->exit_id : tr->enter_id, i == 0); /* COMM records once */
		a.inherit = child;
		a.disabled = child;
		a.enable_on_exec = child;
		fd[i] = perfev_open(&a, pid, cpu, -1, 0);
		if (fd[i] < 0)
			return fd[i];
		if (add_fd(tr, fd[i]) < 0)
			return -ENOMEM;
		if (tr->filter && perfev_ioc_set_filter(fd[i], tr->filter) < 0)
			return pv_error(errno, "the kernel refused the filter '%s' on raw_syscalls: %s",
					tr->filter, strerror(errno));
	}
	int fe = fd[0], fx = fd[1];
	if (pv_grow(&tr->rings, &tr->cap_rings, tr->nr_rings + 1, sizeof(*tr->rings)) < 0)
		return pv_error(ENOMEM, "out of memory");
	/* a syscall-heavy program makes ~100 bytes of records per call: big rings */
	struct perfev_ring *r = perfev_ring_mmap(fe, tr->opts.mmap_pages ? tr->opts.mmap_pages : 512,
						 false);
	if (!r && !tr->opts.mmap_pages) /* over the mlock limit: the ring module's default */
		r = perfev_ring_mmap(fe, 0, false);
	if (!r)
		return -errno;
	tr->rings[tr->nr_rings++] = r;
	return perfev_ring_add_event(r, fx);
}

static int open_process(struct perfev_tracer *tr, pid_t pid)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	if (!d)
		return pv_error(errno == ENOENT ? ESRCH : errno, "no process %d (%s): %s", (int)pid,
				dir, strerror(errno));
	struct dirent *e;
	int r = 0;
	while (r == 0 && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		pid_t tid = (pid_t)atoi(e->d_name);
		r = open_pair(tr, tid, -1, false);
		/* threads that exist already: their names now (perf synthesizes COMMs) */
		char path[96], comm[64];
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
		if (r == 0 && pv_read_line(path, comm, sizeof(comm)) == 0)
			perfev_sctrace_comm(tr->sum, pid, tid, comm);
	}
	closedir(d);
	return r;
}

/* opts.syscalls as the tracepoint filter "id == 257 || id == 3"; 0 or -errno */
static int id_filter(struct perfev_tracer *tr, const char *list)
{
	struct pv_buf b = PV_BUF_INIT;
	char *copy = strdup(list), *save = NULL;
	int r = copy ? 0 : pv_error(ENOMEM, "out of memory");
	for (char *n = copy ? strtok_r(copy, ",", &save) : NULL; n && r == 0; n = strtok_r(NULL, ",", &save)) {
		long nr = perfev_syscall_nr(n);
		if (nr < 0)
			r = pv_error(EINVAL, "'%s' is not a system call of this machine (see "
				     "/sys/kernel/tracing/events/syscalls for their names)", n);
		else
			pv_buf_printf(&b, "%sid == %ld", b.len ? " || " : "", nr);
	}
	free(copy);
	if (r == 0 && !b.len)
		r = pv_error(EINVAL, "an empty list of system calls: give names, e.g. openat,close");
	if (r == 0 && b.oom)
		r = pv_error(ENOMEM, "out of memory");
	if (r == 0)
		tr->filter = strdup(b.data);
	pv_buf_free(&b);
	return r == 0 && !tr->filter ? pv_error(ENOMEM, "out of memory") : r;
}

PERFEV_API struct perfev_tracer *perfev_tracer_new(const struct perfev_trace_opts *opts)
{
	if (!PV_OPTS_VALID(opts, perfev_trace_opts))
		return NULL;
	int targets = !!PV_OPTS_GET(opts, pid, 0) + !!PV_OPTS_GET(opts, argv, NULL) + PV_OPTS_GET(opts, all_cpus, false);
	if (!opts || targets == 0)
		return pv_error_null(EINVAL, "trace: give a command, a process id (-p) or every CPU (-a)");
	if (targets > 1 && !(PV_OPTS_GET(opts, all_cpus, false) && PV_OPTS_GET(opts, argv, NULL) &&
			     !PV_OPTS_GET(opts, pid, 0)))
		return pv_error_null(EINVAL, "trace: give one of a command, a process id (-p), every CPU (-a)");
	struct perfev_tracer *tr = calloc(1, sizeof(*tr));
	if (!tr)
		return pv_error_null(ENOMEM, "out of memory");
	PV_OPTS_COPY(tr->opts, opts);
	tr->status = -1;
	int64_t en = perfev_tp_event_id("raw_syscalls", "sys_enter");
	int64_t ex = en < 0 ? en : perfev_tp_event_id("raw_syscalls", "sys_exit");
	int r = (int)(en < 0 ? en : ex);
	if (r >= 0) {
		tr->enter_id = (uint64_t)en;
		tr->exit_id = (uint64_t)ex;
		tr->tp = perfev_tp_new();
		tr->dec = perfev_decoder_new();
		tr->sum = perfev_sctrace_new();
		if (!tr->tp || !tr->dec || !tr->sum)
			r = -ENOMEM;
	}
	if (r >= 0 && (perfev_tp_load(tr->tp, "raw_syscalls", "sys_enter") < 0 ||
		       perfev_tp_load(tr->tp, "raw_syscalls", "sys_exit") < 0))
		r = -errno;
	int sz1 = 0, sz2 = 0, off;
	int sz3 = 0;
	if (r >= 0 && (pv_tp_field_loc(tr->tp, tr->enter_id, "id", &tr->id_off, &sz1) < 0 ||
		       pv_tp_field_loc(tr->tp, tr->exit_id, "id", &off, &sz2) < 0 || off != tr->id_off ||
		       pv_tp_field_loc(tr->tp, tr->exit_id, "ret", &tr->ret_off, &sz2) < 0 ||
		       pv_tp_field_loc(tr->tp, tr->enter_id, "args", &tr->args_off, &sz3) < 0 ||
		       sz1 != 8 || sz2 != 8 || sz3 != 48))
		r = pv_error(EINVAL, "raw_syscalls' formats are not the ones perfev knows (long id at "
			     "the same offset in sys_enter and sys_exit, long ret, unsigned long args[6])");
	if (r >= 0 && tr->opts.syscalls)
		r = id_filter(tr, tr->opts.syscalls);
	if (r >= 0 && tr->opts.stream &&
	    !(tr->stream = pv_sc_stream_new(tr->tp, tr->opts.stream, tr->opts.min_duration_ms)))
		r = -ENOMEM;
	if (r >= 0) {
		struct perfev_attr a;
		base_attr(&a, tr->enter_id, true);
		perfev_decoder_add_attr(tr->dec, &a, NULL, 0);
	}
	if (r >= 0 && (tr->opts.argv || tr->opts.all_cpus)) {
		/* a command: its tasks on every CPU, from its exec; -a: every task now */
		tr->child = tr->opts.argv ? perfev_child_new(tr->opts.argv) : NULL;
		struct perfev_cpus *cpus = tr->child || !tr->opts.argv ? perfev_cpus_online() : NULL;
		if (!cpus)
			r = -errno;
		for (size_t i = 0; r >= 0 && i < perfev_cpus_count(cpus); i++)
			r = open_pair(tr, tr->opts.all_cpus ? -1 : perfev_child_pid(tr->child), perfev_cpus_at(cpus, i),
				      !tr->opts.all_cpus);
		perfev_cpus_free(cpus);
	} else if (r >= 0) {
		r = open_process(tr, tr->opts.pid);
	}
	if (r < 0) {
		int e = errno;
		perfev_tracer_free(tr);
		errno = e;
		return NULL;
	}
	return tr;
}

static int on_record(void *ctx, const void *bytes, size_t size)
{
	struct perfev_tracer *tr = ctx;
	struct perfev_record rec;
	if (perfev_decoder_decode(tr->dec, bytes, size, &rec) < 0)
		return 0;
	if (rec.type == PERF_RECORD_COMM) {
		perfev_sctrace_comm(tr->sum, (pid_t)rec.u.comm.pid, (pid_t)rec.u.comm.tid,
				    rec.u.comm.comm);
		if (tr->stream)
			pv_sc_stream_comm(tr->stream, (pid_t)rec.u.comm.tid, rec.u.comm.comm);
		return 0;
	}
	if (rec.type == PERF_RECORD_LOST) {
		tr->lost += rec.u.lost.lost;
		return 0;
	}
	if (rec.type != PERF_RECORD_SAMPLE || !rec.u.sample.raw)
		return 0;
	const struct perfev_sample *s = &rec.u.sample;
	/* one field of many samples: read at its offset (checked in _new) */
	int64_t id = perfev_tp_raw_id(s->raw, s->raw_size);
	bool exit = (uint64_t)id == tr->exit_id;
	uint64_t nr, ret = 0;
	if ((!exit && (uint64_t)id != tr->enter_id) || s->raw_size < (size_t)tr->id_off + 8 ||
	    (exit && s->raw_size < (size_t)tr->ret_off + 8))
		return 0;
	if (!exit && s->raw_size < (size_t)tr->args_off + 48)
		return 0;
	memcpy(&nr, (const char *)s->raw + tr->id_off, 8);
	if (exit)
		memcpy(&ret, (const char *)s->raw + tr->ret_off, 8);
	if (pv_grow(&tr->ev, &tr->cap_ev, tr->nr_ev + 1, sizeof(*tr->ev)) < 0) {
		tr->err = -ENOMEM;
		return 1;
	}
	struct sc_event *e = &tr->ev[tr->nr_ev++];
	*e = (struct sc_event){s->time, (pid_t)s->pid, (pid_t)s->tid, (long)nr, (int64_t)ret, exit, {0}};
	if (!exit)
		memcpy(e->args, (const char *)s->raw + tr->args_off, 48);
	return 0;
}

static int cmp_time(const void *a, const void *b)
{
	const struct sc_event *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return (int)x->exit - (int)y->exit; /* same instant: enter first */
}

/* Hands the events read up to `upto` (all: UINT64_MAX) to the summary and
 * the stream, in time order; keeps the rest. 0 or -errno. */
static int deliver(struct perfev_tracer *tr, uint64_t upto)
{
	qsort(tr->ev, tr->nr_ev, sizeof(*tr->ev), cmp_time);
	size_t n = 0;
	int r = 0;
	for (; n < tr->nr_ev && tr->ev[n].time <= upto && r == 0; n++) {
		const struct sc_event *e = &tr->ev[n];
		r = e->exit ? perfev_sctrace_exit(tr->sum, e->pid, e->tid, e->time, e->nr, e->ret)
			    : perfev_sctrace_enter(tr->sum, e->pid, e->tid, e->time, e->nr);
		if (r == 0 && tr->stream)
			r = e->exit ? pv_sc_stream_exit(tr->stream, e->tid, e->time, e->nr, e->ret)
				    : pv_sc_stream_enter(tr->stream, e->tid, e->time, e->nr, e->args);
	}
	memmove(tr->ev, tr->ev + n, (tr->nr_ev - n) * sizeof(*tr->ev));
	tr->nr_ev -= n;
	if (tr->stream)
		fflush(tr->opts.stream);
	return r;
}

/* One poll round: every ring read; what the previous round read is now in
 * order with everything that can still come (perf's rounds) and goes out. */
static int drain_all(struct perfev_tracer *tr)
{
	for (size_t i = 0; i < tr->nr_rings; i++)
		perfev_ring_drain(tr->rings[i], on_record, tr);
	uint64_t upto = tr->round_end, last = 0;
	for (size_t i = 0; i < tr->nr_ev; i++)
		last = tr->ev[i].time > last ? tr->ev[i].time : last;
	tr->round_end = last > tr->round_end ? last : tr->round_end;
	return upto ? deliver(tr, upto) : 0;
}

static bool target_alive(struct perfev_tracer *tr)
{
	if (tr->child) {
		int st;
		if (perfev_child_poll(tr->child, &st, NULL) == 0) {
			tr->status = st;
			return false;
		}
		return true;
	}
	if (!tr->opts.pid) /* -a: until stopped */
		return true;
	return kill(tr->opts.pid, 0) == 0 || errno != ESRCH;
}

PERFEV_API int perfev_tracer_run(struct perfev_tracer *tr)
{
	if (tr->child) {
		int r = perfev_child_start(tr->child);
		if (r < 0)
			return r;
	}
	struct pollfd *pfd = calloc(tr->nr_rings ? tr->nr_rings : 1, sizeof(*pfd));
	if (!pfd)
		return pv_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < tr->nr_rings; i++)
		pfd[i] = (struct pollfd){perfev_ring_fd(tr->rings[i]), POLLIN, 0};
	int r = 0;
	while (r == 0 && !tr->stop && !tr->err && target_alive(tr)) {
		poll(pfd, tr->nr_rings, 100);
		r = drain_all(tr);
	}
	free(pfd);
	if (r == 0)
		r = drain_all(tr);
	if (tr->err)
		return tr->err;
	return r < 0 ? r : deliver(tr, UINT64_MAX);
}

PERFEV_API void perfev_tracer_stop(struct perfev_tracer *tr) { tr->stop = 1; }

PERFEV_API const struct perfev_sctrace *perfev_tracer_summary(const struct perfev_tracer *tr)
{
	return tr->sum;
}

PERFEV_API int perfev_tracer_command_status(const struct perfev_tracer *tr) { return tr->status; }

PERFEV_API uint64_t perfev_tracer_lost(const struct perfev_tracer *tr) { return tr->lost; }

PERFEV_API void perfev_tracer_free(struct perfev_tracer *tr)
{
	if (!tr)
		return;
	for (size_t i = 0; i < tr->nr_rings; i++)
		perfev_ring_munmap(tr->rings[i]);
	for (size_t i = 0; i < tr->nr_fds; i++)
		close(tr->fds[i]);
	if (tr->child && tr->status == -1)
		perfev_child_kill(tr->child, SIGKILL);
	perfev_child_free(tr->child);
	free(tr->rings);
	free(tr->fds);
	free(tr->ev);
	perfev_tp_free(tr->tp);
	perfev_decoder_free(tr->dec);
	perfev_sctrace_free(tr->sum);
	pv_sc_stream_free(tr->stream);
	free(tr->filter);
	free(tr);
}
