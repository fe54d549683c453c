"""The daily deal (issue 15; docs/server.md, "Daily deal"): for each solitaire with a
solver, one deal per calendar day in Europe/Copenhagen, the same for every player.

How the deal is found, so anyone can recompute it: ``start`` is the first 8 bytes of
SHA-256(``"spillebord daily <game> <YYYY-MM-DD>"``) read as a big-endian number, modulo
10⁹.  For a game with a shipped table of rated deals (``solvers.tables``: Posthuskabalen
and Studenterkabalen) the day has a difficulty — Monday and Tuesday easy, Wednesday to
Friday medium, Saturday and Sunday hard (``level_of``) — and the deal is entry ``start``
modulo their number of the table's proven winnable deals of that difficulty, in deal
order.  Otherwise the deal is the first number ``start``, ``start + 1`` … that the game's
solver proves winnable (``pick_winnable_deal``, ``SOLVE_SECONDS`` per deal, default
flags).  The first worker to find it stores it; from then on the stored deal is the
day's deal.

Each signed-in account has one ranked attempt a day (the first match it starts from the
daily page; a guest cannot start one, so a fresh guest id is no new attempt).  During a
ranked attempt the solver gives no hint and no verdict, and no undo takes back a redeal
(it would let the player see the next shuffle and choose); undo within a round stays
allowed and each is counted on the leaderboard.  Until the day is over (Copenhagen
time) the leaderboard names no attempt's match and another player's attempt has no
record or replay (docs/security.md, "The daily deal").
The leaderboard ranks finished attempts by bonus (more first), then moves (fewer
first), then time played (less first) — moves and time from the match's clock
(server/room/clock.py).  The streak is the number of consecutive days, up to today (or up to
yesterday while today is not yet played), with an attempt.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Awaitable, Callable
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from spillebord.server.daily.storage import DailyRepo
from spillebord.server.errors import Refusal, game_or_refuse
from spillebord.server.infra import compute
from spillebord.server.infra.storage.repo import now
from spillebord.server.room.clock import play_clock
from spillebord.server.tables.lobby import CreateMatch
from spillebord.solvers import tables

if TYPE_CHECKING:
    from spillebord.server.infra.compute import Compute

Create = Callable[[CreateMatch, str | None], Awaitable[dict[str, Any]]]

REDEAL = "redeal"  # the action text of a redeal, in every game with a daily deal
RANKS = ("bonus", "moves", "seconds")  # what the leaderboard ranks by, in order
ZONE = ZoneInfo("Europe/Copenhagen")
SOLVE_SECONDS = 5.0


def today() -> str:
    return datetime.now(ZONE).date().isoformat()


def start_of(game: str, day: str) -> int:
    digest = hashlib.sha256(f"spillebord daily {game} {day}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % 10**9


WEEK: tuple[tables.Level, ...] = ("easy", "easy", "medium", "medium", "medium", "hard", "hard")


def level_of(day: str) -> tables.Level:
    """The day's difficulty, by weekday (Monday first)."""
    return WEEK[date.fromisoformat(day).weekday()]


def rated_deal(game: str, day: str) -> int | None:
    """The day's deal from the shipped table, or None when the game has none."""
    if not tables.has_levels(game):
        return None
    pool = tables.winnable_deals(game, level_of(day))
    return pool[start_of(game, day) % len(pool)]


def streak(days: list[str], day: str) -> int:
    """Consecutive days with an attempt, ending ``day`` (or the day before it)."""
    played = set(days)
    current = date.fromisoformat(day)
    if day not in played:
        current -= timedelta(days=1)
    n = 0
    while current.isoformat() in played:
        n += 1
        current -= timedelta(days=1)
    return n


def ranked(attempts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rows = []
    for a in attempts:
        clock = play_clock(a["created"], a["events"])
        outcome = a["outcome"] or {}
        undos = sum(1 for kind, _text, _time in a["events"] if kind == "undo")
        rows.append({"name": a["name"], "match_id": a["match_id"], "undos": undos,
                     "finished": a["status"] == "finished",
                     "bonus": int(outcome.get("bonus", 0)) if a["status"] == "finished" else 0,
                     "won": bool(outcome.get("winners")), "moves": clock.moves,
                     "seconds": round(clock.seconds, 1)})
    done = sorted((r for r in rows if r["finished"]),
                  key=lambda r: (-r["bonus"], r["moves"], r["seconds"], r["name"] or ""))
    for i, r in enumerate(done):
        r["rank"] = i + 1
    playing = [{**r, "rank": None} for r in rows if not r["finished"]]
    return done + sorted(playing, key=lambda r: r["name"] or "")


class Daily:
    """``person(id)``: the account row of a player or None; ``create``: open a match
    (tables/lobby.py)."""

    def __init__(self, repo: DailyRepo, compute: Compute,
                 person: Callable[[str], object | None], create: Create) -> None:
        self.repo = repo
        self.compute = compute
        self.person = person
        self.create = create
        self._finding: dict[tuple[str, str], asyncio.Lock] = {}

    def game(self, key: str) -> str:
        g = game_or_refuse(key)
        if not g.is_solitaire or not compute.solver_offers(g.key, "pick_winnable_deal"):
            raise Refusal("no_daily", f"{g.key} has no daily deal (solitaires with a "
                                      "solver only)")
        return g.key

    async def deal(self, game: str, day: str) -> tuple[int, int]:
        found = await asyncio.to_thread(self.repo.deal_of, game, day)
        if found is not None:
            return found
        if day != today():
            raise Refusal("no_daily", f"there was no daily {game} deal on {day}", 404)
        lock = self._finding.setdefault((game, day), asyncio.Lock())
        async with lock:
            found = await asyncio.to_thread(self.repo.deal_of, game, day)
            if found is not None:
                return found
            start = start_of(game, day)
            deal = rated_deal(game, day)
            if deal is None:
                deal = await self.compute.solver(compute.winnable_deal, game, start,
                                                 SOLVE_SECONDS, {})
            return await asyncio.to_thread(self.repo.keep_deal, game, day, start, deal, now())

    async def info(self, game: str, player: str | None) -> dict[str, Any]:
        day = today()
        start, deal = await self.deal(game, day)
        attempt = streak_days = None
        if player is not None:
            attempt = await asyncio.to_thread(self.repo.attempt, game, day, player)
            streak_days = streak(await asyncio.to_thread(self.repo.days_played, game, player),
                                 day)
        finished = False
        if attempt is not None:
            found = await asyncio.to_thread(self.repo.attempt_of, attempt)
            finished = found is not None and found[2]
        rated = tables.difficulty(game, deal, {})
        return {"game": game, "day": day, "start": start, "deal": deal,
                "difficulty": None if rated is None else rated[1],
                "attempt": attempt, "attempt_finished": finished,
                "streak": streak_days or 0}

    async def ranked_day(self, match_id: str) -> str | None:
        """The day whose ranked attempt this match is, or None."""
        return await asyncio.to_thread(self.repo.attempt_day, match_id)

    async def refuse_help(self, match_id: str) -> None:
        """No hint and no verdict in a ranked attempt."""
        if await self.ranked_day(match_id) is not None:
            raise Refusal("daily_no_help", "this is your ranked attempt at the daily deal: "
                                           "it gets no hints and no verdict")

    async def refuse_undo(self, match_id: str, last: str | None) -> None:
        """No undo of a redeal in a ranked attempt (it would show the next shuffle)."""
        if last == REDEAL and await self.ranked_day(match_id) is not None:
            raise Refusal("daily_no_undo", "this is your ranked attempt at the daily deal: "
                                           "a redeal cannot be undone")

    async def refuse_record(self, match_id: str, seat: int | None) -> None:
        """Another player's ranked attempt (its line, record, replay) opens only when
        its day is over in Europe/Copenhagen; the attempt's own seat may read it."""
        if seat is not None:
            return
        day = await self.ranked_day(match_id)
        if day is not None and day >= today():
            raise Refusal("daily_running", "this is a ranked attempt at today's daily "
                                           "deal: it opens when the day is over", 403)

    async def play(self, game: str, player: str | None) -> dict[str, Any]:
        if player is None:
            raise Refusal("daily_account", "the ranked daily deal needs an account: sign "
                                           "in (or sign up) first", 401)
        if await asyncio.to_thread(self.person, player) is None:
            # Checked first: the attempt row needs the player, and nothing is created
            # for a player that does not exist.
            raise Refusal("unknown_player", "there is no such player", 404)
        day = today()
        _start, deal = await self.deal(game, day)
        if await asyncio.to_thread(self.repo.attempt, game, day, player):
            raise Refusal("already_played", "you have played today's deal; it is ranked "
                                            "once a day", 409)
        made = await self.create(CreateMatch(game=game, seats=["me"], deal=deal), player)
        if not await asyncio.to_thread(self.repo.add_attempt, game, day, player,
                                       made["match_id"], now()):
            raise Refusal("already_played", "you have played today's deal; it is ranked "
                                            "once a day", 409)
        return {**made, "day": day}
