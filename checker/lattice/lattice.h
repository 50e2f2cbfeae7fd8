/* lattice.h - the memory models ordered by inclusion (models/lattice, a data
 * file; docs/models.md "The lattice"). Model A is stronger than model B when
 * every outcome A allows on any test, B allows too (a racy test allows
 * everything). The file lists the covering pairs; this module closes them,
 * rejects cycles, and answers the questions `cohcheck classify` asks: which
 * passed models are strongest, and which models lie just above them.
 *
 * File format, line by line ('#' starts a comment that runs to the end of
 * the line; blank lines are ignored):
 *   model NAME...          declare models (in order; an edge declares its ends)
 *   NAME < NAME [< NAME]... each name stronger than the next
 * Names are [A-Za-z0-9_.+/-]+ (a model's name, or a .cat path). */
#ifndef COHCHECK_LATTICE_H
#define COHCHECK_LATTICE_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/diag.h"

#define LATTICE_MAX_MODELS 32

typedef struct lattice lattice_t;

/* Parse SRC (FILE names it in diagnostics). Returns 0 and *OUT, or -1 with
 * ERR = "FILE:LINE:COL: message" (a bad token, a missing name after '<', a
 * model stronger than itself, a cycle, more than LATTICE_MAX_MODELS models). */
int lattice_parse(const char *file, const char *src, size_t len, lattice_t **out, diag_t *err);
/* Read and parse the file at PATH. */
int lattice_load(const char *path, lattice_t **out, diag_t *err);
void lattice_free(lattice_t *l);

int lattice_nmodels(const lattice_t *l);
const char *lattice_model(const lattice_t *l, int i);
/* Index of model NAME, or -1. */
int lattice_find(const lattice_t *l, const char *name);
/* Is A strictly stronger than B (through any chain of edges)? */
bool lattice_stronger(const lattice_t *l, int a, int b);
/* Is A just above B: stronger, with no model strictly between? */
bool lattice_covers(const lattice_t *l, int a, int b);
/* The maximal elements of IN (IN[i]: model i is in the set): the models of
 * the set with no strictly stronger model in the set. OUT[i] is set for
 * them. Returns how many. */
int lattice_strongest(const lattice_t *l, const bool *in, bool *out);

#endif
