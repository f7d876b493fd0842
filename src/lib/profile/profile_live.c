/* profile_live.c — what a live view (perfev top) does to a profile between
 * refreshes: copy it whole (the builder keeps filling the original) and
 * age it, perf top's decay of every entry, or drop kernel or user samples,
 * pruning what reached nothing. */
#define _GNU_SOURCE
#include "profile/profile_int.h"

#include <stdlib.h>
#include <string.h>

/* *dst = a malloc'ed copy of n elements of src (NULL for none). */
static int dup_array(void *dst, const void *src, size_t n, size_t elsize)
{
	void **d = dst;
	*d = NULL;
	if (!n || !src)
		return 0;
	if (!(*d = malloc(n * elsize)))
		return -ENOMEM;
	memcpy(*d, src, n * elsize);
	return 0;
}

static int strtab_copy(struct pv_strtab *dst, const struct pv_strtab *src)
{
	memset(dst, 0, sizeof(*dst));
	if (!src->nr)
		return 0;
	if (!(dst->strs = calloc(src->nr, sizeof(*dst->strs))))
		return -ENOMEM;
	dst->cap = src->nr;
	for (size_t i = 1; i < src->nr; i++, dst->nr = i)
		if (!(dst->strs[i] = strdup(src->strs[i])))
			return -ENOMEM;
	dst->nr = src->nr;
	dst->hcap = src->hcap;
	return dup_array(&dst->hash, src->hash, src->hcap, sizeof(*src->hash));
}

struct perfev_profile *pv_profile_clone(const struct perfev_profile *p)
{
	struct perfev_profile *c = calloc(1, sizeof(*c));
	if (!c)
		return pv_error_null(ENOMEM, "profile: out of memory");
	*c = *p;
	/* nothing of p's is shared: every pointer is replaced before a failure can free c */
	c->strs = c->objs = (struct pv_strtab){0};
	c->frames = NULL, c->frame_hash = NULL, c->groups = NULL, c->group_hash = NULL;
	c->maps = NULL, c->nodes = NULL, c->child_hash = NULL, c->log = NULL;
	c->path = NULL, c->ids = NULL, c->sockets = NULL;
	c->cap_path = c->cap_ids = c->last_depth = 0;
	memset(&c->filter, 0, sizeof(c->filter));
	c->has_filter = false;
	bool ok = strtab_copy(&c->strs, &p->strs) == 0 && strtab_copy(&c->objs, &p->objs) == 0 &&
		  dup_array(&c->frames, p->frames, p->nr_frames, sizeof(*p->frames)) == 0 &&
		  dup_array(&c->frame_hash, p->frame_hash, p->frame_hcap, sizeof(*p->frame_hash)) == 0 &&
		  dup_array(&c->groups, p->groups, p->nr_groups, sizeof(*p->groups)) == 0 &&
		  dup_array(&c->group_hash, p->group_hash, p->group_hcap, sizeof(*p->group_hash)) == 0 &&
		  dup_array(&c->maps, p->maps, p->nr_maps, sizeof(*p->maps)) == 0 &&
		  dup_array(&c->nodes, p->nodes, p->nr_nodes, sizeof(*p->nodes)) == 0 &&
		  dup_array(&c->child_hash, p->child_hash, p->child_hcap, sizeof(*p->child_hash)) == 0 &&
		  dup_array(&c->log, p->log, p->nr_log, sizeof(*p->log)) == 0 &&
		  dup_array(&c->sockets, p->sockets, p->nr_sockets, sizeof(*p->sockets)) == 0;
	c->cap_frames = c->frames ? p->nr_frames : 0;
	c->cap_groups = c->groups ? p->nr_groups : 0;
	c->cap_maps = c->maps ? p->nr_maps : 0;
	c->cap_nodes = c->nodes ? p->nr_nodes : 0;
	c->cap_log = c->log ? p->nr_log : 0;
	if (ok && p->has_filter && perfev_profile_set_filter(c, &p->filter) < 0)
		ok = false;
	if (!ok) {
		perfev_profile_free(c);
		return pv_error_null(ENOMEM, "profile: out of memory");
	}
	return c;
}

/* floor(v * num / den) without overflow (num <= den). */
static uint64_t scale(uint64_t v, uint64_t num, uint64_t den)
{
	return v / den * num + v % den * num / den;
}

/* The frame of the sample whose values sit on node id: the node's own in a
 * caller-rooted tree, the one below its group in a callee-rooted one. */
static const struct pv_frame *sample_leaf(const struct perfev_profile *p, uint32_t id)
{
	if (p->flags & PERFEV_PROFILE_CALLEE)
		while (p->nodes[id].parent && !pv_node_is_group(&p->nodes[p->nodes[id].parent]))
			id = p->nodes[id].parent;
	return &p->frames[p->nodes[id].what];
}

/* Drops the nodes whose totals all reached 0 (their subtrees with them),
 * as perf top deletes its emptied entries: the tree stays as large as what
 * it still shows. The others keep their order (a node after its parent,
 * siblings by age); ids change. Without memory for the map it stays whole. */
static void prune(struct perfev_profile *p)
{
	uint32_t *map = malloc(p->nr_nodes * sizeof(*map));
	if (!map)
		return; /* (empty nodes are harmless: they show nothing) */
	size_t n = 0;
	for (size_t id = 0; id < p->nr_nodes; id++) {
		const uint64_t *t = p->nodes[id].total;
		map[id] = id == 0 || (t[0] | t[1] | t[2]) ? (uint32_t)n++ : UINT32_MAX;
	}
	if (n == p->nr_nodes) {
		free(map);
		return;
	}
	for (size_t id = 0; id < p->nr_nodes; id++) {
		if (map[id] == UINT32_MAX)
			continue;
		struct pv_node nd = p->nodes[id];
		nd.parent = id ? map[nd.parent] : 0;
		nd.first_child = nd.last_child = nd.next_sibling = 0;
		uint32_t at = map[id];
		p->nodes[at] = nd;
		if (!at)
			continue;
		struct pv_node *par = &p->nodes[nd.parent]; /* (placed already: parents come first) */
		if (par->last_child)
			p->nodes[par->last_child].next_sibling = at;
		else
			par->first_child = at;
		par->last_child = at;
	}
	p->nr_nodes = n;
	free(p->child_hash); /* rebuilt from the nodes when the next sample comes */
	p->child_hash = NULL;
	p->child_hcap = 0;
	p->last_depth = 0;   /* the previous sample's path is gone */
	free(map);
}

PERFEV_API int perfev_profile_decay(struct perfev_profile *p, uint64_t num, uint64_t den, unsigned flags)
{
	if (!p || !den || num > den)
		return pv_error(EINVAL, "profile_decay: %s", !p ? "NULL profile" :
				"the factor num/den must be at most 1 with den > 0 (perf top's is 7/8, 0/1 zeroes)");
	if (flags & ~(PERFEV_DECAY_HIDE_KERNEL | PERFEV_DECAY_HIDE_USER))
		return pv_error(EINVAL, "profile_decay: unknown flags 0x%x", flags);
	/* A node's parent has a lower id than the node: one backward pass adds
	 * every node's total into its parent's after the node is complete. */
	for (size_t id = 0; id < p->nr_nodes; id++)
		memset(p->nodes[id].total, 0, sizeof(p->nodes[id].total));
	for (size_t id = p->nr_nodes; id-- > 0;) {
		struct pv_node *n = &p->nodes[id];
		bool hide = false;
		if (id && !pv_node_is_group(n) && (n->self[0] | n->self[1] | n->self[2]) && flags) {
			bool kernel = sample_leaf(p, (uint32_t)id)->kernel;
			hide = kernel ? (flags & PERFEV_DECAY_HIDE_KERNEL) : (flags & PERFEV_DECAY_HIDE_USER);
		}
		for (int v = 0; v < PERFEV_VALUE_NR; v++) {
			n->self[v] = hide ? 0 : scale(n->self[v], num, den);
			n->total[v] += n->self[v];
			if (id)
				p->nodes[n->parent].total[v] += n->total[v];
		}
	}
	for (int v = 0; v < PERFEV_VALUE_NR; v++)
		p->hidden[v] = scale(p->hidden[v], num, den);
	p->filtered = scale(p->filtered, num, den);
	/* logged samples cannot be aged one by one: a log would no longer add
	 * up to the tree, so it restarts */
	if (num != den || flags) {
		p->nr_log = 0;
		prune(p);
	}
	return 0;
}
