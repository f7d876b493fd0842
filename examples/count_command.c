/*
 * count_command — the counting API in a page: run a command, count its
 * events (perf's syntax, default "task-clock,page-faults"), print them.
 * usage: count_command [-e EVENTS] COMMAND [ARGS...]
 */
#include <perfev.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

int main(int argc, char **argv)
{
	const char *events = "task-clock,page-faults";
	int first = 1;
	if (argc > 2 && !strcmp(argv[1], "-e")) {
		events = argv[2];
		first = 3;
	}
	if (first >= argc) {
		fprintf(stderr, "usage: count_command [-e EVENTS] COMMAND [ARGS...]\n");
		return 2;
	}
	struct perfev_evlist *list = perfev_evlist_new();
	struct perfev_parse_error perr;
	if (perfev_evlist_parse(list, events, &perr) < 0) {
		char msg[1024];
		perfev_parse_error_format(&perr, events, msg, sizeof(msg));
		fprintf(stderr, "%s\n", msg);
		return 2;
	}
	/* forked and held before exec, so counting starts exactly at exec */
	struct perfev_child *child = perfev_child_new(argv + first);
	struct perfev_target target = {sizeof(target), PERFEV_TARGET_CHILD,
				       perfev_child_pid(child), .keep_unsupported = true};
	struct perfev_counters *c = perfev_counters_open(list, &target);
	if (!c) {
		fprintf(stderr, "%s\n", perfev_errmsg());
		return 1;
	}
	if (perfev_child_start(child) < 0) {
		fprintf(stderr, "%s\n", perfev_errmsg());
		return 127;
	}
	int status;
	perfev_child_wait(child, &status, NULL);
	perfev_counters_read(c);
	for (size_t i = 0; i < perfev_evlist_count(list); i++) {
		const char *name = perfev_evsel_name(perfev_evlist_at(list, i));
		struct perfev_count v;
		double running;
		if (perfev_counters_status(c, i) < 0) {
			printf("%20s  %s (%s)\n", "<not supported>", name, perfev_counters_error(c, i));
			continue;
		}
		perfev_counters_sum(c, i, &v);
		double scaled = perfev_count_scaled(&v, &running);
		printf("%20.0f  %s  (running %.1f%% of the time)\n", scaled, name, 100 * running);
	}
	perfev_counters_close(c);
	perfev_child_free(child);
	perfev_evlist_free(list);
	return perfev_exit_code(status);
}
