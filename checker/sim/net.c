/* net.c - the routed network of timed mode (net.h; docs/sim.md "Network").
 * Links: inject[node] (node -> its router), eject[node] (router -> node), and in a
 * mesh four outgoing links per router (east, west, north, south). A crossbar is one
 * router, so a path is inject then eject; a mesh path is XY (seed 000/001 machine
 * tables: 2D mesh): along x, then along y. Invariant: a link's reservations only
 * move forward (free[] is monotone), so two messages on one path never overtake. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "net.h"

enum { DIR_E, DIR_W, DIR_N, DIR_S };

/* A VC's input buffer: its messages, oldest first, each leaving at a known cycle. */
typedef struct {
    uint64_t *leave;
    int *flits;
    size_t head, n, cap;
    int used; /* flits of the live entries */
} vcbuf_t;

struct net {
    int kind, nodes, cols, rows, hop, bandwidth, nvcs, nlinks, buffer;
    uint64_t *free;    /* per link: its next free cycle */
    uint64_t *busy;    /* per link: busy cycles so far */
    uint64_t *vc_free; /* per node x VC: when the input buffer's last head left */
    vcbuf_t *vcb;      /* per node x VC, with a bounded buffer */
    uint64_t routed, hops, hol_messages, hol_cycles, full_messages, full_cycles;
};

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
    n->free = xcalloc((size_t)n->nlinks, sizeof *n->free);
    n->busy = xcalloc((size_t)n->nlinks, sizeof *n->busy);
    n->vc_free = xcalloc((size_t)n->nodes * (size_t)n->nvcs, sizeof *n->vc_free);
    n->buffer = buffer;
    if (buffer > 0)
        n->vcb = xcalloc((size_t)n->nodes * (size_t)n->nvcs, sizeof *n->vcb);
    return n;
}

void net_free(net_t *n)
{
    if (!n)
        return;
    free(n->free);
    free(n->busy);
    free(n->vc_free);
    for (size_t k = 0; n->vcb && k < (size_t)n->nodes * (size_t)n->nvcs; k++) {
        free(n->vcb[k].leave);
        free(n->vcb[k].flits);
    }
    free(n->vcb);
    free(n);
}

int net_nodes(const net_t *n)
{
    return n->nodes;
}

/* Take link L for a head arriving at *HEAD, SER cycles of flits. */
static void take(net_t *n, int l, uint64_t ser, uint64_t *head)
{
    uint64_t dep = *head > n->free[l] ? *head : n->free[l];
    n->free[l] = dep + ser;
    n->busy[l] += ser;
    *head = dep + (uint64_t)n->hop;
    n->hops++;
}

int net_path(const net_t *n, int src, int dst, int *links)
{
    int k = 0;
    if (src == dst)
        return 0;
    links[k++] = src; /* inject */
    if (n->kind == NET_TOPO_MESH) {
        int x = src % n->cols, y = src / n->cols;
        int dx = dst % n->cols, dy = dst / n->cols;
        for (; x != dx; x += dx > x ? 1 : -1)
            links[k++] = 2 * n->nodes + 4 * (y * n->cols + x) + (dx > x ? DIR_E : DIR_W);
        for (; y != dy; y += dy > y ? 1 : -1)
            links[k++] = 2 * n->nodes + 4 * (y * n->cols + x) + (dy > y ? DIR_N : DIR_S);
    }
    links[k++] = n->nodes + dst; /* eject */
    return k;
}

uint64_t net_route(net_t *n, int src, int dst, uint64_t flits, uint64_t t)
{
    int links[NET_MAX_PATH];
    int len = net_path(n, src, dst, links);
    if (!len)
        return t;
    uint64_t ser = (flits + (uint64_t)n->bandwidth - 1) / (uint64_t)n->bandwidth;
    if (ser == 0)
        ser = 1;
    uint64_t head = t;
    n->routed++;
    for (int k = 0; k < len; k++)
        take(n, links[k], ser, &head);
    return head + ser;
}

/* Drop buffer B's entries that left by cycle T; the oldest first (leave times grow). */
static void vcb_drain(vcbuf_t *b, uint64_t t)
{
    while (b->head < b->n && b->leave[b->head] <= t)
        b->used -= b->flits[b->head++];
    if (b->head == b->n)
        b->head = b->n = 0;
}

/* Room for FLITS in buffer B for a message arriving at cycle T: the cycle it enters
   (the oldest entries leave first; a message larger than the buffer enters it empty). */
static uint64_t vcb_enter(vcbuf_t *b, int cap, int flits, uint64_t t)
{
    vcb_drain(b, t);
    uint64_t enter = t;
    while (b->head < b->n && b->used + flits > cap) {
        enter = b->leave[b->head];
        b->used -= b->flits[b->head++];
    }
    if (b->head == b->n)
        b->head = b->n = 0;
    return enter;
}

static void vcb_push(vcbuf_t *b, int flits, uint64_t leave)
{
    if (b->head > 0 && b->n == b->cap) { /* compact */
        memmove(b->leave, b->leave + b->head, (b->n - b->head) * sizeof *b->leave);
        memmove(b->flits, b->flits + b->head, (b->n - b->head) * sizeof *b->flits);
        b->n -= b->head;
        b->head = 0;
    }
    if (b->n == b->cap) {
        size_t cap = b->cap;
        util_grow((void **)&b->leave, &cap, b->n + 1, sizeof *b->leave);
        util_grow((void **)&b->flits, &b->cap, b->n + 1, sizeof *b->flits);
    }
    b->leave[b->n] = leave;
    b->flits[b->n++] = flits;
    b->used += flits;
}

uint64_t net_vc_accept(net_t *n, int node, int vc, int flits, uint64_t arrive, uint64_t ready)
{
    size_t k = (size_t)node * (size_t)n->nvcs + (size_t)vc;
    uint64_t go = ready > arrive ? ready : arrive;
    if (n->vcb) {
        uint64_t enter = vcb_enter(&n->vcb[k], n->buffer, flits, arrive);
        if (enter > arrive) {
            n->full_messages++;
            n->full_cycles += enter - arrive;
        }
        if (enter > go)
            go = enter;
    }
    if (n->vc_free[k] > go) {
        n->hol_messages++;
        n->hol_cycles += n->vc_free[k] - go;
        go = n->vc_free[k];
    }
    n->vc_free[k] = go;
    if (n->vcb)
        vcb_push(&n->vcb[k], flits, go);
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
        if (!n->busy[l])
            continue;
        double u = end ? (double)n->busy[l] / (double)end : 0;
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
    o->full_messages = n->full_messages;
    o->full_cycles = n->full_cycles;
}
