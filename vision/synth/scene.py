"""Scenes: cards laid in table millimetres, seen by a camera (perspective), lit, shadowed, blurred and noised.

Cards are pasted bottom to top; an owner map remembers which card shows at each pixel, so every
card knows how much of it, and of each index corner, stays visible (hands own their pixels too).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.blur import motion_blur
from vision.synth.cards import CARD_H_MM, CARD_W_MM, card_alpha, face_style, render_back, render_face
from vision.synth.hands import hand_mask, paint_hand
from vision.synth.textures import table

CARD_MM = np.array([[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]], np.float32)


@dataclass
class Placement:
    """A card on the table: `code` ("QS", "JOKER") face up, or `code=None` face down with back `design`."""

    code: str | None
    centre: tuple[float, float]  # table mm
    angle: float  # degrees, clockwise as seen from above
    style: int = 0
    design: int = 0
    zone: str = ""

    def corners_mm(self) -> np.ndarray:
        """The four corners in table mm, clockwise from the printed top-left."""
        a = np.radians(self.angle)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        local = CARD_MM - np.array([CARD_W_MM / 2, CARD_H_MM / 2], np.float32)
        return (local @ rot.T + np.array(self.centre, np.float32)).astype(np.float32)


@dataclass
class CardTruth:
    code: str  # "QS", "JOKER" or "back"
    design: int
    corners: np.ndarray  # (4, 2) image px, clockwise from the printed top-left
    visible: float  # fraction of the card's pixels that show
    index_quads: list[np.ndarray] = field(default_factory=list)  # (4, 2) image px per index corner
    index_visible: list[float] = field(default_factory=list)
    zone: str = ""
    style: int = 0


def paste_card(scene: np.ndarray, card_img: np.ndarray, corners: np.ndarray) -> None:
    """Warp `card_img` onto `scene` (in place) so its corners land on `corners` (4x2, clockwise from top-left)."""
    paste_card_mask(scene, card_img, np.asarray(corners, np.float32))


def paste_card_mask(scene: np.ndarray, card_img: np.ndarray, corners: np.ndarray, alpha: np.ndarray | None = None,
                    shadow: float = 0.0) -> tuple[np.ndarray, tuple[int, int, int, int]] | None:
    """Paste as `paste_card` and return the coverage mask (float 0..1) of its bounding box and the box x0,y0,x1,y1."""
    h_img, w_img = scene.shape[:2]
    ch, cw = card_img.shape[:2]
    if alpha is None:
        alpha = card_alpha(cw)
    pad = 12 if shadow > 0 else 2
    x0 = max(0, int(np.floor(corners[:, 0].min())) - pad)
    y0 = max(0, int(np.floor(corners[:, 1].min())) - pad)
    x1 = min(w_img, int(np.ceil(corners[:, 0].max())) + pad)
    y1 = min(h_img, int(np.ceil(corners[:, 1].max())) + pad)
    if x1 <= x0 or y1 <= y0:
        return None
    src = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32)
    m = cv2.getPerspectiveTransform(src, (corners - np.array([x0, y0], np.float32)).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(card_img, m, size, flags=cv2.INTER_AREA if _shrinks(m) else cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT)
    mask = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR).astype(np.float32) / 255.0
    roi = scene[y0:y1, x0:x1].astype(np.float32)
    if shadow > 0:
        off = max(1.0, 0.02 * max(size))
        shifted = cv2.warpAffine(mask, np.float32([[1, 0, off], [0, 1, off]]), size)
        soft = cv2.GaussianBlur(shifted, (0, 0), off)
        roi *= 1 - shadow * soft[:, :, None]
    out = roi * (1 - mask[:, :, None]) + warped.astype(np.float32) * mask[:, :, None]
    scene[y0:y1, x0:x1] = out.clip(0, 255).astype(np.uint8)
    return mask, (x0, y0, x1, y1)


def _shrinks(m: np.ndarray) -> bool:
    return abs(np.linalg.det(m[:2, :2])) < 0.8


def camera(extent_mm: tuple[float, float, float, float], size: tuple[int, int], rng: np.random.Generator,
           max_tilt: float = 0.45, fill: tuple[float, float] = (0.6, 0.95), max_turn: float = 180.0) -> np.ndarray:
    """A table-mm -> image homography: the extent fitted into the image, turned by up to `max_turn` degrees,
    and keystoned for tilt."""
    w, h = size
    ex0, ey0, ex1, ey1 = extent_mm
    rect = np.array([[ex0, ey0], [ex1, ey0], [ex1, ey1], [ex0, ey1]], np.float32)
    centre = rect.mean(axis=0)
    theta = np.radians(rng.uniform(-max_turn, max_turn))
    rot = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]], np.float32)
    pts = (rect - centre) @ rot.T
    tilt = rng.uniform(0, max_tilt)  # far edge shrinks by up to this fraction
    span_y = pts[:, 1].max() - pts[:, 1].min()
    t = (pts[:, 1] - pts[:, 1].min()) / max(span_y, 1e-6)  # 0 far (top), 1 near
    pts[:, 0] *= 1 - tilt * (1 - t)
    pts[:, 1] *= 1 - 0.5 * tilt
    span = pts.max(axis=0) - pts.min(axis=0)
    scale = min(w / span[0], h / span[1]) * rng.uniform(*fill)
    pts = (pts - pts.min(axis=0)) * scale
    free = np.array([w, h], np.float32) - (pts.max(axis=0))
    pts += free * rng.uniform(0.1, 0.9, 2)
    return cv2.getPerspectiveTransform(rect, pts.astype(np.float32))


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float32).reshape(-1, 1, 2), h).reshape(-1, 2)


def index_quads_mm(style: int, four_index: bool | None = None) -> list[np.ndarray]:
    """The index corner boxes on the card (card mm, each clockwise from its own top-left)."""
    st = face_style(style)
    x0, y0, x1, y1 = st.index_box_mm
    tl = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    br = np.array([CARD_W_MM, CARD_H_MM], np.float32) - tl
    quads = [tl, br]
    if st.four_index if four_index is None else four_index:
        tr = tl.copy()
        tr[:, 0] = CARD_W_MM - tl[:, 0]
        quads += [tr, np.array([CARD_W_MM, CARD_H_MM], np.float32) - tr]
    return quads


def card_to_table(p: Placement) -> np.ndarray:
    """Card-mm -> table-mm homography of a placement."""
    return cv2.getPerspectiveTransform(CARD_MM, p.corners_mm())


def compose(placements: list[Placement], rng: np.random.Generator, size: tuple[int, int] = (1280, 720),
            hands: int = 0, max_tilt: float = 0.45, effects: bool = True,
            fill: tuple[float, float] = (0.6, 0.95),
            max_turn: float = 180.0) -> tuple[np.ndarray, list[CardTruth], np.ndarray]:
    """Render placements (bottom first); returns the image, per-card truths and the table->image homography."""
    w, h = size
    all_mm = np.concatenate([p.corners_mm() for p in placements]) if placements else np.zeros((1, 2), np.float32)
    margin = 20.0
    extent = (float(all_mm[:, 0].min() - margin), float(all_mm[:, 1].min() - margin),
              float(all_mm[:, 0].max() + margin), float(all_mm[:, 1].max() + margin))
    hom = camera(extent, size, rng, max_tilt, fill, max_turn)
    scene = table(rng, w, h)
    owner = np.full((h, w), -1, np.int32)
    truths: list[CardTruth] = []
    px_per_mm = np.sqrt(abs(np.linalg.det(hom[:2, :2]))) / max(abs(hom[2, 2]), 1e-6)
    card_w = int(np.clip(CARD_W_MM * px_per_mm * 1.3, 40, 300))
    shadow = rng.uniform(0.1, 0.45) if effects else 0.0
    for i, p in enumerate(placements):
        if p.code is None:
            img = render_back(p.design, card_w)
        else:
            img = render_face(p.code, p.style, card_w)
        corners = project(hom, p.corners_mm())
        pasted = paste_card_mask(scene, img, corners, card_alpha(card_w, face_style(p.style).corner_radius), shadow)
        if pasted is not None:
            mask, (x0, y0, x1, y1) = pasted
            owner[y0:y1, x0:x1][mask > 0.5] = i
        to_image = hom @ card_to_table(p)
        quads = [project(to_image, q) for q in index_quads_mm(p.style)] if p.code is not None else []
        truths.append(CardTruth("back" if p.code is None else p.code, p.design, corners, 0.0, quads, [],
                                p.zone, p.style))
    for _ in range(hands):
        anchor = (int(rng.uniform(0.1, 0.9) * w), int(rng.uniform(0.1, 0.9) * h))
        mask = hand_mask((h, w), rng, anchor)
        paint_hand(scene, rng, mask)
        owner[mask > 0.5] = -2
    for i, t in enumerate(truths):
        t.visible = _visible_fraction(owner, i, t.corners)
        t.index_visible = [_visible_fraction(owner, i, q) for q in t.index_quads]
    if effects:
        scene = photo_effects(scene, rng)
    return scene, truths, hom


def _visible_fraction(owner: np.ndarray, i: int, quad: np.ndarray) -> float:
    h, w = owner.shape
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    if x1 <= 0 or y1 <= 0 or x0 >= w or y0 >= h:
        return 0.0
    poly = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(poly, np.round(quad - [x0, y0]).astype(np.int32), 1)
    total = int(poly.sum())
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    inside = poly[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    seen = int(((owner[cy0:cy1, cx0:cx1] == i) & (inside > 0)).sum())
    return seen / max(1, total)


def photo_effects(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Lighting gradient, colour temperature, glare, blur, sensor noise and JPEG artefacts."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(a) * xx / w + np.sin(a) * yy / h)
    ramp = (ramp - ramp.min()) / max(1e-6, np.ptp(ramp))
    gain = rng.uniform(0.55, 1.0) + ramp * rng.uniform(0.0, 0.5)
    out *= gain[:, :, None]
    out *= np.array([rng.uniform(0.8, 1.15), 1.0, rng.uniform(0.8, 1.2)], np.float32)[None, None, :]
    if rng.random() < 0.35:
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.05, 0.2) * max(w, h)
        glare = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
        out += glare[:, :, None] * rng.uniform(40, 140)
    out = out.clip(0, 255)
    k = rng.random()
    if k < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.6))
    elif k < 0.4:
        out = motion_blur(out, rng, 8)
    out += rng.normal(0, rng.uniform(0, 7), out.shape).astype(np.float32)
    result = out.clip(0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        ok, buf = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        result = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return result
