/* prog.h - the litmus program IR and its parser (docs/architecture.md section 2).
 * A prog_t is immutable once parsed; every later stage (model evaluation, the
 * protocol explorer, timed mode) reads it. Invariant: every register, location,
 * thread and branch target it names exists (the parser rejects the rest). */
#ifndef COHCHECK_PROG_H
#define COHCHECK_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/diag.h"
#include "../base/util.h"

#define PROG_MAX_REGS 16
#define PROG_MAX_THREADS 16 /* the table's limit, and the explorer's and model evaluator's */
/* Scale files (docs/litmus.md, "Workloads at scale": params, thread templates,
 * location arrays) are parsed to these limits; the explorer and the model
 * evaluator still refuse more than PROG_MAX_THREADS threads with an error. */
#define PROG_MAX_SCALE_THREADS 4096
#define PROG_MAX_SCALE_LOCS 65536
/* A scale file's literals are below this (the explorer's values are 16-bit); a
 * table's are any int64 (prog_val_t). */
#define PROG_MAX_SCALE_VAL 32768

typedef int64_t prog_val_t;

typedef enum {
    PROG_ORD_PLAIN, /* no order: a non-atomic data access */
    PROG_ORD_RLX,
    PROG_ORD_ACQ,
    PROG_ORD_REL,
    PROG_ORD_ACQREL,
    PROG_ORD_SC,
} prog_ord_t;

typedef enum {
    PROG_SCOPE_NONE, /* plain accesses carry no scope */
    PROG_SCOPE_WG,
    PROG_SCOPE_AGENT,
    PROG_SCOPE_SYSTEM,
    PROG_SCOPE_RM_AGENT, /* remote-scope promotion */
} prog_scope_t;

typedef enum {
    PROG_OP_LD,
    PROG_OP_ST,
    PROG_OP_RMW,
    PROG_OP_CAS,
    PROG_OP_FENCE,
    PROG_OP_MOV,
    PROG_OP_ADD,
    PROG_OP_BEQ,
    PROG_OP_BNE,
    PROG_OP_B,
    PROG_OP_NOP, /* a label standing alone */
    /* Kernel instructions (docs/litmus.md, "Kernels"): appended so older values keep theirs. */
    PROG_OP_SUB, /* reg := a - b */
    PROG_OP_MUL, /* reg := a * b */
    PROG_OP_BLT, /* branch when reg < a */
    PROG_OP_BGE, /* branch when reg >= a */
    /* A join (docs/litmus.md, "Kernel launches and bar.sync"): the thread waits until every
       thread of its group waits at a join of the same scope or has finished; then all go on.
       scope PROG_SCOPE_AGENT: the group is every thread (the grid: `launch`);
       PROG_SCOPE_WG: the threads of its work-group (`bar.sync`). The parser writes it only
       between a release fence and an acquire fence of that scope. */
    PROG_OP_JOIN,
    /* Integer division (docs/litmus.md, "Kernels"), truncating toward zero as C and PTX's
       div.s32/rem.s32: reg := a / b, reg := a % b (the sign of a). A zero divisor is a run
       error the back-ends report (prog_alu_faults); appended so older values keep theirs. */
    PROG_OP_DIV,
    PROG_OP_REM,
} prog_opcode_t;

typedef enum { PROG_RMW_ADD, PROG_RMW_EXCH } prog_rmw_t;

typedef struct {
    bool is_reg;
    prog_val_t v; /* register index when is_reg, else the literal */
} prog_operand_t;

typedef struct {
    prog_opcode_t op;
    prog_ord_t ord;     /* memory ops and fences */
    prog_scope_t scope; /* memory ops and fences */
    prog_rmw_t rmw;     /* PROG_OP_RMW */
    int reg;            /* destination (ld rmw cas mov add) or tested register (beq bne) */
    int loc;            /* location index (ld st rmw cas) */
    prog_operand_t
        a; /* st: value; rmw: operand; cas: expected; mov: source; add: A; beq/bne: value */
    prog_operand_t b; /* cas: new value; add: B */
    int target;       /* branches: index of the target instruction in this thread */
    int line, col;    /* where the instruction was written */
    /* Register-indexed address `NAME[rK + C]` (ld st rmw cas): loc is element 0 of
       the array, whose idx_len elements are locations loc..loc+idx_len-1; the
       element is regs[idx_reg] + idx_off. idx_reg is never the instruction's
       destination, so the address holds while the access runs. */
    bool indexed;
    int idx_reg;
    int idx_off;
    int idx_len;
} prog_instr_t;

typedef struct {
    int wg;   /* work-group (P<n>@wg<k>; default n) */
    int cu;   /* compute unit (P<n>@wg<k>:cu<m>; default: the work-group's number) */
    int simt; /* > 0: a lane of `threads ... simt` template number simt (timed mode groups
                 consecutive lanes of one template, work-group and CU into warps); 0: not */
    int ninstr;
    prog_instr_t *instr;
    /* A C test's own register names, by index (NULL: none, shown as rN; a native
     * test has none). Outcomes and conditions print them (prog_reg_name). */
    char *regname[PROG_MAX_REGS];
} prog_thread_t;

typedef struct {
    char *name;
    prog_val_t init;
    int line_id;             /* cache line: locations in one `sameline` group share an id */
    int init_line, init_col; /* where the initial value was written (0: not written) */
} prog_loc_t;

typedef enum {
    PROG_COND_TRUE,
    PROG_COND_FALSE,
    PROG_COND_REG, /* thread:reg = val */
    PROG_COND_LOC, /* loc = val */
    PROG_COND_AND,
    PROG_COND_OR,
    PROG_COND_NOT,
} prog_cond_kind_t;

typedef struct prog_cond {
    prog_cond_kind_t kind;
    int thread, reg, loc;
    prog_val_t val;
    struct prog_cond *a, *b;
} prog_cond_t;

typedef enum { PROG_EXISTS, PROG_NOT_EXISTS, PROG_FORALL } prog_quant_t;

/* A parameter a scale file declares (`param NAME = E`) or derives (`let NAME = E`). */
typedef struct {
    char *name;
    prog_val_t value; /* after overrides */
    bool derived;     /* `let`: computed, cannot be set */
    bool set;         /* overridden by a prog_setting_t */
} prog_param_t;

/* A parameter setting given to the parser (--param NAME=VALUE). */
typedef struct {
    const char *name;
    prog_val_t value;
} prog_setting_t;

typedef struct {
    char *file;   /* path given to the parser */
    char *name;   /* test name from line 1 */
    char *desc;   /* description, or NULL */
    char *source; /* the whole file text */
    size_t source_len;
    int nthreads;
    prog_thread_t *threads;
    int nlocs;
    prog_loc_t *locs;
    int nlines; /* distinct cache lines */
    prog_quant_t quant;
    prog_cond_t *cond;
    int nparams; /* declared parameters and lets, in file order */
    prog_param_t *params;
    char *meta; /* a C test's header KEY=VALUE lines, each ending in '\n', or NULL */
} prog_t;

/* Parse SRC[0..LEN) (FILE names it in diagnostics). Returns 0 and *OUT, or -1
 * with ERR set to the first error's position and message. Never crashes. */
int prog_parse(const char *file, const char *src, size_t len, prog_t **out, diag_t *err);

/* Read and parse PATH. An unreadable file is an error at line 0. */
int prog_load(const char *path, prog_t **out, diag_t *err);

/* prog_parse with parameter settings SET[0..NSET) applied before expansion.
 * Setting a `let` is an error at its line; with PROG_PARAMS_STRICT, setting a
 * name the file does not declare is an error at 1:1 (otherwise it is ignored:
 * see prog_param_find). Values must lie in 0..PROG_MAX_SCALE_VAL-1. */
#define PROG_PARAMS_STRICT 1u
/* Timed mode: a `param NAME = E timed T` defaults to T instead of E (docs/litmus.md). */
#define PROG_PARAMS_TIMED 2u
int prog_parse_params(const char *file, const char *src, size_t len, const prog_setting_t *set,
                      int nset, unsigned flags, prog_t **out, diag_t *err);
int prog_load_params(const char *path, const prog_setting_t *set, int nset, unsigned flags,
                     prog_t **out, diag_t *err);

/* The parameter or let NAME of P, or NULL. */
const prog_param_t *prog_param_find(const prog_t *p, const char *name);

void prog_free(prog_t *p);

/* The location IN accesses when its index register holds IDX (ignored unless
 * IN is indexed): -1 when the element lies outside the array. */
int prog_instr_loc(const prog_instr_t *in, int64_t idx);

/* True when some instruction of P addresses memory through a register. */
bool prog_has_indexed(const prog_t *p);

/* The first literal of P outside LO..HI (an initial value, or an instruction's
 * operand): true, with the value in *V and where it was written in *LINE, *COL.
 * Consumers with narrower slots than prog_val_t (the explorer, timed mode) refuse
 * such tests rather than truncate. */
bool prog_value_outside(const prog_t *p, prog_val_t lo, prog_val_t hi, prog_val_t *v, int *line,
                        int *col);

/* True when P uses a kernel instruction (sub, mul, div, rem, blt, bge, NAME[rK], launch,
 * bar.sync). */
bool prog_has_kernel_instr(const prog_t *p);

/* True when P has a join (PROG_OP_JOIN: launch, bar.sync). */
bool prog_has_join(const prog_t *p);

/* True when P divides (div, rem): a zero divisor is a run error, which the model
 * evaluator's executions cannot raise, so it leaves such a test to check and sim. */
bool prog_has_div(const prog_t *p);

/* Instruction kinds: writes its `reg` (ld rmw cas mov add sub mul div rem); a branch
 * (b beq bne blt bge). */
bool prog_writes_reg(const prog_instr_t *in);
bool prog_is_branch(const prog_instr_t *in);

/* A conditional branch with register value R and operand value A: taken? */
bool prog_branch_taken(const prog_instr_t *in, int64_t r, int64_t a);

/* mov add sub mul div rem on operand values A and B, wrapping at 64 bits (INT64_MIN / -1
 * is INT64_MIN, its remainder 0). A zero divisor gives 0: callers report it first. */
int64_t prog_alu(const prog_instr_t *in, int64_t a, int64_t b);

/* True when IN is a div or rem whose divisor value B is 0: a run error, which the
 * explorer and the simulator report as `division by zero` at the instruction's line. */
bool prog_alu_faults(const prog_instr_t *in, int64_t b);

/* A graph in CSR form (prog_graph.c): vertex v's out-edges are
 * col[row[v]..row[v+1]-1] with weights w[...]. Vertices are 0..n-1. */
typedef struct {
    int n;
    int m;
    int32_t *row; /* n + 1 entries */
    int32_t *col; /* m entries */
    int32_t *w;   /* m entries, each 1..PROG_MAX_SCALE_VAL-1 */
} prog_graph_t;

/* Read a graph from SRC[0..LEN): Matrix Market (`%%MatrixMarket matrix coordinate`,
 * real/integer/pattern, general/symmetric; entry (i, j, v) is an edge i-1 -> j-1 of
 * weight |v| rounded, at least 1; pattern weight 1) or DIMACS shortest-path (`p sp N M`,
 * `a U V W`, 1-based). Returns 0, or -1 with ERR at FILE:LINE:COL. At most MAXV
 * vertices and MAXE edges. */
int prog_graph_read(const char *file, const char *src, size_t len, long maxv, long maxe,
                    prog_graph_t *g, diag_t *err);

/* Deterministic generators (SplitMix64 from SEED): R-MAT (Chakrabarti et al.,
 * a=0.57 b=0.19 c=0.19 d=0.05) with 2^SCALE vertices and DEG*2^SCALE directed
 * edges, weights 1..63; a road-like W x H grid: every east-west road, a quarter of
 * the north-south ones (all of column 0, so it is connected), both directions,
 * weights 1..15 (about 2.5 arcs per vertex, as the USA-road-d graphs). */
void prog_graph_rmat(int scale, int deg, uint64_t seed, prog_graph_t *g);
void prog_graph_grid(int w, int h, uint64_t seed, prog_graph_t *g);

/* Shortest distances from SRC (Dijkstra); DIST[v] = -1 when v is unreachable. */
void prog_graph_sssp(const prog_graph_t *g, int src, int64_t *dist);

/* Hop counts from SRC (breadth-first, weights ignored); HOPS[v] = -1 when v is
 * unreachable. */
void prog_graph_bfs(const prog_graph_t *g, int src, int64_t *hops);

/* Colouring priorities: PRIO[0..n-1] a permutation of 0..n-1 drawn from SEED
 * (SplitMix64, Fisher-Yates), so no two vertices tie. */
void prog_graph_prio(int n, uint64_t seed, int32_t *prio);

/* Jones-Plassmann colouring by PRIO (Pannotia's color_max, seed 001 section IV):
 * in round c = 1, 2, ... every vertex not yet coloured whose priority exceeds that of
 * each out-neighbour not coloured before round c takes colour c. COLOR[v] is v's round;
 * returns the number of rounds. On a symmetric graph (the grid, a symmetric Matrix
 * Market file) it is a proper colouring: two neighbours never share a colour. */
int prog_graph_color(const prog_graph_t *g, const int32_t *prio, int64_t *color);

/* The transpose of G into T (vertex v's in-edges: T->col[T->row[v]..T->row[v+1]-1] are
 * the sources u of G's edges u -> v, in order of u, with their weights). */
void prog_graph_transpose(const prog_graph_t *g, prog_graph_t *t);

/* Fixed-point PageRank of G after ITERS iterations from rank ONE at every vertex
 * (seed 001 section IV's PR, damping 85/100), in integers truncating toward zero as
 * the kernel's div does: c_i[u] = r_i[u] / outdeg(u) (0 when u has no out-edge: a
 * dangling vertex's rank is dropped), r_0[v] = ONE, r_{i+1}[v] = 15 * ONE / 100 +
 * 85 * (sum of c_i[u] over the edges u -> v, each edge once) / 100. RANK[v] = r_ITERS[v]. */
void prog_graph_pagerank(const prog_graph_t *g, int iters, int64_t one, int64_t *rank);

void prog_graph_free(prog_graph_t *g);

/* Evaluate the condition's proposition on final registers REGS[thread][reg]
 * and final memory MEM[loc]. */
bool prog_cond_eval(const prog_cond_t *c, const prog_val_t (*regs)[PROG_MAX_REGS],
                    const prog_val_t *mem);

/* Append the condition as text ("exists (1:r0=1 /\\ 1:r1=0)") to OUT. */
void prog_cond_format(const prog_t *p, strbuf_t *out);

/* herd7's C dialect (prog_c.c; docs/litmus.md). prog_parse reads such files
 * itself; these are its pieces. True when SRC's first word (after comments) is
 * 'C' or 'OpenCL'. */
bool prog_is_c(const char *src, size_t len);

/* What a C test says that the native text cannot carry: its register names
 * (malloc'd, NULL where the translation made the register up) and its header
 * KEY=VALUE lines (malloc'd or NULL). prog_parse moves them into the prog_t. */
typedef struct {
    char *regname[PROG_MAX_THREADS][PROG_MAX_REGS];
    char *meta;
} prog_c_info_t;

/* Translate a C-dialect test into the native format: 0 with *NATIVE (malloc'd),
 * *MAP (malloc'd; MAP[k] is the C line native line k came from, k >= 1; *NMAP
 * entries) and *INFO filled, or -1 with ERR at the C file's LINE:COL (INFO then
 * holds nothing). */
int prog_c_translate(const char *file, const char *src, size_t len, char **native, int **map,
                     int *nmap, prog_c_info_t *info, diag_t *err);

/* Append P in herd7's C dialect ('OpenCL' with scopes and work-group placement
 * when it uses scopes or places threads) to OUT. -1 with WHY when P has no C
 * form (a loop, remote scope, a work-group on another CU). */
int prog_to_herd(const prog_t *p, strbuf_t *out, char *why, size_t whylen);

/* Does P need the OpenCL dialect (scopes, work-group placement)? herd7 has had no
 * OpenCL front end since 2015, so `--to-herd` skips such tests unless asked. */
bool prog_needs_opencl(const prog_t *p);

/* Names of orders and scopes as written in litmus files ("acq", "wg", ...); "" for none. */
/* Register R of thread T as outcomes print it: the test's own name, or "rN". */
const char *prog_reg_name(const prog_t *p, int t, int r, char *buf, size_t n);
const char *prog_ord_name(prog_ord_t o);
const char *prog_scope_name(prog_scope_t s);

#endif
