/* test_net.c - unit tests for timed mode's routed network (checker/sim/net.c): XY
 * routes on a 2x2 mesh, two messages contending for one ejection port, FIFO order
 * on one path (what an ordered network needs), head-of-line blocking on one VC and
 * not across VCs, per-hop flow control (a full ejection buffer holding a message on an
 * upstream link; credits HOP cycles after a tail leaves), and the link statistics. Every cycle
 * below is worked out by hand from docs/sim.md "Network": a link takes a head at max(its arrival,
 * the link's next free cycle), is busy for the message's flits (bandwidth 1: one flit a cycle) and
 * passes the head on 'hop' cycles later; the message arrives when its tail does, its flits after
 * the head. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/sim/net.h"

/* 2x2 mesh, node = y * 2 + x: node 0 (0,0), 1 (1,0), 2 (0,1), 3 (1,1). */
Test(net, mesh_2x2_two_messages_contend_for_one_port)
{
    net_t *n = net_new(NET_TOPO_MESH, 0, 2, 2, 1, 1, 1, 0);
    cr_assert_eq(net_nodes(n), 4);
    /* A: node 1 -> node 0, 2 flits at cycle 0. inject 1: takes the head at 0, busy
       0-1, head on at 1; r(1,0) west: 1, busy 1-2, head 2; eject 0: 2, busy 2-3,
       head 3; the tail arrives 3 + 2 = 5. */
    cr_assert_eq(net_route(n, 1, 0, 2, 0), 5);
    /* B: node 2 -> node 0, 2 flits at cycle 0 (no x step; y down). inject 2: 0, head 1;
       r(0,1) south: 1, head 2; eject 0 is A's until 4: takes it at 4, head 5; the tail
       arrives 5 + 2 = 7, two cycles behind A (A's 2 flits on the shared port). */
    cr_assert_eq(net_route(n, 2, 0, 2, 0), 7);
    net_summary_t st;
    net_summary(n, 10, &st);
    /* links used: inject 1, r(1,0) west, inject 2, r(0,1) south, eject 0 */
    cr_assert_eq(st.links, 5);
    cr_assert_str_eq(st.busiest, "eject 0"); /* 4 busy cycles of 10 */
    cr_assert_float_eq(st.util_max, 0.4, 1e-9);
    cr_assert_float_eq(st.util_mean, (0.2 * 4 + 0.4) / 5, 1e-9);
    cr_assert_float_eq(st.hops_mean, 3.0, 1e-9);
    net_free(n);
}

static void path_is(const net_t *n, int src, int dst, const char *want)
{
    int links[NET_MAX_PATH];
    int len = net_path(n, src, dst, links);
    char got[256] = "", name[48];
    for (int k = 0; k < len; k++) {
        net_link_name(n, links[k], name, sizeof name);
        strcat(got, k ? ", " : "");
        strcat(got, name);
    }
    cr_assert_str_eq(got, want, "%d -> %d", src, dst);
}

Test(net, mesh_xy_route_goes_x_first)
{
    net_t *n = net_new(NET_TOPO_MESH, 0, 2, 2, 1, 1, 1, 0);
    path_is(n, 3, 0, "inject 3, r(1,1) west, r(0,1) south, eject 0");
    path_is(n, 0, 3, "inject 0, r(0,0) east, r(1,0) north, eject 3");
    path_is(n, 1, 2, "inject 1, r(1,0) west, r(0,0) north, eject 2");
    path_is(n, 2, 2, "");
    /* node 3 (1,1) -> node 0 (0,0), 1 flit at cycle 10: heads at 11, 12, 13, 14 after
       its four links; the tail at 14 + 1 = 15. */
    cr_assert_eq(net_route(n, 3, 0, 1, 10), 15);
    net_free(n);
    /* An 8x16 mesh (seed 001's size): corner to corner is 7 + 15 router steps. */
    n = net_new(NET_TOPO_MESH, 0, 8, 16, 1, 1, 1, 0);
    int links[NET_MAX_PATH];
    cr_assert_eq(net_path(n, 0, 127, links), 2 + 7 + 15);
    net_free(n);
    n = net_new(NET_TOPO_CROSSBAR, 17, 0, 0, 1, 1, 1, 0);
    path_is(n, 16, 3, "inject 16, eject 3");
    net_free(n);
}

Test(net, one_path_keeps_fifo_order)
{
    /* A crossbar of 3 ports: port 0 -> port 2. A long message (5 flits, at 0): inject 0
       busy 0-4, head 1; eject 2 at 1, busy 1-5, head 2; tail 7. A short one (1 flit) sent
       a cycle later waits for inject 0 until 5: head 6; eject 2 free at 6: head 7; tail
       8: after the long one, though it is shorter and the path is otherwise idle. */
    net_t *n = net_new(NET_TOPO_CROSSBAR, 3, 0, 0, 1, 1, 1, 0);
    uint64_t a = net_route(n, 0, 2, 5, 0), b = net_route(n, 0, 2, 1, 1);
    cr_assert_eq(a, 7);
    cr_assert_eq(b, 8);
    /* Many messages of random sizes on one path arrive in the order they were sent. */
    uint64_t last = b, t = 2, x = 12345;
    for (int k = 0; k < 1000; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t got = net_route(n, 0, 2, 1 + (x >> 60), t);
        cr_assert_gt(got, last, "message %d overtook", k);
        last = got;
        t += (x >> 33) % 3;
    }
    cr_assert_eq(net_route(n, 1, 1, 3, 50), 50); /* within a node: no network */
    net_free(n);
}

Test(net, head_of_line_blocking_on_one_vc_only)
{
    net_t *n = net_new(NET_TOPO_CROSSBAR, 3, 0, 0, 1, 1, 2, 0);
    /* At node 2's input buffer: A (VC 0) arrives at 5, its bank is busy until 20: it
       leaves at 20. B (VC 0) arrives at 7 for an idle bank: held behind A until 20
       (13 cycles). C (VC 1) arrives at 8 for an idle bank: its own buffer, leaves at 8. */
    cr_assert_eq(net_vc_accept(n, 2, 0, 20), 20);
    cr_assert_eq(net_vc_accept(n, 2, 0, 7), 20);
    cr_assert_eq(net_vc_accept(n, 2, 1, 8), 8);
    /* Another node's VC 0 is not held either. */
    cr_assert_eq(net_vc_accept(n, 1, 0, 9), 9);
    net_summary_t st;
    net_summary(n, 30, &st);
    cr_assert_eq(st.hol_messages, 1);
    cr_assert_eq(st.hol_cycles, 13);
    cr_assert_eq(st.full_messages, 0);
    cr_assert_eq(net_hop(n), 0); /* no buffer bound: links reserved when sent */
    net_free(n);
}

/* Per-hop flow control: the messages delivered, in order, as "ID@CYCLE ". */
typedef struct {
    char log[256];
} deliveries_t;

static void deliver(void *ctx, int id, int handle, uint64_t at)
{
    deliveries_t *d = ctx;
    (void)handle;
    size_t len = strlen(d->log);
    snprintf(d->log + len, sizeof d->log - len, "%d@%llu ", id, (unsigned long long)at);
}

Test(net, full_ejection_buffer_holds_upstream_links)
{
    /* 2x2 mesh, hop 1, 1 flit a cycle, one VC, 2-flit buffers. A (2 flits), B (2) and
       C (1) from node 1 to node 0 at cycle 0: inject 1, r(1,0) west, eject 0.
       A: inject 1 at 0 (busy 0-1; its buffer's credits back at 0 + 2 + 1 = 4), west at 1
       (credits back at 5), eject 0 at 2 (busy 2-3, head 3): its tail is in node 0's buffer
       at 5, which it fills (2 flits) until its receiver takes it at 10.
       B: inject 1 is busy until 2, then its far buffer is full (A) until 4: B takes it at
       4, west at 5; at 6 eject 0's buffer is full (A): B waits in router 0's input buffer.
       C: inject 1 busy until 6, its buffer full (B) until 8: C takes it at 8, and at 9
       west's far buffer is full (B, waiting): C is held at router 1, behind the full
       ejection buffer.
       A taken at 10: credits at 11, B takes eject 0 at 11 (head 12), its tail at 14; west's
       credits back at 11 + 2 + 1 = 14: C takes west at 14, head 15. B taken at 14 (a CU
       takes on arrival): eject 0's credits at 15, C takes it at 15, its tail at 17. */
    net_t *n = net_new(NET_TOPO_MESH, 0, 2, 2, 1, 1, 1, 2);
    cr_assert_eq(net_hop(n), 1);
    deliveries_t d = {""};
    int a = net_hop_inject(n, 1, 1, 0, 0, 2, 0);
    int b = net_hop_inject(n, 2, 1, 0, 0, 2, 0);
    cr_assert_geq(net_hop_inject(n, 3, 1, 0, 0, 1, 0), 0);
    cr_assert_eq(net_hop_inject(n, 4, 2, 2, 0, 1, 0), -1); /* within a node: no link */
    net_hop_run(n, 10, deliver, &d);
    cr_assert_str_eq(d.log, "1@5 ");
    net_hop_release(n, a, 10);
    net_hop_run(n, 14, deliver, &d);
    cr_assert_str_eq(d.log, "1@5 2@14 ");
    net_hop_release(n, b, 14);
    net_hop_run(n, 100, deliver, &d);
    cr_assert_str_eq(d.log, "1@5 2@14 3@17 ");
    cr_assert_eq(net_hop_next(n), UINT64_MAX);
    net_summary_t st;
    net_summary(n, 20, &st);
    /* Waits for credits (the link free, its far buffer full): B at 2 (inject 1) and 6
       (eject 0), C at 6 (inject 1) and 9 (west); C's eject 0 credits are back at 15, when
       it asks: 2 + 5 + 2 + 5 cycles. */
    cr_assert_eq(st.full_messages, 4);
    cr_assert_eq(st.full_cycles, 14);
    cr_assert_float_eq(st.hops_mean, 3.0, 1e-9);
    net_free(n);
}

Test(net, credits_come_back_hop_cycles_later)
{
    /* Crossbar, hop 3, 2-flit buffers: A and B (2 flits each) from port 0 to port 2 at 0.
       A: inject 0 at 0 (head 3), eject 2 at 3 (head 6), its tail at 8, taken at once.
       Credits come back 3 cycles after a tail leaves a buffer: inject 0's far buffer at
       3 + 2 + 3 = 8, eject 2's at 8 + 3 = 11. B: inject 0 is busy until 2, its far buffer
       full until 8: B takes it at 8 (head 11); eject 2's buffer full until 11: B takes it
       at 11 (head 14), its tail at 16. Reserved without flow control, B arrives at 10. */
    net_t *n = net_new(NET_TOPO_CROSSBAR, 3, 0, 0, 3, 1, 1, 2);
    deliveries_t d = {""};
    int a = net_hop_inject(n, 1, 0, 2, 0, 2, 0);
    cr_assert_geq(net_hop_inject(n, 2, 0, 2, 0, 2, 0), 0);
    net_hop_run(n, 8, deliver, &d);
    cr_assert_str_eq(d.log, "1@8 ");
    net_hop_release(n, a, 8);
    net_hop_run(n, 100, deliver, &d);
    cr_assert_str_eq(d.log, "1@8 2@16 ");
    net_free(n);
    n = net_new(NET_TOPO_CROSSBAR, 3, 0, 0, 3, 1, 1, 0);
    cr_assert_eq(net_route(n, 0, 2, 2, 0), 8);
    cr_assert_eq(net_route(n, 0, 2, 2, 0), 10);
    net_free(n);
}

Test(net, far_events_keep_their_order)
{
    /* credits_come_back_hop_cycles_later with hop H = 3000, past the 1024 cycles of the
       network's event calendar (later events wait in its heap): A takes eject 2 at H, its
       tail at 2H + 2; inject 0's far buffer credits back at H + 2 + H, eject 2's at
       2H + 2 + H. B takes inject 0 at 2H + 2 and eject 2 at 3H + 2, its tail at 4H + 4. */
    net_t *n = net_new(NET_TOPO_CROSSBAR, 3, 0, 0, 3000, 1, 1, 2);
    deliveries_t d = {""};
    int a = net_hop_inject(n, 1, 0, 2, 0, 2, 0);
    cr_assert_geq(net_hop_inject(n, 2, 0, 2, 0, 2, 0), 0);
    cr_assert_eq(net_hop_next(n), 0);
    net_hop_run(n, 2999, deliver, &d);
    cr_assert_str_eq(d.log, "");
    cr_assert_eq(net_hop_next(n), 3000);
    net_hop_run(n, 3000, deliver, &d);
    cr_assert_str_eq(d.log, "1@6002 ");
    cr_assert_eq(net_hop_next(n), 6002);
    net_hop_release(n, a, 6002);
    net_hop_run(n, 6002, deliver, &d);
    cr_assert_eq(net_hop_next(n), 9002);
    net_hop_run(n, 100000, deliver, &d);
    cr_assert_str_eq(d.log, "1@6002 2@12004 ");
    cr_assert_eq(net_hop_next(n), UINT64_MAX);
    net_free(n);
}

/* Every path of an 8x16 mesh (seed 001's size) is a connected walk: its injection link,
   router steps along x and then along y, each from the router the last one reached, and
   the destination's ejection link. Links are numbered inject (node), eject (nodes + node),
   then 4 per router (east, west, north, south). */
Test(net, mesh_paths_are_xy_walks)
{
    enum { C = 8, R = 16, N = C * R };
    net_t *n = net_new(NET_TOPO_MESH, 0, C, R, 1, 1, 1, 0);
    int links[NET_MAX_PATH];
    for (int src = 0; src < N; src++)
        for (int dst = 0; dst < N; dst++) {
            int len = net_path(n, src, dst, links);
            int sx = src % C, sy = src / C, dx = dst % C, dy = dst / C;
            if (src == dst) {
                cr_assert_eq(len, 0);
                continue;
            }
            cr_assert_eq(len, 2 + abs(dx - sx) + abs(dy - sy), "%d -> %d", src, dst);
            cr_assert_eq(links[0], src);
            cr_assert_eq(links[len - 1], N + dst);
            int x = sx, y = sy, along_y = 0;
            for (int k = 1; k < len - 1; k++) {
                int r = (links[k] - 2 * N) / 4, dir = (links[k] - 2 * N) % 4;
                cr_assert_eq(r, y * C + x, "%d -> %d, link %d", src, dst, k);
                if (dir >= 2)
                    along_y = 1;
                else
                    cr_assert_eq(along_y, 0, "%d -> %d: x after y", src, dst);
                x += dir == 0 ? 1 : dir == 1 ? -1 : 0;
                y += dir == 2 ? 1 : dir == 3 ? -1 : 0;
            }
            cr_assert(x == dx && y == dy, "%d -> %d ends at (%d,%d)", src, dst, x, y);
        }
    net_free(n);
}

/* net_route times the links of net_path: every pair of an 8x16 mesh routed in turn (3 flits
   at cycle src, hop 2) against the model of docs/sim.md worked out here link by link. */
Test(net, route_reserves_the_path_links)
{
    enum { C = 8, R = 16, N = C * R };
    net_t *n = net_new(NET_TOPO_MESH, 0, C, R, 2, 1, 1, 0);
    static uint64_t link_free[6 * N];
    int links[NET_MAX_PATH];
    for (int src = 0; src < N; src++)
        for (int dst = 0; dst < N; dst++) {
            int len = net_path(n, src, dst, links);
            uint64_t head = (uint64_t)src;
            for (int k = 0; k < len; k++) {
                uint64_t dep = head > link_free[links[k]] ? head : link_free[links[k]];
                link_free[links[k]] = dep + 3;
                head = dep + 2;
            }
            uint64_t want = len ? head + 3 : (uint64_t)src;
            cr_assert_eq(net_route(n, src, dst, 3, (uint64_t)src), want, "%d -> %d", src, dst);
        }
    net_free(n);
}

#include "../../checker/sim/sim.h"

static int parse(const char *src, sim_machine_t *m, diag_t *e)
{
    return sim_machine_parse("t.machine", src, strlen(src), m, e);
}

Test(net, machine_topology_lines)
{
    sim_machine_t m;
    diag_t e = {0};
    cr_assert_eq(parse("machine a\n", &m, &e), 0);
    cr_assert_eq(m.topology, NET_TOPO_LINKS); /* no line: the link model */
    cr_assert_eq(parse("machine a\ntopology crossbar\n", &m, &e), 0);
    cr_assert_eq(m.topology, NET_TOPO_CROSSBAR);
    cr_assert_eq(m.topo_hop, 1);
    cr_assert_eq(m.topo_buffer, 0);
    cr_assert_eq(parse("machine a\ntopology mesh 8 16 hop 2 buffer 8 l2 127 # seed 001\n", &m, &e),
                 0);
    cr_assert_eq(m.topology, NET_TOPO_MESH);
    cr_assert_eq(m.topo_cols, 8);
    cr_assert_eq(m.topo_rows, 16);
    cr_assert_eq(m.topo_hop, 2);
    cr_assert_eq(m.topo_buffer, 8);
    cr_assert_eq(m.topo_l2, 127);
    cr_assert_eq(m.topo_l2_n, 0);
    cr_assert_eq(m.topo_l2_spread, 0);
    /* The shared level's banks at several nodes: a list (bank b at N[b mod n]) or spread. */
    cr_assert_eq(parse("machine a\ntopology mesh 4 4 l2 5,10,0\n", &m, &e), 0);
    cr_assert_eq(m.topo_l2_n, 3);
    cr_assert(m.topo_l2_nodes[0] == 5 && m.topo_l2_nodes[1] == 10 && m.topo_l2_nodes[2] == 0);
    cr_assert_eq(m.topo_l2, 5);
    cr_assert_eq(parse("machine a\ntopology mesh 8 16 l2 spread\n", &m, &e), 0);
    cr_assert_eq(m.topo_l2_spread, 1);
    cr_assert_eq(parse("machine a\ntopology crossbar buffer 8 l2 spread\n", &m, &e), 0);
    cr_assert_eq(m.topo_l2_spread, 1);
    cr_assert_eq(m.topo_buffer, 8);
    static const struct {
        const char *src, *msg; /* msg: "LINE:COL: message" */
    } bad[] = {
        {"machine a\ntopology\n", "2:9: topology: expected 'crossbar' or 'mesh'"},
        {"machine a\ntopology ring\n", "2:10: topology: expected 'crossbar' or 'mesh', got 'ring'"},
        {"machine a\ntopology mesh 2\n", "2:16: topology mesh needs COLS ROWS"},
        {"machine a\ntopology mesh 0 2\n", "2:15: topology mesh: COLS and ROWS must be 1..64"},
        {"machine a\ntopology mesh 2 65\n", "2:17: topology mesh: COLS and ROWS must be 1..64"},
        {"machine a\ntopology mesh 2 2 l2 4\n",
         "2:22: topology mesh: l2 node 4 outside the 2x2 mesh"},
        {"machine a\ntopology mesh 2 2 l2 1,2,9\n",
         "2:26: topology mesh: l2 node 9 outside the 2x2 mesh"},
        {"machine a\ntopology mesh 2 2 l2 1,,2\n",
         "2:24: topology mesh: l2 expects 'spread', a node or N1,N2,..."},
        {"machine a\ntopology crossbar l2 1\n",
         "2:22: topology crossbar: l2 takes 'spread', got '1'"},
        {"machine a\ntopology crossbar vc 1\n", "2:19: unknown setting 'vc' of 'topology'"},
        {"machine a\ntopology crossbar hop x\n", "2:23: expected a non-negative integer, got 'x'"},
        {"machine a\ntopology crossbar hop\n", "2:22: 'topology hop' needs a value"},
        {"machine a\ntopology crossbar\ntopology mesh 2 2\n", "3:1: a second 'topology' line"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        diag_t d = {0};
        cr_assert_eq(parse(bad[k].src, &m, &d), -1, "%s", bad[k].src);
        char got[sizeof d.msg + 32];
        snprintf(got, sizeof got, "%d:%d: %s", d.line, d.col, d.msg);
        cr_assert_str_eq(got, bad[k].msg);
    }
}
