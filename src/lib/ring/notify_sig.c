/* notify_sig.c — attr.sigtrap and the siginfo of perf signals in words. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/notify.h"

#include <string.h>

#ifndef TRAP_PERF
#define TRAP_PERF 6 /* asm-generic/siginfo.h, Linux 5.13 */
#endif

PERFEV_API void perfev_attr_set_sigtrap(struct perfev_attr *attr, uint64_t sig_data)
{
	attr->sigtrap = 1;
	attr->remove_on_exec = 1; /* the kernel refuses sigtrap without it */
	attr->sig_data = sig_data;
	if (attr->inherit)
		attr->inherit_thread = 1;
}

/*
 * glibc's siginfo_t lacks the kernel's _sigfault._perf member: it sits in the
 * union that follows si_addr, whose pointer alignment puts it right after it.
 */
struct kernel_sigperf {
	unsigned long data;
	uint32_t type;
	uint32_t flags;
};

PERFEV_API int perfev_siginfo_decode(const siginfo_t *si, struct perfev_siginfo *out)
{
	memset(out, 0, sizeof(*out));
	if (!si)
		return PERFEV_SIG_OTHER;
	out->signo = si->si_signo;
	out->code = si->si_code;
	if (si->si_signo == SIGTRAP && si->si_code == TRAP_PERF) {
		struct kernel_sigperf kp;
		memcpy(&kp, (const char *)&si->si_addr + sizeof(void *), sizeof(kp));
		out->kind = PERFEV_SIG_TRAP;
		out->addr = si->si_addr;
		out->perf_data = kp.data;
		out->perf_type = kp.type;
		out->perf_flags = kp.flags;
	} else if (si->si_code == POLL_IN || si->si_code == POLL_HUP) {
		out->kind = si->si_code == POLL_IN ? PERFEV_SIG_POLL_IN : PERFEV_SIG_POLL_HUP;
		out->fd = si->si_fd;
		out->band = si->si_band;
	}
	return out->kind;
}

PERFEV_API const char *perfev_sig_kind_name(enum perfev_sig_kind kind)
{
	switch (kind) {
	case PERFEV_SIG_POLL_IN: return "POLL_IN";
	case PERFEV_SIG_POLL_HUP: return "POLL_HUP";
	case PERFEV_SIG_TRAP: return "TRAP_PERF";
	default: return "other";
	}
}
