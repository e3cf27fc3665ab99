"""Round 46 (session 49): a squarish outline's inner borders must show some edge (`lone_tile.INNER_FLOOR`), so flat
art saved as a coarse JPEG is one tile, not a block of 5 x 5."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.tiles.catalog import canonical_rotation
from vision.tiles.evaluate import Degradation, EvalConfig, draw_scene
from vision.tiles.lone_tile import _inner_borders
from vision.tiles.pipeline import predict

ROOT = Path(__file__).resolve().parents[1]
UNIT = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)


def _square(seams: int) -> tuple[np.ndarray, np.ndarray]:
    """A flat grey square on a darker table (blurred as the grid search blurs), with dark seams cutting it into
    `seams` x `seams` tiles, and the map picture -> unit square."""
    grey = np.full((400, 400), 60, np.uint8)
    grey[100:300, 100:300] = 150
    for k in range(1, seams):
        at = 100 + round(200 * k / seams)
        grey[at - 1:at + 2, 100:300] = 90
        grey[100:300, at - 1:at + 2] = 90
    quad = np.array([[100, 100], [300, 100], [300, 300], [100, 300]], np.float32)
    return cv2.GaussianBlur(grey, (0, 0), 1.0), cv2.getPerspectiveTransform(quad, UNIT)


def test_a_flat_square_is_one_tile_and_seams_count() -> None:
    # no edge along any line inside: none midway against none on the would-be borders is no border
    assert _inner_borders(*_square(1)) == (1, 1)
    assert _inner_borders(*_square(2)) == (2, 2)
    assert _inner_borders(*_square(3)) == (3, 3)


@pytest.mark.parametrize("index", [32, 36])
def test_a_flat_lone_tile_saved_as_a_coarse_jpeg_is_one_tile(index: int) -> None:
    # `tune-clear.yaml` 32 and 36: lone tiles of flat art, saved again at JPEG quality 30, were read as 25 and 6 tiles
    config = EvalConfig.from_yaml(ROOT / "datasets/tiles/tune-clear.yaml")
    scene, calibration, _ = draw_scene(config, index)
    scene = Degradation(jpeg=30).apply(scene, np.random.default_rng(0))
    out = predict(scene.image, calibration=calibration)
    (cell, (letter, rotation)), = scene.board.tiles.items()
    assert [(t["letter"], t["rotation"]) for t in out["tiles"]] == [(letter, canonical_rotation(letter, rotation))]
