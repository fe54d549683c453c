"""Secrets out of the logs: a filter that blanks seat tokens and invite codes in what
uvicorn and the WebSocket library log (access lines such as
``GET /ws/m?token=…``, ``POST /api/invites/<code>/claim``, ``GET /join/<code>``).

The page sends its token in a ``hello`` frame, never in the URL; other clients may use
``?token=``, so the request line is redacted before any handler formats it.  The
filter sits on the named loggers (uvicorn configures their handlers, not their
filters, so it survives uvicorn's logging set-up whichever comes first).
"""

from __future__ import annotations

import logging
import re

LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "websockets", "websockets.server",
           "websockets.protocol")
SECRETS = [
    (re.compile(r"([?&](?:token|code|invite)=)[^&\s\"']+", re.IGNORECASE), r"\1[redacted]"),
    (re.compile(r"(/join/)[^/?#\s\"']+"), r"\1[redacted]"),
    (re.compile(r"(/api/invites/)[^/?#\s\"']+"), r"\1[redacted]"),
    (re.compile(r"(\"token\"\s*:\s*\")[^\"]*"), r"\1[redacted]"),  # a logged hello frame
    (re.compile(r"(Bearer\s+)[A-Za-z0-9_\-.~+/=]+", re.IGNORECASE), r"\1[redacted]"),
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
