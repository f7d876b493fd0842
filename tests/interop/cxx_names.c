/* C++ names as perf 6.1 prints them, in report and script: demangled
 * without their parameter lists ("ns::Acc::sum", perf's demangle flags
 * unless -v), templates whole, inlined std:: code by its DWARF names; and
 * as mangled in the binary with --no-demangle. A program built here
 * (tests/data/cxx/names.cc), recorded with frame pointers and with DWARF. */
#define _GNU_SOURCE
#include "support.h"
#include "support_records.h"
#include "support_report.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void names_like_perf(const char *cflags, const char *record_opts, const char *name)
{
	char exe[4200], cmd[8600];
	snprintf(exe, sizeof(exe), "%s/%s", test_tmpdir(), name);
	struct run_result b = run_cmd("g++ %s -g -o '%s' '%s/tests/data/cxx/names.cc' 2>&1", cflags, exe, PERFEV_SRCDIR);
	if (b.status != 0)
		cr_skip_test("g++ cannot build the C++ program here: %s", b.out);
	run_result_free(&b);
	snprintf(cmd, sizeof(cmd), "'%s'", exe);
	char data[128];
	snprintf(data, sizeof(data), "%s.data", name);
	char *path = perf_record(record_opts, data, cmd);
	/* the program's own rows hold its C++ names: the test sees them */
	struct run_result r = run_cmd("'%s' report -q -i '%s' --stdio --no-children -g none", PERFEV_BIN, path);
	cr_assert(strstr(r.out, "ns::Acc::sum") && !strstr(r.out, "sum(int)"), "%s", r.out);
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
	compare_script_args(path, "-F comm,ip,sym,symoff,dso -S ns::Acc::look", "cat");
	free(path);
}

Test(interop_cxx_names, frame_pointers_like_perf, .timeout = 180)
{
	require_root();
	names_like_perf("-O2 -fno-omit-frame-pointer", "-D 30 -g -e cpu-clock", "names_fp");
}

Test(interop_cxx_names, dwarf_like_perf, .timeout = 180)
{
	require_root();
	names_like_perf("-O2", "-D 30 --call-graph dwarf -e cpu-clock", "names_dwarf");
}
