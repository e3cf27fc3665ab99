"""Superheld refereed from a video where the hero's pawn is seen: the map of test_companion_superheld_camera.py with a
red wooden pawn drawn on the hero's card, read with the demo deck's profile and the pawn colour measured on a photo.

Steps onto face-up cards (which change no card) are now refereed from the camera, the start shows when the pawn is
put down, and where the hero went after taking a card is seen instead of asked. A still where the pawn is not
seen (lifted off the table) is read from the cards alone, as without pawns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from test_companion_superheld_camera import FPS, PITCH, SETUP, MapPainter, _cells, _frames, _state_still

from companion.cli import UsageError
from companion.commands.serve import pawn_colours
from companion.demo_deck import ensure_profile
from companion.demo_render import draw_pawn
from companion.gating import StillnessGate
from companion.loop import RefereeLoop
from companion.recognisers import ProfileSuperheld, RecogniserUnavailable, recogniser_for
from companion.runtime import Config, gate_for
from companion.session import Session
from companion.store import Store
from engine.match import Match
from engine.record import Record
from vision import degrade
from vision.tiles.figures import MEEPLE_PAINT

HOLD = 8  # frames each still is shown (the gate commits a still after a few)
HAND = 3  # frames before it with the player's hand over the pawn, letting go of it
MOVES: list[Any] = [
    {"start": "2S"}, {"go": "3S", "take": True}, {"go": "4S", "take": True}, {"go": "2H", "take": True},
    {"go": "6H", "take": True}, {"go": "5D"},  # 2H taken and the forest's 6H turned; then 5D turned
    {"go": "3H"},  # onto face-up 3H: no card changes, the pawn moves
    {"go": "4H", "take": True},  # 3H gone: without the pawn the hero may have gone to 4H or back to 5D
]
# (name, moves played, the hero's card or None for no pawn on the table); the pawn leans a little differently each time
STILLS: list[tuple[str, int, str | None]] = [
    ("no pawn yet", 0, None), ("pawn put on 2S", 1, "2S"), ("2S taken", 2, "3S"), ("3S taken", 3, "4S"),
    ("4S taken", 4, "2H"), ("2H taken, 6H turned", 5, "6H"), ("5D turned", 6, "5D"), ("step onto 3H", 7, "3H"),
    ("pawn lifted", 7, None), ("3H taken", 8, "4H"),
]


def _pawn(card: str | None, k: int) -> tuple[tuple[str, str, float, tuple[float, float]], ...]:
    if card is None:
        return ()
    rng = np.random.default_rng(k)
    return ((card, "red", float(rng.uniform(0, 30)), (float(rng.uniform(-6, 6)), float(rng.uniform(-10, 10)))),)


@pytest.fixture(scope="module")
def painter() -> MapPainter:
    return MapPainter()


def _write(path: Path, painter: MapPainter, dimmed: tuple[int, float] | None = None) -> Path:
    """The stills as an mp4, a hand letting go of the pawn before each; `dimmed` (still, factor): from that still on
    the room's light is multiplied by the factor."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, painter.size)
    where = {card: (col * PITCH[0] + 31.5, row * PITCH[1] + 44.0) for (col, row), card in _cells().items()}
    for k, (_, played, card) in enumerate(STILLS):
        image = _state_still(painter, MOVES[:played], pawns=_pawn(card, k))
        if dimmed is not None and k >= dimmed[0]:
            image = degrade.relit(image, dimmed[1])
        if k:
            reached = where[card or STILLS[k - 1][2] or "2S"]
            hand = image.copy()
            painter.hand(hand, (reached[0], reached[1] + 20.0), k)
            for _ in range(HAND):
                writer.write(hand)
        for _ in range(HOLD):
            writer.write(image)
    writer.release()
    return path


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory, painter: MapPainter) -> Path:
    return _write(tmp_path_factory.mktemp("superheld-pawn") / "superheld-pawn.mp4", painter)


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return ensure_profile(tmp_path_factory.mktemp("profiles"))


@pytest.fixture(scope="module")
def colours(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[float]]:
    """The red pawn shown once on a plain cloth, photographed, and measured as `--pawns red --pawn-photo` does."""
    photo = np.full((480, 640, 3), (96, 104, 112), np.uint8)
    draw_pawn(photo, (320.0, 300.0), 3.0, MEEPLE_PAINT["red"], 25.0, np.random.default_rng(4))
    path = tmp_path_factory.mktemp("photo") / "pawn.jpg"
    assert cv2.imwrite(str(path), photo)
    calibration = pawn_colours("red", path)
    assert calibration is not None and list(calibration) == ["red"]
    return calibration


@pytest.mark.parametrize("dimmed", [None, (3, 0.5)])
def test_the_pawn_referees_the_steps_that_change_no_card(tmp_path: Path, video: Path, profile: Path,
                                                         colours: dict[str, list[float]], painter: MapPainter,
                                                         dimmed: tuple[int, float] | None) -> None:
    """As shot, and with the room's light halved from the fourth still on: the pawn is looked for brought back to
    the light of the first frame's card paper (`vision.pawns.in_paper_light`; read as shot, the red pawn fell out of
    its calibrated colour and the steps were misread or asked)."""
    if dimmed is not None:
        video = _write(tmp_path / "dimmed.mp4", painter, dimmed)
    recogniser = recogniser_for("superheld", profile, pawns=colours)
    assert isinstance(recogniser, ProfileSuperheld) and recogniser.pawns is not None
    session = Session(Store(tmp_path / "pawn.db"))
    session.new_game("superheld", {}, SETUP)
    loop = RefereeLoop(session, recogniser, StillnessGate(gate_for(Config(pawns=colours))))  # as `serve --pawns`
    for frame in _frames(video):
        loop.step(frame)
    verdicts = [c.verdict for c in loop.commits]
    names = [name for name, _, _ in STILLS]
    assert verdicts == ["same", *["moves"] * 7, "same", "moves"], (names, verdicts, session.record()["moves"])
    assert session.record()["moves"] == MOVES  # the start and the step onto 3H came from the camera, one per still
    assert session.state.pending is None  # nothing was asked
    state = Match.replay(Record("superheld", {}, SETUP, MOVES)).to_json()
    assert state["hero_at"] == ["4H"] and state["coins"] == [3] and state["violations"] == []
    again = Session(Store(tmp_path / "pawn.db"))
    assert again.resume() and again.record() == session.record()


def test_where_the_hero_went_is_seen_not_asked(tmp_path: Path, painter: MapPainter, profile: Path,
                                               colours: dict[str, list[float]]) -> None:
    """Two moves between stills (the step onto 3H, then 3H taken): the cards alone leave two ways, the pawn one.

    The cards-only reading sees the table without the pawn, as test_companion_superheld_camera.py draws it.
    """
    outcomes = {}
    for seen, pawns in (("cards", None), ("pawn", colours)):
        before = _state_still(painter, MOVES[:6], pawns=_pawn("5D", 6) if pawns else ())
        still = _state_still(painter, MOVES, pawns=_pawn("4H", 9) if pawns else ())
        recogniser = recogniser_for("superheld", profile, pawns=pawns)
        assert recogniser is not None
        session = Session(Store(tmp_path / f"{seen}.db"))
        session.new_game("superheld", {}, SETUP)
        for raw in MOVES[:6]:
            session.play(raw)
        assert session.observe(recogniser.read(before).observation) == "same"  # 3H and the rest seen on the map
        obs = recogniser.read(still).observation
        outcomes[seen] = (session.observe(obs), obs["hero"], session.state.pending, session.record()["moves"])
    verdict, hero, pending, _ = outcomes["cards"]
    assert verdict == "ambiguous" and hero is None and pending is not None
    assert sorted(o["moves"][-1]["go"] for o in pending["options"]) == ["4H", "5D"]
    verdict, hero, pending, moves = outcomes["pawn"]
    assert (verdict, hero, pending) == ("moves", "?", None) and moves == MOVES  # "?": the pawn hides 4H's face


def test_a_pawn_on_another_card_than_the_heros_is_no_table_of_this_state(tmp_path: Path, painter: MapPainter,
                                                                         profile: Path,
                                                                         colours: dict[str, list[float]]) -> None:
    """The pawn put on a card no two legal moves reach (KD, across the map from 5D) is shown, never played.

    The card under the pawn is named by where it lies among the cards read (its face is hidden): KD.
    """
    recogniser = recogniser_for("superheld", profile, pawns=colours)
    assert recogniser is not None
    session = Session(Store(tmp_path / "far.db"))
    session.new_game("superheld", {}, SETUP)
    for raw in MOVES[:6]:
        session.play(raw)
    obs = recogniser.read(_state_still(painter, MOVES[:6], pawns=_pawn("KD", 3))).observation
    assert obs["hero"] == "?" and len(obs["pawns"]) == 1 and "KD" not in obs["map"]
    assert session.observe(obs) == "misread"
    pending = session.state.pending
    assert pending is not None and pending["seen"]["hero"] == "KD" and pending["expected"]["hero"] == "5D"
    assert session.record()["moves"] == MOVES[:6]


def test_pawn_colours_are_checked_before_anything_starts(tmp_path: Path, profile: Path) -> None:
    with pytest.raises(UsageError, match="--pawns: pawn colours"):
        pawn_colours("red,purple", None)
    with pytest.raises(UsageError, match="needs --pawns"):
        pawn_colours(None, tmp_path / "pawn.jpg")
    with pytest.raises(UsageError, match="cannot read an image"):
        pawn_colours("red", tmp_path / "missing.jpg")
    assert pawn_colours(None, None) is None
    assert list(pawn_colours("red, blue", None) or {}) == ["red", "blue"]  # hero 1 first
    with pytest.raises(RecogniserUnavailable, match="no pawns"):
        recogniser_for("scoundrel", profile, ["AS"], pawns=pawn_colours("red", None))


def test_two_heroes_pawns_referee_the_co_op_start_and_steps(tmp_path: Path) -> None:
    """Co-op, pawns of two colours (hero 1 first): the start of both heroes and each one's step are seen."""
    setup = {**SETUP, "monsters": ["7C", "8C", "9C"]}
    session = Session(Store(tmp_path / "coop.db"))
    session.new_game("superheld", {"variant": "coop"}, setup)
    table = session.state.live.table  # type: ignore[union-attr]
    game = session.state.live.match.game  # type: ignore[union-attr]
    cards = table.expected(game)
    assert cards["heroes"] == [None, None]
    assert session.observe({"map": cards["map"], "face_down": 8, "heroes": [None, None]}) == "same"
    assert session.observe({"map": cards["map"], "face_down": 8, "heroes": ["2H", "2S"]}) == "moves"
    gone = [c for c in cards["map"] if c != "2H"]
    assert session.observe({"map": gone, "face_down": 8, "heroes": ["3H", "2S"]}) == "moves"
    assert session.observe({"map": gone, "face_down": 8, "heroes": ["3H", "3S"]}) == "moves"  # hero 2 steps
    assert session.record()["moves"] == [{"start": ["2H", "2S"]}, {"go": "3H", "take": True, "hero": 1},
                                         {"go": "3S", "hero": 2}]
    # a pawn covering its card: "?" fits where that hero's card is the one not read
    hidden = [c for c in gone if c != "3S"]
    assert session.observe({"map": hidden, "face_down": 8, "heroes": ["3H", "?"]}) == "same"
    assert session.observe({"map": hidden, "face_down": 8, "heroes": ["?", "?"]}) == "misread"  # 3H is read
    with pytest.raises(ValueError, match="heroes"):
        table.parse_view({"map": [], "face_down": 0, "heroes": "2S"})
    with pytest.raises(ValueError, match="heroes\\[0\\]"):
        table.parse_view({"map": [], "face_down": 0, "hero": "2S", "heroes": ["3S"]})
