/* cmd_trace.c — `perfev trace -s`: a per-thread syscall summary (perf trace -s). */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static void stop(void *t) { perfev_tracer_stop(t); }

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev trace -s [-o FILE] (-p PID | [--] COMMAND [ARGS...])\n\n"
		   "Traces system calls through raw_syscalls:sys_enter/sys_exit and prints, per\n"
		   "thread, the summary of `perf trace -s`: calls, errors, total/min/avg/max time in\n"
		   "msec and the stddev of the mean (%%). -p follows the threads the process has now\n"
		   "until it ends or Ctrl-C. The summary goes to stderr (as perf's) or to -o FILE.\n");
}

static int cmd_trace(int argc, char **argv)
{
	bool summary = false;
	pid_t pid = 0;
	const char *output = NULL;
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "-s") || !strcmp(a, "--summary") || !strcmp(a, "--summary-only")) {
			summary = true;
		} else if ((!strcmp(a, "-p") || !strcmp(a, "--pid") || !strcmp(a, "-o") ||
			    !strcmp(a, "--output")) && i + 1 == argc) {
			return cli_usage_error("trace", usage, "option '%s' needs a value", a);
		} else if (!strcmp(a, "-p") || !strcmp(a, "--pid")) {
			char *end;
			long v = strtol(argv[++i], &end, 10);
			if (*end || v <= 0)
				return cli_error("trace", "-p '%s': give a process id", argv[i]);
			pid = (pid_t)v;
		} else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			output = argv[++i];
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (a[0] == '-') {
			return cli_usage_error("trace", usage, "unknown option '%s'", a);
		} else {
			break;
		}
	}
	if (!summary) {
		return cli_usage_error("trace", usage, "only the summary is implemented: add -s");
	}
	char **cmd = i < argc ? argv + i : NULL;
	if (!cmd && !pid) {
		return cli_usage_error("trace", usage, "nothing to trace: give -p PID or a command "
				 "(perfev trace -s -- CMD ARGS)");
	}
	if (cmd && pid) {
		return cli_usage_error("trace", usage, "give either -p PID or a command to run, not both");
	}
	int x = cmd ? cli_exec_check("trace", cmd[0]) : 0;
	if (x)
		return x;
	FILE *out = stderr;
	if (output && !(out = fopen(output, "w")))
		return cli_error("trace", "cannot write '%s': %m", output);

	struct perfev_trace_opts o = {sizeof(o), pid, cmd, 0};
	struct perfev_tracer *tr = perfev_tracer_new(&o);
	if (!tr) {
		if (out != stderr)
			fclose(out);
		return cli_error("trace", "%s", perfev_errmsg());
	}
	cli_stop_on_signals(stop, tr);
	int r = perfev_tracer_run(tr);
	cli_stop_off();
	int status = 0;
	if (r < 0) {
		status = cli_error("trace", "%s", perfev_errmsg());
	} else {
		perfev_sctrace_print(perfev_tracer_summary(tr), out);
		if (perfev_tracer_lost(tr))
			fprintf(stderr, "perfev trace: the kernel dropped %llu samples (ring full): the "
					"counts are low; trace a shorter run\n",
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

CLI_COMMAND(trace, cmd_trace, "trace system calls: a per-thread summary (-s) as perf trace -s");
