"""`vision.tiles.evaluate.Degradation`: the drawn sets read as a real camera would leave them (JPEG, noise, scale,
light), and `companion tiles-eval` with those options."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from vision.tiles.evaluate import Degradation, EvalConfig, draw_scene

ROOT = Path(__file__).resolve().parents[1]
QUICK = ROOT / "datasets/tiles/quick.yaml"


@pytest.fixture(scope="module")
def scene():  # noqa: ANN201 - a Scene
    return draw_scene(EvalConfig.from_yaml(QUICK), 1)[0]


def test_no_degradation_leaves_the_scene_alone(scene) -> None:  # noqa: ANN001
    assert Degradation().none
    assert Degradation().apply(scene, np.random.default_rng(0)) is scene


def test_scale_moves_the_corners_with_the_picture(scene) -> None:  # noqa: ANN001
    half = Degradation(scale=0.5).apply(scene, np.random.default_rng(0))
    h, w = scene.image.shape[:2]
    assert half.image.shape[:2] == (round(h / 2), round(w / 2))
    for cell, quad in scene.corners.items():
        np.testing.assert_allclose(half.corners[cell], quad * 0.5)
    assert half.board is scene.board and half.meeples is scene.meeples


def test_jpeg_noise_and_light_change_the_picture_as_asked(scene) -> None:  # noqa: ANN001
    image = scene.image.astype(np.float64)
    coarse = Degradation(jpeg=20).apply(scene, np.random.default_rng(0)).image
    fine = Degradation(jpeg=95).apply(scene, np.random.default_rng(0)).image
    assert coarse.shape == scene.image.shape and coarse.dtype == np.uint8
    assert np.abs(coarse - image).mean() > np.abs(fine - image).mean() > 0  # a lower quality loses more
    noisy = Degradation(noise=10).apply(scene, np.random.default_rng(0)).image.astype(np.float64)
    assert 6 < np.std(noisy - image) < 11  # clipping at black and white takes a little off
    again = Degradation(noise=10).apply(scene, np.random.default_rng(0)).image
    assert np.array_equal(again, noisy.astype(np.uint8))  # the same stream, the same noise
    dim = Degradation(light=0.5).apply(scene, np.random.default_rng(0)).image.astype(np.float64)
    assert abs(dim.mean() / image.mean() - 0.5) < 0.01
    assert scene.image.dtype == np.uint8 and np.array_equal(scene.image, image.astype(np.uint8))  # untouched


@pytest.mark.parametrize("bad", [{"jpeg": 5}, {"jpeg": 101}, {"noise": -1.0}, {"noise": 80.0}, {"scale": 0.1},
                                 {"scale": 3.0}, {"light": 0.1}, {"light": 2.5}])
def test_a_degradation_out_of_range_is_refused(bad: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="not"):
        Degradation(**bad)


def test_tiles_eval_reads_the_set_degraded(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tiles-eval", str(QUICK), "--boards", "2", "--jpeg", "60", "--noise", "3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["degradation"] == {"jpeg": 60, "noise": 3.0}
    assert result["tiles"] == 9 and result["tile_accuracy"] >= 0.85  # a lone tile and a board of eight
    assert main(["tiles-eval", str(QUICK), "--boards", "2", "--scale", "0.75"]) == 0
    text = capsys.readouterr().out
    assert "pictures degraded: scale 0.75" in text and "letter+rotation" in text


def test_tiles_eval_refuses_a_bad_degradation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tiles-eval", str(QUICK), "--jpeg", "5"]) == 2
    assert "JPEG quality is 10 to 100, not 5" in capsys.readouterr().err
    assert main(["tiles-eval", str(QUICK), "--scale", "9"]) == 2
    assert "not 9.0" in capsys.readouterr().err
