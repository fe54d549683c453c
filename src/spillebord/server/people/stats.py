"""Player statistics — the one place they are computed: per game (games, finished, wins,
win rate, first and last date, current and longest winning streak, bonus, and for the
solitaires the best time and fewest moves of a win and the hints: how many, wins without
one, per game and per won game), the timeline, results against each
bot, and the player's best result on one deal.  Portable queries, summed in Python, JSON
ready for the charts and tables of the pages (docs/web.md, "Statistics").

A streak counts consecutive wins among the player's finished games of one game, in the
order they finished; a loss or a resignation ends it; games still running do not count.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Connection, Engine

from spillebord.server.infra.storage.models import actions, matches, seats
from spillebord.server.room.clock import Clock, play_clock

Opponent = tuple[str, int | None]  # (bot, level of the game or None)


def streaks(results: Iterable[bool]) -> tuple[int, int]:
    """(current, longest) run of wins in ``results`` (oldest first)."""
    current = longest = 0
    for won in results:
        current = current + 1 if won else 0
        longest = max(longest, current)
    return current, longest


def _clocks(conn: Connection, rows: list[Any]) -> dict[str, Clock]:
    """The clock of each finished solitaire among ``rows``."""
    ids = [r.match_id for r in rows if r.seats == 1 and r.status == "finished"]
    if not ids:
        return {}
    events: dict[str, list[tuple[str, str, Any]]] = defaultdict(list)
    for a in conn.execute(select(actions.c.match_id, actions.c.kind, actions.c.text,
                                 actions.c.time)
                          .where(actions.c.match_id.in_(ids))
                          .order_by(actions.c.match_id, actions.c.seq)):
        events[a.match_id].append((a.kind, a.text, _aware(a.time)))
    created = {r.match_id: _aware(r.created) for r in rows}
    return {m: play_clock(created[m], events.get(m, [])) for m in ids}


def _aware(t: datetime) -> datetime:
    """SQLite gives naive datetimes back; they were written in UTC."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def _won(row: Any) -> tuple[bool, int]:
    winners = set(row.outcome.get("winners", []))
    won = row.seat in winners
    return won, int(row.outcome.get("bonus", 0) or 0) if won else 0


def _better(a: dict[str, Any] | None, b: dict[str, Any]) -> bool:
    """Is result ``b`` better than ``a``? A win, then more bonus, less time, fewer moves."""
    if a is None:
        return True
    key_a = (a["won"], a["bonus"], -a.get("seconds", 0.0), -a.get("moves", 0))
    key_b = (b["won"], b["bonus"], -b.get("seconds", 0.0), -b.get("moves", 0))
    return key_b > key_a


def _mine(conn: Connection, player_id: str, *where: Any) -> list[Any]:
    return list(conn.execute(
        select(seats.c.match_id, seats.c.seat, matches.c.game, matches.c.status,
               matches.c.outcome, matches.c.created, matches.c.finished, matches.c.seats,
               matches.c.deal, matches.c.flags, matches.c.hints)
        .join(matches, matches.c.id == seats.c.match_id)
        .where(seats.c.player_id == player_id, *where)
    ).all())


def _game_entry() -> dict[str, Any]:
    return {"games": 0, "finished": 0, "wins": 0, "bonus": 0, "first": None, "last": None,
            "win_rate": None, "current_streak": 0, "longest_streak": 0,
            "best_seconds": None, "best_moves": None, "hints": None,
            "won_without_hints": None, "hints_per_game": None, "hints_per_win": None}


def _ratio(a: int, b: int) -> float | None:
    return round(a / b, 2) if b else None


def player_stats(engine: Engine, player_id: str) -> dict[str, Any]:
    with engine.connect() as conn:
        mine = _mine(conn, player_id)
        ids = [r.match_id for r in mine]
        bot_rows = conn.execute(
            select(seats.c.match_id, seats.c.seat, seats.c.bot, seats.c.level)
            .where(seats.c.match_id.in_(ids), seats.c.kind == "bot")
        ).all() if ids else []
        clocks = _clocks(conn, mine)
    # A bot seat is counted by what the player chose: a level of the game, or a bot.
    bots_in: dict[str, list[tuple[int, Opponent]]] = defaultdict(list)
    for b in bot_rows:
        level = b.level.get("level") if isinstance(b.level, dict) else None
        bots_in[b.match_id].append((b.seat, (b.bot, level if isinstance(level, int) else None)))

    by_game: dict[str, dict[str, Any]] = defaultdict(_game_entry)
    vs_bots: dict[tuple[str, Opponent], dict[str, int]] = defaultdict(
        lambda: {"games": 0, "player_wins": 0, "bot_wins": 0})
    finished = []
    # Solitaires: (hints in finished games, hints in won games, wins with a hint) per game.
    hints: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in mine:
        g = by_game[r.game]
        g["games"] += 1
        if r.status != "finished" or r.outcome is None:
            continue
        won, bonus = _won(r)
        when = _aware(r.finished or r.created)
        g["finished"] += 1
        g["wins"] += int(won)
        g["bonus"] += bonus
        clock = clocks.get(r.match_id)
        if clock is not None and won:
            for field, value in (("best_seconds", clock.seconds), ("best_moves", clock.moves)):
                if g[field] is None or value < g[field]:
                    g[field] = value
        given = int(r.hints or 0) if r.seats == 1 else None
        if given is not None:
            h = hints[r.game]
            h[0] += given
            h[1] += given if won else 0
            h[2] += int(won and given > 0)
        finished.append((when, r.match_id, r.game, won, bonus, clock, given))
        winners = set(r.outcome.get("winners", []))
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
    results: dict[str, list[bool]] = defaultdict(list)
    for when, match_id, game, won, bonus, clock, given in finished:
        total_bonus += bonus
        total_wins += int(won)
        results[game].append(won)
        g = by_game[game]
        g["first"] = g["first"] or when.isoformat()
        g["last"] = when.isoformat()
        point: dict[str, Any] = {
            "time": when.isoformat(), "match_id": match_id, "game": game, "won": won,
            "bonus": bonus, "cumulative_bonus": total_bonus, "cumulative_wins": total_wins}
        if clock is not None:
            point.update(clock.to_json())
        if given is not None:
            point["hints"] = given
        timeline.append(point)
    for game, g in by_game.items():
        if g["finished"]:
            g["win_rate"] = round(g["wins"] / g["finished"], 4)
        g["current_streak"], g["longest_streak"] = streaks(results[game])
        if g["best_seconds"] is not None:
            g["best_seconds"] = round(g["best_seconds"], 1)
        if game in hints:
            given_all, given_in_wins, wins_helped = hints[game]
            g["hints"] = given_all
            g["won_without_hints"] = g["wins"] - wins_helped
            g["hints_per_game"] = _ratio(given_all, g["finished"])
            g["hints_per_win"] = _ratio(given_in_wins, g["wins"])
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


def best_on_deal(engine: Engine, player_id: str, game: str, deal: int,
                 flags: dict[str, bool]) -> dict[str, Any]:
    """The player's finished solitaire games of one deal (same variant flags): how many,
    how many won, and the best result (a win before a loss, then more bonus, less time,
    fewer moves)."""
    with engine.connect() as conn:
        rows = [r for r in _mine(conn, player_id, matches.c.game == game,
                                 matches.c.deal == deal, matches.c.seats == 1,
                                 matches.c.status == "finished")
                if dict(r.flags) == dict(flags) and r.outcome is not None]
        clocks = _clocks(conn, rows)
    best: dict[str, Any] | None = None
    wins = 0
    for r in rows:
        won, bonus = _won(r)
        wins += int(won)
        result = {"match_id": r.match_id, "won": won, "bonus": bonus,
                  "finished": _aware(r.finished or r.created).isoformat(),
                  **clocks[r.match_id].to_json()}
        if _better(best, result):
            best = result
    return {"game": game, "deal": deal, "played": len(rows), "wins": wins, "best": best}
