/* browser.h — perfev report's terminal browser (cli/browser/README.md). */
#ifndef PERFEV_CLI_BROWSER_H
#define PERFEV_CLI_BROWSER_H

#include <stdbool.h>
#include "perfev.h"

/* Whether perfev CMD (report, top) opens the browser: forced (--tui) or
 * stdin and stdout are terminals, and TERM names one ncurses can drive.
 * When not, a forced or TERM=dumb one prints a note that --stdio follows. */
bool browser_wanted(const char *cmd, bool forced);

/* Browses pd with o's options (o->load's progress is set here). 0 after
 * q, 1 after an error (said on stderr, the terminal restored), 2 when the
 * model has no such view (said as a note: print --stdio instead). */
int report_browse(struct perfev_perfdata *pd, const struct perfev_report_opts *o);

/* ---- between the browser's files ---- */
#include <stdint.h>
struct browser {
	struct perfev_report_model *m;
	struct perfev_perfdata *pd;     /* the recording (annotate reads it again) */
	const struct perfev_profile_load_opts *load; /* the caller's (symfs, kallsyms), or NULL */
	struct perfev_report_zoom z;
	char symbol[256];      /* the / filter's text */
	char dso[4096];        /* the d zoom's object */
	char comm[256];        /* the t zoom's command */
	size_t cur, top;       /* the selected and the first drawn shown-line */
	char status[512];      /* a message for the status line, until the next key */
	bool help;
	/* perfev top's: the header line instead of the model's title, the
	 * status line's keys, the lines shown at most (0: all) */
	const char *title, *keys;
	size_t max_lines;
};
/* One key of the report browser (browser.c); true: quit. */
bool browser_key(struct browser *b, int c);
/* A text read on the status line after prompt; false: none (an error). */
bool browser_ask(const char *prompt, char *text, size_t len);

/* ---- perfev top's live browser (browser.c): the same screen and keys over
 * a model replaced at every refresh; the caller reads keys (getch, which
 * does not wait) and hands those it does not take itself to browser_key. */
/* Takes the terminal (restored on every exit path); 0, or 1 after saying why not. */
int browser_live_begin(struct browser *b);
/* The next refresh: m replaces (and frees) the model shown; the zoom and
 * filter stay, the cursor keeps its place. */
void browser_live_show(struct browser *b, struct perfev_report_model *m);
/* Gives the terminal back, frees the model. */
void browser_live_end(struct browser *b);
/* Whether a signal asked the browser to end (browser.c). */
bool browser_stopping(void);
/* `a`: the annotate view of line's symbol until q/Esc/Left, or a reason
 * in b->status (annotate_view.c). */
void browser_annotate(struct browser *b, size_t line);
/* Draws the whole screen (browser_draw.c). */
void browser_draw(struct browser *b);
/* The loader's progress on stderr (progress.c): ctx is a struct progress. */
struct progress {
	const char *what;
	double start;          /* CLOCK_MONOTONIC seconds */
	bool shown;
};
void progress_start(struct progress *p, const char *what);
void progress_update(void *ctx, uint64_t done, uint64_t total);
void progress_end(struct progress *p);

#endif
