/*
 * Our CFI unwinder against libdwfl's, sample by sample: real `perf record
 * --call-graph dwarf` recordings (workloads/deep; calls and a signal-handler
 * fixture built without frame pointers; a shell running ls, sort and
 * friends, which brings ld.so, libc's PLT and exec) are unwound by both
 * engines of perfev_unwinder (pv_unwinder_use_libdw) and the frame lists
 * (pc and return-address flag) must be identical for >= 99.9% of samples;
 * the differing ones are printed, symbolized. The corpus perf.data files
 * with REGS_USER + STACK_USER samples get the same comparison.
 */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include "unwind/unwind_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FRAMES 256

struct cmp {
	struct perfev_session *session;
	struct perfev_unwinder *cfi, *dw;
	struct perfev_symbolizer *sym;
	uint32_t pid, tid;
	uint64_t time;
	size_t samples, same, shown;
	const char *what;
};

static const struct perfev_map *lookup(void *arg, uint64_t addr)
{
	struct cmp *c = arg;
	return perfev_session_find_map(c->session, c->pid, c->tid, PERF_RECORD_MISC_USER, addr,
				       c->time);
}

static void show(struct cmp *c, const char *who, const struct perfev_frame *f, int n)
{
	char line[8192] = "";
	size_t len = 0;
	for (int i = 0; i < n && len < sizeof(line) - 200; i++) {
		struct perfev_location loc;
		perfev_symbolizer_resolve(c->sym, (int)c->pid, lookup(c, f[i].ip), f[i].ip,
					  f[i].return_addr ? PERFEV_RESOLVE_RETURN_ADDR : 0, &loc);
		len += (size_t)snprintf(line + len, sizeof(line) - len, " %llx%s:%s",
					(unsigned long long)f[i].ip, f[i].return_addr ? "r" : "",
					loc.symbol ? loc.symbol : "?");
	}
	cr_log_info("  %s (%d):%s", who, n, line);
}

static int on_record(void *arg, const struct perfev_record *r)
{
	struct cmp *c = arg;
	perfev_session_process(c->session, r);
	if (r->type == PERF_RECORD_COMM && (r->misc & PERF_RECORD_MISC_COMM_EXEC)) {
		perfev_unwinder_forget(c->cfi, (int)r->u.comm.pid);
		perfev_unwinder_forget(c->dw, (int)r->u.comm.pid);
	}
	if (r->type != PERF_RECORD_SAMPLE)
		return 0;
	const struct perfev_sample *s = &r->u.sample;
	if (!(s->sample_type & PERF_SAMPLE_STACK_USER) || !s->regs_user.abi ||
	    !s->stack_user_dyn_size)
		return 0;
	c->pid = s->pid;
	c->tid = s->tid;
	c->time = s->time;
	struct perfev_unwind_sample us = {
		.sz = sizeof(us), .pid = (int)s->pid, .tid = (int)s->tid, .abi = s->regs_user.abi,
		.mask = s->regs_user.mask, .regs = s->regs_user.regs, .nr_regs = s->regs_user.nr,
		.stack = s->stack_user, .stack_size = s->stack_user_dyn_size, .find_map = lookup,
		.find_map_ctx = c};
	struct perfev_frame a[MAX_FRAMES], b[MAX_FRAMES];
	int na = perfev_unwinder_unwind(c->cfi, &us, a, MAX_FRAMES);
	int nb = perfev_unwinder_unwind(c->dw, &us, b, MAX_FRAMES);
	bool eq = na == nb;
	for (int i = 0; eq && i < na; i++)
		eq = a[i].ip == b[i].ip && a[i].return_addr == b[i].return_addr &&
		     a[i].kernel == b[i].kernel;
	c->samples++;
	c->same += eq;
	if (!eq && c->shown++ < 8) {
		cr_log_info("%s: sample %zu (pid %u, time %llu) differs:", c->what, c->samples - 1,
			    c->pid, (unsigned long long)c->time);
		show(c, "cfi   ", a, na);
		show(c, "libdw ", b, nb);
	}
	return 0;
}

/* Both engines over every REGS_USER + STACK_USER sample of path. */
static void compare_file(const char *path, const char *what, struct perfev_unwind_stats *cfi,
			 struct perfev_unwind_stats *dw, size_t *samples, size_t *same)
{
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	cr_assert_not_null(pd, "%s: %s", path, perfev_errmsg());
	struct cmp c = {perfev_session_new(), perfev_unwinder_new(PERFEV_ARCH_HOST),
			perfev_unwinder_new(PERFEV_ARCH_HOST), perfev_symbolizer_new(NULL)};
	cr_assert(c.session && c.cfi && c.dw && c.sym);
	c.what = what;
	pv_unwinder_use_libdw(c.cfi, false);
	pv_unwinder_use_libdw(c.dw, true);
	struct perfev_perfdata_read_opts o = {.sz = sizeof(o), .keep_going = true};
	perfev_perfdata_process(pd, &o, on_record, &c);
	perfev_unwinder_stats(c.cfi, cfi);
	perfev_unwinder_stats(c.dw, dw);
	if (c.samples)
		cr_log_info("%s: %zu samples, %zu with identical frames; to the root: cfi %llu, libdw %llu; "
			    "frames: cfi %llu, libdw %llu", what, c.samples, c.same,
			    (unsigned long long)cfi->to_root, (unsigned long long)dw->to_root,
			    (unsigned long long)cfi->frames, (unsigned long long)dw->frames);
	*samples = c.samples;
	*same = c.same;
	perfev_session_free(c.session);
	perfev_unwinder_free(c.cfi);
	perfev_unwinder_free(c.dw);
	perfev_symbolizer_free(c.sym);
	perfev_perfdata_close(pd);
}

Test(interop_unwind_cfi, same_frames_as_libdwfl_on_perf_recordings, .timeout = 300)
{
	require_perf_tool();
	const char *dir = test_tmpdir();
	struct run_result b = run_cmd("cc -O1 -g -fomit-frame-pointer -fno-inline -o %s/calls_nofp "
				      "%s/workloads/calls.c && cc -O2 -g -fomit-frame-pointer -o "
				      "%s/sigspin %s/tests/data/unwind/sigspin.c 2>&1",
				      dir, PERFEV_SRCDIR, dir, PERFEV_SRCDIR);
	cr_assert_eq(b.status, 0, "building the fixtures: %s", b.out);
	run_result_free(&b);
	const char *rec = "perf record -q --call-graph dwarf,8192 -e cpu-clock -F 4000";
	struct {
		const char *name, *dir, *cmd; /* run as dir/cmd when dir is set */
	} runs[] = {
		{"deep", PERFEV_BUILDDIR, "workloads/deep 0.5 40"},
		{"calls_nofp", dir, "calls_nofp 150"},
		{"sigspin", dir, "sigspin 1"},
		{"shell", NULL, "sh -c 'for i in 1 2 3; do ls -lR /usr/include /usr/share/perl* "
				">/dev/null 2>&1; seq 200000 | sort -r | md5sum >/dev/null; done'"},
	};
	size_t total = 0, total_same = 0;
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char cmd[1024], data[4300];
		snprintf(cmd, sizeof(cmd), "%s%s%s", runs[i].dir ? runs[i].dir : "",
			 runs[i].dir ? "/" : "", runs[i].cmd);
		snprintf(data, sizeof(data), "%s/%s.data", dir, runs[i].name);
		struct run_result r = run_cmd("%s -o %s -- %s >/dev/null 2>&1", rec, data, cmd);
		if (r.status != 0)
			cr_skip_test("perf record --call-graph dwarf failed here (%s): %s", cmd, r.out);
		run_result_free(&r);
		struct perfev_unwind_stats a, d;
		size_t n, same;
		compare_file(data, runs[i].name, &a, &d, &n, &same);
		cr_expect_gt(n, 50, "%s: only %zu samples to compare", runs[i].name, n);
		cr_expect_leq(a.to_root > d.to_root ? a.to_root - d.to_root : d.to_root - a.to_root,
			      n / 1000, "%s: unwound to the root: cfi %llu, libdw %llu of %zu",
			      runs[i].name, (unsigned long long)a.to_root,
			      (unsigned long long)d.to_root, n);
		total += n;
		total_same += same;
	}
	cr_log_info("all recordings: %zu of %zu samples with identical frames", total_same, total);
	cr_expect_geq(total_same * 1000, total * 999, "only %zu of %zu samples unwound alike",
		      total_same, total);
}

Test(interop_unwind_cfi, same_frames_as_libdwfl_on_the_corpus, .timeout = 300)
{
	if (!PERFEV_CORPUS_DIR[0])
		cr_skip_test("no perf.data corpus (/work/shared/corpus/perfdata) here");
	DIR *d = opendir(PERFEV_CORPUS_DIR);
	cr_assert_not_null(d);
	size_t files = 0, with = 0, total = 0, total_same = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "perf.data", 9) != 0)
			continue;
		char path[4300];
		snprintf(path, sizeof(path), "%s/%s", PERFEV_CORPUS_DIR, e->d_name);
		struct perfev_unwind_stats a, s;
		size_t n = 0, same = 0;
		files++;
		compare_file(path, e->d_name, &a, &s, &n, &same);
		with += n > 0;
		total += n;
		total_same += same;
	}
	closedir(d);
	if (!with)
		cr_skip_test("none of the %zu corpus files has REGS_USER + STACK_USER samples", files);
	cr_expect_geq(total_same * 1000, total * 999, "corpus: only %zu of %zu samples unwound alike",
		      total_same, total);
}
