/* perfev diff against perf diff on recordings made here of workloads/twice,
 * whose hot function's cost doubles between two runs, built twice from the
 * same source, the second with a padding function that moves every address
 * after it (a rebuilt binary: its symbols must match by name). The tables
 * must equal perf's byte for byte for several -c/--sort/-o/filter sets, on perf's
 * recordings and on perfev's; the differential flame graph is well-formed,
 * offline, and paints the doubled function red with both shares in its
 * tooltip; the difffolded and pprof exports hold both sides. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the two builds of workloads/twice, each named "twice" in its own directory */
static void build_twice(char **v1, char **v2)
{
	const char *dir = test_tmpdir();
	cr_assert(asprintf(v1, "%s/v1/twice", dir) > 0 && asprintf(v2, "%s/v2/twice", dir) > 0);
	const char *flags = "-O1 -g -fno-omit-frame-pointer -fno-inline -fno-optimize-sibling-calls";
	struct run_result r = run_cmd("mkdir -p '%s/v1' '%s/v2' && cc %s -o '%s' '%s/workloads/twice.c' && "
				      "cc %s -DTWICE_PAD -o '%s' '%s/workloads/twice.c'",
				      dir, dir, flags, *v1, PERFEV_SRCDIR, flags, *v2, PERFEV_SRCDIR);
	cr_assert_eq(r.status, 0, "building workloads/twice twice: %s", r.err);
	run_result_free(&r);
	/* the rebuild moved the functions: matching must be by name */
	r = run_cmd("nm '%s' | grep ' T hot$'; nm '%s' | grep ' T hot$'", *v1, *v2);
	cr_assert_eq(r.status, 0, "%s", r.err);
	char *nl = strchr(r.out, '\n');
	cr_assert(nl && strncmp(r.out, nl + 1, 16) != 0, "the rebuild did not move hot: %s", r.out);
	run_result_free(&r);
}

/* OLD: hot at factor 1 (a third); NEW: the rebuild, hot doubled (a half) */
static void record_pair(bool with_perf, char **old, char **new_)
{
	char *v1, *v2, *c1, *c2;
	build_twice(&v1, &v2);
	cr_assert(asprintf(&c1, "'%s' 1", v1) > 0 && asprintf(&c2, "'%s' 2", v2) > 0);
	if (with_perf) {
		*old = perf_record("-g -e cpu-clock -F 2000", "old.data", c1);
		*new_ = perf_record("-g -e cpu-clock -F 2000", "new.data", c2);
	} else {
		const char *dir = test_tmpdir();
		cr_assert(asprintf(old, "%s/old.data", dir) > 0 && asprintf(new_, "%s/new.data", dir) > 0);
		struct run_result r = run_cmd("%s record -q -g -e cpu-clock -F 2000 -o '%s' -- %s >/dev/null && "
					      "%s record -q -g -e cpu-clock -F 2000 -o '%s' -- %s >/dev/null",
					      PERFEV_BIN, *old, c1, PERFEV_BIN, *new_, c2);
		cr_assert_eq(r.status, 0, "perfev record: %s", r.err);
		run_result_free(&r);
	}
	free(v1), free(v2), free(c1), free(c2);
}

static void same_as_perf(const char *opts, const char *files)
{
	struct run_result want = run_cmd("perf diff %s %s 2>/dev/null", opts, files);
	cr_assert_eq(want.status, 0, "perf diff %s: %s", opts, want.err);
	struct run_result got = run_cmd("%s diff -q %s %s", PERFEV_BIN, opts, files);
	cr_assert_eq(got.status, 0, "perfev diff %s: %s", opts, got.err);
	/* (--symbols hot: the symbol column left out) */
	cr_assert(strstr(want.out, strstr(opts, "--symbols") ? "twice" : "[.] hot\n"), "perf diff %s has no row of hot:\n%s",
		  opts, want.out);
	cr_assert_str_eq(got.out, want.out, "perfev diff %s differs from perf diff's:\nperf:\n%s\nperfev:\n%s", opts,
			 want.out, got.out);
	run_result_free(&want);
	run_result_free(&got);
}

static const char *const option_sets[] = {
	"", "-c delta", "-c delta-abs", "-c ratio", "-c wdiff:1,1", "-c wdiff:2,3 -o 0",
	"-c delta --sort sym", "-c ratio --sort comm,dso,sym", "-c delta-abs --percentage relative",
	/* filters: the filtered key's column left out; shares of all or of the kept */
	"--dsos twice", "--dsos twice --percentage relative -c delta", "--symbols hot -c wdiff:1,1",
};

static void tables_match(bool with_perf)
{
	require_root();
	require_perf_tool();
	char *old, *new_, files[8192];
	record_pair(with_perf, &old, &new_);
	snprintf(files, sizeof(files), "'%s' '%s'", old, new_);
	for (size_t i = 0; i < sizeof(option_sets) / sizeof(option_sets[0]); i++)
		same_as_perf(option_sets[i], files);
	/* more than one new file: a column each, perf's "# Data files:" */
	snprintf(files, sizeof(files), "'%s' '%s' '%s'", old, new_, old);
	same_as_perf("-c wdiff:1,2", files);
	same_as_perf("-c ratio -o 2", files);
	free(old);
	free(new_);
}

Test(interop_diff, perf_recordings_match_perf_diff, .timeout = 180)
{
	tables_match(true);
}

Test(interop_diff, perfev_recordings_match_perf_diff, .timeout = 180)
{
	tables_match(false);
}

/* hot's row: its baseline share and delta (the rebuilt binary's hot
 * matched by name, so one row with both) */
Test(interop_diff, rebuilt_binary_matches_by_name, .timeout = 120)
{
	require_root();
	char *old, *new_;
	record_pair(false, &old, &new_);
	struct run_result r = run_cmd("%s diff -q -c delta '%s' '%s' | grep -E '\\[\\.\\] (hot|steady)$'", PERFEV_BIN,
				      old, new_);
	cr_assert_eq(r.status, 0, "%s", r.err);
	double base = 0, delta = 0;
	int rows = 0;
	for (char *line = r.out; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		double b, d;
		char dso[64], sym[64];
		cr_assert_eq(sscanf(line, " %lf%% %lf%% %63s [.] %63s", &b, &d, dso, sym), 4,
			     "a row without both the baseline and the delta (not matched by name?): %s", r.out);
		cr_assert_str_eq(dso, "twice");
		if (!strcmp(sym, "hot"))
			base = b, delta = d;
		rows++;
	}
	cr_assert_eq(rows, 2, "hot and steady, one row each: %s", r.out);
	cr_assert(base > 20 && base < 45, "hot was about a third: %s", r.out);
	cr_assert(delta > 8 && delta < 30, "hot's share grew to about a half: %s", r.out);
	run_result_free(&r);
	free(old);
	free(new_);
}

Test(interop_diff, flame_graph_paints_the_doubled_function_red, .timeout = 120)
{
	require_root();
	char *old, *new_;
	record_pair(false, &old, &new_);
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("%s diff -q '%s' '%s' --flame '%s/d.svg' && xmllint --noout '%s/d.svg'",
				      PERFEV_BIN, old, new_, dir, dir);
	cr_assert_eq(r.status, 0, "perfev diff --flame, xmllint: %s", r.err);
	run_result_free(&r);
	char path[4096];
	snprintf(path, sizeof(path), "%s/d.svg", dir);
	char *svg = slurp(path, NULL);
	assert_svg_offline(svg);
	char *t = strstr(svg, "<title>hot (old ");
	cr_assert(t, "no frame of hot: %.2000s", svg);
	double was, now, change;
	cr_assert_eq(sscanf(t, "<title>hot (old %lf%%, new %lf%%, change %lf points)", &was, &now, &change), 3,
		     "hot's tooltip does not state both shares: %.200s", t);
	cr_assert(was > 20 && was < 45 && now > 38 && now < 62, "hot: old %.2f%%, new %.2f%%", was, now);
	cr_assert(change > 5, "hot grew: %.2f", change);
	unsigned red, g, b;
	char *fill = strstr(t, "fill=\"");
	cr_assert(fill && sscanf(fill, "fill=\"rgb(%u,%u,%u)\"", &red, &g, &b) == 3, "%.300s", t);
	cr_assert(red == 255 && g == b && g < 200, "hot is not painted red: rgb(%u,%u,%u)", red, g, b);
	/* and steady, whose share shrank, blue */
	t = strstr(svg, "<title>steady (old ");
	cr_assert(t && (fill = strstr(t, "fill=\"")) && sscanf(fill, "fill=\"rgb(%u,%u,%u)\"", &red, &g, &b) == 3);
	cr_assert(b == 255 && red == g && red < 255, "steady is not painted blue: rgb(%u,%u,%u)", red, g, b);
	free(svg);
	free(old);
	free(new_);
}

/* difffolded: each side's column sums to its file's total period; pprof:
 * what go tool pprof shows of it is what -diff_base shows of the two */
Test(interop_diff, folded_and_pprof_hold_both_sides, .timeout = 180)
{
	require_root();
	char *old, *new_;
	record_pair(false, &old, &new_);
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("%s diff -q '%s' '%s' --folded | awk '{o += $(NF-1); n += $NF} END "
				      "{print o, n}'; for f in '%s' '%s'; do %s report -q -i $f --stdio --sort sym | "
				      "grep -o 'Event count (approx.): [0-9]*' | grep -o '[0-9]*$'; done",
				      PERFEV_BIN, old, new_, old, new_, PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	unsigned long long o, n, to, tn;
	cr_assert_eq(sscanf(r.out, "%llu %llu %llu %llu", &o, &n, &to, &tn), 4, "%s", r.out);
	cr_assert(o == to && n == tn, "difffolded sums %llu %llu, the files' periods %llu %llu", o, n, to, tn);
	run_result_free(&r);
	r = run_cmd("%s diff -q '%s' '%s' --folded | grep -E '^twice;.*;hot [0-9]+ [0-9]+$'", PERFEV_BIN, old, new_);
	cr_assert_eq(r.status, 0, "no difffolded line of hot: %s", r.out);
	run_result_free(&r);
	r = run_cmd("cd '%s' && %s diff -q '%s' '%s' --pprof d.pb.gz && %s report -q -i '%s' --pprof a.pb.gz && "
		    "%s report -q -i '%s' --pprof b.pb.gz >/dev/null && export HOME='%s' && "
		    "go tool pprof -top -unit=ns d.pb.gz > got.txt && "
		    "go tool pprof -top -unit=ns -diff_base a.pb.gz b.pb.gz > want.txt && cat got.txt && "
		    "diff want.txt got.txt", dir, PERFEV_BIN, old, new_, PERFEV_BIN, old, PERFEV_BIN, new_, dir);
	cr_assert_eq(r.status, 0, "go tool pprof (golang-go) of the diff differs from -diff_base's: %s%s", r.out,
		     r.err);
	cr_assert(strstr(r.out, " hot\n"), "%s", r.out);
	run_result_free(&r);
	free(old);
	free(new_);
}

Test(interop_diff, bad_options_are_refused, .timeout = 30)
{
	static const char *const bad[][2] = {
		{"-c wdiff", "wdiff:W1,W2"}, {"-c wdiff:0,1", "nonzero"}, {"-c median", "not a computation"},
		{"--sort nosuchkey", "nosuchkey"}, {"-o 2 a b", "-o 2"}, {"--percentage most", "relative"},
		{"--flame x.svg a b c", "two files"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run_result r = run_cmd("%s diff %s", PERFEV_BIN, bad[i][0]);
		cr_assert_neq(r.status, 0, "perfev diff %s succeeded", bad[i][0]);
		cr_assert(strstr(r.err, bad[i][1]), "perfev diff %s: the message does not name '%s': %s", bad[i][0],
			  bad[i][1], r.err);
		run_result_free(&r);
	}
	struct run_result r = run_cmd("cd '%s' && %s diff", test_tmpdir(), PERFEV_BIN);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "perf.data.old"), "the default baseline is perf.data.old: %s", r.err);
	run_result_free(&r);
}

/* perf diff compares recordings of other events or rates silently; perfev
 * says so (the log hook: stderr), and still prints the table */
Test(interop_diff, other_rates_and_events_are_warned, .timeout = 120)
{
	require_root();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd '%s' && for a in '-e cpu-clock -F 2000 -o a' '-e cpu-clock -F 1000 -o b' "
				      "'-e task-clock -o t'; do %s record -q $a.data -- %s 1 5 >/dev/null || exit 1; done",
				      dir, PERFEV_BIN, WORKLOAD("twice"));
	cr_assert_eq(r.status, 0, "perfev record: %s", r.err);
	run_result_free(&r);
	r = run_cmd("cd '%s' && %s diff a.data b.data", dir, PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "warning: event 'cpu-clock' was sampled at 2000 Hz in a.data but sampled at 1000 Hz"),
		  "no warning of the rates: %s", r.err);
	cr_assert(strstr(r.out, "# Event 'cpu-clock'\n"), "%s", r.out);
	run_result_free(&r);
	r = run_cmd("cd '%s' && %s diff a.data t.data", dir, PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.err, "t.data recorded event 'task-clock', the baseline a.data did not"), "%s", r.err);
	run_result_free(&r);
	/* the same rows as JSON: both periods and shares, the computation's value */
	r = run_cmd("cd '%s' && %s diff -c ratio --json a.data b.data | python3 -c 'import json, sys; "
		    "e = json.load(sys.stdin)[\"events\"][0]; r = [x for x in e[\"rows\"] if x[\"sym\"] == \"[.] hot\"][0]; "
		    "print(e[\"event\"], len(r[\"period\"]), r[\"ratio\"][1] > 0)'", dir, PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_str_eq(r.out, "cpu-clock 2 True\n");
	run_result_free(&r);
}
