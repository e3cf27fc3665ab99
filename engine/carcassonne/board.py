"""Where tiles lie and where the next one may go.

Positions are single ints, not (x, y) tuples, and each oriented tile carries its edges as a small
bit code, so listing the legal placements of a tile on a full board is a few dict look-ups per open
square: the random playouts and the benchmark lay thousands of tiles per second.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.carcassonne.tiles import DIRECTIONS, TILES, distinct_rotations

SPAN = 1024  # positions are (x + ORIGIN) * SPAN + (y + ORIGIN)
ORIGIN = 512
MAX_COORD = 400  # no record lays a tile farther out (setup caps the number of tiles)
DELTA: tuple[int, int, int, int] = (-1, SPAN, 1, -SPAN)  # N E S W; y grows to the south
NEIGHBOURS8: tuple[int, ...] = (-SPAN - 1, -1, SPAN - 1, -SPAN, SPAN, -SPAN + 1, 1, SPAN + 1)
KIND_BITS: dict[str, int] = {"C": 1, "R": 2, "F": 3}
ROAD, CITY = "road", "city"
MONASTERY = "monastery"


def pos_of(x: int, y: int) -> int:
    return (x + ORIGIN) * SPAN + (y + ORIGIN)


def xy_of(pos: int) -> tuple[int, int]:
    return pos // SPAN - ORIGIN, pos % SPAN - ORIGIN


def opposite(d: int) -> int:
    return (d + 2) & 3


@dataclass(frozen=True, slots=True)
class Part:
    """A road or city area of a laid tile: the sides (0..3 = N E S W) it touches."""

    kind: str
    sides: tuple[int, ...]
    shield: int


@dataclass(frozen=True, slots=True)
class Oriented:
    """A tile type as it lies at one rotation, in the forms the hot loops want."""

    letter: str
    rotation: int
    edges: tuple[str, str, str, str]
    code: int  # 2 bits per side, KIND_BITS, N in the lowest bits
    parts: tuple[Part, ...]
    edge_part: tuple[int, int, int, int]  # index into parts for each side, -1 for a field
    monastery: bool

    def part_at(self, spot: str) -> int:
        """Index of the part a meeple spot names: an edge letter, or `len(parts)` for the monastery."""
        if spot == MONASTERY:
            return len(self.parts) if self.monastery else -1
        return self.edge_part[DIRECTIONS.index(spot)]

    def spot_of(self, part: int) -> str:
        """The record name of a part: its first edge N E S W, or `monastery`."""
        if part == len(self.parts):
            return MONASTERY
        return DIRECTIONS[self.parts[part].sides[0]]


@cache
def oriented(letter: str, rotation: int) -> Oriented:
    t = TILES[letter]
    edges = t.edges(rotation)
    parts = [Part(ROAD, _sides(p), 0) for p in t.road_parts(rotation)]
    parts += [Part(CITY, _sides(p.edges), int(p.shield)) for p in t.city_parts(rotation)]
    edge_part = [-1, -1, -1, -1]
    for i, part in enumerate(parts):
        for side in part.sides:
            edge_part[side] = i
    code = sum(KIND_BITS[kind] << (2 * d) for d, kind in enumerate(edges))
    return Oriented(letter, rotation, edges, code, tuple(parts), (*edge_part,), t.monastery)  # type: ignore[arg-type]


def _sides(edges: frozenset[str]) -> tuple[int, ...]:
    return tuple(sorted(DIRECTIONS.index(e) for e in edges))


_FITS: dict[tuple[str, int, int], tuple[int, ...]] = {}


def fitting_rotations(letter: str, mask: int, value: int) -> tuple[int, ...]:
    """The distinct rotations of `letter` whose edges match a square's (mask, value) needs."""
    key = (letter, mask, value)
    found = _FITS.get(key)
    if found is None:
        found = tuple(r for r in distinct_rotations(letter) if oriented(letter, r).code & mask == value)
        _FITS[key] = found
    return found


class Board:
    """Laid tiles by position, and the open squares next to them with the edges each one needs."""

    def __init__(self) -> None:
        self.tiles: dict[int, Oriented] = {}
        self.order: list[int] = []  # positions in the order the tiles were laid
        # open square -> (mask, value): 2 bits per side that a neighbour fixes, and the kind it needs
        self.frontier: dict[int, tuple[int, int]] = {}

    def copy(self) -> Board:
        board = Board()
        board.tiles = dict(self.tiles)
        board.order = list(self.order)
        board.frontier = dict(self.frontier)
        return board

    def place(self, pos: int, tile: Oriented) -> None:
        tiles, frontier = self.tiles, self.frontier
        tiles[pos] = tile
        self.order.append(pos)
        frontier.pop(pos, None)
        code = tile.code
        for d in range(4):
            npos = pos + DELTA[d]
            if npos in tiles:
                continue
            shift = 2 * opposite(d)
            mask, value = frontier.get(npos, (0, 0))
            frontier[npos] = (mask | 3 << shift, value | ((code >> (2 * d)) & 3) << shift)

    def placements(self, letter: str) -> list[tuple[int, int]]:
        """Every (position, rotation) where `letter` may be laid; equal rotations listed once."""
        out: list[tuple[int, int]] = []
        fits = _FITS
        for pos, need in self.frontier.items():
            found = fits.get((letter, *need))
            if found is None:
                found = fitting_rotations(letter, *need)
            for rotation in found:
                out.append((pos, rotation))
        return out

    def can_place(self, letter: str) -> bool:
        return any(fitting_rotations(letter, *need) for need in self.frontier.values())

    def mismatch(self, pos: int, tile: Oriented) -> int | None:
        """The first side (0..3) whose neighbour's edge differs from the tile's, or None."""
        need = self.frontier.get(pos)
        if need is None:
            return None
        mask, value = need
        if tile.code & mask == value:
            return None
        return next(d for d in range(4) if (tile.code ^ value) & mask & (3 << 2 * d))
