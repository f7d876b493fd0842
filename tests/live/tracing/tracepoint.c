/* Tracepoint formats of the running kernel, and perf.data TRACING_DATA
 * against what perf writes. */
#define _GNU_SOURCE
#include "support.h"
#include "support_dynevents.h"
#include "perfev.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

Test(live_tracepoint, formats_load_from_tracefs)
{
	require_root();
	require_tracefs();
	struct perfev_tp *tp = perfev_tp_new();
	int64_t sw = perfev_tp_load(tp, "sched", "sched_switch");
	cr_assert_gt(sw, 0, "%s", perfev_errmsg());
	cr_assert_eq(sw, perfev_tp_event_id("sched", "sched_switch"));
	cr_assert_str_eq(perfev_tp_name(tp, (uint64_t)sw), "sched:sched_switch");
	int64_t op = perfev_tp_event_id("syscalls", "sys_enter_openat");
	if (op < 0)
		cr_skip_test("no syscalls:sys_enter_openat (CONFIG_FTRACE_SYSCALLS)");
	cr_assert_eq(perfev_tp_load_id(tp, (uint64_t)op), 0, "%s", perfev_errmsg());
	cr_assert_str_eq(perfev_tp_name(tp, (uint64_t)op), "syscalls:sys_enter_openat");
	cr_assert_eq(perfev_tp_load_system(tp, 0), 0);
	cr_assert_eq(perfev_tp_load(tp, "sched", "no_such_event"), -ENOENT);
	cr_assert(strstr(perfev_errmsg(), "sched:no_such_event"), "%s", perfev_errmsg());
	perfev_tp_free(tp);
}

Test(live_tracepoint, tracing_data_round_trip)
{
	require_root();
	require_tracefs();
	uint64_t ids[3];
	int64_t a = perfev_tp_event_id("sched", "sched_switch");
	int64_t b = perfev_tp_event_id("raw_syscalls", "sys_enter");
	cr_assert(a > 0 && b > 0, "%s", perfev_errmsg());
	ids[0] = (uint64_t)a;
	ids[1] = (uint64_t)b;
	ids[2] = (uint64_t)a; /* a duplicate is written once */
	void *data;
	size_t len, used;
	cr_assert_eq(perfev_tracing_data_write(ids, 3, 0, &data, &len), 0, "%s", perfev_errmsg());
	cr_assert_eq(memcmp(data, "\027\010\104tracing", 10), 0);
	struct perfev_tp *tp = perfev_tp_from_tracing_data(data, len, &used);
	cr_assert(tp, "%s", perfev_errmsg());
	cr_assert_eq(used, len);
	cr_assert_str_eq(perfev_tp_name(tp, ids[0]), "sched:sched_switch");
	cr_assert_str_eq(perfev_tp_name(tp, ids[1]), "raw_syscalls:sys_enter");
	perfev_tp_free(tp);
	free(data);
}

/* perf's own TRACING_DATA (interop): perfev reads every part of it. */
Test(live_tracepoint, reads_perfs_tracing_data)
{
	require_root();
	require_tracefs();
	require_perf_tool();
	const char *dir = test_tmpdir();
	struct run_result r = run_cmd("perf record -q -o %s/tp.data -e sched:sched_switch "
				      "-e syscalls:sys_enter_openat -- sh -c 'cat /etc/hostname "
				      ">/dev/null; sleep 0.01' 2>&1", dir);
	cr_assert_eq(r.status, 0, "perf record: %s", r.out);
	run_result_free(&r);
	char path[512];
	snprintf(path, sizeof(path), "%s/tp.data", dir);
	size_t len = 0, used = 0;
	void *td = perfdata_feature(path, 1, &len);
	cr_assert(td, "perf.data has no TRACING_DATA feature");
	struct perfev_tp *tp = perfev_tp_from_tracing_data(td, len, &used);
	cr_assert(tp, "%s", perfev_errmsg());
	cr_assert_eq(used, len, "read %zu of the feature's %zu bytes", used, len);
	cr_assert_str_eq(perfev_tp_name(tp, (uint64_t)perfev_tp_event_id("sched", "sched_switch")),
			 "sched:sched_switch");
	cr_assert_str_eq(perfev_tp_name(tp, (uint64_t)perfev_tp_event_id("syscalls",
									 "sys_enter_openat")),
			 "syscalls:sys_enter_openat");
	perfev_tp_free(tp);
	free(td);
	r = run_cmd("rm -rf %s", dir);
	run_result_free(&r);
}

struct decoded {
	struct perfev_tp *tp;
	struct perfev_decoder *dec;
	char lines[64][256];
	int n;
};

static int collect(void *ctx, const void *rec, size_t size)
{
	struct decoded *d = ctx;
	struct perfev_record r;
	if (perfev_decoder_decode(d->dec, rec, size, &r) < 0 || r.type != PERF_RECORD_SAMPLE)
		return 0;
	char *text;
	cr_assert_gt(perfev_tp_print(d->tp, r.u.sample.raw, r.u.sample.raw_size, 0, &text), 0,
		     "%s", perfev_errmsg());
	if (d->n < 64)
		snprintf(d->lines[d->n++], 256, "%s", text);
	free(text);
	return 0;
}

/* Real samples of a command, decoded: one event per CPU on the held child. */
static void sample_command(const char *sys, const char *name, char *const argv[], struct decoded *d)
{
	d->tp = perfev_tp_new();
	d->dec = perfev_decoder_new();
	int64_t id = perfev_tp_load(d->tp, sys, name);
	if (id < 0)
		cr_skip_test("no tracepoint %s:%s here", sys, name);
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_TRACEPOINT;
	a.config = (uint64_t)id;
	a.sample_period = 1;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_RAW;
	a.disabled = 1;
	a.enable_on_exec = 1;
	a.inherit = 1;
	perfev_decoder_add_attr(d->dec, &a, NULL, 0);
	struct held_child c = hold_child(argv);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int fds[64];
	struct perfev_ring *rings[64];
	for (long i = 0; i < ncpu && i < 64; i++) {
		fds[i] = perfev_open(&a, c.pid, (int)i, -1, 0);
		cr_assert_geq(fds[i], 0, "%s", perfev_errmsg());
		rings[i] = perfev_ring_mmap(fds[i], 8, false);
		cr_assert(rings[i], "%s", perfev_errmsg());
	}
	cr_assert_eq(release_child(&c), 0);
	for (long i = 0; i < ncpu && i < 64; i++) {
		perfev_ring_drain(rings[i], collect, d);
		perfev_ring_munmap(rings[i]);
		close(fds[i]);
	}
}

static void decoded_free(struct decoded *d)
{
	perfev_tp_free(d->tp);
	perfev_decoder_free(d->dec);
}

Test(live_tracepoint, openat_samples_decode)
{
	require_root();
	require_tracefs();
	char *argv[] = {(char *)WORKLOAD("calls_n"), "calls", "1", NULL};
	struct decoded d = {0};
	sample_command("syscalls", "sys_enter_openat", argv, &d);
	/* as many as strace sees (ld.so opens its cache and libc) */
	struct run_result r = run_cmd("strace -qq -e trace=openat -o /dev/stdout %s calls 1 | grep -c '^openat('",
				      WORKLOAD("calls_n"));
	int want = atoi(r.out);
	run_result_free(&r);
	if (want > 0)
		cr_assert_eq(d.n, want, "%d openat samples, strace saw %d", d.n, want);
	cr_assert_geq(d.n, 2, "%d openat samples", d.n);
	for (int i = 0; i < d.n; i++)
		cr_assert(!strncmp(d.lines[i], "dfd: 0xffffff9c, filename: 0x", 29) &&
			  strstr(d.lines[i], ", flags: 0x00080000, mode: 0x00000000"), "%s", d.lines[i]);
	decoded_free(&d);
}

Test(live_tracepoint, sched_switch_samples_decode)
{
	require_root();
	require_tracefs();
	char *argv[] = {"/bin/sleep", "0.05", NULL};
	struct decoded d = {0};
	sample_command("sched", "sched_switch", argv, &d);
	cr_assert_geq(d.n, 1, "sleep never switched out");
	bool slept = false;
	for (int i = 0; i < d.n; i++) {
		cr_assert(!strncmp(d.lines[i], "prev_comm=sleep prev_pid=", 25) &&
			  strstr(d.lines[i], " ==> next_comm="), "%s", d.lines[i]);
		slept |= strstr(d.lines[i], " prev_state=S ==> ") != NULL;
	}
	cr_assert(slept, "no switch out in state S:\n%s", d.lines[0]);
	decoded_free(&d);
}
