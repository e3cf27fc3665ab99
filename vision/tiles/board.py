"""Boards laid by random legal play: the ground truth every synthetic picture is drawn from.

Placement follows the catalog's edges (every touching edge matches, at least one neighbour), so the
boards look like real games; meeples sit on the usual spot of a random feature, and now and then on
a field, which the referee must flag.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.tiles.catalog import DIRECTIONS, OPPOSITE, STEP, TILES, distinct_rotations, full_bag
from vision.tiles.geometry import FIELD_LABEL, feature_edge, meeple_spots, rotate_points, rotated_feature_map

Cell = tuple[int, int]
MEEPLE_COLOURS = ("red", "blue", "yellow", "black", "green")


@dataclass(frozen=True)
class Meeple:
    colour: str
    cell: Cell
    feature: str  # "N" "E" "S" "W" (a part named by an edge), "monastery" or "field"
    point: tuple[float, float]  # where it stands, unit coordinates of the tile as it lies


@dataclass
class Board:
    tiles: dict[Cell, tuple[str, int]] = field(default_factory=dict)
    meeples: list[Meeple] = field(default_factory=list)

    def bounds(self) -> tuple[int, int, int, int]:
        xs = [c[0] for c in self.tiles]
        ys = [c[1] for c in self.tiles]
        return min(xs), min(ys), max(xs), max(ys)


def fits(tiles: dict[Cell, tuple[str, int]], cell: Cell, letter: str, rotation: int) -> bool:
    if cell in tiles:
        return False
    edges = TILES[letter].edges(rotation)
    touching = False
    for i, d in enumerate(DIRECTIONS):
        dx, dy = STEP[d]
        other = tiles.get((cell[0] + dx, cell[1] + dy))
        if other is None:
            continue
        touching = True
        their = TILES[other[0]].edges(other[1])[DIRECTIONS.index(OPPOSITE[d])]
        if their != edges[i]:
            return False
    return touching


def _frontier(tiles: dict[Cell, tuple[str, int]]) -> list[Cell]:
    cells = {(x + dx, y + dy) for (x, y) in tiles for dx, dy in STEP.values()}
    return sorted(c for c in cells if c not in tiles)


def random_board(n_tiles: int, rng: np.random.Generator, start: tuple[str, int] = ("D", 0)) -> Board:
    """Up to `n_tiles` tiles (start tile included) laid legally from a shuffled bag."""
    board = Board({(0, 0): start})
    bag = full_bag()
    bag.remove(start[0])
    rng.shuffle(bag)
    for letter in bag:
        if len(board.tiles) >= n_tiles:
            break
        options = [(c, r) for c in _frontier(board.tiles) for r in distinct_rotations(letter)
                   if fits(board.tiles, c, letter, r)]
        if options:
            cell, rotation = options[rng.integers(len(options))]
            board.tiles[cell] = (letter, rotation)
    return board


def add_meeples(board: Board, colours: tuple[str, ...], count: int, rng: np.random.Generator,
                field_rate: float = 0.05, field_clearance: float = 0.0) -> None:
    """At most one meeple per tile, on a random feature's usual spot (a field now and then).

    `field_clearance` (tiles): a field meeple's foot stays at least that far from every city, road and
    monastery of the label map and from the tile's sides (see `_field_point`); 0 draws it on any field pixel
    of the tile's middle, as every set before round 21 was (a foot 1/64 tile from a city wall, the figure
    straddling it)."""
    cells = list(board.tiles)
    order = rng.permutation(len(cells))[:count]
    for i in order:
        cell = cells[int(i)]
        letter, rotation = board.tiles[cell]
        spots = meeple_spots(letter)
        colour = colours[int(rng.integers(len(colours)))]
        if not spots or rng.random() < field_rate:
            point = _field_point(letter, rotation, rng, field_clearance)
            if point is None:
                continue
            board.meeples.append(Meeple(colour, cell, "field", point))
            continue
        kind, index, canonical = spots[int(rng.integers(len(spots)))]
        point = tuple(rotate_points(np.array([canonical]), rotation)[0] + rng.normal(0, 0.015, 2))
        feature = "monastery" if kind == "monastery" else feature_edge(letter, rotation, kind, index)
        board.meeples.append(Meeple(colour, cell, feature, (float(point[0]), float(point[1]))))


def _field_point(letter: str, rotation: int, rng: np.random.Generator,
                 clearance: float = 0.0) -> tuple[float, float] | None:
    """A field pixel's centre on the tile (unit coordinates), drawn at random.

    `clearance` 0: any field pixel of the tile's middle (0.22-0.78), as the sets before round 21 were drawn.
    `clearance` > 0 (tiles): pixels whose centre lies that far from the tile's sides and from every city,
    road and monastery pixel's square of the 32 px label map: a player puts a farmer on the field with its
    whole base, on the tile just laid, not straddling a city wall or a road. Where no field pixel is that
    clear (the thin field of a three-sided city, of O and P), the clearest ones are drawn from: the farmer
    stands as far from the features and the tile's sides as that field allows.
    """
    labels = rotated_feature_map(letter, rotation, 32)
    if clearance <= 0:
        free = np.argwhere(labels[7:25, 7:25] == FIELD_LABEL) + 7
    else:
        free = np.argwhere(labels == FIELD_LABEL)
    if len(free) == 0:
        return None
    if clearance > 0:
        sides = np.minimum(free + 0.5, 31.5 - free).min(axis=1)
        gaps = np.minimum(feature_gaps(labels, free), sides)
        clear = gaps >= clearance * 32
        free = free[clear] if clear.any() else free[gaps >= gaps.max() - 1e-9]
    y, x = free[rng.integers(len(free))]
    return ((x + 0.5) / 32, (y + 0.5) / 32)


def feature_gaps(labels: np.ndarray, pixels: np.ndarray) -> np.ndarray:
    """For each (row, col) pixel, the distance (label-map px) from its centre to the nearest square of a
    pixel that is not field; infinite on a tile that is all field."""
    features = np.argwhere(labels != FIELD_LABEL)
    if len(features) == 0:
        return np.full(len(pixels), np.inf)
    offsets = np.maximum(np.abs(pixels[:, None, :] - features[None, :, :]).astype(np.float64) - 0.5, 0.0)
    return np.sqrt((offsets ** 2).sum(axis=2)).min(axis=1)
