/* report_rbtree.c — perf report's output order where its comparator is not a
 * total order: perf inserts its entries one by one into a red-black tree
 * (hists__output_resort: left when the new entry sorts first, else right) and
 * prints the tree's in-order walk. With --children its comparator puts a
 * caller above its callee within one thread only, so that walk is not a sort
 * and depends on the insertion order and the tree's shape: replayed here with
 * the same tree (lib/rbtree.c's insertion, the textbook one). */
#include "report.h"
#include "internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct rbt {
	int32_t *l, *r, *p;
	uint8_t *red;
	int32_t root;
};

static void set_child(struct rbt *t, int32_t parent, int32_t old, int32_t now)
{
	if (parent < 0)
		t->root = now;
	else if (t->l[parent] == old)
		t->l[parent] = now;
	else
		t->r[parent] = now;
}

static void rotate_left(struct rbt *t, int32_t x)
{
	int32_t y = t->r[x];
	t->r[x] = t->l[y];
	if (t->l[y] >= 0)
		t->p[t->l[y]] = x;
	t->p[y] = t->p[x];
	set_child(t, t->p[x], x, y);
	t->l[y] = x;
	t->p[x] = y;
}

static void rotate_right(struct rbt *t, int32_t x)
{
	int32_t y = t->l[x];
	t->l[x] = t->r[y];
	if (t->r[y] >= 0)
		t->p[t->r[y]] = x;
	t->p[y] = t->p[x];
	set_child(t, t->p[x], x, y);
	t->r[y] = x;
	t->p[x] = y;
}

/* lib/rbtree.c __rb_insert: recolour while the uncle is red, else one or two
 * rotations */
static void fixup(struct rbt *t, int32_t z)
{
	while (t->p[z] >= 0 && t->red[t->p[z]]) {
		int32_t p = t->p[z], g = t->p[p];
		if (p == t->l[g]) {
			int32_t u = t->r[g];
			if (u >= 0 && t->red[u]) {
				t->red[p] = t->red[u] = 0;
				t->red[g] = 1;
				z = g;
				continue;
			}
			if (z == t->r[p]) {
				rotate_left(t, p);
				z = p;
				p = t->p[z];
			}
			t->red[p] = 0;
			t->red[g] = 1;
			rotate_right(t, g);
		} else {
			int32_t u = t->l[g];
			if (u >= 0 && t->red[u]) {
				t->red[p] = t->red[u] = 0;
				t->red[g] = 1;
				z = g;
				continue;
			}
			if (z == t->l[p]) {
				rotate_right(t, p);
				z = p;
				p = t->p[z];
			}
			t->red[p] = 0;
			t->red[g] = 1;
			rotate_left(t, g);
		}
	}
	t->red[t->root] = 0;
}

int report_rbtree_order(void *base, size_t nr, size_t size, int (*cmp)(const void *, const void *, void *),
			void *arg)
{
	if (nr < 2)
		return 0;
	if (nr > INT32_MAX)
		return -ENOMEM;
	struct rbt t = {malloc(nr * sizeof(int32_t)), malloc(nr * sizeof(int32_t)), malloc(nr * sizeof(int32_t)),
			malloc(nr), 0};
	char *out = malloc(nr * size);
	int ret = -ENOMEM;
	if (!t.l || !t.r || !t.p || !t.red || !out)
		goto done;
	const char *b = base;
	for (int32_t i = 0; i < (int32_t)nr; i++) {
		t.l[i] = t.r[i] = t.p[i] = -1;
		t.red[i] = 1;
		if (i == 0) {
			t.red[0] = 0;
			continue;
		}
		int32_t at = t.root, parent = -1;
		bool left = false;
		while (at >= 0) {
			parent = at;
			left = cmp(b + (size_t)i * size, b + (size_t)at * size, arg) < 0;
			at = left ? t.l[at] : t.r[at];
		}
		t.p[i] = parent;
		if (left)
			t.l[parent] = i;
		else
			t.r[parent] = i;
		fixup(&t, i);
	}
	/* the in-order walk (the parents' array, no longer needed, as its stack) */
	size_t k = 0, sp = 0;
	int32_t *stack = t.p;
	for (int32_t at = t.root; at >= 0 || sp;) {
		for (; at >= 0; at = t.l[at])
			stack[sp++] = at;
		at = stack[--sp];
		memcpy(out + k++ * size, b + (size_t)at * size, size);
		at = t.r[at];
	}
	memcpy(base, out, nr * size);
	ret = 0;
done:
	free(t.l);
	free(t.r);
	free(t.p);
	free(t.red);
	free(out);
	return ret;
}
