"""Fixtures for the server tests: a real uvicorn server on a free loopback port with a
temporary SQLite file (one per test module; restart tests start their own); their bot
and solver worker processes shared for the session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.server.live import SHARED, LiveServer, settings_for


@pytest.fixture(scope="session", autouse=True)
def shared_compute() -> Iterator[None]:
    """The servers of this test process share their compute worker processes
    (tests/server/live.py, SharedPools); they end with the session."""
    SHARED.on = True
    yield
    SHARED.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("db") / "spillebord.db"
    live = LiveServer(settings_for(str(db), min_takeover=1)).start()
    yield live
    live.stop()
