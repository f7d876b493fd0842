/*
 * selfmon_int.h — the inside of a self-monitoring set, shared by
 * selfmon.c (sets, per-thread groups, reads), selfmon_region.c (regions)
 * and selfmon_report.c (the at-exit report).
 */
#ifndef PERFEV_SELFMON_INT_H
#define PERFEV_SELFMON_INT_H

#include <pthread.h>
#include <sys/types.h>
#include "perfev/selfmon.h"

/* One region's accumulated results in one thread. */
struct pv_region {
	char *name;
	struct perfev_region_stats st;
};

/* An open region: where it started. */
struct pv_region_frame {
	size_t region;
	struct perfev_selfmon_values at;
};

/* One thread's group of the set, and its regions. */
struct pv_sm_group {
	pid_t tid;       /* for people: the report */
	uint64_t thread; /* the owner's serial (selfmon.c), never reused */
	int fd[PERFEV_SELFMON_MAX_EVENTS];
	uint64_t id[PERFEV_SELFMON_MAX_EVENTS];
	void *page[PERFEV_SELFMON_MAX_EVENTS]; /* user pages, NULL when not mapped */
	bool fast;    /* every event may have a user-space counter: try the pages */
	bool started; /* enabled by start or a region */
	bool manual;  /* start/stop were called: regions leave enabling to them */
	char path[256];
	struct pv_region *regions;
	size_t nr_regions, cap_regions;
	struct pv_region_frame *stack;
	size_t depth, cap_stack;
	struct pv_sm_group *next;
};

/* Counter and clock reads for the user-page path; tests install fakes
 * (pv_sm_test_reader), the library uses the arch's (selfmon_arch.h). */
struct pv_sm_reader {
	uint64_t (*pmc)(uint32_t counter, void *ctx);
	uint64_t (*clock)(void *ctx);
	void *ctx;
	bool sign_extend;
};

struct perfev_selfmon {
	uint64_t uid; /* never reused: the thread-local cache keys on it */
	const struct pv_sm_reader *test_reader; /* NULL: the arch's */
	unsigned flags;
	size_t nr;
	struct perfev_attr attr[PERFEV_SELFMON_MAX_EVENTS];
	char *name[PERFEV_SELFMON_MAX_EVENTS];
	char *filter[PERFEV_SELFMON_MAX_EVENTS]; /* tracepoint filters, NULL if none */
	pthread_mutex_t lock; /* guards groups (the list, not a group's contents) */
	struct pv_sm_group *groups;
	struct perfev_selfmon *next_live; /* the registry the at-exit report walks */
};

/* The calling thread's group of s, opened on first use; NULL + pv_error. */
struct pv_sm_group *pv_sm_group_get(struct perfev_selfmon *s);
/* Reads one group (user pages or read(2)). 0 or -errno. */
int pv_sm_group_read(struct perfev_selfmon *s, struct pv_sm_group *g,
		     struct perfev_selfmon_values *v);
/* Adds the group's region results to the report registry's walk. */
void pv_sm_registry_add(struct perfev_selfmon *s);
void pv_sm_registry_remove(struct perfev_selfmon *s);
/* Frees a group's regions (selfmon_region.c). */
void pv_sm_regions_free(struct pv_sm_group *g);
/* sum += t: totals and times add, min of mins, max of maxes, threads + 1. */
void pv_sm_stats_add(struct perfev_region_stats *sum, const struct perfev_region_stats *t);
/* Arranges the at-exit region report (once per process). */
void pv_sm_report_at_exit_arm(void);
/* Writes s's regions as text or JSON (selfmon_report.c). */
int pv_sm_report_write(struct perfev_selfmon *s, FILE *f, enum perfev_report_format fmt);

#endif
