/*
 * perfev/sys.h — the system interface: perf_event_open(2), its ioctls,
 * prctl, the /proc/sys/kernel/perf_event_* settings, and the explanation of
 * every error the manual lists.
 *
 * Error convention (the whole library): functions returning int return 0 or
 * a non-negative value on success and -errno on failure, with errno set too;
 * functions returning pointers return NULL and set errno.
 */
#ifndef PERFEV_SYS_H
#define PERFEV_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "perfev/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Open an event: perf_event_open(attr, pid, cpu, group_fd, flags).
 * If attr->size is 0 it is set to PERFEV_ATTR_SIZE_LATEST. The running kernel
 * accepts a larger attr as long as the fields it does not know are zero; when
 * one is not, the kernel answers E2BIG and writes its own size into
 * attr->size, which perfev_explain_open() turns into the name of the field.
 * PERF_FLAG_FD_CLOEXEC is always added to flags.
 * Returns the file descriptor, or -errno.
 */
PERFEV_API int perfev_open(struct perfev_attr *attr, pid_t pid, int cpu,
			   int group_fd, unsigned long flags);

/*
 * The ioctls of the manual. Each returns 0 (or the ioctl's value) or -errno.
 * `group` adds PERF_IOC_FLAG_GROUP: the ioctl acts on the whole group of fd.
 */
PERFEV_API int perfev_ioc_enable(int fd, bool group);
PERFEV_API int perfev_ioc_disable(int fd, bool group);
PERFEV_API int perfev_ioc_reset(int fd, bool group);
/* Let the counter overflow `count` more times, then disable (refresh). */
PERFEV_API int perfev_ioc_refresh(int fd, int count);
PERFEV_API int perfev_ioc_period(int fd, uint64_t period);
/* Send fd's records to target_fd's ring buffer; target_fd -1 stops that. */
PERFEV_API int perfev_ioc_set_output(int fd, int target_fd);
PERFEV_API int perfev_ioc_set_filter(int fd, const char *filter);
PERFEV_API int perfev_ioc_id(int fd, uint64_t *id);
PERFEV_API int perfev_ioc_set_bpf(int fd, int prog_fd);
PERFEV_API int perfev_ioc_pause_output(int fd, bool pause);
/* Fills ids[] with up to *nr BPF program ids; *nr becomes the total count. */
PERFEV_API int perfev_ioc_query_bpf(int fd, uint32_t *ids, uint32_t *nr);
PERFEV_API int perfev_ioc_modify_attributes(int fd, struct perfev_attr *attr);

/* prctl(PR_TASK_PERF_EVENTS_ENABLE / _DISABLE): all counters of this task. */
PERFEV_API int perfev_prctl_enable(void);
PERFEV_API int perfev_prctl_disable(void);

/* The /proc/sys/kernel/perf_event_* settings; PERFEV_SYSCTL_ABSENT where the
 * file does not exist (perf_user_access exists on arm64 only). */
#define PERFEV_SYSCTL_ABSENT INT64_MIN
struct perfev_sysctl {
	int64_t paranoid;               /* perf_event_paranoid */
	int64_t mlock_kb;               /* perf_event_mlock_kb */
	int64_t max_sample_rate;        /* perf_event_max_sample_rate */
	int64_t cpu_time_max_percent;   /* perf_cpu_time_max_percent */
	int64_t max_stack;              /* perf_event_max_stack */
	int64_t max_contexts_per_stack; /* perf_event_max_contexts_per_stack */
	int64_t user_access;            /* perf_user_access (arm64) */
};
/* Reads every setting; never fails (missing files read as ABSENT). */
PERFEV_API void perfev_sysctl_read(struct perfev_sysctl *out);
/* Writes one setting by its file name under /proc/sys/kernel/ (root only). */
PERFEV_API int perfev_sysctl_write(const char *name, int64_t value);

/*
 * The attr size the running kernel knows (PERF_ATTR_SIZE_VER*), found once
 * by a probe open and cached. Returns the size or -errno.
 */
PERFEV_API int perfev_kernel_attr_size(void);

/*
 * Explain why perfev_open() failed: a sentence or more naming the likely
 * cause and the fix, for every errno of the manual's ERRORS section, using
 * the attr, the target and the current settings (paranoid level, mlock
 * limit, capabilities). Writes a NUL-terminated text into buf; returns its
 * length (as snprintf).
 */
PERFEV_API int perfev_explain_open(char *buf, size_t len,
				   const struct perfev_attr *attr, pid_t pid,
				   int cpu, int err);

/*
 * The message of the most recent failure of a perfev call in this thread,
 * naming what failed and why (for example "perf.data: record at offset 4096
 * claims 65535 bytes but 120 remain"). It stays until the next failure; if
 * no call has recorded one, it is strerror(errno).
 */
PERFEV_API const char *perfev_errmsg(void);

/*
 * Stateless names of an error code, beside perfev_errmsg()'s contextual
 * message (as libuv's uv_err_name/uv_strerror): err is an errno value or a
 * perfev return value (-errno), the sign does not matter.
 *
 * perfev_errname: the errno macro's name, "EINVAL", "ENOENT"... (for logs
 * and machine-read output); "UNKNOWN" for a value Linux does not define.
 * A static string.
 *
 * perfev_strerror: the C library's text for it ("Invalid argument"); never
 * NULL. Valid until the next perfev_strerror call in the same thread.
 * Neither reads nor changes errno or perfev_errmsg().
 */
PERFEV_API const char *perfev_errname(int err);
PERFEV_API const char *perfev_strerror(int err);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_SYS_H */
