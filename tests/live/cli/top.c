/* perfev top --stdio: the live profile of a busy process, printed every -d
 * seconds as perf top --stdio prints it; its refusals. Assertions are on
 * what is printed, never on how long it took. */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PERFEV PERFEV_BIN

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *at = strstr(s, what); at; at = strstr(at + 1, what))
		n++;
	return n;
}

/* perfev top ARGS -p PID of workloads/spin, which spins in spin_kernel. */
static struct run_result top_of_spin(const char *args)
{
	return run_cmd("%s 20000 & sp=$!; sleep 0.2; %s top %s -p $sp; st=$?; kill $sp; exit $st",
		       WORKLOAD("spin"), PERFEV, args);
}

Test(live_top, the_hot_symbol_on_top, .timeout = 60)
{
	require_root();
	struct run_result r = top_of_spin("--stdio -e cpu-clock -d 0.5 -n 2");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(count(r.out, "   PerfTop:"), 2, "two refreshes:\n%s", r.out);
	cr_assert(strstr(r.out, "[4000Hz cpu-clock],  (target_pid: "), "%s", r.out);
	/* the last refresh's first entry: spin_kernel, most of the samples */
	const char *last = strstr(strstr(r.out, "   PerfTop:") + 1, "   PerfTop:");
	const char *table = strstr(last, "----\n\n");
	cr_assert(table, "%s", r.out);
	double pct = 0;
	char obj[64] = "", sym[128] = "";
	cr_assert_eq(sscanf(table + 6, " %lf%% %63s [.] %127s", &pct, obj, sym), 3, "%s", r.out);
	cr_assert_str_eq(sym, "spin_kernel", "%s", r.out);
	cr_assert_str_eq(obj, "spin", "%s", r.out);
	cr_assert(pct > 50 && pct <= 100, "%.2f%%\n%s", pct, r.out);
	run_result_free(&r);
}

Test(live_top, stdout_not_a_terminal_prints_text_and_E_limits_it, .timeout = 60)
{
	require_root();
	struct run_result r = top_of_spin("-e cpu-clock -d 0.3 -n 1 -E 2 --sort sym");
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(count(r.out, "   PerfTop:"), 1, "%s", r.out);
	cr_assert(!strstr(r.err, "browser"), "no terminal, no note: %s", r.err);
	/* header, dashes, blank, at most 2 table lines, blank */
	int lines = count(r.out, "\n");
	cr_assert(lines >= 4 && lines <= 6, "%d lines:\n%s", lines, r.out);
	cr_assert(strstr(r.out, "spin_kernel"), "%s", r.out);
	run_result_free(&r);
}

Test(live_top, a_users_processes, .timeout = 60)
{
	require_root();
	/* workloads/spin run as nobody, hotloop as root, both busy: -u nobody
	 * follows spin alone */
	struct run_result r = run_cmd("setpriv --reuid=65534 --regid=65534 --clear-groups %s 20000 & sp=$!; "
				      "%s 20000 & hp=$!; sleep 0.3; %s top --stdio -e cpu-clock -d 0.5 -n 2 -u nobody; "
				      "st=$?; kill $sp $hp; exit $st", WORKLOAD("spin"), WORKLOAD("hotloop"), PERFEV);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "],  (uid: nobody, "), "%s", r.out);
	const char *last = strstr(strstr(r.out, "   PerfTop:") + 1, "   PerfTop:");
	cr_assert(last, "%s", r.out);
	const char *table = strstr(last, "----\n\n");
	double pct = 0;
	char sym[128] = "";
	cr_assert(table && sscanf(table + 6, " %lf%% %*s [.] %127s", &pct, sym) == 2, "%s", r.out);
	cr_assert_str_eq(sym, "spin_kernel", "%s", r.out);
	cr_assert(pct > 50, "%s", r.out);
	cr_assert(!strstr(r.out, "hotloop"), "root's hotloop is not followed:\n%s", r.out);
	run_result_free(&r);
}

Test(live_top, sigint_ends_it_cleanly, .timeout = 60)
{
	require_root();
	struct run_result r = run_cmd("%s 20000 & sp=$!; %s top --stdio -e cpu-clock -d 0.2 -p $sp & tp=$!; "
				      "sleep 1; kill -INT $tp; wait $tp; st=$?; kill $sp; exit $st",
				      WORKLOAD("spin"), PERFEV);
	cr_assert_eq(r.status, 0, "SIGINT: exit 0\n%s", r.err);
	run_result_free(&r);
}

Test(live_top, refusals_name_the_problem, .timeout = 60)
{
	require_root();
	static const struct { const char *args, *says; } cases[] = {
		{"-e no_such_event", "unknown event 'no_such_event'"},
		{"-e cpu-clock -p 999999999", "no process 999999999"},
		{"-d zero", "-d 'zero'"},
		{"-p 1 -a", "only one target"},
		{"--sort nosuchkey", "--sort nosuchkey: not a key"},
		{"-K -U", "hide every sample"},
		{"-u no_such_user_here", "-u no_such_user_here: no such user"},
		{"-u 3999999", "no process of this user runs"},
		{"-u root -a", "only one target"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_result r = run_cmd("%s top --stdio -n 1 %s", PERFEV, cases[i].args);
		cr_assert_neq(r.status, 0, "%s", cases[i].args);
		cr_assert(strstr(r.err, cases[i].says), "%s: %s", cases[i].args, r.err);
		run_result_free(&r);
	}
}

Test(live_top, unprivileged_is_told_the_fix, .timeout = 60)
{
	require_root();
	/* perf_event_paranoid 2 (or more) and a user without CAP_PERFMON:
	 * system-wide sampling is refused with the recorder's message */
	struct run_result r = run_cmd("cat /proc/sys/kernel/perf_event_paranoid; id -u nobody");
	int paranoid = atoi(r.out);
	run_result_free(&r);
	if (paranoid < 1)
		cr_skip_test("kernel.perf_event_paranoid is %d: an unprivileged user may sample the system", paranoid);
	r = run_cmd("setpriv --reuid=65534 --regid=65534 --clear-groups %s top --stdio -n 1 -e cpu-clock -a", PERFEV);
	cr_assert_neq(r.status, 0, "%s", r.out);
	cr_assert(strstr(r.err, "perf_event_paranoid"), "%s", r.err);
	run_result_free(&r);
}

/* The live browser in a real terminal (tmux): the workload's hot symbol on
 * screen under perf top's header, z answered on the status line, q ends it
 * with 0 and the terminal as it was; then again, ended by Ctrl-C. Every
 * step waits for what it expects to show (up to 30 s: a loaded machine). */
static const char tui_script[] =
	"command -v tmux >/dev/null || exit 77\n"
	"S=perfev-top-$$\n"
	"$SPIN 30000 & sp=$!\n"
	"tmux -L $S -f /dev/null new-session -d -x 140 -y 30 -s t \"s1=\\$(stty -g); TERM=xterm $PERFEV top "
	"-e cpu-clock -d 0.3 -p $sp; st=\\$?; s2=\\$(stty -g); [ \\\"\\$s1\\\" = \\\"\\$s2\\\" ] && tty=same || "
	"tty=changed; echo EXIT=\\$st TTY=\\$tty; sleep 600\"\n"
	"wait_for() { for i in $(seq 300); do tmux -L $S capture-pane -p -t t | grep -q -- \"$1\" && return 0; "
	"sleep 0.1; done; echo \"no '$1' on the screen:\"; return 1; }\n"
	"keys() { tmux -L $S send-keys -t t \"$@\"; }\n"
	"ok=0\n"
	"wait_for 'PerfTop:' && wait_for 'spin_kernel' && wait_for 'K/U: hide' && keys z && "
	"wait_for 'zeroing at each refresh on' && tmux -L $S capture-pane -p -t t && keys $QUIT && "
	"wait_for 'EXIT=0 TTY=same' || ok=1\n"
	"tmux -L $S capture-pane -p -t t\n"
	"tmux -L $S kill-server; kill $sp\n"
	"exit $ok\n";

static void browse(const char *quit)
{
	require_root();
	char path[4096];
	snprintf(path, sizeof(path), "%s/tui.sh", test_tmpdir());
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs(tui_script, f);
	fclose(f);
	struct run_result r = run_cmd("SPIN=%s PERFEV=%s QUIT=%s sh %s", WORKLOAD("spin"), PERFEV, quit, path);
	if (r.status == 77)
		cr_skip_test("tmux is not installed (scripts/deps.sh)");
	cr_assert_eq(r.status, 0, "%s\n%s", r.out, r.err);
	/* the screen before the quit: perf top's header over the table */
	const char *hdr = strstr(r.out, "PerfTop:"), *hot = strstr(r.out, "[.] spin_kernel");
	cr_assert(hdr && hot && hdr < hot, "%s", r.out);
	cr_assert(strstr(r.out, "EXIT=0 TTY=same"), "%s", r.out);
	run_result_free(&r);
}

Test(live_top, browser_refreshes_and_q_ends_it, .timeout = 120)
{
	browse("q");
}

Test(live_top, browser_ends_on_ctrl_c, .timeout = 120)
{
	browse("C-c");
}
