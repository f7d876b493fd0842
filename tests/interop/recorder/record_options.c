/* perf record's sample and attr options (-d, --phys-data, -W, -I, -i,
 * --all-user...): each changes perfev's attrs as it changes perf's. perf's
 * and perfev's attrs differ without options (perfev always records the
 * identifier and the CPU), so the test compares what each option adds or
 * takes away, read back by `perf evlist -v` from both files. */
#define _GNU_SOURCE
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the attr fields the options touch, as "name: value" words of perf evlist -v */
static char *attrs(const char *tool, const char *opts, const char *file)
{
	struct run_result r = run_cmd("cd '%s' && %s record -q -e cpu-clock -o %s %s -- sleep 0.01 >/dev/null && "
				      "perf evlist -v -i %s", test_tmpdir(), tool, file, opts, file);
	cr_assert_eq(r.status, 0, "%s record %s: %s", tool, opts, r.err);
	char *out = r.out;
	r.out = NULL;
	run_result_free(&r);
	return out;
}

/* whether word (a flag "name: 1", a sample_type bit "|NAME|", or
 * "name: value") is in the first event's line */
static bool has(const char *text, const char *word)
{
	char types[512] = "|";
	const char *st = strstr(text, "sample_type: ");
	if (st)
		sscanf(st + 13, "%500[A-Z_|]", types + 1);
	strcat(types, "|");
	if (word[0] == '|')
		return strstr(types, word) != NULL;
	char w[128];
	snprintf(w, sizeof(w), ", %s,", word);
	char *line = strndup(text, strcspn(text, "\n"));
	char *padded;
	cr_assert(asprintf(&padded, ", %s,", line) > 0);
	bool found = strstr(padded, w) != NULL;
	free(line);
	free(padded);
	return found;
}

Test(interop_record, sample_and_attr_options_change_what_perfs_do, .timeout = 120)
{
	require_root();
	require_perf_tool();
	static const char *const words[] = {
		"|ADDR|", "|DATA_SRC|", "|PHYS_ADDR|", "|DATA_PAGE_SIZE|", "|CODE_PAGE_SIZE|", "|WEIGHT_STRUCT|",
		"|REGS_INTR|", "|REGS_USER|", "sample_regs_intr: 0xff0fff", "sample_regs_user: 0x181",
		"inherit: 1", "exclude_kernel: 1", "exclude_user: 1", "exclude_hv: 1", "mmap_data: 1"};
	static const char *const opts[] = {"-d", "--phys-data", "--data-page-size", "--code-page-size", "-W",
					   "-I", "--user-regs=ax,sp,ip", "-i", "--all-user", "--all-kernel"};
	char *perf0 = attrs("perf", "", "f0.data"), *ev0 = attrs(PERFEV_BIN, "", "e0.data");
	for (size_t o = 0; o < sizeof(opts) / sizeof(opts[0]); o++) {
		char *perf1 = attrs("perf", opts[o], "f1.data"), *ev1 = attrs(PERFEV_BIN, opts[o], "e1.data");
		for (size_t w = 0; w < sizeof(words) / sizeof(words[0]); w++) {
			int dperf = has(perf1, words[w]) - has(perf0, words[w]);
			int dev = has(ev1, words[w]) - has(ev0, words[w]);
			cr_assert_eq(dev, dperf, "%s: '%s' %s for perf, %s for perfev\nperf:\n%s\nperfev:\n%s", opts[o],
				     words[w], dperf > 0 ? "added" : dperf < 0 ? "removed" : "unchanged",
				     dev > 0 ? "added" : dev < 0 ? "removed" : "unchanged", perf1, ev1);
		}
		free(perf1);
		free(ev1);
	}
	free(perf0);
	free(ev0);
}

/* -b/-j need a PMU with branch records; -I? lists the registers; bad
 * names and filters say what there is */
Test(interop_record, branch_and_register_options_say_what_is_wrong, .timeout = 60)
{
	struct run_result r = run_cmd("%s record -I? -- true", PERFEV_BIN);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "available registers: "), "%s", r.out);
	run_result_free(&r);
	r = run_cmd("%s record --user-regs=zz -- true", PERFEV_BIN);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "no register 'zz' here: give some of"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s record -j any_call,bogus -- true", PERFEV_BIN);
	cr_assert_eq(r.status, 1);
	cr_assert(strstr(r.err, "unknown branch filter 'bogus'"), "%s", r.err);
	run_result_free(&r);
}
