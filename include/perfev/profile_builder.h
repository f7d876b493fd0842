/*
 * perfev/profile_builder.h — a profile fed record by record: what
 * perfev_profile_load and perfev_profile_load_events build from a file,
 * built from records handed over one at a time, so a live source (the
 * recorder's rings, see perfev_record_opts.on_record) makes the same
 * profile as a reader of its file would, without reading the file.
 *
 * Every record goes to perfev_profile_builder_add, in the order a reader of
 * the recording delivers them (time order, as perfev_perfdata_process
 * gives them): side-band records (COMM, FORK, EXIT, MMAP, MMAP2, LOST...)
 * update the threads and maps, samples of the chosen event (or of every
 * event) become stacks. The events' attrs come from the recording
 * (opts.perfdata), or from perfev_profile_builder_add_event, or from the
 * HEADER_ATTR records of a pipe-mode stream.
 */
#ifndef PERFEV_PROFILE_BUILDER_H
#define PERFEV_PROFILE_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include "perfev/abi.h"
#include "perfev/profile.h"
#include "perfev/record.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_perfdata;
struct perfev_profile_builder;

struct perfev_profile_builder_opts {
	size_t sz; /* sizeof(struct perfev_profile_builder_opts) */
	/* What to build, as perfev_profile_load reads it (copied); NULL: its
	 * defaults (the first event, grouped by thread). */
	const struct perfev_profile_load_opts *load;
	/* One profile per event (perfev_profile_builder_finish_events, as
	 * perfev_profile_load_events), else load->event's alone (finish). */
	bool all_events;
	/* The recording the records come from (borrowed; it must outlive the
	 * builder): its events, build-ids, kernel and CPU topology, as
	 * perfev_profile_load uses them. NULL: records of this machine, now
	 * (a live recording), with events given by add_event or HEADER_ATTR
	 * records; the objects' order of first appearance is then that of
	 * the MMAP records (a file's BUILD_ID table comes first in perf's). */
	struct perfev_perfdata *perfdata;
};
#define perfev_profile_builder_opts__last_field perfdata

/*
 * A new builder. With opts.perfdata, checks what perfev_profile_load checks
 * before reading (the event exists, -C's CPUs, --time's ranges). Returns
 * NULL with errno set and perfev_errmsg() saying why (EINVAL: bad options;
 * ENOMEM). Free with perfev_profile_builder_free.
 */
PERFEV_API struct perfev_profile_builder *
perfev_profile_builder_new(const struct perfev_profile_builder_opts *opts);
/*
 * Without opts.perfdata: the next event of the records (its attr_idx is
 * the number returned; the first is 0). attr is copied (an older, shorter
 * one too); name NULL: perf's name of the attr. Returns the index or -errno
 * (EINVAL: a builder with a recording, or one finished; ENOMEM).
 */
PERFEV_API int perfev_profile_builder_add_event(struct perfev_profile_builder *b, const struct perfev_attr *attr,
						const char *name);
/*
 * One decoded record (perfev_decoder_decode, or perfev_perfdata_process's
 * callback); the builder keeps nothing of it past the call. Returns 0, or
 * -errno (ENOMEM; EINVAL: NULL or a finished builder). A failed record
 * leaves the builder usable: what it held so far stays.
 */
PERFEV_API int perfev_profile_builder_add(struct perfev_profile_builder *b, const struct perfev_record *rec);
/*
 * The profile of the records added (the caller owns it: perfev_profile_free),
 * and what was read into info (optional, as perfev_profile_load's). After
 * it the builder can only be freed. NULL with errno and perfev_errmsg() on
 * failure (EINVAL: the event never came, the builder was made with
 * all_events or is finished; ENOMEM).
 */
PERFEV_API struct perfev_profile *perfev_profile_builder_finish(struct perfev_profile_builder *b,
								struct perfev_profile_load_info *info);
/* The same for a builder made with all_events: every event's profile, as
 * perfev_profile_load_events gives them (free with perfev_profile_events_free);
 * *nr their number. */
PERFEV_API struct perfev_profile_event *
perfev_profile_builder_finish_events(struct perfev_profile_builder *b, struct perfev_profile_load_info *info,
				     size_t *nr);
/*
 * A copy of the profile of the records added so far, as finish would give it
 * now (the threads' names as they are now), while the builder goes on
 * taking records: a live view's refresh. The caller owns the copy
 * (perfev_profile_free); info (optional) as finish's. NULL with errno and
 * perfev_errmsg() on failure (EINVAL: the event has not come yet, a
 * finished builder, or one made with all_events; ENOMEM).
 */
PERFEV_API struct perfev_profile *perfev_profile_builder_snapshot(struct perfev_profile_builder *b,
								  struct perfev_profile_load_info *info);
/*
 * perfev_profile_decay (perfev/profile.h) on every profile the builder
 * holds: perf top's aging between refreshes (num/den 7/8), its -z (0/1),
 * -K and -U (flags). The records added after it add to what is left.
 * 0 or -EINVAL (a finished builder, a bad factor or flags).
 */
PERFEV_API int perfev_profile_builder_decay(struct perfev_profile_builder *b, uint64_t num, uint64_t den,
					    unsigned flags);
/* Frees the builder and whatever it still holds; NULL is fine. */
PERFEV_API void perfev_profile_builder_free(struct perfev_profile_builder *b);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_PROFILE_BUILDER_H */
