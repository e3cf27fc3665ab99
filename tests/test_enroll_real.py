"""Real photos (../shared/data/real-cards-dev, read-only, never copied): the card found in a labelled box,
and rank identity after enrolling a few boxes. Skipped where the folder is absent."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.enroll.evaluate import REAL_CARDS, card_in_box, real_boxes
from vision.enroll.matcher import Matcher
from vision.enroll.templates import Sample, build

pytestmark = pytest.mark.skipif(not (REAL_CARDS / "labels.csv").is_file(), reason="real-cards-dev not present")


def test_outline_found_inside_boxes() -> None:
    rows = [r for r in real_boxes(REAL_CARDS) if r[0].startswith("IMG_")][:12]
    for name, _, (x0, y0, x1, y1) in rows:
        image = cv2.imread(str(REAL_CARDS / name))
        quad = card_in_box(image, (x0, y0, x1, y1))
        centre = quad.mean(axis=0)
        assert x0 <= centre[0] <= x1 and y0 <= centre[1] <= y1
        short, long = sorted([np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[2] - quad[1])])
        assert 0.5 < short / long < 0.95  # a card's shape, seen at a slant


def test_a_turned_card_on_the_carpet_is_outlined_not_boxed() -> None:
    """Most cards lie turned on a textured carpet: their outline must be the card's, not the labelled box."""
    rows = real_boxes(REAL_CARDS)[::5]
    boxed = 0
    for name, _, (x0, y0, x1, y1) in rows:
        quad = card_in_box(cv2.imread(str(REAL_CARDS / name)), (x0, y0, x1, y1))
        boxed += bool(np.allclose(quad.min(axis=0), (x0, y0)) and np.allclose(quad.max(axis=0), (x1, y1)))
    assert boxed <= 0.05 * len(rows), f"{boxed} of {len(rows)} outlines are only the box"


def test_rank_identity_after_a_small_enrollment() -> None:
    rows = real_boxes(REAL_CARDS)
    single = [r for r in rows if sum(1 for o in rows if o[0] == r[0]) == 1]  # photos of one card
    by_rank: dict[str, list[tuple[str, str, tuple[int, int, int, int]]]] = {}
    for r in single:
        by_rank.setdefault(r[1], []).append(r)
    train = [r for rank in sorted(by_rank) for r in by_rank[rank][:3]]
    test = [r for rank in sorted(by_rank) for r in by_rank[rank][3:8]]
    images = {r[0]: cv2.imread(str(REAL_CARDS / r[0])) for r in train + test}
    samples = [Sample(rank, images[name], card_in_box(images[name], box)) for name, rank, box in train]
    matcher = Matcher(build("real", "cards", samples, {}))
    ok = sum(matcher.identify(images[name], card_in_box(images[name], box)).label == rank for name, rank, box in test)
    assert ok / len(test) > 0.5  # 6 ranks: chance is 1/6; the full measurement is in models/enroll.md
