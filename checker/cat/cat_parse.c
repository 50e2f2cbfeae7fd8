/* cat_parse.c - lexer rules, recursive-descent parser and static typing of
 * the model language (grammar in cat.h and docs/models.md), 'include'
 * handling, and the cat_parse/cat_load entry points.
 *
 * Invariant: every expression the parser hands to the builder is well typed
 * (each node is a set or a relation, checked operator by operator as it is
 * parsed), so the compiled model needs no type checks at evaluation time.
 * Recursion is bounded: binary and postfix operators loop, and each nesting
 * construct ( '(' '[' '~' domain range ) counts against CAT_MAX_DEPTH. */
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
    T_HERDSYM,  /* herd's '{' '}' '++' '->' ... : reported by name */
};

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
    {T_HERDSYM, "[{}!:<>-]"},
};

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
                       "herd7's '%.*s' (sets, tags, functions) is not supported by cohcheck's cat "
                       "dialect (docs/models.md, \"herd's cat and cohcheck's\")",
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
static bool starts_operand(const parser_t *p, int k)
{
    for (;; k++) {
        switch (peek(p, k)->kind) {
        case T_ID:
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

static int parse_expr(parser_t *p, int *out);

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
    static const char *const w[] = {
        "try", "fun", "match", "rec",  "in",     "with",   "RMW",    "ACQ_REL", "A",
        "NA",  "CON", "FW",    "toid", "po-loc", "rfe",    "rfi",    "fre",     "fri",
        "coe", "coi", "sm",    "amo",  "data",   "addr",   "ctrl",   "co0",     "invrf",
        "X",   "LK",  "UL",    "LS",   "lo",     "MFENCE", "SFENCE", "LFENCE",  "emptyset"};
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        if (t->len == strlen(w[i]) && !memcmp(p->src + t->off, w[i], t->len))
            return true;
    return false;
}

static int parse_primary(parser_t *p, int *out)
{
    cat_build_t *b = p->sh->b;
    const lex_tok_t t = *cur(p);
    lex_tok_t first;
    int e;
    switch (t.kind) {
    case T_ID:
        *out = cat_lookup(b, p->src + t.off, t.len);
        if (*out < 0 && herd_name(p, &t))
            return fail_at(p, &t,
                           "unknown name '%.*s': herd7's (its language or standard library), "
                           "not in cohcheck's cat dialect (docs/models.md, \"herd's cat and "
                           "cohcheck's\")",
                           (int)t.len, p->src + t.off);
        if (*out < 0)
            return fail_at(p, &t, "unknown name '%.*s'", t.len > 64 ? 64 : (int)t.len,
                           p->src + t.off);
        advance(p);
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
        int po = cat_lookup(b, "po", 2);
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
 * sets), the part with a meaning in cohcheck's executions, read before a file
 * with a herd header ('C RC11'). An RMW is two events here, so RMW is both. */
static const char herd_prelude[] = "let po-loc = po & loc\n"
                                   "let rfe = rf & ext\n"
                                   "let rfi = rf & int\n"
                                   "let ACQ_REL = ACQREL\n"
                                   "let RMW = domain(rmw) | range(rmw)\n"
                                   "let A = M & (RLX | ACQ | REL | ACQREL | SC)\n"
                                   "let NA = M \\ A\n"
                                   "let FW = W \\ domain(co)\n";

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
    rc = parse_file(p->sh, path, data, len);
    p->sh->nstack--;
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
    static const char *const kw[] = {"if",           "procedure", "call",      "rec",    "with",
                                     "try",          "match",     "enum",      "forall", "and",
                                     "instructions", "events",    "relations", "assert", "in"};
    const lex_tok_t *t = cur(p);
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (tok_is(p, t, kw[i]))
            return fail_at(p, t,
                           "herd7's '%s' is not supported by cohcheck's cat dialect "
                           "(docs/models.md, \"herd's cat and cohcheck's\")",
                           kw[i]);
    return expected(p, "'let', 'include', 'flag' or a check");
}

/* herd7's show/unshow E [as N], E, ...: what herd7 draws; nothing here. */
static int skip_show(parser_t *p)
{
    advance(p);
    for (;;) {
        int e;
        if (parse_expr(p, &e))
            return -1;
        if (cur(p)->kind == T_AS) {
            advance(p);
            if (cur(p)->kind != T_ID)
                return expected(p, "a name after 'as'");
            advance(p);
        }
        if (cur(p)->kind != T_COMMA)
            return 0;
        advance(p);
    }
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
        if (p->sh->nstack <= 1 &&
            parse_file(p->sh, "<herd7's stdlib>", herd_prelude, sizeof herd_prelude - 1))
            return -1;
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
        case T_LET: {
            advance(p);
            const lex_tok_t id = *cur(p);
            if (id.kind != T_ID)
                return expected(p, "a name after 'let'");
            advance(p);
            if (cur(p)->kind == T_LPAREN || (cur(p)->kind == T_ID && peek(p, 1)->kind == T_EQ))
                return fail_at(p, cur(p),
                               "herd7's functions ('let %.*s(...) =') are not supported by "
                               "cohcheck's cat dialect (docs/models.md, \"herd's cat and "
                               "cohcheck's\")",
                               (int)(id.len > 64 ? 64 : id.len), p->src + id.off);
            if (cur(p)->kind != T_EQ)
                return expected(p, "'='");
            advance(p);
            int e;
            if (parse_expr(p, &e))
                return -1;
            cat_bind(p->sh->b, p->src + id.off, id.len, e); /* bound after: no recursion */
            break;
        }
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
    int rc = parse_stmts(&p);
    free(p.t);
    return rc;
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
    int rc = parse_file(&sh, file, src, len);
    if (rc == 0)
        *out = cat_compile(&b, name, sh.title ? sh.title : name);
    free(stack[0]);
    free(sh.title);
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
