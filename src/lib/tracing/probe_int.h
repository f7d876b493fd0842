/* probe_int.h — the tracefs probe registry shared by probe.c and its
 * cleanup (private). */
#ifndef PERFEV_PROBE_INT_H
#define PERFEV_PROBE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Creates "p:perfev_PID/NAME LOCATION" (or r: for a return probe) in
 * uprobe_events or kprobe_events, NAME made from name_hint and unique.
 * Records it for removal at exit/signal. Writes "perfev_PID/NAME" into
 * event and returns its tracepoint id, or -errno.
 */
int64_t pv_probe_tracefs_create(bool kernel, bool ret, const char *name_hint,
				const char *location, char *event, size_t len);
/* Removes one created probe event ("perfev_PID/NAME"); 0 or -errno. */
int pv_probe_tracefs_remove(const char *event);
/* Removes all; returns how many could not be removed. */
int pv_probe_tracefs_remove_all(void);

/* 0 when SYMBOL+offset of the ELF file path is an instruction boundary (or
 * cannot be checked: no size, another architecture); else -EINVAL with a
 * message naming the boundaries around it (probe_insn.c). */
int pv_probe_check_offset(const char *path, const char *symbol, uint64_t offset);

struct perfev_probe;
/* A probe made from spec and kept (registry) until perfev_probe_cleanup_all
 * or exit, so the strings its attr points to stay valid. NULL + errno. */
struct perfev_probe *pv_probe_keep(const char *spec);
/* The event's name: "perfev_PID:NAME" for a tracefs probe (the tracepoint
 * it is), else perfev_probe_name(). */
void pv_probe_event_name(const struct perfev_probe *p, char *buf, size_t len);

#endif
