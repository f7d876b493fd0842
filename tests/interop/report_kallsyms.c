/* perfev report against perf report on a crafted recording of kernel
 * samples symbolized with a crafted kallsyms (--kallsyms): of the symbols at
 * one address the one perf names, whatever the samples' order. A fresh
 * recording meets such aliases only now and then (memcpy, __memcpy and
 * __pi_memcpy when a sample lands in the kernel's memcpy), so it is made
 * certain here. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KBASE 0xffffffff81000000ull
#define PID 4343

/* Alias runs in several orders: global and weak, local, underscores, lengths. */
static const char kallsyms[] = "ffffffff81000000 T _text\n"
			       "ffffffff81000000 T _stext\n"
			       "ffffffff81001000 t __alias_local\n"
			       "ffffffff81001000 T __x64_sys_read\n"
			       "ffffffff81001000 T _x64_sys_read\n"
			       "ffffffff81001000 W x64_sys_rea\n"
			       "ffffffff81002000 T memcpy\n"
			       "ffffffff81002000 T __memcpy\n"
			       "ffffffff81002000 T __pi_memcpy\n"
			       "ffffffff81003000 W weak_first\n"
			       "ffffffff81003000 T global_last\n"
			       "ffffffff81004000 T schedule\n"
			       "ffffffff81005000 t local_first\n"
			       "ffffffff81005000 T __global_after\n"
			       "ffffffff81006000 T _etext\n";

/* The kernel's map as perf records it, then one sample inside each symbol
 * (period 1000 * (k + 1): no ties). */
static void write_kernel_samples(const char *data)
{
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, 0);
	report_put_kernel_map(w, &a, KBASE);
	report_put_comm(w, &a, PID, "aliases", 1, false);
	for (uint64_t k = 0; k < 5; k++)
		report_put_sample(w, &a, PERF_RECORD_MISC_KERNEL, PID, KBASE + 0x1000 * (k + 1) + 0x10, 10 + k,
				  1000 * (k + 1), NULL, 0);
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
}

Test(interop_report, kernel_aliases_named_like_perf, .timeout = 60)
{
	require_perf_tool();
	char data[4200], options[4400];
	char *syms = report_write_kallsyms(kallsyms);
	snprintf(data, sizeof(data), "%s/kernel.data", test_tmpdir());
	write_kernel_samples(data);
	snprintf(options, sizeof(options), "--kallsyms '%s' --no-children --sort sym", syms);
	free(syms);
	report_expect_like_perf(data, options, 0);
	/* and perf names them as it does on this kernel: the alias listed last */
	struct run_result r = run_cmd("%s report -q -i '%s' --stdio %s", PERFEV_BIN, data, options);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "[k] x64_sys_rea\n") && strstr(r.out, "[k] __pi_memcpy\n") &&
			  strstr(r.out, "[k] global_last\n") && strstr(r.out, "[k] __global_after\n"),
		  "%s", r.out);
	run_result_free(&r);
}
