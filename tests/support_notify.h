/* support_notify.h — helpers of the overflow-signal tests (live and vm). */
#ifndef PERFEV_TEST_SUPPORT_NOTIFY_H
#define PERFEV_TEST_SUPPORT_NOTIFY_H

#include "perfev.h"
#include <signal.h>

/* The perf signals of one fd, by kind; after_hup: any signal after the HUP. */
struct sig_tally {
	int in, hup, after_hup;
};
/* Takes every pending `sig` (blocked in set) without waiting, checks it is
 * fd's, and counts it in t. */
void sig_tally_drain(const sigset_t *set, int sig, int fd, struct sig_tally *t);

/* Blocks sig (*set: it alone), asks for it on fd's wake-ups and arms
 * PERF_EVENT_IOC_REFRESH(k); returns fd's ring (one data page). */
struct perfev_ring *refresh_arm(int fd, int k, int sig, sigset_t *set);

/* SIGTRAP: trap_count counts the TRAP_PERF signals, trap_last decodes the
 * last one. trap_counter_install sets the handler. */
extern volatile sig_atomic_t trap_count;
extern struct perfev_siginfo trap_last;
void trap_counter_install(void);

#endif
