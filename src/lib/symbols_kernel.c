/*
 * symbols_kernel.c — kernel and module symbols from /proc/kallsyms. Only
 * text symbols are kept; sizes are the gaps to the next symbol, capped at a
 * module boundary so the last function of one does not swallow the space
 * up to the next. The file (~120k lines) is read in big chunks and parsed
 * in place: hex by hand, a module interned once per run of its lines, and
 * the kept names (not interned: nothing compares kernel names by pointer)
 * compacted to the front of the buffer, which the symbolizer keeps.
 */
#include "symbols_int.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KALLSYMS_MAX (256u << 20)
#define BOUNDARY_CAP 4096
#define READ_CHUNK (1u << 20)

/* The whole file into a malloc'ed, NUL-terminated buffer; 0 or -errno. */
static int read_all(const char *path, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t cap = 0, n = 0;
	char *buf = NULL;
	for (;;) {
		if (cap - n < READ_CHUNK + 1) {
			size_t ncap = cap ? cap * 2 : 8 * READ_CHUNK;
			char *nb = ncap <= KALLSYMS_MAX ? realloc(buf, ncap) : NULL;
			if (!nb) {
				int e = ncap <= KALLSYMS_MAX ? ENOMEM : EFBIG;
				free(buf);
				close(fd);
				return -e;
			}
			buf = nb;
			cap = ncap;
		}
		ssize_t r = read(fd, buf + n, READ_CHUNK);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			int e = errno;
			free(buf);
			close(fd);
			return -e;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

int pv_kallsyms_load(struct perfev_symbolizer *s, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	int ret = read_all(path, &buf, &len);
	if (ret < 0) {
		pv_sym_note(s, "%s: cannot read (%s): kernel addresses stay unresolved; run as root "
			    "or give a copy of the recording machine's kallsyms", path, strerror(-ret));
		return ret;
	}
	size_t zero = 0;
	const char *module = NULL, *mod_text = NULL;
	size_t mod_len = 0;
	const char *end_buf = buf + len;
	char *w = buf; /* compacted names: never ahead of the line being read */
	for (const char *line = buf, *next; line < end_buf; line = next) {
		const char *eol = memchr(line, '\n', (size_t)(end_buf - line));
		if (!eol)
			eol = end_buf;
		next = eol + 1;
		const char *p = line;
		uint64_t addr = 0;
		int v;
		for (; p < eol && (v = hexval((unsigned char)*p)) >= 0; p++)
			addr = addr << 4 | (uint64_t)v;
		if (p == line || p + 3 > eol || p[0] != ' ' || p[2] != ' ')
			continue;
		char type = p[1];
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (addr == 0) {
			zero++;
			continue;
		}
		const char *name = p + 3;
		const char *tab = memchr(name, '\t', (size_t)(eol - name));
		const char *name_end = tab ? tab : eol;
		const char *mod = NULL;
		if (tab) {
			const char *m = tab + 1;
			size_t ml = (size_t)(eol - m);
			if (ml > 2 && m[0] == '[' && m[ml - 1] == ']') {
				if (!(mod_text && mod_len == ml && memcmp(mod_text, m, ml) == 0)) {
					module = pv_strpool_addn(s->pool, m, ml);
					mod_text = m;
					mod_len = ml;
				}
				mod = module;
			}
		}
		size_t nl = (size_t)(name_end - name);
		/* the name's offset for now: the buffer shrinks (and may move) below */
		if (pv_symtab_add(&s->kernel, addr, 0, (const char *)(uintptr_t)(w - buf + 1), mod,
				  type == 'T' ? 2 : 1) < 0) {
			free(buf);
			s->kernel.nr = 0;
			return -ENOMEM;
		}
		memmove(w, name, nl);
		w[nl] = '\0';
		w += nl + 1;
	}
	size_t used = (size_t)(w - buf);
	char *shrunk = realloc(buf, used ? used : 1);
	if (shrunk)
		buf = shrunk;
	s->kernel_names = buf;
	struct pv_symtab *t = &s->kernel;
	for (size_t i = 0; i < t->nr; i++)
		t->syms[i].name = buf + ((uintptr_t)t->syms[i].name - 1);
	pv_symtab_finish(&s->kernel);
	for (size_t i = 0; i + 1 < t->nr; i++)
		if (t->syms[i].module != t->syms[i + 1].module && t->syms[i].size > BOUNDARY_CAP)
			t->syms[i].size = BOUNDARY_CAP;
	if (t->nr && !t->syms[t->nr - 1].size)
		t->syms[t->nr - 1].size = BOUNDARY_CAP;
	if (t->nr == 0)
		pv_sym_note(s, "%s: %s: kernel addresses stay unresolved; run as root or set "
			    "sysctl kernel.kptr_restrict=0", path,
			    zero ? "addresses are hidden (all zero)" : "no text symbols");
	return (int)t->nr;
}
