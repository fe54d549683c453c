"""Table chat (issue 15; docs/server.md, "Chat").

A seated player says a line (at most ``MAX_CHARS`` characters of text, or one of the
quick ``PHRASES`` by key); it is stored with the match (table ``chat``) and sent as a
``chat`` message to every socket of the match — seats and spectators alike — on every
worker: this worker's sockets at once, the others' through their poll of the table
(every ``POLL`` seconds while they have sockets of a match with chat, looking back
``LOOKBACK`` seconds and remembering what they sent).  Lines are plain text: the page
sets them as text, never as markup.  Each seat may say ``BURST`` lines at once and then
one every ``EVERY`` seconds (``chat_slow`` otherwise).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import unicodedata
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from spillebord.server import wire
from spillebord.server.errors import Refusal
from spillebord.server.storage.chat import ChatRepo
from spillebord.server.storage.repo import now

log = logging.getLogger(__name__)
MAX_CHARS = 300
PHRASES = ("hello", "good_luck", "good_game", "thanks", "well_played", "oops")
BURST = 5
EVERY = 2.0
POLL = 0.1
LOOKBACK = 2.0

Push = Callable[[str], None]


def clean_text(raw: str) -> str:
    """The line as stored: NFC, ends trimmed; refused when empty, too long or holding
    control characters (line breaks included: one line)."""
    text = unicodedata.normalize("NFC", raw).strip()
    if not text:
        raise Refusal("bad_chat", "say something (the line is empty)",
                      key="server.chat_empty")
    if len(text) > MAX_CHARS:
        raise Refusal("bad_chat", f"a chat line has at most {MAX_CHARS} characters",
                      key="server.chat_long", params={"max": MAX_CHARS})
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in text):
        raise Refusal("bad_chat", "a chat line is one line of visible text",
                      key="server.chat_characters")
    return text


class Chat:
    def __init__(self, repo: ChatRepo) -> None:
        self.repo = repo
        self.listeners: dict[str, set[Push]] = {}
        self.sent: dict[int, float] = {}  # line id → when this worker sent it
        self.allowance: dict[tuple[str, int], tuple[float, float]] = {}
        self.since = now()
        self.task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.task = asyncio.create_task(self._poll(), name="chat-feed")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

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
        left, last = self.allowance.get((match_id, seat), (float(BURST), at))
        left = min(float(BURST), left + (at - last) / EVERY)
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
        name = await asyncio.to_thread(self.repo.name_of, player_id)
        line = await asyncio.to_thread(self.repo.add, match_id, seat, player_id, name,
                                       text, phrase, version, now())
        self._deliver([line])

    def _deliver(self, lines: list[dict[str, Any]]) -> None:
        at = time.monotonic()
        for line in lines:
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
            if not self.listeners:
                self.since = now()
                continue
            start = now()
            try:
                lines = await asyncio.to_thread(self.repo.recent, list(self.listeners),
                                                self.since - timedelta(seconds=LOOKBACK))
            except Exception:
                log.warning("chat poll failed", exc_info=True)
                continue
            self.since = start
            self._deliver(lines)
            horizon = time.monotonic() - 4 * LOOKBACK - 1
            for key in [k for k, t in self.sent.items() if t < horizon]:
                del self.sent[key]
