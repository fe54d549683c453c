"""The charts and summary tables of docs/analysis.md, drawn from the Parquet results of
``spillebord analyse solve`` and the per-deal difficulty CSVs of
``scripts/build_tables.py``.

    python scripts/analysis_charts.py RESULTS.parquet [MORE.parquet …] \\
        [--out docs/analysis]

Writes, into ``--out``: ``summary.csv`` (one row per game, variant and time limit: deals,
winnable / unwinnable / unknown, the winnable share with its 95% Wilson interval, the
share still possible with the unknown counted as winnable, CPU seconds), and the charts
``winnability.svg`` (shares per game and limit, with intervals and the unknown share),
``blocks.svg`` (winnable share per block of 1000 deals), ``effort.svg`` (states searched
per decided deal) and ``difficulty.svg`` (the difficulty score's distribution) — and
prints the summary as a Markdown table.  A rerun of only the unknown deals at a longer
limit is one more row: at that limit, each deal counts with its verdict at the longest
limit it was run at (so the row covers every deal of the shorter run).
"""

from __future__ import annotations

import argparse
import csv
import math
from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from spillebord.analysis import schema, store
from spillebord.cli.simulate import wilson

ROOT = Path(__file__).resolve().parent.parent
NAMES = {("posthus", ""): "Posthuskabalen (strict)",
         ("posthus", "open_gaps"): "Posthuskabalen (open_gaps)",
         ("studenter", ""): "Studenterkabalen"}


Row = dict[str, object]


def load(paths: list[Path]) -> list[Row]:
    rows: list[Row] = []
    for p in paths:
        rows.extend(store.read_table(p, schema.SOLVE).select([
            "game", "flags", "clock", "seconds", "node_limit", "deal", "verdict", "nodes",
            "cpu_seconds"]).to_pylist())
    return rows


def summarise(rows: list[Row]) -> list[dict[str, object]]:
    """Per (game, flags): the limits in increasing order; at each limit every deal of
    the first (shortest) run counts with its verdict at the longest limit ≤ this one."""
    by: dict[tuple[str, str], dict[float, dict[int, Row]]] = defaultdict(lambda: defaultdict(dict))
    for r in rows:
        by[(str(r["game"]), str(r["flags"]))][float(str(r["seconds"]))][int(str(r["deal"]))] = r
    out = []
    for (game, flags), limits in sorted(by.items()):
        seconds = sorted(limits)
        base = limits[seconds[0]]
        current = {d: str(r["verdict"]) for d, r in base.items()}
        cpu = 0.0
        for s in seconds:
            for d, r in limits[s].items():
                if d in current:
                    current[d] = str(r["verdict"])
            cpu += sum(float(str(r["cpu_seconds"])) for r in limits[s].values())
            n = len(current)
            w = sum(v == "winnable" for v in current.values())
            u = sum(v == "unwinnable" for v in current.values())
            q = n - w - u
            lo, hi = wilson(w, n)
            out.append({"game": game, "flags": flags, "name": NAMES.get((game, flags), game),
                        "seconds": s, "deals": n, "first": min(current),
                        "last": max(current), "rerun": len(limits[s]) if s != seconds[0]
                        else 0, "winnable": w, "unwinnable": u, "unknown": q,
                        "winnable_share": w / n, "ci_low": lo, "ci_high": hi,
                        "at_most": (w + q) / n, "unknown_share": q / n,
                        "cpu_seconds": round(cpu, 1)})
    return out


PNG: list[bool] = []


def save(fig: plt.Figure, out: Path, name: str) -> None:
    fig.savefig(out / f"{name}.svg")
    if PNG:  # a bitmap to look at (not committed)
        fig.savefig(out / f"{name}.png", dpi=100)


def chart_winnability(summary: list[dict[str, object]], out: Path) -> None:
    fig, ax = plt.subplots(figsize=(8, 3.8))
    labels, shares, lows, highs, unknown = [], [], [], [], []
    for s in summary:
        labels.append(f"{s['name']}\n{s['seconds']:g} s, {s['deals']:,} deals")
        shares.append(100 * float(str(s["winnable_share"])))
        lows.append(100 * (float(str(s["winnable_share"])) - float(str(s["ci_low"]))))
        highs.append(100 * (float(str(s["ci_high"])) - float(str(s["winnable_share"]))))
        unknown.append(100 * float(str(s["unknown_share"])))
    y = range(len(labels))
    left = max(0, 5 * math.floor((min(shares) - 3) / 5))
    ax.barh(y, shares, xerr=[lows, highs], color="#2b7a3d", capsize=3, label="proven winnable")
    ax.barh(y, unknown, left=shares, color="#bbbbbb", label="unknown at the limit")
    for i, v in enumerate(shares):
        ax.text(left + 0.3, i, f"{v:.2f}%", va="center", color="white", fontsize=8)
    ax.set_yticks(list(y), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlim(left, 100)
    ax.set_xlabel(f"share of deals (%, axis from {left}), first round; "
                  "error bars: 95% Wilson interval")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    save(fig, out, "winnability")
    plt.close(fig)


def chart_blocks(rows: list[Row], out: Path) -> None:
    fig, ax = plt.subplots(figsize=(8, 3.4))
    groups: dict[tuple[str, str], dict[int, tuple[float, str]]] = defaultdict(dict)
    for r in rows:
        key = (str(r["game"]), str(r["flags"]))
        d, s = int(str(r["deal"])), float(str(r["seconds"]))
        if d not in groups[key] or s > groups[key][d][0]:
            groups[key][d] = (s, str(r["verdict"]))
    for key, deals in sorted(groups.items()):
        blocks: dict[int, list[str]] = defaultdict(list)
        for d, (_s, v) in deals.items():
            blocks[(d - 1) // 1000].append(v)
        xs = sorted(blocks)
        ps = [100 * sum(v == "winnable" for v in blocks[b]) / len(blocks[b]) for b in xs]
        ci = [wilson(sum(v == "winnable" for v in blocks[b]), len(blocks[b])) for b in xs]
        mids = [1000 * b + 500 for b in xs]
        line = ax.plot(mids, ps, marker=".", label=NAMES.get(key, key[0]))[0]
        ax.fill_between(mids, [100 * c[0] for c in ci], [100 * c[1] for c in ci],
                        color=line.get_color(), alpha=0.2)
    ax.set_xlabel("deal number (blocks of 1000)")
    ax.set_ylabel("proven winnable (%)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, out, "blocks")
    plt.close(fig)


def chart_effort(rows: list[Row], out: Path) -> None:
    fig, ax = plt.subplots(figsize=(8, 3.4))
    groups: dict[tuple[str, str], list[int]] = defaultdict(list)
    shortest: dict[tuple[str, str], float] = {}
    for r in rows:
        key = (str(r["game"]), str(r["flags"]))
        shortest[key] = min(shortest.get(key, 1e9), float(str(r["seconds"])))
    for r in rows:
        key = (str(r["game"]), str(r["flags"]))
        if float(str(r["seconds"])) == shortest[key] and r["verdict"] != "unknown":
            groups[key].append(max(1, int(str(r["nodes"]))))
    for key, nodes in sorted(groups.items()):
        nodes.sort()
        ys = [100 * (i + 1) / len(nodes) for i in range(len(nodes))]
        ax.plot(nodes, ys, label=f"{NAMES.get(key, key[0])} ({len(nodes):,} decided)")
    ax.set_xscale("log")
    ax.set_xlabel("states searched to the verdict (log)")
    ax.set_ylabel("deals decided (%, cumulative)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save(fig, out, "effort")
    plt.close(fig)


def chart_difficulty(out: Path) -> None:
    files = sorted(out.glob("difficulty_*.csv"))
    if not files:
        return
    fig, axes = plt.subplots(1, len(files), figsize=(4 * len(files), 3.2), squeeze=False)
    for ax, path in zip(axes[0], files, strict=True):
        with path.open() as f:
            scores = [int(r["difficulty"]) for r in csv.DictReader(f) if r["difficulty"]]
        ax.hist(scores, bins=20, range=(0, 100), color="#4a6fa5")
        for cut in (33.3, 66.7):
            ax.axvline(cut, color="#999999", linestyle=":")
        ax.set_title(f"{path.stem.split('_', 1)[1]}: {len(scores):,} winnable deals",
                     fontsize=9)
        ax.set_xlabel("difficulty score (0 easiest – 100 hardest)")
        ax.set_ylabel("deals")
    fig.tight_layout()
    save(fig, out, "difficulty")
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, nargs="+")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "analysis")
    parser.add_argument("--png", action="store_true", help="also PNG copies of the charts")
    args = parser.parse_args()
    if args.png:
        PNG.append(True)
    args.out.mkdir(parents=True, exist_ok=True)
    plt.rcParams["svg.hashsalt"] = "spillebord"  # stable SVG ids between runs
    rows = load(args.results)
    summary = summarise(rows)
    with (args.out / "summary.csv").open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(summary[0]))
        w.writeheader()
        w.writerows(summary)
    chart_winnability(summary, args.out)
    chart_blocks(rows, args.out)
    chart_effort(rows, args.out)
    chart_difficulty(args.out)
    print("| game | limit | deals | rerun | winnable | 95% interval | unwinnable | unknown "
          "| at most | CPU s |")
    print("|---|---:|---:|---:|---:|---|---:|---:|---:|---:|")
    for s in summary:
        print(f"| {s['name']} | {s['seconds']:g} s | {s['deals']:,} | {s['rerun'] or '—'} "
              f"| {s['winnable']:,} ({100 * float(str(s['winnable_share'])):.2f}%) "
              f"| {100 * float(str(s['ci_low'])):.2f}–{100 * float(str(s['ci_high'])):.2f}% "
              f"| {s['unwinnable']:,} | {s['unknown']:,} "
              f"({100 * float(str(s['unknown_share'])):.2f}%) "
              f"| {100 * float(str(s['at_most'])):.2f}% | {s['cpu_seconds']:,} |")


if __name__ == "__main__":
    main()
