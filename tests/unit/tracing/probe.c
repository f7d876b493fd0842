/* Probe strings taken apart, and ELF symbol → file offset. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Test(unit_probe, spec_forms)
{
	struct perfev_probe_spec s;
	cr_assert_eq(perfev_probe_spec_parse("u:/bin/true:main", &s), 0, "%s", perfev_errmsg());
	cr_assert(!s.kernel && !s.retprobe);
	cr_assert_str_eq(s.path, "/bin/true");
	cr_assert_str_eq(s.symbol, "main");
	cr_assert_eq(s.offset, 0);
	cr_assert_eq(perfev_probe_spec_parse("u:./a:b/c:func+0x10", &s), 0);
	cr_assert_str_eq(s.path, "./a:b/c");
	cr_assert_str_eq(s.symbol, "func");
	cr_assert_eq(s.offset, 16);
	cr_assert_eq(perfev_probe_spec_parse("u:/lib/libc.so.6:malloc%return", &s), 0);
	cr_assert(s.retprobe);
	cr_assert_str_eq(s.symbol, "malloc");
	cr_assert_eq(perfev_probe_spec_parse("k:do_sys_openat2+4", &s), 0);
	cr_assert(s.kernel && !s.retprobe);
	cr_assert_str_eq(s.symbol, "do_sys_openat2");
	cr_assert_eq(s.offset, 4);
	cr_assert_eq(perfev_probe_spec_parse("k:ksys_write%return", &s), 0);
	cr_assert(s.kernel && s.retprobe);
	cr_assert(perfev_probe_is_spec("u:x:y"));
	cr_assert(!perfev_probe_is_spec("uprobe/x/"));
}

Test(unit_probe, spec_errors_say_the_form)
{
	struct perfev_probe_spec s;
	const char *bad[] = {"x:foo", "u:nopath", "u::sym", "u:/bin/true:", "k:", "k:f+",
			     "k:f+zz", "k:f+4%return", "u:/bin/true:a b"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(perfev_probe_spec_parse(bad[i], &s), -EINVAL, "'%s' accepted", bad[i]);
		cr_assert(strstr(perfev_errmsg(), "u:PATH:SYMBOL"), "%s", perfev_errmsg());
	}
}

Test(unit_probe, elf_offset_matches_nm)
{
	const char *w = WORKLOAD("calls_n");
	struct run_result r = run_cmd("nm %s | awk '$3==\"probe_target\"{print $1}'", w);
	cr_assert_eq(r.status, 0);
	unsigned long long nm = strtoull(r.out, NULL, 16);
	run_result_free(&r);
	/* the text segment of our workloads maps file offset == vaddr */
	r = run_cmd("readelf -lW %s | awk '$1==\"LOAD\" && $2==$3 && $7 ~ /E/ {print \"same\"}'", w);
	bool same = strstr(r.out, "same") != NULL;
	run_result_free(&r);
	uint64_t off = 0;
	cr_assert_eq(perfev_elf_symbol_file_offset(w, "probe_target", &off), 0, "%s", perfev_errmsg());
	cr_assert_neq(nm, 0);
	if (same)
		cr_assert_eq(off, nm, "offset 0x%llx, nm 0x%llx", (unsigned long long)off, nm);
	char addr[32];
	snprintf(addr, sizeof(addr), "0x%llx", nm);
	uint64_t off2 = 1;
	cr_assert_eq(perfev_elf_symbol_file_offset(w, addr, &off2), 0);
	cr_assert_eq(off2, off);
	cr_assert_eq(perfev_elf_symbol_file_offset(w, "no_such_function", &off), -ENOENT);
	cr_assert(strstr(perfev_errmsg(), "no_such_function"), "%s", perfev_errmsg());
}
