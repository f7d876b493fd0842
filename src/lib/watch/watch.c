/*
 * watch.c — in-process watchpoints: a breakpoint event with sigtrap on the
 * calling thread, its SIGTRAP dispatched to the watch named by sig_data.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/sys.h"
#include "perfev/watch.h"
#include "watch/watch_int.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

#define WATCH_MAGIC 0x70657277617463ULL /* "perwatc": sig_data is ours */

struct perfev_watch {
	uint64_t magic;
	int fd;
	struct perfev_attr attr; /* as opened: MODIFY_ATTRIBUTES must match it */
	perfev_watch_fn fn;
	void *arg;
};

static struct sigaction old_trap;
static pthread_once_t trap_once = PTHREAD_ONCE_INIT;
static int trap_err;

/* glibc's siginfo_t has no si_perf_data: in the kernel's layout it is the
 * word right after si_addr (the _perf member of the _sigfault union). */
static uint64_t si_perf_data(const siginfo_t *si)
{
	unsigned long v;
	memcpy(&v, (const char *)&si->si_addr + sizeof(void *), sizeof(v));
	return v;
}

static uint64_t context_ip(void *uctx)
{
	const ucontext_t *uc = uctx;
#if defined(__x86_64__)
	return (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uint64_t)uc->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

PERFEV_API bool perfev_watch_sigtrap_dispatch(int sig, siginfo_t *si, void *uctx)
{
	if (sig != SIGTRAP || !si || si->si_code != TRAP_PERF)
		return false;
	struct perfev_watch *w = (struct perfev_watch *)(uintptr_t)si_perf_data(si);
	if (!w || w->magic != WATCH_MAGIC)
		return false;
	struct perfev_watch_hit hit = {w, (uint64_t)(uintptr_t)si->si_addr, w->attr.bp_type, context_ip(uctx)};
	w->fn(w->arg, &hit);
	return true;
}

static void on_trap(int sig, siginfo_t *si, void *uctx)
{
	if (perfev_watch_sigtrap_dispatch(sig, si, uctx))
		return;
	/* Not ours: behave as whoever was there before us. */
	if (old_trap.sa_flags & SA_SIGINFO) {
		if (old_trap.sa_sigaction)
			old_trap.sa_sigaction(sig, si, uctx);
	} else if (old_trap.sa_handler == SIG_DFL) {
		signal(SIGTRAP, SIG_DFL);
		raise(SIGTRAP);
	} else if (old_trap.sa_handler != SIG_IGN) {
		old_trap.sa_handler(sig);
	}
}

static void install_trap(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTRAP, &sa, &old_trap) < 0)
		trap_err = errno;
}

PERFEV_API int perfev_watch_sigtrap_install(void)
{
	pthread_once(&trap_once, install_trap);
	if (trap_err)
		return pv_error(trap_err, "cannot install the SIGTRAP handler: %s", strerror(trap_err));
	return 0;
}

/* A watch's SIGTRAP is forced: at its default action, or ignored, it kills
 * the process at the first access. Someone must handle it. */
static int check_trap_handled(void)
{
	struct sigaction cur;
	if (sigaction(SIGTRAP, NULL, &cur) < 0)
		return pv_error(errno, "cannot read SIGTRAP's action: %s", strerror(errno));
	if (!(cur.sa_flags & SA_SIGINFO) && (cur.sa_handler == SIG_DFL || cur.sa_handler == SIG_IGN))
		return pv_error(EINVAL, "a watch reports through SIGTRAP, which nothing handles: call "
				"perfev_watch_sigtrap_install() first, or have your SIGTRAP handler (SA_SIGINFO) "
				"call perfev_watch_sigtrap_dispatch()");
	return 0;
}

static int check_shape(uint64_t addr, size_t len, unsigned type)
{
	if (type == 0 || type > PERFEV_WATCH_X || type == (PERFEV_WATCH_X | PERFEV_WATCH_R))
		return pv_error(EINVAL, "watchpoint type %u: use r, w, rw or x", type);
	if (type == PERFEV_WATCH_X) {
		if (len != sizeof(long))
			return pv_error(EINVAL, "an execute breakpoint covers one instruction: "
					"length must be %zu, not %zu", sizeof(long), len);
		return 0;
	}
	if (len != 1 && len != 2 && len != 4 && len != 8)
		return pv_error(EINVAL, "watchpoint length %zu: the hardware watches 1, 2, 4 or 8 bytes", len);
	if (addr % len)
		return pv_error(EINVAL, "watchpoint address 0x%llx is not aligned to its length %zu: "
				"align it or use a smaller length", (unsigned long long)addr, len);
	return 0;
}

void pv_watch_explain(int err, unsigned type)
{
#if defined(__x86_64__) || defined(__i386__)
	if (err == EINVAL && type == PERFEV_WATCH_R) {
		pv_error(EINVAL, "x86 has no read-only watchpoints: watch reads and writes (rw) instead");
		return;
	}
#endif
	if (err == ENOSPC)
		pv_error(ENOSPC, "no free debug register for another watchpoint (x86 has 4, "
			 "shared with debuggers and other breakpoint events): remove one first");
	(void)type;
}

PERFEV_API struct perfev_watch *perfev_watch_new(const void *addr, size_t len, unsigned type,
						 perfev_watch_fn fn, void *arg)
{
	if (!fn)
		return pv_error_null(EINVAL, "perfev_watch_new: the handler is NULL");
	if (check_shape((uintptr_t)addr, len, type) < 0)
		return NULL;
	if (check_trap_handled() < 0)
		return NULL;
	struct perfev_watch *w = calloc(1, sizeof(*w));
	if (!w)
		return pv_error_null(ENOMEM, "out of memory");
	w->magic = WATCH_MAGIC;
	w->fn = fn;
	w->arg = arg;
	struct perfev_attr *a = &w->attr;
	a->type = PERF_TYPE_BREAKPOINT;
	a->size = PERFEV_ATTR_SIZE_LATEST;
	a->bp_type = type;
	a->bp_addr = (uintptr_t)addr;
	a->bp_len = len;
	a->sample_period = 1;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->sigtrap = 1;
	a->remove_on_exec = 1; /* required by sigtrap */
	a->sig_data = (uint64_t)(uintptr_t)w;
	w->fd = perfev_open(a, 0, -1, -1, 0);
	if (w->fd < 0) {
		int e = -w->fd;
		pv_watch_explain(e, type);
		free(w);
		errno = e;
		return NULL;
	}
	return w;
}

PERFEV_API int perfev_watch_move(struct perfev_watch *w, const void *addr, size_t len,
				 unsigned type)
{
	int r = check_shape((uintptr_t)addr, len, type);
	if (r < 0)
		return r;
	struct perfev_attr a = w->attr;
	a.bp_addr = (uintptr_t)addr;
	a.bp_len = len;
	a.bp_type = type;
	r = perfev_ioc_modify_attributes(w->fd, &a);
	if (r < 0) {
		pv_watch_explain(-r, type);
		return r;
	}
	w->attr = a;
	return 0;
}

PERFEV_API int64_t perfev_watch_count(const struct perfev_watch *w)
{
	uint64_t v;
	ssize_t n = read(w->fd, &v, sizeof(v));
	if (n != (ssize_t)sizeof(v))
		return pv_error(n < 0 ? errno : EIO, "reading the watchpoint count: %s",
				n < 0 ? strerror(errno) : "short read");
	return (int64_t)v;
}

PERFEV_API int perfev_watch_fd(const struct perfev_watch *w) { return w->fd; }

PERFEV_API void perfev_watch_free(struct perfev_watch *w)
{
	if (!w)
		return;
	close(w->fd); /* sigtrap is delivered synchronously: none is pending after this */
	w->magic = 0;
	free(w);
}

PERFEV_API int perfev_watch_type_parse(const char *s)
{
	static const struct { const char *n; int t; } names[] = {
		{"r", PERFEV_WATCH_R}, {"w", PERFEV_WATCH_W}, {"rw", PERFEV_WATCH_RW},
		{"wr", PERFEV_WATCH_RW}, {"x", PERFEV_WATCH_X},
	};
	for (size_t i = 0; s && i < PV_ARRAY_SIZE(names); i++)
		if (!strcmp(s, names[i].n))
			return names[i].t;
	return pv_error(EINVAL, "watch type '%s': use r, w, rw or x", s ? s : "(null)");
}
