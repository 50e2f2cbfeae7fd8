/* fault.c - counted fault injection for the fault build (see fault.h).
 * Invariant: the counters only grow; a fault fires for exactly the calls whose
 * 1-based number is N (or N and above with "N+"), whatever the thread. */
#include "fault.h"

#ifdef COHCHECK_FAULT

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const kind_names[FAULT_NKINDS] = {"alloc", "read", "write",
                                                     "sync",  "lock", "spill"};

static pthread_once_t once = PTHREAD_ONCE_INIT;
static atomic_ullong count[FAULT_NKINDS];
static unsigned long long target[FAULT_NKINDS]; /* 0: never */
static bool sticky[FAULT_NKINDS];               /* "N+": from N on */
static char log_path[512];

/* Append LINE to the log with plain system calls (no allocation: this runs
 * where allocation has just failed). */
static void log_line(const char *line)
{
    if (!log_path[0])
        return;
    int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0)
        return;
    ssize_t w = write(fd, line, strlen(line));
    (void)w;
    close(fd);
}

static void at_exit(void)
{
    char line[256];
    int n = snprintf(line, sizeof line, "count");
    for (int k = 0; k < FAULT_NKINDS; k++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s %llu", kind_names[k],
                      (unsigned long long)atomic_load(&count[k]));
    snprintf(line + n, sizeof line - (size_t)n, "\n");
    log_line(line);
}

/* "N" or "N+" into target/sticky of KIND. */
static void parse_n(fault_kind_t kind, const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s)
        return;
    target[kind] = v;
    sticky[kind] = *end == '+';
}

static void init(void)
{
    const char *lp = getenv("COHCHECK_FAULT_LOG");
    if (lp)
        snprintf(log_path, sizeof log_path, "%s", lp);
    const char *a = getenv("COHCHECK_FAULT_ALLOC");
    if (a)
        parse_n(FAULT_ALLOC, a);
    const char *io = getenv("COHCHECK_FAULT_IO");
    const char *colon = io ? strchr(io, ':') : NULL;
    for (int k = 1; colon && k < FAULT_NKINDS; k++)
        if (strlen(kind_names[k]) == (size_t)(colon - io) &&
            !strncmp(io, kind_names[k], (size_t)(colon - io)))
            parse_n((fault_kind_t)k, colon + 1);
    atexit(at_exit);
}

bool fault_hit(fault_kind_t kind)
{
    pthread_once(&once, init);
    unsigned long long n = atomic_fetch_add(&count[kind], 1) + 1;
    unsigned long long t = target[kind];
    if (!t || n < t || (n > t && !sticky[kind]))
        return false;
    if (n > t)
        return true; /* logged once, at N */
    char line[64];
    snprintf(line, sizeof line, "fired %s %llu\n", kind_names[kind], n);
    log_line(line);
    return true;
}

#else
/* ISO C forbids an empty translation unit. */
typedef int fault_unused_t;
#endif
