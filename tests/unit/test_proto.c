/* test_proto.c - unit tests for the protocol loader (checker/proto): the man
 * page's example (docs/protocol-language.md) loaded and its IR checked, a
 * feature tour of the rest of the language, map specificity, table counts,
 * parameter overrides, and exact FILE:LINE:COL errors for bad input. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/prog/prog.h"
#include "../../checker/proto/proto.h"

static proto_t *load_ok(const char *src)
{
    proto_t *p = NULL;
    diag_t d;
    int rc = proto_parse("t.proto", src, strlen(src), &p, &d);
    cr_assert_eq(rc, 0, "parse failed: %s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    return p;
}

/* Parse SRC expecting an error at LINE:COL whose message contains WHAT. */
static void load_bad(const char *src, int line, int col, const char *what)
{
    proto_t *p = NULL;
    diag_t d;
    int rc = proto_parse("t.proto", src, strlen(src), &p, &d);
    cr_assert_eq(rc, -1, "expected an error for:\n%s", src);
    cr_assert_null(p);
    cr_assert_str_eq(d.file, "t.proto");
    cr_expect_eq(d.line, line, "line %d != %d (%s)", d.line, line, d.msg);
    cr_expect_eq(d.col, col, "col %d != %d (%s)", d.col, col, d.msg);
    cr_expect(strstr(d.msg, what) != NULL, "message '%s' lacks '%s'", d.msg, what);
}

static int event_index(const proto_t *p, const char *name)
{
    for (int i = 0; i < p->nevents; i++)
        if (!strcmp(p->events[i].name, name))
            return i;
    return -1;
}

/* docs/protocol-language.md EXAMPLE as first written, with bare `map ld` / `map st`: kept because
 * it pins the rule that an absent order means plain (so ld.acq finds no map); the man page now
 * uses `ld.*`. */
static const char *nol1 =
    "protocol nol1 \"L1 disabled: every access goes to the L2 (TC §8 NO-L1)\"\n"
    "target sc\n"
    "\n"
    "network req  ordered\n"
    "network resp ordered\n"
    "\n"
    "message LOAD   on req  (tid: tid, loc: loc)\n"
    "message STORE  on req  (tid: tid, loc: loc, val: val)\n"
    "message ATOMIC on req  (tid: tid, loc: loc, op: int(0..2), val: val, exp: val)\n"
    "message VAL    on resp (tid: tid, val: val)\n"
    "message ACK    on resp (tid: tid)\n"
    "\n"
    "controller L1 per-cu {\n"
    "  stable I\n"
    "  (* state | event  | guard | actions                                              | next "
    "*)\n"
    "    I      | load   |       | send LOAD(tid=req.tid, loc=req.loc) to L2; wait      |\n"
    "    I      | store  |       | send STORE(tid=req.tid, loc=req.loc, val=req.val) to L2; "
    "wait |\n"
    "    I      | atomic |       | send ATOMIC(tid=req.tid, loc=req.loc, op=req.op, "
    "val=req.val, exp=req.exp) to L2; wait |\n"
    "    I      | VAL    |       | done(msg.tid, msg.val)                               |\n"
    "    I      | ACK    |       | done(msg.tid)                                        |\n"
    "    -      | fence  |       | done                                                 |\n"
    "}\n"
    "\n"
    "controller L2 shared {\n"
    "  stable V\n"
    "  line data: data = initial\n"
    "    V      | LOAD   |       | send VAL(tid=msg.tid, val=data[msg.loc]) to msg.src  |\n"
    "    V      | STORE  |       | data[msg.loc] := msg.val; send ACK(tid=msg.tid) to msg.src "
    "|\n"
    "    V      | ATOMIC |       | send VAL(tid=msg.tid, val=data[msg.loc]) to msg.src; "
    "data[msg.loc] := apply(msg.op, data[msg.loc], msg.val, msg.exp) |\n"
    "}\n"
    "\n"
    "core L1 {\n"
    "  outstanding 1\n"
    "  map ld    -> load\n"
    "  map st    -> store\n"
    "  map rmw   -> atomic\n"
    "  map cas   -> atomic\n"
    "  map fence -> fence\n"
    "}\n";

Test(proto, example_declarations)
{
    proto_t *p = load_ok(nol1);
    cr_assert_str_eq(p->name, "nol1");
    cr_assert_str_eq(p->desc, "L1 disabled: every access goes to the L2 (TC §8 NO-L1)");
    cr_assert_str_eq(p->target, "sc");
    cr_assert_eq(p->nparams, 0);
    cr_assert_eq(p->nnets, 2);
    cr_assert(p->nets[0].ordered);
    cr_assert_eq(p->nmsgs, 5);
    cr_assert_str_eq(p->msgs[2].name, "ATOMIC");
    cr_assert_eq(p->msgs[2].nfields, 5);
    cr_assert_eq(p->msgs[2].fields[2].type.kind, PROTO_T_INT);
    cr_assert_eq(p->msgs[2].fields[2].type.hi, 2);
    cr_assert_eq(p->msgs[3].net, 1);
    cr_assert_not(p->msgs[3].noline);
    /* messages first, then the core events in order of first use */
    cr_assert_eq(p->nevents, 9);
    for (int i = 0; i < 5; i++) {
        cr_assert_eq(p->events[i].kind, PROTO_EV_MSG);
        cr_assert_eq(p->events[i].msg, i);
        cr_assert(p->events[i].line);
    }
    const char *core[] = {"load", "store", "atomic", "fence"};
    for (int i = 0; i < 4; i++) {
        cr_assert_str_eq(p->events[5 + i].name, core[i]);
        cr_assert_eq(p->events[5 + i].kind, PROTO_EV_CORE);
        cr_assert_eq(p->events[5 + i].line, i < 3, "%s", core[i]);
    }
    cr_assert_eq(p->nctrls, 2);
    cr_assert(p->ctrls[0].per_cu);
    cr_assert_not(p->ctrls[1].per_cu);
    cr_assert_eq(p->core_ctrl, 0);
    cr_assert_eq(p->outstanding, 1);
    cr_assert_eq(p->ctrls[0].nstates, 1);
    cr_assert_eq(p->ctrls[0].init_state, 0);
    cr_assert_eq(p->ctrls[0].warm_state, -1);
    cr_assert_eq(p->ctrls[0].nrows, 6);
    cr_assert_eq(p->ctrls[1].nrows, 3);
    cr_assert_eq(p->ctrls[1].nlinevars, 1);
    cr_assert(p->ctrls[1].linevars[0].init_initial);
    cr_assert_eq(p->ctrls[1].linevars[0].type.kind, PROTO_T_DATA);
    cr_assert_eq(p->nmaps, 5);
    cr_assert_eq(p->ninvs, 0);
    cr_assert_eq(p->source_len, strlen(nol1));
    proto_free(p);
}

Test(proto, example_rows)
{
    proto_t *p = load_ok(nol1);
    const proto_ctrl_t *l1 = &p->ctrls[0], *l2 = &p->ctrls[1];
    const proto_row_t *r = &l1->rows[0];
    cr_assert_eq(r->event, event_index(p, "load"));
    cr_assert_eq(r->states, 1);
    cr_assert_null(r->guard);
    cr_assert_eq(r->kind, PROTO_ROW_NORMAL);
    cr_assert_eq(r->next, -1);
    cr_assert(r->has_wait);
    cr_assert_not(r->has_done);
    cr_assert_eq(r->line, 16);
    cr_assert_eq(r->col, 5);
    cr_assert_eq(r->nactions, 2);
    const proto_action_t *a = &r->actions[0];
    cr_assert_eq(a->kind, PROTO_A_SEND);
    cr_assert_eq(a->msg, 0);
    cr_assert_eq(a->dest, PROTO_DEST_SHARED);
    cr_assert_eq(a->dest_ctrl, 1);
    cr_assert_eq(a->fields[0]->kind, PROTO_E_REQF);
    cr_assert_eq(a->fields[0]->index, PROTO_REQ_TID);
    cr_assert_eq(a->fields[1]->index, PROTO_REQ_LOC);
    cr_assert_eq(a->fields[1]->type.kind, PROTO_T_LOC);
    cr_assert_eq(r->actions[1].kind, PROTO_A_WAIT);
    /* I | VAL | | done(msg.tid, msg.val) */
    r = &l1->rows[3];
    cr_assert_eq(r->event, 3);
    cr_assert(r->has_done);
    a = &r->actions[0];
    cr_assert_eq(a->kind, PROTO_A_DONE);
    cr_assert_eq(a->tid->kind, PROTO_E_MSGF);
    cr_assert_eq(a->tid->index, 0);
    cr_assert_eq(a->dval->kind, PROTO_E_MSGF);
    cr_assert_eq(a->dval->index, 1);
    cr_assert_eq(a->dval->type.kind, PROTO_T_VAL);
    /* I | ACK | | done(msg.tid): one argument in a message row is the thread */
    a = &l1->rows[4].actions[0];
    cr_assert_not_null(a->tid);
    cr_assert_null(a->dval);
    /* - | fence | | done */
    r = &l1->rows[5];
    cr_assert_eq(r->states, 0);
    cr_assert_eq(r->event, event_index(p, "fence"));
    cr_assert_null(r->actions[0].tid);
    cr_assert_null(r->actions[0].dval);
    /* V | ATOMIC | | send VAL(..., val=data[msg.loc]) to msg.src; data[msg.loc] := apply(...) */
    r = &l2->rows[2];
    cr_assert_eq(r->nactions, 2);
    a = &r->actions[0];
    cr_assert_eq(a->dest, PROTO_DEST_SRC);
    cr_assert_eq(a->fields[1]->kind, PROTO_E_INDEX);
    cr_assert_eq(a->fields[1]->a->kind, PROTO_E_LINEVAR);
    cr_assert_eq(a->fields[1]->b->kind, PROTO_E_MSGF);
    cr_assert_eq(a->fields[1]->b->index, 1);
    a = &r->actions[1];
    cr_assert_eq(a->kind, PROTO_A_ASSIGN);
    cr_assert(a->line_var);
    cr_assert_eq(a->var, 0);
    cr_assert_eq(a->index->kind, PROTO_E_MSGF);
    cr_assert_eq(a->value->kind, PROTO_E_APPLY);
    cr_assert_eq(a->value->a->index, 2); /* msg.op */
    cr_assert_eq(a->value->b->kind, PROTO_E_INDEX);
    cr_assert_eq(a->value->d->index, 4); /* msg.exp */
    cr_assert_eq(a->value->type.kind, PROTO_T_VAL);
    /* V | STORE: the send's unset fields stay NULL (ACK has one field, set) */
    a = &l2->rows[1].actions[1];
    cr_assert_eq(a->msg, 4);
    cr_assert_not_null(a->fields[0]);
    proto_free(p);
}

Test(proto, example_maps_and_counts)
{
    proto_t *p = load_ok(nol1);
    const proto_map_t *m = proto_find_map(p, PROG_OP_LD, PROG_ORD_PLAIN, PROG_SCOPE_NONE);
    cr_assert_not_null(m);
    cr_assert_eq(m->nevents, 1);
    cr_assert_eq(m->events[0], event_index(p, "load"));
    cr_assert_eq(m->ord, PROG_ORD_PLAIN);
    cr_assert_eq(m->scope, -1);
    /* 'map ld' and 'map st' are plain-only: acquire loads and release stores find none */
    cr_assert_null(proto_find_map(p, PROG_OP_LD, PROG_ORD_ACQ, PROG_SCOPE_AGENT));
    cr_assert_null(proto_find_map(p, PROG_OP_ST, PROG_ORD_REL, PROG_SCOPE_WG));
    /* rmw, cas and fence without an order match every order */
    m = proto_find_map(p, PROG_OP_FENCE, PROG_ORD_ACQREL, PROG_SCOPE_SYSTEM);
    cr_assert_not_null(m);
    cr_assert_eq(m->events[0], event_index(p, "fence"));
    cr_assert_eq(m->line, 38);
    m = proto_find_map(p, PROG_OP_CAS, PROG_ORD_SC, PROG_SCOPE_WG);
    cr_assert_not_null(m);
    cr_assert_eq(m->events[0], event_index(p, "atomic"));
    cr_assert_null(proto_find_map(p, PROG_OP_MOV, PROG_ORD_PLAIN, PROG_SCOPE_NONE));
    proto_count_t n;
    proto_count(p, 0, &n);
    cr_assert_eq(n.stable, 1);
    cr_assert_eq(n.transient, 0);
    cr_assert_eq(n.transitions, 6);
    proto_count(p, 1, &n);
    cr_assert_eq(n.stable, 1);
    cr_assert_eq(n.transitions, 3);
    proto_free(p);
}

static const char *maps_src = "protocol maps\n"
                              "controller C per-cu {\n"
                              "  stable I\n"
                              "  I | a, b, c, d, e, f | | done |\n"
                              "  - | g, h | | done |\n"
                              "}\n"
                              "core C {\n"
                              "  map ld -> a\n"
                              "  map ld.* -> b\n"
                              "  map ld.acq -> c\n"
                              "  map ld.acq.wg -> d\n"
                              "  map ld.*.agent -> e\n"
                              "  map st.rel.* -> f\n"
                              "  map st.*.wg -> a\n"
                              "  map fence -> g\n"
                              "  map fence.sc -> h, g\n"
                              "  map rmw.system -> a\n"
                              "}\n";

static const char *map_first(const proto_t *p, int op, int ord, int scope)
{
    const proto_map_t *m = proto_find_map(p, op, ord, scope);
    return m ? p->events[m->events[0]].name : NULL;
}

Test(proto, map_specificity)
{
    proto_t *p = load_ok(maps_src);
    cr_assert_str_eq(map_first(p, PROG_OP_LD, PROG_ORD_PLAIN, PROG_SCOPE_NONE), "a");
    cr_assert_str_eq(map_first(p, PROG_OP_LD, PROG_ORD_RLX, PROG_SCOPE_SYSTEM), "b");
    /* ld.acq and ld.*.agent both have one wildcard: the first in the file wins */
    cr_assert_str_eq(map_first(p, PROG_OP_LD, PROG_ORD_ACQ, PROG_SCOPE_AGENT), "c");
    cr_assert_str_eq(map_first(p, PROG_OP_LD, PROG_ORD_ACQ, PROG_SCOPE_WG), "d");
    cr_assert_str_eq(map_first(p, PROG_OP_LD, PROG_ORD_SC, PROG_SCOPE_AGENT), "e");
    cr_assert_str_eq(map_first(p, PROG_OP_ST, PROG_ORD_REL, PROG_SCOPE_WG), "f");
    cr_assert_str_eq(map_first(p, PROG_OP_ST, PROG_ORD_RLX, PROG_SCOPE_WG), "a");
    cr_assert_null(map_first(p, PROG_OP_ST, PROG_ORD_PLAIN, PROG_SCOPE_NONE));
    cr_assert_str_eq(map_first(p, PROG_OP_FENCE, PROG_ORD_ACQ, PROG_SCOPE_WG), "g");
    const proto_map_t *m = proto_find_map(p, PROG_OP_FENCE, PROG_ORD_SC, PROG_SCOPE_WG);
    cr_assert_eq(m->nevents, 2);
    cr_assert_str_eq(p->events[m->events[1]].name, "g");
    /* a pattern's second part may be a scope: rmw.system is rmw.*.system */
    cr_assert_str_eq(map_first(p, PROG_OP_RMW, PROG_ORD_ACQREL, PROG_SCOPE_SYSTEM), "a");
    cr_assert_null(map_first(p, PROG_OP_RMW, PROG_ORD_ACQREL, PROG_SCOPE_AGENT));
    cr_assert_null(map_first(p, PROG_OP_CAS, PROG_ORD_SC, PROG_SCOPE_SYSTEM));
    /* events of ld/st/rmw maps are line events; fence-only events are not */
    cr_assert(p->events[event_index(p, "a")].line);
    cr_assert_not(p->events[event_index(p, "h")].line);
    proto_count_t n;
    proto_count(p, 0, &n);
    cr_assert_eq(n.transitions, 8);
    proto_free(p);
}

static const char *feat =
    "protocol feat \"feature tour\"\n"                                              /* 1 */
    "target drf\n"                                                                  /* 2 */
    "param N = 2\n"                                                                 /* 3 */
    "network req ordered\n"                                                         /* 4 */
    "network fwd unordered\n"                                                       /* 5 */
    "message GetS on req (tid: tid, loc: loc)\n"                                    /* 6 */
    "message Fill on fwd (tid: tid, d: data, n: int(0..3))\n"                       /* 7 */
    "message Inv on fwd noline\n"                                                   /* 8 */
    "message Put on req (tid: tid, d: data)\n"                                      /* 9 */
    "\n"                                                                            /* 10 */
    "controller L1 per-cu {\n"                                                      /* 11 */
    "  stable I V\n"                                                                /* 12 */
    "  transient IV\n"                                                              /* 13 */
    "  init V\n"                                                                    /* 14 */
    "  warm V\n"                                                                    /* 15 */
    "  line data: data = initial\n"                                                 /* 16 */
    "  line hits: int(0..3) = N\n"                                                  /* 17 */
    "  var busy: bool = false\n"                                                    /* 18 */
    "  event evict line env\n"                                                      /* 19 */
    "  event drain\n"                                                               /* 20 */
    "  (* state | event | guard | actions | next *)\n"                              /* 21 */
    "    I     | load        |           | send GetS(tid=req.tid,\n"                /* 22 */
    "                                              loc=req.loc) to L2; wait | IV\n" /* 23 */
    "    V     | load        |           | done(data[req.loc]); hits := min(hits + 1, "
    "3) |\n"                                          /* 24 */
    "    IV    | load, store |           | stall |\n" /* 25 */
    "    I, V  | store       | !busy     | data[req.loc] := req.val; busy := true; done | "
    "V\n"                                                                       /* 26 */
    "    I, V  | store       |           | stall |\n"                           /* 27 */
    "    IV    | Fill        | msg.n > 0 | data := msg.d; done(msg.tid) | V\n"  /* 28 */
    "    IV    | Fill        |           | impossible |\n"                      /* 29 */
    "    V     | evict       |           | send Put(tid=0, d=data) to L2 | I\n" /* 30 */
    "    -     | Inv         |           | forall V IV -> I |\n"                /* 31 */
    "    -     | drain       | busy      | busy := false |\n"                   /* 32 */
    "    -     | acquire     |           | forall V -> I; done |\n"             /* 33 */
    "    -     | release     | busy      | |\n"                                 /* 34 */
    "    -     | release     |           | done |\n"                            /* 35 */
    "}\n"                                                                       /* 36 */
    "\n"                                                                        /* 37 */
    "controller L2 shared {\n"                                                  /* 38 */
    "  stable V\n"                                                              /* 39 */
    "    V | GetS | | send Fill(tid=msg.tid, d=mem, n=1) to msg.src; owner := msg.src "
    "|\n" /* 40 */
    "    V | Put  | count(L1, V IV) == 0 && line >= 0 | mem := msg.d; send Inv to all "
    "L1 |\n"                                         /* 41 */
    "  line mem: data = initial\n"                   /* 42 */
    "  var owner: node\n"                            /* 43 */
    "}\n"                                            /* 44 */
    "\n"                                             /* 45 */
    "core L1 {\n"                                    /* 46 */
    "  outstanding 2\n"                              /* 47 */
    "  map ld.* -> load\n"                           /* 48 */
    "  map st.* -> store\n"                          /* 49 */
    "  map fence.acq -> acquire\n"                   /* 50 */
    "  map fence.rel -> release\n"                   /* 51 */
    "}\n"                                            /* 52 */
    "invariant swmr: count(L1, V) <= N || N == 0\n"; /* 53 */

Test(proto, feature_tour)
{
    proto_t *p = load_ok(feat);
    cr_assert_str_eq(p->target, "drf");
    cr_assert_eq(p->outstanding, 2);
    cr_assert_eq(p->nparams, 1);
    cr_assert_eq(p->params[0].value, 2);
    cr_assert_eq(p->params[0].line, 3);
    cr_assert_not(p->nets[1].ordered);
    cr_assert(p->msgs[2].noline);
    cr_assert_not(p->events[2].line);
    cr_assert_eq(p->nevents, 10);
    const char *names[] = {"GetS",  "Fill", "Inv",   "Put",     "evict",
                           "drain", "load", "store", "acquire", "release"};
    proto_event_kind_t kinds[] = {PROTO_EV_MSG,  PROTO_EV_MSG,      PROTO_EV_MSG,  PROTO_EV_MSG,
                                  PROTO_EV_ENV,  PROTO_EV_INTERNAL, PROTO_EV_CORE, PROTO_EV_CORE,
                                  PROTO_EV_CORE, PROTO_EV_CORE};
    bool line[] = {true, true, false, true, true, false, true, true, false, false};
    for (int i = 0; i < 10; i++) {
        cr_assert_str_eq(p->events[i].name, names[i]);
        cr_assert_eq(p->events[i].kind, kinds[i], "%s", names[i]);
        cr_assert_eq(p->events[i].line, line[i], "%s", names[i]);
    }
    const proto_ctrl_t *l1 = &p->ctrls[0], *l2 = &p->ctrls[1];
    cr_assert_eq(l1->nstates, 3);
    cr_assert(l1->transient[2]);
    cr_assert_eq(l1->init_state, 1);
    cr_assert_eq(l1->warm_state, 1);
    cr_assert_eq(l1->nlinevars, 2);
    cr_assert_eq(l1->linevars[1].init->kind, PROTO_E_PARAM);
    cr_assert_eq(l1->linevars[1].type.hi, 3);
    cr_assert_eq(l1->ctrlvars[0].type.kind, PROTO_T_BOOL);
    cr_assert_eq(l1->ctrlvars[0].init->kind, PROTO_E_INT);
    cr_assert_eq(l1->ctrlvars[0].init->index, 0);
    /* 13 source rows, one with two events */
    cr_assert_eq(l1->nrows, 14);
    const proto_row_t *r = &l1->rows[0];
    cr_assert_eq(r->line, 22);
    cr_assert_eq(r->next, 2);
    cr_assert_eq(r->actions[0].fields[1]->line, 23);
    cr_assert_eq(l1->rows[2].kind, PROTO_ROW_STALL);
    cr_assert_eq(l1->rows[3].kind, PROTO_ROW_STALL);
    cr_assert_eq(l1->rows[2].event, 6);
    cr_assert_eq(l1->rows[3].event, 7);
    r = &l1->rows[4]; /* I, V | store | !busy | ... | V */
    cr_assert_eq(r->states, 3);
    cr_assert_eq(r->guard->kind, PROTO_E_NOT);
    cr_assert_eq(r->guard->a->kind, PROTO_E_CTRLVAR);
    cr_assert_eq(r->nactions, 3);
    cr_assert_eq(r->actions[1].kind, PROTO_A_ASSIGN);
    cr_assert_not(r->actions[1].line_var);
    cr_assert_eq(r->next, 1);
    r = &l1->rows[6]; /* IV | Fill | msg.n > 0 */
    cr_assert_eq(r->guard->kind, PROTO_E_BIN);
    cr_assert_eq(r->guard->op, '>');
    cr_assert_eq(r->guard->a->index, 2);
    cr_assert_eq(r->actions[0].value->kind, PROTO_E_MSGF);
    cr_assert_eq(r->actions[0].value->type.kind, PROTO_T_DATA);
    cr_assert_eq(l1->rows[7].kind, PROTO_ROW_IMPOSSIBLE);
    r = &l1->rows[9]; /* - | Inv | | forall V IV -> I */
    cr_assert_eq(r->states, 0);
    cr_assert_eq(r->actions[0].kind, PROTO_A_FORALL);
    cr_assert_eq(r->actions[0].from, 6);
    cr_assert_eq(r->actions[0].to, 0);
    r = &l1->rows[12]; /* - | release | busy | | : neither done nor wait */
    cr_assert_eq(r->nactions, 0);
    cr_assert_not(r->has_done);
    cr_assert_not(r->has_wait);
    /* L2: names declared after the rows that use them */
    r = &l2->rows[0];
    cr_assert_eq(r->actions[0].fields[1]->kind, PROTO_E_LINEVAR);
    cr_assert_eq(r->actions[0].fields[2]->index, 1);
    cr_assert_eq(r->actions[1].value->kind, PROTO_E_MSGSRC);
    cr_assert_eq(r->actions[1].var, 0);
    r = &l2->rows[1];
    const proto_expr_t *g = r->guard;
    cr_assert_eq(g->op, '&');
    cr_assert_eq(g->a->op, '=');
    cr_assert_eq(g->a->a->kind, PROTO_E_COUNT);
    cr_assert_eq(g->a->a->index, 0);
    cr_assert_eq(g->a->a->states, 6);
    cr_assert_eq(g->b->op, 'g');
    cr_assert_eq(g->b->a->kind, PROTO_E_LINE);
    cr_assert_eq(r->actions[1].dest, PROTO_DEST_ALL);
    cr_assert_eq(r->actions[1].dest_ctrl, 0);
    cr_assert_eq(p->ninvs, 1);
    cr_assert_str_eq(p->invs[0].name, "swmr");
    cr_assert_eq(p->invs[0].line, 53);
    cr_assert_eq(p->invs[0].expr->op, '|');
    cr_assert_eq(p->invs[0].expr->a->op, 'l');
    /* counts: stall and impossible rows are not transitions */
    proto_count_t n;
    proto_count(p, 0, &n);
    cr_assert_eq(n.stable, 2);
    cr_assert_eq(n.transient, 1);
    cr_assert_eq(n.transitions, 10);
    proto_count(p, 1, &n);
    cr_assert_eq(n.transitions, 2);
    cr_assert_null(proto_find_map(p, PROG_OP_FENCE, PROG_ORD_SC, PROG_SCOPE_WG));
    cr_assert_not_null(proto_find_map(p, PROG_OP_ST, PROG_ORD_PLAIN, PROG_SCOPE_NONE));
    proto_free(p);
}

Test(proto, dashed_names)
{
    proto_t *p = load_ok("protocol gpu-wt.v2 \"x\"\ntarget hrf-indirect\nparam a = 1\n");
    cr_assert_str_eq(p->name, "gpu-wt.v2");
    cr_assert_str_eq(p->target, "hrf-indirect");
    cr_assert_eq(p->nparams, 1);
    proto_free(p);
    load_bad("protocol gpu - wt\n", 1, 14, "expected a declaration");
    load_bad("protocol t\ntarget drf\ntarget sc\n", 3, 1, "'target' given twice");
}

Test(proto, param_override)
{
    proto_t *p = load_ok(feat);
    diag_t d;
    cr_assert_eq(proto_set_param(p, "N", 3, &d), 0);
    cr_assert_eq(p->params[0].value, 3);
    cr_assert_eq(proto_set_param(p, "M", 3, &d), -1);
    cr_assert(strstr(d.msg, "unknown param 'M'"));
    cr_assert_eq(p->params[0].value, 3);
    proto_free(p);
}

Test(proto, counts_multi_cell_rows)
{
    proto_t *p = load_ok("protocol c\n"
                         "message M on n\n"
                         "network n unordered\n"
                         "controller C per-cu {\n"
                         "  stable A B\n"
                         "  transient AB BA X\n"
                         "  A, B | e, f | | done |\n"
                         "  AB, BA | e, f | | stall |\n"
                         "  X | e | line == 0 | impossible |\n"
                         "  X | e | | done |\n"
                         "  A, AB | M | | |\n"
                         "  - | g | | done |\n"
                         "}\n"
                         "core C { map ld -> e map st -> f map fence -> g }\n");
    proto_count_t n;
    proto_count(p, 0, &n);
    cr_assert_eq(n.stable, 2);
    cr_assert_eq(n.transient, 3);
    cr_assert_eq(n.transitions, 4 + 1 + 2 + 1);
    cr_assert_eq(p->ctrls[0].nrows, 2 + 2 + 1 + 1 + 1 + 1); /* one row per event */
    proto_free(p);
}

Test(proto, load_missing_file)
{
    proto_t *p = NULL;
    diag_t d;
    cr_assert_eq(proto_load("/nonexistent/x.proto", &p, &d), -1);
    cr_assert_eq(d.line, 0);
    cr_assert_str_eq(d.file, "/nonexistent/x.proto");
}

/* A core controller C whose extra rows ROWS start at line 13; EXTRA is added
 * to the core section (at line 21 when ROWS is empty); AFTER follows the file. */
static char *build(const char *rows, const char *extra, const char *after)
{
    static const char *head = "protocol t\n"                                    /* 1 */
                              "param P = 1\n"                                   /* 2 */
                              "network n ordered\n"                             /* 3 */
                              "message M on n (tid: tid, loc: loc, val: val)\n" /* 4 */
                              "message Q on n noline\n"                         /* 5 */
                              "controller C per-cu {\n"                         /* 6 */
                              "  stable I S\n"                                  /* 7 */
                              "  transient IS\n"                                /* 8 */
                              "  line data: data = initial\n"                   /* 9 */
                              "  var k: int(0..3)\n"                            /* 10 */
                              "  I | load | k > 0 | wait | IS\n"                /* 11 */
                              "  - | fence | k > 0 | done |\n";                 /* 12 */
    static const char *mid = "}\n"
                             "controller D shared {\n"
                             "  stable V\n"
                             "  V | M | | send M(tid=msg.tid) to C[cu] |\n"
                             "}\n"
                             "core C {\n"
                             "  map ld -> load\n"
                             "  map fence -> fence\n";
    size_t n = strlen(head) + strlen(rows) + strlen(mid) + strlen(extra) + strlen(after) + 8;
    char *s = malloc(n);
    snprintf(s, n, "%s%s%s%s}\n%s", head, rows, mid, extra, after);
    return s;
}

static void bad(const char *rows, const char *extra, const char *after, int line, int col,
                const char *what)
{
    char *s = build(rows, extra, after);
    load_bad(s, line, col, what);
    free(s);
}

Test(proto, template_is_valid)
{
    char *s = build("  S | load | | done |\n", "", "");
    proto_t *p = load_ok(s);
    cr_assert_eq(p->ctrls[0].nrows, 3);
    proto_free(p);
    free(s);
}

Test(proto, function_names_are_free)
{
    char *s =
        build("  var count: int(0..3)\n"
              "  S | load | count < 3 && count(C, S IS) >= 0 | count := max(count, 1); done |\n",
              "", "");
    proto_t *p = load_ok(s);
    const proto_row_t *r = &p->ctrls[0].rows[2];
    cr_assert_eq(r->guard->a->a->kind, PROTO_E_CTRLVAR);
    cr_assert_eq(r->guard->a->a->index, 1);
    cr_assert_eq(r->guard->b->a->kind, PROTO_E_COUNT);
    cr_assert_eq(r->guard->b->a->states, 6);
    cr_assert_eq(r->actions[0].value->kind, PROTO_E_MAX);
    cr_assert_eq(r->actions[0].value->a->kind, PROTO_E_CTRLVAR);
    proto_free(p);
    free(s);
}

Test(proto, err_syntax)
{
    load_bad("network n ordered\n", 1, 1, "expected 'protocol'");
    load_bad("protocol t \"abc\n", 1, 12, "unterminated string");
    bad("  I | load | | wait | IS S\n", "", "", 13, 26, "expected end of row");
    bad("  I | load | | done @ |\n", "", "", 13, 21, "unexpected character '@'");
    bad("  (* oops\n", "", "", 13, 3, "unterminated comment");
    bad("  I | load | k > | done |\n", "", "", 13, 18, "expected an expression, found '|'");
    bad("  I | load | | done\n", "", "", 13, 20, "expected ';' or '|', found end of line");
    bad("  I | load | | stall; done |\n", "", "", 13, 16, "'stall' must be the only action");
    bad("  var big: int(0..9999999999)\n", "", "", 13, 19, "too large");
    bad("", "  map jmp -> load\n", "", 21, 7, "expected an operation");
    bad("", "  map ld.acq.acq -> load\n", "", 21, 14, "expected a scope");
}

Test(proto, err_nesting)
{
    char rows[1024];
    int n = snprintf(rows, sizeof rows, "  I | load | ");
    for (int i = 0; i < 250; i++)
        rows[n++] = '(';
    n += snprintf(rows + n, sizeof rows - (size_t)n, "k");
    for (int i = 0; i < 250; i++)
        rows[n++] = ')';
    snprintf(rows + n, sizeof rows - (size_t)n, " > 0 | done |\n");
    bad(rows, "", "", 13, 14 + 200, "nested too deeply");
    /* long operator chains count too */
    n = snprintf(rows, sizeof rows, "  I | load | ");
    for (int i = 0; i < 300; i++)
        n += snprintf(rows + n, sizeof rows - (size_t)n, "k+");
    snprintf(rows + n, sizeof rows - (size_t)n, "k > 0 | done |\n");
    bad(rows, "", "", 13, 14 + 2 * 199 + 1, "nested too deeply");
}

Test(proto, err_undeclared)
{
    bad("  X | load | | done |\n", "", "", 13, 3, "undeclared state 'X' in controller 'C'");
    bad("  I | M | | send Nope to D |\n", "", "", 13, 18, "undeclared message 'Nope'");
    bad("  I | M | | send M to Nope |\n", "", "", 13, 23, "'Nope' is not a controller");
    bad("  I | load | zz > 0 | done |\n", "", "", 13, 14, "undeclared variable 'zz'");
    bad("  I | M | | done(msg.foo) |\n", "", "", 13, 22, "message 'M' has no field 'foo'");
    bad("  I | M | | send M(foo=1) to D |\n", "", "", 13, 20, "message 'M' has no field 'foo'");
    bad("  I | nope | | done |\n", "", "", 13, 7, "undeclared event 'nope'");
    bad("  I | load | | done | Z\n", "", "", 13, 23, "undeclared state 'Z'");
    bad("  I | load | count(D, I) > 0 | done |\n", "", "", 13, 23,
        "'I' is not a state of controller 'D'");
    bad("  I | load | count(E, I) > 0 | done |\n", "", "", 13, 20, "undeclared controller 'E'");
    bad("", "", "invariant i1: Z > 0\n", 22, 15, "undeclared param 'Z'");
    bad("  I | load | req.foo == 0 | done |\n", "", "", 13, 18, "unknown request field 'foo'");
    load_bad("protocol t\nmessage M on nowhere\n", 2, 14, "undeclared network 'nowhere'");
    load_bad("protocol t\ncore X {\n}\n", 2, 6, "undeclared controller 'X'");
}

Test(proto, err_declarations)
{
    bad("  stable I2 I2\n", "", "", 13, 13, "state 'I2' declared twice");
    bad("  transient I\n", "", "", 13, 13, "both stable and transient");
    bad("  var self: int(0..1)\n", "", "", 13, 7, "reserved word");
    bad("  var v: bool = initial\n", "", "", 13, 17, "'v' is not data");
    bad("  var data: int(0..1)\n", "", "", 13, 7, "variable 'data' declared twice");
    bad("", "  map ld.plain -> load\n", "", 21, 7, "duplicate map");
    bad("", "  outstanding 0\n", "", 21, 15, "at least 1");
    load_bad("protocol t\nnetwork n ordered\ncontroller D shared {\n  stable V\n}\ncore D {\n}\n",
             6, 6, "core controller 'D' is not per-cu");
    load_bad("protocol t\ncontroller C per-cu {\n  stable I\n}\n", 5, 1, "missing 'core' section");
    load_bad("protocol t\ncontroller C shared {\n  transient T\n}\n", 2, 12,
             "declares no stable state");
    bad("  event M\n", "", "", 13, 9, "'M' is a message");
}

Test(proto, err_rows)
{
    bad("  S | load | | done |\n  S, I | load | | stall |\n", "", "", 14, 3,
        "unreachable row: the unguarded row at line 13 already handles (S, load)");
    bad("  - | fence | | done |\n  - | fence | | done |\n", "", "", 14, 3,
        "already handles (-, fence)");
    bad("  - | load | | done |\n", "", "", 13, 7, "'load' is a line event");
    bad("  I | fence | | done |\n", "", "", 13, 7, "'fence' is a controller-level event");
    bad("  - | fence | | done | I\n", "", "", 13, 24, "no line state to change");
    bad("  - | fence | data[0] == 0 | done |\n", "", "", 13, 15,
        "line variable 'data' used in a controller-level");
    bad("  - | fence | | send M to D; done |\n", "", "", 13, 22, "carries a line");
    bad("  I | load | | send M to C; wait |\n", "", "", 13, 26,
        "per-cu controller 'C' needs 'C[cu]'");
    bad("", "", "controller E shared {\n  stable V\n  V | load | | done |\n}\n", 24, 7,
        "core event 'load' is delivered only to the core controller 'C'");
    bad("", "  map st -> store\n", "", 21, 13, "no row of controller 'C' handles event 'store'");
    bad("  I | load, load | | done |\n", "", "", 13, 13, "listed twice");
    bad("  I | M | | msg.val := 1 |\n", "", "", 13, 13, "expected an action");
    char rows[4096];
    int n = snprintf(rows, sizeof rows, "  event e0");
    for (int i = 1; i < 70; i++)
        n += snprintf(rows + n, sizeof rows - (size_t)n, "\n  event e%d", i);
    n += snprintf(rows + n, sizeof rows - (size_t)n, "\n  - | e0");
    for (int i = 1; i < 70; i++)
        n += snprintf(rows + n, sizeof rows - (size_t)n, ", e%d", i);
    snprintf(rows + n, sizeof rows - (size_t)n, " | | |\n");
    bad(rows, "", "", 83, 317, "more than 64 events in one row"); /* at e64 */
}

Test(proto, err_done_wait_msg_req)
{
    bad("  event tick line\n  I | tick | | done |\n", "", "", 14, 16,
        "'done' outside a core-event or message row");
    bad("  I | M | | wait |\n", "", "", 13, 13, "'wait' outside a core-event row");
    bad("  I | M | | done |\n", "", "", 13, 13, "names the thread");
    bad("  S | load | | wait; done |\n", "", "", 13, 22, "'done' and 'wait' in one row");
    bad("  I | load | msg.tid > 0 | done |\n", "", "", 13, 14,
        "'msg' in a row for 'load', which is not a message");
    bad("  I | M | req.loc == msg.loc | done(msg.tid) |\n", "", "", 13, 11,
        "'req' in a row for 'M', which is not a core event");
    bad("  I | load | | send M to msg.src; wait |\n", "", "", 13, 26,
        "'msg.src' in a row for 'load'");
}

Test(proto, err_types)
{
    bad("  I | load | | done(data) |\n", "", "", 13, 21, "needs a value, found data");
    bad("  I | M | | data := msg.val |\n", "", "", 13, 21, "'data' is data");
    bad("  I | load | | k[req.loc] := 1; done |\n", "", "", 13, 16, "'k' is not data");
    bad("  I | load | | done(data[req.val]) |\n", "", "", 13, 26,
        "an index must be a location (loc), found val");
    bad("  I | load | data | done |\n", "", "", 13, 14, "a guard needs a value");
    bad("  I | load | | k := data + 1; done |\n", "", "", 13, 21, "operator '+' needs a value");
    bad("  I | M | | send M(loc=data) to D |\n", "", "", 13, 24, "field 'loc' of 'M'");
    bad("  I | load | | P := 1; done |\n", "", "", 13, 16, "cannot assign to param 'P'");
}

/* ---- timestamps, clocks, per-thread and dead variables (issue 4) ---- */

/* A minimal clocked protocol; BODY is spliced into the L1 controller. */
static char *timed(const char *body)
{
    static const char *fmt = "protocol t\n"
                             "clock now\n"
                             "param lease = 2\n"
                             "network n ordered\n"
                             "message G on n (tid: tid, loc: loc, ts: time)\n"
                             "controller L1 per-cu {\n"
                             "  stable I V\n"
                             "  transient coherent VM\n"
                             "  line ts: time = 0\n"
                             "  line who: node live V\n"
                             "  var g[tid]: time = -1\n"
                             "  var k: int(0..3) = 0\n"
                             "%s"
                             "}\n"
                             "core L1 {\n"
                             "  map ld.* -> load\n"
                             "}\n";
    size_t n = strlen(fmt) + strlen(body) + 1;
    char *s = malloc(n);
    snprintf(s, n, fmt, body);
    return s;
}

Test(proto, time_language_ok)
{
    char *src = timed("  I | load | ts >= now && g[req.tid] < now | g[req.tid] := max(g[req.tid], "
                      "now + lease); ts := now - 1; send G(tid=req.tid, loc=req.loc, ts=ts + 1) to "
                      "who; done(0) |\n"
                      "  V | load | | | I\n");
    proto_t *p = load_ok(src);
    cr_assert_str_eq(p->clock, "now");
    const proto_ctrl_t *c = &p->ctrls[0];
    cr_assert(c->ctrlvars[0].per_thread);
    cr_assert_eq(c->ctrlvars[0].type.kind, PROTO_T_TIME);
    cr_assert_eq(c->linevars[1].live, 1u << 1); /* live V */
    cr_assert(c->coherent[2] && c->transient[2]);
    proto_count_t n;
    proto_count(p, 0, &n);
    cr_assert_eq(n.coherent, 1);
    cr_assert_eq(n.transitions, 2);
    cr_assert_eq(n.branches, 2);
    cr_assert_eq(c->rows[0].actions[2].kind, PROTO_A_SEND);
    cr_assert_eq(c->rows[0].actions[2].dest, PROTO_DEST_NODE);
    cr_assert_eq(c->rows[1].nactions, 0); /* an empty action list */
    proto_free(p);
    free(src);
}

Test(proto, time_type_errors)
{
    struct {
        const char *row;
        int col;
        const char *what;
    } bad[] = {
        {"  I | load | ts == 1 | done(0) |\n", 17, "compares only with a time"},
        {"  I | load | | k := ts; done(0) |\n", 21, "needs a value, found a time"},
        {"  I | load | | ts := ts + ts; done(0) |\n", 25, "only 'time + constant'"},
        {"  I | load | | ts := ts + k; done(0) |\n", 25, "moves only by a constant"},
        {"  I | load | | done(ts) |\n", 21, "cannot take a time"},
        {"  I | load | ts | done(0) |\n", 14, "cannot take a time"},
        {"  I | load | g < now | done(0) |\n", 14, "per thread"},
        {"  I | load | | g[req.loc] := now; done(0) |\n", 18, "indexed by a tid"},
        {"  I | load | | send G(tid=req.tid, loc=req.loc, ts=now) to k; done(0) |\n", 60,
         "must be a controller or a node"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *src = timed(bad[i].row);
        load_bad(src, 13, bad[i].col, bad[i].what);
        free(src);
    }
}

Test(proto, time_decl_errors)
{
    load_bad("protocol t\nclock now\nclock later\n", 3, 1, "'clock' given twice");
    load_bad("protocol t\ncontroller C shared {\n  stable I\n  var v: time = 1 + 1\n}\n", 4, 17,
             "starts at an integer");
    load_bad("protocol t\ncontroller C shared {\n  stable I\n  line v: int(0..1) live Q\n}\n", 4,
             26, "undeclared state 'Q'");
    load_bad("protocol t\ncontroller C shared {\n  stable I\n  line v[tid]: time\n}\n", 4, 3,
             "only a controller variable");
    load_bad("protocol t\ncontroller C shared {\n  stable I\n}\npublished \"x\" D stable 1\n", 5,
             15, "undeclared controller 'D'");
}
