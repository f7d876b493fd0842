/* perfev report --stats, --tasks and --mmaps against perf report's (perf
 * 6.1), line for line: every corpus recording perf reads (the ones it
 * cannot, it says so on stderr and prints nothing, are left out with a
 * note), a recording of perf record and recordings of perfev record (file,
 * pipe and zstd), each with a process that forks. No difference is
 * allowed: the README lists none for these modes. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A shell command that forks and execs a little. */
#define FORKER "sh -c 'ls / >/dev/null; (true &); wait; cat /proc/self/stat >/dev/null'"

/* Differing lines (diff's < and >) between perf report MODE and perfev
 * report MODE on data; -1 when perf cannot read the file (no output). */
static int mode_diff(const char *data, const char *mode, char **diff, size_t *lines)
{
	struct run_result want = run_cmd("perf report -i '%s' %s 2>/dev/null", data, mode);
	*diff = NULL;
	*lines = 0;
	if (want.status != 0 || !want.out_len) {
		run_result_free(&want);
		return -1;
	}
	struct run_result got = run_cmd("%s report -i '%s' %s", PERFEV_BIN, data, mode);
	cr_assert_eq(got.status, 0, "perfev report %s on %s: %s", mode, data, got.err);
	char a[4096], b[4096];
	snprintf(a, sizeof(a), "%s/stats_perf.txt", test_tmpdir());
	snprintf(b, sizeof(b), "%s/stats_perfev.txt", test_tmpdir());
	FILE *fa = fopen(a, "w"), *fb = fopen(b, "w");
	cr_assert(fa && fb);
	fwrite(want.out, 1, want.out_len, fa);
	fwrite(got.out, 1, got.out_len, fb);
	fclose(fa);
	fclose(fb);
	for (size_t i = 0; i < want.out_len; i++)
		*lines += want.out[i] == '\n';
	run_result_free(&want);
	run_result_free(&got);
	struct run_result d = run_cmd("diff '%s' '%s' | head -c 4000", a, b);
	struct run_result n = run_cmd("diff '%s' '%s' | grep -c '^[<>]'", a, b);
	int differ = atoi(n.out ? n.out : "0");
	*diff = strdup(d.out ? d.out : "");
	run_result_free(&d);
	run_result_free(&n);
	return differ;
}

static void expect_like_perf(const char *data, const char *mode)
{
	char *diff;
	size_t lines;
	int differ = mode_diff(data, mode, &diff, &lines);
	cr_assert_geq(differ, 0, "perf report %s cannot read %s", mode, data);
	cr_expect_eq(differ, 0, "perfev report %s on %s: %d of %zu lines differ from perf's:\n%s", mode, data,
		     differ, lines, diff);
	cr_expect_gt(lines, 1, "perf printed %zu lines for %s %s", lines, mode, data);
	free(diff);
}

/* Every corpus file perf reads; the number compared and skipped noted. */
static void corpus_like_perf(const char *mode)
{
	require_perf_tool();
	require_corpus();
	DIR *d = opendir(CORPUS_DIR);
	cr_assert(d);
	struct dirent *e;
	int compared = 0, unread = 0;
	size_t total = 0;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "perf.data.", 10))
			continue;
		char path[4096], *diff;
		size_t lines;
		snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, e->d_name);
		int differ = mode_diff(path, mode, &diff, &lines);
		if (differ < 0) {
			cr_log_info("%s: perf report %s reads nothing of it, not compared", e->d_name, mode);
			unread++;
			continue;
		}
		cr_expect_eq(differ, 0, "%s %s: %d of %zu lines differ from perf's:\n%s", e->d_name, mode, differ,
			     lines, diff);
		free(diff);
		compared++;
		total += lines;
	}
	closedir(d);
	cr_log_info("%s: %d corpus files (%zu lines) like perf, %d perf cannot read", mode, compared, total, unread);
	cr_expect_gt(compared, 40, "only %d corpus files compared", compared);
}

Test(interop_report_stats, stats_of_the_corpus_like_perf, .timeout = 600) { corpus_like_perf("--stats"); }
Test(interop_report_stats, tasks_of_the_corpus_like_perf, .timeout = 600) { corpus_like_perf("--tasks"); }
Test(interop_report_stats, mmaps_of_the_corpus_like_perf, .timeout = 900) { corpus_like_perf("--mmaps"); }

static void all_modes(const char *data)
{
	expect_like_perf(data, "--stats");
	expect_like_perf(data, "--tasks");
	expect_like_perf(data, "--mmaps");
}

Test(interop_report_stats, perf_record_like_perf, .timeout = 300)
{
	char *data = perf_record("-e cpu-clock -g", "perf.data", FORKER);
	all_modes(data);
	free(data);
	/* a group read by PERF_SAMPLE_READ (leader sampling): each member's samples counted */
	data = perf_record("-e '{cpu-clock,task-clock}:S'", "perf-group.data",
			   "sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'");
	expect_like_perf(data, "--stats");
	free(data);
	/* perf 6.1 --buildid-mmap: its maps' "inode" is what the id fields hold (build-id bytes) */
	data = perf_record("-e cpu-clock --buildid-mmap", "perf-bid.data", FORKER);
	expect_like_perf(data, "--mmaps");
	free(data);
}

Test(interop_report_stats, perfev_record_like_perf, .timeout = 300)
{
	require_perf_tool();
	static const char *const variants[][2] = {
		{"-e cpu-clock -g -o", "perfev.data"},
		{"-e cpu-clock -z -o", "perfev-z.data"},
		{"-e cpu-clock,task-clock -o", "perfev-2.data"},
	};
	for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", test_tmpdir(), variants[i][1]);
		struct run_result r = run_cmd("%s record -q %s '%s' -- " FORKER, PERFEV_BIN, variants[i][0], path);
		cr_assert_eq(r.status, 0, "perfev record %s: %s", variants[i][0], r.err);
		run_result_free(&r);
		all_modes(path);
	}
	/* a pipe-mode stream saved to a file */
	char path[4096];
	snprintf(path, sizeof(path), "%s/perfev.pipe", test_tmpdir());
	struct run_result r = run_cmd("%s record -q -e cpu-clock -o - -- " FORKER " > '%s'", PERFEV_BIN, path);
	cr_assert_eq(r.status, 0, "perfev record -o -: %s", r.err);
	run_result_free(&r);
	all_modes(path);
}

Test(interop_report_stats, stat_alias_and_stdin)
{
	require_corpus();
	const char *f = CORPUS_DIR "/perf.data.piped.lost_samples-4.4";
	struct run_result a = run_cmd("%s report -i '%s' --stats", PERFEV_BIN, f);
	struct run_result b = run_cmd("%s report -i '%s' --stat", PERFEV_BIN, f);
	struct run_result c = run_cmd("%s report -i - --stats < '%s'", PERFEV_BIN, f);
	cr_assert_eq(a.status, 0, "%s", a.err);
	cr_expect_str_eq(a.out, b.out);
	cr_expect_str_eq(a.out, c.out);
	cr_expect(strstr(a.out, "instructions:ppH stats:\n          SAMPLE events:         79\n"
				"    LOST_SAMPLES events:          1\n"), "%s", a.out);
	run_result_free(&a);
	run_result_free(&b);
	run_result_free(&c);
}

Test(interop_report_stats, wrong_combinations_are_refused)
{
	require_corpus();
	const char *f = CORPUS_DIR "/perf.data.forkexit-3.8";
	static const char *const bad[][2] = {
		{"--stats --tasks", "give one of them"},
		{"--stats --mmaps", "give one of them"},
		{"--tasks --json", "--json"},
		{"--stats --json --folded", "--folded"},
		{"--mmaps --folded", "--folded"},
		{"--tasks --flame x.svg", "--flame"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct run_result r = run_cmd("cd %s && %s report -i '%s' %s", test_tmpdir(), PERFEV_BIN, f, bad[i][0]);
		cr_expect_neq(r.status, 0, "%s was accepted", bad[i][0]);
		cr_expect_eq(r.out_len, 0, "%s printed: %s", bad[i][0], r.out);
		cr_expect(strstr(r.err, bad[i][1]), "%s: %s", bad[i][0], r.err);
		run_result_free(&r);
	}
}

Test(interop_report_stats, stats_as_json)
{
	require_corpus();
	const char *f = CORPUS_DIR "/perf.data.lost_samples-4.4";
	struct run_result r = run_cmd("%s report -i '%s' --stats --json", PERFEV_BIN, f);
	cr_assert_eq(r.status, 0, "%s", r.err);
	/* the text's numbers (checked against perf above), every event */
	cr_expect(strstr(r.out, "\"total\": 243, \"records\": {\"MMAP\": 39, \"COMM\": 3, \"EXIT\": 1, "
				"\"SAMPLE\": 191, \"MMAP2\": 6, \"LOST_SAMPLES\": 2, \"FINISHED_ROUND\": 1}"), "%s", r.out);
	cr_expect(strstr(r.out, "{\"name\": \"instructions:pp\", \"samples\": 80, \"lost_samples\": 0}"), "%s", r.out);
	cr_expect(r.out_len && r.out[0] == '{' && r.out[r.out_len - 2] == '}', "one object: %s", r.out);
	run_result_free(&r);
}
