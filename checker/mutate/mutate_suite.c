/* mutate_suite.c - what `cohcheck mutate` runs the mutants on and how it sums them up
 * (mutate.h): the suite's tests with the model's allowed outcomes, the mutants an --only
 * list keeps, and the counts and kill rate. Library code: no printing. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "mutate.h"

int mutate_load_tests(char *const *files, int nfiles, cat_model_t *model, int unroll,
                      void (*bad_file)(void *ctx, const diag_t *d), void *ctx, mutate_test_t **out,
                      int *ntests, int *unreadable)
{
    mutate_test_t *tests = xcalloc((size_t)nfiles + 1, sizeof *tests);
    int n = 0;
    *unreadable = 0;
    for (int i = 0; i < nfiles; i++) {
        mutate_test_t *t = &tests[n];
        diag_t d;
        if (prog_load(files[i], &t->prog, &d)) {
            if (bad_file)
                bad_file(ctx, &d);
            (*unreadable)++;
            continue;
        }
        exec_opts_t xo = {.unroll = unroll};
        exec_stats_t xs;
        if (exec_eval(t->prog, &model, 1, &xo, &t->mr, &xs, &d)) {
            if (bad_file)
                bad_file(ctx, &d);
            prog_free(t->prog);
            t->prog = NULL;
            (*unreadable)++;
            continue;
        }
        exec_layout_init(&t->lay, t->prog);
        t->path = files[i];
        n++;
    }
    *out = tests;
    *ntests = n;
    return 0;
}

void mutate_tests_free(mutate_test_t *tests, int n)
{
    for (int t = 0; t < n; t++) {
        exec_layout_free(&tests[t].lay);
        exec_result_free(&tests[t].mr);
        prog_free(tests[t].prog);
    }
    free(tests);
}

int mutate_select(const char *list, mutant_t **m, int *n, diag_t *err)
{
    bool *keep = xcalloc((size_t)*n + 1, sizeof *keep);
    const char *s = list;
    int rc = 0;
    while (rc == 0) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        if (end == s || !isdigit((unsigned char)*s))
            rc = -1;
        else if (*end == '-') {
            const char *s2 = end + 1;
            b = strtol(s2, &end, 10);
            if (end == s2 || !isdigit((unsigned char)*s2))
                rc = -1;
        }
        if (rc == 0 && (a < 1 || b < a || b > *n))
            rc = -1;
        for (long i = a; rc == 0 && i <= b; i++)
            keep[i - 1] = true;
        if (rc == 0 && *end == '\0')
            break;
        if (rc == 0 && *end != ',')
            rc = -1;
        s = end + 1;
    }
    if (rc) {
        diag_set(err, "", 0, 0,
                 "mutate: --only takes mutant numbers from 1 to %d, like '3,7,10-12': '%s'", *n,
                 list);
        free(keep);
        return -1;
    }
    int k = 0;
    for (int i = 0; i < *n; i++) {
        if (keep[i])
            (*m)[k++] = (*m)[i];
        else
            mutate_free_one(&(*m)[i]);
    }
    *n = k;
    free(keep);
    return 0;
}

void mutate_summarize(const mutant_t *m, int n, const mutate_test_t *tests, int ntests,
                      mutate_summary_t *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < n; i++)
        s->count[m[i].cls]++;
    for (int t = 0; t < ntests; t++)
        s->usable += tests[t].usable;
    /* Not-covered mutants stay in the denominator: the suite never exercises them. */
    int denom = n - s->count[MUT_EQUIVALENT] - s->count[MUT_INVALID];
    s->rate = denom ? 100.0 * (s->count[MUT_KILLED] + s->count[MUT_KILLED_STRONGER]) / denom : 100;
}
