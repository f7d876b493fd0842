/* The resolver (perfev/resolve.h): a recording's samples into frames, as
 * the profile loader resolves them. */
#include "support.h"
#include "support_profile.h"
#include "perfev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALLGRAPH CORPUS_DIR "/perf.data.callgraph-3.8"

struct ctx {
	struct perfev_resolver *r;
	struct perfev_profile *p;
	uint64_t samples, frames, named; /* named: frames in a known object */
};

static int on_record(void *c0, const struct perfev_record *rec)
{
	struct ctx *c = c0;
	struct perfev_resolved_sample out = {.sz = sizeof(out)};
	int e = perfev_resolver_sample(c->r, rec, &out);
	cr_assert_eq(e, 0, "%s", perfev_errmsg());
	if (rec->type != PERF_RECORD_SAMPLE) {
		cr_assert_eq(out.nr, 0);
		return 0;
	}
	cr_assert_gt(out.nr, 0, "a sample has at least its own address");
	c->samples++;
	c->frames += out.nr;
	for (size_t i = 0; i < out.nr; i++)
		c->named += out.frames[i].dso && strcmp(out.frames[i].dso, "[unknown]") != 0;
	struct perfev_sample_desc d = {.sz = sizeof(d), .pid = out.pid, .tid = (int32_t)out.tid,
				       .comm = out.comm, .period = rec->u.sample.period, .cpu = -1};
	cr_assert_geq(perfev_profile_add(c->p, &d, out.frames, out.nr), 0);
	return 0;
}

/* (folded stacks sorted: the loader's tree also splits frames outside any
 * map by perf's [k]/[.] cursor level, which the order of first insertion
 * shows and the names do not) */
static char *folded(const struct perfev_profile *p)
{
	return profile_folded(p, PERFEV_VALUE_PERIOD, true);
}

/* Frame-pointer chains (no inlines expanded, as perf report's) give the
 * stacks perfev_profile_load gives. */
Test(unit_profile_resolve, samples_resolved_as_the_loader_resolves_them)
{
	require_corpus();
	struct perfev_resolver_opts ro = {.sz = sizeof(ro), .inline_dwarf_only = true, .max_stack = -1};
	struct ctx c = {.r = perfev_resolver_new(&ro), .p = perfev_profile_new(PERFEV_GROUP_COMM, 0)};
	cr_assert(c.r && c.p, "%s", perfev_errmsg());
	struct perfev_perfdata *pd = perfev_perfdata_open(CALLGRAPH);
	cr_assert(pd);
	cr_assert_eq(perfev_resolver_set_perfdata(c.r, pd), 0);
	cr_assert(perfev_resolver_session(c.r));
	struct perfev_perfdata_read_opts rdo = {.sz = sizeof(rdo), .keep_going = true};
	cr_assert_eq(perfev_perfdata_process(pd, &rdo, on_record, &c), 0, "%s", perfev_errmsg());
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .group = PERFEV_GROUP_COMM, .event = -1,
					      .inline_dwarf_only = true, .max_stack = -1};
	struct perfev_profile *want = perfev_profile_load(CALLGRAPH, &lo, NULL);
	cr_assert(want);
	char *w = folded(want), *g = folded(c.p);
	cr_assert_str_eq(g, w);
	cr_assert_gt(strlen(w), 1000);
	cr_assert_eq(c.samples, 1768);
	cr_assert_gt(c.frames, 3 * c.samples, "call chains, not just the sampled addresses");
	cr_assert_gt(c.named, c.samples, "objects named (not symbols: the binaries are another machine's)");
	free(w);
	free(g);
	perfev_profile_free(want);
	perfev_profile_free(c.p);
	perfev_resolver_free(c.r);
	perfev_perfdata_close(pd);
}

Test(unit_profile_resolve, addresses_and_errors)
{
	struct perfev_resolver *r = perfev_resolver_new(NULL);
	cr_assert(r, "%s", perfev_errmsg());
	/* a process the records never named: outside any map, perf's 'H' */
	struct perfev_profile_frame f;
	char level = 0;
	cr_assert_eq(perfev_resolver_addr(r, 4242, 4242, 0x1234, 0, &f, &level), 0);
	cr_assert_eq(level, 'H');
	cr_assert_null(f.dso);
	cr_assert_eq(f.ip, 0x1234);
	/* an MMAP2 makes the address the process's */
	struct perfev_record m = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER};
	m.u.mmap.pid = m.u.mmap.tid = 4242;
	m.u.mmap.addr = 0x1000;
	m.u.mmap.len = 0x1000;
	m.u.mmap.prot = 5; /* PROT_READ | PROT_EXEC */
	m.u.mmap.filename = "/no/such/binary";
	cr_assert_eq(perfev_resolver_process(r, &m), 0);
	cr_assert_eq(perfev_resolver_addr(r, 4242, 4242, 0x1234, 0, &f, &level), 0);
	cr_assert_eq(level, '.');
	cr_assert_str_eq(f.dso, "/no/such/binary");
	cr_assert_null(f.symbol, "nothing to read it from");
	struct perfev_resolved_sample small = {.sz = 4};
	cr_assert_eq(perfev_resolver_sample(r, &m, &small), -EINVAL, "out.sz unset");
	cr_assert_eq(perfev_resolver_process(r, NULL), -EINVAL);
	struct {
		struct perfev_resolver_opts o;
		int newer;
	} big = {.o = {.sz = sizeof(big)}, .newer = 1};
	errno = 0;
	cr_assert_null(perfev_resolver_new(&big.o), "unknown option bytes");
	cr_assert_eq(errno, EINVAL);
	perfev_resolver_free(r);
	perfev_resolver_free(NULL);
}

/* An address of this test binary, known to the resolver by the MMAP2 of
 * its text as /proc/self/maps lists it: named as perf script names it. */
__attribute__((noinline)) int resolve_me_here(int x);
__attribute__((noinline)) int resolve_me_here(int x)
{
	return x * 3 + 1;
}

static bool self_text_map(uint64_t addr, struct perfev_record *m, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	cr_assert(f);
	char line[4352];
	bool found = false;
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi, off;
		char perms[8];
		int pathpos = 0;
		if (sscanf(line, "%lx-%lx %7s %lx %*s %*s %n", &lo, &hi, perms, &off, &pathpos) < 4 || !pathpos)
			continue;
		if (addr < lo || addr >= hi)
			continue;
		snprintf(path, len, "%s", line + pathpos);
		path[strcspn(path, "\n")] = 0;
		*m = (struct perfev_record){.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER};
		m->u.mmap.pid = m->u.mmap.tid = 4243;
		m->u.mmap.addr = lo;
		m->u.mmap.len = hi - lo;
		m->u.mmap.pgoff = off;
		m->u.mmap.prot = 5; /* PROT_READ | PROT_EXEC */
		m->u.mmap.filename = path;
		found = true;
	}
	fclose(f);
	return found;
}

Test(unit_profile_resolve, one_address_as_script_names_it)
{
	struct perfev_resolver_opts ro = {.sz = sizeof(ro), .kallsyms = ""};
	struct perfev_resolver *r = perfev_resolver_new(&ro);
	cr_assert(r, "%s", perfev_errmsg());
	uint64_t fn = (uint64_t)(uintptr_t)&resolve_me_here;
	struct perfev_location loc;
	/* no map recorded there yet: unknown, whatever this machine could say */
	cr_assert_eq(perfev_resolver_location(r, 4243, 4243, 0, PERF_RECORD_MISC_USER, fn + 2, 0, &loc), 0);
	cr_assert_null(loc.symbol);
	cr_assert_null(loc.map);
	cr_assert_str_eq(loc.dso, "[unknown]");
	cr_assert_eq(loc.ip, fn + 2);
	struct perfev_record m;
	char path[4096];
	cr_assert(self_text_map(fn, &m, path, sizeof(path)));
	cr_assert_eq(perfev_resolver_process(r, &m), 0);
	cr_assert_eq(perfev_resolver_location(r, 4243, 4243, 0, PERF_RECORD_MISC_USER, fn + 2, 0, &loc), 1,
		     "%s", perfev_errmsg());
	cr_assert_str_eq(loc.symbol, "resolve_me_here");
	cr_assert_eq(loc.symoff, 2);
	cr_assert(loc.map && loc.map->start == m.u.mmap.addr);
	cr_assert_eq(perfev_resolver_location(r, 4243, 4243, 0, PERF_RECORD_MISC_USER, fn, PERFEV_RESOLVE_INLINE,
					      &loc), 1);
	cr_assert_str_eq(loc.symbol, "resolve_me_here");
	/* another process, or an unknown flag */
	cr_assert_eq(perfev_resolver_location(r, 4244, 4244, 0, PERF_RECORD_MISC_USER, fn, 0, &loc), 0);
	cr_assert_null(loc.symbol);
	cr_assert_eq(perfev_resolver_location(r, 4243, 4243, 0, PERF_RECORD_MISC_USER, fn, PERFEV_RESOLVE_SRCLINE,
					      &loc), -EINVAL);
	cr_assert_eq(perfev_resolver_location(NULL, 4243, 4243, 0, PERF_RECORD_MISC_USER, fn, 0, &loc), -EINVAL);
	perfev_resolver_free(r);
}
