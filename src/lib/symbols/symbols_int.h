/*
 * symbols_int.h — the symbolizer's private parts, shared by its files:
 * string interning and a u64 hash map (strpool.c), sorted symbol tables
 * (symtab.c), the per-binary cache entry (symbols_dso.c reads binaries,
 * symbols_elf.c their symbols, symbols_dwarf.c their lines), kallsyms
 * and perf-PID.map (symbols_kernel.c, symbols_jit.c).
 */
#ifndef PERFEV_SYMBOLS_INT_H
#define PERFEV_SYMBOLS_INT_H

#include "core/internal.h"
#include "perfev/location.h"
#include "perfev/symbols.h"

#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdlib.h>
#include "core/strpool.h"

/* ---- sorted symbol tables ------------------------------------------------ */
struct pv_sym {
	uint64_t start, size; /* size 0: up to the next symbol */
	const char *name;     /* pooled, demangled */
	const char *module;   /* kallsyms: pooled "[mod]"; NULL otherwise */
	uint8_t rank;         /* among symbols at one address: higher wins (global 3, local 2, weak 1) */
	uint32_t seq;         /* order of addition: perf keeps the first of equals */
	/* of symbols at one address, the one perf keeps when it does not
	 * demangle (--no-demangle: the names' mangled lengths decide), where
	 * that is another than name; else NULL */
	const char *mangled_pick;
};
struct pv_symtab {
	struct pv_sym *syms;
	size_t nr, cap;
};
/*
 * In an array of n elements of elsize bytes, sorted by a uint64_t that is
 * each element's first field: the index of the first whose key is > key.
 */
size_t pv_upper_bound(const void *base, size_t n, size_t elsize, uint64_t key);
int pv_symtab_add(struct pv_symtab *t, uint64_t start, uint64_t size, const char *name,
		  const char *module, uint8_t rank);
/* Sorts, keeps one symbol per address (highest rank), fills zero sizes up to the next symbol. */
void pv_symtab_finish(struct pv_symtab *t);
/* The symbol containing addr, or NULL. */
const struct pv_sym *pv_symtab_find(const struct pv_symtab *t, uint64_t addr);
void pv_symtab_free(struct pv_symtab *t);

/* How names are demangled. */
enum pv_demangle { PV_DEMANGLE_NONE, PV_DEMANGLE_FULL, PV_DEMANGLE_NO_PARAMS };
/* Demangles into the pool when name is mangled; returns name (pooled) otherwise. */
const char *pv_demangle_pooled(struct pv_strpool *p, const char *name, enum pv_demangle how);
/* The length and leading underscores of name as perf keeps it (demangled
 * without parameters where it demangles), which its choose_best_symbol
 * compares among symbols at one address. */
size_t pv_perf_name_len(const char *name, size_t *underscores);
/* The demangling a perfev_resolve_flags value asks for. */
static inline enum pv_demangle pv_demangle_of(unsigned flags)
{
	if (flags & PERFEV_RESOLVE_NO_DEMANGLE)
		return PV_DEMANGLE_NONE;
	return (flags & PERFEV_RESOLVE_NO_PARAMS) ? PV_DEMANGLE_NO_PARAMS : PV_DEMANGLE_FULL;
}

/* ---- one binary ---------------------------------------------------------- */
struct pv_segment {
	uint64_t offset, vaddr, filesz, memsz;
};

/* An ELF image we own: a private mapping of a file, or a malloc'ed buffer. */
struct pv_elf {
	Elf *elf;
	void *image;
	size_t size;
	bool malloced;
	char *path;
};

struct pv_srcinfo {
	size_t nr;
	struct perfev_source_line *lines;
};

/* A code symbol of .symtab with the source file its STT_FILE names, as
 * binutils' elf_find_function attributes it (symbols_elf.c). */
struct pv_filesym {
	uint64_t addr;           /* first: pv_upper_bound's key */
	uint64_t sec_lo, sec_hi; /* its section's addresses */
	const char *file;        /* pooled; NULL: none */
	uint32_t index;          /* in the table: the first of equals wins */
};

struct pv_dso {
	const char *name;     /* as mapped (pooled) */
	const char *file;     /* the file read, NULL when none */
	uint8_t build_id[PERFEV_BUILD_ID_MAX];
	uint8_t build_id_len;
	struct pv_elf bin;    /* the binary (elf NULL: not found) */
	struct pv_elf debug;  /* separate debug file (elf NULL: none) */
	struct pv_elf mini;   /* MiniDebugInfo (elf NULL: none) */
	struct pv_elf inflated; /* the cached inflated copy dwarf reads (elf NULL: none) */
	Dwarf *dwarf;         /* from debug or bin; NULL: no DWARF */
	bool dwarf_tried;
	struct pv_segment *segs; /* PT_LOADs, to turn file offsets into vaddrs */
	size_t nr_segs;
	struct pv_symtab syms;
	struct pv_u64map srcinfo; /* (vaddr << 3 | demangle << 1 | inline) -> struct pv_srcinfo */
	struct pv_u64map cu_index; /* CU DIE offset -> struct pv_cu_index */
	/* units by address, for DWARF without .debug_aranges (clang's default) */
	struct pv_cu_range *cu_ranges;
	size_t nr_cu_ranges;
	bool cu_ranges_built;
	/* .debug_aranges read by us: libdw's reading visits every unit's header,
	 * which makes all of .debug_info resident (off: unit offsets) */
	struct pv_cu_range *aranges;
	size_t nr_aranges;
	int aranges_state; /* 0 not read, 1 read, -1 unusable: ask libdw */
	/* how far libdw knows the units of an inflated copy (symbols_dwarf.c) */
	Dwarf_CU *walk_cu;
	Dwarf_Off walk_pos;
	bool walk_done;
	size_t computed; /* addresses resolved (symbols_dwarf.c gives pages back every few) */
	struct pv_filesym *filesyms; /* read when a line is not in DWARF */
	size_t nr_filesyms;
	bool filesyms_read;
};

/* kallsyms, compact: 16 bytes a symbol (122k of them on a common kernel) */
struct pv_ksym {
	uint64_t start;
	uint32_t name;   /* offset in pv_ktab.names */
	uint16_t module; /* 0: the kernel itself, else index + 1 in pv_ktab.modules */
	uint8_t rank;    /* T 2, t/w/W 1 */
	uint8_t flags;   /* PV_KSYM_* */
};
/* A symbol that can come and go at any time (BPF, trampolines, kprobe
 * pages, ftrace's copies of freed module init code): never cached. */
#define PV_KSYM_DYNAMIC 1u
/* In a cached table: a dynamic symbol followed this one in the real file,
 * so the next cached symbol is not where it ends. */
#define PV_KSYM_OPEN 2u
/* perf's -k/--vmlinux: path's function symbols as kallsyms text in an
 * anonymous memory file, *fd (read it as /proc/self/fd/N; close it after).
 * build_id (len 0: none known): the recorded kernel's; another build's
 * image gives *fd -1 and a note (no kernel symbols, as perf). 0, or
 * -errno with the error set (a missing file, not an ELF, no symbols). */
int pv_vmlinux_kallsyms(const char *path, const uint8_t *build_id, size_t build_id_len, int *fd);

struct pv_ktab {
	struct pv_ksym *syms; /* by start, one per address; each ends at the next */
	size_t nr;
	char *names;
	const char **modules; /* pooled "[mod]" */
	size_t nr_modules, cap_modules;
	/* syms and names point into an index file (the kallsyms cache) */
	bool borrowed;
	void *map;            /* its mapping, unmapped by pv_kallsyms_free (NULL: none) */
	size_t map_len;
	/* core-kernel and module symbols only (the cache): an address it does not
	 * cover needs the real file (pv_kallsyms_find says -EAGAIN) */
	bool partial;
};

struct pv_jit {
	int pid;
	const char *name; /* "/tmp/perf-PID.map" (pooled) */
	bool found;
	struct pv_symtab syms;
};

struct perfev_symbolizer {
	struct perfev_symbolizer_opts opts;
	char *debug_dirs;
	char *symfs_kallsyms; /* --symfs without --kallsyms: SYMFS/proc/kallsyms */
	struct pv_strpool *pool;
	struct pv_u64map dsos; /* pooled key pointer -> struct pv_dso */
	struct pv_u64map demangled[3]; /* per enum pv_demangle: pooled raw name -> pooled demangled */
	struct pv_dso **all_dsos;
	size_t nr_dsos, cap_dsos;
	/* last map resolved: skips the key lookup for runs of one map */
	struct perfev_map last_map;
	struct pv_dso *last_dso;
	int last_pid;
	/* kernel */
	bool kernel_tried;
	struct pv_ktab kernel;
	struct pv_ktab kernel_cached; /* the cache, kept for its strings after kernel was read in full */
	size_t kernel_lookups;
	/* KASLR: where _text and _stext are now (kernel_delta), read once */
	bool kref_read;
	uint64_t kref_now[2];
	/* JIT maps per pid */
	struct pv_jit *jits;
	size_t nr_jits, cap_jits;
	/* notes */
	const char **notes;
	size_t nr_notes, cap_notes;
	void *debuginfod; /* debuginfod_client *, lazily */
	bool debuginfod_tried;
};

void pv_sym_note(struct perfev_symbolizer *s, const char *fmt, ...) PV_PRINTF(2, 3);
/* The cached binary of a map (found by build-id, path, /proc/PID/root...); NULL on ENOMEM. */
struct pv_dso *pv_symbolizer_dso(struct perfev_symbolizer *s, int pid, const char *path,
				 const uint8_t *bid, size_t bid_len, const struct perfev_map *m);

/* symbols_dso.c: find and open a binary, its debug file, its MiniDebugInfo. */
struct pv_dso *pv_dso_load(struct perfev_symbolizer *s, int pid, const char *path,
			   const uint8_t *build_id, size_t build_id_len);
void pv_dso_free(struct pv_dso *d);
/* Maps an ELF image of a file (private, copy-on-write) or of a buffer (taken over). */
int pv_elf_open_file(struct pv_elf *e, const char *path);
int pv_elf_open_mem(struct pv_elf *e, void *buf, size_t size);
void pv_elf_close(struct pv_elf *e);
/* The GNU build-id of an ELF: length (0: none). */
size_t pv_elf_build_id(Elf *elf, uint8_t *out, size_t max);
/* Decompresses .gnu_debugdata (xz) into an ELF image. 0 or -errno. */
int pv_minidebuginfo(Elf *elf, struct pv_elf *out);

/* symbols_elf.c: the section called name (and its header, if out), or NULL. */
Elf_Scn *pv_elf_section(Elf *elf, const char *name, GElf_Shdr *out);
/* Reads an ELF's function symbols (.symtab, or .dynsym if dynsym) into t. */
int pv_elf_read_symbols(struct pv_strpool *p, Elf *elf, struct pv_symtab *t, bool dynsym);
int pv_elf_read_plt(struct pv_strpool *p, Elf *elf, struct pv_symtab *t);
int pv_elf_read_segments(Elf *elf, struct pv_segment **segs, size_t *nr);
/* The code symbols of .symtab with their STT_FILE names, sorted by address:
 * count, or -ENOMEM. */
ssize_t pv_elf_read_filesyms(struct pv_strpool *p, Elf *elf, struct pv_filesym **out);
/* The source file binutils' addr2line names for vaddr without DWARF (the
 * STT_FILE before the nearest local symbol below it), or NULL. */
const char *pv_filesyms_find(const struct pv_filesym *f, size_t nr, uint64_t vaddr);

/* symbols_dwarf.c: source lines at vaddr, innermost first; cached in the dso. */
struct pv_cu_index;
struct pv_cu_range;
void pv_cu_index_free(struct pv_cu_index *x);
const struct pv_srcinfo *pv_dso_srcinfo(struct perfev_symbolizer *s, struct pv_dso *d,
					uint64_t vaddr, bool inlines, enum pv_demangle how);

/* vdso.c: a file holding this process's [vdso] image, or NULL. */
const char *pv_vdso_path(void);

/* symbols_kernel.c / symbols_jit.c */
/* Reads a kallsyms file into t (empty). known_modules, when not NULL, is the
 * "\n"-separated, "\n"-framed list of loaded modules' names: symbols of other
 * "[tags]" (bpf, __builtin__ftrace...) and of a tag seen again after its run
 * are marked PV_KSYM_DYNAMIC. The number of symbols, or -errno (noted). */
int pv_kallsyms_load(struct perfev_symbolizer *s, const char *path, const char *known_modules,
		     struct pv_ktab *t);
/* The kernel symbol containing addr: 1 with *name, *module (NULL: the
 * kernel), *start set, 0 if none, -EAGAIN if t is partial and does not
 * cover addr (the full file would tell). */
int pv_kallsyms_find(const struct pv_ktab *t, uint64_t addr, const char **name,
		     const char **module, uint64_t *start);
/* The same, with the symbol's size (up to the next symbol, capped at
 * another module's) in *size. */
int pv_kallsyms_find_sized(const struct pv_ktab *t, uint64_t addr, const char **name,
			   const char **module, uint64_t *start, uint64_t *size);
void pv_kallsyms_free(struct pv_ktab *t);

/* symbols_kcache.c: the kallsyms index cache ($XDG_CACHE_HOME/perfev/).
 * Where the running kernel's facts come from (NULL fields: /proc, and
 * $XDG_CACHE_HOME/perfev or ~/.cache/perfev, else FALLBACK/perfev-UID with
 * FALLBACK /var/tmp when that one cannot be opened or written). */
struct pv_kcache_src {
	const char *kallsyms, *modules, *boot_id, *kptr_restrict, *paranoid;
	const char *dir;      /* this directory and no other */
	const char *fallback; /* a sticky directory to use instead of /var/tmp */
};
/* What a cache file must match: the boot, and a hash of the loaded modules
 * and of how kallsyms shows addresses to us. */
struct pv_kcache_key {
	char boot_id[48];
	uint64_t hash;
	char *modules; /* "\n"-framed names of the loaded modules (malloc'ed) */
};
/* 0, or -EACCES when kallsyms hides addresses, -errno when a fact is unreadable. */
int pv_kcache_key(const struct pv_kcache_src *src, struct pv_kcache_key *k);
void pv_kcache_key_free(struct pv_kcache_key *k);
/* The cache directory (created 0700, ours, not group/world-writable): an
 * O_PATH-like descriptor, or -errno (then there is no cache). */
int pv_kcache_dir(const struct pv_kcache_src *src);
/* Checks an index image (len bytes, 8-byte aligned) and points t into it
 * (t->borrowed; k NULL: any key). 0, or -EBADMSG (corrupt, foreign, other
 * version), -ESTALE (another boot or modules). Linear in len. */
int pv_kcache_parse(struct pv_strpool *pool, const void *img, size_t len,
		    const struct pv_kcache_key *k, struct pv_ktab *t);
/* Recomputes an index image's checksums (tests and fuzzing forge valid ones). */
void pv_kcache_seal(void *img, size_t len);
/* Maps dirfd's index into t if valid for k: 1, or 0 (none, stale, corrupt). */
int pv_kcache_read(struct pv_strpool *pool, int dirfd, const struct pv_kcache_key *k,
		   struct pv_ktab *t);
/* Writes full's core and module symbols as dirfd's index for k, atomically. 0 or -errno. */
int pv_kcache_write(int dirfd, const struct pv_kcache_key *k, const struct pv_ktab *full);
/* The running kernel's symbols into t: from the cache when valid, else
 * from kallsyms (and the cache written). As pv_kallsyms_load. */
int pv_kcache_load(struct perfev_symbolizer *s, const struct pv_kcache_src *src, struct pv_ktab *t);
/* symbols_dcache.c: for an ELF file with compressed sections, its copy with
 * them inflated, from the cache directory (written on first use): 0, or
 * -errno (none: read e itself). */
int pv_dcache_open(const struct pv_elf *e, struct pv_elf *out);
/* The copy's two halves, also for fuzz/dcache.c (e's image and size alone,
 * no libelf handle): writes the inflated copy of e to fd, no section
 * inflating past max_inflated bytes: 0, -ENOTSUP (not a 64-bit native ELF
 * with compressed sections the copy handles), -EBADMSG (a section does not
 * inflate to its size) or -errno. pv_dcache_matches: is copy what that
 * made of e (its section headers checked against e's)? */
int pv_dcache_write(int fd, const struct pv_elf *e, uint64_t max_inflated);
bool pv_dcache_matches(const struct pv_elf *e, const struct pv_elf *copy);
/* Is this cache turned off (opts, or PERFEV_NO_<env>_CACHE=1 / PERFEV_NO_CACHE=1)? */
bool pv_cache_disabled(const struct perfev_symbolizer *s, const char *env);
/* The file name of the index inside the cache directory. */
#define PV_KCACHE_FILE "kallsyms.idx"

struct pv_jit *pv_jit_get(struct perfev_symbolizer *s, int pid);

#endif
