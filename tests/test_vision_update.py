"""Re-reading only what changed: one card swapped in a 56-card map is read again, the others are kept."""

from __future__ import annotations

import numpy as np
import pytest

from vision.bench import changed_scene, standard_scene
from vision.cards import predict
from vision.cards.labels import CARD_CODES
from vision.cards.update import changed_region, update


def _swapped(k: int) -> tuple[np.ndarray, np.ndarray, str]:
    """The bench map and the same map with its k-th face-up card swapped for a card not on the table."""
    on_table = {t.code for t in standard_scene()[1]}
    spare = next(c for c in CARD_CODES if c not in on_table)
    before, after = changed_scene(k=k, spare=spare)
    return before, after, spare


@pytest.mark.parametrize("k", [0, 22])
def test_the_swapped_card_is_read_and_the_rest_kept(k: int) -> None:
    before, after, new = _swapped(k)
    previous = predict(before)
    assert new not in previous.codes
    region = changed_region(before, after, 60)
    assert region is not None and (region[2] - region[0]) * (region[3] - region[1]) < 0.1 * 1280 * 720
    updated = update(before, previous, after)
    assert new in updated.codes
    x0, y0, x1, y1 = region
    outside = [i for i, (x, y) in enumerate(previous.centres) if not (x0 <= x < x1 and y0 <= y < y1)]
    assert len(outside) > 40
    kept = {(previous.codes[i], previous.corners[i].tobytes()) for i in outside}
    assert kept <= {(c, q.tobytes()) for c, q in zip(updated.codes, updated.corners, strict=True)}


def test_an_unchanged_frame_gives_the_previous_reading() -> None:
    before, _, _ = _swapped(0)
    previous = predict(before)
    assert update(before, previous, before.copy()) is previous
