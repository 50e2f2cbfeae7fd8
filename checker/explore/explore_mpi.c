/* explore_mpi.c - the explorer distributed over MPI ranks (see explore_mpi.h).
 *
 * Ownership. A state belongs to the rank its fingerprint (explore_fingerprint,
 * the serial explorer's) hashes to: its high 32 bits scaled to the number of
 * ranks. The owner keeps the fingerprint, the state's parent as (rank, local
 * id) and its position among the parent's successors (ord), and the state's
 * encoding while it waits in a frontier.
 *
 * Levels. The search is a breadth-first search one level at a time. One process
 * (explore.c) numbers states in discovery order: level by level, and inside
 * level d+1 by the key (position in level d of the first parent that reaches
 * the state, ord). Here every successor is sent to its owner with that key and
 * the owner keeps the least key it receives for each state new in the level.
 * After the level the keys are ranked across the ranks (an Alltoallv to the
 * rank responsible for a range of parent positions, a sort, an Alltoallv back),
 * so every state knows its position: the order one process would expand it in.
 * A failure found at level d stops one process at the first failing state X in
 * that order; here every rank finds its first, the least position wins, and the
 * states, transitions and outcomes are counted up to X exactly as one process
 * counts them (the same for the state where --max-states cuts the search).
 *
 * Messages. Successors go into one buffer per destination as records
 * (fingerprint, key, parent's local id, length, the encoding as a delta from
 * the previous record) and leave with MPI_Isend when full, at most NSEND
 * buffers in flight per destination; a rank waiting for a free buffer receives
 * meanwhile, so no rank blocks another. A rank ends its part of a level with a
 * message flagged last to every other rank; MPI does not let messages between
 * two ranks overtake each other, so a rank holding every other rank's last
 * message holds all of the level's successors: that, and the collective
 * reductions after it, are the termination detection. */
#include "explore_mpi.h"

#include "explore_int.h"

#include <string.h>

#ifndef COHCHECK_MPI

int explore_mpi_init(int *rank, int *ranks, diag_t *err)
{
    *rank = 0;
    *ranks = 1;
    diag_set(err, "", 0, 0,
             "--mpi: cohcheck was built without MPI (install libopenmpi-dev and rebuild)");
    return -1;
}

void explore_mpi_finalize(void) {}

int explore_mpi_run(sys_t *s, int layout_keys, const explore_opts_t *o, explore_result_t *out,
                    explore_mpi_stats_t *stats, diag_t *err)
{
    (void)s;
    (void)layout_keys;
    (void)o;
    (void)stats;
    memset(out, 0, sizeof *out);
    diag_set(err, "", 0, 0, "--mpi: cohcheck was built without MPI");
    return -1;
}

#else

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../base/util.h"
#include "../sys/sys_por.h"

#define TAG 17
#define NSEND 4 /* buffers in flight per destination */
#define BUF_BYTES ((size_t)64 << 10)
#define NONE UINT32_MAX /* no parent: an initial state */
#define NOPOS UINT64_MAX
#define SENT_BITS 20 /* the cache of fingerprints already sent: 2^20 entries */

enum { EV_INV, EV_UNEXP, EV_VIOL, EV_DEAD };

typedef struct {
    uint64_t fp; /* 0: empty (fingerprints are never 0) */
    uint32_t lid;
} slot_t;

/* A state of a frontier: in the level being built, KEY is the least key
 * received; once the level is numbered, POS is its position. */
typedef struct {
    uint64_t key;
    uint32_t lid, pos;
    uint32_t len;
    size_t off;
} ent_t;

typedef struct {
    ent_t *e;
    size_t n, cap;
    uint8_t *bytes;
    size_t used, bcap;
} level_t;

typedef struct {
    uint8_t *buf[NSEND];
    MPI_Request req[NSEND];
    int cur;
    size_t used;
    uint8_t *base; /* the previous record's state: the delta base */
    size_t baselen;
} dest_t;

/* The first failure a rank found in the level, or the one that won. */
typedef struct {
    uint64_t pos;
    int type, verdict, has_label;
    sys_label_t label;
    uint32_t idx; /* frontier index on its owner */
    char msg[320];
} event_t;

typedef struct {
    sys_t *s;
    const explore_opts_t *o;
    int nkeys, rank, P;
    size_t maxst, bufsz;
    /* the visited set: fingerprint -> local id */
    slot_t *tab;
    size_t tcap, tn;
    /* per local state */
    uint32_t *prank, *plid, *pord;
    size_t n, ncap;
    /* frontiers */
    level_t cur, next;
    uint32_t next_first; /* the first local id new in the level being built */
    uint32_t *fns;       /* per frontier state: successors emitted (--por: kept) */
    uint32_t *fend;      /* ... the last one's position among all its successors + 1 */
    uint8_t *fred;       /* ... --por: 1 when a proper stubborn set was kept */
    size_t fnscap;
    /* --por (docs/por.md): the analysis, and the state's successors, all of them, before
       the stubborn set is chosen */
    sys_por_t *por;
    uint8_t *sb;
    size_t sbcap, sbused, sn, scap;
    size_t *soff;
    uint32_t *slen;
    sys_label_t *slab;
    bool *skeep;
    /* the state being expanded */
    uint64_t cur_pos;
    uint32_t cur_lid, cur_ns;
    /* messages */
    dest_t *dst;
    uint8_t *rbuf, *rbase;
    size_t rcap;
    int lasts;
    uint64_t *sent; /* fingerprints this rank already sent, direct-mapped */
    uint64_t messages, bytes_sent, sent_succ, control, skipped;
    uint64_t held, peak;
    /* outcomes: all levels so far; this level's new ones, with their first position */
    exec_outcomes_t acc, lvl;
    uint64_t *lvl_pos;
    prog_val_t *lvl_vals;
    size_t nlvl, lvlcap;
    double t0; /* when the search began (--max-time) */
} mx_t;

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static uint32_t rd32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static size_t round8(size_t n)
{
    return (n + 7) & ~(size_t)7;
}

static int owner_of(const mx_t *x, uint64_t fp)
{
    return (int)(((fp >> 32) * (uint64_t)x->P) >> 32);
}

static uint64_t mem_now(const mx_t *x)
{
    return x->tcap * sizeof(slot_t) + x->ncap * 12 + (x->cur.cap + x->next.cap) * sizeof(ent_t) +
           x->cur.bcap + x->next.bcap + x->fnscap * 4 + (uint64_t)(x->P - 1) * NSEND * x->bufsz +
           x->rcap + (x->sent ? ((uint64_t)8 << SENT_BITS) : 0);
}

static void note_mem(mx_t *x)
{
    x->held = mem_now(x);
    if (x->held > x->peak)
        x->peak = x->held;
}

/* ---- the visited set ---- */

static void tab_grow(mx_t *x)
{
    size_t cap = x->tcap ? x->tcap * 2 : 1024;
    slot_t *t = xcalloc(cap, sizeof *t);
    for (size_t i = 0; i < x->tcap; i++) {
        if (!x->tab[i].fp)
            continue;
        size_t j = x->tab[i].fp & (cap - 1);
        while (t[j].fp)
            j = (j + 1) & (cap - 1);
        t[j] = x->tab[i];
    }
    free(x->tab);
    x->tab = t;
    x->tcap = cap;
}

/* The slot of FP, inserted if absent (*FOUND says which). */
static slot_t *tab_get(mx_t *x, uint64_t fp, bool *found)
{
    if ((x->tn + 1) * 4 > x->tcap * 3)
        tab_grow(x);
    size_t j = fp & (x->tcap - 1);
    while (x->tab[j].fp && x->tab[j].fp != fp)
        j = (j + 1) & (x->tcap - 1);
    *found = x->tab[j].fp == fp;
    if (!*found) {
        x->tab[j].fp = fp;
        x->tn++;
    }
    return &x->tab[j];
}

/* ---- states ---- */

static void level_push(level_t *l, uint64_t key, uint32_t lid, const uint8_t *st, size_t len)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 256;
        l->e = xrealloc(l->e, l->cap * sizeof *l->e);
    }
    if (l->used + len > l->bcap) {
        while (l->used + len > l->bcap)
            l->bcap = l->bcap ? l->bcap * 2 : 4096;
        l->bytes = xrealloc(l->bytes, l->bcap);
    }
    ent_t *e = &l->e[l->n++];
    e->key = key;
    e->lid = lid;
    e->pos = 0;
    e->len = (uint32_t)len;
    e->off = l->used;
    memcpy(l->bytes + l->used, st, len);
    l->used += len;
}

/* A successor for this rank: FP reached with KEY from local state PLID of rank SRC. */
static void take(mx_t *x, int src, uint64_t fp, uint64_t key, uint32_t plid, const uint8_t *st,
                 size_t len)
{
    bool found;
    slot_t *sl = tab_get(x, fp, &found);
    if (found) {
        uint32_t lid = sl->lid;
        if (lid < x->next_first)
            return; /* reached in an earlier level */
        ent_t *e = &x->next.e[lid - x->next_first];
        if (key < e->key) {
            e->key = key;
            x->prank[lid] = plid == NONE ? NONE : (uint32_t)src;
            x->plid[lid] = plid;
            x->pord[lid] = (uint32_t)key;
        }
        return;
    }
    if (x->n == x->ncap) {
        x->ncap = x->ncap ? x->ncap * 2 : 1024;
        x->prank = xrealloc(x->prank, x->ncap * sizeof *x->prank);
        x->plid = xrealloc(x->plid, x->ncap * sizeof *x->plid);
        x->pord = xrealloc(x->pord, x->ncap * sizeof *x->pord);
    }
    uint32_t lid = (uint32_t)x->n++;
    sl->lid = lid;
    x->prank[lid] = plid == NONE ? NONE : (uint32_t)src;
    x->plid[lid] = plid;
    x->pord[lid] = (uint32_t)key;
    level_push(&x->next, key, lid, st, len);
}

/* ---- messages ---- */

static void parse(mx_t *x, int src, const uint8_t *p, size_t n)
{
    const uint8_t *end = p + n;
    size_t prevlen = 0;
    memset(x->rbase, 0, x->maxst + 16);
    p++; /* the last flag */
    while (p < end) {
        if (end - p < 20)
            break;
        uint64_t fp = rd64(p), key = rd64(p + 8);
        uint32_t plid = rd32(p + 16);
        p += 20;
        uint64_t len;
        if (util_varint_get(&p, end, &len) || len > x->maxst)
            break;
        p = util_delta_get(p, end, x->rbase, len);
        if (!p)
            break;
        size_t top = round8(prevlen > len ? prevlen : len);
        memset(x->rbase + len, 0, top - len);
        prevlen = len;
        take(x, src, fp, key, plid, x->rbase, len);
    }
}

/* Receive every message that has arrived; false if there was none. */
static bool poll_recv(mx_t *x)
{
    bool any = false;
    for (;;) {
        int flag = 0, cnt = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG, MPI_COMM_WORLD, &flag, &st);
        if (!flag)
            return any;
        any = true;
        MPI_Get_count(&st, MPI_BYTE, &cnt);
        if ((size_t)cnt > x->rcap) {
            x->rcap = (size_t)cnt;
            x->rbuf = xrealloc(x->rbuf, x->rcap);
        }
        MPI_Recv(x->rbuf, cnt, MPI_BYTE, st.MPI_SOURCE, TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (cnt > 0 && x->rbuf[0])
            x->lasts++;
        parse(x, st.MPI_SOURCE, x->rbuf, (size_t)cnt);
    }
}

/* Nothing to receive yet: give the core away briefly rather than spin (ranks may
 * share cores; 20 us is small beside a level). */
static void idle(void)
{
    struct timespec ts = {0, 20000};
    nanosleep(&ts, NULL);
}

/* Send destination D's buffer (flagged LAST or not) and make the next one ready. */
static void send_buf(mx_t *x, int d, bool last)
{
    dest_t *b = &x->dst[d];
    b->buf[b->cur][0] = last;
    MPI_Isend(b->buf[b->cur], (int)b->used, MPI_BYTE, d, TAG, MPI_COMM_WORLD, &b->req[b->cur]);
    x->messages++;
    x->bytes_sent += b->used;
    b->cur = (b->cur + 1) % NSEND;
    for (;;) {
        int done = 0;
        MPI_Test(&b->req[b->cur], &done, MPI_STATUS_IGNORE);
        if (done)
            break;
        if (!poll_recv(x))
            idle();
    }
    b->used = 1;
    memset(b->base, 0, round8(b->baselen));
    b->baselen = 0;
}

static void put(mx_t *x, int d, uint64_t fp, uint64_t key, uint32_t plid, const uint8_t *st,
                size_t len)
{
    dest_t *b = &x->dst[d];
    if (b->used + 20 + 10 + len + len / 64 + 24 > x->bufsz)
        send_buf(x, d, false);
    uint8_t *p = b->buf[b->cur] + b->used;
    memcpy(p, &fp, 8);
    memcpy(p + 8, &key, 8);
    memcpy(p + 16, &plid, 4);
    size_t o = 20 + util_varint_put(p + 20, len);
    o += util_delta_put(p + o, b->base, st, len);
    b->used += o;
    memcpy(b->base, st, len);
    if (b->baselen > len)
        memset(b->base + len, 0, b->baselen - len);
    b->baselen = len;
    x->sent_succ++;
}

/* End this rank's part of the level and wait for everyone else's. */
static void finish_level(mx_t *x)
{
    for (int d = 0; d < x->P; d++)
        if (d != x->rank)
            send_buf(x, d, true);
    while (x->lasts < x->P - 1)
        if (!poll_recv(x))
            idle();
    x->lasts = 0;
    for (int d = 0; d < x->P; d++)
        if (d != x->rank)
            MPI_Waitall(NSEND, x->dst[d].req, MPI_STATUSES_IGNORE);
}

static void on_succ(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    (void)lab;
    mx_t *x = ctx;
    uint64_t key = (x->cur_pos << 32) | x->cur_ns++;
    uint64_t fp = explore_fingerprint(st, len);
    int d = owner_of(x, fp);
    if (d == x->rank) {
        take(x, d, fp, key, x->cur_lid, st, len);
        return;
    }
    /* A state this rank sent before needs no second message: sent in an earlier
     * level, its owner has it; sent in this one, it went with a smaller key (a
     * rank expands in position order), which is the one that counts. */
    uint64_t *c = &x->sent[fp & (((size_t)1 << SENT_BITS) - 1)];
    if (*c == fp) {
        x->skipped++;
        return;
    }
    *c = fp;
    put(x, d, fp, key, x->cur_lid, st, len);
}

/* --por: keep every successor of the state, to choose among them. */
static void collect(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    mx_t *x = ctx;
    if (x->sn == x->scap) {
        x->scap = x->scap ? x->scap * 2 : 64;
        x->soff = xrealloc(x->soff, x->scap * sizeof *x->soff);
        x->slen = xrealloc(x->slen, x->scap * sizeof *x->slen);
        x->slab = xrealloc(x->slab, x->scap * sizeof *x->slab);
        x->skeep = xrealloc(x->skeep, x->scap * sizeof *x->skeep);
    }
    util_grow((void **)&x->sb, &x->sbcap, x->sbused + len, 1);
    memcpy(x->sb + x->sbused, st, len);
    x->soff[x->sn] = x->sbused;
    x->slen[x->sn] = (uint32_t)len;
    x->slab[x->sn++] = *lab;
    x->sbused += len;
}

/* Expand state ST with the reduction: every successor is computed (errors and
 * deadlocks as without it), then the stubborn set's are sent, each with its
 * position among all of them (traces replay those). Returns sys_successors'. */
static int expand_por(mx_t *x, const uint8_t *st, size_t len, sys_error_t *e, uint32_t *kend,
                      uint8_t *red)
{
    x->sn = x->sbused = 0;
    int ns = sys_successors(x->s, st, len, collect, x, e);
    *kend = 0;
    if (ns <= 0)
        return ns;
    size_t k = sys_por_select(x->por, st, len, x->slab, x->sn, 0, x->skeep);
    for (size_t j = 0; j < x->sn; j++) {
        if (!x->skeep[j])
            continue;
        x->cur_ns = (uint32_t)j;
        on_succ(x, x->sb + x->soff[j], x->slen[j], &x->slab[j]);
        *kend = (uint32_t)j + 1;
    }
    x->cur_ns = (uint32_t)k;
    *red = k < x->sn;
    return ns;
}

static void count_succ(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    (void)ctx;
    (void)st;
    (void)len;
    (void)lab;
}

/* ---- numbering a level ---- */

static int cmp_ent(const void *a, const void *b)
{
    uint64_t x = ((const ent_t *)a)->key, y = ((const ent_t *)b)->key;
    return x < y ? -1 : x > y;
}

typedef struct {
    uint64_t key;
    uint32_t at;
} rk_t;

static int cmp_rk(const void *a, const void *b)
{
    uint64_t x = ((const rk_t *)a)->key, y = ((const rk_t *)b)->key;
    return x < y ? -1 : x > y;
}

/* Give every state of x->next its position in level order; NPARENT states were
 * in the level that reached them. x->next must be sorted by key. */
static void number(mx_t *x, uint64_t nparent)
{
    int P = x->P;
    int *sc = xcalloc((size_t)P, sizeof *sc), *rc = xcalloc((size_t)P, sizeof *rc);
    int *sd = xcalloc((size_t)P, sizeof *sd), *rd = xcalloc((size_t)P, sizeof *rd);
    uint64_t *keys = xmalloc((x->next.n + 1) * sizeof *keys);
    for (size_t i = 0; i < x->next.n; i++) {
        keys[i] = x->next.e[i].key;
        sc[(int)(((keys[i] >> 32) * (uint64_t)P) / nparent)]++;
    }
    MPI_Alltoall(sc, 1, MPI_INT, rc, 1, MPI_INT, MPI_COMM_WORLD);
    size_t nr = 0;
    for (int j = 0; j < P; j++) {
        sd[j] = j ? sd[j - 1] + sc[j - 1] : 0;
        rd[j] = (int)nr;
        nr += (size_t)rc[j];
        if (j != x->rank)
            x->control += (uint64_t)sc[j] * 12;
    }
    uint64_t *rkeys = xmalloc((nr + 1) * sizeof *rkeys);
    MPI_Alltoallv(keys, sc, sd, MPI_UINT64_T, rkeys, rc, rd, MPI_UINT64_T, MPI_COMM_WORLD);
    rk_t *rk = xmalloc((nr + 1) * sizeof *rk);
    for (size_t i = 0; i < nr; i++)
        rk[i] = (rk_t){rkeys[i], (uint32_t)i};
    qsort(rk, nr, sizeof *rk, cmp_rk);
    uint64_t mine = nr, off = 0;
    MPI_Exscan(&mine, &off, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (x->rank == 0)
        off = 0;
    uint32_t *rpos = xmalloc((nr + 1) * sizeof *rpos), *spos = xmalloc((x->next.n + 1) * 4);
    for (size_t i = 0; i < nr; i++)
        rpos[rk[i].at] = (uint32_t)(off + i);
    MPI_Alltoallv(rpos, rc, rd, MPI_UINT32_T, spos, sc, sd, MPI_UINT32_T, MPI_COMM_WORLD);
    for (size_t i = 0; i < x->next.n; i++)
        x->next.e[i].pos = spos[i];
    free(sc);
    free(rc);
    free(sd);
    free(rd);
    free(keys);
    free(rkeys);
    free(rk);
    free(rpos);
    free(spos);
}

/* ---- results ---- */

static uint64_t sum64(uint64_t v)
{
    uint64_t r = 0;
    MPI_Allreduce(&v, &r, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    return r;
}

static uint64_t min64(uint64_t v)
{
    uint64_t r = 0;
    MPI_Allreduce(&v, &r, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
    return r;
}

static uint64_t max64(uint64_t v)
{
    uint64_t r = 0;
    MPI_Allreduce(&v, &r, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    return r;
}

/* The rank holding frontier position POS (every rank calls it). */
static int holder(const mx_t *x, uint64_t pos, uint32_t *idx)
{
    int have = x->P;
    for (size_t i = 0; i < x->cur.n; i++)
        if (x->cur.e[i].pos == pos) {
            have = x->rank;
            *idx = (uint32_t)i;
            break;
        }
    int who = 0;
    MPI_Allreduce(&have, &who, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return who;
}

/* The first image of OUTV (in element order; the identity without symmetry) the
 * model forbids, into BAD: 1, or 0. The serial explorer's explore_terminal_outcomes. */
static int forbidden_image(sys_t *s, const explore_opts_t *o, const prog_val_t *outv, int nkeys,
                           prog_val_t *bad)
{
    int order = sys_sym_order(s);
    for (int g = 0; o->allowed && g < (order ? order : 1); g++) {
        if (g)
            sys_sym_outcome(s, g, outv, nkeys, bad);
        else
            memcpy(bad, outv, sizeof *bad * (size_t)nkeys);
        if (!exec_outcomes_has(o->allowed, bad))
            return 1;
    }
    return 0;
}

/* The trace to frontier state IDX of rank WHO (every rank calls it): the chain
 * of ords is gathered by walking parents rank to rank, then rank 0 replays it
 * from the initial state, as explore.c does, and dumps the state. */
static void make_trace(mx_t *x, explore_result_t *r, int who, uint32_t idx, const event_t *ev)
{
    uint32_t *ords = NULL;
    size_t n = 0, cap = 0;
    uint32_t at[3] = {0, (uint32_t)who, who == x->rank ? x->cur.e[idx].lid : 0};
    for (int rk = who;;) {
        if (rk == x->rank) {
            uint32_t lid = at[2];
            at[0] = x->pord[lid];
            at[1] = x->prank[lid];
            at[2] = x->plid[lid];
        }
        MPI_Bcast(at, 3, MPI_UINT32_T, rk, MPI_COMM_WORLD);
        UTIL_PUSH(ords, n, cap, at[0]);
        if (at[1] == NONE)
            break;
        rk = (int)at[1];
    }
    /* The failing state's encoding, to rank 0. */
    uint8_t *st = xmalloc(x->maxst + 1);
    uint32_t len = 0;
    if (who == x->rank) {
        const ent_t *e = &x->cur.e[idx];
        len = e->len;
        memcpy(st, x->cur.bytes + e->off, len);
        if (who != 0) {
            MPI_Send(&len, 1, MPI_UINT32_T, 0, TAG + 1, MPI_COMM_WORLD);
            MPI_Send(st, (int)len, MPI_BYTE, 0, TAG + 1, MPI_COMM_WORLD);
        }
    }
    if (x->rank == 0 && who != 0) {
        MPI_Recv(&len, 1, MPI_UINT32_T, who, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(st, (int)len, MPI_BYTE, who, TAG + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    if (x->rank != 0) {
        free(st);
        free(ords);
        return;
    }
    for (size_t i = 0; i < n / 2; i++) { /* gathered from the state back */
        uint32_t t = ords[i];
        ords[i] = ords[n - 1 - i];
        ords[n - 1 - i] = t;
    }
    uint8_t *end;
    size_t elen;
    /* a violation under symmetry: the trace ends in the forbidden image (explore.c) */
    prog_val_t *v = xcalloc((size_t)x->nkeys + 1, sizeof *v);
    prog_val_t *bad = xcalloc((size_t)x->nkeys + 1, sizeof *bad);
    if (ev->type == EV_VIOL && sys_sym_order(x->s)) {
        sys_outcome(x->s, st, len, v);
        const prog_val_t *want = forbidden_image(x->s, x->o, v, x->nkeys, bad) ? bad : NULL;
        elen = explore_replay_sym(x->s, ords, n, r, want, x->nkeys, &end);
    } else {
        elen = explore_replay(x->s, ords, n, r, &end);
    }
    free(v);
    free(bad);
    explore_trace_end(x->s, r, end, elen, st, len, ev->has_label ? &ev->label : NULL);
    free(end);
    free(st);
    free(ords);
}

/* This level's new outcomes, on this rank, from states before position LIMIT. */
static void keep_outcomes(mx_t *x, uint64_t limit)
{
    for (size_t i = 0; i < x->nlvl; i++)
        if (x->lvl_pos[i] < limit)
            exec_outcomes_add(&x->acc, x->lvl_vals + i * (size_t)x->nkeys);
    x->nlvl = 0;
    exec_outcomes_free(&x->lvl);
    exec_outcomes_init(&x->lvl, x->nkeys);
}

static void note_outcome(mx_t *x, const prog_val_t *v, uint64_t pos)
{
    if (exec_outcomes_has(&x->acc, v) || !exec_outcomes_add(&x->lvl, v))
        return;
    if (x->nlvl == x->lvlcap) {
        x->lvlcap = x->lvlcap ? x->lvlcap * 2 : 16;
        x->lvl_pos = xrealloc(x->lvl_pos, x->lvlcap * sizeof *x->lvl_pos);
        x->lvl_vals = xrealloc(x->lvl_vals, x->lvlcap * (size_t)x->nkeys * sizeof *x->lvl_vals);
    }
    x->lvl_pos[x->nlvl] = pos;
    memcpy(x->lvl_vals + x->nlvl * (size_t)x->nkeys, v, (size_t)x->nkeys * sizeof *v);
    x->nlvl++;
}

/* Every rank's outcomes into rank 0's result. */
static void gather_outcomes(mx_t *x, explore_result_t *r)
{
    int cnt = (int)(x->acc.n * (size_t)x->nkeys), *cnts = NULL, *displ = NULL;
    prog_val_t *all = NULL;
    if (x->rank == 0) {
        cnts = xcalloc((size_t)x->P, sizeof *cnts);
        displ = xcalloc((size_t)x->P, sizeof *displ);
    }
    MPI_Gather(&cnt, 1, MPI_INT, cnts, 1, MPI_INT, 0, MPI_COMM_WORLD);
    int tot = 0;
    if (x->rank == 0) {
        for (int j = 0; j < x->P; j++) {
            displ[j] = tot;
            tot += cnts[j];
        }
        all = xmalloc(((size_t)tot + 1) * sizeof *all);
    }
    MPI_Gatherv(x->acc.v, cnt, MPI_INT64_T, all, cnts, displ, MPI_INT64_T, 0, MPI_COMM_WORLD);
    for (int i = 0; x->rank == 0 && x->nkeys > 0 && i < tot; i += x->nkeys)
        exec_outcomes_add(&r->reached, all + i);
    free(cnts);
    free(displ);
    free(all);
}

/* ---- the search ---- */

static void mx_free(mx_t *x)
{
    free(x->tab);
    free(x->prank);
    free(x->plid);
    free(x->pord);
    free(x->cur.e);
    free(x->cur.bytes);
    free(x->next.e);
    free(x->next.bytes);
    free(x->fns);
    free(x->fend);
    free(x->fred);
    free(x->sb);
    free(x->soff);
    free(x->slen);
    free(x->slab);
    free(x->skeep);
    sys_por_free(x->por);
    for (int d = 0; x->dst && d < x->P; d++) {
        for (int k = 0; k < NSEND; k++)
            free(x->dst[d].buf[k]);
        free(x->dst[d].base);
    }
    free(x->dst);
    free(x->rbuf);
    free(x->rbase);
    free(x->sent);
    exec_outcomes_free(&x->acc);
    exec_outcomes_free(&x->lvl);
    free(x->lvl_pos);
    free(x->lvl_vals);
}

/* A terminal state's outcome OUTV at position POS, with its images under the group
 * up to the first the model forbids (as one process reports them); 1: a violation. */
static int terminal(mx_t *x, prog_val_t *outv, uint64_t pos, event_t *ev)
{
    int order = sys_sym_order(x->s);
    prog_val_t *img = xcalloc((size_t)x->nkeys + 1, sizeof *img);
    int bad = 0;
    for (int g = 0; g < (order ? order : 1) && !bad; g++) {
        if (g)
            sys_sym_outcome(x->s, g, outv, x->nkeys, img);
        else
            memcpy(img, outv, sizeof *img * (size_t)x->nkeys);
        note_outcome(x, img, pos);
        bad = x->o->allowed && !exec_outcomes_has(x->o->allowed, img);
    }
    free(img);
    if (bad) {
        ev->type = EV_VIOL;
        ev->verdict = EXPLORE_VIOLATION;
        snprintf(ev->msg, sizeof ev->msg, "reached an outcome the model forbids");
    }
    return bad;
}

/* Expand this rank's part of level DEPTH (-1: emit the initial states, rank 0).
 * Stops at its first failure (EV) or when memory or a stop request says so
 * (*HALT). BOUND: the level is at --max-depth (checked, not expanded). */
static void expand(mx_t *x, int depth, bool bound, event_t *ev, uint64_t *ncut, int *halt,
                   prog_val_t *outv)
{
    const explore_opts_t *o = x->o;
    sys_error_t e;
    if (x->fnscap < x->cur.n + 1) {
        x->fnscap = x->cur.n + 1;
        x->fns = xrealloc(x->fns, x->fnscap * sizeof *x->fns);
        x->fend = xrealloc(x->fend, x->fnscap * sizeof *x->fend);
        x->fred = xrealloc(x->fred, x->fnscap * sizeof *x->fred);
    }
    memset(x->fns, 0, (x->cur.n + 1) * sizeof *x->fns);
    memset(x->fend, 0, (x->cur.n + 1) * sizeof *x->fend);
    memset(x->fred, 0, (x->cur.n + 1) * sizeof *x->fred);
    if (depth < 0) {
        if (x->rank == 0) {
            x->cur_pos = 0;
            x->cur_lid = NONE;
            x->cur_ns = 0;
            sys_initial(x->s, on_succ, x, &e);
            x->fns[0] = x->fend[0] = x->cur_ns;
        }
        return;
    }
    uint64_t budget = o->max_memory ? o->max_memory / (uint64_t)x->P : 0;
    for (size_t i = 0; i < x->cur.n; i++) {
        const ent_t *en = &x->cur.e[i];
        const uint8_t *st = x->cur.bytes + en->off;
        x->cur_pos = en->pos;
        x->cur_lid = en->lid;
        ev->idx = (uint32_t)i;
        ev->pos = en->pos;
        ev->has_label = 0;
        if (sys_check(x->s, st, en->len, &e)) {
            ev->type = EV_INV;
            ev->verdict = EXPLORE_INVARIANT;
            snprintf(ev->msg, sizeof ev->msg, "%s", e.msg);
            return;
        }
        if (bound) {
            int nb = sys_successors(x->s, st, en->len, count_succ, NULL, &e);
            *ncut += nb != 0;
            if (sys_terminal(x->s, st, en->len)) {
                sys_outcome(x->s, st, en->len, outv);
                if (terminal(x, outv, en->pos, ev))
                    return;
            } else if (nb == 0) {
                ev->type = EV_DEAD;
                ev->verdict = EXPLORE_DEADLOCK;
                snprintf(ev->msg, sizeof ev->msg,
                         "no transition is enabled and not every thread finished");
                return;
            }
            continue;
        }
        x->cur_ns = 0;
        uint32_t kend = 0;
        int ns = x->por ? expand_por(x, st, en->len, &e, &kend, &x->fred[i])
                        : sys_successors(x->s, st, en->len, on_succ, x, &e);
        x->fns[i] = x->cur_ns;
        x->fend[i] = x->por ? kend : x->cur_ns;
        if (ns < 0) {
            ev->type = EV_UNEXP;
            ev->verdict = e.kind == SYS_ERR_UNEXPECTED ? EXPLORE_UNEXPECTED : EXPLORE_INVARIANT;
            ev->has_label = 1;
            ev->label = e.label;
            snprintf(ev->msg, sizeof ev->msg, "%s", e.msg);
            return;
        }
        if (sys_terminal(x->s, st, en->len)) {
            sys_outcome(x->s, st, en->len, outv);
            if (terminal(x, outv, en->pos, ev))
                return;
        } else if (ns == 0) {
            ev->type = EV_DEAD;
            ev->verdict = EXPLORE_DEADLOCK;
            snprintf(ev->msg, sizeof ev->msg,
                     "no transition is enabled and not every thread finished");
            return;
        }
        if ((i & 15) == 15) {
            poll_recv(x);
            note_mem(x);
            if (budget && x->held > budget)
                *halt |= 2;
            if (o->stop && *o->stop)
                *halt |= 1;
            if (explore_time_up(o, x->t0))
                *halt |= 4;
            if (*halt)
                break;
        }
    }
    ev->pos = NOPOS;
}

/* The frontier position where --max-states cuts level DEPTH, or NOPOS:
 * T states are in the levels up to DEPTH and M new ones were found beyond.
 * One process stops when a successor comes after its limit'th state. */
static uint64_t full_cut(mx_t *x, int depth, uint64_t T, uint64_t M)
{
    uint64_t lim = x->o->max_states ? x->o->max_states : (uint64_t)UINT32_MAX - 1;
    if (T + M < lim)
        return NOPOS;
    uint64_t k = lim > T ? lim - T : 0, kp = 0, ko = 0;
    if (k > 0) {
        uint64_t mine = 0;
        for (size_t i = 0; i < x->next.n; i++)
            if (x->next.e[i].pos == k - 1)
                mine = x->next.e[i].key + 1;
        uint64_t K = max64(mine) - 1;
        kp = K >> 32;
        ko = K & 0xffffffffu;
    }
    /* The first state, in level order, with a successor after the k-th new state. */
    uint64_t cand = NOPOS;
    size_t nf = depth < 0 ? 1 : x->cur.n; /* level -1: the initial states' emitter */
    for (size_t i = 0; i < nf; i++) {
        uint64_t pos = depth < 0 ? 0 : x->cur.e[i].pos;
        if (!x->fns[i])
            continue;
        if (k > 0 && (pos < kp || (pos == kp && x->fend[i] <= ko + 1)))
            continue;
        cand = pos;
        break;
    }
    return min64(cand);
}

int explore_mpi_run(sys_t *s, int nkeys, const explore_opts_t *o, explore_result_t *r,
                    explore_mpi_stats_t *stats, diag_t *err)
{
    memset(r, 0, sizeof *r);
    r->failure_id = -1;
    exec_outcomes_init(&r->reached, nkeys);
    r->fp_bits = 64;
    if (o->dfs || o->resume || o->on_new || o->on_outcome || (o->fp_bits && o->fp_bits != 64) ||
        o->queue_memory) {
        diag_set(err, "", 0, 0,
                 "--mpi: the distributed search is breadth-first only, with 64-bit "
                 "fingerprints, its levels in RAM and without the store (--dfs, resume, "
                 "--fingerprint 96|128, --queue-memory and --db are not supported)");
        return -1;
    }
    sys_error_t e;
    if (sys_initial(s, count_succ, NULL, &e) < 0) {
        diag_set(err, "", 0, 0, "initial state: %s", e.msg);
        return -1;
    }
    mx_t x;
    memset(&x, 0, sizeof x);
    x.s = s;
    x.o = o;
    x.t0 = explore_clock();
    x.nkeys = nkeys;
    MPI_Comm_rank(MPI_COMM_WORLD, &x.rank);
    MPI_Comm_size(MPI_COMM_WORLD, &x.P);
    x.maxst = sys_max_state(s);
    if (o->por) { /* as explore.c, where no cycle proviso is needed (docs/por.md) */
        x.por = sys_por_new(s);
        const char *why = NULL;
        r->por = sys_por_active(x.por, &why);
        if (r->por && sys_por_proviso(x.por)) {
            r->por = false;
            why = "--mpi: cycles of steps are possible (a loop), and the cycle proviso needs "
                  "to know which states were expanded before, which the ranks do not share";
        }
        explore_por_fields(r, x.por);
        if (!r->por) {
            snprintf(r->por_off, sizeof r->por_off, "%s", why);
            sys_por_free(x.por);
            x.por = NULL;
        }
    }
    sys_set_dead(s, r->por);
    explore_sym_start(s, o, r); /* every rank canonicalises before hashing to an owner */
    x.bufsz = BUF_BYTES > 64 + 2 * x.maxst ? BUF_BYTES : 64 + 2 * x.maxst;
    x.dst = xcalloc((size_t)x.P, sizeof *x.dst);
    for (int d = 0; d < x.P; d++) {
        if (d == x.rank)
            continue;
        for (int k = 0; k < NSEND; k++) {
            x.dst[d].buf[k] = xmalloc(x.bufsz);
            x.dst[d].req[k] = MPI_REQUEST_NULL;
        }
        x.dst[d].base = xcalloc(x.maxst + 16, 1);
        x.dst[d].used = 1;
    }
    x.rbase = xcalloc(x.maxst + 16, 1);
    if (x.P > 1)
        x.sent = xcalloc((size_t)1 << SENT_BITS, sizeof *x.sent);
    exec_outcomes_init(&x.acc, nkeys);
    exec_outcomes_init(&x.lvl, nkeys);
    prog_val_t *outv = xcalloc((size_t)nkeys + 1, sizeof *outv);

    uint64_t T = 0, T_prev = 0, nparent = 1, trans = 0, ncut = 0, last_progress = 0;
    uint64_t por_reduced = 0;
    int depth = -1;
    bool done = false;
    while (!done) {
        bool bound = o->max_depth > 0 && depth >= o->max_depth;
        event_t ev;
        memset(&ev, 0, sizeof ev);
        int halt = 0;
        x.next_first = (uint32_t)x.n;
        x.next.n = 0;
        x.next.used = 0;
        expand(&x, depth, bound, &ev, &ncut, &halt, outv);
        finish_level(&x);
        note_mem(&x);
        uint64_t M = sum64(x.next.n);
        if (x.next.n)
            qsort(x.next.e, x.next.n, sizeof *x.next.e, cmp_ent);
        if (M)
            number(&x, nparent);
        /* The first failure in level order, and where --max-states cuts. */
        uint64_t E = depth < 0 ? NOPOS : min64(ev.pos);
        uint64_t C = full_cut(&x, depth, T, M);
        event_t win;
        memset(&win, 0, sizeof win);
        int who = 0;
        if (E != NOPOS) {
            uint32_t idx = 0;
            who = holder(&x, E, &idx);
            if (who == x.rank)
                win = ev;
            MPI_Bcast(&win, (int)sizeof win, MPI_BYTE, who, MPI_COMM_WORLD);
        }
        bool full = C != NOPOS && (C < E || (C == E && win.type >= EV_VIOL));
        int halts = 0;
        MPI_Allreduce(&halt, &halts, 1, MPI_INT, MPI_BOR, MPI_COMM_WORLD);
        if (!full && E == NOPOS && !halts) {
            /* The level is complete. */
            uint64_t t = 0, red = 0;
            for (size_t i = 0; i < (depth < 0 ? 1 : x.cur.n); i++) {
                t += x.fns[i];
                red += x.fred[i];
            }
            trans += sum64(t);
            por_reduced += sum64(red);
            keep_outcomes(&x, NOPOS);
            if (M == 0) {
                done = true;
                break;
            }
            T_prev = T;
            T += M;
            r->max_depth = depth + 1;
            depth++;
            nparent = M;
            level_t tmp = x.cur;
            x.cur = x.next;
            x.next = tmp;
            if (o->progress && x.rank == 0 && T - last_progress >= 65536) {
                last_progress = T;
                o->progress(o->progress_ctx, T, M, x.held, 0);
            }
            continue;
        }
        /* The search stops in this level, at frontier position X. */
        uint64_t X = full ? C : E, kstop, t = 0, red = 0;
        if (full || E == NOPOS) /* --max-states, or memory / a stop request */
            kstop = full ? (X << 32) : NOPOS;
        else
            kstop = win.type == EV_INV ? (X << 32) : ((X + 1) << 32);
        uint64_t nn = 0;
        for (size_t i = 0; i < x.next.n; i++)
            nn += x.next.e[i].key < kstop;
        uint64_t states = T + sum64(nn);
        if (full || (o->max_states && states > o->max_states))
            states = o->max_states ? o->max_states : states;
        for (size_t i = 0; i < (depth < 0 ? 1 : x.cur.n); i++) {
            uint64_t pos = depth < 0 ? 0 : x.cur.e[i].pos;
            bool at = pos == X && (depth < 0 || (!full && E != NOPOS && win.type != EV_INV));
            if (pos < X || at || (E == NOPOS && !full))
                t += x.fns[i];
            /* the state a --max-states cut stops in was expanded, as one process's */
            if (pos < X || at || (pos == X && full) || (E == NOPOS && !full))
                red += x.fred[i];
        }
        trans += sum64(t);
        por_reduced += sum64(red);
        keep_outcomes(&x,
                      full || E == NOPOS ? (full ? X : NOPOS) : (win.type == EV_VIOL ? X + 1 : X));
        r->max_depth = states > T ? depth + 1 : (depth < 0 ? 0 : depth);
        r->states = states;
        /* As explore.c: the states before the one it stopped at (after a failing one). */
        r->expanded = bound || (!full && E == NOPOS) ? T_prev : full ? T_prev + X : T_prev + X + 1;
        if (full) {
            r->verdict = EXPLORE_INCOMPLETE;
            snprintf(r->msg, sizeof r->msg, "stopped by --max-states after %llu states",
                     (unsigned long long)states);
        } else if (E != NOPOS) {
            r->verdict = (explore_verdict_t)win.verdict;
            r->failure_id = (int64_t)(T_prev + X);
            snprintf(r->msg, sizeof r->msg, "%s", win.msg);
            make_trace(&x, r, who, win.idx, &win);
        } else {
            r->verdict = EXPLORE_INCOMPLETE;
            if (halts & 1)
                snprintf(r->msg, sizeof r->msg, "interrupted after %llu states",
                         (unsigned long long)states);
            else if (halts & 4)
                snprintf(r->msg, sizeof r->msg, "stopped by --max-time after %llu states",
                         (unsigned long long)states);
            else
                snprintf(r->msg, sizeof r->msg, "stopped by --max-memory after %llu states",
                         (unsigned long long)states);
        }
        goto out;
    }
    /* Every level is complete. */
    r->states = T;
    r->expanded = o->max_depth > 0 && depth >= o->max_depth ? T - nparent : T;
    r->verdict = EXPLORE_OK;
    ncut = sum64(ncut);
    if (ncut) {
        r->verdict = EXPLORE_INCOMPLETE;
        snprintf(r->msg, sizeof r->msg,
                 "stopped by --max-depth %d: %llu state(s) at that depth not expanded",
                 o->max_depth, (unsigned long long)ncut);
    } else if (T > 0 && sum64(x.acc.n) == 0 && !(o->max_states && T >= o->max_states)) {
        /* No execution terminates (explore.c's no_terminal): the trace leads to
         * the last state one process finds, the last of the last level. */
        uint32_t idx = 0;
        int who = holder(&x, nparent - 1, &idx);
        event_t ev;
        memset(&ev, 0, sizeof ev);
        r->verdict = EXPLORE_DEADLOCK;
        r->failure_id = (int64_t)(T - 1);
        snprintf(r->msg, sizeof r->msg, "%s",
                 "no execution terminates: every path runs forever (a livelock), so the test "
                 "never finishes");
        make_trace(&x, r, who, idx, &ev);
    }
out:
    r->transitions = trans;
    r->por_reduced = por_reduced;
    r->bytes = sum64(x.peak);
    double n = (double)r->states;
    r->omission = n * (n - 1) / 36893488147419103232.0;
    gather_outcomes(&x, r);
    if (stats) {
        stats->ranks = x.P;
        stats->levels = depth + 2;
        stats->messages = sum64(x.messages);
        stats->bytes_sent = sum64(x.bytes_sent);
        stats->successors = sum64(x.sent_succ);
        stats->skipped = sum64(x.skipped);
        stats->control_bytes = sum64(x.control);
    }
    free(outv);
    mx_free(&x);
    sys_set_symmetry(s, false, NULL); /* the system as it was given */
    return 0;
}

int explore_mpi_init(int *rank, int *ranks, diag_t *err)
{
    int up = 0;
    MPI_Initialized(&up);
    if (!up && MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        diag_set(err, "", 0, 0, "--mpi: MPI_Init failed");
        return -1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, rank);
    MPI_Comm_size(MPI_COMM_WORLD, ranks);
    return 0;
}

void explore_mpi_finalize(void)
{
    int up = 0, down = 0;
    MPI_Initialized(&up);
    MPI_Finalized(&down);
    if (up && !down)
        MPI_Finalize();
}

#endif
