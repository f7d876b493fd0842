/* protobuf.h — the few pieces of the protobuf wire format the pprof exporter
 * writes: varints, tags, length-delimited fields. Messages are built into a
 * pv_buf; a nested message is built in its own buffer and appended with its
 * length. */
#ifndef PERFEV_PROTOBUF_H
#define PERFEV_PROTOBUF_H

#include "core/internal.h"

enum { PV_PB_VARINT = 0, PV_PB_LEN = 2 };

void pv_pb_varint(struct pv_buf *b, uint64_t v);
/* field = varint; skipped when v is 0 (proto3 default) */
void pv_pb_uint(struct pv_buf *b, unsigned field, uint64_t v);
void pv_pb_int(struct pv_buf *b, unsigned field, int64_t v);
void pv_pb_bytes(struct pv_buf *b, unsigned field, const void *data, size_t len);
void pv_pb_str(struct pv_buf *b, unsigned field, const char *s); /* written even when empty */
/* Appends msg as a length-delimited field and resets msg for reuse. */
void pv_pb_msg(struct pv_buf *b, unsigned field, struct pv_buf *msg);
/* A packed repeated varint field. */
void pv_pb_packed(struct pv_buf *b, unsigned field, const uint64_t *v, size_t n);

#endif
