/* diag.c - diagnostics records (see diag.h). */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void diag_set(diag_t *d, const char *file, int line, int col, const char *fmt, ...)
{
    if (!d)
        return;
    snprintf(d->file, sizeof d->file, "%s", file ? file : "");
    d->line = line;
    d->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
}

void diag_format(const diag_t *d, char *buf, size_t len)
{
    if (d->file[0] && d->line > 0)
        snprintf(buf, len, "%s:%d:%d: %s", d->file, d->line, d->col > 0 ? d->col : 1, d->msg);
    else if (d->file[0])
        snprintf(buf, len, "%s: %s", d->file, d->msg);
    else
        snprintf(buf, len, "%s", d->msg);
}
