"""JSON for the WebSocket wire: orjson (several times faster than the standard library
in both directions, and the server encodes one state message per action).

Output is the same compact UTF-8 JSON as ``json.dumps(obj, ensure_ascii=False,
separators=(",", ":"))`` for everything a view holds (dicts, lists, strings, integers,
booleans, null); dict keys that are not strings are written as strings like the
standard library does.
"""

from __future__ import annotations

from typing import Any

import orjson

JSONDecodeError = orjson.JSONDecodeError  # a subclass of json.JSONDecodeError
_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=_OPTIONS).decode()


def loads(text: str | bytes) -> Any:
    return orjson.loads(text)


def message(t: str, v: int, d: Any) -> str:
    """A message of the protocol (docs/protocol.md): ``{"t": type, "v": version, "d":
    data}``."""
    return dumps({"t": t, "v": v, "d": d})
