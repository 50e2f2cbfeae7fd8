/* sys.c - the protocol interpreter behind the next-state interface (sys.h).
 * A state is decoded into a work_t (int16 slots for threads and controller
 * instances, fixed-width message records per channel), a transition mutates
 * a copy, and the copy is re-encoded canonically. Invariant: encode(decode(s))
 * == s for every state this file produces (unordered channels sorted). */
#include "sys.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rows.h"

#define TH_PC 0
#define TH_STEP 1
#define TH_STATUS 2
#define TH_REGS 3
#define TH_W (TH_REGS + PROG_MAX_REGS)

enum { ST_RUN, ST_WAIT, ST_DONE, ST_JOIN }; /* ST_JOIN: waiting at a join (PROG_OP_JOIN) */

#define MAX_INST 64
#define MAX_LOCAL_STEPS 10000
#define VAL_MAX 32767

typedef struct {
    int ctrl;
    int cu; /* -1: shared */
    int base;
} inst_t;

struct sys {
    const proto_t *p;
    const prog_t *prog;
    bool has_join;    /* the program has a join (launch, bar.sync) */
    uint8_t **rowhit; /* sys_set_coverage: per controller, per row, 1 once chosen; or NULL */
    sys_config_t cfg;
    int nthreads, ncus, ninst, nlines, maxlocs;
    inst_t inst[MAX_INST];
    int inst_ctrl[MAX_INST], inst_cu[MAX_INST]; /* the same, for the evaluator */
    rows_layout_t L;                            /* the evaluator's view of this layout */
    int *line_w;                                /* per controller: slots per line (1 + line vars) */
    int **lv_off; /* per controller, per line var: offset within the line record */
    int **cv_off; /* per controller, per ctrl var: offset after the lines */
    int *inst_w;  /* per controller: slots per instance */
    /* per controller: 1 where an instance's slot k is a ghost line variable's (never
       stored, always 0: proto.h, Ghosts), so that symmetry's keys leave it out; NULL
       for a controller without ghosts */
    uint8_t **ghost_slot;
    int nfixed;
    int *locpos;   /* per location: position within its line */
    int *loc_line; /* per location: its line (the test's, or its own with 'granularity word') */
    int *line_nlocs;
    int **line_locs;          /* per line: its locations */
    const proto_map_t **maps; /* per instruction of every thread (NULL for local ones) */
    int *map_base;            /* per thread: its first instruction's index in maps */
    int nchan, cap, mw;       /* channels, capacity, message record width */
    int *field_off;           /* per message: offset of each field (flattened) */
    int **msg_foff;
    int home_ctrl, home_var; /* where final memory values live */
    int **ev_rows;           /* per controller * nevents + event: row indices, -1 terminated */
    uint64_t *ev_states;     /* per controller * nevents + event: states some row names */
    uint8_t *fw;             /* per fixed slot: its width in the encoding (W_*) */
    int *fslot;              /* the fixed slots that are stored: byte slots first, then half */
    int nfslot, nfbyte;
    int *fpos;     /* per fixed slot (padded to a multiple of 4): its byte in the encoding, or -1 */
    size_t fbytes; /* size of the encoding's fixed part */
    int *lchan, nlchan;            /* channels some row can send into (the others stay empty) */
    int *ch_src, *ch_dst, *ch_net; /* per channel: sender, receiver, network (sys_topo) */
    int *dst_lchan;                /* those channels grouped by receiver, in lchan's order: */
    int *dst_off;                  /* per instance i, dst_lchan[dst_off[i] .. dst_off[i + 1]) */
    int *unord;                    /* channels of unordered networks (canon sorts only these) */
    int nunord;
    uint8_t **msgw; /* per message: the width of each record slot */
    int **mslot;    /* per message: its stored record slots, byte slots first, -1 ended */
    int *mnbyte;    /* per message: how many of them are byte slots */
    /* timestamps (docs/time-abstraction.md) */
    int clock_slot;     /* fixed slot of the global clock, -1: none */
    int *tslot, ntslot; /* fixed slots holding times (the clock included) */
    int *tlive;         /* per tslot: its entry in lent, or -1 (always live) */
    int **msg_tf;       /* per message: offsets of its time fields in a record, -1 ended */
    bool any_tf;        /* some message has a time field */
    struct live_ent {   /* a line variable with a 'live' clause, at one instance and line */
        int slot;
        uint64_t live;
        int16_t init;
        int sslot; /* the fixed slot of the line's state at that instance */
    } * lent;
    int nlent;
    size_t maxstate;
    int mw_stored; /* mw without ghost fields (maxstate) */
    /* values no step will read (sys_set_dead; docs/por.md, "Values no step reads") */
    bool dead;        /* reset them in every state */
    bool **dvar;      /* per controller, per line variable: only core events may read it */
    int **dvar_ow;    /* per controller with dvars: their (offset, width) pairs, -1 ended */
    uint64_t *dfld;   /* per controller * nmsgs + message: fields its rows only copy into dvars */
    uint64_t **dread; /* per thread, per pc: lines whose dvars its remaining core events may
                         read at its CU's core instance (bit 63: every line) */
    int **iev; /* per controller: its internal and enabled environment events with rows, -1 ended */
    /* the state last decoded into wfixed/wchan/wclen (sys_check, sys_terminal and
       sys_successors are called on the same state in a row) */
    uint8_t *dec;
    size_t dec_len;
    bool dec_ok;
    /* scratch */
    int16_t *wfixed, *wchan;
    uint8_t *wclen;
    int16_t *w2fixed, *w2chan;
    uint8_t *w2clen;
    uint8_t *enc;
    int *ne_chan, nne; /* the live channels holding messages in the state being expanded */
    /* symmetry reduction (sys_set_symmetry; sym_impl.h): the analysis, or NULL */
    struct sys_sym *sym;
    bool sym_on; /* canonicalise every emitted state */
};

typedef struct {
    int16_t *fixed;
    int16_t *chan; /* nchan * cap * mw */
    uint8_t *clen;
} work_t;

/* ---- encoding ---- */

/* Slot widths in the encoding: 0 (always zero: not stored), 1 (a byte: values
 * 0..255, guaranteed by construction or by range checks) or 2 (16 bits). */
enum { W_SKIP, W_BYTE, W_HALF };

/* The channels, from byte N of OUT. */
static size_t encode_chan(const sys_t *s, const work_t *w, uint8_t *out, size_t n)
{
    /* Locals: a byte store through OUT may alias anything, so fields read in the loop
       would be read again after every store. */
    const int *lchan = s->lchan, *const *mslot = (const int *const *)s->mslot;
    const int *mnbyte = s->mnbyte;
    const uint8_t *clen = w->clen;
    const int16_t *chan = w->chan;
    const size_t stride = (size_t)s->cap * (size_t)s->mw, mw = (size_t)s->mw;
    for (int q = 0, nl = s->nlchan; q < nl; q++) {
        int c = lchan[q], len = clen[c];
        out[n++] = (uint8_t)len;
        if (!len)
            continue;
        const int16_t *m = chan + (size_t)c * stride;
        for (int k = 0; k < len; k++, m += mw) {
            out[n++] = (uint8_t)m[0];
            out[n++] = (uint8_t)(m[1] + 1); /* line, or -1 for a message without one */
            const int *i = mslot[m[0]], *ib = i + mnbyte[m[0]];
            for (; i < ib; i++)
                out[n++] = (uint8_t)m[*i];
            for (; *i >= 0; i++, n += 2) {
                out[n] = (uint8_t)(uint16_t)m[*i];
                out[n + 1] = (uint8_t)((uint16_t)m[*i] >> 8);
            }
        }
    }
    return n;
}

static size_t encode(const sys_t *s, const work_t *w, uint8_t *out)
{
    size_t n = 0;
    const int16_t *fx = w->fixed;
    for (int k = 0; k < s->nfbyte; k++)
        out[n++] = (uint8_t)fx[s->fslot[k]];
    for (int k = s->nfbyte; k < s->nfslot; k++, n += 2) {
        uint16_t v = (uint16_t)fx[s->fslot[k]];
        out[n] = (uint8_t)v;
        out[n + 1] = (uint8_t)(v >> 8);
    }
    return encode_chan(s, w, out, n);
}

/* Encode W, a successor of FROM whose encoding is SRC: the fixed part has the
 * same layout in both, so copy SRC's and rewrite only the slots that differ
 * (compared four at a time; the slot arrays are padded to a multiple of 4). */
static size_t encode_succ(const sys_t *s, const work_t *from, const uint8_t *src, const work_t *w,
                          uint8_t *out)
{
    memcpy(out, src, s->fbytes);
    const int16_t *a = from->fixed, *b = w->fixed;
    for (int i = 0; i < s->nfixed; i += 4) {
        uint64_t x, y;
        memcpy(&x, a + i, sizeof x);
        memcpy(&y, b + i, sizeof y);
        if (x == y)
            continue;
        for (int j = i; j < i + 4; j++) {
            int o = s->fpos[j];
            if (a[j] == b[j] || o < 0)
                continue;
            out[o] = (uint8_t)(uint16_t)b[j];
            if (s->fw[j] == W_HALF)
                out[o + 1] = (uint8_t)((uint16_t)b[j] >> 8);
        }
    }
    return encode_chan(s, w, out, s->fbytes);
}

static void decode(const sys_t *s, const uint8_t *in, size_t len, work_t *w)
{
    size_t n = 0;
    (void)len;
    /* Skipped slots are always zero: clear once, then fill the stored ones. */
    memset(w->fixed, 0, sizeof(int16_t) * (size_t)s->nfixed);
    int16_t *fx = w->fixed;
    for (int k = 0; k < s->nfbyte; k++)
        fx[s->fslot[k]] = in[n++];
    for (int k = s->nfbyte; k < s->nfslot; k++, n += 2)
        fx[s->fslot[k]] = (int16_t)(uint16_t)(in[n] | in[n + 1] << 8);
    for (int q = 0; q < s->nlchan; q++) {
        int c = s->lchan[q];
        w->clen[c] = in[n++];
        int16_t *m = w->chan + (size_t)c * s->cap * s->mw;
        for (int k = 0; k < w->clen[c]; k++, m += s->mw) {
            m[0] = in[n++];
            m[1] = (int16_t)(in[n++] - 1);
            memset(m + 2, 0, sizeof(int16_t) * (size_t)(s->mw - 2));
            const int *i = s->mslot[m[0]], *ib = i + s->mnbyte[m[0]];
            for (; i < ib; i++)
                m[*i] = in[n++];
            for (; *i >= 0; i++, n += 2)
                m[*i] = (int16_t)(uint16_t)(in[n] | in[n + 1] << 8);
        }
    }
}

/* Decode STATE into the scratch state (wfixed/wchan/wclen) unless it is already there. */
static work_t load_cur(sys_t *s, const uint8_t *state, size_t len)
{
    work_t cur = {s->wfixed, s->wchan, s->wclen};
    if (s->dec_ok && len == s->dec_len && !memcmp(s->dec, state, len))
        return cur;
    decode(s, state, len, &cur);
    if (len <= s->maxstate) {
        memcpy(s->dec, state, len);
        s->dec_len = len;
        s->dec_ok = true;
    }
    return cur;
}

/* FROM into TO: the fixed part, every channel's length, and the records of channels
 * CHANS[0..N) (those holding messages need be among them). */
static void copy_chans(const sys_t *s, const work_t *from, work_t *to, const int *chans, int n)
{
    memcpy(to->fixed, from->fixed, sizeof(int16_t) * (size_t)s->nfixed);
    memcpy(to->clen, from->clen, (size_t)s->nchan);
    const size_t stride = (size_t)s->cap * (size_t)s->mw;
    for (int q = 0; q < n; q++) {
        int c = chans[q], e = from->clen[c] * s->mw;
        /* a plain loop: a few records, cheaper than a library call */
        const int16_t *f = from->chan + (size_t)c * stride;
        int16_t *t = to->chan + (size_t)c * stride;
        for (int k = 0; k < e; k++)
            t[k] = f[k];
    }
}

static void copy_work(const sys_t *s, const work_t *from, work_t *to)
{
    copy_chans(s, from, to, s->lchan, s->nlchan);
}

/* copy_work from the state being expanded, whose channels holding messages are
 * s->ne_chan (sys_successors). */
static void copy_cur(const sys_t *s, const work_t *from, work_t *to)
{
    copy_chans(s, from, to, s->ne_chan, s->nne);
}

/* Channel c is network c / (ninst*ninst), sender c / ninst % ninst, receiver c % ninst:
   tabled in sys_new (no division on the hot paths). */
static bool chan_ordered(const sys_t *s, int c)
{
    return s->p->nets[s->ch_net[c]].ordered;
}

static int chan_src(const sys_t *s, int c)
{
    return s->ch_src[c];
}
static int chan_dst(const sys_t *s, int c)
{
    return s->ch_dst[c];
}

static int rec_cmp(const int16_t *a, const int16_t *b, int w)
{
    for (int i = 0; i < w; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Unordered channels are multisets: keep them sorted (insertion sort; short). */
static void canon(const sys_t *s, work_t *w)
{
    int16_t tmp[256];
    for (int u = 0; u < s->nunord; u++) {
        int c = s->unord[u];
        if (w->clen[c] < 2)
            continue;
        int16_t *m = w->chan + (size_t)c * s->cap * s->mw;
        for (int i = 1; i < w->clen[c]; i++) {
            memcpy(tmp, m + i * s->mw, sizeof(int16_t) * (size_t)s->mw);
            int j = i;
            while (j > 0 && rec_cmp(m + (j - 1) * s->mw, tmp, s->mw) > 0) {
                memcpy(m + j * s->mw, m + (j - 1) * s->mw, sizeof(int16_t) * (size_t)s->mw);
                j--;
            }
            memcpy(m + j * s->mw, tmp, sizeof(int16_t) * (size_t)s->mw);
        }
    }
}

/* ---- slots ---- */

static int16_t *inst_line(const sys_t *s, work_t *w, int i, int line)
{
    return w->fixed + s->inst[i].base + line * s->line_w[s->inst[i].ctrl];
}

static int16_t *inst_cvar(const sys_t *s, work_t *w, int i, int v)
{
    const inst_t *in = &s->inst[i];
    return w->fixed + in->base + s->nlines * s->line_w[in->ctrl] + s->cv_off[in->ctrl][v];
}

static int16_t *thread_slot(work_t *w, int t)
{
    return w->fixed + t * TH_W;
}

/* ---- the row evaluator's storage (rows.h) ---- */

typedef struct {
    rows16_ctx_t r; /* first: the evaluator's callbacks cast back to this */
    sys_t *s;
    work_t *w; /* the state the row reads and writes */
} ectx_t;

static int fail(ectx_t *x, sys_err_kind_t k, const char *fmt, const char *a, const char *b)
{
    return rows16_fail(&x->r, k, fmt, a, b);
}

static int eval(ectx_t *x, const proto_expr_t *e, int64_t *v)
{
    return rows16_eval(&x->r, e, v);
}

static const char *ctrl_name(const sys_t *s, int i)
{
    return s->p->ctrls[s->inst[i].ctrl].name;
}

/* Point X's storage at state W (its line, variables, thread registers, clock). */
static inline void bind(ectx_t *x, work_t *w)
{
    sys_t *s = x->s;
    const inst_t *in = &s->inst[x->r.inst];
    x->w = w;
    x->r.lrec = x->r.line >= 0 && w->fixed ? inst_line(s, w, x->r.inst, x->r.line) : NULL;
    x->r.cvars = w->fixed ? w->fixed + in->base + s->nlines * s->line_w[in->ctrl] : NULL;
    x->r.regs = x->r.tid >= 0 ? thread_slot(w, x->r.tid) + TH_REGS : NULL;
    x->r.clock = s->clock_slot >= 0 && w->fixed ? w->fixed[s->clock_slot] : 0;
}

/* ---- threads ---- */

static const prog_instr_t *cur_instr(const sys_t *s, work_t *w, int t)
{
    int16_t *th = thread_slot(w, t);
    if (th[TH_PC] >= s->prog->threads[t].ninstr)
        return NULL;
    return &s->prog->threads[t].instr[th[TH_PC]];
}

static bool is_mem(const prog_instr_t *in)
{
    return in->op == PROG_OP_LD || in->op == PROG_OP_ST || in->op == PROG_OP_RMW ||
           in->op == PROG_OP_CAS || in->op == PROG_OP_FENCE;
}

static int advance(sys_t *s, work_t *w, int t, sys_error_t *err);

/* Joins (docs/litmus.md, "Kernel launches and bar.sync"): thread T just waited at a join
 * or finished. For each scope (the work-group's bar.sync, the grid's launch), when every
 * thread of T's group waits at a join of that scope or has finished, and one waits, all
 * the waiting ones go past their joins: one step of the thread that completed the group,
 * as a real barrier's last arrival releases the others. */
static int join_release(sys_t *s, work_t *w, int t, sys_error_t *err)
{
    static const prog_scope_t scopes[2] = {PROG_SCOPE_WG, PROG_SCOPE_AGENT};
    int wg = s->prog->threads[t].wg;
    for (int k = 0; k < 2; k++) {
        bool any = false, all = true;
        for (int u = 0; u < s->nthreads && all; u++) {
            if (scopes[k] == PROG_SCOPE_WG && s->prog->threads[u].wg != wg)
                continue;
            const int16_t *th = thread_slot(w, u);
            if (th[TH_STATUS] == ST_DONE)
                continue;
            if (th[TH_STATUS] == ST_JOIN &&
                s->prog->threads[u].instr[th[TH_PC]].scope == scopes[k]) {
                any = true;
                continue;
            }
            all = false;
        }
        if (!any || !all)
            continue;
        int go[PROG_MAX_THREADS], ngo = 0;
        for (int u = 0; u < s->nthreads; u++) {
            int16_t *th = thread_slot(w, u);
            if ((scopes[k] == PROG_SCOPE_AGENT || s->prog->threads[u].wg == wg) &&
                th[TH_STATUS] == ST_JOIN) {
                th[TH_STATUS] = ST_RUN;
                th[TH_PC]++;
                go[ngo++] = u;
            }
        }
        for (int i = 0; i < ngo; i++)
            if (advance(s, w, go[i], err))
                return -1;
    }
    return 0;
}

/* Run thread T's local instructions up to its next memory operation, a join or its end. */
static int advance(sys_t *s, work_t *w, int t, sys_error_t *err)
{
    int16_t *th = thread_slot(w, t);
    const prog_thread_t *pt = &s->prog->threads[t];
    for (int steps = 0;; steps++) {
        if (th[TH_PC] >= pt->ninstr) {
            th[TH_STATUS] = ST_DONE;
            th[TH_STEP] = 0;
            return s->has_join ? join_release(s, w, t, err) : 0;
        }
        const prog_instr_t *in = &pt->instr[th[TH_PC]];
        if (in->op == PROG_OP_JOIN) {
            th[TH_STATUS] = ST_JOIN;
            th[TH_STEP] = 0;
            return join_release(s, w, t, err);
        }
        if (is_mem(in)) {
            if (in->indexed && prog_instr_loc(in, th[TH_REGS + in->idx_reg]) < 0) {
                err->kind = SYS_ERR_INVARIANT;
                snprintf(err->msg, sizeof err->msg,
                         "P%d: index %d out of the array %.*s (%d elements) at line %d", t,
                         th[TH_REGS + in->idx_reg] + in->idx_off,
                         (int)strcspn(s->prog->locs[in->loc].name, "["),
                         s->prog->locs[in->loc].name, in->idx_len, in->line);
                return -1;
            }
            th[TH_STATUS] = ST_RUN;
            th[TH_STEP] = 0;
            return 0;
        }
        if (steps > MAX_LOCAL_STEPS) {
            err->kind = SYS_ERR_INVARIANT;
            snprintf(err->msg, sizeof err->msg, "thread P%d loops without memory operations", t);
            return -1;
        }
        int16_t *r = th + TH_REGS;
#define OPV(o) ((o).is_reg ? r[(o).v] : (int64_t)(o).v)
        int64_t v;
        switch (in->op) {
        case PROG_OP_MOV:
        case PROG_OP_ADD:
        case PROG_OP_SUB:
        case PROG_OP_MUL:
        case PROG_OP_DIV:
        case PROG_OP_REM:
            if (prog_alu_faults(in, OPV(in->b))) {
                err->kind = SYS_ERR_INVARIANT;
                snprintf(err->msg, sizeof err->msg, "P%d: division by zero (%s) at line %d", t,
                         in->op == PROG_OP_DIV ? "div" : "rem", in->line);
                return -1;
            }
            v = prog_alu(in, OPV(in->a), in->op == PROG_OP_MOV ? 0 : OPV(in->b));
            if (v > VAL_MAX || v < -VAL_MAX) {
                err->kind = SYS_ERR_INVARIANT;
                snprintf(err->msg, sizeof err->msg, "register value of P%d out of range", t);
                return -1;
            }
            r[in->reg] = (int16_t)v;
            th[TH_PC]++;
            break;
        case PROG_OP_BEQ:
        case PROG_OP_BNE:
        case PROG_OP_BLT:
        case PROG_OP_BGE:
            if (prog_branch_taken(in, r[in->reg], OPV(in->a)))
                th[TH_PC] = (int16_t)in->target;
            else
                th[TH_PC]++;
            break;
        case PROG_OP_B: th[TH_PC] = (int16_t)in->target; break;
        default: th[TH_PC]++; break;
        }
#undef OPV
    }
}

/* Complete the current event of thread T (a `done`), with VAL for its register. */
static int thread_done(ectx_t *x, int t, bool has_val, int64_t val)
{
    sys_t *s = x->s;
    if (t < 0 || t >= s->nthreads)
        return fail(x, SYS_ERR_UNEXPECTED, "done for a thread that does not exist%s%s", "", "");
    int16_t *th = thread_slot(x->w, t);
    const prog_instr_t *in = cur_instr(s, x->w, t);
    if (!in || th[TH_STATUS] == ST_DONE)
        return fail(x, SYS_ERR_UNEXPECTED, "done for a thread with no request in flight%s%s", "",
                    "");
    if (has_val && (in->op == PROG_OP_LD || in->op == PROG_OP_RMW || in->op == PROG_OP_CAS)) {
        if (val > VAL_MAX || val < -VAL_MAX)
            return fail(x, SYS_ERR_INVARIANT, "value out of range%s%s", "", "");
        th[TH_REGS + in->reg] = (int16_t)val;
    }
    const proto_map_t *m = s->maps[s->map_base[t] + th[TH_PC]];
    th[TH_STEP]++;
    th[TH_STATUS] = ST_RUN;
    if (th[TH_STEP] >= m->nevents) {
        th[TH_PC]++;
        if (advance(s, x->w, t, x->r.err))
            return -1;
    }
    return 0;
}

/* ---- the evaluator's callbacks ---- */

static int16_t *cb_line(rows16_ctx_t *r, int inst, int line)
{
    ectx_t *x = (ectx_t *)r;
    return inst_line(x->s, x->w, inst, line);
}

static int cb_send(rows16_ctx_t *r, int net, int dst, const int16_t *rec)
{
    ectx_t *x = (ectx_t *)r;
    sys_t *s = x->s;
    const proto_msg_t *m = &s->p->msgs[rec[0]];
    int bound = s->p->nets[net].capacity;
    int c = (net * s->ninst + r->inst) * s->ninst + dst;
    if (bound && x->w->clen[c] >= bound)
        return 1; /* back-pressure: the row waits until the channel has room */
    if (x->w->clen[c] >= s->cap)
        return fail(x, SYS_ERR_INVARIANT,
                    "channel overflow sending %s (raise --param or the capacity)%s", m->name, "");
    memcpy(x->w->chan + ((size_t)c * s->cap + x->w->clen[c]) * s->mw, rec,
           sizeof(int16_t) * (size_t)s->mw);
    x->w->clen[c]++;
    return 0;
}

static void cb_forall(rows16_ctx_t *r, uint64_t from, int to)
{
    ectx_t *x = (ectx_t *)r;
    for (int l = 0; l < x->s->nlines; l++) {
        int16_t *ln = inst_line(x->s, x->w, r->inst, l);
        if (from >> ln[0] & 1)
            ln[0] = (int16_t)to;
    }
}

static int cb_done(rows16_ctx_t *r, int64_t tid, bool has_val, int64_t val)
{
    return thread_done((ectx_t *)r, (int)tid, has_val, val);
}

static const rows16_ops_t sys_ops = {cb_line, cb_send, cb_forall, cb_done};

static int run_actions(ectx_t *x, const proto_row_t *row)
{
    return rows16_run_actions(&x->r, row);
}

static int find_row(ectx_t *x, int event, const proto_row_t **out)
{
    return rows16_find_row(&x->r, event, out);
}

/* ---- successors ---- */

typedef struct {
    sys_t *s;
    work_t *cur;  /* the decoded source state */
    work_t *next; /* scratch for one successor */
    sys_succ_fn fn;
    void *ctx;
    int count;
    const uint8_t *src; /* the source state's encoding */
    size_t srclen;
} succ_t;

/* --lines: does any per-cu instance of W hold more lines outside their initial state? */
static bool over_capacity(const sys_t *s, work_t *w)
{
    for (int i = 0; i < s->ninst; i++) {
        const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
        if (!c->per_cu)
            continue;
        int used = 0;
        for (int l = 0; l < s->nlines; l++)
            used += inst_line(s, w, i, l)[0] != c->init_state;
        if (used > s->cfg.lines)
            return true;
    }
    return false;
}

/* Is 'live' entry Q (-1: none, always live) dead in W (its line outside its live states)? */
static inline bool ent_dead(const sys_t *s, const work_t *w, int q)
{
    if (q < 0)
        return false;
    const struct live_ent *e = &s->lent[q];
    return !(e->live >> w->fixed[e->sslot] & 1);
}

/* Dead line variables back to their initial value; timestamps shifted to the
 * reference (the clock, or the smallest live time) and, with a clock, every
 * expired time collapsed to -1 (docs/time-abstraction.md). */
static void reset_dead(const sys_t *s, work_t *w);

static void normalize(const sys_t *s, work_t *w)
{
    if (s->dead)
        reset_dead(s, w);
    for (int k = 0; k < s->nlent; k++)
        if (ent_dead(s, w, k))
            w->fixed[s->lent[k].slot] = s->lent[k].init;
    if (s->cfg.time_raw || (!s->ntslot && !s->any_tf))
        return;
    int ref = INT16_MAX;
    if (s->clock_slot >= 0) {
        ref = w->fixed[s->clock_slot];
    } else {
        for (int k = 0; k < s->ntslot; k++) {
            if (ent_dead(s, w, s->tlive[k]))
                continue;
            if (w->fixed[s->tslot[k]] < ref)
                ref = w->fixed[s->tslot[k]];
        }
        for (int q = 0; q < s->nlchan; q++) {
            int c = s->lchan[q], len = w->clen[c];
            if (!len)
                continue;
            const int16_t *m = w->chan + (size_t)c * s->cap * s->mw;
            for (int k = 0; k < len; k++, m += s->mw)
                for (const int *f = s->msg_tf[m[0]]; *f >= 0; f++)
                    if (m[2 + *f] < ref)
                        ref = m[2 + *f];
        }
        if (ref == INT16_MAX)
            return;
    }
    int lo = s->clock_slot >= 0 ? -1 : INT16_MIN;
    for (int k = 0; k < s->ntslot; k++) {
        int16_t *v = &w->fixed[s->tslot[k]];
        if (ent_dead(s, w, s->tlive[k]))
            *v = 0;
        else
            *v = (int16_t)(*v - ref < lo ? lo : *v - ref);
    }
    for (int q = 0; q < s->nlchan; q++) {
        int c = s->lchan[q], len = w->clen[c];
        if (!len)
            continue;
        int16_t *m = w->chan + (size_t)c * s->cap * s->mw;
        for (int k = 0; k < len; k++, m += s->mw)
            for (const int *f = s->msg_tf[m[0]]; *f >= 0; f++)
                m[2 + *f] = (int16_t)(m[2 + *f] - ref < lo ? lo : m[2 + *f] - ref);
    }
}

static void sym_canon_work(sys_t *s, work_t *w);

static void emit(succ_t *g, const sys_label_t *lab)
{
    sys_t *s = g->s;
    if (s->cfg.lines > 0 && over_capacity(s, g->next))
        return; /* the cache is full: this step waits for an eviction */
    normalize(s, g->next);
    canon(s, g->next);
    if (s->sym_on)
        sym_canon_work(s, g->next);
    size_t n = encode_succ(s, g->cur, g->src, g->next, s->enc);
    if (lab->kind == SYS_STEP_TICK && n == g->srclen && !memcmp(s->enc, g->src, n))
        return; /* the tick changes nothing any comparison can see: not a step */
    g->fn(g->ctx, s->enc, n, lab);
    g->count++;
}

static void init_ctx(ectx_t *x, sys_t *s, work_t *w, int inst, int line, sys_error_t *err)
{
    x->s = s;
    x->w = w;
    x->r = (rows16_ctx_t){.L = &s->L,
                          .ops = &sys_ops,
                          .inst = inst,
                          .line = line,
                          .msg_src = -1,
                          .tid = -1,
                          .err = err};
    bind(x, w);
}

static void unexpected(sys_error_t *err, const sys_label_t *lab, const char *what, const char *ev,
                       const char *ctrl, const char *state)
{
    err->kind = SYS_ERR_UNEXPECTED;
    err->label = *lab;
    snprintf(err->msg, sizeof err->msg, "%s %s at %s in state %s", what, ev, ctrl, state);
}

static const char *state_name(const sys_t *s, int inst, work_t *w, int line)
{
    if (line < 0)
        return "-";
    const proto_ctrl_t *c = &s->p->ctrls[s->inst[inst].ctrl];
    int st = inst_line(s, w, inst, line)[0];
    return st >= 0 && st < c->nstates ? c->state_names[st] : "?";
}

/* Choose the row for EVENT in context X (on the unchanged state). Returns 1 when
 * a row fires (*ROW), 0 when nothing happens (a stall, or no row for an
 * OPTIONAL event), -1 on an error: an unhandled event (WHAT names it), an
 * impossible row, or a guard that fails to evaluate. */
static int choose_row(succ_t *g, ectx_t *x, int event, const sys_label_t *lab, const char *what,
                      bool optional, const proto_row_t **row)
{
    sys_t *s = g->s;
    if (find_row(x, event, row)) {
        x->r.err->label = *lab;
        return -1;
    }
    if (*row && s->rowhit) {
        int c = s->inst[x->r.inst].ctrl;
        s->rowhit[c][*row - s->p->ctrls[c].rows] = 1;
    }
    if (!*row && optional)
        return 0;
    if (!*row || (*row)->kind == PROTO_ROW_IMPOSSIBLE) {
        char kind[64];
        snprintf(kind, sizeof kind, "%s %s", *row ? "impossible" : "unhandled", what);
        unexpected(x->r.err, lab, kind, s->p->events[event].name, ctrl_name(s, x->r.inst),
                   state_name(s, x->r.inst, g->cur, x->r.line));
        return -1;
    }
    return (*row)->kind != PROTO_ROW_STALL;
}

/* Thread T delivers its pending core event. */
static int step_thread(succ_t *g, int t, sys_error_t *err)
{
    sys_t *s = g->s;
    int16_t *th = thread_slot(g->cur, t);
    if (th[TH_STATUS] != ST_RUN)
        return 0;
    const prog_instr_t *in = cur_instr(s, g->cur, t);
    const proto_map_t *m = s->maps[s->map_base[t] + th[TH_PC]];
    int ev = m->events[th[TH_STEP]];
    int inst = -1;
    for (int i = 0; i < s->ninst; i++)
        if (s->inst[i].ctrl == s->p->core_ctrl && s->inst[i].cu == s->prog->threads[t].cu)
            inst = i;
    int line = s->p->events[ev].line
                   ? s->loc_line[prog_instr_loc(in, in->indexed ? th[TH_REGS + in->idx_reg] : 0)]
                   : -1;
    ectx_t x;
    init_ctx(&x, s, g->cur, inst, line, err); /* rows are chosen on the unchanged state */
    x.r.tid = t;
    x.r.instr = in;
    x.r.regs = thread_slot(g->cur, t) + TH_REGS;
    const proto_row_t *row;
    sys_label_t lab = {SYS_STEP_CORE, (uint8_t)t, (uint16_t)ev,
                       (uint16_t)(line < 0 ? 0xffff : line)};
    int fire = choose_row(g, &x, ev, &lab, "core event", false, &row);
    if (fire <= 0)
        return fire;
    copy_cur(s, g->cur, g->next);
    bind(&x, g->next);
    int ran = run_actions(&x, row);
    if (ran < 0) {
        err->label = lab;
        return -1;
    }
    if (ran > 0)
        return 0; /* a bounded channel is full: the event waits */
    int16_t *nth = thread_slot(g->next, t);
    if (x.r.did_done) {
        nth[TH_STEP]++;
        if (nth[TH_STEP] >= m->nevents) {
            nth[TH_PC]++;
            if (advance(s, g->next, t, err)) {
                err->label = lab;
                return -1;
            }
        }
    } else if (x.r.did_wait) {
        nth[TH_STATUS] = ST_WAIT;
    }
    emit(g, &lab);
    return 0;
}

/* Receive the message at position POS of channel C. */
static int step_msg(succ_t *g, int c, int pos, sys_error_t *err)
{
    sys_t *s = g->s;
    const int16_t *rec = g->cur->chan + ((size_t)c * s->cap + pos) * s->mw;
    int dst = chan_dst(s, c);
    int msg = rec[0];
    int line = rec[1];
    ectx_t x;
    init_ctx(&x, s, g->cur, dst, line, err); /* rows are chosen on the unchanged state */
    x.r.msg = rec;                           /* the source state's copy stays valid */
    x.r.msg_src = chan_src(s, c);
    sys_label_t lab = {SYS_STEP_MSG, (uint8_t)dst, (uint16_t)c, (uint16_t)pos};
    const proto_row_t *row;
    int fire = choose_row(g, &x, msg, &lab, "message", false, &row);
    if (fire <= 0)
        return fire;
    copy_cur(s, g->cur, g->next);
    /* Remove the message from the copy; REC (the source state's) stays valid. */
    int16_t *m = g->next->chan + (size_t)c * s->cap * s->mw;
    memmove(m + pos * s->mw, m + (pos + 1) * s->mw,
            sizeof(int16_t) * (size_t)(g->next->clen[c] - pos - 1) * (size_t)s->mw);
    g->next->clen[c]--;
    bind(&x, g->next);
    int ran = run_actions(&x, row);
    if (ran < 0) {
        err->label = lab;
        return -1;
    }
    if (ran > 0)
        return 0; /* a bounded channel is full: the event waits */
    emit(g, &lab);
    return 0;
}

static bool env_enabled(const sys_t *s, const char *name)
{
    for (int k = 0; k < s->cfg.nenv_names; k++)
        if (!strcmp(name, s->cfg.env_names[k]))
            return true;
    return s->cfg.env_all || (!strcmp(name, "fetch") && (s->cfg.env & SYS_ENV_FETCH)) ||
           (!strcmp(name, "evict") && (s->cfg.env & SYS_ENV_EVICT)) ||
           (!strcmp(name, "writeback") && (s->cfg.env & SYS_ENV_WRITEBACK));
}

bool sys_event_on(const sys_t *s, int ev)
{
    const proto_event_t *e = &s->p->events[ev];
    return e->kind != PROTO_EV_ENV || env_enabled(s, e->name);
}

const char *sys_step_env(const sys_t *s, const sys_label_t *label)
{
    if (label->kind != SYS_STEP_INTERNAL || label->what >= s->p->nevents)
        return NULL;
    const proto_event_t *e = &s->p->events[label->what];
    return e->kind == PROTO_EV_ENV ? e->name : NULL;
}

int sys_env_off(const sys_t *s, strbuf_t *out)
{
    int n = 0;
    for (int ev = 0; ev < s->p->nevents; ev++) {
        const proto_event_t *e = &s->p->events[ev];
        if (e->kind == PROTO_EV_ENV && !env_enabled(s, e->name))
            sb_printf(out, "%s%s", n++ ? "," : "", e->name);
    }
    return n;
}

/* Internal and environment events of instance I on LINE (-1: controller-level). */
static int step_internal(succ_t *g, int i, int ev, int line, sys_error_t *err)
{
    sys_t *s = g->s;
    if (line >= 0 &&
        !(s->ev_states[s->inst[i].ctrl * s->p->nevents + ev] >> inst_line(s, g->cur, i, line)[0] &
          1))
        return 0; /* no row for the line's state: the event is not enabled */
    ectx_t x;
    init_ctx(&x, s, g->cur, i, line, err); /* rows are chosen on the unchanged state */
    const proto_row_t *row;
    sys_label_t lab = {SYS_STEP_INTERNAL, (uint8_t)i, (uint16_t)ev,
                       (uint16_t)(line < 0 ? 0xffff : line)};
    /* Internal and environment events are optional: no row, nothing happens. */
    int fire = choose_row(g, &x, ev, &lab, "event", true, &row);
    if (fire <= 0)
        return fire;
    copy_cur(s, g->cur, g->next); /* only now: most attempted events take no row */
    bind(&x, g->next);
    int ran = run_actions(&x, row);
    if (ran < 0) {
        err->label = lab;
        return -1;
    }
    if (ran > 0)
        return 0; /* a bounded channel is full: the event waits */
    emit(g, &lab);
    return 0;
}

int sys_successors(sys_t *s, const uint8_t *state, size_t len, sys_succ_fn fn, void *ctx,
                   sys_error_t *err)
{
    work_t cur = load_cur(s, state, len);
    work_t next = {s->w2fixed, s->w2chan, s->w2clen};
    succ_t g = {s, &cur, &next, fn, ctx, 0, state, len};
    memset(err, 0, sizeof *err);
    s->nne = 0;
    for (int q = 0; q < s->nlchan; q++)
        if (cur.clen[s->lchan[q]])
            s->ne_chan[s->nne++] = s->lchan[q];
    for (int t = 0; t < s->nthreads; t++)
        if (step_thread(&g, t, err))
            return -1;
    for (int q = 0; q < s->nlchan; q++) {
        int c = s->lchan[q];
        int n = cur.clen[c];
        if (!n)
            continue;
        if (chan_ordered(s, c)) {
            if (step_msg(&g, c, 0, err))
                return -1;
            continue;
        }
        const int16_t *m = cur.chan + (size_t)c * s->cap * s->mw;
        for (int k = 0; k < n; k++) {
            if (k > 0 && !rec_cmp(m + (k - 1) * s->mw, m + k * s->mw, s->mw))
                continue; /* identical messages: one successor */
            if (step_msg(&g, c, k, err))
                return -1;
        }
    }
    for (int i = 0; i < s->ninst; i++) {
        for (const int *ep = s->iev[s->inst[i].ctrl]; *ep >= 0; ep++) {
            int ev = *ep;
            const proto_event_t *e = &s->p->events[ev];
            if (!e->line) {
                if (step_internal(&g, i, ev, -1, err))
                    return -1;
                continue;
            }
            for (int l = 0; l < s->nlines; l++)
                if (step_internal(&g, i, ev, l, err))
                    return -1;
        }
    }
    if (s->clock_slot >= 0) {
        copy_cur(s, &cur, &next);
        if (next.fixed[s->clock_slot] >= VAL_MAX) {
            err->kind = SYS_ERR_INVARIANT;
            snprintf(err->msg, sizeof err->msg, "clock overflow (raw time: bound the search)");
            return -1;
        }
        next.fixed[s->clock_slot]++;
        sys_label_t lab = {SYS_STEP_TICK, 0, 0, 0xffff};
        emit(&g, &lab);
    }
    return g.count;
}

int sys_check(sys_t *s, const uint8_t *state, size_t len, sys_error_t *err)
{
    memset(err, 0, sizeof *err);
    if (!s->p->ninvs)
        return 0;
    work_t cur = load_cur(s, state, len);
    for (int k = 0; k < s->p->ninvs; k++) {
        for (int l = 0; l < s->nlines; l++) {
            ectx_t x;
            init_ctx(&x, s, &cur, 0, l, err);
            int64_t v;
            if (eval(&x, s->p->invs[k].expr, &v))
                return -1;
            if (!v) {
                err->kind = SYS_ERR_INVARIANT;
                snprintf(err->msg, sizeof err->msg, "invariant %s fails on line of %s",
                         s->p->invs[k].name, s->prog->locs[s->line_locs[l][0]].name);
                return -1;
            }
        }
    }
    return 0;
}

bool sys_terminal(sys_t *s, const uint8_t *state, size_t len)
{
    work_t cur = load_cur(s, state, len);
    for (int t = 0; t < s->nthreads; t++)
        if (thread_slot(&cur, t)[TH_STATUS] != ST_DONE)
            return false;
    for (int q = 0; q < s->nlchan; q++)
        if (cur.clen[s->lchan[q]])
            return false;
    return true;
}

/* Location L's final value by the protocol's 'final' declarations: true
 * with *V, false when none applies (then the default home is read). */
static bool final_value(const sys_t *s, work_t *w, int l, int *v)
{
    const proto_t *p = s->p;
    int line = s->loc_line[l];
    for (int f = 0; f < p->nfinals; f++) {
        const proto_final_t *fd = &p->finals[f];
        for (int i = 0; i < s->ninst; i++) {
            if (s->inst[i].ctrl != fd->ctrl)
                continue;
            const int16_t *ln = inst_line(s, w, i, line);
            if (fd->states && !(fd->states >> ln[0] & 1))
                continue;
            if (fd->mask >= 0 && !(ln[s->lv_off[fd->ctrl][fd->mask]] >> s->locpos[l] & 1))
                continue;
            *v = ln[s->lv_off[fd->ctrl][fd->var] + s->locpos[l]];
            return true;
        }
    }
    return false;
}

void sys_outcome(sys_t *s, const uint8_t *state, size_t len, prog_val_t *out)
{
    work_t cur = load_cur(s, state, len);
    int k = 0;
    uint32_t written[PROG_MAX_THREADS] = {0};
    for (int t = 0; t < s->prog->nthreads; t++)
        for (int i = 0; i < s->prog->threads[t].ninstr; i++) {
            const prog_instr_t *in = &s->prog->threads[t].instr[i];
            if (prog_writes_reg(in))
                written[t] |= 1u << in->reg;
        }
    for (int t = 0; t < s->prog->nthreads; t++)
        for (int r = 0; r < PROG_MAX_REGS; r++)
            if (written[t] >> r & 1)
                out[k++] = thread_slot(&cur, t)[TH_REGS + r];
    int home = -1;
    for (int i = 0; i < s->ninst; i++)
        if (s->inst[i].ctrl == s->home_ctrl)
            home = i;
    for (int l = 0; l < s->prog->nlocs; l++) {
        int v;
        if (final_value(s, &cur, l, &v)) {
            out[k++] = v;
            continue;
        }
        if (home < 0) {
            out[k++] = s->prog->locs[l].init;
            continue;
        }
        int line = s->loc_line[l];
        out[k++] =
            inst_line(s, &cur, home, line)[s->lv_off[s->home_ctrl][s->home_var] + s->locpos[l]];
    }
}

/* ---- values no step reads ---- */

#define DEAD_ALL 63

static int type_width(const sys_t *s, const proto_type_t *t);

uint64_t *sys_future_lines(const sys_t *s, int t, bool (*sel)(void *ctx, int ev), void *ctx)
{
    const proto_t *p = s->p;
    const prog_thread_t *th = &s->prog->threads[t];
    uint64_t *f = xcalloc((size_t)th->ninstr + 1, sizeof(uint64_t));
    for (bool more = true; more;) {
        more = false;
        for (int i = th->ninstr - 1; i >= 0; i--) {
            const prog_instr_t *in = &th->instr[i];
            const proto_map_t *m = s->maps[s->map_base[t] + i];
            uint64_t v = in->op == PROG_OP_B ? 0 : f[i + 1];
            if (prog_is_branch(in))
                v |= in->target >= 0 && in->target <= th->ninstr ? f[in->target]
                                                                 : (uint64_t)1 << DEAD_ALL;
            for (int k = 0; m && k < m->nevents; k++) {
                if (!sel(ctx, m->events[k]))
                    continue;
                /* An indexed access may touch any element of its array. */
                for (int e = 0; e < (in->indexed ? in->idx_len : 1); e++) {
                    int l = p->events[m->events[k]].line && in->op != PROG_OP_FENCE
                                ? s->loc_line[in->loc + e]
                                : DEAD_ALL;
                    v |= (uint64_t)1 << (l < DEAD_ALL ? l : DEAD_ALL);
                }
            }
            if (v != f[i]) {
                f[i] = v;
                more = true;
            }
        }
    }
    return f;
}

static bool event_in(void *ctx, int ev)
{
    return ((const bool *)ctx)[ev];
}

/* Reset, in W, every dvar of a per-cu instance on a line none of its CU's remaining
 * instructions may read it on, and every message field bound only for such a
 * variable (docs/por.md, "Values no step reads"). */
static void reset_dead(const sys_t *s, work_t *w)
{
    const proto_t *p = s->p;
    for (int i = 0; i < s->ninst; i++) {
        int c = s->inst[i].ctrl, cu = s->inst[i].cu;
        if (cu < 0 || !s->dvar[c])
            continue;
        uint64_t live = 0;
        if (c == p->core_ctrl)
            for (int t = 0; t < s->nthreads; t++) {
                const int16_t *th = thread_slot(w, t);
                if (s->prog->threads[t].cu == cu && th[TH_STATUS] != ST_DONE)
                    live |= s->dread[t][th[TH_PC] < 0 ? 0 : th[TH_PC]];
            }
        if (live >> DEAD_ALL & 1)
            continue;
        const int *ow = s->dvar_ow[c];
        for (int l = 0; l < s->nlines; l++) {
            if (live >> (l < DEAD_ALL ? l : DEAD_ALL) & 1)
                continue;
            int16_t *ln = inst_line(s, w, i, l);
            for (const int *o = ow; *o >= 0; o += 2)
                for (int k = 0; k < o[1]; k++)
                    ln[o[0] + k] = 0;
        }
        for (int q = s->dst_off[i]; q < s->dst_off[i + 1]; q++) {
            int ch = s->dst_lchan[q], len = w->clen[ch];
            if (!len)
                continue;
            int16_t *m = w->chan + (size_t)ch * s->cap * s->mw;
            for (int k = 0; k < len; k++, m += s->mw) {
                uint64_t f = s->dfld[c * p->nmsgs + m[0]];
                if (!f || m[1] < 0 || (live >> (m[1] < DEAD_ALL ? m[1] : DEAD_ALL) & 1))
                    continue;
                for (int j = 0; j < p->msgs[m[0]].nfields; j++)
                    if (f >> j & 1)
                        memset(m + 2 + s->msg_foff[m[0]][j], 0,
                               sizeof(int16_t) *
                                   (size_t)type_width(s, &p->msgs[m[0]].fields[j].type));
            }
        }
    }
}

/* PROTO_E_LINEVAR V (-1: any) */
static bool is_var(const proto_expr_t *e, int v)
{
    return e->kind == PROTO_E_LINEVAR && (v < 0 || e->index == v);
}

static bool is_field(const proto_expr_t *e, int f)
{
    return e->kind == PROTO_E_MSGF && e->index == f;
}

/* Whether ROW reads line variable V (-1: any): in its guard or an action's
 * expression; `V := V` (a no-op) is no read. */
static bool row_reads_var(const proto_t *p, const proto_row_t *row, int v)
{
    if (proto_expr_any(row->guard, is_var, v))
        return true;
    for (int k = 0; k < row->nactions; k++) {
        const proto_action_t *a = &row->actions[k];
        if (a->kind == PROTO_A_ASSIGN && a->line_var && !a->index && a->value &&
            a->value->kind == PROTO_E_LINEVAR && a->value->index == a->var &&
            (v < 0 || a->var == v))
            continue;
        if (proto_action_any(p, a, is_var, v))
            return true;
    }
    return false;
}

/* Whether field F of the message ROW receives is used only as `V := msg.F` with
 * dvar V of controller C. */
static bool field_only_copied(const sys_t *s, int c, const proto_row_t *row, int f)
{
    const proto_t *p = s->p;
    if (proto_expr_any(row->guard, is_field, f))
        return false;
    for (int k = 0; k < row->nactions; k++) {
        const proto_action_t *a = &row->actions[k];
        if (a->kind == PROTO_A_ASSIGN && a->line_var && !a->index && a->value &&
            a->value->kind == PROTO_E_MSGF && a->value->index == f && s->dvar[c] &&
            s->dvar[c][a->var]) {
            /* the copy can fail no range check: the field's type is the variable's */
            const proto_type_t *ft = &p->msgs[row->event].fields[f].type;
            const proto_type_t *vt = &p->ctrls[c].linevars[a->var].type;
            if (ft->kind == vt->kind && ft->lo == vt->lo && ft->hi == vt->hi &&
                ft->ncus == vt->ncus && ft->nthreads == vt->nthreads)
                continue;
        }
        if (proto_action_any(p, a, is_field, f))
            return false;
    }
    return true;
}

/* The analysis behind sys_set_dead: which line variables only core events read,
 * which message fields only feed them, and per thread and pc the lines its
 * remaining instructions may read them on. */
static void dead_build(sys_t *s)
{
    const proto_t *p = s->p;
    s->dvar = xcalloc((size_t)p->nctrls + 1, sizeof *s->dvar);
    s->dfld = xcalloc((size_t)p->nctrls * (size_t)p->nmsgs + 1, sizeof(uint64_t));
    s->dread = xcalloc((size_t)s->nthreads + 1, sizeof *s->dread);
    for (int c = 0; c < p->nctrls && !p->ninvs; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        bool any = false, final = c == s->home_ctrl;
        for (int f = 0; f < p->nfinals; f++)
            final |= p->finals[f].ctrl == c;
        if (!pc->per_cu || final)
            continue;
        bool *dv = xcalloc((size_t)pc->nlinevars + 1, sizeof(bool));
        for (int v = 0; v < pc->nlinevars; v++) {
            /* times take part in the normalization of the others; 'live' ones have theirs */
            dv[v] =
                pc->linevars[v].type.kind != PROTO_T_TIME && pc->linevars[v].live == ~(uint64_t)0;
            for (int r = 0; r < pc->nrows && dv[v]; r++) {
                const proto_row_t *row = &pc->rows[r];
                bool core = row->event >= p->nmsgs && row->event < p->nevents &&
                            p->events[row->event].kind == PROTO_EV_CORE;
                if (!core && row_reads_var(p, row, v))
                    dv[v] = false;
            }
            any |= dv[v];
        }
        if (!any) {
            free(dv);
            continue;
        }
        s->dvar[c] = dv;
        if (!s->dvar_ow)
            s->dvar_ow = xcalloc((size_t)p->nctrls + 1, sizeof *s->dvar_ow);
        int *ow = s->dvar_ow[c] = xcalloc(2 * (size_t)pc->nlinevars + 1, sizeof(int)), n = 0;
        for (int v = 0; v < pc->nlinevars; v++)
            if (dv[v]) {
                ow[n++] = s->lv_off[c][v];
                ow[n++] = type_width(s, &pc->linevars[v].type);
            }
        ow[n] = -1;
        for (int m = 0; m < p->nmsgs; m++)
            for (int f = 0; f < p->msgs[m].nfields && f < 64; f++) {
                bool only = true, used = false;
                for (int r = 0; r < pc->nrows && only; r++)
                    if (pc->rows[r].event == m) {
                        used = true;
                        only = field_only_copied(s, c, &pc->rows[r], f);
                    }
                if (used && only)
                    s->dfld[c * p->nmsgs + m] |= (uint64_t)1 << f;
            }
    }
    /* Per thread: the lines instructions from each pc on may read dvars on. */
    int core = p->core_ctrl;
    bool *reads = xcalloc((size_t)p->nevents + 1, sizeof(bool)); /* per core event */
    for (int r = 0; core >= 0 && s->dvar[core] && r < p->ctrls[core].nrows; r++) {
        const proto_row_t *row = &p->ctrls[core].rows[r];
        for (int v = 0; v < p->ctrls[core].nlinevars && row->event >= 0; v++)
            if (s->dvar[core][v] && row_reads_var(p, row, v))
                reads[row->event] = true;
    }
    for (int t = 0; t < s->nthreads; t++)
        s->dread[t] = sys_future_lines(s, t, event_in, reads);
    free(reads);
}

void sys_set_dead(sys_t *s, bool on)
{
    if (on && !s->dvar)
        dead_build(s);
    s->dead = on;
    s->dec_len = 0; /* decoded states were normalized under the old setting */
}

/* ---- construction ---- */

static int type_width(const sys_t *s, const proto_type_t *t)
{
    return t->kind == PROTO_T_DATA ? s->maxlocs : 1;
}

void sys_lines_build(const proto_t *p, const prog_t *prog, sys_lines_t *out)
{
    memset(out, 0, sizeof *out);
    out->loc_line = xcalloc((size_t)prog->nlocs + 1, sizeof(int));
    for (int i = 0; i < prog->nlocs; i++)
        out->loc_line[i] = p->granularity_word ? i : prog->locs[i].line_id;
    out->nlines = p->granularity_word ? prog->nlocs : prog->nlines;
    out->locpos = xcalloc((size_t)prog->nlocs + 1, sizeof(int));
    out->line_nlocs = xcalloc((size_t)out->nlines + 1, sizeof(int));
    out->line_locs = xcalloc((size_t)out->nlines + 1, sizeof(int *));
    /* Sized per line (a kernel has many lines: nlines x nlocs would not fit). */
    for (int i = 0; i < prog->nlocs; i++)
        out->line_nlocs[out->loc_line[i]]++;
    for (int l = 0; l < out->nlines; l++) {
        out->line_locs[l] = xcalloc((size_t)out->line_nlocs[l] + 1, sizeof(int));
        out->line_nlocs[l] = 0;
    }
    for (int i = 0; i < prog->nlocs; i++) {
        int l = out->loc_line[i];
        out->locpos[i] = out->line_nlocs[l];
        out->line_locs[l][out->line_nlocs[l]++] = i;
        if (out->line_nlocs[l] > out->maxlocs)
            out->maxlocs = out->line_nlocs[l];
    }
    if (out->maxlocs == 0)
        out->maxlocs = 1;
}

void sys_lines_free(sys_lines_t *ln)
{
    for (int l = 0; ln->line_locs && l < ln->nlines; l++)
        free(ln->line_locs[l]);
    free(ln->line_locs);
    free(ln->loc_line);
    free(ln->locpos);
    free(ln->line_nlocs);
    memset(ln, 0, sizeof *ln);
}

int sys_new(const proto_t *p, const prog_t *prog, const sys_config_t *cfg, sys_t **out, diag_t *err)
{
    sys_t *s = xcalloc(1, sizeof *s);
    int rc = -1;
    s->p = p;
    s->prog = prog;
    s->has_join = prog_has_join(prog);
    s->cfg = *cfg;
    s->nthreads = prog->nthreads;
    if (prog->nthreads > PROG_MAX_THREADS) {
        diag_set(err, prog->file, 0, 0,
                 "too many threads for the explorer (%d; at most %d): lower the workload's "
                 "parameters (--param)",
                 prog->nthreads, PROG_MAX_THREADS);
        goto fail;
    }
    prog_val_t bad;
    int bl, bc;
    if (prog_value_outside(prog, -VAL_MAX, VAL_MAX, &bad, &bl, &bc)) {
        diag_set(err, prog->file, bl, bc,
                 "value %lld does not fit the explorer's 16-bit slots (%d..%d)%s", (long long)bad,
                 -VAL_MAX, VAL_MAX,
                 prog->nparams ? ": lower the workload's parameters (--param)" : "");
        goto fail;
    }
    int need = 0;
    for (int t = 0; t < prog->nthreads; t++)
        if (prog->threads[t].cu + 1 > need)
            need = prog->threads[t].cu + 1;
    s->ncus = cfg->cus > 0 ? cfg->cus : need;
    if (s->ncus < need) {
        diag_set(err, prog->file, 0, 0,
                 "the test places threads on %d compute units but --cus is %d", need, cfg->cus);
        goto fail;
    }
    for (int c = 0; c < p->nctrls; c++) {
        int n = p->ctrls[c].per_cu ? s->ncus : 1;
        for (int k = 0; k < n; k++) {
            if (s->ninst >= MAX_INST || s->ninst >= 255) {
                diag_set(err, p->file, 0, 0, "too many controller instances (at most %d)",
                         MAX_INST);
                goto fail;
            }
            s->inst[s->ninst].ctrl = c;
            s->inst[s->ninst].cu = p->ctrls[c].per_cu ? k : -1;
            s->ninst++;
        }
    }
    if (p->outstanding > 1) {
        diag_set(err, p->file, 0, 0,
                 "protocol %s: 'outstanding %d' is not supported by the explorer yet (a thread "
                 "waits for each instruction; see docs/warts.md)",
                 p->name, p->outstanding);
        goto fail;
    }
    for (int k = 0; k < cfg->nenv_names; k++) {
        bool found = false;
        for (int e = 0; e < p->nevents; e++)
            found |=
                p->events[e].kind == PROTO_EV_ENV && !strcmp(p->events[e].name, cfg->env_names[k]);
        if (!found) {
            diag_set(err, p->file, 0, 0, "protocol %s has no environment event '%s' (--env)",
                     p->name, cfg->env_names[k]);
            goto fail;
        }
    }
    /* Lines and their locations. */
    {
        sys_lines_t ln;
        sys_lines_build(p, prog, &ln);
        s->loc_line = ln.loc_line;
        s->locpos = ln.locpos;
        s->line_nlocs = ln.line_nlocs;
        s->line_locs = ln.line_locs;
        s->nlines = ln.nlines;
        s->maxlocs = ln.maxlocs;
    }
    /* Controller layouts. */
    s->line_w = xcalloc((size_t)p->nctrls, sizeof(int));
    s->inst_w = xcalloc((size_t)p->nctrls, sizeof(int));
    s->lv_off = xcalloc((size_t)p->nctrls, sizeof(int *));
    s->cv_off = xcalloc((size_t)p->nctrls, sizeof(int *));
    s->home_ctrl = -1;
    for (int c = 0; c < p->nctrls; c++) {
        const proto_ctrl_t *pc = &p->ctrls[c];
        s->lv_off[c] = xcalloc((size_t)pc->nlinevars + 1, sizeof(int));
        s->cv_off[c] = xcalloc((size_t)pc->nctrlvars + 1, sizeof(int));
        int w = 1;
        for (int v = 0; v < pc->nlinevars; v++) {
            s->lv_off[c][v] = w;
            w += type_width(s, &pc->linevars[v].type);
            if (s->home_ctrl < 0 && !pc->per_cu && pc->linevars[v].type.kind == PROTO_T_DATA &&
                pc->linevars[v].init_initial) {
                s->home_ctrl = c;
                s->home_var = v;
            }
        }
        s->line_w[c] = w;
        int cw = 0;
        for (int v = 0; v < pc->nctrlvars; v++) {
            s->cv_off[c][v] = cw;
            cw += pc->ctrlvars[v].per_thread ? s->nthreads : type_width(s, &pc->ctrlvars[v].type);
        }
        s->inst_w[c] = s->nlines * w + cw;
    }
    s->nfixed = s->nthreads * TH_W;
    for (int i = 0; i < s->ninst; i++) {
        s->inst[i].base = s->nfixed;
        s->nfixed += s->inst_w[s->inst[i].ctrl];
    }
    s->clock_slot = p->clock ? s->nfixed++ : -1;
    /* Messages and channels. */
    s->msg_foff = xcalloc((size_t)p->nmsgs + 1, sizeof(int *));
    int mw = 2;
    s->mw_stored = 2;
    for (int m = 0; m < p->nmsgs; m++) {
        s->msg_foff[m] = xcalloc((size_t)p->msgs[m].nfields + 1, sizeof(int));
        int w = 0, ws = 0;
        for (int f = 0; f < p->msgs[m].nfields; f++) {
            s->msg_foff[m][f] = w;
            w += type_width(s, &p->msgs[m].fields[f].type);
            ws += p->msgs[m].fields[f].ghost ? 0 : type_width(s, &p->msgs[m].fields[f].type);
        }
        if (2 + w > mw)
            mw = 2 + w;
        if (2 + ws > s->mw_stored)
            s->mw_stored = 2 + ws;
    }
    if (mw > 256) {
        diag_set(err, p->file, 0, 0, "messages too wide for this test (%d slots)", mw);
        goto fail;
    }
    s->mw = mw;
    s->cap = cfg->chan_capacity > 0 ? cfg->chan_capacity : 8;
    for (int n = 0; n < p->nnets; n++) /* a bounded network never overflows */
        if (p->nets[n].capacity > s->cap)
            s->cap = p->nets[n].capacity;
    if (s->cap > 255)
        s->cap = 255;
    s->nchan = p->nnets * s->ninst * s->ninst;
    s->ch_src = xcalloc((size_t)s->nchan + 1, sizeof(int));
    s->ch_dst = xcalloc((size_t)s->nchan + 1, sizeof(int));
    s->ch_net = xcalloc((size_t)s->nchan + 1, sizeof(int));
    for (int c = 0; c < s->nchan; c++) {
        s->ch_net[c] = c / (s->ninst * s->ninst);
        s->ch_src[c] = c / s->ninst % s->ninst;
        s->ch_dst[c] = c % s->ninst;
    }
    /* Core maps for every memory instruction. */
    s->map_base = xcalloc((size_t)prog->nthreads + 1, sizeof(int));
    int total = 0;
    for (int t = 0; t < prog->nthreads; t++) {
        s->map_base[t] = total;
        total += prog->threads[t].ninstr;
    }
    s->maps = xcalloc((size_t)total + 1, sizeof *s->maps);
    for (int t = 0; t < prog->nthreads; t++)
        for (int i = 0; i < prog->threads[t].ninstr; i++) {
            const prog_instr_t *in = &prog->threads[t].instr[i];
            if (!is_mem(in))
                continue;
            const proto_map_t *m = proto_find_map(p, in->op, in->ord, in->scope);
            if (!m) {
                diag_set(err, prog->file, in->line, in->col,
                         "protocol %s has no core map for this instruction (%s%s%s%s%s)", p->name,
                         (const char *[]){"ld", "st", "rmw", "cas", "fence"}[in->op],
                         in->ord ? "." : "", prog_ord_name(in->ord), in->scope ? "." : "",
                         prog_scope_name(in->scope));
                rc = -2;
                goto fail;
            }
            for (int k = 0; k < m->nevents; k++)
                if (in->op == PROG_OP_FENCE && p->events[m->events[k]].line) {
                    diag_set(err, prog->file, in->line, in->col,
                             "protocol %s maps a fence to line event '%s'", p->name,
                             p->events[m->events[k]].name);
                    goto fail;
                }
            s->maps[s->map_base[t] + i] = m;
        }
    /* Rows by (controller, event), in file order: find_row scans only its event's rows. */
    s->ev_rows = xcalloc((size_t)p->nctrls * (size_t)p->nevents + 1, sizeof(int *));
    s->ev_states = xcalloc((size_t)p->nctrls * (size_t)p->nevents + 1, sizeof(uint64_t));
    for (int c = 0; c < p->nctrls; c++)
        for (int e = 0; e < p->nevents; e++) {
            int n = 0;
            for (int r = 0; r < p->ctrls[c].nrows; r++)
                n += p->ctrls[c].rows[r].event == e;
            int *list = xmalloc(sizeof(int) * (size_t)(n + 1));
            n = 0;
            for (int r = 0; r < p->ctrls[c].nrows; r++)
                if (p->ctrls[c].rows[r].event == e)
                    list[n++] = r;
            list[n] = -1;
            s->ev_rows[c * p->nevents + e] = list;
            for (int k = 0; k < n; k++)
                s->ev_states[c * p->nevents + e] |= p->ctrls[c].rows[list[k]].states;
        }
    for (int i = 0; i < s->ninst; i++) {
        s->inst_ctrl[i] = s->inst[i].ctrl;
        s->inst_cu[i] = s->inst[i].cu;
    }
    s->L = (rows_layout_t){p,           prog,       s->ninst,     s->nthreads,
                           s->maxlocs,  s->mw,      s->inst_ctrl, s->inst_cu,
                           s->loc_line, s->locpos,  s->lv_off,    s->cv_off,
                           s->msg_foff, s->ev_rows, s->ncus,      NULL};
    /* Encoding widths: pc/step/status and line states in a byte, registers a thread
     * never names skipped, small bounded variables in a byte, the rest 16 bits. */
    s->fw = xcalloc((size_t)s->nfixed + 1, 1);
    for (int t = 0; t < s->nthreads; t++) {
        uint8_t *f = s->fw + t * TH_W;
        const prog_thread_t *pt = &prog->threads[t];
        f[TH_PC] = pt->ninstr < 255 ? W_BYTE : W_HALF;
        f[TH_STEP] = W_BYTE;
        f[TH_STATUS] = W_BYTE;
        for (int i = 0; i < pt->ninstr; i++) {
            const prog_instr_t *in = &pt->instr[i];
            if (prog_writes_reg(in) || (prog_is_branch(in) && in->op != PROG_OP_B))
                f[TH_REGS + in->reg] = W_HALF;
            if (in->indexed)
                f[TH_REGS + in->idx_reg] = W_HALF;
            if (in->a.is_reg)
                f[TH_REGS + in->a.v] = W_HALF;
            if (in->b.is_reg)
                f[TH_REGS + in->b.v] = W_HALF;
        }
    }
    for (int i = 0; i < s->ninst; i++) {
        int ci = s->inst[i].ctrl;
        const proto_ctrl_t *pc = &p->ctrls[ci];
        for (int l = 0; l < s->nlines; l++) {
            uint8_t *f = s->fw + s->inst[i].base + l * s->line_w[ci];
            f[0] = W_BYTE;
            for (int v = 0; v < pc->nlinevars; v++) {
                const proto_type_t *ty = &pc->linevars[v].type;
                int wd = type_width(s, ty);
                for (int k = 0; k < wd; k++)
                    f[s->lv_off[ci][v] + k] =
                        pc->linevars[v].ghost ? W_SKIP /* 0 in every state (proto.h, Ghosts) */
                        : (ty->kind == PROTO_T_BOOL || (ty->kind == PROTO_T_INT && ty->lo >= 0 &&
                                                        proto_type_hi(ty, s->nthreads) <= 255))
                            ? W_BYTE
                            : W_HALF;
            }
        }
        uint8_t *f = s->fw + s->inst[i].base + s->nlines * s->line_w[ci];
        for (int v = 0; v < pc->nctrlvars; v++) {
            const proto_type_t *ty = &pc->ctrlvars[v].type;
            bool pt = pc->ctrlvars[v].per_thread;
            int wd = pt ? s->nthreads : type_width(s, ty);
            for (int k = 0; k < wd; k++)
                f[s->cv_off[ci][v] + k] =
                    pt && s->inst[i].cu >= 0 && prog->threads[k].cu != s->inst[i].cu
                        ? W_SKIP /* another CU's thread: never used here */
                    : (ty->kind == PROTO_T_BOOL || (ty->kind == PROTO_T_INT && ty->lo >= 0 &&
                                                    proto_type_hi(ty, s->nthreads) <= 255))
                        ? W_BYTE
                        : W_HALF;
        }
    }
    if (s->clock_slot >= 0)
        s->fw[s->clock_slot] = W_HALF;
    /* Time slots, and line variables with a 'live' clause. */
    s->tslot = xcalloc((size_t)s->nfixed + 1, sizeof(int));
    s->tlive = xcalloc((size_t)s->nfixed + 1, sizeof(int));
    s->lent = xcalloc((size_t)s->nfixed + 1, sizeof *s->lent);
    if (s->clock_slot >= 0) {
        s->tlive[s->ntslot] = -1;
        s->tslot[s->ntslot++] = s->clock_slot;
    }
    for (int i = 0; i < s->ninst; i++) {
        int ci = s->inst[i].ctrl;
        const proto_ctrl_t *pc = &p->ctrls[ci];
        for (int l = 0; l < s->nlines; l++)
            for (int v = 0; v < pc->nlinevars; v++) {
                const proto_var_t *var = &pc->linevars[v];
                int slot = s->inst[i].base + l * s->line_w[ci] + s->lv_off[ci][v];
                int q = -1;
                if (var->live != ~(uint64_t)0 && var->type.kind != PROTO_T_DATA) {
                    q = s->nlent++;
                    int64_t init = 0;
                    if (var->init && var->type.kind != PROTO_T_TIME) {
                        ectx_t x;
                        sys_error_t e2 = {0};
                        work_t w0 = {NULL, NULL, NULL};
                        init_ctx(&x, s, &w0, i, l, &e2);
                        if (eval(&x, var->init, &init))
                            init = 0;
                    }
                    s->lent[q] = (struct live_ent){slot, var->live, (int16_t)init,
                                                   s->inst[i].base + l * s->line_w[ci]};
                }
                if (var->type.kind == PROTO_T_TIME) {
                    s->tlive[s->ntslot] = q;
                    s->tslot[s->ntslot++] = slot;
                }
            }
        for (int v = 0; v < pc->nctrlvars; v++) {
            if (pc->ctrlvars[v].type.kind != PROTO_T_TIME)
                continue;
            int slot = s->inst[i].base + s->nlines * s->line_w[ci] + s->cv_off[ci][v];
            int wd = pc->ctrlvars[v].per_thread ? s->nthreads : 1;
            for (int k = 0; k < wd; k++)
                if (s->fw[slot + k] != W_SKIP) {
                    s->tlive[s->ntslot] = -1;
                    s->tslot[s->ntslot++] = slot + k;
                }
        }
    }
    s->fslot = xcalloc((size_t)s->nfixed + 1, sizeof(int));
    for (int i = 0; i < s->nfixed; i++)
        if (s->fw[i] == W_BYTE)
            s->fslot[s->nfslot++] = i;
    s->nfbyte = s->nfslot;
    for (int i = 0; i < s->nfixed; i++)
        if (s->fw[i] == W_HALF)
            s->fslot[s->nfslot++] = i;
    s->fpos = xmalloc(sizeof(int) * ((size_t)s->nfixed + 4));
    for (int i = 0; i < s->nfixed + 4; i++)
        s->fpos[i] = -1;
    for (int k = 0; k < s->nfslot; k++) {
        s->fpos[s->fslot[k]] = (int)s->fbytes;
        s->fbytes += k < s->nfbyte ? 1 : 2;
    }
    /* Internal and enabled environment events each controller has rows for. */
    s->iev = xcalloc((size_t)p->nctrls + 1, sizeof *s->iev);
    for (int c = 0; c < p->nctrls; c++) {
        s->iev[c] = xmalloc(sizeof(int) * (size_t)(p->nevents + 1));
        int n = 0;
        for (int ev = p->nmsgs; ev < p->nevents; ev++) {
            const proto_event_t *e = &p->events[ev];
            if (e->kind == PROTO_EV_CORE || e->kind == PROTO_EV_MSG ||
                (e->kind == PROTO_EV_ENV && !env_enabled(s, e->name)) ||
                s->ev_rows[c * p->nevents + ev][0] < 0)
                continue;
            s->iev[c][n++] = ev;
        }
        s->iev[c][n] = -1;
    }

    /* Channels a send can use: from an instance whose controller sends on the network,
     * to the destination controller it names (any instance for msg.src and node sends). */
    uint8_t *sends = xcalloc((size_t)p->nctrls * (size_t)p->nnets * (size_t)(p->nctrls + 1) + 1, 1);
    for (int c = 0; c < p->nctrls; c++)
        for (int r = 0; r < p->ctrls[c].nrows; r++)
            for (int k = 0; k < p->ctrls[c].rows[r].nactions; k++) {
                const proto_action_t *a = &p->ctrls[c].rows[r].actions[k];
                if (a->kind != PROTO_A_SEND)
                    continue;
                bool named = a->dest == PROTO_DEST_SHARED || a->dest == PROTO_DEST_SAMECU ||
                             a->dest == PROTO_DEST_ALL;
                int net = p->msgs[a->msg].net;
                sends[((size_t)c * p->nnets + net) * (p->nctrls + 1) +
                      (named ? a->dest_ctrl : p->nctrls)] = 1;
            }
    s->lchan = xcalloc((size_t)s->nchan + 1, sizeof(int));
    for (int c = 0; c < s->nchan; c++) {
        const uint8_t *row =
            sends +
            ((size_t)s->inst[chan_src(s, c)].ctrl * p->nnets + s->ch_net[c]) * (p->nctrls + 1);
        if (row[p->nctrls] || row[s->inst[chan_dst(s, c)].ctrl])
            s->lchan[s->nlchan++] = c;
    }
    free(sends);
    s->dst_off = xcalloc((size_t)s->ninst + 1, sizeof(int));
    s->dst_lchan = xcalloc((size_t)s->nlchan + 1, sizeof(int));
    for (int q = 0; q < s->nlchan; q++)
        s->dst_off[chan_dst(s, s->lchan[q]) + 1]++;
    for (int i = 0; i < s->ninst; i++)
        s->dst_off[i + 1] += s->dst_off[i];
    int *fill = xcalloc((size_t)s->ninst + 1, sizeof(int));
    for (int q = 0; q < s->nlchan; q++) {
        int d = chan_dst(s, s->lchan[q]);
        s->dst_lchan[s->dst_off[d] + fill[d]++] = s->lchan[q];
    }
    free(fill);
    s->unord = xcalloc((size_t)s->nchan + 1, sizeof(int));
    for (int c = 0; c < s->nchan; c++)
        if (!p->nets[c / (s->ninst * s->ninst)].ordered)
            s->unord[s->nunord++] = c;
    s->msg_tf = xcalloc((size_t)p->nmsgs + 1, sizeof *s->msg_tf);
    for (int m = 0; m < p->nmsgs; m++) {
        s->msg_tf[m] = xcalloc((size_t)p->msgs[m].nfields + 1, sizeof(int));
        int n = 0;
        for (int f = 0; f < p->msgs[m].nfields; f++)
            if (p->msgs[m].fields[f].type.kind == PROTO_T_TIME)
                s->msg_tf[m][n++] = s->msg_foff[m][f];
        s->msg_tf[m][n] = -1;
        s->any_tf |= n > 0;
    }
    s->msgw = xcalloc((size_t)p->nmsgs + 1, sizeof *s->msgw);
    for (int m = 0; m < p->nmsgs; m++) {
        s->msgw[m] = xcalloc((size_t)s->mw + 1, 1);
        for (int f = 0; f < p->msgs[m].nfields; f++) {
            const proto_type_t *ty = &p->msgs[m].fields[f].type;
            int wd = type_width(s, ty);
            for (int k = 0; k < wd; k++)
                s->msgw[m][2 + s->msg_foff[m][f] + k] =
                    p->msgs[m].fields[f].ghost ? W_SKIP /* 0 in every message (Ghosts) */
                    : (ty->kind == PROTO_T_BOOL || (ty->kind == PROTO_T_INT && ty->lo >= 0 &&
                                                    proto_type_hi(ty, s->nthreads) <= 255))
                        ? W_BYTE
                        : W_HALF;
        }
    }
    s->mslot = xcalloc((size_t)p->nmsgs + 1, sizeof *s->mslot);
    s->mnbyte = xcalloc((size_t)p->nmsgs + 1, sizeof *s->mnbyte);
    for (int m = 0; m < p->nmsgs; m++) {
        s->mslot[m] = xmalloc(sizeof(int) * (size_t)(s->mw + 1));
        int n = 0;
        for (int i = 2; i < s->mw; i++)
            if (s->msgw[m][i] == W_BYTE)
                s->mslot[m][n++] = i;
        s->mnbyte[m] = n;
        for (int i = 2; i < s->mw; i++)
            if (s->msgw[m][i] == W_HALF)
                s->mslot[m][n++] = i;
        s->mslot[m][n] = -1;
    }
    /* (ghost slots, never stored, are left out: a protocol's ghosts change nothing here) */
    int nghost = 0;
    s->ghost_slot = xcalloc((size_t)p->nctrls + 1, sizeof *s->ghost_slot);
    for (int ci = 0; ci < p->nctrls; ci++) {
        const proto_ctrl_t *pc = &p->ctrls[ci];
        for (int v = 0; v < pc->nlinevars; v++) {
            if (!pc->linevars[v].ghost)
                continue;
            if (!s->ghost_slot[ci])
                s->ghost_slot[ci] = xcalloc((size_t)s->inst_w[ci] + 1, 1);
            int wd = type_width(s, &pc->linevars[v].type);
            for (int l = 0; l < s->nlines; l++)
                memset(s->ghost_slot[ci] + l * s->line_w[ci] + s->lv_off[ci][v], 1, (size_t)wd);
            for (int i = 0; i < s->ninst; i++)
                nghost += s->inst[i].ctrl == ci ? s->nlines * wd : 0;
        }
    }
    s->maxstate = (size_t)(s->nfixed - nghost) * 2 +
                  (size_t)s->nchan * (1 + (size_t)s->cap * (size_t)s->mw_stored * 2);
    s->wfixed = xcalloc((size_t)s->nfixed + 4, sizeof(int16_t));
    s->w2fixed = xcalloc((size_t)s->nfixed + 4, sizeof(int16_t));
    s->wchan = xcalloc((size_t)s->nchan * s->cap * s->mw + 1, sizeof(int16_t));
    s->w2chan = xcalloc((size_t)s->nchan * s->cap * s->mw + 1, sizeof(int16_t));
    s->wclen = xcalloc((size_t)s->nchan + 1, 1);
    s->w2clen = xcalloc((size_t)s->nchan + 1, 1);
    s->enc = xmalloc(s->maxstate + 1);
    s->ne_chan = xcalloc((size_t)s->nlchan + 1, sizeof(int));
    s->dec = xmalloc(s->maxstate + 1);
    *out = s;
    return 0;
fail:
    sys_free(s);
    return rc;
}

/* Free A[0..N) and A itself (A may be NULL). */
static void free_each(void **a, int n)
{
    for (int i = 0; a && i < n; i++)
        free(a[i]);
    free(a);
}

void sys_set_coverage(sys_t *s, bool on)
{
    if (on && !s->rowhit) {
        s->rowhit = xcalloc((size_t)s->p->nctrls + 1, sizeof *s->rowhit);
        for (int c = 0; c < s->p->nctrls; c++)
            s->rowhit[c] = xcalloc((size_t)s->p->ctrls[c].nrows + 1, 1);
    }
}

bool sys_row_chosen(const sys_t *s, int ctrl, int row)
{
    return s->rowhit && ctrl >= 0 && ctrl < s->p->nctrls && row >= 0 &&
           row < s->p->ctrls[ctrl].nrows && s->rowhit[ctrl][row];
}

static void sym_free(struct sys_sym *y);
static struct sys_sym *sym_clone(const sys_t *s, const struct sys_sym *y);

void sys_free(sys_t *s)
{
    if (!s)
        return;
    sym_free(s->sym);
    for (int c = 0; s->rowhit && c < s->p->nctrls; c++)
        free(s->rowhit[c]);
    free(s->rowhit);
    for (int c = 0; s->dvar && c < s->p->nctrls; c++) {
        free(s->dvar[c]);
        if (s->dvar_ow)
            free(s->dvar_ow[c]);
    }
    free(s->dvar);
    free(s->dvar_ow);
    free(s->dfld);
    for (int t = 0; s->dread && t < s->nthreads; t++)
        free(s->dread[t]);
    free(s->dread);
    if (s->lv_off)
        for (int c = 0; c < s->p->nctrls; c++) {
            free(s->lv_off[c]);
            free(s->cv_off[c]);
        }
    if (s->msg_foff)
        for (int m = 0; m < s->p->nmsgs; m++)
            free(s->msg_foff[m]);
    if (s->line_locs)
        for (int l = 0; l < s->nlines; l++)
            free(s->line_locs[l]);
    if (s->ev_rows)
        for (int k = 0; k < s->p->nctrls * s->p->nevents; k++)
            free(s->ev_rows[k]);
    free(s->ev_rows);
    free(s->ev_states);
    free(s->fw);
    free(s->fslot);
    free(s->fpos);
    free(s->unord);
    free(s->lchan);
    free(s->dst_lchan);
    free(s->ch_src);
    free(s->ch_dst);
    free(s->ch_net);
    free(s->dst_off);
    free_each((void **)s->msgw, s->p->nmsgs);
    free_each((void **)s->ghost_slot, s->p->nctrls);
    free_each((void **)s->mslot, s->p->nmsgs);
    free_each((void **)s->msg_tf, s->p->nmsgs);
    free(s->mnbyte);
    free(s->tslot);
    free(s->tlive);
    free(s->lent);
    free(s->line_locs);
    free(s->line_nlocs);
    free(s->locpos);
    free(s->loc_line);
    free(s->lv_off);
    free(s->cv_off);
    free(s->msg_foff);
    free(s->line_w);
    free(s->inst_w);
    free(s->maps);
    free(s->map_base);
    free(s->wfixed);
    free(s->w2fixed);
    free(s->wchan);
    free(s->w2chan);
    free(s->wclen);
    free(s->w2clen);
    free(s->enc);
    free(s->ne_chan);
    free(s->dec);
    if (s->iev)
        for (int c = 0; c < s->p->nctrls; c++)
            free(s->iev[c]);
    free(s->iev);
    free(s);
}

size_t sys_max_state(const sys_t *s)
{
    return s->maxstate;
}

/* Initial values of instance I's variables (lines in their init state). */
static int init_instance(sys_t *s, work_t *w, int i, sys_error_t *err)
{
    const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
    for (int l = 0; l < s->nlines; l++) {
        int16_t *ln = inst_line(s, w, i, l);
        ln[0] = (int16_t)c->init_state;
        for (int v = 0; v < c->nlinevars; v++) {
            int16_t *p = ln + s->lv_off[s->inst[i].ctrl][v];
            const proto_var_t *var = &c->linevars[v];
            if (var->init_initial) {
                for (int k = 0; k < s->line_nlocs[l]; k++)
                    p[k] = (int16_t)s->prog->locs[s->line_locs[l][k]].init;
            } else if (var->init && var->type.kind != PROTO_T_DATA) {
                ectx_t x;
                init_ctx(&x, s, w, i, l, err);
                int64_t val;
                if (eval(&x, var->init, &val))
                    return -1;
                *p = (int16_t)val;
            }
        }
    }
    for (int v = 0; v < c->nctrlvars; v++) {
        const proto_var_t *var = &c->ctrlvars[v];
        if (var->init && var->type.kind != PROTO_T_DATA) {
            ectx_t x;
            init_ctx(&x, s, w, i, -1, err);
            int64_t val;
            if (eval(&x, var->init, &val))
                return -1;
            int16_t *p = inst_cvar(s, w, i, v);
            for (int k = 0; k < (var->per_thread ? s->nthreads : 1); k++)
                if (!var->per_thread || s->inst[i].cu < 0 ||
                    s->prog->threads[k].cu == s->inst[i].cu)
                    p[k] = (int16_t)val;
        }
    }
    return 0;
}

/* What agrees with the warm lines MASK picks of SLOTS (instance * 256 + line):
 * a nodeset declared '= warm CTRL' holds the CUs whose CTRL line starts warm,
 * and a shared controller's line with a warm state starts in it when any
 * per-cu instance's line starts warm (a directory's sharers and state). */
static void warm_shared(sys_t *s, work_t *w, const int *slots, int ns, uint32_t mask)
{
    for (int i = 0; i < s->ninst; i++) {
        int ci = s->inst[i].ctrl;
        const proto_ctrl_t *c = &s->p->ctrls[ci];
        for (int l = 0; l < s->nlines; l++) {
            int16_t *ln = inst_line(s, w, i, l);
            bool any = false;
            for (int k = 0; k < ns; k++)
                any |= (mask >> k & 1) && slots[k] % 256 == l;
            if (any && !c->per_cu && c->warm_state >= 0)
                ln[0] = (int16_t)c->warm_state;
            for (int v = 0; v < c->nlinevars; v++) {
                if (!c->linevars[v].init_warm)
                    continue;
                int set = 0;
                for (int k = 0; k < ns; k++) {
                    int j = slots[k] / 256;
                    if ((mask >> k & 1) && slots[k] % 256 == l &&
                        s->inst[j].ctrl == c->linevars[v].init_warm - 1 && s->inst[j].cu < 15)
                        set |= 1 << s->inst[j].cu;
                }
                ln[s->lv_off[ci][v]] = (int16_t)set;
            }
        }
    }
}

int sys_initial(sys_t *s, sys_succ_fn fn, void *ctx, sys_error_t *err)
{
    work_t w = {s->wfixed, s->wchan, s->wclen};
    s->dec_ok = false;
    memset(err, 0, sizeof *err);
    memset(w.fixed, 0, sizeof(int16_t) * (size_t)s->nfixed);
    memset(w.clen, 0, (size_t)s->nchan);
    for (int t = 0; t < s->nthreads; t++)
        if (advance(s, &w, t, err))
            return -1;
    for (int i = 0; i < s->ninst; i++)
        if (init_instance(s, &w, i, err))
            return -1;
    /* Warm lines: every subset of (per-cu instance, line) pairs may start warm. */
    int slots[64], ns = 0;
    if (s->cfg.warm)
        for (int i = 0; i < s->ninst; i++) {
            const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
            if (!c->per_cu || c->warm_state < 0)
                continue;
            for (int l = 0; l < s->nlines && ns < 20; l++)
                slots[ns++] = i * 256 + l;
        }
    int count = 0;
    work_t w2 = {s->w2fixed, s->w2chan, s->w2clen};
    for (uint32_t mask = 0; mask < (1u << ns); mask++) {
        copy_work(s, &w, &w2);
        for (int k = 0; k < ns; k++) {
            if (!(mask >> k & 1))
                continue;
            int i = slots[k] / 256, l = slots[k] % 256;
            const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
            int16_t *ln = inst_line(s, &w2, i, l);
            ln[0] = (int16_t)c->warm_state;
            for (int v = 0; v < c->nlinevars; v++)
                if (c->linevars[v].type.kind == PROTO_T_DATA)
                    for (int q = 0; q < s->line_nlocs[l]; q++)
                        ln[s->lv_off[s->inst[i].ctrl][v] + q] =
                            (int16_t)s->prog->locs[s->line_locs[l][q]].init;
        }
        if (s->cfg.lines > 0 && over_capacity(s, &w2))
            continue; /* more warm lines than the cache holds */
        warm_shared(s, &w2, slots, ns, mask);
        normalize(s, &w2);
        if (s->sym_on)
            sym_canon_work(s, &w2);
        size_t n = encode(s, &w2, s->enc);
        sys_label_t lab = {SYS_STEP_INIT, 0, 0, 0};
        fn(ctx, s->enc, n, &lab);
        count++;
    }
    return count;
}

/* ---- descriptions ---- */

static void inst_label(const sys_t *s, int i, strbuf_t *out)
{
    const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
    if (c->per_cu)
        sb_printf(out, "%s[%d]", c->name, s->inst[i].cu);
    else
        sb_puts(out, c->name);
}

static void line_label(const sys_t *s, int l, strbuf_t *out)
{
    for (int k = 0; k < s->line_nlocs[l]; k++)
        sb_printf(out, "%s%s", k ? "+" : "", s->prog->locs[s->line_locs[l][k]].name);
}

static void instr_text(const prog_instr_t *in, strbuf_t *out)
{
    static const char *const ops[] = {"ld", "st", "rmw", "cas", "fence"};
    sb_puts(out, ops[in->op]);
    if (in->op == PROG_OP_RMW)
        sb_puts(out, in->rmw == PROG_RMW_ADD ? ".add" : ".exch");
    if (in->ord)
        sb_printf(out, ".%s", prog_ord_name(in->ord));
    if (in->scope)
        sb_printf(out, ".%s", prog_scope_name(in->scope));
}

/* Append what changed from B to A (line states, variables, threads), each item
 * after *SEP; LANE (sys_lanes numbering) keeps one lane's items, -1 all. */
static void put_changes(const sys_t *s, work_t *b, work_t *a, int lane, const char *sep,
                        strbuf_t *out)
{
    for (int i = 0; i < s->ninst; i++) {
        if (lane >= 0 && lane != s->nthreads + i)
            continue;
        const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
        for (int l = 0; l < s->nlines; l++) {
            int x = inst_line(s, b, i, l)[0], y = inst_line(s, a, i, l)[0];
            if (x == y)
                continue;
            sb_puts(out, sep);
            sep = ", ";
            inst_label(s, i, out);
            sb_putc(out, '.');
            line_label(s, l, out);
            sb_printf(out, ": %s -> %s", c->state_names[x], c->state_names[y]);
        }
    }
    /* Scalar variables that changed (timestamps as normalized). */
    for (int i = 0; i < s->ninst; i++) {
        if (lane >= 0 && lane != s->nthreads + i)
            continue;
        int ci = s->inst[i].ctrl;
        const proto_ctrl_t *c = &s->p->ctrls[ci];
        for (int l = 0; l < s->nlines; l++)
            for (int v = 0; v < c->nlinevars; v++) {
                int off = s->lv_off[ci][v];
                int16_t x = inst_line(s, b, i, l)[off], y = inst_line(s, a, i, l)[off];
                int ys = inst_line(s, a, i, l)[0];
                if (c->linevars[v].type.kind == PROTO_T_DATA || x == y ||
                    !(c->linevars[v].live >> ys & 1))
                    continue; /* unchanged, or dead now (reset: nothing will read it) */
                sb_puts(out, sep);
                sep = ", ";
                inst_label(s, i, out);
                sb_putc(out, '.');
                line_label(s, l, out);
                sb_printf(out, ".%s: %d -> %d", c->linevars[v].name, x, y);
            }
        for (int v = 0; v < c->nctrlvars; v++) {
            const proto_var_t *var = &c->ctrlvars[v];
            if (var->type.kind == PROTO_T_DATA)
                continue;
            int16_t *x = inst_cvar(s, b, i, v), *y = inst_cvar(s, a, i, v);
            for (int k = 0; k < (var->per_thread ? s->nthreads : 1); k++) {
                if (x[k] == y[k])
                    continue;
                sb_puts(out, sep);
                sep = ", ";
                inst_label(s, i, out);
                if (var->per_thread)
                    sb_printf(out, ".%s[P%d]: %d -> %d", var->name, k, x[k], y[k]);
                else
                    sb_printf(out, ".%s: %d -> %d", var->name, x[k], y[k]);
            }
        }
    }
    for (int t = 0; t < s->nthreads; t++) {
        if (lane >= 0 && lane != t)
            continue;
        int16_t *x = thread_slot(b, t), *y = thread_slot(a, t);
        for (int r = 0; r < PROG_MAX_REGS; r++)
            if (x[TH_REGS + r] != y[TH_REGS + r]) {
                sb_printf(out, "%sP%d.r%d = %d", sep, t, r, y[TH_REGS + r]);
                sep = ", ";
            }
        if (x[TH_STATUS] != ST_DONE && y[TH_STATUS] == ST_DONE) {
            sb_printf(out, "%sP%d finished", sep, t);
            sep = ", ";
        }
    }
}

void sys_describe(sys_t *s, const sys_label_t *lab, const uint8_t *before, size_t blen,
                  const uint8_t *after, size_t alen, strbuf_t *out)
{
    work_t b = load_cur(s, before, blen);
    work_t a = {s->w2fixed, s->w2chan, s->w2clen};
    decode(s, after, alen, &a);
    switch (lab->kind) {
    case SYS_STEP_CORE: {
        const prog_instr_t *in = cur_instr(s, &b, lab->who);
        sb_printf(out, "P%d ", lab->who);
        if (in)
            instr_text(in, out);
        sb_printf(out, ": %s", s->p->events[lab->what].name);
        if (in && in->op != PROG_OP_FENCE) {
            int l = prog_instr_loc(
                in, in->indexed ? thread_slot(&b, lab->who)[TH_REGS + in->idx_reg] : 0);
            sb_printf(out, " %s", s->prog->locs[l < 0 ? in->loc : l].name);
        }
        break;
    }
    case SYS_STEP_MSG: {
        const int16_t *rec = b.chan + ((size_t)lab->what * s->cap + lab->arg) * s->mw;
        inst_label(s, chan_dst(s, lab->what), out);
        sb_printf(out, " receives %s from ", s->p->msgs[rec[0]].name);
        inst_label(s, chan_src(s, lab->what), out);
        if (rec[1] >= 0) {
            sb_puts(out, " for ");
            line_label(s, rec[1], out);
        }
        break;
    }
    case SYS_STEP_INTERNAL:
        inst_label(s, lab->who, out);
        sb_printf(out, " %s", s->p->events[lab->what].name);
        if (lab->arg != 0xffff) {
            sb_putc(out, ' ');
            line_label(s, lab->arg, out);
        }
        break;
    case SYS_STEP_TICK:
        sb_printf(out, "clock %s ticks", s->p->clock);
        if (s->cfg.time_raw)
            sb_printf(out, " (%s = %d)", s->p->clock, a.fixed[s->clock_slot]);
        return; /* every timestamp moves relative to the clock: nothing else to say */
    }
    if (lab->kind == SYS_STEP_INIT) {
        /* Lines that do not start in their controller's initial state (warm lines). */
        sb_puts(out, "initial state");
        const char *sep0 = ": ";
        for (int i = 0; i < s->ninst; i++) {
            const proto_ctrl_t *c = &s->p->ctrls[s->inst[i].ctrl];
            for (int l = 0; l < s->nlines; l++) {
                int y = inst_line(s, &a, i, l)[0];
                if (y == c->init_state)
                    continue;
                sb_puts(out, sep0);
                sep0 = ", ";
                inst_label(s, i, out);
                sb_putc(out, '.');
                line_label(s, l, out);
                sb_printf(out, "=%s", c->state_names[y]);
            }
        }
        return;
    }
    /* What changed: line states, then threads. */
    put_changes(s, &b, &a, -1, " | ", out);
}

void sys_dump(sys_t *s, const uint8_t *state, size_t len, strbuf_t *out)
{
    work_t w = load_cur(s, state, len);
    for (int t = 0; t < s->nthreads; t++) {
        int16_t *th = thread_slot(&w, t);
        static const char *const st[] = {"running", "waiting", "finished", "at a join"};
        sb_printf(out, "P%d pc=%d step=%d %s", t, th[TH_PC], th[TH_STEP], st[th[TH_STATUS]]);
        for (int r = 0; r < PROG_MAX_REGS; r++)
            if (th[TH_REGS + r])
                sb_printf(out, " r%d=%d", r, th[TH_REGS + r]);
        sb_putc(out, '\n');
    }
    for (int i = 0; i < s->ninst; i++) {
        int ci = s->inst[i].ctrl;
        const proto_ctrl_t *c = &s->p->ctrls[ci];
        inst_label(s, i, out);
        sb_puts(out, ":");
        for (int l = 0; l < s->nlines; l++) {
            int16_t *ln = inst_line(s, &w, i, l);
            sb_putc(out, ' ');
            line_label(s, l, out);
            sb_printf(out, "=%s", c->state_names[ln[0]]);
            for (int v = 0; v < c->nlinevars; v++) {
                const int16_t *p = ln + s->lv_off[ci][v];
                sb_printf(out, " %s=", c->linevars[v].name);
                if (c->linevars[v].type.kind == PROTO_T_DATA)
                    for (int k = 0; k < s->line_nlocs[l]; k++)
                        sb_printf(out, "%s%d", k ? "," : "", p[k]);
                else
                    sb_printf(out, "%d", p[0]);
            }
        }
        for (int v = 0; v < c->nctrlvars; v++) {
            const proto_var_t *var = &c->ctrlvars[v];
            if (var->type.kind == PROTO_T_DATA)
                continue;
            const int16_t *p = inst_cvar(s, &w, i, v);
            if (!var->per_thread) {
                sb_printf(out, " %s=%d", var->name, *p);
                continue;
            }
            for (int k = 0; k < s->nthreads; k++)
                if (s->inst[i].cu < 0 || s->prog->threads[k].cu == s->inst[i].cu)
                    sb_printf(out, " %s[P%d]=%d", var->name, k, p[k]);
        }
        sb_putc(out, '\n');
    }
    if (s->clock_slot >= 0)
        sb_printf(out, "clock %s=%d%s\n", s->p->clock, w.fixed[s->clock_slot],
                  s->cfg.time_raw ? "" : " (times are relative to it; -1: expired)");
    for (int q = 0; q < s->nlchan; q++) {
        int c = s->lchan[q];
        if (!w.clen[c])
            continue;
        inst_label(s, chan_src(s, c), out);
        sb_puts(out, " -> ");
        inst_label(s, chan_dst(s, c), out);
        sb_puts(out, ":");
        for (int k = 0; k < w.clen[c]; k++) {
            const int16_t *rec = w.chan + ((size_t)c * s->cap + k) * s->mw;
            const proto_msg_t *m = &s->p->msgs[rec[0]];
            sb_printf(out, " %s", m->name);
            if (rec[1] >= 0) {
                sb_putc(out, '[');
                line_label(s, rec[1], out);
                sb_putc(out, ']');
            }
            sb_putc(out, '(');
            for (int f = 0; f < m->nfields; f++) {
                const int16_t *p = rec + 2 + s->msg_foff[rec[0]][f];
                sb_printf(out, "%s%s=", f ? "," : "", m->fields[f].name);
                int wdt = m->fields[f].type.kind == PROTO_T_DATA ? s->maxlocs : 1;
                for (int e = 0; e < wdt; e++)
                    sb_printf(out, "%s%d", e ? "/" : "", p[e]);
            }
            sb_putc(out, ')');
        }
        sb_putc(out, '\n');
    }
}

/* ---- message-sequence view ---- */

int sys_lanes(const sys_t *s)
{
    return s->nthreads + s->ninst;
}

void sys_lane_name(const sys_t *s, int lane, strbuf_t *out)
{
    if (lane < s->nthreads)
        sb_printf(out, "P%d", lane);
    else
        inst_label(s, lane - s->nthreads, out);
}

void sys_msg_name(const sys_t *s, int msg, int line, strbuf_t *out)
{
    sb_puts(out, s->p->msgs[msg].name);
    if (line >= 0) {
        sb_putc(out, ' ');
        line_label(s, line, out);
    }
}

/* Messages (message, line) on channel C of W. */
static int chan_count(const sys_t *s, const work_t *w, int c, int msg, int line)
{
    int n = 0;
    const int16_t *m = w->chan + (size_t)c * s->cap * s->mw;
    for (int k = 0; k < w->clen[c]; k++, m += s->mw)
        n += m[0] == msg && m[1] == line;
    return n;
}

void sys_step_info(sys_t *s, const sys_label_t *lab, const uint8_t *before, size_t blen,
                   const uint8_t *after, size_t alen, sys_step_info_t *out)
{
    work_t b = load_cur(s, before, blen);
    work_t a = {s->w2fixed, s->w2chan, s->w2clen};
    decode(s, after, alen, &a);
    memset(out, 0, sizeof *out);
    out->lane = out->peer = out->event = out->line = -1;
    int rc = -1; /* the channel received from */
    switch (lab->kind) {
    case SYS_STEP_CORE:
        out->lane = lab->who;
        out->event = lab->what;
        for (int i = 0; i < s->ninst; i++)
            if (s->inst[i].ctrl == s->p->core_ctrl &&
                s->inst[i].cu == s->prog->threads[lab->who].cu)
                out->peer = s->nthreads + i;
        break;
    case SYS_STEP_MSG: {
        const int16_t *rec = b.chan + ((size_t)lab->what * s->cap + lab->arg) * s->mw;
        rc = lab->what;
        out->lane = s->nthreads + chan_dst(s, rc);
        out->received = true;
        out->recv = (sys_msg_ref_t){rec[0], rec[1], s->nthreads + chan_src(s, rc), out->lane};
        break;
    }
    case SYS_STEP_INTERNAL:
        out->lane = s->nthreads + lab->who;
        out->event = lab->what;
        out->line = lab->arg == 0xffff ? -1 : lab->arg;
        break;
    default: return;
    }
    /* Sent: per channel and (message, line), how many more there are after the
     * step than before it, the received one put back. Timestamps in records may
     * be renormalized, so records are matched on message and line only. */
    for (int q = 0; q < s->nlchan; q++) {
        int c = s->lchan[q];
        const int16_t *m = a.chan + (size_t)c * s->cap * s->mw;
        for (int k = 0; k < a.clen[c]; k++, m += s->mw) {
            bool first = true; /* count each (message, line) once per channel */
            const int16_t *e = a.chan + (size_t)c * s->cap * s->mw;
            for (int j = 0; j < k; j++, e += s->mw)
                if (e[0] == m[0] && e[1] == m[1])
                    first = false;
            if (!first)
                continue;
            int n = chan_count(s, &a, c, m[0], m[1]) - chan_count(s, &b, c, m[0], m[1]);
            if (c == rc && out->recv.msg == m[0] && out->recv.line == m[1])
                n++;
            for (; n > 0; n--) {
                if (out->nsent < SYS_MAX_SENT)
                    out->sent[out->nsent] = (sys_msg_ref_t){
                        m[0], m[1], s->nthreads + chan_src(s, c), s->nthreads + chan_dst(s, c)};
                out->nsent++;
            }
        }
    }
}

void sys_describe_lane(sys_t *s, int lane, const uint8_t *before, size_t blen, const uint8_t *after,
                       size_t alen, strbuf_t *out)
{
    work_t b = load_cur(s, before, blen);
    work_t a = {s->w2fixed, s->w2chan, s->w2clen};
    decode(s, after, alen, &a);
    put_changes(s, &b, &a, lane, "", out);
}

/* ---- clones for parallel workers ---- */

sys_t *sys_clone(const sys_t *s)
{
    /* Everything a worker writes sits on cache lines of its own (no false sharing
       with another thread's data or with the shared tables). */
    sys_t *c = xcalloc_lines(1, sizeof *c);
    *c = *s; /* the tables: shared, never written after sys_new */
    c->wfixed = xcalloc_lines((size_t)s->nfixed + 4, sizeof(int16_t));
    c->w2fixed = xcalloc_lines((size_t)s->nfixed + 4, sizeof(int16_t));
    c->wchan = xcalloc_lines((size_t)s->nchan * s->cap * s->mw + 1, sizeof(int16_t));
    c->w2chan = xcalloc_lines((size_t)s->nchan * s->cap * s->mw + 1, sizeof(int16_t));
    c->wclen = xcalloc_lines((size_t)s->nchan + 1, 1);
    c->w2clen = xcalloc_lines((size_t)s->nchan + 1, 1);
    c->enc = xcalloc_lines(s->maxstate + 1, 1);
    c->ne_chan = xcalloc_lines((size_t)s->nlchan + 1, sizeof(int));
    c->dec = xcalloc_lines(s->maxstate + 1, 1);
    c->dec_len = 0;
    c->dec_ok = false;
    c->rowhit = NULL;              /* coverage is the serial explorer's */
    c->sym = sym_clone(s, s->sym); /* its tables shared, its scratch its own */
    c->sym_on = s->sym_on;
    return c;
}

void sys_clone_free(sys_t *c)
{
    if (!c)
        return;
    free(c->wfixed);
    free(c->w2fixed);
    free(c->wchan);
    free(c->w2chan);
    free(c->wclen);
    free(c->w2clen);
    free(c->enc);
    free(c->ne_chan);
    free(c->dec);
    sym_free(c->sym);
    free(c);
}

/* ---- a structural view for partial-order reduction ---- */

void sys_topo(const sys_t *s, sys_topo_t *out)
{
    memset(out, 0, sizeof *out);
    out->nthreads = s->nthreads;
    out->ninst = s->ninst;
    out->nchan = s->nchan;
    out->ncus = s->ncus;
    out->cap = s->cap;
    out->lchan = s->lchan;
    out->nlchan = s->nlchan;
    out->ch_src = s->ch_src;
    out->ch_dst = s->ch_dst;
    out->ch_net = s->ch_net;
    out->dst_lchan = s->dst_lchan;
    out->dst_off = s->dst_off;
    for (int i = 0; i < s->ninst && i < 64; i++) {
        out->inst_ctrl[i] = s->inst[i].ctrl;
        out->inst_cu[i] = s->inst[i].cu;
    }
    for (int t = 0; t < s->nthreads && t < PROG_MAX_THREADS; t++)
        out->thread_cu[t] = s->prog->threads[t].cu;
    out->clock = s->clock_slot >= 0;
    out->proto = s->p;
    out->prog = s->prog;
    out->maps = s->maps;
    out->map_base = s->map_base;
    out->loc_line = s->loc_line;
    out->nlines = s->nlines;
    for (int t = 0; t < s->nthreads; t++)
        for (int i = 0; i < s->prog->threads[t].ninstr; i++) {
            const prog_instr_t *in = &s->prog->threads[t].instr[i];
            if (prog_is_branch(in) && in->target <= i)
                out->loops = true;
        }
}

void sys_por_view_msgs(sys_t *s, const uint8_t *state, size_t len, uint8_t *done, uint8_t *clen,
                       int16_t *pc, uint8_t *wait, int16_t *msgs)
{
    work_t cur = load_cur(s, state, len);
    for (int t = 0; t < s->nthreads; t++) {
        done[t] = thread_slot(&cur, t)[TH_STATUS] == ST_DONE;
        wait[t] = thread_slot(&cur, t)[TH_STATUS] == ST_WAIT;
        pc[t] = thread_slot(&cur, t)[TH_PC];
    }
    memcpy(clen, cur.clen, (size_t)s->nchan);
    for (int q = 0; q < s->nlchan; q++) {
        int c = s->lchan[q];
        const int16_t *m = cur.chan + (size_t)c * s->cap * s->mw;
        for (int k = 0; k < cur.clen[c]; k++, m += s->mw) {
            msgs[((size_t)c * s->cap + k) * 2] = m[0];
            msgs[((size_t)c * s->cap + k) * 2 + 1] = m[1];
        }
    }
}

/* The compute units a node value (an instance) or a nodeset value (a bit per CU) names. */
static uint64_t node_cus(const sys_t *s, proto_type_kind_t kind, int16_t v)
{
    if (kind == PROTO_T_NODESET)
        return (uint16_t)v;
    if (kind == PROTO_T_NODE && v >= 0 && v < s->ninst && s->inst[v].cu >= 0)
        return (uint64_t)1 << s->inst[v].cu;
    return 0;
}

uint64_t sys_msg_key(sys_t *s, const uint8_t *state, size_t len, int c, int pos)
{
    if (c < 0 || c >= s->nchan || chan_ordered(s, c))
        return 0;
    work_t cur = load_cur(s, state, len);
    if (pos < 0 || pos >= cur.clen[c])
        return 0;
    const int16_t *rec = cur.chan + ((size_t)c * s->cap + pos) * s->mw;
    uint64_t h = 1469598103934665603ull; /* FNV-1a over the record */
    for (int k = 0; k < s->mw; k++) {
        h ^= (uint16_t)rec[k];
        h *= 1099511628211ull;
    }
    return h ? h : 1;
}

uint32_t sys_done_mask(sys_t *s, const uint8_t *state, size_t len)
{
    work_t cur = load_cur(s, state, len);
    uint32_t m = 0;
    for (int t = 0; t < s->nthreads; t++)
        if (thread_slot(&cur, t)[TH_STATUS] == ST_DONE)
            m |= 1u << t;
    return m;
}

int sys_threads(const sys_t *s)
{
    return s->nthreads;
}

void sys_por_view(sys_t *s, const uint8_t *state, size_t len, uint8_t *done, uint8_t *clen)
{
    work_t cur = load_cur(s, state, len);
    for (int t = 0; t < s->nthreads; t++)
        done[t] = thread_slot(&cur, t)[TH_STATUS] == ST_DONE;
    memcpy(clen, cur.clen, (size_t)s->nchan);
}

uint64_t sys_por_view_nodes(sys_t *s, const uint8_t *state, size_t len, int i, uint64_t lvars,
                            uint64_t cvars)
{
    work_t cur = load_cur(s, state, len);
    const inst_t *in = &s->inst[i];
    const proto_ctrl_t *pc = &s->p->ctrls[in->ctrl];
    uint64_t m = 0;
    for (int l = 0; l < s->nlines && lvars; l++) {
        const int16_t *ln = inst_line(s, &cur, i, l);
        for (int v = 0; v < pc->nlinevars && v < 64; v++) {
            const proto_var_t *var = &pc->linevars[v];
            if (lvars >> v & 1 && ln[0] >= 0 && ln[0] < 64 && var->live >> ln[0] & 1)
                m |= node_cus(s, var->type.kind, ln[s->lv_off[in->ctrl][v]]);
        }
    }
    for (int v = 0; v < pc->nctrlvars && v < 64; v++)
        if (cvars >> v & 1)
            m |= node_cus(s, pc->ctrlvars[v].type.kind, *inst_cvar(s, &cur, i, v));
    return m;
}

void sys_por_view_fields(sys_t *s, const uint8_t *state, size_t len, const uint64_t *fmask,
                         uint64_t *named)
{
    work_t cur = load_cur(s, state, len);
    for (int q = 0; q < s->nlchan; q++) {
        int c = s->lchan[q];
        uint64_t m = 0;
        const int16_t *rec = cur.chan + (size_t)c * s->cap * s->mw;
        for (int k = 0; k < cur.clen[c]; k++, rec += s->mw) {
            int t = rec[0];
            if (t < 0 || t >= s->p->nmsgs || !fmask[t])
                continue;
            const proto_msg_t *pm = &s->p->msgs[t];
            for (int f = 0; f < pm->nfields && f < 64; f++)
                if (fmask[t] >> f & 1)
                    m |= node_cus(s, pm->fields[f].type.kind, rec[2 + s->msg_foff[t][f]]);
        }
        named[c] = m;
    }
}

uint64_t sys_por_view_times(sys_t *s, const uint8_t *state, size_t len, int i, int16_t *lstate)
{
    work_t cur = load_cur(s, state, len);
    const inst_t *in = &s->inst[i];
    const proto_ctrl_t *pc = &s->p->ctrls[in->ctrl];
    uint64_t fresh = 0;
    for (int l = 0; l < s->nlines; l++) {
        const int16_t *ln = inst_line(s, &cur, i, l);
        lstate[l] = ln[0];
        for (int v = 0; v < pc->nlinevars; v++) {
            const proto_var_t *var = &pc->linevars[v];
            bool live = ln[0] < 0 || ln[0] >= 64 || var->live >> ln[0] & 1;
            if (var->type.kind == PROTO_T_TIME && live && ln[s->lv_off[in->ctrl][v]] >= 0)
                fresh |= (uint64_t)1 << (l < 63 ? l : 62);
        }
    }
    for (int v = 0; v < pc->nctrlvars; v++) {
        if (pc->ctrlvars[v].type.kind != PROTO_T_TIME)
            continue;
        int slot = in->base + s->nlines * s->line_w[in->ctrl] + s->cv_off[in->ctrl][v];
        int wd = pc->ctrlvars[v].per_thread ? s->nthreads : 1;
        for (int k = 0; k < wd; k++)
            if (s->fw[slot + k] != W_SKIP && cur.fixed[slot + k] >= 0)
                fresh |= (uint64_t)1 << 63;
    }
    /* Raw integers (--time raw): the clock moves and nothing is clamped, so a guard
       comparing it may change under a tick whatever the times hold. */
    return s->cfg.time_raw ? ~(uint64_t)0 : fresh;
}

#include "sym_impl.h"
