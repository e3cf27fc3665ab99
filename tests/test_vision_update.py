"""Re-reading only what changed: one card swapped in a 56-card map is read again, the others are kept."""

from __future__ import annotations

import numpy as np
import pytest

from vision.bench import changed_scene, standard_scene
from vision.cards import predict
from vision.cards.labels import CARD_CODES
from vision.cards.update import Follower, changed_region, update
from vision.detections import CardDetections


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


def test_a_follower_reads_a_map_by_its_changes_and_now_and_then_whole() -> None:
    """The live loop's reader: the map's second view is an update (the swapped card read, the rest kept), every
    third view here is read whole, and a view of another size is read whole."""
    before, after, new = _swapped(22)
    calls: list[tuple[int, int]] = []

    def counted(image: np.ndarray, **options: object) -> CardDetections:
        calls.append(image.shape[:2])
        return predict(image, **options)  # type: ignore[arg-type]

    follower = Follower(counted, full_every=3)
    first = follower.read(before)
    assert calls == [(720, 1280)] and follower.updated == 0
    second = follower.read(after)
    assert follower.updated == 1 and len(calls) == 2 and calls[1][0] * calls[1][1] < 0.2 * 720 * 1280  # the region
    assert new in second.codes and new not in first.codes
    assert len(second) == len(first)  # no card of the region's border read twice
    third = follower.read(after.copy())
    assert follower.updated == 2 and third is second and len(calls) == 2  # nothing changed: nothing read
    follower.read(before)
    assert follower.updated == 2 and calls[-1] == (720, 1280)  # the third view after a whole read: whole
    small = np.ascontiguousarray(before[:360, :640])
    follower.read(small)
    assert calls[-1] == (360, 640) and follower.updated == 2


def test_a_follower_off_a_map_reads_every_view_whole() -> None:
    """A few cards (a Scoundrel table) are no map: each view is read whole, as an update's stacks would be cut."""
    before, after, _ = _swapped(0)
    calls: list[tuple[int, int]] = []

    def few(image: np.ndarray, **options: object) -> CardDetections:
        calls.append(image.shape[:2])
        return predict(image, **options)[:5]  # type: ignore[arg-type]

    follower = Follower(few)
    follower.read(before)
    follower.read(after)
    assert calls == [(720, 1280)] * 2 and follower.updated == 0
    with pytest.raises(ValueError, match="full_every"):
        Follower(predict, full_every=0)
