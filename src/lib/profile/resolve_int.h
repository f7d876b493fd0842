/*
 * resolve_int.h — the resolver's half the profile loader uses
 * (profile_load.c, profile_branch.c): frames as ids of a frame table the
 * loader owns (its profile), so a frame is interned once and a sample's
 * stack is a list of ids.
 */
#ifndef PERFEV_RESOLVE_INT_H
#define PERFEV_RESOLVE_INT_H

#include "profile/profile_int.h"
#include "perfev/resolve.h"

struct perfev_perfdata;
struct perfev_frame;
struct perfev_location;
struct perfev_map;

/* One sample's stack: frame ids of the table, leaf first. */
struct pv_stack {
	uint32_t *ids;   /* the resolver's, until its next stack; the caller may rewrite them */
	size_t depth;
	uint32_t leaf_n; /* frames of the sampled address (inlines expanded) at ids[0..) */
	bool cut;        /* max_stack_outer kept the sampled address apart (see perfev_resolved_sample.cut) */
	bool dwarf;      /* the user stack was DWARF-unwound */
	bool unmapped;   /* a frame is outside any map (pv_resolver_unmapped_levels has work) */
	uint64_t to_root; /* ...and reached the root (0 or 1) */
};

/* A resolver interning frames into table (borrowed; NULL: its own). NULL with the error set. */
struct perfev_resolver *pv_resolver_new(const struct perfev_resolver_opts *o, struct perfev_profile *table);
/* Kernel module frames keep their map (PERFEV_PROFILE_KEEP_ADDR's addr key). */
void pv_resolver_keep_maps(struct perfev_resolver *r);
/* Addresses one at a time only (pv_resolver_location, pv_resolver_frames:
 * perfev script), never stacks (pv_resolver_stack): the per-process map
 * copies its DWARF unwinder walks and the table's objects in perf's order
 * are not kept. Before pv_resolver_use_perfdata and the first record. */
void pv_resolver_addresses_only(struct perfev_resolver *r);
/* The recording's build-ids and objects; true when it was made on another
 * kernel (its kernel addresses then stay unresolved: the caller says so). */
bool pv_resolver_use_perfdata(struct perfev_resolver *r, struct perfev_perfdata *pd);
/* Any record into the threads and maps. 0 or -ENOMEM. */
int pv_resolver_record(struct perfev_resolver *r, const struct perfev_record *rec);
/* The process of sample s: its pid, or (no PERF_SAMPLE_TID) its thread's. */
int32_t pv_resolver_sample_pid(struct perfev_resolver *r, const struct perfev_sample *s);
/* Sample rec (of process pid) resolved. 0 or -ENOMEM. */
int pv_resolver_stack(struct perfev_resolver *r, const struct perfev_record *rec, int32_t pid, struct pv_stack *out);
/* perf's [k]/[.] of the frames outside any map of the last stack's ids[0..depth)
 * (as rewritten by the caller), from the sample's level; callee: perf's cursor
 * in callee order. 0 or -ENOMEM. */
int pv_resolver_unmapped_levels(struct perfev_resolver *r, bool level, size_t depth, bool callee);
/* An address as perf resolves a branch's ends (perfev_resolver_addr), and
 * its offset in its symbol. 0 or -ENOMEM. */
int pv_resolver_addr(struct perfev_resolver *r, int32_t pid, uint32_t tid, uint64_t addr, uint64_t time,
		     struct perfev_profile_frame *out, char *level, uint64_t *symoff);
/* perf's mem_info of sample s (PERFEV_PROFILE_KEEP_MEM). */
void pv_resolver_mem_access(struct perfev_resolver *r, const struct perfev_sample *s, int32_t pid, uint8_t cpumode,
			    struct perfev_mem_access *m);

/*
 * perf script's answers, one address at a time: addr (of process pid, in
 * cpumode) in map, the session's map holding it, as the symbolizer names it
 * (the options' demangling and source lines; with inlines, out->lines is the
 * inline chain, innermost first). false, out->symbol NULL, where perf leaves
 * it unknown: no map, another kernel's address (without its kallsyms), that
 * kernel's [vdso]. Strings are the symbolizer's, until the next call.
 */
bool pv_resolver_location(struct perfev_resolver *r, int32_t pid, uint8_t cpumode, uint64_t addr,
			  const struct perfev_map *map, bool inlines, struct perfev_location *out);
/* Sample s's frames as perf script walks them, leaf first, into out[max]
 * (pv_sample_frames: the callchain, or its kernel part and the DWARF-unwound
 * user stack; *dwarf: how many were unwound, -1 none tried). */
size_t pv_resolver_frames(struct perfev_resolver *r, const struct perfev_sample *s, struct perfev_frame *out,
			  size_t max, int *dwarf);
/* perf's -k/--vmlinux FILE for a recording (pd may be NULL): vmlinux's
 * symbols as kallsyms text in *fd (pv_vmlinux_kallsyms; the caller closes
 * it when >= 0), *kallsyms the path to read them from (written into path,
 * len bytes), or "" for an image of another build than pd's kernel (no
 * kernel symbols, a note). 0, or -1 with the error set. */
int pv_vmlinux_kallsyms_for(struct perfev_perfdata *pd, const char *vmlinux, int *fd, char *path, size_t len,
			    const char **kallsyms);

#endif
