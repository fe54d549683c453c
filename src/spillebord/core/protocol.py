"""The game protocol every game implements (docs/architecture.md; docs/adding-a-game.md
walks through it).

- ``Game``: names, seat counts, flags, the declared ``game_type`` (information, chance,
  maximum length, where hidden cards live) and ``teams``; ``new(deal=, seats=, **flags)``;
  notation.
- ``State``: immutable, equal by value (same game, flags and position text; hashable);
  ``to_move``, ``legal_actions()``, ``apply()``, ``view(seat)``,
  ``outcome``, and ``resample(seat, rng)`` — a state from the same information set of
  ``seat`` with every card hidden from that seat drawn afresh (the determinization that
  bots and the leak test use).
- Actions (``Action``) are hashable values whose ``str()`` is their text notation —
  plain strings in most games, small frozen objects where a game needs more (kugler's
  ``Move``); ``legal_actions()``
  is sorted by that text and unique.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar, Protocol, TypeVar

from spillebord.core.errors import IllegalActionError, NotationError

JSON = dict[str, Any]
S = TypeVar("S", bound="State")


class Action(Protocol):
    """What every action is: hashable, equal by value, and written by ``str()`` in the
    game's action notation (``"8H c2"``, ``"turn"``, ``Move`` → ``"KS s0-t0"``).
    mypy refuses unhashable values (lists, dicts, sets) as actions."""

    def __hash__(self) -> int: ...

    def __eq__(self, other: object, /) -> bool: ...

    def __str__(self) -> str: ...


@dataclass(frozen=True, slots=True)
class FlagSpec:
    """A variant option; the default is always the rule book's ruling."""

    name: str
    default: bool
    da: str
    en: str


class Information(StrEnum):
    """Whether some card is hidden from some seat (OpenSpiel's ``Information``)."""

    PERFECT = "perfect"      # every seat sees everything
    IMPERFECT = "imperfect"  # some cards are hidden: ``resample`` must redraw them


class Chance(StrEnum):
    """What decides the cards after the first deal (OpenSpiel's ``ChanceMode``, where
    every game here is "sampled" from its deal number)."""

    DETERMINISTIC = "deterministic"  # nothing is shuffled after the deal
    SEEDED = "seeded"  # later shuffles (redeals, reshuffles) come from the deal's streams


@dataclass(frozen=True, slots=True)
class GameType:
    """A game's declared nature, checked by the conformance suite (tests/conformance.py).

    ``max_length``: the most actions any game can take (over every seat count and flag),
    or None when the rules allow endless play (a solitaire card moved back and forth);
    random playouts must end within it.  ``hidden``: the keys of the position JSON that
    hold cards hidden from some seat — exactly what ``resample`` may change; empty
    exactly when the information is perfect."""

    information: Information
    chance: Chance
    max_length: int | None
    hidden: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if (self.information is Information.IMPERFECT) != bool(self.hidden):
            raise ValueError("an imperfect-information game names where its hidden "
                             "cards live, and only such a game does")
        if self.max_length is not None and self.max_length < 1:
            raise ValueError("max_length is a positive number of actions or None")


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game.

    ``ranking`` lists groups of seats best first (ties share a group); ``winners`` are the
    seats that won (a whole team in team games; the solitaire player only if won);
    ``bonus`` is the solitaire 3/2/1 (0 when lost); ``reason`` is a short machine word
    such as ``won``, ``stuck``, ``resigned``, ``turn_limit``, ``out``.
    """

    winners: tuple[int, ...]
    ranking: tuple[tuple[int, ...], ...]
    reason: str
    bonus: int = 0
    losers: tuple[int, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "winners": list(self.winners),
            "ranking": [list(g) for g in self.ranking],
            "reason": self.reason,
            "bonus": self.bonus,
            "losers": list(self.losers),
            **({"extra": dict(self.extra)} if self.extra else {}),
        }


class State(ABC):
    """One immutable game state.  Subclasses keep their own fields."""

    game: Game
    seats: int
    deal: int
    flags: Mapping[str, bool]

    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """The seat to act, or None when the game is over."""

    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Sorted by text, unique; empty exactly when the game is over."""

    @abstractmethod
    def _apply(self, action: Action) -> State:
        """Apply an action already known to be legal."""

    @abstractmethod
    def view(self, seat: int | None) -> JSON:
        """A JSON-ready dict with exactly what ``seat`` may see (None = spectator)."""

    @property
    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game runs."""

    @property
    def is_over(self) -> bool:
        return self.to_move is None

    def apply(self, action: Action) -> State:
        """A new state; raises IllegalActionError (with a reason) for anything illegal."""
        if self.to_move is None:
            raise IllegalActionError("the game is over", key="core.game_over")
        if isinstance(action, str):
            action = self.game.parse_action(self, action)
        elif action not in set(self.legal_actions()):
            raise IllegalActionError(f"{action} is not a legal action here",
                                     key="core.not_legal", params={"action": action})
        return self._apply(action)

    def apply_legal(self, action: Action) -> State:
        """A new state for an action taken from this state's ``legal_actions()`` (not
        checked again: for callers that already hold the legal list)."""
        return self._apply(action)

    def resample(self, seat: int | None, rng: random.Random) -> State:
        """A state in ``seat``'s information set with the hidden cards drawn afresh from
        ``rng``.  It may depend only on what ``seat`` has seen and on ``rng``: its deal
        number too is drawn from ``rng`` (``core.rng.fresh_deal``), since the true one
        holds the future shuffles (and, with the position, the hidden cards); the
        conformance suite checks it.  This default (``self``) fits only a game whose
        deal number does not reach its state."""
        return self

    def position(self) -> str:
        return self.game.format_position(self)

    def __str__(self) -> str:
        return self.game.format_position(self)

    # Value equality, python-chess style (docs/architecture.md, "State equality"): two
    # states are equal when they are of the same game and variant (the flags, which the
    # position text leaves to ``parse_position``'s arguments) and their position texts
    # are equal; the text is a complete state (``parse_position`` gives it back), so
    # equal states play on identically.  The hash is the text's: consistent with ``==``.
    # Every game inherits both — a state class defines neither (conformance checks it).
    def variant(self) -> tuple[bool, ...]:
        """The flags' values in ``flag_specs`` order, defaults filled in."""
        flags = self.flags
        return tuple(bool(flags.get(f.name, f.default)) for f in self.game.flag_specs)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, State):
            return NotImplemented
        return (self.game is other.game and self.variant() == other.variant()
                and self.position() == other.position())

    def __hash__(self) -> int:
        return hash((self.game.key, self.position()))


class Game(ABC):
    """A registered game: metadata, ``new``, and the position/action notation."""

    key: str = ""
    name_da: str = ""
    name_en: str = ""
    blurb_da: str = ""
    blurb_en: str = ""
    seat_counts: tuple[int, ...] = (1,)
    default_seats: int = 1
    flag_specs: tuple[FlagSpec, ...] = ()
    game_type: ClassVar[GameType]  # every game declares it (no default on purpose)

    @property
    def is_solitaire(self) -> bool:
        return self.seat_counts == (1,)

    # A game object is a stateless singleton that states point to (``check_own`` tests
    # identity), so a copied or unpickled state must point to the same object: a deep
    # copy keeps it, and a registered game pickles as its registry key.
    def __copy__(self) -> Game:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self

    def __reduce_ex__(self, protocol: Any) -> Any:
        from spillebord.core import registry  # registry imports this module's names lazily
        try:
            registered = registry.load(self.key) is self
        except NotationError:  # not registered (a test's game): pickled as an object
            registered = False
        if registered:
            return (registry.load, (self.key,))
        return super().__reduce_ex__(protocol)

    def own(self, state: State, cls: type[S]) -> S:
        """``state`` as this game's state class ``cls``.  The one error for handing a
        game anything but its own state (another game's, or not a state at all), from
        every method that takes a state: NotationError ``core.wrong_game``."""
        self.check_own(state)
        if not isinstance(state, cls):
            raise self._wrong_game(state)
        return state

    def check_own(self, state: object) -> None:
        """``own`` without the class: NotationError unless ``state`` is this game's."""
        if not isinstance(state, State) or state.game is not self:
            raise self._wrong_game(state)

    def _wrong_game(self, state: object) -> NotationError:
        return NotationError(f"not a {self.key} state: {type(state).__name__}",
                             key="core.wrong_game")

    def teams(self, seats: int) -> tuple[tuple[int, ...], ...]:
        """The teams at a table of ``seats``: partners win, lose and rank together.
        Default: every seat plays for itself."""
        return tuple((s,) for s in range(seats))

    def check_flags(self, flags: Mapping[str, Any]) -> dict[str, bool]:
        """All flags with defaults filled in; unknown or non-boolean flags are refused."""
        known = {f.name: f.default for f in self.flag_specs}
        for name, value in flags.items():
            if name not in known:
                names = ", ".join(sorted(known)) or "none"
                raise NotationError(f"{self.key} has no flag {name!r} (flags: {names})")
            if not isinstance(value, bool):
                raise NotationError(f"flag {name} must be true or false")
            known[name] = value
        return known

    def check_seats(self, seats: int | None) -> int:
        if seats is None:
            return self.default_seats
        if seats not in self.seat_counts:
            allowed = ", ".join(map(str, self.seat_counts))
            raise NotationError(f"{self.key} is played by {allowed} seats, not {seats}")
        return seats

    @staticmethod
    def check_deal(deal: int) -> int:
        if isinstance(deal, bool) or not isinstance(deal, int) or deal < 0:
            raise NotationError(f"a deal number is a non-negative integer, not {deal!r}")
        return deal

    @abstractmethod
    def new(self, deal: int = 0, seats: int | None = None, **flags: bool) -> State:
        """The initial state of a deal."""

    def parse_action(self, state: State, text: str) -> Action:
        """The legal action written ``text``: the text is normalised once here
        (``action_text``), then ``read_action`` finds the action.  Games override
        ``read_action``, not this."""
        self.check_own(state)
        return self.read_action(state, action_text(text))

    def read_action(self, state: State, wanted: str) -> Action:
        """The legal action whose text is ``wanted`` (already normalised: single spaces,
        no spaces at the ends); games override to say *why* an action is refused."""
        for action in state.legal_actions():
            if str(action) == wanted:
                return action
        raise IllegalActionError(f"{wanted!r} is not a legal action here",
                                 key="core.not_legal", params={"action": wanted})

    @abstractmethod
    def parse_position(self, text: str, **flags: bool) -> State:
        """A state from position text (NotationError with the place on bad input)."""

    @abstractmethod
    def format_position(self, state: State) -> str:
        """The position text; ``parse_position(format_position(s))`` gives back ``s``."""

    def click(self, state: State, target: str) -> Sequence[Action]:
        """Click-to-move: the actions a click on ``target`` (a place or card named in the
        game's own notation, e.g. ``row``, ``h3``, ``stock``, ``8H``, ``c2``) may mean.
        Empty: the click does nothing; one: perform it; several: the page asks which.
        Games without click-to-move keep this default."""
        self.check_own(state)
        return []

    def describe(self, state: State, action: str, after: State | None = None) -> JSON | None:
        """Facts about the legal ``action`` played in ``state`` (``after``: the state it
        led to, when known) that let a page word the move in the player's language
        without knowing the rules — e.g. which card, how many fields, whose marble was
        hit.  Only what every seat may see once the action is played (the server sends
        an event's facts to all).  None: the action text says it all (the default)."""
        self.check_own(state)
        return None

    def info(self) -> JSON:
        return {
            "key": self.key,
            "name": {"da": self.name_da, "en": self.name_en},
            "blurb": {"da": self.blurb_da, "en": self.blurb_en},
            "seats": list(self.seat_counts),
            "default_seats": self.default_seats,
            "solitaire": self.is_solitaire,
            "flags": [
                {"name": f.name, "default": f.default, "da": f.da, "en": f.en}
                for f in self.flag_specs
            ],
        }


def action_text(text: object) -> str:
    """An action text as the games read it: words separated by single spaces, none at
    the ends (``"  8H   c2 "`` → ``"8H c2"``).  Anything but a string is refused."""
    if not isinstance(text, str):
        raise IllegalActionError(f"{str(text)[:40]!r} is not an action text",
                                 key="core.not_text", params={"text": repr(text)[:40]})
    return " ".join(text.split())


def replay(state: State, actions: Sequence[str]) -> State:
    """Apply action texts in order; the error names the index of the refused action."""
    for i, text in enumerate(actions):
        try:
            state = state.apply(text)
        except ValueError as exc:
            raise NotationError(f"action {i + 1} ({text!r}) refused: {exc}") from exc
    return state
