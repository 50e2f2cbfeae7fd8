/* exec.h - candidate executions of a litmus program and the outcomes each
 * memory model allows (docs/architecture.md section 6).
 *
 * Evaluation enumerates, herd-style, every candidate execution: every path of
 * every thread (loops unrolled to a bound), every value a read may return,
 * every rf choice and every coherence order; builds the execution's events and
 * relations and asks each model whether it is consistent. Values a read may
 * return are drawn from a per-location domain computed as a fixpoint from the
 * initial values and the values stores can write; no value arises from nothing
 * (no out-of-thin-air values, as in herd7).
 *
 * Outcomes are vectors over a fixed layout: every register a thread writes
 * (in thread, register order), then every location's final value. */
#ifndef COHCHECK_EXEC_H
#define COHCHECK_EXEC_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/diag.h"
#include "../base/util.h"
#include "../cat/cat.h"
#include "../prog/prog.h"

typedef struct {
    int nkeys;
    int nregkeys;      /* the first nregkeys keys are registers */
    int *thread, *reg; /* for register keys */
    int *loc;          /* for location keys (index nregkeys..) */
    char **names;      /* "0:r1", "x" */
} exec_layout_t;

/* A set of outcomes, each a vector of layout.nkeys values, kept sorted. */
typedef struct {
    int nkeys;
    size_t n, cap;
    prog_val_t *v; /* n * nkeys values */
    /* A set given by a predicate instead (a kernel's final check, for check):
       when set, has() is pred(pred_ctx, v) and the list above stays empty. */
    bool (*pred)(const void *ctx, const prog_val_t *v);
    const void *pred_ctx;
} exec_outcomes_t;

typedef struct {
    exec_outcomes_t allowed;
    bool racy;           /* some consistent execution raised a flag */
    uint32_t flags;      /* union of raised flags */
    uint64_t consistent; /* consistent candidate executions */
} exec_model_result_t;

/* A consistent execution, for pictures (cohcheck litmus --show): the events and
 * relations the model saw, and per event its thread (-1: an initial write),
 * location (-1: a fence) and value; valid only during the callback. */
typedef struct {
    const cat_exec_t *x;
    const int *thread;
    const int16_t *loc;
    const prog_val_t *val;
    const prog_val_t *outcome; /* in exec_layout_t order */
    uint32_t flags;            /* flags the model raised on it */
} exec_graph_t;

typedef struct {
    int unroll;              /* each backward branch taken at most this often per execution */
    uint64_t max_candidates; /* 0: no limit */
    /* Called for each execution model MODEL finds consistent (may be NULL). */
    void (*on_consistent)(void *ctx, int model, const exec_graph_t *g);
    void *on_consistent_ctx;
} exec_opts_t;

typedef struct {
    uint64_t candidates; /* candidate executions evaluated */
    uint64_t paths;      /* thread paths enumerated */
    bool unroll_cut;     /* some path exceeded the unroll bound and was cut off */
    bool incomplete;     /* max_candidates stopped the enumeration */
    int max_events;      /* largest execution seen (events, initial writes included) */
} exec_stats_t;

/* Build P's outcome layout. Free with exec_layout_free. */
void exec_layout_init(exec_layout_t *l, const prog_t *p);
void exec_layout_free(exec_layout_t *l);

/* Evaluate P under MODELS[0..NMODELS); RESULTS[i] receives model i's allowed
 * outcomes and race flag (free each with exec_result_free). Returns 0, or -1
 * with ERR when the program is too large to evaluate (more than
 * CAT_MAX_EVENTS events in one execution). A max_candidates stop is not an
 * error: it returns 0 with stats->incomplete set. */
int exec_eval(const prog_t *p, cat_model_t *const *models, int nmodels, const exec_opts_t *opts,
              exec_model_result_t *results, exec_stats_t *stats, diag_t *err);

void exec_result_free(exec_model_result_t *r);

/* Outcome set operations. */
void exec_outcomes_init(exec_outcomes_t *s, int nkeys);
void exec_outcomes_free(exec_outcomes_t *s);
/* Insert V (nkeys values); returns true when it was new. Keeps the set sorted. */
bool exec_outcomes_add(exec_outcomes_t *s, const prog_val_t *v);
bool exec_outcomes_has(const exec_outcomes_t *s, const prog_val_t *v);
const prog_val_t *exec_outcome(const exec_outcomes_t *s, size_t i);

/* Append outcome V as a JSON object mapping each key of LAY ("0:r1", "x") to its value. */
void exec_outcome_json(strbuf_t *b, const exec_layout_t *lay, const prog_val_t *v);

/* Does outcome V satisfy P's condition proposition? */
bool exec_outcome_sat(const prog_t *p, const exec_layout_t *l, const prog_val_t *v);

#endif
