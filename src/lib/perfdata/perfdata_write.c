/*
 * perfdata_write.c — the perf.data writer: file mode (header, ids, attrs,
 * data, features; the header rewritten at the end) and pipe mode (attrs and
 * features as records), FINISHED_ROUND, build-ids, zstd COMPRESSED records.
 * finalize() only writes memory prepared earlier, so it is async-signal-safe.
 */
#define _GNU_SOURCE
#include "perfdata/perfdata_int.h"
#include "core/opts.h"
#include "perfev.h"
#include "tracing/tp_int.h"

#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#define PV_COMP_SLICE (256 * 1024)   /* input per flush: decompresses within perf's mmap_len */
#define PV_COMP_MMAP_LEN (528384)    /* what perf reads as the decompression buffer size */

struct perfev_perfdata_writer {
	int fd;
	bool own_fd, pipe, finalized;
	size_t nr_events;
	struct perfev_attr *attrs;
	char **names;
	uint64_t **ids;
	size_t *nr_ids;
	uint32_t attr_size;
	uint64_t attrs_offset, data_offset, data_size, raw_size;
	uint64_t *id_offsets;
	struct pv_buf feats[PV_FEAT_WRITTEN];
	struct pv_buf build_ids;          /* HEADER_BUILD_ID records */
	_Atomic(uint8_t *) bid_blob;      /* snapshot of build_ids for finalize */
	_Atomic size_t bid_blob_len;
	ZSTD_CCtx *zc;
	uint8_t *zout;
	int level;
	int err;
	char name[256];                   /* the output, for messages */
};

/* The smallest attr size that keeps every field set (perf 6.1 refuses attrs larger than it knows). */
static uint32_t file_attr_size(const struct perfev_perfdata_event *ev, size_t nr)
{
	uint32_t sz = 128; /* PERF_ATTR_SIZE_VER7 */
	for (size_t i = 0; i < nr; i++)
		if (ev[i].attr->config3)
			sz = PERFEV_ATTR_SIZE_LATEST;
	return sz;
}

static int emit(struct perfev_perfdata_writer *w, const void *p, size_t n)
{
	int err = pv_write_all(w->fd, p, n);
	if (err < 0)
		return pv_error(-err, "cannot write %s: %s (is the disk full or the pipe closed?)",
				w->name, strerror(-err));
	w->data_size += n;
	return 0;
}

static int emit_record(struct perfev_perfdata_writer *w, const struct perfev_record *r, const struct perfev_attr *a)
{
	uint8_t buf[65536];
	int n = perfev_record_encode(r, a, buf, sizeof(buf));
	if (n < 0)
		return n;
	return emit(w, buf, (size_t)n);
}

/* perf's HEADER_BRANCH_STACK: some event samples branch stacks (perf report
 * shows such files in its branch view). */
static bool branch_stacks(const struct perfev_perfdata_writer *w)
{
	for (size_t i = 0; i < w->nr_events; i++)
		if (w->attrs[i].sample_type & PERF_SAMPLE_BRANCH_STACK)
			return true;
	return false;
}

static void build_features(struct perfev_perfdata_writer *w, const struct perfev_perfdata_event *ev,
			   const struct perfev_perfdata_write_opts *o)
{
	if (!o || !o->no_host_features)
		pv_host_features(w->feats, o ? o->argc : 0, o ? o->argv : NULL);
	pv_feat_event_desc(&w->feats[PERFEV_FEAT_EVENT_DESC], ev, w->nr_events, w->attr_size);
	pv_feat_tracing_data(&w->feats[PERFEV_FEAT_TRACING_DATA], w->attrs, w->nr_events);
	bool clock = false;
	int32_t clockid = 0;
	for (size_t i = 0; i < w->nr_events; i++)
		if (w->attrs[i].use_clockid) {
			clock = true;
			clockid = w->attrs[i].clockid;
		}
	if (!clock) {
		pv_buf_reset(&w->feats[PERFEV_FEAT_CLOCKID]);
	} else {
		struct timespec tod, ck, res;
		/* CLOCKID: the resolution of the clock used, as perf writes it */
		uint64_t res_ns = clock_getres(clockid, &res) == 0 ? (uint64_t)res.tv_nsec : 1;
		pv_buf_reset(&w->feats[PERFEV_FEAT_CLOCKID]);
		pv_buf_add(&w->feats[PERFEV_FEAT_CLOCKID], &res_ns, 8);
		clock_gettime(CLOCK_REALTIME, &tod);
		clock_gettime(clockid, &ck);
		uint32_t v[2] = {1, (uint32_t)clockid};
		uint64_t t[2] = {(uint64_t)tod.tv_sec * 1000000000ULL + (uint64_t)tod.tv_nsec,
				 (uint64_t)ck.tv_sec * 1000000000ULL + (uint64_t)ck.tv_nsec};
		pv_buf_add(&w->feats[PERFEV_FEAT_CLOCK_DATA], v, 8);
		pv_buf_add(&w->feats[PERFEV_FEAT_CLOCK_DATA], t, 16);
	}
	if (w->level) {
		uint32_t c[5] = {0, 1 /* zstd */, (uint32_t)w->level, 0, PV_COMP_MMAP_LEN};
		pv_buf_add(&w->feats[PERFEV_FEAT_COMPRESSED], c, sizeof(c));
	}
}

/* Pipe mode: attrs, names and features as records. */
static int pipe_preamble(struct perfev_perfdata_writer *w)
{
	uint64_t hdr[2] = {PV_PERF_MAGIC2, PV_PIPE_HEADER_SIZE};
	int err = pv_write_all(w->fd, hdr, sizeof(hdr));
	if (err < 0)
		return pv_error(-err, "cannot write the pipe header to %s: %s", w->name, strerror(-err));
	for (size_t i = 0; i < w->nr_events; i++) {
		struct perfev_record r = {.type = PERFEV_RECORD_HEADER_ATTR};
		r.u.header_attr.attr = &w->attrs[i];
		r.u.header_attr.attr_size = w->attr_size;
		r.u.header_attr.nr_ids = w->nr_ids[i];
		r.u.header_attr.ids = w->ids[i];
		if ((err = emit_record(w, &r, NULL)) < 0)
			return err;
	}
	for (size_t i = 0; i < w->nr_events; i++) {
		if (!w->names[i] || !w->nr_ids[i])
			continue;
		struct perfev_record r = {.type = PERFEV_RECORD_EVENT_UPDATE};
		r.u.event_update.type = 2; /* NAME */
		r.u.event_update.id = w->ids[i][0];
		r.u.event_update.str = w->names[i];
		if ((err = emit_record(w, &r, NULL)) < 0)
			return err;
	}
	for (int f = 1; f < PV_FEAT_WRITTEN; f++) {
		/* perf does not send these two in pipe mode; tracing data follows */
		if (!w->feats[f].len || f == PERFEV_FEAT_EVENT_DESC || f == PERFEV_FEAT_BUILD_ID ||
		    f == PERFEV_FEAT_TRACING_DATA)
			continue;
		if (w->feats[f].len > 65000)
			continue;
		struct perfev_record r = {.type = PERFEV_RECORD_HEADER_FEATURE};
		r.u.feature.feat_id = (uint64_t)f;
		r.u.feature.data = w->feats[f].data;
		r.u.feature.size = w->feats[f].len;
		if ((err = emit_record(w, &r, NULL)) < 0)
			return err;
	}
	const struct pv_buf *td = &w->feats[PERFEV_FEAT_TRACING_DATA];
	if (td->len) {
		/* a HEADER_TRACING_DATA record, then the data padded to 8 bytes (as perf) */
		uint32_t aligned = (uint32_t)((td->len + 7) & ~(size_t)7);
		struct {
			uint32_t type;
			uint16_t misc, size;
			uint32_t data_size, pad;
		} rec = {PERFEV_RECORD_HEADER_TRACING_DATA, 0, 16, aligned, 0};
		static const char pad[8];
		if ((err = emit(w, &rec, sizeof(rec))) < 0 || (err = emit(w, td->data, td->len)) < 0 ||
		    (err = emit(w, pad, aligned - td->len)) < 0)
			return err;
	}
	return 0;
}

static int file_preamble(struct perfev_perfdata_writer *w)
{
	uint64_t off = PV_FILE_HEADER_SIZE;
	for (size_t i = 0; i < w->nr_events; i++) {
		w->id_offsets[i] = off;
		if (w->nr_ids[i]) {
			int err = pv_pwrite_all(w->fd, w->ids[i], w->nr_ids[i] * 8, off);
			if (err < 0)
				return pv_error(-err, "cannot write the ids to %s: %s", w->name, strerror(-err));
		}
		off += w->nr_ids[i] * 8;
	}
	w->attrs_offset = off;
	for (size_t i = 0; i < w->nr_events; i++) {
		uint8_t fa[sizeof(struct perfev_attr) + 16];
		struct perfev_attr a = w->attrs[i];
		a.size = w->attr_size;
		memcpy(fa, &a, w->attr_size);
		uint64_t sec[2] = {w->id_offsets[i], w->nr_ids[i] * 8};
		memcpy(fa + w->attr_size, sec, 16);
		int err = pv_pwrite_all(w->fd, fa, w->attr_size + 16u, off);
		if (err < 0)
			return pv_error(-err, "cannot write the attrs to %s: %s", w->name, strerror(-err));
		off += w->attr_size + 16u;
	}
	w->data_offset = off;
	if (lseek(w->fd, (off_t)off, SEEK_SET) < 0)
		return pv_error(errno, "cannot seek in %s: %s", w->name, strerror(errno));
	return perfev_perfdata_writer_finalize(w); /* a valid, empty file from the start */
}

static void writer_free(struct perfev_perfdata_writer *w)
{
	for (size_t i = 0; i < w->nr_events; i++) {
		free(w->names ? w->names[i] : NULL);
		free(w->ids ? w->ids[i] : NULL);
	}
	free(w->names);
	free(w->ids);
	free(w->nr_ids);
	free(w->attrs);
	free(w->id_offsets);
	for (int f = 0; f < PV_FEAT_WRITTEN; f++)
		pv_buf_free(&w->feats[f]);
	pv_buf_free(&w->build_ids);
	free(atomic_load(&w->bid_blob));
	if (w->zc)
		ZSTD_freeCCtx(w->zc);
	free(w->zout);
	if (w->own_fd && w->fd >= 0)
		close(w->fd);
	free(w);
}

PERFEV_API struct perfev_perfdata_writer *
perfev_perfdata_writer_open(const char *path, int fd, const struct perfev_perfdata_event *ev, size_t nr,
			    const struct perfev_perfdata_write_opts *o)
{
	if (!nr || !ev)
		return pv_error_null(EINVAL, "a perf.data file needs at least one event");
	if (!PV_OPTS_VALID(o, perfev_perfdata_write_opts))
		return NULL;
	struct perfev_perfdata_write_opts oc;
	PV_OPTS_COPY(oc, o);
	o = &oc;
	struct perfev_perfdata_writer *w = calloc(1, sizeof(*w));
	if (!w)
		return pv_error_null(ENOMEM, "out of memory opening a perf.data writer");
	w->fd = -1;
	snprintf(w->name, sizeof(w->name), "%s", !path ? "the output" : strcmp(path, "-") ? path
						: "standard output");
	if (path && strcmp(path, "-")) {
		w->fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (w->fd < 0) {
			int e = errno;
			free(w);
			return pv_error_null(e, "cannot create %s: %s (check the directory exists and is writable)",
					     path, strerror(e));
		}
		w->own_fd = true;
	} else {
		w->fd = path ? 1 : fd;
	}
	struct stat st;
	w->pipe = (o && o->pipe) || fstat(w->fd, &st) < 0 || !S_ISREG(st.st_mode);
	w->nr_events = nr;
	w->attr_size = file_attr_size(ev, nr);
	w->attrs = calloc(nr, sizeof(*w->attrs));
	w->names = calloc(nr, sizeof(char *));
	w->ids = calloc(nr, sizeof(uint64_t *));
	w->nr_ids = calloc(nr, sizeof(size_t));
	w->id_offsets = calloc(nr, sizeof(uint64_t));
	if (!w->attrs || !w->names || !w->ids || !w->nr_ids || !w->id_offsets)
		goto oom;
	for (size_t i = 0; i < nr; i++) {
		size_t sz = ev[i].attr->size && ev[i].attr->size < sizeof(w->attrs[i]) ? ev[i].attr->size
										  : sizeof(w->attrs[i]);
		memcpy(&w->attrs[i], ev[i].attr, sz);
		char nm[256];
		if (!ev[i].name)
			perfev_attr_name(ev[i].attr, nm, sizeof(nm));
		w->names[i] = strdup(ev[i].name ? ev[i].name : nm);
		w->nr_ids[i] = ev[i].nr_ids;
		w->ids[i] = malloc(ev[i].nr_ids * 8 + 8);
		if (!w->names[i] || !w->ids[i])
			goto oom;
		if (ev[i].nr_ids)
			memcpy(w->ids[i], ev[i].ids, ev[i].nr_ids * 8);
	}
	if (o && o->compress_level > 0) {
		w->level = o->compress_level > ZSTD_maxCLevel() ? ZSTD_maxCLevel() : o->compress_level;
		w->zc = ZSTD_createCCtx();
		w->zout = malloc(65536);
		if (!w->zc || !w->zout)
			goto oom;
		ZSTD_CCtx_setParameter(w->zc, ZSTD_c_compressionLevel, w->level);
	}
	build_features(w, ev, o);
	int err = w->pipe ? pipe_preamble(w) : file_preamble(w);
	if (err < 0) {
		int e = errno;
		writer_free(w);
		errno = e;
		return NULL;
	}
	w->data_size = w->pipe ? w->data_size : 0;
	return w;
oom:
	writer_free(w);
	return pv_error_null(ENOMEM, "out of memory opening a perf.data writer");
}

/* Compresses len bytes into COMPRESSED records (one zstd stream for the file,
 * flushed per slice so every record decodes on its own as perf expects). */
static int write_compressed(struct perfev_perfdata_writer *w, const uint8_t *p, size_t len)
{
	while (len) {
		size_t n = len < PV_COMP_SLICE ? len : PV_COMP_SLICE;
		ZSTD_inBuffer in = {p, n, 0};
		size_t rem;
		do {
			ZSTD_outBuffer out = {w->zout + 8, 65535 - 8 - 7, 0};
			rem = ZSTD_compressStream2(w->zc, &out, &in, ZSTD_e_flush);
			if (ZSTD_isError(rem))
				return pv_error(EIO, "zstd compression failed: %s", ZSTD_getErrorName(rem));
			if (out.pos) {
				/* COMPRESSED: header + data; size is 16-bit, kept 8-aligned by zero padding */
				size_t sz = 8 + out.pos;
				size_t pad = (8 - (sz & 7)) & 7;
				(void)pad; /* perf's reader takes the whole payload as zstd input: no padding */
				uint32_t type = PERFEV_RECORD_COMPRESSED;
				uint16_t misc = 0, size = (uint16_t)sz;
				memcpy(w->zout, &type, 4);
				memcpy(w->zout + 4, &misc, 2);
				memcpy(w->zout + 6, &size, 2);
				int err = emit(w, w->zout, sz);
				if (err < 0)
					return err;
			}
		} while (in.pos < in.size || rem != 0);
		p += n;
		len -= n;
	}
	return 0;
}

PERFEV_API int perfev_perfdata_writer_write(struct perfev_perfdata_writer *w, const void *bytes, size_t len)
{
	if (!len)
		return 0;
	w->raw_size += len;
	if (w->zc)
		return write_compressed(w, bytes, len);
	return emit(w, bytes, len);
}

PERFEV_API int perfev_perfdata_writer_finish_round(struct perfev_perfdata_writer *w)
{
	uint64_t hdr = (uint64_t)PERFEV_RECORD_FINISHED_ROUND | (8ULL << 48);
	return emit(w, &hdr, 8);
}

PERFEV_API uint64_t perfev_perfdata_writer_data_size(const struct perfev_perfdata_writer *w)
{
	return w->raw_size;
}

PERFEV_API int perfev_perfdata_writer_add_build_id(struct perfev_perfdata_writer *w, int32_t pid, uint16_t cpumode,
						   const uint8_t *bid, size_t len, const char *filename)
{
	if (len > 20)
		return pv_error(EINVAL, "a build-id of %zu bytes is longer than 20", len);
	struct perfev_record r = {.type = PERFEV_RECORD_HEADER_BUILD_ID,
				  .misc = (uint16_t)(cpumode | PERFEV_RECORD_MISC_BUILD_ID_SIZE)};
	r.u.build_id.pid = pid;
	r.u.build_id.size = (uint8_t)len;
	memcpy(r.u.build_id.build_id, bid, len);
	/* perf pads file names to 64 bytes */
	size_t fl = strlen(filename) + 1;
	size_t padded = (fl + PV_NAME_ALIGN - 1) / PV_NAME_ALIGN * PV_NAME_ALIGN;
	char *name = calloc(1, padded + 8);
	if (!name)
		return pv_error(ENOMEM, "out of memory adding a build-id");
	memcpy(name, filename, fl);
	uint8_t buf[8192];
	r.u.build_id.filename = name;
	int n = perfev_record_encode(&r, NULL, buf, sizeof(buf) - PV_NAME_ALIGN);
	free(name);
	if (n < 0)
		return n;
	/* grow the record to 36 + padded filename, as perf writes it */
	size_t full = 36 + padded;
	full = (full + 7) & ~(size_t)7;
	if (full > (size_t)n) {
		memset(buf + n, 0, full - (size_t)n);
		uint16_t s16 = (uint16_t)full;
		memcpy(buf + 6, &s16, 2);
		n = (int)full;
	}
	pv_buf_add(&w->build_ids, buf, (size_t)n);
	if (w->build_ids.oom)
		return pv_error(ENOMEM, "out of memory adding a build-id");
	/* publish a snapshot for finalize (which may run in a signal handler) */
	uint8_t *snap = malloc(w->build_ids.len);
	if (!snap)
		return pv_error(ENOMEM, "out of memory adding a build-id");
	memcpy(snap, w->build_ids.data, w->build_ids.len);
	atomic_store(&w->bid_blob_len, 0);
	uint8_t *old = atomic_exchange(&w->bid_blob, snap);
	atomic_store(&w->bid_blob_len, w->build_ids.len);
	free(old);
	return 0;
}

PERFEV_API int perfev_perfdata_writer_finalize(struct perfev_perfdata_writer *w)
{
	if (!w)
		return 0;
	uint8_t *bid = atomic_load(&w->bid_blob);
	size_t bid_len = atomic_load(&w->bid_blob_len);
	if (w->pipe) {
		if (w->finalized || !bid_len)
			return 0;
		w->finalized = true;
		int err = pv_write_all(w->fd, bid, bid_len);
		return err < 0 ? err : 0;
	}
	/* features after the data: a section table, then each feature's bytes */
	struct pv_file_header h = {0};
	struct pv_file_section sec[PV_FEAT_WRITTEN];
	int nsec = 0;
	for (int f = 1; f < PV_FEAT_WRITTEN; f++) {
		size_t len = f == PERFEV_FEAT_BUILD_ID ? bid_len : w->feats[f].len;
		if (f == PERFEV_FEAT_BUILD_ID && !len)
			continue;
		if (f != PERFEV_FEAT_BUILD_ID && !len && !(f == PERFEV_FEAT_BRANCH_STACK && branch_stacks(w)))
			continue; /* (perf's BRANCH_STACK is an empty section: events sample branch stacks) */
		h.adds_features[f / 64] |= 1ULL << (f % 64);
		sec[nsec++].size = len;
	}
	uint64_t feat_off = w->data_offset + w->data_size;
	uint64_t off = feat_off + (uint64_t)nsec * sizeof(sec[0]);
	for (int i = 0; i < nsec; i++) {
		sec[i].offset = off;
		off += sec[i].size;
	}
	int err = pv_pwrite_all(w->fd, sec, (size_t)nsec * sizeof(sec[0]), feat_off);
	int i = 0;
	for (int f = 1; f < PV_FEAT_WRITTEN && err >= 0; f++) {
		if (!(h.adds_features[0] >> f & 1))
			continue;
		const void *p = f == PERFEV_FEAT_BUILD_ID ? (const void *)bid : (const void *)w->feats[f].data;
		err = pv_pwrite_all(w->fd, p, sec[i].size, sec[i].offset);
		i++;
	}
	h.magic = PV_PERF_MAGIC2;
	h.size = PV_FILE_HEADER_SIZE;
	h.attr_size = w->attr_size + 16u;
	h.attrs.offset = w->attrs_offset;
	h.attrs.size = w->nr_events * (w->attr_size + 16u);
	h.data.offset = w->data_offset;
	h.data.size = w->data_size;
	if (err >= 0)
		err = pv_pwrite_all(w->fd, &h, sizeof(h), 0);
	if (err >= 0 && ftruncate(w->fd, (off_t)off) < 0)
		err = -errno;
	w->finalized = true;
	return err < 0 ? err : 0;
}

PERFEV_API int perfev_perfdata_writer_close(struct perfev_perfdata_writer *w)
{
	if (!w)
		return 0;
	int err = perfev_perfdata_writer_finalize(w);
	if (err < 0)
		pv_error(-err, "cannot finish %s: %s", w->name, strerror(-err));
	writer_free(w);
	return err;
}
