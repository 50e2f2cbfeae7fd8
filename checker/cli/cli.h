/* cli.h - shared pieces of the command-line layer: the only code that prints
 * or chooses exit codes. Exit codes (docs/architecture.md section 3, normative): 0 all
 * checks pass, 1 a check failed, 2 bad input or usage, 3 a resource limit
 * stopped the work before it was complete. */
#ifndef COHCHECK_CLI_H
#define COHCHECK_CLI_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../base/diag.h"
#include "../cat/cat.h"
#include "../exec/exec.h"
#include "../explore/explore.h"
#include "../proto/proto.h"
#include "../store/store.h"
#include "opts.h"

enum { CLI_OK = 0, CLI_FAIL = 1, CLI_BAD_INPUT = 2, CLI_LIMIT = 3 };

/* The six required models, in the order they are reported. */
extern const char *const cli_default_models[6];

/* Print "cohcheck: FILE:LINE:COL: msg" to stderr. */
void cli_report(const diag_t *d);
/* Print "cohcheck: msg" to stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Find data file ARG: a path (contains '/' or ends in EXT) is taken as is;
 * a name is looked up as NAME+EXT in $ENV, ./DIR, DIR beside the binary and
 * the install share folder. Returns 0 with PATH filled, -1 if not found. */
/* The folders searched for data of kind DIR ("protocols", ...), in order: $ENV,
 * ./DIR, DIR next to the binary, the install share dir (DIRS, NULL-ended). */
typedef struct {
    char buf[2][PATH_MAX + 64];
    const char *dirs[5];
} cli_dirs_t;
void cli_data_dirs(const char *dir, const char *env, const char *argv0, cli_dirs_t *out);

/* ARG as a path: itself when it ends in EXT or names an existing file; otherwise (a name,
 * or a name in a subfolder such as kernels/sssp) DIRS/ARG.EXT, the first that exists; a
 * path with a '/' that is found nowhere is returned as it is (its open reports it). */
int cli_find_data(const char *arg, const char *dir, const char *ext, const char *env,
                  const char *argv0, char *path, size_t len);

/* Resolve a model name ("rcsc") or file path and load it. ARGV0 helps find the
 * models folder next to an installed binary. */
int cli_load_model(const char *arg, const char *argv0, cat_model_t **out, diag_t *err);

/* Collect the files ending in EXT under each of PATHS (files are taken as
 * given; folders are walked recursively), sorted. Returns 0 or -1 with ERR. */
int cli_collect(char *const *paths, int npaths, const char *ext, char ***files, int *nfiles,
                diag_t *err);
void cli_free_list(char **files, int n);

/* Parse a non-negative integer option value; -1 with ERR on junk. */
int cli_parse_count(const char *opt, const char *s, long long max, long long *out, diag_t *err);

int cmd_litmus(int argc, char **argv);
int cmd_check(int argc, char **argv);

/* Resolve a protocol name (./protocols, $COHCHECK_PROTOCOLS, ...) or .proto path and load it. */
int cli_load_protocol(const char *arg, const char *argv0, proto_t **out, diag_t *err);
/* The same with the protocol's ghosts kept (proto_load_timed): timed mode, and count. */
int cli_load_protocol_timed(const char *arg, const char *argv0, proto_t **out, diag_t *err);
/* A system rebuilt from a stored run. */
typedef struct {
    store_run_t run;
    proto_t *proto;
    prog_t *prog;
    cat_model_t *model;
    exec_model_result_t mr;
    bool have_mr;
    exec_layout_t lay;
    sys_config_t cfg;
    bool dfs;
    bool por;           /* the run used --por */
    bool liveness;      /* the run used --liveness */
    bool sym;           /* the run used --symmetry: its states are canonical (sys_set_symmetry) */
    char env_fair[160]; /* ... with --env-fair LIST */
    sys_t *sys;
} cli_rebuilt_t;
/* Rebuild run ID of DB (protocol, test, model, configuration as recorded). */
int cli_rebuild(store_t *db, int64_t id, const char *argv0, cli_rebuilt_t *b, diag_t *d);
void cli_rebuilt_free(cli_rebuilt_t *b);
/* A --symmetry run's stored path (PATH[N-1] an initial state, PATH[0] the target; the
 * states canonical) made a real execution in place: states and labels of the steps
 * sys_successors really takes (sys_sym_realise). Returns how many states it reached. */
size_t cli_sym_realise_path(sys_t *s, store_state_t *path, size_t n);
/* Open an existing store at PATH; -1 (reported) when it is missing or not a store. */
int cli_open_db(const char *path, store_t **db);

int cmd_count(int argc, char **argv);
int cmd_draw(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_mutate(int argc, char **argv);
int cmd_regress(int argc, char **argv);
int cmd_gen(int argc, char **argv);
int cmd_classify(int argc, char **argv);
int cmd_export(int argc, char **argv);

/* JUnit XML reports (--junit FILE; junit.c). Thread-safe. STATUS NULL: passed; else
 * "failure", "error" or "skipped", with TYPE, MESSAGE and BODY (each may be NULL). */
typedef struct cli_junit cli_junit_t;
cli_junit_t *cli_junit_new(const char *suite);
void cli_junit_case(cli_junit_t *j, const char *classname, const char *name, double secs,
                    const char *status, const char *type, const char *message, const char *body);
/* Before a run: can the report be written at PATH (NULL: nothing to check)? CLI_OK, or
 * CLI_BAD_INPUT with one error line, so a bad path costs no run. */
int cli_junit_check(const char *path);
/* Write the report (cases sorted) to PATH through a temporary file: CLI_OK or CLI_BAD_INPUT. */
int cli_junit_write(cli_junit_t *j, const char *path);
void cli_junit_free(cli_junit_t *j);
/* Append a GitHub workflow annotation line to B: ::LEVEL file=F,line=L,title=T::MSG
 * (--annotate; LEVEL error, warning or notice). */
void cli_annotate(strbuf_t *b, const char *level, const char *file, int line, const char *title,
                  const char *msg);
/* --env LIST into CFG (fetch, evict, writeback, all, none, or protocol event names). -1 on junk. */
int cli_parse_env(const char *s, sys_config_t *cfg);
/* --liveness's JSON fields of result R ("liveness", "fairness" (FAIRNESS 0 none, 1 weak,
 * 2 strong), "stuck_states", "lasso", ...). */
void cli_liveness_json(strbuf_t *b, const explore_result_t *r, int fairness);
/* Split --env-fair's LIST (modified in place) into at most MAX NAMES: how many, or -1
 * when an entry is not an identifier or there are too many. */
int cli_parse_env_fair(char *list, const char **names, int max);
/* 0 when every one of the N NAMES is an environment event P declares, else -1 with ERR. */
int cli_check_env_fair(const proto_t *p, const char *const *names, int n, diag_t *err);
/* The settings options mutate and regress share: getopt character CH ('c' --cus,
 * 'i' --init, 'e' --env, 'l' --lines) with ARG into CFG. 1 handled, 0 not one of
 * them, -1 bad value (reported, with CMD). */
int cli_config_opt(const char *cmd, int ch, const char *arg, sys_config_t *cfg);
/* --param NAME=VALUE: append ARG to PARAMS (at most 64; *NPARAMS counts them). 0, or -1
 * when ARG has no '=' or there are too many (reported, with CMD when not NULL). */
int cli_param_opt(const char *cmd, const char *arg, const char **params, int *nparams);
/* Apply the NPARAMS collected --param NAME=VALUE settings to P. 0, or -1 with ERR (a bad
 * value, or a name P does not declare). */
int cli_apply_params(proto_t *p, const char *const *params, int nparams, diag_t *err);
/* Write Graphviz TEXT to OUT as .dot, .svg or .png (by its extension; '-': the text
 * on stdout), through a temporary file renamed over OUT. CLI_OK or CLI_BAD_INPUT (reported). */
int cli_write_picture(const char *text, const char *out);
int cmd_show(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_resume(int argc, char **argv);
/* `cohcheck store check DB`: integrity and run consistency (exit 0 or 1). */
int cmd_store(int argc, char **argv);
int cmd_diff(int argc, char **argv);

/* The explorer's on_new hook for the store: CTX is a cli_store_ctx_t. The label
 * blob is the sys_label_t followed by the state's replay position (4 bytes). */
typedef struct {
    store_t *db;
    int64_t run;
} cli_store_ctx_t;
void cli_store_hook(void *ctx, uint32_t id, int64_t parent, int depth, const sys_label_t *label,
                    uint32_t ord, uint64_t fp, const uint8_t *state, size_t len);
/* Read a stored label blob back; *ORD is UINT32_MAX when the blob has none. */
void cli_label_read(const void *blob, size_t len, sys_label_t *label, uint32_t *ord);

/* Record the end of run RUN in DB (NULL: nothing): outcomes, counts, verdict, trace.
 * CLI_OK, or CLI_LIMIT (reported) when the store could not record it: the run stays
 * interrupted, and the command must not exit 0 or 1. */
int cli_store_finish(store_t *db, int64_t run, const explore_result_t *r, const exec_layout_t *lay,
                     const exec_model_result_t *mr, double secs);

/* Timed mode (cmd_sim.c). */
int cmd_sim(int argc, char **argv);

/* --param settings split between a protocol and a workload (docs/litmus.md,
 * "Workloads at scale"): names PROTO declares are applied to it (recorded in
 * proto_names); the others become workload settings for prog_load_params. */
typedef struct {
    prog_setting_t wl[64];
    int nwl;
    char *proto_names[64];
    int nproto;
    bool timed; /* load with PROG_PARAMS_TIMED (cohcheck sim: the papers' scale) */
} cli_params_t;
/* P may be NULL (cohcheck litmus): every setting is then the workload's. */
int cli_split_params(proto_t *p, const char *const *params, int nparams, cli_params_t *out,
                     diag_t *err);
/* Load test PATH with the workload settings of SP: every workload setting must
 * be a parameter the test declares, and no protocol setting may name one. */
int cli_load_test(const char *path, const proto_t *p, const cli_params_t *sp, prog_t **out,
                  diag_t *err);
void cli_params_free(cli_params_t *sp);

/* `cohcheck report timed` (cmd_report_timed.c; the report itself: checker/report/). */
int cmd_report_timed(int argc, char **argv);
/* --por / --no-por (partial-order reduction, docs/por.md): the option table's codes
 * (opts.c) for the options every exploring subcommand takes, and the default. */
enum { CLI_OPT_POR = 0x300, CLI_OPT_NO_POR = 0x301, CLI_OPT_SYM = 0x302, CLI_OPT_NO_SYM = 0x303 };
#define CLI_POR_DEFAULT true
/* CH is CLI_OPT_POR or CLI_OPT_NO_POR: set *POR and return 1; else 0. */
int cli_por_opt(int ch, bool *por);

/* ---- Shared output (cli_out.c) ---- */

/* Decode a stored trace (a JSON array of step strings, as the store and --json
 * keep it) into *STEPS (free with cli_free_list). 0, or -1 when malformed. */
int cli_trace_steps(const char *trace_json, char ***steps, int *nsteps);
/* Print the stored trace TRACE_JSON one step per line, numbered from 1 as
 * `check` prints it (step 1 is the initial state), each line led by INDENT.
 * Returns the number of steps, or -1 (nothing printed) when malformed. */
int cli_print_trace(FILE *out, const char *indent, const char *trace_json);

/* One progress line on stderr, redrawn in place at most 5 times a second (first after
 * 0.2 s; COHCHECK_PROGRESS_EVERY=SECONDS changes both), and only when stderr is a
 * terminal and WANTED (callers pass !json && !quiet):
 * "WHAT: DONE/TOTAL (P%), T s, MSG". Every long-running subcommand uses it. */
typedef struct cli_progress cli_progress_t;
cli_progress_t *cli_progress_new(const char *what, bool wanted);
bool cli_progress_on(const cli_progress_t *p);
/* TOTAL <= 0: unknown ("WHAT: DONE done, T s, MSG"); DONE < 0 too: "WHAT: MSG, T s".
 * FMT (may be NULL) adds a detail. Thread-safe. */
void cli_progress(cli_progress_t *p, long long done, long long total, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Make the next cli_progress call draw at once (before a long step with no updates). */
void cli_progress_soon(cli_progress_t *p);
/* Blank the line (before printing results); the next call draws it again. */
void cli_progress_clear(cli_progress_t *p);
void cli_progress_free(cli_progress_t *p);

/* Output folders are created when missing, for every option that names one (-o,
 * --out, --to-herd, --show, --junit): mkdir -p DIR, or of FILE's folder. 0, or -1
 * with one error line ("cannot create folder 'X': why"). */
int cli_mkdirs(const char *dir);
int cli_mkdirs_for(const char *file);

/* What a run over a folder did, for its closing summary line. */
typedef struct {
    int tests;      /* files given or found, readable or not */
    int ok;         /* passed (or evaluated, for litmus) */
    int failed;     /* a check failed */
    int incomplete; /* a limit stopped the check */
    int skipped;    /* the protocol cannot run the test (no mapping) */
    int unreadable; /* a bad or unreadable file: one FILE:LINE:COL line each */
} cli_tally_t;
/* Append "164 tests: 149 ok, 15 skipped, 2 unreadable" (zero counts left out, ok kept). */
void cli_tally_line(strbuf_t *b, const cli_tally_t *t);
/* The exit status of a tally: 2 with an unreadable file, else 1 with a failure,
 * else 3 with an incomplete check, else 0. */
int cli_tally_exit(const cli_tally_t *t);

#endif
