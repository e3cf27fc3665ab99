"""Picture -> board: grid, rectified board, meeples, structure reading, catalog matching, JSON-ready output.

Cells: when `start_cell` is None they count from the top-left corner of the laid tiles' bounding
box ([0, 0] is the leftmost column and the topmost row, which may be an empty cell); x grows to
the east (image right), y to the south (image down). A caller that knows where the start tile lies
in that frame passes it as `start_cell`, and cells then count from the start tile, as the engine
does; `align_to_board` finds that offset (and a quarter-turn of the whole board) from a known board.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.table import table_distance
from vision.tiles import verifier
from vision.tiles.catalog import GAME_TILES, TILES
from vision.tiles.grid import MANY_CELLS, Grid, find_grid
from vision.tiles.matcher import Reading, catalog_fit, match_board
from vision.tiles.meeples import (
    CANDIDATE_DISTANCES,
    Blob,
    Calibration,
    _foot_in,
    feature_at,
    find_meeples,
    in_calibration_light,
    labelled,
    painted,
)
from vision.tiles.meeples import _distance as colour_distance
from vision.tiles.reader import PATCH, blue_lead, blue_mask, box_sum, field_threshold, green_lead, integral, read_tiles
from vision.tiles.register import rim_shifts, tile_shift

Cell = tuple[int, int]
MEEPLE_REACH = 0.3  # tiles: how far a standing meeple's outline may stick out of its tile
# tiles into the laid squares that the rim cut takes the table away too: none. A figure on a rim tile's cap city
# stands 0.14 tile in and crosses the square's side at its waist; a band taken away there (0.06 until round 26)
# cut it in two, the part over the tile too thin for a candidate. Table showing in a square is a thin strip.
TABLE_EDGE = 0.0
RIM_BAND = 0.45  # tiles: how far in from the rim a meeple standing over it reaches
RIM_LIKE = CANDIDATE_DISTANCES[1]  # Lab units (as the candidates measure) from the table: a colour cut again by the rim
# a board of n tiles spans at most n + 1 cells across and down together; a grid whose candidates span twice the
# game's tiles (`GAME_TILES`; phantom specks may lie a little off the board) is broken, and its thousands of slivers
# no reading
MEEPLE_BLUE = 0.8  # share of a blue patch under a meeple's blob (and none beyond its rim): the patch is that meeple
LEGS = 0.3  # share of a figure's height (in the picture) that its legs take, from its lowest row up
SHIELD_BESIDE = 0.005  # tiles squared: a lopsided part of a shield-blue blob this large is a shield beside the figure
# tiles: a foot this near a tile's corner along both axes is the gap where four tiles meet (dark table, a shadow);
# a player's figure stands on the feature, its base (0.27 tile wide) on one tile: true feet lie 0.11 or more off
CORNER = 0.1
# rectified px (PATCH 48) of a shield's blue patch at least, where a shield alone shows a tile: a painted shield covers
# 25 px or more; the colour fringe where dark table meets a tile's side, 9-21 (tune-clear seeds 1000000-1000359)
SHIELD_PX = 16
# mean log-fit by which the cells of another grid the picture allows must read more like catalog tiles than the
# grid's own (`_read_as`; session 44, the small tuning sets and 18 lone tuning tiles whose combs split them: other
# grids of true boards read 0.7 to 26 worse, and the true grid among the others 4.4 to 21 better)
OTHER_FIT = 3.0
# mean log-fit of a grid's own cells from which no other grid is looked for (session 45, the four small tuning sets:
# every other grid taken was taken from a grid that read -10.6 or worse; 17 of 772 kept grids read under -6)
OWN_SURE = -6.0
RIM_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))  # the px round a figure it hides too
ROOF_AREA = 0.029  # tiles squared: a figure on a monastery this small may be the roof's paint (`_not_roofs`; chosen
# on the tuning sets between a roof's blob of 0.028 and a red meeple's of 0.0295, both scored under the verifier's bar)


def predict(image: np.ndarray, start_cell: tuple[int, int] | None = None,
            calibration: Calibration | None = None) -> dict[str, Any]:
    """{"tiles": [{"letter", "rotation", "cell", "corners", "confidence"}], "meeples": [{"colour", "cell",
    "feature"}]} for a BGR picture of the board."""
    if image is None or image.ndim != 3 or image.shape[2] != 3:
        raise ValueError("expected a BGR colour image (height x width x 3)")
    calibration = calibration or Calibration()
    image = in_calibration_light(image, calibration)
    grid = find_grid(image)
    if grid is None:
        return {"tiles": [], "meeples": []}
    grid = _read_as(image, grid)
    fits: list[float] = []
    readings, meeples, cells = read_board(image, grid, calibration, fits=fits)
    if grid.late and fits[0] < OWN_SURE:
        other = _taken(image, grid, _fit(image, grid))
        if other is not grid:
            grid = other
            readings, meeples, cells = read_board(image, grid, calibration)
    if not cells or len(cells) > MANY_CELLS * GAME_TILES:
        # more tiles than a game holds by half: no board, but combs at a fraction of the pitch whose every cell of art
        # read as a tile (`tune-small3.yaml` 144: a strip of two on a streaked table read as 254), and no grid offered
        # read better; a reading of no board tells the player what a wrong one would not
        return {"tiles": [], "meeples": []}
    return to_json(grid, readings, meeples, cells, start_cell)


def read_board(image: np.ndarray, grid: Grid, calibration: Calibration, trace: dict[str, Any] | None = None,
               fits: list[float] | None = None
               ) -> tuple[dict[Cell, Reading], list[tuple[str, Cell, str]], list[Cell]]:
    """Readings per cell (grid units) and meeples as (colour, cell, feature).

    `trace`, when given, receives the rectified board, the image -> board px homography and the meeple
    candidates, which is what training the meeple verifier needs.
    `fits`, when given, receives how like catalog tiles the cells read (`match_board`'s), at no cost beyond the
    reading (`predict`); -inf where no board could be drawn.
    """
    rectified = _rectified(image, grid)
    if rectified is None:
        if fits is not None:
            fits.append(-np.inf)
        return {}, [], []
    board, seen, to_patch, warp, (x0, y0) = rectified
    if trace is not None:
        trace["to_patch"] = to_patch
    to_patch = warp  # the figures' feet are taken back through the warp the board was drawn with
    not_field = _not_field(board, grid, x0, y0)
    blue = blue_mask(board)
    ny, nx = board.shape[0] // PATCH, board.shape[1] // PATCH
    box = [(i, j) for j in range(y0, y0 + ny) for i in range(x0, x0 + nx)]
    lab = cv2.cvtColor(board, cv2.COLOR_BGR2LAB)
    unlike_table = table_distance(lab, grid.table_lab) > grid.table_cut
    cells, blue_only = _confirmed(unlike_table, grid, box, seen, not_field, blue, x0, y0)
    origins = [((i - x0) * PATCH, (j - y0) * PATCH) for i, j in cells]
    # a meeple near a tile's edge stands over the gap and beyond: its head may lie off the laid tiles
    reach = near_cells(origins, board.shape[:2]) & seen
    # a meeple is the blob of its group whose foot stands on a tile (`meeples._distinct`); a cell only blue shows
    # may be a blue figure's head over the table, and its foot a hair beyond its own tile's side would stand there
    laid = set(cells) - blue_only

    def stands(blob: Blob) -> bool:
        return _locate(upright_foot(blob, to_patch), laid, x0, y0) is not None

    shown, shown_lab = _table_beyond(board, lab, seen, grid.table_lab)
    blobs = find_meeples(shown, reach, PATCH, calibration, trace, shown_lab, _off_table(grid, calibration, origins,
                                                                                        reach, unlike_table), stands)
    beside = np.zeros(board.shape[:2], np.uint8)  # shields that joined a meeple of their colour
    blobs = [_figure_only(blob, to_patch, beside) if _shield_blue(blob, blue) else blob for blob in blobs]
    figures = np.zeros(board.shape[:2], np.uint8)
    for blob in blobs:
        blob.paint(figures)
    hidden = cv2.dilate(figures, RIM_KERNEL) > 0
    beside |= _peeking(blue, hidden & (figures == 0), blobs)
    shields = _not_meeple(blue, hidden, blobs) | (beside > 0)
    # a tile at the rim is read where its sides show it against the table (an arm's rim, a figure, show no side)
    shifts = rim_shifts(unlike_table, seen & ~hidden, cells, x0, y0, grid.by_arm)
    read_at = [(ox + dx, oy + dy) for (ox, oy), (dx, dy) in
               zip(origins, (shifts.get(c, (0, 0)) for c in cells), strict=True)]
    features = dict(zip(cells, read_tiles(not_field, shields, ~hidden | (beside > 0), read_at,
                                          blue_lead(board), lab[..., 2]), strict=True))
    feet = [upright_foot(blob, to_patch) for blob in blobs]
    blobs, feet = _off_corners(blobs, feet, set(cells), x0, y0)
    blobs, feet = _one_per_tile(blobs, feet, set(cells), x0, y0)
    readings = match_board(features, _feet_by_cell(feet, set(cells), x0, y0, shifts), uncounted=grid.by_arm,
                           fits=fits)
    feet = _on_tiles(feet, readings, not_field, hidden, x0, y0)
    blobs, feet = _not_roofs(shown, shown_lab, blobs, feet, readings, calibration, x0, y0)
    meeples = _place_meeples(blobs, feet, readings, x0, y0)
    return readings, meeples, cells


def _table_beyond(
    board: np.ndarray, lab: np.ndarray, seen: np.ndarray, table_lab: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The board (BGR and Lab) with what lies beyond the picture painted the table's colour, for the meeples.

    The warp leaves it black, and the verifier's crop around a figure standing by a tile at the picture's edge took
    that black for paint joined to the figure (a black figure's above all); beyond the picture lies the table.
    """
    if seen.all():
        return board, lab
    return painted(board, lab, ~seen, np.clip(np.round(table_lab), 0, 255).astype(np.uint8))


def _not_meeple(blue: np.ndarray, hidden: np.ndarray, blobs: list[Blob]) -> np.ndarray:
    """The blue mask without a blue meeple's rim: the thin ring of its patch that its blob (as `hidden` grows
    it) leaves seen would read as a shield on a city without one. A patch is that meeple when its blob covers
    most of it and none of it lies more than a rim's width beyond; a shield beside the meeple does.

    Looked at around each blob only: a patch reaching past that box reaches past the rim, and stays.
    """
    out = blue
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    for blob in blobs:
        if blob.colour != "blue":
            continue  # only a blue figure has a blue rim; the blue beside any other is the shield it half hides
        x, y = blob.origin
        h, w = blob.crop.shape
        x0, y0 = max(0, x - 6), max(0, y - 6)
        x1, y1 = min(blue.shape[1], x + w + 6), min(blue.shape[0], y + h + 6)
        patch, under = out[y0:y1, x0:x1], hidden[y0:y1, x0:x1]
        n, labels = cv2.connectedComponents(patch.view(np.uint8))
        if n <= 1 or not under.any():
            continue
        rim = cv2.dilate(under.view(np.uint8), kernel) > 0
        # a patch reaching the box's side may reach on past the rim (another blob's rim lying there): it stays
        rim[[0, -1], :] = rim[:, [0, -1]] = False
        mostly = np.bincount(labels[under], minlength=n) > MEEPLE_BLUE * np.bincount(labels.ravel(), minlength=n)
        mostly &= np.bincount(labels[~rim], minlength=n) == 0
        mostly[0] = False
        if mostly.any():
            out = out.copy() if out is blue else out
            out[y0:y1, x0:x1] &= ~mostly[labels]
    return out


def _peeking(blue: np.ndarray, rim: np.ndarray, blobs: list[Blob]) -> np.ndarray:
    """(uint8) The shield blue in the rim the figures' hidden mask grows them by (`RIM_KERNEL`), beside figures that
    are not blue: a shield a knight stands in front of peeks out round its head by a px or two, which the grown mask
    hid (`tune5.yaml` 169: an S read T). A figure whose own paint reads shield blue (a blue one, or a black one lit
    navy: `tune-small8.yaml` 186, 0.94 of its px) has a blue rim of its own, so the rims of those are left out."""
    own = np.zeros(blue.shape, np.uint8)
    for blob in blobs:
        if blob.colour == "blue" or _blue_share(blob, blue) > 0.02:
            blob.paint(own)
    own = cv2.dilate(own, RIM_KERNEL) > 0
    return (blue & rim & ~own).view(np.uint8)


def _shield_blue(blob: Blob, blue: np.ndarray) -> bool:
    """Whether a blob is mostly shield blue (a blue meeple), so a shield beside it may have joined it."""
    return _blue_share(blob, blue) > 0.5


def _blue_share(blob: Blob, blue: np.ndarray) -> float:
    """The share of a blob's px that read shield blue."""
    x, y = blob.origin
    h, w = blob.crop.shape
    return float(blue[y:y + h, x:x + w][blob.crop].mean())


def _figure_only(blob: Blob, to_patch: np.ndarray, beside: np.ndarray) -> Blob:
    """The blob without a lopsided part of a shield's size: the figure alone, when a shield beside it joined it.

    A meeple is left-right symmetric as the camera sees it; a shield painted beside a meeple of its colour
    joins its blob, which then hides the shield from the tile's reading (a city read without its shield) and
    drags the foot. The blob is drawn as the picture shows it (the board's local affine undone), mirrored about
    its best axis, and what has no mirror image, if it holds a connected part of `SHIELD_BESIDE` or more, is
    taken off it and marked in `beside` (board px), where the tile's reading sees it as shield blue.
    """
    h, w = blob.crop.shape
    c = np.array([blob.origin[0] + w / 2, blob.origin[1] + h / 2])
    # board px -> picture px near the blob, at the board's own scale: the figure as the camera saw it
    seen = cv2.perspectiveTransform(np.array([[c, c + (1, 0), c + (0, 1)]], np.float64), np.linalg.inv(to_patch))[0]
    local = np.stack([seen[1] - seen[0], seen[2] - seen[0]], axis=1)
    local /= np.sqrt(abs(np.linalg.det(local)))
    side = int(2 * np.ceil(np.hypot(w, h))) + 4
    turn = np.hstack([local, (side / 2 - local @ np.array([w / 2, h / 2]))[:, None]])
    upright = cv2.warpAffine(blob.crop.view(np.uint8), turn, (side, side), flags=cv2.INTER_NEAREST) > 0
    # pixels shared with the mirror image about column k / 2, for every k: each row convolved with itself
    rows = upright[upright.any(axis=1)].astype(np.int32)
    overlap = sum((np.convolve(row, row) for row in rows), np.zeros(2 * side - 1, np.int64))
    core = upright & _mirrored(upright, int(np.argmax(overlap)))
    n, labels, stats, _ = cv2.connectedComponentsWithStats((upright & ~core).view(np.uint8))
    big = np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= SHIELD_BESIDE * PATCH * PATCH) + 1
    if len(big) == 0:
        return blob
    off = cv2.warpAffine(np.isin(labels, big).view(np.uint8), turn, (w, h),
                         flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP)
    figure = blob.crop & ~(off > 0)
    if not figure.any():
        return blob
    Blob(blob.colour, blob.foot, blob.origin, blob.crop & (off > 0)).paint(beside)
    px, py, pw, ph = cv2.boundingRect(figure.view(np.uint8))
    crop = figure[py:py + ph, px:px + pw]
    left, top = blob.origin[0] + px, blob.origin[1] + py
    return Blob(blob.colour, _foot_in(crop, left, top), (left, top), crop, blob.rule_ok)


def _mirrored(mask: np.ndarray, k: int) -> np.ndarray:
    """The mask mirrored left-right about column k / 2 (px columns; what falls outside is dropped)."""
    out = np.zeros_like(mask)
    w = mask.shape[1]
    src = k - np.arange(w)  # column x shows column k - x
    ok = (src >= 0) & (src < w)
    out[:, ok] = mask[:, src[ok]]
    return out


def _off_table(grid: Grid, calibration: Calibration, origins: list[tuple[int, int]], reach: np.ndarray,
               unlike_table: np.ndarray) -> tuple[np.ndarray, Calibration, np.ndarray]:
    """Where to look again for meeples coloured like the table, those colours, and the table taken away there.

    Such a meeple standing over the board's rim (black on dark cloth) joins the table into one blob too
    large for a meeple; without the table off the tiles (`TABLE_EDGE` into the squares) it stands apart, less
    its part over the table.
    """
    # the table within a candidate cut of the colour: the meeple and the table join into one blob at that cut
    like = {name: lab for name, lab in calibration.colours.items()
            if colour_distance(np.asarray(grid.table_lab, np.float32), np.asarray(lab, np.float32)) < RIM_LIKE}
    if not like:
        return reach, Calibration(like), np.zeros_like(reach)
    # px from the nearest px off the tiles: the table's rim, and the band along it where such a meeple stands
    off = cv2.distanceTransform(near_cells(origins, reach.shape, 0.0).view(np.uint8), cv2.DIST_L2, 3)
    table = reach & (off <= round(TABLE_EDGE * PATCH)) & ~unlike_table
    return reach & (off <= RIM_BAND * PATCH) & ~table, Calibration(like), table


def near_cells(origins: list[tuple[int, int]], shape: tuple[int, int], reach: float = MEEPLE_REACH) -> np.ndarray:
    """Board px within `reach` tiles of a laid tile: the tiles' squares (top-left px `origins`) dilated by a disc.

    The same as dilating the mask of the squares (OpenCV's elliptic kernel, nothing beyond the border),
    stamped square by square: every square dilates alike, so one dilated square is computed.
    """
    r = round(reach * PATCH)
    stamp = cv2.dilate(np.pad(np.ones((PATCH, PATCH), np.uint8), r),
                       cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))) > 0
    out = np.zeros((shape[0] + 2 * r, shape[1] + 2 * r), bool)
    for x, y in origins:
        out[y:y + PATCH + 2 * r, x:x + PATCH + 2 * r] |= stamp
    return out[r:r + shape[0], r:r + shape[1]]


def _confirmed(unlike_table: np.ndarray, grid: Grid, box: list[Cell], seen: np.ndarray, not_field: np.ndarray,
               blue: np.ndarray, x0: int, y0: int) -> tuple[list[Cell], set[Cell]]:
    """Cells that hold a tile: some field or shield, or (for the grid's own candidates) mostly unlike the table;
    and those of them beyond the grid's candidates that a shield alone shows, which may be a blue figure's head
    standing over the table (no foot is taken to stand there: `read_board`'s `stands`).

    Colour alone confuses a city-covered tile with a wooden table, and a hole in the board with a
    tile; fields and shields settle most cases (a lone C on a table of its colour is still lost).
    """
    a, b = int(0.12 * PATCH), int(0.88 * PATCH)
    ox = np.array([(i - x0) * PATCH for i, _ in box])
    oy = np.array([(j - y0) * PATCH for _, j in box])
    area = float((b - a) ** 2)

    def share(mask: np.ndarray) -> np.ndarray:
        return box_sum(integral(mask), ox, oy, a, a, b, b) / area

    # a grey table under a green cast is no field, a blue cloth no shield
    grass = share(~not_field & unlike_table)
    blue_all = share(blue)
    # a shield is a patch of blue: single pixels of a dark blue cloth under uneven light are none
    shields = cv2.morphologyEx((blue & unlike_table).view(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) > 0
    shield = np.where(blue_all < 0.3, share(shields), 0.0)
    unlike = share(unlike_table)
    whole = share(seen) >= 0.95  # not partly outside the picture
    candidates = set(grid.cells)
    mine = np.array([cell in candidates for cell in box])
    shown = np.where(mine, (grass > 0.04) | (unlike > 0.6), grass > 0.05)  # a tile shown by more than a shield
    by_shield = np.where(mine, shield > 0.003, shield > 0.006) & ~shown
    for k in np.flatnonzero(by_shield):  # few cells: their largest patch, where the shield alone would tell
        by_shield[k] = _largest_patch(shields, ox[k] + a, oy[k] + a, b - a) >= SHIELD_PX
    found = shown | by_shield
    # skin is unlike the table and its rim blends into blue cloth: where an arm lies, only field shows a tile
    found &= np.array([cell not in grid.under_arm for cell in box]) | (grass > 0.05)
    keep = whole & found
    blue_only = keep & ~mine & (grass <= 0.05)
    return ([cell for cell, k in zip(box, keep, strict=True) if k],
            {cell for cell, k in zip(box, blue_only, strict=True) if k})


def _largest_patch(mask: np.ndarray, x: int, y: int, side: int) -> int:
    """Pixels of the largest 8-connected patch of `mask` in a square of it."""
    n, _, stats = labelled(mask[y:y + side, x:x + side].view(np.uint8))
    return int(stats[1:, cv2.CC_STAT_AREA].max()) if n > 1 else 0


def _rectified(image: np.ndarray, grid: Grid) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Cell] | None:
    """The board warped to PATCH px a cell, with one ring of cells beyond the grid's candidates (a tile coloured
    like the table may sit there), what of it the picture shows, image px -> board px, the warp it was drawn with
    (from the picture shrunk first where tiles are large: `_prefiltered`), and the ring's top-left cell; None where
    the candidates span more cells than any board (a broken grid)."""
    xs = [c[0] for c in grid.cells]
    ys = [c[1] for c in grid.cells]
    x0, y0 = min(xs) - 1, min(ys) - 1
    nx, ny = max(xs) - x0 + 2, max(ys) - y0 + 2
    if nx + ny - 4 > 2 * GAME_TILES:
        return None
    to_patch = np.array([[PATCH, 0, -x0 * PATCH], [0, PATCH, -y0 * PATCH], [0, 0, 1]]) @ grid.to_board
    source, warp = _prefiltered(image, to_patch)
    board = cv2.warpPerspective(source, warp, (nx * PATCH, ny * PATCH), flags=cv2.INTER_LINEAR)
    seen = cv2.warpPerspective(np.full(source.shape[:2], 255, np.uint8), warp, (nx * PATCH, ny * PATCH)) > 0
    return board, seen, to_patch, warp, (x0, y0)


def _not_field(board: np.ndarray, grid: Grid, x0: int, y0: int) -> np.ndarray:
    """What is no field on the rectified board, at the split its candidate cells' green lead gives."""
    lead = green_lead(board)
    inside = np.zeros(board.shape[:2], bool)
    for i, j in grid.cells:
        inside[(j - y0) * PATCH:(j - y0 + 1) * PATCH, (i - x0) * PATCH:(i - x0 + 1) * PATCH] = True
    return lead <= field_threshold(lead[inside][::7])


def _read_as(image: np.ndarray, grid: Grid) -> Grid:
    """The grid, or the other grid the picture allows (`Grid.others`) whose cells read most like catalog tiles
    (`matcher.catalog_fit`, the mean over cells), where they do by OTHER_FIT more than the grid's own.

    A few tiles in strong perspective can look as squarish as one, a strip's seams and gaps can mislead its count,
    and a small grid at twice the tiles' pitch fits their outline as well: read through a cell spanning two tiles,
    or half of one, the art is like no tile, and read through the tiles as they lie, each is one (session 44). A
    grid whose own cells read as tiles (OWN_SURE) keeps them, and the others are not looked for (session 45). A grid
    of many cells (`Grid.late`), most often a true board, is judged after its reading instead (`predict`, session
    46)."""
    if grid.offers is None or grid.late:
        return grid
    return _taken(image, grid, _fit(image, grid))


def _taken(image: np.ndarray, grid: Grid, own: float) -> Grid:
    """The grid, or the other grid the picture allows whose cells read by OTHER_FIT more like catalog tiles than
    its own (`own`, as `_fit` reads them), where those read under OWN_SURE; one offered `only_sure` must read as
    tiles itself."""
    if own >= OWN_SURE or not grid.others:
        return grid
    fits = [_fit(image, other) for other in grid.others]
    fits = [-np.inf if other.only_sure and fit < OWN_SURE else fit
            for other, fit in zip(grid.others, fits, strict=True)]
    best = int(np.argmax(fits))
    return grid.others[best] if fits[best] >= own + OTHER_FIT else grid


def _fit(image: np.ndarray, grid: Grid) -> float:
    """The mean over the grid's candidate cells of how much like a catalog tile each reads (`catalog_fit`)."""
    rectified = _rectified(image, grid)
    if rectified is None:
        return -np.inf
    board, seen, _, _, (x0, y0) = rectified
    origins = [((i - x0) * PATCH, (j - y0) * PATCH) for i, j in grid.cells]
    features = read_tiles(_not_field(board, grid, x0, y0), blue_mask(board), seen, origins, blue_lead(board),
                          cv2.cvtColor(board, cv2.COLOR_BGR2LAB)[..., 2])
    return float(np.mean(catalog_fit(dict(zip(grid.cells, features, strict=True)))))


def _prefiltered(image: np.ndarray, to_patch: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Shrinks the picture first when tiles are much larger than PATCH, so warping does not alias."""
    jac = np.linalg.inv(to_patch)
    centre = jac @ np.array([PATCH / 2, PATCH / 2, 1.0])
    side = np.linalg.norm((jac @ np.array([PATCH * 1.5, PATCH / 2, 1.0]))[:2] / (jac @ np.array(
        [PATCH * 1.5, PATCH / 2, 1.0]))[2] - centre[:2] / centre[2])
    factor = side / PATCH  # image px per board px
    if factor <= 2.0:
        return image, to_patch
    shrink = 1.5 / factor
    small = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    return small, to_patch @ np.diag([1 / shrink, 1 / shrink, 1.0])


def upright_foot(blob: Blob, to_patch: np.ndarray) -> tuple[float, float]:
    """Board px under the figure's feet: the middle of its legs (`LEGS`) at its lowest row, as the camera sees it.

    A meeple stands upright in the picture, not on the rectified board, where perspective and a
    turned board tilt its base; the lowest board row would be one leg's tip. So would the lowest picture rows
    of a figure squashed wide and short by the perspective (round 28 took the lowest 0.15 of its height: a foot
    0.12 tile to one side, off a road or a cap onto the field beside); both legs together straddle the foot.
    """
    ys, xs = np.nonzero(blob.crop)
    pts = np.stack([xs + blob.origin[0], ys + blob.origin[1]], axis=1).astype(np.float64)  # pixel centres
    img = cv2.perspectiveTransform(pts[None], np.linalg.inv(to_patch))[0]
    top, bottom = img[:, 1].min(), img[:, 1].max()
    low = img[:, 1] >= bottom - max(1e-6, LEGS * (bottom - top))
    base = np.array([[[img[low, 0].mean(), bottom]]])
    fx, fy = cv2.perspectiveTransform(base, to_patch)[0, 0]
    return (float(fx), float(fy))


def _one_per_tile(blobs: list[Blob], feet: list[tuple[float, float]], cells: set[Cell], x0: int, y0: int
                  ) -> tuple[list[Blob], list[tuple[float, float]]]:
    """The surest meeple on each tile: a meeple is only ever put on the tile just laid, one a turn.

    `blobs` come surest first (`find_meeples`); a second one on a tile is a piece of the first (its head,
    a shadow) or paint the verifier let through, and its foot would also mislead the tile's reading.
    """
    taken: set[Cell] = set()
    kept: list[int] = []
    for k, foot in enumerate(feet):
        located = _locate(foot, cells, x0, y0)
        if located is not None and located[0] in taken:
            continue
        if located is not None:
            taken.add(located[0])
        kept.append(k)
    return [blobs[k] for k in kept], [feet[k] for k in kept]


def _off_corners(blobs: list[Blob], feet: list[tuple[float, float]], cells: set[Cell], x0: int, y0: int
                 ) -> tuple[list[Blob], list[tuple[float, float]]]:
    """The blobs whose foot stands off every tile's corner (`CORNER`): where four tiles meet, the gaps between
    them show dark table or a shadow (mostly black candidates, a yellow one on pale wood) that the verifier may
    pass; no player stands a figure there. Dropped before `_one_per_tile`, so the tile's next candidate counts."""
    kept = [k for k, foot in enumerate(feet) if not _on_corner(_locate(foot, cells, x0, y0))]
    return [blobs[k] for k in kept], [feet[k] for k in kept]


def _on_corner(located: tuple[Cell, float, float] | None) -> bool:
    """Whether a located foot (cell, unit point) lies within `CORNER` of its tile's corner along both axes."""
    if located is None:
        return False
    _, u, v = located
    return max(min(u, 1.0 - u), min(v, 1.0 - v)) < CORNER


def _feet_by_cell(feet: list[tuple[float, float]], cells: set[Cell], x0: int, y0: int,
                  shifts: dict[Cell, tuple[int, int]]) -> dict[Cell, list[tuple[float, float]]]:
    """Each foot as a unit point of the tile it stands in (the tile it is placed on, as `_place_meeples`), on the
    tile as it is read (`shifts`: board px from a cell to where its tile is read, `register.rim_shifts`)."""
    out: dict[Cell, list[tuple[float, float]]] = {}
    for foot in feet:
        located = _locate(foot, cells, x0, y0)
        if located is not None:
            cell, u, v = located
            dx, dy = shifts.get(cell, (0, 0))
            out.setdefault(cell, []).append((u - dx / PATCH, v - dy / PATCH))
    return out


def _locate(foot: tuple[float, float], cells: set[Cell] | dict[Cell, Reading], x0: int, y0: int
            ) -> tuple[Cell, float, float] | None:
    """The cell a foot (board px) stands in and its unit point there; feet a touch below a tile's edge count."""
    fx, fy = foot[0] / PATCH, foot[1] / PATCH
    cell = (int(np.floor(fx)) + x0, int(np.floor(fy)) + y0)
    if cell not in cells:
        cell = (cell[0], int(np.floor(fy - 0.15)) + y0)
        if cell not in cells:
            return None
    return cell, fx - (cell[0] - x0), min(fy - (cell[1] - y0), 0.999)


def _not_roofs(board: np.ndarray, lab: np.ndarray, blobs: list[Blob], feet: list[tuple[float, float]],
               readings: dict[Cell, Reading], calibration: Calibration, x0: int, y0: int
               ) -> tuple[list[Blob], list[tuple[float, float]]]:
    """The figures, less those standing on a monastery that are smaller than a figure there (`ROOF_AREA`) and that
    the verifier, asked again with the calibrated colours, does not take for a meeple (`verifier.THRESHOLD`). A
    monastery's roof is a patch of paint in the middle of its tile, red like a red meeple in several editions, and
    the second chances a figure gets (a rim cut, the colour the board shows its sure meeples in, a second cut) let
    part of it through. The verifier alone cannot tell them: on the tuning sets it scored 6 roofs taken for meeples
    under its threshold (0.28-0.64), and 3 red meeples standing on monasteries too (0.25-0.62), whose blobs were
    larger (0.0295-0.047 tile squared against the roofs' 0.014-0.032)."""
    model = verifier.load()
    on = [k for k, foot in enumerate(feet)
          if blobs[k].crop.sum() < ROOF_AREA * PATCH * PATCH
          and (under := _feature_under(foot, readings, x0, y0)) is not None and under[1] == "monastery"]
    if model is None or not on:
        return blobs, feet
    scores = verifier.scores(model, board, [blobs[k] for k in on], PATCH, calibration, lab)
    roofs = {k for k, score in zip(on, scores, strict=True) if score < verifier.THRESHOLD}
    return [b for k, b in enumerate(blobs) if k not in roofs], [f for k, f in enumerate(feet) if k not in roofs]


def _feature_under(foot: tuple[float, float], readings: dict[Cell, Reading], x0: int, y0: int
                   ) -> tuple[Cell, str] | None:
    """The cell a foot stands on and the feature there, as the tile there was read; None off the read tiles."""
    located = _locate(foot, readings, x0, y0)
    if located is None:
        return None
    cell, u, v = located
    reading = readings[cell]
    return cell, feature_at(reading.letter, reading.rotation, u, v)


def _on_tiles(feet: list[tuple[float, float]], readings: dict[Cell, Reading], not_field: np.ndarray,
              hidden: np.ndarray, x0: int, y0: int) -> list[tuple[float, float]]:
    """Each foot moved as its tile lies off its cell (`register.tile_shift`), so that the feature under it is
    looked up where the tile has it; a foot on no read tile stays."""
    moved = []
    for foot in feet:
        located = _locate(foot, readings, x0, y0)
        if located is None:
            moved.append(foot)
            continue
        cell = located[0]
        reading = readings[cell]
        dx, dy = tile_shift(not_field, hidden, reading.letter, reading.rotation,
                            ((cell[0] - x0) * PATCH, (cell[1] - y0) * PATCH))
        moved.append((foot[0] - dx, foot[1] - dy))
    return moved


def _place_meeples(blobs: list[Blob], feet: list[tuple[float, float]], readings: dict[Cell, Reading], x0: int,
                   y0: int) -> list[tuple[str, Cell, str]]:
    placed: list[tuple[str, Cell, str]] = []
    for blob, foot in zip(blobs, feet, strict=True):
        under = _feature_under(foot, readings, x0, y0)
        if under is not None:
            placed.append((blob.colour, *under))
    return placed


def to_json(grid: Grid, readings: dict[Cell, Reading], meeples: list[tuple[str, Cell, str]], cells: list[Cell],
            start_cell: tuple[int, int] | None) -> dict[str, Any]:
    x0 = min(c[0] for c in cells)
    y0 = min(c[1] for c in cells)
    ox, oy = (x0, y0) if start_cell is None else (x0 + start_cell[0], y0 + start_cell[1])
    tiles = []
    for cell in sorted(readings, key=lambda c: (c[1], c[0])):
        r = readings[cell]
        tiles.append({
            "letter": r.letter,
            "rotation": r.rotation,
            "cell": [cell[0] - ox, cell[1] - oy],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in grid.corners(cell)],
            "confidence": round(r.confidence, 3),
        })
    out_meeples = [{"colour": colour, "cell": [c[0] - ox, c[1] - oy], "feature": feature}
                   for colour, c, feature in meeples]
    return {"tiles": tiles, "meeples": out_meeples}


def align_to_board(prediction: dict[str, Any], known: dict[Cell, tuple[str, int]]) -> tuple[Cell, int] | None:
    """The start-tile offset and whole-board quarter turn that best fit tiles the game already has.

    Returns (start_cell in the prediction's frame, board turn in degrees) or None when nothing fits;
    the caller then re-runs `predict(image, start_cell=...)` (turns other than 0 mean the camera looks
    at the board from another side).
    """
    seen = {tuple(t["cell"]): (t["letter"], t["rotation"]) for t in prediction["tiles"]}
    if not seen or not known:
        return None
    best: tuple[int, Cell, int] | None = None
    for turn in (0, 90, 180, 270):
        turned = {_turn_cell(c, turn): (letter, _turn_rotation(letter, rot, turn))
                  for c, (letter, rot) in known.items()}
        for anchor in seen:
            for ref in turned:
                dx, dy = anchor[0] - ref[0], anchor[1] - ref[1]
                hits = sum(seen.get((c[0] + dx, c[1] + dy)) == v for c, v in turned.items())
                if best is None or hits > best[0]:
                    best = (hits, (dx + _turn_cell((0, 0), turn)[0], dy + _turn_cell((0, 0), turn)[1]), turn)
    return None if best is None or best[0] == 0 else (best[1], best[2])


def _turn_cell(cell: Cell, turn: int) -> Cell:
    x, y = cell
    for _ in range(turn // 90):
        x, y = -y, x
    return (x, y)


def _turn_rotation(letter: str, rotation: int, turn: int) -> int:
    from vision.tiles.catalog import canonical_rotation

    return canonical_rotation(letter, (rotation + turn) % 360)


__all__ = ["predict", "read_board", "to_json", "align_to_board", "TILES"]
