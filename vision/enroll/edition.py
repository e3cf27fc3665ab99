"""Teach a Carcassonne edition: one tile of each letter A..X, laid in the dashboard's 5 x 5 grid."""

from __future__ import annotations

import numpy as np

from vision.enroll.deck import FINDING, EnrollError, _now
from vision.enroll.grids import GridError, cells, tile_grid
from vision.enroll.layout import GridReading, merge, read_grid
from vision.enroll.progress import SILENT, Progress
from vision.enroll.store import Profile
from vision.enroll.templates import build


def expected() -> list[str]:
    return list(cells(tile_grid()).values())


def enroll_edition(name: str, photos: list[np.ndarray], allow_missing: bool = False,
                   progress: Progress = SILENT) -> tuple[Profile, list[str]]:
    """Photos of the laid grid (one is enough; more add templates): the profile and notes for the player."""
    readings: list[GridReading] = []
    notes: list[str] = []
    finding = progress.part(0.0, FINDING)
    for i, image in enumerate(photos):
        finding(f"finding the tiles in photo {i + 1} of {len(photos)}", i / len(photos))
        try:
            reading = read_grid(image, tile_grid(), 1.0, square=True)
        except GridError as exc:
            raise EnrollError(f"photo {i + 1}: {exc}") from None
        readings.append(reading)
        notes += [f"photo {i + 1}: {p}" for p in reading.problems]
    if not readings:
        raise EnrollError("give at least one photo of the laid tiles")
    samples, missing = merge(readings, expected())
    if missing and not allow_missing:
        raise EnrollError(f"tiles not found: {', '.join(missing)}; lay them apart and photograph again")
    manifest = {"source": "photos", "missing": missing, "expected": expected(), "created": _now()}
    return build(name, "tiles", samples, manifest, progress=progress.part(FINDING, 1.0)), notes
