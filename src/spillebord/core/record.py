"""Game records: game key + flags + seats + deal number (+ optional start position) +
action texts.  The save, replay and database format (JSON, never pickle)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from spillebord.core.errors import NotationError
from spillebord.core.protocol import Game, State, replay
from spillebord.core.rng import DEAL_ALGORITHM_VERSION

RECORD_FORMAT = 1


@dataclass(frozen=True, slots=True)
class GameRecord:
    game: str
    seats: int
    deal: int
    flags: dict[str, bool] = field(default_factory=dict)
    actions: tuple[str, ...] = ()
    position: str | None = None
    deal_algorithm: str = DEAL_ALGORITHM_VERSION

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": RECORD_FORMAT,
            "game": self.game,
            "seats": self.seats,
            "deal": self.deal,
            "deal_algorithm": self.deal_algorithm,
            "flags": dict(sorted(self.flags.items())),
            "actions": list(self.actions),
        }
        if self.position is not None:
            out["position"] = self.position
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False)

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise NotationError("a record is a JSON object")
        try:
            game, seats, deal = data["game"], data["seats"], data["deal"]
        except KeyError as exc:
            raise NotationError(f"a record needs the field {exc.args[0]!r}") from exc
        flags = data.get("flags", {})
        actions = data.get("actions", [])
        position = data.get("position")
        algo = data.get("deal_algorithm", DEAL_ALGORITHM_VERSION)
        if not isinstance(game, str):
            raise NotationError("record field 'game' must be a string")
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise NotationError("record field 'seats' must be an integer")
        if isinstance(deal, bool) or not isinstance(deal, int) or deal < 0:
            raise NotationError("record field 'deal' must be a non-negative integer")
        if not isinstance(flags, dict) or not all(
            isinstance(k, str) and isinstance(v, bool) for k, v in flags.items()
        ):
            raise NotationError("record field 'flags' must map names to true/false")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise NotationError("record field 'actions' must be a list of action texts")
        if position is not None and not isinstance(position, str):
            raise NotationError("record field 'position' must be a string")
        if algo != DEAL_ALGORITHM_VERSION:
            raise NotationError(f"deal algorithm {algo!r} is not supported")
        return cls(game, seats, deal, dict(flags), tuple(actions), position, algo)

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise NotationError(f"a record is JSON: {exc.msg} at line {exc.lineno}") from exc
        return cls.from_json(data)

    def start(self, game: Game) -> State:
        """The state before the first action, for ``game`` (the record's game object:
        the caller looks it up, e.g. ``games.load(record.game)`` — core never imports the
        games layer)."""
        if game.key != self.game:
            raise NotationError(f"this is a {self.game} record, not {game.key}")
        if self.position is not None:
            return game.parse_position(self.position, **self.flags)
        return game.new(deal=self.deal, seats=self.seats, **self.flags)

    def replay(self, game: Game) -> State:
        """The state after every action (NotationError naming the refused action)."""
        return replay(self.start(game), self.actions)
