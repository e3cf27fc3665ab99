"""Stage 1b: tighten a detector box onto the card's own edges when the card stands out from the table.

The detector's rotated box is a good guess of where a card is but a loose one of its corners. Inside
a slightly grown box, the bright card body is thresholded (Otsu) and the blob under the box centre
gives a rectangle; it replaces the box only when it is card-shaped (63:88 within slack) and about the
box's size, so touching cards that merge into one blob, or a card on a light table, keep the box.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.geometry import portrait_corners

GROW = 1.2
ASPECT = (1.22, 1.62)  # long / short side of a card seen at up to ~45 degrees, with slack
AREA = (0.65, 1.4)  # refined area / box area


def refine(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card's outline (clockwise, short side first) or the box itself when no clean edge is found."""
    (cx, cy), (w, h), ang = cv2.minAreaRect(quad.astype(np.float32))
    if w < 12 or h < 12:
        return quad
    grown = cv2.boxPoints(((cx, cy), (w * GROW, h * GROW), ang))
    x0, y0 = np.floor(grown.min(axis=0)).astype(int)
    x1, y1 = np.ceil(grown.max(axis=0)).astype(int)
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(image.shape[1], x1), min(image.shape[0], y1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return quad
    roi = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    roi = cv2.GaussianBlur(roi, (5, 5), 0)
    _, binary = cv2.threshold(roi, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    keep = np.zeros_like(binary)
    cv2.fillConvexPoly(keep, np.round(grown - [x0, y0]).astype(np.int32), 255)
    binary = cv2.morphologyEx(binary & keep, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    centre = (float(cx - x0), float(cy - y0))
    inside = [c for c in contours if cv2.pointPolygonTest(c, centre, False) >= 0]
    if not inside:
        return quad
    blob = max(inside, key=cv2.contourArea)
    (bx, by), (bw, bh), bang = cv2.minAreaRect(blob)
    if min(bw, bh) < 1:
        return quad
    aspect = max(bw, bh) / min(bw, bh)
    ratio = (bw * bh) / max(1.0, w * h)
    shift = np.hypot(bx + x0 - cx, by + y0 - cy)
    if not (ASPECT[0] <= aspect <= ASPECT[1] and AREA[0] <= ratio <= AREA[1] and shift < 0.25 * min(w, h)):
        return quad
    fitted = cv2.boxPoints(((bx + x0, by + y0), (bw, bh), bang))
    return portrait_corners(fitted)
