/* explore_int.h - what explore.c and explore_par.c share; not part of the
 * explore module's contract (explore.h). */
#ifndef COHCHECK_EXPLORE_INT_H
#define COHCHECK_EXPLORE_INT_H

#include "explore.h"

/* The 64-bit state fingerprint (never 0): the one stored runs record, and the
 * one explore_mpi.c partitions and merges states by (as one process does). */
uint64_t explore_fingerprint(const uint8_t *p, size_t n);

/* The parallel BFS behind explore_run when o->threads > 1 (same contract). */
int explore_par_run(sys_t *s, int layout_keys, const explore_opts_t *o, explore_result_t *out,
                    diag_t *err);

#endif
