/*
 * symbols.c — the symbolizer object: turns (pid, map, ip) into a
 * perfev_location through the per-binary cache (symbols_dso.c), kallsyms
 * (symbols_kernel.c) and perf-PID.map (symbols_jit.c), and keeps the notes
 * that explain every degradation.
 */
#define _GNU_SOURCE
#include "symbols/symbols_int.h"
#include "core/opts.h"
#include "perfev/symbols.h"

#include "symbols/debuginfod_dl.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define MAX_NOTES 256
/* the reference symbols of a recorded kernel map ("[kernel.kallsyms]_text") */
static const char *const kref_names[2] = {"_text", "_stext"};

#define KERNEL_GIVE_BACK 32 /* kallsyms index lookups between give-backs */

PERFEV_API struct perfev_symbolizer *perfev_symbolizer_new(const struct perfev_symbolizer_opts *opts)
{
	if (!PV_OPTS_VALID(opts, perfev_symbolizer_opts))
		return NULL;
	struct perfev_symbolizer *s = calloc(1, sizeof(*s));
	if (!s)
		return pv_error_null(ENOMEM, "out of memory creating a symbolizer");
	PV_OPTS_COPY(s->opts, opts);
	if (s->opts.symfs && !*s->opts.symfs)
		s->opts.symfs = NULL;
	/* the recording machine's kernel symbols too, as perf's --symfs */
	if (s->opts.symfs && !s->opts.kallsyms &&
	    asprintf(&s->symfs_kallsyms, "%s/proc/kallsyms", s->opts.symfs) >= 0)
		s->opts.kallsyms = s->symfs_kallsyms;
	if (s->opts.debug_dirs || !s->opts.symfs)
		s->debug_dirs = strdup(s->opts.debug_dirs ? s->opts.debug_dirs : "/usr/lib/debug");
	else if (asprintf(&s->debug_dirs, "%s/usr/lib/debug", s->opts.symfs) < 0)
		s->debug_dirs = NULL;
	s->pool = pv_strpool_new();
	if (!s->debug_dirs || !s->pool) {
		perfev_symbolizer_free(s);
		return pv_error_null(ENOMEM, "out of memory creating a symbolizer");
	}
	s->opts.debug_dirs = s->debug_dirs;
	s->last_pid = -2;
	return s;
}

PERFEV_API void perfev_symbolizer_free(struct perfev_symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_dsos; i++)
		pv_dso_free(s->all_dsos[i]);
	free(s->all_dsos);
	pv_u64map_free(&s->dsos);
	for (size_t i = 0; i < PV_ARRAY_SIZE(s->demangled); i++)
		pv_u64map_free(&s->demangled[i]);
	pv_kallsyms_free(&s->kernel);
	pv_kallsyms_free(&s->kernel_cached);
	for (size_t i = 0; i < s->nr_jits; i++)
		pv_symtab_free(&s->jits[i].syms);
	free(s->jits);
	free(s->notes);
	if (s->debuginfod)
		debuginfod_end(s->debuginfod);
	free(s->debug_dirs);
	free(s->symfs_kallsyms);
	pv_strpool_free(s->pool);
	free(s);
}

void pv_sym_note(struct perfev_symbolizer *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	const char *n = pv_strpool_add(s->pool, buf);
	if (!n || s->nr_notes >= MAX_NOTES)
		return;
	for (size_t i = 0; i < s->nr_notes; i++)
		if (s->notes[i] == n) /* pooled: same text, same pointer */
			return;
	if (pv_grow(&s->notes, &s->cap_notes, s->nr_notes + 1, sizeof(*s->notes)) < 0)
		return;
	s->notes[s->nr_notes++] = n;
}

PERFEV_API size_t perfev_symbolizer_nr_notes(const struct perfev_symbolizer *s)
{
	return s ? s->nr_notes : 0;
}

PERFEV_API const char *perfev_symbolizer_note(const struct perfev_symbolizer *s, size_t i)
{
	return s && i < s->nr_notes ? s->notes[i] : NULL;
}

static const char *sym_name(struct perfev_symbolizer *s, const char *raw, unsigned flags)
{
	enum pv_demangle how = pv_demangle_of(flags);
	if (how == PV_DEMANGLE_NONE)
		return raw;
	const char *d = pv_u64map_get(&s->demangled[how], (uint64_t)(uintptr_t)raw);
	if (d)
		return d;
	d = pv_demangle_pooled(s->pool, raw, how);
	if (!d)
		return raw;
	pv_u64map_put(&s->demangled[how], (uint64_t)(uintptr_t)raw, (void *)d);
	return d;
}

struct pv_dso *pv_symbolizer_dso(struct perfev_symbolizer *s, int pid, const char *path,
				 const uint8_t *bid, size_t bid_len, const struct perfev_map *m)
{
	char key[PATH_MAX + 128];
	if (bid_len && bid_len <= PERFEV_BUILD_ID_MAX) {
		static const char x[] = "0123456789abcdef";
		size_t k = 0;
		key[k++] = 'b';
		for (size_t i = 0; i < bid_len; i++) {
			key[k++] = x[bid[i] >> 4];
			key[k++] = x[bid[i] & 15];
		}
		key[k] = '\0';
	} else if (m && m->ino) {
		snprintf(key, sizeof(key), "i%u:%u:%llu:%s", m->maj, m->min,
			 (unsigned long long)m->ino, path);
	} else {
		/* without build-id or inode, a relative lookup through /proc/PID/root
		 * may find another file per process */
		snprintf(key, sizeof(key), "p%d:%s", path[0] == '/' ? 0 : pid, path);
	}
	const char *pk = pv_strpool_add(s->pool, key);
	if (!pk)
		return NULL;
	struct pv_dso *d = pv_u64map_get(&s->dsos, (uint64_t)(uintptr_t)pk);
	if (d)
		return d;
	d = pv_dso_load(s, pid, path, bid, bid_len);
	if (!d)
		return NULL;
	if (pv_grow(&s->all_dsos, &s->cap_dsos, s->nr_dsos + 1, sizeof(*s->all_dsos)) < 0 ||
	    pv_u64map_put(&s->dsos, (uint64_t)(uintptr_t)pk, d) < 0) {
		pv_dso_free(d);
		return NULL;
	}
	s->all_dsos[s->nr_dsos++] = d;
	return d;
}

PERFEV_API int perfev_symbolizer_load(struct perfev_symbolizer *s, int pid, const char *path,
				      const uint8_t *build_id, size_t build_id_len)
{
	if (!s || !path)
		return pv_error(EINVAL, "perfev_symbolizer_load: no symbolizer or path");
	struct pv_dso *d = pv_symbolizer_dso(s, pid, path, build_id, build_id_len, NULL);
	if (!d)
		return pv_error(ENOMEM, "out of memory loading %s", path);
	return (int)d->syms.nr;
}

static void fill_lines(struct perfev_symbolizer *s, struct pv_dso *d, uint64_t vaddr,
		       unsigned flags, struct perfev_location *loc)
{
	if (!(flags & (PERFEV_RESOLVE_SRCLINE | PERFEV_RESOLVE_INLINE)))
		return;
	const struct pv_srcinfo *si = pv_dso_srcinfo(s, d, vaddr, flags & PERFEV_RESOLVE_INLINE,
						     pv_demangle_of(flags));
	if (si && si->nr) {
		loc->nr_lines = si->nr;
		loc->lines = si->lines;
	}
}

static bool is_kernel_ip(uint64_t ip)
{
	return (int64_t)ip < 0; /* the upper half: x86_64 and arm64 kernels */
}

static bool env_set(const char *name)
{
	const char *e = getenv(name);
	return e && *e && strcmp(e, "0") != 0;
}

bool pv_cache_disabled(const struct perfev_symbolizer *s, const char *env)
{
	char name[64];
	snprintf(name, sizeof(name), "PERFEV_NO_%s_CACHE", env);
	return s->opts.no_cache || env_set("PERFEV_NO_CACHE") || env_set(name);
}

/* The running kernel's symbols through the cache, or a given file as is. */
static void load_kernel(struct perfev_symbolizer *s)
{
	if (s->opts.kallsyms) {
		if (*s->opts.kallsyms)
			pv_kallsyms_load(s, s->opts.kallsyms, NULL, &s->kernel);
	} else if (pv_cache_disabled(s, "KALLSYMS")) {
		pv_kallsyms_load(s, "/proc/kallsyms", NULL, &s->kernel);
	} else {
		pv_kcache_load(s, &(struct pv_kcache_src){0}, &s->kernel);
	}
}

/* Where _text and _stext are in the kallsyms we read (NULL file:
 * /proc/kallsyms, where they are among the first lines); 0 for one it
 * lacks. One pass, once per symbolizer. */
static void kernel_refs(struct perfev_symbolizer *s)
{
	s->kref_read = true;
	if (!s->opts.kallsyms || *s->opts.kallsyms)
		pv_kallsyms_addrs(s->opts.kallsyms, kref_names, 2, s->kref_now);
}

/*
 * KASLR: a recording's kernel map names a reference symbol and where it
 * was then ("[kernel.kallsyms]_text", pgoff = _text's address, as perf and
 * perfev record write it; older perf: _stext). The same kernel booted again
 * sits elsewhere, so a recorded address is looked up moved by the
 * difference, as perf's kallsyms__delta moves its symbols. 0 when nothing
 * moved or nothing says.
 */
static int64_t kernel_delta(struct perfev_symbolizer *s, const struct perfev_map *map)
{
	if (!map || !map->pgoff || !map->path || strncmp(map->path, "[kernel.kallsyms]", 17))
		return 0;
	for (int i = 0; i < 2; i++) {
		if (strcmp(map->path + 17, kref_names[i]) != 0)
			continue;
		if (!s->kref_read)
			kernel_refs(s);
		return s->kref_now[i] ? (int64_t)(s->kref_now[i] - map->pgoff) : 0;
	}
	return 0;
}

static int resolve_kernel(struct perfev_symbolizer *s, const struct perfev_map *map, uint64_t ip,
			  unsigned flags, struct perfev_location *loc)
{
	memset(loc, 0, sizeof(*loc));
	loc->map = map;
	loc->ip = loc->rel_ip = ip;
	loc->kernel = true;
	loc->dso = "[kernel.kallsyms]";
	if (!s->kernel_tried) {
		s->kernel_tried = true;
		load_kernel(s);
	}
	int64_t delta = kernel_delta(s, map);
	uint64_t look = ((flags & PERFEV_RESOLVE_RETURN_ADDR) ? ip - 1 : ip) + (uint64_t)delta;
	const char *name, *module;
	uint64_t start, size = 0;
	int r = pv_kallsyms_find_sized(&s->kernel, look, &name, &module, &start, &size);
	/* the index's pages come back in 64 KB runs: give them back now and then */
	if (s->kernel.map && ++s->kernel_lookups % KERNEL_GIVE_BACK == 0)
		madvise(s->kernel.map, s->kernel.map_len, MADV_DONTNEED);
	if (r == -EAGAIN) {
		/* not covered by the cache (BPF, a trampoline...): the real file,
		 * once; the cache's mapping stays for the names handed out */
		s->kernel_cached = s->kernel;
		pv_kallsyms_load(s, "/proc/kallsyms", NULL, &s->kernel);
		r = pv_kallsyms_find_sized(&s->kernel, look, &name, &module, &start, &size);
	}
	if (r <= 0)
		return 0;
	if (module)
		loc->dso = module;
	loc->symbol = name;
	loc->symoff = ip + (uint64_t)delta - start;
	loc->symsize = size;
	return 1;
}

PERFEV_API int perfev_symbolizer_resolve_kernel(struct perfev_symbolizer *s, uint64_t ip,
						unsigned flags, struct perfev_location *loc)
{
	if (!s || !loc)
		return pv_error(EINVAL, "perfev_symbolizer_resolve_kernel: NULL argument");
	return resolve_kernel(s, NULL, ip, flags, loc);
}

PERFEV_API int perfev_symbolizer_resolve_recorded_kernel(struct perfev_symbolizer *s,
							 const struct perfev_map *kernel_map, uint64_t ip,
							 unsigned flags, struct perfev_location *loc)
{
	if (!s || !loc)
		return pv_error(EINVAL, "perfev_symbolizer_resolve_recorded_kernel: NULL argument");
	return resolve_kernel(s, kernel_map, ip, flags, loc);
}

static bool is_anon(const char *p)
{
	return !p || !*p || strncmp(p, "//anon", 6) == 0 || strncmp(p, "[anon", 5) == 0 ||
	       strncmp(p, "/memfd:", 7) == 0 || strncmp(p, "/tmp/perf-", 10) == 0;
}

static int resolve_jit(struct perfev_symbolizer *s, int pid, uint64_t ip, uint64_t look,
		       struct perfev_location *loc)
{
	if (pid <= 0)
		return 0;
	struct pv_jit *j = pv_jit_get(s, pid);
	const struct pv_sym *sym = j ? pv_symtab_find(&j->syms, look) : NULL;
	if (!sym)
		return 0;
	loc->dso = j->name;
	loc->rel_ip = ip;
	loc->symbol = sym->name;
	loc->symoff = ip - sym->start;
	loc->symsize = sym->size;
	return 1;
}

static uint64_t to_vaddr(const struct pv_dso *d, const struct perfev_map *m, uint64_t ip)
{
	uint64_t off = ip - m->start + m->pgoff;
	for (size_t i = 0; i < d->nr_segs; i++) {
		const struct pv_segment *g = &d->segs[i];
		if (off >= g->offset && off - g->offset < PV_MAX(g->filesz, g->memsz))
			return off - g->offset + g->vaddr;
	}
	return off;
}

/* Fills loc (ip, map set by the caller) from a DSO at its own addresses. */
static int resolve_in_dso(struct perfev_symbolizer *s, struct pv_dso *d, uint64_t vaddr,
			  uint64_t vlook, unsigned flags, struct perfev_location *loc)
{
	loc->dso = d->name;
	loc->rel_ip = vaddr;
	const struct pv_sym *sym = pv_symtab_find(&d->syms, vlook);
	if (sym) {
		/* (perf's choice among aliases depends on whether it demangles) */
		bool raw = (flags & PERFEV_RESOLVE_NO_DEMANGLE) && sym->mangled_pick;
		loc->symbol = sym_name(s, raw ? sym->mangled_pick : sym->name, flags);
		loc->symoff = vaddr - sym->start;
		loc->symsize = sym->size;
	}
	fill_lines(s, d, vlook, flags, loc);
	return sym ? 1 : 0;
}

static bool same_map(const struct perfev_map *a, const struct perfev_map *b)
{
	return a->start == b->start && a->end == b->end && a->pgoff == b->pgoff &&
	       a->path == b->path && a->ino == b->ino && a->build_id_len == b->build_id_len &&
	       memcmp(a->build_id, b->build_id, a->build_id_len) == 0;
}

PERFEV_API int perfev_symbolizer_resolve(struct perfev_symbolizer *s, int pid,
					 const struct perfev_map *map, uint64_t ip,
					 unsigned flags, struct perfev_location *loc)
{
	if (!s || !loc)
		return pv_error(EINVAL, "perfev_symbolizer_resolve: NULL argument");
	if ((map && (map->kernel || (map->path && !strncmp(map->path, "[kernel.kallsyms]", 17)))) ||
	    (!map && is_kernel_ip(ip)))
		return resolve_kernel(s, map, ip, flags, loc);
	memset(loc, 0, sizeof(*loc));
	loc->ip = loc->rel_ip = ip;
	loc->map = map;
	loc->dso = "[unknown]";
	uint64_t look = (flags & PERFEV_RESOLVE_RETURN_ADDR) ? ip - 1 : ip;
	if (!map || is_anon(map->path))
		return resolve_jit(s, pid, ip, look, loc);
	if (map->end > map->start && (ip < map->start || ip >= map->end)) {
		loc->map = NULL; /* the caller's map does not hold ip: no guessing */
		return 0;
	}

	struct pv_dso *d;
	if (s->last_dso && s->last_pid == pid && same_map(&s->last_map, map)) {
		d = s->last_dso;
	} else {
		d = pv_symbolizer_dso(s, pid, map->path, map->build_id, map->build_id_len, map);
		if (!d)
			return 0; /* out of memory: unresolved */
		s->last_map = *map;
		s->last_dso = d;
		s->last_pid = pid;
	}
	return resolve_in_dso(s, d, to_vaddr(d, map, ip), to_vaddr(d, map, look), flags, loc);
}

PERFEV_API int perfev_symbolizer_resolve_file(struct perfev_symbolizer *s, const char *path,
					      uint64_t vaddr, unsigned flags,
					      struct perfev_location *loc)
{
	if (!s || !path || !loc)
		return pv_error(EINVAL, "perfev_symbolizer_resolve_file: NULL argument");
	memset(loc, 0, sizeof(*loc));
	loc->ip = vaddr;
	loc->dso = "[unknown]";
	struct pv_dso *d = pv_symbolizer_dso(s, -1, path, NULL, 0, NULL);
	if (!d)
		return 0;
	uint64_t look = (flags & PERFEV_RESOLVE_RETURN_ADDR) ? vaddr - 1 : vaddr;
	return resolve_in_dso(s, d, vaddr, look, flags, loc);
}
