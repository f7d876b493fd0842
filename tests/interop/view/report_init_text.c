/* Kernel .init.text (start_kernel, x86_64_start_kernel: the idle task's
 * chains) lies past _etext, outside the kernel map a recording holds
 * ([kernel.kallsyms]_text, _text to _etext, as perf and perfev record it).
 * perf still names it: with /proc/kallsyms it reads /proc/kcore, whose
 * segment holding _stext becomes the kernel map (dso__load_kcore). perfev
 * left such frames as 0xffffffff8...; here a crafted recording of the
 * running kernel's idle chain, against perf report --children. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PID 0

/* The running kernel's address of each name (0: not listed). */
static void kallsyms_of(const char *const *names, uint64_t *addrs, size_t n)
{
	char line[512], name[256];
	memset(addrs, 0, n * sizeof(*addrs));
	FILE *f = fopen("/proc/kallsyms", "r");
	cr_assert(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v;
		char t;
		if (sscanf(line, "%llx %c %255s", &v, &t, name) != 3)
			continue;
		for (size_t i = 0; i < n; i++)
			if (!addrs[i] && !strcmp(name, names[i]))
				addrs[i] = v;
	}
	fclose(f);
}

Test(interop_report, init_text_symbols_named_like_perf, .timeout = 60)
{
	require_perf_tool();
	require_root();
	static const char *const names[] = {"_text", "_etext", "default_idle", "start_kernel",
					    "x86_64_start_kernel", "__pfx_start_kernel", "__pfx_default_idle"};
	uint64_t at[7];
	kallsyms_of(names, at, 7);
	for (size_t i = 0; i < 5; i++)
		if (!at[i])
			cr_skip_test("no %s in /proc/kallsyms (kptr_restrict, or another architecture)", names[i]);
	cr_assert_gt(at[3], at[1], "start_kernel is past _etext");
	char data[4200];
	snprintf(data, sizeof(data), "%s/init.data", test_tmpdir());
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, PERF_SAMPLE_CALLCHAIN);
	struct perfev_record r = {.type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL, .has_sid = true};
	r.u.mmap.pid = (uint32_t)-1;
	r.u.mmap.addr = at[0];
	r.u.mmap.len = at[1] - at[0];
	r.u.mmap.pgoff = at[0];
	r.u.mmap.filename = "[kernel.kallsyms]_text";
	r.sid.pid = -1;
	report_put_record(w, &r, &a);
	report_put_comm(w, &a, PID, "swapper", 1, false);
	const uint64_t chain[] = {PERF_CONTEXT_KERNEL, at[2] + 0x10, at[3] + 0x20, at[4] + 0x30};
	for (uint64_t k = 0; k < 3; k++)
		report_put_sample(w, &a, PERF_RECORD_MISC_KERNEL, PID, at[2] + 0x10, 10 + k, 1000, chain, 4);
	/* perf names the padding before a function (CONFIG_CALL_PADDING's
	 * __pfx_ symbols) as kallsyms lists it, in and past _etext */
	const uint64_t pfx_chain[] = {PERF_CONTEXT_KERNEL, at[6] + 4, at[5] + 4, at[4] + 0x30};
	if (at[5] && at[6])
		report_put_sample(w, &a, PERF_RECORD_MISC_KERNEL, PID, at[6] + 4, 20, 500, pfx_chain, 4);
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
	report_expect_like_perf(data, "--children --sort sym -g none", 0);
	report_expect_like_perf(data, "--children", 0);
	struct run_result o = run_cmd("%s report -q -i '%s' --stdio --children --sort sym -g none", PERFEV_BIN, data);
	cr_expect(strstr(o.out, "[k] start_kernel\n") && strstr(o.out, "[k] x86_64_start_kernel\n"), "%s", o.out);
	/* (in _text.._etext the padding's name is whichever alias perf keeps:
	 * __pfx_default_idle shares its address with __cpuidle_text_start) */
	cr_expect(!at[5] || !at[6] || strstr(o.out, "[k] __pfx_start_kernel\n"), "%s", o.out);
	run_result_free(&o);
}
