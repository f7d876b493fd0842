/* The options convention (perfev.h, core/opts.h): structs that may grow carry
 * `size_t sz` first; an older, shorter struct works with the defaults for
 * what it lacks, a longer one works when the bytes this library does not
 * know are zero and fails with EINVAL naming the struct otherwise; an output
 * struct gets only the bytes its sz holds. */
#include "support.h"
#include "core/opts.h"

#include <perfev.h>

#include <errno.h>
#include <string.h>

/* A struct of a caller built against a newer header: one more field. */
struct newer_filter {
	struct perfev_profile_filter f;
	uint64_t extra;
};

/* 1 when a sample of pid 7, comm "app", in a plain frame passes f. */
static int accepts(const struct perfev_profile_filter *f, int *set_err)
{
	struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_THREAD, 0);
	cr_assert_not_null(p);
	*set_err = perfev_profile_set_filter(p, f);
	struct perfev_sample_desc d = {.sz = sizeof(d), .pid = 7, .tid = 7, .comm = "app", .period = 1};
	struct perfev_profile_frame fr = {.symbol = "f", .dso = "/bin/app"};
	int r = *set_err < 0 ? -1 : perfev_profile_add(p, &d, &fr, 1);
	perfev_profile_free(p);
	return r;
}

Test(unit_opts, older_struct_takes_defaults)
{
	int err;
	/* the whole struct: pid 5 keeps pid 7 out */
	struct perfev_profile_filter f = {.sz = sizeof(f), .comm = "app", .pid = 5, .tid = -1};
	cr_assert_eq(accepts(&f, &err), 0);
	/* a caller whose struct ends at comm: pid and tid are not there (the
	 * bytes past sz are not read) and take their default, any */
	f.sz = pv_offsetofend(struct perfev_profile_filter, comm);
	cr_assert_eq(accepts(&f, &err), 1, "%s", perfev_errmsg());
	cr_assert_eq(err, 0);
	f.comm = "other";
	cr_assert_eq(accepts(&f, &err), 0);
}

Test(unit_opts, newer_struct_zero_tail_works)
{
	struct newer_filter n = {.f = {.sz = sizeof(n), .comm = "app", .pid = -1, .tid = -1}};
	int err;
	cr_assert_eq(accepts(&n.f, &err), 1, "%s", perfev_errmsg());
	cr_assert_eq(err, 0);
}

Test(unit_opts, newer_struct_nonzero_tail_fails)
{
	struct newer_filter n = {.f = {.sz = sizeof(n), .pid = -1, .tid = -1}, .extra = 1};
	int err;
	cr_assert_eq(accepts(&n.f, &err), -1);
	cr_assert_eq(err, -EINVAL);
	cr_assert_eq(errno, EINVAL);
	cr_assert_not_null(strstr(perfev_errmsg(), "struct perfev_profile_filter"), "%s", perfev_errmsg());
}

Test(unit_opts, sz_not_set_fails)
{
	struct perfev_profile_filter f = {.comm = "app"};
	int err;
	cr_assert_eq(accepts(&f, &err), -1);
	cr_assert_eq(err, -EINVAL);
	cr_assert_not_null(strstr(perfev_errmsg(), "perfev_profile_filter"), "%s", perfev_errmsg());
	struct perfev_symbolizer_opts so = {.sz = 1};
	cr_assert_null(perfev_symbolizer_new(&so));
	cr_assert_eq(errno, EINVAL);
	cr_assert_not_null(strstr(perfev_errmsg(), "perfev_symbolizer_opts"), "%s", perfev_errmsg());
}

/* Every reader refuses a newer caller's non-zero field, naming its struct. */
Test(unit_opts, readers_refuse_unknown_bytes)
{
	struct {
		struct perfev_symbolizer_opts o;
		uint64_t extra;
	} so = {.o = {.sz = sizeof(so)}, .extra = 1};
	cr_assert_null(perfev_symbolizer_new(&so.o));
	cr_assert_eq(errno, EINVAL);
	cr_assert_not_null(strstr(perfev_errmsg(), "perfev_symbolizer_opts"));
	so.extra = 0;
	struct perfev_symbolizer *s = perfev_symbolizer_new(&so.o);
	cr_assert_not_null(s, "%s", perfev_errmsg());
	perfev_symbolizer_free(s);

	struct {
		struct perfev_export_options o;
		uint64_t extra;
	} eo = {.o = {.sz = sizeof(eo)}, .extra = 1};
	struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_THREAD, 0);
	FILE *f = tmpfile();
	cr_assert(p && f);
	cr_assert_lt(perfev_export_folded(p, &eo.o, f), 0);
	cr_assert_eq(errno, EINVAL);
	cr_assert_not_null(strstr(perfev_errmsg(), "perfev_export_options"), "%s", perfev_errmsg());
	eo.extra = 0;
	cr_assert_geq(perfev_export_folded(p, &eo.o, f), 0, "%s", perfev_errmsg());
	fclose(f);
	perfev_profile_free(p);
}

/* The output struct: an older caller's shorter info gets only its bytes. */
struct newer_info {
	struct perfev_profile_load_info i;
	uint64_t extra;
};

static struct perfev_profile *load(const char *path, struct perfev_profile_load_info *info)
{
	struct perfev_profile_load_opts o = {.sz = sizeof(o), .kallsyms = "", .no_cache = true};
	return perfev_profile_load(path, &o, info);
}

Test(unit_opts, output_struct_sz, .timeout = 60)
{
	require_corpus();
	char path[4096];
	snprintf(path, sizeof(path), "%s/perf.data.group_desc-4.14", CORPUS_DIR);

	struct perfev_profile_load_info full = {.sz = sizeof(full)};
	struct perfev_profile *p = load(path, &full);
	cr_assert_not_null(p, "%s", perfev_errmsg());
	perfev_profile_free(p);
	cr_assert_gt(full.samples, 0);
	cr_assert_eq(full.sz, sizeof(full));

	/* older: ends at samples; the bytes after it stay as the caller left them */
	struct newer_info old;
	memset(&old, 0xa5, sizeof(old));
	old.i.sz = pv_offsetofend(struct perfev_profile_load_info, samples);
	p = load(path, &old.i);
	cr_assert_not_null(p, "%s", perfev_errmsg());
	perfev_profile_free(p);
	cr_assert_eq(old.i.sz, pv_offsetofend(struct perfev_profile_load_info, samples));
	cr_assert_str_eq(old.i.event_name, full.event_name);
	cr_assert_eq(old.i.samples, full.samples);
	const unsigned char *b = (const unsigned char *)&old;
	for (size_t i = old.i.sz; i < sizeof(old); i++)
		cr_assert_eq(b[i], 0xa5, "byte %zu past sz written", i);

	/* newer, zero tail: filled, the tail left zero */
	struct newer_info n = {.i = {.sz = sizeof(n)}};
	p = load(path, &n.i);
	cr_assert_not_null(p, "%s", perfev_errmsg());
	perfev_profile_free(p);
	cr_assert_eq(n.i.samples, full.samples);
	cr_assert_eq(n.extra, 0);

	/* newer, non-zero tail: refused */
	n.extra = 1;
	cr_assert_null(load(path, &n.i));
	cr_assert_eq(errno, EINVAL);
	cr_assert_not_null(strstr(perfev_errmsg(), "struct perfev_profile_load_info"), "%s", perfev_errmsg());
}

/* A caller's designated initializer leaves the tail padding undefined (GCC
 * leaves stack bytes there): the library's own sizeof is known, padding and
 * all, so only bytes past it count as a newer caller's fields. */
Test(unit_opts, same_version_padding_is_not_a_field)
{
	struct perfev_tp_report_opts o;
	memset(&o, 0xa5, sizeof(o));
	o.sz = sizeof(o);
	o.no_header_hint = true;
	cr_assert_gt(sizeof(o), pv_offsetofend(struct perfev_tp_report_opts, no_header_hint),
		     "perfev_tp_report_opts has no tail padding: pick another struct for this test");
	cr_assert(PV_OPTS_VALID(&o, perfev_tp_report_opts), "%s", perfev_errmsg());
	struct {
		struct perfev_tp_report_opts o;
		uint64_t newer;
	} n;
	memset(&n, 0, sizeof(n));
	n.o.sz = sizeof(n);
	n.newer = 1;
	cr_assert(!PV_OPTS_VALID(&n.o, perfev_tp_report_opts));
	cr_assert_not_null(strstr(perfev_errmsg(), "perfev_tp_report_opts"), "%s", perfev_errmsg());
}
