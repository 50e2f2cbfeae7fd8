/* draw.h - pictures as Graphviz text (cohcheck draw, DESIGN.md section 3):
 * a protocol's state machines from its resolved tables, and a trace as a
 * message-sequence chart. Returns text only; the command line runs `dot`. */
#ifndef COHCHECK_DRAW_H
#define COHCHECK_DRAW_H

#include <stdbool.h>

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

#endif
