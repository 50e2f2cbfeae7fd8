/* lex.c - PCRE2 tokeniser (see lex.h). One compiled alternation
 * "(r1)|(r2)|..." matched anchored at the current offset; the first capture
 * group that participated names the rule. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "lex.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"

struct lex_spec {
    pcre2_code *re;
    int n;
    int *kinds;
};

int lex_spec_new(const lex_rule_t *rules, int n, lex_spec_t **out, diag_t *err)
{
    strbuf_t pat;
    sb_init(&pat);
    for (int i = 0; i < n; i++) {
        if (i)
            sb_putc(&pat, '|');
        sb_printf(&pat, "(%s)", rules[i].pattern);
    }
    int ec;
    PCRE2_SIZE eo;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat.s, pat.len, PCRE2_ANCHORED, &ec, &eo, NULL);
    sb_free(&pat);
    if (!re) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(ec, msg, sizeof msg);
        diag_set(err, "", 0, 0, "internal: bad lexer pattern at %zu: %s", (size_t)eo, (char *)msg);
        return -1;
    }
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); /* best effort: falls back to the interpreter */
    lex_spec_t *s = xcalloc(1, sizeof *s);
    s->re = re;
    s->n = n;
    s->kinds = xmalloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        s->kinds[i] = rules[i].kind;
    *out = s;
    return 0;
}

void lex_spec_free(lex_spec_t *spec)
{
    if (!spec)
        return;
    pcre2_code_free(spec->re);
    free(spec->kinds);
    free(spec);
}

void lex_describe(const char *src, size_t len, size_t off, char *buf, size_t buflen)
{
    if (off >= len) {
        snprintf(buf, buflen, "end of file");
        return;
    }
    unsigned char c = (unsigned char)src[off];
    if (c >= 0x21 && c < 0x7f)
        snprintf(buf, buflen, "'%c'", c);
    else
        snprintf(buf, buflen, "byte 0x%02x", c);
}

/* Advance LINE/COL over SRC[from..to). */
static void advance(const char *src, size_t from, size_t to, int *line, int *col)
{
    for (size_t i = from; i < to; i++) {
        if (src[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

int lex_run(const lex_spec_t *spec, const char *file, const char *src, size_t len, lex_tok_t **toks,
            int *ntoks, diag_t *err)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(spec->re, NULL);
    lex_tok_t *arr = NULL;
    size_t n = 0, cap = 0;
    size_t off = 0;
    int line = 1, col = 1;
    int rc = 0;
    while (off < len) {
        int m = pcre2_match(spec->re, (PCRE2_SPTR)src, len, off, PCRE2_ANCHORED, md, NULL);
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        if (m < 0 || ov[1] <= ov[0]) {
            char what[32];
            lex_describe(src, len, off, what, sizeof what);
            diag_set(err, file, line, col, "unexpected character %s", what);
            rc = -1;
            goto out;
        }
        int rule = -1;
        for (int g = 1; g < m && g <= spec->n; g++) {
            if (ov[2 * g] != PCRE2_UNSET) {
                rule = g - 1;
                break;
            }
        }
        if (rule < 0) { /* cannot happen: some group matched */
            diag_set(err, file, line, col, "internal: lexer matched no rule");
            rc = -1;
            goto out;
        }
        size_t end = ov[1];
        if (spec->kinds[rule] > 0) {
            lex_tok_t t = {spec->kinds[rule], line, col, off, end - off};
            UTIL_PUSH(arr, n, cap, t);
        }
        advance(src, off, end, &line, &col);
        off = end;
    }
    lex_tok_t eof = {LEX_EOF, line, col, len, 0};
    UTIL_PUSH(arr, n, cap, eof);
out:
    pcre2_match_data_free(md);
    if (rc) {
        free(arr);
        return rc;
    }
    *toks = arr;
    *ntoks = (int)n;
    return 0;
}
