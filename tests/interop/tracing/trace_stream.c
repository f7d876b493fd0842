/* perfev trace against perf trace on the same command: each call's line,
 * its arguments decoded and its return value, laid out alike (the times,
 * the thread id and the addresses, which change run to run, aside). */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lines of `TOOL trace ARGS -- cat /etc/hostname` (the trace is on
 * stderr), each without its time, duration and thread; `squeeze`: every
 * hex number, the thread id and perf's "<path>" after a descriptor masked,
 * blanks runs as one (an address's length, or a path perf adds, moves the
 * return value's column). */
static char *lines(const char *tool, const char *args, bool squeeze)
{
	struct run_result r = run_cmd("%s trace %s -- cat /etc/hostname 2>&1 >/dev/null | "
				      "sed -E 's/^ *([0-9.]+|\\?) \\(( *[0-9.]+ ms| +)\\): cat\\/[0-9]+ //%s'",
				      tool, args,
				      squeeze ? "; s/0x[0-9a-f]+/0xH/g; s/<[^>]*>//g; s/= [0-9]+ \\(cat\\)/= TID (cat)/; "
						"s/ +/ /g"
					      : "");
	cr_assert_eq(r.status, 0, "%s trace %s: %s", tool, args, r.err);
	char *out = r.out;
	r.out = NULL;
	run_result_free(&r);
	return out;
}

/* perf's layout: the return value's "= " at column 70 of the call (its
 * args_alignment), or one blank after a longer call */
static void assert_aligned(const char *text)
{
	char *copy = strdup(text);
	size_t n = 0;
	for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save), n++) {
		char *eq = strstr(l, ") ");
		while (eq && strncmp(eq + 1 + strspn(eq + 1, " "), "= ", 2))
			eq = strstr(eq + 1, ") ");
		cr_assert(eq, "no return value in '%s'", l);
		size_t call = (size_t)(eq - l) + 1, at = call + strspn(eq + 1, " ");
		cr_assert_eq(at, call < 70 ? 70 : call + 1, "'= ' at %zu of '%s'", at, l);
	}
	cr_assert_gt(n, 3, "%s", text);
	free(copy);
}

Test(interop_trace, openat_lines_like_perf, .timeout = 60)
{
	require_root();
	require_perf_tool();
	/* (the addresses' lengths differ run to run: blanks compared as one) */
	char *want = lines("perf", "-e openat", true), *got = lines(PERFEV_BIN, "-e openat", true);
	cr_assert(strstr(want, "openat(dfd: CWD, filename: 0xH, flags: RDONLY|CLOEXEC) = 3\n"), "perf:\n%s", want);
	cr_assert(strstr(want, "= -1 ENOENT (No such file or directory)\n"), "perf:\n%s", want);
	cr_assert_str_eq(got, want, "perfev:\n%s\nperf:\n%s", got, want);
	free(want);
	free(got);
	got = lines(PERFEV_BIN, "-e openat", false);
	assert_aligned(got);
	free(got);
}

/* every call of cat: execve's end (entered before the tracing), mmap's
 * protections and flags, access modes, arch_prctl, futex, prlimit64,
 * set_tid_address's thread, exit_group's "= ?" */
Test(interop_trace, every_call_like_perf, .timeout = 60)
{
	require_root();
	require_perf_tool();
	char *want = lines("perf", "", true), *got = lines(PERFEV_BIN, "", true);
	cr_assert(strstr(want, " ... [continued]: execve()) = 0\n"), "perf:\n%s", want);
	cr_assert(strstr(want, "exit_group() = ?\n"), "perf:\n%s", want);
	cr_assert_str_eq(got, want, "perfev:\n%s\nperf:\n%s", got, want);
	free(want);
	free(got);
}
