"""The database read behind "Dine spil": a player's seats, newest first, with each
match's result for that seat and who else sat there.  A blocking function (called off
the event loop)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from spillebord.server.infra.storage.models import matches, players, seats
from spillebord.server.infra.storage.repo import aware

LIMIT = 50


def result_for(outcome: dict[str, Any] | None, seat: int, left: bool,
               solitaire: bool = False) -> str | None:
    """``won``, ``lost`` or ``draw`` (a table nobody won) for the seat (None while
    running); a solitaire not won is lost.  A seat its player gave up is lost whatever
    the bot then did with it (issue 28 rates it so)."""
    if outcome is None:
        return None
    if left:
        return "lost"
    winners = outcome.get("winners") or []
    if seat in winners:
        return "won"
    return "draw" if not winners and not solitaire else "lost"


def place_for(outcome: dict[str, Any] | None, seat: int) -> int | None:
    """The seat's place in the ranking (1 = best; tied seats share it)."""
    for i, group in enumerate((outcome or {}).get("ranking") or []):
        if seat in group:
            return i + 1
    return None


def player_games(engine: Engine, player_id: str, account: bool = True,
                 limit: int = LIMIT) -> list[dict[str, Any]]:
    """The player's matches (running and finished), newest first.  ``account``: an
    account's seat opens on any device by its sign-in (``play_url`` ends in
    ``#account``); a guest's by the token its browser keeps."""
    mine = (select(seats.c.match_id, seats.c.seat, seats.c.left, matches.c.game,
                   matches.c.status, matches.c.outcome, matches.c.created,
                   matches.c.finished, matches.c.seats.label("n_seats"), matches.c.hints)
            .join(matches, matches.c.id == seats.c.match_id)
            .where(seats.c.player_id == player_id)
            .order_by(matches.c.created.desc()).limit(limit))
    with engine.connect() as conn:
        rows = conn.execute(mine).all()
        ids = [r.match_id for r in rows]
        others: dict[str, list[dict[str, Any]]] = {i: [] for i in ids}
        if ids:
            for o in conn.execute(
                    select(seats.c.match_id, seats.c.seat, seats.c.kind, seats.c.bot,
                           seats.c.level, seats.c.player_id, seats.c.left, players.c.name)
                    .outerjoin(players, players.c.id == seats.c.player_id)
                    .where(seats.c.match_id.in_(ids)).order_by(seats.c.seat)):
                if o.player_id == player_id:
                    continue
                level = o.level.get("level") if isinstance(o.level, dict) else None
                others[o.match_id].append({
                    "seat": o.seat, "kind": o.kind, "bot": o.bot, "level": level,
                    "name": o.name, "claimed": o.kind == "bot" or o.player_id is not None,
                    "left": o.left is not None})
    out = []
    for r in rows:
        outcome = r.outcome if isinstance(r.outcome, dict) else None
        left = r.left is not None
        out.append({
            "match_id": r.match_id, "game": r.game, "status": r.status, "seat": r.seat,
            "seats": r.n_seats, "left": left,
            "result": result_for(outcome, r.seat, left, r.n_seats == 1),
            "place": place_for(outcome, r.seat),
            "bonus": (outcome or {}).get("bonus"),
            # a solitaire's hints so far ("med 4 tip"); a table game has none
            "hints": int(r.hints or 0) if r.n_seats == 1 else None,
            "reason": (outcome or {}).get("reason"),
            "opponents": others[r.match_id],
            "created": (aware(r.created) or r.created).isoformat(),
            "finished": None if r.finished is None else (aware(r.finished) or
                                                         r.finished).isoformat(),
            "play_url": f"/play/{r.match_id}#account" if account else f"/play/{r.match_id}",
            "replay_url": f"/replay/{r.match_id}" if r.status == "finished" else None})
    return out
