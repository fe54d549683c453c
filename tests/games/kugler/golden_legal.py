"""Golden legal-action lists of Kugler og Jokere, recorded from the engine of
2026-12-01 (before the rules kernel, issue 19) and checked against today's engine by
test_kugler_golden.py.

Each record is one position to move: seat count, flags, turn, the board (one character
a field: ``.`` empty, else the seat), the mover's hand, the sorted legal action texts,
the aliases (other-order split 7 texts → the listed text), and a digest of the board
each action leads to (``apply`` of the engine).  The positions come from games played
by a mix of random and forward-moving choices at 4, 6 and 8 seats under every flag
setting, plus crowded random boards full of sevens and jokers, and finished seats.

    python -m tests.games.kugler.golden_legal      # rewrite the data (old engine only)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("data") / "legal_golden.jsonl.gz"

FLAG_SETS: list[dict[str, bool]] = [
    {},
    {"optional_home_entry": True},
    {"strict_discard": True},
    {"finished_helps_partner": False},
    {"optional_home_entry": True, "strict_discard": True, "finished_helps_partner": False},
]
FLAG_LETTERS = {"optional_home_entry": "o", "strict_discard": "s",
                "finished_helps_partner": "f"}


def flags_text(flags: dict[str, bool]) -> str:
    """Letters of the flags that differ from their defaults (``f`` = helping off)."""
    out = ""
    if flags.get("optional_home_entry"):
        out += "o"
    if flags.get("strict_discard"):
        out += "s"
    if flags.get("finished_helps_partner") is False:
        out += "f"
    return out


def flags_of(text: str) -> dict[str, bool]:
    return {"optional_home_entry": "o" in text, "strict_discard": "s" in text,
            "finished_helps_partner": "f" not in text}


def board_text(board: Any) -> str:
    return "".join("." if v < 0 else str(v) for v in board)


def digest(boards: list[str]) -> str:
    return hashlib.sha1("|".join(boards).encode()).hexdigest()[:12]


def position_json(seats: int, turn: int, board: str, hand: list[str]) -> str:
    """The rule book's JSON of a record's position (other hands from the deal)."""
    from spillebord.games.kugler.board import geometry

    geo = geometry(seats)
    marbles: dict[str, list[str]] = {str(s): [] for s in range(seats)}
    for f, ch in enumerate(board):
        if ch != ".":
            marbles[ch].append(geo.names[f])
    for s in range(seats):
        marbles[str(s)] = [f"s{s}"] * (5 - len(marbles[str(s)])) + marbles[str(s)]
    return json.dumps({"seats": seats, "turn": turn, "marbles": marbles,
                       "hands": {str(turn): hand}})


def record(state: Any, flags: str) -> dict[str, Any]:
    moves = state.legal_actions()
    state.lookup("")  # fills the aliases
    results = [board_text(state._apply(m).board) for m in moves]
    return {"s": state.seats, "f": flags, "t": state.turn, "b": board_text(state.board),
            "h": list(state.hands[state.turn]), "l": [str(m) for m in moves],
            "a": dict(sorted(state._aliases.items())), "r": digest(results)}


def _walk_records(rng: random.Random) -> list[dict[str, Any]]:
    from spillebord.bots.kugler.greedy import score_moves
    from spillebord.games.kugler import GAME

    out: list[dict[str, Any]] = []
    for seats in (4, 6, 8):
        for flags in FLAG_SETS:
            ftext = flags_text(flags)
            for deal in range(4):
                state = GAME.new(deal=deal, seats=seats, **flags)
                greedy_share = (0.3, 0.6, 0.8, 0.95)[deal]
                ply = 0
                while state.to_move is not None and ply < 900:
                    moves = state.legal_actions()
                    if ply % 9 == deal % 9:
                        out.append(record(state, ftext))
                    if rng.random() < greedy_share:
                        scores = score_moves(state, moves)
                        move = moves[max(range(len(moves)), key=scores.__getitem__)]
                    else:
                        move = rng.choice(moves)
                    state = state._apply(move)
                    ply += 1
    return out


def _crowded_records(rng: random.Random) -> list[dict[str, Any]]:
    from spillebord.games.kugler import GAME

    cards = ["7C", "7H", "7S", "JK", "8D", "AS", "KS", "4C", "5S", "TC", "JK", "QH", "2D",
             "6H", "9S", "3C"]
    out: list[dict[str, Any]] = []
    for seats in (4, 6, 8):
        track = 18 * seats
        for i in range(400):
            flags = FLAG_SETS[i % len(FLAG_SETS)]
            ftext = flags_text(flags)
            fields = rng.sample(range(track), rng.randrange(seats * 2, seats * 4))
            marbles: dict[str, list[str]] = {str(s): [] for s in range(seats)}
            for j, f in enumerate(fields):
                s = j % seats
                if len(marbles[str(s)]) < 5:
                    marbles[str(s)].append(f"t{f}")
            for s in range(seats):
                locs = marbles[str(s)]
                room = 5 - len(locs)
                if room and rng.random() < 0.5:
                    k = rng.randrange(1, room + 1)
                    if rng.random() < 0.15:  # finished seat (all five home)
                        locs.clear()
                        k = 5
                    homes = sorted(rng.sample(range(1, 6), k))
                    locs += [f"h{s}.{h}" for h in homes]
                locs += [f"s{s}"] * (5 - len(locs))
            turn = rng.randrange(seats)
            hand = rng.sample(cards, 5)
            data = {"seats": seats, "turn": turn, "marbles": marbles,
                    "hands": {str(turn): hand}}
            state = GAME.parse_position(json.dumps(data), **flags)
            if state.to_move is None:
                continue
            out.append(record(state, ftext))
    return out


def make() -> list[dict[str, Any]]:
    rng = random.Random(19)
    return _walk_records(rng) + _crowded_records(rng)


def load() -> list[dict[str, Any]]:
    with gzip.open(DATA, "rt") as f:
        return [json.loads(line) for line in f]


def main() -> None:
    records = make()
    DATA.parent.mkdir(exist_ok=True)
    with gzip.GzipFile(DATA, "wb", mtime=0) as raw:
        raw.write("".join(json.dumps(r, separators=(",", ":")) + "\n"
                          for r in records).encode())
    sizes = {n: sum(r["s"] == n for r in records) for n in (4, 6, 8)}
    print(f"{len(records)} positions {sizes}, "
          f"{sum(len(r['l']) for r in records)} actions, {DATA.stat().st_size} bytes")


if __name__ == "__main__":
    main()
