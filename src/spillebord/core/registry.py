"""The registry of games: each game's manifest (``core.manifest``) by key, the game
object loaded lazily from the manifest's ``game`` target."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from spillebord.core.errors import NotationError
from spillebord.core.manifest import Manifest

if TYPE_CHECKING:
    from spillebord.core.protocol import Game

_MANIFESTS: dict[str, Manifest] = {}
_LOADED: dict[str, Game] = {}


def register(manifest: Manifest) -> None:
    """Register a game by its manifest (again: the new manifest replaces the old)."""
    _MANIFESTS[manifest.key] = manifest
    _LOADED.pop(manifest.key, None)


def unregister(key: str) -> None:
    """Take a game out of the registry (tests that register one for a while)."""
    _MANIFESTS.pop(key, None)
    _LOADED.pop(key, None)


def keys() -> list[str]:
    """Every registered key, in registration order (the rule book's)."""
    return list(_MANIFESTS)


def is_registered(key: str) -> bool:
    return key in _MANIFESTS


def ready_keys() -> list[str]:
    """The keys of the games offered to players (``Manifest.ready``)."""
    return [k for k, m in _MANIFESTS.items() if m.ready]


def manifest(key: str) -> Manifest:
    """The manifest of ``key``; NotationError for an unknown game."""
    found = _MANIFESTS.get(key)
    if found is None:
        known = ", ".join(_MANIFESTS) or "none"
        raise NotationError(f"unknown game {key!r} (games: {known})")
    return found


def manifests() -> list[Manifest]:
    return list(_MANIFESTS.values())


def target(path: str) -> object:
    """The object at ``"package.module:ATTRIBUTE"`` (or the module for ``"package.module"``)."""
    module_name, _, attr = path.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attr) if attr else module


def load(key: str) -> Game:
    if key in _LOADED:
        return _LOADED[key]
    game: Game = target(manifest(key).game)  # type: ignore[assignment]
    _LOADED[key] = game
    return game
