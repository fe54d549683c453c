"""The server compiles or loads the games' rules kernels before it serves games (in its
start-up's background part, server/warmup.py: the games are refused with 503 warming
until then), so the first kugler action of a fresh process does not stall the event loop
for every game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """
import asyncio, sys
from spillebord.games.kugler import kernel
from spillebord.server.services import Services
from spillebord.server.infra.settings import Settings

async def main() -> None:
    assert not kernel.legal.signatures, "the kernel ran before the services started"
    # the rules kernels are the subject: no bot and solver processes warmed, no daily
    # deals chosen (their CPU was most of this test's 20 s; test_warmup.py covers them)
    hub = Services(Settings(db_url="sqlite:///" + sys.argv[1], warm_workers=False,
                            daily_ahead=False))
    await hub.start()
    try:
        assert hub.warmup.task is not None
        await hub.warmup.task
        assert hub.warmup.serving and hub.warmup.ready, hub.warmup.report()
        print(len(kernel.legal.signatures))
    finally:
        await hub.stop()

asyncio.run(main())
"""


def test_hub_start_readies_the_kugler_kernel(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path / "warm.db")],
                         capture_output=True, text=True, timeout=240, check=True)
    assert int(out.stdout.strip().splitlines()[-1]) >= 1
