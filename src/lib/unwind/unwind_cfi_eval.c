/*
 * unwind_cfi_eval.c — one unwind step from a CFI row: the CFA, then each
 * register of the caller by its rule, and the DWARF expressions CFI uses
 * (e.g. the x86_64 PLT's DW_CFA_def_cfa_expression: breg7 breg16 lit15
 * and lit11 ge lit3 shl plus). Semantics are libdwfl's (frame_unwind.c:
 * handle_cfi, expr_eval), so both unwinders give the same frames: a rule
 * that cannot be computed leaves its register unknown; an undefined return
 * address, or 0, ends the stack. A small bounded stack machine: at most
 * 256 values, 4096 steps, 256 operations per expression.
 */
#include "unwind/unwind_int.h"

#include <string.h>

enum { STACK_MAX = 256, STEPS_MAX = 4096, OPS_MAX = 256 };

struct op {
	uint32_t off; /* in the expression */
	uint8_t code;
	uint64_t a, b;
};

static bool leb(const uint8_t **p, const uint8_t *end, uint64_t *v, bool sign)
{
	uint64_t x = 0;
	for (unsigned shift = 0; *p < end;) {
		uint8_t b = *(*p)++;
		if (shift < 64)
			x |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			if (sign && shift < 64 && (b & 0x40))
				x |= ~0ull << shift;
			*v = x;
			return true;
		}
	}
	return false;
}

static bool fixed(const uint8_t **p, const uint8_t *end, size_t n, bool sign, uint64_t *v)
{
	if ((size_t)(end - *p) < n)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++)
		x |= (uint64_t)(*p)[i] << (8 * i);
	if (sign && n < 8 && (x >> (8 * n - 1) & 1))
		x |= ~0ull << (8 * n);
	*p += n;
	*v = x;
	return true;
}

/* Decodes the expression; false for an operation we do not evaluate. */
static bool decode(const uint8_t *p, size_t len, struct op *ops, size_t *nops)
{
	const uint8_t *start = p, *end = p + len;
	size_t n = 0;
	while (p < end) {
		if (n >= OPS_MAX)
			return false;
		struct op *o = &ops[n++];
		o->off = (uint32_t)(p - start);
		o->code = *p++;
		o->a = o->b = 0;
		uint8_t c = o->code;
		bool ok = true;
		if (c >= 0x30 && c <= 0x6f) /* lit0-31, reg0-31 */
			continue;
		if (c >= 0x70 && c <= 0x8f) { /* breg0-31 */
			ok = leb(&p, end, &o->a, true);
		} else {
			switch (c) {
			case 0x03: ok = fixed(&p, end, 8, false, &o->a); break; /* addr */
			case 0x08: case 0x15: case 0x94: ok = fixed(&p, end, 1, false, &o->a); break;
			case 0x09: ok = fixed(&p, end, 1, true, &o->a); break;
			case 0x0a: ok = fixed(&p, end, 2, false, &o->a); break;
			case 0x0b: case 0x28: case 0x2f: ok = fixed(&p, end, 2, true, &o->a); break;
			case 0x0c: ok = fixed(&p, end, 4, false, &o->a); break;
			case 0x0d: ok = fixed(&p, end, 4, true, &o->a); break;
			case 0x0e: case 0x0f: ok = fixed(&p, end, 8, false, &o->a); break;
			case 0x10: case 0x23: case 0x90: ok = leb(&p, end, &o->a, false); break;
			case 0x11: ok = leb(&p, end, &o->a, true); break;
			case 0x92: ok = leb(&p, end, &o->a, false) && leb(&p, end, &o->b, true); break;
			case 0x06: case 0x12: case 0x13: case 0x14: case 0x16: case 0x17:
			case 0x19: case 0x1a: case 0x1b: case 0x1c: case 0x1d: case 0x1e: case 0x1f:
			case 0x20: case 0x21: case 0x22: case 0x24: case 0x25: case 0x26: case 0x27:
			case 0x29: case 0x2a: case 0x2b: case 0x2c: case 0x2d: case 0x2e:
			case 0x96: case 0x9c: case 0x9f:
				break;
			default:
				return false;
			}
		}
		if (!ok)
			return false;
	}
	*nops = n;
	return true;
}

static bool reg(const struct pv_cfi_regs *r, uint64_t n, uint64_t *v)
{
	if (n >= PV_CFI_NREGS || !(r->set >> n & 1))
		return false;
	*v = r->v[n];
	return true;
}

bool pv_cfi_expr(const uint8_t *p, size_t len, enum pv_expr_kind kind, const struct pv_cfi_regs *r,
		 bool cfa_ok, uint64_t cfa, uint64_t bias, pv_cfi_read_fn rd, void *ctx, uint64_t *out)
{
	struct op ops[OPS_MAX];
	size_t nops;
	if (!decode(p, len, ops, &nops))
		return false;
	if (nops == 0 && kind == PV_EXPR_CFA)
		return false;
	uint64_t st[STACK_MAX];
	size_t n = 0;
	bool loc = false;
	if (kind != PV_EXPR_CFA) {
		if (!cfa_ok)
			return false;
		st[n++] = cfa;
		loc = true;
	}
	size_t steps = 0;
#define NEED(k) do { if (n < (k)) return false; } while (0)
#define PUSH(v) do { uint64_t pv_ = (v); if (n >= STACK_MAX) return false; st[n] = pv_; n++; } while (0)
	for (size_t i = 0; i < nops; i++) {
		if (++steps > STEPS_MAX)
			return false;
		const struct op *o = &ops[i];
		uint8_t c = o->code;
		uint64_t x, y;
		if (c >= 0x30 && c <= 0x4f) { PUSH((uint64_t)(c - 0x30)); continue; }
		if (c >= 0x50 && c <= 0x6f) {
			if (!reg(r, c - 0x50u, &x))
				return false;
			PUSH(x);
			continue;
		}
		if (c >= 0x70 && c <= 0x8f) {
			if (!reg(r, c - 0x70u, &x))
				return false;
			PUSH(x + o->a);
			continue;
		}
		switch (c) {
		case 0x03: PUSH(o->a + bias); break;
		case 0x08: case 0x09: case 0x0a: case 0x0b: case 0x0c: case 0x0d: case 0x0e:
		case 0x0f: case 0x10: case 0x11:
			PUSH(o->a);
			break;
		case 0x90:
			if (!reg(r, o->a, &x))
				return false;
			PUSH(x);
			break;
		case 0x92:
			if (!reg(r, o->a, &x))
				return false;
			PUSH(x + o->b);
			break;
		case 0x12: NEED(1); PUSH(st[n - 1]); break;
		case 0x13: NEED(1); n--; break;
		case 0x14: NEED(2); PUSH(st[n - 2]); break;
		case 0x15:
			if (o->a >= n)
				return false;
			PUSH(st[n - 1 - o->a]);
			break;
		case 0x16: NEED(2); x = st[n - 1]; st[n - 1] = st[n - 2]; st[n - 2] = x; break;
		case 0x17: /* rot: (a b c -- c a b) */
			NEED(3);
			x = st[n - 1];
			st[n - 1] = st[n - 2];
			st[n - 2] = st[n - 3];
			st[n - 3] = x;
			break;
		case 0x06: case 0x94: /* deref, deref_size: a whole word is read */
			NEED(1);
			if (c == 0x94 && o->a > 8)
				return false;
			if (!rd(ctx, st[n - 1], &x))
				return false;
			if (c == 0x94 && o->a < 8)
				x &= (1ull << (o->a * 8)) - 1;
			st[n - 1] = x;
			break;
		case 0x19: NEED(1); if ((int64_t)st[n - 1] < 0) st[n - 1] = 0 - st[n - 1]; break;
		case 0x1f: NEED(1); st[n - 1] = 0 - st[n - 1]; break;
		case 0x20: NEED(1); st[n - 1] = ~st[n - 1]; break;
		case 0x23: NEED(1); st[n - 1] += o->a; break;
		case 0x1a: case 0x1b: case 0x1c: case 0x1d: case 0x1e: case 0x21: case 0x22:
		case 0x24: case 0x25: case 0x26: case 0x27: case 0x29: case 0x2a: case 0x2b:
		case 0x2c: case 0x2d: case 0x2e: {
			NEED(2);
			y = st[--n];
			x = st[n - 1];
			int64_t sx = (int64_t)x, sy = (int64_t)y;
			switch (c) {
			case 0x1a: x &= y; break;
			case 0x1b: /* signed div */
				if (!y)
					return false;
				x = sy == -1 ? 0 - x : (uint64_t)(sx / sy);
				break;
			case 0x1c: x -= y; break;
			case 0x1d: if (!y) return false; x %= y; break;
			case 0x1e: x *= y; break;
			case 0x21: x |= y; break;
			case 0x22: x += y; break;
			case 0x24: x <<= (y & 63); break;
			case 0x25: x >>= (y & 63); break;
			case 0x26: x = (uint64_t)(sx >> (y & 63)); break;
			case 0x27: x ^= y; break;
			case 0x29: x = sx == sy; break;
			case 0x2a: x = sx >= sy; break;
			case 0x2b: x = sx > sy; break;
			case 0x2c: x = sx <= sy; break;
			case 0x2d: x = sx < sy; break;
			case 0x2e: x = sx != sy; break;
			}
			st[n - 1] = x;
			break;
		}
		case 0x28: /* bra */
			NEED(1);
			if (!st[--n])
				break;
			/* fall through */
		case 0x2f: { /* skip: to an operation's start (or, for a value, the end) */
			int64_t to = (int64_t)o->off + 3 + (int64_t)o->a;
			if (kind == PV_EXPR_VALUE && to == (int64_t)len) {
				i = nops - 1;
				break;
			}
			size_t lo = 0, hi = nops;
			while (lo < hi) {
				size_t mid = (lo + hi) / 2;
				if ((int64_t)ops[mid].off < to)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo >= nops || (int64_t)ops[lo].off != to)
				return false;
			i = lo - 1; /* the loop's increment lands on it */
			break;
		}
		case 0x96: break;
		case 0x9c: /* call_frame_cfa: libdwfl allows it in register rules */
			if (kind == PV_EXPR_CFA || !cfa_ok)
				return false;
			PUSH(cfa);
			loc = true;
			break;
		case 0x9f: loc = false; break;
		}
	}
#undef NEED
#undef PUSH
	if (kind == PV_EXPR_VALUE)
		loc = false;
	if (n == 0)
		return false;
	uint64_t v = st[n - 1];
	if (loc && !rd(ctx, v, &v))
		return false;
	*out = v;
	return true;
}

/* A register rule's expression: its ULEB128 length then the bytes, at off. */
static bool rule_expr(const struct pv_cfi *c, int64_t off, const uint8_t **p, size_t *len)
{
	if (off < 0 || (uint64_t)off >= c->size)
		return false;
	const uint8_t *q = c->data + off, *end = c->data + c->size;
	uint64_t l;
	if (!leb(&q, end, &l, false) || l > (uint64_t)(end - q))
		return false;
	*p = q;
	*len = (size_t)l;
	return true;
}

static inline bool mem(const struct pv_cfi_stack *stk, pv_cfi_read_fn rd, void *ctx,
		       uint64_t addr, uint64_t *v)
{
	if (stk && stk->size >= 8 && addr >= stk->sp && addr - stk->sp <= stk->size - 8) {
		memcpy(v, stk->data + (addr - stk->sp), 8);
		return true;
	}
	return rd(ctx, addr, v);
}

enum pv_step pv_cfi_apply(const struct pv_cfi *c, const struct pv_cfi_row *row, unsigned nregs,
			  const struct pv_cfi_regs *in, uint64_t bias, const struct pv_cfi_stack *stk,
			  pv_cfi_read_fn rd, void *ctx, struct pv_cfi_regs *out, uint64_t *pc)
{
	uint64_t cfa = 0;
	bool cfa_ok = false;
	if (row->cfa == PV_CFA_REG) {
		cfa_ok = reg(in, row->cfa_reg, &cfa);
		cfa += (uint64_t)row->cfa_off;
	} else if (row->cfa == PV_CFA_EXPR && row->cfa_off >= 0 &&
		   (uint64_t)row->cfa_off <= c->size && row->cfa_reg <= c->size - row->cfa_off) {
		cfa_ok = pv_cfi_expr(c->data + row->cfa_off, row->cfa_reg, PV_EXPR_CFA, in, false, 0,
				     bias, rd, ctx, &cfa);
	}
	unsigned nr = PV_MIN(nregs, (unsigned)PV_CFI_NREGS);
	uint64_t live = nr >= 64 ? ~0ull : (1ull << nr) - 1;
	/* same-value registers keep the callee's value (if it has one) */
	memcpy(out->v, in->v, nr * sizeof(out->v[0]));
	out->set = in->set & row->same & live;
	for (unsigned k = 0; k < row->nr_rules; k++) {
		unsigned i = row->rules[k];
		if (i >= nr)
			continue;
		uint64_t v = 0;
		const uint8_t *p;
		size_t len;
		int64_t val = row->r[i].val;
		switch (row->r[i].kind) {
		case PV_RULE_OFFSET:
			if (!cfa_ok || !mem(stk, rd, ctx, cfa + (uint64_t)val, &v))
				continue;
			break;
		case PV_RULE_VAL_OFFSET:
			if (!cfa_ok)
				continue;
			v = cfa + (uint64_t)val;
			break;
		case PV_RULE_REG:
			if (!reg(in, (uint64_t)val, &v))
				continue;
			break;
		case PV_RULE_EXPR:
		case PV_RULE_VAL_EXPR:
			if (!rule_expr(c, val, &p, &len) ||
			    !pv_cfi_expr(p, len, row->r[i].kind == PV_RULE_EXPR ? PV_EXPR_LOCATION
										: PV_EXPR_VALUE,
					 in, cfa_ok, cfa, bias, rd, ctx, &v))
				continue;
			break;
		default:
			continue;
		}
		out->v[i] = v;
		out->set |= 1ull << i;
	}
	if (row->ra < nr && row->r[row->ra].kind == PV_RULE_UNDEF)
		return PV_STEP_UNDEF;
	if (row->ra >= nr)
		return PV_STEP_ERROR;
	/* libdwfl (0.188): a return address that cannot be computed (e.g. read
	 * past the stack copy) is taken as the end of the stack */
	if (!(out->set >> row->ra & 1))
		return PV_STEP_UNDEF;
	*pc = out->v[row->ra];
	return *pc ? PV_STEP_PC : PV_STEP_UNDEF;
}
