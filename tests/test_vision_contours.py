"""The classical card-outline finder: lone cards on tables of any brightness and texture, at any angle."""

from __future__ import annotations

import numpy as np
import pytest

from vision.cards.contours import propose
from vision.cards.geometry import quad_iou
from vision.synth.cards import render_face
from vision.synth.scene import paste_card


def _table(kind: str, rng: np.random.Generator) -> np.ndarray:
    """A dark cloth, a speckled beige carpet, or a light grey desk only a little darker than the card."""
    if kind == "dark":
        return np.full((540, 720, 3), 45, np.uint8)
    if kind == "carpet":
        base = np.array([120, 165, 190], np.float32)  # BGR beige
        noise = rng.normal(0, 35, (540, 720, 1))
        return np.clip(base + noise, 0, 255).astype(np.uint8)
    return np.full((540, 720, 3), 190, np.uint8)


def _card_corners(centre: tuple[float, float], width: float, angle_deg: float) -> np.ndarray:
    w, h = width, width * 88 / 63
    local = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]], np.float32)
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return (local @ rot.T + np.array(centre, np.float32)).astype(np.float32)


@pytest.mark.parametrize("kind", ["dark", "carpet", "light"])
def test_lone_cards_are_outlined_on_each_table(kind: str) -> None:
    rng = np.random.default_rng(3)
    scene = _table(kind, rng)
    truths = [_card_corners((200, 200), 110, 12), _card_corners((500, 320), 90, -35)]
    for code, corners in zip(("KH", "9C"), truths, strict=True):
        paste_card(scene, render_face(code, 0, 252), corners)
    quads = propose(scene)
    for truth in truths:
        assert max((quad_iou(truth, q) for q in quads), default=0.0) > 0.8, kind


def test_a_card_on_a_sheet_of_paper_is_kept_apart_from_the_sheet() -> None:
    scene = np.full((540, 720, 3), 40, np.uint8)
    scene[60:500, 150:600] = 215  # the sheet: pale, much bigger than a card
    truth = _card_corners((380, 280), 100, 8)
    paste_card(scene, render_face("QS", 0, 252), truth)
    quads = propose(scene)
    assert max((quad_iou(truth, q) for q in quads), default=0.0) > 0.8


def test_an_empty_table_gives_no_card() -> None:
    assert propose(np.full((300, 400, 3), 90, np.uint8)).shape == (0, 4, 2)


def test_an_outline_laid_upright_from_an_index_is_turned_onto_the_card_edges() -> None:
    """A card turned 9 degrees, outlined upright from its index corner (as an index box the detector boxed upright
    lays it off), is turned about that corner onto its own edges."""
    from vision.cards.contours import turned_to_edges
    from vision.cards.geometry import turned_by

    scene = _table("dark", np.random.default_rng(5))
    truth = _card_corners((300, 260), 120, 9)
    paste_card(scene, render_face("9D", 0, 252), truth)
    pivot = truth[0] + 0.1 * (truth[1] - truth[0]) + 0.1 * (truth[3] - truth[0])  # about where the index lies
    upright = turned_by(truth, -9, pivot)
    turned = turned_to_edges(scene, upright, pivot)
    assert quad_iou(upright, truth) < 0.85
    assert quad_iou(turned, truth) > 0.95


def test_an_outline_on_a_plain_table_is_not_turned() -> None:
    """No edges to meet (the card is not there): the outline stays as laid off."""
    from vision.cards.contours import turned_to_edges

    scene = _table("dark", np.random.default_rng(5))
    quad = _card_corners((300, 260), 120, 0)
    assert np.array_equal(turned_to_edges(scene, quad, quad[0] + 10), quad)
