/* test_claims.c - the claims language (checker/report/claims.c): parse errors at their line
 * and column, labels from the rules, a tolerance change that flips a label, "within noise"
 * when the interval straddles a threshold, "not measured" when a run fails, and the 95%
 * interval itself. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../../checker/report/report.h"

/* Run values: cycles of protocol "a" are A[seed], of "b" are B[seed]; "x" fails. */
typedef struct {
    double a[8], b[8];
} data_t;

static int lookup(void *ctx, const claim_run_t *r, int seed, const char *field, double *v,
                  char *why, size_t n)
{
    const data_t *d = ctx;
    if (!strcmp(r->protocol, "x")) {
        snprintf(why, n, "the run of x failed");
        return -1;
    }
    *v = !strcmp(field, "cycles") ? (!strcmp(r->protocol, "a") ? d->a : d->b)[seed] : 1.0;
    return 0;
}

static claims_t *parse(const char *src)
{
    claims_t *c = claims_new();
    diag_t d;
    int rc = claims_parse(c, "t.claims", src, strlen(src), &d);
    cr_assert_eq(rc, 0, "parse failed: %d:%d: %s", d.line, d.col, d.msg);
    return c;
}

static void bad(const char *src, int line, int col, const char *what)
{
    claims_t *c = claims_new();
    diag_t d;
    cr_assert_eq(claims_parse(c, "t.claims", src, strlen(src), &d), -1, "no error for:\n%s", src);
    cr_expect_eq(claims_count(c), 0);
    cr_expect_eq(d.line, line, "line %d != %d (%s)", d.line, line, d.msg);
    cr_expect_eq(d.col, col, "col %d != %d (%s)", d.col, col, d.msg);
    cr_expect(strstr(d.msg, what) != NULL, "'%s' lacks '%s'", d.msg, what);
    claims_free(c);
}

/* A claim comparing t(b)/t(a) - 1, in percent, with the lower bound LO of its "yes" band. */
static char *speed_claim(const char *lo)
{
    static char buf[1024];
    snprintf(buf, sizeof buf,
             "claim c-1 {\n"
             "  title \"t\" source \"s\" quote \"q\" paper \"15%% faster\"\n"
             "  run a = fig w a\n"
             "  run b = fig w b\n"
             "  let sp = 100 * (b.cycles / a.cycles - 1)\n"
             "  show \"{sp}%%\"\n"
             "  yes when sp >= %s && sp <= 22.5\n"
             "  partly when sp > 0 because \"only {sp}%%\"\n"
             "  no because \"slower\"\n"
             "}\n",
             lo);
    return buf;
}

static claim_label_t label_of(const char *src, const data_t *d, int nseeds, claim_result_t *r)
{
    claims_t *c = parse(src);
    claims_eval(c, 0, nseeds, lookup, (void *)d, r);
    claim_label_t l = r->label;
    claims_free(c);
    return l;
}

Test(claims, tolerance_changes_label)
{
    data_t d = {{100, 100, 100}, {115.1, 115.1, 115.1}};
    claim_result_t r;
    cr_assert_eq(label_of(speed_claim("7.5"), &d, 3, &r), CLAIM_YES);
    cr_expect_str_eq(r.shown, "15.1%");
    claim_result_free(&r);
    cr_assert_eq(label_of(speed_claim("16"), &d, 3, &r), CLAIM_PARTLY);
    cr_expect_str_eq(r.note, "only 15.1%");
    cr_expect_str_eq(r.rule, "partly when sp > 0");
    claim_result_free(&r);
}

Test(claims, noise_when_interval_straddles)
{
    /* 15%, 16%, 17%: mean 16%, interval [13.5, 18.5]%, across the bound 16 under test but
     * clear of 7.5 and 22.5. */
    data_t d = {{100, 100, 100}, {115, 116, 117}};
    claim_result_t r;
    cr_assert_eq(label_of(speed_claim("16"), &d, 3, &r), CLAIM_NOISE);
    cr_expect_str_eq(r.note, "undecided over 3 seeds: `sp >= 16`: left - right = 0 "
                             "[-2.484, 2.484]");
    claim_result_free(&r);
    /* The same values with one seed: decided exactly. */
    cr_assert_eq(label_of(speed_claim("16"), &d, 1, &r), CLAIM_PARTLY);
    claim_result_free(&r);
    /* Clearly inside the band at every seed: yes, whatever the spread. */
    cr_assert_eq(label_of(speed_claim("7.5"), &d, 3, &r), CLAIM_YES);
    claim_result_free(&r);
}

Test(claims, not_measured_and_undefined)
{
    const char *src = "claim c { title \"t\" source \"s\" quote \"q\" paper \"p\"\n"
                      "  run a = fig w x\n  let v = a.cycles\n  show \"{v}\"\n"
                      "  yes when v > 0\n  no because \"n\" }\n";
    data_t d = {{1}, {1}};
    claim_result_t r;
    cr_assert_eq(label_of(src, &d, 2, &r), CLAIM_NOT_MEASURED);
    cr_expect_str_eq(r.note, "the run of x failed");
    claim_result_free(&r);
    const char *div = "claim c { title \"t\" source \"s\" quote \"q\" paper \"p\"\n"
                      "  run a = fig w a\n  let v = 1 / (a.cycles - a.cycles)\n  show \"{v}\"\n"
                      "  yes when v > 0\n  no because \"n\" }\n";
    cr_assert_eq(label_of(div, &d, 2, &r), CLAIM_NOT_MEASURED);
    cr_expect(strstr(r.note, "v is undefined") != NULL, "%s", r.note);
    claim_result_free(&r);
}

Test(claims, within_and_logic)
{
    const char *src = "claim c { title \"t\" source \"s\" quote \"q\" paper \"p\"\n"
                      "  run a = fig w a\n  run b = fig w b\n"
                      "  let r = a.cycles / b.cycles\n  show \"{r}\"\n"
                      "  yes when within(r, 1.0, 0.05) && !(r > 2)\n"
                      "  no because \"{r}\" }\n";
    data_t same = {{100, 100}, {100, 100}}, far = {{120, 120}, {100, 100}};
    claim_result_t r;
    cr_assert_eq(label_of(src, &same, 2, &r), CLAIM_YES);
    claim_result_free(&r);
    cr_assert_eq(label_of(src, &far, 2, &r), CLAIM_NO);
    cr_expect_str_eq(r.note, "1.200");
    claim_result_free(&r);
}

Test(claims, skip_and_runs)
{
    claims_t *c = parse("# a comment\nclaim s-1 { title \"t\" source \"s\" quote \"a \" \"b\" "
                        "paper \"p\" skip \"why\" }\n"
                        "claim r { title \"t\" source \"s\" quote \"q\" paper \"p\"\n"
                        "  run a = hs-relaxed SC gpu-wt@RELAXED=1 15 # trailing comment\n"
                        "  let v = a.cycles show \"{v}\" no because \"n\" }\n");
    cr_assert_eq(claims_count(c), 2);
    claim_result_t r;
    claims_eval(c, 0, 5, lookup, NULL, &r);
    cr_expect_eq(r.label, CLAIM_SKIPPED);
    cr_expect_str_eq(r.quote, "a b");
    cr_expect_str_eq(r.note, "why");
    claim_result_free(&r);
    const claim_run_t *runs;
    cr_assert_eq(claims_runs(c, 1, &runs), 1);
    cr_expect_str_eq(runs[0].figure, "hs-relaxed");
    cr_expect_str_eq(runs[0].protocol, "gpu-wt@RELAXED=1");
    cr_expect_str_eq(runs[0].point, "15");
    cr_expect_eq(runs[0].line, 4);
    cr_expect_eq(runs[0].col, 11);
    claims_free(c);
}

Test(claims, errors_at_line_and_column)
{
    bad("claim c {\n  title \"t\"\n  let a = nosuch.cycles\n}\n", 3, 11, "no run 'nosuch'");
    bad("claim c {\n  run a = f w p\n  let v = a.bogus\n}\n", 3, 13, "unknown field 'bogus'");
    bad("claim c {\n  run a = f w p\n  let v = a.cycles > 1\n}\n", 3, 11, "a number is needed");
    bad("claim c { title \"t\" source \"s\" quote \"q\" paper \"p\"\n  run a = f w p\n"
        "  let v = a.cycles show \"{w}\" }\n",
        3, 25, "{w} in the text is not a `let`");
    bad("claim c { title \"t\" source \"s\" quote \"q\" paper \"p\" show \"x\"\n"
        "  partly when 1 > 0\n  no because \"n\" }\n",
        3, 3, "needs `because");
    bad("claim c { title \"t\" source \"s\" quote \"q\" paper \"p\" show \"x\"\n"
        "  yes when 1 > 0 }\n",
        1, 1, "needs a last rule without `when`");
    bad("claim c { title \"t\" source \"s\" quote \"q\" paper \"p\" show \"x\"\n"
        "  yes\n  no because \"n\" }\n",
        3, 3, "a rule after the rule without `when`");
    bad("claim c { title \"t\" }\nclaim c { }\n", 1, 1, "a claim needs `source`");
    bad("claim c { title \"t\" source \"s\" quote \"q\" paper \"p\" show \"x\" no because \"n\" }\n"
        "claim c { }\n",
        2, 7, "claim c defined twice");
    bad("claim c { title \"t\n\" }\n", 1, 17, "");
    bad("claim c { run a = f w }\n", 1, 11, "a run is `run NAME");
    bad("claim c { let v = frob(1) }\n", 1, 19, "unknown function 'frob'");
    bad("claim c { let v = abs(1, 2) }\n", 1, 19, "wrong number of arguments");
    bad("claim c {\n  title \"t\"\n", 3, 1, "not closed");
    bad("claim c { bogus }", 1, 11, "expected title");
    bad("claim c { run a = f w p\n yes when a.cycles > 1\n no because \"n\" }", 2, 11,
        "read a run's field in a `let`");
}

Test(claims, ci95)
{
    double x[] = {1, 2, 3, 4, 5}, m, lo, hi;
    report_ci95(x, 5, &m, &lo, &hi);
    cr_expect_float_eq(m, 3.0, 1e-12);
    /* sd = sqrt(2.5), t(0.975, 4) = 2.776: half-width 2.776 * 1.5811 / 2.2361 = 1.963 */
    cr_expect_float_eq(hi - m, 2.776 * sqrt(2.5) / sqrt(5.0), 1e-9);
    cr_expect_float_eq(m - lo, hi - m, 1e-12);
    report_ci95(x, 1, &m, &lo, &hi);
    cr_expect(m == 1 && lo == 1 && hi == 1);
}
