/* tracefs_int.h — where tracefs is, and reading its event files (private). */
#ifndef PERFEV_TRACEFS_INT_H
#define PERFEV_TRACEFS_INT_H

#include <stddef.h>
#include <stdint.h>

/* The tracefs mount ("/sys/kernel/tracing", or the debugfs one); mounts
 * it at /sys/kernel/tracing when absent and we may. NULL (errno ENOENT,
 * message with the mount command) if there is none. */
const char *pv_tracefs_root(void);
/* root/rel into buf; returns buf. */
char *pv_tracefs_path(char *buf, size_t len, const char *rel);
/* The id of tracepoint SYS:NAME (events/SYS/NAME/id), or -errno. */
int64_t pv_tracefs_event_id(const char *sys, const char *name);
/* Appends one command line to a tracefs control file (uprobe_events, ...)
 * with O_APPEND: truncating would delete every probe. Returns 0 or -errno. */
int pv_tracefs_append(const char *file, const char *line);

/* Finds SYS/NAME of a tracepoint id in tracefs. 0 or -ENOENT. */
int pv_tracefs_find_id(uint64_t id, char *sys, size_t sys_len, char *name, size_t name_len);

#endif
