/*
 * perfev/report.h — perf report's views of a perf.data file, in the library.
 *
 * The options are perf report's, as its command line spells them (the
 * `perfev report` command passes them through), so what the command shows a
 * library user shows too, byte for byte: perf's table (its sort keys,
 * collapse and output order, columns, event groups side by side), its call
 * graphs (graph, fractal, flat, folded; caller or callee; percent, period or
 * count), the branch view of branch-stack recordings, --mem-mode, tracepoint
 * fields as sort keys, and the same entries as JSON.
 *
 *   struct perfev_perfdata *pd = perfev_perfdata_open("perf.data");
 *   struct perfev_report_opts o = {.sz = sizeof(o), .sort = "dso,sym"};
 *   if (!pd || perfev_report_print(pd, &o, stdout) < 0)
 *           fprintf(stderr, "%s\n", perfev_errmsg());
 *   perfev_perfdata_close(pd);
 *
 * The file is read once, from the handle given (a pipe-mode stream too).
 * Notes (missing symbols, DWARF unwinding's reach, a filter that kept
 * nothing) go to the log hook (perfev/log.h), never to a stream.
 */
#ifndef PERFEV_REPORT_H
#define PERFEV_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "perfev/abi.h"
#include "perfev/perfdata.h"
#include "perfev/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* perf 6.1's default_mem_sort_order: --mem-mode's keys without --sort */
#define PERFEV_REPORT_MEM_SORT \
	"local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb,locked,blocked,local_ins_lat,local_p_stage_cyc"

struct perfev_report_opts {
	size_t sz;                 /* sizeof(struct perfev_report_opts) */
	/* perf's --sort KEYS: comm, pid, tid, tgid, dso, sym, srcline, srcfile,
	 * cpu, socket, dso_size, symbol_size, weight, local_weight, ins_lat,
	 * local_ins_lat, p_stage_cyc, local_p_stage_cyc, time, addr, the columns
	 * overhead, sample, period, the memory keys with mem_mode, perf's branch
	 * keys (dso_from, symbol_to...) in the branch view, or tracepoint fields
	 * (FIELD, EVENT.FIELD, SYS:EVENT.FIELD, trace). NULL: comm,dso,sym
	 * (mem_mode: perf's memory order). */
	const char *sort;
	const char *fields;        /* perf's -F LIST (columns and keys in order); NULL: perf's layout */
	/* perf's -g and --percent-limit in the order given, joined by commas
	 * ("caller,0.5"; "2,fractal,callee"): none, caller, callee, graph,
	 * fractal, flat, folded, percent, period, count, function, and a bare
	 * number, the smallest branch shown in percent (the last one wins).
	 * NULL: perf's default (graph,0.5, caller with --children, else callee). */
	const char *call_graph;
	double percent_limit;      /* perf's --percent-limit: entries below this percent are hidden */
	int children;              /* -1: perf's default (on when the file has call chains), 0, 1 */
	int group;                 /* -1: the file's event groups side by side; 0: --no-group; 1: --group */
	int branch;                /* -1: perf's default for the file; 0: --no-branch-stack; 1: -b */
	bool show_samples;         /* -n: a Samples column */
	bool show_period;          /* --show-total-period: a Period column */
	bool mem_mode;             /* --mem-mode: memory keys, percentages of the samples' weights */
	bool relative;             /* --percentage relative: of the samples the filters keep */
	/* --value: what the percentages measure, "samples", "period" (perf's)
	 * or "weight"; NULL: period */
	const char *value;
	const char *symbol_filter; /* --symbol-filter: only rows whose symbol's name holds this */
	bool json;                 /* the entries as JSON (of one event: load->event, else the first) */
	/* the caller printed the file's header (perf's --header): perf's first
	 * line, its hint to use --header, is left out */
	bool no_hint;
	/* how the file is read: filters, --time, -C, --event, symbols, stacks
	 * (the report adds what its keys need); NULL: defaults */
	const struct perfev_profile_load_opts *load;
	/* perf's -T (--show-threads): after the text report, the values of the
	 * file's PERF_RECORD_READ records (perf record -s) per thread and
	 * event, as perf's table ("#  PID   TID  cpu-clock"); not with json,
	 * the branch view or tracepoint-field keys (EINVAL) */
	bool show_threads;
	bool threads_raw;          /* perf's --pretty raw: that table one line per thread and event */
	/* perf's -t SEP (--field-separator): the text table's columns joined by
	 * SEP (that character inside a key's value becomes '.'), no dots line
	 * under the header; not with json, the branch view or tracepoint-field
	 * keys (EINVAL). NULL: perf's padded table. */
	const char *field_sep;
	/* percentages in colour as perf's --stdio on a terminal: red from 5%,
	 * green above 0.5% (ANSI escapes; for a terminal or less -R) */
	bool color;
};
#define perfev_report_opts__last_field color

/*
 * Checks o without a file: sort keys, fields, call graph, value and the
 * combinations perf refuses. 0, or -EINVAL with perfev_errmsg() naming the
 * option and what it takes. perfev_report_print checks the same first.
 */
PERFEV_API int perfev_report_check(const struct perfev_report_opts *o);

/*
 * perf report --stdio (or o->json's JSON) of pd to out. Reads pd once
 * (perfev_profile_load_from), which stays the caller's. A file without
 * samples prints perf's first lines and succeeds (a note says so). 0, or
 * -errno with perfev_errmsg(): bad options (EINVAL), a file that cannot be
 * read, a view the file cannot give (-b without branch stacks, --mem-mode
 * without memory data), a failed write.
 */
PERFEV_API int perfev_report_print(struct perfev_perfdata *pd, const struct perfev_report_opts *o, FILE *out);

/*
 * The one profile a single-event report reads (load->event, else the first
 * event), loaded as the report would load it, call stacks always kept: what
 * an exporter (perfev/export.h) or a caller's own view starts from. info
 * (optional) says what was read. Free with perfev_profile_free. NULL with
 * errno and perfev_errmsg() on failure.
 */
PERFEV_API struct perfev_profile *perfev_report_load(struct perfev_perfdata *pd, const struct perfev_report_opts *o,
						     struct perfev_profile_load_info *info);
/*
 * The report of an already loaded profile p (perfev_report_load's) to out:
 * o->json's JSON, else perf's text of its one event. info is what loading
 * said (event name, samples, lost). 0 or -errno.
 */
PERFEV_API int perfev_report_print_profile(const struct perfev_profile *p, const struct perfev_profile_load_info *info,
					   const struct perfev_report_opts *o, FILE *out);

/* ---- the browser's model ------------------------------------------------------------
 * What a terminal browser (perfev report's) shows: the lines --stdio prints
 * for one event (or group side by side), made by the same code, with each
 * line's place in the tree (an entry, then its call graph's lines deeper),
 * what its entry is (for zooming), and fold state. The browser draws lines
 * and calls these; nothing is computed twice.
 *
 *   struct perfev_report_model *m = perfev_report_model_new(pd, &o);
 *   struct perfev_report_zoom z = {.sz = sizeof(z), .tid = -1};
 *   perfev_report_model_show(m, &z);
 *   for (size_t k = 0; k < perfev_report_model_nr_shown(m); k++) {
 *           struct perfev_report_line l = {.sz = sizeof(l)};
 *           perfev_report_model_line(m, perfev_report_model_shown(m, k), &l);
 *           puts(l.text);
 *   }
 */
struct perfev_report_model;

/*
 * Reads pd once (o's options, as perfev_report_print; o->load->progress
 * reports the reading) and shows the first event's section, every entry
 * folded. Views the browser does not have (the branch view, tracepoint
 * fields as keys, --mem-mode, --json, --event) fail with EOPNOTSUPP and a
 * message: print those with perfev_report_print. NULL with errno and
 * perfev_errmsg() on failure (a file without samples: ENODATA). pd stays
 * the caller's and may be closed after.
 */
PERFEV_API struct perfev_report_model *perfev_report_model_new(struct perfev_perfdata *pd,
							       const struct perfev_report_opts *o);
/*
 * The same model of a profile built elsewhere (a live one: perfev top's
 * perfev_profile_builder_snapshot), shown as perfev_report_print_profile
 * prints it: info says its event (name, call chains, lost), as the builder
 * filled it (copied; NULL: an event without a name or call chains). p is
 * borrowed and must outlive the model. Options as perfev_report_model_new
 * (the same views refused, EOPNOTSUPP); a profile without samples is an
 * empty table. NULL with errno and perfev_errmsg() on failure.
 */
PERFEV_API struct perfev_report_model *perfev_report_model_new_profile(const struct perfev_profile *p,
								       const struct perfev_profile_load_info *info,
								       const struct perfev_report_opts *o);
/*
 * The load options (o->load's, with what o's keys and call graph need:
 * source lines, CPUs, weights, perf's cuts of the chains) a report with o
 * reads a recording with: what a caller building the profile itself
 * (perfev/profile_builder.h) gives the builder so that
 * perfev_report_model_new_profile shows what the report of the recording
 * would. out: the caller's, sz set (its filter is o->load's). 0, or -EINVAL
 * / -EOPNOTSUPP as perfev_report_model_new_profile refuses o.
 */
PERFEV_API int perfev_report_load_opts(const struct perfev_report_opts *o, struct perfev_profile_load_opts *out);
PERFEV_API void perfev_report_model_free(struct perfev_report_model *m);

/* What is shown (perfev_report_model_show); zero past sz is the default. */
struct perfev_report_zoom {
	size_t sz;            /* sizeof(struct perfev_report_zoom) */
	size_t event;         /* the section: 0 .. info.nr_events - 1 (perf's event switch) */
	const char *symbol;   /* only entries whose symbol holds this text (perf's /); NULL: all */
	const char *dso;      /* only entries of this object (a line's dso, perf's d); NULL: all */
	const char *comm;     /* only entries of this command (a line's comm, perf's t); NULL: all */
	int64_t tid;          /* only entries of this thread (when keyed by pid/tid, perf's t); -1: all */
};
#define perfev_report_zoom__last_field tid

/*
 * Shows z's section and filters: the lines again, as --stdio would print
 * them with these filters (percentages of the event's total, as perf's
 * zoom; --percentage relative: of the entries left). Fold state is reset
 * (entries folded). 0, or -EINVAL (a bad event), -ENOMEM.
 */
PERFEV_API int perfev_report_model_show(struct perfev_report_model *m, const struct perfev_report_zoom *z);

struct perfev_report_model_info {
	size_t sz;            /* sizeof(struct perfev_report_model_info), set by the caller */
	/* "Samples: 1K of event 'cpu-clock', Event count (approx.): 2500000"
	 * as perf's browser titles it; the column header line as --stdio's
	 * ("    Children      Self  Command  Shared Object  Symbol"): both the
	 * model's, valid until the next show or free */
	const char *title, *columns;
	size_t nr_events;     /* sections of the file (perfev_report_zoom.event) */
	size_t event;         /* the one shown */
	size_t nr_lines;      /* lines of the section, folded or not */
	size_t nr_entries;    /* of which entries */
};
#define perfev_report_model_info__last_field nr_entries
PERFEV_API int perfev_report_model_info(const struct perfev_report_model *m, struct perfev_report_model_info *out);

/* One line: an entry (depth 0) or a line of its call graph (depth 1 and
 * deeper: a line's subtree is the lines after it that are deeper). */
struct perfev_report_line {
	size_t sz;            /* sizeof(struct perfev_report_line), set by the caller */
	const char *text;     /* as --stdio prints it, without the newline (the model's) */
	unsigned depth;
	bool entry;           /* an entry's line (depth 0) */
	bool has_children;    /* lines below it are deeper: it folds */
	bool folded;          /* they are hidden */
	size_t entry_line;    /* the line of its entry */
	/* its entry's command (the key's, else its first sample's), object
	 * (a path; NULL: unknown), symbol (NULL: unknown), pid and tid (-1
	 * unless keyed by them): what perfev_report_zoom takes */
	const char *comm, *dso, *symbol;
	int32_t pid, tid;
};
#define perfev_report_line__last_field tid
/* Line i (0 .. info.nr_lines - 1). 0 or -EINVAL. */
PERFEV_API int perfev_report_model_line(const struct perfev_report_model *m, size_t i, struct perfev_report_line *out);

enum perfev_report_fold {
	PERFEV_REPORT_TOGGLE,   /* line i: folded <-> unfolded */
	PERFEV_REPORT_EXPAND,   /* line i and every line below it unfolded (perf's e) */
	PERFEV_REPORT_COLLAPSE, /* line i and every line below it folded (perf's c) */
};
/* Folds line i, or with i == (size_t)-1 every line (perf's E and C).
 * 0 or -EINVAL. */
PERFEV_API int perfev_report_model_fold(struct perfev_report_model *m, size_t i, enum perfev_report_fold how);
/* The lines not hidden by a fold, in order: how many, the k-th's line
 * index, and the place of line i among them (of the nearest shown line
 * above it when hidden). */
PERFEV_API size_t perfev_report_model_nr_shown(const struct perfev_report_model *m);
PERFEV_API size_t perfev_report_model_shown(const struct perfev_report_model *m, size_t k);
PERFEV_API size_t perfev_report_model_shown_at(const struct perfev_report_model *m, size_t line);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_REPORT_H */
