/*
 * selfmon_arm64.c — arm64 user-space counter access: mrs of PMEVCNTR<n>_EL0
 * and PMCCNTR_EL0 by the user page's index, the CNTVCT_EL0 clock, and the
 * rules around them (config1 bits, perf_user_access), kept free of the
 * rest of the library so the test suite cross-compiles this file alone and
 * runs it under qemu-aarch64.
 */
#include "count/selfmon_arch.h"

#include <stdio.h>

uint32_t pv_sm_arm64_mrs_encoding(uint32_t counter, unsigned rt)
{
	uint32_t op0 = 3, op1 = 3, crn, crm, op2;
	if (counter < PV_SM_ARM64_CYCLE_COUNTER) {
		crn = 14;
		crm = 0x8 | (counter >> 3);
		op2 = counter & 7;
	} else if (counter == PV_SM_ARM64_CYCLE_COUNTER) {
		crn = 9;
		crm = 13;
		op2 = 0;
	} else {
		return 0;
	}
	return 0xd5300000u | (op0 - 2) << 19 | op1 << 16 | crn << 12 | crm << 8 | op2 << 5 |
	       (rt & 31);
}

int pv_sm_arm64_user_access(long long value, char *buf, size_t len)
{
	if (value == 1)
		return 1;
	if (value < 0)
		snprintf(buf, len, "read(2) of the group: /proc/sys/kernel/perf_user_access is absent, "
			 "this kernel does not let programs read arm64 counters with mrs (Linux 5.17+ does)");
	else
		snprintf(buf, len, "read(2) of the group: /proc/sys/kernel/perf_user_access is %lld, "
			 "the kernel traps mrs of the counters; to read them without a system call: "
			 "echo 1 > /proc/sys/kernel/perf_user_access (as root)", value);
	return 0;
}

#if defined(__aarch64__)
#define PV_STR2(x) #x
#define PV_STR(x) PV_STR2(x)
#define PV_READ_SYSREG(r)                                                  \
	({                                                                 \
		uint64_t v_;                                               \
		__asm__ volatile("mrs %0, " PV_STR(r) : "=r"(v_));         \
		v_;                                                        \
	})

/* One function per register: the register is part of the instruction. */
#define PMEVCNTR(n) \
	static uint64_t read_pmevcntr##n(void) { return PV_READ_SYSREG(pmevcntr##n##_el0); }
PMEVCNTR(0) PMEVCNTR(1) PMEVCNTR(2) PMEVCNTR(3) PMEVCNTR(4) PMEVCNTR(5) PMEVCNTR(6)
PMEVCNTR(7) PMEVCNTR(8) PMEVCNTR(9) PMEVCNTR(10) PMEVCNTR(11) PMEVCNTR(12) PMEVCNTR(13)
PMEVCNTR(14) PMEVCNTR(15) PMEVCNTR(16) PMEVCNTR(17) PMEVCNTR(18) PMEVCNTR(19) PMEVCNTR(20)
PMEVCNTR(21) PMEVCNTR(22) PMEVCNTR(23) PMEVCNTR(24) PMEVCNTR(25) PMEVCNTR(26) PMEVCNTR(27)
PMEVCNTR(28) PMEVCNTR(29) PMEVCNTR(30)
static uint64_t read_pmccntr(void) { return PV_READ_SYSREG(pmccntr_el0); }

/* Indexed by the user page's index - 1; the tests check each entry's first
 * instruction against pv_sm_arm64_mrs_encoding(). */
uint64_t (*const pv_sm_arm64_readers[32])(void) = {
	read_pmevcntr0,  read_pmevcntr1,  read_pmevcntr2,  read_pmevcntr3,  read_pmevcntr4,
	read_pmevcntr5,  read_pmevcntr6,  read_pmevcntr7,  read_pmevcntr8,  read_pmevcntr9,
	read_pmevcntr10, read_pmevcntr11, read_pmevcntr12, read_pmevcntr13, read_pmevcntr14,
	read_pmevcntr15, read_pmevcntr16, read_pmevcntr17, read_pmevcntr18, read_pmevcntr19,
	read_pmevcntr20, read_pmevcntr21, read_pmevcntr22, read_pmevcntr23, read_pmevcntr24,
	read_pmevcntr25, read_pmevcntr26, read_pmevcntr27, read_pmevcntr28, read_pmevcntr29,
	read_pmevcntr30, read_pmccntr,
};

uint64_t pv_sm_arm64_read_counter(uint32_t counter)
{
	if (counter < 32)
		return pv_sm_arm64_readers[counter]();
	return 0;
}

/* The virtual counter: what the kernel's sched_clock (arch timer) counts,
 * the clock of time_mult/time_shift/time_cycles on arm64. */
uint64_t pv_sm_arm64_read_clock(void) { return PV_READ_SYSREG(cntvct_el0); }
#endif
