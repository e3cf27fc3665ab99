"""Detector labels from rank-only real boxes: a card found again is labelled by its turned outline and its two
index corners; a box the outline finder cannot match (an overlapped card) keeps the box itself."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.cards.geometry import CARD_W_MM, quad_iou
from vision.synth.cards import render_face
from vision.synth.scene import Placement, paste_card
from vision.train.real_boxes import CARD, INDEX, _paper_outline, link_synthetic, photo_labels, write_real


def _card(centre: tuple[float, float], width: float, angle_deg: float) -> np.ndarray:
    """A card `width` px wide at `centre`, turned clockwise, as image corners from the printed top-left."""
    local = Placement(None, (0.0, 0.0), angle_deg).corners_mm() * (width / CARD_W_MM)
    return (local + np.array(centre, np.float32)).astype(np.float32)


def _bounds(q: np.ndarray) -> tuple[float, float, float, float]:
    return float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max())


def test_a_lone_turned_card_is_labelled_by_its_outline_and_both_index_corners() -> None:
    scene = np.full((540, 720, 3), 45, np.uint8)
    truth = _card((360, 270), 140, 20)
    paste_card(scene, render_face("KH", 0, 252), truth)
    labels = photo_labels(scene, [_bounds(truth)])
    cards = [q for c, q in labels if c == CARD]
    indices = [q for c, q in labels if c == INDEX]
    assert len(cards) == 1 and quad_iou(cards[0], truth) > 0.85  # the turned card, not its upright bounds
    assert len(indices) == 2
    for q in indices:  # each index box lies in a corner of the card, inside it
        centre = q.mean(axis=0)
        assert cv2.pointPolygonTest(truth.reshape(-1, 1, 2), (float(centre[0]), float(centre[1])), False) > 0
        assert min(np.linalg.norm(truth - centre, axis=1)) < 0.35 * 140


def test_an_overlapped_card_keeps_its_box() -> None:
    scene = np.full((540, 720, 3), 45, np.uint8)
    under, over = _card((300, 270), 140, 0), _card((390, 280), 140, 0)
    paste_card(scene, render_face("9C", 0, 252), under)
    paste_card(scene, render_face("QS", 0, 252), over)
    visible = (float(under[:, 0].min()), float(under[:, 1].min()), float(over[:, 0].min()), float(under[:, 1].max()))
    labels = photo_labels(scene, [visible, _bounds(over)])
    box = np.array([[visible[0], visible[1]], [visible[2], visible[1]], [visible[2], visible[3]],
                    [visible[0], visible[3]]], np.float32)
    assert any(c == CARD and np.allclose(q, box) for c, q in labels)
    assert any(c == CARD and quad_iou(q, over) > 0.85 for c, q in labels)


def test_a_card_the_finder_misses_is_labelled_by_its_turned_paper_not_its_upright_box() -> None:
    scene = np.full((540, 720, 3), 45, np.uint8)
    truth = _card((360, 270), 140, 35)
    paste_card(scene, render_face("10D", 0, 252), truth)
    box = _bounds(truth)
    label = _paper_outline(scene, box)
    assert quad_iou(label, truth) > 0.85
    assert quad_iou(label, np.array([[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]],
                                    np.float32)) < 0.75  # turned, not the box


def test_a_box_whose_paper_runs_on_keeps_the_box() -> None:
    scene = np.full((540, 720, 3), 45, np.uint8)
    scene[:, 360:] = 235  # white paper under the right half: the card's blob runs into it
    truth = _card((330, 270), 140, 0)
    paste_card(scene, render_face("7S", 0, 252), truth)
    box = (float(truth[:, 0].min()), float(truth[:, 1].min()), 360.0, float(truth[:, 1].max()))
    label = _paper_outline(scene, box)
    assert np.allclose(label, [[box[0], box[1]], [box[2], box[1]], [box[2], box[3]], [box[0], box[3]]])


def test_a_mixed_set_links_photos_and_scenes_without_copying(tmp_path: Path) -> None:
    photos, synth, out = tmp_path / "photos", tmp_path / "synth", tmp_path / "mix"
    photos.mkdir()
    scene = np.full((378, 504, 3), 45, np.uint8)
    truth = _card((250, 190), 110, 10)
    paste_card(scene, render_face("AS", 0, 252), truth)
    for name in ("IMG_1.JPG", "IMG_2.JPG"):  # the tune half is the even positions: IMG_1 only
        cv2.imwrite(str(photos / name), scene)
        x0, y0, x1, y1 = (int(v) for v in _bounds(truth))
        (photos / name).with_suffix(".xml").write_text(
            f"<annotation><object><name>ace</name><bndbox><xmin>{x0}</xmin><ymin>{y0}</ymin><xmax>{x1}</xmax>"
            f"<ymax>{y1}</ymax></bndbox></object></annotation>", encoding="utf-8")
    for split in ("train", "val"):
        (synth / "images" / split).mkdir(parents=True)
        (synth / "labels" / split).mkdir(parents=True)
        cv2.imwrite(str(synth / "images" / split / f"{split}_0.jpg"), scene)
        (synth / "labels" / split / f"{split}_0.txt").write_text("0 0.1 0.1 0.2 0.1 0.2 0.2 0.1 0.2\n")
    assert write_real(photos, out, copies=2) == 1
    assert link_synthetic(synth, out) == 2
    images = sorted((out / "images" / "train").iterdir())
    assert [p.name for p in images] == ["real_IMG_1_0.jpg", "real_IMG_1_1.jpg", "train_0.jpg"]
    assert all(p.is_symlink() for p in images)
    lines = (out / "labels" / "train" / "real_IMG_1_0.txt").read_text().splitlines()
    assert [line.split()[0] for line in lines] == ["0", "2", "2"]
    values = np.array([v for line in lines for v in line.split()[1:]], float)
    assert values.min() >= 0 and values.max() <= 1


def test_a_photo_turned_a_quarter_is_written_with_its_labels_on_the_turned_card(tmp_path: Path) -> None:
    photos, out = tmp_path / "photos", tmp_path / "mix"
    photos.mkdir()
    scene = np.full((378, 504, 3), 45, np.uint8)
    truth = _card((330, 150), 110, 10)
    paste_card(scene, render_face("AS", 0, 252), truth)
    cv2.imwrite(str(photos / "IMG_1.JPG"), scene)
    x0, y0, x1, y1 = (int(v) for v in _bounds(truth))
    (photos / "IMG_1.xml").write_text(
        f"<annotation><object><name>ace</name><bndbox><xmin>{x0}</xmin><ymin>{y0}</ymin><xmax>{x1}</xmax>"
        f"<ymax>{y1}</ymax></bndbox></object></annotation>", encoding="utf-8")
    assert write_real(photos, out, copies=1, turns=(90, 270)) == 1
    for deg in (90, 270):
        image = cv2.imread(str(out / "images" / "train" / f"real_IMG_1_t{deg}.png"))
        assert image.shape == (504, 378, 3)  # turned, not linked
        line = (out / "labels" / "train" / f"real_IMG_1_t{deg}.txt").read_text().splitlines()[0].split()
        quad = np.array(line[1:], float).reshape(4, 2) * [378, 504]
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
        assert line[0] == "0" and image[mask > 0].mean() > 150  # the card's light paper, not the dark table


def test_a_folder_without_annotated_photos_gives_no_real_label(tmp_path: Path) -> None:
    (tmp_path / "photos").mkdir()
    assert write_real(tmp_path / "photos", tmp_path / "mix") == 0
    assert list((tmp_path / "mix" / "labels" / "train").iterdir()) == []


def test_a_known_suit_allows_its_code_only_and_an_unknown_one_the_rank_in_every_suit() -> None:
    from vision.cards.labels import CROP_CLASSES
    from vision.train.real_crops import rank_mask

    assert [c for c, ok in zip(CROP_CLASSES, rank_mask("9", "S"), strict=True) if ok] == ["9S"]
    assert sorted(c for c, ok in zip(CROP_CLASSES, rank_mask("10"), strict=True) if ok) == ["10C", "10D", "10H", "10S"]
