/*
 * unwind_fp.c — PERF_SAMPLE_CALLCHAIN arrays (frame-pointer chains the
 * kernel walked) into frames, as perf reads them: the PERF_CONTEXT_*
 * markers say whether what follows is kernel, user, hypervisor or guest
 * code; the first entry after a marker is the interrupted pc, the rest are
 * return addresses.
 */
#include "core/internal.h"
#include "perfev/unwind.h"

PERFEV_API size_t perfev_callchain_frames(const uint64_t *ips, uint64_t nr,
					  struct perfev_frame *out, size_t max)
{
	size_t n = 0;
	bool kernel = false, keep = true, first = true;
	if (!ips)
		return 0;
	for (uint64_t i = 0; i < nr && n < max; i++) {
		uint64_t ip = ips[i];
		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_KERNEL: kernel = true; keep = true; break;
			case PERF_CONTEXT_USER: kernel = false; keep = true; break;
			default: keep = false; break; /* HV, GUEST*: not this machine's code */
			}
			first = true;
			continue;
		}
		if (!keep)
			continue;
		out[n++] = (struct perfev_frame){ip, kernel, !first};
		first = false;
	}
	return n;
}
