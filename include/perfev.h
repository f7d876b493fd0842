/*
 * perfev.h — libperfev, performance monitoring for Linux through
 * perf_event_open(2).
 *
 * This is the one header to include. Each part of the library has its own
 * header under perfev/, documented where each function is declared:
 *
 *   perfev/abi.h      the kernel ABI: struct perfev_attr, record types
 *   perfev/sys.h      perf_event_open, ioctls, prctl, sysctls, error text
 *   perfev/event.h    event lists and perf's event-string syntax
 *   perfev/location.h maps, resolved locations and source lines (shared vocabulary)
 *   perfev/symbols.h  symbolizer: ELF/DWARF symbols, source lines, kallsyms, JIT maps
 *   perfev/unwind.h   call stacks: frame-pointer callchains, DWARF unwinding
 *
 * Conventions: functions returning int return >= 0 on success and -errno on
 * failure (errno set too); functions returning pointers return NULL and set
 * errno. perfev_errmsg() gives the message of the last failure. Destructors
 * (perfev_*_free, _close, _munmap) accept NULL.
 */
#ifndef PERFEV_H
#define PERFEV_H

#define PERFEV_VERSION_MAJOR 0
#define PERFEV_VERSION_MINOR 1
#define PERFEV_VERSION_PATCH 0

#include "perfev/abi.h"
#include "perfev/sys.h"
#include "perfev/event.h"
#include "perfev/location.h"
#include "perfev/symbols.h"
#include "perfev/unwind.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The library's version string, "MAJOR.MINOR.PATCH". */
PERFEV_API const char *perfev_version(void);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_H */
