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

char *perf_sample_time(const char *file, int n)
{
	struct run_result r = run_cmd("perf script -i '%s' -F time 2>/dev/null | sed -n %dp | tr -d ' :\\n'", file, n);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_gt(strlen(r.out), 3, "no sample %d in %s", n, file);
	char *t = strdup(r.out);
	run_result_free(&r);
	return t;
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

/* A sample's block: its header line and the lines after it up to the next
 * header (callchain frames start with a tab; blank lines end a sample). */
static size_t split_samples(char *out, char **blocks, size_t max)
{
	size_t n = 0;
	for (char *p = out; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != 0)) {
		if (*p == '\t' || *p == '\n' || *p == ' ')
			continue;
		if (n < max)
			blocks[n] = p;
		n++;
	}
	return n;
}

static bool ends_in_zero_return_address(const char *block, const char *next)
{
	const char *hit = strstr(block, "\tffffffffffffffff [unknown] ([unknown])\n");
	return hit && (!next || hit < next);
}

/* perf 6.1 through libdwfl: where no CFI row is found, libdwfl steps by the
 * frame pointer and a zero return address read there becomes a frame at
 * pc 0, which perf prints as "ffffffffffffffff [unknown] ([unknown])".
 * perfev's unwinder ends (or goes on by CFI) there instead. Such samples
 * are dropped from both outputs, at most one and one more per 50; all
 * others must match. */
static void drop_zero_return_samples(const char *file, char *perf, char *ours)
{
	enum { MAX_BLOCKS = 65536 };
	char **pb = calloc(MAX_BLOCKS, sizeof(char *)), **ob = calloc(MAX_BLOCKS, sizeof(char *));
	size_t np = split_samples(perf, pb, MAX_BLOCKS), no = split_samples(ours, ob, MAX_BLOCKS);
	cr_assert(np <= MAX_BLOCKS, "%s: more than %d samples", file, MAX_BLOCKS);
	cr_assert_eq(np, no, "%s: perf script printed %zu samples, perfev script %zu", file, np, no);
	size_t dropped = 0;
	char *pw = perf, *ow = ours; /* write cursors: blocks are kept in place, in order */
	for (size_t i = 0; i <= np; i++) {
		char *pend = i < np ? pb[i] : perf + strlen(perf), *oend = i < np ? ob[i] : ours + strlen(ours);
		char *pstart = i ? pb[i - 1] : perf, *ostart = i ? ob[i - 1] : ours;
		bool drop = i && ends_in_zero_return_address(pb[i - 1], i < np ? pb[i] : NULL);
		dropped += drop;
		if (!drop) {
			memmove(pw, pstart, (size_t)(pend - pstart));
			pw += pend - pstart;
			memmove(ow, ostart, (size_t)(oend - ostart));
			ow += oend - ostart;
		}
	}
	*pw = *ow = 0;
	cr_log_info("%s: %zu of %zu samples left out, where perf unwound a zero return address", file,
		    dropped, np);
	cr_assert_leq(dropped, 1 + np / 50, "%s: perf unwound a zero return address in %zu of %zu samples",
		      file, dropped, np);
	free(pb);
	free(ob);
}

static bool compare_outputs(const char *file, const char *fields, struct run_result *p,
			    struct run_result *o, bool zero_returns)
{
	bool ok = true;
	if (p->status != 0) {
		cr_assert_neq(o->status, 0, "%s: perf refuses it (status %d: %.200s) but perfev script succeeded",
			      file, p->status, p->err);
		cr_assert(strstr(o->err, "perfev script: ") && o->err_len > 30,
			  "%s: perfev failed without a message: %s", file, o->err);
	} else if (o->status != 0 && strstr(o->err, "AUX area trace")) {
		ok = false; /* the documented limitation: no AUX trace decoding */
	} else {
		cr_assert_eq(o->status, 0, "%s: perfev script failed: %s", file, o->err);
		if (zero_returns)
			drop_zero_return_samples(file, p->out, o->out);
		if (strcmp(p->out, o->out)) {
			char d[600];
			first_diff(p->out, o->out, d, sizeof(d));
			cr_assert_fail("%s %s: perfev script differs from perf script at %s", file, fields, d);
		}
	}
	run_result_free(p);
	run_result_free(o);
	return ok;
}

static bool compare_script_run(const char *file, const char *args, const char *filter, bool zero_returns)
{
	/* the status is the script's, the output goes through the filter */
	const char *d = test_tmpdir();
	struct run_result p = run_cmd("perf script -i '%s' %s > %s/o.txt; st=$?; %s < %s/o.txt; exit $st", file,
				      args, d, filter, d);
	struct run_result o = run_cmd("'%s' script -i '%s' %s > %s/o.txt; st=$?; %s < %s/o.txt; exit $st", PERFEV_BIN,
				      file, args, d, filter, d);
	return compare_outputs(file, args, &p, &o, zero_returns);
}

bool compare_script_args(const char *file, const char *args, const char *filter)
{
	return compare_script_run(file, args, filter, false);
}

bool compare_script_unwound(const char *file, const char *fields)
{
	char args[4096];
	snprintf(args, sizeof(args), "%s %s", fields ? "-F" : "", fields ? fields : "");
	return compare_script_run(file, args, "cat", true);
}
