/* The event-string parser: every syntax, modifiers as perf 6.1 sets them, errors with positions.
 * PMUs and tracepoints come from the fake trees under tests/data/. */
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <string.h>

static const struct perfev_parse_opts fake = {
	sizeof(struct perfev_parse_opts),
	PERFEV_SRCDIR "/tests/data/sysfs",
	PERFEV_SRCDIR "/tests/data/tracefs/events",
};

static struct perfev_evlist *parse_ok(const char *s)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_parse_error err;
	int r = perfev_evlist_parse_opts(l, s, &fake, &err);
	cr_assert_eq(r, 0, "'%s' failed at %d: %s", s, err.pos, err.msg);
	cr_assert_eq(err.pos, -1);
	return l;
}

static const struct perfev_attr *at(struct perfev_evlist *l, size_t i)
{
	cr_assert_lt(i, perfev_evlist_count(l));
	return perfev_evsel_attr_const(perfev_evlist_at(l, i));
}

/* Parses s, which must fail with err at byte pos and a message containing what. */
static void parse_bad(const char *s, int err_expected, int pos, const char *what)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_parse_error err;
	int r = perfev_evlist_parse_opts(l, s, &fake, &err);
	cr_assert_eq(r, -err_expected, "'%s': got %d, want %d (%s)", s, r, -err_expected, err.msg);
	cr_assert_eq(err.pos, pos, "'%s': error at %d, want %d (%s)", s, err.pos, pos, err.msg);
	cr_assert(strstr(err.msg, what), "'%s': message '%s' lacks '%s'", s, err.msg, what);
	cr_assert_eq(perfev_evlist_count(l), 0, "a failed parse appended events");
	perfev_evlist_free(l);
}

static void expect_sym(const char *s, unsigned type, unsigned long long config)
{
	struct perfev_evlist *l = parse_ok(s);
	cr_assert_eq(perfev_evlist_count(l), 1, "%s", s);
	cr_assert_eq(at(l, 0)->type, type, "%s type", s);
	cr_assert_eq(at(l, 0)->config, config, "%s config 0x%llx", s, (unsigned long long)at(l, 0)->config);
	cr_assert_eq(at(l, 0)->exclude_guest, 1, "%s: perf sets exclude_guest by default", s);
	cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, 0)), s);
	perfev_evlist_free(l);
}

Test(unit_parse, symbolic_names_and_aliases)
{
	static const struct { const char *s; unsigned type; unsigned long long config; } t[] = {
		{"cycles", 0, 0}, {"cpu-cycles", 0, 0}, {"instructions", 0, 1},
		{"cache-references", 0, 2}, {"cache-misses", 0, 3}, {"branches", 0, 4},
		{"branch-instructions", 0, 4}, {"branch-misses", 0, 5}, {"bus-cycles", 0, 6},
		{"stalled-cycles-frontend", 0, 7}, {"idle-cycles-frontend", 0, 7},
		{"stalled-cycles-backend", 0, 8}, {"idle-cycles-backend", 0, 8}, {"ref-cycles", 0, 9},
		{"cpu-clock", 1, 0}, {"task-clock", 1, 1}, {"page-faults", 1, 2}, {"faults", 1, 2},
		{"context-switches", 1, 3}, {"cs", 1, 3}, {"cpu-migrations", 1, 4}, {"migrations", 1, 4},
		{"minor-faults", 1, 5}, {"major-faults", 1, 6}, {"alignment-faults", 1, 7},
		{"emulation-faults", 1, 8}, {"dummy", 1, 9}, {"bpf-output", 1, 10},
		{"cgroup-switches", 1, 11},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		expect_sym(t[i].s, t[i].type, t[i].config);
	struct perfev_evlist *l = parse_ok("duration_time,user_time,system_time:u");
	cr_assert_eq(perfev_evsel_flags(perfev_evlist_at(l, 0)), PERFEV_EVSEL_TOOL_DURATION);
	cr_assert_eq(perfev_evsel_flags(perfev_evlist_at(l, 1)), PERFEV_EVSEL_TOOL_USER_TIME);
	cr_assert_eq(perfev_evsel_flags(perfev_evlist_at(l, 2)), PERFEV_EVSEL_TOOL_SYSTEM_TIME);
	cr_assert(at(l, 2)->type == PERF_TYPE_SOFTWARE && at(l, 2)->config == PERF_COUNT_SW_DUMMY);
	perfev_evlist_free(l);
}

Test(unit_parse, cache_events)
{
	static const struct { const char *s; unsigned long long config; } t[] = {
		{"L1-dcache-loads", 0x0}, {"L1-dcache-load-misses", 0x10000},
		{"L1-dcache-stores", 0x100}, {"L1-dcache-store-misses", 0x10100},
		{"L1-dcache-prefetches", 0x200}, {"L1-dcache-prefetch-misses", 0x10200},
		{"L1-icache-loads", 0x1}, {"L1-icache-load-misses", 0x10001},
		{"LLC-loads", 0x2}, {"LLC-load-misses", 0x10002}, {"LLC-stores", 0x102},
		{"LLC-store-misses", 0x10102}, {"LLC-prefetches", 0x202},
		{"dTLB-loads", 0x3}, {"dTLB-load-misses", 0x10003}, {"dTLB-stores", 0x103},
		{"iTLB-loads", 0x4}, {"iTLB-load-misses", 0x10004},
		{"branch-loads", 0x5}, {"branch-load-misses", 0x10005},
		{"node-loads", 0x6}, {"node-load-misses", 0x10006}, {"node-stores", 0x106},
		{"node-store-misses", 0x10106}, {"node-prefetches", 0x206},
		/* perf's other spellings */
		{"l1d-loads", 0x0}, {"L1-data-read-miss", 0x10000}, {"l1-d-write", 0x100},
		{"l1i-speculative-read", 0x201}, {"L1-instruction-load", 0x1}, {"L2-misses", 0x10002},
		{"d-tlb-loads", 0x3}, {"Data-TLB-speculative-load-miss", 0x10203},
		{"i-tlb-load", 0x4}, {"Instruction-TLB-read", 0x4}, {"bpu-loads", 0x5},
		{"btb-miss", 0x10005}, {"bpc-refs", 0x5}, {"branch-ops", 0x5},
		{"LLC", 0x2}, {"dTLB", 0x3}, {"LLC-Reference", 0x2}, {"LLC-access", 0x2},
		/* the first op wins, then the first result; perf ignores the rest */
		{"L1-dcache-misses-store", 0x10100}, {"L1-dcache-load-store", 0x0},
		{"LLC-misses-refs", 0x10002},
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		expect_sym(t[i].s, PERF_TYPE_HW_CACHE, t[i].config);
	parse_bad("L1-icache-stores", EINVAL, 0, "cannot be counted");
	parse_bad("iTLB-prefetches", EINVAL, 0, "cannot be counted");
	parse_bad("branch-stores", EINVAL, 0, "cannot be counted");
	parse_bad("LLC-bogus", ENOENT, 0, "unknown event");
	parse_bad("branches-loads", ENOENT, 0, "unknown event"); /* perf rejects it too */
}

Test(unit_parse, raw_and_numeric)
{
	expect_sym("r1a8", PERF_TYPE_RAW, 0x1a8);
	expect_sym("rc0", PERF_TYPE_RAW, 0xc0);
	expect_sym("1:2", 1, 2);
	expect_sym("0x4:0x1a8", 4, 0x1a8);
	struct perfev_evlist *l = parse_ok("r1a8:u,r0/name=zero/");
	cr_assert_eq(at(l, 0)->exclude_kernel, 1);
	cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, 1)), "zero");
	perfev_evlist_free(l);
	parse_bad("r12345678901234567", ERANGE, 0, "wider than 64 bits");
	parse_bad("1:zz", EINVAL, 2, "config number");
}

Test(unit_parse, modifiers_as_perf)
{
	struct perfev_evlist *l = parse_ok("cs:u,cs:k,cs:h,cs:uk,cs:G,cs:H,cs:I,cs:p,cs:ppp,cs:P,cs:S,"
					   "cs:D,cs:e,cs:W,cs:b,cs:kp");
	const struct perfev_attr *a;
	a = at(l, 0); /* u: exclude kernel and hv, exclude_guest */
	cr_assert(!a->exclude_user && a->exclude_kernel && a->exclude_hv && a->exclude_guest);
	a = at(l, 1); /* k: no exclude_guest (perf's modifier state starts from zero) */
	cr_assert(a->exclude_user && !a->exclude_kernel && a->exclude_hv && !a->exclude_guest);
	a = at(l, 2);
	cr_assert(a->exclude_user && a->exclude_kernel && !a->exclude_hv);
	a = at(l, 3);
	cr_assert(!a->exclude_user && !a->exclude_kernel && a->exclude_hv && a->exclude_guest);
	a = at(l, 4); /* G: guest only */
	cr_assert(a->exclude_host && !a->exclude_guest);
	a = at(l, 5); /* H: host only */
	cr_assert(!a->exclude_host && a->exclude_guest);
	a = at(l, 6);
	cr_assert(a->exclude_idle && !a->exclude_guest);
	a = at(l, 7);
	cr_assert(a->precise_ip == 1 && a->exclude_guest);
	cr_assert_eq(at(l, 8)->precise_ip, 3);
	cr_assert_eq(at(l, 9)->precise_ip, 0); /* P: the opener raises it */
	cr_assert(perfev_evsel_flags(perfev_evlist_at(l, 9)) & PERFEV_EVSEL_PRECISE_MAX);
	cr_assert(perfev_evsel_flags(perfev_evlist_at(l, 10)) & PERFEV_EVSEL_SAMPLE_READ);
	cr_assert(at(l, 11)->pinned);
	cr_assert(at(l, 12)->exclusive);
	cr_assert(perfev_evsel_flags(perfev_evlist_at(l, 13)) & PERFEV_EVSEL_WEAK_GROUP);
	cr_assert(perfev_evsel_flags(perfev_evlist_at(l, 14)) & PERFEV_EVSEL_BPF_COUNTER);
	a = at(l, 15);
	cr_assert(a->exclude_user && !a->exclude_kernel && a->precise_ip == 1 && a->exclude_guest);
	cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, 0)), "cs:u");
	perfev_evlist_free(l);

	parse_bad("cs:pppp", EINVAL, 3, "at most 3");
	parse_bad("cs:uku", EINVAL, 5, "given twice");
	parse_bad("cs:ux", EINVAL, 4, "not a modifier");
	parse_bad("cs:", EINVAL, 3, "expected modifiers");
	parse_bad("cs:ukhGHpPSDIWebu", EINVAL, 16, "given twice");
	parse_bad("cs:ukhGHppppPSDIWeb", EINVAL, 3, "too many");
	l = parse_ok("cs:ukhGHpppPSDIWeb"); /* 15 is perf's limit */
	cr_assert_eq(at(l, 0)->precise_ip, 3);
	perfev_evlist_free(l);
}

Test(unit_parse, groups)
{
	struct perfev_evlist *l = parse_ok("{cs,faults:k}:uD,task-clock,{cycles:p}:pe,{dummy}");
	cr_assert_eq(perfev_evlist_count(l), 5);
	struct perfev_evsel *cs = perfev_evlist_at(l, 0), *f = perfev_evlist_at(l, 1);
	cr_assert(perfev_evsel_is_leader(cs));
	cr_assert_eq(perfev_evsel_leader(f), cs);
	cr_assert_eq(perfev_evsel_group_size(cs), 2);
	/* group modifiers add to each member's own; pinned only on the leader */
	cr_assert(at(l, 0)->pinned && !at(l, 1)->pinned);
	cr_assert(!at(l, 0)->exclude_user && at(l, 0)->exclude_kernel && at(l, 0)->exclude_guest);
	cr_assert(!at(l, 1)->exclude_user && !at(l, 1)->exclude_kernel && at(l, 1)->exclude_hv);
	cr_assert(perfev_evsel_is_leader(perfev_evlist_at(l, 2)));
	cr_assert_eq(at(l, 3)->precise_ip, 2);
	cr_assert(at(l, 3)->exclusive);
	cr_assert(perfev_evsel_is_leader(perfev_evlist_at(l, 4)));
	cr_assert_str_eq(perfev_evsel_name(f), "faults:k");
	perfev_evlist_free(l);

	l = parse_ok("grp{cs,faults}:u,{dummy}");
	cr_assert_str_eq(perfev_evsel_group_name(perfev_evlist_at(l, 0)), "grp");
	cr_assert_null(perfev_evsel_group_name(perfev_evlist_at(l, 2)));
	cr_assert(at(l, 1)->exclude_kernel);
	perfev_evlist_free(l);
	parse_bad("{cs,g{faults}}", EINVAL, 5, "nested");
	parse_bad("cs:u:k", EINVAL, 4, "not a modifier");
	parse_bad("{cs,{faults}}", EINVAL, 4, "nested");
	parse_bad("{cs,faults", EINVAL, 10, "missing '}'");
	parse_bad("{}", EINVAL, 1, "expected an event");
	parse_bad("{cs}u", EINVAL, 4, "after the group");
	parse_bad("cs}", EINVAL, 2, "'}'");
}

Test(unit_parse, breakpoints)
{
	struct perfev_evlist *l = parse_ok("mem:0x1000,mem:0x2000/8:w,mem:4096:x,mem:0x10:rw:u,mem:0x20/1:r");
	cr_assert_eq(at(l, 0)->type, PERF_TYPE_BREAKPOINT);
	cr_assert_eq(at(l, 0)->bp_addr, 0x1000);
	cr_assert_eq(at(l, 0)->bp_type, HW_BREAKPOINT_R | HW_BREAKPOINT_W);
	cr_assert_eq(at(l, 0)->bp_len, 4);
	cr_assert_eq(at(l, 0)->exclude_guest, 1);
	cr_assert_eq(at(l, 1)->bp_type, HW_BREAKPOINT_W);
	cr_assert_eq(at(l, 1)->bp_len, 8);
	cr_assert_eq(at(l, 2)->bp_addr, 4096);
	cr_assert_eq(at(l, 2)->bp_type, HW_BREAKPOINT_X);
	cr_assert_eq(at(l, 2)->bp_len, sizeof(long));
	cr_assert(at(l, 3)->exclude_kernel && !at(l, 3)->exclude_user);
	cr_assert_eq(at(l, 4)->bp_type, HW_BREAKPOINT_R);
	cr_assert_eq(at(l, 4)->bp_len, 1);
	cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, 1)), "mem:0x2000"); /* as perf */
	cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, 3)), "mem:0x10:rw:u");
	cr_assert_eq(at(l, 0)->sample_period, 1); /* perf's parser samples every hit */
	perfev_evlist_free(l);
	parse_bad("mem:", EINVAL, 4, "address");
	parse_bad("mem:zz", EINVAL, 4, "address");
	parse_bad("mem:0x10/", EINVAL, 9, "length");
	parse_bad("mem:0x10:rr", EINVAL, 10, "twice");
	parse_bad("mem:0x10:q", EINVAL, 9, "not a modifier");
}

Test(unit_parse, tracepoints_fake_tracefs)
{
	struct perfev_evlist *l = parse_ok("fakesys:ev_one,fakesys:ev_*:u,*sys:ev_one");
	cr_assert_eq(perfev_evlist_count(l), 5);
	cr_assert_eq(at(l, 0)->type, PERF_TYPE_TRACEPOINT);
	cr_assert_eq(at(l, 0)->config, 101);
	cr_assert_eq(at(l, 0)->sample_period, 1);
	cr_assert_eq(at(l, 1)->config, 101);
	cr_assert_eq(at(l, 2)->config, 102);
	cr_assert(at(l, 2)->exclude_kernel);
	cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, 2)), "fakesys:ev_two"); /* as perf */
	cr_assert_eq(at(l, 3)->config, 101);
	cr_assert_eq(at(l, 4)->config, 201);
	cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, 4)), "othersys:ev_one");
	perfev_evlist_free(l);
	parse_bad("cs,fakesys:nope", ENOENT, 3, "unknown tracepoint");
	parse_bad("fakesys:zz*", ENOENT, 0, "no tracepoint matches");
	parse_bad("fakesys:", EINVAL, 8, "tracepoint name");
	parse_bad("fakesys:ev_one/period=1/", EINVAL, 15, "for a tracepoint");
	l = parse_ok("fakesys:ev_*/max-stack=3/k");
	cr_assert_eq(perfev_evlist_count(l), 2);
	cr_assert(at(l, 1)->sample_max_stack == 3 && at(l, 1)->exclude_user);
	perfev_evlist_free(l);
	parse_bad("fakesys:../x", ENOENT, 0, "not a tracepoint name");
}

Test(unit_parse, pmu_terms_fake_sysfs)
{
	struct perfev_evlist *l = parse_ok("fakecpu/event=0x3c,umask=0x1,inv,cmask=2/u,"
					   "fakecpu/config=0x1234,config1=5,config2=6,config3=7/,"
					   "fakecpu/split=0xff,cfg3=9,ldlat=0xffff/,fakecpu//");
	const struct perfev_attr *a = at(l, 0);
	cr_assert_eq(a->type, 42);
	cr_assert_eq(a->config, 0x3c | 0x1 << 8 | 1 << 23 | 2 << 24);
	cr_assert(a->exclude_kernel && a->exclude_guest);
	cr_assert_str_eq(perfev_evsel_pmu_name(perfev_evlist_at(l, 0)), "fakecpu");
	cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, 0)),
			 "fakecpu/event=0x3c,umask=0x1,inv,cmask=2/u");
	a = at(l, 1);
	cr_assert(a->config == 0x1234 && a->config1 == 5 && a->config2 == 6 && a->config3 == 7);
	a = at(l, 2); /* split is config2:0-3,8-11: 0xff lands in bits 0-3 and 8-11 */
	cr_assert_eq(a->config2, 0xf0f);
	cr_assert_eq(a->config3, 9);
	cr_assert_eq(a->config1, 0xffff);
	cr_assert_eq(at(l, 3)->config, 0);
	perfev_evlist_free(l);

	parse_bad("fakecpu/event=0x100/", ERANGE, 14, "too big");
	parse_bad("fakecpu/ldlat=0x10000/", ERANGE, 14, "too big");
	parse_bad("fakecpu/bogus=1/", EINVAL, 8, "unknown term 'bogus'");
	parse_bad("fakecpu/event=zz/", EINVAL, 14, "wants a number");
	parse_bad("fakecpu/event=1", EINVAL, 15, "missing '/'");
	parse_bad("fakecpu/event=1;/", EINVAL, 14, "wants a number");
	parse_bad("fakecpu/event=/", EINVAL, 14, "needs a value");
	parse_bad("nopmu/event=1/", ENOENT, 0, "unknown PMU");
	parse_bad("fakecpu/event=1/:u", EINVAL, 16, "not a modifier");
}

Test(unit_parse, pmu_aliases)
{
	struct perfev_evlist *l = parse_ok("fakecpu/mem-loads/pp,fakecpu/cpu-cycles,period=1000/,"
					   "fakecpu/energy/,clockticks,ENERGY:u");
	const struct perfev_attr *a = at(l, 0);
	cr_assert_eq(a->config, 0xcd | 0x1 << 8);
	cr_assert_eq(a->config1, 3);
	cr_assert_eq(a->precise_ip, 2);
	cr_assert_eq(at(l, 1)->config, 0x3c);
	cr_assert_eq(at(l, 1)->sample_period, 1000);
	struct perfev_evsel *e = perfev_evlist_at(l, 2);
	cr_assert_float_eq(perfev_evsel_scale(e), 2.3283064365386962890625e-10, 1e-20);
	cr_assert_str_eq(perfev_evsel_unit(e), "Joules");
	cr_assert(perfev_evsel_flags(e) & PERFEV_EVSEL_PER_PKG);
	cr_assert(perfev_evsel_flags(e) & PERFEV_EVSEL_SNAPSHOT);
	/* a bare alias is looked up in every PMU, case-insensitively */
	cr_assert_eq(at(l, 3)->type, 43);
	cr_assert_eq(at(l, 3)->config, 0xff);
	cr_assert_str_eq(perfev_evsel_pmu_name(perfev_evlist_at(l, 3)), "fakeuncore");
	cr_assert_eq(at(l, 4)->type, 42);
	cr_assert_eq(at(l, 4)->config, 2);
	cr_assert(at(l, 4)->exclude_kernel);
	perfev_evlist_free(l);
	parse_bad("fakecpu/needs-param/", EINVAL, 8, "needs a value");
	l = parse_ok("fakecpu/l3.misses/,l3.misses");
	cr_assert(at(l, 0)->config == 5 && at(l, 1)->config == 5 && at(l, 1)->type == 42);
	perfev_evlist_free(l);
	/* the alias's parameter comes from the user's terms */
	l = parse_ok("fakecpu/needs-param,umask=3/,fakecpu/umask=2,needs-param/");
	cr_assert_eq(at(l, 0)->config, 0x01 | 3 << 8);
	cr_assert_eq(at(l, 1)->config, 0x01 | 2 << 8);
	perfev_evlist_free(l);
}

Test(unit_parse, pmu_name_matching)
{
	/* as perf: "fake" names uncore_fake_0 and _1 (not uncore_fakeother, fakecpu) */
	struct perfev_evlist *l = parse_ok("fake/event=1/u,uncore_fake/reads/,uncore_fake_*/event=2/,reads");
	cr_assert_eq(perfev_evlist_count(l), 8);
	cr_assert_eq(at(l, 0)->type, 50);
	cr_assert_eq(at(l, 1)->type, 51);
	cr_assert(at(l, 0)->exclude_kernel && at(l, 1)->exclude_kernel);
	cr_assert_eq(at(l, 2)->config, 0x10);
	cr_assert_eq(at(l, 3)->type, 51);
	cr_assert_eq(at(l, 4)->config, 2);
	cr_assert_eq(at(l, 5)->type, 51);
	cr_assert(at(l, 6)->type == 50 && at(l, 7)->type == 51 && at(l, 7)->config == 0x10);
	cr_assert_str_eq(perfev_evsel_pmu_name(perfev_evlist_at(l, 1)), "uncore_fake_1");
	perfev_evlist_free(l);
	parse_bad("fak/event=1/", ENOENT, 0, "unknown PMU");
}

Test(unit_parse, generic_terms)
{
	struct perfev_evlist *l = parse_ok(
		"cs/period=1000,name=sw/,cycles/freq=4000/,instructions/time=1,call-graph=fp/,"
		"cs/call-graph=dwarf,stack-size=4096/,cs/inherit/,cs/no-inherit,overwrite/,"
		"cs/max-stack=16,max-events=5,percore/,cycles/branch_type=any/,"
		"cs/aux-output,aux-sample-size=64,metric-id=x/,cs/name='a b'/");
	cr_assert_eq(at(l, 0)->sample_period, 1000);
	cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, 0)), "sw");
	cr_assert(at(l, 1)->freq && at(l, 1)->sample_freq == 4000);
	cr_assert_eq(at(l, 2)->sample_type, PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN);
	cr_assert(at(l, 3)->sample_type & PERF_SAMPLE_STACK_USER);
	cr_assert_eq(at(l, 3)->sample_stack_user, 4096);
	cr_assert(at(l, 4)->inherit);
	cr_assert(!at(l, 5)->inherit && at(l, 5)->write_backward);
	cr_assert_eq(at(l, 6)->sample_max_stack, 16);
	cr_assert_eq(perfev_evsel_max_events(perfev_evlist_at(l, 6)), 5);
	cr_assert(perfev_evsel_flags(perfev_evlist_at(l, 6)) & PERFEV_EVSEL_PERCORE);
	cr_assert_eq(at(l, 7)->branch_sample_type, PERF_SAMPLE_BRANCH_ANY);
	cr_assert(at(l, 7)->sample_type & PERF_SAMPLE_BRANCH_STACK);
	cr_assert(at(l, 8)->aux_output && at(l, 8)->aux_sample_size == 64);
	cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, 9)), "a b");
	perfev_evlist_free(l);
	parse_bad("cs/bogus=1/", EINVAL, 3, "unknown term 'bogus'");
	/* perf's grammar: ':' after the terms for raw, cache, numeric, tracepoints; not symbols */
	l = parse_ok("r1a8/name=x/:u,L1-dcache-loads/name=y/:k,1:2/name=z/:u,1:2/name=w/u,"
		     "fakesys:ev_one/max-stack=3/:u,cs/name=v/u");
	cr_assert_eq(perfev_evlist_count(l), 6);
	cr_assert(at(l, 0)->exclude_kernel && at(l, 1)->exclude_user && at(l, 2)->exclude_kernel);
	cr_assert(at(l, 3)->exclude_kernel && at(l, 4)->exclude_kernel && at(l, 5)->exclude_kernel);
	cr_assert_str_eq(perfev_evsel_name(perfev_evlist_at(l, 1)), "y");
	perfev_evlist_free(l);
	parse_bad("cycles/name=x/:u", EINVAL, 14, "not a modifier");
	parse_bad("cs/call-graph=zz/", EINVAL, 14, "fp, dwarf");
	parse_bad("cs/branch_type=zz/", EINVAL, 15, "unknown branch_type");
	parse_bad("cs/name/", EINVAL, 3, "needs a value");
	parse_bad("cs/name='x/", EINVAL, 8, "unterminated");
}

Test(unit_parse, lists_and_errors)
{
	struct perfev_evlist *l = perfev_evlist_new();
	cr_assert_eq(perfev_evlist_parse_opts(l, "cs", &fake, NULL), 0);
	cr_assert_eq(perfev_evlist_parse_opts(l, "faults,{cs,dummy}", &fake, NULL), 0);
	cr_assert_eq(perfev_evlist_count(l), 4);
	/* groups keep their shape when appended after earlier events */
	cr_assert_eq(perfev_evsel_leader(perfev_evlist_at(l, 3)), perfev_evlist_at(l, 2));
	cr_assert(perfev_evsel_is_leader(perfev_evlist_at(l, 1)));
	perfev_evlist_free(l);

	parse_bad("", EINVAL, 0, "no event");
	parse_bad("cs,", EINVAL, 3, "expected an event");
	parse_bad(",cs", EINVAL, 0, "expected an event");
	parse_bad("cs,,faults", EINVAL, 3, "expected an event");
	parse_bad("cs faults", EINVAL, 2, "unexpected ' '");
	parse_bad("cs,nosuchevent", ENOENT, 3, "unknown event 'nosuchevent'");
	parse_bad("cs,#", EINVAL, 3, "cannot start");
	parse_bad("cylces", ENOENT, 0, "did you mean 'cycles'?");
	parse_bad("instrucions:u", ENOENT, 0, "did you mean 'instructions'?");
	parse_bad("L1-dcache-load-mises", ENOENT, 0, "did you mean 'L1-dcache-load-misses'?");
	parse_bad("xyzzy", ENOENT, 0, "'perfev list' shows");
	parse_bad("cs,faults,cs:ppppp", EINVAL, 13, "at most 3");
}

Test(unit_parse, error_format_caret)
{
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_parse_error err;
	cr_assert_eq(perfev_evlist_parse_opts(l, "cs,bogus", &fake, &err), -ENOENT);
	char buf[512];
	int n = perfev_parse_error_format(&err, "cs,bogus", buf, sizeof(buf));
	cr_assert_gt(n, 0);
	cr_assert(strstr(buf, "'cs,bogus'"), "%s", buf);
	/* the caret's column is the quote's column + 1 + pos */
	const char *line1 = buf, *line2 = strchr(buf, '\n') + 1;
	int quote = (int)(strchr(line1, '\'') - line1);
	cr_assert_eq((int)(strchr(line2, '\\') - line2), quote + 1 + 3, "%s", buf);
	cr_assert(strstr(line2, "unknown event 'bogus'"));
	cr_assert(strstr(perfev_errmsg(), "unknown event 'bogus'"));
	perfev_evlist_free(l);
}

Test(unit_parse, attr_json)
{
	struct perfev_evlist *l = parse_ok("mem:0x1000/8:w,cs/freq=99/");
	char *j = perfev_attr_to_json(at(l, 0));
	cr_assert(strstr(j, "\"type\": 5,"), "%s", j);
	cr_assert(strstr(j, "\"bp_type\": 2,"), "%s", j);
	cr_assert(strstr(j, "\"bp_addr\": 4096,"), "%s", j);
	cr_assert(strstr(j, "\"bp_len\": 8,"), "%s", j);
	cr_assert(strstr(j, "\"exclude_guest\": 1,"), "%s", j);
	cr_assert(j[0] == '{' && j[strlen(j) - 1] == '}');
	free(j);
	j = perfev_attr_to_json(at(l, 1));
	cr_assert(strstr(j, "\"sample_freq\": 99,"), "%s", j);
	cr_assert(strstr(j, "\"config1\": 0,"), "%s", j);
	cr_assert(strstr(j, "\"config3\": 0}"), "%s", j);
	free(j);
	perfev_evlist_free(l);
}
