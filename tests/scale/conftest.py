"""The scale-out tests run against real PostgreSQL, Redis and nginx servers started by
tests/services.py (session-scoped: one of each for the whole run)."""

from tests.services import nginx_binary, pg_url, postgres, redis_server

__all__ = ["nginx_binary", "pg_url", "postgres", "redis_server"]
