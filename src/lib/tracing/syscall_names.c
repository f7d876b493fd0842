/* syscall_names.c — syscall numbers and names of this architecture. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/trace.h"

#include <string.h>

#if defined(__x86_64__)
#include "tracing/syscall_table_x86_64.h"
#define SYSCALL_TABLE syscall_names_x86_64
#endif

PERFEV_API const char *perfev_syscall_name(long nr)
{
#ifdef SYSCALL_TABLE
	if (nr >= 0 && (size_t)nr < PV_ARRAY_SIZE(SYSCALL_TABLE))
		return SYSCALL_TABLE[nr];
#endif
	(void)nr;
	return NULL;
}

PERFEV_API long perfev_syscall_nr(const char *name)
{
#ifdef SYSCALL_TABLE
	for (size_t i = 0; i < PV_ARRAY_SIZE(SYSCALL_TABLE); i++)
		if (SYSCALL_TABLE[i] && !strcmp(SYSCALL_TABLE[i], name))
			return (long)i;
#endif
	return pv_error(ENOENT, "no syscall named '%s' on this architecture", name);
}
