/*
 * Counting on the VM's PMU (QEMU's PMUv3: 6 event counters and the cycle
 * counter): exact instruction counts, groups, and the kernel's multiplexing
 * when more events are opened than there are counters.
 */
#define _GNU_SOURCE
#include "vm.h"

#include <errno.h>
#include <math.h>
#include <perfev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* A group of `cycles` (0 or 1) cycle events and n instruction events on
 * the thread: does it fit the PMU? The kernel refuses, at open, the member
 * that leaves no room (EINVAL from the arm PMU's validate_group); one that
 * opens and never runs would not fit either. */
static bool group_runs(int cycles, int n)
{
	int fds[40], nfd = 0, leader = -1;
	for (int i = 0; i < cycles + n; i++) {
		struct perfev_attr a =
			vm_hw_attr(i < cycles ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_HW_INSTRUCTIONS);
		a.disabled = leader < 0;
		a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		int fd = perfev_open(&a, 0, -1, leader, 0);
		if (fd == -EINVAL && i == cycles + n - 1 && leader >= 0) {
			for (int j = 0; j < nfd; j++)
				close(fds[j]);
			return false;
		}
		cr_assert_geq(fd, 0, "event %d of the group: %s", i, perfev_errmsg());
		if (leader < 0)
			leader = fd;
		fds[nfd++] = fd;
	}
	ioctl(leader, PERF_EVENT_IOC_ENABLE, 0);
	for (volatile int i = 0; i < 100000; i++)
		;
	ioctl(leader, PERF_EVENT_IOC_DISABLE, 0);
	uint64_t v[3] = {0};
	cr_assert_eq(read(leader, v, sizeof(v)), (ssize_t)sizeof(v));
	for (int i = 0; i < nfd; i++)
		close(fds[i]);
	return v[2] > 0; /* time running */
}

Test(vm_pmu, seven_counters)
{
	vm_require_pmu();
	char *s = slurp("/sys/bus/event_source/devices/" VM_PMU "/format/event", NULL);
	cr_assert(strstr(s, "config:0-15"), "format/event: %s", s);
	free(s);
	/* the cycle counter and six event counters */
	cr_assert(group_runs(1, 6), "cycles + 6 instructions did not fit the PMU");
	cr_assert_not(group_runs(1, 7), "cycles + 7 instructions fit: more than 7 counters?");
	cr_assert(group_runs(0, 6));
	cr_assert_not(group_runs(0, 7), "7 instruction events fit: more than 6 event counters?");
}

/* 2 instructions per iteration of insns' loop, the rest the same each run:
 * the counts of N and 3N iterations differ by exactly 4N. */
Test(vm_pmu, instructions_user_exact)
{
	vm_require_pmu();
	const unsigned long n = 1000000;
	char cmd1[128], cmd3[128];
	snprintf(cmd1, sizeof(cmd1), "%s %lu", INSNS, n);
	snprintf(cmd3, sizeof(cmd3), "%s %lu", INSNS, 3 * n);
	double a = vm_stat("instructions:u", "instructions:u", cmd1, NULL);
	double b = vm_stat("instructions:u", "instructions:u", cmd3, NULL);
	double again = vm_stat("instructions:u", "instructions:u", cmd1, NULL);
	cr_log_info("instructions:u of insns %lu: %.0f = 2N + %.0f; of insns %lu: %.0f (difference "
		    "%.0f, 4N = %lu)", n, a, a - 2.0 * n, 3 * n, b, b - a, 4 * n);
	cr_assert_eq(a, again, "two runs of insns %lu: %.0f and %.0f instructions", n, a, again);
	cr_assert_eq(b - a, 4.0 * n, "exactly 2 instructions per iteration: %.0f - %.0f", b, a);
	/* start-up and exit of a static program: tens of thousands at most */
	cr_assert(a > 2.0 * n && a - 2.0 * n < 100000, "%.0f", a);
}

/* QEMU's cycle counter is the virtual clock at 1 GHz, which -icount
 * shift=0 advances by 1 ns per instruction: cycles equal instructions. */
Test(vm_pmu, cycles_follow_instructions)
{
	vm_require_pmu();
	struct run_result r = run_cmd("%s stat -x, -e '{cycles:u,instructions:u}' -- %s 2000000", PERFEV,
				      INSNS);
	cr_assert_eq(r.status, 0, "%s", r.err);
	double c = stat_csv_count(r.err, "cycles:u", NULL), i = stat_csv_count(r.err, "instructions:u", NULL);
	cr_log_info("cycles:u %.0f, instructions:u %.0f", c, i);
	cr_assert(c > 4000000 && i > 4000000, "%s", r.err);
	cr_assert(fabs(c - i) <= i * 0.01, "cycles %.0f, instructions %.0f", c, i);
	run_result_free(&r);
	/* the default set's IPC from real counts */
	r = run_cmd("%s stat -- %s 2000000", PERFEV, INSNS);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "insn per cycle"), "%s", r.err);
	cr_log_info("%s", r.err);
	run_result_free(&r);
}

/* A metric's line of `perfev stat -x,` (value,unit,name,note): its value,
 * or NAN for <not supported> (note then says why). False when absent. */
static bool csv_metric(const char *csv, const char *name, double *v, char *note, size_t len)
{
	for (const char *l = csv; *l;) {
		size_t n = strcspn(l, "\n");
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)n, l);
		l += n + (l[n] == '\n');
		char *unit = strchr(line, ','), *nm = unit ? strchr(unit + 1, ',') : NULL;
		if (!nm)
			continue;
		nm++;
		size_t k = strlen(name);
		if (strncmp(nm, name, k) || nm[k] != ',')
			continue;
		snprintf(note, len, "%s", nm + k + 1);
		*v = strncmp(line, "<not supported>", 15) ? strtod(line, NULL) : NAN;
		return true;
	}
	return false;
}

/* Metrics from real counts. Generic IPC and CPI: QEMU's cycles are its
 * instruction clock, so both are 1. Then Arm's own events under a Neoverse
 * N1 model (PERF_CPUID: its libpfm4 table, inst_retired and cpu_cycles as
 * raw events on the PMU): arm_ipc is 1 too. TopdownL1 needs stall_frontend,
 * stall_backend, op_retired and op_spec: each metric prints a percentage or
 * <not supported> with the reason, never a bare zero. */
Test(vm_pmu, metrics_from_real_counts)
{
	vm_require_pmu();
	char note[256];
	double v;
	struct run_result r = run_cmd("%s stat -x, -M IPC,CPI -- %s 2000000", PERFEV, INSNS);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(csv_metric(r.err, "IPC", &v, note, sizeof(note)), "no IPC line:\n%s", r.err);
	cr_log_info("-M IPC,CPI:\n%s", r.err);
	cr_assert(fabs(v - 1.0) <= 0.01, "IPC %.4f, not 1 (cycles are instructions here):\n%s", v, r.err);
	cr_assert(csv_metric(r.err, "CPI", &v, note, sizeof(note)), "no CPI line:\n%s", r.err);
	cr_assert(fabs(v - 1.0) <= 0.01, "CPI %.4f:\n%s", v, r.err);
	run_result_free(&r);
	r = run_cmd("PERF_CPUID=0x00000000410fd0c0 %s stat -x, -M arm_ipc -- %s 2000000", PERFEV, INSNS);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_log_info("Neoverse N1's arm_ipc:\n%s", r.err);
	cr_assert(csv_metric(r.err, "arm_ipc", &v, note, sizeof(note)), "no arm_ipc line:\n%s", r.err);
	cr_assert(fabs(v - 1.0) <= 0.01, "arm_ipc %.4f:\n%s", v, r.err);
	run_result_free(&r);
	r = run_cmd("PERF_CPUID=0x00000000410fd0c0 %s stat -x, -M TopdownL1 -- %s 2000000", PERFEV, INSNS);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_log_info("Neoverse N1's TopdownL1:\n%s", r.err);
	static const char *const td[] = {"arm_frontend_bound", "arm_backend_bound", "arm_bad_speculation",
					 "arm_retiring"};
	for (size_t i = 0; i < sizeof(td) / sizeof(td[0]); i++) {
		cr_assert(csv_metric(r.err, td[i], &v, note, sizeof(note)), "no %s line:\n%s", td[i], r.err);
		if (isnan(v))
			cr_assert(strlen(note) > 10, "%s <not supported> without a reason:\n%s", td[i], r.err);
		else
			cr_assert(v >= 0 && v <= 100, "%s = %.2f%%:\n%s", td[i], v, r.err);
	}
	run_result_free(&r);
}

/* Ten events on seven counters: the kernel rotates them, each runs part of
 * the time, and the scaled counts match each event counted alone. */
Test(vm_pmu, multiplexed_ten_on_seven_counters, .timeout = 600)
{
	vm_require_pmu();
	static const char *insn_ev[] = {"instructions:u", "r08:u", VM_PMU "/inst_retired/u",
					VM_PMU "/event=0x8/u", VM_PMU "/config=8/u"};
	static const char *cyc_ev[] = {"cycles:u", "r11:u", VM_PMU "/cpu_cycles/u",
				       VM_PMU "/event=0x11/u", "cpu-cycles:u"};
	const char *cmd = INSNS " 25000000";
	double insn1 = vm_stat("instructions:u", "instructions:u", cmd, NULL);
	double cyc1 = vm_stat("cycles:u", "cycles:u", cmd, NULL);
	char events[1024] = "";
	for (int i = 0; i < 5; i++)
		snprintf(events + strlen(events), sizeof(events) - strlen(events), "%s%s,%s",
			 i ? "," : "", insn_ev[i], cyc_ev[i]);
	struct run_result r = run_cmd("%s stat -x, -e %s -- %s", PERFEV, events, cmd);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_log_info("alone: instructions:u %.0f, cycles:u %.0f; the ten:\n%s", insn1, cyc1, r.err);
	int multiplexed = 0;
	for (int i = 0; i < 10; i++) {
		const char *ev = i % 2 ? cyc_ev[i / 2] : insn_ev[i / 2];
		double want = i % 2 ? cyc1 : insn1, pct = -1;
		double v = stat_csv_count(r.err, ev, &pct);
		cr_assert_gt(v, 0, "%s not counted:\n%s", ev, r.err);
		cr_assert(fabs(v - want) <= want * 0.05, "%s: %.0f scaled, %.0f alone (%.2f%%), running %.1f%%",
			  ev, v, want, 100 * (v - want) / want, pct);
		if (pct > 0 && pct < 100)
			multiplexed++;
	}
	cr_assert_geq(multiplexed, 3, "ten events on seven counters, yet %d ran part of the time:\n%s",
		      multiplexed, r.err);
	run_result_free(&r);
}

static __attribute__((noinline)) void loop2(unsigned long n)
{
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
}

/* A group is read with one read(2), and its counts are the loop's. */
Test(vm_pmu, group_read_in_one_syscall)
{
	vm_require_pmu();
	struct perfev_selfmon *s =
		perfev_selfmon_new("instructions:u,cycles:u,r08:u", PERFEV_SELFMON_NO_USER_PAGE);
	cr_assert_not_null(s, "%s", perfev_errmsg());
	cr_assert_eq(perfev_selfmon_start(s), 0, "%s", perfev_errmsg());
	struct perfev_selfmon_values v0, v1;
	struct vm_syscalls sc;
	cr_assert_eq(perfev_selfmon_read(s, &v0), 0);
	loop2(1000000);
	vm_syscalls_start(&sc);
	int rc = perfev_selfmon_read(s, &v1);
	uint64_t calls = vm_syscalls_stop(&sc);
	cr_assert_eq(rc, 0, "%s", perfev_errmsg());
	cr_log_info("%s; %llu system call(s) for the read", perfev_selfmon_path(s),
		    (unsigned long long)calls);
	cr_assert_eq(calls, 1, "reading a 3-event group took %llu system calls", (unsigned long long)calls);
	cr_assert_eq(v1.nr, 3);
	uint64_t d0 = v1.value[0] - v0.value[0], d2 = v1.value[2] - v0.value[2];
	cr_assert(d0 >= 2000000 && d0 < 2000000 + 5000, "instructions:u %llu for 2000000", (unsigned long long)d0);
	cr_assert_eq(d0, d2, "instructions:u %llu, r08:u %llu in one group", (unsigned long long)d0,
		     (unsigned long long)d2);
	perfev_selfmon_free(s);
}
