/* support_vendor.c — see support_vendor.h. */
#define _GNU_SOURCE
#include "support.h"
#include "support_vendor.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool vattr_parse(const char *s, struct vattr *a)
{
	unsigned long long c, c1;
	memset(a, 0, sizeof(*a));
	return sscanf(s, "%15[^:]:%u:%llx:%llx:%d:%d:%d:%d", a->pmu, &a->type, &c, &c1, &a->exclude_user,
		      &a->exclude_kernel, &a->exclude_hv, &a->precise_ip) == 8 &&
	       ((a->config = c), (a->config1 = c1), true);
}

struct vrow *vendor_table(size_t *n)
{
	size_t len;
	char *text = slurp(PERFEV_SRCDIR "/tests/data/vendor/events.tsv", &len), *save;
	struct vrow *rows = NULL;
	size_t cap = 0;
	*n = 0;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			rows = realloc(rows, cap * sizeof(*rows));
			cr_assert(rows);
		}
		struct vrow *r = &rows[*n];
		memset(r, 0, sizeof(*r));
		char *f[6] = {0}, *p = line;
		int nf = 0;
		while (nf < 6 && (f[nf] = strsep(&p, "\t")))
			nf++;
		cr_assert(nf >= 4, "bad table line: %s", line);
		snprintf(r->cpuid, sizeof(r->cpuid), "%s", f[0]);
		snprintf(r->kind, sizeof(r->kind), "%s", f[1]);
		snprintf(r->event, sizeof(r->event), "%s", f[2]);
		for (int i = 3; i < nf && r->nwant < 2; i++)
			cr_assert(vattr_parse(f[i], &r->want[r->nwant++]), "bad attr '%s'", f[i]);
		(*n)++;
	}
	free(text);
	return rows;
}

void vendor_fake_sysfs(const char *dir, const char *kind)
{
	struct run_result r = run_cmd("%s/tests/data/vendor/mkfake.sh '%s' %s", PERFEV_SRCDIR, dir, kind);
	cr_assert_eq(r.status, 0, "mkfake.sh: %s", r.err);
	run_result_free(&r);
}

int vendor_perfev_attrs(const struct vrow *row, const char *sysfs, struct vattr *out, int max,
			char *msg, size_t len)
{
	setenv("PERF_CPUID", row->cpuid, 1);
	struct perfev_evlist *l = perfev_evlist_new();
	struct perfev_parse_opts o = {sizeof(o), sysfs, NULL};
	struct perfev_parse_error err;
	int r = perfev_evlist_parse_opts(l, row->event, &o, &err);
	if (r < 0) {
		snprintf(msg, len, "%s", err.msg);
		perfev_evlist_free(l);
		return r;
	}
	int n = 0;
	for (size_t i = 0; i < perfev_evlist_count(l) && n < max; i++, n++) {
		const struct perfev_evsel *e = perfev_evlist_at(l, i);
		const struct perfev_attr *a = perfev_evsel_attr_const(e);
		memset(&out[n], 0, sizeof(out[n]));
		snprintf(out[n].pmu, sizeof(out[n].pmu), "%s", perfev_evsel_pmu_name(e) ? perfev_evsel_pmu_name(e) : "");
		out[n].type = a->type;
		out[n].config = a->config;
		out[n].config1 = a->config1;
		out[n].exclude_user = a->exclude_user;
		out[n].exclude_kernel = a->exclude_kernel;
		out[n].exclude_hv = a->exclude_hv;
		out[n].precise_ip = a->precise_ip;
	}
	if (perfev_evlist_count(l) > (size_t)max)
		n = (int)perfev_evlist_count(l);
	perfev_evlist_free(l);
	return n;
}

const char *vattr_diff(const struct vattr *a, const struct vattr *b, char *buf, size_t len)
{
	buf[0] = 0;
	if (a->type != b->type || a->config != b->config || a->config1 != b->config1 ||
	    a->exclude_user != b->exclude_user || a->exclude_kernel != b->exclude_kernel ||
	    a->exclude_hv != b->exclude_hv || a->precise_ip != b->precise_ip)
		snprintf(buf, len, "type %u/%u config %#llx/%#llx config1 %#llx/%#llx exclude u%d/%d k%d/%d "
			 "hv%d/%d precise %d/%d", a->type, b->type, (unsigned long long)a->config,
			 (unsigned long long)b->config, (unsigned long long)a->config1,
			 (unsigned long long)b->config1, a->exclude_user, b->exclude_user, a->exclude_kernel,
			 b->exclude_kernel, a->exclude_hv, b->exclude_hv, a->precise_ip, b->precise_ip);
	return buf;
}
