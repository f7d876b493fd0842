/* tasks_int.h — what tasks.c (the model) shares with tasks_walk.c (perf's
 * tree walk and print). */
#ifndef PERFEV_TASKS_INT_H
#define PERFEV_TASKS_INT_H

#include "core/internal.h"
#include "perfev/tasks.h"

/* The live threads (not replaced by a later FORK), *nr of them, as
 * indexes for pv_tasks_thread; caller frees. NULL on ENOMEM. */
size_t *pv_tasks_live(const struct perfev_tasks *t, size_t *nr);
/* Thread idx: its task (comm written into buf when unnamed) and maps
 * (when kept: *maps malloc'ed, caller frees; NULL and 0 otherwise). */
int pv_tasks_thread(const struct perfev_tasks *t, size_t idx, struct perfev_task *task, char *buf, size_t len,
		    struct perfev_task_map **maps, size_t *nr_maps);
/* The live thread of this tid, or -1. */
int64_t pv_tasks_find(const struct perfev_tasks *t, int32_t tid);

#endif
