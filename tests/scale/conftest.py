"""The scale-out tests run against real PostgreSQL, Redis and nginx servers started by
tests/services.py (session-scoped: one of each for the whole run)."""

import faulthandler
import sys
from collections.abc import Iterator

import pytest
from tests.services import nginx_binary, pg_url, postgres, redis_server

TEST_LIMIT = 240  # seconds: a hung test dumps every thread's stack and ends the run


@pytest.fixture(autouse=True)
def _bounded() -> Iterator[None]:
    faulthandler.dump_traceback_later(TEST_LIMIT, exit=True, file=sys.stderr)
    yield
    faulthandler.cancel_dump_traceback_later()

__all__ = ["nginx_binary", "pg_url", "postgres", "redis_server"]
