"""Twenty-third round (issue 7): where a meeple hides the spot a letter's shield is painted at, seeing no blue is no
evidence against that shield (`matcher._shield_scores`); the catalog's counts then choose between the shield letter
and its plain twin (S 2 to T 1), while a shield seen elsewhere than the figure still counts against the plain twin."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.tiles.catalog import TILES
from vision.tiles.evaluate import EvalConfig, Tally, draw_scene, evaluate_scene
from vision.tiles.geometry import rotate_points, shield_spot
from vision.tiles.matcher import match_board, truth_masks
from vision.tiles.reader import PATCH, read_tile

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"


def _box(point: np.ndarray, half: float) -> tuple[slice, slice]:
    """Rows and columns of a PATCH tile within `half` (tiles) of a unit point."""
    x0, y0 = (int(round((v - half) * PATCH)) for v in point)
    x1, y1 = (int(round((v + half) * PATCH)) for v in point)
    return slice(y0, y1), slice(x0, x1)


def _s_at_270(shield_shown: bool, figure_on_spot: bool) -> str:
    """The letter read for S at 270 (T's twin with a shield) with a figure standing 0.2 tile beside, or on, the
    shield's spot; the shield's blue painted there when shown."""
    not_field, _ = truth_masks("S", 270)
    spot = rotate_points(np.array([shield_spot(TILES["S"].cities[0].edges)]), 270)[0]
    blue = np.zeros((PATCH, PATCH), bool)
    if shield_shown:
        blue[_box(spot, 0.06)] = True
    valid = np.ones((PATCH, PATCH), bool)
    figure = spot if figure_on_spot else spot + np.array([0.35, 0.0])
    valid[_box(figure, 0.12)] = False
    reading = match_board({(0, 0): read_tile(not_field, blue, valid)})[(0, 0)]
    assert reading.rotation == 270
    return reading.letter


@pytest.mark.parametrize(("shield_shown", "figure_on_spot", "letter"), [
    (False, True, "S"),  # the spot hidden, no blue seen: the counts (S 2, T 1) decide
    (False, False, "T"),  # the spot seen without blue: no shield
    (True, False, "S"),  # the shield seen beside the figure
])
def test_a_hidden_shield_spot_is_no_evidence(shield_shown: bool, figure_on_spot: bool, letter: str) -> None:
    assert _s_at_270(shield_shown, figure_on_spot) == letter


def test_tuning_board_reads_s_under_its_meeple() -> None:
    """tune-clear 373 (flat, 8 tiles): a yellow meeple on S's city at 270 hides its shield, which round 22 read
    as T; every tile is now read right."""
    config = EvalConfig.from_yaml(DATASETS / "tune-clear.yaml")
    scene, calibration, style = draw_scene(config, 373)
    assert any(scene.board.tiles[m.cell] == ("S", 270) for m in scene.meeples)
    tally = Tally()
    evaluate_scene(scene, calibration, tally, style)
    assert tally.tiles_right == tally.tiles
