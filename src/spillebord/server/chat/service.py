"""Table chat (issue 15; docs/server.md, "Chat").

A seated player says a line (at most ``MAX_CHARS`` characters of text, or one of the
quick ``PHRASES`` by key); it is stored with the match (table ``chat``) and sent as a
``chat`` message to every socket of the match — seats and spectators alike — on every
worker: this worker's sockets at once; the others read the table when the writing
worker's notice comes over Redis after the commit (``notify`` / ``heard``; at most every
``POLL`` seconds), and every ``SAFETY_POLL`` seconds anyway while they have sockets, so a
lost notice only delays a line (each read looks back ``LOOKBACK`` seconds and remembers
what was sent).  A line is written in the same
group commit as the game events (no transaction of its own; the lines said while the
previous chat write commits go in one insert statement together), and the speaker's
name is read at most once a minute.  Lines are plain text: the page
sets them as text, never as markup.  Each seat may say ``BURST`` lines at once and then
one every ``EVERY`` seconds (``chat_slow`` otherwise; ``SPILLEBORD_CHAT_BURST`` and
``SPILLEBORD_CHAT_EVERY`` change them, e.g. for bench/chat_load.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import unicodedata
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import regex

from spillebord.server.chat.storage import ChatRepo
from spillebord.server.errors import Refusal, unavailable
from spillebord.server.infra.background import cancel
from spillebord.server.infra.storage.health import READS, StoreUnavailable
from spillebord.server.infra.storage.repo import now
from spillebord.server.infra.storage.writer import GroupWriter
from spillebord.server.room import wire

log = logging.getLogger(__name__)
MAX_CHARS = 300
PHRASES = ("hello", "good_luck", "good_game", "thanks", "well_played", "oops")
BURST = 5
EVERY = 2.0
# Refused anywhere in a line: controls, format characters, surrogates, private use,
# unassigned, and the line and paragraph separators (U+2028, U+2029: one line).
REFUSED = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
# A visible character: not a space, not default-ignorable (the Hangul fillers), not a
# mark on nothing.
VISIBLE = regex.compile(r"[^\s\p{Default_Ignorable_Code_Point}\p{M}]")
POLL = 0.1  # seconds: the shortest time between two reads of other workers' lines
SAFETY_POLL = 2.0  # seconds between reads when no notice came (none at all: POLL)
NAME_TTL = 60.0  # seconds a display name is reused for chat lines
LOOKBACK = 2.0

Push = Callable[[str], None]


def _retrieved(fut: asyncio.Future[None]) -> None:
    """Mark a failed write's outcome seen (its awaiters may all have gone)."""
    if not fut.cancelled():
        fut.exception()


def clean_text(raw: str) -> str:
    """The line as stored: NFC, ends trimmed; refused when empty, too long, holding
    control characters (line breaks and separators included: one line) or no visible
    character."""
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise Refusal("bad_chat", "say something (the line is empty)",
                      key="server.chat_empty")
    if len(text) > MAX_CHARS:
        raise Refusal("bad_chat", f"a chat line has at most {MAX_CHARS} characters",
                      key="server.chat_long", params={"max": MAX_CHARS})
    # (isprintable() is false for every one of these categories: most lines skip the loop)
    if ((not text.isprintable() and any(unicodedata.category(ch) in REFUSED for ch in text))
            or not VISIBLE.search(text)):
        raise Refusal("bad_chat", "a chat line is one line of visible text",
                      key="server.chat_characters")
    return text


class Chat:
    def __init__(self, repo: ChatRepo, burst: int = BURST, every: float = EVERY,
                 writer: Callable[[], GroupWriter] | None = None,
                 notify: Callable[[str], None] | None = None) -> None:
        self.repo = repo
        self.writer = writer
        self.names: dict[str, tuple[str | None, float]] = {}
        self.burst = burst
        self.every = every
        self.listeners: dict[str, set[Push]] = {}
        self.sent: dict[int, float] = {}  # line id → when this worker sent it
        self.allowance: dict[tuple[str, int], tuple[float, float]] = {}
        self.since = now()
        self.task: asyncio.Task[None] | None = None
        # lines waiting for the next chat write, and the future their writers await
        self._queued: list[tuple[dict[str, Any], str | None, datetime]] = []
        self._queued_done: asyncio.Future[None] | None = None
        self._writing = False  # a chat write is being committed
        self.polling = False  # shared mode: other workers' lines are read back (start)
        # shared mode: tell the other workers that a match has new lines (after the
        # commit); they call ``heard``.  Without it the reads run every POLL seconds.
        self.notify = notify
        self._heard = asyncio.Event()

    def start(self, poll: bool = True) -> None:
        """``poll``: other workers write lines too (shared mode); one worker delivers
        every line as it says it and never reads the table back."""
        self.polling = poll
        if poll:
            self.task = asyncio.create_task(self._poll(), name="chat-feed")

    async def stop(self) -> None:
        await cancel(self.task)

    def heard(self, match_id: str) -> None:
        """Another worker committed lines of ``match_id``: read them if it is watched."""
        if match_id in self.listeners:
            self._heard.set()

    def listen(self, match_id: str, push: Push) -> Callable[[], None]:
        self.listeners.setdefault(match_id, set()).add(push)

        def stop() -> None:
            pushes = self.listeners.get(match_id)
            if pushes is not None:
                pushes.discard(push)
                if not pushes:
                    del self.listeners[match_id]
        return stop

    def _rate(self, match_id: str, seat: int) -> None:
        at = time.monotonic()
        left, last = self.allowance.get((match_id, seat), (float(self.burst), at))
        left = min(float(self.burst), left + (at - last) / self.every)
        if left < 1:
            raise Refusal("chat_slow", "you are chatting too fast; wait a moment",
                          key="server.chat_slow")
        self.allowance[(match_id, seat)] = (left - 1, at)

    async def say(self, match_id: str, seat: int | None, player_id: str | None,
                  version: int, d: dict[str, Any]) -> None:
        if seat is None:
            raise Refusal("spectator", "spectators read the chat; connect with a seat "
                                       "token to write")
        phrase = d.get("phrase")
        if phrase is not None:
            if phrase not in PHRASES:
                raise Refusal("bad_chat", f"no quick phrase {str(phrase)[:40]!r}",
                              key="server.chat_phrase")
            text = ""
        else:
            raw = d.get("text")
            if not isinstance(raw, str):
                raise Refusal("malformed", "d.text must be a string (or d.phrase a key)")
            text = clean_text(raw)
        self._rate(match_id, seat)
        name = await self._name(player_id)
        when = now()
        line: dict[str, Any] = {"id": 0, "match_id": match_id, "seat": seat, "name": name,
                                "text": text, "phrase": phrase, "version": version,
                                "time": when.isoformat()}
        if self.writer is None:
            line = await asyncio.to_thread(self.repo.add, match_id, seat, player_id, name,
                                           text, phrase, version, when)
            if self.notify is not None:
                self.notify(match_id)
        else:
            try:
                await self._store(line, player_id, when)
            except StoreUnavailable:
                raise unavailable() from None
            except RuntimeError:
                raise Refusal("internal", "the line could not be saved", 500) from None
        self._deliver([line])

    async def _store(self, line: dict[str, Any], player_id: str | None,
                     when: datetime) -> None:
        """Write ``line`` with the lines said around it: one insert statement for all the
        lines said while the previous chat write was being committed (or in the same
        turn of the loop), in the game events' group commit (no transaction of its own)."""
        if self._queued_done is None:
            loop = asyncio.get_running_loop()
            self._queued_done = loop.create_future()
            self._queued_done.add_done_callback(_retrieved)
            if not self._writing:
                loop.call_soon(self._flush)
        done = self._queued_done
        self._queued.append((line, player_id, when))
        await asyncio.shield(done)

    def _flush(self) -> None:
        lines, done = self._queued, self._queued_done
        self._queued, self._queued_done = [], None
        if not lines or done is None or self.writer is None:
            return
        self._writing = True

        def written(fut: asyncio.Future[None]) -> None:
            self._writing = False
            if fut.cancelled() or fut.exception() is not None:
                kind = StoreUnavailable if isinstance(
                    None if fut.cancelled() else fut.exception(), StoreUnavailable
                ) else RuntimeError  # an outage is told as one (issue 31)
                done.set_exception(kind("the chat lines could not be saved"))
            else:
                done.set_result(None)
                if self.notify is not None:
                    for match_id in {line["match_id"] for line, _p, _w in lines}:
                        self.notify(match_id)
            if self._queued:
                self._flush()
        self.writer().submit([self.repo.insert_many_op(lines)]).add_done_callback(written)

    async def _name(self, player_id: str | None) -> str | None:
        """The player's display name, read at most once a minute per player."""
        if player_id is None:
            return None
        at = time.monotonic()
        cached = self.names.get(player_id)
        if cached is not None and at - cached[1] < NAME_TTL:
            return cached[0]
        name = await asyncio.to_thread(self.repo.name_of, player_id)
        if len(self.names) > 10_000:
            self.names.clear()
        self.names[player_id] = (name, at)
        return name

    def _deliver(self, lines: list[dict[str, Any]]) -> None:
        at = time.monotonic()
        for line in lines:
            if self.polling:  # (what was sent is remembered only to skip it there)
                if line["id"] in self.sent:
                    continue
                self.sent[line["id"]] = at
            text = wire.dumps({"t": "chat", "v": line["version"],
                               "d": {k: v for k, v in line.items() if k != "match_id"}})
            for push in list(self.listeners.get(line["match_id"], ())):
                push(text)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(POLL)
            if self.notify is not None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._heard.wait(), SAFETY_POLL - POLL)
                self._heard.clear()
            if not self.listeners:
                self.since = now()
                continue
            start = now()
            try:
                lines = await asyncio.to_thread(self.repo.recent, list(self.listeners),
                                                self.since - timedelta(seconds=LOOKBACK),
                                                self.sent.keys())
            except Exception as exc:
                if not READS.note(exc, "the chat poll"):  # an outage: one line
                    log.warning("chat poll failed", exc_info=True)
                continue
            self.since = start
            self._deliver(lines)
            horizon = time.monotonic() - 4 * LOOKBACK - 1
            old = []
            for key, at in self.sent.items():
                if at >= horizon:  # (in the order sent: the rest are newer)
                    break
                old.append(key)
            for key in old:
                del self.sent[key]
