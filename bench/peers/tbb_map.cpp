/* tbb_map.cpp — tbb::concurrent_hash_map for cpu-compare (see tbb_map.h).
 * Each operation is the map's own per-key call: insert(value_type) (insert
 * if absent), find(const_accessor) (a read lock on the element while its
 * value is copied out), erase(key).  The map is built with buckets reserved
 * for the batch's keys, so no timed call rehashes; its std::hash is the
 * identity on integers, which TBB's own bucket hashing (tbb_hash_compare)
 * then mixes. */
#include "tbb_map.h"

#include <atomic>
#include <exception>
#include <new>
#include <thread>
#include <vector>

#include <oneapi/tbb/concurrent_hash_map.h>

#include "hive.h"

namespace {

typedef tbb::concurrent_hash_map<uint32_t, uint32_t> map32;
typedef tbb::concurrent_hash_map<uint64_t, uint64_t> map64;

/* One slice of a batch on a map of key type Map::key_type.  An exception
 * (std::bad_alloc for a node) must not leave the thread: it sets *failed. */
template <typename Map>
void run_slice(Map *map, uint64_t lo, uint64_t hi, const uint8_t *ops, uint8_t op,
               const uint64_t *keys, uint64_t *values, uint8_t *results, std::atomic<int> *failed)
{
    typedef typename Map::key_type K;
    typedef typename Map::mapped_type V;
    try {
        for (uint64_t i = lo; i < hi; i++) {
            K key = (K)keys[i];
            uint8_t ok = 0;
            switch (ops != nullptr ? ops[i] : op) {
            case HIVE_OP_INSERT:
                ok = map->insert(typename Map::value_type(key, (V)values[i]));
                break;
            case HIVE_OP_FIND: {
                typename Map::const_accessor a;
                if (map->find(a, key)) {
                    values[i] = a->second;
                    ok = 1;
                }
                break;
            }
            case HIVE_OP_ERASE:
                ok = map->erase(key);
                break;
            default:
                break;
            }
            results[i] = ok;
        }
    } catch (const std::exception &) {
        failed->store(1);
    }
}

/* Slice t of `threads`: on a std::thread for t > 0, on the caller for t = 0
 * (after starting the others).  Returns -1 if a thread could not start. */
template <typename Map>
int run_batch(Map *map, uint64_t n, const uint8_t *ops, uint8_t op, const uint64_t *keys,
              uint64_t *values, uint8_t *results, uint32_t threads)
{
    std::atomic<int> failed(0);
    std::vector<std::thread> pool;
    try {
        pool.reserve(threads);
        for (uint32_t t = 1; t < threads; t++)
            pool.emplace_back(run_slice<Map>, map, n * t / threads, n * (t + 1) / threads, ops, op,
                              keys, values, results, &failed);
    } catch (const std::exception &) {
        failed.store(1); /* std::system_error: no thread; the started ones still run */
    }
    if (!failed.load())
        run_slice<Map>(map, 0, n / threads, ops, op, keys, values, results, &failed);
    for (std::thread &t : pool)
        t.join();
    return failed.load() ? -1 : 0;
}

} // namespace

struct bench_tbb_map {
    uint32_t bits;
    map32 *m32;
    map64 *m64;
};

extern "C" bench_tbb_map *bench_tbb_create(uint32_t bits, uint64_t n)
{
    bench_tbb_map *m = new (std::nothrow) bench_tbb_map();
    if (m == nullptr)
        return nullptr;
    m->bits = bits;
    try {
        if (bits == 32)
            m->m32 = new map32((map32::size_type)n);
        else
            m->m64 = new map64((map64::size_type)n);
    } catch (const std::exception &) {
        delete m;
        return nullptr;
    }
    return m;
}

extern "C" void bench_tbb_destroy(bench_tbb_map *m)
{
    if (m == nullptr)
        return;
    delete m->m32;
    delete m->m64;
    delete m;
}

extern "C" uint64_t bench_tbb_size(const bench_tbb_map *m)
{
    return m->bits == 32 ? m->m32->size() : m->m64->size();
}

extern "C" int bench_tbb_apply(bench_tbb_map *m, uint64_t n, const uint8_t *ops, uint8_t op,
                               const uint64_t *keys, uint64_t *values, uint8_t *results,
                               uint32_t threads)
{
    if (threads < 1)
        threads = 1;
    if (m->bits == 32)
        return run_batch<map32>(m->m32, n, ops, op, keys, values, results, threads);
    return run_batch<map64>(m->m64, n, ops, op, keys, values, results, threads);
}
