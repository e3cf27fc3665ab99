"""Teach a deck: the 52 faces and its back(s) from grid photos, video frames, or one card per shot."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from vision.enroll.grids import GridError, cells, deck_grids
from vision.enroll.layout import GridReading, merge, read_grid
from vision.enroll.locate import largest_quad, portrait
from vision.enroll.progress import SILENT, Progress
from vision.enroll.store import Profile
from vision.enroll.templates import Sample, build

ASPECT = 88.0 / 63.0
FINDING = 0.25  # of the progress bar for finding outlines in the photos; the rest is learning


class EnrollError(ValueError):
    """Enrollment that cannot finish; the message says what the player should redo."""


def expected(backs: int) -> list[str]:
    return list(cells(deck_grids(backs)["one"]).values())


def enroll_photos(name: str, photos: list[tuple[np.ndarray, str]], backs: int = 1, allow_missing: bool = False,
                  source: str = "photos", progress: Progress = SILENT) -> tuple[Profile, list[str]]:
    """Photos each with its grid name (`one`, `two-a`, `two-b`): the profile and notes for the player."""
    grids = deck_grids(backs)
    readings: list[GridReading] = []
    notes: list[str] = []
    finding = progress.part(0.0, FINDING)
    for i, (image, layout) in enumerate(photos):
        finding(f"finding the cards in {'frame' if source == 'video' else 'photo'} {i + 1} of {len(photos)}",
                i / len(photos))
        if layout not in grids:
            raise EnrollError(f"unknown grid {layout!r}; one of {', '.join(grids)}")
        try:
            reading = read_grid(image, grids[layout], ASPECT, square=False)
        except GridError as exc:
            if source == "video":
                notes.append(f"frame {i}: {exc}")
                continue
            raise EnrollError(f"photo {i + 1}: {exc}") from None
        readings.append(reading)
        notes += [f"photo {i + 1}: {p}" for p in reading.problems]
    if not readings:
        raise EnrollError("no photo or frame showed the grid; " + "; ".join(notes[-3:]))
    samples, missing = merge(readings, expected(backs))
    return _profile(name, samples, missing, backs, allow_missing, source, notes, progress.part(FINDING, 1.0))


def enroll_video(name: str, frames: Iterable[np.ndarray], backs: int = 1, allow_missing: bool = False,
                 layout: str = "one", progress: Progress = SILENT) -> tuple[Profile, list[str]]:
    """Frames of a short video over the laid grid: every frame that shows it adds templates."""
    return enroll_photos(name, [(f, layout) for f in frames], backs, allow_missing, "video", progress)


def enroll_shots(name: str, shots: list[tuple[str, np.ndarray]], allow_missing: bool = False,
                 backs: int = 1, progress: Progress = SILENT) -> tuple[Profile, list[str]]:
    """One card per photo, each named by its label (`QS`, `back0`), the card upright and alone."""
    samples: list[Sample] = []
    notes: list[str] = []
    finding = progress.part(0.0, FINDING)
    for k, (label, image) in enumerate(shots):
        finding(f"finding the card in photo {k + 1} of {len(shots)}", k / max(1, len(shots)))
        try:
            quad = portrait(largest_quad(image))
        except LookupError as exc:
            raise EnrollError(f"{label}: {exc}") from None
        samples.append(Sample(label, image, _upright(quad)))
    want = expected(backs)
    unknown = sorted({s.label for s in samples} - set(want))
    if unknown:
        raise EnrollError(f"not cards of a deck: {', '.join(unknown)} (use codes like QS, 10H, back0)")
    missing = [lab for lab in want if lab not in {s.label for s in samples}]
    return _profile(name, samples, missing, backs, allow_missing, "one-by-one", notes, progress.part(FINDING, 1.0))


def _upright(quad: np.ndarray) -> np.ndarray:
    """Of the two portrait starts, the one whose top-left corner is higher in the photo (the card stands up)."""
    other = np.roll(quad, -2, axis=0)
    return quad if quad[0][1] + quad[1][1] <= other[0][1] + other[1][1] else other


def _profile(name: str, samples: list[Sample], missing: list[str], backs: int, allow_missing: bool, source: str,
             notes: list[str], progress: Progress = SILENT) -> tuple[Profile, list[str]]:
    if missing and not allow_missing:
        raise EnrollError(f"not found: {', '.join(missing)}; lay them apart and photograph again "
                          "(or allow missing cards)")
    manifest = {"source": source, "backs": backs, "missing": missing, "expected": expected(backs),
                "created": _now()}
    if missing:
        notes.append(f"enrolled without {', '.join(missing)}")
    return build(name, "cards", samples, manifest, progress=progress), notes


def _now() -> str:
    import datetime

    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
