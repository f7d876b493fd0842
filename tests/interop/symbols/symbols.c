/*
 * `perfev addr2line` against binutils' addr2line, byte for byte, on the
 * symbols fixtures, with -a -f -i -C: every byte of the fixtures' own
 * functions, and the first, middle and last byte of every function of
 * Rust's std. One known difference is allowed: addr2line's
 * " (discriminator N)" suffix. Functions outside DWARF are compared too
 * (crtstuff.c's, named by their STT_FILE symbol: "crtstuff.c:?").
 * Functions with aliases are left out: perfev picks among them as perf does.
 */
#define _GNU_SOURCE
#include "support.h"
#include "support_symbols.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void same_as_addr2line(const char *name, const char *nm_name, const char *match,
			      bool every_byte)
{
	const char *bin = fixture(name);
	if (access(bin, R_OK) != 0)
		cr_skip_test("no %s fixture", name);
	size_t n;
	struct nm_sym *syms = nm_text(fixture(nm_name ? nm_name : name), false, &n);
	char path[4300];
	snprintf(path, sizeof(path), "%s/addrs", test_tmpdir());
	FILE *f = fopen(path, "w");
	size_t count = 0;
	for (size_t i = 0; i < n; i++) {
		if (match && !strstr(syms[i].name, match))
			continue;
		/* aliases (identical code folded): which name wins is a policy (perf's) */
		if ((i > 0 && syms[i - 1].addr == syms[i].addr) ||
		    (i + 1 < n && syms[i + 1].addr == syms[i].addr))
			continue;
		if (every_byte) {
			for (uint64_t o = 0; o < syms[i].size; o++)
				fprintf(f, "0x%llx\n", (unsigned long long)(syms[i].addr + o));
		} else {
			fprintf(f, "0x%llx\n0x%llx\n0x%llx\n", (unsigned long long)syms[i].addr,
				(unsigned long long)(syms[i].addr + syms[i].size / 2),
				(unsigned long long)(syms[i].addr + (syms[i].size ? syms[i].size - 1 : 0)));
		}
		count++;
	}
	fclose(f);
	nm_free(syms, n);
	cr_assert_gt(count, 0);
	struct run_result ours = run_cmd("%s addr2line -a -f -i -C -e '%s' < %s", PERFEV_BIN, bin, path);
	struct run_result theirs = run_cmd("addr2line -a -f -i -C -e '%s' < %s | sed -e "
					   "'s/ (discriminator [0-9]*)//'", bin, path);
	cr_assert_eq(ours.status, 0, "perfev addr2line: %s", ours.err);
	cr_assert_eq(theirs.status, 0);
	const char *a = ours.out, *b = theirs.out, *addr = "";
	size_t lines = 0;
	while (*a || *b) {
		size_t al = strcspn(a, "\n"), bl = strcspn(b, "\n");
		if (strncmp(a, "0x", 2) == 0)
			addr = a;
		if (al != bl || memcmp(a, b, al) != 0)
			cr_assert_fail("%s: perfev addr2line differs from addr2line at %.18s:\n"
				       "perfev:    %.*s\naddr2line: %.*s", name, addr, (int)al, a,
				       (int)bl, b);
		a += al + (a[al] == '\n');
		b += bl + (b[bl] == '\n');
		lines++;
	}
	cr_log_info("%s: %zu functions, %zu lines of identical output", name, count, lines);
	run_result_free(&ours);
	run_result_free(&theirs);
}

Test(interop_symbols, addr2line_c_inlines, .timeout = 60) { same_as_addr2line("inl", NULL, NULL, true); }
Test(interop_symbols, addr2line_clang, .timeout = 60) { same_as_addr2line("inl.clang", NULL, NULL, true); }
Test(interop_symbols, addr2line_cxx, .timeout = 60) { same_as_addr2line("cxx", NULL, NULL, true); }
Test(interop_symbols, addr2line_debuglink, .timeout = 60) { same_as_addr2line("inl.stripped", "inl.stripped.debug", NULL, true); }
/* all of std's functions too: deep inline chains of generic code */
Test(interop_symbols, addr2line_rust_std, .timeout = 120) { same_as_addr2line("rs", NULL, NULL, false); }
Test(interop_symbols, addr2line_rust_v0, .timeout = 120) { same_as_addr2line("rs.v0", NULL, NULL, false); }
Test(interop_symbols, addr2line_rust, .timeout = 120) { same_as_addr2line("rs", NULL, "engine", true); }

Test(interop_symbols, addr2line_errors_name_the_fix)
{
	struct run_result r = run_cmd("%s addr2line -f -e /nonexistent/prog 0x1000", PERFEV_BIN);
	cr_expect_neq(r.status, 0);
	cr_expect(strstr(r.err, "/nonexistent/prog") && strstr(r.err, "-e FILE"), "stderr: %s", r.err);
	run_result_free(&r);
	/* stripped: what addr2line prints, and a note on stderr saying what to install */
	r = run_cmd("%s addr2line -f -e '%s' 0x1139 xyz", PERFEV_BIN, fixture("inl.bare"));
	cr_expect_neq(r.status, 0, "a bad address is an error");
	cr_expect(strstr(r.out, "??:"), "stdout: %s", r.out);
	cr_expect(strstr(r.err, "no symbols") && strstr(r.err, "debug"), "stderr: %s", r.err);
	cr_expect(strstr(r.err, "'xyz' is not a hex address"), "stderr: %s", r.err);
	run_result_free(&r);
}
