/* sim_wide.c - the timed-mode simulator on 128-bit slots: sim.c compiled again
 * with SIM_WIDE, giving sim_run_wide, which sim_run calls for machines of more
 * than 31 compute units (nodesets of up to 128). The model, the event order and
 * every count are sim.c's; only the width of a slot and of a set differs, so the
 * runs of 31 CUs or fewer keep the 32-bit slots and their speed. */
#define SIM_WIDE 1
#include "sim.c"
