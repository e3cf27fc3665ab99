"""A hand and forearm reaching in from the image border, so detectors learn partly covered cards."""

from __future__ import annotations

import cv2
import numpy as np

SKIN_TONES_BGR: tuple[tuple[int, int, int], ...] = (
    (170, 190, 235), (140, 170, 225), (110, 145, 200), (80, 110, 170), (55, 75, 120), (40, 55, 90),
)


def hand_mask(shape: tuple[int, int], rng: np.random.Generator, anchor: tuple[int, int]) -> np.ndarray:
    """Float mask (0..1) of an arm entering from the nearest border with the palm at `anchor` (x, y)."""
    h, w = shape
    ax, ay = float(anchor[0]), float(anchor[1])
    scale = max(12.0, min(h, w) * rng.uniform(0.06, 0.11))
    # The arm comes from the border nearest the anchor, with some slant.
    exits = [(ax, h + scale * 3), (ax, -scale * 3), (-scale * 3, ay), (w + scale * 3, ay)]
    dists = [h - ay, ay, ax, w - ax]
    ex, ey = exits[int(np.argmin(dists))]
    ex += rng.uniform(-0.3, 0.3) * w
    direction = np.array([ax - ex, ay - ey])
    direction /= np.linalg.norm(direction) + 1e-6
    normal = np.array([-direction[1], direction[0]])
    mask = np.zeros((h, w), np.uint8)
    wrist = np.array([ax, ay]) - direction * scale * 1.1
    cv2.line(mask, (int(ex), int(ey)), (int(wrist[0]), int(wrist[1])), 255, int(scale * 1.3), cv2.LINE_AA)
    angle = float(np.degrees(np.arctan2(direction[1], direction[0])))
    cv2.ellipse(mask, (int(ax), int(ay)), (int(scale * 1.2), int(scale * 0.95)), angle, 0, 360, 255, -1, cv2.LINE_AA)
    n_fingers = int(rng.integers(3, 6))
    spread = rng.uniform(0.15, 0.5)
    for i in range(n_fingers):
        t = (i - (n_fingers - 1) / 2) / max(1, n_fingers - 1)
        base = np.array([ax, ay]) + direction * scale * 0.8 + normal * t * scale * 1.3
        d = direction + normal * t * spread
        d /= np.linalg.norm(d)
        tip = base + d * scale * rng.uniform(0.9, 1.6)
        cv2.line(mask, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 255, max(2, int(scale * 0.32)),
                 cv2.LINE_AA)
    thumb_side = 1 if rng.random() < 0.5 else -1
    thumb_base = np.array([ax, ay]) + normal * thumb_side * scale * 0.8
    thumb_tip = thumb_base + (normal * thumb_side + direction * 0.6) * scale * 0.9
    cv2.line(mask, tuple(int(v) for v in thumb_base), tuple(int(v) for v in thumb_tip), 255,
             max(2, int(scale * 0.4)), cv2.LINE_AA)
    return cv2.GaussianBlur(mask, (0, 0), max(0.8, scale * 0.03)).astype(np.float32) / 255.0


def paint_hand(image: np.ndarray, rng: np.random.Generator, mask: np.ndarray) -> np.ndarray:
    """Paint skin with soft shading where `mask` is set, plus a faint cast shadow."""
    h, w = mask.shape
    tone = np.array(SKIN_TONES_BGR[int(rng.integers(len(SKIN_TONES_BGR)))], np.float32)
    tone *= rng.uniform(0.85, 1.1)
    shadow = cv2.GaussianBlur(mask, (0, 0), max(2.0, min(h, w) * 0.02))
    shift = np.float32([[1, 0, rng.uniform(4, 14)], [0, 1, rng.uniform(4, 14)]])
    shadow = cv2.warpAffine(shadow, shift, (w, h))
    base = image.astype(np.float32) * (1 - 0.35 * shadow[:, :, None])
    shading = cv2.GaussianBlur(mask, (0, 0), max(2.0, min(h, w) * 0.015))
    skin = tone[None, None, :] * (0.7 + 0.35 * shading[:, :, None])
    out = base * (1 - mask[:, :, None]) + skin * mask[:, :, None]
    image[:] = out.clip(0, 255).astype(np.uint8)
    return image


def draw_hand(image: np.ndarray, rng: np.random.Generator, anchor: tuple[int, int]) -> np.ndarray:
    """Paint a plausible hand/arm over `image` (in place) with the palm at `anchor`; returns the image."""
    mask = hand_mask(image.shape[:2], rng, anchor)
    return paint_hand(image, rng, mask)
