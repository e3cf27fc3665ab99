"""The grids the dashboard asks the player to lay, as data, and how found outlines land in their cells.

A grid is rows of labels (None: leave the cell empty). Its occupied cells are never symmetric under
the turns the camera may add (the backs row is short and starts at the left; the tile grid has its
hole at the bottom right), so the photo's own orientation is read from which cells hold something.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from engine.cards import RANKS, SUITS
from vision.tiles.catalog import TILES

Grid = tuple[tuple[str | None, ...], ...]


def suit_row(suit: str) -> tuple[str, ...]:
    return tuple(f"{r}{suit}" for r in RANKS)


def backs_row(backs: int) -> tuple[str | None, ...]:
    return tuple(f"back{i}" for i in range(backs)) + (None,) * (len(RANKS) - backs)


def deck_grids(backs: int = 1) -> dict[str, Grid]:
    """`one`: the whole deck in one photo; `two-a` and `two-b`: two photos, the back(s) in both."""
    if not 1 <= backs <= 4:
        raise ValueError("lay one to four backs (one per deck)")
    b = backs_row(backs)
    return {
        "one": (*(suit_row(s) for s in SUITS), b),
        "two-a": (suit_row(SUITS[0]), suit_row(SUITS[1]), b),
        "two-b": (suit_row(SUITS[2]), suit_row(SUITS[3]), b),
    }


def tile_grid() -> Grid:
    """A..X row by row, five to a row, the bottom-right cell left empty."""
    cells: list[str | None] = [*TILES, None]
    return tuple(tuple(cells[i:i + 5]) for i in range(0, 25, 5))


def cells(grid: Grid) -> dict[tuple[int, int], str]:
    return {(r, c): label for r, row in enumerate(grid) for c, label in enumerate(row) if label is not None}


class GridError(LookupError):
    """The photo's outlines do not fit the grid; the message says what to fix."""


@dataclass
class Assignment:
    corners: dict[str, np.ndarray]  # label -> (4, 2), clockwise from the object's top-left as the grid stands
    missing: list[str]
    extra: int  # outlines that fell outside the grid
    expected: dict[str, np.ndarray] = field(default_factory=dict)  # missing label -> where its outline should be


def assign(quads: np.ndarray, grid: Grid, aspect: float, square: bool) -> Assignment:
    """Put each outline in a grid cell. `aspect` is the object's height over width (cards 88/63).

    Positions come from the plane homography that one outline implies, refined with all of them;
    among the turns allowed (half turns for cards, quarter turns for square tiles) the one whose
    occupied cells match the grid best wins.
    """
    if len(quads) < 4:
        raise GridError(f"only {len(quads)} outlines found; lay the objects apart on a plain cloth of another colour")
    want = cells(grid)
    centres = quads.mean(axis=1)
    ref = _reference(quads, centres)
    unit = np.array([[0, 0], [1, 0], [1, aspect], [0, aspect]], np.float32)
    h = cv2.getPerspectiveTransform(unit, quads[ref])  # object units -> image
    pos = _to_plane(np.linalg.inv(h), centres)
    size = np.array([1.0, aspect])
    pitch = np.array([_pitch(pos, 0, size), _pitch(pos, 1, size)])
    inv = np.linalg.inv(h)
    idx = np.round((pos - pos[ref]) / pitch).astype(int)
    for _ in range(2):  # refine: a homography from every cell to its centre
        hom, _ = cv2.findHomography((idx * pitch).astype(np.float32), centres.astype(np.float32), cv2.RANSAC,
                                    0.2 * float(pitch.min()) * _scale(h))
        if hom is None:
            break
        inv = np.linalg.inv(hom)
        idx = np.round(_to_plane(inv, centres) / pitch).astype(int)
    best = _best_turn(idx, want, square)
    if best is None:
        raise GridError("the outlines do not form the grid the dashboard shows; check that nothing touches "
                        "and that the short row (or the empty cell) is where it should be")
    turn, offset = best
    grid_idx = _turned(idx, turn) - offset
    out: dict[str, np.ndarray] = {}
    extra = 0
    for i, (x, y) in enumerate(grid_idx):
        label = want.get((int(y), int(x)))
        plane = _to_plane(inv, quads[i])
        if label is None or label in out or not _fits_cell(plane, idx[i] * pitch, size):
            extra += 1
            continue
        out[label] = _start_top_left(quads[i], plane, turn)
    missing = [label for label in want.values() if label not in out]
    to_image = np.linalg.inv(inv)
    expected = {}
    for (r, c), label in want.items():
        if label in missing:  # the cell's own index, back through the turn and offset found above
            cell = _turned(np.array([[c, r]]) + offset, -turn)[0] * pitch
            plane = np.array([cell + d * size / 2 for d in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
            quad = _to_plane(to_image, plane).astype(np.float32)
            expected[label] = _start_top_left(quad, plane, turn)
    return Assignment(out, missing, extra, expected)


def _fits_cell(plane: np.ndarray, centre: np.ndarray, size: np.ndarray) -> bool:
    """Whether an outline (in grid-plane units) has the object's size and sits on its cell (not a piece of it)."""
    sides = np.linalg.norm(plane - np.roll(plane, -1, axis=0), axis=1)
    short, long = sorted([(sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2])
    want_short, want_long = sorted(size.tolist())
    return (abs(short / want_short - 1) < 0.2 and abs(long / want_long - 1) < 0.2
            and float(np.linalg.norm(plane.mean(axis=0) - centre)) < 0.25 * want_short)


def _scale(h: np.ndarray) -> float:
    """Image pixels per object unit near the reference (for the RANSAC threshold)."""
    return float(np.sqrt(abs(np.linalg.det(h[:2, :2]))) / max(abs(h[2, 2]), 1e-9))


def _reference(quads: np.ndarray, centres: np.ndarray) -> int:
    """A typical outline near the middle: its homography errs least across the grid."""
    areas = np.array([abs(cv2.contourArea(q.astype(np.float32))) for q in quads])
    typical = np.abs(areas / np.median(areas) - 1) < 0.2
    d = np.linalg.norm(centres - np.median(centres, axis=0), axis=1)
    return int(np.argmin(np.where(typical, d, np.inf))) if typical.any() else int(np.argmin(d))


def _to_plane(inv: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), inv).reshape(-1, 2)


def _pitch(pos: np.ndarray, axis: int, size: np.ndarray) -> float:
    """The grid step along an axis: the median gap to the nearest neighbour in the same line."""
    other = 1 - axis
    steps = []
    for p in pos:
        d = pos - p
        same_line = np.abs(d[:, other]) < 0.5 * size[other]
        ahead = d[:, axis][same_line & (d[:, axis] > 0.5 * size[axis])]
        if len(ahead):
            steps.append(float(ahead.min()))
    return float(np.median(steps)) if steps else float(size[axis]) * 1.2


def _turned(idx: np.ndarray, turn: int) -> np.ndarray:
    """Cell indices (x, y) turned by `turn` quarter turns (image y down, so clockwise)."""
    x, y = idx[:, 0], idx[:, 1]  # integer cells or float points alike
    for _ in range(turn % 4):
        x, y = -y, x
    return np.stack([x, y], axis=1)


def _best_turn(idx: np.ndarray, want: dict[tuple[int, int], str], square: bool) -> tuple[int, np.ndarray] | None:
    """The turn and offset that put the most outlines on wanted cells (stray outlines only cost a miss)."""
    best: tuple[int, int, np.ndarray] | None = None
    for turn in (0, 1, 2, 3) if square else (0, 2):
        t = _turned(idx, turn)
        for offset in {tuple(p - np.array(cell)[::-1]) for p in t for cell in _corner_cells(want)}:
            shifted = t - np.array(offset)
            score = len({(int(y), int(x)) for x, y in shifted} & want.keys())
            if best is None or score > best[0]:
                best = (score, turn, np.array(offset))
    if best is None or best[0] < 0.75 * len(want):
        return None
    return best[1], best[2]


def _corner_cells(want: dict[tuple[int, int], str]) -> list[tuple[int, int]]:
    """The wanted cells an outline may be anchored to (every cell: grids are small)."""
    return list(want)


def _start_top_left(quad: np.ndarray, plane: np.ndarray, turn: int) -> np.ndarray:
    """Reorder a clockwise outline to start at its corner that is top-left in the grid's frame."""
    local = _turned(plane - plane.mean(axis=0), turn)
    start = int(np.argmin(local[:, 0] + local[:, 1]))
    return np.roll(np.asarray(quad, np.float32), -start, axis=0)
