/* cmd_check.c - `cohcheck check`: explore a protocol exhaustively on each
 * litmus test and prove or refute it against a memory model and its own
 * invariants (docs/architecture.md sections 3 and 5). Racy tests constrain no outcome:
 * only deadlocks, unexpected events and invariants can fail them. */
#include <ctype.h>
#include <getopt.h>
#include <limits.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../base/util.h"
#include "../exec/exec.h"
#include "../explore/explore.h"
#include "../explore/explore_mpi.h"
#include "../prog/prog.h"
#include "../proto/proto.h"
#include "../store/store.h"
#include "cli.h"
#include <pthread.h>
#include <signal.h>

typedef struct {
    const char *argv0;
    const char *proto_path;
    char *command;
    char *params;    /* "a=1,b=2" as given, for the store */
    cli_params_t sp; /* --param split between protocol and workload */
    store_t *db;
    int jobs;             /* -j: tests checked at once */
    pthread_mutex_t lock; /* serialises store calls other than store_state, and job hand-out */
    pthread_cond_t cond;
    proto_t *proto;
    cat_model_t *model;
    sys_config_t cfg;
    explore_opts_t eo;
    bool json, progress, trace, annotate;
    cli_progress_t *pr; /* the shared progress line: a search's states (one test at a time)
                           or tests done (-j N); drawn only on a terminal */
    int unroll;
    cli_junit_t *junit; /* --junit FILE, or NULL */
    int nok, nfail, nlimit;
    bool mpi;       /* --mpi: every rank explores each test together */
    char *env_fair; /* --env-fair LIST as given (split into eo.fair_env) */
    char *fair_buf; /* its split copy, which fair[] points into */
    const char *fair[8];
    int rank, ranks;
} check_t;

/* One test being checked (several at once with -j): its run and its output. */
typedef struct {
    check_t *c;
    const char *path;
    int64_t run;
    cli_store_ctx_t hook;
    strbuf_t out;
    int rc;
    bool done;
    bool skipped;                   /* the protocol cannot run the test (no core map) */
    const explore_mpi_stats_t *mpi; /* --mpi: the run's communication, or NULL */
} job_t;

static void usage(FILE *f)
{
    fputs("usage: cohcheck check --protocol P [OPTIONS] PATH...\n"
          "\n"
          "Explore protocol P exhaustively on each litmus test (files, or folders walked for\n"
          "*.litmus) under every interleaving, and prove or refute it: every terminal outcome\n"
          "must be allowed by the model; no deadlock, unexpected event or broken invariant.\n"
          "\n"
          "options:\n",
          f);
    cli_opts_help(f, CLI_CMD_CHECK);
    fputs("\n"
          "verdicts: ok, violation (an outcome the model forbids), deadlock, invariant,\n"
          "unexpected (an event the tables do not handle), incomplete (a limit was hit),\n"
          "livelock (--liveness: a state from which the test can never finish),\n"
          "starvation (--liveness: a thread waits forever on a fair cycle);\n"
          "skipped: the test uses an instruction the protocol has no core map for.\n"
          "reductions: the partial-order and symmetry reductions are on by default where the\n"
          "analysis proves them sound (--no-por, --no-symmetry: off); --json's \"reductions\"\n"
          "says which applied and why not.\n"
          "exit: 0 all ok, 1 a check failed, 2 bad input, 3 a limit stopped the search\n",
          f);
}

/* The store's size on disk: the database and its write-ahead log. */
static uint64_t store_bytes(const char *path)
{
    uint64_t n = 0;
    struct stat st;
    char wal[PATH_MAX + 8];
    if (stat(path, &st) == 0)
        n += (uint64_t)st.st_size;
    snprintf(wal, sizeof wal, "%s-wal", path);
    if (stat(wal, &st) == 0)
        n += (uint64_t)st.st_size;
    return n;
}

/* The store keeps every visited state of every run: warn once, when this run takes it
 * past CLI_STORE_WARN (64 MiB; COHCHECK_STORE_WARN=SIZE overrides), and name --no-db. */
#define CLI_STORE_WARN (64ULL << 20)
static void store_size_warn(const char *path, uint64_t before)
{
    uint64_t limit = CLI_STORE_WARN;
    const char *env = getenv("COHCHECK_STORE_WARN");
    if (env && *env && cli_parse_size(env, &limit))
        limit = CLI_STORE_WARN;
    uint64_t after = store_bytes(path);
    if (before <= limit && after > limit)
        cli_error("warning: the store %s is now %.3g MiB (over %.3g MiB): every visited state of "
                  "every run is kept; use --no-db for runs you will not resume, trace or diff, "
                  "or remove old runs' files",
                  path, (double)after / 1048576.0, (double)limit / 1048576.0);
}

int cli_parse_env(const char *s, sys_config_t *cfg)
{
    unsigned m = 0;
    cfg->env_all = false;
    cfg->nenv_names = 0;
    char *dup = xstrdup(s), *save = NULL;
    for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        if (!strcmp(t, "fetch"))
            m |= SYS_ENV_FETCH;
        else if (!strcmp(t, "evict"))
            m |= SYS_ENV_EVICT;
        else if (!strcmp(t, "writeback"))
            m |= SYS_ENV_WRITEBACK;
        else if (!strcmp(t, "all"))
            cfg->env_all = true;
        else if (strcmp(t, "none")) {
            /* another environment event of the protocol, by name (sys_new checks it) */
            bool ident = strlen(t) < sizeof cfg->env_names[0] && cfg->nenv_names < 8 &&
                         (isalpha((unsigned char)t[0]) || t[0] == '_');
            for (const char *q = t; ident && *q; q++)
                ident = isalnum((unsigned char)*q) || *q == '_';
            if (!ident) {
                free(dup);
                return -1;
            }
            snprintf(cfg->env_names[cfg->nenv_names++], sizeof cfg->env_names[0], "%s", t);
        }
    }
    free(dup);
    cfg->env = m;
    return 0;
}

/* The explorer's progress hook: one search's states, speed, queue and memory on the
 * shared progress line. */
typedef struct {
    double t0;
    cli_progress_t *pr;
    const char *test;
} search_progress_t;

static void progress(void *ctx, uint64_t states, uint64_t queued, uint64_t bytes, uint64_t spilled)
{
    search_progress_t *sp = ctx;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double el = (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 - sp->t0;
    char spill[64] = "";
    if (spilled)
        snprintf(spill, sizeof spill, ", %.1f MiB spilled", (double)spilled / 1048576.0);
    cli_progress(sp->pr, -1, 0, "%s: %llu states, %.0f states/s, queue %llu, %.1f MiB%s", sp->test,
                 (unsigned long long)states, el > 0 ? (double)states / el : 0.0,
                 (unsigned long long)queued, (double)bytes / 1048576.0, spill);
}

/* SIGINT stops the search cleanly: the run is recorded as stopped and can be resumed. */
static volatile int stop_flag;
static void on_sigint(int sig)
{
    (void)sig;
    stop_flag = 1;
}

void cli_store_hook(void *ctx, uint32_t id, int64_t parent, int depth, const sys_label_t *label,
                    uint32_t ord, uint64_t fp, const uint8_t *state, size_t len)
{
    const cli_store_ctx_t *c = ctx;
    uint8_t blob[sizeof *label + 4];
    memcpy(blob, label, sizeof *label);
    memcpy(blob + sizeof *label, &ord, 4);
    store_state(c->db, c->run, id, parent, depth, blob, sizeof blob, fp, state, len);
}

void cli_label_read(const void *blob, size_t len, sys_label_t *label, uint32_t *ord)
{
    memset(label, 0, sizeof *label);
    memcpy(label, blob, len < sizeof *label ? len : sizeof *label);
    *ord = UINT32_MAX;
    if (len >= sizeof *label + 4)
        memcpy(ord, (const uint8_t *)blob + sizeof *label, 4);
}

/* The configuration as JSON, for the store (resume rebuilds the system from it). */
static void config_json(const check_t *c, strbuf_t *b)
{
    sb_printf(b,
              "{\"lines\":%d,\"cus\":%d,\"init\":\"%s\",\"env\":%u,\"dfs\":%s,\"unroll\":%d,"
              "\"chan\":%d,\"time_raw\":%d,\"enc\":%d,\"env_all\":%d,\"env_names\":\"",
              c->cfg.lines, c->cfg.cus, c->cfg.warm ? "warm" : "cold", c->cfg.env,
              c->eo.dfs ? "true" : "false", c->unroll, c->cfg.chan_capacity, c->cfg.time_raw,
              SYS_ENCODING_VERSION, c->cfg.env_all);
    for (int k = 0; k < c->cfg.nenv_names; k++)
        sb_printf(b, "%s%s", k ? "," : "", c->cfg.env_names[k]); /* identifiers: no escaping */
    sb_puts(b, "\",\"params\":");
    sb_json_str(b, c->params ? c->params : "");
    /* --liveness explores the full graph: its states are those of a --no-por run */
    sb_printf(b, ",\"por\":%s", c->eo.por && !c->eo.liveness ? "true" : "false");
    /* the states a resumed or traced run rebuilds are canonical under this symmetry */
    if (c->eo.symmetry && !c->eo.liveness && !c->mpi)
        sb_puts(b, ",\"symmetry\":true");
    if (c->eo.liveness) /* identifiers: no escaping */
        sb_printf(b, ",\"liveness\":true,\"fairness\":%d,\"env_fair\":\"%s\"", c->eo.fairness,
                  c->env_fair ? c->env_fair : "");
    sb_putc(b, '}');
}

/* Record the end of a run: outcomes, counts, verdict, trace. */
int cli_store_finish(store_t *db, int64_t run, const explore_result_t *r, const exec_layout_t *lay,
                     const exec_model_result_t *mr, double secs)
{
    if (!db)
        return CLI_OK;
    for (size_t i = 0; i < r->reached.n; i++) {
        const prog_val_t *v = exec_outcome(&r->reached, i);
        strbuf_t o;
        sb_init(&o);
        exec_outcome_json(&o, lay, v);
        store_outcome(db, run, o.s, mr->racy || exec_outcomes_has(&mr->allowed, v));
        sb_free(&o);
    }
    strbuf_t t;
    sb_init(&t);
    sb_putc(&t, '[');
    for (int i = 0; i < r->ntrace; i++) {
        if (i)
            sb_putc(&t, ',');
        sb_json_str(&t, r->trace[i]);
    }
    sb_putc(&t, ']');
    strbuf_t lasso;
    sb_init(&lasso);
    for (int i = 0; r->lasso && i < (r->lasso_cycle ? r->lasso_cycle : 1); i++)
        sb_printf(&lasso, "%s%u", i ? "," : "", r->lasso[i]);
    store_run_end_t e = {r->verdict == EXPLORE_INCOMPLETE ? "stopped" : "done",
                         r->states,
                         r->transitions,
                         r->expanded,
                         r->max_depth,
                         explore_verdict_names[r->verdict],
                         r->msg,
                         t.s,
                         secs,
                         r->failure_id >= 0,
                         r->failure_id,
                         lasso.s};
    diag_t d;
    int rc = CLI_OK;
    if (store_run_end(db, run, &e, &d)) {
        cli_report(&d);
        rc = CLI_LIMIT; /* the verdict stands, but the store did not record it */
    }
    sb_free(&t);
    sb_free(&lasso);
    return rc;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A JUnit failure's body: the forbidden outcome (a violation), then the trace: all of
 * it up to 20 steps, else its first and last three steps. */
static void junit_body(strbuf_t *body, const explore_result_t *r, const exec_model_result_t *mr,
                       const exec_layout_t *lay, bool racy)
{
    for (size_t i = 0; i < r->reached.n && !racy && r->verdict == EXPLORE_VIOLATION; i++) {
        const prog_val_t *v = exec_outcome(&r->reached, i);
        if (exec_outcomes_has(&mr->allowed, v))
            continue;
        sb_puts(body, "forbidden outcome:");
        for (int k = 0; k < lay->nkeys; k++)
            sb_printf(body, " %s=%lld;", lay->names[k], (long long)v[k]);
        sb_putc(body, '\n');
        break;
    }
    if (r->ntrace > 0)
        sb_printf(body, "trace (%d steps):\n", r->ntrace);
    for (int i = 0; i < r->ntrace; i++) {
        if (r->ntrace > 20 && i == 3) {
            sb_printf(body, "     ... (%d more steps: cohcheck trace RUN)\n", r->ntrace - 6);
            i = r->ntrace - 4;
            continue;
        }
        sb_printf(body, "%3d  %s\n", i + 1, r->trace[i]);
    }
}

/* "reductions": each state-space reduction cohcheck has, whether it applied to this
   run and, when it did not, why (docs/por.md, "Reporting"). The reset of values no
   step reads runs with the partial-order reduction, except on protocols with declared
   invariants (sys_set_dead leaves them whole). */
static void reductions_json(strbuf_t *b, const explore_result_t *r, const proto_t *p)
{
    const char *why = r->por_off[0] ? r->por_off : "not asked for (--no-por)";
    sb_puts(b, ",\"reductions\":[{\"name\":\"por\",\"applied\":");
    if (r->por)
        sb_puts(b, "true}");
    else {
        sb_puts(b, "false,\"why\":");
        sb_json_str(b, why);
        sb_putc(b, '}');
    }
    sb_puts(b, ",{\"name\":\"dead_values\",\"applied\":");
    if (r->por && !p->ninvs)
        sb_puts(b, "true}");
    else {
        sb_puts(b, "false,\"why\":");
        sb_json_str(b, r->por          ? "the protocol declares invariants"
                       : r->por_off[0] ? "the partial-order reduction is off"
                                       : why);
        sb_putc(b, '}');
    }
    /* symmetry: the classes of interchangeable CUs, or why none */
    sb_printf(b, ",{\"name\":\"symmetry\",\"applied\":%s,\"%s\":", r->symmetry ? "true" : "false",
              r->symmetry ? "classes" : "why");
    sb_json_str(b, r->sym_note[0] ? r->sym_note : "not asked for (--no-symmetry)");
    /* field_destinations: the stubborn sets' bound on destinations carried in message
       fields (docs/por.md, "Destinations carried in message fields") */
    sb_puts(b, "},{\"name\":\"field_destinations\",\"applied\":");
    if (r->por_fields)
        sb_puts(b, "true}");
    else {
        sb_puts(b, "false,\"why\":");
        sb_json_str(b, r->por          ? r->pf_why
                       : r->por_off[0] ? "the partial-order reduction is off"
                                       : why);
        sb_putc(b, '}');
    }
    sb_puts(b, "]");
}

/* --mpi's communication, the "mpi" object of --json. */
static void mpi_json(strbuf_t *b, const explore_mpi_stats_t *m, const explore_result_t *r)
{
    sb_printf(b,
              ",\"mpi\":{\"ranks\":%d,\"levels\":%d,\"messages\":%llu,\"bytes_sent\":%llu,"
              "\"successors_sent\":%llu,\"successors_skipped\":%llu,\"control_bytes\":%llu,"
              "\"bytes_per_state\":%.2f}",
              m->ranks, m->levels, (unsigned long long)m->messages,
              (unsigned long long)m->bytes_sent, (unsigned long long)m->successors,
              (unsigned long long)m->skipped, (unsigned long long)m->control_bytes,
              r->states ? (double)(m->bytes_sent + m->control_bytes) / (double)r->states : 0.0);
}

/* One --json line for a checked test. */
static void result_json(const check_t *c, const job_t *job, const prog_t *p,
                        const exec_layout_t *lay, bool racy, const exec_model_result_t *mr,
                        const explore_result_t *r, double secs, strbuf_t *b)
{
    const char *model = cat_model_name(c->model);
    sb_puts(b, "{\"protocol\":");
    sb_json_str(b, c->proto->name);
    sb_puts(b, ",\"test\":");
    sb_json_str(b, p->name);
    sb_puts(b, ",\"model\":");
    sb_json_str(b, model);
    sb_printf(b, ",\"states\":%llu,\"transitions\":%llu,\"outcomes\":[",
              (unsigned long long)r->states, (unsigned long long)r->transitions);
    for (size_t i = 0; i < r->reached.n; i++) {
        if (i)
            sb_putc(b, ',');
        exec_outcome_json(b, lay, exec_outcome(&r->reached, i));
    }
    size_t unreached = 0;
    for (size_t i = 0; i < mr->allowed.n; i++)
        unreached += !exec_outcomes_has(&r->reached, exec_outcome(&mr->allowed, i));
    sb_printf(b, "],\"allowed_unreached\":%zu,\"racy\":%s,\"verdict\":\"%s\"", racy ? 0 : unreached,
              racy ? "true" : "false", explore_verdict_names[r->verdict]);
    if (r->verdict != EXPLORE_OK) {
        sb_puts(b, ",\"message\":");
        sb_json_str(b, r->msg);
        sb_puts(b, ",\"trace\":[");
        for (int i = 0; i < r->ntrace; i++) {
            if (i)
                sb_putc(b, ',');
            sb_json_str(b, r->trace[i]);
        }
        sb_putc(b, ']');
        if (c->trace && r->failure_state) {
            sb_puts(b, ",\"failure_state\":");
            sb_json_str(b, r->failure_state);
        }
    }
    sb_printf(b, ",\"depth\":%d,\"bytes\":%llu,\"omission\":%.3g,\"time_s\":%.6f", r->max_depth,
              (unsigned long long)r->bytes, r->omission, secs);
    sb_printf(b, ",\"spilled_bytes\":%llu,\"fingerprint\":%d", (unsigned long long)r->spilled,
              r->fp_bits);
    sb_printf(b, ",\"threads\":%d", c->eo.threads > 1 ? c->eo.threads : 1);
    sb_printf(b, ",\"por\":%s", r->por ? "true" : "false");
    if (r->por)
        sb_printf(b, ",\"por_reduced\":%llu,\"por_full\":%llu", (unsigned long long)r->por_reduced,
                  (unsigned long long)r->por_full);
    else if (r->por_off[0]) {
        sb_puts(b, ",\"por_off\":");
        sb_json_str(b, r->por_off);
    }
    reductions_json(b, r, c->proto);
    if (job->run >= 0)
        sb_printf(b, ",\"run\":%lld", (long long)job->run);
    if (c->eo.liveness)
        cli_liveness_json(b, r, c->eo.fairness);
    if (job->mpi)
        mpi_json(b, job->mpi, r);
    sb_puts(b, "}\n");
}

/* The text lines for a checked test: verdict, store run, trace, outcomes. */
static void result_text(const check_t *c, const job_t *job, const prog_t *p,
                        const exec_layout_t *lay, bool racy, const exec_model_result_t *mr,
                        const explore_result_t *r, double secs, strbuf_t *b)
{
    const char *model = cat_model_name(c->model);
    sb_printf(b, "%s %s %s: %s%s (%llu states, %llu transitions, depth %d, %.3f s)\n",
              c->proto->name, p->name, model, explore_verdict_names[r->verdict],
              racy ? " [racy: outcomes unconstrained]" : "", (unsigned long long)r->states,
              (unsigned long long)r->transitions, r->max_depth, secs);
    if (job->run >= 0)
        sb_printf(b, "  run %lld in the store (cohcheck show %lld; trace, diff, resume)\n",
                  (long long)job->run, (long long)job->run);
    if (job->mpi)
        sb_printf(b, "  mpi: %d ranks, %d levels, %llu messages, %llu bytes sent\n",
                  job->mpi->ranks, job->mpi->levels, (unsigned long long)job->mpi->messages,
                  (unsigned long long)(job->mpi->bytes_sent + job->mpi->control_bytes));
    if (r->verdict != EXPLORE_OK) {
        sb_printf(b, "  %s\n", r->msg);
        for (int i = 0; i < r->ntrace; i++)
            sb_printf(b, "  %3d  %s\n", i + 1, r->trace[i]);
        if (c->trace && r->failure_state) {
            sb_puts(b, "  state at the failure:\n");
            for (const char *q = r->failure_state; *q;) {
                const char *nl = strchr(q, '\n');
                size_t n = nl ? (size_t)(nl - q) : strlen(q);
                sb_printf(b, "    %.*s\n", (int)n, q);
                q += n + (nl != NULL);
            }
        }
    }
    if (r->verdict == EXPLORE_VIOLATION || r->verdict == EXPLORE_OK) {
        for (size_t i = 0; i < r->reached.n && !racy; i++) {
            const prog_val_t *v = exec_outcome(&r->reached, i);
            if (exec_outcomes_has(&mr->allowed, v))
                continue;
            sb_puts(b, "  forbidden outcome reached:");
            for (int k = 0; k < lay->nkeys; k++)
                sb_printf(b, " %s=%lld;", lay->names[k], (long long)v[k]);
            sb_putc(b, '\n');
        }
        size_t unreached = 0;
        for (size_t i = 0; i < mr->allowed.n; i++)
            unreached += !exec_outcomes_has(&r->reached, exec_outcome(&mr->allowed, i));
        if (unreached && !racy && r->verdict == EXPLORE_OK)
            sb_printf(b,
                      "  %zu allowed outcome(s) never reached: the protocol is stronger than "
                      "%s here\n",
                      unreached, model);
    }
}

/* --junit and --annotate: one test case per test x model x protocol. */
static void result_junit(const check_t *c, const job_t *job, const prog_t *p,
                         const exec_layout_t *lay, bool racy, const exec_model_result_t *mr,
                         const explore_result_t *r, double secs, strbuf_t *b)
{
    const char *model = cat_model_name(c->model);
    char tname[512];
    snprintf(tname, sizeof tname, "%s [%s]", p->name, model);
    if (r->verdict == EXPLORE_OK) {
        cli_junit_case(c->junit, c->proto->name, tname, secs, NULL, NULL, NULL, NULL);
    } else {
        strbuf_t body;
        sb_init(&body);
        junit_body(&body, r, mr, lay, racy);
        const char *vn = explore_verdict_names[r->verdict];
        cli_junit_case(c->junit, c->proto->name, tname, secs,
                       r->verdict == EXPLORE_INCOMPLETE ? "error" : "failure", vn, r->msg, body.s);
        if (c->annotate) {
            char title[256], msg[640];
            snprintf(title, sizeof title, "%s %s under %s: %s", c->proto->name, p->name, model, vn);
            snprintf(msg, sizeof msg, "%s (%d steps; cohcheck check --protocol %s %s)", r->msg,
                     r->ntrace, c->proto->name, p->file);
            cli_annotate(b, r->verdict == EXPLORE_INCOMPLETE ? "warning" : "error", p->file, 1,
                         title, msg);
        }
        sb_free(&body);
    }
}

static void print_result(check_t *c, job_t *job, const prog_t *p, const exec_layout_t *lay,
                         bool racy, const exec_model_result_t *mr, const explore_result_t *r,
                         double secs)
{
    strbuf_t b;
    sb_init(&b);
    if (c->json)
        result_json(c, job, p, lay, racy, mr, r, secs, &b);
    else
        result_text(c, job, p, lay, racy, mr, r, secs, &b);
    result_junit(c, job, p, lay, racy, mr, r, secs, &b);
    sb_puts(&job->out, b.s);
    sb_free(&b);
}

/* A kernel's spec (register-indexed addresses: the model evaluator cannot
 * enumerate its executions): its own final check. An outcome is allowed when
 * a forall condition holds, when a ~exists proposition does not, and always
 * for exists (an observation). */
typedef struct {
    const prog_t *p;
    exec_layout_t lay;
} kernel_spec_t;

static bool kernel_allows(const void *ctx, const prog_val_t *v)
{
    const kernel_spec_t *k = ctx;
    if (k->p->quant == PROG_EXISTS)
        return true;
    bool e = exec_outcome_sat(k->p, &k->lay, v);
    return k->p->quant == PROG_FORALL ? e : !e;
}

/* The model's allowed outcomes of P into MR, or for a kernel the predicate of
 * its final check (K holds its context). -1 with D when P is too large. */
static int allowed_outcomes(check_t *c, const prog_t *p, kernel_spec_t *k, exec_model_result_t *mr,
                            diag_t *d)
{
    exec_opts_t xo = {.unroll = c->unroll};
    exec_stats_t xs;
    k->p = NULL;
    /* The model evaluator sees neither register-indexed addresses, joins nor divisions. */
    if (!prog_has_indexed(p) && !prog_has_join(p) && !prog_has_div(p))
        return exec_eval(p, &c->model, 1, &xo, mr, &xs, d);
    memset(mr, 0, sizeof *mr);
    k->p = p;
    exec_layout_init(&k->lay, p);
    exec_outcomes_init(&mr->allowed, k->lay.nkeys);
    mr->allowed.pred = kernel_allows;
    mr->allowed.pred_ctx = k;
    return 0;
}

/* The protocol does not support an instruction of P (D says which): say so in
 * the job's output and --junit. */
static void report_skipped(check_t *c, job_t *job, const prog_t *p, const diag_t *d)
{
    char where[DIAG_FILE_MAX + DIAG_MSG_MAX + 64];
    diag_format(d, where, sizeof where);
    if (c->json) {
        strbuf_t b;
        sb_init(&b);
        sb_puts(&b, "{\"protocol\":");
        sb_json_str(&b, c->proto->name);
        sb_puts(&b, ",\"test\":");
        sb_json_str(&b, p->name);
        sb_puts(&b, ",\"model\":");
        sb_json_str(&b, cat_model_name(c->model));
        sb_puts(&b, ",\"verdict\":\"skipped\",\"message\":");
        sb_json_str(&b, where);
        sb_puts(&b, "}\n");
        sb_puts(&job->out, b.s);
        sb_free(&b);
    } else {
        sb_printf(&job->out, "%s %s %s: skipped (%s)\n", c->proto->name, p->name,
                  cat_model_name(c->model), where);
    }
    char tname[512];
    snprintf(tname, sizeof tname, "%s [%s]", p->name, cat_model_name(c->model));
    cli_junit_case(c->junit, c->proto->name, tname, 0, "skipped", "unsupported", where, NULL);
}

/* With the store: begin the job's run and hook the search's new states into it.
 * Returns 0, or -1 after an error line. */
static int begin_run(check_t *c, job_t *job, const prog_t *p, explore_opts_t *eo)
{
    diag_t d;
    strbuf_t cfg;
    sb_init(&cfg);
    config_json(c, &cfg);
    store_run_info_t info = {
        c->command, c->proto->name, c->proto->file, c->proto->source, c->proto->source_len,
        p->name,    p->file,        p->source,      p->source_len,    cat_model_name(c->model),
        cfg.s};
    pthread_mutex_lock(&c->lock);
    int brc = store_run_begin(c->db, &info, &job->run, &d);
    pthread_mutex_unlock(&c->lock);
    sb_free(&cfg);
    if (brc) {
        cli_report(&d);
        return -1;
    }
    job->hook.db = c->db;
    job->hook.run = job->run;
    eo->on_new = cli_store_hook;
    eo->on_new_ctx = &job->hook;
    return 0;
}

static int check_file(job_t *job)
{
    check_t *c = job->c;
    const char *path = job->path;
    diag_t d;
    prog_t *p;
    if (cli_load_test(path, c->proto, &c->sp, &p, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    int rc = CLI_OK;
    exec_model_result_t mr;
    kernel_spec_t kspec;
    sys_t *s = NULL;
    if (allowed_outcomes(c, p, &kspec, &mr, &d)) {
        cli_report(&d);
        prog_free(p);
        return CLI_BAD_INPUT;
    }
    int src = sys_new(c->proto, p, &c->cfg, &s, &d);
    if (src == -2) {
        /* The protocol does not support an instruction of this test: say so, skip it. */
        report_skipped(c, job, p, &d);
        job->skipped = true;
        goto out;
    }
    if (src) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
        goto out;
    }
    exec_layout_t lay;
    exec_layout_init(&lay, p);
    explore_opts_t eo = c->eo;
    eo.allowed = mr.racy ? NULL : &mr.allowed;
    eo.stop = &stop_flag;
    job->run = -1;
    if (c->db && begin_run(c, job, p, &eo)) {
        rc = CLI_BAD_INPUT;
        exec_layout_free(&lay);
        goto out;
    }
    double t0 = now_s();
    search_progress_t spr = {t0, c->pr, p->name};
    eo.progress_ctx = &spr;
    eo.progress = c->progress ? progress : NULL;
    explore_result_t r;
    explore_mpi_stats_t ms;
    job->mpi = c->mpi ? &ms : NULL;
    if (c->mpi ? explore_mpi_run(s, lay.nkeys, &eo, &r, &ms, &d)
               : explore_run(s, lay.nkeys, &eo, &r, &d)) {
        cli_report(&d);
        rc = CLI_BAD_INPUT;
        exec_layout_free(&lay);
        goto out;
    }
    if (c->progress)
        cli_progress_clear(c->pr);
    double secs = now_s() - t0;
    pthread_mutex_lock(&c->lock);
    int rec = cli_store_finish(c->db, job->run, &r, &lay, &mr, secs);
    pthread_mutex_unlock(&c->lock);
    if (c->rank == 0) /* --mpi: rank 0 prints */
        print_result(c, job, p, &lay, mr.racy, &mr, &r, secs);
    rc = r.verdict == EXPLORE_OK ? CLI_OK : r.verdict == EXPLORE_INCOMPLETE ? CLI_LIMIT : CLI_FAIL;
    if (rec != CLI_OK)
        rc = rec; /* not recorded: never an "ok" exit */
    explore_result_free(&r);
    exec_layout_free(&lay);
out:
    sys_free(s);
    exec_result_free(&mr);
    if (kspec.p)
        exec_layout_free(&kspec.lay);
    prog_free(p);
    return rc;
}

static int worst(int a, int b)
{
    static const int rank[] = {0, 1, 3, 2};
    return rank[a] >= rank[b] ? a : b;
}

typedef struct {
    check_t *c;
    job_t *jobs;
    int njobs, next;
} pool_t;

/* A -j worker: take the next test, check it, mark it done. */
static void *worker(void *arg)
{
    pool_t *pl = arg;
    check_t *c = pl->c;
    for (;;) {
        pthread_mutex_lock(&c->lock);
        int i = pl->next < pl->njobs ? pl->next++ : -1;
        pthread_mutex_unlock(&c->lock);
        if (i < 0)
            return NULL;
        job_t *j = &pl->jobs[i];
        j->rc = check_file(j);
        pthread_mutex_lock(&c->lock);
        j->done = true;
        pthread_cond_broadcast(&c->cond);
        pthread_mutex_unlock(&c->lock);
    }
}

/* Count job J's result into T. */
static void tally_job(cli_tally_t *t, const job_t *j)
{
    t->tests++;
    if (j->rc == CLI_BAD_INPUT)
        t->unreadable++;
    else if (j->rc == CLI_FAIL)
        t->failed++;
    else if (j->rc == CLI_LIMIT)
        t->incomplete++;
    else if (j->skipped)
        t->skipped++;
    else
        t->ok++;
}

/* Check FILES with c->jobs workers; print results in file order as they finish, and
 * count them into *T. A bad file gets its error line and the others still run. */
static int run_all(check_t *c, char **files, int nfiles, cli_tally_t *t)
{
    job_t *jobs = xcalloc((size_t)nfiles + 1, sizeof *jobs);
    for (int i = 0; i < nfiles; i++) {
        jobs[i].c = c;
        jobs[i].path = files[i];
        sb_init(&jobs[i].out);
    }
    pool_t pl = {c, jobs, nfiles, 0};
    int nw = c->jobs < nfiles ? c->jobs : nfiles;
    pthread_t tid[64];
    int started = 0;
    for (int k = 1; k < nw; k++)
        if (pthread_create(&tid[started], NULL, worker, &pl) == 0)
            started++;
    int rc = CLI_OK;
    for (int i = 0; i < nfiles; i++) {
        /* The main thread works too, in order, while the others run ahead. */
        pthread_mutex_lock(&c->lock);
        if (!jobs[i].done && pl.next <= i) {
            pl.next = i + 1 > pl.next ? i + 1 : pl.next;
            pthread_mutex_unlock(&c->lock);
            jobs[i].rc = check_file(&jobs[i]);
            pthread_mutex_lock(&c->lock);
            jobs[i].done = true;
        }
        while (!jobs[i].done)
            pthread_cond_wait(&c->cond, &c->lock);
        pthread_mutex_unlock(&c->lock);
        cli_progress_clear(c->pr);
        fputs(jobs[i].out.s, stdout);
        fflush(stdout);
        if (c->jobs > 1)
            cli_progress(c->pr, i + 1, nfiles, "%d at once", c->jobs);
        rc = worst(rc, jobs[i].rc);
        tally_job(t, &jobs[i]);
        sb_free(&jobs[i].out);
    }
    for (int k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
    free(jobs);
    return rc;
}

static int load_protocol(const char *arg, const char *argv0, bool timed, proto_t **out, diag_t *err)
{
    char path[PATH_MAX + 400];
    if (cli_find_data(arg, "protocols", ".proto", "COHCHECK_PROTOCOLS", argv0, path, sizeof path)) {
        diag_set(err, "", 0, 0,
                 "unknown protocol '%s' (a name in ./protocols or $COHCHECK_PROTOCOLS, or a .proto "
                 "file)",
                 arg);
        return -1;
    }
    /* a variant's base: beside it, else a shipped protocol (a user's variant of one) */
    cli_dirs_t lib;
    cli_data_dirs("protocols", "COHCHECK_PROTOCOLS", argv0, &lib);
    return timed ? proto_load_timed(path, lib.dirs, out, err)
                 : proto_load_lib(path, lib.dirs, out, err);
}

int cli_load_protocol(const char *arg, const char *argv0, proto_t **out, diag_t *err)
{
    return load_protocol(arg, argv0, false, out, err);
}

int cli_load_protocol_timed(const char *arg, const char *argv0, proto_t **out, diag_t *err)
{
    return load_protocol(arg, argv0, true, out, err);
}

/* Long options with no short letter (issue 11: memory beyond RAM). */

void cli_liveness_json(strbuf_t *b, const explore_result_t *r, int fairness)
{
    static const char *const fair[] = {"none", "weak", "strong"};
    sb_printf(b, ",\"liveness\":%s,\"fairness\":\"%s\"",
              r->liveness ? "\"checked\"" : "\"not checked\"",
              fair[fairness >= 0 && fairness <= 2 ? fairness : 0]);
    if (!r->liveness)
        return;
    sb_printf(b, ",\"stuck_states\":%llu", (unsigned long long)r->live_stuck);
    if (r->verdict == EXPLORE_STARVATION)
        sb_printf(b, ",\"starved_thread\":%d", r->starved);
    if (r->verdict != EXPLORE_LIVELOCK && r->verdict != EXPLORE_STARVATION)
        return;
    sb_printf(b, ",\"lasso\":{\"prefix\":%d,\"cycle\":%d,\"ids\":[", r->lasso_prefix,
              r->lasso_cycle);
    for (int i = 0; i < (r->lasso_cycle ? r->lasso_cycle : 1); i++)
        sb_printf(b, "%s%u", i ? "," : "", r->lasso[i]);
    sb_printf(b, "]},\"env_only\":%s,\"breaking_env\":", r->live_env_only ? "true" : "false");
    sb_json_str(b, r->live_breaks);
}

int cli_check_env_fair(const proto_t *p, const char *const *names, int n, diag_t *err)
{
    for (int k = 0; k < n; k++) {
        bool found = false;
        for (int ev = 0; ev < p->nevents && !found; ev++)
            found = p->events[ev].kind == PROTO_EV_ENV && !strcmp(p->events[ev].name, names[k]);
        if (!found) {
            diag_set(err, p->file, 0, 0, "protocol %s has no environment event '%s' (--env-fair)",
                     p->name, names[k]);
            return -1;
        }
    }
    return 0;
}

int cli_parse_env_fair(char *list, const char **names, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        bool ident = n < max && (isalpha((unsigned char)t[0]) || t[0] == '_');
        for (const char *q = t; ident && *q; q++)
            ident = isalnum((unsigned char)*q) || *q == '_';
        if (!ident)
            return -1;
        names[n++] = t;
    }
    return n;
}

/* What check's options say beyond the check_t they fill. */
typedef struct {
    const char *proto_arg, *model_arg, *db_path, *junit_path;
    bool no_db, db_given;
    uint64_t store_before; /* the store's size before this run (store_size_warn) */
    const char *params[64];
    int nparams;
    int fairness; /* --fairness; -1: not given (weak with --liveness) */
} check_args_t;

/* The options into C and A. CLI_OK, CLI_BAD_INPUT (reported), or -1 after --help. */
static int check_parse(int argc, char **argv, check_t *c, check_args_t *a)
{
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_CHECK);
    int ch;
    while ((ch = cli_getopt(&g, argc, argv)) != -1) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'p': a->proto_arg = optarg; break;
        case 'm': a->model_arg = optarg; break;
        case 'c': c->cfg.cus = (int)g.num; break;
        case 'i': c->cfg.warm = !strcmp(optarg, "warm"); break;
        case 'e':
            if (cli_parse_env(optarg, &c->cfg)) {
                cli_error(
                    "--env takes a comma-separated list of fetch, evict, writeback, all or other "
                    "environment events of the protocol; not '%s'",
                    optarg);
                return CLI_BAD_INPUT;
            }
            break;
        case 'P':
            if (cli_param_opt(NULL, optarg, a->params, &a->nparams))
                return CLI_BAD_INPUT;
            break;
        case 'S': c->eo.max_states = (uint64_t)g.num; break;
        case 'M': c->eo.max_memory = g.size; break;
        case 'X': c->eo.max_depth = (int)g.num; break;
        case 'T': c->cfg.time_raw = !strcmp(optarg, "raw"); break;
        case 'b': c->eo.dfs = false; break;
        case 'd': c->eo.dfs = true; break;
        case CLI_OPT_POR:
        case CLI_OPT_NO_POR: cli_por_opt(ch, &c->eo.por); break;
        case CLI_OPT_SYM: c->eo.symmetry = true; break;
        case CLI_OPT_NO_SYM: c->eo.symmetry = false; break;
        case 'u': c->unroll = (int)g.num; break;
        case 'D':
            a->db_path = optarg;
            a->db_given = true;
            break;
        case 'j': c->jobs = (int)g.num; break;
        case 'l': c->cfg.lines = (int)g.num; break;
        case 'N': a->no_db = true; break;
        case 't': c->trace = true; break;
        case 'J': c->json = true; break;
        case 'U': a->junit_path = optarg; break;
        case 'A': c->annotate = true; break;
        case 'I': c->mpi = true; break;
        case 'R': c->eo.threads = (int)g.num; break;
        case 'h': usage(stdout); return -1;
        case CLI_O_QUEUE_MEMORY: c->eo.queue_memory = g.size; break;
        case CLI_O_MAX_TIME: c->eo.max_time = (double)g.num; break;
        case 'L': c->eo.liveness = true; break;
        case CLI_O_FAIRNESS:
            a->fairness = !strcmp(optarg, "weak") ? 1 : !strcmp(optarg, "strong") ? 2 : 0;
            break;
        case CLI_O_ENV_FAIR: {
            free(c->env_fair);
            c->env_fair = xstrdup(optarg);
            char *dup = xstrdup(optarg);
            int n = cli_parse_env_fair(dup, c->fair, 8);
            if (n <= 0) {
                free(dup);
                cli_error("--env-fair takes a comma-separated list of at most 8 environment "
                          "event names, not '%s'",
                          optarg);
                return CLI_BAD_INPUT;
            }
            c->fair_buf = dup;
            c->eo.fair_env = c->fair;
            c->eo.nfair_env = n;
            break;
        }
        case CLI_O_FINGERPRINT: c->eo.fp_bits = atoi(optarg); break;
        }
    }
    return CLI_OK;
}

/* --mpi: start MPI, silence the ranks but 0, and refuse what a distributed search cannot
 * do. CLI_OK or CLI_BAD_INPUT (reported). */
static int check_mpi(check_t *c, check_args_t *a)
{
    diag_t d;
    if (!c->mpi)
        return CLI_OK;
    int rc = CLI_OK;
    /* Every rank runs this command; only rank 0 speaks, before any other check. */
    if (explore_mpi_init(&c->rank, &c->ranks, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (c->rank != 0 && (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr)))
        rc = CLI_BAD_INPUT;
    if (c->rank != 0)
        a->junit_path = NULL;
    /* The store would need every rank's states for resume and trace: it is off. */
    if (c->jobs != 1)
        cli_error("check: -j with --mpi: the ranks explore one test at a time together "
                  "(use mpirun -np N for more processes)");
    else if (c->eo.dfs)
        cli_error("check: --dfs with --mpi: the distributed search is breadth-first");
    else if (a->db_given)
        cli_error("check: --db with --mpi: the states are spread over the ranks, so the "
                  "store could not resume or trace the run; use --no-db or drop --mpi");
    else if (c->eo.threads > 1)
        cli_error("check: --threads with --mpi: each rank explores with one thread (use "
                  "more ranks)");
    else if ((c->eo.fp_bits && c->eo.fp_bits != 64) || c->eo.queue_memory)
        cli_error("check: --fingerprint 96|128 and --queue-memory are not supported with "
                  "--mpi: the ranks key states by 64-bit fingerprints and keep their "
                  "levels in RAM (more ranks give more memory)");
    if (c->jobs != 1 || c->eo.dfs || a->db_given || c->eo.threads > 1 ||
        (c->eo.fp_bits && c->eo.fp_bits != 64) || c->eo.queue_memory || rc)
        return CLI_BAD_INPUT;
    a->no_db = true;
    return CLI_OK;
}

/* The settings that only go together in some ways. CLI_OK or CLI_BAD_INPUT (reported). */
static int check_combinations(check_t *c, check_args_t *a)
{
    /* An environment event assumed to happen is enabled too: one setting is the remedy. */
    for (int k = 0; k < c->eo.nfair_env; k++) {
        const char *f = c->eo.fair_env[k];
        bool on = false;
        for (int i = 0; i < c->cfg.nenv_names; i++)
            on |= !strcmp(c->cfg.env_names[i], f);
        if (!strcmp(f, "fetch"))
            c->cfg.env |= SYS_ENV_FETCH;
        else if (!strcmp(f, "evict"))
            c->cfg.env |= SYS_ENV_EVICT;
        else if (!strcmp(f, "writeback"))
            c->cfg.env |= SYS_ENV_WRITEBACK;
        else if (!on && c->cfg.nenv_names < 8 && strlen(f) < sizeof c->cfg.env_names[0])
            snprintf(c->cfg.env_names[c->cfg.nenv_names++], sizeof c->cfg.env_names[0], "%s", f);
    }
    if (a->fairness >= 0 && !c->eo.liveness) {
        cli_error("check: --fairness only matters with --liveness");
        return CLI_BAD_INPUT;
    }
    c->eo.fairness = c->eo.liveness ? (a->fairness < 0 ? 1 : a->fairness) : 0;
    if (c->eo.nfair_env && !c->eo.liveness) {
        cli_error("check: --env-fair only matters with --liveness");
        return CLI_BAD_INPUT;
    }
    if (c->eo.liveness && (c->eo.threads > 1 || c->mpi)) {
        cli_error("check: --liveness keeps the explored graph's edges in one process: it "
                  "cannot be used with %s",
                  c->mpi ? "--mpi" : "--threads (use -j N for several tests at once)");
        return CLI_BAD_INPUT;
    }
    if (c->eo.threads > 1 && c->eo.dfs) {
        cli_error("check: --threads explores breadth-first; it cannot be used with --dfs");
        return CLI_BAD_INPUT;
    }
    /* The parallel explorer keeps 64-bit fingerprints and its queue in RAM (docs/warts.md). */
    if (c->eo.threads > 1 && c->eo.fp_bits > 64) {
        cli_error("check: --threads keeps 64-bit fingerprints; --fingerprint %d needs one thread",
                  c->eo.fp_bits);
        return CLI_BAD_INPUT;
    }
    if (c->eo.threads > 1 && c->eo.queue_memory) {
        cli_error("check: --threads keeps its queue in RAM; --queue-memory needs one thread");
        return CLI_BAD_INPUT;
    }
    return CLI_OK;
}

/* The protocol (with --env-fair's events and --param's settings) and the model. CLI_OK or
 * CLI_BAD_INPUT (reported). */
static int check_load(int argc, check_t *c, check_args_t *a)
{
    diag_t d;
    if (!a->proto_arg) {
        cli_error("check: --protocol is required (see --help)");
        return CLI_BAD_INPUT;
    }
    if (optind >= argc) {
        cli_error("check: give at least one test file or folder (see --help)");
        return CLI_BAD_INPUT;
    }
    if (cli_load_protocol(a->proto_arg, c->argv0, &c->proto, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (cli_check_env_fair(c->proto, c->eo.fair_env, c->eo.nfair_env, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (cli_split_params(c->proto, a->params, a->nparams, &c->sp, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (!a->model_arg)
        a->model_arg = c->proto->target;
    if (!a->model_arg) {
        cli_error("check: protocol %s declares no target model; give --model", c->proto->name);
        return CLI_BAD_INPUT;
    }
    if (cli_load_model(a->model_arg, c->argv0, &c->model, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    return CLI_OK;
}

/* Open the store, collect the tests, run them, print the closing line. The exit status. */
static int check_run(int argc, char **argv, check_t *c, check_args_t *a)
{
    int rc = CLI_OK;
    diag_t d;
    c->progress = !c->json && isatty(2) && c->jobs == 1 && c->rank == 0;
    c->pr = cli_progress_new("check", !c->json && c->rank == 0);
    c->eo.spill_dir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    {
        strbuf_t cmd, pr;
        sb_init(&cmd);
        sb_init(&pr);
        sb_puts(&cmd, "cohcheck");
        for (int i = 0; i < argc; i++)
            sb_printf(&cmd, " %s", argv[i]);
        for (int i = 0; i < a->nparams; i++)
            sb_printf(&pr, "%s%s", i ? "," : "", a->params[i]);
        c->command = cmd.s;
        c->params = pr.s;
    }
    a->store_before = a->no_db ? 0 : store_bytes(a->db_path);
    if (!a->no_db && store_open(a->db_path, &c->db, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    char **files;
    int nfiles;
    if (cli_collect(argv + optind, argc - optind, ".litmus", &files, &nfiles, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (!nfiles) {
        cli_error("check: no .litmus files found");
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK && cli_junit_check(a->junit_path) != CLI_OK)
        rc = CLI_BAD_INPUT;
    if (rc != CLI_OK) {
        cli_free_list(files, nfiles);
        return rc;
    }
    if (a->junit_path)
        c->junit = cli_junit_new("cohcheck check");
    cli_tally_t tally = {0};
    rc = worst(rc, run_all(c, files, nfiles, &tally));
    cli_free_list(files, nfiles);
    if (nfiles > 1 && !c->json && c->rank == 0) {
        /* The closing line, as litmus has: every test counted, bad files included. */
        strbuf_t sl;
        sb_init(&sl);
        cli_tally_line(&sl, &tally);
        printf("Summary: %s\n", sl.s);
        fflush(stdout);
        sb_free(&sl);
    }
    if (c->junit && cli_junit_write(c->junit, a->junit_path) != CLI_OK)
        rc = worst(rc, CLI_BAD_INPUT);
    cli_junit_free(c->junit);
    c->junit = NULL;
    return rc;
}

/* Close the store (warning once when it grew past the limit) and free C. RC, or worse. */
static int check_finish(check_t *c, const check_args_t *a, int rc)
{
    diag_t d;
    if (c->db && store_close(c->db, &d)) {
        cli_report(&d);
        rc = worst(rc, CLI_BAD_INPUT);
    } else if (c->db && c->rank == 0) {
        store_size_warn(a->db_path, a->store_before);
    }
    if (stop_flag)
        rc = worst(rc, CLI_LIMIT);
    cli_progress_free(c->pr);
    free(c->command);
    free(c->params);
    free(c->env_fair);
    free(c->fair_buf);
    cli_params_free(&c->sp);
    cat_free(c->model);
    proto_free(c->proto);
    if (c->mpi)
        explore_mpi_finalize();
    return rc;
}

int cmd_check(int argc, char **argv)
{
    check_t c;
    memset(&c, 0, sizeof c);
    c.argv0 = argv[0];
    c.unroll = 2;
    c.jobs = 1;
    c.eo.por = CLI_POR_DEFAULT;
    /* symmetry is on unless --no-symmetry; it applies where sys_set_symmetry proves it
       sound, and not with --liveness (docs/por.md, "Symmetry") */
    c.eo.symmetry = true;
    pthread_mutex_init(&c.lock, NULL);
    pthread_cond_init(&c.cond, NULL);
    c.cfg.chan_capacity = 8;
    check_args_t a = {.db_path = "cohcheck.db", .fairness = -1};
    int rc = check_parse(argc, argv, &c, &a);
    if (rc < 0)
        return CLI_OK;
    if (rc == CLI_OK)
        rc = check_mpi(&c, &a);
    if (rc == CLI_OK)
        rc = check_combinations(&c, &a);
    if (rc == CLI_OK)
        rc = check_load(argc, &c, &a);
    if (rc == CLI_OK)
        rc = check_run(argc, argv, &c, &a);
    return check_finish(&c, &a, rc);
}

/* The labels a protocol declares, each with the rows citing it. Returns
 * how many labels no row cites. */
static int count_labels(const proto_t *p, bool json, strbuf_t *b)
{
    if (!p->nlabels)
        return 0;
    int missing = 0;
    if (json) {
        sb_puts(b, ",\"labels_source\":");
        sb_json_str(b, p->labels_source);
        sb_puts(b, ",\"labels\":[");
    } else {
        sb_printf(b, "  labels (%s):\n", p->labels_source);
    }
    for (int l = 0; l < p->nlabels; l++) {
        int n = 0;
        if (json) {
            sb_puts(b, l ? ",{\"label\":" : "{\"label\":");
            sb_json_str(b, p->labels[l]);
            sb_puts(b, ",\"rows\":[");
        } else {
            sb_printf(b, "    %-5s", p->labels[l]);
        }
        for (int c = 0; c < p->nctrls; c++) {
            const proto_ctrl_t *ct = &p->ctrls[c];
            for (int r = 0; r < ct->nrows; r++) {
                const proto_row_t *row = &ct->rows[r];
                bool cited = false;
                for (int k = 0; k < row->ncites; k++)
                    cited |= row->cites[k] == l;
                /* A source row with several events is one row of the table. */
                if (!cited || (r && ct->rows[r - 1].line == row->line &&
                               ct->rows[r - 1].text_off == row->text_off))
                    continue;
                char where[600];
                const char *f = proto_file_of(p, row->text_off);
                const char *slash = strrchr(f, '/');
                snprintf(where, sizeof where, "%s %s:%d", ct->name, slash ? slash + 1 : f,
                         row->line);
                if (json) {
                    if (n)
                        sb_putc(b, ',');
                    sb_json_str(b, where);
                } else {
                    sb_printf(b, " %s", where);
                }
                n++;
            }
        }
        if (json)
            sb_puts(b, "]}");
        else
            sb_puts(b, n ? "\n" : " ERROR: no row cites this label\n");
        missing += n == 0;
    }
    if (json)
        sb_printf(b, "],\"uncited\":%d", missing);
    return missing;
}

static const char *const reading_kinds[] = {"", "row", "network", "param", "map"};

/* `count --readings`: where protocol P interprets or departs from its source
 * (docs/protocol-language.md, Readings); the readings a variant's items
 * replaced are left out. */
static void count_readings(const proto_t *p, bool json, strbuf_t *b)
{
    int n = 0;
    for (int i = 0; i < p->nreadings; i++)
        n += p->readings[i].live;
    if (json) {
        sb_puts(b, "{\"protocol\":");
        sb_json_str(b, p->name);
        sb_puts(b, ",\"readings\":[");
    } else if (n) {
        sb_printf(b, "%s: %d reading%s\n", p->name, n, n == 1 ? "" : "s");
    } else {
        sb_printf(b, "%s: no readings (every row transcribed as written)\n", p->name);
    }
    int k = 0;
    for (int i = 0; i < p->nreadings; i++) {
        const proto_reading_t *r = &p->readings[i];
        if (!r->live)
            continue;
        const char *f = strncmp(r->file, "./", 2) ? r->file : r->file + 2;
        if (json) {
            sb_puts(b, k++ ? ",{\"file\":" : "{\"file\":");
            sb_json_str(b, f);
            sb_printf(b, ",\"line\":%d,\"kind\":\"%s\",\"item\":", r->line, reading_kinds[r->kind]);
            sb_json_str(b, r->item);
            sb_puts(b, ",\"section\":");
            sb_json_str(b, r->section);
            sb_puts(b, ",\"text\":");
            sb_json_str(b, r->text);
            sb_putc(b, '}');
        } else {
            sb_printf(b, "  %s:%d  %s\n      (%s) %s\n", f, r->line, r->item, r->section, r->text);
        }
    }
    if (json)
        sb_puts(b, "]}\n");
}

/* The published counts of P's controller K (the papers' own numbers). */
static void count_published(const proto_t *p, int k, bool json, strbuf_t *b)
{
    int np = 0;
    for (int q = 0; q < p->npubs; q++) {
        const proto_pub_t *pb = &p->pubs[q];
        if (pb->ctrl != k)
            continue;
        if (json) {
            sb_puts(b, np ? ",{\"source\":" : "{\"source\":");
            sb_json_str(b, pb->source);
            sb_printf(b,
                      ",\"stable\":%d,\"transient\":%d,\"coherent\":%d,"
                      "\"transitions\":%d}",
                      pb->stable, pb->transient, pb->coherent, pb->transitions);
        } else {
            sb_printf(b, "    published (%s):", pb->source);
            if (pb->stable >= 0)
                sb_printf(b, " stable %d", pb->stable);
            if (pb->transient >= 0)
                sb_printf(b, " transient %d", pb->transient);
            if (pb->coherent >= 0)
                sb_printf(b, " (coherent %d)", pb->coherent);
            if (pb->transitions >= 0)
                sb_printf(b, " transitions %d", pb->transitions);
            sb_putc(b, '\n');
        }
        np++;
    }
}

/* `count`'s table (or JSON object) for P: per controller its states, transitions
 * and published counts, then the labels. Returns nonzero when a label check failed. */
static int count_table(const proto_t *p, bool json, strbuf_t *b)
{
    if (json) {
        sb_puts(b, "{\"protocol\":");
        sb_json_str(b, p->name);
        sb_puts(b, ",\"controllers\":[");
    } else {
        sb_printf(b, "%s\n  %-12s %7s %10s %9s %12s %9s\n", p->name, "controller", "stable",
                  "transient", "coherent", "transitions", "branches");
    }
    for (int k = 0; k < p->nctrls; k++) {
        proto_count_t n;
        proto_count(p, k, &n);
        if (json) {
            sb_puts(b, k ? ",{\"controller\":" : "{\"controller\":");
            sb_json_str(b, p->ctrls[k].name);
            sb_printf(b,
                      ",\"stable\":%d,\"transient\":%d,\"coherent\":%d,\"transitions\":%d,"
                      "\"branches\":%d,\"published\":[",
                      n.stable, n.transient, n.coherent, n.transitions, n.branches);
        } else {
            sb_printf(b, "  %-12s %7d %10d %9d %12d %9d\n", p->ctrls[k].name, n.stable, n.transient,
                      n.coherent, n.transitions, n.branches);
        }
        count_published(p, k, json, b);
        if (json)
            sb_puts(b, "]}");
    }
    if (json)
        sb_puts(b, "]");
    return count_labels(p, json, b);
}

static const char count_usage[] =
    "usage: cohcheck count [--json] [--resolved | --readings] PROTOCOL...\n"
    "\n"
    "Table-level counts per controller: declared stable and transient states (and\n"
    "how many transient states are declared 'coherent', TC's Table 1 split), and\n"
    "transitions, in two conventions:\n"
    "  transitions  distinct (state, event) cells with at least one row that is\n"
    "               neither 'stall' nor 'impossible' (docs/architecture.md section 4); "
    "a row\n"
    "               listing several states or events covers each cell; a\n"
    "               controller-level row ('-') is one cell per event;\n"
    "  branches     the same rows counted per guarded alternative: a cell whose\n"
    "               outcome depends on a condition (\"MSHR.empty? -> V else -> VI\")\n"
    "               counts once per outcome, as RCC's Table V does.\n"
    "The figures a protocol file declares with 'published' are printed beside\n"
    "cohcheck's (reports/counts.md).\n"
    "\n"
    "A protocol that declares 'labels' (the cells of the paper's table it\n"
    "transcribes, e.g. seed 001 Table 3's a0..a25) gets each label listed with the\n"
    "rows that cite it; a label no row cites is an error (exit 1).\n"
    "\n"
    "options:\n";

int cmd_count(int argc, char **argv)
{
    bool json = false, resolved = false, readings = false;
    int rc = CLI_OK;
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_COUNT);
    for (int ch; (ch = cli_getopt(&g, argc, argv)) != -1;) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'J': json = true; break;
        case CLI_O_RESOLVED: resolved = true; break;
        case CLI_O_READINGS: readings = true; break;
        case 'h': cli_usage(stdout, CLI_CMD_COUNT, count_usage, NULL); return CLI_OK;
        }
    }
    int first = optind;
    if (first >= argc) {
        cli_error("count: give at least one protocol (see --help)");
        return CLI_BAD_INPUT;
    }
    if (resolved && readings) {
        cli_error("count: --resolved and --readings exclude each other");
        return CLI_BAD_INPUT;
    }
    for (int i = first; i < argc; i++) {
        proto_t *p;
        diag_t d;
        if (cli_load_protocol_timed(argv[i], argv[0], &p, &d)) {
            cli_report(&d);
            rc = CLI_BAD_INPUT;
            continue;
        }
        if (readings) {
            strbuf_t b;
            sb_init(&b);
            count_readings(p, json, &b);
            fputs(b.s, stdout);
            sb_free(&b);
            proto_free(p);
            continue;
        }
        if (resolved) {
            char *text = proto_resolved_text(p);
            fputs(text, stdout);
            free(text);
            proto_free(p);
            continue;
        }
        strbuf_t b;
        sb_init(&b);
        if (count_table(p, json, &b))
            rc = rc == CLI_OK ? CLI_FAIL : rc;
        if (json)
            sb_puts(&b, "}\n");
        fputs(b.s, stdout);
        sb_free(&b);
        proto_free(p);
    }
    return rc;
}
