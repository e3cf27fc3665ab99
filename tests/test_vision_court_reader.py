"""The court reader (session 12): a face read as a court card is read again through a larger crop, and the two
readings' geometric mean counts; every other face keeps the small reader's reading."""

from __future__ import annotations

import numpy as np

from vision.cards.geometry import COURT_FACE_H, COURT_FACE_W, face_crop
from vision.cards.identity import COURT_READER, COURTS, FACE_READER, _classifier, classify, read_faces
from vision.cards.labels import CROP_CLASSES
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
