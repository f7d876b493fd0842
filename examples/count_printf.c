/*
 * count_printf — the perf_event_open(2) manual's example ("Measuring
 * instruction count for this printf") with perfev's counter sets.
 *
 *   examples/count_printf [EVENTS]     (default instructions:u)
 */
#include <perfev.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	struct perfev_selfmon *s = perfev_selfmon_new(argc > 1 ? argv[1] : "instructions:u", 0);
	struct perfev_selfmon_values v;
	if (!s || perfev_selfmon_start(s) < 0) {
		fprintf(stderr, "count_printf: %s\n", perfev_errmsg());
		return 1;
	}
	printf("Measuring instruction count for this printf\n");
	perfev_selfmon_stop(s);
	perfev_selfmon_read(s, &v);
	for (size_t i = 0; i < v.nr; i++)
		printf("Used %llu %s\n", (unsigned long long)v.scaled[i], perfev_selfmon_name(s, i));
	perfev_selfmon_free(s);
	return 0;
}
