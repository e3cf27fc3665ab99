"""The court reader (session 12): a face read as a court card is read again through a larger crop, and the two
readings' weighted geometric mean counts, the court reader weighing more (session 18); every other face keeps the
small reader's reading."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.cards.geometry import COURT_FACE_H, COURT_FACE_W, face_crop
from vision.cards.identity import (
    COURT_READER,
    COURT_SHARE,
    COURTS,
    FACE_READER,
    _classifier,
    classify,
    read_faces,
    with_court,
)
from vision.cards.labels import CROP_CLASSES, NONE_CLASS
from vision.synth.cards import card_height, render_face
from vision.synth.scene import paste_card

CODES = ["JS", "QH", "KD", "JC", "QS", "KH", "2C", "7D", "10S", "AH", "5C", "9H"]
WIDTH = 48  # px: a card of a 56-card map at 1280x720 is about 45 px wide


def _table() -> tuple[np.ndarray, list[np.ndarray]]:
    """Faces of the plain English deck laid in a row on a green cloth, each a little turned."""
    image = np.full((160, 80 * len(CODES), 3), (60, 110, 50), np.uint8)
    outlines = []
    h = card_height(WIDTH)
    for i, code in enumerate(CODES):
        centre = np.array([40 + 80 * i, 80], np.float32)
        turn = np.radians(-8 + 16 * (i % 2))
        rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]], np.float32)
        dst = (np.array([[-WIDTH, -h], [WIDTH, -h], [WIDTH, h], [-WIDTH, h]], np.float32) / 2) @ rot.T + centre
        paste_card(image, render_face(code, style=0, width=WIDTH * 4), dst)
        outlines.append(dst)
    return image, outlines


def test_the_court_reader_takes_the_larger_crop() -> None:
    shape = _classifier(str(COURT_READER)).get_inputs()[0].shape
    assert tuple(shape[2:]) == (COURT_FACE_H, COURT_FACE_W)
    assert COURTS.sum() == 12 and not COURTS[CROP_CLASSES.index("JOKER")]


def test_courts_are_read_again_and_other_faces_are_left_alone() -> None:
    image, outlines = _table()
    small = classify(np.stack([face_crop(image, o) for o in outlines]), FACE_READER)
    faces = read_faces(image, np.array(outlines))
    court = COURTS[small.argmax(axis=1)]
    assert court.sum() >= 4  # the small reader takes most of the court faces for courts
    assert np.array_equal(faces[~court], small[~court])
    assert not np.allclose(faces[court], small[court])
    assert np.allclose(faces.sum(axis=1), 1.0, atol=1e-4)
    read = [CROP_CLASSES[k] for k in faces.argmax(axis=1)]
    assert sum(r == c for r, c in zip(read, CODES, strict=True)) >= 9, read


def test_where_the_readers_disagree_the_court_reader_weighs_more() -> None:
    """The face reader takes the card for a QH at 0.8, the court reader for a JH at 0.7: an even geometric mean
    would keep the QH (0.49 against 0.37), the court reader's larger share reads the JH it reads right more often."""
    qh, jh = CROP_CLASSES.index("QH"), CROP_CLASSES.index("JH")
    face, court = np.zeros((1, len(CROP_CLASSES))), np.zeros((1, len(CROP_CLASSES)))
    face[0, [qh, jh]] = 0.8, 0.2
    court[0, [qh, jh]] = 0.3, 0.7
    both = with_court(face, court)
    assert COURT_SHARE > 0.5
    assert both[0].argmax() == jh
    assert np.isclose(both.sum(), 1.0)
    odds = (0.7 / 0.3) ** COURT_SHARE * (0.2 / 0.8) ** (1 - COURT_SHARE)
    assert np.isclose(both[0, jh] / both[0, qh], odds)


def test_the_court_readers_none_counts_as_the_face_readers_unless_it_reads_no_card() -> None:
    """A court the face reader reads as a QH, nearly sure of a card, that the court reader calls "none" at 0.9
    and a QH at 0.1 (a real court through an outline off the card) stays a QH; one the court reader reads no card
    in at all (a pip card the face reader took for a court) stays "none"."""
    qh, jh = CROP_CLASSES.index("QH"), CROP_CLASSES.index("JH")
    face, court = np.zeros((2, len(CROP_CLASSES))), np.zeros((2, len(CROP_CLASSES)))
    face[:, [qh, jh, NONE_CLASS]] = 0.7, 0.2, 0.1
    court[0, [qh, NONE_CLASS]] = 0.1, 0.9
    court[1, NONE_CLASS] = 1.0
    both = with_court(face, court)
    assert both[0].argmax() == qh and both[1].argmax() == NONE_CLASS
    assert np.allclose(both.sum(axis=1), 1.0)


REAL = Path(__file__).resolve().parents[2] / "shared" / "data" / "real-cards-dev"


@pytest.mark.skipif(not REAL.is_dir(), reason="../shared/data/real-cards-dev not here")
@pytest.mark.parametrize("photo, code", [("IMG_2450.JPG", "KS"), ("cam_image26.jpg", "KS"), ("IMG_2526.JPG", "QS")])
def test_the_real_decks_spade_courts_are_read_as_spades(photo: str, code: str) -> None:
    """Real tune half (session 24): the court reader, tuned on real crops whose labels named the rank alone, read
    the real deck's kings and queens of spades as clubs at 1.0 over the face reader's and the index's right suit;
    tuned again with the photos' suits it reads them as spades."""
    import cv2

    from vision.cards import predict

    codes = predict(cv2.imread(str(REAL / photo))).codes
    assert code in codes
    assert code[:-1] + "C" not in codes
