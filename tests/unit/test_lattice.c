/* test_lattice.c - checker/lattice: parsing models/lattice-style files, the
 * closure of the order, cycles and errors with positions, strongest and
 * covering queries, and the shipped models/lattice itself. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../../checker/lattice/lattice.h"

static lattice_t *ok(const char *src)
{
    lattice_t *l = NULL;
    diag_t d;
    char msg[1200];
    if (lattice_parse("t", src, strlen(src), &l, &d)) {
        diag_format(&d, msg, sizeof msg);
        cr_assert_fail("unexpected error: %s", msg);
    }
    return l;
}

static void bad(const char *src, const char *want)
{
    lattice_t *l = NULL;
    diag_t d;
    char msg[1200];
    cr_assert_eq(lattice_parse("t", src, strlen(src), &l, &d), -1, "%s", src);
    diag_format(&d, msg, sizeof msg);
    cr_expect_str_eq(msg, want, "%s", src);
}

Test(lattice, order_and_closure)
{
    lattice_t *l = ok("# a diamond and a tail\nmodel top\n"
                      "top < l < bot   # left\ntop < r\nr < bot\nbot < tail\n\n");
    cr_assert_eq(lattice_nmodels(l), 5);
    cr_expect_str_eq(lattice_model(l, 0), "top");
    int top = lattice_find(l, "top"), lf = lattice_find(l, "l"), r = lattice_find(l, "r"),
        bot = lattice_find(l, "bot"), tail = lattice_find(l, "tail");
    cr_expect_eq(lattice_find(l, "nope"), -1);
    cr_expect(lattice_stronger(l, top, tail), "closed transitively");
    cr_expect(lattice_stronger(l, r, tail));
    cr_expect(!lattice_stronger(l, lf, r) && !lattice_stronger(l, r, lf), "incomparable");
    cr_expect(!lattice_stronger(l, bot, top));
    cr_expect(!lattice_stronger(l, top, top), "strict");
    cr_expect(lattice_covers(l, top, lf) && lattice_covers(l, lf, bot));
    cr_expect(!lattice_covers(l, top, bot), "l and r lie between");
    cr_expect(lattice_covers(l, bot, tail));
    bool in[5] = {false}, out[5];
    in[lf] = in[r] = in[bot] = in[tail] = true;
    cr_expect_eq(lattice_strongest(l, in, out), 2);
    cr_expect(out[lf] && out[r] && !out[bot] && !out[tail] && !out[top]);
    memset(in, 0, sizeof in);
    cr_expect_eq(lattice_strongest(l, in, out), 0);
    lattice_free(l);
}

Test(lattice, edges_added_out_of_order)
{
    /* c < d first, then a < b, then b < c: a must end up stronger than d. */
    lattice_t *l = ok("c < d\na < b\nb < c\n");
    cr_expect(lattice_stronger(l, lattice_find(l, "a"), lattice_find(l, "d")));
    cr_expect(lattice_covers(l, lattice_find(l, "b"), lattice_find(l, "c")));
    lattice_free(l);
}

Test(lattice, errors)
{
    bad("a < b\nb < a\n", "t:2:5: cycle: 'a' would be stronger than itself");
    bad("a < a", "t:1:5: cycle: 'a' would be stronger than itself");
    bad("a < b < c\nc < a", "t:2:5: cycle: 'a' would be stronger than itself");
    bad("a <", "t:1:4: expected a model name after '<'");
    bad("< a", "t:1:1: '<' needs a model name on each side");
    bad("a < < b", "t:1:5: '<' needs a model name on each side");
    bad("a b", "t:1:3: expected '<' between two model names");
    bad("model a < b", "t:1:9: '<' needs a model name on each side");
    bad("a > b", "t:1:3: unexpected character '>'");
    char big[2048] = "model";
    for (int i = 0; i < 33; i++)
        snprintf(big + strlen(big), sizeof big - strlen(big), " m%d", i);
    bad(big, "t:1:125: too many models (at most 32)");
}

Test(lattice, shipped_file)
{
    lattice_t *l = NULL;
    diag_t d;
    cr_assert_eq(lattice_load("models/lattice", &l, &d), 0, "%s", d.msg);
    static const char *const order[][2] = {
        {"sc", "tso"},   {"tso", "pc"},           {"pc", "rcpc-gh"},
        {"sc", "rcsc"},  {"rcsc", "rcpc"},        {"rcsc", "rcpc-gh"},
        {"rcsc", "ptx"}, {"ptx", "vulkan"},       {"rcpc", "vulkan"},
        {"rcsc", "drf"}, {"drf", "hrf-indirect"}, {"hrf-indirect", "hrf-direct"},
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        int a = lattice_find(l, order[i][0]), b = lattice_find(l, order[i][1]);
        cr_assert(a >= 0 && b >= 0, "%s %s", order[i][0], order[i][1]);
        cr_expect(lattice_stronger(l, a, b), "%s < %s", order[i][0], order[i][1]);
    }
    /* TC-Weak's question: Gharachorloo's RCpc and C11's are incomparable. */
    int gh = lattice_find(l, "rcpc-gh"), c11 = lattice_find(l, "rcpc");
    cr_expect(!lattice_stronger(l, gh, c11) && !lattice_stronger(l, c11, gh));
    cr_expect_eq(lattice_nmodels(l), 11);
    lattice_free(l);
}
