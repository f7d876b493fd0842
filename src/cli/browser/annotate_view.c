/* annotate_view.c — the browser's `a`: the selected entry's symbol down to
 * its instructions and source lines (perfev/annotate.h, the rows perfev
 * annotate --stdio prints), as perf report's annotate browser shows them:
 * the hottest instruction selected first, Tab and Shift-Tab from one hot
 * instruction to the next, `s` source lines on and off, q/Esc/Left back
 * to the report. The file is read again for it: a pipe cannot be. */
#define _GNU_SOURCE
#include "browser.h"

#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define HOT 0.5 /* percent: the instructions Tab visits, as perf's */

struct view {
	const struct perfev_annotated_symbol *s;
	const char *event;
	size_t cur, top;
	bool source;
};

static void draw_row(int y, const struct perfev_annotate_row *r, bool selected)
{
	char buf[1024];
	switch (r->kind) {
	case PERFEV_ANNOTATE_INSN:
		if (r->samples)
			snprintf(buf, sizeof(buf), "%8.2f : %8llx:   %s", r->percent, (unsigned long long)r->addr,
				 r->text ? r->text : "(bad)");
		else
			snprintf(buf, sizeof(buf), "%8s : %8llx:   %s", "", (unsigned long long)r->addr,
				 r->text ? r->text : "(bad)");
		break;
	case PERFEV_ANNOTATE_SOURCE:
		snprintf(buf, sizeof(buf), "%8s : %u  %s", "", r->line, r->text ? r->text : "");
		break;
	default:
		snprintf(buf, sizeof(buf), "%8s : %s%s", "", r->text ? r->text : "", r->inlined ? " (inlined)" : "");
		break;
	}
	int attr = selected ? A_REVERSE : r->kind != PERFEV_ANNOTATE_INSN ? A_DIM
		 : r->percent >= 5 ? A_BOLD : 0;
	attron(attr);
	mvhline(y, 0, ' ', selected ? COLS : 0);
	mvaddnstr(y, 0, buf, COLS);
	attroff(attr);
}

static void draw(const struct view *v, const char *status)
{
	erase();
	const struct perfev_annotated_symbol *s = v->s;
	const char *base = strrchr(s->dso, '/');
	char h[1024];
	snprintf(h, sizeof(h), " Annotate %s  (%s, %llu samples of event '%s', percent: local period)", s->symbol,
		 base ? base + 1 : s->dso, (unsigned long long)s->samples, v->event);
	attron(A_REVERSE);
	mvhline(0, 0, ' ', COLS);
	mvaddnstr(0, 0, h, COLS);
	attroff(A_REVERSE);
	attron(A_BOLD);
	mvaddnstr(1, 0, " Percent : Address:   Instruction", COLS);
	attroff(A_BOLD);
	int rows = LINES - 3 > 0 ? LINES - 3 : 1;
	for (int y = 0; y < rows && v->top + (size_t)y < s->nr_rows; y++)
		draw_row(2 + y, &s->rows[v->top + (size_t)y], v->top + (size_t)y == v->cur);
	if (!s->nr_rows)
		mvaddnstr(2, 0, "  (no instructions: see the note below)", COLS);
	char st[600];
	if (status && *status)
		snprintf(st, sizeof(st), "%s", status);
	else if (s->note)
		snprintf(st, sizeof(st), "note: %s", s->note);
	else
		snprintf(st, sizeof(st), "Tab/Shift-Tab: next/previous hot instruction  H: hottest  s: source %s  "
			 "q/Esc/Left: back", v->source ? "off" : "on");
	mvaddnstr(LINES - 1, 0, st, COLS);
	refresh();
}

/* The row of the hottest instruction (0 when none). */
static size_t hottest(const struct perfev_annotated_symbol *s)
{
	size_t best = 0;
	for (size_t i = 0; i < s->nr_rows; i++)
		if (s->rows[i].kind == PERFEV_ANNOTATE_INSN &&
		    (s->rows[best].kind != PERFEV_ANNOTATE_INSN || s->rows[i].percent > s->rows[best].percent))
			best = i;
	return best;
}

/* The next hot instruction from the cursor in direction dir (wrapping), or the cursor. */
static size_t next_hot(const struct view *v, int dir)
{
	size_t n = v->s->nr_rows;
	for (size_t k = 1; k < n; k++) {
		size_t i = (v->cur + (dir > 0 ? k : n - k)) % n;
		const struct perfev_annotate_row *r = &v->s->rows[i];
		if (r->kind == PERFEV_ANNOTATE_INSN && r->percent >= HOT)
			return i;
	}
	return v->cur;
}

static void place(struct view *v, size_t to)
{
	size_t n = v->s->nr_rows, rows = LINES > 3 ? (size_t)LINES - 3 : 1;
	v->cur = n && to >= n ? n - 1 : to;
	if (v->cur < v->top)
		v->top = v->cur;
	if (v->cur >= v->top + rows)
		v->top = v->cur - rows / 2; /* a jump: the row mid-screen, as perf's */
}

/* The annotation of the entry's symbol, with or without source lines;
 * NULL with the reason in b->status. */
static struct perfev_annotation *load(struct browser *b, const char *symbol, const char *dso, bool source)
{
	struct perfev_report_model_info in = {.sz = sizeof(in)};
	perfev_report_model_info(b->m, &in);
	struct perfev_annotate_opts ao = {
		.sz = sizeof(ao), .symbol = symbol, .dso = dso, .event = in.nr_events > 1 ? (int)in.event : -1,
		.no_source = !source,
	};
	if (b->load) {
		ao.symfs = b->load->symfs;
		ao.kallsyms = b->load->kallsyms;
		ao.no_cache = b->load->no_cache;
	}
	mvhline(LINES - 1, 0, ' ', COLS);
	mvaddnstr(LINES - 1, 0, "annotating ...", COLS);
	refresh();
	struct perfev_annotation *a = perfev_annotate_load_from(b->pd, &ao);
	if (!a)
		snprintf(b->status, sizeof(b->status), "cannot annotate %.200s: %s", symbol, perfev_errmsg());
	return a;
}

void browser_annotate(struct browser *b, size_t line)
{
	struct perfev_report_line l = {.sz = sizeof(l)};
	if (perfev_report_model_line(b->m, line, &l) < 0)
		return;
	if (!l.symbol) {
		snprintf(b->status, sizeof(b->status), "the entry has no symbol to annotate");
		return;
	}
	if (perfev_perfdata_is_pipe(b->pd)) {
		snprintf(b->status, sizeof(b->status), "annotate reads the recording again, which a pipe cannot "
			 "give: save it to a file (perf record -o FILE) and browse that");
		return;
	}
	char symbol[512], dso[4096];
	snprintf(symbol, sizeof(symbol), "%s", l.symbol);
	snprintf(dso, sizeof(dso), "%s", l.dso ? l.dso : "");
	struct view v = {.source = true};
	struct perfev_annotation *a = load(b, symbol, l.dso ? dso : NULL, v.source);
	if (!a)
		return;
	v.s = perfev_annotation_symbol(a, 0);
	v.event = perfev_annotation_event(a);
	if (!v.s) {
		snprintf(b->status, sizeof(b->status), "%.400s has no samples to annotate", symbol);
		perfev_annotation_free(a);
		return;
	}
	place(&v, hottest(v.s));
	char status[512] = "";
	draw(&v, status);
	for (int c; !browser_stopping(); draw(&v, status)) {
		while ((c = getch()) == ERR && !browser_stopping())
			;
		status[0] = 0;
		long page = LINES > 4 ? LINES - 4 : 1;
		switch (c) {
		case KEY_UP: case 'k': place(&v, v.cur ? v.cur - 1 : 0); break;
		case KEY_DOWN: case 'j': place(&v, v.cur + 1); break;
		case KEY_PPAGE: place(&v, v.cur > (size_t)page ? v.cur - (size_t)page : 0); break;
		case KEY_NPAGE: case ' ': place(&v, v.cur + (size_t)page); break;
		case KEY_HOME: place(&v, 0); break;
		case KEY_END: place(&v, v.s->nr_rows ? v.s->nr_rows - 1 : 0); break;
		case '\t': place(&v, next_hot(&v, 1)); break;
		case KEY_BTAB: place(&v, next_hot(&v, -1)); break;
		case 'H': place(&v, hottest(v.s)); break;
		case 's': {
			uint64_t addr = v.s->nr_rows ? v.s->rows[v.cur].addr : 0;
			struct perfev_annotation *n = load(b, symbol, l.dso ? dso : NULL, !v.source);
			if (!n || !perfev_annotation_symbol(n, 0)) {
				snprintf(status, sizeof(status), "%s", b->status);
				b->status[0] = 0;
				perfev_annotation_free(n);
				break;
			}
			perfev_annotation_free(a);
			a = n;
			v.s = perfev_annotation_symbol(a, 0);
			v.source = !v.source;
			v.top = 0;
			size_t at = 0; /* the same instruction again */
			for (size_t i = 0; i < v.s->nr_rows; i++)
				if (v.s->rows[i].kind == PERFEV_ANNOTATE_INSN && v.s->rows[i].addr == addr) {
					at = i;
					break;
				}
			place(&v, at);
			break;
		}
		case 'q': case 27: case KEY_LEFT: case 'a':
			perfev_annotation_free(a);
			return;
		case KEY_RESIZE: break;
		}
	}
	perfev_annotation_free(a);
}
