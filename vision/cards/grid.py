"""The grid of a map of touching cards: the Superheld map lays its cards in rows and columns, edge to edge.

In such a mosaic the outline of one card is hard to see (its edges touch its neighbours', so a box or a blob
often spans two cards), but the grid is easy: the centres of the cards seen fix a homography from grid cells
to the image, and each cell's outline follows from it, truer than any one card's edges. A card read badly
through its own outline is read again through its cell's.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.geometry import CARD_H_MM, CARD_MM, CARD_W_MM, card_to_image, to_frame

GAP_MM = 0.75  # the gap between touching cards in a map (0 to 1.5 mm)
PITCH_MM = np.array([CARD_W_MM + GAP_MM, CARD_H_MM + GAP_MM], np.float32)
MIN_CARDS = 4  # a grid needs this many cards, in at least two rows and two columns
IN_CELL = 0.2  # of the pitch: how far from its cell's centre a card's centre may lie and still be in the grid
TURN_DEG = 10.0  # how far a card's sides may turn from the grid's and still be in it
STARTS = 5  # a grid is grown from each of this many of the most confident cards
WHOLE = 0.9  # until one holds this share of the cards
LEANS = 0.25  # of the pitch: a point this far off its cell's centre may be a card of the next cell
HOMOGRAPHY_CARDS = 8  # fewer cards in the grid fit an affine map
NEIGHBOURS = 8  # the cards nearest an unread one whose frames outline its cell
CELL_SIZE = 0.15  # how much larger a grid's cells may be than the cards in them (cards laid apart: a room; a map
# in steep perspective under a hand, its outlines tight: 0.11, seed 80996)
CELL_SMALLER = 0.15  # and how much smaller (the loose outlines of a map's tiny cards)
ACROSS_DEG = 30.0  # a card whose long side lies this near a grid row's direction is laid across the grid
OBLONG = 1.2  # long / short side of an outline whose long side tells how its card lies
ON_CELL = 0.15  # of the pitch: a card this near a cell's centre lies in that cell
JOIN_CELLS = 2  # cards of one map lie at most this many cells apart (a hole between them)
RINGS = tuple(range(1, 13))  # the grid grows from its first card one ring of cells at a time, this far
LATTICE_CARDS = 12  # a grid is read off the cards' centres alone (`lattice_grid`) from this many boxes
LATTICE_NEAR = (0.6, 1.8)  # of the median nearest-neighbour distance: the steps between neighbours' centres
LATTICE_DEG = 12.0  # how far a step may turn from the lattice's axis and still be a step along it


@dataclass(frozen=True)
class Grid:
    """Cell (i, j) of the grid is the card rectangle CARD_MM + (i, j) * PITCH_MM mapped by `homography`."""

    homography: np.ndarray  # grid mm -> image px
    cells: np.ndarray  # (N, 2) int: each card's cell, for the cards that lie in the grid
    members: np.ndarray  # (N,) bool

    def outline(self, cell: np.ndarray) -> np.ndarray:
        """Corners (4, 2) of a cell in the image, clockwise from the cell's top-left."""
        return self.outlines(np.asarray(cell).reshape(1, 2))[0]

    def outlines(self, cells: np.ndarray) -> np.ndarray:
        """Corners (M, 4, 2) of cells (M, 2)."""
        mm = CARD_MM[None] + (np.asarray(cells, np.float32).reshape(-1, 1, 2) * PITCH_MM)
        if not len(mm):  # OpenCV returns None for no points
            return np.zeros((0, 4, 2), np.float32)
        return cv2.perspectiveTransform(mm.reshape(1, -1, 2).astype(np.float32), self.homography).reshape(-1, 4, 2)

    def cells_under(self, point: np.ndarray) -> list[np.ndarray]:
        """The cells a card centred at `point` of the image may hold, next to a card of the grid: the nearest,
        and its neighbour on each side the point leans to by more than LEANS (an outline spanning two cards
        has its centre between them)."""
        rel = (to_frame(point, self.homography)[0] - CARD_MM[2] / 2) / PITCH_MM
        nearest = np.round(rel).astype(int)
        lean = rel - nearest
        cells = [nearest] + [nearest + np.eye(2, dtype=int)[axis] * int(np.sign(lean[axis]))
                             for axis in (0, 1) if abs(lean[axis]) > LEANS]
        held = self.cells[self.members]
        return [c for c in cells if (np.abs(held - c).max(axis=1) <= 1).any()]

    def flat(self, corners: np.ndarray) -> Grid:
        """The same cells mapped by an affine fit to their cards' centres (`corners`, the cards the grid was fitted
        to): a homography fitted to a few rows of cards tilts the rows it extrapolates, a flat map does not."""
        centres = np.asarray(corners, np.float32).reshape(-1, 4, 2).mean(axis=1)[self.members]
        h = _fit((self.cells[self.members] * PITCH_MM + CARD_MM[2] / 2).astype(np.float32), centres, affine=True)
        return self if h is None else Grid(h, self.cells, self.members)

    def holds(self, points: np.ndarray) -> np.ndarray:
        """(M,) bool: whether each point of the image is the centre of one of the map's own cards: within IN_CELL
        of a cell's centre, and joined to the grid's cards through cards at most JOIN_CELLS cells apart (as the
        grid itself grows, `_joined`), not a pile laid further off."""
        points = np.asarray(points, np.float32).reshape(-1, 2)
        if not len(points):
            return np.zeros(0, bool)
        mm = to_frame(points, self.homography)
        held = self.cells[self.members]
        cells = np.concatenate([held, _nearest_cell(mm)])
        start = np.arange(len(cells)) < len(held)  # the grid's cards, then the points
        return _joined(cells, start | np.r_[np.zeros(len(held), bool), _off_cell(mm) <= IN_CELL], start)[len(held):]

    def cells_of(self, points: np.ndarray) -> np.ndarray:
        """(N, 2) the cell nearest each point of the image."""
        return _nearest_cell(to_frame(points, self.homography))

    def empty_cells(self, taken: np.ndarray, ring: int = 1) -> np.ndarray:
        """(M, 2) cells within `ring` cells of the grid's bounds that hold none of the points `taken` (the
        centres of the cards found): where a card the detector missed may lie."""
        held = self.cells[self.members]
        lo, hi = held.min(axis=0) - ring, held.max(axis=0) + ring
        ii, jj = np.meshgrid(np.arange(lo[0], hi[0] + 1), np.arange(lo[1], hi[1] + 1), indexing="ij")
        cells = np.stack([ii.ravel(), jj.ravel()], axis=1)
        if len(taken):
            full = {tuple(c) for c in self.cells_of(taken)}
            cells = np.array([c for c in cells if tuple(c) not in full], int).reshape(-1, 2)
        return cells


def on_cells(outlines_mm: np.ndarray, within: float = ON_CELL) -> np.ndarray:
    """Outlines (N, 4, 2) in the grid's mm, each card whose centre lies `within` a cell's centre (in pitches)
    put on that cell, unless it clearly lies across the grid (an oblong outline, its long side within
    ACROSS_DEG of the grid's rows): in a mosaic a card's own outline is often a few mm off, or turned; its
    cell is not."""
    q = np.asarray(outlines_mm, np.float64).reshape(-1, 4, 2)
    centres = q.mean(axis=1)
    sides = np.stack([q[:, 1] - q[:, 0], q[:, 3] - q[:, 0]], axis=1)
    lengths = np.linalg.norm(sides, axis=2)
    long_side = sides[np.arange(len(q)), lengths.argmax(axis=1)]
    oblong = lengths.max(axis=1) >= OBLONG * lengths.min(axis=1)  # a squarish outline has no telling long side
    across = oblong & (np.abs(long_side[:, 1]) < np.tan(np.radians(ACROSS_DEG)) * np.abs(long_side[:, 0]))
    near = ~across & (_off_cell(centres) <= within)
    out = q.copy()
    out[near] = CARD_MM[None] + (_nearest_cell(centres[near]) * PITCH_MM)[:, None, :]
    return out


def cells_beside(quad: np.ndarray, cards: np.ndarray) -> list[np.ndarray]:
    """The outline of the cell around `quad`'s centre in the frame of each of the NEIGHBOURS nearest cards,
    stepped by whole cards: nearer cards see the cell without the whole map's fit, and one of them usually
    outlines it best."""
    centre = np.asarray(quad, np.float32).mean(axis=0)
    places = []
    for k in np.argsort(np.linalg.norm(cards.mean(axis=1) - centre, axis=1))[:NEIGHBOURS]:
        h = card_to_image(cards[k])
        step = _nearest_cell(to_frame(centre, h))[0] * PITCH_MM
        places.append(cv2.perspectiveTransform((CARD_MM + step)[None].astype(np.float32), h)[0])
    return places


def _nearest_cell(mm: np.ndarray) -> np.ndarray:
    return np.round((mm - CARD_MM[2] / 2) / PITCH_MM).astype(int)


def _off_cell(mm: np.ndarray) -> np.ndarray:
    """How far each point lies from the centre of its nearest cell, in pitches (the larger of x and y)."""
    cells = _nearest_cell(mm)
    return np.abs((mm - CARD_MM[2] / 2) / PITCH_MM - cells).max(axis=1)


def turn_deg(corners: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """How far each card's long side turns from the reference card's, modulo 180 degrees."""
    def angle(q: np.ndarray) -> np.ndarray:
        v = q[..., 3, :] - q[..., 0, :]
        return np.degrees(np.arctan2(v[..., 1], v[..., 0]))
    d = np.abs(angle(corners) - angle(ref)) % 180.0
    return np.minimum(d, 180.0 - d)


def _fit(src: np.ndarray, dst: np.ndarray, affine: bool = False) -> np.ndarray | None:
    """Grid mm -> image by least squares (the cards fitted lie near their cells): an affine map from a few
    cards (a homography from four cards, three in a row, is degenerate) or where `affine`, a homography from more."""
    if len(src) >= HOMOGRAPHY_CARDS and not affine:
        h, _ = cv2.findHomography(src, dst)
    else:
        a = np.linalg.lstsq(np.hstack([src, np.ones((len(src), 1), np.float32)]), dst, rcond=None)[0]
        h = np.vstack([a.T, [0.0, 0.0, 1.0]])
    if h is None or not np.isfinite(h).all() or np.linalg.cond(h) > 1e12:
        return None
    return h


def map_grid(corners: np.ndarray, confidence: np.ndarray) -> Grid | None:
    """The grid the cards lie in, or None when too few of them form one (a Scoundrel table, a lone card). It is
    grown from each of the STARTS most confident cards in turn (one of them may have a wrong outline) until
    one holds nearly all the cards; the grid holding the most is kept."""
    corners = np.asarray(corners, np.float32).reshape(-1, 4, 2)
    if len(corners) < MIN_CARDS:
        return None
    best: Grid | None = None
    for k in np.argsort(-np.asarray(confidence))[:STARTS]:
        grid = _grown_from(corners, int(k))
        if grid is not None and (best is None or grid.members.sum() > best.members.sum()):
            best = grid
        if best is not None and best.members.sum() >= WHOLE * len(corners):
            break
    return best


def _grown_from(corners: np.ndarray, first: int) -> Grid | None:
    """The grid started at one card's frame and grown ring by ring, fitted again each time from the cards that
    lie in it (one card's frame, stretched across a map seen in perspective, misplaces the far cells)."""
    centres = corners.mean(axis=1)
    homography = card_to_image(corners[first])
    aligned = turn_deg(corners, corners[first]) <= TURN_DEG
    fitted = None
    for ring in RINGS:
        mm = to_frame(centres, homography)
        cells = _nearest_cell(mm)
        near = np.abs(cells).max(axis=1) <= ring
        members = _joined(cells, aligned & near & (_off_cell(mm) <= IN_CELL), np.arange(len(cells)) == first)
        if members.sum() >= MIN_CARDS and len(set(cells[members, 0])) > 1 and len(set(cells[members, 1])) > 1:
            h = _fit((cells[members] * PITCH_MM + CARD_MM[2] / 2).astype(np.float32), centres[members])
            if h is not None:
                homography = fitted = h
        if near.all():
            break
    if fitted is None:
        return None
    mm = to_frame(centres, fitted)
    cells = _nearest_cell(mm)
    grid = Grid(fitted, cells, _joined(cells, aligned & (_off_cell(mm) <= IN_CELL), np.arange(len(cells)) == first))
    return grid if _cards_fill_cells(grid, corners) else None


def _joined(cells: np.ndarray, candidates: np.ndarray, start: np.ndarray) -> np.ndarray:
    """The candidates whose cells join the `start` cards' (a mask; those that are candidates) through other
    candidates' cells, JOIN_CELLS apart at most (a map is laid edge to edge; a card missed or read through a
    wrong outline leaves a hole), while cards laid apart fit a grid of touching cards only here and there
    (every fourth card of a map laid 16 mm apart falls near a line of it)."""
    joined = start & candidates
    near = np.abs(cells[:, None, 0] - cells[None, :, 0]) <= JOIN_CELLS  # each axis apart: a third of the time
    near &= np.abs(cells[:, None, 1] - cells[None, :, 1]) <= JOIN_CELLS
    near &= candidates[:, None] & candidates[None, :]
    while True:  # grow by one step of neighbours at a time, as far as the map reaches
        grown = joined | near[joined].any(axis=0)
        if (grown == joined).all():
            return joined
        joined = grown


def _cards_fill_cells(grid: Grid, corners: np.ndarray) -> bool:
    """Whether the cells are the size of the cards in them: cards laid apart in a row (a Scoundrel room) also
    fit a grid, one stretched to their spacing."""
    def sides(q: np.ndarray) -> np.ndarray:
        return np.linalg.norm(q - np.roll(q, -1, axis=-2), axis=-1)
    cells = grid.outlines(grid.cells[grid.members])
    ratio = np.median(sides(cells), axis=0) / np.median(sides(corners[grid.members]), axis=0)
    return bool(((ratio - 1.0 <= CELL_SIZE) & (1.0 - ratio <= CELL_SMALLER)).all())


def lattice_grid(corners: np.ndarray, centres: np.ndarray) -> Grid | None:
    """The grid of a map read off the centres of all its boxes (`centres`: the cards of `corners` first, then the
    unread ones) where no card's outline gives it a frame: the steps between neighbouring centres run along two
    axes, the shorter step a card's width; cells are counted along them from the most crowded centre and the
    homography fitted to them, twice. A map of 36 px cards turned 45 degrees (fresh seed 58213 scene 8) had
    outlines turned 10-20 degrees from each other, so `map_grid` fitted none, and 24 of its 47 cards were lost.
    The grid's cells and members are those of `corners`."""
    centres = np.asarray(centres, np.float32).reshape(-1, 2)
    if len(centres) < LATTICE_CARDS or not len(corners):
        return None
    steps_px = centres[None, :, :] - centres[:, None, :]
    dist = np.linalg.norm(steps_px, axis=2)
    np.fill_diagonal(dist, np.inf)
    unit = float(np.median(dist.min(axis=1)))  # the median distance to a nearest neighbour
    axes = _lattice_axes(steps_px, dist, unit)
    if axes is None:
        return None
    first = int(np.argmax((dist <= 2.0 * unit).sum(axis=1)))  # the most crowded centre
    steps = np.linalg.solve(np.array(axes, np.float64).T, (centres - centres[first]).T).T
    cells = np.round(steps).astype(int)
    homography = None
    for _ in range(2):
        h = _fit((cells * PITCH_MM + CARD_MM[2] / 2).astype(np.float32), centres)
        if h is None:
            return None
        homography = h
        cells = _nearest_cell(to_frame(centres, homography))
    mm = to_frame(np.asarray(corners, np.float32).reshape(-1, 4, 2).mean(axis=1), homography)
    grid = Grid(homography, _nearest_cell(mm), _off_cell(mm) <= IN_CELL)
    if grid.members.sum() < MIN_CARDS or not _cards_fill_cells(grid, np.asarray(corners, np.float32)):
        return None
    return grid


def _lattice_axes(steps: np.ndarray, dist: np.ndarray, unit: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The two steps (px) between neighbouring centres, a card's width first, clockwise as a card's sides; from the
    steps between every two centres, their lengths and the median distance to a nearest neighbour (`unit`)."""
    near = (dist >= LATTICE_NEAR[0] * unit) & (dist <= LATTICE_NEAR[1] * unit)
    vectors = steps[near]
    if len(vectors) < 2 * LATTICE_CARDS:
        return None
    angles = np.degrees(np.arctan2(vectors[:, 1], vectors[:, 0])) % 180.0
    counts = np.array([np.sum(np.abs((angles - a + 90.0) % 180.0 - 90.0) <= LATTICE_DEG) for a in range(180)])
    first = float(np.argmax(counts))
    axes = []
    for a in (first, (first + 90.0) % 180.0):
        along = np.abs((angles - a + 90.0) % 180.0 - 90.0) <= LATTICE_DEG
        if along.sum() < LATTICE_CARDS // 2:
            return None
        v = vectors[along]
        v = np.where((v @ [np.cos(np.radians(a)), np.sin(np.radians(a))] < 0)[:, None], -v, v)  # one way along
        axes.append(np.median(v, axis=0))
    width, height = sorted(axes, key=lambda v: float(np.linalg.norm(v)))
    if width[0] * height[1] - width[1] * height[0] < 0:  # as a card's first and last sides run: clockwise
        height = -height
    return width, height
