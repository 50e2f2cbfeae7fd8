/* explore.h - exhaustive exploration of a system's state space (docs/architecture.md
 * section 5): BFS by default (shortest counterexamples), DFS on request, over
 * an in-memory set of 64-, 96- or 128-bit state fingerprints (hash compaction).
 * The BFS queue may spill to a temporary file (docs/memory.md). Finds deadlocks,
 * unexpected events, invariant failures and outcomes a model forbids. The
 * explorer only calls the sys.h interface: it never knows the protocol. */
#ifndef COHCHECK_EXPLORE_H
#define COHCHECK_EXPLORE_H

#include <stdbool.h>
#include <stdint.h>

#include "../exec/exec.h"
#include "../sys/sys.h"

typedef enum {
    EXPLORE_OK,
    EXPLORE_VIOLATION,  /* a terminal outcome the model forbids */
    EXPLORE_DEADLOCK,   /* a non-terminal state with no successor */
    EXPLORE_INVARIANT,  /* a declared invariant, a range or a channel capacity */
    EXPLORE_UNEXPECTED, /* an event with no row, or an impossible one */
    EXPLORE_INCOMPLETE, /* --max-states, --max-memory, --max-time or --max-depth stopped it */
    EXPLORE_LIVELOCK,   /* --liveness: a reachable state from which the test cannot finish */
    EXPLORE_STARVATION, /* --liveness: a fair cycle on which a thread waits forever */
} explore_verdict_t;

extern const char *const explore_verdict_names[8];

typedef struct {
    bool dfs;
    uint64_t max_states; /* 0: none */
    uint64_t max_memory; /* bytes; 0: none */
    /* Seconds of wall-clock time the search may take (--max-time); at the limit it stops
     * as incomplete with what it explored. 0: none. */
    double max_time;
    /* States at this depth are stored and checked (invariants, the outcome of a
     * terminal one, a deadlock when nothing is enabled) but not expanded; one
     * with a successor left out makes the verdict incomplete unless a failure is
     * found. 0: none. With DFS, depths are discovery depths, not shortest ones. */
    int max_depth;
    const exec_outcomes_t *allowed; /* outcomes the model allows; NULL: no check */
    /* Called for every new state, in discovery order (may be NULL): the store's hook.
     * PARENT is -1 for an initial state; ORD is the state's position among the
     * states its parent's sys_successors (or sys_initial) emits, which replays it;
     * FP is its fingerprint. */
    void (*on_new)(void *ctx, uint32_t id, int64_t parent, int depth, const sys_label_t *label,
                   uint32_t ord, uint64_t fp, const uint8_t *state, size_t len);
    void *on_new_ctx;
    /* Polled between states; when it becomes non-zero the search stops as incomplete
     * (SIGINT). May be NULL. */
    volatile int *stop;
    /* Resume a stopped BFS run: its states in discovery order (parents, positions and
     * depths as recorded), of which the first `expanded` were already expanded, and the
     * transitions counted so far. NULL: start afresh. */
    const struct explore_resume *resume;
    /* Called for every terminal state with its outcome (layout order) and depth
     * (may be NULL). Under BFS the first call for an outcome has its least depth. */
    void (*on_outcome)(void *ctx, const prog_val_t *outcome, int depth);
    void *on_outcome_ctx;
    /* Called about every 2^16 states (may be NULL): library code never prints.
     * SPILLED: bytes of the BFS queue written to disk so far. */
    void (*progress)(void *ctx, uint64_t states, uint64_t queued, uint64_t bytes, uint64_t spilled);
    void *progress_ctx;
    /* Bits per fingerprint in the visited set: 64 (also when 0), 96 or 128. */
    int fp_bits;
    /* BFS queue spilling: when the queue's chunks in RAM exceed queue_memory bytes
     * (0: no such bound), or all the explorer holds exceeds 3/4 of max_memory, each
     * newly filled chunk in the queue's middle goes to a temporary file in spill_dir
     * (NULL: /tmp), unlinked at once, and is read back in FIFO order. Counts, order
     * and traces are those of a run without spilling. */
    uint64_t queue_memory;
    const char *spill_dir;
    /* Worker threads for one BFS (explore_par.c); 0 or 1: the serial explorer. The
     * result is the same for every count: states, transitions, numbering (on_new),
     * outcomes, verdict and trace. DFS is always serial. */
    int threads;
    /* Partial-order reduction (docs/por.md): expand a stubborn set of each state's
     * transitions (sys_por.h) with the cycle proviso. Preserves every reachable
     * terminal state, deadlock, unexpected event and transition error; state and
     * transition counts are those of the reduced graph. */
    bool por;
    /* --liveness (docs/liveness.md): after a complete search with no other failure,
     * check that every reachable state can still reach a terminal one by progress
     * steps (AG EF done); else EXPLORE_LIVELOCK with a lasso. Progress steps: all
     * but environment events, except those named in FAIR_ENV (assumed to happen).
     * Turns the reduction off (por_off says why); serial search only. */
    bool liveness;
    const char *const *fair_env;
    int nfair_env;
    /* Then, when every state can finish: no reachable cycle fair to every thread, channel,
     * internal event and the clock on which a thread waits forever (EXPLORE_STARVATION).
     * 0: not checked, 1: weak fairness, 2: strong fairness. */
    int fairness;
    /* Symmetry reduction (docs/por.md, "Symmetry"): store each state's canonical
     * representative under the compute-unit permutations sys_set_symmetry proves are
     * automorphisms. Every reached outcome's orbit is reported (on_outcome, reached) and
     * checked; traces are replayed as real executions. The same with THREADS > 1 and in
     * explore_mpi_run; not with --liveness (sym_note says why). */
    bool symmetry;
} explore_opts_t;

typedef struct explore_resume {
    uint64_t n;
    const uint8_t *const *states;
    const size_t *lens;
    const int64_t *parents;
    const int *depths;
    const uint32_t *ords; /* as given to on_new */
    uint64_t expanded, transitions;
} explore_resume_t;

typedef struct {
    explore_verdict_t verdict;
    uint64_t states, transitions;
    uint64_t expanded; /* states whose successors were computed (BFS: a prefix) */
    int max_depth;
    uint64_t bytes;   /* most memory the explorer held at once (visited set, queue) */
    uint64_t spilled; /* bytes of the BFS queue written to the spill file in all */
    int fp_bits;      /* fingerprint width used */
    double omission;  /* bound on the probability that a fingerprint collision hid a
                         state: states^2 / 2^(fp_bits+1), for a hash that behaves randomly */
    exec_outcomes_t reached;
    char msg[320]; /* what failed */
    int ntrace;
    char **trace;         /* steps from an initial state to the failure */
    char *failure_state;  /* a readable dump of the state where it failed, or NULL */
    int64_t failure_id;   /* that state's number (discovery order, as on_new), -1: none */
    bool por;             /* the reduction was on (asked for and applicable) */
    char por_off[160];    /* asked for but not applicable: why (else empty) */
    uint64_t por_reduced; /* states expanded with a proper stubborn set */
    uint64_t por_full;    /* states fully expanded by the cycle proviso */
    bool por_fields;      /* with por: destinations in message fields bounded (sys_por.h) */
    char pf_why[160];     /* with por, not por_fields: why (else empty) */
    bool symmetry;        /* the symmetry reduction was on (asked for and proved sound) */
    char sym_note[256];   /* applied: the interchangeable classes; asked for but not applied: why */
    /* --liveness: the livelock found (EXPLORE_LIVELOCK) */
    bool liveness;         /* the check ran (the search was complete and nothing else failed) */
    uint64_t live_stuck;   /* states that cannot finish by progress steps */
    uint64_t live_hard;    /* ... nor with every environment event */
    bool live_env_only;    /* the lasso is broken by environment events only */
    int starved;           /* EXPLORE_STARVATION: the thread that waits forever */
    char live_breaks[160]; /* those events, comma-separated */
    int lasso_prefix;      /* trace lines before the cycle (the prefix, then a marker line) */
    int lasso_cycle;       /* steps of the cycle (0: it waits for an environment event) */
    uint32_t *lasso;       /* the cycle's states (the first is failure_id), lasso_cycle of them
                              (one when lasso_cycle is 0) */
} explore_result_t;

/* Explore S. LAYOUT_KEYS is the outcome width (exec_layout_t.nkeys). Returns 0
 * (the verdict is in OUT; free with explore_result_free), or -1 with ERR when
 * the system cannot start (e.g. an initial-state error). */
int explore_run(sys_t *s, int layout_keys, const explore_opts_t *o, explore_result_t *out,
                diag_t *err);

void explore_result_free(explore_result_t *r);

#endif
