"""The machine's second control for bench/scale_out.py: does the same work cost more CPU
time when it comes less often?

    python bench/wake_cost.py                        # rates 600, 300, 150, 75 a second
    python bench/wake_cost.py --rates 300,150 --rounds 6 --seconds 6

A server process sleeps in ``recv`` on a socket; a client process sends it one message
at a time, paced at a fixed rate, and waits for the answer.  For each message the server
does the same piece of the server's kind of work (``--actions`` random Posthus and
Gammel Jomfru actions through the engine, each view encoded as JSON: about what one
game action costs the real server's event loop) and answers.  Each process reads its
own CPU time; the table gives the server's CPU per message at each rate, rates
interleaved round by round.  If a message costs more when messages come less often, the
extra is what waking an idle process costs on this machine (cold caches, the virtual
CPU's halt and wake-up) — paid per action by a server at light load, and the reason two
workers sharing a load cost more per action than one worker carrying it all
(docs/benchmarks/scale.md).  No server design removes it; at full load it vanishes.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import socket
import statistics
import sys
import time
from multiprocessing.connection import Connection
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from spillebord import games
from spillebord.core.protocol import State
from spillebord.server.room.wire import dumps

GAMES = (("posthus", None), ("gammel_jomfru", 4))


class Work:
    """Random actions through the engine, a view encoded after each (new deals as
    games end)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.loaded = [(games.load(key), seats) for key, seats in GAMES]
        self.deal = seed
        self.states: list[State] = [self._new(i) for i in range(len(self.loaded))]

    def _new(self, i: int) -> State:
        self.deal += 1
        game, seats = self.loaded[i]
        return game.new(deal=self.deal % 10_000 + 1, seats=seats)

    def run(self, actions: int) -> None:
        for n in range(actions):
            i = n % len(self.states)
            state = self.states[i]
            legal = state.legal_actions() if not state.is_over else []
            if not legal:
                self.states[i] = self._new(i)
                continue
            state = self.states[i] = state.apply(self.rng.choice(legal))
            dumps(state.view(state.to_move))


def _server(sock: socket.socket, actions: int, seed: int, report: Connection) -> None:
    work = Work(seed)
    work.run(2000)  # warm: imports, caches
    report.send("ready")
    start, handled = time.process_time(), 0
    while True:
        data = sock.recv(64)
        if not data or data == b"q":
            break
        work.run(actions)
        handled += 1
        sock.sendall(b"k")
    report.send((time.process_time() - start, handled))


def run_case(rate: float, seconds: float, actions: int, seed: int) -> tuple[float, float]:
    """(server CPU µs per message, client CPU µs per message) at ``rate`` messages/s."""
    ctx = mp.get_context("fork")
    mine, theirs = socket.socketpair()
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_server, args=(theirs, actions, seed, child))
    proc.start()
    theirs.close()
    assert parent.recv() == "ready"
    interval = 1.0 / rate
    count = int(rate * seconds)
    cpu0 = time.process_time()
    next_at = time.monotonic()
    for _ in range(count):
        delay = next_at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        next_at += interval
        mine.sendall(b"m")
        mine.recv(8)
    client = time.process_time() - cpu0
    mine.sendall(b"q")
    server, handled = parent.recv()
    proc.join()
    mine.close()
    return server / handled * 1e6, client / count * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rates", default="600,300,150,75", help="messages per second")
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=5.0, help="per rate and round")
    ap.add_argument("--actions", type=int, default=20,
                    help="engine actions (with a JSON view each) per message")
    args = ap.parse_args()
    rates = [float(x) for x in args.rates.split(",")]
    console = Console()
    got: dict[float, list[tuple[float, float]]] = {r: [] for r in rates}
    loads: list[float] = []
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("rounds", total=args.rounds * len(rates))
        for r in range(args.rounds):
            for rate in (rates if r % 2 == 0 else rates[::-1]):
                got[rate].append(run_case(rate, args.seconds, args.actions, 1000 * r))
                loads.append(os.getloadavg()[0])
                progress.advance(task)
    top = max(rates)
    base = statistics.median(s for s, _ in got[top])
    table = Table(title=f"CPU µs per message ({args.actions} engine actions each), "
                        f"{os.cpu_count()} cores, {args.rounds} rounds, load "
                        f"{min(loads):.1f}–{max(loads):.1f}")
    for col in ("messages/s", "server median", "server min–max", f"× at {top:g}/s",
                "client median"):
        table.add_column(col, justify="right")
    for rate in rates:
        server = [s for s, _ in got[rate]]
        client = [c for _, c in got[rate]]
        table.add_row(f"{rate:g}", f"{statistics.median(server):.0f}",
                      f"{min(server):.0f}–{max(server):.0f}",
                      f"{statistics.median(server) / base:.2f}",
                      f"{statistics.median(client):.0f}")
    console.print(table)


if __name__ == "__main__":
    main()
