/* perfev report against perf report on a crafted recording with a sample at
 * each address of this machine's libc where .dynsym has several names (an
 * alias, or versions of one function): perfev must keep the name perf 6.1
 * keeps. With libc's debug file (libc6-dbg) the names come from its
 * .symtab, which spells versions out (pthread_rwlock_rdlock@GLIBC_2.2.5 and
 * pthread_rwlock_rdlock@@GLIBC_2.34 at one address): on a tie perf keeps
 * the one its table lists first. Every sample is certain to land there: the
 * recording is written, not recorded. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BASE 0x7f0000000000ull
#define PID 4343
#define MAX_ADDRS 512

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The executable PT_LOAD of path, and the addresses its .dynsym names more
 * than once (functions only), ascending; returns their number. */
static size_t alias_addresses(const char *path, GElf_Phdr *text, uint64_t *out, size_t max)
{
	int fd;
	bool found;
	Elf *e = report_elf_open(path, &fd, text, &found);
	cr_assert(found, "%s has no executable PT_LOAD", path);
	uint64_t *all = NULL;
	size_t n = 0;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_DYNSYM || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(s, NULL);
		size_t nsym = d ? d->d_size / sh.sh_entsize : 0;
		all = calloc(nsym + 1, sizeof(*all));
		cr_assert_not_null(all);
		for (size_t k = 0; k < nsym; k++) {
			GElf_Sym sym;
			if (gelf_getsym(d, (int)k, &sym) && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
			    sym.st_shndx != SHN_UNDEF && sym.st_value >= text->p_vaddr &&
			    sym.st_value < text->p_vaddr + text->p_memsz)
				all[n++] = sym.st_value;
		}
		break;
	}
	report_elf_close(e, fd);
	qsort(all, n, sizeof(*all), cmp_u64);
	size_t nr = 0;
	for (size_t i = 1; i < n && nr < max; i++)
		if (all[i] == all[i - 1] && (!nr || out[nr - 1] != all[i]))
			out[nr++] = all[i];
	free(all);
	return nr;
}

static void write_alias_samples(const char *data, const char *libc, const GElf_Phdr *text,
				const uint64_t *addrs, size_t nr)
{
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, 0);
	report_put_text_map(w, &a, PID, "aliases", libc, BASE, text->p_vaddr, text->p_memsz, text->p_offset);
	for (size_t i = 0; i < nr; i++) {
		/* inside the function; period: every row its own value, no ties */
		report_put_sample(w, &a, PERF_RECORD_MISC_USER, PID, BASE + addrs[i] + 1, 10 + i, 1000 * (i + 1), NULL, 0);
	}
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
}

Test(interop_report, aliases_and_versions_named_like_perf, .timeout = 120)
{
	require_perf_tool();
	char libc[4096], data[4200];
	cr_assert(report_find_object("/libc.so.6", libc, sizeof(libc)), "libc.so.6 is not in /proc/self/maps");
	GElf_Phdr text;
	static uint64_t addrs[MAX_ADDRS];
	size_t nr = alias_addresses(libc, &text, addrs, MAX_ADDRS);
	if (nr < 2)
		cr_skip_test("%s has no function with several .dynsym names", libc);
	snprintf(data, sizeof(data), "%s/aliases.data", test_tmpdir());
	write_alias_samples(data, libc, &text, addrs, nr);
	static const char *const options[] = {"--no-children --sort sym", "--no-children --sort dso,sym"};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		size_t lines = report_expect_like_perf(data, options[i], 0);
		cr_expect_geq(lines, nr, "%s: a row per sampled address", options[i]);
	}
	struct run_result v = run_cmd("%s report -q -i '%s' --stdio --sort sym | grep -c '@@\\?GLIBC_'",
				      PERFEV_BIN, data);
	if (strtol(v.out, NULL, 10) == 0)
		cr_log_info("no versioned names (libc6-dbg not installed?): only aliases are compared");
	run_result_free(&v);
}
