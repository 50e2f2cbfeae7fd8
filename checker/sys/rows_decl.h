/* rows_decl.h - the evaluator's interface for one slot type; included by rows.h
 * with ROWS_SLOT (the slot type), ROWS_VAL (an expression's value) and ROWS(name)
 * (the name prefix) defined. */
/* clang-format off */
typedef struct ROWS(ctx) ROWS(ctx_t);

typedef struct {
    /* Instance INST's record of line LINE (count()); NULL when it has none. */
    ROWS_SLOT *(*line)(ROWS(ctx_t) *x, int inst, int line);
    /* Put message record REC (slot 0 the message, 1 the line, then the fields) on
       network NET to instance DST: 0, 1 when a bounded channel is full (the row
       waits), -1 on an error (set with ROWS(fail)). */
    int (*send)(ROWS(ctx_t) *x, int net, int dst, const ROWS_SLOT *rec);
    /* Every line of this instance in a state of FROM moves to state TO. */
    void (*forall)(ROWS(ctx_t) *x, uint64_t from, int to);
    /* done(TID, ...): complete thread TID's current core event, with VAL for
       its register when HAS_VAL. 0, or -1 with an error. */
    int (*done)(ROWS(ctx_t) *x, int64_t tid, bool has_val, int64_t val);
} ROWS(ops_t);
/* clang-format on */

struct ROWS(ctx) {
    const rows_layout_t *L;
    const ROWS(ops_t) * ops;
    void *user; /* the caller's */
    int inst;
    int line;             /* -1: controller-level */
    ROWS_SLOT *lrec;      /* the line's record (slot 0: its state), NULL when line < 0 */
    ROWS_SLOT *cvars;     /* the instance's controller variables */
    ROWS_SLOT *regs;      /* the requesting thread's registers, or NULL */
    const ROWS_SLOT *msg; /* the message being received (record as for send), or NULL */
    int msg_src;
    int tid; /* the requesting thread of a core event, or -1 */
    const prog_instr_t *instr;
    int64_t clock; /* the global clock's value */
    /* Param K's value in this context: timed mode's predictors (docs/protocol-language.md,
       Predictors); NULL (the explorer, and timed mode without them): the declared value. */
    int64_t (*param)(ROWS(ctx_t) * x, int k);
    bool did_done, did_wait;
    sys_error_t *err;
};

/* Set the first error: kind K, FMT with two %s arguments. Returns -1. */
int ROWS(fail)(ROWS(ctx_t) * x, sys_err_kind_t k, const char *fmt, const char *a, const char *b);
int ROWS(eval)(ROWS(ctx_t) * x, const proto_expr_t *e, ROWS_VAL *v);
/* The first row for EVENT whose states hold the line's state (controller-level
 * rows when line < 0) and whose guard holds; NULL if none. -1 on an error. */
int ROWS(find_row)(ROWS(ctx_t) * x, int event, const proto_row_t **out);
/* Run ROW's actions, then move the line to the row's next state. 0; 1 when a
 * send finds its bounded channel full (the caller drops the step); -1 on an error. */
int ROWS(run_actions)(ROWS(ctx_t) * x, const proto_row_t *row);
