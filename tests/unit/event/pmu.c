/* sysfs PMUs and tracefs tracepoints, read from the fake trees under tests/data/. */
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define SYSFS PERFEV_SRCDIR "/tests/data/sysfs"
#define TRACEFS PERFEV_SRCDIR "/tests/data/tracefs/events"

Test(unit_pmu, format_parse)
{
	int f;
	uint64_t m;
	cr_assert_eq(perfev_pmu_format_parse("config:0-7", &f, &m), 0);
	cr_assert(f == 0 && m == 0xff);
	cr_assert_eq(perfev_pmu_format_parse("config1:0-7,32-35\n", &f, &m), 0);
	cr_assert(f == 1 && m == (0xffULL | 0xfULL << 32));
	cr_assert_eq(perfev_pmu_format_parse("config2:63", &f, &m), 0);
	cr_assert(f == 2 && m == 1ULL << 63);
	cr_assert_eq(perfev_pmu_format_parse("config3:0,2,4", &f, &m), 0);
	cr_assert(f == 3 && m == 0x15);
	cr_assert_eq(perfev_pmu_format_parse("config:0-63", &f, &m), 0);
	cr_assert_eq(m, ~0ULL);
	cr_assert_eq(perfev_pmu_format_parse("config4:1", &f, &m), -EINVAL);
	cr_assert_eq(perfev_pmu_format_parse("config:64", &f, &m), -EINVAL);
	cr_assert_eq(perfev_pmu_format_parse("config:7-3", &f, &m), -EINVAL);
	cr_assert_eq(perfev_pmu_format_parse("config:", &f, &m), -EINVAL);
	cr_assert_eq(perfev_pmu_format_parse("config:1x", &f, &m), -EINVAL);
}

Test(unit_pmu, load_fake_tree)
{
	struct perfev_pmus *s = perfev_pmus_load(SYSFS);
	cr_assert_not_null(s);
	cr_assert_eq(perfev_pmus_count(s), 5);
	cr_assert_str_eq(perfev_pmu_name(perfev_pmus_at(s, 0)), "fakecpu");
	const struct perfev_pmu *p = perfev_pmus_find(s, "fakecpu");
	cr_assert_not_null(p);
	cr_assert_eq(perfev_pmu_type(p), 42);
	cr_assert_str_eq(perfev_pmu_cpumask(p), "0-3");
	cr_assert_str_eq(perfev_pmu_cap(p, "max_precise"), "3");
	cr_assert_null(perfev_pmu_cap(p, "nope"));
	cr_assert_eq(perfev_pmu_format_count(p), 7);
	const struct perfev_pmu_format *f = perfev_pmu_format_find(p, "split");
	cr_assert(f && f->field == 2 && f->mask == 0xf0f);
	cr_assert_eq(perfev_pmu_alias_count(p), 5);
	cr_assert_not_null(perfev_pmu_alias_find(p, "l3.misses")); /* dotted names are events too */
	const struct perfev_pmu_alias *a = perfev_pmu_alias_find(p, "Energy");
	cr_assert_not_null(a);
	cr_assert_str_eq(a->terms, "event=0x02");
	cr_assert_str_eq(a->unit, "Joules");
	cr_assert(a->per_pkg && a->snapshot);
	cr_assert_float_eq(a->scale, 2.3283064365386962890625e-10, 1e-20);
	a = perfev_pmu_alias_find(p, "cpu-cycles");
	cr_assert(a && a->scale == 1.0 && !strcmp(a->unit, "") && !a->per_pkg);
	cr_assert_null(perfev_pmus_find(s, "nope"));
	cr_assert_eq(errno, ENOENT);
	cr_assert_null(perfev_pmus_at(s, 5));
	cr_assert_str_eq(perfev_pmu_name(perfev_pmus_at(s, 4)), "uncore_fakeother");

	struct perfev_attr attr = {0};
	attr.config = ~0ULL;
	cr_assert_eq(perfev_pmu_encode_term(p, "umask", 0x5a, &attr), 0);
	cr_assert_eq(attr.config, (~0ULL & ~0xff00ULL) | 0x5a00);
	cr_assert_eq(perfev_pmu_encode_term(p, "split", 0xa5, &attr), 0);
	cr_assert_eq(attr.config2, 0xa05);
	cr_assert_eq(perfev_pmu_encode_term(p, "inv", 2, &attr), -ERANGE);
	cr_assert_eq(perfev_pmu_encode_term(p, "nope", 1, &attr), -ENOENT);
	perfev_pmus_free(s);
	perfev_pmus_free(NULL);
	cr_assert_null(perfev_pmus_load("/nonexistent/dir"));
}

Test(unit_pmu, real_sysfs_has_software)
{
	struct perfev_pmus *s = perfev_pmus_load(NULL);
	if (!s)
		cr_skip_test("no %s here", PERFEV_PMU_SYSFS_ROOT);
	const struct perfev_pmu *p = perfev_pmus_find(s, "software");
	cr_assert_not_null(p, "every perf kernel has the software PMU");
	cr_assert_eq(perfev_pmu_type(p), PERF_TYPE_SOFTWARE);
	perfev_pmus_free(s);
}

static int collect(void *arg, const char *sys, const char *name, int id)
{
	char *out = arg;
	char one[64];
	snprintf(one, sizeof(one), "%s:%s=%d;", sys, name, id);
	strcat(out, one);
	return 0;
}

static int stop_at_two(void *arg, const char *sys, const char *name, int id)
{
	return ++*(int *)arg == 2 ? 7 : 0;
}

Test(unit_pmu, tracepoints_fake_tree)
{
	cr_assert_eq(perfev_tracepoint_id(TRACEFS, "fakesys", "ev_two"), 102);
	cr_assert_eq(perfev_tracepoint_id(TRACEFS, "fakesys", "nope"), -ENOENT);
	cr_assert(strstr(perfev_errmsg(), "unknown tracepoint"));
	cr_assert_eq(perfev_tracepoint_id(TRACEFS, "..", "x"), -ENOENT);
	cr_assert_eq(perfev_tracepoint_id(TRACEFS, "fakesys", "enable"), -ENOENT);
	char out[512] = "";
	cr_assert_eq(perfev_tracepoints_foreach(TRACEFS, NULL, NULL, collect, out), 4);
	cr_assert_str_eq(out, "fakesys:ev_one=101;fakesys:ev_two=102;fakesys:other=103;othersys:ev_one=201;");
	out[0] = 0;
	cr_assert_eq(perfev_tracepoints_foreach(TRACEFS, "*sys", "ev_[o]*", collect, out), 2);
	cr_assert_str_eq(out, "fakesys:ev_one=101;othersys:ev_one=201;");
	int n = 0;
	cr_assert_eq(perfev_tracepoints_foreach(TRACEFS, NULL, NULL, stop_at_two, &n), 7);
	cr_assert_eq(perfev_tracepoints_foreach(TRACEFS, "none", NULL, NULL, NULL), 0);
}
