/* explore_mpi.h - the explorer distributed over MPI ranks (`mpirun -np N
 * cohcheck check --mpi`, docs/distributed.md). Every rank builds the same
 * system and calls explore_mpi_run collectively; states are owned by the rank
 * their fingerprint hashes to. The search is a level-synchronous BFS that
 * numbers each level's states in the order one process discovers them, so the
 * states, transitions, outcomes, verdict, trace and (under --max-states) the
 * stopping point all equal explore_run's with BFS.
 *
 * Without MPI at build time (no COHCHECK_MPI), explore_mpi_init fails with
 * "built without MPI" and nothing else may be called. */
#ifndef COHCHECK_EXPLORE_MPI_H
#define COHCHECK_EXPLORE_MPI_H

#include <stdint.h>

#include "../base/diag.h"
#include "explore.h"

/* Communication of one run, summed over the ranks. */
typedef struct {
    int ranks;
    int levels;             /* BFS levels run (synchronisation rounds) */
    uint64_t messages;      /* point-to-point messages carrying successors */
    uint64_t bytes_sent;    /* their payload bytes */
    uint64_t successors;    /* successors sent to another rank (the rest stay local) */
    uint64_t skipped;       /* successors for another rank not sent: sent before */
    uint64_t control_bytes; /* bytes of the per-level numbering exchange (Alltoallv) */
} explore_mpi_stats_t;

/* Start MPI (once per process; under mpirun, or alone as a single rank).
 * Returns 0 with this process's RANK and the number of RANKS, or -1 with ERR. */
int explore_mpi_init(int *rank, int *ranks, diag_t *err);

/* Shut MPI down; every rank calls it once after its last explore_mpi_run. */
void explore_mpi_finalize(void);

/* Explore S on every rank together, as explore_run with BFS. Not supported
 * here: dfs, resume, on_new, on_outcome, fp_bits other than 64 and
 * queue_memory (rejected: -1 with ERR); the levels stay in RAM. OUT gets
 * the verdict and counts on every rank; the outcomes, message, trace and failure
 * state on rank 0 only. STATS (may be NULL) gets the communication, on every
 * rank. o->max_memory is shared out: each rank gets max_memory / ranks, and a
 * rank past it, or one whose o->stop is set, stops expanding; the search then
 * ends with that level, incomplete, with the counts of what was explored.
 * Returns 0, or -1 with ERR (the same on every rank). */
int explore_mpi_run(sys_t *s, int layout_keys, const explore_opts_t *o, explore_result_t *out,
                    explore_mpi_stats_t *stats, diag_t *err);

#endif
