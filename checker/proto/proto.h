/* proto.h - protocol tables: the loaded, checked form of a protocols/NAME.proto
 * file (docs/protocol-language.md). The parser resolves every name to an
 * index, so the interpreter never compares strings. A proto_t is immutable
 * after loading except for parameter values (proto_set_param).
 * Invariant: every index stored here is in range for the table it names. */
#ifndef COHCHECK_PROTO_H
#define COHCHECK_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/diag.h"

#define PROTO_MAX_STATES 64 /* per controller: state sets are 64-bit masks */

typedef enum {
    PROTO_T_VAL,  /* a data value */
    PROTO_T_DATA, /* the values of all locations of one line */
    PROTO_T_TID,  /* a thread */
    PROTO_T_LOC,  /* a location */
    PROTO_T_NODE, /* a controller instance */
    PROTO_T_BOOL,
    PROTO_T_INT,     /* lo..hi */
    PROTO_T_TIME,    /* a timestamp: only max/min, + constant, comparisons (shift-invariant) */
    PROTO_T_NODESET, /* a set of per-cu controller instances, one bit per compute unit */
    PROTO_T_MASK,    /* a set of locations of the line (dirty words), one bit per position */
    PROTO_T_NONE,    /* 'none': the empty nodeset or mask */
} proto_type_kind_t;

typedef struct {
    proto_type_kind_t kind;
    int lo, hi; /* PROTO_T_INT */
    /* int(LO..ncus): at most the run's compute units (its --cus, or the machine's);
       hi is then PROTO_NCUS_MAX, the static bound the type checks and encodings use. */
    bool ncus;
    /* int(LO..nthreads): at most the run's threads (the test's, all CUs together); hi is
       then PROTO_NTHREADS_MAX, the static bound of the type checks; a run's range check
       and the explorer's encoding use the run's thread count. */
    bool nthreads;
} proto_type_t;

#define PROTO_NCUS_MAX 255
#define PROTO_NTHREADS_MAX 4096 /* a scale file's most threads (docs/litmus.md) */

/* The largest value type TY takes in a run of NTHREADS threads (int(LO..nthreads): the
   run's bound; otherwise the static hi). */
static inline int proto_type_hi(const proto_type_t *ty, int nthreads)
{
    return ty->nthreads ? nthreads : ty->hi;
}

typedef struct {
    char *name;
    int value; /* default, or the --param override */
    int line, col;
} proto_param_t;

#define PROTO_MAX_CAPACITY 16 /* messages per channel of a bounded network */

typedef struct {
    char *name;
    bool ordered;
    int capacity; /* 'capacity N': at most N messages per channel (back-pressure); 0: unbounded */
} proto_net_t;

typedef struct {
    char *name;
    proto_type_t type;
    bool ghost; /* 'ghost NAME: TYPE': timed mode's only (see proto_load_timed) */
} proto_field_t;

typedef struct {
    char *name;
    int net;
    bool noline;
    int nfields;
    proto_field_t *fields;
} proto_msg_t;

/* Event space of a protocol: messages first (event i < nmsgs is message i),
 * then named events (core events, internal events, environment actions). */
typedef enum {
    PROTO_EV_MSG,
    PROTO_EV_CORE,     /* used in a core map */
    PROTO_EV_INTERNAL, /* 'event ID' */
    PROTO_EV_ENV,      /* 'event ID line env' */
} proto_event_kind_t;

typedef struct {
    char *name;
    proto_event_kind_t kind;
    bool line; /* a line event (rows name states) or controller-level ('-' rows) */
    int msg;   /* PROTO_EV_MSG: the message index */
} proto_event_t;

/* Request fields a core-event row may read. */
typedef enum {
    PROTO_REQ_LOC,
    PROTO_REQ_VAL,
    PROTO_REQ_EXP,
    PROTO_REQ_OP, /* 0 add, 1 exch, 2 cas */
    PROTO_REQ_ORD,
    PROTO_REQ_SCOPE,
    PROTO_REQ_TID,
} proto_req_field_t;

typedef enum {
    PROTO_E_INT,     /* index: the value (true 1, false 0) */
    PROTO_E_PARAM,   /* index: param */
    PROTO_E_LINEVAR, /* index: line variable of this controller */
    PROTO_E_CTRLVAR, /* index: controller variable */
    PROTO_E_INDEX,   /* a[b]: a is a data-typed variable expression, b a loc */
    PROTO_E_MSGF,    /* index: field of the message being received */
    PROTO_E_MSGSRC,  /* msg.src */
    PROTO_E_REQF,    /* index: proto_req_field_t */
    PROTO_E_SELF,    /* this instance (node) */
    PROTO_E_LINE,    /* the current line's index */
    PROTO_E_NOT,
    PROTO_E_NEG,
    PROTO_E_BIN, /* op: one of '+', '-', '<', 'l' (<=), '>', 'g' (>=), '=' (==), '!' (!=), '&', '|'
                  */
    PROTO_E_MAX,
    PROTO_E_MIN,
    PROTO_E_COUNT, /* index: controller; states: mask */
    PROTO_E_APPLY, /* a=op, b=old, c=val, d=exp */
    PROTO_E_CLOCK, /* the global clock ('clock NAME') */
    PROTO_E_TELEM, /* a[b]: element b (a tid) of per-thread variable a */
    PROTO_E_NONE,  /* the empty nodeset or mask */
    PROTO_E_IN,    /* a in b: a node in a nodeset, or a loc in a mask */
    PROTO_E_SETOP, /* a + b, a - b (op '+' '-'): nodeset or mask a with element b added/removed */
    PROTO_E_SIZE,  /* size(a): members of a nodeset or mask */
    PROTO_E_MERGE, /* merge(a, b, c): data a with the locations in mask c taken from data b */
} proto_expr_kind_t;

typedef struct proto_expr {
    proto_expr_kind_t kind;
    int op;
    int index;
    uint64_t states;
    struct proto_expr *a, *b, *c, *d;
    proto_type_t type; /* inferred */
    int line, col;
} proto_expr_t;

typedef enum {
    PROTO_A_ASSIGN, /* var (line or controller) := value; with index: var[index] := value */
    PROTO_A_SEND,
    PROTO_A_DONE, /* tid (NULL: the current request's thread), value (NULL: none) */
    PROTO_A_WAIT,
    PROTO_A_FORALL, /* every line in states 'from' moves to state 'to' */
} proto_action_kind_t;

typedef enum {
    PROTO_DEST_SHARED, /* the single instance of shared controller 'ctrl' */
    PROTO_DEST_SAMECU, /* the instance of per-cu controller 'ctrl' on this CU */
    PROTO_DEST_ALL,    /* every instance of per-cu controller 'ctrl' */
    PROTO_DEST_SRC,    /* msg.src */
    PROTO_DEST_NODE,   /* the instance a node-typed expression names (dest_node) */
    PROTO_DEST_EACH,   /* 'each CTRL in SET': per-cu 'ctrl' of every CU in nodeset dest_node */
} proto_dest_kind_t;

typedef struct {
    proto_action_kind_t kind;
    /* assign */
    bool line_var; /* true: a line variable; false: a controller variable */
    int var;
    proto_expr_t *index; /* NULL unless data[loc] */
    proto_expr_t *value;
    /* send: one expression per message field (NULL: field not set -> 0) */
    int msg;
    proto_expr_t **fields;
    proto_dest_kind_t dest;
    int dest_ctrl;
    proto_expr_t *dest_node; /* PROTO_DEST_NODE */
    /* done */
    proto_expr_t *tid, *dval;
    /* forall */
    uint64_t from;
    int to;
    int line, col;
} proto_action_t;

typedef enum { PROTO_ROW_NORMAL, PROTO_ROW_STALL, PROTO_ROW_IMPOSSIBLE } proto_row_kind_t;

typedef struct {
    uint64_t states; /* states the row applies to; 0 for a controller-level ('-') row */
    int event;
    proto_expr_t *guard; /* NULL: always */
    proto_row_kind_t kind;
    int nactions;
    proto_action_t *actions;
    int next; /* -1: stay */
    bool has_done, has_wait;
    int line, col;
    int section;               /* 0: the base; k: the k-th variant ('extends') on top of it */
    size_t text_off, text_len; /* guard..next (and labels) in proto_t.source, for printing */
    int ncites;
    int *cites;  /* indexes into proto_t.labels: the paper's table cells this row implements */
    int reading; /* 1 + index into proto_t.readings: the reading that marks this row; 0: none */
} proto_row_t;

typedef struct {
    char *name;
    proto_type_t type;
    proto_expr_t *init;        /* NULL: zero */
    bool init_initial;         /* '= initial': the test's initial values (data) */
    int init_warm;             /* '= warm CTRL' (nodeset): the CUs whose CTRL line starts warm;
                                  CTRL's index + 1, 0: not given */
    bool per_thread;           /* 'var ID[tid]': one element per thread */
    uint64_t live;             /* line vars: states where the value is kept ('live S...'; all bits
                                  when absent); in any other state it is reset to its initial value */
    size_t text_off, text_len; /* the initial value's text in proto_t.source (0: none) */
    bool ghost;                /* 'line ghost ID: TYPE': timed mode's only (proto_load_timed) */
} proto_var_t;

typedef struct {
    char *name;
    bool per_cu;
    int nstates;
    char **state_names;
    bool *transient;
    bool *coherent; /* transient states declared 'transient coherent' (TC Table 1's split) */
    int init_state;
    int warm_state; /* -1: none */
    int nlinevars;
    proto_var_t *linevars;
    int nctrlvars;
    proto_var_t *ctrlvars;
    int nrows;
    proto_row_t *rows;
} proto_ctrl_t;

typedef struct {
    int op;    /* prog_opcode_t: PROG_OP_LD, ST, RMW, CAS or FENCE */
    int ord;   /* prog_ord_t, or -1 for '*' (absent in the pattern: PROG_ORD_PLAIN for ld/st) */
    int scope; /* prog_scope_t, or -1 for '*' / absent */
    int nevents;
    int *events; /* core events, in order */
    int line, col;
} proto_map_t;

typedef struct {
    char *name;
    proto_expr_t *expr;
    int line, col;
    size_t text_off, text_len; /* the expression's text in proto_t.source */
} proto_inv_t;

/* What a 'reading' marks (docs/protocol-language.md, Readings). */
typedef enum {
    PROTO_READ_NONE,
    PROTO_READ_ROW,
    PROTO_READ_NETWORK,
    PROTO_READ_PARAM,
    PROTO_READ_MAP,
} proto_reading_kind_t;

/* 'reading "SECTION": "TEXT"' after a row, network, param or map: where the
 * item interprets or departs from its source. Unmarked items are transcribed
 * as written. */
typedef struct proto_reading {
    proto_reading_kind_t kind;
    char *item;    /* the marked item: "network req", "param npend", "map ld.*", "L1 V | store" */
    char *section; /* the source it interprets, e.g. "seed 004 §3.1" */
    char *text;    /* the reading */
    char *file;    /* where the marked item is */
    int line, col;
    int sect;  /* the protocol section (0: the base of every 'extends') that wrote it */
    bool live; /* false: a variant replaced or removed the item (its rows, network, param, map) */
} proto_reading_t;

/* 'predict PARAM per bank|line range LO..HI [start N|min|max]' in controller CTRL
 * (docs/protocol-language.md, Predictors): in timed mode with the predictors on, rows of
 * CTRL read PARAM as a prediction kept per bank (a shared CTRL's lines are spread over the
 * machine's L2 banks; a per-cu CTRL has one per instance) or per line of each instance,
 * moved by the controller's 'on' rules. The explorer, and timed mode with
 * the predictor off, read the param's value: predictors are invisible to them. */
typedef struct {
    int param, ctrl;
    bool per_line;
    int lo, hi, start; /* start: the initial prediction, in lo..hi */
    bool start_param;  /* no 'start': the param's value in the run (--param), clamped */
    int section;       /* the protocol section that declared it (a variant's replaces) */
    int line, col;
} proto_pred_t;

typedef enum {
    PROTO_PU_ADD, /* + N */
    PROTO_PU_SUB, /* - N */
    PROTO_PU_MUL, /* * N */
    PROTO_PU_DIV, /* / N */
    PROTO_PU_SET, /* := N (min and max are stored as the range's ends) */
} proto_pu_op_t;

/* 'on STATES | EVENTS | [GUARD] | PARAM OP N [| used EVENT, ...]': when a row of CTRL
 * (not a stall or impossible row) fires for EVENT on a line in one of STATES (its state
 * before the row; 0: a controller-level rule) and GUARD holds before the row's actions,
 * the prediction of PARAM moves by OP N, clamped to the range. With 'used', only in runs
 * whose workload maps an instruction to one of those core events. One per event. */
typedef struct {
    int pred, ctrl;
    uint64_t states;
    int event;
    proto_expr_t *guard; /* NULL: always */
    int op, arg;
    int nused;
    int *used; /* core events */
    int line, col;
    size_t text_off, text_len; /* GUARD..end in proto_t.source, for printing */
} proto_prule_t;

typedef struct {
    char *file;
    char *name;
    char *desc;
    char *source;
    size_t source_len;
    char *target; /* model name, or NULL */
    int nparams;
    proto_param_t *params;
    int nnets;
    proto_net_t *nets;
    int nmsgs;
    proto_msg_t *msgs;
    int nevents;
    proto_event_t *events;
    int nctrls;
    proto_ctrl_t *ctrls;
    int core_ctrl; /* the per-cu controller cores talk to */
    int outstanding;
    /* 'local wg' in the core section: work-group-scoped accesses are performed at the
       core's L1 (a store done there is seen by every later load of its CU; wg-scoped
       acquires and releases need nothing beyond it). Only timed mode's store buffer
       reads it; the explorer ignores it. */
    bool wg_local;
    int nmaps;
    proto_map_t *maps;
    int ninvs;
    proto_inv_t *invs;
    char *clock; /* 'clock NAME': a global physical clock advanced by tick steps; NULL: none */
    int npubs;
    struct proto_pub *pubs; /* 'published' counts, for `count` */
    int nfinals;
    struct proto_final *finals; /* 'final' declarations, in order; none: the default */
    bool granularity_word;      /* 'granularity word': every location is its own line */
    char *labels_source;        /* 'labels "SOURCE" ...': the table the rows cite; NULL: none */
    int nlabels;
    char **labels;
    int nreadings;
    proto_reading_t *readings; /* in file order, bases first; see proto_reading_t.live */
    int npreds;
    proto_pred_t *preds; /* 'predict' declarations (timed mode only) */
    int nprules;
    proto_prule_t *prules; /* 'on' rules, in file order */
    char *base;            /* 'extends BASE': the protocol this one is a variant of; NULL: none */
    int nsections;         /* 1 + the number of 'extends' steps */
    int nfiles;            /* the files source came from, bases first */
    char **files;
    size_t *file_offs; /* where each file's text starts in source */
} proto_t;

/* 'published "SOURCE" CTRL stable N transient N [coherent N] [transitions N]':
 * a paper's count of one controller, shown beside cohcheck's. -1: not given. */
typedef struct proto_pub {
    char *source;
    int ctrl;
    int stable, transient, coherent, transitions;
} proto_pub_t;

/* 'final CTRL.VAR [in STATE...] [if MASK]': where a location's final value
 * is read (docs/protocol-language.md, Final memory). The declarations are
 * tried in order; the first instance of CTRL whose line is in one of STATES
 * (any state when none are named) and, with 'if', whose mask line variable
 * holds the location, gives the value. */
typedef struct proto_final {
    int ctrl, var;   /* a data line variable of CTRL */
    uint64_t states; /* 0: any state */
    int mask;        /* a mask line variable of CTRL, -1: none */
    int line, col;
} proto_final_t;

/* Parse a protocol file from memory. Returns 0 and *OUT, or -1 with ERR set to
 * "FILE:LINE:COL: message" for the first mistake. Never crashes. */
int proto_parse(const char *file, const char *src, size_t len, proto_t **out, diag_t *err);

/* Read and parse PATH. */
int proto_load(const char *path, proto_t **out, diag_t *err);

/* As proto_parse and proto_load; a base an 'extends' names that is not beside its
 * file is looked for in the folders LIB (NULL-ended, in order; NULL: none), so a
 * variant outside them may extend a shipped protocol. */
int proto_parse_lib(const char *file, const char *src, size_t len, const char *const *lib,
                    proto_t **out, diag_t *err);
int proto_load_lib(const char *path, const char *const *lib, proto_t **out, diag_t *err);

/* Ghosts (docs/protocol-language.md, Ghosts): line variables and message fields declared
 * 'ghost' carry what only timed mode's predictor rules read. The functions above return
 * the protocol without them (what the explorer and every other command run): a ghost
 * variable's and field's type becomes int(0..0), their assignments and send values are
 * dropped (nothing else may read them, which the parser checks), so the rows and states
 * are those of the protocol without the declarations. proto_parse_timed and
 * proto_load_timed keep them (timed mode; count, which prints the rows). */
int proto_parse_timed(const char *file, const char *src, size_t len, const char *const *lib,
                      proto_t **out, diag_t *err);
int proto_load_timed(const char *path, const char *const *lib, proto_t **out, diag_t *err);

void proto_free(proto_t *p);

/* Override parameter NAME with VALUE (--param NAME=VALUE). -1 with ERR if unknown. */
int proto_set_param(proto_t *p, const char *name, int value, diag_t *err);

/* Find the map for an instruction (PROG_OP_*, PROG_ORD_*, PROG_SCOPE_*): the
 * most specific match, ties to the first. NULL when none matches. */
const proto_map_t *proto_find_map(const proto_t *p, int op, int ord, int scope);

typedef struct {
    int stable, transient, coherent; /* coherent: transient states declared 'coherent' */
    int transitions; /* non-empty (state, event) cells that are neither stall nor impossible */
    int branches;    /* the same, counting each guarded alternative (row) of a cell apart */
} proto_count_t;

/* Whether PRED(node, ARG) holds at some node of expression E (NULL: none), or of
 * any expression of action A (its index, value, destination, thread, done value
 * and message fields) in protocol P. For the analyses of sys_por and sys_set_dead. */
typedef bool (*proto_expr_pred)(const proto_expr_t *e, int arg);
bool proto_expr_any(const proto_expr_t *e, proto_expr_pred pred, int arg);
bool proto_action_any(const proto_t *p, const proto_action_t *a, proto_expr_pred pred, int arg);

/* Table-level counts for controller C (docs/protocol-language.md, Counting). */
void proto_count(const proto_t *p, int c, proto_count_t *out);

/* The resolved protocol as one standalone protocol file (a variant with its
 * bases applied: `count --resolved`), malloc'd. Parsing it gives the same
 * tables: rows come one per (states, event), in the order the explorer
 * tries them. */
char *proto_resolved_text(const proto_t *p);

/* Row R's text "guard | actions | next [| labels]" with comments removed and
 * white space folded to single spaces; malloc'd. */
char *proto_row_text(const proto_t *p, const proto_row_t *r);

/* Split a row text (proto_row_text) at its column bars (a single '|', not '||'),
 * in place: COL[0..3] get guard, actions, next and labels, trimmed. Returns how
 * many columns there are (at most 4). */
int proto_split_cols(char *t, char **col);

/* The file the text at OFF of P's source came from (a variant's base, or the variant). */
const char *proto_file_of(const proto_t *p, size_t off);

#endif
