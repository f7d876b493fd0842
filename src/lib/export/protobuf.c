/* protobuf.c — protobuf wire-format writing (see protobuf.h). */
#include "export/protobuf.h"

#include <string.h>

void pv_pb_varint(struct pv_buf *b, uint64_t v)
{
	char tmp[10];
	size_t n = 0;
	do {
		tmp[n++] = (char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	pv_buf_add(b, tmp, n);
}

static void tag(struct pv_buf *b, unsigned field, unsigned wire)
{
	pv_pb_varint(b, (uint64_t)field << 3 | wire);
}

void pv_pb_uint(struct pv_buf *b, unsigned field, uint64_t v)
{
	if (!v)
		return;
	tag(b, field, PV_PB_VARINT);
	pv_pb_varint(b, v);
}

void pv_pb_int(struct pv_buf *b, unsigned field, int64_t v)
{
	pv_pb_uint(b, field, (uint64_t)v); /* int64 is two's complement on the wire */
}

void pv_pb_bytes(struct pv_buf *b, unsigned field, const void *data, size_t len)
{
	tag(b, field, PV_PB_LEN);
	pv_pb_varint(b, len);
	pv_buf_add(b, data, len);
}

void pv_pb_str(struct pv_buf *b, unsigned field, const char *s)
{
	pv_pb_bytes(b, field, s, strlen(s));
}

void pv_pb_msg(struct pv_buf *b, unsigned field, struct pv_buf *msg)
{
	if (msg->oom)
		b->oom = true;
	pv_pb_bytes(b, field, msg->data ? msg->data : "", msg->len);
	pv_buf_reset(msg);
}

void pv_pb_packed(struct pv_buf *b, unsigned field, const uint64_t *v, size_t n)
{
	if (!n)
		return;
	struct pv_buf tmp = PV_BUF_INIT;
	for (size_t i = 0; i < n; i++)
		pv_pb_varint(&tmp, v[i]);
	pv_pb_msg(b, field, &tmp);
	pv_buf_free(&tmp);
}
