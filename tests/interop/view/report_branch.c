/* perfev report's branch view against perf report's: the corpus's
 * recordings with branch stacks (LBR, other machines: unresolved kernel
 * addresses, "[H]" ends outside any map, cycles), the switches (-b,
 * --no-branch-stack) and a crafted recording whose branch ends have kernel
 * symbols (a crafted kallsyms), a user object and no map at all, in ties
 * of equal count that perf orders by its sort keys. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

static const char *const branch_files[] = {
	"perf.data.branch-4.14",		/* cycles, [H] 0000000000000000, kernel and ld.so */
	"perf.data.branch_stack_hw_index",	/* HW_INDEX, an event group of which one event branches */
	"perf.data.branch_stack_spec",		/* spec bits */
	"perf.data.callgraph_and_branch-3.4", /* call chains too: perf shows no graphs in the branch view */
	"perf.data.callgraph_and_branch-3.8",
	"perf.data.raw_callgraph_branch-3.4", /* RAW data too; [vdso] symbols */
};

/* By default (perf switches to its branch view for these files) and with -b. */
Test(interop_report_branch, corpus_branch_view_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const char *const options[] = {"", "-b", "--percent-limit 0.5", "-n --show-total-period",
					      /* one command: its column left out, named in the header;
					       * widths of the rows shown, percentages of all */
					      "--comms perf", "--comms perf,swapper,echo",
					      /* of the rows shown */
					      "--comms perf,swapper --percentage relative"};
	for (size_t i = 0; i < NELEM(branch_files); i++)
		for (size_t o = 0; o < NELEM(options); o++) {
			if (o && i >= 3 && i != 4)
				continue; /* the options once on the big files suffice */
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, branch_files[i]);
			report_expect_like_perf(path, options[o], 0);
		}
}

/* --no-branch-stack: the samples' own table, as before the branch view. */
Test(interop_report_branch, no_branch_stack_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const char *const files[] = {"perf.data.branch-4.14", "perf.data.branch_stack_spec",
					    "perf.data.callgraph_and_branch-3.8"};
	for (size_t i = 0; i < NELEM(files); i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, files[i]);
		report_expect_like_perf(path, "--no-branch-stack --no-children -g none", 0);
		/* and it is not the branch view */
		struct run_result r = run_cmd("%s report -q -i '%s' --stdio --no-branch-stack", PERFEV_BIN, path);
		cr_assert_eq(r.status, 0, "%s", r.err);
		cr_expect(!strstr(r.out, "Source Symbol") && strstr(r.out, "Shared Object"), "%.2000s", r.out);
		run_result_free(&r);
	}
}

/* -b on a recording without branch stacks, or with options the branch view
 * does not take: an error naming the fix. */
Test(interop_report_branch, b_without_branch_stacks_fails)
{
	require_corpus();
	struct run_result r = run_cmd("%s report -q -i '%s/perf.data.callgraph-3.4' --stdio -b", PERFEV_BIN, CORPUS_DIR);
	cr_expect_neq(r.status, 0, "%s", r.out);
	cr_expect(strstr(r.err, "branch stacks") && strstr(r.err, "drop -b"), "%s", r.err);
	run_result_free(&r);
	/* and the branch view refuses what it cannot show */
	static const char *const refused[] = {"--sort sym --dsos ld-2.23.so", "--dsos ld-2.23.so", "--folded",
					      "--event 0", "--sort sym --event 0"};
	for (size_t i = 0; i < NELEM(refused); i++) {
		r = run_cmd("%s report -q -i '%s/perf.data.branch-4.14' --stdio -b %s", PERFEV_BIN, CORPUS_DIR,
			    refused[i]);
		cr_expect_neq(r.status, 0, "%s: %s", refused[i], r.out);
		cr_expect(strstr(r.err, "--no-branch-stack"), "%s: %s", refused[i], r.err);
		run_result_free(&r);
	}
}

#define KBASE 0xffffffff81000000ull
#define UBASE 0x400000ull

/* Symbol names in another order than their addresses: perf orders known
 * symbols of equal count by address. */
static const char kallsyms[] = "ffffffff81000000 T _text\n"
			       "ffffffff81000000 T _stext\n"
			       "ffffffff81001000 T zeta_first\n"
			       "ffffffff81002000 T alpha_second\n"
			       "ffffffff81003000 T a_rather_long_kernel_function_name\n"
			       "ffffffff81004000 T _etext\n";

static void put_branches(struct perfev_perfdata_writer *w, const struct perfev_attr *a, uint32_t pid,
			 uint64_t time, const struct perfev_branch_entry *b, size_t n, uint16_t misc)
{
	struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = misc};
	r.u.sample.ip = UBASE + 0x100;
	r.u.sample.pid = r.u.sample.tid = pid;
	r.u.sample.time = time;
	r.u.sample.period = 1000;
	r.u.sample.branch_nr = n;
	r.u.sample.branches = b;
	report_put_record(w, &r, a);
}

static void write_branches(const char *data)
{
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, PERF_SAMPLE_BRANCH_STACK);
	report_put_kernel_map(w, &a, KBASE);
	struct perfev_record r;
	static const char *const comms[] = {"branchy", "zother"};
	for (uint32_t t = 0; t < 2; t++) {
		uint32_t pid = 4343 + t;
		r = (struct perfev_record){.type = PERF_RECORD_COMM, .has_sid = true};
		r.u.comm.pid = r.u.comm.tid = pid;
		r.u.comm.comm = comms[t];
		r.sid.pid = r.sid.tid = pid;
		r.sid.time = 1;
		report_put_record(w, &r, &a);
		/* a user object that is not on this machine: its addresses stay unknown */
		r = (struct perfev_record){.type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_USER, .has_sid = true};
		r.u.mmap.pid = r.u.mmap.tid = pid;
		r.u.mmap.addr = UBASE;
		r.u.mmap.len = 0x10000;
		r.u.mmap.pgoff = 0x1000;
		r.u.mmap.filename = "/nonexistent/perfev-test/libbranchy_objects_long_name.so";
		r.sid.pid = r.sid.tid = pid;
		r.sid.time = 2;
		report_put_record(w, &r, &a);
	}
	const uint64_t z = KBASE + 0x1000, al = KBASE + 0x2000, lg = KBASE + 0x3000;
	const struct perfev_branch_entry b[] = {
		{z + 0x10, al + 0x10, 3 << 4},	  /* cycles 3 */
		{z + 0x10, al + 0x10, 7 << 4},	  /* the same branch, cycles 7: another row */
		{al + 0x20, z + 0x20, 0},	  /* symbols: known first, by address */
		{lg + 0x8, z + 0x30, 1},	  /* flags without cycles */
		{0, 0, 0},			  /* outside any map: [H] 0000000000000000 */
		{0x1234, lg + 0x40, 0},		  /* unmapped user address to a kernel symbol */
		{UBASE + 0x40, UBASE + 0x80, 2 << 4}, /* the user object: DSO-relative addresses */
		{UBASE + 0x90, z + 0x50, 0},	  /* a system call */
		{z + 0x60, UBASE + 0x94, 0},	  /* and back */
	};
	uint64_t time = 10;
	for (uint32_t t = 0; t < 2; t++)
		for (size_t k = 0; k < 3; k++) /* three samples per thread, one more branch each time */
			/* (the second thread's first sample in the kernel: under --sort,
			 * perf's level of a target is its first sample's) */
			put_branches(w, &a, 4343 + t, time++, b + (t ? 0 : 2), NELEM(b) - 2 - k,
				     t && k == 0 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER);
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
}

/* The crafted recording (write_branches) and its kernel symbols: their paths
 * into data and syms (4200 bytes each). */
static void write_crafted(char *data, char *syms)
{
	char *path = report_write_kallsyms(kallsyms);
	snprintf(syms, 4200, "%s", path);
	free(path);
	snprintf(data, 4200, "%s/branches.data", test_tmpdir());
	write_branches(data);
}

Test(interop_report_branch, crafted_symbols_and_ties_like_perf, .timeout = 60)
{
	char data[4200], options[4400], syms[4200];
	write_crafted(data, syms);
	/* what the library makes of it (without perf) */
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .kallsyms = syms};
	cr_expect_eq(perfev_branch_table_wanted(data), 1);
	struct perfev_branch_table *t = perfev_branch_table_load(data, &lo, NULL);
	cr_assert(t, "%s", perfev_errmsg());
	cr_assert_eq(perfev_branch_table_nr_events(t), 1);
	const struct perfev_branch_event *e = perfev_branch_table_event(t, 0);
	cr_expect_eq(e->samples, 6);
	cr_expect_eq(e->branches, 7 + 6 + 5 + 7 + 6 + 5);
	uint64_t sum = 0;
	bool h = false, user = false, cycles = false;
	for (size_t i = 0; i < e->nr; i++) {
		const struct perfev_branch_row *row = &e->rows[i];
		sum += row->count;
		if (i)
			cr_expect_geq(e->rows[i - 1].count, row->count, "rows in perf's order");
		if (row->from.level == 'H' && row->from.addr == 0x1234)
			h = !row->from.dso && !row->from.symbol && row->to.level == 'k' && row->to.symbol &&
			    !strcmp(row->to.symbol, "a_rather_long_kernel_function_name");
		if (row->from.level == '.' && row->from.addr == UBASE + 0x40)
			user = row->from.rel_addr == 0x1040 && row->to.rel_addr == 0x1080 && row->cycles == 2 &&
			       !row->from.symbol && strstr(row->from.dso, "libbranchy");
		if (row->cycles == 7)
			cycles = !strcmp(row->comm, "zother") && !strcmp(row->from.symbol, "zeta_first");
	}
	cr_expect_eq(sum, e->branches);
	cr_expect(h && user && cycles, "H %d user %d cycles %d", h, user, cycles);
	perfev_branch_table_free(t);
	/* the same rows as JSON (-b --json): the [H] end's null object, the counts */
	struct run_result j = run_cmd("%s report -q -i '%s' --kallsyms '%s' -b --json | python3 -c '"
				      "import json, sys; e = json.load(sys.stdin)[\"events\"][0]; r = e[\"entries\"]\n"
				      "h = [x for x in r if x[\"from\"][\"addr\"] == \"0x1234\"]\n"
				      "print(e[\"branches\"], sum(x[\"count\"] for x in r), len(r), h[0][\"from\"][\"dso\"], "
				      "h[0][\"from\"][\"level\"], h[0][\"to\"][\"symbol\"])'",
				      PERFEV_BIN, data, syms);
	cr_assert_eq(j.status, 0, "%s", j.err);
	cr_expect_str_eq(j.out, "36 36 14 None H a_rather_long_kernel_function_name\n");
	run_result_free(&j);
	/* and perf's view of it, line for line */
	require_perf_tool();
	snprintf(options, sizeof(options), "--kallsyms '%s'", syms);
	report_expect_like_perf(data, options, 0);
}

/* The same recording under --sort/-F: perf's entries of the branches'
 * targets (kernel symbols, a user object without symbols, no map), their
 * level the first sample's; the library's side (PERFEV_PROFILE_BRANCH_TARGETS). */
Test(interop_report_branch, crafted_sort_keys_like_perf, .timeout = 60)
{
	char data[4200], options[4400], syms[4200];
	write_crafted(data, syms);
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .kallsyms = syms, .event = -1,
					      .flags = PERFEV_PROFILE_BRANCH_TARGETS, .no_callchain = true};
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	struct perfev_profile *p = perfev_profile_load(data, &lo, &info);
	cr_assert(p, "%s", perfev_errmsg());
	cr_expect_eq(info.samples, 36, "every branch a sample: %llu", (unsigned long long)info.samples);
	cr_expect_eq(perfev_profile_total(p, PERFEV_VALUE_PERIOD), 36, "of value 1");
	struct perfev_profile_entry *e;
	size_t nr;
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SYM, PERFEV_VALUE_PERIOD, false, 0, &e, &nr), 0);
	bool zero = false, user = false, alpha = false;
	for (size_t i = 0; i < nr; i++) {
		if (!e[i].symbol && e[i].rel_ip == 0) /* no map: its address, 0 */
			zero = e[i].self[PERFEV_VALUE_PERIOD] == 6;
		if (!e[i].symbol && e[i].rel_ip == UBASE + 0x80) /* in the object: the absolute address */
			user = !e[i].kernel && e[i].self[PERFEV_VALUE_PERIOD] == 4;
		if (e[i].symbol && !strcmp(e[i].symbol, "alpha_second")) /* first in a kernel sample */
			alpha = e[i].self[PERFEV_VALUE_PERIOD] == 6 && e[i].kernel;
	}
	cr_expect(zero && user && alpha, "zero %d user %d alpha %d", zero, user, alpha);
	free(e);
	perfev_profile_free(p);
	require_perf_tool();
	static const char *const sorts[] = {"--sort sym", "--sort dso,sym", "--sort comm,dso", "-F overhead,sym",
					    "--sort pid,sym -n", "--sort sym --comms zother",
					    /* perf's branch keys (perf 6.1 crashes with symbol_from/to on
					     * branches of cycles or outside any map, as these are) */
					    "--sort dso_from,dso_to", "--sort comm,dso_to,cycles -n",
					    "--sort cycles,dso_from --comms zother"};
	for (size_t i = 0; i < NELEM(sorts); i++) {
		snprintf(options, sizeof(options), "--kallsyms '%s' %s", syms, sorts[i]);
		report_expect_like_perf(data, options, 0);
	}
	/* symbol_from,symbol_to: perfev's rows (perf cannot say), the IPC column
	 * of a known target 0 (perf's, without an annotation) */
	struct run_result r = run_cmd("%s report -q -i '%s' --kallsyms '%s' --stdio --sort symbol_from,symbol_to",
				      PERFEV_BIN, data, syms);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "# Overhead  Source Symbol") && strstr(r.out, "IPC   [IPC Coverage]") &&
		  strstr(r.out, "[H] 0x0000000000001234") && strstr(r.out, "[k] alpha_second") &&
		  strstr(r.out, "0.00  [  0.0%]") && strstr(r.out, "[H] 0000000000000000"), "%s", r.out);
	run_result_free(&r);
}

/* A recording of branch stacks without samples: by default the sample
 * view's word on an empty file, as perf; -b: an error naming the fix. */
Test(interop_report_branch, no_samples_like_perf, .timeout = 60)
{
	char data[4200];
	snprintf(data, sizeof(data), "%s/empty.data", test_tmpdir());
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, PERF_SAMPLE_BRANCH_STACK);
	report_put_kernel_map(w, &a, KBASE);
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
	struct run_result r = run_cmd("%s report -q -i '%s' --stdio -b", PERFEV_BIN, data);
	cr_expect_neq(r.status, 0, "%s", r.out);
	cr_expect(strstr(r.err, "drop -b"), "%s", r.err);
	run_result_free(&r);
	require_perf_tool();
	report_expect_like_perf(data, "", 0);
}
