"""What a call costs from Python: hive.Table.find against the same find in C, at 2^10, 2^16 and 2^24 keys.

Three figures per size, each the median of --runs timed calls after a warm-up,
on a KV32 table filled with n keys to load 0.95 (hive-bench balanced's shape):

  table.find      the Pythonic layer: checks, output arrays allocated per call
  _lib.hive_find  the low layer: one ctypes call into libhive, outputs reused
  hive-bench      the C benchmark's find (balanced workload, same n and load),
                  when --hive-bench names its binary; its figure is CUDA
                  events around the call on the GPU, the wall clock on the CPU

A call returns once its work is done (on the GPU too: hive synchronises the
stream to report per-key status), so the wall clock around it is its cost.
Prints CSV: layer,backend,n,us_per_call,gops,overhead_us (over the C figure,
or over the low layer when there is no C figure).

    python overhead.py [--backend cpu|cuda] [--sizes 2^10,2^16,2^24] [--runs 20] [--hive-bench PATH]
"""

import argparse
import csv
import os
import statistics
import subprocess
import tempfile
import time

import numpy as np

import hive
from hive import _lib, arrays

LOAD = 0.95


def size(text):
    return 1 << int(text[2:]) if text.startswith("2^") else int(text)


def distinct_keys(n):
    """n distinct uint32 keys clear of the reserved ones: i * an odd prime, modulo a range that avoids them."""
    span = 2**32 - 8
    return ((np.arange(1, n + 1, dtype=np.uint64) * 2654435761) % span + 1).astype(np.uint32)


def median_seconds(call, runs):
    call()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def c_find_seconds(hive_bench, backend, n, runs):
    """hive-bench balanced's find at n keys and load 0.95: seconds per call, or None."""
    with tempfile.TemporaryDirectory() as out:
        subprocess.run([hive_bench, "balanced", "--backend", backend, "--n", str(n), "--runs", str(runs),
                        "--out", out], check=True, capture_output=True)
        path = os.path.join(out, f"balanced_{backend}_kv32.csv")
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row["op"] == "find" and abs(float(row["x"]) - LOAD) < 1e-6 and int(row["n"]) == n:
                    return n / (float(row["gops"]) * 1e9)
    return None


def device_arrays(backend):
    """(to_table, synchronise) for the backend: CuPy arrays (else PyTorch tensors) on CUDA, numpy on the CPU."""
    if backend != "cuda":
        return (lambda a: a), (lambda: None)
    try:
        import cupy

        return cupy.asarray, cupy.cuda.get_current_stream().synchronize
    except ImportError:
        import torch

        return (lambda a: torch.from_numpy(a).cuda()), torch.cuda.synchronize


def measure(backend, n, runs, hive_bench):
    to_table, synchronise = device_arrays(backend)
    keys = to_table(distinct_keys(n))
    rows = []
    with hive.Table(capacity=int(n / LOAD) + 1, key_width=32, backend=backend, max_load_factor=LOAD) as table:
        table.insert(keys, keys)
        values, found = table.find(keys)
        assert bool(found.all()) and bool((values == keys).all()), "a key inserted was not found with its value"

        def python_find():
            table.find(keys)
            synchronise()

        out_values, out_found = arrays.empty(keys, (n,), np.uint32, table.cuda), arrays.empty(keys, (n,), np.uint8,
                                                                                               table.cuda)
        handle, k, v, f = table._live(), arrays.address(keys), arrays.address(out_values), arrays.address(out_found)

        def low_find():
            _lib.check(_lib.hive_find(handle, n, k, v, f, None))

        rows.append(("table.find", median_seconds(python_find, runs)))
        rows.append(("_lib.hive_find", median_seconds(low_find, runs)))
    c_seconds = c_find_seconds(hive_bench, backend, n, runs) if hive_bench else None
    if c_seconds is not None:
        rows.append(("hive-bench", c_seconds))
    base = c_seconds if c_seconds is not None else rows[1][1]
    return [(layer, backend, n, seconds * 1e6, n / seconds / 1e9, (seconds - base) * 1e6) for layer, seconds in rows]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="cpu", choices=["cpu", "cuda"])
    parser.add_argument("--sizes", default="2^10,2^16,2^24")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--hive-bench", help="path of the hive-bench binary, for the C figure")
    args = parser.parse_args()

    print("layer,backend,n,us_per_call,gops,overhead_us")
    for n in map(size, args.sizes.split(",")):
        for layer, backend, count, us, gops, overhead in measure(args.backend, n, args.runs, args.hive_bench):
            print(f"{layer},{backend},{count},{us:.2f},{gops:.4f},{overhead:.2f}", flush=True)


if __name__ == "__main__":
    main()
