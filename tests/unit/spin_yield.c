/* spin_yield.c — the CPU backend's waits give their core away.  A thread
 * that waits on a bucket lock or a chain (hive_backoff, core/atomics.h)
 * spins a few growing rounds, then yields: when there are more threads than
 * cores, the owner it waits for may be preempted, and only a yield lets it
 * run again.  This program defines sched_yield itself (the executable's
 * definition takes the place of libc's for its own calls), counts the
 * yields, and plays the preempted owner: its lock is released only from
 * inside a yield, so a wait that never yields never returns (CTest's
 * timeout fails it). */
#include <sched.h>
#include <stdint.h>

#include "core/view.h"
#include "hivetest.h"

static unsigned yields;
static uint32_t *held_word; /* the owner's lock word, released at the third yield */
static uint32_t held_bit;

int sched_yield(void)
{
    yields++;
    if (held_word != NULL && yields == 3) {
        hive_lock_release(held_word, held_bit);
        held_word = NULL;
    }
    return 0;
}

int main(void)
{
    ht_begin("spin_yield cpu");

    ht_context("hive_backoff by round");
    for (unsigned round = 0; round < HIVE_SPIN_ROUNDS + 4; round++) {
        unsigned before = yields;
        hive_backoff(round);
        HT_CHECK_EQ(yields - before, round >= HIVE_SPIN_ROUNDS ? 1u : 0u,
                    "yields in backoff round %u (HIVE_SPIN_ROUNDS %u)", round, HIVE_SPIN_ROUNDS);
    }

    ht_context("a bucket lock whose owner runs only when the waiter yields");
    uint32_t locks[2] = {0, 0};
    hive_view v = {0};
    v.locks = locks;
    const uint64_t bucket = 37; /* word 1, bit 5 */
    hive_lock_bucket(&v, bucket); /* the owner takes it */
    HT_CHECK_EQ(locks[1], 1u << 5, "lock word after the owner took bucket %llu", (unsigned long long)bucket);
    yields = 0;
    held_word = &locks[1];
    held_bit = 1u << 5;
    hive_lock_bucket(&v, bucket); /* returns only once a yield let the owner release it */
    HT_CHECK_EQ(yields, 3, "yields before the lock was free");
    HT_CHECK_EQ(locks[1], 1u << 5, "lock word after the waiter took bucket %llu", (unsigned long long)bucket);
    hive_unlock_bucket(&v, bucket);
    HT_CHECK_EQ(locks[1], 0, "lock word after the waiter released it");
    return ht_finish();
}
