/* cmd_draw.c - `cohcheck draw`: a protocol's state machines, or a stored
 * trace as a message-sequence chart (docs/architecture.md section 3), as .dot, .svg or
 * .png by the output's extension. SVG and PNG come from Graphviz's `dot`. The
 * output is written to a temporary file and renamed: never a partial file. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/util.h"
#include "../draw/draw.h"
#include "cli.h"

static const char USAGE[] =
    "usage: cohcheck draw PROTOCOL -o FILE [--controller C] [--stalls] [--width N]\n"
    "       cohcheck draw --trace RUN [STATE] [--db PATH] -o FILE\n"
    "\n"
    "Draw a protocol's controllers as state machines from its resolved tables (a\n"
    "variant with its bases applied): stable states as ellipses, transient ones as\n"
    "dashed boxes, the initial state doubled; each edge is one row, labelled\n"
    "'event [guard] / actions (table labels)'. Core events are blue, environment\n"
    "actions green and dashed; stall rows are left out unless --stalls.\n"
    "\n"
    "With --trace, draw a run recorded in the store as a message-sequence chart:\n"
    "one lane per thread and controller instance, one row per step, core requests\n"
    "and messages as arrows from the step that sent them to the step that received\n"
    "them, state changes on the lanes. STATE (a state number, see 'cohcheck trace')\n"
    "defaults to the state where the run's check failed. Steps are numbered as\n"
    "'cohcheck trace' prints them: step 1 is the initial state, warm copies shown\n"
    "on their lanes.\n"
    "\n"
    "options:\n";
static const char USAGE_TAIL[] = "";

/* Run Graphviz's dot on TEXT, writing format FMT to PATH. 0, or -1 reported. */
static int run_dot(const char *text, const char *fmt, const char *path)
{
    int fd[2];
    if (pipe(fd)) {
        cli_error("draw: cannot start Graphviz: %s", strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        cli_error("draw: cannot start Graphviz: %s", strerror(errno));
        close(fd[0]);
        close(fd[1]);
        return -1;
    }
    if (pid == 0) {
        char t[16], o[4096];
        snprintf(t, sizeof t, "-T%s", fmt);
        snprintf(o, sizeof o, "-o%s", path);
        dup2(fd[0], 0);
        close(fd[0]);
        close(fd[1]);
        /* dot's own messages name the temporary file: ours is the one line. */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            dup2(null, 2);
            close(null);
        }
        execlp("dot", "dot", t, o, (char *)NULL);
        _exit(127);
    }
    close(fd[0]);
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    size_t n = strlen(text), off = 0;
    while (off < n) {
        ssize_t w = write(fd[1], text + off, n - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(fd[1]);
    signal(SIGPIPE, old);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        cli_error("draw: Graphviz's 'dot' is not installed (apt-get install graphviz), or write "
                  "a .dot file");
        return -1;
    }
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || off < n) {
        cli_error("draw: Graphviz's dot failed on the picture (exit status %d)",
                  WIFEXITED(status) ? WEXITSTATUS(status) : -1);
        return -1;
    }
    return 0;
}

/* Write TEXT to OUT as .dot, .svg or .png: into a temporary file renamed over OUT. */
int cli_write_picture(const char *text, const char *out)
{
    if (!strcmp(out, "-")) {
        fputs(text, stdout);
        return fflush(stdout) ? CLI_BAD_INPUT : CLI_OK;
    }
    const char *dot = strrchr(out, '.');
    const char *fmt = NULL;
    if (dot && !strcmp(dot, ".svg"))
        fmt = "svg";
    else if (dot && !strcmp(dot, ".png"))
        fmt = "png";
    else if (!dot || strcmp(dot, ".dot") != 0) {
        cli_error("draw: '%s': the output must end in .svg, .png or .dot", out);
        return CLI_BAD_INPUT;
    }
    if (cli_mkdirs_for(out))
        return CLI_BAD_INPUT;
    char *tmp = xmalloc(strlen(out) + 32);
    sprintf(tmp, "%s.tmp%ld", out, (long)getpid());
    int rc = CLI_OK;
    if (fmt) {
        /* The temporary file is made here, so an unwritable place is our one error
         * line, not Graphviz's message naming the temporary file. */
        FILE *f = fopen(tmp, "w");
        if (!f || fclose(f)) {
            cli_error("draw: cannot write '%s': %s", out, strerror(errno));
            rc = CLI_BAD_INPUT;
        } else if (run_dot(text, fmt, tmp)) {
            rc = CLI_BAD_INPUT;
        }
    } else {
        FILE *f = fopen(tmp, "w");
        if (!f || fputs(text, f) < 0 || fclose(f)) {
            cli_error("draw: cannot write '%s': %s", out, strerror(errno));
            rc = CLI_BAD_INPUT;
        }
    }
    if (rc == CLI_OK && rename(tmp, out)) {
        cli_error("draw: cannot write '%s': %s", out, strerror(errno));
        rc = CLI_BAD_INPUT;
    }
    if (rc != CLI_OK)
        unlink(tmp);
    free(tmp);
    return rc;
}

/* "L1[0].x: I -> IV, L1[0].pending: 0 -> 1" at lane NAME -> "x: I -> IV\npending: 0 -> 1". */
static char *lane_note(const char *text, const char *name)
{
    strbuf_t b;
    sb_init(&b);
    size_t nl = strlen(name);
    const char *s = text;
    while (*s) {
        const char *e = strstr(s, ", ");
        size_t n = e ? (size_t)(e - s) : strlen(s);
        const char *item = s;
        if (n > nl && !strncmp(item, name, nl) && item[nl] == '.') {
            item += nl + 1;
            n -= nl + 1;
        }
        if (b.len)
            sb_putc(&b, '\n');
        sb_putn(&b, item, n);
        s += (e ? (size_t)(e - s) + 2 : strlen(s));
    }
    return b.s ? b.s : xstrdup("");
}

/* The initial state's step: DESC is "initial state" or "initial state: L1[1].x=V, ...";
 * each "LANE.rest" item becomes a note "rest" on that lane, so warm copies show
 * where they are. The step keeps number 1, as in the text trace; when no lane
 * gets a note, lane 0 says "initial state" so the numbering stays visible. */
static void init_step(draw_msc_t *m, const char *desc, char **names, int nl)
{
    strbuf_t *nb = xcalloc((size_t)nl, sizeof *nb);
    for (int l = 0; l < nl; l++)
        sb_init(&nb[l]);
    const char *s = desc ? strstr(desc, ": ") : NULL;
    for (s = s ? s + 2 : ""; *s;) {
        const char *e = strstr(s, ", ");
        size_t n = e ? (size_t)(e - s) : strlen(s);
        for (int l = 0; l < nl; l++) {
            size_t k = strlen(names[l]);
            if (n > k + 1 && !strncmp(s, names[l], k) && s[k] == '.') {
                sb_printf(&nb[l], "%s%.*s", nb[l].len ? "\n" : "", (int)(n - k - 1), s + k + 1);
                break;
            }
        }
        s += e ? n + 2 : n;
    }
    char **notes = xcalloc((size_t)nl, sizeof *notes);
    bool any = false;
    for (int l = 0; l < nl; l++) {
        if (nb[l].len) {
            notes[l] = xmalloc(nb[l].len + 32);
            sprintf(notes[l], "1  initial: %s", nb[l].s);
            any = true;
        }
    }
    if (!any && nl > 0)
        notes[0] = xstrdup("1  initial state");
    draw_step_t st = {-1,   NULL, (const char *const *)notes, -1, NULL, -1, NULL, 0, NULL,
                      NULL, NULL};
    draw_msc_step(m, &st);
    for (int l = 0; l < nl; l++) {
        free(notes[l]);
        sb_free(&nb[l]);
    }
    free(notes);
    free(nb);
}

/* Find the step from BEFORE to the state AFTER (lasso_label). */
typedef struct {
    const void *after;
    size_t alen;
    sys_label_t lab;
    bool found;
} match_t;

static void match_succ(void *ctx, const uint8_t *st, size_t len, const sys_label_t *lab)
{
    match_t *m = ctx;
    if (!m->found && len == m->alen && !memcmp(st, m->after, len)) {
        m->lab = *lab;
        m->found = true;
    }
}

/* A --liveness run's cycle (store_run_t.lasso: "12,40,41", the first is the
 * failure state) as the states after each of its steps, in order, each with the
 * step's label (recomputed: the stored label is that of the state's first
 * discovery). Appended to *OUT (N of them, then the first state again). 0, or -1. */
static int lasso_states(store_t *db, int64_t run, sys_t *sys, const char *lasso,
                        store_state_t **out, size_t *n)
{
    int64_t ids[4096];
    size_t k = 0;
    for (const char *p = lasso; p && *p && k < 4096;) {
        char *end;
        long long v = strtoll(p, &end, 10);
        if (end == p || v < 0)
            return -1;
        ids[k++] = v;
        p = *end == ',' ? end + 1 : end;
    }
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    diag_t d;
    store_state_t prev;
    if (!k || store_get_state(db, run, ids[0], &prev, &d))
        return -1;
    for (size_t i = 1; i <= k; i++) {
        store_state_t st;
        if (store_get_state(db, run, ids[i % k], &st, &d))
            break;
        match_t m = {st.enc, st.enc_len, {0, 0, 0, 0}, false};
        sys_error_t e;
        sys_successors(sys, prev.enc, prev.enc_len, match_succ, &m, &e);
        free((void *)st.label);
        st.label = NULL;
        if (m.found) {
            void *lab = xmalloc(sizeof m.lab);
            memcpy(lab, &m.lab, sizeof m.lab);
            st.label = lab;
            st.label_len = sizeof m.lab;
        }
        free((void *)prev.enc);
        free((void *)prev.label);
        prev = st;
        store_state_t copy = st;
        copy.enc = xmalloc(st.enc_len + 1);
        memcpy((void *)copy.enc, st.enc, st.enc_len);
        if (st.label) {
            copy.label = xmalloc(st.label_len);
            memcpy((void *)copy.label, st.label, st.label_len);
        }
        UTIL_PUSH(*out, *n, cap, copy);
        if (!m.found)
            break;
    }
    free((void *)prev.enc);
    free((void *)prev.label);
    return *n == k ? 0 : -1;
}

/* RUNS and STATES (NULL: the run's failure, *TARGET -1) as numbers. CLI_OK or CLI_BAD_INPUT. */
static int parse_run_state(const char *runs, const char *states, long long *id, long long *target)
{
    char *end;
    *id = strtoll(runs, &end, 10);
    if (!*runs || *end || *id <= 0) {
        cli_error("draw: '%s' is not a run number (see 'cohcheck show')", runs);
        return CLI_BAD_INPUT;
    }
    *target = -1;
    if (states) {
        *target = strtoll(states, &end, 10);
        if (!*states || *end || *target < 0) {
            cli_error("draw: '%s' is not a state number", states);
            return CLI_BAD_INPUT;
        }
    }
    return CLI_OK;
}

/* The stored path from state TARGET of run ID back to an initial state (*PATH[0] is
 * TARGET; *N states). CLI_OK or CLI_BAD_INPUT (reported; the states read so far kept). */
static int load_path(store_t *db, long long id, long long target, store_state_t **path, size_t *n)
{
    size_t cap = 0;
    diag_t d;
    for (int64_t v = target; v >= 0 && *n <= 1000000;) {
        store_state_t st;
        if (store_get_state(db, id, v, &st, &d)) {
            cli_error("draw: run %lld has no state %lld", id, (long long)v);
            return CLI_BAD_INPUT;
        }
        UTIL_PUSH(*path, *n, cap, st);
        v = st.parent;
    }
    return CLI_OK;
}

/* A livelock: the cycle follows the path to its first state (path[0]), so the chart
 * shows the lasso; PATH runs backwards, so its states go in front (*NCYCLE of them). */
static int prepend_cycle(store_t *db, long long id, sys_t *sys, const char *lasso,
                         store_state_t **path, size_t *n, size_t *ncycle)
{
    int rc = CLI_OK;
    store_state_t *cyc;
    if (lasso_states(db, id, sys, lasso, &cyc, ncycle)) {
        cli_error("draw: run %lld's cycle (%s) does not replay", id, lasso);
        rc = CLI_BAD_INPUT;
    }
    store_state_t *all = xmalloc((*n + *ncycle + 1) * sizeof *all);
    for (size_t i = 0; i < *ncycle; i++)
        all[i] = cyc[*ncycle - 1 - i];
    memcpy(all + *ncycle, *path, *n * sizeof **path);
    free(cyc);
    free(*path);
    *path = all;
    *n += *ncycle;
    return rc;
}

/* The chart's lanes and what a step draws on them. */
typedef struct {
    sys_t *sys;
    const proto_t *proto;
    draw_msc_t *m;
    char **names; /* per lane */
    int nl;
    size_t ncycle; /* the first NCYCLE states of the path are the cycle */
} chart_t;

/* The message arrows and the lane notes of one step, drawn. */
static void draw_step(const chart_t *ch, const sys_label_t *lab, const store_state_t *before,
                      const store_state_t *after, const char *act)
{
    sys_step_info_t info;
    sys_step_info(ch->sys, lab, before->enc, before->enc_len, after->enc, after->enc_len, &info);
    char **notes = xcalloc((size_t)ch->nl, sizeof *notes);
    for (int l = 0; l < ch->nl; l++) {
        strbuf_t sb;
        sb_init(&sb);
        sys_describe_lane(ch->sys, l, before->enc, before->enc_len, after->enc, after->enc_len,
                          &sb);
        notes[l] = sb.s ? lane_note(sb.s, ch->names[l]) : NULL;
        sb_free(&sb);
    }
    int ns = info.nsent < SYS_MAX_SENT ? info.nsent : SYS_MAX_SENT;
    int from[SYS_MAX_SENT], to[SYS_MAX_SENT];
    char *labels[SYS_MAX_SENT];
    for (int k = 0; k < ns; k++) {
        strbuf_t sb;
        sb_init(&sb);
        sys_msg_name(ch->sys, info.sent[k].msg, info.sent[k].line, &sb);
        from[k] = info.sent[k].from;
        to[k] = info.sent[k].to;
        labels[k] = sb.s;
    }
    strbuf_t rl, pl;
    sb_init(&rl);
    sb_init(&pl);
    if (info.received)
        sys_msg_name(ch->sys, info.recv.msg, info.recv.line, &rl);
    if (info.peer >= 0 && info.event >= 0)
        sb_puts(&pl, ch->proto->events[info.event].name);
    draw_step_t st = {info.lane,
                      act,
                      (const char *const *)notes,
                      info.peer,
                      pl.s,
                      info.received ? info.recv.from : -1,
                      rl.s,
                      ns,
                      from,
                      to,
                      (const char *const *)labels};
    draw_msc_step(ch->m, &st);
    for (int k = 0; k < ns; k++)
        free(labels[k]);
    for (int l = 0; l < ch->nl; l++)
        free(notes[l]);
    free(notes);
    sb_free(&rl);
    sb_free(&pl);
}

/* Every step of PATH[0..N) (backwards: PATH[N-1] is the first), the initial state first. */
static void draw_path(const chart_t *ch, const store_state_t *path, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        sys_label_t lab;
        memset(&lab, 0, sizeof lab);
        memcpy(&lab, path[i].label,
               path[i].label_len < sizeof lab ? path[i].label_len : sizeof lab);
        const store_state_t *before = i + 1 < n ? &path[i + 1] : &path[i];
        strbuf_t act;
        sb_init(&act);
        if (lab.kind == SYS_STEP_INIT) {
            sys_describe(ch->sys, &lab, before->enc, before->enc_len, path[i].enc, path[i].enc_len,
                         &act);
            init_step(ch->m, act.s, ch->names, ch->nl);
            sb_free(&act);
            continue;
        }
        if (i < ch->ncycle)
            sb_printf(&act, "[cycle %zu/%zu] ", ch->ncycle - i, ch->ncycle);
        sys_describe(ch->sys, &lab, before->enc, before->enc_len, path[i].enc, path[i].enc_len,
                     &act);
        char *bar = act.s ? strstr(act.s, " | ") : NULL;
        if (bar)
            *bar = '\0';
        draw_step(ch, &lab, before, &path[i], act.s);
        sb_free(&act);
    }
}

/* The chart's caption: the failure's message, the cycle, the outcome of a terminal state. */
static void caption(strbuf_t *c, const cli_rebuilt_t *b, bool state_given,
                    const store_state_t *path, size_t n, size_t ncycle)
{
    if (!state_given && b->run.message && *b->run.message)
        sb_printf(c, "%s", b->run.message);
    if (ncycle)
        sb_printf(c, "%sthe %zu step(s) marked [cycle] repeat forever", c->len ? "\n" : "", ncycle);
    if (n && sys_terminal(b->sys, path[0].enc, path[0].enc_len)) {
        prog_val_t *val = xcalloc((size_t)b->lay.nkeys + 1, sizeof *val);
        sys_outcome(b->sys, path[0].enc, path[0].enc_len, val);
        sb_printf(c, "%soutcome:", c->len ? "\n" : "");
        for (int k = 0; k < b->lay.nkeys; k++)
            sb_printf(c, " %s=%lld;", b->lay.names[k], (long long)val[k]);
        if (b->have_mr && !b->mr.racy)
            sb_printf(c, " (%s by %s)",
                      exec_outcomes_has(&b->mr.allowed, val) ? "allowed" : "forbidden",
                      b->run.model);
        free(val);
    }
}

/* The chart of PATH[0..N) of rebuilt run ID (to state TARGET; STATES: given), to OUT. */
static int write_chart(const cli_rebuilt_t *b, long long id, long long target, const char *states,
                       const store_state_t *path, size_t n, size_t ncycle, const char *out)
{
    chart_t ch = {.sys = b->sys, .proto = b->proto, .nl = sys_lanes(b->sys), .ncycle = ncycle};
    ch.names = xcalloc((size_t)ch.nl, sizeof *ch.names);
    for (int l = 0; l < ch.nl; l++) {
        strbuf_t sb;
        sb_init(&sb);
        sys_lane_name(b->sys, l, &sb);
        ch.names[l] = sb.s;
    }
    strbuf_t title, cap;
    sb_init(&title);
    sb_init(&cap);
    sb_printf(&title, "run %lld: %s on %s under %s: %s", id, b->run.protocol, b->run.test,
              b->run.model, b->run.verdict ? b->run.verdict : "");
    if (states)
        sb_printf(&title, " (path to state %lld)", target);
    ch.m = draw_msc_new(title.s, ch.nl, (const char *const *)ch.names);
    draw_path(&ch, path, n);
    caption(&cap, b, states != NULL, path, n, ncycle);
    char *text = draw_msc_dot(ch.m, cap.len ? cap.s : NULL);
    int rc = cli_write_picture(text, out);
    free(text);
    draw_msc_free(ch.m);
    for (int l = 0; l < ch.nl; l++)
        free(ch.names[l]);
    free(ch.names);
    sb_free(&title);
    sb_free(&cap);
    return rc;
}

static int draw_trace(const char *dbp, const char *runs, const char *states, const char *out,
                      const char *argv0)
{
    long long id, target;
    if (parse_run_state(runs, states, &id, &target))
        return CLI_BAD_INPUT;
    store_t *db;
    if (cli_open_db(dbp, &db))
        return CLI_BAD_INPUT;
    diag_t d;
    cli_rebuilt_t b;
    if (cli_rebuild(db, id, argv0, &b, &d)) {
        cli_report(&d);
        store_close(db, &d);
        return CLI_BAD_INPUT;
    }
    if (target < 0)
        target = b.run.failure;
    store_state_t *path = NULL;
    size_t n = 0, ncycle = 0;
    int rc = CLI_OK;
    if (target < 0) {
        cli_error("draw: run %lld has no recorded failure (verdict %s): give a state number", id,
                  b.run.verdict ? b.run.verdict : "none");
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK)
        rc = load_path(db, id, target, &path, &n);
    if (rc == CLI_OK && b.sym && cli_sym_realise_path(b.sys, path, n) < n) {
        cli_error("draw: run %lld: no real execution follows the stored states", id);
        rc = CLI_BAD_INPUT;
    }
    if (rc == CLI_OK && !states && b.run.lasso && *b.run.lasso && n)
        rc = prepend_cycle(db, id, b.sys, b.run.lasso, &path, &n, &ncycle);
    if (rc == CLI_OK)
        rc = write_chart(&b, id, target, states, path, n, ncycle, out);
    for (size_t i = 0; i < n; i++) {
        free((void *)path[i].label);
        free((void *)path[i].enc);
    }
    free(path);
    cli_rebuilt_free(&b);
    store_close(db, &d);
    return rc;
}

/* --json: what was written, as one object: {"file", "format", KEY: VALUE}. */
static void put_json_written(const char *out, const char *key, const char *value)
{
    const char *dot = strrchr(out, '.');
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, "{\"file\":");
    sb_json_str(&b, out);
    sb_puts(&b, ",\"format\":");
    sb_json_str(&b, dot ? dot + 1 : "");
    sb_printf(&b, ",\"%s\":", key);
    sb_json_str(&b, value);
    printf("%s}\n", b.s);
    sb_free(&b);
}

int cmd_draw(int argc, char **argv)
{
    const char *out = NULL, *ctrl = NULL, *run = NULL, *dbp = "cohcheck.db";
    draw_proto_opts_t o = {false, -1, 0};
    bool json = false;
    cli_getopt_t g;
    cli_getopt_init(&g, CLI_CMD_DRAW);
    int ch;
    diag_t d;
    while ((ch = cli_getopt(&g, argc, argv)) != -1) {
        switch (ch) {
        case CLI_GETOPT_BAD: return CLI_BAD_INPUT;
        case 'o': out = optarg; break;
        case 'C': ctrl = optarg; break;
        case 'S': o.stalls = true; break;
        case 'W': o.label_width = (int)g.num; break;
        case 'T': run = optarg; break;
        case 'D': dbp = optarg; break;
        case 'J': json = true; break;
        case 'h': cli_usage(stdout, CLI_CMD_DRAW, USAGE, USAGE_TAIL); return CLI_OK;
        }
    }
    if (!out) {
        cli_error("draw: give the output with -o FILE (.svg, .png or .dot; '-' for dot text)");
        return CLI_BAD_INPUT;
    }
    if (json && !strcmp(out, "-")) {
        cli_error("draw: --json and -o - would both write to standard output");
        return CLI_BAD_INPUT;
    }
    if (run) {
        if (argc - optind > 1) {
            cli_error("draw: --trace takes RUN [STATE], not '%s'", argv[optind + 1]);
            return CLI_BAD_INPUT;
        }
        int trc = draw_trace(dbp, run, optind < argc ? argv[optind] : NULL, out, argv[0]);
        if (trc == CLI_OK && json)
            put_json_written(out, "run", run);
        return trc;
    }
    if (argc - optind != 1) {
        cli_error("draw: give one protocol (see --help)");
        return CLI_BAD_INPUT;
    }
    proto_t *p;
    if (cli_load_protocol(argv[optind], argv[0], &p, &d)) {
        cli_report(&d);
        return CLI_BAD_INPUT;
    }
    if (ctrl) {
        for (int c = 0; c < p->nctrls; c++)
            if (!strcmp(p->ctrls[c].name, ctrl))
                o.controller = c;
        if (o.controller < 0) {
            cli_error("draw: protocol %s has no controller '%s'", p->name, ctrl);
            proto_free(p);
            return CLI_BAD_INPUT;
        }
    }
    char *text = draw_proto_dot(p, &o);
    int rc = cli_write_picture(text, out);
    free(text);
    if (rc == CLI_OK && json)
        put_json_written(out, "protocol", p->name);
    proto_free(p);
    return rc;
}
