/*
 * perfev/probe.h — dynamic probes: uprobes on a function of an ELF file and
 * kprobes on a kernel function, in perf's event-string form:
 *
 *   u:PATH:SYMBOL[+OFFSET]      entry of SYMBOL (plus OFFSET bytes) in PATH
 *   u:PATH:SYMBOL%return        return from SYMBOL
 *   k:SYMBOL[+OFFSET]           kernel function entry (plus OFFSET)
 *   k:SYMBOL%return             kernel function return
 *
 * (SYMBOL may also be an address 0xVADDR in PATH's ELF terms; a PATH without
 * '/' is looked up in $PATH, then in the library directories: u:libc.so.6:malloc.)
 *
 * A probe becomes a perf_event_attr in one of two ways. Where the kernel has
 * the uprobe/kprobe PMU, through it: attr.type from the PMU's sysfs `type`,
 * the path (uprobe) or symbol (kprobe) as a pointer in config1, the offset in
 * config2, the return bit where the PMU's format/retprobe says. Nothing is
 * created in the kernel beyond the event itself. Where the PMU is absent
 * (or PERFEV_PROBE_TRACEFS=1 is set in the environment), perfev creates a
 * tracefs probe event "perfev_PID/NAME" in uprobe_events/kprobe_events and
 * opens it as a tracepoint; every probe so created is removed again when the
 * probe is freed and at exit (atexit); on the termination signals only when
 * the program asks (perfev_probe_cleanup_on_signals: the library installs
 * no signal handler of its own accord).
 *
 * The attr's config1 of a PMU uprobe/kprobe points into the probe object:
 * keep the probe alive until the event is opened.
 */
#ifndef PERFEV_PROBE_H
#define PERFEV_PROBE_H

#include <stdbool.h>
#include <stdint.h>
#include "perfev/abi.h"
#include "perfev/event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A probe string taken apart (no file or kernel looked at yet). */
struct perfev_probe_spec {
	bool kernel;      /* k: (else u:) */
	bool retprobe;    /* %return */
	char path[4096];  /* u: the file as written */
	char symbol[256]; /* the function, or 0x... address */
	uint64_t offset;  /* +OFFSET */
};

/* True when s starts like a probe ("u:" or "k:"). */
PERFEV_API bool perfev_probe_is_spec(const char *s);
/* Parses a probe string. Returns 0, or -EINVAL with perfev_errmsg() saying
 * what is wrong and what the form is. */
PERFEV_API int perfev_probe_spec_parse(const char *s, struct perfev_probe_spec *out);

/*
 * The file offset at which SYMBOL (a function name, or "0xVADDR") starts in
 * the ELF file at path: its st_value (or the address) translated through
 * the PT_LOAD segment that holds it. Searches .symtab, then .dynsym.
 * Returns 0 or -errno (-ENOENT: no such symbol; the message says so).
 */
PERFEV_API int perfev_elf_symbol_file_offset(const char *path, const char *symbol,
					     uint64_t *file_offset);

struct perfev_probe;

/*
 * Makes the probe described by spec ready to open: resolves the file and
 * symbol, and builds the attr through the PMU or the tracefs fallback (see
 * above). Returns the probe or NULL (errno; perfev_errmsg() explains: no such
 * file/symbol, no uprobe/kprobe support, tracefs not mounted, ...).
 */
PERFEV_API struct perfev_probe *perfev_probe_new(const char *spec);
/* The attr to open (counting by default; set sampling fields as needed). */
PERFEV_API const struct perfev_attr *perfev_probe_attr(const struct perfev_probe *p);
/* The event's name as perf probe would name it: "probe_FILE:SYMBOL",
 * "probe_FILE:SYMBOL__return" (uprobe), "probe:SYMBOL" (kprobe). */
PERFEV_API const char *perfev_probe_name(const struct perfev_probe *p);
/* The tracefs event "perfev_PID/NAME" this probe created, or NULL when it
 * goes through a PMU. */
PERFEV_API const char *perfev_probe_tracefs_event(const struct perfev_probe *p);
/* The resolved file offset (uprobe) or OFFSET (kprobe). */
PERFEV_API uint64_t perfev_probe_offset(const struct perfev_probe *p);
/* Removes what the probe created in tracefs (events opened on it must be
 * closed first) and frees it. NULL is accepted. */
PERFEV_API void perfev_probe_free(struct perfev_probe *p);

/*
 * The hook of the event-string parser: creates the probe and appends it to
 * list as one event named perfev_probe_name(). The probe is kept in a
 * process-wide registry (so config1's string stays valid) and cleaned up at
 * exit. Returns the evsel or NULL (errno, perfev_errmsg()).
 */
PERFEV_API struct perfev_evsel *perfev_probe_add(struct perfev_evlist *list, const char *spec);

/* Removes every tracefs probe this process created and frees the registry
 * (also run at exit). Returns the number that could not be removed. */
PERFEV_API int perfev_probe_cleanup_all(void);

/*
 * Opt-in, for programs (a library using perfev should leave it to its
 * program): from the first tracefs probe this process creates on (now, if
 * it has created one already), SIGINT, SIGTERM, SIGHUP and SIGQUIT, where
 * they still have their default action then, get a handler that closes the
 * process's perf event fds, removes its tracefs probes and lets the signal
 * kill the process as it would have. Signals the program handles are left
 * alone (its exit path runs the atexit removal). Without this call a
 * process killed by a signal leaves its tracefs probes behind. Returns 0.
 */
PERFEV_API int perfev_probe_cleanup_on_signals(void);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_PROBE_H */
