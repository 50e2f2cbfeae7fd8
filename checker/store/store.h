/* store.h - the SQLite store (docs/architecture.md section 7): runs, visited states,
 * outcomes and failures, so runs can be resumed, traced, compared and
 * counted. States are written by a background writer thread in large
 * transactions (WAL mode), so exploration does not wait on the disk.
 * Invariant: a run's rows are complete when its status is 'done' or
 * 'stopped'; a 'running' run is being written by the process it records
 * (pid, host, start time), or was interrupted (that process is gone) and can
 * be resumed. */
#ifndef COHCHECK_STORE_H
#define COHCHECK_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/diag.h"

typedef struct store store_t;

/* Open (creating if needed) the database at PATH. 0, or -1 with ERR (not an
 * SQLite file, a database of another program, a newer schema version, ...).
 * Creates the schema (version in PRAGMA user_version) and starts the writer
 * thread. A store may be shared by several handles or processes: each waits
 * up to 10 s for the others' write locks.
 * Threads: store_state and store_outcome may be called from several threads
 * at once; every other function from one thread at a time. */
int store_open(const char *path, store_t **out, diag_t *err);
/* Flush pending writes and close; S is freed either way (NULL: nothing to do).
 * Returns -1 with ERR if a queued write failed since the last report. */
int store_close(store_t *s, diag_t *err);
/* Wait until every queued row is committed. Returns -1 with ERR (and forgets
 * the error) if a queued write failed since the last report. */
int store_flush(store_t *s, diag_t *err);

typedef struct {
    const char *command;    /* the command line, for the record */
    const char *protocol;   /* protocol name */
    const char *proto_file; /* its path */
    const char *proto_src;  /* full source text */
    size_t proto_len;
    const char *test; /* test name */
    const char *test_file;
    const char *test_src;
    size_t test_len;
    const char *model;  /* model name */
    const char *config; /* the configuration as JSON ({"cus":2,"init":"cold",...}) */
} store_run_info_t;

/* Start a run; *RUN receives its id. Sources are hashed (64-bit) and stored. */
int store_run_begin(store_t *s, const store_run_info_t *info, int64_t *run, diag_t *err);

/* Queue one visited state: its number in the run (discovery order), parent
 * number (-1 for an initial state), depth, the transition taken (an opaque
 * label blob), its 64-bit fingerprint and its encoding. The row is copied;
 * the writer thread packs consecutive numbers of a run into blocks (one
 * SQLite row each), so a run's numbers must be stored once each, in
 * increasing order. Never blocks for long: only when 64 MiB of rows are
 * pending (the disk is slower than exploration) does it wait for the writer.
 * Write errors are reported by the next store_run_end/store_flush/store_close.
 * S may be NULL (no database): then nothing happens. */
void store_state(store_t *s, int64_t run, int64_t id, int64_t parent, int depth, const void *label,
                 size_t label_len, uint64_t fp, const void *enc, size_t enc_len);

/* Record a reached outcome (as JSON text) and whether the model allows it;
 * queued like store_state. The first record of an outcome in a run wins.
 * S may be NULL. */
void store_outcome(store_t *s, int64_t run, const char *outcome_json, bool allowed);

/* Finish a run: status "done" (complete) or "stopped" (a limit or SIGINT; resumable),
 * counts, verdict, message, trace (JSON array text, or NULL), seconds,
 * and for a stopped BFS run the number of states already expanded. */
typedef struct {
    const char *status;
    uint64_t states, transitions, expanded;
    int max_depth;
    const char *verdict;
    const char *message;
    const char *trace_json;
    double seconds;
    bool has_failure; /* FAILURE: the number of the state where the check failed */
    int64_t failure;
    /* --liveness: a livelock's cycle as state numbers, "12,40,41" (the first is FAILURE;
     * the last steps back to it), or NULL */
    const char *lasso;
} store_run_end_t;
/* Flushes the queue first; if a queued write failed, returns -1 with that error
 * and leaves the run 'running' (its rows are incomplete). -1 also for a
 * status other than "done"/"stopped" or an unknown run. */
int store_run_end(store_t *s, int64_t run, const store_run_end_t *end, diag_t *err);

/* ---- reading back ----
 * Every reader first waits for the queue to be committed, so it sees every
 * row queued through this handle (rows of other handles once committed). */

typedef struct {
    int64_t id;
    char *command, *protocol, *proto_file, *proto_src, *test, *test_file, *test_src, *model,
        *config;
    size_t proto_len, test_len;
    char *status, *verdict, *message, *trace_json, *started;
    uint64_t states, transitions, expanded;
    int max_depth;
    double seconds;
    uint64_t proto_hash, test_hash; /* util_hash64(src, len, 0); 0 without a source */
    int64_t failure; /* the number of the state where the check failed, -1: none recorded */
    int64_t pid;     /* the process writing it (-1: not recorded), on HOST, started PSTART */
    char *host, *pstart;
    char *lasso; /* a livelock's cycle (store_run_end_t.lasso), or NULL */
} store_run_t;

/* What R is now: "done" or "stopped"; for a 'running' run, "running" while its
 * process lives, "interrupted" once it is gone, "running?" when it cannot be told
 * (another host's process, or a run recorded before processes were). */
const char *store_run_state(const store_run_t *r);

/* Take over run RUN to resume it: it becomes 'running' by this process. -1 with
 * ERR if it is complete, absent, or still running in a live process. */
int store_run_claim(store_t *s, int64_t run, diag_t *err);

/* Fill R with run RUN (strings malloc'd; free with store_run_free). -1 if absent. */
int store_get_run(store_t *s, int64_t run, store_run_t *r, diag_t *err);
void store_run_free(store_run_t *r);

/* Call FN for every run, newest first (R is valid during the call only). */
int store_list_runs(store_t *s, void (*fn)(void *ctx, const store_run_t *r), void *ctx,
                    diag_t *err);

/* Call FN for every state of RUN in number order (ST's buffers are valid
 * during the call only; an empty label or encoding may be NULL). */
typedef struct {
    int64_t id, parent;
    int depth;
    const void *label;
    size_t label_len;
    uint64_t fp;
    const void *enc;
    size_t enc_len;
} store_state_t;
int store_states(store_t *s, int64_t run, void (*fn)(void *ctx, const store_state_t *st), void *ctx,
                 diag_t *err);

/* Fetch one state of RUN by number (buffers malloc'd into ST; free label and enc;
 * decodes its block up to it). -1 with ERR if absent. */
int store_get_state(store_t *s, int64_t run, int64_t id, store_state_t *st, diag_t *err);

/* The lowest number of a state of RUN with fingerprint FP (a scan of the
 * run's states): 0 with *ID, 1 if there is none, -1 with ERR. */
int store_find_state(store_t *s, int64_t run, uint64_t fp, int64_t *id, diag_t *err);

/* The number of stored states of RUN (for resuming an interrupted run, whose
 * counts in the runs row are still 0). */
int store_count_states(store_t *s, int64_t run, uint64_t *n, diag_t *err);

/* Outcomes of RUN in text order: FN gets the JSON text and the allowed flag. */
int store_outcomes(store_t *s, int64_t run, void (*fn)(void *ctx, const char *json, bool allowed),
                   void *ctx, diag_t *err);

/* SQLite's integrity_check and foreign_key_check: 0 when both pass, 1 with the
 * first problem in MSG (LEN bytes), -1 with ERR when they cannot run. */
int store_integrity(store_t *s, char *msg, size_t len, diag_t *err);

/* The fault build (make test-fault, -DCOHCHECK_FAULT): count SQLite's allocations
 * and file calls so they can be made to fail (base/fault.h). Call before anything
 * else uses the store; 0, or -1 if SQLite refused. Elsewhere a no-op returning 0. */
int store_fault_install(void);

#endif
