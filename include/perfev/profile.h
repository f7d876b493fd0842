/*
 * perfev/profile.h — the profile model: samples' call stacks aggregated into
 * a call tree with self and total weight per node, for every sample value at
 * once (number of samples, period, weight). Every view (report, flat
 * per-symbol tables) and every exporter (perfev/export.h) reads it.
 *
 * The tree's root has one child per thread group (a thread, a command, a
 * process or everything, see enum perfev_profile_group); below it the frames,
 * outermost caller first (the "caller" orientation), or innermost first when
 * derived with PERFEV_PROFILE_CALLEE.
 *
 * Strings are interned: a profile copies what it is given, so frames and
 * sample descriptions may live on the caller's stack. Node ids are dense
 * (0 is the root) and stable for the profile's life.
 */
#ifndef PERFEV_PROFILE_H
#define PERFEV_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/abi.h"
#include "perfev/location.h"

struct perfev_record;

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_profile;

/* The values every node carries; index the self/total arrays with these. */
enum perfev_profile_value {
	PERFEV_VALUE_SAMPLES = 0, /* number of samples */
	PERFEV_VALUE_PERIOD = 1,  /* sum of PERF_SAMPLE_PERIOD (events, or ns for cpu-clock) */
	PERFEV_VALUE_WEIGHT = 2,  /* sum of PERF_SAMPLE_WEIGHT */
	PERFEV_VALUE_NR = 3,
};

/* What the root's children stand for. */
enum perfev_profile_group {
	PERFEV_GROUP_THREAD = 0, /* one per (pid, tid, comm) */
	PERFEV_GROUP_COMM = 1,   /* one per command name (folded stacks, flame graphs) */
	PERFEV_GROUP_PID = 2,    /* one per process (comm: the first seen) */
	PERFEV_GROUP_NONE = 3,   /* a single group, comm NULL */
};

/* perfev_profile_new flags. */
#define PERFEV_PROFILE_KEEP_SAMPLES (1u << 0) /* keep (stack, time) per sample, in order (Firefox export) */
#define PERFEV_PROFILE_CALLEE (1u << 1)       /* tree rooted at the leaf frames (perf's -g callee) */
/* the groups also tell samples apart by the CPU they were taken on (sample
 * desc's cpu): needed by PERFEV_KEY_CPU/PERFEV_KEY_SOCKET; without it every
 * group's cpu is -1 */
#define PERFEV_PROFILE_KEEP_CPU (1u << 2)
/* the groups also tell samples apart by their weight, instruction latency
 * and pipeline stage cycles (sample desc's weight, ins_lat, p_stage_cyc):
 * needed by PERFEV_KEY_WEIGHT/INS_LAT/P_STAGE_CYC (else all 0, one entry) */
#define PERFEV_PROFILE_KEEP_WEIGHTS (1u << 3)
/* ... by their time cut to the time quantum (perfev_profile_set_time_quantum,
 * 100 ms by default, as perf report's --time-quantum): PERFEV_KEY_TIME */
#define PERFEV_PROFILE_KEEP_TIME (1u << 4)
/* ... by the sampled address (sample desc's ip): PERFEV_KEY_ADDR */
#define PERFEV_PROFILE_KEEP_ADDR (1u << 5)
/* ... by their memory access (sample desc's mem): PERFEV_KEY_MEM and the
 * other data-side keys (perf report --mem-mode). A sample's WEIGHT value
 * is then perf's cost: its weight, 1 when 0 (perfev_profile_load). */
#define PERFEV_PROFILE_KEEP_MEM (1u << 6)

/* The data side of a memory access sample (perf's mem_info). */
struct perfev_mem_access {
	uint64_t data_src;        /* PERF_SAMPLE_DATA_SRC (union perf_mem_data_src) */
	uint64_t addr;            /* PERF_SAMPLE_ADDR: the data address */
	uint64_t phys_addr;       /* PERF_SAMPLE_PHYS_ADDR, 0: none */
	uint64_t data_page_size;  /* PERF_SAMPLE_DATA_PAGE_SIZE, 0: none */
	const char *dso;          /* the object mapped at addr ("//anon"...), NULL: none */
	uint64_t dso_addr;        /* addr in that mapping's terms (perf's al_addr), else addr */
	bool shared;              /* a shared, not executable file mapping of user space */
};
/* perf report's branch mode under sort keys (hist.c iter_add_next_branch_entry):
 * perfev_profile_load makes every branch of a sample's branch stack a sample
 * of value 1 whose one frame is the branch's target, resolved in the
 * process's maps then the kernel's, an unknown one keyed and shown by its
 * absolute address, at the level ([k]/[.]) of the sample; samples without
 * branch stacks are left out. perfev_profile_flat keys such frames by
 * object and symbol (the level the first sample's), unknown ones by address
 * alone (the object too only under PERFEV_KEY_DSO). */
#define PERFEV_PROFILE_BRANCH_TARGETS (1u << 7)

/*
 * One frame of a stack. Only `symbol`, `dso`, `ip` and `kernel` matter for
 * most uses; two frames are the same tree node when symbol, dso, kernel,
 * inlined, srcfile and line are equal (and ip too, when symbol is NULL), so
 * the caller decides the granularity by what it fills in (leave srcfile NULL
 * to aggregate per function).
 */
struct perfev_profile_frame {
	const char *symbol;  /* demangled function name; NULL: unknown (shown as the address) */
	const char *dso;     /* path of the object, "[kernel.kallsyms]"; NULL: "[unknown]" */
	uint64_t ip;         /* the address in the process */
	uint64_t rel_ip;     /* the address in the DSO's terms (what perf prints for unknown symbols) */
	const char *srcfile; /* source file, or NULL */
	uint32_t line;       /* source line, or 0 */
	bool inlined;        /* inlined into the next (outer) frame of the stack */
	bool kernel;
	const struct perfev_map *map; /* optional: the mapping (pprof mappings, build-ids) */
};

/* The sample a stack came from. `sz` = sizeof(struct perfev_sample_desc). */
struct perfev_sample_desc {
	size_t sz;
	int32_t pid, tid;
	const char *comm; /* NULL: "[unknown]" */
	uint64_t time;    /* PERF_SAMPLE_TIME, ns; 0 if unknown */
	uint64_t period;  /* 0 counts as 1 */
	uint64_t weight;
	int32_t cpu;      /* the CPU it was taken on (PERF_SAMPLE_CPU), -1: unknown; read only by
			   * profiles with PERFEV_PROFILE_KEEP_CPU, and when sz covers it */
	/* read only by profiles with PERFEV_PROFILE_KEEP_WEIGHTS / _KEEP_ADDR, and
	 * when sz covers them: PERF_SAMPLE_WEIGHT_STRUCT's var2_w (x86: the
	 * instruction latency) and var3_w (powerpc: pipeline stage cycles), the
	 * sampled address */
	uint64_t ins_lat, p_stage_cyc;
	uint64_t ip;
	/* read only by profiles with PERFEV_PROFILE_KEEP_MEM (copied); NULL: none */
	const struct perfev_mem_access *mem;
};
#define perfev_sample_desc__last_field mem

/* Which samples a profile accepts; zero/NULL fields match everything. */
struct perfev_profile_filter {
	size_t sz;               /* sizeof(struct perfev_profile_filter) */
	const char *comm;        /* exact command names, comma-separated (perf's --comms) */
	int64_t pid, tid;        /* -1: any (0 is a real pid: the idle task) */
	const char *dso;         /* exact DSO paths or basenames, comma-separated */
	const char *symbol;      /* exact symbol names, comma-separated */
	uint64_t time_start, time_end; /* [start, end] in sample time; 0: open */
	bool any_frame;          /* dso/symbol match any frame of the stack, not only the leaf */
};
#define perfev_profile_filter__last_field any_frame

/*
 * A new, empty profile grouping threads as `group` and taking the flags
 * above. Returns NULL (errno ENOMEM or EINVAL) on failure.
 */
PERFEV_API struct perfev_profile *perfev_profile_new(enum perfev_profile_group group, unsigned flags);
PERFEV_API void perfev_profile_free(struct perfev_profile *p);

/* Sets the filter for the samples added from now on (copied). NULL clears it. */
PERFEV_API int perfev_profile_set_filter(struct perfev_profile *p,
					 const struct perfev_profile_filter *f);

/*
 * Adds one sample whose stack is frames[0..nr), LEAF FIRST (the order of a
 * callchain: frames[0] is where the sample hit). An empty stack counts as one
 * "[unknown]" frame. Returns 1 when added, 0 when the filter rejected it,
 * -ENOMEM/-EINVAL on failure.
 */
PERFEV_API int perfev_profile_add(struct perfev_profile *p, const struct perfev_sample_desc *s,
				  const struct perfev_profile_frame *frames, size_t nr);

/*
 * Expands a resolved location into frames, leaf first: one per source line
 * (inlined functions first, marked inlined, the containing function last),
 * or one frame when there is no line information. An inlined function that
 * bears the location's symbol name is not marked (perf's new_inline_sym
 * reuses the real symbol then: "PyUnicode_New" inlined into PyUnicode_New). Returns how many frames
 * the location needs; writes at most max. with_lines false leaves srcfile
 * and line out (per-function aggregation) but still expands inlined frames.
 */
PERFEV_API size_t perfev_frames_from_location(const struct perfev_location *loc, bool with_lines,
					      struct perfev_profile_frame *out, size_t max);

/*
 * A new profile holding the same samples regrouped (group) and/or reoriented
 * (PERFEV_PROFILE_CALLEE in flags). Sample logs are not carried over.
 */
PERFEV_API struct perfev_profile *perfev_profile_derive(const struct perfev_profile *p,
							enum perfev_profile_group group,
							unsigned flags);

/*
 * The socket of each CPU: socket_of_cpu[cpu] for cpu < nr (copied; -1:
 * unknown), what PERFEV_KEY_SOCKET keys samples by (CPUs outside the table,
 * and all without one, are -1, as perf shows files without socket ids).
 * perfev_profile_load sets it from the file's CPU_TOPOLOGY. 0 or -ENOMEM.
 */
PERFEV_API int perfev_profile_set_sockets(struct perfev_profile *p, const int32_t *socket_of_cpu, size_t nr);

/* The time quantum PERFEV_PROFILE_KEEP_TIME cuts sample times to (ns; 0:
 * perf's default, 100 ms), for the samples added from now on. */
PERFEV_API void perfev_profile_set_time_quantum(struct perfev_profile *p, uint64_t ns);

/*
 * Ages the profile as perf top does between refreshes (hists__decay_entries):
 * every node's own values (samples, period, weight) become
 * floor(value * num / den), and the totals are added up again from them, so
 * a total is always the sum of the own values below it. num/den 7/8 is
 * perf top's decay, 0/1 zeroes everything (perf top -z). flags also zero
 * the samples whose leaf frame is in the kernel (PERFEV_DECAY_HIDE_KERNEL,
 * perf top -K) or in user space (PERFEV_DECAY_HIDE_USER, -U). Unless nothing
 * changes (num == den, no flags): the nodes whose values all reached 0 are
 * removed, as perf top deletes its emptied entries (node ids change; the
 * others keep their order), and a sample log (PERFEV_PROFILE_KEEP_SAMPLES)
 * is emptied. The filter's counts (perfev_profile_filtered, _hidden) are
 * scaled alike. 0, or -EINVAL (NULL, den 0, num > den, unknown
 * flags) with perfev_errmsg() saying which.
 */
#define PERFEV_DECAY_HIDE_KERNEL (1u << 0)
#define PERFEV_DECAY_HIDE_USER (1u << 1)
PERFEV_API int perfev_profile_decay(struct perfev_profile *p, uint64_t num, uint64_t den, unsigned flags);

/* Totals of what was accepted. */
PERFEV_API uint64_t perfev_profile_total(const struct perfev_profile *p, enum perfev_profile_value v);
/* Samples the filter rejected. */
PERFEV_API uint64_t perfev_profile_filtered(const struct perfev_profile *p);
/* The values of the samples the filter rejected by comm, pid, tid, DSO or
 * symbol (not by time): perf report counts them in its totals, so its
 * percentages of what is shown are of everything. */
PERFEV_API uint64_t perfev_profile_hidden(const struct perfev_profile *p, enum perfev_profile_value v);
PERFEV_API enum perfev_profile_group perfev_profile_grouping(const struct perfev_profile *p);
PERFEV_API unsigned perfev_profile_flags(const struct perfev_profile *p);

/* ---- walking the tree ------------------------------------------------------ */
enum perfev_node_kind { PERFEV_NODE_ROOT, PERFEV_NODE_GROUP, PERFEV_NODE_FRAME };

struct perfev_profile_node {
	enum perfev_node_kind kind;
	uint32_t id, parent, first_child, next_sibling; /* 0: none (the root is id 0) */
	uint32_t depth;                                 /* root 0, groups 1, frames 2.. */
	struct perfev_profile_frame frame;                      /* FRAME nodes; strings owned by the profile */
	const char *comm;                               /* GROUP nodes (NULL for GROUP_NONE) */
	int32_t pid, tid;                               /* GROUP nodes; -1 when not grouped by it */
	uint64_t self[PERFEV_VALUE_NR], total[PERFEV_VALUE_NR];
	int32_t cpu;                                    /* GROUP nodes; -1 without PERFEV_PROFILE_KEEP_CPU */
	int32_t socket;                                 /* GROUP nodes: the cpu's socket, -1: unknown */
	/* GROUP nodes: the samples' weight, ins_lat, p_stage_cyc (with
	 * PERFEV_PROFILE_KEEP_WEIGHTS), time cut to the quantum (KEEP_TIME),
	 * sampled address (KEEP_ADDR); else 0 */
	uint64_t weight, ins_lat, p_stage_cyc, time, addr;
	struct perfev_mem_access mem; /* GROUP nodes with PERFEV_PROFILE_KEEP_MEM, else zero */
};

PERFEV_API size_t perfev_profile_nr_nodes(const struct perfev_profile *p);
/* Fills *out with node `id`. Returns 0 or -ERANGE. */
PERFEV_API int perfev_profile_node(const struct perfev_profile *p, uint32_t id,
				   struct perfev_profile_node *out);

/* ---- flat views (perf report's table) ----------------------------------------- */
/* Sort keys: what makes two samples the same entry. */
#define PERFEV_KEY_COMM (1u << 0)
#define PERFEV_KEY_PID (1u << 1)
#define PERFEV_KEY_TID (1u << 2)
#define PERFEV_KEY_DSO (1u << 3)
#define PERFEV_KEY_SYM (1u << 4)
#define PERFEV_KEY_SRCLINE (1u << 5)
/* the sample's CPU: needs a profile made with PERFEV_PROFILE_KEEP_CPU (else
 * every sample's CPU is -1, one entry, as perf shows files without it) */
#define PERFEV_KEY_CPU (1u << 6)
/* the socket of the sample's CPU (perfev_profile_set_sockets; -1: unknown) */
#define PERFEV_KEY_SOCKET (1u << 7)
/* the source file of the sampled address (perf's srcfile): the base name of
 * a frame's srcfile when it has a line, else unknown (""). With children the
 * entries of call-chain frames are unknown: perf looks them up by the
 * address as sampled taken for one in the object's terms (wrong for PIE,
 * shared libraries and, shifted by the text offset, executables alike);
 * the samples' own entries are right. Needs source lines. */
#define PERFEV_KEY_SRCFILE (1u << 8)
/* the length of the mapping the frame is in (perf's dso_size, map__size):
 * the frames' perfev_profile_frame.map, one per object (the first seen) */
#define PERFEV_KEY_DSO_SIZE (1u << 9)
/* the size of the frame's symbol (perf's symbol_size: ELF st_size, else up
 * to the next symbol), as perfev_profile_load resolved it */
#define PERFEV_KEY_SYM_SIZE (1u << 10)
/* the sample's weight (perf's local_weight and weight: one entry per
 * distinct weight), instruction latency, pipeline stage cycles, time (cut
 * to the quantum) and sampled address: need a profile that keeps them
 * (PERFEV_PROFILE_KEEP_WEIGHTS, _TIME, _ADDR). With children, perf's
 * entries of call-chain frames lack the weights and the time (as the
 * socket, see PERFEV_KEY_SOCKET): every frame of a sample whose value is
 * not 0 adds to its entry again; the address of a call-chain entry is its
 * frame's. */
#define PERFEV_KEY_WEIGHT (1u << 11)
#define PERFEV_KEY_INS_LAT (1u << 12)
#define PERFEV_KEY_P_STAGE_CYC (1u << 13)
#define PERFEV_KEY_TIME (1u << 14)
#define PERFEV_KEY_ADDR (1u << 15)
/* perf --mem-mode's keys of the memory access (PERFEV_PROFILE_KEEP_MEM):
 * data_src's level (mem_lvl only, as perf compares), snoop, TLB, lock and
 * block bits; the data address (symbol_daddr), the object mapped there
 * (dso_daddr), its 64-byte cache line in the mapping's terms (dcacheline),
 * the physical address, the data page size. */
#define PERFEV_KEY_MEM (1u << 17)
#define PERFEV_KEY_SNOOP (1u << 18)
#define PERFEV_KEY_TLB (1u << 19)
#define PERFEV_KEY_LOCKED (1u << 20)
#define PERFEV_KEY_BLOCKED (1u << 21)
#define PERFEV_KEY_SYM_DADDR (1u << 22)
#define PERFEV_KEY_DSO_DADDR (1u << 23)
#define PERFEV_KEY_DCACHELINE (1u << 24)
#define PERFEV_KEY_PHYS_DADDR (1u << 25)
#define PERFEV_KEY_DATA_PAGE_SIZE (1u << 26)
/* Not a key: with children, perf report's two entries of a frame without a
 * symbol (perf keys a sample's own entry by the address in the object's
 * terms, rel_ip, and the entries it makes from call-chain frames by the
 * address as sampled, ip): the frame's own samples go to an entry keyed by
 * rel_ip (total: those samples only), the stacks through it to one keyed by
 * ip (self zero), and the two are one entry when the addresses are equal.
 * Without it, one entry per rel_ip holds both. */
#define PERFEV_KEY_SPLIT_UNRESOLVED (1u << 16)

struct perfev_profile_entry {
	const char *comm;     /* NULL unless keyed by comm/pid/tid */
	int32_t pid, tid;     /* -1 unless keyed by them */
	const char *dso;      /* NULL unless keyed by dso or sym */
	const char *symbol;   /* NULL: unknown (see ip/rel_ip) or not keyed */
	uint64_t ip, rel_ip;  /* of the first frame seen, for unknown symbols */
	const char *srcfile;  /* when keyed by srcline */
	uint32_t line;
	bool kernel;
	bool inlined;         /* keyed by sym: the inlined copy of the function (perf: "(inlined)") */
	/* keyed by sym, inlined (or a function named by its DWARF name): the
	 * function's ELF symbol it is in; perf's entries of one inlined
	 * function in two functions are two. NULL otherwise. */
	const char *inlined_in;
	/* keyed by sym, a symbol no inlined copy: where it starts in its
	 * object (perf's key: overloads "ns::f" and "ns::f" are two); else 0 */
	uint64_t sym_start;
	int32_t cpu;          /* keyed by cpu: the samples' CPU (-1: not recorded); else -1 */
	int32_t socket;       /* keyed by socket: the CPU's socket (-1: unknown); else -1 */
	const char *source_file; /* keyed by srcfile: a base name, "" unknown; else NULL */
	const char *first_symbol; /* the symbol of the first frame of the entry, keyed by it or
				   * not (perf's entry keeps its first sample's); NULL unknown */
	int64_t dso_size;     /* keyed by dso_size: its mapping's length, -1 none; else -1 */
	int64_t sym_size;     /* keyed by symbol_size: its symbol's size, -1 unknown; else -1 */
	/* the command of the entry's first sample (perf's entry keeps its first
	 * sample's thread, whose filters hide or show it whole) */
	const char *first_comm;
	/* keyed by tid: the thread's name at the end of the file (perf's "pid"
	 * column names a thread so); keyed by pid: the process's main thread's.
	 * NULL when not keyed or unknown (then comm is the samples'). */
	const char *thread_comm, *process_comm;
	/* keyed by them (PERFEV_KEY_WEIGHT...): each sample's weight (perf's
	 * local_weight; its weight is this times self[SAMPLES]), ins_lat,
	 * p_stage_cyc, time cut to the quantum, sampled address; else 0 */
	uint64_t weight, ins_lat, p_stage_cyc, time, addr;
	/* keyed by a memory key: the access of the entry's first sample (its dso
	 * a path, NULL: none); else zero */
	struct perfev_mem_access mem;
	/* self: samples whose leaf is this entry (the leaf's samples of an
	 * inlined frame count for the function it was inlined into, as perf
	 * does). total ("children"): samples with this entry anywhere on the
	 * stack, each sample counted once. */
	uint64_t self[PERFEV_VALUE_NR], total[PERFEV_VALUE_NR];
};

/*
 * The flat table: one entry per distinct key, sorted by `by` (self, or total
 * when children is true) descending, dropping entries below percent_limit
 * (percent of the profile's total of `by`; 0 keeps all). *out is malloc'ed
 * (free with free()); strings belong to the profile. Returns 0 or -ENOMEM.
 */
PERFEV_API int perfev_profile_flat(const struct perfev_profile *p, unsigned keys,
				   enum perfev_profile_value by, bool children, double percent_limit,
				   struct perfev_profile_entry **out, size_t *nr);

/* ---- from a perf.data file ---------------------------------------------------- */
/* A loader's progress: done of total units (total 0: not known), ctx first. */
typedef void (*perfev_progress_fn)(void *ctx, uint64_t done, uint64_t total);

struct perfev_profile_load_opts {
	size_t sz;                      /* sizeof(struct perfev_profile_load_opts) */
	enum perfev_profile_group group;
	unsigned flags;                 /* PERFEV_PROFILE_* of the new profile */
	const struct perfev_profile_filter *filter;
	int event;                      /* index of the event to profile; -1: the first one */
	bool srclines;                  /* resolve source lines into the frames (slower) */
	bool no_inline;                 /* do not expand inlined frames (faster) */
	bool no_callchain;              /* only the sampled address, no call stack */
	const char *kallsyms;           /* NULL: /proc/kallsyms; "": no kernel symbols */
	bool no_cache;                  /* see perfev_symbolizer_opts.no_cache */
	bool inline_dwarf_only;         /* expand inlined frames of DWARF-unwound frames only (perf
					 * report's call chains: frame-pointer ones stay as sampled) */
	/* perf report's --max-stack: keep at most this many call-chain entries
	 * of each sample (context markers do not count; a DWARF-unwound user
	 * stack is cut apart from the kernel part of the chain, to its
	 * innermost entries). 0: perf report's default, 127 (its
	 * PERF_MAX_STACK_DEPTH: the sysctl kernel.perf_event_max_stack that
	 * its help names is not read); negative: all. */
	int max_stack;
	/* cut a chain longer than max_stack to its outermost entries, as perf
	 * does in caller order (-g caller, or its --children default), keeping
	 * the sampled address itself as the leaf for the sample's own entry:
	 * perf's chain lacks it, so perfev_profile_flat's --children totals
	 * count no call-chain entry of it; false: the innermost ones */
	bool max_stack_outer;
	/* A call-chain frame outside any map gets perf's [k]/[.]: the level of
	 * the frame before it in perf's cursor, starting from the sample's own.
	 * false: the cursor in caller order (perf report's --children default),
	 * true: in callee order (perf report --children -g callee). */
	bool unmapped_levels_callee;
	/* perf's --symfs: binaries and debug files under this directory
	 * (perfev_symbolizer_opts.symfs); NULL: this machine's. */
	const char *symfs;
	/* perf report -C: only samples taken on these CPUs (perfev_cpus_parse),
	 * the others left out before anything counts them, as perf drops them;
	 * the file's events must record the CPU (EINVAL otherwise, and for a
	 * CPU the recording machine did not have). NULL: every CPU. */
	const struct perfev_cpus *cpus;
	/* perf report --time-quantum: what PERFEV_PROFILE_KEEP_TIME cuts
	 * times to (ns); 0: 100 ms */
	uint64_t time_quantum;
	/* perf report --time: only samples within these ranges of sample time,
	 * the others left out before anything counts them, as perf skips them:
	 * "START,END" in seconds (at most 9 decimals, exact), either end empty
	 * for the file's start or end, several ranges separated by spaces
	 * (EINVAL, naming the bad one, otherwise). NULL: all. */
	const char *time;
	/* C++ and Rust names: demangled without their parameter lists
	 * ("ns::Acc::sum"), as perf names symbols unless -v; demangle_params
	 * keeps them ("ns::Acc::sum(int) const"), no_demangle leaves names as
	 * mangled in the ELF (perf's --no-demangle) */
	bool demangle_params;
	bool no_demangle;
	/* perf report -U: a sample no symbol names is left out before anything
	 * counts it, and its call chain's frames no symbol names are dropped */
	bool hide_unresolved;
	/* Called now and then while the file's records are read (about every
	 * 16384 records and at the end, on the loading thread): done and total
	 * bytes of the data section read (total 0: a pipe, whose size is not
	 * known). A viewer's progress bar; NULL: none. */
	perfev_progress_fn progress;
	void *progress_ctx;            /* progress's first argument */
	/* Called with every record the load reads (after the load has taken
	 * it; in the order the load reads them): the caller's own tables from
	 * the same pass, as perf report -T's READ values. 0 to go on; -errno
	 * stops the load, which fails with that errno (the callback sets the
	 * message, perfev_errmsg()). NULL: none. */
	int (*on_record)(void *ctx, const struct perfev_record *rec);
	void *on_record_ctx;           /* on_record's first argument */
	/* perf's -k/--vmlinux: the kernel's symbols from this vmlinux ELF's
	 * symbol table instead of kallsyms (relocated by its _text as the
	 * recording's kernel map says). A missing file, not an ELF, no
	 * symbols: the load fails; an image of another build than the
	 * recorded kernel's: kernel addresses stay unresolved (a note), as
	 * perf. NULL: kallsyms. */
	const char *vmlinux;
};
#define perfev_profile_load_opts__last_field vmlinux

struct perfev_profile_load_info {
	size_t sz;                      /* sizeof(struct perfev_profile_load_info) */
	char event_name[128];
	uint64_t samples;               /* samples of the event profiled (before filtering) */
	uint64_t other_samples;         /* samples of the other events, not profiled */
	uint64_t lost;                  /* events lost (LOST records) */
	uint64_t dwarf_samples, dwarf_to_root; /* DWARF-unwound samples, and how many reached the root */
	bool has_callchains;            /* the event records call stacks (CALLCHAIN or STACK_USER) */
	uint64_t lost_samples;          /* samples the PMU lost (LOST_SAMPLES records: perf's "Total Lost Samples") */
	/* the event's sampling interval in ms: 1000 / its frequency (-F), its
	 * period for a clock event sampled by period (cpu-clock, task-clock:
	 * ns), else the mean time between its samples; 0 when unknown */
	double interval_ms;
};
#define perfev_profile_load_info__last_field interval_ms

/*
 * Reads a perf.data file (perf's or perfev's; "-" is a pipe on stdin) into a
 * new profile: samples of one event, mapped through the recording's threads
 * and memory maps, symbolized (ELF, DWARF inlines and lines, kallsyms), with
 * call stacks from PERF_SAMPLE_CALLCHAIN and/or DWARF unwinding of
 * REGS_USER + STACK_USER. Unresolvable addresses become "[unknown]" frames
 * (and a note through the log hook, perfev/log.h), never a failure. info
 * (optional) says what was read.
 * Returns NULL with errno and perfev_errmsg() when the file cannot be read.
 */
PERFEV_API struct perfev_profile *perfev_profile_load(const char *path,
						      const struct perfev_profile_load_opts *o,
						      struct perfev_profile_load_info *info);
/*
 * The same from an open file (perfev_perfdata_open), which stays the
 * caller's: a command opens its input once and asks every question of the
 * one handle. A file may be loaded again from the same handle; a stream
 * (pipe) only once (EINVAL the second time).
 */
PERFEV_API struct perfev_profile *perfev_profile_load_from(struct perfev_perfdata *pd,
							   const struct perfev_profile_load_opts *o,
							   struct perfev_profile_load_info *info);

/* One event of a file read by perfev_profile_load_events. */
struct perfev_profile_event {
	struct perfev_profile *profile; /* its samples (never NULL; may be empty) */
	char name[128];                 /* perf's name of the event ("cpu-clock") */
	uint64_t samples;               /* its samples before filtering */
	bool has_callchains;
	int leader;                     /* the event leading its group (perf's GROUP_DESC); itself when alone */
	int nr_members;                 /* for a leader: events in its group, itself included; else 0 */
	char group_name[64];            /* the group's name ("" for an anonymous group) */
};

/*
 * perfev_profile_load for every event of the file in one pass: an array of
 * *nr events (in the file's order, o->event ignored), free with
 * perfev_profile_events_free. info's event_name/has_callchains describe
 * event 0; samples counts all events. NULL + errno on failure.
 */
PERFEV_API struct perfev_profile_event *perfev_profile_load_events(const char *path,
								   const struct perfev_profile_load_opts *o,
								   struct perfev_profile_load_info *info,
								   size_t *nr);
/* The same from an open file, which stays the caller's (see perfev_profile_load_from). */
PERFEV_API struct perfev_profile_event *perfev_profile_load_events_from(struct perfev_perfdata *pd,
									const struct perfev_profile_load_opts *o,
									struct perfev_profile_load_info *info,
									size_t *nr);
PERFEV_API void perfev_profile_events_free(struct perfev_profile_event *ev, size_t nr);

/* ---- branch stacks: perf report's branch view ---------------------------------
 * Recordings whose samples carry PERF_SAMPLE_BRANCH_STACK (LBR, perf record
 * -b / -j): one row per distinct (command, source object, source symbol,
 * target symbol, basic block cycles) over every branch of every sample, as
 * perf report shows them by default for such files. */
struct perfev_branch_end {
	const char *symbol; /* NULL: unknown (shown as rel_addr) */
	const char *dso;    /* the object's path; NULL: outside any map ("[unknown]") */
	uint64_t addr;      /* as recorded */
	uint64_t rel_addr;  /* in the object's terms (perf shows it for unknown symbols) */
	uint64_t sym_start; /* the symbol's start, in the same terms (when symbol) */
	char level;         /* perf's: 'k' kernel, '.' user, 'H' outside any map */
};

struct perfev_branch_row {
	const char *comm;        /* the command at the sample's time */
	const char *thread_comm; /* the name, at the end of the file, of the thread that
				  * made the row first (perf sizes its Command column by it) */
	struct perfev_branch_end from, to;
	uint16_t cycles;         /* basic block cycles; 0: not recorded */
	uint64_t count;          /* branches */
};

/* What makes branches one row (perf report's branch sort keys): a row per
 * distinct value of the keys given, ends not keyed are the first branch's. */
enum perfev_branch_key {
	PERFEV_BKEY_COMM,     /* the sample's command (perf's comm) */
	PERFEV_BKEY_DSO_FROM, /* the source's object (dso_from) */
	PERFEV_BKEY_DSO_TO,   /* the target's object (dso_to) */
	PERFEV_BKEY_SYM_FROM, /* the source's symbol, an unknown one by its address (symbol_from) */
	PERFEV_BKEY_SYM_TO,   /* the target's symbol (symbol_to) */
	PERFEV_BKEY_CYCLES,   /* basic block cycles (cycles) */
	/* the target's symbol as perf's sym key compares it (its object
	 * first): the key of perf's IPC column (ipc_lbr), which a --sort naming
	 * "symbol" gets in its branch mode */
	PERFEV_BKEY_TARGET,
	PERFEV_BKEY_NR,
};

/* One event of a branch table; rows in perf's order: count descending, then
 * by each key in the order given: command ascending, objects descending
 * (outside any map first), symbols known first, by start address, unknown
 * ones by address, cycles descending. */
struct perfev_branch_event {
	char name[128];
	uint64_t samples;  /* samples with a branch stack */
	uint64_t branches; /* their branches: the sum of the rows' counts */
	const struct perfev_branch_row *rows;
	size_t nr;
};

struct perfev_branch_table;

/*
 * Whether perf report would show the branch view of this file by default:
 * it records branch stacks (the BRANCH_STACK feature) and no event samples
 * user stacks (STACK_USER). 1, 0 (also for a pipe, "-", which is not read),
 * or -errno with perfev_errmsg() when the file cannot be opened.
 */
PERFEV_API int perfev_branch_table_wanted(const char *path);
/* The same of an open file; false for a stream, whose features perf has not
 * read when it decides (a stream's branch view is there when asked, -b). */
PERFEV_API bool perfev_branch_table_wanted_from(const struct perfev_perfdata *pd);

/*
 * Reads the branch stacks of every event of a perf.data file, resolving both
 * ends of each branch as perf does (the process's maps at the sample's time,
 * then the kernel's). Uses o's group-independent fields (kallsyms,
 * no_cache); o->filter and o->event are ignored. Samples without a branch
 * stack are left out. NULL + errno and perfev_errmsg() on failure.
 */
PERFEV_API struct perfev_branch_table *perfev_branch_table_load(const char *path,
								 const struct perfev_profile_load_opts *o,
								 struct perfev_profile_load_info *info);
/* The same with rows by keys[0..nr) (perfev_branch_table_load's: perf's
 * default, comm, dso_from, symbol_from, symbol_to, cycles). nr 0 or a key
 * out of range: EINVAL. */
PERFEV_API struct perfev_branch_table *perfev_branch_table_load_keys(const char *path,
								      const struct perfev_profile_load_opts *o,
								      const enum perfev_branch_key *keys, size_t nr,
								      struct perfev_profile_load_info *info);
/* Both from an open file, which stays the caller's (see perfev_profile_load_from). */
PERFEV_API struct perfev_branch_table *perfev_branch_table_load_from(struct perfev_perfdata *pd,
								      const struct perfev_profile_load_opts *o,
								      struct perfev_profile_load_info *info);
PERFEV_API struct perfev_branch_table *perfev_branch_table_load_keys_from(struct perfev_perfdata *pd,
									   const struct perfev_profile_load_opts *o,
									   const enum perfev_branch_key *keys, size_t nr,
									   struct perfev_profile_load_info *info);
/* The file's events, in its order (those without branches: nr 0). */
PERFEV_API size_t perfev_branch_table_nr_events(const struct perfev_branch_table *t);
PERFEV_API const struct perfev_branch_event *perfev_branch_table_event(const struct perfev_branch_table *t,
									size_t i);
PERFEV_API void perfev_branch_table_free(struct perfev_branch_table *t);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_PROFILE_H */
