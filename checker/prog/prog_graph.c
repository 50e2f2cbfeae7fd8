/* prog_graph.c - graph inputs for kernels (docs/litmus.md, "Kernels"): Matrix
 * Market and DIMACS readers, seeded R-MAT and road-like grid generators, and a
 * reference SSSP. Invariant: a prog_graph_t is CSR with row[0] = 0, row[n] = m,
 * every col in 0..n-1 and every weight in 1..PROG_MAX_SCALE_VAL-1; readers
 * reject anything else with one FILE:LINE:COL diagnostic. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"

typedef struct {
    const char *file;
    const char *s;
    size_t len, off;
    int line;
    size_t line_start;
    diag_t *err;
} rd_t;

typedef struct {
    int32_t u, v, w;
} edge_t;

static int rd_fail(rd_t *r, size_t at, const char *msg)
{
    diag_set(r->err, r->file, r->line, (int)(at - r->line_start) + 1, "%s", msg);
    return -1;
}

/* Move to the next line; false at the end of the text. */
static bool rd_next_line(rd_t *r)
{
    while (r->off < r->len && r->s[r->off] != '\n')
        r->off++;
    if (r->off >= r->len)
        return false;
    r->off++;
    r->line++;
    r->line_start = r->off;
    return r->off < r->len;
}

static void rd_blank(rd_t *r)
{
    while (r->off < r->len && (r->s[r->off] == ' ' || r->s[r->off] == '\t' || r->s[r->off] == '\r'))
        r->off++;
}

static bool rd_eol(rd_t *r)
{
    rd_blank(r);
    return r->off >= r->len || r->s[r->off] == '\n';
}

/* A decimal integer in LO..HI (WHAT names it in the error). */
static int rd_int(rd_t *r, long long lo, long long hi, const char *what, long long *v)
{
    rd_blank(r);
    size_t at = r->off;
    bool neg = r->off < r->len && r->s[r->off] == '-';
    if (neg)
        r->off++;
    if (r->off >= r->len || !isdigit((unsigned char)r->s[r->off])) {
        char m[96];
        snprintf(m, sizeof m, "expected %s (an integer)", what);
        return rd_fail(r, at, m);
    }
    long long x = 0;
    while (r->off < r->len && isdigit((unsigned char)r->s[r->off])) {
        x = x * 10 + (r->s[r->off++] - '0');
        if (x > 1000000000000LL)
            break;
    }
    if (neg)
        x = -x;
    if (x < lo || x > hi) {
        char m[128];
        snprintf(m, sizeof m, "%s %lld out of range (%lld..%lld)", what, x, lo, hi);
        return rd_fail(r, at, m);
    }
    *v = x;
    return 0;
}

/* A Matrix Market value: an integer or a real; its magnitude rounded, at least 1. */
static int rd_weight(rd_t *r, long long *v)
{
    rd_blank(r);
    size_t at = r->off;
    char buf[64];
    size_t n = 0;
    while (r->off < r->len && n + 1 < sizeof buf && strchr("0123456789+-.eE", r->s[r->off]))
        buf[n++] = r->s[r->off++];
    buf[n] = '\0';
    char *end;
    double d = n ? strtod(buf, &end) : 0;
    if (!n || *end || d != d)
        return rd_fail(r, at, "expected a value (an integer or a real)");
    if (d < 0)
        d = -d;
    if (d >= PROG_MAX_SCALE_VAL - 0.5)
        return rd_fail(r, at, "weight out of range (at most 32767)");
    long long x = (long long)(d + 0.5);
    *v = x < 1 ? 1 : x;
    return 0;
}

static int edge_cmp(const void *a, const void *b)
{
    const edge_t *x = a, *y = b;
    return x->u != y->u ? (x->u > y->u) - (x->u < y->u) : (x->v > y->v) - (x->v < y->v);
}

/* Build G from E[0..M) over N vertices (sorted by source, then target). */
static void build_csr(int n, edge_t *e, int m, prog_graph_t *g)
{
    qsort(e, (size_t)m, sizeof *e, edge_cmp);
    g->n = n;
    g->m = m;
    g->row = xcalloc((size_t)n + 1, sizeof *g->row);
    g->col = xmalloc(sizeof *g->col * ((size_t)m + 1));
    g->w = xmalloc(sizeof *g->w * ((size_t)m + 1));
    for (int k = 0; k < m; k++) {
        g->row[e[k].u + 1]++;
        g->col[k] = e[k].v;
        g->w[k] = e[k].w;
    }
    for (int v = 0; v < n; v++)
        g->row[v + 1] += g->row[v];
}

static bool word_at(const rd_t *r, size_t at, const char *w)
{
    size_t n = strlen(w);
    if (at + n > r->len)
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)r->s[at + i]) != w[i])
            return false;
    return at + n == r->len || isspace((unsigned char)r->s[at + n]);
}

/* Skip blanks and read one word of the header into the list's index, or -1. */
static int header_word(rd_t *r, const char *const *words, int nwords, const char *what)
{
    rd_blank(r);
    for (int i = 0; i < nwords; i++)
        if (word_at(r, r->off, words[i])) {
            r->off += strlen(words[i]);
            return i;
        }
    char m[128];
    snprintf(m, sizeof m, "unsupported Matrix Market %s (%s)", what,
             nwords == 2 ? "general or symmetric" : "integer, real or pattern");
    return rd_fail(r, r->off, m);
}

static int read_mtx(rd_t *r, long maxv, long maxe, prog_graph_t *g)
{
    static const char *const field[] = {"integer", "real", "pattern"};
    static const char *const sym[] = {"general", "symmetric"};
    r->off += strlen("%%MatrixMarket");
    rd_blank(r);
    if (!word_at(r, r->off, "matrix"))
        return rd_fail(r, r->off, "expected 'matrix' after %%MatrixMarket");
    r->off += 6;
    rd_blank(r);
    if (!word_at(r, r->off, "coordinate"))
        return rd_fail(r, r->off, "only 'coordinate' (sparse) matrices are graphs");
    r->off += 10;
    int f = header_word(r, field, 3, "field");
    int y = f < 0 ? -1 : header_word(r, sym, 2, "symmetry");
    if (y < 0)
        return -1;
    if (!rd_eol(r))
        return rd_fail(r, r->off, "unexpected text after the header");
    for (;;) { /* comments and blank lines */
        if (!rd_next_line(r))
            return rd_fail(r, r->off, "missing the size line (ROWS COLS ENTRIES)");
        if (!rd_eol(r) && r->s[r->off] != '%')
            break;
    }
    long long nr, nc, nz;
    if (rd_int(r, 1, maxv, "row count", &nr) || rd_int(r, 1, maxv, "column count", &nc) ||
        rd_int(r, 0, maxe, "entry count", &nz))
        return -1;
    if (nr != nc)
        return rd_fail(r, r->line_start, "an adjacency matrix is square (rows = columns)");
    if (!rd_eol(r))
        return rd_fail(r, r->off, "unexpected text after the size line");
    edge_t *e = xmalloc(sizeof *e * ((size_t)nz * 2 + 1));
    long m = 0;
    for (long long k = 0; k < nz;) {
        if (!rd_next_line(r)) {
            free(e);
            return rd_fail(r, r->off, "fewer entries than the size line says");
        }
        if (rd_eol(r) || r->s[r->off] == '%')
            continue;
        long long i, j, w = 1;
        if (rd_int(r, 1, nr, "row", &i) || rd_int(r, 1, nc, "column", &j) ||
            (f != 2 && rd_weight(r, &w)) ||
            (!rd_eol(r) && rd_fail(r, r->off, "unexpected text after the entry"))) {
            free(e);
            return -1;
        }
        if (m + (y == 1 && i != j ? 2 : 1) > maxe) {
            free(e);
            return rd_fail(r, r->line_start, "too many edges");
        }
        e[m++] = (edge_t){(int32_t)(i - 1), (int32_t)(j - 1), (int32_t)w};
        if (y == 1 && i != j)
            e[m++] = (edge_t){(int32_t)(j - 1), (int32_t)(i - 1), (int32_t)w};
        k++;
    }
    while (rd_next_line(r))
        if (!rd_eol(r) && r->s[r->off] != '%') {
            free(e);
            return rd_fail(r, r->off, "more entries than the size line says");
        }
    build_csr((int)nr, e, (int)m, g);
    free(e);
    return 0;
}

static int read_dimacs(rd_t *r, long maxv, long maxe, prog_graph_t *g)
{
    long long n = -1, want = 0;
    long m = 0;
    edge_t *e = NULL;
    int rc = 0;
    for (bool more = true; more && !rc; more = rd_next_line(r)) {
        if (rd_eol(r))
            continue;
        char c = r->s[r->off];
        size_t at = r->off++;
        if (c == 'c')
            continue;
        if (c == 'p') {
            rd_blank(r);
            if (n >= 0)
                rc = rd_fail(r, at, "a second problem line");
            else if (!word_at(r, r->off, "sp"))
                rc = rd_fail(r, r->off, "expected 'sp' (a shortest-path problem)");
            else {
                r->off += 2;
                if (rd_int(r, 1, maxv, "vertex count", &n) ||
                    rd_int(r, 0, maxe, "arc count", &want))
                    rc = -1;
                else if (!rd_eol(r))
                    rc = rd_fail(r, r->off, "unexpected text after the problem line");
                else
                    e = xmalloc(sizeof *e * ((size_t)want + 1));
            }
        } else if (c == 'a') {
            long long u, v, w;
            if (n < 0)
                rc = rd_fail(r, at, "an arc before the problem line (p sp N M)");
            else if (m >= want)
                rc = rd_fail(r, at, "more arcs than the problem line says");
            else if (!rd_int(r, 1, n, "tail vertex", &u) && !rd_int(r, 1, n, "head vertex", &v) &&
                     !rd_int(r, 1, PROG_MAX_SCALE_VAL - 1, "arc length", &w)) {
                if (!rd_eol(r))
                    rc = rd_fail(r, r->off, "unexpected text after the arc");
                else
                    e[m++] = (edge_t){(int32_t)(u - 1), (int32_t)(v - 1), (int32_t)w};
            } else
                rc = -1;
        } else {
            rc = rd_fail(r, at, "unknown line (c, p or a)");
        }
    }
    if (!rc && n < 0)
        rc = rd_fail(r, r->off, "no problem line (p sp N M)");
    if (!rc && m != want)
        rc = rd_fail(r, r->off, "fewer arcs than the problem line says");
    if (!rc)
        build_csr((int)n, e, (int)m, g);
    free(e);
    return rc;
}

int prog_graph_read(const char *file, const char *src, size_t len, long maxv, long maxe,
                    prog_graph_t *g, diag_t *err)
{
    memset(g, 0, sizeof *g);
    rd_t r = {file, src, len, 0, 1, 0, err};
    if (memchr(src, '\0', len))
        return rd_fail(&r, 0, "not a text file");
    if (len >= 14 && !memcmp(src, "%%MatrixMarket", 14))
        return read_mtx(&r, maxv, maxe, g);
    return read_dimacs(&r, maxv, maxe, g);
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void prog_graph_rmat(int scale, int deg, uint64_t seed, prog_graph_t *g)
{
    int n = 1 << scale;
    long m = (long)deg * n;
    edge_t *e = xmalloc(sizeof *e * ((size_t)m + 1));
    uint64_t s = seed;
    for (long k = 0; k < m; k++) {
        int u = 0, v = 0;
        for (int b = 0; b < scale; b++) {
            double x = (double)(splitmix(&s) >> 11) / 9007199254740992.0;
            /* quadrants a=0.57 (top-left), b=0.19, c=0.19, d=0.05 */
            int q = x < 0.57 ? 0 : x < 0.76 ? 1 : x < 0.95 ? 2 : 3;
            u = u << 1 | (q >> 1);
            v = v << 1 | (q & 1);
        }
        e[k] = (edge_t){u, v, (int32_t)(1 + splitmix(&s) % 63)};
    }
    build_csr(n, e, (int)m, g);
    free(e);
}

void prog_graph_grid(int w, int h, uint64_t seed, prog_graph_t *g)
{
    long n = (long)w * h;
    edge_t *e = xmalloc(sizeof *e * ((size_t)n * 4 + 1));
    long m = 0;
    uint64_t s = seed;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int32_t v = (int32_t)((long)y * w + x);
            /* Every east-west road, a quarter of the north-south ones (all in column 0):
               connected, about 2.5 arcs per vertex as the USA-road-d graphs. */
            if (x + 1 < w) {
                int32_t c = (int32_t)(1 + splitmix(&s) % 15);
                e[m++] = (edge_t){v, v + 1, c};
                e[m++] = (edge_t){v + 1, v, c};
            }
            if (y + 1 < h && (x == 0 || splitmix(&s) % 4 == 0)) {
                int32_t c = (int32_t)(1 + splitmix(&s) % 15);
                e[m++] = (edge_t){v, v + w, c};
                e[m++] = (edge_t){v + w, v, c};
            }
        }
    build_csr((int)n, e, (int)m, g);
    free(e);
}

/* Dijkstra with a binary heap of (distance, vertex); stale entries are skipped. */
void prog_graph_sssp(const prog_graph_t *g, int src, int64_t *dist)
{
    typedef struct {
        int64_t d;
        int32_t v;
    } hn_t;
    hn_t *h = xmalloc(sizeof *h * ((size_t)g->m + 2));
    size_t n = 0;
    for (int v = 0; v < g->n; v++)
        dist[v] = -1;
    dist[src] = 0;
    h[n++] = (hn_t){0, src};
    while (n) {
        hn_t top = h[0], last = h[--n];
        size_t i = 0;
        for (size_t c; (c = 2 * i + 1) < n; i = c) {
            if (c + 1 < n && h[c + 1].d < h[c].d)
                c++;
            if (h[c].d >= last.d)
                break;
            h[i] = h[c];
        }
        h[i] = last;
        if (top.d > dist[top.v])
            continue;
        for (int k = g->row[top.v]; k < g->row[top.v + 1]; k++) {
            int32_t v = g->col[k];
            int64_t nd = top.d + g->w[k];
            if (dist[v] >= 0 && dist[v] <= nd)
                continue;
            dist[v] = nd;
            size_t j = n++;
            while (j && h[(j - 1) / 2].d > nd) {
                h[j] = h[(j - 1) / 2];
                j = (j - 1) / 2;
            }
            h[j] = (hn_t){nd, v};
        }
    }
    free(h);
}

/* Breadth-first levels: a FIFO of vertices, each enqueued once, when first reached. */
void prog_graph_bfs(const prog_graph_t *g, int src, int64_t *hops)
{
    int32_t *q = xmalloc(sizeof *q * ((size_t)g->n + 1));
    size_t head = 0, tail = 0;
    for (int v = 0; v < g->n; v++)
        hops[v] = -1;
    hops[src] = 0;
    q[tail++] = src;
    while (head < tail) {
        int32_t u = q[head++];
        for (int k = g->row[u]; k < g->row[u + 1]; k++)
            if (hops[g->col[k]] < 0) {
                hops[g->col[k]] = hops[u] + 1;
                q[tail++] = g->col[k];
            }
    }
    free(q);
}

void prog_graph_prio(int n, uint64_t seed, int32_t *prio)
{
    uint64_t s = seed ^ 0x636f6c6f72ull; /* a stream apart from the graph's own */
    for (int v = 0; v < n; v++)
        prio[v] = v;
    for (int v = n - 1; v > 0; v--) {
        int k = (int)(splitmix(&s) % (uint64_t)(v + 1));
        int32_t t = prio[v];
        prio[v] = prio[k];
        prio[k] = t;
    }
}

int prog_graph_color(const prog_graph_t *g, const int32_t *prio, int64_t *color)
{
    int left = g->n, c = 0;
    for (int v = 0; v < g->n; v++)
        color[v] = 0;
    while (left > 0) {
        c++;
        for (int v = 0; v < g->n; v++) {
            if (color[v])
                continue;
            bool top = true; /* colour c (this round's) counts as uncoloured, as in the kernel */
            for (int k = g->row[v]; k < g->row[v + 1] && top; k++) {
                int u = g->col[k];
                if ((color[u] == 0 || color[u] == c) && prio[u] > prio[v])
                    top = false;
            }
            if (top) {
                color[v] = c;
                left--;
            }
        }
    }
    return c;
}

void prog_graph_transpose(const prog_graph_t *g, prog_graph_t *t)
{
    t->n = g->n;
    t->m = g->m;
    t->row = xcalloc((size_t)g->n + 1, sizeof *t->row);
    t->col = xmalloc(sizeof *t->col * ((size_t)g->m + 1));
    t->w = xmalloc(sizeof *t->w * ((size_t)g->m + 1));
    for (int k = 0; k < g->m; k++)
        t->row[g->col[k] + 1]++;
    for (int v = 0; v < g->n; v++)
        t->row[v + 1] += t->row[v];
    int32_t *fill = xmalloc(sizeof *fill * ((size_t)g->n + 1));
    memcpy(fill, t->row, sizeof *fill * (size_t)g->n);
    for (int u = 0; u < g->n; u++) /* by source, so each in-list is in order of u */
        for (int k = g->row[u]; k < g->row[u + 1]; k++) {
            int at = fill[g->col[k]]++;
            t->col[at] = u;
            t->w[at] = g->w[k];
        }
    free(fill);
}

void prog_graph_pagerank(const prog_graph_t *g, int iters, int64_t one, int64_t *rank)
{
    int64_t *c = xmalloc(sizeof *c * ((size_t)g->n + 1));
    int64_t *sum = xmalloc(sizeof *sum * ((size_t)g->n + 1));
    for (int v = 0; v < g->n; v++)
        rank[v] = one;
    for (int i = 0; i < iters; i++) {
        for (int u = 0; u < g->n; u++) {
            int deg = g->row[u + 1] - g->row[u];
            c[u] = deg > 0 ? rank[u] / deg : 0;
            sum[u] = 0;
        }
        for (int u = 0; u < g->n; u++)
            for (int k = g->row[u]; k < g->row[u + 1]; k++)
                sum[g->col[k]] += c[u];
        for (int v = 0; v < g->n; v++)
            rank[v] = 15 * one / 100 + 85 * sum[v] / 100;
    }
    free(sum);
    free(c);
}

void prog_graph_free(prog_graph_t *g)
{
    free(g->row);
    free(g->col);
    free(g->w);
    memset(g, 0, sizeof *g);
}
