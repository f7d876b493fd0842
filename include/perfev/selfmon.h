/*
 * perfev/selfmon.h — counting inside a program: counter sets read as cheaply
 * as the hardware allows, and named regions around code.
 *
 * A set is one group of events (PERF_FORMAT_GROUP|ID|TOTAL_TIME_ENABLED|
 * TOTAL_TIME_RUNNING; a 1-event set drops GROUP, which makes the kernel's
 * read cheaper), opened per thread: each thread that uses the set
 * gets its own group on its first call, for itself (pid 0, any CPU). A read
 * in a thread is of that thread's group; perfev_selfmon_read_total() sums
 * every thread's group.
 *
 * Reads go through the mmap'd user page where the hardware allows (x86
 * rdpmc, arm64 mrs: no system call), else one read(2) of the whole group.
 * Software events (task-clock, page-faults, ...) have no counter in user
 * space: each read is one read(2). perfev_selfmon_path() says which applies
 * and why.
 *
 * Regions: perfev_region_begin("name") / perfev_region_end("name") count
 * the code between them (nestable; per thread: calls, total, min, max per
 * event). Their results are printed at exit: PERFEV_REGIONS=text (the
 * default, on stderr: using regions asks for that report), json,
 * text:FILE, json:FILE or off; or choose with perfev_regions_output(). A
 * PERFEV_REGIONS the library cannot use, or a FILE it cannot write, is a
 * warning through the log hook (perfev/log.h). The events of the default region set come from
 * PERFEV_REGION_EVENTS (perf's event syntax), default
 * "task-clock,page-faults,context-switches".
 *
 * After fork(), a child that uses a set gets groups of its own, counting
 * itself; its perfev_selfmon_read_total() also sums the groups it copied
 * from the parent (the parent's counters). With PERFEV_SELFMON_INHERIT
 * the parent's set counts the child instead.
 */
#ifndef PERFEV_SELFMON_H
#define PERFEV_SELFMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "perfev/abi.h"
#include "perfev/event.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most events one set holds (one group). */
#define PERFEV_SELFMON_MAX_EVENTS 32

enum perfev_selfmon_flag {
	/* Count the threads and processes this thread creates after its group
	 * opens (attr.inherit); reading the group gives their sum (children
	 * included while they run and after they exit). Reads are read(2):
	 * the user page sees only the calling thread. Threads it creates
	 * should then not use the set themselves: their own groups would
	 * count them a second time in perfev_selfmon_read_total(). */
	PERFEV_SELFMON_INHERIT = 1u << 0,
	/* Never read through the user page: every read is read(2). */
	PERFEV_SELFMON_NO_USER_PAGE = 1u << 1,
};

/* One read of a set. */
struct perfev_selfmon_values {
	uint64_t enabled;  /* ns the group was enabled (summed over threads in totals) */
	uint64_t running;  /* ns it was on the PMU: < enabled when multiplexed, 0 if never */
	uint32_t nr;       /* events, in the order of the set */
	uint32_t threads;  /* thread groups summed: 1 for perfev_selfmon_read() */
	uint64_t value[PERFEV_SELFMON_MAX_EVENTS];  /* raw counts */
	/* value scaled by enabled/running (value * enabled / running; 0 if
	 * running is 0: the event never ran); in totals, each thread's values
	 * are scaled before they are summed. */
	uint64_t scaled[PERFEV_SELFMON_MAX_EVENTS];
};

struct perfev_selfmon;

/*
 * A set of the events in `events` (perf's syntax, e.g.
 * "instructions:u,cycles:u" or "task-clock,page-faults"), or of the events
 * of list (copied; the list may be freed after). Every event joins one
 * group led by the first, whatever groups the string or list spells.
 * flags: an OR of enum perfev_selfmon_flag. Nothing opens until a thread
 * first uses the set. Returns NULL + errno (EINVAL: no events, more than
 * PERFEV_SELFMON_MAX_EVENTS, or a string that does not parse: then
 * perfev_errmsg() shows the string with a caret under the fault).
 */
PERFEV_API struct perfev_selfmon *perfev_selfmon_new(const char *events, unsigned flags);
PERFEV_API struct perfev_selfmon *perfev_selfmon_new_evlist(const struct perfev_evlist *list,
							    unsigned flags);
/* Closes every thread's group; the set's regions go with it. NULL is fine. */
PERFEV_API void perfev_selfmon_free(struct perfev_selfmon *s);

PERFEV_API size_t perfev_selfmon_count(const struct perfev_selfmon *s);
/* The name of event i (as written in the event string), NULL past the end. */
PERFEV_API const char *perfev_selfmon_name(const struct perfev_selfmon *s, size_t i);

/*
 * The calling thread's group: open it if this is the thread's first call
 * (counting disabled), then enable (start), disable (stop) or zero (reset)
 * it. Each is one ioctl once the group is open. 0 or -errno.
 */
PERFEV_API int perfev_selfmon_start(struct perfev_selfmon *s);
PERFEV_API int perfev_selfmon_stop(struct perfev_selfmon *s);
PERFEV_API int perfev_selfmon_reset(struct perfev_selfmon *s);

/* Reads the calling thread's group (opening it, disabled, if needed):
 * through the user page when every event has a user-space counter now,
 * else one read(2). 0 or -errno. */
PERFEV_API int perfev_selfmon_read(struct perfev_selfmon *s, struct perfev_selfmon_values *v);
/* Sums every thread's group (threads that exited included), one read(2)
 * each. 0 or -errno. */
PERFEV_API int perfev_selfmon_read_total(struct perfev_selfmon *s, struct perfev_selfmon_values *v);

/* The file descriptor of event i in the calling thread's group (opening
 * it if needed), owned by the set; -errno on failure. */
PERFEV_API int perfev_selfmon_fd(struct perfev_selfmon *s, size_t i);
/* How the calling thread's reads are served and why, e.g. "read(2) of the
 * group: 'task-clock' is a software event, it has no user-space counter"
 * (opening the thread's group if needed; "" if that fails). Valid until
 * the set is freed. */
PERFEV_API const char *perfev_selfmon_path(struct perfev_selfmon *s);

/* ---- regions --------------------------------------------------------------- */

/*
 * Begin / end a region of the calling thread on set s: a snapshot of the
 * thread's group at begin and at end (each one read: no system call on the
 * fast path, one read(2) otherwise); the difference, scaled by the change
 * of enabled/running, is added to the region. The group is opened and
 * started by the thread's first begin, unless the thread has called
 * perfev_selfmon_start/stop: then counting is theirs to switch. Regions nest; an end must name the
 * innermost open region (-EINVAL otherwise). 0 or -errno.
 */
PERFEV_API int perfev_selfmon_region_begin(struct perfev_selfmon *s, const char *name);
PERFEV_API int perfev_selfmon_region_end(struct perfev_selfmon *s, const char *name);

/* The accumulated results of one region. */
struct perfev_region_stats {
	uint64_t calls;                 /* completed begin/end pairs */
	uint32_t threads;               /* threads that completed any */
	uint32_t nr;                    /* events */
	uint64_t total[PERFEV_SELFMON_MAX_EVENTS];
	uint64_t min[PERFEV_SELFMON_MAX_EVENTS]; /* of one call */
	uint64_t max[PERFEV_SELFMON_MAX_EVENTS];
	uint64_t enabled, running;      /* summed over calls, ns */
};
/* The region `name` of the calling thread (all_threads false) or summed
 * over every thread (true). -ENOENT if it has no completed call there. */
PERFEV_API int perfev_selfmon_region_stats(struct perfev_selfmon *s, const char *name,
					   bool all_threads, struct perfev_region_stats *out);

enum perfev_report_format { PERFEV_REPORT_TEXT, PERFEV_REPORT_JSON };
/* Writes the set's regions, per thread and summed over threads, to f. Call
 * it when the threads are done with the set. 0 or -errno. */
PERFEV_API int perfev_selfmon_report(struct perfev_selfmon *s, FILE *f,
				     enum perfev_report_format format);

/* Regions on the default set: created on first use from
 * PERFEV_REGION_EVENTS (or the events given to perfev_regions_events()),
 * reported at exit. */
PERFEV_API int perfev_region_begin(const char *name);
PERFEV_API int perfev_region_end(const char *name);
/* The default set (creating it); NULL + errno if its events do not parse. */
PERFEV_API struct perfev_selfmon *perfev_regions_default(void);
/* Events of the default set (perf's syntax), overriding
 * PERFEV_REGION_EVENTS; before its first use (-EBUSY after). */
PERFEV_API int perfev_regions_events(const char *events);
/* Where the at-exit report goes, overriding PERFEV_REGIONS: "text", "json",
 * "text:FILE", "json:FILE" or "off". -EINVAL for anything else. */
PERFEV_API int perfev_regions_output(const char *spec);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_SELFMON_H */
