"""What a perfect recogniser would report for a synthetic scene: the yardstick for evaluation and tests."""

from __future__ import annotations

import numpy as np

from vision.detections import CardDetections
from vision.synth.scene import CardTruth

MIN_VISIBLE = 0.45  # a card this visible must be found (outline and code)
MIN_INDEX_VISIBLE = 0.85  # or one whose index corner shows this well


def must_see(t: CardTruth) -> bool:
    """Cards a player reads: face up with an index showing, or the top of a face-down pile."""
    if t.code == "JOKER":
        return False
    if t.code == "back":
        return t.visible >= MIN_VISIBLE
    return t.visible >= MIN_VISIBLE or any(v >= MIN_INDEX_VISIBLE for v in t.index_visible)


def truth_detections(truths: list[CardTruth]) -> CardDetections:
    seen = [t for t in truths if must_see(t)]
    n = len(seen)
    return CardDetections([t.code for t in seen],
                          np.array([t.corners for t in seen], np.float32).reshape(-1, 4, 2),
                          np.ones(n, np.float32), np.array([t.design if t.code == "back" else -1 for t in seen],
                                                           np.int16), np.ones(n, bool))
