/* test_murphi.c - unit tests for checker/export: the Murphi model of a small
 * system names every piece sys.c has (threads, instances, the channels rows
 * can send into, rows in order, warm start states), is deterministic, and the
 * export refuses what has no finite model or no system (--time raw, too few
 * CUs) with an error instead of text. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/export/murphi.h"

static const char *psrc = "protocol tiny \"a tiny one\"\n"
                          "network req ordered\n"
                          "network resp unordered\n"
                          "message REQ on req (tid: tid, loc: loc)\n"
                          "message ANS on resp (tid: tid, val: val)\n"
                          "controller L1 per-cu {\n"
                          "  stable I V\n"
                          "  init I\n"
                          "  warm V\n"
                          "  var n: int(1..3) = 1\n"
                          "  I, V | load | n > 2 | stall |\n"
                          "  I, V | load | | send REQ(tid=req.tid, loc=req.loc) to L2; wait |\n"
                          "  I, V | ANS | | done(msg.tid, msg.val) | V\n"
                          "  - | fence | | done |\n"
                          "}\n"
                          "controller L2 shared {\n"
                          "  stable V\n"
                          "  init V\n"
                          "  line data: data = initial\n"
                          "  V | REQ | | send ANS(tid=msg.tid, val=data[msg.loc]) to msg.src |\n"
                          "}\n"
                          "core L1 {\n"
                          "  outstanding 1\n"
                          "  map ld.* -> load\n"
                          "  map fence.* -> fence\n"
                          "}\n";

static const char *tsrc = "GPU tiny\n{ x = 3; y = 0; }\n P0 | P1 ;\n ld r0 x | ld r1 y ;\n"
                          "exists (0:r0 = 3)\n";

static void load(proto_t **p, prog_t **t)
{
    diag_t d;
    cr_assert_eq(proto_parse("tiny.proto", psrc, strlen(psrc), p, &d), 0, "%s:%d:%d: %s", d.file,
                 d.line, d.col, d.msg);
    cr_assert_eq(prog_parse("tiny.litmus", tsrc, strlen(tsrc), t, &d), 0, "%s:%d:%d: %s", d.file,
                 d.line, d.col, d.msg);
}

static char *export(const proto_t *p, const prog_t *t, const sys_config_t *cfg)
{
    strbuf_t b;
    sb_init(&b);
    diag_t d;
    murphi_opts_t o = {"cohcheck export test", NULL, NULL, false};
    cr_assert_eq(murphi_export(p, t, cfg, &o, &b, &d), 0, "%s", d.msg);
    return b.s;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *s = strstr(hay, needle); s; s = strstr(s + 1, needle))
        n++;
    return n;
}

Test(murphi, system_pieces)
{
    proto_t *p;
    prog_t *t;
    load(&p, &t);
    sys_config_t cfg = {0};
    char *m = export(p, t, &cfg);
    cr_assert(strstr(m, "--   cohcheck export test\n"));
    cr_assert(strstr(m, "NT: 2;"));
    cr_assert(strstr(m, "NINST: 3;")); /* L1[0], L1[1], L2 */
    /* req L1[c] -> L2; resp from L2 to any node (msg.src: L2 -> L2 too) */
    cr_assert(strstr(m, "NCH: 5;"));
    cr_assert(strstr(m, "n: 0..3;"));              /* int(1..3) widened to hold zero ... */
    cr_assert(strstr(m, "v < 1 | v > 3") == NULL); /* ... no row assigns n */
    cr_assert(strstr(m, "c_L1[0].v_n := 1;"));
    cr_assert(strstr(m, "c_L2[0].ln[0].v_data[0] := 3;")); /* x's initial value */
    /* the stall row disables the step; the sending row comes second */
    const char *f = strstr(m, "function L1_fires_load");
    cr_assert(f);
    const char *stall = strstr(f, "return false;"), *fire = strstr(f, "return true;");
    cr_assert(stall && fire && stall < fire);
    /* resp is unordered: a ruleset over positions and a sort */
    cr_assert_eq(count(m, "ruleset k: 0..CAP-1 do"), 3);
    cr_assert(strstr(m, "MsgGt(Ch[4].m[b], Ch[4].m[b + 1])"));
    cr_assert(strstr(m, "rule \"terminal\""));
    cr_assert(strstr(m, "startstate") && !strstr(m, "ruleset w0"));
    char *again = export(p, t, &cfg);
    cr_assert_str_eq(m, again);
    free(again);
    free(m);
    prog_free(t);
    proto_free(p);
}

Test(murphi, warm_subsets)
{
    proto_t *p;
    prog_t *t;
    load(&p, &t);
    sys_config_t cfg = {0};
    cfg.warm = true;
    char *m = export(p, t, &cfg);
    /* two L1s, two lines: four (instance, line) pairs start warm or not */
    cr_assert(strstr(m, "ruleset w0: boolean; w1: boolean; w2: boolean; w3: boolean do"));
    cr_assert(strstr(m, "if w3 then\n    c_L1[1].ln[1].st := L1_V;"));
    free(m);
    prog_free(t);
    proto_free(p);
}

Test(murphi, refusals)
{
    proto_t *p;
    prog_t *t;
    load(&p, &t);
    strbuf_t b;
    sb_init(&b);
    diag_t d;
    sys_config_t raw = {0};
    raw.time_raw = true;
    cr_assert_eq(murphi_export(p, t, &raw, NULL, &b, &d), -1);
    cr_assert(strstr(d.msg, "raw time"));
    sys_config_t one = {0};
    one.cus = 1;
    cr_assert_eq(murphi_export(p, t, &one, NULL, &b, &d), -1);
    cr_assert(strstr(d.msg, "--cus"), "%s", d.msg);
    cr_assert_eq(b.len, 0); /* nothing written */
    sb_free(&b);
    prog_free(t);
    proto_free(p);
}

Test(murphi, outcomes)
{
    proto_t *p;
    prog_t *t;
    load(&p, &t);
    exec_outcomes_t allowed;
    exec_outcomes_init(&allowed, 4); /* 0:r0, 1:r1, x, y */
    prog_val_t v[4] = {3, 0, 3, 0};
    exec_outcomes_add(&allowed, v);
    murphi_opts_t o = {NULL, &allowed, "sc", false};
    sys_config_t cfg = {0};
    strbuf_t b;
    sb_init(&b);
    diag_t d;
    cr_assert_eq(murphi_export(p, t, &cfg, &o, &b, &d), 0, "%s", d.msg);
    cr_assert(strstr(b.s, "if true & Th[0].r0 = 3 & Th[1].r1 = 0 & FinalLoc(0) = 3 & FinalLoc(1) = "
                          "0 then return true; endif;"),
              "%s", b.s);
    cr_assert(strstr(b.s, "return c_L2[0].ln[0].v_data[0];")); /* x's home: L2's data */
    cr_assert(strstr(b.s, "invariant \"every terminal outcome is allowed by sc\""));
    sb_free(&b);
    exec_outcomes_free(&allowed);
    prog_free(t);
    proto_free(p);
}
