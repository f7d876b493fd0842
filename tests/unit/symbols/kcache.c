/*
 * The kallsyms index cache on synthetic kernels (a kallsyms, /proc/modules,
 * boot_id and sysctls in files): what it answers equals the parsed file,
 * it answers nothing that could be BPF or a trampoline, a changed boot or
 * module set invalidates it, corrupt, truncated, foreign-endian or planted
 * files are rejected (and rebuilt), hidden addresses are never cached.
 */
#define _GNU_SOURCE
#include "support.h"
#include "symbols/symbols_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* header offsets (struct kc_hdr) */
#define OFF_ORDER 8
#define OFF_NR_SYMS 80
#define HDR 128

struct fake {
	char dir[256], cache[300], kallsyms[300], modules[300], boot[300], kptr[300], par[300];
	struct pv_kcache_src src;
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	fclose(f);
}

/* The kernel, two modules, then what comes and goes: BPF, a trampoline,
 * ftrace's copy of a module's init code (the module's tag again). */
static const char KALLSYMS[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 t core_a\n"
	"ffffffff81000200 T core_b\n"
	"ffffffff81000280 D some_data\n"
	"ffffffff81000300 W core_c\n"
	"ffffffff81001000 T core_last\n"
	"ffffffffa0000000 t mod1_a\t[mod1]\n"
	"ffffffffa0000080 T mod1_b\t[mod1]\n"
	"ffffffffa0000100 t mod1_c\t[mod1]\n"
	"ffffffffa0002000 t mod2_a\t[mod2]\n"
	"ffffffffa0002040 t mod2_b\t[mod2]\n"
	"ffffffffa0001000 t bpf_prog_1234_f\t[bpf]\n"
	"ffffffffa0003000 t ftrace_trampoline\t[__builtin__ftrace]\n"
	"ffffffffa0000110 t mod1_init_copy\t[mod1]\n";
static const char MODULES[] =
	"mod1 16384 0 - Live 0xffffffffa0000000\n"
	"mod2 8192 1 mod1, Live 0xffffffffa0002000 (O)\n";

static void fake_kernel(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->dir, sizeof(f->dir), "%s/kc-XXXXXX", test_tmpdir());
	cr_assert(mkdtemp(f->dir));
	snprintf(f->cache, sizeof(f->cache), "%s/cache", f->dir);
	snprintf(f->kallsyms, sizeof(f->kallsyms), "%s/kallsyms", f->dir);
	snprintf(f->modules, sizeof(f->modules), "%s/modules", f->dir);
	snprintf(f->boot, sizeof(f->boot), "%s/boot_id", f->dir);
	snprintf(f->kptr, sizeof(f->kptr), "%s/kptr_restrict", f->dir);
	snprintf(f->par, sizeof(f->par), "%s/paranoid", f->dir);
	put(f->kallsyms, KALLSYMS);
	put(f->modules, MODULES);
	put(f->boot, "6a1c1d2e-0000-4000-8000-000000000001\n");
	put(f->kptr, "0\n");
	put(f->par, "2\n");
	f->src = (struct pv_kcache_src){.kallsyms = f->kallsyms, .modules = f->modules,
					.boot_id = f->boot, .kptr_restrict = f->kptr,
					.paranoid = f->par, .dir = f->cache};
}

static struct perfev_symbolizer *new_sym(void)
{
	struct perfev_symbolizer_opts o = {.sz = sizeof(o), .no_debuginfod = true, .kallsyms = ""};
	struct perfev_symbolizer *s = perfev_symbolizer_new(&o);
	cr_assert_not_null(s);
	return s;
}

static char *cache_file(struct fake *f)
{
	static char p[400];
	snprintf(p, sizeof(p), "%s/%s", f->cache, PV_KCACHE_FILE);
	return p;
}

/* Loads through the cache: 1 if it came from the index, 0 if parsed. */
static int load(struct perfev_symbolizer *s, struct fake *f, struct pv_ktab *t)
{
	int n = pv_kcache_load(s, &f->src, t);
	cr_assert_gt(n, 0, "load: %d", n);
	return t->partial ? 1 : 0;
}

/* Every probe the cache answers is what the parsed file says. */
static size_t compare(const struct pv_ktab *full, const struct pv_ktab *c, size_t *answered)
{
	size_t probes = 0;
	*answered = 0;
	for (size_t i = 0; i < full->nr; i++) {
		uint64_t a = full->syms[i].start;
		uint64_t next = i + 1 < full->nr ? full->syms[i + 1].start : a + 8192;
		uint64_t at[] = {a - 1, a, a + 1, a + (next - a) / 2, next - 1, a + 4096, a + 5000};
		for (size_t k = 0; k < PV_ARRAY_SIZE(at); k++) {
			const char *n1 = NULL, *m1 = NULL, *n2 = NULL, *m2 = NULL;
			uint64_t s1 = 0, s2 = 0;
			int r1 = pv_kallsyms_find(full, at[k], &n1, &m1, &s1);
			int r2 = pv_kallsyms_find(c, at[k], &n2, &m2, &s2);
			probes++;
			if (r2 == -EAGAIN)
				continue;
			(*answered)++;
			cr_assert_eq(r1, r2, "%#llx: %d vs cached %d", (unsigned long long)at[k], r1, r2);
			if (r1 == 1) {
				cr_assert_str_eq(n1, n2, "%#llx", (unsigned long long)at[k]);
				cr_assert_eq(s1, s2);
				cr_assert_str_eq(m1 ? m1 : "", m2 ? m2 : "");
			}
		}
	}
	return probes;
}

Test(unit_kcache, written_then_read_same_answers)
{
	struct fake f;
	fake_kernel(&f);
	struct perfev_symbolizer *s = new_sym();
	struct pv_ktab full, cached;
	cr_assert_eq(load(s, &f, &full), 0, "first run parses");
	struct stat st;
	cr_assert_eq(stat(f.cache, &st), 0, "the cache directory is created");
	cr_expect_eq(st.st_mode & 0777, 0700);
	cr_assert_eq(stat(cache_file(&f), &st), 0, "the index is written");
	cr_expect_eq(st.st_mode & 0777, 0600);
	cr_assert_eq(load(s, &f, &cached), 1, "second run maps the index");
	cr_expect_not_null(cached.map);

	size_t answered, probes = compare(&full, &cached, &answered);
	cr_expect_gt(answered, probes / 3, "the cache answers lookups between neighbours (%zu of %zu)", answered, probes);

	const char *n, *m;
	uint64_t st0;
	/* the kernel and modules, between neighbours */
	cr_expect_eq(pv_kallsyms_find(&cached, 0xffffffff81000150, &n, &m, &st0), 1);
	cr_expect_str_eq(n, "core_a");
	cr_expect_null(m);
	cr_expect_eq(pv_kallsyms_find(&cached, 0xffffffffa0002010, &n, &m, &st0), 1);
	cr_expect_str_eq(n, "mod2_a");
	cr_expect_str_eq(m, "[mod2]");
	/* not answered: BPF, trampolines, ftrace's init copy, last symbols, gaps */
	uint64_t open[] = {0xffffffffa0001000, 0xffffffffa0001010, 0xffffffffa0003000,
			   0xffffffffa0000110, 0xffffffffa0000105, 0xffffffff81001000,
			   0xffffffffa0002050, 0xffffffff80000000, 0xffffffff90000000};
	for (size_t i = 0; i < PV_ARRAY_SIZE(open); i++)
		cr_expect_eq(pv_kallsyms_find(&cached, open[i], &n, &m, &st0), -EAGAIN, "%#llx",
			     (unsigned long long)open[i]);
	/* what the parsed file says there */
	cr_expect_eq(pv_kallsyms_find(&full, 0xffffffffa0001010, &n, &m, &st0), 1);
	cr_expect_str_eq(n, "bpf_prog_1234_f");
	cr_expect_eq(pv_kallsyms_find(&full, 0xffffffffa0000115, &n, &m, &st0), 1);
	cr_expect_str_eq(n, "mod1_init_copy");
	pv_kallsyms_free(&full);
	pv_kallsyms_free(&cached);
	perfev_symbolizer_free(s);
}

Test(unit_kcache, new_boot_or_modules_invalidate)
{
	struct fake f;
	fake_kernel(&f);
	struct perfev_symbolizer *s = new_sym();
	struct pv_ktab t;
	load(s, &f, &t);
	pv_kallsyms_free(&t);
	cr_assert_eq(load(s, &f, &t), 1);
	pv_kallsyms_free(&t);

	/* a module reloaded elsewhere */
	put(f.modules, "mod1 16384 0 - Live 0xffffffffa0100000\n"
		       "mod2 8192 1 mod1, Live 0xffffffffa0002000 (O)\n");
	cr_expect_eq(load(s, &f, &t), 0, "a changed /proc/modules invalidates");
	pv_kallsyms_free(&t);
	cr_expect_eq(load(s, &f, &t), 1, "and the rebuilt index is used");
	pv_kallsyms_free(&t);
	/* use counts change all the time: not part of the key */
	put(f.modules, "mod1 16384 7 - Live 0xffffffffa0100000\n"
		       "mod2 8192 1 mod1, Live 0xffffffffa0002000 (O)\n");
	cr_expect_eq(load(s, &f, &t), 1, "a module's use count does not invalidate");
	pv_kallsyms_free(&t);
	/* another boot */
	put(f.boot, "6a1c1d2e-0000-4000-8000-000000000002\n");
	cr_expect_eq(load(s, &f, &t), 0, "a new boot_id invalidates");
	pv_kallsyms_free(&t);
	/* another view of addresses */
	put(f.kptr, "1\n");
	cr_expect_eq(load(s, &f, &t), 0, "a changed kptr_restrict invalidates");
	pv_kallsyms_free(&t);
	put(f.par, "-1\n");
	cr_expect_eq(load(s, &f, &t), 0, "a changed perf_event_paranoid invalidates");
	pv_kallsyms_free(&t);
	cr_expect_eq(load(s, &f, &t), 1);
	pv_kallsyms_free(&t);
	perfev_symbolizer_free(s);
}

static void *slurp_aligned(const char *path, size_t *len)
{
	char *b = slurp(path, len);
	void *a = aligned_alloc(8, (*len + 7) & ~(size_t)7);
	cr_assert(a);
	memcpy(a, b, *len);
	free(b);
	return a;
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *fp = fopen(path, "wb");
	cr_assert(fp);
	cr_assert_eq(fwrite(data, 1, len, fp), len);
	fclose(fp);
}

/* The index image of the fake kernel. */
static void *good_image(struct fake *f, struct perfev_symbolizer *s, size_t *len)
{
	struct pv_ktab t;
	load(s, f, &t);
	pv_kallsyms_free(&t);
	return slurp_aligned(cache_file(f), len);
}

Test(unit_kcache, corrupt_files_are_rejected_and_rebuilt)
{
	struct fake f;
	fake_kernel(&f);
	struct perfev_symbolizer *s = new_sym();
	size_t len;
	unsigned char *img = good_image(&f, s, &len);
	struct pv_kcache_key k;
	cr_assert_eq(pv_kcache_key(&f.src, &k), 0);
	struct pv_ktab t;
	cr_assert_eq(pv_kcache_parse(s->pool, img, len, &k, &t), 0, "the good image parses");
	pv_kallsyms_free(&t);

	unsigned char *bad = malloc(len);
	struct { const char *what; size_t off; int expect; bool seal; } cases[] = {
		{"a flipped payload byte", len - 3, -EBADMSG, false},
		{"a flipped header byte", 40, -EBADMSG, false},
		{"foreign byte order", OFF_ORDER, -EBADMSG, true},
		{"symbols out of order (checksums forged)", HDR + 16 + 3, -EBADMSG, true},
		{"a name past the names (checksums forged)", HDR + 8 + 3, -EBADMSG, true},
	};
	for (size_t i = 0; i < PV_ARRAY_SIZE(cases); i++) {
		memcpy(bad, img, len);
		if (cases[i].off == OFF_ORDER) { /* what the other byte order reads */
			uint32_t o = 0x04030201;
			memcpy(bad + OFF_ORDER, &o, 4);
		} else {
			bad[cases[i].off] ^= 0x40;
		}
		if (cases[i].seal)
			pv_kcache_seal(bad, len);
		cr_expect_eq(pv_kcache_parse(s->pool, bad, len, &k, &t), cases[i].expect, "%s", cases[i].what);
	}
	/* a count that overflows the file */
	memcpy(bad, img, len);
	uint64_t huge = UINT64_MAX / 8;
	memcpy(bad + OFF_NR_SYMS, &huge, 8);
	pv_kcache_seal(bad, len);
	cr_expect_eq(pv_kcache_parse(s->pool, bad, len, &k, &t), -EBADMSG, "a huge symbol count");
	/* every truncation */
	for (size_t n = 0; n < len; n += (n < HDR + 64 ? 1 : 97))
		cr_expect_eq(pv_kcache_parse(s->pool, img, n, &k, &t), -EBADMSG, "truncated to %zu", n);
	/* another key */
	struct pv_kcache_key other = k;
	other.hash ^= 1;
	cr_expect_eq(pv_kcache_parse(s->pool, img, len, &other, &t), -ESTALE);

	/* on disk: a corrupt or truncated index is parsed anew and rewritten */
	memcpy(bad, img, len);
	bad[len - 3] ^= 0x40;
	write_file(cache_file(&f), bad, len);
	cr_expect_eq(load(s, &f, &t), 0, "a corrupt index is not used");
	pv_kallsyms_free(&t);
	cr_expect_eq(load(s, &f, &t), 1, "and is rebuilt");
	pv_kallsyms_free(&t);
	write_file(cache_file(&f), img, len / 2);
	cr_expect_eq(load(s, &f, &t), 0, "a truncated index is not used");
	pv_kallsyms_free(&t);
	cr_expect_eq(load(s, &f, &t), 1, "and is rebuilt");
	pv_kallsyms_free(&t);
	pv_kcache_key_free(&k);
	free(bad);
	free(img);
	perfev_symbolizer_free(s);
}

Test(unit_kcache, hidden_addresses_never_cached)
{
	struct fake f;
	fake_kernel(&f);
	put(f.kallsyms, "0000000000000000 T _stext\n0000000000000000 t core_a\n");
	struct perfev_symbolizer *s = new_sym();
	struct pv_kcache_key k;
	cr_expect_eq(pv_kcache_key(&f.src, &k), -EACCES);
	pv_kcache_key_free(&k);
	struct pv_ktab t;
	cr_expect_eq(pv_kcache_load(s, &f.src, &t), 0);
	pv_kallsyms_free(&t);
	struct stat st;
	cr_expect_neq(stat(cache_file(&f), &st), 0, "no index for hidden addresses");
	perfev_symbolizer_free(s);
}

Test(unit_kcache, planted_and_unsafe_places_are_not_used)
{
	struct fake f;
	fake_kernel(&f);
	struct perfev_symbolizer *s = new_sym();
	size_t len;
	void *img = good_image(&f, s, &len);
	struct pv_ktab t;
	/* a symlink in place of the index, to a valid index: not followed */
	char elsewhere[400];
	snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", f.dir);
	write_file(elsewhere, img, len);
	unlink(cache_file(&f));
	cr_assert_eq(symlink(elsewhere, cache_file(&f)), 0);
	cr_expect_eq(load(s, &f, &t), 0, "a symlinked index is not read");
	pv_kallsyms_free(&t);
	struct stat st;
	cr_expect_eq(lstat(cache_file(&f), &st), 0);
	cr_expect(S_ISREG(st.st_mode), "the rename replaced the link, not its target");
	cr_expect_eq(load(s, &f, &t), 1);
	pv_kallsyms_free(&t);
	/* a directory others can write to */
	cr_assert_eq(chmod(f.cache, 0777), 0);
	cr_expect_eq(pv_kcache_dir(&f.src), -EPERM);
	cr_expect_eq(load(s, &f, &t), 0, "an index in a world-writable directory is not used");
	pv_kallsyms_free(&t);
	chmod(f.cache, 0700);
	/* the cache directory is a symlink */
	char real[400];
	snprintf(real, sizeof(real), "%s/realdir", f.dir);
	cr_assert_eq(mkdir(real, 0700), 0);
	char link[400];
	snprintf(link, sizeof(link), "%s/linkdir", f.dir);
	cr_assert_eq(symlink(real, link), 0);
	f.src.dir = link;
	cr_expect_lt(pv_kcache_dir(&f.src), 0, "a symlinked cache directory is not used");
	/* no place to write: parsed every time, silently */
	snprintf(link, sizeof(link), "%s/no/such/dir", f.dir);
	cr_expect_eq(load(s, &f, &t), 0);
	cr_expect_gt(t.nr, 0);
	pv_kallsyms_free(&t);
	cr_expect_eq(perfev_symbolizer_nr_notes(s), 0, "no note for a missing cache");
	free(img);
	perfev_symbolizer_free(s);
}

/* No usable HOME (none, read-only, a service user's): the cache moves to a
 * directory of ours in a sticky one (/var/tmp; here a stand-in), never to
 * one planted there by someone else. */
Test(unit_kcache, without_a_home_the_cache_moves_to_var_tmp)
{
	struct fake f;
	fake_kernel(&f);
	struct perfev_symbolizer *s = new_sym();
	char sticky[270], home[400];
	char *ours = f.cache;
	snprintf(sticky, sizeof(sticky), "%s/vartmp", f.dir);
	cr_assert_eq(mkdir(sticky, 0755), 0);
	cr_assert_eq(chmod(sticky, 01777), 0);
	snprintf(f.cache, sizeof(f.cache), "%s/perfev-%u", sticky, (unsigned)geteuid());
	unsetenv("XDG_CACHE_HOME");
	setenv("HOME", "/nonexistent-perfev-home/x", 1);
	f.src.dir = NULL;
	f.src.fallback = sticky;

	struct pv_ktab t;
	cr_expect_eq(load(s, &f, &t), 0, "first run parses");
	pv_kallsyms_free(&t);
	struct stat st;
	cr_assert_eq(lstat(ours, &st), 0, "the fallback directory is created");
	cr_expect(S_ISDIR(st.st_mode));
	cr_expect_eq(st.st_mode & 0777, 0700);
	cr_expect_eq(st.st_uid, geteuid());
	cr_expect_eq(load(s, &f, &t), 1, "the second run maps the index written there");
	pv_kallsyms_free(&t);

	/* someone else's planting in the sticky directory: not used */
	cr_assert_eq(chmod(ours, 0777), 0);
	cr_expect_lt(pv_kcache_dir(&f.src), 0, "a world-writable fallback is not used");
	char elsewhere[460];
	snprintf(elsewhere, sizeof(elsewhere), "%s/elsewhere", f.dir);
	cr_assert_eq(rename(ours, elsewhere), 0);
	cr_assert_eq(chmod(elsewhere, 0700), 0);
	cr_assert_eq(symlink(elsewhere, ours), 0);
	cr_expect_lt(pv_kcache_dir(&f.src), 0, "a symlinked fallback is not followed");
	cr_expect_eq(load(s, &f, &t), 0, "so every run parses, silently");
	pv_kallsyms_free(&t);
	cr_expect_eq(perfev_symbolizer_nr_notes(s), 0);

	/* a usable HOME is the first choice */
	snprintf(home, sizeof(home), "%s/home", f.dir);
	cr_assert_eq(mkdir(home, 0700), 0);
	setenv("HOME", home, 1);
	int fd = pv_kcache_dir(&f.src);
	cr_expect_geq(fd, 0);
	char want[460];
	snprintf(want, sizeof(want), "%s/.cache/perfev", home);
	cr_expect_eq(stat(want, &st), 0, "~/.cache/perfev is made and used");
	struct stat fst;
	cr_expect(fd >= 0 && fstat(fd, &fst) == 0 && fst.st_ino == st.st_ino);
	if (fd >= 0)
		close(fd);
	perfev_symbolizer_free(s);
}

Test(unit_kcache, no_modules_file_means_kernel_only)
{
	struct fake f;
	fake_kernel(&f);
	unlink(f.modules);
	struct perfev_symbolizer *s = new_sym();
	struct pv_ktab full, t;
	cr_assert_eq(load(s, &f, &full), 0);
	cr_assert_eq(load(s, &f, &t), 1);
	const char *n, *m;
	uint64_t st;
	cr_expect_eq(pv_kallsyms_find(&t, 0xffffffff81000150, &n, &m, &st), 1);
	cr_expect_eq(pv_kallsyms_find(&t, 0xffffffffa0000010, &n, &m, &st), -EAGAIN,
		     "tags not in /proc/modules are not cached");
	size_t answered;
	compare(&full, &t, &answered);
	pv_kallsyms_free(&full);
	pv_kallsyms_free(&t);
	perfev_symbolizer_free(s);
}
