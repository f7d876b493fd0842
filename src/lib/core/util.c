/* util.c — the shared helpers of internal.h. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

static __thread char errmsg[2048]; /* explanations with cause and fix run long */
static __thread bool errmsg_set;

static void set_errmsg(int err, const char *fmt, va_list ap)
{
	/* formatted apart first: a message may wrap the last one (perfev_errmsg()) */
	char msg[sizeof(errmsg)];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	memcpy(errmsg, msg, sizeof(msg));
	errmsg_set = true;
	errno = err;
}

int pv_error(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_errmsg(err, fmt, ap);
	va_end(ap);
	return -err;
}

void *pv_error_null(int err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_errmsg(err, fmt, ap);
	va_end(ap);
	return NULL;
}

PERFEV_API const char *perfev_errmsg(void)
{
	if (!errmsg_set)
		return strerror(errno);
	return errmsg;
}

int pv_grow_slow(void *ptr, size_t *cap, size_t need, size_t elsize)
{
	void **p = ptr;
	if (need <= *cap)
		return 0;
	size_t ncap = *cap ? *cap : 8;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return -ENOMEM;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / elsize)
		return -ENOMEM;
	void *n = realloc(*p, ncap * elsize);
	if (!n)
		return -ENOMEM;
	*p = n;
	*cap = ncap;
	return 0;
}

static bool buf_reserve(struct pv_buf *b, size_t extra)
{
	if (b->oom)
		return false;
	if (b->len + extra + 1 <= b->cap)
		return true;
	if (pv_grow(&b->data, &b->cap, b->len + extra + 1, 1) < 0) {
		b->oom = true;
		return false;
	}
	return true;
}

void pv_buf_add(struct pv_buf *b, const void *data, size_t len)
{
	if (!buf_reserve(b, len))
		return;
	if (len) /* data may be NULL for an empty add; memcpy may not take NULL */
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = 0;
}

void pv_buf_puts(struct pv_buf *b, const char *s) { pv_buf_add(b, s, strlen(s)); }
void pv_buf_putc(struct pv_buf *b, char c) { pv_buf_add(b, &c, 1); }

void pv_buf_vprintf(struct pv_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0 || !buf_reserve(b, (size_t)n))
		return;
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void pv_buf_printf(struct pv_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	pv_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void pv_buf_json_str(struct pv_buf *b, const char *s)
{
	pv_buf_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		switch (*p) {
		case '"': pv_buf_puts(b, "\\\""); break;
		case '\\': pv_buf_puts(b, "\\\\"); break;
		case '\n': pv_buf_puts(b, "\\n"); break;
		case '\t': pv_buf_puts(b, "\\t"); break;
		case '\r': pv_buf_puts(b, "\\r"); break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				pv_buf_printf(b, "\\u%04x", *p);
			else
				pv_buf_putc(b, (char)*p);
		}
	}
	pv_buf_putc(b, '"');
}

void pv_buf_reset(struct pv_buf *b)
{
	b->len = 0;
	b->oom = false;
	if (b->data)
		b->data[0] = 0;
}

void pv_buf_free(struct pv_buf *b)
{
	free(b->data);
	*b = (struct pv_buf)PV_BUF_INIT;
}

char *pv_buf_detach(struct pv_buf *b)
{
	char *d = b->data;
	if (!d)
		d = calloc(1, 1);
	*b = (struct pv_buf)PV_BUF_INIT;
	return d;
}

int pv_read_file(const char *path, char **out, size_t *len, size_t max)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pv_error(errno, "cannot open %s: %s", path, strerror(errno));
	/* straight into a doubling buffer: a 10 MB /proc/kallsyms takes a few
	 * dozen reads, a sysfs file one */
	size_t cap = 0, n = 0;
	char *buf = NULL;
	for (;;) {
		if (cap - n < 2) {
			char *nb = realloc(buf, cap ? cap * 2 : 4096);
			if (!nb) {
				free(buf);
				close(fd);
				return pv_error(ENOMEM, "out of memory reading %s", path);
			}
			buf = nb;
			cap = cap ? cap * 2 : 4096;
		}
		/* never more than one byte past max: that byte says "too large" */
		ssize_t r = read(fd, buf + n, PV_MIN(cap - n - 1, max - n + 1));
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			close(fd);
			return pv_error(e, "cannot read %s: %s", path, strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			free(buf);
			close(fd);
			return pv_error(EFBIG, "%s is larger than %zu bytes", path, max);
		}
	}
	close(fd);
	buf[n] = '\0'; /* reads leave a byte free */
	if (len)
		*len = n;
	*out = buf;
	return 0;
}

int pv_read_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t n;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	int e = errno;
	close(fd);
	if (n < 0)
		return -e;
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

int pv_read_i64(const char *path, int64_t *out)
{
	char line[64], *end;
	int r = pv_read_line(path, line, sizeof(line));
	if (r < 0)
		return r;
	errno = 0;
	long long v = strtoll(line, &end, 0);
	if (errno || end == line)
		return -EINVAL;
	*out = v;
	return 0;
}

int pv_write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = strlen(s);
	ssize_t n = write(fd, s, len);
	int e = errno;
	close(fd);
	if (n < 0)
		return -e;
	return (size_t)n == len ? 0 : -EIO;
}

char *pv_strdup(const char *s)
{
	char *d = strdup(s);
	if (!d)
		return pv_error_null(ENOMEM, "out of memory");
	return d;
}

char *pv_strndup(const char *s, size_t n)
{
	char *d = strndup(s, n);
	if (!d)
		return pv_error_null(ENOMEM, "out of memory");
	return d;
}

PERFEV_API const char *perfev_version(void)
{
	return PERFEV_VERSION_STRING;
}

bool pv_has_cap(int cap)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];
	if (cap < 0 || cap >= 64 || syscall(SYS_capget, &h, d) < 0)
		return false;
	return (d[cap / 32].effective >> (cap % 32)) & 1;
}

int pv_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int pv_pwrite_all(int fd, const void *data, size_t len, uint64_t off)
{
	const char *p = data;
	while (len) {
		ssize_t w = pwrite(fd, p, len, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? -errno : -EIO;
		p += w;
		len -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

int pv_kallsyms_addrs(const char *path, const char *const *names, size_t n, uint64_t *addrs)
{
	memset(addrs, 0, n * sizeof(*addrs));
	FILE *f = fopen(path ? path : "/proc/kallsyms", "re");
	if (!f)
		return -errno;
	char line[512];
	for (size_t found = 0; found < n && fgets(line, sizeof(line), f);) {
		/* "ADDR T NAME[\t[MODULE]]" */
		char *sp = strchr(line, ' ');
		char *nm = sp && sp[1] && sp[2] == ' ' ? sp + 3 : NULL;
		size_t len = nm ? strcspn(nm, "\t\n") : 0;
		for (size_t i = 0; i < n; i++)
			if (!addrs[i] && len == strlen(names[i]) && !strncmp(nm, names[i], len) &&
			    (addrs[i] = strtoull(line, NULL, 16)))
				found++;
	}
	fclose(f);
	return 0;
}

bool pv_list_has(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *c = list; c; c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL)
		if (!strncmp(c, name, len) && (c[len] == ',' || !c[len]))
			return true;
	return false;
}

bool pv_opts_valid(const void *opts, size_t known_sz, const char *type_name)
{
	if (!opts)
		return true;
	size_t sz = *(const size_t *)opts;
	if (sz < sizeof(size_t)) {
		pv_error(EINVAL, "struct %s: its sz is %zu; set it to sizeof(struct %s)", type_name, sz, type_name);
		return false;
	}
	const unsigned char *p = opts;
	for (size_t i = known_sz; i < sz; i++)
		if (p[i]) {
			pv_error(EINVAL, "struct %s: byte %zu is set, but this libperfev knows the struct's first "
				 "%zu bytes only (a newer caller's field): build against this library's headers",
				 type_name, i, known_sz);
			return false;
		}
	return true;
}
