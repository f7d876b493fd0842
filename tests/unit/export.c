#define _GNU_SOURCE
/* The exporters on a synthetic profile: folded stacks, SVG flame graph,
 * pprof and Firefox JSON, each checked by an independent reader. */
#include "support.h"
#include "support_profile.h"
#include "perfev.h"

#include <stdlib.h>
#include <string.h>

/* Writes the profile with `fn` into DIR/name and returns the path. */
static char *export_to(int (*fn)(const struct perfev_profile *, const struct perfev_export_options *, FILE *),
		       const struct perfev_profile *p, const struct perfev_export_options *o,
		       const char *name)
{
	char *path;
	cr_assert(asprintf(&path, "%s/%s", test_tmpdir(), name) > 0);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	cr_assert_eq(fn(p, o, f), 0, "%s", perfev_errmsg());
	fclose(f);
	return path;
}

Test(unit_export, folded_sums_to_samples)
{
	struct perfev_profile *p = synthetic_profile(PERFEV_GROUP_THREAD, 0);
	char *path = export_to(perfev_export_folded, p, NULL, "out.folded");
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned long long sum = 0;
	int lines = 0;
	bool saw_compute = false, saw_unknown = false;
	while (fgets(line, sizeof(line), f)) {
		char *sp = strrchr(line, ' ');
		cr_assert(sp, "no count in '%s'", line);
		sum += strtoull(sp + 1, NULL, 10);
		lines++;
		if (strncmp(line, "app;main;work;compute ", 22) == 0) {
			cr_assert_eq(strtoull(sp + 1, NULL, 10), 64, "threads 100 and 101 merged by comm");
			saw_compute = true;
		}
		if (strncmp(line, "sh;main;0x4242 ", 15) == 0)
			saw_unknown = true;
	}
	fclose(f);
	cr_assert_eq(sum, SYNTH_SAMPLES);
	cr_assert(saw_compute && saw_unknown);
	cr_assert_eq(lines, 7);

	/* the period, with kernel frames marked */
	struct perfev_export_options o = {.size = sizeof(o), .value = PERFEV_VALUE_PERIOD,
					  .annotate_kernel = true};
	char *path2 = export_to(perfev_export_folded, p, &o, "period.folded");
	char *text = slurp(path2, NULL);
	cr_assert(strstr(text, "app;main;work;sys_write_[k] 5000\n"), "%s", text);
	cr_assert(strstr(text, "app;main;work;compute;memcpy_[i] 10000\n"), "%s", text);
	free(text);
	free(path);
	free(path2);
	perfev_profile_free(p);
}
