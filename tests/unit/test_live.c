/* test_live.c - the liveness analysis (checker/explore/explore_live.c) on hand-built
 * graphs: which states are stuck, the lasso's cycle, environment-only livelocks, and
 * starvation under weak and strong fairness. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "../../checker/explore/explore_int.h"

/* Groups as the explorer keys them: a thread's core steps are its number. */
#define T0 0ull
#define T1 1ull
#define CH(c) (1ull << 56 | (c))
#define NOGROUP UINT64_MAX

static live_t *graph(int n)
{
    live_t *l = live_new(false);
    for (int i = 0; i < n; i++)
        cr_assert_eq(live_add_state(l, (uint32_t)i, 1000u + (uint64_t)i * 7919u, 0), 0);
    return l;
}

static void edge(live_t *l, uint32_t a, uint32_t b, uint8_t flag, uint64_t grp)
{
    static uint32_t ord;
    cr_assert_eq(live_add_edge(l, a, b, ord++ % 3, flag, grp), 0);
}

/* 0 -> 1 -> 2 (terminal); 0 -> 3 <-> 4: states 3 and 4 can never finish. */
Test(live, stuck_cycle)
{
    live_t *l = graph(5);
    edge(l, 0, 1, 0, T0);
    edge(l, 1, 2, 0, T0);
    edge(l, 0, 3, 0, T1);
    edge(l, 3, 4, 0, T1);
    edge(l, 4, 3, 0, T1);
    live_set_terminal(l, 2);
    cr_expect_eq(live_find(l, 1000u + 3 * 7919u, 0), 3);
    cr_expect_eq(live_find(l, 5, 0), -1);
    live_report_t r;
    cr_assert_eq(live_analyse(l, &r), 1);
    cr_expect_eq(r.stuck, 2);
    cr_expect_eq(r.hard, 2);
    cr_expect(!r.env_only);
    cr_expect_eq(r.entry, 3);
    cr_expect_eq(r.ncycle, 2);
    cr_expect_eq(r.cycle_ids[0], 3);
    cr_expect_eq(r.cycle_ids[1], 4);
    live_report_free(&r);
    live_free(l);
}

/* Every state reaches the terminal one: no livelock. */
Test(live, all_finish)
{
    live_t *l = graph(3);
    edge(l, 0, 1, 0, T0);
    edge(l, 1, 0, 0, T1);
    edge(l, 1, 2, 0, T0);
    live_set_terminal(l, 2);
    live_report_t r;
    cr_expect_eq(live_analyse(l, &r), 0);
    cr_expect_eq(r.stuck, 0);
    live_report_free(&r);
    live_free(l);
}

/* A self-loop only an environment event (flag 1) leaves: an environment-only livelock. */
Test(live, env_only)
{
    live_t *l = graph(3);
    edge(l, 0, 1, 0, T0);
    edge(l, 1, 1, 0, T0);      /* a spin */
    edge(l, 1, 2, 1, NOGROUP); /* an eviction ends it */
    live_set_terminal(l, 2);
    live_report_t r;
    cr_assert_eq(live_analyse(l, &r), 1);
    cr_expect(r.env_only);
    cr_expect_eq(r.stuck, 2); /* 0 too: it only leads to 1 */
    cr_expect_eq(r.hard, 0);
    cr_expect_eq(r.entry, 1);
    cr_expect_eq(r.ncycle, 1);
    cr_expect_eq(r.breaks[1], 1);
    live_report_free(&r);
    live_free(l);
}

/* Thread 1 spins (1 <-> 2) while thread 0's request sits in channel 5, enabled in state 1
 * only: weakly fair (not enabled everywhere), strongly unfair. Thread 0 can always finish
 * (AG EF holds) but starves under weak fairness. */
static live_t *spin_graph(void)
{
    live_t *l = graph(4);
    edge(l, 0, 1, 0, T0);    /* P0 sends its request */
    edge(l, 1, 2, 0, T1);    /* P1 renews a lease */
    edge(l, 2, 1, 0, CH(7)); /* ... the lease runs out */
    edge(l, 1, 3, 0, CH(5)); /* the request served: P0 done, then the end */
    live_set_terminal(l, 3);
    live_set_done(l, 3, 3);
    return l;
}

Test(live, starvation_weak_not_strong)
{
    live_t *l = spin_graph();
    live_report_t r;
    cr_expect_eq(live_analyse(l, &r), 0);
    live_report_free(&r);
    uint64_t keys[2] = {T0, T1};
    cr_assert_eq(live_analyse_fair(l, 2, keys, false, &r), 1);
    cr_expect_eq(r.thread, 0);
    cr_expect_eq(r.entry, 1);
    cr_expect_eq(r.ncycle, 2);
    live_report_free(&r);
    cr_expect_eq(live_analyse_fair(l, 2, keys, true, &r), 0);
    live_report_free(&r);
    live_free(l);
}

/* If the renewal keeps the request disabled in every state of the cycle, strong fairness
 * starves it too; and a cycle made only of environment events starves nobody. */
Test(live, starvation_strong_and_env)
{
    live_t *l = graph(4);
    edge(l, 0, 1, 0, T0);
    edge(l, 1, 2, 0, T1);
    edge(l, 2, 1, 0, CH(7));
    edge(l, 0, 3, 0, T0);
    live_set_terminal(l, 3);
    live_set_done(l, 3, 3);
    edge(l, 1, 3, 1, NOGROUP); /* an environment way out: not a progress step */
    uint64_t keys[2] = {T0, T1};
    live_report_t r;
    cr_assert_eq(live_analyse_fair(l, 2, keys, true, &r), 1);
    cr_expect_eq(r.thread, 0);
    live_report_free(&r);
    live_free(l);
    l = graph(3);
    edge(l, 0, 1, 1, NOGROUP);
    edge(l, 1, 0, 1, NOGROUP);
    edge(l, 0, 2, 0, T0);
    live_set_terminal(l, 2);
    live_set_done(l, 2, 1);
    cr_expect_eq(live_analyse_fair(l, 1, keys, false, &r), 0);
    live_report_free(&r);
    live_free(l);
}
