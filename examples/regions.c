/*
 * regions — N begin/end pairs of one region, inside an outer region.
 *
 *   examples/regions [N]                  (default 1000)
 *   PERFEV_REGIONS=json:out.json examples/regions 100
 *   PERFEV_REGION_EVENTS=cycles,instructions examples/regions   (with a PMU)
 *
 * The results are printed at exit (text on stderr unless PERFEV_REGIONS
 * says otherwise).
 */
#include <perfev.h>
#include <stdio.h>
#include <stdlib.h>

static volatile unsigned long sink;

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	if (perfev_region_begin("all") < 0) {
		fprintf(stderr, "regions: %s\n", perfev_errmsg());
		return 1;
	}
	for (long i = 0; i < n; i++) {
		perfev_region_begin("step");
		for (int k = 0; k < 100; k++)
			sink += (unsigned long)k * (unsigned long)i;
		perfev_region_end("step");
	}
	perfev_region_end("all");
	return 0;
}
