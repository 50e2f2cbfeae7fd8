/* diag.h - diagnostics: one "FILE:LINE:COL: message" record per failure.
 * Library code never prints; it fills a diag_t and returns non-zero. */
#ifndef COHCHECK_DIAG_H
#define COHCHECK_DIAG_H

#include <stddef.h>

#define DIAG_FILE_MAX 512
#define DIAG_MSG_MAX 512

typedef struct {
    char file[DIAG_FILE_MAX]; /* source name, "" when there is none */
    int line;                 /* 1-based; 0 when not about a position */
    int col;                  /* 1-based; 0 when not about a position */
    char msg[DIAG_MSG_MAX];
} diag_t;

/* Fill D (may be NULL: then nothing happens) with a positioned message. */
void diag_set(diag_t *d, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Render D as "FILE:LINE:COL: msg" (or "FILE: msg", or "msg") into BUF. */
void diag_format(const diag_t *d, char *buf, size_t len);

#endif
