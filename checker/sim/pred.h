/* pred.h - timed mode's predictors (docs/sim.md "Predictors"): the current
 * prediction of each 'predict' declaration of a protocol (docs/protocol-language.md,
 * Predictors), per bank or per line, and the 'on' rules that move it. Independent
 * of the simulator's slot width, so both builds of sim.c share it. Library code.
 * Invariant: a prediction always lies in its declaration's range. */
#ifndef COHCHECK_SIM_PRED_H
#define COHCHECK_SIM_PRED_H

#include <stdbool.h>
#include <stdint.h>

#include "../proto/proto.h"
#include "sim.h"

typedef struct sim_pred sim_pred_t;

/* Predictors of P for NINST instances (INST_CTRL: each one's controller, INST_CU: its
 * compute unit, -1 for a shared one), NLINES lines and NBANKS L2 banks. EV_USED: per
 * event, whether the workload maps an instruction to it (a rule's 'used'). NULL when P
 * declares none. */
sim_pred_t *sim_pred_new(const proto_t *p, int ninst, const int *inst_ctrl, const int *inst_cu,
                         int nlines, int nbanks, const bool *ev_used);
void sim_pred_free(sim_pred_t *d);

/* Param K as instance INST reads it on LINE (-1: a controller-level row): the prediction
 * when INST's controller predicts K, else FIXED. Counted in the statistics. */
int64_t sim_pred_read(sim_pred_t *d, int k, int inst, int line, int64_t fixed);

/* The rules (indexes into proto_t.prules) of CTRL for EVENT that are on in this run,
 * -1 ended; NULL: none. */
const int *sim_pred_rules(const sim_pred_t *d, int ctrl, int event);

/* Rule R fired on instance INST, LINE: move its prediction. */
void sim_pred_apply(sim_pred_t *d, int r, int inst, int line);

/* The statistics of the first SIM_MAX_PREDS predictors into OUT; their number. */
int sim_pred_stats(const sim_pred_t *d, sim_pred_stats_t *out);

#endif
