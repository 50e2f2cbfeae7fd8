/* util.h - small helpers shared by every module: checked allocation, growable
 * buffers, file reading. Small allocations abort on out-of-memory (STYLE.md);
 * big tables must use their own fallible allocation. */
#ifndef COHCHECK_UTIL_H
#define COHCHECK_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Grow *P (array of elements of size ELEM, capacity *CAP) to hold at least NEED. */
void util_grow(void **p, size_t *cap, size_t need, size_t elem);
#define UTIL_PUSH(arr, n, cap, val)                                         \
    do {                                                                    \
        util_grow((void **)&(arr), &(cap), (size_t)(n) + 1, sizeof *(arr)); \
        (arr)[(n)++] = (val);                                               \
    } while (0)

/* Growable NUL-terminated string. */
typedef struct {
    char *s;
    size_t len, cap;
} strbuf_t;
void sb_init(strbuf_t *b);
void sb_free(strbuf_t *b);
void sb_putc(strbuf_t *b, char c);
void sb_puts(strbuf_t *b, const char *s);
void sb_putn(strbuf_t *b, const char *s, size_t n);
void sb_printf(strbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append S as a JSON string literal (with quotes and escapes). */
void sb_json_str(strbuf_t *b, const char *s);

/* Read a whole file. Returns 0 and sets *DATA (NUL-terminated, caller frees) and *LEN,
 * or -1 with errno set. */
int util_read_file(const char *path, char **data, size_t *len);

/* 64-bit FNV-1a then a murmur finaliser: a fast, well-mixed hash of bytes. */
uint64_t util_hash64(const void *p, size_t n, uint64_t seed);

#endif
