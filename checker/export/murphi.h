/* murphi.h - the whole system (resolved protocol tables, litmus program,
 * configuration) as a Murphi model in the dialect Rumur accepts (cohcheck
 * export --murphi; docs/murphi.md). The model mirrors checker/sys/sys.c state
 * for state: the same variables, unordered channels kept sorted, dead line
 * variables reset, timestamps normalized, ticks that change nothing not
 * enabled, so Rumur's reachable state count equals cohcheck's `states` for
 * the same options. Library code: writes into a buffer, never prints. */
#ifndef COHCHECK_MURPHI_H
#define COHCHECK_MURPHI_H

#include "../base/diag.h"
#include "../base/util.h"
#include "../exec/exec.h"
#include "../prog/prog.h"
#include "../proto/proto.h"
#include "../sys/sys.h"

typedef struct {
    const char *command; /* quoted in the header comment; NULL: none */
    /* The outcomes a memory model allows (exec_eval; layout exec_layout_init), checked
       by an invariant on terminal states as check does; NULL: outcomes are not checked. */
    const exec_outcomes_t *allowed;
    const char *model; /* the model's name, for that invariant */
    /* --liveness: a Rumur `liveness` property (AG EF) that a terminal state stays
       reachable; Rumur counts every rule, environment events included, as progress. */
    bool liveness;
} murphi_opts_t;

/* Append the Murphi model of protocol P on test PROG under CFG to OUT, with
 * the options O (may be NULL). Returns 0; -1 with
 * ERR when the system cannot be built (the errors `check` gives: more CUs
 * than --cus, an unknown --env event, ...) or uses something the export does
 * not cover (--time raw). Deterministic: the same inputs give the same text. */
int murphi_export(const proto_t *p, const prog_t *prog, const sys_config_t *cfg,
                  const murphi_opts_t *o, strbuf_t *out, diag_t *err);

#endif
