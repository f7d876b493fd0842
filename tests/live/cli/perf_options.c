/* Every option perf 6.1 lists for stat, record, report, script and trace
 * (tests/data/perf_options, from `perf CMD -h`): perfev takes it, or
 * refuses it with its reason; never "unknown option". docs/perf-options.md
 * is `perfev help perf-options`, and says "works" for exactly the options
 * perfev takes. */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const cmds[] = {"stat", "record", "report", "script", "trace"};

/* the doc's row of option names ("`-a`, `--all-cpus`") says works */
static bool doc_says_works(const char *doc, const char *cmd, const char *shrt, const char *lng)
{
	char head[64], row[160];
	snprintf(head, sizeof(head), "## perf %s:", cmd);
	const char *sec = strstr(doc, head);
	cr_assert(sec, "no section for %s in docs/perf-options.md", cmd);
	snprintf(row, sizeof(row), "| `%s%s%s` | ", shrt ? shrt : "", shrt && lng ? "`, `" : "", lng ? lng : "");
	const char *at = strstr(sec, row);
	cr_assert(at, "no row '%s' under %s", row, head);
	return !strncmp(at + strlen(row), "works |", 7);
}

Test(live_cli, perf_options_table, .timeout = 180)
{
	char *doc = slurp(PERFEV_SRCDIR "/docs/perf-options.md", NULL);
	cr_assert(doc, "docs/perf-options.md");
	struct run_result gen = run_cmd("%s help perf-options", PERFEV_BIN);
	cr_assert_eq(gen.status, 0, "%s", gen.err);
	cr_assert(strstr(doc, gen.out) && strlen(strstr(doc, gen.out)) == strlen(gen.out),
		  "docs/perf-options.md is not `perfev help perf-options`: regenerate it (see its first lines)");
	run_result_free(&gen);
	size_t taken = 0, refused = 0;
	for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/tests/data/perf_options/%s.txt", PERFEV_SRCDIR, cmds[c]);
		char *list = slurp(path, NULL);
		cr_assert(list, "%s", path);
		for (char *save = NULL, *l = strtok_r(list, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
			char a[64] = "", b[64] = "", kind[4] = "";
			char *tab = strchr(l, '\t');
			if (tab) {
				snprintf(kind, sizeof(kind), "%s", tab + 1);
				*tab = 0;
			}
			sscanf(l, "%63s %63s", a, b);
			const char *shrt = a[1] != '-' ? a : NULL, *lng = a[1] == '-' ? a : b[0] ? b : NULL;
			bool works = doc_says_works(doc, cmds[c], shrt, lng);
			for (int n = 0; n < 2; n++) {
				const char *opt = n ? lng : shrt;
				if (!opt)
					continue;
				/* a value option alone says it needs one; others meet a bogus option next */
				struct run_result r = run_cmd("cd '%s' && timeout 20 %s %s %s %s </dev/null", test_tmpdir(),
							      PERFEV_BIN, cmds[c], opt, kind[0] ? "" : "--zzz-bogus-option");
				char unknown[128], why[128];
				snprintf(unknown, sizeof(unknown), "unknown option '%s'", opt);
				snprintf(why, sizeof(why), "%s is perf %s's option, not perfev's: ", opt, cmds[c]);
				cr_assert(!strstr(r.err, unknown), "perfev %s %s: neither taken nor refused with a reason:\n%s",
					  cmds[c], opt, r.err);
				bool is_refused = strstr(r.err, why) != NULL;
				cr_assert_eq(!is_refused, works, "perfev %s %s: %s, docs/perf-options.md says %s:\n%s", cmds[c],
					     opt, is_refused ? "refused" : "taken", works ? "works" : "refused", r.err);
				taken += !is_refused, refused += is_refused;
				run_result_free(&r);
			}
		}
		free(list);
	}
	cr_assert_gt(taken, 150);
	cr_assert_gt(refused, 100);
	free(doc);
}

/* the lists are perf 6.1's: where perf 6.1 is installed, its -h agrees */
Test(live_cli, perf_options_lists_are_perfs)
{
	struct run_result v = run_cmd("perf version 2>/dev/null");
	if (v.status != 0 || !strstr(v.out, "perf version 6.1")) {
		run_result_free(&v);
		cr_skip_test("perf 6.1 is not installed: the lists stay as they were taken from it");
	}
	run_result_free(&v);
	for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++) {
		struct run_result r = run_cmd("perf %s -h 2>&1 | grep -E '^\\s+(-[a-zA-Z0-9], )?--?[a-zA-Z]' | "
					      "sed -E 's/^\\s+//' | awk '{ if ($1 ~ /^-[a-zA-Z0-9],$/) { s = "
					      "substr($1, 1, 2); l = $2; sub(/[<\\[=].*/, \"\", l); print s \" \" l } "
					      "else { l = $1; sub(/[<\\[=].*/, \"\", l); print l } }'",
					      cmds[c]);
		struct run_result d = run_cmd("cut -f1 '%s/tests/data/perf_options/%s.txt'", PERFEV_SRCDIR, cmds[c]);
		cr_assert_str_eq(d.out, r.out, "perf %s -h lists other options than tests/data/perf_options/%s.txt",
				 cmds[c], cmds[c]);
		run_result_free(&r);
		run_result_free(&d);
	}
}
