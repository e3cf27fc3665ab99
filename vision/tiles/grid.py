"""Finds the grid of laid tiles: which cells hold a tile and where each tile's corners are in the image.

The board lies on a plane, so every tile edge belongs to one of two families of lines, each meeting
at a vanishing point. Those two points undo the perspective (up to a scale per axis); in the
rectified board the tile boundaries repeat with one pitch per axis, found by a comb search on the
edge profile. One homography then maps any cell back to the image.

Its steps, one module each: `board_mask` (what is unlike the table, and arms over it), `lone_tile` (a board that
is one convex outline: a lone tile, a compact block, a strip), `combs` (vanishing points and the pitch),
`outline_fit` (the homography the outline fits). This module holds the order they run in and the checks for a grid at
a multiple or a fraction of the tiles' pitch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from vision.table import border_mask
from vision.tiles.board_mask import _board_mask, _close_channels, _fill_holes, _hands, pixels
from vision.tiles.catalog import GAME_TILES
from vision.tiles.combs import _best_comb, _comb_fits, _rectifiers
from vision.tiles.lone_tile import (
    SQUARISH,
    STRIP_MOST,
    _inner_borders,
    _single_tile,
    _strip_tiles,
    block_counts,
    strip_counts,
)
from vision.tiles.outline_fit import (
    REFIT_SHARE,
    SLOP,
    _cell_area,
    _Fit,
    _fit_outline,
    _grown_best,
    _normalised,
    _outline_points,
)

Cell = tuple[int, int]
WORK_SIDE = 800  # longest side the grid is searched at
COARSER_RATIO = 0.5  # edge strength on a finer comb's extra lines against its kept ones, at most
COARSER_FIT = 0.8  # the coarser grid's outline fit against the finer one's, at least
# or: inner lines weaker than this against the kept ones, and the outline fits the coarser grid clearly better
COARSER_LOOSE_RATIO = 0.9
COARSER_BETTER = 1.2
# or: this share of the occupied cells lies in whole 2 x 2 blocks (each tile seen as four cells; roads along
# tile middles show the finer comb's extra lines as much edge as borders) and the outline fits at COARSER_FIT
WHOLE_BLOCKS = 0.8
WHOLE_BLOCKS_CELLS = 16  # fewest occupied cells the block test reads (four tiles seen at half pitch)
# share of the straight outline beyond chance on the lines midway between a grid's own above which the grid is at
# twice the tiles' pitch (true grids: at most 0.03 on the tuning sets; doubled 8-tile boards 0.11-0.18)
FINER_EXTRA = 0.08
# share of the straight outline beyond chance on the lines a grid refitted at a third of the pitch adds above which
# that grid is taken (true grids: at most 0.09 on the tuning sets; a pastel 8-tile board read at 3 x: 0.20)
THIRD_EXTRA = 0.14
FINER = 0.6  # cell area against the best grid so far under which a grid searched again counts as finer
# cells of the combs' grid (and of the grids it offers) at most, for it to be another reading of a squarish outline
# read as one tile or as a compact block, or of a strip
SPLIT_MOST = 9
HALVED_MOST = 4  # cells of a grid the combs find at most, for the grid at half its pitch to be another reading
# candidate cells, as a share of a game's tiles, beyond which the combs' grid is at a fraction of the pitch and each
# pitch they guessed is another reading (session 44: true 72-tile tuning boards' candidates, phantom ring cells with
# them, reach 95 of 785 boards; the small tuning sets' combs at a fraction of the pitch hold 127-269)
MANY_CELLS = 1.5
# cells of a grid the combs find at most, for the grid at twice its pitch to be looked for before the reading (a small
# board's combs at half the pitch: twelve tiles seen as four cells each); beyond it, up to MANY_CELLS times a game's
# tiles, the grids at twice and four times its pitch only after it (`Grid.late`)
COARSE_MOST = 48
# times the pitch across and down of the grids a small grid's combs offer besides twice it (`_stretched`)
STRETCHES = ((2, 3), (3, 2), (3, 3))


Found = tuple[np.ndarray, list[Cell]]  # a grid (working px -> board units) and its occupied cells


@dataclass
class Grid:
    """`to_board` maps image px to board units: cell (i, j) spans [i, i+1] x [j, j+1]."""

    to_board: np.ndarray
    cells: list[Cell]  # cells that may hold a tile (mostly unlike the table); the reader confirms them
    table_lab: np.ndarray  # the table's colour, for the caller's own masks
    table_cut: float = 12.0  # table_distance beyond which a pixel is unlike the table
    under_arm: frozenset[Cell] = frozenset()  # cells whose middle an arm mostly covers: no tile is read there
    by_arm: frozenset[Cell] = frozenset()  # cells an arm, its rim or shadow touches at all: read from what is left
    # what finds the other grids the picture allows (a squarish outline split into a few tiles, a strip counted
    # otherwise, a small grid at half its pitch, a grid at twice its pitch, the combs' other pitches where a grid
    # holds far more cells than a game's tiles): the reading may take one instead (`pipeline._read_as`: whose cells
    # read more like the catalog's tiles); None where the picture allows no other. Found only when asked: most
    # grids' own cells read as tiles (`pipeline.OWN_SURE`)
    offers: Callable[[], tuple[Grid, ...]] | None = field(default=None, repr=False, compare=False)
    # an offered grid the reading takes only where its own cells read as tiles (`pipeline.OWN_SURE`): a block two
    # tiles wide offered for a strip's outline (a strip the picture cuts reads unsurely through any grid, and a
    # block's cells across it read no worse: `tune-small4.yaml` 153)
    only_sure: bool = False

    @property
    def late(self) -> bool:
        """Whether the others are looked for only after the grid's own reading, where that reads unlike tiles: a grid
        of COARSE_MOST to MANY_CELLS times a game's tiles cells, most often a true board, whose own cells read once
        more would cost a 72-tile board 25-50 ms (`pipeline.predict`)."""
        return self.offers is not None and COARSE_MOST < len(self.cells) <= MANY_CELLS * GAME_TILES

    @cached_property
    def others(self) -> tuple[Grid, ...]:
        """The other grids the picture allows (`offers`), found once."""
        return () if self.offers is None else self.offers()

    def corners(self, cell: Cell) -> np.ndarray:
        """TL TR BR BL of a cell in image px."""
        i, j = cell
        square = np.array([[[i, j], [i + 1, j], [i + 1, j + 1], [i, j + 1]]], np.float64)
        return cv2.perspectiveTransform(square, np.linalg.inv(self.to_board))[0]


@dataclass(eq=False)
class _Seen:
    """The board as the comb search sees it, with the outline and rectifications each grid it tries reads (traced
    once, when first asked for: a lone tile or a strip may never need them)."""

    grey: np.ndarray
    board_mask: np.ndarray
    raw_mask: np.ndarray
    arm: np.ndarray | None

    @cached_property
    def outline(self) -> np.ndarray:
        return _outline_points(self.board_mask, self.arm)

    @cached_property
    def rects(self) -> list[np.ndarray]:
        return _rectifiers(self.grey, self.board_mask, self.arm)


def find_grid(image: np.ndarray) -> Grid | None:
    """The board's grid, or None when no tile-like region is found."""
    scale = min(1.0, WORK_SIDE / max(image.shape[:2]))
    work = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image
    lab = cv2.cvtColor(work, cv2.COLOR_BGR2LAB)
    raw_mask, table_lab, table_cut = _board_mask(lab)
    skin = _hands(work, raw_mask, lab)
    hand = cv2.dilate(skin.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0 if skin.any() else skin  # and its rim
    raw_mask &= ~hand
    # where an arm (or its shadow) cuts the board, the outline follows the arm, not the grid: no evidence there
    arm = cv2.dilate(hand.astype(np.uint8), np.ones((31, 31), np.uint8)) > 0 if hand.any() else None
    open_mask = raw_mask  # the table still shows in gaps between tiles laid apart (`_strip_tiles`)
    raw_mask = _close_channels(raw_mask)
    board_mask = _fill_holes(raw_mask)
    if board_mask.sum() < 100:
        return None
    grey = cv2.GaussianBlur(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY), (0, 0), 1.0)
    seen = _Seen(grey, board_mask, raw_mask, arm)

    def grid_of(found: Found, others: Callable[[], list[Found]] | None = None,
                sure_others: Callable[[], list[Found]] | None = None, only_sure: bool = False) -> Grid:
        """A grid (working px -> board units, its cells) in picture px, with what finds the others the reading may
        take (None: no other) and those it takes only where their cells read as tiles (`sure_others`)."""
        to_board, cells = found

        def offers() -> tuple[Grid, ...]:
            sure = [] if sure_others is None else sure_others()
            return (*(grid_of(o) for o in others() if o[1]), *(grid_of(o, only_sure=True) for o in sure if o[1]))

        return Grid(to_board @ np.diag([scale, scale, 1.0]), cells, table_lab, table_cut, _under_arm(skin, to_board),
                    _touched(arm, to_board), None if others is None else offers, only_sure)

    quad = _single_tile(board_mask, STRIP_MOST)
    if quad is not None:
        unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
        to_unit = cv2.getPerspectiveTransform(quad.astype(np.float32), unit)
        sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
        aspect = float((sides[0] + sides[2]) / (sides[1] + sides[3]))
        # a compact board fills a squarish outline too: tile borders inside it tell the two apart; a long
        # outline is a strip of tiles one tile wide
        squarish = max(aspect, 1 / aspect) <= SQUARISH
        nx, ny = _inner_borders(grey, to_unit) if squarish else _strip_tiles(grey, to_unit, aspect, open_mask)
        outline = _outline_points(board_mask)

        def counted(n: tuple[int, int]) -> tuple[np.ndarray, list[Cell]]:
            to_board, _ = _fit_outline(np.diag([n[0], n[1], 1.0]) @ to_unit, outline)
            return to_board, [(0, 0)] if n == (1, 1) else _occupied(raw_mask, to_board)

        to_board, cells = counted((nx, ny))
        if cells:

            def split() -> list[tuple[np.ndarray, list[Cell]]]:
                # a few tiles in strong perspective can look as squarish as one, their seams no stronger than a
                # tile's art, and an L of three tiles fills its hull nearly as a notched tile does (or a strip's):
                # the combs' grid and the others it offers, where they hold a few cells
                searched = _searched(seen)
                if searched is None:
                    return []
                offered = _offered(seen, *searched)
                return [g for g in (searched, *offered) if 2 <= len(g[1]) <= SPLIT_MOST]

            def recounted() -> list[tuple[np.ndarray, list[Cell]]]:
                # a strip's seams and gaps may mislead its count (roads along tiles' middles, a gap inside a tile)
                counts = [counted((n, 1) if nx > 1 else (1, n)) for n in strip_counts(aspect) if n != max(nx, ny)]
                return counts + split()

            def blocks() -> list[Found]:
                # a block two tiles wide in perspective may be as long for its width as a strip
                return [counted((n, m) if nx > 1 else (m, n)) for m, n in block_counts(aspect, SPLIT_MOST)]

            if squarish:
                return grid_of((to_board, cells), split)
            return grid_of((to_board, cells), recounted, sure_others=blocks)
    searched = _searched(seen)
    if searched is None:
        return None
    return grid_of(searched, lambda: _offered(seen, *searched), lambda: _stretched(seen, *searched))


def _searched(seen: _Seen) -> tuple[np.ndarray, list[Cell]] | None:
    """The grid the combs find (working px -> board units) and its occupied cells, checked for a multiple or a
    fraction of the tiles' pitch; None where no comb fits or no cell is occupied."""
    grey, board_mask, raw_mask, arm, outline, rects = (seen.grey, seen.board_mask, seen.raw_mask, seen.arm,
                                                       seen.outline, seen.rects)
    found = _best_comb(grey, board_mask, rects[0], arm, outline)
    if found is None:
        return None
    if found[1] < REFIT_SHARE:
        # vanishing points led astray (tile sides vary by a tenth across the canvas, no comb fits): the fitted
        # grid, right where the outline fits it, or the board with a family of lines taken as parallel may
        # rectify it better; the pitch is searched again on each, and the grid the outline fits best kept
        # (parallel families mend the perspective, not the pitch: a grid they give finer than the best so far
        # must fit the outline well; the first fit's own search may go finer, as it always could); these searches
        # also try the best guess's pitch on both axes (tiles are square: `_square_combs`)
        centre = outline.mean(axis=0) if len(outline) else np.zeros(2)
        tried = [found]
        for k, rect in enumerate((found[0], *rects[1:])):
            again = _best_comb(grey, board_mask, rect, arm, outline, square=True)
            if again is None:
                continue
            tried.append(again)
            if again[2] <= found[2]:
                continue
            if k == 0 or again[1] >= REFIT_SHARE or _cell_area(again[0], centre) > FINER * _cell_area(found[0], centre):
                found = again
        if found[1] < REFIT_SHARE:
            found = _grown_best(tried, outline, centre, found)
    to_board, share, _ = found
    finer = _extra_lines(to_board, outline, 2) >= FINER_EXTRA
    if finer:
        # the outline fit judges a grid within SLOP of its own cell, so one at twice the tiles' pitch takes tiles
        # laid a little apart or askew in its stride and can fit about as well; the sides it leaves midway
        # between its lines tell it
        to_board, share = _fit_outline(np.diag([2.0, 2.0, 1.0]) @ to_board, outline)
    else:
        third = _third(to_board, outline)
        if third is not None and not _borders_apart(grey, raw_mask, third[0]):
            (to_board, share), finer = third, True
    cells = _occupied(raw_mask, to_board)
    coarser = None if finer else _coarser(grey, cells, to_board)
    taken = finer
    if coarser is not None:
        ratio, coarse = coarser
        coarse, coarse_share = _fit_outline(coarse, outline)
        # inside, only every 2nd or 3rd line is a border, and the outline still mostly fits: a coarser grid;
        # painted art (field edges, roads) gives the finer comb's extra lines some edge, but then the outline
        # itself fits the coarser grid better (a true grid's outline never does, by far)
        if (ratio < COARSER_RATIO and coarse_share >= COARSER_FIT * share) or (
                ratio < COARSER_LOOSE_RATIO and coarse_share >= COARSER_BETTER * share):
            to_board, taken = coarse, True
            cells = _occupied(raw_mask, to_board)
    for _ in range(0 if taken else 2):  # a grid at a quarter of the pitch sees each tile as 4 x 4 cells
        halved = _whole_blocks(cells, to_board)
        if halved is None:
            break
        halved, halved_share = _fit_outline(halved, outline)
        if halved_share < COARSER_FIT * share:
            break
        to_board = halved
        cells = _occupied(raw_mask, to_board)
    return (to_board, cells) if cells else None


def _offered(seen: _Seen, to_board: np.ndarray, cells: list[Cell]) -> list[Found]:
    """The other grids (working px -> board units, with their occupied cells) the reading may take for the combs'
    grid, each refitted to the outline: where it has HALVED_MOST cells at most, the grid at half its pitch (tiles
    laid a little apart fit a grid at twice their pitch as well); where it has more than MANY_CELLS times a game's
    tiles (no board: a comb at a fraction of the pitch), every pitch the combs guessed on each rectification
    (`_comb_fits`); else the grid at twice its pitch at each of its four phases (a small board's combs at half the
    pitch, its cells in no whole 2 x 2 blocks the `_whole_blocks` check would see), and beyond COARSE_MOST cells at
    four times it at each of its sixteen (at a quarter of the pitch: `tune-small6.yaml` 94, 157)."""
    if len(cells) <= HALVED_MOST:
        guesses = [np.diag([2.0, 2.0, 1.0]) @ to_board]
    elif len(cells) <= MANY_CELLS * GAME_TILES:
        guesses = [_times(to_board, 2, x, y) for x in (0, 1) for y in (0, 1)]
        if len(cells) > COARSE_MOST:  # a small board's combs at a quarter of the pitch: each tile 4 x 4 cells
            guesses += [_times(to_board, 4, x, y) for x in range(4) for y in range(4)]
    else:
        guesses = [fitted for rect in seen.rects
                   for _, fitted in _comb_fits(seen.grey, seen.board_mask, rect, seen.arm, seen.outline)]
    return _refitted(guesses, seen)


def _stretched(seen: _Seen, to_board: np.ndarray, cells: list[Cell]) -> list[Found]:
    """Where the combs' grid has more than HALVED_MOST cells and COARSE_MOST at most, the grids at STRETCHES times its
    pitch across and down at each of their phases, refitted to the outline: combs at different fractions of the
    pitch on the two axes (`tune-small8.yaml` 233: half across, a third down). Many phases, so many chances for a
    wrong one: the reading takes one only where its cells read as tiles (`Grid.only_sure`)."""
    if not HALVED_MOST < len(cells) <= COARSE_MOST:
        return []
    guesses = [_times(to_board, k, a, b, down) for k, down in STRETCHES for a in range(k) for b in range(down)]
    return _refitted(guesses, seen)


def _refitted(guesses: list[np.ndarray], seen: _Seen) -> list[Found]:
    """Each guessed grid refitted to the outline, with its occupied cells, where it has some and no more than a
    game's tiles."""
    fits = [_fit_outline(guess, seen.outline)[0] for guess in guesses]
    return [(f, c) for f in fits if 0 < len(c := _occupied(seen.raw_mask, f)) <= GAME_TILES]


def _touched(mask: np.ndarray | None, to_board: np.ndarray) -> frozenset[Cell]:
    """Cells any pixel of `mask` lies over."""
    if mask is None or not mask.any():
        return frozenset()
    xs, ys = pixels(mask)
    uv = cv2.perspectiveTransform(np.c_[xs, ys][None].astype(np.float64), to_board)[0]
    return frozenset((int(i), int(j)) for i, j in np.unique(np.floor(uv).astype(np.int64), axis=0))


def _under_arm(hand: np.ndarray, to_board: np.ndarray) -> frozenset[Cell]:
    """Cells whose middle is mostly arm, palm or fingers: what shows there is skin (read as a city), not a tile.

    A city of the arm's hue that a fingertip joins to it is left out: an opening half the arm's width (as
    it enters the picture) leaves the arm and palm (what still reaches the picture's border), and of the
    rest a narrower one keeps what is thicker than a finger, those cities. A tile that much under an arm is
    not read either way.
    """
    if not hand.any():
        return frozenset()
    edge = border_mask(hand.shape)
    half_width = float(cv2.distanceTransform(hand.astype(np.uint8), cv2.DIST_L2, 3)[edge & hand].max())

    def opened(mask: np.ndarray, size: float) -> np.ndarray:
        k = max(3, int(size) | 1)
        return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN,
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))) > 0

    core = opened(hand, half_width)
    n, labels = cv2.connectedComponents(core.astype(np.uint8))
    reach = np.unique(labels[core & edge])
    core = np.isin(labels, reach[reach > 0])
    # fingers are a quarter of the arm's width; painted art speckles a joined city's hue, so close it first
    rest = cv2.morphologyEx((hand & ~core).astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    joined = opened(rest > 0, 0.6 * half_width)
    return frozenset(_occupied(hand & ~joined, to_board, 0.5))


def _coarser(grey: np.ndarray, cells: list[Cell], to_board: np.ndarray) -> tuple[float, np.ndarray] | None:
    """The grid at 2 or 3 times the pitch where every 2nd or 3rd line inside the board shows the strongest edge,
    with the median edge ratio of the others to those (below COARSER_LOOSE_RATIO), or None.

    The outline alone can fit a finer comb better (pale roads notch it at mid-tile); inside the board
    a true grid line is a tile border all along, while a finer comb's extra lines run through tiles.
    """
    occupied = set(cells)
    if len(occupied) < 8:
        return None
    inv = np.linalg.inv(to_board)
    edges = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))  # a border a pixel off the line still counts
    # each inner segment (a line between two occupied cells): its axis, line index, cell index along it
    segments = [(0, i, j) for i, j in occupied if (i - 1, j) in occupied]
    segments += [(1, j, i) for i, j in occupied if (i, j - 1) in occupied]
    if len(segments) < 12:
        return None
    t = np.linspace(0.15, 0.85, 8)
    seg = np.array(segments)
    # 8 points along each segment: (line, along + t) across x, (along + t, line) across y
    line, run = np.repeat(seg[:, 1:2], 8, axis=1).astype(np.float64), seg[:, 2:3] + t
    across_x = seg[:, :1] == 0
    pts = np.stack([np.where(across_x, line, run), np.where(across_x, run, line)], axis=2).reshape(-1, 2)
    image = cv2.perspectiveTransform(pts[None], inv)[0].astype(np.float32)
    samples = cv2.remap(edges, image[:, 0].copy(), image[:, 1].copy(), cv2.INTER_LINEAR, borderValue=0)
    strength = samples.reshape(len(segments), 8).mean(axis=1)
    best: tuple[float, np.ndarray] | None = None
    for k in (2, 3):
        for a in range(k):
            for b in range(k):
                kept = np.where(seg[:, 0] == 0, (seg[:, 1] - a) % k == 0, (seg[:, 1] - b) % k == 0)
                if kept.sum() < 4 or (~kept).sum() < 4:
                    continue
                ratio = float(np.median(strength[~kept]) / max(np.median(strength[kept]), 1e-6))
                if ratio < COARSER_LOOSE_RATIO and (best is None or ratio < best[0]):
                    best = (ratio, _times(to_board, k, a, b))
    return best


def _borders_apart(grey: np.ndarray, raw_mask: np.ndarray, to_board: np.ndarray) -> bool:
    """Whether only every 2nd or 3rd line of a grid shows a tile border inside the board (`_coarser`'s ratio under
    `COARSER_RATIO`): tiles laid apart and askew put outline on a finer grid's added lines, borders none."""
    coarser = _coarser(grey, _occupied(raw_mask, to_board), to_board)
    return coarser is not None and coarser[0] < COARSER_RATIO


def _whole_blocks(cells: list[Cell], to_board: np.ndarray) -> np.ndarray | None:
    """The grid at twice (or three times) the pitch when the occupied cells come in whole 2 x 2 (3 x 3) blocks, or
    None.

    A grid at half the tiles' pitch sees each tile as four cells, so its occupied cells fill aligned 2 x 2
    blocks; a true grid's do not (random play lays no board of whole 2 x 2 blocks). Roads run along tile
    middles, so the finer comb's extra lines can show as much edge as the borders and `_coarser` misses it;
    so it is at a third of the pitch, where roads and city walls of a few tiles can give a wrong phase of the
    coarser grid the strongest borders.
    """
    best: tuple[float, int, int, int] | None = None
    for k in (2, 3):
        if len(cells) < WHOLE_BLOCKS_CELLS * k * k // 4:
            continue
        for a in range(k):
            for b in range(k):
                counts: dict[Cell, int] = {}
                for i, j in cells:
                    key = ((i - a) // k, (j - b) // k)
                    counts[key] = counts.get(key, 0) + 1
                whole = sum(n for n in counts.values() if n == k * k) / len(cells)
                if best is None or whole > best[0]:
                    best = (whole, k, a, b)
    if best is None or best[0] < WHOLE_BLOCKS:
        return None
    _, k, a, b = best
    return _times(to_board, k, a, b)


def _times(to_board: np.ndarray, k: int, a: int, b: int, down: int | None = None) -> np.ndarray:
    """The grid at k times the pitch (across; `down` times it down, k by default) whose cell (0, 0) starts at the
    finer grid's cell (a, b)."""
    kd = k if down is None else down
    return np.array([[1 / k, 0, -a / k], [0, 1 / kd, -b / kd], [0, 0, 1]]) @ to_board


def _extra_lines(to_board: np.ndarray, outline: np.ndarray, k: int) -> float:
    """Share of the straight outline on the lines a grid k times finer adds, beyond what chance puts there."""
    if len(outline) < 16:
        return 0.0
    p, norm, f = _normalised(outline)
    fit = _Fit(p, np.diag([k, k, 1.0]) @ to_board @ np.linalg.inv(norm), 2.0 / f)
    if not fit.straight:
        return 0.0
    u, v = np.round(fit.uv[:, 0]) % k != 0, np.round(fit.uv[:, 1]) % k != 0
    extra = float((fit.ok_u & u).sum() + (fit.ok_v & v).sum()) / fit.straight
    on = float((fit.ok_u & ~u).sum() + (fit.ok_v & ~v).sum()) / fit.straight
    # the outline on no coarse line falls within SLOP of the k - 1 extra lines this often by chance
    return extra - (1 - on) * 2 * SLOP * (k - 1) / (k - 2 * SLOP)


def _third(to_board: np.ndarray, outline: np.ndarray) -> tuple[np.ndarray, float] | None:
    """The grid at about a third of the pitch, refitted to the outline, with its outline share, when the outline
    runs along its lines where this grid has none (beyond chance, THIRD_EXTRA of it), or None.

    A grid about three times the tiles' pitch, fitted to the board's outer sides, is no multiple of the tiles'
    (its midway lines show nothing); the finer grid refitted finds the tiles' own lines.
    """
    if len(outline) < 16:
        return None
    p, norm, f = _normalised(outline)
    coarse = _Fit(p, to_board @ np.linalg.inv(norm), 2.0 / f)
    if not coarse.straight:
        return None
    fine, share = _fit_outline(np.diag([3.0, 3.0, 1.0]) @ to_board, outline)
    fit = _Fit(p, fine @ np.linalg.inv(norm), 2.0 / f)
    if not fit.straight:
        return None
    on = coarse.ok_u | coarse.ok_v
    new = float(((fit.ok_u | fit.ok_v) & ~on).sum()) / fit.straight
    # a point on no coarse line lies on one of the 2 new lines in 3 by chance this often (2 px on small cells)
    tol = max(SLOP, 2.0 / np.sqrt(_cell_area(fine, outline.mean(axis=0))))
    chance = (1 - float(on.sum()) / coarse.straight) * 2 * tol * 2 / 3
    return (fine, share) if new - chance >= THIRD_EXTRA else None


def _occupied(mask: np.ndarray, to_board: np.ndarray, share: float = 0.3) -> list[Cell]:
    """Cells whose middle is at least `share` board, not table (pale art can look like the table)."""
    xs, ys = pixels(mask)
    if len(xs) == 0:
        return []
    uv = cv2.perspectiveTransform(np.c_[xs, ys][None].astype(np.float64), to_board)[0]
    frac = uv - np.floor(uv)
    middle = np.all((frac > 0.2) & (frac < 0.8), axis=1)
    ij = np.floor(uv[middle]).astype(np.int64)
    if len(ij) == 0:
        return []
    low = ij.min(axis=0)
    span = ij.max(axis=0) - low + 1
    counts = np.bincount((ij[:, 1] - low[1]) * span[0] + ij[:, 0] - low[0], minlength=int(span.prod()))
    seen = np.nonzero(counts)[0]
    cells = np.stack([seen % span[0] + low[0], seen // span[0] + low[1]], axis=1)
    inv = np.linalg.inv(to_board)
    found: list[Cell] = []
    for (i, j), count in zip(cells, counts[seen], strict=True):
        quad = cv2.perspectiveTransform(np.array([[[i + 0.2, j + 0.2], [i + 0.8, j + 0.2], [i + 0.8, j + 0.8],
                                                   [i + 0.2, j + 0.8]]], np.float64), inv)[0]
        if count > share * cv2.contourArea(quad.astype(np.float32)):
            found.append((int(i), int(j)))
    return found
