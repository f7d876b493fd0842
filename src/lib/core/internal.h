/*
 * internal.h — helpers shared by the library's modules (not API).
 * Use these rather than writing another: growable buffers, file reading,
 * JSON escaping, the error message of the last failure.
 */
#ifndef PERFEV_INTERNAL_H
#define PERFEV_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define PV_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PV_MIN(a, b) ((a) < (b) ? (a) : (b))
#define PV_MAX(a, b) ((a) > (b) ? (a) : (b))
#define PV_PRINTF(f, a) __attribute__((format(printf, f, a)))

/*
 * Record the failure message for perfev_errmsg() and return -err (errno is
 * set to err). Use as: return pv_error(EINVAL, "bad term '%s'", t);
 */
int pv_error(int err, const char *fmt, ...) PV_PRINTF(2, 3);
/* Same, returning NULL, for functions that return pointers. */
void *pv_error_null(int err, const char *fmt, ...) PV_PRINTF(2, 3);

/* ---- growable byte buffer, always NUL-terminated ------------------------ */
struct pv_buf {
	char *data;
	size_t len, cap;
	bool oom; /* an allocation failed: contents are incomplete */
};
#define PV_BUF_INIT {0}
void pv_buf_add(struct pv_buf *b, const void *data, size_t len);
void pv_buf_puts(struct pv_buf *b, const char *s);
void pv_buf_putc(struct pv_buf *b, char c);
void pv_buf_printf(struct pv_buf *b, const char *fmt, ...) PV_PRINTF(2, 3);
void pv_buf_vprintf(struct pv_buf *b, const char *fmt, va_list ap);
/* Appends s as a JSON string literal, quotes included. */
void pv_buf_json_str(struct pv_buf *b, const char *s);
void pv_buf_reset(struct pv_buf *b);
void pv_buf_free(struct pv_buf *b);
/* Hands the data to the caller (who frees it) and resets the buffer. */
char *pv_buf_detach(struct pv_buf *b);

/*
 * Grow *ptr (an array of elsize-byte items with *cap slots) to hold at least
 * `need` items. Returns 0 or -ENOMEM (the array is unchanged then).
 */
int pv_grow_slow(void *ptr, size_t *cap, size_t need, size_t elsize);
static inline int pv_grow(void *ptr, size_t *cap, size_t need, size_t elsize)
{
	return need <= *cap ? 0 : pv_grow_slow(ptr, cap, need, elsize); /* (the hot path: no call) */
}

/* ---- files ---------------------------------------------------------------- */
/* Reads a whole file (up to max bytes) into a malloc'ed NUL-terminated
 * buffer. Returns 0 or -errno. */
int pv_read_file(const char *path, char **out, size_t *len, size_t max);
/* Writes all of data (at off for the p- form), retrying short writes and
 * EINTR; a write that makes no progress is -EIO. 0 or -errno; no message
 * set, and async-signal-safe. */
int pv_write_all(int fd, const void *data, size_t len);
int pv_pwrite_all(int fd, const void *data, size_t len, uint64_t off);
/* Reads the first line of a small file, without its newline. */
int pv_read_line(const char *path, char *buf, size_t len);
int pv_read_i64(const char *path, int64_t *out);
/* Where a CPU sits, from sysfs (perf's cpu__get_socket_id, _die_id,
 * _core_id; node: its nodeN link): -1 where the kernel does not say.
 * pv_cpu_topo leaves node -1; pv_cpu_node reads it (cpus.c). */
struct pv_cpu_topo {
	int socket, die, core, node;
};
void pv_cpu_topo(int cpu, struct pv_cpu_topo *t);
int pv_cpu_node(int cpu);
/* The addresses of the symbols names[0..n) in a kallsyms file (NULL:
 * /proc/kallsyms), read until all are found: addrs[i] = 0 for one it lacks
 * (or shows as 0: kptr_restrict). 0, or -errno when it cannot be opened. */
int pv_kallsyms_addrs(const char *path, const char *const *names, size_t n, uint64_t *addrs);
/* perf's --time ranges (time_ranges.c): "START,END" in seconds, either end
 * empty, several separated by spaces, parsed exactly to nanoseconds.
 * 0 or -errno with the message set (EINVAL names the bad range). */
struct pv_time_range {
	uint64_t start, end; /* [start, end], ns */
};
int pv_time_ranges_parse(const char *spec, struct pv_time_range **out, size_t *nr);
/* Whether some range holds time (no ranges: every time). */
bool pv_time_ranges_have(const struct pv_time_range *r, size_t nr, uint64_t time);
/* Whether the comma-separated list holds name exactly (perf's strlist of an option). */
bool pv_list_has(const char *list, const char *name);
/* perfev_child_new (perfev/counter.h); stdout_to_stderr: the command's
 * stdout is the caller's stderr (perf's pipe mode, whose stdout is the
 * stream). */
struct perfev_child;
struct perfev_child *pv_child_new(char *const argv[], bool stdout_to_stderr);
int pv_write_str(const char *path, const char *s);

/* Does this process hold capability cap (CAP_PERFMON ...) in its effective set? */
bool pv_has_cap(int cap);

/* strdup that records ENOMEM for perfev_errmsg(). */
char *pv_strdup(const char *s);
char *pv_strndup(const char *s, size_t n);

struct perfev_attr;
/* perfev_explain_open() knowing the open flags (pid is a cgroup fd with
 * PERF_FLAG_PID_CGROUP). */
int pv_explain_open_flags(char *buf, size_t len, const struct perfev_attr *attr, pid_t pid,
			  int cpu, unsigned long flags, int err);

/* The GNU build-id of an ELF file (libc only). Returns its length or -errno. */
int pv_file_build_id(const char *path, uint8_t *id, size_t max);
/* The running kernel's build-id, from /sys/kernel/notes. */
int pv_kernel_build_id(uint8_t *id, size_t max);

/* perfev_perfdata_close that keeps errno (and the message) of the failure
 * before it. */
struct perfev_perfdata;
void pv_close_keep_errno(struct perfev_perfdata *pd);

/* The log hook (core/log.c, perfev/log.h): formats and passes msg on
 * when a hook is set and level is wanted. */
#include "perfev/log.h"
void pv_log(enum perfev_log_level level, const char *fmt, ...) PV_PRINTF(2, 3);
bool pv_log_on(enum perfev_log_level level);
#define pv_warn(...) pv_log(PERFEV_LOG_WARN, __VA_ARGS__)
#define pv_note(...) pv_log(PERFEV_LOG_NOTE, __VA_ARGS__)

#endif
