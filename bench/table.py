#!/usr/bin/env python3
"""table.py — markdown tables of hive-bench results, one design a column.

    python3 bench/table.py CSV|DIR ...      (a DIR: every CSV under it)

For each workload and key width, and each kind of figure (throughput, or a value's
unit: buckets, sectors, hit rate, ...), one table: a row per operation at each point
(load factor or the workload's own axis, and n where it varies), a column per design
(the `design` column of a `--design all` run; plot.py's rule for older files).
Throughput is in G ops/s, or M ops/s when every row is from the CPU backend.  Per-round
rows (aging's `round`) are left out; their summary rows stay.  Standard library only.
"""
import csv
import math
import os
import sys
from collections import OrderedDict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot import design_of, finite, num  # noqa: E402  (the same readers as the plots)

SKIP_OPS = {"round"}


def csv_files(args):
    for a in args:
        if os.path.isdir(a):
            for dirpath, _, files in sorted(os.walk(a)):
                for name in sorted(files):
                    if name.endswith(".csv"):
                        yield os.path.join(dirpath, name)
        else:
            yield a


def fmt(v):
    if not finite(v):
        return "-"
    a = abs(v)
    if a >= 100:
        return "%.0f" % v
    if a >= 1:
        return "%.3g" % v
    return "%.3g" % v


def point(r, varying):
    parts = []
    if "x" in varying and finite(r["x"]):
        parts.append("%g" % r["x"])
    if "n" in varying and finite(r["n"]):
        parts.append("n=%d" % r["n"])
    return " ".join(parts)


def tables(rows):
    out = []
    groups = OrderedDict()
    for r in rows:
        if r["op"] in SKIP_OPS:
            continue
        if finite(r["gops"]):
            groups.setdefault((r["workload"], r["key_bits"], "gops"), []).append((r, r["gops"]))
        if finite(r["value"]):
            groups.setdefault((r["workload"], r["key_bits"], r["unit"] or "value"), []).append(
                (r, r["value"]))
    for (workload, bits, metric), items in groups.items():
        designs = list(OrderedDict((r["design"] or "-", 1) for r, _ in items))
        # x is shown where it varies within one op, n where it varies at one x
        varying = set()
        for key, within in (("x", lambda r: r["op"]), ("n", lambda r: (r["op"], r["x"]))):
            seen = {}
            for r, _ in items:
                seen.setdefault(within(r), set()).add(r[key] if finite(r[key]) else None)
            if any(len(v) > 1 for v in seen.values()):
                varying.add(key)
        scale, unit = 1.0, metric
        if metric == "gops":
            cpu = all(r.get("backend") == "cpu" for r, _ in items)
            scale, unit = (1e3, "M ops/s") if cpu else (1.0, "G ops/s")
        cells = OrderedDict()
        for r, v in items:
            cells.setdefault((r["op"], point(r, varying)), {})[r["design"] or "-"] = v * scale
        out.append("### %s, KV%s: %s\n" % (workload, bits, unit))
        pt_head = " ".join(k for k in ("x", "n") if k in varying)
        cols = ["op"] + ([pt_head] if pt_head else []) + designs
        out.append("| " + " | ".join(cols) + " |")
        out.append("|" + "---|" * len(cols))
        for (op, pt), by_design in cells.items():
            vals = [fmt(by_design.get(d, math.nan)) for d in designs]
            out.append("| " + " | ".join([op] + ([pt] if pt_head else []) + vals) + " |")
        out.append("")
    return out


def main(argv):
    if len(argv) < 2 or any(a in ("-h", "--help") for a in argv[1:]):
        sys.stderr.write("usage: table.py CSV|DIR ...\n")
        return 2
    rows = []
    for path in csv_files(argv[1:]):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                for k in ("n", "x", "gops", "value"):
                    r[k] = num(r.get(k))
                r["design"] = design_of(r)
                rows.append(r)
    if not rows:
        sys.stderr.write("table.py: no hive-bench rows in %s\n" % " ".join(argv[1:]))
        return 1
    print("\n".join(tables(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
