/* test_models.c - the model files in models/ evaluated on hand-built
 * candidate executions (tests run from the repository root).
 *
 * Executions are written compactly, one thread per '|'-separated part:
 *   "@wg0 W:x=1 W.rel.wg:f=1 | @wg0 R.acq.wg:f=1 R:x=1"
 * Events: W (write), R (read), F (fence), U (an RMW: "U.acqrel:x=0>1" is a
 * read of 0 then a write of 1, related by rmw), each with optional .ORDER
 * (rlx acq rel acqrel sc; none = plain, U and F default to acqrel) and
 * .SCOPE (wg agent system rm_agent; atomics default to agent, plain accesses
 * have none). "@wgK" / "@cuK" place the thread (default: its index).
 * Every location has an initial write of 0 (the IW events come first); a
 * read of V reads from the one write of V to its location; coherence orders
 * each location's writes by value. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/cat/cat.h"

#define B(i) (UINT64_C(1) << (i))

enum { K_R, K_W, K_F };
enum { O_PLAIN, O_RLX, O_ACQ, O_REL, O_ACQREL, O_SC };
enum { S_NONE, S_WG, S_AGENT, S_SYSTEM, S_RMA };

typedef struct {
    int kind, thread; /* thread -1: initial write */
    char loc;         /* 0 for fences */
    int val, ord, scope;
    int rmw_partner; /* for the read of an RMW: index of its write, else -1 */
} ev_t;

static int word_is(const char *s, size_t n, const char *w)
{
    return strlen(w) == n && strncmp(s, w, n) == 0;
}

/* Build X from DESC (see the file comment); fails the test on a bad description. */
static void build(cat_exec_t *x, const char *desc)
{
    ev_t ev[CAT_MAX_EVENTS];
    int n = 0, thread = 0;
    int wg[16], cu[16];
    char locs[16];
    int nlocs = 0;
    locs[0] = 0;
    for (int t = 0; t < 16; t++)
        wg[t] = cu[t] = t;
    /* Pass 1: locations, in order of appearance, so IW come first. */
    for (const char *p = desc; *p; p++) {
        if (*p == ':' && p[1] && !strchr(locs, p[1]) && nlocs < 15) {
            locs[nlocs++] = p[1];
            locs[nlocs] = 0;
        }
    }
    for (int l = 0; l < nlocs; l++)
        ev[n++] = (ev_t){K_W, -1, locs[l], 0, O_PLAIN, S_NONE, -1};
    const char *p = desc;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (*p == '|') {
            thread++;
            p++;
            continue;
        }
        size_t len = strcspn(p, " |");
        if (*p == '@') {
            int v = atoi(p + 3);
            if (strncmp(p, "@wg", 3) == 0)
                wg[thread] = v;
            else if (strncmp(p, "@cu", 3) == 0)
                cu[thread] = v;
            else
                cr_assert_fail("bad placement in %s", desc);
            p += len;
            continue;
        }
        char kind = p[0];
        int ord = kind == 'U' || kind == 'F' ? O_ACQREL : O_PLAIN;
        int scope = -1;
        const char *q = p + 1;
        while (*q == '.') {
            q++;
            size_t w = strcspn(q, ".: |");
            static const char *const ords[] = {"plain", "rlx", "acq", "rel", "acqrel", "sc"};
            static const char *const scopes[] = {"none", "wg", "agent", "system", "rm_agent"};
            int found = 0;
            for (int i = 0; i < 6; i++)
                if (word_is(q, w, ords[i]))
                    ord = i, found = 1;
            for (int i = 0; i < 5; i++)
                if (word_is(q, w, scopes[i]))
                    scope = i, found = 1;
            cr_assert(found, "bad label in %s", desc);
            q += w;
        }
        if (scope < 0)
            scope = ord == O_PLAIN ? S_NONE : S_AGENT;
        char loc = 0;
        int v1 = 0, v2 = 0;
        if (kind != 'F') {
            cr_assert(*q == ':', "missing location in %s", desc);
            loc = q[1];
            cr_assert(q[2] == '=', "bad access in %s", desc);
            v1 = (int)strtol(q + 3, (char **)&q, 10);
            if (kind == 'U') {
                cr_assert(*q == '>', "bad RMW in %s", desc);
                v2 = (int)strtol(q + 1, (char **)&q, 10);
            }
        }
        cr_assert(n + 2 <= CAT_MAX_EVENTS);
        switch (kind) {
        case 'R': ev[n++] = (ev_t){K_R, thread, loc, v1, ord, scope, -1}; break;
        case 'W': ev[n++] = (ev_t){K_W, thread, loc, v1, ord, scope, -1}; break;
        case 'F': ev[n++] = (ev_t){K_F, thread, 0, 0, ord, scope, -1}; break;
        case 'U':
            ev[n] = (ev_t){K_R, thread, loc, v1, ord, scope, n + 1};
            ev[n + 1] = (ev_t){K_W, thread, loc, v2, ord, scope, -1};
            n += 2;
            break;
        default: cr_assert_fail("bad event '%c' in %s", kind, desc);
        }
        p += len;
    }

    memset(x, 0, sizeof *x);
    x->n = n;
    for (int i = 0; i < n; i++) {
        const ev_t *e = &ev[i];
        uint64_t bi = B(i);
        x->rels[CAT_REL_ID][i] |= bi;
        if (e->kind == K_R)
            x->sets[CAT_SET_R] |= bi;
        if (e->kind == K_W)
            x->sets[CAT_SET_W] |= bi;
        if (e->kind == K_F)
            x->sets[CAT_SET_F] |= bi;
        if (e->kind != K_F)
            x->sets[CAT_SET_M] |= bi;
        if (e->thread < 0) {
            x->sets[CAT_SET_IW] |= bi;
        } else {
            static const int ordset[] = {CAT_SET_PLAIN, CAT_SET_RLX,    CAT_SET_ACQ,
                                         CAT_SET_REL,   CAT_SET_ACQREL, CAT_SET_SC};
            static const int scopeset[] = {-1, CAT_SET_WG, CAT_SET_AGENT, CAT_SET_SYSTEM,
                                           CAT_SET_RMA};
            x->sets[ordset[e->ord]] |= bi;
            if (scopeset[e->scope] >= 0)
                x->sets[scopeset[e->scope]] |= bi;
        }
        if (e->rmw_partner >= 0)
            x->rels[CAT_REL_RMW][i] |= B(e->rmw_partner);
        int rf_src = -1;
        for (int j = 0; j < n; j++) {
            const ev_t *f = &ev[j];
            bool same_thread = e->thread >= 0 && e->thread == f->thread;
            bool both_iw = e->thread < 0 && f->thread < 0;
            if (same_thread && j > i)
                x->rels[CAT_REL_PO][i] |= B(j);
            if (same_thread)
                x->rels[CAT_REL_INT][i] |= B(j);
            if (!same_thread && !both_iw)
                x->rels[CAT_REL_EXT][i] |= B(j);
            if (e->thread >= 0 && f->thread >= 0 && wg[e->thread] == wg[f->thread])
                x->rels[CAT_REL_WG][i] |= B(j);
            if (e->thread >= 0 && f->thread >= 0 && cu[e->thread] == cu[f->thread])
                x->rels[CAT_REL_CU][i] |= B(j);
            if (e->thread >= 0 && f->thread >= 0 &&
                (e->scope == S_WG ? wg[e->thread] == wg[f->thread] : e->scope != S_NONE))
                x->rels[CAT_REL_INCL][i] |= B(j);
            if (e->loc && e->loc == f->loc) {
                x->rels[CAT_REL_LOC][i] |= B(j);
                if (e->kind == K_W && f->kind == K_W && e->val < f->val)
                    x->rels[CAT_REL_CO][i] |= B(j);
                if (e->kind == K_R && f->kind == K_W && f->val == e->val) {
                    cr_assert(rf_src < 0, "two writes of %d to %c in %s", e->val, e->loc, desc);
                    rf_src = j;
                }
            }
        }
        if (e->kind == K_R) {
            cr_assert(rf_src >= 0, "no write of %d to %c in %s", e->val, e->loc, desc);
            x->rels[CAT_REL_RF][rf_src] |= bi;
        }
    }
    /* fr = rf^-1 ; co */
    for (int w = 0; w < n; w++) {
        for (int r = 0; r < n; r++) {
            if (x->rels[CAT_REL_RF][w] & B(r))
                x->rels[CAT_REL_FR][r] |= x->rels[CAT_REL_CO][w];
        }
    }
}

static cat_model_t *load(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "models/%s.cat", name);
    cat_model_t *m = NULL;
    diag_t err;
    char msg[1200];
    if (cat_load(path, &m, &err) != 0) {
        diag_format(&err, msg, sizeof msg);
        cr_assert_fail("cannot load %s: %s", path, msg);
    }
    return m;
}

static cat_result_t eval(const char *model, const char *desc)
{
    cat_model_t *m = load(model);
    cat_exec_t x;
    build(&x, desc);
    cat_ctx_t *c = cat_ctx_new(m);
    cat_result_t r;
    cat_eval(c, &x, &r);
    /* A second evaluation on the same context gives the same answer. */
    cat_result_t r2;
    cat_eval(c, &x, &r2);
    cr_assert(r.consistent == r2.consistent && r.flags == r2.flags &&
              r.failed_check == r2.failed_check);
    cat_ctx_free(c);
    cat_free(m);
    return r;
}

static bool consistent(const char *model, const char *desc)
{
    return eval(model, desc).consistent;
}

/* Consistent and racy (the "racy" flag raised)? Fails the test when inconsistent. */
static bool racy(const char *model, const char *desc)
{
    cat_result_t r = eval(model, desc);
    cr_assert(r.consistent, "%s: execution must be SC-consistent: %s", model, desc);
    return r.flags != 0;
}

static const char *const all_models[] = {"sc", "rcsc", "rcpc", "drf", "hrf-direct", "hrf-indirect"};

Test(models, load_all)
{
    static const char *const titles[] = {
        "Sequential consistency",
        "Release consistency, SC synchronization (RCsc)",
        "Release consistency, processor-consistent synchronization (RCpc)",
        "SC for DRF (DRF0)",
        "SC for HRF, direct (HRF-direct)",
        "SC for HRF, indirect (HRF-indirect)",
    };
    for (int i = 0; i < 6; i++) {
        cat_model_t *m = load(all_models[i]);
        cr_expect_str_eq(cat_model_name(m), all_models[i]);
        cr_expect_str_eq(cat_model_title(m), titles[i]);
        cr_expect_str_eq(cat_check_name(m, 0), "sc-per-location");
        cr_expect_str_eq(cat_check_name(m, 1), "atomicity");
        bool race_model = i >= 3;
        cr_expect_eq(cat_nflags(m), race_model ? 1 : 0, "%s", all_models[i]);
        if (race_model)
            cr_expect_str_eq(cat_flag_name(m, 0), "racy");
        cat_free(m);
    }
}

Test(models, common_axioms_everywhere)
{
    for (int i = 0; i < 6; i++) {
        /* CoRR: a thread reads the new value, then the old one. */
        cat_result_t r = eval(all_models[i], "W:x=1 | R:x=1 R:x=0");
        cr_expect(!r.consistent, "%s", all_models[i]);
        cr_expect_eq(r.failed_check, 0, "%s", all_models[i]);
        /* An RMW that another write splits. */
        r = eval(all_models[i], "U.rlx:x=0>2 | W:x=1");
        cr_expect(!r.consistent, "%s", all_models[i]);
        cr_expect_eq(r.failed_check, 1, "%s", all_models[i]);
        cr_expect(eval(all_models[i], "U.rlx:x=0>1 | W:x=2").consistent, "%s", all_models[i]);
        /* Single-thread, SC outcome. */
        cr_expect(eval(all_models[i], "W:x=1 R:x=1").consistent, "%s", all_models[i]);
    }
}

Test(models, message_passing)
{
    const char *mp_ra = "W:x=1 W.rel:y=1 | R.acq:y=1 R:x=0";
    cr_expect(!consistent("sc", mp_ra));
    cr_expect(!consistent("rcsc", mp_ra));
    cr_expect(!consistent("rcpc", mp_ra));
    const char *mp_plain = "W:x=1 W:y=1 | R:y=1 R:x=0";
    cr_expect(!consistent("sc", mp_plain));
    cr_expect(consistent("rcsc", mp_plain));
    cr_expect(consistent("rcpc", mp_plain));
    const char *mp_ok = "W:x=1 W.rel:y=1 | R.acq:y=1 R:x=1";
    for (int i = 0; i < 6; i++)
        cr_expect(consistent(all_models[i], mp_ok), "%s", all_models[i]);
    /* Only the acquire side: the writes may be reordered. */
    cr_expect(consistent("rcsc", "W:x=1 W:y=1 | R.acq:y=1 R:x=0"));
    cr_expect(consistent("rcpc", "W:x=1 W:y=1 | R.acq:y=1 R:x=0"));
    /* sc labels act as acqrel in rcpc. */
    cr_expect(!consistent("rcpc", "W:x=1 W.sc:y=1 | R.sc:y=1 R:x=0"));
}

Test(models, fences)
{
    const char *mp_f = "W:x=1 F.rel W:y=1 | R:y=1 F.acq R:x=0";
    cr_expect(!consistent("rcsc", mp_f));
    cr_expect(!consistent("rcpc", mp_f));
    cr_expect(consistent("rcpc", "W:x=1 F.acq W:y=1 | R:y=1 F.acq R:x=0"),
              "an acquire fence does not release");
    cr_expect(!consistent("rcsc", "W:x=1 F.sc R:y=0 | W:y=1 F.sc R:x=0"), "sc fences are full");
    cr_expect(!consistent("rcsc", "W:x=1 F R:y=0 | W:y=1 F R:x=0"), "acqrel fences are full");
    cr_expect(consistent("rcsc", "W:x=1 F.rel R:y=0 | W:y=1 F.rel R:x=0"));
}

Test(models, store_buffering)
{
    const char *sb = "W.rel:x=1 R.acq:y=0 | W.rel:y=1 R.acq:x=0";
    cr_expect(!consistent("sc", sb));
    cr_expect(!consistent("rcsc", sb));
    cr_expect(consistent("rcpc", sb));
    cr_expect(consistent("rcpc", "W.rel:x=1 F.sc R.acq:y=0 | W.rel:y=1 F.sc R.acq:x=0"),
              "rcpc has no SC fences: sc acts as acqrel");
}

Test(models, iriw_and_load_buffering)
{
    const char *iriw = "W:x=1 | W:y=1 | R.acq:x=1 R.acq:y=0 | R.acq:y=1 R.acq:x=0";
    cr_expect(!consistent("sc", iriw));
    cr_expect(!consistent("rcsc", iriw));
    cr_expect(consistent("rcpc", iriw));
    const char *iriw_rel = "W.rel:x=1 | W.rel:y=1 | R.acq:x=1 R.acq:y=0 | R.acq:y=1 R.acq:x=0";
    cr_expect(!consistent("rcsc", iriw_rel));
    cr_expect(consistent("rcpc", iriw_rel));
    const char *lb = "R:x=1 W:y=1 | R:y=1 W:x=1";
    cr_expect(!consistent("sc", lb));
    cr_expect(consistent("rcsc", lb));
    cr_expect(consistent("rcpc", lb));
    cr_expect(!consistent("rcsc", "R.acq:x=1 W:y=1 | R.acq:y=1 W:x=1"));
    cr_expect(!consistent("rcpc", "R.acq:x=1 W.rel:y=1 | R.acq:y=1 W.rel:x=1"));
}

Test(models, release_sequence)
{
    cr_expect(!consistent("rcpc", "W:x=1 W.rel:y=1 | U.rlx:y=1>2 | R.acq:y=2 R:x=0"));
    cr_expect(consistent("rcpc", "W:x=1 W.rel:y=1 | W:y=2 | R.acq:y=2 R:x=0"));
    cr_expect(!consistent("rcpc", "W:x=1 W.rel:y=1 | U.rlx:y=1>2 | U.rlx:y=2>3 | R.acq:y=3 R:x=0"));
}

Test(models, drf)
{
    cr_expect(racy("drf", "W:x=1 W:y=1 | R:y=1 R:x=1"), "plain MP");
    cr_expect(!racy("drf", "W:x=1 W.rel:y=1 | R.acq:y=1 R:x=1"), "MP rel/acq, data after flag");
    cr_expect(racy("drf", "W:x=1 W.rel:y=1 | R.acq:y=0 R:x=0"), "data read not guarded");
    cr_expect(racy("drf", "W:x=1 W.rlx:y=1 | R.rlx:y=1 R:x=1"), "rlx is data");
    cr_expect(racy("drf", "W:x=1 F.rel W.rlx:y=1 | R.rlx:y=1 F.acq R:x=1"), "fences do not sync");
    cr_expect(!racy("drf", "W.sc:x=1 | R.sc:x=1"), "sync accesses do not race");
    cr_expect(!racy("drf", "R:x=0 | R:x=0"), "two reads do not race");
    cr_expect(!racy("drf", "W:x=1 W:x=2 R:x=2"), "one thread does not race");
    cr_expect(!racy("drf", "W:x=1 W.rel:y=1 | U.acqrel:y=1>2 W.rel:z=1 | R.acq:z=1 R:x=1"),
              "hb is transitive");
    cr_expect(!racy("drf", "W.rel.wg:y=1 | R.acq.wg:y=1"), "drf ignores scopes");
    cr_expect(!consistent("drf", "W:x=1 W:y=1 | R:y=1 R:x=0"), "drf consistency is SC");
}

Test(models, hrf_same_workgroup)
{
    const char *mp_wg = "@wg0 W:x=1 W.rel.wg:f=1 | @wg0 R.acq.wg:f=1 R:x=1";
    cr_expect(!racy("hrf-direct", mp_wg));
    cr_expect(!racy("hrf-indirect", mp_wg));
    cr_expect(!racy("drf", mp_wg));
    const char *mp_agent = "W:x=1 W.rel.agent:f=1 | R.acq.system:f=1 R:x=1";
    cr_expect(!racy("hrf-direct", mp_agent));
    cr_expect(!racy("hrf-indirect", mp_agent));
}

Test(models, hrf_heterogeneous_race)
{
    const char *wg_across = "W:x=1 W.rel.wg:f=1 | R.acq.wg:f=1 R:x=1";
    cr_expect(racy("hrf-direct", wg_across));
    cr_expect(racy("hrf-indirect", wg_across));
    cr_expect(!racy("drf", wg_across));
    /* No data access at all: only the heterogeneous race. */
    cr_expect(racy("hrf-direct", "W.rel.wg:f=1 | R.acq.wg:f=1"));
    cr_expect(racy("hrf-indirect", "W.rel.wg:f=1 | R.acq.agent:f=1"));
    cr_expect(!racy("hrf-indirect", "@wg3 W.rel.wg:f=1 | @wg3 R.acq.agent:f=1"));
    /* Same compute unit is not the same work-group. */
    cr_expect(racy("hrf-indirect", "@cu0 W.rel.wg:f=1 | @cu0 R.acq.wg:f=1"));
}

Test(models, hrf_transitivity)
{
    /* P0 -> P1 by a work-group edge, P1 -> P2 by an agent edge. */
    const char *chain = "@wg0 W:x=1 W.rel.wg:f=1 | @wg0 R.acq.wg:f=1 W.rel.agent:g=1 | "
                        "@wg1 R.acq.agent:g=1 R:x=1";
    cr_expect(racy("hrf-direct", chain));
    cr_expect(!racy("hrf-indirect", chain));
    /* The same chain entirely at agent scope is one instance. */
    const char *agent_chain = "@wg0 W:x=1 W.rel.agent:f=1 | @wg0 R.acq.agent:f=1 "
                              "W.rel.agent:g=1 | @wg1 R.acq.agent:g=1 R:x=1";
    cr_expect(!racy("hrf-direct", agent_chain));
    /* A mixed pair in one work-group synchronizes only in hrf-indirect. */
    const char *mixed = "@wg0 W:x=1 W.rel.wg:f=1 | @wg0 R.acq.agent:f=1 R:x=1";
    cr_expect(racy("hrf-direct", mixed));
    cr_expect(!racy("hrf-indirect", mixed));
}

Test(models, hrf_remote_scope_promotion)
{
    const char *rma_acq = "@wg0 W:x=1 W.rel.wg:f=1 | @wg1 R.acq.rm_agent:f=1 R:x=1";
    cr_expect(!racy("hrf-direct", rma_acq));
    cr_expect(!racy("hrf-indirect", rma_acq));
    const char *rma_rel = "@wg0 W:x=1 W.rel.rm_agent:f=1 | @wg1 R.acq.wg:f=1 R:x=1";
    cr_expect(!racy("hrf-direct", rma_rel));
    cr_expect(!racy("hrf-indirect", rma_rel));
    /* Without the promotion it races. */
    cr_expect(racy("hrf-direct", "@wg0 W:x=1 W.rel.wg:f=1 | @wg1 R.acq.agent:f=1 R:x=1"));
}

Test(models, evaluator_reuse_across_sizes)
{
    /* One context evaluates executions of different sizes in turn. */
    cat_model_t *m = load("rcpc");
    cat_ctx_t *c = cat_ctx_new(m);
    cat_exec_t big, small;
    build(&big, "W:x=1 W.rel:y=1 | U.rlx:y=1>2 | U.rlx:y=2>3 | R.acq:y=3 R:x=0 | W:z=1 R:z=1");
    build(&small, "W:x=1 | R:x=1");
    cat_result_t r;
    for (int i = 0; i < 3; i++) {
        cat_eval(c, &big, &r);
        cr_expect(!r.consistent);
        cr_expect_str_eq(cat_check_name(m, r.failed_check), "coherence");
        cat_eval(c, &small, &r);
        cr_expect(r.consistent);
    }
    cat_ctx_free(c);
    cat_free(m);
}

/* The lattice models (models/lattice): tso, pc, rcpc-gh, ptx, vulkan. */

Test(lattice_models, load_and_titles)
{
    static const char *const names[] = {"tso", "pc", "rcpc-gh", "ptx", "vulkan"};
    static const char *const titles[] = {
        "Total store order (TSO)",
        "Processor consistency (PC)",
        "Release consistency, processor-consistent special accesses (Gharachorloo RCpc)",
        "PTX memory model (Lustig et al., ASPLOS 2019)",
        "Vulkan memory model",
    };
    for (int i = 0; i < 5; i++) {
        cat_model_t *m = load(names[i]);
        cr_expect_str_eq(cat_model_title(m), titles[i]);
        cr_expect_eq(cat_nflags(m), i == 4 ? 1 : 0, "%s", names[i]);
        cat_free(m);
    }
}

Test(lattice_models, tso)
{
    cr_expect(consistent("tso", "W:x=1 R:y=0 | W:y=1 R:x=0"), "SB allowed");
    cr_expect(!consistent("tso", "W:x=1 F.sc R:y=0 | W:y=1 F.sc R:x=0"), "SB+mfences");
    cr_expect(!consistent("tso", "W:x=1 F.acqrel R:y=0 | W:y=1 F.acqrel R:x=0"));
    cr_expect(consistent("tso", "W:x=1 F.rel R:y=0 | W:y=1 F.acq R:x=0"), "acq/rel fences: no-ops");
    cr_expect(!consistent("tso", "U.rlx:x=0>1 R:y=0 | U.rlx:y=0>1 R:x=0"), "locked RMWs");
    cr_expect(!consistent("tso", "W:x=1 W:y=1 | R:y=1 R:x=0"), "MP");
    cr_expect(!consistent("tso", "R:x=1 W:y=1 | R:y=1 W:x=1"), "LB");
    cr_expect(!consistent("tso", "W:x=1 | W:y=1 | R:x=1 R:y=0 | R:y=1 R:x=0"), "IRIW");
    cr_expect(!consistent("tso", "W:x=1 | R:x=1 W:y=1 | R:y=1 R:x=0"), "WRC");
    /* Store forwarding: a thread reads its own write before others see it. */
    cr_expect(consistent("tso", "W:x=1 R:x=1 R:y=0 | W:y=1 R:y=1 R:x=0"));
}

Test(lattice_models, pc)
{
    cr_expect(consistent("pc", "W:x=1 R:y=0 | W:y=1 R:x=0"), "SB");
    cr_expect(!consistent("pc", "W:x=1 W:y=1 | R:y=1 R:x=0"), "MP");
    cr_expect(!consistent("pc", "R:x=1 W:y=1 | R:y=1 W:x=1"), "LB");
    cr_expect(consistent("pc", "W:x=1 | W:y=1 | R:x=1 R:y=0 | R:y=1 R:x=0"), "IRIW");
    cr_expect(consistent("pc", "W:x=1 | R:x=1 W:y=1 | R:y=1 R:x=0"), "WRC");
    cr_expect(!consistent("pc", "W:x=1 W:y=2 | W:y=1 W:x=2 | R:x=2 R:y=2 R:x=1"),
              "2+2W: x=1 and y=1 last is a cycle of writes");
    cr_expect(!consistent("pc", "W:x=1 W:y=1 | R:y=1 W:z=1 | R:z=1 R:x=0"),
              "ISA2: x is performed everywhere before y is seen (B)");
    cr_expect(consistent("pc", "W:x=1 F.sc R:y=0 | W:y=1 F.sc R:x=0"),
              "fences order within a thread's view only");
    /* Allowed by PC, forbidden by TSO: non-multi-copy-atomic IRIW. */
    cr_expect(!consistent("tso", "W:x=1 | W:y=1 | R:x=1 R:y=0 | R:y=1 R:x=0"));
}

Test(lattice_models, rcpc_gh)
{
    const char *wrc = "W:x=1 | R.acq:x=1 W.rel:y=1 | R.acq:y=1 R:x=0";
    cr_expect(consistent("rcpc-gh", wrc), "not cumulative: WRC with release/acquire allowed");
    cr_expect(!consistent("rcpc", wrc), "C11 release/acquire is cumulative");
    cr_expect(!consistent("rcsc", wrc));
    cr_expect(!consistent("rcpc-gh", "W:x=1 W.rel:y=1 | R.acq:y=1 R:x=0"), "MP+rel+acq");
    cr_expect(consistent("rcpc-gh", "W:x=1 W:y=1 | R.acq:y=1 R:x=0"), "no release");
    cr_expect(consistent("rcpc-gh", "W.rel:x=1 R.acq:y=0 | W.rel:y=1 R.acq:x=0"),
              "a release then an acquire are not ordered (RCpc)");
    cr_expect(!consistent("rcsc", "W.rel:x=1 R.acq:y=0 | W.rel:y=1 R.acq:x=0"));
    cr_expect(consistent("rcpc-gh", "W.rel:x=1 | W.rel:y=1 | R.acq:x=1 R.acq:y=0 | "
                                    "R.acq:y=1 R.acq:x=0"),
              "IRIW with acquires");
    cr_expect(!consistent("rcpc-gh", "R.acq:x=1 W:y=1 | R.acq:y=1 W:x=1"), "LB+acqs");
    cr_expect(consistent("rcpc-gh", "R:x=1 W:y=1 | R:y=1 W:x=1"), "plain LB");
    cr_expect(!consistent("rcpc-gh", "W:x=1 F.rel W:y=1 | R:y=1 F.acq R:x=0"), "MP+fences");
    /* The release orders its own thread's stores for every observer. */
    cr_expect(!consistent("rcpc-gh", "W:x=1 W.rel:y=1 | R.acq:y=1 W.rel:z=1 | R.acq:z=1 R:x=0"),
              "ISA2: x is globally performed before the first release");
}

Test(lattice_models, ptx)
{
    cr_expect(!consistent("ptx", "W:x=1 W.rel:y=1 | R.acq:y=1 R:x=0"), "MP+rel+acq (gpu)");
    cr_expect(consistent("ptx", "@wg0 W:x=1 W.rel.wg:y=1 | @wg1 R.acq.wg:y=1 R:x=0"),
              "cta scope does not reach another CTA");
    cr_expect(!consistent("ptx", "@wg0 W:x=1 W.rel.wg:y=1 | @wg0 R.acq.wg:y=1 R:x=0"),
              "cta scope inside one CTA");
    cr_expect(consistent("ptx", "W:x=1 F W:y=1 | R:y=1 F R:x=0"), "fences need strong flags");
    cr_expect(!consistent("ptx", "W:x=1 F W.rlx:y=1 | R.rlx:y=1 F R:x=0"), "MP+fences+rlx");
    cr_expect(consistent("ptx", "W.rlx:x=1 F.acqrel R.rlx:y=0 | W.rlx:y=1 F.acqrel R.rlx:x=0"),
              "SB with acq_rel fences");
    cr_expect(!consistent("ptx", "W.rlx:x=1 F.sc R.rlx:y=0 | W.rlx:y=1 F.sc R.rlx:x=0"),
              "SB with morally strong fence.sc");
    cr_expect(
        consistent("ptx", "@wg0 W.rlx:x=1 F.sc.wg R.rlx:y=0 | @wg1 W.rlx:y=1 F.sc.wg R.rlx:x=0"),
        "fence.sc.cta in two CTAs are not morally strong");
    cr_expect(!consistent("ptx", "W:x=1 W.rel:y=1 | R.acq:y=1 W.rel:z=1 | R.acq:z=1 R:x=0"),
              "causality order is transitive (cumulative)");
    /* Weak accesses may disagree on the order of racing writes (partial co). */
    cr_expect(consistent("ptx", "W:x=1 | W:x=2 | R:x=1 R:x=2 | R:x=2 R:x=1"));
    cr_expect(
        !consistent("ptx", "W.rlx:x=1 | W.rlx:x=2 | R.rlx:x=1 R.rlx:x=2 | R.rlx:x=2 R.rlx:x=1"),
        "but morally strong ones may not");
    cr_expect(consistent("ptx", "W:x=1 | R:x=1 R:x=0"), "weak CoRR across threads");
    cr_expect(!consistent("ptx", "W:x=1 R:x=0"), "po-loc is always kept");
    cr_expect(!consistent("ptx", "U.rlx:x=0>2 | W.rlx:x=1"), "atomicity among strong writes");
    cr_expect(consistent("ptx", "@wg0 U.rlx.wg:x=0>2 | @wg1 W.rlx.wg:x=1"),
              "not across CTAs at cta scope");
}

Test(lattice_models, vulkan)
{
    const char *mp = "W:x=1 W.rel:y=1 | R.acq:y=1 R:x=%d";
    char buf[128];
    snprintf(buf, sizeof buf, mp, 0);
    cr_expect(!consistent("vulkan", buf), "MP+rel+acq");
    snprintf(buf, sizeof buf, mp, 1);
    cr_expect(!racy("vulkan", buf), "MP: the data load is ordered after the store");
    cr_expect(racy("vulkan", "W:x=1 W:y=1 | R:y=1 R:x=1"), "plain MP races");
    cr_expect(!racy("vulkan", "W.rlx:x=1 W.rlx:y=1 | R.rlx:y=1 R.rlx:x=0"),
              "atomics never race with each other in scope");
    cr_expect(consistent("vulkan", "W.rlx:x=1 W.rlx:y=1 | R.rlx:y=1 R.rlx:x=0"), "relaxed MP");
    cr_expect(racy("vulkan", "@wg0 W.rlx.wg:x=1 | @wg1 W.rlx.wg:x=2"),
              "workgroup-scoped atomics of two work-groups race");
    cr_expect(!racy("vulkan", "@wg0 W.rlx.wg:x=1 | @wg0 W.rlx.wg:x=2"));
    cr_expect(racy("vulkan", "@wg0 W:x=1 W.rel.wg:y=1 | @wg1 R.acq.wg:y=1 R:x=1"),
              "workgroup release/acquire do not order two work-groups");
    cr_expect(!racy("vulkan", "@wg0 W:x=1 W.rel.wg:y=1 | @wg0 R.acq.wg:y=1 R:x=1"));
    cr_expect(consistent("vulkan", "W.rel:x=1 R.acq:y=0 | W.rel:y=1 R.acq:x=0"),
              "no sequentially consistent order");
    cr_expect(!consistent("vulkan", "W:x=1 W:x=2 R:x=1"), "same-thread order");
}
