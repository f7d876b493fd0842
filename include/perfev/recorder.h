/*
 * perfev/recorder.h — sampling a command, processes, a user's processes or
 * the whole system into a perf.data file (or a pipe), as `perfev record`
 * does, or for the caller alone (no_output, on_record, on_tick), as
 * `perfev top` does.
 *
 * The recorder opens every event on every CPU of the target, gives each CPU
 * one ring buffer that all events on that CPU share (SET_OUTPUT), describes
 * the processes and the kernel that already exist (COMM, FORK, MMAP2 from
 * /proc, the kernel map from /proc/kallsyms), drains the rings with epoll as
 * they fill, and at the end writes the build-ids of the binaries that
 * samples hit. perfev_recorder_stop() is async-signal-safe: a SIGINT or
 * SIGTERM handler calls it and perfev_recorder_run() returns after writing
 * a complete file.
 */
#ifndef PERFEV_RECORDER_H
#define PERFEV_RECORDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "perfev/abi.h"
#include "perfev/event.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_record;
/* A record handed over (perfev_record_opts.on_record); 0 or -errno. */
typedef int (*perfev_record_fn)(void *ctx, const struct perfev_record *rec);
/* A tick (perfev_record_opts.on_tick); 0 or -errno. */
typedef int (*perfev_record_tick_fn)(void *ctx);

enum perfev_callgraph {
	PERFEV_CALLGRAPH_NONE = 0,
	PERFEV_CALLGRAPH_FP,    /* kernel-walked frame pointers (PERF_SAMPLE_CALLCHAIN) */
	PERFEV_CALLGRAPH_DWARF, /* user registers and stack copy, unwound later */
};

struct perfev_record_opts {
	size_t sz;                    /* sizeof(struct perfev_record_opts) */
	const struct perfev_evlist *events; /* NULL: cycles, or cpu-clock where no PMU counts cycles */
	uint64_t freq;                /* samples per second per event (default 4000) */
	uint64_t period;              /* a fixed period instead (wins over freq when set) */
	/* Either applies to every event whose string fixed no period; set
	 * explicitly, either also replaces a tracepoint's default period 1
	 * (as perf record -F/-c do). */
	enum perfev_callgraph call_graph;
	uint32_t dwarf_stack_size;    /* bytes of user stack per sample (default 8192) */
	bool all_cpus;                /* -a: every CPU, every process */
	const char *cpus;             /* -C: a CPU list such as "0-3,5" (system-wide on those) */
	pid_t pid;                    /* -p: every thread of this process */
	pid_t tid;                    /* -t: this thread */
	char *const *argv;            /* the command to run and record (NULL-terminated), or NULL */
	size_t mmap_pages;            /* data pages per CPU ring, a power of two (0: default) */
	bool switch_events;           /* context switches (attr.context_switch) */
	bool compress;                /* zstd-compressed records (COMPRESSED2) */
	int compress_level;           /* 0: default (1) */
	const char *output;           /* the file (default "perf.data"); "-": stdout, pipe mode;
				       * see no_output for none */
	int cmdline_argc;             /* the recording's own command line, for the CMDLINE */
	char *const *cmdline_argv;    /*   feature (perf report --header shows it); may be 0/NULL */
	bool use_clockid;             /* -k: timestamps from this clock (attr.use_clockid), and the */
	int clockid;                  /*   file's CLOCKID and CLOCK_DATA features (perf record -k) */
	/* Called with every record written to the output (side-band and
	 * samples), decoded, in the order a reader of the output gets them
	 * (perfev_perfdata_process's: by time, as perf's rounds allow), from
	 * perfev_recorder_run's thread; the last ones before run() returns.
	 * rec and what it points to live for the call only. Its attr_idx
	 * indexes perfev_recorder_event_attr. A negative -errno (or any
	 * non-zero) return ends the recording with that error. NULL: none.
	 * A perfev_profile_builder fed here builds the recording's profile
	 * without reading the file back. */
	perfev_record_fn on_record;
	void *on_record_ctx;
	/* More in each sample, as perf record's options: PERF_SAMPLE_* bits
	 * added to every event (-d ADDR|DATA_SRC, with the data maps' MMAP
	 * records, --phys-data PHYS_ADDR,
	 * --data-page-size DATA_PAGE_SIZE, --code-page-size CODE_PAGE_SIZE,
	 * -W WEIGHT_STRUCT, --transaction TRANSACTION). The recorder's own
	 * (IDENTIFIER, IP, TID, TIME, PERIOD, CPU) are always there. */
	uint64_t sample_type;
	/* -b / -j: the taken branches (PERF_SAMPLE_BRANCH_STACK) of this
	 * branch_sample_type (PERF_SAMPLE_BRANCH_*); 0: none */
	uint64_t branch_sample_type;
	/* -I / --user-regs: the interrupted (PERF_SAMPLE_REGS_INTR) or user
	 * (PERF_SAMPLE_REGS_USER) registers of this mask; 0: none (DWARF call
	 * graphs take the user registers they need themselves) */
	uint64_t sample_regs_intr, sample_regs_user;
	bool no_inherit;     /* -i: not the tasks the command or process creates */
	bool exclude_kernel; /* --all-user: every event in user space only */
	bool exclude_user;   /* --all-kernel: every event in the kernel only */
	/* No file at all (output is then ignored): the records go to on_record
	 * alone, as a live view (perfev top) takes them; nothing is kept for a
	 * file (no build-id scan), stats.bytes stays 0. Without on_record the
	 * recording only counts (stats). */
	bool no_output;
	/* Called every tick_ms milliseconds (0: never) from perfev_recorder_run's
	 * thread between drains of the rings, whether samples come or not: a
	 * live view's refresh. Late ticks are not made up (a tick that comes
	 * after two periods is one call). It may call perfev_recorder_stop to
	 * end the recording; a non-zero return (-errno) ends it with that error. */
	unsigned tick_ms;
	perfev_record_tick_fn on_tick;
	void *on_tick_ctx;
	/* -u: every thread of every process of user uid running when the
	 * recorder is made (perf top -u; threads they start later are
	 * followed, other new processes are not). Threads that end meanwhile
	 * are skipped; the recording goes on until stopped. */
	bool by_uid;
	uid_t uid;
};
#define perfev_record_opts__last_field uid

struct perfev_record_stats {
	uint64_t samples;       /* PERF_RECORD_SAMPLE records written */
	uint64_t lost;          /* samples the kernel dropped: the larger of the
				 * PERF_RECORD_LOST sum and the events' own counts
				 * (PERF_FORMAT_LOST, Linux >= 6.0) read at the end */
	uint64_t lost_samples;  /* PERF_RECORD_LOST_SAMPLES (the PMU lost them) */
	uint64_t throttled;     /* PERF_RECORD_THROTTLE: the kernel cut the sample rate */
	uint64_t bytes;         /* bytes written to the output */
	uint64_t wakeups;       /* times the drain loop woke */
	bool command_ran;       /* a command was started and has been waited for */
	int command_status;     /* its wait status (see waitpid(2)) */
	bool user_only;         /* perf_event_paranoid forbade the kernel: user space only */
	int exec_error;         /* the command could not be executed: execvp's errno (ENOENT,
				 * EACCES...); perfev_recorder_free then removes the output
				 * file (and puts a previous FILE.old back) */
};

struct perfev_recorder;

/*
 * Checks the options, opens the events and maps the rings; starts nothing
 * yet (a command is forked but waits before exec). argv and events are
 * borrowed until perfev_recorder_free. Returns NULL (errno set,
 * perfev_errmsg() explains with the fix) on failure.
 */
PERFEV_API struct perfev_recorder *perfev_recorder_new(const struct perfev_record_opts *opts);
/*
 * perf record -k's clock names: monotonic, monotonic_raw, realtime, boottime,
 * tai, perf's short forms (mono, raw, real, boot), any of them with a
 * CLOCK_ prefix and in any case, or a clock number. Returns the clockid or
 * -EINVAL (perfev_errmsg() lists the names).
 */
PERFEV_API int perfev_clockid_parse(const char *name);
/* perf's name of a clock (the first of the list above: "monotonic"...), or
 * "(not found)" as perf says it. */
PERFEV_API const char *perfev_clockid_name(int clockid);
/*
 * Records: writes the file header and what already exists, starts the
 * command, drains the rings until the command exits or perfev_recorder_stop
 * is called, then writes the build-ids and completes the file.
 * Returns 0 or -errno.
 */
PERFEV_API int perfev_recorder_run(struct perfev_recorder *rec);
/* Asks run() to finish; async-signal-safe. */
PERFEV_API void perfev_recorder_stop(struct perfev_recorder *rec);
PERFEV_API void perfev_recorder_stats(const struct perfev_recorder *rec,
				      struct perfev_record_stats *out);
/* The events being recorded, after defaults were applied. */
PERFEV_API const struct perfev_evlist *perfev_recorder_evlist(const struct perfev_recorder *rec);
/* The events recorded, as opened (after a user-space-only fallback: with
 * exclude_kernel) and as named in the file; a record's attr_idx indexes
 * them. NULL when i is out of range; valid until perfev_recorder_free. */
PERFEV_API size_t perfev_recorder_nr_events(const struct perfev_recorder *rec);
PERFEV_API const struct perfev_attr *perfev_recorder_event_attr(const struct perfev_recorder *rec, size_t i);
PERFEV_API const char *perfev_recorder_event_name(const struct perfev_recorder *rec, size_t i);
/* Kills a command still running (SIGKILL), closes everything. NULL is fine. */
PERFEV_API void perfev_recorder_free(struct perfev_recorder *rec);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_RECORDER_H */
