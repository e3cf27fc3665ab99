"""Things that stand on or reach over the board in a picture: meeples and hands (BGR drawing)."""

from __future__ import annotations

import cv2
import numpy as np

# meeple colour name -> typical wooden meeple paint (BGR); calibration replaces these with measured ones
MEEPLE_PAINT: dict[str, tuple[int, int, int]] = {
    "red": (40, 38, 200),
    "blue": (170, 80, 30),
    "yellow": (40, 205, 240),
    "black": (40, 36, 34),
    "green": (60, 150, 30),
}
SKIN: tuple[tuple[int, int, int], ...] = ((150, 180, 225), (120, 150, 200), (80, 110, 160), (60, 80, 120))

# meeple outline, unit box: x 0..1, y 0 (head) .. 1 (feet); the feet's centre is (0.5, 1)
MEEPLE_OUTLINE = np.array([
    [0.36, 0.06], [0.5, 0.0], [0.64, 0.06], [0.66, 0.22], [0.96, 0.36], [1.0, 0.5], [0.7, 0.52],
    [0.92, 1.0], [0.6, 1.0], [0.5, 0.78], [0.4, 1.0], [0.08, 1.0], [0.3, 0.52], [0.0, 0.5],
    [0.04, 0.36], [0.34, 0.22],
])


def draw_meeple(img: np.ndarray, foot: tuple[float, float], width: float, squash: float,
                paint: tuple[int, int, int], rng: np.random.Generator) -> np.ndarray:
    """A standing meeple whose feet are at `foot` (image px); returns its pixel mask."""
    height = width * squash
    pts = MEEPLE_OUTLINE * np.array([width, height]) + np.array([foot[0] - width / 2, foot[1] - height])
    shadow = (pts + np.array([width * 0.12, height * 0.06])) * 16
    layer = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(layer, [np.round(shadow).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    alpha = cv2.GaussianBlur(layer, (0, 0), max(0.8, width * 0.05)).astype(np.float32)[..., None] / 255 * 0.45
    img[:] = (img * (1 - alpha)).astype(np.uint8)
    mask = np.zeros(img.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(pts * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    colour = np.clip(np.array(paint, np.float32) * rng.uniform(0.9, 1.1) + rng.normal(0, 6, 3), 0, 255)
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return mask > 127
    top, left = ys.min(), xs.min()
    shade = 1.12 - 0.25 * (ys - top) / max(1, ys.max() - top) - 0.12 * (xs - left) / max(1, xs.max() - left)
    a = mask[ys, xs].astype(np.float32)[:, None] / 255
    img[ys, xs] = np.clip(img[ys, xs] * (1 - a) + (colour * shade[:, None]) * a, 0, 255).astype(np.uint8)
    return mask > 127


def draw_hand(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A hand and forearm reaching in from an image border; returns its pixel mask."""
    h, w = img.shape[:2]
    side = int(rng.integers(4))
    reach = rng.uniform(0.2, 0.45)
    along = rng.uniform(0.2, 0.8)
    scale = min(h, w) * rng.uniform(0.12, 0.2)
    # hand frame: the arm comes from the border along -direction, the palm centre at the tip
    directions = {0: (0.0, 1.0), 1: (-1.0, 0.0), 2: (0.0, -1.0), 3: (1.0, 0.0)}
    dx, dy = directions[side]
    starts = {0: (along * w, 0.0), 1: (float(w), along * h), 2: (along * w, float(h)), 3: (0.0, along * h)}
    sx, sy = starts[side]
    depth = reach * (h if side in (0, 2) else w)
    palm = np.array([sx + dx * depth, sy + dy * depth])
    mask = np.zeros((h, w), np.uint8)
    normal = np.array([-dy, dx])
    arm_end = palm - np.array([dx, dy]) * depth * 1.5
    cv2.line(mask, tuple(np.round(arm_end).astype(int)), tuple(np.round(palm).astype(int)), 255, int(scale * 0.8))
    cv2.circle(mask, tuple(np.round(palm).astype(int)), int(scale * 0.55), 255, -1)
    for i, spread in enumerate(np.linspace(-0.45, 0.45, 4)):
        base = palm + normal * spread * scale + np.array([dx, dy]) * scale * 0.3
        tip = base + (np.array([dx, dy]) + normal * spread * 0.4) * scale * (0.85 + 0.15 * (i % 3))
        cv2.line(mask, tuple(np.round(base).astype(int)), tuple(np.round(tip).astype(int)), 255,
                 max(2, int(scale * 0.17)))
    thumb = palm + normal * scale * 0.55
    thumb_tip = tuple(np.round(thumb + np.array([dx, dy]) * scale * 0.4).astype(int))
    cv2.line(mask, tuple(np.round(palm).astype(int)), thumb_tip, 255, max(2, int(scale * 0.2)))
    shadow = cv2.GaussianBlur(np.roll(mask, (int(scale * 0.15), int(scale * 0.1)), (0, 1)), (0, 0), scale * 0.1)
    img[:] = (img * (1 - shadow[..., None].astype(np.float32) / 255 * 0.4)).astype(np.uint8)
    skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float32) + rng.normal(0, 8, 3)
    shade = 0.85 + 0.3 * cv2.GaussianBlur(rng.random((h // 8 + 1, w // 8 + 1)).astype(np.float32), (0, 0), 2)
    shade = cv2.resize(shade, (w, h))[..., None]
    a = cv2.GaussianBlur(mask, (3, 3), 0).astype(np.float32)[..., None] / 255
    img[:] = np.clip(img * (1 - a) + skin * shade * a, 0, 255).astype(np.uint8)
    return mask > 127
