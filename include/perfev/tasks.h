/*
 * perfev/tasks.h — the task tree of a recording, as `perf report --tasks`
 * and `--mmaps` (perf 6.1) show it: every thread perf's thread model holds
 * at the end (made by COMM, FORK, EXIT and, with maps, MMAP/MMAP2 records
 * delivered in time order, plus the idle task 0/0 "swapper"), each under
 * the thread that forked it, and with maps each process's memory maps as
 * perf keeps them (overlaps cut, a forked process's copied from its parent,
 * nothing dropped at exec).
 *
 * The model is a session keeping perf's thread table beside its time-aware
 * threads and maps (perfev_session_opts.perf_threads, .perf_maps; see
 * perfev/session.h): a FORK of a thread id seen before replaces that
 * thread, and a map's file carries the inode of the first MMAP2 of its path
 * that gave one. This header is a view of it: perf's walk and print.
 */
#ifndef PERFEV_TASKS_H
#define PERFEV_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "perfev/record.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_tasks;

/* A model holding the idle task only; maps: keep MMAP/MMAP2 records too
 * (perf's --mmaps: its --tasks leaves them out, and with them the threads
 * only they name). NULL with errno on failure. */
PERFEV_API struct perfev_tasks *perfev_tasks_new(bool maps);
PERFEV_API void perfev_tasks_free(struct perfev_tasks *t);
/* Feeds one decoded record (others than COMM, FORK, EXIT, MMAP, MMAP2 are
 * ignored). Returns 0, -ENOMEM, or -E2BIG (maps: a hostile file's forks
 * copying over 16M maps). */
PERFEV_API int perfev_tasks_process(struct perfev_tasks *t, const struct perfev_record *rec);
/* The session under the model (it lives as long as t): ask it for threads,
 * names, maps over time as of any session. */
struct perfev_session;
PERFEV_API struct perfev_session *perfev_tasks_session(struct perfev_tasks *t);
/* Reads every record of a perf.data file ("-": a pipe on stdin) in time
 * order into a new model. NULL with errno and perfev_errmsg() on failure. */
PERFEV_API struct perfev_tasks *perfev_tasks_load(const char *path, bool maps);
/* The same from an open file, which stays the caller's. */
PERFEV_API struct perfev_tasks *perfev_tasks_load_from(struct perfev_perfdata *pd, bool maps);

struct perfev_task {
	int32_t pid, tid, ppid; /* -1: unknown (ppid: no FORK seen) */
	const char *comm;       /* the last name, ":TID" if none */
	unsigned depth;         /* 0 for a tree's root */
};
struct perfev_task_map {
	uint64_t start, end, pgoff, ino;
	uint32_t prot, flags;   /* PROT_*, MAP_* (MMAP records: PROT_EXEC unless data) */
	const char *name;       /* as perf names it ("/tmp/perf-PID.map" for anonymous code) */
};
/* Called for each task in perf's order, with its process's maps (none
 * without maps); a non-zero return stops the walk and is returned. */
typedef int (*perfev_task_fn)(void *ctx, const struct perfev_task *task, const struct perfev_task_map *maps,
			      size_t nr_maps);
/*
 * Walks the tree as perf prints it: threads in perf's table order (tid
 * modulo 256, then tid), each root (no parent) followed by its children,
 * depth first. Threads whose parents form a loop (a reused tid) are left
 * out, as perf leaves them. Returns 0, fn's value, or -ENOMEM.
 */
PERFEV_API int perfev_tasks_walk(struct perfev_tasks *t, perfev_task_fn fn, void *ctx);
/* Prints perf's "#      pid      tid     ppid  comm" table (and the maps
 * when the model keeps them). 0 or -errno. */
PERFEV_API int perfev_tasks_print(struct perfev_tasks *t, FILE *out);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_TASKS_H */
