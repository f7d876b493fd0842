/*
 * symbols_dso.c — finding a binary and its debug info, the way gdb and perf
 * do: the binary by build-id first (debug directories, perf's build-id
 * cache), then by path, then through /proc/PID/root (containers); its
 * symbols and DWARF in a separate debug file by build-id, by .gnu_debuglink,
 * from debuginfod (DEBUGINFOD_URLS), and the MiniDebugInfo symbol table
 * (.gnu_debugdata, xz) that distributions leave in stripped binaries.
 * A file whose build-id differs from the recorded one is not used.
 */
#define _GNU_SOURCE
#include "symbols/symbols_int.h"

#include "symbols/debuginfod_dl.h"
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MINIDEBUG_MAX (256u << 20)

static void elf_init_once(void)
{
	static bool done;
	if (!done) {
		elf_version(EV_CURRENT);
		done = true;
	}
}

int pv_elf_open_mem(struct pv_elf *e, void *buf, size_t size)
{
	elf_init_once();
	memset(e, 0, sizeof(*e));
	e->elf = elf_memory(buf, size);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF) {
		if (e->elf)
			elf_end(e->elf);
		free(buf);
		e->elf = NULL;
		return -ENOEXEC;
	}
	e->image = buf;
	e->size = size;
	e->malloced = true;
	return 0;
}

int pv_elf_open_file(struct pv_elf *e, const char *path)
{
	elf_init_once();
	memset(e, 0, sizeof(*e));
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block us */
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf32_Ehdr)) {
		close(fd);
		return -ENOEXEC;
	}
	/* A private writable mapping: libelf may touch the image in place and
	 * the fd can be closed at once (no descriptor per cached binary). */
	void *img = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return -errno;
	e->elf = elf_memory(img, (size_t)st.st_size);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF) {
		if (e->elf)
			elf_end(e->elf);
		munmap(img, (size_t)st.st_size);
		e->elf = NULL;
		return -ENOEXEC;
	}
	e->image = img;
	e->size = (size_t)st.st_size;
	e->path = strdup(path);
	return 0;
}

void pv_elf_close(struct pv_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	if (e->image) {
		if (e->malloced)
			free(e->image);
		else
			munmap(e->image, e->size);
	}
	free(e->path);
	memset(e, 0, sizeof(*e));
}

size_t pv_elf_build_id(Elf *elf, uint8_t *out, size_t max)
{
	const void *p;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &p);
	if (n <= 0 || (size_t)n > max)
		return 0;
	memcpy(out, p, (size_t)n);
	return (size_t)n;
}

static bool has_data(Elf *elf, const char *name)
{
	GElf_Shdr sh;
	return pv_elf_section(elf, name, &sh) && sh.sh_type != SHT_NOBITS && sh.sh_size > 0;
}

int pv_minidebuginfo(Elf *elf, struct pv_elf *out)
{
	GElf_Shdr sh;
	Elf_Scn *scn = pv_elf_section(elf, ".gnu_debugdata", &sh);
	if (!scn || sh.sh_type == SHT_NOBITS)
		return -ENOENT;
	Elf_Data *d = elf_rawdata(scn, NULL);
	if (!d || !d->d_buf || d->d_size == 0)
		return -ENOENT;
	lzma_stream st = LZMA_STREAM_INIT;
	if (lzma_stream_decoder(&st, MINIDEBUG_MAX, 0) != LZMA_OK)
		return -ENOMEM;
	size_t cap = d->d_size * 4 + 4096, len = 0;
	uint8_t *buf = malloc(cap);
	int ret = -ENOMEM;
	if (!buf)
		goto out;
	st.next_in = d->d_buf;
	st.avail_in = d->d_size;
	for (;;) {
		if (len == cap) {
			if (cap >= MINIDEBUG_MAX) {
				ret = -EFBIG;
				goto out;
			}
			size_t ncap = PV_MIN(cap * 2, (size_t)MINIDEBUG_MAX);
			uint8_t *n = realloc(buf, ncap);
			if (!n)
				goto out;
			buf = n;
			cap = ncap;
		}
		st.next_out = buf + len;
		st.avail_out = cap - len;
		lzma_ret r = lzma_code(&st, LZMA_FINISH);
		len = cap - st.avail_out;
		if (r == LZMA_STREAM_END)
			break;
		if (r != LZMA_OK) {
			ret = -EBADMSG;
			goto out;
		}
		if (st.avail_in == 0 && st.avail_out != 0) { /* truncated input */
			ret = -EBADMSG;
			goto out;
		}
	}
	lzma_end(&st);
	return pv_elf_open_mem(out, buf, len);
out:
	lzma_end(&st);
	free(buf);
	return ret;
}

static void hex(const uint8_t *b, size_t n, char *out)
{
	static const char x[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = x[b[i] >> 4];
		out[2 * i + 1] = x[b[i] & 15];
	}
	out[2 * n] = '\0';
}

/* Opens path as an ELF whose build-id, if we know one, matches. */
static bool try_open(struct pv_elf *e, const char *path, const uint8_t *bid, size_t bid_len,
		     bool *mismatch)
{
	if (pv_elf_open_file(e, path) < 0)
		return false;
	if (bid_len) {
		uint8_t got[PERFEV_BUILD_ID_MAX];
		size_t n = pv_elf_build_id(e->elf, got, sizeof(got));
		if (n && (n != bid_len || memcmp(got, bid, n) != 0)) {
			if (mismatch)
				*mismatch = true;
			pv_elf_close(e);
			return false;
		}
	}
	return true;
}

static void *debuginfod(struct perfev_symbolizer *s);

static void find_binary(struct perfev_symbolizer *s, struct pv_dso *d, int pid, const char *path)
{
	char buf[PATH_MAX + 64], h[2 * PERFEV_BUILD_ID_MAX + 1];
	bool mismatch = false;
	if (d->build_id_len) {
		hex(d->build_id, d->build_id_len, h);
		const char *home = getenv("HOME");
		if (home) { /* perf's build-id cache */
			snprintf(buf, sizeof(buf), "%s/.debug/.build-id/%.2s/%s/elf", home, h, h + 2);
			if (try_open(&d->bin, buf, d->build_id, d->build_id_len, NULL))
				return;
		}
		/* DIR/.build-id/xx/rest: the binary itself (Fedora's debug packages) */
		char *copy = strdup(s->debug_dirs), *save = NULL;
		for (char *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir;
		     dir = strtok_r(NULL, ":", &save)) {
			snprintf(buf, sizeof(buf), "%s/.build-id/%.2s/%s", dir, h, h + 2);
			if (try_open(&d->bin, buf, d->build_id, d->build_id_len, NULL)) {
				free(copy);
				return;
			}
		}
		free(copy);
	}
	if (s->opts.symfs && path[0] == '/') {
		/* perf's --symfs: the recording machine's files, not ours */
		snprintf(buf, sizeof(buf), "%s%s", s->opts.symfs, path);
		if (try_open(&d->bin, buf, d->build_id, d->build_id_len, &mismatch))
			return;
	} else if (try_open(&d->bin, path, d->build_id, d->build_id_len, &mismatch)) {
		return;
	}
	if (path[0] == '/' && !s->opts.symfs) {
		if (pid > 0 && !s->opts.no_proc_root) {
			snprintf(buf, sizeof(buf), "/proc/%d/root%s", pid, path);
			if (try_open(&d->bin, buf, d->build_id, d->build_id_len, &mismatch))
				return;
		}
	}
	if (d->build_id_len && debuginfod(s)) { /* the binary itself, by build-id */
		char *got = NULL;
		int fd = debuginfod_find_executable(s->debuginfod, d->build_id,
						    (int)d->build_id_len, &got);
		if (fd >= 0) {
			close(fd);
			bool ok = got && try_open(&d->bin, got, d->build_id, d->build_id_len, NULL);
			free(got);
			if (ok)
				return;
		} else {
			free(got);
		}
	}
	if (mismatch)
		pv_sym_note(s, "%s: the file has a different build-id than the recorded one "
			    "(rebuilt or upgraded since): its addresses stay unresolved; "
			    "keep the recorded binary or its perf build-id cache copy", path);
}

/* Is this a usable debug file: symbols or DWARF, not only NOBITS stubs? */
static bool useful_debug(struct pv_elf *e)
{
	return has_data(e->elf, ".debug_info") || has_data(e->elf, ".symtab");
}

static bool try_debug(struct pv_dso *d, const char *path)
{
	if (!try_open(&d->debug, path, d->build_id, d->build_id_len, NULL))
		return false;
	if (useful_debug(&d->debug))
		return true;
	pv_elf_close(&d->debug);
	return false;
}

static void *debuginfod(struct perfev_symbolizer *s)
{
	if (!s->debuginfod_tried) {
		s->debuginfod_tried = true;
		const char *urls = getenv("DEBUGINFOD_URLS");
		if (!s->opts.no_debuginfod && urls && *urls)
			s->debuginfod = debuginfod_begin();
	}
	return s->debuginfod;
}

static void find_debug(struct perfev_symbolizer *s, struct pv_dso *d)
{
	char buf[PATH_MAX * 2 + 64], h[2 * PERFEV_BUILD_ID_MAX + 1];
	char *dirs = s->debug_dirs, *save = NULL;
	if (d->build_id_len) {
		hex(d->build_id, d->build_id_len, h);
		char *copy = strdup(dirs);
		for (char *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir;
		     dir = strtok_r(NULL, ":", &save)) {
			snprintf(buf, sizeof(buf), "%s/.build-id/%.2s/%s.debug", dir, h, h + 2);
			if (try_debug(d, buf)) {
				free(copy);
				return;
			}
		}
		free(copy);
		const char *home = getenv("HOME");
		if (home) { /* perf's build-id cache keeps debug files beside binaries */
			snprintf(buf, sizeof(buf), "%s/.debug/.build-id/%.2s/%s/debug", home, h, h + 2);
			if (try_debug(d, buf))
				return;
		}
	}
	if (d->bin.elf && d->bin.path) {
		GElf_Word crc;
		const char *link = dwelf_elf_gnu_debuglink(d->bin.elf, &crc);
		if (link && *link && !strchr(link, '/')) {
			char *bdir = strdup(d->bin.path);
			char *slash = bdir ? strrchr(bdir, '/') : NULL;
			if (slash) {
				*slash = '\0';
				snprintf(buf, sizeof(buf), "%s/%s", bdir, link);
				if (strcmp(buf, d->bin.path) != 0 && try_debug(d, buf))
					goto done;
				snprintf(buf, sizeof(buf), "%s/.debug/%s", bdir, link);
				if (try_debug(d, buf))
					goto done;
				/* DEBUGDIR/DIR/link, DIR as mapped (not under --symfs) */
				const char *mdir = bdir;
				size_t fl = s->opts.symfs ? strlen(s->opts.symfs) : 0;
				if (fl && !strncmp(bdir, s->opts.symfs, fl))
					mdir = bdir + fl;
				char *copy = strdup(dirs);
				for (char *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir;
				     dir = strtok_r(NULL, ":", &save)) {
					snprintf(buf, sizeof(buf), "%s%s/%s", dir, mdir, link);
					if (try_debug(d, buf)) {
						free(copy);
						goto done;
					}
				}
				free(copy);
			}
done:
			free(bdir);
			if (d->debug.elf)
				return;
		}
	}
	if (d->build_id_len && debuginfod(s)) {
		char *path = NULL;
		int fd = debuginfod_find_debuginfo(s->debuginfod, d->build_id, (int)d->build_id_len,
						   &path);
		if (fd >= 0) {
			close(fd);
			if (path && !try_debug(d, path))
				pv_sym_note(s, "%s: debuginfod's file %s is not usable debug info",
					    d->name, path);
		}
		free(path);
	}
}

/* A file mapping's pages, given back: a later access reads the file again. */
static void give_back(struct pv_elf *e)
{
	if (e->image && !e->malloced)
		madvise(e->image, e->size, MADV_DONTNEED);
}

static bool special_name(const char *p)
{
	return p[0] == '[' || p[0] == '\0' || strncmp(p, "//anon", 6) == 0 || strncmp(p, "/memfd:", 7) == 0 ||
	       strncmp(p, "/dev/", 5) == 0 || strncmp(p, "/SYSV", 5) == 0;
}

struct pv_dso *pv_dso_load(struct perfev_symbolizer *s, int pid, const char *path,
			   const uint8_t *build_id, size_t build_id_len)
{
	struct pv_dso *d = calloc(1, sizeof(*d));
	if (!d)
		return NULL;
	d->name = pv_strpool_add(s->pool, path);
	if (!d->name) {
		free(d);
		return NULL;
	}
	if (build_id_len > PERFEV_BUILD_ID_MAX)
		build_id_len = 0;
	if (build_id_len)
		memcpy(d->build_id, build_id, build_id_len);
	d->build_id_len = (uint8_t)build_id_len;
	if (strcmp(path, "[vdso]") == 0) {
		const char *v = pv_vdso_path();
		if (v)
			try_open(&d->bin, v, d->build_id, d->build_id_len, NULL);
	} else if (special_name(path)) {
		return d; /* anonymous memory, [heap], [stack]...: nothing to read */
	} else {
		find_binary(s, d, pid, path);
	}
	if (d->bin.elf) {
		d->file = pv_strpool_add(s->pool, d->bin.path);
		if (!d->build_id_len)
			d->build_id_len = (uint8_t)pv_elf_build_id(d->bin.elf, d->build_id,
								    sizeof(d->build_id));
	}
	find_debug(s, d);
	if (d->bin.elf)
		pv_minidebuginfo(d->bin.elf, &d->mini);

	Elf *seg_src = d->bin.elf ? d->bin.elf : d->debug.elf;
	if (seg_src)
		pv_elf_read_segments(seg_src, &d->segs, &d->nr_segs);

	int n = 0;
	if (d->debug.elf)
		n += PV_MAX(0, pv_elf_read_symbols(s->pool, d->debug.elf, &d->syms, false));
	if (!n && d->bin.elf)
		n += PV_MAX(0, pv_elf_read_symbols(s->pool, d->bin.elf, &d->syms, false));
	if (!n && d->mini.elf)
		n += PV_MAX(0, pv_elf_read_symbols(s->pool, d->mini.elf, &d->syms, false));
	bool full = n > 0; /* a .symtab, not only the exported names */
	if (d->bin.elf) {
		n += PV_MAX(0, pv_elf_read_symbols(s->pool, d->bin.elf, &d->syms, true));
		n += PV_MAX(0, pv_elf_read_plt(s->pool, d->bin.elf, &d->syms));
	}
	pv_symtab_finish(&d->syms);
	/* the symbols are copied out: their pages go back (nothing has written
	 * to the mappings yet; libdw may later, decompressing section headers) */
	give_back(&d->bin);
	give_back(&d->debug);

	if (!d->bin.elf && !d->debug.elf) {
		pv_sym_note(s, "%s: binary not found%s: its addresses stay unresolved; make the "
			    "file available at that path (or in ~/.debug/.build-id) or install its "
			    "debug info", path, pid > 0 && !s->opts.no_proc_root ?
			    " (also looked in /proc/PID/root)" : "");
	} else if (!full) {
		pv_sym_note(s, "%s: no symbols (stripped, no separate debug info found): only "
			    "its %zu exported and PLT names are known, its other addresses show "
			    "as [unknown]; install its debug package (-dbgsym, -debuginfo) or set "
			    "DEBUGINFOD_URLS", path, d->syms.nr);
	}
	return d;
}

void pv_dso_free(struct pv_dso *d)
{
	if (!d)
		return;
	if (d->dwarf)
		dwarf_end(d->dwarf);
	for (size_t i = 0; i < d->srcinfo.cap; i++)
		if (d->srcinfo.vals[i]) {
			struct pv_srcinfo *si = d->srcinfo.vals[i];
			free(si->lines);
			free(si);
		}
	pv_u64map_free(&d->srcinfo);
	for (size_t i = 0; i < d->cu_index.cap; i++)
		if (d->cu_index.vals[i])
			pv_cu_index_free(d->cu_index.vals[i]);
	pv_u64map_free(&d->cu_index);
	free(d->cu_ranges);
	free(d->filesyms);
	free(d->aranges);
	pv_elf_close(&d->bin);
	pv_elf_close(&d->debug);
	pv_elf_close(&d->mini);
	pv_elf_close(&d->inflated);
	pv_symtab_free(&d->syms);
	free(d->segs);
	free(d);
}
