/* perfev report against perf report on a crafted recording with samples at
 * the PLT entries of this machine's libc: each named as perf 6.1 names it
 * (in .rela.plt's order), also a slot of an R_X86_64_IRELATIVE relocation,
 * which has no symbol: "@plt". A fresh recording hits such a slot only now
 * and then (a call of one of libc's own IFUNCs caught at its first
 * instruction), so it is made certain here. One such slot only: perf keeps
 * a row per symbol address, perfev one per name and DSO, so two "@plt"
 * slots would be one row in perfev's report. */
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
#define PID 4242

struct plt_layout {
	GElf_Phdr text;          /* the executable PT_LOAD */
	uint64_t first, nr;      /* the first entry after PLT0, .rela.plt's count */
	bool sec, irelative;     /* has .plt.sec; .rela.plt has an IRELATIVE slot */
	bool sample[1024];       /* the entries sampled: the named, the first IRELATIVE */
};

static bool read_layout(const char *path, struct plt_layout *l)
{
	memset(l, 0, sizeof(*l));
	int fd;
	bool text, plt = false;
	Elf *e = report_elf_open(path, &fd, &l->text, &text);
	size_t shstr = 0;
	elf_getshdrstrndx(e, &shstr);
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		const char *name = gelf_getshdr(s, &sh) ? elf_strptr(e, shstr, sh.sh_name) : NULL;
		if (!name)
			continue;
		if (strcmp(name, ".plt") == 0) {
			l->first = sh.sh_addr + 16;
			plt = true;
		} else if (strcmp(name, ".plt.sec") == 0) {
			l->sec = true;
		} else if (strcmp(name, ".rela.plt") == 0 && sh.sh_entsize) {
			l->nr = sh.sh_size / sh.sh_entsize;
			Elf_Data *d = elf_getdata(s, NULL);
			GElf_Rela r;
			for (size_t k = 0; d && k < l->nr && k < 1024; k++) {
				if (!gelf_getrela(d, (int)k, &r))
					continue;
				bool irel = GELF_R_TYPE(r.r_info) == R_X86_64_IRELATIVE;
				l->sample[k] = !irel || !l->irelative;
				l->irelative |= irel;
			}
		}
	}
	report_elf_close(e, fd);
	return text && plt && l->nr;
}

/* COMM, the MMAP2 of libc's text at BASE, then entry i of the PLT sampled
 * with a period of 1000 * (i + 1) (every row its own value: no ties).
 * With `ties`: instead two samples of equal period called from the last
 * sampled entry, one in the first sampled entry, one outside any map above it. */
static void write_plt_samples(const char *data, const char *libc, const struct plt_layout *l, bool ties)
{
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, ties ? PERF_SAMPLE_CALLCHAIN : 0);

	report_put_text_map(w, &a, PID, "plt", libc, BASE, l->text.p_vaddr, l->text.p_memsz, l->text.p_offset);
	uint64_t first = UINT64_MAX, last = 0;
	for (uint64_t i = 0; i < l->nr && i < 1024; i++)
		if (l->sample[i])
			first = first == UINT64_MAX ? i : first, last = i;
	for (uint64_t k = 0; ties && k < 2; k++) {
		uint64_t leaf = k ? 0x7ffff0001000ull : BASE + l->first + first * 16;
		uint64_t chain[] = {PERF_CONTEXT_USER, leaf, BASE + l->first + last * 16 + 6};
		report_put_sample(w, &a, PERF_RECORD_MISC_USER, PID, leaf, 10 + k, 1000, chain, 3);
	}
	for (uint64_t i = 0; !ties && i < l->nr && i < 1024; i++) {
		if (!l->sample[i])
			continue;
		report_put_sample(w, &a, PERF_RECORD_MISC_USER, PID, BASE + l->first + i * 16, 10 + i, 1000 * (i + 1),
				  NULL, 0);
	}
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
}

Test(interop_report, plt_slots_named_like_perf, .timeout = 60)
{
	require_perf_tool();
	char libc[4096], data[4200];
	cr_assert(report_find_object("/libc.so.6", libc, sizeof(libc)), "libc.so.6 is not in /proc/self/maps");
	struct plt_layout l;
	if (!read_layout(libc, &l))
		cr_skip_test("%s has no lazy .plt with .rela.plt entries to sample", libc);
	/* perf 6.1 names .plt's entries, perfev (as later perf) those of .plt.sec */
	if (l.sec)
		cr_skip_test("%s has a .plt.sec (IBT): perf 6.1 and perfev name different sections", libc);
	if (!l.irelative)
		cr_log_info("%s has no R_X86_64_IRELATIVE PLT slot: only named entries are compared", libc);
	snprintf(data, sizeof(data), "%s/plt.data", test_tmpdir());
	write_plt_samples(data, libc, &l, false);
	static const char *const options[] = {"--no-children --sort dso,sym", "-F overhead,sym",
					      "--no-children --sort sym"};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		size_t lines = report_expect_like_perf(data, options[i], 0);
		cr_expect_gt(lines, 10, "%s: a row per PLT entry", options[i]);
	}
	if (l.irelative) {
		struct run_result r = run_cmd("%s report -q -i '%s' --stdio --sort sym | grep -c '\\[\\.\\] @plt *$'",
					      PERFEV_BIN, data);
		cr_expect_gt(strtol(r.out, NULL, 10), 0, "IRELATIVE slots are named \"@plt\": %s", r.out);
		run_result_free(&r);
	}
}

/* Call-graph siblings of equal weight: perf orders them by their object
 * (a pointer: NULL outside any map, below every other) then address, from
 * the highest; a frame outside any map comes last. */
Test(interop_report, unmapped_sibling_last_like_perf, .timeout = 60)
{
	require_perf_tool();
	char libc[4096], data[4200];
	cr_assert(report_find_object("/libc.so.6", libc, sizeof(libc)), "libc.so.6 is not in /proc/self/maps");
	struct plt_layout l;
	if (!read_layout(libc, &l) || l.sec)
		cr_skip_test("%s has no lazy .plt (or a .plt.sec) to sample", libc);
	snprintf(data, sizeof(data), "%s/ties.data", test_tmpdir());
	write_plt_samples(data, libc, &l, true);
	static const char *const options[] = {"--children", "--children -g callee", "--no-children -g caller"};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		report_expect_like_perf(data, options[i], 0);
	}
}
