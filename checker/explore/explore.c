/* explore.c - BFS/DFS over encoded states with hash compaction (see explore.h).
 *
 * The visited set keeps only a 64-, 96- or 128-bit fingerprint per state (Stern
 * and Dill, "Improved probabilistic verification by hash compaction", 1995): two
 * states with the same fingerprint count as one, so a state may be missed with the
 * probability bounded in explore_result_t.omission. States are numbered in
 * discovery order; per state the explorer keeps its parent's number and its
 * position among the parent's successors (5 bytes), which is enough to rebuild
 * any trace by replaying sys_initial/sys_successors from an initial state.
 * Full encodings are kept only for states not yet expanded: the BFS queue
 * (each entry stored as a difference from the previous one) or the DFS stack.
 * The queue is a list of chunks; past its RAM budget, each chunk filled in the
 * queue's middle is written to an unlinked temporary file and read back when the
 * reader reaches it, so the entries, and the order, are those of an all-RAM queue.
 *
 * The fingerprint set is 256 shards chosen by the top 8 bits, each an ordered
 * linear-probing table (Amble and Knuth, "Ordered hash tables", 1974): the
 * home slot grows monotonically with the fingerprint and no probe wraps, so
 * every shard is sorted, a lookup stops at the first larger fingerprint, and
 * growing a shard is one sequential merge. Shards grow by 1/4 at 90 % load,
 * one at a time, so the set stays 72-90 % full with no doubling spike. Wider
 * fingerprints keep their low 32 or 64 bits in a parallel array, in the same
 * (high, low) order.
 *
 * Invariant: in BFS the queue holds exactly the states numbered [qnext, n),
 * in number order, and states are expanded in number order, so every state's
 * chain of parents is a shortest path. */
#define _GNU_SOURCE /* fallocate: punch the spill file's read-back chunks */
#include "explore.h"
#include "explore_int.h"

#include "../base/fault.h"
#include "../sys/sys_por.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const explore_verdict_names[8] = {"ok",         "violation",  "deadlock", "invariant",
                                              "unexpected", "incomplete", "livelock", "starvation"};

#define EMPTY 0xffffffffu
#define NSHARD 256
#define LOAD_NUM 9 /* grow a shard beyond LOAD_NUM/LOAD_DEN full */
#define LOAD_DEN 10
#define PCHUNK_BITS 16 /* per-state arrays come in chunks of 2^16 states */
#define PCHUNK ((size_t)1 << PCHUNK_BITS)
#define QCHUNK ((size_t)256 << 10) /* BFS queue chunk, bytes (at least) */
#define ORD_BIG 255                /* ord byte meaning "look in the overflow list" */

typedef struct {
    uint64_t *fp; /* cap + tail slots, 0 = empty, sorted by (fp, lo) */
    uint8_t *lo;  /* wide fingerprints: the low bits, ex_t.lob bytes per slot */
    uint32_t cap, tail, n;
} shard_t;

typedef struct {
    uint64_t fp, lo;
    size_t len;
    sys_label_t lab;
} succ_t;

typedef struct qchunk {
    struct qchunk *next;
    uint8_t *data; /* cap bytes; NULL while the chunk lies in the spill file */
    size_t cap, used, rd;
    uint64_t off, sum; /* where its used bytes lie in the spill file, and their hash */
} qchunk_t;

typedef struct {
    sys_t *s;
    const explore_opts_t *o;
    explore_result_t *r;
    shard_t sh[NSHARD];
    int lob; /* bytes of fingerprint beyond the first 64 bits: 0, 4 or 8 */
    /* per state, in chunks: parent number and position among its parent's successors */
    uint32_t **parent;
    uint8_t **ord;
    size_t nchunks, chunks_cap;
    struct ord_big {
        uint32_t id, ord;
    } * big; /* ords >= ORD_BIG, by increasing id */
    size_t nbig, bigcap;
    size_t n;
    /* BFS queue: entries (depth delta, length, bytes that differ from the previous entry) */
    qchunk_t *qhead, *qtail;
    uint8_t *qspare;     /* a free QCHUNK-byte chunk buffer, kept for reuse */
    size_t qram;         /* bytes of chunk buffers in RAM, the spare included */
    int qfd;             /* the spill file (unlinked), -1: none yet */
    uint64_t qwoff;      /* where the next spilled chunk goes */
    size_t qdisk;        /* chunks in the spill file */
    uint64_t spilled;    /* bytes written to it in all */
    size_t qlen;         /* entries queued */
    uint8_t *qin, *qout; /* last state pushed / popped (the delta bases) */
    size_t qinlen, qoutlen;
    int qindepth, qoutdepth;
    uint32_t qnext; /* number of the next state to pop */
    /* DFS stack: entries (state, length, depth, number), header last */
    uint8_t *stack;
    size_t sp, scap, sn;
    size_t maxst;
    /* the state being expanded, and its successors so far */
    uint32_t cur;
    int cur_depth;
    succ_t *batch;
    uint8_t *bbuf; /* their encodings, maxst bytes apart */
    size_t nb, bcap;
    /* partial-order reduction (docs/por.md): NULL when off */
    sys_por_t *por;
    const uint8_t *cur_st; /* the state being expanded */
    size_t cur_len;
    sys_label_t *plab; /* its successors' labels, and which a stubborn set keeps */
    bool *pkeep;
    size_t pcap;
    /* With --por the lowest bit of a stored fingerprint marks an expanded state (the
       cycle proviso needs it), and fingerprints are compared without it: FPMASK ~1. */
    uint64_t fpmask;
    /* --liveness: the graph's edges (explore_live.c), NULL when off; the bytes of it
       accounted in held; the names of environment events met (edge flag k: envn[k - 1]) */
    live_t *live;
    size_t live_acc;
    const char *envn[254];
    int nenvn;
    bool full, oom, ioerr;
    char iomsg[200];        /* what failed on the spill file */
    uint64_t held, peak;    /* bytes allocated now, and at most */
    const prog_val_t *want; /* a violation under symmetry: the forbidden outcome */
} ex_t;

/* ---- memory ---- */

static void account(ex_t *x, int64_t delta)
{
    x->held = (uint64_t)((int64_t)x->held + delta);
    if (x->held > x->peak)
        x->peak = x->held;
}

/* Allocate a big block; NULL (and x->oom) when the system refuses. */
static void *big_alloc(ex_t *x, size_t n)
{
    void *p = fault_hit(FAULT_ALLOC) ? NULL : malloc(n);
    if (!p)
        x->oom = true;
    else
        account(x, (int64_t)n);
    return p;
}

static void big_free(ex_t *x, void *p, size_t n)
{
    if (p) {
        free(p);
        account(x, -(int64_t)n);
    }
}

/* ---- fingerprints ---- */

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static uint64_t mum(uint64_t a, uint64_t b)
{
    unsigned __int128 r = (unsigned __int128)a * b;
    return (uint64_t)r ^ (uint64_t)(r >> 64);
}

/* A 64-bit hash of the encoding under SEED (wyhash's mixing, Wang Yi 2019). Never 0. */
static uint64_t hash_seeded(const uint8_t *p, size_t n, uint64_t seed0)
{
    const uint64_t k0 = 0xa0761d6478bd642full, k1 = 0xe7037ed1a0b428dbull,
                   k2 = 0x8ebc6af09c88c6e3ull;
    uint64_t seed = mum(seed0 ^ k0, k1), a = 0, b = 0;
    size_t i = n;
    for (; i > 16; i -= 16, p += 16)
        seed = mum(rd64(p) ^ k1, rd64(p + 8) ^ seed);
    if (i > 8) {
        a = rd64(p);
        memcpy(&b, p + 8, i - 8);
    } else {
        memcpy(&a, p, i);
    }
    uint64_t h = mum(k1 ^ n, mum(a ^ k1, b ^ seed ^ k2));
    return h ? h : 1;
}

/* The first 64 bits of a state's fingerprint (shard, home slot, the store's copy). */
static uint64_t fingerprint(const uint8_t *p, size_t n)
{
    return hash_seeded(p, n, 0x5eed);
}

/* The rest of a wide fingerprint: LOB bytes of a hash under an unrelated seed. */
static uint64_t fingerprint_lo(int lob, const uint8_t *p, size_t n)
{
    if (!lob)
        return 0;
    uint64_t h = hash_seeded(p, n, 0x9e3779b97f4a7c15ull);
    return lob == 4 ? (uint32_t)h : h;
}

static uint64_t lo_get(int lob, const uint8_t *lo, uint32_t i)
{
    if (lob == 8)
        return rd64(lo + (size_t)i * 8);
    uint32_t v;
    memcpy(&v, lo + (size_t)i * 4, 4);
    return v;
}

static void lo_put(int lob, uint8_t *lo, uint32_t i, uint64_t v)
{
    if (lob == 8) {
        memcpy(lo + (size_t)i * 8, &v, 8);
    } else {
        uint32_t w = (uint32_t)v;
        memcpy(lo + (size_t)i * 4, &w, 4);
    }
}

static uint32_t home(uint64_t fp, uint32_t cap)
{
    return (uint32_t)(((unsigned __int128)(fp << 8) * cap) >> 64);
}

static uint32_t tail_for(uint32_t cap)
{
    return 8 + cap / 32;
}

/* Rebuild shard SH with capacity CAP: one merge pass, the order is kept. */
static int shard_resize(ex_t *x, shard_t *sh, uint32_t cap)
{
    uint32_t tail = tail_for(cap);
    size_t bytes = ((size_t)cap + tail) * sizeof(uint64_t);
    size_t lbytes = ((size_t)cap + tail) * (size_t)x->lob;
    uint64_t *fp = big_alloc(x, bytes);
    if (!fp)
        return -1;
    uint8_t *lo = NULL;
    if (x->lob && !(lo = big_alloc(x, lbytes))) {
        big_free(x, fp, bytes);
        return -1;
    }
    memset(fp, 0, bytes);
    uint32_t next = 0;
    for (uint32_t i = 0; sh->fp && i < sh->cap + sh->tail; i++) {
        if (!sh->fp[i])
            continue;
        uint32_t h = home(sh->fp[i], cap);
        uint32_t at = h > next ? h : next;
        if (at >= cap + tail) { /* the overflow area is full: retry larger */
            big_free(x, fp, bytes);
            big_free(x, lo, lbytes);
            return shard_resize(x, sh, cap + cap / 4 + 8);
        }
        fp[at] = sh->fp[i];
        if (x->lob)
            lo_put(x->lob, lo, at, lo_get(x->lob, sh->lo, i));
        next = at + 1;
    }
    big_free(x, sh->fp, ((size_t)sh->cap + sh->tail) * sizeof(uint64_t));
    big_free(x, sh->lo, ((size_t)sh->cap + sh->tail) * (size_t)x->lob);
    sh->fp = fp;
    sh->lo = lo;
    sh->cap = cap;
    sh->tail = tail;
    return 0;
}

/* Insert the fingerprint (FP, LO): 1 when new, 0 when present, 2 when present and
 * marked expanded (--por), -1 out of memory. */
static int fp_insert(ex_t *x, uint64_t fp, uint64_t lo)
{
    shard_t *sh = &x->sh[fp >> 56];
    for (;;) {
        if ((uint64_t)(sh->n + 1) * LOAD_DEN > (uint64_t)sh->cap * LOAD_NUM) {
            if (shard_resize(x, sh, sh->cap + sh->cap / 4 + 8))
                return -1;
        }
        uint64_t *t = sh->fp;
        uint32_t end = sh->cap + sh->tail, i = home(fp, sh->cap);
        int lob = x->lob;
        uint64_t m = x->fpmask;
        while (i < end && t[i] &&
               ((t[i] & m) < fp || ((t[i] & m) == fp && lob && lo_get(lob, sh->lo, i) < lo)))
            i++;
        if (i < end && (t[i] & m) == fp && (!lob || lo_get(lob, sh->lo, i) == lo))
            return t[i] & ~m ? 2 : 0;
        uint32_t j = i;
        while (j < end && t[j])
            j++;
        if (j == end) { /* no room before the end: grow, then look again */
            if (shard_resize(x, sh, sh->cap + sh->cap / 4 + 8))
                return -1;
            continue;
        }
        memmove(t + i + 1, t + i, (size_t)(j - i) * sizeof *t);
        t[i] = fp;
        if (lob) {
            memmove(sh->lo + (size_t)(i + 1) * lob, sh->lo + (size_t)i * lob,
                    (size_t)(j - i) * lob);
            lo_put(lob, sh->lo, i, lo);
        }
        sh->n++;
        return 1;
    }
}

/* The slot of the stored fingerprint (FP, LO), or -1 when absent. */
static int64_t fp_slot(const ex_t *x, uint64_t fp, uint64_t lo)
{
    const shard_t *sh = &x->sh[fp >> 56];
    const uint64_t *t = sh->fp;
    uint32_t end = sh->cap + sh->tail, i = home(fp, sh->cap);
    int lob = x->lob;
    uint64_t m = x->fpmask;
    while (i < end && t[i] &&
           ((t[i] & m) < fp || ((t[i] & m) == fp && lob && lo_get(lob, sh->lo, i) < lo)))
        i++;
    if (i < end && (t[i] & m) == fp && (!lob || lo_get(lob, sh->lo, i) == lo))
        return i;
    return -1;
}

/* Look (FP, LO) up: 0 absent, 1 present, 2 present and marked expanded (--por). */
static int fp_find(const ex_t *x, uint64_t fp, uint64_t lo)
{
    int64_t i = fp_slot(x, fp, lo);
    if (i < 0)
        return 0;
    return x->sh[fp >> 56].fp[i] & ~x->fpmask ? 2 : 1;
}

/* Mark the stored (FP, LO) expanded (--por). Setting the low bit of FP keeps the
 * shard in order: entries are compared without it. */
static void fp_mark(ex_t *x, uint64_t fp, uint64_t lo)
{
    int64_t i = fp_slot(x, fp, lo);
    if (i >= 0)
        x->sh[fp >> 56].fp[i] |= ~x->fpmask;
}

/* The fingerprint of a state as the set stores it. */
static uint64_t state_fp(const ex_t *x, const uint8_t *p, size_t n)
{
    uint64_t fp = fingerprint(p, n) & x->fpmask;
    return fp ? fp : 2;
}

/* ---- per-state arrays ---- */

/* Make room for state number x->n; -1 out of memory. */
static int grow_states(ex_t *x)
{
    if (x->n < x->nchunks * PCHUNK)
        return 0;
    if (x->nchunks == x->chunks_cap) {
        size_t c = x->chunks_cap ? x->chunks_cap * 2 : 16;
        x->parent = xrealloc(x->parent, c * sizeof *x->parent);
        x->ord = xrealloc(x->ord, c * sizeof *x->ord);
        account(x, (int64_t)((c - x->chunks_cap) * 2 * sizeof(void *)));
        x->chunks_cap = c;
    }
    uint32_t *p = big_alloc(x, PCHUNK * sizeof *p);
    uint8_t *o = p ? big_alloc(x, PCHUNK) : NULL;
    if (!o) {
        big_free(x, p, PCHUNK * sizeof *p);
        return -1;
    }
    x->parent[x->nchunks] = p;
    x->ord[x->nchunks++] = o;
    return 0;
}

static uint32_t parent_of(const ex_t *x, uint32_t id)
{
    return x->parent[id >> PCHUNK_BITS][id & (PCHUNK - 1)];
}

static uint32_t ord_of(const ex_t *x, uint32_t id)
{
    uint8_t o = x->ord[id >> PCHUNK_BITS][id & (PCHUNK - 1)];
    if (o != ORD_BIG)
        return o;
    size_t lo = 0, hi = x->nbig;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (x->big[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return x->big[lo].ord;
}

static void set_state(ex_t *x, uint32_t id, uint32_t parent, uint32_t ord)
{
    x->parent[id >> PCHUNK_BITS][id & (PCHUNK - 1)] = parent;
    x->ord[id >> PCHUNK_BITS][id & (PCHUNK - 1)] = (uint8_t)(ord < ORD_BIG ? ord : ORD_BIG);
    if (ord >= ORD_BIG) {
        size_t old = x->bigcap;
        struct ord_big b = {id, ord};
        UTIL_PUSH(x->big, x->nbig, x->bigcap, b);
        account(x, (int64_t)((x->bigcap - old) * sizeof *x->big));
    }
}

/* ---- the BFS queue ---- */

/* Copy LEN bytes into a delta base of OLDLEN bytes, keeping zeros past LEN. */
static void set_base(uint8_t *base, size_t oldlen, const uint8_t *st, size_t len)
{
    memcpy(base, st, len);
    if (oldlen > len)
        memset(base + len, 0, oldlen - len);
}

/* A spill-file failure: the search stops as incomplete with MSG. Returns -1. */
static int io_fail(ex_t *x, const char *what, int err)
{
    x->ioerr = true;
    snprintf(x->iomsg, sizeof x->iomsg, "%.150s: %s", what, strerror(err));
    return -1;
}

/* A buffer of at least NEED bytes for a chunk (its size in *CAP): the spare, or a new one. */
static uint8_t *q_buf(ex_t *x, size_t need, size_t *cap)
{
    if (x->qspare && need <= QCHUNK) {
        uint8_t *b = x->qspare;
        x->qspare = NULL;
        *cap = QCHUNK;
        return b;
    }
    *cap = QCHUNK > need ? QCHUNK : need;
    uint8_t *b = big_alloc(x, *cap);
    if (b)
        x->qram += *cap;
    return b;
}

/* Give back a chunk buffer: it becomes the spare, or is freed. */
static void q_unbuf(ex_t *x, uint8_t *b, size_t cap)
{
    if (!x->qspare && cap == QCHUNK) {
        x->qspare = b;
    } else {
        big_free(x, b, cap);
        x->qram -= cap;
    }
}

/* Is the queue over its RAM budget (explore_opts_t.queue_memory, max_memory)? */
static bool q_spill_due(const ex_t *x)
{
    const explore_opts_t *o = x->o;
    return (o->queue_memory && x->qram > o->queue_memory) ||
           (o->max_memory && x->held > o->max_memory / 4 * 3);
}

/* Write chunk C (full, neither head nor tail) to the spill file and free its buffer.
 * 0, or -1 (x->ioerr) with C unchanged. */
static int q_spill(ex_t *x, qchunk_t *c)
{
    if (x->qfd < 0) {
        const char *dir = x->o->spill_dir ? x->o->spill_dir : "/tmp";
        char path[PATH_MAX];
        if ((size_t)snprintf(path, sizeof path, "%s/cohcheck-queue.XXXXXX", dir) >= sizeof path)
            return io_fail(x, "spill folder", ENAMETOOLONG);
        int fd = mkstemp(path);
        if (fd < 0) {
            char what[PATH_MAX + 40];
            snprintf(what, sizeof what, "cannot create a spill file in %s", dir);
            return io_fail(x, what, errno);
        }
        unlink(path); /* gone when the file is closed, or the process dies */
        x->qfd = fd;
        x->qwoff = 0;
    }
    for (size_t put = 0; put < c->used;) {
        ssize_t k = fault_hit(FAULT_SPILL)
                        ? (errno = EIO, -1)
                        : pwrite(x->qfd, c->data + put, c->used - put, (off_t)(x->qwoff + put));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return io_fail(x, "writing the queue's spill file", k < 0 ? errno : ENOSPC);
        put += (size_t)k;
    }
    c->sum = hash_seeded(c->data, c->used, 0x5b111);
    q_unbuf(x, c->data, c->cap);
    c->data = NULL;
    c->cap = 0;
    c->off = x->qwoff;
    x->qwoff += c->used;
    x->spilled += c->used;
    x->qdisk++;
    return 0;
}

/* Read spilled chunk C back into RAM. 0, or -1 (x->ioerr or x->oom). */
static int q_load(ex_t *x, qchunk_t *c)
{
    size_t cap;
    uint8_t *b = q_buf(x, c->used, &cap);
    if (!b)
        return -1;
    for (size_t got = 0; got < c->used;) {
        ssize_t k = fault_hit(FAULT_SPILL)
                        ? (errno = EIO, -1)
                        : pread(x->qfd, b + got, c->used - got, (off_t)(c->off + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            q_unbuf(x, b, cap);
            return io_fail(x, "reading the queue's spill file", k < 0 ? errno : EIO);
        }
        got += (size_t)k;
    }
    if (hash_seeded(b, c->used, 0x5b111) != c->sum) {
        q_unbuf(x, b, cap);
        return io_fail(x, "reading the queue's spill file: a chunk changed on disk", EIO);
    }
    c->data = b;
    c->cap = cap;
    /* Give the disk space back: the chunk's blocks now (where the file system can),
     * the whole file once no chunk is left in it. */
#ifdef FALLOC_FL_PUNCH_HOLE
    (void)fallocate(x->qfd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)c->off,
                    (off_t)c->used);
#endif
    if (!--x->qdisk && !ftruncate(x->qfd, 0))
        x->qwoff = 0;
    return 0;
}

static int q_push(ex_t *x, const uint8_t *st, size_t len, int depth)
{
    size_t need = len + len / 8 + 24;
    qchunk_t *c = x->qtail;
    if (!c || !c->data || c->cap - c->used < need) {
        /* C is full: past the budget it goes to disk, unless the reader is in it. */
        if (c && c != x->qhead && c->data && q_spill_due(x) && q_spill(x, c))
            return -1;
        qchunk_t *n = big_alloc(x, sizeof *n);
        if (!n)
            return -1;
        memset(n, 0, sizeof *n);
        n->data = q_buf(x, need, &n->cap);
        if (!n->data) {
            big_free(x, n, sizeof *n);
            return -1;
        }
        if (c)
            c->next = n;
        else
            x->qhead = n;
        x->qtail = c = n;
    }
    uint8_t *p = c->data + c->used;
    size_t o = util_varint_put(p, (uint64_t)(depth - x->qindepth));
    o += util_varint_put(p + o, len);
    o += util_delta_put(p + o, x->qin, st, len);
    c->used += o;
    set_base(x->qin, x->qinlen, st, len);
    x->qinlen = len;
    x->qindepth = depth;
    x->qlen++;
    return 0;
}

/* Free chunk C, read to its end (or never to be read). */
static void q_drop(ex_t *x, qchunk_t *c)
{
    if (c->data)
        q_unbuf(x, c->data, c->cap);
    big_free(x, c, sizeof *c);
}

/* Pop the oldest entry into x->qout, its length into *LEN. 0, or -1 when a spilled
 * chunk cannot be read back (x->ioerr or x->oom; the entry stays queued). */
static int q_pop(ex_t *x, size_t *lenp, int *depth)
{
    qchunk_t *c = x->qhead;
    while (c->rd == c->used) {
        x->qhead = c->next;
        q_drop(x, c);
        c = x->qhead;
    }
    if (!c->data && q_load(x, c))
        return -1;
    const uint8_t *p = c->data + c->rd, *p0 = p, *end = c->data + c->used;
    uint64_t dd = 0, len = 0;
    /* Our own bytes, but they may have been through the disk: check them. */
    if (util_varint_get(&p, end, &dd) || util_varint_get(&p, end, &len) || len > x->maxst ||
        !(p = util_delta_get(p, end, x->qout, len)))
        return io_fail(x, "reading the queue's spill file", EILSEQ);
    x->qoutdepth += (int)dd;
    if (x->qoutlen > len)
        memset(x->qout + len, 0, x->qoutlen - len);
    c->rd += (size_t)(p - p0);
    x->qoutlen = len;
    x->qlen--;
    if (!x->qlen) { /* empty: start the tail chunk afresh */
        x->qtail = x->qhead = NULL;
        q_drop(x, c);
    }
    *depth = x->qoutdepth;
    *lenp = len;
    return 0;
}

/* ---- the DFS stack ---- */

typedef struct {
    uint32_t len, depth, id;
} sframe_t;

static int s_push(ex_t *x, const uint8_t *st, size_t len, int depth, uint32_t id)
{
    size_t need = x->sp + len + sizeof(sframe_t);
    if (need > x->scap) {
        size_t c = x->scap ? x->scap : 4096;
        while (c < need)
            c *= 2;
        uint8_t *p = fault_hit(FAULT_ALLOC) ? NULL : realloc(x->stack, c);
        if (!p) {
            x->oom = true;
            return -1;
        }
        account(x, (int64_t)(c - x->scap));
        x->stack = p;
        x->scap = c;
    }
    memcpy(x->stack + x->sp, st, len);
    sframe_t f = {(uint32_t)len, (uint32_t)depth, id};
    memcpy(x->stack + x->sp + len, &f, sizeof f);
    x->sp = need;
    x->sn++;
    return 0;
}

static const uint8_t *s_pop(ex_t *x, size_t *len, int *depth, uint32_t *id)
{
    sframe_t f;
    memcpy(&f, x->stack + x->sp - sizeof f, sizeof f);
    x->sp -= sizeof f + f.len;
    x->sn--;
    *len = f.len;
    *depth = (int)f.depth;
    *id = f.id;
    return x->stack + x->sp; /* valid until the next push */
}

/* ---- exploration ---- */

/* Record a new state; -1 when memory ran out. */
static int add_state(ex_t *x, const uint8_t *st, size_t len, uint64_t fp, uint64_t lo,
                     uint32_t parent, uint32_t ord, int depth, const sys_label_t *lab)
{
    uint32_t id = (uint32_t)x->n;
    if (grow_states(x))
        return -1;
    if (x->live && live_add_state(x->live, id, fp, lo)) {
        x->oom = true;
        return -1;
    }
    x->n++;
    set_state(x, id, parent, ord);
    if (depth > x->r->max_depth)
        x->r->max_depth = depth;
    if (x->o->on_new)
        x->o->on_new(x->o->on_new_ctx, id, parent == EMPTY ? -1 : (int64_t)parent, depth, lab, ord,
                     fp, st, len);
    return x->o->dfs ? s_push(x, st, len, depth, id) : q_push(x, st, len, depth);
}

/* Successors are collected first and looked up after sys_successors returns,
 * so the table slots they need are prefetched while the others are computed. */
static void on_state(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    ex_t *x = ctx;
    x->r->transitions++;
    uint64_t fp = state_fp(x, st, len);
    const shard_t *sh = &x->sh[fp >> 56];
    const uint64_t *slot = &sh->fp[home(fp, sh->cap)];
    __builtin_prefetch(slot);
    if (x->nb == x->bcap) {
        x->bcap = x->bcap ? x->bcap * 2 : 16;
        x->batch = xrealloc(x->batch, x->bcap * sizeof *x->batch);
        x->bbuf = xrealloc(x->bbuf, x->bcap * x->maxst + 1);
    }
    succ_t *b = &x->batch[x->nb];
    b->fp = fp;
    b->lo = fingerprint_lo(x->lob, st, len);
    b->len = len;
    b->lab = *lab;
    memcpy(x->bbuf + x->nb * x->maxst, st, len);
    x->nb++;
}

/* --liveness: the edge flag of step LAB: 0 for a progress step, else 1 + the index of
 * its environment event's name (docs/liveness.md). */
static uint8_t live_flag(ex_t *x, const sys_label_t *lab)
{
    const char *ev = sys_step_env(x->s, lab);
    if (!ev)
        return 0;
    for (int k = 0; k < x->o->nfair_env; k++)
        if (!strcmp(x->o->fair_env[k], ev))
            return 0;
    for (int k = 0; k < x->nenvn; k++)
        if (!strcmp(x->envn[k], ev))
            return (uint8_t)(k + 1);
    if (x->nenvn == 254)
        return 254;
    x->envn[x->nenvn++] = ev;
    return (uint8_t)x->nenvn;
}

/* --liveness: the fairness group of a step (docs/liveness.md): its thread, its channel,
 * its (instance, internal event, line), or the clock; none for an environment event that
 * need not happen (FLAG). */
static uint64_t live_group(ex_t *x, const uint8_t *src, size_t slen, const sys_label_t *lab,
                           uint8_t flag)
{
    if (flag)
        return UINT64_MAX;
    switch (lab->kind) {
    case SYS_STEP_CORE: return lab->who;
    case SYS_STEP_MSG: {
        /* An unordered channel: each message is its own group (a network delivers every
           message eventually, not only some message of the channel). */
        uint64_t h = src ? sys_msg_key(x->s, src, slen, lab->what, lab->arg) : 0;
        return 1ull << 56 | (uint64_t)lab->what << 40 | (h & 0xffffffffffull);
    }
    case SYS_STEP_INTERNAL:
        return 2ull << 56 | (uint64_t)lab->who << 32 | (uint64_t)lab->what << 16 | lab->arg;
    case SYS_STEP_TICK: return 3ull << 56;
    default: return UINT64_MAX;
    }
}

/* --liveness: record the step LAB from SRC to the state with fingerprint (FP, LO). */
static void live_edge(ex_t *x, uint32_t src, const uint8_t *st, size_t len, uint64_t fp,
                      uint64_t lo, uint32_t ord, const sys_label_t *lab)
{
    int64_t dst = live_find(x->live, fp, lo);
    uint8_t flag = live_flag(x, lab);
    if (dst < 0 ||
        live_add_edge(x->live, src, (uint32_t)dst, ord, flag, live_group(x, st, len, lab, flag)))
        x->oom = true;
}

/* Keep the liveness graph's bytes in the explorer's account (--max-memory). */
static void live_sync(ex_t *x)
{
    if (!x->live)
        return;
    size_t b = live_bytes(x->live);
    account(x, (int64_t)b - (int64_t)x->live_acc);
    x->live_acc = b;
}

/* Insert the collected successors of x->cur that KEEP selects (NULL: all), in the
 * order they were emitted. */
static void insert_batch(ex_t *x, const bool *keep)
{
    for (size_t i = 0; i < x->nb && !x->full && !x->oom && !x->ioerr; i++) {
        if (keep && !keep[i])
            continue;
        const succ_t *b = &x->batch[i];
        if ((x->o->max_states && x->n >= x->o->max_states) || x->n >= EMPTY - 1) {
            x->full = true;
            break;
        }
        int fresh = fp_insert(x, b->fp, b->lo);
        if (fresh == 1)
            add_state(x, x->bbuf + i * x->maxst, b->len, b->fp, b->lo, x->cur, (uint32_t)i,
                      x->cur_depth + 1, &b->lab);
        if (x->live && x->cur != EMPTY && fresh >= 0 && !x->oom)
            live_edge(x, x->cur, x->cur_st, x->cur_len, b->fp, b->lo, (uint32_t)i, &b->lab);
    }
}

/* Insert the collected successors of x->cur in the order they were emitted. With
 * --por, only those of the best stubborn set none of whose progress steps (core
 * events, messages) leads to an already expanded state; all when there is none.
 * The cycle proviso: on every cycle of progress steps in the reduced graph, the
 * state expanded last sees its successor on the cycle already expanded, so it is
 * fully expanded, whatever the search order (docs/por.md). The positions
 * (ord) stay those among all successors, so traces replay as without --por. */
static void flush_batch(ex_t *x)
{
    size_t keep = x->nb;
    if (x->por && x->cur != EMPTY && x->nb > 1) {
        if (x->nb > x->pcap) {
            x->pcap = x->nb * 2;
            x->plab = xrealloc(x->plab, x->pcap * sizeof *x->plab);
            x->pkeep = xrealloc(x->pkeep, x->pcap * sizeof *x->pkeep);
        }
        for (size_t i = 0; i < x->nb; i++)
            x->plab[i] = x->batch[i].lab;
        /* The best stubborn set none of whose successors was already expanded. */
        for (int rank = 0;; rank++) {
            keep = sys_por_select(x->por, x->cur_st, x->cur_len, x->plab, x->nb, rank, x->pkeep);
            if (keep == x->nb || !sys_por_proviso(x->por))
                break;
            bool closes = false;
            for (size_t i = 0; i < x->nb && !closes; i++)
                closes = x->pkeep[i] && sys_por_progress(&x->plab[i]) &&
                         fp_find(x, x->batch[i].fp, x->batch[i].lo) == 2;
            if (!closes)
                break;
            if (rank == 0)
                x->r->por_full++; /* counted once: the proviso changed the choice */
        }
    }
    if (keep == x->nb) {
        insert_batch(x, NULL);
    } else {
        insert_batch(x, x->pkeep);
        x->r->transitions -= x->nb - keep;
        x->r->por_reduced++;
    }
    x->nb = 0;
}

static void count_succ(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    (void)ctx;
    (void)st;
    (void)len;
    (void)lab;
}

/* Trace replay: keep the successor at position WANT. */
typedef explore_pick_t pick_t;

void explore_pick_none(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    count_succ(ctx, st, len, lab);
}

void explore_pick(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    pick_t *p = ctx;
    if (p->seen++ != p->want)
        return;
    memcpy(p->buf, st, len);
    p->len = len;
    p->lab = *lab;
    p->got = true;
}

size_t explore_replay(sys_t *s, const uint32_t *ords, size_t n, explore_result_t *r, uint8_t **out)
{
    if (r && sys_sym_order(s))
        return explore_replay_sym(s, ords, n, r, NULL, 0, out);
    size_t maxst = sys_max_state(s);
    if (r) {
        r->trace = xcalloc(n + 2, sizeof(char *));
        r->ntrace = 0;
    }
    uint8_t *before = xmalloc(maxst + 1), *after = xmalloc(maxst + 1);
    size_t blen = 0;
    sys_error_t e;
    for (size_t i = 0; i < n; i++) {
        pick_t p = {ords[i], 0, after, 0, {0, 0, 0, 0}, false};
        if (i == 0)
            sys_initial(s, explore_pick, &p, &e);
        else
            sys_successors(s, before, blen, explore_pick, &p, &e);
        if (!p.got) {
            if (r) {
                strbuf_t sb;
                sb_init(&sb);
                sb_puts(&sb, "(trace replay failed: the system is not deterministic)");
                r->trace[r->ntrace++] = sb.s;
            }
            blen = 0;
            break;
        }
        if (r) {
            strbuf_t sb;
            sb_init(&sb);
            if (i == 0)
                sys_describe(s, &p.lab, after, p.len, after, p.len, &sb);
            else
                sys_describe(s, &p.lab, before, blen, after, p.len, &sb);
            r->trace[r->ntrace++] = sb.s;
        }
        uint8_t *t = before;
        before = after;
        after = t;
        blen = p.len;
    }
    free(after);
    *out = before;
    return blen;
}

void explore_trace_end(sys_t *s, explore_result_t *r, const uint8_t *end, size_t elen,
                       const uint8_t *st, size_t len, const sys_label_t *fail_lab)
{
    if (sys_sym_order(s)) {
        explore_trace_end_sym(s, r, end, elen, st, len, fail_lab);
        return;
    }
    if (elen != len || memcmp(end, st, len)) {
        strbuf_t sb;
        sb_init(&sb);
        sb_puts(&sb, "(trace replay ended in another state: a fingerprint collision?)");
        r->trace[r->ntrace++] = sb.s;
    } else if (fail_lab) {
        strbuf_t sb;
        sb_init(&sb);
        sys_describe(s, fail_lab, st, len, st, len, &sb);
        sb_printf(&sb, " | FAILS: %s", r->msg);
        r->trace[r->ntrace++] = sb.s;
    }
    strbuf_t sb;
    sb_init(&sb);
    sys_dump(s, st, len, &sb);
    r->failure_state = sb.s;
}

/* The recorded successor positions from an initial state to state ID: *N of them
 * (the caller frees). */
static uint32_t *ords_to(const ex_t *x, uint32_t id, size_t *n)
{
    size_t k = 0;
    for (uint32_t v = id; v != EMPTY; v = parent_of(x, v))
        k++;
    uint32_t *ords = xmalloc(sizeof *ords * (k + 1));
    *n = k;
    for (uint32_t v = id; v != EMPTY; v = parent_of(x, v))
        ords[--k] = ord_of(x, v);
    return ords;
}

static void fail(ex_t *x, explore_verdict_t v, uint32_t id, const uint8_t *st, size_t len,
                 const sys_label_t *lab, const char *msg)
{
    x->r->verdict = v;
    x->r->failure_id = id;
    snprintf(x->r->msg, sizeof x->r->msg, "%s", msg);
    /* Replay and dump use the system's scratch: work on a copy. */
    uint8_t *copy = xmalloc(len + 1), *end;
    memcpy(copy, st, len);
    size_t n;
    uint32_t *ords = ords_to(x, id, &n);
    size_t elen = x->want && sys_sym_order(x->s)
                      ? explore_replay_sym(x->s, ords, n, x->r, x->want, x->r->reached.nkeys, &end)
                      : explore_replay(x->s, ords, n, x->r, &end);
    explore_trace_end(x->s, x->r, end, elen, copy, len, lab);
    free(end);
    free(ords);
    free(copy);
}

/* The encoding of state ID, rebuilt by replaying its recorded successor
 * positions from an initial state into BUF (x->maxst + 1 bytes); 0 if the
 * replay fails. */
static size_t replay_state(ex_t *x, uint32_t id, uint8_t *buf)
{
    size_t n;
    uint32_t *ords = ords_to(x, id, &n);
    uint8_t *end;
    size_t len = explore_replay(x->s, ords, n, NULL, &end);
    memcpy(buf, end, len);
    free(end);
    free(ords);
    return len;
}

/* A complete search that reached no terminal state: every path runs forever, so
 * the protocol never lets the test finish (a livelock, reported as a deadlock:
 * no execution makes progress to the end). The trace leads to the last state found. */
static void no_terminal(ex_t *x)
{
    uint32_t id = (uint32_t)(x->n - 1);
    uint8_t *buf = xmalloc(x->maxst + 1);
    size_t len = replay_state(x, id, buf);
    if (len)
        fail(x, EXPLORE_DEADLOCK, id, buf, len, NULL,
             "no execution terminates: every path runs forever (a livelock), so the test "
             "never finishes");
    free(buf);
}

/* The livelock's message in R->msg: what cannot finish, and what would break it. */
static void live_message(ex_t *x, const live_report_t *lr)
{
    explore_result_t *r = x->r;
    for (int k = 1; k < 255; k++)
        if (lr->breaks[k] && k <= x->nenvn) {
            size_t n = strlen(r->live_breaks);
            snprintf(r->live_breaks + n, sizeof r->live_breaks - n, "%s%s", n ? "," : "",
                     x->envn[k - 1]);
        }
    int m;
    if (!lr->env_only)
        m = snprintf(r->msg, sizeof r->msg,
                     "a livelock: %llu reachable state(s) can never reach the end of the test, "
                     "whatever happens; ",
                     (unsigned long long)lr->hard);
    else
        m = snprintf(r->msg, sizeof r->msg,
                     "a livelock only environment events break: %llu state(s) reach the end "
                     "only if %s happens, which need not happen (--env-fair %s assumes it "
                     "does); ",
                     (unsigned long long)lr->stuck, r->live_breaks, r->live_breaks);
    size_t n = m > 0 && (size_t)m < sizeof r->msg ? (size_t)m : sizeof r->msg - 1;
    if (lr->ncycle)
        snprintf(r->msg + n, sizeof r->msg - n, "the %zu-step cycle below repeats forever",
                 lr->ncycle);
    else
        snprintf(r->msg + n, sizeof r->msg - n, "the state reached waits for an environment event");
    strbuf_t off;
    sb_init(&off);
    if (sys_env_off(x->s, &off)) {
        n = strlen(r->msg);
        snprintf(r->msg + n, sizeof r->msg - n,
                 " (the protocol's environment event(s) %s are off: --env %s)", off.s, off.s);
    }
    sb_free(&off);
}

/* Put the lasso LR in R's trace: the shortest path to the cycle's first state, a
 * marker line, the cycle's steps back to it; and R's failure state and lasso. */
static void live_lasso(ex_t *x, const live_report_t *lr)
{
    explore_result_t *r = x->r;
    r->failure_id = lr->entry;
    size_t np;
    uint32_t *pre = ords_to(x, lr->entry, &np);
    uint32_t *ords = xmalloc((np + lr->ncycle + 1) * sizeof *ords);
    memcpy(ords, pre, np * sizeof *ords);
    memcpy(ords + np, lr->cycle_ords, lr->ncycle * sizeof *ords);
    uint8_t *st = xmalloc(x->maxst + 1), *end;
    size_t len = replay_state(x, lr->entry, st);
    size_t elen = explore_replay(x->s, ords, np + lr->ncycle, r, &end);
    /* The prefix, the marker, the cycle: room for the end's two lines. */
    char **t = xcalloc((size_t)r->ntrace + 4, sizeof *t);
    int k = 0;
    for (int i = 0; i < r->ntrace; i++) {
        if ((size_t)i == np)
            t[k++] = NULL; /* the marker's place */
        t[k++] = r->trace[i];
    }
    if ((size_t)r->ntrace <= np)
        t[k++] = NULL;
    strbuf_t mk;
    sb_init(&mk);
    if (lr->ncycle)
        sb_printf(&mk,
                  "---- cycle: the next %zu step(s) lead back to the state after step %zu, "
                  "forever ----",
                  lr->ncycle, np);
    else
        sb_printf(&mk, "---- stuck: only environment events (%s) can move on from here ----",
                  r->live_breaks);
    for (int i = 0; i < k; i++)
        if (!t[i]) {
            t[i] = mk.s;
            break;
        }
    free(r->trace);
    r->trace = t;
    r->ntrace = k;
    r->lasso_prefix = (int)np;
    r->lasso_cycle = (int)lr->ncycle;
    r->lasso = xmalloc((lr->ncycle + 1) * sizeof *r->lasso);
    r->lasso[0] = lr->entry;
    memcpy(r->lasso, lr->cycle_ids, lr->ncycle * sizeof *r->lasso);
    if (len)
        explore_trace_end(x->s, r, end, elen, st, len, NULL);
    free(end);
    free(st);
    free(ords);
    free(pre);
}

/* Starvation under fairness (after AG EF done held): a fair cycle on which a thread
 * never finishes and never steps. */
static void starve_check(ex_t *x)
{
    explore_result_t *r = x->r;
    int nt = sys_threads(x->s);
    uint64_t keys[32];
    for (int t = 0; t < nt && t < 32; t++)
        keys[t] = (uint64_t)t; /* live_group: a thread's core steps */
    live_report_t lr;
    if (!live_analyse_fair(x->live, nt, keys, x->o->fairness == 2, &lr)) {
        live_report_free(&lr);
        return;
    }
    r->verdict = EXPLORE_STARVATION;
    r->starved = lr.thread;
    snprintf(r->msg, sizeof r->msg,
             "starvation under %s fairness: P%d never finishes while the %zu-step cycle below "
             "repeats forever, fair to every thread, channel, internal event and the clock "
             "(P%d takes no step on it)",
             x->o->fairness == 2 ? "strong" : "weak", lr.thread, lr.ncycle, lr.thread);
    live_lasso(x, &lr);
    live_report_free(&lr);
}

/* --liveness after a complete search with no failure: AG EF done on the graph, then
 * starvation under fairness. A livelock is reported as a lasso to the least-numbered
 * state on a cycle none of whose states can finish. */
static void live_check(ex_t *x)
{
    explore_result_t *r = x->r;
    live_report_t lr;
    r->liveness = true;
    int found = live_analyse(x->live, &lr);
    r->live_stuck = lr.stuck;
    r->live_hard = lr.hard;
    if (!found) {
        live_report_free(&lr);
        if (x->o->fairness)
            starve_check(x);
        return;
    }
    r->verdict = EXPLORE_LIVELOCK;
    r->live_env_only = lr.env_only;
    live_message(x, &lr);
    live_lasso(x, &lr);
    live_report_free(&lr);
}

static void ex_free(ex_t *x)
{
    for (int i = 0; i < NSHARD; i++) {
        free(x->sh[i].fp);
        free(x->sh[i].lo);
    }
    for (size_t i = 0; i < x->nchunks; i++) {
        free(x->parent[i]);
        free(x->ord[i]);
    }
    free(x->parent);
    free(x->ord);
    free(x->big);
    for (qchunk_t *c = x->qhead, *nx; c; c = nx) {
        nx = c->next;
        free(c->data);
        free(c);
    }
    free(x->qspare);
    if (x->qfd >= 0)
        close(x->qfd);
    free(x->qin);
    free(x->qout);
    free(x->stack);
    free(x->batch);
    free(x->bbuf);
    free(x->plab);
    free(x->pkeep);
    sys_por_free(x->por);
    live_free(x->live);
}

/* Collect the successors of a state (live_resume_edges). */
static void collect_succ(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    ex_t *x = ctx;
    if (x->nb == x->bcap) {
        x->bcap = x->bcap ? x->bcap * 2 : 16;
        x->batch = xrealloc(x->batch, x->bcap * sizeof *x->batch);
        x->bbuf = xrealloc(x->bbuf, x->bcap * x->maxst + 1);
    }
    succ_t *b = &x->batch[x->nb++];
    b->fp = state_fp(x, st, len);
    b->lo = fingerprint_lo(x->lob, st, len);
    b->len = len;
    b->lab = *lab;
}

/* --liveness on a resumed run: the edges of the states the stopped run expanded,
 * recomputed (their targets were all stored). 0, or -1. */
static int live_resume_edges(ex_t *x, const explore_resume_t *rs)
{
    sys_error_t e;
    for (uint64_t i = 0; i < rs->expanded && i < x->n && !x->oom; i++) {
        x->nb = 0;
        if (sys_successors(x->s, rs->states[i], rs->lens[i], collect_succ, x, &e) < 0)
            return -1;
        for (size_t k = 0; k < x->nb && !x->oom; k++) {
            if (live_find(x->live, x->batch[k].fp, x->batch[k].lo) < 0)
                return -1;
            live_edge(x, (uint32_t)i, rs->states[i], rs->lens[i], x->batch[k].fp, x->batch[k].lo,
                      (uint32_t)k, &x->batch[k].lab);
        }
        if (sys_terminal(x->s, rs->states[i], rs->lens[i]))
            live_set_terminal(x->live, (uint32_t)i);
        live_set_done(x->live, (uint32_t)i, sys_done_mask(x->s, rs->states[i], rs->lens[i]));
    }
    x->nb = 0;
    live_sync(x);
    return x->oom ? -1 : 0;
}

/* Load a stopped run (explore_opts_t.resume). 0, or -1 with ERR. */
static int load_resume(ex_t *x, const explore_resume_t *rs, diag_t *err)
{
    for (uint64_t i = 0; i < rs->n; i++) {
        uint64_t fp = state_fp(x, rs->states[i], rs->lens[i]);
        uint64_t lo = fingerprint_lo(x->lob, rs->states[i], rs->lens[i]);
        int fresh = fp_insert(x, fp, lo);
        if (fresh > 0 && x->fpmask != ~0ull && i < rs->expanded)
            fp_mark(x, fp, lo);
        if (fresh < 0 || grow_states(x))
            break;
        if (fresh != 1 || rs->parents[i] >= (int64_t)i) {
            diag_set(err, "", 0, 0, "resume: stored state %llu is a duplicate or out of order",
                     (unsigned long long)i);
            return -1;
        }
        uint32_t id = (uint32_t)x->n++;
        if (x->live && live_add_state(x->live, id, fp, lo)) {
            x->oom = true;
            break;
        }
        set_state(x, id, rs->parents[i] < 0 ? EMPTY : (uint32_t)rs->parents[i], rs->ords[i]);
        if (rs->depths[i] > x->r->max_depth)
            x->r->max_depth = rs->depths[i];
        if (i >= rs->expanded &&
            (x->o->dfs ? s_push(x, rs->states[i], rs->lens[i], rs->depths[i], id)
                       : q_push(x, rs->states[i], rs->lens[i], rs->depths[i])))
            break;
    }
    if (x->oom) {
        diag_set(err, "", 0, 0, "resume: out of memory loading %llu states",
                 (unsigned long long)rs->n);
        return -1;
    }
    if (x->ioerr) {
        diag_set(err, "", 0, 0, "resume: %s", x->iomsg);
        return -1;
    }
    if (x->live && live_resume_edges(x, rs)) {
        diag_set(err, "", 0, 0, "resume: %s",
                 x->oom ? "out of memory rebuilding the graph for --liveness"
                        : "a stored state's step could not be recomputed");
        return -1;
    }
    x->qnext = (uint32_t)rs->expanded;
    x->r->transitions = rs->transitions;
    if (!rs->expanded) { /* from the start: the initial states count as transitions */
        sys_error_t e;
        int k = sys_initial(x->s, count_succ, NULL, &e);
        x->r->transitions = k > 0 ? (uint64_t)k : 0;
    }
    return 0;
}

int explore_run(sys_t *s, int nkeys, const explore_opts_t *o, explore_result_t *r, diag_t *err)
{
    if (o->liveness && o->threads > 1) {
        diag_set(err, "", 0, 0, "--liveness keeps the graph's edges: it needs one thread");
        return -1;
    }
    if (o->threads > 1 && !o->dfs)
        return explore_par_run(s, nkeys, o, r, err);
    memset(r, 0, sizeof *r);
    if (o->fp_bits && o->fp_bits != 64 && o->fp_bits != 96 && o->fp_bits != 128) {
        diag_set(err, "", 0, 0, "fingerprints are 64, 96 or 128 bits wide, not %d", o->fp_bits);
        return -1;
    }
    r->failure_id = -1;
    r->fp_bits = o->fp_bits ? o->fp_bits : 64;
    exec_outcomes_init(&r->reached, nkeys);
    ex_t x;
    memset(&x, 0, sizeof x);
    x.qfd = -1;
    x.lob = (r->fp_bits - 64) / 8;
    x.s = s;
    x.o = o;
    x.r = r;
    x.cur = EMPTY;
    x.cur_depth = -1;
    x.fpmask = ~0ull;
    x.maxst = sys_max_state(s);
    x.qin = xcalloc(x.maxst + 16, 1); /* whole words are read */
    x.qout = xcalloc(x.maxst + 16, 1);
    if (o->liveness)
        x.live = live_new(x.lob > 0);
    if (o->por && o->liveness) {
        snprintf(r->por_off, sizeof r->por_off,
                 "--liveness explores the full graph: the reduction keeps terminal states and "
                 "deadlocks, not every cycle that never finishes (docs/por.md)");
    } else if (o->por) {
        x.por = sys_por_new(s);
        const char *why = NULL;
        r->por = sys_por_active(x.por, &why);
        explore_por_fields(r, x.por);
        if (!r->por) {
            snprintf(r->por_off, sizeof r->por_off, "%s", why);
            sys_por_free(x.por);
            x.por = NULL;
        } else if (sys_por_proviso(x.por)) {
            x.fpmask = ~1ull;
        }
    }
    sys_set_dead(s, r->por); /* the reduction resets values no step reads */
    explore_sym_start(s, o, r);
    for (int i = 0; i < NSHARD; i++)
        shard_resize(&x, &x.sh[i], 8);
    sys_error_t e;
    if (o->resume) {
        if (load_resume(&x, o->resume, err)) {
            ex_free(&x);
            exec_outcomes_free(&r->reached);
            return -1;
        }
    } else if (sys_initial(s, on_state, &x, &e) < 0) {
        diag_set(err, "", 0, 0, "initial state: %s", e.msg);
        ex_free(&x);
        exec_outcomes_free(&r->reached);
        return -1;
    } else {
        flush_batch(&x);
    }
    prog_val_t *outv = xcalloc((size_t)nkeys + 1, sizeof *outv);
    prog_val_t *badv = xcalloc((size_t)nkeys + 1, sizeof *badv);
    uint32_t first_bound = EMPTY; /* BFS: the first state at the depth bound */
    uint64_t ncut = 0;            /* states at the depth bound with a successor */
    uint64_t last_progress = 0, polls = 0;
    double t0 = explore_clock();
    uint8_t *sbuf = o->dfs ? xmalloc(x.maxst + 1) : NULL;
    if (x.oom || x.ioerr) { /* some initial states were dropped: nothing is expanded */
        r->verdict = EXPLORE_INCOMPLETE;
        snprintf(r->msg, sizeof r->msg, "stopped after %zu states: %s", x.n,
                 x.ioerr ? x.iomsg : "out of memory for the initial states");
        goto done;
    }
    for (;;) {
        uint32_t id;
        int depth;
        size_t len;
        const uint8_t *st;
        if (o->stop && *o->stop) {
            r->verdict = EXPLORE_INCOMPLETE;
            snprintf(r->msg, sizeof r->msg, "interrupted after %zu states", x.n);
            goto done;
        }
        if (o->max_time > 0 && (++polls & 1023) == 0 && explore_time_up(o, t0)) {
            r->verdict = EXPLORE_INCOMPLETE;
            snprintf(r->msg, sizeof r->msg, "stopped by --max-time after %zu states", x.n);
            goto done;
        }
        if (o->dfs) {
            if (!x.sn)
                break;
            const uint8_t *top = s_pop(&x, &len, &depth, &id);
            memcpy(sbuf, top, len); /* successors are pushed over it */
            st = sbuf;
        } else {
            if (!x.qlen)
                break;
            if (q_pop(&x, &len, &depth)) {
                r->verdict = EXPLORE_INCOMPLETE;
                snprintf(r->msg, sizeof r->msg, "stopped after %zu states: %s", x.n,
                         x.ioerr ? x.iomsg : "out of memory reading the queue back");
                goto done;
            }
            st = x.qout;
            id = x.qnext++;
        }
        x.cur = id;
        x.cur_depth = depth;
        if (sys_check(s, st, len, &e)) {
            fail(&x, EXPLORE_INVARIANT, id, st, len, NULL, e.msg);
            goto done;
        }
        if (o->max_depth > 0 && depth >= o->max_depth) {
            /* Not expanded: only ask whether anything lies beyond (a step that would
             * fail lies beyond too); a state with nothing beyond is not cut. */
            if (!o->dfs && first_bound == EMPTY)
                first_bound = id;
            int nb = sys_successors(s, st, len, count_succ, NULL, &e);
            ncut += nb != 0;
            if (x.live)
                live_set_done(x.live, id, sys_done_mask(s, st, len));
            if (sys_terminal(s, st, len)) {
                if (x.live)
                    live_set_terminal(x.live, id);
                sys_outcome(s, st, len, outv);
                if (explore_terminal_outcomes(s, o, r, outv, depth, badv)) {
                    x.want = badv;
                    fail(&x, EXPLORE_VIOLATION, id, st, len, NULL,
                         "reached an outcome the model forbids");
                    goto done;
                }
            } else if (nb == 0) {
                fail(&x, EXPLORE_DEADLOCK, id, st, len, NULL,
                     "no transition is enabled and not every thread finished");
                goto done;
            }
            continue;
        }
        uint64_t before = r->transitions;
        x.cur_st = st;
        x.cur_len = len;
        if (x.fpmask != ~0ull)
            fp_mark(&x, state_fp(&x, st, len), fingerprint_lo(x.lob, st, len));
        int ns = sys_successors(s, st, len, on_state, &x, &e);
        flush_batch(&x);
        if (ns < 0) {
            fail(&x, e.kind == SYS_ERR_UNEXPECTED ? EXPLORE_UNEXPECTED : EXPLORE_INVARIANT, id, st,
                 len, &e.label, e.msg);
            goto done;
        }
        if (x.full || x.oom || x.ioerr) {
            /* Some successors of this state were dropped: it is not expanded. A resumed
             * run re-expands it, so the final counts equal an uninterrupted run's. */
            r->transitions = before;
            x.qnext = id;
            r->verdict = EXPLORE_INCOMPLETE;
            if (x.ioerr)
                snprintf(r->msg, sizeof r->msg, "stopped after %zu states: %s", x.n, x.iomsg);
            else if (x.oom)
                snprintf(r->msg, sizeof r->msg,
                         "out of memory after %zu states (%.0f MiB held): the search needs more",
                         x.n, (double)x.held / 1048576.0);
            else
                snprintf(r->msg, sizeof r->msg, "stopped by --max-states after %zu states", x.n);
            goto done;
        }
        /* Every terminal state yields an outcome, whether or not environment actions
         * (fetch, evict) can still move it: they change no thread and no memory value. */
        if (sys_terminal(s, st, len)) {
            if (x.live)
                live_set_terminal(x.live, id);
            sys_outcome(s, st, len, outv);
            if (explore_terminal_outcomes(s, o, r, outv, depth, badv)) {
                x.want = badv;
                fail(&x, EXPLORE_VIOLATION, id, st, len, NULL,
                     "reached an outcome the model forbids");
                goto done;
            }
        } else if (ns == 0) {
            fail(&x, EXPLORE_DEADLOCK, id, st, len, NULL,
                 "no transition is enabled and not every thread finished");
            goto done;
        }
        r->expanded++;
        if (x.live)
            live_set_done(x.live, id, sys_done_mask(s, st, len));
        live_sync(&x);
        if (o->max_memory && x.held > o->max_memory) {
            r->verdict = EXPLORE_INCOMPLETE;
            snprintf(r->msg, sizeof r->msg, "stopped by --max-memory after %zu states", x.n);
            goto done;
        }
        if (o->progress && x.n - last_progress >= 65536) {
            last_progress = x.n;
            o->progress(o->progress_ctx, x.n, o->dfs ? x.sn : x.qlen, x.held, x.spilled);
        }
    }
    r->verdict = EXPLORE_OK;
    if (x.live && !ncut) {
        live_check(&x);
        goto done;
    }
    if (!ncut && !o->resume && x.n > 0 && r->reached.n == 0 &&
        !(o->max_states && x.n >= o->max_states)) {
        no_terminal(&x);
        goto done;
    }
    if (ncut) {
        r->verdict = EXPLORE_INCOMPLETE;
        snprintf(r->msg, sizeof r->msg,
                 "stopped by --max-depth %d: %llu state(s) at that depth not expanded",
                 o->max_depth, (unsigned long long)ncut);
    }
done:
    r->states = x.n;
    if (!o->dfs) /* BFS: states below the cursor (and above the depth bound) are expanded */
        r->expanded = x.qnext < first_bound ? x.qnext : first_bound;
    r->bytes = x.peak;
    r->spilled = x.spilled;
    double n = (double)x.n; /* n(n-1)/2 pairs, each colliding with probability 2^-bits */
    r->omission = ldexp(n * (n - 1), -(r->fp_bits + 1));
    if (x.fpmask != ~0ull)
        r->omission *= 2; /* --por's mark bit: one bit fewer */
    free(sbuf);
    free(outv);
    free(badv);
    sys_set_symmetry(s, false, NULL); /* the system as it was given */
    ex_free(&x);
    return 0;
}

void explore_result_free(explore_result_t *r)
{
    for (int i = 0; i < r->ntrace; i++)
        free(r->trace[i]);
    free(r->trace);
    free(r->failure_state);
    free(r->lasso);
    exec_outcomes_free(&r->reached);
    memset(r, 0, sizeof *r);
}

uint64_t explore_fingerprint(const uint8_t *p, size_t n)
{
    return fingerprint(p, n);
}
