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

struct live {
    uint32_t *src, *dst, *ord;
    uint8_t *flag;
    size_t nedges, ecap;
    uint64_t *fp, *lo; /* per state: its fingerprint (lo: NULL for 64-bit) */
    uint8_t *term;     /* per state: 1 when terminal */
    size_t nstates, scap;
    uint32_t *tab; /* open addressing: state numbers by fingerprint, LIVE_NONE empty */
    size_t tcap;
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
    free(l->flag);
    free(l->fp);
    free(l->lo);
    free(l->term);
    free(l->tab);
    free(l);
}

size_t live_bytes(const live_t *l)
{
    return l->ecap * 13 + l->scap * (l->wide ? 17 : 9) + l->tcap * 4;
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

int live_add_edge(live_t *l, uint32_t src, uint32_t dst, uint32_t ord, uint8_t flag)
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
    l->nedges++;
    return 0;
}

void live_set_terminal(live_t *l, uint32_t id)
{
    if (id < l->nstates)
        l->term[id] = 1;
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

/* Tarjan's algorithm (iterative) on the states IN selects: COMP[v] gets v's
 * component number, and CYC[component] 1 when it holds a cycle (more than one
 * state, or a step from a state to itself). */
static void tarjan(const graph_t *g, const uint8_t *in, uint32_t *comp, uint8_t *cyc)
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
                uint32_t w = g->l->dst[g->fe[f->k++]];
                if (!in[w])
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
        if (g->l->src[e] == g->l->dst[e] && in[g->l->src[e]])
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
        tarjan(&g, in, comp, cyc);
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

void live_report_free(live_report_t *r)
{
    free(r->cycle_ords);
    free(r->cycle_ids);
    memset(r, 0, sizeof *r);
}
