/*
 * perfdata_read.c — the perf.data reader: file mode (mmap'ed, attrs and
 * feature sections) and pipe mode (attrs, features and names arrive as
 * records), either byte order, zstd COMPRESSED records, AUXTRACE and
 * TRACING_DATA payloads skipped, and time-ordered delivery by rounds as perf
 * does it (events with a time wait in a queue; FINISHED_ROUND flushes those
 * up to the newest time of the round before).
 */
#define _GNU_SOURCE
#include "perfdata/perfdata_int.h"
#include "core/opts.h"
#include "perfev.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

struct pv_event {
	struct perfev_attr attr;
	char *name;
	int dec_idx;
	uint64_t *ids;
	size_t nr_ids, cap_ids;
	struct perfev_perfdata_event_stats counts; /* perf report --stats's, per event */
};

struct pv_queued {
	uint64_t time, seq;
	const uint8_t *ptr; /* into the mapped file, or NULL: own + off */
	size_t off;
	uint32_t len;
};

struct perfev_perfdata {
	int fd;
	bool own_fd, pipe, swap;
	uint8_t *map;
	size_t map_len;
	struct pv_file_header hdr;
	struct pv_event *ev;
	size_t nr_ev, cap_ev;
	struct perfev_decoder *dec;
	struct { uint8_t *data; size_t size; } feat[PERFEV_FEAT_MAX];
	struct perfev_perfdata_stats stats;
	/* pipe input */
	uint8_t *in;
	size_t in_len, in_cap, in_pos;
	bool in_eof;
	/* decompression */
	ZSTD_DCtx *zd;
	uint8_t *own_z; /* decompressed bytes not yet made into records */
	size_t own_z_len, own_z_cap;
	/* ordering */
	struct pv_queued *q;
	size_t nq, capq;
	uint8_t *own;
	size_t own_len, own_cap;
	uint64_t seq, max_time, next_flush;
	const struct perfev_perfdata_read_opts *opts;
	perfev_perfdata_cb cb;
	void *ctx;
	uint64_t offset; /* of the record being handled, for messages */
	int depth;
	/* Records before this offset were applied already (a pipe's attrs,
	 * features and names, read ahead at open; or a whole earlier pass): a
	 * later pass delivers them without adding their events again. */
	uint64_t applied_upto;
	char *feat_str[PV_FEAT_WRITTEN];
	char *name;          /* the file as given, for messages */
	char *unclean;       /* why the file was not closed cleanly, or NULL */
	/* PERF_SAMPLE_READ: each id's last value (index+1 into read_last) */
	struct perfev_idmap *read_ids;
	uint64_t *read_last;
	size_t nr_read_last, cap_read_last;
};

static uint64_t sw64(const struct perfev_perfdata *pd, uint64_t v) { return pd->swap ? bswap_64(v) : v; }

static int event_add_ids(struct pv_event *e, const uint64_t *ids, size_t nr)
{
	if (!nr)
		return 0;
	if (pv_grow(&e->ids, &e->cap_ids, e->nr_ids + nr, sizeof(uint64_t)) < 0)
		return pv_error(ENOMEM, "out of memory reading event ids");
	memcpy(e->ids + e->nr_ids, ids, nr * 8);
	e->nr_ids += nr;
	return 0;
}

static int add_event(struct perfev_perfdata *pd, const struct perfev_attr *a, const uint64_t *ids, size_t nr)
{
	if (pv_grow(&pd->ev, &pd->cap_ev, pd->nr_ev + 1, sizeof(*pd->ev)) < 0)
		return pv_error(ENOMEM, "out of memory reading the events");
	int idx = perfev_decoder_add_attr(pd->dec, a, ids, nr);
	if (idx < 0)
		return idx;
	struct pv_event *e = &pd->ev[pd->nr_ev++];
	memset(e, 0, sizeof(*e));
	e->attr = *perfev_decoder_attr(pd->dec, idx);
	e->dec_idx = idx;
	return event_add_ids(e, ids, nr);
}

static int set_name_by_id(struct perfev_perfdata *pd, uint64_t id, size_t fallback, const char *name)
{
	int idx = perfev_decoder_attr_of_id(pd->dec, id);
	size_t i = idx >= 0 ? (size_t)idx : fallback;
	if (i >= pd->nr_ev)
		return 0;
	char *n = strdup(name);
	if (!n)
		return pv_error(ENOMEM, "out of memory");
	free(pd->ev[i].name);
	pd->ev[i].name = n;
	return 0;
}

/* EVENT_DESC: names for the events (matched by their first id, else by order). */
static void apply_event_desc(struct perfev_perfdata *pd, const uint8_t *p, size_t size)
{
	struct pv_cur c = {p, p + size, pd->swap, false, NULL};
	uint32_t nr = cur_u32(&c, "nr"), asz = cur_u32(&c, "attr size");
	if (asz < 64 || asz > 4096)
		return;
	for (uint32_t i = 0; i < nr && !c.bad; i++) {
		cur_bytes(&c, asz, "attr");
		uint32_t nids = cur_u32(&c, "nr ids");
		const char *name = pv_feat_get_string(&c);
		if (!name || nids > cur_left(&c) / 8)
			return;
		uint64_t id0 = nids ? cur_u64(&c, "id") : 0;
		if (nids)
			cur_bytes(&c, (nids - 1) * 8ULL, "ids");
		set_name_by_id(pd, nids ? id0 : (uint64_t)-1, i, name);
	}
}

static int store_feature(struct perfev_perfdata *pd, uint64_t feat, const void *data, size_t size)
{
	if (feat >= PERFEV_FEAT_MAX)
		return 0;
	uint8_t *d = malloc(size + 1);
	if (!d)
		return pv_error(ENOMEM, "out of memory reading feature %s", perfev_feat_name((int)feat));
	memcpy(d, data, size);
	d[size] = 0;
	free(pd->feat[feat].data);
	pd->feat[feat].data = d;
	pd->feat[feat].size = size;
	if (feat == PERFEV_FEAT_EVENT_DESC)
		apply_event_desc(pd, d, size);
	return 0;
}

/* Notes (once) that the file was not closed cleanly, and why. */
static void set_unclean(struct perfev_perfdata *pd, const char *why)
{
	if (pd->unclean)
		return;
	size_t n = strlen(pd->name) + strlen(why) + 64;
	pd->unclean = malloc(n);
	if (pd->unclean)
		snprintf(pd->unclean, n, "%s was not closed cleanly: %s", pd->name, why);
}

PERFEV_API const char *perfev_perfdata_unclean(const struct perfev_perfdata *pd)
{
	return pd->unclean;
}

static struct perfev_perfdata *pd_new(int fd, bool own, const char *name)
{
	struct perfev_perfdata *pd = calloc(1, sizeof(*pd));
	if (!pd)
		return pv_error_null(ENOMEM, "out of memory opening a perf.data file");
	pd->fd = fd;
	pd->own_fd = own;
	pd->name = strdup(name);
	pd->dec = perfev_decoder_new();
	if (!pd->dec || !pd->name) {
		perfev_decoder_free(pd->dec);
		free(pd->name);
		free(pd);
		return pv_error_null(ENOMEM, "out of memory opening a perf.data file");
	}
	return pd;
}

static int read_file_mode(struct perfev_perfdata *pd)
{
	const uint8_t *m = pd->map;
	size_t len = pd->map_len;
	if (len < PV_FILE_HEADER_SIZE)
		return pv_error(EINVAL, "%s: the file has %zu bytes, less than the %d-byte header",
				pd->name, len, PV_FILE_HEADER_SIZE);
	struct pv_cur c = {m, m + PV_FILE_HEADER_SIZE, pd->swap, false, NULL};
	struct pv_file_header *h = &pd->hdr;
	h->magic = cur_u64(&c, "magic");
	h->size = cur_u64(&c, "size");
	h->attr_size = cur_u64(&c, "attr_size");
	h->attrs.offset = cur_u64(&c, "attrs");
	h->attrs.size = cur_u64(&c, "attrs");
	h->data.offset = cur_u64(&c, "data");
	h->data.size = cur_u64(&c, "data");
	h->event_types.offset = cur_u64(&c, "event_types");
	h->event_types.size = cur_u64(&c, "event_types");
	for (int i = 0; i < 4; i++)
		h->adds_features[i] = cur_u64(&c, "features");
	if (h->size != PV_FILE_HEADER_SIZE)
		return pv_error(EINVAL, "%s: header size %llu, expected %d (not a perf.data v2 file?)", pd->name,
				(unsigned long long)h->size, PV_FILE_HEADER_SIZE);
	if (h->attr_size < 64 + 16 || h->attr_size > 4096 + 16 || h->attr_size % 8)
		return pv_error(EINVAL, "%s: attr entries of %llu bytes make no sense", pd->name,
				(unsigned long long)h->attr_size);
	if (h->attrs.offset > len || h->attrs.size > len - h->attrs.offset)
		return pv_error(EINVAL, "%s: the attrs section [%llu, +%llu) lies beyond the %zu-byte file", pd->name,
				(unsigned long long)h->attrs.offset, (unsigned long long)h->attrs.size, len);
	if (h->data.offset > len)
		return pv_error(EINVAL, "%s: the data section starts at %llu, beyond the %zu-byte file", pd->name,
				(unsigned long long)h->data.offset, len);
	if (h->data.size == 0 && len > h->data.offset) {
		/* the writer never finalized the header (killed): as perf, read the
		 * records up to the end of the file; no feature table follows them */
		h->data.size = len - h->data.offset;
		set_unclean(pd, "its header's data size is 0 (was the recording killed?): reading the "
			    "records up to the end of the file");
	} else if (h->data.size > len - h->data.offset) {
		h->data.size = len - h->data.offset; /* truncated file: read what is there */
		set_unclean(pd, "it is shorter than its header says (truncated?): reading the records "
			    "that are there");
	}
	uint64_t nr = h->attrs.size / h->attr_size;
	for (uint64_t i = 0; i < nr; i++) {
		const uint8_t *fa = m + h->attrs.offset + i * h->attr_size;
		uint32_t asz = (uint32_t)(h->attr_size - 16);
		struct perfev_attr a;
		pv_attr_from_bytes(&a, fa, asz, pd->swap);
		uint64_t ioff, isz;
		memcpy(&ioff, fa + asz, 8);
		memcpy(&isz, fa + asz + 8, 8);
		ioff = sw64(pd, ioff);
		isz = sw64(pd, isz);
		if (ioff > len || isz > len - ioff)
			return pv_error(EINVAL, "%s: the ids of event %llu lie beyond the file", pd->name,
					(unsigned long long)i);
		size_t nids = (size_t)(isz / 8);
		uint64_t *ids = malloc(nids * 8 + 8);
		if (!ids)
			return pv_error(ENOMEM, "out of memory reading %zu ids", nids);
		for (size_t k = 0; k < nids; k++) {
			memcpy(&ids[k], m + ioff + k * 8, 8);
			ids[k] = sw64(pd, ids[k]);
		}
		int err = add_event(pd, &a, ids, nids);
		free(ids);
		if (err < 0)
			return err;
	}
	/* feature sections follow the data */
	uint64_t foff = h->data.offset + h->data.size;
	int nfeat = 0;
	for (int f = 0; f < PERFEV_FEAT_MAX; f++)
		if (h->adds_features[f / 64] >> (f % 64) & 1)
			nfeat++;
	if (pd->unclean || foff > len || (uint64_t)nfeat * 16 > len - foff)
		return 0; /* no feature table (perf record killed): the data is still good */
	int k = 0;
	for (int f = 0; f < PERFEV_FEAT_MAX; f++) {
		if (!(h->adds_features[f / 64] >> (f % 64) & 1))
			continue;
		uint64_t so, ss;
		memcpy(&so, m + foff + k * 16, 8);
		memcpy(&ss, m + foff + k * 16 + 8, 8);
		k++;
		so = sw64(pd, so);
		ss = sw64(pd, ss);
		if (so > len || ss > len - so)
			continue; /* a broken section: perf skips it too */
		int err = store_feature(pd, (uint64_t)f, m + so, (size_t)ss);
		if (err < 0)
			return err;
	}
	return 0;
}

static int pipe_fill(struct perfev_perfdata *pd, size_t need)
{
	while (pd->in_len - pd->in_pos < need && !pd->in_eof) {
		if (pd->in_pos && pd->in_pos == pd->in_len) {
			pd->in_len = pd->in_pos = 0;
		} else if (pd->in_pos > (1 << 20)) {
			memmove(pd->in, pd->in + pd->in_pos, pd->in_len - pd->in_pos);
			pd->in_len -= pd->in_pos;
			pd->in_pos = 0;
		}
		if (pd->in_cap - pd->in_len < 65536 + need) {
			size_t ncap = pd->in_cap ? pd->in_cap : 1 << 20;
			while (ncap - pd->in_len < 65536 + need)
				ncap *= 2;
			uint8_t *n = realloc(pd->in, ncap);
			if (!n)
				return pv_error(ENOMEM, "out of memory reading the pipe");
			pd->in = n;
			pd->in_cap = ncap;
		}
		ssize_t k = read(pd->fd, pd->in + pd->in_len, pd->in_cap - pd->in_len);
		if (k < 0) {
			if (errno == EINTR)
				continue;
			return pv_error(errno, "cannot read %s: %s", pd->name, strerror(errno));
		}
		if (k == 0)
			pd->in_eof = true;
		pd->in_len += (size_t)k;
	}
	return 0;
}

static uint64_t payload_after(struct perfev_perfdata *pd, const uint8_t *b, uint16_t len);
static bool cut_short(struct perfev_perfdata *pd, uint64_t end, uint64_t off);

/* A pipe-mode stream saved to a file has no data size: whether it ends
 * inside a record (its writer killed) is known by hopping over the record
 * sizes, so that perfev_perfdata_unclean() tells at open. Bad sizes are
 * left for process() to report. */
static void find_cut(struct perfev_perfdata *pd)
{
	uint64_t off = 16, end = pd->map_len;
	while (end - off >= 8) {
		uint16_t sz;
		memcpy(&sz, pd->map + off + 6, 2);
		if (pd->swap)
			sz = bswap_16(sz);
		if (sz < 8)
			return;
		uint64_t extra = sz <= end - off ? payload_after(pd, pd->map + off, sz) : 0;
		if (sz > end - off || extra > end - off - sz)
			break;
		off += sz + extra;
	}
	if (off < end)
		cut_short(pd, end, off);
}

static int process_bytes(struct perfev_perfdata *pd, const uint8_t *b, size_t len, bool stable, uint64_t base);
static int keep_tracing_data(struct perfev_perfdata *pd, const uint8_t *b, uint16_t sz, uint64_t extra,
			     uint64_t avail);
#define TRACING_DATA_MAX (256u << 20)

static int ignore_record(void *ctx, const struct perfev_record *rec) { return 0; }

/* Whether the read-ahead of a pipe-mode stream applies a record of this
 * type: what perf writes before the first kernel record (attrs, names,
 * features, tracing formats), none with a large payload or records inside. */
static bool header_record(uint32_t type)
{
	return type >= PERFEV_RECORD_HEADER_ATTR && type != PERFEV_RECORD_AUXTRACE &&
	       type != PERFEV_RECORD_COMPRESSED && type != PERFEV_RECORD_COMPRESSED2;
}

/* A pipe-mode stream announces its events as records: read those that
 * come before its first kernel record now, so that its events, names and
 * features are known at open as a file's are, and one open handle answers
 * every question before its records are processed. The records stay
 * buffered (a stream) or mapped (a saved stream) for process(), which
 * delivers them without applying them twice (applied_upto). */
static int read_ahead(struct perfev_perfdata *pd)
{
	uint64_t start = pd->map ? 16 : pd->in_pos, off = 0;
	const struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro), .unordered = true};
	pd->opts = &ro;
	pd->cb = ignore_record;
	int ret = 0;
	for (;;) {
		if (!pd->map && (ret = pipe_fill(pd, off + 8)) < 0)
			break;
		const uint8_t *base = pd->map ? pd->map + start : pd->in + pd->in_pos;
		uint64_t avail = pd->map ? pd->map_len - start : pd->in_len - pd->in_pos;
		if (avail - off < 8)
			break;
		uint32_t type;
		uint16_t sz;
		memcpy(&type, base + off, 4);
		memcpy(&sz, base + off + 6, 2);
		if (pd->swap)
			type = bswap_32(type), sz = bswap_16(sz);
		if (!header_record(type) || sz < 8)
			break;
		uint64_t extra = 0;
		if (!pd->map && (ret = pipe_fill(pd, off + sz)) < 0)
			break;
		base = pd->map ? base : pd->in + pd->in_pos;
		avail = pd->map ? avail : pd->in_len - pd->in_pos;
		if (avail - off < sz || (extra = payload_after(pd, base + off, sz)) > TRACING_DATA_MAX)
			break;
		if (!pd->map && extra && (ret = pipe_fill(pd, off + sz + extra)) < 0)
			break;
		base = pd->map ? base : pd->in + pd->in_pos;
		avail = pd->map ? avail : pd->in_len - pd->in_pos;
		if (avail - off - sz < extra)
			break;
		pd->offset = start + off;
		ret = keep_tracing_data(pd, base + off, sz, extra, avail - off);
		if (!ret)
			ret = process_bytes(pd, base + off, sz, pd->map != NULL, pd->offset);
		if (ret)
			break;
		off += sz + extra;
	}
	pd->applied_upto = start + off;
	pd->opts = NULL;
	pd->cb = NULL;
	return ret < 0 ? ret : 0;
}

static int open_common(struct perfev_perfdata *pd, const char *what)
{
	struct stat st;
	uint64_t magic = 0;
	bool known = fstat(pd->fd, &st) == 0, regular = known && S_ISREG(st.st_mode);
	if (known && S_ISDIR(st.st_mode))
		return pv_error(EISDIR, "%s is a directory, not a perf.data file: give the file inside it "
				"(e.g. -i %s/perf.data)", what, what);
	if (regular && st.st_size == 0)
		return pv_error(EINVAL, "%s is empty (0 bytes), not a perf.data file: the recording wrote "
				"nothing (record again)", what);
	if (regular && st.st_size >= 16) {
		pd->map_len = (size_t)st.st_size;
		pd->map = mmap(NULL, pd->map_len, PROT_READ, MAP_PRIVATE, pd->fd, 0);
		if (pd->map == MAP_FAILED) {
			pd->map = NULL;
			return pv_error(errno, "cannot map %s: %s", what, strerror(errno));
		}
		memcpy(&magic, pd->map, 8);
	} else if (regular) {
		return pv_error(EINVAL, "%s is not a perf.data file: %lld bytes is too short for a header", what,
				(long long)st.st_size);
	} else {
		int err = pipe_fill(pd, 16);
		if (err < 0)
			return err;
		if (pd->in_len < 16)
			return pv_error(EINVAL, "%s: the stream ended before its 16-byte header", what);
		memcpy(&magic, pd->in, 8);
	}
	if (magic == PV_PERF_MAGIC2_SWAPPED)
		pd->swap = true;
	else if (magic != PV_PERF_MAGIC2) {
		if (!memcmp(&magic, "PERFFILE", 8))
			return pv_error(EINVAL, "%s is a version 1 perf.data file (PERFFILE); only version 2 (PERFILE2) "
					"is read: record it again with a newer perf", what);
		return pv_error(EINVAL, "%s is not a perf.data file (it does not start with perf's PERFILE2 "
				"magic): give a file written by perf record or perfev record", what);
	}
	perfev_decoder_set_swap(pd->dec, pd->swap);
	uint64_t hsize;
	memcpy(&hsize, pd->map ? pd->map + 8 : pd->in + 8, 8);
	hsize = sw64(pd, hsize);
	if (hsize == PV_PIPE_HEADER_SIZE) {
		pd->pipe = true;
		if (pd->map) { /* a pipe-mode stream saved to a file */
			pd->in = NULL;
			find_cut(pd);
		} else {
			pd->in_pos = 16;
		}
		return read_ahead(pd);
	}
	if (!pd->map)
		return pv_error(EINVAL, "%s: a file-mode perf.data cannot be read from a pipe; give it as a file", what);
	return read_file_mode(pd);
}

/* A handle on fd (closed with it when own, also on failure) named name in
 * messages, its header and events read; NULL with errno on failure. */
static struct perfev_perfdata *open_on(int fd, bool own, const char *name)
{
	struct perfev_perfdata *pd = pd_new(fd, own, name);
	if (!pd) {
		int e = errno;
		if (own)
			close(fd);
		errno = e;
		return NULL;
	}
	if (open_common(pd, name) < 0) {
		pv_close_keep_errno(pd);
		return NULL;
	}
	return pd;
}

PERFEV_API struct perfev_perfdata *perfev_perfdata_open_fd(int fd)
{
	return open_on(fd, false, "the input");
}

PERFEV_API struct perfev_perfdata *perfev_perfdata_open(const char *path)
{
	if (!strcmp(path, "-")) {
		if (isatty(STDIN_FILENO))
			return pv_error_null(ENOTTY, "standard input is a terminal, not a recording: pipe one in "
					     "(perfev record -o - ... | perfev script -i -) or give a file");
		return open_on(STDIN_FILENO, false, "standard input");
	}
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pv_error_null(errno, "cannot open %s: %s%s", path, strerror(errno),
				     errno == ENOENT ? " (record one first with perfev record, or name an "
						       "existing file)" : "");
	return open_on(fd, true, path);
}

void pv_close_keep_errno(struct perfev_perfdata *pd)
{
	int e = errno;
	perfev_perfdata_close(pd);
	errno = e;
}

PERFEV_API void perfev_perfdata_close(struct perfev_perfdata *pd)
{
	if (!pd)
		return;
	if (pd->map)
		munmap(pd->map, pd->map_len);
	if (pd->own_fd)
		close(pd->fd);
	for (size_t i = 0; i < pd->nr_ev; i++) {
		free(pd->ev[i].name);
		free(pd->ev[i].ids);
	}
	free(pd->ev);
	for (int f = 0; f < PERFEV_FEAT_MAX; f++)
		free(pd->feat[f].data);
	for (int f = 0; f < PV_FEAT_WRITTEN; f++)
		free(pd->feat_str[f]);
	perfev_decoder_free(pd->dec);
	free(pd->name);
	free(pd->unclean);
	free(pd->in);
	free(pd->q);
	free(pd->own);
	free(pd->own_z);
	perfev_idmap_free(pd->read_ids);
	free(pd->read_last);
	if (pd->zd)
		ZSTD_freeDCtx(pd->zd);
	free(pd);
}

PERFEV_API bool perfev_perfdata_is_pipe(const struct perfev_perfdata *pd) { return pd->pipe; }
PERFEV_API const char *perfev_perfdata_path(const struct perfev_perfdata *pd) { return pd->name; }
PERFEV_API bool perfev_perfdata_is_swapped(const struct perfev_perfdata *pd) { return pd->swap; }
PERFEV_API size_t perfev_perfdata_nr_events(const struct perfev_perfdata *pd) { return pd->nr_ev; }
PERFEV_API struct perfev_decoder *perfev_perfdata_decoder(struct perfev_perfdata *pd) { return pd->dec; }

PERFEV_API const struct perfev_attr *perfev_perfdata_event_attr(const struct perfev_perfdata *pd, size_t i)
{
	if (i >= pd->nr_ev)
		return pv_error_null(ERANGE, "no event number %zu (the file has %zu)", i, pd->nr_ev);
	return &pd->ev[i].attr;
}

PERFEV_API const char *perfev_perfdata_event_name(const struct perfev_perfdata *pd, size_t i)
{
	if (i >= pd->nr_ev)
		return pv_error_null(ERANGE, "no event number %zu (the file has %zu)", i, pd->nr_ev);
	if (!pd->ev[i].name) {
		char buf[256];
		perfev_attr_name(&pd->ev[i].attr, buf, sizeof(buf));
		((struct perfev_perfdata *)pd)->ev[i].name = strdup(buf);
	}
	return pd->ev[i].name ? pd->ev[i].name : "unknown";
}

PERFEV_API const uint64_t *perfev_perfdata_event_ids(const struct perfev_perfdata *pd, size_t i, size_t *nr)
{
	if (i >= pd->nr_ev)
		return pv_error_null(ERANGE, "no event number %zu (the file has %zu)", i, pd->nr_ev);
	*nr = pd->ev[i].nr_ids;
	return pd->ev[i].ids;
}

PERFEV_API bool perfev_perfdata_has_feature(const struct perfev_perfdata *pd, int feat)
{
	return feat >= 0 && feat < PERFEV_FEAT_MAX && pd->feat[feat].data;
}

int pv_perfdata_fd(const struct perfev_perfdata *pd) { return pd->fd; }

void pv_perfdata_progress(const struct perfev_perfdata *pd, uint64_t *done, uint64_t *total)
{
	bool file = !pd->pipe && pd->hdr.data.size;
	*total = file ? pd->hdr.data.size : 0;
	*done = file ? PV_MIN(pd->offset > pd->hdr.data.offset ? pd->offset - pd->hdr.data.offset : 0, *total)
		     : pd->offset;
}

PERFEV_API const void *perfev_perfdata_feature(const struct perfev_perfdata *pd, int feat, size_t *size)
{
	if (!perfev_perfdata_has_feature(pd, feat))
		return pv_error_null(ENOENT, "the file has no %s feature", perfev_feat_name(feat));
	if (size)
		*size = pd->feat[feat].size;
	return pd->feat[feat].data;
}

PERFEV_API const char *perfev_perfdata_feature_str(const struct perfev_perfdata *pd, int feat)
{
	size_t size;
	const uint8_t *p = perfev_perfdata_feature(pd, feat, &size);
	if (!p || feat >= PV_FEAT_WRITTEN)
		return NULL;
	struct pv_cur c = {p, p + size, pd->swap, false, NULL};
	const char *s = pv_feat_get_string(&c);
	return s;
}

PERFEV_API const char *perfev_perfdata_feature_list(const struct perfev_perfdata *pd, int feat, size_t idx)
{
	size_t size;
	const uint8_t *p = perfev_perfdata_has_feature(pd, feat) ? perfev_perfdata_feature(pd, feat, &size) : NULL;
	if (!p)
		return NULL;
	struct pv_cur c = {p, p + size, pd->swap, false, NULL};
	int lists = feat == PERFEV_FEAT_CPU_TOPOLOGY ? 2 : 1;
	for (int l = 0; l < lists; l++) {
		uint32_t nr = cur_u32(&c, "nr");
		for (uint32_t i = 0; i < nr && !c.bad; i++) {
			const char *str;
			if (feat == PERFEV_FEAT_PMU_MAPPINGS) {
				cur_u32(&c, "pmu type");
			}
			str = pv_feat_get_string(&c);
			if (!str)
				return NULL;
			if (idx-- == 0)
				return str;
		}
	}
	return NULL;
}

PERFEV_API void perfev_perfdata_info(const struct perfev_perfdata *pd, struct perfev_perfdata_info *o)
{
	memset(o, 0, sizeof(*o));
	size_t n;
	const uint8_t *p;
	struct pv_cur c;
#define CUR(F) (p = perfev_perfdata_has_feature(pd, F) ? perfev_perfdata_feature(pd, F, &n) : NULL, \
		c = (struct pv_cur){p, p ? p + n : NULL, pd->swap, false, NULL}, p != NULL)
	if (CUR(PERFEV_FEAT_NRCPUS)) {
		o->nr_cpus_avail = cur_u32(&c, "");
		o->nr_cpus_online = cur_u32(&c, "");
	}
	if (CUR(PERFEV_FEAT_TOTAL_MEM)) o->total_mem_kb = cur_u64(&c, "");
	if (CUR(PERFEV_FEAT_CLOCKID)) o->clockid_res_ns = cur_u64(&c, "");
	if (CUR(PERFEV_FEAT_CLOCK_DATA)) {
		cur_u32(&c, "");
		o->clockid = cur_u32(&c, "");
		o->clock_tod_ns = cur_u64(&c, "");
		o->clock_clockid_ns = cur_u64(&c, "");
	}
	if (CUR(PERFEV_FEAT_COMPRESSED)) {
		cur_u32(&c, "");
		o->comp_type = cur_u32(&c, "");
		o->comp_level = cur_u32(&c, "");
		o->comp_ratio = cur_u32(&c, "");
		o->comp_mmap_len = cur_u32(&c, "");
	}
#undef CUR
	o->data_offset = pd->hdr.data.offset;
	o->data_size = pd->hdr.data.size;
}

PERFEV_API void perfev_perfdata_stats(const struct perfev_perfdata *pd, struct perfev_perfdata_stats *out)
{
	*out = pd->stats;
}

PERFEV_API int perfev_perfdata_event_stats(const struct perfev_perfdata *pd, size_t i,
					   struct perfev_perfdata_event_stats *out)
{
	if (i >= pd->nr_ev)
		return pv_error(ERANGE, "no event number %zu (the file has %zu)", i, pd->nr_ev);
	*out = pd->ev[i].counts;
	return 0;
}

/* ---- delivery ------------------------------------------------------------- */

/* A PERF_SAMPLE_READ value of id moved since its last sample (perf's
 * deliver_sample_value: a sample of a member whose count stood still is not
 * delivered). Ids are the decoder's, so the table stays as small as they. */
static bool read_value_moved(struct perfev_perfdata *pd, uint64_t id, uint64_t value)
{
	if (!pd->read_ids && !(pd->read_ids = perfev_idmap_new()))
		return value != 0;
	uintptr_t slot = (uintptr_t)perfev_idmap_find(pd->read_ids, id);
	if (!slot) {
		if (pv_grow(&pd->read_last, &pd->cap_read_last, pd->nr_read_last + 1, sizeof(uint64_t)) < 0 ||
		    perfev_idmap_add(pd->read_ids, id, (void *)(uintptr_t)(pd->nr_read_last + 1)) < 0)
			return value != 0;
		pd->read_last[pd->nr_read_last++] = 0;
		slot = pd->nr_read_last;
	}
	uint64_t last = pd->read_last[slot - 1];
	pd->read_last[slot - 1] = value;
	return value != last;
}

/* perf report --stats's per-event counts (builtin-report.c's
 * count_sample_event, count_lost_samples_event): the decoder's attr is
 * perf's evsel for the record (evlist__event2evsel). */
static void count_for_event(struct perfev_perfdata *pd, const struct perfev_record *r)
{
	if (r->attr_idx < 0 || (size_t)r->attr_idx >= pd->nr_ev)
		return;
	struct pv_event *e = &pd->ev[r->attr_idx];
	if (r->type == PERF_RECORD_LOST_SAMPLES) {
		e->counts.nr_lost_samples += (uint32_t)r->u.lost_samples.lost; /* perf adds a u32 */
		return;
	}
	if (r->type != PERF_RECORD_SAMPLE)
		return;
	if (!(e->attr.sample_type & PERF_SAMPLE_READ)) {
		e->counts.nr_samples++;
		return;
	}
	/* one sample per member (the group's, or its own value) whose id is known */
	const struct perfev_read_data *rd = &r->u.sample.read;
	for (uint64_t k = 0; k < rd->nr && rd->values; k++) {
		int idx = perfev_decoder_attr_of_id(pd->dec, rd->values[k].id);
		if (idx >= 0 && (size_t)idx < pd->nr_ev && read_value_moved(pd, rd->values[k].id, rd->values[k].value))
			pd->ev[idx].counts.nr_samples++;
	}
}

static int deliver(struct perfev_perfdata *pd, const uint8_t *b, size_t len)
{
	struct perfev_record r;
	int n = perfev_decoder_decode(pd->dec, b, len, &r);
	if (n == -ENOENT) {
		pd->stats.nr_unknown_id++;
		return 0;
	}
	if (n < 0) {
		pd->stats.nr_bad++;
		if (pd->opts && pd->opts->keep_going)
			return 0;
		return pv_error(EINVAL, "%s: at offset %llu: %s", pd->name, (unsigned long long)pd->offset,
				perfev_errmsg());
	}
	if (r.type == PERF_RECORD_LOST)
		pd->stats.nr_lost_events += r.u.lost.lost;
	if (r.type == PERF_RECORD_LOST_SAMPLES)
		pd->stats.nr_lost_samples += r.u.lost_samples.lost;
	count_for_event(pd, &r);
	return pd->cb(pd->ctx, &r);
}

static int cmp_queued(const void *a, const void *b)
{
	const struct pv_queued *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static inline bool queued_before(const struct pv_queued *x, const struct pv_queued *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/*
 * Sorts the queue by (time, seq). A round holds each CPU's buffer in time
 * order, one after another: a natural merge sort (merging the sorted runs
 * it finds) costs O(n log runs) there instead of qsort's O(n log n); the
 * order is total, so the result is qsort's.
 */
static void sort_queue(struct pv_queued *q, size_t n)
{
	size_t i = 1;
	while (i < n && !queued_before(&q[i], &q[i - 1]))
		i++;
	if (i >= n)
		return;
	struct pv_queued *tmp = malloc(n * sizeof(*q));
	if (!tmp) {
		qsort(q, n, sizeof(*q), cmp_queued);
		return;
	}
	struct pv_queued *src = q, *dst = tmp;
	for (;;) {
		size_t runs = 0;
		for (size_t a = 0; a < n;) {
			size_t b = a + 1;
			while (b < n && !queued_before(&src[b], &src[b - 1]))
				b++;
			size_t c = b < n ? b + 1 : b;
			while (c < n && !queued_before(&src[c], &src[c - 1]))
				c++;
			size_t x = a, y = b, k = a;
			while (x < b && y < c)
				dst[k++] = queued_before(&src[y], &src[x]) ? src[y++] : src[x++];
			while (x < b)
				dst[k++] = src[x++];
			while (y < c)
				dst[k++] = src[y++];
			runs++;
			a = c;
		}
		struct pv_queued *t = src;
		src = dst;
		dst = t;
		if (runs == 1)
			break;
	}
	if (src != q)
		memcpy(q, src, n * sizeof(*q));
	free(tmp);
}

/* Delivers queued records with time <= limit, in time order. */
static int flush_queue(struct perfev_perfdata *pd, uint64_t limit)
{
	if (!pd->nq)
		return 0;
	sort_queue(pd->q, pd->nq);
	size_t i = 0;
	int ret = 0;
	for (; i < pd->nq && pd->q[i].time <= limit; i++) {
		const uint8_t *b = pd->q[i].ptr ? pd->q[i].ptr : pd->own + pd->q[i].off;
		if (i + 1 < pd->nq) {
			const struct pv_queued *n = &pd->q[i + 1];
			const uint8_t *nb = n->ptr ? n->ptr : pd->own + n->off;
			for (uint32_t k = 0; k < n->len && k < 512; k += 64)
				__builtin_prefetch(nb + k);
			if (n->len > 512) /* a user stack's dyn_size and what follows it */
				__builtin_prefetch(nb + n->len - 8);
		}
		ret = deliver(pd, b, pd->q[i].len);
		if (ret) {
			i++;
			break;
		}
	}
	/* keep the rest; the bytes we own move to a fresh buffer */
	size_t k = 0, olen = 0;
	for (size_t j = i; j < pd->nq; j++)
		if (!pd->q[j].ptr)
			olen += pd->q[j].len;
	uint8_t *nown = olen ? malloc(olen) : NULL;
	if (olen && !nown)
		return pv_error(ENOMEM, "out of memory ordering records");
	olen = 0;
	for (size_t j = i; j < pd->nq; j++) {
		struct pv_queued e = pd->q[j];
		if (!e.ptr) {
			memcpy(nown + olen, pd->own + e.off, e.len);
			e.off = olen;
			olen += e.len;
		}
		pd->q[k++] = e;
	}
	free(pd->own);
	pd->own = nown;
	pd->own_len = pd->own_cap = olen;
	pd->nq = k;
	return ret;
}

static int queue_record(struct perfev_perfdata *pd, const uint8_t *b, size_t len, uint64_t time, bool stable)
{
	if (pv_grow(&pd->q, &pd->capq, pd->nq + 1, sizeof(*pd->q)) < 0)
		return pv_error(ENOMEM, "out of memory queueing records for time ordering");
	struct pv_queued *e = &pd->q[pd->nq++];
	e->time = time;
	e->seq = pd->seq++;
	e->len = (uint32_t)len;
	if (stable) {
		e->ptr = b;
	} else {
		e->ptr = NULL;
		if (pv_grow(&pd->own, &pd->own_cap, pd->own_len + len, 1) < 0)
			return pv_error(ENOMEM, "out of memory queueing records for time ordering");
		memcpy(pd->own + pd->own_len, b, len);
		e->off = pd->own_len;
		pd->own_len += len;
	}
	if (time > pd->max_time)
		pd->max_time = time;
	if (pd->own_len > (256u << 20) || pd->nq > (16u << 20)) {
		/* too much waiting for a round: deliver the older half, as perf does */
		sort_queue(pd->q, pd->nq);
		uint64_t mid = pd->q[pd->nq / 2].time;
		pd->stats.nr_unordered++;
		return flush_queue(pd, mid);
	}
	return 0;
}

static int process_bytes(struct perfev_perfdata *pd, const uint8_t *b, size_t len, bool stable, uint64_t base);

/* Whole records out of the decompressed bytes; a partial one stays for later. */
static int take_records(struct perfev_perfdata *pd)
{
	size_t pos = 0;
	int ret = 0;
	pd->depth++;
	while (pd->own_z_len - pos >= 8) {
		uint16_t sz;
		memcpy(&sz, pd->own_z + pos + 6, 2);
		if (pd->swap)
			sz = bswap_16(sz);
		if (sz < 8) {
			ret = pv_error(EINVAL, "%s: at offset %llu: bad record size %u in compressed data", pd->name,
				       (unsigned long long)pd->offset, sz);
			break;
		}
		if (pd->own_z_len - pos < sz)
			break;
		ret = process_bytes(pd, pd->own_z + pos, sz, false, pd->offset);
		pos += sz;
		if (ret)
			break;
	}
	pd->depth--;
	memmove(pd->own_z, pd->own_z + pos, pd->own_z_len - pos);
	pd->own_z_len -= pos;
	return ret;
}

static int decompress(struct perfev_perfdata *pd, const struct perfev_record *r)
{
	if (!pd->zd && !(pd->zd = ZSTD_createDCtx()))
		return pv_error(ENOMEM, "out of memory for zstd");
	if (pd->depth > 0)
		return pv_error(EINVAL, "%s: a COMPRESSED record inside a COMPRESSED record", pd->name);
	/* one zstd stream across the records; decompressed records may straddle
	 * them. Records are taken out after every 1 MiB, so a record that
	 * decompresses into a lot of data never needs much memory. */
	ZSTD_inBuffer in = {r->u.compressed.data, r->u.compressed.data_size, 0};
	for (;;) {
		if (pv_grow(&pd->own_z, &pd->own_z_cap, pd->own_z_len + (1 << 20), 1) < 0)
			return pv_error(ENOMEM, "out of memory decompressing");
		ZSTD_outBuffer out = {pd->own_z + pd->own_z_len, 1 << 20, 0};
		size_t z = ZSTD_decompressStream(pd->zd, &out, &in);
		if (ZSTD_isError(z))
			return pv_error(EINVAL, "%s: at offset %llu: zstd cannot decompress: %s", pd->name,
					(unsigned long long)pd->offset, ZSTD_getErrorName(z));
		pd->own_z_len += out.pos;
		int ret = take_records(pd);
		if (ret)
			return ret;
		/* done when the input is used up and zstd has nothing more to give */
		if (in.pos >= in.size && out.pos < out.size)
			return 0;
		if (!out.pos && in.pos >= in.size)
			return 0;
	}
}

/* One record from the stream (or from decompressed data). */
static int process_bytes(struct perfev_perfdata *pd, const uint8_t *b, size_t len, bool stable, uint64_t base)
{
	uint32_t type;
	memcpy(&type, b, 4);
	if (pd->swap)
		type = bswap_32(type);
	if (type < 128)
		pd->stats.nr_records[type]++;
	if (type < PERFEV_RECORD_HEADER_ATTR) {
		uint64_t t;
		bool ordered = !(pd->opts && pd->opts->unordered);
		if (ordered && perfev_decoder_record_time(pd->dec, b, len, &t) == 0 && t && t != (uint64_t)-1) {
			if (t < pd->next_flush)
				pd->stats.nr_unordered++;
			return queue_record(pd, b, len, t, stable);
		}
		return deliver(pd, b, len);
	}
	struct perfev_record r;
	int n = perfev_decoder_decode(pd->dec, b, len, &r);
	bool again = !pd->depth && pd->offset < pd->applied_upto;
	if (n < 0) {
		pd->stats.nr_bad++;
		if (pd->opts && pd->opts->keep_going)
			return 0;
		return pv_error(EINVAL, "%s: at offset %llu: %s", pd->name, (unsigned long long)pd->offset,
				perfev_errmsg());
	}
	int err = 0;
	switch (type) {
	case PERFEV_RECORD_HEADER_ATTR:
		if (again)
			break;
		err = add_event(pd, r.u.header_attr.attr, r.u.header_attr.ids, r.u.header_attr.nr_ids);
		if (!err)
			err = perfev_decoder_decode(pd->dec, b, len, &r) < 0 ? -EINVAL : 0;
		break;
	case PERFEV_RECORD_FINISHED_ROUND:
		if (!(pd->opts && pd->opts->unordered)) {
			err = flush_queue(pd, pd->next_flush);
			pd->next_flush = pd->max_time;
			if (!err)
				err = perfev_decoder_decode(pd->dec, b, len, &r) < 0 ? -EINVAL : 0;
		}
		break;
	case PERFEV_RECORD_COMPRESSED:
	case PERFEV_RECORD_COMPRESSED2:
		return decompress(pd, &r);
	case PERFEV_RECORD_HEADER_FEATURE:
		if (!again)
			err = store_feature(pd, r.u.feature.feat_id, r.u.feature.data, r.u.feature.size);
		break;
	case PERFEV_RECORD_EVENT_UPDATE:
		if (!again && r.u.event_update.type == 2 && r.u.event_update.str) {
			char *name = strdup(r.u.event_update.str);
			if (name) {
				err = set_name_by_id(pd, r.u.event_update.id, (size_t)-1, name);
				free(name);
			}
			perfev_decoder_decode(pd->dec, b, len, &r);
		}
		break;
	case PERFEV_RECORD_ID_INDEX:
		/* ID_INDEX tells each id's cpu and thread (idx is the fd's slot, not
		 * the event): the ids already came with HEADER_ATTR */
		break;
	default:
		break;
	}
	(void)base;
	if (err)
		return err;
	return pd->cb(pd->ctx, &r);
}

/* The payload that follows AUXTRACE and (pipe mode) TRACING_DATA records. */
static uint64_t payload_after(struct perfev_perfdata *pd, const uint8_t *b, uint16_t len)
{
	uint32_t type;
	if (len < 16)
		return 0; /* too short to say its payload's size: the decoder refuses it */
	memcpy(&type, b, 4);
	if (pd->swap)
		type = bswap_32(type);
	if (type == PERFEV_RECORD_AUXTRACE) {
		uint64_t sz;
		memcpy(&sz, b + 8, 8);
		return sw64(pd, sz);
	}
	if (type == PERFEV_RECORD_HEADER_TRACING_DATA) {
		uint32_t sz;
		memcpy(&sz, b + 8, 4);
		return pd->swap ? bswap_32(sz) : sz;
	}
	return 0;
}

/* A TRACING_DATA record's payload is kept as the TRACING_DATA feature (pipe
 * mode carries the formats that way), before the record is delivered. */
static bool is_tracing_data(struct perfev_perfdata *pd, const uint8_t *b, uint64_t extra)
{
	uint32_t type;
	memcpy(&type, b, 4);
	if (pd->swap)
		type = bswap_32(type);
	return type == PERFEV_RECORD_HEADER_TRACING_DATA && extra && extra <= TRACING_DATA_MAX;
}

static int keep_tracing_data(struct perfev_perfdata *pd, const uint8_t *b, uint16_t sz, uint64_t extra,
			     uint64_t avail)
{
	if (!is_tracing_data(pd, b, extra) || avail < sz + extra || pd->offset < pd->applied_upto)
		return 0;
	return store_feature(pd, PERFEV_FEAT_TRACING_DATA, b + sz, (size_t)extra);
}

static int bad_size(struct perfev_perfdata *pd, uint64_t off, uint16_t sz, uint64_t left)
{
	if (sz < 8)
		return pv_error(EINVAL, "%s: bad record header size %u at offset %llu (a record has at least "
				"8 bytes): the file is corrupt", pd->name, sz, (unsigned long long)off);
	return pv_error(EINVAL, "%s: record at offset %llu claims %u bytes but %llu remain: the file is "
			"truncated", pd->name, (unsigned long long)off, sz, (unsigned long long)left);
}

/* Pages of the map this far behind the reading point are given back
 * (MADV_DONTNEED on a private read-only file map: a later access, e.g. a
 * record still queued for time ordering, just reads the file again), so a
 * report's peak memory does not grow with the file. 1 MB (at most 2 MB
 * resident): 2 MB and 512 KB take the same page faults on the bench's
 * recordings (a re-read queued record would cost one more), and every MB
 * kept is a MB of a report's peak; 16 MB cost a 10 MB file its whole size.
 * The pager (files of 32 MB and more) gives back in 4 MB steps: each
 * MADV_DONTNEED there is a TLB shootdown on the reader's CPU too. */
#define PV_MAP_KEEP (1ull << 20)
#define PV_PAGER_KEEP (4ull << 20)

/* A record cut short at the end of a file that was not closed cleanly (its
 * data size 0, shorter than its header says, or a pipe-mode stream saved
 * to a file): the writer died there; what came before is good. */
static bool cut_short(struct perfev_perfdata *pd, uint64_t end, uint64_t off)
{
	if (end != pd->map_len || !(pd->unclean || pd->pipe))
		return false;
	char why[160];
	snprintf(why, sizeof(why), "it ends inside the record at offset %llu (was the recording "
		 "killed?): reading the records before it", (unsigned long long)off);
	set_unclean(pd, why);
	return true;
}

static int walk_mapped(struct perfev_perfdata *pd, uint64_t start, uint64_t end, struct pv_pager *pager)
{
	uint64_t off = start, released = 0;
	long page = sysconf(_SC_PAGESIZE);
	while (end - off >= 8) {
		if (pager)
			pv_pager_at(pager, off);
		else if (off - released > 2 * PV_MAP_KEEP && page > 0) {
			uint64_t upto = (off - PV_MAP_KEEP) & ~((uint64_t)page - 1);
			madvise((void *)(pd->map + released), upto - released, MADV_DONTNEED);
			released = upto;
		}
		const uint8_t *b = pd->map + off;
		uint16_t sz;
		memcpy(&sz, b + 6, 2);
		if (pd->swap)
			sz = bswap_16(sz);
		if (sz < 8 || sz > end - off) {
			if (sz >= 8 && cut_short(pd, end, off))
				return 0; /* a size below 8 is corruption, not a cut */
			return bad_size(pd, off, sz, end - off);
		}
		pd->offset = off;
		uint64_t extra = payload_after(pd, b, sz);
		int ret = extra ? keep_tracing_data(pd, b, sz, extra, end - off) : 0; /* (payloads are rare) */
		if (!ret)
			ret = process_bytes(pd, b, sz, true, off);
		if (ret)
			return ret;
		if (extra > end - off - sz && cut_short(pd, end, off))
			return 0;
		if (extra > end - off - sz)
			return pv_error(EINVAL, "%s: the payload of the record at offset %llu runs past the end", pd->name,
					(unsigned long long)off);
		off += sz + extra;
	}
	if (off < end)
		cut_short(pd, end, off);
	return 0;
}

static int run_mapped(struct perfev_perfdata *pd, uint64_t start, uint64_t end)
{
	struct pv_pager *pager = pv_pager_start(pd->map, end, start, PV_PAGER_KEEP);
	int ret = walk_mapped(pd, start, end, pager);
	pv_pager_stop(pager);
	return ret;
}

/* A stream that ends inside a record: its writer was killed there. */
static int stream_cut(struct perfev_perfdata *pd)
{
	char why[160];
	snprintf(why, sizeof(why), "the stream ends inside the record at offset %llu (was the "
		 "recording killed?): reading the records before it", (unsigned long long)pd->offset);
	set_unclean(pd, why);
	return 0;
}

static int run_pipe(struct perfev_perfdata *pd)
{
	for (;;) {
		int err = pipe_fill(pd, 8);
		if (err < 0)
			return err;
		if (pd->in_len - pd->in_pos < 8)
			return pd->in_len > pd->in_pos ? stream_cut(pd) : 0;
		uint16_t sz;
		memcpy(&sz, pd->in + pd->in_pos + 6, 2);
		if (pd->swap)
			sz = bswap_16(sz);
		if (sz < 8)
			return bad_size(pd, pd->offset, sz, 0);
		if ((err = pipe_fill(pd, sz)) < 0)
			return err;
		if (pd->in_len - pd->in_pos < sz)
			return stream_cut(pd);
		uint64_t extra = payload_after(pd, pd->in + pd->in_pos, sz);
		if (is_tracing_data(pd, pd->in + pd->in_pos, extra) && (err = pipe_fill(pd, sz + (size_t)extra)) < 0)
			return err; /* the formats are small: read them whole */
		const uint8_t *b = pd->in + pd->in_pos;
		int ret = extra ? keep_tracing_data(pd, b, sz, extra, pd->in_len - pd->in_pos) : 0;
		if (!ret)
			ret = process_bytes(pd, b, sz, false, pd->offset);
		if (ret)
			return ret;
		pd->in_pos += sz;
		pd->offset += sz;
		/* skip the payload without holding it */
		while (extra) {
			if (pd->in_pos == pd->in_len) {
				if ((err = pipe_fill(pd, 1)) < 0)
					return err;
				if (pd->in_len == pd->in_pos)
					return stream_cut(pd);
			}
			size_t k = pd->in_len - pd->in_pos;
			if (k > extra)
				k = (size_t)extra;
			pd->in_pos += k;
			pd->offset += k;
			extra -= k;
		}
	}
}

PERFEV_API int perfev_perfdata_process(struct perfev_perfdata *pd, const struct perfev_perfdata_read_opts *opts,
				       perfev_perfdata_cb cb, void *ctx)
{
	if (!PV_OPTS_VALID(opts, perfev_perfdata_read_opts))
		return -EINVAL;
	if (pd->pipe && !pd->map && pd->in_pos > pd->applied_upto)
		return pv_error(EINVAL, "%s: a stream is read once: open it again to read it again "
				"(or save it to a file)", pd->name);
	memset(&pd->stats, 0, sizeof(pd->stats)); /* the counts of this pass */
	struct perfev_perfdata_read_opts ro;
	PV_OPTS_COPY(ro, opts);
	pd->opts = &ro;
	pd->cb = cb;
	pd->ctx = ctx;
	pd->nq = 0;
	pd->own_len = 0;
	pd->own_z_len = 0;
	pd->max_time = pd->next_flush = 0;
	if (pd->zd)
		ZSTD_DCtx_reset(pd->zd, ZSTD_reset_session_only); /* each pass is a new stream */
	int ret;
	if (pd->pipe && pd->map)
		ret = run_mapped(pd, 16, pd->map_len);
	else if (pd->pipe) {
		pd->offset = pd->in_pos;
		ret = run_pipe(pd);
	} else
		ret = run_mapped(pd, pd->hdr.data.offset, pd->hdr.data.offset + pd->hdr.data.size);
	if (!ret)
		ret = flush_queue(pd, UINT64_MAX);
	if (pd->offset >= pd->applied_upto)
		pd->applied_upto = pd->offset + 1; /* (up to the last record handled) */
	pd->nq = 0;
	pd->opts = NULL;
	return ret;
}
