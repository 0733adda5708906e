/* cache_io.c — hive_cache_save and hive_cache_load, and their _fd forms.
 *
 * The stream (format 1), in the machine's byte order (little-endian: hive
 * builds for no other, core/atomics.h):
 *   header   "HIVECACH", then uint32 format, dim, value_type, policy (24 bytes)
 *   chunks   uint64 count (1 .. chunk_entries(value bytes)), then count keys
 *            (uint64), count scores (uint64), count values (value bytes each)
 *   end      uint64 0
 * The entry count is not known when the header is written (the save runs
 * beside other readers, in chunks), hence the counted chunks.
 *
 * Chunks pass through one buffer of the backend's io memory
 * (cache_backend.h's alloc_io), which its calls take as table memory and the
 * host reads and writes directly: a save exports slots into it and writes
 * it out, a load reads into it and upserts from it. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "base/check.h"
#include "cache/cache_table.h"

#define IO_MAGIC "HIVECACH"
#define IO_FORMAT 1u
#define IO_HEADER_BYTES 24u
/* A chunk holds 2^16 entries, or fewer where the values are large, so that
 * its buffer stays within 64 MiB.  Part of the format: a load rejects a
 * longer chunk. */
#define IO_CHUNK_MAX (1u << 16)
#define IO_CHUNK_BYTES (1ull << 26)

static uint64_t chunk_entries(uint32_t value_bytes)
{
    uint64_t n = IO_CHUNK_BYTES / ((uint64_t)value_bytes + 2 * sizeof(uint64_t));
    return n < IO_CHUNK_MAX ? n : IO_CHUNK_MAX;
}

/* ---------------------------------------------------------------- chunk buffer */

typedef struct io_chunk {
    void *memory;          /* the backend's io memory, holding the three arrays */
    uint64_t *keys, *scores;
    uint8_t *values;
    uint64_t cap;          /* entries */
} io_chunk;

static hive_status chunk_alloc(const hive_cache *c, io_chunk *k, const char *call)
{
    *k = (io_chunk){0};
    k->cap = chunk_entries(c->value_bytes);
    size_t bytes = (size_t)(k->cap * (2 * sizeof(uint64_t) + c->value_bytes));
    k->memory = c->ops->alloc_io(c->impl, bytes);
    if (k->memory == NULL)
        return hive_fail(HIVE_ERROR_OUT_OF_MEMORY, call, "no memory for a %zu-byte chunk buffer", bytes);
    k->keys = k->memory;
    k->scores = k->keys + k->cap;
    k->values = (uint8_t *)(k->scores + k->cap);
    return HIVE_SUCCESS;
}

static void chunk_free(const hive_cache *c, io_chunk *k) { c->ops->free_io(c->impl, k->memory); }

/* ---------------------------------------------------------------- save */

static hive_status put(hive_cache_write_fn write_fn, void *context, const void *bytes, size_t size,
                       const char *call, const char *what)
{
    size_t took = write_fn(context, bytes, size);
    HIVE_CHECK_ARG(took == size, call, "short write of the %s: %zu of %zu bytes taken", what, took, size);
    return HIVE_SUCCESS;
}

static hive_status put_header(const hive_cache *c, hive_cache_write_fn write_fn, void *context,
                              const char *call)
{
    uint8_t h[IO_HEADER_BYTES];
    uint32_t fields[4] = {IO_FORMAT, c->config.dim, (uint32_t)c->config.value_type,
                          (uint32_t)c->config.policy};
    memcpy(h, IO_MAGIC, 8);
    memcpy(h + 8, fields, sizeof fields);
    return put(write_fn, context, h, sizeof h, call, "header");
}

static hive_status put_chunk(const hive_cache *c, const io_chunk *k, uint64_t n,
                             hive_cache_write_fn write_fn, void *context, const char *call)
{
    HIVE_TRY(put(write_fn, context, &n, sizeof n, call, "chunk count"));
    HIVE_TRY(put(write_fn, context, k->keys, (size_t)n * sizeof(uint64_t), call, "chunk's keys"));
    HIVE_TRY(put(write_fn, context, k->scores, (size_t)n * sizeof(uint64_t), call, "chunk's scores"));
    return put(write_fn, context, k->values, (size_t)n * c->value_bytes, call, "chunk's values");
}

/* Every chunk of slots, exported and written; *total counts the entries.
 * The caller holds the readers' lock. */
static hive_status save_chunks(hive_cache *c, const io_chunk *k, hive_cache_write_fn write_fn,
                               void *context, uint64_t *total, const char *call)
{
    uint64_t capacity = c->config.capacity;
    for (uint64_t offset = 0; offset < capacity; offset += k->cap) {
        uint64_t slots = capacity - offset < k->cap ? capacity - offset : k->cap;
        uint64_t n = 0;
        HIVE_TRY(c->ops->export_range(c->impl, offset, slots, &hive_cache_select_all, k->keys, k->values,
                                      k->scores, &n, NULL));
        if (n > 0)
            HIVE_TRY(put_chunk(c, k, n, write_fn, context, call));
        *total += n;
    }
    uint64_t end = 0;
    return put(write_fn, context, &end, sizeof end, call, "end mark");
}

/* A reader for the whole save, so that the stream is one state of the
 * cache: `write_fn` must not call a writer of the same cache (it would wait
 * for this save to end). */
static hive_status save_entered(hive_cache *c, hive_cache_write_fn write_fn, void *context, uint64_t *count,
                                const char *call)
{
    uint64_t total = 0;
    if (count != NULL)
        *count = 0;
    HIVE_CHECK_ARG(write_fn != NULL, call, "write is NULL");
    io_chunk k;
    HIVE_TRY(chunk_alloc(c, &k, call));
    hive_group_enter(&c->group, HIVE_GROUP_READERS);
    hive_status s = put_header(c, write_fn, context, call);
    if (s == HIVE_SUCCESS)
        s = save_chunks(c, &k, write_fn, context, &total, call);
    hive_group_leave(&c->group, HIVE_GROUP_READERS);
    chunk_free(c, &k);
    if (count != NULL)
        *count = total;
    return s;
}

/* ---------------------------------------------------------------- load */

/* Reads exactly `size` bytes, as many reads as that takes. */
static hive_status get(hive_cache_read_fn read_fn, void *context, void *bytes, size_t size, const char *call,
                       const char *what)
{
    size_t got = 0;
    while (got < size) {
        size_t r = read_fn(context, (uint8_t *)bytes + got, size - got);
        if (r == 0 || r > size - got)
            break;
        got += r;
    }
    HIVE_CHECK_ARG(got == size, call, "short read of the %s: the stream gave %zu of %zu bytes", what, got,
                   size);
    return HIVE_SUCCESS;
}

static hive_status get_header(const hive_cache *c, hive_cache_read_fn read_fn, void *context,
                              const char *call)
{
    uint8_t h[IO_HEADER_BYTES];
    uint32_t f[4]; /* format, dim, value_type, policy */
    HIVE_TRY(get(read_fn, context, h, sizeof h, call, "header"));
    memcpy(f, h + 8, sizeof f);
    HIVE_CHECK_ARG(memcmp(h, IO_MAGIC, 8) == 0, call, "the stream is not a saved hive cache (no HIVECACH)");
    HIVE_CHECK_ARG(f[0] == IO_FORMAT, call, "the stream is of format %u, this library reads %u", f[0],
                   IO_FORMAT);
    HIVE_CHECK_ARG(f[1] == c->config.dim && f[2] == (uint32_t)c->config.value_type, call,
                   "the stream holds values of dim %u, type %u; the cache's are dim %u, type %u", f[1],
                   f[2], c->config.dim, (unsigned)c->config.value_type);
    return HIVE_SUCCESS;
}

/* Reads a chunk into k and upserts it with its saved scores as they are
 * (policy CUSTOM); *n = 0 at the end mark.  A writer per chunk, so that
 * readers run between chunks while the stream is read. */
static hive_status load_chunk(hive_cache *c, const io_chunk *k, hive_cache_read_fn read_fn, void *context,
                              uint64_t *n, const char *call)
{
    HIVE_TRY(get(read_fn, context, n, sizeof *n, call, "chunk count"));
    if (*n == 0)
        return HIVE_SUCCESS;
    HIVE_CHECK_ARG(*n <= k->cap, call, "a chunk of %llu entries, over the %llu of format %u",
                   (unsigned long long)*n, (unsigned long long)k->cap, IO_FORMAT);
    HIVE_TRY(get(read_fn, context, k->keys, (size_t)*n * sizeof(uint64_t), call, "chunk's keys"));
    HIVE_TRY(get(read_fn, context, k->scores, (size_t)*n * sizeof(uint64_t), call, "chunk's scores"));
    HIVE_TRY(get(read_fn, context, k->values, (size_t)*n * c->value_bytes, call, "chunk's values"));
    hive_cache_batch b;
    memset(&b, 0, sizeof b);
    b.op = HIVE_CACHE_UPSERT;
    b.policy = HIVE_SCORE_CUSTOM;
    b.value_type = c->config.value_type;
    b.n = *n;
    b.keys = k->keys;
    b.values_in = k->values;
    b.scores_in = k->scores;
    hive_cache_outcome out;
    return hive_cache_run(c, &b, &out, NULL, call);
}

/* Entries of chunks read before a failure stay in the cache.  A chunk with
 * reserved keys (a damaged stream) is loaded without them, and the call
 * then returns RESERVED_KEY. */
static hive_status load_entered(hive_cache *c, hive_cache_read_fn read_fn, void *context, uint64_t *count,
                                const char *call)
{
    uint64_t total = 0;
    HIVE_CHECK_ARG(read_fn != NULL, call, "read is NULL");
    if (count != NULL)
        *count = 0;
    HIVE_TRY(get_header(c, read_fn, context, call));
    io_chunk k;
    HIVE_TRY(chunk_alloc(c, &k, call));
    hive_status kept = HIVE_SUCCESS, s;
    for (;;) {
        uint64_t n = 0;
        s = load_chunk(c, &k, read_fn, context, &n, call);
        if (s == HIVE_ERROR_RESERVED_KEY) {
            kept = s;
            s = HIVE_SUCCESS;
        }
        if (s != HIVE_SUCCESS || n == 0)
            break; /* a chunk cut short counts nothing: none of it was loaded */
        total += n;
    }
    chunk_free(c, &k);
    if (count != NULL)
        *count = total;
    return s != HIVE_SUCCESS ? s : kept;
}

/* ---------------------------------------------------------------- entry points */

hive_status hive_cache_save(hive_cache *cache, hive_cache_write_fn write, void *context, uint64_t *count)
{
    static const char call[] = "hive_cache_save";
    HIVE_CACHE_ENTERED(cache, call, save_entered(cache, write, context, count, call));
}

hive_status hive_cache_load(hive_cache *cache, hive_cache_read_fn read, void *context, uint64_t *count)
{
    static const char call[] = "hive_cache_load";
    HIVE_CACHE_ENTERED(cache, call, load_entered(cache, read, context, count, call));
}

/* The _fd forms: a file descriptor behind the callbacks, which name the
 * system's error first (the first failure is the one hive_last_error keeps). */
typedef struct fd_stream {
    int fd;
    const char *call;
} fd_stream;

static size_t write_fd(void *context, const void *bytes, size_t size)
{
    fd_stream *f = context;
    size_t done = 0;
    while (done < size) {
        ssize_t w = write(f->fd, (const uint8_t *)bytes + done, size - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            hive_fail(HIVE_ERROR_INVALID_ARGUMENT, f->call, "write to fd %d: %s", f->fd,
                      w < 0 ? strerror(errno) : "nothing taken");
            break;
        }
        done += (size_t)w;
    }
    return done;
}

static size_t read_fd(void *context, void *bytes, size_t size)
{
    fd_stream *f = context;
    for (;;) {
        ssize_t r = read(f->fd, bytes, size);
        if (r >= 0)
            return (size_t)r;
        if (errno != EINTR) {
            hive_fail(HIVE_ERROR_INVALID_ARGUMENT, f->call, "read from fd %d: %s", f->fd, strerror(errno));
            return 0;
        }
    }
}

/* A bad fd fails its first read or write (EBADF), named as any error. */
hive_status hive_cache_save_fd(hive_cache *cache, int fd, uint64_t *count)
{
    fd_stream f = {fd, "hive_cache_save_fd"};
    HIVE_CACHE_ENTERED(cache, f.call, save_entered(cache, write_fd, &f, count, f.call));
}

hive_status hive_cache_load_fd(hive_cache *cache, int fd, uint64_t *count)
{
    fd_stream f = {fd, "hive_cache_load_fd"};
    HIVE_CACHE_ENTERED(cache, f.call, load_entered(cache, read_fd, &f, count, f.call));
}
