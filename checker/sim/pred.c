/* pred.c - timed mode's predictors (pred.h). Each declaration keeps one value per
 * (instance, bank) or per (instance, line) of its controller's instances, in a flat
 * array allocated at the start; rules are indexed by (controller, event).
 * Invariant: every stored value is in its declaration's range (sim_pred_apply clamps). */
#include "pred.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"

typedef struct {
    int slots;    /* values per instance: banks or lines */
    int64_t *v;   /* per instance * slots, only for instances of its controller */
    int *inst_ix; /* per instance: its row in v, -1: another controller */
    uint64_t reads, updates;
    double sum;
    int64_t min, max;
    int64_t start; /* the initial prediction */
} pstate_t;

struct sim_pred {
    const proto_t *p;
    int ninst, nbanks;
    const int *inst_cu;
    pstate_t *ps;    /* per declaration */
    int *param_pred; /* per param: its declaration, -1: none */
    int **rules;     /* per controller * nevents + event: rule indexes, -1 ended; NULL: none */
};

sim_pred_t *sim_pred_new(const proto_t *p, int ninst, const int *inst_ctrl, const int *inst_cu,
                         int nlines, int nbanks, const bool *ev_used)
{
    if (!p->npreds)
        return NULL;
    sim_pred_t *d = xcalloc(1, sizeof *d);
    d->p = p;
    d->ninst = ninst;
    d->nbanks = nbanks > 0 ? nbanks : 1;
    d->inst_cu = inst_cu;
    d->ps = xcalloc((size_t)p->npreds, sizeof *d->ps);
    d->param_pred = xmalloc(sizeof(int) * ((size_t)p->nparams + 1));
    for (int k = 0; k < p->nparams; k++)
        d->param_pred[k] = -1;
    for (int i = 0; i < p->npreds; i++) {
        const proto_pred_t *pr = &p->preds[i];
        pstate_t *st = &d->ps[i];
        d->param_pred[pr->param] = i;
        st->slots = pr->per_line ? (nlines > 0 ? nlines : 1) : d->nbanks;
        st->inst_ix = xmalloc(sizeof(int) * ((size_t)ninst + 1));
        int n = 0;
        for (int j = 0; j < ninst; j++)
            st->inst_ix[j] = inst_ctrl[j] == pr->ctrl ? n++ : -1;
        size_t len = (size_t)n * (size_t)st->slots;
        st->v = xmalloc(sizeof(int64_t) * (len + 1));
        int64_t start = pr->start;
        if (pr->start_param) { /* the run's value of the param (--param), clamped */
            int fixed = p->params[pr->param].value;
            start = fixed < pr->lo ? pr->lo : fixed > pr->hi ? pr->hi : fixed;
        }
        st->start = start;
        for (size_t q = 0; q < len; q++)
            st->v[q] = start;
    }
    d->rules = xcalloc((size_t)p->nctrls * (size_t)p->nevents + 1, sizeof(int *));
    for (int r = 0; r < p->nprules; r++) {
        const proto_prule_t *ru = &p->prules[r];
        bool on = ru->nused == 0;
        for (int u = 0; u < ru->nused; u++)
            on |= ev_used[ru->used[u]];
        if (!on)
            continue;
        int **slot = &d->rules[ru->ctrl * p->nevents + ru->event];
        int n = 0;
        while (*slot && (*slot)[n] >= 0)
            n++;
        *slot = xrealloc(*slot, sizeof(int) * ((size_t)n + 2));
        (*slot)[n] = r;
        (*slot)[n + 1] = -1;
    }
    return d;
}

void sim_pred_free(sim_pred_t *d)
{
    if (!d)
        return;
    for (int i = 0; i < d->p->npreds; i++) {
        free(d->ps[i].v);
        free(d->ps[i].inst_ix);
    }
    for (int k = 0; k < d->p->nctrls * d->p->nevents; k++)
        free(d->rules[k]);
    free(d->rules);
    free(d->ps);
    free(d->param_pred);
    free(d);
}

/* The value of declaration I for instance INST, LINE; NULL when INST is not its
   controller's or (per line) there is no line. */
static int64_t *value_at(sim_pred_t *d, int i, int inst, int line)
{
    pstate_t *st = &d->ps[i];
    int row = st->inst_ix[inst];
    if (row < 0)
        return NULL;
    int slot;
    if (d->p->preds[i].per_line) {
        if (line < 0 || line >= st->slots)
            return NULL;
        slot = line;
    } else {
        /* a shared controller's lines are spread over the banks as sim.c's bank model */
        slot = d->inst_cu[inst] < 0 ? (line < 0 ? 0 : line) % d->nbanks : 0;
    }
    return &st->v[(size_t)row * (size_t)st->slots + (size_t)slot];
}

int64_t sim_pred_read(sim_pred_t *d, int k, int inst, int line, int64_t fixed)
{
    int i = d->param_pred[k];
    if (i < 0)
        return fixed;
    const int64_t *v = value_at(d, i, inst, line);
    if (!v)
        return fixed;
    pstate_t *st = &d->ps[i];
    if (!st->reads || *v < st->min)
        st->min = *v;
    if (!st->reads || *v > st->max)
        st->max = *v;
    st->reads++;
    st->sum += (double)*v;
    return *v;
}

const int *sim_pred_rules(const sim_pred_t *d, int ctrl, int event)
{
    return d->rules[ctrl * d->p->nevents + event];
}

void sim_pred_apply(sim_pred_t *d, int r, int inst, int line)
{
    const proto_prule_t *ru = &d->p->prules[r];
    const proto_pred_t *pr = &d->p->preds[ru->pred];
    int64_t *v = value_at(d, ru->pred, inst, line);
    if (!v)
        return;
    int64_t x = *v;
    switch (ru->op) {
    case PROTO_PU_ADD: x += ru->arg; break;
    case PROTO_PU_SUB: x -= ru->arg; break;
    case PROTO_PU_MUL: x *= ru->arg; break;
    case PROTO_PU_DIV: x /= ru->arg; break;
    default: x = ru->arg; break;
    }
    *v = x < pr->lo ? pr->lo : x > pr->hi ? pr->hi : x;
    d->ps[ru->pred].updates++;
}

int sim_pred_stats(const sim_pred_t *d, sim_pred_stats_t *out)
{
    int n = 0;
    for (int i = 0; d && i < d->p->npreds && n < SIM_MAX_PREDS; i++, n++) {
        const proto_pred_t *pr = &d->p->preds[i];
        const pstate_t *st = &d->ps[i];
        sim_pred_stats_t *o = &out[n];
        memset(o, 0, sizeof *o);
        snprintf(o->param, sizeof o->param, "%s", d->p->params[pr->param].name);
        snprintf(o->ctrl, sizeof o->ctrl, "%s", d->p->ctrls[pr->ctrl].name);
        o->per_line = pr->per_line;
        o->reads = st->reads;
        o->mean = st->reads ? st->sum / (double)st->reads : 0;
        o->min = st->min;
        o->max = st->max;
        o->updates = st->updates;
        o->start = st->start;
    }
    return n;
}
