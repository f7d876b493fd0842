/* In-process watchpoints against the real kernel: every access is one call. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile long target[4] __attribute__((aligned(8)));
static volatile int hits;
static volatile uint64_t last_addr;

static void on_hit(void *arg, const struct perfev_watch_hit *h)
{
	hits++;
	last_addr = h->addr;
	(*(volatile int *)arg)++;
}

static struct perfev_watch *watch_or_skip(const volatile void *p, unsigned type, volatile int *calls)
{
	require_breakpoint();
	cr_assert_eq(perfev_watch_sigtrap_install(), 0, "%s", perfev_errmsg());
	struct perfev_watch *w = perfev_watch_new((const void *)p, sizeof(long), type, on_hit, (void *)calls);
	cr_assert(w, "perfev_watch_new: %s", perfev_errmsg());
	return w;
}

Test(live_watch, n_writes_are_n_calls)
{
	volatile int calls = 0;
	struct perfev_watch *w = watch_or_skip(&target[1], PERFEV_WATCH_W, &calls);
	for (int i = 0; i < 37; i++)
		target[1] = i;
	(void)target[1]; /* a read: not a write */
	target[2] = 5;   /* a neighbour: not watched */
	cr_assert_eq(calls, 37, "37 writes gave %d calls", calls);
	cr_assert_eq(last_addr, (uint64_t)(uintptr_t)&target[1]);
	cr_assert_eq(perfev_watch_count(w), 37);
	perfev_watch_free(w);
	target[1] = 99;
	cr_assert_eq(calls, 37, "a write after free was reported");
}

Test(live_watch, moving_follows_the_new_address)
{
	volatile int calls = 0;
	struct perfev_watch *w = watch_or_skip(&target[0], PERFEV_WATCH_W, &calls);
	target[0] = 1;
	cr_assert_eq(calls, 1);
	int r = perfev_watch_move(w, (const void *)&target[3], sizeof(long), PERFEV_WATCH_RW);
	cr_assert_eq(r, 0, "move: %s", perfev_errmsg());
	target[0] = 2; /* old address: silent now */
	cr_assert_eq(calls, 1);
	target[3] = 3;
	long v = target[3];
	(void)v;
	cr_assert_eq(calls, 3, "a write and a read of the new address gave %d calls", calls - 1);
	cr_assert_eq(last_addr, (uint64_t)(uintptr_t)&target[3]);
	perfev_watch_free(w);
}

/* No SIGTRAP handler installed unasked: with nothing handling it, a watch
 * (whose forced SIGTRAP would kill the process) is refused, saying what to do. */
Test(live_watch, unhandled_sigtrap_is_refused)
{
	struct sigaction sa;
	cr_assert_eq(sigaction(SIGTRAP, NULL, &sa), 0);
	if ((sa.sa_flags & SA_SIGINFO) || sa.sa_handler != SIG_DFL)
		cr_skip_test("the test runner handles SIGTRAP itself");
	volatile int calls = 0;
	cr_assert_null(perfev_watch_new((const void *)&target[0], sizeof(long), PERFEV_WATCH_W, on_hit,
					(void *)&calls));
	cr_assert_eq(errno, EINVAL);
	cr_assert(strstr(perfev_errmsg(), "perfev_watch_sigtrap_install"), "%s", perfev_errmsg());
	cr_assert_eq(sigaction(SIGTRAP, NULL, &sa), 0);
	cr_assert(!(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL, "a SIGTRAP handler was installed");
}

static volatile int own_traps;

static void own_trap(int sig, siginfo_t *si, void *uctx)
{
	if (!perfev_watch_sigtrap_dispatch(sig, si, uctx))
		own_traps++;
}

/* A program's own SIGTRAP handler sees its own traps (dispatch says they are
 * not a watch's), and perfev's handler, installed over it, passes them on. */
Test(live_watch, sigtrap_dispatch_and_chaining)
{
	struct sigaction sa = {0};
	sa.sa_sigaction = own_trap;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	cr_assert_eq(sigaction(SIGTRAP, &sa, NULL), 0);
	raise(SIGTRAP);
	cr_assert_eq(own_traps, 1);
	cr_assert_eq(perfev_watch_sigtrap_install(), 0, "%s", perfev_errmsg());
	cr_assert_eq(perfev_watch_sigtrap_install(), 0); /* once */
	struct sigaction cur;
	cr_assert_eq(sigaction(SIGTRAP, NULL, &cur), 0);
	cr_assert(cur.sa_sigaction != own_trap, "perfev's handler is not installed");
	raise(SIGTRAP);
	cr_assert_eq(own_traps, 2, "perfev's handler did not pass the program's trap on");
	cr_assert(!perfev_watch_sigtrap_dispatch(SIGUSR1, NULL, NULL));
}

Test(live_watch, bad_shapes_are_explained)
{
	volatile int calls = 0;
	cr_assert_null(perfev_watch_new((const char *)&target[0] + 1, 8, PERFEV_WATCH_W, on_hit, (void *)&calls));
	cr_assert_eq(errno, EINVAL);
	cr_assert(strstr(perfev_errmsg(), "aligned"), "%s", perfev_errmsg());
	cr_assert_null(perfev_watch_new((const void *)&target[0], 3, PERFEV_WATCH_W, on_hit, (void *)&calls));
	cr_assert(strstr(perfev_errmsg(), "1, 2, 4 or 8"), "%s", perfev_errmsg());
	cr_assert_eq(perfev_watch_type_parse("rw"), PERFEV_WATCH_RW);
	cr_assert_eq(perfev_watch_type_parse("q"), -EINVAL);
	perfev_watch_free(NULL);
}

/* The address of the instruction in `func` of the workload whose
 * disassembly mentions <var> (objdump), or 0. */
static unsigned long long insn_touching(const char *func, const char *var)
{
	struct run_result r = run_cmd("objdump -d --no-show-raw-insn %s | awk '/<%s>:/{f=1;next} "
				      "/^$/{f=0} f && /<%s>/ {sub(\":\",\"\",$1); print $1; exit}'",
				      WORKLOAD("calls_n"), func, var);
	unsigned long long a = strtoull(r.out, NULL, 16);
	run_result_free(&r);
	return a;
}

Test(live_watch, command_reports_each_write_at_the_store)
{
	require_root();
	require_breakpoint();
	struct run_result r = run_cmd("%s watch -w watched -- %s writes 25", PERFEV_BIN,
				      WORKLOAD("calls_n"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\n25 accesses to 0x"), "%s", r.out);
	unsigned long long store = insn_touching("store_watched", "watched");
	cr_assert_neq(store, 0, "objdump found no store to watched");
	char want[64];
	snprintf(want, sizeof(want), "  0x%llx store_watched+0x", store);
	cr_assert(strstr(r.out, want), "no access at the store 0x%llx:\n%s", store, r.out);
	/* one site only, and every access is listed with its chain through main */
	size_t accesses = 0, mains = 0;
	for (const char *p = r.out; (p = strstr(p, "access #")); p++)
		accesses++;
	for (const char *p = r.out; (p = strstr(p, " main+0x")); p++)
		mains++;
	cr_assert_eq(accesses, 25, "%s", r.out);
	cr_assert_eq(mains, 25, "call chains without main:\n%s", r.out);
	run_result_free(&r);
}

Test(live_watch, command_explains_a_bad_target)
{
	require_root();
	struct run_result r = run_cmd("%s watch -w no_such_var -- %s writes 1", PERFEV_BIN,
				      WORKLOAD("calls_n"));
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "no symbol 'no_such_var'"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s watch -w --len 3 watched -- true", PERFEV_BIN);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "1, 2, 4 or 8"), "%s", r.err);
	run_result_free(&r);
}

/* -x: an execute breakpoint on a function called N times; -rw: writes too */
Test(live_watch, command_execute_and_rw)
{
	require_root();
	require_breakpoint();
	struct run_result r = run_cmd("%s watch -x -q probe_target -- %s calls 9", PERFEV_BIN,
				      WORKLOAD("calls_n"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "9 accesses to 0x"), "%s", r.out);
	cr_assert(strstr(r.out, " probe_target+0x0 ("), "not at the function's entry:\n%s", r.out);
	cr_assert_null(strstr(r.out, "access #"), "-q printed accesses:\n%s", r.out);
	run_result_free(&r);
	r = run_cmd("%s watch -rw -q watched -- %s writes 11", PERFEV_BIN, WORKLOAD("calls_n"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "11 accesses to 0x"), "%s", r.out);
	run_result_free(&r);
}

/* Frames inside libc are named through the symbolizer (libc's .symtab is
 * stripped: its local functions are only in the separate debug file), not
 * left [unknown] as a .symtab/.dynsym-only lookup leaves them. */
Test(live_watch, libc_internal_frames_are_named)
{
	require_root();
	require_breakpoint();
	struct run_result d = run_cmd("f=$(readelf -n $(ldd %s | awk '/libc.so/{print $3}') | "
				      "awk '/Build ID/{print substr($3,1,2)\"/\"substr($3,3)}'); "
				      "test -r /usr/lib/debug/.build-id/$f.debug", WORKLOAD("calls_n"));
	bool dbg = d.status == 0;
	run_result_free(&d);
	if (!dbg)
		cr_skip_test("libc's debug file is not installed (libc6-dbg): its local symbols are unknown");
	struct run_result r = run_cmd("%s watch -w watched -- %s writes 3", PERFEV_BIN, WORKLOAD("calls_n"));
	cr_assert_eq(r.status, 0, "%s", r.err);
	size_t named = 0;
	for (const char *p = r.out; (p = strstr(p, " __libc_start_call_main+0x")); p++)
		named++;
	cr_assert_eq(named, 3, "main's caller in libc is not named in every chain:\n%s", r.out);
	cr_assert_null(strstr(r.out, "[unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)"), "%s", r.out);
	run_result_free(&r);
}
