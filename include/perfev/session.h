/*
 * perfev/session.h — the session model: processes, threads, their names and
 * memory maps over time, built from COMM, FORK, EXIT, MMAP and MMAP2 records
 * (from a perf.data file or a live ring buffer) delivered in time order.
 * report, script, top and every exporter ask it who ran and what was mapped
 * where at the time of a sample.
 */
#ifndef PERFEV_SESSION_H
#define PERFEV_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/location.h"
#include "perfev/record.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_session;

PERFEV_API struct perfev_session *perfev_session_new(void);
PERFEV_API void perfev_session_free(struct perfev_session *s);

/* What a session keeps beyond its time-aware threads and maps. */
struct perfev_session_opts {
	size_t sz; /* sizeof(struct perfev_session_opts) */
	/*
	 * Keep perf's thread table too, as perf 6.1's util/machine.c keeps it
	 * and perf report --tasks shows it: the idle task 0/0 "swapper" from the
	 * start, a FORK of a tid seen before replacing that thread (its parent
	 * and name start anew), threads of a process sharing their leader's
	 * maps. perfev_session_for_each_thread and _thread_maps then answer from
	 * it. Costs nothing per sample.
	 */
	bool perf_threads;
	/*
	 * With perf_threads: each process's maps as perf's `maps` keeps them
	 * (perf report --mmaps): no time (overlaps cut, nothing dropped at
	 * exec), a new process's copied from its parent at FORK, a map's file
	 * carrying the inode of the first MMAP2 of its path that gave one, and
	 * anonymous code named "/tmp/perf-PID.map". MMAP records then make
	 * threads in that table too, as in perf's.
	 */
	bool perf_maps;
};
#define perfev_session_opts__last_field perf_maps

/* A session as opts say (NULL: as perfev_session_new). NULL with errno
 * (EINVAL: opts unreadable, or perf_maps without perf_threads; ENOMEM). */
PERFEV_API struct perfev_session *perfev_session_new_opts(const struct perfev_session_opts *opts);

/*
 * Feeds one decoded record. COMM, FORK, EXIT, MMAP and MMAP2 change the
 * model; a SAMPLE makes its thread known; other records are ignored.
 * Returns 0 or -ENOMEM; with opts.perf_maps also -E2BIG (perf's model
 * copies a process's maps at each FORK: over 16M maps in all, the file is
 * taken for hostile).
 */
PERFEV_API int perfev_session_process(struct perfev_session *s, const struct perfev_record *rec);

/* The thread's current name: the last COMM it got (or inherited by FORK);
 * ":TID" for a thread never named, as perf shows it; "swapper" for tid 0. */
PERFEV_API const char *perfev_session_comm(struct perfev_session *s, uint32_t tid);
/* The name the thread had at `time` (the first name if it had none yet). */
PERFEV_API const char *perfev_session_comm_at(struct perfev_session *s, uint32_t tid, uint64_t time);
/* The process of a thread, or -1 if unknown. */
PERFEV_API int64_t perfev_session_thread_pid(struct perfev_session *s, uint32_t tid);
PERFEV_API size_t perfev_session_nr_threads(const struct perfev_session *s);

/*
 * The map holding addr in process pid (tid when pid is unknown) at `time`:
 * cpumode PERF_RECORD_MISC_KERNEL / _GUEST_KERNEL looks in the kernel's maps,
 * anything else in the process's. A later mapping over the same addresses
 * hides an earlier one from its time on; exec (COMM with COMM_EXEC) unmaps
 * everything. NULL if nothing is mapped there. The map lives as long as s.
 */
PERFEV_API const struct perfev_map *perfev_session_find_map(struct perfev_session *s, uint32_t pid, uint32_t tid,
							    uint8_t cpumode, uint64_t addr, uint64_t time);

/* A thread as the session knows it now. */
struct perfev_session_thread {
	int32_t pid, tid;
	int32_t ppid;     /* the tid of the thread whose FORK made it; -1: no FORK seen */
	const char *comm; /* its last name; NULL: never named */
	bool exited;      /* an EXIT seen (perf keeps exited threads) */
};
/* ctx first; a non-zero return stops the walk. The thread (and its comm)
 * is valid until the next record is fed. */
typedef int (*perfev_session_thread_fn)(void *ctx, const struct perfev_session_thread *thread);
/*
 * Calls fn for every thread: in the order first seen, one per tid (its
 * ppid from the last FORK that made it); with opts.perf_threads, the
 * threads of perf's table that a later FORK did not replace, in the order
 * made. Returns 0 or fn's non-zero value.
 */
PERFEV_API int perfev_session_for_each_thread(struct perfev_session *s, perfev_session_thread_fn fn, void *ctx);
/*
 * The maps of tid's process now, by start: the session's maps not ended
 * by a later one or an exec (the process's pid as the session knows it,
 * else tid's), or with opts.perf_maps perf's `maps` of that process (the
 * live thread tid of perf's table). *maps is malloc'ed (NULL when there
 * are none) and the caller frees it; its paths live as long as s. Returns
 * 0, -ENOENT (no thread tid), or -ENOMEM.
 */
PERFEV_API int perfev_session_thread_maps(struct perfev_session *s, int32_t tid, struct perfev_map **maps,
					  size_t *nr);

/*
 * Build-ids for maps recorded without one (MMAP, MMAP2 with device and
 * inode): a map of `path` mapped after this call carries build_id. Returns
 * 0 or -errno.
 */
PERFEV_API int perfev_session_add_build_id(struct perfev_session *s, const char *path,
					   const uint8_t *build_id, size_t len);
/* The same for every entry of a recording's BUILD_ID feature: call it before
 * feeding the file's records. Returns 0 or -errno. */
struct perfev_perfdata;
PERFEV_API int perfev_session_add_build_ids(struct perfev_session *s, const struct perfev_perfdata *pd);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_SESSION_H */
