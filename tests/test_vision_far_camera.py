"""A map seen by a far camera: its cards are read again through the part of the picture they lie in."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards.detect import DETECTOR, FULL_SIZE
from vision.cards.identity import CLASSIFIER, FACE_READER

pytestmark = pytest.mark.skipif(not (DETECTOR.exists() and CLASSIFIER.exists() and FACE_READER.exists()),
                                reason="card models not built")


def _far_map(seed: int) -> tuple[np.ndarray, list]:
    """40 touching cards filling 0.6 of a 1280 x 720 frame, turned up to 45 degrees: 10-12 px wide at the
    detector's input."""
    from vision.synth.layouts import superheld_map
    from vision.synth.scene import compose

    rng = np.random.default_rng(seed)
    placements, _ = superheld_map(rng, n=40, style=0)
    image, truths, _ = compose(placements, rng, (1280, 720), hands=0, max_tilt=0.1, fill=(0.6, 0.62), max_turn=45)
    return image, truths


@pytest.mark.parametrize("seed", [0, 6])
def test_a_far_map_is_read_through_its_own_part_of_the_picture(seed: int) -> None:
    from vision.cards import predict
    from vision.evaluate import match_cards

    image, truths = _far_map(seed)
    right, wrong, extra, _ = match_cards(predict(image), truths)
    assert (right, wrong, extra) == (40, 0, 0)
    # one look at the whole frame (an explicit input size reads the picture as it is) loses half the map
    right, _, _, _ = match_cards(predict(image, size=FULL_SIZE), truths)
    assert right <= 20


def test_the_closer_reading_lies_where_the_cards_lie_in_the_whole_picture() -> None:
    from vision.cards import predict

    image, truths = _far_map(0)
    cards = predict(image)
    truth_centres = np.array([t.corners.mean(axis=0) for t in truths])
    for centre in cards.centres:
        assert np.linalg.norm(truth_centres - centre, axis=1).min() < 5


def test_synthetic_scenes_drawn_further_off_hold_the_same_cards_smaller() -> None:
    from vision.evaluate import synthetic_scenes

    near = list(synthetic_scenes(11, 2))
    far = list(synthetic_scenes(11, 2, distance=2.0))
    for (_, style, _, _, truths), (_, far_style, _, _, far_truths) in zip(near, far, strict=True):
        assert style == far_style and [t.code for t in truths] == [t.code for t in far_truths]
        span = np.ptp(np.concatenate([t.corners for t in truths]), axis=0).max()
        far_span = np.ptp(np.concatenate([t.corners for t in far_truths]), axis=0).max()
        assert 0.35 * span < far_span < 0.65 * span


def test_vision_eval_draws_the_scenes_further_off_and_names_a_distance_it_cannot() -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    base = [sys.executable, "-m", "companion", "vision-eval", "--real", "/nonexistent", "--scenes", "2", "--seed",
            "5", "--distance"]
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(base + ["1.5", "--json"], capture_output=True, text=True, timeout=300, cwd=root)
    assert done.returncode == 0, done.stderr
    syn = json.loads(done.stdout)["synthetic"]
    assert syn["distance"] == 1.5 and syn["cards"] > 0 and syn["right"] <= syn["cards"]
    bad = subprocess.run(base + ["4"], capture_output=True, text=True, timeout=300, cwd=root)
    assert bad.returncode == 2 and "distance 4 is outside 1-3" in bad.stderr


def _keystone(truths: list) -> float:
    """The largest ratio of a card's opposite sides in a scene (1: seen straight from above)."""
    ratios = []
    for t in truths:
        sides = np.linalg.norm(t.corners - np.roll(t.corners, -1, axis=0), axis=1)
        ratios += [max(sides[0], sides[2]) / min(sides[0], sides[2]), max(sides[1], sides[3]) / min(sides[1], sides[3])]
    return max(ratios)


def test_synthetic_scenes_drawn_from_a_steeper_angle_are_keystoned_more() -> None:
    from vision.evaluate import synthetic_scenes

    above = [_keystone(truths) for *_, truths in synthetic_scenes(11, 2, angle=0.0)]
    usual = [_keystone(truths) for *_, truths in synthetic_scenes(11, 2)]
    steep = [_keystone(truths) for *_, truths in synthetic_scenes(11, 2, angle=60.0)]
    assert all(k < 1.01 for k in above)
    assert all(a < b < c for a, b, c in zip(above, usual, steep, strict=True))


def test_vision_eval_names_an_angle_it_cannot_draw() -> None:
    import subprocess
    import sys
    from pathlib import Path

    done = subprocess.run([sys.executable, "-m", "companion", "vision-eval", "--real", "/nonexistent", "--scenes", "2",
                           "--angle", "80"], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 2 and "angle 80 is outside 0-60 degrees" in done.stderr
