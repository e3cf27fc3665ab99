"""Sixteenth round (issue 7): grids at twice the tiles' pitch and lone tiles with a meeple over the edge, on the
tuning set drawn for it (`tune3.yaml`, the held-out-3 recipe with the pastel style) and the older ones."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.commands.tiles_eval import load_config
from vision.tiles.catalog import canonical_rotation
from vision.tiles.evaluate import Tally, _score, draw_scene
from vision.tiles.grid import FINER_EXTRA, Grid, _extra_lines, find_grid
from vision.tiles.meeples import Calibration
from vision.tiles.outline_fit import _outline_points
from vision.tiles.pipeline import GAME_TILES, predict, read_board

SETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"
TILE = 60  # px a tile in the drawn outlines


def _board_mask(cells: list[tuple[int, int]], gap: int = 0, shift: dict | None = None) -> np.ndarray:
    """A mask of square tiles TILE px wide at their cells (1 px = 1 image px), each `gap` px smaller all round
    and moved by `shift[cell]` px."""
    mask = np.zeros((12 * TILE, 12 * TILE), np.uint8)
    for i, j in cells:
        dx, dy = (shift or {}).get((i, j), (0, 0))
        x, y = (i + 2) * TILE + dx, (j + 2) * TILE + dy
        mask[y + gap:y + TILE - gap, x + gap:x + TILE - gap] = 1
    return mask > 0


def test_the_outline_along_the_lines_midway_tells_a_grid_at_twice_the_pitch() -> None:
    """An 8-tile board (tune3.yaml 197's shape), tiles laid a little apart and off their squares: on the true grid
    no outline lies midway between its lines; on the grid at twice the pitch a third of it does."""
    cells = [(0, 0), (0, 1), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (3, 0)]
    rng = np.random.default_rng(4)
    shift = {c: tuple(int(v) for v in rng.integers(-2, 3, 2)) for c in cells}
    outline = _outline_points(_board_mask(cells, gap=1, shift=shift))
    true = np.array([[1 / TILE, 0, -2], [0, 1 / TILE, -2], [0, 0, 1]], np.float64)
    doubled = np.diag([0.5, 0.5, 1.0]) @ true
    assert _extra_lines(true, outline, 2) < 0.03
    assert _extra_lines(doubled, outline, 2) > 2 * FINER_EXTRA


@pytest.mark.parametrize("name,index,why", [
    ("tune3.yaml", 197, "8 modern tiles laid apart: twice the pitch fits the outline as well, at its looser tolerance"),
    ("tune3.yaml", 157, "8 flat tiles on a blue cloth: the same"),
    ("tune3.yaml", 17, "8 pastel tiles read at about three times the pitch (no multiple: no midway lines show)"),
])
def test_boards_read_at_two_or_three_times_the_pitch_are_read_at_it(name: str, index: int, why: str) -> None:
    """Each of the 8 tiles is read in a cell of its own, at its corners (before: 2 cells of 2 x 2 tiles, or one)."""
    scene, calibration, _ = draw_scene(load_config(SETS / name, None), index)
    tiles = predict(scene.image, calibration=calibration)["tiles"]
    assert len(tiles) == len(scene.corners) == 8, why
    for quad in scene.corners.values():
        quad = np.asarray(quad, np.float64)
        side = np.sqrt(cv2.contourArea(quad.astype(np.float32)))
        # each true corner to the nearest of a read tile's (the grid may number them from another corner)
        off = min(np.linalg.norm(quad[:, None] - np.asarray(t["corners"])[None], axis=2).min(axis=1).max()
                  for t in tiles)
        assert off < 0.25 * side, why  # tiles lie a little off their grid squares; a cell of 2 x 2 tiles is off by 1


@pytest.mark.parametrize("head,size", [((0.3, 0.0), (22, 30)), ((0.5, 0.0), (35, 50)), ((0.7, 0.0), (35, 50)),
                                       ((1.0, 0.5), (35, 50))])
def test_a_lone_tile_with_a_bulge_over_one_side_is_one_tile_at_its_corners(head: tuple[float, float],
                                                                          size: tuple[int, int]) -> None:
    """A meeple's head over a lone tile's side bulges its outline out of square (the second case raised a
    ValueError in the general search before round 16: a rectification that failed was multiplied out)."""
    side = 240
    image = np.full((600, 600, 3), (110, 110, 110), np.uint8)  # a grey table
    corners = np.array([[180, 170], [180 + side, 180], [170 + side, 180 + side], [170, 170 + side]], np.int32)
    cv2.fillConvexPoly(image, corners, (70, 150, 90))  # a field tile, a little turned
    centre = (int(corners[0, 0] + head[0] * side), int(corners[0, 1] + head[1] * side))
    cv2.ellipse(image, centre, size, 0, 0, 360, (40, 40, 200), -1)  # a red head, half beyond the side
    noise = np.random.default_rng(1).normal(0, 4, image.shape)  # a camera's grain (a flat square shows no edge
    image = np.clip(image + noise, 0, 255).astype(np.uint8)  # at all, and would pass for four tiles laid tight)
    grid = find_grid(image)
    assert grid is not None and grid.cells == [(0, 0)]
    assert np.abs(grid.corners((0, 0)) - corners).max() < 0.03 * side


@pytest.mark.parametrize("name,index", [
    ("tune3.yaml", 236),  # pastel, white table: the head over the top side, a pale road notching the tile
    ("tune3.yaml", 112),  # painted, a large yellow meeple over the top side
    ("tune2.yaml", 216),  # painted in strong perspective: once a degenerate grid of 7529 slivers
    ("tune.yaml", 124),  # painted, no grid before
])
def test_a_lone_tile_with_a_meeple_over_its_edge_is_read_as_one_tile(name: str, index: int) -> None:
    scene, calibration, _ = draw_scene(load_config(SETS / name, None), index)
    assert len(scene.corners) == 1
    out = predict(scene.image, calibration=calibration)
    (letter, rotation), = scene.board.tiles.values()
    assert [(t["letter"], t["rotation"]) for t in out["tiles"]] == [(letter, canonical_rotation(letter, rotation))]


def test_a_grid_spanning_more_cells_than_the_game_has_tiles_gives_no_reading() -> None:
    """Thirteenth round: a degenerate grid (tune2.yaml 216's, before this round) put its candidates 112 x 169 cells
    apart and its slivers were read as 7529 tiles; a board never spans more than the game's 72 tiles."""
    image = np.full((200, 200, 3), 90, np.uint8)
    grid = Grid(np.diag([0.1, 0.1, 1.0]), [(0, 0), (2 * GAME_TILES, 1)], np.array([90.0, 128.0, 128.0]))
    assert read_board(image, grid, Calibration()) == ({}, [], [])


def _disc(shape: tuple[int, int], centre: tuple[int, int], radius: int) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.circle(mask, centre, radius, 1, -1)
    return mask > 0


def test_a_blue_meeples_rim_is_no_shield_but_a_shield_beside_it_stays() -> None:
    """The blob a blue meeple's colour cut gives is a little smaller than the figure; the ring it leaves seen read
    as a shield (tune3.yaml 91 and 218: N read as M). A shield joined to the figure reaches past the ring."""
    from vision.tiles.meeples import Blob
    from vision.tiles.pipeline import _not_meeple

    shape = (96, 96)
    core = _disc(shape, (40, 40), 9)
    blob = Blob("blue", (40.0, 49.0), (31, 31), core[31:50, 31:50].copy())
    hidden = np.zeros(shape, np.uint8)
    blob.paint(hidden)
    hidden = cv2.dilate(hidden, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))) > 0
    figure = _disc(shape, (40, 40), 12)  # 3 px beyond the blob: 1 px beyond what `hidden` grows it to
    assert (figure & ~hidden).any()
    assert not _not_meeple(figure, hidden, [blob]).any()
    shield = figure.copy()
    shield[44:60, 50:62] = True  # a shield the figure touches, reaching 10 px past the blob
    kept = _not_meeple(shield, hidden, [blob])
    assert np.array_equal(kept, shield)


@pytest.mark.parametrize("index", [91, 218])
def test_a_plain_city_under_a_blue_meeple_reads_without_a_shield(index: int) -> None:
    scene, calibration, style = draw_scene(load_config(SETS / "tune3.yaml", None), index)
    tally = Tally()
    _score(scene, predict(scene.image, calibration=calibration), tally, style)
    assert tally.tiles_right == tally.tiles and tally.tiles_missed == 0


def test_the_rim_rule_around_each_blob_equals_it_over_the_whole_board() -> None:
    """`_not_meeple` labels blue patches around each blob only; the same patches drop as labelling the whole board
    (meeples a tile apart; a patch reaching another blob's box is kept, as it may reach past the rim)."""
    from vision.tiles.meeples import Blob
    from vision.tiles.pipeline import MEEPLE_BLUE, _not_meeple

    rng = np.random.default_rng(7)
    shape = (240, 320)
    blue = np.zeros(shape, bool)
    blobs = []
    for k in range(12):
        x, y = 40 + 80 * (k % 4) + int(rng.integers(-5, 6)), 40 + 80 * (k // 4) + int(rng.integers(-5, 6))
        r = int(rng.integers(6, 10))
        blue |= _disc(shape, (x, y), r + int(rng.integers(0, 4)))  # the figure, a little larger than its blob
        if rng.random() < 0.4:  # a shield beside it, joined or not
            blue[y:y + 10, x + r - 2 + int(rng.integers(0, 5)):x + r + 10] = True
        core = _disc(shape, (x, y), r)
        blobs.append(Blob("blue", (float(x), float(y + r)), (x - r, y - r), core[y - r:y + r + 1, x - r:x + r + 1]))
    blue |= rng.random(shape) < 0.01  # specks
    hidden = np.zeros(shape, np.uint8)
    for blob in blobs:
        blob.paint(hidden)
    hidden = cv2.dilate(hidden, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))) > 0
    n, labels = cv2.connectedComponents(blue.view(np.uint8))
    total = np.bincount(labels.ravel(), minlength=n)
    under = np.bincount(labels[hidden], minlength=n) > MEEPLE_BLUE * total
    rim = cv2.dilate(hidden.view(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))) > 0
    under &= np.bincount(labels[~rim], minlength=n) == 0
    under[0] = False
    expected = blue & ~under[labels]
    assert under.sum() >= 3 and (expected != blue).any()  # some patches drop, some stay
    assert np.array_equal(_not_meeple(blue, hidden, blobs), expected)
