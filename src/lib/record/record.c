/*
 * record.c — the one record decoder: the decoder's attrs and id map, which
 * attr a record belongs to, and the kernel and perf-file record layouts
 * (samples are in record_sample.c, encoding in record_encode.c).
 */
#define _GNU_SOURCE
#include "record/record_int.h"
#include "perfev.h"

#include <stdlib.h>

PERFEV_API struct perfev_decoder *perfev_decoder_new(void)
{
	struct perfev_decoder *d = calloc(1, sizeof(*d));
	if (!d)
		return pv_error_null(ENOMEM, "out of memory creating a record decoder");
	return d;
}

PERFEV_API void perfev_decoder_free(struct perfev_decoder *dec)
{
	if (!dec)
		return;
	free(dec->attrs);
	free(dec->ids);
	free(dec->arena);
	free(dec);
}

PERFEV_API void perfev_decoder_set_swap(struct perfev_decoder *dec, bool swap) { dec->swap = swap; }
PERFEV_API size_t perfev_decoder_nr_attrs(const struct perfev_decoder *dec) { return dec->nr_attrs; }

PERFEV_API const struct perfev_attr *perfev_decoder_attr(const struct perfev_decoder *dec, int idx)
{
	if (idx < 0 || (size_t)idx >= dec->nr_attrs)
		return pv_error_null(ERANGE, "no attr number %d (the decoder has %zu)", idx, dec->nr_attrs);
	return &dec->attrs[idx];
}

static size_t id_hash(uint64_t id, size_t cap)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)id & (cap - 1);
}

static int ids_grow(struct perfev_decoder *dec)
{
	size_t ncap = dec->cap_ids ? dec->cap_ids * 2 : 64;
	struct pv_id_slot *n = malloc(ncap * sizeof(*n));
	if (!n)
		return pv_error(ENOMEM, "out of memory growing the sample id table");
	for (size_t i = 0; i < ncap; i++)
		n[i].idx = -1;
	for (size_t i = 0; i < dec->cap_ids; i++) {
		if (dec->ids[i].idx < 0)
			continue;
		size_t h = id_hash(dec->ids[i].id, ncap);
		while (n[h].idx >= 0)
			h = (h + 1) & (ncap - 1);
		n[h] = dec->ids[i];
	}
	free(dec->ids);
	dec->ids = n;
	dec->cap_ids = ncap;
	return 0;
}

PERFEV_API int perfev_decoder_add_ids(struct perfev_decoder *dec, int idx, const uint64_t *ids, size_t nr)
{
	if (idx < 0 || (size_t)idx >= dec->nr_attrs)
		return pv_error(EINVAL, "add_ids: no attr number %d", idx);
	for (size_t i = 0; i < nr; i++) {
		if ((dec->nr_ids + 1) * 2 > dec->cap_ids) {
			int err = ids_grow(dec);
			if (err < 0)
				return err;
		}
		size_t h = id_hash(ids[i], dec->cap_ids);
		while (dec->ids[h].idx >= 0 && dec->ids[h].id != ids[i])
			h = (h + 1) & (dec->cap_ids - 1);
		if (dec->ids[h].idx < 0)
			dec->nr_ids++;
		dec->ids[h].id = ids[i];
		dec->ids[h].idx = idx;
	}
	return 0;
}

PERFEV_API int perfev_decoder_add_attr(struct perfev_decoder *dec, const struct perfev_attr *attr,
				       const uint64_t *ids, size_t nr_ids)
{
	if (dec->nr_attrs >= 1 << 20)
		return pv_error(E2BIG, "more than %d event attrs in one stream", 1 << 20);
	if (pv_grow(&dec->attrs, &dec->cap_attrs, dec->nr_attrs + 1, sizeof(*dec->attrs)) < 0)
		return pv_error(ENOMEM, "out of memory adding an attr to the decoder");
	struct perfev_attr *a = &dec->attrs[dec->nr_attrs];
	memset(a, 0, sizeof(*a));
	size_t sz = attr->size && attr->size < sizeof(*a) ? attr->size : sizeof(*a);
	memcpy(a, attr, sz);
	int idx = (int)dec->nr_attrs++;
	int err = perfev_decoder_add_ids(dec, idx, ids, nr_ids);
	return err < 0 ? err : idx;
}

PERFEV_API int perfev_decoder_attr_of_id(const struct perfev_decoder *dec, uint64_t id)
{
	if (!dec->cap_ids)
		return -1;
	size_t h = id_hash(id, dec->cap_ids);
	while (dec->ids[h].idx >= 0) {
		if (dec->ids[h].id == id)
			return dec->ids[h].idx;
		h = (h + 1) & (dec->cap_ids - 1);
	}
	return -1;
}

void *pv_arena_alloc(struct perfev_decoder *dec, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if (n > dec->arena_cap - dec->arena_used) {
		/* Never realloc: earlier pointers of this record stay valid. */
		dec->arena_oom = true;
		return NULL;
	}
	void *p = dec->arena + dec->arena_used;
	dec->arena_used += n;
	return p;
}

/* Arrays of one record fit in this many bytes (read values expand 3x,
 * CPU masks expand 32x: never more than 40x the record). */
static int arena_reset(struct perfev_decoder *dec, size_t size)
{
	size_t need = size * 40 + 4096;
	dec->arena_used = 0;
	dec->arena_oom = false;
	if (need <= dec->arena_cap)
		return 0;
	free(dec->arena);
	dec->arena = malloc(need);
	dec->arena_cap = dec->arena ? need : 0;
	if (!dec->arena)
		return pv_error(ENOMEM, "out of memory decoding a %zu-byte record", size);
	return 0;
}

const char *pv_cur_str(struct pv_cur *c, size_t n, const char *what)
{
	const char *s = cur_bytes(c, n, what);
	if (!s)
		return NULL;
	if (!memchr(s, 0, n)) {
		c->bad = true;
		c->what = what;
		return NULL;
	}
	return s;
}

static uint64_t bitrev64(uint64_t v)
{
	uint64_t r = 0;
	for (int i = 0; i < 64; i++, v >>= 1)
		r = (r << 1) | (v & 1);
	return r;
}

void pv_attr_from_bytes(struct perfev_attr *out, const void *bytes, size_t size, bool swap)
{
	memset(out, 0, sizeof(*out));
	size_t n = size < sizeof(*out) ? size : sizeof(*out);
	memcpy(out, bytes, n);
	if (!swap) {
		out->size = (uint32_t)size;
		return;
	}
	out->type = bswap_32(out->type);
	out->config = bswap_64(out->config);
	out->sample_period = bswap_64(out->sample_period);
	out->sample_type = bswap_64(out->sample_type);
	out->read_format = bswap_64(out->read_format);
	uint64_t bits;
	memcpy(&bits, (const uint8_t *)out + offsetof(struct perfev_attr, read_format) + 8, 8);
	/* Big-endian bit-fields start at the most significant bit. */
	bits = bitrev64(bswap_64(bits));
	memcpy((uint8_t *)out + offsetof(struct perfev_attr, read_format) + 8, &bits, 8);
	out->wakeup_events = bswap_32(out->wakeup_events);
	out->bp_type = bswap_32(out->bp_type);
	out->config1 = bswap_64(out->config1);
	out->config2 = bswap_64(out->config2);
	out->branch_sample_type = bswap_64(out->branch_sample_type);
	out->sample_regs_user = bswap_64(out->sample_regs_user);
	out->sample_stack_user = bswap_32(out->sample_stack_user);
	out->clockid = (int32_t)bswap_32((uint32_t)out->clockid);
	out->sample_regs_intr = bswap_64(out->sample_regs_intr);
	out->aux_watermark = bswap_32(out->aux_watermark);
	out->sample_max_stack = bswap_16(out->sample_max_stack);
	out->aux_sample_size = bswap_32(out->aux_sample_size);
	out->aux_action = bswap_32(out->aux_action);
	out->sig_data = bswap_64(out->sig_data);
	out->config3 = bswap_64(out->config3);
	out->size = (uint32_t)size;
}

PERFEV_API size_t perfev_sample_id_size(const struct perfev_attr *attr)
{
	if (!attr || !attr->sample_id_all)
		return 0;
	uint64_t t = attr->sample_type;
	size_t n = 0;
	if (t & PERF_SAMPLE_TID) n += 8;
	if (t & PERF_SAMPLE_TIME) n += 8;
	if (t & PERF_SAMPLE_ID) n += 8;
	if (t & PERF_SAMPLE_STREAM_ID) n += 8;
	if (t & PERF_SAMPLE_CPU) n += 8;
	if (t & PERF_SAMPLE_IDENTIFIER) n += 8;
	return n;
}

void pv_parse_sid(struct pv_cur *c, uint64_t t, struct perfev_sample_id *sid)
{
	if (t & PERF_SAMPLE_TID) {
		sid->pid = cur_u32(c, "sample_id pid");
		sid->tid = cur_u32(c, "sample_id tid");
	}
	if (t & PERF_SAMPLE_TIME) sid->time = cur_u64(c, "sample_id time");
	if (t & PERF_SAMPLE_ID) sid->id = cur_u64(c, "sample_id id");
	if (t & PERF_SAMPLE_STREAM_ID) sid->stream_id = cur_u64(c, "sample_id stream_id");
	if (t & PERF_SAMPLE_CPU) {
		sid->cpu = cur_u32(c, "sample_id cpu");
		sid->res = cur_u32(c, "sample_id res");
	}
	if (t & PERF_SAMPLE_IDENTIFIER) sid->identifier = cur_u64(c, "sample_id identifier");
}

static uint64_t rd64(const struct perfev_decoder *dec, const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return dec->swap ? bswap_64(v) : v;
}

/* Which attr a kernel record belongs to, following perf's id_pos/is_pos. */
static int attr_of(struct perfev_decoder *dec, const uint8_t *b, size_t size, uint32_t type)
{
	if (dec->nr_attrs == 0)
		return -1;
	if (dec->nr_attrs == 1)
		return 0;
	const struct perfev_attr *a0 = &dec->attrs[0];
	uint64_t t = a0->sample_type;
	uint64_t id = 0;
	bool have = false;
	if (type == PERF_RECORD_SAMPLE) {
		size_t pos;
		if (t & PERF_SAMPLE_IDENTIFIER) {
			pos = 0;
			have = true;
		} else if (t & PERF_SAMPLE_ID) {
			pos = !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID) +
			      !!(t & PERF_SAMPLE_TIME) + !!(t & PERF_SAMPLE_ADDR);
			have = true;
		} else
			pos = 0;
		if (have && 8 + pos * 8 + 8 <= size)
			id = rd64(dec, b + 8 + pos * 8);
		else if (have)
			return -2; /* too short */
	} else {
		if (!a0->sample_id_all)
			return 0;
		size_t pos;
		if (t & PERF_SAMPLE_IDENTIFIER) {
			pos = 1;
			have = true;
		} else if (t & PERF_SAMPLE_ID) {
			pos = 1 + !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_STREAM_ID);
			have = true;
		} else
			pos = 0;
		if (have && 8 + pos * 8 <= size)
			id = rd64(dec, b + size - pos * 8);
		else if (have)
			return -2;
	}
	if (!have || !id)
		return 0;
	int idx = perfev_decoder_attr_of_id(dec, id);
	if (idx >= 0)
		return idx;
	if (!a0->sample_id_all)
		return 0;
	return -1;
}

/* Kernel records end with the sample_id trailer: parse it, then narrow the cursor. */
static void take_sid(struct perfev_decoder *dec, struct pv_cur *c, const struct perfev_attr *a,
		     struct perfev_record *r)
{
	size_t n = perfev_sample_id_size(a);
	if (!n)
		return;
	if (cur_left(c) < n) {
		c->bad = true;
		c->what = "sample_id trailer";
		return;
	}
	struct pv_cur t = {c->end - n, c->end, c->swap, false, NULL};
	pv_parse_sid(&t, a->sample_type, &r->sid);
	r->has_sid = true;
	c->end -= n;
}

static int decode_kernel(struct perfev_decoder *dec, struct pv_cur *c, struct perfev_record *r)
{
	const struct perfev_attr *a = r->attr_idx >= 0 ? &dec->attrs[r->attr_idx] : NULL;
	if (r->type == PERF_RECORD_SAMPLE)
		return a ? pv_decode_sample(dec, c, a, &r->u.sample) : 0;
	take_sid(dec, c, a, r);
	switch (r->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		r->u.mmap.pid = cur_u32(c, "pid");
		r->u.mmap.tid = cur_u32(c, "tid");
		r->u.mmap.addr = cur_u64(c, "addr");
		r->u.mmap.len = cur_u64(c, "len");
		r->u.mmap.pgoff = cur_u64(c, "pgoff");
		if (r->type == PERF_RECORD_MMAP2) {
			if (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				r->u.mmap.build_id_size = cur_u8(c, "build_id_size");
				cur_bytes(c, 3, "reserved");
				const void *bid = cur_bytes(c, 20, "build_id");
				if (bid)
					memcpy(r->u.mmap.build_id, bid, 20);
				if (r->u.mmap.build_id_size > 20)
					r->u.mmap.build_id_size = 20;
			} else {
				r->u.mmap.maj = cur_u32(c, "maj");
				r->u.mmap.min = cur_u32(c, "min");
				r->u.mmap.ino = cur_u64(c, "ino");
				r->u.mmap.ino_generation = cur_u64(c, "ino_generation");
			}
			r->u.mmap.prot = cur_u32(c, "prot");
			r->u.mmap.flags = cur_u32(c, "flags");
		}
		r->u.mmap.filename = pv_cur_str(c, cur_left(c), "filename");
		break;
	case PERF_RECORD_LOST:
		r->u.lost.id = cur_u64(c, "id");
		r->u.lost.lost = cur_u64(c, "lost");
		break;
	case PERF_RECORD_COMM:
		r->u.comm.pid = cur_u32(c, "pid");
		r->u.comm.tid = cur_u32(c, "tid");
		r->u.comm.comm = pv_cur_str(c, cur_left(c), "comm");
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		r->u.fork.pid = cur_u32(c, "pid");
		r->u.fork.ppid = cur_u32(c, "ppid");
		r->u.fork.tid = cur_u32(c, "tid");
		r->u.fork.ptid = cur_u32(c, "ptid");
		r->u.fork.time = cur_u64(c, "time");
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		r->u.throttle.time = cur_u64(c, "time");
		r->u.throttle.id = cur_u64(c, "id");
		r->u.throttle.stream_id = cur_u64(c, "stream_id");
		break;
	case PERF_RECORD_READ:
		r->u.read.pid = cur_u32(c, "pid");
		r->u.read.tid = cur_u32(c, "tid");
		if (a)
			return pv_read_values(dec, c, a->read_format, &r->u.read.values);
		break;
	case PERF_RECORD_AUX:
		r->u.aux.aux_offset = cur_u64(c, "aux_offset");
		r->u.aux.aux_size = cur_u64(c, "aux_size");
		r->u.aux.flags = cur_u64(c, "flags");
		break;
	case PERF_RECORD_ITRACE_START:
		r->u.itrace_start.pid = cur_u32(c, "pid");
		r->u.itrace_start.tid = cur_u32(c, "tid");
		break;
	case PERF_RECORD_LOST_SAMPLES:
		r->u.lost_samples.lost = cur_u64(c, "lost");
		break;
	case PERF_RECORD_SWITCH:
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		r->u.switch_cpu_wide.next_prev_pid = cur_u32(c, "next_prev_pid");
		r->u.switch_cpu_wide.next_prev_tid = cur_u32(c, "next_prev_tid");
		break;
	case PERF_RECORD_NAMESPACES: {
		r->u.namespaces.pid = cur_u32(c, "pid");
		r->u.namespaces.tid = cur_u32(c, "tid");
		uint64_t nr = cur_u64(c, "nr_namespaces");
		if (nr > cur_left(c) / 16) {
			c->bad = true;
			c->what = "namespaces";
			break;
		}
		uint64_t *v = pv_arena_alloc(dec, nr * 16);
		for (uint64_t i = 0; v && i < nr * 2; i++)
			v[i] = cur_u64(c, "namespace");
		r->u.namespaces.nr = nr;
		r->u.namespaces.dev_inode = v;
		break;
	}
	case PERF_RECORD_KSYMBOL:
		r->u.ksymbol.addr = cur_u64(c, "addr");
		r->u.ksymbol.len = cur_u32(c, "len");
		r->u.ksymbol.ksym_type = cur_u16(c, "ksym_type");
		r->u.ksymbol.flags = cur_u16(c, "flags");
		r->u.ksymbol.name = pv_cur_str(c, cur_left(c), "name");
		break;
	case PERF_RECORD_BPF_EVENT: {
		r->u.bpf_event.type = cur_u16(c, "type");
		r->u.bpf_event.flags = cur_u16(c, "flags");
		r->u.bpf_event.id = cur_u32(c, "id");
		const void *tag = cur_bytes(c, 8, "tag");
		if (tag)
			memcpy(r->u.bpf_event.tag, tag, 8);
		break;
	}
	case PERF_RECORD_CGROUP:
		r->u.cgroup.id = cur_u64(c, "id");
		r->u.cgroup.path = pv_cur_str(c, cur_left(c), "path");
		break;
	case PERF_RECORD_TEXT_POKE:
		r->u.text_poke.addr = cur_u64(c, "addr");
		r->u.text_poke.old_len = cur_u16(c, "old_len");
		r->u.text_poke.new_len = cur_u16(c, "new_len");
		r->u.text_poke.bytes = cur_bytes(c, (size_t)r->u.text_poke.old_len + r->u.text_poke.new_len,
						 "text_poke bytes");
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		r->u.aux_output_hw_id.hw_id = cur_u64(c, "hw_id");
		break;
	default:
		break; /* unknown kernel record: header and bytes only */
	}
	return 0;
}

static const uint32_t *cpus_from_mask(struct perfev_decoder *dec, const uint8_t *mask, size_t bytes,
				      size_t long_size, uint32_t *nr)
{
	size_t bits = bytes * 8;
	uint32_t *out = pv_arena_alloc(dec, bits * 4 + 8);
	*nr = 0;
	if (!out)
		return NULL;
	for (size_t w = 0; w + long_size <= bytes; w += long_size) {
		uint64_t v = 0;
		if (long_size == 8) {
			memcpy(&v, mask + w, 8);
			if (dec->swap) v = bswap_64(v);
		} else {
			uint32_t v32;
			memcpy(&v32, mask + w, 4);
			v = dec->swap ? bswap_32(v32) : v32;
		}
		for (size_t b = 0; b < long_size * 8; b++)
			if (v >> b & 1)
				out[(*nr)++] = (uint32_t)(w * 8 + b);
	}
	return out;
}

/* perf's cpu map payload (CPU_MAP record and EVENT_UPDATE of type CPUS). */
static void decode_cpu_map(struct perfev_decoder *dec, struct pv_cur *c, uint16_t *type_out,
			   uint32_t *nr_out, const uint32_t **cpus_out)
{
	uint16_t type = cur_u16(c, "cpu_map type");
	*type_out = type;
	*nr_out = 0;
	*cpus_out = NULL;
	if (type == 0) { /* PERF_CPU_MAP__CPUS: u16 nr, u16 cpu[nr] */
		uint16_t nr = cur_u16(c, "cpu_map nr");
		uint32_t *v = pv_arena_alloc(dec, (size_t)nr * 4 + 8);
		for (uint16_t i = 0; v && i < nr && !c->bad; i++)
			v[i] = cur_u16(c, "cpu_map cpu");
		*nr_out = c->bad ? 0 : nr;
		*cpus_out = v;
	} else if (type == 1) { /* PERF_CPU_MAP__MASK: u16 nr, u16 long_size, mask[] */
		uint16_t nr = cur_u16(c, "cpu_map mask nr");
		uint16_t long_size = cur_u16(c, "cpu_map long_size");
		if (long_size != 4 && long_size != 8) {
			c->bad = true;
			c->what = "cpu_map long_size (4 or 8)";
			return;
		}
		/* a 64-bit mask is aligned to 8 within the union: 4 bytes of padding */
		if (long_size == 8)
			cur_bytes(c, 4, "cpu_map pad");
		size_t bytes = (size_t)nr * long_size;
		const uint8_t *m = cur_bytes(c, bytes, "cpu_map mask");
		if (m)
			*cpus_out = cpus_from_mask(dec, m, bytes, long_size, nr_out);
	} else if (type == 2) { /* PERF_CPU_MAP__RANGE_CPUS */
		uint8_t any = cur_u8(c, "any_cpu");
		cur_u8(c, "pad");
		uint16_t start = cur_u16(c, "start_cpu"), end = cur_u16(c, "end_cpu");
		if (c->bad)
			return;
		uint32_t n = end >= start ? (uint32_t)(end - start + 1) : 0;
		uint32_t *v = pv_arena_alloc(dec, ((size_t)n + 1) * 4 + 8);
		if (!v)
			return;
		uint32_t k = 0;
		if (any)
			v[k++] = (uint32_t)-1;
		for (uint32_t i = 0; i < n; i++)
			v[k++] = start + i;
		*nr_out = k;
		*cpus_out = v;
	}
}

static const uint64_t *u64_array(struct perfev_decoder *dec, struct pv_cur *c, uint64_t nr,
				 const char *what)
{
	if (nr > cur_left(c) / 8) {
		if (!c->bad) {
			c->bad = true;
			c->what = what;
		}
		return NULL;
	}
	uint64_t *v = pv_arena_alloc(dec, nr * 8 + 8);
	for (uint64_t i = 0; v && i < nr; i++)
		v[i] = cur_u64(c, what);
	return v;
}

static int decode_user(struct perfev_decoder *dec, struct pv_cur *c, struct perfev_record *r)
{
	switch (r->type) {
	case PERFEV_RECORD_HEADER_ATTR: {
		/* attr.size sits at offset 4 of the attr */
		if (cur_left(c) < 8) {
			c->bad = true;
			c->what = "attr";
			break;
		}
		uint32_t asz;
		memcpy(&asz, c->p + 4, 4);
		if (dec->swap)
			asz = bswap_32(asz);
		if (asz == 0)
			asz = 64; /* PERF_ATTR_SIZE_VER0 */
		if (asz < 64 || asz > cur_left(c) || asz % 8) {
			c->bad = true;
			c->what = "attr.size";
			break;
		}
		struct perfev_attr *a = pv_arena_alloc(dec, sizeof(*a));
		if (!a)
			break;
		pv_attr_from_bytes(a, c->p, asz, dec->swap);
		c->p += asz;
		r->u.header_attr.attr = a;
		r->u.header_attr.attr_size = asz;
		r->u.header_attr.nr_ids = cur_left(c) / 8;
		r->u.header_attr.ids = u64_array(dec, c, r->u.header_attr.nr_ids, "ids");
		break;
	}
	case PERFEV_RECORD_HEADER_TRACING_DATA:
		r->u.tracing_data.size = cur_u32(c, "size");
		break;
	case PERFEV_RECORD_HEADER_BUILD_ID: {
		r->u.build_id.pid = (int32_t)cur_u32(c, "pid");
		const uint8_t *b = cur_bytes(c, 24, "build_id");
		if (!b)
			break;
		memcpy(r->u.build_id.build_id, b, 20);
		r->u.build_id.size = (r->misc & PERFEV_RECORD_MISC_BUILD_ID_SIZE) && b[20] <= 20 ? b[20] : 20;
		r->u.build_id.filename = pv_cur_str(c, cur_left(c), "filename");
		break;
	}
	case PERFEV_RECORD_FINISHED_ROUND:
	case PERFEV_RECORD_FINISHED_INIT:
		break;
	case PERFEV_RECORD_ID_INDEX: {
		uint64_t nr = cur_u64(c, "nr");
		if (nr > cur_left(c) / 32) {
			c->bad = true;
			c->what = "id_index entries";
			break;
		}
		r->u.id_index.nr = nr;
		r->u.id_index.entries = u64_array(dec, c, nr * 4, "id_index entry");
		break;
	}
	case PERFEV_RECORD_AUXTRACE_INFO:
		r->u.auxtrace_info.type = cur_u32(c, "type");
		cur_u32(c, "reserved");
		r->u.auxtrace_info.nr_priv = cur_left(c) / 8;
		r->u.auxtrace_info.priv = u64_array(dec, c, r->u.auxtrace_info.nr_priv, "priv");
		break;
	case PERFEV_RECORD_AUXTRACE:
		r->u.auxtrace.size = cur_u64(c, "size");
		r->u.auxtrace.offset = cur_u64(c, "offset");
		r->u.auxtrace.reference = cur_u64(c, "reference");
		r->u.auxtrace.idx = cur_u32(c, "idx");
		r->u.auxtrace.tid = cur_u32(c, "tid");
		r->u.auxtrace.cpu = cur_u32(c, "cpu");
		break;
	case PERFEV_RECORD_AUXTRACE_ERROR: {
		struct pv_cur *k = c;
		r->u.auxtrace_error.type = cur_u32(k, "type");
		r->u.auxtrace_error.code = cur_u32(k, "code");
		r->u.auxtrace_error.cpu = cur_u32(k, "cpu");
		r->u.auxtrace_error.pid = cur_u32(k, "pid");
		r->u.auxtrace_error.tid = cur_u32(k, "tid");
		r->u.auxtrace_error.fmt = cur_u32(k, "fmt");
		r->u.auxtrace_error.ip = cur_u64(k, "ip");
		r->u.auxtrace_error.time = cur_u64(k, "time");
		const char *msg = cur_bytes(k, 64, "msg");
		if (msg) {
			char *m = pv_arena_alloc(dec, 65);
			if (m) {
				memcpy(m, msg, 64);
				m[64] = 0;
			}
			r->u.auxtrace_error.msg = m;
		}
		if (cur_left(k) >= 8) {
			r->u.auxtrace_error.machine_pid = cur_u32(k, "machine_pid");
			r->u.auxtrace_error.vcpu = cur_u32(k, "vcpu");
		}
		break;
	}
	case PERFEV_RECORD_THREAD_MAP: {
		uint64_t nr = cur_u64(c, "nr");
		if (nr > cur_left(c) / 24) {
			c->bad = true;
			c->what = "thread_map entries";
			break;
		}
		uint64_t *pids = pv_arena_alloc(dec, nr * 8 + 8);
		char *comms = pv_arena_alloc(dec, nr * 16 + 8);
		for (uint64_t i = 0; pids && comms && i < nr; i++) {
			pids[i] = cur_u64(c, "pid");
			const char *s = cur_bytes(c, 16, "comm");
			if (s) {
				memcpy(comms + i * 16, s, 16);
				comms[i * 16 + 15] = 0;
			}
		}
		r->u.thread_map.nr = nr;
		r->u.thread_map.pids = pids;
		r->u.thread_map.comms = comms;
		break;
	}
	case PERFEV_RECORD_CPU_MAP:
		decode_cpu_map(dec, c, &r->u.cpu_map.type, &r->u.cpu_map.nr, &r->u.cpu_map.cpus);
		break;
	case PERFEV_RECORD_STAT_CONFIG: {
		uint64_t nr = cur_u64(c, "nr");
		if (nr > cur_left(c) / 16) {
			c->bad = true;
			c->what = "stat_config entries";
			break;
		}
		r->u.stat_config.nr = nr;
		r->u.stat_config.tag_val = u64_array(dec, c, nr * 2, "stat_config entry");
		break;
	}
	case PERFEV_RECORD_STAT:
		r->u.stat.id = cur_u64(c, "id");
		r->u.stat.cpu = cur_u32(c, "cpu");
		r->u.stat.thread = cur_u32(c, "thread");
		r->u.stat.val = cur_u64(c, "val");
		r->u.stat.ena = cur_u64(c, "ena");
		r->u.stat.run = cur_u64(c, "run");
		break;
	case PERFEV_RECORD_STAT_ROUND:
		r->u.stat_round.type = cur_u64(c, "type");
		r->u.stat_round.time = cur_u64(c, "time");
		break;
	case PERFEV_RECORD_EVENT_UPDATE: {
		r->u.event_update.type = cur_u64(c, "type");
		r->u.event_update.id = cur_u64(c, "id");
		uint64_t t = r->u.event_update.type;
		if (t == 0 || t == 2) /* UNIT, NAME */
			r->u.event_update.str = pv_cur_str(c, cur_left(c), "event_update string");
		else if (t == 1) { /* SCALE */
			uint64_t v = cur_u64(c, "scale");
			memcpy(&r->u.event_update.scale, &v, 8);
		} else if (t == 3) { /* CPUS */
			uint16_t ty;
			decode_cpu_map(dec, c, &ty, &r->u.event_update.nr_cpus, &r->u.event_update.cpus);
		}
		break;
	}
	case PERFEV_RECORD_TIME_CONV:
		r->u.time_conv.time_shift = cur_u64(c, "time_shift");
		r->u.time_conv.time_mult = cur_u64(c, "time_mult");
		r->u.time_conv.time_zero = cur_u64(c, "time_zero");
		if (cur_left(c) >= 24) {
			r->u.time_conv.extended = true;
			r->u.time_conv.time_cycles = cur_u64(c, "time_cycles");
			r->u.time_conv.time_mask = cur_u64(c, "time_mask");
			r->u.time_conv.cap_user_time_zero = cur_u8(c, "cap_user_time_zero");
			r->u.time_conv.cap_user_time_short = cur_u8(c, "cap_user_time_short");
		}
		break;
	case PERFEV_RECORD_HEADER_FEATURE:
		r->u.feature.feat_id = cur_u64(c, "feat_id");
		r->u.feature.size = cur_left(c);
		r->u.feature.data = cur_bytes(c, r->u.feature.size, "feature data");
		break;
	case PERFEV_RECORD_COMPRESSED:
		r->u.compressed.data_size = cur_left(c);
		r->u.compressed.data = cur_bytes(c, cur_left(c), "compressed data");
		break;
	case PERFEV_RECORD_COMPRESSED2: {
		uint64_t n = cur_u64(c, "data_size");
		if (n > cur_left(c)) {
			c->bad = true;
			c->what = "compressed data_size";
			break;
		}
		r->u.compressed.data_size = n;
		r->u.compressed.data = cur_bytes(c, n, "compressed data");
		break;
	}
	default:
		break;
	}
	return 0;
}

static int header_of(struct perfev_decoder *dec, const void *bytes, size_t len, uint32_t *type,
		     uint16_t *misc, uint16_t *size)
{
	if (len < 8)
		return pv_error(EINVAL, "record header needs 8 bytes but %zu remain", len);
	struct pv_cur c = {bytes, (const uint8_t *)bytes + 8, dec->swap, false, NULL};
	*type = cur_u32(&c, "type");
	*misc = cur_u16(&c, "misc");
	*size = cur_u16(&c, "size");
	if (*size < 8)
		return pv_error(EINVAL, "record of type %u claims %u bytes, less than its 8-byte header",
				*type, *size);
	if (*size > len)
		return pv_error(EINVAL, "record of type %u claims %u bytes but %zu remain", *type, *size, len);
	return 0;
}

PERFEV_API int perfev_decoder_decode(struct perfev_decoder *dec, const void *bytes, size_t len,
				     struct perfev_record *r)
{
	/* through libc's memset (vector stores): inlined, the 416 bytes became a
	 * rep stos, whose start-up cost was 5% of a report */
	volatile size_t rsize = sizeof(*r);
	memset(r, 0, rsize);
	r->attr_idx = -1;
	uint32_t type;
	uint16_t misc, size;
	int err = header_of(dec, bytes, len, &type, &misc, &size);
	if (err < 0)
		return err;
	if ((err = arena_reset(dec, size)) < 0)
		return err;
	r->type = type;
	r->misc = misc;
	r->size = size;
	r->bytes = bytes;
	struct pv_cur c = {(const uint8_t *)bytes + 8, (const uint8_t *)bytes + size, dec->swap, false, NULL};
	if (type < PERFEV_RECORD_HEADER_ATTR) {
		int idx = attr_of(dec, bytes, size, type);
		if (idx == -2)
			return pv_error(EINVAL, "%s record of %u bytes is too short to hold its sample id",
					perfev_record_type_name(type), size);
		r->attr_idx = idx;
		if (idx < 0 && type == PERF_RECORD_SAMPLE)
			return pv_error(ENOENT, "sample with an id that matches no event");
		err = decode_kernel(dec, &c, r);
	} else {
		err = decode_user(dec, &c, r);
	}
	if (err < 0)
		return err;
	if (c.bad)
		return pv_error(EINVAL, "%s record of %u bytes is malformed: %s runs past its end",
				perfev_record_type_name(type), size, c.what ? c.what : "a field");
	if (dec->arena_oom)
		return pv_error(ENOMEM, "%s record of %u bytes: out of scratch memory",
				perfev_record_type_name(type), size);
	return size;
}

PERFEV_API int perfev_decoder_record_time(struct perfev_decoder *dec, const void *bytes, size_t len,
					  uint64_t *time)
{
	uint32_t type;
	uint16_t misc, size;
	int err = header_of(dec, bytes, len, &type, &misc, &size);
	if (err < 0)
		return err;
	if (type >= PERFEV_RECORD_HEADER_ATTR)
		return -ENOENT;
	int idx = attr_of(dec, bytes, size, type);
	if (idx < 0)
		return -ENOENT;
	const struct perfev_attr *a = &dec->attrs[idx];
	uint64_t t = a->sample_type;
	if (!(t & PERF_SAMPLE_TIME))
		return -ENOENT;
	const uint8_t *b = bytes;
	size_t off;
	if (type == PERF_RECORD_SAMPLE) {
		off = 8 + 8 * (!!(t & PERF_SAMPLE_IDENTIFIER) + !!(t & PERF_SAMPLE_IP) + !!(t & PERF_SAMPLE_TID));
		if (off + 8 > size)
			return -EINVAL;
	} else {
		if (!a->sample_id_all)
			return -ENOENT;
		size_t from_end = 8 * (1 + !!(t & PERF_SAMPLE_ID) + !!(t & PERF_SAMPLE_STREAM_ID) +
				       !!(t & PERF_SAMPLE_CPU) + !!(t & PERF_SAMPLE_IDENTIFIER));
		if (from_end + 8 > size)
			return -EINVAL;
		off = size - from_end;
	}
	*time = rd64(dec, b + off);
	return 0;
}
