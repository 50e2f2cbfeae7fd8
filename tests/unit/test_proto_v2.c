/* test_proto_v2.c - unit tests for protocol language v2 (checker/proto):
 * variants ('extends': cell overrides, remove, map/unmap, replaced params,
 * networks, messages, targets and invariants; published counts not
 * inherited), bounded networks, labels and citations, final memory,
 * nodesets, masks and merge, 'granularity word', the resolved text, and
 * exact FILE:LINE:COL errors for each. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../checker/proto/proto.h"

static char dir[64];

static void write_file(const char *name, const char *text)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/cohcheck-v2-XXXXXX");
    cr_assert_not_null(mkdtemp(dir));
}

static void teardown(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    cr_assert_eq(system(cmd), 0);
}

static proto_t *load(const char *name, const char *text, diag_t *d)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    proto_t *p = NULL;
    if (proto_parse(path, text, strlen(text), &p, d))
        return NULL;
    return p;
}

static proto_t *load_ok(const char *name, const char *text)
{
    diag_t d;
    proto_t *p = load(name, text, &d);
    cr_assert_not_null(p, "parse failed: %s:%d:%d: %s", d.file, d.line, d.col, d.msg);
    return p;
}

/* An error in file FILE (relative to dir) at LINE:COL containing WHAT. */
static void load_bad(const char *name, const char *text, const char *file, int line, int col,
                     const char *what)
{
    diag_t d;
    proto_t *p = load(name, text, &d);
    cr_assert_null(p, "expected an error for:\n%s", text);
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    cr_expect_str_eq(d.file, path);
    cr_expect_eq(d.line, line, "line %d != %d (%s)", d.line, line, d.msg);
    cr_expect_eq(d.col, col, "col %d != %d (%s)", d.col, col, d.msg);
    cr_expect(strstr(d.msg, what) != NULL, "message '%s' lacks '%s'", d.msg, what);
}

static const char *base_src =
    "protocol base \"the base\"\n"
    "target sc\n"
    "param k = 1\n"
    "network req ordered\n"
    "network resp ordered\n"
    "message REQ on req (tid: tid, loc: loc)\n"
    "message ANS on resp (tid: tid, val: val)\n"
    "controller L1 per-cu {\n"
    "  stable I V\n"
    "  I, V | load | k > 5 | stall |\n"
    "  I, V | load | | send REQ(tid=req.tid, loc=req.loc) to L2; wait |\n"
    "  I, V | ANS | | done(msg.tid, msg.val) |\n"
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
    "}\n"
    "invariant small: k < 100\n"
    "published \"paper\" L1 stable 2\n";

static int rows_for(const proto_t *p, int c, const char *state, const char *event)
{
    const proto_ctrl_t *ct = &p->ctrls[c];
    int s = -1, e = -1, n = 0;
    for (int i = 0; i < ct->nstates; i++)
        if (!strcmp(ct->state_names[i], state))
            s = i;
    for (int i = 0; i < p->nevents; i++)
        if (!strcmp(p->events[i].name, event))
            e = i;
    for (int r = 0; r < ct->nrows; r++)
        if (ct->rows[r].event == e &&
            (s < 0 ? ct->rows[r].states == 0 : ct->rows[r].states >> s & 1))
            n++;
    return n;
}

Test(v2, extends_overrides_cells, .init = setup, .fini = teardown)
{
    write_file("base.proto", base_src);
    proto_t *p = load_ok("v.proto", "protocol v \"variant\" extends base\n"
                                    "target rcsc\n"
                                    "param k = 7\n"
                                    "network req unordered capacity 2\n"
                                    "controller L1 per-cu {\n"
                                    "  V | load | | done(0) |\n"
                                    "  remove - | fence\n"
                                    "}\n"
                                    "core L1 {\n"
                                    "  unmap fence.*\n"
                                    "  map ld.acq -> load, load\n"
                                    "}\n"
                                    "invariant small: k < 8\n");
    cr_assert_str_eq(p->name, "v");
    cr_assert_str_eq(p->desc, "variant");
    cr_assert_str_eq(p->base, "base");
    cr_assert_eq(p->nsections, 2);
    cr_assert_str_eq(p->target, "rcsc");
    cr_assert_eq(p->params[0].value, 7);
    cr_assert_not(p->nets[0].ordered);
    cr_assert_eq(p->nets[0].capacity, 2);
    /* (V, load) is the variant's one row; (I, load) keeps both of the base's */
    cr_assert_eq(rows_for(p, 0, "V", "load"), 1);
    cr_assert_eq(rows_for(p, 0, "I", "load"), 2);
    cr_assert_eq(rows_for(p, 0, "-", "fence"), 0);
    cr_assert_eq(p->nmaps, 2);
    cr_assert_eq(p->ninvs, 1);
    cr_assert_eq(p->npubs, 0, "a paper's counts are not the variant's");
    cr_assert_eq(p->nfiles, 2);
    cr_assert(strstr(proto_file_of(p, p->ctrls[1].rows[0].text_off), "base.proto"));
    /* The stored source holds the base: it parses alone. */
    proto_t *q = NULL;
    diag_t d;
    cr_assert_eq(proto_parse("stored.proto", p->source, p->source_len, &q, &d), 0, "%s", d.msg);
    cr_assert_str_eq(q->name, "v");
    cr_assert_eq(q->ctrls[0].nrows, p->ctrls[0].nrows);
    proto_free(q);
    /* The resolved text parses to the same tables. */
    char *text = proto_resolved_text(p);
    q = load_ok("r.proto", text);
    for (int c = 0; c < p->nctrls; c++) {
        proto_count_t a, b;
        proto_count(p, c, &a);
        proto_count(q, c, &b);
        cr_assert_eq(a.transitions, b.transitions);
        cr_assert_eq(a.branches, b.branches);
    }
    cr_assert_eq(q->nets[0].capacity, 2);
    free(text);
    proto_free(q);
    proto_free(p);
}

Test(v2, extends_chain_and_messages, .init = setup, .fini = teardown)
{
    write_file("base.proto", base_src);
    write_file("mid.proto", "protocol mid extends base\n"
                            "network fast unordered\n"
                            "message ANS on fast (tid: tid, val: val)\n");
    proto_t *p = load_ok("top.proto", "protocol top extends mid\n"
                                      "controller L2 shared {\n"
                                      "  line n: int(0..3) = 0\n"
                                      "}\n");
    cr_assert_eq(p->nsections, 3);
    cr_assert_eq(p->msgs[1].net, 2, "ANS moved to network fast");
    cr_assert_eq(p->ctrls[1].nlinevars, 2);
    proto_free(p);
}

Test(v2, extends_errors, .init = setup, .fini = teardown)
{
    write_file("base.proto", base_src);
    load_bad("v.proto", "protocol v extends nope\n", "v.proto", 1, 20,
             "cannot read base protocol 'nope'");
    load_bad("v.proto", "protocol v extends base\ncontroller L1 per-cu {\n  remove V | ANS2\n}\n",
             "v.proto", 3, 14, "undeclared event 'ANS2'");
    load_bad(
        "v.proto",
        "protocol v extends base\ncontroller L2 shared {\n  V | REQ | | |\n  V | REQ | | |\n}\n",
        "v.proto", 4, 3, "unreachable row");
    load_bad("v.proto",
             "protocol v extends base\ncontroller L1 per-cu {\n}\ncontroller L1 per-cu {\n}\n",
             "v.proto", 4, 12, "reopened twice");
    load_bad("v.proto", "protocol v extends base\ncore L2 {\n}\n", "v.proto", 2, 6,
             "the base's core section is for 'L1'");
    load_bad("v.proto",
             "protocol v extends base\ncore L1 {\n  map ld.* -> load\n  map ld.* -> load\n}\n",
             "v.proto", 4, 7, "duplicate map");
    write_file("x.proto", "protocol y\n");
    load_bad("v.proto", "protocol v extends x\n", "v.proto", 1, 20, "its base file declares");
    load_bad("v.proto", "protocol v\nparam a = 1\nparam a = 2\n", "v.proto", 3, 7,
             "declared twice");
}

Test(v2, labels_and_cites, .init = setup, .fini = teardown)
{
    proto_t *p = load_ok("l.proto", "protocol l\n"
                                    "labels \"seed 001 Table 3\" a0..a25, b7\n"
                                    "controller L2 shared {\n"
                                    "  stable V\n"
                                    "  event go line\n"
                                    "  V | go | | | | a3 b7\n"
                                    "}\n");
    cr_assert_eq(p->nlabels, 27);
    cr_assert_str_eq(p->labels[25], "a25");
    cr_assert_str_eq(p->labels_source, "seed 001 Table 3");
    cr_assert_eq(p->ctrls[0].rows[0].ncites, 2);
    cr_assert_str_eq(p->labels[p->ctrls[0].rows[0].cites[1]], "b7");
    proto_free(p);
    load_bad("l.proto", "protocol l\nlabels \"t\" a0..b3\n", "l.proto", 2, 12, "a label range");
    load_bad("l.proto", "protocol l\nlabels \"t\" a0, a0\n", "l.proto", 2, 16, "declared twice");
    load_bad("l.proto",
             "protocol l\nlabels \"t\" a0\ncontroller L2 shared {\n  stable V\n  event go line\n"
             "  V | go | | | | a0 a0\n}\n",
             "l.proto", 6, 21, "cited twice");
}

/* A controller exercising nodesets, masks, merge, 'each', final and granularity; ROW is
 * spliced in as its M row. */
static char *sets_proto(const char *row, const char *tail)
{
    static char buf[2048];
    snprintf(buf, sizeof buf,
             "protocol s\n"
             "granularity word\n"
             "network n ordered capacity 3\n"
             "message M on n (d: data, m: mask, who: nodeset)\n"
             "controller C per-cu {\n"
             "  stable I O\n"
             "  line d: data = initial\n"
             "  line m: mask = none\n"
             "  line s: nodeset = none\n"
             "  var l: loc\n"
             "%s\n"
             "  O | M | size(msg.who) == 0 && m == none | | I\n"
             "  - | f | | done |\n"
             "}\n"
             "core C {\n  map fence.* -> f\n}\n"
             "%s",
             row, tail);
    return buf;
}

Test(v2, sets_masks_final_granularity, .init = setup, .fini = teardown)
{
    proto_t *p = load_ok(
        "s.proto", sets_proto("  I | M | msg.src in s && l in m | d := merge(d, msg.d, msg.m); "
                              "m := m + l; s := s - msg.src; send M(d=d, m=m, who=s) to each C in "
                              "s | O",
                              "final C.d in O if m\nfinal C.d\n"));
    cr_assert(p->granularity_word);
    cr_assert_eq(p->nets[0].capacity, 3);
    const proto_ctrl_t *c = &p->ctrls[0];
    cr_assert_eq(c->linevars[1].type.kind, PROTO_T_MASK);
    cr_assert_eq(c->linevars[2].type.kind, PROTO_T_NODESET);
    const proto_row_t *r = &c->rows[0];
    cr_assert_eq(r->guard->kind, PROTO_E_BIN);
    cr_assert_eq(r->guard->a->kind, PROTO_E_IN);
    cr_assert_eq(r->actions[0].value->kind, PROTO_E_MERGE);
    cr_assert_eq(r->actions[1].value->kind, PROTO_E_SETOP);
    cr_assert_eq(r->actions[1].value->op, '+');
    cr_assert_eq(r->actions[2].value->op, '-');
    cr_assert_eq(r->actions[3].dest, PROTO_DEST_EACH);
    cr_assert_eq(r->actions[3].dest_ctrl, 0);
    cr_assert_eq(p->msgs[0].fields[1].type.kind, PROTO_T_MASK);
    cr_assert_eq(p->nfinals, 2);
    cr_assert_eq(p->finals[0].states, 2u);
    cr_assert_eq(p->finals[0].mask, 1);
    cr_assert_eq(p->finals[1].states, 0u);
    cr_assert_eq(p->finals[1].mask, -1);
    proto_free(p);
}

Test(v2, sets_masks_errors, .init = setup, .fini = teardown)
{
    load_bad("s.proto", sets_proto("  I | M | l in s | |", ""), "s.proto", 11, 13,
             "a nodeset holds nodes");
    load_bad("s.proto", sets_proto("  I | M | msg.src in m | |", ""), "s.proto", 11, 19,
             "a mask holds locations");
    load_bad("s.proto", sets_proto("  I | M | | s := s + l |", ""), "s.proto", 11, 20,
             "SET + ELEMENT");
    load_bad("s.proto", sets_proto("  I | M | m < m | |", ""), "s.proto", 11, 13,
             "sets are compared with == and !=");
    load_bad("s.proto", sets_proto("  I | M | | send M to each C in m |", ""), "s.proto", 11, 33,
             "'each C in' needs a nodeset, found mask");
    load_bad("s.proto", sets_proto("  I | M | | d := merge(d, msg.d, l) |", ""), "s.proto", 11, 34,
             "merge's third argument is a mask");
    load_bad("s.proto", sets_proto("  I | M | | m := l |", ""), "s.proto", 11, 18,
             "needs mask, found loc");
    load_bad("s.proto", sets_proto("  I | M | | |", "final C.m\n"), "s.proto", 18, 9,
             "not a data line variable");
    load_bad("s.proto", sets_proto("  I | M | | |", "final C.d if d\n"), "s.proto", 18, 14,
             "not a mask line variable");
    load_bad("s.proto", sets_proto("  I | M | | |", "granularity bytes\n"), "s.proto", 18, 13,
             "expected 'word' or 'line'");
}

/* A variant's 'granularity' replaces its base's, either way (denovo-b extends denovo). */
Test(v2, extends_granularity, .init = setup, .fini = teardown)
{
    write_file("s.proto", sets_proto("  I | M | | | O", ""));
    proto_t *p = load_ok("line.proto", "protocol line extends s\ngranularity line\n");
    cr_assert_not(p->granularity_word);
    write_file("line.proto", "protocol line extends s\ngranularity line\n");
    proto_t *q = load_ok("word.proto", "protocol word extends line\ngranularity word\n");
    cr_assert(q->granularity_word);
    proto_t *r = load_ok("same.proto", "protocol same extends s\n");
    cr_assert(r->granularity_word, "inherited when the variant says nothing");
    proto_free(r);
    proto_free(q);
    proto_free(p);
}

/* Readings (docs/protocol-language.md, Readings): kept per item with the item's FILE:LINE;
 * a variant drops the readings of the network it redeclares and of the rows whose cells it
 * overrides, and keeps the others. */
static const char *readings_src =
    "protocol rd \"readings\"\n"
    "target sc\n"
    "param k = 1\n"
    "  reading \"seed 9 §1\": \"k is one\"\n"
    "network req ordered\n"
    "  reading \"seed 9 §2\": \"requests keep their order\"\n"
    "network resp ordered\n"
    "message REQ on req (tid: tid, loc: loc)\n"
    "message ANS on resp (tid: tid, val: val)\n"
    "controller L1 per-cu {\n"
    "  stable I V\n"
    "  I, V | load | | send REQ(tid=req.tid, loc=req.loc) to L2; wait |\n"
    "  reading \"seed 9 Table 1\": \"a load always asks the L2\"\n"
    "  I, V | ANS | | done(msg.tid, msg.val) |\n"
    "  - | fence | | done |\n"
    "}\n"
    "controller L2 shared {\n"
    "  stable V\n"
    "  line data: data = initial\n"
    "  V | REQ | | send ANS(tid=msg.tid, val=data[msg.loc]) to msg.src |\n"
    "}\n"
    "core L1 {\n"
    "  map ld.* -> load\n"
    "  reading \"§3\": \"every load\"\n"
    "  map fence.* -> fence\n"
    "}\n";

static int live_readings(const proto_t *p)
{
    int n = 0;
    for (int i = 0; i < p->nreadings; i++)
        n += p->readings[i].live;
    return n;
}

Test(v2, readings, .init = setup, .fini = teardown)
{
    write_file("rd.proto", readings_src);
    proto_t *p = load_ok("rd.proto", readings_src);
    cr_assert_eq(p->nreadings, 4);
    cr_expect_eq(live_readings(p), 4);
    const proto_reading_t *r = p->readings;
    cr_expect_eq(r[0].kind, PROTO_READ_PARAM);
    cr_expect_str_eq(r[0].item, "param k");
    cr_expect_eq(r[0].line, 3);
    cr_expect_str_eq(r[1].item, "network req");
    cr_expect_str_eq(r[1].section, "seed 9 §2");
    cr_expect_str_eq(r[1].text, "requests keep their order");
    cr_expect_eq(r[2].kind, PROTO_READ_ROW);
    cr_expect_str_eq(r[2].item, "L1 I, V | load");
    cr_expect_eq(r[2].line, 12);
    cr_expect_str_eq(r[3].item, "map ld.*");
    /* the rows of the marked item carry the reading, the others none */
    int marked = 0;
    for (int k = 0; k < p->ctrls[0].nrows; k++)
        marked += p->ctrls[0].rows[k].reading == 3;
    cr_expect_eq(marked, 1);
    proto_free(p);

    const char *variant = "protocol rdv \"a variant\" extends rd\n"
                          "network req unordered\n"
                          "  reading \"seed 9 §2\": \"the other reading\"\n"
                          "controller L1 per-cu {\n"
                          "  I, V | load | | stall |\n"
                          "}\n";
    p = load_ok("rdv.proto", variant);
    cr_assert_eq(p->nreadings, 5);
    cr_expect(!p->readings[1].live, "the base's network reading must go");
    cr_expect(!p->readings[2].live, "the overridden row's reading must go");
    cr_expect(p->readings[0].live && p->readings[3].live && p->readings[4].live);
    cr_expect(strstr(p->readings[4].file, "rdv.proto") != NULL);
    proto_free(p);

    load_bad("bad.proto", "protocol bad \"x\"\nreading \"a\": \"b\"\n", "bad.proto", 2, 1,
             "a reading must follow");
}

/* 'local wg' in the core section (timed mode's store buffer; docs/protocol-language.md):
   kept by a variant, stated once per section, only for the scope wg. */
Test(v2, core_local_wg, .init = setup, .fini = teardown)
{
    write_file("base.proto", base_src);
    proto_t *p = load_ok("base.proto", base_src);
    cr_assert(!p->wg_local);
    proto_free(p);
    char *src = strdup(base_src);
    char *at = strstr(src, "  outstanding 1\n");
    cr_assert_not_null(at);
    memcpy(at, "  local wg     \n", 16);
    memcpy(src + strlen("protocol "), "lw  ", 4); /* "protocol lw   ..." */
    write_file("lw.proto", src);
    p = load_ok("lw.proto", src);
    cr_assert(p->wg_local);
    proto_free(p);
    p = load_ok("v.proto", "protocol v extends lw\ncontroller L1 per-cu {\n}\n");
    cr_assert(p->wg_local); /* a variant keeps its base's */
    proto_free(p);
    p = load_ok("v.proto", "protocol v extends base\ncore L1 {\n  local wg\n}\n");
    cr_assert(p->wg_local); /* or adds it */
    proto_free(p);
    load_bad("v.proto", "protocol v extends base\ncore L1 {\n  local agent\n}\n", "v.proto", 3, 9,
             "expected the scope 'wg'");
    load_bad("v.proto", "protocol v extends base\ncore L1 {\n  local\n}\n", "v.proto", 4, 1,
             "expected the scope 'wg'");
    load_bad("v.proto", "protocol v extends base\ncore L1 {\n  local wg\n  local wg\n}\n",
             "v.proto", 4, 3, "'local' given twice");
    free(src);
}

/* Ghosts (docs/protocol-language.md): a 'line ghost' variable and a 'ghost' field exist in
   the timed form only; the default form drops their assignments and send values, and
   nothing but ghosts and predictor rules may read them. */
static const char *ghost_src =
    "protocol g \"ghosts\"\n"
    "network req ordered\n"
    "network resp ordered\n"
    "message REQ on req (tid: tid, loc: loc, ghost why: int(0..1))\n"
    "message ANS on resp (tid: tid, val: val)\n"
    "controller L1 per-cu {\n"
    "  stable I V\n"
    "  line ghost seen: int(0..1) = 0\n"
    "  line ghost: int(0..1) = 0\n"
    "  I | load | | send REQ(tid=req.tid, loc=req.loc, why=seen) to L2; seen := 1; wait | V\n"
    "  V | ANS | | ghost := 1; done(msg.tid, msg.val) |\n"
    "  V | load | | done(0) |\n"
    "}\n"
    "controller L2 shared {\n"
    "  stable V\n"
    "  line data: data = initial\n"
    "  V | REQ | | send ANS(tid=msg.tid, val=data[msg.loc]) to msg.src |\n"
    "}\n"
    "core L1 {\n"
    "  map ld.* -> load\n"
    "}\n";

Test(v2, ghosts, .init = setup, .fini = teardown)
{
    diag_t d;
    proto_t *p = load_ok("g.proto", ghost_src);
    const proto_ctrl_t *l1 = &p->ctrls[0];
    cr_assert(l1->linevars[0].ghost && !strcmp(l1->linevars[0].name, "seen"));
    cr_assert(!l1->linevars[1].ghost && !strcmp(l1->linevars[1].name, "ghost"));
    cr_assert(p->msgs[0].fields[2].ghost && !p->msgs[0].fields[1].ghost);
    /* the default form: I/load keeps its send and wait, loses 'seen := 1' and why's value */
    cr_assert_eq(l1->rows[0].nactions, 2);
    cr_assert_eq(l1->rows[0].actions[0].kind, PROTO_A_SEND);
    cr_assert_null(l1->rows[0].actions[0].fields[2]);
    cr_assert_not_null(l1->rows[0].actions[0].fields[0]);
    cr_assert_eq(l1->rows[1].nactions, 2); /* 'ghost' is an ordinary variable */
    proto_free(p);
    char path[128];
    snprintf(path, sizeof path, "%s/g.proto", dir);
    cr_assert_eq(proto_parse_timed(path, ghost_src, strlen(ghost_src), NULL, &p, &d), 0, "%s",
                 d.msg);
    cr_assert_eq(p->ctrls[0].rows[0].nactions, 3); /* the timed form keeps them */
    cr_assert_not_null(p->ctrls[0].rows[0].actions[0].fields[2]);
    proto_free(p);
    /* reads outside ghosts: a guard, another variable, another field, a done value */
    static const struct {
        const char *from, *to;
        int line, col;
    } bad[] = {
        {"  V | load | | done(0) |", "  V | load | seen == 1 | done(0) |", 12, 14},
        {"  V | load | | done(0) |", "  V | load | | ghost := seen; done(0) |", 12, 25},
        {"  V | load | | done(0) |", "  V | load | | done(seen) |", 12, 21},
        {"val=data[msg.loc]", "val=msg.why", 17, 41},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *at = strstr(ghost_src, bad[i].from);
        cr_assert_not_null(at);
        char *src = malloc(strlen(ghost_src) + 64);
        snprintf(src, strlen(ghost_src) + 64, "%.*s%s%s", (int)(at - ghost_src), ghost_src,
                 bad[i].to, at + strlen(bad[i].from));
        load_bad("g.proto", src, "g.proto", bad[i].line, bad[i].col,
                 "is a ghost (timed mode only)");
        free(src);
    }
}
