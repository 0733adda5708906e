/* plan_test.c — the sharded table's routing on the host, no GPU needed:
 * the owner hash (route.h, which hive_shard_owner returns) spreads keys evenly and independently of the bucket hash,
 * and the exchange plan (src/shard/plan.h) gives every key one place on
 * each side, the pieces of a segment tiling it, for random counts of 1 to
 * 64 ranks and 1 to SHARD_MAX_CHUNKS chunks. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "hash/bithash.h"
#include "plan.h"
#include "route.h"

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Pearson's statistic of 64 counts against a uniform spread: 63 degrees of
 * freedom, mean 63, standard deviation 11.2; independent hashes stay under
 * 63 + 6 sigma, and a dependence (a shard seeing only some residues) gives
 * thousands. */
#define CHI_SQUARE_LIMIT 130.0

static double chi_square(const uint32_t *counts, uint32_t total)
{
    double expected = total / 64.0, sum = 0;
    for (int b = 0; b < 64; b++)
        sum += (counts[b] - expected) * (counts[b] - expected) / expected;
    return sum;
}

/* Owners over 2^20 sequential and random keys: each rank within 2% of its
 * share; and among keys of one owner, the first bucket hash's low 6 bits
 * are still uniform, so a shard fills all of its buckets. */
static void check_owner_spread(void)
{
    enum { KEYS = 1 << 20 };
    uint32_t per_rank[8], per_bucket[64];
    for (uint32_t ranks = 1; ranks <= 8; ranks++) {
        for (int random = 0; random < 2; random++) {
            uint64_t state = ranks;
            memset(per_rank, 0, sizeof per_rank);
            memset(per_bucket, 0, sizeof per_bucket);
            uint32_t of_rank0 = 0;
            for (uint32_t i = 0; i < KEYS; i++) {
                uint64_t key = random ? next(&state) >> 1 : i;
                uint32_t owner = shard_route(key, ranks);
                if (owner >= ranks) {
                    HT_CHECK(0, "key %llx: owner %u of %u ranks", (unsigned long long)key, owner, ranks);
                    continue;
                }
                per_rank[owner]++;
                if (owner == 0) {
                    per_bucket[hive_hash1_k64(key) & 63u]++; /* KV64's hash; KV32's below */
                    of_rank0++;
                }
                HT_CHECK_EQ(shard_route(key, ranks), owner, "owner is a function of the key");
            }
            for (uint32_t r = 0; r < ranks; r++) {
                double share = (double)per_rank[r] / ((double)KEYS / ranks);
                HT_CHECK(share > 0.98 && share < 1.02, "%u ranks, %s keys: rank %u holds %.3f of its share", ranks,
                         random ? "random" : "sequential", r, share);
            }
            HT_CHECK(chi_square(per_bucket, of_rank0) < CHI_SQUARE_LIMIT,
                     "%u ranks, %s keys: rank 0's keys over 64 bucket residues: chi-square %.1f", ranks,
                     random ? "random" : "sequential", chi_square(per_bucket, of_rank0));
        }
    }
    /* KV32 keys are routed zero-extended: rank 0 of 2 still sees every
     * residue of the 32-bit bucket hash. */
    uint32_t kv32_bucket[64] = {0}, kv32_total = 0;
    for (uint32_t k = 0; k < (1u << 20); k++)
        if (shard_route(k, 2) == 0) {
            kv32_bucket[hive_bithash1(k) & 63u]++;
            kv32_total++;
        }
    HT_CHECK(chi_square(kv32_bucket, kv32_total) < CHI_SQUARE_LIMIT,
             "KV32 keys of rank 0 of 2 over 64 bucket residues: chi-square %.1f", chi_square(kv32_bucket, kv32_total));
}

static void check_plans(void)
{
    uint64_t state = 1;
    for (int trial = 0; trial < 2000; trial++) {
        uint32_t ranks = 1 + (uint32_t)(next(&state) % 64);
        uint32_t chunks = 1 + (uint32_t)(next(&state) % SHARD_MAX_CHUNKS);
        uint64_t send[64], recv[64], send_offset[64], recv_offset[64 * SHARD_MAX_CHUNKS];
        for (uint32_t r = 0; r < ranks; r++) {
            /* Empty, tiny and large segments, and fewer keys than chunks. */
            uint64_t shape = next(&state) % 4;
            send[r] = shape == 0 ? 0 : shape == 1 ? next(&state) % 5 : next(&state) % 100000;
            recv[r] = shape == 0 ? next(&state) % 3 : next(&state) % 100000;
        }
        shard_plan p = {.ranks = ranks, .chunks = chunks, .send_count = send, .recv_count = recv,
                        .send_offset = send_offset, .recv_offset = recv_offset};
        shard_plan_build(&p);
        uint64_t total_send = 0, total_recv = 0;
        for (uint32_t r = 0; r < ranks; r++) {
            HT_CHECK_EQ(p.send_offset[r], total_send, "trial %d: segment %u follows the one before", trial, r);
            total_send += send[r];
            total_recv += recv[r];
            /* The pieces of each segment tile it in order. */
            uint64_t covered = 0, covered_recv = 0;
            for (uint32_t c = 0; c < chunks; c++) {
                HT_CHECK_EQ(shard_piece_start(send[r], c, chunks), covered, "trial %d rank %u chunk %u", trial, r, c);
                covered += shard_piece_length(send[r], c, chunks);
                covered_recv += shard_piece_length(recv[r], c, chunks);
            }
            HT_CHECK_EQ(covered, send[r], "trial %d: send pieces of rank %u", trial, r);
            HT_CHECK_EQ(covered_recv, recv[r], "trial %d: receive pieces of rank %u", trial, r);
        }
        HT_CHECK_EQ(p.sent_total, total_send, "trial %d: sent", trial);
        HT_CHECK_EQ(p.received_total, total_recv, "trial %d: received", trial);
        /* Receive side: chunk-major, each piece right after the one before,
         * and each chunk one contiguous run. */
        uint64_t at = 0;
        for (uint32_t c = 0; c < chunks; c++) {
            HT_CHECK_EQ(p.chunk_offset[c], at, "trial %d: chunk %u begins", trial, c);
            for (uint32_t r = 0; r < ranks; r++) {
                HT_CHECK_EQ(p.recv_offset[c * ranks + r], at, "trial %d: piece %u of rank %u", trial, c, r);
                at += shard_piece_length(recv[r], c, chunks);
            }
        }
        HT_CHECK_EQ(p.chunk_offset[chunks], total_recv, "trial %d: last chunk ends the receive side", trial);
    }
}

int main(void)
{
    ht_begin("shard.plan");
    check_owner_spread();
    check_plans();
    return ht_finish();
}
