/* test_cat.c - unit tests of the model language (checker/cat): each operator
 * on small hand-made sets and relations, precedence, postfix versus binary
 * '*', static typing errors with exact positions, names and shadowing,
 * includes, comments, nesting limits, checks and flags, and robustness on
 * junk input.
 *
 * Values are compared through the evaluator itself: a test execution puts
 * the expected relation in the built-in 'cu' (or the expected set in
 * SYSTEM), and the model checks that the expression and the expectation
 * contain each other. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../checker/cat/cat.h"

#define B(i) (UINT64_C(1) << (i))

/* Parse SRC or fail the test with the diagnostic. */
static cat_model_t *parse_ok(const char *src)
{
    cat_model_t *m = NULL;
    diag_t err;
    char msg[1200];
    if (cat_parse("t", "t.cat", src, strlen(src), &m, &err) != 0) {
        diag_format(&err, msg, sizeof msg);
        cr_assert_fail("unexpected parse error: %s\nsource:\n%s", msg, src);
    }
    return m;
}

/* Parse SRC, expect failure, return the formatted diagnostic in BUF. */
static const char *parse_err(const char *src, char *buf, size_t n)
{
    cat_model_t *m = NULL;
    diag_t err;
    int rc = cat_parse("t", "t.cat", src, strlen(src), &m, &err);
    cr_assert_eq(rc, -1, "expected a parse error for:\n%s", src);
    diag_format(&err, buf, n);
    return buf;
}

static void expect_err(const char *src, const char *want)
{
    char buf[1200];
    cr_expect_str_eq(parse_err(src, buf, sizeof buf), want, "source:\n%s", src);
}

/* The fixture execution: 4 events, R = {1,3}, W = {0,2},
 * po = 0->1->2->3 (not transitive, on purpose), rf = 0->3, 2->1. */
static void fixture(cat_exec_t *x)
{
    memset(x, 0, sizeof *x);
    x->n = 4;
    x->sets[CAT_SET_R] = B(1) | B(3);
    x->sets[CAT_SET_W] = B(0) | B(2);
    x->sets[CAT_SET_M] = 0xf;
    for (int i = 0; i < 4; i++)
        x->rels[CAT_REL_ID][i] = B(i);
    x->rels[CAT_REL_PO][0] = B(1);
    x->rels[CAT_REL_PO][1] = B(2);
    x->rels[CAT_REL_PO][2] = B(3);
    x->rels[CAT_REL_RF][0] = B(3);
    x->rels[CAT_REL_RF][2] = B(1);
}

static cat_result_t run(const cat_model_t *m, const cat_exec_t *x)
{
    cat_ctx_t *c = cat_ctx_new(m);
    cat_result_t r;
    cat_eval(c, x, &r);
    cat_ctx_free(c);
    return r;
}

/* Does relation EXPR equal rows WANT[0..4) on the fixture? */
static bool rel_is(const char *expr, uint64_t w0, uint64_t w1, uint64_t w2, uint64_t w3)
{
    char src[1024];
    snprintf(src, sizeof src, "let e = %s\nempty e \\ cu\nempty cu \\ e\n", expr);
    cat_model_t *m = parse_ok(src);
    cat_exec_t x;
    fixture(&x);
    uint64_t w[4] = {w0, w1, w2, w3};
    memcpy(x.rels[CAT_REL_CU], w, sizeof w);
    bool ok = run(m, &x).consistent;
    cat_free(m);
    return ok;
}

/* Does set EXPR equal WANT on the fixture? */
static bool set_is(const char *expr, uint64_t want)
{
    char src[1024];
    snprintf(src, sizeof src, "let e = %s\nempty e \\ SYSTEM\nempty SYSTEM \\ e\n", expr);
    cat_model_t *m = parse_ok(src);
    cat_exec_t x;
    fixture(&x);
    x.sets[CAT_SET_SYSTEM] = want;
    bool ok = run(m, &x).consistent;
    cat_free(m);
    return ok;
}

Test(cat_ops, builtins)
{
    cr_expect(rel_is("po", B(1), B(2), B(3), 0));
    cr_expect(!rel_is("po", B(1), B(2), 0, 0), "the comparison itself must be able to fail");
    cr_expect(rel_is("0", 0, 0, 0, 0));
    cr_expect(set_is("_", 0xf));
    cr_expect(set_is("R", B(1) | B(3)));
}

Test(cat_ops, set_operators)
{
    cr_expect(set_is("R | W", 0xf));
    cr_expect(set_is("R & W", 0));
    cr_expect(set_is("M \\ R", B(0) | B(2)));
    cr_expect(set_is("~R", B(0) | B(2)));
    cr_expect(set_is("~_", 0));
    cr_expect(set_is("domain(po)", B(0) | B(1) | B(2)));
    cr_expect(set_is("range(po)", B(1) | B(2) | B(3)));
    cr_expect(set_is("domain(rf) | range(0)", B(0) | B(2)));
}

Test(cat_ops, relation_operators)
{
    cr_expect(rel_is("po | rf", B(1) | B(3), B(2), B(1) | B(3), 0));
    cr_expect(rel_is("(po | rf) & rf", B(3), 0, B(1), 0));
    cr_expect(rel_is("(po | rf) \\ po", B(3), 0, B(1), 0));
    cr_expect(rel_is("po ; po", B(2), B(3), 0, 0));
    cr_expect(rel_is("rf ; po", 0, 0, B(2), 0));
    cr_expect(rel_is("R * W", 0, B(0) | B(2), 0, B(0) | B(2)));
    cr_expect(rel_is("[R]", 0, B(1), 0, B(3)));
    cr_expect(rel_is("po+", 0xe, 0xc, 0x8, 0));
    cr_expect(rel_is("po*", 0xf, 0xe, 0xc, 0x8));
    cr_expect(rel_is("po?", 0x3, 0x6, 0xc, 0x8));
    cr_expect(rel_is("po^-1", 0, B(0), B(1), B(2)));
    cr_expect(rel_is("~po", 0xd, 0xb, 0x7, 0xf));
    cr_expect(rel_is("~0", 0xf, 0xf, 0xf, 0xf));
    cr_expect(rel_is("(rf | po)+", 0xe, 0xe, 0xe, 0));
}

Test(cat_ops, fused_restrictions)
{
    /* [S];r, r;[S], (A*B)&r and their combinations are rewritten internally. */
    cr_expect(rel_is("[W] ; po", B(1), 0, B(3), 0));
    cr_expect(rel_is("po ; [W]", 0, B(2), 0, 0));
    cr_expect(rel_is("[R] ; po ; [W]", 0, B(2), 0, 0));
    cr_expect(rel_is("po & (W * R)", B(1), 0, B(3), 0));
    cr_expect(rel_is("(W * R) & po & (_ * R)", B(1), 0, B(3), 0));
    cr_expect(rel_is("[R] ; (W * _)", 0, 0, 0, 0));
    cr_expect(rel_is("[W] ; (_ * R)", B(1) | B(3), 0, B(1) | B(3), 0));
    cr_expect(rel_is("[R] ; [M] ; [R | W]", 0, B(1), 0, B(3)));
}

Test(cat_ops, complement_masks_unused_bits)
{
    cat_model_t *m = parse_ok("empty ~po & ~~~(~po)\nempty ~R & R\nacyclic ~(_ * _) \n");
    cat_exec_t x;
    fixture(&x);
    cr_expect(run(m, &x).consistent);
    cat_free(m);
    /* 64 events: every bit is meaningful. */
    m = parse_ok("~empty ~0 & [_]\nempty ~_\nempty ~(_ * _)\n~acyclic ~0\n");
    memset(&x, 0, sizeof x);
    x.n = 64;
    cr_expect(run(m, &x).consistent);
    /* No event at all. */
    x.n = 0;
    cat_result_t r = run(m, &x);
    cr_expect(!r.consistent);
    cr_expect_eq(r.failed_check, 0);
    cat_free(m);
}

Test(cat_prec, precedence_levels)
{
    /* '|' < ';' */
    cr_expect(rel_is("po | rf ; po", B(1), B(2), B(2) | B(3), 0));
    /* ';' < '\' : po ; (po \ po) */
    cr_expect(rel_is("po ; po \\ po", 0, 0, 0, 0));
    /* '\' < '&' : po \ (po & rf) */
    cr_expect(rel_is("po \\ po & rf", B(1), B(2), B(3), 0));
    /* '&' < '*' : (W * R) & po */
    cr_expect(rel_is("W * R & po", B(1), 0, B(3), 0));
    /* '*' < prefix and postfix: (R * W) | (W * R) */
    cr_expect(rel_is("R * W | W * R", 0xa, 0x5, 0xa, 0x5));
    /* postfix binds tighter than prefix: ~(po+) */
    cr_expect(rel_is("~po+", 0x1, 0x3, 0x7, 0xf));
    cr_expect(rel_is("(~po)+", 0xf, 0xf, 0xf, 0xf));
    /* left associativity of '\' */
    cr_expect(rel_is("(po | rf) \\ po \\ rf", 0, 0, 0, 0));
    cr_expect(set_is("M \\ R \\ W", 0));
}

Test(cat_prec, star_binary_or_postfix)
{
    cr_expect(rel_is("po* ; rf", B(1) | B(3), B(1), B(1), 0));
    cr_expect(rel_is("(R)*(W)", 0, 0x5, 0, 0x5));
    cr_expect(rel_is("R*W", 0, 0x5, 0, 0x5));
    cr_expect(rel_is("R * ~R", 0, 0x5, 0, 0x5));
    cr_expect(rel_is("R * _", 0, 0xf, 0, 0xf));
    cr_expect(rel_is("po**", 0xf, 0xe, 0xc, 0x8));
    cr_expect(rel_is("po* | 0", 0xf, 0xe, 0xc, 0x8));
    /* '*' before '~' followed by a check keyword is postfix. */
    cat_model_t *m = parse_ok("acyclic po*\n~empty po\n");
    cat_exec_t x;
    fixture(&x);
    cat_result_t r = run(m, &x);
    cr_expect(!r.consistent);
    cr_expect_eq(r.failed_check, 0);
    cat_free(m);
    /* '*' before '(' is binary: po * (rf) is a type error. */
    expect_err("let a = po * (rf)",
               "t.cat:1:12: '*' (cartesian product) needs two sets, but the left operand is a "
               "relation");
}

Test(cat_types, errors_with_positions)
{
    expect_err("let x = po | R",
               "t.cat:1:12: '|' needs two sets or two relations, but the left operand is a "
               "relation and the right a set");
    expect_err("let x = R & po",
               "t.cat:1:11: '&' needs two sets or two relations, but the left operand is a set "
               "and the right a relation");
    expect_err("let x = R \\ po",
               "t.cat:1:11: '\\' needs two sets or two relations, but the left operand is a set "
               "and the right a relation");
    expect_err("\nacyclic [po]", "t.cat:2:10: '[...]' needs a set, got a relation");
    expect_err("acyclic R", "t.cat:1:9: acyclic needs a relation, got a set");
    expect_err("irreflexive (R | W)", "t.cat:1:13: irreflexive needs a relation, got a set");
    expect_err("let x = R ; po",
               "t.cat:1:11: ';' (sequence) needs two relations, but the left operand is a set");
    expect_err("let x = po ; W",
               "t.cat:1:12: ';' (sequence) needs two relations, but the right operand is a set");
    expect_err("let x = R * po",
               "t.cat:1:11: '*' (cartesian product) needs two sets, but the right operand is a "
               "relation");
    expect_err("let x = W+", "t.cat:1:10: postfix '+' needs a relation, got a set");
    expect_err("let x = W^-1", "t.cat:1:10: postfix '^-1' needs a relation, got a set");
    expect_err("let x = (W)?", "t.cat:1:12: postfix '?' needs a relation, got a set");
    expect_err("let x = W*", "t.cat:1:10: postfix '*' needs a relation, got a set");
    expect_err("let x = domain(W)", "t.cat:1:16: domain(...) needs a relation, got a set");
    expect_err("let x = range( R)", "t.cat:1:16: range(...) needs a relation, got a set");
    /* empty takes both */
    cat_free(parse_ok("empty R & W\nempty po & rf\n"));
}

Test(cat_names, unknown_and_order)
{
    expect_err("let a = po\nlet b = a | foo", "t.cat:2:13: unknown name 'foo'");
    expect_err("let a = b\nlet b = po", "t.cat:1:9: unknown name 'b'");
    expect_err("let a = a | po", "t.cat:1:9: unknown name 'a'");
    expect_err("acyclic Po", "t.cat:1:9: unknown name 'Po'");
    /* names may contain '-' and '.' */
    cat_free(parse_ok("let po-loc = po & loc\nlet x.y = po-loc\nacyclic x.y as a-b\n"));
}

Test(cat_names, shadowing)
{
    cr_expect(rel_is("po", B(1), B(2), B(3), 0));
    cat_model_t *m = parse_ok("let a = po\nlet a = a ; a\nlet po = rf\n"
                              "empty a \\ cu\nempty cu \\ a\nempty po \\ rf\nempty rf \\ po\n");
    cat_exec_t x;
    fixture(&x);
    x.rels[CAT_REL_CU][0] = B(2);
    x.rels[CAT_REL_CU][1] = B(3);
    cr_expect(run(m, &x).consistent);
    cat_free(m);
}

Test(cat_syntax, errors)
{
    expect_err("let = po", "t.cat:1:5: expected a name after 'let', found '='");
    expect_err("let x po", "t.cat:1:7: expected '=', found name 'po'");
    expect_err("acyclic po |", "t.cat:1:13: expected an expression, found end of file");
    expect_err("acyclic (po", "t.cat:1:12: expected ')', found end of file");
    expect_err("acyclic [R", "t.cat:1:11: expected ']', found end of file");
    expect_err("let x = domain po",
               "t.cat:1:16: expected '(' after domain or range, found name 'po'");
    expect_err("po", "t.cat:1:1: expected 'let', 'include', 'flag' or a check, found name 'po'");
    expect_err("flag po", "t.cat:1:6: expected acyclic, irreflexive or empty, found name 'po'");
    expect_err("acyclic po as", "t.cat:1:14: expected a name after 'as', found end of file");
    expect_err("let x = 1",
               "t.cat:1:9: unexpected number '1' (the only number is 0, the empty relation)");
    expect_err("let x = po $", "t.cat:1:12: unexpected character '$'");
    expect_err("let x = po\n\tlet y = 0 0", "t.cat:2:12: expected 'let', 'include', 'flag' or a "
                                            "check, found '0'");
    expect_err("\"title\" \"again\"",
               "t.cat:1:9: expected 'let', 'include', 'flag' or a check, found string \"again\"");
}

Test(cat_syntax, comments_and_strings)
{
    cat_model_t *m = parse_ok("\"My (* model *)\" (* a comment\n spanning lines *)\n"
                              "acyclic po (* ) ( * *)\n");
    cr_expect_str_eq(cat_model_title(m), "My (* model *)");
    cr_expect_str_eq(cat_model_name(m), "t");
    cat_free(m);
    m = parse_ok("acyclic po\n");
    cr_expect_str_eq(cat_model_title(m), "t", "no title: the name");
    cat_free(m);
    expect_err("acyclic po\n  (* never closed\n let x = po", "t.cat:2:3: unterminated comment");
    expect_err("acyclic po (* it's $ never closed", "t.cat:1:12: unterminated comment");
    expect_err("let x = (* x", "t.cat:1:9: unterminated comment");
    expect_err("\"title", "t.cat:1:1: unterminated string");
    expect_err("include \"abc\nacyclic po", "t.cat:1:9: unterminated string");
}

static char *nest(int depth, const char *open, const char *inner, const char *close)
{
    size_t n = strlen(open) * (size_t)depth + strlen(inner) + strlen(close) * (size_t)depth + 32;
    char *s = malloc(n);
    strcpy(s, "acyclic ");
    for (int i = 0; i < depth; i++)
        strcat(s, open);
    strcat(s, inner);
    for (int i = 0; i < depth; i++)
        strcat(s, close);
    return s;
}

Test(cat_syntax, nesting_limit)
{
    char *ok = nest(200, "(", "po", ")");
    cat_free(parse_ok(ok));
    free(ok);
    char *bad = nest(201, "(", "po", ")");
    expect_err(bad, "t.cat:1:209: expression nested too deeply (more than 200 levels)");
    free(bad);
    bad = nest(100000, "(", "po", ")");
    expect_err(bad, "t.cat:1:209: expression nested too deeply (more than 200 levels)");
    free(bad);
    bad = nest(5000, "~", "po", "");
    expect_err(bad, "t.cat:1:209: expression nested too deeply (more than 200 levels)");
    free(bad);
    bad = nest(300, "domain([", "R", "])");
    char buf[1200];
    cr_expect(strstr(parse_err(bad, buf, sizeof buf), "nested too deeply") != NULL);
    free(bad);
    /* Long flat chains are not nesting. */
    size_t n = 20000 * 5 + 64, len = 0;
    char *flat = malloc(n);
    len += (size_t)sprintf(flat, "acyclic po");
    for (int i = 0; i < 20000; i++)
        len += (size_t)sprintf(flat + len, " | po");
    cat_free(parse_ok(flat));
    free(flat);
}

Test(cat_checks, flags_and_order)
{
    /* Flags are evaluated only once every check holds, whatever the order. */
    const char *src = "flag ~empty po as has-po\n"
                      "acyclic po as po-acyclic\n"
                      "flag empty rf\n"
                      "flag ~acyclic po | po^-1 as cyclic\n"
                      "irreflexive po\n";
    cat_model_t *m = parse_ok(src);
    cr_expect_eq(cat_nflags(m), 3);
    cr_expect_eq(cat_nchecks(m), 2);
    cr_expect_str_eq(cat_flag_name(m, 0), "has-po");
    cr_expect_str_eq(cat_flag_name(m, 1), "flag#1");
    cr_expect_str_eq(cat_flag_name(m, 2), "cyclic");
    cr_expect_str_eq(cat_check_name(m, 0), "po-acyclic");
    cr_expect_str_eq(cat_check_name(m, 1), "check#1");
    cat_exec_t x;
    fixture(&x);
    cat_result_t r = run(m, &x);
    cr_expect(r.consistent);
    cr_expect_eq(r.failed_check, -1);
    cr_expect_eq(r.flags, 0x5u);
    /* A cycle in po: the first check fails, no flag is reported. */
    x.rels[CAT_REL_PO][3] = B(0);
    r = run(m, &x);
    cr_expect(!r.consistent);
    cr_expect_eq(r.failed_check, 0);
    cr_expect_eq(r.flags, 0u);
    /* A self-loop only: acyclic fails first too. */
    fixture(&x);
    x.rels[CAT_REL_PO][1] |= B(1);
    r = run(m, &x);
    cr_expect(!r.consistent);
    cr_expect_eq(r.failed_check, 0);
    cat_free(m);
    /* The second check fails alone. */
    m = parse_ok("acyclic po\nempty rf as no-rf\n");
    fixture(&x);
    r = run(m, &x);
    cr_expect(!r.consistent);
    cr_expect_eq(r.failed_check, 1);
    cr_expect_str_eq(cat_check_name(m, r.failed_check), "no-rf");
    cat_free(m);
}

Test(cat_checks, check_kinds)
{
    cat_exec_t x;
    fixture(&x);
    struct {
        const char *src;
        bool consistent;
    } cases[] = {
        {"acyclic po", true},
        {"acyclic po | po^-1", false},
        {"~acyclic po", false},
        {"irreflexive po", true},
        {"irreflexive po+", true},
        {"irreflexive po*", false},
        {"irreflexive po;po^-1", false},
        {"~irreflexive po?", true},
        {"empty po", false},
        {"~empty po", true},
        {"empty R & W", true},
        {"~empty R & W", false},
        {"acyclic (rf | po)+", false},
        {"acyclic rf^-1 | po", false},
        {"empty 0", true},
        {"", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cat_model_t *m = parse_ok(cases[i].src);
        cr_expect_eq(run(m, &x).consistent, cases[i].consistent, "%s", cases[i].src);
        cat_free(m);
    }
}

Test(cat_checks, too_many_flags)
{
    char src[4096] = "";
    for (int i = 0; i < 33; i++)
        strcat(src, "flag empty po\n");
    expect_err(src, "t.cat:33:1: too many flags (at most 32)");
    src[strlen(src) - 14] = 0; /* 32 flags are fine */
    cat_model_t *m = parse_ok(src);
    cat_exec_t x;
    fixture(&x);
    cr_expect_eq(cat_nflags(m), 32);
    cr_expect_eq(run(m, &x).flags, 0u);
    cat_free(m);
}

Test(cat_compile, dead_code_and_sharing)
{
    /* An unused let costs nothing. */
    cat_model_t *m = parse_ok("let unused = (po | rf)+ ; rf\nempty 0\n");
    cr_expect_eq(cat_ninstrs(m), 1);
    cat_free(m);
    /* One computation for a sub-expression written twice. */
    m = parse_ok("let a = po ; rf\nlet b = po ; rf\nempty a \\ b\n");
    cr_expect_eq(cat_ninstrs(m), 3);
    cat_free(m);
}

/* Write TEXT to DIR/NAME. */
static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

Test(cat_include, resolve_cycle_missing)
{
    char dir[] = "/tmp/cat_test_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    char sub[600], path[600];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    mkdir(sub, 0700);
    write_file(dir, "main.cat", "\"Main\"\ninclude \"sub/lib.cat\"\nacyclic mypo as main\n");
    write_file(sub, "lib.cat",
               "\"Lib title is ignored\"\ninclude \"more.cat\"\nlet mypo = base\n"
               "acyclic mypo as lib\n");
    write_file(sub, "more.cat", "let base = po\n");
    write_file(dir, "cyc.cat", "include \"cyc2.cat\"\n");
    write_file(dir, "cyc2.cat", "\n  include \"cyc.cat\"\n");
    write_file(dir, "self.cat", "include \"self.cat\"\n");
    write_file(dir, "missing.cat", "let a = po\ninclude \"nope.cat\"\n");
    write_file(dir, "bad.cat", "include \"badinc.cat\"\n");
    write_file(dir, "badinc.cat", "let a = po\nacyclic a | W\n");
    write_file(dir, "dir.cat", "include \"sub\"\n");

    cat_model_t *m;
    diag_t err;
    char msg[1200];
    snprintf(path, sizeof path, "%s/main.cat", dir);
    cr_assert_eq(cat_load(path, &m, &err), 0);
    cr_expect_str_eq(cat_model_name(m), "main");
    cr_expect_str_eq(cat_model_title(m), "Main");
    cr_expect_eq(cat_nchecks(m), 2);
    cr_expect_str_eq(cat_check_name(m, 0), "lib", "included checks come first");
    cr_expect_str_eq(cat_check_name(m, 1), "main");
    cat_exec_t x;
    fixture(&x);
    cr_expect(run(m, &x).consistent);
    cat_free(m);

    char want[1400];
    snprintf(path, sizeof path, "%s/cyc.cat", dir);
    cr_expect_eq(cat_load(path, &m, &err), -1);
    diag_format(&err, msg, sizeof msg);
    snprintf(want, sizeof want,
             "%s/cyc2.cat:2:11: include cycle: \"%s/cyc.cat\" is already being read", dir, dir);
    cr_expect_str_eq(msg, want);

    snprintf(path, sizeof path, "%s/self.cat", dir);
    cr_expect_eq(cat_load(path, &m, &err), -1);
    diag_format(&err, msg, sizeof msg);
    cr_expect(strstr(msg, "self.cat:1:9: include cycle") != NULL, "%s", msg);

    snprintf(path, sizeof path, "%s/missing.cat", dir);
    cr_expect_eq(cat_load(path, &m, &err), -1);
    diag_format(&err, msg, sizeof msg);
    snprintf(want, sizeof want,
             "%s/missing.cat:2:9: cannot include \"%s/nope.cat\": No such file or directory", dir,
             dir);
    cr_expect_str_eq(msg, want);

    snprintf(path, sizeof path, "%s/bad.cat", dir);
    cr_expect_eq(cat_load(path, &m, &err), -1);
    diag_format(&err, msg, sizeof msg);
    snprintf(want, sizeof want,
             "%s/badinc.cat:2:11: '|' needs two sets or two relations, but the left operand is a "
             "relation and the right a set",
             dir);
    cr_expect_str_eq(msg, want, "errors in an included file name that file");

    snprintf(path, sizeof path, "%s/dir.cat", dir);
    cr_expect_eq(cat_load(path, &m, &err), -1);
    diag_format(&err, msg, sizeof msg);
    snprintf(want, sizeof want, "%s/dir.cat:1:9: cannot include \"%s/sub\": not a regular file",
             dir, dir);
    cr_expect_str_eq(msg, want);
    cr_expect_eq(cat_load(sub, &m, &err), -1);
    diag_format(&err, msg, sizeof msg);
    snprintf(want, sizeof want, "%s: cannot read model: not a regular file", sub);
    cr_expect_str_eq(msg, want);

    snprintf(path, sizeof path, "%s/none.cat", dir);
    cr_expect_eq(cat_load(path, &m, &err), -1);
    diag_format(&err, msg, sizeof msg);
    snprintf(want, sizeof want, "%s/none.cat: cannot read model: No such file or directory", dir);
    cr_expect_str_eq(msg, want);

    /* A model given in memory resolves includes against its file name's directory. */
    char src[700];
    snprintf(src, sizeof src, "include \"sub/lib.cat\"\nempty mypo \\ po\n");
    snprintf(path, sizeof path, "%s/virtual.cat", dir);
    cr_expect_eq(cat_parse("v", path, src, strlen(src), &m, &err), 0);
    cat_free(m);

    const char *names[] = {"sub/lib.cat", "sub/more.cat", "main.cat", "cyc.cat",    "cyc2.cat",
                           "self.cat",    "missing.cat",  "bad.cat",  "badinc.cat", "dir.cat"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(sub);
    rmdir(dir);
}

/* Deterministic junk: token soup and random bytes never crash or hang. */
Test(cat_robust, junk_input)
{
    static const char *const toks[] = {
        "let",     "x",     "=",           "po",   "R",  "|",      ";",     "\\",    "&",  "*",
        "+",       "?",     "^-1",         "~",    "(",  ")",      "[",     "]",     "_",  "0",
        "acyclic", "empty", "irreflexive", "flag", "as", "domain", "range", "\"s\"", "(*", "*)",
        "include", "\n",    "W",           "rf",   "x",  "1",      "\"",
    };
    uint64_t seed = 12345;
    for (int iter = 0; iter < 3000; iter++) {
        char src[600] = "";
        int ntok = 1 + (int)(seed % 40);
        for (int i = 0; i < ntok; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            strcat(src, toks[(seed >> 33) % (sizeof toks / sizeof toks[0])]);
            strcat(src, " ");
        }
        cat_model_t *m = NULL;
        diag_t err;
        if (cat_parse("j", "j.cat", src, strlen(src), &m, &err) == 0) {
            cat_exec_t x;
            fixture(&x);
            run(m, &x);
            cat_free(m);
        } else {
            cr_assert(err.line >= 1 && err.col >= 1, "%s -> %s", src, err.msg);
        }
    }
    for (int iter = 0; iter < 500; iter++) {
        char src[64];
        for (size_t i = 0; i < sizeof src; i++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            src[i] = (char)(seed >> 56);
        }
        cat_model_t *m = NULL;
        diag_t err;
        if (cat_parse("j", "j.cat", src, sizeof src, &m, &err) == 0)
            cat_free(m);
    }
}

Test(cat_ops, fencerel)
{
    /* fencerel(S) = po;[S];po on the fixture (po 0->1->2->3). */
    cr_expect(rel_is("fencerel(R)", B(2), 0, 0, 0));
    cr_expect(rel_is("fencerel(W)", 0, B(3), 0, 0));
    cr_expect(rel_is("fencerel(domain(po) & range(po))", B(2), B(3), 0, 0));
    cr_expect(rel_is("fencerel(~_)", 0, 0, 0, 0));
    cr_expect(!rel_is("fencerel(R)", 0, 0, 0, 0), "the comparison itself must be able to fail");
    /* It uses the po bound where it is written, as herd7 does. */
    cat_model_t *m = parse_ok("let po = rf\nlet e = fencerel(R)\nempty e \\ cu\nempty cu \\ e\n");
    cat_exec_t x;
    fixture(&x);
    cr_expect(run(m, &x).consistent, "rf;[R];rf is empty on the fixture");
    cat_free(m);
    expect_err("let e = fencerel(po)", "t.cat:1:18: fencerel(...) needs a set, got a relation");
    expect_err("let e = fencerel R", "t.cat:1:18: expected '(' after fencerel, found name 'R'");
    expect_err("let fencerel = po", "t.cat:1:5: expected a name after 'let', found 'fencerel'");
}

Test(cat_ops, scope_inclusion_builtin)
{
    /* incl is a plain built-in relation: the executions builder fills it
     * (exec.c); here it only has to be named and typed. */
    cat_exec_t x;
    fixture(&x);
    x.rels[CAT_REL_INCL][0] = B(1) | B(3);
    x.rels[CAT_REL_INCL][1] = B(0);
    cat_model_t *m = parse_ok("empty (incl & incl^-1) \\ (W * R | R * W)\n"
                              "~empty incl & incl^-1\n");
    cr_expect(run(m, &x).consistent);
    cat_free(m);
    m = parse_ok("empty incl & incl^-1\n");
    cr_expect(!run(m, &x).consistent, "0 and 1 include each other");
    cat_free(m);
    expect_err("let e = incl * W", "t.cat:1:14: '*' (cartesian product) needs two sets, but the "
                                   "left operand is a relation");
}

/* herd7's syntax: a model-name header, '#' comments, show/unshow (ignored) and
 * undefined_unless (a flag raised when its check fails) are read; the rest of
 * herd's language is an error that names the feature. */
Test(cat_herd, accepted_and_named)
{
    cat_model_t *m = parse_ok("C RC11\n# a comment\nlet com = rf | co\nshow com, po as x\n"
                              "unshow po\nundefined_unless empty 0 as U\n"
                              "undefined_unless acyclic po as V\nacyclic po | com as sc\n");
    cr_assert_not_null(m);
    cat_exec_t x;
    fixture(&x);
    cat_result_t r = run(m, &x);
    cr_expect_eq(r.flags, 0, "empty 0 and acyclic po hold: no flag raised");
    cat_free(m);
    m = parse_ok("SC\nundefined_unless empty po as U\n");
    r = run(m, &x);
    cr_expect_neq(r.flags, 0, "po is not empty: U is raised");
    cat_free(m);
    expect_err("\"t\"\nif \"cos-opt\" let x = po end",
               "t.cat:2:1: herd7's 'if' is not supported by cohcheck's cat dialect "
               "(docs/models.md, \"herd's cat and cohcheck's\")");
    expect_err("acyclic po | match",
               "t.cat:1:14: unknown name 'match': herd7's (its language or standard library), "
               "not in cohcheck's cat dialect (docs/models.md, \"herd's cat and cohcheck's\")");
    expect_err("let s = {R}",
               "t.cat:1:9: not supported: herd7's sets of tags '{...}' (only "
               "'{}', the empty set) (docs/models.md, \"herd's cat and cohcheck's\")");
    expect_err("let rec f(r) = r", "t.cat:1:5: not supported: herd7's 'let rec' (recursive "
                                   "definitions) (docs/models.md, \"herd's cat and cohcheck's\")");
    expect_err("let f r = r", "t.cat:1:7: not supported: herd7's curried functions ('let f x = "
                              "...'; write 'let f(x) = ...') (docs/models.md, \"herd's cat and "
                              "cohcheck's\")");
    expect_err("let f(r) = r\nacyclic f(po, rf)", "t.cat:2:9: 'f' takes 1 argument, given 2");
    expect_err("let f(r) = r\nacyclic f", "t.cat:2:9: 'f' is a function: apply it, as in 'f(...)'");
    expect_err("let f(r) = r ; W\nacyclic f(po)",
               "t.cat:1:14: ';' (sequence) needs two relations, but the right operand is a set");
    expect_err("with x from generate_orders(R, co0)",
               "t.cat:1:29: not supported: generate_orders over a set not written as writes only "
               "('W & ...', IW, '{}') (docs/models.md, \"herd's cat and cohcheck's\")");
    expect_err("with x from generate_orders(W, po)",
               "t.cat:1:32: not supported: generate_orders(S, R) with R other than co0 "
               "(cohcheck's coherence orders extend co0 only) (docs/models.md, \"herd's cat and "
               "cohcheck's\")");
    expect_err("let x = try po", "t.cat:1:9: 'try' without its 'with'");
}

/* herd7's language: functions (lexically scoped), 'let ... in', 'let ... and
 * ...', 'try ... with', '{}' (empty set or relation, as its context needs). */
Test(cat_herd, functions_try_let_in)
{
    /* po: 0->1->2->3; rf: 0->3, 2->1 */
    cr_expect(rel_is("let f(r) = r ; r in f(po)", B(2), B(3), 0, 0));
    cr_expect(rel_is("let r = po in let f(s) = r ; s in let r = rf in f(r)", 0, B(1), 0, 0),
              "the body sees the r of its definition, not the caller's");
    cr_expect(rel_is("let x = po in let x = rf and y = x in y", B(1), B(2), B(3), 0));
    cr_expect(rel_is("try nosuch with po", B(1), B(2), B(3), 0));
    cr_expect(rel_is("try rf with po", B(3), 0, B(1), 0));
    cr_expect(rel_is("try (try nosuch with nosuch2) with rf", B(3), 0, B(1), 0));
    cr_expect(rel_is("po | {}", B(1), B(2), B(3), 0));
    cr_expect(set_is("R | {}", B(1) | B(3)));
    cr_expect(set_is("W & (try X with {}) | R", B(1) | B(3)));
    cat_model_t *m = parse_ok("with mo from generate_orders(W & (SC | IW), co0)\nacyclic mo\n"
                              "with lk from generate_orders({}, po)\nempty lk\n");
    cat_free(m);
}

/* A model that uses herd7's names (or has a herd header) sees herd7's C
 * events: an RMW is one event in R & W and rmw is empty; a native model sees
 * the read and the write apart. */
Test(cat_herd, rmw_one_event)
{
    cat_exec_t x; /* 0: IW, 1: the RMW's read, 2: its write */
    memset(&x, 0, sizeof x);
    x.n = 3;
    x.sets[CAT_SET_W] = B(0) | B(2);
    x.sets[CAT_SET_IW] = B(0);
    x.sets[CAT_SET_R] = B(1);
    x.sets[CAT_SET_M] = 7;
    for (int i = 0; i < 3; i++) {
        x.rels[CAT_REL_ID][i] = B(i);
        x.rels[CAT_REL_LOC][i] = 7;
    }
    x.rels[CAT_REL_PO][1] = B(2);
    x.rels[CAT_REL_RMW][1] = B(2);
    x.rels[CAT_REL_RF][0] = B(1);
    x.rels[CAT_REL_CO][0] = B(2);
    x.rels[CAT_REL_FR][1] = B(2);
    const char *flags = "flag ~empty (R & W) as one\nflag ~empty rmw as two\n"
                        "flag ~empty (fr | po) as loop\nflag ~empty (co ; fr) as cofr\n";
    char src[512];
    cat_model_t *m = parse_ok(flags);
    cr_expect_eq(run(m, &x).flags, 2u | 4u, "native: two events, rmw, po and fr between them");
    cat_free(m);
    snprintf(src, sizeof src, "SC\n%s", flags);
    m = parse_ok(src);
    cr_expect_eq(run(m, &x).flags, 1u, "herd header: one event, no rmw, no loop");
    cat_free(m);
    snprintf(src, sizeof src, "let a = po-loc\n%s", flags);
    m = parse_ok(src);
    cr_expect_eq(run(m, &x).flags, 1u, "a herd7 library name: one event");
    cat_free(m);
}

/* A file with a herd header gets herd's standard names, and include "cos.cat"
 * names the parts of co (cohcheck enumerates co itself). */
Test(cat_herd, stdlib_and_cos)
{
    cat_model_t *m = parse_ok("C T\ninclude \"cos.cat\"\nlet r = po-loc | rfe | rfi | coe | "
                              "coi | fre | fri | invrf | [RMW] | [ACQ_REL] | [A] | [NA] | [FW]\n"
                              "acyclic r as t\n");
    cr_assert_not_null(m);
    cat_free(m);
    m = parse_ok("\"no herd header\"\nacyclic po-loc | co0 | toid(W) | [emptyset]\n");
    cat_free(m);
}
