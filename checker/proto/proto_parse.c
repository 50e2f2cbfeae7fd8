/* proto_parse.c - the protocol file loader (docs/protocol-language.md):
 * declarations, the two-pass driver (see proto_int.h) and the whole-file
 * checks that follow each pass.
 *
 * Invariant: every failure sets exactly one "FILE:LINE:COL: message" and
 * frees everything built so far; errors come in three phases, each in file
 * order: syntax and declarations (pass 1), then the event table and the core
 * section, then every use of a name (pass 2), then the core maps' events. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "../prog/prog.h"
#include "proto_int.h"

/* ---- table lines ---- */

/* One past the last token of the controller item starting at token S: items
 * are one per line; a line ending in ';' ',' '(' or one of a row's first
 * three '|' continues on the next. A '}' always ends the item. */
static int line_end(const proto_parser_t *ps, int s)
{
    int bars = ps->toks[s].kind == T_BAR;
    int i = s + 1;
    for (; i < ps->ntoks - 1; i++) {
        const lex_tok_t *prev = &ps->toks[i - 1], *t = &ps->toks[i];
        if (t->kind == T_RBRACE)
            break;
        if (t->line != prev->line) {
            int k = prev->kind;
            if (!(k == T_SEMI || k == T_COMMA || k == T_LPAREN || (k == T_BAR && bars < 4)))
                break;
        }
        if (t->kind == T_BAR)
            bars++;
    }
    return i;
}

static void set_limit(proto_parser_t *ps, int end)
{
    const lex_tok_t *last = &ps->toks[end - 1];
    ps->limit = end;
    ps->eol = (lex_tok_t){T_EOL, last->line, last->col + (int)last->len, last->off + last->len, 0};
}

/* ---- readings (docs/protocol-language.md, Readings) ---- */

/* The text of tokens [S, E) with PREFIX in front: one space where the source
 * has white space or a comment between two tokens; malloc'd. */
static char *tokens_text(const proto_parser_t *ps, const char *prefix, int s, int e)
{
    strbuf_t b;
    sb_init(&b);
    if (prefix)
        sb_printf(&b, "%s ", prefix);
    for (int i = s; i < e; i++) {
        const lex_tok_t *t = &ps->toks[i];
        if (i > s && t->off > ps->toks[i - 1].off + ps->toks[i - 1].len)
            sb_putc(&b, ' ');
        sb_printf(&b, "%.*s", (int)t->len, ps->src + t->off);
    }
    return b.s ? b.s : xstrdup("");
}

/* The next items may carry a 'reading': KIND starting at token START, whose
 * key (what a variant replaces) ends before token KEY_END. */
static void mark_item(proto_parser_t *ps, proto_reading_kind_t kind, int start, int key_end)
{
    ps->last_kind = kind;
    ps->last_start = start;
    ps->last_key_end = key_end;
}

/* A variant replaced or removed the network, param or map ITEM: its earlier
 * readings no longer apply (pass 1). */
static void drop_readings(proto_parser_t *ps, proto_reading_kind_t kind, const char *item)
{
    for (int i = 0; i < ps->p->nreadings; i++) {
        proto_reading_t *r = &ps->p->readings[i];
        if (r->kind == kind && r->sect < ps->section && !strcmp(r->item, item))
            r->live = false;
    }
}

/* Pass 2: the rows the reading marks, those the row item at the marked
 * position stored (one per event), get its index. */
static void mark_rows(proto_parser_t *ps, int k)
{
    proto_ctrl_t *c = &ps->p->ctrls[ps->ctrl];
    int line = ps->toks[ps->last_start].line;
    for (int r = 0; r < c->nrows; r++)
        if (c->rows[r].line == line && c->rows[r].section == ps->section && !c->rows[r].reading)
            c->rows[r].reading = k + 1;
}

/* 'reading' STRING ':' STRING, right after the row, network, param or map it
 * marks; one per item. */
static int parse_reading(proto_parser_t *ps)
{
    const lex_tok_t *kw = proto_next(ps), *sec = proto_peek(ps), *txt;
    if (proto_expect(ps, T_STRING, "the section it interprets, e.g. \"seed 004 §3.1\"") ||
        proto_expect(ps, T_COLON, "':' after the section"))
        return -1;
    txt = proto_peek(ps);
    if (proto_expect(ps, T_STRING, "the reading, a string"))
        return -1;
    if (ps->last_kind == PROTO_READ_NONE)
        return proto_fail(ps, kw, "a reading must follow the row, network, param or map it marks");
    if (sec->len < 3 || txt->len < 3)
        return proto_fail(ps, sec->len < 3 ? sec : txt, "empty %s",
                          sec->len < 3 ? "section" : "reading");
    int k = ps->nread++;
    if (ps->pass == 2) {
        if (ps->last_kind == PROTO_READ_ROW)
            mark_rows(ps, k);
        return 0;
    }
    proto_t *p = ps->p;
    const lex_tok_t *item = &ps->toks[ps->last_start];
    if (p->nreadings && p->readings[p->nreadings - 1].sect == ps->section &&
        p->readings[p->nreadings - 1].line == item->line &&
        p->readings[p->nreadings - 1].col == item->col)
        return proto_fail(ps, kw, "a second reading for one item (one per item)");
    proto_reading_t r = {0};
    r.kind = ps->last_kind;
    r.item = tokens_text(ps, ps->last_kind == PROTO_READ_ROW ? p->ctrls[ps->ctrl].name : NULL,
                         ps->last_start, ps->last_key_end);
    r.section = xstrndup(ps->src + sec->off + 1, sec->len - 2);
    r.text = xstrndup(ps->src + txt->off + 1, txt->len - 2);
    r.file = xstrdup(proto_file_at(ps, item->off));
    r.line = item->line;
    r.col = item->col;
    r.sect = ps->section;
    r.live = true;
    UTIL_PUSH(p->readings, p->nreadings, ps->cap_readings, r);
    return 0;
}

/* Whether the next token starts a 'reading' (the word, then a string). */
static bool at_reading(const proto_parser_t *ps)
{
    return proto_is(ps, proto_peek(ps), "reading") && proto_peek2(ps)->kind == T_STRING;
}

/* The token after the second '|' of the row starting at token S (its key:
 * states and events), or the row's end. */
static int row_key_end(const proto_parser_t *ps, int s)
{
    int bars = 0, i = s;
    for (; i < ps->limit && i < ps->ntoks; i++)
        if (ps->toks[i].kind == T_BAR && ++bars == 2)
            break;
    return i;
}

/* ---- declarations ---- */

static int parse_type(proto_parser_t *ps, proto_type_t *ty)
{
    static const struct {
        const char *name;
        proto_type_kind_t kind;
    } names[] = {{"val", PROTO_T_VAL},  {"data", PROTO_T_DATA}, {"tid", PROTO_T_TID},
                 {"loc", PROTO_T_LOC},  {"node", PROTO_T_NODE}, {"bool", PROTO_T_BOOL},
                 {"int", PROTO_T_INT},  {"time", PROTO_T_TIME}, {"nodeset", PROTO_T_NODESET},
                 {"mask", PROTO_T_MASK}};
    const lex_tok_t *t = proto_peek(ps);
    for (size_t i = 0; t->kind == T_ID && i < sizeof names / sizeof names[0]; i++) {
        if (!proto_tok_eq(ps, t, names[i].name))
            continue;
        proto_next(ps);
        *ty = (proto_type_t){names[i].kind, 0, 0, false, false};
        if (ty->kind != PROTO_T_INT)
            return 0;
        if (proto_expect(ps, T_LPAREN, "'(' after 'int'") || proto_signed_int(ps, &ty->lo) ||
            proto_expect(ps, T_DOTDOT, "'..'"))
            return -1;
        const lex_tok_t *hi = proto_peek(ps);
        if (hi->kind == T_ID && proto_tok_eq(ps, hi, "ncus")) {
            /* A counter of compute units (acks of a directory): sized from the run. */
            proto_next(ps);
            ty->hi = PROTO_NCUS_MAX;
            ty->ncus = true;
        } else if (hi->kind == T_ID && proto_tok_eq(ps, hi, "nthreads")) {
            /* A counter of threads (rsp's RMW locks): sized from the run. */
            proto_next(ps);
            ty->hi = PROTO_NTHREADS_MAX;
            ty->nthreads = true;
        } else if (proto_signed_int(ps, &ty->hi))
            return -1;
        if (ty->hi < ty->lo)
            return proto_fail(ps, hi, "empty range %d..%d", ty->lo, ty->hi);
        return proto_expect(ps, T_RPAREN, "')'");
    }
    return proto_expected(
        ps, "a type (val, data, tid, loc, node, bool, time, nodeset, mask or int(LO..HI))");
}

static int decl_param(proto_parser_t *ps)
{
    const lex_tok_t *name;
    int v;
    if (proto_expect_id(ps, "a param name", &name) || proto_expect(ps, T_EQ, "'='") ||
        proto_signed_int(ps, &v))
        return -1;
    if (ps->pass == 2)
        return 0;
    char *s = proto_tok_str(ps, name);
    if (proto_reserved(s)) {
        free(s);
        return proto_fail(ps, name, "'%.*s' is a reserved word", (int)name->len,
                          ps->src + name->off);
    }
    int old = proto_find_param(ps, name);
    if (old >= 0 && ps->section) { /* a variant's new default */
        char *key =
            tokens_text(ps, "param", proto_tok_index(ps, name), proto_tok_index(ps, name) + 1);
        drop_readings(ps, PROTO_READ_PARAM, key);
        free(key);
        free(s);
        ps->p->params[old].value = v;
        ps->p->params[old].line = name->line;
        ps->p->params[old].col = name->col;
        return 0;
    }
    if (old >= 0) {
        free(s);
        return proto_fail(ps, name, "param '%.*s' declared twice", (int)name->len,
                          ps->src + name->off);
    }
    proto_param_t pa = {s, v, name->line, name->col};
    UTIL_PUSH(ps->p->params, ps->p->nparams, ps->cap_params, pa);
    proto_names_add(&ps->ix_params, s, ps->p->nparams - 1);
    return 0;
}

/* 'network' ID ('ordered' | 'unordered') ['capacity' INT] */
static int decl_network(proto_parser_t *ps)
{
    const lex_tok_t *name;
    if (proto_expect_id(ps, "a network name", &name))
        return -1;
    const lex_tok_t *t = proto_peek(ps);
    bool ordered = proto_is(ps, t, "ordered");
    if (!ordered && !proto_is(ps, t, "unordered"))
        return proto_expected(ps, "'ordered' or 'unordered'");
    proto_next(ps);
    int capacity = 0;
    if (proto_is(ps, proto_peek(ps), "capacity")) {
        proto_next(ps);
        const lex_tok_t *n = proto_peek(ps);
        if (proto_expect(ps, T_INT, "a capacity (messages per channel)") ||
            proto_int_value(ps, n, &capacity))
            return -1;
        if (capacity < 1 || capacity > PROTO_MAX_CAPACITY)
            return proto_fail(ps, n, "a capacity is 1..%d messages", PROTO_MAX_CAPACITY);
    }
    if (ps->pass == 2)
        return 0;
    int old = proto_names_find(&ps->ix_nets, ps->src + name->off, name->len);
    if (old >= 0 && ps->section) { /* a variant replaces its base's network */
        char *key =
            tokens_text(ps, "network", proto_tok_index(ps, name), proto_tok_index(ps, name) + 1);
        drop_readings(ps, PROTO_READ_NETWORK, key);
        free(key);
        ps->p->nets[old].ordered = ordered;
        ps->p->nets[old].capacity = capacity;
        return 0;
    }
    if (old >= 0)
        return proto_fail(ps, name, "network '%.*s' declared twice", (int)name->len,
                          ps->src + name->off);
    proto_net_t n = {proto_tok_str(ps, name), ordered, capacity};
    UTIL_PUSH(ps->p->nets, ps->p->nnets, ps->cap_nets, n);
    proto_names_add(&ps->ix_nets, n.name, ps->p->nnets - 1);
    return 0;
}

static int decl_message(proto_parser_t *ps)
{
    const lex_tok_t *name, *net;
    if (proto_expect_id(ps, "a message name", &name) || proto_expect_word(ps, "on") ||
        proto_expect_id(ps, "a network name", &net))
        return -1;
    proto_msg_t m = {NULL, -1, false, 0, NULL};
    size_t cap = 0;
    int rc = -1;
    if (proto_peek(ps)->kind == T_LPAREN) {
        proto_next(ps);
        for (;;) {
            const lex_tok_t *fn;
            proto_field_t f = {NULL, {PROTO_T_VAL, 0, 0, false, false}, false};
            if (proto_is(ps, proto_peek(ps), "ghost") && proto_peek2(ps)->kind == T_ID) {
                proto_next(ps); /* 'ghost NAME: TYPE' (a field named ghost: 'ghost: TYPE') */
                f.ghost = true;
            }
            if (proto_expect_id(ps, "a field name", &fn) || proto_expect(ps, T_COLON, "':'") ||
                parse_type(ps, &f.type))
                goto out;
            if (proto_tok_eq(ps, fn, "src")) {
                proto_fail(ps, fn, "field name 'src' is reserved (msg.src is the sender)");
                goto out;
            }
            for (int i = 0; i < m.nfields; i++)
                if (proto_tok_eq(ps, fn, m.fields[i].name)) {
                    proto_fail(ps, fn, "field '%s' declared twice", m.fields[i].name);
                    goto out;
                }
            if (m.nfields == PROTO_MAX_FIELDS) {
                proto_fail(ps, fn, "more than %d fields in one message", PROTO_MAX_FIELDS);
                goto out;
            }
            f.name = proto_tok_str(ps, fn);
            UTIL_PUSH(m.fields, m.nfields, cap, f);
            if (proto_peek(ps)->kind != T_COMMA)
                break;
            proto_next(ps);
        }
        if (proto_expect(ps, T_RPAREN, "',' or ')'"))
            goto out;
    }
    if (proto_is(ps, proto_peek(ps), "noline")) {
        proto_next(ps);
        m.noline = true;
    }
    int old = proto_find_msg(ps, name);
    if (ps->pass == 1 && old >= 0 && ps->section) { /* a variant redeclares its base's message */
        proto_msg_t *om = &ps->p->msgs[old];
        for (int i = 0; i < om->nfields; i++)
            free(om->fields[i].name);
        free(om->fields);
        om->fields = m.fields;
        om->nfields = m.nfields;
        om->noline = m.noline;
        return 0;
    }
    if (ps->pass == 1) {
        if (old >= 0) {
            proto_fail(ps, name, "message '%.*s' declared twice", (int)name->len,
                       ps->src + name->off);
            goto out;
        }
        m.name = proto_tok_str(ps, name);
        UTIL_PUSH(ps->p->msgs, ps->p->nmsgs, ps->cap_msgs, m);
        proto_names_add(&ps->ix_msgs, m.name, ps->p->nmsgs - 1);
        return 0;
    }
    proto_msg_t *pm = &ps->p->msgs[old]; /* the last declaration's network wins */
    pm->net = proto_names_find(&ps->ix_nets, ps->src + net->off, net->len);
    if (pm->net < 0)
        proto_fail(ps, net, "undeclared network '%.*s'", (int)net->len, ps->src + net->off);
    else
        rc = 0;
out:
    for (int i = 0; i < m.nfields; i++)
        free(m.fields[i].name);
    free(m.fields);
    return rc;
}

/* 'stable ID {ID}' or 'transient ID {ID}' (pass 1 records them). */
static int item_states(proto_parser_t *ps, bool transient)
{
    proto_ctrl_t *c = &ps->p->ctrls[ps->ctrl];
    bool coherent = false;
    if (transient && proto_is(ps, proto_peek(ps), "coherent") && proto_peek2(ps)->kind == T_ID) {
        proto_next(ps);
        coherent = true;
    }
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, "a state name");
    while (proto_peek(ps)->kind == T_ID) {
        const lex_tok_t *t = proto_next(ps);
        if (ps->pass == 2)
            continue;
        int s = proto_find_state(c, ps, t);
        if (s >= 0 && c->transient[s] == transient)
            return proto_fail(ps, t, "state '%s' declared twice", c->state_names[s]);
        if (s >= 0)
            return proto_fail(ps, t, "state '%s' declared both stable and transient",
                              c->state_names[s]);
        if (c->nstates == PROTO_MAX_STATES)
            return proto_fail(ps, t, "controller '%s' has more than %d states", c->name,
                              PROTO_MAX_STATES);
        c->state_names[c->nstates] = proto_tok_str(ps, t);
        c->coherent[c->nstates] = coherent;
        c->transient[c->nstates++] = transient;
    }
    return 0;
}

/* 'init ID' or 'warm ID': checked for repeats in pass 1, resolved in pass 2. */
static int item_init_state(proto_parser_t *ps, bool warm)
{
    const lex_tok_t *kw = proto_next(ps), *t;
    if (proto_expect_id(ps, "a state name", &t))
        return -1;
    proto_ctrl_t *c = &ps->p->ctrls[ps->ctrl];
    if (ps->pass == 1) {
        bool *seen = warm ? &ps->seen_warm : &ps->seen_init;
        if (*seen)
            return proto_fail(ps, kw, "'%s' given twice in controller '%s'", warm ? "warm" : "init",
                              c->name);
        *seen = true;
        return 0;
    }
    int s = proto_find_state(c, ps, t);
    if (s < 0)
        return proto_fail(ps, t, "undeclared state '%.*s' in controller '%s'", (int)t->len,
                          ps->src + t->off, c->name);
    if (warm)
        c->warm_state = s;
    else
        c->init_state = s;
    return 0;
}

/* 'live' STATE {STATE}: the states where line variable V keeps its value. */
static int var_live(proto_parser_t *ps, proto_var_t *v)
{
    proto_next(ps);
    const proto_ctrl_t *c = &ps->p->ctrls[ps->ctrl];
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, "a state name after 'live'");
    uint64_t live = 0;
    while (proto_peek(ps)->kind == T_ID) {
        const lex_tok_t *t = proto_next(ps);
        if (ps->pass == 1)
            continue;
        int st = proto_find_state(c, ps, t);
        if (st < 0)
            return proto_fail(ps, t, "undeclared state '%.*s' in controller '%s'", (int)t->len,
                              ps->src + t->off, c->name);
        live |= (uint64_t)1 << st;
    }
    if (v)
        v->live = live;
    return 0;
}

/* 'line ID : type [= init] [live S...]' or 'var ID ['[' 'tid' ']'] : type [= init]'. */
static int item_var(proto_parser_t *ps, bool line_var)
{
    const lex_tok_t *kw = proto_next(ps);
    const lex_tok_t *name;
    proto_type_t ty;
    bool per_thread = false, ghost = false;
    if (line_var && proto_is(ps, proto_peek(ps), "ghost") && proto_peek2(ps)->kind == T_ID) {
        proto_next(ps); /* 'line ghost ID: TYPE' (a variable named ghost: 'line ghost: TYPE') */
        ghost = true;
    }
    if (proto_expect_id(ps, "a variable name", &name))
        return -1;
    if (proto_peek(ps)->kind == T_LBRACK) {
        proto_next(ps);
        if (line_var)
            return proto_fail(ps, kw, "only a controller variable ('var') can be per thread");
        if (proto_expect_word(ps, "tid") || proto_expect(ps, T_RBRACK, "']'"))
            return -1;
        per_thread = true;
    }
    if (proto_expect(ps, T_COLON, "':'") || parse_type(ps, &ty))
        return -1;
    if (per_thread && ty.kind == PROTO_T_DATA)
        return proto_fail(ps, name, "a per-thread variable cannot be data");
    proto_ctrl_t *c = &ps->p->ctrls[ps->ctrl];
    proto_var_t *v = NULL;
    if (ps->pass == 1) {
        char *s = proto_tok_str(ps, name);
        if (proto_reserved(s)) {
            free(s);
            return proto_fail(ps, name, "'%.*s' is a reserved word", (int)name->len,
                              ps->src + name->off);
        }
        proto_names_t *ix = &ps->ix_vars[ps->ctrl];
        if (proto_names_find(ix, s, strlen(s)) >= 0) {
            free(s);
            return proto_fail(ps, name, "variable '%.*s' declared twice in controller '%s'",
                              (int)name->len, ps->src + name->off, c->name);
        }
        proto_var_t nv = {
            .name = s, .type = ty, .per_thread = per_thread, .live = ~(uint64_t)0, .ghost = ghost};
        if (line_var) {
            UTIL_PUSH(c->linevars, c->nlinevars, ps->cap_linevars, nv);
            proto_names_add(ix, s, c->nlinevars - 1);
        } else {
            UTIL_PUSH(c->ctrlvars, c->nctrlvars, ps->cap_ctrlvars, nv);
            proto_names_add(ix, s, PROTO_VAR_CTRL | (c->nctrlvars - 1));
        }
    } else {
        int k = proto_names_find(&ps->ix_vars[ps->ctrl], ps->src + name->off, name->len);
        v = k & PROTO_VAR_CTRL ? &c->ctrlvars[k & ~PROTO_VAR_CTRL] : &c->linevars[k];
    }
    if (proto_peek(ps)->kind == T_EQ) {
        proto_next(ps);
        const lex_tok_t *t = proto_peek(ps);
        if (proto_is(ps, t, "initial")) {
            proto_next(ps);
            if (v && ty.kind != PROTO_T_DATA)
                return proto_fail(
                    ps, t, "'initial' gives a line's initial values: '%s' is not data", v->name);
            if (v)
                v->init_initial = true;
        } else if (proto_is(ps, t, "warm")) {
            proto_next(ps);
            const lex_tok_t *ct;
            if (proto_expect_id(ps, "a per-cu controller name", &ct))
                return -1;
            if (v) {
                if (ty.kind != PROTO_T_NODESET)
                    return proto_fail(ps, t,
                                      "'warm CTRL' gives the compute units whose CTRL line starts "
                                      "warm: '%s' is not a nodeset",
                                      v->name);
                int k = proto_find_ctrl(ps, ct);
                if (k < 0 || !ps->p->ctrls[k].per_cu)
                    return proto_fail(ps, ct, "'%.*s' is not a per-cu controller", (int)ct->len,
                                      ps->src + ct->off);
                v->init_warm = k + 1;
                v->text_off = t->off;
                v->text_len = ct->off + ct->len - t->off;
            }
        } else {
            ps->ctx = PROTO_CTX_CONST;
            proto_expr_t *e;
            if (proto_parse_expr(ps, &e))
                return -1;
            char what[80];
            snprintf(what, sizeof what, "the initial value of '%.*s'", (int)name->len,
                     ps->src + name->off);
            if (v && ty.kind == PROTO_T_TIME && e->kind != PROTO_E_INT &&
                !(e->kind == PROTO_E_NEG && e->a->kind == PROTO_E_INT)) {
                proto_expr_free(e);
                return proto_fail(ps, t,
                                  "a time variable starts at an integer (0 is the clock's start)");
            }
            if (v && ty.kind != PROTO_T_TIME && proto_need_type(ps, e, ty, what)) {
                proto_expr_free(e);
                return -1;
            }
            if (v) {
                const lex_tok_t *last = &ps->toks[ps->pos - 1];
                v->init = e;
                v->text_off = t->off;
                v->text_len = last->off + last->len - t->off;
            } else {
                proto_expr_free(e);
            }
        }
    }
    if (proto_is(ps, proto_peek(ps), "live")) {
        if (!line_var)
            return proto_fail(ps, proto_peek(ps), "'live' applies to line variables");
        return var_live(ps, v);
    }
    return 0;
}

/* 'event ID [line] [env]': one protocol-wide event; controllers may each
 * declare it, with the same flags. */
static int item_event(proto_parser_t *ps)
{
    proto_next(ps);
    const lex_tok_t *name;
    if (proto_expect_id(ps, "an event name", &name))
        return -1;
    bool line = false, env = false;
    if (proto_is(ps, proto_peek(ps), "line")) {
        proto_next(ps);
        line = true;
    }
    if (proto_is(ps, proto_peek(ps), "env")) {
        proto_next(ps);
        env = true;
    }
    if (ps->pass == 2)
        return 0;
    proto_event_kind_t kind = env ? PROTO_EV_ENV : PROTO_EV_INTERNAL;
    int i = proto_find_named(ps, name);
    if (i < 0) {
        proto_named_t n = {proto_tok_str(ps, name), kind, line, proto_tok_index(ps, name),
                           ps->ctrl};
        UTIL_PUSH(ps->named, ps->nnamed, ps->cap_named, n);
        proto_names_add(&ps->ix_named, n.name, ps->nnamed - 1);
        return 0;
    }
    proto_named_t *n = &ps->named[i];
    if (n->kind == PROTO_EV_CORE)
        return proto_fail(ps, name, "'%s' is a core event (named in a core map)", n->name);
    if (n->ctrl == ps->ctrl)
        return proto_fail(ps, name, "event '%s' declared twice in controller '%s'", n->name,
                          ps->p->ctrls[ps->ctrl].name);
    if (n->kind != kind || n->line != line)
        return proto_fail(ps, name, "event '%s' redeclared with different flags", n->name);
    n->ctrl = ps->ctrl;
    return 0;
}

static int controller_item(proto_parser_t *ps)
{
    const lex_tok_t *t = proto_peek(ps), *t2 = proto_peek2(ps);
    if (at_reading(ps))
        return parse_reading(ps);
    int start = ps->pos;
    ps->last_kind = PROTO_READ_NONE;
    if (t->kind == T_MINUS || (t->kind == T_ID && (t2->kind == T_BAR || t2->kind == T_COMMA))) {
        int key_end = row_key_end(ps, start);
        if (proto_parse_row(ps))
            return -1;
        mark_item(ps, PROTO_READ_ROW, start, key_end);
        return 0;
    }
    if (proto_is(ps, t, "stable") || proto_is(ps, t, "transient")) {
        proto_next(ps);
        return item_states(ps, proto_tok_eq(ps, t, "transient"));
    }
    if (proto_is(ps, t, "init") || proto_is(ps, t, "warm"))
        return item_init_state(ps, proto_tok_eq(ps, t, "warm"));
    if (proto_is(ps, t, "line") || proto_is(ps, t, "var"))
        return item_var(ps, proto_tok_eq(ps, t, "line"));
    if (proto_is(ps, t, "event"))
        return item_event(ps);
    if (proto_is(ps, t, "remove"))
        return proto_parse_remove(ps);
    if (proto_is(ps, t, "predict"))
        return proto_parse_predict(ps);
    if (proto_is(ps, t, "on"))
        return proto_parse_on(ps);
    if (t->kind == T_ID)
        return proto_parse_row(ps); /* reports what the row lacks */
    return proto_expected(ps, "a controller item (stable, transient, init, warm, line, var, "
                              "event, remove, predict, on) or a row");
}

/* A variant ('extends') reopens a controller of its base: new states,
 * variables and events are added, and rows override the base's cells. */
static int reopen_controller(proto_parser_t *ps, const lex_tok_t *name, bool per_cu, int i)
{
    proto_ctrl_t *c = &ps->p->ctrls[i];
    if (!ps->section)
        return proto_fail(ps, name, "controller '%.*s' declared twice", (int)name->len,
                          ps->src + name->off);
    if (ps->ctrl_section[i] == ps->section)
        return proto_fail(ps, name, "controller '%s' reopened twice in one variant", c->name);
    if (c->per_cu != per_cu)
        return proto_fail(ps, name, "controller '%s' is %s in the base", c->name,
                          c->per_cu ? "per-cu" : "shared");
    ps->ctrl_section[i] = ps->section;
    ps->ctrl = i;
    ps->cap_linevars = (size_t)c->nlinevars;
    ps->cap_ctrlvars = (size_t)c->nctrlvars;
    ps->seen_init = ps->seen_warm = false;
    return 0;
}

static int decl_controller(proto_parser_t *ps)
{
    const lex_tok_t *name, *t;
    if (proto_expect_id(ps, "a controller name", &name))
        return -1;
    t = proto_peek(ps);
    bool per_cu = t->kind == T_PERCU;
    if (!per_cu && !proto_is(ps, t, "shared"))
        return proto_expected(ps, "'per-cu' or 'shared'");
    proto_next(ps);
    if (proto_expect(ps, T_LBRACE, "'{'"))
        return -1;
    proto_t *p = ps->p;
    int found = proto_find_ctrl(ps, name);
    if (ps->pass == 1 && found >= 0) {
        if (reopen_controller(ps, name, per_cu, found))
            return -1;
    } else if (ps->pass == 1) {
        proto_ctrl_t c = {0};
        c.name = proto_tok_str(ps, name);
        c.per_cu = per_cu;
        c.state_names = xcalloc(PROTO_MAX_STATES, sizeof *c.state_names);
        c.transient = xcalloc(PROTO_MAX_STATES, sizeof *c.transient);
        c.coherent = xcalloc(PROTO_MAX_STATES, sizeof *c.coherent);
        c.warm_state = -1;
        UTIL_PUSH(p->ctrls, p->nctrls, ps->cap_ctrls, c);
        proto_names_add(&ps->ix_ctrls, c.name, p->nctrls - 1);
        util_grow((void **)&ps->ix_vars, &ps->cap_ix_vars, (size_t)p->nctrls, sizeof *ps->ix_vars);
        ps->ix_vars[p->nctrls - 1] = (proto_names_t){NULL, 0, 0};
        ps->ctrl_section = xrealloc(ps->ctrl_section, sizeof *ps->ctrl_section * (size_t)p->nctrls);
        ps->ctrl_section[p->nctrls - 1] = ps->section;
        ps->ctrl = p->nctrls - 1;
        ps->cap_linevars = ps->cap_ctrlvars = 0;
        ps->seen_init = ps->seen_warm = false;
    } else {
        ps->ctrl = found;
        ps->cap_rows = (size_t)p->ctrls[found].nrows;
        memset(ps->over, 0, sizeof *ps->over * ((size_t)p->nevents + 1));
    }
    ps->last_kind = PROTO_READ_NONE;
    while (proto_peek(ps)->kind != T_RBRACE) {
        if (proto_peek(ps)->kind == LEX_EOF)
            return proto_expected(ps, "'}'");
        set_limit(ps, line_end(ps, ps->pos));
        int rc = controller_item(ps);
        if (!rc && proto_peek(ps)->kind != T_EOL)
            rc = proto_expected(ps, "end of line");
        ps->limit = ps->ntoks;
        if (rc)
            return -1;
    }
    proto_next(ps);
    ps->last_kind = PROTO_READ_NONE;
    proto_ctrl_t *c = &p->ctrls[ps->ctrl];
    ps->ctrl = -1;
    if (ps->pass == 2 || found >= 0)
        return 0;
    c->init_state = -1;
    for (int i = 0; i < c->nstates && c->init_state < 0; i++)
        if (!c->transient[i])
            c->init_state = i;
    if (c->init_state < 0)
        return proto_fail(ps, name, "controller '%s' declares no stable state", c->name);
    return 0;
}

/* PATTERN := OP[.ORD|*][.SCOPE|*] */
static int parse_pattern(proto_parser_t *ps, proto_map_t *m)
{
    static const char *const ops[] = {"ld", "st", "rmw", "cas", "fence"};
    static const int opv[] = {PROG_OP_LD, PROG_OP_ST, PROG_OP_RMW, PROG_OP_CAS, PROG_OP_FENCE};
    static const char *const ords[] = {"plain", "rlx", "acq", "rel", "acqrel", "sc"};
    static const char *const scopes[] = {"wg", "agent", "system", "rm_agent"};
    static const int scopev[] = {PROG_SCOPE_WG, PROG_SCOPE_AGENT, PROG_SCOPE_SYSTEM,
                                 PROG_SCOPE_RM_AGENT};
    const lex_tok_t *t = proto_peek(ps);
    m->op = -1;
    for (int i = 0; t->kind == T_ID && i < 5; i++)
        if (proto_tok_eq(ps, t, ops[i]))
            m->op = opv[i];
    if (m->op < 0)
        return proto_expected(ps, "an operation (ld, st, rmw, cas or fence)");
    proto_next(ps);
    m->ord = m->op == PROG_OP_LD || m->op == PROG_OP_ST ? PROG_ORD_PLAIN : -1;
    m->scope = -1;
    bool have_ord = false, have_scope = false;
    while (proto_peek(ps)->kind == T_DOT && !have_scope) {
        proto_next(ps);
        t = proto_peek(ps);
        int ord = -1, scope = -1;
        for (int i = 0; t->kind == T_ID && i < 6; i++)
            if (proto_tok_eq(ps, t, ords[i]))
                ord = i; /* prog_ord_t order */
        for (int i = 0; t->kind == T_ID && i < 4; i++)
            if (proto_tok_eq(ps, t, scopes[i]))
                scope = scopev[i];
        if (t->kind == T_STAR && !have_ord) {
            m->ord = -1;
            have_ord = true;
        } else if (t->kind == T_STAR || scope >= 0) {
            m->scope = scope;
            have_ord = have_scope = true;
        } else if (ord >= 0 && !have_ord) {
            m->ord = ord;
            have_ord = true;
        } else {
            return proto_expected(ps, have_ord ? "a scope (wg, agent, system, rm_agent or *)"
                                               : "an order (plain, rlx, acq, rel, acqrel, sc or "
                                                 "*) or a scope");
        }
        proto_next(ps);
    }
    return 0;
}

static void push_map_meta(proto_parser_t *ps, int i, const proto_map_t *m)
{
    if ((size_t)i >= ps->cap_map_meta) {
        size_t cap = ps->cap_map_meta;
        util_grow((void **)&ps->map_section, &cap, (size_t)i + 1, sizeof *ps->map_section);
        cap = ps->cap_map_meta;
        util_grow((void **)&ps->map_toks, &cap, (size_t)i + 1, sizeof *ps->map_toks);
        ps->cap_map_meta = cap;
    }
    ps->map_section[i] = ps->section;
    ps->map_toks[i] = xmalloc(sizeof(int) * (size_t)(m->nevents + 1));
    memcpy(ps->map_toks[i], m->events, sizeof(int) * (size_t)m->nevents);
}

/* The map of an earlier section with M's pattern, or -1. */
static int same_pattern(const proto_parser_t *ps, const proto_map_t *m)
{
    for (int i = 0; i < ps->p->nmaps; i++) {
        const proto_map_t *o = &ps->p->maps[i];
        if (o->op == m->op && o->ord == m->ord && o->scope == m->scope)
            return i;
    }
    return -1;
}

/* 'unmap' PATTERN: a variant drops its base's map for that pattern. */
static int core_unmap(proto_parser_t *ps)
{
    const lex_tok_t *kw = proto_next(ps), *pat = proto_peek(ps);
    proto_map_t m = {0};
    if (parse_pattern(ps, &m))
        return -1;
    if (ps->pass == 2)
        return 0;
    if (!ps->section)
        return proto_fail(ps, kw, "'unmap' belongs in a variant (protocol NAME extends BASE)");
    int i = same_pattern(ps, &m);
    if (i < 0 || ps->map_section[i] == ps->section)
        return proto_fail(ps, pat, "the base has no map for this pattern");
    char *key = tokens_text(ps, "map", proto_tok_index(ps, pat), ps->pos);
    drop_readings(ps, PROTO_READ_MAP, key);
    free(key);
    proto_t *p = ps->p;
    free(p->maps[i].events);
    free(ps->map_toks[i]);
    for (int j = i + 1; j < p->nmaps; j++) {
        p->maps[j - 1] = p->maps[j];
        ps->map_toks[j - 1] = ps->map_toks[j];
        ps->map_section[j - 1] = ps->map_section[j];
    }
    p->nmaps--;
    return 0;
}

static int core_map(proto_parser_t *ps)
{
    const lex_tok_t *kw = proto_next(ps);
    const lex_tok_t *pat = proto_peek(ps);
    proto_map_t m = {0};
    m.line = kw->line;
    m.col = kw->col;
    if (parse_pattern(ps, &m))
        return -1;
    mark_item(ps, PROTO_READ_MAP, proto_tok_index(ps, kw), ps->pos);
    if (proto_expect(ps, T_ARROW, "'->'"))
        return -1;
    size_t cap = 0;
    bool line_op = m.op != PROG_OP_FENCE;
    for (;;) {
        const lex_tok_t *t;
        if (proto_expect_id(ps, "an event name", &t)) {
            free(m.events);
            return -1;
        }
        int tok = proto_tok_index(ps, t);
        UTIL_PUSH(m.events, m.nevents, cap, tok);
        if (ps->pass == 1) {
            int i = proto_find_named(ps, t);
            if (i < 0) {
                proto_named_t n = {proto_tok_str(ps, t), PROTO_EV_CORE, line_op, tok, -1};
                UTIL_PUSH(ps->named, ps->nnamed, ps->cap_named, n);
                proto_names_add(&ps->ix_named, n.name, ps->nnamed - 1);
            } else if (ps->named[i].kind != PROTO_EV_CORE) {
                free(m.events);
                return proto_fail(ps, t, "'%s' is declared with 'event'; a map names core events",
                                  ps->named[i].name);
            } else {
                ps->named[i].line |= line_op;
            }
        }
        if (proto_peek(ps)->kind != T_COMMA)
            break;
        proto_next(ps);
    }
    if (ps->pass == 2) {
        free(m.events);
        return 0;
    }
    proto_t *p = ps->p;
    int i = same_pattern(ps, &m);
    if (i >= 0 && ps->map_section[i] == ps->section) {
        free(m.events);
        return proto_fail(ps, pat, "duplicate map for this pattern (first at line %d)",
                          p->maps[i].line);
    }
    if (i >= 0) { /* a variant replaces its base's map */
        char *key = tokens_text(ps, "map", proto_tok_index(ps, pat), ps->last_key_end);
        drop_readings(ps, PROTO_READ_MAP, key);
        free(key);
        free(p->maps[i].events);
        free(ps->map_toks[i]);
        p->maps[i] = m;
    } else {
        UTIL_PUSH(p->maps, p->nmaps, ps->cap_maps, m);
        i = p->nmaps - 1;
    }
    push_map_meta(ps, i, &m);
    return 0;
}

static int decl_core(proto_parser_t *ps)
{
    const lex_tok_t *kw = &ps->toks[ps->pos - 1], *name;
    if (proto_expect_id(ps, "a controller name", &name) || proto_expect(ps, T_LBRACE, "'{'"))
        return -1;
    if (ps->pass == 1) {
        if (ps->core_tok >= 0 && ps->core_section == ps->section)
            return proto_fail(ps, kw, "duplicate 'core' section (first at line %d)",
                              ps->toks[ps->core_tok].line);
        if (ps->core_tok >= 0 &&
            !(ps->toks[ps->core_tok].len == name->len &&
              !memcmp(ps->src + ps->toks[ps->core_tok].off, ps->src + name->off, name->len)))
            return proto_fail(ps, name, "the base's core section is for '%.*s'",
                              (int)ps->toks[ps->core_tok].len,
                              ps->src + ps->toks[ps->core_tok].off);
        ps->core_tok = proto_tok_index(ps, name);
        ps->core_section = ps->section;
        ps->seen_outstanding = false;
        ps->seen_local = false;
    }
    ps->last_kind = PROTO_READ_NONE;
    for (;;) {
        const lex_tok_t *t = proto_peek(ps);
        if (t->kind == T_RBRACE)
            break;
        if (at_reading(ps)) {
            if (parse_reading(ps))
                return -1;
            continue;
        }
        ps->last_kind = PROTO_READ_NONE;
        if (proto_is(ps, t, "map")) {
            if (core_map(ps))
                return -1;
        } else if (proto_is(ps, t, "unmap")) {
            if (core_unmap(ps))
                return -1;
        } else if (proto_is(ps, t, "outstanding")) {
            proto_next(ps);
            const lex_tok_t *n = proto_peek(ps);
            int v;
            if (proto_expect(ps, T_INT, "an integer") || proto_int_value(ps, n, &v))
                return -1;
            if (ps->pass == 2)
                continue;
            if (v < 1)
                return proto_fail(ps, n, "'outstanding' must be at least 1");
            if (ps->seen_outstanding)
                return proto_fail(ps, t, "'outstanding' given twice");
            ps->seen_outstanding = true;
            ps->p->outstanding = v;
        } else if (proto_is(ps, t, "local")) {
            /* 'local wg': work-group-scoped accesses are performed at this L1 (timed
               mode's store buffer keeps stores across wg-scoped releases) */
            proto_next(ps);
            const lex_tok_t *sc = proto_peek(ps);
            if (sc->kind != T_ID || !proto_is(ps, sc, "wg"))
                return proto_expected(ps, "the scope 'wg' (the only scope an L1 performs)");
            proto_next(ps);
            if (ps->pass == 2)
                continue;
            if (ps->seen_local)
                return proto_fail(ps, t, "'local' given twice");
            ps->seen_local = true;
            ps->p->wg_local = true;
        } else {
            return proto_expected(ps, "'map', 'unmap', 'outstanding', 'local', 'reading' or '}'");
        }
    }
    proto_next(ps);
    ps->last_kind = PROTO_READ_NONE;
    return 0;
}

static int decl_invariant(proto_parser_t *ps)
{
    const lex_tok_t *name;
    if (proto_expect_id(ps, "an invariant name", &name) || proto_expect(ps, T_COLON, "':'"))
        return -1;
    proto_t *p = ps->p;
    int old = proto_names_find(&ps->ix_invs, ps->src + name->off, name->len);
    if (ps->pass == 1 && old >= 0 && !ps->section)
        return proto_fail(ps, name, "invariant '%.*s' declared twice", (int)name->len,
                          ps->src + name->off);
    ps->ctx = PROTO_CTX_INV;
    ps->line_row = true;
    proto_expr_t *e;
    const lex_tok_t *first = proto_peek(ps);
    if (proto_parse_expr(ps, &e))
        return -1;
    const lex_tok_t *last = &ps->toks[ps->pos - 1];
    if (ps->pass == 2) { /* a variant's invariant of the same name replaces its base's */
        if (proto_need_value(ps, e, "an invariant")) {
            proto_expr_free(e);
            return -1;
        }
        proto_expr_free(p->invs[old].expr);
        p->invs[old].expr = e;
        p->invs[old].text_off = first->off;
        p->invs[old].text_len = last->off + last->len - first->off;
        return 0;
    }
    proto_expr_free(e);
    if (old >= 0) {
        p->invs[old].line = name->line;
        p->invs[old].col = name->col;
        return 0;
    }
    proto_inv_t inv = {.name = proto_tok_str(ps, name), .line = name->line, .col = name->col};
    UTIL_PUSH(p->invs, p->ninvs, ps->cap_invs, inv);
    proto_names_add(&ps->ix_invs, inv.name, p->ninvs - 1);
    return 0;
}

/* 'clock ID': the protocol's global physical clock (at most one). */
static int decl_clock(proto_parser_t *ps, const lex_tok_t *kw)
{
    const lex_tok_t *name;
    if (proto_expect_id(ps, "a clock name", &name))
        return -1;
    if (ps->pass == 2)
        return 0;
    if (ps->p->clock)
        return proto_fail(ps, kw, "'clock' given twice");
    char *s = proto_tok_str(ps, name);
    if (proto_reserved(s) || proto_find_param(ps, name) >= 0) {
        free(s);
        return proto_fail(ps, name, "'%.*s' is a reserved word or a param", (int)name->len,
                          ps->src + name->off);
    }
    ps->p->clock = s;
    return 0;
}

/* 'published' STRING CTRL {('stable'|'transient'|'coherent'|'transitions') INT} */
static int decl_published(proto_parser_t *ps)
{
    const lex_tok_t *src = proto_peek(ps), *ct;
    if (src->kind != T_STRING)
        return proto_expected(ps, "the source in quotes (\"seed 003 Table V\")");
    proto_next(ps);
    if (proto_expect_id(ps, "a controller name", &ct))
        return -1;
    proto_pub_t pub = {NULL, -1, -1, -1, -1, -1};
    int n = 0;
    for (;;) {
        const lex_tok_t *t = proto_peek(ps);
        int *slot = proto_is(ps, t, "stable")        ? &pub.stable
                    : proto_is(ps, t, "transient")   ? &pub.transient
                    : proto_is(ps, t, "coherent")    ? &pub.coherent
                    : proto_is(ps, t, "transitions") ? &pub.transitions
                                                     : NULL;
        if (!slot)
            break;
        proto_next(ps);
        const lex_tok_t *v = proto_peek(ps);
        if (v->kind != T_INT)
            return proto_expected(ps, "a count");
        proto_next(ps);
        if (proto_int_value(ps, v, slot))
            return -1;
        n++;
    }
    if (!n)
        return proto_expected(ps, "stable, transient, coherent or transitions");
    if (ps->pass == 1)
        return 0;
    pub.ctrl = proto_find_ctrl(ps, ct);
    if (pub.ctrl < 0)
        return proto_fail(ps, ct, "undeclared controller '%.*s'", (int)ct->len, ps->src + ct->off);
    pub.source = xstrndup(ps->src + src->off + 1, src->len - 2);
    ps->p->pubs = xrealloc(ps->p->pubs, sizeof *ps->p->pubs * (size_t)(ps->p->npubs + 1));
    ps->p->pubs[ps->p->npubs++] = pub;
    return 0;
}

static bool adjacent(const lex_tok_t *a, const lex_tok_t *b)
{
    return a->off + a->len == b->off;
}

/* A protocol or model NAME: an identifier that may go on with '-' or '.'
 * and more letters or digits, written without spaces (gpu-wt, hrf-indirect).
 * Returns the name, malloc'd, or NULL with an error. */
static char *dashed_name(proto_parser_t *ps, const char *what)
{
    const lex_tok_t *first;
    if (proto_expect_id(ps, what, &first))
        return NULL;
    const lex_tok_t *last = first;
    for (;;) {
        const lex_tok_t *sep = proto_peek(ps), *w = proto_peek2(ps);
        if ((sep->kind != T_MINUS && sep->kind != T_DOT) || !adjacent(last, sep) ||
            (w->kind != T_ID && w->kind != T_INT) || !adjacent(sep, w))
            break;
        proto_next(ps);
        last = proto_next(ps);
    }
    return xstrndup(ps->src + first->off, last->off + last->len - first->off);
}

/* 'labels' STRING ITEM {',' ITEM}, ITEM := LABEL ['..' LABEL]: the cells of the paper's
 * table that rows cite in their sixth column (a0..a25 expands to 26 labels). */
static int decl_labels(proto_parser_t *ps, const lex_tok_t *kw)
{
    const lex_tok_t *src = proto_peek(ps);
    if (src->kind != T_STRING)
        return proto_expected(ps, "the table in quotes (\"seed 001 Table 3\")");
    proto_next(ps);
    proto_t *p = ps->p;
    if (ps->pass == 1 && p->labels_source)
        return proto_fail(ps, kw, "'labels' given twice");
    if (proto_peek(ps)->kind != T_ID)
        return proto_expected(ps, "a label");
    if (ps->pass == 1)
        p->labels_source = xstrndup(ps->src + src->off + 1, src->len - 2);
    for (bool more = true; more; more = proto_peek(ps)->kind == T_COMMA && proto_next(ps)) {
        const lex_tok_t *a, *b;
        if (proto_expect_id(ps, "a label", &a))
            return -1;
        b = a;
        if (proto_peek(ps)->kind == T_DOTDOT) {
            proto_next(ps);
            if (proto_expect_id(ps, "the last label of the range", &b))
                return -1;
        }
        if (ps->pass == 2)
            continue;
        /* a range: one prefix, then numbers from..to */
        size_t pa = a->len, pb = b->len;
        while (pa && ps->src[a->off + pa - 1] >= '0' && ps->src[a->off + pa - 1] <= '9')
            pa--;
        while (pb && ps->src[b->off + pb - 1] >= '0' && ps->src[b->off + pb - 1] <= '9')
            pb--;
        long from = 0, to = 0;
        if (a != b) {
            if (pa == a->len || pb == b->len || pa != pb ||
                memcmp(ps->src + a->off, ps->src + b->off, pa) || a->len - pa > 4 ||
                b->len - pb > 4)
                return proto_fail(ps, a, "a label range is PREFIXm..PREFIXn (a0..a25)");
            from = strtol(ps->src + a->off + pa, NULL, 10);
            to = strtol(ps->src + b->off + pb, NULL, 10);
            if (to < from || to - from > 999)
                return proto_fail(ps, b, "empty or too long label range");
        }
        for (long k = from; k <= to; k++) {
            char *name = a == b ? proto_tok_str(ps, a) : NULL;
            if (!name) {
                strbuf_t nb;
                sb_init(&nb);
                sb_putn(&nb, ps->src + a->off, pa);
                sb_printf(&nb, "%ld", k);
                name = nb.s;
            }
            for (int i = 0; i < p->nlabels; i++)
                if (!strcmp(p->labels[i], name)) {
                    free(name);
                    return proto_fail(ps, a, "label '%s' declared twice", p->labels[i]);
                }
            p->labels = xrealloc(p->labels, sizeof *p->labels * (size_t)(p->nlabels + 1));
            p->labels[p->nlabels++] = name;
        }
    }
    return 0;
}

/* 'final' CTRL '.' VAR ['in' STATE {',' STATE}] ['if' MASK]: where final memory is read.
 * A variant's 'final' declarations replace its base's. */
static int decl_final(proto_parser_t *ps, const lex_tok_t *kw)
{
    const lex_tok_t *ct, *vt, *mt = NULL;
    if (proto_expect_id(ps, "a controller name", &ct) || proto_expect(ps, T_DOT, "'.'") ||
        proto_expect_id(ps, "a data line variable", &vt))
        return -1;
    const lex_tok_t *first_state = NULL;
    int nstates = 0;
    if (proto_is(ps, proto_peek(ps), "in")) {
        proto_next(ps);
        first_state = proto_peek(ps);
        for (;;) { /* STATE {',' STATE} */
            if (proto_peek(ps)->kind != T_ID)
                return proto_expected(ps, "a state name");
            proto_next(ps);
            nstates++;
            if (proto_peek(ps)->kind != T_COMMA)
                break;
            proto_next(ps);
        }
    }
    if (proto_is(ps, proto_peek(ps), "if")) {
        proto_next(ps);
        if (proto_expect_id(ps, "a mask line variable", &mt))
            return -1;
    }
    if (ps->pass == 1)
        return 0;
    proto_t *p = ps->p;
    if (ps->final_section != ps->section) { /* a variant starts its own list */
        p->nfinals = 0;
        ps->final_section = ps->section;
    }
    proto_final_t f = {proto_find_ctrl(ps, ct), -1, 0, -1, kw->line, kw->col};
    if (f.ctrl < 0)
        return proto_fail(ps, ct, "undeclared controller '%.*s'", (int)ct->len, ps->src + ct->off);
    const proto_ctrl_t *c = &p->ctrls[f.ctrl];
    int v = proto_names_find(&ps->ix_vars[f.ctrl], ps->src + vt->off, vt->len);
    if (v < 0 || (v & PROTO_VAR_CTRL) || c->linevars[v].type.kind != PROTO_T_DATA)
        return proto_fail(ps, vt, "'%.*s' is not a data line variable of controller '%s'",
                          (int)vt->len, ps->src + vt->off, c->name);
    f.var = v;
    for (int k = 0; k < nstates; k++) {
        const lex_tok_t *st = first_state + 2 * k;
        int sidx = proto_find_state(c, ps, st);
        if (sidx < 0)
            return proto_fail(ps, st, "undeclared state '%.*s' in controller '%s'", (int)st->len,
                              ps->src + st->off, c->name);
        f.states |= (uint64_t)1 << sidx;
    }
    if (mt) {
        int m = proto_names_find(&ps->ix_vars[f.ctrl], ps->src + mt->off, mt->len);
        if (m < 0 || (m & PROTO_VAR_CTRL) || c->linevars[m].type.kind != PROTO_T_MASK)
            return proto_fail(ps, mt, "'%.*s' is not a mask line variable of controller '%s'",
                              (int)mt->len, ps->src + mt->off, c->name);
        f.mask = m;
    }
    p->finals = xrealloc(p->finals, sizeof *p->finals * (size_t)(p->nfinals + 1));
    p->finals[p->nfinals++] = f;
    return 0;
}

/* 'granularity' ('word' | 'line'): 'word' makes every location its own line. */
static int decl_granularity(proto_parser_t *ps)
{
    const lex_tok_t *t = proto_peek(ps);
    bool word = proto_is(ps, t, "word");
    if (!word && !proto_is(ps, t, "line"))
        return proto_expected(ps, "'word' or 'line'");
    proto_next(ps);
    ps->p->granularity_word = word;
    return 0;
}

/* 'protocol' NAME [STRING] ['extends' BASE]: the file's header, or (after
 * the base's sections, see proto_lex) the header of a variant. */
static int parse_header(proto_parser_t *ps, bool first)
{
    proto_t *p = ps->p;
    if (proto_expect_word(ps, "protocol"))
        return -1;
    char *name = dashed_name(ps, "a protocol name");
    if (!name)
        return -1;
    const lex_tok_t *t = proto_peek(ps);
    if (t->kind == T_STRING)
        proto_next(ps);
    char *base = NULL;
    const lex_tok_t *bt = proto_peek(ps);
    if (proto_is(ps, bt, "extends")) {
        proto_next(ps);
        bt = proto_peek(ps);
        if (!(base = dashed_name(ps, "the name of the protocol this one extends"))) {
            free(name);
            return -1;
        }
    }
    int rc = 0;
    if (!first && !base)
        rc = proto_fail(ps, &ps->toks[ps->pos - 1],
                        "a second 'protocol' header must say 'extends %s'", p->name);
    else if (first && base)
        rc = proto_fail(ps, bt, "base protocol '%s' not found before this variant", base);
    else if (base && ps->pass == 1 && strcmp(base, p->name))
        rc = proto_fail(ps, bt, "'%s' extends '%s', but its base file declares 'protocol %s'", name,
                        base, p->name);
    if (!rc && !first && ps->pass == 2) { /* a paper's counts are not a variant's */
        for (int i = 0; i < p->npubs; i++)
            free(p->pubs[i].source);
        p->npubs = 0;
    }
    if (rc || ps->pass == 2) {
        free(name);
        free(base);
        return rc;
    }
    free(p->name);
    p->name = name;
    if (t->kind == T_STRING) {
        free(p->desc);
        p->desc = xstrndup(ps->src + t->off + 1, t->len - 2);
    }
    if (base) {
        free(p->base);
        p->base = base;
    }
    p->nsections++;
    return 0;
}

static int parse_file(proto_parser_t *ps)
{
    proto_t *p = ps->p;
    ps->section = 0;
    if (parse_header(ps, true))
        return -1;
    for (;;) {
        const lex_tok_t *t = proto_peek(ps);
        if (t->kind == LEX_EOF)
            return 0;
        int rc;
        if (t->kind != T_ID)
            return proto_expected(
                ps, "a declaration (target, param, network, message, "
                    "controller, core, invariant, clock, published, labels, final, granularity)");
        if (at_reading(ps)) {
            if (parse_reading(ps))
                return -1;
            continue;
        }
        int start = ps->pos;
        ps->last_kind = PROTO_READ_NONE;
        if (proto_tok_eq(ps, t, "protocol")) {
            ps->section++;
            if (parse_header(ps, false))
                return -1;
            continue;
        }
        proto_next(ps);
        if (proto_tok_eq(ps, t, "target")) {
            char *m = dashed_name(ps, "a model name");
            rc = m ? 0 : -1;
            if (m && ps->pass == 1 && p->target && ps->target_section == ps->section) {
                free(m);
                return proto_fail(ps, t, "'target' given twice");
            }
            if (m && ps->pass == 1) {
                free(p->target);
                p->target = m;
                ps->target_section = ps->section;
            } else {
                free(m);
            }
        } else if (proto_tok_eq(ps, t, "param")) {
            rc = decl_param(ps);
            mark_item(ps, PROTO_READ_PARAM, start, start + 2);
        } else if (proto_tok_eq(ps, t, "network")) {
            rc = decl_network(ps);
            mark_item(ps, PROTO_READ_NETWORK, start, start + 2);
        } else if (proto_tok_eq(ps, t, "message")) {
            rc = decl_message(ps);
        } else if (proto_tok_eq(ps, t, "controller")) {
            rc = decl_controller(ps);
        } else if (proto_tok_eq(ps, t, "core")) {
            rc = decl_core(ps);
        } else if (proto_tok_eq(ps, t, "invariant")) {
            rc = decl_invariant(ps);
        } else if (proto_tok_eq(ps, t, "clock")) {
            rc = decl_clock(ps, t);
        } else if (proto_tok_eq(ps, t, "published")) {
            rc = decl_published(ps);
        } else if (proto_tok_eq(ps, t, "labels")) {
            rc = decl_labels(ps, t);
        } else if (proto_tok_eq(ps, t, "final")) {
            rc = decl_final(ps, t);
        } else if (proto_tok_eq(ps, t, "granularity")) {
            rc = decl_granularity(ps);
        } else {
            ps->pos--;
            return proto_expected(
                ps, "a declaration (target, param, network, message, "
                    "controller, core, invariant, clock, published, labels, final, granularity)");
        }
        if (rc)
            return -1;
    }
}

/* ---- between the passes ---- */

/* Build the event table (messages, then named events in file order), resolve
 * the core section and the maps' events. */
static int finish_decls(proto_parser_t *ps)
{
    proto_t *p = ps->p;
    for (int i = 0; i < ps->nnamed; i++) {
        const lex_tok_t *t = &ps->toks[ps->named[i].tok];
        if (proto_find_msg(ps, t) >= 0)
            return proto_fail(ps, t, "'%s' is a message; %s", ps->named[i].name,
                              ps->named[i].kind == PROTO_EV_CORE
                                  ? "a map names core events"
                                  : "events and messages share one name space");
    }
    p->nevents = p->nmsgs + ps->nnamed;
    p->events = xcalloc((size_t)p->nevents + 1, sizeof *p->events);
    for (int i = 0; i < p->nmsgs; i++)
        p->events[i] =
            (proto_event_t){xstrdup(p->msgs[i].name), PROTO_EV_MSG, !p->msgs[i].noline, i};
    for (int i = 0; i < ps->nnamed; i++) {
        proto_named_t *n = &ps->named[i];
        p->events[p->nmsgs + i] = (proto_event_t){n->name, n->kind, n->line, -1};
        n->name = NULL; /* now owned by the table */
    }
    p->core_ctrl = -1;
    if (ps->core_tok < 0) {
        for (int i = 0; i < p->nctrls; i++)
            if (p->ctrls[i].per_cu)
                return proto_fail(ps, &ps->toks[ps->ntoks - 1],
                                  "missing 'core' section (per-cu controller '%s' needs one)",
                                  p->ctrls[i].name);
    } else {
        const lex_tok_t *t = &ps->toks[ps->core_tok];
        p->core_ctrl = proto_find_ctrl(ps, t);
        if (p->core_ctrl < 0)
            return proto_fail(ps, t, "undeclared controller '%.*s'", (int)t->len, ps->src + t->off);
        if (!p->ctrls[p->core_ctrl].per_cu)
            return proto_fail(ps, t, "core controller '%s' is not per-cu",
                              p->ctrls[p->core_ctrl].name);
    }
    for (int i = 0; i < p->nmaps; i++)
        for (int j = 0; j < p->maps[i].nevents; j++)
            p->maps[i].events[j] = proto_find_event(ps, &ps->toks[p->maps[i].events[j]]);
    ps->reach = xcalloc((size_t)p->nctrls + 1, sizeof *ps->reach);
    for (int i = 0; i < p->nctrls; i++)
        ps->reach[i] = xcalloc((size_t)p->nevents + 1, sizeof **ps->reach);
    ps->over = xcalloc((size_t)p->nevents + 1, sizeof *ps->over);
    return 0;
}

/* After pass 2: every map event has a row in the core controller. */
static int check_maps(proto_parser_t *ps)
{
    const proto_t *p = ps->p;
    if (p->core_ctrl < 0)
        return 0;
    const proto_ctrl_t *c = &p->ctrls[p->core_ctrl];
    bool *handled = xcalloc((size_t)p->nevents + 1, sizeof *handled);
    for (int r = 0; r < c->nrows; r++)
        handled[c->rows[r].event] = true;
    int rc = 0;
    for (int i = 0; i < p->nmaps && !rc; i++)
        for (int j = 0; j < p->maps[i].nevents && !rc; j++) {
            int ev = p->maps[i].events[j];
            if (!handled[ev])
                rc = proto_fail(ps, &ps->toks[ps->map_toks[i][j]],
                                "no row of controller '%s' handles event '%s'", c->name,
                                p->events[ev].name);
        }
    free(handled);
    return rc;
}

/* ---- ghosts (docs/protocol-language.md, Ghosts) ---- */

/* A read in E of a ghost line variable of controller C or a ghost field of message M
   (-1: none), or NULL. */
static const proto_expr_t *ghost_read(const proto_t *p, int c, int m, const proto_expr_t *e)
{
    if (!e)
        return NULL;
    if ((e->kind == PROTO_E_LINEVAR && c >= 0 && p->ctrls[c].linevars[e->index].ghost) ||
        (e->kind == PROTO_E_MSGF && m >= 0 && p->msgs[m].fields[e->index].ghost))
        return e;
    const proto_expr_t *kids[] = {e->a, e->b, e->c, e->d};
    for (int i = 0; i < 4; i++) {
        const proto_expr_t *r = ghost_read(p, c, m, kids[i]);
        if (r)
            return r;
    }
    return NULL;
}

static int ghost_fail(proto_parser_t *ps, int c, int m, const proto_expr_t *e)
{
    const proto_t *p = ps->p;
    const char *name = e->kind == PROTO_E_LINEVAR ? p->ctrls[c].linevars[e->index].name
                                                  : p->msgs[m].fields[e->index].name;
    return proto_fail_pos(ps, e->line, e->col,
                          "'%s' is a ghost (timed mode only): its value may flow only into "
                          "ghost variables, ghost fields and predictor rules",
                          name);
}

/* Ghost values reach nothing the explorer runs: guards, the values of other variables
   and fields, destinations, done values, invariants and finals never read them. */
static int check_ghosts(proto_parser_t *ps)
{
    const proto_t *p = ps->p;
    const proto_expr_t *e;
    for (int c = 0; c < p->nctrls; c++)
        for (int r = 0; r < p->ctrls[c].nrows; r++) {
            const proto_row_t *row = &p->ctrls[c].rows[r];
            const proto_event_t *ev = &p->events[row->event];
            int m = ev->kind == PROTO_EV_MSG ? ev->msg : -1;
            if ((e = ghost_read(p, c, m, row->guard)))
                return ghost_fail(ps, c, m, e);
            for (int k = 0; k < row->nactions; k++) {
                const proto_action_t *a = &row->actions[k];
                const proto_expr_t *ex[3] = {NULL, NULL, NULL};
                if (a->kind == PROTO_A_ASSIGN &&
                    !(a->line_var && p->ctrls[c].linevars[a->var].ghost)) {
                    ex[0] = a->index;
                    ex[1] = a->value;
                } else if (a->kind == PROTO_A_SEND) {
                    for (int f = 0; f < p->msgs[a->msg].nfields; f++)
                        if (!p->msgs[a->msg].fields[f].ghost &&
                            (e = ghost_read(p, c, m, a->fields[f])))
                            return ghost_fail(ps, c, m, e);
                    ex[0] = a->dest_node;
                } else if (a->kind == PROTO_A_DONE) {
                    ex[0] = a->tid;
                    ex[1] = a->dval;
                }
                for (int i = 0; i < 3; i++)
                    if ((e = ghost_read(p, c, m, ex[i])))
                        return ghost_fail(ps, c, m, e);
            }
        }
    for (int i = 0; i < p->nfinals; i++) {
        const proto_final_t *f = &p->finals[i];
        if (p->ctrls[f->ctrl].linevars[f->var].ghost ||
            (f->mask >= 0 && p->ctrls[f->ctrl].linevars[f->mask].ghost))
            return proto_fail_pos(ps, f->line, f->col,
                                  "a final reads '%s.%s', a ghost (timed mode only)",
                                  p->ctrls[f->ctrl].name, p->ctrls[f->ctrl].linevars[f->var].name);
    }
    return 0;
}

/* The protocol without its ghosts (proto.h): their assignments and send values go and
   their initial values are 0, so they hold 0 in every state; nothing the explorer runs
   reads them (check_ghosts) and its encoding does not store them (sys.c). The declarations
   and the rows' text stay, for printing. */
static void drop_ghosts(proto_t *p)
{
    for (int c = 0; c < p->nctrls; c++) {
        proto_ctrl_t *ct = &p->ctrls[c];
        for (int v = 0; v < ct->nlinevars; v++)
            if (ct->linevars[v].ghost) {
                proto_expr_free(ct->linevars[v].init);
                ct->linevars[v].init = NULL;
            }
        for (int r = 0; r < ct->nrows; r++) {
            proto_row_t *row = &ct->rows[r];
            int n = 0;
            for (int k = 0; k < row->nactions; k++) {
                proto_action_t *a = &row->actions[k];
                if (a->kind == PROTO_A_ASSIGN && a->line_var && ct->linevars[a->var].ghost) {
                    proto_action_clear(p, a);
                    continue;
                }
                if (a->kind == PROTO_A_SEND)
                    for (int f = 0; f < p->msgs[a->msg].nfields; f++)
                        if (p->msgs[a->msg].fields[f].ghost) {
                            proto_expr_free(a->fields[f]);
                            a->fields[f] = NULL;
                        }
                row->actions[n++] = *a;
            }
            row->nactions = n;
        }
    }
}

/* After pass 2: a row reading applies while some row it marks is left (a
 * variant overrides or removes the cells of its base's rows). */
static void rows_readings_live(proto_t *p)
{
    for (int i = 0; i < p->nreadings; i++)
        if (p->readings[i].kind == PROTO_READ_ROW)
            p->readings[i].live = false;
    for (int c = 0; c < p->nctrls; c++)
        for (int r = 0; r < p->ctrls[c].nrows; r++)
            if (p->ctrls[c].rows[r].reading)
                p->readings[p->ctrls[c].rows[r].reading - 1].live = true;
}

static int run_pass(proto_parser_t *ps, int pass)
{
    ps->pass = pass;
    ps->nread = 0;
    ps->last_kind = PROTO_READ_NONE;
    ps->pos = 0;
    ps->limit = ps->ntoks;
    ps->depth = 0;
    ps->ctrl = -1;
    ps->ev = -1;
    return parse_file(ps);
}

int proto_parse(const char *file, const char *src, size_t len, proto_t **out, diag_t *err)
{
    return proto_parse_lib(file, src, len, NULL, out, err);
}

static int parse_lib(const char *file, const char *src, size_t len, const char *const *lib,
                     bool keep_ghosts, proto_t **out, diag_t *err)
{
    proto_parser_t ps = {0};
    ps.lib = lib;
    ps.file = file;
    ps.src = src;
    ps.len = len;
    ps.err = err;
    ps.core_tok = -1;
    ps.target_section = -1;
    ps.final_section = -1;
    char *all;
    size_t all_len;
    if (proto_lex(&ps, &all, &all_len)) {
        for (int i = 0; i < ps.nsegs; i++)
            free(ps.segs[i].file);
        free(ps.segs);
        free(ps.toks);
        return -1;
    }
    ps.src = all;
    ps.len = all_len;
    proto_t *p = xcalloc(1, sizeof *p);
    ps.p = p;
    p->file = xstrdup(file);
    /* A variant stores its bases with it, so that the stored text parses alone
     * (resume, trace and diff rebuild protocols from the store). */
    p->source = ps.nsegs > 1 ? xstrndup(all, all_len) : xstrndup(src, len);
    p->source_len = ps.nsegs > 1 ? all_len : len;
    p->outstanding = 1;
    p->core_ctrl = -1;
    int rc = run_pass(&ps, 1);
    if (!rc)
        rc = finish_decls(&ps);
    if (!rc)
        rc = run_pass(&ps, 2);
    if (!rc)
        rc = check_maps(&ps);
    if (!rc)
        rc = check_ghosts(&ps);
    if (!rc && !keep_ghosts)
        drop_ghosts(p);
    if (!rc)
        rows_readings_live(p);
    for (int i = 0; i < ps.nnamed; i++)
        free(ps.named[i].name);
    free(ps.named);
    for (int i = 0; i < p->nmaps; i++)
        free(ps.map_toks[i]);
    free(ps.map_toks);
    free(ps.map_section);
    free(ps.ctrl_section);
    proto_names_free(&ps.ix_params);
    proto_names_free(&ps.ix_nets);
    proto_names_free(&ps.ix_msgs);
    proto_names_free(&ps.ix_ctrls);
    proto_names_free(&ps.ix_named);
    proto_names_free(&ps.ix_invs);
    for (int i = 0; i < p->nctrls; i++) {
        proto_names_free(&ps.ix_vars[i]);
        if (ps.reach)
            free(ps.reach[i]);
    }
    free(ps.ix_vars);
    free(ps.reach);
    free(ps.over);
    free(ps.toks);
    if (ps.nsegs > 1) { /* a variant: remember which file each part came from */
        p->nfiles = ps.nsegs;
        p->files = xcalloc((size_t)ps.nsegs, sizeof *p->files);
        p->file_offs = xcalloc((size_t)ps.nsegs, sizeof *p->file_offs);
        for (int i = 0; i < ps.nsegs; i++) {
            p->files[i] = ps.segs[i].file;
            p->file_offs[i] = ps.segs[i].off;
        }
    } else {
        for (int i = 0; i < ps.nsegs; i++)
            free(ps.segs[i].file);
    }
    free(ps.segs);
    free(all);
    if (rc) {
        proto_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

int proto_parse_lib(const char *file, const char *src, size_t len, const char *const *lib,
                    proto_t **out, diag_t *err)
{
    return parse_lib(file, src, len, lib, false, out, err);
}

int proto_parse_timed(const char *file, const char *src, size_t len, const char *const *lib,
                      proto_t **out, diag_t *err)
{
    return parse_lib(file, src, len, lib, true, out, err);
}

int proto_load(const char *path, proto_t **out, diag_t *err)
{
    return proto_load_lib(path, NULL, out, err);
}

static int load(const char *path, const char *const *lib, bool keep_ghosts, proto_t **out,
                diag_t *err)
{
    char *data;
    size_t len;
    if (util_read_file(path, &data, &len)) {
        diag_set(err, path, 0, 0, "cannot read file");
        return -1;
    }
    int rc = parse_lib(path, data, len, lib, keep_ghosts, out, err);
    free(data);
    return rc;
}

int proto_load_lib(const char *path, const char *const *lib, proto_t **out, diag_t *err)
{
    return load(path, lib, false, out, err);
}

int proto_load_timed(const char *path, const char *const *lib, proto_t **out, diag_t *err)
{
    return load(path, lib, true, out, err);
}
