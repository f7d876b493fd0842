/*
 * The CFI reader (unwind_cfi.c, unwind_cfi_eval.c) on hand-assembled
 * .eh_frame / .eh_frame_hdr / .debug_frame bytes: every DW_CFA_* operation
 * and pointer encoding gives the row computed here by hand; DWARF
 * expressions (the x86_64 PLT's CFA) evaluate as libdwfl does; truncated
 * and corrupted sections never read outside their bytes (exact-size heap
 * copies: the ASan build catches any overrun).
 */
#include "support.h"
#include "unwind/unwind_int.h"

#include <stdlib.h>
#include <string.h>

struct bb {
	uint8_t b[4096];
	size_t n;
};
static void u8(struct bb *b, uint64_t v) { b->b[b->n++] = (uint8_t)v; }
static void un(struct bb *b, uint64_t v, int k)
{
	for (int i = 0; i < k; i++)
		u8(b, v >> (8 * i));
}
static void uleb(struct bb *b, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;
		v >>= 7;
		u8(b, c | (v ? 0x80 : 0));
	} while (v);
}
static void sleb(struct bb *b, int64_t v)
{
	for (;;) {
		uint8_t c = v & 0x7f;
		v >>= 7;
		if ((v == 0 && !(c & 0x40)) || (v == -1 && (c & 0x40))) {
			u8(b, c);
			return;
		}
		u8(b, c | 0x80);
	}
}
static void bytes(struct bb *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}
/* Patches the 4-byte length of the entry that starts at at. */
static void close_entry(struct bb *b, size_t at)
{
	uint32_t len = (uint32_t)(b->n - at - 4);
	memcpy(b->b + at, &len, 4);
}

#define VADDR 0x10000ull /* where the section is "mapped" */

/* A CIE with augmentation aug ("zR", "zPLR", ...), data alignment -8, RA 16,
 * initial instructions: def_cfa rsp+8, rip at cfa-8. Returns its offset. */
static size_t cie(struct bb *b, const char *aug, uint8_t fde_enc, bool signal)
{
	size_t at = b->n;
	un(b, 0, 4);
	un(b, 0, 4); /* CIE id */
	u8(b, 1);
	bytes(b, aug, strlen(aug) + 1);
	uleb(b, 1);
	sleb(b, -8);
	u8(b, 16);
	if (aug[0] == 'z') {
		struct bb a = {.n = 0};
		for (const char *s = aug + 1; *s; s++) {
			if (*s == 'R')
				u8(&a, fde_enc);
			if (*s == 'L')
				u8(&a, 0x1b);
			if (*s == 'P') {
				u8(&a, 0x9b); /* indirect pcrel sdata4 */
				un(&a, 0x1234, 4);
			}
		}
		uleb(b, a.n);
		bytes(b, a.b, a.n);
	}
	(void)signal;
	u8(b, 0x0c); uleb(b, 7); uleb(b, 8);    /* def_cfa rsp, 8 */
	u8(b, 0x80 | 16); uleb(b, 1);           /* offset rip, cfa-8 */
	close_entry(b, at);
	return at;
}

/* An FDE for [start, start+len) with instructions ins (pc encoded by enc). */
static size_t fde(struct bb *b, size_t cie_at, uint8_t enc, uint64_t start, uint64_t len,
		  bool aug_z, const uint8_t *ins, size_t nins)
{
	size_t at = b->n;
	un(b, 0, 4);
	un(b, b->n - cie_at, 4);
	uint64_t here = VADDR + b->n;
	uint64_t v = (enc & 0x70) == 0x10 ? start - here : start;
	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c: un(b, v, 8); un(b, len, 8); break;
	case 0x01: uleb(b, v); uleb(b, len); break;
	case 0x02: case 0x0a: un(b, v, 2); un(b, len, 2); break;
	case 0x03: case 0x0b: un(b, v, 4); un(b, len, 4); break;
	case 0x09: sleb(b, (int64_t)v); sleb(b, (int64_t)len); break;
	}
	if (aug_z)
		uleb(b, 0);
	bytes(b, ins, nins);
	close_entry(b, at);
	return at;
}

static struct pv_cfi eh(struct bb *b)
{
	struct pv_cfi c;
	pv_cfi_init(&c, PERFEV_ARCH_X86_64, b->b, b->n, VADDR, true, NULL, 0, 0);
	return c;
}

static struct pv_cfi_row row_at(struct pv_cfi *c, uint64_t pc)
{
	struct pv_cfi_row r;
	cr_assert_eq(pv_cfi_find_row(c, pc, &r), 1, "no row at %#llx", (unsigned long long)pc);
	return r;
}

/* A stack of 4 words at 0x7000: old rbp, return address. */
static bool read_stack(void *ctx, uint64_t addr, uint64_t *v)
{
	static const uint64_t w[4] = {0x6fff0, 0x401234, 0, 0};
	(void)ctx;
	if (addr < 0x7000 || addr >= 0x7000 + 32 || (addr - 0x7000) % 8)
		return false;
	*v = w[(addr - 0x7000) / 8];
	return true;
}

/* Three known words for the expression rules. */
static bool read_known(void *ctx, uint64_t addr, uint64_t *v)
{
	(void)ctx;
	switch (addr) {
	case 0x1010: *v = 0x2000; return true;
	case 0x2000: *v = 0x3000; return true;
	case 0x508: *v = 0x777; return true;
	default: return false;
	}
}

/* Any address reads as itself. */
static bool read_any(void *ctx, uint64_t addr, uint64_t *v)
{
	(void)ctx;
	*v = addr;
	return true;
}

Test(unit_unwind_cfi, prologue_rows_and_unwind_step)
{
	/* push rbp (1 byte); mov rbp,rsp (3); body; pop rbp; ret */
	static const uint8_t ins[] = {
		0x41, 0x0e, 16,             /* advance 1; def_cfa_offset 16 */
		0x86, 2,                    /* offset rbp, cfa-16 */
		0x43, 0x0d, 6,              /* advance 3; def_cfa_register rbp */
		0x4a, 0x0c, 7, 8,           /* advance 10; def_cfa rsp, 8 */
	};
	struct bb b = {.n = 0};
	size_t c0 = cie(&b, "zR", 0x1b, false);
	fde(&b, c0, 0x1b, 0x401000, 0x20, true, ins, sizeof(ins));
	un(&b, 0, 4);
	struct pv_cfi c = eh(&b);
	struct pv_cfi_row r = row_at(&c, 0x401000);
	cr_expect_eq(r.cfa, PV_CFA_REG);
	cr_expect_eq(r.cfa_reg, 7);
	cr_expect_eq(r.cfa_off, 8);
	cr_expect_eq(r.r[16].kind, PV_RULE_OFFSET);
	cr_expect_eq(r.r[16].val, -8);
	cr_expect_eq(r.r[6].kind, PV_RULE_SAME, "the ABI's default for rbp");
	cr_expect_eq(r.r[7].kind, PV_RULE_VAL_OFFSET, "rsp = CFA by default");
	cr_expect_eq(r.r[3].kind, PV_RULE_UNDEF, "rbx: undefined as in elfutils");
	cr_expect_eq(r.ra, 16);
	r = row_at(&c, 0x401001);
	cr_expect_eq(r.cfa_off, 16);
	cr_expect_eq(r.r[6].kind, PV_RULE_OFFSET);
	cr_expect_eq(r.r[6].val, -16);
	r = row_at(&c, 0x401004);
	cr_expect_eq(r.cfa_reg, 6);
	cr_expect_eq(r.cfa_off, 16);
	r = row_at(&c, 0x40100e);
	cr_expect_eq(r.cfa_reg, 7);
	cr_expect_eq(r.cfa_off, 8);
	struct pv_cfi_row none;
	cr_expect_eq(pv_cfi_find_row(&c, 0x401020, &none), 0, "past the FDE");
	cr_expect_eq(pv_cfi_find_row(&c, 0x400fff, &none), 0, "before it");

	/* one step at 0x401005 (in the body): rbp = 0x7000, [rbp] = old rbp,
	 * [rbp+8] = return address */
	struct pv_cfi_regs in = {.set = (1ull << 17) - 1}, out;
	in.v[6] = 0x7000;
	in.v[7] = 0x6ff0;
	in.v[16] = 0x401005;
	in.v[3] = 42;
	uint64_t pc = 0;
	r = row_at(&c, 0x401005);
	cr_assert_eq(pv_cfi_apply(&c, &r, 17, &in, 0, NULL, read_stack, NULL, &out, &pc), PV_STEP_PC);
	cr_expect_eq(pc, 0x401234);
	cr_expect_eq(out.v[7], 0x7010, "rsp = CFA");
	cr_expect_eq(out.v[6], 0x6fff0, "rbp restored from the stack");
	cr_expect_eq(out.set >> 3 & 1, 0, "rbx undefined in the caller");
	cr_expect_eq(out.v[12], in.v[12], "r12 same value");
	/* the return address slot outside the readable stack: libdwfl ends there */
	in.v[6] = 0x9000;
	cr_expect_eq(pv_cfi_apply(&c, &r, 17, &in, 0, NULL, read_stack, NULL, &out, &pc), PV_STEP_UNDEF);
	pv_cfi_fini(&c);
}

Test(unit_unwind_cfi, every_cfa_operation)
{
	static const uint8_t ins[] = {
		0x05, 3, 2,             /* offset_extended rbx, 2*-8 */
		0x11, 12, 0x7d,         /* offset_extended_sf r12, -3*-8 = +24 */
		0x07, 13,               /* undefined r13 */
		0x08, 3,                /* same_value rbx (overrides) */
		0x09, 14, 15,           /* register r14 = r15 */
		0x14, 15, 2,            /* val_offset r15, 2*-8 */
		0x15, 1, 0x7f,          /* val_offset_sf rdx, -1*-8 = +8 */
		0x2e, 32,               /* GNU_args_size 32 */
		0x2f, 2, 3,             /* GNU_negative_offset_extended rcx, -(3)*-8 = +24 */
		0x00,                   /* nop */
		0x0a,                   /* remember_state */
		0x02, 0x10,             /* advance_loc1 16 -> 0x10 */
		0x12, 6, 0x7e,          /* def_cfa_sf rbp, -2*-8 = 16 */
		0x13, 0x7c,             /* def_cfa_offset_sf -4*-8 = 32 */
		0xc0 | 16,              /* restore rip (CIE: cfa-8) */
		0x06, 3,                /* restore_extended rbx: the ABI's rule (undefined) */
		0x03, 0x10, 0x00,       /* advance_loc2 16 -> 0x20 */
		0x0b,                   /* restore_state */
		0x04, 0x10, 0, 0, 0,    /* advance_loc4 16 -> 0x30 */
		0x0f, 3, 0x77, 0x10, 0x06,       /* def_cfa_expression: breg7 16; deref */
		0x10, 6, 2, 0x76, 0x08,          /* expression rbp: breg6 8 */
		0x16, 16, 2, 0x31, 0x22,         /* val_expression rip: lit1 plus */
		0x01, 0x40, 0x00, 0x00, 0x00,    /* set_loc (udata4) 0x40 */
		0x0e, 48,                        /* def_cfa_offset on an expression: invalid */
	};
	struct bb b = {.n = 0};
	size_t c0 = cie(&b, "zR", 0x03, false); /* udata4, absolute */
	fde(&b, c0, 0x03, 0x0, 0x100, true, ins, sizeof(ins));
	struct pv_cfi c = eh(&b);
	struct pv_cfi_row r = row_at(&c, 0x8);
	cr_expect_eq(r.r[3].kind, PV_RULE_SAME);
	cr_expect_eq(r.r[12].kind, PV_RULE_OFFSET);
	cr_expect_eq(r.r[12].val, 24);
	cr_expect_eq(r.r[13].kind, PV_RULE_UNDEF);
	cr_expect_eq(r.r[14].kind, PV_RULE_REG);
	cr_expect_eq(r.r[14].val, 15);
	cr_expect_eq(r.r[15].kind, PV_RULE_VAL_OFFSET);
	cr_expect_eq(r.r[15].val, -16);
	cr_expect_eq(r.r[1].kind, PV_RULE_VAL_OFFSET);
	cr_expect_eq(r.r[1].val, 8);
	cr_expect_eq(r.r[2].kind, PV_RULE_OFFSET);
	cr_expect_eq(r.r[2].val, 24);
	r = row_at(&c, 0x10);
	cr_expect_eq(r.cfa, PV_CFA_REG);
	cr_expect_eq(r.cfa_reg, 6);
	cr_expect_eq(r.cfa_off, 32);
	cr_expect_eq(r.r[16].kind, PV_RULE_OFFSET);
	cr_expect_eq(r.r[16].val, -8);
	cr_expect_eq(r.r[3].kind, PV_RULE_UNDEF);
	r = row_at(&c, 0x2f);
	cr_expect_eq(r.cfa_reg, 7, "restore_state brought back the CFA");
	cr_expect_eq(r.cfa_off, 8);
	cr_expect_eq(r.r[3].kind, PV_RULE_SAME);
	r = row_at(&c, 0x30);
	cr_expect_eq(r.cfa, PV_CFA_EXPR);
	cr_expect_eq(r.cfa_reg, 3, "the expression's length");
	cr_expect_eq(r.r[6].kind, PV_RULE_EXPR);
	cr_expect_eq(r.r[16].kind, PV_RULE_VAL_EXPR);
	r = row_at(&c, 0x40);
	cr_expect_eq(r.cfa, PV_CFA_INVALID);
	/* evaluate the expression rules: rsp = 0x1000, [0x1010] = 0x2000 */
	r = row_at(&c, 0x30);
	struct pv_cfi_regs in = {.set = (1ull << 17) - 1}, out;
	in.v[7] = 0x1000;
	in.v[6] = 0x500;
	uint64_t pc;
	cr_assert_eq(pv_cfi_apply(&c, &r, 17, &in, 0, NULL, read_known, NULL, &out, &pc), PV_STEP_PC);
	cr_expect_eq(out.v[7], 0x2000, "CFA = [rsp+16]");
	cr_expect_eq(out.v[6], 0x777, "rbp = [rbp+8] (an expression rule is a location)");
	cr_expect_eq(pc, 0x2001, "rip = CFA + 1 (val_expression)");
	pv_cfi_fini(&c);
}

/* aarch64's DW_CFA_AARCH64_negate_ra_state (0x2d, SPARC's window_save)
 * toggles whether the return address is signed, and remember/restore_state
 * keep it with the rest of the row; x86_64 rows never have it. */
Test(unit_unwind_cfi, aarch64_negate_ra_state)
{
	static const uint8_t ins[] = {
		0x2d,       /* negate_ra_state: signed from 0 (paciasp) */
		0x02, 4,    /* advance_loc1 4 */
		0x0a,       /* remember_state */
		0x2d,       /* unsigned from 4 (autiasp) */
		0x02, 4,    /* -> 8 */
		0x0b,       /* restore_state: signed again */
		0x02, 4,    /* -> 12 */
		0x2d,       /* unsigned */
	};
	struct bb b = {.n = 0};
	size_t c0 = cie(&b, "zR", 0x03, false);
	fde(&b, c0, 0x03, 0x0, 0x100, true, ins, sizeof(ins));
	struct pv_cfi c;
	pv_cfi_init(&c, PERFEV_ARCH_AARCH64, b.b, b.n, VADDR, true, NULL, 0, 0);
	const bool want[] = {true, false, true, false};
	for (unsigned i = 0; i < 4; i++) {
		struct pv_cfi_row r = row_at(&c, i * 4);
		cr_expect_eq(r.ra_signed, want[i], "aarch64 row at %u", i * 4);
	}
	pv_cfi_fini(&c);
	struct pv_cfi x = eh(&b);
	for (unsigned i = 0; i < 4; i++)
		cr_expect(!row_at(&x, i * 4).ra_signed, "x86_64 row at %u", i * 4);
	pv_cfi_fini(&x);
}

Test(unit_unwind_cfi, pointer_encodings_and_augmentations)
{
	static const uint8_t ins[] = {0x41, 0x0e, 16};
	static const uint8_t encs[] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x09, 0x0a, 0x0b, 0x0c,
				       0x1b, 0x13, 0x1c, 0x10};
	for (size_t i = 0; i < sizeof(encs); i++) {
		struct bb b = {.n = 0};
		size_t c0 = cie(&b, i % 2 ? "zPLR" : "zRS", encs[i], false);
		uint64_t start = (encs[i] & 0x0f) == 0x02 || (encs[i] & 0x0f) == 0x0a ? 0x1000
											: 0x401000;
		fde(&b, c0, encs[i], start, 0x40, true, ins, sizeof(ins));
		struct pv_cfi c = eh(&b);
		struct pv_cfi_row r = row_at(&c, start + 1);
		cr_expect_eq(r.cfa_off, 16, "encoding %#x", encs[i]);
		cr_expect_eq(r.signal, i % 2 == 0, "'S' for encoding %#x", encs[i]);
		struct pv_cfi_row x;
		cr_expect_eq(pv_cfi_find_row(&c, start + 0x40, &x), 0, "encoding %#x", encs[i]);
		pv_cfi_fini(&c);
	}
	/* an unknown augmentation without 'z' cannot be skipped: no row */
	struct bb b = {.n = 0};
	size_t c0 = cie(&b, "Q", 0, false);
	fde(&b, c0, 0x00, 0x5000, 0x10, false, ins, sizeof(ins));
	struct pv_cfi c = eh(&b);
	struct pv_cfi_row x;
	cr_expect_leq(pv_cfi_find_row(&c, 0x5001, &x), 0);
	pv_cfi_fini(&c);
}

Test(unit_unwind_cfi, eh_frame_hdr_search_table_and_debug_frame)
{
	static const uint8_t ins[] = {0x42, 0x0e, 24};
	struct bb b = {.n = 0};
	size_t c0 = cie(&b, "zR", 0x1b, false);
	size_t f[3];
	uint64_t starts[3] = {0x401000, 0x402000, 0x403000};
	for (int i = 0; i < 3; i++)
		f[i] = fde(&b, c0, 0x1b, starts[i], 0x100, true, ins, sizeof(ins));
	/* .eh_frame_hdr at 0x20000: version 1, eh_frame_ptr pcrel sdata4,
	 * count udata4, table datarel sdata4 */
	const uint64_t hv = 0x20000;
	struct bb h = {.n = 0};
	u8(&h, 1); u8(&h, 0x1b); u8(&h, 0x03); u8(&h, 0x3b);
	un(&h, VADDR - (hv + 4), 4);
	un(&h, 3, 4);
	for (int i = 0; i < 3; i++) {
		un(&h, starts[i] - hv, 4);
		un(&h, VADDR + f[i] - hv, 4);
	}
	struct pv_cfi c;
	pv_cfi_init(&c, PERFEV_ARCH_X86_64, b.b, b.n, VADDR, true, h.b, h.n, hv);
	cr_assert_not_null(c.table, "the search table is used");
	cr_expect_eq(c.nr_table, 3);
	for (int i = 0; i < 3; i++) {
		struct pv_cfi_row r = row_at(&c, starts[i] + 2);
		cr_expect_eq(r.cfa_off, 24);
		const struct pv_cfi_row *m = pv_cfi_row_at(&c, starts[i] + 2);
		cr_assert_not_null(m);
		cr_expect_eq(pv_cfi_row_at(&c, starts[i] + 2), m, "memoized");
	}
	cr_expect_null(pv_cfi_row_at(&c, 0x402100), "in the gap");
	cr_expect_null(pv_cfi_row_at(&c, 0x400000), "below the first");
	cr_expect_eq(c.fdes, NULL, "no index built: the table was enough");
	pv_cfi_fini(&c);

	/* .debug_frame: CIE id 0xffffffff, version 4 (address size 8), absolute
	 * CIE pointer and addresses */
	struct bb d = {.n = 0};
	un(&d, 0, 4);
	un(&d, 0xffffffffu, 4);
	u8(&d, 4);
	u8(&d, 0);
	u8(&d, 8);
	u8(&d, 0);
	uleb(&d, 4);
	sleb(&d, -8);
	uleb(&d, 16);
	u8(&d, 0x0c); uleb(&d, 7); uleb(&d, 8);
	close_entry(&d, 0);
	size_t at = d.n;
	un(&d, 0, 4);
	un(&d, 0, 4); /* the CIE at offset 0 */
	un(&d, 0x500000, 8);
	un(&d, 0x80, 8);
	u8(&d, 0x41); /* advance 1*4 */
	u8(&d, 0x0e); uleb(&d, 40);
	close_entry(&d, at);
	pv_cfi_init(&c, PERFEV_ARCH_X86_64, d.b, d.n, 0, false, NULL, 0, 0);
	struct pv_cfi_row r = row_at(&c, 0x500003);
	cr_expect_eq(r.cfa_off, 8, "code alignment 4: the advance reaches 0x500004");
	r = row_at(&c, 0x500004);
	cr_expect_eq(r.cfa_off, 40);
	pv_cfi_fini(&c);
}

Test(unit_unwind_cfi, plt_cfa_expression_and_bounds)
{
	/* glibc/binutils x86_64 PLT: CFA = rsp + 8 + ((rip & 15) >= 11 ? 8 : 0) */
	static const uint8_t plt[] = {0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22};
	struct pv_cfi_regs r = {.set = (1ull << 17) - 1};
	r.v[7] = 0x7ff0;
	uint64_t v;
	r.v[16] = 0x401020 + 6;
	cr_assert(pv_cfi_expr(plt, sizeof(plt), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	cr_expect_eq(v, 0x7ff8);
	r.v[16] = 0x401020 + 11;
	cr_assert(pv_cfi_expr(plt, sizeof(plt), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	cr_expect_eq(v, 0x8000);
	r.set &= ~(1ull << 16);
	cr_expect_not(pv_cfi_expr(plt, sizeof(plt), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v),
		      "an unknown register");
	r.set = ~0ull;
	/* arithmetic and stack operations: 5 3 minus dup mul const1u 255 swap div
	 * consts -5 plus lit2 over drop shl not neg = 233 */
	static const uint8_t ar[] = {0x35, 0x33, 0x1c, 0x12, 0x1e, 0x08, 0xff, 0x16, 0x1b,
				     0x11, 0x7b, 0x22, 0x32, 0x14, 0x13, 0x24, 0x20, 0x1f};
	cr_assert(pv_cfi_expr(ar, sizeof(ar), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	cr_expect_eq(v, 233);
	/* 1 2 3 rot (3 1 2) pick 2 (3 1 2 3) minus abs plus (3 2) mod (1) lit7 xor
	 * lit3 or lit12 and lit1 shr (2) const1s -8 lit1 shra (2 -4) gt = 1 */
	static const uint8_t ar2[] = {0x31, 0x32, 0x33, 0x17, 0x15, 0x02, 0x1c, 0x19, 0x22,
				      0x1d, 0x37, 0x27, 0x33, 0x21, 0x3c, 0x1a, 0x31, 0x25,
				      0x09, 0xf8, 0x31, 0x26, 0x2b};
	cr_assert(pv_cfi_expr(ar2, sizeof(ar2), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	cr_expect_eq(v, 1);
	/* deref reads a word; deref_size 2 keeps its low 2 bytes */
	static const uint8_t dr[] = {0x0a, 0x34, 0x12, 0x06, 0x94, 0x02};
	cr_assert(pv_cfi_expr(dr, sizeof(dr), PV_EXPR_CFA, &r, false, 0, 0, read_any, NULL, &v));
	cr_expect_eq(v, 0x1234);
	static const uint8_t br[] = {0x30, 0x28, 0x02, 0x00, 0x31, 0x2f, 0x01, 0x00, 0x32, 0x96};
	/* lit0; bra +2 (not taken); lit1; skip +1 -> over lit2 to nop: result 1 */
	cr_assert(pv_cfi_expr(br, sizeof(br), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	cr_expect_eq(v, 1);
	static const uint8_t loop[] = {0x30, 0x2f, 0xfd, 0xff}; /* lit0; skip -3: forever */
	cr_expect_not(pv_cfi_expr(loop, sizeof(loop), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	static const uint8_t mid[] = {0x2f, 0x01, 0x00, 0x0a, 0x01, 0x02}; /* skip into an operand */
	cr_expect_not(pv_cfi_expr(mid, sizeof(mid), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	static const uint8_t div0[] = {0x31, 0x30, 0x1b};
	cr_expect_not(pv_cfi_expr(div0, sizeof(div0), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	static const uint8_t tls[] = {0x30, 0xe0}; /* GNU_push_tls_address: not for CFI */
	cr_expect_not(pv_cfi_expr(tls, sizeof(tls), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	uint8_t deep[300];
	memset(deep, 0x31, sizeof(deep)); /* 300 pushes: past the 256-value stack */
	cr_expect_not(pv_cfi_expr(deep, sizeof(deep), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	static const uint8_t trunc[] = {0x0e, 1, 2}; /* const8u cut short */
	cr_expect_not(pv_cfi_expr(trunc, sizeof(trunc), PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	cr_expect_not(pv_cfi_expr(NULL, 0, PV_EXPR_CFA, &r, false, 0, 0, NULL, NULL, &v));
	/* a value expression starts from the CFA; a location one reads it */
	static const uint8_t plus8[] = {0x38, 0x22};
	cr_assert(pv_cfi_expr(plus8, 2, PV_EXPR_VALUE, &r, true, 0x100, 0, NULL, NULL, &v));
	cr_expect_eq(v, 0x108);
	cr_expect_not(pv_cfi_expr(plus8, 2, PV_EXPR_VALUE, &r, false, 0, 0, NULL, NULL, &v),
		      "no CFA");
}

Test(unit_unwind_cfi, truncated_and_corrupted_sections_stay_in_bounds)
{
	static const uint8_t ins[] = {0x41, 0x0e, 16, 0x86, 2, 0x0a, 0x43, 0x0d, 6, 0x0b,
				      0x0f, 3, 0x77, 0x10, 0x06, 0x10, 6, 2, 0x76, 0x08};
	struct bb b = {.n = 0};
	size_t c0 = cie(&b, "zPLR", 0x1b, false);
	fde(&b, c0, 0x1b, 0x401000, 0x40, true, ins, sizeof(ins));
	fde(&b, c0, 0x1b, 0x402000, 0x40, true, ins, sizeof(ins));
	un(&b, 0, 4);
	uint64_t pcs[] = {0x401000, 0x401001, 0x401004, 0x401030, 0x402005};
	size_t rows = 0;
	for (size_t len = 0; len <= b.n; len++) {
		uint8_t *copy = malloc(len ? len : 1);
		memcpy(copy, b.b, len);
		struct pv_cfi c;
		pv_cfi_init(&c, PERFEV_ARCH_X86_64, copy, len, VADDR, true, NULL, 0, 0);
		for (size_t k = 0; k < sizeof(pcs) / sizeof(pcs[0]); k++)
			rows += pv_cfi_row_at(&c, pcs[k]) != NULL;
		pv_cfi_fini(&c);
		free(copy);
	}
	cr_expect_gt(rows, 0);
	/* every single byte changed to each of a few values */
	static const uint8_t vals[] = {0x00, 0xff, 0x7f, 0x80, 0x0f, 0x2f, 0x0b};
	for (size_t at = 0; at < b.n; at++)
		for (size_t k = 0; k < sizeof(vals); k++) {
			uint8_t *copy = malloc(b.n);
			memcpy(copy, b.b, b.n);
			copy[at] = vals[k];
			struct pv_cfi c;
			pv_cfi_init(&c, PERFEV_ARCH_X86_64, copy, b.n, VADDR, true, NULL, 0, 0);
			for (size_t j = 0; j < sizeof(pcs) / sizeof(pcs[0]); j++) {
				const struct pv_cfi_row *r = pv_cfi_row_at(&c, pcs[j]);
				if (r) {
					struct pv_cfi_regs in = {.set = ~0ull}, out;
					uint64_t pc;
					pv_cfi_apply(&c, r, 17, &in, 0, NULL, read_any, NULL, &out, &pc);
				}
			}
			pv_cfi_fini(&c);
			free(copy);
		}
}
