"""Thirtieth round (issue 7): a lone tile's side that a standing figure cuts in two is the line fitted to both
pieces (`grid._joined`), a line with the tile beyond it is none (`grid.SIDE_BEYOND`), and opposite sides may run up
to 40 degrees apart in a strong keystone (`grid.ACROSS`); a green part of the mask is no arm (`grid.HAND_RED`); a grid
at a third of the pitch whose added lines show no borders is not taken (`grid._borders_apart`), and one at a quarter
of it is halved twice (`grid._whole_blocks`); the meeples see the table beyond the picture, not black
(`pipeline._table_beyond`), and the rim cut's candidates and the unsure ones are scored again with the table like
a meeple's colour grey (`meeples._over_grey`).

Each piece of a cut side is a short side of the simplified outline whose own direction is a few degrees off (the
mask's rim is ragged round the figure's feet), so neither one's line reached the other piece and held too few outline
points to count; the quadrilateral was then the hull's, up to the figure's head, and the meeple's foot was read on the
field below the city cap it stands on.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.tiles.evaluate import EvalConfig, Tally, _score, draw_scene
from vision.tiles.grid import find_grid
from vision.tiles.lone_tile import SIDE_BEYOND, _beyond
from vision.tiles.pipeline import predict

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"


def _scene(name: str, index: int):  # noqa: ANN202 - (Scene, Calibration, style) as evaluate draws them
    config = EvalConfig.from_yaml(DATASETS / f"{name}.yaml")
    return draw_scene(config, index)


def _reads_lone_d_with_meeple(name: str, index: int, colour: str) -> None:
    """The picture's one D (its city cap north) is found with its north side where it lies, and its meeple read on
    the cap."""
    scene, calibration, _ = _scene(name, index)
    (meeple,) = scene.meeples
    assert scene.board.tiles == {(0, 0): ("D", 0)} and (meeple.colour, meeple.feature) == (colour, "N")
    grid = find_grid(scene.image)
    assert grid is not None and grid.cells == [(0, 0)]
    corners = cv2.perspectiveTransform(np.float64([[[0, 0], [1, 0], [1, 1], [0, 1]]]), np.linalg.inv(grid.to_board))[0]
    # the north corners within 0.02 of the tile's side (the south side may run along the tile's drop shadow)
    side = float(np.sqrt(cv2.contourArea(scene.corners[(0, 0)].astype(np.float32))))
    assert np.abs(corners[:2] - scene.corners[(0, 0)][:2]).max() < 0.02 * side
    out = predict(scene.image, calibration=calibration)
    assert [(t["letter"], t["rotation"]) for t in out["tiles"]] == [("D", 0)]
    assert [(m["colour"], m["feature"]) for m in out["meeples"]] == [(colour, "N")]


def test_a_side_a_figure_cuts_in_two_is_one_line_through_both_pieces() -> None:
    """tune2 216 (painted, a blue cloth): a yellow figure on the cap, its head running off the picture, cuts the
    north side in two pieces 55 and 80 working px long; the quadrilateral ran up to its head and the meeple was read
    on the field below the cap."""
    _reads_lone_d_with_meeple("tune2", 216, "yellow")


def test_a_lone_tile_in_a_strong_keystone_is_found() -> None:
    """tune-clear 568 (modern, a wooden table): seen steeply, the tile's west and east sides run 37 degrees apart in
    the picture, beyond the 30 that opposite sides were allowed; a yellow figure cuts its north side in two."""
    _reads_lone_d_with_meeple("tune-clear", 568, "yellow")


def test_a_line_with_the_tile_beyond_it_is_no_side() -> None:
    """A pale road's notch across most of a lone tile: the line along its upper edge has the tile's upper part beyond
    it (over `SIDE_BEYOND` of the outline), the tile's own top side only the figure standing across it. (Joined, the
    notch's pieces outnumbered the cut top side's on tune-clear 396, which round 28's test reads whole.)"""
    tile = np.array([[200, 125], [505, 157], [545, 417], [221, 413]], np.int32)
    mask = np.zeros((450, 800), np.uint8)
    cv2.fillPoly(mask, [tile], 1)
    cv2.fillPoly(mask, [np.array([[150, 250], [470, 262], [470, 278], [150, 266]], np.int32)], 0)  # the notch
    cv2.ellipse(mask, (356, 145), (50, 30), 0, 0, 360, 1, -1)  # the body, across the top side
    cv2.circle(mask, (356, 108), 16, 1, -1)  # the head
    (outline,) = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0]
    points = outline.reshape(-1, 2).astype(np.float64)
    lines = np.float64([[[200, 250], [470, 262]], [[200, 125], [505, 157]]])  # the notch's upper edge, the top side
    beyond = _beyond(points, lines[:, 0], lines[:, 1] - lines[:, 0], points.mean(axis=0), 5.0)
    assert beyond[0] > SIDE_BEYOND > beyond[1]


def test_a_field_running_off_the_picture_is_no_arm() -> None:
    """tune 336 (painted, a wooden table whose border reads as skin, so the whole board mask is searched for arms):
    the lone D's field runs off the picture's foot in one green hue and was taken for an arm, the tile cut to its
    city and read on a 43-cell grid; skin is never green (Lab a* under `grid.HAND_RED`), and the tile reads whole."""
    _reads_lone_d_with_meeple("tune", 336, "red")
    scene, _, _ = _scene("tune-clear", 284)  # modern, the same: a yellow figure on the cap
    grid = find_grid(scene.image)
    assert grid is not None and grid.cells == [(0, 0)] and not grid.by_arm


def _score_board(name: str, index: int) -> Tally:
    """The board read and scored as `tiles-eval` does."""
    scene, calibration, style = _scene(name, index)
    tally = Tally()
    _score(scene, predict(scene.image, calibration=calibration), tally, style)
    return tally


def test_a_third_grid_whose_added_lines_show_no_borders_is_not_taken() -> None:
    """tune-clear 129 (painted, 8 tiles laid apart and askew on a wooden table): the tiles' sides put outline on the
    lines of a grid at a third of the pitch, and it was taken (60 cells); inside the board only every third of its
    lines is a border, so the grid at the tiles' pitch stays: every tile and meeple reads (were 2 of 8 and 0 of 2)."""
    tally = _score_board("tune-clear", 129)
    assert (tally.tiles_right, tally.meeples_right, tally.meeples_extra) == (8, 2, 0)


def test_a_grid_at_a_quarter_of_the_pitch_is_halved_twice() -> None:
    """tune-clear 517 (modern, 8 tiles): the outline fit a grid at a quarter of the tiles' pitch best; its cells came
    in whole 2 x 2 blocks and it was halved once, and the cells of that grid come in whole blocks again: 7 of 8 tiles
    (an I read as N) and both meeples read (were 0 and 0); since round 40 all 8 (the I, at the board's rim 0.1 tile
    off its cell, is read where its sides show it against the table)."""
    tally = _score_board("tune-clear", 517)
    assert (tally.tiles_right, tally.meeples_right, tally.tiles_extra) == (8, 2, 0)


def test_beyond_the_picture_the_meeples_see_the_table() -> None:
    """tune3 220 (classic, a lone D on a pale grey cloth, its north side at the picture's top edge): the rectified
    board is black beyond the picture, and the verifier's crop round the small black figure on the cap took that
    black for paint joined to it (0.46, under its 0.65); painted the table's colour there, the figure is read."""
    _reads_lone_d_with_meeple("tune3", 220, "black")


def test_a_figure_by_a_cloth_of_its_colour_is_read_over_a_grey_table() -> None:
    """tune-clear 250 (classic, 30 tiles on a blue cloth): a blue figure on the L's road by the board's east rim; its
    closeness channel showed the cloth as close to blue as the figure, and the verifier scored the rim cut's candidate
    0.14-0.20. Seen with the cloth it took away grey, it scores 0.9 or more and is read; every meeple is read."""
    scene, calibration, _ = _scene("tune-clear", 250)
    out = predict(scene.image, calibration=calibration)
    centre = scene.corners[(4, 3)].mean(axis=0)
    tile = min(out["tiles"], key=lambda t: float(np.linalg.norm(np.mean(t["corners"], axis=0) - centre)))
    assert (tile["letter"], tile["rotation"]) == scene.board.tiles[(4, 3)] == ("L", 90)
    assert [(m["colour"], m["feature"]) for m in out["meeples"] if m["cell"] == tile["cell"]] == [("blue", "E")]
    assert len(out["meeples"]) == len(scene.meeples) == 8


def test_an_unsure_figure_by_a_table_of_its_colour_is_read_over_a_grey_table() -> None:
    """tune3 121 (modern, 8 tiles on a dark cloth): a black figure on the E's city by the board's east rim, which the
    verifier scored 0.22 beside the black cloth; seen with the cloth grey it is sure, and both meeples are read."""
    tally = _score_board("tune3", 121)
    assert (tally.tiles_right, tally.meeples_right, tally.meeples_extra, tally.meeples_missed) == (8, 2, 0, 0)
