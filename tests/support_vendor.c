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

/* Calls row(fields, nf, slot) for each line of the tsv at path (not
 * comments), slot the next of *n elements of size sz in the returned array. */
static void *read_tsv(const char *path, size_t sz, size_t *n,
		      void (*row)(char **f, int nf, void *slot))
{
	size_t len, cap = 0;
	char *text = slurp(path, &len), *save;
	char *rows = NULL;
	*n = 0;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#')
			continue;
		if (*n == cap) {
			cap = cap ? cap * 2 : 256;
			rows = realloc(rows, cap * sz);
			cr_assert(rows);
		}
		char *f[16] = {0}, *p = line;
		int nf = 0;
		while (nf < 16 && (f[nf] = strsep(&p, "\t")))
			nf++;
		memset(rows + *n * sz, 0, sz);
		row(f, nf, rows + (*n)++ * sz);
	}
	free(text);
	return rows;
}

static void vrow_of(char **f, int nf, void *slot)
{
	struct vrow *r = slot;
	cr_assert(nf >= 4, "bad table line: %s", f[0]);
	snprintf(r->cpuid, sizeof(r->cpuid), "%s", f[0]);
	snprintf(r->kind, sizeof(r->kind), "%s", f[1]);
	snprintf(r->event, sizeof(r->event), "%s", f[2]);
	for (int i = 3; i < nf && r->nwant < 2; i++)
		cr_assert(vattr_parse(f[i], &r->want[r->nwant++]), "bad attr '%s'", f[i]);
}

struct vrow *vendor_table(size_t *n)
{
	return read_tsv(PERFEV_SRCDIR "/tests/data/vendor/events.tsv", sizeof(struct vrow), n, vrow_of);
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

static void urow_of(char **f, int nf, void *slot)
{
	struct urow *r = slot;
	cr_assert(nf >= 5, "bad uncore table line: %s", f[0]);
	snprintf(r->cpuid, sizeof(r->cpuid), "%s", f[0]);
	snprintf(r->kind, sizeof(r->kind), "%s", f[1]);
	snprintf(r->unc, sizeof(r->unc), "%s", f[2]);
	snprintf(r->event, sizeof(r->event), "%s", f[3]);
	for (int i = 4; i < nf && r->nwant < 8; i++) {
		struct vattr *a = &r->want[r->nwant++];
		unsigned long long c, c1;
		cr_assert(sscanf(f[i], "%15[^:]:%u:%llx:%llx", a->pmu, &a->type, &c, &c1) == 4,
			  "bad box attr '%s'", f[i]);
		a->config = c;
		a->config1 = c1;
	}
}

struct urow *vendor_uncore_table(size_t *n)
{
	return read_tsv(PERFEV_SRCDIR "/tests/data/vendor/uncore.tsv", sizeof(struct urow), n, urow_of);
}

void vendor_fake_sysfs_uncore(const char *dir, const char *kind, const char *unc)
{
	struct run_result r = run_cmd("%s/tests/data/vendor/mkfake.sh '%s' %s %s", PERFEV_SRCDIR, dir, kind,
				      unc);
	cr_assert_eq(r.status, 0, "mkfake.sh: %s", r.err);
	run_result_free(&r);
}

const char *vendor_uncore_check(const struct urow *r, const char *sysfs, char *msg, size_t len)
{
	struct vrow v = {0};
	snprintf(v.cpuid, sizeof(v.cpuid), "%s", r->cpuid);
	snprintf(v.event, sizeof(v.event), "%s", r->event);
	struct vattr got[9];
	int m = vendor_perfev_attrs(&v, sysfs, got, 9, msg, len);
	if (m < 0)
		return msg;
	if (m != r->nwant) {
		snprintf(msg, len, "%d boxes, perf made %d", m, r->nwant);
		return msg;
	}
	for (int j = 0; j < m; j++) {
		const struct vattr *w = &r->want[j];
		if (strcmp(got[j].pmu, w->pmu) || got[j].type != w->type || got[j].config != w->config ||
		    got[j].config1 != w->config1) {
			snprintf(msg, len, "box %d: %s type %u config %#llx config1 %#llx / perf's %s %u %#llx %#llx", j,
				 got[j].pmu, got[j].type, (unsigned long long)got[j].config,
				 (unsigned long long)got[j].config1, w->pmu, w->type,
				 (unsigned long long)w->config, (unsigned long long)w->config1);
			return msg;
		}
	}
	return NULL;
}
