"""The people routes under /api (docs/protocol.md, "Names and accounts"): who am I,
a display name, sign up, sign in, sign out, change the password.  The sign-in session
travels only in the ``spillebord_session`` cookie (HttpOnly, SameSite=Lax, Secure when
the request came over TLS); its value is never logged or stored in clear."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from spillebord.server.errors import Refusal
from spillebord.server.people.deps import COOKIE, PlayerHeader, SessionCookie
from spillebord.server.people.deps import people as people_of
from spillebord.server.people.service import SignedIn
from spillebord.server.people.storage import Person

router = APIRouter(prefix="/api")
# Long enough to give our own clear answer for a too long password or name.
LONG = 20_000


class NameBody(BaseModel):
    name: str = Field(max_length=LONG)


class SignUpBody(BaseModel):
    name: str | None = Field(default=None, max_length=LONG)
    password: str = Field(max_length=LONG)


class SignInBody(BaseModel):
    name: str = Field(max_length=LONG)
    password: str = Field(max_length=LONG)


class PasswordBody(BaseModel):
    old_password: str = Field(max_length=LONG)
    new_password: str = Field(max_length=LONG)


def address(request: Request) -> str:
    """The client's address (uvicorn takes it from X-Forwarded-For behind the proxy)."""
    return request.client.host if request.client else "unknown"


def _guest(player: str | None) -> str | None:
    if player is not None and not 8 <= len(player) <= 32:
        raise Refusal("bad_player", "a player id is 8–32 letters, digits, - or _")
    return player


def _person(p: Person) -> dict[str, object]:
    return {"player_id": p.player_id, "name": p.name, "account": p.account}


def _set_cookie(request: Request, response: Response, signed: SignedIn,
                days: float) -> dict[str, object]:
    response.set_cookie(COOKIE, signed.token, max_age=int(days * 86400), path="/",
                        httponly=True, samesite="lax", secure=request.url.scheme == "https")
    return {"player_id": signed.player_id, "name": signed.name, "account": True}


# Refusals after which the browser's cookie is worth nothing: the answer clears it.
ENDED = ("bad_session", "session_expired")


def drop_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")


@router.get("/me")
async def who_am_i(request: Request, session: SessionCookie = None,
                   x_player: PlayerHeader = None) -> dict[str, object]:
    """The caller: the signed-in account, else the guest of ``X-Player``."""
    return _person(await people_of(request).me(session, _guest(x_player)))


@router.put("/me/name")
async def set_name(request: Request, body: NameBody, session: SessionCookie = None,
                   x_player: PlayerHeader = None) -> dict[str, object]:
    """Take a display name (guests and accounts; one namespace, case-insensitive)."""
    return _person(await people_of(request).rename(session, _guest(x_player), body.name))


@router.post("/account", status_code=201)
async def sign_up(request: Request, response: Response, body: SignUpBody,
                  session: SessionCookie = None,
                  x_player: PlayerHeader = None) -> dict[str, object]:
    """Turn the guest (X-Player) into an account with a password, or make a new one;
    signs in (sets the session cookie)."""
    people = people_of(request)
    await request.app.state.quotas.sign_up(address(request))  # 429 past the quota (infra/quotas.py)
    signed = await people.sign_up(session, _guest(x_player), body.name, body.password)
    return _set_cookie(request, response, signed, people.settings.session_days)


@router.post("/session")
async def sign_in(request: Request, response: Response,
                  body: SignInBody) -> dict[str, object]:
    """Sign in with name and password; sets the session cookie."""
    people = people_of(request)
    await request.app.state.quotas.sign_in(address(request))  # 429 past the quota (infra/quotas.py)
    signed = await people.sign_in(body.name, body.password, address(request))
    return _set_cookie(request, response, signed, people.settings.session_days)


@router.delete("/session", status_code=204)
async def sign_out(request: Request, response: Response,
                   session: SessionCookie = None) -> None:
    """End this sign-in on the server and clear the cookie."""
    await people_of(request).sign_out(session)
    drop_cookie(request, response)


@router.put("/account/password", status_code=204)
async def change_password(request: Request, body: PasswordBody,
                          session: SessionCookie = None) -> None:
    """A new password (the old one first); every other sign-in of the account ends."""
    await people_of(request).change_password(session, body.old_password, body.new_password,
                                             address(request))
