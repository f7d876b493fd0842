/* cmd_trace.c — `perfev trace`: each system call as perf trace prints it, and
 * the per-thread summary (-s, -S). The tracing and the lines are the
 * library's (perfev/trace.h). */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static void stop(void *t) { perfev_tracer_stop(t); }

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev trace [-e SYSCALLS] [--duration MS] [-s | -S] [-o FILE]\n"
		   "                    (-p PID | -a | [--] COMMAND [ARGS...])\n\n"
		   "Traces system calls through raw_syscalls:sys_enter/sys_exit and prints each one as\n"
		   "perf trace does: time since the first (ms), duration, thread, the call with its\n"
		   "arguments named and decoded (file names are addresses: the tracepoints carry no\n"
		   "strings), and the return value or the error.\n\n"
		   "  -e, --event SYSCALLS  only these calls (\"openat,close\")\n"
		   "  -p, --pid PID         the threads process PID has now, until it ends or Ctrl-C\n"
		   "  -a, --all-cpus        every process (with a command: while it runs)\n"
		   "      --duration MS     only calls that took at least MS milliseconds\n"
		   "  -s, --summary         no calls, the summary of perf trace -s alone: per thread,\n"
		   "                        calls, errors, total/min/avg/max msec, stddev of the mean\n"
		   "  -S, --with-summary    the calls, then the summary\n"
		   "  -o, --output FILE     write to FILE (default: stderr, as perf)\n");
}

struct trace_opts {
	struct perfev_trace_opts t;
	bool summary, with_summary;
	const char *output;
};

enum { OPT_DURATION = 256 };
static const struct option longopts[] = {
	{"event", required_argument, NULL, 'e'},    {"expr", required_argument, NULL, 'e'},
	{"pid", required_argument, NULL, 'p'},	    {"all-cpus", no_argument, NULL, 'a'},
	{"duration", required_argument, NULL, OPT_DURATION},
	{"summary", no_argument, NULL, 's'},	    {"summary-only", no_argument, NULL, 's'},
	{"with-summary", no_argument, NULL, 'S'},   {"output", required_argument, NULL, 'o'},
	{"help", no_argument, NULL, 'h'},	    {0},
};

static int parse_opt(void *ctx, int c)
{
	struct trace_opts *o = ctx;
	char *end;
	switch (c) {
	case 'e': o->t.syscalls = optarg; break;
	case 'p': {
		long v = strtol(optarg, &end, 10);
		if (*end || v <= 0)
			return cli_error("trace", "-p '%s': give a process id", optarg);
		o->t.pid = (pid_t)v;
		break;
	}
	case 'a': o->t.all_cpus = true; break;
	case OPT_DURATION:
		o->t.min_duration_ms = strtod(optarg, &end);
		if (*end || end == optarg || o->t.min_duration_ms < 0)
			return cli_error("trace", "--duration needs milliseconds (got '%s')", optarg);
		break;
	case 's': o->summary = true; break;
	case 'S': o->with_summary = true; break;
	case 'o': o->output = optarg; break;
	default: return CLI_UNKNOWN;
	}
	return 0;
}

/* The options that do not go together; 0, or 1 after saying why. */
static int check(const struct trace_opts *o)
{
	const struct perfev_trace_opts *t = &o->t;
	if (!t->argv && !t->pid && !t->all_cpus)
		return cli_usage_error("trace", usage, "nothing to trace: give a command (perfev trace -- CMD "
				       "ARGS), -p PID or -a");
	if (t->pid && (t->argv || t->all_cpus))
		return cli_usage_error("trace", usage, "-p PID traces a process: not with %s",
				       t->argv ? "a command" : "-a");
	if (o->summary && o->with_summary)
		return cli_error("trace", "-s prints the summary alone, -S the calls and the summary: give one");
	if (o->summary && t->min_duration_ms > 0)
		return cli_error("trace", "--duration chooses the calls printed, and -s prints none: drop one");
	return t->argv ? cli_exec_check("trace", t->argv[0]) : 0;
}

static int cmd_trace(int argc, char **argv)
{
	struct trace_opts o = {.t = {.sz = sizeof(o.t)}};
	int r = cli_parse("trace", argc, argv, "+:e:p:asSo:h", longopts, usage, parse_opt, &o);
	if (r)
		return r == CLI_HELP ? 0 : r;
	o.t.argv = optind < argc ? argv + optind : NULL;
	if ((r = check(&o)))
		return r;
	FILE *out = stderr;
	if (o.output && !(out = fopen(o.output, "w")))
		return cli_error("trace", "cannot write '%s': %m", o.output);
	o.t.stream = o.summary ? NULL : out;
	struct perfev_tracer *tr = perfev_tracer_new(&o.t);
	if (!tr) {
		if (out != stderr)
			fclose(out);
		return cli_error("trace", "%s", perfev_errmsg());
	}
	cli_stop_on_signals(stop, tr);
	r = perfev_tracer_run(tr);
	cli_stop_off();
	int status = 0;
	if (r < 0) {
		status = cli_error("trace", "%s", perfev_errmsg());
	} else {
		if (o.summary || o.with_summary)
			perfev_sctrace_print(perfev_tracer_summary(tr), out);
		if (perfev_tracer_lost(tr))
			fprintf(stderr, "perfev trace: the kernel dropped %llu samples (ring full): calls are "
					"missing; trace a shorter run or fewer calls (-e)\n",
				(unsigned long long)perfev_tracer_lost(tr));
		int st = perfev_tracer_command_status(tr);
		if (st != -1)
			status = perfev_exit_code(st);
	}
	perfev_tracer_free(tr);
	if (out != stderr)
		fclose(out);
	return status;
}

CLI_COMMAND(trace, cmd_trace, "trace system calls as perf trace: each call, or a summary (-s)");
