/* fuzz_claims.c - libFuzzer target for the claims language (docs/claims.md): any input must
 * give claims or one diagnostic, never a crash, leak or hang; parsed claims are evaluated
 * over 1 to 3 seeds against made-up run values (some runs failing, some values zero). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../checker/report/report.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Values from the names: a run whose protocol starts with 'x' fails; "zero" runs give 0. */
static int fake(void *ctx, const claim_run_t *r, int seed, const char *field, double *v, char *why,
                size_t n)
{
    (void)ctx;
    if (r->protocol[0] == 'x') {
        snprintf(why, n, "run %s failed", r->protocol);
        return -1;
    }
    size_t h = strlen(r->workload) * 31 + strlen(field) * 7 + (size_t)seed;
    *v = strcmp(r->workload, "zero") ? (double)(h % 97) + 0.5 * seed : 0.0;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    claims_t *c = claims_new();
    diag_t d;
    if (claims_parse(c, "fuzz.claims", (const char *)data, size, &d) == 0)
        for (int i = 0; i < claims_count(c); i++)
            for (int seeds = 1; seeds <= 3; seeds++) {
                claim_result_t r;
                claims_eval(c, i, seeds, fake, NULL, &r);
                claim_result_free(&r);
            }
    claims_free(c);
    return 0;
}
