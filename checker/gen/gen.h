/* gen.h - a diy-style litmus test generator for GPU shapes (cohcheck gen;
 * docs/gen.md). A test is a critical cycle of edges: program order between
 * two accesses of one thread to different locations (PodWW, PodWR, PodRW,
 * PodRR) and communication between threads on one location (Rfe, Fre, Coe).
 * The generator enumerates the cycles up to a number of edges, up to
 * rotation, and writes one native litmus test per cycle and annotation:
 * the threads' accesses, and the final condition that makes the cycle
 * happen. Library code: returns text, prints nothing. */
#ifndef COHCHECK_GEN_H
#define COHCHECK_GEN_H

#include <stdbool.h>

#include "../base/diag.h"

/* Annotation families: how the accesses of every thread are ordered. */
enum {
    GEN_PLAIN = 1,   /* data accesses */
    GEN_RLX = 2,     /* relaxed atomics */
    GEN_RELACQ = 4,  /* a thread's write after po is release, its read before po acquire */
    GEN_RA = 8,      /* every write release, every read acquire */
    GEN_SC = 16,     /* every access sc */
    GEN_FENCES = 32, /* relaxed accesses with an acq_rel fence between them */
};

typedef struct {
    int max_edges;   /* 3..8: longest cycle */
    int max_threads; /* 2..4 */
    unsigned annot;  /* GEN_* families */
    bool wg_scope;   /* also the work-group-scoped version of each annotated test */
    bool same_wg;    /* also every thread in one work-group */
} gen_opts_t;

typedef struct {
    char *name;  /* diy-style: MP+rel+acq, SB+ra, PodWW+Rfe+PodRW+Coe+rlx, ... */
    char *cycle; /* the edges: "PodWW Rfe PodRR Fre" */
    char *text;  /* the test, in cohcheck's litmus format */
} gen_test_t;

/* Generate the suite. 0 with *OUT / *N, or -1 with ERR (bad options). */
int gen_suite(const gen_opts_t *o, gen_test_t **out, int *n, diag_t *err);
void gen_free(gen_test_t *t, int n);

#endif
