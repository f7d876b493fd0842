/* counter_int.h — private to the counting modules. */
#ifndef PERFEV_COUNTER_INT_H
#define PERFEV_COUNTER_INT_H

#include <stddef.h>
#include <sys/types.h>
#include "perfev/abi.h"

/* A cgroup name or path as an O_DIRECTORY fd for PERF_FLAG_PID_CGROUP. */
int pv_cgroup_open(const char *name);
/* perfev_explain_open() knowing the open flags (pid is a cgroup fd with
 * PERF_FLAG_PID_CGROUP). */
int pv_explain_open_flags(char *buf, size_t len, const struct perfev_attr *attr, pid_t pid,
			  int cpu, unsigned long flags, int err);

#endif
