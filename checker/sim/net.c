/* net.c - the routed network of timed mode (net.h; docs/sim.md "Network").
 * Links: inject[node] (node -> its router), eject[node] (router -> node), and in a
 * mesh four outgoing links per router (east, west, north, south). A crossbar is one
 * router, so a path is inject then eject; a mesh path is XY (seed 000/001 machine
 * tables: 2D mesh): along x, then along y. Two models: without a buffer bound a
 * message's links are reserved when it is sent (net_route); with one, messages advance
 * hop by hop under credit flow control (net_hop_*). Invariant in both: a link's free
 * cycle only moves forward and each buffer is a FIFO per VC, so two messages on one
 * path and VC never overtake. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "net.h"

enum { DIR_E, DIR_W, DIR_N, DIR_S };

struct net {
    int kind, nodes, cols, rows, hop, bandwidth, nvcs, nlinks, buffer;
    int *nx, *ny; /* a mesh's: per node, its column and row */
    struct link {
        uint64_t free; /* its next free cycle */
        uint64_t busy; /* its busy cycles so far (with free: one cache line a link) */
    } * lk;            /* per link, stored at phys[link] (below) */
    int *phys;         /* per link: its place in lk; a mesh's router links by direction, then
                          in the order a path meets them (east and west links row by row,
                          north and south ones column by column), so that a path's links
                          share cache lines */
    uint64_t *vc_free; /* per node x VC: when the input buffer's last head left */
    uint64_t routed, hops, hol_messages, hol_cycles;
    struct hop *hop_state; /* with a bounded buffer: per-hop flow control */
};

static void hop_setup(net_t *n);
static void hop_free(net_t *n);

enum { HEV_TRY, HEV_CREDIT, HEV_ARB };

typedef struct {
    uint64_t t, seq;
    int kind, a, b; /* TRY: message a; CREDIT: buffer a gets b flits */
} hev_t;

typedef struct {
    int id, len, k, flits, take, vc;
    int src, dst; /* its path: net_link(src, dst, k) for k < len */
    unsigned tok; /* its TRY events carry it: an older one is stale */
    bool waiting; /* waiting for credits, since wait_since */
    uint64_t ser, ready, wait_since;
    int buf;  /* the FIFO it is in: a buffer index, or -1 - (node x nvcs + vc) at its source */
    int next; /* the next in its FIFO, or the free list */
} hmsg_t;

typedef struct {
    int head, tail; /* hmsg indices, -1 empty */
} fifo_t;

/* The events pop in (cycle, sequence) order. Those within HCAL_W cycles of the last popped
   one wait in a calendar of one-cycle buckets (each a FIFO: a cycle's events are pushed in
   sequence order), found through a bitmap; later ones in a heap. */
#define HCAL_W 1024

typedef struct {
    hev_t *v;
    size_t head, n, cap; /* its events: v[head..n) */
} hbucket_t;

struct hop {
    hev_t *ev; /* the heap: events at HCAL_W cycles or more past cal_now */
    size_t nev, capev;
    uint64_t seq;
    hbucket_t cal[HCAL_W];
    uint64_t calmap[HCAL_W / 64];
    size_t ncal;
    uint64_t cal_now; /* the last popped event's cycle: the calendar holds [cal_now, +HCAL_W) */
    hmsg_t *m;
    size_t nm, capm;
    int free_m;
    fifo_t *fifo;    /* per link x VC, then per node x VC (injection queues) */
    int *credit;     /* per link x VC */
    int **wait;      /* per link x VC: the messages waiting for the link, oldest first */
    int *nwait, *w0; /* its entries: wait[w0..nwait) */
    size_t *capwait;
    uint64_t *arb_at; /* per link: its pending ARB event's cycle, or UINT64_MAX */
    int *rr;          /* per link: the VC it serves first next time (round-robin) */
    uint64_t credit_waits, credit_cycles;
};
typedef struct hop hop_t;

net_t *net_new(int kind, int nodes, int cols, int rows, int hop, int bandwidth, int nvcs,
               int buffer)
{
    net_t *n = xcalloc(1, sizeof *n);
    n->kind = kind;
    n->nodes = kind == NET_TOPO_MESH ? cols * rows : nodes;
    n->cols = cols;
    n->rows = rows;
    n->hop = hop;
    n->bandwidth = bandwidth < 1 ? 1 : bandwidth;
    n->nvcs = nvcs < 1 ? 1 : nvcs;
    n->nlinks = 2 * n->nodes + (kind == NET_TOPO_MESH ? 4 * n->nodes : 0);
    n->lk = xcalloc((size_t)n->nlinks, sizeof *n->lk);
    n->phys = xcalloc((size_t)n->nlinks, sizeof *n->phys);
    for (int l = 0; l < n->nlinks; l++) {
        int r = (l - 2 * n->nodes) / 4, d = (l - 2 * n->nodes) % 4;
        n->phys[l] = l < 2 * n->nodes ? l
                     : d == DIR_E || d == DIR_W
                         ? 2 * n->nodes + d * n->nodes + r
                         : 2 * n->nodes + d * n->nodes + (r % cols) * rows + r / cols;
    }
    n->vc_free = xcalloc((size_t)n->nodes * (size_t)n->nvcs, sizeof *n->vc_free);
    if (kind == NET_TOPO_MESH) {
        n->nx = xcalloc((size_t)n->nodes, sizeof *n->nx);
        n->ny = xcalloc((size_t)n->nodes, sizeof *n->ny);
        for (int k = 0; k < n->nodes; k++) {
            n->nx[k] = k % cols;
            n->ny[k] = k / cols;
        }
    }
    n->buffer = buffer;
    if (buffer > 0)
        hop_setup(n);
    return n;
}

void net_free(net_t *n)
{
    if (!n)
        return;
    free(n->lk);
    free(n->phys);
    free(n->vc_free);
    free(n->nx);
    free(n->ny);
    hop_free(n);
    free(n);
}

int net_nodes(const net_t *n)
{
    return n->nodes;
}

/* Take the link at lk[P] for a head arriving at *HEAD, SER cycles of flits. */
static void take(net_t *n, int p, uint64_t ser, uint64_t *head)
{
    uint64_t dep = *head > n->lk[p].free ? *head : n->lk[p].free;
    n->lk[p].free = dep + ser;
    n->lk[p].busy += ser;
    *head = dep + (uint64_t)n->hop;
}

/* The links on the path from SRC to DST: 0 when SRC == DST. */
static int path_len(const net_t *n, int src, int dst)
{
    if (src == dst)
        return 0;
    if (n->kind != NET_TOPO_MESH)
        return 2;
    return 2 + abs(dst % n->cols - src % n->cols) + abs(dst / n->cols - src / n->cols);
}

/* Link K (< path_len) of the path from SRC to DST: inject, then XY, then eject. */
static int path_link(const net_t *n, int src, int dst, int k, int len)
{
    if (k == 0)
        return src; /* inject */
    if (k == len - 1)
        return n->nodes + dst; /* eject */
    int x = src % n->cols, y = src / n->cols;
    int dx = dst % n->cols, dy = dst / n->cols;
    int nx = abs(dx - x);
    if (k <= nx) { /* along x first, from the source's router */
        x += (dx > x ? 1 : -1) * (k - 1);
        return 2 * n->nodes + 4 * (y * n->cols + x) + (dx > x ? DIR_E : DIR_W);
    }
    y += (dy > y ? 1 : -1) * (k - 1 - nx); /* then along y, in the destination's column */
    return 2 * n->nodes + 4 * (y * n->cols + dx) + (dy > y ? DIR_N : DIR_S);
}

int net_path(const net_t *n, int src, int dst, int *links)
{
    int len = path_len(n, src, dst);
    for (int k = 0; k < len; k++)
        links[k] = path_link(n, src, dst, k, len);
    return len;
}

uint64_t net_route(net_t *n, int src, int dst, uint64_t flits, uint64_t t)
{
    if (src == dst)
        return t;
    uint64_t ser = (flits + (uint64_t)n->bandwidth - 1) / (uint64_t)n->bandwidth;
    if (ser == 0)
        ser = 1;
    uint64_t head = t;
    n->routed++;
    take(n, src, ser, &head);       /* inject */
    if (n->kind == NET_TOPO_MESH) { /* path_link's steps, from the nodes' coordinates */
        int x = n->nx[src], y = n->ny[src], dx = n->nx[dst], dy = n->ny[dst];
        int hx = abs(dx - x), hy = abs(dy - y);
        n->hops += (uint64_t)(2 + hx + hy);
        /* along the row from router (x, y), then along column dx (phys's order) */
        int p = 2 * n->nodes + (dx > x ? DIR_E : DIR_W) * n->nodes + y * n->cols + x;
        for (int k = hx, step = dx > x ? 1 : -1; k > 0; k--, p += step)
            take(n, p, ser, &head);
        p = 2 * n->nodes + (dy > y ? DIR_N : DIR_S) * n->nodes + dx * n->rows + y;
        for (int k = hy, step = dy > y ? 1 : -1; k > 0; k--, p += step)
            take(n, p, ser, &head);
    } else {
        n->hops += 2;
    }
    take(n, n->nodes + dst, ser, &head); /* eject */
    return head + ser;
}

uint64_t net_vc_accept(net_t *n, int node, int vc, uint64_t ready)
{
    size_t k = (size_t)node * (size_t)n->nvcs + (size_t)vc;
    uint64_t go = ready;
    if (n->vc_free[k] > go) {
        n->hol_messages++;
        n->hol_cycles += n->vc_free[k] - go;
        go = n->vc_free[k];
    }
    n->vc_free[k] = go;
    return go;
}

void net_link_name(const net_t *n, int l, char *buf, size_t len)
{
    static const char *const dirs[] = {"east", "west", "north", "south"};
    if (l < n->nodes)
        snprintf(buf, len, "inject %d", l);
    else if (l < 2 * n->nodes)
        snprintf(buf, len, "eject %d", l - n->nodes);
    else {
        int r = (l - 2 * n->nodes) / 4;
        snprintf(buf, len, "r(%d,%d) %s", r % n->cols, r / n->cols, dirs[(l - 2 * n->nodes) % 4]);
    }
}

void net_summary(const net_t *n, uint64_t end, net_summary_t *o)
{
    *o = (net_summary_t){0};
    double sum = 0;
    for (int l = 0; l < n->nlinks; l++) {
        if (!n->lk[n->phys[l]].busy)
            continue;
        double u = end ? (double)n->lk[n->phys[l]].busy / (double)end : 0;
        o->links++;
        sum += u;
        if (o->links == 1 || u > o->util_max) {
            o->util_max = u;
            net_link_name(n, l, o->busiest, sizeof o->busiest);
        }
    }
    if (o->links)
        o->util_mean = sum / o->links;
    if (n->routed)
        o->hops_mean = (double)n->hops / (double)n->routed;
    o->hol_messages = n->hol_messages;
    o->hol_cycles = n->hol_cycles;
    o->full_messages = n->hop_state ? n->hop_state->credit_waits : 0;
    o->full_cycles = n->hop_state ? n->hop_state->credit_cycles : 0;
}

/* ---- per-hop flow control (net_hop_*; net.h) ----
 * A message waits in an input buffer (a FIFO per link end and VC; at its source, an
 * unbounded injection queue per node and VC) and moves onto its next link when it heads its
 * FIFO, the link is free and the link's downstream buffer has credits for its flits (an
 * empty buffer for a message larger than it). The credits come back HOP cycles after its
 * tail left that buffer. Events are (cycle, sequence) ordered, so runs are deterministic. */

static bool hev_less(const hev_t *x, const hev_t *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

static void heap_push(hop_t *h, hev_t e)
{
    if (h->nev == h->capev)
        util_grow((void **)&h->ev, &h->capev, h->nev + 1, sizeof *h->ev);
    size_t i = h->nev++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (hev_less(&h->ev[p], &e))
            break;
        h->ev[i] = h->ev[p];
        i = p;
    }
    h->ev[i] = e;
}

static hev_t heap_pop(hop_t *h)
{
    hev_t top = h->ev[0], last = h->ev[--h->nev];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->nev)
            break;
        if (c + 1 < h->nev && hev_less(&h->ev[c + 1], &h->ev[c]))
            c++;
        if (hev_less(&last, &h->ev[c]))
            break;
        h->ev[i] = h->ev[c];
        i = c;
    }
    if (h->nev)
        h->ev[i] = last;
    return top;
}

static void hev_push(hop_t *h, uint64_t t, int kind, int a, int b)
{
    hev_t e = {t, h->seq++, kind, a, b};
    if (t < h->cal_now || t - h->cal_now >= HCAL_W) {
        heap_push(h, e);
        return;
    }
    size_t k = (size_t)(t & (HCAL_W - 1));
    hbucket_t *q = &h->cal[k];
    if (q->n == q->cap)
        util_grow((void **)&q->v, &q->cap, q->n + 1, sizeof *q->v);
    q->v[q->n++] = e;
    h->calmap[k / 64] |= (uint64_t)1 << (k % 64);
    h->ncal++;
}

/* The calendar's first non-empty bucket from cal_now's, in cycle order; -1: empty. */
static int cal_first(const hop_t *h)
{
    if (!h->ncal)
        return -1;
    int start = (int)(h->cal_now & (HCAL_W - 1)), w = start / 64;
    uint64_t m = h->calmap[w] & (~(uint64_t)0 << (start % 64));
    for (int k = 0; k <= HCAL_W / 64; k++) {
        if (m)
            return w * 64 + __builtin_ctzll(m);
        w = (w + 1) % (HCAL_W / 64);
        m = h->calmap[w];
    }
    return -1;
}

/* The least pending event in (cycle, sequence): its bucket (>= 0), or -1 for the heap's
   top, or -2 when none is pending. */
static int hev_first(const hop_t *h)
{
    int k = cal_first(h);
    if (k < 0)
        return h->nev ? -1 : -2;
    const hbucket_t *q = &h->cal[k];
    return h->nev && hev_less(&h->ev[0], &q->v[q->head]) ? -1 : k;
}

static hev_t hev_pop(hop_t *h, int k)
{
    hev_t e;
    if (k < 0) {
        e = heap_pop(h);
    } else {
        hbucket_t *q = &h->cal[k];
        e = q->v[q->head++];
        if (q->head == q->n) {
            q->head = q->n = 0;
            h->calmap[k / 64] &= ~((uint64_t)1 << (k % 64));
        }
        h->ncal--;
    }
    if (e.t > h->cal_now)
        h->cal_now = e.t;
    return e;
}

static fifo_t *hop_fifo(net_t *n, int buf)
{
    hop_t *h = n->hop_state;
    return buf >= 0 ? &h->fifo[buf]
                    : &h->fifo[(size_t)n->nlinks * (size_t)n->nvcs + (size_t)(-1 - buf)];
}

static void fifo_put(hop_t *h, fifo_t *f, int m)
{
    h->m[m].next = -1;
    if (f->tail >= 0)
        h->m[f->tail].next = m;
    else
        f->head = m;
    f->tail = m;
}

static void hop_setup(net_t *n)
{
    hop_t *h = xcalloc(1, sizeof *h);
    size_t nb = (size_t)n->nlinks * (size_t)n->nvcs;
    h->fifo = xmalloc((nb + (size_t)n->nodes * (size_t)n->nvcs) * sizeof *h->fifo);
    for (size_t k = 0; k < nb + (size_t)n->nodes * (size_t)n->nvcs; k++)
        h->fifo[k] = (fifo_t){-1, -1};
    h->credit = xmalloc(nb * sizeof *h->credit);
    for (size_t k = 0; k < nb; k++)
        h->credit[k] = n->buffer;
    h->wait = xcalloc(nb, sizeof *h->wait);
    h->nwait = xcalloc(nb, sizeof *h->nwait);
    h->w0 = xcalloc(nb, sizeof *h->w0);
    h->arb_at = xmalloc((size_t)n->nlinks * sizeof *h->arb_at);
    for (int l = 0; l < n->nlinks; l++)
        h->arb_at[l] = UINT64_MAX;
    h->rr = xcalloc((size_t)n->nlinks, sizeof *h->rr);
    h->capwait = xcalloc(nb, sizeof *h->capwait);
    h->free_m = -1;
    n->hop_state = h;
}

static void hop_free(net_t *n)
{
    hop_t *h = n->hop_state;
    if (!h)
        return;
    for (size_t k = 0; k < (size_t)n->nlinks * (size_t)n->nvcs; k++)
        free(h->wait[k]);
    free(h->wait);
    free(h->nwait);
    free(h->w0);
    free(h->arb_at);
    free(h->rr);
    free(h->capwait);
    free(h->credit);
    free(h->fifo);
    free(h->m);
    free(h->ev);
    for (int k = 0; k < HCAL_W; k++)
        free(h->cal[k].v);
    free(h);
}

static void try_at(hop_t *h, int m, uint64_t t);

int net_hop_inject(net_t *n, int id, int src, int dst, int vc, int flits, uint64_t t)
{
    hop_t *h = n->hop_state;
    int len = path_len(n, src, dst);
    if (!len)
        return -1;
    int m;
    if (h->free_m >= 0) {
        m = h->free_m;
        h->free_m = h->m[m].next;
    } else {
        if (h->nm == h->capm)
            util_grow((void **)&h->m, &h->capm, h->nm + 1, sizeof *h->m);
        m = (int)h->nm++;
        h->m[m].tok = 0;
    }
    hmsg_t *x = &h->m[m];
    x->id = id;
    x->len = len;
    x->src = src;
    x->dst = dst;
    x->k = 0;
    x->flits = flits < 1 ? 1 : flits;
    x->take = x->flits < n->buffer ? x->flits : n->buffer;
    x->vc = vc;
    x->ser = ((uint64_t)x->flits + (uint64_t)n->bandwidth - 1) / (uint64_t)n->bandwidth;
    x->ready = t;
    x->buf = -1 - (src * n->nvcs + vc);
    x->waiting = false;
    fifo_t *f = hop_fifo(n, x->buf);
    bool first = f->head < 0;
    fifo_put(h, f, m);
    if (first)
        try_at(h, m, t);
    n->routed++;
    return m;
}

uint64_t net_hop_next(const net_t *n)
{
    const hop_t *h = n->hop_state;
    if (!h)
        return UINT64_MAX;
    int k = hev_first(h);
    return k == -2 ? UINT64_MAX : k < 0 ? h->ev[0].t : h->cal[k].v[h->cal[k].head].t;
}

/* Message M tries (again) at cycle T: its earlier TRY events are stale. */
static void try_at(hop_t *h, int m, uint64_t t)
{
    hev_push(h, t, HEV_TRY, m, (int)++h->m[m].tok);
}

static void wait_put(hop_t *h, size_t b, int m)
{
    if ((size_t)h->nwait[b] == h->capwait[b])
        util_grow((void **)&h->wait[b], &h->capwait[b], (size_t)h->nwait[b] + 1, sizeof(int));
    h->wait[b][h->nwait[b]++] = m;
}

/* Link L's arbitration at cycle T (or when it frees), unless one is pending by then. */
static void arb_at(net_t *n, int l, uint64_t t)
{
    hop_t *h = n->hop_state;
    if (n->lk[n->phys[l]].free > t)
        t = n->lk[n->phys[l]].free;
    if (h->arb_at[l] <= t)
        return;
    h->arb_at[l] = t;
    hev_push(h, t, HEV_ARB, l, 0);
}

/* Message M, heading its buffer, asks for its next link at cycle T: it waits in the
   link's queue for its VC (oldest first) for the link's arbitration. */
static void hop_try(net_t *n, int m, uint64_t t)
{
    hop_t *h = n->hop_state;
    hmsg_t *x = &h->m[m];
    int l = path_link(n, x->src, x->dst, x->k, x->len);
    wait_put(h, (size_t)l * (size_t)n->nvcs + (size_t)x->vc, m);
    arb_at(n, l, t);
}

/* Message M moves onto link L at cycle T (it heads the link's queue for its VC). */
static void hop_go(net_t *n, int m, int l, uint64_t t, net_deliver_fn deliver, void *ctx)
{
    hop_t *h = n->hop_state;
    hmsg_t *x = &h->m[m];
    size_t b = (size_t)l * (size_t)n->nvcs + (size_t)x->vc;
    if (++h->w0[b] == h->nwait[b])
        h->w0[b] = h->nwait[b] = 0;
    if (x->waiting) {
        h->credit_cycles += t - x->wait_since;
        x->waiting = false;
    }
    /* Leave the current FIFO: its next message may go; its flits' credits come back. */
    fifo_t *f = hop_fifo(n, x->buf);
    f->head = x->next;
    if (f->head < 0)
        f->tail = -1;
    else
        try_at(h, f->head, t > h->m[f->head].ready ? t : h->m[f->head].ready);
    if (x->buf >= 0)
        hev_push(h, t + x->ser + (uint64_t)n->hop, HEV_CREDIT, x->buf, x->take);
    n->lk[n->phys[l]].free = t + x->ser;
    n->lk[n->phys[l]].busy += x->ser;
    n->hops++;
    h->credit[b] -= x->take;
    x->buf = (int)b;
    x->k++;
    x->ready = t + (uint64_t)n->hop;
    bool first = hop_fifo(n, x->buf)->head < 0;
    fifo_put(h, hop_fifo(n, x->buf), m);
    if (x->k == x->len)
        deliver(ctx, x->id, m, x->ready + x->ser); /* its tail in the destination's buffer */
    else if (first)
        try_at(h, m, x->ready);
}

/* Link L's arbitration at cycle T: free, it takes the oldest waiting message of the first
   VC, round-robin from the one after the VC it served last, whose far buffer has credits
   for it. The others wait: for the link (the next arbitration when it frees) or for
   credits (their return arbitrates again). */
static void hop_arb(net_t *n, int l, uint64_t t, net_deliver_fn deliver, void *ctx)
{
    hop_t *h = n->hop_state;
    if (h->arb_at[l] == t)
        h->arb_at[l] = UINT64_MAX;
    if (n->lk[n->phys[l]].free > t) {
        arb_at(n, l, t);
        return;
    }
    int go = -1, waiting = 0;
    for (int j = 0; j < n->nvcs; j++) {
        int v = (h->rr[l] + j) % n->nvcs;
        size_t b = (size_t)l * (size_t)n->nvcs + (size_t)v;
        if (h->nwait[b] == h->w0[b])
            continue;
        hmsg_t *x = &h->m[h->wait[b][h->w0[b]]];
        if (h->credit[b] >= x->take) {
            if (go < 0)
                go = v;
            else
                waiting = 1;
        } else if (!x->waiting) {
            x->waiting = true;
            x->wait_since = t;
            h->credit_waits++;
        }
    }
    if (go < 0)
        return;
    size_t b = (size_t)l * (size_t)n->nvcs + (size_t)go;
    h->rr[l] = (go + 1) % n->nvcs;
    hop_go(n, h->wait[b][h->w0[b]], l, t, deliver, ctx);
    if (waiting || h->nwait[b] > h->w0[b])
        arb_at(n, l, n->lk[n->phys[l]].free);
}

void net_hop_run(net_t *n, uint64_t t, net_deliver_fn deliver, void *ctx)
{
    hop_t *h = n->hop_state;
    for (;;) {
        int k = hev_first(h);
        if (k == -2 || (k < 0 ? h->ev[0].t : h->cal[k].v[h->cal[k].head].t) > t)
            break;
        hev_t e = hev_pop(h, k);
        if (e.kind == HEV_TRY) {
            if ((unsigned)e.b == h->m[e.a].tok)
                hop_try(n, e.a, e.t);
        } else if (e.kind == HEV_ARB) {
            hop_arb(n, e.a, e.t, deliver, ctx);
        } else {
            h->credit[e.a] += e.b; /* credits back: the link arbitrates again */
            arb_at(n, e.a / n->nvcs, e.t);
        }
    }
}

void net_hop_release(net_t *n, int m, uint64_t t)
{
    hop_t *h = n->hop_state;
    hmsg_t *x = &h->m[m];
    fifo_t *f = hop_fifo(n, x->buf);
    /* Out of its destination's buffer (most often its head; the channel order of an
       ordered network can take a later one first). */
    int prev = -1;
    for (int c = f->head; c != m; c = h->m[c].next)
        prev = c;
    if (prev < 0)
        f->head = x->next;
    else
        h->m[prev].next = x->next;
    if (f->tail == m)
        f->tail = prev;
    hev_push(h, t + (uint64_t)n->hop, HEV_CREDIT, x->buf, x->take);
    x->next = h->free_m;
    h->free_m = m;
}

int net_hop(const net_t *n)
{
    return n->hop_state != NULL;
}
