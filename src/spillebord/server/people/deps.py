"""The FastAPI dependencies for people: the service, the sign-in session cookie, the
``X-Player`` header (a guest's id), and the acting player read from them."""

from __future__ import annotations

from typing import Annotated

from fastapi import Cookie, Depends, Header
from starlette.requests import HTTPConnection

from spillebord.server.appstate import from_state
from spillebord.server.people.service import People, check_player

COOKIE = "spillebord_session"


def people(conn: HTTPConnection) -> People:
    """The app's People (app.py puts it on ``app.state``)."""
    found: People = conn.app.state.people
    return found


PeopleDep = Annotated[People, Depends(from_state("people", People))]
SessionCookie = Annotated[str | None, Cookie(alias=COOKIE)]
PlayerHeader = Annotated[str | None, Header(alias="X-Player")]


async def acting_player(people: PeopleDep, session: SessionCookie = None,
                        x_player: PlayerHeader = None) -> str | None:
    """Who acts: the signed-in account (the cookie), else the guest id (``X-Player``)."""
    return await people.acting(session, check_player(x_player))


async def signed_in(people: PeopleDep, session: SessionCookie = None) -> str | None:
    """The signed-in account only (None for a guest)."""
    return await people.session_player(session)


Player = Annotated[str | None, Depends(acting_player)]
SignedIn = Annotated[str | None, Depends(signed_in)]
