"""Meeples: colour calibration, finding them on the rectified board, and the feature each stands on.

Colours are matched in Lab against a calibration: by default typical wooden meeple paint, better
the player's own meeples shown once (`calibrate`). Blobs smaller than a meeple (roofs, shields,
outlines) are dropped by size, which the rectified board fixes in tile units.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.tiles.figures import MEEPLE_PAINT
from vision.tiles.geometry import CITY_LABEL, FIELD_LABEL, MONASTERY_LABEL, ROAD_LABEL, rotated_feature_map
from vision.tiles.geometry import feature_edge as _feature_edge

MIN_AREA = 0.016  # tile units squared; a shield is about 0.01, a meeple 0.03 and more
MAX_AREA = 0.3
COLOUR_DISTANCE = 30.0  # Lab units (lightness weighted by LIGHT_WEIGHT)
LIGHT_WEIGHT = 0.5


def _lab(bgr: tuple[int, int, int]) -> np.ndarray:
    pixel = np.array([[bgr]], np.uint8)
    return cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


@dataclass
class Calibration:
    """Lab colour of each meeple colour in play."""

    colours: dict[str, np.ndarray] = field(default_factory=lambda: {n: _lab(c) for n, c in MEEPLE_PAINT.items()})

    def to_json(self) -> dict[str, list[float]]:
        return {name: [round(float(v), 1) for v in lab] for name, lab in self.colours.items()}

    @classmethod
    def from_json(cls, data: dict[str, list[float]]) -> Calibration:
        return cls({name: np.array(lab, np.float32) for name, lab in data.items()})


def _distance(lab: np.ndarray, ref: np.ndarray) -> np.ndarray:
    d = lab - ref
    return np.sqrt((LIGHT_WEIGHT * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def calibrate(image: np.ndarray, names: tuple[str, ...] | None = None) -> Calibration:
    """Measures the meeples shown on a plain surface; each is named after the nearest default paint.

    The picture should show one meeple of each colour, apart, on a surface unlike them.
    """
    defaults = Calibration()
    wanted = names or tuple(defaults.colours)
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    background = np.median(lab.reshape(-1, 3), axis=0)
    mask = (_distance(lab, background) > 25).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    measured: dict[str, tuple[float, np.ndarray]] = {}
    min_area = image.shape[0] * image.shape[1] * 1e-4
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] < min_area:
            continue
        inner = cv2.erode((labels == i).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
        if inner.sum() < 4:
            continue
        mean = np.median(lab[inner], axis=0)
        name = min(wanted, key=lambda c: float(_distance(mean, defaults.colours[c])))
        area = float(stats[i, cv2.CC_STAT_AREA])
        if name not in measured or area > measured[name][0]:
            measured[name] = (area, mean)
    colours = {name: measured[name][1] if name in measured else defaults.colours[name] for name in wanted}
    return Calibration(colours)


@dataclass(frozen=True)
class Blob:
    colour: str
    foot: tuple[float, float]  # rectified board px
    mask: np.ndarray  # bool, board-sized


def find_meeples(board_bgr: np.ndarray, on_tiles: np.ndarray, patch: int, calibration: Calibration) -> list[Blob]:
    """Meeple-coloured blobs of meeple size on the rectified board (`patch` px per tile)."""
    lab = cv2.cvtColor(board_bgr, cv2.COLOR_BGR2LAB).astype(np.float32)
    names = list(calibration.colours)
    dist = np.stack([_distance(lab, calibration.colours[n]) for n in names])
    nearest = dist.argmin(axis=0)
    close = (dist.min(axis=0) < COLOUR_DISTANCE) & on_tiles
    blobs: list[Blob] = []
    area_unit = patch * patch
    kernel = np.ones((2, 2), np.uint8)
    for k, name in enumerate(names):
        mask = cv2.morphologyEx(((nearest == k) & close).astype(np.uint8), cv2.MORPH_OPEN, kernel)
        n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
        for i in range(1, n):
            area = stats[i, cv2.CC_STAT_AREA] / area_unit
            if not MIN_AREA <= area <= MAX_AREA:
                continue
            w, h = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT]
            if min(w, h) < 0.12 * patch:
                continue  # a wall or a road edge, not a figure
            blob = labels == i
            blobs.append(Blob(name, _foot(blob), blob))
    return blobs


def _foot(blob: np.ndarray) -> tuple[float, float]:
    """Where a standing figure touches the board: the middle of its lowest rows."""
    ys, xs = np.nonzero(blob)
    bottom = ys.max()
    low = ys >= bottom - max(1, int(0.15 * (bottom - ys.min() + 1)))
    return (float(xs[low].mean()) + 0.5, float(bottom) + 0.5)


def feature_at(letter: str, rotation: int, u: float, v: float) -> str:
    """The feature under point (u, v) of a tile: an edge naming its road or city part, monastery or field."""
    labels = rotated_feature_map(letter, rotation, 32)
    x = int(np.clip(u * 32, 0, 31))
    y = int(np.clip(v * 32, 0, 31))
    label = int(labels[y, x])
    if label == FIELD_LABEL:
        return "field"
    if label == MONASTERY_LABEL:
        return "monastery"
    if label >= ROAD_LABEL:
        return _feature_edge(letter, rotation, "road", label - ROAD_LABEL)
    return _feature_edge(letter, rotation, "city", label - CITY_LABEL)
