"""Twenty-ninth round (issue 7).

A figure standing by a road crossing hides the road's own deeper part, while the windows a curve may bend to beside
it show field; the deeper band there is no evidence now, and the edge strip alone tells the crossing
(`reader._hidden_near`). A meeple on U's road in the tile's middle read U as A (its north road "ended" at the
crossing) and the meeple as standing on A's monastery.

Modern art's deep caps meet near the corner between them and fill the box there about as much as a corner city; the
field between them still shows along the diagonal itself, a wedge a few px wide (`TileFeatures.wedge`), which is
judged in the box's place where it shows (`matcher._between`).

A figure's foot is the middle of its legs (the lowest 0.3 of its height in the picture, `pipeline.LEGS`), not of
its lowest rows (0.15), which a shadow joined below one leg, or one leg of a squashed figure, make up alone.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.tiles.evaluate import EvalConfig, Tally, draw_scene, evaluate_scene
from vision.tiles.figures import MEEPLE_OUTLINE
from vision.tiles.matcher import _between, _table, expectations, truth_masks
from vision.tiles.meeples import Blob
from vision.tiles.pipeline import upright_foot
from vision.tiles.reader import PATCH, WEDGE_PX, read_tile

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"


def _figure_in_the_middle(letter: str, rotation: int):  # noqa: ANN202 - TileFeatures
    """The tile's catalog geometry with a figure whose foot stands in the middle, seen from the south: its head and
    body (as the reader hides them) cover 0.16 tile across from its foot up to 0.17 tile from the north side, over
    the deeper band of a road crossing the north edge; the edge strip and the band's sides stay seen."""
    not_field, shield = truth_masks(letter, rotation)
    valid = np.ones((PATCH, PATCH), bool)
    valid[int(0.17 * PATCH):int(0.52 * PATCH), int(0.42 * PATCH):int(0.58 * PATCH)] = False
    return read_tile(not_field, shield, valid)


def test_a_road_whose_deeper_part_a_figure_hides_reads_as_a_road() -> None:
    """U's north crossing shows road in the strip; the deeper band behind it is hidden, the windows beside it
    show field. The crossing reads as road (it read as the field beside it), A's field edge (no road) still low."""
    road = _figure_in_the_middle("U", 0)
    assert road.middles[0] > 0.9
    field = _figure_in_the_middle("A", 180)  # A's road runs north to the monastery: its south edge is field
    assert field.middles[2] < 0.1


@pytest.mark.parametrize(("name", "index"),
                         [("tune2", 145), ("tune-modern", 373), ("tune-modern", 313), ("tune-clear", 395)])
def test_tuning_boards_read_right(name: str, index: int) -> None:
    """tune2 145, tune-modern 373: a meeple on U's road in the tile's middle, the U read as A and the meeple on its
    monastery; tune-modern 313: a modern I whose caps meet, read as N; tune-clear 395: a squashed figure on a road,
    its foot 0.13 tile off it. Every meeple of each board is now read right, and the tiles named."""
    config = EvalConfig.from_yaml(DATASETS / f"{name}.yaml")
    scene, calibration, style = draw_scene(config, index)
    tally = Tally()
    evaluate_scene(scene, calibration, tally, style)
    assert tally.meeples_right == tally.meeples
    assert not any(truth[0] in "UIW" for truth, _ in tally.confusions)


def test_the_wedge_between_two_caps_shows_where_the_box_reads_city() -> None:
    """I's caps deepened to meet on the diagonal but for a field line 2 px wide: the box between them reads mostly
    city, the least share along the diagonal reads field. The catalog reads I's wedge as field, N's as city."""
    not_field, shield = truth_masks("I", 0)  # caps on N and W: the corner between them is NW (index 3)
    k = WEDGE_PX[-1] + 3
    rows, cols = np.mgrid[0:k, 0:k]
    deep = not_field.copy()
    deep[:k, :k] |= ~np.isin(cols - rows, (0, 1))
    f = read_tile(deep, shield, np.ones((PATCH, PATCH), bool))
    assert f.between[3] > 0.5
    assert f.wedge[3] < 0.5
    assert expectations()[("I", 0)].wedge[3] == 0.0
    assert expectations()[("N", 0)].wedge[3] == 1.0


def test_a_wedge_seen_speaks_for_two_caps_where_the_box_spoke_for_one_city() -> None:
    """The box between the caps read as city (1.0) made N the better twin; with the wedge seen (0.2) it is I."""
    f = expectations()[("I", 0)]
    filled = replace(f, between=np.array([0.0, 0.0, 0.0, 1.0]))
    t = _table()
    i, n = t.keys.index(("I", 0)), t.keys.index(("N", 0))
    before = _between(replace(filled, wedge=np.array([0.0, 0.0, 0.0, 1.0])), t)  # no wedge seen: the box speaks
    assert before[i] > before[n]
    after = _between(replace(filled, wedge=np.array([0.0, 0.0, 0.0, 0.2])), t)
    assert after[i] < after[n]


def test_the_foot_is_the_middle_of_both_legs() -> None:
    """An upright figure 15 px wide whose shadow joins it below its right leg: the lowest rows are the shadow's,
    0.09 tile right of the figure's middle; its legs together put the foot within 0.03 tile of it."""
    w, h = 15, 10
    canvas = np.zeros((h + 2, w), np.uint8)
    cv2.fillPoly(canvas, [np.round(MEEPLE_OUTLINE * [w - 1, h - 1] * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
    canvas[h:, 10:14] = 1  # the shadow
    foot = upright_foot(Blob("red", (0.0, 0.0), (100, 100), canvas > 0), np.eye(3))
    assert abs(foot[0] - (100 + (w - 1) / 2)) < 0.03 * PATCH  # px indices, as the blob's pixels
    assert foot[1] == pytest.approx(100 + h + 1)
