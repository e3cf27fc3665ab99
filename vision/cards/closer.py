"""A far camera's cards read closer: the part of the picture they lie in, and the scale the detector sees them at.

The detector letterboxes the whole picture into its input square (`FULL_SIZE`), so a 1280 x 720 frame reaches it
at a third of its size, and a map that fills 0.6 of the frame, turned 45 degrees, has cards 10-12 px wide there,
boxed too loosely to read. Such a picture is read through the part its cards lie in alone, and a picture read
whole whose cards are mostly unread is read again through it (`vision.cards.predict`); an update of one of its
regions reads the region at that closer scale (`vision.cards.update`).
"""

from __future__ import annotations

import numpy as np

from vision.cards.detect import FULL_SIZE
from vision.cards.labels import UNREAD
from vision.detections import CardDetections

CLOSER_UNREAD, CLOSER_SHARE = 4, 0.2  # a reading with this many unread cards, and this share of all, is looked at
CLOSER_CARD_PX = 13.0  # or whose cards are mostly narrower than this at the detector's input (a far camera)
CLOSER_GAIN = 1.2  # closer, when the part of the picture the cards lie in is this much smaller

Part = tuple[int, int, int, int]


def count_unread(cards: CardDetections) -> int:
    return sum(code == UNREAD for code in cards.codes)


def mostly_unread(cards: CardDetections) -> bool:
    """Whether so many cards are found and not read that the picture is worth a closer look."""
    return count_unread(cards) >= max(CLOSER_UNREAD, CLOSER_SHARE * len(cards))


def tiny(shape: tuple[int, ...], quads: np.ndarray) -> bool:
    """Whether the cards outlined by `quads` (N, 4, 2) in a picture of this shape are mostly narrower than
    CLOSER_CARD_PX at the detector's input."""
    if not len(quads):
        return False
    sides = np.linalg.norm(quads - np.roll(quads, -1, axis=1), axis=2)
    narrow = float(np.median(sides.min(axis=1)))
    return narrow * FULL_SIZE / max(shape[:2]) < CLOSER_CARD_PX


def closer_part(shape: tuple[int, ...], quads: np.ndarray) -> Part | None:
    """x0, y0, x1, y1 of the part of the picture the cards outlined by `quads` lie in, a card's diagonal round them,
    where it is CLOSER_GAIN times smaller than the picture; None where the cards fill it (or there are none)."""
    if not len(quads):
        return None
    h, w = shape[:2]
    reach = float(np.median(np.linalg.norm(quads[:, 2] - quads[:, 0], axis=1)))
    points = quads.reshape(-1, 2)
    x0, y0 = np.maximum(points.min(axis=0) - reach, 0).astype(int)
    x1, y1 = np.minimum(points.max(axis=0) + reach, (w, h)).astype(int)
    if max(h, w) < CLOSER_GAIN * max(x1 - x0, y1 - y0, 1):
        return None
    return int(x0), int(y0), int(x1), int(y1)


def detector_scale(shape: tuple[int, ...], cards: CardDetections) -> float:
    """Detector input px per picture px at which a whole read of a picture of this shape reads these cards: the
    letterbox of the whole picture, or of the part they lie in where they are tiny (`predict` then reads closer)."""
    part = closer_part(shape, cards.corners) if tiny(shape, cards.corners) else None
    x0, y0, x1, y1 = part if part is not None else (0, 0, shape[1], shape[0])
    return FULL_SIZE / max(x1 - x0, y1 - y0, 1)
