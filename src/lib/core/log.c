/* log.c — the one log hook (perfev/log.h). The hook and its context are
 * set once, usually before any thread starts; they are read with relaxed
 * atomics so that a later change is seen without tearing. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/log.h"

#include <stdarg.h>
#include <stdio.h>

static perfev_log_fn log_fn;
static void *log_ctx;
static enum perfev_log_level log_max = PERFEV_LOG_NOTE;

PERFEV_API perfev_log_fn perfev_set_log(perfev_log_fn fn, void *ctx, enum perfev_log_level max_level,
					void **old_ctx)
{
	perfev_log_fn old = __atomic_load_n(&log_fn, __ATOMIC_RELAXED);
	if (old_ctx)
		*old_ctx = __atomic_load_n(&log_ctx, __ATOMIC_RELAXED);
	__atomic_store_n(&log_ctx, ctx, __ATOMIC_RELAXED);
	__atomic_store_n(&log_max, max_level, __ATOMIC_RELAXED);
	__atomic_store_n(&log_fn, fn, __ATOMIC_RELAXED);
	return old;
}

bool pv_log_on(enum perfev_log_level level)
{
	return __atomic_load_n(&log_fn, __ATOMIC_RELAXED) && level <= __atomic_load_n(&log_max, __ATOMIC_RELAXED);
}

void pv_log(enum perfev_log_level level, const char *fmt, ...)
{
	perfev_log_fn fn = __atomic_load_n(&log_fn, __ATOMIC_RELAXED);
	if (!fn || level > __atomic_load_n(&log_max, __ATOMIC_RELAXED))
		return;
	char msg[2048];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fn(__atomic_load_n(&log_ctx, __ATOMIC_RELAXED), level, msg);
}
