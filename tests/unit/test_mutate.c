/* test_mutate.c - unit tests for checker/mutate: the mutants of a small table,
 * operator by operator (exact rows), each one a loadable protocol text or
 * reported as invalid, and controller-level rows never redirected. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/mutate/mutate.h"

static const char *src = "protocol tiny \"a tiny one\"\n"
                         "network req ordered\n"
                         "network resp ordered\n"
                         "message REQ on req (tid: tid, loc: loc)\n"
                         "message ANS on resp (tid: tid, val: val)\n"
                         "controller L1 per-cu {\n"
                         "  stable I V\n"
                         "  var n: int(0..3) = 0\n"
                         "  I | load | n > 2 && n != 1 | stall |\n"
                         "  I | load | | send REQ(tid=req.tid, loc=req.loc) to L2; wait |\n"
                         "  I, V | ANS | | done(msg.tid, msg.val); n := n + 1 | V\n"
                         "  V | load | | done(0) |\n"
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

static int count_op(const mutant_t *m, int n, const char *op)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += !strcmp(m[i].op, op);
    return k;
}

static const mutant_t *find(const mutant_t *m, int n, const char *op, const char *after)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(m[i].op, op) && !strcmp(m[i].after, after))
            return &m[i];
    return NULL;
}

Test(mutate, operators)
{
    proto_t *p;
    diag_t d;
    cr_assert_eq(proto_parse("tiny.proto", src, strlen(src), &p, &d), 0, "%s:%d:%d: %s", d.file,
                 d.line, d.col, d.msg);
    mutant_t *m;
    int n;
    cr_assert_eq(mutate_generate(p, &m, &n, &d), 0, "%s", d.msg);
    /* The stall row: removed; its guard: each conjunct dropped, each comparison negated,
     * each literal moved by one. */
    cr_expect_eq(count_op(m, n, "stall-to-unhandled"), 1);
    cr_expect_not_null(find(m, n, "drop-conjunct", "I | load | n != 1 | stall |"));
    cr_expect_not_null(find(m, n, "drop-conjunct", "I | load | n > 2 | stall |"));
    cr_expect_not_null(find(m, n, "negate-comparison", "I | load | n <= 2 && n != 1 | stall |"));
    cr_expect_not_null(find(m, n, "negate-comparison", "I | load | n > 2 && n == 1 | stall |"));
    cr_expect_not_null(find(m, n, "off-by-one", "I | load | n > 3 && n != 1 | stall |"));
    cr_expect_not_null(find(m, n, "off-by-one", "I | load | n > 2 && n != 0 | stall |"));
    /* The send row: drop-send, wait-to-done, swap, redirect to V (I stays: same state). */
    cr_expect_not_null(find(m, n, "drop-send", "I | load | | wait |"));
    cr_expect_not_null(find(m, n, "wait-to-done",
                            "I | load | | send REQ(tid=req.tid, loc=req.loc) to L2; done |"));
    cr_expect_not_null(find(m, n, "swap-actions",
                            "I | load | | wait; send REQ(tid=req.tid, loc=req.loc) to L2 |"));
    cr_expect_not_null(find(m, n, "redirect-next",
                            "I | load | | send REQ(tid=req.tid, loc=req.loc) to L2; wait | V"));
    cr_expect_null(find(m, n, "redirect-next",
                        "I | load | | send REQ(tid=req.tid, loc=req.loc) to L2; wait | I"));
    /* n := n + 1 -> n + 0 and n + 2; done(0) -> done(1). */
    cr_expect_not_null(
        find(m, n, "off-by-one", "I, V | ANS | | done(msg.tid, msg.val); n := n + 2 | V"));
    cr_expect_not_null(find(m, n, "off-by-one", "V | load | | done(1) |"));
    /* The controller-level row is never redirected (it has no line state). */
    for (int i = 0; i < n; i++)
        cr_expect(!(strstr(m[i].before, "- | fence") && !strcmp(m[i].op, "redirect-next")));
    /* Every mutant names the original row's place and loads, or is reported invalid. */
    for (int i = 0; i < n; i++) {
        cr_expect_str_eq(m[i].file, "tiny.proto");
        cr_expect_gt(m[i].line, 8);
        cr_expect_eq(m[i].id, i + 1);
        proto_t *q;
        if (proto_parse("mutant.proto", m[i].text, strlen(m[i].text), &q, &d) == 0)
            proto_free(q);
    }
    mutate_free(m, n);
    proto_free(p);
}
