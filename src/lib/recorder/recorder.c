/* recorder.c — the recorder's life: options, targets, default events, stop. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "recorder/recorder_int.h"
#include "perfev/sys.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* cycles where a PMU counts them, else cpu-clock (as perf falls back). */
static struct perfev_evlist *default_events(void)
{
	struct perfev_evlist *l = perfev_evlist_new();
	if (!l)
		return NULL;
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_CPU_CYCLES;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = perfev_open(&a, 0, -1, -1, 0);
	struct perfev_attr ev = {0};
	if (fd >= 0) {
		close(fd);
		ev.type = PERF_TYPE_HARDWARE;
		ev.config = PERF_COUNT_HW_CPU_CYCLES;
		if (!perfev_evlist_add(l, &ev, "cycles"))
			goto fail;
	} else {
		ev.type = PERF_TYPE_SOFTWARE;
		ev.config = PERF_COUNT_SW_CPU_CLOCK;
		if (!perfev_evlist_add(l, &ev, "cpu-clock"))
			goto fail;
	}
	return l;
fail:
	perfev_evlist_free(l);
	return NULL;
}

static int set_targets(struct perfev_recorder *r)
{
	const struct perfev_record_opts *o = &r->opts;
	int e;
	bool system_wide = o->all_cpus || (o->cpus && *o->cpus);
	if (!system_wide && !o->pid && !o->tid && !o->argv && !o->by_uid)
		return pv_error(EINVAL, "nothing to record: give a command after --, "
				"-p PID, -t TID, or -a for the whole system");
	if ((o->pid && o->tid) || ((o->pid || o->tid) && (o->argv || system_wide)) ||
	    (o->by_uid && (o->pid || o->tid || o->argv || system_wide)))
		return pv_error(EINVAL, "give only one target: a command, -p PID, -t TID, -u USER, "
				"or -a/-C (a command with -a records the whole system while it runs)");
	struct perfev_cpus *cl = system_wide && o->cpus && *o->cpus ? perfev_cpus_parse(o->cpus)
								    : perfev_cpus_online();
	if (!cl)
		return -errno;
	r->ncpus = perfev_cpus_count(cl);
	if (!(r->cpus = calloc(r->ncpus, sizeof(*r->cpus)))) {
		perfev_cpus_free(cl);
		return pv_error(ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < r->ncpus; i++)
		r->cpus[i] = perfev_cpus_at(cl, i);
	perfev_cpus_free(cl);
	if (system_wide) {
		r->tids = malloc(sizeof(*r->tids));
		if (!r->tids)
			return pv_error(ENOMEM, "out of memory");
		r->tids[0] = -1;
		r->ntids = 1;
	} else if (o->pid) {
		if ((e = rec_task_tids(o->pid, &r->tids, &r->ntids)) < 0)
			return e;
	} else if (o->by_uid) {
		if ((e = rec_uid_tids(o->uid, &r->tids, &r->ntids)) < 0)
			return e;
	} else {
		r->tids = malloc(sizeof(*r->tids));
		if (!r->tids)
			return pv_error(ENOMEM, "out of memory");
		r->ntids = 1;
		r->tids[0] = o->tid;
	}
	if (o->argv) {
		if ((e = rec_child_fork(r)) < 0)
			return e;
		if (!system_wide)
			r->tids[0] = r->child_pid;
	}
	return 0;
}

PERFEV_API struct perfev_recorder *perfev_recorder_new(const struct perfev_record_opts *opts)
{
	if (!opts)
		return pv_error_null(EINVAL, "recorder: no options");
	if (!PV_OPTS_VALID(opts, perfev_record_opts))
		return NULL;
	struct perfev_recorder *r = calloc(1, sizeof(*r));
	if (!r)
		return pv_error_null(ENOMEM, "out of memory");
	PV_OPTS_COPY(r->opts, opts);
	r->wake[0] = r->wake[1] = r->pidfd = -1;
	int e;
	r->rate_given = r->opts.freq || r->opts.period;
	if (!r->opts.freq && !r->opts.period)
		r->opts.freq = 4000;
	if (r->opts.mmap_pages && (r->opts.mmap_pages & (r->opts.mmap_pages - 1))) {
		pv_error(EINVAL, "-m %zu: the number of pages must be a power of two (1, 2, 4, ...)",
			 r->opts.mmap_pages);
		goto fail;
	}
	r->output = pv_strdup(r->opts.output ? r->opts.output : "perf.data");
	if (!r->output)
		goto fail;
	r->pipe_mode = !r->opts.no_output && !strcmp(r->output, "-");
	r->events = r->opts.events;
	if (!r->events || !perfev_evlist_count(r->events)) {
		if (!(r->own_events = default_events()))
			goto fail;
		r->events = r->own_events;
	}
	if (pipe2(r->wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		pv_error(errno, "pipe: %s", strerror(errno));
		goto fail;
	}
	if ((e = set_targets(r)) < 0)
		goto fail;
	if ((e = rec_open_events(r)) < 0)
		goto fail;
	if ((e = rec_out_open(r)) < 0)
		goto fail;
	return r;
fail:
	e = errno;
	char msg[2048];
	snprintf(msg, sizeof(msg), "%s", perfev_errmsg());
	perfev_recorder_free(r);
	return pv_error_null(e ? e : EINVAL, "%s", msg);
}

PERFEV_API void perfev_recorder_stop(struct perfev_recorder *r)
{
	if (!r)
		return;
	int saved = errno; /* a signal handler must leave errno as it found it */
	r->stopping = 1;
	if (r->wake[1] >= 0) {
		ssize_t n = write(r->wake[1], "x", 1);
		(void)n;
	}
	errno = saved;
}

PERFEV_API void perfev_recorder_stats(const struct perfev_recorder *r, struct perfev_record_stats *out)
{
	if (r && out)
		*out = r->stats;
}

PERFEV_API const struct perfev_evlist *perfev_recorder_evlist(const struct perfev_recorder *r)
{
	return r ? r->events : NULL;
}

PERFEV_API size_t perfev_recorder_nr_events(const struct perfev_recorder *r)
{
	return r ? r->nevents : 0;
}

PERFEV_API const struct perfev_attr *perfev_recorder_event_attr(const struct perfev_recorder *r, size_t i)
{
	return r && i < r->nevents ? &r->attrs[i] : NULL;
}

PERFEV_API const char *perfev_recorder_event_name(const struct perfev_recorder *r, size_t i)
{
	return r && i < r->nevents ? rec_event_name(r, i) : NULL;
}

PERFEV_API void perfev_recorder_free(struct perfev_recorder *r)
{
	if (!r)
		return;
	if (r->child_pid > 0)
		rec_child_reap(r, true, true);
	perfev_child_free(r->child);
	rec_close_events(r);
	rec_out_close(r);
	rec_scan_free(r);
	rec_feed_free(r);
	perfev_evlist_free(r->own_events);
	for (int i = 0; i < 2; i++)
		if (r->wake[i] >= 0)
			close(r->wake[i]);
	if (r->pidfd >= 0)
		close(r->pidfd);
	free(r->cpus);
	free(r->tids);
	free(r->output);
	free(r);
}
