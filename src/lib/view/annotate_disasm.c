/*
 * annotate_disasm.c — a symbol's instructions as objdump (and so perf
 * annotate) prints them, through capstone: x86-64 in AT&T syntax (or
 * Intel's), aarch64; "mnemonic operands" in a 6-wide mnemonic column,
 * branch and call targets named ("jne    1290 <sum_div+0x20>"), x86
 * RIP-relative operands' addresses named in a comment ("# 2008 <tab+0x8>").
 */
#define _GNU_SOURCE
#include "view/annotate_int.h"

#include <capstone/capstone.h>
#include <ctype.h>
#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int open_arch(uint16_t machine, bool intel, csh *h)
{
	cs_err e;
	if (machine == EM_X86_64)
		e = cs_open(CS_ARCH_X86, CS_MODE_64, h);
	else if (machine == EM_AARCH64)
		e = cs_open(CS_ARCH_ARM64, CS_MODE_ARM, h);
	else
		return -EPROTONOSUPPORT;
	if (e != CS_ERR_OK)
		return -ENOMEM;
	cs_option(*h, CS_OPT_DETAIL, CS_OPT_ON);
	if (machine == EM_X86_64 && !intel)
		cs_option(*h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	return 0;
}

/* A decimal number capstone printed where objdump prints hex: an immediate
 * or displacement ("$1", "8(%rsp)", "eax, 1"), not a register's digits, a
 * hex number's, or an AT&T scale ("(%rax,%rdx,8)"). */
static bool decimal_at(const char *in, size_t i)
{
	if (!isdigit((unsigned char)in[i]) || (i > 0 && (isalnum((unsigned char)in[i - 1]) ||
							strchr("_%*.", in[i - 1]))))
		return false;
	size_t j = i;
	while (isdigit((unsigned char)in[j]))
		j++;
	if (isalnum((unsigned char)in[j]) || in[j] == ')' || (in[i] == '0' && in[i + 1] == 'x'))
		return false;
	return true;
}

/* objdump's spelling of capstone's operands: hex numbers, no blank after
 * commas, none around the operators of an Intel address, size keywords in
 * capitals ("QWORD PTR [rip+0xd8b]"). */
static void objdump_operands(const char *in, bool intel, bool x86, char *out, size_t len)
{
	size_t k = 0;
	int depth = 0;
	for (size_t i = 0; in[i] && k + 24 < len; i++) {
		char c = in[i];
		depth += c == '[' ? 1 : c == ']' ? -1 : 0;
		if (c == ' ' && i > 0 && in[i - 1] == ',' && x86)
			continue; /* (aarch64's objdump keeps them) */
		if (c == ' ' && depth > 0 && (strchr("+-*", in[i + 1]) || strchr("+-*", in[i - 1])))
			continue;
		if (x86 && decimal_at(in, i)) {
			char *end;
			unsigned long long v = strtoull(in + i, &end, 10);
			k += (size_t)snprintf(out + k, len - k, "0x%llx", v);
			i = (size_t)(end - in) - 1;
			continue;
		}
		out[k++] = c;
	}
	out[k] = '\0';
	if (!intel)
		return;
	char *p = strstr(out, " ptr ");
	if (p) { /* "qword ptr" */
		char *w = p;
		while (w > out && isalpha((unsigned char)w[-1]))
			w--;
		for (char *c = w; c < p + 4; c++)
			*c = (char)toupper((unsigned char)*c);
	}
}

/* objdump's AT&T mnemonic: capstone's size suffix ("testq", "retq") is
 * left out where a register operand says the size, or there is no operand
 * to size; "movl $0x0,(%rax)" keeps it. */
static const char *mnemonic(csh h, const cs_insn *in, uint16_t machine, bool intel)
{
	if (machine == EM_AARCH64 && !strcmp(in->mnemonic, "movz") && !strstr(in->op_str, "lsl"))
		return "mov"; /* objdump's alias of an unshifted movz */
	if (machine != EM_X86_64 || intel || !in->detail)
		return in->mnemonic;
	const char *base = cs_insn_name(h, in->id);
	size_t n = base ? strlen(base) : 0;
	if (!n || strlen(in->mnemonic) != n + 1 || strncmp(in->mnemonic, base, n) ||
	    !strchr("bwlq", in->mnemonic[n]))
		return in->mnemonic;
	const cs_x86 *x = &in->detail->x86;
	bool reg = x->op_count == 0;
	for (uint8_t i = 0; i < x->op_count; i++)
		reg |= x->operands[i].type == X86_OP_REG;
	if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM)
		reg = true; /* call/jmp/push of an immediate */
	return reg ? base : in->mnemonic;
}

/* The immediate a branch or call goes to, if it is one with a known target. */
static bool branch_target(const cs_insn *in, uint16_t machine, uint64_t *target)
{
	const cs_detail *d = in->detail;
	bool branch = false;
	for (uint8_t i = 0; d && i < d->groups_count; i++)
		branch |= d->groups[i] == CS_GRP_JUMP || d->groups[i] == CS_GRP_CALL;
	if (!branch)
		return false;
	if (machine == EM_X86_64) {
		const cs_x86 *x = &d->x86;
		if (x->op_count == 1 && x->operands[0].type == X86_OP_IMM) {
			*target = (uint64_t)x->operands[0].imm;
			return true;
		}
		return false;
	}
	const cs_arm64 *m = &d->arm64; /* b, bl, b.cond: op 0; cbz: op 1; tbz: op 2 */
	if (m->op_count && m->operands[m->op_count - 1].type == ARM64_OP_IMM) {
		*target = (uint64_t)m->operands[m->op_count - 1].imm;
		return true;
	}
	return false;
}

/* The address an x86 RIP-relative memory operand refers to. */
static bool rip_relative(const cs_insn *in, uint16_t machine, uint64_t *addr)
{
	if (machine != EM_X86_64 || !in->detail)
		return false;
	const cs_x86 *x = &in->detail->x86;
	for (uint8_t i = 0; i < x->op_count; i++)
		if (x->operands[i].type == X86_OP_MEM && x->operands[i].mem.base == X86_REG_RIP) {
			*addr = in->address + in->size + (uint64_t)x->operands[i].mem.disp;
			return true;
		}
	return false;
}

static void insn_text(struct pv_ann_build *b, csh h, const cs_insn *in, uint16_t machine, char *out,
		      size_t len)
{
	const char *mn = mnemonic(h, in, machine, b->a->o.intel);
	char ops[256], name[256];
	uint64_t at;
	if (branch_target(in, machine, &at)) {
		int n = snprintf(out, len, "%-6s %" PRIx64, mn, at);
		if (pv_ann_name_addr(b, at, name, sizeof(name)) && n > 0 && (size_t)n < len)
			snprintf(out + n, len - (size_t)n, " <%s>", name);
		return;
	}
	objdump_operands(in->op_str, b->a->o.intel, machine == EM_X86_64, ops, sizeof(ops));
	int n = ops[0] ? snprintf(out, len, "%-6s %s", mn, ops) : snprintf(out, len, "%s", mn);
	if (n > 0 && (size_t)n < len && rip_relative(in, machine, &at)) {
		int m = snprintf(out + n, len - (size_t)n, "        # %" PRIx64, at);
		/* data: the symbolizer knows functions only, so a name is given
		 * where one starts, never an offset into the function before */
		if (m > 0 && (size_t)(n + m) < len && pv_ann_name_addr(b, at, name, sizeof(name)) &&
		    !strchr(name, '+'))
			snprintf(out + n + m, len - (size_t)(n + m), " <%s>", name);
	}
}

static double percent_of(const struct pv_ann_build *b, uint64_t samples, uint64_t period)
{
	const struct perfev_annotation *a = b->a;
	uint64_t num = period, den = b->s->period;
	switch (a->o.percent_type) {
	case PERFEV_ANNOTATE_GLOBAL_PERIOD: den = a->total_period; break;
	case PERFEV_ANNOTATE_LOCAL_HITS: num = samples, den = b->s->samples; break;
	case PERFEV_ANNOTATE_GLOBAL_HITS: num = samples, den = a->total_samples; break;
	default: break;
	}
	return den ? 100.0 * (double)num / (double)den : 0.0;
}

/* Adds the instruction's row (after its source rows), its hits counted. */
static int add_insn(struct pv_ann_build *b, uint64_t addr, const uint8_t *bytes, size_t n,
		    const char *text, size_t *hit)
{
	struct perfev_annotate_row r = {.kind = PERFEV_ANNOTATE_INSN, .addr = addr, .bytes = bytes, .nr_bytes = n};
	while (*hit < b->nr_hits && b->hits[*hit].addr < addr)
		(*hit)++; /* (inside the previous instruction: not at a boundary) */
	for (; *hit < b->nr_hits && b->hits[*hit].addr < addr + n; (*hit)++) {
		r.samples += b->hits[*hit].samples;
		r.period += b->hits[*hit].period;
	}
	r.percent = percent_of(b, r.samples, r.period);
	r.text = pv_strpool_add(b->a->pool, text);
	if (!r.text)
		return -ENOMEM;
	if (!b->a->o.no_source)
		pv_ann_source_rows(b, &r);
	return pv_ann_row_add(b, &r) ? 0 : -ENOMEM;
}

int pv_ann_disasm(struct pv_ann_build *b, const uint8_t *code, size_t len, uint64_t start,
		  uint16_t machine)
{
	csh h;
	int r = open_arch(machine, b->a->o.intel, &h);
	if (r == -EPROTONOSUPPORT)
		return 0; /* the caller's note: nothing decoded */
	if (r < 0)
		return pv_error(ENOMEM, "capstone: cannot open a disassembler");
	cs_insn *in = cs_malloc(h);
	const uint8_t *p = code;
	size_t left = len, hit = 0;
	uint64_t at = start;
	char text[512];
	while (in && left && r >= 0) {
		const uint8_t *here = p;
		uint64_t addr = at;
		if (cs_disasm_iter(h, &p, &left, &at, in)) {
			insn_text(b, h, in, machine, text, sizeof(text));
			r = add_insn(b, addr, here, in->size, text, &hit);
		} else { /* as objdump: one byte it cannot decode, and on */
			size_t skip = machine == EM_AARCH64 ? PV_MIN(left, (size_t)4) : 1;
			r = add_insn(b, addr, here, skip, "(bad)", &hit);
			p += skip, left -= skip, at += skip;
		}
	}
	if (!in)
		r = -ENOMEM;
	cs_free(in, 1);
	cs_close(&h);
	return r < 0 ? pv_error(-r, "out of memory disassembling %s", b->s->symbol) : 0;
}
