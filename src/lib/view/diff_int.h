/* diff_int.h — what the diff view's files share (not API; the API is
 * perfev/diff.h): the options resolved (diff.c), the rows of one event
 * matched across the files, perf diff's order and text (diff.c), the
 * driver over the files' events, JSON and the event checks (diff_print.c). */
#ifndef PERFEV_VIEW_DIFF_INT_H
#define PERFEV_VIEW_DIFF_INT_H

#include "view/report_int.h"
#include "perfev/diff.h"

/* files compared at once (a row's presence is a bit mask of them) */
#define PV_DIFF_MAX_FILES 32
enum pv_diff_compute { PV_DIFF_DELTA, PV_DIFF_DELTA_ABS, PV_DIFF_RATIO, PV_DIFF_WDIFF };

/* One row: an entry of any file, its keys' names (what matches it). */
struct pv_diff_row {
	char *name;                             /* the keys' text, joined (owned) */
	const struct perfev_profile_entry *e;   /* the first file's entry that has it */
	size_t index;                           /* the order it came in */
	uint64_t present;                       /* bit f: file f has it */
	uint64_t period[PV_DIFF_MAX_FILES];
	double delta[PV_DIFF_MAX_FILES], ratio[PV_DIFF_MAX_FILES];
	int64_t wdiff[PV_DIFF_MAX_FILES];
};

struct pv_diff {
	struct perfev_diff_opts o;  /* the caller's, zero past its sz */
	struct pv_report_view v;    /* the sort keys */
	enum pv_diff_compute compute;
	int64_t w1, w2;             /* wdiff's weights */
	unsigned order;             /* -o: the file ordered by first (0: none) */
	size_t nr_files;
	uint64_t total[PV_DIFF_MAX_FILES];
	struct perfev_profile_entry *e[PV_DIFF_MAX_FILES];
	size_t ne[PV_DIFF_MAX_FILES];
	struct pv_diff_row *rows;
	size_t nr, cap;
};

/* Options checked and resolved into d (zeroed first); nr_files 0: not
 * known yet. 0 or -EINVAL with the message set. */
int pv_diff_setup(struct pv_diff *d, const struct perfev_diff_opts *o, size_t nr_files);
/* The rows of profiles p[0..nr) (p[f] NULL: file f lacks the event), with
 * perf's computations. 0 or -errno. */
int pv_diff_build(struct pv_diff *d, const struct perfev_profile *const *p, size_t nr);
/* perf diff's order of the rows. */
void pv_diff_sort(struct pv_diff *d);
/* File f's cell of row r as perf prints it, unpadded ("" when blank). */
void pv_diff_cell(const struct pv_diff *d, const struct pv_diff_row *r, size_t f, char *buf, size_t len);
/* The table's header and rows (perf diff --stdio, after "# Event"). */
int pv_diff_print_stdio(const struct pv_diff *d, FILE *out);
/* Frees the rows and entries (d's options stay). */
void pv_diff_free(struct pv_diff *d);

#endif
