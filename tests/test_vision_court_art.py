"""Printed court pictures: cut from a card's art, drawn in a deck's frame with the deck's own index."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.synth import court_art
from vision.synth.cards import CARD_W_MM, COURT_FRAME_MM, face_style, render_face
from vision.synth.court_art import COURT_ART, SOURCES, cut_picture


@pytest.fixture
def art(tmp_path: Path):  # noqa: ANN201
    """A folder with one printed king of hearts: a green picture with a blue band across its middle."""
    picture = np.zeros((300, 200, 3), np.uint8)
    picture[:] = (40, 180, 40)
    picture[140:160] = (200, 60, 20)
    cv2.imwrite(str(tmp_path / "anglo_KH.png"), picture)
    court_art.use(tmp_path)
    yield tmp_path
    court_art._pictures.clear()


def test_a_printed_court_fills_the_frame_and_keeps_the_decks_index(art: Path) -> None:
    style = 4321
    printed, drawn = render_face("KH", COURT_ART + style, 252), render_face("KH", style, 252)
    scale = 252 / CARD_W_MM
    x0, y0, x1, y1 = (round(v * scale) for v in COURT_FRAME_MM)
    inside = printed[y0 + 4:y1 - 4, x0 + 4:x1 - 4].reshape(-1, 3).astype(int)
    green = (abs(inside - (40, 180, 40)) < 30).all(axis=1).mean()
    assert green > 0.8  # the picture, BGR as written, tinted by the deck's paper
    assert np.array_equal(printed[:y0, :x0], drawn[:y0, :x0])  # the index corner is the deck's own
    assert face_style(COURT_ART + style) == face_style(style)
    assert np.array_equal(render_face("9H", COURT_ART + style, 252), render_face("9H", style, 252))


def test_a_court_with_no_picture_loaded_names_the_command(art: Path) -> None:
    with pytest.raises(RuntimeError, match="python -m vision.synth.court_art"):
        render_face("QS", COURT_ART + 4322, 252)


def test_an_empty_art_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no court pictures"):
        court_art.use(tmp_path)


def test_the_index_corners_of_the_art_are_painted_out() -> None:
    french = next(s for s in SOURCES if s.corners)
    card = np.zeros((490, 338, 3), np.uint8)
    cut = cut_picture(card, french)
    x0, y0, x1, y1 = french.picture
    assert cut.shape[:2] == (int(y1 * 490) - int(y0 * 490), int(x1 * 338) - int(x0 * 338))
    assert (cut[:5, :5] == 255).all() and (cut[-5:, -5:] == 255).all()  # the corners' letters, gone
    assert (cut[cut.shape[0] // 2, cut.shape[1] // 2] == 0).all()  # the picture, kept
