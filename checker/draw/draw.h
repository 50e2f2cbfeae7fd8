/* draw.h - pictures as Graphviz text (cohcheck draw, docs/architecture.md section 3):
 * a protocol's state machines from its resolved tables, and a trace as a
 * message-sequence chart. Returns text only; the command line runs `dot`. */
#ifndef COHCHECK_DRAW_H
#define COHCHECK_DRAW_H

#include <stdbool.h>

#include "../exec/exec.h"
#include "../proto/proto.h"

typedef struct {
    bool stalls;     /* draw stall rows too (dotted, grey) */
    int controller;  /* draw only this controller; -1: all */
    int label_width; /* wrap edge labels at about this many characters (0: 48) */
} draw_proto_opts_t;

/* One cluster per controller: stable states as ellipses, transient ones as
 * dashed boxes, the initial state doubled; one edge per (state, row) labelled
 * "event [guard] / actions" with the row's table labels. Controller-level rows
 * ('-') are listed in a note. Malloc'd. */
char *draw_proto_dot(const proto_t *p, const draw_proto_opts_t *o);

/* A message-sequence chart: one lane per thread and controller instance, one
 * row per step. */
typedef struct draw_msc draw_msc_t;

draw_msc_t *draw_msc_new(const char *title, int nlanes, const char *const *lane_names);
void draw_msc_free(draw_msc_t *m);

/* One step: LANE acts (-1: none, e.g. the initial state) with ACTION as its
 * text; NOTES[l] (NULL or "") is what changed at lane l. A core step talks to
 * PEER (-1: none) with PEER_LABEL. RECV_FROM >= 0: LANE received RECV_LABEL
 * from that lane (matched with the earliest unmatched send of the same label
 * between the same lanes). NSENT messages leave this step: SENT_TO[i] gets
 * SENT_LABEL[i] from SENT_FROM[i]. */
typedef struct {
    int lane;
    const char *action;
    const char *const *notes;
    int peer;
    const char *peer_label;
    int recv_from;
    const char *recv_label;
    int nsent;
    const int *sent_from, *sent_to;
    const char *const *sent_label;
} draw_step_t;

void draw_msc_step(draw_msc_t *m, const draw_step_t *st);

/* The chart, with CAPTION (may be NULL) under it. Malloc'd. */
char *draw_msc_dot(const draw_msc_t *m, const char *caption);

/* One consistent execution, copied out of exec_graph_t (valid only during the
 * evaluator's callback) for drawing later. */
typedef struct {
    int n;
    int thread[CAT_MAX_EVENTS]; /* -1: an initial write */
    int16_t loc[CAT_MAX_EVENTS];
    prog_val_t val[CAT_MAX_EVENTS];
    uint64_t sets[CAT_SET__COUNT];
    uint64_t po[CAT_MAX_EVENTS], rf[CAT_MAX_EVENTS], co[CAT_MAX_EVENTS], rmw[CAT_MAX_EVENTS];
    uint32_t flags;
    char outcome[256]; /* "1:r0=1; x=1;" */
} draw_exec_t;

void draw_exec_copy(draw_exec_t *d, const exec_graph_t *g, const exec_layout_t *lay);

/* herd7-style execution graphs of N executions of P under MODEL, one cluster
 * each: events per thread in program order (initial writes on top), po, rf,
 * co, fr, rmw and sw (release-to-acquire synchronisation through rf, fences
 * included) edges. TOTAL says how many there were in all. Malloc'd. */
char *draw_execs_dot(const prog_t *p, const char *model, const draw_exec_t *e, int n, size_t total);

#endif
