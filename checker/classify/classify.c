/* classify.c - `cohcheck classify`'s work (classify.h): each test explored once, every model
 * of the lattice judged on the outcomes reached, the strongest passed models, and the
 * separating test of each failed model just above them with its shortest trace.
 * Invariant: a model passes only when every test was explored completely. */
#include "classify.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../exec/exec.h"
#include "../explore/explore.h"
#include "../prog/prog.h"

typedef struct {
    int nkeys;
    size_t n, cap;
    prog_val_t *v;
    int *depth;
} depths_t;

static void on_outcome(void *ctx, const prog_val_t *o, int depth)
{
    depths_t *d = ctx;
    for (size_t i = 0; i < d->n; i++)
        if (!memcmp(d->v + i * (size_t)d->nkeys, o, (size_t)d->nkeys * sizeof *o)) {
            if (depth < d->depth[i])
                d->depth[i] = depth;
            return;
        }
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 16;
        d->v = xrealloc(d->v, d->cap * (size_t)(d->nkeys ? d->nkeys : 1) * sizeof *d->v);
        d->depth = xrealloc(d->depth, d->cap * sizeof *d->depth);
    }
    memcpy(d->v + d->n * (size_t)d->nkeys, o, (size_t)d->nkeys * sizeof *o);
    d->depth[d->n++] = depth;
}

static void free_trace(char **t, int n)
{
    for (int i = 0; i < n; i++)
        free(t[i]);
    free(t);
}

static char **copy_trace(const explore_result_t *r)
{
    char **t = xcalloc((size_t)r->ntrace + 1, sizeof *t);
    for (int i = 0; i < r->ntrace; i++)
        t[i] = xstrdup(r->trace[i]);
    return t;
}

/* Is candidate (DEPTH, STATES, NAME) better than the model's current one? */
static bool better(const classify_model_t *m, int depth, uint64_t states, const char *name)
{
    if (!m->sep_file)
        return true;
    if (depth != m->sep_depth)
        return depth < m->sep_depth;
    if (states != m->sep_states)
        return states < m->sep_states;
    return strcmp(name, m->sep_name) < 0;
}

static void set_sep(classify_model_t *m, const char *file, const char *name, int depth,
                    uint64_t states)
{
    free(m->sep_file);
    free(m->sep_name);
    free_trace(m->sep_trace, m->sep_ntrace);
    m->sep_trace = NULL;
    m->sep_ntrace = 0;
    m->sep_protocol_error = false;
    m->sep_file = xstrdup(file);
    m->sep_name = xstrdup(name);
    m->sep_depth = depth;
    m->sep_states = states;
}

/* Model M after test FILE (NAME) reached the outcomes of DEP (with their depths) in run R,
 * under M's allowed outcomes MR: failed (by a protocol error or a forbidden outcome, keeping
 * the shallowest as its separating test), undecided (an incomplete run), or neither. */
static void judge_model(classify_model_t *m, const exec_model_result_t *mr, const depths_t *dep,
                        const explore_result_t *r, const char *file, const char *name)
{
    bool inc = r->verdict == EXPLORE_INCOMPLETE;
    if (r->verdict != EXPLORE_OK && !inc) {
        m->failed_tests++;
        if (better(m, r->ntrace, r->states, name)) {
            set_sep(m, file, name, r->ntrace, r->states);
            m->sep_protocol_error = true;
            m->sep_verdict = (int)r->verdict;
            m->sep_trace = copy_trace(r);
            m->sep_ntrace = r->ntrace;
            snprintf(m->sep_msg, sizeof m->sep_msg, "%s", r->msg);
        }
        return;
    }
    int best = INT_MAX;
    if (!mr->racy)
        for (size_t i = 0; i < dep->n; i++)
            if (!exec_outcomes_has(&mr->allowed, dep->v + i * (size_t)dep->nkeys) &&
                dep->depth[i] < best)
                best = dep->depth[i];
    if (best < INT_MAX) {
        m->failed_tests++;
        if (better(m, best, r->states, name))
            set_sep(m, file, name, best, r->states);
    } else if (inc) {
        m->undecided_tests++;
    }
}

/* Explore one test and update every model. Returns 0 run, 1 skipped, 2 a bad test file
 * (reported; the caller goes on), -1 bad input that stops the run. */
static int classify_test(const classify_opts_t *c, const char *file, classify_model_t *ms, int nm,
                         bool *incomplete, bool *proto_error, diag_t *err)
{
    diag_t d;
    prog_t *p;
    if (prog_load(file, &p, &d)) {
        if (c->bad_file)
            c->bad_file(c->ctx, &d);
        return 2;
    }
    exec_model_result_t mr[LATTICE_MAX_MODELS];
    exec_stats_t xs;
    exec_opts_t xo = {.unroll = c->unroll};
    if (exec_eval(p, c->models, nm, &xo, mr, &xs, &d)) {
        if (c->bad_file)
            c->bad_file(c->ctx, &d);
        prog_free(p);
        return 2;
    }
    int rc = 0;
    sys_t *s = NULL;
    int src = sys_new(c->proto, p, &c->cfg, &s, &d);
    if (src == -2) {
        rc = 1;
        goto out;
    }
    if (src) {
        *err = d;
        rc = -1;
        goto out;
    }
    exec_layout_t lay;
    exec_layout_init(&lay, p);
    depths_t dep = {.nkeys = lay.nkeys};
    explore_opts_t eo;
    memset(&eo, 0, sizeof eo);
    eo.max_states = c->max_states;
    eo.por = c->por;
    eo.symmetry = c->symmetry;
    eo.liveness = c->liveness;
    eo.fairness = c->liveness ? 1 : 0;
    eo.on_outcome = on_outcome;
    eo.on_outcome_ctx = &dep;
    explore_result_t r;
    if (explore_run(s, lay.nkeys, &eo, &r, &d)) {
        *err = d;
        rc = -1;
    } else {
        *incomplete = r.verdict == EXPLORE_INCOMPLETE;
        *proto_error = r.verdict != EXPLORE_OK && !*incomplete;
        for (int m = 0; m < nm; m++)
            judge_model(&ms[m], &mr[m], &dep, &r, file, p->name);
        explore_result_free(&r);
    }
    free(dep.v);
    free(dep.depth);
    exec_layout_free(&lay);
out:
    sys_free(s);
    for (int m = 0; m < nm; m++)
        exec_result_free(&mr[m]);
    prog_free(p);
    return rc;
}

/* Explore the separating test of M again under M alone, for its trace. */
static int separating_trace(const classify_opts_t *c, classify_model_t *m, cat_model_t *model,
                            diag_t *err)
{
    if (m->sep_protocol_error)
        return 0;
    diag_t d;
    prog_t *p;
    if (prog_load(m->sep_file, &p, &d)) {
        *err = d;
        return -1;
    }
    exec_model_result_t mr;
    exec_stats_t xs;
    exec_opts_t xo = {.unroll = c->unroll};
    int rc = -1;
    sys_t *s = NULL;
    if (exec_eval(p, &model, 1, &xo, &mr, &xs, &d)) {
        *err = d;
        prog_free(p);
        return -1;
    }
    if (sys_new(c->proto, p, &c->cfg, &s, &d)) {
        *err = d;
        goto out;
    }
    exec_layout_t lay;
    exec_layout_init(&lay, p);
    explore_opts_t eo;
    memset(&eo, 0, sizeof eo);
    eo.max_states = c->max_states;
    eo.por = c->por;
    eo.symmetry = c->symmetry;
    eo.allowed = mr.racy ? NULL : &mr.allowed;
    explore_result_t r;
    if (explore_run(s, lay.nkeys, &eo, &r, &d)) {
        *err = d;
    } else {
        m->sep_trace = copy_trace(&r);
        m->sep_ntrace = r.ntrace;
        m->sep_verdict = (int)r.verdict;
        snprintf(m->sep_msg, sizeof m->sep_msg, "%s", r.msg);
        for (size_t i = 0; i < r.reached.n && !mr.racy && !m->sep_outcome; i++) {
            const prog_val_t *v = exec_outcome(&r.reached, i);
            if (exec_outcomes_has(&mr.allowed, v))
                continue;
            strbuf_t t, j;
            sb_init(&t);
            sb_init(&j);
            for (int k = 0; k < lay.nkeys; k++)
                sb_printf(&t, "%s%s=%lld;", k ? " " : "", lay.names[k], (long long)v[k]);
            exec_outcome_json(&j, &lay, v);
            m->sep_outcome = t.s;
            m->sep_outcome_json = j.s;
        }
        rc = 0;
        explore_result_free(&r);
    }
    exec_layout_free(&lay);
out:
    sys_free(s);
    exec_result_free(&mr);
    prog_free(p);
    return rc;
}

/* The tests' stem (FILE's name without folder and ".litmus") appended to LIST. */
static void add_name(strbuf_t *list, const char *file, int *count)
{
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    sb_printf(list, "%s%.*s", (*count)++ ? " " : "", (int)(strlen(base) - 7), base);
}

/* Every test once. 0, or -1 with ERR. */
static int run_tests(const classify_opts_t *o, classify_result_t *r, diag_t *err)
{
    for (int f = 0; f < o->nfiles; f++) {
        bool inc = false, perr = false;
        if (o->progress)
            o->progress(o->ctx, f, o->nfiles, o->files[f]);
        int k = classify_test(o, o->files[f], r->m, r->nm, &inc, &perr, err);
        if (k < 0)
            return -1;
        if (k == 2) {
            r->unreadable++;
        } else if (k == 1) {
            add_name(&r->skipped_names, o->files[f], &r->skipped);
        } else {
            r->ran++;
            r->perrors += perr;
            if (inc)
                add_name(&r->inc_names, o->files[f], &r->incomplete);
        }
    }
    return 0;
}

/* Pass, fail, undecided; the strongest passed models, on every test and on the complete
 * ones; the failed models just above them. */
static void judge(const lattice_t *lat, classify_result_t *r)
{
    int nm = r->nm;
    for (int m = 0; m < nm; m++) {
        r->fail[m] = r->m[m].failed_tests > 0;
        r->und[m] = !r->fail[m] && r->m[m].undecided_tests > 0;
        r->pass[m] = !r->fail[m] && !r->und[m] && r->ran > 0;
        r->und[m] = r->und[m] || (!r->fail[m] && r->ran == 0);
        r->npass += r->pass[m];
        r->nfail += r->fail[m];
        r->nund += r->und[m];
    }
    lattice_strongest(lat, r->pass, r->strongest);
    /* On the complete tests alone: every model not failed (an incomplete test
     * still fails the models whose forbidden outcomes it reached). */
    bool notfail[LATTICE_MAX_MODELS];
    for (int m = 0; m < nm; m++)
        notfail[m] = !r->fail[m] && r->ran > r->incomplete;
    int nstrong_c = lattice_strongest(lat, notfail, r->strongest_c);
    /* Failed models just above the strongest passed ones (or, with undecided
     * models, the strongest on the complete tests; with none: the weakest failures). */
    r->base_complete = !(r->npass || !r->nund);
    const bool *base = classify_base(r);
    int nbase = r->base_complete ? nstrong_c : r->npass;
    for (int a = 0; a < nm; a++) {
        r->above[a] = false;
        if (!r->fail[a])
            continue;
        for (int s = 0; s < nm; s++)
            if (base[s] && lattice_covers(lat, a, s))
                r->above[a] = true;
        if (!nbase) {
            bool weakest = true;
            for (int b = 0; b < nm; b++)
                if (r->fail[b] && lattice_stronger(lat, a, b))
                    weakest = false;
            r->above[a] = weakest;
        }
    }
}

const bool *classify_base(const classify_result_t *r)
{
    return r->base_complete ? r->strongest_c : r->strongest;
}

int classify_run(const classify_opts_t *o, classify_result_t *r, diag_t *err)
{
    memset(r, 0, sizeof *r);
    r->nm = lattice_nmodels(o->lat);
    r->tests = o->nfiles;
    sb_init(&r->skipped_names);
    sb_init(&r->inc_names);
    if (run_tests(o, r, err))
        return -1;
    judge(o->lat, r);
    for (int a = 0; a < r->nm; a++)
        if (r->above[a] && separating_trace(o, &r->m[a], o->models[a], err))
            return -1;
    return 0;
}

void classify_result_free(classify_result_t *r)
{
    for (int m = 0; m < r->nm; m++) {
        free(r->m[m].sep_file);
        free(r->m[m].sep_name);
        free(r->m[m].sep_outcome);
        free(r->m[m].sep_outcome_json);
        free_trace(r->m[m].sep_trace, r->m[m].sep_ntrace);
    }
    sb_free(&r->skipped_names);
    sb_free(&r->inc_names);
    memset(r, 0, sizeof *r);
}
