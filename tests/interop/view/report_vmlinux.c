/* perfev report and script -k/--vmlinux against perf's (perf 6.1) on a
 * crafted recording of kernel samples and a crafted vmlinux (an ELF linked
 * at the kernel's address with _text, global and local functions): the
 * samples named from the image's symbol table, relocated by _text when
 * the recording's kernel sits elsewhere (KASLR), as perf; a missing file
 * or one that is no ELF: a one-line error. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "support_records.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINKED 0xffffffff81000000ull
#define PID 4344

static const char vmlinux_s[] = "\t.text\n\t.globl _text\n_text:\n\t.globl _stext\n_stext:\n"
				"\t.globl kfunc_a\n\t.type kfunc_a,@function\nkfunc_a:\n\t.fill 256,1,0x90\n"
				"\t.size kfunc_a,256\n"
				"\t.type kfunc_local,@function\nkfunc_local:\n\t.fill 256,1,0x90\n\t.size kfunc_local,256\n"
				"\t.globl kfunc_c\n\t.type kfunc_c,@function\nkfunc_c:\n\t.fill 512,1,0x90\n"
				"\t.size kfunc_c,512\n";

/* The image: vmlinux_s assembled and linked at LINKED. Its path. */
static char *build_vmlinux(void)
{
	char src[4200], obj[4200], *out;
	snprintf(src, sizeof(src), "%s/vmlinux.s", test_tmpdir());
	snprintf(obj, sizeof(obj), "%s/vmlinux.o", test_tmpdir());
	cr_assert(asprintf(&out, "%s/vmlinux", test_tmpdir()) > 0);
	FILE *f = fopen(src, "w");
	cr_assert_not_null(f);
	fputs(vmlinux_s, f);
	fclose(f);
	struct run_result r = run_cmd("cc -c '%s' -o '%s' && ld -Ttext=%#llx -e 0 --build-id -o '%s' '%s'", src, obj,
				      (unsigned long long)LINKED, out, obj);
	cr_assert_eq(r.status, 0, "building the vmlinux: %s", r.err);
	run_result_free(&r);
	return out;
}

/* The kernel map with _text at LINKED + moved, samples in each function. */
static void write_recording(const char *data, uint64_t moved)
{
	static const uint64_t at[] = {LINKED + 0x10, LINKED + 0x120, LINKED + 0x180,
				      LINKED + 0x210, LINKED + 0x3f0, LINKED + 0x20};
	report_write_kernel_samples(data, PID, LINKED, moved, at, sizeof(at) / sizeof(at[0]), 0);
}

Test(interop_report, vmlinux_symbols_like_perf, .timeout = 60)
{
	require_perf_tool();
	char *vmlinux = build_vmlinux();
	static const uint64_t moved[] = {0, 0x1a000000}; /* this boot's place, another's */
	for (size_t m = 0; m < sizeof(moved) / sizeof(moved[0]); m++) {
		char data[4200], opts[4400];
		snprintf(data, sizeof(data), "%s/vmlinux-%zu.data", test_tmpdir(), m);
		write_recording(data, moved[m]);
		snprintf(opts, sizeof(opts), "-k '%s' --no-children", vmlinux);
		report_expect_like_perf(data, opts, 0);
		snprintf(opts, sizeof(opts), "--vmlinux '%s' --no-children --sort sym", vmlinux);
		report_expect_like_perf(data, opts, 0);
		snprintf(opts, sizeof(opts), "-k '%s' -F comm,tid,ip,sym,symoff,dso", vmlinux);
		cr_expect(compare_script_args(data, opts, NULL));
		struct run_result sr = run_cmd("%s script -k '%s' -F ip,sym -i '%s'", PERFEV_BIN, vmlinux, data);
		cr_expect(sr.out && strstr(sr.out, "kfunc_local"), "script -k's names:\n%s", sr.out);
		run_result_free(&sr);
		/* the names are the image's */
		struct run_result r = run_cmd("%s report -q --stdio --sort sym -k '%s' -i '%s'", PERFEV_BIN, vmlinux, data);
		cr_expect(r.out && strstr(r.out, "[k] kfunc_a") && strstr(r.out, "[k] kfunc_local") &&
			  strstr(r.out, "[k] kfunc_c"), "-k's names:\n%s", r.out);
		run_result_free(&r);
		if (m)
			continue;
		static const char *const bad[] = {"/no/such/vmlinux", "/etc/hostname"};
		for (size_t b = 0; b < sizeof(bad) / sizeof(bad[0]); b++) {
			for (int cmd = 0; cmd < 2; cmd++) {
				r = run_cmd("%s %s -k %s -i '%s'", PERFEV_BIN, cmd ? "script" : "report --stdio", bad[b], data);
				const char *nl = r.err ? strchr(r.err, '\n') : NULL;
				cr_expect(r.status == 1 && nl && !nl[1] && strstr(r.err, bad[b]), "%d -k %s: %d %s", cmd,
					  bad[b], r.status, r.err);
				run_result_free(&r);
			}
		}
	}
	free(vmlinux);
}
