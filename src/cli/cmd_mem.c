/* cmd_mem.c — `perfev mem report`: perf mem report, that is perfev report
 * --mem-mode -n (perf's memory access view with sample counts), taking
 * every report option after it. Recording memory accesses needs a PMU
 * with memory sampling (perf mem record). */
#include "cli.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev mem report [REPORT OPTIONS]\n\n"
		   "perf mem report: 'perfev report --mem-mode -n' over a recording with memory\n"
		   "access samples (perf mem record, perf record -d): percentages of the samples'\n"
		   "weights, by " PERFEV_REPORT_MEM_SORT "\n"
		   "unless --sort says otherwise. See 'perfev report --help' for the options.\n");
}

static int cmd_mem(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2;
	}
	if (strcmp(argv[1], "report") != 0)
		return cli_usage_error("mem", usage, "unknown subcommand '%s': perfev mem has 'report' (to record "
				       "memory accesses use perf mem record, on a machine whose PMU samples them)",
				       argv[1]);
	char **av = calloc((size_t)argc + 2, sizeof(*av));
	if (!av)
		return cli_error("mem", "out of memory");
	av[0] = "report";
	av[1] = "--mem-mode";
	av[2] = "-n"; /* perf mem report: the number of samples */
	for (int i = 2; i < argc; i++)
		av[i + 1] = argv[i];
	int r = report_command(argc + 1, av);
	free(av);
	return r;
}

CLI_COMMAND(mem, cmd_mem, "perf mem report: the memory access view of a recording (report --mem-mode -n)");
