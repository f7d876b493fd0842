/*
 * DWARF unwinding of an aarch64 sample on this x86_64 host: the fixture
 * tests/data/symbols/a64deep.c, cross-compiled without frame pointers and
 * run under qemu-aarch64, captures its registers in perf's arm64 order and
 * a copy of its stack 21 calls deep, as REGS_USER + STACK_USER would; the
 * unwinder (PERFEV_ARCH_AARCH64) must walk it back to main.
 */
#define _GNU_SOURCE
#include "support.h"
#include "support_symbols.h"
#include "perfev.h"
#include "unwind/unwind_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Builds the fixture with extra flags, runs it on qemu's cpu, unwinds its
 * sample with ours and with libdwfl (when compare_libdw) and checks the
 * frames reach main through 21 descends. */
static void unwind_fixture(const char *cflags, const char *cpu, bool compare_libdw)
{
	struct run_result t = run_cmd("command -v aarch64-linux-gnu-gcc && command -v qemu-aarch64 && "
				      "test -f /usr/aarch64-linux-gnu/lib/libc.a");
	if (t.status != 0)
		cr_skip_test("needs aarch64-linux-gnu-gcc, libc6-dev-arm64-cross and qemu-aarch64 "
			     "(scripts/deps.sh)");
	run_result_free(&t);
	const char *dir = test_tmpdir();
	struct run_result c = run_cmd("aarch64-linux-gnu-gcc -O1 -g -fomit-frame-pointer -fno-inline "
				      "%s -static -o %s/a64deep %s/tests/data/symbols/a64deep.c",
				      cflags, dir, PERFEV_SRCDIR);
	cr_assert_eq(c.status, 0, "cross-compiling: %s", c.err);
	struct run_result r = run_cmd("qemu-aarch64 -cpu %s %s/a64deep %s/sample.bin", cpu, dir, dir);
	cr_assert_eq(r.status, 0, "under qemu-aarch64: %s", r.err);
	size_t nmaps;
	struct perfev_map *maps = parse_maps(r.out, &nmaps);
	cr_assert_gt(nmaps, 0, "no maps printed: %s", r.out);

	char path[4300];
	snprintf(path, sizeof(path), "%s/sample.bin", dir);
	size_t len;
	uint8_t *raw = (uint8_t *)slurp(path, &len);
	uint64_t nr, regs[33], stack_size;
	cr_assert_geq(len, 8 + 33 * 8 + 8);
	memcpy(&nr, raw, 8);
	cr_assert_eq(nr, 33);
	memcpy(regs, raw + 8, sizeof(regs));
	memcpy(&stack_size, raw + 8 + sizeof(regs), 8);
	cr_assert_eq(len, 8 + sizeof(regs) + 8 + stack_size);

	struct perfev_unwinder *u = perfev_unwinder_new(PERFEV_ARCH_AARCH64);
	cr_assert_not_null(u, "%s", perfev_errmsg());
	pv_unwinder_use_libdw(u, false); /* ours, whatever PERFEV_UNWIND says */
	struct perfev_unwind_sample smp = {
		.sz = sizeof(smp), .pid = 999999999, .tid = 999999999,
		.abi = PERF_SAMPLE_REGS_ABI_64, .mask = perfev_unwind_regs_mask(PERFEV_ARCH_AARCH64),
		.regs = regs, .nr_regs = 33, .stack = raw + 8 + sizeof(regs) + 8,
		.stack_size = stack_size, .maps = maps, .nr_maps = nmaps};
	struct perfev_frame f[64];
	int n = perfev_unwinder_unwind(u, &smp, f, 64);
	cr_assert_geq(n, 1);
	cr_expect_eq(f[0].ip, regs[32], "frame 0 is the sampled pc");

	/* libdwfl's unwinder gives the same frames */
	struct perfev_unwinder *ud = perfev_unwinder_new(PERFEV_ARCH_AARCH64);
	cr_assert_not_null(ud);
	pv_unwinder_use_libdw(ud, true);
	struct perfev_frame g[64];
	int nd = compare_libdw ? perfev_unwinder_unwind(ud, &smp, g, 64) : 0;
	cr_expect(!compare_libdw || nd == n, "libdw: %d frames, ours %d", nd, n);
	for (int i = 0; i < n && i < nd; i++)
		cr_expect(f[i].ip == g[i].ip && f[i].return_addr == g[i].return_addr,
			  "frame %d: ours %#llx, libdw %#llx", i, (unsigned long long)f[i].ip,
			  (unsigned long long)g[i].ip);
	perfev_unwinder_free(ud);

	struct perfev_symbolizer *s = perfev_symbolizer_new(NULL);
	size_t descends = 0;
	bool capture = false, main_seen = false;
	char trace[4096] = "";
	for (int i = 0; i < n; i++) {
		struct perfev_location loc;
		perfev_symbolizer_resolve(s, -1, map_for(maps, nmaps, f[i].ip), f[i].ip,
					  f[i].return_addr ? PERFEV_RESOLVE_RETURN_ADDR : 0, &loc);
		const char *name = loc.symbol ? loc.symbol : "?";
		capture |= !strcmp(name, "capture");
		main_seen |= !strcmp(name, "main");
		descends += !strcmp(name, "descend");
		if (strlen(trace) + strlen(name) + 2 < sizeof(trace)) {
			strcat(trace, name);
			strcat(trace, " ");
		}
	}
	struct perfev_unwind_stats st;
	perfev_unwinder_stats(u, &st);
	cr_log_info("aarch64 %s: %d frames: %s(to root: %llu)", cflags, n, trace,
		    (unsigned long long)st.to_root);
	cr_expect(capture, "no capture frame: %s", trace);
	cr_expect_eq(descends, 21, "%zu descend frames, 21 expected: %s", descends, trace);
	cr_expect(main_seen, "did not reach main: %s", trace);
	cr_expect_eq(st.to_root, 1, "did not unwind to the root: %s", trace);
	perfev_symbolizer_free(s);
	perfev_unwinder_free(u);
	maps_free(maps, nmaps);
	free(raw);
	run_result_free(&c);
	run_result_free(&r);
}

Test(unit_unwind_arm64, aarch64_sample_unwinds_to_main, .timeout = 120)
{
	unwind_fixture("", "max", true);
}

/*
 * Pointer authentication (Debian's arm64 default, -mbranch-protection):
 * each function signs its return address (paciasp) before saving it, so
 * the stack holds x30 with a PAC in its top bits, which the CFI marks
 * with DW_CFA_AARCH64_negate_ra_state. qemu's "max" cpu signs with real
 * keys; the unwinder must strip the code to find the caller. (libdwfl,
 * without the process's PAC mask, stops at the first signed address.)
 */
Test(unit_unwind_arm64, signed_return_addresses_unwind_to_main, .timeout = 120)
{
	unwind_fixture("-mbranch-protection=pac-ret", "max", false);
}
