/*
 * perfev/watch.h — in-process watchpoints: a hardware breakpoint
 * (PERF_TYPE_BREAKPOINT) on an address of the calling thread that calls a
 * handler on every access, through the kernel's synchronous SIGTRAP
 * (attr.sigtrap, with attr.sig_data naming the watch).
 *
 * The handler runs inside the SIGTRAP handler, right after the accessing
 * instruction (x86 data breakpoints trap after the access): only
 * async-signal-safe work there. The library installs no signal handler of
 * its own accord: before the first perfev_watch_new() the program either
 * calls perfev_watch_sigtrap_install() (perfev's handler, which passes
 * signals that are not a watch's to the handler that was there before) or
 * has its own SA_SIGINFO SIGTRAP handler call perfev_watch_sigtrap_dispatch().
 *
 * The watch monitors the thread that created it (perf_event_open pid 0);
 * it is removed on exec (attr.remove_on_exec, which sigtrap requires).
 * Hardware limits apply: x86 has 4 debug registers, lengths 1, 2, 4, 8
 * with the address aligned to the length, and no read-only watchpoints
 * (use PERFEV_WATCH_RW).
 */
#ifndef PERFEV_WATCH_H
#define PERFEV_WATCH_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Access kinds: the kernel's HW_BREAKPOINT_R/W/RW/X values. */
enum perfev_watch_type {
	PERFEV_WATCH_R = 1,
	PERFEV_WATCH_W = 2,
	PERFEV_WATCH_RW = 3,
	PERFEV_WATCH_X = 4,
};

struct perfev_watch;

/* One access, as the handler sees it. */
struct perfev_watch_hit {
	struct perfev_watch *watch;
	uint64_t addr;  /* the watched address (siginfo si_addr) */
	unsigned type;  /* the watch's perfev_watch_type */
	uint64_t ip;    /* user IP at the trap: on x86 the instruction after the access */
};

typedef void (*perfev_watch_fn)(void *ctx, const struct perfev_watch_hit *hit);

/*
 * Opt-in: installs perfev's SIGTRAP handler for the whole process (once;
 * later calls do nothing). Signals that are not a watch's go to the handler
 * that was there before (or, at the default action, end the process as
 * they would have). 0 or -errno.
 */
PERFEV_API int perfev_watch_sigtrap_install(void);

/*
 * For a program with its own SIGTRAP handler (SA_SIGINFO): call this first
 * thing from it with the handler's arguments. Returns true when the signal
 * was a watch's hit (its fn has run: the handler is done), false when it is
 * the program's own. Async-signal-safe.
 */
PERFEV_API bool perfev_watch_sigtrap_dispatch(int sig, siginfo_t *si, void *uctx);

/*
 * Watches [addr, addr+len) for accesses of `type` in the calling thread,
 * calling fn(ctx, hit) on each. Returns the watch or NULL (errno; EINVAL for
 * a length/alignment/type the hardware refuses, or when nothing handles
 * SIGTRAP (see above), ENOSPC when the debug registers are taken;
 * perfev_errmsg() says which).
 */
PERFEV_API struct perfev_watch *perfev_watch_new(const void *addr, size_t len, unsigned type,
						 perfev_watch_fn fn, void *ctx);
/*
 * Moves the watch to another address/length/type without closing it
 * (PERF_EVENT_IOC_MODIFY_ATTRIBUTES). Returns 0 or -errno; on failure the
 * watch stays where it was.
 */
PERFEV_API int perfev_watch_move(struct perfev_watch *w, const void *addr, size_t len,
				 unsigned type);
/* Accesses counted by the kernel so far (the event's count), or -errno. */
PERFEV_API int64_t perfev_watch_count(const struct perfev_watch *w);
/* The event's file descriptor (for the ioctls of perfev/sys.h). */
PERFEV_API int perfev_watch_fd(const struct perfev_watch *w);
/* Removes the watch. NULL is accepted. */
PERFEV_API void perfev_watch_free(struct perfev_watch *w);

/* ---- watching another program: `perfev watch` --------------------------- */
/*
 * A watcher runs a command and samples every access to one address of it:
 * a breakpoint event (sample_period 1, IP|TID|TIME|CALLCHAIN|ADDR) on the
 * command and what it forks. The target is an address or a symbol of the
 * command's executable; the command is started stopped at its exec
 * (ptrace), so a PIE's symbol is resolved at its real load address from
 * /proc/PID/maps before it runs a single instruction.
 */
struct perfev_watch_frame {
	uint64_t ip;
	const char *symbol; /* NULL if unknown */
	uint64_t symoff;
	const char *dso;    /* the file's path, or "[unknown]" */
	uint64_t rel;       /* ip in the file's own (ELF vaddr) terms */
};

struct perfev_watch_access {
	uint64_t n;        /* 1, 2, ... */
	uint32_t pid, tid;
	uint64_t time;     /* perf clock, ns */
	uint64_t addr;     /* the watched address */
	uint64_t trap_ip;  /* the IP the kernel sampled (x86: after the access) */
	struct perfev_watch_frame insn; /* the accessing instruction */
	size_t nr_frames;  /* the user call chain, frames[0] == insn */
	const struct perfev_watch_frame *frames;
};

struct perfev_watcher_opts {
	size_t sz;          /* sizeof(struct perfev_watcher_opts) */
	char *const *argv;  /* the command (argv[0] searched in PATH) */
	const char *target; /* "0xADDR", or a symbol of the executable */
	unsigned type;      /* perfev_watch_type (default w) */
	size_t len;         /* bytes (0: the symbol's size if 1/2/4/8, else 8) */
};
#define perfev_watcher_opts__last_field len

struct perfev_watcher;
typedef void (*perfev_watch_access_fn)(void *ctx, const struct perfev_watch_access *a);

/* Starts the command stopped at exec, resolves the target and opens the
 * breakpoints. NULL + errno; perfev_errmsg() explains. */
PERFEV_API struct perfev_watcher *perfev_watcher_new(const struct perfev_watcher_opts *opts);
/* The address being watched, and its length. */
PERFEV_API uint64_t perfev_watcher_addr(const struct perfev_watcher *w);
PERFEV_API size_t perfev_watcher_len(const struct perfev_watcher *w);
/* Lets the command run; calls fn for every access, in time order per CPU,
 * until the command exits or stop. Returns 0 or -errno. */
PERFEV_API int perfev_watcher_run(struct perfev_watcher *w, perfev_watch_access_fn fn, void *ctx);
/* Async-signal-safe: makes run() return. */
PERFEV_API void perfev_watcher_stop(struct perfev_watcher *w);
/* The command's wait status after run (-1 before), and accesses lost. */
PERFEV_API int perfev_watcher_status(const struct perfev_watcher *w);
PERFEV_API uint64_t perfev_watcher_lost(const struct perfev_watcher *w);
/* Kills a command still running; frees. NULL is fine. */
PERFEV_API void perfev_watcher_free(struct perfev_watcher *w);

/* "r", "w", "rw", "x" → perfev_watch_type; -EINVAL otherwise. */
PERFEV_API int perfev_watch_type_parse(const char *s);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_WATCH_H */
