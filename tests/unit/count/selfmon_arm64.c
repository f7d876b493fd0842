/*
 * The arm64 self-monitoring code (src/lib/count/selfmon_arm64.c and the shared
 * arithmetic), cross-compiled with aarch64-linux-gnu-gcc and run under
 * qemu-aarch64: the mrs register table against the architecture's
 * encodings, the masking of 32-bit counters, time_short, perf_user_access.
 */
#include "support.h"
#include <stdlib.h>
#include <string.h>

Test(unit_selfmon_arm64, cross_compiled_under_qemu, .timeout = 120)
{
	struct run_result t = run_cmd("command -v aarch64-linux-gnu-gcc && command -v qemu-aarch64 && "
				      "test -e /usr/aarch64-linux-gnu/include/stdio.h");
	if (t.status != 0)
		cr_skip_test("needs aarch64-linux-gnu-gcc, libc6-dev-arm64-cross and qemu-aarch64 "
			     "(scripts/deps.sh installs them)");
	run_result_free(&t);
	const char *dir = test_tmpdir();
	struct run_result c = run_cmd("aarch64-linux-gnu-gcc -O2 -Wall -Wextra -Werror -I%s/src/lib "
				      "%s/tests/cross/arm64/selfmon.c %s/src/lib/count/selfmon_arm64.c -o %s/t",
				      PERFEV_SRCDIR, PERFEV_SRCDIR, PERFEV_SRCDIR, dir);
	cr_assert_eq(c.status, 0, "cross-compiling: %s", c.err);
	run_result_free(&c);
	/* the library's arm64 paths (config1 bits, perf_user_access) compile too */
	c = run_cmd("cd %s && for f in src/lib/count/selfmon*.c; do aarch64-linux-gnu-gcc -std=gnu11 -Wall "
		    "-Wextra -Wno-unused-parameter -Werror -fsyntax-only -DPERFEV_BUILDING=1 -Iinclude "
		    "-Isrc/lib $f || exit 1; done", PERFEV_SRCDIR);
	cr_assert_eq(c.status, 0, "the library's selfmon code for arm64: %s", c.err);
	run_result_free(&c);
	struct run_result r = run_cmd("qemu-aarch64 -L /usr/aarch64-linux-gnu %s/t", dir);
	cr_assert_eq(r.status, 0, "under qemu-aarch64: %s%s", r.out, r.err);
	cr_assert(strstr(r.out, ", 0 failed"), "%s", r.out);
	cr_log_info("%s", r.out);
	run_result_free(&r);
}
