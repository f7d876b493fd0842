/* support_profile.h — synthetic profiles with a known shape for the
 * profile and exporter tests. */
#ifndef PERFEV_TEST_SUPPORT_PROFILE_H
#define PERFEV_TEST_SUPPORT_PROFILE_H

#include "perfev.h"

/*
 * Builds a profile (grouping and flags as given) from this known workload:
 *   "app" pid 100 tid 100: main->work->compute (leaf)     x 60, period 1000 each
 *                          main->work->compute->memcpy [inlined into compute] x 10
 *                          main->idle                        x 20
 *                          main->work->[k] sys_write        x 5 (kernel leaf)
 *   "app" pid 100 tid 101: main->work->compute              x 4
 *                          main->rec->rec->rec (recursion)   x 1
 *   "sh"  pid 200 tid 200: <empty stack>                     x 3
 *                          main -> 0x4242 (unknown symbol)   x 2
 * 105 samples; period = 1000 per sample except "sh" (500).
 */
struct perfev_profile *synthetic_profile(enum perfev_profile_group group, unsigned flags);
#define SYNTH_SAMPLES 105
/* Adds `times` samples of the stack syms[0..nr) (leaf first; "k:" a kernel
 * frame, "i:" an inlined one, "" unknown) of the synthetic profile's kind. */
void synthetic_add(struct perfev_profile *p, const char *comm, int pid, int tid, uint64_t period,
		   const char *const *syms, size_t nr, int times);

/* p's folded stacks (perfev_export_folded) of value v, the lines sorted
 * when `sorted` (the order of first appearance aside). Free it. */
char *profile_folded(const struct perfev_profile *p, enum perfev_profile_value v, bool sorted);

#endif
