/* test_warm.c - unit tests for directory state under --init warm
 * (checker/proto, checker/sys): a nodeset declared '= warm CTRL' starts as the
 * compute units whose CTRL line starts warm, and a shared controller's
 * 'warm STATE' is its line's state when any per-cu line starts warm; the
 * resolved text keeps them; errors are exact. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/base/util.h"
#include "../../checker/prog/prog.h"
#include "../../checker/proto/proto.h"
#include "../../checker/sys/sys.h"

static const char *dir_src = "protocol d\n"
                             "network n unordered\n"
                             "controller L1 per-cu {\n"
                             "  stable I V\n"
                             "  warm V\n"
                             "  line d: data = initial\n"
                             "  I, V | load | | done(d[req.loc]) |\n"
                             "}\n"
                             "controller L2 shared {\n"
                             "  stable N S\n"
                             "  warm S\n"
                             "  line data: data = initial\n"
                             "  line sh: nodeset = warm L1\n"
                             "  line other: nodeset = none\n"
                             "}\n"
                             "core L1 {\n  map ld.* -> load\n}\n";

static const char *prog_src = "GPU t\n"
                              "{ x = 0; y = 0; }\n"
                              " P0      | P1      ;\n"
                              " ld r0 x | ld r1 y ;\n"
                              "exists (0:r0 = 0)\n";

typedef struct {
    sys_t *s;
    int n;
    uint8_t enc[32][256];
    size_t len[32];
    char dumps[32][512];
} collect_t;

/* Keep each initial state's encoding (decoding it here would reuse the
 * system's work buffers while sys_initial still needs them). */
static void collect(void *ctx, const uint8_t *state, size_t len, const sys_label_t *label)
{
    (void)label;
    collect_t *c = ctx;
    cr_assert_lt(c->n, 32);
    cr_assert_leq(len, sizeof c->enc[0]);
    memcpy(c->enc[c->n], state, len);
    c->len[c->n++] = len;
}

/* How many of the collected initial states contain TEXT. */
static int with(const collect_t *c, const char *text)
{
    int k = 0;
    for (int i = 0; i < c->n; i++)
        k += strstr(c->dumps[i], text) != NULL;
    return k;
}

static void initial_states(bool warm, collect_t *c)
{
    diag_t d;
    proto_t *p = NULL;
    prog_t *g = NULL;
    cr_assert_eq(proto_parse("d.proto", dir_src, strlen(dir_src), &p, &d), 0, "%s", d.msg);
    cr_assert_eq(prog_parse("t.litmus", prog_src, strlen(prog_src), &g, &d), 0, "%s", d.msg);
    sys_config_t cfg = {.warm = warm, .chan_capacity = 8};
    cr_assert_eq(sys_new(p, g, &cfg, &c->s, &d), 0, "%s", d.msg);
    sys_error_t err;
    c->n = 0;
    int n = sys_initial(c->s, collect, c, &err);
    cr_assert_eq(n, c->n);
    for (int i = 0; i < c->n; i++) {
        strbuf_t b;
        sb_init(&b);
        sys_dump(c->s, c->enc[i], c->len[i], &b);
        snprintf(c->dumps[i], sizeof c->dumps[0], "%s", b.s ? b.s : "");
        sb_free(&b);
    }
    sys_free(c->s);
    prog_free(g);
    proto_free(p);
}

Test(warm, cold_directory_is_empty)
{
    static collect_t c;
    initial_states(false, &c);
    cr_assert_eq(c.n, 1);
    cr_expect(strstr(c.dumps[0], "L2: x=N data=0 sh=0 other=0 y=N data=0 sh=0 other=0"), "%s",
              c.dumps[0]);
}

Test(warm, sharers_and_state_agree_with_warm_lines)
{
    static collect_t c;
    initial_states(true, &c);
    /* two L1s, two lines: every subset of (L1, line) pairs may start warm */
    cr_assert_eq(c.n, 16);
    /* x is line 0 and y line 1; L1[k] is CU k, so its bit is 1 << k */
    cr_expect_eq(with(&c, "L2: x=N data=0 sh=0 other=0"), 4);
    cr_expect_eq(with(&c, "L2: x=S data=0 sh=1 other=0"), 4);
    cr_expect_eq(with(&c, "L2: x=S data=0 sh=2 other=0"), 4);
    cr_expect_eq(with(&c, "L2: x=S data=0 sh=3 other=0"), 4);
    cr_expect_eq(with(&c, "y=S data=0 sh=3 other=0"), 4);
    cr_expect_eq(with(&c, "y=N data=0 sh=0 other=0"), 4);
    /* each state: L1[0] holds x warm exactly when bit 0 of x's sharers is set */
    for (int i = 0; i < c.n; i++) {
        bool warm0 = strstr(c.dumps[i], "L1[0]: x=V") != NULL;
        bool bit0 = strstr(c.dumps[i], "L2: x=S data=0 sh=1 ") != NULL ||
                    strstr(c.dumps[i], "L2: x=S data=0 sh=3 ") != NULL;
        cr_expect_eq(warm0, bit0, "%s", c.dumps[i]);
    }
}

Test(warm, resolved_text_and_errors)
{
    diag_t d;
    proto_t *p = NULL;
    cr_assert_eq(proto_parse("d.proto", dir_src, strlen(dir_src), &p, &d), 0, "%s", d.msg);
    char *t = proto_resolved_text(p);
    cr_expect(strstr(t, "line sh: nodeset = warm L1\n"), "%s", t);
    cr_expect(strstr(t, "  warm S\n"), "%s", t);
    /* the resolved text parses to the same initial values */
    proto_t *q = NULL;
    cr_assert_eq(proto_parse("r.proto", t, strlen(t), &q, &d), 0, "%s", d.msg);
    cr_expect_eq(q->ctrls[1].linevars[1].init_warm, 1);
    cr_expect_eq(q->ctrls[1].warm_state, 1);
    proto_free(q);
    free(t);
    proto_free(p);

    char bad[1024];
    const char *sh = strstr(dir_src, "nodeset = warm L1");
    int pre = (int)(sh - dir_src);
    snprintf(bad, sizeof bad, "%.*snodeset = warm L2%s", pre, dir_src, sh + 17);
    cr_assert_eq(proto_parse("b.proto", bad, strlen(bad), &p, &d), -1);
    cr_expect_eq(d.line, 13);
    cr_expect_eq(d.col, 27);
    cr_expect(strstr(d.msg, "'L2' is not a per-cu controller"), "%s", d.msg);
    snprintf(bad, sizeof bad, "%.*snodeset = warm L9%s", pre, dir_src, sh + 17);
    cr_assert_eq(proto_parse("b.proto", bad, strlen(bad), &p, &d), -1);
    cr_expect(strstr(d.msg, "'L9' is not a per-cu controller"), "%s", d.msg);
    snprintf(bad, sizeof bad, "%.*sint(0..3) = warm L1%s", pre, dir_src, sh + 17);
    cr_assert_eq(proto_parse("b.proto", bad, strlen(bad), &p, &d), -1);
    cr_expect_eq(d.line, 13);
    cr_expect_eq(d.col, 24);
    cr_expect(strstr(d.msg, "'sh' is not a nodeset"), "%s", d.msg);
}
