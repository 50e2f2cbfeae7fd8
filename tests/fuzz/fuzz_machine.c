/* fuzz_machine.c - libFuzzer target for timed mode's machine-file parser
 * (protocols/machines/NAME.machine, docs/sim.md): any input must give a machine or
 * one diagnostic with a message, never a crash, leak or hang. A machine with a 'dram'
 * line also runs its DRAM model (checker/sim/dram.c) on a few requests: every one
 * completes, not before it arrived, and the counts add up. A machine with a 'topology'
 * line also routes up to 64 messages drawn from the input through its network
 * (checker/sim/net.c): none arrives before its path's hops and serialization allow,
 * messages on one path keep their order, and a VC buffer never lets a message leave
 * before it arrived, its receiver was ready or the message ahead of it left; with a
 * buffer bound (per-hop flow control) every message arrives once, none lost or stuck.
 * A store buffer ('sbuf') is in range and never with 'core naive 1'. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/sim/dram.h"
#include "../../checker/sim/net.h"
#include "../../checker/sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct {
    int n;
    uint64_t last;
} done_t;

static void on_issue(void *ctx, dram_tag_t tag, uint64_t done)
{
    done_t *d = ctx;
    if (done < (uint64_t)tag.ev) /* tag.ev carries the request's arrival cycle here */
        abort();
    d->n++;
    if (done > d->last)
        d->last = done;
}

/* Up to 64 requests, lines and arrival gaps drawn from the input's bytes, every channel's
   scheduler run at the cycles it asks for (the earliest first). */
static void run_dram(const sim_machine_t *m, const uint8_t *data, size_t size)
{
    const sim_dram_t *c = &m->dram;
    if (c->channels < 1 || c->banks < 1 || c->queue < 1 || c->bandwidth < 1 || c->row_bytes < 1 ||
        c->hit > c->miss || c->miss > c->conflict)
        abort();
    dram_t *d = dram_new(c, m->line_bytes > 0 ? m->line_bytes : 1);
    uint64_t *wake = malloc(sizeof *wake * (size_t)c->channels);
    for (int k = 0; k < c->channels; k++)
        wake[k] = DRAM_NEVER;
    done_t got = {0, 0};
    uint64_t now = 0;
    int nreq = size < 64 ? (int)size : 64, k = 0;
    for (;;) {
        uint64_t next_arr = k < nreq ? now + data[k] % 8 : DRAM_NEVER;
        int ch = -1;
        for (int j = 0; j < c->channels; j++)
            if (wake[j] != DRAM_NEVER && (ch < 0 || wake[j] < wake[ch]))
                ch = j;
        if (ch >= 0 && wake[ch] <= next_arr) { /* a scheduler run comes first */
            now = wake[ch];
            wake[ch] = dram_schedule(d, ch, now, on_issue, &got);
            continue;
        }
        if (k >= nreq)
            break;
        now = next_arr;
        int line = (int)((data[k] * 131u + (unsigned)k * 7u) % 4096u), rc;
        uint64_t t = dram_request(d, now, line, (dram_tag_t){0, line, (int)now}, &rc);
        if (t != DRAM_NEVER && t < wake[rc])
            wake[rc] = t;
        k++;
    }
    sim_dram_stats_t st;
    dram_stats(d, got.last, &st);
    if (got.n != nreq || st.requests != (uint64_t)nreq ||
        st.row_hits + st.row_misses + st.row_conflicts != (uint64_t)nreq)
        abort();
    free(wake);
    dram_free(d);
}

typedef struct {
    int n, handle[64];
    uint64_t at[64], sent[64];
    int src[64], dst[64], vc[64], len[64];
    uint64_t ser[64];
    bool taken[64];
    int delivered;
} hop_log_t;

static void hop_deliver(void *ctx, int id, int handle, uint64_t at)
{
    hop_log_t *g = ctx;
    if (id < 0 || id >= g->n || g->handle[id] != handle || g->at[id] != UINT64_MAX)
        abort(); /* delivered once, as injected */
    g->at[id] = at;
    g->delivered++;
}

/* Run N's events up to cycle T; each receiver takes its new messages some cycles after
   they arrived, never before T (as the simulator: it takes a message at its cycle). */
static void hop_run(net_t *n, hop_log_t *g, uint64_t t, const uint8_t *data, size_t size)
{
    net_hop_run(n, t, hop_deliver, g);
    for (int i = 0; i < g->n; i++)
        if (!g->taken[i] && g->at[i] != UINT64_MAX) {
            g->taken[i] = true;
            uint64_t r = g->at[i] + data[(4 * (size_t)i) % size] % 8;
            if (g->handle[i] >= 0)
                net_hop_release(n, g->handle[i], r > t ? r : t);
        }
}

/* Per-hop flow control: every message arrives, once, not before its path allows, and
   messages on one path and VC keep their order, whatever the receivers' delays. */
static void run_hop(net_t *n, int hop, int bw, const uint8_t *data, size_t size)
{
    static hop_log_t g;
    memset(&g, 0, sizeof g);
    int nodes = net_nodes(n), links[NET_MAX_PATH];
    uint64_t now = 0;
    for (size_t k = 0; k + 3 < size && g.n < 64; k += 4) {
        int i = g.n;
        g.src[i] = data[k] % nodes;
        g.dst[i] = data[k + 1] % nodes;
        g.vc[i] = data[k + 2] % 3;
        int flits = 1 + data[k + 2] % 8;
        now += data[k + 3] % 4;
        g.len[i] = net_path(n, g.src[i], g.dst[i], links);
        g.ser[i] = ((uint64_t)flits + (uint64_t)bw - 1) / (uint64_t)bw;
        g.sent[i] = now;
        g.at[i] = UINT64_MAX;
        hop_run(n, &g, now, data, size);
        g.n++;
        g.handle[i] = net_hop_inject(n, i, g.src[i], g.dst[i], g.vc[i], flits, now);
        if ((g.handle[i] < 0) != (g.src[i] == g.dst[i]))
            abort();
        if (g.handle[i] < 0)
            g.at[i] = now, g.taken[i] = true, g.delivered++;
    }
    for (int guard = 0; guard < 1000000 && net_hop_next(n) != UINT64_MAX; guard++)
        hop_run(n, &g, net_hop_next(n), data, size);
    if (g.delivered != g.n || net_hop_next(n) != UINT64_MAX)
        abort(); /* none lost, no deadlock */
    for (int i = 0; i < g.n; i++) {
        if (g.src[i] != g.dst[i] &&
            g.at[i] < g.sent[i] + (uint64_t)g.len[i] * (uint64_t)hop + g.ser[i])
            abort();
        for (int j = 0; j < i; j++)
            if (g.src[j] == g.src[i] && g.dst[j] == g.dst[i] && g.vc[j] == g.vc[i] &&
                g.src[i] != g.dst[i] && g.at[j] >= g.at[i])
                abort();
    }
}

static void run_net(const sim_machine_t *m, const uint8_t *data, size_t size)
{
    int cus = m->cus > 0 && m->cus <= 64 ? m->cus : 4;
    int hop = m->topo_hop > 1000 ? 1000 : m->topo_hop;
    int bw = m->bandwidth > 0 ? m->bandwidth : 1;
    int buffer = m->topo_buffer > 64 ? 64 : m->topo_buffer;
    net_t *n = net_new(m->topology, cus + 1, m->topo_cols, m->topo_rows, hop, bw, 3, buffer);
    if (net_hop(n)) {
        run_hop(n, hop, bw, data, size);
        net_free(n);
        return;
    }
    int nodes = net_nodes(n);
    uint64_t last[2] = {0, 0}, now = 0, vc_last[3] = {0, 0, 0};
    int links[NET_MAX_PATH];
    for (size_t k = 0; k + 3 < size && k < 4 * 64; k += 4) {
        int src = data[k] % nodes, dst = data[k + 1] % nodes;
        uint64_t flits = 1 + data[k + 2] % 8;
        now += data[k + 3] % 4;
        int len = net_path(n, src, dst, links);
        if (len < 0 || len > NET_MAX_PATH || (src != dst && len < 2))
            abort();
        uint64_t ser = (flits + (uint64_t)bw - 1) / (uint64_t)bw;
        uint64_t t = net_route(n, src, dst, flits, now);
        if (src != dst && t < now + (uint64_t)len * (uint64_t)hop + ser)
            abort();
        if (src == 0 && dst == nodes - 1 && src != dst) { /* one path: FIFO */
            if (t <= last[0] && last[0])
                abort();
            last[0] = t;
        }
        int vc = data[k + 2] % 3;
        uint64_t ready = t + data[k + 3] % 16;
        uint64_t go = net_vc_accept(n, dst, vc, ready);
        if (go < ready || (dst == 0 && go < vc_last[vc]))
            abort();
        if (dst == 0)
            vc_last[vc] = go;
        last[1] = t > last[1] ? t : last[1];
    }
    net_free(n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sim_machine_t m;
    diag_t d;
    if (sim_machine_parse("fuzz", (const char *)data, size, &m, &d) != 0) {
        if (!d.msg[0])
            abort(); /* a rejected file always says why */
        return 0;
    }
    if (m.nevlat < 0 || m.nevlat > SIM_MAX_EVLAT)
        abort();
    /* 'sbuf N [coalesce 0|1]': in range, and never with naive SC (seed 003) */
    if (m.sbuf < 0 || m.sbuf > 4096 || m.sbuf_coalesce < 0 || m.sbuf_coalesce > 1 ||
        (m.sbuf && m.naive_sc))
        abort();
    if (m.has_dram)
        run_dram(&m, data, size);
    if (m.topology)
        run_net(&m, data, size);
    return 0;
}
