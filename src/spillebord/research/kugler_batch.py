"""Kugler og Jokere's vector engine (docs/research.md, "Vector engine"): batched random
playouts and a batched env, in compiled code (research/kugler_kernel.py: the turn loop;
research/kugler_batch_encode.py: observations, masks, the step), equal to the
single-state engine and encoder (tests/research/test_kugler_batch.py,
test_kugler_batch_env.py).

``random_playouts(seats, games, seed)`` plays whole random games (every legal action of
the engine's list equally likely) from fresh deals: each game's winning team (−1: none)
and its turns.  ``KuglerBatch(num_envs, seats, auto_forced=False, **flags)`` holds
``num_envs`` games with ``JomfruBatch``'s API: ``reset(seed)`` deals them (masks,
movers), ``step(actions)`` plays one action id per game for its seat to move (−1: none),
deals a finished game afresh at once and reports its rewards; ``observe()`` /
``observe_seat(b, seat)`` are ``KuglerCodec``'s observation and ``masks`` its action
space — the PettingZoo env's, exactly.  ``actions[b, :counts[b]]`` are game ``b``'s legal
ids in the engine's order, beside their kernel keys ``keys[b, :counts[b]]``
(``legal_texts`` gives their texts); ``step_choices`` steps by number in that list.
Deals and reshuffles come from Numba's generator (uniform, dealt as the engine deals),
not from deal numbers; ``load(b, state)`` puts an engine position in, ``to_state(b)``
takes one out.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spillebord.core.cards import kugler_deck
from spillebord.core.protocol import Game
from spillebord.games.kugler.board import geometry
from spillebord.games.kugler.kernel import CODES, OUT_CAP, finished_mask
from spillebord.games.kugler.moves import interned
from spillebord.games.kugler.state import ROUND_LIMIT, KuglerState
from spillebord.research import kugler_batch_encode as KE
from spillebord.research import kugler_kernel as K
from spillebord.research.batch import step_actions
from spillebord.research.kugler import KuglerCodec
from spillebord.research.kugler_encode import offsets

INDEX: dict[str, int] = {c: i + 1 for i, c in enumerate(CODES)}
DECK = np.array([INDEX[c] for c in kugler_deck()], np.int8)
FLAG_BITS = {"optional_home_entry": K.F_OPTIONAL, "strict_discard": K.F_STRICT,
             "finished_helps_partner": K.F_HELPS}


def games_game() -> Game:
    from spillebord import games

    return games.load("kugler")


def games_flags(flags: dict[str, bool]) -> dict[str, bool]:
    """The game's flags with their defaults (an unknown flag raises)."""
    return dict(games_game().check_flags(flags))


def flag_bits(flags: dict[str, bool]) -> int:
    checked = games_flags(flags)
    return sum(bit for name, bit in FLAG_BITS.items() if checked.get(name))


def _seats(seats: int) -> int:
    if seats not in (4, 6, 8):
        raise ValueError(f"Kugler og Jokere has 4, 6 or 8 seats, not {seats}")
    return seats


def random_playouts(seats: int, games: int, seed: int = 0, **flags: bool
                    ) -> tuple[np.ndarray, np.ndarray, int]:
    """Winning teams and turns of ``games`` random games, and the number of turns."""
    n = _seats(seats)
    wins = np.zeros(games, np.int8)
    lengths = np.zeros(games, np.int32)
    total = K.random_playouts(n, games, DECK, flag_bits(flags), ROUND_LIMIT * n, seed,
                              wins, lengths)
    return wins, lengths, int(total)


class KuglerBatch:
    """``num_envs`` games of Kugler og Jokere; see the module docstring."""

    def __init__(self, num_envs: int, seats: int, *, auto_forced: bool = False,
                 **flags: bool) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs is at least 1, not {num_envs}")
        n = self.seats = _seats(seats)
        B = self.num_envs = num_envs
        self.flags = flag_bits(flags)
        self.flag_values: dict[str, bool] = dict(games_flags(flags))
        self.auto_forced = auto_forced
        self.limit = ROUND_LIMIT * n
        self.geo = geometry(n)
        self.codec = KuglerCodec(n)
        self.board = np.full((B, self.geo.size), -1, np.int8)
        self.hands = np.zeros((B, n, K.NCODES), np.int8)
        self.draw = np.zeros((B, K.NCARDS), np.int8)
        self.disc = np.zeros((B, K.NCARDS), np.int8)
        self.info = np.zeros((B, K.NINFO), np.int64)
        # no game dealt before ``reset`` (or ``load``): each is over, without moves
        self.info[:, [K.DONE, K.WIN, K.LIMIT]] = [1, -1, self.limit]
        self.counts = np.zeros(B, np.int64)
        self.keys = np.zeros((B, OUT_CAP), np.int64)
        self.actions = np.zeros((B, OUT_CAP), np.int64)
        self.masks = np.zeros((B, self.codec.n_actions), np.int8)
        self.wins = np.full(B, -1, np.int8)
        self.dones = np.zeros(B, np.bool_)
        self._deck = DECK.copy()
        self._offset = offsets(self.codec)
        self._out = np.empty(OUT_CAP, np.int64)

    @property
    def observation_size(self) -> int:
        return int(self.codec.size)

    @property
    def n_actions(self) -> int:
        return int(self.codec.n_actions)

    @property
    def movers(self) -> np.ndarray:
        return self.info[:, K.TURN].copy()

    def observe(self) -> np.ndarray:
        """Every game's observation for its seat to move, ``(num_envs, size)``."""
        obs = np.empty((self.num_envs, self.observation_size), np.float32)
        KE.observe_movers(self.seats, self.board, self.hands, self.disc, self.info, obs)
        return obs

    def observe_seat(self, b: int, seat: int) -> np.ndarray:
        """Seat ``seat``'s observation of game ``b``."""
        if not 0 <= seat < self.seats:
            raise ValueError(f"seat {seat} is not one of 0…{self.seats - 1}")
        out = np.empty(self.observation_size, np.float32)
        KE.observe_seat(self.seats, b, seat, self.board, self.hands, self.disc, self.info,
                        out)
        return out

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Deal every game afresh: masks and movers."""
        if seed is not None:
            K.seed(seed)
        for b in range(self.num_envs):
            K.reset(self.seats, b, self._deck, self.flags, self.limit, self.board,
                    self.hands, self.draw, self.info)
            self._settle(b, self.auto_forced)
        self.dones[:] = False
        return self.masks, self.movers

    def _settle(self, b: int, auto_forced: bool = False) -> None:
        KE.settle(self.seats, b, self.board, self.hands, self.draw, self.disc, self.info,
                  self.counts, self.keys, self._offset, self.actions, self.masks,
                  self._deck, self.dones, self.wins, auto_forced)

    def _refresh(self, b: int) -> None:
        self._settle(b)

    def step(self, actions: np.ndarray | list[int]
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action index per game (the env's action space; −1: none) for its seat to
        move: masks, movers, rewards ``(num_envs, seats)`` of the games that ended (+1
        the winning team, −1 the others, 0 on a tie; 0 elsewhere) and dones.  An action
        outside a game's mask raises ``ValueError`` before any game moves."""
        a = step_actions(actions, self.num_envs)
        bad = KE.step_actions(self.seats, a, self.board, self.hands, self.draw, self.disc,
                              self.info, self.counts, self.keys, self._offset,
                              self.actions, self.masks, self._deck, self.dones,
                              self.wins, self.auto_forced)
        if bad >= 0:
            raise ValueError(f"action {int(a[bad])} is not legal in game {bad} (its "
                             f"mask has {int(self.counts[bad])} legal actions; −1 plays "
                             "none)")
        return self.masks, self.movers, self._rewards(), self.dones.copy()

    def step_choices(self, choices: np.ndarray | list[int]
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``step`` by legal action number: ``choices[b]`` of game ``b``'s legal list in
        the engine's order (−1: none); legal counts instead of masks.  A choice out of
        range raises ``ValueError`` before any game moves."""
        c = np.asarray(choices, dtype=np.int64)
        if c.shape != (self.num_envs,):
            raise ValueError(f"{self.num_envs} choices needed, got shape {c.shape}")
        wrong = np.flatnonzero((c >= self.counts) | (c < -1))
        if len(wrong):
            b = int(wrong[0])
            raise ValueError(f"game {b} has {self.counts[b]} legal actions, not "
                             f"{int(c[b]) + 1}")
        rows = np.arange(self.num_envs)
        _, movers, rewards, dones = self.step(
            np.where(c >= 0, self.actions[rows, c.clip(0)], -1))
        return self.counts, movers, rewards, dones

    def _rewards(self) -> np.ndarray:
        """+1 the winning team's seats (``w`` and ``w + seats/2``), −1 the others, in
        the games that ended with a winner; 0 elsewhere."""
        rewards = np.zeros((self.num_envs, self.seats), np.float32)
        won = np.flatnonzero(self.dones & (self.wins >= 0))
        w = self.wins[won].astype(np.int64)
        rewards[won] = -1.0
        rewards[won, w] = rewards[won, w + self.seats // 2] = 1.0
        return rewards

    # -- to and from the single-state engine ----------------------------------------
    def load(self, b: int, state: KuglerState) -> None:
        """Put an engine position into game ``b``."""
        if state.seats != self.seats:
            raise ValueError(f"a {state.seats}-seat position in a {self.seats}-seat batch")
        self.board[b] = np.asarray(state.board, np.int8)
        self.hands[b] = 0
        for s, hand in enumerate(state.hands):
            for code in hand:
                self.hands[b, s, INDEX[code]] += 1
        self.draw[b, :len(state.draw)] = [INDEX[c] for c in state.draw]
        self.disc[b, :len(state.discard)] = [INDEX[c] for c in state.discard]
        fin = finished_mask(self.board[b], self.seats)
        self.info[b] = 0
        self.info[b, [K.TURN, K.TURNS, K.FIN, K.FLAGS, K.DLEN, K.XLEN, K.LIMIT]] = [
            state.turn, state.turns, fin, flag_bits(dict(state.flags)), len(state.draw),
            len(state.discard), self.limit]
        self.info[b, K.WIN] = -1
        self.info[b, K.RESH] = state.reshuffles
        K._judge(self.seats, b, self.board, self.info)
        self._settle(b)

    def to_state(self, b: int) -> KuglerState:
        """Game ``b`` as an engine state (deal number 0 and no latest moves: a batch game
        has neither; the engine would draw a later reshuffle from deal 0's stream)."""
        n, i = self.seats, self.info[b]
        dpos, dlen = int(i[K.DPOS]), int(i[K.DLEN])
        hands = tuple(tuple(CODES[c - 1] for c in range(1, K.NCODES)
                            for _ in range(int(self.hands[b, s, c]))) for s in range(n))
        bits = int(i[K.FLAGS])  # the game's own flags (a loaded state may differ)
        flags = {name: bool(bits & bit) for name, bit in FLAG_BITS.items()}
        return KuglerState(games_game(), n, 0, flags, self.board[b].copy(),
                           hands, tuple(CODES[c - 1] for c in self.draw[b, dpos:dpos + dlen]),
                           tuple(CODES[c - 1] for c in self.disc[b, :int(i[K.XLEN])]),
                           int(i[K.TURN]), int(i[K.TURNS]), int(i[K.RESH]), (),
                           int(i[K.FIN]))

    def legal_texts(self, b: int) -> list[str]:
        it = interned(self.geo)
        return [it[int(k)].text for k in self.keys[b, :self.counts[b]]]

    def apply(self, b: int, index: int) -> None:
        """Play legal action number ``index`` in game ``b`` alone (no auto-reset)."""
        if not 0 <= index < self.counts[b]:
            raise ValueError(f"game {b} has {self.counts[b]} legal actions")
        K.step(self.seats, b, int(self.keys[b, index]), self.board, self.hands, self.draw,
               self.disc, self.info)
        self._settle(b)

    def position(self, b: int) -> dict[str, Any]:
        """Game ``b`` in the engine's terms (the draw pile as a sorted list: its order
        after a reshuffle is drawn from another generator)."""
        n = self.seats
        i = self.info[b]
        return {"board": tuple(int(x) for x in self.board[b]),
                "hands": tuple(tuple(sorted(CODES[c - 1] for c in range(1, K.NCODES)
                                            for _ in range(self.hands[b, s, c])))
                               for s in range(n)),
                "draw": sorted(CODES[c - 1] for c in
                               self.draw[b, i[K.DPOS]:i[K.DPOS] + i[K.DLEN]]),
                "discard": tuple(CODES[c - 1] for c in self.disc[b, :i[K.XLEN]]),
                "turn": int(i[K.TURN]), "turns": int(i[K.TURNS]), "done": bool(i[K.DONE])}


def engine_position(state: KuglerState) -> dict[str, Any]:
    return {"board": tuple(state.board), "hands": state.hands, "draw": sorted(state.draw),
            "discard": state.discard, "turn": state.turn, "turns": state.turns,
            "done": state.outcome is not None}
