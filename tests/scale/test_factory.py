"""Choosing the scale-out pieces: a single SQLite worker runs with neither ``redis`` nor
``psycopg`` importable (the ``scale`` extra is optional); Redis with SQLite is refused;
Redis with PostgreSQL gives the shared bus, serializer and leases."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from spillebord.server.infra.bus import LocalBus, LocalSerializer
from spillebord.server.infra.settings import Settings
from spillebord.server.scale.factory import ScaleConfigError, transport

ROOT = Path(__file__).resolve().parents[2]
WITHOUT_EXTRA = """
import sys, tempfile
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('redis', 'psycopg', 'psycopg_binary'):
            raise ImportError('blocked ' + name)
sys.meta_path.insert(0, Block())
import httpx
from tests.server.live import LiveServer, settings_for
live = LiveServer(settings_for(tempfile.mkdtemp() + '/x.db')).start()
r = httpx.post(live.http + '/api/matches', json={'game': 'posthus'})
live.stop()
print(r.status_code, 'redis' in sys.modules, 'psycopg' in sys.modules)
"""


def test_sqlite_worker_runs_without_the_scale_extra() -> None:
    out = subprocess.run([sys.executable, "-c", WITHOUT_EXTRA], cwd=ROOT, text=True,
                         capture_output=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["201", "False", "False"]


def test_factory_choices() -> None:
    local = transport(Settings(db_url="sqlite:///x.db"))
    assert not local.shared
    assert isinstance(local.bus, LocalBus) and isinstance(local.serializer, LocalSerializer)
    with pytest.raises(ScaleConfigError):
        transport(Settings(db_url="sqlite:///x.db", redis_url="redis://127.0.0.1:1/0"))
    shared = transport(Settings(db_url="postgresql+psycopg://u@127.0.0.1:1/db",
                                redis_url="redis://127.0.0.1:1/0"))
    assert shared.shared and type(shared.bus).__name__ == "RedisBus"
    # one owner per game: the worker's own lock serialises a game's events; the leases
    # (scale/factory.build) use the database in libpq form
    assert isinstance(shared.serializer, LocalSerializer)
    assert shared.dsn == "postgresql://u@127.0.0.1:1/db"
