/* proto_row.c - table rows of protocol files:
 *   states '|' events '|' [guard] '|' actions '|' [next]
 * A source row with events {e, f} becomes one proto_row_t per event: the
 * guard, actions and next column are read once per event (pass 2 rewinds to
 * them), so that msg.F resolves against each event's own message.
 *
 * Invariant: a stored row's event agrees with its states column (line events
 * name states, controller-level events use '-'), core events appear only in
 * the core controller, done/wait/req/msg appear only where the row's event
 * gives them a meaning, and no stored row is shadowed by an earlier unguarded
 * row for the same (state, event) cell. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "proto_int.h"

#define NAME(t) ((t)->len > 64 ? 64 : (int)(t)->len), (ps->src + (t)->off)

static int resolve_state(proto_parser_t *ps, const lex_tok_t *t, int *s)
{
    const proto_ctrl_t *c = &ps->p->ctrls[ps->ctrl];
    *s = proto_find_state(c, ps, t);
    if (*s < 0)
        return proto_fail(ps, t, "undeclared state '%.*s' in controller '%s'", NAME(t), c->name);
    return 0;
}

/* lvalue ':=' expr */
static int act_assign(proto_parser_t *ps, proto_action_t *a)
{
    const lex_tok_t *t = proto_next(ps);
    a->kind = PROTO_A_ASSIGN;
    const proto_var_t *v = NULL;
    if (ps->pass == 2) {
        int rc = proto_resolve_var(ps, t, &a->line_var, &a->var);
        if (rc < 0)
            return -1;
        if (rc == 1)
            return proto_fail(ps, t, "cannot assign to param '%.*s'", NAME(t));
        const proto_ctrl_t *c = &ps->p->ctrls[ps->ctrl];
        v = a->line_var ? &c->linevars[a->var] : &c->ctrlvars[a->var];
    }
    if (v && v->per_thread && proto_peek(ps)->kind != T_LBRACK)
        return proto_fail(ps, t, "'%s' is per thread: assign an element, %s[TID] := ...", v->name,
                          v->name);
    if (proto_peek(ps)->kind == T_LBRACK) {
        if (v && v->type.kind != PROTO_T_DATA && !v->per_thread)
            return proto_fail(ps, t, "'%s' is not data: only data variables can be indexed",
                              v->name);
        proto_next(ps);
        if (proto_parse_expr(ps, &a->index))
            return -1;
        if (v && v->per_thread && a->index->type.kind != PROTO_T_TID) {
            char ty[40];
            proto_type_name(a->index->type, ty, sizeof ty);
            return proto_fail_pos(
                ps, a->index->line, a->index->col,
                "type mismatch: a per-thread variable is indexed by a tid, found %s", ty);
        }
        if (v && !v->per_thread && a->index->type.kind != PROTO_T_LOC) {
            char ty[40];
            proto_type_name(a->index->type, ty, sizeof ty);
            return proto_fail_pos(ps, a->index->line, a->index->col,
                                  "type mismatch: an index must be a location (loc), found %s", ty);
        }
        if (proto_expect(ps, T_RBRACK, "']'"))
            return -1;
    }
    if (proto_expect(ps, T_ASSIGN, "':='") || proto_parse_expr(ps, &a->value))
        return -1;
    if (!v)
        return 0;
    char what[96];
    if (a->index && v->per_thread) {
        snprintf(what, sizeof what, "assignment to '%s'", v->name);
        return proto_need_type(ps, a->value, v->type, what);
    }
    if (a->index) {
        snprintf(what, sizeof what, "a location of '%s'", v->name);
        return proto_need_value(ps, a->value, what) || proto_no_time(ps, a->value, what);
    }
    snprintf(what, sizeof what, "assignment to '%s'", v->name);
    if (v->type.kind == PROTO_T_DATA && a->value->type.kind != PROTO_T_DATA)
        return proto_fail_pos(ps, a->value->line, a->value->col,
                              "type mismatch: '%s' is data; assign one location with %s[loc] := "
                              "value",
                              v->name, v->name);
    return proto_need_type(ps, a->value, v->type, what);
}

/* A node-typed destination: a variable or a message field naming an instance. */
static int dest_node(proto_parser_t *ps, proto_action_t *a)
{
    a->dest = PROTO_DEST_NODE;
    if (proto_parse_expr(ps, &a->dest_node))
        return -1;
    if (ps->pass == 2 && a->dest_node->type.kind != PROTO_T_NODE) {
        char ty[40];
        proto_type_name(a->dest_node->type, ty, sizeof ty);
        return proto_fail_pos(ps, a->dest_node->line, a->dest_node->col,
                              "a destination must be a controller or a node, found %s", ty);
    }
    return 0;
}

/* 'each' CTRL 'in' NODESET: the instance of per-cu CTRL on every member's compute unit. */
static int dest_each(proto_parser_t *ps, proto_action_t *a)
{
    proto_next(ps);
    const lex_tok_t *ct = proto_next(ps);
    a->dest = PROTO_DEST_EACH;
    if (proto_expect_word(ps, "in") || proto_parse_expr(ps, &a->dest_node))
        return -1;
    if (ps->pass == 1)
        return 0;
    a->dest_ctrl = proto_find_ctrl(ps, ct);
    if (a->dest_ctrl < 0 || !ps->p->ctrls[a->dest_ctrl].per_cu)
        return proto_fail(ps, ct, "'each %.*s': not a per-cu controller", NAME(ct));
    if (a->dest_node->type.kind != PROTO_T_NODESET && a->dest_node->type.kind != PROTO_T_NONE) {
        char ty[40];
        proto_type_name(a->dest_node->type, ty, sizeof ty);
        return proto_fail_pos(ps, a->dest_node->line, a->dest_node->col,
                              "type mismatch: 'each %s in' needs a nodeset, found %s",
                              ps->p->ctrls[a->dest_ctrl].name, ty);
    }
    return 0;
}

/* dest := ID | ID '[' 'cu' ']' | 'all' ID | 'each' ID 'in' SET | 'msg.src' | NODE-VARIABLE |
 *         'msg.' NODE-FIELD */
static int send_dest(proto_parser_t *ps, proto_action_t *a)
{
    const lex_tok_t *t = proto_peek(ps), *t2 = proto_peek2(ps);
    if (proto_is(ps, t, "msg") && t2->kind == T_DOT) {
        const lex_tok_t *f = &ps->toks[ps->pos + 2 < ps->limit ? ps->pos + 2 : ps->pos];
        if (!proto_is(ps, f, "src"))
            return dest_node(ps, a);
        proto_next(ps);
        proto_next(ps);
        if (proto_expect_word(ps, "src"))
            return -1;
        a->dest = PROTO_DEST_SRC;
        if (ps->pass == 2 && ps->p->events[ps->ev].kind != PROTO_EV_MSG)
            return proto_fail(ps, t, "'msg.src' in a row for '%s', which is not a message",
                              ps->p->events[ps->ev].name);
        return 0;
    }
    if (proto_is(ps, t, "each") && t2->kind == T_ID)
        return dest_each(ps, a);
    bool all = proto_is(ps, t, "all") && t2->kind == T_ID;
    if (all)
        proto_next(ps);
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(
            ps, "a destination (CONTROLLER, CONTROLLER[cu], all CONTROLLER, each CONTROLLER in "
                "SET or msg.src)");
    const lex_tok_t *ct = proto_next(ps);
    bool samecu = false;
    if (!all && proto_peek(ps)->kind == T_LBRACK) {
        proto_next(ps);
        if (proto_expect_word(ps, "cu") || proto_expect(ps, T_RBRACK, "']'"))
            return -1;
        samecu = true;
    }
    a->dest = all ? PROTO_DEST_ALL : samecu ? PROTO_DEST_SAMECU : PROTO_DEST_SHARED;
    if (ps->pass == 1)
        return 0;
    a->dest_ctrl = proto_find_ctrl(ps, ct);
    if (a->dest_ctrl < 0 && !all && !samecu &&
        proto_names_find(&ps->ix_vars[ps->ctrl], ps->src + ct->off, ct->len) >= 0) {
        ps->pos--; /* not a controller: a node-typed variable */
        return dest_node(ps, a);
    }
    if (a->dest_ctrl < 0 && !all && !samecu)
        return proto_fail(ps, ct, "destination '%.*s' is not a controller or a node variable",
                          NAME(ct));
    if (a->dest_ctrl < 0)
        return proto_fail(ps, ct, "destination '%.*s' is not a controller", NAME(ct));
    const proto_ctrl_t *c = &ps->p->ctrls[a->dest_ctrl];
    if (c->per_cu && !all && !samecu)
        return proto_fail(ps, ct, "per-cu controller '%s' needs '%s[cu]' or 'all %s'", c->name,
                          c->name, c->name);
    if (!c->per_cu && (all || samecu))
        return proto_fail(ps, ct, "'%s' is shared: send to it with 'to %s'", c->name, c->name);
    return 0;
}

/* 'send' ID ['(' ID '=' expr {',' ID '=' expr} ')'] 'to' dest */
static int act_send(proto_parser_t *ps, proto_action_t *a)
{
    proto_next(ps);
    a->kind = PROTO_A_SEND;
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, "a message name");
    const lex_tok_t *mt = proto_next(ps);
    const proto_msg_t *m = NULL;
    if (ps->pass == 2) {
        a->msg = proto_find_msg(ps, mt);
        if (a->msg < 0)
            return proto_fail(ps, mt, "undeclared message '%.*s'", NAME(mt));
        m = &ps->p->msgs[a->msg];
        if (!m->noline && !ps->line_row)
            return proto_fail(ps, mt,
                              "message '%s' carries a line: a controller-level ('-') row cannot "
                              "send it",
                              m->name);
        a->fields = xcalloc((size_t)m->nfields + 1, sizeof *a->fields);
    }
    if (proto_peek(ps)->kind == T_LPAREN) {
        proto_next(ps);
        for (;;) {
            if (proto_peek(ps)->kind != T_ID)
                return proto_expected(ps, "a field name");
            const lex_tok_t *ft = proto_next(ps);
            int f = -1;
            if (m) {
                for (int i = 0; i < m->nfields; i++)
                    if (proto_tok_eq(ps, ft, m->fields[i].name))
                        f = i;
                if (f < 0)
                    return proto_fail(ps, ft, "message '%s' has no field '%.*s'", m->name,
                                      NAME(ft));
                if (a->fields[f])
                    return proto_fail(ps, ft, "field '%s' set twice", m->fields[f].name);
            }
            proto_expr_t *e;
            if (proto_expect(ps, T_EQ, "'='") || proto_parse_expr(ps, &e))
                return -1;
            if (!m) {
                proto_expr_free(e);
            } else {
                a->fields[f] = e;
                char what[96];
                snprintf(what, sizeof what, "field '%s' of '%s'", m->fields[f].name, m->name);
                if (proto_need_type(ps, e, m->fields[f].type, what))
                    return -1;
            }
            if (proto_peek(ps)->kind != T_COMMA)
                break;
            proto_next(ps);
        }
        if (proto_expect(ps, T_RPAREN, "',' or ')'"))
            return -1;
    }
    if (proto_expect_word(ps, "to"))
        return -1;
    return send_dest(ps, a);
}

/* 'done' ['(' expr [',' expr] ')'] */
static int act_done(proto_parser_t *ps, proto_row_t *row, proto_action_t *a)
{
    const lex_tok_t *kw = proto_next(ps);
    a->kind = PROTO_A_DONE;
    proto_event_kind_t kind = ps->pass == 2 ? ps->p->events[ps->ev].kind : PROTO_EV_CORE;
    if (kind != PROTO_EV_CORE && kind != PROTO_EV_MSG)
        return proto_fail(ps, kw, "'done' outside a core-event or message row");
    if (row->has_wait)
        return proto_fail(ps, kw, "'done' and 'wait' in one row");
    if (ps->pass == 2 && kind == PROTO_EV_CORE && row->has_done)
        return proto_fail(ps, kw, "a second 'done' in a core-event row");
    proto_expr_t *args[2] = {NULL, NULL};
    int n = 0;
    if (proto_peek(ps)->kind == T_LPAREN) {
        proto_next(ps);
        for (;;) {
            if (proto_parse_expr(ps, &args[n]))
                goto fail;
            if (proto_need_value(ps, args[n], "'done'") || proto_no_time(ps, args[n], "'done'"))
                goto fail;
            n++;
            if (n == 2 || proto_peek(ps)->kind != T_COMMA)
                break;
            proto_next(ps);
        }
        if (proto_expect(ps, T_RPAREN, n == 2 ? "')'" : "',' or ')'"))
            goto fail;
    }
    if (kind == PROTO_EV_MSG && n == 0) {
        proto_fail(ps, kw, "'done' in a message row names the thread: done(TID[, VALUE])");
        goto fail;
    }
    if (kind == PROTO_EV_CORE && n == 1) {
        a->dval = args[0];
    } else {
        a->tid = args[0];
        a->dval = args[1];
    }
    row->has_done = true;
    return 0;
fail:
    proto_expr_free(args[0]);
    proto_expr_free(args[1]);
    return -1;
}

/* 'forall' STATE {STATE} '->' STATE */
static int act_forall(proto_parser_t *ps, proto_action_t *a)
{
    proto_next(ps);
    a->kind = PROTO_A_FORALL;
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, "a state name");
    while (proto_peek(ps)->kind == T_ID) {
        const lex_tok_t *t = proto_next(ps);
        int s;
        if (ps->pass == 2) {
            if (resolve_state(ps, t, &s))
                return -1;
            a->from |= (uint64_t)1 << s;
        }
    }
    if (proto_expect(ps, T_ARROW, "a state name or '->'"))
        return -1;
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, "a state name");
    const lex_tok_t *t = proto_next(ps);
    return ps->pass == 2 ? resolve_state(ps, t, &a->to) : 0;
}

static int parse_action(proto_parser_t *ps, proto_row_t *row, size_t *cap)
{
    const lex_tok_t *t = proto_peek(ps), *t2 = proto_peek2(ps);
    proto_action_t a = {0};
    a.line = t->line;
    a.col = t->col;
    a.msg = -1;
    a.to = -1;
    int rc;
    if (t->kind == T_ID && (t2->kind == T_ASSIGN || t2->kind == T_LBRACK)) {
        rc = act_assign(ps, &a);
    } else if (proto_is(ps, t, "send")) {
        rc = act_send(ps, &a);
    } else if (proto_is(ps, t, "done")) {
        rc = act_done(ps, row, &a);
    } else if (proto_is(ps, t, "wait")) {
        proto_next(ps);
        a.kind = PROTO_A_WAIT;
        rc = 0;
        if (ps->pass == 2 && ps->p->events[ps->ev].kind != PROTO_EV_CORE)
            rc = proto_fail(ps, t, "'wait' outside a core-event row");
        else if (row->has_done)
            rc = proto_fail(ps, t, "'done' and 'wait' in one row");
        row->has_wait = true;
    } else if (proto_is(ps, t, "forall")) {
        rc = act_forall(ps, &a);
    } else if (proto_is(ps, t, "stall") || proto_is(ps, t, "impossible")) {
        rc = proto_fail(ps, t, "'%.*s' must be the only action of its row", NAME(t));
    } else {
        rc = proto_expected(ps, "an action (assignment, send, done, wait, forall, stall or "
                                "impossible)");
    }
    if (rc) {
        proto_action_clear(ps->p, &a);
        return -1;
    }
    UTIL_PUSH(row->actions, row->nactions, *cap, a);
    return 0;
}

/* The optional sixth column: the labels of the paper's table cells this
 * row implements ('labels' declares them). */
static int parse_cites(proto_parser_t *ps, proto_row_t *row)
{
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, "a label (the paper's cell this row implements)");
    size_t cap = 0;
    while (proto_peek(ps)->kind == T_ID) {
        const lex_tok_t *t = proto_next(ps);
        if (ps->pass == 1)
            continue;
        int k = -1;
        for (int i = 0; i < ps->p->nlabels && k < 0; i++)
            if (proto_tok_eq(ps, t, ps->p->labels[i]))
                k = i;
        if (k < 0)
            return proto_fail(ps, t, "undeclared label '%.*s' (declare it with 'labels')", NAME(t));
        for (int i = 0; i < row->ncites; i++)
            if (row->cites[i] == k)
                return proto_fail(ps, t, "label '%s' cited twice in one row", ps->p->labels[k]);
        UTIL_PUSH(row->cites, row->ncites, cap, k);
    }
    return 0;
}

/* [guard] '|' actions '|' [next] ['|' labels], up to the end of the row. */
static int parse_rest(proto_parser_t *ps, proto_row_t *row)
{
    ps->ctx = PROTO_CTX_ROW;
    if (proto_peek(ps)->kind != T_BAR) {
        if (proto_parse_expr(ps, &row->guard) || proto_need_value(ps, row->guard, "a guard") ||
            proto_no_time(ps, row->guard, "a guard"))
            return -1;
    }
    if (proto_expect(ps, T_BAR, "'|'"))
        return -1;
    const lex_tok_t *t = proto_peek(ps);
    size_t cap = 0;
    if ((proto_is(ps, t, "stall") || proto_is(ps, t, "impossible")) &&
        proto_peek2(ps)->kind == T_BAR) {
        row->kind = proto_tok_eq(ps, t, "stall") ? PROTO_ROW_STALL : PROTO_ROW_IMPOSSIBLE;
        proto_next(ps);
    } else {
        while (proto_peek(ps)->kind != T_BAR) {
            if (parse_action(ps, row, &cap))
                return -1;
            if (proto_peek(ps)->kind != T_SEMI)
                break;
            proto_next(ps);
        }
    }
    if (proto_expect(ps, T_BAR, "';' or '|'"))
        return -1;
    t = proto_peek(ps);
    if (t->kind == T_ID) {
        proto_next(ps);
        if (ps->pass == 2 && !ps->line_row)
            return proto_fail(ps, t, "a controller-level ('-') row has no line state to change");
        if (ps->pass == 2 && resolve_state(ps, t, &row->next))
            return -1;
        if (row->kind != PROTO_ROW_NORMAL)
            return proto_fail(ps, t, "a '%s' row cannot change state",
                              row->kind == PROTO_ROW_STALL ? "stall" : "impossible");
    }
    if (proto_peek(ps)->kind == T_BAR) {
        proto_next(ps);
        if (parse_cites(ps, row))
            return -1;
    }
    if (proto_peek(ps)->kind != T_EOL)
        return proto_expected(ps, "end of row");
    return 0;
}

/* Resolve a row's event name T (pass 2) and check it fits the row. */
static int row_event(proto_parser_t *ps, const lex_tok_t *t, bool line_row, int *ev)
{
    const proto_t *p = ps->p;
    *ev = proto_find_event(ps, t);
    if (*ev < 0)
        return proto_fail(
            ps, t, "undeclared event '%.*s' (not a message, a core event or an 'event')", NAME(t));
    const proto_event_t *e = &p->events[*ev];
    if (e->kind == PROTO_EV_CORE && ps->ctrl != p->core_ctrl)
        return proto_fail(ps, t, "core event '%s' is delivered only to the core controller '%s'",
                          e->name, p->ctrls[p->core_ctrl].name);
    if (e->line && !line_row)
        return proto_fail(ps, t, "'%s' is a line event: its rows name states, not '-'", e->name);
    if (!e->line && line_row)
        return proto_fail(ps, t, "'%s' is a controller-level event: its rows use '-'", e->name);
    return 0;
}

/* Check ROW (for event EV, from the row starting at START) against the
 * unguarded rows before it, then record it if it is unguarded itself. */
static int check_reach(proto_parser_t *ps, const lex_tok_t *start, const proto_row_t *row)
{
    const proto_ctrl_t *c = &ps->p->ctrls[ps->ctrl];
    uint64_t cell = ps->line_row ? row->states : 1;
    uint64_t hit = ps->reach[ps->ctrl][row->event] & cell;
    if (hit) {
        int line = 0;
        for (int r = 0; r < c->nrows && !line; r++)
            if (c->rows[r].event == row->event && !c->rows[r].guard &&
                (ps->line_row ? c->rows[r].states & hit : 1))
                line = c->rows[r].line;
        int s = 0;
        while (ps->line_row && !(hit >> s & 1))
            s++;
        return proto_fail(
            ps, start, "unreachable row: the unguarded row at line %d already handles (%s, %s)",
            line, ps->line_row ? c->state_names[s] : "-", ps->p->events[row->event].name);
    }
    if (!row->guard)
        ps->reach[ps->ctrl][row->event] |= cell;
    return 0;
}

/* A variant's row or 'remove' for CELLS (a state mask; ignored for
 * controller-level events) of event EV in the current controller: the first
 * time this section names a cell, the rows of earlier sections lose it (a
 * row covering several states keeps the others). Returns how many earlier
 * rows lost a cell. */
static int override_cells(proto_parser_t *ps, uint64_t cells, int ev, bool line_row)
{
    if (!ps->section)
        return 0;
    uint64_t fresh = (line_row ? cells : 1) & ~ps->over[ev];
    if (!fresh)
        return 0;
    ps->over[ev] |= fresh;
    ps->reach[ps->ctrl][ev] &= ~fresh;
    proto_ctrl_t *c = &ps->p->ctrls[ps->ctrl];
    int hits = 0, w = 0;
    for (int r = 0; r < c->nrows; r++) {
        proto_row_t *row = &c->rows[r];
        uint64_t hit = row->event != ev || row->section >= ps->section ? 0
                       : line_row                                      ? row->states & fresh
                                                                       : fresh;
        if (hit) {
            hits++;
            row->states &= ~hit;
            if (!line_row || !row->states) {
                proto_row_clear(ps->p, row);
                continue;
            }
        }
        c->rows[w++] = *row;
    }
    c->nrows = w;
    return hits;
}

/* STATES '|' EVENTS: read the first two columns of a row or a 'remove'.
 * Returns 0 with *STATES (pass 2), *LINE_ROW, and the events in *EVS (pass 2,
 * malloc'd, *NEVS of them). */
int proto_row_cells(proto_parser_t *ps, uint64_t *states_out, bool *line_row_out, int **evs_out,
                    int *nevs_out)
{
    proto_t *p = ps->p;
    proto_ctrl_t *c = &p->ctrls[ps->ctrl];
    uint64_t states = 0;
    bool line_row = proto_peek(ps)->kind != T_MINUS;
    *evs_out = NULL;
    *nevs_out = 0;
    if (!line_row) {
        proto_next(ps);
    } else {
        for (;;) {
            if (proto_peek(ps)->kind != T_ID)
                return proto_expected(ps, "a state name or '-'");
            const lex_tok_t *t = proto_next(ps);
            int s;
            if (ps->pass == 2) {
                if (resolve_state(ps, t, &s))
                    return -1;
                if (states >> s & 1)
                    return proto_fail(ps, t, "state '%s' listed twice in one row",
                                      c->state_names[s]);
                states |= (uint64_t)1 << s;
            }
            if (proto_peek(ps)->kind != T_COMMA)
                break;
            proto_next(ps);
        }
    }
    if (proto_expect(ps, T_BAR, line_row ? "',' or '|'" : "'|'"))
        return -1;
    int *evs = NULL, nevs = 0, nnames = 0;
    size_t cap = 0;
    for (;;) {
        if (proto_peek(ps)->kind != T_ID) {
            free(evs);
            return proto_expected(ps, "an event name");
        }
        const lex_tok_t *t = proto_next(ps);
        if (++nnames > PROTO_MAX_ROW_EVENTS) {
            free(evs);
            return proto_fail(ps, t, "more than %d events in one row", PROTO_MAX_ROW_EVENTS);
        }
        if (ps->pass == 2) {
            int ev;
            if (row_event(ps, t, line_row, &ev)) {
                free(evs);
                return -1;
            }
            for (int i = 0; i < nevs; i++)
                if (evs[i] == ev) {
                    free(evs);
                    return proto_fail(ps, t, "event '%s' listed twice in one row",
                                      p->events[ev].name);
                }
            UTIL_PUSH(evs, nevs, cap, ev);
        }
        if (proto_peek(ps)->kind != T_COMMA)
            break;
        proto_next(ps);
    }
    *states_out = states;
    *line_row_out = line_row;
    *evs_out = evs;
    *nevs_out = nevs;
    return 0;
}

/* 'remove' STATES '|' EVENTS: a variant drops its base's rows for those cells. */
int proto_parse_remove(proto_parser_t *ps)
{
    const lex_tok_t *kw = proto_next(ps);
    if (!ps->section)
        return proto_fail(ps, kw, "'remove' belongs in a variant (protocol NAME extends BASE)");
    uint64_t states;
    bool line_row;
    int *evs, nevs;
    if (proto_row_cells(ps, &states, &line_row, &evs, &nevs))
        return -1;
    int rc = 0;
    for (int i = 0; i < nevs && !rc; i++)
        if (!override_cells(ps, states, evs[i], line_row))
            rc =
                proto_fail(ps, kw, "nothing to remove: the base has no row for these cells of '%s'",
                           ps->p->events[evs[i]].name);
    free(evs);
    return rc;
}

int proto_parse_row(proto_parser_t *ps)
{
    proto_t *p = ps->p;
    proto_ctrl_t *c = &p->ctrls[ps->ctrl];
    const lex_tok_t *start = proto_peek(ps);
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
        proto_row_t row = {0};
        row.states = states;
        row.event = ps->ev;
        row.next = -1;
        row.line = start->line;
        row.col = start->col;
        row.section = ps->section;
        if (ps->pass == 2)
            override_cells(ps, states, row.event, line_row);
        bool bad = parse_rest(ps, &row) || (ps->pass == 2 && check_reach(ps, start, &row));
        if (!bad) {
            const lex_tok_t *first = &ps->toks[rest], *last = &ps->toks[ps->pos - 1];
            row.text_off = first->off;
            row.text_len = ps->pos > rest ? last->off + last->len - first->off : 0;
        }
        if (bad || ps->pass == 1) {
            proto_row_clear(p, &row); /* pass 1 only checks the syntax */
            if (bad)
                goto out;
            continue;
        }
        UTIL_PUSH(c->rows, c->nrows, ps->cap_rows, row);
    }
    rc = 0;
out:
    ps->ev = -1;
    free(evs);
    return rc;
}
