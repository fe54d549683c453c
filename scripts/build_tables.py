"""Build the shipped tables of solved deals (``spillebord/solvers/<game>/data/
verdicts.json``, read by ``spillebord.solvers.tables``) and their per-deal CSV
(``docs/analysis/difficulty_<game>.csv``) from solver results.

    python scripts/build_tables.py posthus --solves posthus.parquet \\
        [--deep docs/analysis/posthus_deep.jsonl] [--deals 1-1000] [--playouts 400]
    python scripts/build_tables.py studenter --solves studenter.parquet --playouts 40

``--solves``: Parquet files of ``spillebord analyse solve`` (columns ``game``, ``flags``,
``seconds``, ``deal``, ``verdict``, ``nodes``, …); for each deal the decided verdict of
the shortest time limit that decided it, and its ``nodes`` as the search effort.
``--deep``: JSON lines of ``bench/posthus_deep.py`` for the deals the runs left unknown
(its ``nodes`` are the effort).  The sensible player's playouts
(``solvers/<game>/playout.py``) run here, seeded by the deal number, so the same inputs
give the same table.

Difficulty (docs/analysis.md, "Difficulty"), for the proven winnable deals only: the
mean of two percentile ranks among them — the search effort (more states, harder) and
the playouts' loss share (fewer wins, harder) — times 100, so 0–100; ties share their
mean rank.  The levels are its thirds: the easiest third of the deals ``easy``, the
middle ``medium``, the hardest ``hard``.  Deals that only the long proof run decided
are rated but not offered by the picker or the daily deal (level ``-``): the live
solver behind the hint (2 s) cannot find their win, so it could not guide a player.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import time
from pathlib import Path

from spillebord import games
from spillebord.analysis import schema, store

ROOT = Path(__file__).resolve().parent.parent
LETTER = {"winnable": "w", "unwinnable": "u", "unknown": "?"}
METHOD = ("difficulty: mean of the percentile ranks, among the proven winnable deals, of "
          "the solver's search effort (states searched to the verdict) and the loss share "
          "of a sensible player's playouts, x100; easy/medium/hard = its thirds "
          "(docs/analysis.md)")


def deal_range(text: str) -> range:
    a, _, b = text.partition("-")
    return range(int(a), int(b or a) + 1)


def flag_text(flags: dict[str, bool]) -> str:
    return ",".join(sorted(k for k, v in flags.items() if v))


def read_solves(paths: list[Path], game: str, flags: str,
                deals: range) -> dict[int, tuple[str, int, float]]:
    """deal → (verdict, nodes, time limit) of the shortest limit that decided it (else
    the longest limit's unknown)."""
    best: dict[int, tuple[str, int, float]] = {}
    for path in paths:
        t = store.read_table(path, schema.SOLVE).select(
            ["game", "flags", "seconds", "deal", "verdict", "nodes"]).to_pylist()
        for row in t:
            deal = int(row["deal"])
            if row["game"] != game or row["flags"] != flags or deal not in deals:
                continue
            item = (str(row["verdict"]), int(row["nodes"]), float(row["seconds"]))
            old = best.get(deal)
            if old is None or better(item, old):
                best[deal] = item
    return best


def better(item: tuple[str, int, float], old: tuple[str, int, float]) -> bool:
    """A decided verdict beats an unknown; among decided ones the shorter limit, among
    unknown ones the longer."""
    if (item[0] == "unknown") != (old[0] == "unknown"):
        return old[0] == "unknown"
    return item[2] < old[2] if item[0] != "unknown" else item[2] > old[2]


def read_deep(path: Path | None) -> dict[int, tuple[str, int]]:
    out: dict[int, tuple[str, int]] = {}
    if path is None:
        return out
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if row["verdict"] != "unknown" or int(row["deal"]) not in out:
            out[int(row["deal"])] = (str(row["verdict"]), int(row["nodes"]))
    return out


def ranks(values: list[float]) -> list[float]:
    """Percentile ranks in (0, 1): (mean rank of ties − 0.5) / n, smallest first."""
    order = sorted(range(len(values)), key=values.__getitem__)
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        mean = (i + j) / 2 + 0.5
        for k in range(i, j + 1):
            out[order[k]] = mean / len(values)
        i = j + 1
    return out


def shares(game: str, deals: list[int], n: int, flags: dict[str, bool]) -> dict[int, float]:
    if game == "posthus":
        from spillebord.solvers.posthus.playout import win_share as posthus_share

        g = games.load("posthus")
        return {d: posthus_share(g.new(deal=d, **flags).grid, flags.get("open_gaps", False),
                                 n, d) for d in deals}
    from spillebord.solvers.studenter.playout import win_share

    return {d: win_share(d, n, d) for d in deals}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=("posthus", "studenter"))
    parser.add_argument("--solves", type=Path, nargs="+", required=True)
    parser.add_argument("--deep", type=Path, default=None)
    parser.add_argument("--deals", default="1-1000")
    parser.add_argument("--playouts", type=int, default=400)
    args = parser.parse_args()
    game = args.game
    flags = dict(games.load(game).check_flags({}))
    deals = deal_range(args.deals)
    solves = read_solves(args.solves, game, flag_text(flags), deals)
    deep = read_deep(args.deep)
    missing = [d for d in deals if d not in solves and d not in deep]
    if missing:
        raise SystemExit(f"no result for deals {missing[:10]} …")
    verdict: dict[int, str] = {}
    effort: dict[int, int] = {}
    source: dict[int, str] = {}
    for d in deals:
        v, nodes, seconds = solves.get(d, ("unknown", 0, 0.0))
        verdict[d], effort[d], source[d] = v, nodes, f"{seconds:g} s"
        if v == "unknown" and d in deep:
            verdict[d], effort[d] = deep[d]
            source[d] = "deep"
    won = [d for d in deals if verdict[d] == "winnable"]
    began = time.process_time()
    share = shares(game, won, args.playouts, flags)
    print(f"{len(won)} playouts x {args.playouts}: {time.process_time() - began:.0f} CPU s")
    r_effort = ranks([math.log(max(1, effort[d])) for d in won])
    r_loss = ranks([1.0 - share[d] for d in won])
    score = {d: round(50 * (a + b)) for d, a, b in zip(won, r_effort, r_loss, strict=True)}
    order = sorted(won, key=lambda d: (score[d], d))
    level = {d: "emh"[min(2, 3 * i // len(order))] for i, d in enumerate(order)
             if source[d] != "deep"}  # offered only where the live hint can find the win
    data = {"game": game, "flags": flags, "first": deals.start,
            "verdicts": "".join(LETTER[verdict[d]] for d in deals),
            "difficulty": [score.get(d, -1) for d in deals],
            "levels": "".join(level.get(d, "-") for d in deals),
            "playouts": args.playouts, "method": METHOD}
    out = ROOT / "src" / "spillebord" / "solvers" / game / "data" / "verdicts.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    rows = ROOT / "docs" / "analysis" / f"difficulty_{game}.csv"
    with rows.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["deal", "verdict", "decided_by", "effort_states", "playout_win_share",
                    "difficulty", "level"])
        for d in deals:
            w.writerow([d, verdict[d], source[d], effort[d],
                        "" if d not in share else f"{share[d]:.4f}",
                        score.get(d, ""), {"e": "easy", "m": "medium", "h": "hard"}.get(
                            level.get(d, ""), "")])
    counts = {v: sum(1 for d in deals if verdict[d] == v) for v in LETTER}
    print(f"{out.relative_to(ROOT)}: {counts}; {rows.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
