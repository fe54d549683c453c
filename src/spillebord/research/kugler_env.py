"""Kugler og Jokere's PettingZoo AEC env on the compiled turn loop (docs/research.md,
"Speed"): the same env as ``TableEnv`` (``kugler_env`` in research/table.py makes it),
stepping the game's arrays (research/kugler_kernel.py, one game) instead of building a
``KuglerState`` a step, with the observation and the mask from compiled encoders
(research/kugler_encode.py).

What stays the engine's: the start (``reset`` deals a ``KuglerState`` by deal number or
reads a position text, then loads it), the rules (the game's own kernel), and every
reshuffle — drawn from the deal number's stream exactly as games/kugler/state.py does,
so one seed gives the same game as the engine.  ``state_`` is a ``KuglerState`` built on
demand from the arrays (for ``state()``, ``render``, the bots as policies); ``_set``
loads any ``KuglerState``.  tests/research/test_kugler_env.py checks positions,
observations, masks and the index → move map equal to the engine and the view codec
along many random games.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping

import numpy as np

from spillebord.core.protocol import Action, State
from spillebord.core.rng import shuffled
from spillebord.games.kugler.kernel import CODES, OUT_CAP, finished_mask
from spillebord.games.kugler.moves import interned
from spillebord.games.kugler.state import LAST_MOVES, ROUND_LIMIT, KuglerState
from spillebord.research import kugler_encode as E
from spillebord.research import kugler_kernel as K
from spillebord.research.kugler import KuglerCodec
from spillebord.research.kugler_batch import INDEX, flag_bits
from spillebord.research.table import ObsDict, TableEnv


class KuglerEnv(TableEnv):
    """``kugler_env(seats, …)``: see the module docstring and research/table.py."""

    def __init__(self, seats: int, render_mode: str | None = None, *,
                 auto_forced: bool = False, flat: bool = False, **flags: bool) -> None:
        codec = KuglerCodec(seats)
        n = seats
        size = codec.geo.size
        # one game in two buffers (the compiled calls take those), cut into the turn
        # loop's arrays here by numpy, as kugler_encode.views does
        self._cards, self._words = E.layout(n, codec.n_actions)
        a = size + n * K.NCODES
        self._board = self._cards[:size].reshape(1, size)
        self._hands = self._cards[size:a].reshape(1, n, K.NCODES)
        self._draw = self._cards[a:a + K.NCARDS].reshape(1, K.NCARDS)
        self._disc = self._cards[a + K.NCARDS:].reshape(1, K.NCARDS)
        b = K.NINFO + OUT_CAP
        self._info = self._words[:K.NINFO].reshape(1, K.NINFO)
        self._listed = self._words[b:b + OUT_CAP]
        self._key_at = self._words[b + OUT_CAP:b + OUT_CAP + codec.n_actions]
        self._words[b + OUT_CAP + codec.n_actions:] = E.offsets(codec)
        self._count = 0
        self._deal = 0
        self._flags_of: Mapping[str, bool] = {}
        # the latest moves: (seat, kernel key) played here, (seat, text) loaded
        self._last: deque[tuple[int, int | str]] = deque(maxlen=LAST_MOVES)
        self._made: KuglerState | None = None  # state_ built from the arrays
        self._moves_of: dict[int, Action] | None = None
        super().__init__("kugler", codec, seats, render_mode, auto_forced=auto_forced,
                         flat=flat, **flags)
        self._it = interned(codec.geo)

    # -- the state as the engine's object ----------------------------------------------

    @property
    def state_(self) -> KuglerState | None:
        """The current position as a ``KuglerState`` (built once per position)."""
        if self._made is None and self._loaded:
            self._made = self._to_state()
        return self._made

    @state_.setter
    def state_(self, state: State | None) -> None:
        self._loaded = state is not None
        if state is not None:
            self._load(state)

    @property
    def _legal(self) -> dict[int, Action]:
        """Index → legal ``Move`` of the seat to move (built on demand)."""
        moves = self._moves_of
        if moves is None:
            it, key_at = self._it, self._key_at
            listed = self._listed
            moves = self._moves_of = {int(i): it[int(key_at[i])]
                                      for i in listed[1:int(listed[0]) + 1]}
        return moves

    @_legal.setter
    def _legal(self, value: dict[int, Action]) -> None:
        self._moves_of = value or None

    def _to_state(self) -> KuglerState:
        n, i = self.seats, self._info[0]
        hands = tuple(tuple(CODES[c - 1] for c in range(1, K.NCODES)
                            for _ in range(int(self._hands[0, s, c])))
                      for s in range(n))
        dpos, dlen = int(i[K.DPOS]), int(i[K.DLEN])
        it = self._it
        return KuglerState(self.game, n, self._deal, self._flags_of, self._board[0].copy(),
                           hands, tuple(CODES[c - 1] for c in self._draw[0, dpos:dpos + dlen]),
                           tuple(CODES[c - 1] for c in self._disc[0, :int(i[K.XLEN])]),
                           int(i[K.TURN]), int(i[K.TURNS]), int(i[K.RESH]),
                           tuple((s, k if isinstance(k, str) else it[k].text)
                                 for s, k in self._last),
                           int(i[K.FIN]))

    def _load(self, state: State) -> None:
        """Put an engine position into the arrays (as ``KuglerBatch.load``)."""
        st = self.game.own(state, KuglerState)
        if st.seats != self.seats:
            raise ValueError(f"a {st.seats}-seat position in a {self.seats}-seat env")
        self._board[0] = np.asarray(st.board, np.int8)
        self._hands[0] = 0
        for s, hand in enumerate(st.hands):
            for code in hand:
                self._hands[0, s, INDEX[code]] += 1
        self._draw[0, :len(st.draw)] = [INDEX[c] for c in st.draw]
        self._disc[0, :len(st.discard)] = [INDEX[c] for c in st.discard]
        info = self._info[0]
        info[:] = 0
        info[K.TURN], info[K.TURNS] = st.turn, st.turns
        info[K.FIN] = finished_mask(self._board[0], self.seats)
        info[K.FLAGS] = flag_bits(dict(st.flags))
        info[K.DLEN], info[K.XLEN] = len(st.draw), len(st.discard)
        info[K.LIMIT], info[K.WIN], info[K.RESH] = ROUND_LIMIT * self.seats, -1, st.reshuffles
        K._judge(self.seats, 0, self._board, self._info)
        self._deal, self._flags_of = st.deal, st.flags
        self._last = deque(st.last, maxlen=LAST_MOVES)
        self._made = st

    # -- stepping ----------------------------------------------------------------------

    def _set(self, state: State) -> None:
        self.state_ = state
        self._refresh()

    def _refresh(self, key: int = -1) -> None:
        """Play the kernel key ``key`` (a legal one; −1: none), then the legal list, the
        mask and the seat to move of the arrays' position."""
        n_actions, size = self.codec.n_actions, self.codec.size
        mask, count, mover, obs = E.play_packed(self.seats, key, self._cards, self._words,
                                                n_actions, size)
        if count < 0:  # ruling 1: the discards but the card played, reshuffled
            self._reshuffle()
            mask, count, mover, obs = E.play_packed(self.seats, key, self._cards,
                                                    self._words, n_actions, size)
        self._moves_of = None
        self._count = count
        if count == 0:
            self._cache = {}
            self._to_move = None
            self._mask = self._no_moves
        else:
            self._to_move = mover
            mask.flags.writeable = False
            self._mask = mask
            self._cache = {mover: {"observation": obs, "action_mask": mask}}

    def _play(self, key: int) -> None:
        """The seat to move plays the kernel key ``key`` (a legal one)."""
        seat = self._to_move
        assert seat is not None
        self._last.append((seat, key))
        self._made = None
        self._refresh(key)

    def _reshuffle(self) -> None:
        """The reshuffle the engine makes at this play, put in the draw pile first: the
        kernel then finds a pile and only adds the played card to an empty discard."""
        info = self._info[0]
        x = int(info[K.XLEN])
        texts = sorted(CODES[c - 1] for c in self._disc[0, :x])
        info[K.RESH] += 1
        order = shuffled(texts, "kugler", self.seats, self._deal,
                         f"reshuffle/{int(info[K.RESH])}")
        self._draw[0, :x] = [INDEX[c] for c in order]
        info[K.DPOS], info[K.DLEN], info[K.XLEN] = 0, x, 0

    def step(self, action: int | None) -> None:
        if self._to_move is None:  # the game is over: every agent is terminated
            self._was_dead_step(action)
            return
        i = -1 if action is None else int(action)
        if not 0 <= i < self.codec.n_actions or not self._mask[i]:
            raise ValueError(f"action {action!r} is not legal for {self.agent_selection} "
                             f"(legal: {sorted(self._legal)})")
        self._play(int(self._key_at[i]))
        self._after()

    def _advance(self, state: State) -> None:
        self._set(state)
        self._after()

    def _after(self) -> None:
        """On through forced positions (``auto_forced``); rewards at the end; the infos'
        masks (``flat``); the agent to select."""
        if self.auto_forced:
            while self._count == 1:
                self._play(int(self._key_at[self._listed[1]]))
                self.forced_steps += 1
        mover = self._to_move
        if mover is None:
            win = int(self._info[0, K.WIN])
            half = self.seats // 2
            for a in self.agents:
                s = self._seat[a]
                self.rewards[a] = 0.0 if win < 0 else 1.0 if s % half == win else -1.0
                self.terminations[a] = True
            self._accumulate_rewards()
            mover = 0
        if self.flat:
            for seat, a in enumerate(self.possible_agents):
                self.infos[a]["action_mask"] = (self._mask if seat == self._to_move
                                                else self._no_moves)
        self.agent_selection = self.possible_agents[mover]

    def _observe(self, agent: str) -> ObsDict:
        assert self._loaded, "reset() first"
        seat = self._seat[agent]
        cached = self._cache.get(seat)
        if cached is None:
            cached = self._cache[seat] = {
                "observation": E.observe_packed(self.seats, seat, self._cards,
                                                self._words, self.codec.n_actions,
                                                self.codec.size),
                "action_mask": self._mask if seat == self._to_move else self._no_moves,
            }
        return cached

