/* store_block.c - visited states packed into blocks (docs/architecture.md section 7).
 *
 * The states table holds one row per block of consecutive state numbers of
 * one run (at most STORE_BLOCK_STATES states or about STORE_BLOCK_BYTES), so
 * a million states cost a few hundred SQLite rows and no per-state index. A
 * block's data is its states in number order, each:
 *
 *   varint  zigzag(number - parent)     an initial state's parent -1 is fine
 *   varint  zigzag(depth)
 *   varint  label length, then the label
 *   8 bytes fingerprint, little-endian
 *   varint  encoding length, then util_delta_put of the encoding against the
 *           previous state's in the block (the first one's against zeros)
 *
 * Invariant: a block is read from its start; the writer and the reader keep
 * the previous encoding zero-padded, as the delta coding requires. */
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "store_impl.h"

static uint64_t zigzag(int64_t v)
{
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t v)
{
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

/* Make BASE (holding *LEN bytes, zero past them) hold NEED bytes rounded up to 8. */
static void base_room(uint8_t **base, size_t *cap, size_t need)
{
    need = (need + 15) & ~(size_t)7;
    if (need <= *cap)
        return;
    *base = xrealloc(*base, need);
    memset(*base + *cap, 0, need - *cap);
    *cap = need;
}

void store_block_reset(store_block_t *b, int64_t run, int64_t first)
{
    b->run = run;
    b->first = first;
    b->n = 0;
    b->len = 0;
    if (b->prevcap)
        memset(b->prev, 0, b->prevcap);
    b->prevlen = 0;
}

bool store_block_fits(const store_block_t *b, int64_t run, int64_t id)
{
    return b->n > 0 && b->run == run && id == b->first + b->n && b->n < STORE_BLOCK_STATES &&
           b->len < STORE_BLOCK_BYTES;
}

void store_block_add(store_block_t *b, int64_t id, int64_t parent, int depth, const void *label,
                     size_t label_len, uint64_t fp, const void *enc, size_t enc_len)
{
    util_grow((void **)&b->data, &b->cap, b->len + 48 + label_len + enc_len + enc_len / 8, 1);
    base_room(&b->prev, &b->prevcap, enc_len);
    uint8_t *p = b->data + b->len;
    size_t o = util_varint_put(p, zigzag(id - parent));
    o += util_varint_put(p + o, zigzag(depth));
    o += util_varint_put(p + o, label_len);
    if (label_len)
        memcpy(p + o, label, label_len);
    o += label_len;
    for (int k = 0; k < 8; k++)
        p[o++] = (uint8_t)(fp >> (8 * k));
    o += util_varint_put(p + o, enc_len);
    o += util_delta_put(p + o, b->prev, enc ? enc : "", enc_len);
    b->len += o;
    if (enc_len)
        memcpy(b->prev, enc, enc_len);
    if (b->prevlen > enc_len)
        memset(b->prev + enc_len, 0, b->prevlen - enc_len);
    b->prevlen = enc_len;
    b->n++;
}

void store_block_free(store_block_t *b)
{
    free(b->data);
    free(b->prev);
    memset(b, 0, sizeof *b);
}

void store_block_read_init(store_block_reader_t *r, int64_t first, const void *data, size_t len)
{
    r->p = data;
    r->end = r->p + len;
    r->id = first;
    if (r->prevcap)
        memset(r->prev, 0, r->prevcap);
    r->prevlen = 0;
}

int store_block_read(store_block_reader_t *r, store_state_t *st)
{
    if (r->p == r->end)
        return 0;
    uint64_t dparent, depth, llen, elen;
    if (util_varint_get(&r->p, r->end, &dparent) || util_varint_get(&r->p, r->end, &depth) ||
        util_varint_get(&r->p, r->end, &llen) || llen > (size_t)(r->end - r->p))
        return -1;
    st->id = r->id++;
    st->parent = st->id - unzigzag(dparent);
    st->depth = (int)unzigzag(depth);
    st->label = llen ? r->p : NULL;
    st->label_len = (size_t)llen;
    r->p += llen;
    if (r->end - r->p < 8)
        return -1;
    st->fp = 0;
    for (int k = 0; k < 8; k++)
        st->fp |= (uint64_t)r->p[k] << (8 * k);
    r->p += 8;
    /* A delta holds at least one bitmap bit per 8 bytes of the encoding. */
    if (util_varint_get(&r->p, r->end, &elen) || elen / 64 > (size_t)(r->end - r->p))
        return -1;
    base_room(&r->prev, &r->prevcap, (size_t)elen);
    r->p = util_delta_get(r->p, r->end, r->prev, (size_t)elen);
    if (!r->p)
        return -1;
    if (r->prevlen > elen)
        memset(r->prev + elen, 0, r->prevlen - elen);
    r->prevlen = (size_t)elen;
    st->enc = elen ? r->prev : NULL;
    st->enc_len = (size_t)elen;
    return 1;
}

void store_block_read_free(store_block_reader_t *r)
{
    free(r->prev);
    memset(r, 0, sizeof *r);
}
