/* regress.c - both versions of a protocol on every test, per model (regress.h).
 * Invariant: a verdict got worse when it moved from ok to a failure or a limit, or from a
 * limit to a failure; a skipped run compares with nothing. */
#include "regress.h"

#include <string.h>

#include "../explore/explore.h"
#include "../prog/prog.h"

static void run_one(const proto_t *p, const prog_t *prog, const regress_opts_t *o,
                    const exec_model_result_t *mr, int nkeys, regress_side_t *r)
{
    memset(r, 0, sizeof *r);
    r->verdict = -1;
    sys_t *s;
    diag_t d;
    if (sys_new(p, prog, &o->cfg, &s, &d))
        return;
    explore_opts_t eo;
    memset(&eo, 0, sizeof eo);
    eo.max_states = o->max_states;
    eo.por = o->por;
    eo.symmetry = o->symmetry;
    eo.allowed = mr->racy ? NULL : &mr->allowed;
    eo.liveness = o->liveness;
    eo.fairness = o->liveness ? 1 : 0;
    explore_result_t x;
    if (explore_run(s, nkeys, &eo, &x, &d)) {
        r->verdict = EXPLORE_UNEXPECTED;
        sys_free(s);
        return;
    }
    r->verdict = x.verdict;
    r->states = x.states;
    r->transitions = x.transitions;
    exec_outcomes_init(&r->reached, x.reached.nkeys);
    for (size_t i = 0; i < x.reached.n; i++)
        exec_outcomes_add(&r->reached, exec_outcome(&x.reached, i));
    r->have = true;
    explore_result_free(&x);
    sys_free(s);
}

static int rank(int v)
{
    return v < 0 ? -1 : v == EXPLORE_OK ? 0 : v == EXPLORE_INCOMPLETE ? 1 : 2;
}

const char *regress_verdict_name(int v)
{
    return v < 0 ? "skipped" : explore_verdict_names[v];
}

/* The outcomes of B that A lacks, into OUT. */
static void minus(const exec_outcomes_t *b, const exec_outcomes_t *a, exec_outcomes_t *out)
{
    for (size_t i = 0; i < b->n; i++)
        if (!exec_outcomes_has(a, exec_outcome(b, i)))
            exec_outcomes_add(out, exec_outcome(b, i));
}

/* Compare the two sides of pair P. */
static void compare(regress_pair_t *p)
{
    p->verdict_changed = p->old.verdict != p->cur.verdict;
    p->worse = rank(p->cur.verdict) > rank(p->old.verdict) && rank(p->old.verdict) >= 0;
    exec_outcomes_init(&p->gained, p->lay->nkeys);
    exec_outcomes_init(&p->lost, p->lay->nkeys);
    bool both = p->old.have && p->cur.have;
    if (both && p->old.verdict == EXPLORE_OK)
        minus(&p->cur.reached, &p->old.reached, &p->gained);
    if (both && p->cur.verdict == EXPLORE_OK)
        minus(&p->old.reached, &p->cur.reached, &p->lost);
    p->states_changed = p->old.states != p->cur.states || p->old.transitions != p->cur.transitions;
    p->any = p->verdict_changed || p->gained.n || p->lost.n || p->states_changed;
}

static void pair_free(regress_pair_t *p)
{
    exec_outcomes_free(&p->gained);
    exec_outcomes_free(&p->lost);
    if (p->old.have)
        exec_outcomes_free(&p->old.reached);
    if (p->cur.have)
        exec_outcomes_free(&p->cur.reached);
}

/* Test FILE under every model: 0, or 1 when it could not be read or evaluated. */
static int run_test(const regress_opts_t *o, const char *file, regress_stats_t *st)
{
    prog_t *prog;
    diag_t d;
    if (prog_load(file, &prog, &d)) {
        if (o->bad_file)
            o->bad_file(o->ctx, &d);
        return 1;
    }
    exec_model_result_t mr[8];
    exec_stats_t xs;
    exec_opts_t xo = {.unroll = o->unroll};
    if (exec_eval(prog, o->models, o->nmodels, &xo, mr, &xs, &d)) {
        if (o->bad_file)
            o->bad_file(o->ctx, &d);
        prog_free(prog);
        return 1;
    }
    exec_layout_t lay;
    exec_layout_init(&lay, prog);
    for (int m = 0; m < o->nmodels; m++) {
        regress_pair_t p = {.prog = prog, .lay = &lay, .model = m};
        run_one(o->old, prog, o, &mr[m], lay.nkeys, &p.old);
        run_one(o->cur, prog, o, &mr[m], lay.nkeys, &p.cur);
        compare(&p);
        st->runs++;
        st->changed += p.any;
        st->worse += p.worse;
        if (o->on_pair)
            o->on_pair(o->ctx, &p);
        pair_free(&p);
    }
    for (int m = 0; m < o->nmodels; m++)
        exec_result_free(&mr[m]);
    exec_layout_free(&lay);
    prog_free(prog);
    return 0;
}

int regress_run(const regress_opts_t *o, regress_stats_t *st)
{
    memset(st, 0, sizeof *st);
    for (int f = 0; f < o->nfiles; f++) {
        if (o->progress)
            o->progress(o->ctx, f, o->nfiles, o->files[f]);
        st->unreadable += run_test(o, o->files[f], st);
    }
    return 0;
}
