/* proto_expr.c - expressions of protocol files: precedence climbing over
 * '||' < '&&' < comparisons < '+' '-' < unary, name resolution in the
 * current context (row, invariant, initial value) and type inference.
 *
 * Invariant: in pass 2 every node returned has its names resolved and a
 * type; a data-typed node is always a variable or a message field (the only
 * data sources), so a consumer can copy data by address. The tree is at most
 * PROTO_MAX_DEPTH deep: each nested group, unary operator and each operator
 * of a binary chain counts one level. In pass 1 names are not resolved and
 * types are not checked (nodes are placeholders, freed by the caller). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "proto_int.h"

static const proto_type_t ty_bool = {PROTO_T_BOOL, 0, 1, false, false};
static const proto_type_t ty_val = {PROTO_T_VAL, 0, 0, false, false};
static const proto_type_t ty_node = {PROTO_T_NODE, 0, 0, false, false};
static const proto_type_t ty_anyint = {PROTO_T_INT, -PROTO_MAX_INT, PROTO_MAX_INT, false, false};
static const proto_type_t ty_time = {PROTO_T_TIME, 0, 0, false, false};
static const proto_type_t ty_none = {PROTO_T_NONE, 0, 0, false, false};

static bool is_set(proto_type_t t)
{
    return t.kind == PROTO_T_NODESET || t.kind == PROTO_T_MASK || t.kind == PROTO_T_NONE;
}

/* Names a variable or param cannot take. max, min, count and apply are
 * functions only when a '(' follows, so they stay free. */
bool proto_reserved(const char *name)
{
    static const char *const words[] = {"true", "false", "self",    "line", "msg",
                                        "req",  "none",  "initial", "in",   "each"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(name, words[i]))
            return true;
    return false;
}

void proto_type_name(proto_type_t ty, char *buf, size_t n)
{
    static const char *const names[] = {"val", "data", "tid",     "loc",  "node", "bool",
                                        "int", "time", "nodeset", "mask", "none"};
    if (ty.kind == PROTO_T_INT && ty.ncus)
        snprintf(buf, n, "int(%d..ncus)", ty.lo);
    else if (ty.kind == PROTO_T_INT && ty.nthreads)
        snprintf(buf, n, "int(%d..nthreads)", ty.lo);
    else if (ty.kind == PROTO_T_INT)
        snprintf(buf, n, "int(%d..%d)", ty.lo, ty.hi);
    else
        snprintf(buf, n, "%s", names[ty.kind]);
}

static proto_expr_t *node(proto_expr_kind_t kind, const lex_tok_t *t, proto_type_t ty)
{
    proto_expr_t *e = xcalloc(1, sizeof *e);
    e->kind = kind;
    e->index = -1;
    e->type = ty;
    e->line = t->line;
    e->col = t->col;
    return e;
}

static int clamp(long long v)
{
    return v < -PROTO_MAX_INT ? -PROTO_MAX_INT : v > PROTO_MAX_INT ? PROTO_MAX_INT : (int)v;
}

static proto_type_t int_range(long long lo, long long hi)
{
    return (proto_type_t){PROTO_T_INT, clamp(lo), clamp(hi), false, false};
}

/* The range an integer-like type can take, for interval arithmetic. */
static void range_of(proto_type_t ty, long long *lo, long long *hi)
{
    if (ty.kind == PROTO_T_INT) {
        *lo = ty.lo;
        *hi = ty.hi;
    } else if (ty.kind == PROTO_T_BOOL) {
        *lo = 0;
        *hi = 1;
    } else {
        *lo = -PROTO_MAX_INT;
        *hi = PROTO_MAX_INT;
    }
}

int proto_need_value(proto_parser_t *ps, const proto_expr_t *e, const char *what)
{
    if (ps->pass == 1 || e->type.kind != PROTO_T_DATA)
        return 0;
    return proto_fail_pos(ps, e->line, e->col,
                          "type mismatch: %s needs a value, found data (index it: NAME[loc])",
                          what);
}

int proto_need_data(proto_parser_t *ps, const proto_expr_t *e, const char *what)
{
    if (ps->pass == 1 || e->type.kind == PROTO_T_DATA)
        return 0;
    char ty[40];
    proto_type_name(e->type, ty, sizeof ty);
    return proto_fail_pos(ps, e->line, e->col, "type mismatch: %s needs data, found %s", what, ty);
}

int proto_need_type(proto_parser_t *ps, const proto_expr_t *e, proto_type_t ty, const char *what)
{
    if (ty.kind == PROTO_T_DATA)
        return proto_need_data(ps, e, what);
    if (ps->pass == 2 && (is_set(ty) || is_set(e->type)) && e->type.kind != ty.kind &&
        !(is_set(ty) && e->type.kind == PROTO_T_NONE)) {
        char want[40], got[40];
        proto_type_name(ty, want, sizeof want);
        proto_type_name(e->type, got, sizeof got);
        return proto_fail_pos(ps, e->line, e->col, "type mismatch: %s needs %s, found %s", what,
                              want, got);
    }
    if (ps->pass == 2 && (ty.kind == PROTO_T_TIME) != (e->type.kind == PROTO_T_TIME))
        return proto_fail_pos(ps, e->line, e->col,
                              "type mismatch: %s needs %s (a time is only combined with times "
                              "by max, min, comparisons and '+ constant')",
                              what, ty.kind == PROTO_T_TIME ? "a time" : "a value, found a time");
    return proto_need_value(ps, e, what);
}

int proto_no_time(proto_parser_t *ps, const proto_expr_t *e, const char *what)
{
    if (ps->pass == 1 || e->type.kind != PROTO_T_TIME)
        return 0;
    return proto_fail_pos(ps, e->line, e->col,
                          "type mismatch: %s cannot take a time (times are only combined by "
                          "max, min, comparisons and '+ constant')",
                          what);
}

/* A constant: literals and params combined by + and -. */
static bool is_const(const proto_expr_t *e)
{
    switch (e->kind) {
    case PROTO_E_INT:
    case PROTO_E_PARAM: return true;
    case PROTO_E_NEG: return is_const(e->a);
    case PROTO_E_BIN: return (e->op == '+' || e->op == '-') && is_const(e->a) && is_const(e->b);
    default: return false;
    }
}

static int enter(proto_parser_t *ps, const lex_tok_t *t)
{
    if (++ps->depth > PROTO_MAX_DEPTH)
        return proto_fail(ps, t, "expression nested too deeply (more than %d levels)",
                          PROTO_MAX_DEPTH);
    return 0;
}

int proto_resolve_var(proto_parser_t *ps, const lex_tok_t *t, bool *line_var, int *var)
{
    const proto_t *p = ps->p;
    int n = t->len > 64 ? 64 : (int)t->len;
    const char *s = ps->src + t->off;
    if (ps->ctx == PROTO_CTX_ROW) {
        int v = proto_names_find(&ps->ix_vars[ps->ctrl], s, t->len);
        if (v >= 0 && !(v & PROTO_VAR_CTRL) && !ps->line_row)
            return proto_fail(ps, t, "line variable '%.*s' used in a controller-level ('-') row", n,
                              s);
        if (v >= 0) {
            *line_var = !(v & PROTO_VAR_CTRL);
            *var = v & ~PROTO_VAR_CTRL;
            return 0;
        }
    }
    *var = proto_find_param(ps, t);
    if (*var >= 0)
        return 1;
    if (ps->ctx == PROTO_CTX_ROW)
        return proto_fail(ps, t, "undeclared variable '%.*s' in controller '%s'", n, s,
                          p->ctrls[ps->ctrl].name);
    return proto_fail(ps, t, "undeclared param '%.*s'%s", n, s,
                      ps->ctx == PROTO_CTX_INV ? " (an invariant reads params, count and line)"
                                               : " (an initial value reads literals and params)");
}

/* The event of the row being read, when it is of KIND; else an error at T. */
static int need_event(proto_parser_t *ps, const lex_tok_t *t, proto_event_kind_t kind,
                      const char *use)
{
    if (ps->ctx == PROTO_CTX_ROW && ps->ev >= 0 && ps->p->events[ps->ev].kind == kind)
        return 0;
    const char *what = kind == PROTO_EV_MSG ? "a message" : "a core event";
    if (ps->ctx != PROTO_CTX_ROW)
        return proto_fail(ps, t, "'%s' outside a row", use);
    return proto_fail(ps, t, "'%s' in a row for '%s', which is not %s", use,
                      ps->p->events[ps->ev].name, what);
}

static int need_line(proto_parser_t *ps, const lex_tok_t *t, const char *use)
{
    if (ps->ctx == PROTO_CTX_CONST)
        return proto_fail(ps, t, "'%s' in an initial value (only literals and params)", use);
    if (!ps->line_row)
        return proto_fail(ps, t, "'%s' needs a line: not in a controller-level ('-') row", use);
    return 0;
}

/* msg.F or msg.src. */
static int primary_msg(proto_parser_t *ps, const lex_tok_t *kw, proto_expr_t **out)
{
    const lex_tok_t *f;
    if (proto_expect(ps, T_DOT, "'.' after 'msg'"))
        return -1;
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, "a message field name");
    f = proto_next(ps);
    if (ps->pass == 1) {
        *out = node(PROTO_E_MSGSRC, kw, ty_node);
        return 0;
    }
    if (need_event(ps, kw, PROTO_EV_MSG, "msg"))
        return -1;
    if (proto_tok_eq(ps, f, "src")) {
        *out = node(PROTO_E_MSGSRC, kw, ty_node);
        return 0;
    }
    const proto_msg_t *m = &ps->p->msgs[ps->p->events[ps->ev].msg];
    for (int i = 0; i < m->nfields; i++)
        if (proto_tok_eq(ps, f, m->fields[i].name)) {
            *out = node(PROTO_E_MSGF, kw, m->fields[i].type);
            (*out)->index = i;
            return 0;
        }
    return proto_fail(ps, f, "message '%s' has no field '%.*s'", m->name,
                      f->len > 64 ? 64 : (int)f->len, ps->src + f->off);
}

/* req.F */
static int primary_req(proto_parser_t *ps, const lex_tok_t *kw, proto_expr_t **out)
{
    static const struct {
        const char *name;
        proto_req_field_t f;
        proto_type_t ty;
    } fields[] = {
        {"loc", PROTO_REQ_LOC, {PROTO_T_LOC, 0, 0, false, false}},
        {"val", PROTO_REQ_VAL, {PROTO_T_VAL, 0, 0, false, false}},
        {"exp", PROTO_REQ_EXP, {PROTO_T_VAL, 0, 0, false, false}},
        {"op", PROTO_REQ_OP, {PROTO_T_INT, 0, 2, false, false}},
        {"ord", PROTO_REQ_ORD, {PROTO_T_INT, 0, 5, false, false}},
        {"scope", PROTO_REQ_SCOPE, {PROTO_T_INT, 0, 4, false, false}},
        {"tid", PROTO_REQ_TID, {PROTO_T_TID, 0, 0, false, false}},
    };
    if (proto_expect(ps, T_DOT, "'.' after 'req'"))
        return -1;
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, "a request field (loc val exp op ord scope tid)");
    const lex_tok_t *f = proto_next(ps);
    if (ps->pass == 1) {
        *out = node(PROTO_E_REQF, kw, ty_val);
        return 0;
    }
    if (need_event(ps, kw, PROTO_EV_CORE, "req"))
        return -1;
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
        if (proto_tok_eq(ps, f, fields[i].name)) {
            *out = node(PROTO_E_REQF, kw, fields[i].ty);
            (*out)->index = (int)fields[i].f;
            return 0;
        }
    return proto_fail(ps, f, "unknown request field '%.*s' (loc val exp op ord scope tid)",
                      f->len > 64 ? 64 : (int)f->len, ps->src + f->off);
}

/* Parse N (at most 4) comma-separated value arguments in parentheses into
 * E's operands a, b, c, d; E owns whatever was parsed, even on failure. */
static int call_args(proto_parser_t *ps, const char *fn, int n, proto_expr_t *e)
{
    proto_expr_t **slot[4] = {&e->a, &e->b, &e->c, &e->d};
    if (proto_expect(ps, T_LPAREN, "'('"))
        return -1;
    for (int i = 0; i < n; i++) {
        if (i && proto_expect(ps, T_COMMA, "','"))
            return -1;
        if (proto_parse_expr(ps, slot[i]))
            return -1;
        char what[48];
        snprintf(what, sizeof what, "an argument of %s", fn);
        if (proto_need_value(ps, *slot[i], what))
            return -1;
    }
    return proto_expect(ps, T_RPAREN, "')'");
}

/* count '(' ID ',' STATE {STATE} ')' */
static int primary_count(proto_parser_t *ps, proto_expr_t *e)
{
    if (proto_expect(ps, T_LPAREN, "'('"))
        return -1;
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, "a controller name");
    const lex_tok_t *ct = proto_next(ps);
    if (proto_expect(ps, T_COMMA, "','"))
        return -1;
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, "a state name");
    const proto_ctrl_t *c = NULL;
    if (ps->pass == 2) {
        e->index = proto_find_ctrl(ps, ct);
        if (e->index < 0)
            return proto_fail(ps, ct, "undeclared controller '%.*s'",
                              ct->len > 64 ? 64 : (int)ct->len, ps->src + ct->off);
        c = &ps->p->ctrls[e->index];
    }
    while (proto_peek(ps)->kind == T_ID) {
        const lex_tok_t *st = proto_next(ps);
        if (!c)
            continue;
        int s = proto_find_state(c, ps, st);
        if (s < 0)
            return proto_fail(ps, st, "'%.*s' is not a state of controller '%s'",
                              st->len > 64 ? 64 : (int)st->len, ps->src + st->off, c->name);
        e->states |= (uint64_t)1 << s;
    }
    return proto_expect(ps, T_RPAREN, "a state name or ')'");
}

/* A name: keyword primary, variable, param, or NAME[index]. */
static int primary_name(proto_parser_t *ps, proto_expr_t **out)
{
    const lex_tok_t *t = proto_next(ps);
    bool call = proto_peek(ps)->kind == T_LPAREN;
    proto_expr_t *e = NULL;
    int rc;
    if (proto_is(ps, t, "true") || proto_is(ps, t, "false")) {
        e = node(PROTO_E_INT, t, ty_bool);
        e->index = proto_tok_eq(ps, t, "true");
    } else if (proto_is(ps, t, "self")) {
        if (ps->pass == 2 && ps->ctx != PROTO_CTX_ROW)
            return proto_fail(ps, t, "'self' outside a row");
        e = node(PROTO_E_SELF, t, ty_node);
    } else if (proto_is(ps, t, "line")) {
        if (ps->pass == 2 && need_line(ps, t, "line"))
            return -1;
        e = node(PROTO_E_LINE, t, int_range(0, PROTO_MAX_INT));
    } else if (proto_is(ps, t, "msg")) {
        return primary_msg(ps, t, out);
    } else if (proto_is(ps, t, "req")) {
        return primary_req(ps, t, out);
    } else if (call && (proto_is(ps, t, "max") || proto_is(ps, t, "min"))) {
        bool mx = proto_tok_eq(ps, t, "max");
        e = node(mx ? PROTO_E_MAX : PROTO_E_MIN, t, ty_anyint);
        if (call_args(ps, mx ? "max" : "min", 2, e))
            goto fail;
        proto_type_t a = e->a->type, b = e->b->type;
        if (ps->pass == 2 && (a.kind == PROTO_T_TIME) != (b.kind == PROTO_T_TIME)) {
            proto_fail(ps, t, "type mismatch: %s of a time and a value", mx ? "max" : "min");
            goto fail;
        }
        if (a.kind == b.kind && a.kind != PROTO_T_INT) {
            e->type = a;
        } else {
            long long alo, ahi, blo, bhi;
            range_of(a, &alo, &ahi);
            range_of(b, &blo, &bhi);
            e->type = mx ? int_range(alo > blo ? alo : blo, ahi > bhi ? ahi : bhi)
                         : int_range(alo < blo ? alo : blo, ahi < bhi ? ahi : bhi);
        }
    } else if (proto_is(ps, t, "none")) {
        e = node(PROTO_E_NONE, t, ty_none);
    } else if (call && proto_is(ps, t, "size")) {
        e = node(PROTO_E_SIZE, t, int_range(0, 16));
        if (proto_expect(ps, T_LPAREN, "'('") || proto_parse_expr(ps, &e->a) ||
            proto_expect(ps, T_RPAREN, "')'"))
            goto fail;
        if (ps->pass == 2 && !is_set(e->a->type)) {
            proto_fail_pos(ps, e->a->line, e->a->col,
                           "type mismatch: size() takes a nodeset or a mask");
            goto fail;
        }
    } else if (call && proto_is(ps, t, "merge")) {
        e = node(PROTO_E_MERGE, t, (proto_type_t){PROTO_T_DATA, 0, 0, false, false});
        if (proto_expect(ps, T_LPAREN, "'('") || proto_parse_expr(ps, &e->a) ||
            proto_expect(ps, T_COMMA, "','") || proto_parse_expr(ps, &e->b) ||
            proto_expect(ps, T_COMMA, "','") || proto_parse_expr(ps, &e->c) ||
            proto_expect(ps, T_RPAREN, "')'"))
            goto fail;
        if (ps->pass == 2 && (e->a->type.kind != PROTO_T_DATA || e->b->type.kind != PROTO_T_DATA ||
                              (e->a->kind != PROTO_E_LINEVAR && e->a->kind != PROTO_E_CTRLVAR &&
                               e->a->kind != PROTO_E_MSGF) ||
                              (e->b->kind != PROTO_E_LINEVAR && e->b->kind != PROTO_E_CTRLVAR &&
                               e->b->kind != PROTO_E_MSGF))) {
            proto_fail(ps, t, "merge(OLD, NEW, MASK) takes two data variables or fields");
            goto fail;
        }
        if (ps->pass == 2 && e->c->type.kind != PROTO_T_MASK && e->c->type.kind != PROTO_T_NONE) {
            proto_fail_pos(ps, e->c->line, e->c->col,
                           "type mismatch: merge's third argument is a mask");
            goto fail;
        }
        if (ps->pass == 2 && !ps->line_row) {
            proto_fail(ps, t, "merge() needs a line: not in a controller-level ('-') row");
            goto fail;
        }
    } else if (call && proto_is(ps, t, "apply")) {
        e = node(PROTO_E_APPLY, t, ty_val);
        if (call_args(ps, "apply", 4, e) || proto_no_time(ps, e->a, "apply") ||
            proto_no_time(ps, e->b, "apply") || proto_no_time(ps, e->c, "apply") ||
            proto_no_time(ps, e->d, "apply"))
            goto fail;
    } else if (call && proto_is(ps, t, "count")) {
        if (ps->pass == 2 && need_line(ps, t, "count"))
            return -1;
        e = node(PROTO_E_COUNT, t, int_range(0, PROTO_MAX_INT));
        if (primary_count(ps, e))
            goto fail;
    } else if (ps->pass == 2 && ps->p->clock && proto_tok_eq(ps, t, ps->p->clock)) {
        if (ps->ctx == PROTO_CTX_CONST)
            return proto_fail(ps, t, "the clock in an initial value (only literals and params)");
        e = node(PROTO_E_CLOCK, t, ty_time);
    } else {
        bool line_var = false;
        int var = -1;
        const proto_var_t *v = NULL;
        if (ps->pass == 1) {
            e = node(PROTO_E_PARAM, t, ty_val);
        } else if ((rc = proto_resolve_var(ps, t, &line_var, &var)) < 0) {
            return -1;
        } else if (rc == 1) {
            e = node(PROTO_E_PARAM, t, ty_anyint);
            e->index = var;
        } else {
            const proto_ctrl_t *c = &ps->p->ctrls[ps->ctrl];
            v = line_var ? &c->linevars[var] : &c->ctrlvars[var];
            e = node(line_var ? PROTO_E_LINEVAR : PROTO_E_CTRLVAR, t, v->type);
            e->index = var;
        }
        if (v && v->per_thread) {
            /* a per-thread variable: only its elements are values */
            if (proto_peek(ps)->kind != T_LBRACK) {
                proto_fail(ps, t, "'%s' is per thread: name an element, %s[TID]", v->name, v->name);
                goto fail;
            }
            proto_next(ps);
            proto_expr_t *el = node(PROTO_E_TELEM, t, v->type);
            el->a = e;
            e = el;
            if (proto_parse_expr(ps, &e->b))
                goto fail;
            if (e->b->type.kind != PROTO_T_TID) {
                char ty[40];
                proto_type_name(e->b->type, ty, sizeof ty);
                proto_fail_pos(ps, e->b->line, e->b->col,
                               "type mismatch: a per-thread variable is indexed by a tid, found %s",
                               ty);
                goto fail;
            }
            if (proto_expect(ps, T_RBRACK, "']'"))
                goto fail;
        } else if (proto_peek(ps)->kind == T_LBRACK) {
            if (ps->pass == 2 && e->type.kind != PROTO_T_DATA) {
                proto_fail(ps, t, "'%.*s' is not data: only data variables can be indexed",
                           t->len > 64 ? 64 : (int)t->len, ps->src + t->off);
                goto fail;
            }
            proto_next(ps);
            proto_expr_t *ix = node(PROTO_E_INDEX, t, ty_val);
            ix->a = e;
            e = ix;
            if (proto_parse_expr(ps, &e->b))
                goto fail;
            if (ps->pass == 2 && e->b->type.kind != PROTO_T_LOC) {
                char ty[40];
                proto_type_name(e->b->type, ty, sizeof ty);
                proto_fail_pos(ps, e->b->line, e->b->col,
                               "type mismatch: an index must be a location (loc), found %s", ty);
                goto fail;
            }
            if (proto_expect(ps, T_RBRACK, "']'"))
                goto fail;
        }
    }
    *out = e;
    return 0;
fail:
    proto_expr_free(e);
    return -1;
}

static int parse_unary(proto_parser_t *ps, proto_expr_t **out);

static int parse_primary(proto_parser_t *ps, proto_expr_t **out)
{
    const lex_tok_t *t = proto_peek(ps);
    switch (t->kind) {
    case T_INT: {
        int v;
        if (proto_int_value(ps, t, &v))
            return -1;
        proto_next(ps);
        *out = node(PROTO_E_INT, t, int_range(v, v));
        (*out)->index = v;
        return 0;
    }
    case T_ID: return primary_name(ps, out);
    case T_LPAREN:
        proto_next(ps);
        if (proto_parse_expr(ps, out))
            return -1;
        if (proto_expect(ps, T_RPAREN, "')'")) {
            proto_expr_free(*out);
            return -1;
        }
        return 0;
    default: return proto_expected(ps, "an expression");
    }
}

static int parse_unary(proto_parser_t *ps, proto_expr_t **out)
{
    const lex_tok_t *t = proto_peek(ps);
    if (t->kind != T_NOT && t->kind != T_MINUS)
        return parse_primary(ps, out);
    proto_next(ps);
    if (enter(ps, t))
        return -1;
    proto_expr_t *a;
    int rc = parse_unary(ps, &a);
    ps->depth--;
    if (rc)
        return -1;
    const char *what = t->kind == T_NOT ? "'!'" : "unary '-'";
    if (proto_need_value(ps, a, what) || proto_no_time(ps, a, what)) {
        proto_expr_free(a);
        return -1;
    }
    proto_expr_t *e;
    if (t->kind == T_NOT) {
        e = node(PROTO_E_NOT, t, ty_bool);
    } else {
        long long lo, hi;
        range_of(a->type, &lo, &hi);
        e = node(PROTO_E_NEG, t, int_range(-hi, -lo));
    }
    e->a = a;
    *out = e;
    return 0;
}

/* Binary operator levels, loosest first. */
enum { LV_OR, LV_AND, LV_CMP, LV_ADD, LV_UNARY };

static int binop(int level, int kind)
{
    switch (level) {
    case LV_OR: return kind == T_OROR ? '|' : 0;
    case LV_AND: return kind == T_ANDAND ? '&' : 0;
    case LV_CMP:
        switch (kind) {
        case T_EQEQ: return '=';
        case T_NE: return '!';
        case T_LT: return '<';
        case T_LE: return 'l';
        case T_GT: return '>';
        case T_GE: return 'g';
        default: return 0;
        }
    case LV_ADD: return kind == T_PLUS ? '+' : kind == T_MINUS ? '-' : 0;
    default: return 0;
    }
}

/* Operands of OP at LEVEL when a set takes part: NULL when fine, else why not. */
static const char *set_operands(const proto_parser_t *ps, int op, int level, const proto_expr_t *a,
                                const proto_expr_t *b)
{
    if (ps->pass == 1)
        return NULL;
    proto_type_t ta = a->type, tb = b->type;
    if (op == 'i') {
        if (tb.kind == PROTO_T_NODESET && ta.kind != PROTO_T_NODE)
            return "a nodeset holds nodes (msg.src, self, a node variable)";
        if (tb.kind == PROTO_T_MASK && ta.kind != PROTO_T_LOC)
            return "a mask holds locations (req.loc, msg.loc, a loc variable)";
        if (tb.kind != PROTO_T_NODESET && tb.kind != PROTO_T_MASK)
            return "'in' needs a nodeset or a mask on its right";
        return NULL;
    }
    if (!is_set(ta) && !is_set(tb))
        return NULL;
    if (level == LV_ADD) {
        if (ta.kind == PROTO_T_NODESET && tb.kind == PROTO_T_NODE)
            return NULL;
        if (ta.kind == PROTO_T_MASK && tb.kind == PROTO_T_LOC)
            return NULL;
        return "SET + ELEMENT and SET - ELEMENT add or remove a node (nodeset) or a location "
               "(mask)";
    }
    if (level == LV_CMP && (op == '=' || op == '!') && is_set(ta) && is_set(tb) &&
        (ta.kind == tb.kind || ta.kind == PROTO_T_NONE || tb.kind == PROTO_T_NONE))
        return NULL;
    return "sets are compared with == and != (to another set or none)";
}

static int parse_level(proto_parser_t *ps, int level, proto_expr_t **out)
{
    if (level == LV_UNARY)
        return parse_unary(ps, out);
    proto_expr_t *a;
    if (parse_level(ps, level + 1, &a))
        return -1;
    int entered = 0, rc = 0;
    for (;;) {
        const lex_tok_t *t = proto_peek(ps);
        int op = binop(level, t->kind);
        if (level == LV_CMP && proto_is(ps, t, "in"))
            op = 'i';
        if (!op)
            break;
        proto_next(ps);
        entered++;
        proto_expr_t *b = NULL;
        if (enter(ps, t) || parse_level(ps, level + 1, &b)) {
            rc = -1;
            break;
        }
        char what[32];
        snprintf(what, sizeof what, "operator '%.*s'", (int)t->len, ps->src + t->off);
        if (proto_need_value(ps, a, what) || proto_need_value(ps, b, what)) {
            proto_expr_free(b);
            rc = -1;
            break;
        }
        proto_type_t ty = ty_bool;
        bool ta = a->type.kind == PROTO_T_TIME, tb = b->type.kind == PROTO_T_TIME;
        const char *setbad = set_operands(ps, op, level, a, b);
        if (setbad) {
            proto_fail(ps, t, "type mismatch at '%.*s': %s", (int)t->len, ps->src + t->off, setbad);
            proto_expr_free(b);
            rc = -1;
            break;
        }
        if (op == 'i' || (level == LV_ADD && is_set(a->type))) {
            proto_expr_t *e =
                node(op == 'i' ? PROTO_E_IN : PROTO_E_SETOP, t, op == 'i' ? ty_bool : a->type);
            e->line = a->line;
            e->col = a->col;
            e->op = op;
            e->a = a;
            e->b = b;
            a = e;
            continue;
        }
        if (ps->pass == 2 && (ta || tb)) {
            /* Shift invariance: time op time only compares; time +/- constant is a time. */
            const char *bad = NULL;
            if (level == LV_OR || level == LV_AND)
                bad = "a time is not a truth value";
            else if (level == LV_CMP && ta != tb)
                bad = "a time compares only with a time";
            else if (level == LV_ADD && (ta == tb || (tb && op == '-')))
                bad = "only 'time + constant', 'constant + time' and 'time - constant' are times";
            else if (level == LV_ADD && !is_const(ta ? b : a))
                bad = "a time moves only by a constant (literals and params)";
            if (bad) {
                proto_fail(ps, t, "type mismatch at '%.*s': %s", (int)t->len, ps->src + t->off,
                           bad);
                proto_expr_free(b);
                rc = -1;
                break;
            }
            if (level == LV_ADD)
                ty = ty_time;
        } else if (level == LV_ADD) {
            long long alo, ahi, blo, bhi;
            range_of(a->type, &alo, &ahi);
            range_of(b->type, &blo, &bhi);
            ty = op == '+' ? int_range(alo + blo, ahi + bhi) : int_range(alo - bhi, ahi - blo);
        }
        proto_expr_t *e = node(PROTO_E_BIN, t, ty);
        e->line = a->line;
        e->col = a->col;
        e->op = op;
        e->a = a;
        e->b = b;
        a = e;
    }
    ps->depth -= entered;
    if (rc) {
        proto_expr_free(a);
        return -1;
    }
    *out = a;
    return 0;
}

int proto_parse_expr(proto_parser_t *ps, proto_expr_t **out)
{
    if (enter(ps, proto_peek(ps)))
        return -1;
    int rc = parse_level(ps, LV_OR, out);
    ps->depth--;
    return rc;
}
