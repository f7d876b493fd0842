/*
 * profile_int.h — the profile's storage, shared by profile.c and the
 * exporters (export_*.c), which read the arrays directly.
 */
#ifndef PERFEV_PROFILE_INT_H
#define PERFEV_PROFILE_INT_H

#include "core/internal.h"
#include "perfev/profile.h"

#include <string.h>

/* Interned strings: id 0 is NULL; ids index `strs`. */
struct pv_strtab {
	char **strs;
	size_t nr, cap;
	uint32_t *hash; /* open addressing: string ids, 0 empty */
	size_t hcap;
};
uint32_t pv_strtab_intern(struct pv_strtab *t, const char *s); /* 0 on NULL s or ENOMEM (see oom) */
static inline const char *pv_strtab_get(const struct pv_strtab *t, uint32_t id)
{
	return id && id < t->nr ? t->strs[id] : NULL;
}
void pv_strtab_free(struct pv_strtab *t);
/* The id of s, 0 when s is NULL or not interned (nothing is added). */
uint32_t pv_strtab_find(const struct pv_strtab *t, const char *s);
uint64_t pv_hash_bytes(const void *data, size_t len);

/* A mapping as exporters need it (pprof Mapping, Firefox lib). */
struct pv_pmap {
	uint64_t start, end, pgoff;
	uint32_t path;            /* string id */
	uint8_t build_id[PERFEV_BUILD_ID_MAX];
	uint8_t build_id_len;
};

struct pv_frame {
	uint32_t sym, dso, file, line; /* string ids, line number */
	uint32_t map;                  /* index+1 into maps, 0: none */
	uint8_t inlined, kernel;
	/* the sampled address of a chain perf cut to its outermost entries
	 * (--max-stack in caller order): the sample's own entry, not in its
	 * call chain (no call-chain entry, no graph line); only ever a leaf */
	uint8_t cut;
	uint64_t ip, rel_ip;
	/* the ELF symbol of a function named by its DWARF name ("X (inlined)"):
	 * perf's entry for the samples in it (string id, 0: sym's) */
	uint32_t self_sym;
	uint64_t sym_size; /* the symbol's size (perf's symbol_size), 0: unknown; not a key */
	/* where the frame's ELF symbol starts in its object (0: unknown): perf
	 * keys symbols by it, so overloads named alike ("ns::f") stay apart */
	uint64_t sym_start;
	/* PERFEV_PROFILE_KEEP_ADDR: where its mapping was, in the process it was
	 * seen in (perf's map__unmap_ip shift, see pv_chain_addr); a key then */
	uint64_t map_bias;
};

struct pv_group {
	int32_t pid, tid;
	uint32_t comm;
	uint32_t thread_comm; /* the thread's name at the end of the file (0: unknown) */
	uint32_t process_comm; /* its process's main thread's (tid == pid) at the end (0: unknown) */
	int32_t cpu;          /* the samples' CPU with PERFEV_PROFILE_KEEP_CPU, else -1 */
	/* with PERFEV_PROFILE_KEEP_WEIGHTS / _TIME / _ADDR, else 0 */
	uint64_t weight, ins_lat, p_stage_cyc, time, addr;
	/* with PERFEV_PROFILE_KEEP_MEM (perfev_mem_access), else 0 */
	uint64_t data_src, daddr, phys_addr, data_page_size, daddr_al;
	uint32_t daddr_dso; /* string id, 0: none */
	uint8_t daddr_shared;
};

#define PV_NODE_GROUP_BIT 0x80000000u
struct pv_node {
	uint32_t parent, first_child, next_sibling;
	uint32_t what; /* frame index, or group index | PV_NODE_GROUP_BIT; root: 0 */
	uint32_t last_child;
	uint32_t depth;
	uint32_t first_seq; /* 1 + the number of sample paths that ended elsewhere before
			     * the first ending here (0: none has): perf's order of insertion */
	uint64_t self[PERFEV_VALUE_NR], total[PERFEV_VALUE_NR];
};

struct pv_logged_sample {
	uint32_t node;
	uint32_t pad;
	uint64_t time;
};

struct perfev_profile {
	enum perfev_profile_group group;
	unsigned flags;
	struct pv_strtab strs;
	struct pv_frame *frames;
	size_t nr_frames, cap_frames;
	uint32_t *frame_hash;
	size_t frame_hcap;
	struct pv_group *groups;
	size_t nr_groups, cap_groups;
	uint32_t *group_hash;
	size_t group_hcap;
	struct pv_pmap *maps;
	size_t nr_maps, cap_maps;
	struct pv_node *nodes;
	size_t nr_nodes, cap_nodes;
	uint32_t nr_seq; /* nodes with a first_seq */
	uint32_t *child_hash; /* (parent, what) -> node id; 0 empty */
	size_t child_hcap;
	struct pv_logged_sample *log;
	size_t nr_log, cap_log;
	uint64_t filtered;
	uint64_t hidden[PERFEV_VALUE_NR]; /* values of samples rejected but in the time range */
	bool has_filter;
	struct perfev_profile_filter filter; /* strings owned (strdup) */
	uint32_t *path; /* node path of the sample being added (then of the last one added) */
	size_t cap_path;
	size_t last_depth; /* entries of path valid for the next sample (0: none) */
	uint32_t *ids;  /* scratch: frame ids of the sample being added */
	size_t cap_ids;
	/* objects (frames' dso names) in the order perf report creates its dso
	 * structures reading the recording: id = rank (see pv_profile_object_rank) */
	struct pv_strtab objs;
	int32_t *sockets; /* socket of each CPU (perfev_profile_set_sockets) */
	size_t nr_sockets;
	uint64_t time_quantum; /* PERFEV_PROFILE_KEEP_TIME's, ns (0: 100 ms) */
};

/* The profile keeps per-sample keys in its groups (groups cannot be cached
 * per thread by loaders). */
#define PV_PROFILE_SAMPLE_KEYS \
	(PERFEV_PROFILE_KEEP_WEIGHTS | PERFEV_PROFILE_KEEP_TIME | PERFEV_PROFILE_KEEP_ADDR | PERFEV_PROFILE_KEEP_MEM)

/* Whether a frame's object is part of its entry's key: perf's sym key
 * compares the objects of known symbols only (sort.c sort__sym_cmp), so
 * unknown ones of two objects at one address are one entry unless dso is a
 * key of its own. The flat table and the report's graphs key alike. */
/* A frame's file with line 0 is one of two things: perf's srcline of an
 * address without line information, "symbol+offset" (resolve.c keeps it as
 * the file), or a file DWARF or the symbol table names without a line
 * (addr2line's "crtstuff.c:?"), which perf shows as "crtstuff.c:0". */
static inline bool pv_srcline_is_symoff(const char *file, uint32_t line)
{
	if (line || !file)
		return false;
	const char *plus = strrchr(file, '+');
	if (!plus || plus == file || !plus[1] || strchr(file, '/'))
		return false;
	for (const char *c = plus + 1; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	return true;
}

static inline bool pv_key_has_dso(unsigned keys, bool known_symbol)
{
	return (keys & PERFEV_KEY_DSO) || ((keys & PERFEV_KEY_SYM) && known_symbol);
}

/* perf's sym key of inline symbols (sort__sym_cmp): an inlined copy, or a
 * function named by its DWARF name ("X (inlined)", a fake inline symbol X
 * to perf), is one entry with the inline symbols of its name in the same
 * function (their address ranges overlap), not with those elsewhere. The
 * function a frame is in, as a string id: its ELF symbol (self_sym, else
 * sym) where it is no inlined frame, else parent_base, its outer frame's
 * (the caller-rooted tree's parent). */
uint32_t pv_frame_inline_base(const struct pv_frame *f, uint32_t parent_base);
/* The frame's symbol as perf keys it: sym and inlined ("X (inlined)" named
 * by DWARF is X inlined, where some inlined frame is named X); an inline
 * symbol also by the function it is in (base, from pv_frame_inline_base),
 * any other by where it starts (overloads named alike are two). The flat
 * table and the report's graphs key alike. */
struct pv_sym_key {
	uint32_t sym, base; /* string ids; base 0 but for inline symbols */
	uint64_t start;     /* pv_frame.sym_start; 0 for inline symbols */
	bool inlined;
};
void pv_frame_sym_key(const struct perfev_profile *p, const struct pv_frame *f, uint32_t base,
		      struct pv_sym_key *k);

/* The socket of cpu (-1: unknown). */
static inline int32_t pv_profile_socket(const struct perfev_profile *p, int32_t cpu)
{
	return cpu >= 0 && (size_t)cpu < p->nr_sockets ? p->sockets[cpu] : -1;
}

/* perf's addr key of the entry it makes from call-chain frame f: the
 * frame's address "unmapped" once more (map__unmap_ip of an address its
 * call chains keep as sampled): shifted by its mapping's start less its
 * offset in that process (a module's by its start; the kernel's: none). */
static inline uint64_t pv_chain_addr(const struct perfev_profile *p, const struct pv_frame *f)
{
	(void)p;
	return f->ip + f->map_bias;
}

/* The memory access a group keeps (PERFEV_PROFILE_KEEP_MEM). */
static inline void pv_group_mem(const struct perfev_profile *p, const struct pv_group *g,
				struct perfev_mem_access *m)
{
	m->data_src = g->data_src;
	m->addr = g->daddr;
	m->phys_addr = g->phys_addr;
	m->data_page_size = g->data_page_size;
	m->dso = pv_strtab_get(&p->strs, g->daddr_dso);
	m->dso_addr = g->daddr_al;
	m->shared = g->daddr_shared;
}

static inline bool pv_node_is_group(const struct pv_node *n)
{
	return (n->what & PV_NODE_GROUP_BIT) != 0;
}
/* The name a frame is shown by: its symbol, or its address for unknown ones. */
const char *pv_frame_name(const struct perfev_profile *p, const struct pv_frame *f, char *buf,
			  size_t len);
/* The group (thread) node above node id, or 0 for the root. */
uint32_t pv_node_group(const struct perfev_profile *p, uint32_t id);
/* Fills the public view of a frame. */
void pv_frame_public(const struct perfev_profile *p, const struct pv_frame *f,
		     struct perfev_profile_frame *out);
/* Adds a stack (leaf first) with explicit values. */
int pv_profile_add_values(struct perfev_profile *p, const struct perfev_sample_desc *s,
			  const struct perfev_profile_frame *frames, size_t nr,
			  const uint64_t values[PERFEV_VALUE_NR], bool log);

/* The fast path of loaders that intern frames once and reuse their ids:
 * frame and group ids, then a stack of frame ids (leaf first). */
int pv_profile_intern_frame(struct perfev_profile *p, const struct perfev_profile_frame *f, uint32_t *id);
/* The same for a frame whose own samples are perf's entry self_symbol (NULL: its symbol). */
int pv_profile_intern_frame_self(struct perfev_profile *p, const struct perfev_profile_frame *f,
				 const char *self_symbol, uint32_t *id);
/* The same, with the size of the frame's symbol (perfev_location.symsize)
 * and where it starts in its object (pv_frame.sym_start; 0: unknown). */
int pv_profile_intern_frame_sized(struct perfev_profile *p, const struct perfev_profile_frame *f,
				  const char *self_symbol, uint64_t sym_size, uint64_t sym_start, uint32_t *id);
/* The copy of frame id marked cut (see pv_frame.cut), interned. */
int pv_profile_frame_cut(struct perfev_profile *p, uint32_t id, uint32_t *out);
/* Interns frame `id` of src (with its mapping and marks) into dst. */
int pv_profile_copy_frame(struct perfev_profile *dst, const struct perfev_profile *src, uint32_t id,
			  uint32_t *out);
int pv_profile_group_id(struct perfev_profile *p, const struct perfev_sample_desc *s, uint32_t *id);
int pv_profile_add_ids(struct perfev_profile *p, uint32_t group, const uint32_t *fids, size_t nr,
		       const uint64_t values[PERFEV_VALUE_NR], uint64_t time, bool log);
/* Whether the profile's filter accepts the sample (true without a filter). */
bool pv_profile_accepts(struct perfev_profile *p, const struct perfev_sample_desc *s,
			const struct perfev_profile_frame *frames, size_t nr, const uint64_t values[PERFEV_VALUE_NR]);

/* Where object dso (a frame's dso name) stands in perf's order of creation of
 * its dso structures (1 first), 0 when unknown. perf breaks ties between
 * call-graph siblings of different objects by those structures' heap
 * addresses, which follow that order. */
static inline uint32_t pv_profile_object_rank(const struct perfev_profile *p, const char *dso)
{
	return pv_strtab_find(&p->objs, dso);
}
/* A copy of p, everything included (profile_live.c); NULL with the error set. */
struct perfev_profile *pv_profile_clone(const struct perfev_profile *p);
/* Appends object name to p's order of creation (kept where it already is). */
int pv_profile_add_object(struct perfev_profile *p, const char *name);
/* Copies src's order of objects to dst (appended to what dst has). */
int pv_profile_copy_objects(struct perfev_profile *dst, const struct perfev_profile *src);

#endif
