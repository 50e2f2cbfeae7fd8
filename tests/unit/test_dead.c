/* test_dead.c - unit tests for sys_set_dead (checker/sys/sys.c, docs/por.md
 * "Values no step reads"): a plain breadth-first search over sys_successors, with
 * and without the reset, reaches the same terminal outcomes and no more states;
 * and where the L1's data is never read (all loads at the L2) it reaches fewer. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/base/util.h"
#include "../../checker/exec/exec.h"
#include "../../checker/prog/prog.h"
#include "../../checker/proto/proto.h"
#include "../../checker/sys/sys.h"

#define SET_BITS 20

typedef struct {
    /* the visited set: 64-bit hashes of encodings, open addressing */
    uint64_t *set;
    /* the queue: every state found, in order */
    uint8_t **st;
    size_t *len;
    size_t n, cap;
    /* terminal outcomes, as hashes of their values (sorted, unique at the end) */
    uint64_t *outs;
    size_t nouts, outcap;
} bfs_t;

static uint64_t hash(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h ? h : 1;
}

static void found(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    (void)lab;
    bfs_t *b = ctx;
    uint64_t h = hash(st, len), mask = ((uint64_t)1 << SET_BITS) - 1;
    for (uint64_t i = h & mask;; i = (i + 1) & mask) {
        if (b->set[i] == h)
            return;
        if (!b->set[i]) {
            b->set[i] = h;
            break;
        }
    }
    cr_assert_lt(b->n, (size_t)1 << (SET_BITS - 1), "the test graph outgrew the set");
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 1024;
        b->st = xrealloc(b->st, b->cap * sizeof *b->st);
        b->len = xrealloc(b->len, b->cap * sizeof *b->len);
    }
    b->st[b->n] = xmalloc(len);
    memcpy(b->st[b->n], st, len);
    b->len[b->n++] = len;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Explore PROTO x TEST (cold, --env fetch) fully, with the reset ON or not. */
static void bfs(const char *proto, const char *test, bool on, bfs_t *b)
{
    diag_t d;
    proto_t *p;
    prog_t *g;
    sys_t *s;
    cr_assert_eq(proto_load(proto, &p, &d), 0, "%s", d.msg);
    cr_assert_eq(prog_load(test, &g, &d), 0, "%s", d.msg);
    sys_config_t cfg = {.chan_capacity = 8, .env = SYS_ENV_FETCH};
    cr_assert_eq(sys_new(p, g, &cfg, &s, &d), 0, "%s", d.msg);
    sys_set_dead(s, on);
    exec_layout_t lay;
    exec_layout_init(&lay, g);
    int nkeys = lay.nkeys;
    exec_layout_free(&lay);
    memset(b, 0, sizeof *b);
    b->set = xcalloc((size_t)1 << SET_BITS, sizeof(uint64_t));
    sys_error_t e;
    cr_assert_gt(sys_initial(s, found, b, &e), 0);
    prog_val_t *v = xcalloc((size_t)nkeys + 1, sizeof *v);
    for (size_t i = 0; i < b->n; i++) {
        cr_assert_geq(sys_successors(s, b->st[i], b->len[i], found, b, &e), 0, "%s", e.msg);
        if (!sys_terminal(s, b->st[i], b->len[i]))
            continue;
        sys_outcome(s, b->st[i], b->len[i], v);
        if (b->nouts == b->outcap) {
            b->outcap = b->outcap ? b->outcap * 2 : 64;
            b->outs = xrealloc(b->outs, b->outcap * sizeof *b->outs);
        }
        b->outs[b->nouts++] = hash(v, sizeof *v * (size_t)nkeys);
    }
    qsort(b->outs, b->nouts, sizeof *b->outs, cmp_u64);
    size_t k = 0;
    for (size_t i = 0; i < b->nouts; i++)
        if (!k || b->outs[k - 1] != b->outs[i])
            b->outs[k++] = b->outs[i];
    b->nouts = k;
    free(v);
    sys_free(s);
    prog_free(g);
    proto_free(p);
}

static void bfs_free(bfs_t *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->st[i]);
    free(b->st);
    free(b->len);
    free(b->set);
    free(b->outs);
}

/* Same outcomes with and without the reset; *OFF and *ON: the state counts. */
static void compare(const char *proto, const char *test, size_t *off, size_t *on)
{
    bfs_t a, b;
    bfs(proto, test, false, &a);
    bfs(proto, test, true, &b);
    cr_assert_gt(a.nouts, 0);
    cr_assert_eq(a.nouts, b.nouts, "%s %s: %zu outcomes without the reset, %zu with", proto, test,
                 a.nouts, b.nouts);
    cr_assert_eq(memcmp(a.outs, b.outs, a.nouts * sizeof *a.outs), 0, "%s %s: other outcomes",
                 proto, test);
    *off = a.n;
    *on = b.n;
    bfs_free(&a);
    bfs_free(&b);
}

Test(dead, sc_loads_read_no_l1_data)
{
    /* gpu-wt: ld.sc is performed at the L2, so fetched L1 data is never read */
    size_t off, on;
    compare("protocols/gpu-wt.proto", "litmus/core/MP+sc.litmus", &off, &on);
    cr_assert_eq(off, 97146); /* check --no-por --env fetch: the full graph */
    cr_assert_lt(on, off);
}

Test(dead, plain_loads_keep_their_lines)
{
    /* plain loads hit in the L1: the loaded lines' data stays until the load */
    size_t off, on;
    compare("protocols/gpu-wt.proto", "litmus/core/MP.litmus", &off, &on);
    cr_assert_eq(off, 10483);
    cr_assert_leq(on, off);
    compare("protocols/gpu-wt.proto", "litmus/core/MP+rel+acq+guard.litmus", &off, &on);
    cr_assert_leq(on, off);
    compare("protocols/nol1.proto", "litmus/core/SB.litmus", &off, &on);
    cr_assert_leq(on, off);
}

Test(dead, writeback_data_stays)
{
    /* hlrc's L1 holds dirty data that its rows send back to the L2: read by message
       rows, so never reset; the outcomes are the same */
    size_t off, on;
    compare("protocols/hlrc.proto", "litmus/core/MP.litmus", &off, &on);
    cr_assert_leq(on, off);
}
