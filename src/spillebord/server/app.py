"""The web app factory (placeholder start page until the server issue lands)."""

from __future__ import annotations

import html

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from spillebord import games


def create_app() -> FastAPI:
    app = FastAPI(title="Spillebord")

    @app.get("/", response_class=HTMLResponse)
    def start_page() -> str:
        items = "".join(
            f"<li><b>{html.escape(g.name_da)}</b> — {html.escape(g.blurb_da)}</li>"
            for g in games.all_games()
        )
        return f"<!doctype html><html lang=da><title>Spillebord</title><ul>{items}</ul>"

    @app.get("/api/games")
    def list_games() -> list[dict[str, object]]:
        return [g.info() for g in games.all_games()]

    return app
