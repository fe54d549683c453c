"""``spillebord simulate``: bot games with a Rich progress bar and a result table.

Bots are named NAME or NAME:OPTION=VALUE:... (e.g. ``ismcts:iterations=30``), comma
separated, and given to seats cyclically (seat s plays bots[(s + g) mod len(bots)] in game g),
so with two names at an even table partners share a bot and the seating rotates.
"games won" counts the games in which any seat of the bot won — for team games, with one
bot per team, that is the team's win rate with its 95% Wilson interval.
"""

from __future__ import annotations

import json
import math
import random
from collections import defaultdict
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table

from spillebord import bots as bots_layer
from spillebord.core.protocol import Game, State

# A bot spec ``NAME:OPTION=VALUE:...`` (kept under its old name for callers).
parse_bot_spec = bots_layer.parse_spec


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def play_game(state: State, seat_bots: list[bots_layer.Bot], rng: random.Random,
              max_actions: int = 100_000) -> State:
    for _ in range(max_actions):
        seat = state.to_move
        if seat is None:
            return state
        obs = bots_layer.Observation(state, seat, rng)
        state = state.apply(seat_bots[seat].choose(obs))
    raise RuntimeError("game did not end")


def run_simulation(game: Game, n_games: int, seats: int, bot_names: list[str], seed: int,
                   as_json: bool, flags: dict[str, bool]) -> dict[str, Any]:
    loaded: dict[str, bots_layer.Bot] = {}
    for spec in bot_names:
        name, options = parse_bot_spec(spec)
        try:
            loaded[spec] = bots_layer.load(game.key, name, **options)
        except TypeError as exc:
            raise ValueError(f"bot {name}: {exc}") from exc
    stats: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    console = Console(stderr=True)
    rng = random.Random(seed)
    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                  disable=as_json) as progress:
        task = progress.add_task(f"{game.key} ×{seats}", total=n_games)
        for g in range(n_games):
            names = [bot_names[(s + g) % len(bot_names)] for s in range(seats)]
            final = play_game(game.new(deal=seed + g, seats=seats, **flags),
                              [loaded[n] for n in names], rng)
            out = final.outcome
            assert out is not None
            rank_of = {s: i + 1 for i, group in enumerate(out.ranking) for s in group}
            for name in set(names):
                mine = {s for s, n in enumerate(names) if n == name}
                stats[name]["games"] += 1
                stats[name]["games_won"] += bool(mine & set(out.winners))
            for s, name in enumerate(names):
                st = stats[name]
                st["seat_games"] += 1
                st["wins"] += s in out.winners
                st["losses"] += s in out.losers
                st["rank_sum"] += rank_of.get(s, len(out.ranking))
                st["bonus"] += out.bonus
            progress.advance(task)
    result: dict[str, Any] = {
        "game": game.key, "games": n_games, "seats": seats, "bots": bot_names,
        "results": {
            name: {
                "games": int(st["games"]),
                "games_won": int(st["games_won"]),
                "game_win_rate": st["games_won"] / st["games"],
                "game_win_ci95": wilson(int(st["games_won"]), int(st["games"])),
                "seat_games": int(st["seat_games"]),
                "win_rate": st["wins"] / st["seat_games"],
                "win_ci95": wilson(int(st["wins"]), int(st["seat_games"])),
                "loss_rate": st["losses"] / st["seat_games"],
                "loss_ci95": wilson(int(st["losses"]), int(st["seat_games"])),
                "mean_rank": st["rank_sum"] / st["seat_games"],
                "mean_bonus": st["bonus"] / st["seat_games"],
            }
            for name, st in stats.items()
        },
    }
    if as_json:
        print(json.dumps(result))
    else:
        table = Table(title=f"{game.name_da} — {n_games} games, {seats} seats")
        for col in ("bot", "games won (95% CI)", "seat-games", "seat win rate (95% CI)",
                    "loss rate (95% CI)", "mean rank"):
            table.add_column(col)
        for name, r in result["results"].items():
            table.add_row(
                name,
                f"{r['games_won']}/{r['games']} = {r['game_win_rate']:.3f} "
                f"({r['game_win_ci95'][0]:.3f}–{r['game_win_ci95'][1]:.3f})",
                str(r["seat_games"]),
                f"{r['win_rate']:.3f} ({r['win_ci95'][0]:.3f}–{r['win_ci95'][1]:.3f})",
                f"{r['loss_rate']:.3f} ({r['loss_ci95'][0]:.3f}–{r['loss_ci95'][1]:.3f})",
                f"{r['mean_rank']:.2f}",
            )
        Console().print(table)
    return result
