/* browser_draw.c — the browser's screen: the header (samples, event and
 * the active filters), the column line, the model's lines from top, the
 * status line, and the help over them. */
#define _GNU_SOURCE
#include "browser.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

static const char *const help_text[] = {
	"perfev report: keys (as perf report's browser)",
	"",
	"  Up/Down, PgUp/PgDn, Home/End   move (k/j too)",
	"  Enter or +                     expand/collapse the call chain of the line",
	"  e / E                          expand the entry's chain / every chain",
	"  c / C                          collapse the entry's chain / every chain",
	"  /                              show only entries whose symbol holds a text",
	"                                 (an empty text shows all again)",
	"  d                              zoom into the entry's object (d again: out)",
	"  t                              zoom into the entry's thread (t again: out)",
	"  s                              switch to the next event of the file",
	"  a                              annotate the symbol: its instructions and source",
	"                                 lines with their shares (Tab: next hot one; q: back)",
	"  h or ?                         this help",
	"  q or Esc                       back (out of zooms and filters), else quit",
	"",
	"  The lines are perfev report --stdio's for the same options.",
	"",
	"Press any key to go back.",
};

static void draw_help(void)
{
	erase();
	for (size_t i = 0; i < sizeof(help_text) / sizeof(help_text[0]) && (int)i < LINES; i++)
		mvaddnstr((int)i, 0, help_text[i], COLS);
	refresh();
}

/* The header: perf's title, then the filters shown ("Thread: x", "DSO: y"). */
static void draw_header(struct browser *b, const struct perfev_report_model_info *in)
{
	char h[1024];
	int n = snprintf(h, sizeof(h), " %s", b->title ? b->title : in->title);
	if (b->z.comm && b->z.tid >= 0)
		n += snprintf(h + n, sizeof(h) - (size_t)n, ", Thread: %s(%lld)", b->z.comm, (long long)b->z.tid);
	else if (b->z.comm)
		n += snprintf(h + n, sizeof(h) - (size_t)n, ", Thread: %s", b->z.comm);
	if (b->z.dso) {
		const char *base = strrchr(b->z.dso, '/');
		n += snprintf(h + n, sizeof(h) - (size_t)n, ", DSO: %s", base ? base + 1 : b->z.dso);
	}
	if (b->z.symbol && (size_t)n < sizeof(h))
		snprintf(h + n, sizeof(h) - (size_t)n, ", Symbol filter: %s", b->z.symbol);
	attron(A_REVERSE);
	mvhline(0, 0, ' ', COLS);
	mvaddnstr(0, 0, h, COLS);
	attroff(A_REVERSE);
	attron(A_BOLD);
	mvaddnstr(1, 0, in->columns, COLS);
	attroff(A_BOLD);
}

/* A line as --stdio prints it; an entry that folds gets perf's +/- in its
 * first column (a blank in --stdio), a folded graph line " [+]" after it. */
static void draw_line(int y, const struct perfev_report_line *l, bool selected)
{
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s%s", l->text, !l->entry && l->folded ? " [+]" : "");
	if (l->entry && l->has_children && buf[0] == ' ')
		buf[0] = l->folded ? '+' : '-';
	if (selected)
		attron(A_REVERSE);
	mvhline(y, 0, ' ', selected ? COLS : 0);
	mvaddnstr(y, 0, buf, COLS);
	if (selected)
		attroff(A_REVERSE);
}

void browser_draw(struct browser *b)
{
	if (b->help) {
		draw_help();
		return;
	}
	erase();
	struct perfev_report_model_info in = {.sz = sizeof(in)};
	perfev_report_model_info(b->m, &in);
	draw_header(b, &in);
	size_t n = perfev_report_model_nr_shown(b->m);
	if (b->max_lines && n > b->max_lines)
		n = b->max_lines;
	int rows = LINES - 3 > 0 ? LINES - 3 : 1;
	if (b->cur >= n)
		b->cur = n ? n - 1 : 0;
	if (b->cur < b->top)
		b->top = b->cur;
	if (b->cur >= b->top + (size_t)rows)
		b->top = b->cur - (size_t)rows + 1;
	for (int y = 0; y < rows && b->top + (size_t)y < n; y++) {
		struct perfev_report_line l = {.sz = sizeof(l)};
		if (perfev_report_model_line(b->m, perfev_report_model_shown(b->m, b->top + (size_t)y), &l) == 0)
			draw_line(2 + y, &l, b->top + (size_t)y == b->cur);
	}
	if (!n)
		mvaddnstr(2, 0, "  (no entries: q or Esc goes back)", COLS);
	char st[600];
	if (b->status[0])
		snprintf(st, sizeof(st), "%s", b->status);
	else if (b->keys)
		snprintf(st, sizeof(st), "%s", b->keys);
	else
		snprintf(st, sizeof(st), "h/?: help  Enter/+: expand  /: filter  d/t: zoom%s  q: %s",
			 in.nr_events > 1 ? "  s: next event" : "",
			 b->z.symbol || b->z.dso || b->z.comm ? "back" : "quit");
	mvaddnstr(LINES - 1, 0, st, COLS);
	refresh();
}
