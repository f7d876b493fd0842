/* recorder_int.h — the recorder's private parts: what /proc says about the
 * system (recorder_proc.c), build-ids (core/buildid.c), the drain loop. */
#ifndef PERFEV_RECORDER_INT_H
#define PERFEV_RECORDER_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>
#include "perfev/recorder.h"
#include "perfev/counter.h"
#include "perfev/sys.h"
#include "perfev/ring.h"
#include "perfev/notify.h"

/* The threads of process pid (/proc/PID/task), sorted. */
int rec_task_tids(pid_t pid, pid_t **tids, size_t *n);
/* Every process (/proc/[0-9]*), sorted. */
int rec_all_pids(pid_t **pids, size_t *n);
/* The processes of user uid, sorted; and their threads (ESRCH with a
 * message: none). */
int rec_uid_pids(uid_t uid, pid_t **pids, size_t *n);
int rec_uid_tids(uid_t uid, pid_t **tids, size_t *n);

struct rec_proc_map {
	uint64_t start, end, pgoff, ino;
	uint32_t maj, min, prot, flags; /* PROT_*, MAP_PRIVATE/MAP_SHARED */
	char path[PATH_MAX];
};
/* Calls fn for every line of /proc/PID/maps; fn returning non-zero stops. */
int rec_proc_maps(pid_t pid, int (*fn)(const struct rec_proc_map *m, void *ctx), void *ctx);
/* From /proc/TID/status: Name, Tgid, PPid. */
int rec_proc_status(pid_t tid, char comm[16], pid_t *tgid, pid_t *ppid);
/* The kernel text from /proc/kallsyms: _text (_stext where there is no
 * _text, as on arm64; *ref names which) and _etext (0 when hidden). */
int rec_kernel_text(uint64_t *start, uint64_t *end, const char **ref);
/* The loaded kernel modules of a /proc/modules file ("name size refs deps
 * state address" lines; NULL: /proc/modules), fn called for each with its
 * address and size; modules at address 0 (kptr_restrict) are left out.
 * 0, fn's non-zero value, or -errno (no such file: 0, no modules). */
int rec_modules(const char *path, int (*fn)(const char *name, uint64_t addr, uint64_t size, void *ctx),
		void *ctx);



/* ---- the recorder ---------------------------------------------------------- */
struct perfev_recorder {
	struct perfev_record_opts opts;
	char *output;                 /* the output path ("-" for stdout) */
	struct perfev_evlist *own_events; /* the default event list we made */
	const struct perfev_evlist *events;
	struct perfev_attr *attrs;    /* per event: the attr as opened */
	size_t nevents;
	char **names;                 /* per event: the name perf gives a user-only fallback, or NULL */
	int *cpus;                    /* one ring per CPU */
	size_t ncpus;
	pid_t *tids;                  /* {-1} for system-wide */
	size_t ntids;
	int *fds;                     /* [event][cpu][thread] */
	uint64_t **ids;               /* per event: ncpus * ntids ids */
	struct perfev_ring **rings;   /* per CPU */
	struct perfev_poller *poller;
	int wake[2];                  /* stop(): a byte here wakes the loop */
	volatile sig_atomic_t stopping;
	struct perfev_child *child;   /* the command (counter.h), or NULL */
	pid_t child_pid;              /* its pid while it runs, else 0 */
	struct rusage child_ru;       /* its resource use, once waited for */
	int pidfd;                    /* readable when the command exits */
	struct perfev_perfdata_writer *writer;
	unsigned char *out_buf;       /* records waiting to be written */
	size_t out_len;
	bool pipe_mode;
	bool kept_old;                /* the previous output was renamed to OUTPUT.old */
	bool out_regular;             /* the output is a regular file (removable) */
	bool rate_given;              /* opts gave freq or period (they replace a tracepoint's period 1) */
	struct perfev_record_stats stats;
	struct rec_scan *scan;        /* recorder_scan.c */
	struct perfev_decoder *dec;   /* ring and side-band records, decoded for the scan */
	struct rec_feed *feed;        /* recorder_feed.c: records for opts.on_record */
};

#define REC_FD(r, ev, c, t) ((r)->fds[((ev) * (r)->ncpus + (c)) * (r)->ntids + (t)])

/* recorder_open.c: attrs, events on every CPU and thread, rings. */
int rec_open_events(struct perfev_recorder *r);
void rec_close_events(struct perfev_recorder *r);
int rec_enable(struct perfev_recorder *r, bool on);
/* The event's name for the file: "cpu-clock:u" after a user-space-only fallback. */
const char *rec_event_name(const struct perfev_recorder *r, size_t ev);
/* The samples the kernel dropped, summed over every event fd (PERF_FORMAT_LOST;
 * 0 on kernels without it). */
uint64_t rec_read_lost(struct perfev_recorder *r);
/* recorder_child.c: the command (perfev_child), and knowing when it ends. */
int rec_child_fork(struct perfev_recorder *r);
int rec_child_start(struct perfev_recorder *r);
/* Reaps the command (after SIGTERM if kill_it); block: wait, else only if ended. */
bool rec_child_reap(struct perfev_recorder *r, bool kill_it, bool block);
/* recorder_loop.c */
int rec_drain_all(struct perfev_recorder *r, bool *wrote);
/* recorder_scan.c: which binaries samples hit, for the build-ids. */
struct rec_dso {
	const char *path;
	bool hit;
};
/* A record read from a ring (decoded with r->dec when the model needs it). */
void rec_scan_record(struct perfev_recorder *r, const void *rec, size_t size);
/* A decoded record: side-band records feed the scan's session, samples mark
 * the binary their ip is in (out of memory: the scan misses it, no more). */
struct perfev_record;
void rec_scan_process(struct perfev_recorder *r, const struct perfev_record *rec);
/* The same for an executable MMAP2 and a sample of pid (tests). */
void rec_scan_mmap(struct perfev_recorder *r, pid_t pid, uint64_t start, uint64_t len,
		   const char *path);
void rec_scan_sample(struct perfev_recorder *r, pid_t pid, uint64_t ip, bool kernel);
const struct rec_dso *rec_scan_dsos(struct perfev_recorder *r, size_t *n, bool *kernel_hit);
void rec_scan_free(struct perfev_recorder *r);
/* recorder_synth.c: the kernel map; COMM, FORK, MMAP2 of running processes. */
int rec_synth_kernel(struct perfev_recorder *r);
int rec_synth_modules(struct perfev_recorder *r);
int rec_synth_processes(struct perfev_recorder *r);
/* recorder_feed.c: every record written, for opts.on_record (in a reader's
 * order); each returns 0 or -errno (on_record's failure). */
int rec_feed_record(struct perfev_recorder *r, const void *data, size_t len);
int rec_feed_round(struct perfev_recorder *r);
int rec_feed_end(struct perfev_recorder *r);
void rec_feed_free(struct perfev_recorder *r);
/* recorder_out.c: the output file. */
int rec_out_open(struct perfev_recorder *r);
int rec_out_begin(struct perfev_recorder *r);
int rec_out_write(struct perfev_recorder *r, const void *data, size_t len);
int rec_out_round(struct perfev_recorder *r);
int rec_out_end(struct perfev_recorder *r);
void rec_out_close(struct perfev_recorder *r);

#endif
