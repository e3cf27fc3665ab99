"""The real-photo score counts cards read where none lies: a card read twice, papers read as a card."""

from __future__ import annotations

import numpy as np

from vision.cards.geometry import quad_bounds
from vision.detections import CardDetections
from vision.evaluate import _extra


def _dets(codes: list[str], boxes: list[tuple[float, float, float, float]]) -> CardDetections:
    quads = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]] for x0, y0, x1, y1 in boxes], np.float32)
    n = len(codes)
    return CardDetections(codes, quads, np.ones(n, np.float32), np.full(n, -1, np.int16), np.ones(n, bool))


def test_a_card_read_twice_and_a_reading_on_bare_table_are_extra_but_a_back_and_a_loose_miss_are_not() -> None:
    dets = _dets(["QS", "QC", "7H", "back", "9D"],
                 [(0, 0, 63, 88), (5, 3, 66, 90), (300, 0, 363, 88), (400, 0, 463, 88), (600, 0, 690, 120)])
    boxes = [quad_bounds(c) for c in dets.corners]
    # the QS is matched to its label; the QC lies on the same card; the 7H on no card; the 9D is a loose outline
    # of a card the matching missed
    missed = [(600.0, 20.0, 663.0, 108.0)]
    assert _extra(dets, boxes, {0}, missed) == 2
