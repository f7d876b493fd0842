/* `perfev help COMMAND` prints that command's help, as `perfev COMMAND
 * --help` does (perf help COMMAND shows its man page); it printed the
 * general usage instead. An unknown command is named, with status 1. */
#define _GNU_SOURCE
#include "support.h"

#include <stdlib.h>
#include <string.h>

Test(unit_cli_help, help_command_is_the_commands_help)
{
	struct run_result all = run_cmd(PERFEV_BIN " --help | sed -n 's/^  \\([a-z0-9]\\+\\)  .*/\\1/p'");
	cr_assert_eq(all.status, 0, "%s", all.err);
	size_t n = 0;
	for (char *save = NULL, *cmd = strtok_r(all.out, "\n", &save); cmd; cmd = strtok_r(NULL, "\n", &save), n++) {
		struct run_result h = run_cmd(PERFEV_BIN " help %s", cmd);
		struct run_result want = run_cmd(PERFEV_BIN " %s --help", cmd);
		cr_expect_eq(h.status, 0, "perfev help %s: %s", cmd, h.err);
		cr_expect_eq(want.status, 0, "perfev %s --help: %s", cmd, want.err);
		cr_expect_str_eq(h.out, want.out, "perfev help %s", cmd);
		cr_expect(strstr(h.out, cmd), "perfev help %s does not name it: %s", cmd, h.out);
		run_result_free(&h), run_result_free(&want);
	}
	cr_assert_geq(n, 10, "the command list: %zu commands", n);
	run_result_free(&all);
}

Test(unit_cli_help, help_of_an_unknown_command_is_refused)
{
	struct run_result r = run_cmd(PERFEV_BIN " help nosuch");
	cr_expect_eq(r.status, 1);
	cr_expect(strstr(r.err, "'nosuch' is not a command"), "%s", r.err);
	cr_expect_eq(r.out_len, 0, "%s", r.out);
	run_result_free(&r);
	r = run_cmd(PERFEV_BIN " help");
	cr_expect_eq(r.status, 0);
	cr_expect(strstr(r.out, "usage: perfev COMMAND"), "%s", r.out);
	run_result_free(&r);
}
