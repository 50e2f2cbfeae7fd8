/* cat_parse.c - lexer rules, recursive-descent parser and static typing of
 * the model language (grammar in cat.h and docs/models.md), 'include'
 * handling, and the cat_parse/cat_load entry points.
 *
 * Invariant: every expression the parser hands to the builder is well typed
 * (each node is a set or a relation, checked operator by operator as it is
 * parsed), so the compiled model needs no type checks at evaluation time.
 * Recursion is bounded: binary and postfix operators loop, and each nesting
 * construct ( '(' '[' '~' domain range, a function application, 'try', 'let
 * ... in' ) counts against CAT_MAX_DEPTH; a function body cannot name itself,
 * and applications are counted (CAT_MAX_CALLS), so loading always ends. */
#include "cat_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/util.h"
#include "../lex/lex.h"

enum {
    T_LET = 1,
    T_INCLUDE,
    T_FLAG,
    T_ACYCLIC,
    T_IRREFLEXIVE,
    T_EMPTY,
    T_AS,
    T_DOMAIN,
    T_RANGE,
    T_FENCEREL,
    T_ALL,
    T_ZERO,
    T_NUMBER,
    T_ID,
    T_STRING,
    T_BADSTRING,
    T_BADCOMMENT,
    T_INV,
    T_EQ,
    T_BAR,
    T_SEMI,
    T_BSLASH,
    T_AMP,
    T_STAR,
    T_PLUS,
    T_QUEST,
    T_TILDE,
    T_LPAREN,
    T_RPAREN,
    T_LBRACK,
    T_RBRACK,
    T_HASHLINE, /* herd's '#' comment: skipped at statement level */
    T_COMMA,    /* herd's 'show a, b' */
    T_LBRACE,   /* herd's '{}', the empty set */
    T_RBRACE,
    T_HERDSYM, /* herd's '++' '->' '!' ... : reported by name */
};

#define CAT_MAX_PARAMS 8     /* parameters of one function */
#define CAT_MAX_CALLS 100000 /* function applications while loading one model */

#define NOT_ID_CHAR "(?![A-Za-z0-9_.-])"

/* First match wins: comments before '(', keywords before identifiers. */
static const lex_rule_t cat_rules[] = {
    {-1, "\\s+"},
    {-2, "\\(\\*(?s:.*?)\\*\\)"},
    {T_BADCOMMENT, "\\(\\*(?s:.*)"}, /* no closing "*)": swallow the rest, report here */
    {T_LET, "let" NOT_ID_CHAR},
    {T_INCLUDE, "include" NOT_ID_CHAR},
    {T_FLAG, "flag" NOT_ID_CHAR},
    {T_ACYCLIC, "acyclic" NOT_ID_CHAR},
    {T_IRREFLEXIVE, "irreflexive" NOT_ID_CHAR},
    {T_EMPTY, "empty" NOT_ID_CHAR},
    {T_AS, "as" NOT_ID_CHAR},
    {T_DOMAIN, "domain" NOT_ID_CHAR},
    {T_RANGE, "range" NOT_ID_CHAR},
    {T_FENCEREL, "fencerel" NOT_ID_CHAR},
    {T_ALL, "_" NOT_ID_CHAR},
    {T_ZERO, "0(?![A-Za-z0-9_])"},
    {T_NUMBER, "[0-9][A-Za-z0-9_]*"},
    {T_ID, "[A-Za-z_][A-Za-z0-9_.-]*"},
    {T_STRING, "\"[^\"\\n]*\""},
    {T_BADSTRING, "\"[^\"\\n]*"},
    {T_INV, "\\^-1"},
    {T_EQ, "="},
    {T_BAR, "\\|"},
    {T_SEMI, ";"},
    {T_BSLASH, "\\\\"},
    {T_AMP, "&"},
    {T_STAR, "\\*"},
    {T_PLUS, "\\+"},
    {T_QUEST, "\\?"},
    {T_TILDE, "~"},
    {T_LPAREN, "\\("},
    {T_RPAREN, "\\)"},
    {T_LBRACK, "\\["},
    {T_RBRACK, "\\]"},
    {T_HASHLINE, "#[^\\n]*"},
    {T_COMMA, ","},
    {T_LBRACE, "\\{"},
    {T_RBRACE, "\\}"},
    {T_HERDSYM, "[!:<>-]"},
};

/* A function, 'let f(x, y) = body': typed and built at each application, with
 * its parameters bound to the arguments, in the environment of its definition. */
typedef struct {
    const char *file, *src;
    lex_tok_t *t;
    int nt;
    int body, end; /* token indices: the body's first, and the one after it */
    int nparams;
    int params[CAT_MAX_PARAMS]; /* token indices of the parameter names */
    size_t def_nenv;            /* bindings visible to the body: env[0 .. def_nenv) */
} fn_t;

/* State shared by the root file and everything it includes. */
typedef struct {
    cat_build_t *b;
    const lex_spec_t *spec;
    diag_t *err;
    char *title;        /* the root file's quoted title, or NULL */
    const char *libdir; /* where an include not found beside its file is looked up, or NULL */
    char **stack;       /* canonical paths of the files being read, outermost first */
    int nstack;
    int nflags, nchecks;
    fn_t *fns; /* a binding's node -2 - i names fns[i] */
    size_t nfns, capfns;
    /* Bindings hidden from lookups while a function body is built: env[lo, hi)
     * for each application in progress (the caller's scope). */
    size_t hide_lo[CAT_MAX_DEPTH + 2], hide_hi[CAT_MAX_DEPTH + 2];
    int nhide;
    long ncalls;
    void **keep; /* file texts and token arrays, alive while functions may be applied */
    size_t nkeep, capkeep;
    size_t nprelude; /* env[0 .. nprelude) is herd7's standard library */
    bool herd;       /* a herd7 model: a herd header, or a name from herd7's library used */
} shared_t;

/* One file being parsed. */
typedef struct {
    shared_t *sh;
    const char *file;
    const char *src;
    size_t len;
    lex_tok_t *t;
    int nt, pos;
    int depth;
} parser_t;

static int parse_expr(parser_t *p, int *out);
static int parse_bindings(parser_t *p);

static const lex_tok_t *cur(const parser_t *p)
{
    return &p->t[p->pos];
}

static const lex_tok_t *peek(const parser_t *p, int k)
{
    int i = p->pos + k;
    return &p->t[i < p->nt ? i : p->nt - 1];
}

static void advance(parser_t *p)
{
    if (p->pos < p->nt - 1)
        p->pos++;
}

static int fail_at(parser_t *p, const lex_tok_t *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail_at(parser_t *p, const lex_tok_t *t, const char *fmt, ...)
{
    char msg[DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_set(p->sh->err, p->file, t->line, t->col, "%s", msg);
    return -1;
}

/* "name 'po'", "'|'", "end of file" ... for "found X" messages. */
static void describe(const parser_t *p, const lex_tok_t *t, char *buf, size_t n)
{
    int len = t->len > 40 ? 40 : (int)t->len;
    const char *s = p->src + t->off;
    switch (t->kind) {
    case LEX_EOF: snprintf(buf, n, "end of file"); break;
    case T_ID: snprintf(buf, n, "name '%.*s'", len, s); break;
    case T_STRING: snprintf(buf, n, "string %.*s", len, s); break;
    default: snprintf(buf, n, "'%.*s'", len, s); break;
    }
}

/* Report that WHAT was expected at the current token. Tokens that are
 * errors in themselves (unterminated comment or string, a number) say so. */
static int expected(parser_t *p, const char *what)
{
    const lex_tok_t *t = cur(p);
    if (t->kind == T_BADCOMMENT)
        return fail_at(p, t, "unterminated comment");
    if (t->kind == T_BADSTRING)
        return fail_at(p, t, "unterminated string");
    if (t->kind == T_HERDSYM || t->kind == T_COMMA)
        return fail_at(p, t,
                       "not supported: herd7's '%.*s' (tags, sets of tags, match) "
                       "(docs/models.md, \"herd's cat and cohcheck's\")",
                       (int)t->len, p->src + t->off);
    if (t->kind == T_NUMBER)
        return fail_at(p, t, "unexpected number '%.*s' (the only number is 0, the empty relation)",
                       t->len > 40 ? 40 : (int)t->len, p->src + t->off);
    char found[64];
    describe(p, t, found, sizeof found);
    return fail_at(p, t, "expected %s, found %s", what, found);
}

static const char *ty_name(cat_ty_t ty)
{
    return ty == CAT_TY_SET ? "a set" : "a relation";
}

static cat_ty_t ty_of(const parser_t *p, int node)
{
    return cat_op_type(p->sh->b->nodes[node].op);
}

/* Can token I (relative to the current one) start an operand? Decides
 * whether '*' is the binary product or the postfix closure. A '~' counts only
 * when what follows it can start an operand ("r* ~empty" is postfix). */
static bool tok_is(const parser_t *p, const lex_tok_t *t, const char *w);

static bool is_keyword(const parser_t *p, const lex_tok_t *t)
{
    static const char *const kw[] = {"with", "in", "and", "from", "as"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (tok_is(p, t, kw[i]))
            return true;
    return false;
}

static bool starts_operand(const parser_t *p, int k)
{
    for (;; k++) {
        switch (peek(p, k)->kind) {
        case T_ID: return !is_keyword(p, peek(p, k));
        case T_LBRACE:
        case T_LPAREN:
        case T_LBRACK:
        case T_ALL:
        case T_ZERO:
        case T_DOMAIN:
        case T_RANGE:
        case T_FENCEREL: return true;
        case T_TILDE: continue;
        default: return false;
        }
    }
}

static int enter(parser_t *p, const lex_tok_t *t)
{
    if (++p->depth > CAT_MAX_DEPTH)
        return fail_at(p, t, "expression nested too deeply (more than %d levels)", CAT_MAX_DEPTH);
    return 0;
}

/* '(' expr ')' or '[' expr ']' or domain/range '(' expr ')': the inner
 * expression, with its first token for error positions. */
static int parse_group(parser_t *p, int close, const char *what, int *out, lex_tok_t *first)
{
    advance(p);
    *first = *cur(p);
    if (parse_expr(p, out))
        return -1;
    if (cur(p)->kind != close)
        return expected(p, what);
    advance(p);
    return 0;
}

/* Is T a word of herd7's cat language or of its standard library (stdlib.cat,
 * c11.bell, cos.cat, filters.cat) that cohcheck's dialect does not have? */
static bool herd_name(const parser_t *p, const lex_tok_t *t)
{
    /* names herd7 binds that the prelude (herd_prelude) does not */
    static const char *const w[] = {
        "fun",       "match",          "rec", "in",           "with",           "X",
        "SFENCE",    "LFENCE",         "amo", "tag2set",      "tag2events",     "classes-loc",
        "partition", "linearisations", "udr", "generate_cos", "generate_orders"};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (t->len == strlen(w[i]) && !memcmp(p->src + t->off, w[i], t->len))
            return true;
    return false;
}

/* NAME as the current scope sees it: the latest binding outside the ranges
 * hidden by function applications in progress, then a built-in. Using a name
 * of herd7's standard library makes the model a herd7 model. */
static int lookup(parser_t *p, const char *name, size_t len)
{
    shared_t *sh = p->sh;
    cat_build_t *b = sh->b;
    for (size_t i = b->nenv; i-- > 0;) {
        bool hidden = false;
        for (int h = 0; h < sh->nhide && !hidden; h++)
            hidden = i >= sh->hide_lo[h] && i < sh->hide_hi[h];
        if (hidden || strlen(b->env[i].name) != len || memcmp(b->env[i].name, name, len) != 0)
            continue;
        if (i < sh->nprelude)
            sh->herd = true;
        return b->env[i].node;
    }
    return cat_lookup_builtin(b, name, len);
}

static int empty_set(cat_build_t *b)
{
    return cat_node(b, CAT_OP_S_DOMAIN, cat_node(b, CAT_OP_ZERO, -1, -1, -1), -1, -1);
}

/* herd7's empty set and empty relation ('{}', '0', emptyset) are one value:
 * next to an operand of the other type, it takes that type. */
static void coerce_empty(parser_t *p, int *l, int *r)
{
    cat_build_t *b = p->sh->b;
    for (int k = 0; k < 2; k++) {
        int *x = k ? r : l, *y = k ? l : r;
        cat_ty_t tx = cat_op_type(b->nodes[*x].op), ty = cat_op_type(b->nodes[*y].op);
        if (tx == ty)
            return;
        if (b->nodes[*x].op == CAT_OP_ZERO) {
            *x = empty_set(b);
            return;
        }
        if (*x == empty_set(b)) {
            *x = cat_node(b, CAT_OP_ZERO, -1, -1, -1);
            return;
        }
    }
}

/* The index of the 'with' that closes the 'try' before token FROM, or -1. */
static int find_with(const parser_t *p, int from)
{
    int depth = 0, tries = 0;
    for (int i = from; i < p->nt; i++) {
        const lex_tok_t *t = &p->t[i];
        switch (t->kind) {
        case LEX_EOF: return -1;
        case T_LPAREN:
        case T_LBRACK:
        case T_LBRACE: depth++; break;
        case T_RPAREN:
        case T_RBRACK:
        case T_RBRACE:
            if (--depth < 0)
                return -1;
            break;
        default:
            if (depth > 0) /* a bracketed 'try' closes inside its brackets */
                break;
            if (tok_is(p, t, "try"))
                tries++;
            else if (tok_is(p, t, "with") && tries-- == 0)
                return i;
        }
    }
    return -1;
}

/* herd7's 'try E with F': E, or F when E fails to build (an unknown name, a
 * type error). Both are read; F is the value only when E failed. */
static int parse_try(parser_t *p, int *out)
{
    shared_t *sh = p->sh;
    const lex_tok_t t = *cur(p);
    int with = find_with(p, p->pos + 1);
    if (with < 0)
        return fail_at(p, &t, "'try' without its 'with'");
    if (enter(p, &t))
        return -1;
    advance(p);
    int depth = p->depth, nhide = sh->nhide;
    size_t nenv = sh->b->nenv;
    int e, alt;
    bool ok = parse_expr(p, &e) == 0 && p->pos == with;
    if (!ok) {
        p->depth = depth;
        sh->nhide = nhide;
        cat_unbind_to(sh->b, nenv);
        p->pos = with;
    }
    advance(p);
    if (parse_expr(p, &alt))
        return -1;
    p->depth--;
    *out = ok ? e : alt;
    return 0;
}

/* Apply function FI (named by token NAME) to the arguments '(' E, ... ')'
 * that follow: its body is built with the parameters bound to them, in the
 * scope of its definition (the caller's bindings hidden). */
static int apply(parser_t *p, const lex_tok_t *name, int fi, int *out)
{
    shared_t *sh = p->sh;
    cat_build_t *b = sh->b;
    const fn_t fn = sh->fns[fi]; /* a copy: the body may define functions */
    int nl = name->len > 64 ? 64 : (int)name->len;
    if (cur(p)->kind != T_LPAREN)
        return fail_at(p, name, "'%.*s' is a function: apply it, as in '%.*s(...)'", nl,
                       p->src + name->off, nl, p->src + name->off);
    if (enter(p, name))
        return -1;
    if (++sh->ncalls > CAT_MAX_CALLS)
        return fail_at(p, name, "too many function applications (more than %d)", CAT_MAX_CALLS);
    advance(p);
    int args[CAT_MAX_PARAMS], n = 0;
    for (;;) {
        if (n == CAT_MAX_PARAMS)
            return fail_at(p, cur(p), "too many arguments (at most %d)", CAT_MAX_PARAMS);
        if (parse_expr(p, &args[n++]))
            return -1;
        if (cur(p)->kind == T_COMMA) {
            advance(p);
            continue;
        }
        if (cur(p)->kind != T_RPAREN)
            return expected(p, "',' or ')'");
        advance(p);
        break;
    }
    if (n != fn.nparams)
        return fail_at(p, name, "'%.*s' takes %d argument%s, given %d", nl, p->src + name->off,
                       fn.nparams, fn.nparams == 1 ? "" : "s", n);
    size_t nenv = b->nenv;
    sh->hide_lo[sh->nhide] = fn.def_nenv;
    sh->hide_hi[sh->nhide] = nenv;
    sh->nhide++;
    for (int i = 0; i < n; i++) {
        const lex_tok_t *pt = &fn.t[fn.params[i]];
        cat_bind(b, fn.src + pt->off, pt->len, args[i]);
    }
    parser_t q = {.sh = sh,
                  .file = fn.file,
                  .src = fn.src,
                  .t = fn.t,
                  .nt = fn.nt,
                  .pos = fn.body,
                  .depth = p->depth};
    int rc = parse_expr(&q, out);
    if (rc == 0 && q.pos != fn.end)
        rc = expected(&q, "the end of the function's body");
    sh->nhide--;
    cat_unbind_to(b, nenv);
    p->depth--;
    return rc;
}

/* A name: a binding, a function applied, or herd7's 'try'. */
static int parse_name(parser_t *p, int *out)
{
    const lex_tok_t t = *cur(p);
    if (tok_is(p, &t, "try"))
        return parse_try(p, out);
    *out = lookup(p, p->src + t.off, t.len);
    if (*out == -1 && herd_name(p, &t))
        return fail_at(p, &t,
                       "unknown name '%.*s': herd7's (its language or standard library), "
                       "not in cohcheck's cat dialect (docs/models.md, \"herd's cat and "
                       "cohcheck's\")",
                       (int)t.len, p->src + t.off);
    if (*out == -1)
        return fail_at(p, &t, "unknown name '%.*s'", t.len > 64 ? 64 : (int)t.len, p->src + t.off);
    advance(p);
    if (*out < -1)
        return apply(p, &t, -2 - *out, out);
    return 0;
}

/* herd7's 'let B and B ... in E' as an expression. */
static int parse_let_in(parser_t *p, int *out)
{
    const lex_tok_t t = *cur(p);
    size_t nenv = p->sh->b->nenv;
    if (enter(p, &t) || parse_bindings(p))
        return -1;
    if (!tok_is(p, cur(p), "in"))
        return expected(p, "'in' (a 'let' inside an expression)");
    advance(p);
    if (parse_expr(p, out))
        return -1;
    cat_unbind_to(p->sh->b, nenv);
    p->depth--;
    return 0;
}

static int parse_primary(parser_t *p, int *out)
{
    cat_build_t *b = p->sh->b;
    const lex_tok_t t = *cur(p);
    lex_tok_t first;
    int e;
    switch (t.kind) {
    case T_ID: return parse_name(p, out);
    case T_LET: return parse_let_in(p, out);
    case T_LBRACE:
        advance(p);
        if (cur(p)->kind != T_RBRACE)
            return fail_at(p, &t,
                           "not supported: herd7's sets of tags '{...}' (only '{}', the empty "
                           "set) (docs/models.md, \"herd's cat and cohcheck's\")");
        advance(p);
        *out = empty_set(b);
        return 0;
    case T_ALL:
        *out = cat_node(b, CAT_OP_ALL, -1, -1, -1);
        advance(p);
        return 0;
    case T_ZERO:
        *out = cat_node(b, CAT_OP_ZERO, -1, -1, -1);
        advance(p);
        return 0;
    case T_LPAREN:
        if (enter(p, &t) || parse_group(p, T_RPAREN, "')'", out, &first))
            return -1;
        p->depth--;
        return 0;
    case T_LBRACK:
        if (enter(p, &t) || parse_group(p, T_RBRACK, "']'", &e, &first))
            return -1;
        p->depth--;
        if (ty_of(p, e) != CAT_TY_SET)
            return fail_at(p, &first, "'[...]' needs a set, got a relation");
        *out = cat_node(b, CAT_OP_R_IDSET, e, -1, -1);
        return 0;
    case T_DOMAIN:
    case T_RANGE: {
        const char *fn = t.kind == T_DOMAIN ? "domain" : "range";
        if (enter(p, &t))
            return -1;
        advance(p);
        if (cur(p)->kind != T_LPAREN)
            return expected(p, "'(' after domain or range");
        if (parse_group(p, T_RPAREN, "')'", &e, &first))
            return -1;
        p->depth--;
        if (ty_of(p, e) != CAT_TY_REL)
            return fail_at(p, &first, "%s(...) needs a relation, got a set", fn);
        *out = cat_node(b, t.kind == T_DOMAIN ? CAT_OP_S_DOMAIN : CAT_OP_S_RANGE, e, -1, -1);
        return 0;
    }
    case T_FENCEREL: { /* herd7's fencerel(S) = po;[S];po */
        if (enter(p, &t))
            return -1;
        advance(p);
        if (cur(p)->kind != T_LPAREN)
            return expected(p, "'(' after fencerel");
        if (parse_group(p, T_RPAREN, "')'", &e, &first))
            return -1;
        p->depth--;
        if (ty_of(p, e) != CAT_TY_SET)
            return fail_at(p, &first, "fencerel(...) needs a set, got a relation");
        int po = lookup(p, "po", 2);
        if (po < 0 || ty_of(p, po) != CAT_TY_REL)
            return fail_at(p, &t, "fencerel(...) needs 'po' to be a relation");
        int l = cat_node(b, CAT_OP_R_SEQ, po, cat_node(b, CAT_OP_R_IDSET, e, -1, -1), -1);
        *out = cat_node(b, CAT_OP_R_SEQ, l, po, -1);
        return 0;
    }
    default: return expected(p, "an expression");
    }
}

static int parse_postfix(parser_t *p, int *out)
{
    if (parse_primary(p, out))
        return -1;
    for (;;) {
        const lex_tok_t t = *cur(p);
        int op;
        switch (t.kind) {
        case T_PLUS: op = CAT_OP_R_PLUS; break;
        case T_QUEST: op = CAT_OP_R_OPT; break;
        case T_INV: op = CAT_OP_R_INV; break;
        case T_STAR:
            if (starts_operand(p, 1))
                return 0; /* binary product, handled by parse_prod */
            op = CAT_OP_R_STAR;
            break;
        default: return 0;
        }
        if (ty_of(p, *out) != CAT_TY_REL)
            return fail_at(p, &t, "postfix '%.*s' needs a relation, got a set", (int)t.len,
                           p->src + t.off);
        advance(p);
        *out = cat_node(p->sh->b, op, *out, -1, -1);
    }
}

static int parse_unary(parser_t *p, int *out)
{
    const lex_tok_t t = *cur(p);
    if (t.kind != T_TILDE)
        return parse_postfix(p, out);
    if (enter(p, &t))
        return -1;
    advance(p);
    int e;
    if (parse_unary(p, &e))
        return -1;
    p->depth--;
    bool set = ty_of(p, e) == CAT_TY_SET;
    *out = cat_node(p->sh->b, set ? CAT_OP_S_COMPL : CAT_OP_R_COMPL, e, -1, -1);
    return 0;
}

static int parse_prod(parser_t *p, int *out)
{
    if (parse_unary(p, out))
        return -1;
    while (cur(p)->kind == T_STAR && starts_operand(p, 1)) {
        const lex_tok_t t = *cur(p);
        advance(p);
        int r;
        if (parse_unary(p, &r))
            return -1;
        cat_ty_t lt = ty_of(p, *out), rt = ty_of(p, r);
        if (lt != CAT_TY_SET || rt != CAT_TY_SET)
            return fail_at(p, &t,
                           "'*' (cartesian product) needs two sets, but the %s operand is %s",
                           lt != CAT_TY_SET ? "left" : "right", ty_name(CAT_TY_REL));
        *out = cat_node(p->sh->b, CAT_OP_R_PROD, *out, r, -1);
    }
    return 0;
}

typedef int (*level_fn)(parser_t *p, int *out);

/* One left-associative level: OPERAND (TOK OPERAND)*. SET_OP < 0 means the
 * operator takes relations only (';'). */
static int parse_level(parser_t *p, int *out, level_fn sub, int tok, int set_op, int rel_op)
{
    if (sub(p, out))
        return -1;
    while (cur(p)->kind == tok) {
        const lex_tok_t t = *cur(p);
        advance(p);
        int r;
        if (sub(p, &r))
            return -1;
        coerce_empty(p, out, &r);
        cat_ty_t lt = ty_of(p, *out), rt = ty_of(p, r);
        if (set_op < 0 && (lt != CAT_TY_REL || rt != CAT_TY_REL))
            return fail_at(p, &t, "';' (sequence) needs two relations, but the %s operand is a set",
                           lt != CAT_TY_REL ? "left" : "right");
        if (lt != rt)
            return fail_at(p, &t,
                           "'%c' needs two sets or two relations, but the left operand is %s "
                           "and the right %s",
                           p->src[t.off], ty_name(lt), ty_name(rt));
        *out = cat_node(p->sh->b, lt == CAT_TY_SET ? set_op : rel_op, *out, r, -1);
    }
    return 0;
}

static int parse_inter(parser_t *p, int *out)
{
    return parse_level(p, out, parse_prod, T_AMP, CAT_OP_S_INTER, CAT_OP_R_INTER);
}

static int parse_diff(parser_t *p, int *out)
{
    return parse_level(p, out, parse_inter, T_BSLASH, CAT_OP_S_DIFF, CAT_OP_R_DIFF);
}

static int parse_seq(parser_t *p, int *out)
{
    return parse_level(p, out, parse_diff, T_SEMI, -1, CAT_OP_R_SEQ);
}

static int parse_expr(parser_t *p, int *out)
{
    return parse_level(p, out, parse_seq, T_BAR, CAT_OP_S_UNION, CAT_OP_R_UNION);
}

static int parse_file(shared_t *sh, const char *file, const char *src, size_t len);

/* The directory part of FILE joined with NAME ("a/b.cat" + "c.cat" -> "a/c.cat"). */
static char *resolve(const char *file, const char *name)
{
    const char *slash = strrchr(file, '/');
    if (name[0] == '/' || !slash)
        return xstrdup(name);
    strbuf_t sb;
    sb_init(&sb);
    sb_putn(&sb, file, (size_t)(slash - file) + 1);
    sb_puts(&sb, name);
    return sb.s;
}

/* herd7's implicit standard library (its stdlib.cat and the C front end's
 * sets and relations), the part with a meaning in cohcheck's executions,
 * bound below every model; a model that uses one of these names is a herd7
 * model and sees herd7's C events, where an RMW is one event in R & W and rmw
 * is empty (cat_eval). cohcheck's C tests have no locks (LK, UL, LS, lo), no
 * consume (CON: read as acquire) and no dependencies (data, addr, ctrl).
 * MFENCE is the seq_cst fence (the usual C11-to-x86 mapping); sm, herd7's
 * same-instruction relation, is the identity on accesses that aren't mixed-size. */
static const char herd_prelude[] = "let po-loc = po & loc\n"
                                   "let rfe = rf & ext\n"
                                   "let rfi = rf & int\n"
                                   "let coi = co & int\n"
                                   "let coe = co \\ coi\n"
                                   "let fri = fr & int\n"
                                   "let fre = fr \\ fri\n"
                                   "let invrf = rf^-1\n"
                                   "let ACQ_REL = ACQREL\n"
                                   "let RMW = R & W\n"
                                   "let A = M & (RLX | ACQ | REL | ACQREL | SC)\n"
                                   "let NA = M \\ A\n"
                                   "let FW = W \\ domain(co)\n"
                                   "let co0 = loc & ((IW * (W \\ IW)) | ((W \\ FW) * FW))\n"
                                   "let emptyset = domain(0)\n"
                                   "let CON = emptyset\n"
                                   "let LK = emptyset\n"
                                   "let UL = emptyset\n"
                                   "let LS = emptyset\n"
                                   "let lo = 0\n"
                                   "let data = 0\n"
                                   "let addr = 0\n"
                                   "let ctrl = 0\n"
                                   "let MFENCE = F & SC\n"
                                   "let sm = [M]\n"
                                   "let toid(s) = [s]\n";

/* herd7's cross.cat defines generate_orders with 'let rec' and 'match'; the
 * one use herd's C models make of it, 'with X from generate_orders(S, co0)',
 * is read by parse_with itself. */
static const char herd_cross[] = "(* cross.cat: see parse_with *)\n";

/* herd7's cos.cat generates the candidate coherence orders and names their parts;
 * cohcheck enumerates every coherence order itself, so 'include "cos.cat"' binds
 * the names only. */
static const char herd_cos[] = "let invrf = rf^-1\n"
                               "let coi = co & int\n"
                               "let coe = co \\ coi\n"
                               "let fri = fr & int\n"
                               "let fre = fr \\ fri\n";

static int parse_include(parser_t *p)
{
    advance(p); /* 'include' */
    const lex_tok_t t = *cur(p);
    if (t.kind != T_STRING)
        return expected(p, "a quoted file name after 'include'");
    advance(p);
    if (t.len == 9 && !memcmp(p->src + t.off, "\"cos.cat\"", 9))
        return parse_file(p->sh, "<herd7's cos.cat>", herd_cos, sizeof herd_cos - 1);
    if (t.len == 11 && !memcmp(p->src + t.off, "\"cross.cat\"", 11))
        return parse_file(p->sh, "<herd7's cross.cat>", herd_cross, sizeof herd_cross - 1);
    char *name = xstrndup(p->src + t.off + 1, t.len - 2);
    char *path = resolve(p->file, name);
    struct stat lst;
    if (p->sh->libdir && name[0] != '/' && stat(path, &lst) != 0) {
        free(path);
        path = xmalloc(strlen(p->sh->libdir) + strlen(name) + 2);
        sprintf(path, "%s/%s", p->sh->libdir, name);
    }
    char *canon = NULL, *data = NULL;
    size_t len = 0;
    int rc = -1;
    if (!name[0] || memchr(p->src + t.off + 1, 0, t.len - 2)) {
        fail_at(p, &t, "bad include file name");
        goto out;
    }
    canon = realpath(path, NULL);
    struct stat st;
    if (!canon || stat(canon, &st) != 0) {
        fail_at(p, &t, "cannot include \"%s\": %s", path, strerror(errno));
        goto out;
    }
    if (!S_ISREG(st.st_mode)) { /* a directory, a device or a FIFO would not end well */
        fail_at(p, &t, "cannot include \"%s\": not a regular file", path);
        goto out;
    }
    for (int i = 0; i < p->sh->nstack; i++) {
        if (strcmp(p->sh->stack[i], canon) == 0) {
            fail_at(p, &t, "include cycle: \"%s\" is already being read", path);
            goto out;
        }
    }
    if (p->sh->nstack >= CAT_MAX_INCLUDE_DEPTH) {
        fail_at(p, &t, "includes nested too deeply (more than %d files)", CAT_MAX_INCLUDE_DEPTH);
        goto out;
    }
    if (util_read_file(path, &data, &len)) {
        fail_at(p, &t, "cannot include \"%s\": %s", path, strerror(errno));
        goto out;
    }
    p->sh->stack[p->sh->nstack++] = canon;
    UTIL_PUSH(p->sh->keep, p->sh->nkeep, p->sh->capkeep, (void *)data);
    rc = parse_file(p->sh, path, data, len);
    p->sh->nstack--;
    data = NULL; /* kept: its functions may be applied later */
out:
    free(canon);
    free(data);
    free(path);
    free(name);
    return rc;
}

/* ['flag'] ['~'] CHECK expr ['as' ID] */
static int parse_check(parser_t *p)
{
    shared_t *sh = p->sh;
    bool flag = false, neg = false, undef = false;
    const lex_tok_t start = *cur(p);
    if (cur(p)->kind == T_FLAG) {
        flag = true;
        advance(p);
    } else if (cur(p)->kind == T_ID) { /* undefined_unless: flag when the check fails */
        flag = undef = true;
        advance(p);
    }
    if (cur(p)->kind == T_TILDE) {
        neg = true;
        advance(p);
    }
    if (undef)
        neg = !neg;
    const lex_tok_t kw = *cur(p);
    cat_check_kind_t kind;
    switch (kw.kind) {
    case T_ACYCLIC: kind = CAT_CHECK_ACYCLIC; break;
    case T_IRREFLEXIVE: kind = CAT_CHECK_IRREFLEXIVE; break;
    case T_EMPTY: kind = CAT_CHECK_EMPTY; break;
    default: return expected(p, "acyclic, irreflexive or empty");
    }
    if (flag && sh->nflags >= CAT_MAX_FLAGS)
        return fail_at(p, &start, "too many flags (at most %d)", CAT_MAX_FLAGS);
    if (!flag && sh->nchecks >= UINT16_MAX)
        return fail_at(p, &start, "too many checks (at most %d)", UINT16_MAX);
    advance(p);
    const lex_tok_t first = *cur(p);
    int e;
    if (parse_expr(p, &e))
        return -1;
    if (kind != CAT_CHECK_EMPTY && ty_of(p, e) != CAT_TY_REL)
        return fail_at(p, &first, "%.*s needs a relation, got a set", (int)kw.len, p->src + kw.off);
    char *name = NULL;
    if (cur(p)->kind == T_AS) {
        advance(p);
        if (cur(p)->kind != T_ID)
            return expected(p, "a name after 'as'");
        name = xstrndup(p->src + cur(p)->off, cur(p)->len);
        advance(p);
    }
    cat_add_check(sh->b, kind, neg, flag, e, name);
    if (flag)
        sh->nflags++;
    else
        sh->nchecks++;
    return 0;
}

static bool tok_is(const parser_t *p, const lex_tok_t *t, const char *w)
{
    return t->kind == T_ID && t->len == strlen(w) && !memcmp(p->src + t->off, w, t->len);
}

/* herd7's cat has statements cohcheck's dialect lacks: the error names the one found. */
static int herd_feature(parser_t *p)
{
    static const char *const kw[] = {"if",     "procedure",    "call",   "match",     "enum",
                                     "forall", "instructions", "events", "relations", "assert"};
    const lex_tok_t *t = cur(p);
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (tok_is(p, t, kw[i]))
            return fail_at(p, t,
                           "herd7's '%s' is not supported by cohcheck's cat dialect "
                           "(docs/models.md, \"herd's cat and cohcheck's\")",
                           kw[i]);
    return expected(p, "'let', 'include', 'flag' or a check");
}

/* herd7's show/unshow E [as N], E, ...: what herd7 draws; nothing here. The
 * expressions are skipped, not read: herd7 too accepts names it does not know
 * there (aarch64fences.cat shows 'sb.st'). */
static int body_end(const parser_t *p, int i);

static int skip_show(parser_t *p)
{
    advance(p);
    for (;;) {
        int end = body_end(p, p->pos);
        if (end == p->pos)
            return expected(p, "an expression after show");
        p->pos = end;
        if (cur(p)->kind != T_AS)
            return 0;
        advance(p);
        if (cur(p)->kind != T_ID)
            return expected(p, "a name after 'as'");
        advance(p);
        if (cur(p)->kind != T_COMMA)
            return 0;
        advance(p);
    }
}

/* Where the body of a function that starts at token I ends: at the first
 * token, outside brackets and inner 'let ... in' and 'try ... with', that
 * starts a statement or a next definition ('and'). The body is read at each
 * application; this only finds the definition's extent. */
static int body_end(const parser_t *p, int i)
{
    static const char *const stop[] = {
        "show", "unshow", "undefined_unless", "procedure", "call", "if", "else", "end", "from"};
    int depth = 0, lets = 0, tries = 0;
    for (;; i++) {
        const lex_tok_t *t = &p->t[i];
        switch (t->kind) {
        case LEX_EOF:
        case T_INCLUDE:
        case T_FLAG:
        case T_ACYCLIC:
        case T_IRREFLEXIVE:
        case T_EMPTY:
        case T_HASHLINE:
        case T_AS: return i;
        case T_LPAREN:
        case T_LBRACK:
        case T_LBRACE: depth++; break;
        case T_RPAREN:
        case T_RBRACK:
        case T_RBRACE:
            if (depth-- == 0)
                return i;
            break;
        case T_TILDE: {
            int k = p->t[i + 1].kind;
            if (k == T_ACYCLIC || k == T_IRREFLEXIVE || k == T_EMPTY)
                return i;
            break;
        }
        case T_LET: {
            /* after an operand, a 'let' starts the next statement; else a 'let ... in' */
            int k = p->t[i - 1].kind;
            bool after_operand = k == T_ID || k == T_RPAREN || k == T_RBRACK || k == T_RBRACE ||
                                 k == T_ALL || k == T_ZERO || k == T_PLUS || k == T_QUEST ||
                                 k == T_INV || k == T_STAR;
            if (depth == 0 && lets == 0 && after_operand && !is_keyword(p, &p->t[i - 1]))
                return i;
            lets++;
            break;
        }
        case T_ID:
            for (size_t w = 0; w < sizeof stop / sizeof stop[0]; w++)
                if (tok_is(p, t, stop[w]))
                    return i;
            if (tok_is(p, t, "in") && lets == 0)
                return i;
            if (tok_is(p, t, "in"))
                lets--;
            else if (tok_is(p, t, "try"))
                tries++;
            else if (tok_is(p, t, "with") && tries-- == 0)
                return i;
            else if (tok_is(p, t, "and") && depth == 0 && lets == 0)
                return i;
            break;
        default: break;
        }
    }
}

/* '(' PARAM, ... ')' '=' BODY after a function's name; *NODE names it. */
static int parse_fn_def(parser_t *p, size_t def_nenv, int *node)
{
    shared_t *sh = p->sh;
    fn_t fn = {.file = p->file, .src = p->src, .t = p->t, .nt = p->nt, .def_nenv = def_nenv};
    advance(p);
    for (;;) {
        if (cur(p)->kind != T_ID || is_keyword(p, cur(p)))
            return expected(p, "a parameter name");
        if (fn.nparams == CAT_MAX_PARAMS)
            return fail_at(p, cur(p), "too many parameters (at most %d)", CAT_MAX_PARAMS);
        fn.params[fn.nparams++] = p->pos;
        advance(p);
        if (cur(p)->kind == T_COMMA) {
            advance(p);
            continue;
        }
        if (cur(p)->kind != T_RPAREN)
            return expected(p, "',' or ')'");
        advance(p);
        break;
    }
    if (cur(p)->kind != T_EQ)
        return expected(p, "'='");
    advance(p);
    fn.body = p->pos;
    fn.end = body_end(p, p->pos);
    if (fn.end == fn.body)
        return expected(p, "an expression");
    p->pos = fn.end;
    UTIL_PUSH(sh->fns, sh->nfns, sh->capfns, fn);
    *node = -2 - (int)(sh->nfns - 1);
    return 0;
}

/* 'let' ['rec'] B ['and' B]... with B := ID '=' expr | ID '(' PARAMS ')' '=' expr.
 * Each right-hand side sees the bindings before the 'let' only; all are
 * bound at the end. */
static int parse_bindings(parser_t *p)
{
    enum { MAX_AND = 64 };
    shared_t *sh = p->sh;
    advance(p); /* 'let' */
    if (tok_is(p, cur(p), "rec"))
        return fail_at(p, cur(p),
                       "not supported: herd7's 'let rec' (recursive definitions) "
                       "(docs/models.md, \"herd's cat and cohcheck's\")");
    size_t def_nenv = sh->b->nenv;
    int names[MAX_AND], nodes[MAX_AND], n = 0;
    for (;;) {
        const lex_tok_t id = *cur(p);
        if (id.kind != T_ID || is_keyword(p, &id))
            return expected(p, "a name after 'let'");
        if (n == MAX_AND)
            return fail_at(p, &id, "too many definitions joined by 'and' (at most %d)", MAX_AND);
        names[n] = p->pos;
        advance(p);
        if (cur(p)->kind == T_LPAREN) {
            if (parse_fn_def(p, def_nenv, &nodes[n]))
                return -1;
        } else if (cur(p)->kind == T_ID && peek(p, 1)->kind == T_EQ) {
            return fail_at(p, cur(p),
                           "not supported: herd7's curried functions ('let %.*s x = ...'; write "
                           "'let %.*s(x) = ...') (docs/models.md, \"herd's cat and cohcheck's\")",
                           (int)(id.len > 64 ? 64 : id.len), p->src + id.off,
                           (int)(id.len > 64 ? 64 : id.len), p->src + id.off);
        } else {
            if (cur(p)->kind != T_EQ)
                return expected(p, "'='");
            advance(p);
            if (parse_expr(p, &nodes[n]))
                return -1;
        }
        n++;
        if (!tok_is(p, cur(p), "and"))
            break;
        advance(p);
    }
    for (int i = 0; i < n; i++) /* bound after: no recursion */
        cat_bind(sh->b, p->src + p->t[names[i]].off, p->t[names[i]].len, nodes[i]);
    return 0;
}

/* Is set NODE made of writes only, as its expression shows (W, IW, the empty
 * set, an intersection with one of these, ...)? */
static bool only_writes(const cat_build_t *b, int node, int depth)
{
    const cat_node_t *x = &b->nodes[node];
    if (depth > CAT_MAX_DEPTH)
        return false;
    switch (x->op) {
    case CAT_OP_SET_IN: return x->a == CAT_SET_W || x->a == CAT_SET_IW;
    case CAT_OP_S_INTER: return only_writes(b, x->a, depth + 1) || only_writes(b, x->b, depth + 1);
    case CAT_OP_S_UNION: return only_writes(b, x->a, depth + 1) && only_writes(b, x->b, depth + 1);
    case CAT_OP_S_DIFF: return only_writes(b, x->a, depth + 1);
    case CAT_OP_S_DOMAIN:
    case CAT_OP_S_RANGE: return b->nodes[x->a].op == CAT_OP_ZERO;
    default: return false;
    }
}

/* herd7's 'with X from generate_orders(S, co0)': X ranges over the coherence
 * orders of the writes S. cohcheck enumerates every coherence order of all
 * writes itself (IW first), so X = co & (S * S): the restrictions of those
 * orders to S are exactly the per-location total orders of S that extend
 * co0 (IW first, each location's co-last write last). */
static int parse_with(parser_t *p)
{
    cat_build_t *b = p->sh->b;
    advance(p); /* 'with' */
    const lex_tok_t id = *cur(p);
    if (id.kind != T_ID || is_keyword(p, &id))
        return expected(p, "a name after 'with'");
    advance(p);
    if (!tok_is(p, cur(p), "from"))
        return expected(p, "'from'");
    advance(p);
    const lex_tok_t g = *cur(p);
    if (!tok_is(p, &g, "generate_orders") || peek(p, 1)->kind != T_LPAREN)
        return fail_at(p, &g,
                       "not supported: 'with ... from' over anything but generate_orders(S, "
                       "co0) (docs/models.md, \"herd's cat and cohcheck's\")");
    advance(p);
    advance(p);
    const lex_tok_t sf = *cur(p);
    int set, base;
    if (parse_expr(p, &set))
        return -1;
    if (cur(p)->kind != T_COMMA)
        return expected(p, "','");
    advance(p);
    const lex_tok_t bf = *cur(p);
    if (parse_expr(p, &base))
        return -1;
    if (cur(p)->kind != T_RPAREN)
        return expected(p, "')'");
    advance(p);
    if (ty_of(p, set) != CAT_TY_SET)
        return fail_at(p, &sf, "generate_orders(S, ...) needs a set, got a relation");
    bool none = set == empty_set(b);
    if (!none && !only_writes(b, set, 0))
        return fail_at(p, &sf,
                       "not supported: generate_orders over a set not written as writes only "
                       "('W & ...', IW, '{}') (docs/models.md, \"herd's cat and cohcheck's\")");
    if (!none && base != lookup(p, "co0", 3))
        return fail_at(p, &bf,
                       "not supported: generate_orders(S, R) with R other than co0 (cohcheck's "
                       "coherence orders extend co0 only) (docs/models.md, \"herd's cat and "
                       "cohcheck's\")");
    int co = cat_lookup_builtin(b, "co", 2);
    int x = cat_node(b, CAT_OP_R_INTER, co, cat_node(b, CAT_OP_R_PROD, set, set, -1), -1);
    cat_bind(b, p->src + id.off, id.len, x);
    return 0;
}

static int parse_stmts(parser_t *p)
{
    /* herd7's header: a model name of words on the first line ('C RC11', 'SC')
     * before the title or the first statement; taken as the title. */
    int k = 0;
    while (peek(p, k)->kind == T_ID && peek(p, k)->line == 1)
        k++;
    if (k > 0 && !tok_is(p, cur(p), "show") && peek(p, k)->kind != LEX_EOF &&
        (peek(p, k)->line > 1 || peek(p, k)->kind == T_STRING)) {
        const lex_tok_t *h = cur(p), *last = peek(p, k - 1);
        if (p->sh->nstack <= 1 && !p->sh->title && peek(p, k)->kind != T_STRING)
            p->sh->title = xstrndup(p->src + h->off, last->off + last->len - h->off);
        for (; k > 0; k--)
            advance(p);
        p->sh->herd = true;
    }
    if (cur(p)->kind == T_STRING) { /* optional title */
        if (p->sh->nstack <= 1 && !p->sh->title)
            p->sh->title = xstrndup(p->src + cur(p)->off + 1, cur(p)->len - 2);
        advance(p);
    }
    while (cur(p)->kind != LEX_EOF) {
        if (cur(p)->kind == T_HASHLINE) {
            advance(p);
            continue;
        }
        if (tok_is(p, cur(p), "show") || tok_is(p, cur(p), "unshow")) {
            if (skip_show(p))
                return -1;
            continue;
        }
        switch (cur(p)->kind) {
        case T_LET:
            if (parse_bindings(p))
                return -1;
            break;
        case T_INCLUDE:
            if (parse_include(p))
                return -1;
            break;
        case T_FLAG:
        case T_TILDE:
        case T_ACYCLIC:
        case T_IRREFLEXIVE:
        case T_EMPTY:
            if (parse_check(p))
                return -1;
            break;
        default:
            if (tok_is(p, cur(p), "with")) {
                if (parse_with(p))
                    return -1;
                break;
            }
            if (tok_is(p, cur(p), "undefined_unless")) {
                /* herd7's undefined_unless CHECK E as N: a flag raised when CHECK fails */
                if (parse_check(p))
                    return -1;
                break;
            }
            return herd_feature(p);
        }
    }
    return 0;
}

static int parse_file(shared_t *sh, const char *file, const char *src, size_t len)
{
    parser_t p = {.sh = sh, .file = file, .src = src, .len = len};
    if (lex_run(sh->spec, file, src, len, &p.t, &p.nt, sh->err))
        return -1;
    UTIL_PUSH(sh->keep, sh->nkeep, sh->capkeep, (void *)p.t);
    return parse_stmts(&p);
}

int cat_parse(const char *name, const char *file, const char *src, size_t len, cat_model_t **out,
              diag_t *err)
{
    return cat_parse_lib(name, file, src, len, NULL, out, err);
}

int cat_parse_lib(const char *name, const char *file, const char *src, size_t len,
                  const char *libdir, cat_model_t **out, diag_t *err)
{
    lex_spec_t *spec;
    if (lex_spec_new(cat_rules, (int)(sizeof cat_rules / sizeof cat_rules[0]), &spec, err))
        return -1;
    if (!file)
        file = "<model>";
    cat_build_t b;
    cat_build_init(&b);
    char *stack[CAT_MAX_INCLUDE_DEPTH + 1];
    shared_t sh = {.b = &b, .spec = spec, .err = err, .stack = stack, .libdir = libdir};
    char *canon = realpath(file, NULL); /* NULL for a source with no file: fine */
    stack[sh.nstack++] = canon ? canon : xstrdup("");
    int rc = parse_file(&sh, "<herd7's stdlib>", herd_prelude, sizeof herd_prelude - 1);
    sh.nprelude = b.nenv;
    if (rc == 0)
        rc = parse_file(&sh, file, src, len);
    if (rc == 0)
        *out = cat_compile(&b, name, sh.title ? sh.title : name, sh.herd);
    free(stack[0]);
    free(sh.title);
    for (size_t i = 0; i < sh.nkeep; i++)
        free(sh.keep[i]);
    free(sh.keep);
    free(sh.fns);
    cat_build_free(&b);
    lex_spec_free(spec);
    return rc;
}

int cat_load(const char *path, cat_model_t **out, diag_t *err)
{
    return cat_load_lib(path, NULL, out, err);
}

int cat_load_lib(const char *path, const char *libdir, cat_model_t **out, diag_t *err)
{
    char *data;
    size_t len;
    struct stat st;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        diag_set(err, path, 0, 0, "cannot read model: not a regular file");
        return -1;
    }
    if (util_read_file(path, &data, &len)) {
        diag_set(err, path, 0, 0, "cannot read model: %s", strerror(errno));
        return -1;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 4 && strcmp(base + n - 4, ".cat") == 0)
        n -= 4;
    char *name = xstrndup(base, n);
    int rc = cat_parse_lib(name, path, data, len, libdir, out, err);
    free(name);
    free(data);
    return rc;
}
