"""The real-photo score counts cards read where none lies (a card read twice, papers read as a card), lists the
cards it missed or read wrong, and measures the readers alone on whole outlines; the synthetic score lists its
cards lost too."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.cards.geometry import quad_bounds
from vision.detections import CardDetections
from vision.evaluate import _extra, evaluate_real


def _dets(codes: list[str], boxes: list[tuple[float, float, float, float]]) -> CardDetections:
    quads = np.array([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]] for x0, y0, x1, y1 in boxes], np.float32)
    n = len(codes)
    return CardDetections(codes, quads, np.ones(n, np.float32), np.full(n, -1, np.int16), np.ones(n, bool))


def test_a_card_read_twice_and_a_reading_on_bare_table_are_extra_but_a_back_and_a_loose_miss_are_not() -> None:
    dets = _dets(["QS", "QC", "7H", "back", "9D"],
                 [(0, 0, 63, 88), (5, 3, 66, 90), (300, 0, 363, 88), (400, 0, 463, 88), (600, 0, 690, 120)])
    boxes = [[quad_bounds(c)] for c in dets.corners]
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


def _real_eval(folder: Path, *extra: str) -> list[str]:
    """The `vision-eval` command line that reads the real photos in `folder` alone (no synthetic scenes)."""
    import sys

    return [sys.executable, "-m", "companion", "vision-eval", "--real", str(folder), "--split", "all", "--scenes", "0",
            *extra]


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

    _labelled_photo(tmp_path)
    base = _real_eval(tmp_path, "--failures", "--whole-cards")
    done = subprocess.run(base, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "rank accuracy 50.00%" in done.stdout  # the whole cards: KD labelled a queen
    assert "wrong    Q in table.jpg" in done.stdout and "missed   A in table.jpg" in done.stdout
    out = json.loads(subprocess.run(base + ["--json"], capture_output=True, text=True, timeout=120).stdout)
    assert [f["kind"] for f in out["failures"]] == ["wrong", "missed"]
    assert out["whole_cards"]["cards"] == 2


def test_each_synthetic_card_lost_is_listed_with_what_lies_nearest() -> None:
    """A scene read with one card dropped, one misread and one read where no card lies: three failures, each
    naming the card and the reading nearest it; a scene read perfectly has none."""
    from vision.evaluate import match_cards, scene_failures
    from vision.synth.cards import face_style
    from vision.synth.layouts import superheld_map
    from vision.synth.scene import compose
    from vision.truth import must_see, truth_detections

    rng = np.random.default_rng(5)
    placements, _ = superheld_map(rng, n=12, style=3)
    _, truths, _ = compose(placements, rng, hands=0, max_tilt=0.2, fill=(0.8, 0.9))
    perfect = truth_detections(truths)
    assert scene_failures(0, "superheld", 3, truths, perfect, match_cards(perfect, truths)[3]) == []

    seen = [t for t in truths if must_see(t) and t.code != "back"]
    dropped, misread = seen[0], seen[1]
    keep = np.array([c != dropped.code for c in perfect.codes])
    dets = perfect[keep]
    k = dets.codes.index(misread.code)
    wrong_code = "KS" if misread.code != "KS" else "QS"
    dets.codes[k] = wrong_code
    far = np.array([[[5000, 5000], [5063, 5000], [5063, 5088], [5000, 5088]]], np.float32)
    extra = CardDetections(["7H"], far, np.array([0.7], np.float32), np.array([-1], np.int16), np.ones(1, bool))
    dets = CardDetections.merge([dets, extra])
    listed = scene_failures(4, "superheld", 3, truths, dets, match_cards(dets, truths)[3])
    by_kind = {f["kind"]: f for f in listed}
    assert sorted(by_kind) == ["extra", "missed", "wrong"] and len(listed) == 3
    assert by_kind["missed"]["truth"] == dropped.code and by_kind["missed"]["scene"] == 4
    assert by_kind["wrong"]["truth"] == misread.code and by_kind["wrong"]["read"] == wrong_code
    assert by_kind["extra"]["read"] == "7H" and by_kind["extra"]["iou"] == 0.0
    assert {f["letters"] for f in listed} == {face_style(3).language}


def test_vision_eval_lists_synthetic_failures_as_many_as_it_counts() -> None:
    import json
    import subprocess
    import sys

    # scene 2 of seed 777 (a Dutch map) holds failures; scenes 0 and 1 are read right since session 17
    base = [sys.executable, "-m", "companion", "vision-eval", "--real", "/nonexistent", "--scenes", "3", "--seed",
            "777", "--failures"]
    out = json.loads(subprocess.run(base + ["--json"], capture_output=True, text=True, timeout=300).stdout)
    syn = out["synthetic"]
    kinds = [f["kind"] for f in syn["failures"]]
    assert kinds.count("wrong") == syn["wrong_code"] and kinds.count("missed") == syn["missed"]
    assert kinds.count("extra") == syn["false_positives"] and len(kinds) > 0
    text = subprocess.run(base, capture_output=True, text=True, timeout=300).stdout
    assert text.count("\n  scene ") == len(kinds)


def test_a_covered_card_read_right_is_no_extra_card_but_read_twice_or_wrong_is() -> None:
    """A card a player need not see (a quarter of it shows, its index hidden) read right on its outline is seen
    beyond what is asked, not a false positive; a second reading of it, or a reading naming another card, is."""
    from vision.evaluate import match_cards, scene_failures
    from vision.synth.scene import CardTruth
    from vision.truth import must_see

    square = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    shown = CardTruth("5H", 0, square, 0.95, [square[:1]], [1.0])
    covered = CardTruth("9C", 0, square + [200, 0], 0.25, [square[:1] + [200, 0]], [0.1])
    assert must_see(shown) and not must_see(covered)

    def dets(codes: list[str], shifts: list[int]) -> CardDetections:
        corners = np.stack([square + [dx, 0] for dx in shifts]).astype(np.float32)
        n = len(codes)
        return CardDetections(codes, corners, np.full(n, 0.9, np.float32), np.full(n, -1, np.int16), np.ones(n, bool))

    truths = [shown, covered]
    assert match_cards(dets(["5H", "9C"], [0, 200]), truths)[:3] == (1, 0, 0)
    twice = dets(["5H", "9C", "9C"], [0, 200, 202])
    assert match_cards(twice, truths)[:3] == (1, 0, 1)
    listed = scene_failures(0, "loose", 0, truths, twice, match_cards(twice, truths)[3])
    assert [(f["kind"], f["read"]) for f in listed] == [("extra", "9C")]
    assert match_cards(dets(["5H", "8C"], [0, 200]), truths)[:3] == (1, 0, 1)


def test_vision_eval_with_an_empty_court_art_folder_names_the_command(tmp_path: Path) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "companion", "vision-eval", "--real", "/nonexistent", "--scenes",
                           "1", "--court-art", str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "no court pictures" in done.stderr and "python -m vision.synth.court_art" in done.stderr


def _suits(folder: Path, letters: str) -> Path:
    import json

    path = folder / "suits.json"
    path.write_text(json.dumps({"suits": {"table.jpg": letters}}), encoding="utf-8")
    return path


def test_a_right_rank_in_the_wrong_suit_is_a_suit_failure_where_the_suit_is_known(tmp_path: Path) -> None:
    """The 9C labelled a heart is read with its rank right and its suit wrong; the KD labelled a queen in
    diamonds is wrong already; the ace is missed, so its suit counts for nothing."""
    from vision.cards import predict
    from vision.evaluate import evaluate_real
    from vision.real_photos import read_suits

    _labelled_photo(tmp_path)
    score = evaluate_real(tmp_path, predict, suits=read_suits(_suits(tmp_path, "HDS")))
    assert score.suited == 2 and score.code_right == 0 and score.rank_right == 1
    suit = [f for f in score.failures if f["kind"] == "suit"]
    assert len(suit) == 1 and suit[0]["rank"] == "9H" and suit[0]["read"] == "9C"
    right = evaluate_real(tmp_path, predict, suits=read_suits(_suits(tmp_path, "C??")))
    assert right.suited == 1 and right.code_right == 1 and right.to_json()["code_accuracy_of_suited"] == 1.0
    assert not [f for f in right.failures if f["kind"] == "suit"]


def test_suits_that_do_not_fit_the_photo_or_the_file_format_are_named(tmp_path: Path) -> None:
    import pytest

    from vision.cards import predict
    from vision.evaluate import evaluate_real
    from vision.real_photos import read_suits

    _labelled_photo(tmp_path)
    with pytest.raises(ValueError, match="table.jpg: 2 suits for 3 labelled cards"):
        evaluate_real(tmp_path, predict, suits=read_suits(_suits(tmp_path, "CD")))
    with pytest.raises(ValueError, match="table.jpg: suits must be"):
        read_suits(_suits(tmp_path, "CDX"))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(ValueError, match="broken.json: not a suits file"):
        read_suits(broken)


def test_vision_eval_scores_suits_and_names_a_broken_suits_file(tmp_path: Path) -> None:
    import subprocess
    import sys

    _labelled_photo(tmp_path)
    base = [sys.executable, "-m", "companion", "vision-eval", "--real", str(tmp_path), "--split", "all", "--scenes",
            "0", "--failures", "--suits"]
    done = subprocess.run(base + [str(_suits(tmp_path, "HD?"))], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "rank and suit right for 0.00% of the 2 found cards whose suit is known" in done.stdout
    assert "suit    9H in table.jpg" in done.stdout
    broken = tmp_path / "broken.json"
    broken.write_text("[]", encoding="utf-8")
    done = subprocess.run(base + [str(broken)], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "broken.json: not a suits file" in done.stderr
    done = subprocess.run(base + [str(tmp_path / "absent.json")], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "absent.json: not a suits file" in done.stderr  # a mistyped path is no silence


def test_the_shipped_suits_fit_the_real_photos_they_name() -> None:
    """Every photo the suits file names is a labelled photo, with one suit per card."""
    from vision.real_photos import SUITS_FILE, labelled_photos, read_suits

    real = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-cards-dev"
    suits = read_suits(SUITS_FILE)
    counts = {p.name: len(labels) for p, _, labels in labelled_photos(real)} if real.is_dir() else {}
    assert len(suits) == 296 and sum(len(s) for s in suits.values()) == 527
    for name, letters in suits.items():
        assert not counts or counts[name] == len(letters)


def test_a_card_the_frame_cuts_is_found_by_its_reading_inside_the_picture(tmp_path: Path) -> None:
    """A label box ends at the picture's edge; a reading of the whole card runs on beyond it (real tune half: a
    queen cut by the top edge read right, its bounds beyond the picture, IoU 0.44 with the box)."""
    import cv2

    from vision.evaluate import evaluate_real

    cv2.imwrite(str(tmp_path / "cut.jpg"), np.full((200, 300, 3), 90, np.uint8))
    box = "<xmin>100</xmin><ymin>0</ymin><xmax>163</xmax><ymax>40</ymax>"
    (tmp_path / "cut.xml").write_text(f"<annotation><object><name>queen</name><bndbox>{box}</bndbox></object>"
                                      "</annotation>", encoding="utf-8")
    whole = _dets(["QD"], [(100, -48, 163, 40)])  # the card's top 48 px lie above the picture
    score = evaluate_real(tmp_path, lambda image: whole)
    assert score.found == 1 and score.rank_right == 1 and not score.failures


def test_a_card_under_another_is_found_by_its_part_left_uncovered(tmp_path: Path) -> None:
    """A nine more than half under a queen is boxed round its visible strip (IoU 0.48 with its whole outline, which
    its reading gives); the queen on top is found by her whole outline."""
    import cv2

    from vision.evaluate import evaluate_real

    cv2.imwrite(str(tmp_path / "pair.jpg"), np.full((200, 300, 3), 90, np.uint8))
    objects = "".join(f"<object><name>{n}</name><bndbox><xmin>{b[0]}</xmin><ymin>{b[1]}</ymin><xmax>{b[2]}</xmax>"
                      f"<ymax>{b[3]}</ymax></bndbox></object>" for n, b in (("nine", (40, 50, 70, 138)),
                                                                            ("queen", (70, 50, 133, 138))))
    (tmp_path / "pair.xml").write_text(f"<annotation>{objects}</annotation>", encoding="utf-8")
    both = _dets(["9S", "QH"], [(40, 50, 103, 138), (70, 50, 133, 138)])
    score = evaluate_real(tmp_path, lambda image: both)
    assert score.found == 2 and score.rank_right == 2 and score.extra == 0
    apart = _dets(["9S", "QH"], [(40, 50, 103, 138), (150, 50, 213, 138)])  # no card over the nine: missed
    assert evaluate_real(tmp_path, lambda image: apart).found == 0


def test_a_stacks_cards_are_matched_to_their_own_readings_before_their_neighbours() -> None:
    """Two cards of a stack, the second laid 22 mm down the first: their whole outlines overlap by 0.6. The second
    card's reading, placed a little high, overlaps the first card more than its own; matched by overlap alone it
    took the first card (one wrong code, one miss, one extra), matched by its own code first both are right."""
    from vision.evaluate import match_cards
    from vision.synth.scene import CardTruth

    def card(y0: float, y1: float) -> np.ndarray:
        return np.array([[0, y0], [63, y0], [63, y1], [0, y1]], np.float32)

    truths = [CardTruth("8D", 0, card(0, 88), 0.4, [card(0, 1)], [1.0]),
              CardTruth("5S", 0, card(22, 110), 1.0, [card(22, 23)], [1.0])]
    readings = CardDetections(["8D", "5S"], np.stack([card(0, 70), card(5, 93)]), np.full(2, 0.9, np.float32),
                              np.full(2, -1, np.int16), np.ones(2, bool))
    right, wrong, extra, mapping = match_cards(readings, truths)
    assert (right, wrong, extra) == (2, 0, 0) and mapping == {0: 0, 1: 1}


def test_points_of_a_turned_picture_are_taken_back_onto_it() -> None:
    import cv2

    from vision.cards.geometry import TURNS, turned_back

    image = np.zeros((5, 7), np.uint8)
    image[1, 4] = 255  # (x 4, y 1)
    for degrees, code in TURNS.items():
        y, x = np.argwhere(cv2.rotate(image, code))[0]
        assert turned_back(np.array([[x, y]], np.float32), degrees, image.shape).tolist() == [[4.0, 1.0]]


def test_real_photos_read_turned_are_scored_on_their_own_labels(tmp_path: Path) -> None:
    """The labelled photo read turned each way: its readings are taken back, so the score stays the photo's own
    (9C found and read, KD found and named a queen, the ace missed)."""
    import pytest

    from vision.cards import predict
    from vision.evaluate import evaluate_real, turned_predictor

    _labelled_photo(tmp_path)
    for degrees in (90, 180, 270):
        score = evaluate_real(tmp_path, turned_predictor(predict, degrees))
        assert (score.boxes, score.found, score.rank_right) == (3, 2, 1), degrees
    assert turned_predictor(predict, 0) is predict
    with pytest.raises(ValueError, match="not 45"):
        turned_predictor(predict, 45)


def test_vision_eval_turns_the_real_photos(tmp_path: Path) -> None:
    import json
    import subprocess

    _labelled_photo(tmp_path)
    base = _real_eval(tmp_path, "--turn", "90")
    done = subprocess.run(base, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "turned 90 degrees" in done.stdout and "recall@IoU0.5 66.67%" in done.stdout
    out = json.loads(subprocess.run(base + ["--json"], capture_output=True, text=True, timeout=120).stdout)
    assert out["real"]["turn"] == 90 and out["real"]["cards"] == 3
    bad = subprocess.run(base[:-1] + ["45"], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--turn" in bad.stderr


@pytest.mark.parametrize(("option", "factors", "outside", "message"),
                         [("scale", (0.8, 1.25), 5.0, "0.25 to 2.0"), ("light", (0.8, 1.2), 0.1, "0.3 to 2.0")])
def test_real_photos_read_resized_or_relit_are_scored_on_their_own_labels(
        tmp_path: Path, option: str, factors: tuple[float, float], outside: float, message: str) -> None:
    """The labelled photo read shrunk and enlarged (a camera further off or nearer), or dimmer and brighter: the
    readings are taken back onto the photo, so the score stays its own (9C found and read, KD found and named a
    queen, the ace missed)."""
    import json
    import subprocess

    from vision.cards import predict
    from vision.evaluate import lit_predictor, scaled_predictor

    seen = {"scale": scaled_predictor, "light": lit_predictor}[option]
    _labelled_photo(tmp_path)
    for factor in factors:
        score = evaluate_real(tmp_path, seen(predict, factor))
        assert (score.boxes, score.found, score.rank_right) == (3, 2, 1), factor
    assert seen(predict, 1.0) is predict
    with pytest.raises(ValueError, match=f"not {outside}"):
        seen(predict, outside)
    base = _real_eval(tmp_path, f"--{option}", str(factors[0]))
    done = subprocess.run(base + ["--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["real"][option] == factors[0]
    bad = subprocess.run(base[:-1] + [str(outside)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and message in bad.stderr
