/* explore_live.c - the liveness check behind --liveness (docs/liveness.md): the
 * explored graph kept as an edge list, then AG EF done decided on it.
 *
 * During the search every expanded state's steps are appended as (source, target,
 * position, flag) edges, and a fingerprint -> number table finds the target of a
 * step into a state seen before. After a complete search, two backward searches
 * from the finished (terminal) states mark the states that can still finish: over
 * the progress steps (flag 0: the system's own steps and the environment events
 * assumed to happen), and over every step. A state marked by neither can never
 * finish whatever happens (a hard livelock); one marked only by the second
 * finishes only if an environment event that need not happen does. Tarjan's
 * strongly connected components of those states give the lasso's cycle.
 *
 * Invariant: an edge's source and target are state numbers below live_t.nstates,
 * and every state a recorded edge leaves from was fully expanded. */
#include "explore_int.h"

#include <stdlib.h>
#include <string.h>

#define LIVE_NONE 0xffffffffu
#define SKIP_NONE 0xfffffffeu /* no group is left out (tarjan) */

struct live {
    uint32_t *src, *dst, *ord, *grp; /* grp: fairness group, LIVE_NONE: none */
    uint8_t *flag;
    size_t nedges, ecap;
    uint64_t *fp, *lo; /* per state: its fingerprint (lo: NULL for 64-bit) */
    uint8_t *term;     /* per state: 1 when terminal */
    uint32_t *done;    /* per state: its finished threads (bit t) */
    size_t nstates, scap;
    uint32_t *tab; /* open addressing: state numbers by fingerprint, LIVE_NONE empty */
    size_t tcap;
    uint64_t *gkey; /* per fairness group: the explorer's key */
    size_t ngroups, gcap;
    uint32_t *gtab; /* open addressing: group numbers by key, LIVE_NONE empty */
    size_t gtcap;
    bool wide;
};

live_t *live_new(bool wide)
{
    live_t *l = xcalloc(1, sizeof *l);
    l->wide = wide;
    return l;
}

void live_free(live_t *l)
{
    if (!l)
        return;
    free(l->src);
    free(l->dst);
    free(l->ord);
    free(l->grp);
    free(l->gkey);
    free(l->gtab);
    free(l->done);
    free(l->flag);
    free(l->fp);
    free(l->lo);
    free(l->term);
    free(l->tab);
    free(l);
}

size_t live_bytes(const live_t *l)
{
    return l->ecap * 17 + l->scap * (l->wide ? 21 : 13) + l->tcap * 4 + l->gcap * 8 + l->gtcap * 4;
}

static size_t slot_of(const live_t *l, uint64_t fp)
{
    return (size_t)((fp * 0x9e3779b97f4a7c15ull) >> 20) & (l->tcap - 1);
}

static int tab_grow(live_t *l)
{
    size_t cap = l->tcap ? l->tcap * 2 : 1024;
    uint32_t *t = malloc(cap * sizeof *t);
    if (!t)
        return -1;
    memset(t, 0xff, cap * sizeof *t);
    uint32_t *old = l->tab;
    size_t ocap = l->tcap;
    l->tab = t;
    l->tcap = cap;
    for (size_t i = 0; i < ocap; i++) {
        if (old[i] == LIVE_NONE)
            continue;
        size_t k = slot_of(l, l->fp[old[i]]);
        while (t[k] != LIVE_NONE)
            k = (k + 1) & (cap - 1);
        t[k] = old[i];
    }
    free(old);
    return 0;
}

int live_add_state(live_t *l, uint32_t id, uint64_t fp, uint64_t lo)
{
    if (id != l->nstates)
        return -1;
    if (l->nstates == l->scap) {
        size_t c = l->scap ? l->scap * 2 : 1024;
        uint64_t *f = realloc(l->fp, c * sizeof *f);
        if (!f)
            return -1;
        l->fp = f;
        uint8_t *t = realloc(l->term, c);
        if (!t)
            return -1;
        l->term = t;
        uint32_t *dn = realloc(l->done, c * sizeof *dn);
        if (!dn)
            return -1;
        l->done = dn;
        if (l->wide) {
            uint64_t *o = realloc(l->lo, c * sizeof *o);
            if (!o)
                return -1;
            l->lo = o;
        }
        l->scap = c;
    }
    if ((l->nstates + 1) * 4 > l->tcap * 3 && tab_grow(l))
        return -1;
    l->fp[id] = fp;
    if (l->wide)
        l->lo[id] = lo;
    l->term[id] = 0;
    l->done[id] = 0;
    size_t k = slot_of(l, fp);
    while (l->tab[k] != LIVE_NONE)
        k = (k + 1) & (l->tcap - 1);
    l->tab[k] = id;
    l->nstates++;
    return 0;
}

int64_t live_find(const live_t *l, uint64_t fp, uint64_t lo)
{
    if (!l->tcap)
        return -1;
    for (size_t k = slot_of(l, fp); l->tab[k] != LIVE_NONE; k = (k + 1) & (l->tcap - 1)) {
        uint32_t id = l->tab[k];
        if (l->fp[id] == fp && (!l->wide || l->lo[id] == lo))
            return id;
    }
    return -1;
}

/* The dense number of fairness group KEY (a hash table: messages of unordered channels
 * are groups of their own, so there may be many). */
static uint32_t group_of(live_t *l, uint64_t key)
{
    if (key == UINT64_MAX)
        return LIVE_NONE;
    if ((l->ngroups + 1) * 2 > l->gtcap) {
        size_t cap = l->gtcap ? l->gtcap * 2 : 64;
        uint32_t *t = xmalloc(cap * sizeof *t);
        memset(t, 0xff, cap * sizeof *t);
        for (size_t g = 0; g < l->ngroups; g++) {
            size_t k = (size_t)((l->gkey[g] * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
            while (t[k] != LIVE_NONE)
                k = (k + 1) & (cap - 1);
            t[k] = (uint32_t)g;
        }
        free(l->gtab);
        l->gtab = t;
        l->gtcap = cap;
    }
    size_t k = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & (l->gtcap - 1);
    for (; l->gtab[k] != LIVE_NONE; k = (k + 1) & (l->gtcap - 1))
        if (l->gkey[l->gtab[k]] == key)
            return l->gtab[k];
    UTIL_PUSH(l->gkey, l->ngroups, l->gcap, key);
    l->gtab[k] = (uint32_t)(l->ngroups - 1);
    return l->gtab[k];
}

int live_add_edge(live_t *l, uint32_t src, uint32_t dst, uint32_t ord, uint8_t flag, uint64_t group)
{
    if (l->nedges == l->ecap) {
        size_t c = l->ecap ? l->ecap * 2 : 4096;
        uint32_t *a = realloc(l->src, c * sizeof *a);
        if (!a)
            return -1;
        l->src = a;
        if (!(a = realloc(l->dst, c * sizeof *a)))
            return -1;
        l->dst = a;
        if (!(a = realloc(l->ord, c * sizeof *a)))
            return -1;
        l->ord = a;
        if (!(a = realloc(l->grp, c * sizeof *a)))
            return -1;
        l->grp = a;
        uint8_t *f = realloc(l->flag, c);
        if (!f)
            return -1;
        l->flag = f;
        l->ecap = c;
    }
    l->src[l->nedges] = src;
    l->dst[l->nedges] = dst;
    l->ord[l->nedges] = ord;
    l->flag[l->nedges] = flag;
    l->grp[l->nedges] = group_of(l, group);
    l->nedges++;
    return 0;
}

void live_set_terminal(live_t *l, uint32_t id)
{
    if (id < l->nstates)
        l->term[id] = 1;
}

void live_set_done(live_t *l, uint32_t id, uint32_t done)
{
    if (id < l->nstates)
        l->done[id] = done;
}

/* ---- the analysis ---- */

typedef struct {
    const live_t *l;
    uint32_t n;
    size_t *foff, *roff; /* CSR offsets (n + 1) into fe, re: edge numbers by source, target */
    uint32_t *fe, *re;
} graph_t;

/* Counting sort of the edges by KEY into OFF (n + 1) and IDX. */
static void csr(uint32_t n, const uint32_t *key, size_t ne, size_t **off, uint32_t **idx)
{
    size_t *o = xcalloc((size_t)n + 2, sizeof *o);
    uint32_t *x = xmalloc((ne + 1) * sizeof *x);
    for (size_t e = 0; e < ne; e++)
        o[key[e] + 2]++;
    for (uint32_t v = 0; v < n; v++)
        o[v + 2] += o[v + 1];
    for (size_t e = 0; e < ne; e++)
        x[o[key[e] + 1]++] = (uint32_t)e;
    *off = o;
    *idx = x;
}

/* Mark in CAN every state from which a terminal state is reachable over the edges
 * whose flag is 0 (ALL: over every edge). */
static void backward(const graph_t *g, bool all, uint8_t *can)
{
    uint32_t *q = xmalloc(((size_t)g->n + 1) * sizeof *q);
    size_t h = 0, t = 0;
    for (uint32_t v = 0; v < g->n; v++)
        if ((can[v] = g->l->term[v]))
            q[t++] = v;
    while (h < t) {
        uint32_t v = q[h++];
        for (size_t k = g->roff[v]; k < g->roff[v + 1]; k++) {
            uint32_t e = g->re[k], u = g->l->src[e];
            if (!can[u] && (all || !g->l->flag[e])) {
                can[u] = 1;
                q[t++] = u;
            }
        }
    }
    free(q);
}

/* Tarjan's algorithm (iterative) on the states IN selects, over the steps not in group
 * SKIP (and, with SKIP other than SKIP_NONE, not environment events without a group):
 * COMP[v] gets v's component number, and CYC[component] 1 when it holds a cycle (more
 * than one state, or a step from a state to itself). */
/* Does step E take part in a component search leaving out group SKIP? A starvation's
 * cycle (SKIP a thread's group) has no environment event that need not happen: they
 * happen finitely often on a fair execution. */
static bool step_in(const live_t *l, uint32_t e, uint32_t skip)
{
    return l->grp[e] != skip && (skip == SKIP_NONE || l->grp[e] != LIVE_NONE);
}

static void tarjan(const graph_t *g, const uint8_t *in, uint32_t skip, uint32_t *comp, uint8_t *cyc)
{
    uint32_t n = g->n, idx = 0, nc = 0;
    uint32_t *index = xmalloc(((size_t)n + 1) * sizeof *index);
    uint32_t *low = xmalloc(((size_t)n + 1) * sizeof *low);
    uint32_t *stk = xmalloc(((size_t)n + 1) * sizeof *stk);
    uint8_t *on = xcalloc((size_t)n + 1, 1);
    struct frame {
        uint32_t v;
        size_t k;
    } *call = xmalloc(((size_t)n + 1) * sizeof *call);
    size_t sp = 0, cp = 0;
    for (uint32_t v = 0; v < n; v++)
        index[v] = comp[v] = LIVE_NONE;
    for (uint32_t r = 0; r < n; r++) {
        if (!in[r] || index[r] != LIVE_NONE)
            continue;
        index[r] = low[r] = idx++;
        stk[sp++] = r;
        on[r] = 1;
        call[cp++] = (struct frame){r, g->foff[r]};
        while (cp) {
            struct frame *f = &call[cp - 1];
            uint32_t v = f->v;
            if (f->k < g->foff[v + 1]) {
                uint32_t e = g->fe[f->k++], w = g->l->dst[e];
                if (!in[w] || !step_in(g->l, e, skip))
                    continue;
                if (index[w] == LIVE_NONE) {
                    index[w] = low[w] = idx++;
                    stk[sp++] = w;
                    on[w] = 1;
                    call[cp++] = (struct frame){w, g->foff[w]};
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) {
                uint32_t w, size = 0;
                do {
                    w = stk[--sp];
                    on[w] = 0;
                    comp[w] = nc;
                    size++;
                } while (w != v);
                cyc[nc] = size > 1;
                nc++;
            }
            cp--;
            if (cp && low[v] < low[call[cp - 1].v])
                low[call[cp - 1].v] = low[v];
        }
    }
    for (size_t e = 0; e < g->l->nedges; e++) /* self-loops */
        if (g->l->src[e] == g->l->dst[e] && in[g->l->src[e]] && step_in(g->l, e, skip))
            cyc[comp[g->l->src[e]]] = 1;
    free(index);
    free(low);
    free(stk);
    free(on);
    free(call);
}

/* The shortest cycle from S back to S within S's component: its edges into OUT. */
static void shortest_cycle(const graph_t *g, const uint32_t *comp, uint32_t s, live_report_t *out)
{
    uint32_t n = g->n;
    uint32_t *via = xmalloc(((size_t)n + 1) * sizeof *via); /* edge that reached a state */
    uint32_t *q = xmalloc(((size_t)n + 1) * sizeof *q);
    for (uint32_t v = 0; v < n; v++)
        via[v] = LIVE_NONE;
    size_t h = 0, t = 0;
    uint32_t last = LIVE_NONE; /* the edge that closes the cycle */
    q[t++] = s;
    while (h < t && last == LIVE_NONE) {
        uint32_t v = q[h++];
        for (size_t k = g->foff[v]; k < g->foff[v + 1]; k++) {
            uint32_t e = g->fe[k], w = g->l->dst[e];
            if (comp[w] != comp[s])
                continue;
            if (w == s) {
                last = e;
                break;
            }
            if (via[w] == LIVE_NONE) {
                via[w] = e;
                q[t++] = w;
            }
        }
    }
    size_t len = 0;
    for (uint32_t e = last; e != LIVE_NONE; e = g->l->src[e] == s ? LIVE_NONE : via[g->l->src[e]])
        len++;
    out->ncycle = len;
    out->cycle_ords = xmalloc((len + 1) * sizeof *out->cycle_ords);
    out->cycle_ids = xmalloc((len + 1) * sizeof *out->cycle_ids);
    size_t i = len;
    for (uint32_t e = last; e != LIVE_NONE; e = g->l->src[e] == s ? LIVE_NONE : via[g->l->src[e]]) {
        i--;
        out->cycle_ords[i] = g->l->ord[e];
        out->cycle_ids[i] = g->l->src[e];
    }
    free(via);
    free(q);
}

/* The environment flags of the steps from the states FROM selects to states that
 * can finish (CAN): which environment events break the livelock. */
static void breakers(const graph_t *g, const uint8_t *from, const uint8_t *can, live_report_t *out)
{
    for (size_t e = 0; e < g->l->nedges; e++)
        if (g->l->flag[e] && from[g->l->src[e]] && can[g->l->dst[e]])
            out->breaks[g->l->flag[e]] = 1;
}

int live_analyse(const live_t *l, live_report_t *out)
{
    memset(out, 0, sizeof *out);
    out->entry = LIVE_NONE;
    graph_t g = {l, (uint32_t)l->nstates, NULL, NULL, NULL, NULL};
    uint32_t n = g.n;
    csr(n, l->src, l->nedges, &g.foff, &g.fe);
    csr(n, l->dst, l->nedges, &g.roff, &g.re);
    uint8_t *canp = xmalloc((size_t)n + 1), *cana = xmalloc((size_t)n + 1);
    backward(&g, false, canp);
    backward(&g, true, cana);
    uint8_t *in = xmalloc((size_t)n + 1);
    for (uint32_t v = 0; v < n; v++) {
        out->stuck += !canp[v];
        out->hard += !cana[v];
    }
    if (out->stuck) {
        /* Report a hard livelock when there is one; else one only the environment breaks. */
        bool hard = out->hard > 0;
        out->env_only = !hard;
        for (uint32_t v = 0; v < n; v++)
            in[v] = hard ? !cana[v] : !canp[v];
        uint32_t *comp = xmalloc(((size_t)n + 1) * sizeof *comp);
        uint8_t *cyc = xcalloc((size_t)n + 1, 1);
        tarjan(&g, in, SKIP_NONE, comp, cyc);
        for (uint32_t v = 0; v < n && out->entry == LIVE_NONE; v++)
            if (in[v] && cyc[comp[v]])
                out->entry = v;
        if (out->entry != LIVE_NONE) {
            shortest_cycle(&g, comp, out->entry, out);
        } else {
            /* No cycle: a state whose every step leaves the set (an environment event). */
            for (uint32_t v = 0; v < n && out->entry == LIVE_NONE; v++) {
                bool leaves = true;
                for (size_t k = g.foff[v]; in[v] && k < g.foff[v + 1] && leaves; k++)
                    leaves = !in[l->dst[g.fe[k]]];
                if (in[v] && leaves)
                    out->entry = v;
            }
        }
        if (!hard && out->entry != LIVE_NONE) {
            uint8_t *from = xcalloc((size_t)n + 1, 1);
            uint32_t c = comp[out->entry];
            for (uint32_t v = 0; v < n; v++)
                from[v] = in[v] && comp[v] == c;
            from[out->entry] = 1;
            breakers(&g, from, cana, out);
            bool any = false;
            for (int k = 0; k < 256; k++)
                any |= out->breaks[k];
            if (!any)
                breakers(&g, in, cana, out);
            free(from);
        }
        free(comp);
        free(cyc);
    }
    free(in);
    free(canp);
    free(cana);
    free(g.foff);
    free(g.fe);
    free(g.roff);
    free(g.re);
    return out->stuck && out->entry != LIVE_NONE;
}

/* ---- starvation under fairness ---- */

typedef struct {
    const graph_t *g;
    const uint8_t *in;
    const uint32_t *comp;
    uint32_t c, skip; /* the component searched, the thread's group left out */
    uint32_t *via, *q;
    uint32_t *stamp, *encnt; /* per group: last state counted, states it is enabled in */
    uint8_t *seen, *taken;   /* per state: on the cycle; per group: taken on it */
    uint32_t nseen;
    live_report_t *out;
    size_t cap;
    uint32_t *touched; /* the groups with encnt > 0, ntouched of them */
    size_t ntouched;
} fair_t;

/* Is edge E a step of the searched component (both ends in it, not the thread's)? */
static bool fair_edge(const fair_t *f, uint32_t e)
{
    const live_t *l = f->g->l;
    uint32_t d = l->dst[e];
    return f->in[d] && f->comp[d] == f->c && l->grp[e] != f->skip && l->grp[e] != LIVE_NONE;
}

/* Count V's enabled groups once (the cycle visits V). */
static void fair_visit(fair_t *f, uint32_t v)
{
    if (f->seen[v])
        return;
    f->seen[v] = 1;
    f->nseen++;
    const graph_t *g = f->g;
    for (size_t k = g->foff[v]; k < g->foff[v + 1]; k++) {
        uint32_t gr = g->l->grp[g->fe[k]];
        if (gr != LIVE_NONE && f->stamp[gr] != v + 1) {
            f->stamp[gr] = v + 1;
            if (!f->encnt[gr]++)
                f->touched[f->ntouched++] = gr;
        }
    }
}

static bool has_group(const graph_t *g, uint32_t v, uint32_t gr)
{
    for (size_t k = g->foff[v]; k < g->foff[v + 1]; k++)
        if (g->l->grp[g->fe[k]] == gr)
            return true;
    return false;
}

/* Extend the cycle from FROM by a shortest path within the component to a state where
 * group GR is disabled (WANT_OFF) or through a GR step, or (GR LIVE_NONE) back to TO.
 * Returns the state reached, LIVE_NONE when there is no such path. */
static uint32_t fair_path(fair_t *f, uint32_t from, uint32_t gr, bool want_off, uint32_t to)
{
    const graph_t *g = f->g;
    const live_t *l = g->l;
    size_t h = 0, t = 0;
    f->q[t++] = from;
    f->via[from] = LIVE_NONE - 1; /* the root */
    uint32_t end = LIVE_NONE, last = LIVE_NONE;
    while (h < t && end == LIVE_NONE) {
        uint32_t v = f->q[h++];
        for (size_t k = g->foff[v]; k < g->foff[v + 1]; k++) {
            uint32_t e = g->fe[k], w = l->dst[e];
            if (!fair_edge(f, e))
                continue;
            bool hit = gr == LIVE_NONE
                           ? w == to
                           : (!want_off && l->grp[e] == gr) || (want_off && !has_group(g, w, gr));
            if (hit) {
                end = w;
                last = e;
                break;
            }
            if (f->via[w] == LIVE_NONE) {
                f->via[w] = e;
                f->q[t++] = w;
            }
        }
    }
    size_t n = 0;
    for (uint32_t e = last; e != LIVE_NONE && e != LIVE_NONE - 1;
         e = l->src[e] == from ? LIVE_NONE : f->via[l->src[e]])
        n++;
    live_report_t *o = f->out;
    if (last != LIVE_NONE) {
        if (o->ncycle + n + 1 > f->cap) {
            f->cap = (o->ncycle + n + 1) * 2;
            o->cycle_ords = xrealloc(o->cycle_ords, f->cap * sizeof *o->cycle_ords);
            o->cycle_ids = xrealloc(o->cycle_ids, f->cap * sizeof *o->cycle_ids);
        }
        size_t i = o->ncycle + n;
        for (uint32_t e = last; e != LIVE_NONE;
             e = l->src[e] == from ? LIVE_NONE : f->via[l->src[e]]) {
            i--;
            o->cycle_ords[i] = l->ord[e];
            o->cycle_ids[i] = l->src[e];
            if (l->grp[e] != LIVE_NONE)
                f->taken[l->grp[e]] = 1;
            fair_visit(f, l->dst[e]);
        }
        o->ncycle += n;
    }
    for (size_t i = 0; i < t; i++) /* reset the search marks */
        f->via[f->q[i]] = LIVE_NONE;
    return end;
}

/* Build a fair cycle from S through component C (greedy: while some group enabled at
 * every state visited so far (STRONG: at some state) was not taken, walk to a state
 * where it is off, or through one of its steps; then back to S). */
static void fair_cycle(fair_t *f, uint32_t s, bool strong)
{
    uint32_t cur = s;
    fair_visit(f, s);
    for (int guard = 0; guard < 100000; guard++) {
        uint32_t pick = LIVE_NONE;
        for (size_t i = 0; i < f->ntouched && pick == LIVE_NONE; i++) {
            uint32_t gr = f->touched[i];
            if (!f->taken[gr] && (strong || f->encnt[gr] == f->nseen))
                pick = gr;
        }
        if (pick == LIVE_NONE) {
            if (cur == s && f->out->ncycle)
                return;
            cur = fair_path(f, cur, LIVE_NONE, false, s);
            if (cur == LIVE_NONE)
                return;
            continue;
        }
        uint32_t nx = fair_path(f, cur, pick, !strong && f->encnt[pick] == f->nseen, 0);
        if (nx == LIVE_NONE && !strong)
            nx = fair_path(f, cur, pick, false, 0);
        if (nx == LIVE_NONE) {
            f->taken[pick] = 1; /* cannot happen in a fair component; do not loop */
            continue;
        }
        cur = nx;
    }
}

/* Is component C (its states MEM[0..n)) fair? Marks in BAD the states to drop when not
 * (weak: all; strong: those where a group with no step inside is enabled). */
static bool fair_comp(fair_t *f, const uint32_t *mem, size_t n, bool strong, uint8_t *bad)
{
    const graph_t *g = f->g;
    const live_t *l = g->l;
    uint8_t *inside = f->taken; /* scratch: per group, a step inside C */
    for (size_t i = 0; i < n; i++)
        fair_visit(f, mem[i]);
    for (size_t i = 0; i < n; i++)
        for (size_t k = g->foff[mem[i]]; k < g->foff[mem[i] + 1]; k++) {
            uint32_t e = g->fe[k];
            if (fair_edge(f, e) && l->grp[e] != LIVE_NONE)
                inside[l->grp[e]] = 1;
        }
    bool fair = true;
    for (size_t i = 0; i < f->ntouched; i++) {
        uint32_t gr = f->touched[i];
        if (!inside[gr] && (strong || f->encnt[gr] == n))
            fair = false;
    }
    if (!fair)
        for (size_t i = 0; i < n; i++) {
            bool drop = !strong;
            for (size_t k = g->foff[mem[i]]; k < g->foff[mem[i] + 1] && !drop; k++) {
                uint32_t gr = l->grp[g->fe[k]];
                drop = gr != LIVE_NONE && !inside[gr];
            }
            bad[mem[i]] = drop;
        }
    for (size_t i = 0; i < n; i++)
        f->seen[mem[i]] = 0;
    for (size_t i = 0; i < f->ntouched; i++) {
        uint32_t gr = f->touched[i];
        f->encnt[gr] = 0;
        f->stamp[gr] = 0;
    }
    for (size_t i = 0; i < n; i++) /* the groups of steps inside C */
        for (size_t k = g->foff[mem[i]]; k < g->foff[mem[i] + 1]; k++)
            if (l->grp[g->fe[k]] != LIVE_NONE)
                inside[l->grp[g->fe[k]]] = 0;
    f->ntouched = 0;
    f->nseen = 0;
    return fair;
}

/* One thread: a fair component of the states where it has not finished, its own steps
 * left out. 1 with the lasso in F->out. */
static int starve_thread(fair_t *f, uint8_t *in, bool strong)
{
    const graph_t *g = f->g;
    uint32_t n = g->n;
    uint32_t *comp = xmalloc(((size_t)n + 1) * sizeof *comp);
    uint8_t *cyc = xcalloc((size_t)n + 1, 1), *bad = xcalloc((size_t)n + 1, 1);
    uint32_t *mem = xmalloc(((size_t)n + 1) * sizeof *mem), *start = NULL;
    int found = 0;
    for (bool again = true; again && !found;) {
        again = false;
        memset(cyc, 0, (size_t)n + 1);
        tarjan(g, in, f->skip, comp, cyc);
        uint32_t nc = 0;
        for (uint32_t v = 0; v < n; v++)
            if (in[v] && comp[v] + 1 > nc)
                nc = comp[v] + 1;
        free(start);
        start = xcalloc((size_t)nc + 2, sizeof *start); /* members by component */
        for (uint32_t v = 0; v < n; v++)
            if (in[v])
                start[comp[v] + 2]++;
        for (uint32_t c = 0; c < nc; c++)
            start[c + 2] += start[c + 1];
        for (uint32_t v = 0; v < n; v++)
            if (in[v])
                mem[start[comp[v] + 1]++] = v;
        /* Components in order of their least state: the shortest prefix first. */
        for (uint32_t v = 0; v < n && !found; v++) {
            if (!in[v] || !cyc[comp[v]])
                continue;
            uint32_t c = comp[v];
            if (mem[start[c]] != v) /* not its least state: seen */
                continue;
            f->c = c;
            f->comp = comp;
            f->in = in;
            if (fair_comp(f, mem + start[c], start[c + 1] - start[c], strong, bad)) {
                f->out->entry = v;
                fair_cycle(f, v, strong);
                found = 1;
            } else {
                for (uint32_t i = start[c]; i < start[c + 1]; i++)
                    if (bad[mem[i]]) {
                        in[mem[i]] = 0;
                        bad[mem[i]] = 0;
                        again = strong;
                    }
            }
        }
    }
    free(start);
    free(comp);
    free(cyc);
    free(bad);
    free(mem);
    return found;
}

int live_analyse_fair(const live_t *l, int nthreads, const uint64_t *thread_keys, bool strong,
                      live_report_t *out)
{
    memset(out, 0, sizeof *out);
    out->entry = LIVE_NONE;
    out->thread = -1;
    graph_t g = {l, (uint32_t)l->nstates, NULL, NULL, NULL, NULL};
    uint32_t n = g.n;
    csr(n, l->src, l->nedges, &g.foff, &g.fe);
    csr(n, l->dst, l->nedges, &g.roff, &g.re);
    size_t ng = l->ngroups + 1;
    fair_t f = {&g, NULL, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, 0, out, 0, NULL, 0};
    f.via = xmalloc(((size_t)n + 1) * sizeof *f.via);
    f.q = xmalloc(((size_t)n + 1) * sizeof *f.q);
    f.seen = xcalloc((size_t)n + 1, 1);
    f.stamp = xcalloc(ng, sizeof *f.stamp);
    f.encnt = xcalloc(ng, sizeof *f.encnt);
    f.taken = xcalloc(ng, 1);
    f.touched = xmalloc(ng * sizeof *f.touched);
    for (uint32_t v = 0; v < n; v++)
        f.via[v] = LIVE_NONE;
    uint8_t *in = xmalloc((size_t)n + 1);
    int found = 0;
    for (int t = 0; t < nthreads && !found; t++) {
        f.skip = SKIP_NONE - 1; /* a thread that never steps: no group to leave out */
        for (size_t gr = 0; gr < l->ngroups; gr++)
            if (l->gkey[gr] == thread_keys[t])
                f.skip = (uint32_t)gr;
        for (uint32_t v = 0; v < n; v++)
            in[v] = !(l->done[v] >> t & 1);
        found = starve_thread(&f, in, strong);
        if (found)
            out->thread = t;
    }
    free(in);
    free(f.via);
    free(f.q);
    free(f.seen);
    free(f.stamp);
    free(f.encnt);
    free(f.taken);
    free(f.touched);
    free(g.foff);
    free(g.fe);
    free(g.roff);
    free(g.re);
    return found;
}

void live_report_free(live_report_t *r)
{
    free(r->cycle_ords);
    free(r->cycle_ids);
    memset(r, 0, sizeof *r);
}
