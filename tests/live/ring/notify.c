/* Overflow signals and sigtrap against the running kernel. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include "support_notify.h"
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/hw_breakpoint.h>

static volatile uint64_t sink;

static void burn(void)
{
	for (int i = 0; i < 20000; i++)
		sink = sink * 3 + 1;
}

static int open_clock(uint64_t period_ns)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = period_ns;
	a.sample_type = PERF_SAMPLE_IP;
	a.wakeup_events = 1;
	a.disabled = 1;
	a.exclude_kernel = 1;
	return perfev_open(&a, 0, -1, -1, 0);
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

Test(live_notify, refresh_gives_k_signals_then_hup, .timeout = 60)
{
	const int k = 5;
	int sig = SIGRTMIN + 1;
	sigset_t set;
	int fd = open_clock(200000);
	struct perfev_ring *r = refresh_arm(fd, k, sig, &set);
	struct sig_tally t = {0};
	double start = now_ms(), hup_at = 0;
	/* Run until the HUP, then 100 ms more: nothing may follow it. */
	while (now_ms() - start < 5000 && (!t.hup || now_ms() - hup_at < 100)) {
		burn();
		int had = t.hup;
		sig_tally_drain(&set, sig, fd, &t);
		if (t.hup && !had)
			hup_at = now_ms();
	}
	int in = t.in, hup = t.hup, after_hup = t.after_hup;
	cr_log_info("REFRESH(%d): %d POLL_IN, %d POLL_HUP, %d after", k, in, hup, after_hup);
	cr_assert_eq(hup, 1, "no POLL_HUP after REFRESH(%d) (%d POLL_IN)", k, in);
	/* k overflows: the first k-1 wake with POLL_IN, the k-th with POLL_HUP (it disables). */
	cr_assert_eq(in, k - 1, "REFRESH(%d): %d POLL_IN + %d POLL_HUP", k, in, hup);
	cr_assert_eq(after_hup, 0, "the event is disabled after POLL_HUP");
	cr_assert_eq(perfev_ring_drain(r, NULL, NULL), k, "one sample per overflow");
	perfev_ring_munmap(r);
	close(fd);
}

Test(live_notify, sigtrap_delivers_sig_data, .timeout = 60)
{
	trap_counter_install();
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.sample_period = 1000000;
	a.exclude_kernel = 1;
	perfev_attr_set_sigtrap(&a, 0x5eedf00dcafeULL);
	int fd = perfev_open(&a, 0, -1, -1, 0);
	if (fd == -EINVAL)
		cr_skip_test("this kernel has no attr.sigtrap (Linux 5.13+): %s", perfev_errmsg());
	cr_assert_geq(fd, 0, "%s", perfev_errmsg());
	double start = now_ms();
	while (trap_count < 3 && now_ms() - start < 5000)
		burn();
	perfev_ioc_disable(fd, false);
	cr_assert_geq(trap_count, 3, "%d SIGTRAPs", (int)trap_count);
	cr_assert_eq(trap_last.signo, SIGTRAP);
	cr_assert_eq(trap_last.perf_data, 0x5eedf00dcafeULL, "si_perf_data %#llx",
		     (unsigned long long)trap_last.perf_data);
	cr_assert_eq(trap_last.perf_type, PERF_TYPE_SOFTWARE);
	cr_assert_str_eq(perfev_sig_kind_name(trap_last.kind), "TRAP_PERF");
	close(fd);
}

/* A watchpoint with sigtrap: si_addr is the watched address. */
Test(live_notify, sigtrap_breakpoint_addr, .timeout = 60)
{
	static volatile uint64_t watched;
	require_breakpoint();
	trap_counter_install();
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uint64_t)(uintptr_t)&watched;
	a.bp_len = HW_BREAKPOINT_LEN_8;
	a.sample_period = 1;
	a.exclude_kernel = 1;
	perfev_attr_set_sigtrap(&a, 77);
	int fd = perfev_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		cr_skip_test("no hardware breakpoint with sigtrap here: %s", perfev_errmsg());
	trap_count = 0;
	watched = 1;
	watched = 2;
	close(fd);
	cr_assert_eq(trap_count, 2);
	cr_assert_eq(trap_last.perf_data, 77);
	cr_assert_eq(trap_last.perf_type, PERF_TYPE_BREAKPOINT);
	cr_assert_eq(trap_last.addr, (void *)&watched);
}
