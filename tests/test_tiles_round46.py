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


def _lit(lab: tuple[float, float, float], light: float) -> np.ndarray:
    """A Lab colour (OpenCV's 8-bit scale) with its BGR multiplied by `light`, as `Degradation(light=...)` does."""
    bgr = cv2.cvtColor(np.array([[lab]], np.uint8), cv2.COLOR_LAB2BGR).astype(np.float32) * light
    return cv2.cvtColor(np.clip(np.round(bgr), 0, 255).astype(np.uint8), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


def test_a_colour_without_sure_meeples_is_carried_through_the_light_the_others_show() -> None:
    from vision.tiles.meeples import BOARD_SHIFT, Blob, Calibration, _carried, _distance, _sure_colours

    cal = Calibration({"blue": np.array([91.0, 146.0, 75.0], np.float32),
                       "black": np.array([36.0, 128.0, 125.0], np.float32),
                       "yellow": np.array([212.0, 125.0, 206.0], np.float32),
                       "red": np.array([112.0, 189.0, 169.0], np.float32)})
    lab = np.zeros((100, 200, 3), np.uint8)
    lab[10:30, 10:25] = np.round(_lit(tuple(cal.colours["blue"]), 0.8))
    lab[50:70, 150:165] = np.round(_lit(tuple(cal.colours["black"]), 0.8))
    crop = np.ones((20, 15), bool)
    sure = [Blob("blue", (17.0, 30.0), (10, 10), crop), Blob("black", (157.0, 70.0), (150, 50), crop)]
    carried = _carried(_sure_colours(sure, 48, lab, [0.95, 0.97]), cal)
    assert set(carried) == {"yellow", "red"}  # the sure colours are shown as they are (`_board_colours`)
    for name in carried:
        truth = _lit(tuple(cal.colours[name]), 0.8)
        assert float(_distance(carried[name], truth)) < 4.0  # where that light puts it
        assert float(_distance(carried[name], cal.colours[name])) >= BOARD_SHIFT  # so it is cut again there
    # the same light as the calibration shot: every colour stays where it was calibrated
    lab[10:30, 10:25] = np.round(cal.colours["blue"])
    lab[50:70, 150:165] = np.round(cal.colours["black"])
    for name, colour in _carried(_sure_colours(sure, 48, lab, [0.95, 0.97]), cal).items():
        assert float(_distance(colour, cal.colours[name])) < 2.0
    assert _carried(_sure_colours([], 48, lab, []), cal) == {}  # no sure meeple, no light to carry


def test_a_yellow_meeple_in_dimmer_light_than_its_calibration_is_found() -> None:
    # held-out board 2 at 0.8 of the calibration's light: its blue, black and red meeples were sure, its one yellow
    # missed (no candidate cut); cut again at the yellow that light gives, it is found, and nothing is invented
    config = EvalConfig.from_yaml(ROOT / "datasets/tiles/heldout.yaml")
    scene, calibration, _ = draw_scene(config, 2)
    scene = Degradation(light=0.8).apply(scene, np.random.default_rng(0))
    out = predict(scene.image, calibration=calibration)
    assert sorted(m["colour"] for m in out["meeples"]) == sorted(m.colour for m in scene.meeples)
    assert "yellow" in [m.colour for m in scene.meeples]
