/* rows.c - the row evaluator (rows.h), instantiated for 16-bit, 32-bit and
 * 128-bit slots. */
#include "rows.h"

#include <stdio.h>
#include <string.h>

#define ROWS_SLOT int16_t
#define ROWS_VAL int64_t
#define ROWS_UVAL uint64_t
#define ROWS_VMAX 32767
#define ROWS_SETBITS 15
#define ROWS_SETBITS_S "15"
#define ROWS(n) rows16_##n
#include "rows_impl.h"
#undef ROWS_SLOT
#undef ROWS_VAL
#undef ROWS_UVAL
#undef ROWS_VMAX
#undef ROWS_SETBITS
#undef ROWS_SETBITS_S
#undef ROWS

#define ROWS_SLOT int32_t
#define ROWS_VAL int64_t
#define ROWS_UVAL uint64_t
#define ROWS_VMAX 2147483647
#define ROWS_SETBITS 31
#define ROWS_SETBITS_S "31"
#define ROWS(n) rows32_##n
#include "rows_impl.h"
#undef ROWS_SLOT
#undef ROWS_VAL
#undef ROWS_UVAL
#undef ROWS_VMAX
#undef ROWS_SETBITS
#undef ROWS_SETBITS_S
#undef ROWS

/* Data and counters keep the 32-bit range: a run gives the same values at any width. */
#define ROWS_SLOT rows_i128
#define ROWS_VAL rows_i128
#define ROWS_UVAL rows_u128
#define ROWS_VMAX 2147483647
#define ROWS_SETBITS ROWS_WIDE_SETBITS
#define ROWS_SETBITS_S "128"
#define ROWS(n) rows128_##n
#include "rows_impl.h"
