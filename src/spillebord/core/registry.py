"""The registry of games: a key → "module:attribute" map, loaded lazily."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from spillebord.core.errors import NotationError

if TYPE_CHECKING:
    from spillebord.core.protocol import Game

_ENTRIES: dict[str, str] = {}
_LOADED: dict[str, Game] = {}


def register(key: str, target: str) -> None:
    """Register a game object found at ``target`` ("package.module:ATTRIBUTE")."""
    _ENTRIES[key] = target


def keys() -> list[str]:
    return list(_ENTRIES)


def load(key: str) -> Game:
    if key in _LOADED:
        return _LOADED[key]
    if key not in _ENTRIES:
        known = ", ".join(_ENTRIES) or "none"
        raise NotationError(f"unknown game {key!r} (games: {known})")
    module_name, _, attr = _ENTRIES[key].partition(":")
    game: Game = getattr(importlib.import_module(module_name), attr)
    _LOADED[key] = game
    return game
