"""The 72 Carcassonne base-game land tiles as data, and the one rotation convention everyone shares.

Letters follow the common C2 naming (A..X, see the rules' `carcassonne-tiles.md`). Each tile is
described in its canonical orientation: edges N E S W ('C' city, 'R' road, 'F' field), the road
parts and city parts (the set of edges each one joins; a part that joins one edge ends on the tile),
shields and the monastery. Fields are never scored in the solo variant, so they are not modelled.

Rotation is the clockwise turn in degrees (0, 90, 180, 270) from the canonical orientation to how
the tile lies: after a 90° turn the canonical N edge faces E. Both the engine and the vision use
`TileType.edges(rotation)` and `rotate_edge`, so they can never disagree about it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

DIRECTIONS: tuple[str, str, str, str] = ("N", "E", "S", "W")
ROTATIONS: tuple[int, int, int, int] = (0, 90, 180, 270)
CITY, ROAD, FIELD = "C", "R", "F"
START_TILE = "D"
OPPOSITE: dict[str, str] = {"N": "S", "E": "W", "S": "N", "W": "E"}
# (dx, dy) of the neighbour across each edge; y grows to the south.
STEP: dict[str, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}

Edges = tuple[str, str, str, str]


@dataclass(frozen=True, slots=True)
class CityPart:
    """One city area of a tile: the edges it touches and whether it bears a shield."""

    edges: frozenset[str]
    shield: bool = False


@dataclass(frozen=True, slots=True)
class TileType:
    letter: str
    canonical: Edges  # N E S W at rotation 0
    roads: tuple[frozenset[str], ...]  # road parts at rotation 0
    cities: tuple[CityPart, ...]  # city parts at rotation 0
    monastery: bool
    count: int  # copies in the 72-tile game, the start tile included
    description: str

    def edges(self, rotation: int = 0) -> Edges:
        """Edge kinds N E S W as the tile lies after `rotation` degrees clockwise."""
        k = _quarter_turns(rotation)
        c = self.canonical
        return (c[(0 - k) % 4], c[(1 - k) % 4], c[(2 - k) % 4], c[(3 - k) % 4])

    def road_parts(self, rotation: int = 0) -> tuple[frozenset[str], ...]:
        return tuple(frozenset(rotate_edge(e, rotation) for e in part) for part in self.roads)

    def city_parts(self, rotation: int = 0) -> tuple[CityPart, ...]:
        return tuple(
            CityPart(frozenset(rotate_edge(e, rotation) for e in part.edges), part.shield) for part in self.cities
        )

    @property
    def shields(self) -> int:
        return sum(part.shield for part in self.cities)


def _quarter_turns(rotation: int) -> int:
    if rotation not in ROTATIONS:
        raise ValueError(f"rotation must be one of {ROTATIONS}, got {rotation!r}")
    return rotation // 90


def rotate_edge(edge: str, rotation: int) -> str:
    """Where the canonical `edge` faces after the tile is turned `rotation` degrees clockwise."""
    return DIRECTIONS[(DIRECTIONS.index(edge) + _quarter_turns(rotation)) % 4]


def unrotate_edge(edge: str, rotation: int) -> str:
    """Which canonical edge faces `edge` when the tile lies at `rotation` (inverse of rotate_edge)."""
    return DIRECTIONS[(DIRECTIONS.index(edge) - _quarter_turns(rotation)) % 4]


# letter, edges N E S W, road parts, city parts ('*' = the part bears a shield), monastery, count, what.
_CATALOG: tuple[tuple[str, str, tuple[str, ...], tuple[str, ...], bool, int, str], ...] = (
    ("A", "FFRF", ("S",), (), True, 2, "monastery, road from it to S"),
    ("B", "FFFF", (), (), True, 4, "monastery"),
    ("C", "CCCC", (), ("NESW*",), False, 1, "one city over the whole tile, shield"),
    ("D", "CRFR", ("EW",), ("N",), False, 4, "city N, straight road W-E (the start tile)"),
    ("E", "CFFF", (), ("N",), False, 5, "city N"),
    ("F", "FCFC", (), ("EW*",), False, 2, "city W-E, one part, shield"),
    ("G", "FCFC", (), ("EW",), False, 1, "city W-E, one part"),
    ("H", "CFCF", (), ("N", "S"), False, 3, "cities N and S, separate"),
    ("I", "CFFC", (), ("N", "W"), False, 2, "cities N and W, separate"),
    ("J", "CRRF", ("ES",), ("N",), False, 3, "city N, road curving E-S"),
    ("K", "CFRR", ("SW",), ("N",), False, 3, "city N, road curving S-W"),
    ("L", "CRRR", ("E", "S", "W"), ("N",), False, 3, "city N, roads E, S, W end at a junction"),
    ("M", "CFFC", (), ("NW*",), False, 2, "city N+W, one part, shield"),
    ("N", "CFFC", (), ("NW",), False, 3, "city N+W, one part"),
    ("O", "CRRC", ("ES",), ("NW*",), False, 2, "city N+W, road curving E-S, shield"),
    ("P", "CRRC", ("ES",), ("NW",), False, 3, "city N+W, road curving E-S"),
    ("Q", "CCFC", (), ("NEW*",), False, 1, "city N+E+W, shield"),
    ("R", "CCFC", (), ("NEW",), False, 3, "city N+E+W"),
    ("S", "CCRC", ("S",), ("NEW*",), False, 2, "city N+E+W, road from S ends at the city, shield"),
    ("T", "CCRC", ("S",), ("NEW",), False, 1, "city N+E+W, road from S ends at the city"),
    ("U", "RFRF", ("NS",), (), False, 8, "straight road N-S"),
    ("V", "FFRR", ("SW",), (), False, 9, "road curving S-W"),
    ("W", "FRRR", ("E", "S", "W"), (), False, 4, "roads E, S, W end at a junction"),
    ("X", "RRRR", ("N", "E", "S", "W"), (), False, 1, "four roads end at a crossroads"),
)


def _tile(row: tuple[str, str, tuple[str, ...], tuple[str, ...], bool, int, str]) -> TileType:
    letter, edges, roads, cities, monastery, count, what = row
    return TileType(
        letter=letter,
        canonical=(edges[0], edges[1], edges[2], edges[3]),
        roads=tuple(frozenset(part) for part in roads),
        cities=tuple(CityPart(frozenset(part.rstrip("*")), part.endswith("*")) for part in cities),
        monastery=monastery,
        count=count,
        description=what,
    )


TILES: dict[str, TileType] = {row[0]: _tile(row) for row in _CATALOG}
TILE_COUNT = sum(t.count for t in TILES.values())  # 72


def tile(letter: str) -> TileType:
    """The tile type for a letter (case-insensitive); KeyError names the bad letter."""
    found = TILES.get(letter.upper()) if isinstance(letter, str) else None
    if found is None:
        raise KeyError(f"no Carcassonne tile {letter!r}; letters are A..X")
    return found


def _layout(t: TileType, rotation: int) -> tuple[Edges, frozenset[frozenset[str]], frozenset[CityPart]]:
    return t.edges(rotation), frozenset(t.road_parts(rotation)), frozenset(t.city_parts(rotation))


def distinct_rotations(letter: str) -> list[int]:
    """The rotations that look different; of equal ones (U at 0 and 180) only the smallest is kept."""
    return list(_distinct_rotations(tile(letter).letter))


@cache
def _distinct_rotations(letter: str) -> tuple[int, ...]:
    t = TILES[letter]
    seen: list[tuple[Edges, frozenset[frozenset[str]], frozenset[CityPart]]] = []
    result: list[int] = []
    for rotation in ROTATIONS:
        layout = _layout(t, rotation)
        if layout not in seen:
            seen.append(layout)
            result.append(rotation)
    return tuple(result)


def canonical_rotation(letter: str, rotation: int) -> int:
    """The smallest rotation that lays the tile exactly like `rotation` (U at 180 -> 0)."""
    t = tile(letter)
    layout = _layout(t, rotation)
    return next(r for r in distinct_rotations(t.letter) if _layout(t, r) == layout)


def full_bag() -> list[str]:
    """All 72 letters, the start tile included, in catalog order."""
    return [t.letter for t in TILES.values() for _ in range(t.count)]


def shuffled_tiles() -> list[str]:
    """The 71 tiles that are shuffled: the full bag without one start tile."""
    bag = full_bag()
    bag.remove(START_TILE)
    return bag
