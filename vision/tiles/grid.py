"""Finds the grid of laid tiles: which cells hold a tile and where each tile's corners are in the image.

The board lies on a plane, so every tile edge belongs to one of two families of lines, each meeting
at a vanishing point. Those two points undo the perspective (up to a scale per axis); in the
rectified board the tile boundaries repeat with one pitch per axis, found by a comb search on the
edge profile. One homography then maps any cell back to the image.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.table import border_band, border_mask, table_colour, table_distance
from vision.tiles.geometry import peak_offset

Cell = tuple[int, int]
WORK_SIDE = 800  # longest side the grid is searched at
MIN_PITCH = 14.0  # rectified px
STREAK = 1.5  # times the table cut: a part of the board mask whose paint stays below this is the table's grain
# a part this many times longer than wide whose hue (a*b*) stays below STREAK times the cut is a streak of the table:
# white streaks on a pale grey table, 10-15 x 160-300 working px, pass the cut by their lightness (their hue 3-13
# from the table's, the cut 10-11); parts of boards are at most 7 times longer than wide, their hue 26 or more off
STREAK_LONG = 10.0
PITCH_STEP = 0.75  # comb search step; the least-squares refinement takes it from there
PITCH_SHARE = 0.02  # the step for large pitches, as a share of the pitch (combs' tolerance is 0.07 of it)
SKIN_LOW = np.array([0, 135, 85], np.uint8)  # YCrCb
SKIN_HIGH = np.array([255, 178, 127], np.uint8)
SLOP = 0.03  # how far (in tiles) a laid tile's side may sit from its grid line
COARSER_RATIO = 0.5  # edge strength on a finer comb's extra lines against its kept ones, at most
INNER_RATIO = 0.5  # edge strength midway between a squarish outline's would-be tile borders against them, at most
MAX_INNER = 5  # tiles across a squarish outline looked for
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
LINE_NEAR = 0.015  # of a lone tile's side: outline points this near a line lie on it
LINE_LEAST = 0.2  # of a lone tile's side: the fewest outline points (px) a side of it holds
SAME_SIDE = np.pi / 4  # radians: lines whose feet from the middle lie this near in direction face one side
ACROSS = 40.0  # degrees: a lone tile's opposite sides run within this of parallel (strong keystone: up to some 37)
SIDE_BEYOND = 0.2  # share of a lone tile's outline beyond a line along a side at most (a figure's and its shadow's)
LINES_FILL = 0.92  # share of those lines' quadrilateral the mask fills, at least
LINES_BEYOND = 0.09  # of its area: the most of the mask beyond it (a figure's head and body over the table)
HULL_FILL = 0.78  # share of its hull a lone tile's mask fills, at least (notches of pale roads and cities)
LONE_FILL = 0.85  # share of the quadrilateral a lone tile's four longest sides span that its mask fills, at least
REFIT_SHARE = 0.9  # share of the outline on the best grid under which the pitch is searched again on that grid
FINER = 0.6  # cell area against the best grid so far under which a grid searched again counts as finer
GROW_RADII = (1.5, 2.5, 4.0, 6.0, 9.0)  # tiles about the board's middle whose outline a grown fit takes, round by round
GROWN_AREA = (0.7, 1.4)  # cell area a grown fit (and the grid it grows from) may have against the best grid so far
FIT_TOLERANCES = (0.3, 0.2, 0.12, 0.08)  # tiles: outline points this near a grid line steer the fit, round by round
HAND_AREA = 0.015  # least share of the picture an arm and hand cover
HAND_RED = 118  # Lab a* (OpenCV's, 128 grey): an arm's median lies above it (skin is never green; a field is)
HAND_CHROMA = 8.0  # Lab a*b* units: an arm's pixels stay this near the hue it enters with (shading moves only L)
STREAK_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))  # working px: thinner table streaks go


@dataclass
class Grid:
    """`to_board` maps image px to board units: cell (i, j) spans [i, i+1] x [j, j+1]."""

    to_board: np.ndarray
    cells: list[Cell]  # cells that may hold a tile (mostly unlike the table); the reader confirms them
    table_lab: np.ndarray  # the table's colour, for the caller's own masks
    table_cut: float = 12.0  # table_distance beyond which a pixel is unlike the table
    under_arm: frozenset[Cell] = frozenset()  # cells whose middle an arm mostly covers: no tile is read there
    by_arm: frozenset[Cell] = frozenset()  # cells an arm, its rim or shadow touches at all: read from what is left

    def corners(self, cell: Cell) -> np.ndarray:
        """TL TR BR BL of a cell in image px."""
        i, j = cell
        square = np.array([[[i, j], [i + 1, j], [i + 1, j + 1], [i, j + 1]]], np.float64)
        return cv2.perspectiveTransform(square, np.linalg.inv(self.to_board))[0]


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
    raw_mask = _close_channels(raw_mask)
    board_mask = _fill_holes(raw_mask)
    if board_mask.sum() < 100:
        return None
    grey = cv2.GaussianBlur(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY), (0, 0), 1.0)
    quad = _single_tile(board_mask)
    if quad is not None:
        unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
        to_unit = cv2.getPerspectiveTransform(quad.astype(np.float32), unit)
        # a compact board fills a squarish outline too: tile borders inside it tell the two apart
        nx, ny = _inner_borders(grey, to_unit)
        to_board, _ = _fit_outline(np.diag([nx, ny, 1.0]) @ to_unit, _outline_points(board_mask))
        cells = [(0, 0)] if (nx, ny) == (1, 1) else _occupied(raw_mask, to_board)
        if cells:
            return Grid(to_board @ np.diag([scale, scale, 1.0]), cells, table_lab, table_cut,
                        _under_arm(skin, to_board), _touched(arm, to_board))
    outline = _outline_points(board_mask, arm)
    rects = _rectifiers(grey, board_mask, arm)
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
    if not cells:
        return None
    return Grid(to_board @ np.diag([scale, scale, 1.0]), cells, table_lab, table_cut, _under_arm(skin, to_board),
                _touched(arm, to_board))


def _grown_best(tried: list[tuple[np.ndarray, float, float]], outline: np.ndarray, centre: np.ndarray,
                found: tuple[np.ndarray, float, float]) -> tuple[np.ndarray, float, float]:
    """The grid a fit grown from the board's middle outwards (`_grown`) gives from any grid tried, when the outline
    fits it at `REFIT_SHARE` and better than `found`, at about found's pitch (`GROWN_AREA`: a finer grid fits an
    outline as well, and the searches chose the pitch).

    A small board's short tile sides place the vanishing points badly: the grids the combs fit drift half a tile
    across the board, and a fit to the whole outline then takes its far sides to the wrong lines.
    """
    best = found
    area = _cell_area(found[0], centre)
    for start, _, score in tried:
        if not GROWN_AREA[0] <= _cell_area(start, centre) / area <= GROWN_AREA[1]:
            continue
        grown, share = _grown(start, outline)
        ratio = _cell_area(grown, centre) / area
        if share >= REFIT_SHARE and share > best[1] and GROWN_AREA[0] <= ratio <= GROWN_AREA[1]:
            best = (grown, share, score)
    return best


def _grown(to_board: np.ndarray, outline: np.ndarray) -> tuple[np.ndarray, float]:
    """`_fit_outline` on the outline within `GROW_RADII` tiles of its median cell, round by round, each round
    starting from the last: near the middle a drifting grid still lies on the right lines, and each fit carries
    the lines out to where the next takes them."""
    uv = cv2.perspectiveTransform(outline[None].astype(np.float64), to_board)[0]
    middle = np.median(uv, axis=0)
    for radius in GROW_RADII:
        near = np.abs(uv - middle).max(axis=1) < radius
        if near.sum() < 16:
            continue
        to_board, _ = _fit_outline(to_board, outline[near])
        uv = cv2.perspectiveTransform(outline[None].astype(np.float64), to_board)[0]
    return _fit_outline(to_board, outline)


def _cell_area(to_board: np.ndarray, at: np.ndarray) -> float:
    """Picture px of one cell at image point `at` (the map's local scale there)."""
    pts = cv2.perspectiveTransform(np.array([[at, at + [1.0, 0.0], at + [0.0, 1.0]]], np.float64), to_board)[0]
    (a, b), (c, d) = pts[1] - pts[0], pts[2] - pts[0]
    return 1.0 / max(abs(float(a * d - b * c)), 1e-12)


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


def _best_comb(grey: np.ndarray, board_mask: np.ndarray, rect: np.ndarray, arm: np.ndarray | None,
               outline: np.ndarray, square: bool = False) -> tuple[np.ndarray, float, float] | None:
    """The grid (picture -> board units) the outline fits best among the pitch candidates on the board as `rect`
    rectifies it, the share of the outline that fits it, and its score (the share beyond chance, and among
    equal fits the larger pitch: rectifications compare by it). `square`: square combs are tried too
    (`_square_combs`)."""
    to_canvas, canvas_size = _fit_canvas(rect, board_mask)
    canvas = cv2.warpPerspective(grey, to_canvas, canvas_size, flags=cv2.INTER_LINEAR)
    fg = cv2.warpPerspective(board_mask.astype(np.uint8), to_canvas, canvas_size, flags=cv2.INTER_NEAREST)
    ignore = None if arm is None else cv2.warpPerspective(arm.astype(np.uint8), to_canvas, canvas_size,
                                                          flags=cv2.INTER_NEAREST) > 0
    best: tuple[float, np.ndarray] | None = None
    guesses, doubled = _pitch_candidates(canvas, fg, ignore, square)
    if doubled:
        # of twice the best guess's pitch only the phase the outline fits best as it stands is refined
        guesses.append(max(doubled, key=lambda c: _fit_outline(_comb(c) @ to_canvas, outline, 0, 1500)[1]))
    for px, ox, py, oy in guesses:
        fitted, inliers = _fit_outline(_comb((px, ox, py, oy)) @ to_canvas, outline, rounds=5, sample=1500)
        # inliers beyond chance (a fine comb catches stray points), and among equal fits the larger
        # pitch (a half pitch fits the same outline just as well)
        chance = min(0.9, 2 * max(2.0 / min(px, py), SLOP))
        score = (inliers - chance) / (1 - chance) + 0.05 * np.log(min(px, py))
        if best is None or score > best[0]:
            best = (score, fitted)
    if best is None:
        return None
    return (*_fit_outline(best[1], outline), best[0])


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
                    shift = np.array([[1 / k, 0, -a / k], [0, 1 / k, -b / k], [0, 0, 1]])
                    best = (ratio, shift @ to_board)
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
    return np.array([[1 / k, 0, -a / k], [0, 1 / k, -b / k], [0, 0, 1]]) @ to_board


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


def _inner_borders(grey: np.ndarray, to_unit: np.ndarray) -> tuple[int, int]:
    """Tiles across and down a squarish outline (picture -> unit square): (1, 1) for a single tile.

    n tiles across show a tile border all along the lines at k/n, and none along the lines midway
    between them (which cross tiles); a single tile's art has no such full-length lines.
    """
    edges = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))  # a border a pixel off the line still counts
    inv = np.linalg.inv(to_unit)
    t = np.linspace(0.03, 0.97, 48)

    def strength(axis: int, at: np.ndarray) -> np.ndarray:
        """Median edge strength along each line at unit positions `at` across `axis` (0: x = at)."""
        u = np.repeat(at, len(t))
        v = np.tile(t, len(at))
        pts = np.stack([u, v] if axis == 0 else [v, u], axis=1)[None].astype(np.float64)
        image = cv2.perspectiveTransform(pts, inv)[0].astype(np.float32)
        samples = cv2.remap(edges, image[:, 0].copy(), image[:, 1].copy(), cv2.INTER_LINEAR, borderValue=0)
        return np.median(samples.reshape(len(at), len(t)), axis=1)

    # ratio[axis][n]: edge midway between the would-be borders against the weakest border; n = 1 has none
    ratio = [{1: INNER_RATIO}, {1: INNER_RATIO}]
    for axis in (0, 1):
        for n in range(2, MAX_INNER + 1):
            borders = strength(axis, np.arange(1, n) / n)
            between = strength(axis, (np.arange(n) + 0.5) / n)
            ratio[axis][n] = float(np.median(between) / max(float(borders.min()), 1e-6))
    # the outline is squarish, so the counts across and down are alike (3 x 2 is, 2 x 1 is not)
    pairs = [(nx, ny) for nx in ratio[0] for ny in ratio[1] if max(nx, ny) <= 1.5 * min(nx, ny)]
    return min(pairs, key=lambda c: (max(ratio[0][c[0]], ratio[1][c[1]]), c[0] * c[1]))  # both axes must show them


def _comb(comb: tuple[float, float, float, float]) -> np.ndarray:
    """Canvas px -> grid units for a comb (pitch and offset per axis)."""
    px, ox, py, oy = comb
    return np.array([[1 / px, 0, -ox / px], [0, 1 / py, -oy / py], [0, 0, 1]])


def _board_mask(lab: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Pixels unlike the table, the table being what the picture's border shows most."""
    h, w = lab.shape[:2]
    table, spread = table_colour(lab)
    dist = table_distance(lab, table)
    cut = max(10.0, 2.5 * spread)
    mask = (dist > cut).astype(np.uint8)
    k = max(3, min(h, w) // 200 * 2 + 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    if n <= 1:
        return np.zeros((h, w), bool), table, cut
    areas = stats[1:, cv2.CC_STAT_AREA]
    keep = 1 + np.nonzero(areas >= 0.03 * areas.max())[0]  # parts cut off by a table-coloured city too
    # a bright streak in a wooden table passes the cut by a hair all over; any piece of board holds paint far
    # unlike the table (fields, roads)
    keep = [i for i in keep if _unlike(dist, labels, stats[i], i) >= STREAK * cut]
    # a bright streak in a pale table may pass it by its lightness alone: a long thin part whose hue stays the
    # table's is none either (a row of tiles apart from the board is a tile wide and holds fields)
    keep = [i for i in keep if not _streak(lab, table, labels, stats[i], i, cut)]
    return np.isin(labels, keep), table, cut


def _streak(lab: np.ndarray, table: np.ndarray, labels: np.ndarray, stats: np.ndarray, index: int, cut: float
            ) -> bool:
    """Whether a part of the mask is a streak of the table's hue: STREAK_LONG times longer than wide, and the
    90th percentile of its pixels' a*b* distance from the table under STREAK times the cut."""
    x, y, w, h, area = stats[:5]
    if area > (w * w + h * h) / STREAK_LONG:  # its rectangle, no longer than the box's diagonal, holds it
        return False
    part = labels[y:y + h, x:x + w] == index
    contours, _ = cv2.findContours(part.view(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    (_, _), (w, h), _ = cv2.minAreaRect(np.vstack(contours))
    if max(w, h) < STREAK_LONG * max(min(w, h), 1.0):
        return False
    ys, xs = np.nonzero(part)
    hue = lab[y + ys, x + xs, 1:].astype(np.float32) - np.asarray(table[1:], np.float32)
    return float(np.percentile(np.hypot(hue[:, 0], hue[:, 1]), 90)) < STREAK * cut


def _unlike(dist: np.ndarray, labels: np.ndarray, stats: np.ndarray, index: int) -> float:
    """How far from the table a part of the mask is: the 90th percentile of its pixels' distances."""
    x, y, w, h = stats[:4]
    box = np.s_[y:y + h, x:x + w]
    return float(np.percentile(dist[box][labels[box] == index], 90))


def _hands(bgr: np.ndarray, mask: np.ndarray, lab: np.ndarray) -> np.ndarray:
    """Skin-coloured parts of the board mask that reach the picture's border: an arm and its hand.

    City paint can be skin-coloured too, but a city is ringed by its board while an arm crosses the table,
    and an arm keeps the hue it enters the picture with (a tan city a fingertip touches does not). On a
    skin-coloured (wooden) table skin tells nothing, and the arm is what the board mask brings in through
    the picture's border, in the hue it has there, unless that hue is green (`HAND_RED`): a field running off it.
    """
    ycrcb = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb)
    skin = cv2.inRange(ycrcb, SKIN_LOW, SKIN_HIGH) > 0
    h, w = skin.shape
    band, edge = border_band(skin.shape), border_mask(skin.shape)
    skin = mask.copy() if np.r_[skin[:band].ravel(), skin[-band:].ravel()].mean() > 0.3 else skin & mask
    n, labels, stats, _ = cv2.connectedComponentsWithStats(skin.astype(np.uint8))
    hand = np.zeros((h, w), bool)
    ring_kernel, beside_kernel = np.ones((9, 9), np.uint8), np.ones((25, 25), np.uint8)
    for i in range(1, n):
        x, y, bw, bh, area = stats[i]
        touches = x <= band or y <= band or x + bw >= w - band or y + bh >= h - band
        if not touches or area < HAND_AREA * h * w:
            continue
        part = _entry_hue(labels == i, lab, edge, band)
        # on a skin-coloured table a lone tile's field running off the picture keeps its hue there too
        if part.sum() < HAND_AREA * h * w or np.median(lab[..., 1][part]) < HAND_RED:
            continue
        near = cv2.dilate(part.astype(np.uint8), ring_kernel) > 0
        ring = near & ~part
        beside = (cv2.dilate(part.astype(np.uint8), beside_kernel) > 0) & ~near & edge  # past its blurred sides
        # an arm lies over the table for part of its length, or at least where it enters the picture; a city
        # at the picture's edge is ringed by tiles
        if (ring.any() and (~mask[ring]).mean() > 0.25) or (beside.any() and (~mask[beside]).mean() > 0.5):
            hand |= part
    return hand


def _entry_hue(part: np.ndarray, lab: np.ndarray, edge: np.ndarray, band: int) -> np.ndarray:
    """The pieces of `part` in the hue (Lab a*b*) with which it crosses the picture's border there, that reach it.

    Shading and light move an arm's lightness, hardly its hue; city paint joined to it differs in hue by
    more than the arm varies (classic and modern cities are skin-coloured, yet yellower than skin).
    """
    entries, at = cv2.connectedComponents((part & edge).astype(np.uint8))
    chroma = lab[..., 1:].astype(np.float32)
    same = np.zeros(part.shape, bool)
    for k in range(1, entries):
        piece = at == k
        if piece.sum() < band * band:
            continue
        d = chroma - np.median(chroma[piece], axis=0)
        same |= part & (np.hypot(d[..., 0], d[..., 1]) < HAND_CHROMA)
    n, labels = cv2.connectedComponents(same.astype(np.uint8))
    reach = np.unique(labels[same & edge])
    return np.isin(labels, reach[reach > 0])


def _single_tile(mask: np.ndarray) -> np.ndarray | None:
    """The corners TL TR BR BL when the board is one convex, squarish quadrilateral: a single tile.

    (A rectangle of several tiles is longer than perspective makes a square look, and goes on to the
    general search.)
    """
    # a thin bright streak of the table joined to the tile (a wooden or white table's grain) is no part of it
    opened = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, STREAK_KERNEL)
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    largest = max((cv2.contourArea(c) for c in contours), default=0.0)
    contours = [c for c in contours if cv2.contourArea(c) >= 0.05 * largest]  # what the opening left of a streak
    if not contours or len(contours) > 3:
        return None
    # pale roads and cities notch a tile's outline or cut it in two; the hull of the pieces stays square
    hull = cv2.convexHull(np.vstack(contours))
    area = sum(cv2.contourArea(c) for c in contours)
    quad = None
    for eps in (0.02, 0.03, 0.045, 0.06):
        approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
        if len(approx) == 4:
            quad = approx
            break
    hull_area = cv2.contourArea(hull)
    lines = None
    if quad is None or cv2.contourArea(quad.astype(np.float32)) < 0.9 * hull_area:
        # a meeple standing over the tile's edge bulges the hull out of square, and the corners the hull's
        # simplification keeps then cut the tile: its four longest sides still run along the tile's, and the
        # tile fills what they span (a board of several tiles leaves steps and gaps in it: at most 0.79 of it on
        # the tuning sets, lone tiles 0.90 or more)
        quad = _longest_sides(hull)
        # a figure over the edge may hide a side from the hull altogether: the lines its outline runs along
        lines = _lines_quad(opened, largest, hull_area, quad) if area >= HULL_FILL * hull_area else None
        quad = quad if lines is None else lines
        if quad is not None and area < LONE_FILL * cv2.contourArea(quad.astype(np.float32)):
            return None
    if quad is None or area < HULL_FILL * hull_area or (quad is not lines and cv2.contourArea(
            quad.astype(np.float32)) < 0.9 * hull_area):
        return None
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if max(a, b) / min(a, b) > 1.55 or _corner_unseen(quad, opened):
        return None
    centre = quad.mean(axis=0)
    angle = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angle)]  # clockwise on screen (y down), starting anywhere
    first = int(np.argmin(quad.sum(axis=1)))
    return np.roll(quad, -first, axis=0)


def _corner_unseen(quad: np.ndarray, mask: np.ndarray) -> bool:
    """Whether a corner lies beyond the picture (by `LINE_NEAR` of its side) while the mask reaches no border: a
    tile the picture shows whole shows its corners, and a quadrilateral reaching past them spans no tile (the hull's
    sides along a small board's steps)."""
    border = mask[[0, -1], :].any() or mask[:, [0, -1]].any()
    side = float(np.sqrt(abs(cv2.contourArea(quad.astype(np.float32)))))
    h, w = mask.shape[:2]
    margin = LINE_NEAR * side
    outside = (quad[:, 0] < -margin) | (quad[:, 1] < -margin) | (quad[:, 0] > w - 1 + margin) | (
        quad[:, 1] > h - 1 + margin)
    return bool(not border and outside.any())


def _lines_quad(opened: np.ndarray, largest: float, hull_area: float, quad: np.ndarray | None) -> np.ndarray | None:
    """The quadrilateral of the outline's four straightest lines (`_outline_lines`) where it holds a tile
    (`_holds_tile`) and more of the outline lies on its sides than on `quad`'s (the hull's longest sides); else None.
    """
    dense, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    dense = [c for c in dense if cv2.contourArea(c) >= 0.05 * largest]
    side = float(np.sqrt(hull_area))
    lines = _outline_lines(dense, side, opened.shape)
    if lines is None or not _holds_tile(lines, opened):
        return None
    return lines if quad is None or _on_sides(lines, dense, side) > _on_sides(quad, dense, side) else None


def _outline_lines(contours: list[np.ndarray], side: float, shape: tuple[int, ...]) -> np.ndarray | None:
    """The quadrilateral of the four straight lines the most outline points lie on (within `LINE_NEAR` of `side`),
    found one after another, each fitted to its points; None when four are not found or do not close.

    A figure standing over a lone tile's edge makes the hull run from the tile's corners up to its head, and the
    tile's own side, cut in two by the figure, is no side of the hull; its two pieces still lie on one line. The
    picture's border (`shape`: the mask's), where a head or a tile runs off it, is no line of the tile.
    """
    points = np.vstack(contours).reshape(-1, 2).astype(np.float64)
    inner = (points > 0).all(axis=1) & (points[:, 0] < shape[1] - 1) & (points[:, 1] < shape[0] - 1)
    near = LINE_NEAR * side
    seeds = [cv2.approxPolyDP(c, near, True).reshape(-1, 2).astype(np.float64) for c in contours]
    sides = np.vstack([np.stack([p, np.roll(p, -1, axis=0)], axis=1) for p in seeds])  # (sides, 2 ends, xy)
    sides = sides[np.linalg.norm(sides[:, 1] - sides[:, 0], axis=1) >= near]
    start, step = sides[:, 0], sides[:, 1] - sides[:, 0]
    joined = _joined(points, sides, _on_lines(points, start, step, near), near)
    start, step = np.vstack([start, joined[0]]), np.vstack([step, joined[1]])
    length = np.hypot(step[:, 0], step[:, 1])
    centre = points.mean(axis=0)
    # (lines, points): which outline points lie on each simplified side's line; a line with the tile beyond it (a
    # pale road's notch across the tile, its pieces joined) is none
    on = _on_lines(points, start, step, near) & (_beyond(points, start, step, centre, near) <= SIDE_BEYOND)[:, None]
    free = inner.copy()
    # the side of the middle each line lies on and its direction: a pale road's notch runs along a side, on that
    # side of the middle, and a figure's shoulder over a side runs across the opposite side, not along it
    facing = _facing(centre, start, step / length[:, None])
    heading = np.degrees(np.arctan2(step[:, 1], step[:, 0]))
    lines: list[tuple[float, np.ndarray, np.ndarray]] = []  # (the angle it faces, a point, unit direction)
    for _ in range(4):
        counts = (on & free).sum(axis=1) if len(on) else np.zeros(0, int)
        for toward, _, u in lines:
            apart = _angle_apart(facing, toward)
            askew = _angle_diff(heading, float(np.degrees(np.arctan2(u[1], u[0]))))
            counts[(apart < SAME_SIDE) | ((apart > np.pi - SAME_SIDE) & (askew > ACROSS))] = 0
        if len(counts) == 0 or counts.max() < LINE_LEAST * side:
            return None
        best = on[int(np.argmax(counts))] & free
        vx, vy, x, y = cv2.fitLine(points[best].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        p, u = np.array([x, y], np.float64), np.array([vx, vy], np.float64)
        lines.append((float(_facing(centre, p[None], u[None])[0]), p, u))
        free &= ~best
    lines.sort(key=lambda line: line[0])
    corners = []
    for (_, p, u), (_, q, v) in zip(lines, lines[1:] + lines[:1], strict=True):
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 0.3:  # lines within some 17 degrees of parallel meet nowhere near a corner
            return None
        s, _ = np.linalg.solve(m, q - p)
        corners.append(p + s * u)
    return np.array(corners)


def _normals(step: np.ndarray) -> np.ndarray:
    """Unit normals of lines with directions `step` (N, 2)."""
    return np.stack([-step[:, 1], step[:, 0]], axis=1) / np.hypot(step[:, 0], step[:, 1])[:, None]


def _on_lines(points: np.ndarray, start: np.ndarray, step: np.ndarray, near: float) -> np.ndarray:
    """(lines, points): whether each point lies within `near` of each line (a point `start`, direction `step`)."""
    normal = _normals(step)
    return np.abs(points @ normal.T - (start * normal).sum(axis=1)).T <= near


def _beyond(points: np.ndarray, start: np.ndarray, step: np.ndarray, centre: np.ndarray, near: float) -> np.ndarray:
    """Per line (a point `start`, direction `step`), the share of `points` beyond it by more than `near`, on the side
    away from `centre`: the tile lies beyond a pale road's notch across it, only a figure beyond a side."""
    normal = _normals(step)
    offset = ((start - centre) * normal).sum(axis=1)
    return (((points - centre) @ normal.T) * np.sign(offset) - np.abs(offset) > near).mean(axis=0)


def _joined(points: np.ndarray, sides: np.ndarray, on: np.ndarray, near: float) -> tuple[np.ndarray, np.ndarray]:
    """(starts, steps) of the lines fitted to the outline points on two of the simplified outline's sides (`sides`:
    (N, 2 ends, xy); `on`: `_on_lines` of them) that lie on one line: all four ends within twice `near` of the line
    through the two farthest apart.

    A figure standing on a side cuts it in two pieces, each a short side of the simplified outline whose own
    direction is a few degrees off (the mask's rim is ragged): neither one's line reaches the other piece.
    """
    starts, steps = [np.zeros((0, 2))], [np.zeros((0, 2))]
    for i, j in zip(*np.triu_indices(len(sides), 1), strict=True):
        ends = np.vstack([sides[i], sides[j]])
        gap = np.linalg.norm(ends[:, None] - ends[None], axis=2)
        a, b = np.unravel_index(int(np.argmax(gap)), gap.shape)
        u = (ends[b] - ends[a]) / max(float(gap[a, b]), 1e-9)
        both = on[i] | on[j]
        if np.abs((ends - ends[a]) @ np.array([-u[1], u[0]])).max() > 2 * near or both.sum() < 2:
            continue
        vx, vy, x, y = cv2.fitLine(points[both].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        starts.append(np.array([[x, y]], np.float64))
        steps.append(np.array([[vx, vy]], np.float64) * gap[a, b])
    return np.vstack(starts), np.vstack(steps)


def _facing(centre: np.ndarray, start: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """Angles (radians) from `centre` to the nearest point of each line (points `start`, unit `direction`)."""
    foot = start + ((centre - start) * direction).sum(axis=1)[:, None] * direction
    return np.arctan2(foot[:, 1] - centre[1], foot[:, 0] - centre[0])


def _angle_apart(a: np.ndarray, b: float) -> np.ndarray:
    """|a - b| in radians, folded to 0..pi."""
    return np.abs((a - b + np.pi) % (2 * np.pi) - np.pi)


def _holds_tile(quad: np.ndarray, mask: np.ndarray) -> bool:
    """Whether the mask fills a quadrilateral (`LINES_FILL`) and lies beyond it only as a figure over a tile's edge
    does (`LINES_BEYOND` of its area): four lines along part of a larger board's outline leave more of it out."""
    inside = np.zeros(mask.shape, np.uint8)
    cv2.fillPoly(inside, [np.round(quad).astype(np.int32)], 1)
    area = max(int(inside.sum()), 1)
    shown = mask > 0
    within = int((shown & (inside > 0)).sum())
    return within >= LINES_FILL * area and int(shown.sum()) - within <= LINES_BEYOND * area


def _on_sides(quad: np.ndarray, contours: list[np.ndarray], side: float) -> int:
    """How many outline points lie within `LINE_NEAR` of `side` of a quadrilateral's sides."""
    points = np.vstack(contours).reshape(-1, 2).astype(np.float64)
    near = np.zeros(len(points), bool)
    for a, b in zip(quad, np.roll(quad, -1, axis=0), strict=True):
        ab = b - a
        t = np.clip((points - a) @ ab / max(float(ab @ ab), 1e-9), 0, 1)
        near |= np.linalg.norm(points - (a + t[:, None] * ab), axis=1) <= LINE_NEAR * side
    return int(near.sum())


def _longest_sides(hull: np.ndarray) -> np.ndarray | None:
    """The quadrilateral the four longest sides of a convex hull's outline span (their lines met in turn), or None.

    A bulge splits a side in two pieces on one line, which count as one side as long as both together.
    """
    poly = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
    if len(poly) < 4:
        return None
    side = np.roll(poly, -1, axis=0) - poly
    length = np.linalg.norm(side, axis=1)
    normal = np.c_[-side[:, 1], side[:, 0]] / np.maximum(length, 1e-9)[:, None]
    near = 0.01 * float(length.sum())
    # each side's line: the longest side whose line it lies on (parallel, both its ends near it)
    owner = np.arange(len(poly))
    for k in np.argsort(-length):
        for j in range(len(poly)):
            ends = np.abs((poly[[j, (j + 1) % len(poly)]] - poly[k]) @ normal[k])
            if owner[j] == j and j != k and length[j] < length[k] and abs(normal[j] @ normal[k]) > 0.99 \
                    and ends.max() < near:
                owner[j] = owner[k]
    total = np.bincount(owner, weights=length, minlength=len(poly))
    kept = np.sort(np.argsort(-total)[:4])
    if (total[kept] <= 0).any():
        return None
    corners = []
    for a, b in zip(kept, np.roll(kept, -1), strict=True):
        # poly[a] + s side[a] = poly[b] + t side[b]
        m = np.array([side[a], -side[b]]).T
        if abs(np.linalg.det(m)) < 1e-9 * length[a] * length[b]:
            return None
        s, _ = np.linalg.solve(m, poly[b] - poly[a])
        corners.append(poly[a] + s * side[a])
    return np.array(corners)


def _close_channels(mask: np.ndarray) -> np.ndarray:
    """Closes pale roads that cut the mask open where they meet a pale table.

    A board of square tiles has a pitch of about 3.5 x area / perimeter (a single tile 4, a long
    line 2), so a closing of a quarter of that fills road-wide channels but no tile-wide notch.
    """
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    area = sum(cv2.contourArea(c) for c in contours)
    perimeter = sum(cv2.arcLength(cv2.approxPolyDP(c, 2.0, True), True) for c in contours)
    if perimeter <= 0:
        return mask
    k = int(np.clip(0.25 * 3.5 * area / perimeter, 3, 200)) | 1
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, disc) > 0


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """The board without holes: art as pale as the table must not punch the outline."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(filled, contours, -1, 1, thickness=cv2.FILLED)
    return filled > 0


def _segments(grey: np.ndarray, mask: np.ndarray, arm: np.ndarray | None = None) -> np.ndarray:
    edges = cv2.Canny(grey, 20, 60)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    if arm is not None:
        near &= ~arm  # an arm's long straight sides are no tile edges
    edges[~near] = 0
    side = max(grey.shape)
    lines = cv2.HoughLinesP(edges, 1, np.pi / 360, threshold=20, minLineLength=max(10, side // 60), maxLineGap=2)
    found = np.zeros((0, 4), np.float64) if lines is None else lines.reshape(-1, 4).astype(np.float64)
    outline = _outline_segments(mask, max(10, side // 60))
    if arm is not None and len(outline):
        middle = np.round((outline[:, :2] + outline[:, 2:]) / 2).astype(int)
        middle = np.clip(middle, 0, [mask.shape[1] - 1, mask.shape[0] - 1])
        outline = outline[~arm[middle[:, 1], middle[:, 0]]]
    return np.vstack([found, outline])


def _outline_segments(mask: np.ndarray, min_length: int) -> np.ndarray:
    """Straight runs of the board's outline: tile sides, so they run along the two grid directions."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    segments: list[np.ndarray] = []
    for contour in contours:
        poly = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2).astype(np.float64)
        ends = np.hstack([poly, np.roll(poly, -1, axis=0)])
        segments.append(ends[np.linalg.norm(ends[:, 2:] - ends[:, :2], axis=1) >= min_length])
    return np.vstack(segments) if segments else np.zeros((0, 4))


def _rectifiers(grey: np.ndarray, mask: np.ndarray, arm: np.ndarray | None = None) -> list[np.ndarray]:
    """Image px -> rectified planes where the two tile-edge families run along x and y: the vanishing points'
    first, then with one family or both taken as parallel lines (in their dominant direction).

    Short tile sides, each laid a degree or two askew, place a vanishing point poorly (a tenth or more of
    the pitch across the board on small tiles, most when an arm hides half of them); a parallel family is
    then the better start, and the outline fit finds the perspective from there.
    """
    h, w = grey.shape
    f = float(max(h, w))
    norm = np.array([[1 / f, 0, -w / (2 * f)], [0, 1 / f, -h / (2 * f)], [0, 0, 1]])
    segs = _segments(grey, mask, arm)
    if len(segs) < 2:
        return [norm]
    p1 = np.c_[segs[:, :2], np.ones(len(segs))] @ norm.T
    p2 = np.c_[segs[:, 2:], np.ones(len(segs))] @ norm.T
    d = p2[:, :2] - p1[:, :2]
    length = np.linalg.norm(d, axis=1)
    angle = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 180
    a1, a2 = _two_directions(angle, length)
    fam1 = _angle_diff(angle, a1) < 20
    fam2 = _angle_diff(angle, a2) < 20
    v1 = _vanishing_point(p1[fam1], p2[fam1], length[fam1], a1)
    v2 = _vanishing_point(p1[fam2], p2[fam2], length[fam2], a2)
    par1, par2 = (np.array([np.cos(np.radians(a)), np.sin(np.radians(a)), 0.0]) for a in (a1, a2))
    out = [_rectify(u1, u2, a1, a2) for u1, u2 in ((v1, v2), (v1, par2), (par1, v2), (par1, par2))]
    return [r @ norm for r in out if r is not None] or [norm]


def _rectify(v1: np.ndarray, v2: np.ndarray, a1: float, a2: float) -> np.ndarray | None:
    """Normalised image -> plane where the families meeting at v1 and v2 (directions a1, a2) run along x, y."""
    line = np.cross(v1, v2)
    if abs(line[2]) < 1e-9:
        return None
    line = line / line[2]
    proj = np.array([[1, 0, 0], [0, 1, 0], line])
    d1 = _direction_at_centre(proj, v1, a1, axis=0)
    d2 = _direction_at_centre(proj, v2, a2, axis=1)
    basis = np.array([[d1[0], d2[0]], [d1[1], d2[1]]])
    if abs(np.linalg.det(basis)) < 1e-6:
        return None
    affine = np.eye(3)
    affine[:2, :2] = np.linalg.inv(basis)
    return affine @ proj


def _angle_diff(a: np.ndarray, b: float) -> np.ndarray:
    d = np.abs(a - b) % 180
    return np.minimum(d, 180 - d)


def _two_directions(angle: np.ndarray, weight: np.ndarray) -> tuple[float, float]:
    """The dominant edge direction and the strongest one roughly across it; the nearer-horizontal first."""
    hist = np.bincount(np.round(angle).astype(int) % 180, weights=weight, minlength=180)
    hist = np.convolve(np.r_[hist[-3:], hist, hist[:3]], np.ones(5) / 5, mode="same")[3:-3]
    first = int(np.argmax(hist))
    across = [(first + 90 + k) % 180 for k in range(-35, 36)]
    second = max(across, key=lambda a: hist[a])
    a, b = float(first), float(second)
    horizontal = min((a, b), key=lambda x: min(x, 180 - x))
    vertical = b if horizontal == a else a
    return horizontal, vertical


def _vanishing_point(p1: np.ndarray, p2: np.ndarray, length: np.ndarray, angle: float) -> np.ndarray:
    """Where one family's lines meet (homogeneous, unit), by RANSAC then weighted least squares."""
    rad = np.radians(angle)
    fallback = np.array([np.cos(rad), np.sin(rad), 0.0])
    if len(p1) < 2:
        return fallback
    lines = np.cross(p1, p2)
    lines /= np.linalg.norm(lines[:, :2], axis=1, keepdims=True)
    mids = (p1 + p2) / 2
    dirs = (p2[:, :2] - p1[:, :2]) / length[:, None]
    rng = np.random.default_rng(0)
    pairs = np.array([rng.choice(len(p1), 2, replace=False) for _ in range(min(150, len(p1) * (len(p1) - 1) // 2))])
    best = fallback
    if len(pairs):
        # every sampled pair's meeting point scored at once: the length of the segments pointing at it
        v = np.cross(lines[pairs[:, 0]], lines[pairs[:, 1]])
        size = np.linalg.norm(v, axis=1)
        ok = size >= 1e-12
        if ok.any():
            v = v[ok] / size[ok, None]
            best = v[int(np.argmax((_inliers(v, mids, dirs) * length).sum(axis=1)))]
    keep = _inliers(best[None], mids, dirs)[0]
    if keep.sum() >= 2:
        a = lines[keep] * np.sqrt(length[keep])[:, None]
        best = np.linalg.svd(a, full_matrices=False)[2][-1]
    return best / np.linalg.norm(best)


def _inliers(v: np.ndarray, mids: np.ndarray, dirs: np.ndarray, tol_deg: float = 3.0) -> np.ndarray:
    """(K, N): which segments point at each of K vanishing points (homogeneous rows of `v`)."""
    to_v = v[:, None, :2] - mids[None, :, :2] * v[:, None, 2:]
    to_v /= np.linalg.norm(to_v, axis=2, keepdims=True) + 1e-12
    cross = np.abs(dirs[None, :, 0] * to_v[..., 1] - dirs[None, :, 1] * to_v[..., 0])
    return cross < np.sin(np.radians(tol_deg))


def _direction_at_centre(proj: np.ndarray, v: np.ndarray, angle: float, axis: int) -> np.ndarray:
    """The family's direction after `proj`, signed to point right (axis 0) or down (axis 1) in the image."""
    d = (proj @ v)[:2]
    d = d / (np.linalg.norm(d) + 1e-12)
    rad = np.radians(angle)
    step = np.array([np.cos(rad), np.sin(rad)])
    if step[axis] < 0:
        step = -step
    a = proj @ np.array([0.0, 0.0, 1.0])
    b = proj @ np.array([step[0] * 1e-3, step[1] * 1e-3, 1.0])
    moved = b[:2] / b[2] - a[:2] / a[2]
    return d if float(np.dot(moved, d)) >= 0 else -d


def _fit_canvas(rect: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """Scale and shift the rectified plane so the board fills a canvas as fine as the picture."""
    xs, ys = pixels(mask)
    step = max(1, len(xs) // 20000)
    xs, ys = xs[::step], ys[::step]
    pts = cv2.perspectiveTransform(np.c_[xs, ys][None].astype(np.float64), rect)[0]
    lo = np.percentile(pts, 0.2, axis=0)
    hi = np.percentile(pts, 99.8, axis=0)
    # the hulls from a few hundred points rather than 20,000: only a row's first and last point can lie on
    # the hull, or any point of the first or last row (the points come row by row). The rectified plane's
    # hull is the same set mapped (a projective map keeps lines), and after float rounding too: any other
    # point lies at least 1/1000 px inside (integer points off a line through integer points)
    ends = np.flatnonzero(np.diff(ys))
    rim = np.unique(np.r_[0, ends, ends + 1, len(ys) - 1, np.flatnonzero((ys == ys[0]) | (ys == ys[-1]))])
    hull_img = cv2.contourArea(cv2.convexHull(np.c_[xs[rim], ys[rim]].astype(np.float32)))
    hull_rect = cv2.contourArea(cv2.convexHull(pts[rim].astype(np.float32)))
    s = float(np.sqrt(max(hull_img, 1.0) / max(hull_rect, 1e-12)))
    s = min(s, 1400.0 / max(float((hi - lo).max()), 1e-12))
    pad = 6.0
    shift = np.array([[s, 0, -s * lo[0] + pad], [0, s, -s * lo[1] + pad], [0, 0, 1]])
    size = (int(s * (hi[0] - lo[0]) + 2 * pad), int(s * (hi[1] - lo[1]) + 2 * pad))
    return shift @ rect, size


def pixels(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x and y of a mask's pixels in raster order, as `np.nonzero` gives them (y, x), at half its cost."""
    points = cv2.findNonZero(np.ascontiguousarray(mask.view(np.uint8) if mask.dtype == bool else mask))
    if points is None:
        return np.zeros(0, np.int32), np.zeros(0, np.int32)
    xs, ys = points.reshape(-1, 2).T  # (N, 1, 2) in OpenCV 4, (N, 2) in 5
    return xs, ys


def _outline_peaks(fg: np.ndarray, axis: int, ignore: np.ndarray | None = None) -> np.ndarray:
    """Positions along one axis where the board's outline runs across: every one lies on a grid line."""
    steps = np.abs(np.diff(fg.astype(np.float32), axis=1 - axis, prepend=0))
    if ignore is not None:
        steps[ignore] = 0
    outline = steps.sum(axis=axis)
    outline = cv2.GaussianBlur(outline.reshape(1, -1), (0, 0), 1.0).ravel()
    top = outline.max()
    if top <= 0:
        return np.zeros(0)
    is_peak = (outline >= np.r_[outline[1:], 0]) & (outline > np.r_[0, outline[:-1]]) & (outline > 0.12 * top)
    idx = np.nonzero(is_peak)[0].astype(np.float64)
    if len(idx) == 0:
        return np.zeros((0, 2))
    # sub-pixel peak centres
    v = outline
    i = idx.astype(int)
    left, mid, right = v[np.maximum(i - 1, 0)], v[i], v[np.minimum(i + 1, len(v) - 1)]
    return np.c_[idx + peak_offset(left, mid, right), np.sqrt(mid / top)]


def _fits(peaks: np.ndarray, pitches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each pitch: the (strength-weighted) share of outline peaks on the best comb, and its phase.

    All pitches at once (a few at a time, to bound memory): for pitch p, peak i lies on the comb through
    peak j when their distance modulo p is within the comb's tolerance.
    """
    pos, weight = peaks[:, 0], peaks[:, 1]
    apart = pos[:, None] - pos[None, :]  # (i, j): peak i relative to a comb through peak j
    share = np.zeros(len(pitches))
    phase = np.zeros(len(pitches))
    step = max(1, 2_000_000 // max(apart.size, 1))
    for k0 in range(0, len(pitches), step):
        p = pitches[k0:k0 + step, None, None]
        d = apart[None] % p
        d = np.minimum(d, p - d)
        hits = ((d < np.maximum(2.0, 0.07 * p)) * weight[None, :, None]).sum(axis=1)  # (pitches, j)
        j = np.argmax(hits, axis=1)
        share[k0:k0 + step] = hits[np.arange(len(j)), j] / weight.sum()
        phase[k0:k0 + step] = pos[j] % p[:, 0, 0]
    return share, phase


def _refine(peaks: np.ndarray, p: float, phase: float) -> tuple[float, float]:
    """Least-squares pitch and phase from the peaks that sit on the comb."""
    peaks = peaks[:, 0]
    n = np.round((peaks - phase) / p)
    on = np.abs(peaks - phase - n * p) < max(2.0, 0.07 * p)
    if len(np.unique(n[on])) >= 2:
        slope, intercept = np.polyfit(n[on], peaks[on], 1)
        return float(slope), float(intercept % slope)
    return p, phase % p


Comb = tuple[float, float, float, float]


def _pitch_candidates(canvas: np.ndarray, fg: np.ndarray, ignore: np.ndarray | None = None, square: bool = False
                      ) -> tuple[list[Comb], list[Comb]]:
    """(pitch x, offset x, pitch y, offset y) worth trying, from the board outline; best guess first.

    Every stretch of outline lies on a grid line, so the true pitch puts the outline peaks on one
    comb; so does any divisor of it, hence the largest well-fitting pitch is the first guess. Tiles
    are square and the rectification keeps the axes' scales within a few tens of percent, so the axes
    are paired (a 1x3 row gets its pitch from the short axis). A residual tilt smears the peaks, so
    the next-best combs are offered too; the caller keeps the one the whole outline fits best. Returns
    those (with `square`, the best guess's pitches made square too) and, apart, twice the best guess's
    pitch at its four phases.
    """
    peaks_x, peaks_y = _outline_peaks(fg, 0, ignore), _outline_peaks(fg, 1, ignore)
    if len(peaks_x) < 2 or len(peaks_y) < 2:
        h, w = fg.shape
        return [(float(w), 0.0, float(h), 0.0)], []
    px = _pitches(float(np.ptp(peaks_x[:, 0])) + 3)
    py = _pitches(float(np.ptp(peaks_y[:, 0])) + 3)
    share_x, phase_x = _fits(peaks_x, px)
    share_y, phase_y = _fits(peaks_y, py)
    ratio = np.abs(np.log(px[:, None] / py[None, :]))
    pairs: list[tuple[int, int]] = []
    good_x = share_x >= 0.9 * share_x.max()
    good_y = share_y >= 0.9 * share_y.max()
    ok = good_x[:, None] & good_y[None, :] & (ratio < 0.25)
    if ok.any():
        size = np.where(ok, np.minimum(px[:, None], py[None, :]) - 5 * ratio, -np.inf)
        i, j = np.unravel_index(np.argmax(size), size.shape)
        pairs.append((int(i), int(j)))
    for i in _top_peaks(share_x, 3):
        for j in _top_peaks(share_y, 3):
            if ratio[i, j] < 0.3 and (i, j) not in pairs:
                pairs.append((i, j))
    if not pairs:
        pairs = _across_pairs(share_x, share_y, ratio)
    combs: list[Comb] = []
    for i, j in pairs[:7]:
        rx, ox = _refine(peaks_x, px[i], phase_x[i])
        ry, oy = _refine(peaks_y, py[j], phase_y[j])
        combs.append((rx, ox, ry, oy))
    # tiles laid askew or an arm across the board blur the outline's peaks, so a comb at twice the best
    # guess's pitch can fit worse than the guess itself: offer it too, at each of its four phases
    if not combs:
        return [], []
    rx, ox, ry, oy = combs[0]
    doubled: list[Comb] = []
    if 2 * min(rx, ry) < min(np.ptp(peaks_x[:, 0]), np.ptp(peaks_y[:, 0])):
        doubled = [(2 * rx, ox + a * rx, 2 * ry, oy + b * ry) for a in (0, 1) for b in (0, 1)]
    if square:
        combs += _square_combs(peaks_x, peaks_y, rx, ry)
    out: list[Comb] = []
    for rx, ox, ry, oy in combs:
        if not any(_same_comb(rx, ox, qx, qox) and _same_comb(ry, oy, qy, qoy) for qx, qox, qy, qoy in out):
            out.append((rx, ox, ry, oy))  # neighbouring combs often refine to the same grid: fit it once
    return out, doubled


def _square_combs(peaks_x: np.ndarray, peaks_y: np.ndarray, rx: float, ry: float) -> list[Comb]:
    """The best guess's pitch on either axis taken for both, each axis at its own best phase for it.

    Tiles are square, and where the rectification kept the board's aspect the pitch one axis's outline shows
    holds across too. Tiles laid apart or askew along the other axis smear its outline peaks, and then its
    own best comb can be at a wrong pitch (a 72-tile board's rows read at 0.8 of their pitch, a whole board
    lost); the outline fit judges these as it judges every guess, so a canvas whose aspect is off keeps its
    own pair. Tried only in the searches run again when the first fit is poor (`find_grid`): where the outline
    fits well, a square comb moved the fitted grid by a fraction of a pixel and nothing more.
    """
    if abs(np.log(rx / ry)) < 0.02:
        return []  # already square
    out: list[Comb] = []
    for p in (rx, ry):
        pitch = np.array([p])
        (_, (phase_x,)), (_, (phase_y,)) = _fits(peaks_x, pitch), _fits(peaks_y, pitch)
        out.append((*_refine(peaks_x, p, phase_x), *_refine(peaks_y, p, phase_y)))
    return out


def _across_pairs(share_x: np.ndarray, share_y: np.ndarray, ratio: np.ndarray) -> list[tuple[int, int]]:
    """Each axis's top pitches, paired with the other axis's best pitch within a square's reach of it.

    Used when no top pitch of one axis is near a top pitch of the other: a few tiles' sides laid askew
    smear one axis's outline peaks, so its best combs are at twice the pitch (every other side on the comb)
    and the board got no grid at all; the axis whose outline is clean still names the pitch.
    """
    near = ratio < 0.25
    pairs: list[tuple[int, int]] = []
    for i in _top_peaks(share_x, 3):
        if near[i].any():
            pairs.append((i, int(np.argmax(np.where(near[i], share_y, -1.0)))))
    for j in _top_peaks(share_y, 3):
        if near[:, j].any():
            pairs.append((int(np.argmax(np.where(near[:, j], share_x, -1.0))), j))
    pairs.sort(key=lambda ij: -(share_x[ij[0]] + share_y[ij[1]]))
    return list(dict.fromkeys(pairs))


def _pitches(longest: float) -> np.ndarray:
    """Pitches to try up to `longest`: PITCH_STEP apart, or a fixed share of the pitch for large tiles (a
    comb's tolerance grows with its pitch, so a finer step would find nothing new)."""
    out = [MIN_PITCH]
    while out[-1] + PITCH_STEP < longest:
        out.append(out[-1] + max(PITCH_STEP, PITCH_SHARE * out[-1]))
    return np.array(out)


def _same_comb(p: float, offset: float, q: float, other: float) -> bool:
    shift = abs(offset - other) % p
    return abs(p - q) < 0.01 * p and min(shift, p - shift) < 0.02 * p


def _top_peaks(values: np.ndarray, count: int) -> list[int]:
    """Indices of the highest local maxima."""
    is_peak = (values >= np.r_[values[1:], -np.inf]) & (values > np.r_[-np.inf, values[:-1]])
    idx = np.nonzero(is_peak)[0]
    return [int(i) for i in idx[np.argsort(-values[idx])][:count]]


def _outline_points(mask: np.ndarray, arm: np.ndarray | None = None) -> np.ndarray:
    """The board outline in image px, at most 6000 points, without its runs along an arm."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    kept = [c.reshape(-1, 2) for c in contours if len(c) >= 8]
    if arm is not None:
        # each run kept whole (the fit reads a run's direction from its neighbouring points)
        kept = [run for c in kept for run in _runs_outside(c, arm) if len(run) >= 8]
    if not kept:
        return np.zeros((0, 2))
    pts = np.vstack(kept).astype(np.float64)
    return pts[:: max(1, len(pts) // 6000)]


def _runs_outside(points: np.ndarray, arm: np.ndarray) -> list[np.ndarray]:
    """The stretches of a closed outline that stay off the arm."""
    off = ~arm[points[:, 1], points[:, 0]]
    if off.all():
        return [points]
    start = int(np.argmin(off))  # roll so the outline starts on the arm: no run wraps around
    points, off = np.roll(points, -start, axis=0), np.roll(off, -start)
    edges = np.flatnonzero(np.diff(np.r_[0, off.astype(np.int8), 0]))
    return [points[a:b] for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _fit_outline(to_board: np.ndarray, pts: np.ndarray, rounds: int = 4, sample: int = 0
                 ) -> tuple[np.ndarray, float]:
    """Refines image -> board units so the board's outline falls on integer grid lines.

    Each outline point on a side running along y must have an integer u (and along x an integer v);
    both conditions are linear in the homography, so a few rounds of least squares pull a slightly
    wrong perspective or pitch onto the outline of the whole board. Notches and tiles laid askew pull a
    least-squares fit too, so the tolerance tightens round by round and the round whose grid the most
    outline points lie on wins (the start included). Returns the homography and that share of outline
    points within 2 px (or SLOP) of a grid line.
    """
    if len(pts) < 16:
        return to_board, 0.0
    if sample and len(pts) > sample:
        pts = pts[:: len(pts) // sample]
    p, norm, f = _normalised(pts)
    current = to_board @ np.linalg.inv(norm)
    state = _Fit(p, current, 2.0 / f)
    best, extent = (state.share, current), state.extent
    for k in range(rounds):
        uv, along_x, along_y = state.uv, state.along_x, state.along_y
        n, m = np.round(uv[:, 0]), np.round(uv[:, 1])
        tol = FIT_TOLERANCES[min(k, len(FIT_TOLERANCES) - 1)]
        use_u = along_y & (np.abs(uv[:, 0] - n) < tol)
        use_v = along_x & (np.abs(uv[:, 1] - m) < tol)
        if use_u.sum() < 4 or use_v.sum() < 4:
            break
        # rows [p, 0, -n p] for u, [0, p, -m p] for v, each family weighted equally so a long board does not
        # starve the short axis
        pu, pv = p[use_u], p[use_v]
        a = np.zeros((len(pu) + len(pv), 9))
        wu, wv = np.sqrt(len(pu)), np.sqrt(len(pv))
        a[:len(pu), :3], a[:len(pu), 6:] = pu / wu, -n[use_u, None] * pu / wu
        a[len(pu):, 3:6], a[len(pu):, 6:] = pv / wv, -m[use_v, None] * pv / wv
        solution = np.linalg.svd(a.T @ a)[2][-1].reshape(3, 3)
        if abs(np.linalg.det(solution)) < 1e-12:
            break
        if solution[2, 2] * current[2, 2] < 0:
            solution = -solution
        current = solution / np.linalg.norm(solution) * np.linalg.norm(current)
        state = _Fit(p, current, 2.0 / f)
        if not np.all(np.abs(np.log(state.extent / extent)) < 0.2):
            break  # the fit collapses the board onto a few lines (every point then lies on one): no refinement
        if state.share > best[0]:
            best = (state.share, current)
    return best[1] @ norm, best[0]


def _normalised(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Image points as homogeneous rows centred on their span and scaled by its larger side (a well-conditioned
    least-squares fit), the map image -> those units, and that side in image px."""
    span = np.ptp(pts, axis=0)
    f = float(max(span.max(), 1.0))
    centre = pts.min(axis=0) + span / 2
    norm = np.array([[1 / f, 0, -centre[0] / f], [0, 1 / f, -centre[1] / f], [0, 0, 1]])
    return np.c_[pts, np.ones(len(pts))] @ norm.T, norm, f


class _Fit:
    """Outline points (normalised image units) under a homography: their grid coordinates, which run along
    x or y, which lie within `tol` (or SLOP) of their grid line, that share, and the board's extent in grid units."""

    def __init__(self, p: np.ndarray, h: np.ndarray, tol: float) -> None:
        self.uv, self.along_x, self.along_y = _on_grid(p, h)
        uv, w = self.uv, p @ h[2]
        # grid units moved by a `tol` step in the picture, per axis (the map's derivative there): a residual
        # below that is within `tol` of the line
        reach_u = tol * np.hypot(h[0, 0] - uv[:, 0] * h[2, 0], h[0, 1] - uv[:, 0] * h[2, 1]) / np.abs(w)
        reach_v = tol * np.hypot(h[1, 0] - uv[:, 1] * h[2, 0], h[1, 1] - uv[:, 1] * h[2, 1]) / np.abs(w)
        # tiles sit a few percent off their grid line, which matters more than 2 px on large tiles
        ok_u = self.along_y & (np.abs(uv[:, 0] - np.round(uv[:, 0])) < np.maximum(reach_u, SLOP))
        ok_v = self.along_x & (np.abs(uv[:, 1] - np.round(uv[:, 1])) < np.maximum(reach_v, SLOP))
        self.ok_u, self.ok_v = ok_u, ok_v
        straight = (self.along_x | self.along_y).sum()
        self.straight = int(straight)
        self.share = float((ok_u.sum() + ok_v.sum()) / straight) if straight else 0.0
        low, high = _percentiles(uv[::4], (1.0, 99.0))
        self.extent = np.maximum(high - low, 1e-9)


def _percentiles(values: np.ndarray, q: tuple[float, float]) -> np.ndarray:
    """`np.percentile(values, q, axis=0)` (its linear method), bit for bit, without its overhead: an outline fit
    runs some 40 times a picture. NaN anywhere goes to numpy itself."""
    if np.isnan(values).any():
        return np.percentile(values, q, axis=0)
    n = len(values)
    virtual = (n - 1) * (np.asarray(q, np.float64) / 100)
    below = np.floor(virtual).astype(np.intp)
    above = np.minimum(below + 1, n - 1)
    ordered = np.partition(values, np.unique(np.r_[below, above]), axis=0)
    a, b = ordered[below], ordered[above]
    t = (virtual - below)[:, None]
    diff = b - a
    # numpy's lerp: from the lower value below the middle of the gap, from the upper one above it
    return np.where(t >= 0.5, b - diff * (1 - t), a + diff * t)


def _on_grid(p: np.ndarray, h: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Board coordinates of outline points and which run along x or along y there."""
    uv = p @ h.T
    uv = uv[:, :2] / uv[:, 2:]
    tangent = np.concatenate([uv[3:], uv[:3]]) - np.concatenate([uv[-3:], uv[:-3]])  # np.roll by -3 and 3
    along_y = np.abs(tangent[:, 1]) > 2.5 * np.abs(tangent[:, 0])
    along_x = np.abs(tangent[:, 0]) > 2.5 * np.abs(tangent[:, 1])
    return uv, along_x, along_y


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
