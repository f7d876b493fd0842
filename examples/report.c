/*
 * report — perf report in a page: the library's report of a perf.data file,
 * the same text `perfev report --stdio` prints (or JSON), from an open file.
 * usage: report [-s KEYS] [-g CALLGRAPH] [--no-children] [--json] [FILE]
 *        (FILE: default perf.data; "-" for a pipe-mode stream on stdin)
 */
#include <perfev.h>
#include <stdio.h>
#include <string.h>

static void note(void *ctx, enum perfev_log_level level, const char *msg)
{
	fprintf(stderr, "%s: %s\n", level == PERFEV_LOG_WARN ? "warning" : "note", msg);
}

int main(int argc, char **argv)
{
	struct perfev_report_opts o = {.sz = sizeof(o), .children = -1, .group = -1, .branch = -1};
	const char *path = "perf.data";
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-s") && i + 1 < argc)
			o.sort = argv[++i];
		else if (!strcmp(argv[i], "-g") && i + 1 < argc)
			o.call_graph = argv[++i];
		else if (!strcmp(argv[i], "--no-children"))
			o.children = 0;
		else if (!strcmp(argv[i], "--json"))
			o.json = true;
		else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "usage: report [-s KEYS] [-g CALLGRAPH] [--no-children] [--json] [FILE]\n");
			return 2;
		} else
			path = argv[i];
	}
	perfev_set_log(note, NULL, PERFEV_LOG_WARN, NULL); /* warnings only: the notes are perf's -q */
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	if (!pd || perfev_report_print(pd, &o, stdout) < 0) {
		fprintf(stderr, "report: %s\n", perfev_errmsg());
		perfev_perfdata_close(pd);
		return 1;
	}
	perfev_perfdata_close(pd);
	return 0;
}
