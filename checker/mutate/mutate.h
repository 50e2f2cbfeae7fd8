/* mutate.h - mutation testing of protocol tables (cohcheck mutate): mutants of a
 * protocol, each one small change to one row of its resolved table, and the
 * run that checks each mutant on a suite until a test kills it (refutes it:
 * a violation, deadlock, invariant failure or unexpected event where the
 * original passes). Library code: no printing; progress through a callback. */
#ifndef COHCHECK_MUTATE_H
#define COHCHECK_MUTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../cat/cat.h"
#include "../exec/exec.h"
#include "../proto/proto.h"
#include "../sys/sys.h"

typedef enum {
    MUT_KILLED,          /* a test refutes it under the base settings */
    MUT_KILLED_STRONGER, /* only under the stronger settings */
    MUT_SURVIVED,        /* no test refutes it, and some test reaches other outcomes */
    MUT_EQUIVALENT,      /* no test refutes it, and every test reaches the same outcomes */
    MUT_INVALID,         /* the mutated table does not load (a type error, ...) */
    MUT_NOT_COVERED,     /* not killed, and its row is never chosen when the original runs
                            the suite: no test exercises it (counted against the kill rate) */
} mutant_class_t;

extern const char *const mutant_class_names[6];

typedef struct {
    int id;
    const char *op; /* operator name: drop-action, drop-send, redirect-next, ... */
    char *file;     /* where the original row was written */
    int line;
    char *ctrl;                /* its controller */
    char *before;              /* the row as resolved: "STATES | EVENT | guard | actions | next" */
    char *after;               /* the mutated row ("" when the row was removed) */
    char *text;                /* the whole mutated protocol, resolved */
    int ctrl_index, row_index; /* the original row: proto_t.ctrls[ctrl_index].rows[row_index] */
    bool covered;              /* mutate_run: the original chose that row on some usable test */
    /* results */
    mutant_class_t cls;
    char *killed_by; /* test name, or NULL */
    char *verdict;   /* the killing verdict */
    char *setting;   /* "base" or the stronger setting that killed it */
    char *error;     /* MUT_INVALID: why the table does not load */
    /* Not killed: how its complete explorations compare with the original's, counted
     * over (setting, test) cells. A survivor with gained == 0 and bounded == 0 only
     * removes behaviour: it reaches a subset of the original's outcomes everywhere. */
    int gained;       /* cells where it reaches an outcome the original does not */
    int lost;         /* cells where it misses an outcome the original reaches */
    int bounded;      /* cells whose exploration hit max_states or was skipped */
    char *differs_on; /* the first such cell: "TEST (SETTING)", or NULL */
} mutant_t;

/* All mutants of P (its resolved table), in row order. 0, or -1 with ERR. */
int mutate_generate(const proto_t *p, mutant_t **out, int *n, diag_t *err);
void mutate_free(mutant_t *m, int n);
/* The parts of one mutant (not M itself). */
void mutate_free_one(mutant_t *m);

/* A test of the suite, with the model's allowed outcomes computed once. */
typedef struct {
    char *path;
    prog_t *prog;
    exec_model_result_t mr;
    exec_layout_t lay;
    bool usable; /* the original protocol passes it under the base settings */
} mutate_test_t;

typedef struct {
    const char *name; /* "warm", "env-all", ... */
    sys_config_t cfg;
} mutate_setting_t;

typedef struct {
    sys_config_t base;                /* the base settings */
    const mutate_setting_t *stronger; /* tried, in order, on survivors */
    int nstronger;
    uint64_t max_states; /* per exploration; a bounded one kills nothing */
    uint64_t max_memory; /* bytes per exploration (0: none); a stopped one kills nothing */
    int threads;         /* mutants checked at once */
    /* Also check liveness (explore_opts_t.liveness, weak fairness): a mutant that can
     * livelock or starve a thread where the original cannot is killed (a hang is a kill). */
    bool liveness;
    /* Partial-order reduction (explore_opts_t.por, docs/por.md) in every exploration, where
     * the protocol's analysis allows it (liveness turns it off): the same verdicts and
     * outcomes, fewer states per bound. Row coverage is then that of the reduced graph, a
     * subset of the full graph's, so a mutant can only become not-covered, never covered. */
    bool por;
    /* Called after each mutant is classified (from worker threads, serialized). */
    void (*progress)(void *ctx, const mutant_t *m, int done, int total);
    void *progress_ctx;
} mutate_opts_t;

/* Check every mutant of M[0..N) on TESTS (whose usable flags this sets by
 * checking ORIG first) and classify it. 0, or -1 with ERR. */
int mutate_run(const proto_t *orig, mutant_t *m, int n, mutate_test_t *tests, int ntests,
               const mutate_opts_t *o, diag_t *err);

/* ---- The suite and the summary (mutate_suite.c). */

/* Load FILES[0..NFILES) with MODEL's allowed outcomes (loops unrolled UNROLL times) into
 * *OUT (*NTESTS of them; free with mutate_tests_free). A file that does not load or
 * evaluate goes to BAD_FILE (may be NULL) and is left out, counted in *UNREADABLE. 0. */
int mutate_load_tests(char *const *files, int nfiles, cat_model_t *model, int unroll,
                      void (*bad_file)(void *ctx, const diag_t *d), void *ctx, mutate_test_t **out,
                      int *ntests, int *unreadable);
void mutate_tests_free(mutate_test_t *tests, int n);
/* Keep only the mutants numbered in LIST ("3,7,10-12"), in order (the others freed).
 * 0, or -1 with ERR on junk or a number no mutant has. */
int mutate_select(const char *list, mutant_t **m, int *n, diag_t *err);

typedef struct {
    int count[MUT_NOT_COVERED + 1]; /* per mutant_class_t */
    int usable;                     /* tests the original passes */
    double rate; /* kill rate in %: (killed + killed-stronger) / (mutants - equivalent - invalid) */
} mutate_summary_t;
void mutate_summarize(const mutant_t *m, int n, const mutate_test_t *tests, int ntests,
                      mutate_summary_t *s);

#endif
