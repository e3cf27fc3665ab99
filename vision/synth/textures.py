"""Table surfaces: wood, felt, carpet, marble, tablecloth checks and plain light tops (the hard case)."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np


def _noise(rng: np.random.Generator, w: int, h: int, cell: int) -> np.ndarray:
    """Smooth value noise in 0..1, made at low resolution and upsampled."""
    small = rng.random((max(2, h // cell + 2), max(2, w // cell + 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def _colour(rng: np.random.Generator, low: int, high: int) -> np.ndarray:
    return rng.integers(low, high, 3).astype(np.float32)


def _wood(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = np.array([rng.uniform(20, 90), rng.uniform(50, 130), rng.uniform(90, 190)], np.float32)  # BGR browns
    y = np.arange(h, dtype=np.float32)[:, None]
    warp = _noise(rng, w, h, 80) * rng.uniform(20, 60)
    grain = 0.5 + 0.5 * np.sin((y + warp) * rng.uniform(0.05, 0.25) + _noise(rng, w, h, 25) * 3)
    shade = 0.65 + 0.35 * grain + 0.1 * (_noise(rng, w, h, 6) - 0.5)
    img = shade[:, :, None] * base[None, None, :]
    if rng.random() < 0.5:
        img = np.ascontiguousarray(img.transpose(1, 0, 2))
        img = cv2.resize(img, (w, h))
    return img


def _felt(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = _colour(rng, 20, 200)
    shade = 0.92 + 0.08 * _noise(rng, w, h, 3) + 0.06 * (_noise(rng, w, h, 120) - 0.5)
    return shade[:, :, None] * base[None, None, :]


def _carpet(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = _colour(rng, 60, 200)
    speckle = rng.random((h, w)).astype(np.float32)
    speckle = cv2.GaussianBlur(speckle, (0, 0), rng.uniform(0.6, 1.5))
    shade = 0.55 + 0.9 * (speckle - speckle.mean()) * 3 + 0.5
    return shade.clip(0.3, 1.4)[:, :, None] * base[None, None, :] * 0.8


def _marble(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = _colour(rng, 170, 250)
    veins = np.abs(np.sin(_noise(rng, w, h, 60) * rng.uniform(8, 20) + _noise(rng, w, h, 20) * 4))
    shade = 0.8 + 0.2 * veins ** 0.3
    return shade[:, :, None] * base[None, None, :]


def _checks(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    a, b = _colour(rng, 120, 255), _colour(rng, 30, 255)
    size = int(rng.integers(12, 60))
    yy, xx = np.mgrid[0:h, 0:w]
    mask = (((xx // size) + (yy // size)) % 2).astype(np.float32)
    if rng.random() < 0.5:  # gingham: half tone where stripes cross
        mask = ((xx // size) % 2 + (yy // size) % 2).astype(np.float32) / 2
    img = mask[:, :, None] * a[None, None, :] + (1 - mask[:, :, None]) * b[None, None, :]
    return img * (0.95 + 0.05 * _noise(rng, w, h, 4))[:, :, None]


def _plain(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = _colour(rng, 180, 250)
    return (0.96 + 0.04 * _noise(rng, w, h, 40))[:, :, None] * base[None, None, :]


TEXTURES: dict[str, Callable[[np.random.Generator, int, int], np.ndarray]] = {
    "wood": _wood,
    "felt": _felt,
    "carpet": _carpet,
    "marble": _marble,
    "checks": _checks,
    "plain": _plain,
}


def table(rng: np.random.Generator, w: int, h: int, kind: str | None = None) -> np.ndarray:
    """A table top `w` x `h` as BGR uint8; `kind` is one of TEXTURES (random when None)."""
    names = list(TEXTURES)
    name = kind if kind is not None else names[int(rng.integers(len(names)))]
    return TEXTURES[name](rng, w, h).clip(0, 255).astype(np.uint8)
