/* session_int.h — what session.c (threads, names and maps over time) shares
 * with session_perf.c (perf's thread table, kept beside them on request:
 * perfev_session_opts.perf_threads). */
#ifndef PERFEV_SESSION_INT_H
#define PERFEV_SESSION_INT_H

#include "core/internal.h"
#include "perfev/session.h"

/*
 * perf's thread table (util/machine.c and util/maps.c as perf 6.1 has
 * them): a thread per live tid, a FORK of a known tid replacing it, threads
 * sharing their leader's maps, each process's maps as perf's `maps` (no
 * time: overlaps cut, copied at a FORK of a new process, kept across exec).
 * It differs from the session's own time-aware threads on purpose: it is
 * the end state perf shows (report --tasks/--mmaps), not a history.
 */
struct pv_perf_threads;

/* A table holding the idle task 0/0 "swapper"; maps: keep MMAP/MMAP2 (which
 * then also make threads, as perf's --mmaps). NULL on ENOMEM. */
struct pv_perf_threads *pv_perf_threads_new(bool maps);
void pv_perf_threads_free(struct pv_perf_threads *t);
/* One record: 0, -ENOMEM, or -E2BIG (more maps than PV_PERF_MAX_MAPS). */
int pv_perf_threads_process(struct pv_perf_threads *t, const struct perfev_record *r);
/* The live threads in table order; fn's non-zero value stops and is returned. */
int pv_perf_threads_each(struct pv_perf_threads *t, perfev_session_thread_fn fn, void *ctx);
/* perf's maps of tid's process: 0 (*maps malloc'ed or NULL when none),
 * -ENOENT (no live thread tid), -ENOMEM. */
int pv_perf_threads_maps(struct pv_perf_threads *t, int32_t tid, struct perfev_map **maps, size_t *nr);

/* Every FORK of a new process copies its parent's maps, as perf does: a
 * hostile file of forks under a process of many maps would otherwise
 * grow without bound (perf's own memory grows the same way). */
#define PV_PERF_MAX_MAPS (16u << 20)

#endif
