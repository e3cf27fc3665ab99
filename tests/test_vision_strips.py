"""A weapon stack's top card and the strip of the card under it, outlined as one region, are cut apart: by the
length the region's width gives a card, and by strips a stack's step long, as a stack drifting sideways widens
the region. What a cut leaves in the strip is a card under it only where it lies under the card, and is not the
card's own other index."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.cards.detect import DETECTOR

REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-cards-dev"
pytestmark = pytest.mark.skipif(not DETECTOR.exists(), reason="card models not built")


def _scene(seed: int, n: int) -> tuple[np.ndarray, list]:
    from vision.evaluate import synthetic_scenes

    *_, (_, _, _, image, truths) = synthetic_scenes(seed, n + 1)
    return image, truths


def _read_at(dets, truths: list, code: str) -> bool:  # noqa: ANN001 - CardDetections
    """Whether `code` is read once, through an outline that overlaps its true card's by half, as the evaluation
    matches them."""
    from vision.cards.geometry import quad_iou

    truth = next(t for t in truths if t.code == code)
    at = [q for c, q in zip(dets.codes, dets.corners, strict=True) if c == code]
    return len(at) == 1 and quad_iou(at[0], truth.corners) >= 0.5


def test_a_stack_that_drifted_sideways_is_cut_by_a_strips_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """Selection seed 6464, scene 5: a KC laid on a 4D a little to its side; their region is wider than a card,
    so the width-given cut leaves too short a strip for the 4D's index, and the KC was read through the whole.
    Since session 20's readers the whole reads it as KS (0.48) and the cuts as KC: a cut reading the same rank
    counts, and its reading replaces the whole's."""
    import vision.cards as cards_module
    import vision.cards.stacks as stacks_module

    image, truths = _scene(6464, 5)
    read = {}
    for strips in ((), stacks_module.TRIM_STRIPS_MM):
        monkeypatch.setattr(stacks_module, "TRIM_STRIPS_MM", strips)
        dets = cards_module.predict(image)
        read[strips] = (_read_at(dets, truths, "KC"), _read_at(dets, truths, "4D"))
    assert not read[()][1]  # without: the 4D unread, the KC read through the region of both
    assert read[stacks_module.TRIM_STRIPS_MM] == (True, True)


def test_a_cards_own_index_left_in_a_strip_is_no_card_under_it() -> None:
    """Selection seed 777, scene 15: a 6D outlined with its shadow, long enough to be cut; its own bottom index,
    just beyond the cut, read upside down as a 9H."""
    from vision.cards import predict

    image, truths = _scene(777, 15)
    dets = predict(image)
    assert _read_at(dets, truths, "6D")
    assert "9H" not in dets.codes


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
def test_a_real_card_cut_too_deep_leaves_no_card_in_its_strip() -> None:
    """IMG_2612 (real tune half): a nine lying crosswise, outlined a little long; the cuts by a strip's length
    left its own corner in the strip, read as an ace placed beyond the card (a third inside it)."""
    import cv2

    from vision.cards import predict

    dets = predict(cv2.imread(str(REAL / "IMG_2612.JPG")))
    assert sorted(c[:-1] for c in dets.codes) == ["9", "9", "A", "A", "Q"]  # the five labelled cards, no more
