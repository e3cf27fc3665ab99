"""Suit check: spade or club, heart or diamond, judged on every pip of the card face.

The learned metric and the template correlation see a whole card, where a spade and a club of one
rank differ in a few pixels of each pip; on a card 40-60 px wide they took one for the other. The
colour is never the doubt, so the check only ever weighs a card against its sibling (same rank,
other suit of the same colour). Each pip of the enrolled card (the deck's own layout, read from its
enrolled crop) is cut from the query at its place, turned upright when it stands in the lower half,
aligned to the pair's mean pip within a few pixels, and scored by a linear discriminant learned from
all the pips of the two suits in degraded copies; the pips' scores are summed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.blur import motion_blur
from vision.enroll.canon import CARD

SIBLING: dict[str, str] = {"S": "C", "C": "S", "H": "D", "D": "H"}
NUMBER_RANKS = frozenset({"2", "3", "4", "5", "6", "7", "8", "9", "10"})
PATCH = 16  # a pip resampled to PATCH x PATCH pixels, whatever its size
PAD = 1.25  # the patch spans this many times the pip's size
SEARCH = 3  # patch pixels searched each way when aligning a pip
MIDDLE = 10.0  # crop pixels: a pip this near the middle row may stand either way (a card read from its other end)
SIZE_RANGE = (0.75, 1.3)  # of the deck's pip size: blobs of other sizes are index letters or court art
INDEX_MM = (16.0, 26.0)  # a blob centred this near a corner is the printed index (any of the four corners)
COPIES = 24  # degraded copies of each enrolled card the discriminant learns from
SHRINK = 0.05  # of the mean variance added to the pooled covariance
BLURRED = 0.3  # of the degraded copies: out of focus
STREAKED = 0.15  # of the degraded copies: motion-blurred (without them: 99.4% instead of 99.7%)


@dataclass(frozen=True)
class Pip:
    x: float
    y: float
    size: float  # pixels of the canonical crop, the blob's longer side
    flipped: bool  # printed upside down (lower half of the card)


def grey(crop: np.ndarray) -> np.ndarray:
    return (cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop).astype(np.float32)


def ink_blobs(g: np.ndarray, border: int = 6) -> list[tuple[int, int, int, int, float, float]]:
    """Dark-on-paper blobs (x, y, w, h, cx, cy) of a sharp enrolled crop, the crop's rim left out."""
    h, w = g.shape
    inner = g[4:-4, 4:-4]
    paper = float(np.median(inner))
    ink = (paper - g) > 0.4 * (paper - float(np.percentile(inner, 1)))
    ink[:border], ink[-border:], ink[:, :border], ink[:, -border:] = False, False, False, False
    n, _, stats, cent = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    return [(int(x), int(y), int(bw), int(bh), float(c[0]), float(c[1]))
            for (x, y, bw, bh, area), c in zip(stats[1:], cent[1:], strict=True)
            if area >= 12 and bw < 0.6 * w and bh < 0.4 * h]


def pip_layout(g: np.ndarray, size: float) -> list[Pip]:
    """The pips of a number card: its blobs of the deck's pip size, those in the lower half upside down."""
    lo, hi = SIZE_RANGE
    h, w = g.shape
    iw, ih = (v * CARD.px_per_mm() for v in INDEX_MM)
    return [Pip(cx, cy, float(max(bw, bh)), cy > h / 2 + 3) for _, _, bw, bh, cx, cy in ink_blobs(g)
            if lo * size <= max(bw, bh) <= hi * size and not (min(cx, w - cx) < iw and min(cy, h - cy) < ih)]


def _unit(p: np.ndarray) -> np.ndarray:
    p = p.astype(np.float32).ravel()
    p = p - p.mean()
    return p / max(float(np.linalg.norm(p)), 1e-6)


def _region(g: np.ndarray, pip: Pip, flipped: bool, pad: int = SEARCH) -> np.ndarray:
    """The pip upright at PATCH px, with `pad` patch pixels more on each side for the alignment search."""
    step = pip.size * PAD / PATCH
    half = 0.5 * pip.size * PAD + pad * step
    n = PATCH + 2 * pad
    src = np.float32([[pip.x - half, pip.y - half], [pip.x + half, pip.y - half], [pip.x + half, pip.y + half]])
    dst = np.float32([[n, n], [0, n], [0, 0]]) if flipped else np.float32([[0, 0], [n, 0], [n, n]])
    return cv2.warpAffine(g, cv2.getAffineTransform(src, dst), (n, n), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _aligned(g: np.ndarray, pip: Pip, mean: np.ndarray) -> np.ndarray:
    """The query's pip where it best fits the pair's mean pip; a middle pip in whichever way fits better."""
    ways = (False, True) if abs(pip.y - g.shape[0] / 2) <= MIDDLE else (pip.flipped,)
    best, out = -2.0, np.zeros(PATCH * PATCH, np.float32)
    for way in ways:
        reg = _region(g, pip, way)
        fit = cv2.matchTemplate(reg, mean, cv2.TM_CCOEFF_NORMED)
        y, x = np.unravel_index(int(fit.argmax()), fit.shape)
        if fit[y, x] > best:
            best, out = float(fit[y, x]), _unit(reg[y:y + PATCH, x:x + PATCH])
    return out


def _worse(g: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A grey crop as a distant camera sees it: fewer pixels, blurred or streaked at the camera's own pixel
    scale (where a lens or a moving hand blurs), contrast and noise."""
    h, w = g.shape
    f = rng.uniform(0.25, 0.7)
    small = cv2.resize(g, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
    k = rng.random()
    if k < BLURRED:
        small = cv2.GaussianBlur(small, (0, 0), rng.uniform(0.5, 1.6))
    elif k < BLURRED + STREAKED:
        small = motion_blur(small, rng, 8)
    small = small * rng.uniform(0.5, 1.1) + rng.normal(0, rng.uniform(0, 6), small.shape)
    return cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def _jittered_pip(pip: Pip, rng: np.random.Generator) -> Pip:
    return Pip(pip.x + rng.normal(0, 1.0), pip.y + rng.normal(0, 1.0), pip.size * rng.uniform(0.92, 1.08), pip.flipped)


class SuitCheck:
    """One deck's pip discriminants (spade/club, heart/diamond), learned from its enrolled crops in a second."""

    def __init__(self, crops: dict[str, np.ndarray], seed: int = 0) -> None:
        greys = {label: grey(c) for label, c in crops.items() if _checked(label) and _sibling(label) in crops}
        self.layout: dict[str, list[Pip]] = {}
        self.weights: dict[str, tuple[np.ndarray, float]] = {}
        self.means: dict[str, np.ndarray] = {}
        largest = [max(max(b[2], b[3]) for b in blobs) for g in greys.values() if (blobs := ink_blobs(g))]
        if not largest:
            return
        size = float(np.median(largest))  # the largest blob of a number card is one of its pips
        self.layout = {label: layout for label, g in greys.items() if (layout := pip_layout(g, size))}
        rng = np.random.default_rng(seed)
        patches: dict[str, list[np.ndarray]] = {s: [] for s in SIBLING}
        for label, layout in self.layout.items():
            g = greys[label]
            for _ in range(COPIES):
                worse = _worse(g, rng)
                for pip in layout:
                    moved = _jittered_pip(pip, rng)
                    patches[label[-1]].append(_unit(_region(worse, moved, pip.flipped, pad=0)))
        for a, b in (("S", "C"), ("H", "D")):
            if patches[a] and patches[b]:
                self._learn(a, b, np.array(patches[a]), np.array(patches[b]))

    def _learn(self, a: str, b: str, xa: np.ndarray, xb: np.ndarray) -> None:
        ma, mb = xa.mean(axis=0), xb.mean(axis=0)
        cov = np.cov(np.concatenate([xa - ma, xb - mb]).T)
        cov += SHRINK * np.trace(cov) / len(cov) * np.eye(len(cov))
        w = np.linalg.solve(cov, ma - mb)
        bias = float(-w @ (ma + mb) / 2)
        self.weights[a], self.weights[b] = (w.astype(np.float32), bias), ((-w).astype(np.float32), -bias)
        mean = ((ma + mb) / 2).reshape(PATCH, PATCH).astype(np.float32)
        self.means[a] = self.means[b] = mean

    def sibling(self, label: str) -> str | None:
        """The label the check weighs `label` against, or None where it has nothing to say."""
        return _sibling(label) if label in self.layout and label[-1] in self.weights else None

    def vote(self, crop: np.ndarray, label: str) -> float:
        """Summed pip scores for `label` over its sibling (> 0: `label`), the crop upright as `label` reads."""
        w, bias = self.weights[label[-1]]
        g, mean = grey(crop), self.means[label[-1]]
        return float(sum(float(w @ _aligned(g, pip, mean)) + bias for pip in self.layout[label]))


def _checked(label: str) -> bool:
    return label[:-1] in NUMBER_RANKS and label[-1] in SIBLING


def _sibling(label: str) -> str:
    return label[:-1] + SIBLING[label[-1]]
