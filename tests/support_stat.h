/* support_stat.h — helpers of the counting tests. */
#ifndef PERFEV_TEST_SUPPORT_STAT_H
#define PERFEV_TEST_SUPPORT_STAT_H

#include "perfev.h"
#include <stdint.h>
#include <sys/resource.h>

/* An event attr (type, config), user space only. */
struct perfev_attr user_attr(uint32_t type, uint64_t config);
/* A software event attr (PERF_TYPE_SOFTWARE, config), user space only. */
struct perfev_attr sw_attr(uint64_t config);
/* The tracepoint id of sys:name from tracefs; skips the test if absent. */
uint64_t tracepoint_id(const char *sys, const char *name);
/*
 * Runs argv as a held child with every event of list counting it (enable on
 * exec, inherit), and returns the exit code; vals[i] gets event i's count,
 * ru the child's rusage (either may be NULL).
 */
int count_child(struct perfev_evlist *list, char *const argv[], uint64_t *vals, struct rusage *ru);
/* The count of event `name` in `perfev stat -x,` output (after any
 * interval/CPU/thread fields), -1 if absent, -2 if <not counted>/<not
 * supported>; *pct (if not NULL) gets its running percentage. */
double stat_csv_count(const char *csv, const char *name, double *pct);
/* `stores --address` of the workload, as a number. */
uint64_t stores_address(void);
/* Drops this test process to uid/gid nobody (tests run in their own process). */
void become_nobody(void);

#endif
