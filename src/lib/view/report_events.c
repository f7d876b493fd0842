/* report_events.c — perfev report over every event of a file: one section
 * per event, or per event group with the members side by side, titled as
 * perf titles them. */
#define _GNU_SOURCE
#include "view/report_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* perf's evsel__group_desc: "anon group { a, b }", or "a, b" when forced. */
static void group_title(struct pv_report_section *s, const struct perfev_profile_event *ev, size_t lead,
			size_t n, bool forced)
{
	size_t len = 0;
	if (!forced)
		len += (size_t)snprintf(s->title, sizeof(s->title), "events '%s { ",
					ev[lead].group_name[0] ? ev[lead].group_name : "anon group");
	else
		len += (size_t)snprintf(s->title, sizeof(s->title), "events '");
	for (size_t m = 0; m < n && len < sizeof(s->title); m++)
		len += (size_t)snprintf(s->title + len, sizeof(s->title) - len, "%s%s", m ? ", " : "",
					ev[lead + m].name);
	if (len < sizeof(s->title))
		snprintf(s->title + len, sizeof(s->title) - len, "%s'", forced ? "" : " }");
}

size_t pv_report_sections(const struct perfev_profile_event *ev, size_t nev, int group, struct pv_report_section *out,
			  size_t max)
{
	size_t ns = 0;
	bool file_groups = false;
	for (size_t i = 0; i < nev; i++)
		file_groups |= ev[i].nr_members > 1;
	/* --group on a file without groups: all events as one (perf's forced leader) */
	bool forced = group == 1 && nev > 1 && !file_groups;
	for (size_t i = 0; i < nev && ns < max; i++) {
		struct pv_report_section *s = &out[ns];
		*s = (struct pv_report_section){.nr = 1};
		size_t members = 1;
		if (forced) {
			if (i)
				break;
			members = nev;
		} else if (group != 0) {
			if (ev[i].leader != (int)i)
				continue; /* shown in its leader's columns */
			members = (size_t)(ev[i].nr_members > 0 ? ev[i].nr_members : 1);
		}
		if (members > PV_REPORT_MAX_MEMBERS)
			members = PV_REPORT_MAX_MEMBERS;
		for (size_t m = 0; m < members; m++) {
			s->p[m] = ev[i + m].profile;
			s->samples += ev[i + m].samples;
		}
		s->nr = members;
		s->no_chains = !ev[i].has_callchains;
		if (!s->samples)
			continue; /* perf's --skip-empty, its default */
		if (members > 1)
			group_title(s, ev, i, members, forced);
		else /* a group's leader shown alone is still "events" for perf */
			snprintf(s->title, sizeof(s->title), "event%s '%s'", ev[i].nr_members > 1 ? "s" : "",
				 ev[i].name);
		ns++;
	}
	return ns;
}

int pv_report_print_events(const char *input, const struct perfev_profile_event *ev, size_t nev, int group,
			   const struct pv_report_view *v, FILE *out)
{
	uint64_t any = 0;
	for (size_t i = 0; i < nev; i++)
		any += ev[i].samples;
	if (!any) { /* perf: its first lines, then "The FILE data has no samples!" (exit 0) */
		pv_report_display_hint(v, out);
		if (!v->time_slices) /* (else the --time note said why) */
			pv_note("%s has no samples: nothing to show (record longer, or at a higher "
				"frequency with -F)", input);
		return 0;
	}
	pv_report_print_preamble(v, out);
	struct pv_report_section *secs = calloc(nev ? nev : 1, sizeof(*secs));
	if (!secs)
		return pv_error(ENOMEM, "out of memory");
	size_t ns = pv_report_sections(ev, nev, group, secs, nev);
	int ret = 0;
	for (size_t i = 0; i < ns; i++) {
		struct pv_report_view sv = *v;
		if (secs[i].no_chains)
			sv.graph = PV_GRAPH_NONE;
		int r = pv_report_print_stdio(&secs[i], &sv, out);
		if (r < 0)
			ret = r;
	}
	free(secs);
	return ret;
}
