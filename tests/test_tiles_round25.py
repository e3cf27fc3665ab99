"""Twenty-fifth round (issue 7): a lone tile whose side a standing figure cuts in two is bounded by the lines its
outline runs along (`grid._lines_quad`), not by its hull, which runs from the tile's corners up to the figure's head;
of the blobs that are one meeple, the one nearest a meeple's usual size by ratio stands for it (`meeples._distinct`).

Lone tiles are a quarter of every set's boards and each carries a meeple; a figure over the tile's far edge drew
the grid up to its head, and the tile and the meeple's foot were read on a wrong square.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.tiles.evaluate import EvalConfig, draw_scene
from vision.tiles.grid import find_grid
from vision.tiles.lone_tile import _single_tile
from vision.tiles.meeples import Blob, _distinct
from vision.tiles.pipeline import predict

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"
TILE = np.array([[300, 100], [540, 90], [570, 330], [280, 350]], np.int32)  # TL TR BR BL, working px


def _tile_with_figure() -> np.ndarray:
    """A lone tile's mask with a figure standing across its top side, its head over the table."""
    mask = np.zeros((450, 800), np.uint8)
    cv2.fillPoly(mask, [TILE], 1)
    cv2.ellipse(mask, (420, 75), (30, 45), 0, 0, 360, 1, -1)  # the body, across the side
    cv2.circle(mask, (420, 22), 20, 1, -1)  # the head
    return mask.astype(bool)


def test_a_side_a_figure_cuts_in_two_still_bounds_the_tile() -> None:
    """The hull runs from the top corners up to the head, and its four longest sides span no tile the mask fills
    (no tile was found); the two pieces of the top side lie on one line, and the tile's corners are found."""
    quad = _single_tile(_tile_with_figure())
    assert quad is not None
    assert np.abs(quad - TILE).max() < 2.0


def _scene(name: str, index: int):  # noqa: ANN202 - (Scene, Calibration, style) as evaluate draws them
    config = EvalConfig.from_yaml(DATASETS / f"{name}.yaml")
    return draw_scene(config, index)


def test_a_lone_tile_with_a_farmer_over_its_edge_reads_with_its_meeple() -> None:
    """tune-clear 620 (flat, one D): a yellow meeple on the city by the top edge, its head over the table. The grid
    ran up to the head (corners 0.59 tile off), the tile read D at 270 and the meeple on its east city; now both
    read right."""
    scene, calibration, _ = _scene("tune-clear", 620)
    (meeple,) = scene.meeples
    assert scene.board.tiles == {(0, 0): ("D", 0)} and meeple.feature == "N"
    out = predict(scene.image, calibration=calibration)
    assert [(t["letter"], t["rotation"]) for t in out["tiles"]] == [("D", 0)]
    assert [(m["colour"], m["feature"]) for m in out["meeples"]] == [(meeple.colour, "N")]


def test_lines_along_part_of_a_board_are_no_lone_tile() -> None:
    """tune-modern 133 (8 tiles): four lines of its outline span a quadrilateral that most of the board fills, but
    a twelfth of the board lies beyond it: no lone tile, and the grid finds all eight."""
    scene, _, _ = _scene("tune-modern", 133)
    grid = find_grid(scene.image)
    assert grid is not None and len(grid.cells) == len(scene.board.tiles) == 8


def test_a_meeple_is_the_blob_nearest_its_usual_size_by_ratio() -> None:
    """tune-clear 707: a blue meeple's group held a core cut above its legs (0.020 tile², foot 0.17 tile high, read
    on the field) and the whole figure (0.063). By difference the core is nearer the usual 0.04; by ratio (half
    against 1.6 times) the figure is, and its foot stands on the city."""
    patch = 48
    core = np.ones((6, 8), bool)  # 48 px: 0.021 tile²
    figure = np.ones((13, 11), bool)  # 143 px: 0.062 tile²
    blobs = [Blob("blue", (24.0, 16.0), (20, 10), core), Blob("blue", (25.0, 23.0), (19, 10), figure)]
    (kept,) = _distinct(blobs, patch, [0.99, 0.98])
    assert kept is blobs[1]
