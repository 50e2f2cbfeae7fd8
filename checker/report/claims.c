/* claims.c - the claims language (docs/claims.md): a parser with line:column errors and
 * an evaluator over several seeds. A claim names the runs it reads, derives values from
 * their fields (`let`), and labels itself by the first rule whose condition holds. Every
 * comparison is decided on the per-seed values' 95% confidence interval: true or false
 * only when the interval clears the threshold, else "within noise".
 * Invariant: a parsed claim is well typed (a `let` is a number, a `when` a condition), names
 * only its own runs, lets and known fields, and ends with a rule without `when`. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lex/lex.h"
#include "report.h"

const char *const CLAIM_FIELDS[] = {"cycles",
                                    "events",
                                    "messages_total",
                                    "traffic_bytes_total",
                                    "invalidations",
                                    "flushes",
                                    "evictions",
                                    "stall_cycles",
                                    "stall_msg_cycles",
                                    "loads",
                                    "l1_hits",
                                    "l1_hit_rate",
                                    "store_count",
                                    "store_latency_mean",
                                    "load_latency_mean",
                                    "prediction_mean",
                                    "cus_used",
                                    "sync_accesses",
                                    "sync_l1",
                                    "sync_l2",
                                    "sync_remote_l1",
                                    "sync_evicts",
                                    "dram_row_hit_rate",
                                    NULL};

/* ---- statistics ---- */

void report_ci95(const double *x, int n, double *mean, double *lo, double *hi)
{
    /* t(0.975, df) for df = 1..30; 1.96 beyond. */
    static const double T[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
                               2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
                               2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
                               2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
    double m = 0, ss = 0;
    for (int i = 0; i < n; i++)
        m += x[i];
    m = n ? m / n : 0;
    for (int i = 0; i < n; i++)
        ss += (x[i] - m) * (x[i] - m);
    double h = 0;
    if (n > 1) {
        double t = n - 1 <= 30 ? T[n - 2] : 1.96;
        h = t * sqrt(ss / (n - 1)) / sqrt((double)n);
    }
    *mean = m;
    *lo = m - h;
    *hi = m + h;
}

/* ---- the parsed form ---- */

typedef enum {
    E_NUM,
    E_LET,
    E_FIELD,
    E_NEG,
    E_ADD,
    E_SUB,
    E_MUL,
    E_DIV,
    E_FUNC,
    E_LT,
    E_LE,
    E_GT,
    E_GE,
    E_AND,
    E_OR,
    E_NOT,
    E_TRUE
} ekind_t;

enum { F_GEOMEAN, F_MEAN, F_MIN, F_MAX, F_ABS, F_WITHIN, F_BETWEEN };
static const char *const FUNCS[] = {"geomean", "mean", "min", "max", "abs", "within", "between"};

typedef struct expr {
    ekind_t k;
    bool is_bool;
    double num;
    int idx; /* let or run index; function number */
    char *field;
    struct expr **args;
    int nargs;
    char *text; /* a comparison's source text, for the noise note */
} expr_t;

typedef struct {
    char *name;
    expr_t *e;
} let_t;

typedef struct {
    claim_label_t label;
    expr_t *when; /* NULL: always */
    char *because, *text;
} rule_t;

typedef struct {
    char *id, *title, *source, *quote, *paper, *proxy, *show, *skip, *file;
    char **runnames;
    claim_run_t *runs;
    int nruns;
    let_t *lets;
    int nlets;
    rule_t *rules;
    int nrules;
    size_t rcap, lcap, ucap;
} claim_t;

struct claims {
    claim_t *v;
    int n;
    size_t cap;
};

static void expr_free(expr_t *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->nargs; i++)
        expr_free(e->args[i]);
    free(e->args);
    free(e->field);
    free(e->text);
    free(e);
}

static void claim_free(claim_t *c)
{
    free(c->id), free(c->title), free(c->source), free(c->quote), free(c->paper);
    free(c->proxy), free(c->show), free(c->skip), free(c->file);
    for (int i = 0; i < c->nruns; i++) {
        free(c->runnames[i]);
        free((char *)c->runs[i].figure), free((char *)c->runs[i].workload);
        free((char *)c->runs[i].protocol), free((char *)c->runs[i].point);
    }
    free(c->runnames), free(c->runs);
    for (int i = 0; i < c->nlets; i++)
        free(c->lets[i].name), expr_free(c->lets[i].e);
    free(c->lets);
    for (int i = 0; i < c->nrules; i++)
        expr_free(c->rules[i].when), free(c->rules[i].because), free(c->rules[i].text);
    free(c->rules);
}

claims_t *claims_new(void)
{
    return xcalloc(1, sizeof(claims_t));
}

void claims_free(claims_t *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n; i++)
        claim_free(&c->v[i]);
    free(c->v);
    free(c);
}

int claims_count(const claims_t *c)
{
    return c->n;
}

int claims_runs(const claims_t *c, int i, const claim_run_t **runs)
{
    *runs = c->v[i].runs;
    return c->v[i].nruns;
}

const char *claim_label_word(claim_label_t l)
{
    static const char *const W[] = {"yes",          "partly",       "**no**",
                                    "within noise", "not measured", "not attempted"};
    return W[l];
}

/* ---- lexing and parsing ---- */

enum { T_STR = 1, T_NUM, T_ID, T_LE, T_GE, T_AND, T_OR, T_PUNCT, T_WS = -1 };

typedef struct {
    const char *file, *src;
    size_t len;
    lex_tok_t *t;
    int nt, pos;
    diag_t *err;
    claim_t *c;  /* the claim being parsed */
    bool in_let; /* run fields may be read only in a `let` */
} parser_t;

static const lex_tok_t *peek(parser_t *p)
{
    return &p->t[p->pos];
}

static bool is_punct(parser_t *p, const lex_tok_t *t, char ch)
{
    return t->kind == T_PUNCT && p->src[t->off] == ch;
}

static bool is_word(parser_t *p, const lex_tok_t *t, const char *w)
{
    return t->kind == T_ID && strlen(w) == t->len && !memcmp(p->src + t->off, w, t->len);
}

static int fail(parser_t *p, const lex_tok_t *t, const char *fmt, const char *arg)
{
    char what[64];
    if (t->kind == LEX_EOF)
        snprintf(what, sizeof what, "end of file");
    else
        snprintf(what, sizeof what, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), p->src + t->off);
    char msg[400];
    snprintf(msg, sizeof msg, fmt, arg ? arg : what);
    diag_set(p->err, p->file, t->line, t->col, "%s", msg);
    return -1;
}

static int expect_punct(parser_t *p, char ch)
{
    if (!is_punct(p, peek(p), ch)) {
        char want[32];
        snprintf(want, sizeof want, "expected '%c', found %%s", ch);
        return fail(p, peek(p), want, NULL);
    }
    p->pos++;
    return 0;
}

/* A string token's text without quotes and with \" and \\ undone; adjacent strings join. */
static char *str_value(parser_t *p)
{
    strbuf_t b;
    sb_init(&b);
    while (peek(p)->kind == T_STR) {
        const lex_tok_t *t = &p->t[p->pos++];
        for (size_t i = t->off + 1; i + 1 < t->off + t->len; i++) {
            if (p->src[i] == '\\' && i + 2 < t->off + t->len)
                i++;
            sb_putc(&b, p->src[i]);
        }
    }
    if (!b.s)
        sb_puts(&b, "");
    return b.s;
}

static int find_name(char **names, int n, const char *s, size_t len)
{
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && !memcmp(names[i], s, len))
            return i;
    return -1;
}

static int find_let(const claim_t *c, const char *s, size_t len)
{
    for (int i = 0; i < c->nlets; i++)
        if (strlen(c->lets[i].name) == len && !memcmp(c->lets[i].name, s, len))
            return i;
    return -1;
}

static expr_t *enew(ekind_t k, bool b)
{
    expr_t *e = xcalloc(1, sizeof *e);
    e->k = k;
    e->is_bool = b;
    return e;
}

static void add_arg(expr_t *e, expr_t *a)
{
    e->args = xrealloc(e->args, (size_t)(e->nargs + 1) * sizeof *e->args);
    e->args[e->nargs++] = a;
}

static expr_t *bin(ekind_t k, bool b, expr_t *x, expr_t *y)
{
    expr_t *e = enew(k, b);
    add_arg(e, x);
    add_arg(e, y);
    return e;
}

static expr_t *parse_or(parser_t *p);

/* Check that E has the wanted type (a number or a condition) at token T. */
static int want_type(parser_t *p, const lex_tok_t *t, expr_t *e, bool want_bool)
{
    if (e->is_bool == want_bool)
        return 0;
    return fail(p, t,
                want_bool ? "a condition (a comparison) is needed at %s"
                          : "a number is needed at %s (a condition cannot be computed with)",
                NULL);
}

static expr_t *parse_func(parser_t *p, const lex_tok_t *t)
{
    int f = -1;
    for (int i = 0; i < (int)(sizeof FUNCS / sizeof FUNCS[0]); i++)
        if (is_word(p, t, FUNCS[i]))
            f = i;
    if (f < 0) {
        fail(p, t, "unknown function %s (geomean, mean, min, max, abs, within, between)", NULL);
        return NULL;
    }
    p->pos++; /* '(' */
    expr_t *e = enew(E_FUNC, f == F_WITHIN || f == F_BETWEEN);
    e->idx = f;
    for (;;) {
        const lex_tok_t *at = peek(p);
        expr_t *a = parse_or(p);
        if (!a || want_type(p, at, a, false)) {
            expr_free(a);
            expr_free(e);
            return NULL;
        }
        add_arg(e, a);
        if (!is_punct(p, peek(p), ','))
            break;
        p->pos++;
    }
    int want = f == F_ABS ? 1 : f >= F_WITHIN ? 3 : 0;
    if ((want && e->nargs != want) || expect_punct(p, ')')) {
        if (want && e->nargs != want)
            fail(p, t, "wrong number of arguments to %s", NULL);
        expr_free(e);
        return NULL;
    }
    const lex_tok_t *end = &p->t[p->pos - 1];
    e->text = xstrndup(p->src + t->off, end->off + end->len - t->off);
    return e;
}

static expr_t *parse_primary(parser_t *p)
{
    const lex_tok_t *t = peek(p);
    if (t->kind == T_NUM) {
        p->pos++;
        expr_t *e = enew(E_NUM, false);
        e->num = strtod(p->src + t->off, NULL);
        return e;
    }
    if (is_punct(p, t, '(')) {
        p->pos++;
        expr_t *e = parse_or(p);
        if (e && expect_punct(p, ')')) {
            expr_free(e);
            return NULL;
        }
        return e;
    }
    if (t->kind != T_ID) {
        fail(p, t, "expected a number, a name or '(', found %s", NULL);
        return NULL;
    }
    p->pos++;
    if (is_punct(p, peek(p), '('))
        return parse_func(p, t);
    if (is_word(p, t, "true"))
        return enew(E_TRUE, true);
    if (is_punct(p, peek(p), '.')) {
        int r = find_name(p->c->runnames, p->c->nruns, p->src + t->off, t->len);
        if (!p->in_let) {
            fail(p, t, "read a run's field in a `let` (at %s), then compare the let", NULL);
            return NULL;
        }
        if (r < 0) {
            fail(p, t, "no run %s in this claim (declare it with `run`)", NULL);
            return NULL;
        }
        p->pos++;
        const lex_tok_t *f = peek(p);
        int k = -1;
        for (int i = 0; f->kind == T_ID && CLAIM_FIELDS[i]; i++)
            if (is_word(p, f, CLAIM_FIELDS[i]))
                k = i;
        if (k < 0) {
            fail(p, f, "unknown field %s (docs/claims.md lists the fields)", NULL);
            return NULL;
        }
        p->pos++;
        expr_t *e = enew(E_FIELD, false);
        e->idx = r;
        e->field = xstrdup(CLAIM_FIELDS[k]);
        return e;
    }
    int l = find_let(p->c, p->src + t->off, t->len);
    if (l < 0) {
        fail(p, t, "unknown name %s (not a `let` above; a run's field is RUN.FIELD)", NULL);
        return NULL;
    }
    expr_t *e = enew(E_LET, false);
    e->idx = l;
    return e;
}

static expr_t *parse_unary(parser_t *p)
{
    const lex_tok_t *t = peek(p);
    if (is_punct(p, t, '-')) {
        p->pos++;
        expr_t *a = parse_unary(p);
        if (!a || want_type(p, t, a, false)) {
            expr_free(a);
            return NULL;
        }
        expr_t *e = enew(E_NEG, false);
        add_arg(e, a);
        return e;
    }
    return parse_primary(p);
}

/* Left-associative levels: '*' '/' over unary, '+' '-' over those. */
static expr_t *parse_arith(parser_t *p, int level)
{
    const char *ops = level ? "*/" : "+-";
    const lex_tok_t *t0 = peek(p);
    expr_t *e = level ? parse_unary(p) : parse_arith(p, 1);
    while (e && peek(p)->kind == T_PUNCT && strchr(ops, p->src[peek(p)->off])) {
        char op = p->src[p->t[p->pos++].off];
        const lex_tok_t *t = peek(p);
        expr_t *b = level ? parse_unary(p) : parse_arith(p, 1);
        if (!b || want_type(p, t0, e, false) || want_type(p, t, b, false)) {
            expr_free(e);
            expr_free(b);
            return NULL;
        }
        e = bin(op == '*' ? E_MUL : op == '/' ? E_DIV : op == '+' ? E_ADD : E_SUB, false, e, b);
    }
    return e;
}

static expr_t *parse_cmp(parser_t *p)
{
    const lex_tok_t *t0 = peek(p);
    expr_t *e = parse_arith(p, 0);
    const lex_tok_t *op = peek(p);
    ekind_t k;
    if (op->kind == T_LE)
        k = E_LE;
    else if (op->kind == T_GE)
        k = E_GE;
    else if (is_punct(p, op, '<'))
        k = E_LT;
    else if (is_punct(p, op, '>'))
        k = E_GT;
    else
        return e;
    if (!e)
        return NULL;
    p->pos++;
    const lex_tok_t *t1 = peek(p);
    expr_t *b = parse_arith(p, 0);
    if (!b || want_type(p, t0, e, false) || want_type(p, t1, b, false)) {
        expr_free(e);
        expr_free(b);
        return NULL;
    }
    const lex_tok_t *end = &p->t[p->pos - 1];
    expr_t *c = bin(k, true, e, b);
    c->text = xstrndup(p->src + t0->off, end->off + end->len - t0->off);
    return c;
}

static expr_t *parse_not(parser_t *p)
{
    const lex_tok_t *t = peek(p);
    if (!is_punct(p, t, '!'))
        return parse_cmp(p);
    p->pos++;
    expr_t *a = parse_not(p);
    if (!a || want_type(p, t, a, true)) {
        expr_free(a);
        return NULL;
    }
    expr_t *e = enew(E_NOT, true);
    add_arg(e, a);
    return e;
}

static expr_t *parse_logic(parser_t *p, int kind, ekind_t ek)
{
    const lex_tok_t *t0 = peek(p);
    expr_t *e = kind == T_AND ? parse_not(p) : parse_logic(p, T_AND, E_AND);
    while (e && peek(p)->kind == kind) {
        p->pos++;
        const lex_tok_t *t = peek(p);
        expr_t *b = kind == T_AND ? parse_not(p) : parse_logic(p, T_AND, E_AND);
        if (!b || want_type(p, t0, e, true) || want_type(p, t, b, true)) {
            expr_free(e);
            expr_free(b);
            return NULL;
        }
        e = bin(ek, true, e, b);
    }
    return e;
}

static expr_t *parse_or(parser_t *p)
{
    return parse_logic(p, T_OR, E_OR);
}

/* `{NAME}` in TEXT (a string at token T) must name a let. */
static int check_interp(parser_t *p, const lex_tok_t *t, const char *text)
{
    for (const char *s = strchr(text, '{'); s; s = strchr(s + 1, '{')) {
        const char *z = strchr(s, '}');
        if (!z)
            return fail(p, t, "unclosed '{' in the text at %s", NULL);
        if (find_let(p->c, s + 1, (size_t)(z - s - 1)) < 0) {
            char nm[80];
            snprintf(nm, sizeof nm, "%.*s", (int)(z - s - 1 > 60 ? 60 : z - s - 1), s + 1);
            return fail(p, t, "{%s} in the text is not a `let` of this claim", nm);
        }
    }
    return 0;
}

/* run NAME = FIGURE WORKLOAD PROTOCOL [POINT], to the end of the line (or a '#' or '}'). */
static int parse_run(parser_t *p, const lex_tok_t *kw)
{
    claim_t *c = p->c;
    const lex_tok_t *nt = peek(p);
    if (nt->kind != T_ID)
        return fail(p, nt, "expected the run's name after `run`, found %s", NULL);
    if (find_name(c->runnames, c->nruns, p->src + nt->off, nt->len) >= 0)
        return fail(p, nt, "run %s declared twice", NULL);
    p->pos++;
    if (expect_punct(p, '='))
        return -1;
    const lex_tok_t *eq = &p->t[p->pos - 1];
    size_t a = eq->off + 1, z = a;
    while (z < p->len && p->src[z] != '\n' && p->src[z] != '#' && p->src[z] != '}')
        z++;
    char *w[5] = {0};
    int nw = 0, col = 0;
    for (size_t i = a; i < z && nw < 5;) {
        while (i < z && (p->src[i] == ' ' || p->src[i] == '\t' || p->src[i] == '\r'))
            i++;
        size_t j = i;
        while (j < z && p->src[j] != ' ' && p->src[j] != '\t' && p->src[j] != '\r')
            j++;
        if (j > i) {
            if (!nw)
                col = eq->col + (int)(i - eq->off);
            w[nw++] = xstrndup(p->src + i, j - i);
        }
        i = j;
    }
    if (nw < 3 || nw > 4) {
        for (int i = 0; i < nw; i++)
            free(w[i]);
        return fail(p, kw, "a run is `run NAME = FIGURE WORKLOAD PROTOCOL [POINT]` on one line%s",
                    "");
    }
    while (p->t[p->pos].kind != LEX_EOF && p->t[p->pos].off < z)
        p->pos++;
    c->runnames = xrealloc(c->runnames, (size_t)(c->nruns + 1) * sizeof *c->runnames);
    c->runs = xrealloc(c->runs, (size_t)(c->nruns + 1) * sizeof *c->runs);
    c->runnames[c->nruns] = xstrndup(p->src + nt->off, nt->len);
    c->runs[c->nruns++] = (claim_run_t){w[0], w[1], w[2], w[3], c->file, eq->line, col};
    return 0;
}

static int parse_rule(parser_t *p, const lex_tok_t *kw, claim_label_t label)
{
    claim_t *c = p->c;
    if (c->nrules && !c->rules[c->nrules - 1].when)
        return fail(p, kw, "a rule after the rule without `when` (the last one) at %s", NULL);
    rule_t r = {label, NULL, NULL, NULL};
    if (is_word(p, peek(p), "when")) {
        p->pos++;
        const lex_tok_t *t = peek(p);
        if (!(r.when = parse_or(p)) || want_type(p, t, r.when, true)) {
            expr_free(r.when);
            return -1;
        }
    }
    const lex_tok_t *end = &p->t[p->pos - 1];
    r.text = xstrndup(p->src + kw->off, end->off + end->len - kw->off);
    char *o = r.text; /* whitespace runs (line breaks, alignment) become one space */
    for (const char *s = r.text; *s; s++)
        if (!(isspace((unsigned char)*s) && o > r.text && o[-1] == ' '))
            *o++ = isspace((unsigned char)*s) ? ' ' : *s;
    *o = '\0';
    if (is_word(p, peek(p), "because")) {
        p->pos++;
        const lex_tok_t *t = peek(p);
        if (t->kind != T_STR) {
            expr_free(r.when), free(r.text);
            return fail(p, t, "expected the reason (a string) after `because`, found %s", NULL);
        }
        r.because = str_value(p);
        if (check_interp(p, t, r.because)) {
            expr_free(r.when), free(r.text), free(r.because);
            return -1;
        }
    } else if (label != CLAIM_YES) {
        expr_free(r.when), free(r.text);
        return fail(p, peek(p),
                    "a `partly` or `no` rule needs `because \"...\"` (its measured "
                    "reason) before %s",
                    NULL);
    }
    UTIL_PUSH(c->rules, c->nrules, c->rcap, r);
    return 0;
}

static int parse_let(parser_t *p)
{
    claim_t *c = p->c;
    const lex_tok_t *nt = peek(p);
    if (nt->kind != T_ID)
        return fail(p, nt, "expected a name after `let`, found %s", NULL);
    if (find_let(c, p->src + nt->off, nt->len) >= 0 ||
        find_name(c->runnames, c->nruns, p->src + nt->off, nt->len) >= 0)
        return fail(p, nt, "%s is already a let or a run of this claim", NULL);
    p->pos++;
    if (expect_punct(p, '='))
        return -1;
    const lex_tok_t *t = peek(p);
    p->in_let = true;
    expr_t *e = parse_or(p);
    p->in_let = false;
    if (!e || want_type(p, t, e, false)) {
        expr_free(e);
        return -1;
    }
    let_t l = {xstrndup(p->src + nt->off, nt->len), e};
    UTIL_PUSH(c->lets, c->nlets, c->lcap, l);
    return 0;
}

/* A `KEY "text"` line: the claim's text fields. */
static char **text_field(claim_t *c, parser_t *p, const lex_tok_t *t)
{
    static const char *const K[] = {"title", "source", "quote", "paper", "proxy", "show", "skip"};
    char **F[] = {&c->title, &c->source, &c->quote, &c->paper, &c->proxy, &c->show, &c->skip};
    for (int i = 0; i < 7; i++)
        if (is_word(p, t, K[i]))
            return F[i];
    return NULL;
}

static int parse_stmt(parser_t *p)
{
    claim_t *c = p->c;
    const lex_tok_t *t = &p->t[p->pos++];
    char **f = text_field(c, p, t);
    if (f) {
        if (*f)
            return fail(p, t, "%s given twice in this claim", NULL);
        const lex_tok_t *s = peek(p);
        if (s->kind != T_STR)
            return fail(p, s, "expected a string, found %s", NULL);
        *f = str_value(p);
        return f == &c->show || f == &c->skip ? check_interp(p, s, *f) : 0;
    }
    if (is_word(p, t, "run"))
        return c->nlets || c->nrules ? fail(p, t, "runs come before lets and rules (%s)", NULL)
                                     : parse_run(p, t);
    if (is_word(p, t, "let"))
        return c->nrules ? fail(p, t, "lets come before the rules (%s)", NULL) : parse_let(p);
    if (is_word(p, t, "yes"))
        return parse_rule(p, t, CLAIM_YES);
    if (is_word(p, t, "partly"))
        return parse_rule(p, t, CLAIM_PARTLY);
    if (is_word(p, t, "no"))
        return parse_rule(p, t, CLAIM_NO);
    return fail(p, t,
                "expected title, source, quote, paper, proxy, run, let, show, skip, yes, partly, "
                "no or '}', found %s",
                NULL);
}

/* The claim is complete: its texts, and rules or a skip. */
static int check_claim(parser_t *p, const lex_tok_t *t)
{
    claim_t *c = p->c;
    const char *miss = !c->title    ? "title"
                       : !c->source ? "source"
                       : !c->quote  ? "quote"
                       : !c->paper  ? "paper"
                                    : NULL;
    if (miss)
        return fail(p, t, "a claim needs `%s`", miss);
    if (c->skip && (c->nruns || c->nrules))
        return fail(p, t, "claim %s is skipped: it takes no runs or rules", c->id);
    if (!c->skip && !c->nrules)
        return fail(p, t, "claim %s has no rules (yes / partly / no)", c->id);
    if (!c->skip && c->rules[c->nrules - 1].when)
        return fail(p, t, "claim %s needs a last rule without `when` (the fallback)", c->id);
    if (!c->skip && !c->show)
        return fail(p, t, "claim %s has no `show` text (what was measured)", c->id);
    return 0;
}

static int parse_claim(parser_t *p, claims_t *all)
{
    const lex_tok_t *kw = peek(p);
    if (!is_word(p, kw, "claim"))
        return fail(p, kw, "expected `claim ID {`, found %s", NULL);
    p->pos++;
    const lex_tok_t *id = peek(p);
    if (id->kind != T_ID)
        return fail(p, id, "expected the claim's id after `claim`, found %s", NULL);
    /* An id is NAME(-NAME)*, written without spaces. */
    size_t idlen = id->len;
    p->pos++;
    while (is_punct(p, peek(p), '-') && peek(p)->off == id->off + idlen &&
           (p->t[p->pos + 1].kind == T_ID || p->t[p->pos + 1].kind == T_NUM) &&
           p->t[p->pos + 1].off == id->off + idlen + 1) {
        idlen += 1 + p->t[p->pos + 1].len;
        p->pos += 2;
    }
    for (int i = 0; i < all->n; i++)
        if (strlen(all->v[i].id) == idlen && !memcmp(all->v[i].id, p->src + id->off, idlen)) {
            diag_set(p->err, p->file, id->line, id->col, "claim %.*s defined twice", (int)idlen,
                     p->src + id->off);
            return -1;
        }
    if (expect_punct(p, '{'))
        return -1;
    claim_t c = {0};
    c.id = xstrndup(p->src + id->off, idlen);
    c.file = xstrdup(p->file);
    p->c = &c;
    int rc = 0;
    while (!rc && !is_punct(p, peek(p), '}')) {
        if (peek(p)->kind == LEX_EOF)
            rc = fail(p, peek(p), "claim not closed with '}' before %s", NULL);
        else
            rc = parse_stmt(p);
    }
    if (!rc)
        rc = check_claim(p, kw);
    p->c = NULL;
    if (rc) {
        claim_free(&c);
        return -1;
    }
    p->pos++;
    UTIL_PUSH(all->v, all->n, all->cap, c);
    return 0;
}

int claims_parse(claims_t *all, const char *file, const char *src, size_t len, diag_t *err)
{
    static const lex_rule_t R[] = {
        {T_WS, "(?:\\s+|#[^\\n]*)"},
        {T_STR, "\"(?:[^\"\\\\\\n]|\\\\.)*\""},
        {T_NUM, "[0-9]+(?:\\.[0-9]+)?(?:[eE][-+]?[0-9]+)?"},
        {T_ID, "[A-Za-z_][A-Za-z0-9_]*"},
        {T_LE, "<="},
        {T_GE, ">="},
        {T_AND, "&&"},
        {T_OR, "\\|\\|"},
        {T_PUNCT, "[-+*/<>!(),.{}=@:%\\[\\]]"},
    };
    lex_spec_t *spec;
    if (lex_spec_new(R, (int)(sizeof R / sizeof R[0]), &spec, err))
        return -1;
    parser_t p = {file, src, len, NULL, 0, 0, err, NULL, false};
    int rc = lex_run(spec, file, src, len, &p.t, &p.nt, err);
    lex_spec_free(spec);
    if (rc)
        return -1;
    int before = all->n;
    while (!rc && p.t[p.pos].kind != LEX_EOF)
        rc = parse_claim(&p, all);
    free(p.t);
    if (rc) {
        while (all->n > before)
            claim_free(&all->v[--all->n]);
        return -1;
    }
    return 0;
}

/* ---- evaluation ---- */

typedef enum { TV_FALSE, TV_TRUE, TV_NOISE, TV_UNDEF } tv_t;

typedef struct {
    const claim_t *c;
    int nseeds;
    double *vals; /* [let][seed] */
    strbuf_t noise;
} eval_t;

static double num(eval_t *x, const expr_t *e, int s)
{
    double a = e->nargs > 0 && e->k != E_FUNC ? num(x, e->args[0], s) : 0;
    double b = e->nargs > 1 && e->k != E_FUNC ? num(x, e->args[1], s) : 0;
    switch (e->k) {
    case E_NUM: return e->num;
    case E_LET: return x->vals[e->idx * x->nseeds + s];
    case E_FIELD: return e->num; /* fetched for seed S by eval_lets */
    case E_NEG: return -a;
    case E_ADD: return a + b;
    case E_SUB: return a - b;
    case E_MUL: return a * b;
    case E_DIV: return b != 0 ? a / b : NAN;
    case E_FUNC: break;
    default: return NAN;
    }
    double acc = e->idx == F_MIN ? INFINITY : e->idx == F_MAX ? -INFINITY : 0;
    for (int i = 0; i < e->nargs; i++) {
        double v = num(x, e->args[i], s);
        switch (e->idx) {
        case F_GEOMEAN: acc += v > 0 ? log(v) : NAN; break;
        case F_MEAN: acc += v; break;
        case F_MIN: acc = v < acc ? v : acc; break;
        case F_MAX: acc = v > acc ? v : acc; break;
        case F_ABS: acc = fabs(v); break;
        default: break;
        }
    }
    if (e->idx == F_GEOMEAN)
        return exp(acc / e->nargs);
    if (e->idx == F_MEAN)
        return acc / e->nargs;
    return acc;
}

static void fmt_val(strbuf_t *b, double v)
{
    double a = fabs(v);
    if (a < 0.0005)
        v = 0.0; /* no "-0.000" */
    sb_printf(b, a >= 1000 || v == floor(v) ? "%.0f" : a >= 10 ? "%.1f" : "%.3f", v);
}

/* "mean [lo, hi]"; the interval left out when it prints as one number (zero width, or
 * narrower than the printed digits). */
static void fmt_ci(strbuf_t *b, const double *x, int n)
{
    double m, lo, hi;
    report_ci95(x, n, &m, &lo, &hi);
    strbuf_t l, h;
    sb_init(&l);
    sb_init(&h);
    fmt_val(&l, lo);
    fmt_val(&h, hi);
    fmt_val(b, m);
    if (n > 1 && strcmp(l.s, h.s))
        sb_printf(b, " [%s, %s]", l.s, h.s);
    sb_free(&l);
    sb_free(&h);
}

/* lhs - rhs per seed; decided on its interval against 0. */
static tv_t compare(eval_t *x, ekind_t k, const expr_t *l, const expr_t *r, const char *text)
{
    double d[64];
    for (int s = 0; s < x->nseeds; s++) {
        d[s] = num(x, l, s) - num(x, r, s);
        if (!isfinite(d[s]))
            return TV_UNDEF;
    }
    double m, lo, hi;
    report_ci95(d, x->nseeds, &m, &lo, &hi);
    tv_t v;
    switch (k) {
    case E_LT: v = hi < 0 ? TV_TRUE : lo >= 0 ? TV_FALSE : TV_NOISE; break;
    case E_LE: v = hi <= 0 ? TV_TRUE : lo > 0 ? TV_FALSE : TV_NOISE; break;
    case E_GT: v = lo > 0 ? TV_TRUE : hi <= 0 ? TV_FALSE : TV_NOISE; break;
    default: v = lo >= 0 ? TV_TRUE : hi < 0 ? TV_FALSE : TV_NOISE; break;
    }
    if (v == TV_NOISE) {
        sb_printf(&x->noise, "%s`%s`: left - right = ", x->noise.len ? "; " : "", text);
        fmt_ci(&x->noise, d, x->nseeds);
    }
    return v;
}

static tv_t tv_and(tv_t a, tv_t b)
{
    if (a == TV_UNDEF || b == TV_UNDEF)
        return TV_UNDEF;
    if (a == TV_FALSE || b == TV_FALSE)
        return TV_FALSE;
    return a == TV_TRUE && b == TV_TRUE ? TV_TRUE : TV_NOISE;
}

static tv_t tv_or(tv_t a, tv_t b)
{
    if (a == TV_UNDEF || b == TV_UNDEF)
        return TV_UNDEF;
    if (a == TV_TRUE || b == TV_TRUE)
        return TV_TRUE;
    return a == TV_FALSE && b == TV_FALSE ? TV_FALSE : TV_NOISE;
}

static tv_t cond(eval_t *x, const expr_t *e)
{
    switch (e->k) {
    case E_TRUE: return TV_TRUE;
    case E_NOT: {
        tv_t a = cond(x, e->args[0]);
        return a == TV_TRUE ? TV_FALSE : a == TV_FALSE ? TV_TRUE : a;
    }
    case E_AND: return tv_and(cond(x, e->args[0]), cond(x, e->args[1]));
    case E_OR: return tv_or(cond(x, e->args[0]), cond(x, e->args[1]));
    case E_LT:
    case E_LE:
    case E_GT:
    case E_GE: return compare(x, e->k, e->args[0], e->args[1], e->text);
    case E_FUNC: {
        /* within(v, c, tol): c - tol <= v <= c + tol; between(v, lo, hi): lo <= v <= hi. */
        expr_t lo = {.k = E_SUB}, hi = {.k = E_ADD};
        expr_t *la[2] = {e->args[1], e->args[2]};
        lo.args = hi.args = la;
        lo.nargs = hi.nargs = 2;
        const expr_t *L = e->idx == F_WITHIN ? &lo : e->args[1];
        const expr_t *H = e->idx == F_WITHIN ? &hi : e->args[2];
        char tl[300], th[300];
        snprintf(tl, sizeof tl, "%s, its lower bound", e->text);
        snprintf(th, sizeof th, "%s, its upper bound", e->text);
        return tv_and(compare(x, E_GE, e->args[0], L, tl), compare(x, E_LE, e->args[0], H, th));
    }
    default: return TV_UNDEF;
    }
}

/* TEXT with every {LET} replaced by its mean [lo, hi]. */
static char *interp(eval_t *x, const char *text)
{
    strbuf_t b;
    sb_init(&b);
    for (const char *s = text; *s; s++) {
        const char *z = *s == '{' ? strchr(s, '}') : NULL;
        int l = z ? find_let(x->c, s + 1, (size_t)(z - s - 1)) : -1;
        if (l < 0) {
            sb_putc(&b, *s);
            continue;
        }
        fmt_ci(&b, &x->vals[l * x->nseeds], x->nseeds);
        s = z;
    }
    if (!b.s)
        sb_puts(&b, "");
    return b.s;
}

/* Fill every let's value at every seed; 0, or -1 with WHY (a run failed, or a value is
 * undefined). */
static int eval_lets(eval_t *x, claim_lookup_fn fn, void *ctx, char *why, size_t n)
{
    const claim_t *c = x->c;
    for (int l = 0; l < c->nlets; l++)
        for (int s = 0; s < x->nseeds; s++) {
            /* Fields first: a failed run is the reason, not the arithmetic. */
            expr_t *stack[256];
            int sp = 0;
            stack[sp++] = c->lets[l].e;
            while (sp) {
                expr_t *e = stack[--sp];
                if (e->k == E_FIELD) {
                    double v;
                    if (fn(ctx, &c->runs[e->idx], s, e->field, &v, why, n))
                        return -1;
                    e->num = v;
                }
                for (int i = 0; i < e->nargs && sp < 256; i++)
                    stack[sp++] = e->args[i];
            }
            double v = num(x, c->lets[l].e, s);
            if (!isfinite(v)) {
                snprintf(why, n,
                         "%s is undefined at seed index %d (a division by zero or the "
                         "geomean of a value <= 0)",
                         c->lets[l].name, s);
                return -1;
            }
            x->vals[l * x->nseeds + s] = v;
        }
    return 0;
}

void claims_eval(const claims_t *all, int i, int nseeds, claim_lookup_fn fn, void *ctx,
                 claim_result_t *out)
{
    const claim_t *c = &all->v[i];
    memset(out, 0, sizeof *out);
    *out = (claim_result_t){c->id,   c->title,           c->source, c->quote, c->paper, c->proxy,
                            c->file, CLAIM_NOT_MEASURED, NULL,      NULL,     NULL};
    if (c->skip) {
        out->label = CLAIM_SKIPPED;
        out->note = xstrdup(c->skip);
        out->shown = xstrdup("-");
        out->rule = xstrdup("");
        return;
    }
    if (nseeds > 64)
        nseeds = 64;
    eval_t x = {c,
                nseeds,
                xcalloc((size_t)(c->nlets ? c->nlets : 1) * (size_t)nseeds, sizeof(double)),
                {0}};
    sb_init(&x.noise);
    char why[700] = "";
    if (eval_lets(&x, fn, ctx, why, sizeof why)) {
        out->note = xstrdup(why);
        out->shown = xstrdup("-");
        out->rule = xstrdup("");
        goto done;
    }
    out->shown = interp(&x, c->show);
    for (int r = 0; r < c->nrules; r++) {
        const rule_t *R = &c->rules[r];
        x.noise.len = 0;
        if (x.noise.s)
            x.noise.s[0] = '\0';
        tv_t v = R->when ? cond(&x, R->when) : TV_TRUE;
        if (v == TV_FALSE)
            continue;
        out->rule = xstrdup(R->text);
        if (v == TV_TRUE) {
            out->label = R->label;
            out->note = R->because ? interp(&x, R->because) : xstrdup("");
        } else if (v == TV_NOISE) {
            out->label = CLAIM_NOISE;
            strbuf_t b;
            sb_init(&b);
            sb_printf(&b, "undecided over %d seeds: %s", nseeds, x.noise.s);
            out->note = b.s;
        } else {
            out->label = CLAIM_NOT_MEASURED;
            out->note = xstrdup("a compared value is undefined (a division by zero)");
        }
        break;
    }
done:
    sb_free(&x.noise);
    free(x.vals);
}

void claim_result_free(claim_result_t *r)
{
    free(r->shown);
    free(r->note);
    free(r->rule);
    r->shown = r->note = r->rule = NULL;
}
