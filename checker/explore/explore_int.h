/* explore_int.h - what explore.c and explore_par.c share; not part of the
 * explore module's contract (explore.h). */
#ifndef COHCHECK_EXPLORE_INT_H
#define COHCHECK_EXPLORE_INT_H

#include "explore.h"
#include "../sys/sys_por.h"

#include <stdio.h>
#include <time.h>

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

/* Trace replay's callback: keep the successor at position WANT into BUF. */
typedef struct {
    uint32_t want, seen;
    uint8_t *buf;
    size_t len;
    sys_label_t lab;
    bool got;
} explore_pick_t;
void explore_pick(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab);
void explore_pick_none(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab);

/* ---- symmetry (explore_sym.c) ---- */
/* Turn the system's symmetry on when O asks and it applies (R->symmetry, R->sym_note). */
void explore_sym_start(sys_t *s, const explore_opts_t *o, explore_result_t *r);
/* Record terminal outcome OUTV (at DEPTH) in R->reached and o->on_outcome and check it
 * against o->allowed; with symmetry, every image of it under the group too. Returns 1
 * with the first forbidden one in BAD, else 0. */
int explore_terminal_outcomes(sys_t *s, const explore_opts_t *o, explore_result_t *r,
                              const prog_val_t *outv, int depth, prog_val_t *bad);
/* explore_replay for a run with symmetry (R not NULL): the recorded canonical path made
 * a real execution (sys_sym_realise), aimed, when WANT is given, at a last state whose
 * outcome is WANT (NKEYS values); *OUT is that real last state. */
size_t explore_replay_sym(sys_t *s, const uint32_t *ords, size_t n, explore_result_t *r,
                          const prog_val_t *want, int nkeys, uint8_t **out);
/* explore_trace_end with symmetry: END is real, ST canonical; a failing step is found
 * again on END (R->msg rewritten), and END is dumped. */
void explore_trace_end_sym(sys_t *s, explore_result_t *r, const uint8_t *end, size_t elen,
                           const uint8_t *st, size_t len, const sys_label_t *fail_lab);

/* The parallel BFS behind explore_run when o->threads > 1 (same contract). */
int explore_par_run(sys_t *s, int layout_keys, const explore_opts_t *o, explore_result_t *out,
                    diag_t *err);

/* ---- --liveness (explore_live.c) ----
 * The explored graph as an edge list, and AG EF done decided on it. */
typedef struct live live_t;
/* WIDE: fingerprints have low bits beyond the first 64 (96- and 128-bit sets). */
live_t *live_new(bool wide);
void live_free(live_t *l);
size_t live_bytes(const live_t *l);
/* Number states as the explorer does: ID must be the next number. 0, or -1 out of memory. */
int live_add_state(live_t *l, uint32_t id, uint64_t fp, uint64_t lo);
/* The number of the state with this fingerprint, or -1. */
int64_t live_find(const live_t *l, uint64_t fp, uint64_t lo);
/* A step from SRC to DST, the ORD-th successor of SRC; FLAG 0: a progress step, else an
 * environment event that need not happen (1 + the explorer's index of its name). GROUP:
 * its fairness group's key (UINT64_MAX: none, an environment event that need not happen).
 * 0, or -1 out of memory. */
int live_add_edge(live_t *l, uint32_t src, uint32_t dst, uint32_t ord, uint8_t flag,
                  uint64_t group);
void live_set_terminal(live_t *l, uint32_t id);
/* The threads that finished in state ID (bit t). */
void live_set_done(live_t *l, uint32_t id, uint32_t done);

typedef struct {
    uint64_t stuck;       /* states from which no terminal state is reachable by progress steps */
    uint64_t hard;        /* ... nor by any step */
    bool env_only;        /* the reported lasso: only environment events break it */
    uint32_t entry;       /* the cycle's first state (least number), 0xffffffff: none */
    size_t ncycle;        /* steps of the cycle (0: ENTRY waits for an environment event) */
    uint32_t *cycle_ords; /* per step: the successor position taken */
    uint32_t *cycle_ids;  /* per step: the state it leaves (the first is ENTRY) */
    uint8_t breaks[256];  /* environment flags whose step leads out to a state that finishes */
    int thread;           /* live_analyse_fair: the thread that waits forever */
} live_report_t;
/* Decide AG EF done on the graph: 1 when some state cannot finish (OUT describes the
 * lasso; free it with live_report_free), 0 when every state can. */
int live_analyse(const live_t *l, live_report_t *out);
void live_report_free(live_report_t *r);
/* Starvation under fairness (docs/liveness.md): 1 when some thread t (of NTHREADS, whose
 * own steps have group THREAD_KEYS[t]) has not finished on a reachable cycle that never
 * steps it and is fair to every group: weakly (every group enabled at every state of the
 * cycle takes a step on it) or, with STRONG, strongly (every group enabled at some state
 * of it). OUT gets the thread, the cycle's first state and the cycle; 0 when none. */
int live_analyse_fair(const live_t *l, int nthreads, const uint64_t *thread_keys, bool strong,
                      live_report_t *out);

/* Monotonic seconds, for --max-time. */
static inline double explore_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Whether a search of O begun at T0 has passed its --max-time. */
static inline bool explore_time_up(const explore_opts_t *o, double t0)
{
    return o->max_time > 0 && explore_clock() - t0 >= o->max_time;
}

/* With the reduction on, whether its rule for destinations carried in message fields
 * applies, and why not, into R (docs/por.md, "Reporting"). */
static inline void explore_por_fields(explore_result_t *r, const sys_por_t *por)
{
    const char *why = NULL;
    r->por_fields = r->por && sys_por_fields(por, &why);
    if (r->por && !r->por_fields)
        snprintf(r->pf_why, sizeof r->pf_why, "%s", why ? why : "");
}

#endif
