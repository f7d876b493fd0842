/* perf script -F ip of a DWARF-unwound recording: perf appends the inlined
 * functions' frames at unwinding, whatever the fields, and marks them
 * "ADDR (inlined)" even without sym; perfev resolved inlines only when
 * sym, dso or srcline was asked and left the marker out. --no-inline
 * leaves them out, as perf's. */
#define _GNU_SOURCE
#include "support.h"
#include "support_records.h"
#include "support_report.h"

#include <stdio.h>
#include <stdlib.h>

Test(interop_script, inlined_frames_marked_without_sym_like_perf, .timeout = 120)
{
	require_root();
	require_perf_tool();
	char *exe = build_program("mid",
				  "static volatile unsigned long sink;\n"
				  "__attribute__((noinline)) static void leaf(int n) { for (int i = 0; i < n; i++) sink += i * 3; }\n"
				  "static inline __attribute__((always_inline)) void mid(int n) { leaf(n); sink++; }\n"
				  "void (*volatile mid_ptr)(int) = mid;\n"
				  "int main(void) { for (int k = 0; k < 2000; k++) { mid(10000); mid_ptr(10000); } return 0; }\n",
				  "-O2 -g -fno-omit-frame-pointer");
	char *data = perf_record("--call-graph dwarf -e cpu-clock", "mid.data", exe);
	free(exe);
	struct run_result r = run_cmd("perf script -i '%s' -F ip 2>/dev/null | grep -c '(inlined)'", data);
	cr_assert_gt(atoi(r.out), 0, "perf marked no inlined frame: %s", r.out);
	run_result_free(&r);
	cr_expect(compare_script(data, "ip"));
	cr_expect(compare_script(data, "ip,dso"));
	cr_expect(compare_script_args(data, "--inline", NULL)); /* perf's default, spelled out */
	/* --no-inline: the unwound frames alone, no "(inlined)" line */
	cr_expect(compare_script_args(data, "--no-inline", NULL));
	cr_expect(compare_script_args(data, "--no-inline -F ip,sym,dso", NULL));
	r = run_cmd("%s script -i '%s' --no-inline -F ip,sym | grep -c '(inlined)'", PERFEV_BIN, data);
	cr_expect_eq(atoi(r.out), 0, "--no-inline printed %s inlined frames", r.out);
	run_result_free(&r);
	free(data);
}
