"""The one game-record format: `{"game", "options", "setup", "moves"}` as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.game import RecordError


@dataclass
class Record:
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    setup: dict[str, Any] = field(default_factory=dict)
    moves: list[Any] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options, "setup": self.setup, "moves": self.moves}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1)


def load_record(text: str | bytes) -> Record:
    """Parse a record's text; every problem is a RecordError that says where."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RecordError(f"not valid JSON ({exc})", "record") from None
    return record_from_json(data)


def record_from_json(data: Any) -> Record:
    if not isinstance(data, dict):
        raise RecordError("must be a JSON object", "record")
    unknown = set(data) - {"game", "options", "setup", "moves"}
    if unknown:
        raise RecordError(f"unknown field(s) {sorted(unknown)}", "record")
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise RecordError("must name the game as a string", "game")
    parts: dict[str, Any] = {}
    for key, kind, default in (("options", dict, {}), ("setup", dict, {}), ("moves", list, [])):
        value = data.get(key, default)
        if not isinstance(value, kind):
            raise RecordError(f"must be a JSON {'object' if kind is dict else 'list'}", key)
        parts[key] = value
    return Record(game=game, **parts)
