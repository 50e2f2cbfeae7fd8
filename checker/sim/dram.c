/* dram.c - the DRAM model of timed mode (dram.h; the model is docs/sim.md "DRAM").
 * Per channel: banks with an open row (open-page policy) and the cycle each can
 * take its next command, one data bus, a scheduler queue of at most `queue`
 * requests and, behind it, the requests that found it full (in arrival order).
 * The scheduler runs only at cycles it asked for (a request's arrival, a bank
 * becoming ready), so an idle channel costs nothing. Invariant: n <= capacity. */
#include "dram.h"

#include <stdlib.h>
#include <string.h>

#include "../base/util.h"

typedef struct {
    dram_tag_t tag;
    int bank, row;
    uint64_t arrive, seq;
} req_t;

typedef struct {
    req_t *q; /* the scheduler queue: capacity entries, n used, any order */
    int n;
    req_t *wait; /* requests that found the queue full: FIFO wait[whead..nwait) */
    size_t nwait, whead, capwait;
    int *open_row;        /* per bank: the open row, -1 none */
    uint64_t *bank_ready; /* per bank: the cycle it takes its next command */
    uint64_t bus_free;    /* the cycle the data bus is free */
    uint64_t wake;        /* the scheduler run already due, DRAM_NEVER none */
    uint64_t occ_sum;     /* integral of n over cycles, up to occ_at */
    uint64_t occ_at;
    int occ_max;
} chan_t;

struct dram {
    sim_dram_t c;
    int line_bytes, burst, lines_per_row;
    chan_t *ch;
    uint64_t seq;
    uint64_t requests, hits, misses, conflicts, full, full_cycles, lat_sum, lat_max;
};

dram_t *dram_new(const sim_dram_t *cfg, int line_bytes)
{
    dram_t *d = xcalloc(1, sizeof *d);
    d->c = *cfg;
    d->line_bytes = line_bytes;
    d->burst = (line_bytes + cfg->bandwidth - 1) / cfg->bandwidth;
    d->lines_per_row = cfg->row_bytes / line_bytes > 0 ? cfg->row_bytes / line_bytes : 1;
    d->ch = xcalloc((size_t)cfg->channels, sizeof *d->ch);
    for (int k = 0; k < cfg->channels; k++) {
        chan_t *c = &d->ch[k];
        c->q = xmalloc(sizeof *c->q * (size_t)cfg->queue);
        c->open_row = xmalloc(sizeof(int) * (size_t)cfg->banks);
        c->bank_ready = xcalloc((size_t)cfg->banks, sizeof(uint64_t));
        for (int b = 0; b < cfg->banks; b++)
            c->open_row[b] = -1;
        c->wake = DRAM_NEVER;
    }
    return d;
}

void dram_free(dram_t *d)
{
    if (!d)
        return;
    for (int k = 0; k < d->c.channels; k++) {
        free(d->ch[k].q);
        free(d->ch[k].wait);
        free(d->ch[k].open_row);
        free(d->ch[k].bank_ready);
    }
    free(d->ch);
    free(d);
}

void dram_map(const dram_t *d, int line, int *channel, int *bank, int *row)
{
    int idx = line / d->c.channels; /* the line's place in its channel */
    *channel = line % d->c.channels;
    *bank = idx / d->lines_per_row % d->c.banks;
    *row = idx / (d->lines_per_row * d->c.banks);
}

/* Account the queue's occupancy up to NOW. */
static void occ_update(chan_t *c, uint64_t now)
{
    if (now > c->occ_at) {
        c->occ_sum += (uint64_t)c->n * (now - c->occ_at);
        c->occ_at = now;
    }
}

static void admit(dram_t *d, chan_t *c, const req_t *r, uint64_t now)
{
    occ_update(c, now);
    c->q[c->n++] = *r;
    if (c->n > c->occ_max)
        c->occ_max = c->n;
    if (now > r->arrive)
        d->full_cycles += now - r->arrive;
}

uint64_t dram_request(dram_t *d, uint64_t now, int line, dram_tag_t tag, int *ch)
{
    req_t r = {tag, 0, 0, now, d->seq++};
    dram_map(d, line, ch, &r.bank, &r.row);
    chan_t *c = &d->ch[*ch];
    d->requests++;
    if (c->n < d->c.queue && c->nwait == c->whead) {
        admit(d, c, &r, now);
    } else {
        d->full++;
        if (c->nwait == c->capwait) {
            c->capwait = c->capwait ? c->capwait * 2 : 16;
            c->wait = xrealloc(c->wait, sizeof *c->wait * c->capwait);
        }
        c->wait[c->nwait++] = r;
        return DRAM_NEVER; /* it enters when an issue frees a slot: a run is pending then */
    }
    if (c->wake <= now)
        return DRAM_NEVER;
    c->wake = now;
    return now;
}

/* The request FR-FCFS issues at NOW: the oldest row hit among the requests whose
 * bank is ready, else the oldest of them; -1 none. */
static int pick(const chan_t *c, uint64_t now)
{
    int best = -1;
    bool best_hit = false;
    for (int k = 0; k < c->n; k++) {
        const req_t *r = &c->q[k];
        if (c->bank_ready[r->bank] > now)
            continue;
        bool hit = c->open_row[r->bank] == r->row;
        if (best < 0 || (hit && !best_hit) || (hit == best_hit && r->seq < c->q[best].seq)) {
            best = k;
            best_hit = hit;
        }
    }
    return best;
}

/* Issue queue entry K of C at NOW: bank and bus timing, then FN. */
static void issue(dram_t *d, chan_t *c, int k, uint64_t now, dram_issue_fn fn, void *ctx)
{
    req_t r = c->q[k];
    occ_update(c, now);
    c->q[k] = c->q[--c->n];
    int open = c->open_row[r.bank];
    int access = open == r.row ? d->c.hit : open < 0 ? d->c.miss : d->c.conflict;
    if (open == r.row)
        d->hits++;
    else if (open < 0)
        d->misses++;
    else
        d->conflicts++;
    uint64_t data = now + (uint64_t)access;
    if (data < c->bus_free)
        data = c->bus_free;
    c->bus_free = data + (uint64_t)d->burst;
    /* The bank takes its next column command once this one's row is open and its
       burst is out; a row change costs the precharge/activate part again. */
    c->bank_ready[r.bank] = now + (uint64_t)(access - d->c.hit) + (uint64_t)d->burst;
    c->open_row[r.bank] = r.row;
    uint64_t done = c->bus_free + (uint64_t)d->c.latency;
    d->lat_sum += done - r.arrive;
    if (done - r.arrive > d->lat_max)
        d->lat_max = done - r.arrive;
    if (c->whead < c->nwait) { /* a slot is free: the oldest waiting request enters */
        admit(d, c, &c->wait[c->whead++], now);
        if (c->whead == c->nwait)
            c->whead = c->nwait = 0;
    }
    fn(ctx, r.tag, done);
}

uint64_t dram_schedule(dram_t *d, int ch, uint64_t now, dram_issue_fn fn, void *ctx)
{
    chan_t *c = &d->ch[ch];
    if (c->wake != now)
        return DRAM_NEVER; /* stale: a run at another cycle is due */
    for (int k; (k = pick(c, now)) >= 0;)
        issue(d, c, k, now, fn, ctx);
    uint64_t next = DRAM_NEVER;
    for (int k = 0; k < c->n; k++)
        if (c->bank_ready[c->q[k].bank] < next)
            next = c->bank_ready[c->q[k].bank];
    c->wake = next;
    return next;
}

void dram_stats(const dram_t *d, uint64_t end, sim_dram_stats_t *o)
{
    memset(o, 0, sizeof *o);
    o->on = d->requests > 0;
    o->channels = d->c.channels;
    o->requests = d->requests;
    o->row_hits = d->hits;
    o->row_misses = d->misses;
    o->row_conflicts = d->conflicts;
    o->bytes = (d->hits + d->misses + d->conflicts) * (uint64_t)d->line_bytes;
    o->peak_bandwidth = (double)d->c.channels * d->c.bandwidth;
    o->queue_full = d->full;
    o->queue_full_cycles = d->full_cycles;
    uint64_t issued = d->hits + d->misses + d->conflicts, occ = 0;
    for (int k = 0; k < d->c.channels; k++) {
        const chan_t *c = &d->ch[k];
        occ += c->occ_sum + (end > c->occ_at ? (uint64_t)c->n * (end - c->occ_at) : 0);
        if ((uint64_t)c->occ_max > o->occupancy_max)
            o->occupancy_max = (uint64_t)c->occ_max;
    }
    if (end) {
        o->bandwidth = (double)o->bytes / (double)end;
        o->occupancy_mean = (double)occ / ((double)end * d->c.channels);
    }
    if (issued)
        o->latency_mean = (double)d->lat_sum / (double)issued;
    o->latency_max = d->lat_max;
}
