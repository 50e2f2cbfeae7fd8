/* test_prog_scale.c - unit tests for scale files (checker/prog; docs/litmus.md "Workloads
 * at scale"): parameters and settings, thread templates and placement, location arrays,
 * unrolled for/if, quantified conditions, limits, and exact FILE:LINE:COL errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "../../checker/prog/prog.h"

static prog_t *parse_set(const char *src, const prog_setting_t *set, int nset, unsigned flags)
{
    prog_t *p = NULL;
    diag_t d;
    int rc = prog_parse_params("s.litmus", src, strlen(src), set, nset, flags, &p, &d);
    cr_assert_eq(rc, 0, "parse failed: %s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    return p;
}

static prog_t *parse_ok(const char *src)
{
    return parse_set(src, NULL, 0, 0);
}

static void bad_set(const char *src, const prog_setting_t *set, int nset, unsigned flags, int line,
                    int col, const char *what)
{
    prog_t *p = NULL;
    diag_t d;
    int rc = prog_parse_params("s.litmus", src, strlen(src), set, nset, flags, &p, &d);
    cr_assert_eq(rc, -1, "expected an error for:\n%s", src);
    cr_assert_null(p);
    cr_expect_eq(d.line, line, "line %d != %d (%s)", d.line, line, d.msg);
    cr_expect_eq(d.col, col, "col %d != %d (%s)", d.col, col, d.msg);
    cr_expect(strstr(d.msg, what) != NULL, "message '%s' lacks '%s'", d.msg, what);
}

static void bad(const char *src, int line, int col, const char *what)
{
    bad_set(src, NULL, 0, 0, line, col, what);
}

static int loc(const prog_t *p, const char *name)
{
    for (int i = 0; i < p->nlocs; i++)
        if (!strcmp(p->locs[i].name, name))
            return i;
    return -1;
}

static const char *mutex = "GPU M\n"
                           "param CUS = 2\n"
                           "param TBS = 2\n"
                           "let THREADS = CUS * TBS\n"
                           "{ }\n"
                           "threads TB[THREADS] @wg(tid / TBS):cu(tid / TBS) {\n"
                           "  acq: cas.acq.wg r0 lock[cu] 0 1 ;\n"
                           "       bne r0 0 acq ;\n"
                           "       ld r1 data[cu][tid % TBS] ;\n"
                           "       st data[cu][tid % TBS] (r1 + 1) ;\n"
                           "       st.rel.wg lock[cu] 0 ;\n"
                           "}\n"
                           "forall (all c in 0..CUS-1 : lock[c] = 0)\n";

Test(prog_scale, template_expands_threads_placement_and_arrays)
{
    /* (r1 + 1) is not an expression over registers: registers are not names. */
    bad(mutex, 10, 32, "unknown name 'r1'");
    const char *ok = "GPU M\n"
                     "param CUS = 2\n"
                     "param TBS = 2\n"
                     "let THREADS = CUS * TBS\n"
                     "{ }\n"
                     "threads TB[THREADS] @wg(tid / TBS):cu(tid / TBS) {\n"
                     "  acq: cas.acq.wg r0 lock[cu] 0 1 ;\n"
                     "       bne r0 0 acq ;\n"
                     "       st data[cu][tid % TBS] (tid + 10) ;\n"
                     "       st.rel.wg lock[cu] 0 ;\n"
                     "}\n"
                     "forall (all c in 0..CUS-1 : lock[c] = 0)\n";
    prog_t *p = parse_ok(ok);
    cr_assert_eq(p->nthreads, 4);
    for (int t = 0; t < 4; t++) {
        cr_assert_eq(p->threads[t].wg, t / 2);
        cr_assert_eq(p->threads[t].cu, t / 2);
        cr_assert_eq(p->threads[t].ninstr, 4);
        cr_assert_eq(p->threads[t].instr[1].target, 0); /* each thread's own label */
        char want[32];
        snprintf(want, sizeof want, "lock[%d]", t / 2);
        cr_assert_eq(p->threads[t].instr[0].loc, loc(p, want));
        snprintf(want, sizeof want, "data[%d][%d]", t / 2, t % 2);
        cr_assert_eq(p->threads[t].instr[2].loc, loc(p, want));
        cr_assert_eq(p->threads[t].instr[2].a.v, t + 10);
        cr_assert_eq(p->threads[t].instr[0].scope, PROG_SCOPE_WG);
    }
    cr_assert_eq(p->nlocs, 6);
    cr_assert_eq(p->nparams, 3);
    cr_assert_str_eq(p->params[2].name, "THREADS");
    cr_assert(p->params[2].derived);
    cr_assert_eq(prog_param_find(p, "THREADS")->value, 4);
    cr_assert_null(prog_param_find(p, "NOPE"));
    /* The quantifier became a conjunction over both CUs. */
    cr_assert_eq(p->cond->kind, PROG_COND_AND);
    cr_assert_eq(p->cond->a->loc, loc(p, "lock[0]"));
    cr_assert_eq(p->cond->b->loc, loc(p, "lock[1]"));
    prog_free(p);
}

/* `simt` marks a template's threads as SIMT lanes (timed mode's warps): each gets the
 * template's number (its first thread + 1), a table thread or a plain template 0. */
Test(prog_scale, simt_templates)
{
    prog_t *p = parse_ok("GPU S\n{ x = 0; }\n P0 ;\n ld r0 x ;\n"
                         "threads A[2] @wg1 simt {\n ld r1 x ;\n}\n"
                         "threads B[2] @wg2 {\n ld r1 x ;\n}\n"
                         "threads C[3] @wg(tid / 2) simt {\n st x 1 ;\n}\n"
                         "forall (x = 1)\n");
    cr_assert_eq(p->nthreads, 8);
    int want[8] = {0, 2, 2, 0, 0, 6, 6, 6};
    for (int t = 0; t < 8; t++)
        cr_assert_eq(p->threads[t].simt, want[t], "thread %d: simt %d", t, p->threads[t].simt);
    cr_assert_eq(p->threads[5].wg, 0);
    cr_assert_eq(p->threads[7].wg, 1);
    prog_free(p);
    bad("GPU S\n{ x = 0; }\nthreads A[2] simd {\n ld r1 x ;\n}\nforall (x = 0)\n", 3, 14,
        "'{' starting the thread body (or 'simt')");
    bad("GPU S\n{ x = 0; }\nthreads A[2] simt simt {\n ld r1 x ;\n}\nforall (x = 0)\n", 3, 19,
        "'{' starting the thread body");
}

Test(prog_scale, settings_override_defaults_and_lets_follow)
{
    const char *src = "GPU S\n"
                      "param N = 2\n"
                      "let M = N * 3 + 1\n"
                      "{ x[0..N-1] = M; }\n"
                      "threads T[N] { st y[tid] M ; }\n"
                      "forall (all i in 0..N-1 : x[i] = M /\\ y[i] = M)\n";
    prog_setting_t set[] = {{"N", 5}};
    prog_t *p = parse_set(src, set, 1, PROG_PARAMS_STRICT);
    cr_assert_eq(p->nthreads, 5);
    cr_assert(prog_param_find(p, "N")->set);
    cr_assert_eq(prog_param_find(p, "M")->value, 16);
    cr_assert_eq(p->locs[loc(p, "x[4]")].init, 16);
    cr_assert_eq(p->threads[4].instr[0].loc, loc(p, "y[4]"));
    cr_assert_eq(p->threads[4].instr[0].a.v, 16);
    prog_free(p);
    /* Not strict: a setting the file does not declare is ignored (and visible). */
    prog_setting_t other[] = {{"OTHER", 1}};
    p = parse_set(src, other, 1, 0);
    cr_assert_eq(p->nthreads, 2);
    cr_assert_null(prog_param_find(p, "OTHER"));
    prog_free(p);
    bad_set(src, other, 1, PROG_PARAMS_STRICT, 1, 1, "--param OTHER: the test declares no such");
    prog_setting_t let[] = {{"M", 1}};
    bad_set(src, let, 1, 0, 3, 5, "M is a let");
    prog_setting_t big[] = {{"N", 40000}};
    bad_set(src, big, 1, 0, 2, 11, "N = 40000 (as set) out of range (0..32767)");
}

/* `param N = E timed T`: T with PROG_PARAMS_TIMED, E without; a setting beats both. */
Test(prog_scale, timed_defaults)
{
    const char *src = "GPU T\n"
                      "param N = 2 timed 4\n"
                      "param K = 1\n"
                      "{ }\n"
                      "threads T[N] { st x[tid] K ; }\n"
                      "forall (all i in 0..N-1 : x[i] = K)\n";
    prog_t *p = parse_set(src, NULL, 0, 0);
    cr_assert_eq(p->nthreads, 2);
    prog_free(p);
    p = parse_set(src, NULL, 0, PROG_PARAMS_TIMED);
    cr_assert_eq(p->nthreads, 4);
    cr_assert_eq(prog_param_find(p, "K")->value, 1);
    prog_free(p);
    prog_setting_t set[] = {{"N", 3}};
    p = parse_set(src, set, 1, PROG_PARAMS_TIMED);
    cr_assert_eq(p->nthreads, 3);
    prog_free(p);
    bad_set("GPU T\nparam N = 2\nlet M = N timed 3\n{ }\nthreads T[1] { st x M ; }\n"
            "forall (x = 2)\n",
            NULL, 0, 0, 3, 11, "a let has no timed default");
    bad_set("GPU T\nparam N = 2 timed 40000\n{ }\nthreads T[1] { st x N ; }\nforall (x = 2)\n",
            NULL, 0, PROG_PARAMS_TIMED, 2, 19, "N = 40000 out of range");
}

Test(prog_scale, for_if_and_scoped_labels)
{
    const char *src = "GPU F\n"
                      "param K = 3\n"
                      "{ }\n"
                      "threads T[2] {\n"
                      "  top: for i in 0..K-1 { w: ld r0 f[i] ; beq r0 0 w ; bne r0 9 top ; }\n"
                      "  if tid { st x 1 ; } else { st x 2 ; st x 3 ; }\n"
                      "  for j in 1..0 { st never 1 ; }\n"
                      "}\n"
                      "forall (0:r0 = 1 /\\ 1:r0 = 1)\n";
    prog_t *p = parse_ok(src);
    cr_assert_eq(p->threads[0].ninstr, 9 + 2);
    cr_assert_eq(p->threads[1].ninstr, 9 + 1);
    for (int i = 0; i < 3; i++) {
        const prog_instr_t *beq = &p->threads[0].instr[3 * i + 1];
        cr_assert_eq(beq->target, 3 * i);                       /* w of its own iteration */
        cr_assert_eq(p->threads[0].instr[3 * i + 2].target, 0); /* top: outside the loop */
    }
    cr_assert_eq(p->threads[0].instr[9].a.v, 2);
    cr_assert_eq(p->threads[1].instr[9].a.v, 1);
    cr_assert_eq(loc(p, "never"), -1);
    prog_free(p);
}

Test(prog_scale, expressions)
{
    const char *src = "GPU E\n"
                      "param A = 7\n"
                      "let B = (A - 10) % 4\n"     /* floor: 1 */
                      "let C = (A - 10) / 4 + 5\n" /* floor: -1 + 5 */
                      "let D = -(A * 2) + 20\n"    /* 6 */
                      "{ }\n"
                      "threads T[1] { st x (B + 10 * (C - 4) + D) ; }\n"
                      "forall (x = B + D)\n";
    prog_t *p = parse_ok(src);
    cr_assert_eq(prog_param_find(p, "B")->value, 1);
    cr_assert_eq(prog_param_find(p, "C")->value, 4);
    cr_assert_eq(prog_param_find(p, "D")->value, 6);
    cr_assert_eq(p->threads[0].instr[0].a.v, 7);
    cr_assert_eq(p->cond->val, 7);
    prog_free(p);
}

Test(prog_scale, condition_threads_by_template_name)
{
    const char *src = "GPU Q\n"
                      "param N = 3\n"
                      "{ }\n"
                      "threads MAIN[1] @wg0:cu0 { mov r1 5 ; }\n"
                      "threads W[N] @wg(tid + 1):cu((tid + 1) % 2) { mov r2 tid ; }\n"
                      "forall (MAIN:r1 = 5 /\\ (all t in W..W+N-1 : t:r2 = t - W) /\\ "
                      "(any t in 0..-1 : x = 1) \\/ false)\n";
    /* 'x' is named only under an empty 'any': skipped, so no error. */
    prog_t *p = parse_ok(src);
    cr_assert_eq(p->nthreads, 4);
    cr_assert_eq(p->threads[3].wg, 3);
    cr_assert_eq(p->threads[3].cu, 1);
    prog_val_t regs[4][PROG_MAX_REGS] = {{0}};
    regs[0][1] = 5;
    regs[2][2] = 1;
    regs[3][2] = 2;
    cr_assert(!prog_cond_eval(p->cond, (const prog_val_t(*)[PROG_MAX_REGS])regs, NULL));
    prog_free(p);
    const char *src2 = "GPU Q\n"
                       "param N = 3\n"
                       "{ }\n"
                       "threads W[N] { mov r2 tid ; }\n"
                       "forall (all t in 0..N-1 : t:r2 = t)\n";
    p = parse_ok(src2);
    prog_val_t regs2[3][PROG_MAX_REGS] = {{0}};
    regs2[1][2] = 1;
    regs2[2][2] = 2;
    cr_assert(prog_cond_eval(p->cond, (const prog_val_t(*)[PROG_MAX_REGS])regs2, NULL));
    regs2[2][2] = 0;
    cr_assert(!prog_cond_eval(p->cond, (const prog_val_t(*)[PROG_MAX_REGS])regs2, NULL));
    prog_free(p);
}

Test(prog_scale, scale_limits_and_values)
{
    /* A scale file takes literals up to 32767 and more than 16 threads. */
    const char *src = "GPU L\n"
                      "param N = 40\n"
                      "{ x = 30000; }\n"
                      "threads T[N] @wg(tid):cu(tid) { st x 32767 ; }\n"
                      "forall (x = 32767)\n";
    prog_t *p = parse_ok(src);
    cr_assert_eq(p->nthreads, 40);
    cr_assert_eq(p->threads[39].cu, 39);
    prog_free(p);
    bad("GPU L\nparam N = 1\n{ }\nthreads T[N] { st x 32768 ; }\nforall (x = 1)\n", 4, 21,
        "out of range (0..32767)");
    bad("GPU L\nparam N = 4097\n{ }\nthreads T[N] { st x 1 ; }\nforall (x = 1)\n", 4, 11,
        "thread count 4097 out of range (0..4096)");
    bad("GPU L\nparam N = 1\n{ }\nthreads T[N] { st x[70000] 1 ; }\nforall (x = 1)\n", 4, 21,
        "index 70000 out of range (0..65535)");
    bad("GPU L\nparam N = 1\n{ }\nthreads T[N] @wg(5000) { st x 1 ; }\nforall (x = 1)\n", 4, 17,
        "work-group 5000 out of range");
    /* A classic table keeps its limits and messages. */
    bad("GPU t\n{}\n P0 ;\n st x 256 ;\nexists (true)\n", 4, 7, "out of range (0..255)");
}

Test(prog_scale, errors)
{
    bad("GPU E\nparam N = 1\nparam N = 2\n{ }\nthreads T[1] { st x 1 ; }\nforall (x = 1)\n", 3, 7,
        "parameter N defined twice");
    bad("GPU E\nparam n = 1\n{ }\nthreads T[1] { st x 1 ; }\nforall (x = 1)\n", 2, 7,
        "a parameter name");
    bad("GPU E\nparam N = 1 / 0\n{ }\nthreads T[1] { st x 1 ; }\nforall (x = 1)\n", 2, 13,
        "division by zero");
    bad("GPU E\nparam N = 1\n{ }\nthreads T[1] { st x (N ; }\nforall (x = 1)\n", 4, 24,
        "')' closing the expression");
    bad("GPU E\nparam N = 1\n{ }\nthreads T[1] { st x 1 ;\nforall (x = 1)\n", 5, 1,
        "expected '}' closing the thread body, found 'forall'");
    bad("GPU E\nparam N = 1\n{ }\nthreads T[2] { L: st x 1 ; L: st x 2 ; }\nforall (x = 1)\n", 4,
        28, "label 'L' defined twice");
    bad("GPU E\nparam N = 1\n{ }\nthreads T[1] { for r0 in 0..1 { st x 1 ; } }\nforall (x = 1)\n",
        4, 20, "a new loop variable");
    bad("GPU E\nparam N = 1\n{ }\nthreads T[2] @wg0:cu(tid) { st x 1 ; }\nforall (x = 1)\n", 4, 9,
        "work-group wg0 placed on cu0 and cu1");
    bad("GPU E\nparam N = 1\n{ }\nthreads T[1] { mov r0 1 ; }\nforall (all t in 0..1 : t:r0 = 1)\n",
        5, 25, "condition names thread 1");
    bad("GPU E\nparam N = 1\n{ }\n", 4, 1, "expected thread name P0");
    bad("GPU E\nparam N = 1\n{ }\nthreads t[1] { st x 1 ; }\nforall (x = 1)\n", 4, 9,
        "a new template name");
    /* A location index needs a bound name. */
    bad("GPU E\nparam N = 1\n{ }\nthreads T[1] { st x[i] 1 ; }\nforall (x = 1)\n", 4, 21,
        "unknown name 'i'");
}
