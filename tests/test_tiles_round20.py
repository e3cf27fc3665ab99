"""Twentieth round (issue 7): tiles are square, so where one axis's outline is smeared by tiles laid apart or
askew, the pitch the other axis shows is tried on both (`grid._square_combs`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from vision.tiles.evaluate import EvalConfig, Tally, draw_scene, evaluate_scene
from vision.tiles.grid import _fits, _square_combs

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"


def _peaks(positions: list[float]) -> np.ndarray:
    """Outline peaks as `_outline_peaks` gives them: position and strength."""
    return np.c_[np.array(positions, float), np.ones(len(positions))]


def test_the_clean_axis_pitch_is_offered_for_both_at_each_axis_phase() -> None:
    """x's sides lie every 26 px from 4; y's every 26 px from 11, with stray peaks of a few tiles laid apart among
    them, and y's own guess is a wrong pitch (19.5). The square comb at x's pitch finds y's phase at it."""
    xs = _peaks([4 + 26 * k for k in range(10)])
    ys = _peaks([11 + 26 * k for k in range(10)] + [30.0, 56.5, 83.0, 109.5])
    combs = _square_combs(xs, ys, 26.0, 19.5)
    assert len(combs) == 2
    px, ox, py, oy = combs[0]
    assert px == pytest.approx(26.0, abs=0.05) and py == pytest.approx(26.0, abs=0.05)
    assert ox == pytest.approx(4.0, abs=0.1) and oy == pytest.approx(11.0, abs=0.1)
    share, _ = _fits(ys, np.array([py]))
    assert share[0] == pytest.approx(10 / 14)  # every one of y's tile sides on it, none of the stray peaks


def test_a_square_guess_adds_nothing() -> None:
    xs = _peaks([4 + 26 * k for k in range(6)])
    assert _square_combs(xs, xs, 26.0, 26.2) == []


@pytest.mark.parametrize(("name", "index"), [("tune-modern", 287), ("tune", 31)])
def test_a_72_tile_board_whose_rows_smear_is_read_at_its_pitch(name: str, index: int) -> None:
    """Tuning boards whose rows' outline peaks made the row pitch about 0.8 of the true one (tune-modern 287) or
    gave no fit above 0.7 (tune 31): every tile was read at a wrong cell before (30 and 48 of 72 right)."""
    config = EvalConfig.from_dict(yaml.safe_load((DATASETS / f"{name}.yaml").read_text()))
    scene, calibration, style = draw_scene(config, index)
    tally = Tally()
    evaluate_scene(scene, calibration, tally, style)
    assert tally.tiles == 72
    assert tally.tiles_missed == 0 and tally.tiles_extra == 0
    assert tally.tiles_right >= 70
    assert tally.meeples_right == tally.meeples
