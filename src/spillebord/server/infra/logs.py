"""The logs: secrets out of them, and JSON lines when asked.

Secrets: a filter that blanks seat tokens and invite codes in what
uvicorn and the WebSocket library log (access lines such as
``GET /ws/m?token=…``, ``POST /api/invites/<code>/claim``, ``GET /join/<code>``).

The page sends its token in a ``hello`` frame, never in the URL; other clients may use
``?token=``, so the request line is redacted before any handler formats it.  The
filter sits on the named loggers (uvicorn configures their handlers, not their
filters, so it survives uvicorn's logging set-up whichever comes first).

JSON lines (``SPILLEBORD_LOG_JSON=1``): every line one JSON object — ``ts``, ``level``,
``logger``, ``msg`` and, on every line about a game, ``match_id`` and ``seat`` (``null``
for a spectator or the game as a whole).  A game socket's task and a bot driver's task
carry a ``GameTag`` in a context variable, so whatever is logged while they run is
tagged without passing the match around.  The message and any traceback are redacted
here too (tokens, invite codes, passwords, bearer tokens).
"""

from __future__ import annotations

import json
import logging
import re
import sys
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime

LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "websockets", "websockets.server",
           "websockets.protocol")
SECRETS = [
    (re.compile(r"([?&](?:token|code|invite)=)[^&\s\"']+", re.IGNORECASE), r"\1[redacted]"),
    (re.compile(r"(/join/)[^/?#\s\"']+"), r"\1[redacted]"),
    (re.compile(r"(/api/invites/)[^/?#\s\"']+"), r"\1[redacted]"),
    (re.compile(r"(\"token\"\s*:\s*\")[^\"]*"), r"\1[redacted]"),  # a logged hello frame
    (re.compile(r"(Bearer\s+)[A-Za-z0-9_\-.~+/=]+", re.IGNORECASE), r"\1[redacted]"),
    (re.compile(r"(\"(?:password|new_password|old_password)\"\s*:\s*\")[^\"]*",
                re.IGNORECASE), r"\1[redacted]"),
]


def redact(text: str) -> str:
    for pattern, replacement in SECRETS:
        text = pattern.sub(replacement, text)
    return text


def _clean(arg: object) -> object:
    """``arg``, or its redacted text when its text holds a secret (the WebSocket
    library logs frame objects)."""
    if isinstance(arg, int | float | bool) or arg is None:
        return arg
    text = str(arg)
    cleaned = redact(text)
    return arg if cleaned == text else cleaned


class Redact(logging.Filter):
    """Rewrites the message and its arguments in place (keeping the arguments' shape:
    uvicorn's access formatter unpacks them by position)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _clean(v) for k, v in record.args.items()}
        return True


REDACT = Redact()


def install_redaction() -> None:
    """Put the filter on every logger that logs request lines (idempotent)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if REDACT not in logger.filters:
            logger.addFilter(REDACT)


@dataclass
class GameTag:
    """What the JSON lines say a line is about (mutable: a socket takes a seat later)."""

    match_id: str
    seat: int | None = None


GAME: ContextVar[GameTag | None] = ContextVar("spillebord_game", default=None)


def tag_game(match_id: str, seat: int | None = None) -> GameTag:
    """Tag every line logged from here on in this task (and tasks it starts)."""
    tag = GameTag(match_id, seat)
    GAME.set(tag)
    return tag


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname.lower(), "logger": record.name,
            "msg": redact(record.getMessage())}
        tag = GAME.get()
        match = getattr(record, "match_id", None) or (tag.match_id if tag else None)
        if match is not None:
            out["match_id"] = str(match)
            same = tag is not None and tag.match_id == match
            out["seat"] = getattr(record, "seat", tag.seat if same and tag else None)
        if record.exc_info:
            out["exc"] = redact(self.formatException(record.exc_info))
        return json.dumps(out, ensure_ascii=False, default=str)


JSON = JsonLines()


def install_json_lines() -> None:
    """Format every line as JSON: uvicorn's handlers get the formatter, and the root
    logger (the app's own loggers) a stderr handler at uvicorn's level."""
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        for handler in logging.getLogger(name).handlers:
            handler.setFormatter(JSON)
    root = logging.getLogger()
    if not any(getattr(h, "spillebord_json", False) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(JSON)
        handler.addFilter(REDACT)
        handler.spillebord_json = True  # type: ignore[attr-defined]
        root.addHandler(handler)
        root.setLevel(logging.getLogger("uvicorn.error").getEffectiveLevel())
