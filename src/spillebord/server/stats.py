"""Player statistics: games, wins, solitaire bonus points over time, results against
bots — one portable query, summed in Python, JSON ready for charts."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from spillebord.server.storage.models import matches, seats


def player_stats(engine: Engine, player_id: str) -> dict[str, Any]:
    with engine.connect() as conn:
        mine = conn.execute(
            select(seats.c.match_id, seats.c.seat, matches.c.game, matches.c.status,
                   matches.c.outcome, matches.c.created, matches.c.finished)
            .join(matches, matches.c.id == seats.c.match_id)
            .where(seats.c.player_id == player_id)
        ).all()
        ids = [r.match_id for r in mine]
        bot_rows = conn.execute(
            select(seats.c.match_id, seats.c.seat, seats.c.bot)
            .where(seats.c.match_id.in_(ids), seats.c.kind == "bot")
        ).all() if ids else []
    bots_in: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for b in bot_rows:
        bots_in[b.match_id].append((b.seat, b.bot))

    by_game: dict[str, dict[str, int]] = defaultdict(
        lambda: {"games": 0, "finished": 0, "wins": 0, "bonus": 0})
    vs_bots: dict[tuple[str, str], dict[str, int]] = defaultdict(
        lambda: {"games": 0, "player_wins": 0, "bot_wins": 0})
    finished = []
    for r in mine:
        g = by_game[r.game]
        g["games"] += 1
        if r.status != "finished" or r.outcome is None:
            continue
        winners = set(r.outcome.get("winners", []))
        won = r.seat in winners
        bonus = int(r.outcome.get("bonus", 0)) if won else 0
        g["finished"] += 1
        g["wins"] += int(won)
        g["bonus"] += bonus
        finished.append((r.finished or r.created, r.match_id, r.game, won, bonus))
        for bot in sorted({name for _seat, name in bots_in[r.match_id]}):
            entry = vs_bots[(r.game, bot)]
            entry["games"] += 1
            entry["player_wins"] += int(won)
            entry["bot_wins"] += int(any(s in winners for s, n in bots_in[r.match_id]
                                         if n == bot))
    finished.sort(key=lambda item: item[0])
    timeline = []
    total_bonus = total_wins = 0
    for when, match_id, game, won, bonus in finished:
        total_bonus += bonus
        total_wins += int(won)
        timeline.append({"time": when.isoformat(), "match_id": match_id, "game": game,
                         "won": won, "bonus": bonus, "cumulative_bonus": total_bonus,
                         "cumulative_wins": total_wins})
    return {
        "player_id": player_id,
        "games": len(mine),
        "finished": len(finished),
        "wins": total_wins,
        "bonus": total_bonus,
        "by_game": dict(by_game),
        "timeline": timeline,
        "bots": [{"game": g, "bot": b, **v} for (g, b), v in sorted(vs_bots.items())],
    }
