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

#endif
