/* support_report.h — comparing perfev report with perf report: recording
 * workloads with perf, parsing --stdio tables of either tool. */
#ifndef PERFEV_TEST_SUPPORT_REPORT_H
#define PERFEV_TEST_SUPPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gelf.h>

struct report_row {
	double first;    /* Overhead, or Children with --children */
	double self;     /* Self with --children; = first otherwise */
	char name[256];  /* the rest of the line: "[.] main" */
};

/* Parses the entry lines of a perf report --stdio table (either tool).
 * Returns the number of rows (at most max). */
size_t report_parse(const char *text, bool children, struct report_row *rows, size_t max);

/*
 * Compares the top `top` rows of `want` (perf) with `got` (perfev) by name:
 * every one of perf's must be within `tol` points in perfev's table (a row
 * perfev lacks counts as 0). Returns the number of mismatches and describes
 * them in msg.
 */
int report_compare(const struct report_row *want, size_t nw, const struct report_row *got,
		   size_t ng, size_t top, double tol, char *msg, size_t len);

/* Records `cmd` with perf into DIR/name (perf record OPTIONS -o DIR/name -- cmd);
 * skips the test if perf cannot record here. Returns the path (malloc'ed). */
char *perf_record(const char *options, const char *name, const char *cmd);
/* The C program text written to TMPDIR/NAME.c and built with cc CFLAGS into
 * TMPDIR/NAME (the test fails if it does not build): its path (free it). */
char *build_program(const char *name, const char *text, const char *cflags);

/*
 * Runs `perf report --stdio OPTIONS` and `perfev report --stdio OPTIONS` on
 * data (OPTIONS as perf spells them) and diffs the outputs, perf's closing
 * tip ("# (Tip: ...)" and its "#" lines) left out. Returns the number of
 * differing lines (diff's < and > lines); *diff_out (malloc'ed, may be
 * NULL) gets the diff, *lines perf's line count. Fails the test when either
 * tool fails.
 */
int report_diff_perf(const char *data, const char *options, char **diff_out, size_t *lines);
/* report_diff_perf, expecting at most `slack` differing lines (the diff in
 * the failure message); returns perf's line count. */
size_t report_expect_like_perf(const char *data, const char *options, int slack);

/* report_diff_perf on the corpus file `file` (CORPUS_DIR/file), expecting at
 * most `slack` differing lines (the file, options and diff in the failure). */
void report_expect_corpus_like_perf(const char *file, const char *options, int slack);
/* A table of such cases, each expected as report_expect_corpus_like_perf does. */
struct report_corpus_case {
	const char *file, *options;
	int slack;
};
void report_expect_corpus_cases(const struct report_corpus_case *cases, size_t nr);

struct perfev_perfdata_writer;
struct perfev_record;
struct perfev_attr;
/* Encodes r (of event a) into w, for crafted recordings; fails the test on
 * an error. */
void report_put_record(struct perfev_perfdata_writer *w, const struct perfev_record *r,
		       const struct perfev_attr *a);
/* A writer of a crafted recording of one cpu-clock event (period 1000,
 * IP|TID|TIME|PERIOD and sample_type; branch stacks: any branch), its attr
 * in *a; fails the test on an error. */
struct perfev_perfdata_writer *report_crafted_writer(const char *data, struct perfev_attr *a, uint64_t sample_type);
/* The kernel's map as perf records it ("[kernel.kallsyms]_text" at kbase, 16 MiB). */
void report_put_kernel_map(struct perfev_perfdata_writer *w, const struct perfev_attr *a, uint64_t kbase);
/* A crafted recording at data of the kernel's map as perf records it, to
 * the top of the address space, with _text at text + moved (moved: another
 * boot's KASLR offset), then thread pid's ("kernel") kernel samples at
 * at[k] + moved + off (period 1000 * (k + 1): no ties). */
void report_write_kernel_samples(const char *data, int pid, uint64_t text, uint64_t moved, const uint64_t *at,
				 size_t n, uint64_t off);
/* Writes text as TMPDIR/kallsyms; returns the path (malloc'ed). */
char *report_write_kallsyms(const char *text);
/*
 * The same, with each run of consecutive entries of equal first percentage
 * (Children with --children) compared as a set: the entries (each its line
 * and its call graph) are sorted within the run in both outputs before the
 * diff. For --children call graphs of inlined frames, whose order among
 * equal values perf decides by the history of its entry tree (see
 * inlined_frames_like_perf).
 */
int report_diff_perf_ties_as_sets(const char *data, const char *options, char **diff_out, size_t *lines);
/* The lines of text starting with "# " (headers), tips left out, malloc'ed. */
char *report_header_lines(const char *text);

/* path opened with libelf (the test fails if it cannot be) and its
 * executable PT_LOAD in *text (*found false: it has none); *fd for
 * report_elf_close. */
Elf *report_elf_open(const char *path, int *fd, GElf_Phdr *text, bool *found);
void report_elf_close(Elf *e, int fd);

/* The path of an object this process maps whose path contains name
 * ("/libc.so.6", "/ld-linux"), from /proc/self/maps. */
bool report_find_object(const char *name, char *path, size_t len);

/* A crafted recording's COMM of pid (its only thread) at time; exec: a
 * COMM_EXEC one. */
void report_put_comm(struct perfev_perfdata_writer *w, const struct perfev_attr *a, int pid, const char *comm,
		     uint64_t time, bool exec);
/* The MMAP2 (r-x, private) of pid at time of an object's executable PT_LOAD
 * (vaddr, memsz, offset) loaded at base. */
void report_put_text_mmap(struct perfev_perfdata_writer *w, const struct perfev_attr *a, int pid,
			  const char *path, uint64_t base, uint64_t vaddr, uint64_t memsz, uint64_t offset,
			  uint64_t time);
/* Both: the COMM (exec, time 1) and the MMAP2 (time 2). */
void report_put_text_map(struct perfev_perfdata_writer *w, const struct perfev_attr *a, int pid,
			 const char *comm, const char *path, uint64_t base, uint64_t vaddr,
			 uint64_t memsz, uint64_t offset);
/* A sample of pid (its only thread): ip at time with period, misc its
 * cpumode (PERF_RECORD_MISC_USER or _KERNEL), chain its callchain of nr
 * entries (NULL, 0: none). */
void report_put_sample(struct perfev_perfdata_writer *w, const struct perfev_attr *a, uint16_t misc, int pid,
		       uint64_t ip, uint64_t time, uint64_t period, const uint64_t *chain, uint64_t nr);

#endif
