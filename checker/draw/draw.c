/* draw.c - Graphviz text for protocols and message-sequence charts. */
#include "draw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"

/* Append S as the inside of a double-quoted dot string: quotes and
 * backslashes escaped, line breaks as \l (left-justified lines). */
static void put_esc(strbuf_t *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n && s[i]; i++) {
        char c = s[i];
        if (c == '"' || c == '\\')
            sb_putc(b, '\\');
        if (c == '\n')
            sb_puts(b, "\\l");
        else if ((unsigned char)c >= 0x20)
            sb_putc(b, c);
    }
}

/* ---- protocols ---- */

/* Append TEXT wrapped after "; " once a line is longer than WIDTH. */
static void put_wrapped(strbuf_t *b, const char *text, int width)
{
    int line = 0;
    for (const char *s = text; *s; s++) {
        char c = *s;
        if (c == '"' || c == '\\')
            sb_putc(b, '\\');
        sb_putc(b, c);
        line++;
        if (c == ';' && s[1] == ' ' && line >= width) {
            sb_puts(b, "\\l  ");
            s++;
            line = 2;
        }
    }
}

/* "event [guard] / actions  (labels)" for row R; false for rows not drawn. */
static bool edge_label(const proto_t *p, const proto_row_t *r, const draw_proto_opts_t *o,
                       strbuf_t *b)
{
    char *t = proto_row_text(p, r);
    char *col[4] = {0};
    int n = proto_split_cols(t, col);
    const char *guard = col[0], *acts = n > 1 ? col[1] : "", *labels = n > 3 ? col[3] : "";
    int width = o->label_width > 0 ? o->label_width : 48;
    put_esc(b, p->events[r->event].name, strlen(p->events[r->event].name));
    if (*guard) {
        sb_puts(b, " [");
        put_esc(b, guard, strlen(guard));
        sb_putc(b, ']');
    }
    if (*acts) {
        sb_puts(b, " / ");
        put_wrapped(b, acts, width);
    }
    if (*labels) {
        sb_puts(b, "  (");
        put_esc(b, labels, strlen(labels));
        sb_putc(b, ')');
    }
    sb_puts(b, "\\l");
    free(t);
    return true;
}

static void draw_ctrl(strbuf_t *b, const proto_t *p, int ci, const draw_proto_opts_t *o)
{
    const proto_ctrl_t *c = &p->ctrls[ci];
    sb_printf(b, "  subgraph cluster_%d {\n    label=\"%s (%s)\";\n    fontsize=16;\n", ci, c->name,
              c->per_cu ? "one per compute unit" : "shared");
    for (int s = 0; s < c->nstates; s++) {
        sb_printf(b, "    c%d_s%d [label=\"%s\"", ci, s, c->state_names[s]);
        if (c->transient[s])
            sb_puts(b, ", shape=box, style=\"rounded,dashed\"");
        else
            sb_puts(b, ", shape=ellipse, style=bold");
        if (s == c->init_state)
            sb_puts(b, ", peripheries=2");
        sb_puts(b, "];\n");
    }
    /* Rows with the same ends (and stall or not) share one edge, one line per row. */
    size_t ne = (size_t)c->nstates * (size_t)c->nstates * 2;
    strbuf_t *lab = xcalloc(ne, sizeof *lab);
    unsigned char *kinds = xcalloc(ne, 1); /* 1 message, 2 core or internal, 4 environment */
    char **where = xcalloc(ne, sizeof *where);
    strbuf_t note;
    sb_init(&note);
    for (int r = 0; r < c->nrows; r++) {
        const proto_row_t *row = &c->rows[r];
        if (row->kind == PROTO_ROW_IMPOSSIBLE || (row->kind == PROTO_ROW_STALL && !o->stalls))
            continue;
        strbuf_t one;
        sb_init(&one);
        edge_label(p, row, o, &one);
        if (!row->states) {
            sb_putn(&note, one.s, one.len);
            sb_free(&one);
            continue;
        }
        proto_event_kind_t k = p->events[row->event].kind;
        for (int st = 0; st < c->nstates; st++) {
            if (!(row->states >> st & 1))
                continue;
            int to = row->next >= 0 ? row->next : st;
            size_t e =
                ((size_t)st * (size_t)c->nstates + (size_t)to) * 2 + (row->kind == PROTO_ROW_STALL);
            if (!lab[e].s)
                sb_init(&lab[e]);
            sb_putn(&lab[e], one.s, one.len);
            kinds[e] |= k == PROTO_EV_MSG ? 1 : k == PROTO_EV_ENV ? 4 : 2;
            if (!where[e]) {
                strbuf_t w;
                sb_init(&w);
                sb_printf(&w, "%s:%d", proto_file_of(p, row->text_off), row->line);
                where[e] = w.s;
            }
        }
        sb_free(&one);
    }
    for (size_t e = 0; e < ne; e++) {
        if (!lab[e].s)
            continue;
        size_t from = e / 2 / (size_t)c->nstates, to = e / 2 % (size_t)c->nstates;
        sb_printf(b, "    c%d_s%zu -> c%d_s%zu [label=\"%s\", tooltip=\"", ci, from, ci, to,
                  lab[e].s);
        put_esc(b, where[e], strlen(where[e]));
        sb_putc(b, '"');
        if (e & 1)
            sb_puts(b, ", style=dotted, color=grey50, fontcolor=grey50");
        else if (kinds[e] == 4)
            sb_puts(b, ", style=dashed, color=darkgreen, fontcolor=darkgreen");
        else if (kinds[e] == 2)
            sb_puts(b, ", color=navy, fontcolor=navy");
        sb_puts(b, "];\n");
        sb_free(&lab[e]);
        free(where[e]);
    }
    free(lab);
    free(kinds);
    free(where);
    if (note.len)
        sb_printf(b, "    c%d_ctrl [shape=note, label=\"controller-level rows\\l%s\"];\n", ci,
                  note.s);
    sb_free(&note);
    sb_puts(b, "  }\n");
}

char *draw_proto_dot(const proto_t *p, const draw_proto_opts_t *o)
{
    draw_proto_opts_t def = {false, -1, 0};
    if (!o)
        o = &def;
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, "digraph \"");
    put_esc(&b, p->name, strlen(p->name));
    /* Top to bottom: a controller's chain of transient states then grows downwards,
     * so a drawing stays about as tall as wide (left to right, mesi's L1 alone was
     * 5814 x 713 pixels; top to bottom 847 x 945 points). */
    sb_puts(&b, "\" {\n  rankdir=TB;\n  labelloc=t;\n  fontname=\"Helvetica\";\n"
                "  node [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=9];\n"
                "  label=\"");
    put_esc(&b, p->name, strlen(p->name));
    if (p->desc) {
        sb_puts(&b, ": ");
        put_esc(&b, p->desc, strlen(p->desc));
    }
    sb_puts(&b, "\";\n");
    for (int ci = 0; ci < p->nctrls; ci++)
        if (o->controller < 0 || o->controller == ci)
            draw_ctrl(&b, p, ci, o);
    sb_puts(&b, "}\n");
    return b.s;
}

/* ---- message-sequence charts ---- */

typedef struct {
    int lane, peer, recv_from, recv_step; /* recv_step: the matched send's step, -1: none */
    char *action, *peer_label, *recv_label;
    char **notes; /* per lane, NULL: nothing */
} msc_step_t;

typedef struct {
    int from, to, step;
    char *label;
    bool matched;
} msc_send_t;

struct draw_msc {
    char *title;
    int nlanes;
    char **lanes;
    msc_step_t *steps;
    size_t nsteps, capsteps;
    msc_send_t *sends;
    size_t nsends, capsends;
};

draw_msc_t *draw_msc_new(const char *title, int nlanes, const char *const *lane_names)
{
    draw_msc_t *m = xcalloc(1, sizeof *m);
    m->title = xstrdup(title ? title : "");
    m->nlanes = nlanes;
    m->lanes = xcalloc((size_t)nlanes + 1, sizeof *m->lanes);
    for (int i = 0; i < nlanes; i++)
        m->lanes[i] = xstrdup(lane_names[i]);
    return m;
}

void draw_msc_free(draw_msc_t *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->nsteps; i++) {
        msc_step_t *s = &m->steps[i];
        free(s->action);
        free(s->peer_label);
        free(s->recv_label);
        for (int l = 0; l < m->nlanes; l++)
            free(s->notes[l]);
        free(s->notes);
    }
    for (size_t i = 0; i < m->nsends; i++)
        free(m->sends[i].label);
    for (int i = 0; i < m->nlanes; i++)
        free(m->lanes[i]);
    free(m->lanes);
    free(m->steps);
    free(m->sends);
    free(m->title);
    free(m);
}

static char *dup_or_null(const char *s)
{
    return s && *s ? xstrdup(s) : NULL;
}

static bool lane_ok(const draw_msc_t *m, int l)
{
    return l >= 0 && l < m->nlanes;
}

void draw_msc_step(draw_msc_t *m, const draw_step_t *st)
{
    msc_step_t s = {lane_ok(m, st->lane) ? st->lane : -1,
                    lane_ok(m, st->peer) ? st->peer : -1,
                    lane_ok(m, st->recv_from) ? st->recv_from : -1,
                    -1,
                    dup_or_null(st->action),
                    dup_or_null(st->peer_label),
                    dup_or_null(st->recv_label),
                    xcalloc((size_t)m->nlanes, sizeof(char *))};
    for (int l = 0; st->notes && l < m->nlanes; l++)
        s.notes[l] = dup_or_null(st->notes[l]);
    int step = (int)m->nsteps;
    if (s.recv_from >= 0 && s.lane >= 0) {
        for (size_t i = 0; i < m->nsends; i++) {
            msc_send_t *x = &m->sends[i];
            if (!x->matched && x->from == s.recv_from && x->to == s.lane &&
                !strcmp(x->label, st->recv_label ? st->recv_label : "")) {
                x->matched = true;
                s.recv_step = x->step;
                break;
            }
        }
    }
    UTIL_PUSH(m->steps, m->nsteps, m->capsteps, s);
    for (int i = 0; i < st->nsent; i++) {
        if (!lane_ok(m, st->sent_from[i]) || !lane_ok(m, st->sent_to[i]))
            continue;
        msc_send_t x = {st->sent_from[i], st->sent_to[i], step,
                        xstrdup(st->sent_label[i] ? st->sent_label[i] : ""), false};
        UTIL_PUSH(m->sends, m->nsends, m->capsends, x);
    }
}

char *draw_msc_dot(const draw_msc_t *m, const char *caption)
{
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, "digraph msc {\n  rankdir=TB;\n  newrank=true;\n  nodesep=0.6;\n  ranksep=0.25;\n"
                "  labelloc=t;\n  fontname=\"Helvetica\";\n"
                "  node [fontname=\"Helvetica\", fontsize=10];\n"
                "  edge [fontname=\"Helvetica\", fontsize=9];\n  label=\"");
    put_esc(&b, m->title, strlen(m->title));
    sb_puts(&b, "\";\n");
    /* Lane heads, kept in order by invisible edges. */
    sb_puts(&b, "  { rank=same;");
    for (int l = 0; l < m->nlanes; l++) {
        sb_printf(&b, " h%d [shape=box, style=filled, fillcolor=\"%s\", label=\"", l,
                  m->lanes[l][0] == 'P' && m->lanes[l][1] >= '0' && m->lanes[l][1] <= '9'
                      ? "lightyellow"
                      : "lightblue");
        put_esc(&b, m->lanes[l], strlen(m->lanes[l]));
        sb_puts(&b, "\"];");
    }
    sb_puts(&b, " }\n");
    for (int l = 0; l + 1 < m->nlanes; l++)
        sb_printf(&b, "  h%d -> h%d [style=invis];\n", l, l + 1);
    /* One row per step; a lane's node is a box when something happens there. */
    for (size_t k = 0; k < m->nsteps; k++) {
        const msc_step_t *s = &m->steps[k];
        sb_puts(&b, "  { rank=same;");
        for (int l = 0; l < m->nlanes; l++) {
            bool acts = l == s->lane;
            if (!acts && !s->notes[l]) {
                sb_printf(&b, " n%d_%zu [shape=point, width=0.03, label=\"\"];", l, k);
                continue;
            }
            sb_printf(&b, " n%d_%zu [shape=box, style=\"rounded%s\", fillcolor=\"%s\", label=\"", l,
                      k, acts ? ",filled" : "", acts ? "white" : "");
            if (acts) {
                sb_printf(&b, "%zu  ", k + 1);
                if (s->action)
                    put_esc(&b, s->action, strlen(s->action));
                if (s->notes[l])
                    sb_puts(&b, "\\l");
            }
            if (s->notes[l])
                put_esc(&b, s->notes[l], strlen(s->notes[l]));
            sb_puts(&b, "\\l\"];");
        }
        sb_puts(&b, " }\n");
    }
    /* Lane lines: head, one node per step, tail. */
    for (int l = 0; l < m->nlanes; l++) {
        sb_printf(&b, "  t%d [shape=point, width=0.03, label=\"\"];\n  h%d", l, l);
        for (size_t k = 0; k < m->nsteps; k++)
            sb_printf(&b, " -> n%d_%zu", l, k);
        sb_printf(&b, " -> t%d [arrowhead=none, color=grey60, weight=100];\n", l);
    }
    /* Core requests and messages. */
    for (size_t k = 0; k < m->nsteps; k++) {
        const msc_step_t *s = &m->steps[k];
        if (s->lane >= 0 && s->peer >= 0) {
            sb_printf(&b, "  n%d_%zu -> n%d_%zu [constraint=false, color=navy, fontcolor=navy",
                      s->lane, k, s->peer, k);
            if (s->peer_label) {
                sb_puts(&b, ", label=\"");
                put_esc(&b, s->peer_label, strlen(s->peer_label));
                sb_putc(&b, '"');
            }
            sb_puts(&b, "];\n");
        }
        if (s->lane >= 0 && s->recv_from >= 0) {
            size_t from = s->recv_step >= 0 ? (size_t)s->recv_step : k;
            sb_printf(&b, "  n%d_%zu -> n%d_%zu [constraint=false, color=firebrick, label=\"",
                      s->recv_from, from, s->lane, k);
            if (s->recv_label)
                put_esc(&b, s->recv_label, strlen(s->recv_label));
            sb_puts(&b, "\"];\n");
        }
    }
    /* Messages still in flight at the end. */
    for (size_t i = 0; i < m->nsends; i++) {
        const msc_send_t *x = &m->sends[i];
        if (x->matched)
            continue;
        sb_printf(&b, "  n%d_%d -> t%d [constraint=false, style=dashed, color=firebrick, label=\"",
                  x->from, x->step, x->to);
        put_esc(&b, x->label, strlen(x->label));
        sb_puts(&b, " (in flight)\"];\n");
    }
    if (caption) {
        sb_puts(&b, "  caption [shape=plaintext, label=\"");
        put_esc(&b, caption, strlen(caption));
        sb_puts(&b, "\\l\"];\n");
        if (m->nlanes)
            sb_puts(&b, "  t0 -> caption [style=invis];\n");
    }
    sb_puts(&b, "}\n");
    return b.s;
}

/* ---- execution graphs ---- */

void draw_exec_copy(draw_exec_t *d, const exec_graph_t *g, const exec_layout_t *lay)
{
    const cat_exec_t *x = g->x;
    memset(d, 0, sizeof *d);
    d->n = x->n;
    for (int e = 0; e < x->n; e++) {
        d->thread[e] = g->thread[e];
        d->loc[e] = g->loc[e];
        d->val[e] = g->val[e];
        d->po[e] = x->rels[CAT_REL_PO][e];
        d->rf[e] = x->rels[CAT_REL_RF][e];
        d->co[e] = x->rels[CAT_REL_CO][e];
        d->rmw[e] = x->rels[CAT_REL_RMW][e];
    }
    memcpy(d->sets, x->sets, sizeof d->sets);
    d->flags = g->flags;
    size_t off = 0;
    for (int k = 0; k < lay->nkeys && off < sizeof d->outcome; k++) {
        int w = snprintf(d->outcome + off, sizeof d->outcome - off, "%s%s=%lld;", k ? " " : "",
                         lay->names[k], (long long)g->outcome[k]);
        if (w < 0)
            break;
        off += (size_t)w;
    }
}

static bool has(uint64_t set, int e)
{
    return set >> e & 1;
}

/* "W[rel.agent] y=1" */
static void event_label(strbuf_t *b, const prog_t *p, const draw_exec_t *d, int e)
{
    bool r = has(d->sets[CAT_SET_R], e), w = has(d->sets[CAT_SET_W], e);
    sb_printf(b, "e%d: %s", e, r && w ? "RW" : r ? "R" : w ? "W" : "F");
    static const struct {
        cat_set_id_t set;
        const char *name;
    } ords[] = {{CAT_SET_RLX, "rlx"},
                {CAT_SET_ACQ, "acq"},
                {CAT_SET_REL, "rel"},
                {CAT_SET_ACQREL, "acqrel"},
                {CAT_SET_SC, "sc"}},
      scopes[] = {{CAT_SET_WG, "wg"},
                  {CAT_SET_AGENT, "agent"},
                  {CAT_SET_SYSTEM, "system"},
                  {CAT_SET_RMA, "rm_agent"}};
    const char *o = NULL, *sc = NULL;
    for (size_t i = 0; i < sizeof ords / sizeof ords[0]; i++)
        if (has(d->sets[ords[i].set], e))
            o = ords[i].name;
    for (size_t i = 0; i < sizeof scopes / sizeof scopes[0]; i++)
        if (has(d->sets[scopes[i].set], e))
            sc = scopes[i].name;
    if (o)
        sb_printf(b, "[%s%s%s]", o, sc ? "." : "", sc ? sc : "");
    if (d->loc[e] >= 0)
        sb_printf(b, " %s=%lld", p->locs[d->loc[e]].name, (long long)d->val[e]);
}

/* Immediate edges of a transitive relation: R minus R;R. */
static uint64_t immediate(const uint64_t *rel, int n, int a)
{
    uint64_t two = 0;
    for (int m = 0; m < n; m++)
        if (has(rel[a], m))
            two |= rel[m];
    return rel[a] & ~two;
}

static void edges(strbuf_t *b, int k, int a, uint64_t to, const char *attrs)
{
    for (int t = 0; to; t++, to >>= 1)
        if (to & 1)
            sb_printf(b, "    x%d_%d -> x%d_%d [%s];\n", k, a, k, t, attrs);
}

char *draw_execs_dot(const prog_t *p, const char *model, const draw_exec_t *ex, int n, size_t total)
{
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, "digraph executions {\n  labelloc=t;\n  fontname=\"Helvetica\";\n"
                "  node [fontname=\"Helvetica\", fontsize=10, shape=plaintext];\n"
                "  edge [fontname=\"Helvetica\", fontsize=9];\n  label=\"");
    put_esc(&b, p->name, strlen(p->name));
    sb_printf(&b, " under %s: %zu allowed execution%s the condition's proposition", model, total,
              total == 1 ? " satisfies" : "s satisfy");
    if ((size_t)n < total)
        sb_printf(&b, " (the first %d drawn)", n);
    sb_puts(&b, "\";\n");
    for (int k = 0; k < n; k++) {
        const draw_exec_t *d = &ex[k];
        sb_printf(&b, "  subgraph cluster_x%d {\n    label=\"execution %d: ", k, k + 1);
        put_esc(&b, d->outcome, strlen(d->outcome));
        if (d->flags)
            sb_puts(&b, " (racy)");
        sb_puts(&b, "\";\n");
        /* Initial writes on one row, then one cluster per thread. */
        sb_puts(&b, "    { rank=same;");
        for (int e = 0; e < d->n; e++)
            if (d->thread[e] < 0) {
                sb_printf(&b, " x%d_%d [label=\"", k, e);
                strbuf_t l;
                sb_init(&l);
                event_label(&l, p, d, e);
                put_esc(&b, l.s, l.len);
                sb_free(&l);
                sb_puts(&b, "\"];");
            }
        sb_puts(&b, " }\n");
        for (int t = 0; t < p->nthreads; t++) {
            sb_printf(&b, "    subgraph cluster_x%d_p%d {\n      label=\"P%d\";\n", k, t, t);
            for (int e = 0; e < d->n; e++) {
                if (d->thread[e] != t)
                    continue;
                strbuf_t l;
                sb_init(&l);
                event_label(&l, p, d, e);
                sb_printf(&b, "      x%d_%d [label=\"", k, e);
                put_esc(&b, l.s, l.len);
                sb_puts(&b, "\"];\n");
                sb_free(&l);
            }
            sb_puts(&b, "    }\n");
        }
        /* Keep threads under the initial writes. */
        for (int e = 0; e < d->n; e++)
            if (d->thread[e] >= 0 && !(d->sets[CAT_SET_IW] >> e & 1)) {
                bool first = true;
                for (int a = 0; a < d->n; a++)
                    if (has(d->po[a], e))
                        first = false;
                for (int i = 0; first && i < d->n; i++)
                    if (d->thread[i] < 0) {
                        sb_printf(&b, "    x%d_%d -> x%d_%d [style=invis];\n", k, i, k, e);
                        break;
                    }
            }
        for (int a = 0; a < d->n; a++) {
            edges(&b, k, a, immediate(d->po, d->n, a), "label=\"po\", weight=10");
            edges(&b, k, a, d->rf[a], "label=\"rf\", color=red, fontcolor=red, constraint=false");
            edges(&b, k, a, immediate(d->co, d->n, a),
                  "label=\"co\", color=blue, fontcolor=blue, constraint=false");
            edges(&b, k, a, d->rmw[a], "label=\"rmw\", style=dashed, constraint=false");
            /* fr = rf^-1 ; co, drawn to the read's immediate co-successor write. */
            if (has(d->sets[CAT_SET_R], a))
                for (int w = 0; w < d->n; w++)
                    if (has(d->rf[w], a))
                        edges(&b, k, a, immediate(d->co, d->n, w),
                              "label=\"fr\", color=orange, fontcolor=orange, constraint=false");
        }
        /* sw: a release (write, or fence before a write in po) to an acquire (read, or
         * fence after a read in po) through rf. */
        uint64_t rel = d->sets[CAT_SET_REL] | d->sets[CAT_SET_ACQREL] | d->sets[CAT_SET_SC];
        uint64_t acq = d->sets[CAT_SET_ACQ] | d->sets[CAT_SET_ACQREL] | d->sets[CAT_SET_SC];
        for (int w = 0; w < d->n; w++) {
            if (d->thread[w] < 0)
                continue;
            for (int r = 0; r < d->n; r++) {
                if (!has(d->rf[w], r) || d->thread[r] == d->thread[w])
                    continue;
                int from[CAT_MAX_EVENTS], to[CAT_MAX_EVENTS], nf = 0, nt = 0;
                if (has(rel, w))
                    from[nf++] = w;
                for (int f = 0; f < d->n; f++)
                    if (has(d->sets[CAT_SET_F], f) && has(rel, f) && has(d->po[f], w))
                        from[nf++] = f;
                if (has(acq, r))
                    to[nt++] = r;
                for (int f = 0; f < d->n; f++)
                    if (has(d->sets[CAT_SET_F], f) && has(acq, f) && has(d->po[r], f))
                        to[nt++] = f;
                for (int i = 0; i < nf; i++)
                    for (int j = 0; j < nt; j++)
                        sb_printf(&b,
                                  "    x%d_%d -> x%d_%d [label=\"sw\", color=darkgreen, "
                                  "fontcolor=darkgreen, style=bold, constraint=false];\n",
                                  k, from[i], k, to[j]);
            }
        }
        sb_puts(&b, "  }\n");
    }
    sb_puts(&b, "}\n");
    return b.s;
}
