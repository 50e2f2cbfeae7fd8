/* cli_out.c - output pieces every subcommand shares: stored traces printed as
 * numbered steps, the one progress line on a terminal, the folder summary
 * ("164 tests: 149 ok, 15 skipped, 2 unreadable") and output folders created
 * when missing. Invariant: the progress line is drawn only when stderr is a
 * terminal, so piped or redirected output never carries it. */
#include "cli.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../base/util.h"

/* Append the UTF-8 encoding of code point CP. */
static void put_utf8(strbuf_t *b, unsigned cp)
{
    if (cp < 0x80) {
        sb_putc(b, (char)cp);
    } else if (cp < 0x800) {
        sb_putc(b, (char)(0xC0 | (cp >> 6)));
        sb_putc(b, (char)(0x80 | (cp & 0x3F)));
    } else {
        sb_putc(b, (char)(0xE0 | (cp >> 12)));
        sb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
        sb_putc(b, (char)(0x80 | (cp & 0x3F)));
    }
}

/* Decode the JSON string at *P (just past its opening quote) into OUT; *P ends
 * past the closing quote. -1 on a malformed string. */
static int json_string(const char **p, strbuf_t *out)
{
    const char *s = *p;
    for (; *s && *s != '"'; s++) {
        if (*s != '\\') {
            sb_putc(out, *s);
            continue;
        }
        s++;
        switch (*s) {
        case 'n': sb_putc(out, '\n'); break;
        case 't': sb_putc(out, '\t'); break;
        case 'r': sb_putc(out, '\r'); break;
        case 'b': sb_putc(out, '\b'); break;
        case 'f': sb_putc(out, '\f'); break;
        case '"':
        case '\\':
        case '/': sb_putc(out, *s); break;
        case 'u': {
            unsigned cp = 0;
            for (int k = 1; k <= 4; k++) {
                char c = s[k];
                int v = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
                if (v < 0)
                    return -1;
                cp = cp * 16 + (unsigned)v;
            }
            put_utf8(out, cp);
            s += 4;
            break;
        }
        default: return -1;
        }
    }
    if (*s != '"')
        return -1;
    *p = s + 1;
    return 0;
}

int cli_trace_steps(const char *trace_json, char ***steps, int *nsteps)
{
    char **v = NULL;
    size_t n = 0, cap = 0;
    const char *s = trace_json ? trace_json : "[]";
    while (*s == ' ')
        s++;
    if (*s++ != '[')
        return -1;
    for (;;) {
        while (*s == ' ' || *s == ',' || *s == '\n')
            s++;
        if (*s == ']')
            break;
        strbuf_t b;
        sb_init(&b);
        if (*s != '"' || (s++, json_string(&s, &b))) {
            sb_free(&b);
            cli_free_list(v, (int)n);
            return -1;
        }
        UTIL_PUSH(v, n, cap, b.s ? b.s : xstrdup(""));
    }
    *steps = v;
    *nsteps = (int)n;
    return 0;
}

int cli_print_trace(FILE *out, const char *indent, const char *trace_json)
{
    char **steps;
    int n;
    if (cli_trace_steps(trace_json, &steps, &n))
        return -1;
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%3d  %s\n", indent, i + 1, steps[i]);
    cli_free_list(steps, n);
    return n;
}

/* ---- the progress line ---- */

struct cli_progress {
    pthread_mutex_t lock; /* worker threads may report (mutate, check -j) */
    bool on;              /* stderr is a terminal and the caller wants progress */
    double start;         /* monotonic seconds at creation */
    double last;          /* when the line was last drawn */
    double every;         /* seconds between redraws: 0.2, or COHCHECK_PROGRESS_EVERY */
    size_t width;         /* characters drawn last time (to blank them) */
    const char *what;     /* the subcommand, first on the line */
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

cli_progress_t *cli_progress_new(const char *what, bool wanted)
{
    cli_progress_t *p = xcalloc(1, sizeof *p);
    pthread_mutex_init(&p->lock, NULL);
    p->on = wanted && isatty(STDERR_FILENO);
    p->start = p->last = now_s();
    p->what = what;
    const char *e = getenv("COHCHECK_PROGRESS_EVERY");
    char *end = NULL;
    double ev = e && *e ? strtod(e, &end) : -1;
    p->every = e && *e && end && !*end && ev >= 0 && ev <= 60 ? ev : 0.2;
    return p;
}

bool cli_progress_on(const cli_progress_t *p)
{
    return p && p->on;
}

void cli_progress(cli_progress_t *p, long long done, long long total, const char *fmt, ...)
{
    if (!p || !p->on)
        return;
    pthread_mutex_lock(&p->lock);
    double t = now_s();
    if ((total <= 0 || done < total) && t - p->last < p->every) {
        pthread_mutex_unlock(&p->lock);
        return;
    }
    p->last = t;
    char msg[256] = "";
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
    }
    char line[400];
    int w;
    if (total > 0)
        w = snprintf(line, sizeof line, "%s: %lld/%lld (%.0f%%), %.1f s%s%s", p->what, done, total,
                     100.0 * (double)done / (double)total, t - p->start, *msg ? ", " : "", msg);
    else if (done >= 0)
        w = snprintf(line, sizeof line, "%s: %lld done, %.1f s%s%s", p->what, done, t - p->start,
                     *msg ? ", " : "", msg);
    else
        w = snprintf(line, sizeof line, "%s: %s%s%.1f s", p->what, msg, *msg ? ", " : "",
                     t - p->start);
    if (w < 0) {
        pthread_mutex_unlock(&p->lock);
        return;
    }
    size_t len = strlen(line);
    if (len > 150) {
        line[150] = '\0';
        len = 150;
    }
    fprintf(stderr, "\r%s", line);
    for (size_t i = len; i < p->width; i++)
        fputc(' ', stderr);
    p->width = len;
    fflush(stderr);
    pthread_mutex_unlock(&p->lock);
}

void cli_progress_soon(cli_progress_t *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->last = p->start - 1.0;
    pthread_mutex_unlock(&p->lock);
}

void cli_progress_clear(cli_progress_t *p)
{
    if (!p || !p->on)
        return;
    pthread_mutex_lock(&p->lock);
    if (p->width) {
        fputc('\r', stderr);
        for (size_t i = 0; i < p->width; i++)
            fputc(' ', stderr);
        fputc('\r', stderr);
        fflush(stderr);
        p->width = 0;
    }
    pthread_mutex_unlock(&p->lock);
}

void cli_progress_free(cli_progress_t *p)
{
    if (!p)
        return;
    cli_progress_clear(p);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* ---- the folder summary ---- */

void cli_tally_line(strbuf_t *b, const cli_tally_t *t)
{
    sb_printf(b, "%d test%s: %d ok", t->tests, t->tests == 1 ? "" : "s", t->ok);
    if (t->failed)
        sb_printf(b, ", %d failed", t->failed);
    if (t->incomplete)
        sb_printf(b, ", %d incomplete", t->incomplete);
    if (t->skipped)
        sb_printf(b, ", %d skipped", t->skipped);
    if (t->unreadable)
        sb_printf(b, ", %d unreadable", t->unreadable);
}

int cli_tally_exit(const cli_tally_t *t)
{
    if (t->unreadable)
        return CLI_BAD_INPUT;
    if (t->failed)
        return CLI_FAIL;
    if (t->incomplete)
        return CLI_LIMIT;
    return CLI_OK;
}

/* ---- output folders ---- */

int cli_mkdirs(const char *dir)
{
    if (!dir || !*dir)
        return 0;
    char *p = xstrdup(dir);
    int rc = 0;
    for (char *s = p + 1;; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        struct stat st;
        if (stat(p, &st) != 0) {
            if (mkdir(p, 0777) && errno != EEXIST) {
                cli_error("cannot create folder '%s': %s", p, strerror(errno));
                rc = -1;
                break;
            }
        } else if (!S_ISDIR(st.st_mode)) {
            cli_error("cannot create folder '%s': a file of that name exists", p);
            rc = -1;
            break;
        }
        *s = c;
        if (!c)
            break;
    }
    free(p);
    return rc;
}

int cli_mkdirs_for(const char *file)
{
    const char *slash = file ? strrchr(file, '/') : NULL;
    if (!slash || slash == file)
        return 0;
    char *dir = xstrdup(file);
    dir[slash - file] = '\0';
    int rc = cli_mkdirs(dir);
    free(dir);
    return rc;
}
