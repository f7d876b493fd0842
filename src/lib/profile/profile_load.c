/* profile_load.c — perf.data to profile. Every record goes to the session
 * (threads, maps); samples of the chosen event become stacks: the
 * callchain's frames (kernel and user) and DWARF-unwound user frames for
 * REGS_USER + STACK_USER samples, each resolved by the symbolizer (inlined
 * frames expanded) through a cache keyed by (pid, address, flags) that holds
 * the profile's frame ids, so a frame seen in many samples is resolved and
 * interned once. */
#define _GNU_SOURCE
#include "profile/profile_int.h"
#include "profile/profile_load_int.h"
#include "core/opts.h"
#include "perfdata/perfdata_int.h"
#include "unwind/unwind_int.h"
#include "perfev.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>

#define MAX_RAW 1024    /* frames of one stack */
#define MAX_EXPANDED 32 /* frames one address may expand to (inlines) */

struct cent {
	uint64_t ip;
	int32_t pid;     /* -1 for kernel addresses */
	uint32_t flags;  /* resolve flags; 0x80000000: slot used */
	uint32_t off, n; /* ids[off .. off+n) */
	uint64_t symoff; /* of the address in its symbol (branch tables order symbols by start) */
};

/* A process's file mappings, for the DWARF unwinder, which wants them all
 * (the session answers one address at a time). Copies: paths interned in
 * the loader's own string table. */
struct pmaps {
	int32_t pid;
	struct perfev_map *maps;
	size_t nr, cap;
};

/* The group of a profile's previous sample: consecutive samples of a
 * thread (and process: old files give one tid two pids, swapper) under one
 * name on one CPU share it. */
struct group_cache {
	uint32_t tid, group; /* group 0: none yet */
	int32_t pid, cpu;
	const char *comm;    /* NULL after a COMM record: names changed */
};

/* One event's profile when every event is read: its frame ids are the
 * shared table's (the loader's p) translated through x (0: not yet). */
struct evp {
	struct perfev_profile *p;
	uint32_t *x;
	size_t xcap;
	uint64_t samples;
	struct group_cache last;
};

struct loader {
	const struct perfev_profile_load_opts *o;
	struct pv_time_range *times; /* o->time parsed */
	size_t nr_times;
	bool aux_seen;       /* the file holds a hardware trace (AUXTRACE_INFO, AUXTRACE), undecoded */
	uint64_t aux_bytes;  /* its size */
	uint32_t aux_type;   /* its AUXTRACE_INFO type */
	struct perfev_profile_load_info *info; /* a full one, copied to info_out's sz at the end */
	struct perfev_profile_load_info *info_out;
	struct perfev_profile *p;
	struct perfev_perfdata *pd;
	struct perfev_session *sess;
	struct perfev_symbolizer *sym;
	struct perfev_unwinder *unw;
	int event;
	size_t notes_seen;
	struct cent *cache;
	size_t ccap, cnr;
	uint32_t *ids;   /* the cache's frame ids */
	size_t inr, icap;
	uint32_t *stack; /* the sample being added */
	size_t scap;
	struct perfev_frame raw[MAX_RAW];
	/* the previous sample's frames and their ids (ids[off .. off+n)), for the
	 * outer frames the next sample of its process shares (prev_nr 0: none) */
	struct perfev_frame prev[MAX_RAW];
	uint32_t span_off[2][MAX_RAW], span_n[2][MAX_RAW]; /* [prev_set]: the previous sample's */
	int prev_set;
	size_t prev_nr;
	int32_t prev_pid;
	bool prev_dwarf;
	struct pmaps *procs;
	size_t nprocs, cap_procs;
	struct pv_strtab paths;
	bool foreign_kernel; /* recorded on another kernel: kallsyms here would lie */
	struct group_cache last; /* of the single profile (p) */
	bool oom;
	bool all;        /* every event: evs[attr_idx], p only holds the frames */
	struct evp *evs;
	size_t nevs;
	uint64_t last_symoff;        /* resolve()'s address in its symbol */
	pv_load_sample_fn sample_fn; /* set: samples go there instead (branch tables) */
	void *sample_ctx;
};

static struct evp *evp_for(struct loader *l, size_t idx)
{
	if (idx > 4096)
		return NULL; /* a corrupt attr index: perf files have a handful of events */
	if (idx >= l->nevs) {
		struct evp *n = realloc(l->evs, (idx + 1) * sizeof(*n));
		if (!n)
			return NULL;
		memset(n + l->nevs, 0, (idx + 1 - l->nevs) * sizeof(*n));
		l->evs = n;
		l->nevs = idx + 1;
	}
	struct evp *e = &l->evs[idx];
	if (!e->p) {
		e->p = perfev_profile_new(l->o->group, l->o->flags);
		if (e->p)
			perfev_profile_set_time_quantum(e->p, l->o->time_quantum);
		if (!e->p || (l->o->filter && perfev_profile_set_filter(e->p, l->o->filter) < 0))
			return NULL;
	}
	return e;
}

/* The stack's shared frame ids as e's own. */
static int translate(struct loader *l, struct evp *e, uint32_t *ids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t id = ids[i];
		if (id >= e->xcap) {
			size_t old = e->xcap;
			if (pv_grow(&e->x, &e->xcap, (size_t)id + 1, sizeof(*e->x)) < 0)
				return -ENOMEM;
			memset(e->x + old, 0, (e->xcap - old) * sizeof(*e->x));
		}
		if (!e->x[id] && pv_profile_copy_frame(e->p, l->p, id, &e->x[id]) < 0)
			return -ENOMEM;
		ids[i] = e->x[id];
	}
	return 0;
}

static void notes(struct loader *l)
{
	size_t n = perfev_symbolizer_nr_notes(l->sym);
	for (; l->notes_seen < n; l->notes_seen++)
		pv_note("%s", perfev_symbolizer_note(l->sym, l->notes_seen));
}

/* ---- the cache ---------------------------------------------------------------- */
static uint64_t chash(int32_t pid, uint64_t ip, uint32_t flags)
{
	uint64_t h = ip * 0x9e3779b97f4a7c15ull ^ ((uint64_t)(uint32_t)pid << 20) ^ flags;
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 29);
}

static struct cent *cache_slot(struct loader *l, int32_t pid, uint64_t ip, uint32_t flags)
{
	if ((l->cnr + 1) * 2 > l->ccap) {
		size_t ncap = l->ccap ? l->ccap * 2 : 4096;
		struct cent *n = calloc(ncap, sizeof(*n));
		if (!n)
			return NULL;
		for (size_t i = 0; i < l->ccap; i++) {
			struct cent *e = &l->cache[i];
			if (!e->flags)
				continue;
			size_t j = chash(e->pid, e->ip, e->flags) & (ncap - 1);
			while (n[j].flags)
				j = (j + 1) & (ncap - 1);
			n[j] = *e;
		}
		free(l->cache);
		l->cache = n;
		l->ccap = ncap;
	}
	uint32_t f = flags | 0x80000000u;
	size_t i = chash(pid, ip, f) & (l->ccap - 1);
	while (l->cache[i].flags) {
		struct cent *e = &l->cache[i];
		if (e->ip == ip && e->pid == pid && e->flags == f)
			return e;
		i = (i + 1) & (l->ccap - 1);
	}
	return &l->cache[i]; /* empty: the caller fills it */
}

/* Forget every resolution of pid (exec, new mappings); kernel ones stay. */
static void cache_forget(struct loader *l, int32_t pid)
{
	if (pid == l->prev_pid)
		l->prev_nr = 0;
	if (!l->cnr)
		return;
	bool any = false;
	for (size_t i = 0; i < l->ccap && !any; i++)
		any = l->cache[i].flags && l->cache[i].pid == pid;
	if (!any)
		return;
	/* rebuild without pid's entries (open addressing cannot just delete) */
	struct cent *old = l->cache;
	size_t ocap = l->ccap;
	l->cache = NULL;
	l->ccap = l->cnr = 0;
	for (size_t i = 0; i < ocap; i++) {
		if (!old[i].flags || old[i].pid == pid)
			continue;
		struct cent *e = cache_slot(l, old[i].pid, old[i].ip, old[i].flags & ~0x80000000u);
		if (!e) {
			l->oom = true;
			break;
		}
		*e = old[i];
		l->cnr++;
	}
	free(old);
}

/* ---- processes' maps ------------------------------------------------------------ */
static struct pmaps *proc(struct loader *l, int32_t pid, bool create)
{
	for (size_t i = 0; i < l->nprocs; i++)
		if (l->procs[i].pid == pid)
			return &l->procs[i];
	if (!create || pv_grow(&l->procs, &l->cap_procs, l->nprocs + 1, sizeof(*l->procs)) < 0)
		return NULL;
	struct pmaps *pm = &l->procs[l->nprocs++];
	memset(pm, 0, sizeof(*pm));
	pm->pid = pid;
	return pm;
}

static const char *module_name(struct loader *l, const char *path);
static bool is_anon(const char *path);

/* ---- perf's order of objects -------------------------------------------------------
 * perf report makes one dso structure per object, first those of the BUILD_ID
 * table (while reading the header, in the table's order), then one per new
 * name in MMAP records as it processes them (the kernel's at its first MMAP,
 * unless the table made it), and breaks ties between call-graph siblings of
 * different objects by the structures' addresses (match_chain_dso_addresses):
 * the profile keeps that order under the names frames give those objects. */
static const char *object_name(struct loader *l, bool kernel, const char *path, uint32_t prot, int32_t pid,
			       char *buf, size_t len)
{
	if (kernel && !strncmp(path, "[kernel.kallsyms]", 17))
		return "[kernel.kallsyms]";
	const char *mod = kernel ? module_name(l, path) : NULL;
	if (mod)
		return mod;
	/* anonymous executable memory is perf's /tmp/perf-PID.map, our "[JIT] tid PID" */
	bool no_dso = !strncmp(path, "[stack", 6) || !strncmp(path, "/SYSV", 5) || !strcmp(path, "[heap]");
	if (!kernel && (prot & PROT_EXEC) && (is_anon(path) || no_dso)) {
		snprintf(buf, len, "[JIT] tid %d", pid);
		return buf;
	}
	return path;
}

static int table_object(void *ctx, int32_t pid, uint16_t cpumode, const char *filename, const uint8_t *build_id,
			size_t len)
{
	(void)build_id, (void)len;
	struct loader *l = ctx;
	char buf[48];
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	if (filename && pv_profile_add_object(l->p, object_name(l, kernel, filename, 0, pid, buf, sizeof(buf))) < 0)
		l->oom = true;
	return 0;
}

static void side_band(struct loader *l, const struct perfev_record *rec)
{
	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
		/* MMAP records have no protection: perf takes them as executable unless data */
		uint32_t prot = rec->type == PERF_RECORD_MMAP2 ? rec->u.mmap.prot
				: rec->misc & PERF_RECORD_MISC_MMAP_DATA ? 0 : PROT_EXEC;
		char buf[48];
		const char *obj = object_name(l, kernel, rec->u.mmap.filename ? rec->u.mmap.filename : "//anon", prot,
					      (int32_t)rec->u.mmap.pid, buf, sizeof(buf));
		if (pv_profile_add_object(l->p, obj) < 0)
			l->oom = true;
		if (kernel)
			break;
		int32_t pid = (int32_t)rec->u.mmap.pid;
		struct pmaps *pm = proc(l, pid, true);
		uint32_t path = pv_strtab_intern(&l->paths, rec->u.mmap.filename ? rec->u.mmap.filename : "//anon");
		if (!pm || !path || pv_grow(&pm->maps, &pm->cap, pm->nr + 1, sizeof(*pm->maps)) < 0) {
			l->oom = true;
			break;
		}
		/* a new mapping hides what it overlaps: drop those (newest wins) */
		uint64_t lo = rec->u.mmap.addr, hi = lo + rec->u.mmap.len;
		size_t k = 0;
		for (size_t i = 0; i < pm->nr; i++)
			if (pm->maps[i].end <= lo || pm->maps[i].start >= hi)
				pm->maps[k++] = pm->maps[i];
		pm->nr = k;
		struct perfev_map *m = &pm->maps[pm->nr++];
		memset(m, 0, sizeof(*m));
		m->start = lo;
		m->end = hi;
		m->pgoff = rec->u.mmap.pgoff;
		m->path = pv_strtab_get(&l->paths, path);
		m->prot = rec->u.mmap.prot;
		m->flags = rec->u.mmap.flags;
		m->maj = rec->u.mmap.maj;
		m->min = rec->u.mmap.min;
		m->ino = rec->u.mmap.ino;
		m->ino_generation = rec->u.mmap.ino_generation;
		cache_forget(l, pid);
		break;
	}
	case PERF_RECORD_COMM:
		if (rec->misc & PERF_RECORD_MISC_COMM_EXEC) {
			struct pmaps *pm = proc(l, (int32_t)rec->u.comm.pid, false);
			if (pm)
				pm->nr = 0;
			cache_forget(l, (int32_t)rec->u.comm.pid);
			if (l->unw)
				perfev_unwinder_forget(l->unw, (int)rec->u.comm.pid);
		}
		l->last.comm = NULL;
		for (size_t i = 0; i < l->nevs; i++)
			l->evs[i].last.comm = NULL;
		break;
	case PERF_RECORD_FORK:
		if (rec->u.fork.pid != rec->u.fork.ppid) { /* a new process: it starts with the parent's maps */
			struct pmaps *parent = proc(l, (int32_t)rec->u.fork.ppid, false);
			struct pmaps *child = parent && parent->nr ? proc(l, (int32_t)rec->u.fork.pid, true) : NULL;
			parent = proc(l, (int32_t)rec->u.fork.ppid, false); /* proc() may have moved it */
			if (child && parent && pv_grow(&child->maps, &child->cap, parent->nr, sizeof(*child->maps)) == 0) {
				memcpy(child->maps, parent->maps, parent->nr * sizeof(*child->maps));
				child->nr = parent->nr;
			}
		}
		break;
	case PERF_RECORD_LOST:
		if (l->info)
			l->info->lost += rec->u.lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (l->info)
			l->info->lost_samples += rec->u.lost_samples.lost;
		break;
	case PERFEV_RECORD_AUXTRACE_INFO:
		l->aux_type = rec->u.auxtrace_info.type;
		l->aux_seen = true;
		break;
	case PERFEV_RECORD_AUXTRACE:
		l->aux_bytes += rec->u.auxtrace.size;
		l->aux_seen = true;
		break;
	}
}

/* A hardware trace (Intel PT, CoreSight...) is not decoded here: say that
 * the report holds the sampled events only, and what decodes it. */
static void aux_note(const struct loader *l, const char *path)
{
	static const char *const kinds[] = {"hardware", "Intel PT", "Intel BTS", "CoreSight ETM", "Arm SPE",
					    "s390 CPU-MSF", "HiSilicon PTT"};
	if (!l->aux_seen)
		return;
	const char *kind = l->aux_type < PV_ARRAY_SIZE(kinds) ? kinds[l->aux_type] : kinds[0];
	pv_note("%s holds %.1f MB of %s trace, which perfev does not decode: this report "
		"shows the sampled events only (perf report and perf script decode it, given the traced binaries)",
		path, (double)l->aux_bytes / 1048576.0, kind);
}

/* perf's name of a kernel module's map: "/lib/modules/.../ath9k.ko[.xz]" is
 * "[ath9k]" (dashes as underscores); NULL when path is no module. */
static const char *module_name(struct loader *l, const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	const char *ko = strstr(b, ".ko");
	if (!ko || ko == b || (ko[3] && ko[3] != '.'))
		return NULL;
	char name[256];
	int n = snprintf(name, sizeof(name), "[%.*s]", (int)PV_MIN((size_t)(ko - b), sizeof(name) - 3), b);
	for (int i = 0; i < n; i++)
		if (name[i] == '-')
			name[i] = '_';
	return pv_strtab_get(&l->paths, pv_strtab_intern(&l->paths, name));
}

/* perf's anonymous memory (is_anon_memory, and JIT maps) */
static bool is_anon(const char *path)
{
	return !strcmp(path, "//anon") || !strncmp(path, "/dev/zero", 9) || !strncmp(path, "/anon_hugepage", 14) ||
	       !strncmp(path, "/tmp/perf-", 10);
}

/* ---- stacks ----------------------------------------------------------------------- */
/* The frame ids for one address (several when inlined functions expand it). */
/* perf names a frame-pointer chain's return addresses as they are (the
 * instruction after the call) and a DWARF-unwound one's by pc - 1: `dwarf`
 * says which this frame is. */
static int resolve(struct loader *l, int32_t pid, uint32_t tid, const struct perfev_frame *f, bool dwarf,
		   uint8_t cpumode, uint64_t time, uint32_t *off, uint32_t *n)
{
	unsigned flags = 0;
	if (!l->o->no_inline && !l->o->no_callchain && (dwarf || !l->o->inline_dwarf_only))
		flags |= PERFEV_RESOLVE_INLINE; /* (leaf only: self goes to the symbol anyway) */
	if (l->o->srclines)
		flags |= PERFEV_RESOLVE_SRCLINE;
	flags |= l->o->no_demangle ? PERFEV_RESOLVE_NO_DEMANGLE : l->o->demangle_params ? 0 : PERFEV_RESOLVE_NO_PARAMS;
	if (f->return_addr && dwarf)
		flags |= PERFEV_RESOLVE_RETURN_ADDR;
	int32_t key = f->kernel ? -1 : pid;
	struct cent *e = cache_slot(l, key, f->ip, flags);
	if (!e)
		return -ENOMEM;
	if (e->flags) {
		*off = e->off;
		*n = e->n;
		l->last_symoff = e->symoff;
		return 0;
	}
	struct perfev_location loc;
	memset(&loc, 0, sizeof(loc));
	if (f->kernel) {
		/* only where the recording mapped kernel text (as perf): another
		 * machine's addresses must not take this kernel's names */
		const struct perfev_map *km =
			perfev_session_find_map(l->sess, (uint32_t)pid, tid, PERF_RECORD_MISC_KERNEL, f->ip, time);
		if (km && !l->foreign_kernel)
			perfev_symbolizer_resolve_recorded_kernel(l->sym, km, f->ip, flags, &loc);
		if (!loc.symbol) {
			/* unresolved (or not looked up): named by the recorded map */
			loc.ip = f->ip, loc.rel_ip = f->ip, loc.dso = NULL;
			/* the recorded map still names the object ("[kernel.kallsyms]_text": perf's) */
			if (km && km->path && !strncmp(km->path, "[kernel.kallsyms]", 17))
				loc.dso = "[kernel.kallsyms]";
			else if (km && km->path && (loc.dso = module_name(l, km->path))) {
				loc.rel_ip = f->ip - km->start + km->pgoff; /* perf: module-relative */
				if (l->o->flags & PERFEV_PROFILE_KEEP_ADDR)
					loc.map = km; /* (its start: perf's addr key, see pv_chain_addr) */
			}
			else if (km && km->path)
				loc.dso = km->path;
		}
	} else {
		const struct perfev_map *m = perfev_session_find_map(l->sess, (uint32_t)pid, tid, cpumode,
								     f->ip, time);
		if (m) /* no map recorded there: unknown, as perf shows it */
			perfev_symbolizer_resolve(l->sym, pid, m, f->ip, flags, &loc);
		else
			loc.ip = f->ip, loc.rel_ip = f->ip;
		/* an address no symbol holds: perf names it by map__map_ip, the
		 * offset in the file (ip - start + pgoff), not the ELF address
		 * (they differ in an ET_EXEC: /usr/bin/python3.11's 0x7b759 is
		 * its address 0x47b759) */
		if (m && !loc.symbol && m->path && !is_anon(m->path) && loc.dso && strcmp(loc.dso, "[unknown]"))
			loc.rel_ip = f->ip - m->start + m->pgoff;
		if (m && m->path && is_anon(m->path) && (!loc.dso || !strcmp(loc.dso, "[unknown]") ||
							 !strncmp(loc.dso, "/tmp/perf-", 10))) {
			/* perf: anonymous memory is the JIT map /tmp/perf-PID.map, "[JIT] tid PID" */
			char name[48];
			snprintf(name, sizeof(name), "[JIT] tid %d", pid);
			loc.dso = pv_strtab_get(&l->paths, pv_strtab_intern(&l->paths, name));
			if (!loc.symbol)
				loc.rel_ip = f->ip;
		}
		/* perf's entry of a DWARF-unwound return address is at pc - 1 (its
		 * libdwfl frames): where no symbol names it, that address is shown */
		if (!loc.symbol && (flags & PERFEV_RESOLVE_RETURN_ADDR))
			loc.ip -= 1, loc.rel_ip -= 1;
	}
	if (!loc.dso)
		loc.dso = "[unknown]";
	loc.kernel = loc.kernel || f->kernel;
	notes(l);
	struct perfev_profile_frame fr[MAX_EXPANDED];
	size_t nf = perfev_frames_from_location(&loc, l->o->srclines, fr, MAX_EXPANDED);
	if (nf > MAX_EXPANDED)
		nf = MAX_EXPANDED;
	const char *dwarf_name = loc.nr_lines ? loc.lines[loc.nr_lines - 1].function : NULL;
	const char *self_name = NULL; /* the renamed function's samples: perf's entry is the ELF symbol */
	if ((flags & PERFEV_RESOLVE_INLINE) && nf == loc.nr_lines && dwarf_name && loc.symbol &&
	    strcmp(dwarf_name, loc.symbol) != 0 && (l->o->inline_dwarf_only || strncmp(dwarf_name, "__GI_", 5) != 0)) {
		/* perf names the function by its DWARF name when that differs from
		 * the ELF symbol (an alias: __libc_start_main for
		 * __libc_start_main_impl) and marks it "(inlined)"; so do we */
		char *name;
		if (asprintf(&name, "%s (inlined)", dwarf_name) < 0)
			return -ENOMEM;
		fr[nf - 1].symbol = pv_strtab_get(&l->paths, pv_strtab_intern(&l->paths, name));
		free(name);
		if (!fr[nf - 1].symbol)
			return -ENOMEM;
		self_name = loc.symbol;
	}
	if (l->o->srclines && !loc.nr_lines && loc.symbol && nf == 1) {
		/* no line information: perf's srcline is "symbol+offset" (decimal) */
		char *sl;
		if (asprintf(&sl, "%s+%llu", loc.symbol, (unsigned long long)loc.symoff) < 0)
			return -ENOMEM;
		fr[0].srcfile = pv_strtab_get(&l->paths, pv_strtab_intern(&l->paths, sl));
		free(sl);
		if (!fr[0].srcfile)
			return -ENOMEM;
	}
	if (pv_grow(&l->ids, &l->icap, l->inr + nf, sizeof(*l->ids)) < 0)
		return -ENOMEM;
	/* (every frame of one address is in one ELF symbol: perf keys by its start) */
	uint64_t sym_start = loc.symbol ? loc.rel_ip - loc.symoff : 0;
	for (size_t i = 0; i < nf; i++)
		if (pv_profile_intern_frame_sized(l->p, &fr[i], i == nf - 1 ? self_name : NULL,
						  i == nf - 1 && loc.symbol ? loc.symsize : 0, sym_start,
						  &l->ids[l->inr + i]) < 0)
			return -ENOMEM;
	/* the table may have grown: look the slot up again */
	e = cache_slot(l, key, f->ip, flags);
	if (!e)
		return -ENOMEM;
	e->ip = f->ip;
	e->pid = key;
	e->flags = flags | 0x80000000u;
	e->off = (uint32_t)l->inr;
	e->n = (uint32_t)nf;
	e->symoff = l->last_symoff = loc.symbol ? loc.symoff : 0;
	l->inr += nf;
	l->cnr++;
	*off = e->off;
	*n = e->n;
	return 0;
}

/* perf's [k]/[.] of a frame outside any map: fill_callchain_info leaves
 * its addr_location's level as the cursor's previous entry set it, starting
 * from the sample's own cpumode. The cursor runs root..leaf in caller order
 * (the leaf keeps its own: it is the sample's entry), leaf..root in callee
 * order. The stack's such frames get that level. */
static int unmapped_levels(struct loader *l, bool level, size_t depth, bool callee)
{
	struct perfev_profile *p = l->p;
	uint32_t unknown = 0;
	for (size_t k = callee ? 0 : 1; k < depth; k++) {
		size_t i = callee ? k : depth - k;
		const struct pv_frame *f = &p->frames[l->stack[i]];
		if (f->sym || f->file) {
			level = f->kernel;
			continue;
		}
		if (!unknown && !(unknown = pv_strtab_intern(&p->strs, "[unknown]")))
			return -ENOMEM;
		if (f->dso != unknown) {
			level = f->kernel;
			continue;
		}
		if (f->kernel == level)
			continue;
		struct perfev_profile_frame pub;
		pv_frame_public(p, f, &pub);
		pub.kernel = level;
		if (pv_profile_intern_frame(p, &pub, &l->stack[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

/*
 * perf's --max-stack (thread__resolve_callchain_sample: at most max entries
 * of the chain, markers not counted, walked in the report's order; the DWARF
 * unwinder: the innermost max of the user stack). raw: leaf first, its last
 * `dwarf` frames unwound (dwarf < 0: none). Returns the new count; *cut:
 * raw[0] is the sampled address kept for the sample's own entry only (the
 * outermost max in caller order, where perf's chain lacks it).
 */
static size_t max_stack_cut(struct perfev_frame *raw, size_t n, int dwarf, int max, bool outer, bool *cut)
{
	*cut = false;
	if (max < 0)
		return n;
	size_t m = (size_t)max, unw = dwarf > 0 ? (size_t)dwarf : 0, chain = n - unw;
	if (unw > m) /* the unwound user stack: its innermost m */
		unw = m;
	if (chain > m) {
		if (outer && m > 0) {
			/* the outermost m, after the sampled address (see *cut) */
			memmove(raw + 1, raw + chain - m, m * sizeof(*raw));
			chain = m + 1;
			*cut = true;
		} else {
			chain = m;
		}
		memmove(raw + chain, raw + (n - (dwarf > 0 ? (size_t)dwarf : 0)), unw * sizeof(*raw));
	}
	return chain + unw;
}

/* The sample's process: its pid, or (no PERF_SAMPLE_TID) its thread's. */
static int32_t sample_pid(struct loader *l, const struct perfev_sample *s)
{
	if (s->sample_type & PERF_SAMPLE_TID)
		return (int32_t)s->pid;
	return (int32_t)perfev_session_thread_pid(l->sess, s->tid);
}

/* The sample's stack (l->stack[0..depth), leaf first) with its values into
 * its event's profile (ep, else l->p): the filter, the thread's group, the
 * tree. 0 or -ENOMEM. */
static int add_stack(struct loader *l, struct evp *ep, const struct perfev_sample_desc *d, size_t depth,
		     const uint64_t values[PERFEV_VALUE_NR])
{
	struct perfev_profile *p = ep ? ep->p : l->p;
	if (p->has_filter) {
		/* filters see the frames by value: expand ids back (filtered runs only) */
		struct perfev_profile_frame *fr = calloc(depth, sizeof(*fr));
		if (!fr)
			return -ENOMEM;
		for (size_t i = 0; i < depth; i++)
			pv_frame_public(l->p, &l->p->frames[l->stack[i]], &fr[i]);
		bool ok = pv_profile_accepts(p, d, fr, depth, values);
		free(fr);
		if (!ok)
			return 0;
	}
	if (ep && translate(l, ep, l->stack, depth) < 0)
		return -ENOMEM;
	struct group_cache *c = ep ? &ep->last : &l->last;
	uint32_t tid = (uint32_t)d->tid;
	if (tid != c->tid || d->pid != c->pid || d->comm != c->comm || d->cpu != c->cpu || !c->group ||
	    (p->flags & PV_PROFILE_SAMPLE_KEYS)) {
		if (pv_profile_group_id(p, d, &c->group) < 0)
			return -ENOMEM;
		c->tid = tid;
		c->pid = d->pid;
		c->comm = d->comm;
		c->cpu = d->cpu;
	}
	return pv_profile_add_ids(p, c->group, l->stack, depth, values, d->time,
				  p->flags & PERFEV_PROFILE_KEEP_SAMPLES) < 0 ? -ENOMEM : 0;
}

/* PERFEV_PROFILE_BRANCH_TARGETS: every branch of the sample's stack a
 * sample of value 1 (perf's pseudo period), its frame the target as perf's
 * iter_next_branch_entry makes the entry's: map and symbol the target's
 * (machine__resolve_bstack: the process's maps, then the kernel's), address
 * the target's as recorded, level the sample's. */
static int branch_targets(struct loader *l, struct evp *ep, const struct perfev_sample *s,
			  const struct perfev_sample_desc *d, bool kernel_ip)
{
	if (!(s->sample_type & PERF_SAMPLE_BRANCH_STACK))
		return 0;
	if (pv_grow(&l->stack, &l->scap, 1, sizeof(*l->stack)) < 0)
		return -ENOMEM;
	for (uint64_t i = 0; i < s->branch_nr; i++) {
		uint64_t to = s->branches[i].to, symoff;
		struct perfev_profile_frame f;
		char level;
		if (pv_load_addr(l, d->pid, (uint32_t)d->tid, to, s->time, &f, &level, &symoff) < 0)
			return -ENOMEM;
		f.kernel = kernel_ip;
		if (!f.dso)
			f.dso = "[unknown]";
		if (!f.symbol)
			f.ip = f.rel_ip = to; /* perf: al->addr, the address as recorded */
		if (pv_profile_intern_frame(l->p, &f, &l->stack[0]) < 0)
			return -ENOMEM;
		if (ep)
			ep->samples++;
		if (l->info)
			l->info->samples++;
		uint64_t cycles = s->branches[0].flags >> 4 & 0xffff; /* perf: the first branch's */
		uint64_t values[PERFEV_VALUE_NR] = {1, 1, cycles ? cycles : 1};
		if (add_stack(l, ep, d, 1, values) < 0)
			return -ENOMEM;
	}
	return 0;
}

/* perf's mem_info of a sample (sample__resolve_mem): the data address's
 * map in the sample's mode, the address in its terms (kernel maps are the
 * identity), whether it is shared file data ([s] in dcacheline). */
static void mem_access(struct loader *l, const struct perfev_sample *s, int32_t pid, uint8_t cpumode,
		       struct perfev_mem_access *m)
{
	memset(m, 0, sizeof(*m));
	m->data_src = s->data_src;
	m->addr = s->addr;
	m->phys_addr = s->phys_addr;
	m->data_page_size = s->data_page_size;
	m->dso_addr = s->addr;
	const struct perfev_map *map = perfev_session_find_map(l->sess, (uint32_t)pid, s->tid, cpumode, s->addr,
								s->time);
	if (!map)
		return;
	m->dso = map->path;
	/* perf's map__new: anonymous and [stack]/[heap]/SYSV memory, like the
	 * kernel's, is mapped as the identity */
	const char *n = map->path;
	bool identity = map->kernel || !strcmp(n, "//anon") || !strncmp(n, "/dev/zero", 9) ||
			!strncmp(n, "/anon_hugepage", 14) || !strncmp(n, "[stack", 6) || !strncmp(n, "/SYSV", 5) ||
			!strcmp(n, "[heap]");
	if (!identity)
		m->dso_addr = s->addr - map->start + map->pgoff;
	m->shared = cpumode != PERF_RECORD_MISC_KERNEL && !(map->prot & PROT_EXEC) && (map->flags & MAP_SHARED) &&
		    (map->maj || map->min || map->ino || map->ino_generation);
}

static int sample(struct loader *l, const struct perfev_record *rec)
{
	const struct perfev_sample *s = &rec->u.sample;
	struct evp *ep = NULL;
	if (l->sample_fn)
		return l->sample_fn(l->sample_ctx, l, rec, sample_pid(l, s));
	if (l->o->cpus && !perfev_cpus_has(l->o->cpus, (int)s->cpu))
		return 0; /* perf report -C: as if never recorded */
	if (l->nr_times && !pv_time_ranges_have(l->times, l->nr_times, s->time))
		return 0; /* perf report --time: so too */
	if (l->all) {
		if (!(ep = evp_for(l, rec->attr_idx)))
			return -ENOMEM;
	} else if (rec->attr_idx != l->event) {
		if (l->info)
			l->info->other_samples++;
		return 0;
	}
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel_ip = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	int32_t pid = sample_pid(l, s);
	const char *comm = perfev_session_comm(l->sess, s->tid);
	struct perfev_sample_desc d = {.sz = sizeof(d), .pid = pid, .tid = (int32_t)s->tid,
				       .comm = comm, .time = s->time, .period = s->period,
				       .weight = s->weight,
				       .cpu = -1, .ip = s->ip};
	if (s->sample_type & PERF_SAMPLE_WEIGHT_STRUCT) {
		/* perf (x86): var1_dw the weight, var2_w the instruction latency;
		 * var3_w is powerpc's pipeline stage cycles */
		d.weight = s->weight & 0xffffffffu;
		d.ins_lat = (s->weight >> 32) & 0xffff;
		d.p_stage_cyc = s->weight >> 48;
	}
	/* (only when kept: else the group cache below never misses for it) */
	if ((l->o->flags & PERFEV_PROFILE_KEEP_CPU) && (s->sample_type & PERF_SAMPLE_CPU))
		d.cpu = (int32_t)s->cpu;
	if (l->o->flags & PERFEV_PROFILE_BRANCH_TARGETS) /* (its branches are the samples) */
		return branch_targets(l, ep, s, &d, kernel_ip);
	struct pmaps *pm = proc(l, pid, false);
	struct pv_unwind_maps um = {.maps = pm ? pm->maps : NULL, .nr_maps = pm ? pm->nr : 0,
				    .symbolizer = l->sym};
	int dwarf;
	struct perfev_unwind_stats before = {0}, after = {0};
	if (l->unw)
		perfev_unwinder_stats(l->unw, &before);
	size_t n = pv_sample_frames(&l->unw, s, pid, &um, !l->o->no_callchain, l->raw, MAX_RAW, &dwarf);
	if (dwarf >= 0 && l->info) {
		if (l->unw)
			perfev_unwinder_stats(l->unw, &after);
		l->info->dwarf_samples++;
		l->info->dwarf_to_root += after.to_root - before.to_root;
	}
	bool cut = false;
	if (n == 0) {
		l->raw[0] = (struct perfev_frame){.ip = s->ip, .kernel = kernel_ip};
		n = 1;
	} else {
		n = max_stack_cut(l->raw, n, dwarf, l->o->max_stack, l->o->max_stack_outer, &cut);
	}
	/* the outer frames this sample shares with the previous one of its
	 * process: their ids are what the cache would answer */
	size_t shared = 0;
	/* (inlined frames are expanded in DWARF-unwound chains only) */
	if (l->prev_nr && l->prev_pid == pid && l->prev_dwarf == (dwarf > 0))
		while (shared < n && shared < l->prev_nr) {
			const struct perfev_frame *a = &l->raw[n - 1 - shared], *b = &l->prev[l->prev_nr - 1 - shared];
			if (a->ip != b->ip || a->kernel != b->kernel || a->return_addr != b->return_addr)
				break;
			shared++;
		}
	size_t depth = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t off, nf;
		uint8_t mode = l->raw[i].kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
		if (i >= n - shared) {
			size_t j = l->prev_nr - (n - i);
			off = l->span_off[l->prev_set][j];
			nf = l->span_n[l->prev_set][j];
		} else if (resolve(l, pid, s->tid, &l->raw[i], dwarf > 0 && !l->raw[i].kernel, mode, s->time,
				   &off, &nf) < 0) {
			l->prev_nr = 0;
			return -ENOMEM;
		}
		l->span_off[!l->prev_set][i] = off;
		l->span_n[!l->prev_set][i] = nf;
		if (pv_grow(&l->stack, &l->scap, depth + nf, sizeof(*l->stack)) < 0)
			return -ENOMEM;
		memcpy(l->stack + depth, l->ids + off, nf * sizeof(*l->stack));
		depth += nf;
	}
	memcpy(l->prev, l->raw, n * sizeof(*l->prev));
	l->prev_nr = n;
	l->prev_pid = pid;
	l->prev_dwarf = dwarf > 0;
	l->prev_set = !l->prev_set;
	if (l->o->hide_unresolved) { /* perf's -U */
		if (!l->p->frames[l->stack[0]].sym)
			return 0; /* as if never recorded */
		size_t kept = 0;
		for (size_t i = 0; i < depth; i++)
			if (l->p->frames[l->stack[i]].sym)
				l->stack[kept++] = l->stack[i];
		depth = kept;
	}
	if (ep)
		ep->samples++;
	if (l->info)
		l->info->samples++;
	if (unmapped_levels(l, kernel_ip, depth, l->o->unmapped_levels_callee) < 0)
		return -ENOMEM;
	/* the sampled address under a caller-order cut: its frames (the leaf's
	 * span) are the sample's own entry, outside its call chain */
	for (uint32_t i = 0; cut && i < l->span_n[l->prev_set][0]; i++)
		if (pv_profile_frame_cut(l->p, l->stack[i], &l->stack[i]) < 0)
			return -ENOMEM;
	uint64_t period = s->period;
	if (!(s->sample_type & PERF_SAMPLE_PERIOD)) {
		/* a fixed period not in the samples: perf takes the attr's */
		const struct perfev_attr *attr = perfev_perfdata_event_attr(l->pd, rec->attr_idx);
		if (attr && !attr->freq)
			period = attr->sample_period;
	}
	uint64_t values[PERFEV_VALUE_NR] = {1, period ? period : 1, d.weight};
	struct perfev_mem_access mem;
	if (l->o->flags & PERFEV_PROFILE_KEEP_MEM) {
		mem_access(l, s, pid, cpumode, &mem);
		d.mem = &mem;
		values[PERFEV_VALUE_WEIGHT] = d.weight ? d.weight : 1; /* perf --mem-mode's cost */
	}
	return add_stack(l, ep, &d, depth, values);
}

static int on_record(void *ctx, const struct perfev_record *rec)
{
	struct loader *l = ctx;
	if (perfev_session_process(l->sess, rec) < 0)
		return -ENOMEM;
	if (rec->type == PERF_RECORD_SAMPLE)
		return sample(l, rec);
	side_band(l, rec);
	return l->oom ? -ENOMEM : 0;
}

static void no_event(const char *path, int event, size_t nev)
{
	if (!nev)
		pv_error(EINVAL, "%s: no events recorded (an empty or truncated recording?)", path);
	else
		pv_error(EINVAL, "%s: no event %d (the file has %zu; choose one with --event 0..%zu)", path,
			 event, nev, nev - 1);
}

/* What info says about the event (once its attr is known). */
static void event_info(struct loader *l)
{
	if (!l->info || l->info->event_name[0] || (size_t)l->event >= perfev_perfdata_nr_events(l->pd))
		return;
	const struct perfev_attr *attr = perfev_perfdata_event_attr(l->pd, (size_t)l->event);
	l->info->has_callchains = attr && (attr->sample_type & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER));
	const char *name = perfev_perfdata_event_name(l->pd, (size_t)l->event);
	snprintf(l->info->event_name, sizeof(l->info->event_name), "%s", name ? name : "unknown");
}

/* GROUP_DESC: u32 nr, then per group: string name, u32 leader, u32 members.
 * Marks each event's leader; a malformed section is ignored. */
static uint32_t rd32(const uint8_t *p, bool swap)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static void group_desc(struct perfev_perfdata *pd, struct perfev_profile_event *ev, size_t nev)
{
	for (size_t i = 0; i < nev; i++) {
		ev[i].leader = (int)i;
		ev[i].nr_members = 1;
	}
	size_t size = 0;
	const uint8_t *p = perfev_perfdata_has_feature(pd, PERFEV_FEAT_GROUP_DESC)
				   ? perfev_perfdata_feature(pd, PERFEV_FEAT_GROUP_DESC, &size) : NULL;
	bool swap = perfev_perfdata_is_swapped(pd);
	if (!p || size < 4)
		return;
	const uint8_t *end = p + size;
	uint32_t nr = rd32(p, swap);
	p += 4;
	for (uint32_t g = 0; g < nr && end - p >= 4; g++) {
		uint32_t len = rd32(p, swap);
		p += 4;
		if (len > (size_t)(end - p) || end - p - len < 8)
			return;
		const char *name = (const char *)p;
		p += len;
		uint32_t leader = rd32(p, swap), members = rd32(p + 4, swap);
		p += 8;
		if (leader >= nev || members < 1 || members > nev - leader)
			continue;
		ev[leader].nr_members = (int)members;
		size_t nl = strnlen(name, len);
		if (nl && strncmp(name, "{anon_group}", nl) != 0)
			snprintf(ev[leader].group_name, sizeof(ev[leader].group_name), "%.*s", (int)nl, name);
		for (uint32_t m = 1; m < members; m++) {
			ev[leader + m].leader = (int)leader;
			ev[leader + m].nr_members = 0;
		}
	}
}

/* Each group's thread's name at the end of the file: perf sizes the Command
 * column by it (thread__comm_len), e.g. "bash" for a thread whose samples
 * were taken as "pyenv-version-f" before the script's interpreter's exec. */
static void thread_comms(struct loader *l, struct perfev_profile *p)
{
	for (size_t i = 1; p && i < p->nr_groups; i++) {
		struct pv_group *g = &p->groups[i];
		const char *c = g->tid >= 0 ? perfev_session_comm(l->sess, (uint32_t)g->tid) : NULL;
		g->thread_comm = c ? pv_strtab_intern(&p->strs, c) : 0;
		c = g->pid >= 0 ? perfev_session_comm(l->sess, (uint32_t)g->pid) : NULL;
		g->process_comm = c ? pv_strtab_intern(&p->strs, c) : 0;
	}
}

/* The file's socket of each CPU, for every profile (after the records: a
 * pipe's features come as records). 0 or -ENOMEM. */
static int cpu_sockets(struct loader *l)
{
	int n = perfev_perfdata_cpu_sockets(l->pd, NULL, 0);
	if (n <= 0)
		return 0;
	int32_t *t = malloc((size_t)n * sizeof(*t));
	if (!t)
		return -ENOMEM;
	perfev_perfdata_cpu_sockets(l->pd, t, (size_t)n);
	int r = perfev_profile_set_sockets(l->p, t, (size_t)n);
	for (size_t i = 0; r == 0 && i < l->nevs; i++) /* (events without samples have none yet) */
		r = l->evs[i].p ? perfev_profile_set_sockets(l->evs[i].p, t, (size_t)n) : 0;
	free(t);
	return r;
}


/* Reads the file into l (l->all: every event, else l->event). 0 or -1 with the error set. */
static int load(struct loader *l, const char *path, struct perfev_profile_load_opts *o)
{
	l->pd = perfev_perfdata_open(path);
	if (!l->pd)
		return -1; /* its message says what is wrong with the file */
	size_t nev = perfev_perfdata_nr_events(l->pd);
	l->event = o->event < 0 || l->all ? 0 : o->event;
	/* a pipe announces its events as records: check them once read */
	if (!perfev_perfdata_is_pipe(l->pd) && (!nev || (size_t)l->event >= nev)) {
		no_event(path, l->event, nev);
		return -1;
	}
	event_info(l);
	if (o->cpus && pv_perfdata_check_cpu_filter(l->pd, path, o->cpus) < 0)
		return -1;
	if (o->time && pv_time_ranges_parse(o->time, &l->times, &l->nr_times) < 0)
		return -1;
	/* Another kernel's recording: its addresses are not this kernel's (the
	 * kernel build-id tells, else the release), unless the caller hands us
	 * that kernel's kallsyms. */
	if (!o->kallsyms && !perfev_perfdata_kernel_is_running(l->pd)) {
		l->foreign_kernel = true;
		const char *rel = perfev_perfdata_feature_str(l->pd, PERFEV_FEAT_OSRELEASE);
		pv_note("%s was recorded on another kernel (%s): kernel addresses "
			"stay unresolved; give that kernel's symbols with --kallsyms FILE", path,
			rel ? rel : "its build-id differs from this one's");
	}
	struct perfev_symbolizer_opts so = {.sz = sizeof(so), .kallsyms = o->kallsyms, .symfs = o->symfs,
					    .no_cache = o->no_cache};
	l->p = perfev_profile_new(o->group, o->flags);
	if (l->p)
		perfev_profile_set_time_quantum(l->p, o->time_quantum);
	l->sess = perfev_session_new();
	l->sym = perfev_symbolizer_new(&so);
	if (!l->p || !l->sess || !l->sym) {
		pv_error(ENOMEM, "profile_load: out of memory");
		return -1;
	}
	perfev_session_add_build_ids(l->sess, l->pd); /* maps recorded without build-ids get them */
	perfev_perfdata_build_ids(l->pd, table_object, l); /* perf's first objects */
	if (!l->all && o->filter && perfev_profile_set_filter(l->p, o->filter) < 0)
		return -1;
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro), .keep_going = true};
	int r = perfev_perfdata_process(l->pd, &ro, on_record, l);
	if (r == -ENOMEM || l->oom) {
		pv_error(ENOMEM, "profile_load: out of memory reading %s", path);
		return -1;
	}
	if (r < 0)
		return -1; /* the reader's message */
	aux_note(l, path);
	thread_comms(l, l->p);
	for (size_t i = 0; i < l->nevs; i++)
		thread_comms(l, l->evs[i].p);
	if ((o->flags & PERFEV_PROFILE_KEEP_CPU) && cpu_sockets(l) < 0) {
		pv_error(ENOMEM, "profile_load: out of memory reading %s", path);
		return -1;
	}
	nev = perfev_perfdata_nr_events(l->pd);
	if ((size_t)l->event >= nev) {
		no_event(path, l->event, nev);
		return -1;
	}
	event_info(l);
	return 0;
}

/* The loader fills a full info (full); loader_free copies what the
 * caller's sz holds of it into info. */
static int info_init(struct loader *l, struct perfev_profile_load_info *info,
		     struct perfev_profile_load_info *full)
{
	if (!info)
		return 0;
	if (!PV_OPTS_VALID(info, perfev_profile_load_info))
		return -EINVAL;
	memset(full, 0, sizeof(*full));
	full->sz = sizeof(*full);
	l->info = full;
	l->info_out = info;
	return 0;
}

static void info_done(struct loader *l)
{
	if (!l->info_out)
		return;
	size_t sz = l->info_out->sz;
	memcpy(l->info_out, l->info, PV_MIN(sz, sizeof(*l->info)));
	l->info_out->sz = sz;
}

static void loader_free(struct loader *l)
{
	info_done(l);
	perfev_profile_free(l->p);
	perfev_session_free(l->sess);
	perfev_symbolizer_free(l->sym);
	perfev_unwinder_free(l->unw);
	perfev_perfdata_close(l->pd);
	free(l->times);
	for (size_t i = 0; i < l->nprocs; i++)
		free(l->procs[i].maps);
	free(l->procs);
	free(l->cache);
	free(l->ids);
	free(l->stack);
	for (size_t i = 0; i < l->nevs; i++) {
		perfev_profile_free(l->evs[i].p);
		free(l->evs[i].x);
	}
	free(l->evs);
	pv_strtab_free(&l->paths);
}

static int opts_init(struct perfev_profile_load_opts *o, const struct perfev_profile_load_opts *o0)
{
	if (!PV_OPTS_VALID(o0, perfev_profile_load_opts))
		return -EINVAL;
	PV_OPTS_COPY(*o, o0);
	o->event = PV_OPTS_GET(o0, event, -1);
	if (o->max_stack == 0) /* perf report's default: its report.max_stack = PERF_MAX_STACK_DEPTH */
		o->max_stack = 127;
	return 0;
}

PERFEV_API struct perfev_profile *perfev_profile_load(const char *path,
						      const struct perfev_profile_load_opts *o0,
						      struct perfev_profile_load_info *info)
{
	struct perfev_profile_load_opts o;
	if (opts_init(&o, o0) < 0)
		return NULL;
	struct perfev_profile_load_info full;
	struct loader l = {.o = &o};
	if (info_init(&l, info, &full) < 0)
		return NULL;
	struct perfev_profile *ret = NULL;
	if (load(&l, path, &o) == 0) {
		ret = l.p;
		l.p = NULL;
	}
	loader_free(&l);
	return ret;
}

PERFEV_API struct perfev_profile_event *perfev_profile_load_events(const char *path,
								   const struct perfev_profile_load_opts *o0,
								   struct perfev_profile_load_info *info,
								   size_t *nr)
{
	*nr = 0;
	struct perfev_profile_load_opts o;
	if (opts_init(&o, o0) < 0)
		return NULL;
	struct perfev_profile_load_info full;
	struct loader l = {.o = &o, .all = true};
	if (info_init(&l, info, &full) < 0)
		return NULL;
	struct perfev_profile_event *ev = NULL;
	if (load(&l, path, &o) < 0)
		goto out;
	size_t nev = perfev_perfdata_nr_events(l.pd);
	ev = calloc(nev, sizeof(*ev));
	bool ok = ev != NULL;
	for (size_t i = 0; ok && i < nev; i++) /* every event gets a profile, empty or not */
		ok = evp_for(&l, i) != NULL && pv_profile_copy_objects(l.evs[i].p, l.p) == 0;
	if (!ok) {
		free(ev);
		ev = pv_error_null(ENOMEM, "profile_load: out of memory");
		goto out;
	}
	for (size_t i = 0; i < nev; i++) {
		const struct perfev_attr *attr = perfev_perfdata_event_attr(l.pd, i);
		const char *name = perfev_perfdata_event_name(l.pd, i);
		snprintf(ev[i].name, sizeof(ev[i].name), "%s", name ? name : "unknown");
		ev[i].has_callchains = attr && (attr->sample_type & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER));
		ev[i].samples = l.evs[i].samples;
		ev[i].profile = l.evs[i].p;
		l.evs[i].p = NULL;
	}
	group_desc(l.pd, ev, nev);
	*nr = nev;
out:
	loader_free(&l);
	return ev;
}

/* ---- for other loaders (profile_load_int.h) ------------------------------------- */
int pv_profile_load_run(const char *path, const struct perfev_profile_load_opts *o0,
			struct perfev_profile_load_info *info, pv_load_sample_fn fn, pv_load_done_fn done,
			void *ctx)
{
	struct perfev_profile_load_opts o;
	if (opts_init(&o, o0) < 0)
		return -1;
	o.event = -1;
	o.no_inline = true; /* one frame per address: the function's own symbol */
	struct perfev_profile_load_info full;
	struct loader l = {.o = &o, .sample_fn = fn, .sample_ctx = ctx};
	if (info_init(&l, info, &full) < 0)
		return -1;
	int ret = load(&l, path, &o);
	if (ret == 0 && done && done(ctx, &l) < 0)
		ret = pv_error(ENOMEM, "profile_load: out of memory");
	loader_free(&l);
	return ret < 0 ? -1 : 0;
}

int pv_load_addr(struct loader *l, int32_t pid, uint32_t tid, uint64_t addr, uint64_t time,
		 struct perfev_profile_frame *out, char *level, uint64_t *symoff)
{
	*symoff = 0;
	/* perf (ip__resolve_ams): the process's maps first, then the kernel's;
	 * outside both the address stays raw, at the hypervisor's level */
	struct perfev_frame f = {.ip = addr};
	uint8_t mode = PERF_RECORD_MISC_USER;
	if (perfev_session_find_map(l->sess, (uint32_t)pid, tid, mode, addr, time)) {
		*level = '.';
	} else if (perfev_session_find_map(l->sess, (uint32_t)pid, tid, PERF_RECORD_MISC_KERNEL, addr, time)) {
		*level = 'k';
		f.kernel = true;
		mode = PERF_RECORD_MISC_KERNEL;
	} else {
		*level = 'H';
		*out = (struct perfev_profile_frame){.dso = NULL, .ip = addr, .rel_ip = addr};
		return 0;
	}
	uint32_t off, n;
	if (resolve(l, pid, tid, &f, false, mode, time, &off, &n) < 0)
		return -ENOMEM;
	pv_frame_public(l->p, &l->p->frames[l->ids[off + n - 1]], out);
	*symoff = l->last_symoff;
	return 0;
}

const char *pv_load_comm(struct loader *l, uint32_t tid)
{
	return perfev_session_comm(l->sess, tid);
}

const char *pv_load_event_name(struct loader *l, size_t idx)
{
	return perfev_perfdata_event_name(l->pd, idx);
}

size_t pv_load_nr_events(struct loader *l)
{
	return perfev_perfdata_nr_events(l->pd);
}

PERFEV_API void perfev_profile_events_free(struct perfev_profile_event *ev, size_t nr)
{
	if (!ev)
		return;
	for (size_t i = 0; i < nr; i++)
		perfev_profile_free(ev[i].profile);
	free(ev);
}
