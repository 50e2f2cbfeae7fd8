/* sim_wide.c - the timed-mode simulator on 128-bit slots: sim.c compiled again
 * with SIM_WIDE, giving sim_run_wide, which sim_run calls for the runs that need
 * it (sim_needs_wide: more than 31 compute units and a nodeset, or a mask over a
 * line of more than 31 locations). The model, the event order and every count are
 * sim.c's; only the width of a slot and of a set differs, so every other run keeps
 * the 32-bit slots and their speed. */
#define SIM_WIDE 1
#include "sim.c"
