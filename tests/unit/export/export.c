#define _GNU_SOURCE
/* The exporters on a synthetic profile: folded stacks, SVG flame graph,
 * pprof and Firefox JSON, each checked by an independent reader. */
#include "support.h"
#include "support_profile.h"
#include "perfev.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Writes the profile with `fn` into DIR/name and returns the path. */
static char *export_to(int (*fn)(const struct perfev_profile *, const struct perfev_export_options *, FILE *),
		       const struct perfev_profile *p, const struct perfev_export_options *o,
		       const char *name)
{
	char *path;
	cr_assert(asprintf(&path, "%s/%s", test_tmpdir(), name) > 0);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	cr_assert_eq(fn(p, o, f), 0, "%s", perfev_errmsg());
	fclose(f);
	return path;
}

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	for (const char *at = text; (at = strstr(at, line)); at += n)
		if ((at == text || at[-1] == '\n') && at[n] == '\n')
			return true;
	return false;
}

Test(unit_export, folded_sums_to_samples)
{
	struct perfev_profile *p = synthetic_profile(PERFEV_GROUP_THREAD, 0);
	char *path = export_to(perfev_export_folded, p, NULL, "out.folded");
	FILE *f = fopen(path, "r");
	char line[1024];
	unsigned long long sum = 0;
	int lines = 0;
	bool saw_compute = false, saw_unknown = false;
	while (fgets(line, sizeof(line), f)) {
		char *sp = strrchr(line, ' ');
		cr_assert(sp, "no count in '%s'", line);
		sum += strtoull(sp + 1, NULL, 10);
		lines++;
		if (strncmp(line, "app;main;work;compute ", 22) == 0) {
			cr_assert_eq(strtoull(sp + 1, NULL, 10), 64, "threads 100 and 101 merged by comm");
			saw_compute = true;
		}
		if (strncmp(line, "sh;main;0x4242 ", 15) == 0)
			saw_unknown = true;
	}
	fclose(f);
	cr_assert_eq(sum, SYNTH_SAMPLES);
	cr_assert(saw_compute && saw_unknown);
	cr_assert_eq(lines, 7);

	/* the period, with kernel frames marked */
	struct perfev_export_options o = {.sz = sizeof(o), .value = PERFEV_VALUE_PERIOD,
					  .annotate_kernel = true};
	char *path2 = export_to(perfev_export_folded, p, &o, "period.folded");
	char *text = slurp(path2, NULL);
	cr_assert(strstr(text, "app;main;work;sys_write_[k] 5000\n"), "%s", text);
	cr_assert(strstr(text, "app;main;work;compute;memcpy_[i] 10000\n"), "%s", text);
	free(text);
	free(path);
	free(path2);
	perfev_profile_free(p);
}

Test(unit_export, flame_svg_is_xml_with_a_rect_per_frame)
{
	struct run_result r0 = run_cmd("command -v xmllint");
	if (r0.status != 0)
		cr_skip_test("xmllint not installed (libxml2-utils, scripts/deps.sh installs it)");
	run_result_free(&r0);
	struct perfev_profile *p = synthetic_profile(PERFEV_GROUP_THREAD, 0);
	/* the exporter merges threads by command: one frame per node of that view */
	struct perfev_profile *byc = perfev_profile_derive(p, PERFEV_GROUP_COMM, 0);
	size_t frames = perfev_profile_nr_nodes(byc);
	struct perfev_export_options o = {.sz = sizeof(o), .title = "t<&>\"'", .subtitle = "s"};
	char *path = export_to(perfev_export_flame, p, &o, "flame.svg");
	struct run_result r = run_cmd("xmllint --noout '%s'", path);
	cr_assert_eq(r.status, 0, "xmllint: %s", r.err);
	run_result_free(&r);
	r = run_cmd("xmllint --xpath \"count(//*[local-name()='g'][@class='f']/*[local-name()='rect'])\" '%s'", path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert_eq(strtoul(r.out, NULL, 10), frames, "rects %s, frames %zu", r.out, frames);
	run_result_free(&r);
	char *svg = slurp(path, NULL);
	assert_svg_offline(svg);
	cr_assert(strstr(svg, "<title>compute (74 samples, 70.48%; self 64, 60.95%) in /usr/bin/app</title>"));
	cr_assert(strstr(svg, "<title>sys_write [k] (5 samples"));
	cr_assert(strstr(svg, "Matched: "));
	cr_assert(strstr(svg, "function zoom("));
	/* the embedded script works: run against a minimal DOM where node is
	 * installed (tests/data/flame_check.js): zoom into "work", search "compute" */
	r = run_cmd("command -v node >/dev/null || exit 77; node '%s/tests/data/flame_check.js' '%s' work compute",
		    PERFEV_SRCDIR, path);
	if (r.status != 77) {
		cr_assert_eq(r.status, 0, "script: %s", r.err);
		cr_assert(has_line(r.out, "frames 15"), "%s", r.out);
		cr_assert(has_line(r.out, "zoomed_width 1180"), "the zoomed frame fills the width: %s", r.out);
		cr_assert(has_line(r.out, "zoomed_visible 7"), "work, its 3 callees, 3 parents: %s", r.out);
		cr_assert(has_line(r.out, "parents 3"), "%s", r.out);
		cr_assert(has_line(r.out, "matched Matched: 93.7%"), "74 of work's 79: %s", r.out);
		cr_assert(has_line(r.out, "matched_all Matched: 70.5%"), "74 of 105: %s", r.out);
		cr_assert(has_line(r.out, "after_unzoom_visible 15"), "%s", r.out);
		cr_assert(has_line(r.out, "details app (100 samples, 95.24%)"), "%s", r.out);
	}
	run_result_free(&r);
	free(svg);
	free(path);
	perfev_profile_free(byc);
	perfev_profile_free(p);
}

Test(unit_export, flame_hostile_names_and_empty)
{
	struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_NONE, 0);
	char *path = export_to(perfev_export_flame, p, NULL, "empty.svg");
	struct run_result r = run_cmd("xmllint --noout '%s'", path);
	cr_assert_eq(r.status, 0, "empty profile: %s", r.err);
	run_result_free(&r);
	struct perfev_profile_frame fr = {.symbol = "operator<<(a&, b\x01\xff\xc3)]]>", .dso = "x"};
	struct perfev_sample_desc d = {.sz = sizeof(d), .comm = "a&b"};
	cr_assert_eq(perfev_profile_add(p, &d, &fr, 1), 1);
	free(path);
	path = export_to(perfev_export_flame, p, NULL, "hostile.svg");
	r = run_cmd("xmllint --noout '%s'", path);
	cr_assert_eq(r.status, 0, "hostile names: %s", r.err);
	run_result_free(&r);
	free(path);
	perfev_profile_free(p);
}

/* Decodes a pprof export with protoc and summarises it (tests/data/pprof_summary.py). */
static char *pprof_summary(const char *path)
{
	struct run_result r = run_cmd("command -v protoc >/dev/null || exit 77; gunzip -c '%s' | "
				      "protoc --decode perftools.profiles.Profile -I '%s/tests/data' "
				      "'%s/tests/data/profile.proto' | python3 '%s/tests/data/pprof_summary.py'",
				      path, PERFEV_SRCDIR, PERFEV_SRCDIR, PERFEV_SRCDIR);
	if (r.status == 77)
		cr_skip_test("protoc not installed (protobuf-compiler, scripts/deps.sh installs it)");
	cr_assert_eq(r.status, 0, "decoding %s: %s", path, r.err);
	free(r.err);
	return r.out;
}

Test(unit_export, pprof_decodes_with_protoc)
{
	struct perfev_profile *p = synthetic_profile(PERFEV_GROUP_THREAD, 0);
	char *path = export_to(perfev_export_pprof, p, NULL, "cpu.pb.gz");
	char *sum = pprof_summary(path);
	cr_assert(has_line(sum, "sample_types samples/count,cpu/nanoseconds"), "%s", sum);
	cr_assert(has_line(sum, "period_type cpu/nanoseconds"), "%s", sum);
	cr_assert(has_line(sum, "period 976"), "total period / samples: %s", sum); /* 102500/105 */
	cr_assert(has_line(sum, "string0_empty 1"), "%s", sum);
	cr_assert(has_line(sum, "total0 105"), "%s", sum);
	cr_assert(has_line(sum, "total1 102500"), "%s", sum);
	cr_assert(has_line(sum, "bad_refs 0"), "%s", sum);
	cr_assert(has_line(sum, "inline_locations 1"), "memcpy inlined in compute: %s", sum);
	cr_assert(has_line(sum, "mappings 1"), "%s", sum);
	cr_assert(has_line(sum, "build_ids deadbeef"), "%s", sum);
	cr_assert(has_line(sum, "label_keys comm,pid,tid"), "%s", sum);
	cr_assert(has_line(sum, "top_leaf compute 60"), "%s", sum);
	cr_assert(strstr(sum, "0x4242"), "unknown symbols by address: %s", sum);
	free(sum);
	free(path);
	perfev_profile_free(p);
}

static char *firefox_summary(const char *path)
{
	struct run_result r = run_cmd("python3 '%s/tests/data/firefox_check.py' '%s'", PERFEV_SRCDIR, path);
	cr_assert_eq(r.status, 0, "checking %s: %s", path, r.err);
	free(r.err);
	return r.out;
}

Test(unit_export, firefox_json_has_the_required_tables)
{
	struct perfev_profile *p = synthetic_profile(PERFEV_GROUP_THREAD, 0);
	char *path = export_to(perfev_export_firefox, p, NULL, "profile.json");
	char *sum = firefox_summary(path);
	cr_assert(has_line(sum, "errors none"), "%s", sum);
	cr_assert(has_line(sum, "threads 3"), "one track per thread: %s", sum);
	cr_assert(has_line(sum, "samples 105"), "%s", sum);
	cr_assert(has_line(sum, "names app:100:100,app:100:101,sh:200:200"), "%s", sum);
	cr_assert(has_line(sum, "libs 1"), "%s", sum);
	free(sum);
	free(path);
	perfev_profile_free(p);

	/* with the sample log: one sample per sample, in time order */
	p = synthetic_profile(PERFEV_GROUP_THREAD, PERFEV_PROFILE_KEEP_SAMPLES);
	path = export_to(perfev_export_firefox, p, NULL, "timed.json");
	sum = firefox_summary(path);
	cr_assert(has_line(sum, "errors none"), "%s", sum);
	cr_assert(has_line(sum, "samples 105"), "%s", sum);
	free(sum);
	free(path);
	perfev_profile_free(p);
}

/* ---- differential exports: the synthetic profile, then again with
 * main->work->compute 60 samples more (its share grows, idle's shrinks) */
static struct perfev_profile *grown_profile(void)
{
	struct perfev_profile *p = synthetic_profile(PERFEV_GROUP_THREAD, 0);
	static const char *const stack[] = {"compute", "work", "main"};
	synthetic_add(p, "app", 100, 100, 1000, stack, 3, 60);
	return p;
}

static const struct perfev_profile *diff_base; /* the old profile of the three below */
static int folded_diff(const struct perfev_profile *p, const struct perfev_export_options *o, FILE *f)
{
	return perfev_export_folded_diff(diff_base, p, o, f);
}
static int flame_diff(const struct perfev_profile *p, const struct perfev_export_options *o, FILE *f)
{
	return perfev_export_flame_diff(diff_base, p, o, f);
}
static int pprof_diff(const struct perfev_profile *p, const struct perfev_export_options *o, FILE *f)
{
	return perfev_export_pprof_diff(diff_base, p, o, f);
}

Test(unit_export, difffolded_has_both_counts_per_stack)
{
	struct perfev_profile *old = synthetic_profile(PERFEV_GROUP_THREAD, 0), *new_ = grown_profile();
	diff_base = old;
	char *path = export_to(folded_diff, new_, NULL, "d.folded");
	char *text = slurp(path, NULL);
	cr_assert(has_line(text, "app;main;work;compute 64 124"), "%s", text);
	cr_assert(has_line(text, "app;main;idle 20 20"), "%s", text);
	unsigned long long o = 0, n = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		char *last = strrchr(line, ' ');
		cr_assert(last, "%s", line);
		n += strtoull(last + 1, NULL, 10);
		*last = 0;
		char *prev = strrchr(line, ' ');
		cr_assert(prev, "not \"stack OLD NEW\": %s", line);
		o += strtoull(prev + 1, NULL, 10);
	}
	cr_assert_eq(o, SYNTH_SAMPLES, "the old column sums to the old samples");
	cr_assert_eq(n, SYNTH_SAMPLES + 60, "the new column sums to the new samples");
	/* a stack only the old profile has: "stack OLD 0" */
	diff_base = new_;
	free(path);
	free(text);
	path = export_to(folded_diff, old, NULL, "r.folded");
	text = slurp(path, NULL);
	cr_assert(has_line(text, "app;main;work;compute 124 64"), "%s", text);
	cr_assert_eq(perfev_export_folded_diff(NULL, new_, NULL, stdout), -EINVAL);
	free(text);
	free(path);
	perfev_profile_free(old);
	perfev_profile_free(new_);
}

Test(unit_export, diff_flame_graph_colours_by_the_change)
{
	struct perfev_profile *old = synthetic_profile(PERFEV_GROUP_THREAD, 0), *new_ = grown_profile();
	diff_base = old;
	char *path = export_to(flame_diff, new_, NULL, "d.svg");
	struct run_result r = run_cmd("xmllint --noout '%s'", path);
	cr_assert_eq(r.status, 0, "xmllint: %s", r.err);
	run_result_free(&r);
	char *svg = slurp(path, NULL);
	assert_svg_offline(svg);
	cr_assert(strstr(svg, ">Differential Flame Graph<"));
	/* compute and its inlined memcpy: 74 of 105, then 134 of 165 */
	char *t = strstr(svg, "<title>compute (old 70.48%, new 81.21%, change +10.74 points)</title>");
	cr_assert(t, "%s", svg);
	cr_assert(strstr(t, "fill=\"rgb(255,0,0)\""), "the largest growth is the deepest red: %.300s", t);
	t = strstr(svg, "<title>idle (old 19.05%, new 12.12%, change -6.93 points)</title>");
	cr_assert(t && strstr(t, "fill=\"rgb(") && strstr(t, ",255)\""), "idle shrank: blue: %.300s", t);
	free(svg);
	free(path);
	perfev_profile_free(old);
	perfev_profile_free(new_);
}

Test(unit_export, pprof_diff_negates_the_base)
{
	struct perfev_profile *old = synthetic_profile(PERFEV_GROUP_THREAD, 0), *new_ = grown_profile();
	diff_base = old;
	char *path = export_to(pprof_diff, new_, NULL, "d.pb.gz");
	char *sum = pprof_summary(path);
	cr_assert(has_line(sum, "total0 60"), "new minus old samples: %s", sum);
	cr_assert(has_line(sum, "bad_refs 0"), "%s", sum);
	free(sum);
	free(path);
	perfev_profile_free(old);
	perfev_profile_free(new_);
}
