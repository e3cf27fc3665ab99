"""Re-read only what changed between two frames: a 56-card map must update in tens of milliseconds.

The frames are compared at quarter resolution; the changed pixels, grown by one card, make a region
that goes through the whole pipeline on its own. Cards of the previous reading that lie inside the
region are replaced by what the region shows now; the others are kept as they were.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from vision.cards.closer import detector_scale
from vision.cards.detect import FULL_SIZE
from vision.cards.geometry import points_in_quads
from vision.cards.maps import MAP_BOXES
from vision.detections import CardDetections

DIFF_LEVEL = 30  # grey levels at quarter resolution
SCALE = 4
MIN_SIZE = 160  # px: the smallest square a region is read at by the detector
LEAST_CARD = 0.5  # of a card's area (from the previous reading): smaller blobs in a region are not cards
FULL_EVERY = 10  # a follower's updates between two whole-frame reads: a card an update misread is not kept long


def changed_region(before: np.ndarray, after: np.ndarray, grow: int) -> tuple[int, int, int, int] | None:
    """x0, y0, x1, y1 of everything that changed (grown by `grow` px), or None when nothing did."""
    small_a = cv2.resize(cv2.cvtColor(before, cv2.COLOR_BGR2GRAY), None, fx=1 / SCALE, fy=1 / SCALE,
                         interpolation=cv2.INTER_AREA)
    small_b = cv2.resize(cv2.cvtColor(after, cv2.COLOR_BGR2GRAY), None, fx=1 / SCALE, fy=1 / SCALE,
                         interpolation=cv2.INTER_AREA)
    mask = (cv2.absdiff(small_a, small_b) > DIFF_LEVEL).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    points = cv2.findNonZero(mask)
    if points is None:
        return None
    x, y, w, h = cv2.boundingRect(points)
    height, width = after.shape[:2]
    return (max(0, x * SCALE - grow), max(0, y * SCALE - grow), min(width, (x + w) * SCALE + grow),
            min(height, (y + h) * SCALE + grow))


def _region_size(region: tuple[int, int, int, int], scale: float) -> int:
    """The detector square that shows a region's cards at the scale of a whole-frame read (`detector_scale`; a
    multiple of 32)."""
    x0, y0, x1, y1 = region
    scaled = max(x1 - x0, y1 - y0) * scale
    return int(min(FULL_SIZE, max(MIN_SIZE, 32 * np.ceil(scaled / 32))))


def update(before: np.ndarray, previous: CardDetections, after: np.ndarray, predict=None) -> CardDetections:  # noqa: ANN001
    """The reading of `after`, given the reading of `before`; only the changed region is read again."""
    if predict is None:
        from vision.cards import predict
    if len(previous):
        card_px = float(np.median(np.linalg.norm(previous.corners[:, 2] - previous.corners[:, 0], axis=1)))
    else:
        card_px = max(after.shape[:2]) / 8
    region = changed_region(before, after, int(card_px * 0.6))
    if region is None:
        return previous
    x0, y0, x1, y1 = region
    if (x1 - x0) * (y1 - y0) > 0.6 * after.shape[0] * after.shape[1]:
        return predict(after)
    least = LEAST_CARD * float(np.median([cv2.contourArea(q) for q in previous.corners])) if len(previous) else 0.0
    in_map = len(previous) >= MAP_BOXES  # a map's region holds no stack, and its cards touch
    size = _region_size(region, detector_scale(after.shape, previous))
    fresh = predict(np.ascontiguousarray(after[y0:y1, x0:x1]), size=size, min_card_area=least, stacks=not in_map,
                    region=True, in_map=in_map)
    fresh.corners = fresh.corners + np.array([x0, y0], np.float32)
    centres = previous.centres
    inside = ((centres[:, 0] >= x0) & (centres[:, 0] < x1) & (centres[:, 1] >= y0) & (centres[:, 1] < y1)
              if len(previous) else np.zeros(0, bool))
    fresh_centres = fresh.centres
    margin = card_px * 0.3  # cards cut by the region's border are kept from the previous reading
    whole = ((fresh_centres[:, 0] >= x0 + margin) & (fresh_centres[:, 0] < x1 - margin)
             & (fresh_centres[:, 1] >= y0 + margin) & (fresh_centres[:, 1] < y1 - margin)
             if len(fresh) else np.zeros(0, bool))
    near_border = inside & ~((centres[:, 0] >= x0 + margin) & (centres[:, 0] < x1 - margin)
                             & (centres[:, 1] >= y0 + margin) & (centres[:, 1] < y1 - margin))
    kept = previous[~inside | near_border]
    fresh = fresh[whole]
    return CardDetections.merge([kept, fresh[~_on_any(fresh, kept)]])


def _on_any(cards: CardDetections, others: CardDetections) -> np.ndarray:
    """Per card, whether its centre lies in one of `others` or one of theirs in it: a card the region's border cuts
    is read there with its centre shifted inwards, and the whole frame's reading of it is kept instead."""
    if not len(cards) or not len(others):
        return np.zeros(len(cards), bool)
    return (points_in_quads(cards.centres, others.corners).any(axis=1)
            | points_in_quads(others.centres, cards.corners).any(axis=0))


class Follower:
    """Reads the still views of one table in turn, each map view by what changed since the one before.

    A map of 48 touching cards takes a whole-frame read about 115 ms and an update about 15 (`companion
    vision-bench`). Off a map (fewer than MAP_BOXES cards last read), on a frame of another size, and every
    FULL_EVERY-th view, the whole frame is read: an update keeps what lies outside its region as it was read,
    so a slip there would otherwise stay. `predict` is `vision.cards.predict` with the table's options bound.
    """

    def __init__(self, predict: Callable[..., CardDetections], full_every: int = FULL_EVERY) -> None:
        if full_every < 1:
            raise ValueError(f"full_every must be at least 1, not {full_every}")
        self._predict = predict
        self._full_every = full_every
        self._last: tuple[np.ndarray, CardDetections] | None = None
        self._updates = 0
        self.updated = 0  # views read by an update, for the benchmarks and tests

    def read(self, image: np.ndarray) -> CardDetections:
        """The cards in `image`, the next view of the table."""
        last = self._last
        if (last is None or last[0].shape != image.shape or len(last[1]) < MAP_BOXES
                or self._updates >= self._full_every - 1):
            cards = self._predict(image)
            self._updates = 0
        else:
            cards = update(last[0], last[1], image, predict=self._predict)
            self._updates += 1
            self.updated += 1
        self._last = (image.copy(), cards)  # a camera may hand the same buffer over again, filled anew
        return cards
