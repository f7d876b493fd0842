/* export_util.c — helpers shared by the exporters (see export_int.h). */
#include "export/export_int.h"
#include "core/opts.h"

#include <stdlib.h>
#include <string.h>

int pv_export_options(const struct perfev_export_options *o, struct perfev_export_options *out)
{
	if (!PV_OPTS_VALID(o, perfev_export_options))
		return -EINVAL;
	PV_OPTS_COPY(*out, o);
	if ((unsigned)out->value >= PERFEV_VALUE_NR)
		out->value = PERFEV_VALUE_SAMPLES;
	if (!out->title)
		out->title = "Flame Graph";
	if (!out->width)
		out->width = 1200;
	if (out->min_width <= 0)
		out->min_width = 0.1;
	if (!out->period_type)
		out->period_type = "cpu";
	if (!out->period_unit)
		out->period_unit = "nanoseconds";
	if (out->interval_ms <= 0)
		out->interval_ms = 1;
	if (!out->product)
		out->product = "perfev";
	return 0;
}

const struct perfev_profile *pv_export_view(const struct perfev_profile *p, int group,
					    struct perfev_profile **owned)
{
	*owned = NULL;
	bool callee = p->flags & PERFEV_PROFILE_CALLEE;
	if (!callee && (group < 0 || (enum perfev_profile_group)group == p->group))
		return p;
	*owned = perfev_profile_derive(p, group < 0 ? p->group : (enum perfev_profile_group)group, 0);
	return *owned;
}

int pv_export_write(struct pv_buf *b, FILE *out, const char *what)
{
	if (b->oom) {
		pv_buf_free(b);
		return pv_error(ENOMEM, "%s export: out of memory", what);
	}
	if (b->len && fwrite(b->data, 1, b->len, out) != b->len)
		errno = errno ? errno : EIO;
	pv_buf_free(b);
	if (fflush(out) != 0 || ferror(out))
		return pv_error(EIO, "%s export: writing failed: %s (check the disk space and the path)",
				what, strerror(errno));
	return 0;
}

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return k;
}

uint32_t pv_keymap_get(const struct pv_keymap *m, uint64_t key)
{
	if (!m->cap)
		return 0;
	for (size_t i = mix(key) & (m->cap - 1); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return 0;
}

int pv_keymap_put(struct pv_keymap *m, uint64_t key, uint32_t val)
{
	if ((m->nr + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 256;
		uint64_t *k = calloc(ncap, sizeof(*k));
		uint32_t *v = calloc(ncap, sizeof(*v));
		if (!k || !v) {
			free(k);
			free(v);
			return -ENOMEM;
		}
		for (size_t i = 0; i < m->cap; i++) {
			if (!m->vals[i])
				continue;
			size_t j = mix(m->keys[i]) & (ncap - 1);
			while (v[j])
				j = (j + 1) & (ncap - 1);
			k[j] = m->keys[i];
			v[j] = m->vals[i];
		}
		free(m->keys);
		free(m->vals);
		m->keys = k;
		m->vals = v;
		m->cap = ncap;
	}
	size_t i = mix(key) & (m->cap - 1);
	while (m->vals[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	if (!m->vals[i])
		m->nr++;
	m->keys[i] = key;
	m->vals[i] = val;
	return 0;
}

void pv_keymap_free(struct pv_keymap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
