"""Seat any agent at a live table over the WebSocket protocol (docs/research.md, "A bot
at a live table"; the wire in docs/protocol.md).

``LiveAgent`` signs in as a **declared bot account** (``POST /api/bot-account`` makes
one; the operator can mark an existing account with ``spillebord ops bot-account``), takes
a seat — an invite, a new table against the site's levels, or "quick match" — and plays
it to the end with a *policy*:

- a **view policy** ``fn(view, legal) -> str``: the seat's ``view`` (the dict the
  server sends, ``state.view(seat)``) and its legal action texts; it returns one of them;
- a **PettingZoo policy** ``fn(observation, agent) -> int``: the same
  ``{"observation", "action_mask"}`` dict as the table envs' (the research codec reads
  only the view), and ``agent`` = ``"player_<seat>"``; it returns an action index.

A dropped socket is reconnected (the seat token in ``hello``) with growing pauses, up to
``reconnects`` times in a row; the game goes on from the server's latest state.  Every
failure a user can cause — a bad URL, a server that is not Spillebord, wrong credentials,
an account that is not a declared bot, a refused seat, a policy that raises or returns
something not legal — is an ``AgentError`` with one clear line.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx
import numpy as np
import websockets

from spillebord.research.codec import codec_for

JSON = dict[str, Any]
Policy = Callable[[JSON, list[str]], str]  # (view, legal) -> action text
PolicyFactory = Callable[[str, int], Policy]  # (game key, seats) -> policy
PACE = 0.020  # docs/protocol.md, "Pacing": at least 20 ms between messages


class AgentError(Exception):
    """A failure the user can fix; the message is one line."""


# -- policies ---------------------------------------------------------------------------

def load_callable(spec: str) -> Callable[..., Any]:
    """``module:attribute`` (dots allowed in both parts) → the callable it names."""
    module_name, colon, attr = spec.partition(":")
    if not colon or not module_name or not attr:
        raise AgentError(f"--policy is module:function, not {spec!r}")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise AgentError(f"cannot import {module_name!r}: {exc}") from None
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise AgentError(f"{module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise AgentError(f"{spec} is not callable")
    return obj  # type: ignore[no-any-return]


def view_policy(fn: Callable[..., Any]) -> PolicyFactory:
    """A policy on the view and the legal texts, checked to answer a legal text."""

    def make(_game: str, _seats: int) -> Policy:
        def policy(view: JSON, legal: list[str]) -> str:
            action = _call(fn, view, legal)
            if not isinstance(action, str) or action not in legal:
                raise AgentError(f"the policy answered {action!r}, not one of the legal "
                                 f"actions {legal}")
            return action
        return policy

    return make


def pettingzoo_policy(fn: Callable[..., Any]) -> PolicyFactory:
    """A policy on the table envs' observation dict, through the game's research codec."""

    def make(game: str, seats: int) -> Policy:
        try:
            codec = codec_for(game, seats)
        except ValueError as exc:
            raise AgentError(f"a PettingZoo policy needs a research codec: {exc}") from None

        def policy(view: JSON, legal: list[str]) -> str:
            index = codec.actions(view, legal)
            mask = np.zeros(codec.n_actions, dtype=np.int8)
            mask[list(index)] = 1
            obs = {"observation": codec.observe(view), "action_mask": mask}
            chosen = _call(fn, obs, f"player_{view['seat']}")
            try:
                action = index[int(chosen)]
            except (KeyError, TypeError, ValueError):
                raise AgentError(f"the policy answered {chosen!r}, not a legal index "
                                 f"{sorted(index)}") from None
            return str(action)
        return policy

    return make


def _call(fn: Callable[..., Any], *args: Any) -> Any:
    try:
        return fn(*args)
    except AgentError:
        raise
    except Exception as exc:
        raise AgentError(f"the policy failed: {type(exc).__name__}: {exc}") from exc


def policy_from(spec: str, kind: str) -> PolicyFactory:
    """The policy ``--policy`` names, as ``--kind`` (``view`` or ``pettingzoo``) says."""
    if kind not in ("view", "pettingzoo"):
        raise AgentError(f"--kind is view or pettingzoo, not {kind!r}")
    fn = load_callable(spec)
    return view_policy(fn) if kind == "view" else pettingzoo_policy(fn)


# -- the client -------------------------------------------------------------------------

def _bases(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise AgentError(f"--url is the site's http(s)://host[:port], not {url!r}")
    base = f"{parts.scheme}://{parts.netloc}{parts.path.rstrip('/')}"
    return base, ("wss" if parts.scheme == "https" else "ws") + base[len(parts.scheme):]


def _refusal(r: httpx.Response) -> str:
    try:
        detail = r.json()["detail"]
        return f"{detail['code']}: {detail['reason']}"
    except (ValueError, KeyError, TypeError):
        return f"HTTP {r.status_code}"


@dataclass
class Seated:
    match_id: str
    seat: int
    token: str
    game: str
    seats: int


@dataclass
class LiveAgent:
    """One declared bot account playing seats on one site; see the module docstring."""

    url: str
    policy: PolicyFactory
    name: str
    password: str
    reconnects: int = 5
    turn_timeout: float = 600.0  # seconds without any message before giving up
    http: httpx.AsyncClient | None = None
    player_id: str | None = None
    ws: Any = None  # the live socket (tests drop it to check reconnecting)
    reconnected: int = 0
    actions_sent: int = 0
    _last_sent: float = 0.0
    games: dict[str, JSON] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.base, self.ws_base = _bases(self.url)

    async def __aenter__(self) -> LiveAgent:
        self.http = httpx.AsyncClient(base_url=self.base, timeout=30)
        return self

    async def __aexit__(self, *_exc: object) -> None:
        if self.http is not None:
            await self.http.aclose()

    async def _request(self, method: str, path: str, **kw: Any) -> httpx.Response:
        assert self.http is not None, "use LiveAgent in `async with`"
        headers = {"X-Player": self.player_id} if self.player_id else {}
        try:
            return await self.http.request(method, path, headers=headers, **kw)
        except httpx.HTTPError as exc:
            raise AgentError(f"cannot reach {self.base}: {exc or type(exc).__name__}") from None

    # -- account --------------------------------------------------------------------
    async def sign_in(self, sign_up: bool = False, about: str | None = None) -> str:
        """Sign in (``sign_up``: make the declared bot account first); checks that the
        site is Spillebord and that the account is a declared bot."""
        games = await self._request("GET", "/api/games")
        try:
            self.games = {g["key"]: g for g in games.json()}
        except (ValueError, KeyError, TypeError):
            raise AgentError(f"{self.base} does not answer as a Spillebord site "
                             f"(GET /api/games: HTTP {games.status_code})") from None
        if sign_up:
            r = await self._request("POST", "/api/bot-account", json={
                "name": self.name, "password": self.password, "about": about})
            if r.status_code != 201:
                raise AgentError(f"signing up as {self.name!r} was refused: {_refusal(r)}")
        else:
            r = await self._request("POST", "/api/session",
                                    json={"name": self.name, "password": self.password})
            if r.status_code != 200:
                raise AgentError(f"signing in as {self.name!r} was refused: {_refusal(r)}")
        self.player_id = str(r.json()["player_id"])
        mark = await self._request("GET", f"/api/bot-accounts/{self.player_id}")
        if mark.status_code != 200 or not mark.json().get("bot"):
            raise AgentError(f"{self.name!r} is not a declared bot account: make one with "
                             "--sign-up, or ask the operator (spillebord ops bot-account)")
        return self.player_id

    # -- seats ----------------------------------------------------------------------
    async def join_invite(self, invite: str) -> Seated:
        """Claim an invite (its code, or the /join/… link)."""
        code = invite.rstrip("/").rsplit("/", 1)[-1]
        r = await self._request("POST", f"/api/invites/{code}/claim", json={})
        if r.status_code != 200:
            raise AgentError(f"the invite was refused: {_refusal(r)}")
        return await self._seated(r.json())

    async def create(self, game: str, seats: int, levels: list[int]) -> Seated:
        """A new table: this bot in seat 0, the site's ``levels`` in the others."""
        if len(levels) != seats - 1:
            raise AgentError(f"{seats} seats need {seats - 1} opponent levels, "
                             f"got {len(levels)}")
        r = await self._request("POST", "/api/matches", json={
            "game": game, "seats": ["me", *[{"level": n} for n in levels]]})
        if r.status_code != 201:
            raise AgentError(f"the table was refused: {_refusal(r)}")
        return await self._seated(r.json())

    async def quick(self, game: str, seats: int, fill_after: int | None = None) -> Seated:
        """A seat at the oldest open public table of the game and size, or a new one."""
        r = await self._request("POST", "/api/quick", json={
            "game": game, "seats": seats, "flags": {}, "fill_after": fill_after})
        if r.status_code != 200:
            raise AgentError(f"quick match was refused: {_refusal(r)}")
        return await self._seated(r.json())

    async def _seated(self, answer: JSON) -> Seated:
        info = await self._request("GET", f"/api/matches/{answer['match_id']}")
        m = info.json()
        return Seated(answer["match_id"], int(answer["seat"]), answer["token"], m["game"],
                      len(m["seats"]))

    # -- playing --------------------------------------------------------------------
    async def play(self, seated: Seated) -> JSON:
        """Play the seat to the end; the outcome.  Reconnects a dropped socket."""
        policy = self.policy(seated.game, seated.seats)
        failures = 0
        while True:
            try:
                return await self._play_once(seated, policy)
            except (websockets.ConnectionClosed, OSError, TimeoutError) as exc:
                failures += 1
                if failures > self.reconnects:
                    raise AgentError(f"the connection to {self.ws_base} was lost "
                                     f"{failures} times in a row ({exc!r})") from None
                self.reconnected += 1
                await asyncio.sleep(min(10.0, 0.2 * 2 ** failures))

    async def _send(self, t: str, d: JSON, v: int | None = None) -> None:
        wait = self._last_sent + PACE - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        frame: JSON = {"t": t, "d": d}
        if v is not None:
            frame["v"] = v
        await self.ws.send(json.dumps(frame))
        self._last_sent = time.monotonic()

    async def _recv(self) -> JSON:
        msg: JSON = json.loads(await asyncio.wait_for(self.ws.recv(), self.turn_timeout))
        return msg

    async def _play_once(self, seated: Seated, policy: Policy) -> JSON:
        # An account's seat opens only to a socket signed in as that account: the
        # session cookie goes along (docs/protocol.md, "sign_in_needed").
        cookie = None if self.http is None else self.http.cookies.get("spillebord_session")
        headers = {"Cookie": f"spillebord_session={cookie}"} if cookie else {}
        async with websockets.connect(f"{self.ws_base}/ws/{seated.match_id}",
                                      max_size=2**22, additional_headers=headers) as ws:
            self.ws = ws
            await self._send("hello", {"token": seated.token})
            acted_at = -1  # the version this seat last acted on
            while True:
                msg = await self._recv()
                t, d = msg["t"], msg.get("d") or {}
                if t == "error":
                    code = d.get("code")
                    if code in ("rate_limited", "stale"):  # ask for the latest state
                        await asyncio.sleep(1.0 if code == "rate_limited" else 0.0)
                        acted_at = -1
                        await self._send("sync", {}, v=int(msg.get("v") or 0))
                    else:
                        raise AgentError(f"the server refused {d.get('ref')}: {code}: "
                                         f"{d.get('reason')}")
                elif t == "state" and d.get("seat") == seated.seat:
                    if d.get("outcome") is not None:
                        return dict(d["outcome"])
                    legal = list(d.get("legal") or [])
                    if legal and msg["v"] > acted_at:
                        action = policy(d["view"], legal)
                        acted_at = msg["v"]
                        await self._send("act", {"action": action}, v=msg["v"])
                        self.actions_sent += 1
