/*
 * symbols_dcache.c — decompressed copies of debug files, cached.
 *
 * Distributions compress debug sections (SHF_COMPRESSED); libdw inflates
 * every one of them when it opens the file: libc's 4 MB debug file becomes
 * 11 MB of heap and ~30 ms of CPU, for the two or three addresses of libc a
 * frame-pointer report asks about. So the first use writes a copy whose
 * sections are stored inflated ($XDG_CACHE_HOME/perfev/dwarf-BUILDID-SIZE-
 * MTIME.elf), and later runs map it: libdw then reads in place, and only
 * the pages of the units it visits become resident.
 *
 * The copy is the original file at the same offsets (the compressed bytes
 * left as a hole), each compressed section's inflated bytes appended, and a
 * new section header table pointing at them: the same ELF header, program
 * headers and sections as the original, so libdw sees the same DWARF. The
 * name carries the original's build-id, size and modification time; the
 * copy is checked against the original's section headers before use, and
 * written like the kallsyms index (temporary file and rename, in our own
 * 0700 directory, no symlinks followed). 64-bit native-endian ELF, and the
 * compressions libdw reads itself, only; anything else is opened as before.
 * A new copy replaces older ones of its build-id; past 2 GB in all, the
 * oldest copies go.
 */
#define _GNU_SOURCE
#include "symbols/symbols_int.h"

#include <dirent.h>
#include <elfutils/version.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2 /* elf.h before glibc 2.37 */
#endif
/* Only what libdw itself can inflate (zstd since 0.189): a copy must not
 * make readable what the file alone is not. */
#if _ELFUTILS_PREREQ(0, 189)
#define ZSTD_OK 1
#else
#define ZSTD_OK 0
#endif
#define MAX_SECTIONS 4096
#define DCACHE_MAX (2ull << 30) /* all copies together, on disk */
#define MAX_INFLATED (1ull << 30)

/* The original's section headers, and its compressed sections' headers. */
struct sections {
	Elf64_Shdr *sh;
	size_t n;
	Elf64_Chdr *ch; /* ch[i].ch_type 0: section i is not compressed */
	size_t ncomp;
};

static int read_sections(const struct pv_elf *e, struct sections *s, uint64_t max_inflated)
{
	memset(s, 0, sizeof(*s));
	const unsigned char *img = e->image;
	if (e->size < sizeof(Elf64_Ehdr) || img[EI_CLASS] != ELFCLASS64 ||
	    img[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		return -ENOTSUP;
	Elf64_Ehdr eh;
	memcpy(&eh, img, sizeof(eh));
	if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shoff > e->size)
		return -ENOTSUP;
	size_t n = eh.e_shnum;
	if (n == 0 && eh.e_shoff && e->size - eh.e_shoff >= sizeof(Elf64_Shdr)) {
		Elf64_Shdr z;
		memcpy(&z, img + eh.e_shoff, sizeof(z));
		n = (size_t)z.sh_size; /* extended numbering */
	}
	if (n == 0 || n > MAX_SECTIONS || (e->size - eh.e_shoff) / sizeof(Elf64_Shdr) < n)
		return -ENOTSUP;
	s->sh = malloc(n * sizeof(*s->sh));
	s->ch = calloc(n, sizeof(*s->ch));
	if (!s->sh || !s->ch) {
		free(s->sh);
		free(s->ch);
		return -ENOMEM;
	}
	memcpy(s->sh, img + eh.e_shoff, n * sizeof(*s->sh));
	s->n = n;
	/* GNU .zdebug sections: libdw inflates them itself, rewriting their
	 * headers in the mapping, which the copy's pages must never hold */
	size_t stri = eh.e_shstrndx == SHN_XINDEX ? s->sh[0].sh_link : eh.e_shstrndx;
	const Elf64_Shdr *st = stri < n ? &s->sh[stri] : NULL;
	if (!st || st->sh_offset > e->size || st->sh_size > e->size - st->sh_offset)
		goto unsupported;
	if (memmem(img + st->sh_offset, st->sh_size, ".zdebug", 7))
		goto unsupported;
	for (size_t i = 0; i < n; i++) {
		const Elf64_Shdr *h = &s->sh[i];
		if (!(h->sh_flags & SHF_COMPRESSED) || h->sh_type == SHT_NOBITS)
			continue;
		if (h->sh_offset > e->size || h->sh_size > e->size - h->sh_offset ||
		    h->sh_size < sizeof(Elf64_Chdr))
			goto unsupported;
		memcpy(&s->ch[i], img + h->sh_offset, sizeof(Elf64_Chdr));
		const Elf64_Chdr *c = &s->ch[i];
		if ((c->ch_type != ELFCOMPRESS_ZLIB && (c->ch_type != ELFCOMPRESS_ZSTD || !ZSTD_OK)) ||
		    c->ch_size > max_inflated || c->ch_addralign > 4096 ||
		    (c->ch_addralign & (c->ch_addralign - 1)))
			goto unsupported;
		s->ncomp++;
	}
	return 0;
unsupported:
	free(s->sh);
	free(s->ch);
	memset(s, 0, sizeof(*s));
	return -ENOTSUP;
}

static void free_sections(struct sections *s)
{
	free(s->sh);
	free(s->ch);
	memset(s, 0, sizeof(*s));
}

static int cache_name(const struct pv_elf *e, char *out, size_t len)
{
	uint8_t bid[PERFEV_BUILD_ID_MAX];
	size_t n = pv_elf_build_id(e->elf, bid, sizeof(bid));
	struct stat st;
	if (!n || !e->path || stat(e->path, &st) < 0)
		return -ENOENT;
	char hex[2 * PERFEV_BUILD_ID_MAX + 1];
	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", bid[i]);
	snprintf(out, len, "dwarf-%s-%llu-%lld.%09ld.elf", hex, (unsigned long long)st.st_size,
		 (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	return 0;
}

static int inflate_section(const struct pv_elf *e, const Elf64_Shdr *h, const Elf64_Chdr *c,
			   void **out)
{
	const unsigned char *src = (const unsigned char *)e->image + h->sh_offset + sizeof(*c);
	size_t srclen = (size_t)h->sh_size - sizeof(*c);
	size_t n = (size_t)c->ch_size;
	unsigned char *buf = malloc(n ? n : 1);
	if (!buf)
		return -ENOMEM;
	bool ok;
	if (c->ch_type == ELFCOMPRESS_ZLIB) {
		uLongf got = n;
		ok = uncompress(buf, &got, src, srclen) == Z_OK && got == n;
	} else {
		size_t got = ZSTD_decompress(buf, n, src, srclen);
		ok = !ZSTD_isError(got) && got == n;
	}
	if (!ok) {
		free(buf);
		return -EBADMSG;
	}
	*out = buf;
	return 0;
}

/* Writes the inflated copy of e into fd. */
static int write_copy(int fd, const struct pv_elf *e, const struct sections *s)
{
	/* the original, less the compressed bytes (a hole reads as zeros) */
	uint64_t pos = 0;
	for (;;) {
		uint64_t next = e->size, skip_to = e->size;
		for (size_t i = 0; i < s->n; i++)
			if (s->ch[i].ch_type && s->sh[i].sh_offset >= pos && s->sh[i].sh_offset < next) {
				next = s->sh[i].sh_offset;
				skip_to = next + s->sh[i].sh_size;
			}
		int r = pv_pwrite_all(fd, (const char *)e->image + pos, (size_t)(next - pos), (off_t)pos);
		if (r < 0)
			return r;
		if (next >= e->size)
			break;
		pos = PV_MAX(skip_to, next);
	}
	if (ftruncate(fd, (off_t)e->size) < 0)
		return -errno;
	Elf64_Shdr *sh = malloc(s->n * sizeof(*sh));
	if (!sh)
		return -ENOMEM;
	memcpy(sh, s->sh, s->n * sizeof(*sh));
	uint64_t end = e->size;
	for (size_t i = 0; i < s->n; i++) {
		const Elf64_Chdr *c = &s->ch[i];
		if (!c->ch_type)
			continue;
		void *data;
		int r = inflate_section(e, &s->sh[i], c, &data);
		if (r < 0) {
			free(sh);
			return r;
		}
		uint64_t align = c->ch_addralign ? c->ch_addralign : 1;
		end = (end + align - 1) & ~(align - 1);
		r = pv_pwrite_all(fd, data, (size_t)c->ch_size, (off_t)end);
		free(data);
		if (r < 0) {
			free(sh);
			return r;
		}
		sh[i].sh_offset = end;
		sh[i].sh_size = c->ch_size;
		sh[i].sh_addralign = c->ch_addralign;
		sh[i].sh_flags &= ~(uint64_t)SHF_COMPRESSED;
		end += c->ch_size;
	}
	end = (end + 7) & ~7ull;
	int r = pv_pwrite_all(fd, sh, s->n * sizeof(*sh), (off_t)end);
	free(sh);
	if (r < 0)
		return r;
	Elf64_Ehdr eh;
	memcpy(&eh, e->image, sizeof(eh));
	eh.e_shoff = end;
	return pv_pwrite_all(fd, &eh, sizeof(eh), 0);
}

/* Is c (an opened copy) the inflated form of the original's sections? */
static bool copy_matches(const struct pv_elf *c, const struct sections *s)
{
	struct sections cs;
	if (read_sections(c, &cs, MAX_INFLATED) < 0)
		return false;
	bool ok = cs.n == s->n && cs.ncomp == 0;
	for (size_t i = 0; ok && i < s->n; i++) {
		const Elf64_Shdr *a = &s->sh[i], *b = &cs.sh[i];
		ok = a->sh_name == b->sh_name && a->sh_type == b->sh_type &&
		     (s->ch[i].ch_type ? b->sh_size == s->ch[i].ch_size
				       : (b->sh_size == a->sh_size && b->sh_offset == a->sh_offset));
		if (ok && b->sh_type != SHT_NOBITS)
			ok = b->sh_offset <= c->size && b->sh_size <= c->size - b->sh_offset;
	}
	free_sections(&cs);
	return ok;
}

static int open_copy(int dirfd, const char *name, struct pv_elf *out)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid();
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* through our descriptor: the file checked is the file mapped */
	int r = ok ? pv_elf_open_file(out, path) : -EPERM;
	close(fd);
	return r;
}

/*
 * After writing `keep`: older copies of the same build-id (the debug file
 * changed) go, and the oldest copies while all of them hold more than
 * DCACHE_MAX bytes. The directory is ours and only holds our files.
 */
static void evict(int dirfd, const char *keep)
{
	int fd = dup(dirfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	const char *dash = strchr(keep + 6, '-'); /* "dwarf-BID-": the build-id's prefix */
	size_t idlen = dash ? (size_t)(dash - keep) + 1 : 0;
	struct copy {
		char name[256];
		time_t mtime;
		off_t blocks;
	} *c = NULL;
	size_t n = 0, cap = 0;
	uint64_t total = 0;
	for (struct dirent *de; (de = readdir(dir));) {
		struct stat st;
		if (strncmp(de->d_name, "dwarf-", 6) != 0 || strcmp(de->d_name, keep) == 0 ||
		    strlen(de->d_name) >= sizeof(c->name) ||
		    fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISREG(st.st_mode))
			continue;
		if (idlen && strncmp(de->d_name, keep, idlen) == 0) {
			unlinkat(dirfd, de->d_name, 0);
			continue;
		}
		if (pv_grow(&c, &cap, n + 1, sizeof(*c)) < 0)
			break;
		snprintf(c[n].name, sizeof(c[n].name), "%s", de->d_name);
		c[n].mtime = st.st_mtime;
		c[n].blocks = st.st_blocks;
		total += (uint64_t)st.st_blocks * 512;
		n++;
	}
	closedir(dir);
	while (total > DCACHE_MAX && n) {
		size_t old = 0;
		for (size_t i = 1; i < n; i++)
			if (c[i].mtime < c[old].mtime)
				old = i;
		unlinkat(dirfd, c[old].name, 0);
		total -= (uint64_t)c[old].blocks * 512;
		c[old] = c[--n];
	}
	free(c);
}

int pv_dcache_write(int fd, const struct pv_elf *e, uint64_t max_inflated)
{
	struct sections s;
	int r = read_sections(e, &s, max_inflated);
	if (r < 0)
		return r;
	r = s.ncomp ? write_copy(fd, e, &s) : -ENOTSUP;
	free_sections(&s);
	return r;
}

bool pv_dcache_matches(const struct pv_elf *e, const struct pv_elf *copy)
{
	struct sections s;
	if (read_sections(e, &s, MAX_INFLATED) < 0)
		return false;
	bool ok = copy_matches(copy, &s);
	free_sections(&s);
	return ok;
}

int pv_dcache_open(const struct pv_elf *e, struct pv_elf *out)
{
	memset(out, 0, sizeof(*out));
	if (!e->elf || e->malloced || !e->path)
		return -ENOENT;
	struct sections s;
	int r = read_sections(e, &s, MAX_INFLATED);
	if (r < 0)
		return r;
	char name[256];
	if (s.ncomp == 0 || cache_name(e, name, sizeof(name)) < 0) {
		free_sections(&s);
		return -ENOENT;
	}
	int dfd = pv_kcache_dir(&(struct pv_kcache_src){0});
	if (dfd < 0) {
		free_sections(&s);
		return dfd;
	}
	if (open_copy(dfd, name, out) == 0) {
		if (copy_matches(out, &s))
			goto done;
		pv_elf_close(out);
	}
	char tmp[300];
	snprintf(tmp, sizeof(tmp), ".%s.%d.tmp", name, (int)getpid());
	unlinkat(dfd, tmp, 0);
	int fd = openat(dfd, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	r = fd < 0 ? -errno : write_copy(fd, e, &s);
	if (fd >= 0 && close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dfd, tmp, dfd, name) < 0)
		r = -errno;
	if (r < 0) {
		unlinkat(dfd, tmp, 0);
	} else if ((r = open_copy(dfd, name, out)) == 0 && !copy_matches(out, &s)) {
		pv_elf_close(out);
		r = -EBADMSG;
	} else {
		evict(dfd, name);
	}
done:
	if (r == 0) /* pages are read where libdw looks, not in 64 KB runs around */
		madvise(out->image, out->size, MADV_RANDOM);
	close(dfd);
	free_sections(&s);
	return r;
}
