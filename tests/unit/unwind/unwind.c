/* Call stacks without the kernel: callchain markers, register maps, stats. */
#include "support.h"
#include "perfev.h"

#include <errno.h>
#include <string.h>

Test(unit_unwind, callchain_markers_filtered_like_perf)
{
	const uint64_t chain[] = {PERF_CONTEXT_KERNEL, 0xffffffff81000010, 0xffffffff81000020,
				  PERF_CONTEXT_USER, 0x401000, 0x401100, 0x401200,
				  PERF_CONTEXT_GUEST_KERNEL, 0xffffffff82000000, PERF_CONTEXT_USER,
				  0x402000};
	struct perfev_frame f[16];
	size_t n = perfev_callchain_frames(chain, sizeof(chain) / 8, f, 16);
	cr_assert_eq(n, 6);
	cr_expect(f[0].kernel && !f[0].return_addr && f[0].ip == 0xffffffff81000010);
	cr_expect(f[1].kernel && f[1].return_addr);
	cr_expect(!f[2].kernel && !f[2].return_addr && f[2].ip == 0x401000);
	cr_expect(!f[3].kernel && f[3].return_addr && f[4].return_addr);
	cr_expect(f[5].ip == 0x402000 && !f[5].kernel && !f[5].return_addr);
	cr_expect_eq(perfev_callchain_frames(chain, sizeof(chain) / 8, f, 3), 3);
	cr_expect_eq(perfev_callchain_frames(NULL, 3, f, 3), 0);
	/* a chain without markers is user code, first entry the pc */
	const uint64_t plain[] = {0x401000, 0x401100};
	cr_assert_eq(perfev_callchain_frames(plain, 2, f, 16), 2);
	cr_expect(!f[0].kernel && !f[0].return_addr && f[1].return_addr);
}

Test(unit_unwind, x86_64_perf_regs_to_dwarf)
{
	uint64_t mask = perfev_unwind_regs_mask(PERFEV_ARCH_X86_64);
	/* AX..IP and R8..R15; never DS, ES, FS, GS, which x86_64 refuses */
	cr_expect_eq(mask, 0xff01ffull);
	/* perf order: AX BX CX DX SI DI BP SP IP ... R8..R15 = bits 0-8, 16-23 */
	uint64_t regs[17], dwarf[17], valid, pc, sp;
	int k = 0;
	for (int b = 0; b < 64; b++)
		if (mask >> b & 1)
			regs[k++] = 1000 + (uint64_t)b;
	cr_assert_eq(k, 17);
	int n = perfev_unwind_regs_to_dwarf(PERFEV_ARCH_X86_64, mask, regs, 17, dwarf, 17, &valid,
					    &pc, &sp);
	cr_assert_eq(n, 17);
	/* DWARF: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip */
	const int want[17] = {0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8};
	for (int i = 0; i < 17; i++)
		cr_expect_eq(dwarf[i], 1000 + (uint64_t)want[i], "DWARF reg %d", i);
	cr_expect_eq(valid, (1ull << 17) - 1);
	cr_expect_eq(pc, 1008);
	cr_expect_eq(sp, 1007);
	/* only IP and SP sampled: the rest invalid, zero */
	uint64_t two[2] = {77, 88}; /* bit 7 (SP) then bit 8 (IP) */
	n = perfev_unwind_regs_to_dwarf(PERFEV_ARCH_X86_64, 3ull << 7, two, 2, dwarf, 17, &valid,
					&pc, &sp);
	cr_assert_eq(n, 17);
	cr_expect_eq(pc, 88);
	cr_expect_eq(sp, 77);
	cr_expect_eq(valid, 1ull << 7 | 1ull << 16);
	cr_expect_eq(dwarf[0], 0);
	/* no IP: cannot unwind; too few values for the mask; too few slots */
	cr_expect_eq(perfev_unwind_regs_to_dwarf(PERFEV_ARCH_X86_64, 1ull << 7, two, 1, dwarf, 17,
						 NULL, &pc, &sp), -ENOENT);
	cr_expect_eq(perfev_unwind_regs_to_dwarf(PERFEV_ARCH_X86_64, mask, regs, 3, dwarf, 17, NULL,
						 &pc, &sp), -EINVAL);
	cr_expect_eq(perfev_unwind_regs_to_dwarf(PERFEV_ARCH_X86_64, mask, regs, 17, dwarf, 8, NULL,
						 &pc, &sp), -EINVAL);
}

Test(unit_unwind, aarch64_perf_regs_to_dwarf)
{
	uint64_t mask = perfev_unwind_regs_mask(PERFEV_ARCH_AARCH64);
	cr_expect_eq(mask, (1ull << 33) - 1); /* X0..X28, X29, LR, SP, PC */
	uint64_t regs[33], dwarf[32], valid, pc, sp;
	for (int i = 0; i < 33; i++)
		regs[i] = 5000 + (uint64_t)i;
	int n = perfev_unwind_regs_to_dwarf(PERFEV_ARCH_AARCH64, mask, regs, 33, dwarf, 32, &valid,
					    &pc, &sp);
	cr_assert_eq(n, 32);
	for (int i = 0; i < 31; i++)
		cr_expect_eq(dwarf[i], 5000 + (uint64_t)i, "x%d", i);
	cr_expect_eq(dwarf[29], 5029); /* fp */
	cr_expect_eq(dwarf[30], 5030); /* lr */
	cr_expect_eq(dwarf[31], 5031); /* sp */
	cr_expect_eq(pc, 5032);
	cr_expect_eq(sp, 5031);
	cr_expect_eq(valid, 0xffffffffull);
	cr_expect_eq(perfev_unwind_regs_mask((enum perfev_arch)99), 0);
	cr_expect_eq(perfev_unwind_regs_to_dwarf((enum perfev_arch)99, mask, regs, 33, dwarf, 32,
						 NULL, &pc, &sp), -EINVAL);
}

Test(unit_unwind, unwinder_without_regs_counts_failure)
{
	cr_expect_null(perfev_unwinder_new((enum perfev_arch)99));
	cr_expect_eq(errno, EINVAL);
	struct perfev_unwinder *u = perfev_unwinder_new(PERFEV_ARCH_HOST);
	cr_assert_not_null(u, "%s", perfev_errmsg());
	struct perfev_unwind_sample smp = {.sz = sizeof(smp), .pid = 1, .tid = 1};
	struct perfev_frame f[4];
	cr_expect_eq(perfev_unwinder_unwind(u, &smp, f, 4), 0);
	/* registers but a pc in no known map: the pc alone */
	uint64_t mask = perfev_unwind_regs_mask(PERFEV_ARCH_HOST);
	uint64_t regs[64] = {0};
	uint8_t stack[64] = {0};
	smp.abi = PERF_SAMPLE_REGS_ABI_64;
	smp.mask = mask;
	smp.regs = regs;
	smp.nr_regs = (size_t)__builtin_popcountll(mask);
	smp.stack = stack;
	smp.stack_size = sizeof(stack);
	cr_expect_eq(perfev_unwinder_unwind(u, &smp, f, 4), 1);
	cr_expect_lt(perfev_unwinder_unwind(u, NULL, f, 4), 0);
	struct perfev_unwind_stats st;
	perfev_unwinder_stats(u, &st);
	cr_expect_eq(st.samples, 2);
	cr_expect_eq(st.failed, 1);
	cr_expect_eq(st.to_root, 0);
	perfev_unwinder_forget(u, 1);
	perfev_unwinder_free(u);
	perfev_unwinder_free(NULL);
}
