/*
 * profile_load_int.h — the perf.data loader (profile_load.c) for other
 * tables over the same machinery (threads, maps, the symbolizer and its
 * cache): profile_branch.c's branch-stack table.
 */
#ifndef PERFEV_PROFILE_LOAD_INT_H
#define PERFEV_PROFILE_LOAD_INT_H

#include "profile/profile_int.h"
#include "perfev/record.h"

struct loader;
/* Called for every sample of every event, with its process id; 0 or -ENOMEM. */
typedef int (*pv_load_sample_fn)(void *ctx, struct loader *l, const struct perfev_record *rec, int32_t pid);
/* Called once the file is read, before the loader goes; 0 or -ENOMEM. */
typedef int (*pv_load_done_fn)(void *ctx, struct loader *l);

/* Reads pd (o's event ignored: every event; inlines never expanded),
 * handing samples to fn. 0, or -1 with the error set. */
int pv_profile_load_run(struct perfev_perfdata *pd, const struct perfev_profile_load_opts *o,
			struct perfev_profile_load_info *info, pv_load_sample_fn fn, pv_load_done_fn done,
			void *ctx);
/* An address of process pid at `time` as perf resolves a branch's ends: in
 * the process's maps (level '.'), else the kernel's ('k'), else outside any
 * map ('H', out->dso NULL). out's strings live as long as the loader;
 * *symoff: the address's offset in out->symbol. 0 or -ENOMEM. */
int pv_load_addr(struct loader *l, int32_t pid, uint32_t tid, uint64_t addr, uint64_t time,
		 struct perfev_profile_frame *out, char *level, uint64_t *symoff);
/* The thread's name now (during the read: at the sample's time). */
const char *pv_load_comm(struct loader *l, uint32_t tid);
const char *pv_load_event_name(struct loader *l, size_t idx);
size_t pv_load_nr_events(struct loader *l);

#endif
