/*
 * Self-monitoring on the VM's PMU: perf_user_access, the config1 bits of
 * user access and 64-bit counters, pmc_width, mrs reads through the user
 * page, regions at zero system calls, and the cost of a read against
 * read(2) (bench/selfmon_read --hw).
 */
#define _GNU_SOURCE
#include "vm.h"
#include "count/selfmon_arch.h"
#include "count/selfmon_math.h"

#include <errno.h>
#include <perfev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static __attribute__((noinline)) void loop2(unsigned long n)
{
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
}

static int open_insns(uint64_t config1)
{
	struct perfev_attr a = vm_hw_attr(PERF_COUNT_HW_INSTRUCTIONS);
	a.config1 = config1;
	return perfev_open(&a, 0, -1, -1, 0);
}

/* A set of `events`, started (counting this thread) with perf_user_access
 * set to user_access first. */
static struct perfev_selfmon *started_set(const char *events, long user_access)
{
	vm_require_pmu();
	vm_sysctl("perf_user_access", user_access);
	struct perfev_selfmon *s = perfev_selfmon_new(events, 0);
	cr_assert_not_null(s, "%s", perfev_errmsg());
	cr_assert_eq(perfev_selfmon_start(s), 0, "%s", perfev_errmsg());
	cr_log_info("%s: %s", events, perfev_selfmon_path(s));
	return s;
}

static struct perf_event_mmap_page *map_page(int fd)
{
	void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	cr_assert_neq(p, MAP_FAILED, "mmap of the user page: %s", strerror(errno));
	return p;
}

/* config1:1 asks for user access, config1:0 for a 64-bit counter; the user
 * page then gives the counter's index and width, and mrs of that register
 * reads what read(2) reads. */
Test(vm_selfmon, user_access_config1_pmc_width_mrs)
{
	vm_require_pmu();
	char *f = slurp("/sys/bus/event_source/devices/" VM_PMU "/format/rdpmc", NULL);
	cr_assert(strstr(f, "config1:1"), "format/rdpmc: %s", f);
	free(f);
	f = slurp("/sys/bus/event_source/devices/" VM_PMU "/format/long", NULL);
	cr_assert(strstr(f, "config1:0"), "format/long: %s", f);
	free(f);
	vm_sysctl("perf_user_access", 1);

	int fd = open_insns(PV_SM_ARM64_CONFIG1_USER | PV_SM_ARM64_CONFIG1_64BIT);
	cr_assert_geq(fd, 0, "instructions:u with config1 user+64-bit: %s", perfev_errmsg());
	struct perf_event_mmap_page *pc = map_page(fd);
	loop2(100000);
	uint32_t idx = pc->index;
	cr_assert(pc->capabilities & PV_SM_CAP_USER_RDPMC, "cap_user_rdpmc is 0");
	cr_assert(idx >= 1 && idx <= 31, "index %u: an event counter PMEVCNTR<index-1>_EL0", idx);
	cr_assert_eq(pc->pmc_width, 64, "a 64-bit counter was asked for: pmc_width %u", pc->pmc_width);
	uint64_t mrs = pv_sm_arm64_read_counter(idx - 1) + (uint64_t)pc->offset;
	uint64_t sys = 0;
	cr_assert_eq(read(fd, &sys, sizeof(sys)), (ssize_t)sizeof(sys));
	cr_log_info("64-bit user counter: index %u, pmc_width %u; mrs %llu, then read(2) %llu", idx,
		    pc->pmc_width, (unsigned long long)mrs, (unsigned long long)sys);
	cr_assert(mrs >= 200000 && mrs <= sys && sys - mrs < 1000, "mrs %llu, read(2) %llu",
		  (unsigned long long)mrs, (unsigned long long)sys);
	close(fd);

	/* user access alone: a 32-bit view, upper bits unknown, pmc_width says so */
	fd = open_insns(PV_SM_ARM64_CONFIG1_USER);
	cr_assert_geq(fd, 0, "%s", perfev_errmsg());
	pc = map_page(fd);
	cr_assert(pc->capabilities & PV_SM_CAP_USER_RDPMC);
	cr_assert_eq(pc->pmc_width, 32, "pmc_width %u without config1:0", pc->pmc_width);
	close(fd);

	/* without config1:1 the counter is the kernel's alone */
	fd = open_insns(0);
	cr_assert_geq(fd, 0, "%s", perfev_errmsg());
	pc = map_page(fd);
	cr_assert_not(pc->capabilities & PV_SM_CAP_USER_RDPMC, "user access without config1:1");
	close(fd);

	/* the cycle counter: index 32, PMCCNTR_EL0 */
	struct perfev_attr a = vm_hw_attr(PERF_COUNT_HW_CPU_CYCLES);
	a.config1 = PV_SM_ARM64_CONFIG1_USER | PV_SM_ARM64_CONFIG1_64BIT;
	fd = perfev_open(&a, 0, -1, -1, 0);
	cr_assert_geq(fd, 0, "%s", perfev_errmsg());
	pc = map_page(fd);
	loop2(1000);
	cr_assert_eq(pc->index, 32, "cycles:u on the cycle counter: index %u", pc->index);
	cr_assert_gt(pv_sm_arm64_read_counter(31) + (uint64_t)pc->offset, 2000);
	close(fd);
}

/* perfev_selfmon reads through mrs: no system call, in a read or a region,
 * and a region's counts are the loop's (the same instructions each call,
 * but for a few of the region code's own). */
Test(vm_selfmon, region_costs_zero_syscalls)
{
	struct perfev_selfmon *s = started_set("instructions:u,cycles:u", 1);
	cr_assert(strncmp(perfev_selfmon_path(s), "read(2)", 7), "not the user page");

	/* the first begin of a name allocates its record (malloc may call brk) */
	perfev_selfmon_region_begin(s, "loop");
	loop2(10000);
	perfev_selfmon_region_end(s, "loop");
	struct vm_syscalls sc;
	struct perfev_selfmon_values v;
	vm_syscalls_start(&sc);
	for (int i = 0; i < 1000; i++)
		perfev_selfmon_read(s, &v);
	for (int i = 0; i < 100; i++) {
		perfev_selfmon_region_begin(s, "loop");
		loop2(10000);
		perfev_selfmon_region_end(s, "loop");
	}
	uint64_t calls = vm_syscalls_stop(&sc);
	cr_assert_eq(calls, 0, "1000 reads and 100 regions made %llu system calls",
		     (unsigned long long)calls);
	struct perfev_region_stats st;
	cr_assert_eq(perfev_selfmon_region_stats(s, "loop", false, &st), 0, "%s", perfev_errmsg());
	cr_log_info("region 'loop' (loop2(10000) = 20000 instructions + the call): %llu calls, "
		    "instructions min %llu max %llu, cycles min %llu max %llu",
		    (unsigned long long)st.calls, (unsigned long long)st.min[0],
		    (unsigned long long)st.max[0], (unsigned long long)st.min[1],
		    (unsigned long long)st.max[1]);
	cr_assert_eq(st.calls, 101);
	/* the same loop each call; the region code's own branches may differ by a few */
	cr_assert_leq(st.max[0] - st.min[0], 8, "instructions of one call: %llu .. %llu",
		      (unsigned long long)st.min[0], (unsigned long long)st.max[0]);
	/* an empty region: what begin/end themselves count (their user-space
	 * instructions between the two reads); the loop's region is that and
	 * the loop's 20000 and its call */
	perfev_selfmon_region_begin(s, "empty");
	perfev_selfmon_region_end(s, "empty");
	perfev_selfmon_region_begin(s, "empty");
	perfev_selfmon_region_end(s, "empty");
	struct perfev_region_stats empty;
	cr_assert_eq(perfev_selfmon_region_stats(s, "empty", false, &empty), 0);
	cr_log_info("an empty region counts %llu instructions of begin/end themselves",
		    (unsigned long long)empty.min[0]);
	cr_assert(st.min[0] - empty.min[0] >= 20000 && st.min[0] - empty.min[0] <= 20000 + 10,
		  "loop region %llu, empty region %llu", (unsigned long long)st.min[0],
		  (unsigned long long)empty.min[0]);
	cr_assert_eq(st.enabled, st.running, "never multiplexed");
	perfev_selfmon_free(s);
}

/* perf_user_access=0: the kernel traps mrs; perfev reads with read(2) and
 * says why, with the fix. */
Test(vm_selfmon, user_access_off_is_explained)
{
	struct perfev_selfmon *s = started_set("instructions:u", 0);
	const char *path = perfev_selfmon_path(s);
	cr_assert(strstr(path, "read(2)") && strstr(path, "perf_user_access is 0") &&
		  strstr(path, "echo 1 > /proc/sys/kernel/perf_user_access"), "%s", path);
	struct perfev_selfmon_values v0, v1;
	struct vm_syscalls sc;
	vm_syscalls_start(&sc);
	cr_assert_eq(perfev_selfmon_read(s, &v0), 0);
	loop2(50000);
	cr_assert_eq(perfev_selfmon_read(s, &v1), 0);
	cr_assert_eq(vm_syscalls_stop(&sc), 2, "one read(2) a read");
	uint64_t d = v1.value[0] - v0.value[0];
	cr_assert(d >= 100000 && d < 100000 + 3000, "%llu instructions", (unsigned long long)d);
	perfev_selfmon_free(s);
	vm_sysctl("perf_user_access", 1);
}

/* The bench: perfev's read of a 4-event set through mrs against read(2)
 * of the same group and PAPI_read of the same events (PAPI's archive is
 * linked into the VM's bench): perfev's target is half of PAPI's cost. */
Test(vm_selfmon, bench_read_cost_against_read2_and_papi, .timeout = 600)
{
	vm_require_pmu();
	vm_sysctl("perf_user_access", 1);
	/* PAPI turns its perf_event component off at paranoid 3 (Debian's
	 * default), root or not */
	vm_sysctl("perf_event_paranoid", 2);
	/* libpfm4 knows no PMU of QEMU's CPU (implementer 0, part 0x051), and
	 * PAPI then turns perf_event off ("no default PMU found"): Neoverse
	 * N1's tables name the architectural events the bench uses */
	struct run_result r = run_cmd("LIBPFM_FORCE_PMU=arm_n1 %s/bench/selfmon_read --hw 2000",
				      PERFEV_BUILDDIR);
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	cr_log_info("%s%s", r.out, r.err);
	const char *p = strstr(r.out, "\nperfev/read() = ");
	cr_assert(p, "%s", r.out);
	double ratio = atof(p + strlen("\nperfev/read() = "));
	cr_assert(ratio > 0 && ratio < 1.0, "perfev's read costs %.3f of read(2)'s", ratio);
	p = strstr(p, "perfev/PAPI = ");
	double papi = p ? atof(p + strlen("perfev/PAPI = ")) : 0;
	cr_assert(papi > 0, "PAPI_read was not measured:\n%s%s", r.out, r.err);
	cr_assert_leq(papi, 0.5, "perfev's read costs %.3f of PAPI_read's (target 0.5)", papi);
	cr_assert(strstr(r.out, "perfev, 4-event set 0.000"), "perfev's reads made system calls:\n%s",
		  r.out);
	run_result_free(&r);
}
