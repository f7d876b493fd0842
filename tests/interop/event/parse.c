/*
 * `perfev attr` against perf: for each event string, the attrs perfev
 * builds must equal those `perf stat -vv -e STR -- true` prints before its
 * first open attempt (type, config, config1/bp_addr, config2/bp_len,
 * bp_type, exclude_*, precise_ip, pinned, exclusive), and the names
 * `perf stat -x` gives the counters equal perfev's. Hardware events fail
 * to open on this machine, but perf prints their attr all the same.
 *
 * sample_type, read_format, disabled, inherit and enable_on_exec are what
 * `perf stat` adds for counting, not what the string says, so they are not
 * compared here.
 */
#define _GNU_SOURCE
#include "support.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVENTS 16

static const char *const fields[] = {
	"type", "config", "config1", "config2", "bp_type", "exclude_user", "exclude_kernel",
	"exclude_hv", "exclude_idle", "exclude_host", "exclude_guest", "precise_ip", "pinned",
	"exclusive",
};
#define NF (sizeof(fields) / sizeof(fields[0]))

struct attrs {
	uint64_t v[MAX_EVENTS][NF];
	int n;
};

static int field_index(const char *name)
{
	if (!strcmp(name, "{ bp_addr, config1 }") || !strcmp(name, "bp_addr"))
		name = "config1";
	if (!strcmp(name, "{ bp_len, config2 }") || !strcmp(name, "bp_len"))
		name = "config2";
	for (size_t i = 0; i < NF; i++)
		if (!strcmp(fields[i], name))
			return (int)i;
	return -1;
}

/*
 * perf's "perf_event_attr:" blocks, one per event: a block after a failed
 * open followed by "switching off ..." or a precise_ip fallback is a retry
 * of the same event and is skipped.
 */
static int parse_perf(const char *out, struct attrs *a, char *why, size_t whylen)
{
	const char *p = out;
	bool retry = false;
	a->n = 0;
	while ((p = strstr(p, "perf_event_attr:\n"))) {
		const char *end = strstr(p, "sys_perf_event_open");
		if (!end)
			end = p + strlen(p);
		if (!retry) {
			if (a->n == MAX_EVENTS) {
				snprintf(why, whylen, "too many events");
				return -1;
			}
			memset(a->v[a->n], 0, sizeof(a->v[a->n]));
			const char *l = strchr(p, '\n') + 1;
			while (l < end && strncmp(l, "----", 4)) {
				const char *nl = strchr(l, '\n');
				size_t len = nl ? (size_t)(nl - l) : strlen(l);
				char line[256];
				snprintf(line, sizeof(line), "%.*s", (int)len, l);
				char *val = strrchr(line, ' ');
				if (val) {
					*val++ = 0;
					char *k = line;
					while (*k == ' ')
						k++;
					char *ke = k + strlen(k);
					while (ke > k && ke[-1] == ' ')
						*--ke = 0;
					int fi = field_index(k);
					if (fi >= 0)
						a->v[a->n][fi] = strtoull(val, NULL, 0);
				}
				l = nl ? nl + 1 : l + len;
			}
			a->n++;
		}
		/* perf retries a failed open after "switching off" a feature or lowering precise_ip */
		const char *next = strstr(end, "perf_event_attr:\n");
		retry = false;
		if (next) {
			size_t span = (size_t)(next - end);
			retry = memmem(end, span, "switching off", 13) || memmem(end, span, "precise_ip", 10) ||
				memmem(end, span, "decreasing", 10);
		}
		p = end;
	}
	return 0;
}

static void parse_perfev(const char *out, struct attrs *a)
{
	a->n = 0;
	for (const char *l = out; (l = strchr(l, '{')); ) {
		const char *nl = strchr(l, '\n');
		if (a->n == MAX_EVENTS)
			break;
		for (size_t i = 0; i < NF; i++) {
			char key[64];
			const char *name = fields[i];
			snprintf(key, sizeof(key), "\"%s\": ", name);
			const char *k = strstr(l, key);
			if (!k && !strcmp(name, "config1"))
				k = strstr(l, "\"bp_addr\": ");
			if (!k && !strcmp(name, "config2"))
				k = strstr(l, "\"bp_len\": ");
			a->v[a->n][i] = k && (!nl || k < nl) ? strtoull(strchr(k, ':') + 2, NULL, 10) : ~0ULL;
		}
		a->n++;
		l = nl ? nl : l + strlen(l);
	}
}

static bool perf_rejects(const char *out)
{
	return strstr(out, "event syntax error") || strstr(out, "Unknown") ||
	       strstr(out, "Run 'perf list'");
}

/* The event names perf stat -x prints (third CSV field) must be perfev's evsel names. */
static bool compare_names(const char *ev, const char *perfev_out)
{
	struct run_result r = run_cmd("perf stat -x ';' -e '%s' -- true 2>&1 >/dev/null", ev);
	bool ok = true;
	const char *l = r.out, *v = perfev_out;
	int i = 0;
	while (ok && *l) {
		const char *nl = strchr(l, '\n');
		size_t len = nl ? (size_t)(nl - l) : strlen(l);
		char line[512];
		snprintf(line, sizeof(line), "%.*s", (int)len, l);
		l = nl ? nl + 1 : l + len;
		char *f1 = strchr(line, ';'), *f2 = f1 ? strchr(f1 + 1, ';') : NULL;
		char *f3 = f2 ? strchr(f2 + 1, ';') : NULL;
		if (!f3)
			continue;
		*f3 = 0;
		const char *name = f2 + 1;
		v = strstr(v, "\"perfev\": {\"name\": \"");
		if (!v) {
			cr_expect_fail("'%s': perf names more events than perfev has (%s)", ev, name);
			ok = false;
			break;
		}
		v += strlen("\"perfev\": {\"name\": \"");
		const char *q = strchr(v, '"');
		if (strlen(name) != (size_t)(q - v) || strncmp(name, v, (size_t)(q - v))) {
			cr_expect_fail("'%s' event %d: perf names it '%s', perfev '%.*s'", ev, i, name,
				       (int)(q - v), v);
			ok = false;
		}
		i++;
	}
	run_result_free(&r);
	return ok;
}

/* Compares one event string; returns false (and says why) on a difference. */
static bool compare(const char *ev)
{
	struct run_result pr = run_cmd("perf stat -vv -e '%s' -- true 2>&1", ev);
	struct run_result vr = run_cmd("'%s' attr '%s'", PERFEV_BIN, ev);
	struct attrs pa, va;
	char why[256] = "";
	bool ok = true;
	if (perf_rejects(pr.out)) {
		cr_expect_fail("perf rejects '%s' (fix the table):\n%s", ev, pr.out);
		ok = false;
	} else if (vr.status != 0) {
		cr_expect_fail("perfev attr '%s' failed: %s", ev, vr.err);
		ok = false;
	} else if (parse_perf(pr.out, &pa, why, sizeof(why)) < 0) {
		cr_expect_fail("'%s': cannot read perf's output (%s)", ev, why);
		ok = false;
	} else {
		parse_perfev(vr.out, &va);
		if (pa.n != va.n) {
			cr_expect_fail("'%s': perf opens %d events, perfev %d\nperf:\n%s\nperfev:\n%s", ev,
				       pa.n, va.n, pr.out, vr.out);
			ok = false;
		}
		for (int e = 0; ok && e < pa.n; e++)
			for (size_t f = 0; f < NF; f++)
				if (pa.v[e][f] != va.v[e][f]) {
					cr_expect_fail("'%s' event %d: %s is %llu in perf, %llu in perfev", ev, e,
						       fields[f], (unsigned long long)pa.v[e][f],
						       (unsigned long long)va.v[e][f]);
					ok = false;
				}
	}
	if (ok)
		ok = compare_names(ev, vr.out);
	run_result_free(&pr);
	run_result_free(&vr);
	return ok;
}

static void check_table(const char *const *tab, size_t n)
{
	require_perf_tool();
	size_t good = 0;
	for (size_t i = 0; i < n; i++)
		good += compare(tab[i]);
	cr_log_info("%zu of %zu event strings match perf", good, n);
	cr_assert_eq(good, n, "%zu of %zu event strings differ from perf", n - good, n);
}

#define TABLE(t) check_table(t, sizeof(t) / sizeof(t[0]))

Test(interop_parse, hardware_and_software, .timeout = 120)
{
	static const char *const t[] = {
		"cycles", "cpu-cycles", "instructions", "cache-references", "cache-misses",
		"branches", "branch-instructions", "branch-misses", "bus-cycles",
		"stalled-cycles-frontend", "idle-cycles-frontend", "stalled-cycles-backend",
		"idle-cycles-backend", "ref-cycles",
		"cycles:u", "cycles:k", "instructions:uk", "cycles:h", "cycles:p", "cycles:pp",
		"cycles:ppp", "cycles:P", "cycles:G", "cycles:H", "cycles:I", "cycles:D", "cycles:e",
		"cycles:S", "cycles:upp", "instructions:kH",
		"cpu-clock", "task-clock", "page-faults", "faults", "minor-faults", "major-faults",
		"context-switches", "cs", "cpu-migrations", "migrations", "alignment-faults",
		"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
		"cs:u", "cs:k", "cs:h", "cs:uk", "cs:kh", "cs:uh", "cs:G", "cs:H", "cs:GH", "cs:I",
		"cs:p", "cs:pp", "cs:ppp", "cs:D", "cs:e", "cs:uG", "cs:kH", "cs:up", "cs:pu",
		"cs:Iu", "cs:W", "cs:b", "cs:S", "cs:De", "task-clock:u,page-faults:k",
		"cs:Gu", "cs:pG", "cs:Hp", "cs:GHk", "cycles:Pu", "cs:k,cs:u", "cs:kp", "cs:pk",
		"cs:ukhGHpppPSDIWe", "cs:ukhGHpppPSDIWeb",
		"1:2", "1:3:u", "0:1", "0x1:0x3",
		"cs/period=1000/", "cs/name=foo/", "cycles/period=100/u", "faults/config=5/",
		"cs/config1=7,config2=9/",
	};
	TABLE(t);
}

Test(interop_parse, cache, .timeout = 120)
{
	static const char *const t[] = {
		"L1-dcache-loads", "L1-dcache-load-misses", "L1-dcache-stores",
		"L1-dcache-store-misses", "L1-dcache-prefetches", "L1-dcache-prefetch-misses",
		"L1-icache-loads", "L1-icache-load-misses", "L1-icache-prefetches",
		"LLC-loads", "LLC-load-misses", "LLC-stores", "LLC-store-misses", "LLC-prefetches",
		"LLC-prefetch-misses", "dTLB-loads", "dTLB-load-misses", "dTLB-stores",
		"dTLB-store-misses", "dTLB-prefetches", "iTLB-loads", "iTLB-load-misses",
		"branch-loads", "branch-load-misses", "node-loads", "node-load-misses",
		"node-stores", "node-store-misses", "node-prefetches", "node-prefetch-misses",
		"l1d-loads", "l1-d-load", "L1-data-read-miss", "l1i-speculative-read",
		"L1-instruction-load", "L2-misses", "L2", "LLC", "d-tlb-loads",
		"Data-TLB-speculative-load-miss", "i-tlb-load", "Instruction-TLB-read",
		"bpu-loads", "btb-miss", "bpc-refs", "branch-ops", "btb-ops", "LLC-Reference",
		"LLC-access", "LLC-misses-refs", "L1-dcache-load-store", "L1-dcache-misses-store",
		"LLC-loads:u", "dTLB-load-misses:k", "L1-dcache-loads:ppp",
	};
	TABLE(t);
}

Test(interop_parse, raw_pmu_and_groups, .timeout = 120)
{
	static const char *const t[] = {
		"r1a8", "rc0", "r0", "r1a8:u", "r00c0:k", "rffff/name=x/", "r1a8/name=x/:u",
		"r1a8/name=y/k", "1:2/name=z/:u", "1:3/name=w/k", "L1-dcache-loads/name=x/:u",
		"msr/tsc/", "msr/tsc/u", "msr/event=0/", "msr/event=1/k", "msr/tsc,name=x/",
		"msr/config=0x2/", "tsc", "tsc:u", "software/config=3/", "software/config=2/k",
		"{cs,faults}", "{cs,faults}:u", "{cs:k,faults}:u", "{cs,faults}:D", "{cs,faults}:e",
		"{cs,faults}:S", "{cs,faults}:W", "{cs:p,faults}:p", "{cs,faults}:G",
		"cs,{faults,dummy}:H", "{cs:u,faults:k}:k", "{task-clock,cs,faults}:uD",
		"{cs:G,faults}:p", "{cs,faults}:P", "{cs:H,faults:pp}:pu", "msr/event=0x1ff/",
		"{cs,faults:D}", "{cs,faults:e}:D", "{cs:e,faults}:k", "grp{cs,faults}:u", "{cs,faults}:u,grp2{dummy}", "{cs},{faults}", "{cs,faults},cs",
	};
	TABLE(t);
}

Test(interop_parse, breakpoints, .timeout = 120)
{
	static const char *const t[] = {
		"mem:0x1000", "mem:0x1000:w", "mem:0x1000:r", "mem:0x1000:x", "mem:0x1000/8:w",
		"mem:0x1000/1:rw", "mem:0x1000/2", "mem:4096:w", "mem:0x1000:w:u",
		"mem:0x1000:rw:k", "mem:0x2000/4:wr", "{cs,mem:0x1000:w}:k", "mem:0x1000/3",
		"mem:0x1000:rwx", "mem:0x1000:xw",
	};
	TABLE(t);
}

Test(interop_parse, tracepoints, .timeout = 120)
{
	require_tracefs();
	static const char *const t[] = {
		"syscalls:sys_enter_write", "syscalls:sys_enter_write:u", "sched:sched_switch",
		"sched:sched_switch:k", "syscalls:sys_enter_read,syscalls:sys_exit_read",
		"sched:sched_process_e*", "syscalls:sys_enter_writ?", "{cs,syscalls:sys_enter_write}",
		"sched:sched_wakeup:uk", "{syscalls:sys_enter_write,syscalls:sys_exit_write}:u",
	};
	TABLE(t);
}

/* Strings perf refuses must be refused by perfev too (and say where). */
Test(interop_parse, both_reject, .timeout = 120)
{
	require_perf_tool();
	static const char *const t[] = {
		"cs:pppp", "cs:uu", "msr/tsc/:u", "L1-icache-stores", "branches-loads", "mem:", "cs,",
		"{cs,{faults}}", "nosuchevent", "cs/bogus=1/", "msr/bogus=1/", "r0x1a8", "{cs}u",
		"cs:ux", "mem:0x1000:rr", "cs:ukhGHpPSDIWebu", "sched:nosuch", "{}", "cs}",
		"iTLB-stores", "syscalls:sys_enter_write/period=1/", "mem:0x1000/", "cycles/name=x/:u",
		"cs:u:k", "cs::u", "mem:0x1000:w:u:k",
	};
	size_t bad = 0;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct run_result pr = run_cmd("perf stat -e '%s' -- true 2>&1", t[i]);
		struct run_result vr = run_cmd("'%s' attr '%s'", PERFEV_BIN, t[i]);
		if (!perf_rejects(pr.out)) {
			cr_expect_fail("perf accepts '%s' (fix the table)", t[i]);
			bad++;
		} else if (vr.status == 0 || !strstr(vr.err, "\\___")) {
			cr_expect_fail("perfev accepts '%s' or gives no position:\n%s%s", t[i], vr.out, vr.err);
			bad++;
		}
		run_result_free(&pr);
		run_result_free(&vr);
	}
	cr_assert_eq(bad, 0);
}
