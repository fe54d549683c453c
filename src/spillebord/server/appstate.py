"""One shape for every FastAPI dependency that reads a service: app.py puts each service
built by ``services.py`` on ``app.state`` under its name, and ``from_state(name, kind)``
is the dependency that reads it back.  It is ``async`` so FastAPI calls it on the event
loop (a plain ``def`` dependency costs a thread-pool hop per request and socket)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar, cast

from starlette.requests import HTTPConnection

T = TypeVar("T")


def from_state(name: str, kind: type[T]) -> Callable[[HTTPConnection], Awaitable[T]]:
    """The dependency that answers the app's service ``name`` (of type ``kind``)."""

    async def provide(conn: HTTPConnection) -> T:
        return cast(T, getattr(conn.app.state, name))

    provide.__name__ = f"{name}_service"
    return provide
