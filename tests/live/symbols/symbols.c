/*
 * The symbolizer on live processes: this test program and libc through
 * /proc/self/maps, the [vdso], kallsyms as root, perf-PID.map in /tmp, and
 * a binary visible only inside another mount namespace (/proc/PID/root).
 */
#define _GNU_SOURCE
#include "support.h"
#include "support_symbols.h"
#include "perfev.h"

#include <dlfcn.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static struct perfev_location resolve_self(struct perfev_symbolizer *s, const struct perfev_map *maps,
					   size_t n, const void *addr)
{
	struct perfev_location loc;
	uint64_t ip = (uint64_t)(uintptr_t)addr;
	perfev_symbolizer_resolve(s, getpid(), map_for(maps, n, ip), ip, PERFEV_RESOLVE_INLINE, &loc);
	return loc;
}

/* Any name nm -D gives to the address (aliases: getpid, __getpid). */
static bool libc_name_ok(const char *path, uint64_t rel, const char *name)
{
	struct run_result r = run_cmd("nm -D --defined-only '%s' | grep -i '^%016llx '", path,
				      (unsigned long long)rel);
	bool ok = false;
	for (char *line = strtok(r.out, "\n"); line; line = strtok(NULL, "\n")) {
		char *sp = strrchr(line, ' ');
		char *at = sp ? strchr(sp, '@') : NULL;
		if (at)
			*at = '\0';
		if (sp && !strcmp(sp + 1, name))
			ok = true;
	}
	run_result_free(&r);
	return ok;
}

Test(live_symbols, own_process_and_libc)
{
	size_t n;
	struct perfev_map *maps = proc_maps(0, &n);
	struct perfev_symbolizer *s = perfev_symbolizer_new(NULL);
	struct perfev_location loc = resolve_self(s, maps, n, (const void *)perfev_symbolizer_new);
	cr_expect_str_eq(loc.symbol, "perfev_symbolizer_new");
	cr_expect_eq(loc.symoff, 0);
	cr_expect_geq(loc.nr_lines, 1);
	cr_expect(loc.nr_lines && strstr(loc.lines[loc.nr_lines - 1].file, "symbols.c"));
	loc = resolve_self(s, maps, n, (const char *)perfev_demangle + 3);
	cr_expect_str_eq(loc.symbol, "perfev_demangle");
	cr_expect_eq(loc.symoff, 3);

	/* libc's own qsort (not a sanitizer's interceptor of it) */
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
	cr_assert_not_null(libc);
	void *fn = dlsym(libc, "qsort");
	cr_assert_not_null(fn);
	loc = resolve_self(s, maps, n, (const char *)fn + 1);
	cr_assert_not_null(loc.symbol, "qsort in %s unresolved", loc.dso);
	cr_expect(strstr(loc.dso, "libc"), "dso %s", loc.dso);
	cr_expect(libc_name_ok(loc.dso, loc.rel_ip - loc.symoff, loc.symbol),
		  "libc: perfev says %s, nm -D has no such name there", loc.symbol);
	/* with libc's debug file installed (libc6-dbg), found by build-id: lines too */
	struct run_result r = run_cmd("readelf -n '%s' | awk '/Build ID/ {print $3}'", loc.dso);
	char dbg[256];
	r.out[strcspn(r.out, "\n")] = '\0';
	snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%.2s/%s.debug", r.out,
		 strlen(r.out) > 2 ? r.out + 2 : "");
	if (access(dbg, R_OK) == 0) {
		cr_log_info("libc's debug file: %s", dbg);
		cr_expect_geq(loc.nr_lines, 1, "libc's debug file is installed, but no lines");
		cr_expect(loc.nr_lines && strstr(loc.lines[0].file, "sort.c"), "qsort at %s", /* msort.c */
			  loc.nr_lines ? loc.lines[0].file : "?");
	}
	run_result_free(&r);
	dlclose(libc);
	maps_free(maps, n);
	perfev_symbolizer_free(s);
}

Test(live_symbols, vdso)
{
	size_t n;
	struct perfev_map *maps = proc_maps(0, &n);
	struct perfev_symbolizer *s = perfev_symbolizer_new(NULL);
	void *h = dlopen("linux-vdso.so.1", RTLD_LAZY | RTLD_NOLOAD);
	void *fn = h ? dlsym(h, "__vdso_clock_gettime") : NULL;
	if (!fn)
		cr_skip_test("no __vdso_clock_gettime here");
	struct perfev_location loc = resolve_self(s, maps, n, (const char *)fn + 2);
	cr_expect_str_eq(loc.dso, "[vdso]");
	cr_expect(loc.symbol && strstr(loc.symbol, "clock_gettime"), "vdso symbol %s", loc.symbol);
	maps_free(maps, n);
	perfev_symbolizer_free(s);
}

Test(live_symbols, kallsyms_as_root)
{
	require_root();
	char *buf = slurp("/proc/kallsyms", NULL);
	struct perfev_symbolizer *s = perfev_symbolizer_new(NULL);
	const char *want[] = {"schedule", "do_sys_openat2", "vfs_read"};
	size_t checked = 0;
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		char pat[64];
		snprintf(pat, sizeof(pat), " T %s\n", want[i]);
		char *hit = strstr(buf, pat);
		if (!hit)
			continue;
		char *line = hit;
		while (line > buf && line[-1] != '\n')
			line--;
		uint64_t addr = strtoull(line, NULL, 16);
		if (!addr)
			cr_skip_test("kallsyms addresses are hidden (kptr_restrict)");
		struct perfev_location loc;
		cr_assert_eq(perfev_symbolizer_resolve(s, -1, NULL, addr + 4, 0, &loc), 1,
			     "%s unresolved", want[i]);
		cr_expect_str_eq(loc.symbol, want[i]);
		cr_expect_eq(loc.symoff, 4);
		cr_expect(loc.kernel);
		cr_expect_str_eq(loc.dso, "[kernel.kallsyms]");
		checked++;
	}
	cr_expect_geq(checked, 1, "none of the expected kernel functions in kallsyms");
	free(buf);
	perfev_symbolizer_free(s);
}

Test(live_symbols, perf_pid_map_for_anonymous_code)
{
	size_t len = 65536;
	void *code = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	cr_assert_neq(code, MAP_FAILED);
	char path[64];
	snprintf(path, sizeof(path), "/tmp/perf-%d.map", getpid());
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fprintf(f, "%llx 200 JIT:hot_trace\n", (unsigned long long)(uintptr_t)code + 0x100);
	fclose(f);
	size_t n;
	struct perfev_map *maps = proc_maps(0, &n);
	struct perfev_symbolizer *s = perfev_symbolizer_new(NULL);
	struct perfev_location loc = resolve_self(s, maps, n, (char *)code + 0x180);
	unlink(path);
	cr_expect_str_eq(loc.symbol, "JIT:hot_trace");
	cr_expect_eq(loc.symoff, 0x80);
	cr_expect_str_eq(loc.dso, path);
	maps_free(maps, n);
	perfev_symbolizer_free(s);
	munmap(code, len);
}

Test(live_symbols, binary_only_inside_a_mount_namespace, .timeout = 30)
{
	require_root();
	const char *bin = fixture("inl");
	char dir[] = "/tmp/perfev-nsroot-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	int ready[2];
	cr_assert_eq(pipe(ready), 0);
	pid_t child = fork();
	if (child == 0) {
		char cmd[8400];
		if (unshare(CLONE_NEWNS) < 0 || mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ||
		    mount("tmpfs", dir, "tmpfs", 0, NULL) < 0)
			_exit(2);
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s/prog'", bin, dir);
		if (system(cmd) != 0)
			_exit(3);
		if (write(ready[1], "k", 1) != 1)
			_exit(4);
		pause();
		_exit(0);
	}
	char c;
	close(ready[1]);
	if (read(ready[0], &c, 1) != 1) {
		waitpid(child, NULL, 0);
		rmdir(dir);
		cr_skip_test("cannot make a private mount namespace here");
	}
	char inside[128];
	snprintf(inside, sizeof(inside), "%s/prog", dir);
	cr_assert_neq(access(inside, F_OK), 0, "the binary must not be visible outside");
	size_t nmaps, nsyms;
	struct perfev_map *maps = fixture_maps(bin, 0x555555554000ull, &nmaps);
	for (size_t i = 0; i < nmaps; i++)
		maps[i].path = inside;
	struct nm_sym *syms = nm_text(bin, true, &nsyms);
	struct perfev_symbolizer *s = perfev_symbolizer_new(NULL);
	size_t ok = 0;
	for (size_t i = 0; i < nsyms; i++) {
		if (strcmp(syms[i].name, "outer_function"))
			continue;
		uint64_t ip = 0x555555554000ull + syms[i].addr + 2;
		struct perfev_location loc;
		cr_expect_eq(perfev_symbolizer_resolve(s, child, map_for(maps, nmaps, ip), ip, 0, &loc), 1);
		cr_expect_str_eq(loc.symbol, "outer_function");
		ok++;
	}
	cr_expect_eq(ok, 1);
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	rmdir(dir);
	nm_free(syms, nsyms);
	free(maps);
	perfev_symbolizer_free(s);
}
