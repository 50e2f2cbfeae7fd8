/* proto_pred.c - predictors in the table language (docs/protocol-language.md,
 * Predictors): 'predict PARAM per bank|line range LO..HI [start N|min|max]'
 * and the rules 'on STATES | EVENTS | [GUARD] | PARAM OP N [| used EVENT, ...]'
 * that move a prediction.
 * Invariant: predictors only add to proto_t.preds and proto_t.prules; no row,
 * variable, param value or event changes, so the explorer's tables (and every
 * count, export and mutant made from them) are those of the file without them. */
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "proto_int.h"

#define NAME(t) (int)(t)->len, ps->src + (t)->off

/* The predictor of PARAM token T in the current controller: its index, or -1 with an
 * error. */
static int find_pred(proto_parser_t *ps, const lex_tok_t *t)
{
    int k = proto_find_param(ps, t);
    if (k < 0)
        return proto_fail(ps, t, "undeclared param '%.*s'", NAME(t));
    for (int i = 0; i < ps->p->npreds; i++)
        if (ps->p->preds[i].param == k && ps->p->preds[i].ctrl == ps->ctrl)
            return i;
    return proto_fail(ps, t, "param '%.*s' has no 'predict' in controller '%s' before this rule",
                      NAME(t), ps->p->ctrls[ps->ctrl].name);
}

/* 'start' (INT | 'min' | 'max') into *V (LO, HI: the range). */
static int pred_start(proto_parser_t *ps, int lo, int hi, int *v)
{
    const lex_tok_t *t = proto_peek(ps);
    if (proto_is(ps, t, "min") || proto_is(ps, t, "max")) {
        proto_next(ps);
        *v = proto_tok_eq(ps, t, "min") ? lo : hi;
        return 0;
    }
    if (proto_signed_int(ps, v))
        return -1;
    if (*v < lo || *v > hi)
        return proto_fail(ps, t, "start %d is outside the range %d..%d", *v, lo, hi);
    return 0;
}

int proto_parse_predict(proto_parser_t *ps)
{
    const lex_tok_t *kw = proto_next(ps), *name, *scope, *lot;
    proto_pred_t d = {0};
    if (proto_expect_id(ps, "the param it predicts", &name) || proto_expect_word(ps, "per"))
        return -1;
    scope = proto_peek(ps);
    if (!proto_is(ps, scope, "bank") && !proto_is(ps, scope, "line"))
        return proto_expected(ps, "'bank' or 'line'");
    proto_next(ps);
    d.per_line = proto_tok_eq(ps, scope, "line");
    if (proto_expect_word(ps, "range"))
        return -1;
    lot = proto_peek(ps);
    if (proto_signed_int(ps, &d.lo) || proto_expect(ps, T_DOTDOT, "'..'") ||
        proto_signed_int(ps, &d.hi))
        return -1;
    if (d.lo > d.hi)
        return proto_fail(ps, lot, "empty range %d..%d", d.lo, d.hi);
    bool has_start = proto_is(ps, proto_peek(ps), "start");
    if (has_start) {
        proto_next(ps);
        if (pred_start(ps, d.lo, d.hi, &d.start))
            return -1;
    }
    if (ps->pass == 1)
        return 0;
    d.param = proto_find_param(ps, name);
    if (d.param < 0)
        return proto_fail(ps, name, "undeclared param '%.*s'", NAME(name));
    d.ctrl = ps->ctrl;
    int fixed = ps->p->params[d.param].value;
    d.start_param = !has_start;
    if (!has_start)
        d.start = fixed < d.lo ? d.lo : fixed > d.hi ? d.hi : fixed;
    d.line = kw->line;
    d.col = kw->col;
    d.section = ps->section;
    for (int i = 0; i < ps->p->npreds; i++) {
        proto_pred_t *o = &ps->p->preds[i];
        if (o->param != d.param)
            continue;
        if (o->ctrl != d.ctrl)
            return proto_fail(ps, name, "param '%.*s' is already predicted in controller '%s'",
                              NAME(name), ps->p->ctrls[o->ctrl].name);
        if (o->section == ps->section)
            return proto_fail(ps, name, "param '%.*s' is predicted twice", NAME(name));
        *o = d; /* a variant's new declaration replaces its base's */
        return 0;
    }
    UTIL_PUSH(ps->p->preds, ps->p->npreds, ps->cap_preds, d);
    return 0;
}

/* PARAM OP N: the rule's update. */
static int rule_update(proto_parser_t *ps, proto_prule_t *r)
{
    const lex_tok_t *name, *op;
    if (proto_expect_id(ps, "the predicted param", &name))
        return -1;
    if (ps->pass == 2 && (r->pred = find_pred(ps, name)) < 0)
        return -1;
    op = proto_next(ps);
    switch (op->kind) {
    case T_PLUS: r->op = PROTO_PU_ADD; break;
    case T_MINUS: r->op = PROTO_PU_SUB; break;
    case T_STAR: r->op = PROTO_PU_MUL; break;
    case T_ASSIGN: r->op = PROTO_PU_SET; break;
    default:
        if (op->kind == T_ID && proto_tok_eq(ps, op, "div")) {
            r->op = PROTO_PU_DIV;
            break;
        }
        ps->pos--;
        return proto_expected(ps, "'+', '-', '*', 'div' or ':='");
    }
    const lex_tok_t *v = proto_peek(ps);
    if (r->op == PROTO_PU_SET && (proto_is(ps, v, "min") || proto_is(ps, v, "max"))) {
        proto_next(ps);
        if (ps->pass == 2) {
            const proto_pred_t *d = &ps->p->preds[r->pred];
            r->arg = proto_tok_eq(ps, v, "min") ? d->lo : d->hi;
        }
        return 0;
    }
    if (r->op == PROTO_PU_SET
            ? proto_signed_int(ps, &r->arg)
            : proto_expect(ps, T_INT, "an integer") || proto_int_value(ps, v, &r->arg))
        return -1;
    if ((r->op == PROTO_PU_MUL || r->op == PROTO_PU_DIV) && r->arg < 1)
        return proto_fail(ps, v, "a factor of at least 1");
    return 0;
}

/* '| used EVENT, ...': the core events whose use turns the rule on. */
static int rule_used(proto_parser_t *ps, proto_prule_t *r)
{
    size_t cap = 0;
    if (proto_expect_word(ps, "used"))
        return -1;
    for (;;) {
        const lex_tok_t *t;
        if (proto_expect_id(ps, "a core event", &t))
            return -1;
        if (ps->pass == 2) {
            int ev = proto_find_event(ps, t);
            if (ev < 0 || ps->p->events[ev].kind != PROTO_EV_CORE)
                return proto_fail(ps, t, "'%.*s' is not a core event (one a map names)", NAME(t));
            UTIL_PUSH(r->used, r->nused, cap, ev);
        }
        if (proto_peek(ps)->kind != T_COMMA)
            return 0;
        proto_next(ps);
    }
}

static void rule_clear(proto_prule_t *r)
{
    proto_expr_free(r->guard);
    free(r->used);
    memset(r, 0, sizeof *r);
}

/* The columns after EVENTS of one rule, for event EV (-1 in pass 1). */
static int rule_rest(proto_parser_t *ps, proto_prule_t *r)
{
    ps->ctx = PROTO_CTX_ROW;
    if (proto_peek(ps)->kind != T_BAR &&
        (proto_parse_expr(ps, &r->guard) || proto_need_value(ps, r->guard, "a guard") ||
         proto_no_time(ps, r->guard, "a guard")))
        return -1;
    if (proto_expect(ps, T_BAR, "'|'") || rule_update(ps, r))
        return -1;
    if (proto_peek(ps)->kind == T_BAR) {
        proto_next(ps);
        if (rule_used(ps, r))
            return -1;
    }
    if (proto_peek(ps)->kind != T_EOL)
        return proto_expected(ps, "end of rule");
    return 0;
}

int proto_parse_on(proto_parser_t *ps)
{
    const lex_tok_t *kw = proto_next(ps);
    uint64_t states;
    bool line_row;
    int *evs, nevs, rc = -1;
    if (proto_row_cells(ps, &states, &line_row, &evs, &nevs))
        return -1;
    if (proto_expect(ps, T_BAR, "',' or '|'"))
        goto out;
    int rest = ps->pos;
    ps->line_row = line_row;
    for (int i = 0; i < (ps->pass == 1 ? 1 : nevs); i++) {
        ps->pos = rest;
        ps->ev = ps->pass == 1 ? -1 : evs[i];
        proto_prule_t r = {0};
        r.ctrl = ps->ctrl;
        r.states = states;
        r.event = ps->ev;
        r.line = kw->line;
        r.col = kw->col;
        if (rule_rest(ps, &r)) {
            rule_clear(&r);
            goto out;
        }
        const lex_tok_t *first = &ps->toks[rest], *last = &ps->toks[ps->pos - 1];
        r.text_off = first->off;
        r.text_len = last->off + last->len - first->off;
        if (ps->pass == 1) {
            rule_clear(&r);
            continue;
        }
        UTIL_PUSH(ps->p->prules, ps->p->nprules, ps->cap_prules, r);
    }
    rc = 0;
out:
    ps->ev = -1;
    free(evs);
    return rc;
}

void proto_preds_free(proto_t *p)
{
    for (int i = 0; i < p->nprules; i++)
        rule_clear(&p->prules[i]);
    free(p->prules);
    free(p->preds);
}
