/* pool.h — where the chaining design keeps its chains (WarpSpeed's ChainingHT
 * over hive's buckets; docs/designs/chaining.md).  A key lives in its head
 * bucket, bucket_of(h1) under the table's linear-hashing index, or in a node
 * of its chain.  Nodes are buckets of the table's stash (the same S slots,
 * the same scan), which is the design's node pool: allocated with the table,
 * sized by stash_fraction, replaced by the resize driver.  Beside the nodes,
 * in the array the other designs keep their stash bits in (hive_view's
 * stash_used), 32-bit words:
 *
 *   word 0                      nodes handed out (a bump counter; past
 *                               `nodes` once the pool ran out)
 *   words 1 .. C                the first node of chain c (node + 1; 0: none)
 *   words C+1 .. C+nodes        the next node after node n (node + 1; 0: none)
 *
 * with C = hive_chain_count(nodes) chains.  A key's chain is a home of its
 * two hashes (core/index.h's hive_home_of), so it does not depend on the
 * table's size: splits and merges of head buckets never touch a chain.
 * Plain C, for the tests that aim keys as well as for the operations
 * (chain_body.h). */
#ifndef HIVE_DESIGNS_CHAINING_POOL_H
#define HIVE_DESIGNS_CHAINING_POOL_H

#include <stdint.h>

#include "../../base/platform.h"
#include "../../core/index.h"

/* The hash whose bucket, under the table's index, is the key's head bucket:
 * its one probe (core/probe_body.h), the Hive design's b1. */
HIVE_HD uint32_t hive_chaining_probe_hash(uint32_t h1, uint32_t h2, uint32_t i)
{
    (void)h2;
    (void)i;
    return h1;
}

/* Nodes per chain.  A node is handed out to one chain until the pool is
 * replaced, and each chain's last node is partly empty: with as many chains
 * as nodes, every node could be taken while the pool held a pair or two a
 * chain.  A quarter as many chains as nodes bounds that waste to a quarter
 * of the pool, and keeps chains short: a pool half full of pairs holds
 * 2 * S of them a chain, two nodes. */
#define HIVE_CHAIN_NODES_PER_CHAIN 4

HIVE_HD uint64_t hive_chain_count(uint64_t nodes)
{
    return (nodes + HIVE_CHAIN_NODES_PER_CHAIN - 1) / HIVE_CHAIN_NODES_PER_CHAIN;
}

/* The 32-bit words beside a pool of `nodes` nodes (0 for no pool). */
HIVE_HD uint64_t hive_chain_words(uint64_t nodes)
{
    return nodes ? 1 + hive_chain_count(nodes) + nodes : 0;
}

/* A link word's value while one writer extends the chain there: it took the
 * 0 link by CAS, and is taking a node, writing its pair, then linking it.
 * Readers take it for the chain's end; other writers wait for the link
 * (chain_body.h).  No node is numbered so. */
#define HIVE_CHAIN_PENDING UINT32_MAX

/* Word indices: the bump counter, chain c's head, node n's next link. */
#define HIVE_CHAIN_TAKEN_WORD 0

HIVE_HD uint64_t hive_chain_head_word(uint64_t chain) { return 1 + chain; }

HIVE_HD uint64_t hive_chain_next_word(uint64_t nodes, uint64_t node)
{
    return 1 + hive_chain_count(nodes) + node;
}

/* The chain of a key with hashes h1, h2 in a pool of `nodes` nodes. */
HIVE_HD uint64_t hive_chain_of(uint32_t h1, uint32_t h2, uint64_t nodes)
{
    return hive_home_of(h1, h2, hive_chain_count(nodes));
}

#endif
