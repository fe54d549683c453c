"""Player statistics: games, wins, solitaire bonus points over time, results against
bots — one portable query, summed in Python, JSON ready for charts."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from spillebord.server.storage.models import matches, seats

Opponent = tuple[str, int | None]  # (bot, level of the game or None)


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
            select(seats.c.match_id, seats.c.seat, seats.c.bot, seats.c.level)
            .where(seats.c.match_id.in_(ids), seats.c.kind == "bot")
        ).all() if ids else []
    # A bot seat is counted by what the player chose: a level of the game, or a bot.
    bots_in: dict[str, list[tuple[int, Opponent]]] = defaultdict(list)
    for b in bot_rows:
        level = b.level.get("level") if isinstance(b.level, dict) else None
        bots_in[b.match_id].append((b.seat, (b.bot, level if isinstance(level, int) else None)))

    by_game: dict[str, dict[str, int]] = defaultdict(
        lambda: {"games": 0, "finished": 0, "wins": 0, "bonus": 0})
    vs_bots: dict[tuple[str, Opponent], dict[str, int]] = defaultdict(
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
        for bot in sorted({o for _seat, o in bots_in[r.match_id]},
                          key=lambda o: (o[0], o[1] or 0)):
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
        "bots": [{"game": g, "bot": b, "level": lv, **v}
                 for (g, (b, lv)), v in sorted(vs_bots.items(),
                                               key=lambda kv: (kv[0][0], kv[0][1][0],
                                                               kv[0][1][1] or 0))],
    }
