/*
 * opts.h — options structs that may grow (DESIGN convention 4, as libbpf's
 * OPTS_VALID/OPTS_GET). Every such struct has `size_t sz` first, set by the
 * caller to sizeof the struct it was compiled with, and its header defines
 * TYPE__last_field naming its last field:
 *
 *   struct perfev_x_opts { size_t sz; int a; bool b; };
 *   #define perfev_x_opts__last_field b
 *
 * A caller compiled against an older, shorter struct works (the fields it
 * does not have read as their defaults through PV_OPTS_GET); a newer,
 * longer one works as long as the bytes past this library's struct are
 * zero, else the call fails with EINVAL naming the struct.
 */
#ifndef PERFEV_OPTS_H
#define PERFEV_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#define pv_offsetofend(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))

/* Whether opts (may be NULL) can be read: sz at least a size_t, and any
 * bytes past the fields known here zero. Records the failure otherwise. */
bool pv_opts_valid(const void *opts, size_t known_sz, const char *type_name);

/* The bytes checked are those past this library's sizeof (its tail padding
 * included: a caller's designated initializer leaves padding undefined, and
 * GCC does leave it set). So a field is never added into the tail padding of
 * a released struct: it would go unseen by the older library. The build
 * fails if TYPE__last_field is not the struct's last field. */
#define PV_OPTS_VALID(opts, type)                                                          \
	((void)sizeof(char[sizeof(struct type) - pv_offsetofend(struct type, type##__last_field) < \
				   _Alignof(struct type) ? 1 : -1]),                      \
	 pv_opts_valid((opts), sizeof(struct type), #type))
/* Whether the caller's struct has field. */
#define PV_OPTS_HAS(opts, field) \
	((opts) && (opts)->sz >= pv_offsetofend(__typeof__(*(opts)), field))
/* The field, or fallback when opts is NULL or older than field. */
#define PV_OPTS_GET(opts, field, fallback) (PV_OPTS_HAS(opts, field) ? (opts)->field : (fallback))
/* Copies the caller's struct into a full local one (zeroed past what the
 * caller has), so the rest of the code reads fields directly. */
#define PV_OPTS_COPY(dst, opts)                                                              \
	do {                                                                                 \
		memset(&(dst), 0, sizeof(dst));                                              \
		if (opts)                                                                    \
			memcpy(&(dst), (opts), (opts)->sz < sizeof(dst) ? (opts)->sz : sizeof(dst)); \
		(dst).sz = sizeof(dst);                                                      \
	} while (0)

#endif
