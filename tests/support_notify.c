#define _GNU_SOURCE
#include "support.h"
#include "support_notify.h"

#include <time.h>

void sig_tally_drain(const sigset_t *set, int sig, int fd, struct sig_tally *t)
{
	siginfo_t si;
	struct timespec zero = {0, 0};
	while (sigtimedwait(set, &si, &zero) == sig) {
		struct perfev_siginfo d;
		int kind = perfev_siginfo_decode(&si, &d);
		cr_assert_eq(d.fd, fd);
		if (t->hup)
			t->after_hup++;
		else if (kind == PERFEV_SIG_POLL_IN)
			t->in++;
		else if (kind == PERFEV_SIG_POLL_HUP)
			t->hup++;
	}
}

struct perfev_ring *refresh_arm(int fd, int k, int sig, sigset_t *set)
{
	cr_assert_geq(fd, 0, "%s", perfev_errmsg());
	sigemptyset(set);
	sigaddset(set, sig);
	cr_assert_eq(sigprocmask(SIG_BLOCK, set, NULL), 0);
	struct perfev_ring *r = perfev_ring_mmap(fd, 1, false);
	cr_assert_not_null(r, "%s", perfev_errmsg());
	cr_assert_eq(perfev_notify_signal(fd, sig, 0), 0, "%s", perfev_errmsg());
	cr_assert_eq(perfev_ioc_refresh(fd, k), 0, "%s", perfev_errmsg());
	return r;
}

volatile sig_atomic_t trap_count;
struct perfev_siginfo trap_last;

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	if (perfev_siginfo_decode(si, &trap_last) == PERFEV_SIG_TRAP)
		trap_count++;
}

void trap_counter_install(void)
{
	struct sigaction sa = {.sa_sigaction = on_trap, .sa_flags = SA_SIGINFO};
	cr_assert_eq(sigaction(SIGTRAP, &sa, NULL), 0);
}
