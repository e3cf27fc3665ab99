"""The live view rings the heroes' pawns: a Superheld still with a red pawn rendered by the camera tests' painter,
read through the RefereeLoop with the demo deck's profile and `--pawns red`, then served by the LiveView from a real
image-folder source; the JPEG it sends shows the ring in the pawn's colour round the foot the recogniser found."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from test_companion_superheld_camera import PITCH, SETUP, MapPainter, _state_still

from companion import overlay
from companion.commands.serve import pawn_colours
from companion.demo_deck import ensure_profile
from companion.gating import StillnessGate
from companion.live_view import LiveView
from companion.loop import RefereeLoop
from companion.recognisers import recogniser_for
from companion.runtime import Config, gate_for
from companion.session import Session
from companion.sources import Frame, LiveSource, parse_source
from companion.store import Store

MOVES = [{"start": "2S"}, {"go": "3S", "take": True}]
PAWN_MM = (0 * PITCH[0] + 31.5 + 4.0, 1 * PITCH[1] + 44.0 + 6.0)  # on 3S (column 0, row 1), a little off centre
NEAR = 60.0  # a pixel within this (BGR distance) of the paint counts as the ring's colour (JPEG blurs it)


def _ring(image: np.ndarray, centre: tuple[float, float], radius: int) -> np.ndarray:
    """The pixels on the circle the overlay draws its ring on."""
    angles = np.linspace(0, 2 * np.pi, 180, endpoint=False)
    xs = np.round(centre[0] + radius * np.cos(angles)).astype(int)
    ys = np.round(centre[1] + radius * np.sin(angles)).astype(int)
    return image[ys, xs].astype(np.float64)


def _near(pixels: np.ndarray, colour: tuple[int, int, int]) -> np.ndarray:
    return np.linalg.norm(pixels - np.array(colour, np.float64), axis=1) < NEAR


@pytest.fixture(scope="module")
def still() -> tuple[np.ndarray, tuple[float, float]]:
    """The table after MOVES with hero 1's red pawn on 3S; and where the painter stood its foot (image px)."""
    painter = MapPainter()
    image = _state_still(painter, MOVES)
    foot = painter.pawn(image, PAWN_MM, overlay.pawn_colour("red"), 12.0, 7)
    return image, foot


def test_the_live_view_rings_each_pawn_in_its_colour(tmp_path: Path,
                                                      still: tuple[np.ndarray, tuple[float, float]]) -> None:
    image, foot = still
    colours = pawn_colours("red", None)
    recogniser = recogniser_for("superheld", ensure_profile(tmp_path / "profiles"), pawns=colours)
    assert recogniser is not None
    session = Session(Store(tmp_path / "overlay.db"))
    session.new_game("superheld", {}, SETUP)
    for raw in MOVES:
        session.play(raw)
    loop = RefereeLoop(session, recogniser, StillnessGate(gate_for(Config(pawns=colours))))
    commits = [loop.step(Frame(k + 1, k, k / 15, 0.0, image)) for k in range(12)]
    assert [c.verdict for c in commits if c is not None] == ["same"]  # the pawn on 3S is where the hero stands
    assert [(p["colour"], p["hero"]) for p in session.pawns] == [("red", 1)]
    seen = session.pawns[0]["point"]
    assert np.hypot(seen[0] - foot[0], seen[1] - foot[1]) < 8.0  # the recogniser's foot is the painted one

    folder = tmp_path / "camera"
    folder.mkdir()
    assert cv2.imwrite(str(folder / "0001.png"), image)
    source = LiveSource(parse_source(str(folder)), loop=True).start()
    try:
        view = LiveView(session, source)
        deadline = time.monotonic() + 10
        while source.latest() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        _, data = view.jpeg()
    finally:
        source.stop()
    shown = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert shown is not None and shown.shape == image.shape
    radius = overlay.ring_radius(seen, session.detections)
    assert radius > overlay.PAWN_RING_PX  # measured on the card under the pawn (about 2.2 px per mm here)
    red = overlay.pawn_colour("red")
    before, after = _near(_ring(image, seen, radius), red), _near(_ring(shown, seen, radius), red)
    assert after.mean() > 0.9, after.mean()  # the ring is drawn all round, in the pawn's paint
    assert (after & ~before).mean() > 0.4, (before.mean(), after.mean())  # there, the camera showed no red


def test_a_pawn_off_any_card_gets_a_ring_of_the_default_size() -> None:
    image = np.full((200, 300, 3), 90, np.uint8)
    out = overlay.draw(image, [], set(), "still", {}, None, pawns=[
        {"colour": "blue", "point": [150.0, 100.0], "card": None, "hero": 2}])
    blue = overlay.pawn_colour("blue")
    assert _near(_ring(out, (150.0, 100.0), overlay.PAWN_RING_PX), blue).mean() > 0.95
    assert not _near(_ring(image, (150.0, 100.0), overlay.PAWN_RING_PX), blue).any()
    assert np.array_equal(out[:40], image[:40])  # nothing but the ring and its number (beside it) is drawn
    assert overlay.pawn_colour("purple") == overlay.WHITE
