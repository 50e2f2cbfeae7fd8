/* cat.h - memory models as data: a small relational language in the spirit of
 * herd7's cat (docs/architecture.md section 6), parsed once and evaluated on each
 * candidate execution. Sets of events are 64-bit masks and relations are
 * 64x64 bit matrices (row i = successors of event i), so an execution has at
 * most CAT_MAX_EVENTS events. A compiled model is immutable and may be shared
 * by threads; per-evaluation scratch lives in a cat_ctx_t.
 *
 * Language (documented for users in docs/models.md):
 *   file  := [STRING] stmt*                      -- optional quoted title
 *   stmt  := 'let' ID '=' expr
 *          | 'include' STRING                     -- another file, relative to this one
 *          | ['flag'] ['~'] CHECK expr ['as' ID]  -- CHECK: acyclic | irreflexive | empty
 *   expr  := binary expression over, lowest precedence first:
 *            '|' union, ';' sequence, '\' difference, '&' intersection,
 *            '*' cartesian product of two sets;
 *            postfix '+' '*' '?' '^-1' (closures, inverse), prefix '~' (complement),
 *            '[' expr ']' (identity on a set), '(' expr ')', ID, '0' (empty), '_' (all events),
 *            'domain(' expr ')', 'range(' expr ')', 'fencerel(' expr ')' (po;[S];po).
 *   Comments '(* ... *)'. Identifiers [A-Za-z_][A-Za-z0-9_.-]* (so po-loc is one name).
 *   Operators apply to two sets or two relations alike where that makes sense; a
 *   type error is a load-time error.
 * herd7's cat is read too (docs/models.md, "herd's cat and cohcheck's"): a header
 * ('C RC11'), '#' comments, show/unshow, undefined_unless, 'let f(x, y) = e'
 * functions (lexically scoped, built at each application), 'let ... and ...',
 * 'let ... in e', 'try e with e', '{}', 'with X from generate_orders(S, co0)',
 * and its standard library's names, bound below every model. A model that uses
 * one of those names or has a header is a herd7 model: it is evaluated on
 * herd7's C events, where an RMW is one event in R & W and rmw is empty.
 * A check without 'flag' makes an execution inconsistent when it fails. A
 * 'flag' check (herd7's "flag ~empty race as racy") never rejects: after all
 * plain checks pass, each flag whose condition holds is raised on that execution. */
#ifndef COHCHECK_CAT_H
#define COHCHECK_CAT_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/diag.h"

#define CAT_MAX_EVENTS 64
#define CAT_MAX_FLAGS 32

/* Built-in event sets, named in models by these exact names. */
typedef enum {
    CAT_SET_R,     /* reads: loads, the read of an RMW or CAS, a failed CAS */
    CAT_SET_W,     /* writes: stores, the write of an RMW or successful CAS, initial writes */
    CAT_SET_F,     /* fences */
    CAT_SET_M,     /* R | W */
    CAT_SET_IW,    /* initial writes (one per location, no thread) */
    CAT_SET_PLAIN, /* accesses with no order: non-atomic data */
    CAT_SET_RLX,   /* order labels, as written on the instruction */
    CAT_SET_ACQ,
    CAT_SET_REL,
    CAT_SET_ACQREL,
    CAT_SET_SC,
    CAT_SET_WG, /* scope labels (plain accesses and IW have none) */
    CAT_SET_AGENT,
    CAT_SET_SYSTEM,
    CAT_SET_RMA, /* rm_agent: remote-scope promotion */
    CAT_SET__COUNT
} cat_set_id_t;

/* Built-in relations, named in models by these exact names. */
typedef enum {
    CAT_REL_ID,  /* identity on all events */
    CAT_REL_PO,  /* program order (strict, within a thread; IW have none) */
    CAT_REL_RF,  /* write -> read it reads from */
    CAT_REL_CO,  /* coherence: strict total order of the writes of each location, IW first */
    CAT_REL_FR,  /* rf^-1 ; co */
    CAT_REL_RMW, /* read of an RMW/CAS -> its write */
    CAT_REL_LOC, /* same location (memory events, IW included), reflexive */
    CAT_REL_INT, /* same thread, reflexive (IW relate to nothing) */
    CAT_REL_EXT, /* different threads, IW counting as their own thread */
    CAT_REL_WG,  /* threads in the same work-group (reflexive; IW excluded) */
    CAT_REL_CU,  /* threads on the same compute unit (reflexive; IW excluded) */
    /* scope inclusion: a scoped event to every thread event its scope instance
     * holds (wg: the same work-group; agent, system, rm_agent: every thread) */
    CAT_REL_INCL,
    CAT_REL__COUNT
} cat_rel_id_t;

extern const char *const cat_set_names[CAT_SET__COUNT];
extern const char *const cat_rel_names[CAT_REL__COUNT];

/* One candidate execution as the evaluator sees it. N <= CAT_MAX_EVENTS; bits
 * at or above N must be zero in every set and row. */
typedef struct {
    int n;
    uint64_t sets[CAT_SET__COUNT];
    uint64_t rels[CAT_REL__COUNT][CAT_MAX_EVENTS];
} cat_exec_t;

typedef struct cat_model cat_model_t;
typedef struct cat_ctx cat_ctx_t;

/* Parse a model from memory. NAME is the model's short name ("rcsc"), FILE the
 * path used in diagnostics and to resolve 'include'. Returns 0 and *OUT, or -1
 * with ERR = "FILE:LINE:COL: message" (syntax, unknown name, type error,
 * include failure or cycle). */
int cat_parse(const char *name, const char *file, const char *src, size_t len, cat_model_t **out,
              diag_t *err);

/* As cat_parse; an 'include' not found beside the including file is looked up
 * in LIBDIR too (a herd7 library folder; NULL: none). */
int cat_parse_lib(const char *name, const char *file, const char *src, size_t len,
                  const char *libdir, cat_model_t **out, diag_t *err);

/* Read and parse the file at PATH; the model's name is the file's base name
 * without ".cat". */
int cat_load(const char *path, cat_model_t **out, diag_t *err);

/* As cat_load, with cat_parse_lib's LIBDIR. */
int cat_load_lib(const char *path, const char *libdir, cat_model_t **out, diag_t *err);

void cat_free(cat_model_t *m);

const char *cat_model_name(const cat_model_t *m);
const char *cat_model_title(const cat_model_t *m); /* the quoted title, or the name */
int cat_nflags(const cat_model_t *m);
const char *cat_flag_name(const cat_model_t *m, int i);

/* Scratch for evaluating M; one per thread. */
cat_ctx_t *cat_ctx_new(const cat_model_t *m);
void cat_ctx_free(cat_ctx_t *c);

typedef struct {
    bool consistent;  /* every non-flag check holds */
    uint32_t flags;   /* when consistent: bit i set if flag i is raised */
    int failed_check; /* when inconsistent: index of the first failing check */
} cat_result_t;

/* Evaluate the model on X. Never fails for a model that loaded. */
void cat_eval(cat_ctx_t *c, const cat_exec_t *x, cat_result_t *out);

/* Name of check I (its 'as' name, or "check#I") for messages. Checks are the
 * non-flag checks, numbered 0.. in the order the model (with its includes
 * expanded) writes them; flags are numbered apart, 0..cat_nflags()-1, and
 * are named "flag#I" when they have no 'as' name. */
const char *cat_check_name(const cat_model_t *m, int i);

/* Number of non-flag checks (the range of cat_result_t.failed_check). */
int cat_nchecks(const cat_model_t *m);

/* Number of instructions the compiled model runs at most per evaluation
 * (after dead-code elimination); for tests and statistics. */
int cat_ninstrs(const cat_model_t *m);

#endif
