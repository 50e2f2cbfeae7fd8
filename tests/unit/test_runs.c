/* test_runs.c - unit tests for the run coding of byte strings (checker/base/util.c,
 * util_runs_*: check --threads' queued states): a hand-checked encoding, skips past
 * 255 bytes, runs longer than 255, lengths that grow and shrink, the "not shorter"
 * refusal, and a seeded round trip over random strings with sparse changes. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>

#include "../../checker/base/util.h"

/* encode CUR against PREV, check the size, decode from PREV's bytes: CUR again */
static size_t round_trip(const uint8_t *prev, size_t plen, const uint8_t *cur, size_t len)
{
    uint8_t out[4096], buf[4096];
    cr_assert(len < sizeof out && plen < sizeof buf);
    size_t n = util_runs_put(out, prev, plen, cur, len);
    if (!n)
        return 0;
    cr_assert_lt(n, len, "the runs are shorter than the string");
    cr_assert_eq(util_runs_len(out), n);
    memset(buf, 0xa5, sizeof buf);
    memcpy(buf, prev, plen);
    util_runs_apply(out, buf, plen, len);
    cr_assert(!memcmp(buf, cur, len), "decoded as encoded (plen %zu, len %zu)", plen, len);
    return n;
}

Test(runs, hand_checked)
{
    uint8_t prev[40], cur[40], out[40];
    for (int i = 0; i < 40; i++)
        prev[i] = cur[i] = (uint8_t)i;
    cur[3] = 100;
    cur[5] = 101; /* a gap of one equal byte (4) joins the run */
    cur[30] = 102;
    size_t n = util_runs_put(out, prev, 40, cur, 40);
    const uint8_t want[] = {3, 3, 100, 4, 101, 24, 1, 102, 0, 0};
    cr_assert_eq(n, sizeof want);
    cr_assert(!memcmp(out, want, sizeof want));
    cr_assert_eq(round_trip(prev, 40, cur, 40), sizeof want);
}

Test(runs, equal_strings_end_at_once)
{
    uint8_t a[64] = {1, 2, 3};
    uint8_t out[64];
    cr_assert_eq(util_runs_put(out, a, 64, a, 64), 2);
    cr_assert_eq(out[0], 0);
    cr_assert_eq(out[1], 0);
}

Test(runs, long_skips_and_long_runs)
{
    static uint8_t prev[2000], cur[2000];
    for (int i = 0; i < 2000; i++)
        prev[i] = cur[i] = (uint8_t)(i * 7);
    cur[700] ^= 1;                    /* 700 = 255 + 255 + 190: two skip pairs first */
    for (int i = 1000; i < 1600; i++) /* 600 changed bytes: runs of 255, 255, 90 */
        cur[i] ^= 0xff;
    cur[1999] ^= 2;
    size_t n = round_trip(prev, 2000, cur, 2000);
    /* (255,0) x2, a run of 1; (255,0), runs of 255, 255, 90; (255,0), a run of 1; the end */
    cr_assert_eq(n, 2 * 2 + (2 + 1) + 2 + 3 * 2 + 600 + 2 + (2 + 1) + 2);
}

Test(runs, lengths_grow_and_shrink)
{
    uint8_t a[300], b[300];
    for (int i = 0; i < 300; i++)
        a[i] = b[i] = (uint8_t)(i | 1);
    b[10] = 0;
    round_trip(a, 100, b, 300); /* past PREV's length it reads as zero */
    round_trip(a, 300, b, 100);
    uint8_t z[300] = {0};
    z[5] = 9;
    /* a longer string of zeros past PREV: only byte 5 differs */
    cr_assert_eq(round_trip(a, 0, z, 300), 2 + 1 + 2);
}

Test(runs, refused_when_not_shorter)
{
    uint8_t a[8] = {0}, b[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8];
    cr_assert_eq(util_runs_put(out, a, 8, b, 8), 0);
    cr_assert_eq(util_runs_put(out, a, 8, a, 2), 0, "(0, 0) alone is not shorter than 2");
    cr_assert_eq(util_runs_put(out, a, 0, a, 0), 0);
}

Test(runs, seeded_round_trips)
{
    uint64_t r = 0x9e3779b97f4a7c15ull;
#define NEXT() (r ^= r << 13, r ^= r >> 7, r ^= r << 17, r)
    static uint8_t prev[3000], cur[3000];
    size_t coded = 0;
    for (int t = 0; t < 4000; t++) {
        size_t plen = NEXT() % 3000, len = NEXT() % 3000;
        for (size_t i = 0; i < plen; i++)
            prev[i] = (uint8_t)(NEXT() % 4);
        for (size_t i = 0; i < len; i++)
            cur[i] = i < plen ? prev[i] : 0;
        size_t changes = NEXT() % (t % 3 ? 8 : 400);
        for (size_t k = 0; k < changes && len; k++) {
            size_t at = NEXT() % len, span = 1 + NEXT() % (t % 5 ? 3 : 300);
            for (size_t i = at; i < at + span && i < len; i++)
                cur[i] = (uint8_t)NEXT();
        }
        coded += round_trip(prev, plen, cur, len) != 0;
    }
    cr_assert_gt(coded, 2000, "most strings with sparse changes are coded");
#undef NEXT
}
