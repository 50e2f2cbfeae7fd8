/* proto_int.h - private to checker/proto: the parser state shared by the
 * loader's files. proto_lex.c holds the lexer rules, token helpers and
 * name lookups; proto_parse.c the declarations and the two-pass driver;
 * proto_row.c table rows and actions; proto_expr.c expressions, name
 * resolution and types; proto.c frees and queries a loaded protocol.
 *
 * The loader reads the token stream twice. Pass 1 checks the syntax of the
 * whole file and records every declaration (params, networks, messages,
 * controllers with their states, variables and events, core maps), so that
 * pass 2 can resolve names used before their declaration (a row sending to a
 * controller declared further down, rows for core events named only in the
 * core section). Pass 2 re-reads the same tokens, resolves and type-checks
 * every use, and stores rows and invariants.
 * Invariant: pass 2 only runs on a file pass 1 accepted, so it never meets a
 * syntax error, and the k-th declaration it reads is the k-th pass 1 stored. */
#ifndef COHCHECK_PROTO_INT_H
#define COHCHECK_PROTO_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "../lex/lex.h"
#include "proto.h"

#define PROTO_MAX_DEPTH 200     /* expression nesting */
#define PROTO_MAX_INT 100000000 /* largest integer literal */
/* Events in one row: each becomes its own proto_row_t with its own copy of
 * the actions, so this bounds the tables at a constant times the file size. */
#define PROTO_MAX_ROW_EVENTS 64

enum {
    T_ID = 1,
    T_INT,
    T_STRING,
    T_BADSTRING,
    T_BADCOMMENT,
    T_BAD, /* any other byte: reported where the parser meets it */
    T_PERCU,
    T_LBRACE,
    T_RBRACE,
    T_LPAREN,
    T_RPAREN,
    T_LBRACK,
    T_RBRACK,
    T_COMMA,
    T_SEMI,
    T_OROR,
    T_BAR,
    T_ANDAND,
    T_ASSIGN,
    T_COLON,
    T_EQEQ,
    T_NE,
    T_LE,
    T_GE,
    T_LT,
    T_GT,
    T_EQ,
    T_NOT,
    T_PLUS,
    T_ARROW,
    T_MINUS,
    T_DOTDOT,
    T_DOT,
    T_STAR,
    T_EOL, /* synthetic: the end of a table line */
};

/* Where an expression is read: what its names may refer to. */
typedef enum {
    PROTO_CTX_ROW,   /* a row of controller ps->ctrl, for event ps->ev */
    PROTO_CTX_INV,   /* an invariant: params, count(...), line */
    PROTO_CTX_CONST, /* a variable's initial value: literals and params */
} proto_ctx_t;

/* An index of names to small integers; keys are borrowed (the names the
 * tables own), so lookups cost O(1) however many names a file declares. */
typedef struct {
    struct proto_name_slot {
        const char *key; /* NULL: empty */
        int val;
    } * slot;
    size_t n, cap;
} proto_names_t;

#define PROTO_VAR_CTRL (1 << 30) /* in a controller's variable index: a ctrl var */
#define PROTO_MAX_FIELDS 64      /* per message */

/* A named (non-message) event collected in pass 1, in file order. */
typedef struct {
    char *name;
    proto_event_kind_t kind;
    bool line;
    int tok;  /* token of its first declaration or map use */
    int ctrl; /* controller of its last 'event' declaration, -1 for core events */
} proto_named_t;

/* A run of the token stream read from one file: a variant's base comes
 * before the variant (docs/protocol-language.md, Variants). */
typedef struct {
    size_t off; /* first byte in the combined source */
    char *file;
} proto_seg_t;

#define PROTO_MAX_EXTENDS 16 /* depth of a chain of 'extends' */

typedef struct {
    const char *file;
    const char *src;
    size_t len;
    lex_tok_t *toks;
    int ntoks;
    int pos;
    int limit;     /* tokens at or after this index read as T_EOL */
    lex_tok_t eol; /* what peeking at the limit returns */
    diag_t *err;
    proto_t *p;
    int pass; /* 1 or 2 */
    int depth;
    /* context of the expression or row being read */
    proto_ctx_t ctx;
    int ctrl;      /* current controller, -1 outside one */
    int ev;        /* event of the row being read (pass 2), -1 otherwise */
    bool line_row; /* the row names states: line-level terms are available */
    /* capacities of the arrays being grown */
    size_t cap_params, cap_nets, cap_msgs, cap_ctrls, cap_maps, cap_invs;
    size_t cap_linevars, cap_ctrlvars, cap_rows; /* of the current controller */
    /* name indexes over the tables built in pass 1 */
    proto_names_t ix_params, ix_nets, ix_msgs, ix_ctrls, ix_named, ix_invs;
    proto_names_t *ix_vars; /* per controller: line vars i, ctrl vars PROTO_VAR_CTRL | i */
    size_t cap_ix_vars;
    /* pass 1 scratch */
    proto_named_t *named;
    int nnamed;
    size_t cap_named;
    int core_tok; /* the controller name after 'core', -1: no core section */
    int core_section;
    int target_section; /* the section that set the target, -1: none */
    int final_section;  /* the section whose 'final' list is being built (pass 2), -1: none */
    bool seen_outstanding;
    bool seen_local;
    bool seen_init, seen_warm; /* in the current controller */
    /* variants: the files the combined source came from, and the protocol
     * section being read (0: the base of every 'extends'; each further
     * 'protocol ... extends' header starts the next section) */
    proto_seg_t *segs;
    int nsegs;
    const char *const *lib; /* folders to look for a base in when it is not beside the file
                               (NULL-ended; NULL: none) */
    int section;
    int *map_section; /* per map: the section that wrote it */
    int **map_toks;   /* per map: the tokens of its events (errors after pass 2) */
    size_t cap_map_meta;
    int *ctrl_section; /* per controller: the section that last opened it (pass 1) */
    /* readings: the item a 'reading' would mark (kind, its first token, the
     * token after its key) and the readings seen in this pass */
    proto_reading_kind_t last_kind;
    int last_start, last_key_end;
    int nread;
    size_t cap_readings;
    size_t cap_preds, cap_prules; /* predictors and their rules (pass 2) */
    /* pass 2 scratch */
    uint64_t **reach; /* per controller, per event: cells already taken by an unguarded row */
    uint64_t *over;   /* per event: cells of the current controller this section overrides */
} proto_parser_t;

/* ---- tokens (proto_lex.c) ---- */
/* Tokenise ps->src, after the bases its 'extends' names (read from disk
 * beside ps->file, recursively), into ps->toks and ps->segs; *COMBINED is
 * the source the tokens point into (the bases, then ps->src). -1 with an
 * error when a base cannot be read. */
int proto_lex(proto_parser_t *ps, char **combined, size_t *combined_len);
/* The file the byte at OFF of the combined source came from. */
const char *proto_file_at(const proto_parser_t *ps, size_t off);
const lex_tok_t *proto_peek(const proto_parser_t *ps);
const lex_tok_t *proto_peek2(const proto_parser_t *ps); /* the token after the next */
const lex_tok_t *proto_next(proto_parser_t *ps);
bool proto_is(const proto_parser_t *ps, const lex_tok_t *t, const char *word);
bool proto_tok_eq(const proto_parser_t *ps, const lex_tok_t *t, const char *name);
int proto_tok_index(const proto_parser_t *ps, const lex_tok_t *t);
char *proto_tok_str(const proto_parser_t *ps, const lex_tok_t *t);
/* Fill the diagnostic at T; returns -1. */
int proto_fail(proto_parser_t *ps, const lex_tok_t *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int proto_fail_pos(proto_parser_t *ps, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* "expected WHAT, found X" at the next token (bad tokens report themselves). */
int proto_expected(proto_parser_t *ps, const char *what);
int proto_expect(proto_parser_t *ps, int kind, const char *what);
int proto_expect_word(proto_parser_t *ps, const char *word);
int proto_int_value(proto_parser_t *ps, const lex_tok_t *t, int *v);
int proto_signed_int(proto_parser_t *ps, int *v); /* INT with an optional '-' */
int proto_expect_id(proto_parser_t *ps, const char *what, const lex_tok_t **t);

/* ---- name indexes and lookups (proto_lex.c): index of the name at T, or -1 ---- */
void proto_names_add(proto_names_t *t, const char *key, int val);
int proto_names_find(const proto_names_t *t, const char *s, size_t len);
void proto_names_free(proto_names_t *t);
int proto_find_param(const proto_parser_t *ps, const lex_tok_t *t);
int proto_find_named(const proto_parser_t *ps, const lex_tok_t *t);
int proto_find_state(const proto_ctrl_t *c, const proto_parser_t *ps, const lex_tok_t *t);
int proto_find_ctrl(const proto_parser_t *ps, const lex_tok_t *t);
int proto_find_msg(const proto_parser_t *ps, const lex_tok_t *t);
int proto_find_event(const proto_parser_t *ps, const lex_tok_t *t);

/* ---- expressions (proto_expr.c) ---- */
int proto_parse_expr(proto_parser_t *ps, proto_expr_t **out);
/* Type checks: no-ops in pass 1. WHAT names the use in the message. */
int proto_need_value(proto_parser_t *ps, const proto_expr_t *e, const char *what);
int proto_need_data(proto_parser_t *ps, const proto_expr_t *e, const char *what);
int proto_need_type(proto_parser_t *ps, const proto_expr_t *e, proto_type_t ty, const char *what);
/* An error when E is a time (where times have no meaning: done, apply, indexes, logic). */
int proto_no_time(proto_parser_t *ps, const proto_expr_t *e, const char *what);
void proto_type_name(proto_type_t ty, char *buf, size_t n);
bool proto_reserved(const char *name);
/* Resolve variable name T in the current context: 0 with *LINE_VAR and *VAR,
 * 1 for a param (*VAR its index), -1 with an error (undeclared, or a line
 * variable where there is no line). */
int proto_resolve_var(proto_parser_t *ps, const lex_tok_t *t, bool *line_var, int *var);

/* ---- rows (proto_row.c) ---- */
int proto_parse_row(proto_parser_t *ps);
int proto_parse_remove(proto_parser_t *ps); /* 'remove STATES | EVENTS' in a variant */
/* STATES '|' EVENTS, the first two columns of a row: *STATES and the events *EVS
 * (pass 2, malloc'd, *NEVS of them), *LINE_ROW false for '-'. */
int proto_row_cells(proto_parser_t *ps, uint64_t *states, bool *line_row, int **evs, int *nevs);

/* ---- predictors (proto_pred.c) ---- */
int proto_parse_predict(proto_parser_t *ps); /* 'predict PARAM per ... range LO..HI ...' */
int proto_parse_on(proto_parser_t *ps);      /* 'on STATES | EVENTS | GUARD | UPDATE ...' */
void proto_preds_free(proto_t *p);

/* ---- freeing (proto.c) ---- */
void proto_expr_free(proto_expr_t *e);
void proto_action_clear(const proto_t *p, proto_action_t *a);
void proto_row_clear(const proto_t *p, proto_row_t *r); /* frees R's guard and actions */

#endif
