/* test_sim.c - unit tests for timed mode (checker/sim): the machine parser's
 * values and FILE:LINE:COL errors, a run whose cycles, events, messages and
 * bytes are worked out by hand from the model (docs/sim.md), capacity that
 * evicts through the protocol's evict row, and determinism. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/base/util.h"
#include "../../checker/prog/prog.h"
#include "../../checker/proto/proto.h"
#include "../../checker/sim/sim.h"

/* nol1: every access at the L2, the thread waits for each. */
static const char *nol1_src =
    "protocol n\n"
    "network req ordered\n"
    "network resp ordered\n"
    "message LOAD on req (tid: tid, loc: loc)\n"
    "message STORE on req (tid: tid, loc: loc, val: val)\n"
    "message VAL on resp (tid: tid, val: val)\n"
    "message ACK on resp (tid: tid)\n"
    "controller L1 per-cu {\n"
    "  stable I\n"
    "  I | load | | send LOAD(tid=req.tid, loc=req.loc) to L2; wait |\n"
    "  I | store | | send STORE(tid=req.tid, loc=req.loc, val=req.val) to L2; wait |\n"
    "  I | VAL | | done(msg.tid, msg.val) |\n"
    "  I | ACK | | done(msg.tid) |\n"
    "}\n"
    "controller L2 shared {\n"
    "  stable V\n"
    "  line data: data = initial\n"
    "  V | LOAD | | send VAL(tid=msg.tid, val=data[msg.loc]) to msg.src |\n"
    "  V | STORE | | data[msg.loc] := msg.val; send ACK(tid=msg.tid) to msg.src |\n"
    "}\n"
    "core L1 {\n  map ld.* -> load\n  map st.* -> store\n}\n";

/* A V/I cache with an evict row, for capacity. */
static const char *vi_src = "protocol c\n"
                            "network req ordered\n"
                            "network resp ordered\n"
                            "message GETS on req (tid: tid, loc: loc)\n"
                            "message DATA on resp (tid: tid, val: val, d: data)\n"
                            "controller L1 per-cu {\n"
                            "  stable I V\n"
                            "  transient IV\n"
                            "  line d: data = initial\n"
                            "  event evict line env\n"
                            "  V | load | | done(d[req.loc]) |\n"
                            "  I | load | | send GETS(tid=req.tid, loc=req.loc) to L2; wait | IV\n"
                            "  IV | load | | stall |\n"
                            "  IV | DATA | | d := msg.d; done(msg.tid, msg.val) | V\n"
                            "  V | evict | | d := d | I\n"
                            "}\n"
                            "controller L2 shared {\n"
                            "  stable V\n"
                            "  line data: data = initial\n"
                            "  V | GETS | | send DATA(tid=msg.tid, val=data[msg.loc], d=data) to "
                            "msg.src |\n"
                            "}\n"
                            "core L1 {\n  map ld.* -> load\n}\n";

static const char *mach_src = "machine m \"hand-checked\"\n"
                              "issue 1\n"
                              "alu 1\n"
                              "l1 latency 2\n"
                              "l2 latency 5 banks 1 occupancy 1 atomic 0\n"
                              "net latency 10 flit 8 bandwidth 1 header 8 field 4 # comment\n";

static void load(const char *psrc, const char *tsrc, const char *msrc, proto_t **p, prog_t **t,
                 sim_machine_t *m)
{
    diag_t d;
    cr_assert_eq(proto_parse("p.proto", psrc, strlen(psrc), p, &d), 0, "%s", d.msg);
    cr_assert_eq(prog_parse("t.litmus", tsrc, strlen(tsrc), t, &d), 0, "%s", d.msg);
    cr_assert_eq(sim_machine_parse("m.machine", msrc, strlen(msrc), m, &d), 0, "%s", d.msg);
}

Test(sim, machine_values)
{
    sim_machine_t m;
    diag_t d;
    cr_assert_eq(sim_machine_parse("m.machine", mach_src, strlen(mach_src), &m, &d), 0);
    cr_assert_str_eq(m.name, "m");
    cr_assert_str_eq(m.desc, "hand-checked");
    cr_assert_eq(m.l1_latency, 2);
    cr_assert_eq(m.l2_latency, 5);
    cr_assert_eq(m.net_latency, 10);
    cr_assert_eq(m.flit_bytes, 8);
    cr_assert_eq(m.l2_atomic, 0);
    cr_assert_eq(m.l1_sets, 0);
}

static void bad_machine(const char *src, int line, int col, const char *msg)
{
    sim_machine_t m;
    diag_t d;
    cr_assert_eq(sim_machine_parse("b.machine", src, strlen(src), &m, &d), -1, "%s", src);
    cr_assert_eq(d.line, line, "%s: line %d", src, d.line);
    cr_assert_eq(d.col, col, "%s: col %d", src, d.col);
    cr_assert(strstr(d.msg, msg), "%s: %s", src, d.msg);
}

Test(sim, machine_errors)
{
    bad_machine("machine m\nl1 latency\n", 2, 11, "needs a value");
    bad_machine("machine m\nl1 size 3\n", 2, 4, "unknown setting 'size'");
    bad_machine("machine m\nnet latency -3\n", 2, 13, "non-negative integer");
    bad_machine("machine m\ncus 4 5\n", 2, 7, "unexpected '5'");
    bad_machine("machine m\nfrob 1\n", 2, 1, "unknown directive");
    bad_machine("cus 4\n", 1, 1, "starts with 'machine NAME'");
    bad_machine("machine m \"open\n", 1, 11, "unterminated string");
    bad_machine("machine m\ncus 0\n", 2, 5, "cus must be 1..128");
    bad_machine("machine m\ncus 129\n", 2, 5, "cus must be 1..128");
    bad_machine("machine m \"d\" x\n", 1, 15, "unexpected 'x'");
    bad_machine("machine m\nsource \"a\" \"b\"\n", 2, 12, "unexpected 'b'");
    bad_machine("machine m\ncore lanes 0\n", 2, 1, "lanes 1..64");
    bad_machine("machine m\ncore scheduler fifo\n", 2, 1, "scheduler lrr, gto or oldest");
    bad_machine("machine m\ncore naive 2\n", 2, 1, "naive 0 or 1");
    bad_machine("machine m\ncore warps 4\n", 2, 6, "unknown setting 'warps'");
    bad_machine("machine m\nsbuf\n", 2, 5, "'sbuf' needs its entries per CU");
    bad_machine("machine m\nsbuf x\n", 2, 6, "non-negative integer");
    bad_machine("machine m\nsbuf 4097\n", 2, 6, "sbuf: entries must be 0..4096");
    bad_machine("machine m\nsbuf 4 coalesce 2\n", 2, 1, "sbuf: coalesce 0 or 1");
    bad_machine("machine m\nsbuf 4 lazy 2\n", 2, 1, "sbuf: lazy 0 or 1");
    bad_machine("machine m\nsbuf 4 merge 1\n", 2, 8, "unknown setting 'merge' of 'sbuf'");
    bad_machine("machine m\nsbuf 4 coalesce\n", 2, 16, "'sbuf coalesce' needs a value");
    bad_machine("machine m\nsbuf 4\nsbuf 2\n", 3, 1, "a second 'sbuf' line");
    bad_machine("machine m\nsbuf 4\ncore naive 1\n", 2, 1, "'core naive 1'");
    bad_machine("machine m\ncore naive 1\n  sbuf 1 coalesce 1\n", 3, 3, "'core naive 1'");
}

Test(sim, machine_sbuf)
{
    sim_machine_t m;
    diag_t d;
    cr_assert_eq(sim_machine_parse("m.machine", mach_src, strlen(mach_src), &m, &d), 0);
    cr_assert_eq(m.sbuf, 0); /* default: none */
    cr_assert_eq(m.sbuf_coalesce, 0);
    const char *src = "machine m\nsbuf 8 coalesce 1\ncore naive 0\n";
    cr_assert_eq(sim_machine_parse("m.machine", src, strlen(src), &m, &d), 0, "%s", d.msg);
    cr_assert_eq(m.sbuf, 8);
    cr_assert_eq(m.sbuf_coalesce, 1);
    cr_assert_eq(m.sbuf_lazy, 0); /* default: drain as soon as the hidden thread is idle */
    src = "machine m\nsbuf 8 lazy 1 coalesce 1\n";
    cr_assert_eq(sim_machine_parse("m.machine", src, strlen(src), &m, &d), 0, "%s", d.msg);
    cr_assert_eq(m.sbuf_lazy, 1);
    cr_assert_eq(m.sbuf_coalesce, 1);
    src = "machine m\nsbuf 0 # none\ncore naive 1\n";
    cr_assert_eq(sim_machine_parse("m.machine", src, strlen(src), &m, &d), 0, "%s", d.msg);
    cr_assert_eq(m.sbuf, 0);
}

Test(sim, machine_core)
{
    sim_machine_t m;
    diag_t d;
    cr_assert_eq(sim_machine_parse("m.machine", mach_src, strlen(mach_src), &m, &d), 0);
    cr_assert_eq(m.lanes, 32); /* defaults */
    cr_assert_eq(m.warp_width, 1);
    cr_assert_str_eq(m.sched, "lrr");
    cr_assert_eq(m.naive_sc, 0);
    const char *src = "machine m\ncore lanes 64 width 4 scheduler oldest naive 1\n";
    cr_assert_eq(sim_machine_parse("m.machine", src, strlen(src), &m, &d), 0, "%s", d.msg);
    cr_assert_eq(m.lanes, 64);
    cr_assert_eq(m.warp_width, 4);
    cr_assert_str_eq(m.sched, "oldest");
    cr_assert_eq(m.naive_sc, 1);
}

/* Two lanes of one warp load x (nol1, the machine of hand_checked_run): the second lane's
 * load is coalesced into the first's, so one LOAD and one VAL. The lanes issue at 1; LOAD
 * leaves at 3, arrives 15; VAL leaves at 20, arrives 32; done at 34 for both lanes. With
 * `core lanes 1` each thread is its own core: two LOADs. */
Test(sim, warp_coalesces_a_load)
{
    const char *tsrc = "GPU w\n{ x = 7; }\nthreads T[2] @wg0:cu0 simt {\n ld r0 x ;\n}\n"
                       "forall (0:r0 = 7 /\\ 1:r0 = 7)\n";
    for (int lanes = 1; lanes <= 2; lanes++) {
        char msrc[512];
        snprintf(msrc, sizeof msrc, "%score lanes %d\n", mach_src, lanes);
        proto_t *p;
        prog_t *t;
        sim_machine_t m;
        load(nol1_src, tsrc, msrc, &p, &t, &m);
        sim_config_t cfg = {.seed = 1};
        sim_result_t r;
        diag_t d;
        cr_assert_eq(sim_run(p, t, &m, &cfg, &r, &d), 0, "%s", d.msg);
        cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
        cr_assert(r.correct);
        cr_assert_eq(r.warps, lanes == 2);
        cr_assert_eq(r.coalesced, lanes == 2);
        cr_assert_eq(r.messages[0], lanes == 2 ? 1 : 2, "lanes %d", lanes); /* LOAD */
        if (lanes == 2) {
            cr_assert_eq(r.cycles, 34);
            cr_assert_eq(r.line_requests, 1);
            cr_assert_eq(r.warp_instrs, 1);
            cr_assert_eq(r.loads, 1);
        }
        sim_result_free(&r);
        prog_free(t);
        proto_free(p);
    }
}

/* st x 1; ld r0 x on nol1, worked out by hand (docs/sim.md):
 *  1  store issues (issue 1); STORE leaves at 1+2 (L1 latency); 20 bytes = 3 flits of 8:
 *     serialized 3 cycles, 10 in flight: arrives 16
 * 16  L2 serves it (bank free); ACK (12 bytes, 2 flits) leaves at 21, arrives 21+2+10 = 33
 * 33  L1: done; the thread goes on at 35 (store latency 34); the load issues at 36
 * 36  LOAD (16 bytes, 2 flits) leaves at 38, arrives 50; VAL leaves at 55, arrives 67
 * 67  L1: done at 69 (load latency 33): the last thread finishes at cycle 69.
 * Six events: two issues and four arrivals. */
Test(sim, hand_checked_run)
{
    proto_t *p;
    prog_t *t;
    sim_machine_t m;
    load(nol1_src, "GPU h\n{ x = 0; }\n P0 ;\n st x 1 ;\n ld r0 x ;\nforall (0:r0 = 1 /\\ x = 1)\n",
         mach_src, &p, &t, &m);
    sim_config_t cfg = {.seed = 1};
    sim_result_t r;
    diag_t d;
    cr_assert_eq(sim_run(p, t, &m, &cfg, &r, &d), 0, "%s", d.msg);
    cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
    cr_assert(r.correct);
    cr_assert_eq(r.cycles, 69);
    cr_assert_eq(r.events, 6);
    cr_assert_eq(r.messages[0], 1); /* LOAD */
    cr_assert_eq(r.messages[1], 1); /* STORE */
    cr_assert_eq(r.traffic[0], 16);
    cr_assert_eq(r.traffic[1], 20);
    cr_assert_eq(r.traffic[2], 16); /* VAL */
    cr_assert_eq(r.traffic[3], 12); /* ACK */
    cr_assert_eq(r.lat[SIM_OP_STORE].p50, 34);
    cr_assert_eq(r.lat[SIM_OP_LOAD].p50, 33);
    cr_assert_eq(r.loads, 1);
    cr_assert_eq(r.l1_hits, 0);
    /* Same seed, same run; another seed orders same-cycle ties only (none here). */
    for (uint64_t seed = 1; seed < 4; seed++) {
        sim_result_t r2;
        cfg.seed = seed;
        cr_assert_eq(sim_run(p, t, &m, &cfg, &r2, &d), 0);
        cr_assert_eq(r2.cycles, 69);
        cr_assert_eq(r2.events, 6);
        sim_result_free(&r2);
    }
    sim_result_free(&r);
    prog_free(t);
    proto_free(p);
}

/* hand_checked_run with a 1-entry store buffer (docs/sim.md "Store buffer"): st x 1 issues
 * at 1 and takes the entry, done at 3 (L1 latency 2); the CU's hidden thread issues it at
 * 2 (issue 1 after it entered): STORE leaves at 4, its ACK completes it at 36, as the
 * thread's own store took 1..35 above. ld r0 x issues at 4 and is forwarded the store in
 * flight (1), done at 6; the thread's end waits for the drain until 36. Without the
 * buffer's forward the load would have sent a LOAD. */
Test(sim, store_buffer_hand_checked)
{
    proto_t *p;
    prog_t *t;
    sim_machine_t m;
    char msrc[512];
    snprintf(msrc, sizeof msrc, "%ssbuf 1\n", mach_src);
    load(nol1_src, "GPU h\n{ x = 0; }\n P0 ;\n st x 1 ;\n ld r0 x ;\nforall (0:r0 = 1 /\\ x = 1)\n",
         msrc, &p, &t, &m);
    sim_config_t cfg = {.seed = 1};
    sim_result_t r;
    diag_t d;
    cr_assert_eq(sim_run(p, t, &m, &cfg, &r, &d), 0, "%s", d.msg);
    cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
    cr_assert(r.correct);
    cr_assert_eq(r.cycles, 36);
    cr_assert_eq(r.messages[0], 0); /* LOAD: none, forwarded */
    cr_assert_eq(r.messages[1], 1); /* STORE, by the hidden thread */
    cr_assert_eq(r.messages[3], 1); /* ACK */
    cr_assert_eq(r.lat[SIM_OP_STORE].p50, 2);
    cr_assert_eq(r.lat[SIM_OP_LOAD].p50, 2);
    cr_assert_eq(r.lat[SIM_OP_STORE].count, 1); /* the hidden thread's store is not counted */
    cr_assert_eq(r.loads, 1);
    cr_assert_eq(r.sbuf.entries, 1);
    cr_assert_eq(r.sbuf.buffered, 1);
    cr_assert_eq(r.sbuf.forwarded, 1);
    cr_assert_eq(r.sbuf.drained, 1);
    cr_assert_eq(r.sbuf.fences, 0);
    cr_assert_eq(r.sbuf.drain_waits, 1); /* the end */
    cr_assert_eq(r.sbuf.drain_cycles, 30);
    sim_result_free(&r);
    prog_free(t);
    proto_free(p);
}

/* ld x; ld y; ld x with one line of L1: y's miss evicts x through the evict row and
 * the third load misses again; with two ways it hits. */
static void capacity_run(int ways, uint64_t hits, uint64_t evictions, uint64_t gets)
{
    char msrc[512];
    snprintf(msrc, sizeof msrc, "%sl1 latency 2 sets 1 ways %d evict evict\n", mach_src, ways);
    proto_t *p;
    prog_t *t;
    sim_machine_t m;
    load(vi_src,
         "GPU c\n{ x = 1; y = 2; }\n P0 ;\n ld r0 x ;\n ld r1 y ;\n ld r2 x ;\n"
         "forall (0:r0 = 1 /\\ 0:r1 = 2 /\\ 0:r2 = 1)\n",
         msrc, &p, &t, &m);
    sim_config_t cfg = {.seed = 1};
    sim_result_t r;
    diag_t d;
    cr_assert_eq(sim_run(p, t, &m, &cfg, &r, &d), 0, "%s", d.msg);
    cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
    cr_assert(r.correct);
    cr_assert_eq(r.loads, 3);
    cr_assert_eq(r.l1_hits, hits, "ways %d: hits %llu", ways, (unsigned long long)r.l1_hits);
    cr_assert_eq(r.evictions, evictions, "ways %d: evictions %llu", ways,
                 (unsigned long long)r.evictions);
    cr_assert_eq(r.messages[0], gets);
    sim_result_free(&r);
    prog_free(t);
    proto_free(p);
}

Test(sim, capacity_evicts_through_rows)
{
    capacity_run(1, 0, 2, 3);
    capacity_run(2, 1, 0, 2);
}

Test(sim, wrong_final_state_and_limits)
{
    proto_t *p;
    prog_t *t;
    sim_machine_t m;
    load(nol1_src, "GPU w\n{ x = 0; }\n P0 ;\n st x 1 ;\nforall (x = 2)\n", mach_src, &p, &t, &m);
    sim_config_t cfg = {.seed = 1};
    sim_result_t r;
    diag_t d;
    cr_assert_eq(sim_run(p, t, &m, &cfg, &r, &d), 0);
    cr_assert_eq(r.status, SIM_DONE);
    cr_assert(!r.correct);
    sim_result_free(&r);
    cfg.max_events = 1;
    cr_assert_eq(sim_run(p, t, &m, &cfg, &r, &d), 0);
    cr_assert_eq(r.status, SIM_LIMIT);
    sim_result_free(&r);
    prog_free(t);
    proto_free(p);
}

/* A controller-level internal event the machine times ('event tick 10') fires every 10
 * cycles; a load stalls until three ticks have happened (cycle 30), is retried the next
 * cycle and completes with the count. Without the machine line the tick never fires and
 * the run deadlocks. */
static const char *tick_src = "protocol k\n"
                              "network req ordered\n"
                              "message M on req\n"
                              "controller L1 per-cu {\n"
                              "  stable I\n"
                              "  var t: int(0..100) = 0\n"
                              "  event tick\n"
                              "  - | tick | t < 100 | t := t + 1 |\n"
                              "  I | load | t < 3 | stall |\n"
                              "  I | load | | done(t) |\n"
                              "}\n"
                              "controller L2 shared {\n"
                              "  stable V\n"
                              "  line data: data = initial\n"
                              "  V | M | | data := data |\n"
                              "}\n"
                              "core L1 {\n  map ld.* -> load\n}\n";

Test(sim, periodic_controller_event)
{
    char msrc[512];
    snprintf(msrc, sizeof msrc, "%sevent tick 10\n", mach_src);
    proto_t *p;
    prog_t *t;
    sim_machine_t m;
    load(tick_src, "GPU k\n{ x = 0; }\n P0 ;\n ld r0 x ;\nforall (0:r0 = 3)\n", msrc, &p, &t, &m);
    sim_config_t cfg = {.seed = 1};
    sim_result_t r;
    diag_t d;
    cr_assert_eq(sim_run(p, t, &m, &cfg, &r, &d), 0, "%s", d.msg);
    cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
    cr_assert(r.correct);
    cr_assert_eq(r.cycles, 33); /* retried at 31, done after the L1 latency (2) */
    sim_result_free(&r);
    cr_assert_eq(sim_machine_parse("m.machine", mach_src, strlen(mach_src), &m, &d), 0);
    cfg.max_idle = 100;
    cr_assert_eq(sim_run(p, t, &m, &cfg, &r, &d), 0);
    cr_assert_eq(r.status, SIM_DEADLOCK, "%s", r.msg);
    sim_result_free(&r);
    prog_free(t);
    proto_free(p);
}

/* A controller-level environment event ('event tick env', the explorer's --env tick) fires
 * periodically when the machine times it, exactly as an internal one; without the machine
 * line it never fires (timed mode enables no other environment event). */
Test(sim, periodic_environment_event)
{
    char psrc[1024], msrc[512];
    const char *at = strstr(tick_src, "  event tick\n");
    cr_assert(at);
    snprintf(psrc, sizeof psrc, "%.*s  event tick env\n%s", (int)(at - tick_src), tick_src,
             at + strlen("  event tick\n"));
    snprintf(msrc, sizeof msrc, "%sevent tick 10\n", mach_src);
    proto_t *p;
    prog_t *t;
    sim_machine_t m;
    load(psrc, "GPU k\n{ x = 0; }\n P0 ;\n ld r0 x ;\nforall (0:r0 = 3)\n", msrc, &p, &t, &m);
    sim_config_t cfg = {.seed = 1};
    sim_result_t r;
    diag_t d;
    cr_assert_eq(sim_run(p, t, &m, &cfg, &r, &d), 0, "%s", d.msg);
    cr_assert_eq(r.status, SIM_DONE, "%s", r.msg);
    cr_assert(r.correct);
    cr_assert_eq(r.cycles, 33);
    sim_result_free(&r);
    cr_assert_eq(sim_machine_parse("m.machine", mach_src, strlen(mach_src), &m, &d), 0);
    cfg.max_idle = 100;
    cr_assert_eq(sim_run(p, t, &m, &cfg, &r, &d), 0);
    cr_assert_eq(r.status, SIM_DEADLOCK, "%s", r.msg);
    sim_result_free(&r);
    prog_free(t);
    proto_free(p);
}

/* The 128-bit build (sim_run_wide, what sim_run runs above 31 CUs) gives the 32-bit
 * build's results exactly on the same run: cycles, events, traffic, hits, latencies. */
static void same_at_both_widths(const char *proto, const char *wl, const char *mach, int cus,
                                int nt, int steal, int sbuf)
{
    proto_t *p;
    prog_t *t;
    sim_machine_t m;
    diag_t d;
    prog_setting_t set[] = {{"CUS", cus}, {"NT", nt}, {"STEAL", steal}, {"SCOPED", 1}};
    cr_assert_eq(proto_load(proto, &p, &d), 0, "%s", d.msg);
    cr_assert_eq(prog_load_params(wl, set, 4, PROG_PARAMS_TIMED, &t, &d), 0, "%s", d.msg);
    cr_assert_eq(sim_machine_load(mach, &m, &d), 0, "%s", d.msg);
    m.sbuf = sbuf; /* a store buffer (docs/sim.md "Store buffer"), coalescing */
    m.sbuf_coalesce = sbuf > 0;
    sim_config_t cfg = {.seed = 3, .cus = cus};
    sim_result_t a, b;
    cr_assert_eq(sim_run(p, t, &m, &cfg, &a, &d), 0, "%s", d.msg);
    cr_assert_eq(sim_run_wide(p, t, &m, &cfg, &b, &d), 0, "%s", d.msg);
    cr_assert_eq(a.status, SIM_DONE, "%s %s: %s", proto, wl, a.msg);
    cr_assert(a.correct, "%s %s", proto, wl);
    cr_assert_eq(b.status, a.status, "%s %s: %s", proto, wl, b.msg);
    cr_assert_eq(b.correct, a.correct);
    cr_assert_eq(b.cycles, a.cycles, "%s %s: %llu, %llu cycles", proto, wl,
                 (unsigned long long)a.cycles, (unsigned long long)b.cycles);
    cr_assert_eq(b.events, a.events);
    cr_assert_eq(b.loads, a.loads);
    cr_assert_eq(b.l1_hits, a.l1_hits);
    cr_assert_eq(b.invalidations, a.invalidations);
    cr_assert_eq(b.stall_cycles, a.stall_cycles);
    cr_assert_eq(b.warp_instrs, a.warp_instrs);
    for (int g = 0; g < a.nmsgs; g++) {
        cr_assert_eq(b.messages[g], a.messages[g], "%s: %s", proto, a.msg_names[g]);
        cr_assert_eq(b.traffic[g], a.traffic[g]);
    }
    for (int k = 0; k < SIM_NOPS; k++)
        cr_assert_eq(b.lat[k].p99, a.lat[k].p99);
    cr_assert_eq(memcmp(&a.sbuf, &b.sbuf, sizeof a.sbuf), 0, "%s %s: store buffer", proto, wl);
    if (sbuf)
        cr_assert_gt(a.sbuf.buffered, 0, "%s %s: no store buffered", proto, wl);
    sim_result_free(&a);
    sim_result_free(&b);
    prog_free(t);
    proto_free(p);
}

/* A test with one line of N locations (sameline) on CUS CUs, for sim_needs_wide. */
static prog_t *line_of(int n, int cus)
{
    char src[2048], *w = src;
    w += sprintf(w, "GPU line%d\n{ }\nsameline", n);
    for (int k = 0; k < n; k++)
        w += sprintf(w, " x%d", k);
    w += sprintf(w, "\n");
    for (int c = 0; c < cus; c++)
        w += sprintf(w, "%sP%d@wg%d:cu%d", c ? " | " : "", c, c, c);
    w += sprintf(w, " ;\n");
    for (int c = 0; c < cus; c++)
        w += sprintf(w, "%sst x%d 1", c ? " | " : "", c % n);
    sprintf(w, " ;\nexists (x0 = 1)\n");
    prog_t *t;
    diag_t d;
    cr_assert_eq(prog_parse("line.litmus", src, strlen(src), &t, &d), 0, "%s", d.msg);
    return t;
}

/* 128-bit slots only where a value needs them: a nodeset above 31 CUs (mesi's sharers),
 * a mask over a line of more than 31 locations (denovo-b's dirty words). */
Test(sim, wide_slots_only_where_needed)
{
    diag_t d;
    proto_t *mesi, *denovo, *gpuwt;
    cr_assert_eq(proto_load("protocols/mesi.proto", &mesi, &d), 0, "%s", d.msg);
    cr_assert_eq(proto_load("protocols/denovo-b.proto", &denovo, &d), 0, "%s", d.msg);
    cr_assert_eq(proto_load("protocols/gpu-wt.proto", &gpuwt, &d), 0, "%s", d.msg);
    prog_t *l31 = line_of(31, 2), *l32 = line_of(32, 2);
    cr_assert_not(sim_needs_wide(mesi, l31, 31));
    cr_assert(sim_needs_wide(mesi, l31, 32));
    cr_assert_not(sim_needs_wide(denovo, l31, 128));
    cr_assert(sim_needs_wide(denovo, l32, 128));
    cr_assert_not(sim_needs_wide(denovo, l32, 31));
    cr_assert_not(sim_needs_wide(gpuwt, l32, 128));
    proto_t *word;
    cr_assert_eq(proto_load("protocols/denovo.proto", &word, &d), 0, "%s", d.msg);
    cr_assert_not(sim_needs_wide(word, l32, 128)); /* word granularity: one location a line */
    proto_free(word);
    prog_free(l31);
    prog_free(l32);
    proto_free(mesi);
    proto_free(denovo);
    proto_free(gpuwt);
}

Test(sim, wide_slots_give_the_same_runs)
{
    same_at_both_widths("protocols/mesi.proto", "tests/e2e/data/kernels/share.litmus",
                        "protocols/machines/fermi.machine", 17, 1, 1, 0);
    const char *tq[] = {"hlrc", "rsp", "denovo-b", "gpu-wt", "mesi"};
    for (int k = 0; k < 5; k++) {
        char path[64];
        snprintf(path, sizeof path, "protocols/%s.proto", tq[k]);
        same_at_both_widths(path, "litmus/workloads/taskqueue.litmus",
                            "protocols/machines/hlrc-apu.machine", 8, 4, 2, 0);
        /* with a 2-entry store buffer: its hidden threads at both widths */
        same_at_both_widths(path, "tests/e2e/data/sbuf/fifo.litmus",
                            "protocols/machines/hlrc-apu.machine", 8, 4, 2, 2);
        /* at 40 CUs: sim_run on 32-bit slots where no value needs more (all but mesi) */
        same_at_both_widths(path, "litmus/workloads/taskqueue.litmus",
                            "protocols/machines/hlrc-apu.machine", 40, 2, 2, 0);
    }
}
