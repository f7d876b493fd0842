/*
 * Inflated copies of debug files with compressed sections (zlib, zstd):
 * the symbolizer's lines and inline chains through the cached copy equal
 * those read from the compressed file itself, the copy is written once and
 * reused, a damaged copy is replaced, uncompressed files get none.
 */
#define _GNU_SOURCE
#include "support.h"
#include "support_symbols.h"
#include "symbols/symbols_int.h"

#include <dirent.h>
#include <elfutils/version.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char xdg[512];

/* A copy of the inl fixture with its debug sections compressed by `how`. */
static const char *compressed_fixture(const char *how)
{
	static char path[600];
	snprintf(xdg, sizeof(xdg), "%s/dcache-%s-XXXXXX", test_tmpdir(), how);
	cr_assert(mkdtemp(xdg));
	snprintf(path, sizeof(path), "%s/inl.%s", xdg, how);
	struct run_result r = run_cmd("objcopy --compress-debug-sections=%s '%s' '%s' 2>&1", how,
				      fixture("inl"), path);
	bool ok = r.status == 0;
	run_result_free(&r);
	if (!ok)
		cr_skip_test("objcopy cannot compress debug sections with %s", how);
	setenv("XDG_CACHE_HOME", xdg, 1);
	return path;
}

static size_t copies(void)
{
	char dir[600];
	snprintf(dir, sizeof(dir), "%s/perfev", xdg);
	DIR *d = opendir(dir);
	size_t n = 0;
	for (struct dirent *e; d && (e = readdir(d));)
		n += strncmp(e->d_name, "dwarf-", 6) == 0;
	if (d)
		closedir(d);
	return n;
}

static struct perfev_symbolizer *new_sym(bool no_cache)
{
	struct perfev_symbolizer_opts o = {.sz = sizeof(o), .no_debuginfod = true,
					   .kallsyms = "", .no_cache = no_cache};
	struct perfev_symbolizer *s = perfev_symbolizer_new(&o);
	cr_assert_not_null(s);
	return s;
}

/* Resolves several addresses in every function of path with both; returns
 * how many have a line number. */
static size_t same_lines(struct perfev_symbolizer *a, struct perfev_symbolizer *b, const char *path)
{
	size_t nsyms, n = 0;
	struct nm_sym *syms = nm_text(fixture("inl"), false, &nsyms);
	cr_assert_gt(nsyms, 3);
	unsigned flags = PERFEV_RESOLVE_INLINE | PERFEV_RESOLVE_SRCLINE;
	for (size_t i = 0; i < nsyms; i++)
		for (uint64_t off = 0; off < syms[i].size; off += 3) {
			struct perfev_location x, y;
			int rx = perfev_symbolizer_resolve_file(a, path, syms[i].addr + off, flags, &x);
			int ry = perfev_symbolizer_resolve_file(b, path, syms[i].addr + off, flags, &y);
			cr_assert_eq(rx, ry);
			cr_assert_str_eq(x.symbol ? x.symbol : "", y.symbol ? y.symbol : "");
			cr_assert_eq(x.nr_lines, y.nr_lines, "%s+%llu", syms[i].name, (unsigned long long)off);
			for (size_t k = 0; k < x.nr_lines; k++) {
				const struct perfev_source_line *p = &x.lines[k], *q = &y.lines[k];
				cr_assert_str_eq(p->function ? p->function : "", q->function ? q->function : "");
				cr_assert_str_eq(p->file ? p->file : "", q->file ? q->file : "");
				cr_assert_eq(p->line, q->line);
				cr_assert_eq(p->column, q->column);
			}
			n += x.nr_lines > 0 && x.lines[0].line > 0; /* DWARF's (not a file the symbol table names) */
		}
	nm_free(syms, nsyms);
	return n;
}

static bool used_copy(struct perfev_symbolizer *s, const char *path)
{
	struct pv_dso *d = pv_symbolizer_dso(s, -1, path, NULL, 0, NULL);
	return d && d->inflated.elf;
}

static void check(const char *how)
{
	symbols_fixtures();
	const char *path = compressed_fixture(how);
	struct perfev_symbolizer *plain = new_sym(true), *first = new_sym(false);
	cr_expect_gt(same_lines(plain, first, path), 10, "lines compared");
	cr_expect_eq(copies(), 1, "one inflated copy written");
	cr_expect(used_copy(first, path));
	cr_expect(!used_copy(plain, path), "no_cache reads the file itself");
	struct perfev_symbolizer *second = new_sym(false);
	same_lines(plain, second, path);
	cr_expect(used_copy(second, path), "the next symbolizer maps the copy");
	cr_expect_eq(copies(), 1);
	perfev_symbolizer_free(first);
	perfev_symbolizer_free(second);
	perfev_symbolizer_free(plain);
	unsetenv("XDG_CACHE_HOME");
}

Test(unit_dcache, zlib_copy_same_lines, .timeout = 60) { check("zlib"); }
Test(unit_dcache, zstd_copy_same_lines, .timeout = 60)
{
#if _ELFUTILS_PREREQ(0, 189)
	check("zstd");
#else
	/* what this libdw cannot read gets no copy either (it would add lines) */
	symbols_fixtures();
	const char *path = compressed_fixture("zstd");
	struct perfev_symbolizer *plain = new_sym(true), *s = new_sym(false);
	cr_expect_eq(same_lines(plain, s, path), 0, "libdw %d reads no zstd sections", _ELFUTILS_VERSION);
	cr_expect_eq(copies(), 0, "and no copy is made");
	perfev_symbolizer_free(s);
	perfev_symbolizer_free(plain);
	unsetenv("XDG_CACHE_HOME");
#endif
}

Test(unit_dcache, damaged_copy_replaced, .timeout = 60)
{
	symbols_fixtures();
	const char *path = compressed_fixture("zlib");
	struct perfev_symbolizer *plain = new_sym(true), *s = new_sym(false);
	same_lines(plain, s, path);
	perfev_symbolizer_free(s);
	/* cut the copy short: its section headers no longer fit */
	struct run_result r = run_cmd("f=$(ls %s/perfev/dwarf-*); truncate -s 4096 \"$f\"", xdg);
	cr_assert_eq(r.status, 0);
	run_result_free(&r);
	s = new_sym(false);
	cr_expect_gt(same_lines(plain, s, path), 10);
	cr_expect(used_copy(s, path), "a new copy replaced the damaged one");
	perfev_symbolizer_free(s);
	perfev_symbolizer_free(plain);
	unsetenv("XDG_CACHE_HOME");
}

Test(unit_dcache, uncompressed_file_gets_no_copy)
{
	symbols_fixtures();
	struct pv_elf e, out;
	cr_assert_eq(pv_elf_open_file(&e, fixture("inl")), 0);
	cr_expect_eq(pv_dcache_open(&e, &out), -ENOENT);
	cr_expect_null(out.elf);
	pv_elf_close(&e);
}

Test(unit_dcache, older_copies_of_a_build_id_go, .timeout = 60)
{
	symbols_fixtures();
	const char *path = compressed_fixture("zlib");
	struct run_result r = run_cmd("readelf -n '%s' | awk '/Build ID/ {print $3}'", path);
	cr_assert_eq(r.status, 0);
	r.out[strcspn(r.out, "\n")] = '\0';
	char dir[600], stale[900], other[900];
	snprintf(dir, sizeof(dir), "%s/perfev", xdg);
	cr_assert_eq(mkdir(dir, 0700), 0);
	snprintf(stale, sizeof(stale), "%s/dwarf-%s-1-1.000000000.elf", dir, r.out);
	snprintf(other, sizeof(other), "%s/dwarf-00ff-1-1.000000000.elf", dir);
	run_result_free(&r);
	FILE *f = fopen(stale, "w");
	cr_assert(f);
	fclose(f);
	f = fopen(other, "w");
	cr_assert(f);
	fclose(f);
	struct perfev_symbolizer *plain = new_sym(true), *s = new_sym(false);
	cr_expect_gt(same_lines(plain, s, path), 10);
	cr_expect_neq(access(stale, F_OK), 0, "the older copy of this build-id was removed");
	cr_expect_eq(access(other, F_OK), 0, "another build-id's copy stays");
	cr_expect_eq(copies(), 2);
	perfev_symbolizer_free(s);
	perfev_symbolizer_free(plain);
	unsetenv("XDG_CACHE_HOME");
}
