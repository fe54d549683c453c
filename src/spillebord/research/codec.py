"""What an adapter needs from a game: a fixed-size observation array built from one
seat's ``view`` and a fixed discrete action space with a mask (docs/research.md).

A ``Codec`` is made per game, seat count and flags.  ``observe(view)`` reads only the
view dict, never the state, so an observation holds exactly what that seat may see
(tests/research/test_leaks.py checks it under ``State.resample``).  ``actions(view,
legal)`` maps the legal actions of the seat to move to their indices; it may also use
the view (e.g. kugler's marble slots) and the legal list, which the mover may see.

The view-based ``observe`` is the definition.  A codec may add a fast path for the
environments' hot loop: ``tracker()`` returns a ``Tracker`` that encodes straight from
the seat-visible parts of a state (tests/research/test_fast_encoding.py checks it equal
to ``observe(state.view(seat))`` along random playouts, and the leak test runs it too);
``seat_only_actions`` says that ``index`` reads only ``view["seat"]``, so the index map
and mask of a legal list may be cached per seat.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from spillebord.core.protocol import JSON, Action, Game, Outcome, State
from spillebord.core.registry import load, manifest, target

MAX_DEAL = 2**31 - 1


class EncodingError(ValueError):
    """A legal action the fixed action space has no index for (a bug in a codec)."""


class Tracker(ABC):
    """A codec's fast observation path for one environment: equal to
    ``codec.observe(state.view(seat))``, reading only what ``seat`` may see."""

    @abstractmethod
    def observe(self, state: State, seat: int) -> np.ndarray:
        """A new float32 array (the caller may keep or change it)."""


class Codec(ABC):
    """A game's encoding at one seat count: ``size`` floats in [0, 1] per observation,
    ``n_actions`` action indices."""

    size: int
    n_actions: int
    seat_only_actions: bool = False
    state_size: int = 0  # 0: no full-state encoding (``full_state``)

    def full_state(self, state: State) -> np.ndarray:
        """The **whole** state, hidden cards included (float32, ``(state_size,)``, in
        [0, 1]): for centralised critics in training only, never a seat's input."""
        raise NotImplementedError(f"{type(self).__name__} has no full-state encoding")

    def tracker(self) -> Tracker | None:
        """A fast observation path for one environment, or None (use the view)."""
        return None

    @abstractmethod
    def observe(self, view: JSON) -> np.ndarray:
        """The observation (float32, shape ``(size,)``, values in [0, 1]) of a seat's
        view; only the view is read."""

    @abstractmethod
    def index(self, view: JSON, action: Action) -> int:
        """The index of a legal ``action`` of the seat whose ``view`` this is."""

    def actions(self, view: JSON, legal: Sequence[Action]) -> dict[int, Action]:
        """Index → legal action for the seat to move; raises EncodingError when two
        legal actions share an index (the encoding must be one-to-one)."""
        out: dict[int, Action] = {}
        for action in legal:
            i = self.index(view, action)
            if not 0 <= i < self.n_actions:
                raise EncodingError(f"{action} encodes to {i}, outside 0…{self.n_actions - 1}")
            if i in out:
                raise EncodingError(f"{action} and {out[i]} share action index {i}")
            out[i] = action
        return out


def reward(outcome: Outcome, seat: int) -> float:
    """+1 for a winner (every member of the winning team), −1 for a loser, 0 otherwise
    (e.g. kugler's turn limit with tied teams)."""
    if seat in outcome.winners:
        return 1.0
    if seat in outcome.losers:
        return -1.0
    return 0.0


def one_hot(out: np.ndarray, at: int, index: dict[str, int], code: str | None) -> None:
    """Set ``out[at + index[code]]`` (nothing for None)."""
    if code is not None:
        out[at + index[code]] = 1.0


def start_state(game: Game, options: dict[str, Any] | None, rng: np.random.Generator,
                seats: int | None = None, **flags: bool) -> State:
    """The state an env's ``reset(options=...)`` starts from: ``options["position"]``
    (the game's position text), else ``options["deal"]``, else a deal drawn from the
    env's own generator; ValueError for both at once or a position of another seat count."""
    options = options or {}
    deal, position = options.get("deal"), options.get("position")
    if position is not None:
        if deal is not None:
            raise ValueError("reset options take a deal or a position, not both")
        state = game.parse_position(str(position), **flags)
        if seats is not None and state.seats != seats:
            raise ValueError(f"the position has {state.seats} seats, the environment {seats}")
        return state
    if deal is None:
        deal = int(rng.integers(MAX_DEAL))
    if seats is None:
        return game.new(deal=deal, **flags)
    return game.new(deal=deal, seats=seats, **flags)


def codec_for(key: str, seats: int) -> Codec:
    """The game's research codec (its manifest's ``codec``: called with the seat count
    for a table game, with nothing for a solitaire)."""
    path = manifest(key).codec
    if path is None:
        raise ValueError(f"{key} has no research codec")
    factory: Callable[..., Codec] = target(path)  # type: ignore[assignment]
    return factory() if load(key).is_solitaire else factory(seats)
