/*
 * unwind_cfi_step.c — DWARF unwinding of one REGS_USER + STACK_USER sample
 * with our own CFI reader (unwind_cfi.c, unwind_cfi_eval.c) instead of
 * libdwfl, giving the frames libdwfl gives: the first frame's pc is looked
 * up as is, a later one's at pc - 1 unless the frame below was a signal
 * trampoline ('S'); .eh_frame first, then .debug_frame; where neither has
 * a row (or the pc is in no binary we can read) the architecture's
 * frame-pointer step (elfutils' x86_64_unwind / aarch64_unwind). An
 * undefined or zero return address is the outermost frame. Each binary's
 * CFI is parsed once and its rows memoized per pc; memory comes from the
 * sample's stack copy (then read-only file data), as for libdwfl.
 */
#include "unwind/unwind_int.h"

#include <string.h>

/* The binary and bias of the map holding addr, through a small cache;
 * *last (reset for each sample, whose maps do not change) short-cuts the
 * map lookup for the frames of one sample in one map. */
static struct pv_uw_file *lookup(struct perfev_unwinder *u, uint64_t addr, uint64_t *bias,
				 const struct pv_uw_mapcache **last)
{
	const struct perfev_unwind_sample *smp = u->smp;
	if (*last && addr >= (*last)->start && addr < (*last)->end) {
		*bias = (*last)->bias;
		return (*last)->f;
	}
	const struct perfev_map *m = pv_uw_find_map(smp, addr);
	if (!m || !m->path)
		return NULL;
	for (size_t i = 0; i < PV_ARRAY_SIZE(u->mapc); i++) {
		struct pv_uw_mapcache *c = &u->mapc[i];
		if (c->path && c->pid == smp->pid && c->start == m->start && c->end == m->end &&
		    c->pgoff == m->pgoff &&
		    (c->src_path == m->path || strcmp(c->path, m->path) == 0)) {
			c->src_path = m->path;
			*bias = c->bias;
			if (c->ok)
				*last = c;
			return c->ok ? c->f : NULL;
		}
	}
	if (!pv_uw_file_backed(m))
		return NULL;
	struct pv_uw_mapcache *c = &u->mapc[u->mapc_next++ % PV_ARRAY_SIZE(u->mapc)];
	*c = (struct pv_uw_mapcache){smp->pid, m->start, m->end, m->pgoff,
				     pv_strpool_add(u->pool, m->path), m->path, NULL, 0, false};
	c->f = pv_uw_get_file(u, m, smp->pid);
	c->ok = c->f && pv_uw_map_bias(c->f, m, &c->bias);
	if (c->ok && !c->f->is_dyn)
		c->bias = 0;
	*bias = c->bias;
	if (c->ok)
		*last = c;
	return c->ok ? c->f : NULL;
}

/* A section's bytes in an ELF image we own, or false. */
static bool section(const struct pv_elf *e, const char *name, const uint8_t **data, size_t *size,
		    uint64_t *vaddr)
{
	GElf_Shdr sh;
	if (!e->elf || !pv_elf_section(e->elf, name, &sh) || sh.sh_type == SHT_NOBITS ||
	    (sh.sh_flags & SHF_COMPRESSED) || sh.sh_offset > e->size ||
	    sh.sh_size > e->size - sh.sh_offset)
		return false;
	*data = (const uint8_t *)e->image + sh.sh_offset;
	*size = sh.sh_size;
	*vaddr = sh.sh_addr;
	return true;
}

static void load_cfi(struct perfev_unwinder *u, struct pv_uw_file *f)
{
	f->cfi_loaded = true;
	const struct pv_elf *bin = &f->dso->bin;
	const uint8_t *d = NULL, *h = NULL;
	size_t ds = 0, hs = 0;
	uint64_t dv = 0, hv = 0;
	if (section(bin, ".eh_frame", &d, &ds, &dv)) {
		if (!section(bin, ".eh_frame_hdr", &h, &hs, &hv))
			h = NULL;
		pv_cfi_init(&f->eh, u->arch, d, ds, dv, true, h, hs, hv);
	}
	/* .debug_frame: libdwfl takes it from the debug file when there is one */
	if (section(&f->dso->debug, ".debug_frame", &d, &ds, &dv) ||
	    section(bin, ".debug_frame", &d, &ds, &dv))
		pv_cfi_init(&f->dbg, u->arch, d, ds, dv, false, NULL, 0, 0);
}

/*
 * aarch64 pointer authentication: a function that signs its return address
 * (paciasp; its CFI says so with DW_CFA_AARCH64_negate_ra_state) saves x30
 * with an authentication code above the virtual-address bits. The caller's
 * address is the value with those bits clear, as xpaclri makes it: user
 * addresses have 48 bits, or 52 where the process maps memory above 2^48.
 * (Checking the code needs the process's keys; perf's samples carry none.)
 */
static uint64_t strip_pac(struct perfev_unwinder *u, uint64_t pc)
{
	if (!u->va_mask) {
		unsigned bits = 48;
		for (size_t i = 0; i < u->smp->nr_maps; i++)
			if (u->smp->maps[i].end > 1ull << 48)
				bits = 52;
		u->va_mask = (1ull << bits) - 1;
	}
	return pc & u->va_mask;
}

/* elfutils' frame-pointer step, used where there is no CFI. */
static bool fp_step(struct perfev_unwinder *u, const struct pv_cfi_regs *in,
		    struct pv_cfi_regs *out, uint64_t *pc)
{
	out->set = 0;
	if (u->arch == PERFEV_ARCH_AARCH64) {
		uint64_t lr = strip_pac(u, in->v[30]), fp = 0, sp = 0, nlr, nfp;
		if (!(in->set >> 30 & 1) || lr == 0)
			return false;
		*pc = lr;
		if (in->set >> 29 & 1)
			fp = in->v[29];
		if (in->set >> 31 & 1)
			sp = in->v[31];
		if (!pv_uw_read(u, fp + 8, &nlr))
			nlr = 0;
		if (!pv_uw_read(u, fp, &nfp))
			nfp = 0;
		out->v[30] = nlr;
		out->v[29] = nfp;
		out->v[31] = fp + 16;
		out->set = 1ull << 29 | 1ull << 30 | 1ull << 31;
		return fp == 0 || fp + 16 > sp;
	}
	uint64_t fp = in->v[6], sp = 0, prev, ret;
	if (!(in->set >> 6 & 1) || fp == 0)
		return false;
	if (in->set >> 7 & 1)
		sp = in->v[7];
	if (!pv_uw_read(u, fp, &prev))
		prev = 0;
	if (!pv_uw_read(u, fp + 8, &ret))
		return false;
	out->v[6] = prev;
	out->v[7] = fp + 16;
	out->set = 1ull << 6 | 1ull << 7;
	*pc = ret;
	return sp < fp + 16;
}

/* Unwinds the frame at pc (looked up at lpc): its caller's registers and pc. */
static enum pv_step step(struct perfev_unwinder *u, uint64_t lpc, const struct pv_cfi_regs *in,
			 struct pv_cfi_regs *out, uint64_t *pc, bool *signal,
			 const struct pv_uw_mapcache **last)
{
	*signal = false;
	uint64_t bias;
	struct pv_uw_file *f = lookup(u, lpc, &bias, last);
	if (f) {
		if (!f->cfi_loaded)
			load_cfi(u, f);
		unsigned nregs = u->arch == PERFEV_ARCH_AARCH64 ? 97 : 17;
		struct pv_cfi *c = &f->eh;
		const struct pv_cfi_row *row = pv_cfi_row_at(c, lpc - bias);
		if (!row) {
			c = &f->dbg;
			row = pv_cfi_row_at(c, lpc - bias);
		}
		if (row) {
			*signal = row->signal;
			const struct pv_cfi_stack stk = {u->smp->stack, u->sp, u->smp->stack_size};
			enum pv_step st = pv_cfi_apply(c, row, nregs, in, bias, u->smp->stack ? &stk : NULL,
						       pv_uw_read, u, out, pc);
			if (st == PV_STEP_PC && row->ra_signed)
				*pc = strip_pac(u, *pc);
			return st;
		}
	}
	return fp_step(u, in, out, pc) ? PV_STEP_PC : PV_STEP_ERROR;
}

int pv_cfi_unwind(struct perfev_unwinder *u, struct perfev_frame *frames, size_t max,
		  bool *to_root)
{
	uint64_t bias;
	const struct pv_uw_mapcache *last = NULL;
	*to_root = false;
	u->va_mask = 0;
	if (!max || !lookup(u, u->pc, &bias, &last))
		return 0; /* pc not in a file we can read (JIT, anon, missing) */
	struct pv_cfi_regs regs[2];
	struct pv_cfi_regs *cur = &regs[0], *next = &regs[1];
	memcpy(cur->v, u->regs, sizeof(uint64_t) * (size_t)PV_MIN(u->nr_regs, PV_CFI_NREGS));
	cur->set = (1ull << PV_MIN(u->nr_regs, PV_CFI_NREGS)) - 1;
	uint64_t pc = u->pc;
	bool initial = true, signal = false;
	size_t n = 0;
	for (;;) {
		uint64_t npc = 0;
		bool nsignal;
		enum pv_step st = step(u, initial || signal ? pc : pc - 1, cur, next, &npc, &nsignal,
				       &last);
		bool activation = initial || signal || (st == PV_STEP_PC && nsignal);
		frames[n] = (struct perfev_frame){pc, false, n > 0 && !activation};
		if (++n >= max || st != PV_STEP_PC) {
			*to_root = n < max && st == PV_STEP_UNDEF;
			return (int)n;
		}
		struct pv_cfi_regs *t = cur;
		cur = next;
		next = t;
		pc = npc;
		initial = false;
		signal = nsignal;
	}
}
