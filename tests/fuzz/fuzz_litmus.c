/* fuzz_litmus.c - libFuzzer target for the litmus parser: any input must give
 * a program or one diagnostic, never a crash, leak or hang. */
#include <stddef.h>
#include <stdint.h>

#include "../../checker/prog/prog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    prog_t *p = NULL;
    diag_t d;
    if (prog_parse("fuzz.litmus", (const char *)data, size, &p, &d) == 0)
        prog_free(p);
    return 0;
}
