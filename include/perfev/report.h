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
};
#define perfev_report_opts__last_field load

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

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_REPORT_H */
