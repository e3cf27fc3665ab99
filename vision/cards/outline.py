"""Stage 1b: tighten a detector box onto the card's own edges when the card stands out from the table.

The detector's rotated box is a good guess of where a card is but a loose one of its corners. Inside
a slightly grown box, the bright card body is thresholded (Otsu) and the blob under the box centre
gives a rectangle; it replaces the box only when it is card-shaped (63:88 within slack) and about the
box's size, so touching cards that merge into one blob, or a card on a light table, keep the box.
`paper_rect` takes the blob whatever its shape, for cards read unsurely through their box.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.geometry import portrait_corners

GROW = 1.2
ASPECT = (1.22, 1.62)  # long / short side of a card seen at up to ~45 degrees, with slack
AREA = (0.65, 1.4)  # refined area / box area
PAPER_GROW = 1.1  # a box is grown this much to find the paper blob of the card in it (`paper_rect`)
PAPER_LEAST = 0.25  # of the box's area: a smaller blob is no card's
PAPER_AREA = 1.1  # of the box's area: a larger rectangle spans two cards (real tune half: the same at 1.1-1.2;
# at 1.0 one card less read right, at 1.21 a card read right lost to a rectangle round it and its neighbour)


def refine(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The card's outline (clockwise, short side first) or the box itself when no clean edge is found."""
    found = _bright_blobs(image, quad, GROW, cv2.MORPH_CLOSE)
    if found is None:
        return quad
    contours, ((cx, cy), (w, h), _) = found
    inside = [c for c in contours if cv2.pointPolygonTest(c, (float(cx), float(cy)), False) >= 0]
    if not inside:
        return quad
    blob = max(inside, key=cv2.contourArea)
    (bx, by), (bw, bh), bang = cv2.minAreaRect(blob)
    if min(bw, bh) < 1:
        return quad
    aspect = max(bw, bh) / min(bw, bh)
    ratio = (bw * bh) / max(1.0, w * h)
    shift = np.hypot(bx - cx, by - cy)
    if not (ASPECT[0] <= aspect <= ASPECT[1] and AREA[0] <= ratio <= AREA[1] and shift < 0.25 * min(w, h)):
        return quad
    return portrait_corners(cv2.boxPoints(((bx, by), (bw, bh), bang)))


def paper_rect(image: np.ndarray, quad: np.ndarray, most: float = PAPER_AREA) -> np.ndarray | None:
    """The rectangle round the largest bright blob in a box (portrait corners), whatever its shape: a card
    turned inside an upright box, or cut by a book or the frame, is this blob, where `refine` keeps the box.
    None when no blob fills a quarter of the box, or its rectangle is larger than `most` times the box (a
    blob of two cards side by side)."""
    found = _bright_blobs(image, quad, PAPER_GROW, cv2.MORPH_OPEN)
    if found is None:
        return None
    contours, (_, (w, h), _) = found
    blob = max(contours, key=cv2.contourArea, default=None)
    if blob is None or cv2.contourArea(blob) < PAPER_LEAST * w * h:
        return None
    rect = cv2.minAreaRect(blob)
    (bw, bh) = rect[1]
    if min(bw, bh) < 8 or bw * bh > most * cv2.contourArea(np.asarray(quad, np.float32)):
        return None
    return portrait_corners(cv2.boxPoints(rect).astype(np.float32))


def _bright_blobs(image: np.ndarray, quad: np.ndarray, grow: float, morph: int):  # noqa: ANN202
    """The bright (Otsu) blobs inside the box grown by `grow`, opened or closed (`morph`) at 5 px, in image
    coordinates, and the box's own rotated rectangle; None for a box too small to judge."""
    (cx, cy), (w, h), ang = cv2.minAreaRect(quad.astype(np.float32))
    if w < 12 or h < 12:
        return None
    grown = cv2.boxPoints(((cx, cy), (w * grow, h * grow), ang))
    x0, y0 = np.floor(grown.min(axis=0)).astype(int)
    x1, y1 = np.ceil(grown.max(axis=0)).astype(int)
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(image.shape[1], x1), min(image.shape[0], y1)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return None
    roi = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    roi = cv2.GaussianBlur(roi, (5, 5), 0)
    _, binary = cv2.threshold(roi, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    keep = np.zeros_like(binary)
    cv2.fillConvexPoly(keep, np.round(grown - [x0, y0]).astype(np.int32), 255)
    binary = cv2.morphologyEx(binary & keep, morph, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(binary, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE, offset=(int(x0), int(y0)))
    return contours, ((cx, cy), (w, h), ang)
