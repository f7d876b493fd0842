/*
 * selfmon_math.h — the arithmetic of self-monitoring, pure and inline:
 * counter width (sign extension on x86, masking on arm64), time conversion
 * with time_mult/time_shift/time_offset/time_zero and the cap_user_time_short
 * correction, scaling by enabled/running, and the seqlock loop over the
 * user page (struct perf_event_mmap_page) with the counter and clock reads
 * passed in, so every arch's code and the unit tests (fake pages, fake
 * counters, run on any arch and under qemu-aarch64) share one loop.
 *
 * No libc: only <stdint.h> and the kernel UAPI header.
 */
#ifndef PERFEV_SELFMON_MATH_H
#define PERFEV_SELFMON_MATH_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>

/* Bits of perf_event_mmap_page.capabilities (the UAPI bit-field order). */
#define PV_SM_CAP_USER_RDPMC (1ULL << 2)
#define PV_SM_CAP_USER_TIME (1ULL << 3)
#define PV_SM_CAP_USER_TIME_ZERO (1ULL << 4)
#define PV_SM_CAP_USER_TIME_SHORT (1ULL << 5)

/* Seqlock attempts before giving up on the page and using read(2). */
#define PV_SM_MAX_TRIES 1000

/* x86 rdpmc: the counter is pmc_width bits, signed (the kernel programs
 * -period), so sign-extend it as the manual shows. */
static inline int64_t pv_sm_sign_extend(uint64_t pmc, unsigned width)
{
	if (width == 0 || width >= 64)
		return (int64_t)pmc;
	unsigned sh = 64 - width;
	/* shift in unsigned, then an arithmetic shift right (gcc/clang define it) */
	return (int64_t)(pmc << sh) >> sh;
}

/* arm64 mrs: upper bits beyond pmc_width are UNKNOWN (arm64 perf docs),
 * the counter is unsigned, so mask them off. */
static inline uint64_t pv_sm_mask(uint64_t pmc, unsigned width)
{
	if (width == 0 || width >= 64)
		return pmc;
	return pmc & ((1ULL << width) - 1);
}

/* quot/rem split of (cyc * mult) >> shift, exact without 128-bit math
 * for shift <= 32 (rem < 2^shift, mult < 2^32). */
static inline uint64_t pv_sm_mul_shr(uint64_t cyc, uint32_t mult, unsigned shift)
{
	uint64_t quot = cyc >> shift;
	uint64_t rem = cyc & ((1ULL << shift) - 1);
	return quot * mult + ((rem * mult) >> shift);
}

/* cap_user_time_short: the clock is narrower than 64 bits; rebuild the full
 * value from time_cycles (with time_mask ~0 this is cyc unchanged). */
static inline uint64_t pv_sm_time_short(uint64_t cyc, uint64_t time_cycles, uint64_t time_mask)
{
	return time_cycles + ((cyc - time_cycles) & time_mask);
}

/* The time (ns) since time_enabled/time_running were last updated, for a
 * clock reading cyc (cap_user_time). */
static inline uint64_t pv_sm_time_delta(uint64_t cyc, uint64_t time_offset, uint32_t mult,
					unsigned shift, uint64_t time_cycles, uint64_t time_mask)
{
	cyc = pv_sm_time_short(cyc, time_cycles, time_mask);
	return time_offset + pv_sm_mul_shr(cyc, mult, shift);
}

/* cap_user_time_zero: clock reading -> perf timestamp (ns, perf_clock). */
static inline uint64_t pv_sm_cyc_to_perf_time(uint64_t cyc, uint64_t time_zero, uint32_t mult,
					      unsigned shift)
{
	return time_zero + pv_sm_mul_shr(cyc, mult, shift);
}

/* ... and back: perf timestamp -> clock reading. mult 0 gives 0. */
static inline uint64_t pv_sm_perf_time_to_cyc(uint64_t ts, uint64_t time_zero, uint32_t mult,
					      unsigned shift)
{
	if (!mult)
		return 0;
	uint64_t t = ts - time_zero;
	uint64_t quot = t / mult, rem = t % mult;
	return (quot << shift) + (rem << shift) / mult;
}

/*
 * Scale a count by enabled/running (multiplexing), without overflowing
 * count * enabled: quot * enabled + rem * enabled / running.
 * running == 0 < enabled: the event never ran, there is nothing to scale: 0.
 */
static inline uint64_t pv_sm_scale(uint64_t count, uint64_t enabled, uint64_t running)
{
	if (running >= enabled) /* never multiplexed (or no time passed) */
		return count;
	if (running == 0)
		return 0;
	uint64_t quot = count / running, rem = count % running;
	return quot * enabled + (rem * enabled) / running;
}

/* What one pass of the seqlock loop yields. */
struct pv_sm_snap {
	uint64_t count;   /* offset + counter */
	uint64_t enabled; /* time_enabled, extrapolated to now when cap_user_time */
	uint64_t running; /* time_running, likewise while the counter is on the PMU */
	uint32_t index;   /* 0: no counter to read in user space */
	unsigned tries;   /* passes of the loop (1 when nothing changed under us) */
};

/*
 * The seqlock loop of perf_event_open(2), for one event's user page.
 * read_pmc(counter, ctx) reads hardware counter `index - 1` (rdpmc, mrs);
 * read_clock(ctx) reads the clock behind time_mult/shift (rdtsc, cntvct).
 * `sign_extend` picks the x86 rule (sign-extend by pmc_width) over arm64's
 * (mask by pmc_width).
 *
 * Returns 1 when the count came from the page, 0 when it cannot serve
 * (no cap_user_rdpmc, or index 0: a software event or a counter not on the
 * PMU now) and the caller must read(2), -1 when the lock kept changing
 * for PV_SM_MAX_TRIES passes.
 */
static inline int pv_sm_page_read(const volatile struct perf_event_mmap_page *pc,
				  uint64_t (*read_pmc)(uint32_t counter, void *ctx),
				  uint64_t (*read_clock)(void *ctx), void *ctx,
				  bool sign_extend, struct pv_sm_snap *out)
{
	uint32_t seq, idx;
	uint64_t ena, run, cnt, caps;
	uint64_t cyc = 0, time_offset = 0, time_cycles = 0, time_mask = ~0ULL;
	uint32_t time_mult = 0;
	unsigned time_shift = 0, tries = 0;
	bool have_time;

	for (;;) {
		if (++tries > PV_SM_MAX_TRIES)
			return -1;
		/* Acquire: the field loads below may not move above the lock
		 * load (on arm64 they could; x86 keeps load order but the
		 * compiler must not reorder either). */
		seq = __atomic_load_n(&pc->lock, __ATOMIC_ACQUIRE);
		if (seq & 1) /* a writer on another CPU is mid-update */
			continue;
		ena = pc->time_enabled;
		run = pc->time_running;
		caps = pc->capabilities;
		have_time = (caps & PV_SM_CAP_USER_TIME) != 0;
		if (have_time) {
			cyc = read_clock(ctx);
			time_offset = pc->time_offset;
			time_mult = pc->time_mult;
			time_shift = pc->time_shift;
			if (caps & PV_SM_CAP_USER_TIME_SHORT) {
				time_cycles = pc->time_cycles;
				time_mask = pc->time_mask;
			}
		}
		idx = pc->index;
		cnt = (uint64_t)pc->offset;
		if (!(caps & PV_SM_CAP_USER_RDPMC) || idx == 0)
			return 0;
		uint64_t pmc = read_pmc(idx - 1, ctx);
		unsigned width = pc->pmc_width;
		cnt += sign_extend ? (uint64_t)pv_sm_sign_extend(pmc, width) : pv_sm_mask(pmc, width);
		/* Acquire fence: the loads above (fields, and the counter
		 * read that depends on index) complete before the lock is
		 * read again, so a changed lock is seen. */
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (pc->lock == seq)
			break;
	}

	if (have_time) {
		uint64_t delta = pv_sm_time_delta(cyc, time_offset, time_mult, time_shift,
						  time_cycles, time_mask);
		ena += delta;
		run += delta; /* idx != 0 here: the counter is running now */
	}
	out->count = cnt;
	out->enabled = ena;
	out->running = run;
	out->index = idx;
	out->tries = tries;
	return 1;
}

#endif
