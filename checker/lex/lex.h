/* lex.h - a table-driven tokeniser built on PCRE2, shared by the litmus and
 * model parsers. A lexer is a list of (kind, pattern) rules compiled into one
 * anchored alternation; at each position the first rule that matches wins
 * (so list keywords before identifiers, and longer operators before shorter).
 * Rules with a negative kind are skipped (whitespace, comments).
 * Invariant: every token carries the 1-based line and column of its first byte. */
#ifndef COHCHECK_LEX_H
#define COHCHECK_LEX_H

#include <stddef.h>

#include "../base/diag.h"

#define LEX_EOF 0 /* kind of the final token; rule kinds must be non-zero */

typedef struct {
    int kind;
    const char *pattern; /* PCRE2 syntax; must not match the empty string */
} lex_rule_t;

typedef struct {
    int kind;
    int line, col;
    size_t off, len; /* byte span in the source */
} lex_tok_t;

typedef struct lex_spec lex_spec_t;

/* Compile RULES[0..N). Returns 0 and *OUT, or -1 with a message in ERR
 * (a bad pattern is a programming error, reported not aborted). */
int lex_spec_new(const lex_rule_t *rules, int n, lex_spec_t **out, diag_t *err);
void lex_spec_free(lex_spec_t *spec);

/* Tokenise SRC[0..LEN) completely. On success returns 0 and a malloc'd array
 * *TOKS of *NTOKS tokens, the last of kind LEX_EOF. On an unrecognised byte
 * returns -1 and fills ERR (FILE, line, column, the offending character). */
int lex_run(const lex_spec_t *spec, const char *file, const char *src, size_t len, lex_tok_t **toks,
            int *ntoks, diag_t *err);

/* Describe the byte at SRC[OFF] for an error message ("'x'", "byte 0x01", "end of file"). */
void lex_describe(const char *src, size_t len, size_t off, char *buf, size_t buflen);

#endif
