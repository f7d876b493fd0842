/* perfev report's terminal browser (src/cli/browser) driven in a real
 * terminal: tmux (its own server per test, -L), keys sent with send-keys,
 * the screen read with capture-pane, polled until what is expected shows
 * (or a timeout). What it shows is checked against perf report --stdio
 * and perfev report --stdio on the same perf recording of workloads/calls;
 * the terminal must come back as it was (the shell's screen, stty's
 * settings) after q, and after a file that is not a perf.data. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WAIT_S 30 /* a loaded machine: the screen may take a while */

struct term {
	char sock[64];
};

static void tmux_ok(const struct term *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void tmux_ok(const struct term *t, const char *fmt, ...)
{
	char *args;
	va_list ap;
	va_start(ap, fmt);
	cr_assert(vasprintf(&args, fmt, ap) > 0);
	va_end(ap);
	struct run_result r = run_cmd("tmux -L %s -f /dev/null %s", t->sock, args);
	cr_assert_eq(r.status, 0, "tmux %s: %s", args, r.err);
	run_result_free(&r);
	free(args);
}

/* The test's terminal server, ended however the test ends (a failed
 * assertion too): the browser under it with it. */
static char started[64];
static void kill_started(void)
{
	if (started[0]) {
		struct run_result r = run_cmd("tmux -L %s kill-server", started);
		run_result_free(&r);
	}
}

/* cmd in a new 160x50 terminal; the shell then says how it ended and
 * whether stty's settings are what they were before. */
static void term_start(struct term *t, const char *cmd)
{
	if (system("command -v tmux >/dev/null 2>&1") != 0)
		cr_skip_test("tmux is not installed (scripts/deps.sh)");
	snprintf(t->sock, sizeof(t->sock), "perfev-tui-%d", (int)getpid());
	if (!started[0])
		atexit(kill_started);
	snprintf(started, sizeof(started), "%s", t->sock);
	char *wrapped;
	cr_assert(asprintf(&wrapped, "s1=$(stty -g); %s; st=$?; s2=$(stty -g); [ \"$s1\" = \"$s2\" ] && tty=same || "
			   "tty=changed; echo \"EXIT=$st TTY=$tty\"; sleep 600", cmd) > 0);
	size_t n = 0; /* single-quoted for the shell that runs tmux */
	char *q = malloc(strlen(wrapped) * 4 + 3);
	cr_assert(q);
	q[n++] = '\'';
	for (const char *s = wrapped; *s; s++) {
		if (*s == '\'') {
			memcpy(q + n, "'\\''", 4);
			n += 4;
		} else {
			q[n++] = *s;
		}
	}
	q[n++] = '\'';
	q[n] = 0;
	tmux_ok(t, "new-session -d -x 160 -y 50 -s t %s", q);
	free(q);
	free(wrapped);
}

static void term_stop(struct term *t)
{
	struct run_result r = run_cmd("tmux -L %s kill-server", t->sock);
	run_result_free(&r);
}

static char *term_screen(const struct term *t)
{
	struct run_result r = run_cmd("tmux -L %s capture-pane -p -t t", t->sock);
	cr_assert_eq(r.status, 0, "capture-pane: %s", r.err);
	free(r.err);
	return r.out;
}

/* The screen once it holds text (polled every 100 ms, WAIT_S at most). */
static char *term_wait(const struct term *t, const char *text)
{
	char *s = NULL;
	for (int i = 0; i < WAIT_S * 10; i++) {
		free(s);
		s = term_screen(t);
		if (strstr(s, text))
			return s;
		usleep(100000);
	}
	cr_assert_fail("the terminal never showed '%s'; it shows:\n%s", text, s);
	return NULL;
}

/* The screen once text is gone from it. */
static char *term_wait_gone(const struct term *t, const char *text)
{
	char *s = NULL;
	for (int i = 0; i < WAIT_S * 10; i++) {
		free(s);
		s = term_screen(t);
		if (!strstr(s, text))
			return s;
		usleep(100000);
	}
	cr_assert_fail("'%s' stayed on the terminal:\n%s", text, s);
	return NULL;
}

static bool alternate_screen(const struct term *t)
{
	struct run_result r = run_cmd("tmux -L %s display-message -p -t t '#{alternate_on}'", t->sock);
	bool on = r.out && r.out[0] == '1';
	run_result_free(&r);
	return on;
}

static char *record(void)
{
	require_root();
	return perf_record("-g -e cpu-clock -F 4000", "tui.data", WORKLOAD("calls") " 400");
}

static char *browse_cmd(const char *data, const char *extra)
{
	char *cmd;
	cr_assert(asprintf(&cmd, "'%s' report -q -i '%s' %s", PERFEV_BIN, data, extra) > 0);
	return cmd;
}

/* The next line of *at into buf (trailing blanks cut); false at the end. */
static bool next_line(const char **at, char *buf, size_t len)
{
	if (!*at || !**at)
		return false;
	const char *end = strchr(*at, '\n');
	size_t n = end ? (size_t)(end - *at) : strlen(*at);
	snprintf(buf, len, "%.*s", (int)(n < len - 1 ? n : len - 1), *at);
	for (size_t k = strlen(buf); k && buf[k - 1] == ' '; k--)
		buf[k - 1] = 0;
	*at = end ? end + 1 : NULL;
	return true;
}

/* The lines of text (trailing blanks cut), at most max. */
static size_t text_lines(const char *text, char rows[][512], size_t max)
{
	size_t n = 0;
	while (n < max && next_line(&text, rows[n], 512))
		n++;
	return n;
}

/* The entry lines of a --stdio report or of a screen (screen: perf's +/-
 * marker in the first column is put back to --stdio's blank), trailing
 * blanks cut: the lines with Children and Self, not the graphs'. */
static size_t entries(const char *text, bool screen, char rows[][512], size_t max)
{
	size_t n = 0;
	struct report_row r;
	while (n < max && next_line(&text, rows[n], 512)) {
		if (screen && (rows[n][0] == '+' || rows[n][0] == '-'))
			rows[n][0] = ' ';
		n += report_parse(rows[n], true, &r, 1) == 1;
	}
	return n;
}
#define screen_entries(s, rows, max) entries(s, true, rows, max)
#define stdio_entries(s, rows, max) entries(s, false, rows, max)

static void squeeze(char *s) /* runs of blanks as one: perf's and perfev's column widths apart */
{
	char *w = s;
	for (char *r = s; *r; r++)
		if (*r != ' ' || (w > s && w[-1] != ' '))
			*w++ = *r;
	*w = 0;
}

static char rows_a[64][512], rows_b[4096][512];

/* The shell again after the browser ended: what it said (want: "EXIT=0
 * TTY=same", its status and stty's settings as before), the alternate
 * screen left; the terminal closed. */
static void ended(struct term *t, const char *want, const char *also)
{
	char *screen = term_wait(t, "EXIT=");
	cr_assert(strstr(screen, want) && (!also || strstr(screen, also)), "the browser did not end with '%s'%s%s:\n%s",
		  want, also ? " and " : "", also ? also : "", screen);
	cr_assert(!alternate_screen(t), "the alternate screen is still on after it ended");
	free(screen);
	term_stop(t);
}

/* The browser on a perf recording of workloads/calls, its first screen drawn. */
struct browsing {
	char *data, *cmd;
	struct term t;
};

static void browse_start(struct browsing *b)
{
	b->data = record();
	b->cmd = browse_cmd(b->data, "");
	term_start(&b->t, b->cmd);
	free(term_wait(&b->t, "h/?: help"));
}

/* q: status 0, the terminal as it was. */
static void browse_quit(struct browsing *b)
{
	tmux_ok(&b->t, "send-keys -t t q");
	ended(&b->t, "EXIT=0 TTY=same", NULL);
	free(b->cmd);
	free(b->data);
}

/* The screen's lines from the one holding text on, at most max. */
static size_t lines_from(const char *screen, const char *text, char rows[][512], size_t max)
{
	const char *at = strstr(screen, text);
	cr_assert(at, "no '%s' on the screen:\n%s", text, screen);
	while (at > screen && at[-1] != '\n')
		at--;
	return text_lines(at, rows, max);
}

/* perfev report --stdio (and perf's, perf true) of the recording, with extra options. */
static struct run_result stdio_of(const char *data, bool perf, const char *extra)
{
	struct run_result r = perf ? run_cmd("perf report -i '%s' --stdio %s 2>/dev/null", data, extra)
				   : run_cmd("'%s' report -q -i '%s' --stdio %s", PERFEV_BIN, data, extra);
	cr_assert_eq(r.status, 0, "%s report --stdio %s: %s", perf ? "perf" : "perfev", extra, r.err);
	return r;
}

/* perf's entries are among the screen's rows (its columns' widths aside). */
static void like_perf(const char *perf_out, size_t n, size_t top, const char *screen)
{
	static struct report_row w[4096], g[64];
	size_t nw = report_parse(perf_out, true, w, 4096), ng = 0;
	for (size_t i = 0; i < n; i++)
		ng += report_parse(rows_a[i], true, &g[ng], 1);
	for (size_t i = 0; i < nw; i++)
		squeeze(w[i].name);
	for (size_t i = 0; i < ng; i++)
		squeeze(g[i].name);
	char msg[8192];
	int bad = report_compare(w, nw, g, ng, top ? top : nw, 0.5, msg, sizeof(msg));
	cr_assert_eq(bad, 0, "perf's entries are not on the screen: %s\nscreen:\n%s\nperf:\n%s", msg, screen, perf_out);
}

Test(interop_report_tui, first_screen_lists_stdio_top_entries, .timeout = 180)
{
	struct browsing b;
	browse_start(&b);
	struct run_result want = stdio_of(b.data, true, ""), mine = stdio_of(b.data, false, "");
	char *screen = term_screen(&b.t);
	cr_assert(strstr(screen, "Samples: ") && strstr(screen, "of event 'cpu-clock'") &&
		  strstr(screen, "Children") && strstr(screen, "Symbol"), "no header:\n%s", screen);
	size_t n = screen_entries(screen, rows_a, 64);
	cr_assert_geq(n, 10, "fewer than 10 entries on the first screen:\n%s", screen);
	/* the same lines as perfev --stdio, in its order */
	size_t k = stdio_entries(mine.out, rows_b, 4096);
	cr_assert_geq(k, n, "the screen has %zu entries, --stdio %zu", n, k);
	for (size_t i = 0; i < n; i++)
		cr_assert_str_eq(rows_a[i], rows_b[i], "entry %zu of the screen is not --stdio's:\n%s", i, screen);
	like_perf(want.out, n, 10, screen); /* and perf's top 10 */
	free(screen);
	run_result_free(&want);
	run_result_free(&mine);
	browse_quit(&b);
}

Test(interop_report_tui, enter_expands_the_hottest_entrys_chain, .timeout = 180)
{
	struct browsing b;
	browse_start(&b);
	struct run_result want = stdio_of(b.data, true, ""), mine = stdio_of(b.data, false, "");
	cr_assert_eq(stdio_entries(mine.out, rows_b, 1), 1);
	char first[512];
	snprintf(first, sizeof(first), "%.500s", &rows_b[0][1]); /* (the screen has its marker in column 0) */
	tmux_ok(&b.t, "send-keys -t t Enter");
	char *screen = term_wait(&b.t, "---");
	/* the entry's line, then its graph as --stdio prints it, to the screen's end */
	size_t n = lines_from(screen, first, rows_a, 64);
	cr_assert_geq(n, 4, "no chain under the entry:\n%s", screen);
	size_t m = text_lines(strstr(mine.out, first), rows_b, 4096), shown = 0;
	for (size_t i = 1; i < n && i < m && rows_b[i][0] && !strstr(rows_a[i], "h/?: help"); i++, shown++)
		cr_assert_str_eq(rows_a[i], rows_b[i], "line %zu of the chain is not --stdio's:\n%s", i, screen);
	cr_assert_geq(shown, 3, "the chain shown is too short:\n%s", screen);
	/* perf's chain of its hottest entry starts the same way */
	const char *common = strstr(screen, "---");
	char head[256];
	snprintf(head, sizeof(head), "%.*s", (int)strcspn(common, "\n"), common);
	cr_assert(strstr(want.out, head), "perf's report has no '%s':\n%s", head, want.out);
	tmux_ok(&b.t, "send-keys -t t Enter"); /* again: folded */
	free(screen);
	free(term_wait_gone(&b.t, "---"));
	run_result_free(&mine);
	run_result_free(&want);
	browse_quit(&b);
}

Test(interop_report_tui, slash_leaves_only_matching_symbols, .timeout = 180)
{
	struct browsing b;
	browse_start(&b);
	struct run_result want = stdio_of(b.data, true, "--symbol-filter recurse"),
			  mine = stdio_of(b.data, false, "--symbol-filter recurse");
	tmux_ok(&b.t, "send-keys -t t /");
	free(term_wait(&b.t, "Symbol filter (empty: all):"));
	tmux_ok(&b.t, "send-keys -t t recurse Enter");
	char *screen = term_wait(&b.t, "Symbol filter: recurse");
	size_t n = screen_entries(screen, rows_a, 64);
	cr_assert_geq(n, 1, "no entry left:\n%s", screen);
	for (size_t i = 0; i < n; i++)
		cr_assert(strstr(rows_a[i], "recurse"), "entry without 'recurse' left:\n%s", screen);
	size_t k = stdio_entries(mine.out, rows_b, 4096);
	cr_assert_eq(k, n, "--stdio --symbol-filter has %zu entries, the screen %zu:\n%s", k, n, screen);
	for (size_t i = 0; i < n; i++)
		cr_assert_str_eq(rows_a[i], rows_b[i], "entry %zu is not --stdio --symbol-filter's", i);
	like_perf(want.out, n, 0, screen); /* perf's own --symbol-filter: the same entries */
	tmux_ok(&b.t, "send-keys -t t Escape"); /* back to every entry */
	free(screen);
	screen = term_wait_gone(&b.t, "Symbol filter: recurse");
	cr_assert_gt(screen_entries(screen, rows_a, 64), n, "Esc did not bring the other entries back:\n%s", screen);
	free(screen);
	run_result_free(&mine);
	run_result_free(&want);
	browse_quit(&b);
}

/* Column i (0: Children) of an entry line, its columns apart by two blanks. */
static void column(const char *row, int i, char *out, size_t len)
{
	const char *at = row + strspn(row, " ");
	for (; i > 0 && at; i--) {
		at = strstr(at, "  ");
		at = at ? at + strspn(at, " ") : NULL;
	}
	snprintf(out, len, "%.*s", at ? (int)(strstr(at, "  ") ? (size_t)(strstr(at, "  ") - at) : strlen(at)) : 0,
		 at ? at : "");
}

static void zoom_in_out(struct term *t, char key, int col, const char *label)
{
	char *screen = term_wait(t, "h/?: help");
	size_t all = screen_entries(screen, rows_a, 64);
	char want[256], title[300];
	column(rows_a[0], col, want, sizeof(want));
	cr_assert(want[0], "no column %d in '%s'", col, rows_a[0]);
	snprintf(title, sizeof(title), "%s: %s", label, want);
	tmux_ok(t, "send-keys -t t %c", key);
	free(screen);
	screen = term_wait(t, title);
	size_t n = screen_entries(screen, rows_a, 64);
	cr_assert_geq(n, 1, "no entries in the zoom:\n%s", screen);
	for (size_t i = 0; i < n; i++) {
		char got[256];
		column(rows_a[i], col, got, sizeof(got));
		cr_assert_str_eq(got, want, "entry %zu is not of %s %s:\n%s", i, label, want, screen);
	}
	tmux_ok(t, "send-keys -t t %c", key); /* again: out */
	free(screen);
	screen = term_wait_gone(t, title);
	cr_assert_eq(screen_entries(screen, rows_a, 64), all, "zooming out did not show every entry again:\n%s",
		     screen);
	free(screen);
}

Test(interop_report_tui, d_and_t_zoom_in_and_out, .timeout = 180)
{
	struct browsing b;
	browse_start(&b);
	zoom_in_out(&b.t, 'd', 3, "DSO"); /* Children, Self, Command, Shared Object */
	zoom_in_out(&b.t, 't', 2, "Thread");
	browse_quit(&b);
}

Test(interop_report_tui, resize_redraws, .timeout = 180)
{
	struct browsing b;
	browse_start(&b);
	tmux_ok(&b.t, "resize-window -t t -x 90 -y 20");
	char *screen = NULL;
	size_t n = 0;
	for (int i = 0; i < WAIT_S * 10; i++) { /* the status line on the new last line */
		free(screen);
		screen = term_screen(&b.t);
		n = text_lines(screen, rows_b, 4096);
		if (n == 20 && strstr(rows_b[19], "h/?: help"))
			break;
		usleep(100000);
	}
	cr_assert(n == 20 && strstr(rows_b[19], "h/?: help"), "not redrawn at 90x20:\n%s", screen);
	cr_assert(strstr(rows_b[0], "Samples: "), "no header after the resize:\n%s", screen);
	for (size_t i = 0; i < n; i++)
		cr_assert_leq(strlen(rows_b[i]), 90, "line %zu wider than the terminal:\n%s", i, screen);
	cr_assert_eq(screen_entries(screen, rows_a, 64), 17, "17 entries fit between header and status:\n%s", screen);
	free(screen);
	browse_quit(&b);
}

Test(interop_report_tui, not_a_perf_data_file_clean_message_and_exit, .timeout = 60)
{
	char *junk;
	cr_assert(asprintf(&junk, "%s/junk.data", test_tmpdir()) > 0);
	FILE *f = fopen(junk, "w");
	cr_assert(f);
	fputs("this is not a perf.data file\n", f);
	fclose(f);
	struct term t;
	char *cmd = browse_cmd(junk, "--tui");
	term_start(&t, cmd);
	ended(&t, "EXIT=1 TTY=same", "junk.data is not a perf.data file"); /* (its message) */
	free(cmd);
	free(junk);
}

Test(interop_report_tui, sigterm_restores_the_terminal, .timeout = 180)
{
	struct browsing b;
	browse_start(&b);
	/* the browser: the child of the pane's shell, by its id */
	struct run_result r = run_cmd("pgrep -P \"$(tmux -L %s display-message -p -t t '#{pane_pid}')\" -x perfev",
				      b.t.sock);
	cr_assert_eq(r.status, 0, "no perfev under the pane's shell: %s", r.err);
	int pid = atoi(r.out);
	run_result_free(&r);
	cr_assert_gt(pid, 1);
	cr_assert_eq(kill(pid, SIGTERM), 0);
	ended(&b.t, "EXIT=143 TTY=same", NULL);
	free(b.cmd);
	free(b.data);
}

Test(interop_report_tui, no_terminal_or_dumb_falls_back_to_stdio, .timeout = 180)
{
	char *data = record();
	struct run_result mine = stdio_of(data, false, "");
	struct run_result piped = run_cmd("'%s' report -q -i '%s' --tui", PERFEV_BIN, data);
	cr_assert_eq(piped.status, 0, "%s", piped.err);
	cr_assert_str_eq(piped.out, mine.out, "--tui without a terminal did not print --stdio's report");
	cr_assert(strstr(piped.err, "--tui needs a terminal"), "no note: %s", piped.err);
	run_result_free(&piped);
	/* on a terminal that cannot draw: the report on it, the note after (kept apart to be seen) */
	struct term t;
	char *cmd;
	cr_assert(asprintf(&cmd, "TERM=dumb '%s' report -q -i '%s' --sort comm -g none 2>'%s/err'; st=$?; "
			   "cat '%s/err'; (exit $st)", PERFEV_BIN, data, test_tmpdir(), test_tmpdir()) > 0);
	term_start(&t, cmd);
	ended(&t, "EXIT=0 TTY=same", "TERM is dumb");
	free(cmd);
	run_result_free(&mine);
	free(data);
}

/* The instruction rows of a screen or of perfev annotate --stdio with a
 * share: "percent address text" (blanks squeezed), at most max. */
static size_t hot_rows(const char *text, char rows[][512], size_t max)
{
	size_t n = 0;
	char line[512];
	while (n < max && next_line(&text, line, sizeof(line))) {
		double pct;
		unsigned long long addr;
		int at = 0;
		if (sscanf(line, " %lf : %llx: %n", &pct, &addr, &at) != 2 || !at || pct <= 0)
			continue;
		snprintf(rows[n], 512, "%.2f %llx %s", pct, addr, line + at);
		squeeze(rows[n]);
		n++;
	}
	return n;
}

/* a on an entry: its symbol's instructions with their shares, the hottest
 * selected, as perfev annotate --stdio gives them (which
 * interop_annotate holds to perf annotate); q goes back to the report. */
Test(interop_report_tui, a_annotates_the_entrys_symbol, .timeout = 180)
{
	struct browsing b;
	browse_start(&b);
	tmux_ok(&b.t, "send-keys -t t /");
	free(term_wait(&b.t, "Symbol filter (empty: all):"));
	tmux_ok(&b.t, "send-keys -t t leaf_a Enter");
	free(term_wait(&b.t, "Symbol filter: leaf_a"));
	tmux_ok(&b.t, "send-keys -t t a");
	char *screen = term_wait(&b.t, "Annotate leaf_a");
	cr_assert(strstr(screen, "of event 'cpu-clock'") && strstr(screen, "Tab/Shift-Tab"), "%s", screen);
	struct run_result want = run_cmd("'%s' annotate -i '%s' --stdio leaf_a", PERFEV_BIN, b.data);
	cr_assert_eq(want.status, 0, "%s", want.err);
	size_t n = hot_rows(screen, rows_a, 64), k = hot_rows(want.out, rows_b, 4096);
	cr_assert_geq(n, 1, "no instruction with a share on the screen:\n%s", screen);
	cr_assert_eq(n, k, "the screen has %zu hot instructions, perfev annotate --stdio %zu:\n%s\n%s", n, k, screen,
		     want.out);
	for (size_t i = 0; i < n; i++)
		cr_assert_str_eq(rows_a[i], rows_b[i], "hot instruction %zu differs:\n%s\n%s", i, screen, want.out);
	run_result_free(&want);
	free(screen);
	tmux_ok(&b.t, "send-keys -t t q"); /* back to the report, its filter still on */
	screen = term_wait(&b.t, "Symbol filter: leaf_a");
	cr_assert(!strstr(screen, "Annotate leaf_a"), "%s", screen);
	free(screen);
	tmux_ok(&b.t, "send-keys -t t Escape"); /* out of the filter */
	free(term_wait_gone(&b.t, "Symbol filter: leaf_a"));
	browse_quit(&b);
}
