/* C++ and Rust names as perf 6.1 prints them, in report and script:
 * demangled without their parameter lists ("ns::Acc::sum", perf's demangle
 * flags unless -v), templates whole, inlined std:: and core:: code by its
 * DWARF names, overloads named alike two rows (perf keys symbols by their
 * start), of aliases the one perf keeps (choose_best_symbol on the
 * demangled names: Rust's <usize as Display>::fmt over its twin <u64 as
 * Display>::fmt); and as mangled in the binary with --no-demangle. Programs
 * built here (tests/data/cxx/names.cc, tests/data/rust/names.rs),
 * recorded with frame pointers and with DWARF (rustc's binaries map
 * .text from a page the segment before it ends in: the unwinder's load
 * bias must come from the segment that starts in the mapping). */
#define _GNU_SOURCE
#include "support.h"
#include "support_records.h"
#include "support_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* build: the compiler command (%s: the executable, then the source dir) */
static void names_like_perf(const char *build, const char *record_opts, const char *name, const char *func)
{
	char exe[4200], cmd[8600];
	snprintf(exe, sizeof(exe), "%s/%s", test_tmpdir(), name);
	char *bcmd;
	cr_assert(asprintf(&bcmd, build, exe, PERFEV_SRCDIR) > 0);
	struct run_result b = run_cmd("%s 2>&1", bcmd);
	free(bcmd);
	if (b.status != 0)
		cr_skip_test("the compiler cannot build the program here: %s", b.out);
	run_result_free(&b);
	snprintf(cmd, sizeof(cmd), "'%s'", exe);
	char data[128];
	snprintf(data, sizeof(data), "%s.data", name);
	char *path = perf_record(record_opts, data, cmd);
	/* the program's own rows hold its C++ names: the test sees them */
	struct run_result r = run_cmd("'%s' report -q -i '%s' --stdio --no-children -g none", PERFEV_BIN, path);
	cr_assert(strstr(r.out, func) && !strstr(r.out, "(int)") && !strstr(r.out, "] _ZN") && !strstr(r.out, "] _R"),
		  "%s", r.out);
	/* C++'s two overloads ns::weigh: two rows, as perf keys symbols by their start */
	const char *w = strstr(r.out, "] ns::weigh\n");
	cr_assert(!strstr(func, "ns::") || (w && strstr(w + 1, "] ns::weigh\n")), "one row of ns::weigh:\n%s", r.out);
	run_result_free(&r);
	/* samples in the program itself: the process's start-up (ld.so) and
	 * exit (libc, libm's _fini) are other tests' matter, and there perf's
	 * libdwfl and perfev unwind some frame-pointer steps differently */
	char r1[256], r2[256], r3[256], s1[256], s2[256];
	snprintf(r1, sizeof(r1), "--no-children --dsos %s", name);
	snprintf(r2, sizeof(r2), "--no-children -g caller --dsos %s", name);
	snprintf(r3, sizeof(r3), "--no-children -g caller --no-demangle --dsos %s", name);
	snprintf(s1, sizeof(s1), "--dsos %s", name);
	snprintf(s2, sizeof(s2), "--no-demangle --dsos %s", name);
	const char *reports[] = {r1, r2, r3};
	for (size_t i = 0; i < sizeof(reports) / sizeof(reports[0]); i++)
		report_expect_like_perf(path, reports[i], 0);
	compare_script_args(path, s1, "cat");
	compare_script_args(path, s2, "cat");
	char s3[256];
	snprintf(s3, sizeof(s3), "-F comm,ip,sym,symoff,dso -S %s", func);
	compare_script_args(path, s3, "cat");
	free(path);
}

#define CXX "g++ -O2 -g -o '%s' '%s/tests/data/cxx/names.cc'"
#define RUST "rustc -g -C opt-level=2 -o '%s' '%s/tests/data/rust/names.rs'"

Test(interop_lang_names, cxx_frame_pointers_like_perf, .timeout = 180)
{
	require_root();
	names_like_perf(CXX " -fno-omit-frame-pointer", "-D 30 -g -e cpu-clock", "names_fp", "ns::Acc::sum");
}

Test(interop_lang_names, cxx_dwarf_like_perf, .timeout = 180)
{
	require_root();
	names_like_perf(CXX, "-D 30 --call-graph dwarf -e cpu-clock", "names_dwarf", "ns::Acc::sum");
}

Test(interop_lang_names, rust_frame_pointers_like_perf, .timeout = 180)
{
	require_root();
	names_like_perf(RUST " -C force-frame-pointers=yes", "-D 30 -g -e cpu-clock", "rnames_fp", "names::work");
}

Test(interop_lang_names, rust_dwarf_like_perf, .timeout = 180)
{
	require_root();
	names_like_perf(RUST, "-D 30 --call-graph dwarf -e cpu-clock", "rnames_dwarf", "names::work");
}
