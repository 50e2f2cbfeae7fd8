/* test_kernel.c - unit tests for kernels (docs/litmus.md "Kernels"): the graph
 * readers and generators of checker/prog/prog_graph.c (CSR invariant, determinism,
 * the reference SSSP) and the parser's register-indexed addresses and new opcodes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/prog/prog.h"

static void csr_ok(const prog_graph_t *g)
{
    cr_assert_eq(g->row[0], 0);
    cr_assert_eq(g->row[g->n], g->m);
    for (int v = 0; v < g->n; v++)
        cr_assert_leq(g->row[v], g->row[v + 1]);
    for (int k = 0; k < g->m; k++) {
        cr_assert(g->col[k] >= 0 && g->col[k] < g->n);
        cr_assert(g->w[k] >= 1 && g->w[k] < PROG_MAX_SCALE_VAL);
    }
}

Test(graph, dimacs_and_sssp)
{
    const char *src = "c five vertices\np sp 5 7\na 1 2 4\na 1 3 1\na 3 2 2\na 2 4 5\n"
                      "a 3 4 8\na 4 5 3\na 5 1 2\n";
    prog_graph_t g;
    diag_t d;
    cr_assert_eq(prog_graph_read("s.gr", src, strlen(src), 100, 100, &g, &d), 0, "%s", d.msg);
    csr_ok(&g);
    cr_assert_eq(g.n, 5);
    cr_assert_eq(g.m, 7);
    int64_t dist[5];
    prog_graph_sssp(&g, 0, dist);
    int64_t want[5] = {0, 3, 1, 8, 11};
    for (int v = 0; v < 5; v++)
        cr_expect_eq(dist[v], want[v], "vertex %d: %lld", v, (long long)dist[v]);
    prog_graph_free(&g);
}

Test(graph, matrix_market_symmetric)
{
    const char *src = "%%MatrixMarket matrix coordinate real symmetric\n% c\n4 4 4\n"
                      "2 1 1.5\n3 2 2.0\n4 3 0.4\n4 1 7\n";
    prog_graph_t g;
    diag_t d;
    cr_assert_eq(prog_graph_read("s.mtx", src, strlen(src), 100, 100, &g, &d), 0, "%s", d.msg);
    csr_ok(&g);
    cr_assert_eq(g.m, 8);
    int64_t dist[4];
    prog_graph_sssp(&g, 0, dist);
    cr_expect(dist[0] == 0 && dist[1] == 2 && dist[2] == 4 && dist[3] == 5);
    prog_graph_free(&g);
}

static void read_bad(const char *src, int line, int col, const char *what)
{
    prog_graph_t g;
    diag_t d;
    cr_assert_eq(prog_graph_read("b", src, strlen(src), 100, 100, &g, &d), -1, "%s", src);
    cr_expect_eq(d.line, line, "line %d != %d (%s)", d.line, line, d.msg);
    cr_expect_eq(d.col, col, "col %d != %d (%s)", d.col, col, d.msg);
    cr_expect(strstr(d.msg, what) != NULL, "message '%s' lacks '%s'", d.msg, what);
}

Test(graph, bad_input)
{
    read_bad("", 1, 1, "no problem line");
    read_bad("p sp 2 1\na 1 3 5\n", 2, 5, "head vertex 3 out of range (1..2)");
    read_bad("p sp 2 2\na 1 2 5\n", 3, 1, "fewer arcs");
    read_bad("a 1 2 3\n", 1, 1, "an arc before the problem line");
    read_bad("p sp 2 1\na 1 2 0\n", 2, 7, "arc length 0 out of range");
    read_bad("x\n", 1, 1, "unknown line");
    read_bad("p sp 200 1\n", 1, 6, "vertex count 200 out of range (1..100)");
    read_bad("%%MatrixMarket matrix array real general\n", 1, 23, "only 'coordinate'");
    read_bad("%%MatrixMarket matrix coordinate complex general\n", 1, 34, "unsupported");
    read_bad("%%MatrixMarket matrix coordinate real general\n2 3 1\n", 2, 1, "square");
    read_bad("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 x\n", 3, 5,
             "expected a value");
    read_bad("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 1\n2 2 1\n", 4, 1,
             "more entries");
    prog_graph_t g;
    diag_t d;
    cr_assert_eq(prog_graph_read("b", "p sp 2 1\0\n", 10, 100, 100, &g, &d), -1);
    cr_expect(strstr(d.msg, "not a text file") != NULL, "%s", d.msg);
}

Test(graph, generators_are_deterministic)
{
    prog_graph_t a, b;
    prog_graph_rmat(8, 4, 42, &a);
    prog_graph_rmat(8, 4, 42, &b);
    csr_ok(&a);
    cr_assert_eq(a.n, 256);
    cr_assert_eq(a.m, 1024);
    cr_assert(!memcmp(a.col, b.col, sizeof *a.col * (size_t)a.m));
    cr_assert(!memcmp(a.w, b.w, sizeof *a.w * (size_t)a.m));
    prog_graph_free(&b);
    prog_graph_rmat(8, 4, 43, &b);
    cr_assert(memcmp(a.col, b.col, sizeof *a.col * (size_t)a.m) != 0, "another seed, same graph");
    prog_graph_free(&a);
    prog_graph_free(&b);
    prog_graph_grid(30, 20, 1, &a);
    csr_ok(&a);
    cr_assert_eq(a.n, 600);
    int64_t *dist = malloc(sizeof *dist * 600);
    prog_graph_sssp(&a, 0, dist);
    for (int v = 0; v < 600; v++)
        cr_assert_geq(dist[v], 0, "grid vertex %d unreachable", v);
    free(dist);
    prog_graph_free(&a);
}

Test(kernel, indexed_instructions)
{
    const char *src = "GPU k\n{ a[0..3] = 0; }\nthreads T[2] {\n  mov r1 tid ;\n"
                      "  l: ld r2 a[r1 + 1] ;\n  st a[r1 - 0] r2 ;\n  sub r3 r2 lane ;\n"
                      "  mul r4 r3 warp ;\n  blt r1 r4 l ;\n  bge r1 3 l ;\n}\nforall (true)\n";
    prog_t *p;
    diag_t d;
    cr_assert_eq(prog_parse("k.litmus", src, strlen(src), &p, &d), 0, "%s", d.msg);
    const prog_instr_t *in = p->threads[1].instr;
    cr_assert(in[1].indexed && in[1].idx_reg == 1 && in[1].idx_off == 1 && in[1].idx_len == 4);
    cr_assert_eq(in[1].loc, 0);
    cr_assert_eq(prog_instr_loc(&in[1], 2), 3);
    cr_assert_eq(prog_instr_loc(&in[1], 3), -1);
    cr_assert_eq(prog_instr_loc(&in[1], -2), -1);
    cr_assert_eq(in[3].op, PROG_OP_SUB);
    cr_assert_eq(in[4].op, PROG_OP_MUL);
    cr_assert_eq(in[4].b.v, 1); /* warp = tid */
    cr_assert(in[5].op == PROG_OP_BLT && in[5].a.is_reg && in[5].target == 1);
    cr_assert(prog_branch_taken(&in[5], 1, 2) && !prog_branch_taken(&in[5], 2, 2));
    cr_assert(prog_branch_taken(&in[6], 3, 3) && !prog_branch_taken(&in[6], 2, 3));
    cr_assert_eq(prog_alu(&in[4], 3, -2), -6);
    cr_assert(prog_has_indexed(p) && prog_has_kernel_instr(p));
    prog_free(p);
}

static void kernel_bad(const char *src, int line, int col, const char *what)
{
    prog_t *p = NULL;
    diag_t d;
    cr_assert_eq(prog_parse("k.litmus", src, strlen(src), &p, &d), -1, "%s", src);
    cr_expect_eq(d.line, line, "line %d != %d (%s)", d.line, line, d.msg);
    cr_expect_eq(d.col, col, "col %d != %d (%s)", d.col, col, d.msg);
    cr_expect(strstr(d.msg, what) != NULL, "message '%s' lacks '%s'", d.msg, what);
}

/* div and rem (docs/litmus.md "Kernels"): parsed with register or value operands,
 * truncating toward zero as C does, a zero divisor a fault, a constant 0 a parse error. */
Test(kernel, div_rem)
{
    const char *src = "GPU d\n{ x = 0; }\nthreads T[1] {\n  div r1 r2 3 ;\n  rem r3 7 r1 ;\n}\n"
                      "forall (true)\n";
    prog_t *p;
    diag_t d;
    cr_assert_eq(prog_parse("d.litmus", src, strlen(src), &p, &d), 0, "%s", d.msg);
    const prog_instr_t *in = p->threads[0].instr;
    cr_assert(in[0].op == PROG_OP_DIV && in[0].reg == 1 && in[0].a.is_reg && in[0].a.v == 2 &&
              !in[0].b.is_reg && in[0].b.v == 3);
    cr_assert(in[1].op == PROG_OP_REM && in[1].reg == 3 && !in[1].a.is_reg && in[1].b.is_reg);
    cr_assert(prog_writes_reg(&in[0]) && prog_writes_reg(&in[1]) && prog_has_kernel_instr(p));
    /* a / b truncates toward zero; a % b has a's sign; (a / b) * b + a % b = a */
    static const int64_t cases[][4] = {
        {7, 2, 3, 1},
        {-7, 2, -3, -1},
        {7, -2, -3, 1},
        {-7, -2, 3, -1},
        {6, 3, 2, 0},
        {0, 5, 0, 0},
        {1, 2, 0, 1},
        {-1, 2, 0, -1},
        {INT64_MIN, -1, INT64_MIN, 0},
        {INT64_MAX, -1, -INT64_MAX, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        int64_t a = cases[k][0], b = cases[k][1];
        cr_expect_eq(prog_alu(&in[0], a, b), cases[k][2], "%lld / %lld", (long long)a,
                     (long long)b);
        cr_expect_eq(prog_alu(&in[1], a, b), cases[k][3], "%lld %% %lld", (long long)a,
                     (long long)b);
        cr_expect(!prog_alu_faults(&in[0], b) && !prog_alu_faults(&in[1], b));
    }
    cr_assert(prog_alu_faults(&in[0], 0) && prog_alu_faults(&in[1], 0));
    cr_assert_eq(prog_alu(&in[0], 5, 0), 0); /* defined, though every caller faults first */
    prog_free(p);
    kernel_bad("GPU d\n{ x = 0; }\n P0 ;\n div r1 r2 0 ;\nforall (true)\n", 4, 12,
               "div by the constant 0");
    kernel_bad("GPU d\n{ x = 0; }\nthreads T[1] { rem r1 5 (tid * 2) ; }\nforall (true)\n", 3, 25,
               "rem by the constant 0");
    kernel_bad("GPU d\n{ x = 0; }\n P0 ;\n div.acq r1 r2 1 ;\nforall (true)\n", 4, 6,
               "takes no order");
    kernel_bad("GPU d\n{ x = 0; }\n P0 ;\n rem r1 r2 ;\nforall (true)\n", 4, 12,
               "expected a value");
}

Test(kernel, graph_directive)
{
    const char *src = "GPU g\ngraph grid width = 3 height = 2 seed = 5 source = 1\n"
                      "{ d[0..N-1] = 0; }\nthreads T[1] { ld r1 col[r2] ; }\n"
                      "forall (all v in 0..N-1 : d[v] = DIST[v] - DIST[v])\n";
    prog_t *p;
    diag_t d;
    cr_assert_eq(prog_parse("g.litmus", src, strlen(src), &p, &d), 0, "%s", d.msg);
    prog_graph_t g;
    prog_graph_grid(3, 2, 5, &g);
    /* row[0..6], then col and w, then d: arrays in order. */
    cr_assert_eq(p->nlocs, 7 + 2 * g.m + 6);
    cr_assert_str_eq(p->locs[7].name, "col[0]");
    cr_assert_eq(p->threads[0].instr[0].idx_len, g.m);
    for (int k = 0; k < g.m; k++)
        cr_assert_eq(p->locs[7 + k].init, g.col[k]);
    prog_graph_free(&g);
    prog_free(p);
    kernel_bad("GPU g\nparam N = 2\ngraph rmat scale = 2 deg = 1 seed = 1\n{ }\n"
               "threads T[1] { ld r1 row[0] ; }\nforall (true)\n",
               3, 1, "N is taken");
    kernel_bad("GPU g\ngraph rmat scale = 2 deg = 1 seed = 1\ngraph rmat scale = 2 deg = 1 "
               "seed = 1\n{ }\nthreads T[1] { ld r1 row[0] ; }\nforall (true)\n",
               3, 1, "a second graph input");
    kernel_bad("GPU g\ngraph rmat scale = 2 seed = 1\n{ }\nthreads T[1] { ld r1 row[0] ; }\n"
               "forall (true)\n",
               2, 22, "expected 'deg = VALUE'");
    kernel_bad("GPU g\ngraph rmat scale = 22 deg = 2 seed = 1\n{ }\n"
               "threads T[1] { ld r1 row[0] ; }\nforall (true)\n",
               2, 7, "R-MAT too large");
    kernel_bad("GPU g\n{ a[0..1] = 0; }\nthreads T[1] { ld r1 a[r2] ; ld r2 a[r1 + 2 ; }\n"
               "forall (true)\n",
               3, 45, "expected ']' after the index");
}

Test(graph, bfs_hops)
{
    /* 0->1 (4), 0->2 (1), 2->1, 1->3, 2->3, 3->4, 4->0: levels ignore the weights. */
    const char *src = "p sp 5 7\na 1 2 4\na 1 3 1\na 3 2 2\na 2 4 5\na 3 4 8\na 4 5 3\na 5 1 2\n";
    prog_graph_t g;
    diag_t d;
    cr_assert_eq(prog_graph_read("s.gr", src, strlen(src), 100, 100, &g, &d), 0, "%s", d.msg);
    int64_t hops[5];
    prog_graph_bfs(&g, 0, hops);
    int64_t want[5] = {0, 1, 1, 2, 3};
    for (int v = 0; v < 5; v++)
        cr_expect_eq(hops[v], want[v], "vertex %d: %lld", v, (long long)hops[v]);
    prog_graph_bfs(&g, 3, hops);
    int64_t want3[5] = {2, 3, 3, 0, 1};
    for (int v = 0; v < 5; v++)
        cr_expect_eq(hops[v], want3[v], "from 3, vertex %d: %lld", v, (long long)hops[v]);
    prog_graph_free(&g);
    /* Directed: nothing reaches vertex 0 from 1. */
    const char *one = "p sp 3 2\na 1 2 1\na 2 3 1\n";
    cr_assert_eq(prog_graph_read("o.gr", one, strlen(one), 100, 100, &g, &d), 0, "%s", d.msg);
    prog_graph_bfs(&g, 1, hops);
    cr_expect(hops[0] == -1 && hops[1] == 0 && hops[2] == 1);
    prog_graph_free(&g);
}

Test(kernel, hops_table)
{
    /* A 4 x 1 grid is a path: HOPS[v] = |v - source|; unreached vertices are INF. */
    const char *src = "GPU g\ngraph grid width = 4 height = 1 seed = 3 source = 1\n"
                      "{ h0 = HOPS[0]; h3 = HOPS[3]; i = INF; }\nthreads T[1] { ld r1 h0 ; }\n"
                      "forall (true)\n";
    prog_t *p;
    diag_t d;
    cr_assert_eq(prog_parse("h.litmus", src, strlen(src), &p, &d), 0, "%s", d.msg);
    int seen = 0;
    for (int l = 0; l < p->nlocs; l++) {
        if (!strcmp(p->locs[l].name, "h0")) {
            cr_expect_eq(p->locs[l].init, 1);
            seen++;
        }
        if (!strcmp(p->locs[l].name, "h3")) {
            cr_expect_eq(p->locs[l].init, 2);
            seen++;
        }
    }
    cr_expect_eq(seen, 2);
    prog_free(p);
    kernel_bad("GPU g\nlet HOPS = 2\ngraph rmat scale = 2 deg = 1 seed = 1\n{ }\n"
               "threads T[1] { ld r1 row[0] ; }\nforall (true)\n",
               3, 1, "HOPS is taken");
}

/* launch and bar.sync: a release fence, a join and an acquire fence of agent / work-group
 * scope, at the statement's line and column; a label before it names the fence. */
Test(kernel, launch_and_bar_sync)
{
    const char *src = "GPU j\n{ x = 0; }\nthreads T[2] @wg(0) {\n  l: st x 1 ;\n"
                      "  k: launch ;\n  bar.sync ;\n  b k ;\n}\nforall (true)\n";
    prog_t *p;
    diag_t d;
    cr_assert_eq(prog_parse("j.litmus", src, strlen(src), &p, &d), 0, "%s", d.msg);
    const prog_thread_t *t = &p->threads[1];
    cr_assert_eq(t->ninstr, 8);
    static const prog_opcode_t ops[8] = {PROG_OP_ST,    PROG_OP_FENCE, PROG_OP_JOIN,  PROG_OP_FENCE,
                                         PROG_OP_FENCE, PROG_OP_JOIN,  PROG_OP_FENCE, PROG_OP_B};
    static const prog_ord_t ords[8] = {0, PROG_ORD_REL, 0, PROG_ORD_ACQ, PROG_ORD_REL,
                                       0, PROG_ORD_ACQ, 0};
    for (int i = 0; i < 8; i++) {
        cr_expect_eq(t->instr[i].op, ops[i], "instruction %d", i);
        cr_expect_eq(t->instr[i].ord, ords[i], "instruction %d", i);
    }
    for (int i = 1; i <= 3; i++)
        cr_expect(t->instr[i].scope == PROG_SCOPE_AGENT && t->instr[i].line == 5 &&
                  t->instr[i].col == 6);
    for (int i = 4; i <= 6; i++)
        cr_expect(t->instr[i].scope == PROG_SCOPE_WG && t->instr[i].line == 6);
    cr_expect_eq(t->instr[7].target, 1); /* the label k names the release fence */
    cr_assert(prog_has_join(p) && prog_has_kernel_instr(p) && !prog_has_indexed(p));
    prog_free(p);
    kernel_bad("GPU j\n{ }\nthreads T[1] {\n  bar.wait ;\n}\nforall (true)\n", 4, 3,
               "unknown barrier 'bar.wait'");
    kernel_bad("GPU j\n{ }\nthreads T[1] {\n  launch.agent ;\n}\nforall (true)\n", 4, 3,
               "unknown instruction 'launch'");
}

/* The values of C's location comparisons, left to right. */
static void cond_vals(const prog_cond_t *c, prog_val_t *v, int *n)
{
    if (!c)
        return;
    if (c->kind == PROG_COND_LOC)
        v[(*n)++] = c->val;
    cond_vals(c->a, v, n);
    cond_vals(c->b, v, n);
}

/* graph ... sources = E: APSP[s * N + v] from sources 0..E-1. */
Test(kernel, apsp_table)
{
    const char *src = "GPU a\ngraph rmat scale = 3 deg = 2 seed = 4 sources = 3\n{ }\n"
                      "threads T[1] { ld r1 row[0] ; }\n"
                      "forall (all s in 0..2 : all v in 0..N-1 : row[0] = APSP[s * N + v])\n";
    prog_t *p;
    diag_t d;
    cr_assert_eq(prog_parse("a.litmus", src, strlen(src), &p, &d), 0, "%s", d.msg);
    prog_val_t got[24];
    int n = 0;
    cond_vals(p->cond, got, &n);
    cr_assert_eq(n, 24);
    prog_graph_t g;
    prog_graph_rmat(3, 2, 4, &g);
    for (int s = 0; s < 3; s++) {
        int64_t want[8];
        prog_graph_sssp(&g, s, want);
        for (int v = 0; v < 8; v++)
            cr_expect_eq(got[s * 8 + v], want[v] < 0 ? PROG_MAX_SCALE_VAL - 1 : want[v],
                         "source %d vertex %d", s, v);
    }
    prog_graph_free(&g);
    prog_free(p);
    kernel_bad("GPU a\ngraph rmat scale = 3 deg = 2 seed = 4 sources = 3\n{ }\n"
               "threads T[1] { ld r1 row[0] ; }\nforall (row[0] = APSP[24])\n",
               5, 23, "index 24 out of range of APSP (0..23)");
    kernel_bad("GPU a\ngraph rmat scale = 3 deg = 2 seed = 4 sources = 9\n{ }\n"
               "threads T[1] { ld r1 row[0] ; }\nforall (true)\n",
               2, 49, "sources 9 out of range (1..8)");
}

/* The colouring reference: priorities are a permutation; on the symmetric grid the
 * Jones-Plassmann colours are proper (no edge joins two equal colours) and every vertex
 * is a local maximum among its neighbours of its own round or later; `color = E` makes
 * prio[] and COLOR[] from them. */
Test(graph, color_reference)
{
    prog_graph_t g;
    prog_graph_grid(24, 20, 3, &g);
    int32_t *prio = malloc(sizeof *prio * (size_t)g.n);
    int64_t *c = malloc(sizeof *c * (size_t)g.n);
    char *seen = calloc((size_t)g.n, 1);
    prog_graph_prio(g.n, 7, prio);
    for (int v = 0; v < g.n; v++) {
        cr_assert(prio[v] >= 0 && prio[v] < g.n && !seen[prio[v]], "prio not a permutation");
        seen[prio[v]] = 1;
    }
    int rounds = prog_graph_color(&g, prio, c);
    cr_assert(rounds >= 2 && rounds < g.n, "rounds %d", rounds);
    for (int v = 0; v < g.n; v++) {
        cr_assert(c[v] >= 1 && c[v] <= rounds);
        for (int k = g.row[v]; k < g.row[v + 1]; k++) {
            int u = g.col[k];
            cr_assert_neq(c[u], c[v], "edge %d-%d: both colour %lld", v, u, (long long)c[v]);
            if (c[u] >= c[v])
                cr_assert_lt(prio[u], prio[v], "vertex %d coloured under a higher rival %d", v, u);
        }
    }
    const char *src = "GPU a\ngraph grid width = 24 height = 20 seed = 3 color = 7\n{ }\n"
                      "threads T[1] { ld r1 prio[5] ; }\n"
                      "forall (all v in 0..N-1 : prio[v] = COLOR[v])\n";
    prog_t *p;
    diag_t d;
    cr_assert_eq(prog_parse("a.litmus", src, strlen(src), &p, &d), 0, "%s", d.msg);
    prog_val_t *got = malloc(sizeof *got * (size_t)g.n);
    int n = 0;
    cond_vals(p->cond, got, &n);
    cr_assert_eq(n, g.n);
    for (int v = 0; v < g.n; v++)
        cr_expect_eq(got[v], c[v], "COLOR[%d]", v);
    int loc = -1;
    for (int k = 0; k < p->nlocs; k++)
        if (!strcmp(p->locs[k].name, "prio[5]"))
            loc = k;
    cr_assert(loc >= 0);
    cr_assert_eq(p->locs[loc].init, prio[5]);
    prog_free(p);
    free(got);
    free(seen);
    free(c);
    free(prio);
    prog_graph_free(&g);
    kernel_bad("GPU a\nparam COLOR = 1\ngraph grid width = 2 height = 2 seed = 1 color = 1\n{ }\n"
               "threads T[1] { ld r1 row[0] ; }\nforall (true)\n",
               3, 42, "color = E defines the table COLOR: COLOR is taken");
    kernel_bad("GPU a\ngraph grid width = 2 height = 2 seed = 1 color = 1\n{ prio[0] = 1; }\n"
               "threads T[1] { ld r1 row[0] ; }\nforall (true)\n",
               3, 3, "location prio[0] initialised twice");
}

/* graph ... pagerank = ITERS rank = ONE: the transpose's CSR (trow, tcol) and PR[v], the
 * fixed-point PageRank (prog_graph_pagerank), checked against a hand computation. */
Test(graph, pagerank_reference)
{
    /* 0 -> 1, 0 -> 2, 1 -> 2, 2 -> 0; ONE = 100, BASE = 15. Iteration 1: contributions
       50, 100, 100; sums 100, 50, 150; ranks 15 + 85, 15 + 42, 15 + 127. Iteration 2:
       contributions 50, 57, 142; sums 142, 50, 107; ranks 15 + 120, 15 + 42, 15 + 90. */
    const char *gr = "p sp 3 4\na 1 2 1\na 1 3 1\na 2 3 1\na 3 1 1\n";
    prog_graph_t g, t;
    diag_t d;
    cr_assert_eq(prog_graph_read("p.gr", gr, strlen(gr), 100, 100, &g, &d), 0, "%s", d.msg);
    prog_graph_transpose(&g, &t);
    static const int32_t trow[] = {0, 1, 2, 4}, tcol[] = {2, 0, 0, 1};
    for (int v = 0; v <= 3; v++)
        cr_expect_eq(t.row[v], trow[v], "trow[%d]", v);
    for (int k = 0; k < 4; k++)
        cr_expect_eq(t.col[k], tcol[k], "tcol[%d]", k);
    int64_t r[3];
    prog_graph_pagerank(&g, 1, 100, r);
    cr_expect(r[0] == 100 && r[1] == 57 && r[2] == 142, "%lld %lld %lld", (long long)r[0],
              (long long)r[1], (long long)r[2]);
    prog_graph_pagerank(&g, 2, 100, r);
    cr_expect(r[0] == 135 && r[1] == 57 && r[2] == 105, "%lld %lld %lld", (long long)r[0],
              (long long)r[1], (long long)r[2]);
    prog_graph_free(&t);
    prog_graph_free(&g);

    /* The parser's PR table and in-edge arrays are the same functions' results. */
    const char *src = "GPU p\ngraph rmat scale = 5 deg = 3 seed = 2 pagerank = 3 rank = 64\n{ }\n"
                      "threads T[1] { ld r1 trow[0] ; }\n"
                      "forall (all v in 0..N-1 : trow[0] = PR[v])\n";
    prog_t *p;
    cr_assert_eq(prog_parse("p.litmus", src, strlen(src), &p, &d), 0, "%s", d.msg);
    prog_graph_rmat(5, 3, 2, &g);
    prog_graph_transpose(&g, &t);
    int64_t want[32];
    prog_graph_pagerank(&g, 3, 64, want);
    prog_val_t got[32];
    int n = 0;
    cond_vals(p->cond, got, &n);
    cr_assert_eq(n, 32);
    for (int v = 0; v < 32; v++)
        cr_expect_eq(got[v], want[v], "PR[%d]", v);
    int seen = 0;
    for (int k = 0; k < p->nlocs; k++) {
        int idx;
        if (sscanf(p->locs[k].name, "tcol[%d]", &idx) == 1) {
            cr_expect_eq(p->locs[k].init, t.col[idx], "tcol[%d]", idx);
            seen++;
        }
    }
    cr_expect_eq(seen, g.m);
    prog_free(p);
    prog_graph_free(&t);
    prog_graph_free(&g);

    kernel_bad("GPU p\ngraph rmat scale = 2 deg = 1 seed = 1 pagerank = 0 rank = 5\n{ }\n"
               "threads T[1] { ld r1 row[0] ; }\nforall (true)\n",
               2, 50, "pagerank 0 out of range (1..1000)");
    kernel_bad("GPU p\ngraph rmat scale = 2 deg = 1 seed = 1 pagerank = 2\n{ }\n"
               "threads T[1] { ld r1 row[0] ; }\nforall (true)\n",
               3, 1, "'rank = VALUE'");
    kernel_bad("GPU p\nparam PR = 1\ngraph rmat scale = 2 deg = 1 seed = 1 pagerank = 2 rank = 5\n"
               "{ }\nthreads T[1] { ld r1 row[0] ; }\nforall (true)\n",
               3, 39, "pagerank = E defines the table PR: PR is taken");
    kernel_bad("GPU p\ngraph rmat scale = 8 deg = 8 seed = 1 pagerank = 4 rank = 30000\n{ }\n"
               "threads T[1] { ld r1 row[0] ; }\nforall (true)\n",
               2, 1, "the PageRank of vertex");
}
