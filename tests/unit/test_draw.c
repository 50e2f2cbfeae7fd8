/* test_draw.c - unit tests for checker/draw: protocol diagrams (rows sharing
 * ends merged into one edge, stall rows only on request, comments and '||'
 * kept out of the column split) and message-sequence charts
 * (sends matched to receives in order, messages left in flight, quotes escaped). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/draw/draw.h"

static const char *src = "protocol tiny \"a tiny one\"\n"
                         "network req ordered\n"
                         "network resp ordered\n"
                         "message REQ on req (tid: tid, loc: loc)\n"
                         "message ANS on resp (tid: tid, val: val)\n"
                         "controller L1 per-cu {\n"
                         "  stable I V\n"
                         "  transient IV\n"
                         "  var n: int(0..3) = 0\n"
                         "  I | load | n > 2 || n < 0 | stall |\n"
                         "  I | load | (* a comment | with a bar *) | send REQ(tid=req.tid, "
                         "loc=req.loc) to L2; wait | IV\n"
                         "  IV | ANS | | done(msg.tid, msg.val); n := n + 1 | V\n"
                         "  V | load | | send REQ(tid=req.tid, loc=req.loc) to L2; wait |\n"
                         "  V | ANS | | done(msg.tid, msg.val) |\n"
                         "  - | fence | | done |\n"
                         "}\n"
                         "controller L2 shared {\n"
                         "  stable V\n"
                         "  line data: data = initial\n"
                         "  V | REQ | | send ANS(tid=msg.tid, val=data[msg.loc]) to msg.src |\n"
                         "}\n"
                         "core L1 {\n"
                         "  outstanding 1\n"
                         "  map ld.* -> load\n"
                         "  map fence.* -> fence\n"
                         "}\n";

static proto_t *tiny(void)
{
    proto_t *p = NULL;
    diag_t d;
    cr_assert_eq(proto_parse("tiny.proto", src, strlen(src), &p, &d), 0, "%s:%d:%d: %s", d.file,
                 d.line, d.col, d.msg);
    return p;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *s = strstr(hay, needle); s; s = strstr(s + 1, needle))
        n++;
    return n;
}

Test(draw, protocol_edges)
{
    proto_t *p = tiny();
    char *dot = draw_proto_dot(p, NULL);
    /* States: I (initial, doubled), V, IV dashed; L2's V. */
    cr_expect(strstr(dot, "c0_s0 [label=\"I\", shape=ellipse, style=bold, peripheries=2]"), "%s",
              dot);
    cr_expect(strstr(dot, "c0_s2 [label=\"IV\", shape=box, style=\"rounded,dashed\"]"), "%s", dot);
    /* The comment's bar does not split the row; the guard-less row's label. */
    cr_expect(strstr(dot, "c0_s0 -> c0_s2 [label=\"load / send REQ(tid=req.tid, loc=req.loc) to "
                          "L2; wait\\l\""),
              "%s", dot);
    cr_expect_null(strstr(dot, "comment"));
    /* V's two self-loop rows share one edge. */
    cr_expect_eq(count(dot, "c0_s1 -> c0_s1"), 1, "%s", dot);
    cr_expect(strstr(dot, "load / send REQ(tid=req.tid, loc=req.loc) to L2; wait\\lANS / "
                          "done(msg.tid, msg.val)\\l"),
              "%s", dot);
    /* Stall rows only on request; '||' stays inside the guard. */
    cr_expect_null(strstr(dot, "stall"));
    cr_expect(
        strstr(dot, "c0_ctrl [shape=note, label=\"controller-level rows\\lfence / done\\l\"]"),
        "%s", dot);
    free(dot);
    draw_proto_opts_t o = {true, 0, 0};
    dot = draw_proto_dot(p, &o);
    cr_expect(strstr(dot, "load [n > 2 || n < 0] / stall\\l\""), "%s", dot);
    cr_expect(strstr(dot, "style=dotted"));
    cr_expect_null(strstr(dot, "cluster_1"), "only controller 0 was asked for");
    free(dot);
    proto_free(p);
}

Test(draw, msc_matches_sends_in_order)
{
    const char *lanes[] = {"P0", "L1[0]", "L2"};
    draw_msc_t *m = draw_msc_new("t", 3, lanes);
    const char *notes[3] = {NULL, "x: I -> IV", NULL};
    int from[2] = {1, 1}, to[2] = {2, 2};
    const char *labs[2] = {"REQ x", "REQ x"};
    draw_step_t s0 = {0, "P0 ld \"x\"", notes, 1, "load", -1, NULL, 2, from, to, labs};
    draw_msc_step(m, &s0);
    draw_step_t s1 = {2, "L2 receives REQ", NULL, -1, NULL, 1, "REQ x", 0, NULL, NULL, NULL};
    draw_msc_step(m, &s1);
    char *dot = draw_msc_dot(m, "the end");
    /* The receive at step 1 is drawn from the send at step 0; the second REQ is in flight. */
    cr_expect(strstr(dot, "n1_0 -> n2_1 [constraint=false, color=firebrick, label=\"REQ x\"]"),
              "%s", dot);
    cr_expect(strstr(dot, "n1_0 -> t2 [constraint=false, style=dashed"), "%s", dot);
    cr_expect(strstr(dot, "REQ x (in flight)"), "%s", dot);
    cr_expect(strstr(dot, "n0_0 -> n1_0 [constraint=false, color=navy, fontcolor=navy, "
                          "label=\"load\"]"),
              "%s", dot);
    cr_expect(strstr(dot, "1  P0 ld \\\"x\\\""), "%s", dot);
    cr_expect(strstr(dot, "x: I -> IV\\l"), "%s", dot);
    cr_expect(strstr(dot, "label=\"the end\\l\""), "%s", dot);
    cr_expect_eq(count(dot, "h0 -> n0_0 -> n0_1 -> t0"), 1, "%s", dot);
    free(dot);
    draw_msc_free(m);
}
