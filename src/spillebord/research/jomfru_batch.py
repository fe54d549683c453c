"""Gammel Jomfru's vector engine (docs/research.md, "Vector engine"): batched random
playouts and a batch of games stepped together, in compiled code
(research/jomfru_kernel.py), equal to the single-state engine
(tests/research/test_jomfru_batch.py).

``random_playouts(seats, games, seed)`` plays whole random games from fresh deals and
returns each game's loser and length.  ``JomfruBatch(num_envs, seats)`` holds
``num_envs`` games: ``reset(seed)`` deals them, ``step(actions)`` plays one action id per
game for its seat to move (−1 leaves a game as it is), deals a finished game afresh at
once and reports its loser; ``masks`` (``(num_envs, 15)`` int8) and ``movers`` are the
current legal actions and seats.  Action ids are the engine's texts: 0 ``turn``, 1
``centre``, 2 ``keep``, 3–6 ``c1``–``c4``, 7 + p ``pP`` (``TEXTS``).  Deals come from
Numba's generator (a uniform shuffle dealt as the engine deals), not from deal numbers;
``load(i, state)`` puts an engine position into game ``i`` (e.g. a numbered deal).
Rewards as the envs': +1 for every seat but the loser, −1 for the loser.

``observe()`` gives every game's observation for its seat to move (``(num_envs,
size)`` float32, compiled), ``observe_seat(i, seat)`` one seat's: exactly the table env's
``JomfruCodec(seats)`` observation; ``masks`` are in this engine's absolute action ids
(``codec_mask`` turns one into the env's seat-relative mask).
"""

from __future__ import annotations

import numpy as np

from spillebord.games.gammel_jomfru.rules import DECK, TURN_LIMIT
from spillebord.games.gammel_jomfru.state import JomfruState
from spillebord.research import jomfru_kernel as K
from spillebord.research.batch import step_actions

TEXTS: tuple[str, ...] = ("turn", "centre", "keep", "c1", "c2", "c3", "c4",
                          *(f"p{p}" for p in range(8)))
ACTION_ID: dict[str, int] = {t: i for i, t in enumerate(TEXTS)}
CODE: dict[str, int] = {c: i for i, c in enumerate(DECK)}


def random_playouts(seats: int, games: int, seed: int = 0, *, limit: int = TURN_LIMIT,
                    nearest_first: bool = False) -> tuple[np.ndarray, np.ndarray, int]:
    """Losers and lengths of ``games`` random games, and the number of actions."""
    if not 2 <= seats <= 8:
        raise ValueError(f"Gammel Jomfru has 2–8 seats, not {seats}")
    losers = np.zeros(games, np.int8)
    lengths = np.zeros(games, np.int32)
    total = K.random_playouts(seats, games, limit, nearest_first, seed, losers, lengths)
    return losers, lengths, int(total)


class JomfruBatch:
    """``num_envs`` games of Gammel Jomfru at ``seats`` seats; see the module docstring."""

    def __init__(self, num_envs: int, seats: int, *, limit: int = TURN_LIMIT,
                 nearest_first: bool = False, auto_forced: bool = False) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs is at least 1, not {num_envs}")
        if not 2 <= seats <= 8:
            raise ValueError(f"Gammel Jomfru has 2–8 seats, not {seats}")
        B, n = num_envs, seats
        self.num_envs, self.seats, self.limit = B, n, limit
        self.nearest_first, self.auto_forced = nearest_first, auto_forced
        self.info = np.zeros((B, K.NINFO), np.int32)
        self.down = np.zeros((B, n, 52), np.int8)
        self.up = np.zeros((B, n, 52), np.int8)
        self.dstart = np.zeros((B, n), np.int16)
        self.dlen = np.zeros((B, n), np.int16)
        self.ulen = np.zeros((B, n), np.int16)
        self.ctop = np.zeros((B, 4), np.int8)
        self.cn = np.zeros(B, np.int8)
        self.outs = np.zeros((B, n), np.int8)
        self.flags = np.zeros((B, n), np.int8)
        self.masks = np.zeros((B, K.N_ACTIONS), np.int8)
        self.losers = np.full(B, -1, np.int8)
        self.dones = np.zeros(B, np.bool_)
        self._deck = np.zeros(52, np.int8)

    @property
    def observation_size(self) -> int:
        return int(self.seats * (6 + 2 * 52) + self.seats + 52 + 4 * 52 + 1)

    def observe(self) -> np.ndarray:
        """Every game's observation for its seat to move, ``(num_envs, size)``."""
        obs = np.empty((self.num_envs, self.observation_size), np.float32)
        K.observe_movers(self.seats, self.info, self.dlen, self.up, self.ulen, self.ctop,
                         self.cn, self.outs, self.flags, obs)
        return obs

    def observe_seat(self, i: int, seat: int) -> np.ndarray:
        """Seat ``seat``'s observation of game ``i``."""
        out = np.empty(self.observation_size, np.float32)
        K.observe(self.seats, i, seat, self.info, self.dlen, self.up, self.ulen, self.ctop,
                  self.cn, self.outs, self.flags, out)
        return out

    def codec_mask(self, i: int) -> np.ndarray:
        """Game ``i``'s mask in the table env's action space (``JomfruCodec``: ``pP`` is
        seat-relative there)."""
        n, me = self.seats, int(self.info[i, K.TURN])
        mask = np.zeros(6 + n, np.int8)
        for a in np.flatnonzero(self.masks[i]):
            mask[a if a < K.A_P0 else 6 + (a - K.A_P0 - me) % n] = 1
        return mask

    @property
    def movers(self) -> np.ndarray:
        return self.info[:, K.TURN].copy()

    def _step(self, b: int, a: int) -> None:
        K.step(self.seats, b, a, self.info, self.down, self.dstart, self.dlen, self.up,
               self.ulen, self.ctop, self.cn, self.outs, self.flags)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Deal every game afresh: masks and movers."""
        if seed is not None:
            K.seed(seed)
        for b in range(self.num_envs):
            K.reset(self.seats, b, self.limit, self.nearest_first, self.info, self.down,
                    self.dstart, self.dlen, self.ulen, self.cn, self.flags, self._deck)
        self._refresh()
        return self.masks, self.movers

    def _refresh(self) -> None:
        """The masks (and, with ``auto_forced``, forced moves played) of every game."""
        for b in range(self.num_envs):
            while self.auto_forced and len(texts := self.legal_texts(b)) == 1:
                self._step(b, ACTION_ID[texts[0]])
            self._mask(b)

    def _mask(self, b: int) -> None:
        acts = np.zeros(K.N_ACTIONS, np.int8)
        k = K.legal(self.seats, b, self.info, self.up, self.ulen, self.ctop, self.cn, acts)
        self.masks[b] = 0
        self.masks[b, acts[:k]] = 1

    def step(self, actions: np.ndarray | list[int]
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One action id per game (−1: none): masks, movers, rewards ``(num_envs,
        seats)`` of the games that ended (0 elsewhere) and dones.  An action outside a
        game's mask raises ``ValueError`` before any game moves."""
        a = step_actions(actions, self.num_envs)
        bad = K.step_batch(self.seats, a, self.info, self.down, self.dstart, self.dlen,
                           self.up, self.ulen, self.ctop, self.cn, self.outs, self.flags,
                           self.masks, self.dones, self.losers, self._deck,
                           self.auto_forced)
        if bad >= 0:
            raise ValueError(f"action {int(a[bad])} is not legal in game {bad}")
        rewards = np.zeros((self.num_envs, self.seats), np.float32)
        ended = self.dones.nonzero()[0]
        rewards[ended] = 1.0
        rewards[ended, self.losers[ended]] = -1.0
        return self.masks, self.movers, rewards, self.dones.copy()

    # -- to and from the single-state engine ----------------------------------------
    def load(self, i: int, state: JomfruState) -> None:
        """Put an engine position into game ``i`` (its masks refreshed)."""
        n = self.seats
        if state.seats != n:
            raise ValueError(f"a {state.seats}-seat position in a {n}-seat batch")
        for s in range(n):
            self.down[i, s, :len(state.down[s])] = [CODE[c] for c in state.down[s]]
            self.dstart[i, s], self.dlen[i, s] = 0, len(state.down[s])
            self.up[i, s, :len(state.up[s])] = [CODE[c] for c in state.up[s]]
            self.ulen[i, s] = len(state.up[s])
            self.flags[i, s] = (K.OUT if s in state.out else 0) | (
                K.RECYCLED if state.recycled[s] else 0)
        self.outs[i, :len(state.out)] = state.out
        self.ctop[i, :len(state.centre)] = [CODE[p[-1]] for p in state.centre]
        self.cn[i] = len(state.centre)
        self.info[i] = [state.turn, -1 if state.turned is None else CODE[state.turned],
                        state.turns, len(state.out), int(state.done), state.limit,
                        int(state.nearest_first)]
        self._mask(i)

    def legal_texts(self, i: int) -> list[str]:
        """Game ``i``'s legal actions as the engine's texts, in its order."""
        acts = np.zeros(K.N_ACTIONS, np.int8)
        k = K.legal(self.seats, i, self.info, self.up, self.ulen, self.ctop, self.cn, acts)
        return [TEXTS[a] for a in acts[:k]]

    def apply(self, i: int, text: str) -> None:
        """Play one legal action text in game ``i`` alone (no auto-reset)."""
        if text not in self.legal_texts(i):
            raise ValueError(f"{text!r} is not legal in game {i}")
        self._step(i, ACTION_ID[text])

    def position(self, i: int) -> dict[str, object]:
        """Game ``i``'s position in the engine's terms (card codes, seat numbers)."""
        n = self.seats
        d = [tuple(DECK[c] for c in self.down[i, s, self.dstart[i, s]:
                                              self.dstart[i, s] + self.dlen[i, s]])
             for s in range(n)]
        u = [tuple(DECK[c] for c in self.up[i, s, :self.ulen[i, s]]) for s in range(n)]
        turned = int(self.info[i, K.TURNED])
        return {"down": tuple(d), "up": tuple(u),
                "centre_tops": tuple(DECK[c] for c in self.ctop[i, :self.cn[i]]),
                "turned": None if turned < 0 else DECK[turned],
                "turn": int(self.info[i, K.TURN]), "turns": int(self.info[i, K.TURNS]),
                "out": tuple(int(s) for s in self.outs[i, :self.info[i, K.OUTN]]),
                "recycled": tuple(bool(self.flags[i, s] & K.RECYCLED) for s in range(n)),
                "done": bool(self.info[i, K.DONE])}

    def loser(self, i: int) -> int:
        return int(K.loser(self.seats, i, self.info, self.dlen, self.ulen, self.flags))


def engine_position(state: JomfruState) -> dict[str, object]:
    """An engine state in ``JomfruBatch.position``'s terms (for comparing the two)."""
    return {"down": state.down, "up": state.up,
            "centre_tops": tuple(p[-1] for p in state.centre), "turned": state.turned,
            "turn": state.turn, "turns": state.turns, "out": state.out,
            "recycled": state.recycled, "done": state.done}
