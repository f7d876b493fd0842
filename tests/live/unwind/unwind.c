/*
 * DWARF unwinding of live samples: cpu-clock on workloads/deep (built
 * without frame pointers, a known 40-deep recursion) with REGS_USER +
 * STACK_USER; every sample is unwound with libdw and symbolized, and most
 * must reach main through all the descend frames.
 */
#define _GNU_SOURCE
#include "support.h"
#include "support_symbols.h"
#include "perfev.h"

#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RING_PAGES 256
#define STACK_BYTES 16384
#define DEPTH 40

struct sample {
	uint32_t pid, tid;
	uint64_t ip, abi;
	uint64_t regs[64];
	size_t nr_regs;
	uint8_t *stack;
	uint64_t stack_size;
};

static size_t parse_sample(const uint8_t *rec, size_t len, uint64_t mask, struct sample *s)
{
	size_t off = sizeof(struct perf_event_header);
#define TAKE(dst, n)                                 \
	do {                                         \
		if (off + (n) > len)                 \
			return 0;                    \
		memcpy((dst), rec + off, (n));       \
		off += (n);                          \
	} while (0)
	TAKE(&s->ip, 8);
	TAKE(&s->pid, 4);
	TAKE(&s->tid, 4);
	TAKE(&s->abi, 8);
	s->nr_regs = 0;
	if (s->abi) {
		s->nr_regs = (size_t)__builtin_popcountll(mask);
		TAKE(s->regs, s->nr_regs * 8);
	}
	uint64_t size;
	TAKE(&size, 8);
	s->stack = NULL;
	s->stack_size = 0;
	if (size) {
		if (off + size + 8 > len)
			return 0;
		uint64_t dyn;
		memcpy(&dyn, rec + off + size, 8);
		s->stack_size = dyn < size ? dyn : size;
		s->stack = malloc(size);
		memcpy(s->stack, rec + off, size);
	}
#undef TAKE
	return 1;
}

struct collect {
	struct sample *out;
	size_t n, max;
	uint64_t mask;
};

static int take_sample(void *ctx, const void *rec, size_t size)
{
	struct collect *c = ctx;
	const struct perf_event_header *h = rec;
	if (h->type == PERF_RECORD_SAMPLE && c->n < c->max &&
	    parse_sample(rec, size, c->mask, &c->out[c->n]))
		c->n++;
	return 0;
}

static bool frames_have(const char **names, size_t n, const char *want)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && strcmp(names[i], want) == 0)
			return true;
	return false;
}

Test(live_unwind, dwarf_unwinding_reaches_main_without_frame_pointers, .timeout = 60)
{
	int go[2];
	cr_assert_eq(pipe(go), 0);
	pid_t child = fork();
	if (child == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		execl(WORKLOAD("deep"), "deep", "1.5", "40", (char *)NULL);
		_exit(127);
	}
	close(go[0]);
	uint64_t mask = perfev_unwind_regs_mask(PERFEV_ARCH_HOST);
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 5000000; /* 5 ms of CPU */
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_REGS_USER |
			PERF_SAMPLE_STACK_USER;
	a.sample_regs_user = mask;
	a.sample_stack_user = STACK_BYTES;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	a.disabled = 1;
	a.enable_on_exec = 1;
	int fd = perfev_open(&a, child, -1, -1, 0);
	if (fd < 0) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		cr_skip_test("cannot sample cpu-clock with user regs and stack: %s", perfev_errmsg());
	}
	struct perfev_ring *ring = perfev_ring_mmap(fd, RING_PAGES, false);
	cr_assert_not_null(ring, "%s", perfev_errmsg());
	cr_assert_eq(write(go[1], "x", 1), 1);
	close(go[1]);

	struct sample *samples = calloc(1000, sizeof(*samples));
	struct collect col = {samples, 0, 1000, mask};
	size_t nmaps = 0;
	struct perfev_map *maps = NULL;
	for (;;) {
		struct pollfd p = {fd, POLLIN, 0};
		poll(&p, 1, 50);
		if (!maps) {
			usleep(100000); /* past the dynamic loader: the maps are final */
			maps = proc_maps(child, &nmaps);
		}
		perfev_ring_drain(ring, take_sample, &col);
		if (waitpid(child, NULL, WNOHANG) == child)
			break;
	}
	perfev_ring_drain(ring, take_sample, &col);
	size_t n = col.n;
	cr_assert_geq(n, 20, "only %zu samples", n);

	struct perfev_unwinder *u = perfev_unwinder_new(PERFEV_ARCH_HOST);
	struct perfev_symbolizer *s = perfev_symbolizer_new(NULL);
	cr_assert(u && s);
	size_t with_main = 0, deep_ones = 0, in_leaf = 0;
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (size_t i = 0; i < n; i++) {
		struct perfev_unwind_sample us = {
			.sz = sizeof(us), .pid = (int)samples[i].pid, .tid = (int)samples[i].tid,
			.abi = samples[i].abi, .mask = mask, .regs = samples[i].regs,
			.nr_regs = samples[i].nr_regs, .stack = samples[i].stack,
			.stack_size = samples[i].stack_size, .maps = maps, .nr_maps = nmaps};
		struct perfev_frame f[128];
		int nf = perfev_unwinder_unwind(u, &us, f, 128);
		cr_assert_geq(nf, 0);
		const char *names[128] = {0};
		size_t descends = 0;
		for (int k = 0; k < nf; k++) {
			struct perfev_location loc;
			const struct perfev_map *m = map_for(maps, nmaps, f[k].ip);
			perfev_symbolizer_resolve(s, us.pid, m, f[k].ip,
						  f[k].return_addr ? PERFEV_RESOLVE_RETURN_ADDR : 0, &loc);
			names[k] = loc.symbol;
			descends += loc.symbol && !strcmp(loc.symbol, "descend");
		}
		if (nf)
			cr_expect_eq(f[0].ip, samples[i].ip, "frame 0 is not the sampled ip");
		bool leaf = frames_have(names, (size_t)nf, "leaf_spin");
		in_leaf += leaf;
		if (frames_have(names, (size_t)nf, "main") && frames_have(names, (size_t)nf, "run"))
			with_main++;
		if (leaf && descends == DEPTH + 1)
			deep_ones++;
		free(samples[i].stack);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	cr_log_info("unwound and symbolized %zu samples in %.3f s (first use: ELF/CFI loading "
		    "included)", n, secs);
	struct perfev_unwind_stats st;
	perfev_unwinder_stats(u, &st);
	cr_log_info("%zu samples: %zu reach main, %zu with all %d descend frames; stats: "
		    "%llu to root, %llu truncated, %llu failed, %llu frames", n, with_main,
		    deep_ones, DEPTH + 1, (unsigned long long)st.to_root,
		    (unsigned long long)st.truncated, (unsigned long long)st.failed,
		    (unsigned long long)st.frames);
	cr_expect_eq(st.samples, n);
	cr_expect_geq(with_main * 10, n * 8, "only %zu of %zu samples unwound to main", with_main, n);
	cr_expect_geq(deep_ones * 10, in_leaf * 8, "only %zu of %zu leaf samples had all %d "
		      "descend frames", deep_ones, in_leaf, DEPTH + 1);
	cr_expect_geq(st.to_root * 10, n * 8, "only %llu of %zu samples unwound to the root",
		      (unsigned long long)st.to_root, n);
	perfev_unwinder_free(u);
	perfev_symbolizer_free(s);
	maps_free(maps, nmaps);
	free(samples);
	perfev_ring_munmap(ring);
	close(fd);
}
