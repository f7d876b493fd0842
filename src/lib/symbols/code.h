/* code.h — a binary's machine code, for disassemblers (view/annotate):
 * the bytes of an address range of the binary the symbolizer found for a
 * DSO (the same lookup as its symbols: --symfs, build-id directories,
 * /proc/PID/root), or of the running kernel from /proc/kcore. */
#ifndef PERFEV_SYMBOLS_CODE_H
#define PERFEV_SYMBOLS_CODE_H

#include <stddef.h>
#include <stdint.h>

struct perfev_symbolizer;

struct pv_code {
	const uint8_t *bytes; /* in the symbolizer's mapping of the binary: lives as long as it */
	size_t len;
	uint16_t machine;     /* the ELF's e_machine (EM_X86_64, EM_AARCH64...) */
	const char *file;     /* the file read (pooled) */
};

/*
 * The bytes of [vaddr, vaddr + len) (ELF virtual addresses) of the binary
 * mapped as path. 0; -ENOENT when no binary was found (a symbolizer note
 * says why), -ERANGE when the range is not in the file's loaded segments
 * (.bss, or a debug-only file). No message is set: the caller words it.
 */
int pv_symbolizer_code(struct perfev_symbolizer *s, const char *path, uint64_t vaddr,
		       uint64_t len, struct pv_code *out);

/*
 * Reads len bytes of kernel memory at addr from kcore (NULL: /proc/kcore)
 * into buf, through its PT_LOAD segments. 0, or -errno (ENOENT, EACCES: not
 * readable; ERANGE: not in any segment). machine: the kernel's e_machine.
 */
int pv_kcore_code(const char *kcore, uint64_t addr, size_t len, uint8_t *buf, uint16_t *machine);

#endif
