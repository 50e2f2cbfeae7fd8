/* sys.h - a system: protocol tables + litmus program + configuration, with one
 * next-state interface over compact canonical state encodings (docs/architecture.md
 * section 5). Every back-end (explorer, trace replay, timed mode) drives this
 * interface; the system never knows how states are stored, and the explorer
 * never knows which protocol it runs.
 *
 * A state is a byte string: a fixed part (threads, controller instances with
 * their lines and variables) followed by the channels, each a count and its
 * messages; unordered channels keep their messages sorted, so two states that
 * behave the same encode the same. Timestamps (type time) are normalized
 * (docs/time-abstraction.md): relative to the clock with every expired value
 * collapsed when the protocol has one, else shifted so the smallest is 0. */
#ifndef COHCHECK_SYS_H
#define COHCHECK_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/diag.h"
#include "../base/util.h"
#include "../prog/prog.h"
#include "../proto/proto.h"

typedef struct sys sys_t;

/* Version of the state encoding: stored runs record it, and only runs with this
 * version can be resumed, traced or compared (bump it when encode() changes). */
#define SYS_ENCODING_VERSION 2

enum {
    SYS_ENV_FETCH = 1,
    SYS_ENV_EVICT = 2,
    SYS_ENV_WRITEBACK = 4,
};

typedef struct {
    int cus;           /* compute units; 0: as many as the test places threads on */
    bool warm;         /* --init warm: L1 lines may start in the warm state */
    unsigned env;      /* SYS_ENV_* mask: environment events enabled */
    int chan_capacity; /* messages per channel before overflow (an invariant failure) */
    int lines;         /* L1 capacity: per-cu instances hold at most this many lines outside
                          their initial state; a step that would exceed it is not taken
                          (until an eviction frees a line); 0: unlimited */
    bool env_all;      /* --env all: every environment event the protocol declares */
    int nenv_names;    /* other environment events enabled by name (e.g. l2evict) */
    char env_names[8][32];
    bool time_raw; /* keep timestamps as raw integers (no normalization: with a clock the
                      state space is infinite, so bound the search); for cross-checks */
} sys_config_t;

/* What a transition did, compactly (for traces and the store). */
typedef struct {
    uint8_t kind;  /* SYS_STEP_* */
    uint8_t who;   /* thread or controller instance */
    uint16_t what; /* event index; for messages: channel index */
    uint16_t arg;  /* line (line events) or message position in an unordered channel */
} sys_label_t;

enum {
    SYS_STEP_CORE,     /* thread `who` delivers its pending core event */
    SYS_STEP_MSG,      /* channel `what`: message at position `arg` is received */
    SYS_STEP_INTERNAL, /* instance `who`, event `what`, line `arg` (0xffff: controller-level) */
    SYS_STEP_INIT,     /* an initial state (sys_describe lists lines not in their init state) */
    SYS_STEP_TICK,     /* the global clock advances by one */
};

/* A protocol error met while computing successors or checking a state. */
typedef enum {
    SYS_ERR_NONE,
    SYS_ERR_UNEXPECTED, /* an event with no row, or an 'impossible' row */
    SYS_ERR_INVARIANT,  /* a declared invariant, a variable range or a channel capacity */
} sys_err_kind_t;

typedef struct {
    sys_err_kind_t kind;
    sys_label_t label; /* the transition that failed (SYS_ERR_UNEXPECTED) */
    char msg[256];
} sys_error_t;

typedef void (*sys_succ_fn)(void *ctx, const uint8_t *state, size_t len, const sys_label_t *label);

/* Build the system. Returns 0; -2 with ERR when the test uses an instruction
 * that no core map of the protocol covers (the protocol does not support it);
 * -1 with ERR for other problems (more CUs than supported, ...). */
/* The lines of PROG's locations under P's granularity: the test's lines, or one line per
 * location with 'granularity word'. The explorer and the Murphi export share it so both
 * lay lines out alike. Arrays are heap-allocated; the caller frees them (line_locs[l]
 * for each of the nlines lines, then each array). */
typedef struct {
    int *loc_line;   /* per location: its line */
    int *locpos;     /* per location: position within its line */
    int *line_nlocs; /* per line: how many locations */
    int **line_locs; /* per line: its locations */
    int nlines;
    int maxlocs; /* the most locations on one line (at least 1) */
} sys_lines_t;
void sys_lines_build(const proto_t *p, const prog_t *prog, sys_lines_t *out);
void sys_lines_free(sys_lines_t *ln);

int sys_new(const proto_t *p, const prog_t *prog, const sys_config_t *cfg, sys_t **out,
            diag_t *err);
void sys_free(sys_t *s);

/* Largest encoded state, in bytes. */
size_t sys_max_state(const sys_t *s);

/* Call FN for each initial state (one when cold; every combination of warm
 * lines when warm). Returns the number of states, or -1 with ERR. */
int sys_initial(sys_t *s, sys_succ_fn fn, void *ctx, sys_error_t *err);

/* Call FN for each successor of STATE. Returns the number of successors, or -1
 * when a protocol error is met (ERR says which transition and why). */
int sys_successors(sys_t *s, const uint8_t *state, size_t len, sys_succ_fn fn, void *ctx,
                   sys_error_t *err);

/* Check declared invariants on STATE: 0, or -1 with ERR. */
int sys_check(sys_t *s, const uint8_t *state, size_t len, sys_error_t *err);

/* Every thread finished and no message in flight. */
bool sys_terminal(sys_t *s, const uint8_t *state, size_t len);

/* The outcome of a terminal state, in exec_layout_t order (registers written, then
 * each location's final value at its home). */
void sys_outcome(sys_t *s, const uint8_t *state, size_t len, prog_val_t *out);

/* Append a readable description of the step LABEL from BEFORE to AFTER
 * ("L1[0] receives DATA from L2 for line y: IV -> V"). */
void sys_describe(sys_t *s, const sys_label_t *label, const uint8_t *before, size_t blen,
                  const uint8_t *after, size_t alen, strbuf_t *out);

/* Append a readable dump of STATE (threads, line states, channels). */
void sys_dump(sys_t *s, const uint8_t *state, size_t len, strbuf_t *out);

/* ---- message-sequence view of a step (cohcheck draw --trace) ----
 * Lanes are the threads (0 .. nthreads-1), then the controller instances. */
#define SYS_MAX_SENT 32
typedef struct {
    int msg, line; /* message index; its line, -1: none */
    int from, to;  /* sender and receiver lanes */
} sys_msg_ref_t;

typedef struct {
    int lane;      /* the lane that acts; -1: an initial state or a clock tick */
    int peer;      /* a core step: the controller lane the thread's event goes to; else -1 */
    int event;     /* a core or internal step: the event; else -1 */
    int line;      /* an internal line event: its line; else -1 */
    bool received; /* a message step: RECV is what was received */
    sys_msg_ref_t recv;
    int nsent; /* messages this step put into channels (at most SYS_MAX_SENT kept) */
    sys_msg_ref_t sent[SYS_MAX_SENT];
} sys_step_info_t;

int sys_lanes(const sys_t *s);
void sys_lane_name(const sys_t *s, int lane, strbuf_t *out);
/* "DATA y": message MSG for LINE (-1: none). */
void sys_msg_name(const sys_t *s, int msg, int line, strbuf_t *out);
/* The step LABEL from BEFORE to AFTER, structurally. */
void sys_step_info(sys_t *s, const sys_label_t *label, const uint8_t *before, size_t blen,
                   const uint8_t *after, size_t alen, sys_step_info_t *out);
/* Append what changed at LANE in that step ("x: I -> IV, pending: 0 -> 1", lane
 * prefixes left in); nothing when nothing changed there. */
void sys_describe_lane(sys_t *s, int lane, const uint8_t *before, size_t blen, const uint8_t *after,
                       size_t alen, strbuf_t *out);

/* Per pc of thread T (ninstr + 1 masks; the caller frees them): the lines of the
 * instructions that may still execute from that pc on (fall-through and branch
 * edges, to a fixpoint) with a mapped event SEL selects. An instruction counts on
 * its location's line; a fence, a controller-level event or a branch out of the
 * program on every line (bit 63). */
uint64_t *sys_future_lines(const sys_t *s, int t, bool (*sel)(void *ctx, int ev), void *ctx);

/* Values no step will read (docs/por.md, "Values no step reads"): with ON, every
 * state is normalized by resetting to zero each line variable of a per-cu
 * instance that only core events read, on the lines no remaining instruction of
 * its CU's threads may read it on, and the message fields bound only for such a
 * variable. States that differ only there have the same futures, so every
 * verdict, outcome and failure is kept; counts shrink. Call before sys_clone. */
void sys_set_dead(sys_t *s, bool on);

/* ---- symmetry reduction (docs/por.md, "Symmetry") ----
 * With ON, analyse (once) which compute units are interchangeable: CUs with no thread
 * or with identical thread programs and work-group shapes, under a protocol that only
 * compares node, tid and nodeset values for equality. When a nontrivial group is
 * proved, every state sys_initial and sys_successors emit from now on is its orbit's
 * least encoding (permuting CUs with their instances, threads, channels and every
 * id-typed value); returns true and *WHY (may be NULL) names the classes ("CUs
 * {0,1}"). Else false, and *WHY says why not. With OFF, states are emitted as they
 * are (the analysis is kept). A clone never canonicalises. */
bool sys_set_symmetry(sys_t *s, bool on, const char **why);
/* The group's elements while states are canonicalised (else 0); element 0 is the
 * identity. */
int sys_sym_order(const sys_t *s);
/* Outcome IN (sys_outcome's layout, NKEYS values) of a state, as the outcome of that
 * state under element G: each thread's register keys move to its image thread. */
void sys_sym_outcome(const sys_t *s, int g, const prog_val_t *in, int nkeys, prog_val_t *out);
/* STATE under element G into OUT (sys_max_state bytes); returns its length. */
size_t sys_sym_apply(sys_t *s, int g, const uint8_t *state, size_t len, uint8_t *out);
/* STATE's orbit's least encoding into OUT; returns its length. */
size_t sys_sym_canon(sys_t *s, const uint8_t *state, size_t len, uint8_t *out);
/* A recorded path of canonical states STATES[0..N) (STATES[0] an initial state, each
 * later one the canonical form of a successor of the one before) made a real
 * execution, in place: each state becomes the orbit member that a real step from the
 * previous (real) state reaches, LABS[i] that step's label (LABS[0]: an initial
 * state's). With EXACT, STATES is already real: only the labels are found. Buffers
 * hold sys_max_state bytes. Returns N, or the first index no step reaches. */
size_t sys_sym_realise(sys_t *s, uint8_t **states, size_t *lens, sys_label_t *labs, size_t n,
                       bool exact);

/* ---- parallel workers ----
 * A system is not thread-safe: it decodes into scratch buffers. sys_clone gives a
 * copy that shares S's immutable tables (and its protocol and program) and owns its
 * own scratch, so each thread can drive one. S must outlive the clone, which is
 * freed with sys_clone_free (never sys_free). A clone canonicalises as S does when
 * it is made (sys_set_symmetry): S's group, scratch of its own. */
sys_t *sys_clone(const sys_t *s);
void sys_clone_free(sys_t *c);
/* ---- a structural view for partial-order reduction (sys_por.h) ---- */
typedef struct {
    int nthreads, ninst, nchan, ncus;
    int cap;                         /* messages a channel holds before an overflow */
    const int *lchan;                /* channels some row can send into (the others stay empty) */
    int nlchan;                      /* ... how many */
    const int *ch_src, *ch_dst;      /* per channel: its sender and receiver instances */
    const int *ch_net;               /* per channel: its network */
    const int *dst_lchan;            /* the live channels grouped by receiver, in lchan order: */
    const int *dst_off;              /* instance i's are dst_lchan[dst_off[i] .. dst_off[i+1]) */
    int inst_ctrl[64];               /* per instance: its controller */
    int inst_cu[64];                 /* per instance: its compute unit, -1: shared */
    int thread_cu[PROG_MAX_THREADS]; /* per thread: its compute unit */
    bool clock;                      /* the protocol has a global clock (tick steps) */
    const proto_t *proto;
    bool loops;                     /* some thread has a backward branch (a loop) */
    const prog_t *prog;             /* the test */
    const proto_map_t *const *maps; /* per thread t, instruction i: maps[map_base[t] + i] */
    const int *map_base;            /* (NULL for instructions that are not memory ops) */
    const int *loc_line;            /* per location: its line */
    int nlines;                     /* lines of the test */
} sys_topo_t;
/* Channel c joins network c / (ninst*ninst), sender c / ninst % ninst, receiver c % ninst. */
void sys_topo(const sys_t *s, sys_topo_t *out);
/* Whether event EV can happen in this system (an environment event: when --env enables it). */
bool sys_event_on(const sys_t *s, int ev);
/* The name of the environment event step LABEL delivers ("evict", "tick"), or NULL when
 * the step is the system's own (a core event, a message, an internal event, a clock tick).
 * --liveness does not require environment events to happen (docs/liveness.md). */
const char *sys_step_env(const sys_t *s, const sys_label_t *label);
/* Append to OUT, comma-separated, the environment events the protocol declares that this
 * configuration leaves off (not in --env); returns how many. */
int sys_env_off(const sys_t *s, strbuf_t *out);
/* A message of an unordered channel C at position POS of STATE, by its contents (a
 * nonzero hash; --liveness's fairness treats each message apart there); 0 for an
 * ordered channel, whose head is its only deliverable message. */
uint64_t sys_msg_key(sys_t *s, const uint8_t *state, size_t len, int c, int pos);
/* The threads of STATE that finished: bit t for thread t. */
uint32_t sys_done_mask(sys_t *s, const uint8_t *state, size_t len);
/* The test's threads. */
int sys_threads(const sys_t *s);
/* Row coverage (cohcheck mutate): with ON, remember every row chosen for an event from
 * now on (a stall or impossible row included); sys_row_chosen asks about row ROW of
 * controller CTRL (its index in proto_ctrl_t.rows). Not kept by sys_clone. */
void sys_set_coverage(sys_t *s, bool on);
bool sys_row_chosen(const sys_t *s, int ctrl, int row);
/* Per thread of STATE: 1 when it finished (DONE[t]); per channel: its length (CLEN[c]). */
void sys_por_view(sys_t *s, const uint8_t *state, size_t len, uint8_t *done, uint8_t *clen);
/* The same, and per thread its program counter (PC[t]) and whether it waits for a
 * reply (WAIT[t]), and per channel c and position k < CLEN[c] the message's type and
 * line (MSGS[(c * cap + k) * 2], ... + 1; line -1: none). */
void sys_por_view_msgs(sys_t *s, const uint8_t *state, size_t len, uint8_t *done, uint8_t *clen,
                       int16_t *pc, uint8_t *wait, int16_t *msgs);

/* The compute units (bit c for CU c) that the node and nodeset variables of instance I
 * name at STATE: line variable v when bit v of LVARS is set, on every line whose state
 * keeps it live, and controller variable v when bit v of CVARS is set. */
uint64_t sys_por_view_nodes(sys_t *s, const uint8_t *state, size_t len, int i, uint64_t lvars,
                            uint64_t cvars);

/* Per channel c some row can send into (NAMED[c]; others untouched): the compute units
 * that the fields of its messages name, field f of message type m when bit f of FMASK[m]
 * is set (a node by its instance's CU, a nodeset by its bits). */
void sys_por_view_fields(sys_t *s, const uint8_t *state, size_t len, const uint64_t *fmask,
                         uint64_t *named);

/* With a clock (docs/por.md, "Global clocks"): the state of each line of instance I at
 * STATE (LSTATE[l]), and which of its timestamps are unexpired (>= 0 in the normal
 * form, so a tick may still change them): bit l for a live time line variable on line
 * l (lines past 62 share bit 62), bit 63 for a time controller variable (any element).
 * An expired time is -1 and stays -1 under every tick. With --time raw every bit is set. */
uint64_t sys_por_view_times(sys_t *s, const uint8_t *state, size_t len, int i, int16_t *lstate);

#endif
