/* rows.c - the row evaluator (rows.h), instantiated for 16-bit and 32-bit slots. */
#include "rows.h"

#include <stdio.h>
#include <string.h>

#define ROWS_SLOT int16_t
#define ROWS_VMAX 32767
#define ROWS_SETBITS 15
#define ROWS(n) rows16_##n
#include "rows_impl.h"
#undef ROWS_SLOT
#undef ROWS_VMAX
#undef ROWS_SETBITS
#undef ROWS

#define ROWS_SLOT int32_t
#define ROWS_VMAX 2147483647
#define ROWS_SETBITS 31
#define ROWS(n) rows32_##n
#include "rows_impl.h"
