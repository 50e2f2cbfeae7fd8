/* sys_por.h - partial-order reduction: a static footprint analysis of the
 * protocol tables and, per state, a stubborn set of transitions (docs/por.md).
 *
 * Transitions are grouped by compute unit: group c holds the threads placed on
 * CU c, the per-cu controller instances of CU c, and every step they take (a
 * thread's core event, a message received by one of those instances, their
 * internal and environment events). Groups touch each other only through
 * channels. At a state, sys_por_select keeps the enabled transitions of one
 * group when that group is a strong stubborn set there (Valmari 1991): nothing
 * outside it can enable, disable or reorder one of its transitions, and it
 * must act before the state is terminal. The explorer adds the cycle proviso
 * (full expansion when a kept successor was already visited).
 *
 * A global clock's tick is a step of no group and is never in a proper set: a set
 * qualifies only when none of its steps depends on the tick (docs/por.md, "Global
 * clocks": rows that only copy times commute with it, and a guard comparing the
 * clock keeps its value while the times it reads have expired).
 *
 * The analysis refuses (sys_por_active false, with a reason) protocols whose
 * tables break its assumptions: invariants that read more
 * than counts of line states (the others make the steps that may change them
 * visible: never in a proper set), rows that count instances over some but
 * not all states, or a done(tid) whose thread cannot be
 * proved to sit on the receiving CU (a greatest fixpoint over the tables of
 * where thread fields and variables point: docs/por.md, "Threads completed by
 * a message"). Then every state is fully expanded. */
#ifndef COHCHECK_SYS_POR_H
#define COHCHECK_SYS_POR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sys.h"

typedef struct sys_por sys_por_t;

/* Analyse S (its protocol and layout). Never fails. */
sys_por_t *sys_por_new(sys_t *s);
void sys_por_free(sys_por_t *por);

/* Whether the reduction applies to this system; when not, *WHY (may be NULL) says why. */
bool sys_por_active(const sys_por_t *por, const char **why);

/* Whether the rule for destinations carried in message fields applies (some
 * instance sends to computed nodes that only field-sender expressions give:
 * docs/por.md, "Destinations carried in message fields"); when not, *WHY says why. */
bool sys_por_fields(const sys_por_t *por, const char **why);

/* Whether cycles of progress steps are possible (a thread loops, or a per-cu
 * instance answers a message with a message to a per-cu instance): then the
 * explorer applies the cycle proviso; else no reduced path of progress steps is
 * infinite and none is needed (docs/por.md). */
bool sys_por_proviso(const sys_por_t *por);

/* A progress step: a thread's core event or a message received (not an internal or
 * environment event). A chosen set always holds an enabled one, and only cycles of
 * progress steps need the cycle proviso (docs/por.md). */
bool sys_por_progress(const sys_label_t *l);

/* STATE's enabled transitions are LABS[0..N) (as sys_successors emitted them).
 * Set KEEP[i] for the ones of the RANK-th best stubborn set (0: the smallest;
 * call with 0 first, then 1, 2, ... on the same state and labels) and return
 * how many; N (all kept) when there are no more proper stubborn sets. */
size_t sys_por_select(sys_por_t *por, const uint8_t *state, size_t len, const sys_label_t *labs,
                      size_t n, int rank, bool *keep);

#endif
