"""The real-photo score counts cards read where none lies (a card read twice, papers read as a card), lists the
cards it missed or read wrong, and measures the readers alone on whole outlines."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.cards.geometry import quad_bounds
from vision.detections import CardDetections
from vision.evaluate import _extra


def _dets(codes: list[str], boxes: list[tuple[float, float, float, float]]) -> CardDetections:
    quads = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]] for x0, y0, x1, y1 in boxes], np.float32)
    n = len(codes)
    return CardDetections(codes, quads, np.ones(n, np.float32), np.full(n, -1, np.int16), np.ones(n, bool))


def test_a_card_read_twice_and_a_reading_on_bare_table_are_extra_but_a_back_and_a_loose_miss_are_not() -> None:
    dets = _dets(["QS", "QC", "7H", "back", "9D"],
                 [(0, 0, 63, 88), (5, 3, 66, 90), (300, 0, 363, 88), (400, 0, 463, 88), (600, 0, 690, 120)])
    boxes = [quad_bounds(c) for c in dets.corners]
    # the QS is matched to its label; the QC lies on the same card; the 7H on no card; the 9D is a loose outline
    # of a card the matching missed
    missed = [(600.0, 20.0, 663.0, 108.0)]
    assert _extra(dets, boxes, {0}, missed) == 2


def _labelled_photo(folder: Path) -> None:
    """A photo of 9C and KD on a plain table, labelled as the real photos are (rank-only VOC boxes): 9C right,
    KD named a queen on purpose, and an ace where no card lies."""
    import cv2

    from vision.synth.cards import render_face
    from vision.synth.scene import paste_card

    image = np.full((360, 480, 3), (40, 90, 30), np.uint8)
    boxes = {"nine": (40, 60, 166, 236), "queen": (260, 80, 386, 256), "ace": (420, 280, 470, 350)}
    for code, name in (("9C", "nine"), ("KD", "queen")):
        x0, y0, x1, y1 = boxes[name]
        paste_card(image, render_face(code, 0, 252), np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32))
    cv2.imwrite(str(folder / "table.jpg"), image)
    objects = "".join(f"<object><name>{n}</name><bndbox><xmin>{b[0]}</xmin><ymin>{b[1]}</ymin><xmax>{b[2]}</xmax>"
                      f"<ymax>{b[3]}</ymax></bndbox></object>" for n, b in boxes.items())
    (folder / "table.xml").write_text(f"<annotation>{objects}</annotation>", encoding="utf-8")


def test_each_real_card_missed_or_read_wrong_is_listed(tmp_path: Path) -> None:
    from vision.cards import predict
    from vision.evaluate import evaluate_real

    _labelled_photo(tmp_path)
    score = evaluate_real(tmp_path, predict)
    assert score.boxes == 3 and score.found == 2 and score.rank_right == 1
    kinds = {f["kind"]: f for f in score.failures}
    assert sorted(kinds) == ["missed", "wrong"]
    assert kinds["wrong"]["rank"] == "Q" and kinds["wrong"]["read"] == "KD" and kinds["wrong"]["iou"] > 0.8
    assert kinds["missed"]["rank"] == "A" and kinds["missed"]["image"] == "table.jpg"
    assert "failures" not in score.to_json()  # the figures stay figures


def test_whole_cards_are_read_through_their_own_outlines(tmp_path: Path) -> None:
    """The readers alone: both cards lie uncovered, so both are outlined; the KD labelled a queen is read K."""
    from vision.evaluate import whole_card_reading

    _labelled_photo(tmp_path)
    out = whole_card_reading(tmp_path)
    assert out["cards"] == 2
    assert out["fused_rank_accuracy"] == 0.5 and out["face_rank_accuracy"] == 0.5


def test_vision_eval_lists_failures_and_reads_whole_cards(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    _labelled_photo(tmp_path)
    base = [sys.executable, "-m", "companion", "vision-eval", "--real", str(tmp_path), "--split", "all", "--scenes",
            "0", "--failures", "--whole-cards"]
    done = subprocess.run(base, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "rank accuracy 50.00%" in done.stdout  # the whole cards: KD labelled a queen
    assert "wrong    Q in table.jpg" in done.stdout and "missed   A in table.jpg" in done.stdout
    out = json.loads(subprocess.run(base + ["--json"], capture_output=True, text=True, timeout=120).stdout)
    assert [f["kind"] for f in out["failures"]] == ["wrong", "missed"]
    assert out["whole_cards"]["cards"] == 2
