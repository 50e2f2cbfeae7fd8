/* explore_int.h - what explore.c and explore_par.c share; not part of the
 * explore module's contract (explore.h). */
#ifndef COHCHECK_EXPLORE_INT_H
#define COHCHECK_EXPLORE_INT_H

#include "explore.h"

/* The 64-bit state fingerprint (never 0): the one stored runs record, and the
 * one explore_mpi.c partitions and merges states by (as one process does). */
uint64_t explore_fingerprint(const uint8_t *p, size_t n);

/* Replay a path: ORDS[0] is a position among sys_initial's states, each later one
 * a position among the previous state's successors. With R, each step is described
 * into R->trace (allocated here, room for two more lines). Returns the last state's
 * length with its encoding in *OUT (malloc'd, sys_max_state + 1 bytes; the caller
 * frees), or 0 when a step could not be replayed (R->trace then says so). */
size_t explore_replay(sys_t *s, const uint32_t *ords, size_t n, explore_result_t *r, uint8_t **out);

/* End a failure's trace in R: END (ELEN) is where the replay landed, ST (LEN) the
 * failing state; a line says when they differ, else FAIL_LAB's step (may be NULL)
 * is described with R->msg. Then R->failure_state gets ST's dump. */
void explore_trace_end(sys_t *s, explore_result_t *r, const uint8_t *end, size_t elen,
                       const uint8_t *st, size_t len, const sys_label_t *fail_lab);

/* The parallel BFS behind explore_run when o->threads > 1 (same contract). */
int explore_par_run(sys_t *s, int layout_keys, const explore_opts_t *o, explore_result_t *out,
                    diag_t *err);

#endif
