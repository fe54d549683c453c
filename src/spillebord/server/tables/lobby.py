"""Creating a match: validate the request against the game, pick the deal (a random
one, or a winnable one found by the solver off the event loop), seal it with a
commitment (fairness.py), write the match with hashed seat tokens and invite codes, and
start its session.  A chosen deal number is refused when the table has invited seats:
the creator would know the invited players' cards."""

from __future__ import annotations

import asyncio
import math
import secrets
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field, StrictInt
from sqlalchemy.engine import Connection

from spillebord import bots
from spillebord.server.errors import Refusal, game_or_refuse
from spillebord.server.infra import compute
from spillebord.server.infra.storage.repo import MatchRow, Repository, SeatRow, now
from spillebord.server.people.service import check_player
from spillebord.server.room import fairness, wire
from spillebord.server.room.session import new_token, token_hash
from spillebord.server.tables.storage import open_row
from spillebord.solvers import tables

if TYPE_CHECKING:
    from spillebord.server.infra.compute import Compute
    from spillebord.server.infra.quotas import Quotas
    from spillebord.server.infra.settings import Settings
    from spillebord.server.room.session import Session

MAX_DEAL = 2**63 - 1
# Bots share one worker process: a room must not be able to make a bot think for hours.
MAX_BOT_SECONDS = 5.0
MAX_BOT_NUMBER = 100_000
MAX_OPTIONS_BYTES = 1024  # a bot seat's options and level, as compact JSON


class BotSeat(BaseModel):
    """A bot seat: a level of the game (``level``, the bot may be omitted: the level's
    own bot plays), or a bot with its declared keyword options (``options``)."""

    bot: str | None = Field(default=None, max_length=64)
    level: Any = None
    options: dict[str, Any] = Field(default_factory=dict, max_length=16)

    def kwargs(self) -> dict[str, Any]:
        return {**self.options, **({} if self.level is None else {"level": self.level})}


SeatSpec = Literal["me", "human"] | BotSeat


class CreateMatch(BaseModel):
    game: str = Field(max_length=32)
    flags: dict[str, bool] = Field(default_factory=dict)
    seats: list[SeatSpec] | None = Field(default=None, max_length=8)
    deal: int | Literal["random", "winnable"] = "random"
    # With "winnable": a deal of that difficulty from the shipped table (solvers.tables)
    difficulty: Literal["easy", "medium", "hard"] | None = None
    takeover_seconds: int | None = None
    # The turn timer (server/room/turns.py): the page offers none, 30, 60 and 120 s.
    turn_seconds: StrictInt | None = None
    player: str | None = None
    public: bool = False  # listed in the lobby (docs/protocol.md, "Open tables")
    fill_after: int | None = None  # seconds until bots take the open seats
    fill_level: int | None = None  # the level of those bots (default: the game's)


def _scalar(value: Any) -> bool:
    """A JSON scalar an option or level can be: true/false, an integer within 64 bits
    (stored and sent as JSON), a finite number or a string."""
    if isinstance(value, bool | str):
        return True
    if isinstance(value, int):
        return -(2**63) <= value < 2**63
    return isinstance(value, float) and math.isfinite(value)


def check_options_size(spec: BotSeat) -> None:
    """The options are stored and shown to every seat and spectator: JSON scalars only
    and bounded, whatever the bot's own schema says (the schema then checks names,
    types and ranges).  The first check of a bot seat: nothing before it reads them."""
    bad = next((k for k, v in spec.kwargs().items() if not _scalar(v)), None)
    if bad is not None:
        raise Refusal("bad_bot_options", f"bot option {bad[:64]} must be true/false, a "
                                         "string or a number (integers within 64 bits)")
    size = len(wire.dumps(spec.kwargs()).encode())
    if size > MAX_OPTIONS_BYTES:
        raise Refusal("bad_bot_options", f"a bot's options and level take at most "
                                         f"{MAX_OPTIONS_BYTES} bytes of JSON ({size} given)")


def check_bot_options(spec: BotSeat) -> None:
    for name, value in spec.kwargs().items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if "second" in name and not 0 < value <= MAX_BOT_SECONDS:
            raise Refusal("bad_bot_options",
                          f"bot option {name} is at most {MAX_BOT_SECONDS:g} seconds")
        if abs(value) > MAX_BOT_NUMBER:
            raise Refusal("bad_bot_options", f"bot option {name} is at most {MAX_BOT_NUMBER}")


def level_bot(game_key: str, level: Any) -> str:
    """The bot that plays ``level`` of the game (a seat that names only a level)."""
    table = bots.levels(game_key)
    if isinstance(level, bool) or level not in table:
        known = ", ".join(map(str, sorted(table))) or "none"
        raise Refusal("bad_bot_options", f"{game_key} has no level {level!r} (levels: {known})")
    return table[level].bot


def check_open_table(lobby: Lobby, game_key: str, req: CreateMatch,
                     open_seats: int) -> int | None:
    """A public table or one with bots filling its open seats needs open seats; the
    wait is 5 s–1 h (``min_fill`` in tests); the level one of the game's.  Returns the
    level the bots will play (None: no filling)."""
    if (req.public or req.fill_after is not None) and open_seats == 0:
        raise Refusal("bad_seats", "a public table or bot filling needs an open seat "
                                   '("human")')
    if req.fill_after is None:
        if req.fill_level is not None:
            raise Refusal("bad_request", "fill_level needs fill_after")
        return None
    low = lobby.settings.min_fill
    if isinstance(req.fill_after, bool) or not low <= req.fill_after <= 3600:
        raise Refusal("bad_request", f"fill_after is null or {low}–3600 seconds")
    table = bots.levels(game_key)
    level = req.fill_level if req.fill_level is not None else bots.default_level(game_key)
    if level not in table:
        known = ", ".join(map(str, sorted(table))) or "none"
        raise Refusal("bad_bot_options", f"{game_key} has no level {level!r} "
                                         f"(levels: {known})")
    return level


def rated_deal(game_key: str, difficulty: str, flags: dict[str, bool]) -> int:
    """A random deal of the shipped table that is proven winnable and rated
    ``difficulty`` (the table holds the flags it was computed for)."""
    table = tables.table(game_key)
    if table is None or not tables.has_levels(game_key):
        raise Refusal("no_difficulty", f"{game_key} has no table of rated deals")
    if flags != table.flags:
        raise Refusal("no_difficulty", "deals are rated for the default variant only")
    return secrets.choice(tables.winnable_deals(game_key, difficulty))


async def pick_deal(lobby: Lobby, game_key: str, solitaire: bool, deal: int | str,
                    flags: dict[str, bool], invited: bool = False,
                    difficulty: str | None = None) -> int:
    """The deal number; ``invited``: the table has seats for invited players;
    ``difficulty`` (with ``"winnable"`` only): a rated deal of that level."""
    if difficulty is not None and deal != "winnable":
        raise Refusal("bad_request", 'a difficulty goes with "deal": "winnable" only')
    if isinstance(deal, int):
        if isinstance(deal, bool) or not 0 <= deal <= MAX_DEAL:
            raise Refusal("bad_deal", f"a deal number is an integer from 0 to {MAX_DEAL}")
        if invited:
            raise Refusal("chosen_deal", "a chosen deal number is only for solitaires and "
                                         "tables whose other seats are bots: with invited "
                                         "players the server deals (a sealed random deal)")
        return deal
    if deal == "random":
        # Table deals decide every hidden card: 63 random bits, so nobody can search
        # the deal from the cards they see.
        return secrets.randbelow(10**9) if solitaire else secrets.randbits(63)
    if not solitaire or not compute.solver_offers(game_key, "pick_winnable_deal"):
        raise Refusal("no_solver", "a winnable deal needs a solitaire with a solver")
    if difficulty is not None:
        return rated_deal(game_key, difficulty, flags)
    start = secrets.randbelow(10**9)
    return await lobby.compute.solver(compute.winnable_deal, game_key, start,
                                      lobby.settings.winnable_seconds, flags)


class Lobby:
    """What creating a match needs: the repository, the compute pools (a winnable
    deal), ``adopt`` (start the new match's room), ``kick`` (the live lobby shows a
    new public table), the settings' limits and the creation quotas (infra/quotas.py)."""

    def __init__(self, repo: Repository, compute: Compute,
                 adopt: Callable[[MatchRow], Session], kick: Callable[[str], None],
                 settings: Settings, quotas: Quotas) -> None:
        self.repo = repo
        self.compute = compute
        self.adopt = adopt
        self.kick = kick
        self.settings = settings
        self.quotas = quotas

    async def create(self, req: CreateMatch, player: str | None, address: str | None = None,
                     sealed_until: datetime | None = None,
                     also: Also | None = None) -> dict[str, Any]:
        return await create_match(self, req, player, address, sealed_until, also)


Also = Callable[[Connection, str], None]  # a write in the creating transaction (match id)


async def create_match(lobby: Lobby, req: CreateMatch, player: str | None,
                       address: str | None = None,
                       sealed_until: datetime | None = None,
                       also: Also | None = None) -> dict[str, Any]:
    """Create a match (``address``: the caller's, for the quotas; ``sealed_until``: a
    ranked daily attempt's deal stays hidden until then, daily/service.py; ``also``: a
    write that commits or fails with the match, e.g. the rematch row, tables/rematch.py)."""
    game = game_or_refuse(req.game)
    player = check_player(req.player or player)
    specs: list[Any] = list(req.seats) if req.seats else (["me"] if game.is_solitaire else [])
    try:
        n = game.check_seats(len(specs))
        flags = game.check_flags(req.flags)
    except ValueError as exc:
        code = "bad_seats" if "seat" in str(exc) else "bad_flags"
        raise Refusal(code, str(exc)) from None
    if specs.count("me") > 1:
        raise Refusal("bad_seats", 'at most one seat can be "me"')
    known = compute.bot_names(game.key)
    for spec in specs:
        if isinstance(spec, BotSeat):
            check_options_size(spec)
            if spec.bot is None:
                spec.bot = level_bot(game.key, spec.level)
            if spec.bot not in known:
                raise Refusal("unknown_bot", f"no bot {spec.bot!r} for {game.key} "
                                             f"(bots: {', '.join(known)})")
            check_bot_options(spec)
            try:
                bots.load(game.key, spec.bot, **spec.kwargs())
            except (TypeError, ValueError) as exc:
                raise Refusal("bad_bot_options", str(exc)) from None
    t = req.takeover_seconds
    if t is not None and not lobby.settings.min_takeover <= t <= 86400:
        raise Refusal("bad_request", f"takeover_seconds is null or "
                                     f"{lobby.settings.min_takeover}–86400")
    turn = req.turn_seconds
    if turn is not None and (game.is_solitaire or isinstance(turn, bool)
                             or not lobby.settings.min_turn <= turn <= 600):
        raise Refusal("bad_request", "turn_seconds is null or "
                                     f"{lobby.settings.min_turn}–600, at a table game only")
    open_seats = sum(1 for spec in specs if spec == "human")
    fill_level = check_open_table(lobby, game.key, req, open_seats)
    bots_only = not any(spec in ("me", "human") for spec in specs)
    await lobby.quotas.creating(player, address, req.public, bots_only)  # 429 past a quota
    deal = await pick_deal(lobby, game.key, game.is_solitaire, req.deal, flags,
                           invited="human" in specs, difficulty=req.difficulty)
    try:
        game.new(deal=deal, seats=n, **flags)
    except ValueError as exc:
        raise Refusal("bad_request", str(exc)) from None

    match_id = secrets.token_urlsafe(9)
    token: str | None = None
    my_seat: int | None = None
    seat_rows: list[SeatRow] = []
    invites: list[dict[str, Any]] = []
    invite_hashes: dict[int, str] = {}
    for i, spec in enumerate(specs):
        if isinstance(spec, BotSeat):
            seat_rows.append(SeatRow(i, "bot", spec.bot or "", spec.kwargs() or None))
        elif spec == "me":
            token, my_seat = new_token(), i
            seat_rows.append(SeatRow(i, "human", token_hash=token_hash(token),
                                     player_id=player))
        else:
            code = secrets.token_urlsafe(18)
            invite_hashes[i] = token_hash(code)
            invites.append({"seat": i, "code": code, "url": f"/join/{code}"})
            seat_rows.append(SeatRow(i, "human"))
    row = MatchRow(id=match_id, game=game.key, flags=flags, seats=n, deal=deal,
                   status="running", created=now(), takeover_seconds=t, creator=player,
                   turn_seconds=turn,
                   seat_rows=seat_rows, salt=fairness.new_salt(), sealed_until=sealed_until)
    opened = None
    if req.public or req.fill_after is not None:
        opened = open_row(match_id, req.public, req.fill_after, fill_level, row.created)

    def extra(conn: Connection) -> None:
        if opened is not None:
            opened(conn)
        if also is not None:
            also(conn, match_id)

    await asyncio.to_thread(lobby.repo.create_match, row, invite_hashes, extra)
    lobby.adopt(row)
    lobby.quotas.created(match_id, player, address, req.public, bots_only)
    if req.public:
        lobby.kick(match_id)
    return {"match_id": match_id, "seat": my_seat, "token": token,
            "play_url": f"/play/{match_id}" + (f"#token={token}" if token else ""),
            "invites": invites,
            "commitment": None if sealed_until else fairness.commitment(deal, row.salt or "")}
