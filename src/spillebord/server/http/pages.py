"""The HTML pages and /static files (written by the web engineer in web/static/); a
minimal fallback page answers while a page file does not exist yet."""

from __future__ import annotations

import html
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException

import spillebord.web

STATIC = Path(spillebord.web.__file__).resolve().parent / "static"
router = APIRouter()


def page(name: str, title: str) -> Response:
    path = STATIC / name
    if path.is_file():
        return FileResponse(path, media_type="text/html; charset=utf-8")
    return HTMLResponse(
        f"<!doctype html><html lang=da><meta charset=utf-8><title>{html.escape(title)}"
        f"</title><h1>Spillebord</h1><p>{html.escape(title)}: this page is not "
        f"installed yet. The API is documented at <a href=/docs>/docs</a>.</p></html>")


@router.get("/", include_in_schema=False)
def index() -> Response:
    return page("index.html", "Spillebord")


@router.get("/play/{match_id}", include_in_schema=False)
def play(match_id: str) -> Response:
    return page("play.html", "Spil")


@router.get("/join/{code}", include_in_schema=False)
def join(code: str) -> Response:
    return page("join.html", "Invitation")


@router.get("/replay/{match_id}", include_in_schema=False)
def replay(match_id: str) -> Response:
    return page("replay.html", "Genafspilning")


@router.get("/stats", include_in_schema=False)
def statistics() -> Response:
    return page("stats.html", "Statistik")


@router.get("/lobby", include_in_schema=False)
def lobby() -> Response:
    return page("lobby.html", "Lobby")


@router.get("/leaderboard", include_in_schema=False)
def leaderboard() -> Response:
    return page("leaderboard.html", "Rangliste")


@router.get("/daily", include_in_schema=False)
def daily() -> Response:
    return page("daily.html", "Dagens kabale")


# Paths a program asks for: an unknown one keeps the JSON answer of every refusal.
MACHINE_PATHS = ("/api/", "/ws", "/static/", "/openapi", "/metrics", "/healthz", "/readyz")


async def not_found(request: Request, exc: Exception) -> Response:
    """404: a browser asking for a page gets the HTML page in the player's language
    (404.html, worded by the page's catalogue); API and other machine paths, and any
    request that does not accept HTML, get the JSON ``{"detail": ...}`` as before."""
    detail = exc.detail if isinstance(exc, HTTPException) else "Not Found"
    wants_html = "text/html" in request.headers.get("accept", "")
    if (request.method == "GET" and wants_html
            and not request.url.path.startswith(MACHINE_PATHS)
            and (STATIC / "404.html").is_file()):
        return FileResponse(STATIC / "404.html", status_code=404,
                            media_type="text/html; charset=utf-8")
    return JSONResponse({"detail": detail}, status_code=404)
