/* report_rbtree.c — perf report's output order where its comparator is not a
 * total order: perf inserts its entries one by one into a red-black tree
 * (hists__output_resort: left when the new entry sorts first, else right) and
 * prints the tree's in-order walk. With --children its comparator puts a
 * caller above its callee within one thread only, so that walk is not a sort
 * and depends on the insertion order and the tree's shape: replayed here with
 * the same tree (lib/rbtree.c's insertion, the textbook one). */
#include "view/report_int.h"
#include "core/internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct rbt {
	int32_t *c[2]; /* children: c[0] left, c[1] right (-1: none) */
	int32_t *p;
	uint8_t *red;
	int32_t root;
};

/* Rotates x down to side d (d = 0: left rotation), its child on the other
 * side up in its place. */
static void rotate(struct rbt *t, int32_t x, int d)
{
	int32_t y = t->c[!d][x], parent = t->p[x];
	t->c[!d][x] = t->c[d][y];
	if (t->c[d][y] >= 0)
		t->p[t->c[d][y]] = x;
	t->p[y] = parent;
	if (parent < 0)
		t->root = y;
	else
		t->c[t->c[1][parent] == x][parent] = y;
	t->c[d][y] = x;
	t->p[x] = y;
}

/* lib/rbtree.c __rb_insert: recolour while the uncle is red, else one or two
 * rotations (s: the side of the parent under the grandparent) */
static void fixup(struct rbt *t, int32_t z)
{
	while (t->p[z] >= 0 && t->red[t->p[z]]) {
		int32_t p = t->p[z], g = t->p[p];
		int s = p == t->c[1][g];
		int32_t u = t->c[!s][g];
		if (u >= 0 && t->red[u]) {
			t->red[p] = t->red[u] = 0;
			t->red[g] = 1;
			z = g;
			continue;
		}
		if (z == t->c[!s][p]) { /* the inner grandchild: rotate it up first */
			rotate(t, p, s);
			z = p;
			p = t->p[z];
		}
		t->red[p] = 0;
		t->red[g] = 1;
		rotate(t, g, !s);
	}
	t->red[t->root] = 0;
}

int pv_report_rbtree_order(void *base, size_t nr, size_t size, int (*cmp)(const void *, const void *, void *),
			void *arg)
{
	if (nr < 2)
		return 0;
	if (nr > INT32_MAX)
		return -ENOMEM;
	struct rbt t = {{malloc(nr * sizeof(int32_t)), malloc(nr * sizeof(int32_t))}, malloc(nr * sizeof(int32_t)),
			malloc(nr), 0};
	char *out = malloc(nr * size);
	int ret = -ENOMEM;
	if (!t.c[0] || !t.c[1] || !t.p || !t.red || !out)
		goto done;
	const char *b = base;
	for (int32_t i = 0; i < (int32_t)nr; i++) {
		t.c[0][i] = t.c[1][i] = t.p[i] = -1;
		t.red[i] = 1;
		if (i == 0) {
			t.red[0] = 0;
			continue;
		}
		int32_t at = t.root, parent = -1;
		int side = 0;
		while (at >= 0) {
			parent = at;
			side = cmp(b + (size_t)i * size, b + (size_t)at * size, arg) >= 0;
			at = t.c[side][at];
		}
		t.p[i] = parent;
		t.c[side][parent] = i;
		fixup(&t, i);
	}
	/* the in-order walk (the parents' array, no longer needed, as its stack) */
	size_t k = 0, sp = 0;
	int32_t *stack = t.p;
	for (int32_t at = t.root; at >= 0 || sp;) {
		for (; at >= 0; at = t.c[0][at])
			stack[sp++] = at;
		at = stack[--sp];
		memcpy(out + k++ * size, b + (size_t)at * size, size);
		at = t.c[1][at];
	}
	memcpy(base, out, nr * size);
	ret = 0;
done:
	free(t.c[0]);
	free(t.c[1]);
	free(t.p);
	free(t.red);
	free(out);
	return ret;
}
