"""OpenSkill ratings of bots from tournament results, and the ladder chart.

The games of one game key, flag set and table size are rated in key order (bots list,
seed, game number), each with the site's rating arithmetic (``core.rating``:
the Plackett–Luce model, partners rated as the game's teams) but without the site's drift term
(τ = 0: a bot's strength does not change, so its σ keeps shrinking with more games and
the ladder does not lean towards the last games): every seat starts a game with its
bot's rating, and a bot that held several seats takes the mean of their new (μ, σ).
A game in which one bot held every seat says nothing and is skipped.  A bot's 95%
interval is μ ± 1.96 σ; ``shown`` is the number the site shows for a player
(μ − 3σ on the site's scale).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from rich.table import Table

from spillebord import games
from spillebord.analysis.schema import TOURNAMENT, flags_label
from spillebord.analysis.store import read_table
from spillebord.core import rating

Z95 = 1.96
BOT_MODEL = PlackettLuce(tau=0.0)


@dataclass(frozen=True)
class Rating:
    bot: str
    seat_games: int
    mu: float
    sigma: float
    mean_rank: float
    win_share: float  # share of its seat-games that the seat won

    @property
    def interval(self) -> tuple[float, float]:
        return (self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma)

    @property
    def shown(self) -> int:
        return rating.shown(self.mu, self.sigma)


@dataclass(frozen=True)
class Ladder:
    game: str
    flags: str
    seats: int
    games: int
    ratings: tuple[Rating, ...]  # best μ first

    @property
    def title(self) -> str:
        name = games.load(self.game).name_en
        label = flags_label(self.game, self.flags)
        return f"{name}{' (' + label + ')' if label else ''}, {self.seats} seats, " \
               f"{self.games} games"

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "flags": self.flags, "seats": self.seats,
                "games": self.games,
                "ratings": [{"bot": r.bot, "mu": r.mu, "sigma": r.sigma,
                             "ci95": list(r.interval), "shown": r.shown,
                             "seat_games": r.seat_games, "mean_rank": r.mean_rank,
                             "win_share": r.win_share} for r in self.ratings]}


def rate(game: str, flags: str, seats: int, rows: list[dict[str, Any]]) -> Ladder:
    """The ladder from tournament rows of one game, flag set and table size."""
    ordered = sorted(rows, key=lambda r: tuple(r[c] for c in TOURNAMENT.key))
    skill: dict[str, tuple[float, float]] = {}
    count: dict[str, int] = defaultdict(int)
    rank_sum: dict[str, float] = defaultdict(float)
    wins: dict[str, int] = defaultdict(int)
    rated = 0
    for row in ordered:
        lineup: list[str] = row["seat_bots"]
        for s, bot in enumerate(lineup):
            skill.setdefault(bot, (BOT_MODEL.mu, BOT_MODEL.sigma))
            count[bot] += 1
            rank_sum[bot] += row["ranks"][s]
            wins[bot] += s in row["winners"]
        if len(set(lineup)) < 2:
            continue
        groups: dict[int, list[int]] = defaultdict(list)
        for s, place in enumerate(row["ranks"]):
            groups[place].append(s)
        ranking = [groups[p] for p in sorted(groups)]
        after = rating.rate(game, seats, ranking,
                            {s: skill[bot] for s, bot in enumerate(lineup)}, BOT_MODEL)
        new: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for s, bot in enumerate(lineup):
            new[bot].append(after[s])
        for bot, values in new.items():
            skill[bot] = (sum(v[0] for v in values) / len(values),
                          sum(v[1] for v in values) / len(values))
        rated += 1
    ratings = sorted((Rating(bot, count[bot], mu, sigma, rank_sum[bot] / count[bot],
                             wins[bot] / count[bot]) for bot, (mu, sigma) in skill.items()),
                     key=lambda r: (-r.mu, r.bot))
    return Ladder(game, flags, seats, len(ordered), tuple(ratings))


def from_file(path: Path, run: dict[str, Any]) -> Ladder:
    """The ladder of ``run``'s game, flags and seats over every such game in the file."""
    rows = [r for r in read_table(path, TOURNAMENT).to_pylist()
            if (r["game"], r["flags"], r["seats"]) == (run["game"], run["flags"], run["seats"])]
    return rate(run["game"], run["flags"], run["seats"], rows)


def from_file_all(path: Path) -> list[Ladder]:
    """One ladder per game, flag set and table size in the file."""
    groups: dict[tuple[str, str, int], list[dict[str, Any]]] = defaultdict(list)
    for r in read_table(path, TOURNAMENT).to_pylist():
        groups[(r["game"], r["flags"], r["seats"])].append(r)
    if not groups:
        raise ValueError(f"{path} holds no games")
    return [rate(*key, rows) for key, rows in sorted(groups.items())]


def rich_table(ladder: Ladder) -> Table:
    table = Table(title=ladder.title)
    for col in ("bot", "μ", "σ", "95% interval", "shown", "seat-games", "mean rank",
                "seats won"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for r in ladder.ratings:
        lo, hi = r.interval
        table.add_row(r.bot, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{lo:.2f} – {hi:.2f}",
                      str(r.shown), str(r.seat_games), f"{r.mean_rank:.2f}",
                      f"{100 * r.win_share:.1f}%")
    return table


def draw_ladders(ladders: list[Ladder], out: Path) -> None:
    """Each ladder as a panel: the bots top to bottom by μ, a dot at μ and a bar over
    the 95% interval (SVG or PNG by the file name; SVGs are byte-for-byte reproducible)."""
    try:
        import matplotlib
    except ImportError:
        raise ValueError("the ladder chart needs matplotlib: pip install -e '.[research]'"
                         ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams["svg.hashsalt"] = "spillebord"
    heights = [max(1.2, 0.45 * len(lad.ratings) + 0.9) for lad in ladders]
    fig, axes = plt.subplots(len(ladders), 1, figsize=(7, sum(heights)),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    for ax, lad in zip(axes[:, 0], ladders, strict=True):
        rs = list(reversed(lad.ratings))
        ys = list(range(len(rs)))
        ax.errorbar([r.mu for r in rs], ys, xerr=[[Z95 * r.sigma for r in rs],
                                                  [Z95 * r.sigma for r in rs]],
                    fmt="o", color="#1f5f8b", ecolor="#7aa6c2", capsize=4)
        ax.set_yticks(ys, [r.bot for r in rs])
        ax.set_xlabel("OpenSkill μ (bar: 95% interval, μ ± 1.96 σ)")
        ax.set_title(lad.title, fontsize=11)
        ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    kind = out.suffix.lower().lstrip(".")
    fig.savefig(out, format=kind, metadata={"Date": None} if kind == "svg" else None)
    plt.close(fig)
