"""Cards and tiles laid apart on a contrasting cloth: find each one's four corners, classically.

The cloth's colour is read from the photo's border, everything far enough from it in Lab is
foreground, and each foreground blob with four straight sides is a card or a tile. Corners come from
lines fitted to the four sides, so rounded card corners do not pull them inwards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.cards.geometry import fit_sides

WORK_LONG_SIDE = 1600  # photos are searched at most this large, corners mapped back
BORDER = 0.04  # fraction of the image whose median colour is the cloth
MIN_AREA = 0.0004  # of the image, below that a blob is dirt
SIDE_TRIM = 0.18  # the ends of each side (rounded corners) left out of the line fit


@dataclass
class Found:
    quads: np.ndarray  # (N, 4, 2) clockwise (image y down), any starting corner
    areas: np.ndarray  # (N,) pixel area of each blob
    rejected: int  # blobs that were big but not four-sided (touching cards, a hand)


def foreground(image: np.ndarray, close_px: int = 3) -> np.ndarray:
    """Mask of what is not cloth (uint8 0/255); dark strokes thinner than `close_px` are closed.

    The cloth's colour is first the median of the photo's border, then a smooth field fitted to the
    cloth around the objects, so a lamp's glare or a shadow across the cloth is not taken for a card.
    """
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    h, w = lab.shape[:2]
    b = max(2, int(BORDER * min(h, w)))
    ring = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3), lab[:, :b].reshape(-1, 3),
                           lab[:, -b:].reshape(-1, 3)])
    cloth = np.median(ring, axis=0)
    spread = np.median(np.abs(ring - cloth), axis=0) + 1.0
    mask = _threshold(np.sqrt((((lab - cloth) / spread) ** 2).sum(axis=2)))
    for _ in range(2):
        field = _cloth_field(lab, _small_blobs(mask, 0.05 * h * w), cloth)
        mask = _threshold(np.sqrt((((lab - field) / spread) ** 2).sum(axis=2)))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    close = np.ones((close_px | 1, close_px | 1), np.uint8)
    return _fill_holes(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, close))


def _threshold(dist: np.ndarray) -> np.ndarray:
    top = max(1.0, float(np.percentile(dist, 99.5)))
    scaled = np.clip(dist * (255.0 / top), 0, 255).astype(np.uint8)
    otsu, _ = cv2.threshold(scaled, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    _, mask = cv2.threshold(scaled, max(otsu, 6.0 * 255.0 / top), 255, cv2.THRESH_BINARY)  # >= 6 cloth spreads
    return mask


def _small_blobs(mask: np.ndarray, limit: float) -> np.ndarray:
    """The objects: blobs of an object's size, or four-sided ones (a card filling a one-by-one photo).
    A large shapeless blob is light or shade on the cloth, not a card."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    keep = [c for c in contours if cv2.contourArea(c) <= limit or quad_of_contour(c) is not None]
    out = np.zeros(mask.shape, np.uint8)
    cv2.drawContours(out, keep, -1, 1, thickness=cv2.FILLED)
    return out.astype(bool)


def _cloth_field(lab: np.ndarray, objects: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """The cloth's colour everywhere: a wide blur of the cloth pixels only (normalised convolution)."""
    h, w = objects.shape
    free = cv2.erode((~objects).astype(np.uint8), np.ones((5, 5), np.uint8)).astype(np.float32)
    scale = 0.125  # the field is smooth: fit it small
    sw, sh = max(8, int(w * scale)), max(8, int(h * scale))
    small_free = cv2.resize(free, (sw, sh), interpolation=cv2.INTER_AREA)
    small_lab = cv2.resize(lab * free[..., None], (sw, sh), interpolation=cv2.INTER_AREA)
    sigma = max(sw, sh) / 12.0
    weight = cv2.GaussianBlur(small_free, (0, 0), sigma)
    field = cv2.GaussianBlur(small_lab, (0, 0), sigma) / np.maximum(weight, 1e-3)[..., None]
    field = np.where(weight[..., None] > 0.05, field, fallback)
    return cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """Dark print inside a card belongs to the card."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    out = np.zeros_like(mask)
    cv2.drawContours(out, contours, -1, 255, thickness=cv2.FILLED)
    return out


def find_quads(image: np.ndarray, min_area: float = MIN_AREA) -> Found:
    """Every four-sided blob on the cloth, largest first.

    Two passes: a fine mask keeps objects that lie close apart; a mask with dark strokes closed (a
    tile's walls) adds objects the fine one cut in pieces. Blobs twice the usual size are split.
    """
    h, w = image.shape[:2]
    scale = min(1.0, WORK_LONG_SIDE / max(h, w))
    small = cv2.resize(image, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else image
    limit = min_area * small.shape[0] * small.shape[1]
    fine = _blobs(foreground(small), limit)
    sides = [np.sqrt(cv2.contourArea(c)) for c in fine]
    coarse = _blobs(foreground(small, int(np.clip(0.05 * np.percentile(sides, 75), 3, 21))), limit) if sides else []
    good = [(q, a) for q, a in (_quad_area(c) for c in fine + coarse) if q is not None]
    if not good:
        return Found(np.zeros((0, 4, 2), np.float32), np.zeros(0, np.float32), len(fine))
    typical = _typical_area(good)
    candidates: list[tuple[np.ndarray, float]] = []
    for blob in fine + coarse:
        quad, area = _quad_area(blob)
        med = typical(blob)
        if quad is not None and 0.6 * med <= area <= 1.5 * med:
            candidates.append((quad, area))
        elif cv2.contourArea(blob) > med:
            pieces = [_quad_area(p) for p in _split(blob, np.sqrt(med))]
            candidates += [(q, a) for q, a in pieces if q is not None and 0.6 * med <= a <= 1.5 * med]
    kept: list[tuple[np.ndarray, float]] = []
    rejected = 0
    for quad, area in sorted(candidates, key=lambda qa: -qa[1]):  # a whole tile before its pieces
        if not _overlaps(quad, kept):
            kept.append((quad, area))
    for blob in fine:  # big enough to be an object, yet inside none kept: touching objects, a hand
        centre = blob.reshape(-1, 2).mean(axis=0)
        rejected += int(cv2.contourArea(blob) >= 0.6 * typical(blob) and not _overlaps(np.array([centre]), kept))
    quads = np.array([q / scale for q, _ in kept], np.float32).reshape(-1, 4, 2)
    return Found(quads, np.array([a / scale / scale for _, a in kept], np.float32), rejected)


def _typical_area(good: list[tuple[np.ndarray, float]]) -> Callable[[np.ndarray], float]:
    """The usual object area near a blob: the median of its nearest neighbours (a tilted camera makes
    near objects larger than far ones, so one median for the whole photo would not do)."""
    if len(good) < 4:
        biggest = max(a for _, a in good)
        return lambda blob: biggest
    centres = np.array([q.mean(axis=0) for q, _ in good])
    areas = np.array([a for _, a in good])
    k = min(len(good), 7)

    def near(blob: np.ndarray) -> float:
        d = np.linalg.norm(centres - blob.reshape(-1, 2).mean(axis=0), axis=1)
        return float(np.median(areas[np.argsort(d)[:k]]))

    return near


def _blobs(mask: np.ndarray, limit: float) -> list[np.ndarray]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return [c for c in contours if cv2.contourArea(c) >= limit]


def _quad_area(contour: np.ndarray) -> tuple[np.ndarray | None, float]:
    return quad_of_contour(contour), float(cv2.contourArea(contour))


def _overlaps(quad: np.ndarray, kept: list[tuple[np.ndarray, float]]) -> bool:
    """Whether the quad's centre lies inside one already kept (the coarse pass finds the same object again)."""
    c = quad.mean(axis=0)
    return any(cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(c[0]), float(c[1])), False) >= 0 for q, _ in kept)


def _split(blob: np.ndarray, side: float) -> list[np.ndarray]:
    """Objects that touch at a corner or an edge: erode until the blob falls apart, then grow each part back."""
    x, y, w, h = cv2.boundingRect(blob)
    pad = int(side * 0.2) + 2
    own = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(own, [blob - np.array([x - pad, y - pad])], -1, 255, cv2.FILLED)
    for k in range(3, max(4, int(side * 0.25)), 2):
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
        n, labels = cv2.connectedComponents(cv2.erode(own, kernel))
        parts = [(labels == i).astype(np.uint8) * 255 for i in range(1, n)]
        parts = [p for p in parts if cv2.countNonZero(p) > 0.1 * side * side]
        if len(parts) >= 2:
            out = []
            for part in parts:
                grown = cv2.dilate(part, kernel) & own
                found, _ = cv2.findContours(grown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
                out += [c + np.array([x - pad, y - pad]) for c in found]
            return out
    return []


def quad_of_contour(contour: np.ndarray) -> np.ndarray | None:
    """The four corners of a card-like contour, or None when it is not four-sided and convex enough."""
    hull = cv2.convexHull(contour)
    area = cv2.contourArea(contour)
    if area <= 0 or area / max(cv2.contourArea(hull), 1.0) < 0.9:
        return None  # dented: two cards touching, or a hand
    perimeter = cv2.arcLength(hull, True)
    approx = None
    for eps in (0.02, 0.03, 0.045, 0.06):
        candidate = cv2.approxPolyDP(hull, eps * perimeter, True)
        if len(candidate) == 4:
            approx = candidate.reshape(4, 2).astype(np.float32)
            break
    if approx is None:
        return None
    if abs(cv2.contourArea(approx)) / area < 0.85:
        return None
    return _clockwise(fit_sides(contour.reshape(-1, 2).astype(np.float32), approx, SIDE_TRIM))


def _clockwise(q: np.ndarray) -> np.ndarray:
    """Clockwise on screen (y down)."""
    centre = q.mean(axis=0)
    angles = np.arctan2(q[:, 1] - centre[1], q[:, 0] - centre[0])
    return q[np.argsort(angles)].astype(np.float32)


def portrait(quad: np.ndarray) -> np.ndarray:
    """Clockwise, starting so that the first side is a short one (a card standing up)."""
    q = _clockwise(np.asarray(quad, np.float32))
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, -1, axis=0)
    return q


def largest_quad(image: np.ndarray) -> np.ndarray:
    """The one card or tile in a one-by-one photo."""
    found = find_quads(image)
    if len(found.quads) == 0:
        raise LookupError("no card found: lay it alone on a plain cloth of another colour, fully in the picture")
    return found.quads[0]
