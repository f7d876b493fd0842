/*
 * perfev/symbols.h — what an address means: symbol, offset, DSO, source
 * lines and inlined frames.
 *
 * A symbolizer reads ELF symbol tables (.symtab, .dynsym, MiniDebugInfo,
 * synthesized name@plt entries), separate debug info (build-id directory,
 * .gnu_debuglink, debuginfod when DEBUGINFOD_URLS is set), DWARF line
 * tables and inline chains (libdw), /proc/kallsyms and /tmp/perf-PID.map.
 * Everything it reads is indexed once per binary (keyed by build-id, else
 * device/inode) and cached for the symbolizer's lifetime: resolving the same
 * address twice costs a hash lookup.
 *
 * Nothing here fails because a binary is missing, stripped or has broken
 * debug info: the location then says "[unknown]" (or names the DSO with no
 * symbol), and a note (perfev_symbolizer_note) says what was missing and how
 * to get it.
 *
 * A symbolizer is not thread-safe; use one per thread.
 */
#ifndef PERFEV_SYMBOLS_H
#define PERFEV_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/abi.h"
#include "perfev/location.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_symbolizer;

/* Options; zero-initialize and set .sz = sizeof(struct perfev_symbolizer_opts). */
struct perfev_symbolizer_opts {
	size_t sz;
	/* Colon-separated global debug directories; NULL: "/usr/lib/debug". */
	const char *debug_dirs;
	/* kallsyms file; NULL: "/proc/kallsyms". "" disables kernel symbols. */
	const char *kallsyms;
	/* Directory holding perf-PID.map JIT files; NULL: "/tmp". */
	const char *jit_dir;
	/* Do not ask debuginfod even if DEBUGINFOD_URLS is set. */
	bool no_debuginfod;
	/* Do not look through /proc/PID/root for binaries (containers). */
	bool no_proc_root;
	/* Do not use (or write) the caches in $XDG_CACHE_HOME/perfev
	 * (~/.cache/perfev): the index of the running kernel's /proc/kallsyms
	 * (used only when kallsyms is NULL) and inflated copies of debug files
	 * with compressed sections. They are also off when the environment has
	 * PERFEV_NO_CACHE=1 (both), PERFEV_NO_KALLSYMS_CACHE=1 or
	 * PERFEV_NO_DEBUG_CACHE=1. */
	bool no_cache;
	/* perf's --symfs: binaries and debug files are looked for under this
	 * directory (a copy of the recording machine's files), the path as
	 * mapped appended; the machine's own files are not used for mapped
	 * paths (debug directories default to SYMFS/usr/lib/debug). */
	const char *symfs;
};
#define perfev_symbolizer_opts__last_field symfs

/* perfev_symbolizer_resolve() flags. */
enum perfev_resolve_flags {
	/* lines[]: one entry, the line table's position and the innermost
	 * function there (what addr2line -f prints) */
	PERFEV_RESOLVE_SRCLINE = 1u << 0,
	/* lines[]: the whole chain, innermost inlined frame first, as
	 * addr2line -f -i (implies SRCLINE) */
	PERFEV_RESOLVE_INLINE = 1u << 1,
	PERFEV_RESOLVE_NO_DEMANGLE = 1u << 2, /* keep symbols as mangled in the ELF */
	/* ip is a return address (a callchain entry above the leaf): the call
	 * instruction before it is looked up, as perf and addr2line users do. */
	PERFEV_RESOLVE_RETURN_ADDR = 1u << 3,
	/* demangle without parameter lists ("ns::f", not "ns::f(int) const"),
	 * as perf report names symbols unless -v */
	PERFEV_RESOLVE_NO_PARAMS = 1u << 4,
};

/*
 * Creates a symbolizer. opts may be NULL (defaults). Returns NULL + errno
 * (ENOMEM, or EINVAL for a bad opts->size).
 */
PERFEV_API struct perfev_symbolizer *perfev_symbolizer_new(const struct perfev_symbolizer_opts *opts);
/* Frees it and every string and line it handed out. Accepts NULL. */
PERFEV_API void perfev_symbolizer_free(struct perfev_symbolizer *s);

/*
 * Resolves ip, sampled in process pid (-1: unknown; used for
 * /proc/PID/root and perf-PID.map), which lies in `map` (NULL when no map
 * is known: then only kernel addresses and perf-PID.map are tried).
 * Kernel addresses (map->kernel, or no map and ip in the kernel half) are
 * resolved through kallsyms.
 *
 * An ip outside [map->start, map->end) stays unresolved (loc->map NULL).
 *
 * Fills *loc. Its strings, lines and map pointer (the caller's `map`) live
 * as long as the symbolizer (and the caller's map). Returns 1 when a symbol
 * was found, 0 when the address stays unresolved (loc->symbol NULL,
 * loc->dso the DSO path or "[unknown]"; a note says why), -EINVAL for
 * bad arguments.
 */
PERFEV_API int perfev_symbolizer_resolve(struct perfev_symbolizer *s, int pid,
					 const struct perfev_map *map, uint64_t ip,
					 unsigned flags, struct perfev_location *loc);

/*
 * Resolves vaddr, an address of the file at path in the file's own terms
 * (ELF virtual address, as nm and addr2line print them), with no process
 * or map: the file and its debug info are found as for
 * perfev_symbolizer_resolve(). Same contract; loc->map is NULL.
 */
PERFEV_API int perfev_symbolizer_resolve_file(struct perfev_symbolizer *s, const char *path,
					      uint64_t vaddr, unsigned flags,
					      struct perfev_location *loc);

/*
 * Resolves a kernel address through kallsyms (modules included). Same
 * contract as perfev_symbolizer_resolve(); dso is "[kernel.kallsyms]" or
 * "[MODULE]". Without root (or kptr_restrict) kallsyms shows zeros: the
 * address stays unresolved and a note says so.
 */
PERFEV_API int perfev_symbolizer_resolve_kernel(struct perfev_symbolizer *s, uint64_t ip,
						unsigned flags, struct perfev_location *loc);

/*
 * The same for an address of a recording whose kernel map (the MMAP record
 * named "[kernel.kallsyms]_text", pgoff: where _text was) is kernel_map: a
 * kernel booted again since (KASLR) sits elsewhere, and ip is looked up
 * moved by the difference, as perf does. loc->ip stays the recorded ip.
 * kernel_map NULL: perfev_symbolizer_resolve_kernel().
 */
PERFEV_API int perfev_symbolizer_resolve_recorded_kernel(struct perfev_symbolizer *s,
							 const struct perfev_map *kernel_map, uint64_t ip,
							 unsigned flags, struct perfev_location *loc);

/*
 * Loads a binary's symbols (the same lookup as resolve), e.g. to warm the
 * cache or to check a file. path is the path as mapped; build_id may be
 * NULL. Returns the number of symbols found (0: none, a note says why).
 */
PERFEV_API int perfev_symbolizer_load(struct perfev_symbolizer *s, int pid, const char *path,
				      const uint8_t *build_id, size_t build_id_len);

/*
 * Notes about degradations (missing binary, stripped binary, no debug
 * info, unreadable kallsyms...), one per problem and DSO, each naming the
 * fix. perfev_symbolizer_note(s, i) for i < perfev_symbolizer_nr_notes(s);
 * NULL past the end. Strings live as long as the symbolizer.
 */
PERFEV_API size_t perfev_symbolizer_nr_notes(const struct perfev_symbolizer *s);
PERFEV_API const char *perfev_symbolizer_note(const struct perfev_symbolizer *s, size_t i);

/*
 * Demangles a C++ (Itanium) or Rust (legacy or v0) symbol as nm -C does
 * (libiberty, DMGL_PARAMS | DMGL_ANSI). Returns a malloc'ed string the
 * caller frees, or NULL if the name is not mangled (errno EINVAL) or on
 * ENOMEM.
 */
PERFEV_API char *perfev_demangle(const char *mangled);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_SYMBOLS_H */
