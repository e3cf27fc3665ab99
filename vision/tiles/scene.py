"""A synthetic photograph of a board: tiles laid with gaps and slop, a table, perspective, light, meeples, hands.

Returns the picture with its ground truth (each tile's corners in the image, meeples' feet), so the
evaluation can score the recogniser exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.tiles.board import Board, Cell, Meeple
from vision.tiles.figures import MEEPLE_PAINT, draw_hand, draw_meeple
from vision.tiles.render import render_tile
from vision.tiles.styles import STYLES

TABLES: tuple[tuple[int, int, int], ...] = (  # BGR table tops: wood, grey, white, dark cloth, blue cloth
    (60, 100, 150), (40, 70, 110), (150, 150, 150), (225, 225, 220), (45, 40, 40), (120, 70, 40), (90, 90, 100),
)


@dataclass(frozen=True)
class SceneSpec:
    """How hard the picture is: all ranges are drawn uniformly per picture."""

    width: int = 1280
    height: int = 720
    styles: tuple[str, ...] = ("classic", "modern", "flat", "painted")
    fill: tuple[float, float] = (0.7, 0.95)  # board extent over the image's extent, the tighter axis
    tilt: float = 0.2  # far-edge shrink of the keystone (0 = straight down)
    turn_deg: float = 12.0  # in-plane board rotation
    gap: tuple[float, float] = (0.0, 0.04)  # between tiles, in tiles
    slop: float = 0.02  # per-tile shift, in tiles
    slop_deg: float = 2.0  # per-tile turn
    light: float = 0.25  # strength of uneven light and colour cast
    noise: float = 4.0
    blur: float = 0.8
    hands: float = 0.0  # chance of a hand in the picture
    meeple_paint_jitter: float = 0.08


@dataclass
class Scene:
    image: np.ndarray
    corners: dict[Cell, np.ndarray]  # tile -> 4x2 image points TL TR BR BL (N up)
    board: Board
    meeples: list[Meeple]
    hidden: set[Cell] = field(default_factory=set)  # tiles a hand covers
    paints: dict[str, tuple[int, int, int]] = field(default_factory=dict)


def compose(board: Board, spec: SceneSpec, rng: np.random.Generator) -> Scene:
    style = STYLES[spec.styles[int(rng.integers(len(spec.styles)))]]
    x0, y0, x1, y1 = board.bounds()
    nx, ny = x1 - x0 + 1, y1 - y0 + 1
    short = min(spec.width, spec.height)
    fill = rng.uniform(*spec.fill)
    pitch_img = min(spec.width * fill / nx, spec.height * fill / ny, short * 0.7)
    tile_px = int(np.clip(pitch_img * 1.6, 48, 256))  # drawn finer than shown, then warped down
    margin = tile_px
    plane_w, plane_h = nx * tile_px + 2 * margin, ny * tile_px + 2 * margin
    plane = np.zeros((plane_h, plane_w, 3), np.uint8)
    alpha = np.zeros((plane_h, plane_w), np.uint8)
    gap = rng.uniform(*spec.gap)
    plane_corners: dict[Cell, np.ndarray] = {}
    for cell, (letter, rotation) in board.tiles.items():
        art = render_tile(letter, rotation, style, tile_px, rng)
        centre = np.array([(cell[0] - x0 + 0.5) * tile_px + margin, (cell[1] - y0 + 0.5) * tile_px + margin])
        centre += rng.normal(0, spec.slop * tile_px, 2)
        angle = rng.normal(0, spec.slop_deg)
        side = tile_px * (1 - gap)
        m = cv2.getRotationMatrix2D((tile_px / 2, tile_px / 2), -angle, side / tile_px)
        m[:, 2] += centre - tile_px / 2
        cv2.warpAffine(art, m, (plane_w, plane_h), plane, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_TRANSPARENT)
        square = np.array([[0, 0], [tile_px, 0], [tile_px, tile_px], [0, tile_px]], np.float64)
        quad = square @ m[:, :2].T + m[:, 2]
        cv2.fillConvexPoly(alpha, np.round(quad * 16).astype(np.int32), 255, cv2.LINE_AA, shift=4)
        plane_corners[cell] = quad
    h_matrix = _camera(plane_w, plane_h, margin, nx, ny, tile_px, pitch_img, spec, rng)
    image = _table(spec, rng)
    _shadow(image, alpha, h_matrix, tile_px)
    warped = cv2.warpPerspective(plane, h_matrix, (spec.width, spec.height), flags=cv2.INTER_AREA)
    a = cv2.warpPerspective(alpha, h_matrix, (spec.width, spec.height), flags=cv2.INTER_LINEAR)
    a = a.astype(np.float32)[..., None] / 255
    image = (image * (1 - a) + warped * a).astype(np.uint8)
    corners = {c: cv2.perspectiveTransform(q[None], h_matrix)[0] for c, q in plane_corners.items()}
    paints = {name: _paint(bgr, spec, rng) for name, bgr in MEEPLE_PAINT.items()}
    for meeple in sorted(board.meeples, key=lambda m: _foot(m, corners)[1]):
        quad = corners[meeple.cell]
        size = float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))
        draw_meeple(image, _foot(meeple, corners), size * rng.uniform(0.26, 0.32), rng.uniform(0.55, 1.0),
                    paints[meeple.colour], rng)
    hidden: set[Cell] = set()
    if rng.random() < spec.hands:
        hand = draw_hand(image, rng)
        hidden = {c for c, q in corners.items() if _covered(hand, q) > 0.15}
    image = _light(image, spec, rng)
    return Scene(image, corners, board, list(board.meeples), hidden, paints)


def _paint(bgr: tuple[int, int, int], spec: SceneSpec, rng: np.random.Generator) -> tuple[int, int, int]:
    jitter = 1 + rng.uniform(-spec.meeple_paint_jitter, spec.meeple_paint_jitter, 3)
    b, g, r = np.clip(np.array(bgr) * jitter, 0, 255).astype(int).tolist()
    return (b, g, r)


UNIT_SQUARE = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)


def _foot(meeple: Meeple, corners: dict[Cell, np.ndarray]) -> tuple[float, float]:
    """The meeple's standing point in the image: its point on the tile through the tile's own homography.

    (Bilinear in the picture's quad put it up to 0.15 tile off that point on a single tile in strong
    perspective, so the meeple was drawn on the field beside the road its label named.)
    """
    to_image = cv2.getPerspectiveTransform(UNIT_SQUARE, corners[meeple.cell].astype(np.float32))
    p = cv2.perspectiveTransform(np.array([[meeple.point]], np.float64), to_image)[0, 0]
    return (float(p[0]), float(p[1]))


def _covered(mask: np.ndarray, quad: np.ndarray) -> float:
    poly = np.zeros(mask.shape, np.uint8)
    cv2.fillConvexPoly(poly, np.round(quad).astype(np.int32), 1)
    area = poly.sum()
    return float((mask & (poly > 0)).sum() / area) if area else 0.0


def _camera(plane_w: int, plane_h: int, margin: int, nx: int, ny: int, tile_px: int, pitch_img: float,
            spec: SceneSpec, rng: np.random.Generator) -> np.ndarray:
    """Plane -> image: scale to the wanted pitch, turn, keystone for a tilted camera, then place."""
    src = np.array([[margin, margin], [margin + nx * tile_px, margin], [margin + nx * tile_px, margin + ny * tile_px],
                    [margin, margin + ny * tile_px]], np.float64)
    w, h = nx * pitch_img, ny * pitch_img
    rect = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    turn = np.radians(rng.uniform(-spec.turn_deg, spec.turn_deg))
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    pts = rect @ rot.T
    # keystone: points far from the camera (top of the image) come closer to the vertical axis
    shrink = rng.uniform(0, spec.tilt)
    span = max(1e-6, np.ptp(pts[:, 1]))
    far = (pts[:, 1].max() - pts[:, 1]) / span
    pts[:, 0] *= 1 - shrink * far
    pts[:, 1] *= 1 - 0.5 * shrink
    pts += rng.uniform(-1, 1, (4, 2)) * pitch_img * 0.15
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    room = np.array([spec.width, spec.height]) - (hi - lo)
    offset = -lo + np.maximum(room, 0) * rng.uniform(0.1, 0.9, 2) + np.minimum(room, 0) / 2
    return cv2.getPerspectiveTransform(src.astype(np.float32), (pts + offset).astype(np.float32))


def _table(spec: SceneSpec, rng: np.random.Generator) -> np.ndarray:
    base = np.array(TABLES[int(rng.integers(len(TABLES)))], np.float32) * rng.uniform(0.85, 1.15)
    h, w = spec.height, spec.width
    grain = cv2.resize(rng.normal(0, 1, (h // 16 + 1, 3)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    fine = rng.normal(0, 1, (h, w, 1)).astype(np.float32)
    img = base * (1 + 0.06 * grain[..., None] + 0.03 * fine)
    return np.clip(img, 0, 255).astype(np.uint8)


def _shadow(image: np.ndarray, alpha: np.ndarray, h_matrix: np.ndarray, tile_px: int) -> None:
    shift = np.array([[1, 0, tile_px * 0.03], [0, 1, tile_px * 0.04], [0, 0, 1]])
    a = cv2.warpPerspective(alpha, h_matrix @ shift, (image.shape[1], image.shape[0]))
    a = cv2.GaussianBlur(a, (0, 0), 2).astype(np.float32)[..., None] / 255
    image[:] = (image * (1 - 0.35 * a)).astype(np.uint8)


def _light(image: np.ndarray, spec: SceneSpec, rng: np.random.Generator) -> np.ndarray:
    h, w = image.shape[:2]
    gx, gy = np.meshgrid(np.linspace(-1, 1, w, dtype=np.float32), np.linspace(-1, 1, h, dtype=np.float32))
    a, b = rng.uniform(-1, 1, 2) * spec.light * 0.6
    gain = 1 + a * gx + b * gy - spec.light * 0.3 * (gx**2 + gy**2) * rng.random()
    cast = 1 + rng.uniform(-1, 1, 3).astype(np.float32) * spec.light * 0.25
    img = image.astype(np.float32) * gain[..., None] * cast
    img += rng.normal(0, spec.noise, img.shape).astype(np.float32)
    if spec.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, spec.blur))
    out = np.clip(img, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out
