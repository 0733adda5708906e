"""Training steps over an embedding too large for the GPU, with hive.CacheTable as the GPU cache of its hot rows.

The full embedding lives in host memory.  Each step looks a batch of ids up
(Zipf-skewed, as in recommendation models): rows the cache holds come from
it, the others from the host table, and insert_and_evict brings those into
the cache, handing back the rows it pushes out, which are written back to the
host table.  PyTorch computes the gradient of a toy loss through the lookup,
and accum_or_assign adds the update to the cached rows (a row evicted within
the same step is updated in the host table instead).  At the end the cache is
flushed to the host table, which must then equal a dense table that took the
same steps with no cache at all.

    python embedding_cache.py [--backend auto|cpu|cuda] [--rows N] [--dim D] [--steps S]

Needs PyTorch; CUDA tensors on a CUDA cache (hive reads and writes them in
place on PyTorch's stream), CPU tensors viewed as numpy on a CPU cache.
"""

import argparse

import numpy as np
import torch

import hive
from hive import Result


def zipf_ids(rng, rows, batch, alpha=1.05):
    """Ids in [0, rows), id 0 the most frequent, shuffled so hot rows are spread over the table."""
    ranks = rng.zipf(alpha, 4 * batch)
    return ranks[ranks <= rows][:batch] - 1


def loss_of(rows, inverse, weights):
    """A toy loss over the looked-up rows: enough for a gradient that depends on every row read."""
    looked_up = rows[inverse]
    return (looked_up * weights).sum() + 0.5 * (looked_up**2).sum()


def gradient(rows, inverse, weights):
    rows = rows.detach().clone().requires_grad_(True)
    loss_of(rows, inverse, weights).backward()
    return rows.grad


class CachedEmbedding:
    """The host table, the cache in front of it, and the moves between the two."""

    def __init__(self, host, capacity, backend):
        self.host = host
        self.cache = hive.CacheTable(capacity=capacity, dim=host.shape[1], value_dtype=np.float32, policy="lru",
                                     backend=backend)
        self.device = "cuda" if self.cache.cuda else "cpu"
        self.stream = torch.cuda.current_stream() if self.cache.cuda else None

    def to_cache(self, array):
        """A host numpy array as what the cache takes: a CUDA tensor, or numpy for a CPU cache."""
        return torch.from_numpy(np.ascontiguousarray(array)).to(self.device) if self.cache.cuda else array

    def to_torch(self, array):
        return array if isinstance(array, torch.Tensor) else torch.from_numpy(np.asarray(array))

    def to_host(self, array):
        return array.cpu().numpy() if isinstance(array, torch.Tensor) else np.asarray(array)

    def write_back(self, keys, values):
        self.host[self.to_host(keys).astype(np.int64)] = self.to_host(values)

    def lookup(self, ids):
        """The rows of ids (unique, uint64), on the cache's device; misses are brought in from the host."""
        keys = self.to_cache(ids)
        rows, missed, where = self.cache.find_missed(keys, stream=self.stream)
        rows = self.to_torch(rows)
        if len(missed):
            fetched = self.host[self.to_host(missed).astype(np.int64)]
            rows[self.to_torch(where).long()] = torch.from_numpy(fetched).to(rows.device)
            gone_keys, gone_values, _ = self.cache.insert_and_evict(missed, self.to_cache(fetched),
                                                                    stream=self.stream)
            self.write_back(gone_keys, gone_values)
        return rows

    def update(self, ids, delta):
        """rows[ids] += delta: in the cache, or in the host table for a row this step's inserts evicted."""
        keys = self.to_cache(ids)
        results = self.to_cache(np.zeros(len(ids), np.uint8))
        flags = self.to_cache(np.ones(len(ids), np.uint8))
        self.cache.accum_or_assign(keys, self.to_cache(self.to_host(delta)), flags, results=results,
                                   stream=self.stream)
        absent = self.to_host(results) != Result.UPDATED
        if absent.any():
            index = ids[absent].astype(np.int64)
            self.host[index] = self.host[index] + self.to_host(delta)[absent]

    def flush(self):
        keys, values, _ = self.cache.export(like=self.to_cache(np.zeros(1, np.uint64)), stream=self.stream)
        self.write_back(keys, values)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="auto", choices=["auto", "cpu", "cuda"])
    parser.add_argument("--rows", type=int, default=1 << 18, help="rows of the full embedding")
    parser.add_argument("--dim", type=int, default=32)
    parser.add_argument("--cache-fraction", type=float, default=0.05)
    parser.add_argument("--batch", type=int, default=1 << 14)
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--lr", type=float, default=0.01)
    args = parser.parse_args()

    rng = np.random.default_rng(7)
    initial = rng.standard_normal((args.rows, args.dim)).astype(np.float32)
    dense = initial.copy()
    embedding = CachedEmbedding(initial.copy(), int(args.rows * args.cache_fraction), args.backend)
    hits = looked_up = 0
    with embedding.cache:
        for _ in range(args.steps):
            ids = zipf_ids(rng, args.rows, args.batch).astype(np.uint64)
            unique, inverse = np.unique(ids, return_inverse=True)
            weights = torch.from_numpy(rng.standard_normal((len(ids), args.dim)).astype(np.float32))

            hits += int(embedding.to_host(embedding.cache.contains(embedding.to_cache(unique))).sum())
            looked_up += len(unique)
            rows = embedding.lookup(unique)
            expected = torch.from_numpy(dense[unique.astype(np.int64)])
            assert torch.equal(rows.cpu(), expected), "a looked-up row differs from the dense table's"

            inverse_t = torch.from_numpy(inverse).to(rows.device)
            delta = -args.lr * gradient(rows, inverse_t, weights.to(rows.device))
            embedding.update(unique, delta)
            index = unique.astype(np.int64)
            dense[index] = dense[index] + delta.cpu().numpy()
        embedding.flush()

    assert np.array_equal(embedding.host, dense), "after the flush, the host table differs from the dense one"
    print(f"{args.steps} steps of {args.batch} ids over {args.rows} rows x {args.dim}, cache of "
          f"{args.cache_fraction:.0%} on {embedding.device}: {hits / looked_up:.1%} of distinct rows were cached; "
          f"the host table matches the dense reference")


if __name__ == "__main__":
    main()
