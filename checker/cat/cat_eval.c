/* cat_eval.c - evaluation contexts and the instruction interpreter.
 *
 * A set is a uint64_t mask of event indices; a relation is 64 rows, row i
 * the mask of i's successors. Only the first n rows of a relation are ever
 * read or written, and every operation keeps the bits at or above n zero
 * (complements mask with the all-events set), so scratch rows beyond n may
 * hold stale values from an earlier, larger execution without harm.
 * cat_eval allocates nothing: every slot lives in the context. */
#include "cat_int.h"

#include <stdlib.h>
#include <string.h>

#include "../base/util.h"

struct cat_ctx {
    const cat_model_t *m;
    uint64_t *sets;                      /* m->nsets set slots */
    const uint64_t **rp;                 /* m->nrels relation slots, for reading */
    uint64_t (*scratch)[CAT_MAX_EVENTS]; /* computed relations, slot CAT_RSLOT0 + i */
    uint64_t zero[CAT_MAX_EVENTS];       /* '0' */
    cat_exec_t merged;                   /* herd7's events of X, for a herd7 model */
};

cat_ctx_t *cat_ctx_new(const cat_model_t *m)
{
    cat_ctx_t *c = xcalloc(1, sizeof *c);
    c->m = m;
    c->sets = xcalloc((size_t)m->nsets, sizeof *c->sets);
    c->rp = xcalloc((size_t)m->nrels, sizeof *c->rp);
    int nscr = m->nrels - CAT_RSLOT0;
    c->scratch = xcalloc((size_t)(nscr > 0 ? nscr : 1), sizeof *c->scratch);
    c->rp[CAT_RSLOT_ZERO] = c->zero;
    for (int i = 0; i < nscr; i++)
        c->rp[CAT_RSLOT0 + i] = c->scratch[i];
    return c;
}

void cat_ctx_free(cat_ctx_t *c)
{
    if (!c)
        return;
    free(c->sets);
    free(c->rp);
    free(c->scratch);
    free(c);
}

#define BIT(i) (UINT64_C(1) << (i))

static inline int ctz64(uint64_t v)
{
    return __builtin_ctzll(v);
}

static uint64_t rel_domain(const uint64_t *a, int n)
{
    uint64_t s = 0;
    for (int i = 0; i < n; i++)
        s |= (uint64_t)(a[i] != 0) << i;
    return s;
}

static uint64_t rel_range(const uint64_t *a, int n)
{
    uint64_t s = 0;
    for (int i = 0; i < n; i++)
        s |= a[i];
    return s;
}

static void rel_seq(uint64_t *d, const uint64_t *a, const uint64_t *b, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t acc = 0;
        for (uint64_t it = a[i]; it; it &= it - 1)
            acc |= b[ctz64(it)];
        d[i] = acc;
    }
}

/* D = A+ by Warshall's algorithm on bit rows: after step k, D[i] holds every
 * j reachable from i through intermediate events < k+1. */
static void rel_plus(uint64_t *d, const uint64_t *a, int n)
{
    memcpy(d, a, (size_t)n * sizeof *d);
    for (int k = 0; k < n; k++) {
        uint64_t rk = d[k], bk = BIT(k);
        if (!rk)
            continue;
        for (int i = 0; i < n; i++) {
            if (d[i] & bk)
                d[i] |= rk;
        }
    }
}

static void rel_inv(uint64_t *d, const uint64_t *a, int n)
{
    memset(d, 0, (size_t)n * sizeof *d);
    for (int i = 0; i < n; i++) {
        for (uint64_t it = a[i]; it; it &= it - 1)
            d[ctz64(it)] |= BIT(i);
    }
}

/* Acyclic iff repeatedly removing events with no successor among the
 * remaining ones removes them all. Scanning from the highest index down
 * removes a chain of increasing indices (program order) in one pass. */
static bool rel_acyclic(const uint64_t *a, uint64_t all)
{
    uint64_t alive = all;
    for (uint64_t it = alive; it; it &= it - 1) /* events with no successor at all */
        if (!a[ctz64(it)])
            alive &= ~BIT(ctz64(it));
    for (;;) {
        bool changed = false;
        for (uint64_t it = alive; it;) {
            int i = 63 - __builtin_clzll(it);
            it &= ~BIT(i);
            if (!(a[i] & alive)) {
                alive &= ~BIT(i);
                changed = true;
            }
        }
        if (!alive)
            return true;
        if (!changed)
            return false;
    }
}

/* Bit I of MASK moved to bit MAP[I], for the N events of MASK. */
static uint64_t remap(uint64_t mask, const int *map)
{
    uint64_t out = 0;
    for (; mask; mask &= mask - 1)
        out |= BIT(map[ctz64(mask)]);
    return out;
}

/* herd7's C events from X into Y: each RMW's read and write (X's rmw pairs)
 * become one event in R and W carrying both parts' sets and relations, the
 * other events keep their order; po and fr lose the loops the merge makes
 * (between the two parts) and rmw is empty, as herd7 7.58 builds a C
 * execution. An RMW that reads its own write (a candidate herd7 never makes)
 * keeps its rf loop, which every herd7 model's coherence rejects. */
static void merge_rmw(const cat_exec_t *x, int n, cat_exec_t *y)
{
    int map[CAT_MAX_EVENTS], k = 0;
    uint64_t wpart = 0;
    for (int i = 0; i < n; i++)
        wpart |= x->rels[CAT_REL_RMW][i];
    for (int i = 0; i < n; i++)
        if (!(wpart & BIT(i)))
            map[i] = k++;
    for (int i = 0; i < n; i++)
        for (uint64_t r = x->rels[CAT_REL_RMW][i]; r; r &= r - 1)
            map[ctz64(r)] = map[i];
    memset(y, 0, sizeof *y);
    y->n = k;
    for (int s = 0; s < CAT_SET__COUNT; s++)
        y->sets[s] = remap(x->sets[s], map);
    for (int r = 0; r < CAT_REL__COUNT; r++) {
        if (r == CAT_REL_RMW)
            continue;
        for (int i = 0; i < n; i++)
            y->rels[r][map[i]] |= remap(x->rels[r][i], map);
        bool strict = r == CAT_REL_PO || r == CAT_REL_CO || r == CAT_REL_FR || r == CAT_REL_EXT;
        for (int i = 0; strict && i < k; i++)
            y->rels[r][i] &= ~BIT(i);
    }
}

void cat_eval(cat_ctx_t *c, const cat_exec_t *x, cat_result_t *out)
{
    const cat_model_t *m = c->m;
    if (m->herd_events) {
        int nx = x->n < 0 ? 0 : x->n > CAT_MAX_EVENTS ? CAT_MAX_EVENTS : x->n;
        merge_rmw(x, nx, &c->merged);
        x = &c->merged;
    }
    int n = x->n < 0 ? 0 : x->n > CAT_MAX_EVENTS ? CAT_MAX_EVENTS : x->n;
    uint64_t all = n == 64 ? ~UINT64_C(0) : BIT(n) - 1;
    uint64_t *s = c->sets;
    memcpy(s, x->sets, sizeof x->sets);
    s[CAT_SSLOT_ALL] = all;
    const uint64_t **rp = c->rp;
    for (int k = 0; k < CAT_REL__COUNT; k++)
        rp[k] = x->rels[k];
    out->consistent = true;
    out->flags = 0;
    out->failed_check = -1;

    const cat_ins_t *code = m->code;
    for (int pc = 0; pc < m->ncode; pc++) {
        const cat_ins_t *in = &code[pc];
        uint64_t *d = NULL; /* destination of a relation operation */
        if (in->op > CAT_OP_ZERO && in->op < CAT_OP_CHK_ACYCLIC)
            d = c->scratch[in->d - CAT_RSLOT0];
        bool holds;
        switch ((cat_op_t)in->op) {
        case CAT_OP_S_UNION: s[in->d] = s[in->a] | s[in->b]; continue;
        case CAT_OP_S_INTER: s[in->d] = s[in->a] & s[in->b]; continue;
        case CAT_OP_S_DIFF: s[in->d] = s[in->a] & ~s[in->b]; continue;
        case CAT_OP_S_COMPL: s[in->d] = ~s[in->a] & all; continue;
        case CAT_OP_S_DOMAIN: s[in->d] = rel_domain(rp[in->a], n); continue;
        case CAT_OP_S_RANGE: s[in->d] = rel_range(rp[in->a], n); continue;
        case CAT_OP_R_UNION: {
            const uint64_t *a = rp[in->a], *b = rp[in->b];
            for (int i = 0; i < n; i++)
                d[i] = a[i] | b[i];
            continue;
        }
        case CAT_OP_R_INTER: {
            const uint64_t *a = rp[in->a], *b = rp[in->b];
            for (int i = 0; i < n; i++)
                d[i] = a[i] & b[i];
            continue;
        }
        case CAT_OP_R_DIFF: {
            const uint64_t *a = rp[in->a], *b = rp[in->b];
            for (int i = 0; i < n; i++)
                d[i] = a[i] & ~b[i];
            continue;
        }
        case CAT_OP_R_COMPL: {
            const uint64_t *a = rp[in->a];
            for (int i = 0; i < n; i++)
                d[i] = ~a[i] & all;
            continue;
        }
        case CAT_OP_R_SEQ: rel_seq(d, rp[in->a], rp[in->b], n); continue;
        case CAT_OP_R_PROD: {
            uint64_t a = s[in->a], b = s[in->b];
            for (int i = 0; i < n; i++)
                d[i] = (a >> i & 1) ? b : 0;
            continue;
        }
        case CAT_OP_R_IDSET: {
            uint64_t a = s[in->a];
            for (int i = 0; i < n; i++)
                d[i] = a & BIT(i);
            continue;
        }
        case CAT_OP_R_RESTRICT: {
            uint64_t a = s[in->a], cc = s[in->c];
            const uint64_t *b = rp[in->b];
            for (int i = 0; i < n; i++)
                d[i] = (a >> i & 1) ? b[i] & cc : 0;
            continue;
        }
        case CAT_OP_R_PLUS: rel_plus(d, rp[in->a], n); continue;
        case CAT_OP_R_STAR:
            rel_plus(d, rp[in->a], n);
            for (int i = 0; i < n; i++)
                d[i] |= BIT(i);
            continue;
        case CAT_OP_R_OPT: {
            const uint64_t *a = rp[in->a];
            for (int i = 0; i < n; i++)
                d[i] = a[i] | BIT(i);
            continue;
        }
        case CAT_OP_R_INV: rel_inv(d, rp[in->a], n); continue;
        case CAT_OP_CHK_ACYCLIC: holds = rel_acyclic(rp[in->a], all); break;
        case CAT_OP_CHK_IRREFL: {
            const uint64_t *a = rp[in->a];
            uint64_t diag = 0;
            for (int i = 0; i < n; i++)
                diag |= a[i] & BIT(i);
            holds = diag == 0;
            break;
        }
        case CAT_OP_CHK_EMPTY_S: holds = s[in->a] == 0; break;
        case CAT_OP_CHK_EMPTY_R: holds = rel_range(rp[in->a], n) == 0; break;
        default: continue; /* fixed-slot nodes never become instructions */
        }
        holds = holds != (bool)in->neg;
        if (in->flag) {
            if (holds)
                out->flags |= (uint32_t)1 << in->idx;
        } else if (!holds) {
            out->consistent = false;
            out->failed_check = in->idx;
            return;
        }
    }
}
