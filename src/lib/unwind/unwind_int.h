/* unwind_int.h — private parts of the unwinder shared by its files. */
#ifndef PERFEV_UNWIND_INT_H
#define PERFEV_UNWIND_INT_H

#include "perfev/unwind.h"

/* The architecture this library was built for (PERFEV_ARCH_HOST if neither). */
enum perfev_arch pv_host_arch(void);

/* Where the unwinder finds the sampled process's maps: an array, or a
 * lookup (find_map set), as in struct perfev_unwind_sample. */
struct pv_unwind_maps {
	const struct perfev_map *maps;
	size_t nr_maps;
	const struct perfev_map *(*find_map)(void *ctx, uint64_t addr);
	void *ctx;
	/* the caller's symbolizer (or NULL): the unwinder created for it finds
	 * and caches binaries there, so each is loaded once for both */
	struct perfev_symbolizer *symbolizer;
};

struct perfev_sample;
/*
 * The frames of sample s (process pid), leaf first, into out[max]: with
 * want_chain, its callchain's frames; for REGS_USER + STACK_USER samples
 * the kernel part of the callchain then the user stack unwound by *u
 * (created on first use). 0 when there is none (the caller falls back to
 * the ip). *dwarf (if set): -1 when unwinding was not tried, else the
 * number of unwound frames (the last ones of out).
 */
size_t pv_sample_frames(struct perfev_unwinder **u, const struct perfev_sample *s, int32_t pid,
			const struct pv_unwind_maps *m, bool want_chain, struct perfev_frame *out,
			size_t max, int *dwarf);

/* ---- DWARF CFI: our own unwinder (unwind_cfi*.c) ------------------------ */
#include <stdbool.h>
#include "core/internal.h"
#include "symbols/symbols_int.h"

/* Rules are kept for DWARF registers 0..PV_CFI_NREGS-1: x86_64 uses 0..16
 * (16: the return address), aarch64 0..31 (30: lr, 31: sp). */
#define PV_CFI_NREGS 33

enum pv_rule { PV_RULE_UNDEF, PV_RULE_SAME, PV_RULE_OFFSET, PV_RULE_VAL_OFFSET, PV_RULE_REG,
	       PV_RULE_EXPR, PV_RULE_VAL_EXPR };
enum pv_cfa { PV_CFA_UNDEF, PV_CFA_REG, PV_CFA_EXPR, PV_CFA_INVALID };

/* The unwind table row at one pc: how to find the CFA and each register of
 * the caller. Expressions are offsets in the section (of their ULEB128
 * length, followed by the bytes). */
struct pv_cfi_row {
	uint8_t cfa;      /* enum pv_cfa */
	bool signal;      /* the CIE has augmentation 'S' (a signal trampoline) */
	bool ra_signed;   /* aarch64: DW_CFA_AARCH64_negate_ra_state toggled it on */
	uint32_t ra;      /* the return address column */
	uint64_t cfa_reg;
	int64_t cfa_off;  /* PV_CFA_REG: offset; PV_CFA_EXPR: the expression */
	bool bad;         /* a rule's value does not fit (no real CFI has one) */
	/* offsets (already factored), register numbers, expression offsets */
	struct { int32_t val; uint8_t kind; } r[PV_CFI_NREGS];
	/* derived by pv_cfi_find_row, for a quick step: the registers whose
	 * rule is same-value, and the others that are not undefined */
	uint64_t same;
	uint8_t nr_rules;
	uint8_t rules[PV_CFI_NREGS];
};

struct pv_cfi_fde {
	uint64_t start; /* first: pv_upper_bound keys on it */
	uint64_t end;
	uint64_t off;   /* of the FDE in the section */
};

/* One section of CFI (.eh_frame or .debug_frame) of one binary. */
struct pv_cfi {
	enum perfev_arch arch;
	const uint8_t *data;
	size_t size;
	uint64_t vaddr;   /* the section's address (for pcrel pointers) */
	bool eh;          /* .eh_frame, else .debug_frame */
	/* .eh_frame_hdr binary search table, if usable */
	const uint8_t *table;
	size_t nr_table;
	uint8_t table_enc;
	uint64_t hdr_vaddr;
	const uint8_t *hdr;
	size_t hdr_size;
	/* otherwise every FDE by address, built on first use */
	struct pv_cfi_fde *fdes;
	size_t nr_fdes;
	bool indexed;
	/* rows already computed: vaddr -> struct pv_cfi_row * (or &pv_cfi_norow) */
	struct pv_u64map rows;
	struct pv_cfi_row **chunks;
	size_t nr_chunks, cap_chunks, used;
};
extern const struct pv_cfi_row pv_cfi_norow;

/* Sets up c over a section's bytes (not copied); hdr (may be NULL) is the
 * .eh_frame_hdr. Nothing is parsed yet. */
void pv_cfi_init(struct pv_cfi *c, enum perfev_arch arch, const uint8_t *data, size_t size,
		 uint64_t vaddr, bool eh, const uint8_t *hdr, size_t hdr_size, uint64_t hdr_vaddr);
void pv_cfi_fini(struct pv_cfi *c);
/* The row for pc (an address in the binary's own vaddr space): 1 and *row,
 * 0 when no FDE covers pc, -1 when the CFI is malformed. Not cached. */
int pv_cfi_find_row(struct pv_cfi *c, uint64_t pc, struct pv_cfi_row *row);
/* The same, memoized per pc: NULL when there is no row. */
const struct pv_cfi_row *pv_cfi_row_at(struct pv_cfi *c, uint64_t pc);

/* Registers of one frame; bit i of set: register i is known. */
struct pv_cfi_regs {
	uint64_t v[PV_CFI_NREGS];
	uint64_t set;
};
/* Reads the 8 bytes at addr of the unwound process. */
typedef bool (*pv_cfi_read_fn)(void *ctx, uint64_t addr, uint64_t *val);

enum pv_expr_kind { PV_EXPR_CFA, PV_EXPR_LOCATION, PV_EXPR_VALUE };
/* Evaluates a DWARF expression of CFI (bytes [p, p+len)) as libdwfl does:
 * LOCATION and VALUE start with the CFA pushed, LOCATION reads memory at
 * the result. Bounded (256 values, 4096 steps). false: not computable. */
bool pv_cfi_expr(const uint8_t *p, size_t len, enum pv_expr_kind kind, const struct pv_cfi_regs *r,
		 bool cfa_ok, uint64_t cfa, uint64_t bias, pv_cfi_read_fn rd, void *ctx, uint64_t *out);

/* The stack copy of a sample (data[i] is the byte at sp + i): reads inside
 * it need no call of rd. */
struct pv_cfi_stack {
	const uint8_t *data;
	uint64_t sp, size;
};

enum pv_step { PV_STEP_ERROR, PV_STEP_UNDEF, PV_STEP_PC };
/* The caller's registers (*out) and pc from the callee's (*in) by row, as
 * libdwfl's handle_cfi computes them. nregs: the architecture's frame
 * registers; stk (may be NULL) is read directly, other memory through rd.
 * PV_STEP_UNDEF: the outermost frame. */
enum pv_step pv_cfi_apply(const struct pv_cfi *c, const struct pv_cfi_row *row, unsigned nregs,
			  const struct pv_cfi_regs *in, uint64_t bias, const struct pv_cfi_stack *stk,
			  pv_cfi_read_fn rd, void *ctx, struct pv_cfi_regs *out, uint64_t *pc);

/* The CFI unwinder of one sample (unwind_cfi_step.c): 0 when the sample's
 * pc is not in a binary we can read, else the number of frames; *to_root
 * set when the outermost frame was reached. */
struct perfev_unwinder;
int pv_cfi_unwind(struct perfev_unwinder *u, struct perfev_frame *frames, size_t max,
		  bool *to_root);

/* ---- the unwinder object, shared by unwind_dwarf.c (libdwfl) and
 * unwind_cfi_step.c (our CFI unwinder) ---------------------------------- */
/* What the unwinder adds to a binary the symbolizer found. */
struct pv_uw_file {
	struct pv_dso *dso;   /* dso->bin.elf is set */
	uint64_t first_vaddr; /* of the first PT_LOAD, aligned down (libdwfl's base) */
	bool is_dyn;
	bool cfi_loaded;
	struct pv_cfi eh, dbg; /* .eh_frame (+ .eh_frame_hdr), .debug_frame */
};

/* A map recently looked up: its file and load bias. */
struct pv_uw_mapcache {
	int pid;
	uint64_t start, end, pgoff;
	const char *path;     /* pooled */
	const char *src_path; /* the map's own string last seen (compared first) */
	struct pv_uw_file *f;
	uint64_t bias;
	bool ok;
};

struct uw_proc;
struct perfev_unwinder {
	enum perfev_arch arch;
	bool libdw; /* unwind with libdwfl (PERFEV_UNWIND=libdw) */
	struct uw_proc *procs;
	size_t nr_procs, cap_procs;
	struct pv_strpool *pool;
	/* binaries are found and cached as the symbolizer does it */
	struct perfev_symbolizer *finder;
	bool shared_finder; /* finder is the caller's, not ours to free */
	struct pv_u64map files; /* struct pv_dso * -> struct pv_uw_file */
	struct pv_uw_mapcache mapc[8];
	unsigned mapc_next;
	struct perfev_unwind_stats st;
	/* the sample being unwound */
	const struct perfev_unwind_sample *smp;
	struct uw_proc *proc;
	uint64_t regs[32];
	int nr_regs;
	uint64_t pc, sp;
	uint64_t va_mask; /* aarch64: the user address bits (0: not yet known) */
	struct perfev_frame *out;
	size_t max, n;
};

/* Makes u find binaries through s (which must outlive u) instead of its
 * own symbolizer; only before u has unwound anything. */
void pv_unwinder_share_symbolizer(struct perfev_unwinder *u, struct perfev_symbolizer *s);
/* Chooses the engine of u: libdwfl (true) or our CFI unwinder. */
void pv_unwinder_use_libdw(struct perfev_unwinder *u, bool libdw);
/* The map holding addr in the sample's process, or NULL. */
const struct perfev_map *pv_uw_find_map(const struct perfev_unwind_sample *smp, uint64_t addr);
/* Whether m maps a file we may read. */
bool pv_uw_file_backed(const struct perfev_map *m);
/* The binary mapped by m (found once); NULL if there is none. */
struct pv_uw_file *pv_uw_get_file(struct perfev_unwinder *u, const struct perfev_map *m, int pid);
/* The load bias of f mapped by m (libdwfl's module bias). */
bool pv_uw_map_bias(const struct pv_uw_file *f, const struct perfev_map *m, uint64_t *bias);
/* 8 bytes of the sampled process at addr: from the stack copy, else from a
 * mapped file. */
bool pv_uw_read(void *unwinder, uint64_t addr, uint64_t *val);

#endif
