"""Canonical crops: any card warped to one upright 63 x 88 mm frame, any tile to one square.

Enrollment and run time cut the same crops, so templates and queries compare pixel for pixel; the
jittered variants stand in for the outline errors of a detector at run time.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.blur import motion_blur


@dataclass(frozen=True)
class Frame:
    """A canonical crop: `width` x `height` pixels for a `width_mm` x `height_mm` object."""

    width: int
    height: int
    width_mm: float
    height_mm: float

    @property
    def corners(self) -> np.ndarray:
        return np.array([[0, 0], [self.width, 0], [self.width, self.height], [0, self.height]], np.float32)

    def px_per_mm(self) -> float:
        return self.width / self.width_mm


CARD = Frame(126, 176, 63.0, 88.0)  # 2 px per mm
TILE = Frame(96, 96, 45.0, 45.0)


def warp(image: np.ndarray, corners: np.ndarray, frame: Frame) -> np.ndarray:
    """The object with these corners (clockwise from its top-left) as an upright `frame` crop."""
    src = np.asarray(corners, np.float32).reshape(4, 2)
    m = cv2.getPerspectiveTransform(src, frame.corners)
    side = float(np.linalg.norm(src[1] - src[0]))
    flags = cv2.INTER_AREA if side > frame.width * 1.3 else cv2.INTER_LINEAR
    if side > frame.width * 2.5:  # big photo: shrink in two steps so no detail aliases
        pre = frame.width * 2.0 / side
        small = cv2.resize(image, None, fx=pre, fy=pre, interpolation=cv2.INTER_AREA)
        m = cv2.getPerspectiveTransform(src * pre, frame.corners)
        return cv2.warpPerspective(small, m, (frame.width, frame.height), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)
    return cv2.warpPerspective(image, m, (frame.width, frame.height), flags=flags, borderMode=cv2.BORDER_REPLICATE)


def jittered(corners: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """Corners moved at random by up to `amount` of the object's short side (outline error)."""
    q = np.asarray(corners, np.float32).reshape(4, 2)
    side = float(min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])))
    return (q + rng.normal(0, amount * side / 2, q.shape)).astype(np.float32)


def variants(image: np.ndarray, corners: np.ndarray, frame: Frame, count: int, rng: np.random.Generator,
             amount: float = 0.025) -> list[np.ndarray]:
    """The crop itself and `count - 1` variants: jittered outline, then a worse camera (see `degrade`)."""
    out = [warp(image, corners, frame)]
    for _ in range(count - 1):
        out.append(degrade(warp(image, jittered(corners, rng, amount), frame), rng))
    return out


def degrade(crop: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """What a table camera does to a crop: fewer pixels, blur or motion, light and colour cast, noise, JPEG."""
    h, w = crop.shape[:2]
    img = crop.astype(np.float32)
    if rng.random() < 0.7:  # seen smaller than the canonical size
        f = rng.uniform(0.3, 0.8)
        small = cv2.resize(img, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    k = rng.random()
    if k < 0.35:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.5, 2.0))
    elif k < 0.5:
        img = motion_blur(img, rng, 9)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(a) * xx / w + np.sin(a) * yy / h) * rng.uniform(0, 0.35)
    img = img * (rng.uniform(0.6, 1.1) + ramp)[:, :, None] + rng.uniform(-20, 20)
    img *= rng.uniform(0.85, 1.15, 3)[None, None, :]
    img += rng.normal(0, rng.uniform(0, 6), img.shape)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        _, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def rotate_quarter(crop: np.ndarray, quarters: int) -> np.ndarray:
    """A square crop turned clockwise by `quarters` x 90 degrees (the tiles' rotation convention)."""
    return np.ascontiguousarray(np.rot90(crop, k=-(quarters % 4)))


def turn_corners(corners: np.ndarray, quarters: int) -> np.ndarray:
    """The same outline started `quarters` corners later (2 reads a card from its other end)."""
    return np.roll(np.asarray(corners, np.float32).reshape(4, 2), -quarters, axis=0)
