#define _GNU_SOURCE
#include "support.h"
#include "support_records.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char **corpus_files(size_t *nr)
{
	DIR *d = opendir(CORPUS_DIR);
	cr_assert(d, "cannot open the corpus %s", CORPUS_DIR);
	char **list = calloc(256, sizeof(char *));
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 255)
		if (!strncmp(e->d_name, "perf.data", 9))
			cr_assert(asprintf(&list[n++], "%s/%s", CORPUS_DIR, e->d_name) > 0);
	closedir(d);
	qsort(list, n, sizeof(char *), by_name);
	*nr = n;
	return list;
}

void free_list(char **list)
{
	for (size_t i = 0; list && list[i]; i++)
		free(list[i]);
	free(list);
}

/* The first line where a and b differ, for the failure message. */
static void first_diff(const char *a, const char *b, char *out, size_t len)
{
	size_t line = 1;
	const char *la = a, *lb = b;
	while (*a && *a == *b) {
		if (*a == '\n') {
			line++;
			la = a + 1;
			lb = b + 1;
		}
		a++;
		b++;
	}
	int ea = (int)strcspn(la, "\n"), eb = (int)strcspn(lb, "\n");
	snprintf(out, len, "line %zu:\n  perf:   %.*s\n  perfev: %.*s", line, ea > 200 ? 200 : ea, la,
		 eb > 200 ? 200 : eb, lb);
}

bool compare_script(const char *file, const char *fields) { return compare_script_filtered(file, fields, "cat"); }

bool compare_script_filtered(const char *file, const char *fields, const char *filter)
{
	char args[4096];
	snprintf(args, sizeof(args), "%s %s", fields ? "-F" : "", fields ? fields : "");
	return compare_script_args(file, args, filter);
}

bool compare_script_args(const char *file, const char *args, const char *filter)
{
	/* the status is the script's, the output goes through the filter */
	const char *d = test_tmpdir();
	const char *fields = args;
	struct run_result p = run_cmd("perf script -i '%s' %s > %s/o.txt; st=$?; %s < %s/o.txt; exit $st", file,
				      args, d, filter, d);
	struct run_result o = run_cmd("'%s' script -i '%s' %s > %s/o.txt; st=$?; %s < %s/o.txt; exit $st", PERFEV_BIN,
				      file, args, d, filter, d);
	bool ok = true;
	if (p.status != 0) {
		cr_assert_neq(o.status, 0, "%s: perf refuses it (status %d: %.200s) but perfev script succeeded", file,
			      p.status, p.err);
		cr_assert(strstr(o.err, "perfev script: ") && o.err_len > 30, "%s: perfev failed without a message: %s",
			  file, o.err);
	} else if (o.status != 0 && strstr(o.err, "AUX area trace")) {
		ok = false; /* the documented limitation: no AUX trace decoding */
	} else {
		cr_assert_eq(o.status, 0, "%s: perfev script failed: %s", file, o.err);
		if (strcmp(p.out, o.out)) {
			char d[600];
			first_diff(p.out, o.out, d, sizeof(d));
			cr_assert_fail("%s %s: perfev script differs from perf script at %s", file, fields, d);
		}
	}
	run_result_free(&p);
	run_result_free(&o);
	return ok;
}
