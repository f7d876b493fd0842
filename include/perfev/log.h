/*
 * perfev/log.h — the library's one log hook (as libbpf_set_print).
 *
 * The library never writes to a stream its caller did not give it. What it
 * has to say that is not a failure (a binary without symbols, a sample it
 * could not unwind, a file read up to its last whole record) goes to the
 * hook set here, once per message, already formatted, without a trailing
 * newline. With no hook set (the default) such messages are dropped;
 * failures are always returned, with perfev_errmsg() naming them.
 */
#ifndef PERFEV_LOG_H
#define PERFEV_LOG_H

#include "perfev/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

enum perfev_log_level {
	PERFEV_LOG_WARN,  /* something was not as asked and the result is poorer for it */
	PERFEV_LOG_NOTE,  /* what a user should know to read the result (perf's notes) */
	PERFEV_LOG_DEBUG, /* detail for whoever is debugging perfev itself */
};

/* ctx is what was given to perfev_set_log; msg is valid during the call only. */
typedef void (*perfev_log_fn)(void *ctx, enum perfev_log_level level, const char *msg);

/*
 * Sets the hook for every thread of the process (NULL: drop messages) and
 * returns the previous one (its ctx in *old_ctx when old_ctx is not NULL).
 * Messages above max_level are not even formatted.
 */
PERFEV_API perfev_log_fn perfev_set_log(perfev_log_fn fn, void *ctx, enum perfev_log_level max_level,
					void **old_ctx);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_LOG_H */
