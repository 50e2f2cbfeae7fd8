/* test_pred.c - unit tests for predictors in the table language (checker/proto,
 * docs/protocol-language.md "Predictors"): what 'predict' and 'on' store, that they
 * add no row and change no param, the resolved text round trip, a variant's
 * inheritance, and exact FILE:LINE:COL errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/proto/proto.h"

#define BASE                                                                             \
    "protocol p \"predictors\"\n"                                                        \
    "target sc\n"                                                                        \
    "param life = 100\n"                                                                 \
    "network req ordered\n"                                                              \
    "network resp ordered\n"                                                             \
    "message LD on req (tid: tid, loc: loc)\n"                                           \
    "message VAL on resp (tid: tid, val: val)\n"                                         \
    "controller L1 per-cu {\n"                                                           \
    "  stable I\n"                                                                       \
    "  I | load | | send LD(tid=req.tid, loc=req.loc) to L2; wait |\n"                   \
    "  I | VAL | | done(msg.tid, msg.val) |\n"                                           \
    "  - | fence | | done |\n"                                                           \
    "}\n"                                                                                \
    "controller L2 shared {\n"                                                           \
    "  stable V W\n"                                                                     \
    "  line data: data = initial\n"                                                      \
    "  line t: int(0..100000) = 0\n"                                                     \
    "  V, W | LD | | t := life; send VAL(tid=msg.tid, val=data[msg.loc]) to msg.src |\n" \
    "%s"                                                                                 \
    "}\n"                                                                                \
    "core L1 {\n"                                                                        \
    "  outstanding 1\n"                                                                  \
    "  map ld -> load\n"                                                                 \
    "  map fence -> fence\n"                                                             \
    "}\n"

static proto_t *parse(const char *items, diag_t *d)
{
    char src[4096];
    snprintf(src, sizeof src, BASE, items);
    proto_t *p = NULL;
    if (proto_parse("p.proto", src, strlen(src), &p, d))
        return NULL;
    return p;
}

static void bad(const char *items, int line, int col, const char *what)
{
    diag_t d;
    proto_t *p = parse(items, &d);
    cr_assert_null(p, "expected an error for:\n%s", items);
    cr_expect_eq(d.line, line, "line %d != %d (%s)", d.line, line, d.msg);
    cr_expect_eq(d.col, col, "col %d != %d (%s)", d.col, col, d.msg);
    cr_expect(strstr(d.msg, what) != NULL, "message '%s' lacks '%s'", d.msg, what);
}

static const char *items = "  predict life per bank range 0..1000\n"
                           "  on V | LD | msg.tid == 0 | life + 4\n"
                           "  on V, W | LD | | life - 8 | used fence\n"
                           "  on W | LD | | life div 2\n"
                           "  on V | LD | | life := max\n";

Test(pred, declaration_and_rules)
{
    diag_t d;
    proto_t *p = parse(items, &d);
    cr_assert_not_null(p, "%s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    cr_assert_eq(p->npreds, 1);
    const proto_pred_t *pr = &p->preds[0];
    cr_expect_str_eq(p->params[pr->param].name, "life");
    cr_expect_eq(pr->ctrl, 1);
    cr_expect(!pr->per_line);
    cr_expect_eq(pr->lo, 0);
    cr_expect_eq(pr->hi, 1000);
    cr_expect(pr->start_param); /* no 'start': the run's param value */
    cr_expect_eq(pr->start, 100);
    cr_assert_eq(p->nprules, 4);
    cr_expect_eq(p->prules[0].op, PROTO_PU_ADD);
    cr_expect_eq(p->prules[0].arg, 4);
    cr_expect_not_null(p->prules[0].guard);
    cr_expect_eq(p->prules[1].op, PROTO_PU_SUB);
    cr_expect_eq(p->prules[1].states, 3u); /* V and W */
    cr_expect_eq(p->prules[1].nused, 1);
    cr_expect_str_eq(p->events[p->prules[1].used[0]].name, "fence");
    cr_expect_eq(p->prules[2].op, PROTO_PU_DIV);
    cr_expect_eq(p->prules[3].op, PROTO_PU_SET);
    cr_expect_eq(p->prules[3].arg, 1000); /* max: the range's end */
    /* no row, no param value changes */
    cr_expect_eq(p->ctrls[1].nrows, 1);
    cr_expect_eq(p->params[0].value, 100);
    proto_free(p);
}

Test(pred, resolved_round_trip)
{
    diag_t d;
    proto_t *p = parse(items, &d);
    cr_assert_not_null(p);
    char *t = proto_resolved_text(p);
    cr_expect(strstr(t, "  predict life per bank range 0..1000\n") != NULL, "%s", t);
    cr_expect(strstr(t, "  on V, W | LD | | life - 8 | used fence\n") != NULL, "%s", t);
    proto_t *q = NULL;
    cr_assert_eq(proto_parse("r.proto", t, strlen(t), &q, &d), 0, "%s:%d:%d: %s", d.file, d.line,
                 d.col, d.msg);
    cr_expect_eq(q->npreds, 1);
    cr_expect_eq(q->nprules, 4);
    char *t2 = proto_resolved_text(q);
    cr_expect_str_eq(t, t2);
    free(t);
    free(t2);
    proto_free(p);
    proto_free(q);
}

Test(pred, per_line_start)
{
    diag_t d;
    proto_t *p = parse("  predict life per line range 8..2048 start max\n"
                       "  on V | LD | | life * 2\n",
                       &d);
    cr_assert_not_null(p, "%s", d.msg);
    cr_expect(p->preds[0].per_line);
    cr_expect(!p->preds[0].start_param);
    cr_expect_eq(p->preds[0].start, 2048);
    cr_expect_eq(p->prules[0].op, PROTO_PU_MUL);
    cr_expect_eq(p->prules[0].arg, 2);
    proto_free(p);
}

Test(pred, errors)
{
    /* the items start on line 19 */
    bad("  predict nope per bank range 0..1\n", 19, 11, "undeclared param 'nope'");
    bad("  predict life per cu range 0..1\n", 19, 20, "expected 'bank' or 'line'");
    bad("  predict life per bank range 5..1\n", 19, 31, "empty range 5..1");
    bad("  predict life per bank range 0..1\n  predict life per line range 0..1\n", 20, 11,
        "predicted twice");
    bad("  predict life per bank range 0..10 start 11\n", 19, 43, "outside the range");
    bad("  on V | LD | | life + 1\n", 19, 17, "has no 'predict'");
    bad("  predict life per bank range 0..10\n  on V | LD | | life max 2\n", 20, 22,
        "expected '+', '-', '*', 'div' or ':='");
    bad("  predict life per bank range 0..10\n  on V | LD | | life * 0\n", 20, 24,
        "a factor of at least 1");
    bad("  predict life per bank range 0..10\n  on V | LD | | life + 1 | used VAL\n", 20, 33,
        "not a core event");
    bad("  predict life per bank range 0..10\n  on X | LD | | life + 1\n", 20, 6,
        "undeclared state 'X'");
    bad("  predict life per bank range 0..10\n  on V | LD | nope | life + 1\n", 20, 15, "nope");
    bad("  predict life per bank range 0..10\n  on V | LD | | life + 1 extra\n", 20, 26,
        "end of rule");
}
