/*
 * Fuzz target: the DWARF CFI reader and executor (unwind_cfi.c,
 * unwind_cfi_eval.c) on hostile bytes. Input: a flags byte (bit 0 aarch64,
 * bit 1 .debug_frame), a 2-byte .eh_frame_hdr length, the .eh_frame_hdr,
 * then the section. Rows are looked up at every FDE's start, middle and end
 * and applied to made-up registers; the bytes are also evaluated as a DWARF
 * expression of each kind. All bounded: linear in the input.
 */
#include "unwind/unwind_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static bool read_any(void *ctx, uint64_t addr, uint64_t *v)
{
	(void)ctx;
	if (addr & 1)
		return false;
	*v = addr * 0x9e3779b97f4a7c15ull;
	return true;
}

static void rows(struct pv_cfi *c, const struct pv_cfi_fde *f, size_t n, unsigned nregs)
{
	for (size_t i = 0; i < n && i < 64; i++) {
		uint64_t pcs[3] = {f[i].start, f[i].start + (f[i].end - f[i].start) / 2, f[i].end - 1};
		for (int k = 0; k < 3; k++) {
			const struct pv_cfi_row *r = pv_cfi_row_at(c, pcs[k]);
			if (!r)
				continue;
			struct pv_cfi_regs in = {.set = ~0ull}, out;
			for (int j = 0; j < PV_CFI_NREGS; j++)
				in.v[j] = 0x7ff000 + 8 * (uint64_t)j;
			uint64_t pc;
			pv_cfi_apply(c, r, nregs, &in, 0x1000, NULL, read_any, NULL, &out, &pc);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 3)
		return 0;
	enum perfev_arch arch = data[0] & 1 ? PERFEV_ARCH_AARCH64 : PERFEV_ARCH_X86_64;
	bool eh = !(data[0] & 2);
	size_t hlen = (size_t)data[1] | (size_t)data[2] << 8;
	if (hlen > size - 3)
		hlen = size - 3;
	/* exact-size copies: any overrun is caught */
	uint8_t *hdr = malloc(hlen ? hlen : 1), *sec = malloc(size - 3 - hlen + 1);
	if (!hdr || !sec) {
		free(hdr);
		free(sec);
		return 0;
	}
	memcpy(hdr, data + 3, hlen);
	size_t slen = size - 3 - hlen;
	memcpy(sec, data + 3 + hlen, slen);
	unsigned nregs = arch == PERFEV_ARCH_AARCH64 ? 97 : 17;

	struct pv_cfi plain, fast;
	pv_cfi_init(&plain, arch, sec, slen, 0x10000, eh, NULL, 0, 0);
	struct pv_cfi_row r;
	pv_cfi_find_row(&plain, 0x10000, &r); /* builds the index */
	rows(&plain, plain.fdes, plain.nr_fdes, nregs);
	pv_cfi_init(&fast, arch, sec, slen, 0x10000, eh, hdr, hlen, 0x8000);
	rows(&fast, plain.fdes, plain.nr_fdes, nregs);
	for (uint64_t pc = 0; pc < 0x40; pc += 7)
		pv_cfi_row_at(&fast, 0x10000 + pc);
	pv_cfi_fini(&fast);
	pv_cfi_fini(&plain);

	struct pv_cfi_regs in = {.set = 0x1ffff};
	uint64_t v;
	for (int k = PV_EXPR_CFA; k <= PV_EXPR_VALUE; k++)
		pv_cfi_expr(sec, slen, (enum pv_expr_kind)k, &in, true, 0x7ff000, 0, read_any, NULL, &v);
	free(hdr);
	free(sec);
	return 0;
}
