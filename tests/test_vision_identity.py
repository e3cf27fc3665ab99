"""How the index's and the face's readings are put together (`vision.cards.identity.fuse`)."""

from __future__ import annotations

import numpy as np

from vision.cards.identity import fuse
from vision.cards.labels import CROP_CLASSES


def reading(**probs: float) -> np.ndarray:
    """One row of class probabilities: the named classes get theirs, the rest share what is left."""
    p = np.zeros(len(CROP_CLASSES), np.float32)
    for code, value in probs.items():
        p[CROP_CLASSES.index(code)] = value
    rest = [i for i, c in enumerate(CROP_CLASSES) if c not in probs]
    p[rest] = (1.0 - p.sum()) / len(rest)
    return p[None]


def test_a_tiny_index_leaves_the_card_to_its_face() -> None:
    """An index a few pixels tall reads "none"; the face's pip count still names the card."""
    codes, conf = fuse(reading(none=0.95), reading(**{"7H": 0.8}))
    assert codes == ["7H"] and conf[0] > 0.5


def test_a_covered_face_leaves_the_card_to_its_index() -> None:
    codes, _ = fuse(reading(**{"5S": 0.9}), reading(none=0.9, **{"9D": 0.05}))
    assert codes == ["5S"]


def test_index_and_face_settle_what_each_leaves_open() -> None:
    """The index is unsure between J and K of clubs, the face between J of clubs and J of spades."""
    codes, _ = fuse(reading(JC=0.45, KC=0.45), reading(JC=0.45, JS=0.45))
    assert codes == ["JC"]


def test_nothing_is_read_when_neither_sees_a_card() -> None:
    codes, conf = fuse(reading(none=0.9), reading(none=0.9))
    assert codes == ["none"] and conf[0] < 0.5


def test_rows_are_read_apart() -> None:
    index = np.concatenate([reading(none=0.95), reading(QS=0.9)])
    face = np.concatenate([reading(**{"2D": 0.9}), reading(QS=0.6)])
    codes, conf = fuse(index, face)
    assert codes == ["2D", "QS"] and conf.shape == (2,)


def test_index_views_are_read_where_asked() -> None:
    """The index is read per (zoom, card) view: the first zoom for every card, the others only for cards left
    unsure that are at least ZOOM_CARD_PX wide (a smaller card's zoomed crop is garbage); a view not read says
    "none"."""
    import pytest

    from vision.cards.identity import CLASSIFIER, ZOOM_CARD_PX, ZOOMS, _read_views, read_cards
    from vision.cards.labels import NONE_CLASS
    from vision.synth.cards import render_face
    from vision.synth.scene import paste_card

    if not CLASSIFIER.exists():
        pytest.skip("card models not built")
    assert len(ZOOMS) == 2
    scene = np.full((540, 960, 3), 40, np.uint8)
    big = np.array([[100, 100], [226, 100], [226, 276], [100, 276]], np.float32)
    small = np.array([[500, 100], [540, 100], [540, 156], [500, 156]], np.float32)
    assert np.linalg.norm(small[1] - small[0]) < ZOOM_CARD_PX <= np.linalg.norm(big[1] - big[0])
    paste_card(scene, render_face("QS", 0, 252), big)
    paste_card(scene, render_face("QS", 0, 252), small)
    outlines = np.stack([big, small])
    p = np.zeros((2, 2, len(CROP_CLASSES)), np.float32)
    p[:, :, NONE_CLASS] = 1.0
    _read_views(scene, outlines[None], [(0, 0), (1, 0), (0, 1)], p)  # the outlines as given: views 0 and 1
    assert p[1, 1, NONE_CLASS] == 1.0  # not asked: still "none"
    assert np.allclose(p[:, 0].sum(axis=1), 1.0, atol=1e-4) and p[1, 0, NONE_CLASS] < 1.0
    assert CROP_CLASSES[int(np.argmax(p[0, 0]))] == "QS"
    codes, conf, corners = read_cards(scene, outlines)
    assert codes[0] == "QS" and conf[0] > 0.9 and corners.shape == (2, 4, 2)
