/* cmd_stat.h — what perfev stat's two files share: the options cmd_stat.c
 * parses and the run stat_run.c drives with them (the counting, the
 * figures and the layouts are the library's: perfev/counter.h, stat.h). */
#ifndef PERFEV_CLI_STAT_H
#define PERFEV_CLI_STAT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>
#include "perfev.h"

struct stat_opts {
	char *events;
	bool system_wide, no_inherit, per_place, per_thread;
	const char *cpus, *cgroup, *output, *sep;
	pid_t pid, tid;
	long interval_ms;
	int repeat;
	enum perfev_stat_format format;
	char **argv; /* the command, or NULL */
	/* --filter: each applies to the last event of events[0..at) */
	struct { size_t at; const char *expr; } filters[16];
	size_t nr_filters;
	const char *metrics;   /* -M */
	bool metric_only;      /* --metric-only */
	bool no_merge;         /* --no-merge */
	int detailed;          /* -d, -dd, -ddd */
	int topdown;           /* --topdown: the TMA level (--td-level) */
	enum perfev_stat_aggr aggr; /* --per-core, --per-die, --per-socket, --per-node (else by -A) */
	bool null_run;         /* -n: no default events */
	long timeout_ms;       /* --timeout: stop (and end the command) after it */
	long interval_count;   /* --interval-count: stop after that many -I intervals */
	long delay_ms;         /* -D: enable the counters that long after the start */
	int big_num;           /* -B 1, --no-big-num 0, else -1: perf's default (text: on) */
	bool quiet;            /* --quiet: print no counts */
	bool verbose;          /* -v: each event's raw count, enabled and running time */
	const char *pre, *post; /* --pre, --post: shell commands around each run */
	bool table;            /* --table: each run's time (with -r) */
};

/* One perfev stat: what it counts and where the counts go. */
struct stat_run {
	const struct stat_opts *o;
	struct perfev_evlist *list;
	struct perfev_metrics *metrics;
	struct perfev_stat *stat;
	struct perfev_cpus *cpus;
	FILE *out;
	char *what; /* perf's "Performance counter stats for WHAT" (stat_describe) */
	int exit_code;
	bool first_interval;
	bool ended_early; /* perfev ended the command (--timeout) */
};

/* What o counts, as perf's header names it: "'cmd args'", "process id
 * '42'", "'CPU(s) 0-3'", "'system wide'". malloc'ed; NULL when out of memory. */
char *stat_describe(const struct stat_opts *o);

/* Runs the counting r describes (o->repeat times, or until Ctrl-C), with
 * SIGINT/SIGTERM ending the counting rather than perfev, and prints the
 * counts (each interval with -I). Returns the exit status: the command's,
 * or 1 after printing why it failed. */
int stat_run(struct stat_run *r);

#endif
