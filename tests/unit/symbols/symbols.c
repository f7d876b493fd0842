/*
 * The symbolizer on fixture binaries (tests/data/symbols): every function
 * symbol, offset, source line and inline chain equals what nm -C and
 * addr2line -f -i -C say about the same addresses; separate debug info by
 * debuglink and build-id, MiniDebugInfo, PLT, JIT maps, kallsyms files,
 * demangling; and degradations that never crash.
 */
#define _GNU_SOURCE
#include "support.h"
#include "support_symbols.h"
#include "perfev.h"
#include "core/internal.h"
#include "symbols/symbols_int.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BASE 0x555555554000ull

static struct perfev_symbolizer *new_sym(const char *debug_dirs)
{
	struct perfev_symbolizer_opts o = {.sz = sizeof(o), .debug_dirs = debug_dirs,
					   .no_debuginfod = true};
	struct perfev_symbolizer *s = perfev_symbolizer_new(&o);
	cr_assert_not_null(s, "%s", perfev_errmsg());
	return s;
}

static bool nm_has(const struct nm_sym *syms, size_t n, uint64_t addr, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (syms[i].addr == addr && strcmp(syms[i].name, name) == 0)
			return true;
	return false;
}

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s ? s + 1 : p;
}

/*
 * Resolves a few addresses in every function nm lists for `nm_file` and
 * compares with nm -C (symbol, offset) and, if srclines, addr2line -f -i -C
 * on `a2l_file`. `match` limits the functions checked (NULL: all).
 * Returns how many addresses were compared.
 */
static size_t compare_with_tools(struct perfev_symbolizer *s, const char *bin,
				 const char *nm_file, const char *a2l_file, const char *match,
				 bool srclines)
{
	size_t nsyms, nmaps;
	struct nm_sym *syms = nm_text(nm_file, true, &nsyms);
	struct perfev_map *maps = fixture_maps(bin, BASE, &nmaps);
	cr_assert_gt(nsyms, 0, "nm found no symbols in %s", nm_file);
	uint64_t *addrs = calloc(nsyms * 3, sizeof(*addrs));
	struct perfev_location *locs = calloc(nsyms * 3, sizeof(*locs));
	size_t n = 0;
	for (size_t i = 0; i < nsyms; i++) {
		if (!syms[i].size || (match && !strstr(syms[i].name, match)))
			continue;
		uint64_t offs[3] = {0, syms[i].size / 2, syms[i].size - 1};
		for (int k = 0; k < 3; k++) {
			if (k && offs[k] == offs[k - 1])
				continue;
			uint64_t ip = BASE + syms[i].addr + offs[k];
			const struct perfev_map *m = map_for(maps, nmaps, ip);
			cr_assert_not_null(m, "no map for %s+%llu", syms[i].name,
					   (unsigned long long)offs[k]);
			struct perfev_location *loc = &locs[n];
			int rc = perfev_symbolizer_resolve(s, -1, m, ip,
							   srclines ? PERFEV_RESOLVE_INLINE : 0, loc);
			cr_expect_eq(rc, 1, "%s+%llu unresolved", syms[i].name,
				     (unsigned long long)offs[k]);
			if (rc != 1)
				continue;
			cr_expect_eq(loc->rel_ip, syms[i].addr + offs[k]);
			cr_expect(nm_has(syms, nsyms, loc->rel_ip - loc->symoff, loc->symbol),
				  "0x%llx: perfev says %s+%llu, nm says %s+%llu",
				  (unsigned long long)loc->rel_ip, loc->symbol,
				  (unsigned long long)loc->symoff, syms[i].name,
				  (unsigned long long)offs[k]);
			cr_expect_str_eq(loc->dso, bin);
			addrs[n++] = syms[i].addr + offs[k];
		}
	}
	if (srclines && n) {
		struct a2l_result *a = addr2line(a2l_file, addrs, n);
		for (size_t i = 0; i < n; i++) {
			const struct perfev_location *loc = &locs[i];
			size_t want = a[i].nr;
			if (want == 1 && !a[i].frames[0].file)
				want = 0; /* ?? at ??:0 */
			cr_expect_eq(loc->nr_lines, want, "0x%llx (%s): %zu frames, addr2line %zu",
				     (unsigned long long)addrs[i], loc->symbol, loc->nr_lines, want);
			for (size_t j = 0; j < PV_MIN(loc->nr_lines, want); j++) {
				const struct perfev_source_line *l = &loc->lines[j];
				const struct a2l_frame *f = &a[i].frames[j];
				const char *fn = l->function ? l->function : "??";
				const char *fl = l->file ? base_name(l->file) : "??";
				cr_expect_str_eq(fn, f->function ? f->function : "??",
						 "0x%llx frame %zu: function %s, addr2line %s",
						 (unsigned long long)addrs[i], j, fn, f->function);
				cr_expect_str_eq(fl, f->file ? f->file : "??",
						 "0x%llx frame %zu: file %s, addr2line %s",
						 (unsigned long long)addrs[i], j, fl, f->file);
				cr_expect_eq(l->line, f->line, "0x%llx frame %zu (%s): line %u, "
					     "addr2line %u", (unsigned long long)addrs[i], j,
					     l->function, l->line, f->line);
			}
		}
		a2l_free(a, n);
	}
	free(addrs);
	free(locs);
	free(maps);
	nm_free(syms, nsyms);
	return n;
}

Test(unit_symbols, c_symbols_lines_inlines_equal_nm_and_addr2line, .timeout = 60)
{
	struct perfev_symbolizer *s = new_sym("/nonexistent");
	size_t n = compare_with_tools(s, fixture("inl"), fixture("inl"), fixture("inl"), NULL, true);
	cr_assert_geq(n, 10);
	/* the inline chain at the deepest point: leaf_inline <- middle_inline <- outer_function */
	size_t nsyms, nmaps;
	struct nm_sym *syms = nm_text(fixture("inl"), true, &nsyms);
	struct perfev_map *maps = fixture_maps(fixture("inl"), BASE, &nmaps);
	bool three = false;
	for (size_t i = 0; i < nsyms && !three; i++) {
		if (strcmp(syms[i].name, "outer_function"))
			continue;
		for (uint64_t off = 0; off < syms[i].size && !three; off++) {
			struct perfev_location loc;
			uint64_t ip = BASE + syms[i].addr + off;
			perfev_symbolizer_resolve(s, -1, map_for(maps, nmaps, ip), ip,
						  PERFEV_RESOLVE_INLINE, &loc);
			if (loc.nr_lines == 3 && !strcmp(loc.lines[0].function, "leaf_inline") &&
			    !strcmp(loc.lines[1].function, "middle_inline") &&
			    !strcmp(loc.lines[2].function, "outer_function"))
				three = true;
		}
	}
	cr_expect(three, "no address of outer_function has the 3-deep inline chain");
	free(maps);
	nm_free(syms, nsyms);
	perfev_symbolizer_free(s);
}

Test(unit_symbols, clang_without_aranges, .timeout = 60)
{
	if (access(fixture("inl.clang"), X_OK) != 0)
		cr_skip_test("no clang: no inl.clang fixture");
	struct perfev_symbolizer *s = new_sym("/nonexistent");
	const char *bin = fixture("inl.clang");
	size_t n = compare_with_tools(s, bin, bin, bin, NULL, true);
	cr_assert_geq(n, 6);
	perfev_symbolizer_free(s);
}

Test(unit_symbols, cxx_demangled_like_nm_and_addr2line, .timeout = 60)
{
	struct perfev_symbolizer *s = new_sym("/nonexistent");
	size_t n = compare_with_tools(s, fixture("cxx"), fixture("cxx"), fixture("cxx"), NULL, true);
	cr_assert_geq(n, 10);
	struct perfev_location loc;
	size_t nmaps;
	struct perfev_map *maps = fixture_maps(fixture("cxx"), BASE, &nmaps);
	size_t nsyms;
	struct nm_sym *syms = nm_text(fixture("cxx"), true, &nsyms);
	bool area = false;
	for (size_t i = 0; i < nsyms; i++)
		if (!strcmp(syms[i].name, "shapes::Circle::area(int) const")) {
			uint64_t ip = BASE + syms[i].addr + 1;
			cr_assert_eq(perfev_symbolizer_resolve(s, -1, map_for(maps, nmaps, ip), ip, 0, &loc), 1);
			cr_expect_str_eq(loc.symbol, "shapes::Circle::area(int) const");
			cr_assert_eq(perfev_symbolizer_resolve(s, -1, map_for(maps, nmaps, ip), ip,
							       PERFEV_RESOLVE_NO_DEMANGLE, &loc), 1);
			cr_expect_str_eq(loc.symbol, "_ZNK6shapes6Circle4areaEi");
			/* perf report's style: no parameter lists, in symbols and inline frames */
			cr_assert_eq(perfev_symbolizer_resolve(s, -1, map_for(maps, nmaps, ip), ip,
							       PERFEV_RESOLVE_NO_PARAMS |
							       PERFEV_RESOLVE_INLINE, &loc), 1);
			cr_expect_str_eq(loc.symbol, "shapes::Circle::area");
			cr_assert_geq(loc.nr_lines, 1);
			cr_expect_str_eq(loc.lines[loc.nr_lines - 1].function, "shapes::Circle::area");
			area = true;
		}
	cr_expect(area, "nm -C lists no shapes::Circle::area(int) const");
	nm_free(syms, nsyms);
	free(maps);
	perfev_symbolizer_free(s);
}

static void rust_case(const char *name)
{
	if (access(fixture(name), X_OK) != 0)
		cr_skip_test("no %s fixture (rustc missing or without this mangling)", name);
	struct perfev_symbolizer *s = new_sym("/nonexistent");
	/* every function name in the binary (std included) as nm -C prints it;
	 * lines and inline chains for the fixture's own functions */
	size_t n = compare_with_tools(s, fixture(name), fixture(name), fixture(name), NULL, false);
	cr_assert_geq(n, 100);
	n = compare_with_tools(s, fixture(name), fixture(name), fixture(name), "engine", true);
	cr_assert_geq(n, 2, "no rs::engine functions found");
	perfev_symbolizer_free(s);
}

Test(unit_symbols, rust_legacy_demangled_like_nm, .timeout = 120) { rust_case("rs"); }
Test(unit_symbols, rust_v0_demangled_like_nm, .timeout = 120) { rust_case("rs.v0"); }

Test(unit_symbols, debuglink_separate_debug_file, .timeout = 60)
{
	struct perfev_symbolizer *s = new_sym("/nonexistent");
	const char *bin = fixture("inl.stripped"), *dbg = fixture("inl.stripped.debug");
	size_t n = compare_with_tools(s, bin, dbg, dbg, NULL, true);
	cr_assert_geq(n, 10);
	cr_expect_eq(perfev_symbolizer_nr_notes(s), 0, "note: %s", perfev_symbolizer_note(s, 0));
	perfev_symbolizer_free(s);
}

Test(unit_symbols, build_id_debug_directory, .timeout = 60)
{
	char dirs[4200];
	snprintf(dirs, sizeof(dirs), "/nonexistent:%s", fixture("debug"));
	struct perfev_symbolizer *s = new_sym(dirs);
	const char *bin = fixture("inl.buildid");
	struct run_result r = run_cmd("ls %s/.build-id/*/*.debug", fixture("debug"));
	cr_assert_eq(r.status, 0);
	r.out[strcspn(r.out, "\n")] = '\0';
	size_t n = compare_with_tools(s, bin, r.out, r.out, NULL, true);
	cr_assert_geq(n, 10);
	run_result_free(&r);
	perfev_symbolizer_free(s);

	/* without the directory: only PLT names, and a note that says what to install */
	s = new_sym("/nonexistent");
	cr_expect_leq(perfev_symbolizer_load(s, -1, bin, NULL, 0), 4);
	cr_assert_geq(perfev_symbolizer_nr_notes(s), 1);
	cr_expect(strstr(perfev_symbolizer_note(s, 0), "no symbols"), "%s",
		  perfev_symbolizer_note(s, 0));
	perfev_symbolizer_free(s);
}

Test(unit_symbols, minidebuginfo, .timeout = 60)
{
	struct perfev_symbolizer *s = new_sym("/nonexistent");
	/* the symbols MiniDebugInfo keeps (functions not exported) are named as in the
	 * unstripped binary; it carries no lines */
	size_t n = compare_with_tools(s, fixture("inl.mini"), fixture("inl.mini.unstripped"), NULL,
				      "_function", false);
	cr_assert_geq(n, 1);
	n = compare_with_tools(s, fixture("inl.mini"), fixture("inl.mini.unstripped"), NULL,
			       "static_helper", false);
	cr_assert_geq(n, 1);
	perfev_symbolizer_free(s);
}

Test(unit_symbols, plt_entries_named_like_objdump, .timeout = 60)
{
	const char *bin = fixture("inl");
	struct run_result r = run_cmd("objdump -d '%s' | grep '@plt>:$'", bin);
	cr_assert_eq(r.status, 0, "objdump lists no PLT entries in %s", bin);
	struct perfev_symbolizer *s = new_sym("/nonexistent");
	size_t nmaps, checked = 0;
	struct perfev_map *maps = fixture_maps(bin, BASE, &nmaps);
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		unsigned long long addr;
		char name[256];
		if (sscanf(line, "%llx <%255[^>]>:", &addr, name) != 2)
			continue;
		for (int off = 0; off < 8; off += 5) { /* .plt.got stubs are 8 bytes */
			struct perfev_location loc;
			uint64_t ip = BASE + addr + off;
			cr_assert_eq(perfev_symbolizer_resolve(s, -1, map_for(maps, nmaps, ip), ip, 0,
							       &loc), 1, "%s+%d", name, off);
			cr_expect_str_eq(loc.symbol, name);
			cr_expect_eq(loc.symoff, (uint64_t)off);
		}
		checked++;
	}
	cr_expect_geq(checked, 2, "puts@plt and printf@plt expected");
	free(maps);
	run_result_free(&r);
	perfev_symbolizer_free(s);
}

Test(unit_symbols, degradations_never_crash)
{
	struct perfev_symbolizer *s = new_sym("/nonexistent");
	struct perfev_location loc;
	/* missing binary */
	struct perfev_map m = {.start = 0x400000, .end = 0x500000, .path = "/nonexistent/prog"};
	cr_expect_eq(perfev_symbolizer_resolve(s, -1, &m, 0x401234, PERFEV_RESOLVE_INLINE, &loc), 0);
	cr_expect_null(loc.symbol);
	cr_expect_str_eq(loc.dso, "/nonexistent/prog");
	cr_expect_eq(loc.rel_ip, 0x1234);
	cr_expect_eq(loc.nr_lines, 0);
	/* stripped, nothing anywhere */
	size_t nmaps;
	struct perfev_map *maps = fixture_maps(fixture("inl.bare"), BASE, &nmaps);
	uint64_t ip = maps[1].start + 0x10;
	cr_expect_eq(perfev_symbolizer_resolve(s, -1, map_for(maps, nmaps, ip), ip,
					       PERFEV_RESOLVE_INLINE, &loc), 0);
	cr_expect_null(loc.symbol);
	/* not an ELF file, an empty file, a directory */
	char *tmp = (char *)test_tmpdir(), path[4200];
	snprintf(path, sizeof(path), "%s/garbage", tmp);
	FILE *f = fopen(path, "w");
	fputs("\177ELF this is not really an ELF file at all, only its magic....", f);
	fclose(f);
	char fifo[4200];
	snprintf(fifo, sizeof(fifo), "%s/fifo", tmp);
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	const char *bad[] = {path, "/dev/null", "/", "/proc/self/status", "[heap]", "//anon", "",
			     fifo};
	for (size_t i = 0; i < PV_ARRAY_SIZE(bad); i++) {
		m.path = bad[i];
		cr_expect_geq(perfev_symbolizer_resolve(s, getpid(), &m, 0x401000,
							PERFEV_RESOLVE_INLINE, &loc), 0);
		cr_expect_null(loc.symbol);
	}
	/* an ip outside the map, NULL map, NULL arguments */
	m.path = fixture("inl");
	cr_expect_eq(perfev_symbolizer_resolve(s, -1, &m, 0x300000, 0, &loc), 0);
	cr_expect_null(loc.map);
	cr_expect_str_eq(loc.dso, "[unknown]");
	cr_expect_eq(perfev_symbolizer_resolve(s, -1, NULL, 0x1234, 0, &loc), 0);
	cr_expect_str_eq(loc.dso, "[unknown]");
	cr_expect_lt(perfev_symbolizer_resolve(NULL, -1, NULL, 0, 0, &loc), 0);
	cr_expect_lt(perfev_symbolizer_resolve(s, -1, NULL, 0, 0, NULL), 0);
	/* every note names a fix */
	size_t nn = perfev_symbolizer_nr_notes(s);
	cr_expect_geq(nn, 2);
	bool missing = false, stripped = false;
	for (size_t i = 0; i < nn; i++) {
		const char *note = perfev_symbolizer_note(s, i);
		missing |= strstr(note, "/nonexistent/prog: binary not found") != NULL;
		stripped |= strstr(note, "inl.bare: no symbols") != NULL;
	}
	cr_expect(missing && stripped, "notes: %s | %s", perfev_symbolizer_note(s, 0),
		  perfev_symbolizer_note(s, 1));
	cr_expect_null(perfev_symbolizer_note(s, nn));
	free(maps);
	perfev_symbolizer_free(s);
	perfev_symbolizer_free(NULL);
}

Test(unit_symbols, jit_perf_map)
{
	const char *dir = test_tmpdir();
	char path[4200];
	snprintf(path, sizeof(path), "%s/perf-4242.map", dir);
	FILE *f = fopen(path, "w");
	fprintf(f, "7f0000001000 100 LazyCompile:~hot_loop app.js:12\n"
		   "7f0000001100 40 Builtin:ArrayPush\n"
		   "0x7f0000002000 0x10 stub with spaces\n"
		   "garbage line\n");
	fclose(f);
	struct perfev_symbolizer_opts o = {.sz = sizeof(o), .jit_dir = dir, .no_proc_root = true};
	struct perfev_symbolizer *s = perfev_symbolizer_new(&o);
	struct perfev_map anon = {.start = 0x7f0000000000, .end = 0x7f0000100000, .path = "//anon"};
	struct perfev_location loc;
	cr_assert_eq(perfev_symbolizer_resolve(s, 4242, &anon, 0x7f0000001010, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "LazyCompile:~hot_loop app.js:12");
	cr_expect_eq(loc.symoff, 0x10);
	cr_expect(strstr(loc.dso, "perf-4242.map"));
	cr_assert_eq(perfev_symbolizer_resolve(s, 4242, NULL, 0x7f0000001101, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "Builtin:ArrayPush");
	cr_assert_eq(perfev_symbolizer_resolve(s, 4242, &anon, 0x7f000000200f, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "stub with spaces");
	cr_expect_eq(perfev_symbolizer_resolve(s, 4242, &anon, 0x7f0000002010, 0, &loc), 0);
	cr_expect_eq(perfev_symbolizer_resolve(s, 4243, &anon, 0x7f0000001010, 0, &loc), 0);
	perfev_symbolizer_free(s);
}

Test(unit_symbols, kallsyms_file)
{
	const char *dir = test_tmpdir();
	char path[4200];
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	FILE *f = fopen(path, "w");
	fprintf(f, "ffffffff81000000 T _stext\n"
		   "ffffffff81000100 T do_syscall_64\n"
		   "ffffffff81000180 t helper_local\n"
		   "ffffffff81000200 D some_data\n"
		   "ffffffff81000300 T schedule\n"
		   "ffffffffc0001000 t ext4_foo\t[ext4]\n"
		   "ffffffffc0001080 t ext4_bar\t[ext4]\n");
	fclose(f);
	struct perfev_symbolizer_opts o = {.sz = sizeof(o), .kallsyms = path};
	struct perfev_symbolizer *s = perfev_symbolizer_new(&o);
	struct perfev_location loc;
	cr_assert_eq(perfev_symbolizer_resolve(s, -1, NULL, 0xffffffff81000110, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "do_syscall_64");
	cr_expect_eq(loc.symoff, 0x10);
	cr_expect(loc.kernel);
	cr_expect_str_eq(loc.dso, "[kernel.kallsyms]");
	/* perf.data's kernel map is named [kernel.kallsyms]_text */
	struct perfev_map kmap = {.start = 0xffffffff81000000, .end = 0xffffffff82000000,
				  .path = "[kernel.kallsyms]_text"};
	cr_assert_eq(perfev_symbolizer_resolve(s, -1, &kmap, 0xffffffff81000301, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "schedule");
	cr_expect_eq(loc.map, &kmap);
	cr_assert_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffff81000280, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "helper_local"); /* data symbols are not functions */
	cr_assert_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffffc0001084, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "ext4_bar");
	cr_expect_str_eq(loc.dso, "[ext4]");
	/* return addresses look up the call before them */
	cr_assert_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffff81000300,
						      PERFEV_RESOLVE_RETURN_ADDR, &loc), 1);
	cr_expect_str_eq(loc.symbol, "helper_local");
	perfev_symbolizer_free(s);

	/* hidden addresses (not root): unresolved, with a note naming the fix */
	f = fopen(path, "w");
	fprintf(f, "0000000000000000 T _stext\n0000000000000000 T schedule\n");
	fclose(f);
	s = perfev_symbolizer_new(&o);
	cr_expect_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffff81000110, 0, &loc), 0);
	cr_assert_eq(perfev_symbolizer_nr_notes(s), 1);
	cr_expect(strstr(perfev_symbolizer_note(s, 0), "kptr_restrict"), "%s",
		  perfev_symbolizer_note(s, 0));
	perfev_symbolizer_free(s);
}

/* The parser's corners: aliases at one address (perf's choice: the one
 * listed last, see interop_report::kernel_aliases_named_like_perf), lines out of address order,
 * malformed lines, a module's last symbol capped at 4096 bytes, the last
 * line without a newline. */
Test(unit_symbols, kallsyms_aliases_order_and_bounds)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/kallsyms2", test_tmpdir());
	FILE *f = fopen(path, "w");
	fprintf(f, "ffffffff81000300 T schedule\n"
		   "ffffffff81000100 t __alias_local\n"
		   "ffffffff81000100 T __x64_sys_read\n"
		   "ffffffff81000100 T _x64_sys_read\n"
		   "ffffffff81000100 W x64_sys_rea\n"
		   "zzzz T not_hex\n"
		   "ffffffff81000200T glued\n"
		   "ffffffff81000200 t\n"
		   "ffffffffc0002000 t mod_last\t[mod_a]\n"
		   "ffffffffc0010000 t mod_b_first\t[mod_b]\n"
		   "ffffffff81000000 T _stext");
	fclose(f);
	struct perfev_symbolizer_opts o = {.sz = sizeof(o), .kallsyms = path};
	struct perfev_symbolizer *s = perfev_symbolizer_new(&o);
	struct perfev_location loc;
	cr_assert_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffff81000180, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "x64_sys_rea");
	cr_expect_eq(loc.symoff, 0x80);
	cr_assert_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffff81000010, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "_stext");
	cr_assert_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffff81000301, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "schedule"); /* up to the next symbol, another module's */
	cr_expect_str_eq(loc.dso, "[kernel.kallsyms]");
	cr_assert_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffffc0002fff, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "mod_last");
	cr_expect_str_eq(loc.dso, "[mod_a]");
	cr_expect_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffffc0003000, 0, &loc), 0);
	cr_assert_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffffc0010fff, 0, &loc), 1);
	cr_expect_str_eq(loc.symbol, "mod_b_first");
	cr_expect_str_eq(loc.dso, "[mod_b]");
	cr_expect_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffffc0011000, 0, &loc), 0);
	cr_expect_eq(perfev_symbolizer_resolve_kernel(s, 0xffffffff80000000, 0, &loc), 0);
	perfev_symbolizer_free(s);
}

Test(unit_symbols, demangle_like_cxxfilt)
{
	const char *names[] = {"_ZNK6shapes6Circle4areaEi", "_ZN6shapes10accumulateIlEET_RKSt6vectorIS1_SaIS1_EE",
			       "_Z3fooi.cold", "_ZNSt6vectorIlSaIlEEixEm"};
	/* Rust as nm -C prints it (c++filt is verbose: it keeps hashes and crate ids) */
	char *d = perfev_demangle("_ZN2rs6engine4Gear4turn17h6b07bcc68f9efea0E");
	cr_expect_str_eq(d, "rs::engine::Gear::turn");
	free(d);
	d = perfev_demangle("_RNvMNtCsbFYJioi4cCO_2rs6engineNtB2_4Gear4turn");
	cr_expect_str_eq(d, "<rs::engine::Gear>::turn");
	free(d);
	for (size_t i = 0; i < PV_ARRAY_SIZE(names); i++) {
		char *d = perfev_demangle(names[i]);
		cr_assert_not_null(d, "%s", names[i]);
		struct run_result r = run_cmd("echo '%s' | c++filt", names[i]);
		r.out[strcspn(r.out, "\n")] = '\0';
		cr_expect_str_eq(d, r.out);
		run_result_free(&r);
		free(d);
	}
	cr_expect_null(perfev_demangle("main"));
	cr_expect_null(perfev_demangle(NULL));
	cr_expect_null(perfev_demangle("_Zgarbage"));
}

Test(unit_symbols, bad_options)
{
	struct perfev_symbolizer_opts o = {.sz = 1};
	cr_expect_null(perfev_symbolizer_new(&o));
	cr_expect_eq(errno, EINVAL);
	struct perfev_symbolizer *s = perfev_symbolizer_new(NULL);
	cr_assert_not_null(s);
	perfev_symbolizer_free(s);
}

/* A debuginfod server is only files under /buildid/HEX/debuginfo: python's http.server will do. */
Test(unit_symbols, debuginfod_by_build_id, .timeout = 60)
{
	const char *bin = fixture("inl.buildid");
	struct run_result r = run_cmd("command -v python3 >/dev/null && ls %s/.build-id/*/*.debug",
				      fixture("debug"));
	if (r.status != 0)
		cr_skip_test("no python3 to serve files as a debuginfod server");
	r.out[strcspn(r.out, "\n")] = '\0';
	const char *dir = test_tmpdir();
	struct run_result b = run_cmd("readelf -n '%s' | awk '/Build ID/ {print $3}'", bin);
	b.out[strcspn(b.out, "\n")] = '\0';
	struct run_result m = run_cmd("mkdir -p %s/srv/buildid/%s && cp %s %s/srv/buildid/%s/debuginfo",
				      dir, b.out, r.out, dir, b.out);
	cr_assert_eq(m.status, 0);
	int port = 20000 + getpid() % 20000;
	pid_t srv = fork();
	if (srv == 0) {
		char p[16], d[4200];
		snprintf(p, sizeof(p), "%d", port);
		snprintf(d, sizeof(d), "%s/srv", dir);
		int devnull = open("/dev/null", O_WRONLY);
		dup2(devnull, 1);
		dup2(devnull, 2);
		execlp("python3", "python3", "-m", "http.server", p, "--bind", "127.0.0.1",
		       "--directory", d, (char *)NULL);
		_exit(127);
	}
	struct run_result up = run_cmd("for i in $(seq 100); do curl -sf http://127.0.0.1:%d/ >/dev/null "
				       "&& exit 0; python3 -c 'import urllib.request,sys; "
				       "urllib.request.urlopen(\"http://127.0.0.1:%d/\")' 2>/dev/null && exit 0; "
				       "sleep 0.1; done; exit 1", port, port);
	char url[64], cache[4200];
	snprintf(url, sizeof(url), "http://127.0.0.1:%d", port);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	setenv("DEBUGINFOD_URLS", url, 1);
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
	setenv("DEBUGINFOD_TIMEOUT", "10", 1);
	struct perfev_symbolizer *s = new_sym("/nonexistent");
	/* new_sym turns debuginfod off; this one asks */
	perfev_symbolizer_free(s);
	struct perfev_symbolizer_opts o = {.sz = sizeof(o), .debug_dirs = "/nonexistent"};
	s = perfev_symbolizer_new(&o);
	size_t n = up.status == 0 ? compare_with_tools(s, bin, r.out, r.out, NULL, true) : 0;
	kill(srv, SIGTERM);
	waitpid(srv, NULL, 0);
	cr_assert_eq(up.status, 0, "the file server did not start");
	cr_expect_geq(n, 10);
	char got[8400];
	snprintf(got, sizeof(got), "%s/%s/debuginfo", cache, b.out);
	cr_expect_eq(access(got, R_OK), 0, "debuginfod's cache holds no %s", got);
	perfev_symbolizer_free(s);
	unsetenv("DEBUGINFOD_URLS");
	run_result_free(&r);
	run_result_free(&b);
	run_result_free(&m);
	run_result_free(&up);
}

/* A recorded binary gone from its path, kept by build-id in perf's cache (~/.debug). */
Test(unit_symbols, perf_build_id_cache, .timeout = 60)
{
	const char *bin = fixture("inl");
	struct run_result b = run_cmd("readelf -n '%s' | awk '/Build ID/ {print $3}'", bin);
	b.out[strcspn(b.out, "\n")] = '\0';
	cr_assert_eq(strlen(b.out), 40);
	const char *home = test_tmpdir();
	struct run_result m = run_cmd("mkdir -p %s/.debug/.build-id/%.2s/%s && cp '%s' "
				      "%s/.debug/.build-id/%.2s/%s/elf", home, b.out, b.out + 2, bin,
				      home, b.out, b.out + 2);
	cr_assert_eq(m.status, 0);
	setenv("HOME", home, 1);
	size_t nmaps, nsyms;
	struct perfev_map *maps = fixture_maps(bin, BASE, &nmaps);
	uint8_t bid[20];
	for (int i = 0; i < 20; i++)
		sscanf(b.out + 2 * i, "%2hhx", &bid[i]);
	for (size_t i = 0; i < nmaps; i++) {
		maps[i].path = "/nonexistent/was/inl";
		memcpy(maps[i].build_id, bid, 20);
		maps[i].build_id_len = 20;
	}
	struct nm_sym *syms = nm_text(bin, true, &nsyms);
	struct perfev_symbolizer *s = new_sym("/nonexistent");
	size_t ok = 0;
	for (size_t i = 0; i < nsyms; i++) {
		struct perfev_location loc;
		uint64_t ip = BASE + syms[i].addr + syms[i].size / 2;
		if (perfev_symbolizer_resolve(s, -1, map_for(maps, nmaps, ip), ip, PERFEV_RESOLVE_INLINE,
					      &loc) == 1 &&
		    !strcmp(loc.symbol, syms[i].name) &&
		    (loc.nr_lines || !strcmp(loc.symbol, "_start"))) /* _start: no DWARF */
			ok++;
		else
			cr_expect_fail("%s: %s, %zu lines", syms[i].name, loc.symbol, loc.nr_lines);
		cr_expect_str_eq(loc.dso, "/nonexistent/was/inl");
	}
	cr_expect_eq(ok, nsyms, "%zu of %zu functions resolved from the build-id cache", ok, nsyms);
	/* the same map with another build-id finds nothing: never a wrong file */
	maps[0].build_id[0] ^= 1;
	maps[1].build_id[0] ^= 1;
	struct perfev_location loc;
	uint64_t ip = BASE + syms[0].addr;
	cr_expect_eq(perfev_symbolizer_resolve(s, -1, map_for(maps, nmaps, ip), ip, 0, &loc), 0);
	perfev_symbolizer_free(s);
	nm_free(syms, nsyms);
	free(maps);
	run_result_free(&b);
	run_result_free(&m);
}

/* perf's symbols__fixup_end: an unsized symbol reaches up to the next one,
 * whatever section it is in (a static binary's _init over its .plt), and
 * the last one to the end of the page after its own (libm's _fini, the
 * highest function of the library: CI once sampled its first instruction). */
Test(unit_symbols, unsized_symbols_end_as_perf_ends_them)
{
	struct pv_symtab t = {0};
	cr_assert_eq(pv_symtab_add(&t, 0x1000, 0x10, "sized", NULL, 3), 0);
	cr_assert_eq(pv_symtab_add(&t, 0x1800, 0, "_init", NULL, 3), 0);
	cr_assert_eq(pv_symtab_add(&t, 0x2000, 0x100, "next", NULL, 3), 0);
	cr_assert_eq(pv_symtab_add(&t, 0x23d8, 0, "_fini", NULL, 3), 0);
	pv_symtab_finish(&t);
	const struct pv_sym *s = pv_symtab_find(&t, 0x1fff);
	cr_assert(s && !strcmp(s->name, "_init"), "0x1fff: %s", s ? s->name : "none");
	cr_assert_null(pv_symtab_find(&t, 0x1010), "past a sized symbol's end");
	s = pv_symtab_find(&t, 0x23d8);
	cr_assert(s && !strcmp(s->name, "_fini"), "0x23d8: %s", s ? s->name : "none");
	s = pv_symtab_find(&t, 0x3fff);
	cr_assert(s && !strcmp(s->name, "_fini"), "0x3fff: %s", s ? s->name : "none");
	cr_assert_null(pv_symtab_find(&t, 0x4000), "the last unsized symbol ends a page after its own");
	pv_symtab_free(&t);
}
