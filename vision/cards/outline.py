"""Stage 1b: tighten a detector box onto the card's own edges when the card stands out from the table.

The detector's rotated box is a good guess of where a card is but a loose one of its corners. Inside
a slightly grown box, the bright card body is thresholded (Otsu) and the blob under the box centre
gives a rectangle; it replaces the box only when it is card-shaped (63:88 within slack) and about the
box's size, so touching cards that merge into one blob, or a card on a light table, keep the box.
`paper_rect` takes the blob whatever its shape, for cards read unsurely through their box.
`snapped` moves each side of a finished outline onto the card's edge where paper meets a darker table, for
cards on or under others whose blob is two cards' (at the end of `predict`, where the faces make no mosaic).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.geometry import points_in_quads, portrait_corners, sides_meet

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


SNAP_REACH = 0.15  # a side is looked for this share of the card's other side inward and outward of where it lies
SNAP_EDGE = 30.0  # grey levels the paper must lie above what lies outside it, in the median along the side
SNAP_ALONG = np.linspace(0.2, 0.8, 13)  # where along a side its edge is looked for (the corners are often covered)
SNAP_STEP = 3  # px either side of an edge the paper and the outside are sampled at
SNAP_LEAST = 5  # of the SNAP_ALONG points, this many must lie on no other card for a side to be moved
SNAP_LEAST_SHIFT = 0.04  # of the card's other side: a side this near its edge stays (a few px are noise)


def snapped(image: np.ndarray, quad: np.ndarray, others: np.ndarray | None = None) -> np.ndarray:
    """The outline with each side moved onto the card's own edge where one shows: paper on the inside, something
    darker outside, straight along the side's middle. A detector box of a card lying on or under another is kept
    whole where `refine` finds one blob of two cards, and such boxes lie up to a seventh of a card off lengthwise
    when the picture is turned (real tune half turned 180 degrees: a ten of clubs boxed 30 px short on a wooden
    table). Sides against another card, whose paper lies outside too, stay; a side's points on one of the `others`
    (the outlines of the cards around, (N, 4, 2)) are not looked at, as there the edge is another card's; the
    whole outline stays where the moved one is no card's shape."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    grey, origin = _grey_around(image, q)
    centre = q.mean(axis=0)
    sides = np.roll(q, -1, axis=0) - q
    free = ~_on_others((q[:, None] + SNAP_ALONG[None, :, None] * sides[:, None]).reshape(-1, 2), others)
    lines = []
    for i in range(4):
        a, along = q[i], sides[i]
        b = a + along
        normal = np.array([along[1], -along[0]], np.float32) / max(1e-6, float(np.linalg.norm(along)))
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal
        other = float(np.linalg.norm(q[(i + 2) % 4] - b))  # the length of the sides across this one
        reach = int(round(SNAP_REACH * other))
        where = SNAP_ALONG[free.reshape(4, -1)[i]]
        shift = 0.0
        if reach >= SNAP_STEP + 2 and len(where) >= SNAP_LEAST:
            shift = _edge_shift(grey, a - origin, along, normal, reach, where)
        lines.append((a + (shift if abs(shift) >= SNAP_LEAST_SHIFT * other else 0.0) * normal, along))
    corners = sides_meet(lines)
    if corners is None:
        return q
    w, h = (float(np.linalg.norm(corners[1] - corners[0])), float(np.linalg.norm(corners[2] - corners[1])))
    if min(w, h) < 1 or not ASPECT[0] <= max(w, h) / min(w, h) <= ASPECT[1]:
        return q
    return corners


def _grey_around(image: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The blurred grey of the part of the picture a quad's sides are looked for in, and that part's top-left:
    a whole picture's grey for each card cost a Scoundrel table 20 ms."""
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    margin = SNAP_REACH * float(sides.max()) + SNAP_STEP + 4  # 3 px more than a sample reaches: the blur's border
    x0, y0 = np.maximum(np.floor(quad.min(axis=0) - margin), 0).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + margin).astype(int)
    x1, y1 = min(x1, image.shape[1]), min(y1, image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return np.full((1, 1), np.nan, np.float32), np.array([x0, y0], np.float32)
    part = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(part, (3, 3), 0).astype(np.float32), np.array([x0, y0], np.float32)


def _on_others(points: np.ndarray, others: np.ndarray | None) -> np.ndarray:
    if others is None or not len(others):
        return np.zeros(len(points), bool)
    return points_in_quads(points, others).any(axis=1)


def _edge_shift(grey: np.ndarray, start: np.ndarray, along: np.ndarray, normal: np.ndarray, reach: int,
                where: np.ndarray) -> float:
    """How far (px, outward positive) along `normal` the side from `start` along `along` (in `grey`'s pixels) has
    the card's edge: the offset where the median step from paper (inside) to darker (outside) is greatest and at
    least SNAP_EDGE; 0 where none is. Beyond the picture nothing is known: an offset needs most points inside."""
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    points = start[None, None] + where[:, None, None] * along[None, None]  # (T, 1, 2)
    inner = points + (offsets[None, :, None] - SNAP_STEP) * normal
    outer = points + (offsets[None, :, None] + SNAP_STEP) * normal
    both = np.concatenate([inner, outer], axis=0).astype(np.float32)
    values = cv2.remap(grey, both[..., 0], both[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                       borderValue=np.nan)
    t = len(where)
    steps = values[:t] - values[t:]
    step = _median_seen(steps)
    step[np.isfinite(steps).sum(axis=0) <= t // 2] = -np.inf
    best = int(np.argmax(step))
    return float(offsets[best]) if step[best] >= SNAP_EDGE else 0.0


def _median_seen(values: np.ndarray) -> np.ndarray:
    """Each column's median of its finite values (`np.nanmedian`, without its masked arrays' cost; -inf where
    none is)."""
    seen = np.isfinite(values).sum(axis=0)
    if (seen == len(values)).all():
        return np.median(values, axis=0).astype(np.float32)
    ordered = np.sort(values, axis=0)  # NaN last
    cols = np.arange(values.shape[1])
    low, high = ordered[np.maximum(seen - 1, 0) // 2, cols], ordered[seen // 2, cols]
    return np.where(seen > 0, (low + high) / 2, -np.inf).astype(np.float32)
