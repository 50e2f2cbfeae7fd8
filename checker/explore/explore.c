/* explore.c - BFS/DFS over encoded states (see explore.h).
 * States are numbered in discovery order and kept length-prefixed in one
 * arena; the visited set is open addressing over those numbers with a few
 * memoized hash bits, capacity a power of two, grown at 75 % load. In BFS the
 * queue is simply the numbering (states are expanded in the order found), so
 * a state's parent chain is a shortest path. */
#include "explore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const explore_verdict_names[6] = {"ok",        "violation",  "deadlock",
                                              "invariant", "unexpected", "incomplete"};

#define EMPTY 0xffffffffu

typedef struct {
    sys_t *s;
    const explore_opts_t *o;
    explore_result_t *r;
    /* store */
    uint8_t *arena;
    size_t alen, acap;
    uint64_t *off; /* per state: offset of its length prefix in the arena */
    uint32_t *parent;
    sys_label_t *label;
    uint32_t *depth;
    size_t n, cap;
    /* set */
    uint32_t *slot; /* state number, or EMPTY */
    uint64_t *tag;  /* full hash of the state in the slot (no rehashing on growth) */
    size_t nslots;
    /* DFS stack */
    uint32_t *stack;
    size_t sp, scap;
    uint32_t cur;      /* state being expanded */
    uint64_t tag_last; /* hash of the state last inserted */
    bool full;
} ex_t;

static uint64_t hash(const uint8_t *p, size_t n)
{
    return util_hash64(p, n, 0x5eed);
}

static const uint8_t *state_at(const ex_t *x, uint32_t id, size_t *len)
{
    const uint8_t *p = x->arena + x->off[id];
    uint32_t l;
    memcpy(&l, p, 4);
    *len = l;
    return p + 4;
}

static void grow_set(ex_t *x)
{
    size_t ns = x->nslots ? x->nslots * 2 : 1024;
    uint32_t *slot = xmalloc(ns * sizeof *slot);
    uint64_t *tag = xmalloc(ns * sizeof *tag);
    memset(slot, 0xff, ns * sizeof *slot);
    for (size_t i = 0; i < x->nslots; i++) {
        if (x->slot[i] == EMPTY)
            continue;
        size_t j = x->tag[i] & (ns - 1);
        while (slot[j] != EMPTY)
            j = (j + 1) & (ns - 1);
        slot[j] = x->slot[i];
        tag[j] = x->tag[i];
    }
    free(x->slot);
    free(x->tag);
    x->slot = slot;
    x->tag = tag;
    x->nslots = ns;
}

static uint64_t bytes_held(const ex_t *x)
{
    return x->acap +
           x->cap * (sizeof *x->off + sizeof *x->parent + sizeof *x->label + sizeof *x->depth) +
           x->nslots * 12 + x->scap * 4;
}

/* Insert STATE; returns its number and sets *fresh when it was new. */
static uint32_t insert(ex_t *x, const uint8_t *st, size_t len, bool *fresh)
{
    if ((x->n + 1) * 4 >= x->nslots * 3)
        grow_set(x);
    uint64_t h = hash(st, len);
    x->tag_last = h;
    size_t j = h & (x->nslots - 1);
    while (x->slot[j] != EMPTY) {
        if (x->tag[j] == h) {
            size_t l2;
            const uint8_t *o = state_at(x, x->slot[j], &l2);
            if (l2 == len && !memcmp(o, st, len)) {
                *fresh = false;
                return x->slot[j];
            }
        }
        j = (j + 1) & (x->nslots - 1);
    }
    util_grow((void **)&x->arena, &x->acap, x->alen + len + 4, 1);
    size_t oldcap = x->cap;
    util_grow((void **)&x->off, &x->cap, x->n + 1, sizeof *x->off);
    if (x->cap != oldcap) {
        x->parent = xrealloc(x->parent, x->cap * sizeof *x->parent);
        x->label = xrealloc(x->label, x->cap * sizeof *x->label);
        x->depth = xrealloc(x->depth, x->cap * sizeof *x->depth);
    }
    uint32_t id = (uint32_t)x->n++;
    x->off[id] = x->alen;
    uint32_t l = (uint32_t)len;
    memcpy(x->arena + x->alen, &l, 4);
    memcpy(x->arena + x->alen + 4, st, len);
    x->alen += len + 4;
    x->slot[j] = id;
    x->tag[j] = h;
    *fresh = true;
    return id;
}

static void on_state(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    ex_t *x = ctx;
    x->r->transitions++;
    if (x->full)
        return;
    if (x->o->max_states && x->n >= x->o->max_states) {
        x->full = true;
        return;
    }
    bool fresh;
    uint32_t id = insert(x, st, len, &fresh);
    if (!fresh)
        return;
    x->parent[id] = x->cur;
    x->label[id] = *lab;
    x->depth[id] = x->cur == EMPTY ? 0 : x->depth[x->cur] + 1;
    if (x->o->on_new)
        x->o->on_new(x->o->on_new_ctx, id, x->cur == EMPTY ? -1 : (int64_t)x->cur,
                     (int)x->depth[id], lab, x->tag_last, st, len);
    if ((int)x->depth[id] > x->r->max_depth)
        x->r->max_depth = (int)x->depth[id];
    if (x->o->dfs)
        UTIL_PUSH(x->stack, x->sp, x->scap, id);
}

/* Record the path to state ID, plus an optional failing step from it. */
static void make_trace(ex_t *x, uint32_t id, const sys_label_t *fail_lab)
{
    int n = 0;
    for (uint32_t v = id; v != EMPTY; v = x->parent[v])
        n++;
    uint32_t *path = xmalloc(sizeof *path * (size_t)(n + 1));
    n = 0;
    for (uint32_t v = id; v != EMPTY; v = x->parent[v])
        path[n++] = v;
    explore_result_t *r = x->r;
    r->trace = xcalloc((size_t)n + 2, sizeof(char *));
    r->ntrace = 0;
    {
        size_t l0;
        const uint8_t *s0 = state_at(x, path[n - 1], &l0);
        strbuf_t sb;
        sb_init(&sb);
        sys_describe(x->s, &x->label[path[n - 1]], s0, l0, s0, l0, &sb);
        r->trace[r->ntrace++] = sb.s;
    }
    for (int i = n - 2; i >= 0; i--) {
        size_t bl, al;
        const uint8_t *b = state_at(x, path[i + 1], &bl);
        /* sys_describe decodes into scratch: copy the before state first. */
        uint8_t *bc = xmalloc(bl + 1);
        memcpy(bc, b, bl);
        const uint8_t *a = state_at(x, path[i], &al);
        strbuf_t sb;
        sb_init(&sb);
        sys_describe(x->s, &x->label[path[i]], bc, bl, a, al, &sb);
        free(bc);
        r->trace[r->ntrace++] = sb.s;
    }
    if (fail_lab) {
        size_t bl;
        const uint8_t *b = state_at(x, id, &bl);
        strbuf_t sb;
        sb_init(&sb);
        sys_describe(x->s, fail_lab, b, bl, b, bl, &sb);
        sb_printf(&sb, " | FAILS: %s", r->msg);
        r->trace[r->ntrace++] = sb.s;
    }
    free(path);
}

static void fail(ex_t *x, explore_verdict_t v, uint32_t id, const sys_label_t *lab, const char *msg)
{
    x->r->verdict = v;
    snprintf(x->r->msg, sizeof x->r->msg, "%s", msg);
    make_trace(x, id, lab);
    size_t len;
    const uint8_t *st = state_at(x, id, &len);
    strbuf_t sb;
    sb_init(&sb);
    sys_dump(x->s, st, len, &sb);
    x->r->failure_state = sb.s;
}

int explore_run(sys_t *s, int nkeys, const explore_opts_t *o, explore_result_t *r, diag_t *err)
{
    memset(r, 0, sizeof *r);
    exec_outcomes_init(&r->reached, nkeys);
    ex_t x;
    memset(&x, 0, sizeof x);
    x.s = s;
    x.o = o;
    x.r = r;
    x.cur = EMPTY;
    grow_set(&x);
    sys_error_t e;
    if (o->resume) {
        /* Reload the stored states in their order; the first `expanded` are done. */
        const explore_resume_t *rs = o->resume;
        for (uint64_t i = 0; i < rs->n; i++) {
            bool fresh;
            uint32_t id = insert(&x, rs->states[i], rs->lens[i], &fresh);
            if (!fresh || id != i) {
                diag_set(err, "", 0, 0, "resume: stored state %llu is a duplicate or out of order",
                         (unsigned long long)i);
                free(x.slot);
                free(x.tag);
                free(x.arena);
                free(x.off);
                free(x.parent);
                free(x.label);
                free(x.depth);
                return -1;
            }
            x.parent[id] = rs->parents[i] < 0 ? EMPTY : (uint32_t)rs->parents[i];
            x.label[id] = rs->labels[i];
            x.depth[id] = (uint32_t)rs->depths[i];
            if (rs->depths[i] > r->max_depth)
                r->max_depth = rs->depths[i];
        }
        r->transitions = rs->transitions;
    } else if (sys_initial(s, on_state, &x, &e) < 0) {
        diag_set(err, "", 0, 0, "initial state: %s", e.msg);
        free(x.slot);
        free(x.tag);
        return -1;
    }
    prog_val_t *outv = xcalloc((size_t)nkeys + 1, sizeof *outv);
    size_t next = o->resume ? o->resume->expanded : 0; /* BFS cursor */
    uint64_t last_progress = 0;
    size_t maxst = sys_max_state(s);
    uint8_t *buf = xmalloc(maxst + 1);
    for (;;) {
        uint32_t id;
        if (o->stop && *o->stop) {
            r->verdict = EXPLORE_INCOMPLETE;
            snprintf(r->msg, sizeof r->msg, "interrupted after %zu states", x.n);
            goto done;
        }
        if (o->dfs) {
            if (x.sp == 0)
                break;
            id = x.stack[--x.sp];
        } else {
            if (next >= x.n)
                break;
            id = (uint32_t)next++;
        }
        size_t len;
        const uint8_t *st = state_at(&x, id, &len);
        memcpy(buf, st, len); /* the arena may move while successors are added */
        x.cur = id;
        if (sys_check(s, buf, len, &e)) {
            fail(&x, EXPLORE_INVARIANT, id, NULL, e.msg);
            goto done;
        }
        uint64_t before = r->transitions;
        int ns = sys_successors(s, buf, len, on_state, &x, &e);
        if (ns < 0) {
            fail(&x, e.kind == SYS_ERR_UNEXPECTED ? EXPLORE_UNEXPECTED : EXPLORE_INVARIANT, id,
                 &e.label, e.msg);
            goto done;
        }
        if (x.full) {
            /* Some successors of this state were dropped: it is not expanded. A resumed
             * run re-expands it, so the final counts equal an uninterrupted run's. */
            r->transitions = before;
            if (!o->dfs)
                next = id;
            r->verdict = EXPLORE_INCOMPLETE;
            snprintf(r->msg, sizeof r->msg, "stopped by --max-states after %zu states", x.n);
            goto done;
        }
        /* Every terminal state yields an outcome, whether or not environment actions
         * (fetch, evict) can still move it: they change no thread and no memory value. */
        if (sys_terminal(s, buf, len)) {
            sys_outcome(s, buf, len, outv);
            exec_outcomes_add(&r->reached, outv);
            if (o->allowed && !exec_outcomes_has(o->allowed, outv)) {
                fail(&x, EXPLORE_VIOLATION, id, NULL, "reached an outcome the model forbids");
                goto done;
            }
        } else if (ns == 0) {
            fail(&x, EXPLORE_DEADLOCK, id, NULL,
                 "no transition is enabled and not every thread finished");
            goto done;
        }
        r->expanded++;
        if (o->max_memory && bytes_held(&x) > o->max_memory) {
            r->verdict = EXPLORE_INCOMPLETE;
            snprintf(r->msg, sizeof r->msg, "stopped by --max-memory after %zu states", x.n);
            goto done;
        }
        if (o->progress && x.n - last_progress >= 65536) {
            last_progress = x.n;
            o->progress(o->progress_ctx, x.n, o->dfs ? x.sp : x.n - next, bytes_held(&x));
        }
    }
    r->verdict = EXPLORE_OK;
done:
    r->states = x.n;
    if (!o->dfs)
        r->expanded = next; /* BFS: states below the cursor are expanded */
    r->bytes = bytes_held(&x);
    free(buf);
    free(outv);
    free(x.arena);
    free(x.off);
    free(x.parent);
    free(x.label);
    free(x.depth);
    free(x.slot);
    free(x.tag);
    free(x.stack);
    return 0;
}

void explore_result_free(explore_result_t *r)
{
    for (int i = 0; i < r->ntrace; i++)
        free(r->trace[i]);
    free(r->trace);
    free(r->failure_state);
    exec_outcomes_free(&r->reached);
    memset(r, 0, sizeof *r);
}
