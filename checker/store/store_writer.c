/* store_writer.c - the row queue and the background writer thread of the
 * store (docs/architecture.md section 7).
 *
 * store_state and store_outcome copy a row into the tail of a list of
 * chunks under one mutex and return; the writer thread takes the whole list
 * at once and inserts it in one transaction on its own connection, states
 * packed into blocks (store_block.c), so the explorer only pays for a memcpy
 * and an uncontended lock. Producers wake
 * the writer only when the queue becomes non-empty or reaches a batch size
 * (STORE_BATCH_ROWS / STORE_BATCH_BYTES); otherwise the writer commits
 * STORE_BATCH_MS after it first saw a row. When queued plus in-flight chunks
 * reach STORE_QUEUE_LIMIT bytes, a producer waits for the writer
 * (back-pressure): memory stays bounded and exploration slows to the disk's
 * pace instead of failing.
 *
 * Invariant: seq_done <= seq_queued; when the queue is empty and the writer
 * is idle they are equal, so a flush waits exactly for the rows queued
 * before it. After a failed batch every later row is discarded (counted as
 * done) until the error is reported, so a run with a hole is never marked
 * complete. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/util.h"
#include "store_impl.h"

/* Fixed header of one queued row; the payloads follow, the whole padded to 8. */
typedef struct {
    int32_t kind;
    int32_t depth;
    int64_t run, id, parent; /* for an outcome, ID is the allowed flag */
    uint64_t fp;
    uint64_t alen, blen; /* label and encoding, or the outcome's JSON and 0 */
} rec_t;

static size_t pad8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

static store_chunk_t *chunk_new(store_t *s, size_t cap)
{
    store_chunk_t *c;
    if (cap == STORE_CHUNK_SIZE && s->spare) {
        c = s->spare;
        s->spare = c->next;
        s->nspare--;
    } else {
        c = xmalloc(sizeof *c + cap);
        c->cap = cap;
    }
    c->next = NULL;
    c->used = 0;
    return c;
}

static void chunk_free_list(store_chunk_t *c)
{
    while (c) {
        store_chunk_t *n = c->next;
        free(c);
        c = n;
    }
}

void store_enqueue(store_t *s, int kind, int64_t run, int64_t id, int64_t parent, int depth,
                   uint64_t fp, const void *a, size_t alen, const void *b, size_t blen)
{
    rec_t h = {kind, depth, run, id, parent, fp, alen, blen};
    size_t need = sizeof h + pad8(alen + blen);
    store_chunk_t *c;

    pthread_mutex_lock(&s->mu);
    for (;;) {
        c = s->tail;
        if (c && c->cap - c->used >= need)
            break;
        size_t cap = need > STORE_CHUNK_SIZE ? need : STORE_CHUNK_SIZE;
        if (s->bytes + cap <= STORE_QUEUE_LIMIT || s->bytes == 0) {
            c = chunk_new(s, cap);
            s->bytes += cap;
            if (s->tail)
                s->tail->next = c;
            else
                s->head = c;
            s->tail = c;
            break;
        }
        /* Queue full: make the writer commit now and wait for room. */
        s->urgent++;
        pthread_cond_signal(&s->work);
        pthread_cond_wait(&s->done, &s->mu);
        s->urgent--;
    }
    unsigned char *p = c->data + c->used;
    memcpy(p, &h, sizeof h);
    if (alen)
        memcpy(p + sizeof h, a, alen);
    if (blen)
        memcpy(p + sizeof h + alen, b, blen);
    c->used += need;
    size_t old_bytes = s->q_bytes;
    s->q_bytes += need;
    s->q_rows++;
    s->seq_queued++;
    /* Batch wakeups: only on empty -> non-empty (starts the writer's timer)
     * and when a batch is ready. */
    if (s->q_rows == 1 || s->q_rows == STORE_BATCH_ROWS ||
        (old_bytes < STORE_BATCH_BYTES && s->q_bytes >= STORE_BATCH_BYTES))
        pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->mu);
}

/* Step a statement that returns no rows, then reset it. */
static int step_done(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int store_block_insert(sqlite3_stmt *st, const store_block_t *b)
{
    sqlite3_bind_int64(st, 1, b->run);
    sqlite3_bind_int64(st, 2, b->first);
    sqlite3_bind_int64(st, 3, b->n);
    sqlite3_bind_blob64(st, 4, b->data, b->len, SQLITE_STATIC);
    return step_done(st);
}

/* Insert the rows of LIST in one transaction: states packed into blocks of
 * consecutive numbers (store_block.c), outcomes one row each. 0, or -1 with
 * MSG filled. */
static int write_batch(store_t *s, const store_chunk_t *list, char *msg, size_t msglen)
{
    const char *what = "begin";
    store_block_t *blk = &s->blk;
    blk->n = 0;
    if (sqlite3_exec(s->wdb, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    for (const store_chunk_t *c = list; c; c = c->next) {
        size_t off = 0;
        while (off < c->used) {
            rec_t h;
            memcpy(&h, c->data + off, sizeof h);
            const unsigned char *a = c->data + off + sizeof h;
            const unsigned char *b = a + h.alen;
            off += sizeof h + pad8(h.alen + h.blen);
            if (h.kind == STORE_REC_STATE) {
                if (!store_block_fits(blk, h.run, h.id)) {
                    what = "insert states";
                    if (blk->n && store_block_insert(s->ins_block, blk) != 0)
                        goto fail;
                    store_block_reset(blk, h.run, h.id);
                }
                store_block_add(blk, h.id, h.parent, h.depth, a, h.alen, h.fp, b, h.blen);
                continue;
            }
            sqlite3_stmt *st = s->ins_outcome;
            sqlite3_bind_int64(st, 1, h.run);
            sqlite3_bind_text64(st, 2, (const char *)a, h.alen, SQLITE_STATIC, SQLITE_UTF8);
            sqlite3_bind_int(st, 3, h.id != 0);
            what = "insert outcome";
            if (step_done(st) != 0)
                goto fail;
        }
    }
    what = "insert states";
    if (blk->n && store_block_insert(s->ins_block, blk) != 0)
        goto fail;
    blk->n = 0;
    what = "commit";
    if (sqlite3_exec(s->wdb, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    return 0;
fail:
    blk->n = 0;
    snprintf(msg, msglen, "writing to the database failed (%s): %s", what, sqlite3_errmsg(s->wdb));
    if (!sqlite3_get_autocommit(s->wdb))
        sqlite3_exec(s->wdb, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

static void deadline_in(struct timespec *t, long ms)
{
    clock_gettime(CLOCK_MONOTONIC, t);
    t->tv_sec += ms / 1000;
    t->tv_nsec += (ms % 1000) * 1000000L;
    if (t->tv_nsec >= 1000000000L) {
        t->tv_sec++;
        t->tv_nsec -= 1000000000L;
    }
}

static void *writer_main(void *arg)
{
    store_t *s = arg;
    struct timespec deadline;
    bool timer = false;
    char msg[DIAG_MSG_MAX];

    pthread_mutex_lock(&s->mu);
    for (;;) {
        if (!s->head) {
            timer = false;
            if (s->quit)
                break;
            pthread_cond_wait(&s->work, &s->mu);
            continue;
        }
        if (!s->quit && !s->urgent && s->q_rows < STORE_BATCH_ROWS &&
            s->q_bytes < STORE_BATCH_BYTES) {
            if (!timer) {
                deadline_in(&deadline, STORE_BATCH_MS);
                timer = true;
            }
            if (pthread_cond_timedwait(&s->work, &s->mu, &deadline) != ETIMEDOUT)
                continue;
        }
        timer = false;
        store_chunk_t *list = s->head;
        s->head = s->tail = NULL;
        s->q_rows = 0;
        s->q_bytes = 0;
        uint64_t upto = s->seq_queued;
        bool discard = s->failed;
        pthread_mutex_unlock(&s->mu);

        int rc = discard ? 0 : write_batch(s, list, msg, sizeof msg);

        pthread_mutex_lock(&s->mu);
        if (rc != 0 && !s->failed) {
            s->failed = true;
            snprintf(s->werr, sizeof s->werr, "%s", msg);
        }
        while (list) {
            store_chunk_t *n = list->next;
            s->bytes -= list->cap;
            if (list->cap == STORE_CHUNK_SIZE && s->nspare < STORE_SPARE_CHUNKS) {
                list->next = s->spare;
                s->spare = list;
                s->nspare++;
            } else {
                free(list);
            }
            list = n;
        }
        s->seq_done = upto;
        pthread_cond_broadcast(&s->done);
    }
    pthread_mutex_unlock(&s->mu);
    return NULL;
}

static int prepare(store_t *s, const char *sql, sqlite3_stmt **st, diag_t *err)
{
    if (sqlite3_prepare_v3(s->wdb, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) == SQLITE_OK)
        return 0;
    diag_set(err, s->path, 0, 0, "cannot prepare the writer's statements: %s",
             sqlite3_errmsg(s->wdb));
    return -1;
}

int store_writer_start(store_t *s, diag_t *err)
{
    pthread_condattr_t ca;
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->work, &ca);
    pthread_condattr_destroy(&ca);
    pthread_cond_init(&s->done, NULL);
    s->sync_ready = true;

    if (store_db_open(s->path, false, &s->wdb, err) != 0)
        return -1;
    if (prepare(s, STORE_INSERT_BLOCK_SQL, &s->ins_block, err) != 0 ||
        prepare(s, "INSERT OR IGNORE INTO outcomes(run, outcome, allowed) VALUES (?, ?, ?)",
                &s->ins_outcome, err) != 0)
        return -1;
    /* The writer blocks every signal, so SIGINT reaches the exploring thread. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&s->thread, NULL, writer_main, s);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        diag_set(err, s->path, 0, 0, "cannot start the store's writer thread");
        return -1;
    }
    s->thread_started = true;
    return 0;
}

int store_writer_flush(store_t *s, bool report, diag_t *err)
{
    int rc = 0;
    pthread_mutex_lock(&s->mu);
    uint64_t target = s->seq_queued;
    if (s->seq_done < target) {
        s->urgent++;
        pthread_cond_signal(&s->work);
        while (s->seq_done < target)
            pthread_cond_wait(&s->done, &s->mu);
        s->urgent--;
    }
    if (report && s->failed) {
        diag_set(err, s->path, 0, 0, "%s", s->werr);
        s->failed = false;
        rc = -1;
    }
    pthread_mutex_unlock(&s->mu);
    return rc;
}

void store_writer_stop(store_t *s)
{
    if (s->thread_started) {
        pthread_mutex_lock(&s->mu);
        s->quit = true;
        pthread_cond_signal(&s->work);
        pthread_mutex_unlock(&s->mu);
        pthread_join(s->thread, NULL);
        s->thread_started = false;
    }
    sqlite3_finalize(s->ins_block);
    sqlite3_finalize(s->ins_outcome);
    s->ins_block = s->ins_outcome = NULL;
    store_block_free(&s->blk);
    if (s->wdb)
        sqlite3_close(s->wdb);
    s->wdb = NULL;
    chunk_free_list(s->head);
    chunk_free_list(s->spare);
    s->head = s->tail = s->spare = NULL;
    if (s->sync_ready) {
        pthread_cond_destroy(&s->work);
        pthread_cond_destroy(&s->done);
        pthread_mutex_destroy(&s->mu);
        s->sync_ready = false;
    }
}
