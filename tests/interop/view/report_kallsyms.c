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

/* report_write_kernel_samples of thread PID, each sample 0x10 into its symbol. */
static void write_kernel_samples(const char *data, uint64_t text, uint64_t moved, const uint64_t *at, size_t n)
{
	report_write_kernel_samples(data, PID, text, moved, at, n, 0x10);
}

Test(interop_report, kernel_aliases_named_like_perf, .timeout = 60)
{
	require_perf_tool();
	char data[4200], options[4400];
	char *syms = report_write_kallsyms(kallsyms);
	snprintf(data, sizeof(data), "%s/kernel.data", test_tmpdir());
	const uint64_t at[] = {KBASE + 0x1000, KBASE + 0x2000, KBASE + 0x3000, KBASE + 0x4000, KBASE + 0x5000};
	write_kernel_samples(data, KBASE, 0, at, sizeof(at) / sizeof(at[0]));
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

/*
 * KASLR: a recording made in another boot of the same kernel holds
 * addresses moved by that boot's offset; its kernel map says where _text
 * was then ("[kernel.kallsyms]_text", pgoff). perf moves the symbols by the
 * difference (kallsyms__delta), so names are right after a reboot; so must
 * perfev, in report and script. Here the "other boot" is 0x2a00000 above
 * the kallsyms the reports read.
 */
#define MOVED 0x2a00000ull

Test(interop_report, kaslr_moved_kernel_named_like_perf, .timeout = 60)
{
	require_perf_tool();
	char data[4200], options[4400];
	char *syms = report_write_kallsyms(kallsyms);
	snprintf(data, sizeof(data), "%s/moved.data", test_tmpdir());
	const uint64_t at[] = {KBASE + 0x1000, KBASE + 0x4000, KBASE + 0x5000};
	write_kernel_samples(data, KBASE, MOVED, at, sizeof(at) / sizeof(at[0]));
	snprintf(options, sizeof(options), "--kallsyms '%s' --no-children --sort sym", syms);
	report_expect_like_perf(data, options, 0);
	struct run_result r = run_cmd("%s report -q -i '%s' --stdio %s && %s script -i '%s' -F ip,sym --kallsyms '%s'",
				      PERFEV_BIN, data, options, PERFEV_BIN, data, syms);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, "[k] x64_sys_rea\n") && strstr(r.out, "[k] schedule\n") &&
			  strstr(r.out, "[k] __global_after\n"), "%s", r.out);
	cr_expect(strstr(r.out, "ffffffff83a04010 schedule\n"), "script names the moved address: %s", r.out);
	run_result_free(&r);
	free(syms);
}

/* The same against this machine's own kallsyms, as after a reboot. */
Test(interop_report, kaslr_moved_running_kernel_named_like_perf, .timeout = 60)
{
	require_perf_tool();
	require_root();
	char line[512], name[256];
	uint64_t text = 0, sched = 0;
	FILE *f = fopen("/proc/kallsyms", "r");
	cr_assert(f);
	while (fgets(line, sizeof(line), f) && !(text && sched)) {
		unsigned long long v;
		char t;
		if (sscanf(line, "%llx %c %255s", &v, &t, name) != 3)
			continue;
		if (!strcmp(name, "_text"))
			text = v;
		else if (!strcmp(name, "schedule"))
			sched = v;
	}
	fclose(f);
	if (!text || !sched)
		cr_skip_test("no _text or schedule in /proc/kallsyms (kptr_restrict?)");
	char data[4200];
	snprintf(data, sizeof(data), "%s/moved-live.data", test_tmpdir());
	write_kernel_samples(data, text, MOVED, &sched, 1);
	report_expect_like_perf(data, "--no-children --sort sym", 0);
	struct run_result r = run_cmd("%s report -q -i '%s' --stdio --no-children --sort sym", PERFEV_BIN, data);
	cr_expect(strstr(r.out, "[k] schedule\n"), "%s", r.out);
	run_result_free(&r);
}

/* A module's samples fall in its map, a kernel MMAP named "[module]" (how
 * perf, and perfev record since it reads /proc/modules, record each loaded
 * module): "[mymod]" their object, as perf says, and named from the
 * module's kallsyms symbols, where perf 6.1 looks for the module's .ko
 * file and, without one, shows offsets in the module. */
Test(interop_report, module_samples_in_their_map, .timeout = 60)
{
	require_perf_tool();
	static const char syms_text[] = "ffffffff81000000 T _text\n"
					"ffffffff81000000 T _stext\n"
					"ffffffff81004000 T schedule\n"
					"ffffffff81006000 T _etext\n"
					"ffffffffc0000000 t mod_init\t[mymod]\n"
					"ffffffffc0000100 t mod_work\t[mymod]\n"
					"ffffffffc0000400 t mod_exit\t[mymod]\n";
	char data[4200], bare[4200], options[4400];
	char *syms = report_write_kallsyms(syms_text);
	snprintf(options, sizeof(options), "--kallsyms '%s' --no-children --sort dso,sym", syms);
	for (int with_map = 0; with_map < 2; with_map++) {
		char *path = with_map ? data : bare;
		snprintf(path, sizeof(data), "%s/module%d.data", test_tmpdir(), with_map);
		struct perfev_attr a;
		struct perfev_perfdata_writer *w = report_crafted_writer(path, &a, 0);
		report_put_kernel_map(w, &a, KBASE);
		struct perfev_record r = {.type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL,
					  .has_sid = true};
		r.u.mmap.pid = (uint32_t)-1;
		r.u.mmap.addr = 0xffffffffc0000000ull;
		r.u.mmap.len = 0x1000;
		r.u.mmap.filename = "[mymod]";
		r.sid.pid = -1;
		if (with_map)
			report_put_record(w, &r, &a);
		report_put_comm(w, &a, PID, "modules", 1, false);
		const uint64_t at[] = {0xffffffffc0000110ull, 0xffffffffc0000010ull, KBASE + 0x4010};
		for (size_t k = 0; k < 3; k++)
			report_put_sample(w, &a, PERF_RECORD_MISC_KERNEL, PID, at[k], 10 + k, 1000 * (k + 1), NULL, 0);
		cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
	}
	/* without the module's map its samples lie outside every recorded map:
	 * unknown, in both tools (why perfev record writes one per module) */
	report_expect_like_perf(bare, options, 0);
	struct run_result b = run_cmd("%s report -q -i '%s' --stdio %s", PERFEV_BIN, bare, options);
	cr_expect(!strstr(b.out, "mod_work"), "%s", b.out);
	run_result_free(&b);
	struct run_result o = run_cmd("%s report -q -i '%s' --stdio %s", PERFEV_BIN, data, options);
	cr_assert_eq(o.status, 0, "%s", o.err);
	cr_expect(strstr(o.out, "33.33%  [mymod]            [k] mod_init\n") &&
			  strstr(o.out, "16.67%  [mymod]            [k] mod_work\n") &&
			  strstr(o.out, "50.00%  [kernel.kallsyms]  [k] schedule\n"), "%s", o.out);
	run_result_free(&o);
	o = run_cmd("perf report -i '%s' --stdio %s 2>/dev/null", data, options);
	cr_expect(strstr(o.out, "33.33%  [mymod]            [k] 0x0000000000000010\n") &&
			  strstr(o.out, "16.67%  [mymod]            [k] 0x0000000000000110\n"),
		  "perf: the same objects, offsets in the module: %s", o.out);
	run_result_free(&o);
	free(syms);
}
