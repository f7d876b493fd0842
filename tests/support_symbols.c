/* support_symbols.c — see support_symbols.h. */
#define _GNU_SOURCE
#include "support.h"
#include "support_symbols.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *symbols_fixtures(void)
{
	static char dir[4200];
	if (dir[0])
		return dir;
	snprintf(dir, sizeof(dir), "%s/symbols-fixtures", PERFEV_BUILDDIR);
	struct run_result r = run_cmd("%s/tests/data/symbols/build.sh %s", PERFEV_SRCDIR, dir);
	if (r.status != 0) {
		cr_log_warn("fixture build failed: %s", r.err);
		run_result_free(&r);
		dir[0] = '\0';
		cr_skip_test("the symbols fixtures did not build (cc, objcopy, xz needed)");
	}
	run_result_free(&r);
	return dir;
}

const char *fixture(const char *name)
{
	static char bufs[8][4400];
	static int next;
	char *b = bufs[next++ % 8];
	snprintf(b, 4400, "%s/%s", symbols_fixtures(), name);
	return b;
}

struct perfev_map *fixture_maps(const char *path, uint64_t base, size_t *nr)
{
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY);
	cr_assert_geq(fd, 0, "open %s", path);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	cr_assert_not_null(e);
	size_t phnum = 0;
	elf_getphdrnum(e, &phnum);
	struct perfev_map *m = calloc(phnum + 1, sizeof(*m));
	size_t n = 0;
	for (size_t i = 0; i < phnum; i++) {
		GElf_Phdr ph;
		if (!gelf_getphdr(e, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		uint64_t start = (base + ph.p_vaddr) & ~0xfffull;
		uint64_t end = (base + ph.p_vaddr + ph.p_memsz + 0xfff) & ~0xfffull;
		m[n] = (struct perfev_map){.start = start, .end = end,
					   .pgoff = ph.p_offset & ~0xfffull, .path = path,
					   .prot = (ph.p_flags & PF_X) ? 4 : 1};
		n++;
	}
	elf_end(e);
	close(fd);
	*nr = n;
	return m;
}

const struct perfev_map *map_for(const struct perfev_map *maps, size_t nr, uint64_t addr)
{
	for (size_t i = 0; i < nr; i++)
		if (addr >= maps[i].start && addr < maps[i].end)
			return &maps[i];
	return NULL;
}

struct perfev_map *parse_maps(const char *text, size_t *nr)
{
	struct perfev_map *m = NULL;
	size_t n = 0, cap = 0;
	char *copy = strdup(text), *save = NULL;
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long start, end, off, ino;
		unsigned maj, min;
		char perms[8];
		int pos = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &off, &maj,
			   &min, &ino, &pos) < 7)
			continue;
		char *p = line + pos;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			m = realloc(m, cap * sizeof(*m));
		}
		m[n++] = (struct perfev_map){.start = start, .end = end, .pgoff = off,
					     .path = strdup(*p ? p : "//anon"), .maj = maj,
					     .min = min, .ino = ino,
					     .prot = (perms[0] == 'r') | (perms[1] == 'w') << 1 |
						     (perms[2] == 'x') << 2};
	}
	free(copy);
	*nr = n;
	return m;
}

struct perfev_map *proc_maps(int pid, size_t *nr)
{
	char path[64];
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/maps");
	char *text = slurp(path, NULL);
	struct perfev_map *m = parse_maps(text, nr);
	free(text);
	return m;
}

void maps_free(struct perfev_map *maps, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free((char *)maps[i].path);
	free(maps);
}

struct nm_sym *nm_text(const char *path, bool demangle, size_t *nr)
{
	struct run_result r = run_cmd("nm -n -S %s --defined-only '%s'", demangle ? "-C" : "", path);
	cr_assert_eq(r.status, 0, "nm failed: %s", r.err);
	struct nm_sym *s = NULL;
	size_t n = 0, cap = 0;
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long a, sz;
		char t;
		int pos = 0;
		if (sscanf(line, "%llx %llx %c %n", &a, &sz, &t, &pos) < 3 || !pos)
			continue;
		if (t != 'T' && t != 't' && t != 'W' && t != 'i')
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 64;
			s = realloc(s, cap * sizeof(*s));
		}
		s[n++] = (struct nm_sym){a, sz, t, strdup(line + pos)};
	}
	run_result_free(&r);
	*nr = n;
	return s;
}

void nm_free(struct nm_sym *s, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(s[i].name);
	free(s);
}

struct a2l_result *addr2line(const char *path, const uint64_t *addrs, size_t n)
{
	char *in = NULL;
	size_t inlen = 0;
	FILE *f = open_memstream(&in, &inlen);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "0x%llx\n", (unsigned long long)addrs[i]);
	fclose(f);
	char tmp[] = "/tmp/a2l-XXXXXX";
	int fd = mkstemp(tmp);
	cr_assert_eq(write(fd, in, inlen), (ssize_t)inlen);
	close(fd);
	free(in);
	struct run_result r = run_cmd("addr2line -f -i -C -a -e '%s' < %s", path, tmp);
	unlink(tmp);
	cr_assert_eq(r.status, 0, "addr2line failed: %s", r.err);
	struct a2l_result *res = calloc(n, sizeof(*res));
	long cur = -1;
	char *save = NULL;
	for (char *line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "0x", 2) == 0 && cur + 1 < (long)n &&
		    strtoull(line, NULL, 16) == addrs[cur + 1]) {
			cur++;
			continue;
		}
		if (cur < 0)
			continue;
		char *loc = strtok_r(NULL, "\n", &save);
		if (!loc)
			break;
		struct a2l_result *a = &res[cur];
		a->frames = realloc(a->frames, (a->nr + 1) * sizeof(*a->frames));
		char *colon = strrchr(loc, ':');
		unsigned ln = 0;
		if (colon) {
			*colon = '\0';
			ln = (unsigned)strtoul(colon + 1, NULL, 10); /* drops " (discriminator N)" */
		}
		char *slash = strrchr(loc, '/');
		a->frames[a->nr++] = (struct a2l_frame){
			strcmp(line, "??") ? strdup(line) : NULL,
			strcmp(loc, "??") ? strdup(slash ? slash + 1 : loc) : NULL, ln};
	}
	run_result_free(&r);
	return res;
}

void a2l_free(struct a2l_result *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < r[i].nr; j++) {
			free(r[i].frames[j].function);
			free(r[i].frames[j].file);
		}
		free(r[i].frames);
	}
	free(r);
}
