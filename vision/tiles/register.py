"""Where a laid tile really lies in its grid cell: its paint matched to its reading's catalog geometry.

The grid is one homography for the whole board, but players lay tiles a little apart and askew (a gap of up to
0.04 tile, a shift of 0.02 in the synthetic sets), so a point's place in its cell is not its place on the tile.
That matters where a figure stands: a farmer's foot a hundredth of a tile beside a city wall or a road. On the
tuning sets a meeple's foot lay a median 0.030 tile from its true place on its tile, 0.023 after this (`tile_shift`).
It matters for reading too where a tile at a small board's rim lies a tenth of a tile or more off its cell
(`rim_shifts`).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from vision.tiles.board import Cell
from vision.tiles.geometry import peak_offset, percentile_lerp
from vision.tiles.matcher import truth_masks
from vision.tiles.reader import PATCH

REACH = 3  # board px (PATCH per tile) a tile is looked for off its cell, each way: 0.06 tile
# share of the cell's pixels one px of shift must win to be taken: a road running on across the cell's side
# agrees equally well one px along it, and a tile of field and nothing else agrees everywhere
SHIFT_COST = 0.003
RIM_REACH = 10  # board px (PATCH per tile, about 0.2 tile) a rim tile's side is looked for either side of its cell's
RIM_SPAN = (0.2, 0.8)  # the part of a side read (clear of the corners, where a neighbour's tile or a gap may lie)
RIM_RUN = 3  # px of tile in a row, from the table inwards, where a column finds the tile's side
RIM_AGREE = 0.6  # share of a side's columns that must find it
RIM_SPREAD = 2.0  # px: the most those columns' finds may spread (their interquartile range)
# px (0.1 tile): a shift along an axis smaller than this is left. The reader's windows allow for tiles a little off
# their cells, as its settings were tuned. At 3 px the rim tiles of 72-tile boards, whose grid many tiles fit, moved
# 3-4 px (mostly inwards from the side that shows) and the nine tuning sets read 14 tiles worse and 12 better (72-tile
# boards 11 worse, 5 better), while the small boards' misread tiles lay 5-7 px off; a farmer by a field edge was read
# as a road after a 2 px move (tune-small2 162)
RIM_LEAST = 5
OUTWARD = ((0, -1), (1, 0), (0, 1), (-1, 0))  # a cell's sides N E S W as unit steps (dx, dy) to the cell beyond


@cache
def _template(letter: str, rotation: int) -> np.ndarray:
    return truth_masks(letter, rotation)[0].astype(np.float32)


def tile_shift(not_field: np.ndarray, hidden: np.ndarray, letter: str, rotation: int, origin: tuple[int, int]
               ) -> tuple[float, float]:
    """(dx, dy) board px from the cell at `origin` (its top-left board px) to where the tile's features lie.

    The shift is the one at which the board's not-field mask agrees best with the catalog's (pixels a figure
    hides do not count), refined between pixels by a parabola; (0, 0) for a cell whose window leaves the board.
    """
    ox, oy = origin
    height, width = not_field.shape
    if ox < REACH or oy < REACH or ox + PATCH + REACH > width or oy + PATCH + REACH > height:
        return (0.0, 0.0)
    window = (slice(oy - REACH, oy + PATCH + REACH), slice(ox - REACH, ox + PATCH + REACH))
    valid = (~hidden[window]).astype(np.float32)
    seen = not_field[window].astype(np.float32) * valid
    template = _template(letter, rotation)
    ones = np.ones_like(template)

    def correlate(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
        return np.rint(cv2.matchTemplate(image, kernel, cv2.TM_CCORR))  # counts of pixels, whole numbers

    # disagreeing pixels per shift: seen but not in the template, plus in the template but not seen
    wrong = correlate(seen, ones) - 2 * correlate(seen, template) + correlate(valid, template)
    agree = 1 - wrong / np.maximum(correlate(valid, ones), 1)
    off = np.abs(np.arange(2 * REACH + 1) - REACH)
    iy, ix = np.unravel_index(int(np.argmax(agree - SHIFT_COST * (off[:, None] + off[None, :]))), agree.shape)
    dx = ix - REACH + (float(peak_offset(*agree[iy, ix - 1:ix + 2])) if 0 < ix < 2 * REACH else 0.0)
    dy = iy - REACH + (float(peak_offset(*agree[iy - 1:iy + 2, ix])) if 0 < iy < 2 * REACH else 0.0)
    return (float(dx), float(dy))


def rim_shifts(unlike_table: np.ndarray, seen: np.ndarray, cells: list[Cell], x0: int, y0: int,
               skip: frozenset[Cell] = frozenset()) -> dict[Cell, tuple[int, int]]:
    """(dx, dy) board px from each cell (board px origin of cell (i, j): ((i - x0) PATCH, (j - y0) PATCH)) to where
    its tile lies, as the sides of it that face no laid tile show it against the table; (0, 0) where none does.

    The grid is one homography for the whole board; on a small board a tile at its rim may lie 0.15 tile off its
    cell (tiles laid apart and askew, a perspective fitted to few tiles), and the table then fills its cell's edge
    strip, which reads as city (not field): a road's edge read as a city's, a field's as a road's. A side the tile
    shows against the table is found column by column (the first run of `RIM_RUN` px unlike the table, from the
    table inwards, after table); a side the picture cuts, a figure or a city coloured like the table spoils, finds no
    clear side and moves nothing; nor is a cell in `skip` moved (an arm's rim by it is no side). Every side of the
    board is measured at once (a 72-tile board has some eighty: one at a time took 40 ms here).
    """
    laid = set(cells)
    sides = [((i, j), sx, sy) for i, j in cells if (i, j) not in skip for sx, sy in OUTWARD
             if (i + sx, j + sy) not in laid]
    strips = [_side_strip(unlike_table, seen, (i - x0) * PATCH, (j - y0) * PATCH, sx, sy) for (i, j), sx, sy in sides]
    kept = [k for k, s in enumerate(strips) if s is not None]
    if not kept:
        return {}
    offsets = _side_offsets(np.stack([strips[k][0] for k in kept]), np.stack([strips[k][1] for k in kept]))
    moves: dict[Cell, tuple[list[float], list[float]]] = {}
    for k, offset in zip(kept, offsets, strict=True):
        cell, sx, sy = sides[k]
        if not np.isnan(offset):
            moves.setdefault(cell, ([], []))[0 if sx else 1].append(float(offset) * (sx or sy))
    out: dict[Cell, tuple[int, int]] = {}
    for cell, along in moves.items():
        shift = tuple(int(round(float(np.mean(m)))) if m else 0 for m in along)
        shift = tuple(d if abs(d) >= RIM_LEAST else 0 for d in shift)
        if shift != (0, 0):
            out[cell] = (shift[0], shift[1])
    return out


def _side_strip(unlike_table: np.ndarray, seen: np.ndarray, ox: int, oy: int, sx: int, sy: int
                ) -> tuple[np.ndarray, np.ndarray] | None:
    """The band across a cell's side facing (sx, sy), unlike the table and seen: (2 RIM_REACH rows from the outermost
    inwards, the side's middle span as columns); None where it leaves the board."""
    a, b = (int(round(v * PATCH)) for v in RIM_SPAN)
    r = RIM_REACH
    if sy:
        at = oy + (PATCH if sy > 0 else 0)
        rows, cols = slice(at - r, at + r), slice(ox + a, ox + b)
    else:
        at = ox + (PATCH if sx > 0 else 0)
        rows, cols = slice(oy + a, oy + b), slice(at - r, at + r)
    if rows.start < 0 or cols.start < 0 or rows.stop > seen.shape[0] or cols.stop > seen.shape[1]:
        return None
    strip, shown = unlike_table[rows, cols], seen[rows, cols]
    if not sy:
        strip, shown = strip.T, shown.T
    if sx > 0 or sy > 0:
        strip, shown = strip[::-1], shown[::-1]  # index 0 the outermost row, as the table lies beyond
    return strip, shown


def _side_offsets(strip: np.ndarray, shown: np.ndarray) -> np.ndarray:
    """(sides,) how far (px, outwards positive) each tile's side lies beyond its cell's (`_side_strip`s stacked:
    (sides, rows, columns)), NaN where the side shows no clear line."""
    n, depth, width = strip.shape
    tile = strip & shown
    # runs of RIM_RUN tile px from each row inwards; a column finds the side where its first run begins right after
    # table it shows (beyond the picture's frame, or where a figure stands over the side, it does not)
    run = np.ones((n, depth - RIM_RUN + 1, width), bool)
    for k in range(RIM_RUN):
        run &= tile[:, k:k + run.shape[1]]
    first = np.argmax(run, axis=1)  # (sides, columns)
    table = shown & ~strip
    before = np.take_along_axis(table, np.maximum(first - 1, 0)[:, None, :], axis=1)[:, 0]
    found = run.any(axis=1) & (first > 0) & before
    count = found.sum(axis=1)
    ordered = np.sort(np.where(found, first, np.iinfo(np.int64).max), axis=1).astype(np.float64)
    low, middle, high = (_quantile(ordered, count, q) for q in (0.25, 0.5, 0.75))
    clear = (count >= RIM_AGREE * width) & (high - low <= RIM_SPREAD)
    return np.where(clear, RIM_REACH - middle, np.nan)


def _quantile(ordered: np.ndarray, count: np.ndarray, q: float) -> np.ndarray:
    """Per row, the q-quantile of its first `count` values (sorted ascending), as `np.percentile`'s linear method
    gives it; NaN where a row has none."""
    virtual = np.maximum(count - 1, 0) * q
    below = np.floor(virtual).astype(np.intp)
    above = np.minimum(below + 1, np.maximum(count - 1, 0))
    rows = np.arange(len(ordered))
    value = percentile_lerp(ordered[rows, below], ordered[rows, above], virtual - below)
    return np.where(count > 0, value, np.nan)
