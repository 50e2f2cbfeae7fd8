/* gen.c - critical cycles to litmus tests (gen.h, docs/gen.md). */
#include "gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"

enum { E_PODWW, E_PODWR, E_PODRW, E_PODRR, E_RFE, E_FRE, E_COE, E__N };
enum { T_W, T_R };

static const char *const edge_names[E__N] = {"PodWW", "PodWR", "PodRW", "PodRR",
                                             "Rfe",   "Fre",   "Coe"};
static const int esrc[E__N] = {T_W, T_W, T_R, T_R, T_W, T_R, T_W};
static const int edst[E__N] = {T_W, T_R, T_W, T_R, T_R, T_W, T_W};

static bool is_po(int e)
{
    return e <= E_PODRR;
}

#define MAXE 8

/* Shapes with names of their own (herd/diy's), as edge lists in any rotation. */
static const struct {
    const char *name, *cycle;
} known[] = {
    {"MP", "PodWW Rfe PodRR Fre"},
    {"SB", "PodWR Fre PodWR Fre"},
    {"LB", "PodRW Rfe PodRW Rfe"},
    {"S", "PodWW Rfe PodRW Coe"},
    {"R", "PodWW Coe PodWR Fre"},
    {"2+2W", "PodWW Coe PodWW Coe"},
    {"WRC", "Rfe PodRW Rfe PodRR Fre"},
    {"RWC", "Rfe PodRR Fre PodWR Fre"},
    {"ISA2", "PodWW Rfe PodRW Rfe PodRR Fre"},
    {"IRIW", "Rfe PodRR Fre Rfe PodRR Fre"},
    {"W+RWC", "PodWW Rfe PodRR Fre PodWR Fre"},
    {"3.SB", "PodWR Fre PodWR Fre PodWR Fre"},
    {"3.LB", "PodRW Rfe PodRW Rfe PodRW Rfe"},
    {"3.2W", "PodWW Coe PodWW Coe PodWW Coe"},
};

/* The rotation of E[0..L) that starts with a po edge and is least; its start in *AT. */
static void canon(const int *e, int l, int *out)
{
    bool have = false;
    int best[MAXE];
    for (int s = 0; s < l; s++) {
        if (!is_po(e[s]))
            continue;
        int r[MAXE];
        for (int i = 0; i < l; i++)
            r[i] = e[(s + i) % l];
        if (!have || memcmp(r, best, sizeof(int) * (size_t)l) < 0) {
            memcpy(best, r, sizeof(int) * (size_t)l);
            have = true;
        }
    }
    memcpy(out, best, sizeof(int) * (size_t)l);
}

static int parse_cycle(const char *s, int *e)
{
    int n = 0;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", s);
    char *save = NULL;
    for (char *t = strtok_r(buf, " ", &save); t && n < MAXE; t = strtok_r(NULL, " ", &save))
        for (int k = 0; k < E__N; k++)
            if (!strcmp(t, edge_names[k]))
                e[n++] = k;
    return n;
}

/* The shape's name: a known one, else the edges joined with '+'. */
static void shape_name(const int *e, int l, strbuf_t *b)
{
    for (size_t k = 0; k < sizeof known / sizeof known[0]; k++) {
        int ke[MAXE], kc[MAXE];
        int kl = parse_cycle(known[k].cycle, ke);
        if (kl != l)
            continue;
        canon(ke, kl, kc);
        if (!memcmp(kc, e, sizeof(int) * (size_t)l)) {
            sb_puts(b, known[k].name);
            return;
        }
    }
    for (int i = 0; i < l; i++)
        sb_printf(b, "%s%s", i ? "+" : "", edge_names[e[i]]);
}

/* ---- one cycle -> one test ---- */

typedef struct {
    int l;
    int e[MAXE];
    int type[MAXE];   /* per event */
    int thread[MAXE]; /* per event */
    int loc[MAXE];
    int val[MAXE]; /* writes: the value written; reads: the value the cycle needs */
    int reg[MAXE]; /* reads: the register */
    int nthreads;
    int first[MAXE]; /* per thread: its events in po order (one or two) */
    int second[MAXE];
    int nlocs;
} cyc_t;

static bool build(const int *e, int l, cyc_t *c)
{
    memset(c, 0, sizeof *c);
    c->l = l;
    memcpy(c->e, e, sizeof(int) * (size_t)l);
    for (int i = 0; i < l; i++)
        c->type[i] = esrc[e[i]];
    /* Threads: event i+1 joins event i's thread across a po edge. */
    int t = -1;
    for (int i = 0; i < l; i++) {
        if (i == 0 || !is_po(e[i - 1])) {
            t++;
            c->first[t] = i;
            c->second[t] = -1;
        } else {
            c->second[t] = i;
        }
        c->thread[i] = t;
    }
    c->nthreads = t + 1;
    /* Locations: a new one after each po edge; the last group wraps to event 0's. */
    int cur = 0;
    c->loc[0] = 0;
    for (int i = 0; i + 1 < l; i++)
        c->loc[i + 1] = is_po(e[i]) ? ++cur : c->loc[i];
    for (int i = 0; i < l; i++)
        if (c->loc[i] == cur && cur > 0)
            c->loc[i] = 0;
    c->nlocs = cur;
    if (c->nlocs > 4)
        return false;
    /* Values along each location's segment (events after a po edge, up to the next po
     * edge): writes 1, 2, ... in coherence order; a read takes the write it reads from
     * (Rfe into it), else the write before the one it is fr-before (0: the initial). */
    for (int i = 0; i < l; i++) {
        if (!is_po(e[(i + l - 1) % l]))
            continue; /* not a segment start */
        int v = 0, j = i;
        int seg[MAXE], ns = 0;
        for (;;) {
            seg[ns++] = j;
            if (c->type[j] == T_W)
                c->val[j] = ++v;
            if (is_po(e[j]))
                break;
            j = (j + 1) % l;
        }
        for (int k = 0; k < ns; k++) {
            int r = seg[k];
            if (c->type[r] != T_R)
                continue;
            int in = (r + l - 1) % l;
            if (k > 0 && e[in] == E_RFE) {
                c->val[r] = c->val[seg[k - 1]];
            } else {
                int prev = 0;
                for (int q = 0; q < k; q++)
                    if (c->type[seg[q]] == T_W)
                        prev = c->val[seg[q]];
                c->val[r] = prev;
            }
        }
    }
    for (int th = 0; th < c->nthreads; th++) {
        int n = 0;
        int ev[2] = {c->first[th], c->second[th]};
        for (int k = 0; k < 2; k++)
            if (ev[k] >= 0 && c->type[ev[k]] == T_R)
                c->reg[ev[k]] = n++;
    }
    return true;
}

static const char *const loc_names[] = {"x", "y", "z", "w"};

/* Orders per event for annotation family A; false when the family gives nothing new
 * (the same accesses as another family would, e.g. rel+acq on SB is plain). */
static bool annotate(const cyc_t *c, unsigned a, const char **ord, bool *fence)
{
    bool any = false;
    for (int th = 0; th < c->nthreads; th++) {
        int f = c->first[th], s = c->second[th];
        fence[th] = false;
        for (int k = 0; k < 2; k++) {
            int i = k ? s : f;
            if (i < 0)
                continue;
            const char *o = "";
            switch (a) {
            case GEN_PLAIN: break;
            case GEN_RLX: o = "rlx"; break;
            case GEN_SC: o = "sc"; break;
            case GEN_RA: o = c->type[i] == T_W ? "rel" : "acq"; break;
            case GEN_RELACQ:
                if (s >= 0 && ((k == 1 && c->type[i] == T_W) || (k == 0 && c->type[i] == T_R)))
                    o = c->type[i] == T_W ? "rel" : "acq";
                break;
            case GEN_FENCES:
                o = "rlx";
                fence[th] = s >= 0;
                break;
            }
            ord[i] = o;
            any |= *o != '\0';
        }
    }
    return a == GEN_PLAIN || any;
}

static char *emit(const cyc_t *c, const char *name, const char *const *ord, const bool *fence,
                  bool wg, bool same_wg)
{
    strbuf_t b;
    sb_init(&b);
    sb_printf(&b, "GPU %s\n\"cycle:", name);
    for (int i = 0; i < c->l; i++)
        sb_printf(&b, " %s", edge_names[c->e[i]]);
    sb_puts(&b, " (cohcheck gen)\"\n{");
    for (int l = 0; l < c->nlocs; l++)
        sb_printf(&b, " %s = 0;", loc_names[l]);
    sb_puts(&b, " }\n");
    /* One column per thread, one row per slot (access, fence, access). */
    char cell[MAXE][3][48];
    memset(cell, 0, sizeof cell);
    for (int th = 0; th < c->nthreads; th++) {
        int ev[2] = {c->first[th], c->second[th]};
        for (int k = 0; k < 2; k++) {
            int i = ev[k];
            if (i < 0)
                continue;
            char op[24] = "";
            if (*ord[i])
                snprintf(op, sizeof op, ".%s%s", ord[i], wg ? ".wg" : "");
            if (c->type[i] == T_W)
                snprintf(cell[th][k * 2], sizeof cell[0][0], "st%s %s %d", op, loc_names[c->loc[i]],
                         c->val[i]);
            else
                snprintf(cell[th][k * 2], sizeof cell[0][0], "ld%s r%d %s", op, c->reg[i],
                         loc_names[c->loc[i]]);
        }
        if (fence[th])
            snprintf(cell[th][1], sizeof cell[0][0], "fence.acqrel%s", wg ? ".wg" : "");
    }
    for (int th = 0; th < c->nthreads; th++)
        sb_printf(&b, "%s P%d@wg%d", th ? " |" : "", th, same_wg ? 0 : th);
    sb_puts(&b, " ;\n");
    for (int row = 0; row < 3; row++) {
        bool used = false;
        for (int th = 0; th < c->nthreads; th++)
            used |= cell[th][row][0] != '\0';
        if (!used)
            continue;
        for (int th = 0; th < c->nthreads; th++)
            sb_printf(&b, "%s %s", th ? " |" : "", cell[th][row]);
        sb_puts(&b, " ;\n");
    }
    /* The condition: every read's value, and the last write of each location written
     * twice (it fixes the coherence order the cycle needs). */
    sb_puts(&b, "exists (");
    bool first = true;
    for (int i = 0; i < c->l; i++)
        if (c->type[i] == T_R) {
            sb_printf(&b, "%s%d:r%d = %d", first ? "" : " /\\ ", c->thread[i], c->reg[i],
                      c->val[i]);
            first = false;
        }
    for (int l = 0; l < c->nlocs; l++) {
        int writes = 0, last = 0;
        for (int i = 0; i < c->l; i++)
            if (c->loc[i] == l && c->type[i] == T_W) {
                writes++;
                if (c->val[i] > last)
                    last = c->val[i];
            }
        if (writes >= 2) {
            sb_printf(&b, "%s%s = %d", first ? "" : " /\\ ", loc_names[l], last);
            first = false;
        }
    }
    sb_puts(&b, first ? "true)\n" : ")\n");
    return b.s;
}

/* ---- enumeration ---- */

typedef struct {
    const gen_opts_t *o;
    gen_test_t *t;
    size_t n, cap;
} acc_t;

static const struct {
    unsigned flag;
    const char *suffix;
} families[] = {
    {GEN_PLAIN, ""},        {GEN_RLX, "+rlxs"}, {GEN_RELACQ, "+rel+acq"},
    {GEN_RA, "+rels+acqs"}, {GEN_SC, "+scs"},   {GEN_FENCES, "+fences"},
};

static void add_cycle(acc_t *a, const int *e, int l)
{
    cyc_t c;
    if (!build(e, l, &c) || c.nthreads > a->o->max_threads)
        return;
    strbuf_t shape;
    sb_init(&shape);
    shape_name(e, l, &shape);
    strbuf_t cyc;
    sb_init(&cyc);
    for (int i = 0; i < l; i++)
        sb_printf(&cyc, "%s%s", i ? " " : "", edge_names[e[i]]);
    for (size_t f = 0; f < sizeof families / sizeof families[0]; f++) {
        if (!(a->o->annot & families[f].flag))
            continue;
        const char *ord[MAXE];
        bool fence[MAXE];
        if (!annotate(&c, families[f].flag, ord, fence))
            continue;
        for (int v = 0; v < 4; v++) {
            bool wg = v & 1, same = v & 2;
            if ((wg && (!a->o->wg_scope || families[f].flag == GEN_PLAIN)) ||
                (same && !a->o->same_wg))
                continue;
            strbuf_t name;
            sb_init(&name);
            sb_printf(&name, "%s%s%s%s", shape.s, families[f].suffix, wg ? "+wg" : "",
                      same ? "+samewg" : "");
            gen_test_t t = {name.s, xstrdup(cyc.s), emit(&c, name.s, ord, fence, wg, same)};
            UTIL_PUSH(a->t, a->n, a->cap, t);
        }
    }
    sb_free(&shape);
    sb_free(&cyc);
}

static void rec(acc_t *a, int *e, int k, int l)
{
    if (k == l) {
        /* Cyclic: types chain across the wrap, no two po edges in a row, no three
         * communication edges in a row, and at least two po edges (two locations). */
        if (edst[e[l - 1]] != esrc[e[0]] || (is_po(e[l - 1]) && is_po(e[0])))
            return;
        int npo = 0;
        for (int i = 0; i < l; i++) {
            npo += is_po(e[i]);
            if (!is_po(e[i]) && !is_po(e[(i + 1) % l]) && !is_po(e[(i + 2) % l]))
                return;
        }
        if (npo < 2)
            return;
        int cn[MAXE];
        canon(e, l, cn);
        if (memcmp(cn, e, sizeof(int) * (size_t)l))
            return; /* another rotation is the canonical one */
        add_cycle(a, e, l);
        return;
    }
    for (int x = 0; x < E__N; x++) {
        if (k == 0 && !is_po(x))
            continue; /* canonical cycles start with po */
        if (k > 0 && (edst[e[k - 1]] != esrc[x] || (is_po(e[k - 1]) && is_po(x))))
            continue;
        e[k] = x;
        rec(a, e, k + 1, l);
    }
}

int gen_suite(const gen_opts_t *o, gen_test_t **out, int *n, diag_t *err)
{
    if (o->max_edges < 3 || o->max_edges > MAXE) {
        diag_set(err, NULL, 0, 0, "cycles have 3 to %d edges, not %d", MAXE, o->max_edges);
        return -1;
    }
    if (o->max_threads < 2 || o->max_threads > 4) {
        diag_set(err, NULL, 0, 0, "tests have 2 to 4 threads, not %d", o->max_threads);
        return -1;
    }
    if (!o->annot) {
        diag_set(err, NULL, 0, 0, "no annotation family chosen");
        return -1;
    }
    acc_t a = {o, NULL, 0, 0};
    int e[MAXE];
    for (int l = 3; l <= o->max_edges; l++)
        rec(&a, e, 0, l);
    *out = a.t;
    *n = (int)a.n;
    return 0;
}

void gen_free(gen_test_t *t, int n)
{
    for (int i = 0; i < n; i++) {
        free(t[i].name);
        free(t[i].cycle);
        free(t[i].text);
    }
    free(t);
}
