/* parse_probe.c — the event-string parser's hook for u:PATH:SYMBOL and
 * k:SYMBOL probes (the probe module makes the attr). */
#define _GNU_SOURCE
#include "core/internal.h"
#include "event/parse_ctx.h"
#include "perfev/probe.h"
#include "perfev/sys.h"
#include "tracing/probe_int.h"

#include <stdlib.h>
#include <string.h>

int pv_parse_probe(struct pctx *c, size_t start)
{
	/* A probe string has ':' in it (and paths may have more), so it runs to
	 * the end of the event: no modifiers after it. */
	size_t end = start;
	while (end < c->len && c->s[end] != ',' && c->s[end] != '}')
		end++;
	char *spec = strndup(c->s + start, end - start);
	if (!spec)
		return pv_fail(c, ENOMEM, start, "out of memory");
	struct perfev_probe *p = pv_probe_keep(spec);
	free(spec);
	if (!p)
		return pv_fail(c, errno, start, "%s", perfev_errmsg());
	const struct perfev_attr *a = perfev_probe_attr(p);
	struct perfev_evsel *e = pv_new_event(c, a->type, a->config);
	if (!e)
		return -ENOMEM;
	struct perfev_attr *ea = perfev_evsel_attr(e);
	ea->config1 = a->config1;
	ea->config2 = a->config2;
	ea->sample_period = 1; /* a sample per hit, as for tracepoints (perf stat clears it) */
	char name[300];
	pv_probe_event_name(p, name, sizeof(name));
	perfev_evsel_set_name(e, name);
	c->st[perfev_evsel_index(e)].named = true;
	c->pos = end;
	return 0;
}
