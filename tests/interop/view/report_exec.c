/* perfev report against perf report on a crafted recording with samples in
 * a stripped non-PIE executable (ET_EXEC: its text at 0x401000, file offset
 * 0x1000) at addresses no symbol holds: perf names such an address by its
 * offset in the file (map__map_ip: ip - start + pgoff), 0x1010, not by the
 * ELF address 0x401010. The executable is built here, the samples written,
 * so every one is certain to land where meant. */
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

#define PID 4444

/* The executable PT_LOAD of path; false if it is not an ET_EXEC with one. */
static bool exec_text(const char *path, GElf_Phdr *text)
{
	int fd;
	bool found;
	Elf *e = report_elf_open(path, &fd, text, &found);
	GElf_Ehdr eh;
	found = found && gelf_getehdr(e, &eh) && eh.e_type == ET_EXEC;
	report_elf_close(e, fd);
	return found && text->p_vaddr != text->p_offset;
}

Test(interop_report, exec_unnamed_addresses_like_perf, .timeout = 60)
{
	require_perf_tool();
	char src[4200], bin[4200], data[4200];
	snprintf(src, sizeof(src), "%s/exec.c", test_tmpdir());
	snprintf(bin, sizeof(bin), "%s/exec", test_tmpdir());
	snprintf(data, sizeof(data), "%s/exec.data", test_tmpdir());
	FILE *f = fopen(src, "w");
	cr_assert_not_null(f);
	fputs("static volatile int v;\nstatic void a(void) { v++; }\nstatic void b(void) { v--; }\n"
	      "int main(void) { a(); b(); return v; }\n", f);
	fclose(f);
	struct run_result c = run_cmd("cc -O0 -no-pie -o '%s' '%s' && strip -s '%s'", bin, src, bin);
	if (c.status != 0)
		cr_skip_test("cannot build a stripped non-PIE executable (cc -no-pie, strip): %s", c.out);
	run_result_free(&c);
	GElf_Phdr text;
	if (!exec_text(bin, &text))
		cr_skip_test("%s is not an ET_EXEC whose text address differs from its file offset", bin);

	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, 0);
	report_put_text_map(w, &a, PID, "exec", bin, 0, text.p_vaddr, text.p_memsz, text.p_offset);
	for (uint64_t i = 0; i < 8 && 0x10 * i + 3 < text.p_filesz; i++) {
		/* period: every row its own value, no ties */
		report_put_sample(w, &a, PERF_RECORD_MISC_USER, PID, text.p_vaddr + 0x10 * i + 3, 10 + i, 1000 * (i + 1),
				  NULL, 0);
	}
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
	static const char *const options[] = {"--no-children --sort sym", "--no-children --sort dso,sym",
					      "--no-children"};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		size_t lines = report_expect_like_perf(data, options[i], 0);
		cr_expect_geq(lines, 8, "%s: a row per sampled address", options[i]);
	}
}
