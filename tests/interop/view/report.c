/* perfev report against perf report on perf's own recordings of
 * workloads/calls: frame pointers (-g) and DWARF (--call-graph dwarf of a
 * build without frame pointers). The top 20 symbols must agree within 0.5
 * points, with and without --children; exports agree with the report;
 * missing binaries degrade. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "support_records.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TOP 20
#define TOL 0.5

static void compare(const char *data, bool children)
{
	const char *opt = children ? "--children" : "--no-children";
	struct run_result want = run_cmd("perf report -i '%s' --stdio --sort sym -g none %s 2>/dev/null",
					 data, opt);
	cr_assert_eq(want.status, 0, "perf report: %s", want.err);
	struct run_result got = run_cmd("%s report -i '%s' --stdio --sort sym -g none %s", PERFEV_BIN,
					data, opt);
	cr_assert_eq(got.status, 0, "perfev report: %s", got.err);
	static struct report_row w[4096], g[4096];
	size_t nw = report_parse(want.out, children, w, 4096);
	size_t ng = report_parse(got.out, children, g, 4096);
	cr_assert_gt(nw, 3, "perf's table: %s", want.out);
	cr_assert_gt(ng, 3, "perfev's table: %s", got.out);
	char msg[8192];
	int bad = report_compare(w, nw, g, ng, TOP, TOL, msg, sizeof(msg));
	cr_assert_eq(bad, 0, "%s: %d of perf's top %d differ by more than %.1f points: %s\n"
		     "perf:\n%s\nperfev:\n%s", opt, bad, TOP, TOL, msg, want.out, got.out);
	run_result_free(&want);
	run_result_free(&got);
}

/* -D 30: no sample of ld.so's start-up, where perf (binutils) names some
 * inlined lines by another file than the line table's (dl-get-cpu-features.c
 * for dl-cacheinfo.h:327), which made srcline_like_perf fail now and then */
static char *record_fp(void)
{
	return perf_record("-D 30 -g -e cpu-clock -F 4000", "fp.data", WORKLOAD("calls") " 1500");
}

static char *record_dwarf(void)
{
	char *exe;
	cr_assert(asprintf(&exe, "%s/calls_nofp", test_tmpdir()) > 0);
	struct run_result r = run_cmd("cc -O1 -g -fomit-frame-pointer -fno-inline -o '%s' '%s/workloads/calls.c'",
				      exe, PERFEV_SRCDIR);
	cr_assert_eq(r.status, 0, "building calls without frame pointers: %s", r.err);
	run_result_free(&r);
	char *cmd;
	cr_assert(asprintf(&cmd, "'%s' 1500", exe) > 0);
	char *path = perf_record("--call-graph dwarf -e cpu-clock -F 2000", "dwarf.data", cmd);
	free(cmd);
	free(exe);
	return path;
}

Test(interop_report, fp_top20_matches_perf, .timeout = 120)
{
	require_root();
	char *data = record_fp();
	compare(data, false);
	compare(data, true);
	free(data);
}

Test(interop_report, dwarf_top20_matches_perf, .timeout = 180)
{
	require_root();
	char *data = record_dwarf();
	compare(data, false);
	compare(data, true);
	free(data);
}

/* The known structure of workloads/calls (self shares, see its header). */
static void expect_share(const struct report_row *rows, size_t n, const char *name, double want)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(rows[i].name, name) == 0) {
			cr_expect(rows[i].self > want - 3 && rows[i].self < want + 3,
				  "%s: self %.2f%%, the workload makes it about %.0f%%", name, rows[i].self, want);
			return;
		}
	cr_expect_fail("%s missing from the report", name);
}

/* go tool pprof (golang-go), pprof's own reader, on the export: the main
 * binary first ("File: calls", profile.proto's mapping[0]), the total in
 * cpu nanoseconds the report's period, each of the top functions' flat
 * share the report's self share (by period, to its two decimals). */
static void pprof_reads_it(const char *data, const char *dir, unsigned long long period)
{
	struct run_result r = run_cmd("HOME='%s' go tool pprof -top -nodecount=6 -unit=ns '%s/p.pb.gz'", dir, dir);
	cr_assert_eq(r.status, 0, "go tool pprof (golang-go; scripts/deps.sh installs it): %s", r.err);
	cr_assert(strstr(r.out, "File: calls\n"), "the main binary is not the first mapping: %s", r.out);
	char want[128];
	snprintf(want, sizeof(want), " of %lluns total\n", period);
	cr_assert(strstr(r.out, want), "pprof's total is not the report's period %llu: %s", period, r.out);
	struct run_result t = run_cmd("%s report -q -i '%s' --stdio --no-children --sort sym -g none", PERFEV_BIN, data);
	cr_assert_eq(t.status, 0, "%s", t.err);
	static struct report_row rows[256];
	size_t n = report_parse(t.out, false, rows, 256);
	size_t checked = 0;
	for (char *line = strstr(r.out, "cum%\n"); line && (line = strchr(line, '\n')) && line[1]; checked++) {
		line++;
		double flat;
		char name[256];
		if (sscanf(line, "%*s %lf%% %*s %*s %*s %255s", &flat, name) != 2)
			break;
		char key[300];
		snprintf(key, sizeof(key), "[.] %s", name);
		bool found = false;
		for (size_t i = 0; i < n && !found; i++)
			if (!strcmp(rows[i].name, key)) {
				found = true;
				cr_expect(fabs(rows[i].self - flat) < 0.006, "%s: pprof %.2f%%, report %.2f%%", name, flat,
					  rows[i].self);
			}
		cr_expect(found || flat < 0.01, "%s (%.2f%% in pprof) is not in the report", name, flat);
	}
	cr_expect_geq(checked, 5, "pprof's top table: %s", r.out);
	run_result_free(&t);
	run_result_free(&r);
}

Test(interop_report, known_structure_and_exports_agree, .timeout = 120)
{
	require_root();
	char *data = record_fp();
	struct run_result r = run_cmd("%s report -i '%s' --stdio --sort sym -g none --no-children", PERFEV_BIN, data);
	cr_assert_eq(r.status, 0, "%s", r.err);
	static struct report_row rows[512];
	size_t n = report_parse(r.out, false, rows, 512);
	expect_share(rows, n, "[.] shared", 30);
	expect_share(rows, n, "[.] leaf_a", 25);
	expect_share(rows, n, "[.] recurse", 20);
	expect_share(rows, n, "[.] alpha", 15);
	expect_share(rows, n, "[.] gamma_", 5);
	expect_share(rows, n, "[.] beta", 5);
	run_result_free(&r);

	/* totals of the report (JSON) against the exports */
	const char *dir = test_tmpdir();
	r = run_cmd("%s report -q -i '%s' --json --pprof '%s/p.pb.gz' --flame '%s/f.svg' --firefox '%s/ff.json'",
		    PERFEV_BIN, data, dir, dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	unsigned long long samples = 0, period = 0;
	const char *at = strstr(r.out, "\"samples\":");
	cr_assert(at, "%s", r.out);
	samples = strtoull(at + 10, NULL, 10);
	at = strstr(r.out, "\"period\":");
	period = strtoull(at + 9, NULL, 10);
	cr_assert_gt(samples, 1000);
	run_result_free(&r);

	r = run_cmd("gunzip -c '%s/p.pb.gz' | protoc --decode perftools.profiles.Profile -I '%s/tests/data' "
		    "'%s/tests/data/profile.proto' | python3 '%s/tests/data/pprof_summary.py'",
		    dir, PERFEV_SRCDIR, PERFEV_SRCDIR, PERFEV_SRCDIR);
	cr_assert_eq(r.status, 0, "pprof: %s", r.err);
	char want[128];
	snprintf(want, sizeof(want), "total0 %llu\n", samples);
	cr_assert(strstr(r.out, want), "pprof samples != report's %llu: %s", samples, r.out);
	snprintf(want, sizeof(want), "total1 %llu\n", period);
	cr_assert(strstr(r.out, want), "pprof period != report's %llu: %s", period, r.out);
	cr_assert(strstr(r.out, "bad_refs 0\n"), "%s", r.out);
	cr_assert(strstr(r.out, "label_keys comm,pid,tid\n"), "%s", r.out);
	cr_assert(strstr(r.out, "leaf_a"), "%s", r.out);
	run_result_free(&r);
	pprof_reads_it(data, dir, period);

	r = run_cmd("%s report -q -i '%s' --folded | awk '{s += $NF} END {print s}'", PERFEV_BIN, data);
	cr_assert_eq(strtoull(r.out, NULL, 10), samples, "folded sum %s, samples %llu", r.out, samples);
	run_result_free(&r);
	r = run_cmd("%s report -q -i '%s' --folded | grep -c '^calls;__libc_start_call_main;main;alpha '", PERFEV_BIN, data);
	cr_assert_eq(strtoul(r.out, NULL, 10), 1, "folded stacks start with comm then the outermost frame: %s", r.out);
	run_result_free(&r);

	r = run_cmd("xmllint --noout '%s/f.svg'", dir);
	cr_assert_eq(r.status, 0, "flame graph: %s", r.err);
	run_result_free(&r);
	r = run_cmd("python3 '%s/tests/data/firefox_check.py' '%s/ff.json'", PERFEV_SRCDIR, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "errors none\n"), "%s", r.out);
	snprintf(want, sizeof(want), "samples %llu\n", samples);
	cr_assert(strstr(r.out, want), "Firefox samples: %s", r.out);
	run_result_free(&r);
	free(data);
}

Test(interop_report, missing_and_stripped_binaries_degrade, .timeout = 120)
{
	require_root();
	const char *dir = test_tmpdir();
	/* gone has no build-id: a copy of calls would be found by calls' build-id */
	struct run_result r = run_cmd("cp '%s' '%s/gone' && objcopy --remove-section=.note.gnu.build-id '%s/gone' && "
				      "cp '%s' '%s/stripped' && strip '%s/stripped'",
				      WORKLOAD("calls"), dir, dir, WORKLOAD("calls"), dir, dir);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "'%s/gone' 300", dir);
	char *gone = perf_record("-g -e cpu-clock -F 2000", "gone.data", cmd);
	snprintf(cmd, sizeof(cmd), "'%s/stripped' 300", dir);
	char *stripped = perf_record("-g -e cpu-clock -F 2000", "stripped.data", cmd);
	r = run_cmd("rm '%s/gone'", dir);
	run_result_free(&r);

	r = run_cmd("%s report -i '%s' --stdio --sort dso,sym -g caller --flame '%s/g.svg' --pprof '%s/g.pb.gz'",
		    PERFEV_BIN, gone, dir, dir);
	cr_assert_eq(r.status, 0, "a missing binary is not an error: %s", r.err);
	cr_assert(strstr(r.out, "gone"), "the DSO is still named: %s", r.out);
	cr_assert(strstr(r.out, "[.] 0x"), "its addresses are shown: %s", r.out);
	cr_assert(strstr(r.err, "note:"), "and a note says why: %s", r.err);
	run_result_free(&r);

	r = run_cmd("%s report -i '%s' --stdio --sort dso,sym --children", PERFEV_BIN, stripped);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "stripped"), "%s", r.out);
	cr_assert(strstr(r.out, "[.] main") || strstr(r.out, "[.] 0x"), "%s", r.out);
	run_result_free(&r);

	/* and a damaged file is an error with words, not a crash */
	r = run_cmd("head -c 3000 '%s' > '%s/cut.data'; %s report -i '%s/cut.data' --stdio; echo status=$?",
		    gone, dir, PERFEV_BIN, dir);
	cr_assert(strstr(r.out, "status=0") || strstr(r.out, "status=1"), "%s %s", r.out, r.err);
	run_result_free(&r);
	free(gone);
	free(stripped);
}

Test(interop_report, script_symbolizes_like_perf, .timeout = 120)
{
	require_root();
	char *data = record_fp();
	/* sym, symoff, dso and the symbolized callchain: perf script's default output */
	struct run_result r = run_cmd("cd '%s' && perf script -i '%s' > perf.txt 2>/dev/null && "
				      "%s script -i '%s' > perfev.txt && grep -c . perf.txt && "
				      "diff perf.txt perfev.txt | grep -c '^<'", test_tmpdir(), data, PERFEV_BIN, data);
	unsigned long lines = strtoul(r.out, NULL, 10);
	const char *nl = strchr(r.out, '\n');
	unsigned long differ = nl ? strtoul(nl + 1, NULL, 10) : lines;
	cr_assert_gt(lines, 1000, "%s %s", r.out, r.err);
	cr_assert_leq(differ, lines / 100, "%lu of %lu lines differ from perf script", differ, lines);
	run_result_free(&r);
	r = run_cmd("grep -c 'leaf_a+0x' '%s/perfev.txt'", test_tmpdir());
	cr_assert_gt(strtoul(r.out, NULL, 10), 100, "symbolized with offsets: %s", r.out);
	run_result_free(&r);
	free(data);
}

Test(interop_report, pipe_mode_input, .timeout = 60)
{
	require_root();
	require_perf_tool();
	struct run_result r = run_cmd("perf record -q -g -e cpu-clock -o - -- %s 300 2>/dev/null | "
				      "%s report -q -i - --stdio --sort sym -g none --no-children",
				      WORKLOAD("calls"), PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	static struct report_row rows[256];
	size_t n = report_parse(r.out, false, rows, 256);
	cr_assert_geq(n, 4, "%s", r.out);
	expect_share(rows, n, "[.] leaf_a", 25);
	run_result_free(&r);
}

Test(interop_report, record_writes_the_exports_too, .timeout = 120)
{
	require_root();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd '%s' && %s record -g -o rec.data --flame rec.svg --pprof rec.pb.gz "
				      "--folded rec.folded -- %s 300 >/dev/null", dir, PERFEV_BIN, WORKLOAD("calls"));
	if (r.status != 0 && strstr(r.err, "perf_event_open"))
		cr_skip_test("perfev record cannot sample here: %s", r.err);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "wrote the flame graph to rec.svg"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("cd '%s' && xmllint --noout rec.svg && gunzip -t rec.pb.gz && "
		    "awk '{s += $NF} END {print s}' rec.folded && %s report -q -i rec.data --json | "
		    "grep -o '\"samples\":[0-9]*' | head -1", dir, PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	unsigned long folded = strtoul(r.out, NULL, 10);
	const char *s = strstr(r.out, "\"samples\":");
	cr_assert(s, "%s", r.out);
	cr_assert_eq(folded, strtoul(s + 10, NULL, 10), "folded stacks and the report count the same: %s", r.out);
	cr_assert_gt(folded, 100);
	run_result_free(&r);
}

/* ---- perfev report --stdio line by line against perf report --stdio ---------
 * Each option set (report_expect_like_perf): at most `slack` lines differ
 * (entries of exactly equal value whose order perf decides by history we do
 * not keep, ld.so's entry symbol). */

/* The same with runs of entries of equal value compared as sets (see
 * report_diff_perf_ties_as_sets). */
static void expect_like_perf_ties_as_sets(const char *data, const char *options, int slack)
{
	char *diff;
	size_t lines;
	int differ = report_diff_perf_ties_as_sets(data, options, &diff, &lines);
	cr_expect_leq(differ, slack, "perfev report --stdio %s (ties as sets): %d of %zu lines differ from perf's:\n%s",
		      options, differ, lines, diff);
	free(diff);
}

static void expect_same_headers(const char *data, const char *options)
{
	struct run_result want = run_cmd("perf report -i '%s' --stdio %s 2>/dev/null", data, options);
	struct run_result got = run_cmd("%s report -q -i '%s' --stdio %s", PERFEV_BIN, data, options);
	cr_assert_eq(want.status, 0, "%s", want.err);
	cr_assert_eq(got.status, 0, "%s", got.err);
	char *w = report_header_lines(want.out), *g = report_header_lines(got.out);
	cr_expect_str_eq(g, w, "%s: the sections' headers differ.\nperf:\n%s\nperfev:\n%s", options, w, g);
	free(w);
	free(g);
	run_result_free(&want);
	run_result_free(&got);
}

Test(interop_report, percent_limit_prunes_call_graphs_like_perf, .timeout = 120)
{
	require_root();
	char *data = record_fp();
	/* perf: --percent-limit is also the call-graph threshold; the later of it and -g's wins */
	report_expect_like_perf(data, "--no-children --percent-limit 5", 0);
	report_expect_like_perf(data, "--no-children -g graph,0.5,callee --percent-limit 5", 0);
	report_expect_like_perf(data, "--no-children --percent-limit 5 -g graph,0.5,callee", 0);
	report_expect_like_perf(data, "--children --percent-limit 3", 0);
	free(data);
}

/* -g ...,period and ...,count: the branches' periods or sample counts in
 * place of their percentages, in every graph mode (fractal's remainder
 * branch by perf's rule: its count is the callees' not shown, no line
 * without any); -g ...,address is refused, saying why. */
Test(interop_report, graph_values_like_perf, .timeout = 300)
{
	require_corpus();
	static const struct report_corpus_case cases[] = {
		{"perf.data.callgraph-3.8", "-g caller,period", 0},
		{"perf.data.callgraph-3.8", "-g callee,count --no-children", 0},
		{"perf.data.callgraph-3.8", "-g fractal,period", 0},
		{"perf.data.callgraph-3.8", "-g fractal,caller,count,2", 0},
		{"perf.data.callgraph-3.4", "-g fractal,callee,count", 0},
		{"perf.data.callgraph-3.4", "-g folded,count", 0},
		{"perf.data.callgraph-3.4", "-g flat,period --no-children", 0},
		{"perf.data.callgraph-3.4", "-g graph,1,percent", 0},
	};
	report_expect_corpus_cases(cases, sizeof(cases) / sizeof(cases[0]));
	struct run_result r = run_cmd("%s report -q -i %s/perf.data.callgraph-3.8 --stdio -g caller,address",
				      PERFEV_BIN, CORPUS_DIR);
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "address") && strstr(r.err, "not supported"), "%s", r.err);
	run_result_free(&r);
}

/* A DWARF-unwound return address no symbol names (dash is stripped) is
 * perf's pc - 1 in its graphs and rows: perf keeps libdwfl's frames. */
Test(interop_report, dwarf_unnamed_frames_like_perf, .timeout = 180)
{
	require_root();
	char *data = perf_record("-D 10 --call-graph dwarf -e cpu-clock", "sh_dwarf.data",
				 "sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'");
	/* (slack: a sample in libc's .plt.got, which perf 6.1 leaves unnamed
	 * and perfev names malloc@plt as later perfs do, see README) */
	report_expect_like_perf(data, "--no-children -g caller", 2);
	report_expect_like_perf(data, "--no-children -g callee --sort dso,sym", 2);
	/* -U: samples no symbol names left out, and the unnamed frames of the
	 * others' chains (in counts: a .plt.got sample perfev keeps changes
	 * the Samples and Event count lines and its row alone) */
	report_expect_like_perf(data, "-U --no-children -g none -F sample,dso,sym", 6);
	report_expect_like_perf(data, "-U --no-children -g none -F sample,comm,dso,sym --sort dso,sym", 6);
	free(data);
}

/* A static binary: no .dynsym, so perf makes no PLT symbols of its
 * .rela.plt (its IFUNCs' IRELATIVE slots) and _init, unsized, reaches up to
 * the next symbol over .plt; as perf with frame pointers. With DWARF, perf
 * 6.1 unwinds none of its stacks past the first frame; perfev reaches main. */
Test(interop_report, static_binary_like_perf, .timeout = 180)
{
	require_root();
	char exe[4200], cmd[4300];
	snprintf(exe, sizeof(exe), "%s/static_loop", test_tmpdir());
	struct run_result b = run_cmd("cc -O2 -g -static -fno-omit-frame-pointer -o '%s' '%s/tests/data/static/snprintf_loop.c' 2>&1",
				      exe, PERFEV_SRCDIR);
	if (b.status != 0)
		cr_skip_test("cannot link statically here (libc.a): %s", b.out);
	run_result_free(&b);
	snprintf(cmd, sizeof(cmd), "'%s'", exe);
	char *data = perf_record("-D 20 -g -e cpu-clock", "static_fp.data", cmd);
	report_expect_like_perf(data, "--no-children -g caller", 0);
	report_expect_like_perf(data, "--no-children -g none --sort dso,sym", 0);
	compare_script_args(data, "", "cat");
	free(data);
	data = perf_record("-D 20 --call-graph dwarf -e cpu-clock", "static_dwarf.data", cmd);
	struct run_result r = run_cmd("'%s' script -i '%s' -F ip,sym | grep -c ' main$'", PERFEV_BIN, data);
	cr_expect_gt(atoi(r.out), 10, "DWARF stacks of the static binary reach main in %s samples", r.out);
	run_result_free(&r);
	free(data);
}

Test(interop_report, call_graphs_like_perf, .timeout = 180)
{
	require_root();
	char *data = record_fp();
	/* graphs and tables line by line; a few kernel entries of equal value may swap */
	report_expect_like_perf(data, "--no-children -g caller", 12);
	report_expect_like_perf(data, "--no-children -g callee", 12);
	report_expect_like_perf(data, "--children", 20);
	report_expect_like_perf(data, "--children -g callee", 20);
	report_expect_like_perf(data, "--no-children --sort sym -g none", 4);
	/* frame-pointer return addresses are named as they are, as perf does (ld.so's
	 * _start calls _dl_start and returns into _dl_start_user) */
	struct run_result want = run_cmd("perf report -i '%s' --stdio --children --sort dso,sym -g none 2>/dev/null | "
					 "grep -c '_dl_start_user'", data);
	struct run_result got = run_cmd("%s report -q -i '%s' --stdio --children --sort dso,sym -g none | "
					"grep -c '_dl_start_user'", PERFEV_BIN, data);
	cr_expect_eq(strtol(got.out, NULL, 10), strtol(want.out, NULL, 10),
		     "rows naming _dl_start_user: perf %s, perfev %s", want.out, got.out);
	run_result_free(&want);
	run_result_free(&got);
	free(data);
}

Test(interop_report, one_section_per_event_like_perf, .timeout = 120)
{
	require_root();
	char *data = perf_record("-g -e cpu-clock,task-clock -F 2000", "two.data", WORKLOAD("calls") " 600");
	expect_same_headers(data, "--no-children -g none");
	expect_same_headers(data, "--children");
	report_expect_like_perf(data, "--no-children --percent-limit 1", 0);
	report_expect_like_perf(data, "--no-children -g none", 6);
	/* --group on a file without groups: every event one group, "events 'a, b'" */
	expect_same_headers(data, "--group --no-children -g none");
	report_expect_like_perf(data, "--group --no-children --percent-limit 1", 0);
	free(data);
	/* an event without samples between two with: left out alone, a column in a group */
	data = perf_record("-g -e cpu-clock,major-faults,task-clock -F 1000", "three.data", WORKLOAD("calls") " 300");
	expect_same_headers(data, "--no-children -g none");
	expect_same_headers(data, "--group --no-children -g none");
	report_expect_like_perf(data, "--group --no-children --percent-limit 1", 0);
	free(data);
}

Test(interop_report, event_groups_side_by_side_like_perf, .timeout = 120)
{
	require_root();
	char *data = perf_record("-g -e '{cpu-clock,task-clock}' -F 2000", "group.data", WORKLOAD("calls") " 600");
	/* perf shows a recorded group side by side by default */
	expect_same_headers(data, "--no-children -g none");
	expect_same_headers(data, "--children");
	report_expect_like_perf(data, "--no-children --percent-limit 1", 0);
	report_expect_like_perf(data, "--children --percent-limit 1", 0);
	report_expect_like_perf(data, "--no-children -g none", 6);
	/* --no-group: one section per event again (the leader still "events") */
	expect_same_headers(data, "--no-group --no-children -g none");
	report_expect_like_perf(data, "--no-group --no-children --percent-limit 1", 0);
	free(data);
}

/* Other machines' recordings (the corpus): what perf prints, perfev prints.
 * Slack: perf's closing "#" lines around its tip. */
Test(interop_report, corpus_files_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct {
		const char *file, *options;
		int slack;
	} cases[] = {
		/* a group of 3 hardware events side by side, 2 LOST_SAMPLES, "Samples: 191 " */
		{"perf.data.lost_samples-4.4", "--no-children -g none", 2},
		{"perf.data.piped.lost_samples-4.4", "--no-children -g none", 2},
		/* six events without PERF_SAMPLE_PERIOD: the attr's period is the event count */
		{"perf.data.busy.0-3.8", "--no-children -g none", 2},
		/* unresolved kernel modules: [ath9k] and module-relative addresses */
		{"perf.data.callgraph-3.8", "--no-children -g none", 2},
		/* unknown symbols of one DSO mapped at several addresses: one row per address in the DSO */
		{"perf.data.hw_and_sw-3.4", "--no-children -g none", 2},
		{"perf.data.group_desc-4.14", "--no-children -g none", 2},
		{"perf.data.systemwide.1-3.8", "--no-children -g none", 2},
		/* call graphs of another machine's unresolved frames, both orders */
		{"perf.data.callgraph-3.8", "--no-children -g caller", 2},
		{"perf.data.callgraph-3.4", "--no-children -g callee", 2},
		/* fractal: the first level in shares of the entry's value, "[...]"
		 * lines for the rest (without them 259 and 36 lines differed) */
		{"perf.data.callgraph-3.4", "--no-children -g fractal", 0},
		{"perf.data.callgraph-3.8", "--no-children -g fractal", 0},
		/* "perf-exec" samples of a thread later named "sleep": perf cuts the name to the
		 * Command column sized by the threads' last names ("perf-ex") */
		{"perf.data.hybrid_topology", "--no-children -g none", 2},
		/* anonymous executable memory: perf's JIT map, "[JIT] tid PID" */
		{"perf.data.busy.1-3.8", "--no-children -g none", 2},
		{"perf.data.systemwide.5-3.4", "--no-children -g none", 2},
		/* --percentage relative: filtered samples out of the totals and the
		 * Samples line, call-graph percentages still of every sample */
		/* -C: other CPUs' samples dropped before anything counts them */
		{"perf.data.systemwide.1-3.8", "-C 1 --no-children", 0},
		{"perf.data.systemwide.1-3.8", "-C 0,2-3", 0},
		{"perf.data.systemwide.1-3.8", "-C 3 --sort cpu,sym", 0},
		{"perf.data.callgraph-3.8", "--comms chrome --percentage relative", 0},
		{"perf.data.callgraph-3.8", "--comms chrome -g caller --percentage relative", 0},
		{"perf.data.callgraph-3.8", "--dsos libc-2.15.so --no-children -g none --percentage relative", 0},
		{"perf.data.callgraph-3.8", "--pid 1 --no-children --percentage relative", 0},
		/* pipe files carry no kernel version: both tools read this kernel's
		 * kallsyms, moved by where _text was then and is now (KASLR) */
		{"perf.data.piped.target-3.8", "--no-children -g none", 2},
		{"perf.data.piped.target.throttled-3.4", "--no-children -g none", 2},
		{"perf.data.piped.hw_and_sw-3.4", "--no-children -g none", 2},
		/* --max-stack: callee order keeps each chain's innermost N entries
		 * (without the cut: 43, 27, 22 and 18 lines differ) */
		{"perf.data.callgraph-3.4", "--no-children --max-stack 2", 2},
		{"perf.data.callgraph-3.4", "--no-children -g callee --max-stack 5", 2},
		{"perf.data.callgraph_and_branch-3.4", "--no-children --no-branch-stack --max-stack 2", 2},
		{"perf.data.callgraph-3.8", "--no-children --max-stack 2", 2},
		/* caller order keeps the outermost N, without the sampled address
		 * (perf's chain lacks it; the sample's own entry stays): 6 lines
		 * differ with the leaf kept in the graph, 33 without the cut */
		{"perf.data.callgraph-3.4", "--no-children -g caller --max-stack 5", 0},
		{"perf.data.callgraph-3.4", "--no-children -g caller --max-stack 1", 0},
		{"perf.data.raw_callgraph_branch-3.4", "--no-children --no-branch-stack -g caller --max-stack 4", 0},
		/* perf's pid key is the thread: its tid and its name at the end of
		 * the file (chrome's threads; 1891 and 7930 lines differed) */
		{"perf.data.busy.1-3.8", "--sort pid,sym --no-children -g none", 2},
		{"perf.data.systemwide.5-3.4", "--sort comm,pid --no-children -g none", 2},
		{"perf.data.callgraph-3.4", "--sort pid,dso -g caller", 2},
		/* an unknown symbol is its address alone unless dso is a key: two
		 * objects' 0x18eb0 are one row (9 lines differed) */
		{"perf.data.forkexit-3.8", "--sort sym --no-children -g none", 2},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		report_expect_corpus_like_perf(cases[i].file, cases[i].options, cases[i].slack);
}

/* --children (perf's default) on other machines' recordings, whose frames
 * are all unresolved here: perf's two rows of a location (its own samples by
 * the address in the object, the call chains through it by the address as
 * sampled, see PERFEV_KEY_SPLIT_UNRESOLVED), in perf's order with its graphs.
 * Strict, then with runs of equal value compared as sets. */
Test(interop_report, corpus_children_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct {
		const char *file, *options;
		int slack, slack_ties;
	} cases[] = {
		/* rows of equal value in perf's output rb-tree's order, whose
		 * comparator (caller above callee within one thread only) is not a
		 * total order: replayed (report_rbtree.c; 3 rows, 6 lines, were out of
		 * place). Without graphs (-g none) the order of unknown addresses of
		 * equal value is the one perf's entry tree gives them (its wrapping
		 * address comparison, see README): 4 rows out of place */
		{"perf.data.callgraph-3.8", "--children", 0, 0},
		{"perf.data.callgraph-3.8", "--children -g none", 8, 0},
		{"perf.data.callgraph-3.8", "--children --sort dso,sym", 0, 0},
		/* two samples of 255-frame chains, which both cut to their 127
		 * outermost entries (--max-stack's default, caller order); perf's
		 * chain then lacks the sampled address, and so its call-chain row
		 * (3 lines differed with it kept: 0x...8dd9 0.09% for 0.05%, 0x...51f9) */
		{"perf.data.callgraph-3.4", "--children", 0, 0},
		{"perf.data.callgraph-3.4", "--children -g none", 4, 0},
		{"perf.data.callgraph_and_branch-3.8", "--children --no-branch-stack", 0, 0},
		/* 11: perf's two rows [.] and [k] of one address outside any map,
		 * where perfev has one (8 with its graph) */
		{"perf.data.callgraph_and_branch-3.4", "--children --no-branch-stack", 11, 11},
		{"perf.data.raw_callgraph_branch-3.4", "--children --no-branch-stack", 0, 0},
		/* callee order: rows outside any map [k]/[.] as perf's cursor in that
		 * order leaves them (see unmapped_frames_level_like_perf: 26 and 48
		 * lines differed, ties as sets); rows of equal value in perf's output
		 * tree's order (28 and 50 more lines differed in a sorted order) */
		{"perf.data.callgraph-3.4", "--children -g callee", 0, 0},
		{"perf.data.callgraph-3.8", "--children -g callee", 0, 0},
		/* fractal: perf's "[...]" remainders (without them 2169, 685 and
		 * 835 lines differed) */
		{"perf.data.callgraph-3.4", "--children -g fractal", 0, 0},
		{"perf.data.callgraph-3.8", "--children -g fractal", 0, 0},
		{"perf.data.callgraph-3.4", "--children -g fractal,0.5,callee", 0, 0},
		/* no cut: the whole 255-frame chains, as perfev */
		{"perf.data.callgraph-3.4", "--children --max-stack 300", 0, 0},
		{"perf.data.callgraph_and_branch-3.4", "--children --no-branch-stack --max-stack 300", 11, 9},
		/* a deep cut (without it 944 and 384 lines differ; with the
		 * sampled address in the chain 81, 211 and 300) */
		{"perf.data.callgraph-3.4", "--children -g none --max-stack 5", 4, 0},
		{"perf.data.callgraph_and_branch-3.4", "--children --no-branch-stack -g none --max-stack 5", 0, 0},
		{"perf.data.callgraph-3.4", "--children --max-stack 5", 0, 0},
		{"perf.data.callgraph-3.4", "--children --max-stack 1", 0, 0},
		{"perf.data.raw_callgraph_branch-3.4", "--children --no-branch-stack --max-stack 4", 0, 0},
		/* no call chains: perf drops --children (Children would equal
		 * Self), files and pipes alike (16627 and 8373 lines differed) */
		{"perf.data.busy.1-3.4", "--children", 0, 0},
		{"perf.data.piped.target-3.8", "--children", 0, 0},
		{"perf.data.systemwide.1-3.8", "--children --sort sym", 0, 0},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, cases[i].file);
		for (int ties = 0; ties < 2; ties++) {
			char *diff;
			size_t lines;
			int differ = ties ? report_diff_perf_ties_as_sets(path, cases[i].options, &diff, &lines)
					  : report_diff_perf(path, cases[i].options, &diff, &lines);
			cr_expect_leq(differ, ties ? cases[i].slack_ties : cases[i].slack,
				      "%s %s%s: %d of %zu lines differ from perf's:\n%.4000s", cases[i].file,
				      cases[i].options, ties ? " (ties as sets)" : "", differ, lines, diff);
			free(diff);
		}
	}
}

Test(interop_report, srcline_like_perf, .timeout = 120)
{
	require_root();
	char *data = record_fp();
	/* kernel addresses without vmlinux: perf's "symbol+offset" (one libc/ld.so line may name another file) */
	report_expect_like_perf(data, "--no-children -g none --sort srcline", 6);
	report_expect_like_perf(data, "--no-children -g none --sort dso,srcline", 6);
	/* single-sample kernel symbols: perf names their lines after it sizes
	 * the column, and cuts them to it */
	report_expect_like_perf(data, "--no-children -g none --sort sym,srcline", 6);
	free(data);
}

/* perf's [k]/[.] of a frame outside any map: the level of the frame before it
 * in perf's cursor, from the sample's own (fill_callchain_info leaves the
 * level of a frame without a map as the previous one set it). In caller
 * order (--children's default) garbage frames 0x20 and 0 under a kernel
 * sample's libc caller are [k]; in callee order (-g callee) they follow the
 * libc frame, [.] (24 of 386 and 13 of 92 rows were [k] with the caller
 * order's rule, where perf has none).
 * One row per address. Every such row of two corpus files as perf prints
 * them (the order of rows of nearly equal value aside). */
Test(interop_report, unmapped_frames_level_like_perf, .timeout = 120)
{
	require_perf_tool();
	require_corpus();
	static const char *const files[] = {"perf.data.callgraph-3.8", "perf.data.callgraph-3.4"};
	static const char *const orders[] = {"-g none", "-g callee"};
	for (size_t i = 0; i < 4; i++) {
		const char *t = test_tmpdir(), *file = files[i % 2], *order = orders[i / 2];
		struct run_result r = run_cmd(
			"f='%s/%s'; perf report -i \"$f\" --stdio --children %s 2>/dev/null | "
			"grep -E '\\[unknown\\] +\\[[k.]\\]' | sort > '%s/unmapped_perf'; %s report -q -i \"$f\" --stdio "
			"--children %s | grep -E '\\[unknown\\] +\\[[k.]\\]' | sort > '%s/unmapped_perfev'; "
			"diff '%s/unmapped_perf' '%s/unmapped_perfev' && grep -c '\\[k\\]' '%s/unmapped_perf' "
			"; wc -l < '%s/unmapped_perf'",
			CORPUS_DIR, file, order, t, PERFEV_BIN, order, t, t, t, t, t);
		cr_expect_eq(r.status, 0, "%s %s: perfev's rows outside any map differ from perf's:\n%s", file, order,
			     r.out);
		char *end;
		long k = strtol(r.out, &end, 10), all = strtol(end, NULL, 10);
		cr_expect_gt(all, 50, "%s %s: perf shows rows outside any map: %s", file, order, r.out);
		if (i < 2) /* in callee order all are [.] here */
			cr_expect_gt(k, 5, "%s %s: perf shows [k] rows outside any map: %s", file, order, r.out);
		run_result_free(&r);
	}
}

/* perf's -F (columns and sort order in the order given, "Overhead" even
 * beside Children), -n and --show-total-period, and last columns padded as
 * perf pads them (all but a symbol or srcline). */
Test(interop_report, fields_and_columns_like_perf, .timeout = 120)
{
	require_root();
	char *data = record_fp();
	report_expect_like_perf(data, "-F overhead,sym", 6);
	report_expect_like_perf(data, "-F overhead_children,overhead,sym", 6);
	report_expect_like_perf(data, "-F overhead,sample,period,comm,sym -g none", 2);
	report_expect_like_perf(data, "-F sym,overhead -g none", 2);
	report_expect_like_perf(data, "-F overhead,sym -s dso -g none", 2);
	report_expect_like_perf(data, "-F overhead -g none", 0);
	report_expect_like_perf(data, "-n --show-total-period -g none", 2);
	report_expect_like_perf(data, "--no-children -g none -s sym,dso", 2);
	report_expect_like_perf(data, "--no-children -g none -s sym,comm", 2);
	report_expect_like_perf(data, "-g none -s pid", 0);
	free(data);
}

/* Every branch of every graph (--percent-limit 0): siblings of equal weight
 * in perf's order; with --sort sym... perf leaves out a graph's first frame. */
Test(interop_report, whole_graphs_like_perf, .timeout = 120)
{
	require_root();
	char *data = record_fp();
	/* 0.05: every branch but those of single samples (a rare kernel sample in an
	 * aliased symbol may be named otherwise: __pi_memcpy/memcpy, symbols') */
	report_expect_like_perf(data, "--percent-limit 0.05", 4);
	report_expect_like_perf(data, "--no-children --percent-limit 0.05 -g callee", 4);
	report_expect_like_perf(data, "-s sym", 4);
	report_expect_like_perf(data, "--no-children -s sym,dso -g caller", 4);
	/* perf's other print types: flat (each path, its total), folded (a;b;c lines,
	 * own samples), fractal (shares of the parent's callees) */
	report_expect_like_perf(data, "-g flat", 4);
	report_expect_like_perf(data, "-g folded", 4);
	report_expect_like_perf(data, "--no-children -g folded,0.5,caller", 4);
	report_expect_like_perf(data, "--no-children -g fractal", 4);
	/* fractal with --children: the first level in shares of the entry's
	 * Children, "[...]" for what the branches shown leave of it */
	report_expect_like_perf(data, "-g fractal", 4);
	report_expect_like_perf(data, "-g fractal,0.5,callee", 4);
	free(data);
}

/* Inlined functions: perf expands them in DWARF-unwound call chains only
 * (a frame-pointer chain shows the function they were inlined into); the
 * table's self is the function's, the graph starts at the innermost inlined
 * frame; "(inlined)" does not count in the Symbol column's width. */
Test(interop_report, inlined_frames_like_perf, .timeout = 180)
{
	require_root();
	char *exe = build_program("inl",
				  "static volatile unsigned long sink;\n"
				  "static inline __attribute__((always_inline)) void inner(int n) { for (int i = 0; i < n; i++) sink += i * 3; }\n"
				  "static inline __attribute__((always_inline)) void middle(int n) { for (int i = 0; i < 10; i++) inner(n); }\n"
				  "__attribute__((noinline)) void outer(int n) { middle(n); }\n"
				  "int main(void) { for (int k = 0; k < 20000; k++) outer(1000); return 0; }\n",
				  "-O2 -g -fno-omit-frame-pointer"), cmd[4200];
	snprintf(cmd, sizeof(cmd), "'%s'", exe);
	free(exe);
	char *fp = perf_record("-g -e cpu-clock", "inl_fp.data", cmd);
	char *dwarf = perf_record("--call-graph dwarf -e cpu-clock", "inl_dwarf.data", cmd);
	report_expect_like_perf(fp, "--no-children", 2);
	report_expect_like_perf(fp, "--percent-limit 0.05", 4);
	/* a rare sample in an aliased leaf (ld.so's update_active.constprop.0): its
	 * entry is the ELF symbol, its graph and --children's other entry the DWARF
	 * name, as perf's (slack: with --children a function inlined into itself,
	 * ld.so's __mmap64, is one entry in perf's table, two in ours) */
	report_expect_like_perf(dwarf, "--no-children", 4);
	/* perf orders entries of equal children by the depth of their call graphs
	 * (callers first), but an inlined function's entry can lose depth: perf's
	 * entry tree orders inlined symbols by name and the others by address, a
	 * search in it can miss the entry and add a second one for the same
	 * function (perf report --sort sym shows both), and merging the two
	 * (the comm sort key's collapse) keeps the first one's depth only. So the
	 * order of tied entries depends on the shape of perf's red-black tree
	 * over the whole recording: they are compared as sets. Where the miss
	 * is not repaired by the collapse, perf shows one function as two
	 * entries (ld.so's _dl_start_final (inlined) as 1.11% and 0.42%, where
	 * perfev shows one of 1.53%: a deliberate difference, see README); it
	 * happens with ld.so's start-up, whose many inlined functions sort
	 * against its other symbols in no consistent order, so this comparison
	 * starts recording after it (-D 20). */
	char *late = perf_record("-D 20 --call-graph dwarf -e cpu-clock", "inl_dwarf_late.data", cmd);
	expect_like_perf_ties_as_sets(late, "--children", 8);
	free(late);
	/* Equal single-sample branches from different objects (libc's
	 * __libc_early_init, ld.so's _dl_load_cache_lookup) in perf's order of
	 * its dso structures (see report_objects.c); slack 4 as the other graphs */
	report_expect_like_perf(dwarf, "--percent-limit 0.05 -g callee --no-children", 4);
	/* and the graph of outer starts at inner (inlined) */
	struct run_result r = run_cmd("%s report -q -i '%s' --stdio --no-children | grep -c 'inner (inlined)'",
				      PERFEV_BIN, dwarf);
	cr_expect_gt(strtol(r.out, NULL, 10), 0, "%s", r.out);
	run_result_free(&r);
	free(fp);
	free(dwarf);
}

/* A recording without samples: perf's two first lines, a note, exit 0. */
Test(interop_report, no_samples_like_perf, .timeout = 60)
{
	require_root();
	char *data = perf_record("-e cpu-clock -c 1000000000", "empty.data", "true");
	report_expect_like_perf(data, "", 0);
	struct run_result r = run_cmd("%s report -i '%s' --stdio", PERFEV_BIN, data);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "has no samples"), "%s", r.err);
	run_result_free(&r);
	free(data);
}

/* perf's --comms/--dsos/--symbols with one value: the column is left out and
 * named in the header ("# dso: calls"), percentages stay of every sample. */
Test(interop_report, filters_like_perf, .timeout = 120)
{
	require_root();
	char *data = record_fp();
	report_expect_like_perf(data, "--symbols leaf_a --no-children -g none", 0);
	report_expect_like_perf(data, "--dsos calls --no-children -g none", 0);
	report_expect_like_perf(data, "--comms calls --no-children", 4);
	report_expect_like_perf(data, "--comms calls --dsos calls --symbols leaf_a --no-children", 0);
	/* --symbol-filter: rows whose symbol holds the text, totals kept (but
	 * for --percentage relative), columns as wide as the rows shown */
	report_expect_like_perf(data, "--symbol-filter=re --no-children -g none", 0);
	report_expect_like_perf(data, "--symbol-filter=a -g caller", 0);
	report_expect_like_perf(data, "--symbol-filter=re --percentage relative --no-children -g none", 0);
	report_expect_like_perf(data, "--symbol-filter=nosuchname", 0);
	/* --time: samples outside every range are left out of every total,
	 * and the Samples line names the time slices */
	char *a = perf_sample_time(data, 30), *b = perf_sample_time(data, 90), *c = perf_sample_time(data, 150);
	char t[512];
	snprintf(t, sizeof(t), "--time %s,%s --no-children", a, b);
	report_expect_like_perf(data, t, 0);
	snprintf(t, sizeof(t), "--time '%s,%s %s,' -g caller", a, b, c);
	report_expect_like_perf(data, t, 0);
	snprintf(t, sizeof(t), "--time ,%s --sort comm,sym", b);
	report_expect_like_perf(data, t, 0);
	free(a);
	free(b);
	free(c);
	free(data);
}

/* Three processes of one program (different threads, ASLR'd addresses):
 * graphs and rows as perf orders them; with --children, rows of equal value
 * from different threads in perf's output tree's order (its comparator puts
 * a caller above its callee within one thread only: 14 to 36 lines differed
 * in a sorted order on three recordings). */
Test(interop_report, several_processes_like_perf, .timeout = 120)
{
	require_root();
	char cmd[1024];
	snprintf(cmd, sizeof(cmd), "sh -c '%s 300 & %s 300 & %s 300; wait'", WORKLOAD("calls"), WORKLOAD("calls"),
		 WORKLOAD("calls"));
	char *data = perf_record("-g -e cpu-clock -F 2000", "multi.data", cmd);
	/* slack: a sample of sh in a versioned libc symbol may take another of its
	 * names than perf's (pthread_sigmask@GLIBC_2.2.5 / @@GLIBC_2.32: symbols') */
	report_expect_like_perf(data, "--no-children --percent-limit 0.1", 6);
	report_expect_like_perf(data, "--no-children -g callee", 6);
	report_expect_like_perf(data, "--percent-limit 0.2 -g none", 4);
	report_expect_like_perf(data, "", 4);
	report_expect_like_perf(data, "-g callee", 4);
	free(data);
}

/* --header-only and --header print the file's header as perf 6.1 does:
 * layout, every feature in order (topologies as "info available"), the
 * missing ones; --header then the report without perf's hint line. On
 * perf's and perfev's recordings made here and on corpus files of perf 3.2
 * to 6.x, with -I too (not armv7.perf_3.14-3.8, whose memory, cmdline and
 * PMU mappings perf misreads as empty, nor branch_stack_spec, whose BPF
 * programs perfev does not list, nor weight_struct, whose CPU ids perf
 * takes as unavailable with -I). */
Test(interop_report, header_like_perf, .timeout = 120)
{
	require_perf_tool();
	char *data = perf_record("-g -e cpu-clock", "header.data", WORKLOAD("calls") " 20");
	report_expect_like_perf(data, "--header-only", 0);
	report_expect_like_perf(data, "--header --no-children --sort sym -g none", 0);
	char own[4200];
	snprintf(own, sizeof(own), "%s/own.data", test_tmpdir());
	struct run_result r = run_cmd("%s record -q -g -e cpu-clock -o '%s' -- %s 20", PERFEV_BIN, own,
				      WORKLOAD("calls"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	report_expect_like_perf(own, "--header-only", 0);
	report_expect_like_perf(own, "--header-only -I", 0);
	free(data);
	require_corpus();
	static const char *const files[] = {
		"busy.0-3.8", "group_desc-4.14", "branch-4.14", "hybrid_topology", "weight_struct",
		"intel_pt-4.14", "numatopology-3.2", "lost_samples-4.4", "callgraph-3.8",
		"ctx_switch_namespaces-4.14", "i686-3.4", "armv7-3.4"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/perf.data.%s", CORPUS_DIR, files[i]);
		report_expect_like_perf(path, "--header-only", 0);
		/* -I: the topologies in full (weight_struct's CPU ids perf does not show) */
		if (strcmp(files[i], "weight_struct") != 0)
			report_expect_like_perf(path, "--header-only -I", 0);
	}
	/* JSON cannot carry perf's text header */
	r = run_cmd("%s report -i %s/perf.data.callgraph-3.8 --header --json", PERFEV_BIN, CORPUS_DIR);
	cr_expect_neq(r.status, 0);
	cr_expect_str_eq(r.out, "");
	run_result_free(&r);
	/* a pipe has no file header: said, not guessed */
	r = run_cmd("%s report --header-only -i - < %s/perf.data.piped.target-3.8", PERFEV_BIN, CORPUS_DIR);
	cr_expect_neq(r.status, 0);
	cr_expect(strstr(r.err, "pipe-mode stream has no file header"), "%s", r.err);
	run_result_free(&r);
}

/* --symfs: a recording read with the recording machine's files copied
 * under a directory (the binary's path appended), as perf reads it: the
 * binary found there, not in its own place (moved away here), and that
 * machine's kallsyms (SYMFS/proc/kallsyms: none here, so unresolved, as
 * in perf). */
Test(interop_report, symfs_like_perf, .timeout = 120)
{
	require_perf_tool();
	const char *dir = test_tmpdir();
	char home[4200], run[4200], root[4200], cmd[16000];
	snprintf(home, sizeof(home), "%s/home", dir);
	snprintf(run, sizeof(run), "%s/run", dir);
	snprintf(root, sizeof(root), "%s/root", dir);
	cr_assert_eq(mkdir(home, 0700), 0);
	cr_assert_eq(mkdir(run, 0700), 0);
	setenv("HOME", home, 1); /* no build-id cache to find the binary in */
	snprintf(cmd, sizeof(cmd), "cp %s %s/calls && mkdir -p %s%s", WORKLOAD("calls"), run, root, run);
	struct run_result r = run_cmd("%s", cmd);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	snprintf(cmd, sizeof(cmd), "%s/calls 30", run);
	char *data = perf_record("-N -g -e cpu-clock", "symfs.data", cmd);
	r = run_cmd("mv %s/calls %s%s/calls", run, root, run);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	char options[4400];
	snprintf(options, sizeof(options), "--symfs %s --no-children --sort dso,sym -g none", root);
	report_expect_like_perf(data, options, 0);
	snprintf(options, sizeof(options), "--symfs %s", root);
	report_expect_like_perf(data, options, 0);
	r = run_cmd("%s report -q -i %s --stdio --symfs %s --no-children --sort sym -g none", PERFEV_BIN, data, root);
	cr_expect(strstr(r.out, "[.] leaf_a\n"), "%s", r.out);
	run_result_free(&r);
	r = run_cmd("%s report -q -i %s --stdio --no-children --sort sym -g none", PERFEV_BIN, data);
	cr_expect(!strstr(r.out, "[.] leaf_a\n"), "without --symfs the moved binary is not found: %s", r.out);
	run_result_free(&r);
	r = run_cmd("%s script -i %s -F ip,sym --symfs %s", PERFEV_BIN, data, root);
	cr_expect(strstr(r.out, " leaf_a\n"), "script --symfs: %s", r.out);
	run_result_free(&r);
	free(data);
}
