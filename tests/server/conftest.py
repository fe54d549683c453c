"""Fixtures for the server tests: a real uvicorn server on a free loopback port with a
temporary SQLite file (one per test module; restart tests start their own)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.server.live import LiveServer, settings_for


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    db = tmp_path_factory.mktemp("db") / "spillebord.db"
    live = LiveServer(settings_for(str(db), min_takeover=1)).start()
    yield live
    live.stop()
