/* resolve.c — the resolver (perfev/resolve.h): a decoded sample plus the
 * recording's threads and maps into frames. The call chain or the
 * DWARF-unwound user stack (unwind_sample.c), each address symbolized
 * (inlined frames expanded) through a cache keyed by (pid, address, flags)
 * that holds frame ids of a frame table (a profile's: the loader's own, so
 * a frame seen in many samples is resolved and interned once), and the
 * outer frames a sample shares with its process's previous one taken from
 * that one. The profile loader (profile_load.c) and perfev script
 * (view/script.c: addresses one at a time, pv_resolver_location, and its
 * unwound stacks, pv_resolver_frames) resolve through the private half
 * (resolve_int.h), callers through perfev_resolver_*. */
#define _GNU_SOURCE
#include "profile/resolve_int.h"
#include "core/opts.h"
#include "unwind/unwind_int.h"
#include "symbols/symbols_int.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAX_RAW 1024    /* frames of one stack */
#define MAX_EXPANDED 32 /* frames one address may expand to (inlines) */

struct cent {
	uint64_t ip;
	int32_t pid;     /* -1 for kernel addresses */
	uint32_t flags;  /* resolve flags; 0x80000000: slot used */
	uint32_t off;    /* ids[off .. off+n) */
	uint16_t n;
	bool unmapped;   /* a frame outside any map among them (pv_resolver_unmapped_levels' work) */
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



struct perfev_resolver {
	struct perfev_resolver_opts o;
	struct perfev_profile *table; /* the frames, interned (the loader's profile, or own_table) */
	bool own_table;
	bool keep_maps;               /* module frames keep their map (PERFEV_PROFILE_KEEP_ADDR) */
	bool addresses_only;          /* no stacks: procs and the table's objects are not kept */
	struct perfev_session *sess;
	struct perfev_symbolizer *sym;
	struct perfev_unwinder *unw;
	size_t notes_seen;
	struct cent *cache;
	size_t ccap, cnr;
	uint32_t *ids;   /* the cache's frame ids */
	size_t inr, icap;
	uint32_t *stack; /* the sample being resolved */
	size_t scap;
	struct perfev_frame raw[MAX_RAW];
	/* the previous sample's frames and their ids (ids[off .. off+n)), for the
	 * outer frames the next sample of its process shares (prev_nr 0: none) */
	struct perfev_frame prev[MAX_RAW];
	uint32_t span_off[2][MAX_RAW], span_n[2][MAX_RAW]; /* [prev_set]: the previous sample's */
	bool span_unmapped[2][MAX_RAW];
	int prev_set;
	size_t prev_nr;
	int32_t prev_pid;
	bool prev_dwarf;
	struct pmaps *procs;
	size_t nprocs, cap_procs;
	struct pv_strtab paths;
	bool foreign_kernel; /* recorded on another kernel: kallsyms here would lie */
	bool kernel_running; /* recorded on this kernel (or taken as such: no perfdata given) */
	struct perfev_map ktext; /* the recorded kernel text map, once met (kernel_past_etext) */
	int stext_looked;        /* 1: ktext_stext read from the kallsyms in use; -1 not there */
	uint64_t ktext_stext;
	bool vdso_build_id;  /* the recording's build-id table names its [vdso] */
	bool oom;
	uint64_t last_symoff; /* resolve()'s address in its symbol */
	bool last_unmapped;   /* ...and whether a frame of it is outside any map */
	struct perfev_profile_frame *pub; /* perfev_resolver_sample's answer */
	size_t pubcap;
};

static void notes(struct perfev_resolver *r)
{
	size_t n = perfev_symbolizer_nr_notes(r->sym);
	for (; r->notes_seen < n; r->notes_seen++)
		pv_note("%s", perfev_symbolizer_note(r->sym, r->notes_seen));
}


/* The recorded kernel text map: the last one met, else the one holding
 * _stext of the kallsyms in use; NULL when none is known. */
static const struct perfev_map *kernel_text_map(struct perfev_resolver *r, uint32_t pid, uint32_t tid,
						uint64_t time)
{
	if (r->ktext.path)
		return &r->ktext;
	if (!r->stext_looked) {
		static const char *const stext[] = {"_stext"};
		r->stext_looked = pv_kallsyms_addrs(r->o.kallsyms, stext, 1, &r->ktext_stext) == 0 &&
						  r->ktext_stext ? 1 : -1;
	}
	const struct perfev_map *km = r->stext_looked > 0 ? perfev_session_find_map(r->sess, pid, tid,
						PERF_RECORD_MISC_KERNEL, r->ktext_stext, time) : NULL;
	return km && km->path && !strncmp(km->path, "[kernel.kallsyms]", 17) ? km : NULL;
}

/* perf loads kallsyms into the kernel map and then stretches the map over
 * its symbols (map__fixup_start/end in dso__load_kernel_sym), so an address
 * past the recorded _etext (.init.text: start_kernel, x86_64_start_kernel
 * in the idle task's chains) takes the name of a core kernel symbol; a
 * module's address stays outside. 1 when loc was filled so. */
static int kernel_past_etext(struct perfev_resolver *r, uint32_t pid, uint32_t tid, uint64_t ip, uint64_t time,
			     unsigned flags, struct perfev_location *loc)
{
	const struct perfev_map *km = kernel_text_map(r, pid, tid, time);
	if (!km || ip < km->end)
		return 0;
	struct perfev_map stretched = *km;
	stretched.end = UINT64_MAX;
	if (perfev_symbolizer_resolve_recorded_kernel(r->sym, &stretched, ip, flags, loc) > 0 && loc->symbol &&
	    loc->dso && !strcmp(loc->dso, "[kernel.kallsyms]")) {
		loc->map = km; /* (not the stretched copy: it ends here) */
		return 1;
	}
	memset(loc, 0, sizeof(*loc));
	return 0;
}

/* ---- the cache ---------------------------------------------------------------- */
static uint64_t chash(int32_t pid, uint64_t ip, uint32_t flags)
{
	uint64_t h = ip * 0x9e3779b97f4a7c15ull ^ ((uint64_t)(uint32_t)pid << 20) ^ flags;
	h ^= h >> 31;
	h *= 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 29);
}

static struct cent *cache_slot(struct perfev_resolver *r, int32_t pid, uint64_t ip, uint32_t flags)
{
	if ((r->cnr + 1) * 2 > r->ccap) {
		size_t ncap = r->ccap ? r->ccap * 2 : 4096;
		struct cent *n = calloc(ncap, sizeof(*n));
		if (!n)
			return NULL;
		for (size_t i = 0; i < r->ccap; i++) {
			struct cent *e = &r->cache[i];
			if (!e->flags)
				continue;
			size_t j = chash(e->pid, e->ip, e->flags) & (ncap - 1);
			while (n[j].flags)
				j = (j + 1) & (ncap - 1);
			n[j] = *e;
		}
		free(r->cache);
		r->cache = n;
		r->ccap = ncap;
	}
	uint32_t f = flags | 0x80000000u;
	size_t i = chash(pid, ip, f) & (r->ccap - 1);
	while (r->cache[i].flags) {
		struct cent *e = &r->cache[i];
		if (e->ip == ip && e->pid == pid && e->flags == f)
			return e;
		i = (i + 1) & (r->ccap - 1);
	}
	return &r->cache[i]; /* empty: the caller fills it */
}

/* Forget every resolution of pid (exec, new mappings); kernel ones stay. */
static void cache_forget(struct perfev_resolver *r, int32_t pid)
{
	if (pid == r->prev_pid)
		r->prev_nr = 0;
	if (!r->cnr)
		return;
	bool any = false;
	for (size_t i = 0; i < r->ccap && !any; i++)
		any = r->cache[i].flags && r->cache[i].pid == pid;
	if (!any)
		return;
	/* rebuild without pid's entries (open addressing cannot just delete) */
	struct cent *old = r->cache;
	size_t ocap = r->ccap;
	r->cache = NULL;
	r->ccap = r->cnr = 0;
	for (size_t i = 0; i < ocap; i++) {
		if (!old[i].flags || old[i].pid == pid)
			continue;
		struct cent *e = cache_slot(r, old[i].pid, old[i].ip, old[i].flags & ~0x80000000u);
		if (!e) {
			r->oom = true;
			break;
		}
		*e = old[i];
		r->cnr++;
	}
	free(old);
}

/* ---- processes' maps ------------------------------------------------------------ */
static struct pmaps *proc(struct perfev_resolver *r, int32_t pid, bool create)
{
	for (size_t i = 0; i < r->nprocs; i++)
		if (r->procs[i].pid == pid)
			return &r->procs[i];
	if (!create || pv_grow(&r->procs, &r->cap_procs, r->nprocs + 1, sizeof(*r->procs)) < 0)
		return NULL;
	struct pmaps *pm = &r->procs[r->nprocs++];
	memset(pm, 0, sizeof(*pm));
	pm->pid = pid;
	return pm;
}

static const char *module_name(struct perfev_resolver *r, const char *path);
static bool is_anon(const char *path);


/* ---- perf's order of objects -------------------------------------------------------
 * perf report makes one dso structure per object, first those of the BUILD_ID
 * table (while reading the header, in the table's order), then one per new
 * name in MMAP records as it processes them (the kernel's at its first MMAP,
 * unless the table made it), and breaks ties between call-graph siblings of
 * different objects by the structures' addresses (match_chain_dso_addresses):
 * the profile keeps that order under the names frames give those objects. */
static const char *object_name(struct perfev_resolver *r, bool kernel, const char *path, uint32_t prot, int32_t pid,
			       char *buf, size_t len)
{
	if (kernel && !strncmp(path, "[kernel.kallsyms]", 17))
		return "[kernel.kallsyms]";
	const char *mod = kernel ? module_name(r, path) : NULL;
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

static int note_vdso(void *ctx, int32_t pid, uint16_t cpumode, const char *filename, const uint8_t *build_id,
		     size_t len)
{
	(void)pid, (void)cpumode, (void)build_id, (void)len;
	struct perfev_resolver *r = ctx;
	if (filename && !strcmp(filename, "[vdso]"))
		r->vdso_build_id = true;
	return 0;
}

static int table_object(void *ctx, int32_t pid, uint16_t cpumode, const char *filename, const uint8_t *build_id,
			size_t len)
{
	struct perfev_resolver *r = ctx;
	char buf[48];
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	note_vdso(ctx, pid, cpumode, filename, build_id, len);
	if (filename && pv_profile_add_object(r->table, object_name(r, kernel, filename, 0, pid, buf, sizeof(buf))) < 0)
		r->oom = true;
	return 0;
}


/* The maps of a side-band record (the session has it already); objects in perf's order. */
static void side_band(struct perfev_resolver *r, const struct perfev_record *rec)
{
	if (r->addresses_only) {
		if (rec->type == PERF_RECORD_COMM && (rec->misc & PERF_RECORD_MISC_COMM_EXEC) && r->unw)
			perfev_unwinder_forget(r->unw, (int)rec->u.comm.pid); /* a new image: its ELF files go */
		return;
	}
	switch (rec->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2: {
		uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
		/* MMAP records have no protection: perf takes them as executable unless data */
		uint32_t prot = rec->type == PERF_RECORD_MMAP2 ? rec->u.mmap.prot
				: rec->misc & PERF_RECORD_MISC_MMAP_DATA ? 0 : PROT_EXEC;
		char buf[48];
		const char *obj = object_name(r, kernel, rec->u.mmap.filename ? rec->u.mmap.filename : "//anon", prot,
					      (int32_t)rec->u.mmap.pid, buf, sizeof(buf));
		if (pv_profile_add_object(r->table, obj) < 0)
			r->oom = true;
		if (kernel)
			break;
		int32_t pid = (int32_t)rec->u.mmap.pid;
		struct pmaps *pm = proc(r, pid, true);
		uint32_t path = pv_strtab_intern(&r->paths, rec->u.mmap.filename ? rec->u.mmap.filename : "//anon");
		if (!pm || !path || pv_grow(&pm->maps, &pm->cap, pm->nr + 1, sizeof(*pm->maps)) < 0) {
			r->oom = true;
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
		m->path = pv_strtab_get(&r->paths, path);
		m->prot = rec->u.mmap.prot;
		m->flags = rec->u.mmap.flags;
		m->maj = rec->u.mmap.maj;
		m->min = rec->u.mmap.min;
		m->ino = rec->u.mmap.ino;
		m->ino_generation = rec->u.mmap.ino_generation;
		cache_forget(r, pid);
		break;
	}
	case PERF_RECORD_COMM:
		if (rec->misc & PERF_RECORD_MISC_COMM_EXEC) {
			struct pmaps *pm = proc(r, (int32_t)rec->u.comm.pid, false);
			if (pm)
				pm->nr = 0;
			cache_forget(r, (int32_t)rec->u.comm.pid);
			if (r->unw)
				perfev_unwinder_forget(r->unw, (int)rec->u.comm.pid);
		}
		break;
	case PERF_RECORD_FORK:
		if (rec->u.fork.pid != rec->u.fork.ppid) { /* a new process: it starts with the parent's maps */
			struct pmaps *parent = proc(r, (int32_t)rec->u.fork.ppid, false);
			struct pmaps *child = parent && parent->nr ? proc(r, (int32_t)rec->u.fork.pid, true) : NULL;
			parent = proc(r, (int32_t)rec->u.fork.ppid, false); /* proc() may have moved it */
			if (child && parent && pv_grow(&child->maps, &child->cap, parent->nr, sizeof(*child->maps)) == 0) {
				memcpy(child->maps, parent->maps, parent->nr * sizeof(*child->maps));
				child->nr = parent->nr;
			}
		}
		break;
	}
}


/* perf's name of a kernel module's map: "/lib/modules/.../ath9k.ko[.xz]" is
 * "[ath9k]" (dashes as underscores); NULL when path is no module. */
static const char *module_name(struct perfev_resolver *r, const char *path)
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
	return pv_strtab_get(&r->paths, pv_strtab_intern(&r->paths, name));
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
/* Whether frame f is outside any map: no symbol, no file, the object
 * "[unknown]" (string id unknown, see unknown_dso); perf gives it the level
 * of the frame before it. */
static bool frame_unmapped(const struct pv_frame *f, uint32_t unknown)
{
	return !f->sym && !f->file && f->dso == unknown;
}

/* The string id of "[unknown]" in p; 0: out of memory. */
static uint32_t unknown_dso(struct perfev_profile *p)
{
	return pv_strtab_intern(&p->strs, "[unknown]");
}

static int resolve(struct perfev_resolver *r, int32_t pid, uint32_t tid, const struct perfev_frame *f, bool dwarf,
		   uint8_t cpumode, uint64_t time, uint32_t *off, uint32_t *n)
{
	unsigned flags = 0;
	if (!r->o.no_inline && !r->o.no_callchain && (dwarf || !r->o.inline_dwarf_only))
		flags |= PERFEV_RESOLVE_INLINE; /* (leaf only: self goes to the symbol anyway) */
	if (r->o.srclines)
		flags |= PERFEV_RESOLVE_SRCLINE;
	flags |= r->o.no_demangle ? PERFEV_RESOLVE_NO_DEMANGLE : r->o.demangle_params ? 0 : PERFEV_RESOLVE_NO_PARAMS;
	if (f->return_addr && dwarf)
		flags |= PERFEV_RESOLVE_RETURN_ADDR;
	int32_t key = f->kernel ? -1 : pid;
	struct cent *e = cache_slot(r, key, f->ip, flags);
	if (!e)
		return -ENOMEM;
	if (e->flags) {
		*off = e->off;
		*n = e->n;
		r->last_symoff = e->symoff;
		r->last_unmapped = e->unmapped;
		return 0;
	}
	struct perfev_location loc;
	memset(&loc, 0, sizeof(loc));
	if (f->kernel) {
		/* only where the recording mapped kernel text (as perf): another
		 * machine's addresses must not take this kernel's names */
		const struct perfev_map *km =
			perfev_session_find_map(r->sess, (uint32_t)pid, tid, PERF_RECORD_MISC_KERNEL, f->ip, time);
		if (km && km->path && !strncmp(km->path, "[kernel.kallsyms]", 17))
			r->ktext = *km;
		if (km && !r->foreign_kernel)
			perfev_symbolizer_resolve_recorded_kernel(r->sym, km, f->ip, flags, &loc);
		else if (!km && !r->foreign_kernel)
			kernel_past_etext(r, (uint32_t)pid, tid, f->ip, time, flags, &loc);
		if (!loc.symbol) {
			/* unresolved (or not looked up): named by the recorded map */
			loc.ip = f->ip, loc.rel_ip = f->ip, loc.dso = NULL;
			/* the recorded map still names the object ("[kernel.kallsyms]_text": perf's) */
			if (km && km->path && !strncmp(km->path, "[kernel.kallsyms]", 17))
				loc.dso = "[kernel.kallsyms]";
			else if (km && km->path && (loc.dso = module_name(r, km->path))) {
				loc.rel_ip = f->ip - km->start + km->pgoff; /* perf: module-relative */
				if (r->keep_maps)
					loc.map = km; /* (its start: perf's addr key, see pv_chain_addr) */
			}
			else if (km && km->path)
				loc.dso = km->path;
		}
	} else {
		const struct perfev_map *m = perfev_session_find_map(r->sess, (uint32_t)pid, tid, cpumode,
								     f->ip, time);
		if (m) /* no map recorded there: unknown, as perf shows it */
			perfev_symbolizer_resolve(r->sym, pid, m, f->ip, flags, &loc);
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
			loc.dso = pv_strtab_get(&r->paths, pv_strtab_intern(&r->paths, name));
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
	notes(r);
	struct perfev_profile_frame fr[MAX_EXPANDED];
	size_t nf = perfev_frames_from_location(&loc, r->o.srclines, fr, MAX_EXPANDED);
	if (nf > MAX_EXPANDED)
		nf = MAX_EXPANDED;
	const char *dwarf_name = loc.nr_lines ? loc.lines[loc.nr_lines - 1].function : NULL;
	const char *self_name = NULL; /* the renamed function's samples: perf's entry is the ELF symbol */
	if ((flags & PERFEV_RESOLVE_INLINE) && nf == loc.nr_lines && dwarf_name && loc.symbol &&
	    strcmp(dwarf_name, loc.symbol) != 0 && (r->o.inline_dwarf_only || strncmp(dwarf_name, "__GI_", 5) != 0)) {
		/* perf names the function by its DWARF name when that differs from
		 * the ELF symbol (an alias: __libc_start_main for
		 * __libc_start_main_impl) and marks it "(inlined)"; so do we */
		char *name;
		if (asprintf(&name, "%s (inlined)", dwarf_name) < 0)
			return -ENOMEM;
		fr[nf - 1].symbol = pv_strtab_get(&r->paths, pv_strtab_intern(&r->paths, name));
		free(name);
		if (!fr[nf - 1].symbol)
			return -ENOMEM;
		self_name = loc.symbol;
	}
	if (r->o.srclines && !loc.nr_lines && loc.symbol && nf == 1) {
		/* no line information: perf's srcline is "symbol+offset" (decimal) */
		char *sl;
		if (asprintf(&sl, "%s+%llu", loc.symbol, (unsigned long long)loc.symoff) < 0)
			return -ENOMEM;
		fr[0].srcfile = pv_strtab_get(&r->paths, pv_strtab_intern(&r->paths, sl));
		free(sl);
		if (!fr[0].srcfile)
			return -ENOMEM;
	}
	if (pv_grow(&r->ids, &r->icap, r->inr + nf, sizeof(*r->ids)) < 0)
		return -ENOMEM;
	/* (every frame of one address is in one ELF symbol: perf keys by its start) */
	uint64_t sym_start = loc.symbol ? loc.rel_ip - loc.symoff : 0;
	for (size_t i = 0; i < nf; i++)
		if (pv_profile_intern_frame_sized(r->table, &fr[i], i == nf - 1 ? self_name : NULL,
						  i == nf - 1 && loc.symbol ? loc.symsize : 0, sym_start,
						  &r->ids[r->inr + i]) < 0)
			return -ENOMEM;
	/* the table may have grown: look the slot up again */
	e = cache_slot(r, key, f->ip, flags);
	if (!e)
		return -ENOMEM;
	e->ip = f->ip;
	e->pid = key;
	e->flags = flags | 0x80000000u;
	e->off = (uint32_t)r->inr;
	e->n = (uint16_t)nf;
	e->symoff = r->last_symoff = loc.symbol ? loc.symoff : 0;
	e->unmapped = false;
	uint32_t unknown = unknown_dso(r->table);
	if (!unknown)
		return -ENOMEM;
	for (size_t i = 0; i < nf; i++)
		e->unmapped |= frame_unmapped(&r->table->frames[r->ids[r->inr + i]], unknown);
	r->last_unmapped = e->unmapped;
	r->inr += nf;
	r->cnr++;
	*off = e->off;
	*n = e->n;
	return 0;
}

/* perf's [k]/[.] of a frame outside any map: fill_callchain_info leaves
 * its addr_location's level as the cursor's previous entry set it, starting
 * from the sample's own cpumode. The cursor runs root..leaf in caller order
 * (the leaf keeps its own: it is the sample's entry), leaf..root in callee
 * order. The stack's such frames get that level. */
int pv_resolver_unmapped_levels(struct perfev_resolver *r, bool level, size_t depth, bool callee)
{
	struct perfev_profile *p = r->table;
	uint32_t unknown = unknown_dso(p);
	if (!unknown)
		return -ENOMEM;
	for (size_t k = callee ? 0 : 1; k < depth; k++) {
		size_t i = callee ? k : depth - k;
		const struct pv_frame *f = &p->frames[r->stack[i]];
		if (!frame_unmapped(f, unknown)) {
			level = f->kernel;
			continue;
		}
		if (f->kernel == level)
			continue;
		struct perfev_profile_frame pub;
		pv_frame_public(p, f, &pub);
		pub.kernel = level;
		if (pv_profile_intern_frame(p, &pub, &r->stack[i]) < 0)
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
int32_t pv_resolver_sample_pid(struct perfev_resolver *r, const struct perfev_sample *s)
{
	if (s->sample_type & PERF_SAMPLE_TID)
		return (int32_t)s->pid;
	return (int32_t)perfev_session_thread_pid(r->sess, s->tid);
}


/* perf's mem_info of a sample (sample__resolve_mem): the data address's
 * map in the sample's mode, the address in its terms (kernel maps are the
 * identity), whether it is shared file data ([s] in dcacheline). */
void pv_resolver_mem_access(struct perfev_resolver *r, const struct perfev_sample *s, int32_t pid, uint8_t cpumode,
		       struct perfev_mem_access *m)
{
	memset(m, 0, sizeof(*m));
	m->data_src = s->data_src;
	m->addr = s->addr;
	m->phys_addr = s->phys_addr;
	m->data_page_size = s->data_page_size;
	m->dso_addr = s->addr;
	const struct perfev_map *map = perfev_session_find_map(r->sess, (uint32_t)pid, s->tid, cpumode, s->addr,
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


/* The sample's frames into r->stack (leaf first). 0 or -ENOMEM. */
int pv_resolver_stack(struct perfev_resolver *r, const struct perfev_record *rec, int32_t pid, struct pv_stack *out)
{
	const struct perfev_sample *s = &rec->u.sample;
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel_ip = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	*out = (struct pv_stack){0};
	int dwarf = -1;
	size_t n = 0;
	uint64_t to_root = 0; /* the unwinder's count before (it exists once a stack was unwound) */
	if (!r->o.no_callchain) {
		/* the process's maps: for the DWARF unwinder only (a user stack to walk) */
		struct pmaps *pm = (s->sample_type & PERF_SAMPLE_STACK_USER) ? proc(r, pid, false) : NULL;
		struct pv_unwind_maps um = {.maps = pm ? pm->maps : NULL, .nr_maps = pm ? pm->nr : 0,
					    .symbolizer = r->sym};
		if (r->unw) {
			struct perfev_unwind_stats st;
			perfev_unwinder_stats(r->unw, &st);
			to_root = st.to_root;
		}
		n = pv_sample_frames(&r->unw, s, pid, &um, true, r->raw, MAX_RAW, &dwarf);
	}
	if (dwarf >= 0) {
		struct perfev_unwind_stats st = {0};
		if (r->unw)
			perfev_unwinder_stats(r->unw, &st);
		out->dwarf = true;
		out->to_root = st.to_root - to_root;
	}
	bool cut = false;
	if (n == 0) {
		r->raw[0] = (struct perfev_frame){.ip = s->ip, .kernel = kernel_ip};
		n = 1;
	} else {
		n = max_stack_cut(r->raw, n, dwarf, r->o.max_stack, r->o.max_stack_outer, &cut);
	}
	/* the outer frames this sample shares with the previous one of its
	 * process: their ids are what the cache would answer */
	size_t shared = 0;
	/* (inlined frames are expanded in DWARF-unwound chains only) */
	if (r->prev_nr && r->prev_pid == pid && r->prev_dwarf == (dwarf > 0))
		while (shared < n && shared < r->prev_nr) {
			const struct perfev_frame *a = &r->raw[n - 1 - shared], *b = &r->prev[r->prev_nr - 1 - shared];
			if (a->ip != b->ip || a->kernel != b->kernel || a->return_addr != b->return_addr)
				break;
			shared++;
		}
	size_t depth = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t off, nf;
		bool unmapped;
		uint8_t mode = r->raw[i].kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
		if (i >= n - shared) {
			size_t j = r->prev_nr - (n - i);
			off = r->span_off[r->prev_set][j];
			nf = r->span_n[r->prev_set][j];
			unmapped = r->span_unmapped[r->prev_set][j];
		} else if (resolve(r, pid, s->tid, &r->raw[i], dwarf > 0 && !r->raw[i].kernel, mode, s->time,
				   &off, &nf) < 0) {
			r->prev_nr = 0;
			return -ENOMEM;
		} else {
			unmapped = r->last_unmapped;
		}
		r->span_off[!r->prev_set][i] = off;
		r->span_n[!r->prev_set][i] = nf;
		r->span_unmapped[!r->prev_set][i] = unmapped;
		out->unmapped |= unmapped;
		if (pv_grow(&r->stack, &r->scap, depth + nf, sizeof(*r->stack)) < 0)
			return -ENOMEM;
		if (nf == 1) /* (most addresses: no inlines) */
			r->stack[depth] = r->ids[off];
		else
			memcpy(r->stack + depth, r->ids + off, nf * sizeof(*r->stack));
		depth += nf;
	}
	if (n == 1) /* (a sample without a call chain) */
		r->prev[0] = r->raw[0];
	else
		memcpy(r->prev, r->raw, n * sizeof(*r->prev));
	r->prev_nr = n;
	r->prev_pid = pid;
	r->prev_dwarf = dwarf > 0;
	r->prev_set = !r->prev_set;
	out->ids = r->stack;
	out->depth = depth;
	out->cut = cut;
	out->leaf_n = r->span_n[r->prev_set][0];
	return 0;
}

int pv_resolver_addr(struct perfev_resolver *r, int32_t pid, uint32_t tid, uint64_t addr, uint64_t time,
		     struct perfev_profile_frame *out, char *level, uint64_t *symoff)
{
	*symoff = 0;
	/* perf (ip__resolve_ams): the process's maps first, then the kernel's;
	 * outside both the address stays raw, at the hypervisor's level */
	struct perfev_frame f = {.ip = addr};
	uint8_t mode = PERF_RECORD_MISC_USER;
	if (perfev_session_find_map(r->sess, (uint32_t)pid, tid, mode, addr, time)) {
		*level = '.';
	} else if (perfev_session_find_map(r->sess, (uint32_t)pid, tid, PERF_RECORD_MISC_KERNEL, addr, time)) {
		*level = 'k';
		f.kernel = true;
		mode = PERF_RECORD_MISC_KERNEL;
	} else {
		*level = 'H';
		*out = (struct perfev_profile_frame){.dso = NULL, .ip = addr, .rel_ip = addr};
		return 0;
	}
	uint32_t off, n;
	if (resolve(r, pid, tid, &f, false, mode, time, &off, &n) < 0)
		return -ENOMEM;
	pv_frame_public(r->table, &r->table->frames[r->ids[off + n - 1]], out);
	*symoff = r->last_symoff;
	return 0;
}

/* ---- one address, one sample's raw frames (perfev script) ---------------------------- */
/* perf's names: C++/Rust ones without their parameter lists unless asked */
static unsigned name_flags(const struct perfev_resolver *r)
{
	unsigned flags = r->o.srclines ? PERFEV_RESOLVE_SRCLINE : 0;
	return flags | (r->o.no_demangle ? PERFEV_RESOLVE_NO_DEMANGLE
					 : r->o.demangle_params ? 0 : PERFEV_RESOLVE_NO_PARAMS);
}

bool pv_resolver_location(struct perfev_resolver *r, int32_t pid, uint8_t cpumode, uint64_t addr,
			  const struct perfev_map *map, bool inlines, struct perfev_location *out)
{
	/* no map recorded there (another machine's kernel, a user-mode sample
	 * of a kernel address): perf leaves it unknown, kallsyms is not asked */
	if (!map)
		return false;
	/* A [vdso] of another kernel stays unknown when the recording names its
	 * own vdso in the build-id table (perf looks that one up by build-id
	 * and does not find it here); without one, perf uses this machine's. */
	if (map->path && !strcmp(map->path, "[vdso]") && !r->kernel_running && r->vdso_build_id)
		return false;
	unsigned flags = name_flags(r) | (inlines ? PERFEV_RESOLVE_INLINE : 0);
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL) {
		if (r->foreign_kernel) /* another kernel's addresses: this kallsyms would misname them */
			return false;
		perfev_symbolizer_resolve_recorded_kernel(r->sym, map, addr, flags, out);
	} else {
		perfev_symbolizer_resolve(r->sym, pid, map, addr, flags, out);
	}
	return out->symbol != NULL;
}

/* The sample's process maps for the unwinder, one address at a time. */
struct unwind_ctx {
	struct perfev_session *sess;
	const struct perfev_sample *smp;
};

static const struct perfev_map *unwind_find_map(void *ctx, uint64_t addr)
{
	struct unwind_ctx *c = ctx;
	return perfev_session_find_map(c->sess, c->smp->pid, c->smp->tid, PERF_RECORD_MISC_USER, addr, c->smp->time);
}

size_t pv_resolver_frames(struct perfev_resolver *r, const struct perfev_sample *s, struct perfev_frame *out,
			  size_t max, int *dwarf)
{
	struct unwind_ctx c = {r->sess, s};
	struct pv_unwind_maps m = {.find_map = unwind_find_map, .ctx = &c, .symbolizer = r->sym};
	return pv_sample_frames(&r->unw, s, (int32_t)s->pid, &m, true, out, max, dwarf);
}

/* ---- the resolver's life ---------------------------------------------------------- */
struct perfev_resolver *pv_resolver_new(const struct perfev_resolver_opts *o, struct perfev_profile *table)
{
	if (!PV_OPTS_VALID(o, perfev_resolver_opts))
		return NULL;
	struct perfev_resolver *r = calloc(1, sizeof(*r));
	if (!r)
		return pv_error_null(ENOMEM, "resolver: out of memory");
	PV_OPTS_COPY(r->o, o);
	if (r->o.max_stack == 0) /* perf report's default: its report.max_stack = PERF_MAX_STACK_DEPTH */
		r->o.max_stack = 127;
	struct perfev_symbolizer_opts so = {.sz = sizeof(so), .kallsyms = r->o.kallsyms, .symfs = r->o.symfs,
					    .no_cache = r->o.no_cache};
	r->kernel_running = true;
	r->own_table = !table;
	r->table = table ? table : perfev_profile_new(PERFEV_GROUP_NONE, 0);
	r->sess = perfev_session_new();
	r->sym = perfev_symbolizer_new(&so);
	if (!r->table || !r->sess || !r->sym) {
		perfev_resolver_free(r);
		return pv_error_null(ENOMEM, "resolver: out of memory");
	}
	return r;
}

void pv_resolver_keep_maps(struct perfev_resolver *r)
{
	r->keep_maps = true;
}

void pv_resolver_addresses_only(struct perfev_resolver *r)
{
	r->addresses_only = true;
}

bool pv_resolver_use_perfdata(struct perfev_resolver *r, struct perfev_perfdata *pd)
{
	perfev_session_add_build_ids(r->sess, pd); /* maps recorded without build-ids get them */
	if (!r->addresses_only)
		perfev_perfdata_build_ids(pd, table_object, r); /* perf's first objects */
	else
		perfev_perfdata_build_ids(pd, note_vdso, r);
	/* Another kernel's recording: its addresses are not this kernel's (the
	 * kernel build-id tells, else the release), unless the caller hands us
	 * that kernel's kallsyms. */
	r->kernel_running = perfev_perfdata_kernel_is_running(pd);
	r->foreign_kernel = !r->o.kallsyms && !r->kernel_running;
	return r->foreign_kernel;
}

int pv_resolver_record(struct perfev_resolver *r, const struct perfev_record *rec)
{
	if (perfev_session_process(r->sess, rec) < 0)
		return -ENOMEM;
	if (rec->type == PERFEV_RECORD_HEADER_BUILD_ID && rec->u.build_id.filename &&
	    !strcmp(rec->u.build_id.filename, "[vdso]"))
		r->vdso_build_id = true; /* (pipe mode: the table comes as records) */
	if (rec->type != PERF_RECORD_SAMPLE)
		side_band(r, rec);
	if (r->oom) {
		r->oom = false;
		return -ENOMEM;
	}
	return 0;
}

PERFEV_API struct perfev_resolver *perfev_resolver_new(const struct perfev_resolver_opts *opts)
{
	return pv_resolver_new(opts, NULL);
}

PERFEV_API int perfev_resolver_set_perfdata(struct perfev_resolver *r, struct perfev_perfdata *pd)
{
	if (!r || !pd)
		return pv_error(EINVAL, "resolver: NULL");
	if (pv_resolver_use_perfdata(r, pd)) {
		const char *rel = perfev_perfdata_feature_str(pd, PERFEV_FEAT_OSRELEASE);
		pv_note("the recording was made on another kernel (%s): kernel addresses stay unresolved; "
			"give that kernel's symbols as the resolver's kallsyms",
			rel ? rel : "its build-id differs from this one's");
	}
	return 0;
}

PERFEV_API int perfev_resolver_process(struct perfev_resolver *r, const struct perfev_record *rec)
{
	if (!r || !rec)
		return pv_error(EINVAL, "resolver: NULL");
	return pv_resolver_record(r, rec) < 0 ? pv_error(ENOMEM, "resolver: out of memory") : 0;
}

PERFEV_API int perfev_resolver_sample(struct perfev_resolver *r, const struct perfev_record *rec,
				      struct perfev_resolved_sample *out)
{
	if (!r || !rec || !out || out->sz < pv_offsetofend(struct perfev_resolved_sample, nr))
		return pv_error(EINVAL, "resolver: NULL, or out.sz not set (set it to sizeof)");
	size_t sz = PV_MIN(out->sz, sizeof(*out));
	memset(out, 0, sz);
	out->sz = sz;
	if (pv_resolver_record(r, rec) < 0)
		return pv_error(ENOMEM, "resolver: out of memory");
	if (rec->type != PERF_RECORD_SAMPLE)
		return 0;
	const struct perfev_sample *s = &rec->u.sample;
	int32_t pid = pv_resolver_sample_pid(r, s);
	struct pv_stack st;
	if (pv_resolver_stack(r, rec, pid, &st) < 0 || pv_grow(&r->pub, &r->pubcap, st.depth, sizeof(*r->pub)) < 0)
		return pv_error(ENOMEM, "resolver: out of memory");
	for (size_t i = 0; i < st.depth; i++)
		pv_frame_public(r->table, &r->table->frames[st.ids[i]], &r->pub[i]);
	out->pid = pid;
	out->tid = s->tid;
	out->comm = perfev_session_comm(r->sess, s->tid);
	out->frames = r->pub;
	out->nr = st.depth;
	if (sz >= pv_offsetofend(struct perfev_resolved_sample, cut)) {
		out->dwarf = st.dwarf;
		out->cut = st.cut;
	}
	notes(r);
	return 0;
}

PERFEV_API int perfev_resolver_addr(struct perfev_resolver *r, int32_t pid, uint32_t tid, uint64_t addr,
				    uint64_t time, struct perfev_profile_frame *out, char *level)
{
	if (!r || !out || !level)
		return pv_error(EINVAL, "resolver: NULL");
	uint64_t symoff;
	return pv_resolver_addr(r, pid, tid, addr, time, out, level, &symoff) < 0
		       ? pv_error(ENOMEM, "resolver: out of memory") : 0;
}

PERFEV_API int perfev_resolver_location(struct perfev_resolver *r, int32_t pid, uint32_t tid, uint64_t time,
					uint8_t cpumode, uint64_t addr, unsigned flags, struct perfev_location *out)
{
	if (!r || !out || (flags & ~(unsigned)PERFEV_RESOLVE_INLINE))
		return pv_error(EINVAL, "resolver: NULL, or flags other than PERFEV_RESOLVE_INLINE");
	const struct perfev_map *map = perfev_session_find_map(r->sess, (uint32_t)pid, tid, cpumode, addr, time);
	/* (what stays when the symbolizer is not asked) */
	*out = (struct perfev_location){.ip = addr, .rel_ip = addr, .dso = "[unknown]", .map = map,
					.kernel = cpumode == PERF_RECORD_MISC_KERNEL ||
						  cpumode == PERF_RECORD_MISC_GUEST_KERNEL};
	return pv_resolver_location(r, pid, cpumode, addr, map, flags & PERFEV_RESOLVE_INLINE, out);
}

PERFEV_API struct perfev_session *perfev_resolver_session(struct perfev_resolver *r)
{
	return r ? r->sess : NULL;
}

PERFEV_API void perfev_resolver_free(struct perfev_resolver *r)
{
	if (!r)
		return;
	if (r->own_table)
		perfev_profile_free(r->table);
	perfev_session_free(r->sess);
	perfev_symbolizer_free(r->sym);
	perfev_unwinder_free(r->unw);
	for (size_t i = 0; i < r->nprocs; i++)
		free(r->procs[i].maps);
	free(r->procs);
	free(r->cache);
	free(r->ids);
	free(r->stack);
	free(r->pub);
	pv_strtab_free(&r->paths);
	free(r);
}

/* ---- perf's -k/--vmlinux ------------------------------------------------------------ */
/* The recorded kernel's build-id (the BUILD_ID feature's kernel entry). */
static int kernel_build_id(void *ctx, int32_t pid, uint16_t cpumode, const char *filename, const uint8_t *id,
			   size_t len)
{
	(void)pid;
	uint8_t *out = ctx; /* [0]: its length, then the id */
	if ((cpumode & PERF_RECORD_MISC_CPUMODE_MASK) != PERF_RECORD_MISC_KERNEL ||
	    strcmp(filename, "[kernel.kallsyms]") || !len || len > PERFEV_BUILD_ID_MAX)
		return 0;
	out[0] = (uint8_t)len;
	memcpy(out + 1, id, len);
	return 1;
}

int pv_vmlinux_kallsyms_for(struct perfev_perfdata *pd, const char *vmlinux, int *fd, char *path, size_t len,
			    const char **kallsyms)
{
	uint8_t id[1 + PERFEV_BUILD_ID_MAX] = {0};
	if (pd)
		perfev_perfdata_build_ids(pd, kernel_build_id, id);
	if (pv_vmlinux_kallsyms(vmlinux, id + 1, id[0], fd) < 0)
		return -1;
	snprintf(path, len, "/proc/self/fd/%d", *fd);
	*kallsyms = *fd >= 0 ? path : "";
	return 0;
}
