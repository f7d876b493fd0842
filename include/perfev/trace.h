/*
 * perfev/trace.h — system-call tracing from the raw_syscalls tracepoints:
 * a per-thread, per-syscall summary with the columns of `perf trace -s`
 * (calls, errors, total/min/avg/max in msec, stddev of the mean in %).
 *
 * Two layers: struct perfev_sctrace accumulates enter/exit events (in time
 * order) however they were obtained; struct perfev_tracer runs a command or
 * follows a process, opening raw_syscalls:sys_enter/sys_exit, and feeds them
 * into its sctrace.
 */
#ifndef PERFEV_TRACE_H
#define PERFEV_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include "perfev/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The name of syscall nr on this architecture (x86_64 table), or NULL. */
PERFEV_API const char *perfev_syscall_name(long nr);
/* The number of a syscall by name, or -ENOENT. */
PERFEV_API long perfev_syscall_nr(const char *name);

/* ---- the accumulator --------------------------------------------------------- */
struct perfev_sctrace;

PERFEV_API struct perfev_sctrace *perfev_sctrace_new(void);
PERFEV_API void perfev_sctrace_free(struct perfev_sctrace *t);
/*
 * Feed events in time order. A call is counted at its exit, as perf does:
 * its duration is exit time - enter time of the same thread when the enter
 * was seen (else 0: execve's exit after enable_on_exec); ret < 0 is an error.
 * A syscall that never returns (exit_group) is not counted. Each enter and
 * exit also counts as one event of the thread; one with a negative nr (the
 * sys_exit of rt_sigreturn) is no syscall, as perf trace -s takes it: only
 * an event of the total. Return 0 or -ENOMEM.
 */
PERFEV_API int perfev_sctrace_enter(struct perfev_sctrace *t, pid_t pid, pid_t tid,
				    uint64_t time, long nr);
PERFEV_API int perfev_sctrace_exit(struct perfev_sctrace *t, pid_t pid, pid_t tid,
				   uint64_t time, long nr, int64_t ret);
/* The thread's command name (the latest given wins). */
PERFEV_API int perfev_sctrace_comm(struct perfev_sctrace *t, pid_t pid, pid_t tid,
				   const char *comm);

/* One row of the summary. Strings live as long as the sctrace. */
struct perfev_syscall_stat {
	pid_t pid, tid;
	const char *comm; /* "" when unknown */
	long nr;
	const char *name; /* "" when this architecture's table lacks nr */
	uint64_t calls, errors;
	double total_ms, min_ms, avg_ms, max_ms;
	double stddev_pct; /* standard error of the mean, % of the mean (perf's "stddev") */
};
/*
 * The rows: threads by tid, and within a thread syscalls by total time,
 * largest first (perf's order). *rows is malloc'ed (caller frees).
 * Returns the number of rows or -ENOMEM.
 */
PERFEV_API int perfev_sctrace_stats(const struct perfev_sctrace *t,
				    struct perfev_syscall_stat **rows);
/* Prints the summary as `perf trace -s` does. Returns 0 or -errno. */
PERFEV_API int perfev_sctrace_print(const struct perfev_sctrace *t, FILE *out);

/* ---- the live tracer ---------------------------------------------------------- */
struct perfev_trace_opts {
	size_t sz;             /* sizeof(struct perfev_trace_opts) */
	pid_t pid;             /* follow the threads this process has now (-p) */
	char *const *argv;     /* or run this command (and what it forks) */
	size_t mmap_pages;     /* data pages per ring, a power of two (0: 512, or what mlock allows) */
	/* The calls to trace (perf trace -e): names of this architecture's
	 * system calls separated by commas ("openat,close"); NULL: all. The
	 * summary counts these alone. */
	const char *syscalls;
	/* Each call as perf trace prints it, to this stream as the tracing
	 * goes (in time order, a poll round behind):
	 * "   0.532 ( 0.013 ms): cat/32126 openat(dfd: CWD, filename:
	 * 0x64d890b1, flags: RDONLY|CLOEXEC)         = 3". NULL: none. */
	FILE *stream;
	double min_duration_ms; /* stream only calls that took at least this long (--duration) */
	bool all_cpus;          /* every process on every CPU (-a), instead of pid or argv */
};
#define perfev_trace_opts__last_field all_cpus

struct perfev_tracer;

/* Opens raw_syscalls:sys_enter/sys_exit on the target (a command is held
 * before exec). NULL + errno; perfev_errmsg() explains. */
PERFEV_API struct perfev_tracer *perfev_tracer_new(const struct perfev_trace_opts *opts);
/* Runs the command (or follows the process) until it ends or stop is
 * called, then builds the summary. Returns 0 or -errno. */
PERFEV_API int perfev_tracer_run(struct perfev_tracer *tr);
/* Async-signal-safe: makes run() finish. */
PERFEV_API void perfev_tracer_stop(struct perfev_tracer *tr);
PERFEV_API const struct perfev_sctrace *perfev_tracer_summary(const struct perfev_tracer *tr);
/* The command's wait status (after run), or -1 when there was no command. */
PERFEV_API int perfev_tracer_command_status(const struct perfev_tracer *tr);
/* Samples the kernel could not write (ring full): the summary undercounts. */
PERFEV_API uint64_t perfev_tracer_lost(const struct perfev_tracer *tr);
PERFEV_API void perfev_tracer_free(struct perfev_tracer *tr);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_TRACE_H */
