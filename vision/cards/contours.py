"""Stage 1c: classical proposals. A lone card on a darker table is a bright card-shaped blob; this finds
such cards even where the detector is unsure (new decks, real photos). Touching cards merge into one
blob and fail the shape test, so maps and fans stay the detector's job.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.geometry import portrait_corners

ASPECT = (1.2, 1.65)
MIN_AREA = 0.004  # of the image
MIN_SOLIDITY = 0.88  # blob area / its rectangle's area


def propose(image: np.ndarray) -> np.ndarray:
    """Card-shaped bright blobs as quads (N, 4, 2), clockwise, short side first."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    scale = 640 / max(gray.shape)
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    scale = min(scale, 1.0)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    _, binary = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    binary = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    min_area = MIN_AREA * small.shape[0] * small.shape[1]
    quads = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_area:
            continue
        (cx, cy), (w, h), ang = cv2.minAreaRect(c)
        if min(w, h) < 1:
            continue
        aspect = max(w, h) / min(w, h)
        if ASPECT[0] <= aspect <= ASPECT[1] and area / (w * h) >= MIN_SOLIDITY:
            quads.append(portrait_corners(cv2.boxPoints(((cx, cy), (w, h), ang)) / scale))
    return np.array(quads, np.float32).reshape(-1, 4, 2)
