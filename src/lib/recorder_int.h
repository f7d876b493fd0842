/* recorder_int.h — the recorder's private parts: what /proc says about the
 * system (recorder_proc.c), build-ids (recorder_buildid.c), the drain loop. */
#ifndef PERFEV_RECORDER_INT_H
#define PERFEV_RECORDER_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <signal.h>
#include <sys/types.h>
#include "perfev/recorder.h"
#include "perfev/ring.h"
#include "perfev/notify.h"

/* "0-3,5" (NULL or "" means every online CPU). Returns 0 or -errno. */
int rec_cpu_list(const char *spec, int **cpus, size_t *n);
/* The threads of process pid (/proc/PID/task), sorted. */
int rec_task_tids(pid_t pid, pid_t **tids, size_t *n);
/* Every process (/proc/[0-9]*), sorted. */
int rec_all_pids(pid_t **pids, size_t *n);

struct rec_proc_map {
	uint64_t start, end, pgoff, ino;
	uint32_t maj, min, prot, flags; /* PROT_*, MAP_PRIVATE/MAP_SHARED */
	char path[PATH_MAX];
};
/* Calls fn for every line of /proc/PID/maps; fn returning non-zero stops. */
int rec_proc_maps(pid_t pid, int (*fn)(const struct rec_proc_map *m, void *ctx), void *ctx);
/* From /proc/TID/status: Name, Tgid, PPid. */
int rec_proc_status(pid_t tid, char comm[16], pid_t *tgid, pid_t *ppid);
/* The kernel text from /proc/kallsyms: _text and _etext (0 when hidden). */
int rec_kernel_text(uint64_t *start, uint64_t *end);

/* The GNU build-id of an ELF file (libc only). Returns its length or -errno. */
int rec_elf_build_id(const char *path, uint8_t *id, size_t max);
/* The running kernel's build-id, from /sys/kernel/notes. */
int rec_kernel_build_id(uint8_t *id, size_t max);


/* ---- the recorder ---------------------------------------------------------- */
struct perfev_recorder {
	struct perfev_record_opts opts;
	char *output;                 /* the output path ("-" for stdout) */
	struct perfev_evlist *own_events; /* the default event list we made */
	const struct perfev_evlist *events;
	struct perfev_attr *attrs;    /* per event: the attr as opened */
	size_t nevents;
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
	pid_t child;                  /* the command, or 0 */
	int child_go;                 /* write end: a byte (or close) starts the command */
	int child_err;                /* read end: exec's errno if it failed */
	int pidfd;                    /* readable when the command exits */
	int out_fd;
	unsigned char *out_buf;       /* records waiting to be written */
	size_t out_len;
	bool pipe_mode;
	struct perfev_record_stats stats;
};

#define REC_FD(r, ev, c, t) ((r)->fds[((ev) * (r)->ncpus + (c)) * (r)->ntids + (t)])

/* recorder_open.c: attrs, events on every CPU and thread, rings. */
int rec_open_events(struct perfev_recorder *r);
void rec_close_events(struct perfev_recorder *r);
int rec_enable(struct perfev_recorder *r, bool on);
/* recorder_child.c: the command, forked to wait until it is started. */
int rec_child_fork(struct perfev_recorder *r);
int rec_child_start(struct perfev_recorder *r);
void rec_child_wait(struct perfev_recorder *r, bool kill_it);
/* recorder_loop.c */
int rec_drain_all(struct perfev_recorder *r, bool *wrote);
/* recorder_scan.c: what samples hit, for the build-ids (every drained record). */
void rec_scan_record(struct perfev_recorder *r, const void *rec, size_t size);
/* recorder_out.c: the output file. */
int rec_out_open(struct perfev_recorder *r);
int rec_out_begin(struct perfev_recorder *r);
int rec_out_write(struct perfev_recorder *r, const void *data, size_t len);
int rec_out_round(struct perfev_recorder *r);
int rec_out_end(struct perfev_recorder *r);
void rec_out_close(struct perfev_recorder *r);

#endif
