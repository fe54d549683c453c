"""The rating arithmetic below the server (core/rating.py) asks each game for its teams:
partners rise and fall together, and a team game is classed by its exact size."""

from __future__ import annotations

from spillebord import games
from spillebord.core import rating


def test_teams_come_from_the_game() -> None:
    for game in games.all_games():
        for seats in game.seat_counts:
            assert rating.teams_of(game.key, seats) == list(game.teams(seats))


def test_partners_move_together_and_team_tables_keep_their_size() -> None:
    before = {s: rating.default() for s in range(6)}
    after = rating.rate("kugler", 6, [[0, 3], [1, 4], [2, 5]], before)
    assert after[0] == after[3] and after[1] == after[4]
    assert after[0][0] > before[0][0] > after[2][0]
    assert rating.seat_class("kugler", 6) == "6"
    assert rating.seat_class("gammel_jomfru", 4) == "3-4"
    assert rating.seat_class("gammel_jomfru", 6) == "5-8"
