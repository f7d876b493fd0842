/*
 * tp_format.c — tracepoint formats through libtraceevent, set up as perf
 * sets up its tep handle (no plugins, so the text is the print fmt's, as
 * `perf script` prints it), and the raw data decoded through them.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/sys.h"
#include "perfev/tracepoint.h"
#include "tracing/tp_int.h"
#include "tracing/tracefs_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/trace-seq.h>

PERFEV_API struct perfev_tp *perfev_tp_new(void)
{
	struct perfev_tp *tp = calloc(1, sizeof(*tp));
	if (!tp)
		return pv_error_null(ENOMEM, "out of memory");
	tp->tep = tep_alloc();
	if (!tp->tep) {
		free(tp);
		return pv_error_null(ENOMEM, "out of memory");
	}
	enum tep_endian host = tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN;
	tep_set_flag(tp->tep, TEP_NSEC_OUTPUT);
	tep_set_file_bigendian(tp->tep, host);
	tep_set_local_bigendian(tp->tep, host);
	tep_set_long_size(tp->tep, sizeof(long));
	tep_set_page_size(tp->tep, (int)sysconf(_SC_PAGESIZE));
	return tp;
}

PERFEV_API void perfev_tp_free(struct perfev_tp *tp)
{
	if (!tp)
		return;
	for (size_t i = 0; i < tp->nr_names; i++)
		free(tp->names[i].name);
	free(tp->names);
	tep_free(tp->tep);
	free(tp);
}

int pv_tp_parse_format(struct perfev_tp *tp, const char *sys, const char *buf, size_t len)
{
	return (int)perfev_tp_add_format(tp, sys, buf, len) < 0 ? -errno : 0;
}

PERFEV_API int64_t perfev_tp_add_format(struct perfev_tp *tp, const char *sys, const char *buf,
					size_t len)
{
	struct tep_event *ev = NULL;
	enum tep_errno e = tep_parse_format(tp->tep, &ev, buf, len, sys);
	/* A format whose print fmt libtraceevent cannot parse still has its
	 * fields: keep it (perf does too), it prints as its raw fields. */
	if (e != 0 && !ev) {
		char msg[256];
		tep_strerror(tp->tep, e, msg, sizeof(msg));
		return pv_error(EINVAL, "tracepoint format of system '%s': %s", sys, msg);
	}
	if (ev && !perfev_tp_name(tp, (uint64_t)ev->id)) {
		if (pv_grow(&tp->names, &tp->cap_names, tp->nr_names + 1, sizeof(*tp->names)) < 0)
			return pv_error(ENOMEM, "out of memory");
		char *n;
		if (asprintf(&n, "%s:%s", ev->system, ev->name) < 0)
			return pv_error(ENOMEM, "out of memory");
		tp->names[tp->nr_names++] = (struct tp_name){(uint64_t)ev->id, n};
	}
	return ev->id;
}

PERFEV_API int64_t perfev_tp_event_id(const char *sys, const char *name)
{
	return pv_tracefs_event_id(sys, name);
}

PERFEV_API int64_t perfev_tp_load(struct perfev_tp *tp, const char *sys, const char *name)
{
	char rel[512], path[700], *buf;
	size_t len;
	if (!pv_tracefs_root())
		return -errno;
	snprintf(rel, sizeof(rel), "events/%s/%s/format", sys, name);
	int r = pv_read_file(pv_tracefs_path(path, sizeof(path), rel), &buf, &len, 1 << 20);
	if (r < 0)
		return pv_error(-r, "no tracepoint %s:%s (%s: %s): see `perf list tracepoint`", sys,
				name, path, strerror(-r));
	r = pv_tp_parse_format(tp, sys, buf, len);
	free(buf);
	if (r < 0)
		return r;
	return perfev_tp_event_id(sys, name);
}

PERFEV_API int perfev_tp_load_id(struct perfev_tp *tp, uint64_t id)
{
	if (tep_find_event(tp->tep, (int)id))
		return 0;
	char sys[256], name[256];
	int r = pv_tracefs_find_id(id, sys, sizeof(sys), name, sizeof(name));
	if (r < 0)
		return r;
	int64_t got = perfev_tp_load(tp, sys, name);
	return got < 0 ? (int)got : 0;
}

PERFEV_API int perfev_tp_load_evlist(struct perfev_tp *tp, const struct perfev_evlist *list)
{
	int n = 0;
	for (size_t i = 0; i < perfev_evlist_count(list); i++) {
		const struct perfev_attr *a = perfev_evsel_attr_const(perfev_evlist_at(list, i));
		if (a->type != PERF_TYPE_TRACEPOINT)
			continue;
		int r = perfev_tp_load_id(tp, a->config);
		if (r < 0)
			return r;
		n++;
	}
	return n;
}

/* Feeds a whole tracefs/proc file to a tep parser taking a string. */
static int load_text(struct perfev_tp *tp, const char *path,
		     int (*parse)(struct tep_handle *, const char *))
{
	char *buf;
	size_t len;
	int r = pv_read_file(path, &buf, &len, 64 << 20);
	if (r < 0)
		return r;
	if (len)
		parse(tp->tep, buf);
	free(buf);
	return 0;
}

PERFEV_API int perfev_tp_load_system(struct perfev_tp *tp, int with_kallsyms)
{
	char path[512], *buf;
	size_t len;
	if (!pv_tracefs_root())
		return -errno;
	if (pv_read_file(pv_tracefs_path(path, sizeof(path), "events/header_page"), &buf, &len,
			 1 << 20) == 0) {
		if (!tep_parse_header_page(tp->tep, buf, len, tep_get_long_size(tp->tep)))
			tep_set_long_size(tp->tep, tep_get_header_page_size(tp->tep));
		free(buf);
	}
	load_text(tp, pv_tracefs_path(path, sizeof(path), "printk_formats"),
		  pv_tp_parse_printk);
	load_text(tp, pv_tracefs_path(path, sizeof(path), "saved_cmdlines"),
		  pv_tp_parse_cmdlines);
	if (with_kallsyms)
		load_text(tp, "/proc/kallsyms", pv_tp_parse_kallsyms);
	return 0;
}

PERFEV_API const char *perfev_tp_name(const struct perfev_tp *tp, uint64_t id)
{
	for (size_t i = 0; i < tp->nr_names; i++)
		if (tp->names[i].id == id)
			return tp->names[i].name;
	errno = ENOENT;
	return NULL;
}

PERFEV_API int64_t perfev_tp_raw_id(const void *raw, size_t size)
{
	uint16_t t;
	if (!raw || size < sizeof(t))
		return pv_error(EINVAL, "tracepoint raw data of %zu bytes has no common_type", size);
	memcpy(&t, raw, sizeof(t));
	return t;
}

static struct tep_event *event_of(struct perfev_tp *tp, const void *raw, size_t size)
{
	int64_t id = perfev_tp_raw_id(raw, size);
	if (id < 0)
		return NULL;
	struct tep_event *ev = tep_find_event(tp->tep, (int)id);
	if (!ev)
		return pv_error_null(ENOENT, "no format for tracepoint id %lld: load it first "
				     "(perfev_tp_load*, or the file's TRACING_DATA)", (long long)id);
	return ev;
}

/* A field (and, for __data_loc/__rel_loc, the data it points to) within
 * raw[0..size): libtraceevent reads them without looking at the size. */
static int field_fits(const struct tep_format_field *f, const void *raw, size_t size)
{
	if (f->offset < 0 || f->size < 0 || (size_t)f->offset + (size_t)f->size > size)
		return pv_error(EINVAL, "field '%s' (offset %d, size %d) lies outside the %zu bytes "
				"of raw data", f->name, f->offset, f->size, size);
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
		return 0;
	uint32_t loc;
	if (f->size != 4)
		return pv_error(EINVAL, "field '%s': a __data_loc of %d bytes", f->name, f->size);
	memcpy(&loc, (const char *)raw + f->offset, sizeof(loc));
	uint64_t off = loc & 0xffff, len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += (uint64_t)f->offset + (uint64_t)f->size;
	if (off + len > size)
		return pv_error(EINVAL, "field '%s': its data (offset %llu, %llu bytes) lies outside "
				"the %zu bytes of raw data", f->name, (unsigned long long)off,
				(unsigned long long)len, size);
	/* a string is printed with %s: its NUL must be inside its bytes */
	bool string = (f->flags & TEP_FIELD_IS_STRING) || (f->type && strstr(f->type, "char"));
	if (string && !memchr((const char *)raw + off, 0, (size_t)len))
		return pv_error(EINVAL, "field '%s': the string is not terminated within its %llu "
				"bytes", f->name, (unsigned long long)len);
	return 0;
}

static int event_fits(const struct tep_event *ev, const void *raw, size_t size)
{
	for (const struct tep_format_field *f = ev->format.common_fields; f; f = f->next)
		if (field_fits(f, raw, size) < 0)
			return -EINVAL;
	for (const struct tep_format_field *f = ev->format.fields; f; f = f->next)
		if (field_fits(f, raw, size) < 0)
			return -EINVAL;
	return 0;
}

static int seq_detach(struct trace_seq *s, char **out)
{
	trace_seq_terminate(s);
	int len = (int)s->len;
	*out = s->state == TRACE_SEQ__GOOD ? strndup(s->buffer, s->len) : NULL;
	trace_seq_destroy(s);
	if (!*out)
		return pv_error(ENOMEM, "out of memory");
	return len;
}

PERFEV_API int perfev_tp_print(struct perfev_tp *tp, const void *raw, size_t size, int cpu,
			       char **out)
{
	*out = NULL;
	struct tep_event *ev = event_of(tp, raw, size);
	if (!ev)
		return -errno;
	if (event_fits(ev, raw, size) < 0)
		return -EINVAL;
	struct tep_record rec;
	memset(&rec, 0, sizeof(rec));
	rec.cpu = cpu;
	rec.size = (int)size;
	rec.data = (void *)raw;
	struct trace_seq s;
	trace_seq_init(&s);
	tep_print_event(tp->tep, &s, &rec, "%s", TEP_PRINT_INFO);
	return seq_detach(&s, out);
}

static struct tep_format_field *field_of(struct perfev_tp *tp, const void *raw, size_t size,
					 const char *field)
{
	struct tep_event *ev = event_of(tp, raw, size);
	if (!ev)
		return NULL;
	struct tep_format_field *f = tep_find_any_field(ev, field);
	if (!f)
		return pv_error_null(ENOENT, "tracepoint %s:%s has no field '%s'", ev->system,
				     ev->name, field);
	if (f->offset + f->size > (int)size)
		return pv_error_null(EINVAL, "field '%s' (offset %d, size %d) lies outside the "
				     "%zu bytes of raw data", field, f->offset, f->size, size);
	return f;
}

const char *pv_tp_field_name(struct perfev_tp *tp, uint64_t id, size_t i)
{
	struct tep_event *ev = tp ? tep_find_event(tp->tep, (int)id) : NULL;
	struct tep_format_field *f = ev ? ev->format.fields : NULL;
	for (; f && i; i--)
		f = f->next;
	return f ? f->name : NULL;
}

int pv_tp_field_loc(struct perfev_tp *tp, uint64_t id, const char *field, int *offset, int *size)
{
	struct tep_event *ev = tep_find_event(tp->tep, (int)id);
	struct tep_format_field *f = ev ? tep_find_any_field(ev, field) : NULL;
	if (!f)
		return pv_error(ENOENT, "tracepoint %llu has no field '%s'", (unsigned long long)id, field);
	*offset = f->offset;
	*size = f->size;
	return 0;
}

PERFEV_API int perfev_tp_field_u64(struct perfev_tp *tp, const void *raw, size_t size,
				   const char *field, uint64_t *value)
{
	struct tep_format_field *f = field_of(tp, raw, size, field);
	if (!f)
		return -errno;
	if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC))
		return pv_error(EINVAL, "field '%s' is not a number", field);
	unsigned long long v;
	if (tep_read_number_field(f, raw, &v) < 0)
		return pv_error(EINVAL, "field '%s' of size %d is not a number", field, f->size);
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		int shift = 64 - 8 * f->size;
		v = (unsigned long long)((long long)(v << shift) >> shift);
	}
	*value = v;
	return 0;
}

PERFEV_API int perfev_tp_field_text(struct perfev_tp *tp, const void *raw, size_t size,
				    const char *field, char **out)
{
	*out = NULL;
	struct tep_format_field *f = field_of(tp, raw, size, field);
	if (!f)
		return -errno;
	if (field_fits(f, raw, size) < 0)
		return -EINVAL;
	/* perf's text for a field (report's dynamic sort keys): strings as text,
	 * numbers signed/unsigned by the format, pointers and longs in hex */
	struct trace_seq s;
	trace_seq_init(&s);
	const char *arr = (const char *)raw + f->offset;
	if ((f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) == TEP_FIELD_IS_STRING &&
	    !memchr(arr, 0, (size_t)f->size))
		/* a full char array without its NUL: libtraceevent would print it
		 * with %s and read past it */
		trace_seq_printf(&s, "%.*s", f->size, arr);
	else
		tep_print_field_content(&s, (void *)raw, (int)size, f);
	return seq_detach(&s, out);
}

/* libtraceevent reads an unknown field as "false"; the kernel refuses it.
 * Check every field name where a predicate starts (its left side). */
static int check_field_names(struct tep_event *ev, const char *filter)
{
	bool expect_field = true;
	for (const char *p = filter; *p;) {
		if (*p == '"' || *p == '\'') {
			const char *end = strchr(p + 1, *p);
			p = end ? end + 1 : p + strlen(p);
			expect_field = false;
		} else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' ||
			   (*p >= '0' && *p <= '9')) {
			size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					     "0123456789_");
			char name[128];
			snprintf(name, sizeof(name), "%.*s", (int)PV_MIN(n, sizeof(name) - 1), p);
			bool special = !strcmp(name, "COMM") || !strcmp(name, "CPU") ||
				       !strcmp(name, "common_cpu");
			if (expect_field && !(*p >= '0' && *p <= '9') && !special &&
			    !tep_find_any_field(ev, name))
				return pv_error(EINVAL, "filter '%s': %s:%s has no field '%s' (fields: "
						"see /sys/kernel/tracing/events/%s/%s/format)", filter,
						ev->system, ev->name, name, ev->system, ev->name);
			expect_field = false;
			p += n;
		} else {
			if (*p == '(' || (*p == '!' && p[1] != '=') || (p[0] == '&' && p[1] == '&') ||
			    (p[0] == '|' && p[1] == '|'))
				expect_field = true;
			p++;
		}
	}
	return 0;
}

PERFEV_API int perfev_tp_filter_check(struct perfev_tp *tp, uint64_t id, const char *filter)
{
	struct tep_event *ev = tep_find_event(tp->tep, (int)id);
	if (!ev)
		return pv_error(ENOENT, "no format for tracepoint id %llu to check the filter "
				"against", (unsigned long long)id);
	if (check_field_names(ev, filter) < 0)
		return -EINVAL;
	struct tep_event_filter *f = tep_filter_alloc(tp->tep);
	if (!f)
		return pv_error(ENOMEM, "out of memory");
	char *expr;
	if (asprintf(&expr, "%s/%s:%s", ev->system, ev->name, filter) < 0) {
		tep_filter_free(f);
		return pv_error(ENOMEM, "out of memory");
	}
	/* (libtraceevent 1.7 leaks 2 bytes parsing a '!(...)' term) */
	enum tep_errno e = tep_filter_add_filter_str(f, expr);
	int r = 0;
	if (e < 0) {
		char msg[512] = "";
		tep_filter_strerror(f, e, msg, sizeof(msg));
		r = pv_error(EINVAL, "filter '%s' does not fit %s:%s: %s (fields: see "
			     "/sys/kernel/tracing/events/%s/%s/format)", filter, ev->system,
			     ev->name, msg, ev->system, ev->name);
	}
	free(expr);
	tep_filter_free(f);
	return r;
}

PERFEV_API int perfev_tp_filter_set(struct perfev_tp *tp, uint64_t id, int fd, const char *filter)
{
	/* The kernel decides (its syntax is a little wider than libtraceevent's);
	 * the format check only explains a refusal, which the kernel does not. */
	int r = perfev_ioc_set_filter(fd, filter);
	if (r == 0)
		return 0;
	if (tp && perfev_tp_filter_check(tp, id, filter) < 0)
		return -EINVAL;
	return pv_error(-r, "the kernel refused filter '%s' (%s): check field names and "
			"operators against the event's format", filter, strerror(-r));
}
