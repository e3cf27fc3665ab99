"""Card geometry shared by the generator and the runtime: card frame, index crops, outlines from boxes.

The card frame is 63 x 88 mm with the printed top-left index at the origin. An index crop is the
card-frame rectangle INDEX_CROP_MM warped to CROP_W x CROP_H pixels, so the classifier always sees
an upright index at one scale, whatever the camera did.
"""

from __future__ import annotations

import cv2
import numpy as np

CARD_W_MM, CARD_H_MM = 63.0, 88.0
CARD_ASPECT = CARD_H_MM / CARD_W_MM  # long side over short side
CARD_MM = np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]], np.float32)
INDEX_CROP_MM = (0.0, 0.0, 14.0, 24.0)  # x0, y0, x1, y1 on the card
CROP_W, CROP_H = 28, 48
FACE_CROP_MM = (0.0, 0.0, CARD_W_MM, CARD_H_MM)  # the whole card, for the face reader
FACE_W, FACE_H = 32, 44
COURT_FACE_W, COURT_FACE_H = 40, 56  # the court reader's larger face crop (a map card is about 45 x 63 px)
SMOOTH_INDEX = False  # the index classifier was trained on bilinear crops
MAX_SUPERSAMPLE = 8  # a crop is warped at up to this multiple of its size before it is area-averaged
# Where an index box (as the detector draws it) sits on the card, for outlines rebuilt from an index alone.
INDEX_BOX_MM = np.array([[1.0, 1.6], [10.6, 1.6], [10.6, 18.6], [1.0, 18.6]], np.float32)
RUN_ON_SLACK = 1.1  # a part of a card (`cards_running_on`) is at most this much longer than the card each way


def card_to_image(corners: np.ndarray) -> np.ndarray:
    """Homography from card mm to image px for corners clockwise from the printed top-left."""
    return cv2.getPerspectiveTransform(CARD_MM, np.asarray(corners, np.float32))


def to_frame(points: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """Image points (N, 2) in the frame (mm) that `homography` maps to the image from: a card's, a grid's."""
    pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
    if not len(pts):  # OpenCV returns None for no points
        return np.zeros((0, 2), np.float32)
    return cv2.perspectiveTransform(pts, np.linalg.inv(homography)).reshape(-1, 2)


def rect_homography(corners: np.ndarray, rect_mm: tuple[float, ...], size: tuple[int, int]) -> np.ndarray:
    """Homography from image px to a `size` (w, h) crop of the card-frame rectangle `rect_mm` (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = rect_mm
    sx, sy = size[0] / (x1 - x0), size[1] / (y1 - y0)
    crop_from_card = np.array([[sx, 0, -x0 * sx], [0, sy, -y0 * sy], [0, 0, 1]], np.float64)
    return crop_from_card @ np.linalg.inv(card_to_image(corners))


def rect_crop(image: np.ndarray, corners: np.ndarray, rect_mm: tuple[float, ...], size: tuple[int, int],
              smooth: bool = True) -> np.ndarray:
    """The card-frame rectangle `rect_mm` of the card with these corners, upright, size[1] x size[0] x 3 uint8.
    warpPerspective samples bilinearly whatever flag it is given, so a crop that shrinks the card a lot would
    alias (pips and strokes flicker with the outline's sub-pixel position); with `smooth` it is warped at an
    integer multiple of its size first and then area-averaged down."""
    h = rect_homography(corners, rect_mm, size)
    side = float(np.linalg.norm(np.asarray(corners[1]) - np.asarray(corners[0])))
    shrink = side * (rect_mm[2] - rect_mm[0]) / CARD_W_MM / size[0]
    k = int(min(MAX_SUPERSAMPLE, np.ceil(shrink))) if smooth else 1
    if k <= 1:
        return cv2.warpPerspective(image, h, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    big = cv2.warpPerspective(image, np.diag([k, k, 1.0]) @ h, (size[0] * k, size[1] * k), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)
    return cv2.resize(big, size, interpolation=cv2.INTER_AREA)


def index_crop(image: np.ndarray, corners: np.ndarray, zoom: float = 1.0) -> np.ndarray:
    """The top-left index of the card with these corners, upright, CROP_H x CROP_W x 3 uint8."""
    return rect_crop(image, corners, tuple(v * zoom for v in INDEX_CROP_MM), (CROP_W, CROP_H), smooth=SMOOTH_INDEX)


def face_crop(image: np.ndarray, corners: np.ndarray, size: tuple[int, int] = (FACE_W, FACE_H)) -> np.ndarray:
    """The whole card face, upright, `size` (w, h) x 3 uint8: the pips and pictures a tiny card still shows
    when its index letters are a few pixels tall."""
    return rect_crop(image, corners, FACE_CROP_MM, size)


def turned_by(quad: np.ndarray, degrees: float, pivot: np.ndarray | None = None) -> np.ndarray:
    """The quad turned by `degrees` (clockwise on screen, y down) about `pivot`, by default its centre."""
    q = np.asarray(quad, np.float32)
    centre = q.mean(axis=0) if pivot is None else np.asarray(pivot, np.float32)
    a = np.radians(degrees)
    return ((q - centre) @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]], np.float32) + centre)


def rotate_corners(corners: np.ndarray, k: int) -> np.ndarray:
    """The same outline read from another corner: k=2 turns the card by 180 degrees."""
    return np.roll(np.asarray(corners, np.float32), -k, axis=0)


def portrait_corners(quad: np.ndarray) -> np.ndarray:
    """Order a card quad clockwise (in image coordinates, y down) starting so that the first side is short."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    centre = q.mean(axis=0)
    angles = np.arctan2(q[:, 1] - centre[1], q[:, 0] - centre[0])
    q = q[np.argsort(angles)]  # clockwise on screen (y down)
    if np.linalg.norm(q[1] - q[0]) > np.linalg.norm(q[2] - q[1]):
        q = np.roll(q, -1, axis=0)
    return q


def mean_sides(quad: np.ndarray) -> tuple[float, float]:
    """A portrait quad's short and long side, each the mean of its two opposite sides (perspective makes them
    differ)."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    short = (np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[3] - q[2])) / 2
    long = (np.linalg.norm(q[2] - q[1]) + np.linalg.norm(q[0] - q[3])) / 2
    return float(short), float(long)


def card_shapes(quad: np.ndarray) -> np.ndarray:
    """(4, 4, 2): the card-shaped outlines a wrongly shaped one may be the visible part of: its short side set
    by its long side, kept at either long side, or its long side set by its short side, kept at either end;
    clockwise from the portrait quad's first corner, mapped bilinearly (perspective bends the quad a little)."""
    q = portrait_corners(quad)
    short, long = mean_sides(q)
    wide = long / CARD_ASPECT / max(short, 1e-6)  # the card's short side, in the quad's short sides
    tall = short * CARD_ASPECT / max(long, 1e-6)
    spans = [((0.0, wide), (0.0, 1.0)), ((1.0 - wide, 1.0), (0.0, 1.0)),
             ((0.0, 1.0), (0.0, tall)), ((0.0, 1.0), (1.0 - tall, 1.0))]
    return _parts(q, spans)


def side_by_side(quad: np.ndarray) -> np.ndarray:
    """(2, 4, 2): the two portrait cards a card-shaped outline round two cards lying side by side would hold:
    the quad's short side is their long side, one at either end of its long side (portrait corners). Two
    overlapping cards side by side make a landscape outline about as long as a card's, read as one card."""
    q = portrait_corners(quad)
    short, long = mean_sides(q)
    part = short / CARD_ASPECT / max(long, 1e-6)  # a card's short side, in the quad's long sides
    return np.array([portrait_corners(p) for p in _parts(q, [((0.0, 1.0), (0.0, part)),
                                                             ((0.0, 1.0), (1.0 - part, 1.0))])], np.float32)


def cards_of_strip(quad: np.ndarray) -> np.ndarray:
    """(2, 4, 2): the portrait cards a strip may be the end of, its long side their short side, one running on
    past either long side. The end of a card under others (a weapon stack's card, its top strip showing) is as
    wide as the card and shorter than that, so its outline may be card-shaped lying crosswise."""
    q = portrait_corners(quad)
    short, long = mean_sides(q)
    span = long * CARD_ASPECT / max(short, 1e-6)  # a card's long side, in the quad's short sides
    return np.array([portrait_corners(p) for p in _parts(q, [((0.0, span), (0.0, 1.0)),
                                                             ((1.0 - span, 1.0), (0.0, 1.0))])], np.float32)


def cards_running_on(quad: np.ndarray, short: float, long: float) -> np.ndarray:
    """(n, 4, 2): the cards `short` x `long` px a smaller outline may be the visible part of, lying either way
    round in it, each side it falls short by grown past one end or the other (portrait corners): a card the
    picture's edge cuts is outlined by what shows, which may be card-shaped and too small. A way round whose
    card the outline does not fit in (RUN_ON_SLACK) is left out."""
    q = portrait_corners(quad)
    across, along = mean_sides(q)
    out = []
    for wide, tall in ((short, long), (long, short)):
        if across > RUN_ON_SLACK * wide or along > RUN_ON_SLACK * tall:  # no part of a card lying this way
            continue
        a, b = max(wide / max(across, 1e-6), 1.0), max(tall / max(along, 1e-6), 1.0)
        if a == 1.0 and b == 1.0:
            continue
        spans = [((a0, a0 + a), (b0, b0 + b)) for a0 in {0.0, 1.0 - a} for b0 in {0.0, 1.0 - b}]
        out += [portrait_corners(p) for p in _parts(q, spans)]
    return np.array(out, np.float32).reshape(-1, 4, 2)


def cards_at_top(quad: np.ndarray, width: float) -> np.ndarray:
    """(2, 4, 2): the cards `width` px wide at either end of the quad's first side (its printed top), running a
    card's length along its second side, corners in the quad's order."""
    q = np.asarray(quad, np.float32).reshape(4, 2)
    top, left = mean_sides(q)
    part, run = width / max(top, 1e-6), width * CARD_ASPECT / max(left, 1e-6)
    return _parts(q, [((0.0, part), (0.0, run)), ((1.0 - part, 1.0), (0.0, run))])


def _parts(q: np.ndarray, spans: list) -> np.ndarray:
    """The parts of quad `q` spanning ((a0, a1), (b0, b1)) of its first and second sides, mapped bilinearly
    (perspective bends the quad a little), clockwise from the part's corner nearest q[0]."""
    out = []
    for (a0, a1), (b0, b1) in spans:
        ab = np.array([[a0, b0], [a1, b0], [a1, b1], [a0, b1]], np.float32)
        a, b = ab[:, :1], ab[:, 1:]
        out.append((1 - a) * (1 - b) * q[0] + a * (1 - b) * q[1] + a * b * q[2] + (1 - a) * b * q[3])
    return np.array(out, np.float32)


def aspect(quad: np.ndarray) -> float:
    """A quad's long side over its short side (a card's: CARD_ASPECT)."""
    short, long = mean_sides(portrait_corners(quad))
    return float(long / max(short, 1e-6))


def card_shape_off(quad: np.ndarray) -> float:
    """How far (relative) a quad's long / short side ratio is from a card's."""
    return abs(aspect(quad) / CARD_ASPECT - 1.0)


def outline_from_index(index_quad: np.ndarray) -> np.ndarray:
    """The full card outline implied by an upright index box (clockwise from its own top-left)."""
    h = cv2.getPerspectiveTransform(INDEX_BOX_MM, np.asarray(index_quad, np.float32))
    # An index box fixes scale and rotation well but perspective poorly: keep the affine part only.
    a = cv2.getAffineTransform(INDEX_BOX_MM[:3], cv2.perspectiveTransform(INDEX_BOX_MM[None, :3], h)[0])
    return (CARD_MM @ a[:, :2].T + a[:, 2]).astype(np.float32)


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    pa, pb = np.asarray(a, np.float32).reshape(-1, 2), np.asarray(b, np.float32).reshape(-1, 2)
    area, _ = cv2.intersectConvexConvex(pa, pb)
    union = cv2.contourArea(pa) + cv2.contourArea(pb) - area
    return float(area / union) if union > 0 else 0.0


def quad_bounds(quad: np.ndarray) -> tuple[float, float, float, float]:
    """x0, y0, x1, y1 of a quad's axis-aligned bounds (to compare it with an upright box)."""
    q = np.asarray(quad).reshape(-1, 2)
    return float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())


def pairwise_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M) intersection over union of convex quads (N, 4, 2) and (M, 4, 2); pairs whose bounding boxes do not
    meet are 0 without a polygon intersection (most pairs of a table's cards)."""
    a, b = np.asarray(a, np.float32).reshape(-1, 4, 2), np.asarray(b, np.float32).reshape(-1, 4, 2)
    out = np.zeros((len(a), len(b)), np.float32)
    if not len(a) or not len(b):
        return out
    lo_a, hi_a, lo_b, hi_b = a.min(axis=1), a.max(axis=1), b.min(axis=1), b.max(axis=1)
    meet = ((lo_a[:, None] < hi_b[None]) & (lo_b[None] < hi_a[:, None])).all(axis=2)
    for i, j in zip(*np.nonzero(meet), strict=True):
        out[i, j] = quad_iou(a[i], b[j])
    return out


def points_in_quads(points: np.ndarray, quads: np.ndarray) -> np.ndarray:
    """(M, N): whether each point (M, 2) lies in or on each convex quad (N, 4, 2), whichever way it turns."""
    p = np.asarray(points, np.float32).reshape(-1, 1, 1, 2)
    q = np.asarray(quads, np.float32).reshape(1, -1, 4, 2)
    edge = np.roll(q, -1, axis=2) - q
    rel = p - q
    cross = edge[..., 0] * rel[..., 1] - edge[..., 1] * rel[..., 0]  # (M, N, 4)
    return (cross >= 0).all(axis=2) | (cross <= 0).all(axis=2)


def fit_sides(points: np.ndarray, corners: np.ndarray, trim: float = 0.18, band: float = 0.04) -> np.ndarray:
    """Corners where lines fitted to the middle part of each side meet (`trim` of each end left out): a rough
    polygon cuts a card's rounded corners and can sit pixels off its sides; the straight middles fix them.
    Points within `band` of a side's length from it belong to it. The rough corners come back when a side has
    too few points or the fit moves a corner too far."""
    lines = []
    for i in range(4):
        a, b = corners[i], corners[(i + 1) % 4]
        side = b - a
        length = float(np.linalg.norm(side))
        if length < 4:
            return corners
        t = (points - a) @ side / length**2
        normal = np.array([-side[1], side[0]]) / length
        off = np.abs((points - a) @ normal)
        near = points[(t > trim) & (t < 1 - trim) & (off < max(3.0, band * length))]
        if len(near) < 5:
            return corners
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    refined = sides_meet(lines)
    if refined is None:
        return corners
    if np.abs(refined - corners).max() > 0.15 * np.linalg.norm(corners[1] - corners[0]) + 3:
        return corners
    return refined


def sides_meet(lines: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray | None:
    """(4, 2): where each of four sides (a point and a direction, in turn round a quad) meets the one before it;
    None where two of them run parallel."""
    out = []
    for i in range(4):
        (p, d), (q, e) = lines[i - 1], lines[i]
        d, e = np.asarray(d, np.float64), np.asarray(e, np.float64)
        d, e = d / max(1e-12, float(np.linalg.norm(d))), e / max(1e-12, float(np.linalg.norm(e)))
        m = np.array([d, -e]).T
        if abs(np.linalg.det(m)) < 1e-6:
            return None
        s = np.linalg.solve(m, np.asarray(q, np.float64) - np.asarray(p, np.float64))
        out.append(p + s[0] * d)
    return np.array(out, np.float32)


TURNS = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}  # clockwise degrees


def turned_onto(points: np.ndarray, degrees: int, shape: tuple[int, ...]) -> np.ndarray:
    """Points (..., 2) of a picture of `shape` (h, w, ...) on the picture turned `degrees` clockwise (`TURNS`):
    the inverse of `turned_back`."""
    p = np.asarray(points, np.float32)
    h, w = shape[:2]
    x, y = p[..., 0], p[..., 1]
    onto = {90: (h - 1 - y, x), 180: (w - 1 - x, h - 1 - y), 270: (y, w - 1 - x)}[degrees]
    return np.stack(onto, axis=-1).astype(np.float32)


def turned_back(points: np.ndarray, degrees: int, shape: tuple[int, ...]) -> np.ndarray:
    """Points (..., 2) of a picture of `shape` (h, w, ...) turned `degrees` clockwise (`TURNS`), taken back onto
    the picture itself."""
    p = np.asarray(points, np.float32)
    h, w = shape[:2]
    x, y = p[..., 0], p[..., 1]
    back = {90: (y, h - 1 - x), 180: (w - 1 - x, h - 1 - y), 270: (w - 1 - y, x)}[degrees]
    return np.stack(back, axis=-1).astype(np.float32)
