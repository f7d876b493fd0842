/*
 * perfev.h — libperfev, performance monitoring for Linux through
 * perf_event_open(2).
 *
 * This is the one header to include. Each part of the library has its own
 * header under perfev/, documented where each function is declared:
 *
 *   perfev/abi.h      the kernel ABI: struct perfev_attr, record types
 *   perfev/sys.h      perf_event_open, ioctls, prctl, sysctls, error text
 *   perfev/log.h      the one log hook for what is not a failure
 *   perfev/event.h    event lists and perf's event-string syntax
 *   perfev/location.h maps, resolved locations and source lines (shared vocabulary)
 *   perfev/symbols.h  symbolizer: ELF/DWARF symbols, source lines, kallsyms, JIT maps
 *   perfev/unwind.h   call stacks: frame-pointer callchains, DWARF unwinding
 *   perfev/pmu.h      sysfs PMUs (formats, aliases) and tracefs tracepoints
 *   perfev/counter.h  counting: CPU lists, a held child, counters opened and read
 *   perfev/stat.h     perf stat: repeats, aggregation, derived metrics, output
 *   perfev/record.h   the record decoder and encoder (ring buffer and perf.data records)
 *   perfev/perfdata.h perf.data files: reader and writer, header features
 *   perfev/session.h  threads, names and memory maps over time
 *   perfev/tasks.h    perf report --tasks/--mmaps: perf's task tree and maps
 *   perfev/script.h   perf script output of a perf.data file, text or JSON
 *   perfev/selfmon.h  counting inside a program: counter sets, regions
 *   perfev/ring.h     the mmap ring buffer (normal, overwrite, AUX), SET_OUTPUT
 *   perfev/notify.h   poll/epoll, overflow signals, sigtrap, record -> event ids
 *   perfev/recorder.h recording into perf.data (perfev record)
 *   perfev/profile.h  the call-tree profile model and flat (report) views
 *   perfev/report.h   perf report's views of a file: table, call graphs, branches, JSON
 *   perfev/export.h   folded stacks, SVG flame graphs, pprof, Firefox Profiler
 *   perfev/watch.h    in-process watchpoints (breakpoints with sigtrap)
 *   perfev/probe.h    uprobes and kprobes (u:PATH:SYMBOL, k:SYMBOL), tracefs fallback
 *   perfev/tracepoint.h tracepoint formats: decoding raw samples, filters, TRACING_DATA
 *   perfev/trace.h    syscall summaries (perf trace -s) from raw_syscalls
 *
 * Conventions: functions returning int return >= 0 on success and -errno on
 * failure (errno set too); functions returning pointers return NULL and set
 * errno. perfev_errmsg() gives the message of the last failure;
 * perfev_errname(err) ("EINVAL") and perfev_strerror(err) name a code
 * without context. Destructors (perfev_*_free, _close, _munmap) accept
 * NULL.
 *
 * Structs that may grow (options a function reads, and outputs it fills:
 * perfev_profile_load_info) carry `size_t sz` first: set it to the sizeof
 * the struct you compiled against, zero the rest (a designated initializer
 * does). The header defines TYPE__last_field for each. A library newer than
 * your headers reads the fields you have and takes the defaults for the
 * others; an older library refuses (EINVAL, naming the struct) a struct
 * whose bytes past what it knows are not zero, and fills only the first sz
 * bytes of an output struct. struct perfev_attr is the kernel's and keeps
 * its uint32_t size. Callbacks take their ctx first.
 */
#ifndef PERFEV_H
#define PERFEV_H

#define PERFEV_VERSION_MAJOR 0
#define PERFEV_VERSION_MINOR 1
#define PERFEV_VERSION_PATCH 0

#include "perfev/abi.h"
#include "perfev/sys.h"
#include "perfev/log.h"
#include "perfev/event.h"
#include "perfev/location.h"
#include "perfev/symbols.h"
#include "perfev/unwind.h"
#include "perfev/pmu.h"
#include "perfev/stat.h"
#include "perfev/metric.h"
#include "perfev/record.h"
#include "perfev/perfdata.h"
#include "perfev/session.h"
#include "perfev/tasks.h"
#include "perfev/script.h"
#include "perfev/selfmon.h"
#include "perfev/ring.h"
#include "perfev/notify.h"
#include "perfev/recorder.h"
#include "perfev/profile.h"
#include "perfev/profile_builder.h"
#include "perfev/resolve.h"
#include "perfev/report.h"
#include "perfev/annotate.h"
#include "perfev/export.h"
#include "perfev/diff.h"
#include "perfev/watch.h"
#include "perfev/probe.h"
#include "perfev/tracepoint.h"
#include "perfev/trace.h"
#include "perfev/buildid.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version string, "MAJOR.MINOR.PATCH". */
PERFEV_API const char *perfev_version(void);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_H */
