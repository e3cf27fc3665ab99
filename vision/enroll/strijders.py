"""Teach the Strijders catalog: each card photographed once, alone and upright; recognised by matching."""

from __future__ import annotations

import numpy as np

from vision.enroll.deck import FINDING, EnrollError, _now, _upright
from vision.enroll.locate import largest_quad, portrait
from vision.enroll.progress import SILENT, Progress
from vision.enroll.store import Profile
from vision.enroll.templates import Sample, build


def enroll_catalog(name: str, shots: list[tuple[str, np.ndarray]], catalog_ids: list[str] | None = None,
                   title: str = "", progress: Progress = SILENT) -> tuple[Profile, list[str]]:
    """One photo per card id. With the catalog's ids, photos of unknown ids are refused and gaps noted."""
    if not shots:
        raise EnrollError("give one photo per catalog card")
    ids = [card_id for card_id, _ in shots]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise EnrollError(f"more than one photo for: {', '.join(twice)}")
    if catalog_ids is not None:
        unknown = [i for i in ids if i not in catalog_ids]
        if unknown:
            raise EnrollError(f"not in the catalog: {', '.join(unknown)}")
    samples = []
    finding = progress.part(0.0, FINDING)
    for k, (card_id, image) in enumerate(shots):
        finding(f"finding the card in photo {k + 1} of {len(shots)}", k / len(shots))
        try:
            samples.append(Sample(card_id, image, _upright(portrait(largest_quad(image)))))
        except LookupError as exc:
            raise EnrollError(f"{card_id}: {exc}") from None
    missing = [i for i in catalog_ids or [] if i not in ids]
    notes = [f"no photo yet for: {', '.join(missing)}"] if missing else []
    manifest = {"source": "photos", "missing": missing, "expected": catalog_ids or ids, "title": title,
                "created": _now()}
    return build(name, "strijders", samples, manifest, progress=progress.part(FINDING, 1.0)), notes
