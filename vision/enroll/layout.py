"""One photo of a laid grid to labelled samples: outlines found, put in cells, checked."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.enroll.grids import Grid, GridError, assign
from vision.enroll.locate import find_quads, portrait
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
    return GridReading(samples, result.missing, result.extra, problems)


def merge(readings: list[GridReading], expected: list[str]) -> tuple[list[Sample], list[str]]:
    """All samples of several photos, and the expected labels that none of them showed."""
    samples = [s for r in readings for s in r.samples]
    seen = {s.label for s in samples}
    return samples, [label for label in expected if label not in seen]


__all__ = ["GridError", "GridReading", "merge", "read_grid"]
