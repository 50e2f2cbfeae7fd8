/* test_sym.c - unit tests for the symmetry reduction (checker/sys/sym_impl.h, docs/por.md
 * "Symmetry"): over every reachable state of a plain breadth-first search, the canonical
 * form is idempotent, the same for every image of the state, and an image of it; a search
 * with symmetry on finds exactly one state per orbit; the analysis refuses tests whose
 * threads differ and names its classes; each element commutes with the steps (up to the
 * canonical form); a reset value an element would move is refused when a row exposes it. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/base/util.h"
#include "../../checker/prog/prog.h"
#include "../../checker/proto/proto.h"
#include "../../checker/sys/sys.h"

#define SET_BITS 18

typedef struct {
    uint64_t *set;
    uint8_t **st;
    size_t *len;
    size_t n, cap;
} bfs_t;

static uint64_t hash(const void *p, size_t n)
{
    const uint8_t *b = p;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h ? h : 1;
}

/* Add H to the set: true when it was new. */
static bool set_add(uint64_t *set, uint64_t h)
{
    uint64_t mask = ((uint64_t)1 << SET_BITS) - 1;
    for (uint64_t i = h & mask;; i = (i + 1) & mask) {
        if (set[i] == h)
            return false;
        if (!set[i]) {
            set[i] = h;
            return true;
        }
    }
}

static void found(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    (void)lab;
    bfs_t *b = ctx;
    if (!set_add(b->set, hash(st, len)))
        return;
    cr_assert_lt(b->n, (size_t)1 << (SET_BITS - 1), "the test graph outgrew the set");
    if (b->n == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 1024;
        b->st = xrealloc(b->st, b->cap * sizeof *b->st);
        b->len = xrealloc(b->len, b->cap * sizeof *b->len);
    }
    b->st[b->n] = xmalloc(len);
    memcpy(b->st[b->n], st, len);
    b->len[b->n++] = len;
}

static void bfs(sys_t *s, bfs_t *b)
{
    memset(b, 0, sizeof *b);
    b->set = xcalloc((size_t)1 << SET_BITS, sizeof *b->set);
    sys_error_t e;
    cr_assert_geq(sys_initial(s, found, b, &e), 0, "%s", e.msg);
    for (size_t i = 0; i < b->n; i++) {
        uint8_t *st = xmalloc(b->len[i]);
        memcpy(st, b->st[i], b->len[i]);
        cr_assert_geq(sys_successors(s, st, b->len[i], found, b, &e), 0, "%s", e.msg);
        free(st);
    }
}

static void bfs_free(bfs_t *b)
{
    for (size_t i = 0; i < b->n; i++)
        free(b->st[i]);
    free(b->st);
    free(b->len);
    free(b->set);
}

static sys_t *load(const char *proto, const char *test, int cus, proto_t **p, prog_t **g)
{
    diag_t d;
    sys_t *s;
    cr_assert_eq(proto_load(proto, p, &d), 0, "%s", d.msg);
    cr_assert_eq(prog_load(test, g, &d), 0, "%s", d.msg);
    sys_config_t cfg = {.chan_capacity = 8, .cus = cus, .warm = true};
    cr_assert_eq(sys_new(*p, *g, &cfg, &s, &d), 0, "%s", d.msg);
    return s;
}

Test(sym, canonical_form_is_one_per_orbit)
{
    proto_t *p;
    prog_t *g;
    sys_t *s = load("protocols/mesi.proto", "litmus/core/RMW-add2.litmus", 4, &p, &g);
    const char *why = NULL;
    cr_assert(sys_set_symmetry(s, true, &why));
    cr_assert_str_eq(why, "CUs {0,1} {2,3}");
    int order = sys_sym_order(s);
    cr_assert_eq(order, 4);
    sys_set_symmetry(s, false, NULL);
    bfs_t full;
    bfs(s, &full);
    size_t maxst = sys_max_state(s);
    uint8_t *c = xmalloc(maxst + 1), *c2 = xmalloc(maxst + 1), *im = xmalloc(maxst + 1);
    uint8_t *ic = xmalloc(maxst + 1);
    uint64_t *orbits = xcalloc((size_t)1 << SET_BITS, sizeof *orbits);
    size_t norbits = 0;
    sys_set_symmetry(s, true, NULL); /* sys_sym_apply needs the group */
    for (size_t i = 0; i < full.n; i++) {
        size_t cl = sys_sym_canon(s, full.st[i], full.len[i], c);
        cr_assert_eq(sys_sym_canon(s, c, cl, c2), cl);
        cr_assert(!memcmp(c, c2, cl), "state %zu: the canonical form is not idempotent", i);
        bool member = false;
        for (int e = 0; e < order; e++) {
            size_t il = sys_sym_apply(s, e, full.st[i], full.len[i], im);
            member |= il == cl && !memcmp(im, c, cl);
            size_t l2 = sys_sym_canon(s, im, il, ic);
            cr_assert(l2 == cl && !memcmp(ic, c, cl), "state %zu, element %d: another form", i, e);
        }
        cr_assert(member, "state %zu: its canonical form is not an image of it", i);
        norbits += set_add(orbits, hash(c, cl));
    }
    bfs_t red;
    bfs(s, &red); /* with symmetry on: canonical states only */
    cr_assert_eq(red.n, norbits, "%zu states with symmetry, %zu orbits", red.n, norbits);
    cr_assert_lt(red.n, full.n);
    cr_assert_eq(full.n, 296); /* as check --no-por --cus 4 --init warm, without and with */
    cr_assert_eq(red.n, 110);
    free(c);
    free(c2);
    free(im);
    free(ic);
    free(orbits);
    bfs_free(&full);
    bfs_free(&red);
    sys_free(s);
    prog_free(g);
    proto_free(p);
}

/* The analysis refuses symmetry on PROTO running TEST, with a reason containing WHY. */
static void check_refused(const char *proto, const char *test, const char *why_part)
{
    proto_t *p;
    prog_t *g;
    sys_t *s = load(proto, test, 0, &p, &g);
    const char *why = NULL;
    cr_assert(!sys_set_symmetry(s, true, &why), "%s on %s", proto, test);
    cr_assert(strstr(why, why_part), "%s", why);
    cr_assert_eq(sys_sym_order(s), 0);
    sys_free(s);
    prog_free(g);
    proto_free(p);
}

Test(sym, different_threads_are_refused)
{
    check_refused("protocols/gpu-wt.proto", "litmus/core/MP.litmus",
                  "no two compute units are interchangeable");
}

/* The canonical successors of a state, as a sorted list of hashes. */
typedef struct {
    uint64_t h[512];
    int n;
} succ_hashes_t;

static void succ_hash(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    (void)lab;
    succ_hashes_t *c = ctx;
    cr_assert_lt(c->n, 512);
    c->h[c->n++] = hash(st, len);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void canon_succs(sys_t *s, const uint8_t *st, size_t len, succ_hashes_t *out)
{
    sys_error_t e;
    out->n = 0;
    cr_assert_geq(sys_successors(s, st, len, succ_hash, out, &e), 0, "%s", e.msg);
    qsort(out->h, (size_t)out->n, sizeof *out->h, cmp_u64);
}

/* Each element g is an automorphism up to the canonical form: over every reachable
 * state s, the canonical successors of s and of g(s) are the same (with the 'live'
 * resets of PROTO's line variables). */
static void check_automorphism(const char *proto, const char *test, int cus, size_t want)
{
    proto_t *p;
    prog_t *g;
    sys_t *s = load(proto, test, cus, &p, &g);
    cr_assert(sys_set_symmetry(s, true, NULL), "%s %s: symmetry refused", proto, test);
    int order = sys_sym_order(s);
    sys_set_symmetry(s, false, NULL);
    bfs_t full;
    bfs(s, &full);
    cr_assert_eq(full.n, want, "%s %s: %zu states", proto, test, full.n);
    sys_set_symmetry(s, true, NULL);
    uint8_t *im = xmalloc(sys_max_state(s) + 1);
    static succ_hashes_t a, b;
    for (size_t i = 0; i < full.n; i++)
        for (int e = 1; e < order; e++) {
            size_t il = sys_sym_apply(s, e, full.st[i], full.len[i], im);
            canon_succs(s, full.st[i], full.len[i], &a);
            canon_succs(s, im, il, &b);
            cr_assert(a.n == b.n && !memcmp(a.h, b.h, sizeof *a.h * (size_t)a.n),
                      "%s %s: state %zu, element %d: the successors differ", proto, test, i, e);
        }
    free(im);
    bfs_free(&full);
    sys_free(s);
    prog_free(g);
    proto_free(p);
}

Test(sym, elements_commute_with_steps)
{
    check_automorphism("protocols/mesi.proto", "litmus/core/RMW-add2.litmus", 4, 296);
    check_automorphism("protocols/denovo.proto", "litmus/workloads/SPM_G.litmus", 0, 486);
}

/* rcc's L2 enters IV on a WRITE without setting r1src (kept in IV, reset to node 0
 * elsewhere): moving CU 0 would expose the reset value, so the analysis refuses; with
 * CU 0 fixed (CoRR2's readers on CUs 2 and 3) it applies. */
Test(sym, exposed_reset_value_is_refused)
{
    check_refused("protocols/rcc.proto", "litmus/core/CAS-lock+fences.litmus",
                  "enters a state that keeps r1src without setting it");
    proto_t *p;
    prog_t *g;
    const char *why = NULL;
    sys_t *s = load("protocols/rcc.proto", "litmus/core/CoRR2.litmus", 0, &p, &g);
    cr_assert(sys_set_symmetry(s, true, &why), "%s", why);
    cr_assert_str_eq(why, "CUs {2,3}");
    sys_free(s);
    prog_free(g);
    proto_free(p);
}
