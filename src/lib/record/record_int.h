/* record_int.h — what the record decoder's files share (not API). */
#ifndef PERFEV_RECORD_INT_H
#define PERFEV_RECORD_INT_H

#include "core/internal.h"
#include "perfev/record.h"

#include <byteswap.h>
#include <string.h>

/* A bounded reader over one record's bytes, in either byte order. */
struct pv_cur {
	const uint8_t *p, *end;
	bool swap;
	bool bad;         /* a read ran past the end */
	const char *what; /* the field being read, for the error message */
};

static inline size_t cur_left(const struct pv_cur *c) { return c->bad ? 0 : (size_t)(c->end - c->p); }

static inline bool cur_need(struct pv_cur *c, size_t n, const char *what)
{
	if (c->bad)
		return false;
	if ((size_t)(c->end - c->p) < n) {
		c->bad = true;
		c->what = what;
		return false;
	}
	return true;
}

static inline uint64_t cur_u64(struct pv_cur *c, const char *what)
{
	uint64_t v = 0;
	if (!cur_need(c, 8, what))
		return 0;
	memcpy(&v, c->p, 8);
	c->p += 8;
	return c->swap ? bswap_64(v) : v;
}

static inline uint32_t cur_u32(struct pv_cur *c, const char *what)
{
	uint32_t v = 0;
	if (!cur_need(c, 4, what))
		return 0;
	memcpy(&v, c->p, 4);
	c->p += 4;
	return c->swap ? bswap_32(v) : v;
}

static inline uint16_t cur_u16(struct pv_cur *c, const char *what)
{
	uint16_t v = 0;
	if (!cur_need(c, 2, what))
		return 0;
	memcpy(&v, c->p, 2);
	c->p += 2;
	return c->swap ? bswap_16(v) : v;
}

static inline uint8_t cur_u8(struct pv_cur *c, const char *what)
{
	if (!cur_need(c, 1, what))
		return 0;
	return *c->p++;
}

static inline const void *cur_bytes(struct pv_cur *c, size_t n, const char *what)
{
	if (!cur_need(c, n, what))
		return NULL;
	const void *r = c->p;
	c->p += n;
	return r;
}

/* The rest of the record as a NUL-terminated string (the bytes must hold a NUL). */
const char *pv_cur_str(struct pv_cur *c, size_t n, const char *what);

struct pv_id_slot {
	uint64_t id;
	int idx; /* -1: empty */
};

struct perfev_decoder {
	struct perfev_attr *attrs;
	size_t nr_attrs, cap_attrs;
	struct pv_id_slot *ids; /* open addressing, power-of-two size */
	size_t nr_ids, cap_ids;
	bool swap;
	/* bump arena for the arrays of the record being decoded */
	uint8_t *arena;
	size_t arena_cap, arena_used;
	bool arena_oom;
};

/* Aligned scratch memory valid until the next decode. NULL on failure. */
void *pv_arena_alloc(struct perfev_decoder *dec, size_t n);

/* Byte-order independent attr from bytes: copies min(size, sizeof) and swaps. */
void pv_attr_from_bytes(struct perfev_attr *out, const void *bytes, size_t size, bool swap);
/* Bytes of an attr in host order, size attr->size (at most sizeof). */

/* The read_format block. */
int pv_read_values(struct perfev_decoder *dec, struct pv_cur *c, uint64_t read_format,
		   struct perfev_read_data *out);
int pv_decode_sample(struct perfev_decoder *dec, struct pv_cur *c, const struct perfev_attr *attr,
		     struct perfev_sample *s);
void pv_parse_sid(struct pv_cur *c, uint64_t sample_type, struct perfev_sample_id *sid);

/* ---- encoding ---------------------------------------------------------------- */
struct pv_wr {
	uint8_t *buf;
	size_t cap, len;
};
static inline void wr_bytes(struct pv_wr *w, const void *p, size_t n)
{
	if (w->len + n <= w->cap && n) {
		if (p)
			memcpy(w->buf + w->len, p, n);
		else
			memset(w->buf + w->len, 0, n);
	}
	w->len += n;
}
static inline void wr_u64(struct pv_wr *w, uint64_t v) { wr_bytes(w, &v, 8); }
static inline void wr_u32(struct pv_wr *w, uint32_t v) { wr_bytes(w, &v, 4); }
static inline void wr_u16(struct pv_wr *w, uint16_t v) { wr_bytes(w, &v, 2); }
static inline void wr_u8(struct pv_wr *w, uint8_t v) { wr_bytes(w, &v, 1); }
static inline void wr_zero(struct pv_wr *w, size_t n)
{
	static const uint8_t z[64];
	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);
		wr_bytes(w, z, k);
		n -= k;
	}
}
/* Pads to a multiple of 8 from the record start. */
static inline void wr_pad8(struct pv_wr *w) { wr_zero(w, (8 - (w->len & 7)) & 7); }
/* A NUL-terminated string padded with NULs to 8 bytes (at least one NUL). */
static inline void wr_str(struct pv_wr *w, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	wr_bytes(w, s ? s : "", n);
	wr_zero(w, 1);
	wr_pad8(w);
}

void pv_encode_read(struct pv_wr *w, uint64_t read_format, const struct perfev_read_data *r);
void pv_encode_sample(struct pv_wr *w, const struct perfev_attr *attr, const struct perfev_sample *s);
void pv_encode_sid(struct pv_wr *w, const struct perfev_attr *attr, const struct perfev_sample_id *sid);

#endif
