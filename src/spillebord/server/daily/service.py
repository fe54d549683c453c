"""The daily deal (issue 15; docs/server.md, "Daily deal"): for each solitaire with a
solver, one deal per calendar day in Europe/Copenhagen, the same for every player.

The deal is chosen from a secret only the server knows and sealed ahead (issue 28,
``daily/seal.py``): the commitments of today and the next ``AHEAD`` days are public
(``GET /api/daily/{game}/commitments``, shown on the daily page); the deal, its salt and
its ``start`` only once the day is over (``dayclock.py``) — no answer, state message,
record or leaderboard names the deal of a day that is not over, and a ranked attempt's
match keeps its deal sealed until then (``matches.sealed_until``).  A day's deal is the
first number ``start``, ``start + 1`` … that the game's solver proves winnable
(``pick_winnable_deal``, ``SOLVE_SECONDS`` per deal); the first worker to find it stores
it with its salt, and from then on the stored deal is the day's deal.  Days chosen
before deals were sealed keep their stored deal (no salt, no commitment) and stay
readable.  Sealed days have no difficulty level: the shipped tables rate a few hundred
deals each, and a deal drawn from them would be recognised by its first layout.
Each worker chooses today's and the next ``AHEAD`` days' deals in the background from
its start (``Daily.start``: the solver in the compute pool, a failure logged and tried
again after ``RETRY_SECONDS``, a new look every ``CHOOSE_EVERY``), so no request waits
for the solver on a cold server.

Each signed-in account has one ranked attempt a day (the first match it starts from the
daily page; a guest cannot start one, so a fresh guest id is no new attempt).  During a
ranked attempt the solver gives no hint and no verdict, and no undo takes back a redeal
(it would let the player see the next shuffle and choose); undo within a round stays
allowed and each is counted on the leaderboard.  Until the day is over (Copenhagen
time) the leaderboard names no attempt's match and another player's attempt has no
record or replay (docs/security.md, "The daily deal").
The leaderboard ranks finished attempts by bonus (more first), then moves (fewer
first), then time played (less first) — moves and time from the match's clock
(server/clock.py).  The streak is the number of consecutive days, up to today (or up to
yesterday while today is not yet played), with an attempt.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import date, timedelta
from typing import TYPE_CHECKING, Any

from spillebord import games
from spillebord.server.daily.seal import commitment, salt_of, start_of
from spillebord.server.daily.storage import DailyRepo, DayDeal
from spillebord.server.errors import Refusal, game_or_refuse
from spillebord.server.infra import compute, dayclock
from spillebord.server.infra.storage.repo import now
from spillebord.server.room import fairness
from spillebord.server.room.clock import play_clock
from spillebord.server.tables.lobby import CreateMatch
from spillebord.solvers import tables

REDEAL = "redeal"  # the action text of a redeal, in every game with a daily deal
RANKS = ("bonus", "moves", "seconds")  # what the leaderboard ranks by, in order
log = logging.getLogger(__name__)
SOLVE_SECONDS = 5.0
AHEAD = 7  # days after today whose deal is chosen and committed to ahead
CHOOSE_EVERY = 3600.0  # seconds between the background looks for days to choose
KNOWN_MATCHES = 10_000  # matches known to be no ranked attempt, kept in memory
RETRY_SECONDS = 60.0  # after a failed look, the next one comes this soon


def today() -> str:
    return dayclock.today()


def over(day: str) -> bool:
    """Whether the Copenhagen day is over (its deal may be shown)."""
    return day < today()


def public(d: DayDeal) -> dict[str, Any]:
    """What anyone may know of a day's deal: its commitment; once the day is over also
    the deal, the salt, ``start`` and ``text`` (the exact text the commitment hashes —
    a 63-bit deal is not exact as a JavaScript number)."""
    shown = over(d.day)
    return {"day": d.day, "algorithm": fairness.ALGORITHM,
            "commitment": None if d.salt is None else commitment(d.deal, d.salt),
            "start": d.start if shown else None, "deal": d.deal if shown else None,
            "salt": d.salt if shown else None,
            "text": f"{d.deal}:{d.salt}" if shown and d.salt is not None else None}


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


if TYPE_CHECKING:
    from spillebord.server.infra.compute import Compute

Create = Callable[..., Awaitable[dict[str, Any]]]  # tables/lobby.py Lobby.create


class Daily:
    """``person(id)``: the account row of a player or None; ``create``: open a match
    (tables/lobby.py); ``secret()``: the daily secret (the setting, else the one kept in
    the database — blocking, called off the event loop)."""

    def __init__(self, repo: DailyRepo, compute: Compute,
                 person: Callable[[str], object | None], create: Create,
                 secret: Callable[[], str]) -> None:
        self.repo = repo
        self.compute = compute
        self.person = person
        self.create = create
        self._kept_secret = secret
        self._finding: dict[tuple[str, str], asyncio.Lock] = {}
        self._secret: str | None = None
        self._choosing: dict[tuple[str, str], asyncio.Task[None]] = {}
        self._ahead: asyncio.Task[None] | None = None
        self._not_ranked: set[str] = set()  # matches known to be no ranked attempt

    def start(self) -> None:
        """Choose today's and the next ``AHEAD`` days' deals in the background now (the
        solver in the compute pool, off the event loop), and look again every
        ``CHOOSE_EVERY`` seconds — so the first daily request of a cold server, and the
        commitments of days to come, find their deal chosen."""
        self._ahead = asyncio.create_task(self._choose_ahead(), name="daily ahead")

    async def stop(self) -> None:
        task, self._ahead = self._ahead, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def daily_games(self) -> list[str]:
        """The games with a daily deal: solitaires whose solver picks winnable deals."""
        return [k for k in games.ready_keys() if games.load(k).is_solitaire
                and compute.solver_offers(k, "pick_winnable_deal")]

    async def choose_ahead(self) -> int:
        """Choose every daily game's deal of today, then of the next ``AHEAD`` days,
        where not chosen yet, one at a time; the number chosen now."""
        first = date.fromisoformat(today())
        chosen = 0
        for i in range(AHEAD + 1):
            day = (first + timedelta(days=i)).isoformat()
            for game in self.daily_games():
                if await asyncio.to_thread(self.repo.deal_of, game, day) is None:
                    await self.deal(game, day)
                    chosen += 1
        return chosen

    async def _choose_ahead(self) -> None:
        while True:
            wait = CHOOSE_EVERY
            try:
                started = time.monotonic()
                chosen = await self.choose_ahead()
                if chosen:
                    log.info("chose %d daily deals ahead in %.1f s", chosen,
                             time.monotonic() - started)
            except Exception:  # logged; tried again soon
                log.exception("choosing the daily deals ahead failed; trying again in "
                              "%.0f s", RETRY_SECONDS)
                wait = RETRY_SECONDS
            await asyncio.sleep(wait)

    def game(self, key: str) -> str:
        g = game_or_refuse(key)
        if not g.is_solitaire or not compute.solver_offers(g.key, "pick_winnable_deal"):
            raise Refusal("no_daily", f"{g.key} has no daily deal (solitaires with a "
                                      "solver only)")
        return g.key

    async def secret(self) -> str:
        """The daily secret: the setting, else the one kept in the database."""
        secret = self._secret
        if secret is None:
            secret = await asyncio.to_thread(self._kept_secret)
        self._secret = secret
        return secret

    async def deal(self, game: str, day: str) -> DayDeal:
        """The day's deal (chosen now if it is today or one of the next ``AHEAD`` days
        and not chosen yet).  Callers show it only through ``public``."""
        found = await asyncio.to_thread(self.repo.deal_of, game, day)
        if found is not None:
            return found
        first = date.fromisoformat(today())
        if not first <= date.fromisoformat(day) <= first + timedelta(days=AHEAD):
            raise Refusal("no_daily", f"there is no daily {game} deal on {day}", 404)
        lock = self._finding.setdefault((game, day), asyncio.Lock())
        async with lock:
            found = await asyncio.to_thread(self.repo.deal_of, game, day)
            if found is not None:
                return found
            secret = await self.secret()
            start = start_of(secret, game, day)
            deal = await self.compute.solver(compute.winnable_deal, game, start,
                                                 SOLVE_SECONDS, {})
            return await asyncio.to_thread(self.repo.keep_deal, game, day, start, deal,
                                           salt_of(secret, game, day), now())

    async def commitments(self, game: str) -> list[dict[str, Any]]:
        """Today's and the next ``AHEAD`` days' commitments.  Today's deal is chosen now
        if it was not yet; a later day's not yet chosen is chosen in the background (the
        solver may take seconds a deal) and has commitment None until then."""
        first = date.fromisoformat(today())
        days = [(first + timedelta(days=i)).isoformat() for i in range(AHEAD + 1)]
        out = [public(await self.deal(game, days[0]))]
        for day in days[1:]:
            found = await asyncio.to_thread(self.repo.deal_of, game, day)
            if found is None and (game, day) not in self._choosing:
                task = asyncio.create_task(self._choose(game, day))
                self._choosing[(game, day)] = task
            out.append(public(found) if found else {"day": day, "commitment": None})
        return [{"day": d["day"], "commitment": d["commitment"]} for d in out]

    async def _choose(self, game: str, day: str) -> None:
        try:
            await self.deal(game, day)
        except Exception:  # logged; the next look tries again
            log.exception("choosing the daily %s deal of %s failed", game, day)
        finally:
            self._choosing.pop((game, day), None)

    async def info(self, game: str, player: str | None) -> dict[str, Any]:
        day = today()
        found = await self.deal(game, day)
        attempt = streak_days = None
        if player is not None:
            attempt = await asyncio.to_thread(self.repo.attempt, game, day, player)
            streak_days = streak(await asyncio.to_thread(self.repo.days_played, game, player),
                                 day)
        finished = False
        if attempt is not None:
            mine = await asyncio.to_thread(self.repo.attempt_of, attempt)
            finished = mine is not None and mine[2]
        # Days chosen before sealing came from the rated tables: their level is known.
        rated = None if found.salt else tables.difficulty(game, found.deal, {})
        return {**public(found), "game": game,
                "difficulty": None if rated is None else rated[1],
                "attempt": attempt, "attempt_finished": finished,
                "streak": streak_days or 0}

    async def ranked_day(self, match_id: str) -> str | None:
        """The day whose ranked attempt this match is, or None.  Asked on every hint,
        verdict and undo, so a match found to be *no* ranked attempt is remembered
        (``KNOWN_MATCHES`` of them): that never changes — a match becomes a ranked
        attempt only in ``play``, before its id and token are given to anyone — and a
        player asking again and again (a hint flood: issue 29) then costs no database
        read and no thread each time.  A ranked attempt's day is read each time."""
        if match_id in self._not_ranked:
            return None
        day = await asyncio.to_thread(self.repo.attempt_day, match_id)
        if day is None:
            if len(self._not_ranked) >= KNOWN_MATCHES:
                self._not_ranked.clear()
            self._not_ranked.add(match_id)
        return day

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
        if day is not None and not over(day):
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
        found = await self.deal(game, day)
        if await asyncio.to_thread(self.repo.attempt, game, day, player):
            raise Refusal("already_played", "you have played today's deal; it is ranked "
                                            "once a day", 409)
        made = await self.create(CreateMatch(game=game, seats=["me"], deal=found.deal),
                                 player, sealed_until=dayclock.end_of(day))
        if not await asyncio.to_thread(self.repo.add_attempt, game, day, player,
                                       made["match_id"], now()):
            raise Refusal("already_played", "you have played today's deal; it is ranked "
                                            "once a day", 409)
        # The match's own commitment seals the deal with the match's salt: no use to the
        # player before the day is over, so it is left out.
        return {**made, "day": day, "commitment": public(found)["commitment"]}

