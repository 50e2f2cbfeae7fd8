/* test_store.c - unit tests of the SQLite store (checker/store): round trips
 * of runs, states and outcomes; run_end fields and the resume-relevant ones;
 * list order; several handles and processes on one file; reopening; refusal
 * of files that are not cohcheck databases; a writer error reported by
 * run_end; and a throughput benchmark that reports, not asserts.
 *
 * Each test works in its own mkdtemp directory, removed at the end. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../checker/store/store.h"

static char tmpdir[64];
static char dbpath[128];

static void tmp_setup(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/cohcheck-store-XXXXXX");
    cr_assert_not_null(mkdtemp(tmpdir));
    snprintf(dbpath, sizeof dbpath, "%s/t.db", tmpdir);
}

static void tmp_teardown(void)
{
    DIR *d = opendir(tmpdir);
    if (!d)
        return;
    struct dirent *e;
    char p[512];
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
        unlink(p);
    }
    closedir(d);
    rmdir(tmpdir);
}

TestSuite(store, .init = tmp_setup, .fini = tmp_teardown);

static store_t *open_ok(const char *path)
{
    store_t *s = NULL;
    diag_t err;
    char msg[1200];
    if (store_open(path, &s, &err) != 0) {
        diag_format(&err, msg, sizeof msg);
        cr_assert_fail("store_open: %s", msg);
    }
    return s;
}

static void close_ok(store_t *s)
{
    diag_t err;
    char msg[1200];
    if (store_close(s, &err) != 0) {
        diag_format(&err, msg, sizeof msg);
        cr_assert_fail("store_close: %s", msg);
    }
}

static const char PROTO_SRC[] = "protocol msi\nstate I S M\n";
static const char TEST_SRC[] = "test MP\n{ x = 0; }\n";

static int64_t begin(store_t *s, const char *test)
{
    store_run_info_t info = {
        .command = "cohcheck check msi.proto MP.litmus",
        .protocol = "msi",
        .proto_file = "protocols/msi.proto",
        .proto_src = PROTO_SRC,
        .proto_len = sizeof PROTO_SRC - 1,
        .test = test,
        .test_file = "litmus/MP.litmus",
        .test_src = TEST_SRC,
        .test_len = sizeof TEST_SRC - 1,
        .model = "sc",
        .config = "{\"cus\":2,\"init\":\"cold\"}",
    };
    int64_t run = -1;
    diag_t err;
    cr_assert_eq(store_run_begin(s, &info, &run, &err), 0, "%s", err.msg);
    cr_assert_gt(run, 0);
    return run;
}

static void end(store_t *s, int64_t run, const char *status, uint64_t states, uint64_t expanded)
{
    store_run_end_t e = {
        .status = status,
        .states = states,
        .transitions = states * 3,
        .expanded = expanded,
        .max_depth = 17,
        .verdict = "pass",
        .message = "no violation",
        .trace_json = "[{\"step\":1}]",
        .seconds = 1.5,
    };
    diag_t err;
    cr_assert_eq(store_run_end(s, run, &e, &err), 0, "%s", err.msg);
}

Test(store, run_round_trip)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP");
    store_run_t r;
    diag_t err;
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_eq(r.id, run);
    cr_expect_str_eq(r.command, "cohcheck check msi.proto MP.litmus");
    cr_expect_str_eq(r.protocol, "msi");
    cr_expect_str_eq(r.proto_file, "protocols/msi.proto");
    cr_expect_eq(r.proto_len, sizeof PROTO_SRC - 1);
    cr_expect_str_eq(r.proto_src, PROTO_SRC);
    cr_expect_str_eq(r.test, "MP");
    cr_expect_str_eq(r.test_file, "litmus/MP.litmus");
    cr_expect_eq(r.test_len, sizeof TEST_SRC - 1);
    cr_expect_str_eq(r.test_src, TEST_SRC);
    cr_expect_str_eq(r.model, "sc");
    cr_expect_str_eq(r.config, "{\"cus\":2,\"init\":\"cold\"}");
    cr_expect_str_eq(r.status, "running");
    cr_expect_not_null(r.started);
    cr_expect_eq(r.states, 0);
    cr_expect_null(r.verdict);
    cr_expect_null(r.trace_json);
    cr_expect_neq(r.proto_hash, 0);
    cr_expect_neq(r.proto_hash, r.test_hash);
    store_run_free(&r);

    /* Missing optional fields come back as NULL. */
    store_run_info_t bare = {.protocol = "p"};
    int64_t run2;
    cr_assert_eq(store_run_begin(s, &bare, &run2, &err), 0, "%s", err.msg);
    cr_assert_eq(store_get_run(s, run2, &r, &err), 0, "%s", err.msg);
    cr_expect_null(r.proto_src);
    cr_expect_eq(r.proto_len, 0);
    cr_expect_eq(r.proto_hash, 0);
    cr_expect_null(r.command);
    store_run_free(&r);

    cr_expect_eq(store_get_run(s, 999, &r, &err), -1);
    cr_expect(strstr(err.msg, "run 999 not found"), "%s", err.msg);
    close_ok(s);
}

Test(store, run_end_fields)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP");
    end(s, run, "done", 1234, 1234);
    store_run_t r;
    diag_t err;
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_str_eq(r.status, "done");
    cr_expect_eq(r.states, 1234);
    cr_expect_eq(r.transitions, 3702);
    cr_expect_eq(r.expanded, 1234);
    cr_expect_eq(r.max_depth, 17);
    cr_expect_str_eq(r.verdict, "pass");
    cr_expect_str_eq(r.message, "no violation");
    cr_expect_str_eq(r.trace_json, "[{\"step\":1}]");
    cr_expect_float_eq(r.seconds, 1.5, 1e-9);
    cr_expect_eq(r.failure, -1);
    store_run_free(&r);

    /* The failing state's number, when there is one. */
    store_run_end_t failed = {.status = "done", .has_failure = true, .failure = 4321};
    cr_assert_eq(store_run_end(s, run, &failed, &err), 0, "%s", err.msg);
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_eq(r.failure, 4321);
    store_run_free(&r);

    /* Large counts survive the signed SQLite integers. */
    store_run_end_t big = {.status = "done", .states = UINT64_MAX - 1, .transitions = 1ull << 63};
    cr_assert_eq(store_run_end(s, run, &big, &err), 0, "%s", err.msg);
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_eq(r.states, UINT64_MAX - 1);
    cr_expect_eq(r.transitions, 1ull << 63);
    cr_expect_null(r.verdict);
    store_run_free(&r);

    store_run_end_t bad = {.status = "running"};
    cr_expect_eq(store_run_end(s, run, &bad, &err), -1);
    cr_expect(strstr(err.msg, "invalid final status"), "%s", err.msg);
    store_run_end_t ok = {.status = "done"};
    cr_expect_eq(store_run_end(s, 4242, &ok, &err), -1);
    cr_expect(strstr(err.msg, "run 4242 not found"), "%s", err.msg);
    close_ok(s);
}

/* A stopped BFS run keeps what resume needs: status, expanded count, states. */
Test(store, resume_fields)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "SB");
    for (int i = 0; i < 10; i++)
        store_state(s, run, i, i ? i / 2 : -1, i ? 1 : 0, "L", 1, 100 + (uint64_t)i, &i, sizeof i);
    end(s, run, "stopped", 10, 4);
    close_ok(s);

    s = open_ok(dbpath);
    store_run_t r;
    diag_t err;
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_str_eq(r.status, "stopped");
    cr_expect_eq(r.expanded, 4);
    cr_expect_eq(r.states, 10);
    store_run_free(&r);
    uint64_t n = 0;
    cr_assert_eq(store_count_states(s, run, &n, &err), 0, "%s", err.msg);
    cr_expect_eq(n, 10);

    /* An interrupted run stays 'running' and its states are counted. */
    int64_t run2 = begin(s, "SB");
    for (int i = 0; i < 7; i++)
        store_state(s, run2, i, -1, 0, NULL, 0, (uint64_t)i, &i, sizeof i);
    cr_assert_eq(store_count_states(s, run2, &n, &err), 0, "%s", err.msg);
    cr_expect_eq(n, 7);
    cr_assert_eq(store_get_run(s, run2, &r, &err), 0, "%s", err.msg);
    cr_expect_str_eq(r.status, "running");
    store_run_free(&r);
    close_ok(s);
}

typedef struct {
    int n;
    int64_t ids[8];
    char statuses[8][16];
} runs_seen_t;

static void collect_run(void *ctx, const store_run_t *r)
{
    runs_seen_t *rs = ctx;
    if (rs->n < 8) {
        rs->ids[rs->n] = r->id;
        snprintf(rs->statuses[rs->n], sizeof rs->statuses[0], "%s", r->status);
    }
    rs->n++;
}

Test(store, list_newest_first)
{
    store_t *s = open_ok(dbpath);
    int64_t a = begin(s, "A"), b = begin(s, "B"), c = begin(s, "C");
    end(s, b, "done", 1, 1);
    runs_seen_t rs = {0};
    diag_t err;
    cr_assert_eq(store_list_runs(s, collect_run, &rs, &err), 0, "%s", err.msg);
    cr_assert_eq(rs.n, 3);
    cr_expect_eq(rs.ids[0], c);
    cr_expect_eq(rs.ids[1], b);
    cr_expect_eq(rs.ids[2], a);
    cr_expect_str_eq(rs.statuses[1], "done");
    cr_expect_str_eq(rs.statuses[2], "running");
    close_ok(s);
}

typedef struct {
    int n;
    int64_t last;
    bool ordered;
    bool content_ok;
} states_seen_t;

/* States written by put_states: id I has parent I-1, depth I % 50, label
 * "t<I % 7>", fingerprint I * golden, encoding 40 bytes derived from I. */
static void fill_enc(unsigned char *enc, int64_t i)
{
    for (int k = 0; k < 40; k++)
        enc[k] = (unsigned char)(i * 31 + k);
}

static uint64_t fp_of(int64_t i)
{
    return (uint64_t)i * 0x9e3779b97f4a7c15ull;
}

static void put_states(store_t *s, int64_t run, int64_t n)
{
    unsigned char enc[40];
    char label[8];
    for (int64_t i = 0; i < n; i++) {
        fill_enc(enc, i);
        int ll = snprintf(label, sizeof label, "t%d", (int)(i % 7));
        store_state(s, run, i, i - 1, (int)(i % 50), label, (size_t)ll, fp_of(i), enc, sizeof enc);
    }
}

static void check_state(void *ctx, const store_state_t *st)
{
    states_seen_t *ss = ctx;
    unsigned char enc[40];
    char label[8];
    fill_enc(enc, st->id);
    int ll = snprintf(label, sizeof label, "t%d", (int)(st->id % 7));
    if (st->id != ss->last + 1)
        ss->ordered = false;
    if (st->parent != st->id - 1 || st->depth != (int)(st->id % 50) || st->fp != fp_of(st->id) ||
        st->enc_len != 40 || memcmp(st->enc, enc, 40) != 0 || st->label_len != (size_t)ll ||
        memcmp(st->label, label, (size_t)ll) != 0)
        ss->content_ok = false;
    ss->last = st->id;
    ss->n++;
}

static void expect_states(store_t *s, int64_t run, int n)
{
    states_seen_t ss = {0, -1, true, true};
    diag_t err;
    cr_assert_eq(store_states(s, run, check_state, &ss, &err), 0, "%s", err.msg);
    cr_expect_eq(ss.n, n);
    cr_expect(ss.ordered, "states not in number order");
    cr_expect(ss.content_ok, "state contents differ");
}

Test(store, states_round_trip)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP");
    int64_t other = begin(s, "SB");
    put_states(s, run, 20);
    store_state(s, other, 0, -1, 0, NULL, 0, 42, "x", 1);
    /* The caller's own reads see queued rows without an explicit flush. */
    expect_states(s, run, 20);

    store_state_t st;
    diag_t err;
    cr_assert_eq(store_get_state(s, run, 5, &st, &err), 0, "%s", err.msg);
    cr_expect_eq(st.id, 5);
    cr_expect_eq(st.parent, 4);
    cr_expect_eq(st.depth, 5);
    cr_expect_eq(st.fp, fp_of(5));
    cr_expect_eq(st.label_len, 2);
    cr_expect_eq(memcmp(st.label, "t5", 2), 0);
    cr_expect_eq(st.enc_len, 40);
    free((void *)st.label);
    free((void *)st.enc);

    /* An initial state with an empty label. */
    cr_assert_eq(store_get_state(s, other, 0, &st, &err), 0, "%s", err.msg);
    cr_expect_eq(st.parent, -1);
    cr_expect_eq(st.label_len, 0);
    cr_expect_eq(st.fp, 42);
    cr_expect_eq(st.enc_len, 1);
    free((void *)st.label);
    free((void *)st.enc);

    cr_expect_eq(store_get_state(s, run, 20, &st, &err), -1);
    cr_expect(strstr(err.msg, "has no state 20"), "%s", err.msg);

    int64_t id = -1;
    cr_expect_eq(store_find_state(s, run, fp_of(13), &id, &err), 0);
    cr_expect_eq(id, 13);
    cr_expect_eq(store_find_state(s, run, 12345, &id, &err), 1);
    cr_expect_eq(store_find_state(s, other, fp_of(13), &id, &err), 1);
    close_ok(s);
}

static void collect_outcome(void *ctx, const char *json, bool allowed)
{
    char *buf = ctx;
    strcat(buf, json);
    strcat(buf, allowed ? "+" : "-");
}

Test(store, outcomes_round_trip)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP"), other = begin(s, "SB");
    store_outcome(s, run, "{\"r0\":1,\"r1\":0}", false);
    store_outcome(s, run, "{\"r0\":0,\"r1\":0}", true);
    store_outcome(s, run, "{\"r0\":1,\"r1\":0}", true); /* duplicate: ignored */
    store_outcome(s, other, "{\"r0\":7}", true);
    char buf[256] = "";
    diag_t err;
    cr_assert_eq(store_outcomes(s, run, collect_outcome, buf, &err), 0, "%s", err.msg);
    cr_expect_str_eq(buf, "{\"r0\":0,\"r1\":0}+{\"r0\":1,\"r1\":0}-");
    buf[0] = '\0';
    cr_assert_eq(store_outcomes(s, other, collect_outcome, buf, &err), 0, "%s", err.msg);
    cr_expect_str_eq(buf, "{\"r0\":7}+");
    store_outcome(NULL, run, "{}", true); /* no database: nothing happens */
    store_state(NULL, run, 0, -1, 0, NULL, 0, 0, NULL, 0);
    close_ok(s);
}

Test(store, states_100k_in_order)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP");
    put_states(s, run, 100000);
    end(s, run, "done", 100000, 100000);
    close_ok(s);
    s = open_ok(dbpath);
    expect_states(s, run, 100000);
    close_ok(s);
}

Test(store, reopen_existing)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP");
    put_states(s, run, 100);
    store_outcome(s, run, "{\"a\":1}", true);
    end(s, run, "done", 100, 100);
    close_ok(s);

    s = open_ok(dbpath);
    int64_t run2 = begin(s, "MP");
    cr_expect_gt(run2, run);
    expect_states(s, run, 100);
    char buf[64] = "";
    diag_t err;
    cr_assert_eq(store_outcomes(s, run, collect_outcome, buf, &err), 0, "%s", err.msg);
    cr_expect_str_eq(buf, "{\"a\":1}+");
    close_ok(s);
    cr_expect_eq(store_close(NULL, &err), 0);
}

typedef struct {
    int n;
    bool ok;
} big_seen_t;

static void check_big(void *ctx, const store_state_t *st)
{
    big_seen_t *bs = ctx;
    const unsigned char *e = st->enc;
    if (st->id != bs->n || st->enc_len != ((size_t)1 << 20) + 8 || e[0] != (unsigned char)st->id ||
        e[st->enc_len - 1] != (unsigned char)(st->id + 1))
        bs->ok = false;
    bs->n++;
}

/* Rows bigger than a queue chunk, 80 MiB in all: more than the queue holds,
 * so producers wait for the writer; nothing is lost or reordered. */
Test(store, big_rows_back_pressure)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "big");
    size_t len = ((size_t)1 << 20) + 8;
    unsigned char *enc = calloc(1, len);
    cr_assert_not_null(enc);
    for (int i = 0; i < 80; i++) {
        enc[0] = (unsigned char)i;
        enc[len - 1] = (unsigned char)(i + 1);
        store_state(s, run, i, i - 1, i, NULL, 0, (uint64_t)i, enc, len);
    }
    free(enc);
    big_seen_t bs = {0, true};
    diag_t err;
    cr_assert_eq(store_states(s, run, check_big, &bs, &err), 0, "%s", err.msg);
    cr_expect_eq(bs.n, 80);
    cr_expect(bs.ok, "big rows differ");
    close_ok(s);
}

/* A second handle opens and writes while the first one's writer is busy. */
Test(store, two_handles_one_file)
{
    store_t *a = open_ok(dbpath);
    int64_t ra = begin(a, "A");
    put_states(a, ra, 200000); /* the writer is still committing these */
    store_t *b = open_ok(dbpath);
    int64_t rb = begin(b, "B");
    cr_expect_neq(ra, rb);
    put_states(b, rb, 50000);
    end(b, rb, "done", 50000, 50000);
    end(a, ra, "done", 200000, 200000);
    expect_states(b, ra, 200000);
    expect_states(a, rb, 50000);
    close_ok(b);
    close_ok(a);
}

/* A second process writes to the same file at the same time; both succeed.
 * Fork first: SQLite connections must not cross a fork. */
Test(store, two_processes_one_file)
{
    pid_t pid = fork();
    cr_assert_neq(pid, -1);
    if (pid == 0) {
        store_t *c = NULL;
        diag_t err;
        int64_t run;
        store_run_info_t info = {.protocol = "child"};
        int ok = store_open(dbpath, &c, &err) == 0 && store_run_begin(c, &info, &run, &err) == 0;
        if (ok) {
            put_states(c, run, 100000);
            store_run_end_t e = {.status = "done", .states = 100000};
            ok = store_run_end(c, run, &e, &err) == 0;
        }
        ok = (c ? store_close(c, &err) == 0 : 0) && ok;
        _exit(ok ? 0 : 1);
    }
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "parent");
    put_states(s, run, 100000);
    end(s, run, "done", 100000, 100000);
    int status = 0;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child failed");

    runs_seen_t rs = {0};
    diag_t err;
    cr_assert_eq(store_list_runs(s, collect_run, &rs, &err), 0, "%s", err.msg);
    cr_assert_eq(rs.n, 2);
    for (int i = 0; i < 2; i++) {
        cr_expect_str_eq(rs.statuses[i], "done");
        expect_states(s, rs.ids[i], 100000);
    }
    close_ok(s);
}

/* Another connection holding the write lock delays the writer; it does not fail. */
Test(store, waits_for_lock)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP");
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    put_states(s, run, 1000);
    usleep(300 * 1000);
    cr_assert_eq(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    end(s, run, "done", 1000, 1000);
    expect_states(s, run, 1000);
    close_ok(s);
}

/* A failed batch is reported by run_end, which leaves the run 'running'. */
Test(store, writer_error_reported)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP");
    put_states(s, run, 10);
    diag_t err;
    cr_assert_eq(store_flush(s, &err), 0, "%s", err.msg);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "DROP TABLE states", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    put_states(s, run, 10);
    store_run_end_t e = {.status = "done", .states = 10};
    cr_expect_eq(store_run_end(s, run, &e, &err), -1);
    cr_expect(strstr(err.msg, "no such table: states"), "%s", err.msg);
    cr_expect_str_eq(err.file, dbpath);
    store_run_t r;
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_str_eq(r.status, "running");
    store_run_free(&r);
    /* Reported once: the error does not stick to later calls. */
    cr_expect_eq(store_close(s, &err), 0, "%s", err.msg);
}

/* A schema-1 database (one row per state) is converted to blocks on open. */
Test(store, converts_schema_1)
{
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db,
                              "PRAGMA journal_mode=WAL;"
                              "CREATE TABLE runs (id INTEGER PRIMARY KEY,"
                              "  started TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,"
                              "  command TEXT, protocol TEXT, proto_file TEXT, proto_src BLOB,"
                              "  proto_hash INTEGER, test TEXT, test_file TEXT, test_src BLOB,"
                              "  test_hash INTEGER, model TEXT, config TEXT,"
                              "  status TEXT NOT NULL DEFAULT 'running',"
                              "  states INTEGER NOT NULL DEFAULT 0,"
                              "  transitions INTEGER NOT NULL DEFAULT 0,"
                              "  expanded INTEGER NOT NULL DEFAULT 0,"
                              "  max_depth INTEGER NOT NULL DEFAULT 0, verdict TEXT, message TEXT,"
                              "  trace TEXT, seconds REAL NOT NULL DEFAULT 0);"
                              "CREATE TABLE states (run INTEGER NOT NULL, id INTEGER NOT NULL,"
                              "  parent INTEGER NOT NULL, depth INTEGER NOT NULL, label BLOB,"
                              "  fp INTEGER NOT NULL, enc BLOB, PRIMARY KEY (run, id))"
                              "  WITHOUT ROWID;"
                              "CREATE INDEX states_fp ON states(run, fp);"
                              "CREATE TABLE outcomes (run INTEGER NOT NULL, outcome TEXT NOT NULL,"
                              "  allowed INTEGER NOT NULL, PRIMARY KEY (run, outcome));"
                              "INSERT INTO runs(protocol, status) VALUES ('old', 'done');"
                              "PRAGMA user_version=1;",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    sqlite3_stmt *st;
    cr_assert_eq(
        sqlite3_prepare_v2(db, "INSERT INTO states VALUES (1, ?, ?, ?, ?, ?, ?)", -1, &st, NULL),
        SQLITE_OK);
    for (int i = 0; i < 5000; i++) {
        unsigned char enc[40];
        char label[8];
        fill_enc(enc, i);
        int ll = snprintf(label, sizeof label, "t%d", i % 7);
        sqlite3_bind_int(st, 1, i);
        sqlite3_bind_int(st, 2, i - 1);
        sqlite3_bind_int(st, 3, i % 50);
        sqlite3_bind_blob(st, 4, label, ll, SQLITE_TRANSIENT);
        sqlite3_bind_int64(st, 5, (int64_t)fp_of(i));
        sqlite3_bind_blob(st, 6, enc, sizeof enc, SQLITE_TRANSIENT);
        cr_assert_eq(sqlite3_step(st), SQLITE_DONE);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);

    store_t *s = open_ok(dbpath);
    expect_states(s, 1, 5000);
    uint64_t n = 0;
    diag_t err;
    cr_assert_eq(store_count_states(s, 1, &n, &err), 0, "%s", err.msg);
    cr_expect_eq(n, 5000);
    int64_t id = -1;
    cr_expect_eq(store_find_state(s, 1, fp_of(4321), &id, &err), 0);
    cr_expect_eq(id, 4321);
    store_run_t r;
    cr_assert_eq(store_get_run(s, 1, &r, &err), 0, "%s", err.msg);
    cr_expect_str_eq(r.protocol, "old");
    cr_expect_eq(r.failure, -1);
    store_run_free(&r);
    close_ok(s);
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
    cr_assert_eq(sqlite3_step(st), SQLITE_ROW);
    cr_expect_eq(sqlite3_column_int(st, 0), 5);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* A version 2 database (no runs.failure) is converted in place: its runs read
 * back with no failure recorded, and new runs record theirs. */
Test(store, converts_schema_2)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP");
    end(s, run, "done", 10, 10);
    close_ok(s);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db,
                              "ALTER TABLE runs DROP COLUMN failure; ALTER TABLE runs DROP COLUMN "
                              "pid; ALTER TABLE runs DROP COLUMN host; ALTER TABLE runs DROP "
                              "COLUMN pstart; ALTER TABLE runs DROP COLUMN lasso; PRAGMA "
                              "user_version=2;",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    sqlite3_close(db);
    s = open_ok(dbpath);
    store_run_t r;
    diag_t err;
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_eq(r.states, 10);
    cr_expect_eq(r.failure, -1);
    store_run_free(&r);
    store_run_end_t e = {.status = "done", .has_failure = true, .failure = 7};
    cr_assert_eq(store_run_end(s, run, &e, &err), 0, "%s", err.msg);
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_eq(r.failure, 7);
    store_run_free(&r);
    close_ok(s);
}

/* A run records its process: 'running' while it lives, "interrupted" once it is
 * gone (another start time under the same pid), "running?" when nothing was
 * recorded (a version 3 database, converted in place). */
Test(store, running_or_interrupted)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP");
    store_run_t r;
    diag_t err;
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_eq(r.pid, (int64_t)getpid());
    cr_expect_str_eq(store_run_state(&r), "running");
    store_run_free(&r);
    cr_expect_eq(store_run_claim(s, run, &err), -1, "a live run cannot be taken over");
    cr_expect(strstr(err.msg, "still running"), "%s", err.msg);
    close_ok(s);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "UPDATE runs SET pstart = 'another-boot/1'", NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    s = open_ok(dbpath);
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_str_eq(store_run_state(&r), "interrupted");
    store_run_free(&r);
    cr_expect_eq(store_run_claim(s, run, &err), 0, "%s", err.msg);
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_str_eq(store_run_state(&r), "running");
    store_run_free(&r);
    close_ok(s);
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db,
                              "ALTER TABLE runs DROP COLUMN pid; ALTER TABLE runs DROP COLUMN "
                              "host; ALTER TABLE runs DROP COLUMN pstart; ALTER TABLE runs DROP "
                              "COLUMN lasso; PRAGMA user_version=3;",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    sqlite3_close(db);
    s = open_ok(dbpath);
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_eq(r.pid, -1);
    cr_expect_str_eq(store_run_state(&r), "running?");
    store_run_free(&r);
    close_ok(s);
}

/* A version 4 database (no runs.lasso) is converted in place; a --liveness run's
 * cycle is then recorded and read back. */
Test(store, converts_schema_4_lasso)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP");
    end(s, run, "done", 10, 10);
    close_ok(s);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "ALTER TABLE runs DROP COLUMN lasso; PRAGMA user_version=4;",
                              NULL, NULL, NULL),
                 SQLITE_OK, "%s", sqlite3_errmsg(db));
    sqlite3_close(db);
    s = open_ok(dbpath);
    store_run_t r;
    diag_t err;
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_null(r.lasso);
    store_run_free(&r);
    store_run_end_t e = {.status = "done", .has_failure = true, .failure = 4, .lasso = "4,6,9"};
    cr_assert_eq(store_run_end(s, run, &e, &err), 0, "%s", err.msg);
    cr_assert_eq(store_get_run(s, run, &r, &err), 0, "%s", err.msg);
    cr_expect_eq(r.failure, 4);
    cr_expect_str_eq(r.lasso, "4,6,9");
    store_run_free(&r);
    close_ok(s);
}

/* A damaged block of states is an error, never a crash. */
Test(store, damaged_block_reported)
{
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "MP");
    put_states(s, run, 100);
    end(s, run, "done", 100, 100);
    close_ok(s);
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "UPDATE states SET data = substr(data, 1, length(data) - 30)",
                              NULL, NULL, NULL),
                 SQLITE_OK);
    sqlite3_close(db);
    s = open_ok(dbpath);
    states_seen_t ss = {0, -1, true, true};
    diag_t err;
    cr_expect_eq(store_states(s, run, check_state, &ss, &err), -1);
    cr_expect(strstr(err.msg, "damaged"), "%s", err.msg);
    store_state_t st;
    cr_expect_eq(store_get_state(s, run, 99, &st, &err), -1);
    close_ok(s);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

Test(store, refuses_non_sqlite_file)
{
    write_file(dbpath, "this is not a database, it is a text file long enough to have a "
                       "header of one hundred bytes that SQLite would read..................\n");
    store_t *s = NULL;
    diag_t err;
    char msg[1200];
    cr_assert_eq(store_open(dbpath, &s, &err), -1);
    cr_expect_null(s);
    diag_format(&err, msg, sizeof msg);
    cr_expect(strstr(msg, dbpath) && strstr(msg, "file is not a database"), "%s", msg);
}

Test(store, refuses_newer_schema)
{
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "PRAGMA user_version=99", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    store_t *s = NULL;
    diag_t err;
    cr_assert_eq(store_open(dbpath, &s, &err), -1);
    cr_expect(strstr(err.msg, "schema version 99 is newer"), "%s", err.msg);
}

Test(store, refuses_foreign_database)
{
    sqlite3 *db;
    cr_assert_eq(sqlite3_open(dbpath, &db), SQLITE_OK);
    cr_assert_eq(sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    store_t *s = NULL;
    diag_t err;
    cr_assert_eq(store_open(dbpath, &s, &err), -1);
    cr_expect(strstr(err.msg, "not a cohcheck database"), "%s", err.msg);
}

Test(store, refuses_unopenable_path)
{
    store_t *s = NULL;
    diag_t err;
    cr_assert_eq(store_open(tmpdir, &s, &err), -1); /* a directory */
    cr_expect(strstr(err.msg, "cannot open the database"), "%s", err.msg);
}

Test(store, refuses_read_only_file)
{
    store_t *s = open_ok(dbpath);
    close_ok(s);
    chmod(dbpath, 0444);
    if (access(dbpath, W_OK) == 0) {
        tmp_teardown(); /* a skipped test does not run .fini */
        cr_skip_test("running as a user who can write read-only files");
    }
    diag_t err;
    cr_assert_eq(store_open(dbpath, &s, &err), -1);
    cr_expect(strstr(err.msg, "read-only"), "%s", err.msg);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Not an assertion: how fast states are queued (the explorer's cost; the
 * first 200k rows fit in the queue, so no back-pressure) and committed (the
 * writer's pace, which bounds the explorer's once the queue is full).
 * COHCHECK_STORE_BENCH_ROWS=N runs it with N rows (make bench uses 1e6); unset or 0 skips. */
Test(store, bench_1m_states)
{
    const char *env = getenv("COHCHECK_STORE_BENCH_ROWS");
    const int64_t n = env ? atoll(env) : 0; /* opt-in: make bench sets it */
    const int64_t free_rows = n < 200000 ? n / 2 : 200000;
    if (free_rows <= 0) {
        tmp_teardown(); /* a skipped test does not run .fini */
        cr_skip_test("COHCHECK_STORE_BENCH_ROWS=%s", env);
    }
    store_t *s = open_ok(dbpath);
    int64_t run = begin(s, "bench");
    unsigned char enc[40];
    memset(enc, 0xab, sizeof enc);
    double t0 = now_s(), tq = t0;
    for (int64_t i = 0; i < n; i++) {
        if (i == free_rows)
            tq = now_s();
        memcpy(enc, &i, sizeof i);
        store_state(s, run, i, i / 3, (int)(i / 1000), "t1", 2, fp_of(i), enc, sizeof enc);
    }
    double t1 = now_s();
    diag_t err;
    cr_assert_eq(store_flush(s, &err), 0, "%s", err.msg);
    double t2 = now_s();
    close_ok(s);
    fprintf(stderr,
            "store bench: %lld states of 40 bytes: store_state %.0f ns/row (%.0f rows/s) "
            "before back-pressure; all queued in %.2f s, committed in %.2f s: %.0f rows/s "
            "end to end\n",
            (long long)n, (tq - t0) / (double)free_rows * 1e9, (double)free_rows / (tq - t0),
            t1 - t0, t2 - t0, (double)n / (t2 - t0));
}
