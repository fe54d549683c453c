"""Encoding a ``state`` message: the server's splice of the cached, encoded body against
encoding the whole message with the encoder each time.  Prints a table.

    python bench/state_message.py

``Session.state_message`` caches each seat's encoded body per version and appends the
events after the client's version by splicing text (server/room/session.py).  Compared here
on mid-game positions, per message: (1) that splice; (2) ``wire.dumps`` of the whole
message from the cached body dict; (3) ``wire.dumps`` with the encoded view passed as an
``orjson.Fragment`` (the encoder's own way to embed encoded JSON).  All three give the
same JSON (checked).
"""

from __future__ import annotations

import random
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import orjson
from rich.console import Console
from rich.table import Table

from spillebord import games
from spillebord.server.room.wire import dumps

TABLES = (("studenter", 1, 3), ("posthus", 1, 3), ("gammel_jomfru", 4, 30), ("kugler", 8, 30))
NUMBER = 20_000


def measure(key: str, seats: int, steps: int) -> list[str]:
    """One table row: the message size and the three ways' µs per message."""
    game = games.load(key)
    state = game.new(deal=3, seats=seats)
    rng = random.Random(1)
    for _ in range(steps):
        if state.to_move is None:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    body = {"seat": 0, "view": state.view(0),
            "legal": [str(a) for a in state.legal_actions()],
            "to_move": state.to_move, "outcome": None, "status": "running"}
    events = [{"seq": steps, "kind": "act", "seat": 0, "action": "x"}]
    cached = dumps(body)[:-1]
    view = orjson.Fragment(dumps(body["view"]).encode())

    def splice() -> str:
        return f'{{"t":"state","v":{steps},"d":{cached},"events":{dumps(events)}}}}}'

    def encode_all() -> str:
        return dumps({"t": "state", "v": steps, "d": {**body, "events": events}})

    def fragment() -> str:
        return dumps({"t": "state", "v": steps, "d": {**body, "view": view, "events": events}})

    ways = (splice, encode_all, fragment)
    assert len({orjson.dumps(orjson.loads(f())) for f in ways}) == 1
    times = [min(timeit.repeat(f, number=NUMBER, repeat=5)) / NUMBER * 1e6 for f in ways]
    return [key, str(seats), str(len(splice())), *(f"{t:.2f}" for t in times)]


def main() -> None:
    table = Table(title=f"state message encoding, µs per message (best of 5 × {NUMBER:,})")
    for col in ("game", "seats", "bytes", "splice", "encode all", "encode, view fragment"):
        table.add_column(col, justify="right")
    for key, seats, steps in TABLES:
        table.add_row(*measure(key, seats, steps))
    Console().print(table)


if __name__ == "__main__":
    main()
