/* cat_int.h - private to checker/cat: the typed expression graph the parser
 * builds, the compiled instruction list, and the structures shared by
 * cat_parse.c, cat_build.c, cat_compile.c and cat_eval.c.
 *
 * Invariant: nodes are created operands-first, so a node's operands always
 * have smaller ids (the node array is in topological order), and identical
 * (op, operands) triples are one node (hash-consing), so a sub-expression
 * written twice, or named by a 'let' and used twice, is computed once. */
#ifndef COHCHECK_CAT_INT_H
#define COHCHECK_CAT_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cat.h"

#define CAT_MAX_DEPTH 200        /* nesting of ( [ ~ domain range in one expression */
#define CAT_MAX_INCLUDE_DEPTH 32 /* include chain length (cycles are caught before) */

typedef enum { CAT_TY_SET, CAT_TY_REL } cat_ty_t;

/* Node and instruction operations. Set operations come first. */
typedef enum {
    /* sets */
    CAT_OP_SET_IN, /* built-in set: a = cat_set_id_t */
    CAT_OP_ALL,    /* '_': every event */
    CAT_OP_S_UNION,
    CAT_OP_S_INTER,
    CAT_OP_S_DIFF,
    CAT_OP_S_COMPL,
    CAT_OP_S_DOMAIN, /* a: relation */
    CAT_OP_S_RANGE,  /* a: relation */
    /* relations */
    CAT_OP_REL_IN, /* built-in relation: a = cat_rel_id_t */
    CAT_OP_ZERO,   /* '0': the empty relation */
    CAT_OP_R_UNION,
    CAT_OP_R_INTER,
    CAT_OP_R_DIFF,
    CAT_OP_R_COMPL,
    CAT_OP_R_SEQ,      /* composition a;b */
    CAT_OP_R_PROD,     /* sets a * b */
    CAT_OP_R_IDSET,    /* [a] */
    CAT_OP_R_RESTRICT, /* [a];b;[c] with a, c sets: fused from [S];r, r;[S], (A*B)&r */
    CAT_OP_R_PLUS,
    CAT_OP_R_STAR,
    CAT_OP_R_OPT,
    CAT_OP_R_INV,
    /* checks (instructions only) */
    CAT_OP_CHK_ACYCLIC,
    CAT_OP_CHK_IRREFL,
    CAT_OP_CHK_EMPTY_S,
    CAT_OP_CHK_EMPTY_R,
    CAT_OP__COUNT
} cat_op_t;

typedef struct {
    int op;
    int a, b, c; /* operand node ids (or built-in ids), -1 when unused */
} cat_node_t;

typedef enum { CAT_CHECK_ACYCLIC, CAT_CHECK_IRREFLEXIVE, CAT_CHECK_EMPTY } cat_check_kind_t;

typedef struct {
    cat_check_kind_t kind;
    bool neg;   /* '~' before the check keyword */
    bool flag;  /* 'flag' check: raises, never rejects */
    int node;   /* operand */
    char *name; /* 'as' name, or NULL */
} cat_check_t;

typedef struct {
    char *name;
    int node;
} cat_bind_t;

/* The graph under construction: nodes, checks and the 'let' environment. */
typedef struct {
    cat_node_t *nodes;
    size_t nnodes, capnodes;
    int *hash; /* open addressing over node ids, -1 empty; capacity a power of two */
    size_t caphash;
    cat_check_t *checks;
    size_t nchecks, capchecks;
    cat_bind_t *env; /* searched from the end, so a later 'let' shadows */
    size_t nenv, capenv;
} cat_build_t;

/* cat_build.c */
cat_ty_t cat_op_type(int op);
void cat_build_init(cat_build_t *b);
void cat_build_free(cat_build_t *b);
/* Intern node (OP, A, B, C), applying algebraic simplifications and fusions;
 * operands must already be well-typed. Returns the node id. */
int cat_node(cat_build_t *b, int op, int a, int bb, int c);
/* Bind NAME to NODE (copies NAME). */
void cat_bind(cat_build_t *b, const char *name, size_t len, int node);
/* Drop the bindings after the first N (a scope's end). */
void cat_unbind_to(cat_build_t *b, size_t n);
/* The node NAME is bound to (latest binding, then built-ins), or -1. A
 * binding's node below -1 is the parser's (a function). */
int cat_lookup(cat_build_t *b, const char *name, size_t len);
/* The built-in set or relation NAME, or -1. */
int cat_lookup_builtin(cat_build_t *b, const char *name, size_t len);
/* Append a check; takes ownership of NAME (may be NULL). */
void cat_add_check(cat_build_t *b, cat_check_kind_t kind, bool neg, bool flag, int node,
                   char *name);

/* One instruction: D = OP(A, B, C) over value slots, or a check of A. */
typedef struct {
    uint8_t op;
    uint8_t neg;  /* checks: negated */
    uint8_t flag; /* checks: a flag */
    uint16_t idx; /* checks: index among checks or among flags */
    int32_t d, a, b, c;
} cat_ins_t;

/* Set slots: built-ins at their cat_set_id_t, then '_', then scratch.
 * Relation slots: built-ins at their cat_rel_id_t, then '0', then scratch. */
#define CAT_SSLOT_ALL CAT_SET__COUNT
#define CAT_SSLOT0 (CAT_SET__COUNT + 1)
#define CAT_RSLOT_ZERO CAT_REL__COUNT
#define CAT_RSLOT0 (CAT_REL__COUNT + 1)

struct cat_model {
    char *name;
    char *title;
    int ncheck, nflag;
    char **check_names;
    char **flag_names;
    cat_ins_t *code;
    int ncode;
    int nsets;        /* set slots, built-ins included */
    int nrels;        /* relation slots, built-ins included */
    bool herd_events; /* a herd7 model: evaluated on herd7's C events (an RMW is one event) */
};

/* cat_compile.c: turn the graph into a model (dead-code elimination, check
 * ordering, slot allocation). Consumes nothing; B is still freed by the caller. */
cat_model_t *cat_compile(const cat_build_t *b, const char *name, const char *title,
                         bool herd_events);

#endif
