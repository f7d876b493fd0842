/* watch_int.h — what the watcher (watcher.c) shares with its helpers
 * (private): the maps of one process and their symbols (through the
 * symbolizer), and the accessing instruction before a trap IP. */
#ifndef PERFEV_WATCH_INT_H
#define PERFEV_WATCH_INT_H

#include <stdint.h>

/* The explanation of a breakpoint open failure (watch.c). */
void pv_watch_explain(int err, unsigned type);

struct pv_wsym;
struct pv_wloc {
	const char *symbol; /* NULL if unknown */
	uint64_t symoff;
	uint64_t sym_vaddr; /* the symbol's start in the file's ELF terms */
	const char *dso;    /* the map's path, "[unknown]" */
	uint64_t rel;       /* ip in the file's ELF terms (vaddr) */
	uint64_t bias;      /* ip - rel: where the file is loaded */
};

struct pv_wsym *pv_wsym_new(void);
void pv_wsym_free(struct pv_wsym *s);
/* A file mapping [start, start+len) at file offset pgoff. 0 or -ENOMEM. */
int pv_wsym_add_map(struct pv_wsym *s, uint64_t start, uint64_t len, uint64_t pgoff,
		    const char *path);
/* Resolves ip of process pid through the symbolizer (strings live as long
 * as s). Always fills out. */
void pv_wsym_resolve(struct pv_wsym *s, int pid, uint64_t ip, struct pv_wloc *out);
/* A symbol of the file at path by name: its ELF vaddr and size. 0 or -ENOENT. */
int pv_wsym_lookup(struct pv_wsym *s, const char *path, const char *name, uint64_t *vaddr,
		   uint64_t *size);
/* Where the file at path is loaded (address - ELF vaddr), from its map at
 * file offset 0 added before. 0 or -ENOENT. */
int pv_wsym_bias(struct pv_wsym *s, const char *path, uint64_t *bias);
/* The instruction that ends at trap ip, found by disassembling the symbol
 * from its start (x86: data breakpoints trap after the access). Returns 0
 * and sets *insn, or -ENOENT when it cannot tell (then *insn = ip). */
int pv_wsym_insn_before(struct pv_wsym *s, int pid, uint64_t ip, uint64_t *insn);

#endif
