"""Benchmark of the web pages in headless Chromium.  Prints a table.

    python bench/web_pages.py                 # all registered games, 30 moves each
    python bench/web_pages.py --write         # also rewrite docs/benchmarks/web.md

Starts its own server (``spillebord serve`` on a free loopback port, temporary SQLite)
and Debian's /usr/bin/chromium through Playwright, then for each game:

1. first load: bytes transferred (encoded, headers included, from Chromium's network
   events) for a fresh visit of /play/{id}, cache empty — HTML, CSS, JS modules,
   catalogue and API calls; the WebSocket frames are not counted;
2. time to interactive: navigation start → the first `state` drawn (play.js sets
   window.__spillebord.interactiveAt in the frame after the board is drawn); median and
   best of five fresh visits after a warm-up visit (BENCH_MARKS=1 prints the phases);
3. message → drawn move: for each `state` the page receives, the time from the
   WebSocket message's arrival to the next painted frame (median and 95th percentile),
   while a scripted player plays legal actions through the page's own session.

Also the start page and the statistics page (a browser whose player has finished a game
of each solitaire): first load and navigation start → the page's `data-ready` mark.

Targets (issues 8 and 14): first load ≤ 150 KB, interactive ≤ 0.5 s, a move drawn ≤ 50 ms.

    python bench/web_pages.py --fresh-clone   # also: fresh clone, first bot move

``--fresh-clone`` (issues 27 and 31): ``git clone`` of this checkout's HEAD into a
temporary folder, ``make install warm`` there (uv's cache as it is), then the clone's
``spillebord serve`` as ``make run`` starts it (SQLite, the watchable bot delay of 0.6 s):
seconds to the first ``/healthz``, to ``/readyz`` 200, and from ready to the first move
of a new bots-only Kugler og Jokere table at level 2 (target: ≤ 2 s).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SEATS = {"studenter": ["me"], "posthus": ["me"],
         "gammel_jomfru": ["me", {"bot": "random", "level": None}],
         "kugler": ["me"] + [{"bot": "random", "level": None}] * 3}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(url: str, body: dict[str, Any]) -> Any:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as res:
        return json.loads(res.read())


def start_server(tmp: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    exe = shutil.which("spillebord", path=str(Path(sys.executable).parent)) or "spillebord"
    env = {**os.environ, "SPILLEBORD_BOT_DELAY": "0.05", "SPILLEBORD_VERDICT_SECONDS": "0.5"}
    proc = subprocess.Popen([exe, "serve", "--port", str(port), "--db", f"sqlite:///{tmp}/b.db"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}"
    if wait_ready(url, 300) is None:
        proc.kill()
        raise SystemExit("the server did not get ready")
    return proc, url


def wait_ready(url: str, timeout: float, path: str = "/readyz") -> float | None:
    """Seconds until ``path`` answers 200 (the warm-up done, for /readyz), or None."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        try:
            urllib.request.urlopen(url + path, timeout=2)
            return time.perf_counter() - t0
        except OSError:  # not listening yet, or 503 while warming
            time.sleep(0.02)
    return None


def first_bot_move(url: str) -> float:
    """Seconds from creating a bots-only level-2 Kugler og Jokere table to its first
    event (polled every 20 ms)."""
    t0 = time.perf_counter()
    made = post(url + "/api/matches", {"game": "kugler", "seats": [{"level": 2}] * 4})
    while True:
        with urllib.request.urlopen(f"{url}/api/matches/{made['match_id']}") as res:
            if json.loads(res.read())["version"] >= 1:
                return time.perf_counter() - t0
        if time.perf_counter() - t0 > 120:
            raise SystemExit("no bot move in 120 s")
        time.sleep(0.02)


def fresh_clone() -> dict[str, Any]:
    """The fresh-clone figures (see the module's docstring)."""
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "clone"
        t0 = time.perf_counter()
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        subprocess.run(["make", "-C", str(clone), "install", "warm"], check=True,
                       stdout=subprocess.DEVNULL)
        installed = time.perf_counter() - t0
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        env = {k: v for k, v in os.environ.items() if not k.startswith("SPILLEBORD_")}
        t0 = time.perf_counter()
        proc = subprocess.Popen([str(clone / ".venv" / "bin" / "spillebord"), "serve",
                                 "--port", str(port), "--db", f"sqlite:///{tmp}/f.db"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=env, cwd=clone)
        try:
            alive = wait_ready(url, 300, "/healthz")
            ready = wait_ready(url, 300)
            assert alive is not None and ready is not None, "the clone's server failed"
            ready += alive
            moves = [first_bot_move(url) for _ in range(3)]
        finally:
            proc.terminate()
            proc.wait(20)
    return {"install_s": installed, "alive_s": alive, "ready_s": ready,
            "first_move_s": moves[0], "next_moves_s": moves[1:]}


def load(browser: Any, url: str, game: str) -> tuple[Any, Any, float, float]:
    """A fresh context (empty cache) opening a new match: (context, page, bytes, tti)."""
    res = post(url + "/api/matches", {"game": game, "seats": SEATS[game], "deal": 7})
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    sizes: dict[str, float] = {}
    cdp.on("Network.loadingFinished",
           lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
    page.goto(url + res["play_url"])
    page.wait_for_function("() => window.__spillebord && window.__spillebord.interactiveAt")
    page.wait_for_load_state("networkidle")
    tti = float(page.evaluate("() => window.__spillebord.interactiveAt"))
    if os.environ.get("BENCH_MARKS"):
        marks = page.evaluate("() => window.__spillebord.marks")
        print(game, {k: round(v) for k, v in marks.items()})
    return context, page, sum(sizes.values()), tti


READY = """new MutationObserver((_, obs) => {
  if (document.body && document.body.dataset.ready === "1") {
    window.__readyAt = performance.now();
    obs.disconnect();
  }
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["data-ready"]});"""


def measure_page(browser: Any, url: str, path: str, player: str) -> dict[str, Any]:
    """A page that marks itself ready (body[data-ready]): first load and time to ready,
    median and best of five fresh visits after a warm-up visit."""
    times = []
    first_load = 0.0
    for i in range(6):
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        context.add_init_script(f"localStorage.setItem('spillebord.player', '{player}');"
                                + READY)
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        sizes: dict[str, float] = {}
        cdp.on("Network.loadingFinished",
               lambda e, sizes=sizes: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
        page.goto(url + path)
        page.wait_for_function("() => window.__readyAt")
        page.wait_for_load_state("networkidle")
        if i:
            times.append(float(page.evaluate("() => window.__readyAt")))
        first_load = sum(sizes.values())
        context.close()
    return {"page": path, "first_load_kb": first_load / 1024,
            "ready_ms": statistics.median(times), "ready_best_ms": min(times)}


def finished_player(url: str) -> str:
    """A player with a resigned game of each solitaire (the statistics have rows)."""
    player: str = post(url + "/api/players", {})["player_id"]
    import asyncio

    import websockets

    async def resign(game: str) -> None:
        made = post(url + "/api/matches", {"game": game, "seats": ["me"], "player": player})
        ws_url = url.replace("http", "ws") + f"/ws/{made['match_id']}"
        async with websockets.connect(ws_url, origin=url) as ws:
            await ws.send(json.dumps({"t": "hello", "v": 0, "d": {"token": made["token"]}}))
            version = 0
            while True:
                msg = json.loads(await ws.recv())
                if msg["t"] == "state":
                    version = msg["v"]
                    if msg["d"]["seat"] == 0:
                        break
            await ws.send(json.dumps({"t": "act", "v": version, "d": {"action": "resign"}}))
            while True:
                msg = json.loads(await ws.recv())
                if msg["t"] == "state" and msg["d"]["outcome"]:
                    return

    for game in ("studenter", "posthus"):
        asyncio.run(resign(game))
    return player


def measure_game(browser: Any, url: str, game: str, moves: int) -> dict[str, Any]:
    # The first visit warms the server (imports, first deal); then five more visits.
    ttis = []
    for i in range(6):
        context, page, first_load, tti = load(browser, url, game)
        if i:
            ttis.append(tti)
        if i < 5:
            context.close()
    tti = statistics.median(ttis)
    tti_best = min(ttis)
    # Play legal actions through the page's own session; every state is timed.
    for _ in range(moves):
        st = page.evaluate("() => window.__spillebord.state")
        if st["outcome"]:
            break
        if not st["legal"]:
            page.wait_for_timeout(100)
            continue
        legal = [a for a in st["legal"] if a != "resign"] or st["legal"]
        v = page.evaluate("() => window.__spillebord.session.version")
        page.evaluate("a => window.__spillebord.session.act(a)", legal[len(legal) // 2])
        page.wait_for_function("v => window.__spillebord.session.version > v", arg=v)
    page.wait_for_timeout(300)
    timings = [t["ms"] for t in page.evaluate("() => window.__spillebord.timings")[1:]]
    context.close()
    timings.sort()
    return {
        "game": game, "first_load_kb": first_load / 1024, "tti_ms": tti, "tti_best_ms": tti_best,
        "draw_median_ms": statistics.median(timings) if timings else float("nan"),
        "draw_p95_ms": timings[int(0.95 * (len(timings) - 1))] if timings else float("nan"),
        "states": len(timings),
    }


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| game | first load (KB) | interactive, median (ms) | best (ms) "
             "| move drawn, median (ms) | p95 (ms) | states |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['first_load_kb']:.1f} | {r['tti_ms']:.0f} | "
                     f"{r['tti_best_ms']:.0f} | "
                     f"{r['draw_median_ms']:.1f} | {r['draw_p95_ms']:.1f} | {r['states']} |")
    return "\n".join(lines)


def pages_table(rows: list[dict[str, Any]]) -> str:
    lines = ["| page | first load (KB) | ready, median (ms) | best (ms) |",
             "|---|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| `{r['page']}` | {r['first_load_kb']:.1f} | {r['ready_ms']:.0f} | "
                     f"{r['ready_best_ms']:.0f} |")
    return "\n".join(lines)


def write_doc(text: str) -> None:
    path = ROOT / "docs" / "benchmarks" / "web.md"
    today = dt.date.today().isoformat()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "# Web pages: load size, time to interactive, time to draw a move\n\n"
        f"Measured {today} by `python bench/web_pages.py --write` on the development machine "
        "(2 cores, shared with other work: load average "
        f"{os.getloadavg()[0]:.1f} at the end of the run), headless Debian Chromium, server "
        "on loopback with a temporary SQLite database.\n\n"
        "Targets (issue 8): first load ≤ 150 KB transferred; interactive ≤ 0.5 s; a move "
        "drawn ≤ 50 ms after the server's message.\n\n"
        f"{text}\n\n"
        "- *first load*: every byte Chromium received for a fresh visit of /play/{id} "
        "(HTML, CSS, ES modules, the Danish catalogue, the API calls), cache disabled; "
        "WebSocket frames not counted.\n"
        "- *interactive*: navigation start → the frame after the first `state` is drawn; "
        "median and best of five fresh visits after one warm-up visit. Most of the spread "
        "is the shared machine: the HTML and module fetches and the WebSocket handshake "
        "wait for the Python server's turn on the cores.\n"
        "- *move drawn*: arrival of a `state` WebSocket message → the next painted frame, "
        "over the states of the scripted game (legal actions sent by the page's session).\n"
        "- *pages*: the start page and the statistics page for a player with two finished "
        "games; *ready* is navigation start → the page's `data-ready` mark (games listed, "
        "statistics drawn).\n",
        encoding="utf-8")


def main() -> None:
    from playwright.sync_api import sync_playwright

    from spillebord import games

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--write", action="store_true", help="rewrite docs/benchmarks/web.md")
    ap.add_argument("--fresh-clone", action="store_true",
                    help="also: fresh clone, first bot move (clones and installs: minutes)")
    args = ap.parse_args()
    fresh = fresh_clone() if args.fresh_clone else None
    if fresh is not None:
        print("fresh clone:", fresh, "load", os.getloadavg(), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(Path(tmp))
        try:
            player = finished_player(url)  # before Playwright's loop takes the thread
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                rows = [measure_game(browser, url, g, args.moves) for g in games.keys()  # noqa: SIM118
                        if g in SEATS]
                page_rows = [measure_page(browser, url, path, player)
                             for path in ("/", "/stats")]
                browser.close()
        finally:
            proc.terminate()
            proc.wait(10)
    text = table(rows) + "\n\n" + pages_table(page_rows)
    if fresh is not None:
        text += ("\n\nFresh clone, first bot move: `make install warm` "
                 f"{fresh['install_s']:.0f} s; `spillebord serve` → `/healthz` "
                 f"{fresh['alive_s']:.1f} s, → `/readyz` 200 {fresh['ready_s']:.1f} s; "
                 "first level-2 Kugler og Jokere bot move of a new bots-only table "
                 f"**{fresh['first_move_s']:.2f} s** after ready (the next two: "
                 + ", ".join(f"{m:.2f} s" for m in fresh["next_moves_s"])
                 + "; 0.6 s of each is the watchable bot delay). Load average "
                 f"{os.getloadavg()[0]:.1f}, 2 cores.")
    print(text)
    if args.write:
        write_doc(text)


if __name__ == "__main__":
    main()
