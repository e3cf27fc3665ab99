"""The synthetic generator: faces, backs, tables, hands, pasting, scenes and their truths."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.cards.geometry import (
    CROP_H,
    CROP_W,
    FACE_H,
    FACE_W,
    face_crop,
    index_crop,
    portrait_corners,
    quad_iou,
    rotate_corners,
)
from vision.synth.cards import card_height, face_style, render_back, render_face
from vision.synth.hands import draw_hand
from vision.synth.layouts import SCOUNDREL_DECK, loose_cards, scoundrel_table, superheld_map
from vision.synth.scene import compose, paste_card
from vision.synth.textures import TEXTURES, table


@pytest.mark.parametrize("code", ["AS", "10H", "QD", "KC", "7S", "JOKER"])
@pytest.mark.parametrize("style", [0, 3, 17])
def test_face_is_bgr_card_shaped(code: str, style: int) -> None:
    img = render_face(code, style, 126)
    assert img.dtype == np.uint8 and img.shape == (card_height(126), 126, 3)
    assert abs(img.shape[0] / img.shape[1] - 88 / 63) < 0.01
    assert img.std() > 10  # something is drawn on the paper


def test_red_and_black_suits_differ_in_colour() -> None:
    red, black = render_face("5H", 0, 126).astype(int), render_face("5S", 0, 126).astype(int)
    red_ink = (red[:, :, 2] - red[:, :, 1] > 80).sum()
    black_ink = (black[:, :, 2] - black[:, :, 1] > 80).sum()
    assert red_ink > 200 and black_ink == 0


def test_styles_cover_the_deck_languages() -> None:
    languages = {face_style(s).language for s in range(1, 60)}
    assert languages == {"english", "dutch", "german", "french"}
    assert {face_style(s).ace for s in range(1, 60)} == {"A", "1"}


def test_backs_differ_between_designs() -> None:
    a, b = render_back(0, 100), render_back(1, 100)
    assert a.shape == b.shape == (card_height(100), 100, 3)
    assert np.abs(a.astype(int) - b.astype(int)).mean() > 30


@pytest.mark.parametrize("kind", sorted(TEXTURES))
def test_table_textures(kind: str) -> None:
    img = table(np.random.default_rng(1), 160, 90, kind)
    assert img.shape == (90, 160, 3) and img.dtype == np.uint8


def test_paste_card_lands_on_the_corners() -> None:
    scene = np.zeros((200, 300, 3), np.uint8)
    corners = np.array([[50, 40], [113, 40], [113, 128], [50, 128]], np.float32)
    paste_card(scene, render_face("AS", 0, 63), corners)
    assert scene[60, 108].mean() > 200  # inside: paper (top-right of an ace)
    assert scene[20, 20].sum() == 0 and scene[150, 200].sum() == 0  # outside untouched


def test_draw_hand_paints_near_the_anchor() -> None:
    image = np.full((240, 320, 3), 255, np.uint8)
    out = draw_hand(image, np.random.default_rng(3), (160, 120))
    assert out is image
    assert out[120, 160].mean() < 250


def _whole(face: np.ndarray) -> np.ndarray:
    """The corners of a rendered face that fills its image."""
    h, w = face.shape[:2]
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)


def test_index_crop_of_a_rendered_card_reads_upright() -> None:
    face = render_face("KS", 0, 252)
    crop = index_crop(face, _whole(face))
    turned = index_crop(face, rotate_corners(_whole(face), 2))
    assert crop.shape == (CROP_H, CROP_W, 3)
    assert crop.mean() < 245  # ink of the index
    assert np.abs(crop.astype(int) - turned.astype(int)).mean() < 20  # both printed indices look alike


def _ink_rows(crop: np.ndarray) -> int:
    """Rows of the crop holding ink (the rank and the suit under it)."""
    return int((crop.min(axis=2) < 128).any(axis=1).sum())


@pytest.mark.parametrize("style", [5, 17, 33])
def test_big_index_deck_is_its_deck_with_a_taller_index(style: int) -> None:
    """A big-index deck is its random deck with the index real decks print: same font and letters, a taller
    rank, and a "10" of two narrow digits."""
    from vision.synth.cards import BIG_INDEX

    small, big = face_style(style), face_style(BIG_INDEX + style)
    assert (big.font, big.language, big.ace, big.paper) == (small.font, small.language, small.ace, small.paper)
    assert big.ten == "10" and big.rank_h > 7.4 > small.rank_h and big.ten_width <= small.ten_width
    card = _whole(render_face("10S", 0, 252))
    plain = index_crop(render_face("10S", style, 252), card)
    tall = index_crop(render_face("10S", BIG_INDEX + style, 252), card)
    assert _ink_rows(tall) > _ink_rows(plain)


def test_the_decks_in_use_are_no_big_index_decks() -> None:
    """Enrollment's unseen decks (styles in the thousands) are random decks of their own, not another deck's
    big-index version (BIG_INDEX was once 1000 and turned them into nested ones)."""
    from vision.enroll.synthetic import UNSEEN_STYLES
    from vision.synth.cards import BIG_INDEX

    assert all(0 < s < BIG_INDEX for s in UNSEEN_STYLES)
    assert all(face_style(s).rank_h < 7.5 for s in UNSEEN_STYLES)


def test_index_crops_are_cut_at_each_zoom_asked() -> None:
    from vision.synth.generate import crops_of

    rng = np.random.default_rng(5)
    placements, _ = scoundrel_table(rng)
    image, truths, _ = compose(placements, rng, (1280, 720), hands=0)
    one, labels = crops_of(image, truths, np.random.default_rng(1), 100, 0.0)
    again, same = crops_of(image, truths, np.random.default_rng(1), 100, 0.0, (1.0,))
    assert labels == same and all((a == b).all() for a, b in zip(one, again, strict=True))
    mixed, mixed_labels = crops_of(image, truths, np.random.default_rng(1), 100, 0.0, (1.0, 1.6))
    assert len(mixed) == len(mixed_labels) > 5 and all(c.shape == (CROP_H, CROP_W, 3) for c in mixed)
    assert sum((a != b).any() for a, b in zip(one, mixed, strict=False)) > 0  # some cut at 1.6


def test_face_crop_is_the_whole_card_either_way_up() -> None:
    face = render_face("7H", 0, 252)
    crop = face_crop(face, _whole(face))
    turned = face_crop(face, rotate_corners(_whole(face), 2))
    assert crop.shape == (FACE_H, FACE_W, 3)
    small = cv2.resize(face, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)
    assert np.abs(crop.astype(int) - small.astype(int)).mean() < 6  # the card, nothing of the table
    assert np.abs(turned.astype(int) - crop[::-1, ::-1].astype(int)).mean() < 3  # the same face turned


def test_face_crops_label_what_shows() -> None:
    """Whole faces that show are labelled with their card, backs and mostly covered cards with none."""
    from vision.cards.labels import CROP_CLASSES, NONE_CLASS
    from vision.synth.generate import faces_of

    rng = np.random.default_rng(4)
    placements, _ = scoundrel_table(rng)
    image, truths, _ = compose(placements, rng, (1280, 720), hands=0)
    crops, labels = faces_of(image, truths, rng, 100, 0.0)
    assert len(crops) == len(labels) > 5 and crops[0].shape == (FACE_H, FACE_W, 3)
    wanted = {CROP_CLASSES.index(t.code) if t.code in CROP_CLASSES and t.visible >= 0.8 else NONE_CLASS
              for t in truths if t.visible >= 0.8 or t.visible < 0.35 or t.code == "back"}
    assert set(labels) == wanted
    assert NONE_CLASS in labels  # the dungeon's backs


def test_face_crops_at_the_court_readers_size() -> None:
    """`face_size` (synth-court.yaml) cuts the same faces at the court reader's size, with the same labels."""
    from vision.cards.geometry import COURT_FACE_H, COURT_FACE_W
    from vision.synth.generate import faces_of

    placements, _ = scoundrel_table(np.random.default_rng(4))
    image, truths, _ = compose(placements, np.random.default_rng(5), (1280, 720), hands=0)
    small, small_labels = faces_of(image, truths, np.random.default_rng(6), 100, 0.0)
    large, large_labels = faces_of(image, truths, np.random.default_rng(6), 100, 0.0, (COURT_FACE_W, COURT_FACE_H))
    assert large_labels == small_labels and len(large) == len(small) > 5
    assert large[0].shape == (COURT_FACE_H, COURT_FACE_W, 3)


def test_stray_quads_are_card_shaped_and_off_the_cards() -> None:
    from vision.cards.geometry import pairwise_iou
    from vision.synth.generate import stray_quads

    rng = np.random.default_rng(4)
    placements, _ = scoundrel_table(rng)
    _, truths, _ = compose(placements, rng, (1280, 720), hands=0)
    quads = stray_quads(truths, (720, 1280), rng, 4)
    assert len(quads) == 4
    cards = np.array([t.corners for t in truths], np.float32)
    for q in quads:
        short, long = np.linalg.norm(q[1] - q[0]), np.linalg.norm(q[2] - q[1])
        assert long / short == pytest.approx(88 / 63, rel=0.01)
        assert pairwise_iou(q[None], cards).max() < 0.25


def test_portrait_corners_put_a_short_side_first() -> None:
    q = np.array([[0, 0], [0, 88], [63, 88], [63, 0]], np.float32)[::-1]
    p = portrait_corners(q)
    assert np.linalg.norm(p[1] - p[0]) == pytest.approx(63, abs=0.1)
    assert quad_iou(p, q) == pytest.approx(1.0, abs=1e-3)


def test_superheld_map_is_edge_connected() -> None:
    placements, truth = superheld_map(np.random.default_rng(2), n=30)
    assert len(placements) == 30
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for a, b in truth["edges"]:
            for j in ((b,) if a == i else (a,) if b == i else ()):
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
    assert seen == set(range(30))
    down = [p for p in placements if p.code is None]
    assert all(p.zone == "map" for p in placements) and down  # the forest lies face down


def test_scoundrel_table_uses_scoundrel_cards() -> None:
    for seed in range(20):
        placements, truth = scoundrel_table(np.random.default_rng(seed))
        codes = [p.code for p in placements if p.code is not None]
        assert set(codes) <= set(SCOUNDREL_DECK) and len(codes) == len(set(codes))
        zones = truth["zones"]
        if zones["weapon"] is not None:
            assert zones["weapon"].endswith("D")
        assert all(m[-1] in "SC" for m in zones["weapon_monsters"])


def test_compose_reports_visibility() -> None:
    rng = np.random.default_rng(5)
    placements, _ = loose_cards(rng)
    image, truths, hom = compose(placements, rng, (640, 360), hands=1)
    assert image.shape == (360, 640, 3) and hom.shape == (3, 3)
    assert len(truths) == len(placements)
    assert all(0.0 <= t.visible <= 1.0 for t in truths)
    assert any(t.visible > 0.9 for t in truths)
