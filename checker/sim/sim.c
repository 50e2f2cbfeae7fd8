/* sim.c - the timed-mode simulator (sim.h; the model is docs/sim.md).
 * Controller instances keep line records only for the lines they touched
 * (a per-instance index line -> record, records allocated on first use); the
 * rows run through the shared evaluator (rows32_*, or rows128_* when the
 * machine has more than 31 compute units and the protocol a nodeset, or a mask over
 * a line of more than 31 locations: sim_wide.c compiles this file again with SIM_WIDE,
 * and sim_run hands such runs to it), with sends, dones and bulk
 * line moves buffered until the row commits (a full bounded channel undoes it).
 * Events (a thread's next core event, a message's arrival, a retry of stalled
 * work, a timed internal event) sit in a 4-ary heap ordered by cycle, then by
 * a key drawn from a PRNG seeded with --seed (splitmix64: no two keys equal, so the
 * order is total): same seed, same run. */
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../base/util.h"
#include "../sys/rows.h"
#include "dram.h"
#include "net.h"
#include "pred.h"

/* Slots (line records, controller variables, messages, registers) and the
 * evaluator's values: 32-bit slots and nodesets of 31 CUs, or (SIM_WIDE) 128-bit
 * ones and nodesets of 128 CUs. Registers wrap at 32 bits in both. */
#ifdef SIM_WIDE
typedef rows_i128 sim_slot_t;
typedef rows_i128 sim_val_t;
#define SIM_ROWS(n) rows128_##n
#define sim_run sim_run_wide
#else
typedef int32_t sim_slot_t;
typedef int64_t sim_val_t;
#define SIM_ROWS(n) rows32_##n
#endif
typedef SIM_ROWS(ctx_t) sim_ctx_t;
typedef SIM_ROWS(ops_t) sim_ops_t;
#define SIM_NARROW_CUS 31 /* the CUs a rows32_ nodeset holds */

enum { EV_ISSUE, EV_ARRIVE, EV_RETRY, EV_TIMED, EV_SCHED, EV_DRAM, EV_DRAMDONE, EV_NET };
/* TH_JOIN: waiting at a join (launch, bar.sync); TH_SBUF: waiting on its CU's store buffer */
enum { TH_RUN, TH_WAIT, TH_DONE, TH_JOIN, TH_SBUF };
#define SB_SCOPES 5 /* prog_scope_t's values */
#define SET_SLACK                                                                   \
    4 /* lines a set may hold beyond its ways (allocations no core event asked for) \
       */
#define MAX_LOCAL 100000 /* local instructions between two memory operations */
#define MAX_LAZY 8       /* internal events fired in a row before one event is handled */
/* What a row's actions can write, so fire saves only what an undo restores (a row is
   undone only when a send meets a full channel, so a row with no send saves nothing). */
enum { ROWF_SEND = 1, ROWF_LV = 2, ROWF_CV = 4, ROWF_REGS = 8 };

typedef struct {
    uint64_t t, key;
    int kind, a, b, c;
} event_t;
#define CAL_W 1024 /* the event calendar's buckets (a power of 2, a multiple of 64) */

typedef struct {
    int kind; /* EV_ISSUE (a thread's core event) or EV_ARRIVE (a message) */
    int id;
    uint64_t since;
    bool memo;      /* a message a stall row held while its line's record had version ver */
    bool ordered;   /* a message's network is ordered */
    uint64_t ver;   /* (retry skips it while the version holds: try_msg would stall again) */
    int chan, line; /* a message's channel and line (its msg_t's: retry reads every item's) */
} item_t;

typedef struct {
    int ctrl, cu;
    bool lazy;        /* its controller has lazy internal events (lazy_ev) */
    int lw;           /* slots per line record */
    int32_t *index;   /* per line: its record, -1: none yet (the line is in its initial state) */
    sim_slot_t *recs; /* records, lw slots each */
    struct recm {     /* per record (what a row updates, in one cache line): */
        uint64_t lru; /* last use */
        uint64_t ver; /* rows committed on it (its version) */
        int32_t line; /* its line */
        int32_t src;  /* the sender of the last message a row took on it, -1 */
        uint8_t atom; /* an atomic completed on it since its last eviction */
    } * rm;
    uint8_t *rst;   /* per record: its state (a copy of slot 0, which forall scans) */
    uint64_t *live; /* per record, a bit: its state is not the initial one */
    int init;       /* the controller's initial state */
    int nrec, caprec;
    sim_slot_t *cvars;
    /* capacity */
    int sets, ways, evict_ev;
    int *set_n;        /* per set: resident lines */
    int32_t *set_line; /* per set: (ways + SET_SLACK) lines */
    int mshrs, ntrans;
    int latency; /* cycles before this instance's sends leave and its dones complete */
    /* stalled work, in arrival order */
    item_t *stall;
    int nstall;
    size_t capstall;
    bool retry_set;
    uint64_t out_free, in_free; /* the link's next free cycle, each direction */
    uint64_t out_busy, in_busy; /* the link's busy cycles so far, each direction */
    uint8_t *held; /* a shared instance with the DRAM model: per line, 0 never held, 1 being
                      filled from DRAM, 2 held (its first fill done) */
} inst_t;

typedef struct {
    sim_slot_t *rec;
    int src, dst, net, chan;
    int line;    /* rec[1], its line (read without the record where the record waits) */
    bool banked; /* already waited for its L2 bank */
    int next_free;
    int nh;        /* per-hop flow control: its handle in the network until its receiver
                      takes it out of its input buffer; -1 none */
    uint64_t sent; /* the cycle it was sent */
    uint64_t seq;  /* messages sent before it */
} msg_t;

/* A local instruction compiled for thread_advance's fast loop, its operand kinds resolved
 * into the opcode (_R: registers ra, rb; _I: ra and the literal imm; a branch's _I: the
 * literal imm). LOP_SLOW: run as written (a memory instruction, a join, div, rem, an
 * operand form not listed, the end). */
enum {
    LOP_SLOW,
    LOP_NOP,
    LOP_MOV_R,
    LOP_MOV_I,
    LOP_ADD_RR,
    LOP_ADD_RI,
    LOP_SUB_RR,
    LOP_SUB_RI,
    LOP_MUL_RR,
    LOP_MUL_RI,
    LOP_B,
    LOP_BEQ_R,
    LOP_BEQ_I,
    LOP_BNE_R,
    LOP_BNE_I,
    LOP_BLT_R,
    LOP_BLT_I,
    LOP_BGE_R,
    LOP_BGE_I,
    LOP_DOWN, /* a BEQ_I heading the loop 'L: beq r K x ; sub r r 1 ; b L' (lop_fuse) */
};
typedef struct {
    uint8_t op, reg, ra, rb; /* registers: below PROG_MAX_REGS */
    int32_t target;          /* a branch's: 0..ninstr */
    int64_t imm;             /* the literal operand */
} lop_t;

typedef struct {
    int pc, step, status;
    int ipc;   /* the pc of its memory instruction in flight (a one-lane core: pc) */
    bool busy; /* a warp lane: its access (or the one it is coalesced into) is in flight */
    /* its CU's store buffer (docs/sim.md "Store buffer"; with sbt, sbsince below): */
    bool sbg;    /* its current access has passed the buffer (sb_gate) */
    uint8_t sbw; /* what it waits for (TH_SBUF): 1 an entry, 2 a drain, 3 a drain to end */
    int8_t sbs;  /* a drain's release scope (a fence of its hidden thread), -1: none */
    int cu, inst;
    uint64_t op_start;
    bool op_clean;   /* no stall and no wait so far: an L1 hit */
    bool mshr_wait;  /* its core event waits on a line with a request outstanding */
    int warp;        /* its warp (docs/sim.md "Warps"); -1: a one-lane core of its own */
    const lop_t *lc; /* its instructions compiled (lop_t), ninstr + 1 (LOP_SLOW at the end) */
    int leader;      /* a coalesced load: the lane whose access serves it; -1: none */
    sim_slot_t regs[PROG_MAX_REGS]; /* the fields above share a cache line */
    uint64_t sbt;     /* a drain's ticket: the stores buffered before it must complete */
    uint64_t sbsince; /* when it began to wait */
} thread_t;

/* A warp: lanes first..first+n-1 (threads of one `simt` template, work-group and CU),
 * run in lockstep: each warp instruction is the one at the lowest pc of its unfinished
 * lanes, executed by the lanes at that pc (the active mask). Its memory instruction
 * issues the active lanes' accesses (q: those not coalesced into another lane's), all at
 * once or, with naive SC, one after another. The scoreboard: the warp goes on issuing
 * local instructions that neither read nor write a register of the accesses in flight
 * (regs: the destination, the index register, the value operands, which the protocol's
 * rows read while the access runs); the next memory instruction, or one that uses such
 * a register, waits (blocked) until all completed, so each lane keeps one memory
 * operation in flight, in program order. */
typedef struct {
    int first, n, cu;
    int *q, nq, qi; /* lanes whose accesses the current instruction issues; qi: issued */
    int pending;    /* issued accesses not completed */
    int ncoal;      /* lanes coalesced into them */
    uint64_t regs;  /* the registers they use (bit r: register r) */
    bool blocked;   /* waits for them to complete (not with the scheduler) */
    int local;      /* local instructions since the last memory instruction */
    bool sb_ok;     /* its lanes' ends passed their CU's store buffer drain */
    uint64_t sbt;   /* the drain's ticket while it waits; sbsince: since when */
    uint64_t sbsince;
} warp_t;

/* A CU's warp scheduler: warps ready to issue (from cycle at[k]); issue slots used. */
typedef struct {
    int *ready;
    uint64_t *at;
    int n;
    int last; /* the warp that issued last, -1: none */
    uint64_t cycle;
    int used;
    uint64_t pushed; /* the cycle of its last scheduling event not yet run (UINT64_MAX: none) */
} cusched_t;

typedef struct {
    uint64_t *v;
    size_t n, cap;
} lats_t;

/* A CU's store buffer (docs/sim.md "Store buffer"): a FIFO of plain stores that its hidden
 * thread tid (placed on the CU, after the workload's threads) issues to the L1 one at a
 * time, in order; the hidden thread also issues the release fences that waiting releases
 * need. Stores are numbered as they enter: a drain waits for a ticket, the number of the
 * last store buffered when it began, and (a release) for a fence issued after it. */
typedef struct {
    int tid;
    int cap, head, n; /* the ring: entries head .. head + n - 1 (mod cap) */
    int *loc;
    sim_slot_t *val;
    uint64_t *seq;
    uint64_t seq_in;   /* stores buffered so far: the last one's number */
    uint64_t seq_done; /* the last store completed at the L1 */
    bool busy;         /* its thread has a store or a fence in flight */
    int fly_loc;       /* the store in flight: its location (-1: none), value and number */
    sim_slot_t fly_val;
    uint64_t fly_seq;
    int fly_scope;              /* the fence in flight: the scope it covers (-1: none) */
    uint64_t fly_cover;         /* and the stores it covers (seq_done when it was issued) */
    uint64_t fenced[SB_SCOPES]; /* per scope: the stores a completed fence covered */
    int *wait;                  /* waiting threads (t) and warps (-1 - w), in arrival order */
    int nwait;
    size_t capwait;
} sbuf_t;

typedef struct sim {
    const proto_t *p;
    const prog_t *prog;
    const sim_machine_t *m;
    sim_config_t cfg;
    rows_layout_t L;
    int ncus, ninst, nthreads, nlines, maxlocs, mw;
    int *inst_ctrl, *inst_cu;
    int **ctrl_insts; /* per controller: its instances, -1 ended (the evaluator's sends) */
    int *loc_line, *locpos, *line_nlocs, **line_locs;
    int **lv_off, **cv_off, **msg_foff, **ev_rows;
    bool *has_dead;        /* per controller: a line variable reset_dead may reset */
    int *dead_off;         /* per controller * 64 + state: its dead variables in dead_list, */
    int *dead_list;        /* in declaration order, -1 ended */
    bool *dead_idem;       /* per controller * 64 + state: resetting its dead variables again
                              changes nothing (each a constant or the line's initial values) */
    bool **dead_const;     /* per controller, per line var: its initial value is dead_val's */
    sim_slot_t **dead_val; /* (a constant expression, evaluated once at build) */
    uint8_t *row_fl;       /* per controller * maxrows + row: ROWF_* (what fire saves) */
    bool inv_states;       /* the invariants read line states only (count(), constants) */
    uint8_t *inv_seen;     /* per line: its invariants were checked and held */
    bool *inv_reads;       /* with inv_states: per controller, an invariant counts its states */
    int *st_base;          /* with inv_states: per controller, its first state's column */
    int nst;               /* columns: the states of every controller */
    int32_t *st_cnt;       /* with inv_states: per line * nst + column, the instances of the
                              controller whose line is in that state (no record: initial) */
    int *cand_off;         /* per (controller * nevents + event) * 65 + state (64: no line):
                              the start of its candidate rows in cand, -1 ended */
    int *cand;
    uint64_t *ev_states;
    int *cv_w;      /* per controller: slots of its variables */
    int **lazy_ev;  /* per controller: internal line events fired on access, -1 ended */
    bool *lazy_cv;  /* per controller: one of them has a guard over controller variables */
    int **timed_ev; /* per controller: internal events with a machine latency, -1 ended */
    int *ev_lat;    /* per event: machine latency, -1: none, SIM_EVLAT_DRAM: the DRAM model */
    uint64_t net_lat_sum, net_lat_max, net_msgs; /* messages across the network */
    net_t *net;         /* the machine's topology (a 'topology' line), or NULL: the link model */
    int *inst_node;     /* with one: per instance, its node */
    int *bank_node;     /* with one and its L2 banks at several nodes: per bank, its node */
    uint64_t net_ev_at; /* per-hop flow control: the cycle of the pending EV_NET */
    dram_t *dram;       /* the machine's DRAM model (a dram line, not --memory fixed), or NULL */
    sim_pred_t *pred;   /* the protocol's predictors (--predict on), or NULL */
    bool *row_apply;    /* per controller * maxrows + row: the row computes apply() */
    int maxrows;
    int *msg_bytes; /* per message type */
    inst_t *inst;
    thread_t *th;
    const proto_map_t **maps;
    int *map_base;
    /* network */
    msg_t *msgs;
    int nmsg, capmsg, freemsg;
    uint64_t nsent;    /* messages sent so far */
    struct chan {      /* per channel (a message's counts in one cache line): */
        int n;         /* messages sent, not yet consumed */
        int flits;     /* their flits */
        int blocked;   /* its messages on stall lists */
        uint64_t last; /* when its last message arrives */
        uint64_t svc;  /* when its last message was served at a bank */
    } * chan;
    int *msg_flits;    /* per message type: flits */
    uint64_t fired;    /* rows fired so far */
    bool *stall_memo;  /* per controller * nevents + message: a stall row's outcome depends
                          on the line's record and the message only (memo_safe) */
    bool lazy_cap;     /* lazy_internal stopped at MAX_LAZY with an event still firing */
    bool memo_ok;      /* try_msg's last 0 came from a stall row with stall_memo set, */
    uint64_t memo_ver; /* the line's record at this version */
    bool in_periodic;  /* running a periodic controller-level event */
    int **periodic_ev; /* per controller: controller-level internal events the machine times */
    int nchan;
    uint64_t *bank_free;
    int *line_bank; /* per line: its L2 bank (line modulo the banks) */
    int home_ctrl, home_var;
    /* events: a calendar of CAL_W one-cycle buckets for those within CAL_W cycles of
       now (bucket t % CAL_W holds only cycle t's), a heap for the rest */
    event_t *heap;
    size_t nheap, capheap;
    struct cal_bucket {
        event_t *v;
        size_t n, cap;
    } * cal;
    uint64_t calmap[CAL_W / 64]; /* bit b: bucket b is not empty */
    size_t ncal;
    uint64_t now, rng, last_progress, last_done;
    int ndone;
    /* the row being run */
    struct pending_send {
        int net, dst;
        sim_slot_t *rec; /* mw slots; net_send swaps it with its message's */
    } * ps;
    int nps;
    size_t capps;
    struct pending_done {
        int tid;
        bool has_val;
        int64_t val;
    } pd[64];
    int npd;
    struct undo {
        sim_slot_t *slot, old, to;
    } * undo;
    int nundo;
    size_t capundo;
    sys_error_t err;
    sim_result_t *r;
    warp_t *warps;
    int nwarps;
    cusched_t *sched;     /* per CU */
    sim_slot_t *save_cv;  /* fire's copy of the controller variables */
    lop_t *lcode;         /* every thread's lop_t, thread after thread */
    uint32_t stamp;       /* the coalescer's current warp instruction */
    uint32_t *loc_stamp;  /* per location: the instruction that last accessed it */
    int *loc_lane;        /* per location: the lane whose access it was */
    uint32_t *line_stamp; /* per line: the instruction that last requested it */
    lats_t lat[SIM_NOPS];
    /* joins (launch, bar.sync; docs/sim.md "Kernel launches and bar.sync"): per work-group
       (a dense index per thread, th_wg) its threads, those waiting at a bar.sync and those
       finished; for the grid, those waiting at a launch and those finished */
    bool has_join;
    int *th_wg, nwg, *wg_size, *wg_wait, *wg_done;
    int grid_wait, grid_done;
    /* store buffers (a machine's sbuf): per CU, or NULL; the program with their hidden
       threads appended (nall threads: nthreads of the workload, then one per CU) */
    sbuf_t *sb;
    prog_t *xprog;
    int nall;
    int sb_fscope[SB_SCOPES]; /* per release scope: the scope of the fence covering it */
    /* the protocol performs wg scope at the L1 ('local wg') and no access of the workload
       is rm_agent (remote-scope promotion makes other CUs' wg releases global) */
    bool sb_wglocal;
} sim_t;

/* ---- small helpers ---- */

static uint64_t rnd(sim_t *s)
{
    uint64_t z = (s->rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static bool ev_less(const event_t *a, const event_t *b)
{
    return a->t != b->t ? a->t < b->t : a->key < b->key;
}

static void heap_push(sim_t *s, event_t e)
{
    if (s->nheap == s->capheap) {
        s->capheap = s->capheap ? s->capheap * 2 : 1024;
        s->heap = xrealloc(s->heap, s->capheap * sizeof *s->heap);
    }
    size_t i = s->nheap++;
    while (i > 0) {
        size_t up = (i - 1) / 4;
        if (!ev_less(&e, &s->heap[up]))
            break;
        s->heap[i] = s->heap[up];
        i = up;
    }
    s->heap[i] = e;
}

static event_t heap_pop(sim_t *s)
{
    event_t top = s->heap[0], last = s->heap[--s->nheap];
    size_t i = 0, n = s->nheap;
    for (;;) {
        size_t c = 4 * i + 1, end = c + 4 < n ? c + 4 : n;
        if (c >= n)
            break;
        for (size_t d = c + 1; d < end; d++)
            if (ev_less(&s->heap[d], &s->heap[c]))
                c = d;
        if (!ev_less(&s->heap[c], &last))
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (n)
        s->heap[i] = last;
    return top;
}

/* Queue an event at cycle T. Events pop in (t, key) order, the key a random draw per
 * push (distinct keys: the order is the same whatever holds them). */
static void push(sim_t *s, uint64_t t, int kind, int a, int b, int c)
{
    event_t e = {t, rnd(s), kind, a, b, c};
    if (t < s->now || t - s->now >= CAL_W) {
        heap_push(s, e);
        return;
    }
    int k = (int)(t & (CAL_W - 1));
    struct cal_bucket *q = &s->cal[k];
    if (q->n == q->cap)
        util_grow((void **)&q->v, &q->cap, q->n + 1, sizeof *q->v);
    q->v[q->n++] = e;
    s->calmap[k / 64] |= (uint64_t)1 << (k % 64);
    s->ncal++;
}

/* The first non-empty bucket from now's, in cycle order (the calendar's events lie in
 * [now, now + CAL_W)); -1 when empty. */
static int cal_first(const sim_t *s)
{
    int start = (int)(s->now & (CAL_W - 1)), w = start / 64;
    uint64_t m = s->calmap[w] & (~(uint64_t)0 << (start % 64));
    for (int k = 0; k <= CAL_W / 64; k++) {
        if (m)
            return w * 64 + __builtin_ctzll(m);
        w = (w + 1) % (CAL_W / 64);
        m = s->calmap[w];
    }
    return -1;
}

/* The event least in (t, key) of the calendar and the heap (some event is queued). */
static inline __attribute__((always_inline)) event_t pop(sim_t *s)
{
    int k = s->ncal ? cal_first(s) : -1;
    if (k < 0)
        return heap_pop(s);
    struct cal_bucket *q = &s->cal[k];
    size_t j = 0;
    for (size_t d = 1; d < q->n; d++)
        if (q->v[d].key < q->v[j].key)
            j = d;
    if (s->nheap && ev_less(&s->heap[0], &q->v[j]))
        return heap_pop(s);
    event_t e = q->v[j];
    q->v[j] = q->v[--q->n];
    if (!q->n)
        s->calmap[k / 64] &= ~((uint64_t)1 << (k % 64));
    s->ncal--;
    return e;
}

static bool is_mem(const prog_instr_t *in)
{
    return in->op == PROG_OP_LD || in->op == PROG_OP_ST || in->op == PROG_OP_RMW ||
           in->op == PROG_OP_CAS || in->op == PROG_OP_FENCE;
}

/* The location thread T's memory instruction IN accesses (its index register
 * holds while the access runs: the parser keeps it apart from the destination). */
static int th_loc(const sim_t *s, int t, const prog_instr_t *in)
{
    return in->indexed ? prog_instr_loc(in, s->th[t].regs[in->idx_reg]) : in->loc;
}

static int op_class(const prog_instr_t *in)
{
    switch (in->op) {
    case PROG_OP_LD: return SIM_OP_LOAD;
    case PROG_OP_ST: return SIM_OP_STORE;
    case PROG_OP_FENCE: return SIM_OP_FENCE;
    default: return SIM_OP_ATOMIC;
    }
}

static void lat_add(lats_t *l, uint64_t v)
{
    if (l->n == l->cap)
        util_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v);
    l->v[l->n++] = v;
}

static const sim_ops_t sim_ops;

/* ---- line records ---- */

static bool is_transient(const sim_t *s, int ctrl, int st)
{
    return st >= 0 && st < s->p->ctrls[ctrl].nstates && s->p->ctrls[ctrl].transient[st];
}

static void var_init(sim_t *s, int i, int line, sim_slot_t *r, int v);

/* Instance I's new record of LINE, in the initial state. */
static sim_slot_t *line_new(sim_t *s, int i, int line)
{
    inst_t *in = &s->inst[i];
    int32_t k;
    if (in->nrec == in->caprec) {
        size_t ow = in->caprec ? (size_t)in->caprec / 64 + 1 : 0; /* live words so far */
        in->caprec = in->caprec ? in->caprec * 2 : 16;
        in->recs = xrealloc(in->recs, (size_t)in->caprec * in->lw * sizeof(sim_slot_t));
        in->rm = xrealloc(in->rm, (size_t)in->caprec * sizeof *in->rm);
        in->rst = xrealloc(in->rst, (size_t)in->caprec);
        size_t words = (size_t)in->caprec / 64 + 1;
        in->live = xrealloc(in->live, words * sizeof(uint64_t));
        memset(in->live + ow, 0, (words - ow) * sizeof(uint64_t));
    }
    k = in->nrec++;
    in->index[line] = k;
    in->rm[k] = (struct recm){.line = line, .src = -1};
    sim_slot_t *r = in->recs + (size_t)k * in->lw;
    memset(r, 0, (size_t)in->lw * sizeof(sim_slot_t));
    const proto_ctrl_t *c = &s->p->ctrls[in->ctrl];
    r[0] = c->init_state;
    in->rst[k] = (uint8_t)c->init_state; /* its live bit is clear */
    for (int v = 0; v < c->nlinevars; v++)
        var_init(s, i, line, r, v);
    return r;
}

/* Instance I's record of LINE, created in the initial state when CREATE (an existing
 * one without a call). */
static inline sim_slot_t *line_rec(sim_t *s, int i, int line, bool create)
{
    const inst_t *in = &s->inst[i];
    int32_t k = in->index[line];
    if (k >= 0)
        return in->recs + (size_t)k * in->lw;
    return create ? line_new(s, i, line) : NULL;
}

/* Line variable V of instance I's record R of LINE takes its initial value. */
static void var_init(sim_t *s, int i, int line, sim_slot_t *r, int v)
{
    inst_t *in = &s->inst[i];
    const proto_var_t *var = &s->p->ctrls[in->ctrl].linevars[v];
    sim_slot_t *p = r + s->lv_off[in->ctrl][v];
    if (var->init_initial) {
        for (int q = 0; q < s->line_nlocs[line]; q++)
            p[q] = (sim_slot_t)s->prog->locs[s->line_locs[line][q]].init;
    } else if (var->init && var->type.kind != PROTO_T_DATA) {
        sim_ctx_t x = {.L = &s->L,
                       .ops = &sim_ops,
                       .user = s,
                       .inst = i,
                       .line = -1,
                       .tid = -1,
                       .msg_src = -1,
                       .cvars = in->cvars,
                       .err = &s->err};
        sim_val_t val;
        if (!SIM_ROWS(eval)(&x, var->init, &val))
            *p = (sim_slot_t)val;
    }
}

/* A line variable declared `live S...` is reset to its initial value outside those
 * states after every step, as in the explorer (docs/protocol-language.md, "Dead
 * variables"), so no row reads a value left from an earlier visit (rcc's L2 `hasrd`
 * and `r1src` after I/WRITE -> IV). Data and time variables are kept: the explorer
 * keeps data, and a time's initial value is relative there but absolute here. */
static void reset_dead(sim_t *s, int i, int line, sim_slot_t *r)
{
    int ci = s->inst[i].ctrl;
    if (!s->has_dead[ci])
        return; /* the common case: nothing to reset (checked once per controller) */
    if (r[0] >= 0 && r[0] < 64) { /* the variables dead in this state, precomputed */
        for (const int *vp = s->dead_list + s->dead_off[ci * 64 + r[0]]; *vp >= 0; vp++) {
            if (s->dead_const[ci][*vp]) {
                r[s->lv_off[ci][*vp]] = s->dead_val[ci][*vp];
                continue;
            }
            r[s->lv_off[ci][*vp]] = 0;
            var_init(s, i, line, r, *vp);
        }
        return;
    }
    const proto_ctrl_t *c = &s->p->ctrls[ci];
    for (int v = 0; v < c->nlinevars; v++) {
        const proto_var_t *var = &c->linevars[v];
        if (var->live == ~(uint64_t)0 || var->type.kind == PROTO_T_DATA ||
            var->type.kind == PROTO_T_TIME || (r[0] >= 0 && r[0] < 64 && (var->live >> r[0] & 1)))
            continue;
        if (s->dead_const[ci][v]) {
            r[s->lv_off[ci][v]] = s->dead_val[ci][v]; /* what var_init would compute */
            continue;
        }
        r[s->lv_off[ci][v]] = 0;
        var_init(s, i, line, r, v);
    }
}

/* Residency bookkeeping after LINE of instance I moved from state A to B. */
static void moved(sim_t *s, int i, int line, int a, int b)
{
    inst_t *in = &s->inst[i];
    int init = s->p->ctrls[in->ctrl].init_state;
    in->ntrans += is_transient(s, in->ctrl, b) - is_transient(s, in->ctrl, a);
    if (!in->sets || in->cu < 0 || (a == init) == (b == init))
        return; /* a shared controller's sets hold the lines messages touched (l2_touch) */
    int set = line % in->sets, w = in->ways + SET_SLACK;
    int32_t *sl = in->set_line + (size_t)set * w;
    if (a == init) {
        if (in->set_n[set] < w)
            sl[in->set_n[set]++] = line;
        return;
    }
    for (int k = 0; k < in->set_n[set]; k++)
        if (sl[k] == line) {
            sl[k] = sl[--in->set_n[set]];
            return;
        }
}

/* ---- the evaluator's callbacks ---- */

static sim_slot_t *cb_line(sim_ctx_t *x, int inst, int line)
{
    return line_rec(x->user, inst, line, false);
}

static int cb_send(sim_ctx_t *x, int net, int dst, const sim_slot_t *rec)
{
    sim_t *s = x->user;
    int bound = s->p->nets[net].capacity, buf = s->m->buffer;
    int c = (net * s->ninst + x->inst) * s->ninst + dst;
    if (bound || buf) {
        int queued = s->chan[c].n, flits = s->chan[c].flits;
        for (int k = 0; k < s->nps; k++)
            if (s->ps[k].net == net && s->ps[k].dst == dst) {
                queued++;
                flits += s->msg_flits[s->ps[k].rec[0]];
            }
        if (bound && queued >= bound)
            return 1; /* back-pressure: the row waits */
        /* The machine's buffer (flits per channel); a message larger than the buffer
           still passes through an empty channel. */
        if (buf && queued && flits + s->msg_flits[rec[0]] > buf)
            return 1;
    }
    if ((size_t)s->nps == s->capps) {
        size_t old = s->capps;
        util_grow((void **)&s->ps, &s->capps, (size_t)s->nps + 1, sizeof *s->ps);
        for (size_t k = old; k < s->capps; k++)
            s->ps[k].rec = xmalloc(sizeof(sim_slot_t) * (size_t)s->mw);
    }
    s->ps[s->nps].net = net;
    s->ps[s->nps].dst = dst;
    memcpy(s->ps[s->nps].rec, rec, sizeof(sim_slot_t) * (size_t)s->mw);
    s->nps++;
    return 0;
}

/* Record K of instance IN is now in state ST (slot 0 written by the caller). */
static void rec_state(inst_t *in, int k, int st)
{
    in->rst[k] = (uint8_t)st;
    if (st != in->init)
        in->live[k / 64] |= (uint64_t)1 << (k % 64);
    else
        in->live[k / 64] &= ~((uint64_t)1 << (k % 64));
}

static void forall_one(sim_t *s, inst_t *in, int k, int to)
{
    sim_slot_t *r = in->recs + (size_t)k * in->lw;
    util_grow((void **)&s->undo, &s->capundo, (size_t)s->nundo + 1, sizeof *s->undo);
    s->undo[s->nundo++] = (struct undo){r, r[0], to};
    r[0] = to;
    rec_state(in, k, to);
}

/* Every record of the instance in a state of FROM moves to TO, in record order. Where
 * FROM leaves out the initial state, only the records whose live bit is set are
 * visited (a flash invalidation finds the few valid lines among all the L1 touched). */
static void cb_forall(sim_ctx_t *x, uint64_t from, int to)
{
    sim_t *s = x->user;
    inst_t *in = &s->inst[x->inst];
    if (from >> in->init & 1) {
        for (int k = 0; k < in->nrec; k++)
            if (from >> in->rst[k] & 1 && in->rst[k] != to)
                forall_one(s, in, k, to);
        return;
    }
    for (int w = 0; w * 64 < in->nrec; w++)
        for (uint64_t b = in->live[w]; b; b &= b - 1) {
            int k = w * 64 + __builtin_ctzll(b);
            if (from >> in->rst[k] & 1 && in->rst[k] != to)
                forall_one(s, in, k, to);
        }
}

static int cb_done(sim_ctx_t *x, int64_t tid, bool has_val, int64_t val)
{
    sim_t *s = x->user;
    if (tid < 0 || tid >= s->nall || s->th[tid].status != TH_WAIT)
        return SIM_ROWS(fail)(x, SYS_ERR_UNEXPECTED,
                              "done for a thread with no request in flight%s%s", "", "");
    if (s->npd >= 64)
        return SIM_ROWS(fail)(x, SYS_ERR_INVARIANT, "too many dones in one row%s%s", "", "");
    s->pd[s->npd++] = (struct pending_done){(int)tid, has_val, val};
    return 0;
}

static const sim_ops_t sim_ops = {cb_line, cb_send, cb_forall, cb_done};

/* ---- the network ---- */

static int msg_new(sim_t *s)
{
    int id;
    if (s->freemsg >= 0) {
        id = s->freemsg;
        s->freemsg = s->msgs[id].next_free;
    } else {
        if (s->nmsg == s->capmsg) {
            s->capmsg = s->capmsg ? s->capmsg * 2 : 256;
            s->msgs = xrealloc(s->msgs, (size_t)s->capmsg * sizeof *s->msgs);
        }
        id = s->nmsg++;
        s->msgs[id].rec = xmalloc(sizeof(sim_slot_t) * (size_t)s->mw);
    }
    return id;
}

/* Instance I's node in the topology for a message about LINE: a shared instance's is
   the node of the line's L2 bank where the banks are spread (line modulo banks, as the
   bank contention below). */
static inline int node_of(const sim_t *s, int i, int line)
{
    if (s->bank_node && s->inst[i].cu < 0)
        return s->bank_node[s->line_bank[line < 0 ? 0 : line]];
    return s->inst_node[i];
}

/* Message ID reaches its receiver at cycle ARRIVE (an ordered network's channel order
   kept), sent at cycle T. */
static void msg_arrive(sim_t *s, int id, uint64_t arrive, uint64_t t)
{
    msg_t *g = &s->msgs[id];
    if (s->p->nets[g->net].ordered && arrive <= s->chan[g->chan].last)
        arrive = s->chan[g->chan].last + 1; /* point-to-point order */
    if (!(s->inst[g->src].cu >= 0 && s->inst[g->src].cu == s->inst[g->dst].cu)) {
        s->net_msgs++;
        s->net_lat_sum += arrive - t;
        if (arrive - t > s->net_lat_max)
            s->net_lat_max = arrive - t;
    }
    s->chan[g->chan].last = arrive;
    push(s, arrive, EV_ARRIVE, id, 0, 0);
}

/* Per-hop flow control: an EV_NET at the network's next event, unless one is pending. */
static void net_wake(sim_t *s)
{
    uint64_t nx = net_hop_next(s->net);
    if (nx < s->net_ev_at) {
        s->net_ev_at = nx;
        push(s, nx, EV_NET, 0, 0, 0);
    }
}

static void net_delivered(void *ctx, int id, int handle, uint64_t at)
{
    sim_t *s = ctx;
    (void)handle;
    msg_arrive(s, id, at, s->msgs[id].sent);
}

/* Message G leaves its receiver's input buffer at cycle T (per-hop flow control). */
static void net_take(sim_t *s, msg_t *g, uint64_t t)
{
    if (g->nh < 0)
        return;
    net_hop_release(s->net, g->nh, t);
    g->nh = -1;
    net_wake(s);
}

/* Serialization on the sender's outgoing link and the receiver's incoming one (the link
   model): the cycle a message of TYPE sent at T arrives. */
static uint64_t link_model(sim_t *s, int src, int dst, int type, uint64_t t)
{
    const sim_machine_t *m = s->m;
    uint64_t flits =
        ((uint64_t)s->msg_bytes[type] + (uint64_t)m->flit_bytes - 1) / (uint64_t)m->flit_bytes;
    uint64_t ser = (flits + (uint64_t)m->bandwidth - 1) / (uint64_t)m->bandwidth;
    uint64_t dep = t > s->inst[src].out_free ? t : s->inst[src].out_free;
    s->inst[src].out_free = dep + ser;
    uint64_t arrive = dep + ser + (uint64_t)m->net_latency;
    if (arrive < s->inst[dst].in_free + ser)
        arrive = s->inst[dst].in_free + ser;
    s->inst[dst].in_free = arrive;
    s->inst[src].out_busy += ser;
    s->inst[dst].in_busy += ser;
    return arrive;
}

/* Put the message in *REC on the network at cycle T (its sender's row committed): the
   message takes the buffer *REC, which gets the message's free one. */
static void net_send(sim_t *s, int src, int net, int dst, sim_slot_t **recp, uint64_t t)
{
    const sim_machine_t *m = s->m;
    int id = msg_new(s);
    msg_t *g = &s->msgs[id];
    sim_slot_t *rec = *recp;
    *recp = g->rec;
    g->rec = rec;
    g->src = src;
    g->dst = dst;
    g->net = net;
    g->chan = (net * s->ninst + src) * s->ninst + dst;
    g->line = (int)rec[1];
    g->banked = false;
    g->nh = -1;
    g->sent = t;
    g->seq = s->nsent++;
    s->chan[g->chan].n++;
    s->chan[g->chan].flits += s->msg_flits[rec[0]];
    int type = rec[0];
    s->r->messages[type]++;
    s->r->traffic[type] += (uint64_t)s->msg_bytes[type];
    uint64_t arrive;
    if (s->inst[src].cu >= 0 && s->inst[src].cu == s->inst[dst].cu) {
        arrive = t + (uint64_t)m->local_latency;
    } else if (s->net && net_hop(s->net)) {
        /* The fixed part first, then the routers hop by hop (net_delivered). */
        arrive = t + (uint64_t)m->net_latency;
        g->nh = net_hop_inject(s->net, id, node_of(s, src, rec[1]), node_of(s, dst, rec[1]), net,
                               s->msg_flits[type], arrive);
        if (g->nh >= 0) {
            net_wake(s);
            return;
        }
    } else if (s->net) {
        arrive = net_route(s->net, node_of(s, src, rec[1]), node_of(s, dst, rec[1]),
                           (uint64_t)s->msg_flits[type], t) +
                 (uint64_t)m->net_latency;
    } else {
        arrive = link_model(s, src, dst, type, t);
    }
    msg_arrive(s, id, arrive, t);
}

/* ---- running one row ---- */

/* Item IT stalls (again) at instance IN: a message's memo is the stall row's (memo_ok). */
static inline void stall_put(sim_t *s, inst_t *in, const item_t *it)
{
    if ((size_t)in->nstall == in->capstall)
        util_grow((void **)&in->stall, &in->capstall, (size_t)in->nstall + 1, sizeof *in->stall);
    item_t *d = &in->stall[in->nstall++];
    if (d != it) /* retry puts an item back in place */
        *d = *it;
    d->memo = it->kind == EV_ARRIVE && s->memo_ok;
    d->ver = s->memo_ver;
    s->memo_ok = false;
    if (it->kind == EV_ARRIVE)
        s->chan[it->chan].blocked++;
}

static void stall_add(sim_t *s, int i, int kind, int id)
{
    item_t it = {.kind = kind, .id = id, .since = s->now, .chan = -1, .line = -1};
    if (kind == EV_ARRIVE) {
        const msg_t *g = &s->msgs[id];
        it.chan = g->chan;
        it.line = g->line;
        it.ordered = s->p->nets[g->net].ordered;
    }
    stall_put(s, &s->inst[i], &it);
}

static void want_retry(sim_t *s, int i, uint64_t t)
{
    inst_t *in = &s->inst[i];
    if (in->nstall && !in->retry_set) {
        in->retry_set = true;
        push(s, t, EV_RETRY, i, 0, 0);
    }
}

static void protocol_error(sim_t *s, const char *what, int event, int i, int line)
{
    const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
    sim_slot_t *r = line >= 0 ? line_rec(s, i, line, false) : NULL;
    int st = line < 0 ? -1 : r ? r[0] : c->init_state;
    s->r->status = SIM_PROTOCOL;
    snprintf(s->r->msg, sizeof s->r->msg, "cycle %llu: %s %s at %s[%d] in state %s%s%s",
             (unsigned long long)s->now, what, s->p->events[event].name, c->name,
             s->inst[i].cu >= 0 ? s->inst[i].cu : 0, st >= 0 ? c->state_names[st] : "-",
             s->err.msg[0] ? ": " : "", s->err.msg);
}

static void eval_error(sim_t *s)
{
    s->r->status = SIM_PROTOCOL;
    snprintf(s->r->msg, sizeof s->r->msg, "cycle %llu: %s", (unsigned long long)s->now, s->err.msg);
}

static void thread_advance(sim_t *s, int t, uint64_t at);
static void lane_complete(sim_t *s, int t, uint64_t at);
static void sb_done(sim_t *s, int t, uint64_t at);

/* The state name of LINE at instance I ("-": no line). */
static const char *line_state(sim_t *s, int i, int line)
{
    const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
    if (line < 0)
        return "-";
    sim_slot_t *r = line_rec(s, i, line, false);
    int st = r ? r[0] : c->init_state;
    return st >= 0 && st < c->nstates ? c->state_names[st] : "?";
}

/* The core event thread T's stalled access waits in, and its line (-1: none). */
static void issue_ev_line(sim_t *s, int t, int *ev, int *line)
{
    const thread_t *th = &s->th[t];
    const prog_instr_t *ins = &s->prog->threads[t].instr[th->ipc];
    *ev = s->maps[s->map_base[t] + th->ipc]->events[th->step];
    *line = s->p->events[*ev].line ? s->loc_line[th_loc(s, t, ins)] : -1;
}

/* "L1[0]" / "L2[0]": instance I's name. */
static void inst_name(const sim_t *s, int i, char *buf, size_t n)
{
    snprintf(buf, n, "%s[%d]", s->p->ctrls[s->inst[i].ctrl].name,
             s->inst[i].cu >= 0 ? s->inst[i].cu : 0);
}

/* One line per full bounded channel (at its network's capacity, or with no room in the
 * machine's net buffer for its network's largest message: a channel that can hold back a
 * send), into OUT from K: what fills it, in the order sent ("channel resp L2[0] -> L1[0]
 * holds 3 messages, 7 of 8 flits: RECALL line 581, ..."). Returns the new K. */
static size_t describe_channels(sim_t *s, char *out, size_t n, size_t k)
{
    if (!s->nmsg)
        return k;
    bool *freed = xcalloc((size_t)s->nmsg, sizeof *freed);
    for (int f = s->freemsg; f >= 0; f = s->msgs[f].next_free)
        freed[f] = true;
    int ids[8];
    for (int c = 0; c < s->nchan && k + 1 < n; c++) {
        int net = c / (s->ninst * s->ninst), src = c / s->ninst % s->ninst, dst = c % s->ninst;
        int cap = s->p->nets[net].capacity;
        int big = 0; /* the network's largest message, in flits */
        for (int g = 0; g < s->p->nmsgs; g++)
            if (s->p->msgs[g].net == net && s->msg_flits[g] > big)
                big = s->msg_flits[g];
        if (!s->chan[c].n || !((cap && s->chan[c].n >= cap) ||
                               (s->m->buffer && s->chan[c].flits + big > s->m->buffer)))
            continue;
        int nid = 0; /* the first 8 sent */
        for (int id = 0; id < s->nmsg; id++) {
            if (freed[id] || s->msgs[id].chan != c)
                continue;
            int j = nid < 8 ? nid++ : 8;
            while (j > 0 && s->msgs[ids[j - 1]].seq > s->msgs[id].seq) {
                if (j < 8)
                    ids[j] = ids[j - 1];
                j--;
            }
            if (j < 8)
                ids[j] = id;
        }
        char a[32], b[32];
        inst_name(s, src, a, sizeof a);
        inst_name(s, dst, b, sizeof b);
        k += (size_t)snprintf(out + k, n - k, "channel %s %s -> %s holds %d message%s",
                              s->p->nets[net].name, a, b, s->chan[c].n,
                              s->chan[c].n == 1 ? "" : "s");
        if (cap && k + 1 < n)
            k += (size_t)snprintf(out + k, n - k, " of %d", cap);
        if (s->m->buffer && k + 1 < n)
            k += (size_t)snprintf(out + k, n - k, ", %d of %d flits", s->chan[c].flits,
                                  s->m->buffer);
        for (int j = 0; j < nid && k + 1 < n; j++)
            k += (size_t)snprintf(out + k, n - k, "%s %s line %d", j ? "," : ":",
                                  s->p->events[s->msgs[ids[j]].rec[0]].name,
                                  (int)s->msgs[ids[j]].rec[1]);
        if (s->chan[c].n > nid && k + 1 < n)
            k += (size_t)snprintf(out + k, n - k, ", ...");
        if (k + 1 < n)
            k += (size_t)snprintf(out + k, n - k, "\n");
    }
    free(freed);
    return k < n ? k : n - 1;
}

/* What every bounded channel holds (describe_channels), what every instance holds
 * stalled at the end of a run, one line each ("L1[0]: core event store (thread 0) on
 * line 1 in IV since cycle 12; message DATA from L2[0] ..."), then one line per thread
 * waiting for a reply, into OUT (empty when none). */
static void describe_stuck(sim_t *s, char *out, size_t n)
{
    size_t k = 0;
    out[0] = 0;
    k = describe_channels(s, out, n, k);
    for (int i = 0; i < s->ninst && k + 1 < n; i++) {
        const inst_t *in = &s->inst[i];
        if (!in->nstall)
            continue;
        k += (size_t)snprintf(out + k, n - k, "%s[%d]:", s->p->ctrls[in->ctrl].name,
                              in->cu >= 0 ? in->cu : 0);
        for (int j = 0, first = 1; j < in->nstall && k + 1 < n; j++, first = 0) {
            const item_t *it = &in->stall[j];
            int ev, line;
            uint64_t since = it->since;
            char who[96];
            if (it->kind == EV_ISSUE) {
                /* Consecutive core events of one event on one line: one entry. */
                issue_ev_line(s, it->id, &ev, &line);
                int m = 1, e2, l2;
                while (j + m < in->nstall && in->stall[j + m].kind == EV_ISSUE &&
                       (issue_ev_line(s, in->stall[j + m].id, &e2, &l2), e2 == ev && l2 == line))
                    m++;
                if (m == 1)
                    snprintf(who, sizeof who, "core event %s (thread %d)", s->p->events[ev].name,
                             it->id);
                else {
                    int w = snprintf(who, sizeof who,
                                     "core event %s (%d threads:", s->p->events[ev].name, m);
                    for (int q = 0; q < m; q++) {
                        if (in->stall[j + q].since < since)
                            since = in->stall[j + q].since;
                        if (q < 3 && w > 0 && (size_t)w < sizeof who)
                            w += snprintf(who + w, sizeof who - (size_t)w, "%s %d", q ? "," : "",
                                          in->stall[j + q].id);
                    }
                    if (w > 0 && (size_t)w < sizeof who)
                        snprintf(who + w, sizeof who - (size_t)w, "%s)", m > 3 ? ", ..." : "");
                    j += m - 1;
                }
            } else {
                const msg_t *g = &s->msgs[it->id];
                ev = g->rec[0];
                line = g->rec[1];
                snprintf(who, sizeof who, "message %s from %s[%d]", s->p->events[ev].name,
                         s->p->ctrls[s->inst[g->src].ctrl].name,
                         s->inst[g->src].cu >= 0 ? s->inst[g->src].cu : 0);
            }
            k += (size_t)snprintf(out + k, n - k, "%s %s on line %d in %s since cycle %llu",
                                  first ? "" : ";", who, line, line_state(s, i, line),
                                  (unsigned long long)since);
        }
        if (k + 1 < n)
            k += (size_t)snprintf(out + k, n - k, "\n");
    }
    for (int c = 0; s->sb && c < s->ncus && k + 1 < n; c++) { /* docs/sim.md "Store buffer" */
        const sbuf_t *b = &s->sb[c];
        if (b->n || b->busy || b->nwait)
            k += (size_t)snprintf(out + k, n - k,
                                  "store buffer of CU %d: %d entries, %s in flight (thread %d), "
                                  "%d waiting\n",
                                  c, b->n,
                                  !b->busy          ? "nothing"
                                  : b->fly_loc >= 0 ? "a store"
                                                    : "a fence",
                                  b->tid, b->nwait);
    }
    for (int t = 0; t < s->nall && k + 1 < n; t++) { /* the hidden threads too */
        const thread_t *th = &s->th[t];
        if (th->status != TH_WAIT)
            continue;
        const prog_instr_t *ins = &s->prog->threads[t].instr[th->ipc];
        int ev = s->maps[s->map_base[t] + th->ipc]->events[th->step];
        int line = s->p->events[ev].line ? s->loc_line[th_loc(s, t, ins)] : -1;
        k += (size_t)snprintf(
            out + k, n - k,
            "thread %d: waits for a reply to core event %s on line %d (%s[%d] "
            "in %s)\n",
            t, s->p->events[ev].name, line, s->p->ctrls[s->inst[th->inst].ctrl].name,
            s->inst[th->inst].cu >= 0 ? s->inst[th->inst].cu : 0, line_state(s, th->inst, line));
    }
    if (k >= n && n > 4)
        memcpy(out + n - 4, "...", 4);
}

/* Thread T's synchronization access IN completed: count where it was served (seed 001
 * Table 6: the local L1, the L2 or memory, a remote L1) and mark its L1 line. */
static void sync_served(sim_t *s, int t, const prog_instr_t *in)
{
    thread_t *th = &s->th[t];
    s->r->sync_accesses++;
    if (th->inst < 0) { /* no per-CU controller takes its core events */
        s->r->sync_l2++;
        return;
    }
    inst_t *l1 = &s->inst[th->inst];
    int line = s->loc_line[th_loc(s, t, in)];
    int32_t k = l1->index[line];
    int src = k >= 0 ? l1->rm[k].src : -1;
    if (th->op_clean)
        s->r->sync_l1++;
    else if (src >= 0 && src != th->inst && s->inst[src].cu >= 0)
        s->r->sync_remote++;
    else
        s->r->sync_l2++;
    if (k >= 0)
        l1->rm[k].atom = 1;
}

/* Thread T's current core event completed at cycle AT (with VAL for its register). */
static void thread_step(sim_t *s, int t, bool has_val, int64_t val, uint64_t at)
{
    thread_t *th = &s->th[t];
    const prog_instr_t *in = &s->prog->threads[t].instr[th->ipc];
    if (has_val && (in->op == PROG_OP_LD || in->op == PROG_OP_RMW || in->op == PROG_OP_CAS))
        th->regs[in->reg] = (sim_slot_t)(int32_t)val;
    const proto_map_t *m = s->maps[s->map_base[t] + th->ipc];
    th->status = TH_RUN;
    if (++th->step < m->nevents) {
        push(s, at, EV_ISSUE, t, 0, 0);
        return;
    }
    if (t >= s->nthreads) { /* a store buffer's hidden thread */
        sb_done(s, t, at);
        return;
    }
    int cls = op_class(in);
    lat_add(&s->lat[cls], at - th->op_start);
    if (cls == SIM_OP_ATOMIC || (cls != SIM_OP_FENCE && in->ord != PROG_ORD_PLAIN))
        sync_served(s, t, in);
    if (in->op == PROG_OP_LD) {
        s->r->loads++;
        s->r->l1_hits += th->op_clean;
    }
    if (th->warp >= 0) {
        lane_complete(s, t, at); /* its pc moved on at issue (the scoreboard) */
        return;
    }
    th->pc++;
    thread_advance(s, t, at);
}

/* Param K in X: its prediction where X's controller predicts it (pred.h). */
static int64_t cb_param(sim_ctx_t *x, int k)
{
    sim_t *s = x->user;
    return sim_pred_read(s->pred, k, x->inst, x->line, s->p->params[k].value);
}

/* Set up X for instance I, LINE (record R), and the thread or message. */
static void ctx_init(sim_t *s, sim_ctx_t *x, int i, int line, sim_slot_t *r)
{
    *x = (sim_ctx_t){.L = &s->L,
                     .ops = &sim_ops,
                     .user = s,
                     .inst = i,
                     .line = line,
                     .lrec = r,
                     .cvars = s->inst[i].cvars,
                     .msg_src = -1,
                     .tid = -1,
                     .clock = (int64_t)s->now,
                     .param = s->pred ? cb_param : NULL,
                     .err = &s->err};
}

/* Invariant expression E on LINE where it reads states only (inv_ok): count() from the
 * per-line state counts, the rest as the row evaluator computes it. */
static int64_t inv_eval(const sim_t *s, const proto_expr_t *e, int line)
{
    int64_t a, b;
    switch (e->kind) {
    case PROTO_E_INT: return e->index;
    case PROTO_E_PARAM: return s->p->params[e->index].value;
    case PROTO_E_NOT: return !inv_eval(s, e->a, line);
    case PROTO_E_NEG: return -inv_eval(s, e->a, line);
    case PROTO_E_MAX:
    case PROTO_E_MIN:
        a = inv_eval(s, e->a, line);
        b = inv_eval(s, e->b, line);
        return (e->kind == PROTO_E_MAX) == (a > b) ? a : b;
    case PROTO_E_COUNT: {
        const int32_t *c = s->st_cnt + (size_t)line * s->nst + s->st_base[e->index];
        int ns = s->p->ctrls[e->index].nstates;
        uint64_t set = ns < 64 ? e->states & (((uint64_t)1 << ns) - 1) : e->states;
        int64_t n = 0;
        for (; set; set &= set - 1) /* the states of the set only */
            n += c[__builtin_ctzll(set)];
        return n;
    }
    case PROTO_E_BIN:
        a = inv_eval(s, e->a, line);
        if (e->op == '&' && !a)
            return 0;
        if (e->op == '|' && a)
            return 1;
        b = inv_eval(s, e->b, line);
        switch (e->op) {
        case '+': return a + b;
        case '-': return a - b;
        case '<': return a < b;
        case 'l': return a <= b;
        case '>': return a > b;
        case 'g': return a >= b;
        case '=': return a == b;
        case '!': return a != b;
        default: return b != 0; /* '&', '|' (inv_ok admits no other operator) */
        }
    default: return 0; /* NONE (inv_ok admits no other kind) */
    }
}

/* LINE of instance I moved from state A to B: the counts inv_eval reads. */
static void st_move(sim_t *s, int i, int line, int a, int b)
{
    if (!s->st_cnt || a == b)
        return;
    int32_t *c = s->st_cnt + (size_t)line * s->nst + s->st_base[s->inst[i].ctrl];
    c[a]--;
    c[b]++;
}

/* The protocol's declared invariants on LINE (as the explorer checks them: in the
 * context of instance 0): 0, or -1 with the run stopped. */
static int check_invariants(sim_t *s, int line)
{
    for (int k = 0; k < s->p->ninvs; k++) {
        sim_slot_t *r0 = line_rec(s, 0, line, true); /* the record stays, as the evaluator's */
        sim_val_t v;
        sim_ctx_t x;
        if (s->inv_states) {
            v = (sim_val_t)inv_eval(s, s->p->invs[k].expr, line);
        } else if (ctx_init(s, &x, 0, line, r0), SIM_ROWS(eval)(&x, s->p->invs[k].expr, &v)) {
            eval_error(s);
            return -1;
        }
        if (!v) {
            s->r->status = SIM_PROTOCOL;
            snprintf(s->r->msg, sizeof s->r->msg, "cycle %llu: invariant %s fails on line of %s",
                     (unsigned long long)s->now, s->p->invs[k].name,
                     s->prog->locs[s->line_locs[line][0]].name);
            return -1;
        }
    }
    return 0;
}

/* The row find_row of the shared evaluator picks for EVENT in X (the first row, in
 * order, whose states hold the line's state and whose guard holds), from the rows
 * precomputed for the controller, event and state: 0, or -1 on a guard's error. */
static int find_row(sim_t *s, sim_ctx_t *x, int event, const proto_row_t **out)
{
    int ci = s->inst[x->inst].ctrl;
    int st = x->lrec ? (int)x->lrec[0] : 64;
    if (st < 0 || st > 64)
        return SIM_ROWS(find_row)(x, event, out);
    const proto_row_t *rows = s->p->ctrls[ci].rows;
    *out = NULL;
    for (const int *rp = s->cand + s->cand_off[(ci * s->p->nevents + event) * 65 + st]; *rp >= 0;
         rp++) {
        if (rows[*rp].guard) {
            sim_val_t g;
            if (SIM_ROWS(eval)(x, rows[*rp].guard, &g))
                return -1;
            if (!g)
                continue;
        }
        *out = &rows[*rp];
        return 0;
    }
    return 0;
}

/* The DRAM model issued a request: its event fires when the data is back. */
static void dram_issued(void *ctx, dram_tag_t tag, uint64_t done)
{
    push((sim_t *)ctx, done, EV_DRAMDONE, tag.inst, tag.line, tag.ev);
}

/* A DRAM read of LINE for instance I, completed by the line event EV. */
static void dram_access(sim_t *s, int i, int line, int ev)
{
    int ch;
    uint64_t t = dram_request(s->dram, s->now, line, (dram_tag_t){i, line, ev}, &ch);
    if (t != DRAM_NEVER)
        push(s, t, EV_DRAM, ch, 0, 0);
}

#define MAX_PRULES 8 /* predictor rules one row firing moves */

/* The predictor rules ROW triggers in X on a line in state BEFORE, their guards read
 * before the row's actions: their indexes into OUT; -1 on an error. */
static int pred_rules(sim_t *s, sim_ctx_t *x, const proto_row_t *row, int before, int *out)
{
    const int *r = sim_pred_rules(s->pred, s->inst[x->inst].ctrl, row->event);
    int n = 0;
    for (; r && *r >= 0 && n < MAX_PRULES; r++) {
        const proto_prule_t *ru = &s->p->prules[*r];
        if (ru->states ? before < 0 || !(ru->states >> before & 1) : row->states != 0)
            continue;
        sim_val_t v = 1;
        if (ru->guard && SIM_ROWS(eval)(x, ru->guard, &v))
            return -1;
        if (v)
            out[n++] = *r;
    }
    return n;
}

/* Run ROW in X: 1 committed, 0 undone (a full channel), -1 an error (reported). */
static int fire(sim_t *s, sim_ctx_t *x, const proto_row_t *row)
{
    inst_t *in = &s->inst[x->inst];
    sim_slot_t save_line[256], *save_cv = s->save_cv, save_regs[PROG_MAX_REGS];
    int cvw = s->cv_w[in->ctrl];
    int fl = s->row_fl[in->ctrl * s->maxrows + (int)(row - s->p->ctrls[in->ctrl].rows)];
    bool sv_line = x->lrec && (fl & (ROWF_SEND | ROWF_LV)) == (ROWF_SEND | ROWF_LV);
    bool sv_cv = (fl & (ROWF_SEND | ROWF_CV)) == (ROWF_SEND | ROWF_CV);
    bool sv_regs = x->regs && (fl & (ROWF_SEND | ROWF_REGS)) == (ROWF_SEND | ROWF_REGS);
    if (sv_line)
        memcpy(save_line, x->lrec, sizeof(sim_slot_t) * (size_t)in->lw);
    if (sv_cv)
        memcpy(save_cv, in->cvars, sizeof(sim_slot_t) * (size_t)cvw);
    if (sv_regs)
        memcpy(save_regs, x->regs, sizeof save_regs);
    s->nps = s->npd = s->nundo = 0;
    int before = x->lrec ? x->lrec[0] : -1;
    int prules[MAX_PRULES];
    int nprules =
        s->pred && row->kind == PROTO_ROW_NORMAL ? pred_rules(s, x, row, before, prules) : 0;
    int rc = nprules < 0 ? -1 : SIM_ROWS(run_actions)(x, row);
    if (rc < 0) {
        eval_error(s);
        return -1;
    }
    if (rc > 0) { /* only a send returns it: what the row wrote before it was saved */
        for (int k = s->nundo - 1; k >= 0; k--) {
            *s->undo[k].slot = s->undo[k].old;
            rec_state(in, (int)((s->undo[k].slot - in->recs) / in->lw), (int)s->undo[k].old);
        }
        if (sv_line)
            memcpy(x->lrec, save_line, sizeof(sim_slot_t) * (size_t)in->lw);
        if (sv_cv)
            memcpy(in->cvars, save_cv, sizeof(sim_slot_t) * (size_t)cvw);
        if (sv_regs)
            memcpy(x->regs, save_regs, sizeof save_regs);
        return 0;
    }
    /* Commit: predictions, residency, statistics, sends, dones. */
    if (x->lrec)
        in->rm[in->index[x->line]].ver++;
    for (int k = 0; k < s->nundo; k++)
        in->rm[(s->undo[k].slot - in->recs) / in->lw].ver++;
    for (int k = 0; k < nprules; k++)
        sim_pred_apply(s->pred, prules[k], x->inst, x->line);
    int init = s->p->ctrls[in->ctrl].init_state;
    bool per_cu = in->cu >= 0;
    if (s->st_cnt) { /* the state counts first: the checks below read them */
        for (int k = 0; k < s->nundo; k++)
            if (s->undo[k].slot != x->lrec)
                st_move(s, x->inst, in->rm[(s->undo[k].slot - in->recs) / in->lw].line,
                        (int)s->undo[k].old, (int)s->undo[k].to);
        if (x->lrec)
            st_move(s, x->inst, x->line, before, (int)x->lrec[0]);
    }
    for (int k = 0; k < s->nundo; k++) {
        sim_slot_t *r = s->undo[k].slot;
        int line = in->rm[(r - in->recs) / in->lw].line;
        if (line == x->line && x->lrec)
            continue; /* the row's own line: counted below */
        moved(s, x->inst, line, s->undo[k].old, r[0]);
        reset_dead(s, x->inst, line, r);
        if (s->p->ninvs && check_invariants(s, line))
            return -1;
        if (per_cu && r[0] == init)
            s->r->invalidations++;
        else if (per_cu)
            s->r->flushes++;
    }
    if (x->lrec) {
        int after = x->lrec[0];
        bool fa = false;
        for (int k = 0; k < s->nundo; k++)
            if (s->undo[k].slot == x->lrec) {
                before = s->undo[k].old;
                fa = true;
            }
        /* Every commit resets the record's dead variables: a row that wrote no line
           variable and left the state as it was finds them reset already. */
        if (fl & ROWF_LV || fa || before != after || after < 0 || after >= 64 ||
            !s->dead_idem[in->ctrl * 64 + after])
            reset_dead(s, x->inst, x->line, x->lrec);
        if (before != after) {
            moved(s, x->inst, x->line, before, after);
            if (per_cu && after == init && (x->msg || fa))
                s->r->invalidations++;
        }
        in->rm[in->index[x->line]].lru = s->now;
        if (before != after || fa) /* else the record's state copy holds it already */
            rec_state(in, in->index[x->line], after);
        /* A state change the invariants do not count leaves their value as it was. */
        bool counted = s->p->ninvs && before != after && (!s->inv_states || s->inv_reads[in->ctrl]);
        if (s->p->ninvs && (counted || !s->inv_states || !s->inv_seen[x->line])) {
            if (check_invariants(s, x->line))
                return -1;
            s->inv_seen[x->line] = 1;
        } else if (s->p->ninvs) {
            /* No state of the line changed since its invariants held (only rows change
               states, each checked): the same value; the record the check makes stays. */
            line_rec(s, 0, x->line, true);
        }
    }
    if (x->lrec && x->msg && per_cu) /* where the line's last message came from (Table 6) */
        in->rm[in->index[x->line]].src = x->msg_src;
    uint64_t out = s->now + (uint64_t)in->latency;
    for (int k = 0; k < s->nps; k++)
        net_send(s, x->inst, s->ps[k].net, s->ps[k].dst, &s->ps[k].rec, out);
    for (int k = 0; k < s->npd; k++)
        thread_step(s, s->pd[k].tid, s->pd[k].has_val, s->pd[k].val, out);
    if (!s->in_periodic)
        s->last_progress = s->now; /* a periodic event alone is no progress */
    s->fired++;
    /* Timed internal events (memory responses) of the line's new state. */
    if (x->line >= 0 && x->lrec)
        for (const int *e = s->timed_ev[in->ctrl]; *e >= 0; e++) {
            uint64_t st = s->ev_states[in->ctrl * s->p->nevents + *e];
            if (!(st >> x->lrec[0] & 1))
                continue;
            if (s->ev_lat[*e] != SIM_EVLAT_DRAM)
                push(s, s->now + (uint64_t)s->ev_lat[*e], EV_TIMED, x->inst, x->line, *e);
            else if (before < 0 || !(st >> before & 1)) /* a new access, not a re-entry */
                dram_access(s, x->inst, x->line, *e);
        }
    want_retry(s, x->inst, s->now + 1);
    return 1;
}

/* Try internal event EV of instance I on LINE: 1 fired, 0 not enabled, -1 error. */
static int try_internal(sim_t *s, int i, int line, int ev)
{
    inst_t *in = &s->inst[i];
    sim_slot_t *r = NULL;
    if (line >= 0) {
        r = line_rec(s, i, line, false);
        int st = r ? r[0] : s->p->ctrls[in->ctrl].init_state;
        if (!(s->ev_states[in->ctrl * s->p->nevents + ev] >> st & 1))
            return 0;
        r = line_rec(s, i, line, true);
    }
    sim_ctx_t x;
    ctx_init(s, &x, i, line, r);
    const proto_row_t *row;
    if (find_row(s, &x, ev, &row)) {
        eval_error(s);
        return -1;
    }
    if (!row || row->kind == PROTO_ROW_STALL)
        return 0;
    if (row->kind == PROTO_ROW_IMPOSSIBLE) {
        protocol_error(s, "impossible event", ev, i, line);
        return -1;
    }
    return fire(s, &x, row);
}

/* Fire the internal events the machine gives no latency (lease expiry, ...) that are
 * enabled on LINE of instance I, before an event is handled there. */
static int lazy_run(sim_t *s, int i, int line)
{
    for (int n = 0; n < MAX_LAZY; n++) {
        int fired = 0;
        for (const int *e = s->lazy_ev[s->inst[i].ctrl]; *e >= 0 && !fired; e++) {
            fired = try_internal(s, i, line, *e);
            if (fired < 0)
                return -1;
        }
        if (!fired)
            return 0;
    }
    s->lazy_cap = true;
    return 0;
}

/* lazy_run where LINE is a line and the controller has lazy events (without a call when
 * it has none: most controllers). */
static inline int lazy_internal(sim_t *s, int i, int line)
{
    return line < 0 || !s->inst[i].lazy ? 0 : lazy_run(s, i, line);
}

/* E reads something other than the line's record, the message, the instance's identity
 * and constants (controller or per-thread variables, other instances' records, the clock,
 * a request's fields, a predicted param). */
static bool memo_unsafe(const proto_expr_t *e, int pred)
{
    switch (e->kind) {
    case PROTO_E_CTRLVAR:
    case PROTO_E_TELEM:
    case PROTO_E_COUNT:
    case PROTO_E_CLOCK:
    case PROTO_E_REQF: return true;
    case PROTO_E_PARAM: return pred;
    default: return false;
    }
}

/* Whether the rows of controller C for EVENT, and of its lazy events, have guards that
 * read only the line's record and the message: then a message a stall row held is held
 * again, with no effect, while the record does not change (retry skips it). */
static bool memo_safe(const sim_t *s, int c, int event)
{
    const proto_ctrl_t *pc = &s->p->ctrls[c];
    if (s->p->clock || s->pred)
        return false;
    for (int r = 0; r < pc->nrows; r++) {
        bool lazy = false;
        for (const int *e = s->lazy_ev[c]; *e >= 0; e++)
            lazy = lazy || pc->rows[r].event == *e;
        if ((pc->rows[r].event == event || lazy) && pc->rows[r].guard &&
            proto_expr_any(pc->rows[r].guard, memo_unsafe, s->pred != NULL))
            return false;
    }
    return true;
}

static bool is_cvar(const proto_expr_t *e, int arg)
{
    (void)arg;
    return e->kind == PROTO_E_CTRLVAR || e->kind == PROTO_E_TELEM;
}

static bool guard_reads_cvar(const proto_expr_t *g)
{
    return proto_expr_any(g, is_cvar, 0);
}

/* ROW (of instance I's controller) just fired on LINE (-1: none). A lazy event it
 * enabled may never see another event on its line (hlrc-probe's `fdone` once a
 * hand-over's `FWD` arrived with no write-through pending, or once the last `WACK`,
 * on another line, brings `pending` to 0): try the lazy events on LINE, and, when
 * ROW wrote a controller variable some lazy event's guard reads, on every line of I
 * that has a record. */
static int lazy_after_run(sim_t *s, int i, int line, const proto_row_t *row)
{
    inst_t *in = &s->inst[i];
    if (lazy_internal(s, i, line) < 0)
        return -1;
    if (!s->lazy_cv[in->ctrl])
        return 0;
    bool cv = false;
    for (int k = 0; k < row->nactions && !cv; k++)
        cv = row->actions[k].kind == PROTO_A_ASSIGN && !row->actions[k].line_var;
    for (int k = 0; cv && k < in->nrec; k++)
        if (lazy_internal(s, i, in->rm[k].line) < 0)
            return -1;
    return 0;
}

/* lazy_after_run where the controller has lazy events (without a call when it has none). */
static inline int lazy_after(sim_t *s, int i, int line, const proto_row_t *row)
{
    return !s->inst[i].lazy ? 0 : lazy_after_run(s, i, line, row);
}

/* Free a way in LINE's set of instance I through the protocol's eviction rows:
 * 1 when the set has room, 0 when it stays full (the access waits), -1 on an error. */
static int make_room(sim_t *s, int i, int line)
{
    inst_t *in = &s->inst[i];
    int set = line % in->sets, w = in->ways + SET_SLACK;
    for (int tries = 0; in->set_n[set] >= in->ways && tries < w; tries++) {
        int32_t *sl = in->set_line + (size_t)set * w;
        int best = -1;
        uint64_t bl = UINT64_MAX;
        for (int k = 0; k < in->set_n[set]; k++) {
            sim_slot_t *r = line_rec(s, i, sl[k], false);
            if (!r || in->evict_ev < 0 ||
                !(s->ev_states[in->ctrl * s->p->nevents + in->evict_ev] >> r[0] & 1))
                continue;
            uint64_t u = in->rm[in->index[sl[k]]].lru;
            if (u < bl) {
                bl = u;
                best = sl[k];
            }
        }
        if (best < 0)
            return 0;
        sim_slot_t *r = line_rec(s, i, best, false);
        sim_ctx_t x;
        ctx_init(s, &x, i, best, r);
        const proto_row_t *row;
        if (find_row(s, &x, in->evict_ev, &row)) {
            eval_error(s);
            return -1;
        }
        if (!row || row->kind != PROTO_ROW_NORMAL)
            return 0;
        int f = fire(s, &x, row);
        if (f <= 0)
            return f;
        s->r->evictions++;
        if (in->cu >= 0 && in->rm[in->index[best]].atom) {
            in->rm[in->index[best]].atom = 0;
            s->r->sync_evicts++;
        }
        if (in->cu < 0) /* a shared controller: the evicted line leaves its set */
            for (int k = 0; k < in->set_n[set]; k++)
                if (sl[k] == best) {
                    sl[k] = sl[--in->set_n[set]];
                    break;
                }
    }
    return in->set_n[set] < in->ways;
}

/* A message reaches LINE at shared instance I (with capacity): a line in a stable
 * state that is not in its set enters it, first evicting the least recently used line
 * the eviction event can take when the set is full (a line in a transient state, e.g.
 * one being evicted that collects its acks, allocates nothing). 1 go on, 0 no line
 * can be evicted (the message waits), -1 error. Memory is folded into the protocols'
 * L2 (its initial state holds the data): the set, not the state, says what it holds. */
static int l2_touch(sim_t *s, int i, int line)
{
    inst_t *in = &s->inst[i];
    sim_slot_t *r = line_rec(s, i, line, false);
    if (is_transient(s, in->ctrl, r ? r[0] : s->p->ctrls[in->ctrl].init_state))
        return 1;
    int set = line % in->sets, w = in->ways + SET_SLACK;
    int32_t *sl = in->set_line + (size_t)set * w;
    for (int k = 0; k < in->set_n[set]; k++)
        if (sl[k] == line)
            return 1;
    int room = make_room(s, i, line);
    if (room <= 0)
        return room;
    sl[in->set_n[set]++] = line;
    return 1;
}

/* Thread T delivers its current core event: 1 taken, 0 stalled, -1 error. */
static int try_core(sim_t *s, int t)
{
    thread_t *th = &s->th[t];
    const prog_instr_t *in = &s->prog->threads[t].instr[th->ipc];
    const proto_map_t *m = s->maps[s->map_base[t] + th->ipc];
    int ev = m->events[th->step];
    int i = th->inst;
    inst_t *ci = &s->inst[i];
    int line = s->p->events[ev].line ? s->loc_line[th_loc(s, t, in)] : -1;
    if (lazy_internal(s, i, line))
        return -1;
    sim_slot_t *r = line >= 0 ? line_rec(s, i, line, true) : NULL;
    int init = s->p->ctrls[ci->ctrl].init_state;
    if (r && r[0] == init && ci->sets) {
        int room = make_room(s, i, line);
        if (room <= 0)
            return room;
        r = line_rec(s, i, line, true);
    }
    if (r && ci->mshrs && !is_transient(s, ci->ctrl, r[0]) && ci->ntrans >= ci->mshrs)
        return 0;
    sim_ctx_t x;
    ctx_init(s, &x, i, line, r);
    x.tid = t;
    x.instr = in;
    x.regs = th->regs;
    const proto_row_t *row;
    if (find_row(s, &x, ev, &row)) {
        eval_error(s);
        return -1;
    }
    if (!row || row->kind == PROTO_ROW_IMPOSSIBLE) {
        protocol_error(s, row ? "impossible core event" : "unhandled core event", ev, i, line);
        return -1;
    }
    if (row->kind == PROTO_ROW_STALL) {
        if (r && is_transient(s, ci->ctrl, r[0]))
            th->mshr_wait = true; /* behind the line's outstanding request */
        return 0;
    }
    int f = fire(s, &x, row);
    if (f <= 0)
        return f;
    if (th->mshr_wait && !s->nps)
        s->r->mshr_merges++; /* served by the request it waited behind */
    th->mshr_wait = false;
    if (lazy_after(s, i, line, row))
        return -1;
    if (x.did_done) {
        thread_step(s, t, false, 0, s->now + (uint64_t)ci->latency);
    } else if (x.did_wait) {
        th->status = TH_WAIT;
        th->op_clean = false;
    } else {
        push(s, s->now + (uint64_t)ci->latency, EV_ISSUE, t, 0, 0);
    }
    return 1;
}

/* Message ID is received: 1 taken, 0 stalled, 2 deferred (bank busy), -1 error. */
static int try_msg(sim_t *s, int id)
{
    msg_t *g = &s->msgs[id];
    int i = g->dst;
    inst_t *in = &s->inst[i];
    int line = g->line;
    int chan = g->chan, src = g->src, net = g->net;
    s->memo_ok = false;
    if (in->cu < 0 && !g->banked) {
        /* L2 bank contention: one message per bank every 'occupancy' cycles; an
           ordered channel's messages keep their order through the banks. */
        int bank = s->line_bank[line < 0 ? 0 : line];
        uint64_t start = s->now > s->bank_free[bank] ? s->now : s->bank_free[bank];
        if (s->p->nets[net].ordered && start <= s->chan[chan].svc && s->chan[chan].svc)
            start = s->chan[chan].svc + 1;
        if (s->net) { /* its VC's input buffer: not before the head ahead of it left */
            start = net_vc_accept(s->net, node_of(s, i, line), net, start);
            net_take(s, g, start);
        }
        s->chan[chan].svc = start;
        s->bank_free[bank] = start + (uint64_t)s->m->l2_occupancy;
        g->banked = true;
        if (start > s->now) {
            push(s, start, EV_ARRIVE, id, 0, 0);
            return 2;
        }
    }
    if (in->held && line >= 0 && in->held[line] != 2) {
        /* The line's first touch at this shared instance: a DRAM fill first (its
           messages wait, in channel order, as behind a stall row). */
        if (in->held[line] == 0) {
            in->held[line] = 1;
            dram_access(s, i, line, -1);
        }
        return 0;
    }
    s->lazy_cap = false;
    if (lazy_internal(s, i, line))
        return -1;
    if (in->cu < 0 && in->sets && line >= 0) {
        int room = l2_touch(s, i, line);
        if (room <= 0)
            return room;
    }
    /* A lazy event or an eviction for room may have sent, and so moved the pool. */
    g = &s->msgs[id];
    sim_slot_t *r = line >= 0 ? line_rec(s, i, line, true) : NULL;
    sim_ctx_t x;
    ctx_init(s, &x, i, line, r);
    x.msg = g->rec;
    x.msg_src = g->src;
    const proto_row_t *row;
    if (find_row(s, &x, g->rec[0], &row)) {
        eval_error(s);
        return -1;
    }
    if (!row || row->kind == PROTO_ROW_IMPOSSIBLE) {
        protocol_error(s, row ? "impossible message" : "unhandled message", g->rec[0], i, line);
        return -1;
    }
    if (row->kind == PROTO_ROW_STALL) {
        if (r && !s->lazy_cap && s->stall_memo[in->ctrl * s->p->nevents + g->rec[0]]) {
            s->memo_ok = true;
            s->memo_ver = in->rm[in->index[line]].ver;
        }
        return 0;
    }
    if (in->cu < 0 &&
        s->row_apply[in->ctrl * s->maxrows + (int)(row - s->p->ctrls[in->ctrl].rows)]) {
        int bank = s->line_bank[line < 0 ? 0 : line];
        s->bank_free[bank] += (uint64_t)s->m->l2_atomic; /* the atomic unit */
    }
    int f = fire(s, &x, row);
    if (f <= 0)
        return f;
    if (lazy_after(s, i, line, row))
        return -1;
    g = &s->msgs[id]; /* the row's sends may have moved the pool */
    s->chan[chan].n--;
    s->chan[chan].flits -= s->msg_flits[s->msgs[id].rec[0]];
    if (s->p->nets[net].capacity || s->m->buffer)
        want_retry(s, src, s->now + 1); /* room in a bounded channel */
    g->next_free = s->freemsg;
    s->freemsg = id;
    return 1;
}

/* ---- threads ---- */

/* Thread T's access IN addresses an element outside its array: the run stops. */
static void index_error(sim_t *s, int t, const prog_instr_t *in)
{
    s->r->status = SIM_PROTOCOL;
    snprintf(s->r->msg, sizeof s->r->msg,
             "thread P%d: index %d out of the array %.*s (%d elements) at line %d", t,
             (int)s->th[t].regs[in->idx_reg] + in->idx_off,
             (int)strcspn(s->prog->locs[in->loc].name, "["), s->prog->locs[in->loc].name,
             in->idx_len, in->line);
}

/* Thread T's div or rem IN has a zero divisor: the run stops (docs/litmus.md "Kernels"). */
static bool div_zero_slow(sim_t *s, int t, const prog_instr_t *in)
{
    const sim_slot_t *r = s->th[t].regs;
    if (!prog_alu_faults(in, in->b.is_reg ? (int64_t)r[in->b.v] : (int64_t)in->b.v))
        return false;
    s->r->status = SIM_PROTOCOL;
    snprintf(s->r->msg, sizeof s->r->msg, "thread P%d: division by zero (%s) at line %d", t,
             in->op == PROG_OP_DIV ? "div" : "rem", in->line);
    return true;
}

/* The common case (no div or rem: prog_alu_faults is false) without a call. */
static inline bool div_zero(sim_t *s, int t, const prog_instr_t *in)
{
    return (in->op == PROG_OP_DIV || in->op == PROG_OP_REM) && div_zero_slow(s, t, in);
}

/* Run local (non-memory) instruction IN on registers R; *PC moves on. As prog_alu and
 * prog_branch_taken compute it (64-bit operands, the result wrapped at 32 bits), inline. */
static inline void exec_local(sim_slot_t *r, int *pc, const prog_instr_t *in)
{
#define OPV(o) ((o).is_reg ? (int64_t)r[(o).v] : (int64_t)(o).v)
#define SET(v) (r[in->reg] = (sim_slot_t)(int32_t)(v))
    switch (in->op) {
    case PROG_OP_MOV: SET(OPV(in->a)); break;
    case PROG_OP_ADD: SET((uint64_t)OPV(in->a) + (uint64_t)OPV(in->b)); break;
    case PROG_OP_SUB: SET((uint64_t)OPV(in->a) - (uint64_t)OPV(in->b)); break;
    case PROG_OP_MUL: SET((uint64_t)OPV(in->a) * (uint64_t)OPV(in->b)); break;
    case PROG_OP_DIV:
    case PROG_OP_REM: SET(prog_alu(in, OPV(in->a), OPV(in->b))); break;
    case PROG_OP_B: *pc = in->target; return;
    case PROG_OP_BEQ:
        if ((int64_t)r[in->reg] == OPV(in->a)) {
            *pc = in->target;
            return;
        }
        break;
    case PROG_OP_BNE:
        if ((int64_t)r[in->reg] != OPV(in->a)) {
            *pc = in->target;
            return;
        }
        break;
    case PROG_OP_BLT:
        if ((int64_t)r[in->reg] < OPV(in->a)) {
            *pc = in->target;
            return;
        }
        break;
    case PROG_OP_BGE:
        if ((int64_t)r[in->reg] >= OPV(in->a)) {
            *pc = in->target;
            return;
        }
        break;
    default: break;
    }
    (*pc)++;
#undef SET
#undef OPV
}

static void thread_advance(sim_t *s, int t, uint64_t at);
static void warp_ready(sim_t *s, int w, uint64_t at);

/* ---- joins (docs/sim.md "Kernel launches and bar.sync") ---- */

/* Release the threads of SCOPE's group (the grid, or work-group G) waiting at a join of
 * that scope, whose last member arrived or finished at cycle AT: they go on after the
 * machine's launch (grid) or barrier (work-group) latency. No message is sent: the
 * fences around the join ran the protocol's release and acquire rows. */
static void join_release(sim_t *s, prog_scope_t scope, int g, uint64_t at)
{
    bool grid = scope == PROG_SCOPE_AGENT;
    uint64_t go = at + (uint64_t)(grid ? s->m->launch : s->m->barrier);
    if (grid)
        s->grid_wait = 0;
    else
        s->wg_wait[g] = 0;
    int last_warp = -1;
    for (int t = 0; t < s->nthreads; t++) {
        thread_t *th = &s->th[t];
        if (th->status != TH_JOIN || (!grid && s->th_wg[t] != g) ||
            s->prog->threads[t].instr[th->pc].scope != scope)
            continue;
        th->status = TH_RUN;
        th->pc++;
        if (th->warp < 0)
            thread_advance(s, t, go);
        else if (th->warp != last_warp)
            warp_ready(s, last_warp = th->warp, go);
    }
}

/* Has the group of scope SCOPE that thread T belongs to all arrived? Then release it. */
static void join_check(sim_t *s, int t, prog_scope_t scope, uint64_t at)
{
    int g = s->th_wg[t];
    if (scope == PROG_SCOPE_AGENT && s->grid_wait && s->grid_wait + s->grid_done == s->nthreads)
        join_release(s, scope, -1, at);
    else if (scope == PROG_SCOPE_WG && s->wg_wait[g] &&
             s->wg_wait[g] + s->wg_done[g] == s->wg_size[g])
        join_release(s, scope, g, at);
}

/* Thread T arrives at its join (pc) at cycle AT. */
static void join_arrive(sim_t *s, int t, uint64_t at)
{
    thread_t *th = &s->th[t];
    prog_scope_t scope = s->prog->threads[t].instr[th->pc].scope;
    th->status = TH_JOIN;
    if (scope == PROG_SCOPE_AGENT)
        s->grid_wait++;
    else
        s->wg_wait[s->th_wg[t]]++;
    join_check(s, t, scope, at);
}

/* Thread T finished at cycle AT: a finished thread counts as arrived at every join. */
static void join_done(sim_t *s, int t, uint64_t at)
{
    if (!s->has_join)
        return;
    s->grid_done++;
    s->wg_done[s->th_wg[t]]++;
    join_check(s, t, PROG_SCOPE_WG, at);
    join_check(s, t, PROG_SCOPE_AGENT, at);
}

/* The work-group index of every thread, and the groups' sizes. */
static void join_setup(sim_t *s)
{
    s->has_join = prog_has_join(s->prog);
    int n = s->nthreads;
    s->th_wg = xcalloc((size_t)n + 1, sizeof(int));
    s->wg_size = xcalloc((size_t)n + 1, sizeof(int));
    s->wg_wait = xcalloc((size_t)n + 1, sizeof(int));
    s->wg_done = xcalloc((size_t)n + 1, sizeof(int));
    for (int t = 0; t < n; t++) {
        int g = -1;
        for (int u = 0; u < t && g < 0; u++)
            if (s->prog->threads[u].wg == s->prog->threads[t].wg)
                g = s->th_wg[u];
        s->th_wg[t] = g < 0 ? s->nwg++ : g;
        s->wg_size[s->th_wg[t]]++;
    }
}

/* Thread T (a one-lane core) finished at cycle AT. */
static void thread_finish(sim_t *s, int t, uint64_t at)
{
    s->th[t].status = TH_DONE;
    s->ndone++;
    if (at > s->last_done)
        s->last_done = at;
    join_done(s, t, at);
}

static bool sb_end_wait(sim_t *s, int t, int w, uint64_t at);

/* Mark the count-down loops of LC (N instructions): 'L: beq r K x ; sub r r 1 ; b L'. */
static void lop_fuse(lop_t *lc, int n)
{
    for (int k = 0; k + 2 < n; k++)
        if (lc[k].op == LOP_BEQ_I && lc[k + 1].op == LOP_SUB_RI && lc[k + 1].reg == lc[k].reg &&
            lc[k + 1].ra == lc[k].reg && lc[k + 1].imm == 1 && lc[k + 2].op == LOP_B &&
            lc[k + 2].target == k)
            lc[k].op = LOP_DOWN;
}

/* Run thread T's local instructions from cycle AT up to its next memory operation, a
 * join or its end. The compiled forms (lop_t) run in the inner loop; the rest as
 * written. Every pass of the outer loop but the last runs one local instruction, so
 * STEPS counts those run. The inner loop tests MAX_LOCAL at branches only: between two
 * branches it runs at most N instructions, so it stops at a branch once STEPS passes
 * MAX_LOCAL - N - 1 and the outer loop takes the rest one at a time. */
static void thread_advance(sim_t *s, int t, uint64_t at)
{
    thread_t *th = &s->th[t];
    const prog_thread_t *pt = &s->prog->threads[t];
    const lop_t *lc = th->lc;
    sim_slot_t *r = th->regs;
    uint64_t alu = (uint64_t)s->m->alu;
    int pc = th->pc, n = pt->ninstr, steps = 0, lim = MAX_LOCAL - n - 1;
#define R(k) ((int64_t)r[k])
#define SET(v) (r[o->reg] = (sim_slot_t)(int32_t)(v))
#define JUMP(c)                           \
    do {                                  \
        o = (c) ? lc + o->target : o + 1; \
        if (steps > lim)                  \
            goto out;                     \
    } while (0)
    for (;;) {
        if (pc >= 0 && pc <= n && steps <= lim) {
            const lop_t *o = lc + pc;
            int from = steps, nops = 0; /* nops: labels (no cycle) */
            for (;;) {
                steps++;
                switch (o->op) {
                case LOP_SLOW: steps--; goto out;
                case LOP_NOP:
                    nops++;
                    o++;
                    break;
                case LOP_MOV_R:
                    SET(R(o->ra));
                    o++;
                    break;
                case LOP_MOV_I:
                    SET(o->imm);
                    o++;
                    break;
                case LOP_ADD_RR:
                    SET((uint64_t)R(o->ra) + (uint64_t)R(o->rb));
                    o++;
                    break;
                case LOP_ADD_RI:
                    SET((uint64_t)R(o->ra) + (uint64_t)o->imm);
                    o++;
                    break;
                case LOP_SUB_RR:
                    SET((uint64_t)R(o->ra) - (uint64_t)R(o->rb));
                    o++;
                    break;
                case LOP_SUB_RI:
                    SET((uint64_t)R(o->ra) - (uint64_t)o->imm);
                    o++;
                    break;
                case LOP_MUL_RR:
                    SET((uint64_t)R(o->ra) * (uint64_t)R(o->rb));
                    o++;
                    break;
                case LOP_MUL_RI:
                    SET((uint64_t)R(o->ra) * (uint64_t)o->imm);
                    o++;
                    break;
                case LOP_B: JUMP(1); break;
                case LOP_BEQ_R: JUMP(R(o->reg) == R(o->rb)); break;
                case LOP_BEQ_I: JUMP(R(o->reg) == o->imm); break;
                case LOP_BNE_R: JUMP(R(o->reg) != R(o->rb)); break;
                case LOP_BNE_I: JUMP(R(o->reg) != o->imm); break;
                case LOP_BLT_R: JUMP(R(o->reg) < R(o->rb)); break;
                case LOP_BLT_I: JUMP(R(o->reg) < o->imm); break;
                case LOP_BGE_R: JUMP(R(o->reg) >= R(o->rb)); break;
                case LOP_BGE_I: JUMP(R(o->reg) >= o->imm); break;
                case LOP_DOWN: {
                    /* The loop's j = r - K turns at once, 3 instructions each, where r
                       counts down to K without wrapping and the limit is not reached;
                       otherwise one BEQ_I. */
                    int64_t v = R(o->reg), k = o->imm;
                    if (v > k && v <= INT32_MAX && k >= INT32_MIN && steps <= lim &&
                        (uint64_t)(v - k) <= (uint64_t)(lim - steps) / 3) {
                        steps += 3 * (int)(v - k);
                        SET(k);
                        o = lc + o->target;
                        break;
                    }
                    JUMP(v == k);
                    break;
                }
                default: __builtin_unreachable(); /* lop_compile writes no other */
                }
            }
        out:
            at += (uint64_t)(steps - from - nops) * alu;
            pc = (int)(o - lc);
        }
        th->pc = pc;
        if (pc >= n) {
            s->r->warp_instrs += (uint64_t)steps;
            if (!sb_end_wait(s, t, -1, at))
                thread_finish(s, t, at);
            return;
        }
        const prog_instr_t *in = &pt->instr[pc];
        if (in->op == PROG_OP_JOIN) {
            s->r->warp_instrs += (uint64_t)steps + 1;
            join_arrive(s, t, at);
            return;
        }
        if (is_mem(in)) {
            s->r->warp_instrs += (uint64_t)steps;
            if (in->indexed && th_loc(s, t, in) < 0) {
                index_error(s, t, in);
                th->status = TH_DONE;
                s->ndone++;
                return;
            }
            s->r->warp_instrs++;
            th->ipc = pc;
            th->status = TH_RUN;
            th->sbg = false;
            th->step = 0;
            th->op_start = at + (uint64_t)s->m->issue;
            th->op_clean = true;
            push(s, th->op_start, EV_ISSUE, t, 0, 0);
            return;
        }
        if (steps > MAX_LOCAL) {
            s->r->warp_instrs += (uint64_t)steps;
            s->r->status = SIM_PROTOCOL;
            snprintf(s->r->msg, sizeof s->r->msg, "thread P%d loops without memory operations", t);
            th->status = TH_DONE;
            s->ndone++;
            return;
        }
        steps++;
        if (div_zero(s, t, in)) {
            s->r->warp_instrs += (uint64_t)steps;
            th->status = TH_DONE;
            s->ndone++;
            return;
        }
        exec_local(r, &pc, in);
        if (in->op != PROG_OP_NOP)
            at += alu;
    }
#undef JUMP
#undef SET
#undef R
}

/* ---- warps (docs/sim.md "Warps") ---- */

/* CU's scheduler runs at cycle AT (once: an event already pending for AT is kept). */
static void sched_at(sim_t *s, int cu, uint64_t at)
{
    if (s->sched[cu].pushed == at)
        return;
    s->sched[cu].pushed = at;
    push(s, at, EV_SCHED, cu, 0, 0);
}

/* Warp W can issue from cycle AT: it joins its CU's scheduler. */
static void warp_ready(sim_t *s, int w, uint64_t at)
{
    cusched_t *q = &s->sched[s->warps[w].cu];
    q->ready[q->n] = w;
    q->at[q->n++] = at;
    sched_at(s, s->warps[w].cu, at);
}

/* Start lane T's access of the current instruction at cycle AT. */
static void lane_issue(sim_t *s, int t, uint64_t at)
{
    thread_t *th = &s->th[t];
    th->status = TH_RUN;
    th->sbg = false;
    th->step = 0;
    th->op_start = at;
    th->op_clean = true;
    push(s, at, EV_ISSUE, t, 0, 0);
}

/* The registers memory instruction IN uses while it runs, as a mask. */
static uint64_t mem_regs(const prog_instr_t *in)
{
    uint64_t m = 0;
    if (in->op == PROG_OP_LD || in->op == PROG_OP_RMW || in->op == PROG_OP_CAS)
        m |= 1ull << in->reg;
    if (in->indexed)
        m |= 1ull << in->idx_reg;
    if (in->op != PROG_OP_FENCE && in->a.is_reg)
        m |= 1ull << in->a.v;
    if (in->op != PROG_OP_FENCE && in->b.is_reg)
        m |= 1ull << in->b.v;
    return m;
}

/* Warp W's memory instruction: the active lanes' accesses (pc PC). A plain load of a
 * location another active lane loads is coalesced into that lane's access (it gets the
 * same value); every other access is issued through the protocol. */
static int warp_mem(sim_t *s, int w, int pc)
{
    warp_t *wp = &s->warps[w];
    wp->nq = wp->qi = wp->ncoal = 0;
    uint32_t stamp = ++s->stamp; /* marks the locations and lines of this instruction */
    if (stamp == 0) {            /* wrapped: clear the marks */
        memset(s->loc_stamp, 0, sizeof(uint32_t) * (size_t)s->prog->nlocs);
        memset(s->line_stamp, 0, sizeof(uint32_t) * (size_t)s->nlines);
        stamp = s->stamp = 1;
    }
    for (int t = wp->first; t < wp->first + wp->n; t++) {
        thread_t *th = &s->th[t];
        const prog_instr_t *in = &s->prog->threads[t].instr[pc];
        if (th->status == TH_DONE || th->pc != pc)
            continue;
        int loc = th_loc(s, t, in);
        if (in->indexed && loc < 0) {
            index_error(s, t, in);
            return -1;
        }
        wp->regs = mem_regs(in);
        th->ipc = pc;
        th->pc = pc + 1;
        th->busy = true;
        th->leader = -1;
        if (in->op != PROG_OP_FENCE && loc >= 0) {
            if (in->op == PROG_OP_LD && in->ord == PROG_ORD_PLAIN && s->loc_stamp[loc] == stamp) {
                th->leader = s->loc_lane[loc]; /* coalesced into that lane's load */
                th->status = TH_RUN;
                wp->ncoal++;
                s->r->coalesced++;
                continue;
            }
            if (s->loc_stamp[loc] != stamp) {
                s->loc_stamp[loc] = stamp;
                s->loc_lane[loc] = t;
            }
            int line = s->loc_line[loc];
            s->r->line_requests += s->line_stamp[line] != stamp;
            s->line_stamp[line] = stamp;
        }
        wp->q[wp->nq++] = t;
    }
    uint64_t at = s->now + (uint64_t)s->m->issue;
    wp->qi = s->m->naive_sc ? 1 : wp->nq;
    wp->pending = wp->qi;
    for (int k = 0; k < wp->qi; k++)
        lane_issue(s, wp->q[k], at);
    warp_ready(s, w, s->now + 1); /* the scoreboard lets it go on (a first lane issues) */
    return 0;
}

/* Local instruction IN reads or writes a register of mask M. */
static bool uses_regs(const prog_instr_t *in, uint64_t m)
{
    if (in->op == PROG_OP_NOP || in->op == PROG_OP_B)
        return false;
    return (m >> in->reg & 1) || (in->a.is_reg && (m >> in->a.v & 1)) ||
           (in->b.is_reg && (m >> in->b.v & 1));
}

/* Issue warp W's next instruction (cycle now): 0, or -1 with the run stopped. */
static int warp_exec(sim_t *s, int w)
{
    warp_t *wp = &s->warps[w];
    int pc = -1;
    const prog_instr_t *in0 = NULL; /* the instruction at pc (of the first lane there) */
    bool sb_ok = wp->sb_ok;
    wp->sb_ok = false;
    if (s->sb && !sb_ok)
        for (int t = wp->first; t < wp->first + wp->n; t++) {
            thread_t *th = &s->th[t];
            if (th->status != TH_DONE && !th->busy && th->pc >= s->prog->threads[t].ninstr) {
                /* a lane ends: not before its CU's buffer drained */
                if (sb_end_wait(s, -1, w, s->now))
                    return 0;
                break;
            }
        }
    for (int t = wp->first; t < wp->first + wp->n; t++) {
        thread_t *th = &s->th[t];
        if (th->status == TH_DONE || (th->busy && th->pc >= s->prog->threads[t].ninstr))
            continue; /* finished, or finishing once its last access completes */
        if (th->pc >= s->prog->threads[t].ninstr) {
            th->status = TH_DONE;
            s->ndone++;
            if (s->now > s->last_done)
                s->last_done = s->now;
            join_done(s, t, s->now);
            continue;
        }
        if (pc < 0 || th->pc < pc) {
            pc = th->pc;
            in0 = &s->prog->threads[t].instr[pc];
        }
    }
    if (wp->pending &&
        (!in0 || is_mem(in0) || in0->op == PROG_OP_JOIN || uses_regs(in0, wp->regs))) {
        wp->blocked = true; /* until the accesses in flight complete */
        return 0;
    }
    if (!in0) {
        for (int t = wp->first; t < wp->first + wp->n; t++)
            if (s->th[t].status != TH_DONE) { /* the last accesses completed */
                s->th[t].status = TH_DONE;
                s->ndone++;
                if (s->now > s->last_done)
                    s->last_done = s->now;
                join_done(s, t, s->now);
            }
        return 0; /* every lane finished */
    }
    if (in0->op == PROG_OP_JOIN) {
        /* The lanes at the join arrive; the warp waits (off the scheduler) until its
           group is released. A lane still behind another pc never arrives: as
           __syncthreads in divergent code, the run then deadlocks. */
        s->r->warp_instrs++;
        wp->local = 0;
        for (int t = wp->first; t < wp->first + wp->n; t++)
            if (s->th[t].status != TH_DONE && s->th[t].status != TH_JOIN && s->th[t].pc == pc)
                join_arrive(s, t, s->now);
        return 0;
    }
    s->r->warp_instrs++;
    if (is_mem(in0)) {
        wp->local = 0;
        return warp_mem(s, w, pc);
    }
    if (++wp->local > MAX_LOCAL) {
        s->r->status = SIM_PROTOCOL;
        snprintf(s->r->msg, sizeof s->r->msg,
                 "warp of threads P%d..P%d loops without memory "
                 "operations",
                 wp->first, wp->first + wp->n - 1);
        return -1;
    }
    for (int t = wp->first; t < wp->first + wp->n; t++) {
        thread_t *th = &s->th[t];
        if (th->status != TH_DONE && th->pc == pc) {
            if (div_zero(s, t, &s->prog->threads[t].instr[pc]))
                return -1;
            exec_local(th->regs, &th->pc, &s->prog->threads[t].instr[pc]);
        }
    }
    warp_ready(s, w, s->now + (in0->op != PROG_OP_NOP ? (uint64_t)s->m->alu : 0));
    return 0;
}

/* Lane T completed its access at cycle AT (its pc moved on): the lanes coalesced into
 * it take its value; naive SC issues the next lane; the last one readies the warp. */
static void lane_complete(sim_t *s, int t, uint64_t at)
{
    int w = s->th[t].warp;
    warp_t *wp = &s->warps[w];
    const prog_instr_t *in = &s->prog->threads[t].instr[s->th[t].ipc];
    s->th[t].busy = false;
    for (int f = wp->first; wp->ncoal && f < wp->first + wp->n; f++) {
        thread_t *th = &s->th[f];
        if (th->leader != t)
            continue;
        th->regs[s->prog->threads[f].instr[th->ipc].reg] = s->th[t].regs[in->reg];
        th->busy = false;
        th->leader = -1;
    }
    if (wp->qi < wp->nq) {
        lane_issue(s, wp->q[wp->qi++], at + (uint64_t)s->m->issue);
        return;
    }
    if (--wp->pending == 0 && wp->blocked) {
        wp->blocked = false;
        warp_ready(s, w, at);
    }
}

/* CU's scheduler at cycle now: issue up to `width` ready warps, picked by loose
 * round-robin (the next ready warp after the last one issued), greedy-then-oldest (the
 * last one issued while it is ready, else the oldest ready warp) or oldest first (warps
 * are numbered in launch order: the lowest ready number). */
static int sched_run(sim_t *s, int cu)
{
    cusched_t *q = &s->sched[cu];
    char pol = s->m->sched[0]; /* l(rr), g(to), o(ldest) */
    if (q->pushed == s->now)
        q->pushed = UINT64_MAX;
    if (q->cycle != s->now) {
        q->cycle = s->now;
        q->used = 0;
    }
    while (q->used < s->m->warp_width) {
        int pick = -1;
        long best = 0;
        for (int k = 0; k < q->n; k++) {
            if (q->at[k] > s->now)
                continue;
            int w = q->ready[k];
            long key = pol == 'g'   ? (w == q->last ? -1 : w)
                       : pol == 'o' ? w
                                    : (long)((w - q->last - 1 + 2 * s->nwarps) % s->nwarps);
            if (pick < 0 || key < best) {
                pick = k;
                best = key;
            }
        }
        if (pick < 0)
            return 0;
        int w = q->ready[pick];
        q->ready[pick] = q->ready[--q->n];
        q->at[pick] = q->at[q->n];
        q->used++;
        q->last = w;
        if (warp_exec(s, w))
            return -1;
    }
    for (int k = 0; k < q->n; k++)
        if (q->at[k] <= s->now) {
            sched_at(s, cu, s->now + 1); /* the rest wait for the next cycle */
            break;
        }
    return 0;
}

/* ---- store buffers (docs/sim.md "Store buffer") ---- */

/* Scope SC's level among wg < agent < system: rm_agent (remote-scope promotion) releases
   the thread's own writes at agent scope. */
static int sb_level(int sc)
{
    return sc == PROG_SCOPE_RM_AGENT ? PROG_SCOPE_AGENT : sc;
}

/* A fence of scope F covers releases of scope SC: the same, or a wider level. */
static bool sb_covers(int f, int sc)
{
    return f == sc || (sb_level(sc) >= PROG_SCOPE_WG && sb_level(sc) <= sb_level(f) &&
                       sb_level(f) <= PROG_SCOPE_SYSTEM);
}

/* The scope whose release IN is (a fence of its CU's hidden thread first), or -1. */
static int sb_release(const prog_instr_t *in)
{
    return in->ord == PROG_ORD_REL || in->ord == PROG_ORD_ACQREL || in->ord == PROG_ORD_SC
               ? (int)in->scope
               : -1;
}

/* B has completed the stores up to TICKET and, for a release of scope SC, a fence after. */
static bool sb_ok(const sbuf_t *b, uint64_t ticket, int sc)
{
    return b->seq_done >= ticket && (sc < 0 || b->fenced[sc] >= ticket);
}

static void sb_wait_add(sbuf_t *b, int id)
{
    if ((size_t)b->nwait == b->capwait)
        util_grow((void **)&b->wait, &b->capwait, (size_t)b->nwait + 1, sizeof(int));
    b->wait[b->nwait++] = id;
}

/* The youngest value B holds for LOC (an entry, else the store in flight): true with *V. */
static bool sb_find(const sbuf_t *b, int loc, sim_slot_t *v)
{
    for (int k = b->n - 1; k >= 0; k--) {
        int e = (b->head + k) % b->cap;
        if (b->loc[e] == loc) {
            *v = b->val[e];
            return true;
        }
    }
    if (b->fly_loc == loc) {
        *v = b->fly_val;
        return true;
    }
    return false;
}

/* Plain store LOC := V enters CU's buffer (which has room, or an entry of LOC with
   coalescing on). */
static void sb_put(sim_t *s, int cu, int loc, sim_slot_t v)
{
    sbuf_t *b = &s->sb[cu];
    if (s->m->sbuf_coalesce)
        for (int k = 0; k < b->n; k++) {
            int e = (b->head + k) % b->cap;
            if (b->loc[e] == loc) {
                b->val[e] = v;
                s->r->sbuf.coalesced++;
                return;
            }
        }
    int e = (b->head + b->n++) % b->cap;
    b->loc[e] = loc;
    b->val[e] = v;
    b->seq[e] = ++b->seq_in;
    s->r->sbuf.buffered++;
}

/* B has an entry LOC's plain store may take (room, or its entry to coalesce into). */
static bool sb_room(const sim_t *s, const sbuf_t *b, int loc)
{
    if (b->n < b->cap)
        return true;
    for (int k = 0; s->m->sbuf_coalesce && k < b->n; k++)
        if (b->loc[(b->head + k) % b->cap] == loc)
            return true;
    return false;
}

/* Thread T's access (all its core events) completes at cycle AT without the protocol:
   a store that took an entry, a load its buffer served (VAL when HAS_VAL). */
static void sb_complete(sim_t *s, int t, bool has_val, int64_t val, uint64_t at)
{
    thread_t *th = &s->th[t];
    th->step = s->maps[s->map_base[t] + th->ipc]->nevents - 1;
    thread_step(s, t, has_val, val, at);
}

/* The value of thread T's store IN. */
static sim_slot_t sb_value(const sim_t *s, int t, const prog_instr_t *in)
{
    return in->a.is_reg ? s->th[t].regs[in->a.v] : (sim_slot_t)(int32_t)in->a.v;
}

/* CU's hidden thread, when idle, issues at cycle AT the fence a waiting release needs (its
   stores completed, no fence of its scope since), else the oldest store, else nothing. */
static void sb_kick(sim_t *s, int cu, uint64_t at)
{
    sbuf_t *b = &s->sb[cu];
    if (b->busy || (s->m->sbuf_lazy && !b->nwait))
        return; /* lazy: only an access waiting for an entry or the drain drains */
    thread_t *th = &s->th[b->tid];
    prog_instr_t *code = s->xprog->threads[b->tid].instr;
    int k = -1;
    for (int j = 0; j < b->nwait && k < 0; j++) {
        int t = b->wait[j];
        if (t >= 0 && s->th[t].sbw == 2 && s->th[t].sbs >= 0 && b->seq_done >= s->th[t].sbt &&
            b->fenced[s->th[t].sbs] < s->th[t].sbt)
            k = 1 + s->th[t].sbs;
    }
    if (k > 0) {
        b->fly_scope = s->sb_fscope[k - 1];
        b->fly_cover = b->seq_done;
        s->r->sbuf.fences++;
    } else if (b->n) {
        k = 0;
        int e = b->head;
        b->fly_loc = b->loc[e];
        b->fly_val = b->val[e];
        b->fly_seq = b->seq[e];
        b->head = (b->head + 1) % b->cap;
        b->n--;
        code[0].loc = b->fly_loc;
        code[0].a.v = b->fly_val;
        s->r->sbuf.drained++;
    } else {
        return;
    }
    b->busy = true;
    th->ipc = k;
    th->step = 0;
    th->status = TH_RUN;
    th->op_start = at;
    th->op_clean = true;
    push(s, at, EV_ISSUE, b->tid, 0, 0);
    if (k)
        return;
    /* An entry is free: the stores waiting for one take it, in order. */
    for (int j = 0; j < b->nwait && b->n < b->cap;) {
        int t = b->wait[j];
        if (t < 0 || s->th[t].sbw != 1) {
            j++;
            continue;
        }
        memmove(b->wait + j, b->wait + j + 1, sizeof(int) * (size_t)(b->nwait - j - 1));
        b->nwait--;
        thread_t *wt = &s->th[t];
        const prog_instr_t *in = &s->prog->threads[t].instr[wt->ipc];
        s->r->sbuf.full_cycles += at - wt->sbsince;
        wt->sbw = 0;
        sb_put(s, cu, th_loc(s, t, in), sb_value(s, t, in));
        sb_complete(s, t, false, 0, at + (uint64_t)s->m->l1_latency);
        j = 0; /* completing may have added a waiter: look again from the start */
    }
}

/* The waiters of CU's buffer whose drain holds at cycle AT go on. */
static void sb_wake(sim_t *s, int cu, uint64_t at)
{
    sbuf_t *b = &s->sb[cu];
    for (int j = 0; j < b->nwait;) {
        int id = b->wait[j];
        bool ok;
        if (id < 0)
            ok = sb_ok(b, s->warps[-1 - id].sbt, -1);
        else
            ok = s->th[id].sbw != 1 &&
                 sb_ok(b, s->th[id].sbt, s->th[id].sbw == 2 ? s->th[id].sbs : -1);
        if (!ok) {
            j++;
            continue;
        }
        memmove(b->wait + j, b->wait + j + 1, sizeof(int) * (size_t)(b->nwait - j - 1));
        b->nwait--;
        if (id < 0) {
            warp_t *wp = &s->warps[-1 - id];
            s->r->sbuf.drain_cycles += at - wp->sbsince;
            wp->sb_ok = true;
            warp_ready(s, -1 - id, at);
        } else if (s->th[id].sbw == 2) {
            thread_t *th = &s->th[id];
            s->r->sbuf.drain_cycles += at - th->sbsince;
            th->sbw = 0;
            th->status = TH_RUN;
            push(s, at, EV_ISSUE, id, 0, 0); /* sbg holds: it goes to the protocol */
        } else {
            thread_t *th = &s->th[id];
            uint64_t go = at > th->sbsince ? at : th->sbsince;
            s->r->sbuf.drain_cycles += go - th->sbsince;
            th->sbw = 0;
            thread_finish(s, id, go);
        }
        j = 0; /* a finish may have changed the list: look again from the start */
    }
}

/* Hidden thread T completed its store or fence at cycle AT. */
static void sb_done(sim_t *s, int t, uint64_t at)
{
    int cu = s->th[t].cu;
    sbuf_t *b = &s->sb[cu];
    s->th[t].status = TH_DONE; /* idle */
    b->busy = false;
    if (b->fly_loc >= 0) {
        b->seq_done = b->fly_seq;
        b->fly_loc = -1;
    } else {
        for (int sc = 0; sc < SB_SCOPES; sc++)
            if (sb_covers(b->fly_scope, sc) && b->fenced[sc] < b->fly_cover)
                b->fenced[sc] = b->fly_cover;
        b->fly_scope = -1;
    }
    sb_wake(s, cu, at);
    sb_kick(s, cu, at + (uint64_t)s->m->issue);
}

/* Thread T (W < 0) or warp W's lanes end at cycle AT: true when they wait for the stores
   buffered in their CU so far to complete (then sb_wake finishes them). */
static bool sb_end_wait(sim_t *s, int t, int w, uint64_t at)
{
    if (!s->sb)
        return false;
    int cu = w >= 0 ? s->warps[w].cu : s->th[t].cu;
    sbuf_t *b = &s->sb[cu];
    if (sb_ok(b, b->seq_in, -1))
        return false;
    s->r->sbuf.drain_waits++;
    if (w >= 0) {
        s->warps[w].sbt = b->seq_in;
        s->warps[w].sbsince = at;
        sb_wait_add(b, -1 - w);
        if (s->m->sbuf_lazy)
            sb_kick(s, cu, at + (uint64_t)s->m->issue);
        return true;
    }
    thread_t *th = &s->th[t];
    th->status = TH_SBUF;
    th->sbw = 3;
    th->sbt = b->seq_in;
    th->sbsince = at;
    sb_wait_add(b, t);
    if (s->m->sbuf_lazy)
        sb_kick(s, cu, at + (uint64_t)s->m->issue);
    return true;
}

/* Thread T's access meets its CU's buffer at cycle now, before its first core event: 1 it
   goes on to the protocol; 0 taken here (a plain store buffered, a plain load forwarded
   the youngest buffered value of its location) or waiting (a plain store for an entry, any
   other access but a plain load for the drain: the stores buffered so far completed, and
   for a release a fence of its scope issued after them). */
static int sb_gate(sim_t *s, int t)
{
    thread_t *th = &s->th[t];
    int cu = th->cu;
    sbuf_t *b = &s->sb[cu];
    const prog_instr_t *in = &s->prog->threads[t].instr[th->ipc];
    uint64_t l1 = s->now + (uint64_t)s->m->l1_latency;
    th->sbg = true;
    if ((in->op == PROG_OP_LD || in->op == PROG_OP_ST) && in->ord == PROG_ORD_PLAIN) {
        int loc = th_loc(s, t, in);
        if (in->op == PROG_OP_LD) {
            sim_slot_t v;
            if (!sb_find(b, loc, &v))
                return 1;
            s->r->sbuf.forwarded++;
            sb_complete(s, t, true, v, l1);
            return 0;
        }
        if (!sb_room(s, b, loc)) {
            s->r->sbuf.full_waits++;
            th->status = TH_SBUF;
            th->sbw = 1;
            th->sbsince = s->now;
            th->op_clean = false;
            sb_wait_add(b, t);
            if (s->m->sbuf_lazy)
                sb_kick(s, cu, s->now + (uint64_t)s->m->issue);
            return 0;
        }
        sb_put(s, cu, loc, sb_value(s, t, in));
        sb_kick(s, cu, s->now + (uint64_t)s->m->issue);
        sb_complete(s, t, false, 0, l1);
        return 0;
    }
    int sc = sb_release(in);
    if (s->sb_wglocal && in->scope == PROG_SCOPE_WG) {
        /* The protocol performs wg scope at the L1 ('local wg'): the CU's threads see the
           buffer (plain loads are forwarded) and every store done at the L1, so a
           wg-scoped access waits only for its own location's stores, and a wg-scoped
           release for no fence. */
        sim_slot_t v;
        if (in->op == PROG_OP_FENCE || !sb_find(b, th_loc(s, t, in), &v))
            return 1;
        sc = -1;
    }
    if (sb_ok(b, b->seq_in, sc))
        return 1;
    s->r->sbuf.drain_waits++;
    th->status = TH_SBUF;
    th->sbw = 2;
    th->sbs = (int8_t)sc;
    th->sbt = b->seq_in;
    th->sbsince = s->now;
    th->op_clean = false;
    sb_wait_add(b, t);
    sb_kick(s, cu, s->now + (uint64_t)s->m->issue);
    return 0;
}

/* ---- events ---- */

static int retry(sim_t *s, int i)
{
    inst_t *in = &s->inst[i];
    in->retry_set = false;
    int n = in->nstall;
    /* The stalled items are tried in order; those that stall again move down the list in
       place (stall_put writes at nstall, never past the item being tried; want_retry reads
       nstall while rows fire). Only handle adds to a list, never while this runs. */
    item_t *items = in->stall;
    in->nstall = 0;
    for (int k = 0; k < n; k++)
        if (items[k].kind == EV_ARRIVE)
            s->chan[items[k].chan].blocked--;
    int rc = 0;
    uint64_t fired = s->fired;
    for (int k = 0; k < n && !rc; k++) {
        const item_t *it = &items[k]; /* stall_put moves it down, or leaves it */
        int f;
        if (it->kind == EV_ARRIVE) {
            if (it->ordered && s->chan[it->chan].blocked) {
                stall_put(s, in, it); /* behind an earlier message of its channel */
                continue;
            }
            if (it->memo && in->rm[in->index[it->line]].ver == it->ver) {
                /* Its line's record is as when a stall row held it: that row holds it
                   again, and trying has no effect (memo_safe). */
                s->memo_ok = true;
                s->memo_ver = it->ver;
                stall_put(s, in, it);
                continue;
            }
            f = try_msg(s, it->id);
            if (f > 0)
                s->r->stall_msg_cycles += s->now - it->since;
        } else {
            f = try_core(s, it->id);
            if (f > 0)
                s->r->stall_cycles += s->now - it->since;
        }
        if (f < 0)
            rc = -1;
        else if (f == 0)
            stall_put(s, in, it);
    }
    /* A row fired in this pass may have unblocked an item tried before it; with a
       clock, guards change with time alone: try again next cycle. */
    if (!rc && in->nstall && (s->p->clock || s->fired != fired))
        want_retry(s, i, s->now + 1);
    return rc;
}

static int handle(sim_t *s, const event_t *e)
{
    switch (e->kind) {
    case EV_ISSUE: {
        if (s->sb && e->a < s->nthreads && !s->th[e->a].sbg && !sb_gate(s, e->a))
            return s->r->status == SIM_DONE ? 0 : -1;
        int f = try_core(s, e->a);
        if (f == 0) {
            s->th[e->a].op_clean = false;
            stall_add(s, s->th[e->a].inst, EV_ISSUE, e->a);
            if (s->p->clock)
                want_retry(s, s->th[e->a].inst, s->now + 1);
        }
        return f < 0 ? -1 : 0;
    }
    case EV_ARRIVE: {
        msg_t *g = &s->msgs[e->a];
        if (g->nh >= 0 &&
            (s->inst[g->dst].cu >= 0 || (s->p->nets[g->net].ordered && s->chan[g->chan].blocked)))
            net_take(s, g, s->now); /* a CU's input buffer, or a blocked channel's, takes it */
        if (s->p->nets[g->net].ordered && s->chan[g->chan].blocked) {
            stall_add(s, g->dst, EV_ARRIVE, e->a);
            return 0;
        }
        int f = try_msg(s, e->a);
        g = &s->msgs[e->a]; /* its sends may have moved the pool */
        if (f == 0) {
            stall_add(s, g->dst, EV_ARRIVE, e->a);
            if (s->p->clock)
                want_retry(s, g->dst, s->now + 1);
        }
        return f < 0 ? -1 : 0;
    }
    case EV_NET:
        if (s->now >= s->net_ev_at)
            s->net_ev_at = UINT64_MAX;
        net_hop_run(s->net, s->now, net_delivered, s);
        net_wake(s);
        return 0;
    case EV_RETRY: return retry(s, e->a);
    case EV_SCHED: return sched_run(s, e->a);
    case EV_DRAM: {
        uint64_t t = dram_schedule(s->dram, e->a, s->now, dram_issued, s);
        if (t != DRAM_NEVER)
            push(s, t, EV_DRAM, e->a, 0, 0);
        return 0;
    }
    case EV_DRAMDONE: {
        if (e->c < 0) { /* a first touch's fill: the messages waiting for it go on */
            s->inst[e->a].held[e->b] = 2;
            want_retry(s, e->a, s->now);
            return 0;
        }
        /* The data is back; while the line's row for it stalls, it waits a cycle. */
        int f = try_internal(s, e->a, e->b, e->c);
        if (f == 0) {
            sim_slot_t *r = line_rec(s, e->a, e->b, false);
            int st = r ? r[0] : s->p->ctrls[s->inst[e->a].ctrl].init_state;
            if (s->ev_states[s->inst[e->a].ctrl * s->p->nevents + e->c] >> st & 1)
                push(s, s->now + 1, EV_DRAMDONE, e->a, e->b, e->c);
        }
        return f < 0 ? -1 : 0;
    }
    case EV_TIMED: {
        if (e->b >= 0)
            return try_internal(s, e->a, e->b, e->c) < 0 ? -1 : 0;
        /* A controller-level event the machine times fires every so many cycles while
           some thread runs. */
        s->in_periodic = true;
        int f = try_internal(s, e->a, -1, e->c);
        s->in_periodic = false;
        if (s->ndone < s->nthreads)
            push(s, s->now + (uint64_t)s->ev_lat[e->c], EV_TIMED, e->a, -1, e->c);
        return f < 0 ? -1 : 0;
    }
    }
    return 0;
}

/* The network's statistics over a run of END cycles. */
static void net_stats(sim_t *s, uint64_t end, sim_net_stats_t *o)
{
    memset(o, 0, sizeof *o);
    o->messages = s->net_msgs;
    if (s->net_msgs)
        o->latency_mean = (double)s->net_lat_sum / (double)s->net_msgs;
    o->latency_max = s->net_lat_max;
    snprintf(o->topology, sizeof o->topology, "links");
    if (s->net) {
        net_summary_t ns;
        net_summary(s->net, end, &ns);
        if (s->m->topology == NET_TOPO_MESH)
            snprintf(o->topology, sizeof o->topology, "mesh %dx%d", s->m->topo_cols,
                     s->m->topo_rows);
        else
            snprintf(o->topology, sizeof o->topology, "crossbar");
        o->links = ns.links;
        o->util_mean = ns.util_mean;
        o->util_max = ns.util_max;
        snprintf(o->busiest, sizeof o->busiest, "%s", ns.busiest);
        o->hops_mean = ns.hops_mean;
        o->hol_messages = ns.hol_messages;
        o->hol_cycles = ns.hol_cycles;
        o->full_messages = ns.full_messages;
        o->full_cycles = ns.full_cycles;
        return;
    }
    double sum = 0;
    for (int i = 0; i < s->ninst; i++)
        for (int dir = 0; dir < 2; dir++) {
            uint64_t busy = dir ? s->inst[i].in_busy : s->inst[i].out_busy;
            if (!busy)
                continue;
            double u = end ? (double)busy / (double)end : 0;
            o->links++;
            sum += u;
            if (u > o->util_max || o->links == 1) {
                o->util_max = u;
                const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
                snprintf(o->busiest, sizeof o->busiest, "%.24s[%d] %s", c->name,
                         s->inst[i].cu < 0 ? 0 : s->inst[i].cu, dir ? "in" : "out");
            }
        }
    if (o->links)
        o->util_mean = sum / o->links;
}

/* ---- final state ---- */

/* Instance I's record of LINE, or (none yet) its initial record built in BUF, which
 * line_rec would create: the final check reads records and creates none, so a run of
 * 128 CUs does not allocate a record per instance and line at its end. */
static const sim_slot_t *final_rec(sim_t *s, int i, int line, sim_slot_t *buf)
{
    const sim_slot_t *r = line_rec(s, i, line, false);
    if (r)
        return r;
    const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
    memset(buf, 0, (size_t)s->inst[i].lw * sizeof(sim_slot_t));
    buf[0] = c->init_state;
    for (int v = 0; v < c->nlinevars; v++)
        var_init(s, i, line, buf, v);
    return buf;
}

static int64_t final_mem(sim_t *s, int l)
{
    const proto_t *p = s->p;
    int line = s->loc_line[l];
    sim_slot_t buf[256];
    for (int f = 0; f < p->nfinals; f++) {
        const proto_final_t *fd = &p->finals[f];
        for (int i = 0; i < s->ninst; i++) {
            if (s->inst[i].ctrl != fd->ctrl)
                continue;
            if (fd->states && !line_rec(s, i, line, false) &&
                !(fd->states >> p->ctrls[fd->ctrl].init_state & 1))
                continue; /* no record: in the initial state, which this final skips */
            const sim_slot_t *ln = final_rec(s, i, line, buf);
            if (fd->states && !(fd->states >> ln[0] & 1))
                continue;
            if (fd->mask >= 0 && !(ln[s->lv_off[fd->ctrl][fd->mask]] >> s->locpos[l] & 1))
                continue;
            return ln[s->lv_off[fd->ctrl][fd->var] + s->locpos[l]];
        }
    }
    for (int i = 0; i < s->ninst; i++)
        if (s->inst[i].ctrl == s->home_ctrl)
            return final_rec(s, i, line, buf)[s->lv_off[s->home_ctrl][s->home_var] + s->locpos[l]];
    return s->prog->locs[l].init;
}

static void final_check(sim_t *s)
{
    prog_val_t(*regs)[PROG_MAX_REGS] = xcalloc((size_t)s->nthreads + 1, sizeof *regs);
    prog_val_t *mem = xcalloc((size_t)s->prog->nlocs + 1, sizeof *mem);
    for (int t = 0; t < s->nthreads; t++)
        for (int k = 0; k < PROG_MAX_REGS; k++)
            regs[t][k] = s->th[t].regs[k];
    for (int l = 0; l < s->prog->nlocs; l++)
        mem[l] = final_mem(s, l);
    bool v = prog_cond_eval(s->prog->cond, (const prog_val_t(*)[PROG_MAX_REGS])regs, mem);
    s->r->observed = v;
    s->r->has_check = s->prog->quant != PROG_EXISTS;
    s->r->correct = s->prog->quant == PROG_FORALL       ? v
                    : s->prog->quant == PROG_NOT_EXISTS ? !v
                                                        : true;
    free(regs);
    free(mem);
}

/* ---- construction ---- */

static int type_width(const sim_t *s, const proto_type_t *t)
{
    return t->kind == PROTO_T_DATA ? s->maxlocs : 1;
}

static bool expr_has_apply(const proto_expr_t *e)
{
    return e && (e->kind == PROTO_E_APPLY || expr_has_apply(e->a) || expr_has_apply(e->b) ||
                 expr_has_apply(e->c) || expr_has_apply(e->d));
}

/* E is not a constant: it reads a variable, the message, the request, the node,
   the line or the clock (a constant is literals, parameters and operators). */
static bool not_const(const proto_expr_t *e, int states_ok)
{
    switch (e->kind) {
    case PROTO_E_INT:
    case PROTO_E_PARAM:
    case PROTO_E_NONE:
    case PROTO_E_NOT:
    case PROTO_E_NEG:
    case PROTO_E_BIN:
    case PROTO_E_MAX:
    case PROTO_E_MIN: return false;
    case PROTO_E_COUNT: return !states_ok; /* the line's states at every instance */
    default: return true;
    }
}

/* E is not what inv_eval computes (a state-only invariant: constants, operators,
   count() over states below 64). */
static bool counts_ctrl(const proto_expr_t *e, int c)
{
    return e->kind == PROTO_E_COUNT && e->index == c;
}

static bool not_inv(const proto_expr_t *e, int arg)
{
    (void)arg;
    if (e->kind == PROTO_E_BIN)
        return !e->op || !strchr("+-<l>g=!&|", e->op);
    return not_const(e, 1);
}

/* What fire and reset_dead can skip, worked out once: each row's ROWF_* flags; each
   dead line variable's initial value where it is a constant (evaluated here as var_init
   would); whether the invariants read the line's states and constants only. */
static void build_fast(sim_t *s)
{
    const proto_t *p = s->p;
    s->row_fl = xcalloc((size_t)p->nctrls * (size_t)s->maxrows + 1, 1);
    s->dead_const = xcalloc((size_t)p->nctrls + 1, sizeof(bool *));
    s->dead_val = xcalloc((size_t)p->nctrls + 1, sizeof(sim_slot_t *));
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        for (int r = 0; r < pc->nrows; r++) {
            const proto_row_t *row = &pc->rows[r];
            uint8_t f = 0;
            for (int a = 0; a < row->nactions; a++) {
                const proto_action_t *ac = &row->actions[a];
                if (ac->kind == PROTO_A_SEND)
                    f |= ROWF_SEND;
                else if (ac->kind == PROTO_A_ASSIGN)
                    f |= ac->line_var ? ROWF_LV : ROWF_CV;
                else if (ac->kind == PROTO_A_DONE && !ac->tid)
                    f |= ROWF_REGS;
            }
            s->row_fl[c * s->maxrows + r] = f;
        }
        s->dead_const[c] = xcalloc((size_t)pc->nlinevars + 1, sizeof(bool));
        s->dead_val[c] = xcalloc((size_t)pc->nlinevars + 1, sizeof(sim_slot_t));
        int i0 = -1;
        for (int i = 0; i < s->ninst && i0 < 0; i++)
            if (s->inst[i].ctrl == c)
                i0 = i;
        for (int v = 0; v < pc->nlinevars && i0 >= 0; v++) {
            const proto_var_t *var = &pc->linevars[v];
            if (var->init_initial || var->type.kind == PROTO_T_DATA)
                continue;
            if (!var->init) {
                s->dead_const[c][v] = true; /* stays 0 */
                continue;
            }
            if (proto_expr_any(var->init, not_const, 0))
                continue;
            sim_ctx_t x = {.L = &s->L,
                           .ops = &sim_ops,
                           .user = s,
                           .inst = i0,
                           .line = -1,
                           .tid = -1,
                           .msg_src = -1,
                           .cvars = s->inst[i0].cvars,
                           .err = &s->err};
            sim_val_t val;
            if (SIM_ROWS(eval)(&x, var->init, &val)) {
                s->err = (sys_error_t){0}; /* var_init meets it again at the reset */
                continue;
            }
            s->dead_const[c][v] = true;
            s->dead_val[c][v] = (sim_slot_t)val;
        }
    }
    /* reset_dead's variables: per controller and state, those it resets there. */
    size_t ndl = 0;
    for (int c = 0; c < p->nctrls; c++)
        ndl += 64 * ((size_t)p->ctrls[c].nlinevars + 1);
    s->dead_off = xcalloc((size_t)p->nctrls * 64 + 1, sizeof(int));
    s->dead_list = xmalloc((ndl + 1) * sizeof(int));
    s->dead_idem = xcalloc((size_t)p->nctrls * 64 + 1, sizeof(bool));
    int nd = 0;
    for (int c = 0; c < p->nctrls; c++)
        for (int st = 0; st < 64; st++) {
            s->dead_off[c * 64 + st] = nd;
            for (int v = 0; v < p->ctrls[c].nlinevars; v++) {
                const proto_var_t *var = &p->ctrls[c].linevars[v];
                if (var->live != ~(uint64_t)0 && var->type.kind != PROTO_T_DATA &&
                    var->type.kind != PROTO_T_TIME && !(var->live >> st & 1))
                    s->dead_list[nd++] = v;
            }
            s->dead_list[nd++] = -1;
            s->dead_idem[c * 64 + st] = true;
            for (const int *vp = s->dead_list + s->dead_off[c * 64 + st]; *vp >= 0; vp++)
                if (!s->dead_const[c][*vp] && !p->ctrls[c].linevars[*vp].init_initial)
                    s->dead_idem[c * 64 + st] = false;
        }
    /* find_row's candidates: per controller, event and state (64: no line record). */
    size_t ncand = 0, nkey = (size_t)p->nctrls * (size_t)p->nevents * 65;
    for (int c = 0; c < p->nctrls; c++)
        ncand += (size_t)(p->ctrls[c].nrows + p->nevents) * 65; /* rows, and an end each */
    s->cand = xmalloc(sizeof(int) * (ncand + 1));
    s->cand_off = xmalloc(sizeof(int) * (nkey + 1));
    int nc = 0;
    for (int c = 0; c < p->nctrls; c++)
        for (int e = 0; e < p->nevents; e++)
            for (int st = 0; st <= 64; st++) {
                s->cand_off[((size_t)c * p->nevents + e) * 65 + st] = nc;
                for (const int *rp = s->ev_rows[c * p->nevents + e]; *rp >= 0; rp++) {
                    uint64_t m = p->ctrls[c].rows[*rp].states;
                    if (st < 64 ? (m >> st & 1) : m == 0)
                        s->cand[nc++] = *rp;
                }
                s->cand[nc++] = -1;
            }
    s->inv_states = true;
    for (int k = 0; k < p->ninvs; k++)
        s->inv_states &= !proto_expr_any(p->invs[k].expr, not_inv, 0);
    s->inv_seen = xcalloc((size_t)s->nlines + 1, 1);
    if (!p->ninvs || !s->inv_states)
        return;
    s->inv_reads = xcalloc((size_t)p->nctrls + 1, sizeof(bool));
    for (int c = 0; c < p->nctrls; c++)
        for (int k = 0; k < p->ninvs; k++)
            s->inv_reads[c] |= proto_expr_any(p->invs[k].expr, counts_ctrl, c);
    s->st_base = xcalloc((size_t)p->nctrls + 1, sizeof(int));
    for (int c = 0; c < p->nctrls; c++) {
        s->st_base[c] = s->nst;
        s->nst += p->ctrls[c].nstates;
    }
    s->st_cnt = xcalloc((size_t)s->nlines * (size_t)s->nst + 1, sizeof(int32_t));
    for (int i = 0; i < s->ninst; i++) /* every line starts in its initial state */
        for (int l = 0; l < s->nlines; l++)
            s->st_cnt[(size_t)l * s->nst + s->st_base[s->inst[i].ctrl] +
                      p->ctrls[s->inst[i].ctrl].init_state]++;
}

static int event_by_name(const proto_t *p, const char *name)
{
    for (int e = 0; e < p->nevents; e++)
        if (!strcmp(p->events[e].name, name))
            return e;
    return -1;
}

/* Threads T and U can be lanes of one warp: one `simt` template, work-group and CU,
 * and the same instructions (operation, order, scope, branch targets) at every pc. */
static bool same_warp(const prog_t *prog, int t, int u)
{
    const prog_thread_t *a = &prog->threads[t], *b = &prog->threads[u];
    if (!a->simt || a->simt != b->simt || a->wg != b->wg || a->cu != b->cu ||
        a->ninstr != b->ninstr)
        return false;
    for (int k = 0; k < a->ninstr; k++) {
        const prog_instr_t *x = &a->instr[k], *y = &b->instr[k];
        if (x->op != y->op || x->ord != y->ord || x->scope != y->scope || x->rmw != y->rmw ||
            x->target != y->target || x->reg != y->reg)
            return false;
    }
    return true;
}

/* Group consecutive lanes into warps of the machine's `lanes`; a thread alone stays a
 * one-lane core (the old thread model, event for event). */
static void build_warps(sim_t *s)
{
    const prog_t *prog = s->prog;
    for (int t = 0; t < prog->nthreads; t++)
        s->th[t].warp = s->th[t].leader = -1;
    s->warps = xcalloc((size_t)prog->nthreads + 1, sizeof *s->warps);
    for (int t = 0; t < prog->nthreads;) {
        int e = t + 1;
        while (e < prog->nthreads && e - t < s->m->lanes && same_warp(prog, t, e))
            e++;
        if (e - t >= 2) {
            warp_t *wp = &s->warps[s->nwarps];
            wp->first = t;
            wp->n = e - t;
            wp->cu = prog->threads[t].cu;
            wp->q = xcalloc((size_t)wp->n, sizeof(int));
            for (int k = t; k < e; k++)
                s->th[k].warp = s->nwarps;
            s->nwarps++;
        }
        t = e;
    }
    s->loc_stamp = xcalloc((size_t)prog->nlocs + 1, sizeof(uint32_t));
    s->loc_lane = xcalloc((size_t)prog->nlocs + 1, sizeof(int));
    s->line_stamp = xcalloc((size_t)s->nlines + 1, sizeof(uint32_t));
    s->sched = xcalloc((size_t)s->ncus + 1, sizeof *s->sched);
    for (int c = 0; c < s->ncus; c++) {
        s->sched[c].ready = xcalloc((size_t)s->nwarps + 1, sizeof(int));
        s->sched[c].at = xcalloc((size_t)s->nwarps + 1, sizeof(uint64_t));
        s->sched[c].last = -1;
        s->sched[c].pushed = UINT64_MAX;
    }
    s->r->warps = s->nwarps;
    s->r->lanes = s->m->lanes;
}

/* The machine's topology (docs/sim.md "Network"): a crossbar has a port per CU and
   one for the shared level (with 'l2 spread': one per L2 bank); a mesh places CU c at
   node c mod its size and the shared level at its 'l2' node, or bank b at node
   l2_nodes[b mod n], or ('l2 spread') evenly: k = b x nodes / banks in row-major order,
   each row's column shifted by its row number (x = (k mod COLS + y) mod COLS, y = k / COLS),
   so an 8x16 mesh's 16 banks sit one per row, two per column. One VC per protocol network. */
static void net_setup(sim_t *s)
{
    const sim_machine_t *m = s->m;
    if (m->topology == NET_TOPO_LINKS)
        return;
    int banks = m->l2_banks;
    bool spread = m->topo_l2_spread || m->topo_l2_n;
    s->net_ev_at = UINT64_MAX;
    s->net = net_new(m->topology, s->ncus + (m->topo_l2_spread ? banks : 1), m->topo_cols,
                     m->topo_rows, m->topo_hop, m->bandwidth, s->p->nnets, m->topo_buffer);
    int nodes = net_nodes(s->net);
    if (spread) {
        s->bank_node = xcalloc((size_t)banks, sizeof(int));
        for (int b = 0; b < banks; b++) {
            if (m->topology != NET_TOPO_MESH)
                s->bank_node[b] = s->ncus + b;
            else if (m->topo_l2_n)
                s->bank_node[b] = m->topo_l2_nodes[b % m->topo_l2_n];
            else {
                int k = (int)((int64_t)b * nodes / banks), y = k / m->topo_cols;
                s->bank_node[b] = y * m->topo_cols + (k % m->topo_cols + y) % m->topo_cols;
            }
        }
    }
    s->inst_node = xcalloc((size_t)s->ninst + 1, sizeof(int));
    for (int i = 0; i < s->ninst; i++) {
        int cu = s->inst[i].cu;
        if (cu < 0 && spread)
            s->inst_node[i] = s->bank_node[0];
        else if (m->topology == NET_TOPO_MESH)
            s->inst_node[i] = cu >= 0 ? cu % nodes : m->topo_l2;
        else
            s->inst_node[i] = cu >= 0 ? cu : s->ncus;
    }
}

/* Local instruction IN of a thread of NINSTR instructions, compiled (lop_t). */
static lop_t lop_compile(const prog_instr_t *in, int ninstr)
{
    lop_t o = {.op = LOP_SLOW};
    bool ar = in->a.is_reg, br = in->b.is_reg;
    bool no_regs = in->op == PROG_OP_NOP || in->op == PROG_OP_B; /* read no register */
    bool regs_ok = no_regs || (in->reg >= 0 && in->reg < PROG_MAX_REGS &&
                               (!ar || (in->a.v >= 0 && in->a.v < PROG_MAX_REGS)) &&
                               (!br || (in->b.v >= 0 && in->b.v < PROG_MAX_REGS)));
    bool branch = in->op == PROG_OP_B || in->op == PROG_OP_BEQ || in->op == PROG_OP_BNE ||
                  in->op == PROG_OP_BLT || in->op == PROG_OP_BGE;
    if (!regs_ok || (branch && (in->target < 0 || in->target > ninstr)))
        return o;
    prog_operand_t a = in->a, b = in->b;
    if (in->op == PROG_OP_ADD || in->op == PROG_OP_MUL) { /* commute: a register first */
        if (!ar && br) {
            a = in->b;
            b = in->a;
        }
    } else if (in->op == PROG_OP_MOV || branch) {
        b = a; /* the one operand: _R's ra, _I's imm */
    }
    if (!no_regs)
        o.reg = (uint8_t)in->reg;
    o.ra = a.is_reg ? (uint8_t)a.v : 0;
    o.rb = b.is_reg ? (uint8_t)b.v : 0;
    o.imm = b.is_reg ? 0 : b.v;
    o.target = branch ? in->target : 0;
    bool rr = a.is_reg && b.is_reg, ri = a.is_reg && !b.is_reg;
    switch (in->op) {
    case PROG_OP_NOP: o.op = LOP_NOP; break;
    case PROG_OP_MOV: o.op = a.is_reg ? LOP_MOV_R : LOP_MOV_I; break;
    case PROG_OP_ADD: o.op = rr ? LOP_ADD_RR : ri ? LOP_ADD_RI : LOP_SLOW; break;
    case PROG_OP_SUB: o.op = rr ? LOP_SUB_RR : ri ? LOP_SUB_RI : LOP_SLOW; break;
    case PROG_OP_MUL: o.op = rr ? LOP_MUL_RR : ri ? LOP_MUL_RI : LOP_SLOW; break;
    case PROG_OP_B: o.op = LOP_B; break;
    case PROG_OP_BEQ: o.op = a.is_reg ? LOP_BEQ_R : LOP_BEQ_I; break;
    case PROG_OP_BNE: o.op = a.is_reg ? LOP_BNE_R : LOP_BNE_I; break;
    case PROG_OP_BLT: o.op = a.is_reg ? LOP_BLT_R : LOP_BLT_I; break;
    case PROG_OP_BGE: o.op = a.is_reg ? LOP_BGE_R : LOP_BGE_I; break;
    default: break;
    }
    return o;
}

/* The program with one hidden thread per CU appended (the store buffers' drains): each
 * has a store (instruction 0; sb_kick sets its location and value) and, at 1 + S, the
 * release fence for releases of scope S (sb_build sets them). */
static void sb_prog(sim_t *s, int ncus)
{
    const prog_t *p = s->prog;
    prog_t *x = xmalloc(sizeof *x);
    *x = *p;
    x->nthreads = p->nthreads + ncus;
    x->threads = xcalloc((size_t)x->nthreads, sizeof *x->threads);
    memcpy(x->threads, p->threads, sizeof *x->threads * (size_t)p->nthreads);
    for (int c = 0; c < ncus; c++) {
        prog_thread_t *th = &x->threads[p->nthreads + c];
        th->wg = -1 - c;
        th->cu = c;
        th->ninstr = 1 + SB_SCOPES;
        th->instr = xcalloc((size_t)th->ninstr, sizeof *th->instr);
        th->instr[0].op = PROG_OP_ST;
        for (int k = 1; k < th->ninstr; k++)
            th->instr[k].op = PROG_OP_FENCE;
    }
    s->xprog = x;
    s->prog = x;
    s->nall = x->nthreads;
}

/* The map of a release fence covering releases of scope SC (itself, else a wider level of
   wg < agent < system: sb_covers), with *SCOPE its scope and *ORD its order; NULL: none. */
static const proto_map_t *sb_fence_map(const proto_t *p, int sc, int *scope, int *ord)
{
    static const int ords[] = {PROG_ORD_REL, PROG_ORD_ACQREL, PROG_ORD_SC};
    int cand[SB_SCOPES + 1], nc = 0;
    cand[nc++] = sc;
    for (int f = sb_level(sc) >= PROG_SCOPE_WG ? sb_level(sc) : PROG_SCOPE_SYSTEM + 1;
         f <= PROG_SCOPE_SYSTEM; f++)
        if (f != sc)
            cand[nc++] = f;
    for (int j = 0; j < nc; j++)
        for (int k = 0; k < 3; k++) {
            int f = cand[j];
            const proto_map_t *mp = proto_find_map(p, PROG_OP_FENCE, ords[k], f);
            if (mp) {
                *scope = f;
                *ord = ords[k];
                return mp;
            }
        }
    return NULL;
}

/* The store buffers: per CU its ring and hidden thread, whose store and fences get
   their core maps (a release whose scope no release fence covers: an error). */
static int sb_build(sim_t *s, diag_t *err)
{
    const proto_t *p = s->p;
    const proto_map_t *fmap[SB_SCOPES] = {0};
    int ford[SB_SCOPES] = {0};
    s->sb_wglocal = p->wg_local;
    for (int t = 0; t < s->nthreads; t++)
        for (int k = 0; k < s->prog->threads[t].ninstr; k++) {
            const prog_instr_t *in = &s->prog->threads[t].instr[k];
            if (is_mem(in) && in->scope == PROG_SCOPE_RM_AGENT)
                s->sb_wglocal = false;
            int sc = is_mem(in) ? sb_release(in) : -1;
            if (sc < 0 || fmap[sc])
                continue;
            fmap[sc] = sb_fence_map(p, sc, &s->sb_fscope[sc], &ford[sc]);
            if (!fmap[sc]) {
                diag_set(err, s->prog->file, in->line, in->col,
                         "machine %s: sbuf: protocol %s has no release fence for this %s "
                         "(its CU's store buffer drains with one)",
                         s->m->name, p->name, prog_ord_name(in->ord));
                return -1;
            }
        }
    const proto_map_t *st = proto_find_map(p, PROG_OP_ST, PROG_ORD_PLAIN, PROG_SCOPE_NONE);
    s->sb = xcalloc((size_t)s->ncus, sizeof *s->sb);
    for (int c = 0; c < s->ncus; c++) {
        sbuf_t *b = &s->sb[c];
        b->tid = s->nthreads + c;
        b->cap = s->m->sbuf;
        b->loc = xcalloc((size_t)b->cap, sizeof(int));
        b->val = xcalloc((size_t)b->cap, sizeof(sim_slot_t));
        b->seq = xcalloc((size_t)b->cap, sizeof(uint64_t));
        b->fly_loc = b->fly_scope = -1;
        s->th[b->tid].status = TH_DONE; /* idle */
        prog_instr_t *code = s->xprog->threads[b->tid].instr;
        s->maps[s->map_base[b->tid]] = st;
        for (int sc = 0; sc < SB_SCOPES; sc++)
            if (fmap[sc]) {
                code[1 + sc].ord = (prog_ord_t)ford[sc];
                code[1 + sc].scope = (prog_scope_t)s->sb_fscope[sc];
                s->maps[s->map_base[b->tid] + 1 + sc] = fmap[sc];
            }
    }
    s->r->sbuf.entries = s->m->sbuf;
    s->r->sbuf.coalesce = s->m->sbuf_coalesce;
    s->r->sbuf.lazy = s->m->sbuf_lazy;
    return 0;
}

static int build(sim_t *s, diag_t *err)
{
    const proto_t *p = s->p;
    const prog_t *prog = s->prog;
    const sim_machine_t *m = s->m;
    prog_val_t bad;
    int bl, bc;
    if (prog_value_outside(prog, INT32_MIN, INT32_MAX, &bad, &bl, &bc)) {
        diag_set(err, prog->file, bl, bc,
                 "value %lld does not fit timed mode's 32-bit registers (%ld..%ld)", (long long)bad,
                 (long)INT32_MIN, (long)INT32_MAX);
        return -1;
    }
    int need = 0;
    for (int t = 0; t < prog->nthreads; t++)
        if (prog->threads[t].cu + 1 > need)
            need = prog->threads[t].cu + 1;
    s->ncus = s->cfg.cus > 0 ? s->cfg.cus : need;
    if (s->ncus < need) {
        diag_set(err, prog->file, 0, 0,
                 "the workload places threads on %d compute units but --cus is %d", need, s->ncus);
        return -1;
    }
    if (p->outstanding > 1) {
        diag_set(err, p->file, 0, 0,
                 "protocol %s: 'outstanding %d' is not supported by timed mode yet (a thread "
                 "waits for each instruction)",
                 p->name, p->outstanding);
        return -1;
    }
    for (int c = 0; c < p->nctrls; c++)
        s->ninst += p->ctrls[c].per_cu ? s->ncus : 1;
    s->inst = xcalloc((size_t)s->ninst, sizeof *s->inst);
    s->inst_ctrl = xcalloc((size_t)s->ninst, sizeof(int));
    s->inst_cu = xcalloc((size_t)s->ninst, sizeof(int));
    int n = 0;
    for (int c = 0; c < p->nctrls; c++)
        for (int k = 0; k < (p->ctrls[c].per_cu ? s->ncus : 1); k++, n++) {
            s->inst[n].ctrl = s->inst_ctrl[n] = c;
            s->inst[n].init = p->ctrls[c].init_state;
            s->inst[n].cu = s->inst_cu[n] = p->ctrls[c].per_cu ? k : -1;
        }
    /* Lines, as the explorer lays them out. */
    sys_lines_t ln;
    sys_lines_build(p, prog, &ln);
    s->loc_line = ln.loc_line;
    s->locpos = ln.locpos;
    s->line_nlocs = ln.line_nlocs;
    s->line_locs = ln.line_locs;
    s->nlines = ln.nlines;
    s->maxlocs = ln.maxlocs;
    /* Record layouts. */
    s->lv_off = xcalloc((size_t)p->nctrls, sizeof(int *));
    s->cv_off = xcalloc((size_t)p->nctrls, sizeof(int *));
    s->cv_w = xcalloc((size_t)p->nctrls, sizeof(int));
    s->has_dead = xcalloc((size_t)p->nctrls, sizeof(bool));
    s->home_ctrl = -1;
    int maxlw = 0;
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        s->lv_off[c] = xcalloc((size_t)pc->nlinevars + 1, sizeof(int));
        s->cv_off[c] = xcalloc((size_t)pc->nctrlvars + 1, sizeof(int));
        int w = 1;
        for (int v = 0; v < pc->nlinevars; v++) {
            const proto_var_t *lv = &pc->linevars[v];
            if (lv->live != ~(uint64_t)0 && lv->type.kind != PROTO_T_DATA &&
                lv->type.kind != PROTO_T_TIME)
                s->has_dead[c] = true;
            s->lv_off[c][v] = w;
            w += type_width(s, &pc->linevars[v].type);
            if (s->home_ctrl < 0 && !pc->per_cu && pc->linevars[v].type.kind == PROTO_T_DATA &&
                pc->linevars[v].init_initial) {
                s->home_ctrl = c;
                s->home_var = v;
            }
        }
        if (w > maxlw)
            maxlw = w;
        for (int v = 0; v < pc->nctrlvars; v++) {
            s->cv_off[c][v] = s->cv_w[c];
            s->cv_w[c] +=
                pc->ctrlvars[v].per_thread ? prog->nthreads : type_width(s, &pc->ctrlvars[v].type);
        }
    }
    s->msg_foff = xcalloc((size_t)p->nmsgs + 1, sizeof(int *));
    s->msg_bytes = xcalloc((size_t)p->nmsgs + 1, sizeof(int));
    s->msg_flits = xcalloc((size_t)p->nmsgs + 1, sizeof(int));
    s->mw = 2;
    for (int g = 0; g < p->nmsgs; g++) {
        s->msg_foff[g] = xcalloc((size_t)p->msgs[g].nfields + 1, sizeof(int));
        int w = 0;
        s->msg_bytes[g] = m->header_bytes;
        for (int f = 0; f < p->msgs[g].nfields; f++) {
            s->msg_foff[g][f] = w;
            w += type_width(s, &p->msgs[g].fields[f].type);
            if (!p->msgs[g].fields[f].ghost) /* a ghost is the model's, not the wire's */
                s->msg_bytes[g] +=
                    p->msgs[g].fields[f].type.kind == PROTO_T_DATA ? m->line_bytes : m->field_bytes;
        }
        if (2 + w > s->mw)
            s->mw = 2 + w;
        s->msg_flits[g] = (s->msg_bytes[g] + m->flit_bytes - 1) / m->flit_bytes;
    }
    if (s->mw > 256 || maxlw > 256) {
        diag_set(err, prog->file, 0, 0, "too many locations on one line for timed mode");
        return -1;
    }
    int maxcv = 0; /* a row's undo copy of its controller's variables (per-thread ones
                      grow with the threads: TC-Weak's GWCT, ...) */
    for (int c = 0; c < p->nctrls; c++)
        if (s->cv_w[c] > maxcv)
            maxcv = s->cv_w[c];
    s->save_cv = xcalloc((size_t)maxcv + 1, sizeof(sim_slot_t));
    /* Rows by (controller, event). */
    s->ev_rows = xcalloc((size_t)p->nctrls * (size_t)p->nevents + 1, sizeof(int *));
    s->ev_states = xcalloc((size_t)p->nctrls * (size_t)p->nevents + 1, sizeof(uint64_t));
    for (int c = 0; c < p->nctrls; c++) {
        if (p->ctrls[c].nrows > s->maxrows)
            s->maxrows = p->ctrls[c].nrows;
        for (int e = 0; e < p->nevents; e++) {
            int *list = xmalloc(sizeof(int) * (size_t)(p->ctrls[c].nrows + 1));
            int k = 0;
            for (int r = 0; r < p->ctrls[c].nrows; r++)
                if (p->ctrls[c].rows[r].event == e) {
                    list[k++] = r;
                    s->ev_states[c * p->nevents + e] |= p->ctrls[c].rows[r].states;
                }
            list[k] = -1;
            s->ev_rows[c * p->nevents + e] = list;
        }
    }
    s->row_apply = xcalloc((size_t)p->nctrls * (size_t)s->maxrows + 1, sizeof(bool));
    for (int c = 0; c < p->nctrls; c++)
        for (int r = 0; r < p->ctrls[c].nrows; r++) {
            const proto_row_t *row = &p->ctrls[c].rows[r];
            bool ap = false;
            for (int a = 0; a < row->nactions; a++)
                ap |= expr_has_apply(row->actions[a].value);
            s->row_apply[c * s->maxrows + r] = ap;
        }
    /* Internal events: timed by the machine, or fired lazily on access. */
    s->ev_lat = xmalloc(sizeof(int) * (size_t)(p->nevents + 1));
    for (int e = 0; e < p->nevents; e++) {
        s->ev_lat[e] = -1;
        for (int k = 0; k < m->nevlat; k++)
            if (!strcmp(m->evlat_name[k], p->events[e].name))
                s->ev_lat[e] = m->evlat[k];
        bool line_ev = p->events[e].kind == PROTO_EV_INTERNAL && p->events[e].line;
        if (s->cfg.memory == SIM_MEM_DRAM && line_ev && s->ev_lat[e] >= 0)
            s->ev_lat[e] = SIM_EVLAT_DRAM;
        if (s->cfg.memory == SIM_MEM_FIXED && s->ev_lat[e] == SIM_EVLAT_DRAM)
            s->ev_lat[e] = m->dram.latency + m->dram.hit +
                           (m->line_bytes + m->dram.bandwidth - 1) / m->dram.bandwidth;
        if (s->ev_lat[e] == SIM_EVLAT_DRAM && !line_ev) {
            diag_set(err, m->name, 0, 0,
                     "event %s: only an internal line event can be a DRAM access",
                     p->events[e].name);
            return -1;
        }
        if (s->ev_lat[e] == SIM_EVLAT_DRAM && !m->has_dram) {
            diag_set(err, m->name, 0, 0, "machine %s has no 'dram' line", m->name);
            return -1;
        }
    }
    if (s->cfg.memory == SIM_MEM_DRAM && !m->has_dram) {
        diag_set(err, m->name, 0, 0, "machine %s has no 'dram' line", m->name);
        return -1;
    }
    if (m->has_dram && s->cfg.memory != SIM_MEM_FIXED)
        s->dram = dram_new(&m->dram, m->line_bytes);
    s->lazy_ev = xcalloc((size_t)p->nctrls, sizeof(int *));
    s->lazy_cv = xcalloc((size_t)p->nctrls + 1, sizeof(bool));
    s->timed_ev = xcalloc((size_t)p->nctrls, sizeof(int *));
    s->periodic_ev = xcalloc((size_t)p->nctrls, sizeof(int *));
    for (int c = 0; c < p->nctrls; c++) {
        /* Controller-level events the machine times, internal or environment (the machine
           naming an environment event enables it, as --env does in the explorer). */
        s->periodic_ev[c] = xmalloc(sizeof(int) * (size_t)(p->nevents + 1));
        int np = 0;
        for (int e = 0; e < p->nevents; e++)
            if ((p->events[e].kind == PROTO_EV_INTERNAL || p->events[e].kind == PROTO_EV_ENV) &&
                !p->events[e].line && s->ev_rows[c * p->nevents + e][0] >= 0 && s->ev_lat[e] > 0)
                s->periodic_ev[c][np++] = e;
        s->periodic_ev[c][np] = -1;
        s->lazy_ev[c] = xmalloc(sizeof(int) * (size_t)(p->nevents + 1));
        s->timed_ev[c] = xmalloc(sizeof(int) * (size_t)(p->nevents + 1));
        int nl = 0, nt = 0;
        for (int e = 0; e < p->nevents; e++) {
            const proto_event_t *ev = &p->events[e];
            if (ev->kind != PROTO_EV_INTERNAL || !ev->line || s->ev_rows[c * p->nevents + e][0] < 0)
                continue;
            if (s->ev_lat[e] >= 0 || s->ev_lat[e] == SIM_EVLAT_DRAM) {
                s->timed_ev[c][nt++] = e;
                continue;
            }
            s->lazy_ev[c][nl++] = e;
            for (const int *r = s->ev_rows[c * p->nevents + e]; *r >= 0; r++)
                if (guard_reads_cvar(p->ctrls[c].rows[*r].guard))
                    s->lazy_cv[c] = true;
        }
        s->lazy_ev[c][nl] = s->timed_ev[c][nt] = -1;
    }
    for (int i = 0; i < s->ninst; i++)
        s->inst[i].lazy = s->lazy_ev[s->inst[i].ctrl][0] >= 0;
    /* Instances: variables, capacity, latency. */
    for (int i = 0; i < s->ninst; i++) {
        inst_t *in = &s->inst[i];
        const proto_ctrl_t *pc = &p->ctrls[in->ctrl];
        in->lw = 1;
        for (int v = 0; v < pc->nlinevars; v++)
            in->lw += type_width(s, &pc->linevars[v].type);
        in->index = xmalloc(sizeof(int32_t) * (size_t)(s->nlines + 1));
        if (s->dram && in->cu < 0)
            in->held = xcalloc((size_t)s->nlines + 1, 1);
        for (int l = 0; l <= s->nlines; l++)
            in->index[l] = -1;
        in->cvars = xcalloc((size_t)s->cv_w[in->ctrl] + 1, sizeof(sim_slot_t));
        bool core = in->ctrl == p->core_ctrl;
        in->latency = core ? m->l1_latency : in->cu >= 0 ? m->local_latency : m->l2_latency;
        in->sets = core ? m->l1_sets : in->cu < 0 ? m->l2_sets : 0;
        in->ways = core ? m->l1_ways : m->l2_ways;
        in->mshrs = core ? m->l1_mshrs : 0;
        in->evict_ev = event_by_name(p, core ? m->l1_evict : m->l2_evict);
        if (in->evict_ev < 0 || p->events[in->evict_ev].kind != PROTO_EV_ENV)
            in->sets = 0; /* the protocol cannot evict here: no capacity limit */
        if (in->sets) {
            in->set_n = xcalloc((size_t)in->sets, sizeof(int));
            in->set_line =
                xcalloc((size_t)in->sets * (size_t)(in->ways + SET_SLACK), sizeof(int32_t));
        }
    }
    s->ctrl_insts = xcalloc((size_t)p->nctrls + 1, sizeof(int *));
    for (int c = 0; c < p->nctrls; c++) {
        int nc = 0;
        s->ctrl_insts[c] = xmalloc(sizeof(int) * ((size_t)s->ninst + 1));
        for (int i = 0; i < s->ninst; i++)
            if (s->inst_ctrl[i] == c)
                s->ctrl_insts[c][nc++] = i;
        s->ctrl_insts[c][nc] = -1;
    }
    s->L = (rows_layout_t){p,           prog,       s->ninst,     prog->nthreads,
                           s->maxlocs,  s->mw,      s->inst_ctrl, s->inst_cu,
                           s->loc_line, s->locpos,  s->lv_off,    s->cv_off,
                           s->msg_foff, s->ev_rows, s->ncus,      s->ctrl_insts};
    for (int i = 0; i < s->ninst; i++) {
        const proto_ctrl_t *pc = &p->ctrls[s->inst[i].ctrl];
        for (int v = 0; v < pc->nctrlvars; v++) {
            const proto_var_t *var = &pc->ctrlvars[v];
            if (!var->init || var->type.kind == PROTO_T_DATA)
                continue;
            sim_ctx_t x;
            ctx_init(s, &x, i, -1, NULL);
            sim_val_t val;
            if (SIM_ROWS(eval)(&x, var->init, &val)) {
                diag_set(err, p->file, 0, 0, "initial value of %s: %s", var->name, s->err.msg);
                return -1;
            }
            for (int k = 0; k < (var->per_thread ? prog->nthreads : 1); k++)
                s->inst[i].cvars[s->cv_off[s->inst[i].ctrl][v] + k] = (sim_slot_t)val;
        }
    }
    build_fast(s);
    /* Threads and their core maps. */
    s->th = xcalloc((size_t)prog->nthreads + 1, sizeof *s->th);
    s->map_base = xcalloc((size_t)prog->nthreads + 1, sizeof(int));
    int total = 0;
    for (int t = 0; t < prog->nthreads; t++) {
        s->map_base[t] = total;
        total += prog->threads[t].ninstr;
    }
    s->maps = xcalloc((size_t)total + 1, sizeof *s->maps);
    s->lcode = xcalloc((size_t)total + (size_t)prog->nthreads + 1, sizeof *s->lcode);
    for (int t = 0; t < prog->nthreads; t++) {
        lop_t *lc = s->lcode + s->map_base[t] + t; /* LOP_SLOW (0) at lc[ninstr] */
        s->th[t].lc = lc;
        for (int k = 0; k < prog->threads[t].ninstr; k++)
            lc[k] = lop_compile(&prog->threads[t].instr[k], prog->threads[t].ninstr);
        lop_fuse(lc, prog->threads[t].ninstr);
    }
    for (int t = 0; t < prog->nthreads; t++) {
        s->th[t].cu = prog->threads[t].cu;
        s->th[t].inst = -1;
        for (int i = 0; i < s->ninst; i++)
            if (s->inst[i].ctrl == p->core_ctrl && s->inst[i].cu == s->th[t].cu)
                s->th[t].inst = i;
        for (int k = 0; t < s->nthreads && k < prog->threads[t].ninstr; k++) {
            const prog_instr_t *in = &prog->threads[t].instr[k];
            if (!is_mem(in))
                continue;
            const proto_map_t *mp = proto_find_map(p, in->op, in->ord, in->scope);
            if (!mp) {
                diag_set(err, prog->file, in->line, in->col,
                         "protocol %s has no core map for this instruction (%s%s%s%s%s)", p->name,
                         (const char *[]){"ld", "st", "rmw", "cas", "fence"}[in->op],
                         in->ord ? "." : "", prog_ord_name(in->ord), in->scope ? "." : "",
                         prog_scope_name(in->scope));
                return -1;
            }
            s->maps[s->map_base[t] + k] = mp;
        }
    }
    if (s->xprog && sb_build(s, err))
        return -1;
    if (s->cfg.predict && p->npreds) {
        bool *used = xcalloc((size_t)p->nevents + 1, sizeof(bool));
        for (int k = 0; k < (s->sb ? s->map_base[s->nthreads] : total); k++)
            for (int e = 0; s->maps[k] && e < s->maps[k]->nevents; e++)
                used[s->maps[k]->events[e]] = true;
        s->pred = sim_pred_new(p, s->ninst, s->inst_ctrl, s->inst_cu, s->nlines, m->l2_banks, used);
        free(used);
    }
    /* after the predictors: a predicted param is not constant */
    s->stall_memo = xcalloc((size_t)p->nctrls * (size_t)p->nevents + 1, sizeof(bool));
    for (int c = 0; c < p->nctrls; c++)
        for (int e = 0; e < p->nevents; e++)
            s->stall_memo[c * p->nevents + e] = memo_safe(s, c, e);
    build_warps(s);
    join_setup(s);
    s->nchan = p->nnets * s->ninst * s->ninst;
    s->chan = xcalloc((size_t)s->nchan + 1, sizeof *s->chan);
    s->bank_free = xcalloc((size_t)m->l2_banks + 1, sizeof(uint64_t));
    s->line_bank = xcalloc((size_t)s->nlines + 1, sizeof(int));
    for (int l = 0; l < s->nlines; l++)
        s->line_bank[l] = l % m->l2_banks;
    s->freemsg = -1;
    net_setup(s);
    return 0;
}

static void sim_free(sim_t *s)
{
    const proto_t *p = s->p;
    for (int c = 0; s->sb && c < s->ncus; c++) {
        free(s->sb[c].loc);
        free(s->sb[c].val);
        free(s->sb[c].seq);
        free(s->sb[c].wait);
    }
    free(s->sb);
    if (s->xprog) {
        for (int t = s->nthreads; t < s->xprog->nthreads; t++)
            free(s->xprog->threads[t].instr);
        free(s->xprog->threads);
        free(s->xprog);
    }
    sim_pred_free(s->pred);
    free(s->th_wg);
    free(s->wg_size);
    free(s->wg_wait);
    free(s->wg_done);
    dram_free(s->dram);
    net_free(s->net);
    free(s->inst_node);
    free(s->bank_node);
    for (int i = 0; s->inst && i < s->ninst; i++) {
        free(s->inst[i].index);
        free(s->inst[i].recs);
        free(s->inst[i].rm);
        free(s->inst[i].rst);
        free(s->inst[i].live);
        free(s->inst[i].cvars);
        free(s->inst[i].set_n);
        free(s->inst[i].set_line);
        free(s->inst[i].stall);
        free(s->inst[i].held);
    }
    free(s->inst);
    for (int c = 0; s->ctrl_insts && c < p->nctrls; c++)
        free(s->ctrl_insts[c]);
    free(s->ctrl_insts);
    free(s->inst_ctrl);
    free(s->inst_cu);
    if (s->line_locs)
        for (int l = 0; l < s->nlines; l++)
            free(s->line_locs[l]);
    free(s->line_locs);
    free(s->loc_line);
    free(s->locpos);
    free(s->line_nlocs);
    free(s->has_dead);
    free(s->dead_off);
    free(s->dead_list);
    free(s->dead_idem);
    for (int c = 0; s->dead_const && c < p->nctrls; c++) {
        free(s->dead_const[c]);
        free(s->dead_val[c]);
    }
    free(s->dead_const);
    free(s->dead_val);
    free(s->row_fl);
    free(s->inv_seen);
    free(s->inv_reads);
    free(s->st_base);
    free(s->cand);
    free(s->cand_off);
    free(s->st_cnt);
    for (int c = 0; c < p->nctrls; c++) {
        if (s->lv_off)
            free(s->lv_off[c]);
        if (s->cv_off)
            free(s->cv_off[c]);
        if (s->lazy_ev)
            free(s->lazy_ev[c]);
        if (s->timed_ev)
            free(s->timed_ev[c]);
        if (s->periodic_ev)
            free(s->periodic_ev[c]);
    }
    free(s->lv_off);
    free(s->cv_off);
    free(s->cv_w);
    free(s->lazy_ev);
    free(s->lazy_cv);
    free(s->stall_memo);
    free(s->timed_ev);
    free(s->periodic_ev);
    if (s->ev_rows)
        for (int k = 0; k < p->nctrls * p->nevents; k++)
            free(s->ev_rows[k]);
    free(s->ev_rows);
    free(s->ev_states);
    free(s->row_apply);
    free(s->ev_lat);
    if (s->msg_foff)
        for (int g = 0; g < p->nmsgs; g++)
            free(s->msg_foff[g]);
    free(s->msg_foff);
    free(s->msg_bytes);
    free(s->th);
    free(s->lcode);
    free(s->maps);
    free(s->map_base);
    for (int k = 0; k < s->nmsg; k++)
        free(s->msgs[k].rec);
    free(s->msgs);
    free(s->chan);
    free(s->msg_flits);
    free(s->bank_free);
    free(s->line_bank);
    for (int w = 0; w < s->nwarps; w++)
        free(s->warps[w].q);
    free(s->warps);
    for (int c = 0; s->sched && c < s->ncus; c++) {
        free(s->sched[c].ready);
        free(s->sched[c].at);
    }
    free(s->sched);
    free(s->save_cv);
    free(s->loc_stamp);
    free(s->loc_lane);
    free(s->line_stamp);
    free(s->heap);
    for (int k = 0; s->cal && k < CAL_W; k++)
        free(s->cal[k].v);
    free(s->cal);
    for (size_t k = 0; k < s->capps; k++)
        free(s->ps[k].rec);
    free(s->ps);
    free(s->undo);
    for (int k = 0; k < SIM_NOPS; k++)
        free(s->lat[k].v);
}

/* Sort V (N latencies) ascending: an LSD radix sort, a byte a pass, skipping the bytes
 * all share (the order qsort gives, at a fraction of its compares on millions). */
static void sort_u64(uint64_t *v, size_t n)
{
    uint64_t *tmp = xmalloc(n * sizeof *tmp), *a = v, *b = tmp;
    for (int sh = 0; sh < 64; sh += 8) {
        size_t cnt[256] = {0}, pos = 0;
        for (size_t k = 0; k < n; k++)
            cnt[a[k] >> sh & 255]++;
        if (cnt[a[0] >> sh & 255] == n)
            continue;
        for (int d = 0; d < 256; d++) {
            size_t c = cnt[d];
            cnt[d] = pos;
            pos += c;
        }
        for (size_t k = 0; k < n; k++)
            b[cnt[a[k] >> sh & 255]++] = a[k];
        uint64_t *t = a;
        a = b;
        b = t;
    }
    if (a != v)
        memcpy(v, a, n * sizeof *v);
    free(tmp);
}

static void summarize(lats_t *l, sim_lat_t *o)
{
    memset(o, 0, sizeof *o);
    if (!l->n)
        return;
    sort_u64(l->v, l->n);
    double sum = 0;
    for (size_t k = 0; k < l->n; k++)
        sum += (double)l->v[k];
    o->count = l->n;
    o->mean = sum / (double)l->n;
    /* nearest rank */
    o->p50 = l->v[(l->n * 50 + 99) / 100 - 1];
    o->p90 = l->v[(l->n * 90 + 99) / 100 - 1];
    o->p99 = l->v[(l->n * 99 + 99) / 100 - 1];
    o->max = l->v[l->n - 1];
}

/* The compute units a run of PROG has: --cus, or as many as it places threads on. */
static int run_cus(const prog_t *prog, const sim_config_t *cfg)
{
    int need = 0;
    for (int t = 0; t < prog->nthreads; t++)
        if (prog->threads[t].cu + 1 > need)
            need = prog->threads[t].cu + 1;
    return cfg->cus > 0 ? cfg->cus : need;
}

#ifndef SIM_WIDE
/* Whether E (or a subexpression) has type KIND. */
static bool expr_has_type(const proto_expr_t *e, proto_type_kind_t kind)
{
    return e && (e->type.kind == kind || expr_has_type(e->a, kind) || expr_has_type(e->b, kind) ||
                 expr_has_type(e->c, kind) || expr_has_type(e->d, kind));
}

/* Whether P holds a value of type KIND anywhere: a variable, a message field, or an
 * expression of its rows, invariants or predictor rules. */
static bool proto_has_type(const proto_t *p, proto_type_kind_t kind)
{
    for (int m = 0; m < p->nmsgs; m++)
        for (int f = 0; f < p->msgs[m].nfields; f++)
            if (p->msgs[m].fields[f].type.kind == kind)
                return true;
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        for (int v = 0; v < pc->nlinevars; v++)
            if (pc->linevars[v].type.kind == kind)
                return true;
        for (int v = 0; v < pc->nctrlvars; v++)
            if (pc->ctrlvars[v].type.kind == kind)
                return true;
        for (int r = 0; r < pc->nrows; r++) {
            const proto_row_t *row = &pc->rows[r];
            if (expr_has_type(row->guard, kind))
                return true;
            for (int k = 0; k < row->nactions; k++) {
                const proto_action_t *a = &row->actions[k];
                if ((kind == PROTO_T_NODESET && a->kind == PROTO_A_SEND &&
                     a->dest == PROTO_DEST_EACH) ||
                    expr_has_type(a->index, kind) || expr_has_type(a->value, kind) ||
                    expr_has_type(a->dest_node, kind) || expr_has_type(a->tid, kind) ||
                    expr_has_type(a->dval, kind))
                    return true;
                if (a->kind == PROTO_A_SEND && a->fields)
                    for (int f = 0; f < p->msgs[a->msg].nfields; f++)
                        if (expr_has_type(a->fields[f], kind))
                            return true;
            }
        }
    }
    for (int k = 0; k < p->ninvs; k++)
        if (expr_has_type(p->invs[k].expr, kind))
            return true;
    for (int k = 0; k < p->nprules; k++)
        if (expr_has_type(p->prules[k].guard, kind))
            return true;
    return false;
}

/* Without a nodeset of more than 31 CUs or a mask of more than 31 locations, 32-bit
 * slots hold every value a run makes (both widths keep data, counters and timestamps
 * in the 32-bit range), so the run is the same on both. */
bool sim_needs_wide(const proto_t *p, const prog_t *prog, int ncus)
{
    if (ncus <= SIM_NARROW_CUS)
        return false;
    if (proto_has_type(p, PROTO_T_NODESET))
        return true;
    if (!proto_has_type(p, PROTO_T_MASK))
        return false;
    sys_lines_t ln;
    sys_lines_build(p, prog, &ln);
    bool wide = ln.maxlocs > SIM_NARROW_CUS;
    sys_lines_free(&ln);
    return wide;
}
#endif

int sim_run(const proto_t *p, const prog_t *prog, const sim_machine_t *m, const sim_config_t *cfg,
            sim_result_t *out, diag_t *err)
{
    int ncus = run_cus(prog, cfg);
#ifndef SIM_WIDE
    if (sim_needs_wide(p, prog, ncus)) /* wider sets: the same model on 128-bit slots */
        return sim_run_wide(p, prog, m, cfg, out, err);
#endif
    memset(out, 0, sizeof *out);
    if (ncus > SIM_MAX_CUS) {
        diag_set(err, prog->file, 0, 0, "timed mode runs at most %d compute units, not %d",
                 SIM_MAX_CUS, ncus);
        return -1;
    }
    sim_t s0;
    memset(&s0, 0, sizeof s0);
    sim_t *s = &s0;
    s->p = p;
    s->prog = prog;
    s->m = m;
    s->cfg = *cfg;
    s->nthreads = s->nall = prog->nthreads;
    if (m->sbuf)
        sb_prog(s, ncus);
    s->r = out;
    s->rng = cfg->seed;
    out->nmsgs = p->nmsgs;
    out->msg_names = xcalloc((size_t)p->nmsgs + 1, sizeof(char *));
    out->messages = xcalloc((size_t)p->nmsgs + 1, sizeof(uint64_t));
    out->traffic = xcalloc((size_t)p->nmsgs + 1, sizeof(uint64_t));
    for (int g = 0; g < p->nmsgs; g++)
        out->msg_names[g] = p->msgs[g].name;
    s->cal = xcalloc(CAL_W, sizeof *s->cal);
    if (build(s, err)) {
        sim_free(s);
        return -1;
    }
    out->cus = s->ncus;
    uint64_t max_idle = cfg->max_idle ? cfg->max_idle : 1000000;
    for (int t = 0; t < s->nthreads; t++)
        if (s->th[t].warp < 0)
            thread_advance(s, t, 0);
    for (int w = 0; w < s->nwarps; w++)
        warp_ready(s, w, 0);
    for (int i = 0; i < s->ninst; i++)
        for (const int *e = s->periodic_ev[s->inst[i].ctrl]; *e >= 0; e++)
            push(s, (uint64_t)s->ev_lat[*e], EV_TIMED, i, -1, *e);
    while (out->status == SIM_DONE && (s->nheap || s->ncal)) {
        event_t e = pop(s);
        s->now = e.t;
        out->events++;
        if (cfg->max_events && out->events > cfg->max_events) {
            out->status = SIM_LIMIT;
            snprintf(out->msg, sizeof out->msg, "--max-events %llu reached at cycle %llu",
                     (unsigned long long)cfg->max_events, (unsigned long long)s->now);
            break;
        }
        if (cfg->max_cycles && s->now > cfg->max_cycles) {
            out->status = SIM_LIMIT;
            snprintf(out->msg, sizeof out->msg, "--max-cycles %llu reached",
                     (unsigned long long)cfg->max_cycles);
            break;
        }
        if (s->now - s->last_progress > max_idle) {
            out->status = SIM_DEADLOCK;
            snprintf(out->msg, sizeof out->msg,
                     "deadlock: no row fired for %llu cycles (cycle %llu; %d of %d threads "
                     "finished)",
                     (unsigned long long)max_idle, (unsigned long long)s->now, s->ndone,
                     s->nthreads);
            break;
        }
        if (handle(s, &e))
            break;
    }
    if (out->status == SIM_LIMIT || out->status == SIM_DEADLOCK)
        describe_stuck(s, out->stuck, sizeof out->stuck); /* what waits when it stopped */
    if (out->status == SIM_DONE) {
        int stalled = 0, inflight = 0;
        describe_stuck(s, out->stuck, sizeof out->stuck);
        for (int i = 0; i < s->ninst; i++)
            stalled += s->inst[i].nstall;
        for (int c = 0; c < s->nchan; c++)
            inflight += s->chan[c].n;
        if (s->ndone < s->nthreads || stalled || inflight) {
            int joined = 0; /* threads waiting at a launch or bar.sync */
            for (int t = 0; t < s->nthreads; t++)
                joined += s->th[t].status == TH_JOIN;
            out->status = SIM_DEADLOCK;
            snprintf(out->msg, sizeof out->msg,
                     "deadlock at cycle %llu: %d of %d threads finished%s%.0d%s, %d events "
                     "stalled, %d messages in flight",
                     (unsigned long long)s->now, s->ndone, s->nthreads, joined ? " (" : "", joined,
                     joined ? " waiting at a join)" : "", stalled, inflight);
        }
    }
    out->cycles = s->ndone == s->nthreads ? s->last_done : s->now;
    if (out->status == SIM_DONE)
        final_check(s);
    for (int k = 0; k < SIM_NOPS; k++)
        summarize(&s->lat[k], &out->lat[k]);
    if (s->dram)
        dram_stats(s->dram, s->now > out->cycles ? s->now : out->cycles, &out->dram);
    net_stats(s, s->now > out->cycles ? s->now : out->cycles, &out->net);
    out->npreds = sim_pred_stats(s->pred, out->preds);
    sim_free(s);
    return 0;
}

#ifndef SIM_WIDE
void sim_result_free(sim_result_t *r)
{
    free(r->msg_names);
    free(r->messages);
    free(r->traffic);
    memset(r, 0, sizeof *r);
}

const char *sim_op_name(int op)
{
    static const char *const names[SIM_NOPS] = {"load", "store", "atomic", "fence"};
    return op >= 0 && op < SIM_NOPS ? names[op] : "?";
}
#endif
