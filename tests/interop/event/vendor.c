/*
 * Vendor events against perf, live: for each model of the test table
 * (tests/data/vendor/events.tsv), perf 6.1 builds its attrs in a private
 * mount namespace where a fake sysfs shows that model's core PMU and
 * PERF_CPUID names the model (perf builds the attr even where the open
 * fails); perfev's attrs for the same strings must equal them. The table's
 * recorded attrs are checked without perf by unit_vendor.
 */
#define _GNU_SOURCE
#include "support.h"
#include "support_vendor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first attr of each event's open attempts in perf -vv's output (the
 * others are perf's fallbacks), each event's attempts ending at "Warning:". */
static size_t first_attempts(char *out, struct vattr *attrs, size_t max)
{
	size_t n = 0;
	bool in_block = false, have = false;
	struct vattr cur;
	char *save;
	for (char *l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(l, "perf_event_attr:", 16)) {
			in_block = !have; /* only the first attempt counts */
			if (in_block)
				memset(&cur, 0, sizeof(cur)), have = true;
		} else if (!strncmp(l, "Warning:", 8)) {
			if (have && n < max)
				attrs[n++] = cur;
			have = in_block = false;
		} else if (!strncmp(l, "sys_perf", 8)) {
			in_block = false;
		} else if (in_block) {
			char key[64];
			unsigned long long v;
			if (sscanf(l, " %63s %lli", key, &v) != 2)
				continue;
			if (!strcmp(key, "type")) cur.type = (unsigned)v;
			else if (!strcmp(key, "config")) cur.config = v;
			else if (!strcmp(key, "config1")) cur.config1 = v;
			else if (!strcmp(key, "exclude_user")) cur.exclude_user = (int)v;
			else if (!strcmp(key, "exclude_kernel")) cur.exclude_kernel = (int)v;
			else if (!strcmp(key, "exclude_hv")) cur.exclude_hv = (int)v;
			else if (!strcmp(key, "precise_ip")) cur.precise_ip = (int)v;
		}
	}
	return n;
}

/* The perf oracle needs perf, root and a private mount namespace: skips
 * saying which is missing. */
static void require_oracle(void)
{
	require_perf_tool();
	require_root();
	struct run_result u = run_cmd("unshare -m true");
	if (u.status)
		cr_skip_test("unshare -m fails here (%s): the perf oracle needs a private mount namespace",
			     u.err[0] ? u.err : "no reason given");
	run_result_free(&u);
}

Test(interop_vendor, attrs_equal_perfs_live, .timeout = 60)
{
	require_oracle();
	size_t n;
	struct vrow *rows = vendor_table(&n);
	size_t checked = 0, bad = 0, models = 0;
	char report[8192] = "";
	for (size_t first = 0; first < n;) {
		size_t last = first;
		while (last < n && !strcmp(rows[last].cpuid, rows[first].cpuid))
			last++;
		const struct vrow *r0 = &rows[first];
		char dir[600];
		snprintf(dir, sizeof(dir), "%s/%s", test_tmpdir(), r0->kind);
		vendor_fake_sysfs(dir, r0->kind);
		size_t len = 1;
		for (size_t i = first; i < last; i++)
			len += strlen(rows[i].event) + 1;
		char *events = calloc(1, len);
		for (size_t i = first; i < last; i++)
			strcat(strcat(events, i > first ? "," : ""), rows[i].event);
		struct run_result p = run_cmd("unshare -m sh -c 'mount --bind %s /sys/bus/event_source/devices && "
					      "PERF_CPUID=%s perf stat -vv -e \"%s\" -- true' 2>&1", dir,
					      r0->cpuid, events);
		free(events);
		struct vattr *perf = calloc(2 * (last - first) + 1, sizeof(*perf));
		size_t np = first_attempts(p.out, perf, 2 * (last - first));
		size_t k = 0;
		models++;
		for (size_t i = first; i < last; i++) {
			const struct vrow *r = &rows[i];
			struct vattr mine[4];
			char msg[300], diff[300];
			int m = vendor_perfev_attrs(r, dir, mine, 4, msg, sizeof(msg));
			const char *why = m < 0 ? msg : NULL;
			if (!why && k + (size_t)m > np)
				why = "perf printed fewer attrs than perfev made";
			for (int j = 0; !why && j < m; j++)
				if (*vattr_diff(&mine[j], &perf[k + (size_t)j], diff, sizeof(diff)))
					why = diff;
			k += m > 0 ? (size_t)m : (size_t)r->nwant;
			checked++;
			if (why) {
				bad++;
				size_t o = strlen(report);
				snprintf(report + o, sizeof(report) - o, "  %s %s: %s\n", r->cpuid, r->event, why);
			}
		}
		cr_assert_eq(k, np, "%s: perfev made %zu attrs, perf printed %zu (perf's output:\n%.2000s)",
			     r0->cpuid, k, np, p.out);
		free(perf);
		run_result_free(&p);
		first = last;
	}
	free(rows);
	cr_assert_geq(models, 6);
	cr_assert_geq(checked, 300);
	cr_assert_eq(bad, 0, "%zu of %zu events differ from perf's live attrs (perfev/perf):\n%s", bad,
		     checked, report);
}

/*
 * Uncore events against perf, live: a quarter of tests/data/vendor/uncore.tsv
 * (every box of each), perf 6.1 building the attrs over a fake sysfs with the
 * model's uncore PMUs (mkfake.sh's third argument) and perfev over the same.
 */
Test(interop_vendor, uncore_attrs_equal_perfs_live, .timeout = 300)
{
	require_oracle();
	size_t n, checked = 0, bad = 0;
	struct urow *rows = vendor_uncore_table(&n);
	char report[8192] = "";
	for (size_t first = 0; first < n;) {
		size_t last = first;
		while (last < n && !strcmp(rows[last].cpuid, rows[first].cpuid) && last - first < 240)
			last++;
		const struct urow *r0 = &rows[first];
		char dir[600];
		snprintf(dir, sizeof(dir), "%s/%s-%s", test_tmpdir(), r0->kind, r0->unc);
		vendor_fake_sysfs_uncore(dir, r0->kind, r0->unc);
		char *events = calloc(1, 200 * (last - first) + 1);
		size_t want = 0;
		for (size_t i = first; i < last; i += 4) {
			strcat(strcat(events, i > first ? "," : ""), rows[i].event);
			want += (size_t)rows[i].nwant;
		}
		struct run_result p = run_cmd("unshare -m sh -c 'mount --bind %s /sys/bus/event_source/devices && "
					      "PERF_CPUID=%s perf stat -vv -a -e \"%s\" -- true' 2>&1", dir,
					      r0->cpuid, events);
		free(events);
		struct vattr *perf = calloc(want + 1, sizeof(*perf));
		size_t np = first_attempts(p.out, perf, want), k = 0;
		cr_assert_eq(np, want, "%s: perf printed %zu attrs for %zu boxes:\n%.2000s", r0->cpuid, np, want,
			     p.out);
		for (size_t i = first; i < last; i += 4) {
			struct urow live = rows[i];
			/* perf walks the boxes in directory order: take each box's attr by its type */
			int found = 0;
			for (int j = 0; j < live.nwant; j++)
				for (size_t q = k; q < k + (size_t)live.nwant; q++)
					if (perf[q].type == rows[i].want[j].type) {
						live.want[j].config = perf[q].config;
						live.want[j].config1 = perf[q].config1;
						found++;
					}
			cr_assert_eq(found, live.nwant, "%s: perf's boxes are not the table's", live.event);
			k += (size_t)live.nwant;
			char msg[400];
			const char *why = vendor_uncore_check(&live, dir, msg, sizeof(msg));
			checked++;
			if (why) {
				bad++;
				size_t o = strlen(report);
				snprintf(report + o, sizeof(report) - o, "  %s %s: %s\n", live.cpuid, live.event, why);
			}
		}
		free(perf);
		run_result_free(&p);
		first = last;
	}
	free(rows);
	cr_assert_geq(checked, 200);
	cr_assert_eq(bad, 0, "%zu of %zu uncore events differ from perf's live attrs:\n%s", bad, checked, report);
}

/* perf stat's count lines (indented) that name the event ctx. */
static bool names_event(const char *line, void *ctx)
{
	return *line == ' ' && strstr(line, ctx);
}

/* An uncore event's boxes print as perf prints them: one merged line, and
 * with --no-merge one line per box named "NAME [PMU]" (same text as perf's,
 * over the same fake sysfs, where neither can open them). */
Test(interop_vendor, uncore_boxes_print_as_perfs, .timeout = 120)
{
	require_oracle();
	char dir[600];
	snprintf(dir, sizeof(dir), "%s/intel-skx", test_tmpdir());
	vendor_fake_sysfs_uncore(dir, "intel", "skx");
	static const char *const opts[] = {"", "--no-merge"};
	for (size_t i = 0; i < 2; i++) {
		struct run_result p = run_cmd("unshare -m sh -c 'mount --bind %s /sys/bus/event_source/devices && "
					      "PERF_CPUID=GenuineIntel-6-55-4 perf stat %s -a -e unc_m_cas_count.rd "
					      "-- true' 2>&1", dir, opts[i]);
		struct run_result q = run_cmd("unshare -m sh -c 'mount --bind %s /sys/bus/event_source/devices && "
					      "PERF_CPUID=GenuineIntel-6-55-4 %s stat %s -a -e unc_m_cas_count.rd "
					      "-- true' 2>&1", dir, PERFEV_BIN, opts[i]);
		/* (sorted: perf walks the boxes in directory order) */
		char *pl = sorted_lines(p.out, names_event, "unc_m_cas_count.rd "),
		     *ql = sorted_lines(q.out, names_event, "unc_m_cas_count.rd ");
		cr_assert_neq(pl[0], 0, "perf stat %s printed no line of the event:\n%s", opts[i], p.out);
		cr_assert_str_eq(ql, pl, "perfev stat %s:\n%s\nperf stat %s:\n%s", opts[i], q.out, opts[i], p.out);
		free(pl);
		free(ql);
		run_result_free(&p);
		run_result_free(&q);
	}
}
