/*
 * selfmon_arch.h — reading a hardware counter and the clock behind the
 * user page's time_mult/time_shift from user space, per architecture.
 *   x86:   rdpmc (counter index - 1), rdtsc; sign-extend by pmc_width.
 *   arm64: mrs PMEVCNTR<n>_EL0 / PMCCNTR_EL0 (selfmon_arm64.c), mrs
 *          CNTVCT_EL0; mask by pmc_width.
 * PV_SM_HAVE_FAST is 0 where neither exists: every read is read(2).
 */
#ifndef PERFEV_SELFMON_ARCH_H
#define PERFEV_SELFMON_ARCH_H

#include <stddef.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#define PV_SM_HAVE_FAST 1
#define PV_SM_SIGN_EXTEND 1
static inline uint64_t pv_sm_arch_read_pmc(uint32_t counter, void *ctx)
{
	uint32_t lo, hi;
	(void)ctx;
	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	return lo | (uint64_t)hi << 32;
}
static inline uint64_t pv_sm_arch_read_clock(void *ctx)
{
	uint32_t lo, hi;
	(void)ctx;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return lo | (uint64_t)hi << 32;
}
#elif defined(__aarch64__)
#define PV_SM_HAVE_FAST 1
#define PV_SM_SIGN_EXTEND 0
uint64_t pv_sm_arm64_read_counter(uint32_t counter);
uint64_t pv_sm_arm64_read_clock(void);
static inline uint64_t pv_sm_arch_read_pmc(uint32_t counter, void *ctx)
{
	(void)ctx;
	return pv_sm_arm64_read_counter(counter);
}
static inline uint64_t pv_sm_arch_read_clock(void *ctx)
{
	(void)ctx;
	return pv_sm_arm64_read_clock();
}
#else
#define PV_SM_HAVE_FAST 0
#define PV_SM_SIGN_EXTEND 0
static inline uint64_t pv_sm_arch_read_pmc(uint32_t counter, void *ctx) { (void)counter; (void)ctx; return 0; }
static inline uint64_t pv_sm_arch_read_clock(void *ctx) { (void)ctx; return 0; }
#endif

/* ---- arm64 rules, pure so every arch tests them (selfmon_arm64.c) -------- */
/* config1 bits of the arm64 PMU (Documentation/arch/arm64/perf.rst):
 * bit 1 asks for user access (rdpmc), bit 0 for a 64-bit counter. */
#define PV_SM_ARM64_CONFIG1_64BIT (1ULL << 0)
#define PV_SM_ARM64_CONFIG1_USER (1ULL << 1)
/* The user page's index - 1 names the register: 0..30 PMEVCNTR<n>_EL0,
 * 31 PMCCNTR_EL0 (the cycle counter). */
#define PV_SM_ARM64_CYCLE_COUNTER 31
/* The A64 encoding of `mrs x<rt>, <reg>` for counter (as above), from the
 * Arm ARM: MRS is 0xd5300000 | o0<<19 | op1<<16 | CRn<<12 | CRm<<8 | op2<<5 | Rt
 * with op0 = 2 + o0; PMEVCNTR<n>_EL0 is op0 3, op1 3, CRn 14,
 * CRm 0b10:n<4:3>, op2 n<2:0>; PMCCNTR_EL0 is op0 3, op1 3, CRn 9, CRm 13,
 * op2 0. 0 for a counter past 31. */
uint32_t pv_sm_arm64_mrs_encoding(uint32_t counter, unsigned rt);
/* What /proc/sys/kernel/perf_user_access = value means for reads: 1 when
 * user access is on; else 0 and a message naming the fix in buf
 * (value < 0: the file is absent, the kernel predates user access). */
int pv_sm_arm64_user_access(long long value, char *buf, size_t len);

#endif
