/* fuzz_lattice.c - libFuzzer target for the lattice file parser (models/lattice):
 * any input must give a lattice or one diagnostic, never a crash, leak or hang;
 * a parsed lattice must answer its queries consistently (strongest models of
 * every prefix set are passed models, and stronger is a strict order). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "../../checker/lattice/lattice.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    lattice_t *l = NULL;
    diag_t d;
    if (lattice_parse("fuzz", (const char *)data, size, &l, &d) != 0)
        return 0;
    int n = lattice_nmodels(l);
    bool in[LATTICE_MAX_MODELS] = {0}, out[LATTICE_MAX_MODELS];
    for (int a = 0; a < n; a++) {
        if (lattice_find(l, lattice_model(l, a)) != a || lattice_stronger(l, a, a))
            abort();
        for (int b = 0; b < n; b++) {
            if (lattice_stronger(l, a, b) && lattice_stronger(l, b, a))
                abort();
            if (lattice_covers(l, a, b) && !lattice_stronger(l, a, b))
                abort();
        }
        in[a] = (a % 2) == 0;
    }
    lattice_strongest(l, in, out);
    for (int a = 0; a < n; a++)
        if (out[a] && !in[a])
            abort();
    lattice_free(l);
    return 0;
}
