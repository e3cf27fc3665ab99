"""The light followed from the table (`vision.tiles.meeples.in_calibration_light`): a board read in a dimmer or
brighter room than the meeples were calibrated in is read brought back to the calibration's light."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from vision import degrade
from vision.light import light_gain, table_seen
from vision.tiles.evaluate import EvalConfig, draw_scene
from vision.tiles.meeples import Calibration, calibrate, in_calibration_light
from vision.tiles.pipeline import predict

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def board():  # noqa: ANN201 - (Scene, Calibration)
    # a board of 30 tiles with 8 meeples on a dark table
    scene, calibration, _ = draw_scene(EvalConfig.from_yaml(ROOT / "datasets/tiles/heldout.yaml"), 2)
    return scene, calibration


def test_the_gain_is_the_light_change_on_the_table(board) -> None:  # noqa: ANN001
    scene, _ = board
    for factor in (0.5, 0.7, 0.8):  # dimmer: a brighter room clips a pale table at white
        gain = light_gain(table_seen(scene.image), table_seen(degrade.relit(scene.image, factor)))
        assert gain == pytest.approx(factor, rel=0.05)  # a dark table's median in whole grey levels


def test_a_picture_in_the_calibration_light_is_left_alone(board) -> None:  # noqa: ANN001
    scene, calibration = board
    assert calibration.table is not None  # the evaluation keeps the drawn picture's table as the calibration's
    assert in_calibration_light(scene.image, calibration) is scene.image
    assert in_calibration_light(scene.image, replace(calibration, table=None)) is scene.image
    slightly = degrade.relit(scene.image, 0.98)  # under LIGHT_FOLLOWED: the board's own meeples take it
    assert in_calibration_light(slightly, calibration) is slightly


def test_a_dimmed_board_is_read_as_in_the_calibration_light(board) -> None:  # noqa: ANN001
    scene, calibration = board
    dim = degrade.relit(scene.image, 0.5)
    back = in_calibration_light(dim, calibration)
    assert np.abs(back.astype(np.float32) - scene.image).mean() < 2.0  # within rounding and the clipped whites
    full = predict(scene.image, calibration=calibration)
    followed = predict(dim, calibration=calibration)
    plain = predict(dim, calibration=replace(calibration, table=None))
    assert len(full["meeples"]) >= 4
    assert followed["meeples"] == full["meeples"]
    assert len(plain["meeples"]) < len(full["meeples"])  # the meeples' colours moved out of their cuts


def test_a_calibration_on_the_table_keeps_its_colour() -> None:
    table = np.full((300, 400, 3), (60, 100, 150), np.uint8)  # a wooden table
    table[120:180, 150:250] = (40, 40, 200)  # a red meeple, roughly
    assert calibrate(table).table is None  # a shot on some surface says nothing of the table's light
    kept = calibrate(table, on_table=True).table
    assert kept is not None and np.allclose(kept, table_seen(table))
    assert Calibration().table is None
