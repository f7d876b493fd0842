/*
 * metric_expr.c — metric formulas: a recursive-descent parser into a small
 * tree, and its evaluation over the counts of the events it names.
 *
 *   expr   := term (('+' | '-') term)*
 *   term   := unary (('*' | '/') unary)*
 *   unary  := '-' unary | primary
 *   primary:= NUMBER | NAME | FUNC '(' expr ',' expr ')' | '(' expr ')'
 *
 * NAME is an event string's word (letters, digits, _ . : = @ -> '/', and '-'
 * between letters: branch-misses).
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/metric.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum op { N_NUM, N_VAR, N_ADD, N_SUB, N_MUL, N_DIV, N_NEG, N_MIN, N_MAX };

struct node {
	enum op op;
	double num;
	size_t var;
	struct node *l, *r;
};

struct perfev_metric_expr {
	struct node *root;
	char **vars;
	size_t nvars, cap;
};

struct p {
	const char *s, *at;
	struct perfev_metric_expr *e;
	int err;
	int depth;
};

static void node_free(struct node *n)
{
	if (!n)
		return;
	node_free(n->l);
	node_free(n->r);
	free(n);
}

static struct node *fail(struct p *p, const char *what)
{
	if (!p->err)
		p->err = pv_error(EINVAL, "metric formula '%s': %s at byte %zu", p->s, what,
				  (size_t)(p->at - p->s));
	return NULL;
}

static struct node *mk(struct p *p, enum op op, struct node *l, struct node *r)
{
	struct node *n = calloc(1, sizeof(*n));
	if (!n) {
		node_free(l);
		node_free(r);
		if (!p->err)
			p->err = pv_error(ENOMEM, "out of memory");
		return NULL;
	}
	n->op = op;
	n->l = l;
	n->r = r;
	return n;
}

static void skip(struct p *p)
{
	while (isspace((unsigned char)*p->at))
		p->at++;
}

static bool name_char(char c)
{
	return c && (isalnum((unsigned char)c) || strchr("_.:=@", c));
}

static struct node *expr(struct p *p);

static size_t var_index(struct p *p, const char *w, size_t n)
{
	for (size_t i = 0; i < p->e->nvars; i++)
		if (strlen(p->e->vars[i]) == n && !memcmp(p->e->vars[i], w, n))
			return i;
	if (pv_grow(&p->e->vars, &p->e->cap, p->e->nvars + 1, sizeof(char *)) < 0)
		return (size_t)-1;
	char *v = strndup(w, n);
	if (!v)
		return (size_t)-1;
	for (char *c = v; *c; c++)
		if (*c == '@')
			*c = '/'; /* perf's escape of a PMU's slashes: uncore_imc@cas_count_read@ */
	p->e->vars[p->e->nvars] = v;
	return p->e->nvars++;
}

static struct node *primary(struct p *p)
{
	skip(p);
	if (++p->depth > 200)
		return fail(p, "nested too deep");
	const char *s = p->at;
	if (*s == '(') {
		p->at++;
		struct node *n = expr(p);
		skip(p);
		if (n && *p->at != ')') {
			node_free(n);
			return fail(p, "expected ')'");
		}
		p->at++;
		p->depth--;
		return n;
	}
	if (isdigit((unsigned char)*s) || (*s == '.' && isdigit((unsigned char)s[1]))) {
		char *end;
		double v = strtod(s, &end);
		if (end == s)
			return fail(p, "bad number");
		p->at = end;
		struct node *n = mk(p, N_NUM, NULL, NULL);
		if (n)
			n->num = v;
		p->depth--;
		return n;
	}
	size_t len = 0;
	/* a '-' between a name's letters is part of it (branch-misses, L1-dcache-loads):
	 * subtraction is written with spaces */
	while (name_char(s[len]) || (len && s[len] == '-' && isalpha((unsigned char)s[len + 1])))
		len++;
	if (!len)
		return fail(p, *s ? "expected a number, a name or '('" : "the formula ends too soon");
	p->at = s + len;
	skip(p);
	if (*p->at == '(' && ((len == 3 && !strncmp(s, "min", 3)) || (len == 3 && !strncmp(s, "max", 3)))) {
		p->at++;
		struct node *a = expr(p);
		skip(p);
		if (!a)
			return NULL;
		if (*p->at != ',') {
			node_free(a);
			return fail(p, "expected ',' between min/max's two values");
		}
		p->at++;
		struct node *b = expr(p);
		skip(p);
		if (!b) {
			node_free(a);
			return NULL;
		}
		if (*p->at != ')') {
			node_free(a);
			node_free(b);
			return fail(p, "expected ')'");
		}
		p->at++;
		p->depth--;
		return mk(p, s[1] == 'i' ? N_MIN : N_MAX, a, b);
	}
	size_t v = var_index(p, s, len);
	if (v == (size_t)-1) {
		if (!p->err)
			p->err = pv_error(ENOMEM, "out of memory");
		return NULL;
	}
	struct node *n = mk(p, N_VAR, NULL, NULL);
	if (n)
		n->var = v;
	p->depth--;
	return n;
}

static struct node *unary(struct p *p)
{
	skip(p);
	if (*p->at == '-') {
		p->at++;
		struct node *n = unary(p);
		return n ? mk(p, N_NEG, n, NULL) : NULL;
	}
	return primary(p);
}

/* The left-associative binary levels: 0 is term (* /), 1 is expr (+ -). */
static struct node *binary(struct p *p, int level)
{
	static const char ops[2][2] = {{'*', '/'}, {'+', '-'}};
	static const enum op kinds[2][2] = {{N_MUL, N_DIV}, {N_ADD, N_SUB}};
	struct node *l = level ? binary(p, level - 1) : unary(p);
	for (;;) {
		skip(p);
		char c = *p->at;
		int k = c && c == ops[level][0] ? 0 : c && c == ops[level][1] ? 1 : -1;
		if (!l || k < 0)
			return l;
		p->at++;
		struct node *r = level ? binary(p, level - 1) : unary(p);
		if (!r) {
			node_free(l);
			return NULL;
		}
		l = mk(p, kinds[level][k], l, r);
	}
}

static struct node *expr(struct p *p)
{
	return binary(p, 1);
}

PERFEV_API struct perfev_metric_expr *perfev_metric_expr_parse(const char *text)
{
	if (!text)
		return pv_error_null(EINVAL, "no metric formula");
	struct perfev_metric_expr *e = calloc(1, sizeof(*e));
	if (!e)
		return pv_error_null(ENOMEM, "out of memory");
	struct p p = {.s = text, .at = text, .e = e};
	e->root = expr(&p);
	skip(&p);
	if (e->root && *p.at)
		fail(&p, "unexpected character");
	if (p.err || !e->root) {
		int err = p.err ? -p.err : EINVAL;
		perfev_metric_expr_free(e);
		errno = err;
		return NULL;
	}
	return e;
}

PERFEV_API void perfev_metric_expr_free(struct perfev_metric_expr *e)
{
	if (!e)
		return;
	node_free(e->root);
	for (size_t i = 0; i < e->nvars; i++)
		free(e->vars[i]);
	free(e->vars);
	free(e);
}

PERFEV_API size_t perfev_metric_expr_nr_vars(const struct perfev_metric_expr *e)
{
	return e ? e->nvars : 0;
}

PERFEV_API const char *perfev_metric_expr_var(const struct perfev_metric_expr *e, size_t idx)
{
	return e && idx < e->nvars ? e->vars[idx] : NULL;
}

static double eval(const struct node *n, const double *v)
{
	switch (n->op) {
	case N_NUM: return n->num;
	case N_VAR: return v[n->var];
	case N_ADD: return eval(n->l, v) + eval(n->r, v);
	case N_SUB: return eval(n->l, v) - eval(n->r, v);
	case N_MUL: return eval(n->l, v) * eval(n->r, v);
	case N_DIV: {
		double d = eval(n->r, v);
		return d == 0 ? NAN : eval(n->l, v) / d;
	}
	case N_NEG: return -eval(n->l, v);
	case N_MIN: return fmin(eval(n->l, v), eval(n->r, v));
	case N_MAX: return fmax(eval(n->l, v), eval(n->r, v));
	}
	return NAN;
}

PERFEV_API double perfev_metric_expr_eval(const struct perfev_metric_expr *e, const double *vals)
{
	return e && e->root ? eval(e->root, vals) : NAN;
}
