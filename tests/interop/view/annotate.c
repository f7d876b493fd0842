/* perfev annotate against perf annotate --stdio on perf's own recordings of
 * workloads/hotloop (built -O2 -g): sum_div's cost sits in its divsd/addsd,
 * step() is inlined into mix_a and mix_b. For every instruction perf shows,
 * perfev shows the same address with the same percent (within 0.01 points)
 * under the same source line and function. perf's line numbers are not
 * compared: perf 6.1 numbers objdump's context lines from the file:line that
 * starts them (a counter, not the lines' numbers); perfev prints the lines'
 * own numbers. perf 6.1's --stdio prints the local share for global-period
 * and 0.00 for global-hits, so those are checked against the counts. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct insn {
	unsigned long addr;
	double percent;
	char source[160]; /* the text of the last source line shown before it */
	char func[96];    /* the last "name():" line before it */
	char text[96];
};

/* objdump's "0000000000001270 <sum_div>:" */
static bool symbol_heading(const char *t)
{
	size_t n = strspn(t, "0123456789abcdef");
	return n >= 8 && !strncmp(t + n, " <", 2);
}

/* Parses one symbol's --stdio annotation (either tool's). */
static size_t parse(const char *out, struct insn *v, size_t max)
{
	char source[160] = "", func[96] = "";
	size_t n = 0;
	for (const char *l = out; l && *l && n < max;) {
		const char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)(len < sizeof(line) - 1 ? len : sizeof(line) - 1), l);
		double pct;
		unsigned long addr;
		int used = 0;
		const char *t = line;
		while (*t == ' ')
			t++;
		if (isdigit((unsigned char)*t) && sscanf(line, " %lf : %lx:%n", &pct, &addr, &used) == 2 && used) {
			struct insn *i = &v[n++];
			*i = (struct insn){.addr = addr, .percent = pct};
			snprintf(i->source, sizeof(i->source), "%s", source);
			snprintf(i->func, sizeof(i->func), "%s", func);
			const char *x = line + used;
			while (*x == ' ')
				x++;
			snprintf(i->text, sizeof(i->text), "%s", x);
		} else if (*t == ':') { /* "         : 26   text": the number, then the text */
			t++;
			while (*t == ' ')
				t++;
			if (symbol_heading(t) || !strncmp(t, "note: ", 6)) {
				l = end ? end + 1 : NULL;
				continue;
			}
			while (isdigit((unsigned char)*t))
				t++;
			while (*t == ' ')
				t++;
			size_t tl = strlen(t);
			if (tl > 3 && !strcmp(t + tl - 3, "():"))
				snprintf(func, sizeof(func), "%s", t);
			else if (*t && !strstr(t, "Disassembly of section"))
				snprintf(source, sizeof(source), "%s", t);
		}
		l = end ? end + 1 : NULL;
	}
	return n;
}

static char *record_hotloop(void)
{
	require_root();
	return perf_record("-N -e cpu-clock -F 4000", "hotloop.data", WORKLOAD("hotloop") " 600");
}

static char *run_ok(const char *fmt, const char *data, const char *args)
{
	struct run_result r = run_cmd(fmt, data, args);
	cr_assert_eq(r.status, 0, "%s %s: %s", fmt, args, r.err);
	char *out = strdup(r.out);
	run_result_free(&r);
	return out;
}

/* perf annotate and perfev annotate of symbol (with args): the same
 * instructions, percents, source lines and functions. Returns perfev's
 * hottest instruction's text (malloc'ed). */
static char *expect_like_perf(const char *data, const char *args)
{
	char *want = run_ok("perf annotate -i '%s' --stdio %s 2>/dev/null", data, args);
	char *got = run_ok(PERFEV_BIN " annotate -i '%s' --stdio %s", data, args);
	static struct insn w[4096], g[4096];
	size_t nw = parse(want, w, 4096), ng = parse(got, g, 4096);
	cr_assert_gt(nw, 5, "perf annotate %s printed no instructions:\n%s", args, want);
	cr_assert(strstr(got, "Source code & Disassembly of hotloop for cpu-clock"), "%s", got);
	double sum = 0;
	size_t j = 0, hot = 0;
	for (size_t i = 0; i < nw; i++) {
		while (j < ng && g[j].addr < w[i].addr)
			j++;
		cr_assert(j < ng && g[j].addr == w[i].addr, "%s: perf's instruction at %lx (%s) is not "
			  "perfev's:\n%s", args, w[i].addr, w[i].text, got);
		cr_expect_leq(fabs(g[j].percent - w[i].percent), 0.01, "%s at %lx: perf %.2f, perfev %.2f",
			      args, w[i].addr, w[i].percent, g[j].percent);
		cr_expect_str_eq(g[j].source, w[i].source, "%s at %lx: source line '%s', perf's '%s'", args,
				 w[i].addr, g[j].source, w[i].source);
		cr_expect_str_eq(g[j].func, w[i].func, "%s at %lx: function '%s', perf's '%s'", args,
				 w[i].addr, g[j].func, w[i].func);
		sum += g[j].percent;
		hot = g[j].percent > g[hot].percent ? j : hot;
	}
	cr_expect(sum > 99.0 && sum < 101.0, "%s: percents sum to %.2f", args, sum);
	char *text = strdup(g[hot].text);
	free(want);
	free(got);
	return text;
}

Test(interop_annotate, divsd_loop_like_perf, .timeout = 120)
{
	char *data = record_hotloop();
	char *hot = expect_like_perf(data, "sum_div");
	/* the loop's cost is on its divide (or the add that waits for it) */
	cr_expect(!strncmp(hot, "addsd", 5) || !strncmp(hot, "divsd", 5), "hottest: %s", hot);
	free(hot);
	free(expect_like_perf(data, "--percent-type local-hits sum_div"));
	free(expect_like_perf(data, "-M intel sum_div"));
	free(data);
}

Test(interop_annotate, inlined_into_two_callers_like_perf, .timeout = 120)
{
	char *data = record_hotloop();
	free(expect_like_perf(data, "mix_a"));
	free(expect_like_perf(data, "mix_b"));
	/* step()'s instructions are named as inlined in both callers */
	struct run_result r = run_cmd(PERFEV_BIN " annotate -i '%s' --json mix_a > '%s.json' && "
				      PERFEV_BIN " annotate -i '%s' --json mix_b > '%s.b.json' && "
				      "python3 -c 'import json,sys\n"
				      "for f in sys.argv[1:]:\n"
				      "  for s in json.load(open(f))[\"symbols\"]:\n"
				      "    n=[i for i in s[\"instructions\"] if i[\"inlined\"]==\"step\"]\n"
				      "    print(s[\"symbol\"], len(n), sum(i[\"samples\"] for i in n)>0,"
				      " all(i[\"source\"].split(\":\")[0].endswith(\"hotloop.c\") for i in n))'"
				      " '%s.json' '%s.b.json'", data, data, data, data, data, data);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "mix_a ") && strstr(r.out, "mix_b "), "%s", r.out);
	cr_expect(!strstr(r.out, " 0 ") && !strstr(r.out, "False"), "%s", r.out);
	run_result_free(&r);
	free(data);
}

/* perf's --print-line: the "Sorted summary" block (instructions above 0.5
 * percent summed per source line) the same, line for line; --asm-raw's
 * bytes (and objdump's continuation lines) at the same addresses */
Test(interop_annotate, print_line_and_asm_raw_like_perf, .timeout = 120)
{
	char *data = record_hotloop();
	for (int k = 0; k < 2; k++) {
		const char *sym = k ? "mix_a" : "sum_div";
		struct run_result w = run_cmd("perf annotate -i '%s' --stdio -l %s 2>/dev/null | "
					      "sed -n '1,/Percent/p'", data, sym);
		struct run_result g = run_cmd(PERFEV_BIN " annotate -q -i '%s' -l %s | sed -n '1,/Percent/p'",
					      data, sym);
		cr_assert_eq(w.status, 0, "%s", w.err);
		cr_assert(strstr(w.out, "Sorted summary for file "), "%s", w.out);
		cr_expect_str_eq(g.out, w.out, "%s -l: perfev\n%s\nperf\n%s", sym, g.out, w.out);
		run_result_free(&w);
		run_result_free(&g);
	}
	free(expect_like_perf(data, "--asm-raw sum_div"));
	free(data);
}

/* a binary without DWARF: its instructions and their shares as perf shows
 * them, no source lines, and a note saying why */
Test(interop_annotate, binary_without_debug_info_instructions_only, .timeout = 120)
{
	require_root();
	char exe[4200], cmd[4300];
	snprintf(exe, sizeof(exe), "%s/hotloop-nodebug", test_tmpdir());
	/* built here without -g: a build-id of its own (a stripped copy of the
	 * workload would share its build-id, and perf's build-id cache would
	 * then hand the stripped copy to later annotations of the workload) */
	struct run_result r = run_cmd("cc -O2 -fno-omit-frame-pointer -o '%s' '%s/workloads/hotloop.c'", exe,
				      PERFEV_SRCDIR);
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	snprintf(cmd, sizeof(cmd), "'%s' 400", exe);
	char *data = perf_record("-N -e cpu-clock -F 4000", "nodebug.data", cmd);
	char *want = run_ok("perf annotate -i '%s' --stdio %s 2>/dev/null", data, "sum_div");
	char *got = run_ok(PERFEV_BIN " annotate -i '%s' --stdio %s", data, "sum_div");
	static struct insn w[1024], g[1024];
	size_t nw = parse(want, w, 1024), ng = parse(got, g, 1024);
	cr_assert_gt(nw, 5, "%s", want);
	cr_assert_eq(ng, nw, "perfev shows %zu instructions, perf %zu:\n%s", ng, nw, got);
	for (size_t i = 0; i < nw; i++) {
		cr_expect_eq(g[i].addr, w[i].addr);
		cr_expect_leq(fabs(g[i].percent - w[i].percent), 0.01, "at %lx", w[i].addr);
		cr_expect_str_empty(g[i].source, "at %lx: %s", w[i].addr, g[i].source);
	}
	cr_expect(strstr(got, "note: ") && strstr(got, "no DWARF line information"), "%s", got);
	free(want);
	free(got);
	free(data);
}

/* the global percent types are of the event's totals (perf 6.1's --stdio
 * prints the local share for global-period and 0.00 for global-hits:
 * checked against the counts in the JSON) */
Test(interop_annotate, global_percents_are_of_the_events_totals, .timeout = 120)
{
	char *data = record_hotloop();
	for (int k = 0; k < 2; k++) {
		struct run_result r = run_cmd(
			PERFEV_BIN " annotate -i '%s' --json --percent-type %s > '%s.g.json' && python3 -c '"
			"import json,sys\nd=json.load(open(sys.argv[1]))\nkey=sys.argv[2]\nbad=0\nn=0\n"
			"for s in d[\"symbols\"]:\n  for i in s[\"instructions\"]:\n"
			"    n+=1\n    want=100.0*i[key]/d[key] if d[key] else 0\n"
			"    bad+=abs(want-i[\"percent\"])>1e-3\nprint(n,bad,d[\"percent_type\"])' '%s.g.json' %s",
			data, k ? "global-hits" : "global-period", data, data, k ? "samples" : "period");
		cr_assert_eq(r.status, 0, "%s", r.err);
		unsigned n = 0, bad = 0;
		cr_assert_eq(sscanf(r.out, "%u %u", &n, &bad), 2, "%s", r.out);
		cr_expect_gt(n, 10, "%s", r.out);
		cr_expect_eq(bad, 0, "%s", r.out);
		cr_expect(strstr(r.out, k ? "global hits" : "global period"), "%s", r.out);
		run_result_free(&r);
	}
	free(data);
}

/* kernel symbols: their code from /proc/kcore when it is readable, else a
 * note naming what is missing (never a failure) */
Test(interop_annotate, kernel_symbols_from_kcore_or_a_note, .timeout = 120)
{
	require_root();
	char *data = perf_record("-N -e cpu-clock -F 4000", "kernel.data",
				 "dd if=/dev/zero of=/dev/null bs=1 count=300000");
	char *got = run_ok(PERFEV_BIN " annotate -q -i '%s' --stdio -d '[kernel.kallsyms]' %s", data, "");
	cr_assert(strstr(got, "Source code & Disassembly of [kernel.kallsyms] for cpu-clock"), "%s", got);
	if (access("/proc/kcore", R_OK) == 0) {
		static struct insn g[1 << 14];
		cr_expect_gt(parse(got, g, 1 << 14), 10, "%s", got);
	} else {
		cr_expect(strstr(got, "kernel code not readable from /proc/kcore"), "%s", got);
	}
	free(got);
	free(data);
}

Test(interop_annotate, bad_input_says_what_and_fails, .timeout = 120)
{
	char *data = record_hotloop();
	struct run_result r = run_cmd(PERFEV_BIN " annotate -i '%s' no_such_function", data);
	cr_expect_neq(r.status, 0);
	cr_expect(strstr(r.err, "no samples in symbol 'no_such_function'"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd(PERFEV_BIN " annotate -i '%s' --percent-type most sum_div", data);
	cr_expect_neq(r.status, 0);
	cr_expect(strstr(r.err, "unknown --percent-type 'most'"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd(PERFEV_BIN " annotate -i '%s' -M arm sum_div", data);
	cr_expect_neq(r.status, 0);
	cr_expect(strstr(r.err, "unknown -M 'arm'"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd(PERFEV_BIN " annotate -i '%s.missing'", data);
	cr_expect_neq(r.status, 0);
	cr_expect(strstr(r.err, ".missing"), "%s", r.err);
	run_result_free(&r);
	free(data);
}
