"""Twenty-eighth round (issue 7): a lone tile's four straight sides face four ways (`grid._outline_lines`), a
quadrilateral whose corner lies beyond a picture that shows the whole board is no lone tile (`grid._corner_unseen`),
and meeples are cut again at the colour the board's sure meeples show (`meeples._board_cut`).

A pale road notches a lone tile's outline from one side towards the middle, along two other sides; a figure over
the far side cuts that side in two. The notch's long edge held more outline points than either piece of the cut
side, so it was taken as the fourth line, beside the tile's own side on the same side of the middle; those lines
meet nowhere near a corner, no quadrilateral was found, and the general search read the tile at a fraction of its
pitch (tune-clear 396: 78 cells, the tile and its meeple lost).

An 8-tile board laid as a column with a branch has a hull whose four longest sides span a kite that the board's mask
fills 0.89 of (a lone tile with a figure's bulge needs 0.85), squarish by its mean sides; its top corner lay 17
working px above the picture, while the board lay wholly inside it. It was read as one tile (tune-clear 225: 8 tiles
and both meeples lost).

Under a colour cast the calibration shot does not share, a meeple's paint can lie so far from its calibrated colour
that no candidate is cut for it at all (its blob's median fails the bar), so the second look, which scores unsure
candidates again, never sees it; the board's sure meeples of that colour show where the paint lies, and where it lies
10 Lab units or more off, meeples are cut again at it around the pixels it gains.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.tiles.evaluate import EvalConfig, Tally, _score, draw_scene
from vision.tiles.lone_tile import _single_tile
from vision.tiles.pipeline import predict

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"
TILE = np.array([[200, 125], [505, 157], [545, 417], [221, 413]], np.int32)  # TL TR BR BL, working px


def _scene(name: str, index: int):  # noqa: ANN202 - (Scene, Calibration, style) as evaluate draws them
    config = EvalConfig.from_yaml(DATASETS / f"{name}.yaml")
    return draw_scene(config, index)


def _notched_tile_with_figure() -> np.ndarray:
    """A lone tile's mask: a pale road's notch from its left side most of the way across, below the middle, and a
    figure standing across its top side with its head over the table (tune-clear 396 as its mask shows it)."""
    mask = np.zeros((450, 800), np.uint8)
    cv2.fillPoly(mask, [TILE], 1)
    cv2.fillPoly(mask, [np.array([[150, 300], [440, 308], [440, 330], [150, 324]], np.int32)], 0)  # the notch
    cv2.ellipse(mask, (356, 125), (50, 30), 0, 0, 360, 1, -1)  # the body, across the top side
    cv2.circle(mask, (356, 88), 16, 1, -1)  # the head
    return mask.astype(bool)


def test_a_notch_along_a_side_is_no_side_of_a_lone_tile() -> None:
    """The notch's lower edge runs along the tile's bottom side, below the middle as that side is; the tile's top
    side, in two pieces beside the figure, is its fourth line, and the corners are found."""
    quad = _single_tile(_notched_tile_with_figure())
    assert quad is not None
    assert np.abs(quad - TILE).max() < 3.0


def test_a_lone_tile_notched_by_its_road_reads_with_its_meeple() -> None:
    """tune-clear 396 (classic, one D on a grey cloth): its pale road notches the outline from the west, a yellow
    meeple stands on its city cap with its head over the table. The tile and the meeple now read right."""
    scene, calibration, _ = _scene("tune-clear", 396)
    (meeple,) = scene.meeples
    assert scene.board.tiles == {(0, 0): ("D", 0)} and (meeple.colour, meeple.feature) == ("yellow", "N")
    out = predict(scene.image, calibration=calibration)
    assert [(t["letter"], t["rotation"]) for t in out["tiles"]] == [("D", 0)]
    assert [(m["colour"], m["feature"]) for m in out["meeples"]] == [("yellow", "N")]


def test_a_meeple_off_its_calibrated_colour_is_cut_at_the_boards_colour() -> None:
    """tune-clear 502 (flat, 30 tiles, a dark cloth): the board's sure blue meeples show blue 16 Lab units from the
    calibrated blue, and the blue meeple on the I's city at (1, -1), squashed by the perspective, had no candidate
    (its pixels lie 28-58 from the calibrated blue); cut at the board's blue, it is read on its city."""
    scene, calibration, _ = _scene("tune-clear", 502)
    assert (scene.board.tiles[(1, -1)][0], [(m.colour, m.feature) for m in scene.meeples if m.cell == (1, -1)]) == (
        "I", [("blue", "E")])
    out = predict(scene.image, calibration=calibration)
    centre = scene.corners[(1, -1)].mean(axis=0)
    tile = min(out["tiles"], key=lambda t: float(np.linalg.norm(np.mean(t["corners"], axis=0) - centre)))
    assert (tile["letter"], tile["rotation"]) == scene.board.tiles[(1, -1)]
    assert [(m["colour"], m["feature"]) for m in out["meeples"] if m["cell"] == tile["cell"]] == [("blue", "E")]
    # every meeple of the board is read, none twice
    assert len(out["meeples"]) == len(scene.meeples) == 8


def test_a_small_board_inside_the_picture_is_no_lone_tile() -> None:
    """tune-clear 225 (modern, 8 tiles on a wooden table, two black meeples): the kite its hull's longest sides span
    reaches above the picture, which shows the whole board; the general search reads every tile and meeple."""
    scene, calibration, style = _scene("tune-clear", 225)
    assert len(scene.board.tiles) == 8 and len(scene.meeples) == 2
    out = predict(scene.image, calibration=calibration)
    tally = Tally()
    _score(scene, out, tally, style)
    assert (tally.tiles_right, tally.tiles_extra, tally.meeples_right) == (8, 0, 2)
