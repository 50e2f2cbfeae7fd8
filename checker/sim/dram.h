/* dram.h - the DRAM model of timed mode (docs/sim.md "DRAM"): channels of banks
 * with open rows, a request queue per channel scheduled first-ready
 * first-come-first-served (FR-FCFS) with a capacity, and a data bus of so many
 * bytes per cycle. Internal to checker/sim: sim.c asks it when a DRAM access it
 * started completes. Invariant: a channel's queue never holds more than its
 * capacity; requests beyond it wait, in arrival order, outside the scheduler. */
#ifndef COHCHECK_SIM_DRAM_H
#define COHCHECK_SIM_DRAM_H

#include <stdint.h>

#include "sim.h"

#define DRAM_NEVER UINT64_MAX

typedef struct dram dram_t;

/* What a request carries back to the simulator: the controller instance, the
 * line and the protocol event its completion fires. */
typedef struct {
    int inst, line, ev;
} dram_tag_t;

/* Called for each request the scheduler issues, with the cycle its data is back. */
typedef void (*dram_issue_fn)(void *ctx, dram_tag_t tag, uint64_t done);

dram_t *dram_new(const sim_dram_t *cfg, int line_bytes);
void dram_free(dram_t *d);

/* Line -> channel, bank and row (docs/sim.md "DRAM": channel = line mod channels;
 * the lines of one channel fill a row, then the next bank). */
void dram_map(const dram_t *d, int line, int *channel, int *bank, int *row);

/* A read of LINE at cycle NOW. Returns the cycle channel *CH's scheduler must run
 * at, or DRAM_NEVER when a run is already due no later. */
uint64_t dram_request(dram_t *d, uint64_t now, int line, dram_tag_t tag, int *ch);

/* Run channel CH's scheduler at NOW (a cycle dram_request or an earlier run
 * returned; other cycles are stale and do nothing): issues every request it can,
 * calling FN for each. Returns the next cycle it must run, or DRAM_NEVER. */
uint64_t dram_schedule(dram_t *d, int ch, uint64_t now, dram_issue_fn fn, void *ctx);

/* Statistics over a run that ended at cycle END. */
void dram_stats(const dram_t *d, uint64_t end, sim_dram_stats_t *out);

#endif
