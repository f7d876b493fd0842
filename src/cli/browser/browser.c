/* browser.c — perfev report's terminal browser: the terminal taken and
 * always given back (endwin on every exit path: q, errors, SIGINT, SIGTERM,
 * SIGHUP, and crashes), the keys read and handed to the library's model. */
#define _GNU_SOURCE
#include "browser.h"
#include "cli.h"

#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool browser_wanted(const char *cmd, bool forced)
{
	const char *term = getenv("TERM");
	bool tty = isatty(STDIN_FILENO) && isatty(STDOUT_FILENO);
	if (!tty) {
		if (forced)
			fprintf(stderr, "perfev %s: note: --tui needs a terminal on stdin and stdout; "
				"printing the report as --stdio\n", cmd);
		return false;
	}
	if (!term || !*term || !strcmp(term, "dumb")) {
		fprintf(stderr, "perfev %s: note: TERM is %s, which cannot draw the browser; printing the "
			"report as --stdio (set TERM, e.g. TERM=xterm, or give --stdio)\n", cmd,
			term && *term ? term : "unset");
		return false;
	}
	return true;
}

/* ---- the terminal, always restored -------------------------------------------- */
static volatile sig_atomic_t stop_signal;
static bool screen_on;
static bool live_mode; /* perfev top's: keys read without waiting */
static const char *screen_cmd = "report"; /* the command, in messages */

static void on_stop(int sig) { stop_signal = sig; }

bool browser_stopping(void) { return stop_signal != 0; }

/* A crash: the terminal back before the default action (not async-safe,
 * but a process that is dying anyway leaves a usable shell behind). */
static void on_crash(int sig)
{
	if (screen_on)
		endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void screen_restore(void)
{
	if (screen_on)
		endwin();
	screen_on = false;
}

static int screen_take(void)
{
	struct sigaction sa = {.sa_handler = on_stop};
	sigemptyset(&sa.sa_mask);
	int stops[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT}, crashes[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE};
	for (size_t i = 0; i < 4; i++)
		sigaction(stops[i], &sa, NULL);
	sa.sa_handler = on_crash;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < 4; i++)
		sigaction(crashes[i], &sa, NULL);
	atexit(screen_restore);
	if (!initscr())
		return cli_error(screen_cmd, "cannot set up the terminal (TERM=%s): give --stdio", getenv("TERM"));
	screen_on = true;
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);
	timeout(200); /* getch returns now and then: a signal's stop is seen */
	return 0;
}

/* The library's notes while the screen is up: the status line's. */
static void log_to_status(void *ctx, enum perfev_log_level level, const char *msg)
{
	(void)level;
	struct browser *b = ctx;
	snprintf(b->status, sizeof(b->status), "%s", msg);
}

/* ---- keys ------------------------------------------------------------------------ */
static size_t cur_line(const struct browser *b)
{
	return perfev_report_model_shown(b->m, b->cur);
}

static void show(struct browser *b)
{
	if (perfev_report_model_show(b->m, &b->z) < 0)
		snprintf(b->status, sizeof(b->status), "%s", perfev_errmsg());
	b->cur = b->top = 0;
}

/* Folds at the cursor and keeps it on its line (or the nearest shown above). */
static void fold(struct browser *b, size_t line, enum perfev_report_fold how)
{
	size_t keep = line == (size_t)-1 ? cur_line(b) : line;
	if (line == (size_t)-1 && how == PERFEV_REPORT_COLLAPSE) { /* C: the cursor to its entry */
		struct perfev_report_line l = {.sz = sizeof(l)};
		if (perfev_report_model_line(b->m, keep, &l) == 0)
			keep = l.entry_line;
	}
	perfev_report_model_fold(b->m, line, how);
	b->cur = perfev_report_model_shown_at(b->m, keep);
}

/* d and t: into the selected entry's object or thread, or out again. */
static void zoom(struct browser *b, bool dso)
{
	struct perfev_report_line l = {.sz = sizeof(l)};
	if (dso ? b->z.dso != NULL : b->z.comm != NULL) {
		*(dso ? &b->z.dso : &b->z.comm) = NULL;
		b->z.tid = dso ? b->z.tid : -1;
	} else if (perfev_report_model_line(b->m, cur_line(b), &l) < 0) {
		return;
	} else if (dso) {
		if (!l.dso) {
			snprintf(b->status, sizeof(b->status), "the entry's object is not known: no zoom");
			return;
		}
		snprintf(b->dso, sizeof(b->dso), "%s", l.dso);
		b->z.dso = b->dso;
	} else {
		if (!l.comm) {
			snprintf(b->status, sizeof(b->status), "the entry's thread is not known: no zoom");
			return;
		}
		snprintf(b->comm, sizeof(b->comm), "%s", l.comm);
		b->z.comm = b->comm;
		b->z.tid = l.tid; /* (-1 unless keyed by pid/tid) */
	}
	show(b);
}

bool browser_ask(const char *prompt, char *text, size_t len)
{
	text[0] = 0;
	mvhline(LINES - 1, 0, ' ', COLS);
	mvaddstr(LINES - 1, 0, prompt);
	echo();
	curs_set(1);
	timeout(-1);
	int r = getnstr(text, (int)len - 1);
	timeout(live_mode ? 0 : 200);
	curs_set(0);
	noecho();
	return r != ERR;
}

/* / : the symbol filter's text, read on the status line. */
static void ask_filter(struct browser *b)
{
	char text[256];
	if (!browser_ask("Symbol filter (empty: all): ", text, sizeof(text)))
		return;
	snprintf(b->symbol, sizeof(b->symbol), "%s", text);
	b->z.symbol = text[0] ? b->symbol : NULL;
	show(b);
}

/* q/Esc: out of zooms and filters, then quit (true). */
static bool back(struct browser *b)
{
	if (!b->z.symbol && !b->z.dso && !b->z.comm)
		return true;
	b->z.symbol = b->z.dso = b->z.comm = NULL;
	b->z.tid = -1;
	show(b);
	return false;
}

static void move_to(struct browser *b, long delta)
{
	size_t n = perfev_report_model_nr_shown(b->m);
	long to = (long)b->cur + delta;
	b->cur = to < 0 ? 0 : n && (size_t)to >= n ? n - 1 : (size_t)to;
}

/* One key; true: quit. */
bool browser_key(struct browser *b, int c)
{
	long page = LINES > 4 ? LINES - 4 : 1;
	b->status[0] = 0;
	if (b->help) {
		b->help = false;
		return false;
	}
	struct perfev_report_line l = {.sz = sizeof(l)};
	switch (c) {
	case KEY_UP: case 'k': move_to(b, -1); break;
	case KEY_DOWN: case 'j': move_to(b, 1); break;
	case KEY_PPAGE: move_to(b, -page); break;
	case KEY_NPAGE: case ' ': move_to(b, page); break;
	case KEY_HOME: b->cur = 0; break;
	case KEY_END: move_to(b, (long)perfev_report_model_nr_shown(b->m)); break;
	case '\n': case '\r': case KEY_ENTER: case '+': fold(b, cur_line(b), PERFEV_REPORT_TOGGLE); break;
	case 'e': case 'c':
		if (perfev_report_model_line(b->m, cur_line(b), &l) == 0)
			fold(b, l.entry_line, c == 'e' ? PERFEV_REPORT_EXPAND : PERFEV_REPORT_COLLAPSE);
		break;
	case 'E': fold(b, (size_t)-1, PERFEV_REPORT_EXPAND); break;
	case 'C': fold(b, (size_t)-1, PERFEV_REPORT_COLLAPSE); break;
	case '/': ask_filter(b); break;
	case 'd': case 't': zoom(b, c == 'd'); break;
	case 's': {
		struct perfev_report_model_info in = {.sz = sizeof(in)};
		perfev_report_model_info(b->m, &in);
		if (in.nr_events < 2) {
			snprintf(b->status, sizeof(b->status), "the file has one event: nothing to switch to");
			break;
		}
		b->z.event = (in.event + 1) % in.nr_events;
		show(b);
		break;
	}
	case 'a':
		if (b->pd)
			browser_annotate(b, cur_line(b));
		else
			snprintf(b->status, sizeof(b->status), "annotate reads a recording: not in a live view");
		break;
	case 'h': case '?': b->help = true; break;
	case 'q': case 27: return back(b);
	case KEY_RESIZE: break; /* (redrawn below at the new size) */
	}
	return false;
}

static void loop(struct browser *b)
{
	browser_draw(b);
	while (!stop_signal) {
		int c = getch();
		if (c == ERR)
			continue;
		if (browser_key(b, c))
			break;
		browser_draw(b);
	}
}

int report_browse(struct perfev_perfdata *pd, const struct perfev_report_opts *o0)
{
	struct perfev_report_opts o = *o0;
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .event = -1};
	if (o0->load)
		lo = *o0->load;
	struct progress pr;
	const char *path = perfev_perfdata_path(pd);
	progress_start(&pr, path);
	lo.progress = progress_update, lo.progress_ctx = &pr;
	o.load = &lo;
	struct browser b = {.pd = pd, .load = o0->load, .z = {.sz = sizeof(b.z), .tid = -1}};
	b.m = perfev_report_model_new(pd, &o);
	progress_end(&pr);
	if (!b.m && errno == ENODATA)
		return 2; /* --stdio's first lines and its note, as perf's browser does not open either */
	if (!b.m && errno == EOPNOTSUPP) {
		fprintf(stderr, "perfev report: note: %s: printing the report as --stdio\n", perfev_errmsg());
		return 2;
	}
	if (!b.m)
		return cli_error("report", "%s", perfev_errmsg());
	int ret = screen_take();
	if (ret == 0) {
		void *old_ctx;
		perfev_log_fn old = perfev_set_log(log_to_status, &b, PERFEV_LOG_NOTE, &old_ctx);
		loop(&b);
		screen_restore();
		perfev_set_log(old, old_ctx, PERFEV_LOG_NOTE, NULL);
	}
	perfev_report_model_free(b.m);
	if (stop_signal) { /* the terminal is back: end as the signal asked */
		signal(stop_signal, SIG_DFL);
		raise(stop_signal);
	}
	return ret;
}

/* ---- perfev top's live browser -------------------------------------------------- */
static void *live_old_log_ctx;
static perfev_log_fn live_old_log;

int browser_live_begin(struct browser *b)
{
	live_mode = true;
	screen_cmd = "top";
	int ret = screen_take();
	if (ret)
		return ret;
	timeout(0); /* the caller reads keys between its refreshes */
	live_old_log = perfev_set_log(log_to_status, b, PERFEV_LOG_WARN, &live_old_log_ctx);
	return 0;
}

void browser_live_show(struct browser *b, struct perfev_report_model *m)
{
	perfev_report_model_free(b->m);
	b->m = m;
	if ((b->z.symbol || b->z.dso || b->z.comm) && perfev_report_model_show(b->m, &b->z) < 0)
		snprintf(b->status, sizeof(b->status), "%s", perfev_errmsg());
	/* (the cursor stays on its line's place; the draw keeps it in range) */
}

void browser_live_end(struct browser *b)
{
	perfev_report_model_free(b->m);
	b->m = NULL;
	if (!live_mode)
		return;
	if (screen_on)
		perfev_set_log(live_old_log, live_old_log_ctx, PERFEV_LOG_WARN, NULL);
	screen_restore();
	live_mode = false;
}
