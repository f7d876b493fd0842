/*
 * perfev/resolve.h — the resolver: one decoded sample plus the recording's
 * state (threads, their maps over time) into frames, as perf report shows
 * them: the frame-pointer call chain or the DWARF-unwound user stack
 * (REGS_USER + STACK_USER), each address symbolized (ELF and DWARF
 * symbols, kallsyms, JIT maps), inlined functions expanded, source lines,
 * --max-stack's cut; every answer cached by (process, address), so a frame
 * seen in many samples is resolved once. The profile loader
 * (perfev_profile_load, perfev_profile_builder_*) resolves through it.
 *
 * perfev script names its addresses through it too, one at a time
 * (perfev_resolver_location).
 *
 * Feed it every record in the order a reader delivers them
 * (perfev_perfdata_process): side-band records to perfev_resolver_process
 * (or perfev_resolver_sample, which takes any record), samples to
 * perfev_resolver_sample.
 */
#ifndef PERFEV_RESOLVE_H
#define PERFEV_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/abi.h"
#include "perfev/location.h"
#include "perfev/profile.h"
#include "perfev/record.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_perfdata;
struct perfev_session;
struct perfev_resolver;

struct perfev_resolver_opts {
	size_t sz;               /* sizeof(struct perfev_resolver_opts) */
	bool no_cache;           /* see perfev_symbolizer_opts.no_cache */
	bool no_inline;          /* one frame per address: no inlined functions expanded */
	bool inline_dwarf_only;  /* expand inlined functions of DWARF-unwound frames only (perf report's) */
	bool srclines;           /* source file and line of each frame (slower) */
	bool no_demangle;        /* names as mangled in the ELF (perf's --no-demangle) */
	bool demangle_params;    /* demangled with their parameter lists */
	bool no_callchain;       /* the sampled address alone */
	/* perf report's --max-stack: at most this many call-chain entries (0:
	 * perf's 127; negative: all); max_stack_outer keeps the outermost ones
	 * (perf's caller order), else the innermost */
	bool max_stack_outer;
	int max_stack;
	const char *symfs;       /* perf's --symfs: binaries under this directory; NULL: this machine's */
	/* NULL: /proc/kallsyms; "": no kernel symbols. (Last, pointer-sized: the
	 * struct has no trailing padding a caller's initializer may leave set.) */
	const char *kallsyms;
};
#define perfev_resolver_opts__last_field kallsyms

/* One sample's frames (perfev_resolver_sample's answer). */
struct perfev_resolved_sample {
	size_t sz;               /* sizeof(struct perfev_resolved_sample), set by the caller */
	int32_t pid;             /* the sample's process (from its thread when it has no PERF_SAMPLE_TID) */
	uint32_t tid;
	const char *comm;        /* the thread's name at the sample's time; NULL: unknown */
	/* leaf first; an address that expands to inlined functions is several
	 * frames, the innermost first (inlined set on all but its last). dso
	 * "[unknown]" and symbol NULL where nothing names the address. */
	const struct perfev_profile_frame *frames;
	size_t nr;
	bool dwarf;              /* the user stack was DWARF-unwound */
	bool cut;                /* max_stack_outer cut the chain: frames[0] is the sampled address
				  * alone, outside the kept outermost entries */
};
#define perfev_resolved_sample__last_field cut

/* A new resolver with its own threads and maps (a perfev_session). NULL
 * with errno set (EINVAL: bad options; ENOMEM). */
PERFEV_API struct perfev_resolver *perfev_resolver_new(const struct perfev_resolver_opts *opts);
/*
 * The recording the records come from (borrowed, must outlive the
 * resolver; call before the first record): maps recorded without
 * build-ids get the file's, and another kernel's recording (its build-id,
 * else its release, differs from the running one's) keeps kernel
 * addresses unresolved unless opts.kallsyms names that kernel's symbols.
 * Without it the records are taken as this machine's, now. 0 or -EINVAL.
 */
PERFEV_API int perfev_resolver_set_perfdata(struct perfev_resolver *r, struct perfev_perfdata *pd);
/* A side-band record (COMM, FORK, EXIT, MMAP, MMAP2, KSYMBOL...) into the
 * threads and maps; other records are ignored. 0 or -errno (ENOMEM). */
PERFEV_API int perfev_resolver_process(struct perfev_resolver *r, const struct perfev_record *rec);
/*
 * The frames of sample rec (a PERF_RECORD_SAMPLE; any other record is
 * handed to perfev_resolver_process and out->nr is 0). out->frames and
 * the strings they point to belong to the resolver: the frames until the
 * next call, the strings until perfev_resolver_free. Returns 0, or -errno
 * (EINVAL: NULL or out->sz too small; ENOMEM).
 */
PERFEV_API int perfev_resolver_sample(struct perfev_resolver *r, const struct perfev_record *rec,
				      struct perfev_resolved_sample *out);
/*
 * One address of process pid at `time`, as perf resolves a branch's ends:
 * in the process's maps (*level '.'), else the kernel's ('k'), else
 * outside any map ('H', out->dso NULL). Strings as perfev_resolver_sample's.
 * 0 or -errno.
 */
PERFEV_API int perfev_resolver_addr(struct perfev_resolver *r, int32_t pid, uint32_t tid, uint64_t addr,
				    uint64_t time, struct perfev_profile_frame *out, char *level);
/*
 * One address as perf script names it (its sym, symoff, dso and srcline
 * columns): addr of process pid, thread tid, at `time`, sampled in cpumode
 * (PERF_RECORD_MISC_USER, _KERNEL, ...), looked up in the recorded map that
 * holds it, named with the options' demangling and source lines (srclines:
 * out->lines[0]). flags: 0, or PERFEV_RESOLVE_INLINE (perfev/symbols.h)
 * for out->lines to hold the functions inlined there, innermost first.
 * out->map is the recorded map (NULL: none). The strings and lines belong
 * to the resolver (until perfev_resolver_free). Returns 1 when a symbol
 * names the address; 0 when it stays unknown, as perf leaves it (no map
 * recorded there; a kernel address of another kernel's recording without
 * that kernel's kallsyms; that kernel's [vdso] named in its build-id
 * table), out->symbol then NULL and out->dso the object's path where it
 * was looked up, else "[unknown]"; -EINVAL (NULL, other flags).
 */
PERFEV_API int perfev_resolver_location(struct perfev_resolver *r, int32_t pid, uint32_t tid, uint64_t time,
					uint8_t cpumode, uint64_t addr, unsigned flags,
					struct perfev_location *out);
/* The threads and maps the resolver keeps (owned by it). */
PERFEV_API struct perfev_session *perfev_resolver_session(struct perfev_resolver *r);
/* NULL is fine. */
PERFEV_API void perfev_resolver_free(struct perfev_resolver *r);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_RESOLVE_H */
