/* export_pprof.c — pprof's profile.proto (github.com/google/pprof,
 * proto/profile.proto; tests/data/profile.proto restates its field numbers), gzipped as pprof expects.
 * Go's CPU-profile conventions: sample types [samples/count, cpu/nanoseconds],
 * period type cpu/nanoseconds. One Location per distinct frame, or per
 * inlined chain (Lines innermost first, the containing function last). */
#include "export/export_int.h"
#include "export/protobuf.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/* profile.proto field numbers */
enum { P_SAMPLE_TYPE = 1, P_SAMPLE = 2, P_MAPPING = 3, P_LOCATION = 4, P_FUNCTION = 5,
       P_STRING_TABLE = 6, P_TIME_NANOS = 9, P_DURATION_NANOS = 10, P_PERIOD_TYPE = 11,
       P_PERIOD = 12, P_COMMENT = 13 };
enum { VT_TYPE = 1, VT_UNIT = 2 };
enum { S_LOCATION_ID = 1, S_VALUE = 2, S_LABEL = 3 };
enum { L_KEY = 1, L_STR = 2, L_NUM = 3 };
enum { M_ID = 1, M_START = 2, M_LIMIT = 3, M_OFFSET = 4, M_FILENAME = 5, M_BUILD_ID = 6,
       M_HAS_FUNCTIONS = 7, M_HAS_FILENAMES = 8, M_HAS_LINE_NUMBERS = 9, M_HAS_INLINE = 10 };
enum { LOC_ID = 1, LOC_MAPPING_ID = 2, LOC_ADDRESS = 3, LOC_LINE = 4 };
enum { LINE_FUNCTION_ID = 1, LINE_LINE = 2 };
enum { F_ID = 1, F_NAME = 2, F_SYSTEM_NAME = 3, F_FILENAME = 4 };

struct pp {
	const struct perfev_profile *p;
	uint32_t map_off; /* mapping ids of p's maps start after this (the base's after NEW's) */
	uint64_t loc_bit; /* in location keys: p's frames apart from the other profile's */
	struct pv_strtab st;         /* pprof string index = id (0 is "") */
	struct pv_keymap funcs, locs;
	uint32_t nr_funcs, nr_locs;
	struct pv_buf functions, locations, tmp, tmp2;
	bool oom;
};

static uint32_t str(struct pp *pp, const char *s)
{
	if (!s || !*s)
		return 0;
	uint32_t id = pv_strtab_intern(&pp->st, s);
	if (!id)
		pp->oom = true;
	return id;
}

static uint32_t function(struct pp *pp, const struct pv_frame *f)
{
	char addr[32];
	uint32_t name = str(pp, pv_frame_name(pp->p, f, addr, sizeof(addr)));
	/* line 0: no file ("symbol+offset", perf's srcline without line information) */
	uint32_t file = str(pp, f->line ? pv_strtab_get(&pp->p->strs, f->file) : NULL);
	uint64_t key = (uint64_t)name << 32 | file;
	uint32_t id = pv_keymap_get(&pp->funcs, key);
	if (id)
		return id;
	id = ++pp->nr_funcs;
	if (pv_keymap_put(&pp->funcs, key, id) < 0)
		pp->oom = true;
	struct pv_buf *m = &pp->tmp;
	pv_pb_uint(m, F_ID, id);
	pv_pb_int(m, F_NAME, name);
	pv_pb_int(m, F_SYSTEM_NAME, name);
	pv_pb_int(m, F_FILENAME, file);
	pv_pb_msg(&pp->functions, P_FUNCTION, m);
	return id;
}

/* The location of frames nodes[0..n) (innermost first; all but the last
 * inlined into the next). */
static uint32_t location(struct pp *pp, const uint32_t *nodes, size_t n)
{
	const struct perfev_profile *p = pp->p;
	const struct pv_frame *outer = &p->frames[p->nodes[nodes[n - 1]].what];
	/* a lone frame is shared by every stack through it; an inlined chain is
	 * keyed by its innermost node (rare enough not to dedup further) */
	uint64_t key = (n == 1 ? p->nodes[nodes[0]].what : (1ull << 63) | nodes[0]) | pp->loc_bit;
	uint32_t id = pv_keymap_get(&pp->locs, key);
	if (id)
		return id;
	id = ++pp->nr_locs;
	if (pv_keymap_put(&pp->locs, key, id) < 0)
		pp->oom = true;
	struct pv_buf *m = &pp->tmp2; /* tmp is used by function() meanwhile */
	pv_pb_uint(m, LOC_ID, id);
	pv_pb_uint(m, LOC_MAPPING_ID, outer->map ? outer->map + pp->map_off : 0);
	pv_pb_uint(m, LOC_ADDRESS, outer->ip);
	struct pv_buf line = PV_BUF_INIT;
	for (size_t i = 0; i < n; i++) {
		const struct pv_frame *f = &p->frames[p->nodes[nodes[i]].what];
		pv_pb_uint(&line, LINE_FUNCTION_ID, function(pp, f));
		pv_pb_int(&line, LINE_LINE, f->line);
		pv_pb_msg(m, LOC_LINE, &line);
	}
	pv_buf_free(&line);
	pv_pb_msg(&pp->locations, P_LOCATION, m);
	return id;
}

/* The first map of an executable: not the kernel's or another [pseudo]
 * map, not anonymous or JIT memory, not a shared library (lib.so,
 * ld-linux-x86-64.so.2); the first map when there is none. Maps are in the
 * order samples first reached them. */
static size_t main_binary(const struct perfev_profile *p)
{
	for (size_t i = 0; i < p->nr_maps; i++) {
		const char *path = pv_strtab_get(&p->strs, p->maps[i].path);
		if (!path || path[0] != '/' || !strncmp(path, "/tmp/perf-", 10) || !strncmp(path, "/memfd:", 7) ||
		    !strncmp(path, "/dev/", 5))
			continue;
		const char *base = strrchr(path, '/') + 1, *so = strstr(base, ".so");
		if (so && (so[3] == '\0' || so[3] == '.'))
			continue;
		return i;
	}
	return 0;
}

static void value_type(struct pp *pp, struct pv_buf *out, unsigned field, const char *type,
		       const char *unit)
{
	struct pv_buf m = PV_BUF_INIT;
	pv_pb_int(&m, VT_TYPE, str(pp, type));
	pv_pb_int(&m, VT_UNIT, str(pp, unit));
	pv_pb_msg(out, field, &m);
	pv_buf_free(&m);
}

static void label(struct pp *pp, struct pv_buf *sample, const char *key, const char *s, int64_t num)
{
	struct pv_buf m = PV_BUF_INIT;
	pv_pb_int(&m, L_KEY, str(pp, key));
	if (s)
		pv_pb_int(&m, L_STR, str(pp, s));
	else
		pv_pb_int(&m, L_NUM, num);
	pv_pb_msg(sample, S_LABEL, &m);
	pv_buf_free(&m);
}

static int gzip_write(const struct pv_buf *raw, FILE *out)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16 /* gzip wrapper */, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return pv_error(ENOMEM, "pprof export: zlib initialisation failed");
	z.next_in = (Bytef *)(raw->data ? raw->data : "");
	z.avail_in = (uInt)raw->len;
	unsigned char chunk[65536];
	int zr, ret = 0;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		zr = deflate(&z, Z_FINISH);
		size_t n = sizeof(chunk) - z.avail_out;
		if (n && fwrite(chunk, 1, n, out) != n) {
			ret = pv_error(EIO, "pprof export: writing failed: %s (check the disk space and the path)",
				       strerror(errno));
			break;
		}
	} while (zr == Z_OK);
	if (!ret && zr != Z_STREAM_END)
		ret = pv_error(EIO, "pprof export: compression failed (zlib %d)", zr);
	deflateEnd(&z);
	if (!ret && (fflush(out) != 0 || ferror(out)))
		ret = pv_error(EIO, "pprof export: writing failed: %s", strerror(errno));
	return ret;
}

/* p's mappings (ids from pp->map_off + 1), the main binary first */
static void mappings_of(struct pp *pp, const struct perfev_profile *p, struct pv_buf *mappings)
{
	bool lines = false, inl = false;
	for (size_t i = 1; i < p->nr_frames; i++) {
		lines |= p->frames[i].line != 0;
		inl |= p->frames[i].inlined;
	}
	/* profile.proto: "mapping[0] will be the main binary" (pprof's File:) */
	size_t main_map = main_binary(p);
	for (size_t k = 0; k < p->nr_maps; k++) {
		size_t i = k == 0 ? main_map : k <= main_map ? k - 1 : k;
		const struct pv_pmap *m = &p->maps[i];
		struct pv_buf *mb = &pp->tmp;
		pv_pb_uint(mb, M_ID, i + 1 + pp->map_off);
		pv_pb_uint(mb, M_START, m->start);
		pv_pb_uint(mb, M_LIMIT, m->end);
		pv_pb_uint(mb, M_OFFSET, m->pgoff);
		pv_pb_int(mb, M_FILENAME, str(pp, pv_strtab_get(&p->strs, m->path)));
		char hex[2 * PERFEV_BUILD_ID_MAX + 1] = "";
		for (size_t k = 0; k < m->build_id_len; k++)
			snprintf(hex + 2 * k, 3, "%02x", m->build_id[k]);
		pv_pb_int(mb, M_BUILD_ID, str(pp, hex));
		pv_pb_uint(mb, M_HAS_FUNCTIONS, 1);
		pv_pb_uint(mb, M_HAS_FILENAMES, lines);
		pv_pb_uint(mb, M_HAS_LINE_NUMBERS, lines);
		pv_pb_uint(mb, M_HAS_INLINE, inl);
		pv_pb_msg(mappings, P_MAPPING, mb);
	}
}

/* One Sample per node of pp->p with self values (negated, labelled
 * pprof::base, for the base of a diff). 0 or -ENOMEM. */
static int samples_of(struct pp *pp, struct pv_buf *samples, bool base)
{
	const struct perfev_profile *p = pp->p;
	struct pv_buf s = PV_BUF_INIT;
	uint32_t *path = NULL, *locs = NULL;
	size_t cap = 0, lcap = 0;
	int ret = 0;
	for (uint32_t id = 1; id < p->nr_nodes; id++) {
		const struct pv_node *n = &p->nodes[id];
		if (pv_node_is_group(n) || !(n->self[0] | n->self[1]))
			continue;
		size_t nr = 0, nl = 0;
		uint32_t at = id;
		for (; at && !pv_node_is_group(&p->nodes[at]); at = p->nodes[at].parent) {
			if (pv_grow(&path, &cap, nr + 1, sizeof(*path)) < 0)
				goto oom;
			path[nr++] = at;
		}
		/* leaf first: runs of inlined frames join the frame they are inlined in */
		for (size_t i = 0; i < nr;) {
			size_t j = i;
			while (j + 1 < nr && p->frames[p->nodes[path[j]].what].inlined)
				j++;
			if (pv_grow(&locs, &lcap, nl + 1, sizeof(*locs)) < 0)
				goto oom;
			locs[nl++] = location(pp, path + i, j - i + 1);
			i = j + 1;
		}
		struct pv_buf ids = PV_BUF_INIT; /* packed repeated uint64 */
		for (size_t i = 0; i < nl; i++)
			pv_pb_varint(&ids, locs[i]);
		pv_pb_msg(&s, S_LOCATION_ID, &ids);
		pv_buf_free(&ids);
		uint64_t vals[2] = {n->self[PERFEV_VALUE_SAMPLES], n->self[PERFEV_VALUE_PERIOD]};
		if (base) /* (int64 negatives, as varints of their two's complement) */
			vals[0] = (uint64_t)-(int64_t)vals[0], vals[1] = (uint64_t)-(int64_t)vals[1];
		pv_pb_packed(&s, S_VALUE, vals, 2);
		const struct pv_group *g = &p->groups[p->nodes[at].what & ~PV_NODE_GROUP_BIT];
		if (g->pid >= 0)
			label(pp, &s, "pid", NULL, g->pid);
		if (g->tid >= 0)
			label(pp, &s, "tid", NULL, g->tid);
		const char *comm = pv_strtab_get(&p->strs, g->comm);
		if (comm)
			label(pp, &s, "comm", comm, 0);
		if (base)
			label(pp, &s, "pprof::base", "true", 0);
		pv_pb_msg(samples, P_SAMPLE, &s);
	}
	goto done;
oom:
	ret = -ENOMEM;
done:
	pv_buf_free(&s);
	free(path);
	free(locs);
	return ret;
}

/* p as a profile.proto, with base's samples subtracted when base is not NULL */
static int pprof_write(const struct perfev_profile *p0, const struct perfev_profile *base0,
		       const struct perfev_export_options *o0, FILE *out)
{
	struct perfev_export_options o;
	if (pv_export_options(o0, &o) < 0)
		return -EINVAL;
	struct perfev_profile *owned = NULL, *owned_base = NULL;
	const struct perfev_profile *p = pv_export_view(p0, -1, &owned);
	const struct perfev_profile *base = base0 ? pv_export_view(base0, -1, &owned_base) : NULL;
	if (!p || (base0 && !base)) {
		perfev_profile_free(owned);
		return pv_error(ENOMEM, "pprof export: out of memory");
	}
	struct pp pp = {.p = p};
	struct pv_buf head = PV_BUF_INIT, mappings = PV_BUF_INIT, samples = PV_BUF_INIT;
	int ret = 0;

	value_type(&pp, &head, P_SAMPLE_TYPE, "samples", "count");
	value_type(&pp, &head, P_SAMPLE_TYPE, o.period_type, o.period_unit);
	value_type(&pp, &head, P_PERIOD_TYPE, o.period_type, o.period_unit);
	int64_t period = o.period;
	if (!period && p->nodes[0].total[0])
		period = (int64_t)(p->nodes[0].total[PERFEV_VALUE_PERIOD] / p->nodes[0].total[0]);
	pv_pb_int(&head, P_PERIOD, period);
	pv_pb_int(&head, P_TIME_NANOS, o.time_nanos);
	pv_pb_int(&head, P_DURATION_NANOS, o.duration_nanos);
	pv_pb_varint(&head, (uint64_t)P_COMMENT << 3 | PV_PB_VARINT);
	pv_pb_varint(&head, str(&pp, "generated by perfev"));

	mappings_of(&pp, p, &mappings);
	if (samples_of(&pp, &samples, false) < 0)
		goto oom;
	if (base) { /* the base's mappings after p's, its locations apart */
		pp.p = base;
		pp.map_off = (uint32_t)p->nr_maps;
		pp.loc_bit = 1ull << 62;
		mappings_of(&pp, base, &mappings);
		if (samples_of(&pp, &samples, true) < 0)
			goto oom;
	}
	if (pp.oom)
		goto oom;

	/* assemble: header, mappings, locations, functions, samples, strings */
	struct pv_buf all = PV_BUF_INIT;
	if (head.len)
		pv_buf_add(&all, head.data, head.len);
	if (mappings.len)
		pv_buf_add(&all, mappings.data, mappings.len);
	if (pp.locations.len)
		pv_buf_add(&all, pp.locations.data, pp.locations.len);
	if (pp.functions.len)
		pv_buf_add(&all, pp.functions.data, pp.functions.len);
	if (samples.len)
		pv_buf_add(&all, samples.data, samples.len);
	pv_pb_str(&all, P_STRING_TABLE, "");
	for (size_t i = 1; i < pp.st.nr; i++)
		pv_pb_str(&all, P_STRING_TABLE, pp.st.strs[i]);
	if (all.oom || head.oom || mappings.oom || samples.oom || pp.locations.oom || pp.functions.oom)
		ret = pv_error(ENOMEM, "pprof export: out of memory");
	else
		ret = gzip_write(&all, out);
	pv_buf_free(&all);
	goto done;
oom:
	ret = pv_error(ENOMEM, "pprof export: out of memory");
done:
	pv_buf_free(&head);
	pv_buf_free(&mappings);
	pv_buf_free(&samples);
	pv_buf_free(&pp.functions);
	pv_buf_free(&pp.locations);
	pv_buf_free(&pp.tmp);
	pv_buf_free(&pp.tmp2);
	pv_strtab_free(&pp.st);
	pv_keymap_free(&pp.funcs);
	pv_keymap_free(&pp.locs);
	perfev_profile_free(owned);
	perfev_profile_free(owned_base);
	return ret;
}

PERFEV_API int perfev_export_pprof(const struct perfev_profile *p, const struct perfev_export_options *o, FILE *out)
{
	return pprof_write(p, NULL, o, out);
}

PERFEV_API int perfev_export_pprof_diff(const struct perfev_profile *old, const struct perfev_profile *new_,
					const struct perfev_export_options *o, FILE *out)
{
	if (!old || !new_)
		return pv_error(EINVAL, "pprof diff: both profiles are needed, the old (the base) and the new");
	return pprof_write(new_, old, o, out);
}
