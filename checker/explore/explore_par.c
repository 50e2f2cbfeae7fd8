/* explore_par.c - explore.c's BFS on several threads (explore_opts_t.threads).
 *
 * The search runs in rounds. A round expands the queued states, numbers [a, b),
 * in chunks the threads take in increasing order. Every successor's fingerprint
 * goes into one shared open-addressing table (linear probing; a compare-and-swap
 * on the 64-bit fingerprint, no lock), whose slot also holds a claim: the least
 * key (parent number, position among its successors) that reached the state in
 * this round. Claims of earlier rounds are below every key of this one, so a
 * known state is never taken again, and a new state ends up claimed by the
 * successor from which the serial explorer numbers it: the first in (parent,
 * position) order. A thread that lowers a claim records the key it displaced
 * (a loser), so the winners are known without a second look at the table.
 *
 * At the end of a round the round is committed. When a store hook, a failure or
 * a limit is involved, the first thread walks the parents in number order,
 * numbers each one's winning successors in order (on_new), and re-enacts the
 * serial explorer's checks and limits (--max-states cuts at the same
 * transition) from what the threads recorded per parent (commit). Otherwise
 * every thread numbers the winners of its own chunks from the chunk's prefix
 * sum (commit_fast; a chunk's claims are counted as it is expanded, less the
 * losers): the same numbers, without one thread reading what the others wrote. States, transitions,
 * numbering, outcomes, verdicts and traces equal one thread's; the round's new states are the next
 * round's queue. Threads meet at barriers only: at round ends, and when the
 * table must grow (at 70 % load, 90 % where a doubling would pass --max-memory; the
 * threads rehash it together).
 *
 * Invariant: states [0, a) are committed; the round's parents are [a, b); a
 * processed prefix [a, c) of them is complete when a round stops early. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "explore.h"
#include "explore_int.h"
#include "../base/fault.h"
#include "../sys/sys_por.h"

#define NONE 0xffffffffu
#define PCHUNK_BITS 16 /* committed parents and positions come in chunks of 2^16 */
#define PCHUNK ((size_t)1 << PCHUNK_BITS)
#define ORD_BIG 255               /* ord byte meaning "look in the overflow list" */
#define BLOCK ((size_t)256 << 10) /* candidate arena block, bytes (at least) */
#define FRESH_BATCH 256           /* new fingerprints a thread counts before publishing */
#define TAB_MIN ((size_t)1 << 16)
#define MAX_THREADS 256

/* A table slot: the fingerprint (0: empty) and the claim, stored inverted (~key)
 * so that a zeroed slot has none and the least key is the largest value. */
typedef struct {
    _Atomic uint64_t fp, cl;
} slot_t;

/* key of a successor: parent number + 1 (initial states: 0), then its position */
static uint64_t mkkey(uint32_t parent, uint32_t ord)
{
    return ((uint64_t)parent + 1) << 32 | ord;
}

/* The fingerprint as the table stores it (explore.c's state_fp). */
static uint64_t par_fp(uint64_t fpmask, const uint8_t *st, size_t len)
{
    uint64_t fp = explore_fingerprint(st, len) & fpmask;
    return fp ? fp : 2;
}

/* A successor that claimed its state: an arena record, its encoding after it,
 * whole (kf 0) or as the bytes that differ from the record before it in its
 * block (util_runs_put), the last whole one kf * 8 bytes before it. Records in a
 * block follow their parents' order, so the one before is mostly a sibling: on
 * the shipped protocols a few bytes differ (docs/memory.md). */
typedef struct {
    uint64_t key;
    uint32_t len;
    int32_t depth;
    sys_label_t lab;
    uint16_t kf;
} rec_t;

#define KF_EVERY 32 /* a whole record at least every KF_EVERY: a decode applies fewer deltas */

typedef struct block {
    struct block *next;
    size_t cap, used;
    _Alignas(8) uint8_t data[];
} block_t;

typedef struct {
    block_t *head, *tail;
    block_t *rb; /* commit's read cursor (NULL: at the end) */
    size_t rpos;
    size_t nblocks; /* BLOCK-sized ones */
    /* the writer's: the tail block's last whole record and last record (NULL: the
       next one is whole), and how many followed the whole one */
    const rec_t *kf, *last;
    uint32_t since;
} arena_t;

/* A queued state (a parent of the round): P is its encoding, or, with FDELTA in
 * LEN, the delta record (rec_t) it is decoded from (fent_state). */
typedef struct {
    const void *p;
    uint32_t len;
    int32_t depth;
} fent_t;
#define FDELTA 0x80000000u

/* A decoder's cursor: the last record it decoded and that record's encoding (in
 * place or in BUF, maxst bytes). Valid for one round (reset by dcur_reset). */
typedef struct {
    const rec_t *rec;
    const uint8_t *st;
    uint8_t *buf;
} dcur_t;

static void dcur_reset(dcur_t *c)
{
    c->rec = NULL;
    c->st = NULL;
}

static size_t rec_size(const rec_t *r)
{
    size_t n = r->kf ? util_runs_len((const uint8_t *)(r + 1)) : r->len;
    return (sizeof(rec_t) + n + 7) & ~(size_t)7;
}

static const rec_t *rec_next(const rec_t *r)
{
    return (const rec_t *)(const void *)((const uint8_t *)r + rec_size(r));
}

/* R's encoding: in place for a whole record, else decoded into C's buffer from
 * the record C last decoded where that lies between R's whole record and R, or
 * from the whole record. */
static const uint8_t *rec_state(dcur_t *c, const rec_t *r)
{
    if (!r->kf) {
        c->rec = r;
        c->st = (const uint8_t *)(r + 1);
        return c->st;
    }
    const rec_t *k = (const rec_t *)(const void *)((const uint8_t *)r - (size_t)r->kf * 8);
    const rec_t *p = c->rec;
    if (!p || (uintptr_t)p < (uintptr_t)k || (uintptr_t)p >= (uintptr_t)r) {
        p = k;
        c->st = (const uint8_t *)(k + 1);
    }
    if (c->st != c->buf)
        memcpy(c->buf, c->st, p->len);
    size_t blen = p->len;
    for (const rec_t *q = rec_next(p);; q = rec_next(q)) {
        util_runs_apply((const uint8_t *)(q + 1), c->buf, blen, q->len);
        blen = q->len;
        if (q == r)
            break;
    }
    c->rec = r;
    c->st = c->buf;
    return c->buf;
}

/* A queued state's entry for record R. */
static fent_t rec_fent(const rec_t *r)
{
    if (r->kf)
        return (fent_t){r, r->len | FDELTA, r->depth};
    return (fent_t){r + 1, r->len, r->depth};
}

static uint32_t fent_len(const fent_t *f)
{
    return f->len & ~FDELTA;
}

/* F's encoding (through cursor C where it is a delta). */
static const uint8_t *fent_state(const fent_t *f, dcur_t *c)
{
    return f->len & FDELTA ? rec_state(c, f->p) : f->p;
}

/* What a thread found at one parent; the commit re-enacts the serial checks. */
enum {
    P_DONE = 1,    /* recorded (else not processed: the round stopped early) */
    P_CHECK = 2,   /* sys_check failed (fails list) */
    P_BOUND = 4,   /* at --max-depth: n is sys_successors' count, nothing kept */
    P_ERR = 8,     /* sys_successors failed after n successors (fails list) */
    P_TERM = 16,   /* terminal: its outcome is in the outs list */
    P_OOM = 32,    /* memory ran out while keeping its successors */
    P_RED = 64,    /* --por: a proper stubborn set was kept (por_reduced) */
    P_PFULL = 128, /* --por: the cycle proviso rejected the best set (por_full) */
};

typedef struct {
    int32_t n;    /* successors emitted */
    int32_t keep; /* of them kept (--por's stubborn set; else n) */
    int32_t kend; /* the last kept one's position + 1 */
    uint8_t flags;
} prec_t;

typedef struct {
    uint32_t j; /* frontier index */
    sys_error_t e;
} pfail_t;

/* why threads stopped taking chunks: SIGINT, --max-memory, enough new states for
 * --max-states (or no memory to grow the table), --max-time */
enum { H_NONE, H_STOP, H_MEM, H_FULL, H_TIME };
enum { PH_EXPAND, PH_REHASH, PH_NUMBER, PH_QUIT };

/* Per chunk, summed up by the thread that expands it, for commit_fast. */
typedef struct {
    uint64_t trans;      /* transitions of its expanded parents */
    uint32_t wins, base; /* its claims less losers (its new states), the first's number */
    uint32_t expanded, ncut, first_bound;
    uint32_t por_reduced, por_full; /* --por: parents with P_RED, P_PFULL */
} csum_t;

struct par;

struct ord_big {
    uint32_t id, ord;
};

typedef struct {
    struct par *P;
    int idx;
    sys_t *s;
    arena_t ar[2];
    block_t *spare; /* BLOCK-sized blocks of a cleared arena, for reuse (no page faults) */
    size_t nspare;
    /* this round, in parent order */
    int64_t *outs; /* frontier index, then the outcome's keys */
    size_t nouts, outscap;
    pfail_t *fails;
    size_t nfails, failscap;
    uint64_t *losers;
    size_t nlosers, loserscap;
    /* the chunk in hand [pos, end); mid: pos's successors are in the batch, the
       first bi inserted (a pause for the table to grow can come between two) */
    uint32_t pos, end;
    csum_t cs; /* the chunk in hand's summary, stored at P->csum[ck] when done */
    size_t ck; /* (size_t)-1: none */
    bool mid;
    uint8_t pflags;
    size_t bi;
    uint64_t *bfp;
    uint32_t *blen;
    sys_label_t *blab;
    uint8_t *bbuf; /* maxst bytes apart */
    size_t nb, bcap;
    dcur_t dc;       /* decodes the parents in hand */
    uint8_t *lastst; /* the last record stored, whole (arena_put) */
    uint32_t lastlen;
    uint8_t *dbuf; /* a successor's delta, before it is stored */
    /* --por: this thread's analysis (it decodes into scratch) and the kept successors */
    sys_por_t *por;
    bool *bkeep;
    size_t bkcap, nkeep; /* nkeep: how many of the batch are kept */
    uint64_t fresh;      /* new fingerprints not yet added to P->count */
    prog_val_t *outv;
    /* commit_fast: positions >= ORD_BIG met, and the deepest new state */
    struct ord_big *bigs;
    size_t nbigs, bigscap;
    int maxdepth;
    char pad[128]; /* the next thread's fields two cache lines away */
} worker_t;

typedef struct par {
    sys_t *s;
    const explore_opts_t *o;
    explore_result_t *r;
    int nkeys, nth;
    size_t maxst;
    /* --por with the cycle proviso: fingerprints lose their low bit, as explore.c's
       (whose mark bit it is), so that both keep the same states */
    bool por, proviso;
    uint64_t fpmask;
    worker_t *w;
    pthread_barrier_t bar;
    int phase;
    slot_t *tab, *old;
    size_t cap, oldcap; /* powers of 2 */
    unsigned load10;    /* the load, in tenths, at which the table doubles (7; 9 where a
                           doubling would pass --max-memory: fuller, not stopped) */
    /* the round */
    uint32_t a;
    fent_t *front, *next;
    size_t nfront, frontcap, nnext, nextcap;
    prec_t *prec;
    size_t preccap;
    uint16_t *owner; /* per chunk: the thread that took it */
    size_t ownercap, nchunks;
    uint32_t chunk;
    int cur;            /* arena set taking this round's candidates */
    uint64_t limit_new; /* new states that surely reach --max-states */
    csum_t *csum;
    size_t csumcap;
    const uint64_t *losers; /* the round's, sorted */
    size_t nlosers;
    /* committed states: parent numbers and positions (as explore.c) */
    uint32_t **parent;
    uint8_t **ord;
    size_t pchunks, pchunks_cap;
    struct ord_big *big;
    size_t nbig, bigcap;
    uint64_t n, limit;
    bool full;
    dcur_t dc; /* the commit's decoder */
    _Alignas(64) _Atomic uint64_t next_chunk;
    _Alignas(64) _Atomic uint64_t count, round_new;
    _Atomic uint32_t fail_min;
    _Atomic int pause, halt, oom;
    double t0; /* when the search began (--max-time) */
    _Alignas(64) _Atomic int64_t held;
    _Atomic int64_t peak;
} par_t;

/* ---- memory ---- */

static void account(par_t *P, int64_t d)
{
    int64_t h = atomic_fetch_add_explicit(&P->held, d, memory_order_relaxed) + d;
    int64_t pk = atomic_load_explicit(&P->peak, memory_order_relaxed);
    while (h > pk && !atomic_compare_exchange_weak_explicit(&P->peak, &pk, h, memory_order_relaxed,
                                                            memory_order_relaxed))
        ;
}

static void *big_alloc(par_t *P, size_t n, bool zero)
{
    void *p = fault_hit(FAULT_ALLOC) ? NULL : zero ? calloc(1, n) : malloc(n);
    if (!p)
        atomic_store(&P->oom, 1);
    else
        account(P, (int64_t)n);
    return p;
}

static void big_free(par_t *P, void *p, size_t n)
{
    if (p) {
        free(p);
        account(P, -(int64_t)n);
    }
}

/* ---- the table ---- */

/* A zeroed table of CAP slots, mapped directly and backed by huge pages where the
 * kernel offers them (fewer page faults and TLB misses on random probes). */
static slot_t *tab_alloc(par_t *P, size_t cap)
{
    size_t n = cap * sizeof(slot_t);
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        atomic_store(&P->oom, 1);
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    madvise(p, n, MADV_HUGEPAGE);
#endif
    account(P, (int64_t)n);
    return p;
}

static void tab_free(par_t *P, slot_t *t, size_t cap)
{
    if (t) {
        munmap(t, cap * sizeof *t);
        account(P, -(int64_t)(cap * sizeof *t));
    }
}

/* FP's home: its top bits, so that homes keep the fingerprints' order and a
 * doubling moves each slot's entry to about twice its index (a streaming rehash). */
static size_t slot_of(uint64_t fp, size_t cap)
{
    return (size_t)(fp >> (64 - __builtin_ctzll((unsigned long long)cap)));
}

/* Offer FP with KEY. 1: KEY holds the claim now (*LOSER: the key it displaced,
 * 0: none; *FRESH: FP was inserted); 0: known before this round, or claimed by
 * a lesser key; -1: the table is full. */
static int tab_offer(slot_t *t, size_t cap, uint64_t fp, uint64_t key, uint64_t floor,
                     uint64_t *loser, bool *fresh)
{
    size_t i = slot_of(fp, cap);
    for (size_t k = 0; k < cap; k++, i = (i + 1) & (cap - 1)) {
        uint64_t v = atomic_load_explicit(&t[i].fp, memory_order_relaxed);
        if (!v) {
            if (atomic_compare_exchange_strong_explicit(&t[i].fp, &v, fp, memory_order_relaxed,
                                                        memory_order_relaxed))
                *fresh = true, v = fp;
        }
        if (v != fp)
            continue;
        uint64_t c = atomic_load_explicit(&t[i].cl, memory_order_relaxed), want = ~key;
        for (;;) {
            if (c >= want)
                return 0;
            if (atomic_compare_exchange_weak_explicit(&t[i].cl, &c, want, memory_order_relaxed,
                                                      memory_order_relaxed)) {
                *loser = c && ~c >= floor ? ~c : 0;
                return 1;
            }
        }
    }
    return -1;
}

/* Whether FP is present and claimed; then *KEY: its claim (the least key that
 * reached it; the first initial state's is 0). */
static bool tab_claim(const slot_t *t, size_t cap, uint64_t fp, uint64_t *key)
{
    size_t i = slot_of(fp, cap);
    for (size_t k = 0; k < cap; k++, i = (i + 1) & (cap - 1)) {
        uint64_t v = atomic_load_explicit(&t[i].fp, memory_order_relaxed);
        if (!v)
            return false;
        if (v == fp) {
            uint64_t c = atomic_load_explicit(&t[i].cl, memory_order_relaxed);
            *key = ~c;
            return c != 0;
        }
    }
    return false;
}

/* Insert FP (not yet present) with claim word CL while no thread offers. */
static void tab_put(slot_t *t, size_t cap, uint64_t fp, uint64_t cl)
{
    size_t i = slot_of(fp, cap);
    for (;;) {
        uint64_t v = 0;
        if (atomic_compare_exchange_strong_explicit(&t[i].fp, &v, fp, memory_order_relaxed,
                                                    memory_order_relaxed)) {
            atomic_store_explicit(&t[i].cl, cl, memory_order_relaxed);
            return;
        }
        i = (i + 1) & (cap - 1);
    }
}

/* ---- committed states ---- */

static int grow_states(par_t *P)
{
    if (P->n < P->pchunks * PCHUNK)
        return 0;
    if (P->pchunks == P->pchunks_cap) {
        size_t c = P->pchunks_cap ? P->pchunks_cap * 2 : 16;
        P->parent = xrealloc(P->parent, c * sizeof *P->parent);
        P->ord = xrealloc(P->ord, c * sizeof *P->ord);
        account(P, (int64_t)((c - P->pchunks_cap) * 2 * sizeof(void *)));
        P->pchunks_cap = c;
    }
    uint32_t *p = big_alloc(P, PCHUNK * sizeof *p, false);
    uint8_t *o = p ? big_alloc(P, PCHUNK, false) : NULL;
    if (!o) {
        big_free(P, p, PCHUNK * sizeof *p);
        return -1;
    }
    P->parent[P->pchunks] = p;
    P->ord[P->pchunks++] = o;
    return 0;
}

static uint32_t parent_of(const par_t *P, uint32_t id)
{
    return P->parent[id >> PCHUNK_BITS][id & (PCHUNK - 1)];
}

static uint32_t ord_of(const par_t *P, uint32_t id)
{
    uint8_t o = P->ord[id >> PCHUNK_BITS][id & (PCHUNK - 1)];
    if (o != ORD_BIG)
        return o;
    size_t lo = 0, hi = P->nbig;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (P->big[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return P->big[lo].ord;
}

/* Number a new state (P->n), ST its encoding, REC its record (NULL: ST stays
 * where it is until the round that expands it ends); -1 when memory ran out. */
static int commit_state(par_t *P, uint32_t parent, uint32_t ord, int depth, const sys_label_t *lab,
                        uint64_t fp, const uint8_t *st, uint32_t len, const rec_t *rec)
{
    if (grow_states(P))
        return -1;
    uint32_t id = (uint32_t)P->n++;
    P->parent[id >> PCHUNK_BITS][id & (PCHUNK - 1)] = parent;
    P->ord[id >> PCHUNK_BITS][id & (PCHUNK - 1)] = (uint8_t)(ord < ORD_BIG ? ord : ORD_BIG);
    if (ord >= ORD_BIG) {
        size_t old = P->bigcap;
        struct ord_big b = {id, ord};
        UTIL_PUSH(P->big, P->nbig, P->bigcap, b);
        account(P, (int64_t)((P->bigcap - old) * sizeof *P->big));
    }
    if (depth > P->r->max_depth)
        P->r->max_depth = depth;
    if (P->o->on_new)
        P->o->on_new(P->o->on_new_ctx, id, parent == NONE ? -1 : (int64_t)parent, depth, lab, ord,
                     fp, st, len);
    fent_t f = rec ? rec_fent(rec) : (fent_t){st, len, depth};
    if (P->nnext == P->nextcap) {
        size_t old = P->nextcap;
        util_grow((void **)&P->next, &P->nextcap, P->nnext + 1, sizeof *P->next);
        account(P, (int64_t)((P->nextcap - old) * sizeof *P->next));
    }
    P->next[P->nnext++] = f;
    return 0;
}

/* ---- arenas ---- */

static rec_t *arena_add(par_t *P, worker_t *w, arena_t *ar, size_t len)
{
    size_t need = (sizeof(rec_t) + len + 7) & ~(size_t)7;
    block_t *b = ar->tail;
    if (!b || b->cap - b->used < need) {
        size_t cap = need > BLOCK ? need : BLOCK;
        if (cap == BLOCK && w->spare) {
            b = w->spare;
            w->spare = b->next;
            w->nspare--;
        } else {
            b = big_alloc(P, sizeof *b + cap, false);
            if (!b)
                return NULL;
            b->cap = cap;
        }
        b->next = NULL;
        b->used = 0;
        ar->nblocks += cap == BLOCK;
        if (ar->tail)
            ar->tail->next = b;
        else
            ar->head = b;
        ar->tail = b;
        ar->kf = ar->last = NULL; /* deltas stay within a block */
    }
    rec_t *r = (rec_t *)(void *)(b->data + b->used);
    b->used += need;
    return r;
}

/* Empty AR; its BLOCK-sized blocks go to W's spares while they number at most
 * KEEP (so a round reuses the memory the last one touched), the rest is freed. */
static void arena_clear(par_t *P, worker_t *w, arena_t *ar, size_t keep)
{
    for (block_t *b = ar->head, *nx; b; b = nx) {
        nx = b->next;
        if (b->cap == BLOCK && w->nspare < keep) {
            b->next = w->spare;
            w->spare = b;
            w->nspare++;
        } else {
            big_free(P, b, sizeof *b + b->cap);
        }
    }
    memset(ar, 0, sizeof *ar);
}

/* The next record of AR in order, or NULL. */
static const rec_t *arena_peek(arena_t *ar)
{
    while (ar->rb && ar->rpos >= ar->rb->used) {
        ar->rb = ar->rb->next;
        ar->rpos = 0;
    }
    return ar->rb ? (const rec_t *)(const void *)(ar->rb->data + ar->rpos) : NULL;
}

/* Store a successor in AR: as its delta from the record before it where that is
 * smaller and fits in the block, else whole. */
static rec_t *arena_put(par_t *P, worker_t *w, arena_t *ar, rec_t h, const uint8_t *st)
{
    if (ar->last && ar->since < KF_EVERY) {
        block_t *b = ar->tail;
        size_t back = (size_t)(b->data + b->used - (const uint8_t *)ar->kf) / 8;
        size_t d =
            back <= UINT16_MAX ? util_runs_put(w->dbuf, w->lastst, w->lastlen, st, h.len) : 0;
        size_t need = (sizeof(rec_t) + d + 7) & ~(size_t)7;
        if (d && b->cap - b->used >= need) {
            rec_t *r = (rec_t *)(void *)(b->data + b->used);
            b->used += need;
            h.kf = (uint16_t)back;
            *r = h;
            memcpy(r + 1, w->dbuf, d);
            ar->last = r;
            ar->since++;
            memcpy(w->lastst, st, h.len);
            w->lastlen = h.len;
            return r;
        }
    }
    rec_t *r = arena_add(P, w, ar, h.len);
    if (!r)
        return NULL;
    h.kf = 0;
    *r = h;
    memcpy(r + 1, st, h.len);
    ar->kf = ar->last = r;
    ar->since = 0;
    memcpy(w->lastst, st, h.len);
    w->lastlen = h.len;
    return r;
}

static void arena_skip(arena_t *ar, const rec_t *r)
{
    ar->rpos += rec_size(r);
}

/* ---- the threads' work ---- */

/* P (OLD bytes used) moved to a zeroed block of NEW bytes on lines of its own: a
 * thread's successor batch never shares a cache line with another thread's data. */
static void *regrow_lines(void *p, size_t old, size_t new)
{
    void *q = xcalloc_lines(new, 1);
    if (p)
        memcpy(q, p, old);
    free(p);
    return q;
}

static void on_succ(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    worker_t *w = ctx;
    par_t *P = w->P;
    uint64_t fp = par_fp(P->fpmask, st, len);
    __builtin_prefetch(&P->tab[slot_of(fp, P->cap)]);
    if (w->nb == w->bcap) {
        size_t old = w->bcap;
        w->bcap = w->bcap ? w->bcap * 2 : 16;
        w->bfp = regrow_lines(w->bfp, old * sizeof *w->bfp, w->bcap * sizeof *w->bfp);
        w->blen = regrow_lines(w->blen, old * sizeof *w->blen, w->bcap * sizeof *w->blen);
        w->blab = regrow_lines(w->blab, old * sizeof *w->blab, w->bcap * sizeof *w->blab);
        w->bbuf = regrow_lines(w->bbuf, old * P->maxst, w->bcap * P->maxst + 1);
    }
    w->bfp[w->nb] = fp;
    w->blen[w->nb] = (uint32_t)len;
    w->blab[w->nb] = *lab;
    memcpy(w->bbuf + w->nb * P->maxst, st, len);
    w->nb++;
}

static void count_succ(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    (void)ctx;
    (void)st;
    (void)len;
    (void)lab;
}

static void lower_fail_min(par_t *P, uint32_t j)
{
    uint32_t m = atomic_load_explicit(&P->fail_min, memory_order_relaxed);
    while (j < m && !atomic_compare_exchange_weak_explicit(
                        &P->fail_min, &m, j, memory_order_relaxed, memory_order_relaxed))
        ;
}

/* Publish the thread's count of new fingerprints; ask for a bigger table at 70 %
 * load (90 % once a doubling would pass --max-memory), and stop taking chunks
 * once --max-states is surely reached. */
static void publish(worker_t *w)
{
    par_t *P = w->P;
    if (!w->fresh)
        return;
    uint64_t c = atomic_fetch_add_explicit(&P->count, w->fresh, memory_order_relaxed) + w->fresh;
    uint64_t rn =
        atomic_fetch_add_explicit(&P->round_new, w->fresh, memory_order_relaxed) + w->fresh;
    w->fresh = 0;
    if (c * 10 > (uint64_t)P->cap * P->load10)
        atomic_store_explicit(&P->pause, 1, memory_order_relaxed);
    if (rn >= P->limit_new)
        atomic_store_explicit(&P->halt, H_FULL, memory_order_relaxed);
}

/* With symmetry, the outcome stands for its images (explore_terminal_outcomes): a
 * failure is within reach when one of them is forbidden. */
static void keep_outcome(worker_t *w, uint32_t j, const uint8_t *st, uint32_t len)
{
    par_t *P = w->P;
    sys_outcome(w->s, st, len, w->outv);
    size_t k = (size_t)P->nkeys + 1;
    util_grow((void **)&w->outs, &w->outscap, (w->nouts + 1) * k, sizeof *w->outs);
    w->outs[w->nouts * k] = j;
    memcpy(w->outs + w->nouts * k + 1, w->outv, (size_t)P->nkeys * sizeof *w->outv);
    w->nouts++;
    if (!P->o->allowed)
        return;
    int order = sys_sym_order(w->s);
    for (int g = 0; g < (order ? order : 1); g++) {
        if (g)
            sys_sym_outcome(w->s, g, w->outs + w->nouts * k - k + 1, P->nkeys, w->outv);
        if (!exec_outcomes_has(P->o->allowed, w->outv)) {
            lower_fail_min(P, j);
            return;
        }
    }
}

static void keep_fail(worker_t *w, uint32_t j, const sys_error_t *e)
{
    pfail_t f = {j, *e};
    UTIL_PUSH(w->fails, w->nfails, w->failscap, f);
    lower_fail_min(w->P, j);
}

/* --por: choose the successors of parent J to keep (w->bkeep), as explore.c's
 * flush_batch: the best stubborn set none of whose progress steps leads to an
 * expanded state. The serial explorer expands in number order, so a successor is
 * expanded iff it has a number <= J's. Numbers follow keys, and a state's claim is
 * the key that numbered it; states first met in this round have claims above every
 * parent's key, and no other claim changes in a round. Returns how many are kept. */
static size_t por_choose(worker_t *w, uint32_t j, const uint8_t *st, uint32_t len)
{
    par_t *P = w->P;
    if (w->nb > w->bkcap) {
        free(w->bkeep); /* refilled for each parent */
        w->bkcap = w->nb * 2;
        w->bkeep = xcalloc_lines(w->bkcap, sizeof *w->bkeep);
    }
    uint32_t id = P->a + j;
    uint64_t mine = mkkey(parent_of(P, id), ord_of(P, id));
    size_t keep = w->nb;
    for (int rank = 0;; rank++) {
        keep = sys_por_select(w->por, st, len, w->blab, w->nb, rank, w->bkeep);
        if (keep == w->nb || !P->proviso)
            break;
        bool closes = false;
        for (size_t i = 0; i < w->nb && !closes; i++) {
            if (!w->bkeep[i] || !sys_por_progress(&w->blab[i]))
                continue;
            uint64_t cl;
            closes = tab_claim(P->tab, P->cap, w->bfp[i], &cl) && cl <= mine;
        }
        if (!closes)
            break;
        if (rank == 0)
            w->pflags |= P_PFULL;
    }
    if (keep == w->nb)
        for (size_t i = 0; i < w->nb; i++)
            w->bkeep[i] = true;
    else
        w->pflags |= P_RED;
    return keep;
}

/* Expand parent J (frontier index). 0: done; 1: paused for the table to grow. */
static int expand(worker_t *w, uint32_t j)
{
    par_t *P = w->P;
    const fent_t *f = &P->front[j];
    if (!w->mid) {
        sys_error_t e;
        const uint8_t *st = fent_state(f, &w->dc);
        uint32_t len = fent_len(f);
        if (sys_check(w->s, st, len, &e)) {
            keep_fail(w, j, &e);
            P->prec[j] = (prec_t){0, 0, 0, P_DONE | P_CHECK};
            return 0;
        }
        if (P->o->max_depth > 0 && f->depth >= P->o->max_depth) {
            int nb = sys_successors(w->s, st, len, count_succ, NULL, &e);
            uint8_t fl = P_DONE | P_BOUND;
            if (w->cs.first_bound == NONE)
                w->cs.first_bound = j;
            w->cs.ncut += nb != 0;
            if (sys_terminal(w->s, st, len)) {
                fl |= P_TERM;
                keep_outcome(w, j, st, len);
            } else if (nb == 0) {
                lower_fail_min(P, j);
            }
            P->prec[j] = (prec_t){nb, 0, 0, fl};
            return 0;
        }
        w->nb = 0;
        int ns = sys_successors(w->s, st, len, on_succ, w, &e);
        w->pflags = P_DONE;
        if (ns < 0) {
            w->pflags |= P_ERR;
            keep_fail(w, j, &e);
        } else if (sys_terminal(w->s, st, len)) {
            w->pflags |= P_TERM;
            keep_outcome(w, j, st, len);
        } else if (ns == 0) {
            lower_fail_min(P, j);
        }
        w->nkeep = w->nb;
        if (w->por && w->nb > 1)
            w->nkeep = por_choose(w, j, st, len);
        w->mid = true;
        w->bi = 0;
    }
    uint64_t floor = mkkey(P->a, 0), parent = P->a + j;
    arena_t *ar = &w->ar[P->cur];
    for (; w->bi < w->nb; w->bi++) {
        if (atomic_load_explicit(&P->pause, memory_order_relaxed))
            return 1;
        if (w->nkeep < w->nb && !w->bkeep[w->bi])
            continue;
        uint64_t key = mkkey((uint32_t)parent, (uint32_t)w->bi), loser = 0;
        bool fresh = false;
        int rc = tab_offer(P->tab, P->cap, w->bfp[w->bi], key, floor, &loser, &fresh);
        if (rc < 0) {
            atomic_store_explicit(&P->pause, 1, memory_order_relaxed);
            return 1;
        }
        if (fresh && ++w->fresh >= FRESH_BATCH)
            publish(w);
        if (rc == 0)
            continue;
        if (loser)
            UTIL_PUSH(w->losers, w->nlosers, w->loserscap, loser);
        uint32_t len = w->blen[w->bi];
        rec_t h = {key, len, f->depth + 1, w->blab[w->bi], 0};
        if (!arena_put(P, w, ar, h, w->bbuf + w->bi * P->maxst)) {
            w->pflags |= P_OOM;
            lower_fail_min(P, j);
            break;
        }
        w->cs.wins++;
    }
    w->mid = false;
    w->cs.trans += w->nkeep;
    w->cs.expanded++;
    w->cs.por_reduced += (w->pflags & P_RED) != 0;
    w->cs.por_full += (w->pflags & P_PFULL) != 0;
    int32_t kend = (int32_t)w->nb;
    if (w->nkeep < w->nb)
        while (kend > 0 && !w->bkeep[kend - 1])
            kend--;
    P->prec[j] = (prec_t){(int32_t)w->nb, (int32_t)w->nkeep, kend, w->pflags};
    return 0;
}

static void run_expand(worker_t *w)
{
    par_t *P = w->P;
    const explore_opts_t *o = P->o;
    for (;;) {
        if (w->pos < w->end) {
            if (w->pos > atomic_load_explicit(&P->fail_min, memory_order_relaxed)) {
                w->pos = w->end; /* a failure comes first: the rest does not count */
                w->mid = false;
                continue;
            }
            if (w->pos + 2 < w->end) { /* a later parent's encoding, written a round ago */
                const fent_t *nf = &P->front[w->pos + 2];
                const uint8_t *q = nf->p;
                uint32_t n = nf->len & FDELTA ? 128 : nf->len; /* a delta record: its head */
                for (uint32_t b = 0; b < n; b += 64)
                    __builtin_prefetch(q + b);
            }
            if (expand(w, w->pos))
                return;
            w->pos++;
            if (atomic_load_explicit(&P->pause, memory_order_relaxed))
                return;
            continue;
        }
        if (w->ck != (size_t)-1) {
            P->csum[w->ck] = w->cs;
            w->ck = (size_t)-1;
        }
        publish(w);
        if (w->idx == 0 && o->stop && *o->stop)
            atomic_store_explicit(&P->halt, H_STOP, memory_order_relaxed);
        if (w->idx == 0 && explore_time_up(o, P->t0))
            atomic_store_explicit(&P->halt, H_TIME, memory_order_relaxed);
        if (o->max_memory &&
            (uint64_t)atomic_load_explicit(&P->held, memory_order_relaxed) > o->max_memory)
            atomic_store_explicit(&P->halt, H_MEM, memory_order_relaxed);
        if (atomic_load_explicit(&P->pause, memory_order_relaxed) ||
            atomic_load_explicit(&P->halt, memory_order_relaxed))
            return;
        uint64_t k = atomic_load_explicit(&P->next_chunk, memory_order_relaxed);
        if (k >= P->nchunks ||
            k * P->chunk > atomic_load_explicit(&P->fail_min, memory_order_relaxed))
            return;
        k = atomic_fetch_add_explicit(&P->next_chunk, 1, memory_order_relaxed);
        if (k >= P->nchunks)
            return;
        P->owner[k] = (uint16_t)w->idx;
        w->ck = k;
        w->cs = (csum_t){0, 0, 0, 0, 0, NONE, 0, 0};
        w->pos = (uint32_t)(k * P->chunk);
        w->end = (uint32_t)(w->pos + P->chunk < P->nfront ? w->pos + P->chunk : P->nfront);
    }
}

/* Move thread W's share of the old table into the new one. */
static void run_rehash(worker_t *w)
{
    par_t *P = w->P;
    size_t lo = P->oldcap / (size_t)P->nth * (size_t)w->idx,
           hi =
               w->idx == P->nth - 1 ? P->oldcap : P->oldcap / (size_t)P->nth * (size_t)(w->idx + 1);
    for (size_t i = lo; i < hi; i++) {
        uint64_t fp = atomic_load_explicit(&P->old[i].fp, memory_order_relaxed);
        if (fp)
            tab_put(P->tab, P->cap, fp, atomic_load_explicit(&P->old[i].cl, memory_order_relaxed));
    }
}

/* Whether KEY was displaced (the round's losers are sorted; *LI only moves on). */
static bool is_loser(const par_t *P, size_t *li, uint64_t key)
{
    while (*li < P->nlosers && P->losers[*li] < key)
        (*li)++;
    return *li < P->nlosers && P->losers[*li] == key;
}

/* commit_fast: number thread W's winners from their chunk's base. */
static void run_number(worker_t *w)
{
    par_t *P = w->P;
    size_t li = 0, k = (size_t)-1;
    uint32_t id = 0;
    w->nbigs = 0;
    w->maxdepth = 0;
    for (const block_t *b = w->ar[P->cur].head; b; b = b->next)
        for (size_t pos = 0; pos < b->used;) {
            const rec_t *r = (const rec_t *)(const void *)(b->data + pos);
            __builtin_prefetch(b->data + pos + 512); /* the records ahead, cold by now */
            pos += rec_size(r);
            if (is_loser(P, &li, r->key))
                continue;
            uint32_t parent = (uint32_t)((r->key >> 32) - 1), ord = (uint32_t)r->key;
            if ((parent - P->a) / P->chunk != k) {
                k = (parent - P->a) / P->chunk;
                id = P->csum[k].base;
            }
            P->parent[id >> PCHUNK_BITS][id & (PCHUNK - 1)] = parent;
            P->ord[id >> PCHUNK_BITS][id & (PCHUNK - 1)] = (uint8_t)(ord < ORD_BIG ? ord : ORD_BIG);
            if (ord >= ORD_BIG) {
                struct ord_big g = {id, ord};
                UTIL_PUSH(w->bigs, w->nbigs, w->bigscap, g);
            }
            P->next[id - P->n] = rec_fent(r);
            if (r->depth > w->maxdepth)
                w->maxdepth = r->depth;
            id++;
        }
}

static void run_phase(worker_t *w)
{
    switch (w->P->phase) {
    case PH_EXPAND: run_expand(w); break;
    case PH_REHASH: run_rehash(w); break;
    case PH_NUMBER: run_number(w); break;
    default: break;
    }
}

static void *thread_main(void *arg)
{
    worker_t *w = arg;
    for (;;) {
        pthread_barrier_wait(&w->P->bar);
        if (w->P->phase == PH_QUIT)
            return NULL;
        run_phase(w);
        pthread_barrier_wait(&w->P->bar);
    }
}

/* Run PHASE on every thread (the caller is thread 0); the others wait at the barrier. */
static void all_run(par_t *P, int phase)
{
    P->phase = phase;
    pthread_barrier_wait(&P->bar);
    if (phase == PH_QUIT)
        return;
    run_phase(&P->w[0]);
    pthread_barrier_wait(&P->bar);
}

/* Double the table (all threads rehash); -1 when memory ran out. */
static int grow_table(par_t *P)
{
    size_t cap = P->cap * 2;
    slot_t *t = tab_alloc(P, cap);
    if (!t)
        return -1;
    P->old = P->tab;
    P->oldcap = P->cap;
    P->tab = t;
    P->cap = cap;
    all_run(P, PH_REHASH);
    tab_free(P, P->old, P->oldcap);
    P->old = NULL;
    return 0;
}

/* ---- traces (as explore.c: replay the recorded successor positions) ---- */

/* Replay the path to committed state ID (the recorded positions from an initial
 * state: explore_replay); with TRACE, into P->r->trace. Leaves the last state in
 * *BEFORE (caller frees) and returns its length, or 0 when a step failed. */
static size_t replay(par_t *P, uint32_t id, bool trace, const prog_val_t *want, uint8_t **before)
{
    size_t k = 0;
    for (uint32_t v = id; v != NONE; v = parent_of(P, v))
        k++;
    uint32_t *ords = xmalloc(sizeof *ords * (k + 1));
    size_t n = k;
    for (uint32_t v = id; v != NONE; v = parent_of(P, v))
        ords[--k] = ord_of(P, v);
    size_t len = want && sys_sym_order(P->s)
                     ? explore_replay_sym(P->s, ords, n, P->r, want, P->nkeys, before)
                     : explore_replay(P->s, ords, n, trace ? P->r : NULL, before);
    free(ords);
    return len;
}

/* WANT: a violation under symmetry, the forbidden outcome the trace must end in. */
static void fail_at(par_t *P, explore_verdict_t v, uint32_t id, const uint8_t *st, size_t len,
                    const sys_label_t *lab, const char *msg, const prog_val_t *want)
{
    explore_result_t *r = P->r;
    r->verdict = v;
    r->failure_id = id;
    snprintf(r->msg, sizeof r->msg, "%s", msg);
    uint8_t *end;
    size_t elen = replay(P, id, true, want, &end);
    explore_trace_end(P->s, r, end, elen, st, len, lab);
    free(end);
}

static void fail(par_t *P, explore_verdict_t v, uint32_t id, const uint8_t *st, size_t len,
                 const sys_label_t *lab, const char *msg)
{
    fail_at(P, v, id, st, len, lab, msg, NULL);
}

/* ---- the commit ---- */

static const pfail_t *find_fail(const worker_t *w, uint32_t j)
{
    for (size_t i = 0; i < w->nfails; i++)
        if (w->fails[i].j == j)
            return &w->fails[i];
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct {
    uint64_t *losers;
    size_t nlosers, loserscap, li;
    size_t *oi; /* per thread: next outcome */
    prog_val_t *outv;
    uint32_t first_bound;
    uint64_t ncut;
    bool done; /* the search ended (a failure or a limit) */
} commit_t;

static void outcome(par_t *P, commit_t *c, const worker_t *w, uint32_t id, const fent_t *f)
{
    size_t k = (size_t)P->nkeys + 1;
    const int64_t *o = w->outs + c->oi[w->idx] * k;
    c->oi[w->idx]++;
    if (explore_terminal_outcomes(P->s, P->o, P->r, o + 1, f->depth, c->outv)) {
        fail_at(P, EXPLORE_VIOLATION, id, fent_state(f, &P->dc), fent_len(f), NULL,
                "reached an outcome the model forbids", c->outv);
        c->done = true;
    }
}

static void stop_msg(par_t *P, const char *what)
{
    P->r->verdict = EXPLORE_INCOMPLETE;
    snprintf(P->r->msg, sizeof P->r->msg, "%s after %llu states", what, (unsigned long long)P->n);
}

static void oom_msg(par_t *P)
{
    P->r->verdict = EXPLORE_INCOMPLETE;
    snprintf(P->r->msg, sizeof P->r->msg,
             "out of memory after %llu states (%.0f MiB held): the search needs more",
             (unsigned long long)P->n, (double)atomic_load(&P->held) / 1048576.0);
}

/* The keys the threads displaced this round, sorted (P->losers). */
static void gather_losers(par_t *P, commit_t *c)
{
    c->nlosers = 0;
    for (int t = 0; t < P->nth; t++)
        for (size_t i = 0; i < P->w[t].nlosers; i++)
            UTIL_PUSH(c->losers, c->nlosers, c->loserscap, P->w[t].losers[i]);
    if (c->nlosers > 1)
        qsort(c->losers, c->nlosers, sizeof *c->losers, cmp_u64);
    P->losers = c->losers;
    P->nlosers = c->nlosers;
}

/* Room for states up to number N - 1; -1 when memory ran out. */
static int grow_to(par_t *P, uint64_t n)
{
    uint64_t save = P->n;
    int rc = 0;
    while (!rc && P->pchunks * PCHUNK < n) {
        P->n = P->pchunks * PCHUNK;
        rc = grow_states(P);
    }
    P->n = save;
    return rc;
}

static int cmp_big(const void *a, const void *b)
{
    const struct ord_big *x = a, *y = b;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Commit a whole round on every thread when nothing in it needs the serial
 * re-enactment: no store hook, no failure, no limit within reach. The result is
 * commit()'s: winners numbered in (parent, position) order, outcomes reported in
 * parent order. -1: not possible (memory); nothing was changed. */
static int commit_fast(par_t *P, commit_t *c)
{
    explore_result_t *r = P->r;
    for (size_t i = 0; i < P->nlosers; i++)
        P->csum[((P->losers[i] >> 32) - 1 - P->a) / P->chunk].wins--;
    uint64_t total = 0;
    for (size_t k = 0; k < P->nchunks; k++) {
        P->csum[k].base = (uint32_t)(P->n + total);
        total += P->csum[k].wins;
    }
    if (grow_to(P, P->n + total))
        return -1;
    if (total > P->nextcap) {
        size_t old = P->nextcap;
        util_grow((void **)&P->next, &P->nextcap, total, sizeof *P->next);
        account(P, (int64_t)((P->nextcap - old) * sizeof *P->next));
    }
    all_run(P, PH_NUMBER);
    for (size_t k = 0; k < P->nchunks; k++) {
        const csum_t *cs = &P->csum[k];
        r->transitions += cs->trans;
        r->expanded += cs->expanded;
        r->por_reduced += cs->por_reduced;
        r->por_full += cs->por_full;
        c->ncut += cs->ncut;
        if (c->first_bound == NONE && cs->first_bound != NONE)
            c->first_bound = P->a + cs->first_bound;
    }
    size_t nb0 = P->nbig;
    for (int t = 0; t < P->nth; t++) {
        const worker_t *w = &P->w[t];
        for (size_t i = 0; i < w->nbigs; i++)
            UTIL_PUSH(P->big, P->nbig, P->bigcap, w->bigs[i]);
        if (w->maxdepth > r->max_depth)
            r->max_depth = w->maxdepth;
    }
    if (P->nbig - nb0 > 1)
        qsort(P->big + nb0, P->nbig - nb0, sizeof *P->big, cmp_big);
    /* outcomes in parent order: merge the threads' lists (each in that order) */
    size_t k1 = (size_t)P->nkeys + 1;
    for (int t = 0; t < P->nth; t++)
        c->oi[t] = 0;
    for (;;) {
        int best = -1;
        for (int t = 0; t < P->nth; t++)
            if (c->oi[t] < P->w[t].nouts &&
                (best < 0 || P->w[t].outs[c->oi[t] * k1] < P->w[best].outs[c->oi[best] * k1]))
                best = t;
        if (best < 0)
            break;
        const int64_t *o = P->w[best].outs + c->oi[best]++ * k1;
        /* none forbidden (else the round is committed by commit()): the images added */
        explore_terminal_outcomes(P->s, P->o, r, o + 1, P->front[o[0]].depth, c->outv);
    }
    P->n += total;
    P->nnext = total;
    return 0;
}

/* Commit the round's processed parents [0, UPTO) in number order. Returns the
 * serial explorer's queue cursor relative to a: past a failing parent, at a cut one. */
static uint32_t commit(par_t *P, commit_t *c, size_t upto)
{
    explore_result_t *r = P->r;
    for (int t = 0; t < P->nth; t++) {
        worker_t *w = &P->w[t];
        w->ar[P->cur].rb = w->ar[P->cur].head;
        w->ar[P->cur].rpos = 0;
        c->oi[t] = 0;
    }
    c->li = 0;
    P->nnext = 0;
    uint32_t j = 0;
    for (; j < upto; j++) {
        const prec_t *pr = &P->prec[j];
        const fent_t *f = &P->front[j];
        uint32_t id = P->a + j;
        worker_t *w = &P->w[P->owner[j / P->chunk]];
        if (!(pr->flags & P_DONE))
            break;
        if (pr->flags & P_CHECK) {
            const pfail_t *pf = find_fail(w, j);
            fail(P, EXPLORE_INVARIANT, id, fent_state(f, &P->dc), fent_len(f), NULL, pf->e.msg);
            c->done = true;
            return j + 1;
        }
        if (pr->flags & P_BOUND) {
            if (c->first_bound == NONE)
                c->first_bound = id;
            c->ncut += pr->n != 0;
            if (pr->flags & P_TERM) {
                outcome(P, c, w, id, f);
                if (c->done)
                    return j + 1;
            } else if (pr->n == 0) {
                fail(P, EXPLORE_DEADLOCK, id, fent_state(f, &P->dc), fent_len(f), NULL,
                     "no transition is enabled and not every thread finished");
                c->done = true;
                return j + 1;
            }
            continue;
        }
        uint64_t before = r->transitions;
        r->transitions += (uint64_t)pr->keep;
        r->por_reduced += (pr->flags & P_RED) != 0;
        r->por_full += (pr->flags & P_PFULL) != 0;
        if (pr->flags & P_OOM) {
            r->transitions = before;
            oom_msg(P);
            c->done = true;
            return j;
        }
        /* flush: the successors in order, the winners numbered (explore.c's flush_batch) */
        arena_t *ar = &w->ar[P->cur];
        int64_t last = -1; /* the last successor looked at */
        const rec_t *rc;
        uint64_t hi = mkkey(id + 1, 0);
        while (!P->full && (rc = arena_peek(ar)) && rc->key < hi) {
            while (c->li < c->nlosers && c->losers[c->li] < rc->key)
                c->li++;
            if (c->li < c->nlosers && c->losers[c->li] == rc->key) {
                arena_skip(ar, rc);
                continue;
            }
            uint32_t ord = (uint32_t)rc->key;
            if (P->n >= P->limit) {
                P->full = true; /* at successor last + 1 <= ord */
                break;
            }
            const uint8_t *st = rec_state(&P->dc, rc);
            if (commit_state(P, id, ord, rc->depth, &rc->lab, par_fp(P->fpmask, st, rc->len), st,
                             rc->len, rc)) {
                atomic_store(&P->oom, 1);
                r->transitions = before;
                oom_msg(P);
                c->done = true;
                return j;
            }
            last = ord;
            arena_skip(ar, rc);
        }
        if (!P->full && P->n >= P->limit && last + 1 < pr->kend) /* a kept one follows */
            P->full = true;
        if (pr->flags & P_ERR) {
            const pfail_t *pf = find_fail(w, j);
            fail(P, pf->e.kind == SYS_ERR_UNEXPECTED ? EXPLORE_UNEXPECTED : EXPLORE_INVARIANT, id,
                 fent_state(f, &P->dc), fent_len(f), &pf->e.label, pf->e.msg);
            c->done = true;
            return j + 1;
        }
        if (P->full) {
            r->transitions = before;
            stop_msg(P, "stopped by --max-states");
            c->done = true;
            return j;
        }
        if (pr->flags & P_TERM) {
            outcome(P, c, w, id, f);
            if (c->done)
                return j + 1;
        } else if (pr->n == 0) {
            fail(P, EXPLORE_DEADLOCK, id, fent_state(f, &P->dc), fent_len(f), NULL,
                 "no transition is enabled and not every thread finished");
            c->done = true;
            return j + 1;
        }
        r->expanded++;
    }
    if (j < P->nfront) { /* the threads stopped taking chunks */
        int h = atomic_load(&P->halt);
        if (atomic_load(&P->oom))
            oom_msg(P);
        else
            stop_msg(P, h == H_MEM    ? "stopped by --max-memory"
                        : h == H_TIME ? "stopped by --max-time"
                                      : "interrupted");
        c->done = true;
    }
    return j;
}

/* ---- setup ---- */

static int load_initial(par_t *P, diag_t *err)
{
    const explore_opts_t *o = P->o;
    worker_t *w = &P->w[0];
    arena_t *ar = &w->ar[P->cur];
    if (o->resume) {
        const explore_resume_t *rs = o->resume;
        for (uint64_t i = 0; i < rs->n; i++) {
            uint64_t fp = par_fp(P->fpmask, rs->states[i], rs->lens[i]);
            uint64_t loser;
            bool fresh = false;
            if (atomic_load(&P->count) * 10 > P->cap * 7 && grow_table(P))
                break;
            /* the claim is the state's key, as if a round had numbered it (--por's proviso) */
            uint32_t kp = rs->parents[i] < 0 ? NONE : (uint32_t)rs->parents[i];
            tab_offer(P->tab, P->cap, fp, mkkey(kp, rs->ords[i]), 1, &loser, &fresh);
            atomic_fetch_add(&P->count, fresh);
            if (!fresh || rs->parents[i] >= (int64_t)i) {
                diag_set(err, "", 0, 0, "resume: stored state %llu is a duplicate or out of order",
                         (unsigned long long)i);
                return -1;
            }
            if (grow_states(P))
                break;
            uint32_t id = (uint32_t)P->n++, ord = rs->ords[i];
            P->parent[id >> PCHUNK_BITS][id & (PCHUNK - 1)] =
                rs->parents[i] < 0 ? NONE : (uint32_t)rs->parents[i];
            P->ord[id >> PCHUNK_BITS][id & (PCHUNK - 1)] = (uint8_t)(ord < ORD_BIG ? ord : ORD_BIG);
            if (ord >= ORD_BIG) {
                struct ord_big b = {id, ord};
                UTIL_PUSH(P->big, P->nbig, P->bigcap, b);
            }
            if (rs->depths[i] > P->r->max_depth)
                P->r->max_depth = rs->depths[i];
            if (i >= rs->expanded) {
                fent_t f = {rs->states[i], (uint32_t)rs->lens[i], rs->depths[i]};
                if (rs->lens[i] >= FDELTA) {
                    diag_set(err, "", 0, 0, "resume: stored state %llu is too long",
                             (unsigned long long)i);
                    return -1;
                }
                UTIL_PUSH(P->next, P->nnext, P->nextcap, f);
            }
        }
        if (atomic_load(&P->oom)) {
            diag_set(err, "", 0, 0, "resume: out of memory loading %llu states",
                     (unsigned long long)rs->n);
            return -1;
        }
        P->r->transitions = rs->transitions;
        P->a = (uint32_t)rs->expanded;
        if (!rs->expanded) {
            sys_error_t e;
            int k = sys_initial(P->s, count_succ, NULL, &e);
            P->r->transitions = k > 0 ? (uint64_t)k : 0;
        }
        return 0;
    }
    sys_error_t e;
    w->nb = 0;
    if (sys_initial(P->s, on_succ, w, &e) < 0) {
        diag_set(err, "", 0, 0, "initial state: %s", e.msg);
        return -1;
    }
    P->r->transitions = w->nb;
    for (size_t i = 0; i < w->nb && !P->full; i++) {
        if (P->n >= P->limit) {
            P->full = true;
            break;
        }
        uint64_t loser;
        bool fresh = false;
        if (atomic_load(&P->count) * 10 > P->cap * 7 && grow_table(P)) {
            diag_set(err, "", 0, 0, "out of memory storing the initial states");
            return -1;
        }
        tab_offer(P->tab, P->cap, w->bfp[i], mkkey(NONE, (uint32_t)i), 1, &loser, &fresh);
        atomic_fetch_add(&P->count, fresh);
        if (!fresh)
            continue;
        rec_t h = {0, w->blen[i], 0, w->blab[i], 0};
        const rec_t *r = arena_put(P, w, ar, h, w->bbuf + i * P->maxst);
        if (!r || commit_state(P, NONE, (uint32_t)i, 0, &w->blab[i], w->bfp[i],
                               w->bbuf + i * P->maxst, w->blen[i], r)) {
            diag_set(err, "", 0, 0, "out of memory storing the initial states");
            return -1;
        }
    }
    w->nb = 0;
    return 0;
}

static void par_free(par_t *P)
{
    for (int t = 0; t < P->nth; t++) {
        worker_t *w = &P->w[t];
        sys_por_free(w->por); /* before its system */
        sys_clone_free(w->s);
        arena_clear(P, w, &w->ar[0], 0);
        arena_clear(P, w, &w->ar[1], 0);
        for (block_t *b = w->spare, *nx; b; b = nx) {
            nx = b->next;
            big_free(P, b, sizeof *b + b->cap);
        }
        free(w->outs);
        free(w->fails);
        free(w->losers);
        free(w->bfp);
        free(w->blen);
        free(w->blab);
        free(w->bbuf);
        free(w->outv);
        free(w->dc.buf);
        free(w->lastst);
        free(w->dbuf);
        free(w->bigs);
        free(w->bkeep);
    }
    free(P->w);
    tab_free(P, P->tab, P->cap);
    for (size_t i = 0; i < P->pchunks; i++) {
        free(P->parent[i]);
        free(P->ord[i]);
    }
    free(P->parent);
    free(P->ord);
    free(P->big);
    free(P->front);
    free(P->dc.buf);
    free(P->next);
    free(P->prec);
    free(P->owner);
    free(P->csum);
}

/* A complete search that reached no terminal state: as explore.c's no_terminal. */
static void no_terminal(par_t *P)
{
    uint32_t id = (uint32_t)(P->n - 1);
    uint8_t *buf;
    size_t len = replay(P, id, false, NULL, &buf);
    if (len)
        fail(P, EXPLORE_DEADLOCK, id, buf, len, NULL,
             "no execution terminates: every path runs forever (a livelock), so the test "
             "never finishes");
    free(buf);
}

int explore_par_run(sys_t *s, int nkeys, const explore_opts_t *o, explore_result_t *r, diag_t *err)
{
    memset(r, 0, sizeof *r);
    r->failure_id = -1;
    r->fp_bits = 64; /* the shared table keeps 64-bit fingerprints */
    exec_outcomes_init(&r->reached, nkeys);
    par_t *P = xcalloc(1, sizeof *P);
    P->s = s;
    P->o = o;
    P->t0 = explore_clock();
    P->r = r;
    P->nkeys = nkeys;
    P->nth = o->threads < MAX_THREADS ? o->threads : MAX_THREADS;
    P->maxst = sys_max_state(s);
    P->dc.buf = xcalloc(1, P->maxst + 8);
    P->limit = NONE - 1;
    if (o->max_states && o->max_states < P->limit)
        P->limit = o->max_states;
    atomic_init(&P->fail_min, NONE);
    P->fpmask = ~0ull;
    if (o->por) { /* as explore.c: on when the analysis applies, else why not */
        sys_por_t *por = sys_por_new(s);
        const char *why = NULL;
        P->por = r->por = sys_por_active(por, &why);
        explore_por_fields(r, por);
        if (!P->por)
            snprintf(r->por_off, sizeof r->por_off, "%s", why);
        P->proviso = P->por && sys_por_proviso(por);
        if (P->proviso)
            P->fpmask = ~1ull;
        sys_por_free(por);
    }
    sys_set_dead(s, P->por);    /* before the clones: they copy the setting */
    explore_sym_start(s, o, r); /* likewise: the clones canonicalise as S does */
    P->w = xcalloc_lines((size_t)P->nth, sizeof *P->w);
    for (int t = 0; t < P->nth; t++) {
        P->w[t].P = P;
        P->w[t].idx = t;
        P->w[t].s = sys_clone(s); /* thread 0 too: its scratch on lines of its own */
        P->w[t].outv = xcalloc((size_t)nkeys + 1, sizeof(prog_val_t));
        P->w[t].dc.buf = xcalloc(1, P->maxst + 8);
        P->w[t].lastst = xcalloc(1, P->maxst + 8);
        P->w[t].dbuf = xcalloc(1, P->maxst + 8);
        if (P->por)
            P->w[t].por = sys_por_new(P->w[t].s);
    }
    P->cap = TAB_MIN;
    P->load10 = 7;
    P->tab = tab_alloc(P, P->cap);
    pthread_t tid[MAX_THREADS];
    int started = 0;
    pthread_barrier_init(&P->bar, NULL, (unsigned)P->nth);
    for (int t = 1; t < P->nth; t++)
        if (pthread_create(&tid[t], NULL, thread_main, &P->w[t]) == 0)
            started++;
    int rc = 0;
    if (!P->tab || started != P->nth - 1) {
        diag_set(err, "", 0, 0, "cannot start %d threads", P->nth);
        rc = -1;
    } else if (load_initial(P, err)) {
        rc = -1;
    }
    if (rc) {
        if (started == P->nth - 1)
            all_run(P, PH_QUIT);
        for (int t = 1; t <= started; t++)
            pthread_join(tid[t], NULL);
        pthread_barrier_destroy(&P->bar);
        par_free(P);
        free(P);
        exec_outcomes_free(&r->reached);
        sys_set_symmetry(s, false, NULL);
        return -1;
    }
    commit_t c = {0};
    c.oi = xcalloc((size_t)P->nth, sizeof *c.oi);
    c.outv = xcalloc((size_t)nkeys + 1, sizeof *c.outv);
    c.first_bound = NONE;
    uint64_t last_progress = 0;
    uint32_t qnext = P->a;
    if (!o->resume)
        P->a = 0;
    for (;;) {
        /* the committed new states become the round's parents */
        fent_t *ft = P->front;
        size_t fc = P->frontcap;
        P->front = P->next;
        P->frontcap = P->nextcap;
        P->nfront = P->nnext;
        P->next = ft;
        P->nextcap = fc;
        P->nnext = 0;
        if (!P->nfront)
            break;
        int prev = P->cur;
        P->cur ^= 1;
        dcur_reset(&P->dc);
        for (int t = 0; t < P->nth; t++) {
            worker_t *w = &P->w[t];
            arena_clear(P, w, &w->ar[P->cur], 0);
            dcur_reset(&w->dc); /* its records may be gone */
            w->nouts = w->nfails = w->nlosers = 0;
            w->pos = w->end = 0;
            w->ck = (size_t)-1;
        }
        if (P->nfront > P->preccap) {
            size_t old = P->preccap;
            util_grow((void **)&P->prec, &P->preccap, P->nfront, sizeof *P->prec);
            account(P, (int64_t)((P->preccap - old) * sizeof *P->prec));
        }
        memset(P->prec, 0, P->nfront * sizeof *P->prec);
        size_t ch = P->nfront / ((size_t)P->nth * 32);
        P->chunk = (uint32_t)(ch < 1 ? 1 : ch > 128 ? 128 : ch);
        P->nchunks = (P->nfront + P->chunk - 1) / P->chunk;
        util_grow((void **)&P->owner, &P->ownercap, P->nchunks, sizeof *P->owner);
        if (P->nchunks > P->csumcap) {
            size_t old = P->csumcap;
            util_grow((void **)&P->csum, &P->csumcap, P->nchunks, sizeof *P->csum);
            account(P, (int64_t)((P->csumcap - old) * sizeof *P->csum));
        }
        atomic_store(&P->next_chunk, 0);
        atomic_store(&P->round_new, 0);
        P->limit_new = P->limit - P->n + 1; /* the round holds the cut */
        for (;;) {
            all_run(P, PH_EXPAND);
            if (!atomic_load(&P->pause))
                break;
            if (o->max_memory &&
                (uint64_t)atomic_load(&P->held) + P->cap * 2 * sizeof(slot_t) > o->max_memory) {
                /* the doubled table would pass --max-memory: fill this one to 90 %
                   first (longer probes, the same search), then stop, as at the limit */
                if (P->load10 < 9 && atomic_load(&P->count) * 10 <= (uint64_t)P->cap * 9) {
                    P->load10 = 9;
                    atomic_store(&P->pause, 0);
                    continue;
                }
                atomic_store(&P->halt, H_MEM);
                atomic_store(&P->pause, 0);
                break;
            }
            P->load10 = 7;
            if (grow_table(P)) {
                /* no room: whatever a thread held unfinished stays unprocessed */
                atomic_store(&P->halt, H_FULL);
                atomic_store(&P->pause, 0);
                break;
            }
            atomic_store(&P->pause, 0);
        }
        uint64_t k = atomic_load(&P->next_chunk);
        size_t upto = k >= P->nchunks ? P->nfront : (size_t)k * P->chunk;
        gather_losers(P, &c);
        uint32_t did;
        if (!o->on_new && upto == P->nfront && atomic_load(&P->fail_min) == NONE &&
            !atomic_load(&P->oom) && atomic_load(&P->halt) == H_NONE && !P->full &&
            P->n + atomic_load(&P->round_new) < P->limit && !commit_fast(P, &c))
            did = (uint32_t)P->nfront;
        else
            did = commit(P, &c, upto);
        qnext = P->a + did;
        /* the parents' records are no longer needed */
        for (int t = 0; t < P->nth; t++)
            arena_clear(P, &P->w[t], &P->w[t].ar[prev], P->w[t].ar[P->cur].nblocks);
        if (c.done)
            goto done;
        P->a += (uint32_t)P->nfront;
        qnext = P->a;
        if (o->progress && P->n - last_progress >= 65536) {
            last_progress = P->n;
            o->progress(o->progress_ctx, P->n, P->nnext, (uint64_t)atomic_load(&P->held), 0);
        }
    }
    r->verdict = EXPLORE_OK;
    if (!c.ncut && !o->resume && P->n > 0 && r->reached.n == 0 &&
        !(o->max_states && P->n >= o->max_states)) {
        no_terminal(P);
        goto done;
    }
    if (c.ncut) {
        r->verdict = EXPLORE_INCOMPLETE;
        snprintf(r->msg, sizeof r->msg,
                 "stopped by --max-depth %d: %llu state(s) at that depth not expanded",
                 o->max_depth, (unsigned long long)c.ncut);
    }
done:
    all_run(P, PH_QUIT);
    for (int t = 1; t < P->nth; t++)
        pthread_join(tid[t], NULL);
    pthread_barrier_destroy(&P->bar);
    r->states = P->n;
    r->expanded = qnext < c.first_bound ? qnext : c.first_bound;
    r->bytes = (uint64_t)atomic_load(&P->peak);
    double n = (double)P->n;
    r->omission = n * (n - 1) / 36893488147419103232.0; /* n(n-1)/2 pairs, 2^-64 each */
    if (P->proviso)
        r->omission *= 2; /* --por's mark bit (explore.c): one bit fewer */
    free(c.losers);
    free(c.oi);
    free(c.outv);
    par_free(P);
    free(P);
    sys_set_symmetry(s, false, NULL); /* the system as it was given */
    return 0;
}
