/* test_dram.c - unit tests for timed mode's DRAM model (checker/sim/dram.c): the
 * address mapping, row hit/miss/conflict latencies, FR-FCFS choosing a younger row
 * hit over an older conflict, the shared data bus, and the queue capacity. Every
 * cycle below is worked out by hand from docs/sim.md "DRAM". */
#include <criterion/criterion.h>
#include <string.h>

#include "../../checker/sim/dram.h"

/* 2 channels x 2 banks, 256-byte rows of 64-byte lines (4 lines a row), a 2-request
 * queue, 16 bytes/cycle (a line in 4 cycles), hit 10, miss 20, conflict 30, fixed 100. */
static const sim_dram_t cfg = {2, 2, 256, 2, 16, 10, 20, 30, 100};

typedef struct {
    int n;
    int line[16];
    uint64_t done[16];
} got_t;

static void collect(void *ctx, dram_tag_t tag, uint64_t done)
{
    got_t *g = ctx;
    g->line[g->n] = tag.line;
    g->done[g->n++] = done;
}

static uint64_t req(dram_t *d, uint64_t now, int line, int want_ch)
{
    int ch = -1;
    uint64_t t = dram_request(d, now, line, (dram_tag_t){0, line, 0}, &ch);
    cr_assert_eq(ch, want_ch, "line %d on channel %d", line, ch);
    return t;
}

Test(dram, mapping)
{
    dram_t *d = dram_new(&cfg, 64);
    int c, b, r;
    /* channel = line mod 2; in a channel, 4 lines fill a row, then the next bank */
    int want[][4] = {{0, 0, 0, 0},  {1, 1, 0, 0},  {2, 0, 0, 0}, {8, 0, 1, 0},
                     {16, 0, 0, 1}, {17, 1, 0, 1}, {25, 1, 1, 1}};
    for (size_t k = 0; k < sizeof want / sizeof want[0]; k++) {
        dram_map(d, want[k][0], &c, &b, &r);
        cr_assert(c == want[k][1] && b == want[k][2] && r == want[k][3],
                  "line %d: channel %d bank %d row %d", want[k][0], c, b, r);
    }
    dram_free(d);
}

Test(dram, hit_miss_conflict)
{
    dram_t *d = dram_new(&cfg, 64);
    got_t g = {0};
    /* closed bank: miss 20, bus 4, fixed 100 */
    cr_assert_eq(req(d, 0, 0, 0), 0);
    cr_assert_eq(dram_schedule(d, 0, 0, collect, &g), DRAM_NEVER);
    /* the open row: hit 10 */
    cr_assert_eq(req(d, 200, 2, 0), 200);
    cr_assert_eq(dram_schedule(d, 0, 200, collect, &g), DRAM_NEVER);
    /* another row of the bank: conflict 30 */
    cr_assert_eq(req(d, 400, 16, 0), 400);
    cr_assert_eq(dram_schedule(d, 0, 400, collect, &g), DRAM_NEVER);
    cr_assert_eq(g.n, 3);
    cr_assert_eq(g.done[0], 124);
    cr_assert_eq(g.done[1], 314);
    cr_assert_eq(g.done[2], 534);
    sim_dram_stats_t st;
    dram_stats(d, 1000, &st);
    cr_assert(st.on && st.requests == 3 && st.row_hits == 1 && st.row_misses == 1 &&
              st.row_conflicts == 1);
    cr_assert_eq(st.bytes, 192);
    cr_assert_float_eq(st.bandwidth, 0.192, 1e-9);
    cr_assert_float_eq(st.peak_bandwidth, 32.0, 1e-9);
    cr_assert_float_eq(st.latency_mean, (124.0 + 114 + 134) / 3, 1e-9);
    cr_assert_eq(st.latency_max, 134);
    dram_free(d);
}

Test(dram, fr_fcfs_row_hit_first)
{
    dram_t *d = dram_new(&cfg, 64);
    got_t g = {0};
    cr_assert_eq(req(d, 0, 0, 0), 0); /* A: bank 0 row 0, a miss; the bank is busy to 14 */
    cr_assert_eq(dram_schedule(d, 0, 0, collect, &g), DRAM_NEVER);
    cr_assert_eq(req(d, 1, 16, 0), 1); /* B: bank 0 row 1, older */
    cr_assert_eq(dram_schedule(d, 0, 1, collect, &g), 14);
    cr_assert_eq(req(d, 2, 2, 0), 2); /* C: bank 0 row 0, younger, a row hit */
    cr_assert_eq(dram_schedule(d, 0, 2, collect, &g), 14);
    cr_assert_eq(dram_schedule(d, 0, 3, collect, &g), DRAM_NEVER); /* stale */
    /* at 14 the row hit C goes first (data at max(24, bus 24), done 128); the bank
       takes B at 14 + 4 = 18: conflict, data 48, done 152 */
    cr_assert_eq(dram_schedule(d, 0, 14, collect, &g), 18);
    cr_assert_eq(dram_schedule(d, 0, 18, collect, &g), DRAM_NEVER);
    cr_assert_eq(g.n, 3);
    int lines[] = {0, 2, 16};
    uint64_t done[] = {124, 128, 152};
    for (int k = 0; k < 3; k++)
        cr_assert(g.line[k] == lines[k] && g.done[k] == done[k], "issue %d: line %d done %llu", k,
                  g.line[k], (unsigned long long)g.done[k]);
    dram_free(d);
}

Test(dram, shared_bus)
{
    dram_t *d = dram_new(&cfg, 64);
    got_t g = {0};
    /* two misses on two banks of one channel, both issued at 0: the second line's data
       waits for the bus (20 -> 24) */
    cr_assert_eq(req(d, 0, 0, 0), 0);
    cr_assert_eq(req(d, 0, 8, 0), DRAM_NEVER); /* a run at 0 is already due */
    cr_assert_eq(dram_schedule(d, 0, 0, collect, &g), DRAM_NEVER);
    cr_assert(g.n == 2 && g.done[0] == 124 && g.done[1] == 128);
    /* the other channel is independent */
    cr_assert_eq(req(d, 0, 1, 1), 0);
    cr_assert_eq(dram_schedule(d, 1, 0, collect, &g), DRAM_NEVER);
    cr_assert(g.n == 3 && g.done[2] == 124);
    dram_free(d);
}

Test(dram, queue_capacity)
{
    dram_t *d = dram_new(&cfg, 64);
    got_t g = {0};
    /* four requests to one row at 0; the queue holds 2: two wait outside it */
    cr_assert_eq(req(d, 0, 0, 0), 0);
    cr_assert_eq(req(d, 0, 2, 0), DRAM_NEVER);
    cr_assert_eq(req(d, 0, 4, 0), DRAM_NEVER);
    cr_assert_eq(req(d, 0, 6, 0), DRAM_NEVER);
    /* 0: line 0 misses (data 20, bank ready 14), line 4 enters the queue */
    cr_assert_eq(dram_schedule(d, 0, 0, collect, &g), 14);
    /* 14: line 2 hits (data 24), line 6 enters after 14 cycles outside */
    cr_assert_eq(dram_schedule(d, 0, 14, collect, &g), 18);
    cr_assert_eq(dram_schedule(d, 0, 18, collect, &g), 22);
    cr_assert_eq(dram_schedule(d, 0, 22, collect, &g), DRAM_NEVER);
    int lines[] = {0, 2, 4, 6};
    uint64_t done[] = {124, 128, 132, 136};
    cr_assert_eq(g.n, 4);
    for (int k = 0; k < 4; k++)
        cr_assert(g.line[k] == lines[k] && g.done[k] == done[k], "issue %d: line %d done %llu", k,
                  g.line[k], (unsigned long long)g.done[k]);
    sim_dram_stats_t st;
    dram_stats(d, 100, &st);
    cr_assert_eq(st.queue_full, 2);
    cr_assert_eq(st.queue_full_cycles, 14);
    cr_assert_eq(st.occupancy_max, 2);
    /* channel 0 held 2 over [0,18), 1 over [18,22); channel 1 nothing: (36 + 4) / 200 */
    cr_assert_float_eq(st.occupancy_mean, 0.2, 1e-9);
    cr_assert(st.row_hits == 3 && st.row_misses == 1 && st.row_conflicts == 0);
    dram_free(d);
}

/* ---- the machine file's 'dram' line and 'event NAME dram' ---- */

static int parse(const char *src, sim_machine_t *m, diag_t *d)
{
    return sim_machine_parse("m.machine", src, strlen(src), m, d);
}

Test(dram, machine_line)
{
    sim_machine_t m;
    diag_t d;
    cr_assert_eq(parse("machine m\n"
                       "event memdata dram\n"
                       "event tick 100\n"
                       "dram channels 4 banks 8 row 1024 queue 16 bandwidth 4 hit 5 miss 10 "
                       "conflict 15 latency 50 # cited\n",
                       &m, &d),
                 0, "%s", d.msg);
    cr_assert(m.has_dram);
    sim_dram_t want = {4, 8, 1024, 16, 4, 5, 10, 15, 50};
    cr_assert_eq(memcmp(&m.dram, &want, sizeof want), 0);
    cr_assert(m.nevlat == 2 && m.evlat[0] == SIM_EVLAT_DRAM && m.evlat[1] == 100);
    /* defaults of a bare 'dram' line */
    cr_assert_eq(parse("machine m\ndram\n", &m, &d), 0, "%s", d.msg);
    sim_dram_t def = {1, 8, 2048, 32, 8, 12, 24, 36, 0};
    cr_assert_eq(memcmp(&m.dram, &def, sizeof def), 0);
    /* no dram line: no model */
    cr_assert_eq(parse("machine m\nevent memdata 460\n", &m, &d), 0, "%s", d.msg);
    cr_assert(!m.has_dram && m.evlat[0] == 460);
}

Test(dram, machine_errors)
{
    struct {
        const char *src;
        int line, col;
        const char *msg;
    } bad[] = {
        {"machine m\nevent memdata dram\n", 2, 15, "'event ... dram' needs a 'dram' line"},
        {"machine m\ndram channels 0\n", 2, 1, "dram: channels must be 1..4096"},
        {"machine m\ndram banks 2000\n", 2, 1, "dram: banks must be 1..1024"},
        {"machine m\ndram queue 0\n", 2, 1, "dram: queue must be 1..4096"},
        {"machine m\ndram bandwidth 0\n", 2, 1, "dram: bandwidth must be at least 1"},
        {"machine m\ndram row 0\n", 2, 1, "dram: row must be at least 1 byte"},
        {"machine m\ndram hit 30 miss 20\n", 2, 1,
         "dram: latencies must be hit <= miss <= conflict"},
        {"machine m\ndram bogus 1\n", 2, 6, "unknown setting 'bogus' of 'dram'"},
        {"machine m\ndram hit x\n", 2, 10, "expected a non-negative integer, got 'x'"},
        {"machine m\ndram hit\n", 2, 9, "'dram hit' needs a value"},
        {"machine m\ndram\n  dram\n", 3, 3, "a second 'dram' line"},
        {"machine m\nevent memdata drams\n", 2, 15, "expected a non-negative integer, got 'drams'"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        sim_machine_t m;
        diag_t d;
        cr_assert_eq(parse(bad[k].src, &m, &d), -1, "%s", bad[k].src);
        cr_assert(d.line == bad[k].line && d.col == bad[k].col && !strcmp(d.msg, bad[k].msg),
                  "%s: got %d:%d: %s", bad[k].src, d.line, d.col, d.msg);
    }
}
