/*
 * The arm64 self-monitoring code, built with aarch64-linux-gnu-gcc together
 * with the shared arithmetic and run under qemu-aarch64 by
 * tests/unit/count/selfmon_arm64.c. Not part of perfev-tests (tests/cross/ is
 * below the glob on purpose). Prints one line per failed check and
 * "arm64 selfmon: N checks, F failed"; exits 1 on failure.
 */
#include <stdio.h>
#include <string.h>
#include "count/selfmon_arch.h"
#include "count/selfmon_math.h"

#if !defined(__aarch64__)
#error "build this with aarch64-linux-gnu-gcc"
#endif

extern uint64_t (*const pv_sm_arm64_readers[32])(void);

static int checks, failed;
#define CHECK(cond, ...)                                             \
	do {                                                         \
		checks++;                                            \
		if (!(cond)) {                                       \
			failed++;                                    \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);  \
			printf(__VA_ARGS__);                         \
			printf("\n");                                \
		}                                                    \
	} while (0)

/* The first MRS among a function's first instructions, Rt cleared. */
static uint32_t first_mrs(uint64_t (*fn)(void))
{
	const uint32_t *insn = (const uint32_t *)(uintptr_t)fn;
	for (int i = 0; i < 8; i++)
		if ((insn[i] & 0xfff00000u) == 0xd5300000u) /* MRS: 1101 0101 0011 ... */
			return insn[i] & ~31u;
	return 0;
}

static struct perf_event_mmap_page page;
static uint64_t fake_value;
static uint32_t fake_counter;
static uint64_t fake_pmc(uint32_t counter, void *ctx)
{
	(void)ctx;
	fake_counter = counter;
	return fake_value;
}
static uint64_t fake_clock(void *ctx) { (void)ctx; return 0x10; }

int main(void)
{
	/* the register table against the Arm ARM encodings */
	for (uint32_t n = 0; n < 32; n++) {
		uint32_t want = pv_sm_arm64_mrs_encoding(n, 0);
		uint32_t got = first_mrs(pv_sm_arm64_readers[n]);
		CHECK(got == want, "counter %u: reader's mrs is %08x, the manual says %08x", n, got, want);
	}
	CHECK(pv_sm_arm64_mrs_encoding(31, 0) == 0xd53b9d00u, "PMCCNTR_EL0 encoding");
	CHECK(pv_sm_arm64_read_counter(32) == 0, "no counter past the cycle counter");

	/* CNTVCT_EL0 runs (qemu gives EL0 the virtual counter, as Linux does) */
	uint64_t c0 = pv_sm_arm64_read_clock();
	volatile unsigned long spin = 0;
	for (int i = 0; i < 1000000; i++)
		spin += (unsigned long)i;
	uint64_t c1 = pv_sm_arm64_read_clock();
	CHECK(c1 > c0, "cntvct_el0 did not advance: %llu -> %llu", (unsigned long long)c0,
	      (unsigned long long)c1);

	/* arm64 rules in the shared loop: mask by pmc_width, index - 1 */
	page.lock = 4;
	page.index = 32; /* the cycle counter */
	page.offset = 1000;
	page.pmc_width = 32;
	page.capabilities = PV_SM_CAP_USER_RDPMC | PV_SM_CAP_USER_TIME | PV_SM_CAP_USER_TIME_SHORT;
	page.time_enabled = 500;
	page.time_running = 400;
	page.time_mult = 3;
	page.time_shift = 1;
	page.time_offset = 1000;
	page.time_cycles = 0xFFFFFFF0ULL;
	page.time_mask = 0xFFFFFFFFULL;
	fake_value = 0xFFFFFFFF00000010ULL;
	struct pv_sm_snap s = {0};
	int r = pv_sm_page_read(&page, fake_pmc, fake_clock, NULL, PV_SM_SIGN_EXTEND, &s);
	CHECK(r == 1, "page read returned %d", r);
	CHECK(fake_counter == PV_SM_ARM64_CYCLE_COUNTER, "index 32 read counter %u", fake_counter);
	CHECK(s.count == 1016, "count %llu, want 1016 (upper 32 bits masked)", (unsigned long long)s.count);
	CHECK(s.enabled == 500 + 6442451968ULL, "enabled %llu", (unsigned long long)s.enabled);
	CHECK(s.running == 400 + 6442451968ULL, "running %llu", (unsigned long long)s.running);
	CHECK(PV_SM_SIGN_EXTEND == 0, "arm64 masks, it does not sign-extend");
	CHECK(pv_sm_mask(0xDEADBEEF12345678ULL, 32) == 0x12345678ULL, "mask 32");
	CHECK(pv_sm_sign_extend(0xFFFFFFFFFFFFULL, 48) == -1, "sign extension (shared)");
	CHECK(pv_sm_scale(1000, 300, 100) == 3000, "scale");
	CHECK(pv_sm_scale(5, 500, 0) == 0, "running 0");

	char buf[512];
	CHECK(pv_sm_arm64_user_access(0, buf, sizeof(buf)) == 0 &&
		      strstr(buf, "echo 1 > /proc/sys/kernel/perf_user_access"),
	      "perf_user_access 0 message: %s", buf);
	CHECK(pv_sm_arm64_user_access(1, buf, sizeof(buf)) == 1, "perf_user_access 1");

	printf("arm64 selfmon: %d checks, %d failed\n", checks, failed);
	return failed ? 1 : 0;
}
