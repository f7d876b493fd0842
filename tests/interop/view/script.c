/* perfev script against perf script: the corpus of real perf.data files and
 * perf's own recordings made here, field for field, line for line. */
#define _GNU_SOURCE
#include "support.h"
#include <criterion/parameterized.h>
#include "support_records.h"
#include "perfev.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SHARDS 8

ParameterizedTestParameters(interop_script, corpus)
{
	static int shards[SHARDS] = {0, 1, 2, 3, 4, 5, 6, 7};
	return cr_make_param_array(int, shards, SHARDS);
}

/* Every corpus file (this shard's share), with the fields perf script and
 * perfev script both print without symbols. */
ParameterizedTest(int *shard, interop_script, corpus)
{
	require_perf_tool();
	require_corpus();
	size_t n;
	char **files = corpus_files(&n);
	cr_assert_gt(n, 0, "no perf.data files in %s", CORPUS_DIR);
	for (size_t i = (size_t)*shard; i < n; i += SHARDS) {
		if (!compare_script(files[i], "pid,tid,time,ip,period")) {
			cr_log_info("%s holds an Intel PT trace: perfev refuses it with an explanation", files[i]);
			cr_assert(strstr(files[i], "intel_pt"), "%s refused as an AUX trace", files[i]);
			continue;
		}
		compare_script(files[i], "comm,tid,time,event,ip,dso,period");
		/* side-band lines among the samples, as perf shows them */
		compare_script(files[i], "comm,pid,tid,time,event,ip,period --show-task-events --show-mmap-events "
					 "--show-switch-events --show-lost-events --show-namespace-events");
		/* symbols and objects: this machine's binaries where the file's
		 * build-ids match, else addresses, as perf names them ([vdso]
		 * images start at offset 0 whatever pgoff 3.x kernels recorded) */
		compare_script(files[i], "comm,tid,time,ip,sym,dso");
		/* the default fields, symbol names aside (the symbolizer's, tested with it) */
		compare_script_filtered(files[i], NULL, "sed -E 's/ [^ ]+ \\(/ SYM (/'");
	}
	free_list(files);
}

static const char *record(const char *name, const char *opts, bool pipe)
{
	static char path[256];
	snprintf(path, sizeof(path), "%s/%s.data", test_tmpdir(), name);
	struct run_result r = pipe ? run_cmd("perf record -q %s -o - -- '%s' 30 200 50 > '%s'", opts,
					     WORKLOAD("demo"), path)
				   : run_cmd("perf record -q %s -o '%s' -- '%s' 30 200 50", opts, path, WORKLOAD("demo"));
	if (r.status != 0)
		cr_skip_test("perf record %s cannot record here: %s", opts, r.err);
	run_result_free(&r);
	return path;
}

/* Symbol names are the symbolizer's (tests of its own); here they are cut
 * off where perf prints them unasked (callchains in pipe mode). */
#define NO_SYMS "sed -E 's/^(\t *[0-9a-f]+) [^(]*/\\1/'"

static void compare_recording(const char *name, const char *opts, bool pipe)
{
	require_perf_tool();
	require_root();
	const char *f = record(name, opts, pipe);
	cr_assert(compare_script_filtered(f, "pid,tid,time,ip,period", NO_SYMS));
	compare_script_filtered(f, "comm,pid,tid,time,event,ip,dso,period", NO_SYMS);
	compare_script_filtered(f, "tid,time,misc", NO_SYMS);
}

Test(interop_script, perf_record_cpu_clock) { compare_recording("plain", "-e cpu-clock -F 2000", false); }
Test(interop_script, perf_record_callgraph) { compare_recording("g", "-e cpu-clock -F 2000 -g", false); }
Test(interop_script, perf_record_pipe) { compare_recording("pipe", "-e cpu-clock -F 2000 -g", true); }
Test(interop_script, perf_record_compressed) { compare_recording("z", "-e cpu-clock -F 2000 -z", false); }
Test(interop_script, perf_record_system_wide)
{
	compare_recording("a", "-e cpu-clock,task-clock -F 1000 -a --switch-events", false);
}

/* Branch stacks, weights and data sources of the corpus files that have them. */
Test(interop_script, branch_weight_data_src)
{
	require_perf_tool();
	require_corpus();
	static const char *const br[] = {"branch-4.14", "branch_stack_hw_index", "branch_stack_spec",
					 "callgraph_and_branch-3.8", "raw_callgraph_branch-3.4"};
	char f[512];
	for (size_t i = 0; i < sizeof(br) / sizeof(br[0]); i++) {
		snprintf(f, sizeof(f), "%s/perf.data.%s", CORPUS_DIR, br[i]);
		compare_script(f, "tid,time,ip,brstack");
	}
	snprintf(f, sizeof(f), "%s/perf.data.weight_struct", CORPUS_DIR);
	compare_script(f, "tid,time,ip,addr,weight,data_src");
}

/* brstacksym (each branch end as sym+off or [unknown], with dso) and
 * brstackoff (each end relative to its map) on the corpus's branch stacks. */
Test(interop_script, brstacksym_brstackoff)
{
	require_perf_tool();
	require_corpus();
	static const char *const br[] = {"branch-4.14", "branch_stack_hw_index", "branch_stack_spec",
					 "callgraph_and_branch-3.8", "raw_callgraph_branch-3.4", "callgraph_and_branch-3.4"};
	char f[512];
	for (size_t i = 0; i < sizeof(br) / sizeof(br[0]); i++) {
		snprintf(f, sizeof(f), "%s/perf.data.%s", CORPUS_DIR, br[i]);
		compare_script(f, "tid,time,ip,brstacksym");
		compare_script(f, "comm,ip,sym,dso,brstacksym");
		/* the 3.4 recordings' [vdso] ends: perf prints them unrelocated, see README */
		if (!strstr(br[i], "-3.4")) {
			compare_script(f, "tid,ip,brstackoff");
			compare_script(f, "ip,dso,brstackoff");
		}
	}
}

/* tod needs the CLOCK_DATA feature (perf record -k): refused as perf does
 * without it, printed as perf does with it. */
Test(interop_script, tod)
{
	require_perf_tool();
	require_root();
	char f[256];
	snprintf(f, sizeof(f), "%s/noclock.data", test_tmpdir());
	struct run_result r = run_cmd("perf record -q -e cpu-clock -c 1000000 -o '%s' -- '%s' 50", f, WORKLOAD("spin"));
	run_result_free(&r);
	compare_script(f, "tid,tod,time,ip");
	snprintf(f, sizeof(f), "%s/clock.data", test_tmpdir());
	r = run_cmd("perf record -q -k CLOCK_MONOTONIC -e cpu-clock -c 1000000 -o '%s' -- '%s' 50", f,
		    WORKLOAD("spin"));
	if (r.status != 0)
		cr_skip_test("perf record -k cannot record here: %s", r.err);
	run_result_free(&r);
	cr_assert(compare_script(f, "tid,tod,time,ip"));
	compare_script(f, "comm,cpu,tod,event,period");
}

/* Fields perf knows that perfev leaves empty: it says which and why. */
Test(interop_script, unprintable_fields_are_named)
{
	require_corpus();
	struct run_result r = run_cmd("'%s' script -i %s/perf.data.branch-4.14 -F ip,insn,ipc,-callindent", PERFEV_BIN,
				      CORPUS_DIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "'insn' stays empty") && strstr(r.err, "'ipc' stays empty"), "%s", r.err);
	cr_assert_null(strstr(r.err, "callindent"), "a removed field was named: %s", r.err);
	run_result_free(&r);
	/* names perf 6.1 does not know are refused, as perf refuses them */
	r = run_cmd("'%s' script -i %s/perf.data.branch-4.14 -F ip,dsoff", PERFEV_BIN, CORPUS_DIR);
	cr_assert_neq(r.status, 0, "dsoff accepted: %s", r.out);
	run_result_free(&r);
}

/* Where perf refuses a file, perfev says why and fails. */
Test(interop_script, refuses_what_perf_refuses)
{
	require_perf_tool();
	const char *dir = test_tmpdir();
	char path[256];
	snprintf(path, sizeof(path), "%s/notperf.data", dir);
	FILE *f = fopen(path, "w");
	fputs("this is not a perf.data file, not even close to one.......................................", f);
	fclose(f);
	struct run_result o = run_cmd("'%s' script -i '%s'", PERFEV_BIN, path);
	cr_assert_neq(o.status, 0);
	cr_assert(strstr(o.err, "not a perf.data file"), "%s", o.err);
	run_result_free(&o);
	o = run_cmd("'%s' script -i /nonexistent/perf.data", PERFEV_BIN);
	cr_assert_neq(o.status, 0);
	cr_assert(strstr(o.err, "cannot open"), "%s", o.err);
	run_result_free(&o);
	o = run_cmd("'%s' script -i '%s/perf.data.busy.0-3.8' -F addr", PERFEV_BIN, CORPUS_DIR);
	cr_assert_neq(o.status, 0);
	cr_assert(strstr(o.err, "do not have ADDR attribute set"), "%s", o.err);
	run_result_free(&o);
}

/* JSON: one object per record, side-band included, parseable by python. */
Test(interop_script, json_objects)
{
	require_corpus();
	struct run_result o = run_cmd("'%s' script --json -i '%s/perf.data.forkexit-3.8' | python3 -c '"
				      "import json,sys\nn={}\nfor l in sys.stdin:\n o=json.loads(l); n[o[\"type\"]]=n.get(o[\"type\"],0)+1\n"
				      "print(n.get(\"SAMPLE\",0), n.get(\"COMM\",0), n.get(\"FORK\",0), n.get(\"MMAP\",0))'",
				      PERFEV_BIN, CORPUS_DIR);
	if (strstr(o.err, "No module") || o.status == 127)
		cr_skip_test("python3 is not installed");
	cr_assert_eq(o.status, 0, "%s", o.err);
	unsigned long s = 0, c = 0, fk = 0, m = 0;
	cr_assert_eq(sscanf(o.out, "%lu %lu %lu %lu", &s, &c, &fk, &m), 4, "%s", o.out);
	cr_assert(s > 1000 && c > 0 && fk > 0 && m > 0, "samples %lu comm %lu fork %lu mmap %lu", s, c, fk, m);
	run_result_free(&o);
}

/* --show-task-events and --show-mmap-events print as perf prints them. */
Test(interop_script, side_band_lines)
{
	require_perf_tool();
	require_root();
	const char *f = record("side", "-e cpu-clock -F 1000", false);
	struct run_result p = run_cmd("perf script -i '%s' --show-task-events --show-mmap-events -F comm,tid,time,ip 2>/dev/null | grep PERF_RECORD", f);
	struct run_result o = run_cmd("'%s' script -i '%s' --show-task-events --show-mmap-events -F comm,tid,time,ip | grep PERF_RECORD",
				      PERFEV_BIN, f);
	cr_assert_gt(p.out_len, 0);
	cr_assert_str_eq(o.out, p.out);
	run_result_free(&p);
	run_result_free(&o);
}

/* perf record --call-graph dwarf: perf script unwinds each sample's copied
 * user stack; perfev script must print the same frames, symbols, offsets
 * and DSOs (inlined functions as perf shows them), line for line. */
static void compare_dwarf(const char *name, const char *cmd)
{
	require_perf_tool();
	require_root();
	char path[256];
	snprintf(path, sizeof(path), "%s/%s.data", test_tmpdir(), name);
	struct run_result r = run_cmd("perf record -q -e cpu-clock -c 2000000 --call-graph dwarf -o '%s' -- %s",
				      path, cmd);
	/* deep's exit status is its result's low bit: the file tells */
	if (r.status != 0 && access(path, R_OK) != 0)
		cr_skip_test("perf record --call-graph dwarf cannot record here: %s", r.err);
	run_result_free(&r);
	cr_assert(compare_script_unwound(path, NULL));
	compare_script_unwound(path, "comm,tid,ip,sym,dso");
	/* the frames really are unwound: main is reached below the leaf */
	struct run_result o = run_cmd("'%s' script -i '%s' -F ip,sym | grep -c ' main'", PERFEV_BIN, path);
	cr_assert_gt(atoi(o.out), 0, "no sample of %s unwound to main", name);
	run_result_free(&o);
}

Test(interop_script, dwarf_unwind_deep)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "'%s' 0.3 30", WORKLOAD("deep"));
	compare_dwarf("dwarf_deep", cmd);
}

Test(interop_script, dwarf_unwind_calls)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "'%s' 30", WORKLOAD("calls"));
	compare_dwarf("dwarf_calls", cmd);
}
