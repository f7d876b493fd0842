/* perfev report against perf report on DWARF-unwound recordings of two
 * programs built here, where nearly every sample is in leaf():
 *  - mid() is inlined into main and also called out of line (through a
 *    pointer): perf's call graph has one node for "mid (inlined)" and mid
 *    (match_chain compares an inlined frame by its name), named as the
 *    first sample made it;
 *  - rec() is inlined into itself (recursion): its inline records bear the
 *    ELF symbol's name, so perf shows them as the symbol itself ("rec" four
 *    times, none "(inlined)": srcline.c's new_inline_sym). */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *record_program_with(const char *name, const char *text, const char *record_opts)
{
	char *exe = build_program(name, text, "-O2 -g -fno-omit-frame-pointer"), cmd[4300], data[4200];
	snprintf(cmd, sizeof(cmd), "'%s'", exe);
	snprintf(data, sizeof(data), "%s.data", name);
	free(exe);
	return perf_record(record_opts, data, cmd);
}

static char *record_program(const char *name, const char *text)
{
	return record_program_with(name, text, "--call-graph dwarf -e cpu-clock");
}


/* The lines of perfev's report (options) that end in the call-graph frame
 * name, with or without " (inlined)". */
static size_t count_frames(const char *data, const char *options, const char *name, char **out)
{
	struct run_result r = run_cmd("%s report -q -i '%s' --stdio %s", PERFEV_BIN, data, options);
	cr_assert_eq(r.status, 0, "%s", r.err);
	size_t n = 0, nl = strlen(name);
	for (char *l = r.out; l && *l;) {
		char *end = strchr(l, '\n');
		size_t len = end ? (size_t)(end - l) : strlen(l);
		if (len > 11 && !strncmp(l + len - 10, " (inlined)", 10))
			len -= 10;
		if (len > nl && !strncmp(l + len - nl, name, nl) && strchr(" -", l[len - nl - 1]))
			n++;
		l = end ? end + 1 : NULL;
	}
	*out = strdup(r.out);
	run_result_free(&r);
	return n;
}

static size_t count_marked(const char *data, const char *options, const char *mark)
{
	struct run_result r = run_cmd("%s report -q -i '%s' --stdio %s", PERFEV_BIN, data, options);
	size_t n = 0;
	for (const char *p = r.out; (p = strstr(p, mark)); p++)
		n++;
	run_result_free(&r);
	return n;
}

Test(interop_report, inlined_and_called_function_one_node_like_perf, .timeout = 120)
{
	require_root();
	char *data = record_program(
		"mid", "static volatile unsigned long sink;\n"
		       "__attribute__((noinline)) static void leaf(int n) { for (int i = 0; i < n; i++) sink += i * 3; }\n"
		       "static inline __attribute__((always_inline)) void mid(int n) { leaf(n); sink++; }\n"
		       "void (*volatile mid_ptr)(int) = mid;\n"
		       "int main(void) { for (int k = 0; k < 20000; k++) { mid(10000); mid_ptr(10000); } return 0; }\n");
	report_expect_like_perf(data, "--no-children --percent-limit 5", 0);
	report_expect_like_perf(data, "--no-children -g caller --percent-limit 5", 0);
	/* perf's --inline is its default (and the last of --inline/--no-inline wins) */
	report_expect_like_perf(data, "--no-children --percent-limit 5 --inline", 0);
	report_expect_like_perf(data, "--no-children --percent-limit 5 --no-inline --inline", 0);
	/* one node: mid's name once in leaf's graph, with or without the mark */
	char *out;
	size_t n = count_frames(data, "--no-children --percent-limit 5", "mid", &out);
	cr_expect_eq(n, 1, "mid's node %zu times:\n%s", n, out);
	free(out);
	free(data);
}

Test(interop_report, function_inlined_into_itself_like_perf, .timeout = 120)
{
	require_root();
	char *data = record_program(
		"rec", "static volatile unsigned long sink;\n"
		       "__attribute__((noinline)) static void leaf(int n) { for (int i = 0; i < n; i++) sink += i * 3; }\n"
		       "static int rec(int d, int n) { if (d <= 0) { leaf(n); return 1; }\n"
		       "  int r = rec(d - 1, n) + 1; sink += r; return r; }\n"
		       "int (*volatile rec_ptr)(int, int) = rec;\n"
		       "int main(void) { for (int k = 0; k < 20000; k++) rec_ptr(3, 10000); return 0; }\n");
	report_expect_like_perf(data, "--no-children --percent-limit 5", 0);
	report_expect_like_perf(data, "--no-children -g caller --percent-limit 5", 0);
	cr_expect_eq(count_marked(data, "--no-children --percent-limit 5", "rec (inlined)"), 0);
	/* perf script: one line per inline record, each "rec" with its dso */
	struct run_result want = run_cmd("perf script -i '%s' 2>/dev/null", data);
	struct run_result got = run_cmd("%s script -i '%s'", PERFEV_BIN, data);
	cr_expect_str_eq(got.out, want.out, "perfev script differs from perf script");
	run_result_free(&want);
	run_result_free(&got);
	free(data);
}

/* --children rows of inlined functions, keyed as perf's sort__sym_cmp keys
 * inline symbols: by name within the function they are inlined into.
 *  - step() inlined into first() and into second(): two rows, as perf
 *    (perfev made one of both until then);
 *  - libc's fputs path (with its debug info) has _IO_new_file_xsputn
 *    inlined into itself under the ELF name _IO_file_xsputn, which perf
 *    names by DWARF, "(inlined)": one row with its inlined copy, and
 *    ptmalloc_init named so in two functions: two rows. */
Test(interop_report, inlined_functions_keyed_by_their_function_like_perf, .timeout = 180)
{
	require_root();
	/* (from 30 ms on: ld.so's start-up rows, of equal value, come in an
	 * order perf's entry tree decides by its history) */
	char *data = record_program_with(
		"two", "static volatile unsigned long sink;\n"
		       "__attribute__((noinline)) static void spin(int n) { for (int i = 0; i < n; i++) sink += i; }\n"
		       "static inline __attribute__((always_inline)) void step(int n) { spin(n); sink++; }\n"
		       "__attribute__((noinline)) void first(int n) { step(n); sink += 2; }\n"
		       "__attribute__((noinline)) void second(int n) { step(n * 2); sink += 3; }\n"
		       "int main(void) { for (int k = 0; k < 1500; k++) { first(100000); second(100000); } return 0; }\n",
		"-D 30 --call-graph dwarf -e cpu-clock");
	report_expect_like_perf(data, "-g none", 0);
	report_expect_like_perf(data, "", 0);
	char *out;
	size_t n = count_frames(data, "-g none", "step", &out);
	cr_expect_eq(n, 2, "step's rows: %zu\n%s", n, out);
	free(out);
	free(data);
	data = record_program(
		"puts", "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
			"int main(void) { size_t n = 64ul << 20; char *b = malloc(n), *s = malloc(n);\n"
			"  setvbuf(stdout, b, _IOFBF, n); memset(s, 'x', n - 1); s[n - 1] = 0;\n"
			"  fputs(s, stdout); return 0; }\n");
	report_expect_like_perf(data, "--no-children --percent-limit 2", 0);
	/* --children: the rows of stdio's functions inlined into themselves
	 * and of ptmalloc_init, as perf's. (Not the whole table: perf's entry
	 * tree, ordered by names for inline symbols and by addresses for the
	 * others, at times misses an entry and makes a second row of it, here
	 * of __libc_start_main_impl or ld.so's _dl_start_final, see README) */
	const char *rows = "grep -E '\\] (_IO_new_file_xsputn|__GI__IO_default_xsputn|__GI__IO_fputs|ptmalloc_init) '";
	struct run_result want = run_cmd("perf report -i '%s' --stdio -g none --sort dso,sym 2>/dev/null | %s | sort",
					 data, rows);
	struct run_result got = run_cmd("'%s' report -q -i '%s' --stdio -g none --sort dso,sym | %s | sort",
					PERFEV_BIN, data, rows);
	if (!want.out_len) /* (libc's inlined code is named by its debug info, libc6-dbg) */
		cr_log_warn("perf names none of stdio's inlined functions: no libc debug info here");
	cr_expect_str_eq(got.out, want.out, "--children rows of stdio's inlined functions\nperfev:\n%s\nperf:\n%s",
			 got.out, want.out);
	run_result_free(&want);
	run_result_free(&got);
	free(data);
}
