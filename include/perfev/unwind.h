/*
 * perfev/unwind.h — call stacks of samples: frame-pointer chains from
 * PERF_SAMPLE_CALLCHAIN and DWARF unwinding of PERF_SAMPLE_REGS_USER +
 * PERF_SAMPLE_STACK_USER (a DWARF CFI unwinder over the copied stack and the
 * mapped ELF files' .eh_frame / .debug_frame, giving the frames libdw's
 * unwinder gives, as `perf record --call-graph dwarf` needs; libdw's own
 * is used instead when the environment has PERFEV_UNWIND=libdw).
 *
 * Frames come leaf first. A frame's ip is the address as found; frames whose
 * ip is a return address (every frame but the first of each context) have
 * return_addr set: resolve them with PERFEV_RESOLVE_RETURN_ADDR so the call
 * instruction, not the one after it, is named.
 */
#ifndef PERFEV_UNWIND_H
#define PERFEV_UNWIND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/abi.h"
#include "perfev/location.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_frame {
	uint64_t ip;
	bool kernel;      /* a kernel address (from the kernel part of a callchain) */
	bool return_addr; /* ip is a return address (look up ip - 1) */
};

/*
 * Turns a PERF_SAMPLE_CALLCHAIN array (nr entries) into frames: context
 * markers (PERF_CONTEXT_KERNEL, _USER, _HV, _GUEST*) are dropped and set
 * the kernel flag of the entries that follow, as perf does. Guest and
 * hypervisor entries are dropped. Writes at most max frames; returns how
 * many were written.
 */
PERFEV_API size_t perfev_callchain_frames(const uint64_t *ips, uint64_t nr,
					  struct perfev_frame *out, size_t max);

/* Architectures of the registers in REGS_USER samples. */
enum perfev_arch {
	PERFEV_ARCH_HOST = 0,
	PERFEV_ARCH_X86_64 = 1,
	PERFEV_ARCH_AARCH64 = 2,
};

/*
 * The sample_regs_user mask DWARF unwinding needs on arch (the registers
 * libdw's CFI may use: all general-purpose ones, sp and pc). 0 for an
 * unknown arch.
 */
PERFEV_API uint64_t perfev_unwind_regs_mask(enum perfev_arch arch);

/*
 * A sample_regs_intr / sample_regs_user mask of this machine's registers
 * by perf's names ("ax,bx,r15" on x86_64, "x0,lr,sp,pc" on arm64; any
 * case): NULL names gives perf record -I's default, every general-purpose
 * register the kernel samples. 0 with perfev_errmsg() naming the register
 * it does not know (and the ones it does).
 */
PERFEV_API uint64_t perfev_regs_mask(const char *names);
/* Those names, blank-separated, into out (len bytes); the length written. */
PERFEV_API int perfev_regs_names(char *out, size_t len);

/*
 * Maps perf's sample registers (the values of the bits set in mask, in
 * bit order, as PERF_SAMPLE_REGS_USER stores them) to DWARF register
 * numbers: dwarf[i] is DWARF register i (x86_64: rax=0 ... r15=15, the
 * return address column 16 = ip; aarch64: x0..x30 = 0..30, sp = 31), for
 * i < nr_dwarf. *pc and *sp get the program counter and stack pointer.
 * A register absent from mask is 0 and its bit in *valid is clear.
 * Returns the number of DWARF registers filled (17 on x86_64, 32 on aarch64)
 * or -EINVAL (unknown arch, nr_dwarf too small, regs shorter than mask
 * says) or -ENOENT (pc or sp not sampled).
 */
PERFEV_API int perfev_unwind_regs_to_dwarf(enum perfev_arch arch, uint64_t mask,
					   const uint64_t *regs, size_t nr_regs,
					   uint64_t *dwarf, size_t nr_dwarf, uint64_t *valid,
					   uint64_t *pc, uint64_t *sp);

/* One REGS_USER + STACK_USER sample, as decoded from the record. */
struct perfev_unwind_sample {
	size_t sz;       /* sizeof(struct perfev_unwind_sample) */
	int pid, tid;
	uint64_t abi;    /* PERF_SAMPLE_REGS_ABI_64 (0: none, the sample has no regs) */
	uint64_t mask;   /* attr.sample_regs_user */
	const uint64_t *regs; /* hweight(mask) values */
	size_t nr_regs;
	const uint8_t *stack; /* the copy of the user stack, starting at sp */
	uint64_t stack_size;  /* its dyn_size (bytes actually copied) */
	/* The maps of the process when the sample was taken (any order)... */
	const struct perfev_map *maps;
	size_t nr_maps;
	/* ...or, when set, a lookup instead of the array: the map holding addr
	 * in this sample's process at its time (e.g. perfev_session_find_map). */
	const struct perfev_map *(*find_map)(void *ctx, uint64_t addr);
	void *find_map_ctx;
};
#define perfev_unwind_sample__last_field find_map_ctx

/* Counts over every perfev_unwinder_unwind() call. */
struct perfev_unwind_stats {
	uint64_t samples;   /* samples unwound */
	uint64_t to_root;   /* reached the outermost frame (CFI said: no caller) */
	uint64_t truncated; /* stopped early: stack copy too short, frame limit */
	uint64_t failed;    /* not even the first frame (no regs, unknown pc) */
	uint64_t frames;    /* frames produced in total */
};

struct perfev_unwinder;

/*
 * Creates a DWARF unwinder for REGS_USER samples of arch (HOST: the
 * machine's). It caches the ELF files it opens (binaries are found through
 * /proc/PID/root like the symbolizer does), each one's parsed CFI and the
 * unwind rows of the pcs seen (with PERFEV_UNWIND=libdw: one libdw session
 * per process). Returns NULL + errno (ENOMEM; EINVAL for an unknown arch).
 */
PERFEV_API struct perfev_unwinder *perfev_unwinder_new(enum perfev_arch arch);
/* Frees it. Accepts NULL. */
PERFEV_API void perfev_unwinder_free(struct perfev_unwinder *u);

/*
 * Unwinds one sample into at most max frames, leaf first (frames[0] is the
 * sampled pc). Returns the number of frames (0 when the sample cannot be
 * unwound at all, e.g. kernel-only or no regs), or -EINVAL.
 */
PERFEV_API int perfev_unwinder_unwind(struct perfev_unwinder *u,
				      const struct perfev_unwind_sample *smp,
				      struct perfev_frame *frames, size_t max);

/* Forgets what was cached for pid (call on exec or exit). */
PERFEV_API void perfev_unwinder_forget(struct perfev_unwinder *u, int pid);

/* The counts so far; fraction unwound to the root = to_root / samples. */
PERFEV_API void perfev_unwinder_stats(const struct perfev_unwinder *u,
				      struct perfev_unwind_stats *st);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_UNWIND_H */
