/*
 * perfev/location.h — the vocabulary shared by the session (which maps a
 * process has), the symbolizer (what an address in a map means) and the
 * profile (what the views aggregate): a memory map, and a resolved location
 * with its source lines, inlined frames included.
 */
#ifndef PERFEV_LOCATION_H
#define PERFEV_LOCATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

#define PERFEV_BUILD_ID_MAX 20 /* bytes; GNU build-ids are 20 (SHA-1) or 16 (MD5) */

/*
 * One mapping of a file (or anonymous/special region) in a process, as
 * PERF_RECORD_MMAP/MMAP2 and /proc/PID/maps describe it. [start, end).
 * Strings are owned by whoever produced the map and live as long as it.
 */
struct perfev_map {
	uint64_t start, end;
	uint64_t pgoff;    /* file offset of `start` */
	const char *path;  /* file path, or "[kernel.kallsyms]", "[vdso]", "//anon", ... */
	uint32_t prot, flags;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint8_t build_id[PERFEV_BUILD_ID_MAX];
	uint8_t build_id_len; /* 0: not known */
	bool kernel;          /* kernel or module address space */
};

/* One source-level frame at an address. */
struct perfev_source_line {
	const char *function; /* demangled; NULL if unknown */
	const char *file;     /* source file path; NULL if unknown */
	uint32_t line;        /* 0 if unknown */
	uint32_t column;      /* 0 if unknown */
};

/*
 * What an instruction address resolves to. Strings and the lines array are
 * owned by whoever resolved it (symbolizer, profile) and live as long as it.
 */
struct perfev_location {
	uint64_t ip;          /* the address as sampled, in the process */
	uint64_t rel_ip;      /* the same address in the DSO's own terms (ELF vaddr; kernel: as is) */
	const char *symbol;   /* the ELF/kallsyms symbol, demangled; NULL if unknown */
	uint64_t symoff;      /* ip - symbol start (valid when symbol) */
	const char *dso;      /* the DSO path, "[kernel.kallsyms]", or "[unknown]" */
	const struct perfev_map *map; /* the map that holds ip; NULL if none */
	bool kernel;
	/* Source lines, innermost first: lines[0] is the deepest inlined
	 * frame, lines[nr_lines-1] the function that holds them (symbol). */
	size_t nr_lines;
	const struct perfev_source_line *lines;
	uint64_t symsize;     /* the symbol's size (ELF st_size, else up to the next symbol); 0: unknown */
};

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_LOCATION_H */
