/* store.c - the SQLite store (docs/architecture.md section 7): opening and schema,
 * runs, and reading back. The row queue and the writer thread are in
 * store_writer.c.
 *
 * Two connections per store: DB for the caller's thread (schema, runs,
 * reads) and WDB for the writer thread (states and outcomes). Both use WAL
 * with a busy timeout, so the caller can read while the writer writes, and a
 * second store or process on the same file waits for the lock instead of
 * failing.
 *
 * Invariant: every reader flushes the queue first, so a caller always reads
 * back every row it queued; store_run_end marks a run 'done' or 'stopped'
 * only after all of its rows were committed without error. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../base/util.h"
#include "store_impl.h"

/* Schema version 4. Counts are stored as SQLite's signed 64-bit integers and
 * hashes as their two's-complement bit patterns; visited states are packed
 * in blocks of consecutive numbers (store_block.c). Each run records the
 * process that writes it (pid, host, pstart: its start time), so a 'running'
 * run whose process is gone is known to be interrupted, and a --liveness run's
 * cycle (lasso). Version 1 kept one row per state with a (run, fp) index,
 * version 2 had no runs.failure column, version 3 no process columns, version
 * 4 no runs.lasso; store_open converts them. */
#define STATES_SQL(name)                                                  \
    "CREATE TABLE IF NOT EXISTS " name " ("                               \
    "  run INTEGER NOT NULL REFERENCES runs(id), first INTEGER NOT NULL," \
    "  n INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY (run, first));"

static const char SCHEMA_SQL[] =
    "CREATE TABLE IF NOT EXISTS runs ("
    "  id INTEGER PRIMARY KEY,"
    "  started TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,"
    "  command TEXT, protocol TEXT, proto_file TEXT, proto_src BLOB, proto_hash INTEGER,"
    "  test TEXT, test_file TEXT, test_src BLOB, test_hash INTEGER,"
    "  model TEXT, config TEXT,"
    "  status TEXT NOT NULL DEFAULT 'running'"
    "    CHECK (status IN ('running', 'done', 'stopped')),"
    "  states INTEGER NOT NULL DEFAULT 0, transitions INTEGER NOT NULL DEFAULT 0,"
    "  expanded INTEGER NOT NULL DEFAULT 0, max_depth INTEGER NOT NULL DEFAULT 0,"
    "  verdict TEXT, message TEXT, trace TEXT, seconds REAL NOT NULL DEFAULT 0, failure "
    "INTEGER, pid INTEGER, host TEXT, pstart TEXT, lasso TEXT);" STATES_SQL(
        "states") "CREATE TABLE IF NOT EXISTS outcomes ("
                  "  run INTEGER NOT NULL REFERENCES runs(id), outcome TEXT NOT NULL,"
                  "  allowed INTEGER NOT NULL, PRIMARY KEY (run, outcome));";

#define RUN_COLS                                                                           \
    "id, started, command, protocol, proto_file, proto_src, proto_hash, test, test_file, " \
    "test_src, test_hash, model, config, status, states, transitions, expanded, "          \
    "max_depth, verdict, message, trace, seconds, failure, pid, host, pstart, lasso"

static int db_fail(const store_t *s, sqlite3 *db, const char *what, diag_t *err)
{
    diag_set(err, s->path, 0, 0, "%s: %s", what, sqlite3_errmsg(db));
    return -1;
}

/* Run SQL returning one integer in *V. */
static int query_int(sqlite3 *db, const char *sql, int64_t *v)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

int store_db_open(const char *path, bool create, sqlite3 **out, diag_t *err)
{
    sqlite3 *db = NULL;
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    const char *what = "cannot open the database";
    /* The writer's connection is used by one thread only. */
    if (!create)
        flags |= SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK)
        goto fail;
    /* SQLite silently falls back to read-only for a file it cannot write. */
    if (sqlite3_db_readonly(db, "main") == 1) {
        diag_set(err, path, 0, 0, "cannot open the database: the file is read-only");
        sqlite3_close(db);
        return -1;
    }
    sqlite3_busy_timeout(db, STORE_BUSY_TIMEOUT_MS);
    /* The first statement reads the header: a file that is not SQLite fails here. */
    sqlite3_stmt *st;
    int rc = SQLITE_BUSY;
    /* Switching a new file to WAL takes an exclusive lock, and SQLite may report another
     * process doing the same as busy without calling the busy handler: retry a while. */
    for (int tries = 0; tries < STORE_BUSY_TIMEOUT_MS / 10 + 1; tries++) {
        if (sqlite3_prepare_v2(db, "PRAGMA journal_mode=WAL", -1, &st, NULL) != SQLITE_OK) {
            if ((sqlite3_errcode(db) & 0xff) != SQLITE_BUSY &&
                (sqlite3_errcode(db) & 0xff) != SQLITE_LOCKED)
                goto fail;
        } else {
            rc = sqlite3_step(st);
            if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED)
                break;
            sqlite3_finalize(st);
        }
        rc = SQLITE_BUSY;
        nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
    }
    if ((rc & 0xff) == SQLITE_BUSY)
        goto fail;
    const char *mode = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
    if (rc == SQLITE_ROW && (!mode || strcmp(mode, "wal") != 0)) {
        diag_set(err, path, 0, 0, "cannot use WAL journal mode (got '%s')", mode ? mode : "?");
        sqlite3_finalize(st);
        sqlite3_close(db);
        return -1;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_ROW)
        goto fail;
    what = "cannot configure the database";
    if (sqlite3_exec(db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) != SQLITE_OK)
        goto fail;
    *out = db;
    return 0;
fail:
    diag_set(err, path, 0, 0, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
    sqlite3_close(db);
    return -1;
}

/* Convert a version 1 database (one row per state) to blocks, inside the
 * caller's transaction. 0, or -1 with ERR. */
static int migrate_v1(store_t *s, diag_t *err)
{
    sqlite3_stmt *sel = NULL, *ins = NULL;
    store_block_t b;
    memset(&b, 0, sizeof b);
    int rc = -1;
    if (sqlite3_exec(s->db, STATES_SQL("states_v2"), NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db,
                           "SELECT run, id, parent, depth, label, fp, enc FROM states "
                           "ORDER BY run, id",
                           -1, &sel, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db,
                           "INSERT OR REPLACE INTO states_v2(run, first, n, data) "
                           "VALUES (?, ?, ?, ?)",
                           -1, &ins, NULL) != SQLITE_OK)
        goto out;
    int step;
    while ((step = sqlite3_step(sel)) == SQLITE_ROW) {
        int64_t run = sqlite3_column_int64(sel, 0), id = sqlite3_column_int64(sel, 1);
        if (!store_block_fits(&b, run, id)) {
            if (b.n && store_block_insert(ins, &b) != 0)
                goto out;
            store_block_reset(&b, run, id);
        }
        store_block_add(&b, id, sqlite3_column_int64(sel, 2), sqlite3_column_int(sel, 3),
                        sqlite3_column_blob(sel, 4), (size_t)sqlite3_column_bytes(sel, 4),
                        (uint64_t)sqlite3_column_int64(sel, 5), sqlite3_column_blob(sel, 6),
                        (size_t)sqlite3_column_bytes(sel, 6));
    }
    if (step != SQLITE_DONE || (b.n && store_block_insert(ins, &b) != 0))
        goto out;
    sqlite3_finalize(sel);
    sel = NULL;
    if (sqlite3_exec(s->db, "DROP TABLE states; ALTER TABLE states_v2 RENAME TO states;", NULL,
                     NULL, NULL) == SQLITE_OK)
        rc = 0;
out:
    if (rc)
        db_fail(s, s->db, "cannot convert the database from schema version 1", err);
    sqlite3_finalize(sel);
    sqlite3_finalize(ins);
    store_block_free(&b);
    return rc;
}

/* Create the schema if the file has none, or convert an older one; refuse
 * newer versions and non-cohcheck databases. */
static int schema_init(store_t *s, diag_t *err)
{
    int64_t v = 0, n = 0;
    if (query_int(s->db, "PRAGMA user_version", &v) != 0)
        return db_fail(s, s->db, "cannot read the schema version", err);
    if (v == STORE_SCHEMA_VERSION)
        return 0;
    if (v > STORE_SCHEMA_VERSION) {
        diag_set(err, s->path, 0, 0,
                 "database schema version %lld is newer than this cohcheck supports (%d); "
                 "use a newer cohcheck or another --db",
                 (long long)v, STORE_SCHEMA_VERSION);
        return -1;
    }
    if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        return db_fail(s, s->db, "cannot lock the database", err);
    /* Re-read under the lock: another process may have created it meanwhile. */
    if (query_int(s->db, "PRAGMA user_version", &v) != 0 ||
        query_int(s->db, "SELECT count(*) FROM sqlite_master", &n) != 0) {
        db_fail(s, s->db, "cannot read the schema", err);
        goto rollback;
    }
    if (v == 0 && n > 0) {
        diag_set(err, s->path, 0, 0,
                 "not a cohcheck database (it has tables but no cohcheck schema version)");
        goto rollback;
    }
    if (v == 1 && migrate_v1(s, err) != 0)
        goto rollback;
    /* Version 3 records the failing state of a run (cohcheck draw --trace). */
    if ((v == 1 || v == 2) && sqlite3_exec(s->db, "ALTER TABLE runs ADD COLUMN failure INTEGER",
                                           NULL, NULL, NULL) != SQLITE_OK) {
        db_fail(s, s->db, "cannot convert the database to schema version 3", err);
        goto rollback;
    }
    /* Version 4 records the process writing a run (interrupted runs are shown so). */
    if (v >= 1 && v <= 3 &&
        sqlite3_exec(s->db,
                     "ALTER TABLE runs ADD COLUMN pid INTEGER; ALTER TABLE runs ADD COLUMN host "
                     "TEXT; ALTER TABLE runs ADD COLUMN pstart TEXT;",
                     NULL, NULL, NULL) != SQLITE_OK) {
        db_fail(s, s->db, "cannot convert the database to schema version 4", err);
        goto rollback;
    }
    /* Version 5 records a --liveness run's cycle (cohcheck draw --trace). */
    if (v >= 1 && v <= 4 &&
        sqlite3_exec(s->db, "ALTER TABLE runs ADD COLUMN lasso TEXT", NULL, NULL, NULL) !=
            SQLITE_OK) {
        db_fail(s, s->db, "cannot convert the database to schema version 5", err);
        goto rollback;
    }
    if (v == 0) {
        if (sqlite3_exec(s->db, SCHEMA_SQL, NULL, NULL, NULL) != SQLITE_OK) {
            db_fail(s, s->db, "cannot create the schema", err);
            goto rollback;
        }
    }
    if (v < STORE_SCHEMA_VERSION) {
        char sql[64];
        snprintf(sql, sizeof sql, "PRAGMA user_version=%d", STORE_SCHEMA_VERSION);
        if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
            db_fail(s, s->db, "cannot create the schema", err);
            goto rollback;
        }
    }
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
        db_fail(s, s->db, "cannot create the schema", err);
        goto rollback;
    }
    return 0;
rollback:
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
}

int store_open(const char *path, store_t **out, diag_t *err)
{
    store_t *s = xcalloc(1, sizeof *s);
    s->path = xstrdup(path);
    if (store_db_open(path, true, &s->db, err) != 0 || schema_init(s, err) != 0)
        goto fail;
    if (store_writer_start(s, err) != 0)
        goto fail;
    *out = s;
    return 0;
fail:
    store_writer_stop(s);
    sqlite3_close(s->db);
    free(s->path);
    free(s);
    return -1;
}

int store_close(store_t *s, diag_t *err)
{
    if (!s)
        return 0;
    int rc = store_writer_flush(s, true, err);
    store_writer_stop(s);
    if (sqlite3_close(s->db) != SQLITE_OK && rc == 0)
        rc = db_fail(s, s->db, "cannot close the database", err);
    free(s->path);
    free(s);
    return rc;
}

int store_flush(store_t *s, diag_t *err)
{
    return store_writer_flush(s, true, err);
}

static void bind_text(sqlite3_stmt *st, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(st, i, t, -1, SQLITE_STATIC);
    else
        sqlite3_bind_null(st, i);
}

/* Bind a source blob at I and its hash at I + 1 (both NULL without a source). */
static void bind_src(sqlite3_stmt *st, int i, const char *src, size_t len)
{
    if (!src) {
        sqlite3_bind_null(st, i);
        sqlite3_bind_null(st, i + 1);
        return;
    }
    sqlite3_bind_blob64(st, i, src, len, SQLITE_STATIC);
    sqlite3_bind_int64(st, i + 1, (int64_t)util_hash64(src, len, 0));
}

/* The start of process PID as "BOOT_ID/TICKS" into BUF ("" if unknown: no /proc). */
static void proc_start(int64_t pid, char *buf, size_t len)
{
    char path[64], stat[1024], boot[64] = "";
    buf[0] = 0;
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (f) {
        if (!fgets(boot, sizeof boot, f))
            boot[0] = 0;
        boot[strcspn(boot, "\n")] = 0;
        fclose(f);
    }
    snprintf(path, sizeof path, "/proc/%lld/stat", (long long)pid);
    f = fopen(path, "r");
    if (!f)
        return;
    size_t n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = 0;
    /* Field 22, counted after the command name's closing parenthesis (field 2). */
    const char *p = strrchr(stat, ')');
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    if (p)
        snprintf(buf, len, "%s/%lld", boot, strtoll(p + 1, NULL, 10));
}

const char *store_run_state(const store_run_t *r)
{
    if (!r->status || strcmp(r->status, "running") != 0)
        return r->status ? r->status : "";
    char host[256];
    if (r->pid <= 0 || !r->host || gethostname(host, sizeof host) != 0)
        return "running?";
    host[sizeof host - 1] = 0;
    if (strcmp(host, r->host) != 0)
        return "running?"; /* another machine's process: cannot tell */
    if (r->pstart && r->pstart[0]) {
        char now[96];
        proc_start(r->pid, now, sizeof now);
        return strcmp(now, r->pstart) == 0 ? "running" : "interrupted";
    }
    return kill((pid_t)r->pid, 0) == 0 || errno == EPERM ? "running" : "interrupted";
}

/* This process's identity: host name, and its start time as "BOOT_ID/TICKS"
 * (the boot and the start time in clock ticks since boot, from /proc), which
 * with the pid names one process even after the pid is reused. */
static void self_identity(char *host, size_t hostlen, char *pstart, size_t plen)
{
    if (gethostname(host, hostlen) != 0)
        snprintf(host, hostlen, "?");
    host[hostlen - 1] = 0;
    proc_start((int64_t)getpid(), pstart, plen);
}

int store_run_begin(store_t *s, const store_run_info_t *info, int64_t *run, diag_t *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO runs(command, protocol, proto_file, proto_src, "
                           "proto_hash, test, test_file, test_src, test_hash, model, config, "
                           "pid, host, pstart) "
                           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           -1, &st, NULL) != SQLITE_OK)
        return db_fail(s, s->db, "cannot record the run", err);
    char host[256], pstart[96];
    self_identity(host, sizeof host, pstart, sizeof pstart);
    sqlite3_bind_int64(st, 12, (int64_t)getpid());
    bind_text(st, 13, host);
    bind_text(st, 14, pstart);
    bind_text(st, 1, info->command);
    bind_text(st, 2, info->protocol);
    bind_text(st, 3, info->proto_file);
    bind_src(st, 4, info->proto_src, info->proto_len);
    bind_text(st, 6, info->test);
    bind_text(st, 7, info->test_file);
    bind_src(st, 8, info->test_src, info->test_len);
    bind_text(st, 10, info->model);
    bind_text(st, 11, info->config);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(s, s->db, "cannot record the run", err);
    *run = sqlite3_last_insert_rowid(s->db);
    return 0;
}

int store_run_claim(store_t *s, int64_t run, diag_t *err)
{
    store_run_t r;
    if (store_get_run(s, run, &r, err))
        return -1;
    int rc = 0;
    if (!strcmp(store_run_state(&r), "running")) {
        diag_set(err, s->path, 0, 0, "run %lld is still running (process %lld on %s)",
                 (long long)run, (long long)r.pid, r.host);
        rc = -1;
    }
    store_run_free(&r);
    if (rc)
        return rc;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "UPDATE runs SET status = 'running', pid = ?, host = ?, pstart = ? "
                           "WHERE id = ? AND status != 'done'",
                           -1, &st, NULL) != SQLITE_OK)
        return db_fail(s, s->db, "cannot take over the run", err);
    char host[256], pstart[96];
    self_identity(host, sizeof host, pstart, sizeof pstart);
    sqlite3_bind_int64(st, 1, (int64_t)getpid());
    bind_text(st, 2, host);
    bind_text(st, 3, pstart);
    sqlite3_bind_int64(st, 4, run);
    rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(s, s->db, "cannot take over the run", err);
    if (sqlite3_changes(s->db) == 0) {
        diag_set(err, s->path, 0, 0, "run %lld is complete or absent", (long long)run);
        return -1;
    }
    return 0;
}

void store_state(store_t *s, int64_t run, int64_t id, int64_t parent, int depth, const void *label,
                 size_t label_len, uint64_t fp, const void *enc, size_t enc_len)
{
    if (s)
        store_enqueue(s, STORE_REC_STATE, run, id, parent, depth, fp, label, label_len, enc,
                      enc_len);
}

void store_outcome(store_t *s, int64_t run, const char *outcome_json, bool allowed)
{
    if (s)
        store_enqueue(s, STORE_REC_OUTCOME, run, allowed, 0, 0, 0, outcome_json,
                      strlen(outcome_json), NULL, 0);
}

int store_run_end(store_t *s, int64_t run, const store_run_end_t *end, diag_t *err)
{
    if (!end->status || (strcmp(end->status, "done") != 0 && strcmp(end->status, "stopped") != 0)) {
        diag_set(err, s->path, 0, 0, "run %lld: invalid final status '%s' (done or stopped)",
                 (long long)run, end->status ? end->status : "(null)");
        return -1;
    }
    /* A failed batch leaves the run 'running': its rows are incomplete. */
    if (store_writer_flush(s, true, err) != 0)
        return -1;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "UPDATE runs SET status = ?, states = ?, transitions = ?, "
                           "expanded = ?, max_depth = ?, verdict = ?, message = ?, trace = ?, "
                           "seconds = ?, failure = ?, lasso = ? WHERE id = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return db_fail(s, s->db, "cannot finish the run", err);
    bind_text(st, 1, end->status);
    sqlite3_bind_int64(st, 2, (int64_t)end->states);
    sqlite3_bind_int64(st, 3, (int64_t)end->transitions);
    sqlite3_bind_int64(st, 4, (int64_t)end->expanded);
    sqlite3_bind_int(st, 5, end->max_depth);
    bind_text(st, 6, end->verdict);
    bind_text(st, 7, end->message);
    bind_text(st, 8, end->trace_json);
    sqlite3_bind_double(st, 9, end->seconds);
    if (end->has_failure)
        sqlite3_bind_int64(st, 10, end->failure);
    else
        sqlite3_bind_null(st, 10);
    bind_text(st, 11, end->lasso);
    sqlite3_bind_int64(st, 12, run);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return db_fail(s, s->db, "cannot finish the run", err);
    if (sqlite3_changes(s->db) == 0) {
        diag_set(err, s->path, 0, 0, "run %lld not found", (long long)run);
        return -1;
    }
    return 0;
}

/* ---- reading back ---- */

/* Copy column I as a NUL-terminated string (NULL for SQL NULL); *LEN gets its length. */
static char *col_dup(sqlite3_stmt *st, int i, size_t *len)
{
    size_t n = 0;
    char *r = NULL;
    if (sqlite3_column_type(st, i) != SQLITE_NULL) {
        const void *p = sqlite3_column_blob(st, i);
        n = (size_t)sqlite3_column_bytes(st, i);
        r = xmalloc(n + 1);
        if (n)
            memcpy(r, p, n);
        r[n] = '\0';
    }
    if (len)
        *len = n;
    return r;
}

static void run_fill(sqlite3_stmt *st, store_run_t *r)
{
    memset(r, 0, sizeof *r);
    r->id = sqlite3_column_int64(st, 0);
    r->started = col_dup(st, 1, NULL);
    r->command = col_dup(st, 2, NULL);
    r->protocol = col_dup(st, 3, NULL);
    r->proto_file = col_dup(st, 4, NULL);
    r->proto_src = col_dup(st, 5, &r->proto_len);
    r->proto_hash = (uint64_t)sqlite3_column_int64(st, 6);
    r->test = col_dup(st, 7, NULL);
    r->test_file = col_dup(st, 8, NULL);
    r->test_src = col_dup(st, 9, &r->test_len);
    r->test_hash = (uint64_t)sqlite3_column_int64(st, 10);
    r->model = col_dup(st, 11, NULL);
    r->config = col_dup(st, 12, NULL);
    r->status = col_dup(st, 13, NULL);
    r->states = (uint64_t)sqlite3_column_int64(st, 14);
    r->transitions = (uint64_t)sqlite3_column_int64(st, 15);
    r->expanded = (uint64_t)sqlite3_column_int64(st, 16);
    r->max_depth = sqlite3_column_int(st, 17);
    r->verdict = col_dup(st, 18, NULL);
    r->message = col_dup(st, 19, NULL);
    r->trace_json = col_dup(st, 20, NULL);
    r->seconds = sqlite3_column_double(st, 21);
    r->failure = sqlite3_column_type(st, 22) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 22);
    r->pid = sqlite3_column_type(st, 23) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, 23);
    r->host = col_dup(st, 24, NULL);
    r->pstart = col_dup(st, 25, NULL);
    r->lasso = col_dup(st, 26, NULL);
}

void store_run_free(store_run_t *r)
{
    char *strs[] = {r->command,   r->protocol, r->proto_file, r->proto_src, r->test,
                    r->test_file, r->test_src, r->model,      r->config,    r->status,
                    r->verdict,   r->message,  r->trace_json, r->started,   r->host,
                    r->pstart,    r->lasso};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        free(strs[i]);
    memset(r, 0, sizeof *r);
}

int store_get_run(store_t *s, int64_t run, store_run_t *r, diag_t *err)
{
    store_writer_flush(s, false, NULL);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT " RUN_COLS " FROM runs WHERE id = ?", -1, &st, NULL) !=
        SQLITE_OK)
        return db_fail(s, s->db, "cannot read the run", err);
    sqlite3_bind_int64(st, 1, run);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        run_fill(st, r);
    else if (rc == SQLITE_DONE)
        diag_set(err, s->path, 0, 0, "run %lld not found", (long long)run);
    else
        db_fail(s, s->db, "cannot read the run", err);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

int store_list_runs(store_t *s, void (*fn)(void *ctx, const store_run_t *r), void *ctx, diag_t *err)
{
    store_writer_flush(s, false, NULL);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT " RUN_COLS " FROM runs ORDER BY id DESC", -1, &st,
                           NULL) != SQLITE_OK)
        return db_fail(s, s->db, "cannot list the runs", err);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        store_run_t r;
        run_fill(st, &r);
        fn(ctx, &r);
        store_run_free(&r);
    }
    if (rc != SQLITE_DONE)
        db_fail(s, s->db, "cannot list the runs", err);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

/* Call FN for each state of RUN numbered FROM or more, in number order, until
 * it returns true. 0, or -1 with ERR. */
static int scan_states(store_t *s, int64_t run, int64_t from,
                       bool (*fn)(void *ctx, const store_state_t *st), void *ctx, diag_t *err)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT first, data, n FROM states WHERE run = ?1 AND first + n > ?2 "
                           "ORDER BY first",
                           -1, &st, NULL) != SQLITE_OK)
        return db_fail(s, s->db, "cannot read the states", err);
    sqlite3_bind_int64(st, 1, run);
    sqlite3_bind_int64(st, 2, from);
    store_block_reader_t r;
    memset(&r, 0, sizeof r);
    int rc, got = 0;
    bool stop = false;
    while (!stop && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        store_block_read_init(&r, sqlite3_column_int64(st, 0), sqlite3_column_blob(st, 1),
                              (size_t)sqlite3_column_bytes(st, 1));
        store_state_t v;
        while (!stop && (got = store_block_read(&r, &v)) > 0)
            if (v.id >= from)
                stop = fn(ctx, &v);
        if (!stop && got == 0 && r.id != sqlite3_column_int64(st, 0) + sqlite3_column_int64(st, 2))
            got = -1; /* fewer states than the block says */
        if (got < 0)
            break;
    }
    sqlite3_finalize(st);
    store_block_read_free(&r);
    if (got < 0) {
        diag_set(err, s->path, 0, 0, "run %lld: a block of stored states is damaged",
                 (long long)run);
        return -1;
    }
    if (!stop && rc != SQLITE_DONE)
        return db_fail(s, s->db, "cannot read the states", err);
    return 0;
}

typedef struct {
    void (*fn)(void *ctx, const store_state_t *st);
    void *ctx;
} each_t;

static bool each_state(void *ctx, const store_state_t *st)
{
    each_t *e = ctx;
    e->fn(e->ctx, st);
    return false;
}

int store_states(store_t *s, int64_t run, void (*fn)(void *ctx, const store_state_t *st), void *ctx,
                 diag_t *err)
{
    store_writer_flush(s, false, NULL);
    each_t e = {fn, ctx};
    return scan_states(s, run, 0, each_state, &e, err);
}

static void *buf_dup(const void *p, size_t n)
{
    void *r = xmalloc(n ? n : 1);
    if (n)
        memcpy(r, p, n);
    return r;
}

typedef struct {
    int64_t id;
    uint64_t fp;
    bool found;
    store_state_t st;
} want_t;

static bool want_id(void *ctx, const store_state_t *st)
{
    want_t *w = ctx;
    if (st->id != w->id)
        return st->id > w->id;
    w->st = *st;
    w->st.label = buf_dup(st->label, st->label_len);
    w->st.enc = buf_dup(st->enc, st->enc_len);
    w->found = true;
    return true;
}

int store_get_state(store_t *s, int64_t run, int64_t id, store_state_t *out, diag_t *err)
{
    store_writer_flush(s, false, NULL);
    want_t w;
    memset(&w, 0, sizeof w);
    w.id = id;
    if (scan_states(s, run, id, want_id, &w, err))
        return -1;
    if (!w.found) {
        diag_set(err, s->path, 0, 0, "run %lld has no state %lld", (long long)run, (long long)id);
        return -1;
    }
    *out = w.st;
    return 0;
}

static bool want_fp(void *ctx, const store_state_t *st)
{
    want_t *w = ctx;
    if (st->fp != w->fp)
        return false;
    w->id = st->id;
    w->found = true;
    return true;
}

int store_find_state(store_t *s, int64_t run, uint64_t fp, int64_t *id, diag_t *err)
{
    store_writer_flush(s, false, NULL);
    want_t w;
    memset(&w, 0, sizeof w);
    w.fp = fp;
    if (scan_states(s, run, 0, want_fp, &w, err))
        return -1;
    if (!w.found)
        return 1;
    *id = w.id;
    return 0;
}

int store_count_states(store_t *s, int64_t run, uint64_t *n, diag_t *err)
{
    store_writer_flush(s, false, NULL);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT coalesce(sum(n), 0) FROM states WHERE run = ?", -1, &st,
                           NULL) != SQLITE_OK)
        return db_fail(s, s->db, "cannot count the states", err);
    sqlite3_bind_int64(st, 1, run);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        *n = (uint64_t)sqlite3_column_int64(st, 0);
    else
        db_fail(s, s->db, "cannot count the states", err);
    sqlite3_finalize(st);
    return rc == SQLITE_ROW ? 0 : -1;
}

int store_outcomes(store_t *s, int64_t run, void (*fn)(void *ctx, const char *json, bool allowed),
                   void *ctx, diag_t *err)
{
    store_writer_flush(s, false, NULL);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT outcome, allowed FROM outcomes WHERE run = ? ORDER BY outcome",
                           -1, &st, NULL) != SQLITE_OK)
        return db_fail(s, s->db, "cannot read the outcomes", err);
    sqlite3_bind_int64(st, 1, run);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        fn(ctx, (const char *)sqlite3_column_text(st, 0), sqlite3_column_int(st, 1) != 0);
    if (rc != SQLITE_DONE)
        db_fail(s, s->db, "cannot read the outcomes", err);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : -1;
}

int store_integrity(store_t *s, char *msg, size_t len, diag_t *err)
{
    store_writer_flush(s, false, NULL);
    static const char *const sql[] = {"PRAGMA integrity_check", "PRAGMA foreign_key_check"};
    msg[0] = 0;
    int bad = 0;
    for (int q = 0; q < 2; q++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(s->db, sql[q], -1, &st, NULL) != SQLITE_OK)
            return db_fail(s, s->db, "cannot check the database", err);
        int rc;
        while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
            const char *t = (const char *)sqlite3_column_text(st, 0);
            if (q == 0 && t && !strcmp(t, "ok"))
                continue;
            if (!bad++)
                snprintf(msg, len, "%s: %s", sql[q] + 7, t ? t : "a row refers to no row");
        }
        sqlite3_finalize(st);
        if (rc != SQLITE_DONE)
            return db_fail(s, s->db, "cannot check the database", err);
    }
    return bad ? 1 : 0;
}
