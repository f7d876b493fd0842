/* On a terminal, perfev's text goes through a pager and its percentages
 * are coloured as perf's (red from 5%, green above 0.5%); neither when
 * stdout is not a terminal, with --no-pager, --color=never or NO_COLOR.
 * script(1) gives the commands a terminal. */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *recording(void)
{
	char *path;
	cr_assert(asprintf(&path, "%s/pc.data", test_tmpdir()) > 0);
	struct run_result r = run_cmd("%s record -q -e cpu-clock -F 2000 -o '%s' -- %s 300 >/dev/null", PERFEV_BIN, path,
				      WORKLOAD("calls"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	return path;
}

/* `perfev ARGS` on a terminal, its pager marking each line "P:" */
static struct run_result on_tty(const char *env, const char *args)
{
	return run_cmd("TERM=xterm %s PERFEV_PAGER='sed s/^/P:/' script -qec \"%s %s\" /dev/null", env, PERFEV_BIN,
		       args);
}

Test(live_cli, pager_and_colour_on_a_terminal, .timeout = 60)
{
	char *data = recording(), args[512];
	snprintf(args, sizeof(args), "report -i %s --stdio --no-children", data);
	struct run_result r = on_tty("", args);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "P:#"), "no pager:\n%s", r.out);
	cr_assert(strstr(r.out, "\033[31m"), "no red percentage:\n%s", r.out);
	run_result_free(&r);
	/* --no-pager (before the command or among its options), NO_COLOR, --color=never */
	snprintf(args, sizeof(args), "--no-pager report -i %s --stdio --no-children", data);
	r = on_tty("NO_COLOR=1", args);
	cr_assert(!strstr(r.out, "P:") && strstr(r.out, "%") && !strstr(r.out, "\033["), "%s", r.out);
	run_result_free(&r);
	snprintf(args, sizeof(args), "report -i %s --stdio --no-children --no-pager --color=never", data);
	r = on_tty("", args);
	cr_assert(!strstr(r.out, "P:") && strstr(r.out, "%") && !strstr(r.out, "\033["), "%s", r.out);
	run_result_free(&r);
	/* not a terminal: neither, unless --color=always */
	r = run_cmd("PERFEV_PAGER='sed s/^/P:/' %s report -i %s --stdio --no-children", PERFEV_BIN, data);
	cr_assert(!strstr(r.out, "P:") && !strstr(r.out, "\033["), "%s", r.out);
	run_result_free(&r);
	r = run_cmd("%s report -i %s --stdio --no-children --color=always", PERFEV_BIN, data);
	cr_assert(strstr(r.out, "\033[31m"), "%s", r.out);
	run_result_free(&r);
	r = run_cmd("%s report -i %s --stdio --color=sometimes", PERFEV_BIN, data);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "give auto, always or never"), "%s", r.err);
	run_result_free(&r);
	/* script, annotate and list page too */
	const char *paged[] = {"script -i %s", "annotate -i %s --stdio", "list sw"};
	for (size_t i = 0; i < sizeof(paged) / sizeof(paged[0]); i++) {
		snprintf(args, sizeof(args), paged[i], data);
		r = on_tty("", args);
		cr_assert_eq(r.status, 0, "%s: %s", args, r.err);
		cr_assert(!strncmp(r.out, "P:", 2), "%s: no pager:\n%s", args, r.out);
		run_result_free(&r);
	}
	free(data);
}
