/* net.h - the routed network of timed mode (docs/sim.md "Network"): a crossbar or a
 * 2D mesh with XY routing, links busy flit by flit, and an input buffer per virtual
 * channel (one per protocol network) at each node's ejection port, whose head holds
 * the messages behind it until its receiver accepts it (head-of-line blocking at a busy
 * L2 bank). Unbounded buffers: a message's route is timed when it is sent (net_route).
 * Bounded ones: buffers at every link's end and per-hop credit flow control
 * (net_hop_*), so a full buffer holds the links behind it. Library code: never prints,
 * never exits. */
#ifndef COHCHECK_SIM_NET_H
#define COHCHECK_SIM_NET_H

#include <stdint.h>

enum { NET_TOPO_LINKS, NET_TOPO_CROSSBAR, NET_TOPO_MESH };

typedef struct net net_t;

/* A network of KIND: a crossbar of NODES ports, or a COLS x ROWS mesh (NODES is
   then COLS * ROWS); HOP cycles per link, BANDWIDTH flits per cycle per link, NVCS
   virtual channels, BUFFER flits per VC input buffer (0: unbounded). */
net_t *net_new(int kind, int nodes, int cols, int rows, int hop, int bandwidth, int nvcs,
               int buffer);
void net_free(net_t *n);
int net_nodes(const net_t *n);

/* The most links on a path: inject, 63 steps along x, 63 along y, eject. */
#define NET_MAX_PATH 128

/* The links from node SRC to node DST into LINKS (at most NET_MAX_PATH): their count,
   0 when SRC == DST. A mesh routes XY: along x first, then along y. */
int net_path(const net_t *n, int src, int dst, int *links);
/* Link L's name: "inject 3", "eject 4", "r(1,0) east", ... */
void net_link_name(const net_t *n, int l, char *buf, size_t len);

/* Route FLITS flits from node SRC to node DST, leaving at cycle T: the cycle its
   tail arrives at DST's input buffer. Each link on the path takes the head at
   max(its arrival, the link's next free cycle), stays busy for the flits'
   serialization and passes the head on HOP cycles later. SRC == DST: T. */
uint64_t net_route(net_t *n, int src, int dst, uint64_t flits, uint64_t t);

/* A message arrives at node NODE's input buffer of virtual channel VC, and its receiver
   could take it at READY (its own wait, e.g. for its L2 bank): the cycle it leaves the
   buffer, not before the message ahead of it on that VC left (head-of-line blocking).
   Calls for one buffer come in arrival order. */
uint64_t net_vc_accept(net_t *n, int node, int vc, uint64_t ready);

/* Per-hop flow control (a network made with BUFFER > 0): every link end has an input
   buffer of BUFFER flits per VC, and a message moves onto a link only when it heads its
   buffer, the link is free and the buffer at the link's far end has room for it (credits
   come back HOP cycles after its tail left that buffer). A full buffer at a busy receiver
   thus holds the links and routers behind it. Messages advance as the network's own
   events: inject, run them up to a cycle, release at the receiver. */
typedef void (*net_deliver_fn)(void *ctx, int id, int handle, uint64_t at);
/* Message ID of FLITS from SRC to DST on VC, entering SRC's injection queue at cycle T:
   its handle, or -1 when SRC == DST (no link: it is there at T). */
int net_hop_inject(net_t *n, int id, int src, int dst, int vc, int flits, uint64_t t);
/* The cycle of the network's next event; UINT64_MAX: none. */
uint64_t net_hop_next(const net_t *n);
/* Run the events up to cycle T; DELIVER(CTX, ID, HANDLE, AT) for each message whose tail
   reaches its destination's input buffer at cycle AT (>= its event's cycle). */
void net_hop_run(net_t *n, uint64_t t, net_deliver_fn deliver, void *ctx);
/* The receiver takes message HANDLE out of its input buffer at cycle T (>= its arrival):
   its credits come back to the ejection link HOP cycles later. */
void net_hop_release(net_t *n, int handle, uint64_t t);
/* Whether N has per-hop flow control. */
int net_hop(const net_t *n);

typedef struct {
    int links;              /* links that carried a flit */
    double util_mean;       /* busy cycles over END, mean over those links */
    double util_max;        /* the busiest link's */
    char busiest[48];       /* "inject 3", "eject 4", "r(1,0) east", ... */
    double hops_mean;       /* links per routed message */
    uint64_t hol_messages;  /* messages held behind another on their VC */
    uint64_t hol_cycles;    /* cycles they were held */
    uint64_t full_messages; /* per-hop: times a message found its next buffer full */
    uint64_t full_cycles;   /* cycles they waited for its credits */
} net_summary_t;

void net_summary(const net_t *n, uint64_t end, net_summary_t *o);

#endif
