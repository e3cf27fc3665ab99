"""The tile catalog as the vision sees it: the engine's data module, plus the hypotheses to match.

Only `engine.carcassonne.tiles` (pure data) is imported; the rules engine never is.
"""

from __future__ import annotations

from functools import cache

from engine.carcassonne.tiles import (
    DIRECTIONS,
    OPPOSITE,
    ROTATIONS,
    STEP,
    TILES,
    TileType,
    canonical_rotation,
    distinct_rotations,
    full_bag,
    rotate_edge,
)

__all__ = [
    "DIRECTIONS", "OPPOSITE", "ROTATIONS", "STEP", "TILES", "TileType", "canonical_rotation",
    "distinct_rotations", "full_bag", "rotate_edge", "hypotheses", "same_part", "GAME_TILES",
]

GAME_TILES = sum(t.count for t in TILES.values())  # the tiles of one game: no board holds more


@cache
def hypotheses() -> tuple[tuple[str, int], ...]:
    """Every (letter, rotation) that looks different: what a tile in the picture can be."""
    return tuple((letter, r) for letter in TILES for r in distinct_rotations(letter))


def same_part(letter: str, rotation: int, a: str, b: str) -> bool:
    """Whether edge names `a` and `b` name the same city or road part (meeple features compare so)."""
    if a == b:
        return True
    t = TILES[letter]
    parts = [p for p in t.road_parts(rotation)] + [c.edges for c in t.city_parts(rotation)]
    return any(a in p and b in p for p in parts)
