/* rows.h - private to checker/sys and checker/sim: the row evaluator (row
 * selection, guards and expressions, actions), shared by the explorer (sys.c)
 * and the timed simulator (sim/) so that a row means the same in both.
 * It reaches storage only through a narrow interface: pointers to the current
 * line record, the instance's variables, the requesting thread's registers and
 * the message being received, and callbacks for what touches other storage
 * (sends, another instance's line, bulk line moves, completing another thread).
 *
 * One source, three slot types: rows16_* works on int16_t slots (the explorer's
 * compact states), rows32_* on int32_t slots (the simulator's raw cycle
 * timestamps and large counters), rows128_* on 128-bit slots (the simulator on
 * machines of more than 31 compute units: nodesets of up to 128). Only the range
 * of a slot and of a set differs; data and counters keep the 32-bit range. */
#ifndef COHCHECK_ROWS_H
#define COHCHECK_ROWS_H

#include <stdbool.h>
#include <stdint.h>

#include "../prog/prog.h"
#include "../proto/proto.h"
#include "sys.h"

/* What the evaluator needs to know of the system's layout (read-only). */
typedef struct {
    const proto_t *p;
    const prog_t *prog;
    int ninst, nthreads, maxlocs;
    int mw;               /* message record width in slots (header included), at most 256 */
    const int *inst_ctrl; /* per instance: its controller */
    const int *inst_cu;   /* per instance: its compute unit, -1: shared */
    const int *loc_line;  /* per location: its line */
    const int *locpos;    /* per location: its position within its line */
    int *const *lv_off;   /* per controller, per line var: offset in the line record */
    int *const *cv_off;   /* per controller, per ctrl var: offset in the variables */
    int *const *msg_foff; /* per message, per field: offset after the 2-slot header */
    int *const *ev_rows;  /* per controller * nevents + event: row indices, -1 ended */
    int ncus;             /* compute units of the run: the bound of int(LO..ncus) */
    /* per controller: its instances in increasing order, -1 ended; NULL (the explorer):
       a send to a controller's instances scans every instance */
    int *const *ctrl_insts;
} rows_layout_t;

/* The wide slot: a 128-bit integer (a GCC/Clang extension). Sets are shifted
 * as rows_u128, so bit 127 (the 128th compute unit) is never a signed shift. */
__extension__ typedef __int128 rows_i128;
__extension__ typedef unsigned __int128 rows_u128;
#define ROWS_WIDE_SETBITS 128 /* compute units a rows128_ nodeset holds */

#define ROWS_SLOT int16_t
#define ROWS_VAL int64_t
#define ROWS(n) rows16_##n
#include "rows_decl.h"
#undef ROWS_SLOT
#undef ROWS_VAL
#undef ROWS

#define ROWS_SLOT int32_t
#define ROWS_VAL int64_t
#define ROWS(n) rows32_##n
#include "rows_decl.h"
#undef ROWS_SLOT
#undef ROWS_VAL
#undef ROWS

#define ROWS_SLOT rows_i128
#define ROWS_VAL rows_i128
#define ROWS(n) rows128_##n
#include "rows_decl.h"
#undef ROWS_SLOT
#undef ROWS_VAL
#undef ROWS

#endif
