"""The board evaluation shared by the kugler bots (greedy's one ply, ismcts' leaves).

Score of a board for a team = the team's marble values − the mean over the other teams.
A marble's value (documented in docs/rules/kugler.md, "Bots"):

- start area: 0;
- on the track: ``OUT`` + the fields it has come, counted from the end of its way
  (``track − fields still to go``), so the 8-backward shortcut scores its true gain;
  minus its danger: ``DANGER`` × value × (number of other-team marbles 1–10 fields behind
  it, 8 ahead of it, or in the start area whose start field it stands on, capped at 4)
  — the marbles that could hit it with one card;
- in home field k: ``HOME`` + track + 2k (deeper is better: it frees the fields behind).

Cards worth keeping (subtracted for the card played or discarded): ``KEEP``.
"""

from __future__ import annotations

from spillebord.games.kugler.board import EMPTY, HOME_SIZE, Geometry
from spillebord.games.kugler.moves import Board

OUT = 12.0
HOME = 24.0
DANGER = 0.06
KEEP = {"JK": 7.0, "7": 3.0, "8": 2.5, "A": 2.0, "K": 2.0, "Q": 2.0, "J": 2.0, "T": 0.5}
KEEP_OUT_BONUS = 3.0  # an out card is worth more while own marbles wait in the start area


def team_of(geo: Geometry, seat: int) -> int:
    return min(seat, geo.partner[seat])


def seat_values(board: Board, geo: Geometry) -> list[float]:
    """Each seat's total marble value on ``board``."""
    track = geo.track
    n = geo.seats
    values = [0.0] * n
    on_track: list[tuple[int, int]] = []
    for f in range(track):
        s = board[f]
        if s != EMPTY:
            on_track.append((f, s))
    count = [0] * n
    for f in range(track, geo.size):
        s = board[f]
        if s != EMPTY:
            k = (f - geo.home_base[s]) + 1
            values[s] += HOME + track + 2 * k
            count[s] += 1
    for _, s in on_track:
        count[s] += 1
    starters = [s for s in range(n) if count[s] < HOME_SIZE]
    for f, s in on_track:
        value = OUT + track - geo.to_entry[s][f] - 1
        team = team_of(geo, s)
        threats = 0
        for g, o in on_track:
            if team_of(geo, o) == team:
                continue
            behind = (f - g) % track
            if 1 <= behind <= 10 or behind == track - 8:
                threats += 1
        for o in starters:
            if geo.start[o] == f and team_of(geo, o) != team:
                threats += 1
        values[s] += value * (1.0 - DANGER * min(threats, 4))
    return values


def team_scores(board: Board, geo: Geometry) -> dict[int, float]:
    """Team (its lower seat) → its summed marble value."""
    values = seat_values(board, geo)
    out: dict[int, float] = {}
    for s, v in enumerate(values):
        t = team_of(geo, s)
        out[t] = out.get(t, 0.0) + v
    return out


def relative(scores: dict[int, float], team: int) -> float:
    others = [v for t, v in scores.items() if t != team]
    return scores[team] - sum(others) / len(others)


def keep_value(card: str, waiting: bool) -> float:
    rank = "JK" if card == "JK" else card[0]
    value = KEEP.get(rank, 0.0)
    if waiting and rank in ("A", "J", "Q", "K"):
        value += KEEP_OUT_BONUS
    return value
