"""Cheap descriptors of canonical crops, compared by cosine similarity.

A descriptor is a few blocks (index corners, the whole face in grey, gradient histograms, colour),
each normalised to zero mean and unit length so light and contrast drop out, then weighted and
joined. `VERSION` changes whenever a descriptor changes, so stored profiles are re-described.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.enroll.canon import CARD, TILE

VERSION = 1


@dataclass(frozen=True)
class Block:
    name: str
    weight: float
    describe: Callable[[np.ndarray], np.ndarray]


def _unit(v: np.ndarray) -> np.ndarray:
    v = v.astype(np.float32).ravel()
    v = v - v.mean()
    n = float(np.linalg.norm(v))
    return v / n if n > 1e-6 else v


def _grey(crop: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop


def _shrink(img: np.ndarray, w: int, h: int) -> np.ndarray:
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)


def hog(grey: np.ndarray, cell: int = 8, bins: int = 9) -> np.ndarray:
    """Histograms of gradient directions per cell, normalised over 2 x 2 cells (Dalal and Triggs, small)."""
    img = grey.astype(np.float32)
    gx = cv2.Sobel(img, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(img, cv2.CV_32F, 0, 1, ksize=1)
    mag = np.sqrt(gx * gx + gy * gy)
    ang = (np.arctan2(gy, gx) % np.pi) / np.pi * bins  # unsigned, 0..bins
    lo = np.floor(ang).astype(int) % bins
    frac = ang - np.floor(ang)
    h, w = img.shape
    ch, cw = h // cell, w // cell
    cell_of = ((np.arange(h) // cell)[:ch * cell, None] * cw + (np.arange(w) // cell)[None, :cw * cell]).ravel()
    used = (slice(0, ch * cell), slice(0, cw * cell))
    lo, frac, mag = lo[used].ravel(), frac[used].ravel(), mag[used].ravel()
    size = ch * cw * bins
    hist = (np.bincount(cell_of * bins + lo, mag * (1 - frac), size)
            + np.bincount(cell_of * bins + (lo + 1) % bins, mag * frac, size)).reshape(ch, cw, bins).astype(np.float32)
    blocks = np.concatenate([hist[:-1, :-1], hist[1:, :-1], hist[:-1, 1:], hist[1:, 1:]], axis=2)
    blocks /= np.linalg.norm(blocks, axis=2, keepdims=True) + 1e-3
    return np.minimum(blocks, 0.2).ravel()


def _hog_of(img: np.ndarray, win: tuple[int, int]) -> np.ndarray:
    small = cv2.resize(_grey(img), win, interpolation=cv2.INTER_AREA)
    return _unit(np.sqrt(hog(small)))


# -- cards: corners at 2 px per mm on the CARD frame -------------------------------------------------
_INDEX = (0, 0, int(16 * CARD.px_per_mm()), int(26 * CARD.px_per_mm()))  # x0, y0, x1, y1: the printed index


def _index(crop: np.ndarray) -> np.ndarray:
    x0, y0, x1, y1 = _INDEX
    return crop[y0:y1, x0:x1]


def _index_pixels(crop: np.ndarray) -> np.ndarray:
    patch = cv2.GaussianBlur(_grey(_index(crop)).astype(np.float32), (0, 0), 0.8)
    return _unit(_shrink(patch, 16, 26))


def _other_index_pixels(crop: np.ndarray) -> np.ndarray:
    return _index_pixels(np.ascontiguousarray(crop[::-1, ::-1]))


def _index_hog(crop: np.ndarray) -> np.ndarray:
    return _hog_of(_index(crop), (32, 48))


def _face_pixels(crop: np.ndarray) -> np.ndarray:
    return _unit(_shrink(cv2.GaussianBlur(_grey(crop), (0, 0), 1.2), 24, 34))


def _face_hog(crop: np.ndarray) -> np.ndarray:
    return _hog_of(crop, (64, 88))


def _colour(crop: np.ndarray) -> np.ndarray:
    """Chroma (Lab a, b) against the card's own paper: red or black ink, court colours, a back's colour."""
    lab = cv2.cvtColor(cv2.resize(crop, (16, 22), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2LAB)
    ab = lab[:, :, 1:].astype(np.float32)
    small = _shrink(ab - np.median(ab.reshape(-1, 2), axis=0), 8, 11)
    n = float(np.linalg.norm(small))
    return (small / max(n, 20.0 * np.sqrt(small.size) / 4)).ravel()  # faint chroma stays faint


CARD_BLOCKS: tuple[Block, ...] = (
    Block("index", 1.0, _index_pixels),
    Block("other_index", 1.0, _other_index_pixels),
    Block("index_hog", 1.0, _index_hog),
    Block("face", 0.8, _face_pixels),
    Block("face_hog", 1.0, _face_hog),
    Block("colour", 0.8, _colour),
)


# -- tiles: a TILE frame square ----------------------------------------------------------------------
def _tile_colour(crop: np.ndarray) -> np.ndarray:
    lab = _shrink(cv2.cvtColor(cv2.GaussianBlur(crop, (0, 0), 1.5), cv2.COLOR_BGR2LAB), 12, 12)
    return np.concatenate([_unit(lab[:, :, c]) for c in range(3)])


def _tile_hog(crop: np.ndarray) -> np.ndarray:
    return _hog_of(cv2.GaussianBlur(crop, (0, 0), 1.0), (48, 48))


def _tile_edges(crop: np.ndarray) -> np.ndarray:
    """The four border strips, where the features meet the neighbours: what says letter and rotation."""
    lab = cv2.cvtColor(cv2.GaussianBlur(crop, (0, 0), 1.5), cv2.COLOR_BGR2LAB).astype(np.float32)
    s = TILE.width // 5
    strips = [lab[:s], lab[:, -s:].transpose(1, 0, 2)[::1], lab[-s:][::-1, ::-1], lab[:, :s].transpose(1, 0, 2)[::-1]]
    return _unit(np.concatenate([_shrink(st, 12, 2).ravel() for st in strips]))


TILE_BLOCKS: tuple[Block, ...] = (
    Block("colour", 1.0, _tile_colour),
    Block("hog", 1.0, _tile_hog),
    Block("edges", 1.0, _tile_edges),
)

BLOCKS: dict[str, tuple[Block, ...]] = {"cards": CARD_BLOCKS, "strijders": CARD_BLOCKS, "tiles": TILE_BLOCKS}


def describe(crop: np.ndarray, blocks: tuple[Block, ...]) -> np.ndarray:
    """One unit-length descriptor of a canonical crop."""
    parts = [b.weight * _unit_len(b.describe(crop)) for b in blocks]
    v = np.concatenate(parts).astype(np.float32)
    return v / max(float(np.linalg.norm(v)), 1e-6)


def _unit_len(v: np.ndarray) -> np.ndarray:
    n = float(np.linalg.norm(v))
    return v / n if n > 1.0 else v  # colour blocks may stay shorter than 1 (a faint signal)


def describe_many(crops: list[np.ndarray], kind: str) -> np.ndarray:
    blocks = BLOCKS[kind]
    if not crops:
        return np.zeros((0, 0), np.float32)
    return np.stack([describe(c, blocks) for c in crops])
