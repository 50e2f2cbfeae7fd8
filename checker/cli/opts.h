/* opts.h - the declared option table of every subcommand (opts.c) and the parser,
 * --help lists, man-page list and bash completion generated from it.
 * Invariant: a subcommand accepts exactly the options the table gives it, and its
 * --help, the man page's OPTIONS section and the completion list exactly those.
 * Adding an option is one entry in opts.c's table plus its case in the subcommand. */
#ifndef COHCHECK_CLI_OPTS_H
#define COHCHECK_CLI_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>

/* The subcommands, in `cohcheck --help` order ("store check" and "report timed" are
 * subcommands of their own). */
typedef enum {
    CLI_CMD_LITMUS,
    CLI_CMD_CHECK,
    CLI_CMD_COUNT,
    CLI_CMD_SHOW,
    CLI_CMD_TRACE,
    CLI_CMD_RESUME,
    CLI_CMD_DIFF,
    CLI_CMD_STORE_CHECK,
    CLI_CMD_DRAW,
    CLI_CMD_MUTATE,
    CLI_CMD_GEN,
    CLI_CMD_REGRESS,
    CLI_CMD_CLASSIFY,
    CLI_CMD_REPORT,
    CLI_CMD_REPORT_TIMED,
    CLI_CMD_EXPORT,
    CLI_CMD_SIM,
    CLI_CMD__N
} cli_cmd_t;
extern const char *const cli_cmd_names[CLI_CMD__N];
#define CLI_CMDS(c) (1u << (c))

typedef enum {
    CLI_ARG_FLAG,   /* no value */
    CLI_ARG_INT,    /* a whole number MIN..MAX */
    CLI_ARG_SIZE,   /* 512M, 2G, ... (cli_parse_size), > 0 */
    CLI_ARG_PATH,   /* a file or folder */
    CLI_ARG_ENUM,   /* one of VALUES ("cold|warm") */
    CLI_ARG_STRING, /* anything; the subcommand checks it (a list, a name, NAME=VALUE) */
} cli_arg_t;

/* What bash completion offers for the value. */
typedef enum {
    CLI_COMP_NONE,
    CLI_COMP_FILE,
    CLI_COMP_DIR,
    CLI_COMP_PROTOCOL,
    CLI_COMP_MODEL,
    CLI_COMP_WORKLOAD,
    CLI_COMP_MACHINE,
    CLI_COMP_VALUES, /* VALUES (ENUM), or the words of COMPWORDS */
} cli_comp_t;

typedef struct {
    const char *name;   /* long name without "--", or NULL (a short option only) */
    char shrt;          /* short name ('j', 'o', 'h') or 0 */
    int code;           /* what cli_getopt returns for it (unique within a subcommand) */
    cli_arg_t arg;      /* the value's type */
    long long min, max; /* CLI_ARG_INT's range */
    const char *meta;   /* the value's name in --help ("N", "FILE", "cold|warm") */
    const char *values; /* CLI_ARG_ENUM: "cold|warm" */
    cli_comp_t comp;    /* what completion offers for the value */
    const char *words;  /* CLI_COMP_VALUES for a non-enum value: suggestions */
    unsigned cmds;      /* the subcommands that take it: CLI_CMDS(c) | ... */
    const char *help;   /* one paragraph; --help wraps it */
} cli_opt_t;

extern const cli_opt_t cli_opts[];
extern const int cli_nopts;

/* The entry of option CODE in subcommand CMD, or NULL. */
const cli_opt_t *cli_opt_find(cli_cmd_t cmd, int code);

/* getopt_long over the table's options for CMD. Returns an entry's code with optarg
 * set (validated: an INT's range, a SIZE, an ENUM's values), -1 after the last option
 * (optind: the first operand), or CLI_GETOPT_BAD after one error line
 * ("CMD: --lines needs a whole number from 1 to 64, not '0'"): exit 2. */
enum { CLI_GETOPT_BAD = -2 };
/* The codes of the options with no letter of their own (the table's code field). */
enum {
    CLI_O_QUEUE_MEMORY = 0x5100,
    CLI_O_FINGERPRINT,
    CLI_O_ENV_FAIR,
    CLI_O_FAIRNESS,
    CLI_O_RESOLVED,
    CLI_O_READINGS,
    CLI_O_NO_REPLAY,
    CLI_O_PREDICT,
    CLI_O_LIVENESS, /* classify --liveness (its -L is --lattice) */
    CLI_O_MAX_TIME,
    CLI_O_CAT_LIBDIR, /* handled by cli_getopt itself: never returned */
};
typedef struct {
    cli_cmd_t cmd;
    bool started;
    char shortopts[64];
    struct option lo[64]; /* the getopt_long table, built on the first call */
    long long num;        /* CLI_ARG_INT: the value */
    uint64_t size;        /* CLI_ARG_SIZE: the value in bytes */
} cli_getopt_t;
void cli_getopt_init(cli_getopt_t *g, cli_cmd_t cmd);
int cli_getopt(cli_getopt_t *g, int argc, char **argv);

/* "512M", "2G", "1.5K", "4096": 0 with *OUT in bytes, -1 when not a positive size. */
int cli_parse_size(const char *s, uint64_t *out);

/* Print CMD's option list as --help shows it (two columns, wrapped at 88). */
void cli_opts_help(FILE *f, cli_cmd_t cmd);
/* Print HEAD, CMD's option list, then TAIL (either may be NULL): a --help text. */
void cli_usage(FILE *f, cli_cmd_t cmd, const char *head, const char *tail);

/* The generated documentation (`cohcheck _docs man|completion`): the man page's
 * OPTIONS section (roff) and the whole bash completion script. */
void cli_opts_man(FILE *f);
void cli_opts_completion(FILE *f);
int cmd_docs(int argc, char **argv);

#endif
