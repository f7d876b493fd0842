/*
 * perfev/counter.h — counting: CPU lists, a child command started under
 * measurement, and an evlist opened on threads, CPUs or a cgroup, read as
 * groups and scaled for multiplexing.
 *
 * Typical use (what `perfev stat -- cmd` does):
 *   child = perfev_child_new(argv);             forked, stopped before exec
 *   t = {sizeof t, PERFEV_TARGET_CHILD, .pid = perfev_child_pid(child)};
 *   c = perfev_counters_open(list, &t);         enable_on_exec + inherit
 *   perfev_child_start(child);                  exec: counting starts
 *   perfev_child_wait(child, &status, &ru);
 *   perfev_counters_read(c); perfev_counters_sum(c, i, &count);
 */
#ifndef PERFEV_COUNTER_H
#define PERFEV_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/resource.h>
#include "perfev/abi.h"
#include "perfev/event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- CPU lists ------------------------------------------------------------ */
struct perfev_cpus;

/* Parses a CPU list in the kernel's syntax ("0-3,7", "" is empty). NULL and
 * errno EINVAL (message says where) on a malformed list or CPU > 65535. */
PERFEV_API struct perfev_cpus *perfev_cpus_parse(const char *list);
/* The online CPUs (/sys/devices/system/cpu/online). */
PERFEV_API struct perfev_cpus *perfev_cpus_online(void);
/* The CPUs a PMU counts on (its sysfs cpumask, e.g. one per socket for an
 * uncore PMU); NULL with errno ENOENT when the PMU has no cpumask, meaning
 * any CPU. */
PERFEV_API struct perfev_cpus *perfev_cpus_pmu(const char *pmu);
PERFEV_API void perfev_cpus_free(struct perfev_cpus *cpus);
PERFEV_API size_t perfev_cpus_count(const struct perfev_cpus *cpus);
/* The idx-th CPU in ascending order, or -1 past the end. */
PERFEV_API int perfev_cpus_at(const struct perfev_cpus *cpus, size_t idx);
PERFEV_API bool perfev_cpus_has(const struct perfev_cpus *cpus, int cpu);
/* Writes the list back in the compact syntax ("0-3,7"); returns the length. */
PERFEV_API int perfev_cpus_format(const struct perfev_cpus *cpus, char *buf, size_t len);

/* ---- a child command -------------------------------------------------------- */
struct perfev_child;

/*
 * Forks argv[0] (searched in PATH) and holds it before exec, so counters can
 * be attached to its pid first. The child inherits stdin/stdout/stderr;
 * it starts with no signal blocked and SIGINT, SIGTERM, SIGCHLD and SIGPIPE
 * at their default action, whatever the caller set.
 * Returns NULL + errno if fork fails.
 */
PERFEV_API struct perfev_child *perfev_child_new(char *const argv[]);
PERFEV_API pid_t perfev_child_pid(const struct perfev_child *child);
/*
 * Lets the child exec. Returns 0 once exec has succeeded, or -errno when it
 * failed (ENOENT: command not found, EACCES: not executable, ...) with the
 * explanation in perfev_errmsg(); the child has then exited with 127 (126
 * for EACCES), as a shell would.
 */
PERFEV_API int perfev_child_start(struct perfev_child *child);
/*
 * Sets perfev_errmsg() to why cmd could not be executed, err being execvp's
 * errno (ENOENT: not found in PATH or no such file; EACCES: not executable,
 * a directory or a noexec mount; ENOEXEC: a script without #!), with the
 * fix, and returns -err. perfev_child_start and the recorder say it so.
 */
PERFEV_API int perfev_child_exec_error(const char *cmd, int err);
/*
 * Waits for the child to end. *wstatus gets the wait status, *ru (if not
 * NULL) its resource usage (user and system CPU time). Interrupted by a
 * signal, returns -EINTR and can be called again. Returns 0 or -errno.
 */
PERFEV_API int perfev_child_wait(struct perfev_child *child, int *wstatus, struct rusage *ru);
/* Like wait but returns -EAGAIN at once if the child still runs. */
PERFEV_API int perfev_child_poll(struct perfev_child *child, int *wstatus, struct rusage *ru);
/* Sends sig to the started child. A child still held before exec is
 * released to exit at once (status 127) without running, whatever sig:
 * until exec it runs the caller's signal handlers and could survive sig. */
PERFEV_API int perfev_child_kill(struct perfev_child *child, int sig);
/* Kills (SIGKILL) and reaps a child not yet waited for, then frees. */
PERFEV_API void perfev_child_free(struct perfev_child *child);
/* A wait status as a shell's exit code: the exit status, or 128 + signal. */
PERFEV_API int perfev_exit_code(int wstatus);

/* ---- what to count -------------------------------------------------------- */
enum perfev_target_kind {
	PERFEV_TARGET_THREAD,  /* one thread: pid is its tid (0: the caller) */
	PERFEV_TARGET_PROCESS, /* every thread of process pid, listed at open */
	PERFEV_TARGET_CHILD,   /* a held child: counting starts at its exec */
	PERFEV_TARGET_CPUS,    /* every task on the CPUs (system-wide) */
	PERFEV_TARGET_CGROUP,  /* tasks of one cgroup, on the CPUs */
};

struct perfev_target {
	size_t sz;                      /* sizeof(struct perfev_target) */
	enum perfev_target_kind kind;
	pid_t pid;                      /* THREAD, PROCESS, CHILD */
	const struct perfev_cpus *cpus; /* CPUS, CGROUP: NULL means all online */
	/* CGROUP: a path relative to the perf_event (v1) or cgroup2 mount, or
	 * an absolute path of a cgroup directory. */
	const char *cgroup;
	bool no_inherit;  /* THREAD, PROCESS, CHILD: not the tasks they create */
	/* An event that this machine cannot count (no PMU, unsupported config,
	 * ENOENT/EOPNOTSUPP/ENODEV/EINVAL) is kept, marked unsupported, instead
	 * of failing the open; permission and resource errors still fail. */
	bool keep_unsupported;
	/* Open with the counters running (not disabled); ignored for CHILD. */
	bool enabled;
};
#define perfev_target__last_field enabled
/*
 * Whether the task a PROCESS or THREAD target names has ended: it is gone,
 * or a zombie its parent has not reaped (its counters will not move again).
 * false for the other kinds, and while the task runs.
 */
PERFEV_API bool perfev_target_ended(const struct perfev_target *t);

/* ---- counters ------------------------------------------------------------ */
struct perfev_counters;

/*
 * Opens every event of list on every place the target names: one fd per
 * event per CPU (CPUS, CGROUP) or per thread (THREAD, PROCESS, CHILD).
 * Groups of the list become kernel groups, read in one read(2) with
 * PERF_FORMAT_GROUP|ID|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|LOST (on kernels
 * that refuse LOST, or GROUP with inherit, without them: one read each). The
 * attrs in list get those read_format bits, `inherit` (unless no_inherit),
 * and, for leaders, `disabled` (plus `enable_on_exec` for a CHILD).
 * As perf does, an event the kernel rejects (EINVAL) with exclude_guest or
 * exclude_host set is opened again without them (PMUs such as msr accept no
 * exclusion bit; the parser sets exclude_guest by default).
 * Counters start disabled (see perfev_counters_enable) unless enabled is
 * set or the target is a CHILD. Events of PMUs with a cpumask open only on
 * its CPUs. On failure returns NULL, errno set, and perfev_errmsg() names
 * the event, the target and the cause with its fix. The list must outlive
 * the counters.
 */
PERFEV_API struct perfev_counters *perfev_counters_open(struct perfev_evlist *list,
							const struct perfev_target *target);
PERFEV_API void perfev_counters_close(struct perfev_counters *c);

/* Enable, disable, zero every counter (per fd, members before leaders). */
PERFEV_API int perfev_counters_enable(struct perfev_counters *c);
PERFEV_API int perfev_counters_disable(struct perfev_counters *c);
PERFEV_API int perfev_counters_reset(struct perfev_counters *c);

/* The places counted: CPUs or threads. */
PERFEV_API size_t perfev_counters_nr_places(const struct perfev_counters *c);
/* The CPU of a place (-1 for thread places) and its thread (-1 for CPUs). */
PERFEV_API int perfev_counters_place_cpu(const struct perfev_counters *c, size_t place);
PERFEV_API pid_t perfev_counters_place_tid(const struct perfev_counters *c, size_t place);
/* A thread place's command name (/proc/TID/comm) when opened, else "". */
PERFEV_API const char *perfev_counters_place_comm(const struct perfev_counters *c, size_t place);
/* The fd of event ev at place, or -1 where it is not open. */
PERFEV_API int perfev_counters_fd(const struct perfev_counters *c, size_t ev, size_t place);

/* 0 if event ev is counting, or the -errno its open failed with (only with
 * keep_unsupported); perfev_counters_error() gives the explanation. */
PERFEV_API int perfev_counters_status(const struct perfev_counters *c, size_t ev);
PERFEV_API const char *perfev_counters_error(const struct perfev_counters *c, size_t ev);

/* One reading of one counter: raw value, times in ns, lost samples. */
struct perfev_count {
	uint64_t val;
	uint64_t ena; /* time enabled */
	uint64_t run; /* time running (less than ena when multiplexed) */
	uint64_t lost;
};

/* Reads every group (one syscall per group leader per place). 0 or -errno. */
PERFEV_API int perfev_counters_read(struct perfev_counters *c);
/* The last reading of event ev at one place / summed over all places. */
PERFEV_API int perfev_counters_get(const struct perfev_counters *c, size_t ev, size_t place,
				   struct perfev_count *out);
PERFEV_API int perfev_counters_sum(const struct perfev_counters *c, size_t ev,
				   struct perfev_count *out);

/*
 * The value a multiplexed counter would have had running all the time:
 * val * ena / run. *fraction (if not NULL) gets run / ena, the share of
 * time it really counted (1.0 when never multiplexed, 0 when it never ran,
 * in which case the result is 0: "not counted").
 */
PERFEV_API double perfev_count_scaled(const struct perfev_count *count, double *fraction);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_COUNTER_H */
