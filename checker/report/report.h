/* report.h - the reports: `cohcheck report`'s verdict matrix, counts, readings, diagrams,
 * counterexample charts and index.html (matrix.c); the claims language (the seed papers'
 * performance claims, the runs each needs, its metric and its yes/partly/no rules, as data
 * in .claims files: docs/claims.md) and `cohcheck report timed` (the figures' sweeps run
 * over several seeds, tables of means with 95% confidence intervals, gnuplot figures, the
 * claims table).
 * Library code: it writes the files it is asked to and returns diagnostics; it never prints
 * or exits. Invariant: every label in a claims table comes from a rule in a claims file,
 * and a "yes" or "no" only when the rule's intervals clear its thresholds. */
#ifndef COHCHECK_REPORT_H
#define COHCHECK_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/diag.h"
#include "../base/util.h"
#include "../proto/proto.h"

/* ---- statistics ---- */

/* Mean of X[0..N) and its 95% confidence interval [*LO, *HI] (Student's t, N-1 degrees
 * of freedom; N = 1 gives the value itself as a zero-width interval). */
void report_ci95(const double *x, int n, double *mean, double *lo, double *hi);

/* ---- the claims language (docs/claims.md) ---- */

typedef struct claims claims_t;

/* A run a claim needs: figure, workload entry, protocol entry and sweep point ("first",
 * "last", a value of the figure's sweep, or NULL for a one-point figure). */
typedef struct {
    const char *figure, *workload, *protocol, *point;
    const char *file;
    int line, col; /* where the claims file names the figure */
} claim_run_t;

/* FIELD of run R at seed index SEED: 0 and *V, or -1 with WHY (missing, failed, wrong). */
typedef int (*claim_lookup_fn)(void *ctx, const claim_run_t *r, int seed, const char *field,
                               double *v, char *why, size_t whylen);

typedef enum {
    CLAIM_YES,
    CLAIM_PARTLY,
    CLAIM_NO,
    CLAIM_NOISE,        /* the deciding comparison's interval straddles its threshold */
    CLAIM_NOT_MEASURED, /* a run is missing or failed, or a value is undefined */
    CLAIM_SKIPPED       /* `skip`: not attempted, with the reason */
} claim_label_t;

typedef struct {
    const char *id, *title, *source, *quote, *paper, *proxy, *file; /* owned by the claims */
    claim_label_t label;
    char *shown; /* the `show` text with every {value} as "mean [lo, hi]" */
    char *note;  /* the deciding rule's `because` text, interpolated; or why not measured,
                    within noise, or skipped */
    char *rule;  /* the deciding rule as written ("partly when ..."), or "" */
} claim_result_t;

/* The field names a run may be read by (RUN.FIELD): the `cohcheck sim --json` names. */
extern const char *const CLAIM_FIELDS[];

claims_t *claims_new(void);
/* Parse one claims file SRC[0..LEN) (FILE names it in diagnostics) and add its claims.
 * Returns 0, or -1 with ERR at the first error's line and column. Never crashes. */
int claims_parse(claims_t *c, const char *file, const char *src, size_t len, diag_t *err);
int claims_count(const claims_t *c);
/* Evaluate claim I over NSEEDS seeds (seed indexes 0..NSEEDS-1 passed to FN). */
void claims_eval(const claims_t *c, int i, int nseeds, claim_lookup_fn fn, void *ctx,
                 claim_result_t *out);
/* The runs claim I reads, for callers that check they were swept. */
int claims_runs(const claims_t *c, int i, const claim_run_t **runs);
void claim_result_free(claim_result_t *r);
void claims_free(claims_t *c);
/* "yes", "partly", "**no**", "within noise", "not measured", "not attempted". */
const char *claim_label_word(claim_label_t l);

/* ---- cohcheck report: the verdict matrix ---- */

typedef struct {
    const char *self;    /* the cohcheck binary: checks and charts run as its children */
    const char *outdir;  /* exists, with diagrams/ and traces/ in it */
    char *const *protos; /* the protocols' .proto paths */
    int nprotos;
    bool protos_chosen;  /* chosen with --protocols (the page says so) */
    char *const *suites; /* as given: passed to check and named on the page */
    int nsuites;
    char *const *tests; /* the suites' .litmus files */
    int ntests;
    bool all_models;       /* each of the six models, not only the protocol's target */
    char *const *settings; /* "cold", "warm+evict", ...: one matrix row each */
    int nsettings;
    const char *max_states, *jobs; /* passed to check */
    bool bench;                    /* also run tests/bench/protocols.sh */
    /* Write Graphviz text DOT as the picture PATH: 0, or -1 after reporting the error. */
    int (*write_picture)(void *ctx, const char *dot, const char *path);
    /* Protocol DONE of TOTAL starts (WHAT: its name); DONE < 0: a long step (WHAT). */
    void (*progress)(void *ctx, int done, int total, const char *what);
    void *ctx;
} report_matrix_opts_t;

typedef struct {
    size_t rows;
    int protocols, broken, broken_refuted, refuted, incomplete, checks, errors;
    bool have_bench;
} report_matrix_stats_t;

/* Run the checks and write OUTDIR/verdicts.md, counts-all.md, readings.md, diagrams/,
 * traces/, bench-latest.md (with BENCH) and index.html. 0, or -1 with ERR (its message
 * empty when write_picture already reported the error). */
int report_matrix(const report_matrix_opts_t *o, report_matrix_stats_t *st, diag_t *err);

/* ---- cohcheck report timed ---- */

/* Where the report finds its inputs: NAME's file in DIR (e.g. "protocols/machines") with
 * extension EXT, as the CLI resolves data files; 0 and PATH, or -1. */
typedef int (*report_find_fn)(void *ctx, const char *name, const char *dir, const char *ext,
                              const char *env, char *path, size_t pathlen);

typedef struct {
    const char *outdir;    /* writes OUTDIR/timed.md, OUTDIR/timed/ID.* */
    const char *claimsdir; /* every *.claims file in it */
    const char *cus;       /* CU list of the CU sweeps, or NULL */
    const char *const *only;
    int nonly;
    const char *const *protocols; /* every protocol name, for the census ("*") */
    int nprotocols;
    bool quick;
    int jobs, seeds;
    uint64_t seed, max_events;
    const char *cmdline; /* shown in the page's first line */
    report_find_fn find;
    /* Load protocol NAME (as `cohcheck sim --protocol NAME` does): 0 and *OUT, or -1. */
    int (*load_proto)(void *ctx, const char *name, proto_t **out, diag_t *err);
    void *find_ctx; /* passed to find and load_proto */
    /* Called (from the worker threads, so thread-safe) after each simulation: DONE of TOTAL
     * finished, the last one of figure FIG. NULL: no progress. */
    void (*progress)(void *ctx, int done, int total, const char *fig);
    void *progress_ctx;
} report_timed_opts_t;

typedef struct {
    int nruns, ngood, nbad;
    double wall;
    bool plots_skipped;
} report_timed_stats_t;

/* Run the sweeps and write the files. Returns 0, or -1 with ERR (a bad claims file, an
 * unwritable output, an unknown figure); red rows are not errors. */
int report_timed(const report_timed_opts_t *o, report_timed_stats_t *st, diag_t *err);
/* 1 when ID names a figure. */
bool report_timed_has_figure(const char *id);
/* Append the index.html section linking OUTDIR/timed.md and its plots (nothing when
 * OUTDIR has no timed.md), between <!-- timed --> markers. */
void report_timed_index_section(strbuf_t *html, const char *outdir);

#endif
