/* test_explore_mem.c - unit tests for the explorer's memory options (checker/explore,
 * docs/memory.md): a BFS queue spilled to disk announces exactly the same states, in
 * the same order, with the same parents, positions and fingerprints, as an all-RAM
 * queue; a spill folder that cannot be used stops the search as incomplete; wider
 * fingerprints give the same counts, cost more bytes and a smaller omission bound;
 * a width other than 64, 96 or 128 is refused. Runs from the repository root. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "../../checker/base/util.h"
#include "../../checker/exec/exec.h"
#include "../../checker/explore/explore.h"
#include "../../checker/prog/prog.h"
#include "../../checker/proto/proto.h"
#include "../../checker/sys/sys.h"

typedef struct {
    proto_t *p;
    prog_t *g;
    sys_t *s;
    exec_layout_t lay;
} fixture_t;

/* gpu-wt on MP+rel+acq+guard with --env all: 146,446 states (tests/e2e/check.tab). */
static void setup(fixture_t *f)
{
    diag_t d;
    cr_assert_eq(proto_load("protocols/gpu-wt.proto", &f->p, &d), 0, "%s", d.msg);
    cr_assert_eq(prog_load("litmus/core/MP+rel+acq+guard.litmus", &f->g, &d), 0, "%s", d.msg);
    sys_config_t cfg = {.chan_capacity = 8, .env_all = true};
    cr_assert_eq(sys_new(f->p, f->g, &cfg, &f->s, &d), 0, "%s", d.msg);
    exec_layout_init(&f->lay, f->g);
}

static void teardown(fixture_t *f)
{
    exec_layout_free(&f->lay);
    sys_free(f->s);
    prog_free(f->g);
    proto_free(f->p);
}

/* A digest of every on_new call, in order. */
typedef struct {
    uint64_t h, n;
} seq_t;

static void on_new(void *ctx, uint32_t id, int64_t parent, int depth, const sys_label_t *label,
                   uint32_t ord, uint64_t fp, const uint8_t *state, size_t len)
{
    (void)label;
    (void)state;
    seq_t *q = ctx;
    uint64_t v[5] = {id, (uint64_t)parent, (uint64_t)depth, ord, fp ^ len};
    for (int i = 0; i < 5; i++)
        q->h = (q->h ^ v[i]) * 0x100000001b3ull;
    q->n++;
}

static void run(fixture_t *f, explore_opts_t *o, explore_result_t *r, seq_t *q)
{
    diag_t d;
    memset(q, 0, sizeof *q);
    o->on_new = on_new;
    o->on_new_ctx = q;
    cr_assert_eq(explore_run(f->s, f->lay.nkeys, o, r, &d), 0, "%s", d.msg);
}

Test(explore_mem, spilled_queue_same_states_same_order)
{
    fixture_t f;
    setup(&f);
    explore_opts_t o = {0};
    explore_result_t a, b;
    seq_t qa, qb;
    run(&f, &o, &a, &qa);
    o.queue_memory = 1; /* every chunk but the reader's and the writer's goes to disk */
    o.spill_dir = "/tmp";
    run(&f, &o, &b, &qb);
    cr_expect_eq(a.verdict, EXPLORE_OK);
    cr_expect_eq(a.states, 146446);
    cr_expect_eq(a.transitions, 619500);
    cr_expect_eq(a.spilled, 0);
    cr_expect_gt(b.spilled, 1000000, "spilled only %llu bytes", (unsigned long long)b.spilled);
    cr_expect_eq(b.verdict, a.verdict);
    cr_expect_eq(b.states, a.states);
    cr_expect_eq(b.transitions, a.transitions);
    cr_expect_eq(b.max_depth, a.max_depth);
    cr_expect_eq(b.reached.n, a.reached.n);
    cr_expect_eq(qa.n, a.states);
    cr_expect_eq(qb.n, qa.n);
    cr_expect_eq(qb.h, qa.h, "the spilled run announced other states or another order");
    explore_result_free(&a);
    explore_result_free(&b);
    teardown(&f);
}

Test(explore_mem, spill_folder_missing_is_incomplete)
{
    fixture_t f;
    setup(&f);
    explore_opts_t o = {.queue_memory = 1, .spill_dir = "/nonexistent/cohcheck-spill"};
    explore_result_t r;
    seq_t q;
    run(&f, &o, &r, &q);
    cr_expect_eq(r.verdict, EXPLORE_INCOMPLETE);
    cr_expect(strstr(r.msg, "cannot create a spill file in /nonexistent/cohcheck-spill") != NULL,
              "%s", r.msg);
    cr_expect_gt(r.states, 0);
    cr_expect_lt(r.states, 146446);
    cr_expect_eq(r.spilled, 0);
    explore_result_free(&r);
    teardown(&f);
}

Test(explore_mem, fingerprint_widths)
{
    fixture_t f;
    setup(&f);
    explore_result_t r[3];
    seq_t q[3];
    const int bits[3] = {64, 96, 128};
    for (int i = 0; i < 3; i++) {
        explore_opts_t o = {.fp_bits = bits[i]};
        run(&f, &o, &r[i], &q[i]);
        cr_expect_eq(r[i].fp_bits, bits[i]);
        cr_expect_eq(r[i].states, 146446);
        cr_expect_eq(r[i].transitions, 619500);
        cr_expect_eq(q[i].h, q[0].h); /* same states, same order, same first 64 bits */
        double n = 146446.0, want = n * (n - 1) / pow(2.0, bits[i] + 1);
        cr_expect(fabs(r[i].omission - want) <= want * 1e-12, "%g vs %g", r[i].omission, want);
        if (i)
            cr_expect_gt(r[i].bytes, r[i - 1].bytes);
    }
    for (int i = 0; i < 3; i++)
        explore_result_free(&r[i]);
    explore_opts_t o = {0};
    explore_result_t z;
    seq_t qz;
    run(&f, &o, &z, &qz);
    cr_expect_eq(z.fp_bits, 64); /* 0 means 64 */
    explore_result_free(&z);
    teardown(&f);
}

Test(explore_mem, bad_width_refused)
{
    fixture_t f;
    setup(&f);
    const int bad[] = {1, 32, 63, 65, 100, 256, -64};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        explore_opts_t o = {.fp_bits = bad[i]};
        explore_result_t r;
        diag_t d;
        cr_expect_eq(explore_run(f.s, f.lay.nkeys, &o, &r, &d), -1, "width %d accepted", bad[i]);
        cr_expect(strstr(d.msg, "64, 96 or 128") != NULL, "%s", d.msg);
    }
    teardown(&f);
}
