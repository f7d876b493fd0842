/*
 * Kernel probes (the host's kernel has none): k:SYMBOL counts each call
 * exactly and records them.
 */
#define _GNU_SOURCE
#include "vm.h"

#include <perfev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `writes N` makes exactly N write(2) calls: N calls of ksys_write. */
Test(vm_kprobe, counts_exactly)
{
	vm_require_pmu();
	cr_assert_eq(access("/sys/bus/event_source/devices/kprobe/type", R_OK), 0, "no kprobe PMU");
	double n1 = vm_stat("k:ksys_write", "probe:ksys_write", WORKLOAD("writes") " 1234", NULL);
	double n2 = vm_stat("k:ksys_write", "probe:ksys_write", WORKLOAD("writes") " 5000", NULL);
	cr_log_info("k:ksys_write: %.0f for writes 1234, %.0f for writes 5000", n1, n2);
	cr_assert_eq(n1, 1234);
	cr_assert_eq(n2, 5000);
}

Test(vm_kprobe, records_each_call)
{
	vm_require_pmu();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("cd %s && %s record -q -e k:ksys_write -o k.data -- %s 321", dir,
				      PERFEV, WORKLOAD("writes"));
	cr_assert_eq(r.status, 0, "record: %s", r.err);
	run_result_free(&r);
	r = run_cmd("cd %s && %s script -i k.data -F comm,event,ip,sym", dir, PERFEV);
	cr_assert_eq(r.status, 0, "script: %s", r.err);
	long n = 0;
	for (const char *p = r.out; (p = strstr(p, "ksys_write")); p++)
		n++;
	cr_log_info("%.400s", r.out);
	/* each line names the event and the function: kernel symbols resolve
	 * (arm64's kallsyms has _stext, not _text, for the kernel map) */
	cr_assert_eq(n, 2 * 321, "%ld mentions of ksys_write:\n%.2000s", n, r.out);
	run_result_free(&r);
}
