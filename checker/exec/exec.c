/* exec.c - candidate execution enumeration (see exec.h).
 * Three stages: (1) per-location value domains by fixpoint; (2) every path of
 * each thread with concrete read values drawn from the domains; (3) every
 * combination of paths, rf choice (same location, same value) and coherence
 * order, each evaluated by every model. Invariant: the events of one
 * candidate are numbered initial writes first (one per location, in location
 * order), then each thread's events in program order. */
#include "exec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"

#define MAX_DOMAIN 64     /* values per location */
#define MAX_PATHS 2000000 /* paths per thread */
#define MAX_STEPS 100000  /* instructions executed along one path */

enum { EV_R, EV_W, EV_F };

typedef struct {
    uint8_t kind;
    uint8_t ord;   /* prog_ord_t */
    uint8_t scope; /* prog_scope_t */
    int16_t loc;
    int16_t rmw_w; /* for the read of an RMW: offset to its write within the path (+1), else 0 */
    prog_val_t val;
} pev_t;

typedef struct {
    size_t off; /* first event in the thread's event pool */
    int nev;
    prog_val_t regs[PROG_MAX_REGS];
} path_t;

typedef struct {
    path_t *paths;
    size_t npaths, cap;
    pev_t *pool;
    size_t npool, poolcap;
    int max_reads; /* most reads on one path */
    /* Writes on paths cut by the unrolling bound: a prefix of a real execution
       writes them, so they feed the value domains (a thread spinning on a
       location it wrote itself would otherwise never see its own value). */
    pev_t *cutw;
    size_t ncutw, capcutw;
} thread_paths_t;

typedef struct {
    prog_val_t *v;
    int n;
} domain_t;

typedef struct {
    const prog_t *p;
    const prog_thread_t *th;
    const exec_opts_t *o;
    const domain_t *dom;
    thread_paths_t *out;
    pev_t cur[CAT_MAX_EVENTS + 4];
    int ncur;
    int nreads;
    int *backcnt;
    long steps;
    bool cut;
    int err; /* 1: too many events, 2: too many paths, 3: too many steps */
} pathgen_t;

/* ---- outcome sets ---- */

void exec_outcomes_init(exec_outcomes_t *s, int nkeys)
{
    s->nkeys = nkeys;
    s->n = s->cap = 0;
    s->v = NULL;
    s->pred = NULL;
    s->pred_ctx = NULL;
}

void exec_outcomes_free(exec_outcomes_t *s)
{
    free(s->v);
    s->v = NULL;
    s->n = s->cap = 0;
}

static int vcmp(const prog_val_t *a, const prog_val_t *b, int n)
{
    for (int i = 0; i < n; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Binary search: index where V is or would go; *found set when present. */
static size_t osearch(const exec_outcomes_t *s, const prog_val_t *v, bool *found)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = vcmp(s->v + mid * (size_t)s->nkeys, v, s->nkeys);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = false;
    return lo;
}

bool exec_outcomes_add(exec_outcomes_t *s, const prog_val_t *v)
{
    bool found;
    size_t at = osearch(s, v, &found);
    if (found)
        return false;
    size_t k = (size_t)s->nkeys ? (size_t)s->nkeys : 1;
    size_t capv = s->cap * k;
    util_grow((void **)&s->v, &capv, (s->n + 1) * k, sizeof *s->v);
    s->cap = capv / k;
    memmove(s->v + (at + 1) * k, s->v + at * k, (s->n - at) * k * sizeof *s->v);
    memcpy(s->v + at * k, v, (size_t)s->nkeys * sizeof *v);
    s->n++;
    return true;
}

bool exec_outcomes_has(const exec_outcomes_t *s, const prog_val_t *v)
{
    if (s->pred)
        return s->pred(s->pred_ctx, v);
    bool found;
    osearch(s, v, &found);
    return found;
}

const prog_val_t *exec_outcome(const exec_outcomes_t *s, size_t i)
{
    return s->v + i * (size_t)s->nkeys;
}

void exec_result_free(exec_model_result_t *r)
{
    exec_outcomes_free(&r->allowed);
}

/* ---- layout ---- */

void exec_layout_init(exec_layout_t *l, const prog_t *p)
{
    int n = 0;
    uint32_t *written = xcalloc((size_t)p->nthreads + 1, sizeof *written);
    for (int t = 0; t < p->nthreads; t++) {
        for (int i = 0; i < p->threads[t].ninstr; i++) {
            const prog_instr_t *in = &p->threads[t].instr[i];
            if (prog_writes_reg(in))
                written[t] |= 1u << in->reg;
        }
        n += __builtin_popcount(written[t]);
    }
    l->nregkeys = n;
    l->nkeys = n + p->nlocs;
    l->thread = xcalloc((size_t)l->nkeys, sizeof(int));
    l->reg = xcalloc((size_t)l->nkeys, sizeof(int));
    l->loc = xcalloc((size_t)l->nkeys, sizeof(int));
    l->names = xcalloc((size_t)l->nkeys, sizeof(char *));
    int k = 0;
    for (int t = 0; t < p->nthreads; t++)
        for (int r = 0; r < PROG_MAX_REGS; r++)
            if (written[t] >> r & 1) {
                l->thread[k] = t;
                l->reg[k] = r;
                l->loc[k] = -1;
                char buf[300], rn[32];
                snprintf(buf, sizeof buf, "%d:%s", t, prog_reg_name(p, t, r, rn, sizeof rn));
                l->names[k++] = xstrdup(buf);
            }
    for (int i = 0; i < p->nlocs; i++) {
        l->thread[k] = -1;
        l->reg[k] = -1;
        l->loc[k] = i;
        l->names[k++] = xstrdup(p->locs[i].name);
    }
    free(written);
}

void exec_layout_free(exec_layout_t *l)
{
    for (int i = 0; i < l->nkeys; i++)
        free(l->names[i]);
    free(l->names);
    free(l->thread);
    free(l->reg);
    free(l->loc);
    memset(l, 0, sizeof *l);
}

bool exec_outcome_sat(const prog_t *p, const exec_layout_t *l, const prog_val_t *v)
{
    prog_val_t stack_regs[PROG_MAX_THREADS][PROG_MAX_REGS];
    prog_val_t mem[256];
    memset(stack_regs, 0, sizeof stack_regs);
    /* Scale programs (more threads than the explorer takes) get heap arrays. */
    prog_val_t(*regs)[PROG_MAX_REGS] = p->nthreads <= PROG_MAX_THREADS
                                           ? stack_regs
                                           : xcalloc((size_t)p->nthreads, sizeof *stack_regs);
    prog_val_t *m = p->nlocs <= 256 ? mem : xcalloc((size_t)p->nlocs, sizeof *m);
    for (int k = 0; k < l->nregkeys; k++)
        regs[l->thread[k]][l->reg[k]] = v[k];
    for (int k = l->nregkeys; k < l->nkeys; k++)
        m[l->loc[k]] = v[k];
    bool r = prog_cond_eval(p->cond, (const prog_val_t(*)[PROG_MAX_REGS])regs, m);
    if (m != mem)
        free(m);
    if (regs != stack_regs)
        free(regs);
    return r;
}

/* ---- stage 2: thread paths ---- */

static prog_val_t operand(const prog_operand_t *o, const prog_val_t *regs)
{
    return o->is_reg ? regs[o->v] : o->v;
}

/* The read part of an RMW/CAS order (a failed CAS is just this read). */
static prog_ord_t read_part(prog_ord_t o)
{
    switch (o) {
    case PROG_ORD_ACQREL: return PROG_ORD_ACQ;
    case PROG_ORD_REL: return PROG_ORD_RLX;
    default: return o;
    }
}

static void push_ev(pathgen_t *g, int kind, const prog_instr_t *in, prog_ord_t ord, prog_val_t val)
{
    pev_t e = {(uint8_t)kind, (uint8_t)ord, (uint8_t)in->scope, (int16_t)in->loc, 0, val};
    if (kind == EV_F)
        e.loc = -1;
    g->cur[g->ncur++] = e;
}

static void emit(pathgen_t *g, const prog_val_t *regs)
{
    thread_paths_t *o = g->out;
    if (o->npaths >= MAX_PATHS) {
        g->err = 2;
        return;
    }
    path_t pth;
    pth.off = o->npool;
    pth.nev = g->ncur;
    memcpy(pth.regs, regs, sizeof pth.regs);
    util_grow((void **)&o->pool, &o->poolcap, o->npool + (size_t)g->ncur, sizeof *o->pool);
    if (g->ncur > 0) /* a thread with no events: no pool yet, nothing to copy */
        memcpy(o->pool + o->npool, g->cur, (size_t)g->ncur * sizeof *g->cur);
    o->npool += (size_t)g->ncur;
    UTIL_PUSH(o->paths, o->npaths, o->cap, pth);
    if (g->nreads > o->max_reads)
        o->max_reads = g->nreads;
}

static void gen(pathgen_t *g, int pc, const prog_val_t *regs_in)
{
    prog_val_t regs[PROG_MAX_REGS];
    memcpy(regs, regs_in, sizeof regs);
    for (;;) {
        if (g->err)
            return;
        if (++g->steps > MAX_STEPS) {
            g->err = 3;
            return;
        }
        if (pc >= g->th->ninstr) {
            emit(g, regs);
            return;
        }
        if (g->ncur + 2 > CAT_MAX_EVENTS) {
            g->err = 1;
            return;
        }
        const prog_instr_t *in = &g->th->instr[pc];
        const domain_t *d = in->op == PROG_OP_LD || in->op == PROG_OP_RMW || in->op == PROG_OP_CAS
                                ? &g->dom[in->loc]
                                : NULL;
        switch (in->op) {
        case PROG_OP_LD:
            for (int i = 0; i < d->n && !g->err; i++) {
                push_ev(g, EV_R, in, in->ord, d->v[i]);
                g->nreads++;
                prog_val_t save = regs[in->reg];
                regs[in->reg] = d->v[i];
                gen(g, pc + 1, regs);
                regs[in->reg] = save;
                g->nreads--;
                g->ncur--;
            }
            return;
        case PROG_OP_RMW:
        case PROG_OP_CAS:
            for (int i = 0; i < d->n && !g->err; i++) {
                prog_val_t old = d->v[i];
                bool writes = true;
                prog_val_t nv = 0;
                if (in->op == PROG_OP_RMW) {
                    prog_val_t a = operand(&in->a, regs);
                    nv = in->rmw == PROG_RMW_ADD ? (prog_val_t)((uint64_t)old + (uint64_t)a) : a;
                } else {
                    writes = old == operand(&in->a, regs);
                    nv = operand(&in->b, regs);
                }
                push_ev(g, EV_R, in, writes ? in->ord : read_part(in->ord), old);
                g->nreads++;
                if (writes) {
                    g->cur[g->ncur - 1].rmw_w = 1;
                    push_ev(g, EV_W, in, in->ord, nv);
                }
                prog_val_t save = regs[in->reg];
                regs[in->reg] = old;
                gen(g, pc + 1, regs);
                regs[in->reg] = save;
                g->nreads--;
                g->ncur -= writes ? 2 : 1;
            }
            return;
        case PROG_OP_ST:
            push_ev(g, EV_W, in, in->ord, operand(&in->a, regs));
            gen(g, pc + 1, regs);
            g->ncur--;
            return;
        case PROG_OP_FENCE:
            push_ev(g, EV_F, in, in->ord, 0);
            gen(g, pc + 1, regs);
            g->ncur--;
            return;
        case PROG_OP_MOV:
            regs[in->reg] = operand(&in->a, regs);
            pc++;
            break;
        case PROG_OP_ADD:
        case PROG_OP_SUB:
        case PROG_OP_MUL:
        case PROG_OP_DIV: /* refused before the evaluator runs (prog_has_div) */
        case PROG_OP_REM:
            regs[in->reg] = prog_alu(in, operand(&in->a, regs), operand(&in->b, regs));
            pc++;
            break;
        case PROG_OP_NOP: pc++; break;
        /* A join has no event: its fences order memory; the interleavings it rules out
           are not rejected here, so the executions are a superset (kernels, which joins
           make, are skipped before the evaluator: prog_has_kernel_instr). */
        case PROG_OP_JOIN: pc++; break;
        case PROG_OP_BEQ:
        case PROG_OP_BNE:
        case PROG_OP_BLT:
        case PROG_OP_BGE:
        case PROG_OP_B: {
            bool taken = prog_branch_taken(in, regs[in->reg], operand(&in->a, regs));
            if (!taken) {
                pc++;
                break;
            }
            if (in->target <= pc) {
                if (g->backcnt[pc] >= g->o->unroll) {
                    g->cut = true;
                    for (int k = 0; k < g->ncur; k++)
                        if (g->cur[k].kind == EV_W)
                            UTIL_PUSH(g->out->cutw, g->out->ncutw, g->out->capcutw, g->cur[k]);
                    return;
                }
                g->backcnt[pc]++;
                gen(g, in->target, regs);
                g->backcnt[pc]--;
                return;
            }
            pc = in->target;
            break;
        }
        }
    }
}

static void paths_free(thread_paths_t *tp)
{
    free(tp->paths);
    free(tp->pool);
    free(tp->cutw);
    memset(tp, 0, sizeof *tp);
}

/* Enumerate all paths of every thread under domains DOM. */
static int gen_all(const prog_t *p, const exec_opts_t *o, const domain_t *dom, thread_paths_t *tps,
                   exec_stats_t *st, diag_t *err)
{
    for (int t = 0; t < p->nthreads; t++) {
        paths_free(&tps[t]);
        pathgen_t g;
        memset(&g, 0, sizeof g);
        g.p = p;
        g.th = &p->threads[t];
        g.o = o;
        g.dom = dom;
        g.out = &tps[t];
        g.backcnt = xcalloc((size_t)g.th->ninstr + 1, sizeof(int));
        prog_val_t regs[PROG_MAX_REGS] = {0};
        gen(&g, 0, regs);
        free(g.backcnt);
        if (g.cut)
            st->unroll_cut = true;
        if (g.err) {
            static const char *const why[] = {
                "", "a path of thread %d has more than 64 memory events",
                "thread %d has more than 2000000 paths",
                "a path of thread %d runs more than 100000 instructions"};
            char msg[128];
            snprintf(msg, sizeof msg, why[g.err], t);
            diag_set(err, p->file, 0, 0, "%s (lower --unroll or shrink the test)", msg);
            return -1;
        }
    }
    return 0;
}

/* ---- stage 1: value domains ---- */

static bool dom_add(domain_t *d, prog_val_t v)
{
    for (int i = 0; i < d->n; i++)
        if (d->v[i] == v)
            return false;
    int j = d->n;
    while (j > 0 && d->v[j - 1] > v) {
        d->v[j] = d->v[j - 1];
        j--;
    }
    d->v[j] = v;
    d->n++;
    return true;
}

static int compute_domains(const prog_t *p, const exec_opts_t *o, domain_t *dom,
                           thread_paths_t *tps, exec_stats_t *st, diag_t *err)
{
    for (int l = 0; l < p->nlocs; l++) {
        dom[l].v = xcalloc(MAX_DOMAIN + 1, sizeof(prog_val_t));
        dom[l].n = 0;
        dom_add(&dom[l], p->locs[l].init);
    }
    /* A value read in a grounded execution is derived through at most (total
     * reads) store-to-load steps, so that many rounds reach every such value. */
    for (int round = 0;; round++) {
        if (gen_all(p, o, dom, tps, st, err))
            return -1;
        int bound = 1;
        for (int t = 0; t < p->nthreads; t++)
            bound += tps[t].max_reads;
        bool changed = false;
        if (round >= bound)
            return 0;
        for (int t = 0; t < p->nthreads; t++)
            for (size_t i = 0; i < tps[t].npool + tps[t].ncutw; i++) {
                const pev_t *e =
                    i < tps[t].npool ? &tps[t].pool[i] : &tps[t].cutw[i - tps[t].npool];
                if (e->kind != EV_W)
                    continue;
                domain_t *d = &dom[e->loc];
                bool present = false;
                for (int k = 0; k < d->n; k++)
                    present |= d->v[k] == e->val;
                if (present)
                    continue;
                if (d->n >= MAX_DOMAIN) {
                    diag_set(err, p->file, 0, 0,
                             "location %s may hold more than %d values (lower --unroll)",
                             p->locs[e->loc].name, MAX_DOMAIN);
                    return -1;
                }
                dom_add(d, e->val);
                changed = true;
            }
        if (!changed)
            return 0;
    }
}

/* ---- stage 3: candidates ---- */

typedef struct {
    const prog_t *p;
    const exec_opts_t *o;
    exec_stats_t *st;
    const exec_layout_t *lay;
    thread_paths_t *tps;
    int nmodels;
    cat_ctx_t **ctx;
    exec_model_result_t *res;
    int choice[PROG_MAX_THREADS];
    /* current leaf */
    int n;
    int thread[CAT_MAX_EVENTS];
    int16_t loc[CAT_MAX_EVENTS];
    prog_val_t val[CAT_MAX_EVENTS];
    uint8_t kind[CAT_MAX_EVENTS];
    int reads[CAT_MAX_EVENTS], nreads;
    int cand[CAT_MAX_EVENTS][CAT_MAX_EVENTS], ncand[CAT_MAX_EVENTS];
    int rf[CAT_MAX_EVENTS]; /* per read (index into reads) */
    int *wl;                /* nlocs x CAT_MAX_EVENTS: writes of each location */
    int *nw;
    int *order;      /* nlocs x CAT_MAX_EVENTS: current coherence order */
    cat_exec_t base; /* everything but rf, co, fr */
    cat_exec_t x;
    prog_val_t *outv;
    int err;
    diag_t *diag;
} comb_t;

static void set_bit(uint64_t *rows, int a, int b)
{
    rows[a] |= 1ULL << b;
}

/* Build the leaf's events and the relations that do not depend on rf/co. */
static int build_leaf(comb_t *c)
{
    const prog_t *p = c->p;
    int n = p->nlocs;
    for (int t = 0; t < p->nthreads; t++)
        n += c->tps[t].paths[c->choice[t]].nev;
    if (n > CAT_MAX_EVENTS) {
        diag_set(c->diag, p->file, 0, 0,
                 "an execution has %d events (initial writes included); at most %d are supported",
                 n, CAT_MAX_EVENTS);
        c->err = 1;
        return -1;
    }
    if (n > c->st->max_events)
        c->st->max_events = n;
    c->n = n;
    cat_exec_t *x = &c->base;
    memset(x, 0, sizeof *x);
    x->n = n;
    int wgof[CAT_MAX_EVENTS], cuof[CAT_MAX_EVENTS];
    for (int l = 0; l < p->nlocs; l++) {
        c->thread[l] = -1;
        c->loc[l] = (int16_t)l;
        c->val[l] = p->locs[l].init;
        c->kind[l] = EV_W;
        x->sets[CAT_SET_W] |= 1ULL << l;
        x->sets[CAT_SET_IW] |= 1ULL << l;
        c->nw[l] = 0;
    }
    int e = p->nlocs;
    for (int t = 0; t < p->nthreads; t++) {
        const path_t *pth = &c->tps[t].paths[c->choice[t]];
        const pev_t *ev = pth->nev > 0 ? c->tps[t].pool + pth->off : NULL;
        int first = e;
        for (int i = 0; i < pth->nev; i++, e++) {
            const pev_t *pe = &ev[i];
            uint64_t bit = 1ULL << e;
            c->thread[e] = t;
            c->loc[e] = pe->loc;
            c->val[e] = pe->val;
            c->kind[e] = pe->kind;
            wgof[e] = p->threads[t].wg;
            cuof[e] = p->threads[t].cu;
            x->sets[pe->kind == EV_R ? CAT_SET_R : pe->kind == EV_W ? CAT_SET_W : CAT_SET_F] |= bit;
            static const cat_set_id_t ordset[] = {CAT_SET_PLAIN, CAT_SET_RLX,    CAT_SET_ACQ,
                                                  CAT_SET_REL,   CAT_SET_ACQREL, CAT_SET_SC};
            static const int scopeset[] = {-1, CAT_SET_WG, CAT_SET_AGENT, CAT_SET_SYSTEM,
                                           CAT_SET_RMA};
            x->sets[ordset[pe->ord]] |= bit;
            if (scopeset[pe->scope] >= 0)
                x->sets[scopeset[pe->scope]] |= bit;
            for (int j = first; j < e; j++)
                set_bit(x->rels[CAT_REL_PO], j, e);
            if (pe->rmw_w)
                set_bit(x->rels[CAT_REL_RMW], e, e + pe->rmw_w);
            if (pe->kind == EV_W)
                c->wl[pe->loc * CAT_MAX_EVENTS + c->nw[pe->loc]++] = e;
        }
    }
    x->sets[CAT_SET_M] = x->sets[CAT_SET_R] | x->sets[CAT_SET_W];
    /* Order labels belong to memory events and fences alike; IW carry none. */
    for (int a = 0; a < n; a++) {
        set_bit(x->rels[CAT_REL_ID], a, a);
        for (int b = 0; b < n; b++) {
            bool ma = c->kind[a] != EV_F, mb = c->kind[b] != EV_F;
            if (ma && mb && c->loc[a] == c->loc[b])
                set_bit(x->rels[CAT_REL_LOC], a, b);
            if (c->thread[a] >= 0 && c->thread[a] == c->thread[b])
                set_bit(x->rels[CAT_REL_INT], a, b);
            if (c->thread[a] != c->thread[b])
                set_bit(x->rels[CAT_REL_EXT], a, b);
            if (c->thread[a] >= 0 && c->thread[b] >= 0) {
                if (wgof[a] == wgof[b])
                    set_bit(x->rels[CAT_REL_WG], a, b);
                if (cuof[a] == cuof[b])
                    set_bit(x->rels[CAT_REL_CU], a, b);
                uint64_t ba = 1ULL << a;
                if ((x->sets[CAT_SET_WG] & ba) ? wgof[a] == wgof[b]
                                               : (x->sets[CAT_SET_AGENT] | x->sets[CAT_SET_SYSTEM] |
                                                  x->sets[CAT_SET_RMA]) &
                                                     ba)
                    set_bit(x->rels[CAT_REL_INCL], a, b);
            }
        }
    }
    /* rf candidates: writes of the same location with the value read. */
    c->nreads = 0;
    for (int r = 0; r < n; r++) {
        if (c->kind[r] != EV_R)
            continue;
        int k = c->nreads++;
        c->reads[k] = r;
        c->ncand[k] = 0;
        for (int w = 0; w < n; w++)
            if (c->kind[w] == EV_W && c->loc[w] == c->loc[r] && c->val[w] == c->val[r])
                c->cand[k][c->ncand[k]++] = w;
        if (c->ncand[k] == 0)
            return 1; /* this read's value has no source: no candidate here */
    }
    return 0;
}

static void eval_candidate(comb_t *c)
{
    const prog_t *p = c->p;
    if (c->o->max_candidates && c->st->candidates >= c->o->max_candidates) {
        c->st->incomplete = true;
        c->err = 2;
        return;
    }
    c->st->candidates++;
    cat_exec_t *x = &c->x;
    memcpy(x, &c->base, sizeof *x);
    for (int l = 0; l < p->nlocs; l++) {
        const int *ord = c->order + l * CAT_MAX_EVENTS;
        int m = c->nw[l];
        for (int i = 0; i < m; i++) {
            set_bit(x->rels[CAT_REL_CO], l, ord[i]);
            for (int j = i + 1; j < m; j++)
                set_bit(x->rels[CAT_REL_CO], ord[i], ord[j]);
        }
    }
    for (int k = 0; k < c->nreads; k++) {
        int r = c->reads[k], w = c->rf[k];
        set_bit(x->rels[CAT_REL_RF], w, r);
        x->rels[CAT_REL_FR][r] = x->rels[CAT_REL_CO][w];
    }
    /* Outcome: registers from the paths, memory from the co-last writes. */
    const exec_layout_t *lay = c->lay;
    for (int k = 0; k < lay->nregkeys; k++) {
        int t = lay->thread[k];
        c->outv[k] = c->tps[t].paths[c->choice[t]].regs[lay->reg[k]];
    }
    for (int k = lay->nregkeys; k < lay->nkeys; k++) {
        int l = lay->loc[k];
        int m = c->nw[l];
        c->outv[k] = m ? c->val[c->order[l * CAT_MAX_EVENTS + m - 1]] : p->locs[l].init;
    }
    for (int i = 0; i < c->nmodels; i++) {
        cat_result_t r;
        cat_eval(c->ctx[i], x, &r);
        if (!r.consistent)
            continue;
        exec_model_result_t *mr = &c->res[i];
        mr->consistent++;
        if (c->o->on_consistent) {
            int16_t loc[CAT_MAX_EVENTS];
            for (int e = 0; e < c->n; e++)
                loc[e] = c->kind[e] == EV_F ? -1 : c->loc[e];
            exec_graph_t g = {x, c->thread, loc, c->val, c->outv, r.flags};
            c->o->on_consistent(c->o->on_consistent_ctx, i, &g);
        }
        exec_outcomes_add(&mr->allowed, c->outv);
        if (r.flags) {
            mr->racy = true;
            mr->flags |= r.flags;
        }
    }
}

/* Enumerate coherence orders location by location (permutations in place). */
static void enum_co(comb_t *c, int l, int i)
{
    if (c->err)
        return;
    if (l == c->p->nlocs) {
        eval_candidate(c);
        return;
    }
    int m = c->nw[l];
    int *ord = c->order + l * CAT_MAX_EVENTS;
    if (i >= m) {
        enum_co(c, l + 1, 0);
        return;
    }
    for (int j = i; j < m && !c->err; j++) {
        int tmp = ord[i];
        ord[i] = ord[j];
        ord[j] = tmp;
        enum_co(c, l, i + 1);
        tmp = ord[i];
        ord[i] = ord[j];
        ord[j] = tmp;
    }
}

static void enum_rf(comb_t *c, int k)
{
    if (c->err)
        return;
    if (k == c->nreads) {
        for (int l = 0; l < c->p->nlocs; l++)
            memcpy(c->order + l * CAT_MAX_EVENTS, c->wl + l * CAT_MAX_EVENTS,
                   (size_t)c->nw[l] * sizeof(int));
        enum_co(c, 0, 0);
        return;
    }
    for (int j = 0; j < c->ncand[k] && !c->err; j++) {
        c->rf[k] = c->cand[k][j];
        enum_rf(c, k + 1);
    }
}

static void enum_paths(comb_t *c, int t)
{
    if (c->err)
        return;
    if (t == c->p->nthreads) {
        if (build_leaf(c) == 0)
            enum_rf(c, 0);
        return;
    }
    for (size_t i = 0; i < c->tps[t].npaths && !c->err; i++) {
        c->choice[t] = (int)i;
        enum_paths(c, t + 1);
    }
}

int exec_eval(const prog_t *p, cat_model_t *const *models, int nmodels, const exec_opts_t *opts,
              exec_model_result_t *results, exec_stats_t *stats, diag_t *err)
{
    memset(stats, 0, sizeof *stats);
    exec_layout_t lay;
    exec_layout_init(&lay, p);
    for (int i = 0; i < nmodels; i++) {
        memset(&results[i], 0, sizeof results[i]);
        exec_outcomes_init(&results[i].allowed, lay.nkeys);
    }
    int rc = -1;
    domain_t *dom = xcalloc((size_t)p->nlocs + 1, sizeof *dom);
    thread_paths_t *tps = xcalloc((size_t)p->nthreads, sizeof *tps);
    comb_t *c = NULL;
    if (p->nthreads > PROG_MAX_THREADS) {
        diag_set(err, p->file, 0, 0,
                 "too many threads for the model evaluator (%d; at most %d): lower the "
                 "workload's parameters (--param)",
                 p->nthreads, PROG_MAX_THREADS);
        goto out;
    }
    if (prog_has_indexed(p)) {
        diag_set(err, p->file, 0, 0,
                 "the model evaluator does not take register-indexed addresses (NAME[rK]): "
                 "its executions fix each access's location; run the kernel under cohcheck "
                 "check or sim");
        goto out;
    }
    if (prog_has_div(p)) {
        diag_set(err, p->file, 0, 0,
                 "the model evaluator does not take div or rem (a zero divisor is a run error "
                 "its executions cannot raise): run the test under cohcheck check or sim");
        goto out;
    }
    if (p->nlocs > CAT_MAX_EVENTS) {
        diag_set(err, p->file, 0, 0, "too many locations (%d; at most %d)", p->nlocs,
                 CAT_MAX_EVENTS);
        goto out;
    }
    if (compute_domains(p, opts, dom, tps, stats, err))
        goto out;
    for (int t = 0; t < p->nthreads; t++)
        stats->paths += tps[t].npaths;
    c = xcalloc(1, sizeof *c);
    c->p = p;
    c->o = opts;
    c->st = stats;
    c->lay = &lay;
    c->tps = tps;
    c->nmodels = nmodels;
    c->res = results;
    c->diag = err;
    c->ctx = xcalloc((size_t)nmodels + 1, sizeof *c->ctx);
    for (int i = 0; i < nmodels; i++)
        c->ctx[i] = cat_ctx_new(models[i]);
    c->wl = xcalloc((size_t)p->nlocs * CAT_MAX_EVENTS + 1, sizeof(int));
    c->order = xcalloc((size_t)p->nlocs * CAT_MAX_EVENTS + 1, sizeof(int));
    c->nw = xcalloc((size_t)p->nlocs + 1, sizeof(int));
    c->outv = xcalloc((size_t)lay.nkeys + 1, sizeof(prog_val_t));
    bool any = true;
    for (int t = 0; t < p->nthreads; t++)
        any &= tps[t].npaths > 0;
    if (any)
        enum_paths(c, 0);
    rc = c->err == 1 ? -1 : 0;
out:
    if (c) {
        for (int i = 0; i < nmodels; i++)
            cat_ctx_free(c->ctx[i]);
        free(c->ctx);
        free(c->wl);
        free(c->order);
        free(c->nw);
        free(c->outv);
        free(c);
    }
    for (int t = 0; t < p->nthreads; t++)
        paths_free(&tps[t]);
    free(tps);
    for (int l = 0; l < p->nlocs; l++)
        free(dom[l].v);
    free(dom);
    exec_layout_free(&lay);
    if (rc)
        for (int i = 0; i < nmodels; i++)
            exec_result_free(&results[i]);
    return rc;
}

void exec_outcome_json(strbuf_t *b, const exec_layout_t *lay, const prog_val_t *v)
{
    sb_putc(b, '{');
    for (int k = 0; k < lay->nkeys; k++) {
        if (k)
            sb_putc(b, ',');
        sb_json_str(b, lay->names[k]);
        sb_printf(b, ":%lld", (long long)v[k]);
    }
    sb_putc(b, '}');
}
