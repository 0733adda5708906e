"""SELECT key, SUM(amount) GROUP BY key with an upsert-add hive.Table, checked against a dict; then a hash
join of the sums with a second table of keys.

    python group_by.py [--backend cpu|cuda] [--rows N]
"""

import argparse

import numpy as np

import hive


def device_functions(backend):
    """(to_table, to_host): a CUDA table takes CuPy arrays, a CPU table numpy ones."""
    if backend != "cuda":
        return (lambda array: array), (lambda array: array)
    import cupy

    return cupy.asarray, cupy.asnumpy


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["cpu", "cuda"], default="cpu")
    parser.add_argument("--rows", type=int, default=500_000)
    args = parser.parse_args()

    rng = np.random.default_rng(2)
    group = rng.integers(0, 10_000, size=args.rows, dtype=np.uint32)
    amount = rng.integers(0, 100, size=args.rows, dtype=np.uint32)
    to_table, to_host = device_functions(args.backend)

    with hive.Table(capacity=10_000, key_width=32, backend=args.backend) as sums:
        sums.insert(to_table(group), to_table(amount), combine="add")
        keys, totals = map(to_host, sums.export())
        reference = {}
        for key, value in zip(group.tolist(), amount.tolist()):
            reference[key] = reference.get(key, 0) + value
        assert dict(zip(keys.tolist(), totals.tolist())) == reference, "group-by sums differ from the dict's"

        # The join: which of these customers have sums, and what they are.
        probe = rng.integers(0, 20_000, size=1000, dtype=np.uint32)
        joined, matched = map(to_host, sums.find(to_table(probe)))
        assert matched.tolist() == [key in reference for key in probe.tolist()]
        assert joined[matched].tolist() == [reference[key] for key in probe[matched].tolist()]

    print(f"{args.rows} rows into {len(reference)} groups; {int(matched.sum())} of {len(probe)} probe keys joined; "
          "matches the dict")


if __name__ == "__main__":
    main()
