/* store_impl.h - private to checker/store: the store object shared by
 * store.c (schema, runs, readers on the caller's connection) and
 * store_writer.c (the row queue and the writer thread on its own connection).
 *
 * Invariant: every queue field is read and written only with MU held; the
 * writer connection WDB and its statements are used only by the writer thread
 * (and by store_open/store_close before it starts and after it is joined);
 * DB is used only by the thread that calls the public API. */
#ifndef COHCHECK_STORE_IMPL_H
#define COHCHECK_STORE_IMPL_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "store.h"

#define STORE_SCHEMA_VERSION 5
#define STORE_BUSY_TIMEOUT_MS 10000
/* Back-pressure: queued plus in-flight rows may hold at most this much memory;
 * beyond it store_state waits for the writer. */
#define STORE_QUEUE_LIMIT ((size_t)64 << 20)
/* Rows are copied into chunks of this size (bigger rows get their own chunk). */
#define STORE_CHUNK_SIZE ((size_t)1 << 20)
/* The writer commits when this many rows (or bytes) are queued, when someone
 * waits for it, or STORE_BATCH_MS after it first saw a queued row. */
#define STORE_BATCH_ROWS 50000
#define STORE_BATCH_BYTES ((size_t)8 << 20)
#define STORE_BATCH_MS 100
/* Idle chunks kept for reuse rather than freed. */
#define STORE_SPARE_CHUNKS 8
/* A block of states (store_block.c) closes at this many states or bytes. */
#define STORE_BLOCK_STATES 4096
#define STORE_BLOCK_BYTES ((size_t)256 << 10)

/* A block being built: consecutive states FIRST .. FIRST+N-1 of RUN. */
typedef struct {
    int64_t run, first, n;
    uint8_t *data;
    size_t len, cap;
    uint8_t *prev; /* the last encoding added, zero-padded (delta base) */
    size_t prevlen, prevcap;
} store_block_t;
/* Start an empty block at state FIRST of RUN (B zeroed before first use). */
void store_block_reset(store_block_t *b, int64_t run, int64_t first);
/* Can state ID of RUN be appended to the non-empty block B? */
bool store_block_fits(const store_block_t *b, int64_t run, int64_t id);
/* Append a state (its number must be b->first + b->n). */
void store_block_add(store_block_t *b, int64_t id, int64_t parent, int depth, const void *label,
                     size_t label_len, uint64_t fp, const void *enc, size_t enc_len);
void store_block_free(store_block_t *b);

/* Reading a block's states in order (R zeroed before first use; reusable). */
typedef struct {
    const uint8_t *p, *end;
    int64_t id;
    uint8_t *prev;
    size_t prevlen, prevcap;
} store_block_reader_t;
void store_block_read_init(store_block_reader_t *r, int64_t first, const void *data, size_t len);
/* The next state into ST (its buffers valid until the next call): 1, 0 at the
 * end of the block, -1 when the data is damaged. */
int store_block_read(store_block_reader_t *r, store_state_t *st);
void store_block_read_free(store_block_reader_t *r);

typedef struct store_chunk {
    struct store_chunk *next;
    size_t cap, used; /* bytes of DATA allocated and filled */
    unsigned char data[];
} store_chunk_t;

struct store {
    char *path;
    sqlite3 *db;  /* the caller's connection */
    sqlite3 *wdb; /* the writer thread's connection */
    sqlite3_stmt *ins_block, *ins_outcome;
    store_block_t blk; /* the writer's block being built */
    pthread_t thread;
    bool thread_started;
    bool sync_ready; /* MU and the condition variables are initialised */

    pthread_mutex_t mu;
    pthread_cond_t work;        /* the writer waits here for rows or requests */
    pthread_cond_t done;        /* flushers and blocked producers wait here */
    store_chunk_t *head, *tail; /* queued, not yet taken by the writer */
    store_chunk_t *spare;       /* idle chunks of STORE_CHUNK_SIZE */
    size_t nspare;
    size_t q_rows, q_bytes; /* queued rows and filled bytes */
    size_t bytes;           /* capacity of queued and in-flight chunks */
    uint64_t seq_queued;    /* rows ever queued */
    uint64_t seq_done;      /* rows ever committed (or discarded after an error) */
    int urgent;             /* threads waiting on the writer: commit at once */
    bool quit;
    bool failed; /* a batch failed; rows are discarded until reported */
    char werr[DIAG_MSG_MAX];
};

/* Insert block B with statement ST (bound and stepped; reset after). 0 or -1. */
int store_block_insert(sqlite3_stmt *st, const store_block_t *b);
#define STORE_INSERT_BLOCK_SQL \
    "INSERT OR REPLACE INTO states(run, first, n, data) VALUES (?, ?, ?, ?)"

/* Open and configure one connection (busy timeout, WAL, synchronous=NORMAL). */
int store_db_open(const char *path, bool create, sqlite3 **out, diag_t *err);

/* Open the writer connection and start the thread. 0, or -1 with ERR. */
int store_writer_start(store_t *s, diag_t *err);
/* Stop the writer after it has drained the queue; close its connection and
 * free the queue. Safe to call when the writer never started. */
void store_writer_stop(store_t *s);
/* Wait until every row queued so far is committed. With REPORT, a remembered
 * writer error is returned (-1 with ERR) and forgotten. */
int store_writer_flush(store_t *s, bool report, diag_t *err);
/* Queue one record (STORE_REC_STATE or STORE_REC_OUTCOME) with two payloads A and B. */
enum { STORE_REC_STATE = 1, STORE_REC_OUTCOME = 2 };
void store_enqueue(store_t *s, int kind, int64_t run, int64_t id, int64_t parent, int depth,
                   uint64_t fp, const void *a, size_t alen, const void *b, size_t blen);

#endif
