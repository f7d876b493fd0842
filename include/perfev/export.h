/*
 * perfev/export.h — writing a profile (perfev/profile.h) in the formats
 * other tools read: folded stacks (flamegraph.pl, speedscope, inferno), a
 * self-contained interactive SVG flame graph, pprof's gzipped profile.proto
 * (go tool pprof, pprof web UIs) and the Firefox Profiler's processed JSON.
 *
 * Every exporter takes the profile in any grouping and orientation and
 * derives what its format needs (folded stacks and flame graphs merge
 * threads by command; all formats write caller-rooted stacks). Each returns
 * 0 or -errno (ENOMEM, EIO when writing fails) with perfev_errmsg() set.
 */
#ifndef PERFEV_EXPORT_H
#define PERFEV_EXPORT_H

#include <stdint.h>
#include <stdio.h>
#include "perfev/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Options shared by the exporters; NULL or zero fields take the defaults. */
struct perfev_export_options {
	size_t sz;                       /* sizeof(struct perfev_export_options) */
	enum perfev_profile_value value; /* what widths/counts measure (default: samples) */
	const char *title;               /* flame graph title (default "Flame Graph") */
	const char *subtitle;            /* e.g. the event and the command; optional */
	unsigned width;                  /* flame graph width in pixels (default 1200) */
	double min_width;                /* flame graph: omit frames narrower (px, default 0.1) */
	bool annotate_kernel;            /* folded: append _[k] to kernel frames, _[i] to inlined */
	int64_t period;                  /* pprof Profile.period: event period (default: total
					  * period / samples) */
	const char *period_type;         /* pprof: period type and second sample type (default "cpu") */
	const char *period_unit;         /* ... and its unit (default "nanoseconds") */
	int64_t time_nanos;              /* pprof/Firefox: wall-clock start of the profile, ns since the epoch */
	int64_t duration_nanos;          /* pprof: duration */
	double interval_ms;              /* Firefox: sampling interval (default 1) */
	const char *product;             /* Firefox: meta.product (default "perfev") */
};
#define perfev_export_options__last_field product

/* Folded stacks: "comm;outer;...;leaf COUNT\n" per distinct stack. */
PERFEV_API int perfev_export_folded(const struct perfev_profile *p,
				    const struct perfev_export_options *o, FILE *out);

/* An interactive SVG flame graph: click to zoom, Ctrl-F/"Search" to highlight
 * matching frames with their share, tooltips. No external references. */
PERFEV_API int perfev_export_flame(const struct perfev_profile *p,
				   const struct perfev_export_options *o, FILE *out);

/* pprof: gzipped perftools.profiles.Profile. Sample types are
 * [samples/count, PERIOD_TYPE/PERIOD_UNIT] (values: samples, period), with
 * pid/tid/comm labels when the profile groups by thread; locations carry
 * their inlined frames as several Lines; mappings carry build-ids. */
PERFEV_API int perfev_export_pprof(const struct perfev_profile *p,
				   const struct perfev_export_options *o, FILE *out);

/* Firefox Profiler processed-profile JSON ("presymbolicated"): one thread
 * per group of the profile (per thread when grouped by thread). With
 * PERFEV_PROFILE_KEEP_SAMPLES the samples keep their times; otherwise each
 * distinct stack is one weighted sample. */
PERFEV_API int perfev_export_firefox(const struct perfev_profile *p,
				     const struct perfev_export_options *o, FILE *out);

/* ---- differential views of two profiles (perfev diff, perfev/diff.h) ---------
 * old and new are profiles of the same program, say before and after a
 * change (perfev_report_load of two recordings). Stacks are matched by
 * their names as folded stacks name them (the command, each frame's
 * symbol, or its address when unknown), so a binary rebuilt between the
 * runs, its addresses moved, matches. Both stay the caller's. Each returns
 * 0 or -errno (EINVAL for a NULL profile, ENOMEM, EIO) with perfev_errmsg(). */

/* Brendan Gregg's difffolded format: "comm;outer;...;leaf OLD NEW\n" per
 * stack of either profile (NEW's stacks first, then those only OLD has),
 * OLD and NEW its self values (o->value) in each; difffolded.pl's output,
 * what flamegraph.pl draws as a differential flame graph. */
PERFEV_API int perfev_export_folded_diff(const struct perfev_profile *old, const struct perfev_profile *new_,
					 const struct perfev_export_options *o, FILE *out);

/* A differential SVG flame graph: NEW's stacks laid out as
 * perfev_export_flame lays them, each frame coloured by how its share of
 * the whole (o->value) changed from OLD to NEW: red when it grew, blue when
 * it shrank, the deeper the larger the change against the largest one,
 * grey when unchanged; its tooltip states the old share, the new share and
 * the change in points. Self-contained, no external references; the title
 * defaults to "Differential Flame Graph". */
PERFEV_API int perfev_export_flame_diff(const struct perfev_profile *old, const struct perfev_profile *new_,
					const struct perfev_export_options *o, FILE *out);

/* pprof: NEW's samples and OLD's with their values negated and labelled
 * pprof::base=true, in one profile: what `pprof -diff_base OLD NEW` reads
 * (and what its -proto writes), so `go tool pprof -top FILE` shows the
 * change per function. OLD's mappings follow NEW's. */
PERFEV_API int perfev_export_pprof_diff(const struct perfev_profile *old, const struct perfev_profile *new_,
					const struct perfev_export_options *o, FILE *out);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_EXPORT_H */
