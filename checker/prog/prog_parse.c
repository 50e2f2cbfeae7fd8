/* prog_parse.c - litmus file parser (docs/architecture.md section 2, normative).
 * The header line is scanned by hand (test names may contain '+', '-', '.');
 * the rest is tokenised by the shared PCRE2 lexer and parsed by recursive
 * descent. Invariant: on success every name in the program resolves (threads,
 * registers, locations, labels); on failure exactly one diagnostic is set and
 * nothing is leaked. */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../base/util.h"
#include "../lex/lex.h"
#include "prog.h"

enum {
    T_IDENT = 1,
    T_NUM,
    T_STRING,
    T_LBRACE,
    T_RBRACE,
    T_SEMI,
    T_BAR,
    T_EQ,
    T_LPAREN,
    T_RPAREN,
    T_COLON,
    T_AT,
    T_AND,
    T_OR,
    T_NOT,
    T_BAD_COMMENT,
    T_BAD_STRING,
    /* scale files (params, templates, arrays; docs/litmus.md) */
    T_LBRACK,
    T_RBRACK,
    T_PLUS,
    T_MINUS,
    T_STAR,
    T_SLASH,
    T_PERCENT,
    T_DOTDOT,
};

static const lex_rule_t rules[] = {
    {-1, "[ \\t\\r\\n\\f\\v]+"},
    {-1, "\\(\\*[\\s\\S]*?\\*\\)"},
    {T_BAD_COMMENT, "\\(\\*"},
    {T_STRING, "\"[^\"\\n]*\""},
    {T_BAD_STRING, "\""},
    {T_IDENT, "[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z0-9_]+)*"},
    {T_NUM, "[0-9]+"},
    {T_LBRACE, "\\{"},
    {T_RBRACE, "\\}"},
    {T_SEMI, ";"},
    {T_BAR, "\\|"},
    {T_EQ, "="},
    {T_LPAREN, "\\("},
    {T_RPAREN, "\\)"},
    {T_COLON, ":"},
    {T_AT, "@"},
    {T_AND, "/\\\\"},
    {T_OR, "\\\\/"},
    {T_NOT, "~"},
    {T_LBRACK, "\\["},
    {T_RBRACK, "\\]"},
    {T_PLUS, "\\+"},
    {T_MINUS, "-"},
    {T_STAR, "\\*"},
    {T_SLASH, "/"},
    {T_PERCENT, "%"},
    {T_DOTDOT, "\\.\\."},
};

#define MAX_COND_DEPTH 200

typedef struct {
    char *name;
    int index; /* instruction index */
    int line, col;
} label_t;

typedef struct {
    char *name; /* unresolved branch target */
    int instr;
    int line, col;
} fixup_t;

static uint64_t name_hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

/* Names to ints by open addressing (a thread's labels; names owned elsewhere). */
typedef struct {
    const char **k;
    int *v;
    size_t cap, n;
} nmap_t;

static int nmap_get(const nmap_t *m, const char *s)
{
    if (!m->cap)
        return -1;
    size_t mask = m->cap - 1;
    for (size_t h = name_hash(s, strlen(s)) & mask; m->k[h]; h = (h + 1) & mask)
        if (!strcmp(m->k[h], s))
            return m->v[h];
    return -1;
}

static void nmap_put(nmap_t *m, const char *s, int v)
{
    if ((m->n + 1) * 2 > m->cap) {
        nmap_t g = {NULL, NULL, m->cap ? m->cap * 2 : 16, 0};
        g.k = xcalloc(g.cap, sizeof *g.k);
        g.v = xcalloc(g.cap, sizeof *g.v);
        for (size_t i = 0; i < m->cap; i++)
            if (m->k[i])
                nmap_put(&g, m->k[i], m->v[i]);
        free(m->k);
        free(m->v);
        *m = g;
    }
    size_t mask = m->cap - 1;
    size_t h = name_hash(s, strlen(s)) & mask;
    while (m->k[h] && strcmp(m->k[h], s))
        h = (h + 1) & mask;
    if (!m->k[h])
        m->n++;
    m->k[h] = s;
    m->v[h] = v;
}

typedef struct {
    prog_instr_t *instr;
    size_t n, cap;
    label_t *labels;
    size_t nlabels, caplabels;
    fixup_t *fix;
    size_t nfix, capfix;
    label_t *pending; /* labels seen since the last instruction */
    size_t npending, cappending;
    uint32_t regs_used;
    nmap_t names; /* every label defined so far (then: name -> instruction) */
} thread_build_t;

/* A name bound while expanding a scale file: a param or let, a template's
 * first thread, tid/wg/cu inside a template, a `for` or quantifier variable. */
typedef enum { B_PARAM, B_LET, B_TEMPLATE, B_VAR } bind_kind_t;

typedef struct {
    char *name;
    prog_val_t v;
    bind_kind_t kind;
} bind_t;

typedef struct {
    const char *file;
    const char *src;
    size_t len;
    lex_tok_t *toks;
    int ntoks;
    int pos;
    diag_t *err;
    prog_t *p;
    size_t loccap;
    thread_build_t *tb;
    int cond_depth;
    /* Parallel to p->locs: initialised yet, union-find parent for sameline. */
    bool *init_seen;
    int *uf;
    /* Location names by hash: slot holds index + 1, 0 when empty. */
    int *lhash;
    size_t lhcap;
    /* Scale files: literal limit PROG_MAX_SCALE_VAL; bound names, innermost last. */
    bool scale;
    bool wide; /* a C test's translation: literals are any int64 (herd7's values) */
    bind_t *env;
    size_t nenv, capenv;
    const prog_setting_t *set;
    int nset;
    bool *set_used;
    bool strict;   /* PROG_PARAMS_STRICT */
    bool timed;    /* PROG_PARAMS_TIMED: `param N = E timed T` takes T */
    strbuf_t lsfx; /* label suffix of the `for` iterations being expanded */
    int expr_depth;
    size_t threadcap;
    int *wgcu; /* per work-group: its compute unit, -1 unplaced */
    size_t capwgcu;
    uint32_t *regs_used; /* per thread: registers it names */
    size_t capregs;
    long work; /* expansion steps so far: instructions, iterations, instances */
    /* Kernels (docs/litmus.md, "Kernels"): arrays addressed through a register
       (name -> first location, extent) and read-only tables (DIST[v]). */
    struct arr {
        char *name;
        int base, len;
    } * arrs;
    size_t narrs, caparrs;
    struct table {
        char *name;
        prog_val_t *v;
        long len;
    } * tables;
    size_t ntables, captables;
    bool graph; /* a `graph` input: locations up to PROG_MAX_INPUT_LOCS */
} parser_t;

/* Locations (and array indices) a file with a `graph` input may have. */
#define PROG_MAX_INPUT_LOCS (1L << 23)

/* Expansion steps a scale file may take (instructions, `for`, `all`/`any` and
 * template iterations): a bound on parse time and memory. */
#define PROG_MAX_EXPANSION (1L << 22)

/* ---- helpers ---- */

static const lex_tok_t *peek(parser_t *ps)
{
    return &ps->toks[ps->pos];
}
static const lex_tok_t *next(parser_t *ps)
{
    const lex_tok_t *t = &ps->toks[ps->pos];
    if (t->kind != LEX_EOF)
        ps->pos++;
    return t;
}

static bool tok_is(parser_t *ps, const lex_tok_t *t, const char *word)
{
    return t->kind == T_IDENT && t->len == strlen(word) && !memcmp(ps->src + t->off, word, t->len);
}

static void tok_text(parser_t *ps, const lex_tok_t *t, char *buf, size_t n)
{
    if (t->kind == LEX_EOF) {
        snprintf(buf, n, "end of file");
        return;
    }
    size_t l = t->len < n - 3 ? t->len : n - 3;
    snprintf(buf, n, "'%.*s'", (int)l, ps->src + t->off);
}

static int fail_at(parser_t *ps, const lex_tok_t *t, const char *fmt, const char *arg)
{
    char msg[DIAG_MSG_MAX];
    snprintf(msg, sizeof msg, fmt, arg);
    diag_set(ps->err, ps->file, t->line, t->col, "%s", msg);
    return -1;
}

/* Count one expansion step at T; -1 with an error past the bound. */
static int work(parser_t *ps, const lex_tok_t *t)
{
    if (++ps->work <= PROG_MAX_EXPANSION)
        return 0;
    diag_set(ps->err, ps->file, t->line, t->col,
             "expansion too large (more than %ld instructions and iterations)", PROG_MAX_EXPANSION);
    return -1;
}

static int expected(parser_t *ps, const char *what)
{
    char got[64];
    const lex_tok_t *t = peek(ps);
    tok_text(ps, t, got, sizeof got);
    diag_set(ps->err, ps->file, t->line, t->col, "expected %s, found %s", what, got);
    return -1;
}

static int expect(parser_t *ps, int kind, const char *what)
{
    if (peek(ps)->kind != kind)
        return expected(ps, what);
    next(ps);
    return 0;
}

/* Parse a decimal number token into *V, bounded by MAX (exclusive). */
static int number(parser_t *ps, const lex_tok_t *t, long long max, prog_val_t *v)
{
    long long x = 0;
    for (size_t i = 0; i < t->len; i++) {
        int d = ps->src[t->off + i] - '0';
        if (x > (max - d) / 10 || x * 10 + d >= max) {
            diag_set(ps->err, ps->file, t->line, t->col, "value '%.*s' out of range (0..%lld)",
                     (int)(t->len > 20 ? 20 : t->len), ps->src + t->off, max - 1);
            return -1;
        }
        x = x * 10 + d;
    }
    *v = x;
    return 0;
}

/* A literal of a plain (non-scale) test: '-'? DIGITS, any 64-bit signed value
 * (herd7's C values; docs/litmus.md "Values"). T is the first token. */
static int signed_number(parser_t *ps, prog_val_t *v)
{
    const lex_tok_t *t = peek(ps);
    bool neg = t->kind == T_MINUS;
    if (neg) {
        next(ps);
        if (peek(ps)->kind != T_NUM || peek(ps)->off != t->off + 1)
            return fail_at(ps, t, "expected a number right after %s", "'-'");
    }
    const lex_tok_t *d = next(ps);
    unsigned long long x = 0, lim = neg ? (unsigned long long)INT64_MAX + 1 : INT64_MAX;
    for (size_t i = 0; i < d->len; i++) {
        unsigned dg = (unsigned)(ps->src[d->off + i] - '0');
        if (x > (lim - dg) / 10) {
            diag_set(ps->err, ps->file, t->line, t->col,
                     "value %s%.*s does not fit in 64 bits (%lld..%lld)", neg ? "-" : "",
                     (int)(d->len > 24 ? 24 : d->len), ps->src + d->off, (long long)INT64_MIN,
                     (long long)INT64_MAX);
            return -1;
        }
        x = x * 10 + dg;
    }
    *v = neg ? (prog_val_t)(0 - x) : (prog_val_t)x;
    return 0;
}

static bool at_signed_number(parser_t *ps)
{
    const lex_tok_t *t = peek(ps);
    return t->kind == T_NUM || (t->kind == T_MINUS && ps->toks[ps->pos + 1].kind == T_NUM);
}
static bool valid_loc_name(const char *s, size_t n)
{
    if (n == 0 || !(s[0] >= 'a' && s[0] <= 'z'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '_'))
            return false;
    return true;
}

/* Is T a register name r0..r15? Sets *R. */
static bool is_reg(parser_t *ps, const lex_tok_t *t, int *r)
{
    const char *s = ps->src + t->off;
    if (t->kind != T_IDENT || t->len < 2 || t->len > 3 || s[0] != 'r')
        return false;
    int x = 0;
    for (size_t i = 1; i < t->len; i++) {
        if (!isdigit((unsigned char)s[i]))
            return false;
        x = x * 10 + (s[i] - '0');
    }
    if ((t->len == 3 && s[1] == '0') || x >= PROG_MAX_REGS)
        return false;
    *r = x;
    return true;
}

/* A native table's values are 0..255 (the litmus format's VAL); a scale file's are below
 * PROG_MAX_SCALE_VAL; a C test's (translated, ps->wide) are any int64. */
#define TABLE_MAX_VAL 256
static long long max_val(const parser_t *ps)
{
    return ps->scale ? PROG_MAX_SCALE_VAL : ps->wide ? INT64_MAX : TABLE_MAX_VAL;
}

static long loc_limit(const parser_t *ps)
{
    return ps->graph ? PROG_MAX_INPUT_LOCS : PROG_MAX_SCALE_LOCS;
}

static int too_many_locs(parser_t *ps, const lex_tok_t *t)
{
    char n[24];
    snprintf(n, sizeof n, "%ld", loc_limit(ps));
    return fail_at(ps, t, "too many locations (at most %s)", n);
}

/* ---- names and expressions (scale files) ---- */

static bind_t *env_find(parser_t *ps, const char *s, size_t n)
{
    for (size_t i = ps->nenv; i-- > 0;)
        if (strlen(ps->env[i].name) == n && !memcmp(ps->env[i].name, s, n))
            return &ps->env[i];
    return NULL;
}

static void env_push(parser_t *ps, const char *s, size_t n, prog_val_t v, bind_kind_t k)
{
    bind_t b = {xstrndup(s, n), v, k};
    UTIL_PUSH(ps->env, ps->nenv, ps->capenv, b);
}

static void env_pop(parser_t *ps)
{
    free(ps->env[--ps->nenv].name);
}

/* Is T a name bound in the environment? */
static bool tok_bound(parser_t *ps, const lex_tok_t *t)
{
    return t->kind == T_IDENT && env_find(ps, ps->src + t->off, t->len) != NULL;
}

#define EXPR_LIMIT (1LL << 40) /* intermediate results stay within +-2^40 */

static int parse_expr(parser_t *ps, prog_val_t *v);

/* TABLE[E]: an element of a read-only table (the `graph` input's DIST). */
static int table_elem(parser_t *ps, const struct table *tb, prog_val_t *v)
{
    next(ps);
    next(ps); /* '[' */
    const lex_tok_t *it = peek(ps);
    prog_val_t i;
    if (parse_expr(ps, &i) || expect(ps, T_RBRACK, "']' after the index"))
        return -1;
    if (i < 0 || i >= tb->len) {
        diag_set(ps->err, ps->file, it->line, it->col, "index %lld out of range of %s (0..%ld)",
                 (long long)i, tb->name, tb->len - 1);
        return -1;
    }
    *v = tb->v[i];
    return 0;
}

static int parse_primary(parser_t *ps, prog_val_t *v)
{
    const lex_tok_t *t = peek(ps);
    if (t->kind == T_NUM) {
        next(ps);
        return number(ps, t, EXPR_LIMIT, v);
    }
    if (t->kind == T_LPAREN || t->kind == T_MINUS) {
        if (++ps->expr_depth > MAX_COND_DEPTH)
            return fail_at(ps, t, "expression nested too deeply (more than %s levels)", "200");
        next(ps);
        int rc = t->kind == T_LPAREN ? parse_expr(ps, v) : parse_primary(ps, v);
        ps->expr_depth--;
        if (rc)
            return -1;
        if (t->kind == T_MINUS) {
            *v = -*v;
            return 0;
        }
        return expect(ps, T_RPAREN, "')' closing the expression");
    }
    if (t->kind == T_IDENT && ps->toks[ps->pos + 1].kind == T_LBRACK)
        for (size_t i = 0; i < ps->ntables; i++)
            if (strlen(ps->tables[i].name) == t->len &&
                !memcmp(ps->tables[i].name, ps->src + t->off, t->len))
                return table_elem(ps, &ps->tables[i], v);
    if (t->kind == T_IDENT) {
        const bind_t *b = env_find(ps, ps->src + t->off, t->len);
        if (!b) {
            char n[64];
            snprintf(n, sizeof n, "%.*s", (int)(t->len > 40 ? 40 : t->len), ps->src + t->off);
            return fail_at(
                ps, t, "unknown name '%s' (not a parameter, let, template or loop variable)", n);
        }
        next(ps);
        *v = b->v;
        return 0;
    }
    return expected(ps, "a number, a parameter or '('");
}

static int arith(parser_t *ps, const lex_tok_t *op, prog_val_t a, prog_val_t b, prog_val_t *r)
{
    long long x;
    switch (op->kind) {
    case T_PLUS: x = a + b; break;
    case T_MINUS: x = a - b; break;
    case T_STAR:
        if (__builtin_mul_overflow(a, b, &x))
            x = EXPR_LIMIT;
        break;
    default:
        if (b == 0)
            return fail_at(ps, op, "division by zero%s", "");
        /* Both round down, so (tid - 1) % N is in 0..N-1 for N > 0. */
        x = op->kind == T_SLASH ? a / b : a % b;
        if (op->kind == T_PERCENT && x != 0 && (x < 0) != (b < 0))
            x += b;
        else if (op->kind == T_SLASH && (a % b != 0) && ((a < 0) != (b < 0)))
            x -= 1;
        break;
    }
    if (x >= EXPR_LIMIT || x <= -EXPR_LIMIT)
        return fail_at(ps, op, "arithmetic overflow (beyond 2^40)%s", "");
    *r = x;
    return 0;
}

static int parse_term(parser_t *ps, prog_val_t *v)
{
    if (parse_primary(ps, v))
        return -1;
    while (peek(ps)->kind == T_STAR || peek(ps)->kind == T_SLASH || peek(ps)->kind == T_PERCENT) {
        const lex_tok_t *op = next(ps);
        prog_val_t b;
        if (parse_primary(ps, &b) || arith(ps, op, *v, b, v))
            return -1;
    }
    return 0;
}

/* E := T (('+'|'-') T)*, T := P (('*'|'/'|'%') P)*, P := NUM | NAME | '(' E ')' | '-' P */
static int parse_expr(parser_t *ps, prog_val_t *v)
{
    if (parse_term(ps, v))
        return -1;
    while (peek(ps)->kind == T_PLUS || peek(ps)->kind == T_MINUS) {
        const lex_tok_t *op = next(ps);
        prog_val_t b;
        if (parse_term(ps, &b) || arith(ps, op, *v, b, v))
            return -1;
    }
    return 0;
}

/* An expression whose value must lie in LO..HI-1 (WHAT names it in the error). */
static int parse_expr_in(parser_t *ps, long long lo, long long hi, const char *what, prog_val_t *v)
{
    const lex_tok_t *t = peek(ps);
    if (parse_expr(ps, v))
        return -1;
    if (*v < lo || *v >= hi) {
        diag_set(ps->err, ps->file, t->line, t->col, "%s %lld out of range (%lld..%lld)", what,
                 (long long)*v, lo, hi - 1);
        return -1;
    }
    return 0;
}

static void lhash_insert(parser_t *ps, int idx)
{
    const char *nm = ps->p->locs[idx].name;
    size_t m = ps->lhcap - 1;
    for (size_t h = name_hash(nm, strlen(nm)) & m;; h = (h + 1) & m)
        if (!ps->lhash[h]) {
            ps->lhash[h] = idx + 1;
            return;
        }
}

/* Find or (when CREATE) add location NAME; returns its index or -1. */
static int loc_index(parser_t *ps, const char *s, size_t n, bool create)
{
    prog_t *p = ps->p;
    if (ps->lhcap) {
        size_t m = ps->lhcap - 1;
        for (size_t h = name_hash(s, n) & m; ps->lhash[h]; h = (h + 1) & m) {
            int i = ps->lhash[h] - 1;
            if (strlen(p->locs[i].name) == n && !memcmp(p->locs[i].name, s, n))
                return i;
        }
    }
    if (!create)
        return -1;
    if ((size_t)(p->nlocs + 1) * 2 > ps->lhcap) {
        free(ps->lhash);
        ps->lhcap = ps->lhcap ? ps->lhcap * 2 : 64;
        ps->lhash = xcalloc(ps->lhcap, sizeof *ps->lhash);
        for (int i = 0; i < p->nlocs; i++)
            lhash_insert(ps, i);
    }
    size_t cap = ps->loccap;
    util_grow((void **)&p->locs, &ps->loccap, (size_t)p->nlocs + 1, sizeof *p->locs);
    if (ps->loccap != cap) {
        ps->init_seen = xrealloc(ps->init_seen, ps->loccap * sizeof *ps->init_seen);
        ps->uf = xrealloc(ps->uf, ps->loccap * sizeof *ps->uf);
    }
    prog_loc_t l = {xstrndup(s, n), 0, -1, 0, 0};
    p->locs[p->nlocs] = l;
    ps->init_seen[p->nlocs] = false;
    ps->uf[p->nlocs] = p->nlocs;
    lhash_insert(ps, p->nlocs);
    return p->nlocs++;
}

/* A location's name: an identifier [a-z][a-z0-9_]* that is not a register,
 * then in a scale file any number of indices [E] ("data[3]", "lock[1][0]"). */
static int parse_loc_name(parser_t *ps, strbuf_t *name)
{
    const lex_tok_t *t = peek(ps);
    int r;
    if (t->kind != T_IDENT || is_reg(ps, t, &r) || !valid_loc_name(ps->src + t->off, t->len))
        return expected(ps, "a location name ([a-z][a-z0-9_]*)");
    next(ps);
    sb_putn(name, ps->src + t->off, t->len);
    while (peek(ps)->kind == T_LBRACK) {
        next(ps);
        prog_val_t v;
        if (parse_expr_in(ps, 0, loc_limit(ps), "index", &v) ||
            expect(ps, T_RBRACK, "']' after the index"))
            return -1;
        sb_printf(name, "[%lld]", (long long)v);
    }
    return 0;
}

/* A location operand, created on first use. */
static int parse_loc(parser_t *ps, int *loc)
{
    const lex_tok_t *t = peek(ps);
    strbuf_t name;
    sb_init(&name);
    int rc = parse_loc_name(ps, &name);
    if (!rc) {
        *loc = loc_index(ps, name.s, name.len, false);
        if (*loc < 0 && ps->p->nlocs >= loc_limit(ps))
            rc = too_many_locs(ps, t);
        else if (*loc < 0)
            *loc = loc_index(ps, name.s, name.len, true);
    }
    sb_free(&name);
    return rc;
}

/* Array NAME for a register-indexed access: the locations NAME[0], NAME[1], ...
 * that follow each other in the program (an initial-state range or a graph
 * input), found once and remembered. */
static int find_array(parser_t *ps, const lex_tok_t *t, int *base, int *len)
{
    for (size_t i = 0; i < ps->narrs; i++)
        if (strlen(ps->arrs[i].name) == t->len &&
            !memcmp(ps->arrs[i].name, ps->src + t->off, t->len)) {
            *base = ps->arrs[i].base;
            *len = ps->arrs[i].len;
            return 0;
        }
    strbuf_t nm;
    sb_init(&nm);
    sb_printf(&nm, "%.*s[0]", (int)t->len, ps->src + t->off);
    int b = loc_index(ps, nm.s, nm.len, false), k = 1;
    for (; b >= 0 && b + k < ps->p->nlocs; k++) {
        nm.len = 0;
        sb_printf(&nm, "%.*s[%d]", (int)t->len, ps->src + t->off, k);
        if (strcmp(ps->p->locs[b + k].name, nm.s))
            break;
    }
    sb_free(&nm);
    if (b < 0) {
        diag_set(ps->err, ps->file, t->line, t->col,
                 "array %.*s is addressed through a register: give its elements in the initial "
                 "state in one range (%.*s[0..N-1] = V) or by a graph input",
                 (int)(t->len > 40 ? 40 : t->len), ps->src + t->off,
                 (int)(t->len > 40 ? 40 : t->len), ps->src + t->off);
        return -1;
    }
    struct arr a = {xstrndup(ps->src + t->off, t->len), b, k};
    UTIL_PUSH(ps->arrs, ps->narrs, ps->caparrs, a);
    *base = b;
    *len = k;
    return 0;
}

/* A memory operand: a location, or NAME[rK], NAME[rK + E], NAME[rK - E]:
 * element rK + E of array NAME, chosen when the instruction runs. */
static int parse_mem_loc(parser_t *ps, prog_instr_t *in)
{
    const lex_tok_t *t = peek(ps);
    int r, x;
    if (t->kind != T_IDENT || ps->pos + 2 >= ps->ntoks || ps->toks[ps->pos + 1].kind != T_LBRACK ||
        !is_reg(ps, &ps->toks[ps->pos + 2], &r) || is_reg(ps, t, &x) ||
        !valid_loc_name(ps->src + t->off, t->len))
        return parse_loc(ps, &in->loc);
    next(ps);
    next(ps);
    next(ps);
    ps->tb->regs_used |= 1u << r;
    prog_val_t off = 0;
    const lex_tok_t *op = peek(ps);
    if (op->kind == T_PLUS || op->kind == T_MINUS) {
        next(ps);
        if (parse_expr_in(ps, 0, loc_limit(ps), "index offset", &off))
            return -1;
        if (op->kind == T_MINUS)
            off = -off;
    }
    if (expect(ps, T_RBRACK, "']' after the index (NAME[rK], NAME[rK + E] or NAME[rK - E])"))
        return -1;
    in->indexed = true;
    in->idx_reg = r;
    in->idx_off = (int)off;
    return find_array(ps, t, &in->loc, &in->idx_len);
}

static int parse_reg(parser_t *ps, int *reg)
{
    const lex_tok_t *t = peek(ps);
    if (!is_reg(ps, t, reg))
        return expected(ps, "a register (r0..r15)");
    next(ps);
    ps->tb->regs_used |= 1u << *reg;
    return 0;
}

/* VAL | REG */
static int parse_operand(parser_t *ps, prog_operand_t *o)
{
    const lex_tok_t *t = peek(ps);
    int r;
    if (ps->wide && at_signed_number(ps)) {
        o->is_reg = false;
        return signed_number(ps, &o->v);
    }
    if (t->kind == T_NUM) {
        next(ps);
        o->is_reg = false;
        return number(ps, t, max_val(ps), &o->v);
    }
    if (is_reg(ps, t, &r)) {
        next(ps);
        ps->tb->regs_used |= 1u << r;
        o->is_reg = true;
        o->v = r;
        return 0;
    }
    if (t->kind == T_LPAREN || (ps->scale && t->kind == T_IDENT)) {
        o->is_reg = false;
        prog_val_t v;
        if (parse_primary(ps, &v))
            return -1;
        if (!ps->wide && (v < 0 || v >= max_val(ps))) {
            diag_set(ps->err, ps->file, t->line, t->col, "value %lld out of range (0..%lld)",
                     (long long)v, max_val(ps) - 1);
            return -1;
        }
        o->v = v;
        return 0;
    }
    if (ps->scale)
        return expected(ps, "a value, a register, a parameter or '(' EXPRESSION ')'");
    return expected(ps, ps->wide ? "a value or a register" : "a value (0..255) or a register");
}

/* ---- header: "GPU NAME" and the optional description ---- */

/* Skip whitespace and (* comments *) from *OFF; returns -1 on an unterminated comment. */
static int skip_blank(parser_t *ps, size_t *off, int *line, int *col)
{
    const char *s = ps->src;
    while (*off < ps->len) {
        char c = s[*off];
        if (c == '\n') {
            (*line)++;
            *col = 1;
            (*off)++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            (*col)++;
            (*off)++;
        } else if (c == '(' && *off + 1 < ps->len && s[*off + 1] == '*') {
            int l0 = *line, c0 = *col;
            size_t i = *off + 2;
            *col += 2;
            while (i + 1 < ps->len && !(s[i] == '*' && s[i + 1] == ')')) {
                if (s[i] == '\n') {
                    (*line)++;
                    *col = 1;
                } else {
                    (*col)++;
                }
                i++;
            }
            if (i + 1 >= ps->len) {
                diag_set(ps->err, ps->file, l0, c0, "unterminated comment");
                return -1;
            }
            *col += 2;
            *off = i + 2;
        } else {
            break;
        }
    }
    return 0;
}

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || (c && strchr("_.+-", c)); /* strchr finds the NUL too */
}

/* Scan "GPU NAME" by hand; returns the offset where tokenising starts. */
static int parse_header(parser_t *ps, size_t *start, int *line, int *col)
{
    size_t off = 0;
    *line = 1;
    *col = 1;
    if (skip_blank(ps, &off, line, col))
        return -1;
    const char *s = ps->src;
    if (off + 3 > ps->len || memcmp(s + off, "GPU", 3) ||
        (off + 3 < ps->len && name_char(s[off + 3]))) {
        diag_set(ps->err, ps->file, *line, *col,
                 "expected 'GPU' and the test name on the first line");
        return -1;
    }
    off += 3;
    *col += 3;
    if (off >= ps->len || (s[off] != ' ' && s[off] != '\t')) {
        diag_set(ps->err, ps->file, *line, *col, "expected the test name after 'GPU'");
        return -1;
    }
    while (off < ps->len && (s[off] == ' ' || s[off] == '\t')) {
        off++;
        (*col)++;
    }
    size_t b = off;
    while (off < ps->len && name_char(s[off]))
        off++;
    if (off == b) {
        diag_set(ps->err, ps->file, *line, *col,
                 "expected the test name ([A-Za-z0-9_.+-]+) after 'GPU'");
        return -1;
    }
    ps->p->name = xstrndup(s + b, off - b);
    *col += (int)(off - b);
    /* The rest of the header line must be blank (a comment is fine). */
    while (off < ps->len && (s[off] == ' ' || s[off] == '\t' || s[off] == '\r')) {
        off++;
        (*col)++;
    }
    if (off < ps->len && s[off] != '\n' &&
        !(s[off] == '(' && off + 1 < ps->len && s[off + 1] == '*')) {
        char what[32];
        lex_describe(s, ps->len, off, what, sizeof what);
        diag_set(ps->err, ps->file, *line, *col, "unexpected %s after the test name", what);
        return -1;
    }
    *start = off;
    return 0;
}

/* ---- initial state and sameline ---- */

static int uf_find(int *uf, int x)
{
    while (uf[x] != x)
        x = uf[x] = uf[uf[x]];
    return x;
}

/* In a scale file's initial state: NAME[A..B]...[C..D] = E gives every element
 * of the ranges (each index a range or one value) the value E. */
static int parse_init_range(parser_t *ps)
{
    const lex_tok_t *lt = next(ps);
    enum { MAXDIM = 4 };
    prog_val_t lo[MAXDIM], hi[MAXDIM];
    int nd = 0;
    long long total = 1;
    while (peek(ps)->kind == T_LBRACK) {
        if (nd == MAXDIM)
            return fail_at(ps, peek(ps), "at most %s indices in the initial state", "4");
        next(ps);
        if (parse_expr_in(ps, 0, loc_limit(ps), "index", &lo[nd]))
            return -1;
        hi[nd] = lo[nd];
        if (peek(ps)->kind == T_DOTDOT) {
            /* A..A-1 is empty ({ d[0..S-1] = 1; d[S] = 0; } with S = 0), as in `for`. */
            next(ps);
            if (parse_expr_in(ps, lo[nd] - 1, loc_limit(ps), "index", &hi[nd]))
                return -1;
        }
        if (expect(ps, T_RBRACK, "']' after the index"))
            return -1;
        total *= hi[nd] >= lo[nd] ? hi[nd] - lo[nd] + 1 : 0;
        if (total > loc_limit(ps))
            return too_many_locs(ps, lt);
        nd++;
    }
    prog_val_t v;
    if (expect(ps, T_EQ, "'='") || parse_expr_in(ps, 0, max_val(ps), "initial value", &v))
        return -1;
    prog_val_t idx[MAXDIM];
    memcpy(idx, lo, sizeof idx);
    for (long long n = 0; n < total; n++) {
        strbuf_t nm;
        sb_init(&nm);
        sb_putn(&nm, ps->src + lt->off, lt->len);
        for (int d = 0; d < nd; d++)
            sb_printf(&nm, "[%lld]", (long long)idx[d]);
        int loc = loc_index(ps, nm.s, nm.len, false);
        if (loc < 0 && ps->p->nlocs >= loc_limit(ps)) {
            sb_free(&nm);
            return too_many_locs(ps, lt);
        }
        if (loc < 0)
            loc = loc_index(ps, nm.s, nm.len, true);
        sb_free(&nm);
        if (ps->init_seen[loc])
            return fail_at(ps, lt, "location %s initialised twice", ps->p->locs[loc].name);
        ps->init_seen[loc] = true;
        ps->p->locs[loc].init = v;
        for (int d = nd - 1; d >= 0; d--) {
            if (++idx[d] <= hi[d])
                break;
            idx[d] = lo[d];
        }
    }
    return 0;
}

static int parse_init(parser_t *ps)
{
    if (expect(ps, T_LBRACE, "'{' starting the initial state"))
        return -1;
    while (peek(ps)->kind != T_RBRACE) {
        const lex_tok_t *lt = peek(ps);
        int r;
        if (ps->scale && lt->kind == T_IDENT && ps->toks[ps->pos + 1].kind == T_LBRACK &&
            !is_reg(ps, lt, &r) && valid_loc_name(ps->src + lt->off, lt->len)) {
            if (parse_init_range(ps))
                return -1;
            if (peek(ps)->kind == T_SEMI)
                next(ps);
            else if (peek(ps)->kind != T_RBRACE)
                return expected(ps, "';' or '}'");
            continue;
        }
        int loc;
        if (parse_loc(ps, &loc))
            return -1;
        if (ps->init_seen[loc])
            return fail_at(ps, lt, "location %s initialised twice", ps->p->locs[loc].name);
        ps->init_seen[loc] = true;
        if (expect(ps, T_EQ, "'='"))
            return -1;
        ps->p->locs[loc].init_line = peek(ps)->line;
        ps->p->locs[loc].init_col = peek(ps)->col;
        if (ps->scale) {
            if (parse_expr_in(ps, 0, max_val(ps), "initial value", &ps->p->locs[loc].init))
                return -1;
        } else if (ps->wide) {
            if (!at_signed_number(ps))
                return expected(ps, "an initial value (an integer)");
            if (signed_number(ps, &ps->p->locs[loc].init))
                return -1;
        } else {
            const lex_tok_t *vt = peek(ps);
            if (vt->kind != T_NUM)
                return expected(ps, "an initial value (0..255)");
            next(ps);
            if (number(ps, vt, TABLE_MAX_VAL, &ps->p->locs[loc].init))
                return -1;
        }
        if (peek(ps)->kind == T_SEMI)
            next(ps);
        else if (peek(ps)->kind != T_RBRACE)
            return expected(ps, "';' or '}'");
    }
    next(ps);
    return 0;
}

/* sameline LOC LOC ...: put the named locations on one cache line. The list
 * ends at the next line's first token (the thread header or another sameline). */
static int parse_sameline(parser_t *ps)
{
    const lex_tok_t *kw = next(ps); /* 'sameline' */
    int first = -1, count = 0;
    while (peek(ps)->kind == T_IDENT && peek(ps)->line == kw->line) {
        int loc;
        if (parse_loc(ps, &loc))
            return -1;
        if (first < 0)
            first = loc;
        else
            ps->uf[uf_find(ps->uf, loc)] = uf_find(ps->uf, first);
        count++;
    }
    if (count < 2)
        return expected(ps, "at least two locations after 'sameline'");
    return 0;
}

/* ---- thread table ---- */

/* A placement word PREFIX<number> ("wg3", "cu1") below PROG_MAX_THREADS. */
static int placement_num(parser_t *ps, const char *prefix, const char *what, long *out)
{
    const lex_tok_t *t = peek(ps);
    const char *s = ps->src + t->off;
    if (t->kind != T_IDENT || t->len < 3 || memcmp(s, prefix, 2))
        return expected(ps, what);
    long k = 0;
    for (size_t i = 2; i < t->len; i++) {
        if (!isdigit((unsigned char)s[i]) || k > 1000)
            return expected(ps, what);
        k = k * 10 + (s[i] - '0');
    }
    if (k >= PROG_MAX_THREADS)
        return fail_at(ps, t, "%s number too large (at most 15)",
                       prefix[0] == 'w' ? "work-group" : "compute unit");
    next(ps);
    *out = k;
    return 0;
}

/* "P<n>[@wg<k>[:cu<m>]]" */
static int parse_thread_head(parser_t *ps, int n)
{
    const lex_tok_t *t = peek(ps);
    char want[16];
    snprintf(want, sizeof want, "P%d", n);
    if (!tok_is(ps, t, want)) {
        char msg[64];
        snprintf(msg, sizeof msg, "thread name %s (threads are P0, P1, ... in order)", want);
        return expected(ps, msg);
    }
    next(ps);
    prog_thread_t *th = &ps->p->threads[n];
    th->wg = n;
    th->cu = -1;
    if (peek(ps)->kind == T_AT) {
        next(ps);
        long k;
        if (placement_num(ps, "wg", "a work-group 'wg<k>' after '@'", &k))
            return -1;
        th->wg = (int)k;
        if (peek(ps)->kind == T_COLON) {
            next(ps);
            const lex_tok_t *c = peek(ps);
            long m;
            if (placement_num(ps, "cu", "a compute unit 'cu<m>' after ':'", &m))
                return -1;
            th->cu = (int)m;
            if (ps->wgcu[k] >= 0 && ps->wgcu[k] != m) {
                diag_set(ps->err, ps->file, c->line, c->col,
                         "work-group wg%ld placed on cu%d and cu%ld", k, ps->wgcu[k], m);
                return -1;
            }
            ps->wgcu[k] = (int)m;
        }
    }
    return 0;
}

typedef struct {
    const char *name;
    prog_opcode_t op;
} opname_t;

static const opname_t opnames[] = {
    {"ld", PROG_OP_LD},       {"st", PROG_OP_ST},   {"rmw", PROG_OP_RMW}, {"cas", PROG_OP_CAS},
    {"fence", PROG_OP_FENCE}, {"mov", PROG_OP_MOV}, {"add", PROG_OP_ADD}, {"beq", PROG_OP_BEQ},
    {"bne", PROG_OP_BNE},     {"b", PROG_OP_B},     {"sub", PROG_OP_SUB}, {"mul", PROG_OP_MUL},
    {"blt", PROG_OP_BLT},     {"bge", PROG_OP_BGE}, {"div", PROG_OP_DIV}, {"rem", PROG_OP_REM},
};

static const char *op_name(prog_opcode_t op)
{
    for (size_t i = 0; i < sizeof opnames / sizeof *opnames; i++)
        if (opnames[i].op == op)
            return opnames[i].name;
    return "?";
}

static const char *const ord_names[] = {"", "rlx", "acq", "rel", "acqrel", "sc"};
static const char *const scope_names[] = {"", "wg", "agent", "system", "rm_agent"};

const char *prog_ord_name(prog_ord_t o)
{
    return ord_names[o];
}
const char *prog_scope_name(prog_scope_t s)
{
    return scope_names[s];
}

static bool seg_eq(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && !memcmp(s, w, n);
}

/* Split the mnemonic (e.g. "rmw.add.acq.wg") and fill op, rmw, ord, scope. */
static int parse_mnemonic(parser_t *ps, const lex_tok_t *t, prog_instr_t *in)
{
    const char *s = ps->src + t->off, *end = s + t->len;
    const char *seg = s;
    const char *dot = memchr(seg, '.', (size_t)(end - seg));
    size_t n = (size_t)((dot ? dot : end) - seg);
    bool found = false;
    for (size_t i = 0; i < sizeof opnames / sizeof *opnames; i++)
        if (seg_eq(seg, n, opnames[i].name)) {
            in->op = opnames[i].op;
            found = true;
        }
    if (!found) {
        diag_set(ps->err, ps->file, t->line, t->col, "unknown instruction '%.*s'",
                 (int)(n > 40 ? 40 : n), seg);
        return -1;
    }
    bool mem = in->op == PROG_OP_LD || in->op == PROG_OP_ST || in->op == PROG_OP_RMW ||
               in->op == PROG_OP_CAS || in->op == PROG_OP_FENCE;
    seg = dot ? dot + 1 : end;
    if (in->op == PROG_OP_RMW) {
        if (!dot) {
            diag_set(ps->err, ps->file, t->line, t->col,
                     "rmw needs an operation: rmw.add or rmw.exch");
            return -1;
        }
        dot = memchr(seg, '.', (size_t)(end - seg));
        n = (size_t)((dot ? dot : end) - seg);
        if (seg_eq(seg, n, "add"))
            in->rmw = PROG_RMW_ADD;
        else if (seg_eq(seg, n, "exch"))
            in->rmw = PROG_RMW_EXCH;
        else {
            diag_set(ps->err, ps->file, t->line, t->col + (int)(seg - s),
                     "unknown rmw operation '%.*s' (add or exch)", (int)(n > 40 ? 40 : n), seg);
            return -1;
        }
        seg = dot ? dot + 1 : end;
    }
    bool have_ord = false, have_scope = false;
    while (seg < end) {
        dot = memchr(seg, '.', (size_t)(end - seg));
        n = (size_t)((dot ? dot : end) - seg);
        int col = t->col + (int)(seg - s);
        int o = -1, sc = -1;
        for (int i = 1; i < 6; i++)
            if (seg_eq(seg, n, ord_names[i]))
                o = i;
        for (int i = 1; i < 5; i++)
            if (seg_eq(seg, n, scope_names[i]))
                sc = i;
        if (!mem) {
            diag_set(ps->err, ps->file, t->line, col, "'%s' takes no order or scope",
                     op_name(in->op));
            return -1;
        }
        if (o > 0 && !have_ord && !have_scope) {
            static const bool ok[5][6] = {
                /* ld */ {0, 1, 1, 0, 0, 1},
                /* st */ {0, 1, 0, 1, 0, 1},
                /* rmw */ {0, 1, 1, 1, 1, 1},
                /* cas */ {0, 1, 1, 1, 1, 1},
                /* fence */ {0, 0, 1, 1, 1, 1},
            };
            if (!ok[in->op][o]) {
                diag_set(ps->err, ps->file, t->line, col, "order '%s' is not allowed on %s",
                         ord_names[o], op_name(in->op));
                return -1;
            }
            in->ord = (prog_ord_t)o;
            have_ord = true;
        } else if (sc > 0 && !have_scope) {
            in->scope = (prog_scope_t)sc;
            have_scope = true;
        } else {
            diag_set(ps->err, ps->file, t->line, col,
                     o > 0 || sc > 0
                         ? "misplaced '%.*s' (write [.ORDER][.SCOPE] once each, order first)"
                         : "unknown order or scope '%.*s'",
                     (int)(n > 40 ? 40 : n), seg);
            return -1;
        }
        seg = dot ? dot + 1 : end;
    }
    /* Defaults (docs/litmus.md): rmw/cas/fence acqrel; atomics without scope are agent. */
    if (!have_ord && (in->op == PROG_OP_RMW || in->op == PROG_OP_CAS || in->op == PROG_OP_FENCE))
        in->ord = PROG_ORD_ACQREL;
    if (mem && in->ord == PROG_ORD_PLAIN) {
        if (in->scope == PROG_SCOPE_RM_AGENT) {
            diag_set(ps->err, ps->file, t->line, t->col, "rm_agent applies to atomics only");
            return -1;
        }
        in->scope = PROG_SCOPE_NONE; /* a plain access is data: a scope means nothing */
    } else if (mem && !have_scope) {
        in->scope = PROG_SCOPE_AGENT;
    }
    if (in->op == PROG_OP_FENCE && in->scope == PROG_SCOPE_RM_AGENT) {
        diag_set(ps->err, ps->file, t->line, t->col,
                 "rm_agent applies to atomics only, not fences");
        return -1;
    }
    return 0;
}

/* A label reference: any identifier. Records a fixup resolved at the end. */
static int parse_label_ref(parser_t *ps, int instr_index)
{
    const lex_tok_t *t = peek(ps);
    if (t->kind != T_IDENT)
        return expected(ps, "a label");
    next(ps);
    strbuf_t nm;
    sb_init(&nm);
    sb_putn(&nm, ps->src + t->off, t->len);
    sb_puts(&nm, ps->lsfx.s ? ps->lsfx.s : "");
    fixup_t f = {xstrdup(nm.s), instr_index, t->line, t->col};
    sb_free(&nm);
    UTIL_PUSH(ps->tb->fix, ps->tb->nfix, ps->tb->capfix, f);
    return 0;
}

/* Append IN to the thread; the labels written before it point at it. */
static void push_instr(parser_t *ps, const prog_instr_t *in)
{
    thread_build_t *tb = ps->tb;
    for (size_t i = 0; i < tb->npending; i++) {
        tb->pending[i].index = (int)tb->n;
        UTIL_PUSH(tb->labels, tb->nlabels, tb->caplabels, tb->pending[i]);
    }
    tb->npending = 0;
    UTIL_PUSH(tb->instr, tb->n, tb->cap, *in);
}

/* Is T `launch` or a `bar...` mnemonic (a join, below)? */
static bool is_join_word(parser_t *ps, const lex_tok_t *t)
{
    const char *w = ps->src + t->off;
    return (t->len == 6 && !memcmp(w, "launch", 6)) ||
           (t->len >= 3 && !memcmp(w, "bar", 3) && (t->len == 3 || w[3] == '.'));
}

/* `launch` (a kernel boundary: agent scope, every thread) and `bar.sync` (a work-group
 * barrier, PTX bar.sync's CTA-scope ordering) at T: a release fence, a join and an
 * acquire fence of that scope, all written at T. */
static int parse_join(parser_t *ps, const lex_tok_t *t)
{
    bool launch = ps->src[t->off] == 'l';
    if (!launch && !(t->len == 8 && !memcmp(ps->src + t->off, "bar.sync", 8))) {
        diag_set(ps->err, ps->file, t->line, t->col,
                 "unknown barrier '%.*s' (bar.sync: the work-group barrier)",
                 (int)(t->len > 40 ? 40 : t->len), ps->src + t->off);
        return -1;
    }
    prog_instr_t in;
    memset(&in, 0, sizeof in);
    in.line = t->line;
    in.col = t->col;
    in.target = -1;
    in.scope = launch ? PROG_SCOPE_AGENT : PROG_SCOPE_WG;
    in.op = PROG_OP_FENCE;
    in.ord = PROG_ORD_REL;
    push_instr(ps, &in);
    in.op = PROG_OP_JOIN;
    in.ord = PROG_ORD_PLAIN;
    push_instr(ps, &in);
    in.op = PROG_OP_FENCE;
    in.ord = PROG_ORD_ACQ;
    push_instr(ps, &in);
    return 0;
}

static int parse_instr(parser_t *ps)
{
    thread_build_t *tb = ps->tb;
    const lex_tok_t *t = next(ps);
    prog_instr_t in;
    memset(&in, 0, sizeof in);
    in.line = t->line;
    in.col = t->col;
    in.target = -1;
    if (work(ps, t))
        return -1;
    if (is_join_word(ps, t))
        return parse_join(ps, t);
    if (parse_mnemonic(ps, t, &in))
        return -1;
    int idx = (int)tb->n;
    switch (in.op) {
    case PROG_OP_LD:
        if (parse_reg(ps, &in.reg) || parse_mem_loc(ps, &in))
            return -1;
        break;
    case PROG_OP_ST:
        if (parse_mem_loc(ps, &in) || parse_operand(ps, &in.a))
            return -1;
        break;
    case PROG_OP_RMW:
        if (parse_reg(ps, &in.reg) || parse_mem_loc(ps, &in) || parse_operand(ps, &in.a))
            return -1;
        break;
    case PROG_OP_CAS:
        if (parse_reg(ps, &in.reg) || parse_mem_loc(ps, &in) || parse_operand(ps, &in.a) ||
            parse_operand(ps, &in.b))
            return -1;
        break;
    case PROG_OP_FENCE:
    case PROG_OP_NOP: break;
    case PROG_OP_MOV:
        if (parse_reg(ps, &in.reg) || parse_operand(ps, &in.a))
            return -1;
        break;
    case PROG_OP_ADD:
    case PROG_OP_SUB:
    case PROG_OP_MUL:
        if (parse_reg(ps, &in.reg) || parse_operand(ps, &in.a) || parse_operand(ps, &in.b))
            return -1;
        break;
    case PROG_OP_DIV:
    case PROG_OP_REM: {
        if (parse_reg(ps, &in.reg) || parse_operand(ps, &in.a))
            return -1;
        const lex_tok_t *bt = peek(ps);
        if (parse_operand(ps, &in.b))
            return -1;
        if (!in.b.is_reg && in.b.v == 0)
            return fail_at(ps, bt, "%s by the constant 0 (division by zero)", op_name(in.op));
        break;
    }
    case PROG_OP_BLT:
    case PROG_OP_BGE:
        if (parse_reg(ps, &in.reg) || parse_operand(ps, &in.a) || parse_label_ref(ps, idx))
            return -1;
        break;
    case PROG_OP_BEQ:
    case PROG_OP_BNE:
        if (parse_reg(ps, &in.reg) || parse_operand(ps, &in.a) || parse_label_ref(ps, idx))
            return -1;
        if (in.a.is_reg)
            return fail_at(ps, t, "%s compares a register with a value, not a register", "beq/bne");
        break;
    case PROG_OP_B:
        if (parse_label_ref(ps, idx))
            return -1;
        break;
    case PROG_OP_JOIN: break; /* written only by parse_join */
    }
    if (in.indexed && in.op != PROG_OP_ST && in.reg == in.idx_reg)
        return fail_at(ps, t, "the index register cannot be the destination (%s)",
                       "the address must hold while the access runs");
    push_instr(ps, &in); /* labels written before this instruction point at it */
    return 0;
}

/* A label's name within its thread: inside an unrolled `for`, suffixed with the
 * iteration ("L#12.3"), so each iteration has its own. */
static char *label_name(parser_t *ps, const lex_tok_t *t)
{
    strbuf_t nm;
    sb_init(&nm);
    sb_putn(&nm, ps->src + t->off, t->len);
    sb_puts(&nm, ps->lsfx.s ? ps->lsfx.s : "");
    char *r = xstrdup(nm.s);
    sb_free(&nm);
    return r;
}

static int add_label(parser_t *ps, const lex_tok_t *t)
{
    thread_build_t *tb = ps->tb;
    char *nm = label_name(ps, t);
    if (nmap_get(&tb->names, nm) >= 0)
        goto dup;
    label_t l = {nm, -1, t->line, t->col};
    UTIL_PUSH(tb->pending, tb->npending, tb->cappending, l);
    nmap_put(&tb->names, nm, 0);
    return 0;
dup:
    free(nm);
    diag_set(ps->err, ps->file, t->line, t->col, "label '%.*s' defined twice in this thread",
             (int)(t->len > 40 ? 40 : t->len), ps->src + t->off);
    return -1;
}

/* One cell: [LABEL ':']* [instruction], up to '|' or ';'. */
static int parse_cell(parser_t *ps)
{
    while (peek(ps)->kind == T_IDENT && ps->pos + 1 < ps->ntoks &&
           ps->toks[ps->pos + 1].kind == T_COLON) {
        if (add_label(ps, peek(ps)))
            return -1;
        next(ps);
        next(ps);
    }
    if (peek(ps)->kind == T_IDENT)
        return parse_instr(ps);
    if (peek(ps)->kind != T_BAR && peek(ps)->kind != T_SEMI)
        return expected(ps, "an instruction, a label, '|' or ';'");
    return 0;
}

static bool at_condition(parser_t *ps)
{
    const lex_tok_t *t = peek(ps);
    return tok_is(ps, t, "exists") || tok_is(ps, t, "forall") || t->kind == T_NOT;
}

/* "threads NAME [": a thread template starts here. */
static bool at_template(parser_t *ps)
{
    return tok_is(ps, peek(ps), "threads") && ps->pos + 2 < ps->ntoks &&
           ps->toks[ps->pos + 1].kind == T_IDENT && ps->toks[ps->pos + 2].kind == T_LBRACK;
}

static int parse_rows(parser_t *ps, thread_build_t *tbs)
{
    int nth = ps->p->nthreads;
    while (!at_condition(ps) && !at_template(ps)) {
        if (peek(ps)->kind == LEX_EOF)
            return expected(ps,
                            "an instruction row or the final condition (exists, ~exists, forall)");
        int cell = 0;
        for (;;) {
            if (cell >= nth) {
                char n[16];
                snprintf(n, sizeof n, "%d", nth);
                return fail_at(ps, peek(ps), "row has more cells than threads (%s)", n);
            }
            ps->tb = &tbs[cell];
            if (parse_cell(ps))
                return -1;
            const lex_tok_t *sep = next(ps);
            if (sep->kind == T_SEMI)
                break;
            if (sep->kind != T_BAR) {
                ps->pos--;
                return expected(ps, "'|' or ';' after the instruction");
            }
            cell++;
        }
    }
    return 0;
}

/* Move a thread's builder into the program, resolving branch targets. */
static int finish_thread(parser_t *ps, thread_build_t *tb, prog_thread_t *th)
{
    for (size_t i = 0; i < tb->npending; i++) {
        tb->pending[i].index = (int)tb->n; /* a trailing label: the thread's end */
        UTIL_PUSH(tb->labels, tb->nlabels, tb->caplabels, tb->pending[i]);
    }
    tb->npending = 0;
    for (size_t j = 0; j < tb->nlabels; j++)
        nmap_put(&tb->names, tb->labels[j].name, tb->labels[j].index);
    for (size_t i = 0; i < tb->nfix; i++) {
        fixup_t *f = &tb->fix[i];
        int target = -1;
        /* Innermost first: "L#4.1" then "L" (a branch out of an unrolled `for`). */
        for (;;) {
            target = nmap_get(&tb->names, f->name);
            char *hash = strrchr(f->name, '#');
            if (target >= 0 || !hash)
                break;
            *hash = '\0';
        }
        if (target < 0) {
            diag_set(ps->err, ps->file, f->line, f->col, "branch to undefined label '%s'", f->name);
            return -1;
        }
        tb->instr[f->instr].target = target;
    }
    th->ninstr = (int)tb->n;
    th->instr = tb->instr;
    tb->instr = NULL;
    tb->n = tb->cap = 0;
    return 0;
}

static void free_builder(thread_build_t *tb)
{
    free(tb->instr);
    for (size_t i = 0; i < tb->nlabels; i++)
        free(tb->labels[i].name);
    for (size_t i = 0; i < tb->npending; i++)
        free(tb->pending[i].name);
    for (size_t i = 0; i < tb->nfix; i++)
        free(tb->fix[i].name);
    free(tb->labels);
    free(tb->pending);
    free(tb->fix);
    free(tb->names.k);
    free(tb->names.v);
}

/* ---- thread templates (scale files) ---- */

/* Skip a balanced group opened by the current token (OPEN) up to its CLOSE. */
static int skip_group(parser_t *ps, int open, int close, const char *what)
{
    const lex_tok_t *t = peek(ps);
    int depth = 0;
    for (;;) {
        const lex_tok_t *u = next(ps);
        if (u->kind == LEX_EOF)
            return fail_at(ps, t, "unclosed %s", what);
        if (u->kind == open)
            depth++;
        else if (u->kind == close && --depth == 0)
            return 0;
    }
}

static int parse_stmts(parser_t *ps);

/* for VAR in A..B { STATEMENTS }: the body, once per value, VAR bound. */
static int parse_for(parser_t *ps)
{
    const lex_tok_t *kw = next(ps);
    const lex_tok_t *vt = next(ps);
    int r;
    if (is_reg(ps, vt, &r) || !valid_loc_name(ps->src + vt->off, vt->len) || tok_bound(ps, vt)) {
        ps->pos--;
        return expected(ps, "a new loop variable ([a-z][a-z0-9_]*, not a register or bound name)");
    }
    if (!tok_is(ps, peek(ps), "in"))
        return expected(ps, "'in' after the loop variable");
    next(ps);
    prog_val_t lo, hi;
    if (parse_expr(ps, &lo) || expect(ps, T_DOTDOT, "'..' in the range A..B") ||
        parse_expr(ps, &hi))
        return -1;
    if (hi - lo >= PROG_MAX_SCALE_LOCS)
        return fail_at(ps, kw, "loop range too long (at most %s values)", "65536");
    if (peek(ps)->kind != T_LBRACE)
        return expected(ps, "'{' starting the loop body");
    int body = ps->pos + 1;
    if (lo > hi)
        return skip_group(ps, T_LBRACE, T_RBRACE, "'{' of the loop body");
    size_t keep = ps->lsfx.len;
    for (prog_val_t v = lo; v <= hi; v++) {
        if (work(ps, kw))
            return -1;
        ps->pos = body;
        env_push(ps, ps->src + vt->off, vt->len, v, B_VAR);
        sb_printf(&ps->lsfx, "#%d.%lld", (int)(kw - ps->toks), (long long)v);
        int rc = parse_stmts(ps);
        env_pop(ps);
        ps->lsfx.len = keep;
        ps->lsfx.s[keep] = '\0';
        if (rc)
            return -1;
    }
    return 0;
}

/* if E { STATEMENTS } [else { STATEMENTS }]: the first when E is not 0. */
static int parse_if(parser_t *ps)
{
    next(ps);
    prog_val_t v;
    if (parse_expr(ps, &v))
        return -1;
    for (int branch = 0; branch < 2; branch++) {
        if (peek(ps)->kind != T_LBRACE)
            return expected(ps, branch ? "'{' after 'else'" : "'{' after the condition");
        bool take = branch == 0 ? v != 0 : v == 0;
        if (take) {
            next(ps);
            if (parse_stmts(ps))
                return -1;
        } else if (skip_group(ps, T_LBRACE, T_RBRACE, "'{' of the if")) {
            return -1;
        }
        if (branch == 1 || !tok_is(ps, peek(ps), "else"))
            return 0;
        next(ps);
    }
    return 0;
}

/* STATEMENT* '}': each [LABEL ':']* [INSTRUCTION] ';', a `for` or an `if`. */
static int parse_stmts(parser_t *ps)
{
    for (;;) {
        const lex_tok_t *t = peek(ps);
        if (t->kind == T_RBRACE) {
            next(ps);
            return 0;
        }
        if (t->kind == LEX_EOF || at_condition(ps) || at_template(ps))
            return expected(ps, "'}' closing the thread body");
        /* Labels before a `for` or `if` name its first instruction. */
        while (peek(ps)->kind == T_IDENT && ps->toks[ps->pos + 1].kind == T_COLON) {
            if (add_label(ps, peek(ps)))
                return -1;
            next(ps);
            next(ps);
        }
        t = peek(ps);
        if (tok_is(ps, t, "for") && ps->toks[ps->pos + 1].kind == T_IDENT) {
            if (parse_for(ps))
                return -1;
            continue;
        }
        if (tok_is(ps, t, "if") && ps->toks[ps->pos + 1].kind != T_COLON) {
            if (parse_if(ps))
                return -1;
            continue;
        }
        if (parse_cell(ps) || expect(ps, T_SEMI, "';' after the instruction"))
            return -1;
    }
}

static void grow_threads(parser_t *ps, int n)
{
    prog_t *p = ps->p;
    size_t cap = ps->threadcap;
    util_grow((void **)&p->threads, &ps->threadcap, (size_t)n, sizeof *p->threads);
    if (ps->threadcap != cap)
        memset(p->threads + cap, 0, (ps->threadcap - cap) * sizeof *p->threads);
    size_t rc = ps->capregs;
    util_grow((void **)&ps->regs_used, &ps->capregs, (size_t)n, sizeof *ps->regs_used);
    if (ps->capregs != rc)
        memset(ps->regs_used + rc, 0, (ps->capregs - rc) * sizeof *ps->regs_used);
}

/* The compute unit of work-group WG, or -1 (ps->wgcu grows on demand). */
static int *wgcu_slot(parser_t *ps, long wg)
{
    size_t cap = ps->capwgcu;
    util_grow((void **)&ps->wgcu, &ps->capwgcu, (size_t)wg + 1, sizeof *ps->wgcu);
    for (size_t i = cap; i < ps->capwgcu; i++)
        ps->wgcu[i] = -1;
    return &ps->wgcu[wg];
}

/* A template placement: "wg<k>" / "cu<m>" (a number), or "wg(E)" / "cu(E)"
 * (evaluated per thread; *POS is the '(' token, else -1). */
static int template_place(parser_t *ps, const char *word, long *fixed, int *pos)
{
    const lex_tok_t *t = peek(ps);
    *pos = -1;
    if (tok_is(ps, t, word) && ps->toks[ps->pos + 1].kind == T_LPAREN) {
        next(ps);
        *pos = ps->pos;
        return skip_group(ps, T_LPAREN, T_RPAREN, "'(' of the placement");
    }
    const lex_tok_t *u = peek(ps);
    const char *s = ps->src + u->off;
    char what[48];
    snprintf(what, sizeof what, "'%s<n>' or '%s(EXPRESSION)'", word, word);
    if (u->kind != T_IDENT || u->len < 3 || memcmp(s, word, 2))
        return expected(ps, what);
    long k = 0;
    for (size_t i = 2; i < u->len; i++) {
        if (!isdigit((unsigned char)s[i]) || k >= PROG_MAX_SCALE_THREADS)
            return expected(ps, what);
        k = k * 10 + (s[i] - '0');
    }
    if (k >= PROG_MAX_SCALE_THREADS)
        return expected(ps, what);
    next(ps);
    *fixed = k;
    return 0;
}

/* Evaluate the placement expression at POS (a '(' token). */
static int place_eval(parser_t *ps, int pos, const char *what, long *out)
{
    int save = ps->pos;
    ps->pos = pos;
    prog_val_t v;
    int rc = parse_expr_in(ps, 0, PROG_MAX_SCALE_THREADS, what, &v);
    ps->pos = save;
    *out = (long)v;
    return rc;
}

/* threads NAME[COUNT] [@wg..[:cu..]] [simt] { BODY }: COUNT threads from one body,
 * with tid (0..COUNT-1), wg and cu bound; NAME is then the first's number. `simt`
 * marks them as SIMT lanes (timed mode runs them in warps). */
static int parse_template(parser_t *ps)
{
    prog_t *p = ps->p;
    const lex_tok_t *kw = next(ps);
    const lex_tok_t *nt = next(ps);
    if (!isupper((unsigned char)ps->src[nt->off]) || tok_bound(ps, nt)) {
        ps->pos--;
        return expected(ps, "a new template name ([A-Z][A-Za-z0-9_]*)");
    }
    next(ps); /* '[' */
    prog_val_t count;
    if (parse_expr_in(ps, 0, PROG_MAX_SCALE_THREADS + 1, "thread count", &count) ||
        expect(ps, T_RBRACK, "']' after the thread count"))
        return -1;
    long wgfix = -1, cufix = -1;
    int wgpos = -1, cupos = -1;
    if (peek(ps)->kind == T_AT) {
        next(ps);
        if (template_place(ps, "wg", &wgfix, &wgpos))
            return -1;
        if (peek(ps)->kind == T_COLON) {
            next(ps);
            if (template_place(ps, "cu", &cufix, &cupos))
                return -1;
        }
    }
    bool simt = false;
    if (tok_is(ps, peek(ps), "simt")) {
        next(ps);
        simt = true;
    }
    if (peek(ps)->kind != T_LBRACE)
        return expected(ps, simt ? "'{' starting the thread body"
                                 : "'{' starting the thread body (or 'simt')");
    int body = ps->pos + 1;
    if (count == 0 && skip_group(ps, T_LBRACE, T_RBRACE, "'{' of the thread body"))
        return -1;
    int first = p->nthreads;
    for (prog_val_t i = 0; i < count; i++) {
        int g = p->nthreads;
        if (g >= PROG_MAX_SCALE_THREADS)
            return fail_at(ps, kw, "too many threads (at most %s)", "4096");
        if (work(ps, kw))
            return -1;
        grow_threads(ps, g + 1);
        prog_thread_t *th = &p->threads[g];
        env_push(ps, "tid", 3, i, B_VAR);
        long wg = g, cu;
        int rc = wgpos >= 0 ? place_eval(ps, wgpos, "work-group", &wg) : 0;
        if (wgfix >= 0)
            wg = wgfix;
        env_push(ps, "wg", 2, wg, B_VAR);
        int *slot = rc ? NULL : wgcu_slot(ps, wg);
        cu = slot && *slot >= 0 ? *slot : wg;
        if (!rc && cupos >= 0)
            rc = place_eval(ps, cupos, "compute unit", &cu);
        if (cufix >= 0)
            cu = cufix;
        if (!rc) {
            slot = wgcu_slot(ps, wg);
            if (*slot >= 0 && *slot != cu) {
                diag_set(ps->err, ps->file, nt->line, nt->col,
                         "work-group wg%ld placed on cu%d and cu%ld (thread %d)", wg, *slot, cu, g);
                rc = -1;
            }
            *slot = (int)cu;
        }
        env_push(ps, "cu", 2, cu, B_VAR);
        /* One thread is one warp of one lane until the SIMT core lands. */
        env_push(ps, "lane", 4, 0, B_VAR);
        env_push(ps, "warp", 4, i, B_VAR);
        th->wg = (int)wg;
        th->cu = (int)cu;
        th->simt = simt ? first + 1 : 0;
        thread_build_t tb;
        memset(&tb, 0, sizeof tb);
        if (!rc) {
            ps->tb = &tb;
            ps->pos = body;
            rc = parse_stmts(ps);
            p->nthreads++;
            if (!rc)
                rc = finish_thread(ps, &tb, th);
            ps->regs_used[g] = tb.regs_used;
        }
        free_builder(&tb);
        for (int k = 0; k < 5; k++)
            env_pop(ps);
        if (rc)
            return -1;
    }
    env_push(ps, ps->src + nt->off, nt->len, first, B_TEMPLATE);
    return 0;
}

/* ---- parameters (scale files) ---- */

static bool param_name(const char *s, size_t n)
{
    if (!n || !isupper((unsigned char)s[0]))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!(isupper((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '_'))
            return false;
    return true;
}

/* `graph` followed by a generator name or a file name starts a graph input. */
static bool at_graph(parser_t *ps, int pos)
{
    const lex_tok_t *n = &ps->toks[pos + 1];
    return tok_is(ps, &ps->toks[pos], "graph") && pos + 1 < ps->ntoks &&
           (n->kind == T_STRING || tok_is(ps, n, "rmat") || tok_is(ps, n, "grid"));
}

/* KEY = E, E in LO..HI. */
static int graph_arg(parser_t *ps, const char *key, long long lo, long long hi, prog_val_t *v)
{
    if (!tok_is(ps, peek(ps), key)) {
        char m[64];
        snprintf(m, sizeof m, "'%s = VALUE'", key);
        return expected(ps, m);
    }
    next(ps);
    return expect(ps, T_EQ, "'='") || parse_expr_in(ps, lo, hi + 1, key, v);
}

/* The graph file named by T, relative to the test file's folder. */
static int graph_file(parser_t *ps, const lex_tok_t *t, prog_graph_t *g)
{
    strbuf_t path;
    sb_init(&path);
    const char *slash = strrchr(ps->file, '/');
    if (ps->src[t->off + 1] != '/' && slash)
        sb_putn(&path, ps->file, (size_t)(slash - ps->file) + 1);
    sb_putn(&path, ps->src + t->off + 1, t->len - 2);
    char *data;
    size_t len;
    struct stat st;
    /* Only a regular file: a device or a pipe could block or never end. */
    int rc = stat(path.s, &st) || !S_ISREG(st.st_mode) ? -1 : util_read_file(path.s, &data, &len);
    if (rc)
        diag_set(ps->err, ps->file, t->line, t->col, "cannot read graph file %.200s", path.s);
    else {
        rc = prog_graph_read(path.s, data, len, PROG_MAX_INPUT_LOCS / 4, PROG_MAX_INPUT_LOCS / 4, g,
                             ps->err);
        free(data);
    }
    sb_free(&path);
    return rc;
}

/* Locations NAME[0..N-1] initialised from V (one after another: an array). */
static int graph_array(parser_t *ps, const lex_tok_t *kw, const char *name, const int32_t *v,
                       long n)
{
    for (long k = 0; k < n; k++) {
        char nm[48];
        int len = snprintf(nm, sizeof nm, "%s[%ld]", name, k);
        if (loc_index(ps, nm, (size_t)len, false) >= 0)
            return fail_at(ps, kw, "location %s already exists (the graph input comes first)", nm);
        if (ps->p->nlocs >= loc_limit(ps))
            return too_many_locs(ps, kw);
        int loc = loc_index(ps, nm, (size_t)len, true);
        ps->init_seen[loc] = true;
        ps->p->locs[loc].init = v[k];
    }
    return 0;
}

/* Table NAME[v] from D[0..N-1] (-1: unreachable, INF); a value past 32766 is an error. */
static int graph_table(parser_t *ps, const lex_tok_t *kw, const char *name, const char *what,
                       const int64_t *d, int n)
{
    struct table tb = {xstrdup(name), xmalloc(sizeof(prog_val_t) * ((size_t)n + 1)), n};
    int rc = 0;
    for (int v = 0; v < n && !rc; v++) {
        tb.v[v] = d[v] < 0 ? PROG_MAX_SCALE_VAL - 1 : d[v];
        if (d[v] >= PROG_MAX_SCALE_VAL - 1) {
            char m[160];
            snprintf(m, sizeof m, "%s %d is %lld (values stop at 32766; INF = 32767)", what, v,
                     (long long)d[v]);
            rc = fail_at(ps, kw, "%s", m);
        }
    }
    UTIL_PUSH(ps->tables, ps->ntables, ps->captables, tb);
    return rc;
}

/* The reference tables from SRC: DIST (shortest distances) and HOPS (breadth-first
 * levels), INF where unreachable; with NSRC > 0 also APSP[s * N + v], the shortest
 * distance from source s (0..NSRC-1) to v (the all-pairs reference). */
static int graph_dist(parser_t *ps, const lex_tok_t *kw, const prog_graph_t *g, long src, long nsrc)
{
    int64_t *d = xmalloc(sizeof *d * ((size_t)g->n * (size_t)(nsrc > 0 ? nsrc : 1) + 1));
    prog_graph_sssp(g, (int)src, d);
    int rc = graph_table(ps, kw, "DIST", "the shortest distance to vertex", d, g->n);
    if (!rc) {
        prog_graph_bfs(g, (int)src, d);
        rc = graph_table(ps, kw, "HOPS", "the hop count to vertex", d, g->n);
    }
    for (long s = 0; !rc && s < nsrc; s++)
        prog_graph_sssp(g, (int)s, d + (size_t)s * (size_t)g->n);
    if (!rc && nsrc > 0)
        rc = graph_table(ps, kw, "APSP", "the all-pairs distance (s * N + v)", d,
                         (int)(nsrc * g->n));
    free(d);
    return rc;
}

/* With `color = E`: the array prio[0..N-1] (colouring priorities, a permutation of
 * 0..N-1 drawn from seed E) and the table COLOR[v], the Jones-Plassmann colour of v by
 * them (prog_graph_color), the reference of a colouring kernel. */
static int graph_color(parser_t *ps, const lex_tok_t *kw, const prog_graph_t *g, long seed)
{
    int32_t *prio = xmalloc(sizeof *prio * ((size_t)g->n + 1));
    int64_t *c = xmalloc(sizeof *c * ((size_t)g->n + 1));
    prog_graph_prio(g->n, (uint64_t)seed, prio);
    prog_graph_color(g, prio, c);
    int rc = graph_array(ps, kw, "prio", prio, g->n);
    if (!rc)
        rc = graph_table(ps, kw, "COLOR", "the colour of vertex", c, g->n);
    free(prio);
    free(c);
    return rc;
}

/* With `pagerank = ITERS rank = ONE`: the in-edge arrays trow[0..N] and tcol[0..M-1] (the
 * transpose's CSR: v's in-neighbours are tcol[trow[v]..trow[v+1]-1]) and the table PR[v],
 * v's fixed-point PageRank after ITERS iterations from ONE (prog_graph_pagerank), the
 * reference of a PageRank kernel. */
static int graph_pagerank(parser_t *ps, const lex_tok_t *kw, const prog_graph_t *g, long iters,
                          long one)
{
    prog_graph_t t;
    prog_graph_transpose(g, &t);
    int64_t *r = xmalloc(sizeof *r * ((size_t)g->n + 1));
    prog_graph_pagerank(g, (int)iters, one, r);
    int rc = graph_array(ps, kw, "trow", t.row, (long)t.n + 1) ||
             graph_array(ps, kw, "tcol", t.col, t.m) ||
             graph_table(ps, kw, "PR", "the PageRank of vertex", r, g->n);
    free(r);
    prog_graph_free(&t);
    return rc;
}

/* graph rmat scale = E deg = E seed = E | grid width = E height = E seed = E | "FILE",
 * then [source = E] [sources = E] [color = E] [pagerank = E rank = E]: the CSR arrays
 * row[0..N], col[0..M-1], w[0..M-1]; lets N, M and INF; tables DIST[v], the shortest
 * distance from the source, HOPS[v], its hop count, with `sources` APSP[s * N + v] for
 * sources 0..E-1, with `color` prio[0..N-1] and COLOR[v] (graph_color), with `pagerank`
 * trow, tcol and PR[v] (graph_pagerank; docs/litmus.md). */
static int parse_graph(parser_t *ps)
{
    const lex_tok_t *kw = next(ps), *t = next(ps);
    if (ps->graph)
        return fail_at(ps, kw, "a second graph input (a test has at most %s)", "one");
    static const char *const names[] = {"N", "M", "INF", "DIST", "HOPS"};
    for (int i = 0; i < 5; i++)
        if (env_find(ps, names[i], strlen(names[i])))
            return fail_at(ps, kw, "the graph input defines N, M, INF, DIST and HOPS: %s is taken",
                           names[i]);
    prog_graph_t g;
    memset(&g, 0, sizeof g);
    prog_val_t a, b, seed, src = 0;
    if (t->kind == T_STRING) {
        if (graph_file(ps, t, &g))
            return -1;
    } else if (tok_is(ps, t, "rmat")) {
        if (graph_arg(ps, "scale", 1, 22, &a) || graph_arg(ps, "deg", 1, 64, &b) ||
            graph_arg(ps, "seed", 0, EXPR_LIMIT - 1, &seed))
            return -1;
        if ((b << a) > 1L << 22)
            return fail_at(ps, t, "R-MAT too large (2^scale * deg at most %s)", "4194304");
        prog_graph_rmat((int)a, (int)b, (uint64_t)seed, &g);
    } else {
        if (graph_arg(ps, "width", 1, 1L << 22, &a) || graph_arg(ps, "height", 1, 1L << 22, &b) ||
            graph_arg(ps, "seed", 0, EXPR_LIMIT - 1, &seed))
            return -1;
        if (a * b > 1L << 21)
            return fail_at(ps, t, "grid too large (width * height at most %s)", "2097152");
        prog_graph_grid((int)a, (int)b, (uint64_t)seed, &g);
    }
    ps->graph = true;
    int rc = 0;
    prog_val_t nsrc = 0;
    if (tok_is(ps, peek(ps), "source"))
        rc = graph_arg(ps, "source", 0, g.n - 1, &src);
    /* sources = E: the APSP table for sources 0..E-1 (at most 2^22 entries). */
    if (!rc && tok_is(ps, peek(ps), "sources")) {
        const lex_tok_t *st = peek(ps);
        rc = graph_arg(ps, "sources", 1, g.n, &nsrc);
        if (!rc && env_find(ps, "APSP", 4))
            rc = fail_at(ps, st, "sources = E defines the table APSP: %s is taken", "APSP");
        if (!rc && nsrc * g.n > 1L << 22)
            rc = fail_at(ps, st, "APSP table too large (sources * N at most %s)", "4194304");
    }
    /* color = E: colouring priorities from seed E and the COLOR table. */
    prog_val_t cseed = -1;
    if (!rc && tok_is(ps, peek(ps), "color")) {
        const lex_tok_t *ct = peek(ps);
        rc = graph_arg(ps, "color", 0, EXPR_LIMIT - 1, &cseed);
        if (!rc && env_find(ps, "COLOR", 5))
            rc = fail_at(ps, ct, "color = E defines the table COLOR: %s is taken", "COLOR");
    }
    /* pagerank = ITERS rank = ONE: the in-edge arrays and the PR table. */
    prog_val_t piters = 0, pone = 0;
    if (!rc && tok_is(ps, peek(ps), "pagerank")) {
        const lex_tok_t *pt = peek(ps);
        rc = graph_arg(ps, "pagerank", 1, 1000, &piters) ||
             graph_arg(ps, "rank", 1, PROG_MAX_SCALE_VAL - 2, &pone);
        if (!rc && env_find(ps, "PR", 2))
            rc = fail_at(ps, pt, "pagerank = E defines the table PR: %s is taken", "PR");
    }
    if (!rc)
        rc = graph_array(ps, kw, "row", g.row, (long)g.n + 1) ||
             graph_array(ps, kw, "col", g.col, g.m) || graph_array(ps, kw, "w", g.w, g.m) ||
             graph_dist(ps, kw, &g, src, (long)nsrc) ||
             (cseed >= 0 && graph_color(ps, kw, &g, (long)cseed)) ||
             (piters > 0 && graph_pagerank(ps, kw, &g, (long)piters, (long)pone));
    if (!rc) {
        env_push(ps, "N", 1, g.n, B_LET);
        env_push(ps, "M", 1, g.m, B_LET);
        env_push(ps, "INF", 3, PROG_MAX_SCALE_VAL - 1, B_LET);
    }
    prog_graph_free(&g);
    return rc ? -1 : 0;
}

/* (param | let) NAME = E [timed T] [;] ... : settings replace a param's default; with
 * PROG_PARAMS_TIMED a param's `timed` default T replaces E (a paper's scale, e.g. seed 002
 * Table I, beside the tiny default that exhaustive checking needs); a graph input may come
 * among them. */
static int parse_params(parser_t *ps)
{
    prog_t *p = ps->p;
    size_t cap = 0;
    for (;;) {
        if (at_graph(ps, ps->pos)) {
            if (parse_graph(ps))
                return -1;
            continue;
        }
        if (!((tok_is(ps, peek(ps), "param") || tok_is(ps, peek(ps), "let")) &&
              ps->toks[ps->pos + 1].kind == T_IDENT))
            break;
        bool derived = tok_is(ps, next(ps), "let");
        const lex_tok_t *nt = next(ps);
        const char *nm = ps->src + nt->off;
        if (!param_name(nm, nt->len)) {
            ps->pos--;
            return expected(ps, "a parameter name ([A-Z][A-Z0-9_]*)");
        }
        if (tok_bound(ps, nt)) {
            diag_set(ps->err, ps->file, nt->line, nt->col, "parameter %.*s defined twice",
                     (int)nt->len, nm);
            return -1;
        }
        if (expect(ps, T_EQ, "'=' after the parameter name"))
            return -1;
        const lex_tok_t *vt = peek(ps);
        prog_val_t v;
        if (parse_expr(ps, &v))
            return -1;
        if (tok_is(ps, peek(ps), "timed")) {
            const lex_tok_t *tt = next(ps);
            prog_val_t tv;
            if (derived) {
                diag_set(ps->err, ps->file, tt->line, tt->col,
                         "a let has no timed default (it is derived from parameters)");
                return -1;
            }
            vt = peek(ps);
            if (parse_expr(ps, &tv))
                return -1;
            if (ps->timed)
                v = tv;
        }
        bool set = false;
        for (int k = 0; k < ps->nset; k++)
            if (strlen(ps->set[k].name) == nt->len && !memcmp(ps->set[k].name, nm, nt->len)) {
                if (derived) {
                    diag_set(ps->err, ps->file, nt->line, nt->col,
                             "%.*s is a let (derived from parameters); it cannot be set",
                             (int)nt->len, nm);
                    return -1;
                }
                v = ps->set[k].value;
                ps->set_used[k] = true;
                set = true;
            }
        if (v < 0 || v >= PROG_MAX_SCALE_VAL) {
            diag_set(ps->err, ps->file, vt->line, vt->col, "%.*s = %lld%s out of range (0..%d)",
                     (int)nt->len, nm, (long long)v, set ? " (as set)" : "",
                     PROG_MAX_SCALE_VAL - 1);
            return -1;
        }
        env_push(ps, nm, nt->len, v, derived ? B_LET : B_PARAM);
        prog_param_t d = {xstrndup(nm, nt->len), v, derived, set};
        util_grow((void **)&p->params, &cap, (size_t)p->nparams + 1, sizeof *p->params);
        p->params[p->nparams++] = d;
        if (peek(ps)->kind == T_SEMI)
            next(ps);
    }
    return 0;
}

/* ---- final condition ---- */

static prog_cond_t *cond_new(prog_cond_kind_t k)
{
    prog_cond_t *c = xcalloc(1, sizeof *c);
    c->kind = k;
    return c;
}

static void cond_free(prog_cond_t *c)
{
    if (!c)
        return;
    cond_free(c->a);
    cond_free(c->b);
    free(c);
}

static int parse_or(parser_t *ps, const uint32_t *regs_used, prog_cond_t **out);
static int parse_atom(parser_t *ps, const uint32_t *regs_used, prog_cond_t **out);

/* The value of a condition term: a number, or in a scale file an expression. */
static int cond_value(parser_t *ps, prog_val_t *v)
{
    if (ps->scale)
        return parse_expr_in(ps, 0, (long long)INT_MAX + 1, "value", v);
    if (ps->wide) {
        if (!at_signed_number(ps))
            return expected(ps, "a value");
        return signed_number(ps, v);
    }
    const lex_tok_t *vt = peek(ps);
    if (vt->kind != T_NUM)
        return expected(ps, "a value");
    next(ps);
    return number(ps, vt, INT_MAX, v);
}

/* Join TERMS[0..N) with KIND into a balanced tree (N > 0). */
static prog_cond_t *cond_join(prog_cond_kind_t kind, prog_cond_t **terms, size_t n)
{
    if (n == 1)
        return terms[0];
    prog_cond_t *c = cond_new(kind);
    c->a = cond_join(kind, terms, n / 2);
    c->b = cond_join(kind, terms + n / 2, n - n / 2);
    return c;
}

/* all VAR in A..B : E (a conjunction), any VAR in A..B : E (a disjunction); E
 * extends as far right as it can (to a ')' that closes an outer group, or the end). */
static int parse_quant(parser_t *ps, const uint32_t *regs_used, prog_cond_t **out)
{
    const lex_tok_t *kw = next(ps);
    bool all = tok_is(ps, kw, "all");
    const lex_tok_t *vt = next(ps);
    int r;
    if (is_reg(ps, vt, &r) || !valid_loc_name(ps->src + vt->off, vt->len) || tok_bound(ps, vt)) {
        ps->pos--;
        return expected(ps, "a new variable ([a-z][a-z0-9_]*, not a register or bound name)");
    }
    next(ps); /* 'in' */
    prog_val_t lo, hi;
    if (parse_expr(ps, &lo) || expect(ps, T_DOTDOT, "'..' in the range A..B") ||
        parse_expr(ps, &hi) || expect(ps, T_COLON, "':' after the range"))
        return -1;
    if (hi - lo >= PROG_MAX_SCALE_LOCS)
        return fail_at(ps, kw, "range too long (at most %s values)", "65536");
    int body = ps->pos;
    if (lo > hi) {
        /* An empty range: skip the body (up to a ')' closing an outer group), keep
           the unit. */
        int depth = 0;
        for (;;) {
            int k = peek(ps)->kind;
            if (k == LEX_EOF || (depth == 0 && k == T_RPAREN))
                break;
            depth += k == T_LPAREN ? 1 : k == T_RPAREN ? -1 : 0;
            next(ps);
        }
        *out = cond_new(all ? PROG_COND_TRUE : PROG_COND_FALSE);
        return 0;
    }
    size_t n = (size_t)(hi - lo + 1);
    prog_cond_t **terms = xcalloc(n, sizeof *terms);
    int end = body;
    for (size_t i = 0; i < n; i++) {
        int rc = work(ps, kw);
        if (rc) {
            for (size_t j = 0; j < i; j++)
                cond_free(terms[j]);
            free(terms);
            return -1;
        }
        ps->pos = body;
        env_push(ps, ps->src + vt->off, vt->len, lo + (prog_val_t)i, B_VAR);
        rc = parse_or(ps, regs_used, &terms[i]);
        env_pop(ps);
        if (rc) {
            for (size_t j = 0; j < i; j++)
                cond_free(terms[j]);
            free(terms);
            return -1;
        }
        end = ps->pos;
    }
    ps->pos = end;
    *out = cond_join(all ? PROG_COND_AND : PROG_COND_OR, terms, n);
    free(terms);
    return 0;
}

static int parse_atom(parser_t *ps, const uint32_t *regs_used, prog_cond_t **out)
{
    const lex_tok_t *t = peek(ps);
    if (++ps->cond_depth > MAX_COND_DEPTH)
        return fail_at(ps, t, "condition nested too deeply (more than %s levels)", "200");
    int rc = -1;
    if (t->kind == T_NOT) {
        next(ps);
        prog_cond_t *c = cond_new(PROG_COND_NOT);
        rc = parse_atom(ps, regs_used, &c->a);
        if (rc)
            cond_free(c);
        else
            *out = c;
    } else if (t->kind == T_LPAREN) {
        next(ps);
        rc = parse_or(ps, regs_used, out);
        if (!rc && expect(ps, T_RPAREN, "')'")) {
            cond_free(*out);
            *out = NULL; /* a '~' above frees its operand on failure too */
            rc = -1;
        }
    } else if (tok_is(ps, t, "true") || tok_is(ps, t, "false")) {
        next(ps);
        *out = cond_new(tok_is(ps, t, "true") ? PROG_COND_TRUE : PROG_COND_FALSE);
        rc = 0;
    } else if ((tok_is(ps, t, "all") || tok_is(ps, t, "any")) &&
               ps->toks[ps->pos + 1].kind == T_IDENT && tok_is(ps, &ps->toks[ps->pos + 2], "in")) {
        rc = parse_quant(ps, regs_used, out);
    } else if (t->kind == T_NUM || tok_bound(ps, t)) {
        /* T:REG = VAL */
        prog_val_t th;
        if (parse_expr(ps, &th))
            return -1;
        if (th < 0 || th >= ps->p->nthreads) {
            char n[24];
            snprintf(n, sizeof n, "%lld", (long long)th);
            return fail_at(ps, t, "condition names thread %s, which the test does not have", n);
        }
        if (expect(ps, T_COLON, "':' after the thread number"))
            return -1;
        const lex_tok_t *rt = peek(ps);
        int reg;
        if (!is_reg(ps, rt, &reg))
            return expected(ps, "a register (r0..r15)");
        next(ps);
        if (!(regs_used[th] >> reg & 1)) {
            char n[40];
            snprintf(n, sizeof n, "%lld:r%d", (long long)th, reg);
            return fail_at(ps, rt, "condition names register %s, which thread does not use", n);
        }
        if (expect(ps, T_EQ, "'='"))
            return -1;
        prog_cond_t *c = cond_new(PROG_COND_REG);
        c->thread = (int)th;
        c->reg = reg;
        if (cond_value(ps, &c->val)) {
            free(c);
            return -1;
        }
        *out = c;
        rc = 0;
    } else if (t->kind == T_IDENT) {
        /* LOC = VAL */
        strbuf_t nm;
        sb_init(&nm);
        int loc = -1, r;
        if (is_reg(ps, t, &r) || !valid_loc_name(ps->src + t->off, t->len)) {
            sb_putn(&nm, ps->src + t->off, t->len); /* not a location name: say so below */
            next(ps);
        } else if (parse_loc_name(ps, &nm)) {
            sb_free(&nm);
            return -1;
        } else {
            loc = loc_index(ps, nm.s, nm.len, false);
        }
        if (loc < 0) {
            char n[64];
            snprintf(n, sizeof n, "%.40s", nm.s ? nm.s : "");
            sb_free(&nm);
            return fail_at(ps, t, "condition names location '%s', which the test does not have", n);
        }
        sb_free(&nm);
        if (expect(ps, T_EQ, "'='"))
            return -1;
        prog_cond_t *c = cond_new(PROG_COND_LOC);
        c->loc = loc;
        if (cond_value(ps, &c->val)) {
            free(c);
            return -1;
        }
        *out = c;
        rc = 0;
    } else {
        rc = expected(ps, "a condition term (T:rN = V, LOC = V, true, false, ~, '(')");
    }
    ps->cond_depth--;
    return rc;
}

/* Binary levels, loosest first: 0 is '\/', 1 is '/\', 2 an atom. */
static int parse_bin(parser_t *ps, const uint32_t *regs_used, int level, prog_cond_t **out)
{
    static const int op_tok[2] = {T_OR, T_AND};
    static const prog_cond_kind_t op_kind[2] = {PROG_COND_OR, PROG_COND_AND};
    if (level == 2)
        return parse_atom(ps, regs_used, out);
    prog_cond_t *l;
    if (parse_bin(ps, regs_used, level + 1, &l))
        return -1;
    while (peek(ps)->kind == op_tok[level]) {
        next(ps);
        prog_cond_t *c = cond_new(op_kind[level]);
        c->a = l;
        if (parse_bin(ps, regs_used, level + 1, &c->b)) {
            cond_free(c);
            return -1;
        }
        l = c;
    }
    *out = l;
    return 0;
}

static int parse_or(parser_t *ps, const uint32_t *regs_used, prog_cond_t **out)
{
    return parse_bin(ps, regs_used, 0, out);
}

static int parse_condition(parser_t *ps, const uint32_t *regs_used)
{
    const lex_tok_t *t = peek(ps);
    if (t->kind == T_NOT) {
        next(ps);
        if (!tok_is(ps, peek(ps), "exists"))
            return expected(ps, "'exists' after '~'");
        next(ps);
        ps->p->quant = PROG_NOT_EXISTS;
    } else if (tok_is(ps, t, "exists")) {
        next(ps);
        ps->p->quant = PROG_EXISTS;
    } else if (tok_is(ps, t, "forall")) {
        next(ps);
        ps->p->quant = PROG_FORALL;
    } else {
        return expected(ps, "the final condition (exists, ~exists or forall)");
    }
    if (parse_or(ps, regs_used, &ps->p->cond))
        return -1;
    if (peek(ps)->kind != LEX_EOF)
        return expected(ps, "end of file after the condition");
    return 0;
}

/* ---- driver ---- */

static lex_spec_t *litmus_lexer(diag_t *err)
{
    lex_spec_t *spec = NULL;
    if (lex_spec_new(rules, (int)(sizeof rules / sizeof *rules), &spec, err))
        return NULL;
    return spec;
}

static int check_bad_tokens(parser_t *ps)
{
    for (int i = 0; i < ps->ntoks; i++) {
        const lex_tok_t *t = &ps->toks[i];
        if (t->kind == T_BAD_COMMENT)
            return fail_at(ps, t, "unterminated comment%s", "");
        if (t->kind == T_BAD_STRING)
            return fail_at(ps, t, "unterminated string (a description ends on its line)%s", "");
    }
    return 0;
}

/* The thread table: header row, then instruction rows. */
static int parse_table(parser_t *ps)
{
    prog_t *p = ps->p;
    grow_threads(ps, PROG_MAX_THREADS);
    wgcu_slot(ps, PROG_MAX_THREADS);
    for (;;) {
        if (p->nthreads >= PROG_MAX_THREADS)
            return fail_at(ps, peek(ps), "too many threads (at most %s)", "16");
        if (parse_thread_head(ps, p->nthreads))
            return -1;
        p->nthreads++;
        const lex_tok_t *sep = next(ps);
        if (sep->kind == T_SEMI)
            break;
        if (sep->kind != T_BAR) {
            ps->pos--;
            return expected(ps, "'|' or ';' in the thread header");
        }
    }
    for (int i = 0; i < p->nthreads; i++) {
        int *slot = wgcu_slot(ps, p->threads[i].wg);
        p->threads[i].cu = *slot >= 0 ? *slot : p->threads[i].wg;
        *slot = p->threads[i].cu; /* templates that follow see the table's placement */
    }
    thread_build_t *tbs = xcalloc((size_t)p->nthreads, sizeof *tbs);
    int rc = parse_rows(ps, tbs);
    for (int i = 0; !rc && i < p->nthreads; i++)
        rc = finish_thread(ps, &tbs[i], &p->threads[i]);
    for (int i = 0; i < p->nthreads; i++)
        ps->regs_used[i] = tbs[i].regs_used;
    for (int i = 0; i < p->nthreads; i++)
        free_builder(&tbs[i]);
    free(tbs);
    return rc;
}

static int parse_body(parser_t *ps)
{
    prog_t *p = ps->p;
    if (peek(ps)->kind == T_STRING) {
        const lex_tok_t *t = next(ps);
        p->desc = xstrndup(ps->src + t->off + 1, t->len - 2);
    }
    if (parse_params(ps))
        return -1;
    for (int k = 0; k < ps->nset; k++)
        if (!ps->set_used[k] && ps->strict) {
            diag_set(ps->err, ps->file, 1, 1, "--param %.64s: the test declares no such parameter",
                     ps->set[k].name);
            return -1;
        }
    if (parse_init(ps))
        return -1;
    while (tok_is(ps, peek(ps), "sameline"))
        if (parse_sameline(ps))
            return -1;
    if (!at_template(ps) && parse_table(ps))
        return -1;
    while (at_template(ps))
        if (parse_template(ps))
            return -1;
    if (p->nthreads == 0)
        return expected(ps, "a thread template (threads NAME[COUNT] { ... })");
    if (parse_condition(ps, ps->regs_used))
        return -1;
    /* Cache lines: one per location unless grouped by sameline. */
    int nl = 0;
    for (int i = 0; i < p->nlocs; i++) {
        int r = uf_find(ps->uf, i);
        if (r == i)
            p->locs[i].line_id = nl++;
    }
    for (int i = 0; i < p->nlocs; i++)
        p->locs[i].line_id = p->locs[uf_find(ps->uf, i)].line_id;
    p->nlines = nl;
    return 0;
}

/* parse_native's own flag, beside PROG_PARAMS_*: the text is a C test's translation. */
#define PARSE_WIDE 0x100u

static int parse_native(const char *file, const char *src, size_t len, const prog_setting_t *set,
                        int nset, unsigned flags, prog_t **out, diag_t *err)
{
    prog_t *p = xcalloc(1, sizeof *p);
    p->file = xstrdup(file);
    p->source = xstrndup(src, len);
    p->source_len = len;
    parser_t ps;
    memset(&ps, 0, sizeof ps);
    ps.file = file;
    ps.src = p->source;
    ps.len = len;
    ps.err = err;
    ps.p = p;
    ps.set = set;
    ps.nset = nset;
    ps.set_used = xcalloc((size_t)nset + 1, sizeof *ps.set_used);
    ps.strict = flags & PROG_PARAMS_STRICT;
    ps.timed = flags & PROG_PARAMS_TIMED;
    ps.wide = flags & PARSE_WIDE;
    sb_init(&ps.lsfx);
    sb_puts(&ps.lsfx, "");
    int rc = -1;
    size_t start;
    int line, col;
    lex_spec_t *spec = NULL;
    if (parse_header(&ps, &start, &line, &col))
        goto out;
    spec = litmus_lexer(err);
    if (!spec)
        goto out;
    lex_tok_t *toks;
    int ntoks;
    if (lex_run(spec, file, ps.src + start, len - start, &toks, &ntoks, err))
        goto fixpos;
    /* Shift token positions to the whole file. */
    for (int i = 0; i < ntoks; i++) {
        toks[i].off += start;
        if (toks[i].line == 1)
            toks[i].col += col - 1;
        toks[i].line += line - 1;
    }
    ps.toks = toks;
    ps.ntoks = ntoks;
    /* A scale file (params, templates, arrays: only they use '[' or declare
       parameters) takes literal values up to PROG_MAX_SCALE_VAL. */
    for (int i = 0; i < ntoks; i++)
        if (toks[i].kind == T_LBRACK ||
            ((tok_is(&ps, &toks[i], "param") || tok_is(&ps, &toks[i], "let")) && i + 1 < ntoks &&
             toks[i + 1].kind == T_IDENT && i + 2 < ntoks && toks[i + 2].kind == T_EQ) ||
            at_graph(&ps, i))
            ps.scale = true;
    rc = check_bad_tokens(&ps);
    if (!rc)
        rc = parse_body(&ps);
    free(toks);
    goto out;
fixpos:
    /* The lexer counted from the header's end. */
    if (err) {
        if (err->line == 1)
            err->col += col - 1;
        err->line += line - 1;
    }
out:
    lex_spec_free(spec);
    free(ps.init_seen);
    free(ps.uf);
    free(ps.lhash);
    while (ps.nenv)
        env_pop(&ps);
    free(ps.env);
    free(ps.set_used);
    sb_free(&ps.lsfx);
    free(ps.wgcu);
    free(ps.regs_used);
    for (size_t i = 0; i < ps.narrs; i++)
        free(ps.arrs[i].name);
    free(ps.arrs);
    for (size_t i = 0; i < ps.ntables; i++) {
        free(ps.tables[i].name);
        free(ps.tables[i].v);
    }
    free(ps.tables);
    if (rc) {
        prog_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

int prog_parse(const char *file, const char *src, size_t len, prog_t **out, diag_t *err)
{
    return prog_parse_params(file, src, len, NULL, 0, 0, out, err);
}

int prog_parse_params(const char *file, const char *src, size_t len, const prog_setting_t *set,
                      int nset, unsigned flags, prog_t **out, diag_t *err)
{
    if (!prog_is_c(src, len))
        return parse_native(file, src, len, set, nset, flags, out, err);
    /* herd7's C dialect: translated to the native format and read as such. */
    if (nset > 0 && (flags & PROG_PARAMS_STRICT)) {
        diag_set(err, file, 1, 1, "--param %.64s: the test declares no such parameter",
                 set[0].name);
        return -1;
    }
    char *native;
    int *map, nmap;
    prog_c_info_t info;
    if (prog_c_translate(file, src, len, &native, &map, &nmap, &info, err))
        return -1;
    int rc = parse_native(file, native, strlen(native), NULL, 0, PARSE_WIDE, out, err);
    if (rc) {
        /* A mistake only the native reader sees: report it at the C line. */
        if (err->line > 0 && err->line < nmap)
            err->line = map[err->line];
        err->col = 1;
    } else {
        prog_t *p = *out;
        for (int t = 0; t < p->nthreads; t++)
            for (int i = 0; i < p->threads[t].ninstr; i++) {
                prog_instr_t *in = &p->threads[t].instr[i];
                in->line = in->line > 0 && in->line < nmap ? map[in->line] : 0;
                in->col = 1;
            }
        for (int l = 0; l < p->nlocs; l++) {
            prog_loc_t *lc = &p->locs[l];
            lc->init_line = lc->init_line > 0 && lc->init_line < nmap ? map[lc->init_line] : 0;
            lc->init_col = 1;
        }
        free(p->source);
        p->source = xstrndup(src, len);
        p->source_len = len;
        for (int t = 0; t < p->nthreads; t++)
            for (int r = 0; r < PROG_MAX_REGS; r++) {
                p->threads[t].regname[r] = info.regname[t][r];
                info.regname[t][r] = NULL;
            }
        p->meta = info.meta;
        info.meta = NULL;
    }
    for (int t = 0; t < PROG_MAX_THREADS; t++)
        for (int r = 0; r < PROG_MAX_REGS; r++)
            free(info.regname[t][r]);
    free(info.meta);
    free(native);
    free(map);
    return rc;
}

int prog_load(const char *path, prog_t **out, diag_t *err)
{
    return prog_load_params(path, NULL, 0, 0, out, err);
}

int prog_load_params(const char *path, const prog_setting_t *set, int nset, unsigned flags,
                     prog_t **out, diag_t *err)
{
    char *data;
    size_t len;
    if (util_read_file(path, &data, &len)) {
        diag_set(err, path, 0, 0, "cannot read file");
        return -1;
    }
    int rc = prog_parse_params(path, data, len, set, nset, flags, out, err);
    free(data);
    return rc;
}

const prog_param_t *prog_param_find(const prog_t *p, const char *name)
{
    for (int i = 0; i < p->nparams; i++)
        if (!strcmp(p->params[i].name, name))
            return &p->params[i];
    return NULL;
}

void prog_free(prog_t *p)
{
    if (!p)
        return;
    for (int i = 0; i < p->nthreads; i++) {
        free(p->threads[i].instr);
        for (int r = 0; r < PROG_MAX_REGS; r++)
            free(p->threads[i].regname[r]);
    }
    free(p->threads);
    free(p->meta);
    for (int i = 0; i < p->nlocs; i++)
        free(p->locs[i].name);
    free(p->locs);
    for (int i = 0; i < p->nparams; i++)
        free(p->params[i].name);
    free(p->params);
    cond_free(p->cond);
    free(p->file);
    free(p->name);
    free(p->desc);
    free(p->source);
    free(p);
}
