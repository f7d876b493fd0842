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

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_EXPORT_H */
