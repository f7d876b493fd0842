/*
 * The arithmetic of self-monitoring against hand-computed values, and the
 * seqlock loop over fake user pages (a fake counter and clock; a "writer"
 * that changes the page between the loop's reads).
 */
#include "support.h"
#include "count/selfmon_arch.h"
#include "count/selfmon_math.h"
#include <string.h>

Test(unit_selfmon, sign_extend_48bit_x86)
{
	cr_assert_eq(pv_sm_sign_extend(0xFFFFFFFFFFFFULL, 48), -1);
	cr_assert_eq(pv_sm_sign_extend(0x800000000000ULL, 48), -140737488355328LL); /* -2^47 */
	cr_assert_eq(pv_sm_sign_extend(0x7FFFFFFFFFFFULL, 48), 140737488355327LL);  /* 2^47-1 */
	cr_assert_eq(pv_sm_sign_extend(0xFFFFFFFFFF9CULL, 48), -100);
	/* bits above the width are ignored */
	cr_assert_eq(pv_sm_sign_extend(0xABCD000000000005ULL, 48), 5);
	cr_assert_eq(pv_sm_sign_extend(0x8000000000000000ULL, 64), INT64_MIN);
	cr_assert_eq(pv_sm_sign_extend(0xFFFFFFFFULL, 32), -1);
}

Test(unit_selfmon, mask_32bit_arm64)
{
	cr_assert_eq(pv_sm_mask(0xDEADBEEF12345678ULL, 32), 0x12345678ULL);
	/* unsigned: a set top bit stays a large count, not a negative one */
	cr_assert_eq(pv_sm_mask(0xFFFFFFFFFFFFFFFFULL, 32), 4294967295ULL);
	cr_assert_eq(pv_sm_mask(0xFFFFFFFFFFFFFFFFULL, 64), 0xFFFFFFFFFFFFFFFFULL);
}

Test(unit_selfmon, mul_shift_split)
{
	/* 7 * 3 / 2 = 10.5 -> 10 */
	cr_assert_eq(pv_sm_mul_shr(7, 3, 1), 10);
	/* (2^40 + 5) * 2^31 / 2^32 = 2^39 + 2 (2.5 floored), no 128-bit overflow */
	cr_assert_eq(pv_sm_mul_shr((1ULL << 40) + 5, 0x80000000u, 32), 549755813890ULL);
	cr_assert_eq(pv_sm_mul_shr(123456, 1u << 10, 10), 123456);
}

Test(unit_selfmon, time_short_wrap)
{
	/* a 32-bit clock that wrapped since time_cycles: 0xFFFFFFF0 -> 0x10 is 0x20 cycles later */
	cr_assert_eq(pv_sm_time_short(0x10, 0xFFFFFFF0ULL, 0xFFFFFFFFULL), 0x100000010ULL);
	/* without cap_user_time_short (mask ~0) the value is unchanged */
	cr_assert_eq(pv_sm_time_short(0x10, 0xFFFFFFF0ULL, ~0ULL), 0x10);
	/* 1.5 ns per cycle (mult 3, shift 1): 0x100000010 cycles = 6442450968 ns, + offset 1000 */
	cr_assert_eq(pv_sm_time_delta(0x10, 1000, 3, 1, 0xFFFFFFF0ULL, 0xFFFFFFFFULL), 6442451968ULL);
}

Test(unit_selfmon, time_zero_both_ways)
{
	/* time_zero 1000, 1.5 ns per cycle: cycle 10 is 1015 ns, and back */
	cr_assert_eq(pv_sm_cyc_to_perf_time(10, 1000, 3, 1), 1015);
	cr_assert_eq(pv_sm_perf_time_to_cyc(1015, 1000, 3, 1), 10);
	cr_assert_eq(pv_sm_perf_time_to_cyc(1015, 1000, 0, 1), 0);
}

Test(unit_selfmon, scaling_and_running_zero)
{
	cr_assert_eq(pv_sm_scale(1000, 300, 100), 3000);
	cr_assert_eq(pv_sm_scale(1000, 300, 300), 1000);
	cr_assert_eq(pv_sm_scale(7, 10, 3), 23); /* 2*10 + 1*10/3 */
	/* never on the PMU: nothing to scale, not a division by zero */
	cr_assert_eq(pv_sm_scale(5, 500, 0), 0);
	cr_assert_eq(pv_sm_scale(5, 0, 0), 5);
	/* 2^62 * 1.5 without overflowing count * enabled */
	cr_assert_eq(pv_sm_scale(1ULL << 62, 3ULL << 20, 1ULL << 21), 6917529027641081856ULL);
}

/* ---- the seqlock loop over a fake page ---------------------------------- */
struct fake {
	struct perf_event_mmap_page *pc;
	uint64_t pmc, clock;
	uint32_t counter_seen;
	unsigned pmc_reads;
	int writer_passes;   /* a "writer" changes the page during this many reads */
	int64_t writer_offset;
};

static uint64_t fake_pmc(uint32_t counter, void *ctx)
{
	struct fake *f = ctx;
	f->counter_seen = counter;
	f->pmc_reads++;
	if (f->writer_passes > 0) {
		f->writer_passes--;
		f->pc->lock += 2; /* a whole update happened under the reader */
		f->pc->offset = f->writer_offset;
	}
	return f->pmc;
}

static uint64_t fake_clock(void *ctx) { return ((struct fake *)ctx)->clock; }

static struct perf_event_mmap_page *page_new(void)
{
	struct perf_event_mmap_page *pc = calloc(1, sizeof(*pc));
	pc->lock = 2;
	pc->index = 3;
	pc->offset = 1000;
	pc->capabilities = PV_SM_CAP_USER_RDPMC;
	pc->pmc_width = 48;
	pc->time_enabled = 500;
	pc->time_running = 400;
	return pc;
}

Test(unit_selfmon, page_read_rdpmc_sign_extended)
{
	struct fake f = {.pc = page_new(), .pmc = 0xFFFFFFFFFF9CULL}; /* -100 in 48 bits */
	struct pv_sm_snap s;
	cr_assert_eq(pv_sm_page_read(f.pc, fake_pmc, fake_clock, &f, true, &s), 1);
	cr_assert_eq(s.count, 900);
	cr_assert_eq(f.counter_seen, 2, "rdpmc takes index - 1");
	cr_assert_eq(s.enabled, 500);
	cr_assert_eq(s.running, 400);
	cr_assert_eq(s.tries, 1);
	free(f.pc);
}

Test(unit_selfmon, page_read_mrs_masked_with_time)
{
	struct fake f = {.pc = page_new(), .pmc = 0xFFFFFFFF00000010ULL, .clock = 0x10};
	f.pc->pmc_width = 32;
	f.pc->capabilities |= PV_SM_CAP_USER_TIME | PV_SM_CAP_USER_TIME_SHORT;
	f.pc->time_mult = 3;
	f.pc->time_shift = 1;
	f.pc->time_offset = 1000;
	f.pc->time_cycles = 0xFFFFFFF0ULL;
	f.pc->time_mask = 0xFFFFFFFFULL;
	struct pv_sm_snap s;
	cr_assert_eq(pv_sm_page_read(f.pc, fake_pmc, fake_clock, &f, false, &s), 1);
	cr_assert_eq(s.count, 1016); /* offset 1000 + 0x10, upper 32 bits dropped */
	/* both times extrapolated by 6442451968 ns (see time_short_wrap) */
	cr_assert_eq(s.enabled, 500 + 6442451968ULL);
	cr_assert_eq(s.running, 400 + 6442451968ULL);
	free(f.pc);
}

Test(unit_selfmon, page_read_retries_when_lock_changes)
{
	struct fake f = {.pc = page_new(), .pmc = 5, .writer_passes = 2, .writer_offset = 2000};
	struct pv_sm_snap s;
	cr_assert_eq(pv_sm_page_read(f.pc, fake_pmc, fake_clock, &f, true, &s), 1);
	cr_assert_eq(s.tries, 3, "two passes saw the lock change");
	cr_assert_eq(f.pmc_reads, 3);
	cr_assert_eq(s.count, 2005, "the value of the last, consistent pass");
	cr_assert_eq(f.pc->lock, 6);
	free(f.pc);
}

Test(unit_selfmon, page_read_gives_up_on_a_busy_lock)
{
	struct fake f = {.pc = page_new(), .writer_passes = 1 << 30};
	struct pv_sm_snap s;
	cr_assert_eq(pv_sm_page_read(f.pc, fake_pmc, fake_clock, &f, true, &s), -1);
	cr_assert_eq(f.pmc_reads, PV_SM_MAX_TRIES);
	/* a writer stuck mid-update (odd lock) is never trusted */
	f.pc->lock = 7;
	f.writer_passes = 0;
	f.pmc_reads = 0;
	cr_assert_eq(pv_sm_page_read(f.pc, fake_pmc, fake_clock, &f, true, &s), -1);
	cr_assert_eq(f.pmc_reads, 0);
	free(f.pc);
}

Test(unit_selfmon, page_read_falls_back_without_counter)
{
	struct fake f = {.pc = page_new()};
	struct pv_sm_snap s;
	f.pc->index = 0; /* a software event, or a counter not on the PMU (running == 0) */
	f.pc->time_running = 0;
	cr_assert_eq(pv_sm_page_read(f.pc, fake_pmc, fake_clock, &f, true, &s), 0);
	f.pc->index = 1;
	f.pc->capabilities = 0; /* rdpmc not allowed */
	cr_assert_eq(pv_sm_page_read(f.pc, fake_pmc, fake_clock, &f, true, &s), 0);
	cr_assert_eq(f.pmc_reads, 0);
	free(f.pc);
}

Test(unit_selfmon, arm64_mrs_encodings)
{
	/* hand-assembled from the Arm ARM encodings (see selfmon_arch.h), and
	 * what GNU as gives for `mrs xN, <reg>` */
	cr_assert_eq(pv_sm_arm64_mrs_encoding(0, 0), 0xd53be800u);   /* pmevcntr0_el0 */
	cr_assert_eq(pv_sm_arm64_mrs_encoding(13, 3), 0xd53be9a3u);  /* x3, pmevcntr13_el0 */
	cr_assert_eq(pv_sm_arm64_mrs_encoding(30, 0), 0xd53bebc0u);  /* pmevcntr30_el0 */
	cr_assert_eq(pv_sm_arm64_mrs_encoding(31, 0), 0xd53b9d00u);  /* pmccntr_el0 */
	cr_assert_eq(pv_sm_arm64_mrs_encoding(32, 0), 0);
}

Test(unit_selfmon, arm64_user_access_message)
{
	char buf[512];
	cr_assert_eq(pv_sm_arm64_user_access(1, buf, sizeof(buf)), 1);
	cr_assert_eq(pv_sm_arm64_user_access(0, buf, sizeof(buf)), 0);
	cr_assert(strstr(buf, "perf_user_access is 0"), "%s", buf);
	cr_assert(strstr(buf, "echo 1 > /proc/sys/kernel/perf_user_access"), "%s", buf);
	cr_assert_eq(pv_sm_arm64_user_access(-1, buf, sizeof(buf)), 0);
	cr_assert(strstr(buf, "absent"), "%s", buf);
}
