/* cat_build.c - the expression graph under construction: hash-consed nodes
 * with a few algebraic rewrites, the 'let' environment and the checks.
 *
 * Invariant: every node's operands have smaller ids than the node, and the
 * hash table holds exactly one id per distinct (op, a, b, c). The rewrites
 * only fuse restrictions ([S];r, r;[S], (A*B)&r become one "restrict" row
 * pass) and drop idempotent duplicates; each is an identity of relation
 * algebra on every execution, so they never change a model's meaning. */
#include "cat_int.h"

#include <stdlib.h>
#include <string.h>

#include "../base/util.h"

const char *const cat_set_names[CAT_SET__COUNT] = {
    "R",   "W",      "F",  "M",  "IW",    "PLAIN",  "RLX", "ACQ",
    "REL", "ACQREL", "SC", "WG", "AGENT", "SYSTEM", "RMA",
};

const char *const cat_rel_names[CAT_REL__COUNT] = {
    "id", "po", "rf", "co", "fr", "rmw", "loc", "int", "ext", "wg", "cu", "incl",
};

cat_ty_t cat_op_type(int op)
{
    return op <= CAT_OP_S_RANGE ? CAT_TY_SET : CAT_TY_REL;
}

void cat_build_init(cat_build_t *b)
{
    memset(b, 0, sizeof *b);
}

void cat_build_free(cat_build_t *b)
{
    free(b->nodes);
    free(b->hash);
    for (size_t i = 0; i < b->nchecks; i++)
        free(b->checks[i].name);
    free(b->checks);
    for (size_t i = 0; i < b->nenv; i++)
        free(b->env[i].name);
    free(b->env);
    memset(b, 0, sizeof *b);
}

static uint64_t node_hash(int op, int a, int bb, int c)
{
    int key[4] = {op, a, bb, c};
    return util_hash64(key, sizeof key, 0x6361743a);
}

static void rehash(cat_build_t *b, size_t cap)
{
    free(b->hash);
    b->hash = xmalloc(cap * sizeof *b->hash);
    for (size_t i = 0; i < cap; i++)
        b->hash[i] = -1;
    b->caphash = cap;
    for (size_t id = 0; id < b->nnodes; id++) {
        const cat_node_t *n = &b->nodes[id];
        size_t h = (size_t)node_hash(n->op, n->a, n->b, n->c) & (cap - 1);
        while (b->hash[h] >= 0)
            h = (h + 1) & (cap - 1);
        b->hash[h] = (int)id;
    }
}

/* Find or add (OP, A, BB, C) without rewriting. */
static int intern(cat_build_t *b, int op, int a, int bb, int c)
{
    if ((b->nnodes + 1) * 4 >= b->caphash * 3)
        rehash(b, b->caphash ? b->caphash * 2 : 64);
    size_t mask = b->caphash - 1;
    size_t h = (size_t)node_hash(op, a, bb, c) & mask;
    while (b->hash[h] >= 0) {
        const cat_node_t *n = &b->nodes[b->hash[h]];
        if (n->op == op && n->a == a && n->b == bb && n->c == c)
            return b->hash[h];
        h = (h + 1) & mask;
    }
    cat_node_t node = {op, a, bb, c};
    int id = (int)b->nnodes;
    UTIL_PUSH(b->nodes, b->nnodes, b->capnodes, node);
    b->hash[h] = id;
    return id;
}

static const cat_node_t *nd(const cat_build_t *b, int id)
{
    return &b->nodes[id];
}

int cat_node(cat_build_t *b, int op, int a, int bb, int c)
{
    switch (op) {
    case CAT_OP_S_UNION:
    case CAT_OP_S_INTER:
    case CAT_OP_R_UNION:
    case CAT_OP_R_INTER:
        if (a == bb)
            return a; /* idempotent */
        if (a > bb) { /* commutative: one canonical operand order */
            int t = a;
            a = bb;
            bb = t;
        }
        break;
    default: break;
    }
    int all = -1;
    if (op == CAT_OP_S_INTER || op == CAT_OP_R_SEQ || op == CAT_OP_R_INTER ||
        op == CAT_OP_R_RESTRICT)
        all = intern(b, CAT_OP_ALL, -1, -1, -1);
    switch (op) {
    case CAT_OP_S_INTER:
        if (a == all)
            return bb;
        if (bb == all)
            return a;
        break;
    case CAT_OP_R_SEQ: /* [S];r and r;[S] are row and column masks */
        if (nd(b, a)->op == CAT_OP_R_IDSET)
            return cat_node(b, CAT_OP_R_RESTRICT, nd(b, a)->a, bb, all);
        if (nd(b, bb)->op == CAT_OP_R_IDSET)
            return cat_node(b, CAT_OP_R_RESTRICT, all, a, nd(b, bb)->a);
        break;
    case CAT_OP_R_INTER: /* r & (A*B) = [A];r;[B] */
        if (nd(b, bb)->op == CAT_OP_R_PROD)
            return cat_node(b, CAT_OP_R_RESTRICT, nd(b, bb)->a, a, nd(b, bb)->b);
        if (nd(b, a)->op == CAT_OP_R_PROD)
            return cat_node(b, CAT_OP_R_RESTRICT, nd(b, a)->a, bb, nd(b, a)->b);
        break;
    case CAT_OP_R_RESTRICT: {
        const cat_node_t r = *nd(b, bb);
        if (a == all && c == all)
            return bb;
        if (r.op == CAT_OP_R_RESTRICT) {
            int na = cat_node(b, CAT_OP_S_INTER, a, r.a, -1);
            int nc = cat_node(b, CAT_OP_S_INTER, c, r.c, -1);
            return cat_node(b, CAT_OP_R_RESTRICT, na, r.b, nc);
        }
        if (r.op == CAT_OP_R_PROD) {
            int na = cat_node(b, CAT_OP_S_INTER, a, r.a, -1);
            int nc = cat_node(b, CAT_OP_S_INTER, c, r.b, -1);
            return cat_node(b, CAT_OP_R_PROD, na, nc, -1);
        }
        if (r.op == CAT_OP_R_IDSET) {
            int s = cat_node(b, CAT_OP_S_INTER, a, r.a, -1);
            s = cat_node(b, CAT_OP_S_INTER, s, c, -1);
            return cat_node(b, CAT_OP_R_IDSET, s, -1, -1);
        }
        break;
    }
    default: break;
    }
    return intern(b, op, a, bb, c);
}

void cat_bind(cat_build_t *b, const char *name, size_t len, int node)
{
    cat_bind_t bind = {xstrndup(name, len), node};
    UTIL_PUSH(b->env, b->nenv, b->capenv, bind);
}

void cat_unbind_to(cat_build_t *b, size_t n)
{
    while (b->nenv > n)
        free(b->env[--b->nenv].name);
}

int cat_lookup(cat_build_t *b, const char *name, size_t len)
{
    for (size_t i = b->nenv; i-- > 0;) {
        if (strlen(b->env[i].name) == len && memcmp(b->env[i].name, name, len) == 0)
            return b->env[i].node;
    }
    return cat_lookup_builtin(b, name, len);
}

int cat_lookup_builtin(cat_build_t *b, const char *name, size_t len)
{
    for (int k = 0; k < CAT_SET__COUNT; k++) {
        if (strlen(cat_set_names[k]) == len && memcmp(cat_set_names[k], name, len) == 0)
            return intern(b, CAT_OP_SET_IN, k, -1, -1);
    }
    for (int k = 0; k < CAT_REL__COUNT; k++) {
        if (strlen(cat_rel_names[k]) == len && memcmp(cat_rel_names[k], name, len) == 0)
            return intern(b, CAT_OP_REL_IN, k, -1, -1);
    }
    return -1;
}

void cat_add_check(cat_build_t *b, cat_check_kind_t kind, bool neg, bool flag, int node, char *name)
{
    cat_check_t ck = {kind, neg, flag, node, name};
    UTIL_PUSH(b->checks, b->nchecks, b->capchecks, ck);
}
