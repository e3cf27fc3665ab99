"""A Carcassonne move in record form and in the engine's form (the record boundary)."""

from __future__ import annotations

from typing import Any, NamedTuple

from engine.carcassonne.board import MONASTERY
from engine.carcassonne.tiles import DIRECTIONS, ROTATIONS, TILES

SPOTS: tuple[str, ...] = (*DIRECTIONS, MONASTERY)
MOVE_KEYS = ("tile", "x", "y", "rot", "meeple", "order")
REQUIRED_KEYS = ("tile", "x", "y", "rot")

Ref = tuple[int, int, str]  # x, y, spot: a place on a laid tile that names a feature or a meeple


class Move(NamedTuple):
    tile: str
    x: int
    y: int
    rot: int
    meeple: str | None = None
    order: tuple[Ref, ...] | None = None


def parse_move(raw: Any) -> Move:
    """`{"tile": "E", "x": 0, "y": -1, "rot": 180, "meeple": "S", "order": [[x, y, spot], ...]}`."""
    if not isinstance(raw, dict):
        raise ValueError('a Carcassonne move is an object such as {"tile": "E", "x": 0, "y": -1, "rot": 0}')
    unknown = sorted(set(raw) - set(MOVE_KEYS))
    if unknown:
        raise ValueError(f"unknown field(s) {unknown}; known: {', '.join(MOVE_KEYS)}")
    missing = [k for k in REQUIRED_KEYS if k not in raw]
    if missing:
        raise ValueError(f"missing field(s) {missing}")
    letter = raw["tile"]
    if not isinstance(letter, str) or letter.upper() not in TILES:
        raise ValueError(f"no Carcassonne tile {letter!r}; letters are A..X")
    x, y = _whole(raw["x"], "x"), _whole(raw["y"], "y")
    if raw["rot"] not in ROTATIONS or not isinstance(raw["rot"], int) or isinstance(raw["rot"], bool):
        raise ValueError(f"rot must be one of {list(ROTATIONS)}, got {raw['rot']!r}")
    meeple = raw.get("meeple")
    if meeple is not None and meeple not in SPOTS:
        raise ValueError(f"meeple must be null, an edge N E S W or 'monastery', got {meeple!r}")
    order = raw.get("order")
    return Move(letter.upper(), x, y, raw["rot"], meeple, None if order is None else _refs(order))


def format_move(move: Move) -> dict[str, Any]:
    out: dict[str, Any] = {"tile": move.tile, "x": move.x, "y": move.y, "rot": move.rot, "meeple": move.meeple}
    if move.order is not None:
        out["order"] = [list(ref) for ref in move.order]
    return out


def _whole(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    return value


def _refs(raw: Any) -> tuple[Ref, ...]:
    if not isinstance(raw, list):
        raise ValueError('order must be a list of [x, y, spot], e.g. [[0, -1, "N"]]')
    refs = []
    for i, ref in enumerate(raw):
        if not (isinstance(ref, list) and len(ref) == 3 and ref[2] in SPOTS):
            raise ValueError(f"order[{i}] must be [x, y, spot] with spot N E S W or 'monastery', got {ref!r}")
        refs.append((_whole(ref[0], f"order[{i}] x"), _whole(ref[1], f"order[{i}] y"), ref[2]))
    return tuple(refs)
