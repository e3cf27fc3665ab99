"""An unread card (`?`) far off the size of the cards read beside it is no card: the referee asks the player to name
a card only where one may lie (an envelope, a barcode label, a ring on the table)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.cards.labels import UNREAD
from vision.detections import CardDetections

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-cards-dev"
IMAGE = np.zeros((400, 600, 3), np.uint8)


def _rect(x: float, y: float, w: float, h: float) -> np.ndarray:
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def _dets(codes: list[str], quads: list[np.ndarray], conf: list[float]) -> CardDetections:
    n = len(codes)
    return CardDetections(codes, np.array(quads, np.float32), np.array(conf, np.float32), np.full(n, -1, np.int16),
                          np.ones(n, bool))


def test_unread_outlines_far_larger_or_smaller_than_the_cards_read_are_not_reported() -> None:
    from vision.cards import _reported

    cards = _dets(["QS", "8H", UNREAD, UNREAD, UNREAD],
                  [_rect(20, 20, 63, 88), _rect(100, 20, 63, 88), _rect(200, 20, 150, 200),  # 5.4 times a card
                   _rect(400, 20, 20, 25),  # 0.09 of a card, inside the picture
                   _rect(480, 20, 60, 85)],  # a card's size: asked about
                  [0.99, 0.98, 0.8, 0.8, 0.8])
    assert _reported(cards, IMAGE).codes == ["QS", "8H", UNREAD]


def test_a_small_unread_outline_the_frame_cuts_and_a_lone_one_are_reported() -> None:
    from vision.cards import _reported

    cut = _dets(["QS", UNREAD], [_rect(20, 20, 63, 88), _rect(-40, 300, 40, 60)], [0.99, 0.8])
    assert _reported(cut, IMAGE).codes == ["QS", UNREAD]  # a card cut by the frame shows small
    alone = _dets([UNREAD], [_rect(20, 20, 20, 25)], [0.8])
    assert _reported(alone, IMAGE).codes == [UNREAD]  # no card read to measure it by


def test_an_unsure_unread_box_of_a_cards_size_is_still_not_reported() -> None:
    from vision.cards import UNREAD_SCORE, _reported

    cards = _dets(["QS", UNREAD], [_rect(20, 20, 63, 88), _rect(100, 20, 63, 88)], [0.99, UNREAD_SCORE - 0.1])
    assert _reported(cards, IMAGE).codes == ["QS"]


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_envelope_beside_a_card_is_not_an_unread_card() -> None:
    """IMG_2481 (real tune half): a jack beside a white envelope, which the detector boxes as a card at 0.62."""
    import cv2

    from vision.cards import predict

    assert predict(cv2.imread(str(REAL / "IMG_2481.JPG"))).codes == ["JH"]
