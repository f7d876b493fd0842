/*
 * live_profile — perfev top in a few lines of the library: sample a command
 * without writing a file, build its profile record by record, and every
 * half second print the hottest entries of the report table as it stands,
 * then age it as perf top does (each entry to 7/8).
 *
 *   usage: live_profile COMMAND [ARGS...]
 */
#include <perfev.h>
#include <stdio.h>

struct live {
	struct perfev_profile_builder *b;
	struct perfev_report_opts ro;
	int refresh;
};

static int on_record(void *ctx, const struct perfev_record *rec)
{
	struct live *l = ctx;
	return perfev_profile_builder_add(l->b, rec);
}

static int on_tick(void *ctx)
{
	struct live *l = ctx;
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	struct perfev_profile *p = perfev_profile_builder_snapshot(l->b, &info);
	struct perfev_report_model *m = p ? perfev_report_model_new_profile(p, &info, &l->ro) : NULL;
	if (!m) {
		perfev_profile_free(p);
		return 0; /* (no sample of the event yet) */
	}
	struct perfev_report_model_info in = {.sz = sizeof(in)};
	perfev_report_model_info(m, &in);
	printf("refresh %d: %s\n", ++l->refresh, in.title);
	for (size_t i = 0; i < in.nr_lines && i < 5; i++) {
		struct perfev_report_line line = {.sz = sizeof(line)};
		if (perfev_report_model_line(m, i, &line) == 0)
			printf("%s\n", line.text);
	}
	fflush(stdout);
	perfev_report_model_free(m);
	perfev_profile_free(p);
	return perfev_profile_builder_decay(l->b, 7, 8, 0);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: live_profile COMMAND [ARGS...]\n");
		return 2;
	}
	struct live l = {.ro = {.sz = sizeof(l.ro), .sort = "dso,sym", .children = -1, .group = -1, .branch = -1}};
	struct perfev_record_opts o = {.sz = sizeof(o), .argv = argv + 1, .no_output = true,
				       .on_record = on_record, .on_record_ctx = &l,
				       .tick_ms = 500, .on_tick = on_tick, .on_tick_ctx = &l};
	/* the builder keeps what the report's keys need (its load options) */
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo)};
	struct perfev_profile_builder_opts bo = {.sz = sizeof(bo), .load = &lo};
	struct perfev_recorder *r = NULL;
	if (perfev_report_load_opts(&l.ro, &lo) == 0) {
		lo.event = 0; /* the first event's profile */
		l.b = perfev_profile_builder_new(&bo);
	}
	if (!l.b || !(r = perfev_recorder_new(&o))) {
		fprintf(stderr, "live_profile: %s\n", perfev_errmsg());
		perfev_profile_builder_free(l.b);
		return 1;
	}
	for (size_t i = 0; i < perfev_recorder_nr_events(r); i++) /* the events, as opened */
		perfev_profile_builder_add_event(l.b, perfev_recorder_event_attr(r, i), perfev_recorder_event_name(r, i));
	int e = perfev_recorder_run(r);
	if (e < 0)
		fprintf(stderr, "live_profile: %s\n", perfev_errmsg());
	perfev_profile_builder_free(l.b);
	perfev_recorder_free(r);
	return e < 0;
}
