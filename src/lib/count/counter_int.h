/* counter_int.h — private to the counting modules. */
#ifndef PERFEV_COUNTER_INT_H
#define PERFEV_COUNTER_INT_H

#include <stddef.h>
#include <sys/types.h>
#include "perfev/abi.h"

/* A cgroup name or path as an O_DIRECTORY fd for PERF_FLAG_PID_CGROUP. */
int pv_cgroup_open(const char *name);

#endif
