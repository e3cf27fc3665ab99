"""Nineteenth round (issue 7): a meeple coloured like the table whose head stands over the table loses that head
to the rim cut, and the verifier, which learnt whole figures, was unsure of what is left over the tile."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.tiles import verifier
from vision.tiles.evaluate import EvalConfig, draw_scene
from vision.tiles.meeples import FOOT_CLEAR, RIM_BAR, Blob, _bar, _foot_in
from vision.tiles.pipeline import predict
from vision.tiles.reader import PATCH

TUNE = Path(__file__).resolve().parents[1] / "datasets" / "tiles" / "tune.yaml"


def _legs(left: int, top: int) -> Blob:
    """A 12 x 8 px lower body (a figure's part over the tile) with its top-left corner at (left, top)."""
    crop = np.ones((8, 12), bool)
    return Blob("black", _foot_in(crop, left, top), (left, top), crop)


def _table_above(top: int) -> np.ndarray:
    """The table the rim cut took away: every row above `top` (the board's north rim)."""
    table = np.zeros((4 * PATCH, 4 * PATCH), bool)
    table[:top] = True
    return table


def test_a_figure_cut_by_the_table_above_it_is_kept_at_the_lower_bar() -> None:
    """The table borders the figure's whole top side and its foot stands well inside its tile."""
    top = PATCH + 1  # the figure's top row lies just below the rim
    blob = _legs(PATCH + 18, top)
    assert _bar(blob, _table_above(top), PATCH) == RIM_BAR < verifier.THRESHOLD


def test_the_usual_bar_holds_off_the_table_and_for_a_foot_on_a_squares_side() -> None:
    """No table beside it (an ordinary candidate, or no rim cut at all); or a "foot" on the side of a square, where
    the dark gaps between tiles by a hole in the board lie."""
    top = PATCH + 1
    assert _bar(_legs(PATCH + 18, top + 10), _table_above(top), PATCH) == verifier.THRESHOLD
    assert _bar(_legs(PATCH + 18, top), None, PATCH) == verifier.THRESHOLD
    in_gap = _legs(2 * PATCH - 6, top)  # the foot's column lies on the side between two squares
    within = (in_gap.foot[0] % PATCH) / PATCH
    assert min(within, 1 - within) < FOOT_CLEAR
    assert _bar(in_gap, _table_above(top), PATCH) == verifier.THRESHOLD


@pytest.mark.parametrize("index", [96, 272])
def test_a_black_meeple_over_a_dark_cloth_on_a_lone_tile_is_read(index: int) -> None:
    """Tuning boards: a lone start tile on dark cloth, a black meeple on its city with its head over the cloth
    (on 272 its paint lies 20-24 Lab units from the calibrated black, beyond the rim cut's tightest cut)."""
    config = EvalConfig.from_yaml(TUNE)
    scene, calibration, _ = draw_scene(config, index)
    assert len(scene.board.tiles) == 1 and scene.meeples[0].colour == "black"
    out = predict(scene.image, calibration=calibration)
    assert [(t["letter"], t["rotation"]) for t in out["tiles"]] == [("D", 0)]
    assert [(m["colour"], m["feature"]) for m in out["meeples"]] == [("black", scene.meeples[0].feature)]
