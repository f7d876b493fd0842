/* recorder_int.h — the recorder's private parts: what /proc says about the
 * system (recorder_proc.c), build-ids (recorder_buildid.c), the drain loop. */
#ifndef PERFEV_RECORDER_INT_H
#define PERFEV_RECORDER_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

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

#endif
