/*
 * tracing_data.c — perf.data's TRACING_DATA feature: the tracepoint formats
 * and the kernel text they need, in perf's layout (tools/perf/util/
 * trace-event-info.c writes it, trace-event-read.c reads it):
 *
 *   "\027\010\104tracing" "0.6\0" endian:u8 long_size:u8 page_size:u32
 *   "header_page\0"  size:u64 text      "header_event\0" size:u64 text
 *   ftrace formats:  count:u32 { size:u64 text }
 *   systems:         count:u32 { name\0 count:u32 { size:u64 text } }
 *   kallsyms:        size:u32 text      printk formats: size:u32 text
 *   saved_cmdlines:  size:u64 text      (version >= 0.6)
 *
 * Numbers are in the writer's byte order, which the endian byte names.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/tracepoint.h"
#include "tracing/tp_int.h"
#include "tracing/tracefs_int.h"

#include <byteswap.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char magic[10] = {23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g'};
#define TD_VERSION "0.6"

/* ---- writing ---------------------------------------------------------------- */
static void put_u32(struct pv_buf *b, uint32_t v) { pv_buf_add(b, &v, 4); }
static void put_u64(struct pv_buf *b, uint64_t v) { pv_buf_add(b, &v, 8); }

/* A file's contents with its size before it (hdr 4 or 8 bytes); an
 * unreadable file is written as empty, as perf does. */
static void put_file(struct pv_buf *b, const char *path, int hdr)
{
	char *data = NULL;
	size_t len = 0;
	if (pv_read_file(path, &data, &len, 256 << 20) < 0)
		len = 0;
	if (hdr == 4)
		put_u32(b, (uint32_t)len);
	else
		put_u64(b, len);
	pv_buf_add(b, data, len);
	free(data);
}

struct tp_ref {
	char sys[256], name[256];
};

static int cmp_sys(const void *a, const void *b)
{
	return strcmp(((const struct tp_ref *)a)->sys, ((const struct tp_ref *)b)->sys);
}

static void put_format(struct pv_buf *b, const struct tp_ref *t)
{
	char rel[600], path[800];
	snprintf(rel, sizeof(rel), "events/%s/%s/format", t->sys, t->name);
	put_file(b, pv_tracefs_path(path, sizeof(path), rel), 8);
}

PERFEV_API int perfev_tracing_data_write(const uint64_t *ids, size_t nr, int with_kallsyms,
					 void **out, size_t *len)
{
	*out = NULL;
	*len = 0;
	if (!pv_tracefs_root())
		return -errno;
	struct tp_ref *refs = calloc(nr ? nr : 1, sizeof(*refs));
	if (!refs)
		return pv_error(ENOMEM, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < nr; i++) {
		bool dup = false;
		for (size_t j = 0; j < i; j++)
			dup |= ids[j] == ids[i];
		if (dup)
			continue;
		int r = pv_tracefs_find_id(ids[i], refs[n].sys, sizeof(refs[n].sys), refs[n].name,
					   sizeof(refs[n].name));
		if (r < 0) {
			free(refs);
			return r;
		}
		n++;
	}
	qsort(refs, n, sizeof(*refs), cmp_sys);

	struct pv_buf b = PV_BUF_INIT;
	char path[512];
	pv_buf_add(&b, magic, sizeof(magic));
	pv_buf_add(&b, TD_VERSION, sizeof(TD_VERSION));
	pv_buf_putc(&b, (char)(tep_is_bigendian() ? 1 : 0));
	pv_buf_putc(&b, (char)sizeof(long));
	put_u32(&b, (uint32_t)sysconf(_SC_PAGESIZE));
	pv_buf_add(&b, "header_page", 12);
	put_file(&b, pv_tracefs_path(path, sizeof(path), "events/header_page"), 8);
	pv_buf_add(&b, "header_event", 13);
	put_file(&b, pv_tracefs_path(path, sizeof(path), "events/header_event"), 8);

	uint32_t nftrace = 0, nsys = 0;
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(refs[i].sys, "ftrace"))
			nftrace++;
		else if (i == 0 || strcmp(refs[i].sys, refs[i - 1].sys))
			nsys++;
	}
	put_u32(&b, nftrace);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(refs[i].sys, "ftrace"))
			put_format(&b, &refs[i]);
	put_u32(&b, nsys);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && !strcmp(refs[j].sys, refs[i].sys))
			j++;
		if (strcmp(refs[i].sys, "ftrace")) {
			pv_buf_add(&b, refs[i].sys, strlen(refs[i].sys) + 1);
			put_u32(&b, (uint32_t)(j - i));
			for (size_t k = i; k < j; k++)
				put_format(&b, &refs[k]);
		}
		i = j;
	}
	if (with_kallsyms)
		put_file(&b, "/proc/kallsyms", 4);
	else
		put_u32(&b, 0);
	put_file(&b, pv_tracefs_path(path, sizeof(path), "printk_formats"), 4);
	put_file(&b, pv_tracefs_path(path, sizeof(path), "saved_cmdlines"), 8);
	free(refs);
	if (b.oom) {
		pv_buf_free(&b);
		return pv_error(ENOMEM, "out of memory");
	}
	*len = b.len;
	*out = pv_buf_detach(&b);
	return 0;
}

PERFEV_API int perfev_tracing_data_write_evlist(const struct perfev_evlist *list,
						void **out, size_t *len)
{
	size_t nr = perfev_evlist_count(list), n = 0;
	uint64_t *ids = calloc(nr ? nr : 1, sizeof(*ids));
	if (!ids)
		return pv_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < nr; i++) {
		const struct perfev_attr *a = perfev_evsel_attr_const(perfev_evlist_at(list, i));
		if (a->type == PERF_TYPE_TRACEPOINT)
			ids[n++] = a->config;
	}
	/* perf records kallsyms only when asked for raw samples of all CPUs;
	 * the formats we decode do not need it, and it is megabytes. */
	int r = perfev_tracing_data_write(ids, n, 0, out, len);
	free(ids);
	return r;
}

void pv_feat_tracing_data(struct pv_buf *out, const struct perfev_attr *attrs, size_t nr)
{
	uint64_t *ids = calloc(nr ? nr : 1, sizeof(*ids));
	size_t n = 0;
	for (size_t i = 0; ids && i < nr; i++)
		if (attrs[i].type == PERF_TYPE_TRACEPOINT)
			ids[n++] = attrs[i].config;
	void *data = NULL;
	size_t len = 0;
	if (n && perfev_tracing_data_write(ids, n, 0, &data, &len) == 0)
		pv_buf_add(out, data, len);
	free(data);
	free(ids);
}

/* ---- reading ---------------------------------------------------------------- */
struct reader {
	const uint8_t *p;
	size_t len, off;
	bool swap;
	const char *part; /* what is being read, for the message */
};

static int short_data(struct reader *r, size_t want)
{
	return pv_error(EINVAL, "tracing data: %s at offset %zu needs %zu bytes but %zu remain",
			r->part, r->off, want, r->len - r->off);
}

static int take(struct reader *r, size_t n, const uint8_t **out)
{
	if (n > r->len - r->off)
		return short_data(r, n);
	*out = r->p + r->off;
	r->off += n;
	return 0;
}

static int get_u32(struct reader *r, uint32_t *v)
{
	const uint8_t *q = NULL;
	if (take(r, 4, &q) < 0)
		return -EINVAL;
	memcpy(v, q, 4);
	if (r->swap)
		*v = bswap_32(*v);
	return 0;
}

static int get_u64(struct reader *r, uint64_t *v)
{
	const uint8_t *q = NULL;
	if (take(r, 8, &q) < 0)
		return -EINVAL;
	memcpy(v, q, 8);
	if (r->swap)
		*v = bswap_64(*v);
	return 0;
}

/* A NUL-terminated string in place. */
static int get_str(struct reader *r, const char **s)
{
	const uint8_t *end = memchr(r->p + r->off, 0, r->len - r->off);
	if (!end)
		return pv_error(EINVAL, "tracing data: %s at offset %zu is not terminated", r->part,
				r->off);
	*s = (const char *)r->p + r->off;
	r->off = (size_t)(end - r->p) + 1;
	return 0;
}

/* A sized blob copied out with a NUL after it (tep parsers want strings). */
static int get_blob(struct reader *r, int hdr, char **out, size_t *len)
{
	uint64_t n;
	if (hdr == 4) {
		uint32_t n32;
		if (get_u32(r, &n32) < 0)
			return -EINVAL;
		n = n32;
	} else if (get_u64(r, &n) < 0) {
		return -EINVAL;
	}
	const uint8_t *q = NULL;
	if (n > r->len - r->off)
		return short_data(r, (size_t)PV_MIN(n, (uint64_t)SIZE_MAX));
	take(r, (size_t)n, &q);
	*out = malloc((size_t)n + 1);
	if (!*out)
		return pv_error(ENOMEM, "out of memory");
	memcpy(*out, q, (size_t)n);
	(*out)[n] = 0;
	*len = (size_t)n;
	return 0;
}

static int read_formats(struct reader *r, const struct pv_td_visitor *v, const char *sys)
{
	uint32_t count;
	if (get_u32(r, &count) < 0)
		return -EINVAL;
	for (uint32_t i = 0; i < count; i++) {
		char *fmt;
		size_t len;
		if (get_blob(r, 8, &fmt, &len) < 0)
			return -errno;
		int e = v->format ? v->format(v->ctx, sys, fmt, len) : 0;
		free(fmt);
		if (e < 0)
			return e;
	}
	return 0;
}

int pv_tracing_data_walk(const void *data, size_t size, const struct pv_td_visitor *v,
			 size_t *used)
{
	struct reader rd = {data, size, 0, false, ""}, *r = &rd;
	const uint8_t *q = NULL;
	const char *version, *s;
	r->part = "the magic";
	if (take(r, sizeof(magic), &q) < 0)
		return -EINVAL;
	if (memcmp(q, magic, sizeof(magic)))
		return pv_error(EINVAL, "tracing data: no \"\\027\\010\\104tracing\" magic at the start");
	r->part = "the version";
	if (get_str(r, &version) < 0)
		return -EINVAL;
	r->part = "the sizes";
	if (take(r, 2, &q) < 0)
		return -EINVAL;
	bool file_big = q[0] != 0;
	int long_size = q[1];
	r->swap = file_big != (bool)tep_is_bigendian();
	uint32_t page;
	if (get_u32(r, &page) < 0)
		return -EINVAL;
	if (long_size != 4 && long_size != 8)
		return pv_error(EINVAL, "tracing data: long size %d (expected 4 or 8)", long_size);
	if (v->sizes)
		v->sizes(v->ctx, file_big, long_size, page);

	char *blob;
	size_t len;
	r->part = "header_page";
	if (take(r, 12, &q) < 0)
		return -EINVAL;
	if (memcmp(q, "header_page", 12))
		return pv_error(EINVAL, "tracing data: no header_page at offset %zu", r->off - 12);
	if (get_blob(r, 8, &blob, &len) < 0)
		return -errno;
	if (v->header_page)
		v->header_page(v->ctx, blob, len);
	free(blob);
	r->part = "header_event";
	if (take(r, 13, &q) < 0)
		return -EINVAL;
	if (memcmp(q, "header_event", 13))
		return pv_error(EINVAL, "tracing data: no header_event at offset %zu", r->off - 13);
	if (get_blob(r, 8, &blob, &len) < 0)
		return -errno;
	free(blob);
	r->part = "the ftrace formats";
	if (read_formats(r, v, "ftrace") < 0)
		return -errno;
	uint32_t nsys;
	r->part = "the event systems";
	if (get_u32(r, &nsys) < 0)
		return -EINVAL;
	for (uint32_t i = 0; i < nsys; i++) {
		r->part = "a system name";
		if (get_str(r, &s) < 0)
			return -EINVAL;
		r->part = "an event format";
		if (read_formats(r, v, s) < 0)
			return -errno;
	}
	static const struct {
		const char *part;
		int hdr;
	} tail[] = {{"kallsyms", 4}, {"the printk formats", 4}, {"saved_cmdlines", 8}};
	for (int i = 0; i < (int)PV_ARRAY_SIZE(tail); i++) {
		if (i == PV_TD_CMDLINES && strtod(version, NULL) < 0.6)
			break;
		r->part = tail[i].part;
		if (get_blob(r, tail[i].hdr, &blob, &len) < 0)
			return -errno;
		if (len && v->text)
			v->text(v->ctx, i, blob);
		free(blob);
	}
	if (used)
		*used = r->off;
	return 0;
}

/* ---- the walk into a tep handle --------------------------------------------- */
/*
 * printk_formats lines ("0xADDR : \"fmt\"") registered as perf does, but
 * skipping formats shorter than 3 characters (after the leading quote):
 * libtraceevent's tep_register_print_string reads before the string's
 * start on those.
 */
int pv_tp_parse_printk(struct tep_handle *tep, const char *buf)
{
	while (*buf) {
		const char *nl = strchr(buf, '\n');
		size_t n = nl ? (size_t)(nl - buf) : strlen(buf);
		const char *colon = memchr(buf, ':', n);
		if (colon) {
			unsigned long long addr = strtoull(buf, NULL, 16);
			const char *fmt = colon + 1 + (colon + 1 < buf + n && colon[1] == ' ');
			char *f = strndup(fmt, (size_t)(buf + n - fmt));
			/* the length it will see: after its own strip of one quote */
			if (f && strlen(f + (f[0] == '"')) >= 3)
				tep_register_print_string(tep, f, addr);
			free(f);
		}
		buf += n + (nl != NULL);
	}
	return 0;
}

/* Splits buf into lines, each handed to fn as a NUL-terminated copy. */
static void each_line(struct tep_handle *tep, const char *buf,
		      void (*fn)(struct tep_handle *, char *line))
{
	while (*buf) {
		const char *nl = strchr(buf, '\n');
		size_t n = nl ? (size_t)(nl - buf) : strlen(buf);
		char *line = strndup(buf, n);
		if (line)
			fn(tep, line);
		free(line);
		buf += n + (nl != NULL);
	}
}

/* "ADDR TYPE NAME[\t[MODULE]]", registered as perf does (our own parser:
 * libtraceevent's leaks on malformed lines). */
static void kallsyms_line(struct tep_handle *tep, char *line)
{
	char *end;
	unsigned long long addr = strtoull(line, &end, 16);
	if (end == line || *end != ' ' || !end[1] || end[2] != ' ' || !end[3])
		return;
	char *name = end + 3, *mod = strchr(name, '\t');
	if (mod) {
		*mod++ = 0;
		if (*mod == '[')
			mod++;
		char *close = strchr(mod, ']');
		if (close)
			*close = 0;
	}
	if (*name)
		tep_register_function(tep, name, addr, mod);
}

/* "PID COMM" */
static void cmdline_line(struct tep_handle *tep, char *line)
{
	char *end;
	long pid = strtol(line, &end, 10);
	if (end == line || *end != ' ' || !end[1] || pid < 0 || pid > INT32_MAX)
		return;
	tep_register_comm(tep, end + 1, (int)pid);
}

int pv_tp_parse_kallsyms(struct tep_handle *tep, const char *buf)
{
	each_line(tep, buf, kallsyms_line);
	return 0;
}

int pv_tp_parse_cmdlines(struct tep_handle *tep, const char *buf)
{
	each_line(tep, buf, cmdline_line);
	return 0;
}

static void tp_sizes(void *ctx, bool big, int long_size, uint32_t page)
{
	struct perfev_tp *tp = ctx;
	tep_set_file_bigendian(tp->tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tp->tep, long_size);
	tep_set_page_size(tp->tep, (int)page);
}

static void tp_header_page(void *ctx, char *text, size_t len)
{
	struct perfev_tp *tp = ctx;
	/* the commit field's size is the kernel's long: use it, as perf does */
	if (!tep_parse_header_page(tp->tep, text, len, tep_get_long_size(tp->tep)))
		tep_set_long_size(tp->tep, tep_get_header_page_size(tp->tep));
}

static int tp_format(void *ctx, const char *sys, const char *text, size_t len)
{
	return pv_tp_parse_format(ctx, sys, text, len);
}

static void tp_text(void *ctx, int part, const char *text)
{
	struct perfev_tp *tp = ctx;
	if (part == PV_TD_KALLSYMS)
		pv_tp_parse_kallsyms(tp->tep, text);
	else if (part == PV_TD_PRINTK)
		pv_tp_parse_printk(tp->tep, text);
	else
		pv_tp_parse_cmdlines(tp->tep, text);
}

PERFEV_API struct perfev_tp *perfev_tp_from_tracing_data(const void *data, size_t len,
							  size_t *used)
{
	struct perfev_tp *tp = perfev_tp_new();
	if (!tp)
		return NULL;
	struct pv_td_visitor v = {tp, tp_sizes, tp_header_page, tp_format, tp_text};
	if (pv_tracing_data_walk(data, len, &v, used) < 0) {
		int e = errno;
		perfev_tp_free(tp);
		errno = e;
		return NULL;
	}
	return tp;
}
