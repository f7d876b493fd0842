/*
 * perfev/script.h — `perfev script`: every sample of a perf.data file as a
 * line in perf script's layout (perf's field names for -F, its default
 * fields per event type, its column widths), or as JSON, one object per
 * record with the side-band records included.
 */
#ifndef PERFEV_SCRIPT_H
#define PERFEV_SCRIPT_H

#include <stdbool.h>
#include <stdio.h>
#include "perfev/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_script_opts {
	size_t sz;               /* sizeof(struct perfev_script_opts) */
	const char *fields;      /* perf's -F syntax ("pid,tid,time,ip", "+addr", "sw:ip"); NULL: defaults */
	bool json;               /* one JSON object per record instead of text */
	bool show_task_events;   /* COMM, FORK, EXIT lines */
	bool show_mmap_events;   /* MMAP, MMAP2 lines */
	bool show_switch_events; /* SWITCH, SWITCH_CPU_WIDE lines */
	bool show_namespace_events;
	bool show_lost_events;   /* LOST, LOST_SAMPLES lines */
	bool show_round_events;  /* FINISHED_ROUND lines */
	FILE *out;               /* NULL: stdout */
	/* perf script's filters (NULL: every sample), comma lists: threads by
	 * name (their name when sampled), process id, thread id; CPUs (0,2-3;
	 * side-band lines too); the sampled address's symbol (a name, or its
	 * start as 0x...) and object (base name or path; an address outside
	 * any map passes neither). time: "START,END" in seconds, either end empty for
	 * the file's, several ranges separated by spaces. */
	const char *comms, *pids, *tids, *cpus, *symbols, *dsos, *time;
	bool hide_call_graph;    /* -G: the sampled address on the sample's line, no chain */
	unsigned max_stack;      /* with max_stack_given: callchain entries shown at most (perf's
				  * --max-stack; 0 leaves the chain's lines empty); else 127 */
	bool max_stack_given;
	const char *stop_bt;     /* comma list: a callchain ends after the first of these symbols */
	bool ns;                 /* times with 9 decimals */
	bool reltime;            /* times since the first record shown */
	bool deltatime;          /* times since the previous record shown */
	/* Symbols (the sym, symoff, dso, srcline columns, call chains, branch
	 * ends) come from a resolver (perfev/resolve.h) script makes with these
	 * options, as perfev_resolver_opts's fields of the same names: C++/Rust
	 * names demangled without their parameter lists unless demangle_params,
	 * or left mangled with no_demangle; DWARF-unwound call-chain entries
	 * with their inlined functions, each a line of its own
	 * ("name+off (inlined)") as perf prints them. */
	bool no_demangle;
	bool demangle_params;
	const char *symfs;       /* binaries and debug files under this directory; NULL: this machine's */
	/* the recording kernel's symbols (perf script --kallsyms): kernel
	 * addresses of another kernel's recording are resolved with them. NULL:
	 * /proc/kallsyms, used only for a recording of the running kernel
	 * (else kernel addresses print as [unknown]); "": no kernel symbols.
	 * (Last, pointer-sized: no trailing padding.) */
	const char *kallsyms;
	/* perf script --no-inline: DWARF-unwound call-chain entries without
	 * their inlined functions' lines */
	bool no_inline;
	/* perf script -L (--Latency): the command as "%8.8s", the CPU as
	 * "%3d" (perf's latency_format columns) */
	bool latency;
	/* perf script -k/--vmlinux: the kernel's symbols from this vmlinux
	 * ELF's symbol table (see perfev_profile_load_opts.vmlinux); NULL:
	 * kallsyms */
	const char *vmlinux;
};
#define perfev_script_opts__last_field vmlinux

/*
 * Prints every record of pd as opts asks. Fails (-EINVAL, message naming the
 * field and the event) where perf refuses: a field the events' sample_type
 * cannot give, an unknown field name. Returns 0 or -errno.
 */
PERFEV_API int perfev_script_run(struct perfev_perfdata *pd, const struct perfev_script_opts *opts);

/*
 * The fields of an -F list that perf 6.1 knows and perfev accepts but
 * leaves empty (insn, ipc, callindent, srccode, ...: AUX-trace decoding,
 * disassembly, guest machines). Writes "'NAME' stays empty: WHY; ..." into
 * buf (len bytes, NUL-terminated, truncated if short) and returns how many
 * such fields fields names (0: none; buf is then "").
 */
PERFEV_API int perfev_script_unprintable(const char *fields, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_SCRIPT_H */
