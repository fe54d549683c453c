"""Names nobody can fake (issue 28, "Names and identity"), against the real server:
look-alikes of the staff words, the bots and taken names are refused (confusable
skeletons, UTS #39), so are names mixing scripts and names that display as nothing,
and every bot's display name and seat label of both catalogues is reserved."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import httpx
import pytest
from tests.server.live import LiveServer

CATALOGUES = Path(__file__).resolve().parents[2] / "src" / "spillebord" / "web" / "static" / "i18n"

_n = itertools.count(1)


def put_name(server: LiveServer, name: str) -> httpx.Response:
    with httpx.Client(base_url=server.http, timeout=30) as http:
        me = http.post("/api/players").json()["player_id"]
        return http.put("/api/me/name", json={"name": name}, headers={"X-Player": me})


@pytest.mark.parametrize(("name", "code"), [
    ("аdmin", "bad_name"),       # Cyrillic а
    ("cоmputer", "bad_name"),    # Cyrillic о
    ("ΑDMIN", "bad_name"),       # Greek Α
    ("admın", "reserved_name"),  # dotless ı: one script, the skeleton of "admin"
    ("сомрutеr", "bad_name"),
    ("\u3164\u3164\u3164", "bad_name"),  # Hangul fillers: display as nothing
    ("\u115f\u115f\u115fAnna", "bad_name"),
    ("An\u3164na", "bad_name"),
])
def test_look_alikes_mixed_scripts_and_invisible_names_are_refused(
        server: LiveServer, name: str, code: str) -> None:
    r = put_name(server, name)
    assert r.status_code == 400 and r.json()["detail"]["code"] == code, (name, r.text)


@pytest.mark.parametrize("name", ["Fremsyn", "Træsøgning", "Tree search", "Computer 2",
                                  "Spiller 2", "Player 12", "Look-ahead", "Tilfældig",
                                  "COMPUTER 3", "Spiller_4"])
def test_bot_names_and_seat_labels_are_reserved(server: LiveServer, name: str) -> None:
    r = put_name(server, name)
    assert r.status_code == 400 and r.json()["detail"]["code"] == "reserved_name", (name,
                                                                                     r.text)


def test_every_bot_display_name_of_the_catalogues_is_reserved(server: LiveServer) -> None:
    """Read from the catalogues: a bot added later is reserved without asking."""
    for path in sorted(Path(CATALOGUES).glob("*.json")):
        for key, text in json.loads(path.read_text(encoding="utf-8")).items():
            if key.startswith("bot.") and 3 <= len(text) <= 20:
                r = put_name(server, text)
                assert r.json()["detail"]["code"] == "reserved_name", (path.name, text)


def test_a_look_alike_of_a_taken_name_is_taken(server: LiveServer) -> None:
    n = next(_n)
    assert put_name(server, f"Milla Kirk {n}").status_code == 200
    for fake in (f"MiIla Kirk {n}", f"Mi1la Kirk {n}", f"Milla Kırk {n}",
                 f"Milla Kirk {n}".replace("m", "rn")):
        r = put_name(server, fake)
        assert r.status_code == 409 and r.json()["detail"]["code"] == "name_taken", (fake,
                                                                                      r.text)
    # Real names of other scripts and Danish letters still pass.
    for ok in ("Søren Ågård", f"Ирина {n}", f"Γιώργος {n}", f"Maren Ø {n}"):
        assert put_name(server, ok).status_code == 200, ok


def test_an_account_named_before_skeletons_still_signs_in(server: LiveServer) -> None:
    """A name stored with the old casefolded key is found at sign-in by it."""
    from sqlalchemy import create_engine, update

    from spillebord.server.infra.storage.models import players

    name, password = f"Olde Bo1 {next(_n)}", "Blåbær-Kage 7 af tårnet"
    with httpx.Client(base_url=server.http, timeout=30) as http:
        made = http.post("/api/account", json={"name": name, "password": password})
        assert made.status_code == 201, made.text
        engine = create_engine(server.settings.db_url)
        with engine.begin() as conn:
            conn.execute(update(players).where(players.c.id == made.json()["player_id"])
                         .values(name_key=name.casefold()))
        engine.dispose()
        http.cookies.clear()
        r = http.post("/api/session", json={"name": name.upper(), "password": password},
                      headers={"X-Forwarded-For": "10.99.0.1"})
        assert r.status_code == 200, r.text
