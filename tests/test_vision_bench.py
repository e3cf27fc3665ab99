"""The card benchmark runs its stages on the standard scene (figures come from `companion vision-bench`)."""

from __future__ import annotations

import pytest

from vision.cards.detect import DETECTOR
from vision.cards.identity import CLASSIFIER, FACE_READER

pytestmark = pytest.mark.skipif(not (DETECTOR.exists() and CLASSIFIER.exists() and FACE_READER.exists()),
                                reason="card models not built")


def test_benchmark_times_every_stage_of_the_standard_scene() -> None:
    from vision.bench import run_benchmark

    result = run_benchmark(runs=1)
    assert result["image"] == [1280, 720] and result["cards_in_scene"] == 56
    assert result["cards_found"] >= 50 and result["cards_after_update"] >= 50
    stages = {"detect", "classical_outlines", "outlines", "read_cards", "of_which_faces", "read_and_second_look",
              "fanned_indices", "backs", "grid_or_turned", "total_predict", "homography", "layout", "full_frame",
              "update_one_card"}
    assert set(result["ms"]) == stages
    assert all(v > 0 for v in result["ms"].values())
    assert result["map"]  # 56 touching cards: the classical sweep is skipped, the grid reads the map
