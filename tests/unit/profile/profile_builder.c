/* Profiles fed record by record (perfev/profile_builder.h): a builder fed
 * a recording's records makes the profile perfev_profile_load makes of it,
 * with or without the recording's handle. */
#include "support.h"
#include "support_profile.h"
#include "perfev.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALLGRAPH CORPUS_DIR "/perf.data.callgraph-3.8"
#define HW_AND_SW CORPUS_DIR "/perf.data.hw_and_sw-3.4"

static char *folded(const struct perfev_profile *p)
{
	return profile_folded(p, PERFEV_VALUE_PERIOD, false);
}

static int feed(void *ctx, const struct perfev_record *rec)
{
	return perfev_profile_builder_add(ctx, rec);
}

/* Every record of path into b; with_events: b has no handle and is given
 * the file's events first. */
static void feed_file(struct perfev_perfdata *pd, struct perfev_profile_builder *b, bool with_events)
{
	for (size_t i = 0; with_events && i < perfev_perfdata_nr_events(pd); i++)
		cr_assert_eq(perfev_profile_builder_add_event(b, perfev_perfdata_event_attr(pd, i),
							      perfev_perfdata_event_name(pd, i)), (int)i);
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro), .keep_going = true};
	cr_assert_eq(perfev_perfdata_process(pd, &ro, feed, b), 0, "%s", perfev_errmsg());
}

static void same_as_load(const char *path, bool with_handle)
{
	/* (without the handle the records are taken as this machine's: its
	 * kernel's symbols would name another kernel's addresses) */
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .group = PERFEV_GROUP_THREAD, .event = -1,
					      .kallsyms = with_handle ? NULL : ""};
	struct perfev_profile_load_info li = {.sz = sizeof(li)}, bi = {.sz = sizeof(bi)};
	struct perfev_profile *want = perfev_profile_load(path, &lo, &li);
	cr_assert(want, "%s", perfev_errmsg());
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	cr_assert(pd);
	struct perfev_profile_builder_opts bo = {.sz = sizeof(bo), .load = &lo,
						 .perfdata = with_handle ? pd : NULL};
	struct perfev_profile_builder *b = perfev_profile_builder_new(&bo);
	cr_assert(b, "%s", perfev_errmsg());
	feed_file(pd, b, !with_handle);
	struct perfev_profile *got = perfev_profile_builder_finish(b, &bi);
	cr_assert(got, "%s", perfev_errmsg());
	char *w = folded(want), *g = folded(got);
	cr_assert_str_eq(g, w, "%s (%s the handle)", path, with_handle ? "with" : "without");
	cr_assert_gt(strlen(w), 100);
	cr_assert_str_eq(bi.event_name, li.event_name);
	cr_assert_eq(bi.samples, li.samples);
	cr_assert_eq(bi.other_samples, li.other_samples);
	cr_assert_eq(bi.has_callchains, li.has_callchains);
	errno = 0;
	cr_assert_null(perfev_profile_builder_finish(b, NULL), "finished once");
	cr_assert_eq(errno, EINVAL);
	cr_assert_eq(perfev_profile_builder_add(b, NULL), -EINVAL);
	free(w);
	free(g);
	perfev_profile_builder_free(b);
	perfev_profile_free(want);
	perfev_profile_free(got);
	perfev_perfdata_close(pd);
}

Test(unit_profile_builder, fed_a_file_makes_what_load_makes)
{
	require_corpus();
	same_as_load(CALLGRAPH, true);
	same_as_load(HW_AND_SW, true);
	/* (one with no [vdso] samples: without the handle's build-ids this
	 * machine's vdso would name them) */
	same_as_load(HW_AND_SW, false);
}

Test(unit_profile_builder, every_event_as_load_events)
{
	require_corpus();
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .group = PERFEV_GROUP_COMM, .event = -1};
	size_t nw, ng;
	struct perfev_profile_event *want = perfev_profile_load_events(HW_AND_SW, &lo, NULL, &nw);
	cr_assert(want, "%s", perfev_errmsg());
	cr_assert_gt(nw, 1);
	struct perfev_perfdata *pd = perfev_perfdata_open(HW_AND_SW);
	cr_assert(pd);
	struct perfev_profile_builder_opts bo = {.sz = sizeof(bo), .load = &lo, .all_events = true,
						 .perfdata = pd};
	struct perfev_profile_builder *b = perfev_profile_builder_new(&bo);
	cr_assert(b);
	feed_file(pd, b, false);
	errno = 0;
	cr_assert_null(perfev_profile_builder_finish(b, NULL), "all_events finish with finish_events");
	cr_assert_eq(errno, EINVAL);
	struct perfev_profile_event *got = perfev_profile_builder_finish_events(b, NULL, &ng);
	cr_assert(got, "%s", perfev_errmsg());
	cr_assert_eq(ng, nw);
	for (size_t i = 0; i < nw; i++) {
		char *w = folded(want[i].profile), *g = folded(got[i].profile);
		cr_assert_str_eq(g, w, "event %zu", i);
		cr_assert_str_eq(got[i].name, want[i].name);
		cr_assert_eq(got[i].samples, want[i].samples);
		cr_assert_eq(got[i].leader, want[i].leader);
		free(w);
		free(g);
	}
	perfev_profile_events_free(want, nw);
	perfev_profile_events_free(got, ng);
	perfev_profile_builder_free(b);
	perfev_perfdata_close(pd);
}

Test(unit_profile_builder, refuses_what_it_cannot_do)
{
	struct {
		struct perfev_profile_builder_opts o;
		char newer[8];
	} big = {.o = {.sz = sizeof(big)}, .newer = {1}};
	errno = 0;
	cr_assert_null(perfev_profile_builder_new(&big.o), "unknown non-zero option bytes");
	cr_assert_eq(errno, EINVAL);
	big.newer[0] = 0; /* a newer caller's zero bytes are fine */
	struct perfev_profile_builder *b = perfev_profile_builder_new(&big.o);
	cr_assert(b, "%s", perfev_errmsg());
	/* no event was given nor announced: the first event never came */
	errno = 0;
	cr_assert_null(perfev_profile_builder_finish(b, NULL));
	cr_assert_eq(errno, EINVAL);
	cr_assert(strstr(perfev_errmsg(), "no events"), "%s", perfev_errmsg());
	perfev_profile_builder_free(b);
	perfev_profile_builder_free(NULL);
	require_corpus();
	struct perfev_perfdata *pd = perfev_perfdata_open(CALLGRAPH);
	struct perfev_profile_builder_opts bo = {.sz = sizeof(bo), .perfdata = pd};
	b = perfev_profile_builder_new(&bo);
	cr_assert(b);
	cr_assert_eq(perfev_profile_builder_add_event(b, perfev_perfdata_event_attr(pd, 0), "x"), -EINVAL,
		     "the recording gives the events");
	perfev_profile_builder_free(b);
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .event = 9};
	bo.load = &lo;
	errno = 0;
	cr_assert_null(perfev_profile_builder_new(&bo), "no event 9 in the file");
	cr_assert_eq(errno, EINVAL);
	perfev_perfdata_close(pd);
}
