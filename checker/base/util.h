/* util.h - small helpers shared by every module: checked allocation, growable
 * buffers, file reading. Small allocations never return NULL: on out-of-memory
 * they call the handler the program registered (util_set_oom_handler), then
 * abort if it returns; big tables must use their own fallible allocation. */
#ifndef COHCHECK_UTIL_H
#define COHCHECK_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Called with the size that could not be allocated; it must not return (the CLI's
 * writes one line and ends the process with exit 3: a store is left as after a
 * kill -9, which it survives). Process-wide, like a signal handler: xmalloc has no
 * caller context to carry it. Without one, out-of-memory aborts. */
typedef void (*util_oom_fn)(size_t n);
void util_set_oom_handler(util_oom_fn fn);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
/* As xcalloc, on whole 128-byte blocks of its own (two cache lines: what one thread
 * writes shares no line with another thread's data); free() releases it. */
void *xcalloc_lines(size_t n, size_t size);
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

/* LEB128 varints: util_varint_put writes at most 10 bytes and returns how many;
 * util_varint_get reads one from *P (not past END), advances *P and returns 0,
 * or -1 when the bytes run out. */
size_t util_varint_put(uint8_t *out, uint64_t v);
int util_varint_get(const uint8_t **p, const uint8_t *end, uint64_t *v);

/* Delta coding of byte strings against the previous one (states in a queue or a
 * store block): a bitmap of the 8-byte words of CUR that differ from PREV, then
 * those words. PREV must be readable up to LEN rounded up to 8 and read as zero
 * past its own length; CUR is read as zero past LEN. Writes at most
 * LEN + LEN / 64 + 9 bytes to OUT and returns how many. */
size_t util_delta_put(uint8_t *out, const uint8_t *prev, const uint8_t *cur, size_t len);
/* Apply a delta at IN (not past END) to BUF, which holds PREV and has room for
 * LEN rounded up to 8: BUF then holds CUR in its first LEN bytes, zeros up to
 * the next multiple of 8, and PREV's bytes after that (the caller clears them).
 * Returns the end of the delta, or NULL when it runs past END. */
const uint8_t *util_delta_get(const uint8_t *in, const uint8_t *end, uint8_t *buf, size_t len);

/* Run coding of a byte string against the one before it (check --threads' queued
 * states): runs (skip, count, then count bytes; (255, 0) skips 255 bytes; (0, 0)
 * ends) of the bytes of CUR (LEN bytes) that differ from PREV (PLEN bytes, read as
 * zero past them); gaps of one or two equal bytes join a run. util_runs_put writes
 * fewer than LEN bytes to OUT and returns how many, or 0 when the runs would not be
 * shorter than LEN. util_runs_len: the bytes of the runs at IN. util_runs_apply: BUF
 * holds PREV (PLEN bytes) and has room for LEN; it then holds CUR in its first LEN. */
size_t util_runs_put(uint8_t *out, const uint8_t *prev, size_t plen, const uint8_t *cur,
                     size_t len);
size_t util_runs_len(const uint8_t *in);
void util_runs_apply(const uint8_t *in, uint8_t *buf, size_t plen, size_t len);

#endif
