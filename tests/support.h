/*
 * support.h — what tests share: running commands and capturing their
 * output, skipping with a reason when the machine lacks something, paths
 * of the built programs. Every test runs in its own process (Criterion).
 */
#ifndef PERFEV_TEST_SUPPORT_H
#define PERFEV_TEST_SUPPORT_H

#include <criterion/criterion.h>
#include <stdbool.h>
#include <stddef.h>

#define WORKLOAD(name) PERFEV_BUILDDIR "/workloads/" name
/* Real perf.data files from many machines; "" when absent (see require_corpus). */
#define CORPUS_DIR PERFEV_CORPUS_DIR

struct run_result {
	int status;   /* exit status, or 128+signal */
	char *out;    /* stdout, NUL-terminated */
	char *err;    /* stderr, NUL-terminated */
	size_t out_len, err_len;
};

/* Runs `sh -c cmd` (printf-style), capturing stdout and stderr. */
struct run_result run_cmd(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void run_result_free(struct run_result *r);

/* Skips the current test, with the reason, unless the condition holds. */
void require_root(void);
void require_perf_tool(void);      /* the installed `perf` */
void require_tracefs(void);        /* mounts /sys/kernel/tracing if needed */
void require_corpus(void);         /* ../shared/corpus/perfdata */
/* Skips unless an event of this type/config opens here (e.g. no PMU). */
void require_event(unsigned type, unsigned long long config, const char *what);
/* Why hardware breakpoints can't be used here (cannot open, or never fire), NULL if they can. */
const char *breakpoints_unusable(void);
/* Skips unless hardware breakpoints open and fire here. */
void require_breakpoint(void);

/* A fresh directory under /tmp for this test; removed by the caller if wanted. */
const char *test_tmpdir(void);

/* Reads a whole file; aborts the test if it cannot. Caller frees. */
char *slurp(const char *path, size_t *len);
/* The lines of text that keep(line, ctx) accepts (NULL: all), sorted, each
 * ending in a newline. Free it. */
char *sorted_lines(const char *text, bool (*keep)(const char *line, void *ctx), void *ctx);

/* An SVG that works offline: the SVG namespace name is its only URL, and
 * it links (href) and fetches (url()) nothing. Fails the test otherwise. */
void assert_svg_offline(const char *svg);

#endif
