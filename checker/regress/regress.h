/* regress.h - what a protocol change did (`cohcheck regress OLD NEW SUITE...`): every test
 * runs under both versions, per model; each (test, model) pair gives the two verdicts and
 * state-space sizes and the outcomes gained or lost. Invariant: outcomes gained are only
 * reported when the old search was complete (verdict ok), lost ones only when the new one
 * was: a search that stopped reached only part of its outcomes. Library code: it never
 * prints or exits; results go to a callback. */
#ifndef COHCHECK_REGRESS_H
#define COHCHECK_REGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/diag.h"
#include "../cat/cat.h"
#include "../exec/exec.h"
#include "../proto/proto.h"
#include "../sys/sys.h"

/* One version's run of one test under one model. */
typedef struct {
    int verdict; /* explore_verdict_t, or -1: skipped (the system could not be built) */
    uint64_t states, transitions;
    exec_outcomes_t reached;
    bool have; /* REACHED is valid */
} regress_side_t;

/* One (test, model) pair under both versions. */
typedef struct {
    const prog_t *prog;
    const exec_layout_t *lay;
    int model; /* index into the options' models */
    regress_side_t old, cur;
    bool verdict_changed, worse, states_changed, any;
    exec_outcomes_t gained, lost; /* in LAY's order, sorted */
} regress_pair_t;

typedef struct {
    const proto_t *old, *cur; /* the two versions */
    sys_config_t cfg;
    cat_model_t *const *models;
    int nmodels;
    int unroll;
    uint64_t max_states; /* per exploration */
    bool por, liveness;  /* liveness: weak fairness, as check --liveness */
    bool symmetry;       /* explore_opts_t.symmetry (not applied with liveness) */
    char *const *files;
    int nfiles;
    /* Test DONE of TOTAL starts (FILE). May be NULL. */
    void (*progress)(void *ctx, int done, int total, const char *file);
    /* A test that could not be read or evaluated: it is left out. May be NULL. */
    void (*bad_file)(void *ctx, const diag_t *d);
    /* Each pair, in test then model order. */
    void (*on_pair)(void *ctx, const regress_pair_t *p);
    void *ctx;
} regress_opts_t;

typedef struct {
    int runs, changed, worse, unreadable;
} regress_stats_t;

/* Run every test under both versions. 0 (bad test files are counted, not errors). */
int regress_run(const regress_opts_t *o, regress_stats_t *st);
/* "ok", "violation", ..., or "skipped" for -1. */
const char *regress_verdict_name(int v);

#endif
