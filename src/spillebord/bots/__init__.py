"""The bots layer: computer players written against the protocol or one game.

A bot sees a seat's information set only, through ``Observation``: the seat's view, its
legal actions, and ``sample()`` — a determinization of the hidden cards drawn from the
seat's own random generator.  It never receives the true state, so it cannot read
hidden cards.

Registry: ``bots.load(game_key, name)`` → a Bot; ``bots.names(game_key)``.
"""

from __future__ import annotations

import importlib
import random
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from spillebord.core.errors import NotationError
from spillebord.core.protocol import JSON, State


class Observation:
    """What one seat knows.  The true state stays private to this object."""

    __slots__ = ("_state", "rng", "seat")

    def __init__(self, state: State, seat: int, rng: random.Random) -> None:
        self._state = state
        self.seat = seat
        self.rng = rng

    def view(self) -> JSON:
        return self._state.view(self.seat)

    def legal_actions(self) -> list[Any]:
        return self._state.legal_actions()

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

    @abstractmethod
    def choose(self, obs: Observation) -> Any: ...


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

    def choose(self, obs: Observation) -> Any:
        return obs.rng.choice(obs.legal_actions())


# game key -> {bot name -> "module:factory"}; factories take keyword options.
_BOTS: dict[str, dict[str, str]] = {
    # "gammel_jomfru": {"heuristic": "spillebord.bots.gammel_jomfru:HeuristicBot", ...},
}


def register(game_key: str, name: str, target: str) -> None:
    _BOTS.setdefault(game_key, {})[name] = target


def names(game_key: str) -> list[str]:
    _import_game_bots(game_key)
    return ["random", *sorted(_BOTS.get(game_key, {}))]


def _import_game_bots(game_key: str) -> None:
    try:
        importlib.import_module(f"spillebord.bots.{game_key}")
    except ModuleNotFoundError as exc:
        if exc.name != f"spillebord.bots.{game_key}":
            raise


def load(game_key: str, name: str, **options: Any) -> Bot:
    if name == "random":
        return RandomBot()
    _import_game_bots(game_key)
    target = _BOTS.get(game_key, {}).get(name)
    if target is None:
        raise NotationError(
            f"no bot {name!r} for {game_key} (bots: {', '.join(names(game_key))})"
        )
    module_name, _, attr = target.partition(":")
    factory = getattr(importlib.import_module(module_name), attr)
    bot: Bot = factory(**options)
    return bot
