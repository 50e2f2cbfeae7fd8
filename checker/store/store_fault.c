/* store_fault.c - the fault build's hooks into SQLite (see base/fault.h):
 * SQLite's allocator counted as allocations (SQLITE_CONFIG_MALLOC), and a VFS
 * shim over the default one whose read, write, sync and lock calls are counted
 * and fail when their number comes up (SQLITE_IOERR_READ, _WRITE, _FSYNC,
 * _LOCK), the way SQLite's own test VFS does. Everything else passes through.
 *
 * Invariant: installed once, before SQLite is first used (store_fault_install
 * is the program's first call); in other builds it does nothing. */
#include "store.h"

#ifdef COHCHECK_FAULT

#include <sqlite3.h>
#include <string.h>

#include "../base/fault.h"

static sqlite3_mem_methods base_mem;
static sqlite3_vfs *real_vfs;
static sqlite3_vfs shim_vfs;

static void *f_malloc(int n)
{
    return fault_hit(FAULT_ALLOC) ? NULL : base_mem.xMalloc(n);
}

static void *f_realloc(void *p, int n)
{
    return fault_hit(FAULT_ALLOC) ? NULL : base_mem.xRealloc(p, n);
}

typedef struct {
    sqlite3_file base;
    sqlite3_file *real; /* follows this struct, real_vfs->szOsFile bytes */
} shim_file_t;

#define REAL(f) (((shim_file_t *)(f))->real)

static int s_close(sqlite3_file *f)
{
    return REAL(f)->pMethods->xClose(REAL(f));
}

static int s_read(sqlite3_file *f, void *buf, int n, sqlite3_int64 off)
{
    if (fault_hit(FAULT_READ))
        return SQLITE_IOERR_READ;
    return REAL(f)->pMethods->xRead(REAL(f), buf, n, off);
}

static int s_write(sqlite3_file *f, const void *buf, int n, sqlite3_int64 off)
{
    if (fault_hit(FAULT_WRITE))
        return SQLITE_IOERR_WRITE;
    return REAL(f)->pMethods->xWrite(REAL(f), buf, n, off);
}

static int s_truncate(sqlite3_file *f, sqlite3_int64 size)
{
    return REAL(f)->pMethods->xTruncate(REAL(f), size);
}

static int s_sync(sqlite3_file *f, int flags)
{
    if (fault_hit(FAULT_SYNC))
        return SQLITE_IOERR_FSYNC;
    return REAL(f)->pMethods->xSync(REAL(f), flags);
}

static int s_size(sqlite3_file *f, sqlite3_int64 *size)
{
    return REAL(f)->pMethods->xFileSize(REAL(f), size);
}

static int s_lock(sqlite3_file *f, int level)
{
    if (fault_hit(FAULT_LOCK))
        return SQLITE_IOERR_LOCK;
    return REAL(f)->pMethods->xLock(REAL(f), level);
}

static int s_unlock(sqlite3_file *f, int level)
{
    return REAL(f)->pMethods->xUnlock(REAL(f), level);
}

static int s_reserved(sqlite3_file *f, int *out)
{
    return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out);
}

static int s_fcntl(sqlite3_file *f, int op, void *arg)
{
    return REAL(f)->pMethods->xFileControl(REAL(f), op, arg);
}

static int s_sector(sqlite3_file *f)
{
    return REAL(f)->pMethods->xSectorSize(REAL(f));
}

static int s_devchar(sqlite3_file *f)
{
    return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f));
}

static int s_shm_map(sqlite3_file *f, int pg, int pgsz, int extend, void volatile **pp)
{
    return REAL(f)->pMethods->xShmMap(REAL(f), pg, pgsz, extend, pp);
}

/* WAL-index locks pass through: SQLite retries a failing one for about 10 s
 * before it gives up (SQLITE_PROTOCOL), too slow to sample; file locks are counted. */
static int s_shm_lock(sqlite3_file *f, int off, int n, int flags)
{
    return REAL(f)->pMethods->xShmLock(REAL(f), off, n, flags);
}

static void s_shm_barrier(sqlite3_file *f)
{
    REAL(f)->pMethods->xShmBarrier(REAL(f));
}

static int s_shm_unmap(sqlite3_file *f, int del)
{
    return REAL(f)->pMethods->xShmUnmap(REAL(f), del);
}

static int s_fetch(sqlite3_file *f, sqlite3_int64 off, int n, void **pp)
{
    return REAL(f)->pMethods->xFetch(REAL(f), off, n, pp);
}

static int s_unfetch(sqlite3_file *f, sqlite3_int64 off, void *p)
{
    return REAL(f)->pMethods->xUnfetch(REAL(f), off, p);
}

static const sqlite3_io_methods shim_io = {
    3,          s_close,       s_read,      s_write, s_truncate, s_sync,    s_size,
    s_lock,     s_unlock,      s_reserved,  s_fcntl, s_sector,   s_devchar, s_shm_map,
    s_shm_lock, s_shm_barrier, s_shm_unmap, s_fetch, s_unfetch,
};

static int s_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *out)
{
    (void)vfs;
    shim_file_t *sf = (shim_file_t *)f;
    sf->real = (sqlite3_file *)(sf + 1);
    f->pMethods = NULL;
    int rc = real_vfs->xOpen(real_vfs, name, sf->real, flags, out);
    if (sf->real->pMethods)
        f->pMethods = &shim_io;
    return rc;
}

int store_fault_install(void)
{
    if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &base_mem) != SQLITE_OK)
        return -1;
    sqlite3_mem_methods m = base_mem;
    m.xMalloc = f_malloc;
    m.xRealloc = f_realloc;
    if (sqlite3_config(SQLITE_CONFIG_MALLOC, &m) != SQLITE_OK)
        return -1;
    real_vfs = sqlite3_vfs_find(NULL);
    if (!real_vfs || real_vfs->iVersion < 2)
        return -1;
    shim_vfs = *real_vfs;
    shim_vfs.zName = "cohcheck-fault";
    shim_vfs.szOsFile = (int)sizeof(shim_file_t) + real_vfs->szOsFile;
    shim_vfs.xOpen = s_open;
    shim_vfs.pNext = NULL;
    return sqlite3_vfs_register(&shim_vfs, 1) == SQLITE_OK ? 0 : -1;
}

#else

int store_fault_install(void)
{
    return 0;
}

#endif
