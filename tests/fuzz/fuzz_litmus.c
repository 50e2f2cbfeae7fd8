/* fuzz_litmus.c - libFuzzer target for the litmus parser (both the native
 * format and herd7's C dialect): any input must give a program or one
 * diagnostic, never a crash, leak or hang. A program that has a C form must
 * read back from it with the same threads, instruction counts (up to the
 * translation's declarations) and condition. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../checker/prog/prog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    prog_t *p = NULL;
    diag_t d;
    if (prog_parse("fuzz.litmus", (const char *)data, size, &p, &d) != 0)
        return 0;
    strbuf_t c;
    sb_init(&c);
    char why[160];
    if (prog_to_herd(p, &c, why, sizeof why) == 0) {
        prog_t *q = NULL;
        if (prog_parse("fuzz-c.litmus", c.s, c.len, &q, &d) != 0)
            abort();  /* the writer produced C its own reader rejects */
        int ncas = 0; /* each compare-exchange's expected value gets a location */
        for (int t = 0; t < p->nthreads; t++)
            for (int i = 0; i < p->threads[t].ninstr; i++)
                ncas += p->threads[t].instr[i].op == PROG_OP_CAS;
        if (q->nthreads != p->nthreads || q->nlocs > p->nlocs + ncas || q->quant != p->quant)
            abort();
        strbuf_t a, b;
        sb_init(&a);
        sb_init(&b);
        prog_cond_format(p, &a);
        prog_cond_format(q, &b);
        if (strcmp(a.s, b.s) != 0)
            abort();
        sb_free(&a);
        sb_free(&b);
        prog_free(q);
    }
    sb_free(&c);
    prog_free(p);
    return 0;
}
