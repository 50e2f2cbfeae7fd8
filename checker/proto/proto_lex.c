/* proto_lex.c - tokens of protocol files: the lexer rules, token access
 * bounded by the current table line, diagnostics at a token, and name
 * lookups in the tables built so far.
 *
 * Invariant: the lexer never fails on user input (T_BAD catches any other
 * byte), so every mistake, lexical ones included, is reported by the parser
 * in file order; peeking never reads past the end-of-file token. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "proto_int.h"

/* First match wins: comments before '(', 'per-cu' before identifiers,
 * two-character operators before their prefixes. T_BAD catches any other
 * byte so that the parser, not the lexer, reports it in file order. */
static const lex_rule_t rules[] = {
    {-1, "[ \\t\\r\\n\\f\\v]+"},
    {-2, "\\(\\*[\\s\\S]*?\\*\\)"},
    {T_BADCOMMENT, "\\(\\*[\\s\\S]*"},
    {T_STRING, "\"[^\"\\n]*\""},
    {T_BADSTRING, "\"[^\"\\n]*"},
    {T_PERCU, "per-cu(?![A-Za-z0-9_])"},
    {T_ID, "[A-Za-z_][A-Za-z0-9_]*"},
    {T_INT, "[0-9]+"},
    {T_LBRACE, "\\{"},
    {T_RBRACE, "\\}"},
    {T_LPAREN, "\\("},
    {T_RPAREN, "\\)"},
    {T_LBRACK, "\\["},
    {T_RBRACK, "\\]"},
    {T_COMMA, ","},
    {T_SEMI, ";"},
    {T_OROR, "\\|\\|"},
    {T_BAR, "\\|"},
    {T_ANDAND, "&&"},
    {T_ASSIGN, ":="},
    {T_COLON, ":"},
    {T_EQEQ, "=="},
    {T_NE, "!="},
    {T_LE, "<="},
    {T_GE, ">="},
    {T_LT, "<"},
    {T_GT, ">"},
    {T_EQ, "="},
    {T_NOT, "!"},
    {T_PLUS, "\\+"},
    {T_ARROW, "->"},
    {T_MINUS, "-"},
    {T_DOTDOT, "\\.\\."},
    {T_DOT, "\\."},
    {T_STAR, "\\*"},
    {T_BAD, "[\\s\\S]"},
};

/* ---- tokens ---- */

const lex_tok_t *proto_peek(const proto_parser_t *ps)
{
    return ps->pos >= ps->limit ? &ps->eol : &ps->toks[ps->pos];
}

const lex_tok_t *proto_peek2(const proto_parser_t *ps)
{
    int i = ps->pos + 1;
    if (i >= ps->limit)
        return &ps->eol;
    return &ps->toks[i < ps->ntoks ? i : ps->ntoks - 1];
}

const lex_tok_t *proto_next(proto_parser_t *ps)
{
    const lex_tok_t *t = proto_peek(ps);
    if (t->kind != LEX_EOF && t->kind != T_EOL)
        ps->pos++;
    return t;
}

bool proto_tok_eq(const proto_parser_t *ps, const lex_tok_t *t, const char *name)
{
    size_t n = strlen(name);
    return t->len == n && !memcmp(ps->src + t->off, name, n);
}

bool proto_is(const proto_parser_t *ps, const lex_tok_t *t, const char *word)
{
    return t->kind == T_ID && proto_tok_eq(ps, t, word);
}

int proto_tok_index(const proto_parser_t *ps, const lex_tok_t *t)
{
    return (int)(t - ps->toks);
}

char *proto_tok_str(const proto_parser_t *ps, const lex_tok_t *t)
{
    return xstrndup(ps->src + t->off, t->len);
}

int proto_fail_pos(proto_parser_t *ps, int line, int col, const char *fmt, ...)
{
    char msg[DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    int i = ps->pos > 0 && ps->pos <= ps->ntoks ? ps->pos - 1 : 0;
    diag_set(ps->err, proto_file_at(ps, ps->ntoks ? ps->toks[i].off : 0), line, col, "%s", msg);
    return -1;
}

int proto_fail(proto_parser_t *ps, const lex_tok_t *t, const char *fmt, ...)
{
    char msg[DIAG_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_set(ps->err, proto_file_at(ps, t->off), t->line, t->col, "%s", msg);
    return -1;
}

int proto_expected(proto_parser_t *ps, const char *what)
{
    const lex_tok_t *t = proto_peek(ps);
    int n = t->len > 40 ? 40 : (int)t->len;
    const char *s = ps->src + t->off;
    char buf[32];
    switch (t->kind) {
    case T_BADCOMMENT: return proto_fail(ps, t, "unterminated comment");
    case T_BADSTRING: return proto_fail(ps, t, "unterminated string");
    case T_BAD:
        lex_describe(ps->src, ps->len, t->off, buf, sizeof buf);
        return proto_fail(ps, t, "unexpected character %s", buf);
    case LEX_EOF: return proto_fail(ps, t, "expected %s, found end of file", what);
    case T_EOL: return proto_fail(ps, t, "expected %s, found end of line", what);
    case T_STRING: return proto_fail(ps, t, "expected %s, found a string", what);
    default: return proto_fail(ps, t, "expected %s, found '%.*s'", what, n, s);
    }
}

int proto_expect(proto_parser_t *ps, int kind, const char *what)
{
    if (proto_peek(ps)->kind != kind)
        return proto_expected(ps, what);
    proto_next(ps);
    return 0;
}

int proto_expect_word(proto_parser_t *ps, const char *word)
{
    if (!proto_is(ps, proto_peek(ps), word)) {
        char what[48];
        snprintf(what, sizeof what, "'%s'", word);
        return proto_expected(ps, what);
    }
    proto_next(ps);
    return 0;
}

int proto_int_value(proto_parser_t *ps, const lex_tok_t *t, int *v)
{
    long long x = 0;
    for (size_t i = 0; i < t->len; i++) {
        x = x * 10 + (ps->src[t->off + i] - '0');
        if (x > PROTO_MAX_INT)
            return proto_fail(ps, t, "integer '%.*s' too large (at most %d)",
                              t->len > 20 ? 20 : (int)t->len, ps->src + t->off, PROTO_MAX_INT);
    }
    *v = (int)x;
    return 0;
}

/* An integer with an optional '-' (param defaults, int type bounds). */
int proto_signed_int(proto_parser_t *ps, int *v)
{
    bool neg = proto_peek(ps)->kind == T_MINUS;
    if (neg)
        proto_next(ps);
    if (proto_peek(ps)->kind != T_INT)
        return proto_expected(ps, "an integer");
    if (proto_int_value(ps, proto_next(ps), v))
        return -1;
    if (neg)
        *v = -*v;
    return 0;
}

/* Expect a name; *T is its token. */
int proto_expect_id(proto_parser_t *ps, const char *what, const lex_tok_t **t)
{
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, what);
    *t = proto_next(ps);
    return 0;
}

/* ---- name indexes ---- */

/* Open addressing, linear probing, capacity a power of two kept at least
 * twice the number of keys, so every probe sequence ends at an empty slot. */
void proto_names_add(proto_names_t *t, const char *key, int val)
{
    if (2 * (t->n + 1) > t->cap) {
        proto_names_t g = {xcalloc(t->cap ? 2 * t->cap : 16, sizeof *g.slot), 0,
                           t->cap ? 2 * t->cap : 16};
        for (size_t i = 0; i < t->cap; i++)
            if (t->slot[i].key)
                proto_names_add(&g, t->slot[i].key, t->slot[i].val);
        free(t->slot);
        *t = g;
    }
    size_t m = t->cap - 1, i = util_hash64(key, strlen(key), 0) & m;
    while (t->slot[i].key)
        i = (i + 1) & m;
    t->slot[i].key = key;
    t->slot[i].val = val;
    t->n++;
}

int proto_names_find(const proto_names_t *t, const char *s, size_t len)
{
    if (!t->cap)
        return -1;
    size_t m = t->cap - 1, i = util_hash64(s, len, 0) & m;
    for (; t->slot[i].key; i = (i + 1) & m)
        if (!strncmp(t->slot[i].key, s, len) && t->slot[i].key[len] == '\0')
            return t->slot[i].val;
    return -1;
}

void proto_names_free(proto_names_t *t)
{
    free(t->slot);
    *t = (proto_names_t){NULL, 0, 0};
}

static int find_tok(const proto_parser_t *ps, const proto_names_t *t, const lex_tok_t *tok)
{
    return proto_names_find(t, ps->src + tok->off, tok->len);
}

/* ---- lookups ---- */

int proto_find_state(const proto_ctrl_t *c, const proto_parser_t *ps, const lex_tok_t *t)
{
    for (int i = 0; i < c->nstates; i++) /* at most PROTO_MAX_STATES */
        if (proto_tok_eq(ps, t, c->state_names[i]))
            return i;
    return -1;
}

int proto_find_ctrl(const proto_parser_t *ps, const lex_tok_t *t)
{
    return find_tok(ps, &ps->ix_ctrls, t);
}

int proto_find_msg(const proto_parser_t *ps, const lex_tok_t *t)
{
    return find_tok(ps, &ps->ix_msgs, t);
}

int proto_find_param(const proto_parser_t *ps, const lex_tok_t *t)
{
    return find_tok(ps, &ps->ix_params, t);
}

int proto_find_named(const proto_parser_t *ps, const lex_tok_t *t)
{
    return find_tok(ps, &ps->ix_named, t);
}

int proto_find_event(const proto_parser_t *ps, const lex_tok_t *t)
{
    int i = proto_find_msg(ps, t);
    if (i >= 0)
        return i;
    i = proto_find_named(ps, t);
    return i >= 0 && ps->p->nevents > 0 ? ps->p->nmsgs + i : -1;
}

const char *proto_file_at(const proto_parser_t *ps, size_t off)
{
    const char *f = ps->file;
    for (int i = 0; i < ps->nsegs && ps->segs[i].off <= off; i++)
        f = ps->segs[i].file;
    return f;
}

/* The base named by a header 'protocol NAME [STRING] extends BASE' at the
 * start of TOKS, malloc'd, with *AT its first token; NULL when the first
 * section extends nothing (or is malformed: the parser reports that). */
static char *header_base(const char *src, const lex_tok_t *toks, int ntoks, int *at)
{
#define IS(i, w) \
    (toks[i].kind == T_ID && toks[i].len == strlen(w) && !memcmp(src + toks[i].off, w, strlen(w)))
    int i = 0;
    if (ntoks < 4 || !IS(0, "protocol"))
        return NULL;
    for (int pass = 0; pass < 2; pass++) {
        i++;
        if (i >= ntoks || toks[i].kind != T_ID)
            return NULL;
        int first = i;
        while (i + 2 < ntoks && (toks[i + 1].kind == T_MINUS || toks[i + 1].kind == T_DOT) &&
               toks[i + 1].off == toks[i].off + toks[i].len &&
               (toks[i + 2].kind == T_ID || toks[i + 2].kind == T_INT) &&
               toks[i + 2].off == toks[i + 1].off + 1)
            i += 2;
        if (pass == 1) {
            *at = first;
            return xstrndup(src + toks[first].off, toks[i].off + toks[i].len - toks[first].off);
        }
        if (i + 1 < ntoks && toks[i + 1].kind == T_STRING)
            i++;
        if (i + 1 >= ntoks || !IS(i + 1, "extends"))
            return NULL;
        i++;
    }
    return NULL;
#undef IS
}

/* BASE.proto in FILE's folder. */
static strbuf_t beside(const char *file, const char *base)
{
    strbuf_t pb;
    sb_init(&pb);
    const char *slash = strrchr(file, '/');
    if (slash)
        sb_putn(&pb, file, (size_t)(slash - file) + 1);
    sb_printf(&pb, "%s.proto", base);
    return pb;
}

/* Read BASE.proto beside FILE, else from the first of the parser's protocol folders
 * that has it: its path (the caller frees it and *TEXT), or NULL. */
static char *read_base(const proto_parser_t *ps, const char *file, const char *base, char **text,
                       size_t *tlen)
{
    strbuf_t pb = beside(file, base);
    if (!util_read_file(pb.s, text, tlen))
        return pb.s;
    for (int k = 0; ps->lib && ps->lib[k]; k++) {
        pb.len = 0;
        sb_printf(&pb, "%s/%s.proto", ps->lib[k], base);
        if (!util_read_file(pb.s, text, tlen))
            return pb.s;
    }
    free(pb.s);
    return NULL;
}

/* Append text SRC[0..LEN) of FILE, tokenised, to the parser's combined
 * source, after the base it extends (read from BASE.proto beside FILE). */
static int compose(proto_parser_t *ps, const lex_spec_t *spec, const char *file, const char *src,
                   size_t len, int depth, strbuf_t *all)
{
    lex_tok_t *toks;
    int ntoks;
    if (lex_run(spec, file, src, len, &toks, &ntoks, ps->err))
        return -1;
    int at = 0;
    char *base = header_base(src, toks, ntoks, &at);
    if (base) {
        char *text = NULL, *path = NULL;
        size_t tlen = 0;
        int rc = 0;
        if (depth >= PROTO_MAX_EXTENDS) {
            diag_set(ps->err, file, toks[at].line, toks[at].col,
                     "'extends' chain longer than %d (a cycle?)", PROTO_MAX_EXTENDS);
            rc = -1;
        } else if (!(path = read_base(ps, file, base, &text, &tlen))) {
            strbuf_t pb = beside(file, base);
            diag_set(ps->err, file, toks[at].line, toks[at].col,
                     "cannot read base protocol '%s' (%s)", base, pb.s);
            free(pb.s);
            rc = -1;
        } else {
            rc = compose(ps, spec, path, text, tlen, depth + 1, all);
        }
        free(text);
        free(path);
        free(base);
        if (rc) {
            free(toks);
            return -1;
        }
    }
    size_t shift = all->len;
    proto_seg_t seg = {shift, xstrdup(file)};
    ps->segs = xrealloc(ps->segs, sizeof *ps->segs * (size_t)(ps->nsegs + 1));
    ps->segs[ps->nsegs++] = seg;
    sb_putn(all, src, len);
    sb_putn(all, "\n", 1);
    if (ps->ntoks) /* drop the previous text's end-of-file token */
        ps->ntoks--;
    ps->toks = xrealloc(ps->toks, sizeof *ps->toks * (size_t)(ps->ntoks + ntoks));
    for (int i = 0; i < ntoks; i++) {
        toks[i].off += shift;
        ps->toks[ps->ntoks++] = toks[i];
    }
    free(toks);
    return 0;
}

int proto_lex(proto_parser_t *ps, char **combined, size_t *combined_len)
{
    lex_spec_t *spec;
    if (lex_spec_new(rules, (int)(sizeof rules / sizeof rules[0]), &spec, ps->err))
        return -1;
    strbuf_t all;
    sb_init(&all);
    int rc = compose(ps, spec, ps->file, ps->src, ps->len, 0, &all);
    lex_spec_free(spec);
    if (rc) {
        free(all.s);
        return -1;
    }
    *combined = all.s;
    *combined_len = all.len;
    return 0;
}
