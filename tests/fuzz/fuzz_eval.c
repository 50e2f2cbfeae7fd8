/* fuzz_eval.c - libFuzzer target for the whole litmus pipeline: parse, then
 * enumerate candidate executions under the SC model (small limits), so the
 * enumerator's bounds are fuzzed too. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../../checker/cat/cat.h"
#include "../../checker/exec/exec.h"
#include "../../checker/prog/prog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cat_model_t *sc; /* loaded once per fuzzing process */
    diag_t d;
    if (!sc) {
        /* $COHCHECK_FUZZ_MODEL, else models/sc.cat from the repository root (run.sh's
         * folder); without a model nothing would be fuzzed, so that stops the run. */
        const char *m = getenv("COHCHECK_FUZZ_MODEL");
        if (cat_load(m ? m : "models/sc.cat", &sc, &d)) {
            fprintf(stderr,
                    "fuzz_eval: cannot load %s (run from the repository root or set "
                    "COHCHECK_FUZZ_MODEL)\n",
                    m ? m : "models/sc.cat");
            abort();
        }
    }
    prog_t *p = NULL;
    if (prog_parse("fuzz.litmus", (const char *)data, size, &p, &d))
        return 0;
    exec_opts_t o = {.unroll = 1, .max_candidates = 20000};
    exec_model_result_t r;
    exec_stats_t st;
    if (exec_eval(p, &sc, 1, &o, &r, &st, &d) == 0)
        exec_result_free(&r);
    prog_free(p);
    return 0;
}
