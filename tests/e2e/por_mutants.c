/* por_mutants.c - write every mutant of a protocol's resolved table (the mutants
 * `cohcheck mutate` checks, mutate_generate) to DIR/NNNN.proto, one file each, for
 * the differential campaign of tests/e2e/por_mutants.py (docs/por.md): each mutant
 * is then checked with and without --por and the verdicts compared. Invariant: a
 * file holds exactly mutant NNNN's text, numbered as `mutate --only` numbers it.
 * Usage: por_mutants PROTOCOL.proto DIR (from the repository root: a base an 'extends'
 * names is also looked for in protocols/); prints the number written. Exit 2 on bad input. */
#include <stdio.h>
#include <stdlib.h>

#include "../../checker/base/diag.h"
#include "../../checker/mutate/mutate.h"
#include "../../checker/proto/proto.h"

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: por_mutants PROTOCOL.proto DIR\n");
        return 2;
    }
    proto_t *p;
    diag_t d;
    mutant_t *m;
    int n;
    const char *lib[] = {"protocols", NULL}; /* where an 'extends' base is looked for */
    if (proto_load_lib(argv[1], lib, &p, &d) || mutate_generate(p, &m, &n, &d)) {
        fprintf(stderr, "%s\n", d.msg);
        return 2;
    }
    int written = 0;
    for (int i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%04d.proto", argv[2], m[i].id);
        FILE *f = fopen(path, "w");
        if (!f || fputs(m[i].text, f) == EOF || fclose(f)) {
            fprintf(stderr, "%s: cannot write\n", path);
            return 2;
        }
        written++;
    }
    printf("%d\n", written);
    mutate_free(m, n);
    proto_free(p);
    return 0;
}
