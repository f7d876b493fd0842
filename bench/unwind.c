/*
 * bench/unwind — DWARF unwinding alone: the REGS_USER + STACK_USER samples
 * of a perf.data (`perf record --call-graph dwarf`) are read into memory,
 * then unwound by perfev's CFI unwinder and by libdwfl's (PERFEV_UNWIND=
 * libdw's engine), each cold (a fresh unwinder: ELF and CFI loading
 * included) and warm (the same samples again), in CPU time per sample,
 * side by side with the ratio. The frames of both must be equal.
 *
 * usage: unwind [PERF.DATA (default /tmp/perfev-bench-report/dwarf.data,
 *               made by bench/report.sh)] [MAX_SAMPLES=100000]
 */
#define _GNU_SOURCE
#include "perfev.h"
#include "unwind/unwind_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct smp {
	int pid, tid;
	uint64_t time, abi, mask, nr_regs, stack_size;
	uint64_t regs[64];
	uint8_t *stack;
};

struct ctx {
	struct perfev_session *session;
	struct smp *s;
	size_t n, max;
	const struct smp *cur;
};

static const struct perfev_map *lookup(void *arg, uint64_t addr)
{
	struct ctx *c = arg;
	return perfev_session_find_map(c->session, (uint32_t)c->cur->pid, (uint32_t)c->cur->tid,
				       PERF_RECORD_MISC_USER, addr, c->cur->time);
}

static int on_record(void *arg, const struct perfev_record *r)
{
	struct ctx *c = arg;
	perfev_session_process(c->session, r);
	const struct perfev_sample *s = &r->u.sample;
	if (r->type != PERF_RECORD_SAMPLE || c->n >= c->max || !s->regs_user.abi ||
	    !s->stack_user_dyn_size || s->regs_user.nr > 64)
		return 0;
	struct smp *m = &c->s[c->n++];
	*m = (struct smp){(int)s->pid, (int)s->tid, s->time, s->regs_user.abi, s->regs_user.mask,
			  s->regs_user.nr, s->stack_user_dyn_size, {0}, malloc(s->stack_user_dyn_size)};
	memcpy(m->regs, s->regs_user.regs, s->regs_user.nr * 8);
	memcpy(m->stack, s->stack_user, s->stack_user_dyn_size);
	return 0;
}

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Unwinds every sample; returns CPU seconds, frames in *frames, a checksum in *sum. */
static double run(struct ctx *c, struct perfev_unwinder *u, uint64_t *frames, uint64_t *sum)
{
	struct perfev_frame f[256];
	*frames = *sum = 0;
	double t0 = cpu();
	for (size_t i = 0; i < c->n; i++) {
		const struct smp *m = c->cur = &c->s[i];
		struct perfev_unwind_sample us = {
			.sz = sizeof(us), .pid = m->pid, .tid = m->tid, .abi = m->abi,
			.mask = m->mask, .regs = m->regs, .nr_regs = m->nr_regs, .stack = m->stack,
			.stack_size = m->stack_size, .find_map = lookup, .find_map_ctx = c};
		int n = perfev_unwinder_unwind(u, &us, f, 256);
		for (int k = 0; k < n; k++)
			*sum = *sum * 31 + f[k].ip + f[k].return_addr;
		*frames += (uint64_t)(n > 0 ? n : 0);
	}
	return cpu() - t0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/tmp/perfev-bench-report/dwarf.data";
	size_t max = argc > 2 ? strtoul(argv[2], NULL, 10) : 100000;
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	if (!pd) {
		fprintf(stderr, "bench/unwind: %s (make it with bench/report.sh)\n", perfev_errmsg());
		return 1;
	}
	struct ctx c = {perfev_session_new(), calloc(max, sizeof(struct smp)), 0, max, NULL};
	struct perfev_perfdata_read_opts o = {.sz = sizeof(o)};
	if (!c.session || !c.s || perfev_perfdata_process(pd, &o, on_record, &c) < 0) {
		fprintf(stderr, "bench/unwind: reading %s: %s\n", path, perfev_errmsg());
		return 1;
	}
	if (!c.n) {
		fprintf(stderr, "bench/unwind: %s has no REGS_USER + STACK_USER samples\n", path);
		return 1;
	}
	printf("%zu samples of %s\n%-8s %12s %12s %10s %8s\n", c.n, path, "engine", "cold us/smp",
	       "warm us/smp", "frames", "to root");
	double warm[2] = {0};
	uint64_t sums[2] = {0};
	for (int e = 0; e < 2; e++) {
		struct perfev_unwinder *u = perfev_unwinder_new(PERFEV_ARCH_HOST);
		pv_unwinder_use_libdw(u, e == 1);
		uint64_t frames, sum;
		double cold = run(&c, u, &frames, &sum);
		warm[e] = run(&c, u, &frames, &sum);
		sums[e] = sum;
		struct perfev_unwind_stats st;
		perfev_unwinder_stats(u, &st);
		printf("%-8s %12.3f %12.3f %10llu %7.1f%%\n", e ? "libdw" : "cfi", cold * 1e6 / (double)c.n,
		       warm[e] * 1e6 / (double)c.n, (unsigned long long)frames,
		       100.0 * (double)st.to_root / (double)st.samples);
		perfev_unwinder_free(u);
	}
	printf("warm speedup: libdw CPU / cfi CPU = %.1fx; frames %s\n", warm[1] / warm[0],
	       sums[0] == sums[1] ? "identical" : "DIFFER");
	for (size_t i = 0; i < c.n; i++)
		free(c.s[i].stack);
	free(c.s);
	perfev_session_free(c.session);
	perfev_perfdata_close(pd);
	return sums[0] == sums[1] ? 0 : 1;
}
