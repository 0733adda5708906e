#!/usr/bin/env python3
"""plot.py — turns hive-bench's CSV files into one PNG per workload.

    python3 bench/plot.py [--all] [DIR]    (default: bench/results; `make plots`)

Every folder under DIR that holds hive-bench CSVs (<workload>_<backend>_kv<bits>.csv)
gets <workload>.png next to them, one line or bar group per backend and key width,
drawn like the papers' figures: balanced (Hive Figs. 6-7), mixed (Fig. 8), steps
(Fig. 9), loadsweep (WarpSpeed Fig. 6.1), aging (Fig. 6.2), scaling (Fig. 6.4), probes
(WarpSpeed Table 5.1, as lines over the load), caching, shard (weak and strong scaling
over GPUs), and bar charts for limits,
ycsb, resize, adversarial, sptc and cpu-compare.  A CSV of `--design all` draws one
line or bar group per design as well (the `design` column; files from before it
name the double design in the geometry column).

Only what is new is drawn: a PNG is drawn when it is missing or older than one of
the CSVs it is drawn from; the others are skipped, one line each.  --all draws
every one.

Needs matplotlib (pip install matplotlib) when there is something to draw; only the
standard library otherwise.
"""
import csv
import math
import os
import sys
from collections import OrderedDict, defaultdict


def need_matplotlib():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write(
            "plot.py: matplotlib is not installed; install it with\n"
            "    pip install matplotlib\n"
            "and run `make plots` (or python3 bench/plot.py DIR) again.\n"
        )
        sys.exit(1)
    return plt


def num(s):
    try:
        v = float(s)
    except (TypeError, ValueError):
        return math.nan
    return v


def read_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("n", "load_factor", "x", "gops", "value", "fraction", "bytes_held"):
            r[k] = num(r.get(k))
        r["design"] = design_of(r)
        r["label"] = "%s KV%s" % (r.get("backend", "?"), r.get("key_bits", "?"))
        if r["design"]:
            r["label"] += " " + r["design"]
    return rows


def design_of(row):
    """The row's table design: its `design` column, or for files written before
    that column, " double" at the end of the geometry column (else hive)."""
    if row.get("design") is not None:
        return row["design"]
    if row.get("workload") in ("limits", "cache", "cache-hitrate"):
        return ""
    return "double" if (row.get("geometry") or "").endswith(" double") else "hive"


def rate_scale(rows):
    """B ops/s for anything measured on a GPU, M ops/s for CPU-only data."""
    if rows and all(r.get("backend") == "cpu" for r in rows):
        return 1e3, "M ops/s"
    return 1.0, "B ops/s (10^9/s)"


def by(rows, *keys):
    out = OrderedDict()
    for r in rows:
        out.setdefault(tuple(r[k] for k in keys), []).append(r)
    return out


def finite(v):
    return v is not None and not (isinstance(v, float) and math.isnan(v))


def subtitle(rows):
    r = rows[0]
    return "%s, driver %s, commit %s, %s" % (r.get("device", "?"), r.get("driver", "?"),
                                             r.get("commit", "?"), r.get("date", "?")[:10])


def line_plot(ax, rows, xkey, ops, scale, logx=False, label_extra=None):
    for (label,), group in by(rows, "label").items():
        for op in ops:
            pts = sorted((r[xkey], r["gops"] * scale) for r in group
                         if r["op"] == op and finite(r[xkey]) and finite(r["gops"]))
            if not pts:
                continue
            name = "%s %s" % (label, op) if len(ops) > 1 else label
            if label_extra:
                name += label_extra
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3, label=name)
    if logx:
        ax.set_xscale("log", base=2 if xkey == "n" else 10)
    ax.grid(True, alpha=0.3)


def plot_balanced(plt, rows, out):
    scale, unit = rate_scale(rows)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, ops, title in ((axes[0], ["insert"], "bulk insert (Hive Fig. 6)"),
                           (axes[1], ["find", "find-negative"], "bulk find (Hive Fig. 7)")):
        for (lf,), group in by(rows, "x").items():
            line_plot(ax, group, "n", ops, scale, logx=True, label_extra=" lf %.2f" % lf)
        ax.set_title(title)
        ax.set_xlabel("keys")
        ax.set_ylabel(unit)
        ax.legend(fontsize=7)
    return fig


def plot_mixed(plt, rows, out):
    scale, unit = rate_scale(rows)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    line_plot(ax, rows, "n", ["apply-0.5:0.3:0.2"], scale, logx=True)
    ax.set_title("insert:find:erase 0.5:0.3:0.2 in one hive_apply (Hive Fig. 8)")
    ax.set_xlabel("operations per batch")
    ax.set_ylabel(unit)
    ax.legend(fontsize=8)
    return fig


def plot_loadsweep(plt, rows, out):
    scale, unit = rate_scale(rows)
    fig, axes = plt.subplots(1, 4, figsize=(16, 4), sharey=False)
    for ax, op in zip(axes, ["insert", "find", "find-negative", "erase"]):
        line_plot(ax, rows, "x", [op], scale)
        ax.set_title(op)
        ax.set_xlabel("load factor")
        ax.set_ylabel(unit)
        ax.legend(fontsize=7)
    fig.suptitle("load sweep, fresh table per point (WarpSpeed Fig. 6.1)")
    return fig


def plot_aging(plt, rows, out):
    scale, unit = rate_scale(rows)
    fig, ax = plt.subplots(figsize=(9, 4.5))
    line_plot(ax, rows, "x", ["round"], scale)
    ax.set_title("aging at 85%: one batch of 1% insert/erase/find/miss per round "
                 "(WarpSpeed Fig. 6.2)")
    ax.set_xlabel("round")
    ax.set_ylabel(unit)
    ax.legend(fontsize=8)
    return fig


def plot_scaling(plt, rows, out):
    scale, unit = rate_scale(rows)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    line_plot(ax, rows, "x", ["insert", "find", "erase"], scale, logx=True)
    ax.set_title("scaling at 90% load (WarpSpeed Fig. 6.4)")
    ax.set_xlabel("table slots")
    ax.set_ylabel(unit)
    ax.legend(fontsize=7)
    return fig


def plot_steps(plt, rows, out):
    labels = list(by(rows, "label").keys())
    fig, axes = plt.subplots(len(labels), 2, figsize=(12, 4 * len(labels)), squeeze=False)
    steps = ["replace", "claim", "cuckoo", "stash"]
    for li, (label,) in enumerate(labels):
        group = [r for r in rows if r["label"] == label]
        for ci, prefix in enumerate(["all", "last"]):
            ax = axes[li][ci]
            xs = sorted({r["x"] for r in group if r["op"].startswith(prefix + "-")})
            bottom = [0.0] * len(xs)
            for s in steps:
                vals = []
                for x in xs:
                    v = [r["value"] for r in group if r["op"] == "%s-%s" % (prefix, s) and r["x"] == x]
                    vals.append(v[0] if v and finite(v[0]) else 0.0)
                ax.bar([str(x) for x in xs], vals, bottom=bottom, label=s)
                bottom = [b + v for b, v in zip(bottom, vals)]
            ax.set_ylim(0, 1.0)
            ax.set_xlabel("load factor")
            ax.set_ylabel("share of inserts")
            ax.set_title("%s: %s" % (label, "all inserts 0 -> lf" if prefix == "all"
                                     else "inserts of the last step to lf"))
            ax.legend(fontsize=7)
    fig.suptitle("insert step breakdown (Hive Fig. 9, as shares of inserts)")
    return fig


def grouped_bars(ax, cats, series, ylabel):
    """series: OrderedDict label -> {cat: value}."""
    width = 0.8 / max(1, len(series))
    for i, (label, vals) in enumerate(series.items()):
        xs = [j + i * width for j in range(len(cats))]
        ax.bar(xs, [vals.get(c, 0.0) for c in cats], width=width, label=label)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(cats))])
    ax.set_xticklabels(cats, rotation=30, ha="right", fontsize=8)
    ax.set_ylabel(ylabel)
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=7)


def bars_of_ops(plt, rows, ops, title, use_value=False, ylabel=None):
    scale, unit = rate_scale(rows)
    series = OrderedDict()
    cats = []
    for r in rows:
        if r["op"] not in ops:
            continue
        v = r["value"] if use_value else r["gops"] * scale
        if not finite(v):
            continue
        if r["op"] not in cats:
            cats.append(r["op"])
        series.setdefault(r["label"], {})[r["op"]] = v
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(cats) + 3), 4.5))
    grouped_bars(ax, cats, series, ylabel or unit)
    ax.set_title(title)
    return fig


def plot_limits(plt, rows, out):
    ops = [r["op"] for r in rows if finite(r["gops"])]
    fig = bars_of_ops(plt, rows, ops, "GPU ceilings (10^9 accesses/s; copy in text)",
                      ylabel="10^9 accesses/s")
    copy = [r for r in rows if r["op"] == "copy-d2d" and finite(r["value"])]
    if copy:
        fig.axes[0].text(0.98, 0.95, "copy: %.0f GB/s (read + write)" % copy[0]["value"],
                         transform=fig.axes[0].transAxes, ha="right", va="top")
    return fig


def plot_ycsb(plt, rows, out):
    ops = [o for w in "ABC" for o in (w + "-load", w + "-run")]
    return bars_of_ops(plt, rows, ops, "YCSB, Zipfian 0.99: load and run phases")


def plot_resize(plt, rows, out):
    fig = bars_of_ops(plt, rows, ["insert-growing", "insert-presized", "expand-keys"],
                      "growing from 1,024 slots vs pre-sized; hive_reserve rehash rate")
    ratios = ["%s: %.2f" % (r["label"], r["value"]) for r in rows
              if r["op"] == "growing/presized" and finite(r["value"])]
    if ratios:
        fig.axes[0].text(0.98, 0.95, "growing/presized " + ", ".join(ratios),
                         transform=fig.axes[0].transAxes, ha="right", va="top", fontsize=8)
    return fig


def plot_adversarial(plt, rows, out):
    ops = ["fail_first_query", "fail_original_delete", "query_after_delete",
           "delete_after_delete", "size_errors"]
    fig = bars_of_ops(plt, rows, ops, "duplicate-key race test (WarpSpeed): failure counters",
                      use_value=True, ylabel="count")
    verdicts = []
    for (label,), group in by(rows, "label").items():
        bad = sum(r["value"] for r in group if r["op"] in ops and finite(r["value"]))
        verdicts.append("%s: %s" % (label, "PASS" if bad == 0 else "FAIL"))
    fig.axes[0].text(0.5, 0.5, "\n".join(verdicts), transform=fig.axes[0].transAxes,
                     ha="center", va="center", fontsize=14)
    return fig


def plot_cpu_compare(plt, rows, out):
    ops = [r["op"] for r in rows if finite(r["gops"])]
    return bars_of_ops(plt, rows, ops, "hive CPU backend vs its CPU peers (cpu-compare)")


def plot_shard(plt, rows, out):
    """Weak and strong scaling of the sharded table over GPUs, the one-GPU
    table without the shard layer as a dashed line."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, mode in zip(axes, ["weak", "strong"]):
        for (label,), group in by(rows, "label").items():
            for phase in ["find", "find-absent", "insert"]:
                pts = sorted((r["x"], r["gops"]) for r in group
                             if r["op"] == "%s-%s" % (mode, phase) and finite(r["gops"]))
                if not pts:
                    continue
                line = ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3,
                               label="%s %s" % (label, phase))
                plain = [r["gops"] for r in group if r["op"] == "plain-" + phase and finite(r["gops"])]
                if plain and mode == "weak":
                    ax.axhline(plain[0], ls="--", lw=0.8, color=line[0].get_color())
        ax.set_title("%s scaling (dashed: one GPU, no shard layer)" % mode)
        ax.set_xlabel("GPUs")
        ax.set_ylabel("B keys/s, all GPUs")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=6)
    fig.suptitle("sharded table (libhive_shard, NCCL): keys per second over all GPUs")
    return fig


def plot_probes(plt, rows, out):
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.5))
    for ax, unit in zip(axes, ["buckets", "sectors", "lines128"]):
        for (label,), group in by(rows, "label").items():
            for op in ["find", "find-negative", "insert"]:
                pts = sorted((r["x"], r["value"]) for r in group
                             if r["op"] == op and r["unit"] == unit and finite(r["value"]))
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3,
                            label="%s %s" % (label, op))
        ax.set_title("%s read per operation (model)" % unit)
        ax.set_xlabel("load factor")
        ax.set_ylabel(unit)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=6)
    fig.suptitle("probe model: reads per find / absent find / insert (WarpSpeed Table 5.1)")
    return fig


def plot_caching(plt, rows, out):
    scale, unit = rate_scale(rows)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    line_plot(axes[0], rows, "x", ["uniform", "zipf"], scale)
    axes[0].set_title("table calls per access")
    axes[0].set_ylabel(unit)
    for (label,), group in by(rows, "label").items():
        for op in ["uniform", "zipf"]:
            pts = sorted((r["x"], r["value"]) for r in group if r["op"] == op and finite(r["value"]))
            if pts:
                axes[1].plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3,
                             label="%s %s" % (label, op))
    axes[1].set_title("hit rate")
    axes[1].set_ylabel("hit rate")
    axes[1].grid(True, alpha=0.3)
    for ax in axes:
        ax.set_xlabel("cache size / table slots")
        ax.legend(fontsize=7)
    fig.suptitle("dictionary table as a cache before a backing store (FIFO evict-by-erase)")
    return fig


def plot_sptc(plt, rows, out):
    fig = bars_of_ops(plt, rows, ["build", "probe", "accumulate"],
                      "sparse tensor contraction: table calls")
    totals = ["%s: %.3g s" % (r["label"], r["value"]) for r in rows
              if r["op"] == "total" and finite(r["value"])]
    if totals:
        fig.axes[0].text(0.98, 0.95, "total " + ", ".join(totals), transform=fig.axes[0].transAxes,
                         ha="right", va="top", fontsize=8)
    return fig


def plot_async(plt, rows, out):
    scale, unit = rate_scale(rows)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    line_plot(ax, rows, "x", ["find", "find-async", "assign", "assign-async"], scale, logx=True)
    ax.set_xscale("log", base=2)
    ax.set_title("32 calls back to back: synchronous vs asynchronous")
    ax.set_xlabel("keys a call")
    ax.set_ylabel(unit)
    ax.legend(fontsize=8)
    return fig


def plot_generic(plt, rows, out):
    ops = [r["op"] for r in rows if finite(r["gops"])]
    return bars_of_ops(plt, rows, ops, rows[0]["workload"])


PLOTS = {
    "limits": plot_limits,
    "balanced": plot_balanced,
    "mixed": plot_mixed,
    "loadsweep": plot_loadsweep,
    "aging": plot_aging,
    "ycsb": plot_ycsb,
    "resize": plot_resize,
    "scaling": plot_scaling,
    "steps": plot_steps,
    "adversarial": plot_adversarial,
    "cpu-compare": plot_cpu_compare,
    "shard": plot_shard,
    "probes": plot_probes,
    "caching": plot_caching,
    "sptc": plot_sptc,
    "async": plot_async,
}


def main(argv):
    args = argv[1:]
    redraw = "--all" in args
    args = [a for a in args if a != "--all"]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        sys.stderr.write("usage: plot.py [--all] [DIR]\n")
        return 2
    root = args[0] if args else "bench/results"
    if not os.path.isdir(root):
        sys.stderr.write("plot.py: %s is not a folder (run `make bench` first)\n" % root)
        return 1
    folders = defaultdict(list)
    for dirpath, _, files in os.walk(root):
        for name in sorted(files):
            if name.endswith(".csv"):
                folders[dirpath].append(os.path.join(dirpath, name))
    if not folders:
        sys.stderr.write("plot.py: no CSV files under %s (run `make bench` first)\n" % root)
        return 1
    plt = None
    made = skipped = 0
    for folder, paths in sorted(folders.items()):
        workloads = defaultdict(list)
        newest = defaultdict(float)  # workload -> the newest CSV it is drawn from
        for p in paths:
            try:
                rows = read_rows(p)
                mtime = os.path.getmtime(p)
            except (OSError, csv.Error) as e:
                sys.stderr.write("plot.py: skipping %s: %s\n" % (p, e))
                continue
            for r in rows:
                if not r.get("workload"):
                    continue
                workloads[r["workload"]].append(r)
                newest[r["workload"]] = max(newest[r["workload"]], mtime)
        for wl, rows in sorted(workloads.items()):
            out = os.path.join(folder, wl + ".png")
            if not redraw and os.path.exists(out) and os.path.getmtime(out) >= newest[wl]:
                print("plot.py: %s is newer than its CSVs: skipped" % out)
                skipped += 1
                continue
            if plt is None:
                plt = need_matplotlib()
            fig = PLOTS.get(wl, plot_generic)(plt, rows, out)
            fig.text(0.01, 0.005, subtitle(rows), fontsize=7, alpha=0.7)
            fig.tight_layout(rect=(0, 0.03, 1, 0.97))
            fig.savefig(out, dpi=120)
            plt.close(fig)
            print("plot.py: wrote", out)
            made += 1
    return 0 if made or skipped else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
