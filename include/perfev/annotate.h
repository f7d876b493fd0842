/*
 * perfev/annotate.h — perf annotate: the hot symbols of a recording down to
 * their instructions, each with its share of the symbol's samples, the
 * source lines DWARF maps them to and the inlined functions they belong to.
 *
 * The samples come from the profile (perfev/profile.h: one load of the
 * recording, every sample's address and symbol resolved once); the code
 * bytes from the binary the symbolizer finds for the DSO (--symfs, build-id
 * directories), kernel code from /proc/kcore; disassembly is capstone's
 * (x86-64 and aarch64, by the ELF's machine), in AT&T syntax as objdump and
 * perf print it, or Intel's.
 *
 * An annotation holds one perfev_annotated_symbol per symbol with samples,
 * hottest first, each a list of rows: instructions, and (unless no_source)
 * the source lines and inlined function names before the instructions they
 * cover, as perf annotate --stdio lays them out. A viewer (the terminal
 * browser, perfev_annotate_print) reads rows; nothing is computed while
 * printing.
 */
#ifndef PERFEV_ANNOTATE_H
#define PERFEV_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "perfev/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_perfdata;
struct perfev_annotation;

/* What an instruction's percent is of (perf annotate --percent-type). */
enum perfev_annotate_percent {
	PERFEV_ANNOTATE_LOCAL_PERIOD = 0, /* of the symbol's period (perf's default) */
	PERFEV_ANNOTATE_GLOBAL_PERIOD = 1, /* of the event's total period */
	PERFEV_ANNOTATE_LOCAL_HITS = 2,   /* of the symbol's samples */
	PERFEV_ANNOTATE_GLOBAL_HITS = 3,  /* of the event's samples */
};

struct perfev_annotate_opts {
	size_t sz;             /* sizeof(struct perfev_annotate_opts) */
	const char *symbol;    /* only this symbol (exact name); NULL: every symbol with samples */
	const char *dso;       /* only symbols of this DSO (path or base name); NULL: any */
	int event;             /* index of the event; -1: the first one */
	enum perfev_annotate_percent percent_type;
	bool intel;            /* Intel syntax (perf's -M intel); default AT&T */
	bool no_source;        /* instructions only: no source lines or inlined names */
	const char *symfs;     /* perf's --symfs: binaries and debug files under this directory */
	const char *kallsyms;  /* NULL: /proc/kallsyms; "": no kernel symbols */
	const char *kcore;     /* kernel code; NULL: /proc/kcore */
	bool no_cache;         /* see perfev_symbolizer_opts.no_cache */
	/* symbols below this percent of the event's total period are left out
	 * (0: every symbol with samples) */
	double min_percent;
};
#define perfev_annotate_opts__last_field min_percent

enum perfev_annotate_row_kind {
	PERFEV_ANNOTATE_INSN = 0,     /* an instruction */
	PERFEV_ANNOTATE_SOURCE = 1,   /* a source line (srcfile:line, text its text) */
	PERFEV_ANNOTATE_FUNCTION = 2, /* the function (inlined or the symbol's own) the next rows are in */
};

/* One row of a symbol's annotation. Strings and bytes live as long as the annotation. */
struct perfev_annotate_row {
	enum perfev_annotate_row_kind kind;
	uint64_t addr;          /* INSN: its address in the object's terms (ELF vaddr; kernel: as run) */
	const uint8_t *bytes;   /* INSN: its encoding */
	size_t nr_bytes;
	/* INSN: mnemonic and operands, objdump's layout ("addsd  %xmm1,%xmm0",
	 * "jne    1290 <sum_div+0x20>"); SOURCE: the line's text (leading blanks
	 * removed), NULL when the file cannot be read; FUNCTION: the name */
	const char *text;
	const char *srcfile;    /* INSN, SOURCE: the source file DWARF names; NULL: none */
	uint32_t line;          /* INSN, SOURCE: its line; 0: none */
	const char *function;   /* INSN: the innermost function there (an inlined one's name), NULL: none */
	bool inlined;           /* INSN: function is inlined into the symbol */
	uint64_t samples, period; /* INSN: the samples at this address and their period */
	double percent;         /* INSN: per the percent type (0..100) */
};

/* One annotated symbol. */
struct perfev_annotated_symbol {
	const char *symbol;     /* its name, demangled */
	const char *dso;        /* the object's path, "[kernel.kallsyms]" */
	bool kernel;
	uint64_t start, size;   /* in the object's terms */
	uint16_t machine;       /* the code's ELF e_machine (62 x86-64, 183 aarch64); 0: no code */
	uint64_t samples, period; /* its samples and their period */
	/* why rows are missing or partial (no binary, stripped: instructions
	 * only, kernel code unreadable...), naming the fix; NULL: none */
	const char *note;
	const struct perfev_annotate_row *rows;
	size_t nr_rows;
};

/*
 * Reads the samples of one event of an open recording (which stays the
 * caller's) and annotates every symbol they hit (or opts->symbol). Symbols
 * come hottest first (by period). Returns a new annotation (free with
 * perfev_annotation_free), or NULL with errno and perfev_errmsg(): EINVAL
 * (bad opts, no such event), ENOENT (opts->symbol has no samples: the
 * message says so), ENOMEM, or the file's read error.
 */
PERFEV_API struct perfev_annotation *perfev_annotate_load_from(struct perfev_perfdata *pd,
								const struct perfev_annotate_opts *opts);
PERFEV_API void perfev_annotation_free(struct perfev_annotation *a);

PERFEV_API size_t perfev_annotation_nr_symbols(const struct perfev_annotation *a);
/* The i-th symbol, NULL past the end. Lives as long as the annotation. */
PERFEV_API const struct perfev_annotated_symbol *perfev_annotation_symbol(const struct perfev_annotation *a,
									  size_t i);
/* The event's name ("cpu-clock"), and its totals (of what global percents are). */
PERFEV_API const char *perfev_annotation_event(const struct perfev_annotation *a);
PERFEV_API uint64_t perfev_annotation_total(const struct perfev_annotation *a, bool period);

struct perfev_annotate_print_opts {
	size_t sz;             /* sizeof(struct perfev_annotate_print_opts) */
	bool json;             /* JSON: per symbol, per instruction (rows of kind INSN) */
	bool asm_raw;          /* the instructions' bytes too (perf's --asm-raw) */
	/* perf's --print-line: before each symbol, its source lines above 0.5
	 * percent summed per file:line, hottest first ("Sorted summary") */
	bool print_line;
	bool full_paths;       /* source file paths in full in the summary (default: base names) */
};
#define perfev_annotate_print_opts__last_field full_paths

/*
 * Prints the annotation to out: perf annotate --stdio's layout (a header
 * naming the DSO, the event and the symbol's samples, then "percent :
 * address: instruction" and ": line  source" rows), or JSON. 0, or -EINVAL
 * (bad opts), -EIO (out failed).
 */
PERFEV_API int perfev_annotation_print(const struct perfev_annotation *a,
				       const struct perfev_annotate_print_opts *opts, FILE *out);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_ANNOTATE_H */
