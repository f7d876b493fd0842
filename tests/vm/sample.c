/*
 * Sampling on the VM's PMU: overflow interrupts of cycles into perf.data
 * (record, report, script), REFRESH with POLL_HUP, and sigtrap, each on a
 * hardware counter. Under -icount shift=0 a cycle is a virtual nanosecond
 * and one instruction takes one, so a workload's cycles are the same from
 * run to run and equal its instructions.
 * Overflows are of cycles, not instructions: QEMU 7.2 raises the overflow
 * interrupt of INST_RETIRED (instructions, r08) only at the next exception
 * (the 4 ms tick), not when the counter wraps: a period of 1M instructions
 * gave 5 samples in 20M instructions, where cycles, on the cycle counter
 * or an event counter (r11), gave 20. Counting instructions is exact.
 */
#define _GNU_SOURCE
#include "vm.h"
#include "support_notify.h"

#include <math.h>
#include <perfev.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HOT INSNS " 2000000 10" /* 40M instructions in hot_loop */

/* The lines of s that contain needle. */
static long count_lines(const char *s, const char *needle)
{
	long n = 0;
	for (const char *line = s; *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		if (memmem(line, len, needle, strlen(needle)))
			n++;
		line += len + (nl ? 1 : 0);
	}
	return n;
}

/* `perfev record -e EVENT -c PERIOD -- HOT`: the number of samples in
 * `perfev script` against count/PERIOD, count from `perfev stat`. Returns
 * the recording's directory. */
static const char *record_period(const char *event, long period, long *samples, double *want,
				 long *in_hot)
{
	double count = vm_stat(event, event, HOT, NULL);
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd %s && %s record -q -e %s -c %ld -o p.data -- %s", dir, PERFEV,
				      event, period, HOT);
	cr_assert_eq(r.status, 0, "record: %s", r.err);
	run_result_free(&r);
	r = run_cmd("cd %s && %s script -i p.data -F comm,ip,sym", dir, PERFEV);
	cr_assert_eq(r.status, 0, "script: %s", r.err);
	*samples = count_lines(r.out, "insns");
	*in_hot = count_lines(r.out, "hot_loop");
	*want = count / period;
	cr_log_info("%s counted %.0f; record -c %ld: %ld samples (expected %.0f, %+.2f%%), %ld in "
		    "hot_loop", event, count, period, *samples, *want, 100 * (*samples - *want) / *want,
		    *in_hot);
	run_result_free(&r);
	return dir;
}

/* record -c N gives count/N samples (within 2%), report names the hot
 * function and script shows the samples in it. With the kernel counted,
 * each sample's interrupt adds its own cycles (some 650 here): at -c 100000
 * that is 0.7%; user-only cycles at -c 20000 have no such share. */
Test(vm_sample, record_cycles_period_report_script, .timeout = 600)
{
	vm_require_pmu();
	long samples, in_hot;
	double want;
	const char *dir = record_period("cycles", 100000, &samples, &want, &in_hot);
	cr_assert(fabs(samples - want) <= want * 0.02, "%ld samples, expected %.0f +- 2%%", samples, want);
	/* 40M of the run's cycles are the loop's */
	cr_assert_geq(in_hot, 0.95 * 40000000 / 100000, "%ld of %ld samples in hot_loop", in_hot, samples);
	struct run_result r = run_cmd("cd %s && %s report -i p.data --stdio", dir, PERFEV);
	cr_assert_eq(r.status, 0, "report: %s", r.err);
	cr_log_info("%s", r.out);
	/* the first row of the table is hot_loop, with most of the samples */
	const char *row = r.out;
	while (row && (*row == '#' || *row == '\n'))
		row = strchr(row, '\n') ? strchr(row, '\n') + 1 : NULL;
	cr_assert(row, "no rows:\n%s", r.out);
	char first[256] = "";
	sscanf(row, "%255[^\n]", first);
	cr_assert(strstr(first, "hot_loop") && strstr(first, "insns"), "first row: %s", first);
	cr_assert_gt(atof(first), 90.0, "hot_loop's share: %s", first);
	run_result_free(&r);

	record_period("cycles:u", 20000, &samples, &want, &in_hot);
	cr_assert(fabs(samples - want) <= want * 0.02, "%ld samples, expected %.0f +- 2%%", samples, want);
	cr_assert_geq(in_hot, 0.98 * 40000000 / 20000, "%ld of %ld samples in hot_loop", in_hot, samples);
}

static int open_cycles_sampler(uint64_t period)
{
	struct perfev_attr a = vm_hw_attr(PERF_COUNT_HW_CPU_CYCLES);
	a.sample_period = period;
	a.sample_type = PERF_SAMPLE_IP;
	a.wakeup_events = 1;
	a.disabled = 1;
	return perfev_open(&a, 0, -1, -1, 0);
}

static __attribute__((noinline)) void loop2(unsigned long n)
{
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
}

/* REFRESH(k) on cycles: k overflows, the first k-1 signalled POLL_IN,
 * the k-th POLL_HUP, which disables the counter at k periods. */
Test(vm_sample, refresh_pollhup_on_cycles)
{
	vm_require_pmu();
	const int k = 5;
	const uint64_t period = 1000000;
	int sig = SIGRTMIN + 1;
	sigset_t set;
	int fd = open_cycles_sampler(period);
	struct perfev_ring *ring = refresh_arm(fd, k, sig, &set);
	struct sig_tally t = {0};
	/* 10 x 2M cycles: twice what k periods need */
	for (int round = 0; round < 10; round++) {
		loop2(1000000);
		sig_tally_drain(&set, sig, fd, &t);
	}
	int in = t.in, hup = t.hup, after_hup = t.after_hup;
	uint64_t count = 0;
	cr_assert_eq(read(fd, &count, sizeof(count)), (ssize_t)sizeof(count));
	cr_log_info("REFRESH(%d), period %llu cycles: %d POLL_IN, %d POLL_HUP, %d after; the "
		    "counter stopped at %llu", k, (unsigned long long)period, in, hup, after_hup,
		    (unsigned long long)count);
	cr_assert_eq(hup, 1, "no POLL_HUP after REFRESH(%d) (%d POLL_IN)", k, in);
	cr_assert_eq(in, k - 1, "REFRESH(%d): %d POLL_IN + %d POLL_HUP", k, in, hup);
	cr_assert_eq(after_hup, 0, "the event is disabled after POLL_HUP");
	cr_assert_eq(perfev_ring_drain(ring, NULL, NULL), k, "one sample per overflow");
	/* disabled at the k-th overflow: k periods, and the interrupt's skid */
	cr_assert(count >= k * period && count < k * period + 1000, "stopped at %llu",
		  (unsigned long long)count);
	perfev_ring_munmap(ring);
	close(fd);
}

/* sigtrap on cycles: one SIGTRAP per period, with sig_data. */
Test(vm_sample, sigtrap_on_cycles)
{
	vm_require_pmu();
	trap_counter_install();
	const uint64_t period = 1000000;
	struct perfev_attr a = vm_hw_attr(PERF_COUNT_HW_CPU_CYCLES);
	a.sample_period = period;
	a.disabled = 1;
	perfev_attr_set_sigtrap(&a, 0xa64c0ffeeULL);
	int fd = perfev_open(&a, 0, -1, -1, 0);
	cr_assert_geq(fd, 0, "%s", perfev_errmsg());
	cr_assert_eq(perfev_ioc_enable(fd, false), 0);
	loop2(10000000); /* 20 periods */
	cr_assert_eq(perfev_ioc_disable(fd, false), 0);
	uint64_t count = 0;
	cr_assert_eq(read(fd, &count, sizeof(count)), (ssize_t)sizeof(count));
	cr_log_info("sigtrap every %llu cycles: %d SIGTRAPs in %llu cycles",
		    (unsigned long long)period, (int)trap_count, (unsigned long long)count);
	cr_assert_eq((uint64_t)trap_count, count / period, "%d trap_count for %llu cycles", (int)trap_count,
		     (unsigned long long)count);
	cr_assert_eq(trap_last.signo, SIGTRAP);
	cr_assert_eq(trap_last.perf_data, 0xa64c0ffeeULL);
	cr_assert_eq(trap_last.perf_type, PERF_TYPE_HARDWARE);
	close(fd);
}
