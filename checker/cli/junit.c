/* junit.c - JUnit XML reports (--junit FILE) and GitHub-style annotations
 * (--annotate) for check, litmus, mutate and regress. One <testsuite> per
 * command, one <testcase> per test x model x protocol (or per mutant); a failed
 * check carries its verdict as the failure's type, its message, and the trace
 * as the failure's text. tests/e2e/data/junit.xsd is the schema CI servers
 * read (the Jenkins/Surefire form); `make test` validates against it. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../base/util.h"
#include "cli.h"

typedef struct {
    char *classname, *name, *status, *type, *message, *body;
    double secs;
} jcase_t;

struct cli_junit {
    char *suite;
    jcase_t *c;
    size_t n, cap;
    pthread_mutex_t lock;
};

cli_junit_t *cli_junit_new(const char *suite)
{
    cli_junit_t *j = xcalloc(1, sizeof *j);
    j->suite = xstrdup(suite);
    pthread_mutex_init(&j->lock, NULL);
    return j;
}

static char *dup0(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

void cli_junit_case(cli_junit_t *j, const char *classname, const char *name, double secs,
                    const char *status, const char *type, const char *message, const char *body)
{
    if (!j)
        return;
    jcase_t c = {dup0(classname), dup0(name), dup0(status), dup0(type),
                 dup0(message),   dup0(body), secs};
    pthread_mutex_lock(&j->lock);
    UTIL_PUSH(j->c, j->n, j->cap, c);
    pthread_mutex_unlock(&j->lock);
}

/* XML text: the five entities, and control characters XML 1.0 forbids dropped. */
static void xml_esc(strbuf_t *b, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '<': sb_puts(b, "&lt;"); break;
        case '>': sb_puts(b, "&gt;"); break;
        case '&': sb_puts(b, "&amp;"); break;
        case '"': sb_puts(b, "&quot;"); break;
        case '\'': sb_puts(b, "&apos;"); break;
        default:
            if (c >= 0x20 || c == '\n' || c == '\t')
                sb_putc(b, (char)c);
        }
    }
}

static int cmp_case(const void *a, const void *b)
{
    const jcase_t *x = a, *y = b;
    int r = strcmp(x->classname ? x->classname : "", y->classname ? y->classname : "");
    return r ? r : strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

int cli_junit_write(cli_junit_t *j, const char *path)
{
    if (!j)
        return CLI_OK;
    qsort(j->c, j->n, sizeof *j->c, cmp_case);
    size_t fails = 0, errors = 0, skipped = 0;
    double total = 0;
    for (size_t i = 0; i < j->n; i++) {
        const char *s = j->c[i].status;
        fails += s && !strcmp(s, "failure");
        errors += s && !strcmp(s, "error");
        skipped += s && !strcmp(s, "skipped");
        total += j->c[i].secs;
    }
    strbuf_t b;
    sb_init(&b);
    sb_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cohcheck\"");
    sb_printf(&b, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n", j->n, fails,
              errors, total);
    sb_puts(&b, "  <testsuite name=\"");
    xml_esc(&b, j->suite);
    sb_printf(&b,
              "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n",
              j->n, fails, errors, skipped, total);
    for (size_t i = 0; i < j->n; i++) {
        const jcase_t *c = &j->c[i];
        sb_puts(&b, "    <testcase classname=\"");
        xml_esc(&b, c->classname);
        sb_puts(&b, "\" name=\"");
        xml_esc(&b, c->name);
        sb_printf(&b, "\" time=\"%.3f\"", c->secs);
        if (!c->status) {
            sb_puts(&b, "/>\n");
            continue;
        }
        sb_printf(&b, ">\n      <%s", c->status);
        if (c->type) {
            sb_puts(&b, " type=\"");
            xml_esc(&b, c->type);
            sb_putc(&b, '"');
        }
        if (c->message) {
            sb_puts(&b, " message=\"");
            xml_esc(&b, c->message);
            sb_putc(&b, '"');
        }
        if (c->body) {
            sb_putc(&b, '>');
            xml_esc(&b, c->body);
            sb_printf(&b, "</%s>\n", c->status);
        } else {
            sb_puts(&b, "/>\n");
        }
        sb_puts(&b, "    </testcase>\n");
    }
    sb_puts(&b, "  </testsuite>\n</testsuites>\n");
    char *tmp = xmalloc(strlen(path) + 32);
    sprintf(tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int rc = CLI_OK;
    if (!f || fputs(b.s, f) < 0 || fclose(f) || rename(tmp, path)) {
        cli_error("--junit: cannot write '%s': %s", path, strerror(errno));
        unlink(tmp);
        rc = CLI_BAD_INPUT;
    }
    free(tmp);
    sb_free(&b);
    return rc;
}

int cli_junit_check(const char *path)
{
    if (!path)
        return CLI_OK;
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("--junit: '%s' is a folder, not a file", path);
        return CLI_BAD_INPUT;
    }
    if (cli_mkdirs_for(path))
        return CLI_BAD_INPUT;
    /* The report is written through PATH.tmpPID renamed over PATH: try exactly that. */
    char *tmp = xmalloc(strlen(path) + 32);
    sprintf(tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    int rc = CLI_OK;
    if (!f) {
        cli_error("--junit: cannot write '%s': %s", path, strerror(errno));
        rc = CLI_BAD_INPUT;
    } else {
        fclose(f);
        unlink(tmp);
    }
    free(tmp);
    return rc;
}

void cli_junit_free(cli_junit_t *j)
{
    if (!j)
        return;
    for (size_t i = 0; i < j->n; i++) {
        jcase_t *c = &j->c[i];
        free(c->classname);
        free(c->name);
        free(c->status);
        free(c->type);
        free(c->message);
        free(c->body);
    }
    free(j->c);
    free(j->suite);
    pthread_mutex_destroy(&j->lock);
    free(j);
}

/* GitHub's workflow command syntax: '%', CR and LF escaped in the message, and
 * also ',' and ':' in properties. */
static void gh_esc(strbuf_t *b, const char *s, bool prop)
{
    for (; s && *s; s++) {
        if (*s == '%')
            sb_puts(b, "%25");
        else if (*s == '\r')
            sb_puts(b, "%0D");
        else if (*s == '\n')
            sb_puts(b, "%0A");
        else if (prop && *s == ':')
            sb_puts(b, "%3A");
        else if (prop && *s == ',')
            sb_puts(b, "%2C");
        else
            sb_putc(b, *s);
    }
}

void cli_annotate(strbuf_t *b, const char *level, const char *file, int line, const char *title,
                  const char *msg)
{
    sb_printf(b, "::%s file=", level);
    gh_esc(b, file, true);
    if (line > 0)
        sb_printf(b, ",line=%d", line);
    if (title) {
        sb_puts(b, ",title=");
        gh_esc(b, title, true);
    }
    sb_puts(b, "::");
    gh_esc(b, msg, false);
    sb_putc(b, '\n');
}
