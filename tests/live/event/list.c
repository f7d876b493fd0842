#define _GNU_SOURCE
/* perfev list and perfev attr as commands, on this machine. */
#include "support.h"
#include "perfev.h"
#include <string.h>

Test(live_list, probes_and_json, .timeout = 60)
{
	struct run_result r = run_cmd("'%s' list sw --json", PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"permissions\""), "%s", r.out);
	cr_assert(strstr(r.out, "\"name\": \"context-switches\", \"alias\": \"cs\""), "%s", r.out);
	/* software events open for one's own process at every paranoid level (user-only at worst) */
	cr_assert(strstr(r.out, "\"access\": \"full\"") || strstr(r.out, "\"access\": \"user-only\""),
		  "%s", r.out);
	cr_assert_null(strstr(r.out, "\"class\": \"hardware\""));
	run_result_free(&r);
	r = run_cmd("'%s' list", PERFEV_BIN);
	cr_assert_eq(r.status, 0);
	cr_assert(strstr(r.out, "Permissions: perf_event_paranoid="));
	cr_assert(strstr(r.out, "L1-dcache-load-misses"));
	cr_assert(strstr(r.out, "mem:ADDR[/LEN][:rwx]"));
	cr_assert(strstr(r.out, "rNNNN"));
	run_result_free(&r);
	r = run_cmd("'%s' list a b", PERFEV_BIN);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "one PATTERN"));
	run_result_free(&r);
}

Test(live_list, attr_command, .timeout = 60)
{
	struct run_result r = run_cmd("'%s' attr '{cs,faults}:u' mem:0x1000:w", PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(r.out[0] == '[');
	cr_assert(strstr(r.out, "\"type\": 1, \"size\": 136, \"config\": 3,"), "%s", r.out);
	cr_assert(strstr(r.out, "\"bp_type\": 2, \"bp_addr\": 4096, \"bp_len\": 4,"), "%s", r.out);
	cr_assert(strstr(r.out, "\"leader\": 0"), "%s", r.out);
	run_result_free(&r);
	r = run_cmd("'%s' attr 'cs,faults:q'", PERFEV_BIN);
	cr_assert_eq(r.status, 1);
	/* the caret sits under the 'q' (byte 10 of the string) */
	const char *q = strstr(r.err, "'cs,faults:q'");
	cr_assert_not_null(q, "%s", r.err);
	const char *l1 = memrchr(r.err, '\n', (size_t)(q - r.err));
	l1 = l1 ? l1 + 1 : r.err;
	const char *l2 = strchr(q, '\n') + 1, *caret = strstr(l2, "\\___");
	cr_assert_not_null(caret, "%s", r.err);
	cr_assert_eq((int)(caret - l2), (int)(q - l1) + 1 + 10, "%s", r.err);
	cr_assert(strstr(caret, "'q' is not a modifier"));
	run_result_free(&r);
}

Test(live_list, unprivileged_user_sees_what_is_allowed, .timeout = 60)
{
	require_root();
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	if (s.paranoid < 2)
		cr_skip_test("perf_event_paranoid is %lld here; the user-only case needs 2", (long long)s.paranoid);
	struct run_result r = run_cmd("setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "
				      "'%s' list sw --json", PERFEV_BIN);
	if (r.status == 127 || strstr(r.err, "setpriv:")) {
		run_result_free(&r);
		cr_skip_test("cannot run as nobody here (setpriv)");
	}
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"root\": false"), "%s", r.out);
	cr_assert(strstr(r.out, "\"kernel\": false"), "%s", r.out);
	cr_assert(strstr(r.out, "\"name\": \"task-clock\", \"alias\": null, \"pmu\": null, "
			 "\"description\": \"task time (per-task clock) in ns\", \"type\": 1, \"config\": 1, "
			 "\"access\": \"user-only\""), "%s", r.out);
	run_result_free(&r);
}
