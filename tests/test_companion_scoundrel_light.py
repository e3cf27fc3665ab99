"""The general card recogniser referees the demo video in the light a room may have: a lamp put out half-way (read as
it is), a room dim from the start (brought up, `vision.light.exposed`), a lamp switched on (read brought back down
to the first frame's light, `VisionCards` and `vision.light.down_to_light`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.commands.demo import Demo
from companion.loop import RefereeLoop
from companion.recognisers import VisionScoundrel
from companion.session import Session
from companion.store import Store
from vision import degrade
from vision.cards import predict
from vision.light import EXPOSED_AIM, EXPOSED_LEAST, brightest, exposed

DEMO = Demo.load()
STILL = 571  # the room 3S JS 4D 3H, 7D under 5S on the weapon, the dungeon and the discard face down


def _relit_video(path: Path, start: int, factor: float) -> Path:
    """The demo video with the room's light multiplied by `factor` from frame `start` on."""
    cap = cv2.VideoCapture(str(DEMO.video))
    fps, size = cap.get(cv2.CAP_PROP_FPS), (int(cap.get(cv2.CAP_PROP_FRAME_WIDTH)),
                                           int(cap.get(cv2.CAP_PROP_FRAME_HEIGHT)))
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    pos = 0
    while True:
        ok, image = cap.read()
        if not ok:
            break
        writer.write(degrade.relit(image, factor) if pos >= start else image)
        pos += 1
    cap.release()
    writer.release()
    return path


@pytest.mark.parametrize(("start", "factor"), [(None, 1.0), (300, 0.5), (300, 0.7), (0, 0.5), (300, 1.3)])
def test_the_general_recogniser_referees_the_demo_in_the_room_s_light(tmp_path: Path, vision_scoundrel: VisionScoundrel,
                                                                       start: int | None, factor: float) -> None:
    """The true record whatever the light; at full light one still reads a card too many on the weapon as the
    room is dealt, and the next still, 8D dealt and equipped, is explained with the deal that still showed."""
    video = DEMO.video if start is None else _relit_video(tmp_path / "relit.mp4", start, factor)
    vision_scoundrel.table = None  # a new game: its first frame's light is the one followed
    session = Session(Store(tmp_path / "demo.db"))
    session.new_game(DEMO.game, DEMO.options, DEMO.setup)
    loop = RefereeLoop(session, vision_scoundrel)
    loop.run_file(str(video))
    verdicts = [c.verdict for c in loop.commits]
    assert session.record() == DEMO.true_record(), verdicts
    assert verdicts.count("misread") <= 3


def test_a_dark_picture_is_brought_up_and_a_lit_one_left_alone(demo_frame: Callable[[int], np.ndarray]) -> None:
    still = demo_frame(STILL)
    assert brightest(still) >= EXPOSED_LEAST and exposed(still, brightest(still)) is still
    dark = degrade.relit(still, 0.5)
    assert brightest(dark) < EXPOSED_LEAST
    assert abs(brightest(exposed(dark, brightest(dark))) - EXPOSED_AIM) < 15


def test_a_table_at_half_light_reads_as_in_full_light(demo_frame: Callable[[int], np.ndarray]) -> None:
    """Before the picture was brought up, the discard pile at half light was read as a face-up card ('?')."""
    lit, dark = predict(demo_frame(STILL)), predict(degrade.relit(demo_frame(STILL), 0.5))
    assert sorted(dark.codes) == sorted(lit.codes) == sorted(["3S", "JS", "4D", "3H", "7D", "5S", "back", "back"])


def test_a_brighter_room_is_read_in_the_first_frame_s_light(vision_scoundrel: VisionScoundrel,
                                                            demo_frame: Callable[[int], np.ndarray]) -> None:
    """A lamp switched on: at 1.6 times the light the paper is white beyond the camera's range, and the reader
    alone lost the 7D under the 5S (the weapon gone, the 5S in the room); brought back to the empty table's light
    the weapon stack reads as in the first light."""
    vision_scoundrel.table = None
    vision_scoundrel.detect(demo_frame(2))  # the empty table the game began on
    still = demo_frame(498)  # 7D under 5S on the weapon, 6H and 3H in the room
    brighter = vision_scoundrel.read(degrade.relit(still, 1.6)).observation
    assert brighter == vision_scoundrel.read(still).observation
    assert brighter["weapon"] == "7D" and brighter["weapon_monsters"] == ["5S"]
