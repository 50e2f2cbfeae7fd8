/* classify.h - where a protocol sits in the lattice of memory models (`cohcheck classify`;
 * docs/architecture.md section 3, JSON fields protocol, passes, fails, strongest,
 * separating). Each test is explored once, with no model to stop at, collecting every
 * outcome the protocol reaches and the least depth at which it reaches it (BFS), and is
 * evaluated once under all the lattice's models. A model fails when some test reaches an
 * outcome it forbids (a racy test forbids nothing), passes when every test was explored
 * completely without that, and is undecided otherwise: an incomplete search is never a
 * pass. The strongest passed models are the maximal ones; for each failed model just above
 * one of them, the separating test is the one whose forbidden outcome is reached in the
 * fewest steps, explored again under that model alone for its (shortest, BFS) trace.
 * Library code: it never prints or exits. */
#ifndef COHCHECK_CLASSIFY_H
#define COHCHECK_CLASSIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/diag.h"
#include "../base/util.h"
#include "../cat/cat.h"
#include "../lattice/lattice.h"
#include "../proto/proto.h"
#include "../sys/sys.h"

/* One model of the lattice on the suite, and its best separating test. */
typedef struct {
    int failed_tests, undecided_tests;
    char *sep_file; /* the failing test with the shallowest forbidden outcome */
    char *sep_name;
    int sep_depth;
    uint64_t sep_states;
    bool sep_protocol_error; /* a deadlock/invariant/unexpected, not an outcome */
    int sep_verdict;         /* an explore_verdict_t */
    char **sep_trace;        /* the separating run's steps */
    int sep_ntrace;
    char sep_msg[320];
    char *sep_outcome;      /* the forbidden outcome, "0:r0=1; x=0;" */
    char *sep_outcome_json; /* the same as a JSON object */
} classify_model_t;

typedef struct {
    proto_t *proto; /* parameters applied */
    sys_config_t cfg;
    uint64_t max_states; /* per exploration; 0: none */
    int unroll;
    bool por;
    bool symmetry; /* explore_opts_t.symmetry: the same outcome sets, fewer states */
    /* explore_opts_t.liveness with weak fairness (the full graph): a livelock or a
     * starvation is a protocol error, failing every model as a deadlock does */
    bool liveness;
    const lattice_t *lat;
    cat_model_t *const *models; /* the lattice's models, in its order */
    char *const *files;         /* the tests */
    int nfiles;
    /* Test DONE of TOTAL starts (FILE). May be NULL. */
    void (*progress)(void *ctx, int done, int total, const char *file);
    /* A test that could not be read or evaluated: the run goes on without it. */
    void (*bad_file)(void *ctx, const diag_t *d);
    void *ctx;
} classify_opts_t;

typedef struct {
    int nm; /* the lattice's models */
    classify_model_t m[LATTICE_MAX_MODELS];
    bool pass[LATTICE_MAX_MODELS], fail[LATTICE_MAX_MODELS], und[LATTICE_MAX_MODELS];
    bool strongest[LATTICE_MAX_MODELS];   /* the maximal passed models */
    bool strongest_c[LATTICE_MAX_MODELS]; /* ... on the complete tests alone */
    bool above[LATTICE_MAX_MODELS];       /* failed models just above BASE */
    bool base_complete; /* BASE is strongest_c (no model passed, some undecided) */
    int npass, nfail, nund;
    int tests, ran, skipped, incomplete, perrors, unreadable;
    strbuf_t skipped_names, inc_names; /* "SB MP" */
} classify_result_t;

/* Classify O->proto on O->files. 0 with R filled (free with classify_result_free), or -1
 * with ERR when a test cannot be explored (a bad configuration, a store error). */
int classify_run(const classify_opts_t *o, classify_result_t *r, diag_t *err);
/* BASE: the models the separating tests are above (strongest, or strongest_c). */
const bool *classify_base(const classify_result_t *r);
void classify_result_free(classify_result_t *r);

#endif
