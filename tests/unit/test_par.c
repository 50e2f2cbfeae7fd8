/* test_par.c - unit tests for the parallel BFS (checker/explore/explore_par.c)
 * and sys_clone: with 2 and 4 threads the store hook sees exactly the calls one
 * thread makes (numbers, parents, depths, labels, positions, fingerprints,
 * encodings, in order), outcomes arrive in the same order, and counts, verdict,
 * failing state and trace are the same; also under --max-states and
 * --max-depth cuts and on resume. A clone steps like its original. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/base/util.h"
#include "../../checker/exec/exec.h"
#include "../../checker/explore/explore.h"
#include "../../checker/prog/prog.h"
#include "../../checker/proto/proto.h"
#include "../../checker/sys/sys.h"

typedef struct {
    uint64_t h, calls; /* a running hash of every call, and how many */
    uint64_t oh, ocalls;
    int nkeys;
    /* with KEEP: every state as stored, for a resume */
    bool keep;
    uint8_t **st;
    size_t *len;
    int64_t *par;
    int *dep;
    uint32_t *ord;
    size_t n, cap;
} rec_t;

static uint64_t mix(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void on_new(void *ctx, uint32_t id, int64_t parent, int depth, const sys_label_t *lab,
                   uint32_t ord, uint64_t fp, const uint8_t *state, size_t len)
{
    rec_t *r = ctx;
    r->h = mix(r->h, &id, sizeof id);
    r->h = mix(r->h, &parent, sizeof parent);
    r->h = mix(r->h, &depth, sizeof depth);
    r->h = mix(r->h, &lab->kind, 1);
    r->h = mix(r->h, &lab->who, 1);
    r->h = mix(r->h, &lab->what, 2);
    r->h = mix(r->h, &lab->arg, 2);
    r->h = mix(r->h, &ord, sizeof ord);
    r->h = mix(r->h, &fp, sizeof fp);
    r->h = mix(r->h, &len, sizeof len);
    r->h = mix(r->h, state, len);
    r->calls++;
    if (!r->keep)
        return;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 1024;
        r->st = xrealloc(r->st, r->cap * sizeof *r->st);
        r->len = xrealloc(r->len, r->cap * sizeof *r->len);
        r->par = xrealloc(r->par, r->cap * sizeof *r->par);
        r->dep = xrealloc(r->dep, r->cap * sizeof *r->dep);
        r->ord = xrealloc(r->ord, r->cap * sizeof *r->ord);
    }
    r->st[r->n] = xmalloc(len + 1);
    memcpy(r->st[r->n], state, len);
    r->len[r->n] = len;
    r->par[r->n] = parent;
    r->dep[r->n] = depth;
    r->ord[r->n++] = ord;
}

static void on_outcome(void *ctx, const prog_val_t *o, int depth)
{
    rec_t *r = ctx;
    r->oh = mix(r->oh, o, sizeof *o * (size_t)r->nkeys);
    r->oh = mix(r->oh, &depth, sizeof depth);
    r->ocalls++;
}

static void rec_free(rec_t *r)
{
    for (size_t i = 0; i < r->n; i++)
        free(r->st[i]);
    free(r->st);
    free(r->len);
    free(r->par);
    free(r->dep);
    free(r->ord);
}

typedef struct {
    proto_t *p;
    prog_t *g;
    sys_t *s;
    int nkeys;
} fix_t;

static void setup(fix_t *f, const char *proto, const char *test, bool warm, bool env_all)
{
    diag_t d;
    cr_assert_eq(proto_load(proto, &f->p, &d), 0, "%s", d.msg);
    cr_assert_eq(prog_load(test, &f->g, &d), 0, "%s", d.msg);
    sys_config_t cfg = {.warm = warm, .chan_capacity = 8, .env_all = env_all};
    if (env_all)
        cfg.env = SYS_ENV_FETCH | SYS_ENV_EVICT | SYS_ENV_WRITEBACK;
    cr_assert_eq(sys_new(f->p, f->g, &cfg, &f->s, &d), 0, "%s", d.msg);
    exec_layout_t lay;
    exec_layout_init(&lay, f->g);
    f->nkeys = lay.nkeys;
    exec_layout_free(&lay);
}

static void teardown(fix_t *f)
{
    sys_free(f->s);
    prog_free(f->g);
    proto_free(f->p);
}

/* Run with THREADS; fill R (hashes) and RES. Without the store hook (HOOK false)
 * the threads also number the states (explore_par.c's commit_fast). */
static void run_hook(fix_t *f, explore_opts_t o, int threads, rec_t *r, explore_result_t *res,
                     bool hook)
{
    diag_t d;
    r->h = r->oh = 0xcbf29ce484222325ull;
    r->nkeys = f->nkeys;
    o.threads = threads;
    o.on_new = hook ? on_new : NULL;
    o.on_new_ctx = r;
    o.on_outcome = on_outcome;
    o.on_outcome_ctx = r;
    cr_assert_eq(explore_run(f->s, f->nkeys, &o, res, &d), 0, "%s", d.msg);
}

static void run(fix_t *f, explore_opts_t o, int threads, rec_t *r, explore_result_t *res)
{
    run_hook(f, o, threads, r, res, true);
}

static void same(const explore_result_t *a, const rec_t *ra, const explore_result_t *b,
                 const rec_t *rb, int threads)
{
    cr_assert_eq(b->verdict, a->verdict, "threads %d: verdict %s, one thread %s", threads,
                 explore_verdict_names[b->verdict], explore_verdict_names[a->verdict]);
    cr_assert_eq(b->states, a->states, "threads %d: %llu states, one thread %llu", threads,
                 (unsigned long long)b->states, (unsigned long long)a->states);
    cr_assert_eq(b->transitions, a->transitions);
    cr_assert_eq(b->expanded, a->expanded, "threads %d: expanded %llu, one thread %llu", threads,
                 (unsigned long long)b->expanded, (unsigned long long)a->expanded);
    cr_assert_eq(b->max_depth, a->max_depth);
    cr_assert_eq(b->failure_id, a->failure_id);
    cr_assert_str_eq(b->msg, a->msg);
    cr_assert_eq(b->ntrace, a->ntrace);
    for (int i = 0; i < a->ntrace; i++)
        cr_assert_str_eq(b->trace[i], a->trace[i]);
    cr_assert_eq(!a->failure_state, !b->failure_state);
    if (a->failure_state)
        cr_assert_str_eq(b->failure_state, a->failure_state);
    cr_assert_eq(b->reached.n, a->reached.n);
    for (size_t i = 0; i < a->reached.n; i++)
        cr_assert_eq(memcmp(exec_outcome(&a->reached, i), exec_outcome(&b->reached, i),
                            sizeof(prog_val_t) * (size_t)a->reached.nkeys),
                     0);
    if (rb->calls || !ra->calls) {
        cr_assert_eq(rb->calls, ra->calls);
        cr_assert_eq(rb->h, ra->h, "threads %d: the store hook saw other calls", threads);
    }
    cr_assert_eq(rb->ocalls, ra->ocalls);
    cr_assert_eq(rb->oh, ra->oh, "threads %d: outcomes in another order", threads);
}

/* One thread against 2 and 4; returns one thread's state count. */
static uint64_t compare(fix_t *f, explore_opts_t o)
{
    rec_t r1 = {0};
    explore_result_t a;
    run(f, o, 1, &r1, &a);
    for (int t = 2; t <= 4; t += 2) {
        rec_t rt = {0};
        explore_result_t b;
        run(f, o, t, &rt, &b);
        same(&a, &r1, &b, &rt, t);
        explore_result_free(&b);
        rec_t rn = {0};
        run_hook(f, o, t, &rn, &b, false);
        same(&a, &r1, &b, &rn, t);
        explore_result_free(&b);
    }
    uint64_t n = a.states;
    explore_result_free(&a);
    return n;
}

Test(par, warm_env_all_complete_and_cut)
{
    fix_t f;
    setup(&f, "protocols/gpu-wt.proto", "litmus/core/MP+rel+acq+guard.litmus", true, true);
    explore_opts_t o = {0};
    cr_assert_gt(compare(&f, o), 100000); /* complete: several table growths */
    for (uint64_t m = 1; m < 200000; m = m * 7 + 3) {
        o.max_states = m;
        compare(&f, o);
    }
    o.max_states = 0;
    o.max_depth = 9;
    compare(&f, o);
    teardown(&f);
}

Test(par, failures_have_the_same_state_and_trace)
{
    fix_t f;
    /* every terminal outcome forbidden: the first one found is the failure */
    setup(&f, "protocols/gpu-wt-noinv.proto", "litmus/core/SB+sc.litmus", true, false);
    exec_outcomes_t none;
    exec_outcomes_init(&none, f.nkeys);
    explore_opts_t o = {0};
    o.allowed = &none;
    compare(&f, o);
    exec_outcomes_free(&none);
    teardown(&f);
    setup(&f, "tests/e2e/data/bad-deadlock.proto", "litmus/core/RMW-add2.litmus", false, false);
    compare(&f, (explore_opts_t){0});
    teardown(&f);
    setup(&f, "tests/e2e/data/bad-unexpected.proto", "litmus/core/MP+rel+acq.litmus", false, false);
    compare(&f, (explore_opts_t){0});
    teardown(&f);
}

Test(par, resume_continues_like_one_thread)
{
    fix_t f;
    setup(&f, "protocols/gpu-wt.proto", "litmus/core/SB+sc.litmus", true, false);
    /* stop at 1000 of 2956 states with 2 threads, keep what the store would */
    rec_t r = {0};
    r.keep = true;
    explore_result_t a;
    explore_opts_t o = {0};
    o.max_states = 1000;
    run(&f, o, 2, &r, &a);
    cr_assert_eq(a.verdict, EXPLORE_INCOMPLETE);
    explore_resume_t rs = {
        r.n, (const uint8_t *const *)r.st, r.len, r.par, r.dep, r.ord, a.expanded, a.transitions};
    explore_opts_t ro = {0};
    ro.resume = &rs;
    uint64_t n1 = compare(&f, ro);
    explore_result_t full;
    rec_t rf = {0};
    run(&f, (explore_opts_t){0}, 1, &rf, &full);
    cr_assert_eq(n1, full.states);
    cr_assert_eq(n1, 2956);
    explore_result_free(&full);
    explore_result_free(&a);
    rec_free(&r);
    teardown(&f);
}

static void keep_succ(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    rec_t *r = ctx;
    on_new(r, 0, 0, 0, lab, 0, 0, st, len);
}

Test(par, clone_steps_like_the_original)
{
    fix_t f;
    setup(&f, "protocols/gpu-wt.proto", "litmus/core/SB+sc.litmus", true, true);
    sys_t *c = sys_clone(f.s);
    rec_t a = {0};
    a.keep = true;
    sys_error_t e;
    cr_assert_gt(sys_initial(f.s, keep_succ, &a, &e), 0);
    for (size_t i = 0; i < a.n && i < 200; i++) {
        rec_t x = {0}, y = {0};
        int n1 = sys_successors(f.s, a.st[i], a.len[i], keep_succ, &x, &e);
        int n2 = sys_successors(c, a.st[i], a.len[i], keep_succ, &y, &e);
        cr_assert_eq(n1, n2);
        cr_assert_eq(x.h, y.h);
        if (i + 1 < 200 && n1 > 0) /* walk on: the successors are states too */
            sys_successors(f.s, a.st[i], a.len[i], keep_succ, &a, &e);
    }
    rec_free(&a);
    sys_clone_free(c);
    teardown(&f);
}
