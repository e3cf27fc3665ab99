"""One photo of a laid grid to labelled samples: outlines found, put in cells, checked."""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.enroll.grids import Grid, GridError, assign
from vision.enroll.locate import WORK_LONG_SIDE, find_quads, foreground, portrait, quad_of_contour
from vision.enroll.templates import Sample


@dataclass
class GridReading:
    samples: list[Sample]
    missing: list[str]
    extra: int
    problems: list[str] = field(default_factory=list)


def read_grid(image: np.ndarray, grid: Grid, aspect: float, square: bool) -> GridReading:
    """Samples for every cell found; `missing` names the cells left unfound."""
    found = find_quads(image)
    quads = found.quads if square else np.array([portrait(q) for q in found.quads], np.float32).reshape(-1, 4, 2)
    result = assign(quads, grid, aspect, square)
    problems = []
    if found.rejected:
        problems.append(f"{found.rejected} object(s) touch another or are covered; lay them a finger apart")
    samples = [Sample(label, image, corners) for label, corners in result.corners.items()]
    rest = _in_their_cells(image, found.quads, result.expected) if result.expected else {}
    samples += [Sample(label, image, corners) for label, corners in rest.items()]
    missing = [label for label in result.missing if label not in rest]
    return GridReading(samples, missing, result.extra, problems)


def _in_their_cells(image: np.ndarray, found: np.ndarray, expected: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Objects the outline finder missed (two laid edge to edge make one blob): what is left of the
    foreground in the object's own cell once the objects already found are taken away, if it has the
    object's size there. Corners keep the order of the expected outline."""
    h, w = image.shape[:2]
    scale = min(1.0, WORK_LONG_SIDE / max(h, w))
    small = cv2.resize(image, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA) if scale < 1 else image
    side = float(np.median([_short_side(q) for q in expected.values()])) * scale
    mask = foreground(small, int(np.clip(0.05 * side, 3, 21)))  # dark strokes closed, as the finder's coarse pass
    taken = np.zeros_like(mask)
    for q in found:
        cv2.fillConvexPoly(taken, np.round(q * scale).astype(np.int32), 255)
    mask[cv2.dilate(taken, np.ones((5, 5), np.uint8)) > 0] = 0
    out = {}
    for label, want in expected.items():
        cell = np.zeros_like(mask)
        grown = want.mean(axis=0) + 1.25 * (want - want.mean(axis=0))
        cv2.fillConvexPoly(cell, np.round(grown * scale).astype(np.int32), 255)
        contours, _ = cv2.findContours(cv2.bitwise_and(mask, cell), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if not contours:
            continue
        quad = quad_of_contour(max(contours, key=cv2.contourArea))
        if quad is None:
            continue
        quad = quad / scale
        ratio = cv2.contourArea(quad.astype(np.float32)) / max(cv2.contourArea(want.astype(np.float32)), 1.0)
        if 0.75 < ratio < 1.3 and np.linalg.norm(quad.mean(axis=0) - want.mean(axis=0)) < 0.25 * _short_side(want):
            start = int(np.argmin(np.linalg.norm(quad - want[0], axis=1)))
            out[label] = np.roll(quad, -start, axis=0).astype(np.float32)
    return out


def _short_side(q: np.ndarray) -> float:
    return float(min(np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])))


def merge(readings: list[GridReading], expected: list[str]) -> tuple[list[Sample], list[str]]:
    """All samples of several photos, and the expected labels that none of them showed."""
    samples = [s for r in readings for s in r.samples]
    seen = {s.label for s in samples}
    return samples, [label for label in expected if label not in seen]


__all__ = ["GridError", "GridReading", "merge", "read_grid"]
