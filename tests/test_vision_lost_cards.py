"""Cards that only the detector's smaller input finds: a table of small cards is looked at again at a larger input,
which shows a fan's indices bigger but can lose a card that glare leaves without detail."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards.detect import BACK, CARD, DETECTOR, INDEX, Boxes


def _boxes(*rows: tuple[float, int, float]) -> Boxes:
    """Axis-aligned card-sized boxes at x (px), of a class, with a score."""
    quads = np.array([[[x, 100], [x + 63, 100], [x + 63, 188], [x, 188]] for x, _, _ in rows], np.float32)
    return Boxes(quads.reshape(-1, 4, 2), np.array([c for _, c, _ in rows], int),
                 np.array([s for _, _, s in rows], np.float32))


def test_a_sure_card_box_only_the_smaller_input_found_is_kept_beside_the_larger_inputs_boxes() -> None:
    from vision.cards import _with_lost_cards

    image = np.full((300, 1100, 3), (40, 120, 40), np.uint8)  # a green cloth
    for x in (0, 200, 400, 600, 800):  # cards (white) where the boxes lie, but none at 1000
        image[100:189, x:x + 64] = 255
    larger = _boxes((0, CARD, 0.9), (200, BACK, 0.8), (400, CARD, 0.2), (600, INDEX, 0.7))
    smaller = _boxes((2, CARD, 0.9), (202, CARD, 0.7), (402, CARD, 0.64), (602, CARD, 0.55), (800, CARD, 0.45),
                     (1000, CARD, 0.9))
    out = _with_lost_cards(image, larger, smaller)
    assert out.quads[:4].tolist() == larger.quads.tolist()  # the larger input's boxes stay as they are
    # the card at 400 (the larger input unsure of it, 0.2) and at 600 (only an index box there) are added;
    # those at 0 and 200 are the larger input's card and back; the one at 800 is too unsure (0.45), and the box at
    # 1000 has the cloth's colour
    assert out.quads[4:, 0, 0].tolist() == [402.0, 602.0]
    assert out.classes[4:].tolist() == [CARD, CARD]
    assert out.scores[4:].tolist() == pytest.approx([0.64, 0.55])


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_scoundrel_room_card_under_glare_lost_at_the_larger_input_is_read() -> None:
    from vision.cards import predict
    from vision.evaluate import synthetic_scenes

    *_, (kind, _, _, image, truths) = synthetic_scenes(6464, 26)  # selection seed 6464, scene 25
    assert kind == "scoundrel"
    assert "5H" in [t.code for t in truths if t.visible > 0.9]
    dets = predict(image)
    five = [q for code, q in zip(dets.codes, dets.corners, strict=True) if code == "5H"]
    truth = next(t for t in truths if t.code == "5H")
    assert len(five) == 1 and np.linalg.norm(five[0].mean(axis=0) - truth.corners.mean(axis=0)) < 30


def test_a_blob_inside_a_sure_card_box_and_much_smaller_is_part_of_that_card() -> None:
    from vision.cards import _not_card_parts

    box = np.array([[100, 100], [226, 100], [226, 290], [100, 290]], np.float32)
    half = np.array([[102, 200], [224, 200], [224, 288], [102, 288]], np.float32)  # its lower half
    whole = box + np.array([2, 2], np.float32)  # the card's own edges
    beside = half + np.array([300, 0], np.float32)  # a card lying elsewhere
    blobs = np.stack([half, whole, beside])
    sure = Boxes(box[None], np.array([CARD]), np.array([0.84], np.float32))
    assert _not_card_parts(blobs, sure).tolist() == blobs[1:].tolist()
    unsure = Boxes(box[None], np.array([CARD]), np.array([0.5], np.float32))
    assert _not_card_parts(blobs, unsure).tolist() == blobs.tolist()  # an unsure box may be a part itself


@pytest.mark.skipif(not DETECTOR.exists(), reason="no detector model")
def test_a_weapon_stacks_top_card_half_in_shadow_is_read_through_its_box() -> None:
    """Seed 34733, scene 17: a 3S on a 9D weapon, boxed whole at 0.84; a shadow's edge parts its lower half into a
    blob of its own, which overruled the box and read AC."""
    from vision.cards import predict
    from vision.cards.geometry import quad_iou
    from vision.evaluate import synthetic_scenes

    *_, (kind, _, _, image, truths) = synthetic_scenes(34733, 18)
    assert kind == "scoundrel"
    dets = predict(image)
    truth = next(t for t in truths if t.code == "3S")
    three = [q for code, q in zip(dets.codes, dets.corners, strict=True) if code == "3S"]
    assert len(three) == 1 and quad_iou(three[0], truth.corners) > 0.8
    assert "AC" not in dets.codes
