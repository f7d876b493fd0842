/* buildid_list.c — perf buildid-list (perf 6.1) of a recording
 * (perfev/buildid.h): perf's dso list, made from the file's build-id table
 * and, when records are read, from the maps they create, in that order;
 * with hits only the objects a sample's address falls in (perf's
 * build_id__mark_dso_hit: the sampled address, not its call chain). */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "perfev/buildid.h"
#include "perfev/location.h"
#include "perfev/record.h"
#include "perfev/session.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct bl_dso {
	char *name;
	uint8_t id[PERFEV_BUILD_ID_MAX];
	size_t len;
	bool hit;
};

struct bl {
	struct bl_dso *d;
	size_t n, cap;
	struct perfev_session *session;
	bool oom;
};

/* perf's dso name of a map: the kernel's maps are one "[kernel.kallsyms]" */
static const char *dso_name(const char *path, bool kernel)
{
	return kernel && !strncmp(path, "[kernel.kallsyms]", 17) ? "[kernel.kallsyms]" : path;
}

/* perf's dsos__findnew: the dso of that name, made at the end if new. */
static struct bl_dso *findnew(struct bl *b, const char *name)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->d[i].name, name))
			return &b->d[i];
	char *copy = strdup(name);
	if (!copy || pv_grow(&b->d, &b->cap, b->n + 1, sizeof(*b->d)) < 0) {
		free(copy);
		b->oom = true;
		return NULL;
	}
	b->d[b->n] = (struct bl_dso){.name = copy};
	return &b->d[b->n++];
}

static int add_table(void *ctx, int32_t pid, uint16_t cpumode, const char *filename, const uint8_t *id, size_t len)
{
	(void)pid;
	struct bl_dso *d = findnew(ctx, dso_name(filename, (cpumode & PERF_RECORD_MISC_CPUMODE_MASK) ==
								    PERF_RECORD_MISC_KERNEL));
	if (d) {
		d->len = PV_MIN(len, sizeof(d->id));
		memcpy(d->id, id, d->len);
	}
	return 0;
}

static int on_record(void *ctx, const struct perfev_record *r)
{
	struct bl *b = ctx;
	if (perfev_session_process(b->session, r) < 0)
		return -ENOMEM;
	uint8_t cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	switch (r->type) {
	case PERFEV_RECORD_HEADER_BUILD_ID: /* a pipe's table */
		add_table(b, r->u.build_id.pid, r->misc, r->u.build_id.filename, r->u.build_id.build_id,
			  r->misc & PERFEV_RECORD_MISC_BUILD_ID_SIZE ? r->u.build_id.size : 20);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (r->u.mmap.filename) /* (perf makes a dso of every map) */
			findnew(b, dso_name(r->u.mmap.filename, kernel));
		break;
	case PERF_RECORD_SAMPLE: {
		const struct perfev_sample *s = &r->u.sample;
		const struct perfev_map *m = perfev_session_find_map(b->session, s->pid, s->tid, cpumode, s->ip, s->time);
		struct bl_dso *d = m && m->path ? findnew(b, dso_name(m->path, m->kernel)) : NULL;
		if (d)
			d->hit = true;
		break;
	}
	}
	return b->oom ? -ENOMEM : 0;
}

PERFEV_API int perfev_perfdata_print_build_ids(struct perfev_perfdata *pd, const struct perfev_buildid_list_opts *o,
					       FILE *out)
{
	if (!PV_OPTS_VALID(o, perfev_buildid_list_opts))
		return -EINVAL;
	bool hits = PV_OPTS_GET(o, with_hits, false);
	bool pipe = perfev_perfdata_is_pipe(pd);
	struct bl b = {0};
	int err = 0;
	/* perf: all of a table when the file holds AUX-area data (not decoded),
	 * the hits when it has no table, as a pipe has none when perf asks */
	if (!pipe && perfev_perfdata_has_feature(pd, PERFEV_FEAT_AUXTRACE))
		hits = false;
	if (pipe || !perfev_perfdata_has_feature(pd, PERFEV_FEAT_BUILD_ID))
		hits = true;
	if (!pipe && perfev_perfdata_build_ids(pd, add_table, &b) < 0)
		err = pv_error(EBADMSG, "%s: its build-id table is malformed", perfev_perfdata_path(pd));
	if (!err && hits) {
		if (!(b.session = perfev_session_new()))
			err = -ENOMEM;
		struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro), .keep_going = true};
		int r = err ? err : perfev_perfdata_process(pd, &ro, on_record, &b);
		err = r == -ENOMEM || b.oom ? pv_error(ENOMEM, "out of memory") : r < 0 ? r : 0;
		perfev_session_free(b.session);
	}
	for (size_t i = 0; i < b.n && !err; i++) {
		if (hits && !b.d[i].hit)
			continue;
		char hex[2 * PERFEV_BUILD_ID_MAX + 1] = "";
		for (size_t k = 0; k < b.d[i].len; k++)
			snprintf(hex + 2 * k, 3, "%02x", b.d[i].id[k]);
		fprintf(out, "%-40s %s\n", hex, b.d[i].name);
	}
	for (size_t i = 0; i < b.n; i++)
		free(b.d[i].name);
	free(b.d);
	if (!err && ferror(out))
		err = pv_error(EIO, "buildid-list: write error");
	return err;
}
