/* test_prog.c - unit tests for the litmus parser (checker/prog): the whole
 * docs/architecture.md section 2 format, and exact FILE:LINE:COL errors for bad input. */
#include <criterion/criterion.h>
#include <string.h>

#include "../../checker/prog/prog.h"

static prog_t *parse_ok(const char *src)
{
    prog_t *p = NULL;
    diag_t d;
    int rc = prog_parse("t.litmus", src, strlen(src), &p, &d);
    cr_assert_eq(rc, 0, "parse failed: %s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    return p;
}

/* Parse SRC expecting an error at LINE:COL whose message contains WHAT. */
static void parse_bad(const char *src, int line, int col, const char *what)
{
    prog_t *p = NULL;
    diag_t d;
    int rc = prog_parse("t.litmus", src, strlen(src), &p, &d);
    cr_assert_eq(rc, -1, "expected an error for:\n%s", src);
    cr_assert_str_eq(d.file, "t.litmus");
    cr_expect_eq(d.line, line, "line %d != %d (%s)", d.line, line, d.msg);
    cr_expect_eq(d.col, col, "col %d != %d (%s)", d.col, col, d.msg);
    cr_expect(strstr(d.msg, what) != NULL, "message '%s' lacks '%s'", d.msg, what);
}

static const char *mp = "GPU MP+rel+acq\n"
                        "\"Message passing\"\n"
                        "{ x = 0; y = 0; }\n"
                        " P0@wg0          | P1@wg1             ;\n"
                        " st x 1          | ld.acq.agent r0 y  ;\n"
                        " st.rel.agent y 1| ld r1 x            ;\n"
                        "exists (1:r0 = 1 /\\ 1:r1 = 0)\n";

Test(prog, message_passing)
{
    prog_t *p = parse_ok(mp);
    cr_assert_str_eq(p->name, "MP+rel+acq");
    cr_assert_str_eq(p->desc, "Message passing");
    cr_assert_eq(p->nthreads, 2);
    cr_assert_eq(p->nlocs, 2);
    cr_assert_eq(p->nlines, 2);
    cr_assert_eq(p->threads[0].ninstr, 2);
    const prog_instr_t *st = &p->threads[0].instr[1];
    cr_assert_eq(st->op, PROG_OP_ST);
    cr_assert_eq(st->ord, PROG_ORD_REL);
    cr_assert_eq(st->scope, PROG_SCOPE_AGENT);
    cr_assert_eq(st->a.v, 1);
    const prog_instr_t *ld = &p->threads[1].instr[0];
    cr_assert_eq(ld->op, PROG_OP_LD);
    cr_assert_eq(ld->ord, PROG_ORD_ACQ);
    cr_assert_eq(ld->reg, 0);
    cr_assert_eq(ld->line, 5);
    cr_assert_eq(ld->col, 20);
    const prog_instr_t *plain = &p->threads[0].instr[0];
    cr_assert_eq(plain->ord, PROG_ORD_PLAIN);
    cr_assert_eq(plain->scope, PROG_SCOPE_NONE);
    cr_assert_eq(p->quant, PROG_EXISTS);
    cr_assert_eq(p->cond->kind, PROG_COND_AND);
    prog_val_t regs[PROG_MAX_THREADS][PROG_MAX_REGS] = {{0}};
    prog_val_t mem[2] = {1, 1};
    regs[1][0] = 1;
    cr_assert(prog_cond_eval(p->cond, (const prog_val_t(*)[PROG_MAX_REGS])regs, mem));
    regs[1][1] = 1;
    cr_assert(!prog_cond_eval(p->cond, (const prog_val_t(*)[PROG_MAX_REGS])regs, mem));
    strbuf_t b;
    sb_init(&b);
    prog_cond_format(p, &b);
    cr_assert_str_eq(b.s, "exists (1:r0=1 /\\ 1:r1=0)");
    sb_free(&b);
    prog_free(p);
}

Test(prog, placement_defaults_and_cu)
{
    prog_t *p = parse_ok("GPU place\n{}\n P0 | P1@wg0 | P2@wg3:cu1 | P3@wg3 ;\n"
                         " fence | fence | fence | fence ;\nexists (true)\n");
    cr_assert_eq(p->threads[0].wg, 0);
    cr_assert_eq(p->threads[0].cu, 0);
    cr_assert_eq(p->threads[1].wg, 0);
    cr_assert_eq(p->threads[1].cu, 0);
    cr_assert_eq(p->threads[2].wg, 3);
    cr_assert_eq(p->threads[2].cu, 1);
    cr_assert_eq(p->threads[3].cu, 1, "a work-group's CU applies to all its threads");
    cr_assert_eq(p->threads[0].instr[0].ord, PROG_ORD_ACQREL);
    cr_assert_eq(p->threads[0].instr[0].scope, PROG_SCOPE_AGENT);
    prog_free(p);
}

Test(prog, every_instruction)
{
    prog_t *p = parse_ok("GPU all (* a comment *)\n{ x = 3; }\n"
                         "P0 ;\n"
                         "ld.rlx.wg r1 x ;\n"
                         "st.sc.system x r1 ;\n"
                         "rmw.add r2 x 5 ;\n"
                         "rmw.exch.acq.rm_agent r3 x r2 ;\n"
                         "cas.rel r4 x 1 2 ;\n"
                         "fence.sc.wg ;\n"
                         "mov r5 7 ;\n"
                         "add r6 r5 1 ;\n"
                         "L: beq r6 8 L2 ;\n"
                         "bne r6 0 L ;\n"
                         "L2: ;\n"
                         "b END ;\n"
                         "END: ;\n"
                         "~exists (0:r6 = 8 \\/ ~(x = 2) /\\ false)\n");
    const prog_thread_t *t = &p->threads[0];
    cr_assert_eq(t->ninstr, 11);
    cr_assert_eq(p->locs[0].init, 3);
    cr_assert_eq(t->instr[0].scope, PROG_SCOPE_WG);
    cr_assert_eq(t->instr[1].a.is_reg, true);
    cr_assert_eq(t->instr[2].rmw, PROG_RMW_ADD);
    cr_assert_eq(t->instr[2].ord, PROG_ORD_ACQREL);
    cr_assert_eq(t->instr[3].rmw, PROG_RMW_EXCH);
    cr_assert_eq(t->instr[3].scope, PROG_SCOPE_RM_AGENT);
    cr_assert_eq(t->instr[4].op, PROG_OP_CAS);
    cr_assert_eq(t->instr[4].b.v, 2);
    cr_assert_eq(t->instr[5].op, PROG_OP_FENCE);
    cr_assert_eq(t->instr[5].ord, PROG_ORD_SC);
    cr_assert_eq(t->instr[8].target, 10, "L2 stands alone: it labels the next instruction");
    cr_assert_eq(t->instr[9].target, 8);
    cr_assert_eq(t->instr[10].target, 11, "a trailing label is the thread's end");
    cr_assert_eq(p->quant, PROG_NOT_EXISTS);
    cr_assert_eq(p->cond->kind, PROG_COND_OR, "/\\ binds tighter than \\/");
    prog_free(p);
}

Test(prog, sameline_groups)
{
    prog_t *p =
        parse_ok("GPU sl\n{ x = 0; }\nsameline x y\nsameline z w\n"
                 "P0 ;\n st x 1 ;\n st y 1 ;\n st z 1 ;\n st w 1 ;\n st v 1 ;\nexists (x=1)\n");
    cr_assert_eq(p->nlocs, 5);
    cr_assert_eq(p->nlines, 3);
    cr_assert_eq(p->locs[0].line_id, p->locs[1].line_id);
    cr_assert_eq(p->locs[2].line_id, p->locs[3].line_id);
    cr_assert_neq(p->locs[0].line_id, p->locs[2].line_id);
    cr_assert_neq(p->locs[4].line_id, p->locs[0].line_id);
    prog_free(p);
}

Test(prog, empty_cells_and_forall)
{
    prog_t *p = parse_ok(
        "GPU e\n{}\n P0 | P1 ;\n st x 1 | ;\n | ld r0 x ;\n ; \nforall (1:r0 = 0 \\/ 1:r0 = 1)\n");
    cr_assert_eq(p->threads[0].ninstr, 1);
    cr_assert_eq(p->threads[1].ninstr, 1);
    cr_assert_eq(p->quant, PROG_FORALL);
    prog_free(p);
}

Test(prog_errors, header)
{
    parse_bad("CPU x\n", 1, 1, "expected 'GPU'");
    parse_bad("GPU\n{}\n", 1, 4, "test name");
    parse_bad("GPU a b\n", 1, 7, "after the test name");
    parse_bad("", 1, 1, "expected 'GPU'");
}

Test(prog_errors, init_and_tokens)
{
    parse_bad("GPU t\n{ x = 300; }\n", 2, 7, "out of range (0..255)");
    parse_bad("GPU t\n{ x = -1; }\n", 2, 7, "expected an initial value (0..255)");
    parse_bad("GPU t\n{ x = 1; x = 2; }\n", 2, 10, "initialised twice");
    parse_bad("GPU t\n{ X = 1; }\n", 2, 3, "location name");
    parse_bad("GPU t\n{ x = 1 }\n P0 ;\n st x $ ;\n", 4, 7, "unexpected character '$'");
    parse_bad("GPU t\n(* open\n{}", 2, 1, "unterminated comment");
    parse_bad("GPU t\n\"no end\n{}", 2, 1, "unterminated string");
}

Test(prog_errors, threads_and_instructions)
{
    parse_bad("GPU t\n{}\n P1 ;\n", 3, 2, "thread name P0");
    parse_bad("GPU t\n{}\n P0 ;\n st x 1 | st y 1 ;\nexists (x=1)\n", 4, 11,
              "more cells than threads");
    parse_bad("GPU t\n{}\n P0 ;\n ldx r0 x ;\nexists (true)\n", 4, 2, "unknown instruction");
    parse_bad("GPU t\n{}\n P0 ;\n ld.rel r0 x ;\nexists (true)\n", 4, 5, "not allowed on ld");
    parse_bad("GPU t\n{}\n P0 ;\n st.acq x 1 ;\nexists (true)\n", 4, 5, "not allowed on st");
    parse_bad("GPU t\n{}\n P0 ;\n ld.acq.cta r0 x ;\nexists (true)\n", 4, 9,
              "unknown order or scope");
    parse_bad("GPU t\n{}\n P0 ;\n ld r16 x ;\nexists (true)\n", 4, 5, "register");
    parse_bad("GPU t\n{}\n P0 ;\n st x 256 ;\nexists (true)\n", 4, 7, "out of range");
    parse_bad("GPU t\n{}\n P0 ;\n st x (300) ;\nexists (true)\n", 4, 7, "out of range");
    parse_bad("GPU t\n{}\n P0 ;\n st x -1 ;\nexists (true)\n", 4, 7, "a value (0..255)");
    parse_bad("GPU t\n{}\n P0 ;\n bne r0 1 NOPE ;\nexists (true)\n", 4, 11,
              "undefined label 'NOPE'");
    parse_bad("GPU t\n{}\n P0 ;\n L: fence ;\n L: fence ;\nexists (true)\n", 5, 2, "defined twice");
    parse_bad("GPU t\n{}\n P0 ;\n st.rm_agent x 1 ;\nexists (true)\n", 4, 2, "atomics only");
    parse_bad("GPU t\n{}\n P0 ;\n rmw.sub r0 x 1 ;\nexists (true)\n", 4, 6,
              "unknown rmw operation");
    parse_bad("GPU t\n{}\n P0@wg0:cu0 | P1@wg0:cu1 ;\n", 3, 22, "placed on cu0 and cu1");
    parse_bad("GPU t\n{}\n P0 ;\n st x 1 ;\n", 5, 1, "final condition");
}

Test(prog_errors, condition)
{
    parse_bad("GPU t\n{}\n P0 ;\n ld r0 x ;\nexists (2:r0 = 1)\n", 5, 9, "thread 2");
    parse_bad("GPU t\n{}\n P0 ;\n ld r0 x ;\nexists (0:r1 = 1)\n", 5, 11, "register 0:r1");
    parse_bad("GPU t\n{}\n P0 ;\n ld r0 x ;\nexists (y = 1)\n", 5, 9, "location 'y'");
    parse_bad("GPU t\n{}\n P0 ;\n ld r0 x ;\nexists (x = 1\n", 6, 1, "')'");
    parse_bad("GPU t\n{}\n P0 ;\n ld r0 x ;\nexists (x = 1) junk\n", 5, 16, "end of file");
    /* A NUL byte is not a name character (found by fuzzing: strchr matched the terminator). */
    {
        const char nul[] = "GPU a\0b\n{}\n P0 ;\n st x 1 ;\nexists (x = 1)\n";
        prog_t *p = NULL;
        diag_t d;
        cr_expect_eq(prog_parse("t.litmus", nul, sizeof nul - 1, &p, &d), -1);
        cr_expect_eq(d.line, 1);
        cr_expect_eq(d.col, 6, "col %d (%s)", d.col, d.msg);
    }
    /* An unclosed '(' under '~' (found by fuzzing: the '~' freed its operand twice). */
    parse_bad("GPU t\n{}\n P0 ;\n ld r0 x ;\nexists (x = 1 /\\ ~(x = 1 /\\ ~(0:r0 = 0)\n", 6, 1,
              "')'");
}

Test(prog_errors, deep_nesting_does_not_crash)
{
    char src[4096] = "GPU t\n{}\n P0 ;\n ld r0 x ;\nexists ";
    size_t n = strlen(src);
    for (int i = 0; i < 1000; i++)
        src[n++] = '(';
    src[n] = 0;
    prog_t *p;
    diag_t d;
    cr_assert_eq(prog_parse("t", src, strlen(src), &p, &d), -1);
    cr_assert(strstr(d.msg, "nested too deeply"));
}

/* herd7's C dialect: translated to the same program as the native test. */
Test(prog, herd_c_dialect)
{
    const char *c = "// a comment before the header\n"
                    "C MP+rel+acq\n"
                    "{ *x = 0; [y] = 0; }\n"
                    "P0 (atomic_int* x, atomic_int* y) {\n"
                    "  *x = 1; /* plain */\n"
                    "  atomic_store_explicit(y, 1, memory_order_release);\n"
                    "}\n"
                    "P1 (atomic_int* x, atomic_int* y) {\n"
                    "  int r0 = atomic_load_explicit(y, memory_order_acquire);\n"
                    "  int r1 = 0;\n"
                    "  if (r0 == 1) { r1 = *x; }\n"
                    "}\n"
                    "exists (1:r0=1 /\\ 1:r1=0)\n";
    cr_assert(prog_is_c(c, strlen(c)));
    cr_assert_not(prog_is_c(mp, strlen(mp)));
    prog_t *p = parse_ok(c);
    cr_expect_str_eq(p->name, "MP+rel+acq");
    cr_expect_eq(p->nthreads, 2);
    cr_expect_eq(p->threads[0].ninstr, 2);
    cr_expect_eq(p->threads[0].instr[0].op, PROG_OP_ST);
    cr_expect_eq(p->threads[0].instr[0].ord, PROG_ORD_PLAIN);
    cr_expect_eq(p->threads[0].instr[1].ord, PROG_ORD_REL);
    cr_expect_eq(p->threads[0].instr[1].scope, PROG_SCOPE_AGENT);
    cr_expect_eq(p->threads[0].instr[1].line, 6, "instructions keep their C lines");
    /* ld.acq r0 y; bne r0 1 E; ld r1 x; E: the end (int r1 = 0 needs no instruction) */
    cr_expect_eq(p->threads[1].ninstr, 3);
    cr_expect_eq(p->threads[1].instr[1].op, PROG_OP_BNE);
    cr_expect_eq(p->threads[1].instr[1].target, 3);
    cr_expect_eq(p->threads[1].instr[2].reg, 1);
    cr_expect(p->source[0] == '/', "the stored source is the C text");
    strbuf_t b;
    sb_init(&b);
    char why[100];
    cr_assert_eq(prog_to_herd(p, &b, why, sizeof why), 0, "%s", why);
    cr_expect(strstr(b.s, "C MP+rel+acq\n"), "%s", b.s);
    cr_expect(strstr(b.s, "  if (r0 == 1) {\n    r1 = *x;\n  }\n"), "%s", b.s);
    prog_t *q = parse_ok(b.s);
    cr_expect_eq(q->threads[1].ninstr, 3);
    prog_free(q);
    sb_free(&b);
    prog_free(p);
    /* Errors at the C file's positions; one the native reader finds, at the C line. */
    parse_bad("C t\n{}\nP0 (atomic_int* x) {\n  while (1) {}\n}\nexists (x=1)\n", 4, 3,
              "'while' is not supported");
    parse_bad("C t\n{}\nP0 (atomic_int* x) {\n  int r3;\n}\nexists (0:r3=1)\n", 6, 1,
              "does not use");
    /* No C form: loops and remote scope. */
    prog_t *l = parse_ok("GPU t\n{}\n P0 ;\n L: ld r0 x ;\n beq r0 0 L ;\nexists (x = 0)\n");
    sb_init(&b);
    cr_expect_eq(prog_to_herd(l, &b, why, sizeof why), -1);
    cr_expect(strstr(why, "loop"), "%s", why);
    sb_free(&b);
    prog_free(l);
}

/* Values: negative and 64-bit literals in both formats (herd7's C values are
 * signed), their positions, and what each consumer's range refuses. */
Test(prog, signed_and_wide_values)
{
    /* A native table keeps the litmus format's values, 0..255 (errors above); a C test's
     * values are any int64. */
    prog_t *p = parse_ok("C v\n{ x = -5; y = 9223372036854775807; }\n"
                         "P0 (atomic_long* x, atomic_long* y) {\n"
                         "  atomic_store_explicit(x, -9223372036854775808, memory_order_relaxed);\n"
                         "  long r0 = atomic_fetch_add_explicit(y, -1, memory_order_relaxed);\n"
                         "}\n"
                         "exists (0:r0=-1 /\\ x=-9223372036854775808)\n");
    cr_expect_eq(p->locs[0].init, -5);
    cr_expect_eq(p->locs[0].init_line, 2);
    cr_expect_eq(p->locs[1].init, INT64_MAX);
    cr_expect_eq(p->threads[0].instr[0].a.v, INT64_MIN);
    cr_expect_eq(p->threads[0].instr[1].a.v, -1);
    cr_expect_eq(p->cond->kind, PROG_COND_AND);
    cr_expect_eq(p->cond->a->val, -1);
    cr_expect_eq(p->cond->b->val, INT64_MIN);
    /* The first literal outside a range, where it was written (a C test: column 1). */
    prog_val_t v;
    int line, col;
    cr_expect(prog_value_outside(p, -32767, 32767, &v, &line, &col));
    cr_expect_eq(v, INT64_MAX);
    cr_expect_eq(line, 2);
    cr_expect_eq(col, 1);
    cr_expect_not(prog_value_outside(p, INT64_MIN, INT64_MAX, &v, &line, &col));
    /* herd7 reads 32-bit C values only: no C form. */
    strbuf_t b;
    sb_init(&b);
    char why[100];
    cr_expect_eq(prog_to_herd(p, &b, why, sizeof why), -1);
    cr_expect(strstr(why, "the value 9223372036854775807 is outside herd7's 32-bit C values"), "%s",
              why);
    sb_free(&b);
    prog_free(p);

    /* The C dialect: negative initial values, stores, register initialisers,
     * fetch_add operands, comparisons and conditions; hex as herd7 reads it. */
    const char *c = "C neg\n"
                    "{ x = -1; y = 0x10; }\n"
                    "P0 (atomic_int* x, atomic_int* y) {\n"
                    "  int r0 = -2147483648;\n"
                    "  *x = -7;\n"
                    "  r0 = atomic_fetch_add_explicit(y, -3, memory_order_relaxed);\n"
                    "  if (r0 == -4) { *x = 2147483647; }\n"
                    "}\n"
                    "exists (0:r0=16 /\\ x=-7 /\\ y=13)\n";
    p = parse_ok(c);
    cr_expect_eq(p->locs[0].init, -1);
    cr_expect_eq(p->locs[1].init, 16);
    cr_expect_eq(p->threads[0].instr[0].a.v, -2147483648LL, "int r0 = -2147483648: a mov");
    cr_expect_eq(p->threads[0].instr[1].a.v, -7);
    cr_expect_eq(p->threads[0].instr[2].a.v, -3);
    cr_expect_eq(p->threads[0].instr[3].a.v, -4);
    sb_init(&b);
    cr_assert_eq(prog_to_herd(p, &b, why, sizeof why), 0, "%s", why);
    cr_expect(strstr(b.s, "{ x = -1; y = 16; }"), "%s", b.s);
    cr_expect(strstr(b.s, "*x = -7;"), "%s", b.s);
    cr_expect(strstr(b.s, "if (r0 == -4)"), "%s", b.s);
    cr_expect(strstr(b.s, "exists (0:r0=16 /\\ x=-7 /\\ y=13)"), "%s", b.s);
    prog_t *q = parse_ok(b.s);
    cr_expect_eq(q->threads[0].ninstr, p->threads[0].ninstr);
    cr_expect_eq(q->locs[0].init, -1);
    prog_free(q);
    sb_free(&b);
    prog_free(p);
    /* cohcheck's &r compare-exchange: the expected constant stays 64-bit. */
    p = parse_ok("C casr\n{ x = -3000000000; }\nP0 (atomic_int* x) {\n  int r0 = -3000000000;\n"
                 "  int b = atomic_compare_exchange_strong_explicit(x, &r0, 7, "
                 "memory_order_acq_rel, memory_order_acquire);\n}\nexists (0:b=1)\n");
    bool bne = false;
    for (int i = 0; i < p->threads[0].ninstr; i++)
        if (p->threads[0].instr[i].op == PROG_OP_BNE)
            bne = p->threads[0].instr[i].a.v == -3000000000LL;
    cr_expect(bne, "the result test compares with -3000000000");
    prog_free(p);
    parse_bad("C t\n{ x = 99999999999999999999; }\nP0 (atomic_int* x) {\n  *x = 1;\n}\n"
              "exists (x=1)\n",
              2, 7, "initial value 99999999999999999999 does not fit in 64 bits");
    parse_bad("C t\n{}\nP0 (atomic_int* x) {\n  *x = -9223372036854775809;\n}\nexists (x=1)\n", 4,
              8, "value -9223372036854775809 does not fit in 64 bits");
    parse_bad("C t\n{}\nP0 (atomic_int* x) {\n  *x = 1;\n}\nexists (x=-99999999999999999999)\n", 6,
              11, "does not fit in 64 bits");
    parse_bad("C t\n{}\nP0 (atomic_int* x) {\n  *x = 1;\n}\nexists (x=0x)\n", 6, 11,
              "value '0x' is not an integer");
}
