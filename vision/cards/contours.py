"""Stage 1c: classical proposals. A card is a pale, low-colour, card-shaped region that stands out from its
table at *some* brightness level, so the image is cut at several levels of two channels (grey and
"whiteness": lightness minus colourfulness) and every level's blobs are tested for the card's shape. One
global threshold (Otsu) fails on carpets, wood and light tables; a sweep finds the level where each card
separates. Touching cards merge into one blob and fail the shape test, so maps and fans stay the detector's job.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.geometry import fit_sides, mean_sides, portrait_corners, quad_iou, turned_by

WORK_SIZE = 640  # longest side the sweep runs at
ASPECT = (1.15, 1.65)  # long / short side: 88/63 = 1.40; a short fan of two cards is 1.7 and up
MIN_AREA = 0.004  # of the image
MAX_AREA = 0.8
MIN_FILL = 0.86  # blob area / its hull's, and hull against its fitted quad
LEVELS = (0.45, 0.6, 0.75, 0.85, 0.92, 0.97)  # quantiles of each channel to cut at
NMS_IOU = 0.3  # two outlines overlapping this much are one card (of a pile only the top counts)
SNAP = 4  # px a side may move onto its edge
MIN_EDGE = 0.6  # edge on a quad's outline / (on it + beside it): 0.5 is no edge at all
EDGE_OFFSET = 5.0  # px beside the outline where a true card edge is no longer
EDGE_FLOOR = 20.0  # Sobel magnitude of faint noise, so flat table scores about 0.5
TURN_STEPS = (-12, -9, -6, -3, 3, 6, 9, 12)  # degrees a card laid off from its index box is turned to meet its edges
TURN_LEAST = 0.85  # support of the turned outline's index sides (`_index_sides`) before it is taken:
# below it the turn found a stack's other edges (session 24: at 0 the ten measurement seeds 79 -> 81)
TURN_GAIN = 0.05  # by which that support must beat the outline's own
MIN_BALANCE = 0.7  # opposite sides' length ratio
OUTER_SHARE = 0.9  # an outer twin replaces an inner one when it scores at least this share of it
EDGE_LEVELS = ((30, 90), (60, 180))  # Canny thresholds
NESTED_SHARE = 0.5  # a quad inside another and at least this share of its area is the same card
OPENINGS = (3, 11)  # px at WORK_SIZE: the larger one cuts a card free of the speckle of a carpet


def propose(image: np.ndarray, min_card_area: float = 0.0) -> np.ndarray:
    """Card-shaped pale blobs as quads (N, 4, 2), clockwise, short side first, best first. `min_card_area`: the
    least area in image px a card can have there, when known (a region of a frame whose cards were measured):
    the smaller blobs, most of a small image's, are not judged."""
    small, scale = _work_image(image)
    gradient = _gradient(small)
    edges = cv2.dilate(gradient, np.ones((3, 3), np.uint8))  # an outline a pixel off still sits on its edge
    candidates: list[tuple[float, np.ndarray]] = []
    min_area = max(MIN_AREA * small.shape[0] * small.shape[1], min_card_area * scale**2)
    max_area = MAX_AREA * small.shape[0] * small.shape[1]
    for channel in _channels(small):
        for level in _levels(channel):
            filled = _filled((channel > level).astype(np.uint8) * 255)
            for k in OPENINGS:
                opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
                contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
                for c in contours:
                    found = _card_quad(c, min_area, max_area)
                    if found is not None:
                        candidates.append(found)
    for binary in _edge_regions(small):
        # Every region, nested ones too: a card's face is a region inside the table's, ringed by its edge.
        contours, hierarchy = cv2.findContours(binary, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
        outer = [c for c, h in zip(contours, hierarchy[0] if hierarchy is not None else [], strict=False) if h[3] < 0]
        for c in outer:
            found = _card_quad(c, min_area, max_area)
            if found is not None:
                candidates.append(found)
    scored = [(shape * support, q) for shape, q in _distinct(candidates)
              if (support := _edge_support(edges, q)) >= MIN_EDGE]
    return np.array([_snap(gradient, q) / scale for q in _suppress(scored)], np.float32).reshape(-1, 4, 2)


def _gradient(image: np.ndarray) -> np.ndarray:
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return cv2.magnitude(cv2.Sobel(gray, cv2.CV_32F, 1, 0), cv2.Sobel(gray, cv2.CV_32F, 0, 1))


def _edge_support(edges: np.ndarray, quad: np.ndarray, per_side: int = 24, sides: list[int] | None = None,
                  span: tuple[float, float] = (0.0, 1.0)) -> float:
    """How much more edge lies on a quad's outline than beside it, on its quieter side (0..1): a blob that took
    in a shadow or a patch of table is card-shaped but its sides float on flat table, while a card's own sides
    are crisp, even a white card's on white paper, and its margin inside is plain even on a carpet. Relative,
    so it does not depend on the image's contrast. `sides`: only those (by index); `span`: the part of each."""
    t = span[0] + (np.arange(per_side) + 0.5) / per_side * (span[1] - span[0])
    points, inward = _side_points(quad, t)
    if sides is not None:
        points, inward = points[sides], inward[sides]
    on = _sample(edges, points)
    beside = np.minimum(_sample(edges, points - EDGE_OFFSET * inward), _sample(edges, points + EDGE_OFFSET * inward))
    on_mean, beside_mean = float(on.mean()), float(beside.mean())
    return on_mean / (on_mean + beside_mean + EDGE_FLOOR)


def outline_support(image: np.ndarray, quad: np.ndarray) -> float:
    """`_edge_support` of an outline on the picture, its gradient taken only round it (one outline a picture)."""
    gradient, origin = _gradient_round(image, quad, EDGE_OFFSET + 2)
    return _edge_support(gradient, np.asarray(quad, np.float32) - origin)


def _gradient_round(image: np.ndarray, quad: np.ndarray, reach: float) -> tuple[np.ndarray, np.ndarray]:
    """The gradient of the picture round an outline, `reach` px beyond its bounds, and that window's top-left."""
    x0, y0 = np.maximum(0, np.floor(quad.min(axis=0) - reach)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + reach).astype(int)
    return _gradient(image[y0:y1, x0:x1]), np.array([x0, y0], np.float32)


def turned_to_edges(image: np.ndarray, quad: np.ndarray, pivot: np.ndarray) -> np.ndarray:
    """The outline turned about `pivot` (TURN_STEPS) where its first and last sides, those meeting at its printed
    index, then lie clearly on edges (TURN_LEAST) and more so than before (TURN_GAIN); else the outline itself.
    A card laid off from an index box takes the box's turn, and the detector boxes a small index nearly upright
    whatever the card's turn (a real nine turned 9 degrees, outlined upright: its seen part 0.45 of its label)."""
    reach = float(np.ptp(quad, axis=0).max()) * 0.5 + EDGE_OFFSET + 2  # what a turn by 12 degrees can sweep
    gradient, origin = _gradient_round(image, quad, reach)  # only round the card: one per card laid off in a frame
    best, best_score = quad, _index_sides(gradient, quad - origin) + TURN_GAIN
    for degrees in TURN_STEPS:
        candidate = turned_by(quad, degrees, pivot)
        score = _index_sides(gradient, candidate - origin)
        if score > best_score and score >= TURN_LEAST:
            best, best_score = candidate, score
    return best


def _index_sides(gradient: np.ndarray, quad: np.ndarray) -> float:
    """The edge support of a quad's sides meeting at its first corner, along their straight middles: the sides a
    card under others shows beside its printed index."""
    return _edge_support(gradient, quad, sides=[0, 3], span=(0.15, 0.85))


def _side_points(quad: np.ndarray, t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points at fractions `t` along each side (4, len(t), 2) and each side's inward unit normal (4, 1, 2)."""
    a, b = quad, np.roll(quad, -1, axis=0)
    points = a[:, None, :] + t[None, :, None] * (b - a)[:, None, :]
    normal = np.stack([a[:, 1] - b[:, 1], b[:, 0] - a[:, 0]], axis=1)
    normal /= np.maximum(1e-6, np.linalg.norm(normal, axis=1, keepdims=True))
    flip = np.sum(normal * (quad.mean(axis=0) - a), axis=1) < 0
    normal[flip] *= -1
    return points, normal[:, None, :].astype(np.float32)


def _snap(gradient: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Move each side, parallel to itself, onto the strongest edge within a few pixels: a blob cut at a low
    level takes in the blurred halo around a card and its shadow, so its outline sits a little outside."""
    t = (np.arange(32) + 0.5) / 32 * 0.7 + 0.15  # the straight middle of each side, clear of rounded corners
    points, inward = _side_points(quad, t)
    offsets = np.arange(-SNAP, SNAP + 1, dtype=np.float32)
    shifted = points[None] + offsets[:, None, None, None] * inward[None]  # offset, side, point, xy
    best = offsets[_sample(gradient, shifted).mean(axis=2).argmax(axis=0)]  # per side
    starts = quad + best[:, None] * inward[:, 0, :]
    directions = np.roll(quad, -1, axis=0) - quad
    corners = []
    for i in range(4):
        m = np.array([directions[i - 1], -directions[i]], np.float32).T
        if abs(np.linalg.det(m)) < 1e-6:
            return quad
        t1 = np.linalg.solve(m, starts[i] - starts[i - 1])[0]
        corners.append(starts[i - 1] + t1 * directions[i - 1])
    return np.array(corners, np.float32)


def _sample(values: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Values at the nearest pixels of points (..., 2), clamped to the image."""
    xs = np.clip(np.rint(points[..., 0]).astype(np.int32), 0, values.shape[1] - 1)
    ys = np.clip(np.rint(points[..., 1]).astype(np.int32), 0, values.shape[0] - 1)
    return values[ys, xs]


def _edge_regions(image: np.ndarray) -> list[np.ndarray]:
    """Regions enclosed by strong edges: a card on a table of its own brightness still has a crisp border."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    out = []
    for low, high in EDGE_LEVELS:
        edges = cv2.dilate(cv2.Canny(gray, low, high), np.ones((3, 3), np.uint8))
        out.append(cv2.erode(255 - edges, np.ones((3, 3), np.uint8)))
    return out


def _work_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    scale = min(1.0, WORK_SIZE / max(image.shape[:2]))
    if scale < 1.0:
        image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(image, (5, 5), 0), scale


def _levels(channel: np.ndarray) -> np.ndarray:
    """The LEVELS quantiles of a uint8 channel, from its histogram (a sort of the whole image costs more)."""
    cumulative = np.cumsum(np.bincount(channel.ravel(), minlength=256)) / channel.size
    return np.unique(np.searchsorted(cumulative, LEVELS)).astype(np.uint8)


def _filled(binary: np.ndarray) -> np.ndarray:
    """Close small gaps and fill holes: a court card is a white ring around a coloured picture."""
    closed = cv2.morphologyEx(binary, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(binary)
    cv2.drawContours(out, contours, -1, 255, cv2.FILLED)
    return out


def _channels(image: np.ndarray) -> list[np.ndarray]:
    """Grey, whiteness (lightness minus chroma: a white card on a beige carpet differs in colour more than in
    brightness) and grey relative to the local light."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.int16)
    chroma = np.abs(lab[:, :, 1] - 128) + np.abs(lab[:, :, 2] - 128)
    whiteness = np.clip(lab[:, :, 0] - 2 * chroma, 0, 255).astype(np.uint8)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return [gray, whiteness, _relative(gray)]


def _relative(gray: np.ndarray) -> np.ndarray:
    """Brightness over the local light level: under a lamp's gradient a card is brighter than the table around
    it, though not brighter than the lit side of the whole image. The light is blurred at 1/8 scale (cheap)."""
    h, w = gray.shape
    small = cv2.resize(gray, (max(1, w // 8), max(1, h // 8)), interpolation=cv2.INTER_AREA).astype(np.float32)
    light = cv2.resize(cv2.GaussianBlur(small, (0, 0), max(h, w) / 80), (w, h), interpolation=cv2.INTER_LINEAR) + 8.0
    return np.clip(gray.astype(np.float32) / light * 128, 0, 255).astype(np.uint8)


def _card_quad(contour: np.ndarray, min_area: float, max_area: float) -> tuple[float, np.ndarray] | None:
    """(shape score, quad) when the blob is card-shaped: a convex quad (perspective kept) or a filled rectangle."""
    area = cv2.contourArea(contour)
    if not min_area <= area <= max_area:
        return None
    hull = cv2.convexHull(contour)
    hull_area = cv2.contourArea(hull)
    if hull_area <= 0 or area / hull_area < MIN_FILL:
        return None  # dented: touching cards, a hand
    rough = cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float32)
    rect = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)
    if _card_shape(rect, hull_area) is None:
        return None  # cheap test first: most blobs fail it, and the side fit costs more
    quad = fit_sides(contour.reshape(-1, 2).astype(np.float32), rough, 0.15, 0.08) if len(rough) == 4 else rough
    if len(quad) != 4 or quad is rough:  # not four-sided, or the sides would not fit: the rotated rectangle
        quad = rect
    return _card_shape(quad, hull_area)


def _card_shape(quad: np.ndarray, hull_area: float) -> tuple[float, np.ndarray] | None:
    """(shape score, portrait quad) when a quad is a card seen at up to ~45 degrees that fits its blob's hull."""
    quad_area = cv2.contourArea(quad)
    if quad_area <= 0:
        return None
    fill = min(quad_area / hull_area, hull_area / quad_area)
    if fill < MIN_FILL:
        return None
    q = portrait_corners(quad)
    short, long = mean_sides(q)
    if short < 8 or not ASPECT[0] <= long / short <= ASPECT[1] or _side_balance(q) < MIN_BALANCE:
        return None
    aspect_error = abs(np.log(long / short / (88 / 63)))
    return fill - aspect_error, q


def _distinct(candidates: list[tuple[float, np.ndarray]]) -> list[tuple[float, np.ndarray]]:
    """The best-shaped of the candidates whose corners agree within 2 px: most cards are found at several
    levels and channels alike, and judging each copy's edges is the sweep's main cost."""
    best: dict[bytes, tuple[float, np.ndarray]] = {}
    for shape, q in candidates:
        key = np.rint(q / 4).astype(np.int32).tobytes()
        if key not in best or best[key][0] < shape:
            best[key] = (shape, q)
    return list(best.values())


def _side_balance(q: np.ndarray) -> float:
    """Shortest over longest of each pair of opposite sides: a tilted camera shrinks the far side of a card by
    a third at most; a card cut off by a hand or the image border is lopsided."""
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    return float(min(min(sides[i], sides[i + 2]) / max(sides[i], sides[i + 2]) for i in (0, 1)))


def _suppress(candidates: list[tuple[float, np.ndarray]]) -> list[np.ndarray]:
    """One quad per card: the same card is found at many levels; keep the best. Of two nested quads of similar
    size (a court card's frame inside the card) keep the outer one unless its sides are clearly weaker; a card
    lying on a sheet of paper is much smaller than the sheet and stays."""
    kept: list[tuple[float, np.ndarray]] = []
    for score, q in sorted(candidates, key=lambda t: -t[0]):
        twin = next((i for i, (_, k) in enumerate(kept) if quad_iou(q, k) >= NMS_IOU or _nested(q, k)), None)
        if twin is None:
            kept.append((score, q))
        elif (cv2.contourArea(q) > cv2.contourArea(kept[twin][1]) and _nested(q, kept[twin][1])
              and score >= OUTER_SHARE * kept[twin][0]):
            kept[twin] = (score, q)
    unique: list[tuple[float, np.ndarray]] = []  # a replacement can make two kept quads twins
    for score, q in sorted(kept, key=lambda t: -t[0]):
        if all(quad_iou(q, k) < NMS_IOU and not _nested(q, k) for _, k in unique):
            unique.append((score, q))
    kept = unique
    # Two cards side by side (126 x 88 mm) are card-shaped too: a quad holding two found cards is not one.
    quads = [k for _, k in kept]
    kept = [(sc, k) for sc, k in kept if sum(_holds(k, o) for o in quads if o is not k) < 2]
    return [k for _, k in kept]


def _holds(outer: np.ndarray, inner: np.ndarray) -> bool:
    inter, _ = cv2.intersectConvexConvex(outer.astype(np.float32), inner.astype(np.float32))
    return inter > 0.8 * cv2.contourArea(inner.astype(np.float32))


def _nested(a: np.ndarray, b: np.ndarray) -> bool:
    """One quad lies inside the other and covers most of it."""
    area_a, area_b = cv2.contourArea(a), cv2.contourArea(b)
    small, large = (a, b) if area_a < area_b else (b, a)
    if min(area_a, area_b) < NESTED_SHARE * max(area_a, area_b):
        return False
    return _holds(large, small)
