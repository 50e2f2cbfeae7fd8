/* fuzz_cat.c - libFuzzer target for the model-language parser: any input must
 * give a model or one diagnostic, never a crash, leak or hang. */
#include <stddef.h>
#include <stdint.h>

#include "../../checker/cat/cat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cat_model_t *m = NULL;
    diag_t d;
    /* Includes resolve against models/, so the required models can be pulled in. */
    if (cat_parse("fuzz", "models/fuzz.cat", (const char *)data, size, &m, &d) == 0)
        cat_free(m);
    return 0;
}
