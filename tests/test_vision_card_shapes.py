"""Off a map an overlapped card is outlined by its visible part, whose index the crop then squeezes or
stretches: such an outline is read again through the card shapes it may be part of."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards.geometry import (
    CARD_H_MM,
    CARD_W_MM,
    card_shape_off,
    card_shapes,
    cards_at_top,
    portrait_corners,
    quad_iou,
)
from vision.detections import CardDetections

SCALE = 2.4  # px per mm


def _card(x: float, y: float) -> np.ndarray:
    w, h = CARD_W_MM * SCALE, CARD_H_MM * SCALE
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)


def _visible_part(card: np.ndarray, share: float) -> np.ndarray:
    """The left `share` of a card's width."""
    right = card[0] + share * (card[1] - card[0]), card[3] + share * (card[2] - card[3])
    return np.array([card[0], right[0], right[1], card[3]], np.float32)


def test_a_card_is_card_shaped_and_its_visible_part_is_not() -> None:
    card = _card(10, 20)
    assert card_shape_off(card) < 1e-3
    assert card_shape_off(_visible_part(card, 0.55)) > 0.5


@pytest.mark.parametrize("share", [0.45, 0.6, 0.8])
def test_the_card_a_visible_part_belongs_to_is_among_its_shapes(share: float) -> None:
    card = _card(30, 40)
    part = _visible_part(card, share)
    shapes = card_shapes(part)
    assert shapes.shape == (4, 4, 2)
    assert max(quad_iou(s, card) for s in shapes) > 0.97
    assert all(card_shape_off(s) < 0.02 for s in shapes)  # every candidate has a card's sides
    turned = card_shapes(part[[1, 2, 3, 0]])  # the same quad from another corner: the same shapes
    assert max(quad_iou(s, card) for s in turned) > 0.97


def _overlap_scene() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """QH with 7S laid over its right side: the image, QH's outline and the part of it that shows."""
    from vision.synth.cards import render_face
    from vision.synth.scene import paste_card

    image = np.full((360, 420, 3), (40, 90, 30), np.uint8)
    under, over = _card(40, 60), _card(40 + 0.55 * CARD_W_MM * SCALE, 70)
    width = int(CARD_W_MM * SCALE)
    paste_card(image, render_face("QH", 0, width), under)
    paste_card(image, render_face("7S", 0, width), over)
    return image, under, _visible_part(under, 0.55)


def test_an_overlapped_card_outlined_by_its_visible_part_is_read_through_its_card_shape() -> None:
    from vision.cards.identity import read_cards
    from vision.cards.reread import _read_card_shaped

    image, _, part = _overlap_scene()
    first, _, _ = read_cards(image, part[None])
    cards = CardDetections(["?", "7S"], np.stack([part, _card(40 + 0.55 * CARD_W_MM * SCALE, 70)]),
                           np.array([0.5, 0.95], np.float32), np.full(2, -1, np.int16), np.ones(2, bool))
    out = _read_card_shaped(image, cards)
    assert first != ["QH"]  # through the squeezed crop the card was not read
    assert out.codes == ["QH", "7S"] and out.confidence[0] >= 0.9
    assert quad_iou(out.corners[0], part) > 0.99  # the outline stays the part found (the photos' boxes are too)
    assert np.allclose(out.corners[0], portrait_corners(part)) or np.allclose(
        out.corners[0], np.roll(portrait_corners(part), -2, axis=0))
    assert cards.codes == ["?", "7S"]  # the cards given are left as they were


def test_a_card_shaped_outline_is_not_read_again() -> None:
    from vision.cards.reread import _read_card_shaped

    image, under, _ = _overlap_scene()
    cards = CardDetections(["?"], under[None], np.array([0.5], np.float32), np.full(1, -1, np.int16), np.ones(1, bool))
    assert _read_card_shaped(image, cards) is cards


def test_a_card_the_frame_cuts_is_not_read_again() -> None:
    """A region cut from a map for an update cuts the cards at its border: their shape says nothing of what
    covers them."""
    from vision.cards.reread import _read_card_shaped

    image, _, part = _overlap_scene()
    left = int(part[0, 0]) + 10  # the frame's left edge runs through QH's visible part
    cut = np.ascontiguousarray(image[:, left:])
    cards = CardDetections(["?"], (part - [left, 0])[None], np.array([0.5], np.float32), np.full(1, -1, np.int16),
                           np.ones(1, bool))
    assert _read_card_shaped(cut, cards) is cards
    whole = CardDetections(["?"], part[None], np.array([0.5], np.float32), np.full(1, -1, np.int16), np.ones(1, bool))
    assert _read_card_shaped(image, whole).codes == ["QH"]  # in the whole frame the same part is read


def test_the_cards_at_a_wide_outlines_top_are_card_shaped_and_as_wide_as_asked() -> None:
    """A weapon stack's region, drifted sideways, is 1.3 cards wide: the cards at either end of its printed top
    start at its two top corners, run down its sides and are card-shaped."""
    wide = np.array([[100, 50], [230, 50], [230, 300], [100, 300]], np.float32)
    left, right = cards_at_top(wide, 100.0)
    np.testing.assert_allclose(left[0], [100, 50], atol=1e-3)
    np.testing.assert_allclose(right[1], [230, 50], atol=1e-3)
    for card in (left, right):
        np.testing.assert_allclose(np.linalg.norm(card[1] - card[0]), 100.0, atol=1e-3)
        assert card_shape_off(card) < 1e-3
