"""Errors every layer raises: each carries a reason a person understands.

Besides the English ``reason`` (what ``str()`` gives and the CLI prints), an error
may carry a *message key* with *parameters*, so that the web page can say the same
thing in the player's language (docs/protocol.md, "error"):

* ``key`` -- a dotted key naming the sentence, ``<game>.<what>`` (``core.`` for the
  shared protocol, ``server.`` for the server's own), e.g. ``"posthus.no_fit.card_card"``.
  The page's catalogues (``web/static/i18n/{da,en}.json``) hold the sentence under
  ``"refused." + key`` with ``{name}`` placeholders for the parameters.
* ``params`` -- the placeholder values, all strings, written as the game's notation
  writes them: places (``c2``, ``t14``, ``h3``), seats and numbers stay as they are.
* ``places`` -- the names of the params whose value is a place of the game's board
  (``c2``, ``t14``, ``h0.3``, ``s1``, ``f3``); the page says those in words, as its
  game view words places everywhere ("række 2, plads 3", "Annas startfelt"), so no
  place code reaches the screen.
* ``cards`` -- the names of the params whose value is a card code (``8H``, ``TS``,
  ``JK``); the page shows those as card names in the player's language
  ("hjerter otte", "eight of hearts").
* ``ranks`` -- the names of the params whose value is a rank (``8``, ``10``, ``K``);
  the page shows those as rank names ("otte", "konge").

Every raise site spells its key as a literal ``key="..."`` so that
tests/test_catalogues.py can find every key in the source and check that both
catalogues have it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping


class SpillebordError(ValueError):
    """Base of the project's errors; always a ValueError with a one-line reason."""

    def __init__(self, reason: str, key: str | None = None,
                 params: Mapping[str, object] | None = None, *,
                 cards: Iterable[str] = (), ranks: Iterable[str] = (),
                 places: Iterable[str] = ()) -> None:
        super().__init__(reason)
        self.reason = reason
        self.key = key
        self.params: dict[str, str] = {k: str(v) for k, v in (params or {}).items()}
        self.cards: tuple[str, ...] = tuple(cards)
        self.ranks: tuple[str, ...] = tuple(ranks)
        self.places: tuple[str, ...] = tuple(places)
        stray = [n for n in (*self.cards, *self.ranks, *self.places) if n not in self.params]
        if stray:
            raise ValueError(f"{stray} are marked as cards, ranks or places but are not params")

    def message(self) -> dict[str, object]:
        """The translatable part, ``{"key", "params"[, "cards"][, "ranks"][, "places"]}``;
        ``{}`` when the error has no key (the English reason is then all there is)."""
        return translatable(self.key, self.params, self.cards, self.ranks, self.places)


def translatable(key: str | None, params: Mapping[str, str], cards: Iterable[str] = (),
                 ranks: Iterable[str] = (), places: Iterable[str] = ()) -> dict[str, object]:
    """The JSON form of a message key with its params (see the module docstring)."""
    if key is None:
        return {}
    out: dict[str, object] = {"key": key, "params": dict(params)}
    for name, names in (("cards", list(cards)), ("ranks", list(ranks)),
                        ("places", list(places))):
        if names:
            out[name] = names
    return out


class IllegalActionError(SpillebordError):
    """An action that the rules do not allow in this state (or that does not parse)."""


class NotationError(SpillebordError):
    """A position, action or record text that does not parse or is inconsistent."""


def refuse(reason: str, key: str, cards: Iterable[str] = (), ranks: Iterable[str] = (),
           places: Iterable[str] = (), **params: object) -> IllegalActionError:
    """The games' refusal sentences in one call: ``refuse(reason, key, card="8H",
    cards=("card",))`` — the params as keyword arguments."""
    return IllegalActionError(reason, key=key, params=params, cards=cards, ranks=ranks,
                              places=places)
