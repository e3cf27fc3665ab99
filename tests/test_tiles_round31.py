"""Thirty-first round (issue 7): a long thin part of the board mask whose hue stays the table's is a streak of the
table and dropped (`grid._streak`, `STREAK_LONG`); no blue at a shield spot a figure partly hides is part of the
evidence against the shield, none under `SPOT_SEEN` of the spot seen, whole from `SPOT_WHOLE`, log-linear between
(`matcher._shield_scores`); and only a blue meeple's blob takes blue away as its rim, so a shield half under a red,
yellow or black figure is kept (`pipeline._not_meeple`).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.tiles.board_mask import _board_mask
from vision.tiles.evaluate import EvalConfig, Tally, _score, draw_scene
from vision.tiles.matcher import SPOT_SEEN, SPOT_WHOLE, _shield_scores, _table
from vision.tiles.meeples import Blob
from vision.tiles.pipeline import _not_meeple
from vision.tiles.reader import SEEN_GRID, TileFeatures

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"


def test_a_long_pale_streak_of_the_tables_hue_is_no_board() -> None:
    """White streaks on a pale grey table (modern-x 35) pass the cut by their lightness alone, 1.5 times the cut and
    more (lighter counts a quarter), and drew the outline fit off the board. A part 20 times longer than wide whose
    a*b* stays within a few units of the table's is dropped; a tile's block (field green), an as long and thin part
    of field hue, and a pale part of the table's hue that is no longer than wide all stay."""
    table = np.array([180, 128, 128], np.uint8)
    lab = np.empty((600, 800, 3), np.uint8)
    lab[:] = table
    lab[100:300, 450:650] = (150, 100, 160)  # a tile: field green
    lab[380:470, 470:560] = (190, 150, 140)  # its city, off the field's part
    lab[60:71, 80:300] = (244, 131, 132)  # the streak: 11 x 220, 64 lighter (16 of distance), hue 5 off
    lab[400:411, 80:300] = (170, 100, 160)  # as long and thin, field green
    lab[150:230, 120:200] = (244, 131, 132)  # a pale square of the table's hue
    mask, found, cut = _board_mask(lab)
    assert np.array_equal(found, table) and cut == 10.0
    assert not mask[60:71, 80:300].any()  # the streak
    assert mask[110:290, 460:640].all() and mask[390:460, 480:550].all()  # the tile and its city
    assert mask[403:408, 90:290].all()  # the thin field-green part: its hue is unlike the table's
    assert mask[160:220, 130:190].all()  # the pale square: not long


def _scene(name: str, index: int):  # noqa: ANN202 - (Scene, Calibration, style) as evaluate draws them
    config = EvalConfig.from_yaml(DATASETS / f"{name}.yaml")
    return draw_scene(config, index)


def test_a_full_modern_board_on_a_streaked_pale_table_reads_whole() -> None:
    """tune-modern 515 (modern-x 35: 72 tiles, 8 meeples on a pale grey table with two white streaks 11 and 10
    working px wide, 164 and 303 long): the streaks stayed in the board mask and drew the grid off the board (20 of
    72 tiles right, 40 extra, 3 of 8 meeples); without them every tile and meeple reads, none extra."""
    from vision.tiles.pipeline import predict

    scene, calibration, style = _scene("tune-modern", 515)
    assert len(scene.board.tiles) == 72 and len(scene.meeples) == 8
    tally = Tally()
    _score(scene, predict(scene.image, calibration=calibration), tally, style)
    assert (tally.tiles_right, tally.tiles_extra, tally.meeples_right, tally.meeples_extra) == (72, 0, 8, 0)


def _shield_evidence(seen: float) -> float:
    """What no blue says against S at 270's shield, against its plain twin T at 270 (log odds), with `seen` of the
    tile (so of the shield's spot) seen."""
    t = _table()
    shield, plain = t.keys.index(("S", 270)), t.keys.index(("T", 270))
    f = TileFeatures(np.zeros(4), np.zeros(4), 0.0, np.zeros(4), 0.0, seen, np.zeros(4),
                     seen=np.full((SEEN_GRID, SEEN_GRID), seen))
    scores = _shield_scores(f, t)
    return float(scores[shield] - scores[plain])


def test_a_shield_spot_a_figure_partly_hides_is_partial_evidence() -> None:
    """A figure standing by the shield (0.52-0.74 of its spot seen) left the shield letter as far behind as a plain
    tile whose spot shows whole (from 0.5 seen on), so on a full board the counts moved either twin at a tie. No blue
    now says nothing under 0.3 seen (0.2: the figure on the spot), all it can from 0.8 (0.9), and a share between,
    log-linearly (0.55: half of it), growing with the share seen."""
    whole = _shield_evidence(1.0)
    assert whole < -2.0  # no blue at a spot seen whole: the plain twin well ahead
    assert _shield_evidence(0.2) == 0.0
    assert _shield_evidence(0.9) == pytest.approx(whole)
    partial = [_shield_evidence(s) for s in (0.4, 0.55, 0.7)]
    assert 0.0 > partial[0] > partial[1] > partial[2] > whole
    assert partial[1] == pytest.approx((0.55 - SPOT_SEEN) / (SPOT_WHOLE - SPOT_SEEN) * whole)
    assert partial[1] == pytest.approx(0.5 * whole)


def _disc(shape: tuple[int, int], centre: tuple[int, int], radius: int) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    cv2.circle(mask, centre, radius, 1, -1)
    return mask > 0


@pytest.mark.parametrize("colour", ["red", "yellow", "black"])
def test_a_shield_half_under_a_figure_of_another_colour_stays(colour: str) -> None:
    """tune4 116 (M at 270 read as N): a shield half under a figure, the rest within the rim its blob is grown by,
    was taken off the blue mask as the figure's rim whatever the figure's colour. Only a blue figure has a blue rim:
    beside a red, yellow or black one the blue is the shield, and stays; the same blue by a blue blob goes."""
    shape = (96, 96)
    core = _disc(shape, (40, 40), 9)
    hidden = cv2.dilate(core.view(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))) > 0
    shield = np.zeros(shape, bool)
    shield[36:46, 38:52] = True  # under the figure but for a sliver within the rim
    assert (shield & ~hidden).any() and (shield & hidden).sum() > 0.8 * shield.sum()

    def blob(c: str) -> Blob:
        return Blob(c, (40.0, 49.0), (31, 31), core[31:50, 31:50].copy())

    assert np.array_equal(_not_meeple(shield, hidden, [blob(colour)]), shield)
    assert not _not_meeple(shield, hidden, [blob("blue")]).any()
