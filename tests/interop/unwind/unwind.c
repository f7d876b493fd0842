/*
 * DWARF unwinding against perf's own: `perf record --call-graph dwarf` of
 * workloads/deep (no frame pointers), then every sample of that perf.data
 * unwound by perfev (perf.data reader, session maps through the find_map
 * callback, libdw unwinder, symbolizer; the kernel part from the callchain) and compared, frame by frame, with
 * the symbols `perf script --no-inline` prints for the same sample.
 */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SAMPLES 4000
#define MAX_FRAMES 128

struct stack {
	size_t n;
	char *sym[MAX_FRAMES];
};

struct ctx {
	struct perfev_session *session;
	struct perfev_unwinder *unwinder;
	struct perfev_symbolizer *symbolizer;
	struct stack *ours;
	size_t n;
	/* the sample being unwound, for find_map */
	uint32_t pid, tid;
	uint64_t time;
};

static const struct perfev_map *lookup(void *arg, uint64_t addr)
{
	struct ctx *c = arg;
	return perfev_session_find_map(c->session, c->pid, c->tid, PERF_RECORD_MISC_USER, addr, c->time);
}

static int on_record(void *arg, const struct perfev_record *r)
{
	struct ctx *c = arg;
	perfev_session_process(c->session, r);
	if (r->type != PERF_RECORD_SAMPLE || c->n >= MAX_SAMPLES)
		return 0;
	const struct perfev_sample *smp = &r->u.sample;
	c->pid = smp->pid;
	c->tid = smp->tid;
	c->time = smp->time;
	struct perfev_unwind_sample us = {
		.sz = sizeof(us), .pid = (int)smp->pid, .tid = (int)smp->tid,
		.abi = smp->regs_user.abi, .mask = smp->regs_user.mask, .regs = smp->regs_user.regs,
		.nr_regs = smp->regs_user.nr, .stack = smp->stack_user,
		.stack_size = smp->stack_user_dyn_size, .find_map = lookup, .find_map_ctx = c};
	struct perfev_frame f[MAX_FRAMES];
	int nf = perfev_unwinder_unwind(c->unwinder, &us, f, MAX_FRAMES);
	struct stack *st = &c->ours[c->n++];
	/* the kernel part comes from PERF_SAMPLE_CALLCHAIN, as perf combines them */
	struct perfev_frame k[MAX_FRAMES];
	size_t nk = perfev_callchain_frames(smp->callchain, smp->callchain_nr, k, MAX_FRAMES);
	for (size_t i = 0; i < nk && st->n < MAX_FRAMES; i++) {
		if (!k[i].kernel)
			continue;
		struct perfev_location loc;
		perfev_symbolizer_resolve_kernel(c->symbolizer, k[i].ip,
						 k[i].return_addr ? PERFEV_RESOLVE_RETURN_ADDR : 0, &loc);
		st->sym[st->n++] = strdup(loc.symbol ? loc.symbol : "[unknown]");
	}
	for (int i = 0; i < nf && st->n < MAX_FRAMES; i++) {
		struct perfev_location loc;
		perfev_symbolizer_resolve(c->symbolizer, (int)smp->pid, lookup(c, f[i].ip), f[i].ip,
					  PERFEV_RESOLVE_NO_PARAMS |
					  (f[i].return_addr ? PERFEV_RESOLVE_RETURN_ADDR : 0), &loc);
		st->sym[st->n++] = strdup(loc.symbol ? loc.symbol : "[unknown]");
	}
	return 0;
}

/* perf script -F tid,ip,sym --no-inline: a header line per sample, a line per frame. */
static size_t parse_perf(char *out, struct stack *theirs)
{
	size_t n = 0;
	struct stack *cur = NULL;
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		if (line[0] != '\t') {
			if (n >= MAX_SAMPLES)
				break;
			cur = &theirs[n++];
			continue;
		}
		char *p = line + strspn(line, "\t ");
		p += strcspn(p, " "); /* the address */
		p += strspn(p, " ");
		if (cur && cur->n < MAX_FRAMES)
			cur->sym[cur->n++] = strdup(*p ? p : "[unknown]");
	}
	return n;
}

Test(interop_unwind, dwarf_stacks_equal_perf_script, .timeout = 240)
{
	require_perf_tool();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("perf record -q --call-graph dwarf,16384 -e cpu-clock -o %s/perf.data "
				      "%s 1 40 2>&1", dir, WORKLOAD("deep"));
	if (r.status != 0)
		cr_skip_test("perf record --call-graph dwarf failed here: %s", r.out);
	run_result_free(&r);
	r = run_cmd("perf script -i %s/perf.data -F tid,ip,sym --no-inline 2>/dev/null", dir);
	cr_assert_eq(r.status, 0);
	struct stack *theirs = calloc(MAX_SAMPLES, sizeof(*theirs));
	size_t nt = parse_perf(r.out, theirs);

	char path[4300];
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	cr_assert_not_null(pd, "%s", perfev_errmsg());
	struct ctx c = {perfev_session_new(), perfev_unwinder_new(PERFEV_ARCH_HOST),
			perfev_symbolizer_new(NULL), calloc(MAX_SAMPLES, sizeof(struct stack)), 0};
	cr_assert(c.session && c.unwinder && c.symbolizer);
	struct perfev_perfdata_read_opts o = {.sz = sizeof(o)};
	cr_assert_eq(perfev_perfdata_process(pd, &o, on_record, &c), 0, "%s", perfev_errmsg());
	cr_assert_eq(c.n, nt, "perfev read %zu samples, perf script printed %zu", c.n, nt);

	size_t same = 0, deep = 0, first_bad = SIZE_MAX;
	for (size_t i = 0; i < c.n; i++) {
		bool eq = c.ours[i].n == theirs[i].n;
		for (size_t k = 0; eq && k < c.ours[i].n; k++)
			eq = !strcmp(c.ours[i].sym[k], theirs[i].sym[k]);
		same += eq;
		if (!eq && first_bad == SIZE_MAX)
			first_bad = i;
		deep += theirs[i].n >= 40;
	}
	struct perfev_unwind_stats st;
	perfev_unwinder_stats(c.unwinder, &st);
	cr_log_info("%zu samples (%zu 40+ frames deep in perf's view): %zu stacks identical to perf "
		    "script's; perfev unwound %llu to the root", c.n, deep, same,
		    (unsigned long long)st.to_root);
	if (first_bad != SIZE_MAX) {
		char a[2048] = "", b[2048] = "";
		for (size_t k = 0; k < c.ours[first_bad].n && strlen(a) < 1800; k++)
			strcat(strcat(a, c.ours[first_bad].sym[k]), " ");
		for (size_t k = 0; k < theirs[first_bad].n && strlen(b) < 1800; k++)
			strcat(strcat(b, theirs[first_bad].sym[k]), " ");
		cr_log_info("first difference, sample %zu:\nperfev: %s\nperf:   %s", first_bad, a, b);
	}
	cr_expect_geq(same * 100, c.n * 95, "only %zu of %zu stacks equal perf's", same, c.n);
	cr_expect_gt(deep, 0);
	for (size_t i = 0; i < MAX_SAMPLES; i++)
		for (size_t k = 0; k < MAX_FRAMES; k++) {
			free(c.ours[i].sym[k]);
			free(theirs[i].sym[k]);
		}
	free(c.ours);
	free(theirs);
	perfev_session_free(c.session);
	perfev_unwinder_free(c.unwinder);
	perfev_symbolizer_free(c.symbolizer);
	perfev_perfdata_close(pd);
	run_result_free(&r);
}
