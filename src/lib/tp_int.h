/* tp_int.h — the tracepoint format set, shared by tp_format.c and
 * tracing_data.c (private). */
#ifndef PERFEV_TP_INT_H
#define PERFEV_TP_INT_H

#include <stdint.h>
#include <traceevent/event-parse.h>

struct tp_name {
	uint64_t id;
	char *name; /* "sys:name" */
};

struct perfev_tp {
	struct tep_handle *tep;
	struct tp_name *names;
	size_t nr_names, cap_names;
};

/* Parses one format file's text for `sys` into tp. 0 or -errno. */
int pv_tp_parse_format(struct perfev_tp *tp, const char *sys, const char *buf, size_t len);

#endif
