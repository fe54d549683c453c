"""The bots layer: computer players written against the protocol or one game.

A bot sees a seat's information set only, through ``Observation``: the seat's view, its
legal actions, and ``sample()`` — a determinization of the hidden cards drawn from the
seat's own random generator.  It never receives the true state, so it cannot read
hidden cards.

Registry: ``bots.load(game_key, name, **options)`` → a Bot; ``bots.names(game_key)``.
Every bot DECLARES its options (``Opt``: type and range or choices) when it is
registered, and ``load`` refuses anything else (``NotationError`` naming the option) —
the random bot declares none, so it takes no options.  A game's bot package may also
declare its *levels* 1–3 (``register_levels``): each level is a bot with fixed options
(``Level``), and ``level=N`` — alone — is accepted by that level's bot; ``levels()``
and ``default_level()`` let the server and the page offer them (docs/architecture.md,
"Bot options and levels").
"""

from __future__ import annotations

import importlib
import math
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from spillebord.core.errors import NotationError
from spillebord.core.protocol import JSON, Action, State

A = TypeVar("A")


class Observation:
    """What one seat knows.  The true state stays private to this object."""

    __slots__ = ("_state", "rng", "seat")

    def __init__(self, state: State, seat: int, rng: random.Random) -> None:
        self._state = state
        self.seat = seat
        self.rng = rng

    def view(self) -> JSON:
        return self._state.view(self.seat)

    def legal_actions(self) -> Sequence[Action]:
        return self._state.legal_actions()

    def legal_as(self, kind: type[A]) -> list[A]:
        """The legal actions as the game's own action type (``str``, kugler's ``Move``);
        TypeError if the game's actions are of another type."""
        legal = self._state.legal_actions()
        if not all(isinstance(a, kind) for a in legal):
            raise TypeError(f"{self.game_key}'s actions are not {kind.__name__}")
        return [a for a in legal if isinstance(a, kind)]

    def sample(self) -> State:
        """A state consistent with everything this seat has seen (hidden cards redrawn)."""
        return self._state.resample(self.seat, self.rng)

    @property
    def game_key(self) -> str:
        return self._state.game.key

    @property
    def seats(self) -> int:
        return self._state.seats

    @property
    def flags(self) -> dict[str, bool]:
        return dict(self._state.flags)


class Bot(ABC):
    """A computer player.  ``choose`` returns one of ``obs.legal_actions()``."""

    name: str = ""

    def choose(self, obs: Observation) -> Action:
        """The only legal action when there is one (no bot thinks about a forced
        action), else ``decide``."""
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        return self.decide(obs)

    @abstractmethod
    def decide(self, obs: Observation) -> Action:
        """Choose among two or more legal actions."""


class Budget:
    """A search bot's budget: at most ``count`` rounds (named ``count_name`` in the bot's
    options) and/or ``seconds`` of wall-clock time, of which at least ``minimum`` rounds
    are always played.  Bad values raise NotationError naming the option."""

    __slots__ = ("count", "minimum", "seconds")

    def __init__(self, count: int | None, seconds: float | None, count_name: str,
                 minimum: int = 1) -> None:
        if count is not None and count < 1:
            raise NotationError(f"{count_name} must be at least 1")
        if seconds is not None and seconds <= 0:
            raise NotationError("seconds must be positive")
        self.count = count
        self.seconds = seconds
        self.minimum = minimum

    def start(self) -> Callable[[int], bool]:
        """Start the clock; the result tells whether ``done`` rounds spend the budget."""
        count, minimum = self.count, self.minimum
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds

        def spent(done: int) -> bool:
            if count is not None and done >= count:
                return True
            return deadline is not None and done >= minimum and time.perf_counter() >= deadline

        return spent


class RandomBot(Bot):
    """Uniformly random among the legal actions (works for every game)."""

    name = "random"

    def decide(self, obs: Observation) -> Action:
        return obs.rng.choice(obs.legal_actions())


@dataclass(frozen=True)
class Opt:
    """One declared bot option: its type (``int``, ``float``, ``str``, ``bool``), the
    inclusive range ``low``–``high`` of a number, or the ``choices`` of a string."""

    kind: Literal["int", "float", "str", "bool"]
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()

    def check(self, bot: str, name: str, value: Any) -> Any:
        """``value`` if it fits (an int is accepted for a float), else NotationError."""
        bad = f"bot {bot}: option {name} must be "
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise NotationError(bad + "true or false")
            return value
        if self.kind == "str":
            if not isinstance(value, str) or (self.choices and value not in self.choices):
                raise NotationError(bad + "one of " + ", ".join(self.choices))
            return value
        ok = int | float if self.kind == "float" else int
        if isinstance(value, bool) or not isinstance(value, ok):
            raise NotationError(bad + ("a number" if self.kind == "float" else "an integer"))
        if self.kind == "float" and not math.isfinite(value):
            raise NotationError(bad + "a finite number")
        if (self.low is not None and value < self.low) or (
                self.high is not None and value > self.high):
            lo = "" if self.low is None else f"at least {self.low:g}"
            hi = "" if self.high is None else f"at most {self.high:g}"
            raise NotationError(bad + " and ".join(x for x in (lo, hi) if x))
        return float(value) if self.kind == "float" else value

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.kind}
        if self.low is not None:
            out["min"] = self.low
        if self.high is not None:
            out["max"] = self.high
        if self.choices:
            out["choices"] = list(self.choices)
        return out


@dataclass(frozen=True)
class Level:
    """A playing level: a registered bot with fixed options."""

    bot: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _Entry:
    target: str  # "module:factory"; the factory takes the declared keyword options
    options: Mapping[str, Opt]


LEVELS = (1, 2, 3)

# game key -> {bot name -> entry}; "*" holds the bots that play every game.
_BOTS: dict[str, dict[str, _Entry]] = {
    "*": {"random": _Entry("spillebord.bots:RandomBot", {})},
}
# game key -> ({level -> Level}, default level)
_LEVELS: dict[str, tuple[dict[int, Level], int]] = {}


_IMPORTED: set[str] = set()


def register(game_key: str, name: str, target: str,
             options: Mapping[str, Opt] | None = None) -> None:
    """Register bot ``name`` for ``game_key``: its factory at ``target`` and the keyword
    options it accepts (none when ``options`` is omitted)."""
    _BOTS.setdefault(game_key, {})[name] = _Entry(target, dict(options or {}))


def register_levels(game_key: str, levels: Mapping[int, Level], default: int) -> None:
    """Declare the game's levels 1–3 (each a registered bot with options that pass its
    schema) and the level the page offers first."""
    if sorted(levels) != list(LEVELS) or default not in levels:
        raise ValueError(f"{game_key}: levels must be exactly {LEVELS}, default among them")
    for level in levels.values():
        _check(game_key, level.bot, dict(level.options))
    _LEVELS[game_key] = (dict(levels), default)


def names(game_key: str) -> list[str]:
    _import_game_bots(game_key)
    return [*sorted(_BOTS["*"]), *sorted(_BOTS.get(game_key, {}))]


def levels(game_key: str) -> dict[int, Level]:
    """The game's declared levels (empty when it has none)."""
    _import_game_bots(game_key)
    return dict(_LEVELS.get(game_key, ({}, 0))[0])


def default_level(game_key: str) -> int | None:
    _import_game_bots(game_key)
    entry = _LEVELS.get(game_key)
    return None if entry is None else entry[1]


def schema(game_key: str, name: str) -> dict[str, Opt]:
    """The options bot ``name`` declares (NotationError for an unknown bot)."""
    return dict(_entry(game_key, name).options)


def _import_game_bots(game_key: str) -> None:
    """Import the bots module the game's manifest names (none: only ``random``)."""
    from spillebord import games

    if game_key in _IMPORTED or not games.is_registered(game_key):
        return
    module = games.manifest(game_key).bots
    if module is not None:
        importlib.import_module(module)
    _IMPORTED.add(game_key)


def _entry(game_key: str, name: str) -> _Entry:
    _import_game_bots(game_key)
    entry = _BOTS["*"].get(name) or _BOTS.get(game_key, {}).get(name)
    if entry is None:
        raise NotationError(
            f"no bot {name!r} for {game_key} (bots: {', '.join(names(game_key))})"
        )
    return entry


def _check(game_key: str, name: str, options: dict[str, Any]) -> dict[str, Any]:
    declared = _entry(game_key, name).options
    out: dict[str, Any] = {}
    for key, value in options.items():
        opt = declared.get(key)
        if opt is None:
            takes = ", ".join(sorted(declared)) or "no options"
            raise NotationError(f"bot {name} has no option {key!r} (it takes {takes})")
        out[key] = opt.check(name, key, value)
    return out


def resolve(game_key: str, name: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword options bot ``name`` is built with: ``{"level": N}`` alone gives level
    N's options (N must be one of the game's levels, played by this bot); anything else
    must fit the bot's declared options.  NotationError names what is wrong."""
    opts = dict(options)
    if "level" in opts:
        level = opts.pop("level")
        table = levels(game_key)
        if opts:
            raise NotationError("a level cannot be combined with other bot options")
        if isinstance(level, bool) or level not in table:
            known = ", ".join(map(str, sorted(table))) or "none"
            raise NotationError(f"{game_key} has no level {level!r} (levels: {known})")
        if table[level].bot != name:
            raise NotationError(f"level {level} of {game_key} is played by the "
                                f"{table[level].bot} bot, not {name}")
        return dict(table[level].options)
    return _check(game_key, name, opts)


def load(game_key: str, name: str, **options: Any) -> Bot:
    """Bot ``name`` for ``game_key`` with ``options`` (checked by ``resolve``)."""
    entry = _entry(game_key, name)
    kwargs = resolve(game_key, name, options)
    module_name, _, attr = entry.target.partition(":")
    factory = getattr(importlib.import_module(module_name), attr)
    bot: Bot = factory(**kwargs)
    return bot


def catalogue(game_key: str) -> dict[str, Any]:
    """What the server lists for a game: every bot's declared options, the levels (with
    the bot playing each) and the default level (null when the game has no levels)."""
    return {
        "bot_options": {n: {k: o.to_json() for k, o in schema(game_key, n).items()}
                        for n in names(game_key)},
        "levels": [{"level": n, "bot": lv.bot} for n, lv in sorted(levels(game_key).items())],
        "default_level": default_level(game_key),
    }


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec as the command line writes it: ``ismcts:iterations=30:seconds=0.5`` →
    ("ismcts", {"iterations": 30, "seconds": 0.5}); values are booleans, integers,
    numbers or text; ``load(game, name, **options)`` checks the options."""
    name, *parts = spec.strip().split(":")
    options: dict[str, Any] = {}
    for part in parts:
        key, sep, raw = part.partition("=")
        if not sep or not key:
            raise ValueError(f"bot option {part!r} is not NAME=VALUE")
        value: Any
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        else:
            try:
                value = int(raw)
            except ValueError:
                try:
                    value = float(raw)
                except ValueError:
                    value = raw
        options[key] = value
    if not name:
        raise ValueError("a bot needs a name")
    return name, options


def load_spec(game: str, spec: str) -> Bot:
    """A bot from a spec: ``L1``–``L3`` (the game's declared levels) or
    ``NAME[:OPTION=VALUE…]`` (``parse_spec``); NotationError when it is unknown."""
    text = spec.strip()
    if len(text) == 2 and text[0] in "Ll" and text[1].isdigit():
        table = levels(game)
        if int(text[1]) not in table:
            raise NotationError(f"{game} has no level {text[1]}")
        level = table[int(text[1])]
        return load(game, level.bot, **level.options)
    name, options = parse_spec(text)
    try:
        return load(game, name, **options)
    except TypeError as exc:
        raise NotationError(f"bot {name}: {exc}") from exc
