/* sys_por.c - stubborn sets by compute unit (see sys_por.h and docs/por.md); a CU
 * with its shared service (service()), a shared instance with its idle clients
 * (input(); an L2 that does not only reply too, where no cycle of receipts is
 * possible or the proviso is on: wide), and environment steps on other lines left
 * out (drop_env()).
 *
 * Footprints, from the tables. A step of group c (a CU's threads and per-cu
 * instances) reads and writes only group c's threads and instances, the heads
 * of channels into group c and the tails of channels out of it, provided that
 * (checked in sys_por_new): no row reads another instance (count), and every
 * done(tid) names a thread of the receiving CU (tidflow). Channels are point-to-point
 * (network, sender, receiver), so a channel has one sending and one receiving
 * instance. Appending at a tail and taking a head commute; the only ways a
 * step outside group c can affect group c are a new message in a channel into
 * group c (enabling a receive), a receive from a full bounded channel out of
 * group c (enabling a waiting send), and filling a channel into group c up to
 * the overflow limit. sys_por_select rules out all three at the state; a shared
 * instance that sends to computed nodes adds nothing to group c when its stored
 * destinations are sender-bound and do not name c (analyse_dests, view_named), and an
 * instance that sends to nodes carried in message fields adds only replies when no
 * value those destinations are built from names c (analyse_fields, view_fields). A
 * global clock's tick is in no set; a set qualifies only when its steps commute with
 * it and keep their guards under it (analyse_clock, tick_ok). */
#include "sys_por.h"

#include <stdlib.h>
#include <string.h>

#define NONE_BOUND 1000000 /* "a sender outside may send any number of messages" */

struct sys_por {
    sys_t *s;
    sys_topo_t tp;
    const proto_t *p;
    bool active;
    bool proviso; /* cycles of progress steps are possible: the explorer checks them */
    const char *why;
    int group[64];        /* per instance: its CU, or ncus + instance for a shared one */
    bool reply_only[64];  /* per instance: sends to other CUs' instances only to msg.src */
    int replies[64];      /* per instance: the most messages one row sends to msg.src */
    uint8_t *done, *clen; /* scratch: sys_por_view */
    int *egroup;          /* scratch: enabled transitions per group */
    uint8_t *msg_on;      /* scratch, per channel: 1 a receipt is enabled, 2 the head's is */
    int *pgroup;          /* scratch: enabled progress steps (core, message) per group */
    int cand[64], ncand;  /* the qualifying groups at the last state, best first */
    int candc[64]; /* ... with the channel a shared instance serves, or whose head is received
                      alone when the group is -2 (-1: none; -2 - I: instance I
                      with its idle clients) */
    int candn[64]; /* ... and their enabled transitions */
    /* Shared service (docs/por.md, "A compute unit with its shared service"): */
    bool *ro; /* per controller and message (nctrls * nmsgs): every row receiving it reads only */
    bool *reply;  /* per controller: every send of every row goes to msg.src */
    bool *wlead;  /* per event (messages first): it may lead to a write at a shared instance */
    bool env_w;   /* an enabled internal or environment event may lead to such a write */
    bool service; /* some shared controller only replies (the rule can apply) */
    bool wide;    /* input() may take a shared instance that does not only reply: no
                     cycle of receipts, or the proviso is on anyway (docs/por.md, "A shared
                     instance with its idle clients") */
    /* per thread and pc: lines its remaining instructions may write (bit 63: any) */
    uint64_t **fut;
    int16_t *pc;   /* scratch: sys_por_view_msgs: per thread its pc, */
    int16_t *msgs; /* ... per channel position the message's type and line */
    bool *inset;   /* scratch: the groups of a shared instance's set (input()) */
    /* Environment steps by line (docs/por.md, "Environment steps on other lines"): */
    uint8_t *evx;   /* per controller and event: EVX_ALL (a row may touch every line or a
                       controller variable), EVX_SEND (a row may send) */
    int *core_inst; /* per CU: its core controller's instance (-1: none) */
    /* A reply received alone (docs/por.md, "A reply received alone"): */
    uint8_t *fx;     /* per controller and event: its rows' footprint (FX_*) */
    uint8_t *fsends; /* ... the most messages one of its rows sends */
    bool *oneshot;   /* ... a sending line event fires at most once per line between two
                        receipts by its instance */
    bool *tloop;     /* per thread: it has a backward branch */
    bool *once;      /* per controller and event: an internal line event that fires at most
                        once per line while its instance receives nothing */
    /* Declared invariants (docs/por.md, "Declared invariants"): */
    bool *vis;     /* per controller and event: a row may change the value of an invariant's
                      count (moves a line across a counted state set); NULL: no invariants */
    uint8_t *wait; /* scratch: per thread, it waits for a reply */
    /* Sends to computed nodes (docs/por.md, "Sends to computed nodes"): */
    uint64_t *sb_lv, *sb_cv; /* per controller: its sender-bound line and controller variables */
    uint64_t *sb_init;       /* per controller: CUs a reset of such a variable may name */
    bool sendbound[64];      /* per instance: shared, every send to msg.src, a shared instance
                                or a sender-bound node or set (and not reply_only) */
    uint64_t named[64];      /* per such instance, at the state: the CUs it may send to unasked */
    bool any_sendbound;
    /* Destinations carried in message fields (docs/por.md, "Destinations carried in
       message fields"): */
    uint64_t *fb_lv, *fb_cv; /* per controller: node variables set only from field-sender
                                expressions (sender expressions, self, bound fields) */
    uint64_t *fb_msg;        /* per message: its fields set only from such expressions */
    bool *capt;              /* per controller: an action reads msg.src other than as a
                                reply's destination (it may store the sender) */
    bool fieldbound[64];     /* per instance: every send to msg.src, a shared instance, its
                                own CU or a field-sender expression, one to a computed node */
    bool any_fieldbound;
    const char *fwhy;    /* why no instance is field-bound */
    uint64_t *fch;       /* scratch per channel: the CUs its messages' bound fields name */
    uint64_t finst[64];  /* scratch per instance: the CUs its bound variables may name */
    uint64_t fnamed[64]; /* scratch per CU group: the CUs named outside it */
    /* A global clock (docs/por.md, "Global clocks"): */
    uint8_t *tk;     /* per controller, event and line state (64 each): TK_* of its rows */
    uint64_t *fresh; /* scratch: per instance, its unexpired times (sys_por_view_times) */
    int16_t *lstate; /* scratch: per instance and line, the line's state */
};

#define ANY_LINE 63
/* Footprint of a controller's rows for one event. */
#define FX_LINE 1  /* a row depends on, or changes, its line's state or variables */
#define FX_ALL 2   /* a row may touch every line (forall, a controller-level row) */
#define FX_CTRL 4  /* a row reads or writes a controller variable */
#define FX_SEND 8  /* a row sends */
#define FX_DONE 16 /* a row completes a thread's event */
#define FX_WAIT 32 /* a row makes a thread wait */
#define EVX_ALL 1
#define EVX_SEND 2
/* How a controller's rows for one event and line state relate to a clock tick. TK_G:
   a guard compares times of its own instance (or the clock); it keeps its value under
   a tick while those times are expired. TK_X: a row does not commute with a tick (an
   action reads `now` or adds a constant, a guard compares a message's time, or the
   row may bring a dead time to life). */
#define TK_G 1
#define TK_X 2

/* ---- static analysis ---- */

/* proto_expr_any predicate: E counts the instances of controller ARG >> 8 (which has
   ARG & 255 states) whose line is in some but not every state. A count over every
   state is the number of instances, a constant that reads no instance (docs/por.md,
   "Counts over other instances"). */
static bool is_partial_count(const proto_expr_t *e, int arg)
{
    int n = arg & 255;
    uint64_t all = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
    return e->kind == PROTO_E_COUNT && e->index == arg >> 8 && (e->states & all) != all;
}

/* Whether expression E (action A when E is NULL) reads other instances (a count over
   some states). The clock is a dependency of its own (analyse_clock). */
static bool reads_others(const proto_t *p, const proto_expr_t *e, const proto_action_t *a)
{
    for (int c = 0; c < p->nctrls; c++) {
        int arg = c << 8 | p->ctrls[c].nstates;
        if (a ? proto_action_any(p, a, is_partial_count, arg)
              : proto_expr_any(e, is_partial_count, arg))
            return true;
    }
    return false;
}

/* ---- a global clock (docs/por.md, "Global clocks") ----

   In the normal form every live time is relative to the clock and clamped at -1, so a
   tick maps each time v to max(v - 1, -1). A row commutes with it when its actions only
   copy times (assignments, message fields, max, min: clamping is monotone) and its
   guard reads no time, or reads only times of its own instance that are expired (-1:
   a tick leaves them, and the clock, as they are). */

static bool is_time(const proto_expr_t *e, int arg)
{
    (void)arg;
    return e->kind == PROTO_E_CLOCK || e->type.kind == PROTO_T_TIME ||
           ((e->kind == PROTO_E_BIN || e->kind == PROTO_E_MAX || e->kind == PROTO_E_MIN) &&
            ((e->a && e->a->type.kind == PROTO_T_TIME) ||
             (e->b && e->b->type.kind == PROTO_T_TIME)));
}

static bool is_msg_time(const proto_expr_t *e, int arg)
{
    (void)arg;
    return e->kind == PROTO_E_MSGF && e->type.kind == PROTO_T_TIME;
}

/* An action expression that does not commute with a tick: the clock itself, a constant
   added to or subtracted from a time, a negated time, a comparison of times. */
static bool is_tick_dep(const proto_expr_t *e, int arg)
{
    (void)arg;
    bool ta = e->a && e->a->type.kind == PROTO_T_TIME, tb = e->b && e->b->type.kind == PROTO_T_TIME;
    return e->kind == PROTO_E_CLOCK || (e->kind == PROTO_E_NEG && ta) ||
           (e->kind == PROTO_E_BIN && (ta || tb));
}

/* TK_* of one row of controller C. */
static uint8_t row_tick(const proto_t *p, int c, const proto_row_t *row)
{
    const proto_ctrl_t *pc = &p->ctrls[c];
    bool live_time = false; /* a time line variable with a 'live' clause */
    for (int v = 0; v < pc->nlinevars; v++)
        live_time |=
            pc->linevars[v].type.kind == PROTO_T_TIME && pc->linevars[v].live != ~(uint64_t)0;
    uint8_t f = 0;
    if (proto_expr_any(row->guard, is_time, 0))
        f |= proto_expr_any(row->guard, is_msg_time, 0) ? TK_X : TK_G;
    /* A dead time is not shifted (it holds its initial value): a row that moves a line
       may make it live, and then the order of the row and a tick matters. */
    if (live_time && row->next >= 0)
        f |= TK_X;
    for (int k = 0; k < row->nactions; k++) {
        const proto_action_t *a = &row->actions[k];
        if (proto_action_any(p, a, is_tick_dep, 0) || (live_time && a->kind == PROTO_A_FORALL))
            f |= TK_X;
    }
    return f;
}

static void analyse_clock(sys_por_t *por)
{
    const proto_t *p = por->p;
    int ne = p->nevents;
    por->tk = xcalloc_lines((size_t)p->nctrls * (size_t)ne * 64 + 1, 1);
    for (int c = 0; c < p->nctrls; c++)
        for (int r = 0; r < p->ctrls[c].nrows; r++) {
            const proto_row_t *row = &p->ctrls[c].rows[r];
            if (row->event < 0 || row->event >= ne)
                continue;
            uint8_t f = row_tick(p, c, row);
            for (int st = 0; st < 64; st++)
                if (!row->states || row->states >> st & 1)
                    por->tk[((size_t)c * ne + row->event) * 64 + st] |= f;
        }
}

static bool is_req_tid(const proto_expr_t *e)
{
    return e && e->kind == PROTO_E_REQF && e->index == PROTO_REQ_TID;
}

/* ---- which threads a done(tid) can complete (docs/por.md, "Threads completed by a
   message") ----

   A greatest fixpoint over the tables of four families of facts, each an invariant
   of every reachable state (induction over steps: no message is in flight and no
   variable assigned at the start, and each send or assignment is checked against
   the facts it relies on):
   - rcv(M, F, R): in every message M in flight to a per-cu instance of controller
     R, the tid field F names a thread of that instance's CU;
   - snd(M, F): in every message M in flight, F names a thread of the sender's CU
     (every sender is per-cu);
   - fpair(M, F, G): in every message M in flight, tid field F names a thread of the
     CU of the instance node field G names;
   - vpair(C, T, N): at every instance of C (on every line, for line variables), tid
     variable T names a thread of the CU of the instance node variable N names.
   A done(msg.F) at the core controller receiving M then completes a thread of the
   receiving CU when rcv(M, F, core). */

typedef struct {
    const proto_t *p;
    const sys_topo_t *tp;
    int *fbase;  /* per message: its first field's index in the flat field space */
    int nf;      /* fields of all messages */
    bool *rcv;   /* nf * nctrls */
    bool *snd;   /* nf */
    bool *fpair; /* nf * nf (only pairs of one message) */
    int *vbase;  /* per controller: its first variable (line variables, then controller) */
    int nv;      /* variables of all controllers */
    bool *vpair; /* nv * nv (only pairs of one controller) */
    bool *vhere; /* nv: line variable of a per-cu controller that, on a line in one of its
                    live states, names a thread of the instance's CU */
} tidflow_t;

/* The row's context: controller C, event E (a message, a core event, ...). */
typedef struct {
    const tidflow_t *tf;
    int c, e;
    const proto_row_t *row;
} tidrow_t;

static bool ev_is_msg(const tidrow_t *r)
{
    return r->e >= 0 && r->e < r->tf->p->nmsgs;
}

/* The flat index of variable expression V of the row's controller, or -1. */
static int tid_var(const tidrow_t *r, const proto_expr_t *v)
{
    if (!v || (v->kind != PROTO_E_LINEVAR && v->kind != PROTO_E_CTRLVAR))
        return -1;
    const proto_ctrl_t *pc = &r->tf->p->ctrls[r->c];
    return r->tf->vbase[r->c] + (v->kind == PROTO_E_LINEVAR ? v->index : pc->nlinevars + v->index);
}

/* V names a thread of the CU of the row's instance (a per-cu instance). */
static bool tid_here(const tidrow_t *r, const proto_expr_t *v)
{
    const tidflow_t *tf = r->tf;
    if (!v || !tf->p->ctrls[r->c].per_cu)
        return false;
    if (is_req_tid(v))
        return r->e >= tf->p->nmsgs && r->e < tf->p->nevents &&
               tf->p->events[r->e].kind == PROTO_EV_CORE;
    if (v->kind == PROTO_E_LINEVAR) {
        const proto_var_t *var = &tf->p->ctrls[r->c].linevars[v->index];
        return tf->vhere[tf->vbase[r->c] + v->index] && r->row && r->row->states &&
               !(r->row->states & ~var->live);
    }
    return v->kind == PROTO_E_MSGF && ev_is_msg(r) &&
           tf->rcv[(tf->fbase[r->e] + v->index) * tf->p->nctrls + r->c];
}

/* Tid expression V names a thread of the CU of the instance node expression N names. */
static bool tid_of_node(const tidrow_t *r, const proto_expr_t *v, const proto_expr_t *n)
{
    const tidflow_t *tf = r->tf;
    if (!v || !n)
        return false;
    if (n->kind == PROTO_E_SELF)
        return tid_here(r, v);
    if (n->kind == PROTO_E_MSGSRC)
        return ev_is_msg(r) && v->kind == PROTO_E_MSGF && tf->snd[tf->fbase[r->e] + v->index];
    if (n->kind == PROTO_E_MSGF)
        return ev_is_msg(r) && v->kind == PROTO_E_MSGF &&
               tf->fpair[(tf->fbase[r->e] + v->index) * tf->nf + tf->fbase[r->e] + n->index];
    int t = tid_var(r, v), nv = tid_var(r, n);
    return t >= 0 && nv >= 0 && tf->vpair[t * tf->nv + nv];
}

/* Send A (of the row) puts into field F a thread of each per-cu receiver's CU, for the
   receivers of controller RC. */
static bool tid_send_ok(const tidrow_t *r, const proto_action_t *a, int f, int rc)
{
    const proto_expr_t *v = a->fields ? a->fields[f] : NULL;
    switch (a->dest) {
    case PROTO_DEST_SHARED: return true; /* no per-cu receiver */
    case PROTO_DEST_SAMECU: return a->dest_ctrl != rc || tid_here(r, v);
    case PROTO_DEST_ALL:
    case PROTO_DEST_EACH: return a->dest_ctrl != rc;
    case PROTO_DEST_SRC: {
        proto_expr_t src = {.kind = PROTO_E_MSGSRC};
        return tid_of_node(r, v, &src);
    }
    case PROTO_DEST_NODE: return tid_of_node(r, v, a->dest_node);
    }
    return false;
}

/* proto_action_any predicate: E reads variable ARG (line variable ARG >= 0, controller
   variable -1 - ARG). */
static bool is_var(const proto_expr_t *e, int arg)
{
    return arg >= 0 ? e->kind == PROTO_E_LINEVAR && e->index == arg
                    : e->kind == PROTO_E_CTRLVAR && e->index == -1 - arg;
}

/* Variable X (flat) of controller C: its declaration and its is_var argument. */
static const proto_var_t *tid_var_decl(const tidflow_t *tf, int c, int x, int *arg)
{
    const proto_ctrl_t *pc = &tf->p->ctrls[c];
    int k = x - tf->vbase[c];
    *arg = k < pc->nlinevars ? k : -1 - (k - pc->nlinevars);
    return k < pc->nlinevars ? &pc->linevars[k] : &pc->ctrlvars[k - pc->nlinevars];
}

/* A constant initial value (none: 0), or -1. */
static int64_t const_init(const proto_var_t *v)
{
    if (!v->init)
        return 0;
    return v->init->kind == PROTO_E_INT ? v->init->index : -1;
}

/* vpair(C, T, N) holds of the initial values, and every row of C that assigns T or N
   assigns both, once each, from a coupled pair of message fields, msg.src or self
   (not from variables), with no action between the two assignments reading either. */
static bool vpair_ok(const tidflow_t *tf, int c, int t, int n)
{
    int at, an;
    const proto_var_t *vt = tid_var_decl(tf, c, t, &at), *vn = tid_var_decl(tf, c, n, &an);
    if (vt->type.kind != PROTO_T_TID || vn->type.kind != PROTO_T_NODE || vt->per_thread ||
        vn->per_thread || (at >= 0) != (an >= 0) || (at >= 0 && vt->live != vn->live))
        return false; /* a live reset must reset both together */
    int64_t t0 = const_init(vt), n0 = const_init(vn);
    if (t0 < 0 || n0 < 0 || t0 >= tf->tp->nthreads || n0 >= tf->tp->ninst ||
        tf->tp->inst_cu[n0] < 0 || tf->tp->thread_cu[t0] != tf->tp->inst_cu[n0])
        return false;
    const proto_ctrl_t *pc = &tf->p->ctrls[c];
    for (int ri = 0; ri < pc->nrows; ri++) {
        const proto_row_t *row = &pc->rows[ri];
        tidrow_t r = {tf, c, row->event, row};
        int kt = -1, kn = -1, nt = 0, nn = 0;
        for (int k = 0; k < row->nactions; k++) {
            const proto_action_t *a = &row->actions[k];
            if (a->kind != PROTO_A_ASSIGN || (a->line_var != (at >= 0)))
                continue;
            if (a->var == (at >= 0 ? at : -1 - at))
                kt = k, nt++;
            if (a->var == (an >= 0 ? an : -1 - an))
                kn = k, nn++;
        }
        if (!nt && !nn)
            continue;
        if (nt != 1 || nn != 1 || row->actions[kt].index || row->actions[kn].index)
            return false;
        const proto_expr_t *et = row->actions[kt].value, *en = row->actions[kn].value;
        if (tid_var(&r, et) >= 0 || tid_var(&r, en) >= 0 || !tid_of_node(&r, et, en))
            return false;
        int lo = kt < kn ? kt : kn, hi = kt < kn ? kn : kt;
        for (int k = lo + 1; k < hi; k++)
            if (proto_action_any(tf->p, &row->actions[k], is_var, at) ||
                proto_action_any(tf->p, &row->actions[k], is_var, an))
                return false;
    }
    return true;
}

/* Whether every send of message M in the tables keeps fact FACT (0: rcv(M, F, RC),
   1: snd(M, F), 2: fpair(M, F, G)). */
static bool sends_keep(const tidflow_t *tf, int fact, int m, int f, int g, int rc)
{
    const proto_t *p = tf->p;
    for (int c = 0; c < p->nctrls; c++)
        for (int ri = 0; ri < p->ctrls[c].nrows; ri++) {
            const proto_row_t *row = &p->ctrls[c].rows[ri];
            tidrow_t r = {tf, c, row->event, row};
            for (int k = 0; k < row->nactions; k++) {
                const proto_action_t *a = &row->actions[k];
                if (a->kind != PROTO_A_SEND || a->msg != m)
                    continue;
                const proto_expr_t *v = a->fields ? a->fields[f] : NULL;
                bool ok = fact == 0   ? tid_send_ok(&r, a, f, rc)
                          : fact == 1 ? tid_here(&r, v)
                                      : tid_of_node(&r, v, a->fields ? a->fields[g] : NULL);
                if (!ok)
                    return false;
            }
        }
    return true;
}

/* vhere(C, T): T is a line variable of per-cu controller C with live states L, no line
   starts in L (cold or warm), every row that may move a line into L from outside it
   assigns T, no forall does, and every assignment to T is a thread of the instance's
   CU (tid_here). Then on a line in L, T names a thread of the instance's CU. */
static bool vhere_ok(const tidflow_t *tf, int c, int t)
{
    const proto_ctrl_t *pc = &tf->p->ctrls[c];
    int k = t - tf->vbase[c];
    if (!pc->per_cu || k >= pc->nlinevars)
        return false;
    const proto_var_t *var = &pc->linevars[k];
    uint64_t all = pc->nstates >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << pc->nstates) - 1;
    uint64_t live = var->live & all;
    if (var->type.kind != PROTO_T_TID || var->per_thread || live == all ||
        (live >> pc->init_state & 1) || (pc->warm_state >= 0 && (live >> pc->warm_state & 1)))
        return false;
    for (int ri = 0; ri < pc->nrows; ri++) {
        const proto_row_t *row = &pc->rows[ri];
        tidrow_t r = {tf, c, row->event, row};
        bool assigns = false;
        for (int a = 0; a < row->nactions; a++) {
            const proto_action_t *ac = &row->actions[a];
            if (ac->kind == PROTO_A_FORALL && (live >> ac->to & 1) && (ac->from & ~live))
                return false;
            if (ac->kind != PROTO_A_ASSIGN || !ac->line_var || ac->var != k)
                continue;
            if (ac->index || !tid_here(&r, ac->value))
                return false;
            assigns = true;
        }
        uint64_t from = row->states ? row->states : all;
        if (row->kind == PROTO_ROW_NORMAL && row->next >= 0 && (live >> row->next & 1) &&
            (from & ~live) && !assigns)
            return false;
    }
    return true;
}

/* One pass over the facts still held: drop those a send or assignment breaks. */
static bool tidflow_pass(tidflow_t *tf)
{
    const proto_t *p = tf->p;
    bool changed = false;
    for (int m = 0; m < p->nmsgs; m++)
        for (int f = 0; f < p->msgs[m].nfields; f++) {
            int x = tf->fbase[m] + f;
            if (tf->snd[x] && !sends_keep(tf, 1, m, f, 0, 0))
                tf->snd[x] = false, changed = true;
            for (int rc = 0; rc < p->nctrls; rc++)
                if (tf->rcv[x * p->nctrls + rc] && p->ctrls[rc].per_cu &&
                    !sends_keep(tf, 0, m, f, 0, rc))
                    tf->rcv[x * p->nctrls + rc] = false, changed = true;
            for (int g = 0; g < p->msgs[m].nfields; g++)
                if (tf->fpair[x * tf->nf + tf->fbase[m] + g] && !sends_keep(tf, 2, m, f, g, 0))
                    tf->fpair[x * tf->nf + tf->fbase[m] + g] = false, changed = true;
        }
    for (int c = 0; c < p->nctrls; c++) {
        int nvars = p->ctrls[c].nlinevars + p->ctrls[c].nctrlvars;
        for (int t = tf->vbase[c]; t < tf->vbase[c] + nvars; t++) {
            for (int n = tf->vbase[c]; n < tf->vbase[c] + nvars; n++)
                if (tf->vpair[t * tf->nv + n] && !vpair_ok(tf, c, t, n))
                    tf->vpair[t * tf->nv + n] = false, changed = true;
            if (tf->vhere[t] && !vhere_ok(tf, c, t))
                tf->vhere[t] = false, changed = true;
        }
    }
    return changed;
}

/* The greatest fixpoint: start from every fact of the right types, drop until none
   breaks. The caller frees it with tidflow_free. */
static void tidflow(tidflow_t *tf, const proto_t *p, const sys_topo_t *tp)
{
    *tf = (tidflow_t){.p = p, .tp = tp};
    tf->fbase = xcalloc((size_t)p->nmsgs + 1, sizeof(int));
    for (int m = 0; m < p->nmsgs; m++)
        tf->fbase[m] = tf->nf, tf->nf += p->msgs[m].nfields;
    tf->vbase = xcalloc((size_t)p->nctrls + 1, sizeof(int));
    for (int c = 0; c < p->nctrls; c++)
        tf->vbase[c] = tf->nv, tf->nv += p->ctrls[c].nlinevars + p->ctrls[c].nctrlvars;
    size_t nf = (size_t)tf->nf + 1, nv = (size_t)tf->nv + 1;
    tf->rcv = xcalloc(nf * (size_t)p->nctrls, sizeof(bool));
    tf->snd = xcalloc(nf, sizeof(bool));
    tf->fpair = xcalloc(nf * nf, sizeof(bool));
    tf->vpair = xcalloc(nv * nv, sizeof(bool));
    tf->vhere = xcalloc(nv, sizeof(bool));
    for (int m = 0; m < p->nmsgs; m++)
        for (int f = 0; f < p->msgs[m].nfields; f++) {
            if (p->msgs[m].fields[f].type.kind != PROTO_T_TID)
                continue;
            int x = tf->fbase[m] + f;
            tf->snd[x] = true;
            for (int rc = 0; rc < p->nctrls; rc++)
                tf->rcv[x * p->nctrls + rc] = true;
            for (int g = 0; g < p->msgs[m].nfields; g++)
                tf->fpair[x * tf->nf + tf->fbase[m] + g] =
                    p->msgs[m].fields[g].type.kind == PROTO_T_NODE;
        }
    for (int c = 0; c < p->nctrls; c++) {
        int nvars = p->ctrls[c].nlinevars + p->ctrls[c].nctrlvars;
        for (int t = tf->vbase[c]; t < tf->vbase[c] + nvars; t++) {
            for (int n = tf->vbase[c]; n < tf->vbase[c] + nvars; n++)
                tf->vpair[t * tf->nv + n] = true; /* vpair_ok checks the types */
            tf->vhere[t] = true;                  /* vhere_ok too */
        }
    }
    while (tidflow_pass(tf))
        ;
}

static void tidflow_free(tidflow_t *tf)
{
    free(tf->fbase);
    free(tf->vbase);
    free(tf->rcv);
    free(tf->snd);
    free(tf->fpair);
    free(tf->vpair);
    free(tf->vhere);
}

static bool is_ctrl(const proto_expr_t *e, int arg)
{
    (void)arg;
    return e->kind == PROTO_E_CTRLVAR || e->kind == PROTO_E_TELEM;
}

static bool expr_reads_ctrl(const proto_expr_t *e)
{
    return proto_expr_any(e, is_ctrl, 0);
}

/* Whether action A reads a controller variable (in any of its expressions). */
static bool action_reads_ctrl(const proto_t *p, const proto_action_t *a)
{
    return proto_action_any(p, a, is_ctrl, 0);
}

/* A row that changes nothing at its instance: no next state, no assignment, no done,
 * no wait, sends only to msg.src, and reads no controller variable (only its line's
 * state and the message). Stall and impossible rows change nothing either. */
static bool row_reads_only(const proto_t *p, const proto_row_t *row)
{
    if (row->kind != PROTO_ROW_NORMAL)
        return true;
    if (row->next >= 0 || row->has_done || row->has_wait || expr_reads_ctrl(row->guard))
        return false;
    for (int k = 0; k < row->nactions; k++) {
        const proto_action_t *a = &row->actions[k];
        if (a->kind != PROTO_A_SEND || a->dest != PROTO_DEST_SRC || action_reads_ctrl(p, a))
            return false;
    }
    return true;
}

static bool leads_to_write(void *ctx, int ev)
{
    return ((const bool *)ctx)[ev];
}

/* The shared-service analysis: which messages shared controllers only read, which
 * events may lead to a write at a shared instance, and per thread and pc the lines
 * its remaining instructions may write there. */
static void analyse_service(sys_por_t *por)
{
    const proto_t *p = por->p;
    const sys_topo_t *tp = &por->tp;
    por->ro = xcalloc((size_t)p->nctrls * (size_t)p->nmsgs + 1, sizeof(bool));
    por->reply = xcalloc((size_t)p->nctrls + 1, sizeof(bool));
    por->wlead = xcalloc((size_t)p->nevents + 1, sizeof(bool));
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        por->reply[c] = true;
        for (int m = 0; m < p->nmsgs; m++)
            por->ro[c * p->nmsgs + m] = true;
        for (int r = 0; r < pc->nrows; r++) {
            const proto_row_t *row = &pc->rows[r];
            for (int k = 0; k < row->nactions; k++)
                if (row->actions[k].kind == PROTO_A_SEND && row->actions[k].dest != PROTO_DEST_SRC)
                    por->reply[c] = false;
            bool ro = row_reads_only(p, row);
            if (row->event >= 0 && row->event < p->nmsgs && !ro)
                por->ro[c * p->nmsgs + row->event] = false;
            if (!pc->per_cu && !ro && row->event >= 0 && row->event < p->nevents)
                por->wlead[row->event] = true; /* it writes a shared instance */
        }
    }
    /* Events whose rows send a message that may lead to a write, to a fixpoint. */
    for (bool more = true; more;) {
        more = false;
        for (int c = 0; c < p->nctrls; c++)
            for (int r = 0; r < p->ctrls[c].nrows; r++) {
                const proto_row_t *row = &p->ctrls[c].rows[r];
                if (row->event < 0 || row->event >= p->nevents || por->wlead[row->event])
                    continue;
                for (int k = 0; k < row->nactions; k++)
                    if (row->actions[k].kind == PROTO_A_SEND && por->wlead[row->actions[k].msg]) {
                        por->wlead[row->event] = more = true;
                        break;
                    }
            }
    }
    for (int e = p->nmsgs; e < p->nevents; e++)
        if ((p->events[e].kind == PROTO_EV_INTERNAL || p->events[e].kind == PROTO_EV_ENV) &&
            por->wlead[e] && sys_event_on(por->s, e))
            por->env_w = true;
    /* Per thread: the lines instructions from each pc on may write. */
    por->fut = xcalloc((size_t)tp->nthreads + 1, sizeof *por->fut);
    for (int t = 0; t < tp->nthreads; t++)
        por->fut[t] = sys_future_lines(por->s, t, leads_to_write, por->wlead);
}

/* Whether ROW may touch more than its line: a forall, a controller variable read or
 * written. */
static bool row_touches_all(const proto_row_t *row, const proto_t *p)
{
    if (expr_reads_ctrl(row->guard))
        return true;
    for (int k = 0; k < row->nactions; k++) {
        const proto_action_t *a = &row->actions[k];
        if (a->kind == PROTO_A_FORALL || (a->kind == PROTO_A_ASSIGN && !a->line_var) ||
            action_reads_ctrl(p, a))
            return true;
    }
    return false;
}

/* Per controller and event: may a row touch every line (forall, a controller variable,
 * a controller-level event), may it send. Per CU: its core controller's instance. */
static void analyse_lines(sys_por_t *por)
{
    const proto_t *p = por->p;
    const sys_topo_t *tp = &por->tp;
    por->evx = xcalloc((size_t)p->nctrls * (size_t)p->nevents + 1, 1);
    for (int c = 0; c < p->nctrls; c++) {
        for (int e = p->nmsgs; e < p->nevents; e++)
            if (!p->events[e].line)
                por->evx[c * p->nevents + e] |= EVX_ALL;
        for (int r = 0; r < p->ctrls[c].nrows; r++) {
            const proto_row_t *row = &p->ctrls[c].rows[r];
            if (row->event < 0 || row->event >= p->nevents)
                continue;
            uint8_t *x = &por->evx[c * p->nevents + row->event];
            if (!row->states || row_touches_all(row, p))
                *x |= EVX_ALL;
            for (int k = 0; k < row->nactions; k++)
                if (row->actions[k].kind == PROTO_A_SEND)
                    *x |= EVX_SEND;
        }
    }
    por->core_inst = xcalloc((size_t)tp->ncus + 1, sizeof(int));
    for (int k = 0; k < tp->ncus; k++)
        por->core_inst[k] = -1;
    for (int i = 0; i < tp->ninst; i++)
        if (tp->inst_cu[i] >= 0 && tp->inst_cu[i] < tp->ncus && tp->inst_ctrl[i] == p->core_ctrl)
            por->core_inst[tp->inst_cu[i]] = i;
}

static bool is_line(const proto_expr_t *e, int arg)
{
    (void)arg;
    return e->kind == PROTO_E_LINEVAR;
}

/* The footprint of controller C's rows for event E (FX_*). A line event whose rows
 * are one unguarded row naming every state, with no next state, no line variable
 * read or written, neither reads nor changes its line. An event with no row is
 * given every flag. */
static uint8_t row_footprint(const proto_t *p, int c, int e, uint8_t *maxsends)
{
    const proto_ctrl_t *pc = &p->ctrls[c];
    uint64_t all = pc->nstates >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << pc->nstates) - 1;
    uint8_t f = e >= p->nmsgs && !p->events[e].line ? FX_ALL : 0;
    int nrows = 0;
    *maxsends = 0;
    for (int r = 0; r < pc->nrows; r++) {
        const proto_row_t *row = &pc->rows[r];
        if (row->event != e)
            continue;
        nrows++;
        if (row->kind != PROTO_ROW_NORMAL || row->states != all || row->guard || row->next >= 0)
            f |= FX_LINE;
        if (!row->states)
            f |= FX_ALL;
        if (expr_reads_ctrl(row->guard))
            f |= FX_CTRL;
        if (row->has_done)
            f |= FX_DONE;
        if (row->has_wait)
            f |= FX_WAIT;
        uint8_t sends = 0;
        for (int k = 0; k < row->nactions; k++) {
            const proto_action_t *a = &row->actions[k];
            if (a->kind == PROTO_A_ASSIGN)
                f |= a->line_var ? FX_LINE : FX_CTRL;
            if (a->kind == PROTO_A_FORALL)
                f |= FX_ALL;
            if (a->kind == PROTO_A_SEND) {
                f |= FX_SEND;
                sends++;
            }
            if (action_reads_ctrl(p, a))
                f |= FX_CTRL;
            if (proto_action_any(p, a, is_line, 0))
                f |= FX_LINE;
        }
        if (sends > *maxsends)
            *maxsends = sends;
    }
    if (nrows > 1)
        f |= FX_LINE;
    return nrows ? f : 0xff;
}

/* Whether line event E of controller C, where it sends (with ALL: wherever it fires),
 * fires at most once per line while its instance receives nothing: every such row
 * moves the line to a state from which no row of a non-message event (nor a forall
 * of one) leads back to a state where E sends (fires). */
static bool one_shot(const proto_t *p, int c, int e, bool all)
{
    const proto_ctrl_t *pc = &p->ctrls[c];
    uint64_t from = 0, reach = 0;
    for (int r = 0; r < pc->nrows; r++) {
        const proto_row_t *row = &pc->rows[r];
        bool sends = all;
        for (int k = 0; k < row->nactions; k++)
            sends |= row->actions[k].kind == PROTO_A_SEND;
        if (row->event != e || row->kind != PROTO_ROW_NORMAL || !sends)
            continue;
        if (!row->states || row->next < 0)
            return false;
        from |= row->states;
        reach |= (uint64_t)1 << row->next;
    }
    for (bool more = true; more;) {
        more = false;
        for (int r = 0; r < pc->nrows; r++) {
            const proto_row_t *row = &pc->rows[r];
            if (row->event < p->nmsgs || row->kind != PROTO_ROW_NORMAL)
                continue;
            uint64_t add = 0;
            if ((row->states & reach) && row->next >= 0)
                add |= (uint64_t)1 << row->next;
            for (int k = 0; k < row->nactions; k++)
                if (row->actions[k].kind == PROTO_A_FORALL && (row->actions[k].from & reach))
                    add |= (uint64_t)1 << row->actions[k].to;
            if (add & ~reach) {
                reach |= add;
                more = true;
            }
        }
    }
    return !(reach & from);
}

/* Footprints per controller and event, the one-shot sending events, and the threads
 * that loop. */
static void analyse_receipts(sys_por_t *por)
{
    const proto_t *p = por->p;
    size_t n = (size_t)p->nctrls * (size_t)p->nevents + 1;
    por->fx = xcalloc(n, 1);
    por->fsends = xcalloc(n, 1);
    por->oneshot = xcalloc(n, sizeof(bool));
    por->once = xcalloc(n, sizeof(bool));
    for (int c = 0; c < p->nctrls; c++)
        for (int e = 0; e < p->nevents; e++) {
            size_t k = (size_t)c * (size_t)p->nevents + (size_t)e;
            por->fx[k] = row_footprint(p, c, e, &por->fsends[k]);
            por->oneshot[k] = e >= p->nmsgs && p->events[e].line && one_shot(p, c, e, false);
            por->once[k] = e >= p->nmsgs && p->events[e].line &&
                           p->events[e].kind == PROTO_EV_INTERNAL && one_shot(p, c, e, true);
        }
    const prog_t *prog = por->tp.prog;
    por->tloop = xcalloc((size_t)por->tp.nthreads + 1, sizeof(bool));
    for (int t = 0; t < por->tp.nthreads; t++)
        for (int i = 0; i < prog->threads[t].ninstr; i++) {
            const prog_instr_t *in = &prog->threads[t].instr[i];
            if (prog_is_branch(in) && in->target <= i)
                por->tloop[t] = true;
        }
}

/* Every done(tid) completes a thread of the receiving CU: a done(T) is accepted only
   at the core controller, with T a thread of its CU (tid_here: a message field with
   rcv(M, F, core), or a line variable with vhere read in its live states). */
static bool dones_local(const sys_por_t *por)
{
    const proto_t *p = por->p;
    tidflow_t tf;
    tidflow(&tf, p, &por->tp);
    bool ok = true;
    for (int c = 0; c < p->nctrls && ok; c++)
        for (int r = 0; r < p->ctrls[c].nrows && ok; r++) {
            const proto_row_t *row = &p->ctrls[c].rows[r];
            tidrow_t tr = {&tf, c, row->event, row};
            for (int k = 0; k < row->nactions && ok; k++) {
                const proto_action_t *a = &row->actions[k];
                if (a->kind == PROTO_A_DONE && a->tid)
                    ok = c == p->core_ctrl && tid_here(&tr, a->tid);
            }
        }
    tidflow_free(&tf);
    return ok;
}

/* proto_expr_any predicate: E is something an invariant may read that the visibility
   analysis does not cover (only constants, parameters, arithmetic, comparisons and
   count over line states are covered). */
static bool inv_uncovered(const proto_expr_t *e, int arg)
{
    (void)arg;
    switch (e->kind) {
    case PROTO_E_INT:
    case PROTO_E_PARAM:
    case PROTO_E_NOT:
    case PROTO_E_NEG:
    case PROTO_E_BIN:
    case PROTO_E_MAX:
    case PROTO_E_MIN:
    case PROTO_E_COUNT: return false;
    default: return true;
    }
}

/* The state sets an invariant counts one controller's lines over. */
typedef struct {
    uint64_t masks[16];
    int n;
} inv_masks_t;

/* Collect the state sets controller C's lines are counted over in E (at most 16;
   -1 when more). */
static int inv_masks(const proto_expr_t *e, int c, inv_masks_t *m)
{
    if (!e)
        return 0;
    if (e->kind == PROTO_E_COUNT && e->index == c) {
        if (m->n == 16)
            return -1;
        m->masks[m->n++] = e->states;
    }
    if (inv_masks(e->a, c, m) || inv_masks(e->b, c, m) || inv_masks(e->c, c, m) ||
        inv_masks(e->d, c, m))
        return -1;
    return 0;
}

/* Whether moving a line from a state in FROM to state TO may change whether it is in
   one of the sets M counts over. */
static bool crosses(const inv_masks_t *m, uint64_t from, int to)
{
    for (int k = 0; k < m->n; k++) {
        bool in_to = m->masks[k] >> to & 1;
        uint64_t changed = in_to ? from & ~m->masks[k] : from & m->masks[k];
        if (changed)
            return true;
    }
    return false;
}

/* Visible events: per controller and event, whether a row may move a line across a
   set an invariant counts (its next state, or a forall). NULL with *WHY when an
   invariant reads more than counts of line states. */
static const char *analyse_invariants(sys_por_t *por)
{
    const proto_t *p = por->p;
    for (int k = 0; k < p->ninvs; k++)
        if (proto_expr_any(p->invs[k].expr, inv_uncovered, 0))
            return "an invariant reads more than counts of line states";
    por->vis = xcalloc((size_t)p->nctrls * (size_t)p->nevents + 1, sizeof(bool));
    for (int c = 0; c < p->nctrls; c++) {
        inv_masks_t m = {.n = 0};
        for (int k = 0; k < p->ninvs; k++)
            if (inv_masks(p->invs[k].expr, c, &m))
                return "an invariant counts one controller over more than 16 state sets";
        if (!m.n)
            continue;
        uint64_t all =
            p->ctrls[c].nstates >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << p->ctrls[c].nstates) - 1;
        for (int r = 0; r < p->ctrls[c].nrows; r++) {
            const proto_row_t *row = &p->ctrls[c].rows[r];
            if (row->event < 0 || row->event >= p->nevents || row->kind != PROTO_ROW_NORMAL)
                continue;
            bool v = row->next >= 0 && crosses(&m, row->states ? row->states : all, row->next);
            for (int a = 0; a < row->nactions; a++)
                if (row->actions[a].kind == PROTO_A_FORALL &&
                    crosses(&m, row->actions[a].from, row->actions[a].to))
                    v = true;
            if (v)
                por->vis[c * p->nevents + row->event] = true;
        }
    }
    return NULL;
}

/* Whether E's value, a node or a nodeset, names only instances that sent a message to
 * this controller or that sender-bound variables (bits of LV, CV) name: msg.src, none,
 * such a variable, a set with such an element added, or any element removed. */
static bool sender_expr(const proto_expr_t *e, uint64_t lv, uint64_t cv)
{
    if (!e)
        return false;
    switch (e->kind) {
    case PROTO_E_MSGSRC:
    case PROTO_E_NONE: return true;
    case PROTO_E_LINEVAR: return e->index < 64 && (lv >> e->index & 1);
    case PROTO_E_CTRLVAR: return e->index < 64 && (cv >> e->index & 1);
    case PROTO_E_SETOP:
        return sender_expr(e->a, lv, cv) && (e->op == '-' || sender_expr(e->b, lv, cv));
    default: return false;
    }
}

static bool is_node_type(const proto_var_t *v)
{
    return !v->per_thread && (v->type.kind == PROTO_T_NODE || v->type.kind == PROTO_T_NODESET);
}

/* Whether line variable F is set only together with line variable V: a bool, reset
 * whenever V is (its live states are among V's), initially false, and every
 * assignment of F is false or sits in a row that assigns V. Then F true means V was
 * assigned since its last reset. */
static bool flag_covers(const proto_ctrl_t *pc, int f, int v)
{
    const proto_var_t *fv = &pc->linevars[f];
    if (f == v || fv->type.kind != PROTO_T_BOOL || fv->per_thread ||
        (fv->live & ~pc->linevars[v].live) ||
        (fv->init && !(fv->init->kind == PROTO_E_INT && fv->init->index == 0)))
        return false;
    for (int r = 0; r < pc->nrows; r++) {
        const proto_row_t *row = &pc->rows[r];
        bool sets_f = false, sets_v = false;
        for (int k = 0; k < row->nactions; k++) {
            const proto_action_t *a = &row->actions[k];
            if (a->kind != PROTO_A_ASSIGN || !a->line_var)
                continue;
            sets_v |= a->var == v;
            if (a->var == f && !(a->value && a->value->kind == PROTO_E_INT && a->value->index == 0))
                sets_f = true;
        }
        if (sets_f && !sets_v)
            return false;
    }
    return true;
}

/* Whether guard G holds only when a flag covering line variable V is set. */
static bool guard_covers(const proto_ctrl_t *pc, const proto_expr_t *g, int v)
{
    if (!g)
        return false;
    if (g->kind == PROTO_E_BIN && g->op == '&')
        return guard_covers(pc, g->a, v) || guard_covers(pc, g->b, v);
    return g->kind == PROTO_E_LINEVAR && g->index < pc->nlinevars && flag_covers(pc, g->index, v);
}

/* Whether a row of controller C may read line variable V's reset value: the states
 * where V may hold it (outside its live states, and those a row reaches from one of
 * them without assigning V, or a forall moves a line to) meet the row's states, the row
 * reads V in an action, and its guard does not need a flag that covers V. */
static bool reads_reset(const proto_t *p, int c, int v)
{
    const proto_ctrl_t *pc = &p->ctrls[c];
    uint64_t all = pc->nstates >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << pc->nstates) - 1;
    uint64_t may = all & ~pc->linevars[v].live;
    for (bool more = true; more;) {
        more = false;
        for (int r = 0; r < pc->nrows; r++) {
            const proto_row_t *row = &pc->rows[r];
            uint64_t add = 0;
            bool sets_v = false;
            for (int k = 0; k < row->nactions; k++) {
                const proto_action_t *a = &row->actions[k];
                sets_v |= a->kind == PROTO_A_ASSIGN && a->line_var && a->var == v;
                if (a->kind == PROTO_A_FORALL && (a->from & may) && a->to >= 0 && a->to < 64)
                    add |= (uint64_t)1 << a->to;
            }
            if ((row->states & may) && !sets_v && row->next >= 0 && row->next < 64)
                add |= (uint64_t)1 << row->next;
            if (add & ~may) {
                may |= add;
                more = true;
            }
        }
    }
    for (int r = 0; r < pc->nrows; r++) {
        const proto_row_t *row = &pc->rows[r];
        if ((row->states && !(row->states & may)) || guard_covers(pc, row->guard, v))
            continue;
        for (int k = 0; k < row->nactions; k++)
            if (proto_action_any(p, &row->actions[k], is_var, v))
                return true;
    }
    return false;
}

/* The sender-bound variables of every controller: node and nodeset variables every
 * assignment of which is a sender expression (a greatest fixpoint), and for line
 * variables that a state outside their live states resets, the CUs their initial
 * value names (sb_init). Then which shared instances send only to msg.src, shared
 * instances and sender expressions (sendbound). */
static void analyse_dests(sys_por_t *por)
{
    const proto_t *p = por->p;
    const sys_topo_t *tp = &por->tp;
    por->sb_lv = xcalloc((size_t)p->nctrls + 1, sizeof(uint64_t));
    por->sb_cv = xcalloc((size_t)p->nctrls + 1, sizeof(uint64_t));
    por->sb_init = xcalloc((size_t)p->nctrls + 1, sizeof(uint64_t));
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        uint64_t *lv = &por->sb_lv[c], *cv = &por->sb_cv[c];
        for (int v = 0; v < pc->nlinevars && v < 64; v++) {
            const proto_var_t *var = &pc->linevars[v];
            if (!is_node_type(var))
                continue;
            if (var->live == ~(uint64_t)0)
                *lv |= (uint64_t)1 << v; /* its initial value is read from the state */
            else if (!var->init && var->type.kind == PROTO_T_NODESET)
                *lv |= (uint64_t)1 << v; /* reset to none */
            else if (!var->init) {       /* reset to node 0 */
                *lv |= (uint64_t)1 << v;
                if (tp->ninst > 0 && tp->inst_cu[0] >= 0 && reads_reset(p, c, v))
                    por->sb_init[c] |= (uint64_t)1 << tp->inst_cu[0];
            }
        }
        for (int v = 0; v < pc->nctrlvars && v < 64; v++)
            if (is_node_type(&pc->ctrlvars[v]))
                *cv |= (uint64_t)1 << v;
        for (bool more = true; more;) {
            more = false;
            for (int r = 0; r < pc->nrows; r++)
                for (int k = 0; k < pc->rows[r].nactions; k++) {
                    const proto_action_t *a = &pc->rows[r].actions[k];
                    uint64_t *m = a->line_var ? lv : cv;
                    if (a->kind != PROTO_A_ASSIGN || a->var < 0 || a->var >= 64 ||
                        !(*m >> a->var & 1))
                        continue;
                    if (a->index || !sender_expr(a->value, *lv, *cv)) {
                        *m &= ~((uint64_t)1 << a->var);
                        more = true;
                    }
                }
        }
    }
    for (int i = 0; i < tp->ninst; i++) {
        int c = tp->inst_ctrl[i];
        const proto_ctrl_t *pc = &p->ctrls[c];
        bool ok = tp->inst_cu[i] < 0, other = false;
        for (int r = 0; r < pc->nrows && ok; r++)
            for (int k = 0; k < pc->rows[r].nactions && ok; k++) {
                const proto_action_t *a = &pc->rows[r].actions[k];
                if (a->kind != PROTO_A_SEND || a->dest == PROTO_DEST_SRC ||
                    a->dest == PROTO_DEST_SHARED)
                    continue;
                other = true;
                ok = (a->dest == PROTO_DEST_NODE || a->dest == PROTO_DEST_EACH) &&
                     sender_expr(a->dest_node, por->sb_lv[c], por->sb_cv[c]);
            }
        por->sendbound[i] = ok && other;
    }
}

/* Per send-bound shared instance, the CUs it may send to at the state while a CU does
 * nothing: those its sender-bound variables name (or a reset of one may), and those
 * with a message in a channel to it (its receipt may store the sender). */
static void view_named(sys_por_t *por, const uint8_t *state, size_t len)
{
    const sys_topo_t *tp = &por->tp;
    int ni = tp->ninst;
    for (int i = 0; i < ni; i++) {
        if (!por->sendbound[i])
            continue;
        int c = tp->inst_ctrl[i];
        por->named[i] = por->sb_init[c] |
                        sys_por_view_nodes(por->s, state, len, i, por->sb_lv[c], por->sb_cv[c]);
    }
    for (int q = 0; q < tp->nlchan; q++) {
        int ch = tp->lchan[q], src = tp->ch_src[ch], dst = tp->ch_dst[ch];
        if (por->sendbound[dst] && por->clen[ch] && tp->inst_cu[src] >= 0)
            por->named[dst] |= (uint64_t)1 << tp->inst_cu[src];
    }
}

/* Whether E's value, a node or a nodeset, is a field-sender expression in a row of
 * controller C for event EV: a sender expression over the field-bound variables, self
 * (the acting instance), or a bound field of the message received. Along steps of
 * other groups such a value never names a CU that none of the values it is built
 * from named (docs/por.md, "Destinations carried in message fields"). */
static bool field_expr(const sys_por_t *por, int c, int ev, const proto_expr_t *e)
{
    if (!e)
        return false;
    switch (e->kind) {
    case PROTO_E_MSGSRC:
    case PROTO_E_NONE:
    case PROTO_E_SELF: return true;
    case PROTO_E_LINEVAR: return e->index < 64 && (por->fb_lv[c] >> e->index & 1);
    case PROTO_E_CTRLVAR: return e->index < 64 && (por->fb_cv[c] >> e->index & 1);
    case PROTO_E_MSGF:
        return ev >= 0 && ev < por->p->nmsgs && e->index < 64 && (por->fb_msg[ev] >> e->index & 1);
    case PROTO_E_SETOP:
        return field_expr(por, c, ev, e->a) && (e->op == '-' || field_expr(por, c, ev, e->b));
    default: return false;
    }
}

static bool is_msgsrc(const proto_expr_t *e, int arg)
{
    (void)arg;
    return e->kind == PROTO_E_MSGSRC;
}

/* One pass of the fixpoint: drop every candidate variable one assignment of which, and
 * every candidate field one send of which, is not a field-sender expression given the
 * candidates still held. Whether any was dropped. */
static bool fields_pass(sys_por_t *por)
{
    const proto_t *p = por->p;
    bool more = false;
    for (int c = 0; c < p->nctrls; c++)
        for (int r = 0; r < p->ctrls[c].nrows; r++) {
            const proto_row_t *row = &p->ctrls[c].rows[r];
            for (int k = 0; k < row->nactions; k++) {
                const proto_action_t *a = &row->actions[k];
                uint64_t *m = a->line_var ? &por->fb_lv[c] : &por->fb_cv[c];
                if (a->kind == PROTO_A_ASSIGN && a->var >= 0 && a->var < 64 && (*m >> a->var & 1) &&
                    (a->index || !field_expr(por, c, row->event, a->value))) {
                    *m &= ~((uint64_t)1 << a->var);
                    more = true;
                }
                if (a->kind != PROTO_A_SEND || a->msg < 0 || a->msg >= p->nmsgs)
                    continue;
                for (int f = 0; f < p->msgs[a->msg].nfields && f < 64; f++)
                    if ((por->fb_msg[a->msg] >> f & 1) &&
                        (!a->fields || !field_expr(por, c, row->event, a->fields[f]))) {
                        por->fb_msg[a->msg] &= ~((uint64_t)1 << f);
                        more = true;
                    }
            }
        }
    return more;
}

/* Whether instance I is field-bound: every send of its rows goes to msg.src, a shared
 * instance, its own CU (a per-cu I), or a node or set a field-sender expression gives,
 * and one goes to a computed node (else the rules before cover it). */
static bool field_bound(const sys_por_t *por, int i)
{
    const proto_t *p = por->p;
    int c = por->tp.inst_ctrl[i];
    bool computed = false;
    for (int r = 0; r < p->ctrls[c].nrows; r++) {
        const proto_row_t *row = &p->ctrls[c].rows[r];
        for (int k = 0; k < row->nactions; k++) {
            const proto_action_t *a = &row->actions[k];
            if (a->kind != PROTO_A_SEND || a->dest == PROTO_DEST_SRC ||
                a->dest == PROTO_DEST_SHARED ||
                (a->dest == PROTO_DEST_SAMECU && por->tp.inst_cu[i] >= 0))
                continue;
            if ((a->dest != PROTO_DEST_NODE && a->dest != PROTO_DEST_EACH) ||
                !field_expr(por, c, row->event, a->dest_node))
                return false;
            computed = true;
        }
    }
    return computed;
}

/* Destinations carried in message fields: the field-bound variables of every
 * controller and fields of every message (a greatest fixpoint from every node and
 * nodeset field, and the variables analyse_dests starts from: a reset's value is in
 * sb_init), which controllers may store a sender, and the field-bound instances. */
static void analyse_fields(sys_por_t *por)
{
    const proto_t *p = por->p;
    const sys_topo_t *tp = &por->tp;
    por->fb_lv = xcalloc((size_t)p->nctrls + 1, sizeof(uint64_t));
    por->fb_cv = xcalloc((size_t)p->nctrls + 1, sizeof(uint64_t));
    por->fb_msg = xcalloc((size_t)p->nmsgs + 1, sizeof(uint64_t));
    por->capt = xcalloc((size_t)p->nctrls + 1, sizeof(bool));
    por->fch = xcalloc((size_t)tp->nchan + 1, sizeof(uint64_t));
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        for (int v = 0; v < pc->nlinevars && v < 64; v++) {
            const proto_var_t *var = &pc->linevars[v];
            if (is_node_type(var) && (var->live == ~(uint64_t)0 || !var->init))
                por->fb_lv[c] |= (uint64_t)1 << v;
        }
        for (int v = 0; v < pc->nctrlvars && v < 64; v++)
            if (is_node_type(&pc->ctrlvars[v]))
                por->fb_cv[c] |= (uint64_t)1 << v;
        for (int r = 0; r < pc->nrows; r++)
            for (int k = 0; k < pc->rows[r].nactions; k++) {
                const proto_action_t *a = &pc->rows[r].actions[k];
                if (a->kind == PROTO_A_SEND && a->dest == PROTO_DEST_SRC) {
                    for (int f = 0; a->fields && f < p->msgs[a->msg].nfields; f++)
                        por->capt[c] |= proto_expr_any(a->fields[f], is_msgsrc, 0);
                } else
                    por->capt[c] |= proto_action_any(p, a, is_msgsrc, 0);
            }
    }
    for (int m = 0; m < p->nmsgs; m++)
        for (int f = 0; f < p->msgs[m].nfields && f < 64; f++) {
            proto_type_kind_t k = p->msgs[m].fields[f].type.kind;
            if (k == PROTO_T_NODE || k == PROTO_T_NODESET)
                por->fb_msg[m] |= (uint64_t)1 << f;
        }
    while (fields_pass(por))
        ;
    bool field_dest = false; /* a row sends to a node that is not a sender expression */
    for (int i = 0; i < tp->ninst; i++) {
        int c = tp->inst_ctrl[i];
        for (int r = 0; r < p->ctrls[c].nrows; r++)
            for (int k = 0; k < p->ctrls[c].rows[r].nactions; k++) {
                const proto_action_t *a = &p->ctrls[c].rows[r].actions[k];
                field_dest |= a->kind == PROTO_A_SEND &&
                              (a->dest == PROTO_DEST_NODE || a->dest == PROTO_DEST_EACH) &&
                              !sender_expr(a->dest_node, por->sb_lv[c], por->sb_cv[c]);
            }
        por->fieldbound[i] = !por->reply_only[i] && !por->sendbound[i] && field_bound(por, i);
        por->any_fieldbound |= por->fieldbound[i];
    }
    if (!por->any_fieldbound)
        por->fwhy = field_dest ? "a destination taken from a message field or a node variable "
                                 "may name any node (a value other than a sender's)"
                               : "no row sends to a node taken from a message field";
}

/* Field-bound destinations at the state: per instance the CUs its bound variables name
 * (or a reset of one may), per channel those its messages' bound fields name and, when
 * its receiver may store the sender, the sending CU. */
static void view_fields(sys_por_t *por, const uint8_t *state, size_t len)
{
    const sys_topo_t *tp = &por->tp;
    int ni = tp->ninst;
    for (int i = 0; i < ni; i++) {
        int c = tp->inst_ctrl[i];
        por->finst[i] = por->sb_init[c] |
                        sys_por_view_nodes(por->s, state, len, i, por->fb_lv[c], por->fb_cv[c]);
    }
    sys_por_view_fields(por->s, state, len, por->fb_msg, por->fch);
    for (int q = 0; q < tp->nlchan; q++) {
        int ch = tp->lchan[q], src = tp->ch_src[ch], dst = tp->ch_dst[ch];
        if (por->clen[ch] && tp->inst_cu[src] >= 0 && por->capt[tp->inst_ctrl[dst]])
            por->fch[ch] |= (uint64_t)1 << tp->inst_cu[src];
    }
    /* Per CU group G: the CUs named by the variables of instances outside G and by
       the messages in channels not into G (G receives those, and does not act). */
    for (int g = 0; g < tp->ncus && g < 64; g++) {
        uint64_t m = 0;
        for (int i = 0; i < ni; i++)
            if (por->group[i] != g)
                m |= por->finst[i];
        for (int q = 0; q < tp->nlchan; q++)
            if (por->group[tp->ch_dst[tp->lchan[q]]] != g)
                m |= por->fch[tp->lchan[q]];
        por->fnamed[g] = m;
    }
}

/* Whether a message may go from one shared instance to another: a shared controller's
 * row sends to a shared controller by name, or to a node that is not a sender
 * expression. Else, by induction on the steps, every message a shared instance sends
 * goes to a per-cu instance: replies and sender-bound nodes name only instances that
 * sent to it (node 0, a reset's value, when per-cu), and `all`, `each` and `R[cu]` name
 * per-cu controllers. */
static bool shared_seeds(const sys_por_t *por)
{
    const proto_t *p = por->p;
    for (int c = 0; c < p->nctrls; c++)
        for (int r = 0; r < p->ctrls[c].nrows && !p->ctrls[c].per_cu; r++)
            for (int k = 0; k < p->ctrls[c].rows[r].nactions; k++) {
                const proto_action_t *a = &p->ctrls[c].rows[r].actions[k];
                if (a->kind != PROTO_A_SEND)
                    continue;
                if (a->dest == PROTO_DEST_SHARED)
                    return true;
                if (a->dest == PROTO_DEST_NODE &&
                    (!sender_expr(a->dest_node, por->sb_lv[c], por->sb_cv[c]) ||
                     (por->tp.ninst > 0 && por->tp.inst_cu[0] < 0)))
                    return true;
            }
    return false;
}

static const char *analyse(sys_por_t *por)
{
    const proto_t *p = por->p;
    if (por->tp.clock)
        analyse_clock(por);
    if (p->ninvs) {
        const char *why = analyse_invariants(por);
        if (why)
            return why;
    }
    if (por->tp.ninst > 64 || por->tp.nthreads > PROG_MAX_THREADS)
        return "too many instances";
    if (prog_has_join(por->tp.prog))
        return "a join (launch, bar.sync): the last thread's arrival moves the others on";
    if (prog_has_indexed(por->tp.prog))
        return "an access addresses memory through a register (its line is known only when it "
               "runs)";
    for (int c = 0; c < p->nctrls; c++)
        for (int r = 0; r < p->ctrls[c].nrows; r++) {
            const proto_row_t *row = &p->ctrls[c].rows[r];
            if (reads_others(p, row->guard, NULL))
                return "a row reads other instances (count)";
            for (int k = 0; k < row->nactions; k++)
                if (reads_others(p, NULL, &row->actions[k]))
                    return "a row reads other instances (count)";
        }
    if (!dones_local(por))
        return "a done(tid) may complete a thread of another compute unit";
    /* Progress steps can cycle only through a loop of a thread, a core row that can
       fire again, or a per-cu instance that receives a message and sends one to a
       per-cu instance (docs/por.md). */
    /* With invariants, a key path of invisible progress steps must not cycle for ever
       either (docs/por.md, "Declared invariants"): always the proviso. */
    por->proviso = por->tp.loops || por->vis;
    for (int c = 0; c < p->nctrls; c++)
        for (int r = 0; r < p->ctrls[c].nrows && p->ctrls[c].per_cu; r++) {
            const proto_row_t *row = &p->ctrls[c].rows[r];
            /* A core row that neither completes nor waits can fire again and again. */
            if (row->event >= 0 && row->event < p->nevents &&
                p->events[row->event].kind == PROTO_EV_CORE && row->kind == PROTO_ROW_NORMAL &&
                !row->has_done && !row->has_wait)
                por->proviso = true;
            if (row->event < 0 || row->event >= p->nmsgs)
                continue;
            for (int k = 0; k < row->nactions; k++) {
                const proto_action_t *a = &row->actions[k];
                if (a->kind == PROTO_A_SEND && a->dest != PROTO_DEST_SHARED)
                    por->proviso = true;
            }
        }
    /* A shared instance's read-only receipt can be a key step too (its reply is
       received by a per-cu instance): a per-cu message row sending to a shared
       instance can then close a cycle. */
    analyse_service(por);
    analyse_lines(por);
    analyse_receipts(por);
    for (int c = 0; c < p->nctrls; c++)
        por->service |= !p->ctrls[c].per_cu && por->reply[c];
    bool cu_sends = false; /* a per-cu message row sends */
    for (int c = 0; c < p->nctrls; c++)
        for (int r = 0; r < p->ctrls[c].nrows && p->ctrls[c].per_cu; r++) {
            const proto_row_t *row = &p->ctrls[c].rows[r];
            for (int k = 0; k < row->nactions && row->event >= 0 && row->event < p->nmsgs; k++)
                cu_sends |= row->actions[k].kind == PROTO_A_SEND;
        }
    for (int c = 0; c < p->nctrls && por->service; c++)
        for (int r = 0; r < p->ctrls[c].nrows && p->ctrls[c].per_cu; r++) {
            const proto_row_t *row = &p->ctrls[c].rows[r];
            if (row->event < 0 || row->event >= p->nmsgs)
                continue;
            for (int k = 0; k < row->nactions; k++)
                if (row->actions[k].kind == PROTO_A_SEND)
                    por->proviso = true;
        }
    /* Groups, and which instances may send into another group other than by a reply. */
    for (int i = 0; i < por->tp.ninst; i++) {
        int cu = por->tp.inst_cu[i];
        por->group[i] = cu >= 0 ? cu : por->tp.ncus + i;
        const proto_ctrl_t *pc = &p->ctrls[por->tp.inst_ctrl[i]];
        por->reply_only[i] = true;
        for (int r = 0; r < pc->nrows; r++) {
            int nsrc = 0;
            for (int k = 0; k < pc->rows[r].nactions; k++) {
                const proto_action_t *a = &pc->rows[r].actions[k];
                if (a->kind != PROTO_A_SEND)
                    continue;
                if (a->dest == PROTO_DEST_SRC)
                    nsrc++;
                else if (a->dest == PROTO_DEST_ALL || a->dest == PROTO_DEST_EACH ||
                         a->dest == PROTO_DEST_NODE)
                    por->reply_only[i] = false;
            }
            if (nsrc > por->replies[i])
                por->replies[i] = nsrc;
        }
    }
    analyse_dests(por);
    for (int i = 0; i < por->tp.ninst; i++) {
        por->sendbound[i] &= !por->reply_only[i];
        por->any_sendbound |= por->sendbound[i];
    }
    analyse_fields(por);
    /* Any shared instance's receipts may be key steps (input()) where no cycle of
       receipts is possible (no per-cu message row sends, no message goes from one shared
       instance to another) or where the proviso is on anyway. */
    por->wide = por->proviso || (!cu_sends && !shared_seeds(por));
    return NULL;
}

sys_por_t *sys_por_new(sys_t *s)
{
    sys_por_t *por = xcalloc_lines(1, sizeof *por);
    por->s = s;
    sys_topo(s, &por->tp);
    por->p = por->tp.proto;
    por->done = xcalloc_lines((size_t)por->tp.nthreads + 1, 1);
    por->clen = xcalloc_lines((size_t)por->tp.nchan + 1, 1);
    por->egroup = xcalloc_lines((size_t)por->tp.ncus + (size_t)por->tp.ninst + 1, sizeof(int));
    por->msg_on = xcalloc_lines((size_t)por->tp.nchan + 1, 1);
    por->pgroup = xcalloc_lines((size_t)por->tp.ncus + (size_t)por->tp.ninst + 1, sizeof(int));
    por->pc = xcalloc_lines((size_t)por->tp.nthreads + 1, sizeof(int16_t));
    por->wait = xcalloc_lines((size_t)por->tp.nthreads + 1, 1);
    por->inset = xcalloc_lines((size_t)por->tp.ncus + (size_t)por->tp.ninst + 1, sizeof(bool));
    por->msgs = xcalloc_lines((size_t)por->tp.nchan * (size_t)por->tp.cap * 2 + 1, sizeof(int16_t));
    por->fresh = xcalloc_lines((size_t)por->tp.ninst + 1, sizeof(uint64_t));
    por->lstate =
        xcalloc_lines((size_t)por->tp.ninst * (size_t)(por->tp.nlines > 0 ? por->tp.nlines : 1) + 1,
                      sizeof(int16_t));
    por->why = analyse(por);
    por->active = !por->why;
    return por;
}

void sys_por_free(sys_por_t *por)
{
    if (!por)
        return;
    free(por->vis);
    free(por->tk);
    free(por->fresh);
    free(por->lstate);
    free(por->done);
    free(por->clen);
    free(por->egroup);
    free(por->msg_on);
    free(por->pgroup);
    free(por->pc);
    free(por->inset);
    free(por->evx);
    free(por->core_inst);
    free(por->fx);
    free(por->fsends);
    free(por->oneshot);
    free(por->once);
    free(por->tloop);
    free(por->wait);
    free(por->msgs);
    free(por->ro);
    free(por->reply);
    free(por->wlead);
    free(por->sb_lv);
    free(por->sb_cv);
    free(por->sb_init);
    free(por->fb_lv);
    free(por->fb_cv);
    free(por->fb_msg);
    free(por->capt);
    free(por->fch);
    for (int t = 0; por->fut && t < por->tp.nthreads; t++)
        free(por->fut[t]);
    free(por->fut);
    free(por);
}

bool sys_por_proviso(const sys_por_t *por)
{
    return por->proviso;
}

bool sys_por_fields(const sys_por_t *por, const char **why)
{
    if (why)
        *why = por->fwhy;
    return por->any_fieldbound;
}

bool sys_por_active(const sys_por_t *por, const char **why)
{
    if (why)
        *why = por->why;
    return por->active;
}

/* ---- per state ---- */

bool sys_por_progress(const sys_label_t *l)
{
    return l->kind == SYS_STEP_CORE || l->kind == SYS_STEP_MSG;
}

static int label_group(const sys_por_t *por, const sys_label_t *l)
{
    const sys_topo_t *tp = &por->tp;
    switch (l->kind) {
    case SYS_STEP_CORE: return l->who < tp->nthreads ? tp->thread_cu[l->who] : -1;
    case SYS_STEP_MSG: return l->what < tp->nchan ? por->group[tp->ch_dst[l->what]] : -1;
    case SYS_STEP_INTERNAL: return l->who < tp->ninst ? por->group[l->who] : -1;
    default: return -1;
    }
}

/* Can group G's enabled transitions be the whole stubborn set at the state in
 * por->done/clen? With INS >= 0 (a shared instance), together with INS's receipt from
 * a non-empty channel of the group (service() checks that receipt): INS counts as
 * inside for the channels between it and the group. */
static bool stubborn(const sys_por_t *por, int g, int ins)
{
    const sys_topo_t *tp = &por->tp;
    const proto_t *p = por->p;
    /* The group must act before the state is terminal: one of its threads is not
       finished, or a message waits in a channel into it (only it receives there).
       With INS, the served channel is not empty. */
    bool must = ins >= 0;
    for (int t = 0; t < tp->nthreads && !must; t++)
        must = tp->thread_cu[t] == g && !por->done[t];
    for (int q = 0; q < tp->nlchan && !must; q++) {
        int c = tp->lchan[q];
        must = por->clen[c] && por->group[tp->ch_dst[c]] == g;
    }
    if (!must)
        return false;
    for (int q = 0; q < tp->nlchan; q++) {
        int c = tp->lchan[q], net = tp->ch_net[c], src = tp->ch_src[c], dst = tp->ch_dst[c];
        int bound = p->nets[net].capacity;
        bool is = por->group[src] == g || src == ins, id = por->group[dst] == g || dst == ins;
        if (is && !id) {
            if (src != ins && bound && por->clen[c] >= bound)
                return false; /* a send of the group waits for a receive outside it */
            continue;
        }
        if (!id || is || dst == ins)
            continue; /* INS's receipts from other groups are outside: service() */
        /* A channel into the group from instance SRC outside it: how many messages can
           SRC add while the group does nothing? Replies to the group's messages only. */
        int b = 0;
        if (!por->reply_only[src] &&
            !(por->sendbound[src] && g < tp->ncus && !(por->named[src] >> g & 1)) &&
            !(por->fieldbound[src] && g < tp->ncus && !(por->fnamed[g] >> g & 1)))
            b = NONE_BOUND; /* (a send-bound instance names G: unbounded) */
        else
            for (int q2 = tp->dst_off[src]; q2 < tp->dst_off[src + 1]; q2++) {
                int c2 = tp->dst_lchan[q2], s2 = tp->ch_src[c2];
                if (por->group[s2] == g || s2 == ins)
                    b += por->clen[c2] * por->replies[src];
            }
        if (b == 0)
            continue; /* nothing arrives: no receive of the group gets enabled */
        /* Arrivals behind a FIFO head change no receive of the group (the head stays),
           provided they cannot overflow the channel. */
        if (p->nets[net].ordered && por->clen[c] &&
            (bound || (long)por->clen[c] + b <= (long)tp->cap))
            continue;
        return false;
    }
    return true;
}

/* Can group G (a CU) with the receipt, by a shared instance, of the head of channel C
 * (ordered, from an instance of G) be the stubborn set? The receipt must read only
 * (rows of its message change nothing and reply to msg.src), and nothing outside the
 * set may write the head's line at that instance: no message that may lead to such a
 * write in another channel, no thread of another CU that may still write the line,
 * no enabled environment event that may (docs/por.md). */
static bool service(const sys_por_t *por, int g, int c)
{
    const sys_topo_t *tp = &por->tp;
    const proto_t *p = por->p;
    int net = tp->ch_net[c], i = tp->ch_dst[c], ctrl = tp->inst_ctrl[i];
    if (!p->nets[net].ordered || !por->clen[c] || p->ctrls[ctrl].per_cu || !por->reply[ctrl] ||
        por->env_w)
        return false;
    const int16_t *h = &por->msgs[(size_t)c * (size_t)tp->cap * 2];
    int x = h[1];
    if (x < 0 || h[0] < 0 || h[0] >= p->nmsgs || !por->ro[ctrl * p->nmsgs + h[0]])
        return false;
    uint64_t bits = (uint64_t)1 << ANY_LINE | (uint64_t)1 << (x < ANY_LINE ? x : ANY_LINE);
    for (int q = 0; q < tp->nlchan; q++) {
        int c2 = tp->lchan[q], s2 = tp->ch_src[c2], d2 = tp->ch_dst[c2];
        if (c2 == c || !por->clen[c2])
            continue;
        if (d2 == i && por->group[s2] == g)
            return false; /* another channel of the group into I: its replies come unseen */
        if (por->group[d2] == g)
            continue; /* the group receives it: inside the set */
        const int16_t *m = &por->msgs[(size_t)c2 * (size_t)tp->cap * 2];
        for (int k = 0; k < por->clen[c2]; k++, m += 2)
            if (m[0] >= 0 && m[0] < p->nmsgs && por->wlead[m[0]] && (m[1] < 0 || m[1] == x))
                return false;
    }
    for (int t = 0; t < tp->nthreads; t++)
        if (!por->done[t] && tp->thread_cu[t] != g && por->pc[t] >= 0 &&
            por->pc[t] <= tp->prog->threads[t].ninstr && (por->fut[t][por->pc[t]] & bits))
            return false;
    return stubborn(por, g, i);
}

/* Can shared instance I, with every CU group that has an empty channel into I, be
 * the stubborn set (docs/por.md, "A shared instance with its idle clients")? The
 * groups left out have a message at the head of every channel into I: they only
 * append behind those heads and take I's replies, which commutes with everything I
 * does. Fills por->inset and returns its enabled transitions (0: not a set). */
static size_t input(sys_por_t *por, int i, const sys_label_t *labs, size_t n)
{
    const sys_topo_t *tp = &por->tp;
    const proto_t *p = por->p;
    int ni = tp->ninst, ng = tp->ncus + ni, gi = por->group[i];
    if (tp->inst_cu[i] >= 0 || !(por->wide || por->reply[tp->inst_ctrl[i]]))
        return 0;
    memset(por->inset, 0, sizeof(bool) * (size_t)ng);
    por->inset[gi] = true;
    bool must = false;
    for (int q = 0; q < tp->nlchan; q++) {
        int c = tp->lchan[q], src = tp->ch_src[c];
        if (tp->ch_dst[c] != i)
            continue;
        if (src == i)
            continue;
        if (!p->nets[tp->ch_net[c]].ordered)
            return 0; /* FIFO channels only: the heads stay */
        if (!por->clen[c])
            por->inset[por->group[src]] = true;
        else
            must = true;
    }
    /* Or a CU of the set must act: one of its threads is not finished (its completion is a
       step of its own CU: a core event or a receipt there), or a message waits for it. */
    for (int t = 0; t < tp->nthreads && !must; t++)
        must = por->inset[tp->thread_cu[t]] && !por->done[t];
    for (int q = 0; q < tp->nlchan && !must; q++) {
        int c = tp->lchan[q];
        must = por->clen[c] && tp->ch_dst[c] != i && por->inset[por->group[tp->ch_dst[c]]];
    }
    if (!must)
        return 0;
    /* Outside the set: the groups whose every channel into I holds a message (their
       sends land behind the heads), and groups that never send to I. Nothing may reach
       a group of the set from outside it, and no send of the set may wait for room in
       a bounded channel that the outside empties. */
    for (int q = 0; q < tp->nlchan; q++) {
        int c = tp->lchan[q], src = tp->ch_src[c], dst = tp->ch_dst[c];
        bool is = por->inset[por->group[src]], id = por->inset[por->group[dst]];
        if (is && !id && p->nets[tp->ch_net[c]].capacity &&
            por->clen[c] >= p->nets[tp->ch_net[c]].capacity)
            return 0;
        if (id && !is && dst != i)
            return 0;
    }
    /* A key step the outside cannot undo: a progress step of the set other than a
       receipt from an outside group's channel, or receipts from two outside groups (an
       outside send overflowing one channel is not affected by a receipt from another);
       without the proviso, also an internal event of I that fires once per line between
       two receipts by I (key paths stay finite: docs/por.md). */
    size_t k = 0;
    int other = -1;
    bool key = false;
    for (size_t j = 0; j < n; j++) {
        int g = label_group(por, &labs[j]);
        if (g < 0 || !por->inset[g])
            continue;
        k++;
        if (labs[j].kind == SYS_STEP_INTERNAL && labs[j].who == i && !por->proviso &&
            labs[j].what < p->nevents &&
            por->once[(size_t)tp->inst_ctrl[i] * (size_t)p->nevents + labs[j].what])
            key = true;
        if (!sys_por_progress(&labs[j]))
            continue;
        int from = labs[j].kind == SYS_STEP_MSG ? por->group[tp->ch_src[labs[j].what]] : -1;
        if (from < 0 || por->inset[from] || (other >= 0 && other != from))
            key = true;
        else
            other = from;
    }
    return key && k < n ? k : 0;
}

/* Whether thread T's current instruction may touch instance J's line Y. */
static bool instr_touches(const sys_por_t *por, int t, int j, int y)
{
    const sys_topo_t *tp = &por->tp;
    const proto_t *p = por->p;
    if (por->core_inst[tp->thread_cu[t]] != j)
        return false;
    int pc = por->pc[t];
    if (pc < 0 || pc >= tp->prog->threads[t].ninstr)
        return false;
    const prog_instr_t *in = &tp->prog->threads[t].instr[pc];
    const proto_map_t *m = tp->maps[tp->map_base[t] + pc];
    for (int k = 0; m && k < m->nevents; k++)
        if ((por->evx[tp->inst_ctrl[j] * p->nevents + m->events[k]] & EVX_ALL) ||
            in->op == PROG_OP_FENCE || tp->loc_line[in->loc] == y)
            return true;
    return false;
}

/* Whether enabled step L may touch instance J's line Y (or every line of J). */
static bool label_touches(const sys_por_t *por, const sys_label_t *l, int j, int y)
{
    const sys_topo_t *tp = &por->tp;
    const proto_t *p = por->p;
    switch (l->kind) {
    case SYS_STEP_CORE: return l->who >= tp->nthreads || instr_touches(por, l->who, j, y);
    case SYS_STEP_MSG: {
        int c = l->what;
        if (c >= tp->nchan || l->arg >= por->clen[c])
            return true;
        if (tp->ch_dst[c] != j)
            return false;
        const int16_t *m = &por->msgs[((size_t)c * (size_t)tp->cap + l->arg) * 2];
        return m[0] < 0 || m[0] >= p->nmsgs ||
               (por->evx[tp->inst_ctrl[j] * p->nevents + m[0]] & EVX_ALL) || m[1] < 0 || m[1] == y;
    }
    case SYS_STEP_INTERNAL:
        if (l->who != j)
            return false;
        return l->what >= p->nevents ||
               (por->evx[tp->inst_ctrl[j] * p->nevents + l->what] & EVX_ALL) || l->arg == 0xffff ||
               l->arg == y;
    default: return true;
    }
}

/* Leave out of KEEP the environment steps of per-cu instances that send nothing and
 * touch only a line that nothing else in the set touches, that no unfinished thread
 * of the CU is at, and that no message waiting for the instance is for (docs/por.md,
 * "Environment steps on other lines"). Returns how many are kept. */
static size_t drop_env(sys_por_t *por, const sys_label_t *labs, size_t n, bool *keep)
{
    const sys_topo_t *tp = &por->tp;
    const proto_t *p = por->p;
    int ni = tp->ninst;
    for (size_t e = 0; e < n; e++) {
        const sys_label_t *le = &labs[e];
        if (!keep[e] || le->kind != SYS_STEP_INTERNAL || le->who >= ni || le->arg == 0xffff ||
            le->what >= p->nevents || p->events[le->what].kind != PROTO_EV_ENV)
            continue;
        int j = le->who, y = le->arg;
        if (tp->inst_cu[j] < 0 ||
            (por->evx[tp->inst_ctrl[j] * p->nevents + le->what] & (EVX_ALL | EVX_SEND)))
            continue;
        bool conflict = false;
        for (size_t l = 0; l < n && !conflict; l++)
            conflict = l != e && keep[l] && label_touches(por, &labs[l], j, y);
        for (int t = 0; t < tp->nthreads && !conflict; t++)
            conflict = !por->done[t] && !por->wait[t] && instr_touches(por, t, j, y);
        for (int q = 0; q < tp->nlchan && !conflict; q++) {
            int c = tp->lchan[q];
            if (tp->ch_dst[c] != j)
                continue;
            const int16_t *m = &por->msgs[(size_t)c * (size_t)tp->cap * 2];
            for (int k = 0; k < por->clen[c] && !conflict; k++, m += 2)
                conflict = m[1] < 0 || m[1] == y;
        }
        if (!conflict)
            keep[e] = false;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += keep[i];
    return k;
}

/* Whether a step of footprint FU (on line YU; -1: every line) at the receiving
 * instance may not commute with a receipt of footprint FR on line Y. */
static bool fx_dependent(uint8_t fr, int y, uint8_t fu, int yu)
{
    if ((fr & FX_CTRL) && (fu & FX_CTRL))
        return true;
    bool r = fr & (FX_LINE | FX_ALL), u = fu & (FX_LINE | FX_ALL);
    return r && u && ((fr & FX_ALL) || (fu & FX_ALL) || yu < 0 || yu == y);
}

/* ---- a global clock, per state (docs/por.md, "Global clocks") ---- */

/* Do the rows of controller CTRL for event EV on line Y (-1: a controller-level event
 * or a message for no line) at instance I commute with a tick and keep their guards'
 * values under every tick from this state on? Only ticks change I's times while I's
 * group does nothing, and a tick leaves an expired time expired. */
static bool tick_ok(const sys_por_t *por, int ctrl, int ev, int y, int i)
{
    const proto_t *p = por->p;
    int nl = por->tp.nlines;
    if (ev < 0 || ev >= p->nevents)
        return false;
    const uint8_t *tk = &por->tk[((size_t)ctrl * p->nevents + ev) * 64];
    uint8_t f = 0;
    int st = y >= 0 && y < nl ? por->lstate[(size_t)i * nl + y] : -1;
    if (st >= 0 && st < 64)
        f = tk[st];
    else
        for (int k = 0; k < 64; k++)
            f |= tk[k];
    if (f & TK_X)
        return false;
    if (!(f & TK_G))
        return true;
    uint64_t fr = por->fresh[i];
    return st >= 0 ? !(fr >> 63 & 1) && !(fr >> (y < 62 ? y : 62) & 1) : fr == 0;
}

/* Every step instance I may take while its group does nothing (receipts of the messages
 * in its channels, its internal and environment events on every line) is tick_ok. */
static bool tick_ok_inst(const sys_por_t *por, int i)
{
    const sys_topo_t *tp = &por->tp;
    const proto_t *p = por->p;
    int ci = tp->inst_ctrl[i], ne = p->nevents;
    for (int q = 0; q < tp->nlchan; q++) {
        int c = tp->lchan[q];
        if (tp->ch_dst[c] != i)
            continue;
        for (int k = 0; k < por->clen[c]; k++) {
            const int16_t *m = &por->msgs[((size_t)c * tp->cap + k) * 2];
            if (!tick_ok(por, ci, m[0], m[1], i))
                return false;
        }
    }
    for (int e = p->nmsgs; e < ne; e++) {
        if (p->events[e].kind != PROTO_EV_INTERNAL && p->events[e].kind != PROTO_EV_ENV)
            continue;
        if (!sys_event_on(por->s, e))
            continue;
        if (!p->events[e].line) {
            if (!tick_ok(por, ci, e, -1, i))
                return false;
            continue;
        }
        for (int y = 0; y < tp->nlines; y++)
            if (!tick_ok(por, ci, e, y, i))
                return false;
    }
    return true;
}

/* Every step of group G (a CU: its threads' pending core events and its instances'
 * steps; a shared instance's group: that instance's steps) is tick_ok. */
static bool tick_ok_group(const sys_por_t *por, int g)
{
    const sys_topo_t *tp = &por->tp;
    const proto_t *p = por->p;
    if (!por->tk)
        return true;
    for (int t = 0; t < tp->nthreads && g < tp->ncus; t++) {
        if (tp->thread_cu[t] != g || por->done[t])
            continue;
        const prog_thread_t *th = &tp->prog->threads[t];
        int pc = por->pc[t] < 0 ? 0 : por->pc[t];
        if (pc >= th->ninstr)
            continue; /* past its last instruction: no core event left */
        const prog_instr_t *in = &th->instr[pc];
        const proto_map_t *m = tp->maps[tp->map_base[t] + pc];
        int ci = por->core_inst[g];
        for (int k = 0; m && k < m->nevents; k++) {
            int ev = m->events[k];
            int y = p->events[ev].line && in->op != PROG_OP_FENCE ? tp->loc_line[in->loc] : -1;
            if (ci < 0 || !tick_ok(por, p->core_ctrl, ev, y, ci))
                return false;
        }
    }
    for (int i = 0; i < tp->ninst; i++)
        if (por->group[i] == g && !tick_ok_inst(por, i))
            return false;
    return true;
}

/* The receipt of the head of channel C is tick_ok (always, without a clock). */
static bool head_tick_ok(const sys_por_t *por, int c)
{
    const sys_topo_t *tp = &por->tp;
    if (!por->tk)
        return true;
    int dst = tp->ch_dst[c];
    const int16_t *h = &por->msgs[(size_t)c * (size_t)tp->cap * 2];
    return tick_ok(por, tp->inst_ctrl[dst], h[0], h[1], dst);
}

/* Can the receipt of the head of channel C, by a per-cu instance J, be the stubborn
 * set alone (docs/por.md, "A reply received alone")? C is the only channel into J's
 * compute unit, its sender X only replies, the receipt's rows send nothing and make
 * no thread wait, and no step the rest of the CU may take before it (a running
 * thread's remaining instructions, the instances' internal and environment events)
 * touches what it touches; and X cannot overflow C meanwhile. */
static bool alone(const sys_por_t *por, int c, const sys_label_t *labs, size_t n)
{
    const sys_topo_t *tp = &por->tp;
    const proto_t *p = por->p;
    int ni = tp->ninst, net = tp->ch_net[c], x = tp->ch_src[c], j = tp->ch_dst[c],
        g = por->group[j];
    int cj = tp->inst_ctrl[j], ne = p->nevents;
    if (g >= tp->ncus || !p->nets[net].ordered || !por->clen[c] || !por->reply_only[x])
        return false;
    const int16_t *h = &por->msgs[(size_t)c * (size_t)tp->cap * 2];
    int y = h[1];
    if (h[0] < 0 || h[0] >= p->nmsgs)
        return false;
    uint8_t fr = por->fx[cj * ne + h[0]] | (y < 0 ? FX_ALL : 0);
    if (fr & (FX_SEND | FX_WAIT))
        return false;
    for (int q = 0; q < tp->nlchan; q++)
        if (tp->lchan[q] != c && por->group[tp->ch_dst[tp->lchan[q]]] == g)
            return false; /* another channel into the CU: another receipt may wake a thread */
    /* Line Y of J is frozen when no running thread of the CU may touch it (nor every
       line) at J, and no event of J touches every line. */
    bool frozen = true;
    long sends = 0; /* messages the CU may still send before the receipt */
    for (int t = 0; t < tp->nthreads; t++) {
        if (tp->thread_cu[t] != g || por->done[t] || por->wait[t])
            continue; /* a waiting thread wakes only by a receipt from C */
        if ((fr & FX_DONE) || por->tloop[t])
            return false;
        const prog_thread_t *th = &tp->prog->threads[t];
        for (int i = por->pc[t] < 0 ? 0 : por->pc[t]; i < th->ninstr; i++) {
            const prog_instr_t *in = &th->instr[i];
            const proto_map_t *m = tp->maps[tp->map_base[t] + i];
            for (int k = 0; m && k < m->nevents; k++) {
                int ev = m->events[k];
                uint8_t fu = por->fx[p->core_ctrl * ne + ev];
                int yu = p->events[ev].line && in->op != PROG_OP_FENCE ? tp->loc_line[in->loc] : -1;
                sends += por->fsends[p->core_ctrl * ne + ev];
                if (por->core_inst[g] != j)
                    continue;
                if (fx_dependent(fr, y, fu, yu))
                    return false;
                if ((fu & FX_ALL) || yu < 0 || yu == y)
                    frozen = false;
            }
        }
    }
    for (int i = 0; i < ni; i++) {
        if (por->group[i] != g)
            continue;
        int ci = tp->inst_ctrl[i];
        for (int e = p->nmsgs; e < ne; e++) {
            if (p->events[e].kind != PROTO_EV_INTERNAL && p->events[e].kind != PROTO_EV_ENV)
                continue;
            uint8_t fu = por->fx[ci * ne + e];
            if (fu == 0xff || !sys_event_on(por->s, e))
                continue; /* no row: it never fires */
            if (fu & FX_SEND) {
                if (!por->oneshot[ci * ne + e])
                    return false;
                sends += (long)tp->nlines * por->fsends[ci * ne + e];
            }
            if (i == j && (fu & FX_ALL))
                frozen = false;
        }
    }
    for (int e = p->nmsgs; e < ne; e++) {
        if (p->events[e].kind != PROTO_EV_INTERNAL && p->events[e].kind != PROTO_EV_ENV)
            continue;
        uint8_t fu = por->fx[cj * ne + e];
        if (fu == 0xff || !sys_event_on(por->s, e))
            continue;
        if (fx_dependent(fr, y, fu & ~(FX_LINE | FX_ALL), -1))
            return false; /* a controller variable both touch */
        if (!fx_dependent(fr, y, fu, p->events[e].line ? y : -1))
            continue;
        if (fr & FX_ALL)
            return false; /* the receipt touches every line: so does some step of E */
        /* On a frozen line an event with no enabled step there stays disabled (its
           rows depend on the line's state and, without FX_CTRL, on nothing else the
           rest may change). */
        bool on = !frozen || (fu & (FX_CTRL | FX_ALL)) || !p->events[e].line ||
                  (por->tk && !tick_ok(por, cj, e, y, j)); /* a tick may enable it */
        for (size_t k = 0; k < n && !on; k++)
            on = labs[k].kind == SYS_STEP_INTERNAL && labs[k].who == j && labs[k].what == e &&
                 labs[k].arg == y;
        if (on)
            return false;
    }
    /* X adds to C only replies to the CU's messages: those in channels to X, and those
       the CU may still send. */
    if (p->nets[net].capacity)
        return true;
    long b = sends;
    for (int q = tp->dst_off[x]; q < tp->dst_off[x + 1]; q++) {
        int c2 = tp->dst_lchan[q];
        if (por->group[tp->ch_src[c2]] == g)
            b += por->clen[c2];
    }
    return por->clen[c] + b * por->replies[x] <= tp->cap;
}

/* Insert candidate set (group G, served channel C or -1) of N enabled transitions,
 * keeping the list ordered by N (stable: earlier candidates first on ties). */
static void add_cand(sys_por_t *por, int g, int c, int n)
{
    if (por->ncand >= 64)
        return;
    int k = por->ncand++;
    while (k > 0 && por->candn[k - 1] > n) {
        por->cand[k] = por->cand[k - 1];
        por->candc[k] = por->candc[k - 1];
        por->candn[k] = por->candn[k - 1];
        k--;
    }
    por->cand[k] = g;
    por->candc[k] = c;
    por->candn[k] = n;
}

/* Whether enabled step L may change an invariant's value (docs/por.md, "Declared
   invariants"): a core step by the events its instruction maps to (an instruction
   with no map changes only registers), a receipt by its message's rows, an internal or
   environment event by its rows. */
static bool label_visible(const sys_por_t *por, const sys_label_t *l)
{
    const sys_topo_t *tp = &por->tp;
    const proto_t *p = por->p;
    switch (l->kind) {
    case SYS_STEP_CORE: {
        int t = l->who, pc = t < tp->nthreads ? por->pc[t] : -1;
        if (pc < 0 || pc >= tp->prog->threads[t].ninstr)
            return true;
        const proto_map_t *m = tp->maps[tp->map_base[t] + pc];
        for (int k = 0; m && k < m->nevents; k++)
            if (por->vis[p->core_ctrl * p->nevents + m->events[k]])
                return true;
        return false;
    }
    case SYS_STEP_MSG: {
        int c = l->what;
        if (c >= tp->nchan || l->arg >= por->clen[c])
            return true;
        const int16_t *m = &por->msgs[((size_t)c * (size_t)tp->cap + l->arg) * 2];
        return m[0] < 0 || m[0] >= p->nmsgs ||
               por->vis[tp->inst_ctrl[tp->ch_dst[c]] * p->nevents + m[0]];
    }
    case SYS_STEP_INTERNAL:
        return l->who >= tp->ninst || l->what >= p->nevents ||
               por->vis[tp->inst_ctrl[l->who] * p->nevents + l->what];
    default: return true;
    }
}

static size_t cand_keep(sys_por_t *por, int idx, const sys_label_t *labs, size_t n, bool *keep);

/* Keep only the qualifying sets with no enabled visible step (KEEP: scratch). */
static void drop_visible(sys_por_t *por, const sys_label_t *labs, size_t n, bool *keep)
{
    int m = 0;
    for (int q = 0; q < por->ncand; q++) {
        cand_keep(por, q, labs, n, keep);
        bool vis = false;
        for (size_t i = 0; i < n && !vis; i++)
            vis = keep[i] && label_visible(por, &labs[i]);
        if (vis)
            continue;
        por->cand[m] = por->cand[q];
        por->candc[m] = por->candc[q];
        por->candn[m++] = por->candn[q];
    }
    por->ncand = m;
}

size_t sys_por_select(sys_por_t *por, const uint8_t *state, size_t len, const sys_label_t *labs,
                      size_t n, int rank, bool *keep)
{
    for (size_t i = 0; i < n; i++)
        keep[i] = true;
    if (!por->active || n < 2)
        return n;
    const sys_topo_t *tp = &por->tp;
    int ng = tp->ncus + tp->ninst;
    if (rank == 0) {
        sys_por_view_msgs(por->s, state, len, por->done, por->clen, por->pc, por->wait, por->msgs);
        if (por->any_sendbound)
            view_named(por, state, len);
        if (por->any_fieldbound)
            view_fields(por, state, len);
        for (int i = 0; por->tk && i < tp->ninst; i++)
            por->fresh[i] = sys_por_view_times(por->s, state, len, i,
                                               &por->lstate[(size_t)i * (size_t)tp->nlines]);
        memset(por->egroup, 0, sizeof(int) * (size_t)ng);
        memset(por->pgroup, 0, sizeof(int) * (size_t)ng);
        for (size_t i = 0; i < n; i++) {
            if (labs[i].kind == SYS_STEP_TICK && por->tk)
                continue; /* in no group: never in a proper set (tick_ok_group) */
            int g = label_group(por, &labs[i]);
            if (g < 0) {
                por->ncand = 0;
                return n; /* a step of no group: expand fully */
            }
            por->egroup[g]++;
            por->pgroup[g] += sys_por_progress(&labs[i]);
        }
        /* The qualifying sets, fewest enabled transitions first (ties: lower CU, a
           plain group before one with a shared receipt). */
        por->ncand = 0;
        for (int g = 0; g < tp->ncus; g++) {
            if (!por->pgroup[g] || (size_t)por->egroup[g] == n || !stubborn(por, g, -1) ||
                !tick_ok_group(por, g))
                continue;
            add_cand(por, g, -1, por->egroup[g]);
        }
        memset(por->msg_on, 0, (size_t)tp->nchan);
        for (size_t i = 0; i < n; i++)
            if (labs[i].kind == SYS_STEP_MSG && labs[i].what < tp->nchan)
                por->msg_on[labs[i].what] |= labs[i].arg == 0 ? 3 : 1;
        for (int q = 0; por->service && q < tp->nlchan; q++) {
            int c = tp->lchan[q], src = tp->ch_src[c], g = por->group[src];
            if (!por->clen[c] || g >= tp->ncus)
                continue;
            /* the receipt is enabled (not stalled) */
            if ((por->msg_on[c] & 1) && (size_t)por->egroup[g] + 1 < n && service(por, g, c) &&
                tick_ok_group(por, g) && head_tick_ok(por, c))
                add_cand(por, g, c, por->egroup[g] + 1);
        }
        for (int q = 0; q < tp->nlchan; q++) {
            int c = tp->lchan[q];
            /* the head's receipt is enabled */
            if ((por->msg_on[c] & 2) && alone(por, c, labs, n) && head_tick_ok(por, c))
                add_cand(por, -2, c, 1);
        }
        for (int i = 0; (por->service || por->wide) && i < tp->ninst; i++) {
            size_t k = input(por, i, labs, n);
            for (int g = 0; k && por->tk && g < ng; g++)
                if (por->inset[g] && !tick_ok_group(por, g))
                    k = 0;
            if (k)
                add_cand(por, -1, -2 - i,
                         (int)(k + n)); /* last: only where nothing else qualifies */
        }
        if (por->vis)
            drop_visible(por, labs, n, keep);
        for (size_t i = 0; i < n; i++)
            keep[i] = true;
    }
    if (rank < 0 || rank >= por->ncand)
        return n;
    return cand_keep(por, rank, labs, n, keep);
}

/* Set KEEP[i] for the enabled steps of the IDX-th qualifying set; how many. */
static size_t cand_keep(sys_por_t *por, int idx, const sys_label_t *labs, size_t n, bool *keep)
{
    int best = por->cand[idx], bc = por->candc[idx];
    size_t k = 0;
    if (best == -2) { /* a reply received alone */
        for (size_t i = 0; i < n; i++) {
            keep[i] = labs[i].kind == SYS_STEP_MSG && labs[i].what == bc && labs[i].arg == 0;
            k += keep[i];
        }
        return k;
    }
    if (bc <= -2) { /* a shared instance with its idle clients */
        input(por, -2 - bc, labs, n);
        for (size_t i = 0; i < n; i++) {
            int g = label_group(por, &labs[i]);
            keep[i] = g >= 0 && por->inset[g];
            k += keep[i];
        }
        return k;
    }
    for (size_t i = 0; i < n; i++) {
        keep[i] = label_group(por, &labs[i]) == best ||
                  (bc >= 0 && labs[i].kind == SYS_STEP_MSG && labs[i].what == bc);
        k += keep[i];
    }
    return drop_env(por, labs, n, keep);
}
