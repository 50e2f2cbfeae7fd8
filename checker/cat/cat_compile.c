/* cat_compile.c - compile the expression graph into a flat instruction list
 * over value slots, and the model's accessors.
 *
 * The schedule puts the non-flag checks first, in the order they were
 * written, then the flags; before each check come exactly the not yet
 * computed nodes it depends on (in node order, which is topological). So a
 * 'let' no check uses is never computed (dead-code elimination), and an
 * execution that fails an early check never pays for the later ones.
 * Invariant: an instruction's destination slot is never one of its operand
 * slots (a slot is freed after its last reader has been given its own
 * destination), so every operation may write its result row by row. */
#include "cat_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"

/* Node operands that are node ids (built-in ids are not). Returns how many. */
static int node_operands(const cat_node_t *n, int ops[3])
{
    switch (n->op) {
    case CAT_OP_SET_IN:
    case CAT_OP_REL_IN:
    case CAT_OP_ALL:
    case CAT_OP_ZERO: return 0;
    case CAT_OP_S_COMPL:
    case CAT_OP_S_DOMAIN:
    case CAT_OP_S_RANGE:
    case CAT_OP_R_COMPL:
    case CAT_OP_R_IDSET:
    case CAT_OP_R_PLUS:
    case CAT_OP_R_STAR:
    case CAT_OP_R_OPT:
    case CAT_OP_R_INV: ops[0] = n->a; return 1;
    case CAT_OP_R_RESTRICT:
        ops[0] = n->a;
        ops[1] = n->b;
        ops[2] = n->c;
        return 3;
    default:
        ops[0] = n->a;
        ops[1] = n->b;
        return 2;
    }
}

/* Nodes whose value is a fixed slot rather than an instruction's result. */
static int fixed_slot(const cat_node_t *n)
{
    switch (n->op) {
    case CAT_OP_SET_IN:
    case CAT_OP_REL_IN: return n->a;
    case CAT_OP_ALL: return CAT_SSLOT_ALL;
    case CAT_OP_ZERO: return CAT_RSLOT_ZERO;
    default: return -1;
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* A scheduled step: node NODE, or check CHECK (node < 0). */
typedef struct {
    int node;
    int check;
} step_t;

typedef struct {
    int *items;
    size_t n, cap;
} freelist_t;

static int take_slot(freelist_t *fl, int *next)
{
    if (fl->n > 0)
        return fl->items[--fl->n];
    return (*next)++;
}

static char *default_name(const char *prefix, int i)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%s#%d", prefix, i);
    return xstrdup(buf);
}

cat_model_t *cat_compile(const cat_build_t *b, const char *name, const char *title,
                         bool herd_events)
{
    size_t nn = b->nnodes, nc = b->nchecks;
    cat_model_t *m = xcalloc(1, sizeof *m);
    m->name = xstrdup(name);
    m->title = xstrdup(title);
    m->herd_events = herd_events;

    /* Check order: plain checks, then flags, each in source order. */
    int *order = xmalloc((nc + 1) * sizeof *order);
    size_t no = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < nc; i++) {
            if (b->checks[i].flag == (pass == 1))
                order[no++] = (int)i;
        }
    }
    m->check_names = xcalloc(nc + 1, sizeof *m->check_names);
    m->flag_names = xcalloc(nc + 1, sizeof *m->flag_names);

    /* Each check's instruction and operand; acyclic(r+) and irreflexive(r+)
     * are acyclic(r), which needs no closure. */
    int *cnode = xmalloc((nc + 1) * sizeof *cnode);
    int *cop = xmalloc((nc + 1) * sizeof *cop);
    for (size_t i = 0; i < nc; i++) {
        const cat_check_t *ck = &b->checks[i];
        const cat_node_t *n = &b->nodes[ck->node];
        cnode[i] = ck->node;
        switch (ck->kind) {
        case CAT_CHECK_ACYCLIC: cop[i] = CAT_OP_CHK_ACYCLIC; break;
        case CAT_CHECK_IRREFLEXIVE: cop[i] = CAT_OP_CHK_IRREFL; break;
        case CAT_CHECK_EMPTY:
            cop[i] = cat_op_type(n->op) == CAT_TY_SET ? CAT_OP_CHK_EMPTY_S : CAT_OP_CHK_EMPTY_R;
            break;
        }
        if (ck->kind != CAT_CHECK_EMPTY && n->op == CAT_OP_R_PLUS) {
            cnode[i] = n->a;
            cop[i] = CAT_OP_CHK_ACYCLIC;
        }
    }

    /* Schedule: before each check, the nodes it needs that are not computed
     * yet, found by a depth-first walk that stops at computed nodes and
     * emitted in id order (operands first). O(N log N) for N nodes overall. */
    bool *done = xcalloc(nn + 1, sizeof *done);
    int *stack = xmalloc((nn + 1) * sizeof *stack);
    int *fresh = xmalloc((nn + 1) * sizeof *fresh);
    step_t *steps = xmalloc((nn + nc + 1) * sizeof *steps);
    size_t ns = 0;
    for (size_t k = 0; k < nc; k++) {
        size_t sp = 0, nf = 0;
        int root = cnode[order[k]];
        if (!done[root]) {
            done[root] = true;
            stack[sp++] = root;
        }
        while (sp > 0) {
            int i = stack[--sp];
            fresh[nf++] = i;
            int ops[3], nops = node_operands(&b->nodes[i], ops);
            for (int j = 0; j < nops; j++) {
                if (!done[ops[j]]) {
                    done[ops[j]] = true;
                    stack[sp++] = ops[j];
                }
            }
        }
        qsort(fresh, nf, sizeof *fresh, cmp_int);
        for (size_t f = 0; f < nf; f++) {
            if (fixed_slot(&b->nodes[fresh[f]]) < 0)
                steps[ns++] = (step_t){fresh[f], -1};
        }
        steps[ns++] = (step_t){-1, order[k]};
    }

    /* Liveness: the last step reading each node. */
    int *last = xmalloc((nn + 1) * sizeof *last);
    for (size_t i = 0; i < nn; i++)
        last[i] = -1;
    for (size_t s = 0; s < ns; s++) {
        int ops[3], nops;
        if (steps[s].node >= 0) {
            nops = node_operands(&b->nodes[steps[s].node], ops);
        } else {
            ops[0] = cnode[steps[s].check];
            nops = 1;
        }
        for (int j = 0; j < nops; j++)
            last[ops[j]] = (int)s;
    }

    /* Slots and instructions. */
    int *slot = xmalloc((nn + 1) * sizeof *slot);
    for (size_t i = 0; i < nn; i++)
        slot[i] = fixed_slot(&b->nodes[i]);
    freelist_t fsets = {0}, frels = {0};
    int next_set = CAT_SSLOT0, next_rel = CAT_RSLOT0;
    m->code = xcalloc(ns + 1, sizeof *m->code);
    int nchk = 0, nflg = 0;
    for (size_t s = 0; s < ns; s++) {
        cat_ins_t *in = &m->code[m->ncode++];
        int ops[3], nops;
        in->a = in->b = in->c = -1;
        if (steps[s].node >= 0) {
            const cat_node_t *n = &b->nodes[steps[s].node];
            nops = node_operands(n, ops);
            in->op = (uint8_t)n->op;
            if (cat_op_type(n->op) == CAT_TY_SET)
                in->d = take_slot(&fsets, &next_set);
            else
                in->d = take_slot(&frels, &next_rel);
            slot[steps[s].node] = in->d;
        } else {
            const cat_check_t *ck = &b->checks[steps[s].check];
            ops[0] = cnode[steps[s].check];
            nops = 1;
            in->op = (uint8_t)cop[steps[s].check];
            in->neg = ck->neg;
            in->flag = ck->flag;
            in->d = -1;
            char *nm = ck->name ? xstrdup(ck->name) : NULL;
            if (ck->flag) {
                in->idx = (uint16_t)nflg;
                m->flag_names[nflg] = nm ? nm : default_name("flag", nflg);
                nflg++;
            } else {
                in->idx = (uint16_t)nchk;
                m->check_names[nchk] = nm ? nm : default_name("check", nchk);
                nchk++;
            }
        }
        int32_t *dst[3] = {&in->a, &in->b, &in->c};
        for (int j = 0; j < nops; j++)
            *dst[j] = slot[ops[j]];
        /* Free operand slots read for the last time (once, even if repeated). */
        for (int j = 0; j < nops; j++) {
            int o = ops[j];
            bool dup = false;
            for (int k = 0; k < j; k++)
                dup = dup || ops[k] == o;
            if (dup || last[o] != (int)s || fixed_slot(&b->nodes[o]) >= 0)
                continue;
            if (cat_op_type(b->nodes[o].op) == CAT_TY_SET)
                UTIL_PUSH(fsets.items, fsets.n, fsets.cap, slot[o]);
            else
                UTIL_PUSH(frels.items, frels.n, frels.cap, slot[o]);
        }
    }
    m->ncheck = nchk;
    m->nflag = nflg;
    m->nsets = next_set;
    m->nrels = next_rel;

    free(fsets.items);
    free(frels.items);
    free(slot);
    free(last);
    free(steps);
    free(stack);
    free(fresh);
    free(done);
    free(order);
    free(cnode);
    free(cop);
    return m;
}

void cat_free(cat_model_t *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->ncheck; i++)
        free(m->check_names[i]);
    for (int i = 0; i < m->nflag; i++)
        free(m->flag_names[i]);
    free(m->check_names);
    free(m->flag_names);
    free(m->code);
    free(m->name);
    free(m->title);
    free(m);
}

const char *cat_model_name(const cat_model_t *m)
{
    return m->name;
}

const char *cat_model_title(const cat_model_t *m)
{
    return m->title;
}

int cat_nflags(const cat_model_t *m)
{
    return m->nflag;
}

int cat_nchecks(const cat_model_t *m)
{
    return m->ncheck;
}

const char *cat_flag_name(const cat_model_t *m, int i)
{
    return i >= 0 && i < m->nflag ? m->flag_names[i] : "?";
}

const char *cat_check_name(const cat_model_t *m, int i)
{
    return i >= 0 && i < m->ncheck ? m->check_names[i] : "?";
}

int cat_ninstrs(const cat_model_t *m)
{
    return m->ncode;
}
