"""Counts the k-mers of a random DNA sequence with an upsert-add hive.Table, checked against collections.Counter.

Each k-mer of up to 31 bases packs into a uint64 key, two bits a base;
inserting every key with value 1 and combine="add" counts them in one batch.

    python kmer_count.py [--backend cpu|cuda] [--length N] [--k K]
"""

import argparse
import collections

import numpy as np

import hive


def device_functions(backend):
    """(to_table, to_host): a CUDA table takes CuPy arrays, a CPU table numpy ones."""
    if backend != "cuda":
        return (lambda array: array), (lambda array: array)
    import cupy

    return cupy.asarray, cupy.asnumpy


def pack_kmers(bases, k):
    """The uint64 code of every k-mer of `bases` (values 0..3), one per start position."""
    codes = np.zeros(len(bases) - k + 1, np.uint64)
    for offset in range(k):
        codes = (codes << np.uint64(2)) | bases[offset: offset + len(codes)].astype(np.uint64)
    return codes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--length", type=int, default=200_000)
    parser.add_argument("--k", type=int, default=11)
    args = parser.parse_args()

    bases = np.random.default_rng(1).integers(0, 4, size=args.length, dtype=np.uint8)
    kmers = pack_kmers(bases, args.k)
    to_table, to_host = device_functions(args.backend)
    with hive.Table(capacity=len(kmers), key_width=64, backend=args.backend) as table:
        table.insert(to_table(kmers), to_table(np.ones_like(kmers)), combine="add")
        keys, counts = table.export()
        counted = dict(zip(to_host(keys).tolist(), to_host(counts).tolist()))

    assert counted == collections.Counter(kmers.tolist()), "k-mer counts differ from collections.Counter"
    top = max(counted, key=counted.get)
    print(f"{len(kmers)} {args.k}-mers, {len(counted)} distinct; the most frequent occurs {counted[top]} times; "
          "matches collections.Counter")


if __name__ == "__main__":
    main()
