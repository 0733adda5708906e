/* plan_test.c — the sharded table's routing on the host, no GPU needed.
 * The owner hash (route.h, which hive_shard_owner returns) spreads keys
 * evenly and independently of the bucket hash, the exchange plan
 * (src/shard/plan.h) gives every key one place on each side, for random
 * counts of 1 to 64 ranks, and a find's schedule cuts every segment into
 * parts that cover it once and splits the own keys within their count. */
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
                    per_bucket[hive_hash1_k64(key, 0) & 63u]++; /* KV64's hash at seed 0; KV32's below */
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
            kv32_bucket[hive_hash1_k32(k, 0) & 63u]++;
            kv32_total++;
        }
    HT_CHECK(chi_square(kv32_bucket, kv32_total) < CHI_SQUARE_LIMIT,
             "KV32 keys of rank 0 of 2 over 64 bucket residues: chi-square %.1f", chi_square(kv32_bucket, kv32_total));
}

/* Random counts for 1 to 64 ranks: the send side's segments follow each
 * other in rank order, this rank's own included; the receive side's
 * follow each other in rank order, this rank's own empty; the totals count
 * only what travels. */
static void check_plans(void)
{
    uint64_t state = 1;
    for (int trial = 0; trial < 2000; trial++) {
        uint32_t ranks = 1 + (uint32_t)(next(&state) % 64);
        uint32_t self = (uint32_t)(next(&state) % ranks);
        uint64_t send[64], recv[64], send_offset[64], recv_offset[64];
        for (uint32_t r = 0; r < ranks; r++) {
            /* Empty, tiny and large segments. */
            uint64_t shape = next(&state) % 3;
            send[r] = shape == 0 ? 0 : shape == 1 ? next(&state) % 5 : next(&state) % 100000;
            recv[r] = shape == 0 ? next(&state) % 3 : next(&state) % 100000;
        }
        shard_plan p = {.ranks = ranks, .self = self, .send_count = send, .recv_count = recv,
                        .send_offset = send_offset, .recv_offset = recv_offset};
        shard_plan_build(&p);
        uint64_t at_send = 0, at_recv = 0, sent = 0;
        for (uint32_t r = 0; r < ranks; r++) {
            HT_CHECK_EQ(p.send_offset[r], at_send, "trial %d: send segment %u follows the one before", trial, r);
            at_send += send[r];
            HT_CHECK_EQ(p.recv_offset[r], at_recv, "trial %d: receive segment %u follows the one before", trial, r);
            if (r != self) {
                at_recv += recv[r];
                sent += send[r];
            }
        }
        HT_CHECK_EQ(p.sent_total, sent, "trial %d: sent", trial);
        HT_CHECK_EQ(p.received_total, at_recv, "trial %d: received", trial);
        HT_CHECK_EQ(shard_plan_kept(&p), send[self], "trial %d: kept", trial);
        HT_CHECK(shard_plan_kept_early(&p) <= send[self], "trial %d: %llu of %llu own keys early", trial,
                 (unsigned long long)shard_plan_kept_early(&p), (unsigned long long)send[self]);
        if (ranks == 1 || ranks >= 4)
            HT_CHECK_EQ(shard_plan_kept_early(&p), send[self], "trial %d: %u ranks look up every own key early",
                        trial, ranks);
    }
}

/* The parts of a segment follow each other from 0 to its length, and
 * their lengths differ by at most one key (so the two sides of an
 * exchange, cutting the same length, agree on every part). */
static void check_parts(void)
{
    uint64_t state = 7;
    for (int trial = 0; trial < 5000; trial++) {
        uint64_t length = trial < 100 ? (uint64_t)trial : next(&state) % (1ull << 32);
        uint32_t parts = 1 + (uint32_t)(next(&state) % 8);
        uint64_t next_begin = 0;
        for (uint32_t p = 0; p < parts; p++) {
            shard_part cut = shard_part_of(length, p, parts);
            HT_CHECK_EQ(cut.begin, next_begin, "length %llu, part %u of %u begins where the last ended",
                        (unsigned long long)length, p, parts);
            HT_CHECK(cut.length == length / parts || cut.length == length / parts + 1,
                     "length %llu, part %u of %u: %llu keys", (unsigned long long)length, p, parts,
                     (unsigned long long)cut.length);
            next_begin = cut.begin + cut.length;
        }
        HT_CHECK_EQ(next_begin, length, "length %llu, %u parts: the last ends the segment",
                    (unsigned long long)length, parts);
    }
}

int main(void)
{
    ht_begin("shard.plan");
    check_owner_spread();
    check_plans();
    check_parts();
    return ht_finish();
}
