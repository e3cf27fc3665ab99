"""Eighteenth round (issue 7): a shield beside a meeple of its own blue joins the meeple's blob and hid the shield."""

from __future__ import annotations

import cv2
import numpy as np

from vision.tiles.figures import MEEPLE_OUTLINE
from vision.tiles.meeples import Blob, _foot_in
from vision.tiles.pipeline import _figure_only


def _meeple_mask(width: int = 14, height: int = 12, pad: int = 8) -> np.ndarray:
    """A standing meeple's silhouette as the board shows it (48 px a tile), with room beside it."""
    canvas = np.zeros((height + 2, width + 2 * pad), np.uint8)
    pts = MEEPLE_OUTLINE * (width - 1, height - 1) + (pad, 1)
    cv2.fillPoly(canvas, [np.round(pts * 16).astype(np.int32)], 1, cv2.LINE_8, shift=4)
    return canvas > 0


def _blob(mask: np.ndarray) -> Blob:
    return Blob("blue", _foot_in(mask, 40, 60), (40, 60), mask)


def test_a_shield_joined_to_a_blue_meeple_is_taken_off_its_blob_and_seen_as_blue() -> None:
    """A 5 x 5 px shield (a tenth of a tile) touching the meeple's right leg: the blob keeps the figure, the shield's
    pixels are marked as shield blue, and the foot is the figure's own."""
    figure = _meeple_mask()
    joined = figure.copy()
    joined[8:13, 21:26] = True  # beside the right leg (it reaches column 20), down to the feet
    beside = np.zeros((120, 120), np.uint8)
    out = _figure_only(_blob(joined), np.eye(3), beside)
    assert out.crop.sum() < joined.sum()
    assert beside[60 + 8:60 + 13, 40 + 23:40 + 26].all()  # the shield's far columns
    assert beside.sum() <= 30  # the shield, not the figure
    assert abs(out.foot[0] - _foot_in(figure, 40, 60)[0]) < 1.0  # the joined blob's is 2.8 px right


def test_a_meeple_alone_keeps_its_whole_blob() -> None:
    """Without a shield the silhouette mirrors onto itself: nothing is taken off, nothing marked blue."""
    beside = np.zeros((120, 120), np.uint8)
    blob = _blob(_meeple_mask())
    assert _figure_only(blob, np.eye(3), beside) is blob
    assert not beside.any()
