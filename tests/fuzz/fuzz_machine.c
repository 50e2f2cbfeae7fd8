/* fuzz_machine.c - libFuzzer target for timed mode's machine-file parser
 * (protocols/machines/NAME.machine, docs/sim.md): any input must give a machine or
 * one diagnostic with a message, never a crash, leak or hang. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../checker/sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
    return 0;
}
