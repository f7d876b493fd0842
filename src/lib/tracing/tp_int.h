/* tp_int.h — the tracepoint format set, shared by tp_format.c and
 * tracing_data.c (private). */
#ifndef PERFEV_TP_INT_H
#define PERFEV_TP_INT_H

#include <stdbool.h>
#include <stddef.h>
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

/* Where field lives in event id's raw data (offset, size), for decoders
 * that read one field of many samples. 0 or -ENOENT. */
int pv_tp_field_loc(struct perfev_tp *tp, uint64_t id, const char *field, int *offset, int *size);

/* Event id's own fields (not the common_ ones), in the format's order:
 * the i-th's name, NULL past the last or for an unknown event. */
const char *pv_tp_field_name(struct perfev_tp *tp, uint64_t id, size_t i);

/* printk_formats text registered with tep, safely (see tracing_data.c). */
int pv_tp_parse_printk(struct tep_handle *tep, const char *buf);
/* /proc/kallsyms and saved_cmdlines text, likewise with our own line parser. */
int pv_tp_parse_kallsyms(struct tep_handle *tep, const char *buf);
int pv_tp_parse_cmdlines(struct tep_handle *tep, const char *buf);

/*
 * TRACING_DATA taken apart (tracing_data.c): the walker checks the framing
 * and bounds and hands each part to the visitor (NULL callbacks skip it).
 * Blobs are NUL-terminated copies, valid during the call.
 */
enum { PV_TD_KALLSYMS, PV_TD_PRINTK, PV_TD_CMDLINES };
struct pv_td_visitor {
	void *ctx;
	void (*sizes)(void *ctx, bool big_endian, int long_size, uint32_t page_size);
	void (*header_page)(void *ctx, char *text, size_t len);
	int (*format)(void *ctx, const char *sys, const char *text, size_t len);
	void (*text)(void *ctx, int part, const char *text);
};
int pv_tracing_data_walk(const void *data, size_t len, const struct pv_td_visitor *v,
			 size_t *used);

/* perf.data's TRACING_DATA feature for the tracepoint events among attrs
 * (empty when there are none, or tracefs cannot be read). */
struct pv_buf;
struct perfev_attr;
void pv_feat_tracing_data(struct pv_buf *out, const struct perfev_attr *attrs, size_t nr);

#endif
