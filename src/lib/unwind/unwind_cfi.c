/*
 * unwind_cfi.c — DWARF call frame information (.eh_frame, .debug_frame):
 * the FDE covering a pc (through .eh_frame_hdr's binary search table, else
 * an index of every FDE built once), its CIE (augmentations z R P L S B G,
 * pointer encodings absptr/uleb/udata/sleb/sdata with pcrel/datarel/
 * aligned application) and the CFA program run up to the pc, giving the
 * unwind table row: the CFA rule and a rule per register. Semantics follow
 * libdw (cfi.c): the ABI's default rules first (x86_64: DWARF 0, rbp,
 * r12-r15, rip same value, rsp = CFA; aarch64: x19-x30 same value,
 * sp = CFA), then the CIE's initial instructions, then the FDE's.
 * Everything is bounds-checked: hostile bytes give "no row", never a read
 * outside the section, and time linear in the bytes read.
 */
#include "unwind/unwind_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const struct pv_cfi_row pv_cfi_norow;

enum { REMEMBER_MAX = 32, ROW_CACHE_MAX = 1 << 16, CHUNK_ROWS = 64 };

/* A bounded reader over a section; vaddr is the address of start. */
struct rd {
	const uint8_t *p, *end, *start;
	uint64_t vaddr;
	bool bad;
};

static uint64_t rd_u(struct rd *r, size_t n)
{
	if ((size_t)(r->end - r->p) < n) {
		r->bad = true;
		r->p = r->end;
		return 0;
	}
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	for (unsigned shift = 0; r->p < r->end; shift += 7) {
		uint8_t b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return v;
	}
	r->bad = true;
	return v;
}

static int64_t rd_sleb(struct rd *r)
{
	uint64_t v = 0;
	for (unsigned shift = 0; r->p < r->end;) {
		uint8_t b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= ~0ull << shift;
			return (int64_t)v;
		}
	}
	r->bad = true;
	return (int64_t)v;
}

/* Size of an encoded value's fixed-size format, 0 for LEB128 / invalid. */
static size_t enc_size(uint8_t enc)
{
	switch (enc & 0x0f) {
	case 0x00: return 8; /* absptr: 64-bit targets */
	case 0x02: case 0x0a: return 2;
	case 0x03: case 0x0b: return 4;
	case 0x04: case 0x0c: return 8;
	default: return 0;
	}
}

/* A DW_EH_PE_* encoded pointer. datarel: the base of DW_EH_PE_datarel. */
static uint64_t rd_enc(struct rd *r, uint8_t enc, uint64_t datarel)
{
	if (enc == 0xff) /* DW_EH_PE_omit */
		return 0;
	uint64_t base = 0;
	switch (enc & 0x70) {
	case 0x00: break;
	case 0x10: base = r->vaddr + (uint64_t)(r->p - r->start); break; /* pcrel */
	case 0x20: break; /* textrel: libdw's base is 0 */
	case 0x30: base = datarel; break;
	case 0x40: break; /* funcrel */
	case 0x50: { /* aligned */
		size_t sz = enc_size(enc);
		if (!sz) {
			r->bad = true;
			return 0;
		}
		uint64_t mis = (r->vaddr + (uint64_t)(r->p - r->start)) & (sz - 1);
		if (mis)
			rd_u(r, sz - mis);
		break;
	}
	default:
		r->bad = true;
		return 0;
	}
	uint64_t v;
	switch (enc & 0x0f) {
	case 0x00: v = rd_u(r, 8); break;
	case 0x01: v = rd_uleb(r); break;
	case 0x02: v = rd_u(r, 2); break;
	case 0x03: v = rd_u(r, 4); break;
	case 0x04: v = rd_u(r, 8); break;
	case 0x09: v = (uint64_t)rd_sleb(r); break;
	case 0x0a: v = (uint64_t)(int16_t)rd_u(r, 2); break;
	case 0x0b: v = (uint64_t)(int32_t)rd_u(r, 4); break;
	case 0x0c: v = rd_u(r, 8); break;
	default: r->bad = true; return 0;
	}
	/* DW_EH_PE_indirect (0x80): only personality pointers use it, and
	 * they are skipped, never followed */
	return base + v;
}

struct cie {
	uint64_t code_align, ra;
	int64_t data_align;
	uint8_t fde_enc;
	bool aug_z, signal;
	const uint8_t *insns, *insns_end;
};

static struct rd reader(const struct pv_cfi *c, uint64_t off)
{
	struct rd r = {c->data + PV_MIN(off, c->size), c->data + c->size, c->data, c->vaddr, off > c->size};
	return r;
}

/* An entry's header at off: its end (in *end) and whether it is 64-bit DWARF. */
static bool entry_header(struct rd *r, const uint8_t **end, bool *dw64)
{
	uint64_t len = rd_u(r, 4);
	*dw64 = len == 0xffffffffu;
	if (*dw64)
		len = rd_u(r, 8);
	if (r->bad || len == 0 || len > (uint64_t)(r->end - r->p))
		return false;
	*end = r->p + len;
	return true;
}

static bool parse_cie(const struct pv_cfi *c, uint64_t off, struct cie *ci)
{
	struct rd r = reader(c, off);
	const uint8_t *end;
	bool dw64;
	if (r.bad || !entry_header(&r, &end, &dw64))
		return false;
	r.end = end;
	uint64_t id = rd_u(&r, dw64 ? 8 : 4);
	if (c->eh ? id != 0 : id != (dw64 ? ~0ull : 0xffffffffu))
		return false;
	uint8_t version = (uint8_t)rd_u(&r, 1);
	if (version != 1 && version != 3 && version != 4)
		return false;
	const char *aug = (const char *)r.p;
	const uint8_t *nul = memchr(r.p, 0, (size_t)(r.end - r.p));
	if (!nul)
		return false;
	r.p = nul + 1;
	if (version == 4 && (rd_u(&r, 1) != 8 || rd_u(&r, 1) != 0))
		return false; /* address size 8, no segments */
	if (aug[0] == 'e' && aug[1] == 'h') {
		rd_u(&r, 8); /* old GCC's eh pointer */
		aug += 2;
	}
	memset(ci, 0, sizeof(*ci));
	ci->code_align = rd_uleb(&r);
	ci->data_align = rd_sleb(&r);
	ci->ra = version == 1 ? rd_u(&r, 1) : rd_uleb(&r);
	ci->fde_enc = 0;
	if (aug[0] == 'z') {
		ci->aug_z = true;
		uint64_t alen = rd_uleb(&r);
		if (r.bad || alen > (uint64_t)(r.end - r.p))
			return false;
		const uint8_t *aend = r.p + alen;
		struct rd a = r;
		a.end = aend;
		for (const char *s = aug + 1; *s && !a.bad; s++) {
			if (*s == 'R')
				ci->fde_enc = (uint8_t)rd_u(&a, 1);
			else if (*s == 'L')
				rd_u(&a, 1);
			else if (*s == 'P')
				rd_enc(&a, (uint8_t)rd_u(&a, 1), 0);
			else if (*s == 'S')
				ci->signal = true;
			else if (*s != 'B' && *s != 'G')
				break; /* unknown: 'z' says how much to skip */
		}
		if (a.bad)
			return false;
		r.p = aend;
	} else if (aug[0] == 'S' && !aug[1]) {
		ci->signal = true;
	} else if (aug[0]) {
		return false; /* cannot be skipped without 'z' */
	}
	if (r.bad)
		return false;
	ci->insns = r.p;
	ci->insns_end = r.end;
	return true;
}

/* The FDE at off: 1 (its range, instructions and CIE), 0 a CIE, -1 bad. */
static int parse_fde(const struct pv_cfi *c, uint64_t off, struct cie *ci, uint64_t *start,
		     uint64_t *len, const uint8_t **insns, const uint8_t **insns_end,
		     uint64_t *next)
{
	struct rd r = reader(c, off);
	const uint8_t *end;
	bool dw64;
	if (r.bad || !entry_header(&r, &end, &dw64))
		return -1;
	*next = (uint64_t)(end - c->data);
	r.end = end;
	uint64_t idpos = (uint64_t)(r.p - c->data);
	uint64_t id = rd_u(&r, dw64 ? 8 : 4);
	if (c->eh ? id == 0 : id == (dw64 ? ~0ull : 0xffffffffu))
		return 0;
	uint64_t cie_off = c->eh ? idpos - id : id;
	if ((c->eh && id > idpos) || !parse_cie(c, cie_off, ci))
		return -1;
	*start = rd_enc(&r, c->eh ? ci->fde_enc : 0, 0);
	*len = rd_enc(&r, c->eh ? (ci->fde_enc & 0x0f) : 0, 0);
	if (ci->aug_z) {
		uint64_t alen = rd_uleb(&r);
		if (alen > (uint64_t)(r.end - r.p))
			return -1;
		r.p += alen;
	}
	if (r.bad)
		return -1;
	*insns = r.p;
	*insns_end = r.end;
	return 1;
}

void pv_cfi_init(struct pv_cfi *c, enum perfev_arch arch, const uint8_t *data, size_t size,
		 uint64_t vaddr, bool eh, const uint8_t *hdr, size_t hdr_size, uint64_t hdr_vaddr)
{
	memset(c, 0, sizeof(*c));
	c->arch = arch;
	c->data = data;
	c->size = data ? size : 0;
	c->vaddr = vaddr;
	c->eh = eh;
	if (!eh || !hdr || hdr_size < 4 || hdr[0] != 1)
		return;
	/* .eh_frame_hdr: version, eh_frame_ptr_enc, fde_count_enc, table_enc */
	struct rd r = {hdr + 4, hdr + hdr_size, hdr, hdr_vaddr, false};
	rd_enc(&r, hdr[1], hdr_vaddr);
	uint64_t count = rd_enc(&r, hdr[2], hdr_vaddr);
	size_t esz = enc_size(hdr[3]);
	if (r.bad || hdr[2] == 0xff || hdr[3] == 0xff || !esz || (hdr[3] & 0x70) > 0x30 ||
	    (hdr[3] & 0x70) == 0x20 || count > (uint64_t)(r.end - r.p) / (2 * esz))
		return;
	c->table = r.p;
	c->nr_table = (size_t)count;
	c->table_enc = hdr[3];
	c->hdr = hdr;
	c->hdr_size = hdr_size;
	c->hdr_vaddr = hdr_vaddr;
}

void pv_cfi_fini(struct pv_cfi *c)
{
	if (!c)
		return;
	free(c->fdes);
	pv_u64map_free(&c->rows);
	for (size_t i = 0; i < c->nr_chunks; i++)
		free(c->chunks[i]);
	free(c->chunks);
	memset(c, 0, sizeof(*c));
}

static int cmp_fde(const void *a, const void *b)
{
	const struct pv_cfi_fde *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* Every FDE of the section, sorted by address (once). */
static void build_index(struct pv_cfi *c)
{
	c->indexed = true;
	size_t cap = 0;
	for (uint64_t off = 0; off + 4 <= c->size;) {
		struct cie ci;
		uint64_t start = 0, len = 0, next = 0;
		const uint8_t *ib, *ie;
		if (c->eh && c->data[off] == 0 && c->data[off + 1] == 0 && c->data[off + 2] == 0 &&
		    c->data[off + 3] == 0)
			break; /* the terminator */
		int k = parse_fde(c, off, &ci, &start, &len, &ib, &ie, &next);
		if (k < 0 && next <= off)
			break;
		if (k > 0 && len && start + len > start &&
		    pv_grow(&c->fdes, &cap, c->nr_fdes + 1, sizeof(*c->fdes)) == 0)
			c->fdes[c->nr_fdes++] = (struct pv_cfi_fde){start, start + len, off};
		if (next <= off)
			break;
		off = next;
	}
	if (c->nr_fdes)
		qsort(c->fdes, c->nr_fdes, sizeof(*c->fdes), cmp_fde);
}

/* The offset of the FDE that may cover pc: 1, 0 none. */
static int find_fde(struct pv_cfi *c, uint64_t pc, uint64_t *off)
{
	if (c->table) {
		size_t esz = enc_size(c->table_enc), lo = 0, hi = c->nr_table;
		uint64_t best = 0;
		bool found = false;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			struct rd r = {c->table + mid * 2 * esz, c->table + (mid + 1) * 2 * esz, c->hdr,
				       c->hdr_vaddr, false};
			uint64_t loc = rd_enc(&r, c->table_enc, c->hdr_vaddr);
			uint64_t fde = rd_enc(&r, c->table_enc, c->hdr_vaddr);
			if (loc <= pc) {
				best = fde;
				found = true;
				lo = mid + 1;
			} else {
				hi = mid;
			}
		}
		if (!found || best < c->vaddr || best - c->vaddr >= c->size)
			return 0;
		*off = best - c->vaddr;
		return 1;
	}
	if (!c->indexed)
		build_index(c);
	size_t i = pv_upper_bound(c->fdes, c->nr_fdes, sizeof(*c->fdes), pc);
	/* overlapping FDEs: the nearest few below pc */
	for (size_t k = 0; k < 4 && i > 0; k++, i--)
		if (pc < c->fdes[i - 1].end) {
			*off = c->fdes[i - 1].off;
			return 1;
		}
	return 0;
}

/* The ABI's rules before any CIE (libdw's backends: x86_64_cfi.c, aarch64_cfi.c). */
static void abi_defaults(enum perfev_arch arch, struct pv_cfi_row *row)
{
	memset(row, 0, sizeof(*row));
	row->cfa = PV_CFA_UNDEF;
	if (arch == PERFEV_ARCH_AARCH64) {
		for (int i = 19; i <= 30; i++)
			row->r[i].kind = PV_RULE_SAME;
		row->r[31].kind = PV_RULE_VAL_OFFSET;
		row->ra = 30;
		return;
	}
	/* elfutils marks DWARF register 0 (its comment says rbx) same-value */
	static const int same[] = {0, 6, 12, 13, 14, 15, 16};
	for (size_t i = 0; i < PV_ARRAY_SIZE(same); i++)
		row->r[same[i]].kind = PV_RULE_SAME;
	row->r[7].kind = PV_RULE_VAL_OFFSET;
	row->ra = 16;
}

static void set_rule(struct pv_cfi_row *row, uint64_t reg, uint8_t kind, int64_t val)
{
	if (reg >= PV_CFI_NREGS)
		return;
	if (val < INT32_MIN || val > INT32_MAX) {
		if (kind == PV_RULE_REG)
			val = INT32_MAX; /* a register we never have */
		else
			row->bad = true;
	}
	row->r[reg].kind = kind;
	row->r[reg].val = (int32_t)val;
}

/*
 * Runs a CFA program over *row. cie_init (NULL while running the CIE's own
 * instructions) is the state DW_CFA_restore returns to. In an FDE, stops
 * at the first advance past pc. 0 or -1 (malformed).
 */
static int execute(const struct pv_cfi *c, const struct cie *ci, const uint8_t *p,
		   const uint8_t *end, const struct pv_cfi_row *cie_init, uint64_t loc, uint64_t pc,
		   struct pv_cfi_row *row)
{
	struct pv_cfi_row saved[REMEMBER_MAX];
	size_t depth = 0;
	struct rd r = {p, end, c->data, c->vaddr, false};
	int64_t daf = ci->data_align;
	while (r.p < r.end && !r.bad) {
		uint8_t op = *r.p++;
		uint64_t reg, delta = 0;
		bool advance = false;
		switch (op & 0xc0) {
		case 0x40: /* DW_CFA_advance_loc */
			delta = op & 0x3f;
			advance = true;
			break;
		case 0x80: /* DW_CFA_offset */
			reg = op & 0x3f;
			set_rule(row, reg, PV_RULE_OFFSET, (int64_t)(rd_uleb(&r) * (uint64_t)daf));
			continue;
		case 0xc0: /* DW_CFA_restore */
			reg = op & 0x3f;
			goto restore;
		default:
			break;
		}
		if (!advance) {
			uint64_t a, b;
			int64_t s;
			switch (op) {
			case 0x00: /* nop */
				continue;
			case 0x01: /* set_loc */
				if (!cie_init)
					return -1;
				a = rd_enc(&r, ci->fde_enc, 0);
				if (r.bad)
					return -1;
				if (pc < a)
					goto done;
				loc = a;
				continue;
			case 0x02: delta = rd_u(&r, 1); advance = true; break;
			case 0x03: delta = rd_u(&r, 2); advance = true; break;
			case 0x04: delta = rd_u(&r, 4); advance = true; break;
			case 0x1d: delta = rd_u(&r, 8); advance = true; break; /* MIPS_advance_loc8 */
			case 0x05: /* offset_extended */
				a = rd_uleb(&r);
				set_rule(row, a, PV_RULE_OFFSET, (int64_t)(rd_uleb(&r) * (uint64_t)daf));
				continue;
			case 0x06: /* restore_extended */
				reg = rd_uleb(&r);
				goto restore;
			case 0x07: set_rule(row, rd_uleb(&r), PV_RULE_UNDEF, 0); continue;
			case 0x08: set_rule(row, rd_uleb(&r), PV_RULE_SAME, 0); continue;
			case 0x09: /* register */
				a = rd_uleb(&r);
				b = rd_uleb(&r);
				set_rule(row, a, PV_RULE_REG, (int64_t)b);
				continue;
			case 0x0a: /* remember_state */
				if (depth >= REMEMBER_MAX)
					return -1;
				saved[depth++] = *row;
				continue;
			case 0x0b: /* restore_state */
				if (!depth)
					return -1;
				*row = saved[--depth];
				continue;
			case 0x0c: /* def_cfa */
				a = rd_uleb(&r);
				b = rd_uleb(&r);
				row->cfa = PV_CFA_REG;
				row->cfa_reg = a;
				row->cfa_off = (int64_t)b;
				continue;
			case 0x12: /* def_cfa_sf */
				a = rd_uleb(&r);
				s = rd_sleb(&r);
				row->cfa = PV_CFA_REG;
				row->cfa_reg = a;
				row->cfa_off = (int64_t)((uint64_t)s * (uint64_t)daf);
				continue;
			case 0x0d: /* def_cfa_register */
				a = rd_uleb(&r);
				if (row->cfa != PV_CFA_REG)
					row->cfa = PV_CFA_INVALID;
				row->cfa_reg = a;
				continue;
			case 0x0e: /* def_cfa_offset */
				a = rd_uleb(&r);
				if (row->cfa != PV_CFA_REG)
					row->cfa = PV_CFA_INVALID;
				row->cfa_off = (int64_t)a;
				continue;
			case 0x13: /* def_cfa_offset_sf */
				s = rd_sleb(&r);
				if (row->cfa != PV_CFA_REG)
					row->cfa = PV_CFA_INVALID;
				row->cfa_off = (int64_t)((uint64_t)s * (uint64_t)daf);
				continue;
			case 0x0f: /* def_cfa_expression: cfa_off = its bytes, cfa_reg = length */
				a = rd_uleb(&r);
				if (r.bad || a > (uint64_t)(r.end - r.p))
					return -1;
				row->cfa = PV_CFA_EXPR;
				row->cfa_off = (int64_t)(r.p - c->data);
				row->cfa_reg = a;
				r.p += a;
				continue;
			case 0x10: /* expression */
			case 0x16: /* val_expression */
				reg = rd_uleb(&r);
				b = (uint64_t)(r.p - c->data);
				a = rd_uleb(&r);
				if (r.bad || a > (uint64_t)(r.end - r.p))
					return -1;
				r.p += a;
				set_rule(row, reg, op == 0x10 ? PV_RULE_EXPR : PV_RULE_VAL_EXPR, (int64_t)b);
				continue;
			case 0x11: /* offset_extended_sf */
				a = rd_uleb(&r);
				s = rd_sleb(&r);
				set_rule(row, a, PV_RULE_OFFSET, (int64_t)((uint64_t)s * (uint64_t)daf));
				continue;
			case 0x14: /* val_offset */
				a = rd_uleb(&r);
				set_rule(row, a, PV_RULE_VAL_OFFSET, (int64_t)(rd_uleb(&r) * (uint64_t)daf));
				continue;
			case 0x15: /* val_offset_sf */
				a = rd_uleb(&r);
				s = rd_sleb(&r);
				set_rule(row, a, PV_RULE_VAL_OFFSET, (int64_t)((uint64_t)s * (uint64_t)daf));
				continue;
			case 0x2d: /* GNU_window_save; aarch64: negate_ra_state (pointer authentication) */
				if (c->arch == PERFEV_ARCH_AARCH64) {
					row->ra_signed = !row->ra_signed;
				} else {
					for (reg = 8; reg < 16; reg++)
						set_rule(row, reg, PV_RULE_REG, (int64_t)reg + 16);
					for (; reg < 32; reg++)
						set_rule(row, reg, PV_RULE_OFFSET, (int64_t)(reg - 16) * 8);
				}
				continue;
			case 0x2e: /* GNU_args_size */
				rd_uleb(&r);
				continue;
			case 0x2f: /* GNU_negative_offset_extended */
				a = rd_uleb(&r);
				b = rd_uleb(&r);
				set_rule(row, a, PV_RULE_OFFSET, (int64_t)((0 - b) * (uint64_t)daf));
				continue;
			default:
				return -1;
			}
		}
		/* the location advances: a new row starts */
		if (r.bad || !cie_init)
			return -1; /* not in a CIE's initial instructions */
		loc += delta * ci->code_align;
		if (pc < loc)
			goto done;
		continue;
	restore:
		if (!cie_init)
			return -1;
		if (reg < PV_CFI_NREGS)
			row->r[reg] = cie_init->r[reg];
	}
	if (r.bad)
		return -1;
done:
	return 0;
}

int pv_cfi_find_row(struct pv_cfi *c, uint64_t pc, struct pv_cfi_row *row)
{
	uint64_t off, start = 0, len = 0, next = 0;
	struct cie ci;
	const uint8_t *ib, *ie;
	if (!c || !c->size || !find_fde(c, pc, &off))
		return 0;
	int k = parse_fde(c, off, &ci, &start, &len, &ib, &ie, &next);
	if (k <= 0)
		return k < 0 ? -1 : 0;
	if (pc < start)
		return -1;
	if (pc - start >= len)
		return 0;
	struct pv_cfi_row init;
	abi_defaults(c->arch, &init);
	if (execute(c, &ci, ci.insns, ci.insns_end, NULL, 0, UINT64_MAX, &init) < 0)
		return -1;
	*row = init;
	if (execute(c, &ci, ib, ie, &init, start, pc, row) < 0 || row->bad)
		return -1;
	row->signal = ci.signal;
	row->ra = ci.ra > UINT32_MAX ? UINT32_MAX : (uint32_t)ci.ra;
	row->same = 0;
	row->nr_rules = 0;
	for (unsigned i = 0; i < PV_CFI_NREGS; i++) {
		if (row->r[i].kind == PV_RULE_SAME)
			row->same |= 1ull << i;
		else if (row->r[i].kind != PV_RULE_UNDEF)
			row->rules[row->nr_rules++] = (uint8_t)i;
	}
	return 1;
}

const struct pv_cfi_row *pv_cfi_row_at(struct pv_cfi *c, uint64_t pc)
{
	const struct pv_cfi_row *hit = pv_u64map_get(&c->rows, pc);
	if (hit)
		return hit == &pv_cfi_norow ? NULL : hit;
	struct pv_cfi_row row;
	bool ok = pv_cfi_find_row(c, pc, &row) > 0;
	if (c->rows.nr < ROW_CACHE_MAX) { /* full: rows are recomputed, not kept */
		if (!ok) {
			pv_u64map_put(&c->rows, pc, (void *)&pv_cfi_norow);
			return NULL;
		}
		if (c->used == c->nr_chunks * CHUNK_ROWS) {
			struct pv_cfi_row *chunk = malloc(CHUNK_ROWS * sizeof(*chunk));
			if (!chunk || pv_grow(&c->chunks, &c->cap_chunks, c->nr_chunks + 1,
					      sizeof(*c->chunks)) < 0) {
				free(chunk);
				goto uncached;
			}
			c->chunks[c->nr_chunks++] = chunk;
		}
		struct pv_cfi_row *slot = &c->chunks[c->used / CHUNK_ROWS][c->used % CHUNK_ROWS];
		*slot = row;
		if (pv_u64map_put(&c->rows, pc, slot) < 0)
			goto uncached;
		c->used++;
		return slot;
	}
uncached:
	if (!ok)
		return NULL;
	/* not cached: valid until the next call */
	static __thread struct pv_cfi_row scratch;
	scratch = row;
	return &scratch;
}
