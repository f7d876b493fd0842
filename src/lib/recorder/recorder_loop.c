/* recorder_loop.c — the recording loop: wait on every CPU's ring with epoll,
 * drain them all each time one is ready, end on stop() or the command's exit. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "recorder/recorder_int.h"
#include "perfev/sys.h"

#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Counts what the report at the end needs, from fixed fields of the
 * kernel ABI (LOST: id, lost; LOST_SAMPLES: lost); the records module
 * decodes everything else. */
static void tally(struct perfev_recorder *r, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;
	uint64_t v;
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		r->stats.samples++;
		break;
	case PERF_RECORD_LOST:
		if (size >= 24) {
			memcpy(&v, (const char *)rec + 16, 8);
			r->stats.lost += v;
		}
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (size >= 16) {
			memcpy(&v, (const char *)rec + 8, 8);
			r->stats.lost_samples += v;
		}
		break;
	case PERF_RECORD_THROTTLE:
		r->stats.throttled++;
		break;
	}
	rec_scan_record(r, rec, size);
}

int rec_drain_all(struct perfev_recorder *r, bool *wrote)
{
	*wrote = false;
	for (size_t c = 0; c < r->ncpus; c++) {
		struct perfev_ring *ring = r->rings[c];
		if (!ring)
			continue;
		int64_t n = perfev_ring_read_begin(ring);
		if (n < 0)
			return (int)n;
		if (n == 0) {
			perfev_ring_read_end(ring);
			continue;
		}
		const void *rec;
		size_t size;
		int e;
		while ((e = perfev_ring_read_next(ring, &rec, &size)) > 0) {
			tally(r, rec, size);
			if ((e = rec_out_write(r, rec, size)) < 0)
				break;
		}
		perfev_ring_read_end(ring);
		if (e < 0)
			return e;
		*wrote = true;
	}
	return 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* opts.on_tick when its time has come (next: when, moved on); 0 or its error. */
static int tick(struct perfev_recorder *r, int64_t *next)
{
	if (!r->opts.on_tick || !r->opts.tick_ms || now_ms() < *next)
		return 0;
	/* One more round, so that on_record has had what the rings held just
	 * before (a round's records go out once the next round is read; an
	 * empty one writes no FINISHED_ROUND to a file). */
	bool wrote;
	int e = rec_drain_all(r, &wrote);
	if (e < 0 || (e = wrote ? rec_out_round(r) : rec_feed_round(r)) < 0)
		return e;
	e = r->opts.on_tick(r->opts.on_tick_ctx);
	*next = now_ms() + r->opts.tick_ms; /* (late ticks are not made up) */
	if (e < 0)
		return pv_error(-e, "recorder: on_tick: %s", perfev_errmsg());
	return e ? pv_error(ECANCELED, "recorder: on_tick returned %d", e) : 0;
}

/* The poll's timeout: the command's check (100 ms when no pidfd tells its
 * end), the next tick, or none (-1). */
static int wait_ms(const struct perfev_recorder *r, bool child_poll, int64_t next_tick)
{
	int t = child_poll ? 100 : -1;
	if (r->opts.on_tick && r->opts.tick_ms) {
		int64_t left = next_tick - now_ms();
		int tk = left < 0 ? 0 : left > 100000 ? 100000 : (int)left;
		t = t < 0 || tk < t ? tk : t;
	}
	return t;
}

PERFEV_API int perfev_recorder_run(struct perfev_recorder *r)
{
	if (!r)
		return pv_error(EINVAL, "recorder: NULL");
	int e = rec_out_begin(r);
	if (e < 0 || (e = rec_synth_kernel(r)) < 0 || (e = rec_synth_modules(r)) < 0 ||
	    (e = rec_synth_processes(r)) < 0 ||
	    (e = rec_out_round(r)) < 0)
		return e;
	if (r->child) {
		/* System-wide (-a -- CMD): enable first, then let the held command
		 * exec, as perf does, so its COMM and MMAP records are in the ring;
		 * its own events start at exec (enable_on_exec). */
		if (r->tids[0] == -1)
			rec_enable(r, true);
		if ((e = rec_child_start(r)) < 0)
			return e;
	} else {
		rec_enable(r, true);
	}
	bool had_child = r->child != NULL;
	struct perfev_poll_event evs[64];
	bool done = false, wrote;
	int64_t next_tick = now_ms() + r->opts.tick_ms;
	while (!done && !r->stopping) {
		int timeout = wait_ms(r, had_child && r->pidfd < 0, next_tick);
		int n = perfev_poller_wait(r->poller, evs, 64, timeout);
		if (n == -EINTR)
			continue;
		if (n < 0)
			return n;
		r->stats.wakeups++;
		for (int i = 0; i < n; i++) {
			if (evs[i].ctx == &r->pidfd) {
				done = true;
			} else if (evs[i].ctx == &r->wake) {
				char buf[64];
				while (read(r->wake[0], buf, sizeof(buf)) > 0)
					;
			} else if (evs[i].hangup) {
				/* The task behind this ring is gone: read what is left below. */
				perfev_poller_del(r->poller, evs[i].fd);
				if (!had_child && !r->opts.by_uid && perfev_poller_count(r->poller) == 1)
					done = true; /* -p/-t: every followed task exited (-u goes on) */
			}
		}
		if (had_child && r->pidfd < 0 && rec_child_reap(r, false, false))
			done = true;
		if ((e = rec_drain_all(r, &wrote)) < 0)
			return e;
		if (wrote && (e = rec_out_round(r)) < 0)
			return e;
		if (!done && (e = tick(r, &next_tick)) < 0)
			return e;
	}
	rec_enable(r, false);
	if ((e = rec_drain_all(r, &wrote)) < 0)
		return e;
	if (wrote && (e = rec_out_round(r)) < 0)
		return e;
	/* The LOST records miss drops the kernel had no room to report yet
	 * (the run's tail); the events' own counts do not. */
	uint64_t read_lost = rec_read_lost(r);
	if (read_lost > r->stats.lost)
		r->stats.lost = read_lost;
	if (r->child_pid > 0)
		rec_child_reap(r, !done, true); /* stopped by a signal: end the command too */
	return rec_out_end(r);
}
