/* unwind_sample.c — the frames of one decoded sample as perf shows them:
 * the callchain's kernel part, then the user stack DWARF-unwound from
 * REGS_USER + STACK_USER (perf record --call-graph dwarf). Shared by
 * perfev report's loader and perfev script. */
#include "unwind/unwind_int.h"

#include "perfev.h"

size_t pv_sample_frames(struct perfev_unwinder **u, const struct perfev_sample *s, int32_t pid,
			const struct pv_unwind_maps *m, bool want_chain, struct perfev_frame *out,
			size_t max, int *dwarf)
{
	size_t n = 0;
	if (dwarf)
		*dwarf = -1;
	if (want_chain && (s->sample_type & PERF_SAMPLE_CALLCHAIN) && s->callchain_nr)
		n = perfev_callchain_frames(s->callchain, s->callchain_nr, out, max);
	if (!want_chain || !(s->sample_type & PERF_SAMPLE_STACK_USER) || !s->regs_user.abi ||
	    !s->stack_user_dyn_size)
		return n;
	/* the kernel part stays; the user part (in a DWARF recording, the ip
	 * alone if any) is replaced by the unwound stack. A kernel sample
	 * unwinds from the user registers saved at the syscall. */
	size_t k = 0;
	while (k < n && out[k].kernel)
		k++;
	if (!*u) {
		if (!(*u = perfev_unwinder_new(PERFEV_ARCH_HOST)))
			return n;
		if (m && m->symbolizer)
			pv_unwinder_share_symbolizer(*u, m->symbolizer);
	}
	struct perfev_unwind_sample us = {
		.sz = sizeof(us), .pid = pid, .tid = (int)s->tid, .abi = s->regs_user.abi,
		.mask = s->regs_user.mask, .regs = s->regs_user.regs, .nr_regs = s->regs_user.nr,
		.stack = s->stack_user,
		/* the kernel's dyn_size never exceeds the copy; a file's may */
		.stack_size = PV_MIN(s->stack_user_dyn_size, s->stack_user ? s->stack_user_size : 0),
		.maps = m ? m->maps : NULL, .nr_maps = m ? m->nr_maps : 0,
		.find_map = m ? m->find_map : NULL, .find_map_ctx = m ? m->ctx : NULL,
	};
	int nu = perfev_unwinder_unwind(*u, &us, out + k, max - k);
	if (dwarf)
		*dwarf = nu > 0 ? nu : 0;
	return nu > 0 ? k + (size_t)nu : n;
}
