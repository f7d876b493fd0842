/* perf script's filters, call-chain and time options against perf script,
 * line for line: --comms, --pid, --tid, -C, --time, -S, --dsos, -G,
 * --max-stack, --stop-bt, --ns, --reltime, --deltatime, --header(-only), on
 * a recording perf makes here and on corpus files of many threads and CPUs. */
#define _GNU_SOURCE
#include "support.h"
#include "support_records.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void compare_all(const char *file, const char *const *args, size_t n)
{
	for (size_t i = 0; i < n; i++)
		compare_script_args(file, args[i], "cat");
}

Test(interop_script_filters, local_recording, .timeout = 120)
{
	require_perf_tool();
	require_root();
	char f[512];
	snprintf(f, sizeof(f), "%s/g.data", test_tmpdir());
	/* from 30 ms on: a sample in ld.so's start-up code (_dl_start_user, no
	 * line) is ":0" to perf's addr2line and "rtld.c:0" to perfev */
	struct run_result r = run_cmd("perf record -q -D 30 -g -e cpu-clock -F 2000 -o '%s' -- '%s' 100 >/dev/null",
				      f, WORKLOAD("calls"));
	if (r.status != 0)
		cr_skip_test("perf record cannot record here: %s", r.err);
	run_result_free(&r);
	char *a = perf_sample_time(f, 20), *b = perf_sample_time(f, 60);
	char t1[128], t2[128], t3[128];
	snprintf(t1, sizeof(t1), "--time %s,%s", a, b);
	snprintf(t2, sizeof(t2), "--time ,%s --show-task-events --show-mmap-events", a);
	snprintf(t3, sizeof(t3), "--time '%s,%s %s,'", a, a, b);
	const char *args[] = {
		"--max-stack 0", "--max-stack 2", "-G", "--hide-call-graph -F comm,ip,sym", "--ns", "--reltime",
		"--deltatime --show-task-events", "--reltime --ns --show-mmap-events", "--comms calls",
		"--comms nosuch", "-S alpha,beta", "-S leaf_a -G", "--dsos calls", "--dsos libc.so.6,calls",
		"--stop-bt main", "--stop-bt alpha,beta --max-stack 4", t1, t2, t3, "--header-only", "--header",
		/* perf refuses -C without PERF_SAMPLE_CPU: perfev too, with its reason */
		"-C 0",
	};
	compare_all(f, args, sizeof(args) / sizeof(args[0]));
	/* --pid and --tid: this recording's own */
	r = run_cmd("perf script -i '%s' -F pid 2>/dev/null | head -1 | tr -d ' \\n'", f);
	char p1[64], p2[64];
	snprintf(p1, sizeof(p1), "--pid %s", r.out);
	snprintf(p2, sizeof(p2), "--tid 1,%s -F tid,ip,sym", r.out);
	run_result_free(&r);
	compare_script_args(f, p1, "cat");
	compare_script_args(f, p2, "cat");
	/* srcline without line information: perf's object[address]; the file
	 * names of lines aside (binutils' addr2line, which perf runs, names
	 * libc-start.c:74 where the line table and llvm-symbolizer say
	 * libc_start_call_main.h:74; see README) */
	compare_script_args(f, "-F +srcline", "sed -E 's/^  [^ ]+\\.[ch]:[0-9]+$/  FILE:LINE/'");
	compare_script_args(f, "-F ip,sym,srcline -G", "sed -E 's/^  [^ ]+\\.[ch]:[0-9]+$/  FILE:LINE/'");
	free(a);
	free(b);
}

/* Many threads and CPUs of other machines: filters by CPU (side-band
 * lines too), name, process, thread, object and time. */
Test(interop_script_filters, corpus, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const char *const files[] = {"systemwide.1-3.8", "busy.1-3.8", "callgraph-3.8", "forkexit-3.8",
					    "lost_samples-4.4"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char f[512];
		snprintf(f, sizeof(f), "%s/perf.data.%s", CORPUS_DIR, files[i]);
		char *a = perf_sample_time(f, 50), *b = perf_sample_time(f, 150);
		char t1[128], t2[160];
		snprintf(t1, sizeof(t1), "--time %s,%s", a, b);
		snprintf(t2, sizeof(t2), "--time %s,%s --show-task-events --show-mmap-events", a, b);
		const char *args[] = {
			"-C 1", "-C 0,2-3 --show-task-events --show-mmap-events", "-C 9",
			"--comms chrome,perf", "--comms chrome --show-task-events --show-mmap-events",
			"--pid 19490,468", "--tid 19493", t1, t2, "--reltime --ns", "--deltatime --show-mmap-events",
			"--dsos [kernel.kallsyms]", "--dsos libc-2.15.so", "-G", "--max-stack 3",
		};
		compare_all(f, args, sizeof(args) / sizeof(args[0]));
		free(a);
		free(b);
	}
}

/* What perf script accepts and perfev cannot do, or what makes no sense,
 * is refused with the reason, before anything is printed. */
Test(interop_script_filters, refusals)
{
	require_corpus();
	static const struct {
		const char *args, *says;
	} cases[] = {
		{"--time 10%", "percent ranges are not supported"},
		{"--time 5,4", "START not after END"},
		{"--pid 12x", "'12x' is not a number"},
		{"--reltime --deltatime", "exclude each other"},
		{"-C 9", "CPU 9 was not there: the recording machine had 4 CPUs"},
		{"--max-stack x", "give a number of entries"},
		{"--header --json", "drop --json"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct run_result r = run_cmd("'%s' script -i '%s/perf.data.systemwide.1-3.8' %s", PERFEV_BIN,
					      CORPUS_DIR, cases[i].args);
		cr_expect_neq(r.status, 0, "%s: accepted", cases[i].args);
		cr_expect_eq(r.out_len, 0, "%s: printed %zu bytes first", cases[i].args, r.out_len);
		cr_expect(strstr(r.err, cases[i].says), "%s: %s", cases[i].args, r.err);
		run_result_free(&r);
	}
}
