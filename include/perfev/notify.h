/*
 * perfev/notify.h — being told that a ring has records: poll/epoll over many
 * event fds, signals on overflow (O_ASYNC, F_SETOWN_EX, F_SETSIG, REFRESH),
 * synchronous SIGTRAP with attr.sigtrap, and telling which event a record
 * came from (PERF_EVENT_IOC_ID, PERF_SAMPLE_IDENTIFIER).
 *
 * An event fd is readable (POLLIN) once wakeup_events samples or
 * wakeup_watermark bytes are waiting (see perfev_attr_set_wakeup), and hangs
 * up (POLLHUP) when the task it follows has exited or the event was
 * disabled by its REFRESH count running out.
 */
#ifndef PERFEV_NOTIFY_H
#define PERFEV_NOTIFY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "perfev/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- poll / epoll ----------------------------------------------------------- */
struct perfev_poller;

struct perfev_poll_event {
	int fd;
	void *ctx;     /* what was given to perfev_poller_add */
	bool readable; /* POLLIN: records are waiting */
	bool hangup;   /* POLLHUP: the followed task exited (read what is left) */
	bool error;    /* POLLERR */
};

/* An epoll set of event fds. Returns NULL (errno) on failure. */
PERFEV_API struct perfev_poller *perfev_poller_new(void);
PERFEV_API void perfev_poller_free(struct perfev_poller *p);
/* Watches fd for POLLIN (POLLHUP and POLLERR always); ctx comes back with it. */
PERFEV_API int perfev_poller_add(struct perfev_poller *p, int fd, void *ctx);
PERFEV_API int perfev_poller_del(struct perfev_poller *p, int fd);
/* The number of fds watched. */
PERFEV_API size_t perfev_poller_count(const struct perfev_poller *p);
/*
 * Waits up to timeout_ms (-1: forever) and fills evs with up to max ready
 * fds. Returns how many, 0 on timeout, -EINTR when a signal came first,
 * other -errno on failure.
 */
PERFEV_API int perfev_poller_wait(struct perfev_poller *p, struct perfev_poll_event *evs,
				  int max, int timeout_ms);
/* The epoll fd itself, to nest in another event loop (readable when any is). */
PERFEV_API int perfev_poller_fd(const struct perfev_poller *p);

/*
 * poll(2) over n fds at once, without a poller: revents[i] gets the poll
 * bits of fds[i]. Returns the number of ready fds, 0 on timeout, or -errno.
 */
PERFEV_API int perfev_poll_fds(const int *fds, short *revents, size_t n, int timeout_ms);

/* ---- signals on overflow -------------------------------------------------- */
/*
 * Asks for signal `sig` on every wake-up of fd (O_ASYNC), delivered to thread
 * `tid` (F_SETOWN_EX with F_OWNER_TID; 0 means the calling thread) with a
 * siginfo (F_SETSIG) whose si_code is POLL_IN, or POLL_HUP when the event's
 * REFRESH count ran out (perfev_ioc_refresh). Use a real-time signal
 * (SIGRTMIN + n) so signals queue instead of merging. Returns 0 or -errno.
 */
PERFEV_API int perfev_notify_signal(int fd, int sig, pid_t tid);
/* Stops the signals of fd (clears O_ASYNC). */
PERFEV_API int perfev_notify_signal_off(int fd);

/*
 * Synchronous SIGTRAP on each overflow (Linux 5.13): sets attr.sigtrap, the
 * remove_on_exec the kernel requires with it, and sig_data, which comes back
 * in the siginfo's si_perf_data. The event must be per-thread; with inherit
 * it needs inherit_thread too (the kernel refuses otherwise).
 */
PERFEV_API void perfev_attr_set_sigtrap(struct perfev_attr *attr, uint64_t sig_data);

enum perfev_sig_kind {
	PERFEV_SIG_OTHER = 0,
	PERFEV_SIG_POLL_IN,  /* an overflow wake-up (perfev_notify_signal) */
	PERFEV_SIG_POLL_HUP, /* the REFRESH count ran out; the event is disabled */
	PERFEV_SIG_TRAP,     /* attr.sigtrap: SIGTRAP with si_code TRAP_PERF */
};

/* A perf signal's siginfo in words. */
struct perfev_siginfo {
	enum perfev_sig_kind kind;
	int signo, code;
	int fd;             /* POLL_IN/POLL_HUP: the event fd */
	long band;          /* POLL_*: the poll band (POLLIN / POLLHUP bits) */
	uint64_t perf_data; /* TRAP: attr.sig_data (si_perf_data) */
	uint32_t perf_type; /* TRAP: attr.type of the event (si_perf_type) */
	uint32_t perf_flags;/* TRAP: si_perf_flags (TRAP_PERF_FLAG_ASYNC) */
	void *addr;         /* TRAP: the address (breakpoints: the watched one) */
};
/* Decodes si into out. Returns the kind (PERFEV_SIG_OTHER if not a perf signal). */
PERFEV_API int perfev_siginfo_decode(const siginfo_t *si, struct perfev_siginfo *out);
/* "POLL_IN", "POLL_HUP", "TRAP_PERF" or "other". */
PERFEV_API const char *perfev_sig_kind_name(enum perfev_sig_kind kind);

/* ---- which event wrote a record --------------------------------------------- */
/*
 * A map from event ids (PERF_EVENT_IOC_ID; the id in PERF_SAMPLE_IDENTIFIER,
 * PERF_SAMPLE_ID, read_format ID) to what the caller calls that event.
 */
struct perfev_idmap;
PERFEV_API struct perfev_idmap *perfev_idmap_new(void);
PERFEV_API void perfev_idmap_free(struct perfev_idmap *m);
/* Maps id to ctx (replacing an earlier ctx for the same id). */
PERFEV_API int perfev_idmap_add(struct perfev_idmap *m, uint64_t id, void *ctx);
/* Asks the kernel for fd's id (PERF_EVENT_IOC_ID), maps it, and returns it in *id. */
PERFEV_API int perfev_idmap_add_fd(struct perfev_idmap *m, int fd, void *ctx, uint64_t *id);
/* The ctx of id, or NULL (errno ENOENT). */
PERFEV_API void *perfev_idmap_find(const struct perfev_idmap *m, uint64_t id);
/* The ctx of the event that wrote rec (see perfev_ring_record_id), or NULL. */
PERFEV_API void *perfev_idmap_find_record(const struct perfev_idmap *m, const void *rec,
					  size_t size);
PERFEV_API size_t perfev_idmap_count(const struct perfev_idmap *m);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_NOTIFY_H */
