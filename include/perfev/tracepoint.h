/*
 * perfev/tracepoint.h — tracepoint formats: decoding PERF_SAMPLE_RAW into
 * fields and text exactly as `perf script` prints it, filters, and perf.data's
 * TRACING_DATA feature (the formats stored in the file, so a recording is
 * decoded the same on another machine).
 *
 * A struct perfev_tp is a set of event formats (libtraceevent underneath,
 * set up as perf sets it up: no plugins, nanosecond output). Formats come
 * from the running system's tracefs or from a file's TRACING_DATA.
 * Raw data is the PERF_SAMPLE_RAW payload (without its u32 size): its first
 * field, common_type, names the event.
 */
#ifndef PERFEV_TRACEPOINT_H
#define PERFEV_TRACEPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "perfev/abi.h"
#include "perfev/event.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_tp;

/* An empty set of formats (host endianness and long size). NULL + errno. */
PERFEV_API struct perfev_tp *perfev_tp_new(void);
PERFEV_API void perfev_tp_free(struct perfev_tp *tp);

/* The id of tracepoint SYS:NAME in the running kernel (tracefs), or -errno. */
PERFEV_API int64_t perfev_tp_event_id(const char *sys, const char *name);

/* Loads SYS:NAME's format from tracefs. Returns its id or -errno. */
PERFEV_API int64_t perfev_tp_load(struct perfev_tp *tp, const char *sys, const char *name);
/* Loads the format of the tracepoint with this id (found in tracefs).
 * Returns 0 or -errno (-ENOENT: no such id). */
PERFEV_API int perfev_tp_load_id(struct perfev_tp *tp, uint64_t id);
/* Adds a format given as text (the contents of a tracefs format file) for
 * system sys. Returns the event's id or -errno (-EINVAL: not a format). */
PERFEV_API int64_t perfev_tp_add_format(struct perfev_tp *tp, const char *sys, const char *text,
					size_t len);
/* Loads every PERF_TYPE_TRACEPOINT event of list. Returns how many, or -errno. */
PERFEV_API int perfev_tp_load_evlist(struct perfev_tp *tp, const struct perfev_evlist *list);
/* What perf adds from the running system: header_page, printk formats,
 * saved_cmdlines and (with_kallsyms) kernel function names. 0 or -errno. */
PERFEV_API int perfev_tp_load_system(struct perfev_tp *tp, int with_kallsyms);

/* "sys:name" of the event with this id, or NULL (ENOENT) when not loaded. */
PERFEV_API const char *perfev_tp_name(const struct perfev_tp *tp, uint64_t id);
/* The id (common_type) of raw data, or -errno (-EINVAL: too short). */
PERFEV_API int64_t perfev_tp_raw_id(const void *raw, size_t size);

/*
 * The event's text as `perf script -F trace` prints it (the event's print
 * fmt applied to its fields), into a malloc'ed string *out (caller frees).
 * Returns its length or -errno (-ENOENT: the format is not loaded).
 */
PERFEV_API int perfev_tp_print(struct perfev_tp *tp, const void *raw, size_t size, int cpu,
			       char **out);
/* A numeric field's value (sign-extended for signed fields). 0 or -errno
 * (-ENOENT: no such field; -EINVAL: not numeric or out of the data). */
PERFEV_API int perfev_tp_field_u64(struct perfev_tp *tp, const void *raw, size_t size,
				   const char *field, uint64_t *value);
/* Any field as text, as perf shows it (report's dynamic sort keys): char
 * arrays and strings as text, numbers signed or unsigned as the format says,
 * pointers and longs in hex. Malloc'ed into *out; returns its length or
 * -errno (-EINVAL: the field or its __data_loc data lies outside raw). */
PERFEV_API int perfev_tp_field_text(struct perfev_tp *tp, const void *raw, size_t size,
				    const char *field, char **out);

/*
 * Checks a filter expression (the kernel's filter syntax, as
 * PERF_EVENT_IOC_SET_FILTER takes it) against the format of event `id`:
 * fields must exist, operators fit their types. Returns 0, or -EINVAL with
 * perfev_errmsg() saying what is wrong; the kernel only answers EINVAL.
 */
PERFEV_API int perfev_tp_filter_check(struct perfev_tp *tp, uint64_t id, const char *filter);
/* Sets the filter on the open event fd; when the kernel refuses it and tp
 * is not NULL, perfev_tp_filter_check() says why. 0 or -errno. */
PERFEV_API int perfev_tp_filter_set(struct perfev_tp *tp, uint64_t id, int fd, const char *filter);

/*
 * perf.data's TRACING_DATA feature, in perf's layout ("\027\010\104tracing",
 * version 0.6, endianness, long and page size, header_page, header_event,
 * ftrace formats, each system's event formats, kallsyms, printk formats,
 * saved_cmdlines) for the tracepoints with the given ids, read from the
 * running system. *out is malloc'ed (caller frees). Returns 0 or -errno.
 */
PERFEV_API int perfev_tracing_data_write(const uint64_t *ids, size_t nr, int with_kallsyms,
					 void **out, size_t *len);
/* The ids of list's tracepoint events, then perfev_tracing_data_write. */
PERFEV_API int perfev_tracing_data_write_evlist(const struct perfev_evlist *list,
						void **out, size_t *len);
/*
 * Reads a TRACING_DATA section (from a file: any endianness) into a new
 * set of formats. Bounds-checked: hostile data gives NULL (errno EINVAL,
 * perfev_errmsg() names the part and the offset), never a crash.
 * *used (if not NULL) receives the bytes consumed.
 */
PERFEV_API struct perfev_tp *perfev_tp_from_tracing_data(const void *data, size_t len,
							  size_t *used);

/*
 * `perf report --stdio --sort KEYS` where every key is a tracepoint field:
 * FIELD (every event that has it), EVENT.FIELD or SYS:EVENT.FIELD, or
 * `trace` (the whole printed line). Per event of the file, samples grouped
 * by those fields' bytes, shown as the print fmt prints them, with perf's
 * header, widths and order. pd must not have been processed yet (pipes).
 * Returns 0, -ENOENT when a key is no tracepoint field of the file (the
 * message names it; the caller may treat it as an ordinary key), -errno.
 */
struct perfev_perfdata;
PERFEV_API int perfev_tp_report(struct perfev_perfdata *pd, const char *sort, FILE *out);

/* Options of perfev_tp_report_with (sz first: perfev.h's convention). */
struct perfev_tp_report_opts {
	size_t sz;           /* sizeof(struct perfev_tp_report_opts) */
	/* leave out perf's first line, "# To display the perf.data header
	 * info, please use --header/--header-only options." and its "#" (perf
	 * report --header prints the header instead of it) */
	bool no_header_hint;
};
#define perfev_tp_report_opts__last_field no_header_hint

/* perfev_tp_report with options (NULL: as perfev_tp_report); -EINVAL for
 * options this library does not know. */
PERFEV_API int perfev_tp_report_with(struct perfev_perfdata *pd, const char *sort, FILE *out,
				     const struct perfev_tp_report_opts *opts);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_TRACEPOINT_H */
