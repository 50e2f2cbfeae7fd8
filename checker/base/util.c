/* util.c - allocation, buffers, file reading (see util.h). */
#include "util.h"

#include "fault.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The process's out-of-memory handler (see util.h): set once by the program. */
static _Atomic(util_oom_fn) oom_handler;

void util_set_oom_handler(util_oom_fn fn)
{
    atomic_store(&oom_handler, fn);
}

static void oom(size_t n)
{
    util_oom_fn fn = atomic_load(&oom_handler);
    if (fn)
        fn(n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = fault_hit(FAULT_ALLOC) ? NULL : malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = fault_hit(FAULT_ALLOC) ? NULL : calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom(n * size);
    return p;
}

void *xcalloc_lines(size_t n, size_t size)
{
    size_t m = ((n ? n : 1) * (size ? size : 1) + 127) & ~(size_t)127;
    void *p = NULL;
    if (fault_hit(FAULT_ALLOC) || posix_memalign(&p, 128, m))
        oom(m);
    memset(p, 0, m);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = fault_hit(FAULT_ALLOC) ? NULL : realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void util_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t c = *cap ? *cap : 8;
    while (c < need)
        c *= 2;
    *p = xrealloc(*p, c * elem);
    *cap = c;
}

void sb_init(strbuf_t *b)
{
    b->s = xmalloc(64);
    b->s[0] = 0;
    b->len = 0;
    b->cap = 64;
}

void sb_free(strbuf_t *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

void sb_putn(strbuf_t *b, const char *s, size_t n)
{
    if (!b->s)
        sb_init(b);
    util_grow((void **)&b->s, &b->cap, b->len + n + 1, 1);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

void sb_putc(strbuf_t *b, char c)
{
    sb_putn(b, &c, 1);
}
void sb_puts(strbuf_t *b, const char *s)
{
    sb_putn(b, s, strlen(s));
}

void sb_printf(strbuf_t *b, const char *fmt, ...)
{
    char tmp[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n < sizeof tmp) {
        sb_putn(b, tmp, (size_t)n);
        return;
    }
    char *big = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_putn(b, big, (size_t)n);
    free(big);
}

void sb_json_str(strbuf_t *b, const char *s)
{
    sb_putc(b, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': sb_puts(b, "\\\""); break;
        case '\\': sb_puts(b, "\\\\"); break;
        case '\n': sb_puts(b, "\\n"); break;
        case '\t': sb_puts(b, "\\t"); break;
        case '\r': sb_puts(b, "\\r"); break;
        default:
            if (*p < 0x20)
                sb_printf(b, "\\u%04x", *p);
            else
                sb_putc(b, (char)*p);
        }
    }
    sb_putc(b, '"');
}

int util_read_file(const char *path, char **data, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    strbuf_t b;
    sb_init(&b);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sb_putn(&b, buf, n);
    int err = ferror(f);
    fclose(f);
    if (err) {
        sb_free(&b);
        errno = EIO;
        return -1;
    }
    *data = b.s;
    *len = b.len;
    return 0;
}

static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/* Eight bytes at a time (multiply-rotate per word, then a murmur finaliser):
 * states are hashed once per transition, so this is on the hot path. */
uint64_t util_hash64(const void *p, size_t n, uint64_t seed)
{
    const unsigned char *s = p;
    uint64_t h = seed ^ (n * 0x9e3779b97f4a7c15ULL);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        w *= 0x87c37b91114253d5ULL;
        w = (w << 31) | (w >> 33);
        h ^= w * 0x4cf5ad432745937fULL;
        h = ((h << 27) | (h >> 37)) * 5 + 0x52dce729;
    }
    uint64_t tail = 0;
    for (size_t k = 0; i < n; i++, k += 8)
        tail |= (uint64_t)s[i] << k;
    h ^= tail * 0x87c37b91114253d5ULL;
    return mix64(h);
}

size_t util_varint_put(uint8_t *out, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        out[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    out[n++] = (uint8_t)v;
    return n;
}

int util_varint_get(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t r = 0;
    for (int sh = 0; *p < end && sh < 64; sh += 7) {
        uint8_t b = *(*p)++;
        r |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80)) {
            *v = r;
            return 0;
        }
    }
    return -1;
}

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

size_t util_delta_put(uint8_t *out, const uint8_t *prev, const uint8_t *cur, size_t len)
{
    size_t nw = (len + 7) / 8, nb = (nw + 7) / 8, o = nb;
    memset(out, 0, nb);
    for (size_t w = 0; w < nw; w++) {
        uint64_t c = 0;
        if (w * 8 + 8 <= len)
            c = rd64(cur + w * 8);
        else
            memcpy(&c, cur + w * 8, len - w * 8);
        if (c == rd64(prev + w * 8))
            continue;
        out[w / 8] |= (uint8_t)(1u << (w % 8));
        memcpy(out + o, &c, 8);
        o += 8;
    }
    return o;
}

const uint8_t *util_delta_get(const uint8_t *in, const uint8_t *end, uint8_t *buf, size_t len)
{
    size_t nw = (len + 7) / 8, nb = (nw + 7) / 8;
    if ((size_t)(end - in) < nb)
        return NULL;
    const uint8_t *p = in + nb;
    for (size_t i = 0; i < nb; i++)
        for (unsigned ws = in[i]; ws; ws &= ws - 1) {
            size_t w = i * 8 + (size_t)__builtin_ctz(ws);
            if (w >= nw || end - p < 8)
                return NULL;
            memcpy(buf + w * 8, p, 8);
            p += 8;
        }
    return p;
}

size_t util_runs_put(uint8_t *out, const uint8_t *prev, size_t plen, const uint8_t *cur, size_t len)
{
    size_t o = 0, i = 0, last = 0, both = len < plen ? len : plen;
#define DIFFERS(k) (cur[k] != ((k) < plen ? prev[k] : 0))
    while (i < len) {
        if (i + 8 <= both && !memcmp(cur + i, prev + i, 8)) { /* equal words: most of them */
            i += 8;
            continue;
        }
        if (!DIFFERS(i)) {
            i++;
            continue;
        }
        size_t j = i + 1; /* the run: gaps of one or two equal bytes join it */
        while (j < len && j - i < 255 &&
               (DIFFERS(j) || (j + 1 < len && j + 1 - i < 255 && DIFFERS(j + 1)) ||
                (j + 2 < len && j + 2 - i < 255 && DIFFERS(j + 2))))
            j++;
        for (; i - last >= 255; last += 255) {
            if (o + 2 >= len)
                return 0;
            out[o++] = 255;
            out[o++] = 0;
        }
        if (o + 2 + (j - i) >= len)
            return 0;
        out[o++] = (uint8_t)(i - last);
        out[o++] = (uint8_t)(j - i);
        memcpy(out + o, cur + i, j - i);
        o += j - i;
        last = i = j;
    }
#undef DIFFERS
    if (o + 2 >= len)
        return 0;
    out[o++] = 0;
    out[o++] = 0;
    return o;
}

size_t util_runs_len(const uint8_t *in)
{
    const uint8_t *d = in;
    for (;;) {
        size_t skip = d[0], n = d[1];
        d += 2;
        if (!skip && !n)
            return (size_t)(d - in);
        d += n;
    }
}

void util_runs_apply(const uint8_t *in, uint8_t *buf, size_t plen, size_t len)
{
    if (plen < len)
        memset(buf + plen, 0, len - plen);
    size_t i = 0;
    for (;;) {
        size_t skip = in[0], n = in[1];
        in += 2;
        if (!skip && !n)
            return;
        i += skip;
        memcpy(buf + i, in, n);
        in += n;
        i += n;
    }
}
