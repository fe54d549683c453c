"""Refusals: every "no" the server says carries a machine code and a human reason.

A refusal may also carry a message ``key`` with ``params`` (and ``cards``/``ranks``/``places``,
the params that are card codes, ranks or board places) so that the page can show the reason in the
player's language; see ``spillebord.core.errors`` and docs/protocol.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from spillebord import games
from spillebord.core.errors import translatable


class Refusal(Exception):
    """A request that changes nothing.  ``status`` is the HTTP status for the API."""

    def __init__(self, code: str, reason: str, status: int = 400, *,
                 key: str | None = None, params: Mapping[str, object] | None = None,
                 cards: Iterable[str] = (), ranks: Iterable[str] = (),
                 places: Iterable[str] = (), retry_after: int | None = None) -> None:
        super().__init__(reason)
        self.retry_after = retry_after  # seconds: try again then (HTTP Retry-After)
        self.code = code
        self.reason = reason
        self.status = status
        self.key = key
        self.params: dict[str, str] = {k: str(v) for k, v in (params or {}).items()}
        self.cards: tuple[str, ...] = tuple(cards)
        self.ranks: tuple[str, ...] = tuple(ranks)
        self.places: tuple[str, ...] = tuple(places)

    @classmethod
    def from_error(cls, code: str, exc: BaseException, status: int = 400) -> Refusal:
        """A refusal for ``exc``: its English reason and, when it has one, its key."""
        return cls(code, str(exc), status, key=getattr(exc, "key", None),
                   params=getattr(exc, "params", None), cards=getattr(exc, "cards", ()),
                   ranks=getattr(exc, "ranks", ()), places=getattr(exc, "places", ()))

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"code": self.code, "reason": self.reason,
                                  **translatable(self.key, self.params, self.cards,
                                                 self.ranks, self.places)}
        if self.retry_after is not None:
            out["retry_after"] = self.retry_after
        return out


RETRY_SECONDS = 2  # the retry hint of an ``unavailable`` refusal


def unavailable() -> Refusal:
    """The database cannot be reached (an outage): nothing changed; try again in
    ``retry_after`` seconds (docs/protocol.md)."""
    return Refusal("unavailable", "the game store cannot be reached; nothing changed, "
                                  "try again", 503, retry_after=RETRY_SECONDS)


def game_or_refuse(key: str) -> games.Game:
    """The game players may open (its manifest says ``ready``), else a refusal."""
    try:
        game = games.load(key)
    except ValueError as exc:
        raise Refusal("unknown_game", str(exc)) from None
    if not games.manifest(key).ready:
        raise Refusal("unknown_game", f"{key!r} is not offered to players yet")
    return game
