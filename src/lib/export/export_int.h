/* export_int.h — what the exporters share: options with defaults applied,
 * the caller-rooted view of a profile, frame labels, writing a pv_buf. */
#ifndef PERFEV_EXPORT_INT_H
#define PERFEV_EXPORT_INT_H

#include "profile/profile_int.h"
#include "perfev/export.h"

/* Copies o (any size) over the defaults. */
/* The caller's options (NULL: defaults) with the defaults filled in; -EINVAL
 * when a newer caller set fields this library does not know. */
int pv_export_options(const struct perfev_export_options *o, struct perfev_export_options *out);

/*
 * The profile as a caller-rooted tree grouped as `group` (or as it is when
 * group < 0): p itself when it already is, else a derived profile stored in
 * *owned (free it with perfev_profile_free). NULL on ENOMEM.
 */
const struct perfev_profile *pv_export_view(const struct perfev_profile *p, int group,
					    struct perfev_profile **owned);

/* Writes the buffer to out; 0, or -EIO/-ENOMEM with the message set. */
int pv_export_write(struct pv_buf *b, FILE *out, const char *what);

/* A u64 -> u32 hash map (values nonzero), for the exporters' dedup tables. */
struct pv_keymap {
	uint64_t *keys;
	uint32_t *vals;
	size_t nr, cap;
};
uint32_t pv_keymap_get(const struct pv_keymap *m, uint64_t key); /* 0: absent */
int pv_keymap_put(struct pv_keymap *m, uint64_t key, uint32_t val);
void pv_keymap_free(struct pv_keymap *m);

/* Node id's stack as folded lines name it ("comm;outer;...;leaf"; the
 * annotations _[k]/_[i] with annotate), appended to b (b->oom on failure);
 * path/cap: the caller's scratch array. */
void pv_export_folded_stack(const struct perfev_profile *p, uint32_t id, bool annotate, struct pv_buf *b,
			    uint32_t **path, size_t *cap);

/* A flame graph's frames coloured and described by the caller (the
 * differential flame graph): fill gets node id's colour ("rgb(r,g,b)"),
 * title what its tooltip adds after the frame's name. */
struct pv_flame_hook {
	void (*frame)(void *ctx, const struct perfev_profile *p, uint32_t id, char *fill, size_t len,
		      struct pv_buf *title);
	void *ctx;
	/* called once with the profile drawn (the caller-rooted view), before any frame */
	int (*begin)(void *ctx, const struct perfev_profile *p);
};
/* perfev_export_flame with hook (NULL: its own colours and tooltips). */
int pv_export_flame_hooked(const struct perfev_profile *p, const struct perfev_export_options *o,
			   const struct pv_flame_hook *hook, FILE *out);

#endif
