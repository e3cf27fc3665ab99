"""Superheld refereed from a real video: a map of 48 cards rendered by vision.synth into an mp4, read with the
demo deck's enrolled profile, and the RefereeLoop with a real SQLite store turning the stills into moves.

No pawn is drawn and none is looked for: each move shows by the cards it changes (a henchman taken, a forest
card turned). Where the cards cannot tell where the hero went, the referee asks and the player confirms. With the
pawn seen, see test_companion_superheld_pawn.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.demo_deck import ensure_profile
from companion.demo_render import Painter
from companion.loop import Commit, RefereeLoop
from companion.recognisers import ProfileSuperheld, RecogniserUnavailable, VisionSuperheld, recogniser_for
from companion.session import Session
from companion.sources import Frame
from companion.store import Store
from companion.tables.superheld import SuperheldTable, observation, parse_view
from engine.match import Match
from engine.record import Record
from engine.superheld.deck import MAP_CARDS, code
from vision import degrade
from vision.detections import CardDetections
from vision.tiles.figures import MEEPLE_PAINT

SIZE = (1920, 1080)
FPS = 15
HOLD = 8  # frames each still is shown
GAP_MM = 16.0  # between map cards: the card reader parts cards laid this far apart (they touch in the record)
PITCH = (63.0 + GAP_MM, 88.0 + GAP_MM)
COLS, ROWS = 8, 6
PILES_X = COLS * PITCH[0] + 70.0  # skill piles and the warrior deck lie apart from the map
FIXED = {  # the hero's corridor down column 0, the Dark Forest beside it, a king far off
    (0, 0): "2S", (0, 1): "3S", (0, 2): "4S", (0, 3): "2H", (0, 4): "3H", (0, 5): "4H",
    (1, 0): "5S", (1, 1): "6S", (1, 2): "5H", (1, 3): "6H", (1, 4): "5D", (1, 5): "6D", (2, 0): "5C", (2, 1): "6C",
    (7, 5): "KD",
}
TRUE_MOVES: list[Any] = [
    {"start": "2S"}, {"go": "3S", "take": True},  # 2S gone (the hero's start shows only with its first take)
    {"go": "4S", "take": True}, {"go": "2H", "take": True},
    {"go": "6H", "take": True},  # 2H gone and the forest's 6H turned: the hero went there
    {"go": "5D"},  # the forest's 5D turned
    {"go": "6D", "take": True},  # 5D taken out of skill order: a violation, the table is put back
    {"go": "3H"}, {"go": "4H", "take": True},  # 3H gone: the hero may have gone to 4H or back to 5D; the player says
]
WARRIOR_TOP = "QD"  # the same code as a map card, face up off the map
Pawn = tuple[str, str, float, tuple[float, float]]  # a pawn drawn: the card it stands on, colour, tilt, offset mm


def _cells() -> dict[tuple[int, int], str]:
    rest = iter(sorted((code(c) for c in MAP_CARDS if code(c) not in FIXED.values()), key=lambda t: (t[-1], t)))
    return {(col, row): FIXED.get((col, row)) or next(rest) for row in range(ROWS) for col in range(COLS)}


def _setup() -> dict[str, Any]:
    """The record's map in placement order: the forest first, then each card beside one already laid."""
    cells = _cells()
    forest = {cell for cell, c in cells.items() if c[0] in "56"}
    order: list[tuple[int, int]] = []
    for group in (forest, set(cells) - forest):
        while group - set(order):
            order.append(min(cell for cell in group - set(order) if not order or any(
                (cell[0] + dx, cell[1] + dy) in order for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))))
    return {"map": [[cells[cell], *cell] for cell in order], "capital": "KC"}


SETUP = _setup()


# -- the video ----------------------------------------------------------------------------------------------
class MapPainter(Painter):
    """The demo's painter over a Superheld table: its camera frames the map and the piles beside it; `distance`
    times further off, the table fills that much less of the frame."""

    def __init__(self, distance: float = 1.0) -> None:
        super().__init__(SIZE)
        x0, y0, x1, y1 = -30.0, -30.0, PILES_X + 100.0, ROWS * PITCH[1] + 10.0
        w, h = SIZE
        scale = min((w - 40) / (x1 - x0), (h - 20) / (y1 - y0))
        cw, ch = (x1 - x0) * scale, (y1 - y0) * scale
        left, top, squeeze = (w - cw) / 2, (h - ch) / 2, 0.05 * cw / 2
        src = np.float32([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
        dst = np.float32([[left + squeeze, top], [left + cw - squeeze, top], [left + cw, top + ch], [left, top + ch]])
        centre = np.float32([w / 2, h / 2])
        self.hom = cv2.getPerspectiveTransform(src, (dst - centre) / np.float32(distance) + centre)
        self.card_px = int(63.0 * np.sqrt(abs(np.linalg.det(self.hom[:2, :2]))) * 1.4)

    def table(self, present: set[str], hidden: set[str], piles: list[str],
              pawns: tuple[Pawn, ...] = ()) -> np.ndarray:
        scene = self.texture.copy()
        rng = np.random.default_rng(5)
        where = {card: cell for cell, card in _cells().items()}
        for (col, row), card in _cells().items():
            tilt = float(rng.normal(0, 1.2))
            if card in present:
                self.paste(scene, "back" if card in hidden else card,
                           (col * PITCH[0] + 31.5, row * PITCH[1] + 44.0), tilt)
        for k, top in enumerate([*piles, WARRIOR_TOP]):
            self.paste(scene, top, (PILES_X, 50.0 + k * 110.0), 1.0)
        for n, (card, colour, tilt, (dx, dy)) in enumerate(pawns):
            col, row = where[card]
            self.pawn(scene, (col * PITCH[0] + 31.5 + dx, row * PITCH[1] + 44.0 + dy), MEEPLE_PAINT[colour], tilt, n)
        return (scene.astype(np.float32) * self.light).clip(0, 255).astype(np.uint8)


def _state_still(painter: MapPainter, moves: list[Any], take: str | None = None, turn: str | None = None,
                 lose: str | None = None, pawns: tuple[Pawn, ...] = ()) -> np.ndarray:
    """The table after `moves`; `take` / `turn` / `lose` change it the way no legal move does; `pawns` stand on it."""
    s = Match.replay(Record("superheld", {}, SETUP, moves)).game.s  # type: ignore[attr-defined]
    present = {code(c) for c in s.present} - {take, lose}
    hidden = {code(c) for c in s.hidden} - {turn}
    piles = [code(13 * suit + top - 1) for suit, top in enumerate(s.skill)]  # the last card taken of each suit
    if take is not None:
        piles["SHDC".index(take[-1])] = take
    return painter.table(present, hidden, piles, pawns)


def _stills(distance: float = 1.0) -> list[tuple[str, np.ndarray]]:
    p = MapPainter(distance)
    t = TRUE_MOVES
    return [
        ("start", _state_still(p, [])),
        ("2S taken", _state_still(p, t[:2])),
        ("3S taken", _state_still(p, t[:3])),
        ("4S taken", _state_still(p, t[:4])),
        ("2H taken, 6H turned", _state_still(p, t[:5])),
        ("5D turned", _state_still(p, t[:6])),
        ("5D taken out of order, 6D turned", _state_still(p, t[:6], take="5D", turn="6D")),
        ("put back", _state_still(p, t[:6])),
        ("KD gone", _state_still(p, t[:6], lose="KD")),
        ("KD back", _state_still(p, t[:6])),
        ("3H taken", _state_still(p, t[:6] + t[7:])),
    ]


def _write(path: Path, relit: tuple[int, float] | None = None, distance: float = 1.0) -> tuple[Path, list[str]]:
    """The stills as an mp4; `relit` (still, factor): from that still on the room's light is multiplied by it;
    `distance`: the camera that many times further off."""
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), FPS, SIZE)
    names = []
    for k, (name, image) in enumerate(_stills(distance)):
        names.append(name)
        if relit is not None and k >= relit[0]:
            image = degrade.relit(image, relit[1])
        for _ in range(HOLD):
            writer.write(image)
    writer.release()
    return path, names


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    return _write(tmp_path_factory.mktemp("superheld") / "superheld.mp4")


@pytest.fixture(scope="module")
def profile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo deck enrolled from its shipped photo (the cards the video draws), in a store of its own."""
    return ensure_profile(tmp_path_factory.mktemp("profiles"))


def _frames(path: Path) -> Iterator[Frame]:
    cap = cv2.VideoCapture(str(path))
    assert cap.isOpened()
    pos = 0
    try:
        while True:
            ok, image = cap.read()
            if not ok:
                return
            yield Frame(pos + 1, pos, pos / FPS, 0.0, image)
            pos += 1
    finally:
        cap.release()


def _referee(tmp_path: Path, recogniser: Any, video: Path) -> tuple[Session, RefereeLoop, list[dict[str, Any]]]:
    """The video through the referee loop, the player picking the way the hero went when asked; the session, the
    loop and what was asked."""
    session = Session(Store(tmp_path / "superheld.db"))
    session.new_game("superheld", {}, SETUP)
    loop = RefereeLoop(session, recogniser)
    asked: list[dict[str, Any]] = []
    for frame in _frames(video):
        commit: Commit | None = loop.step(frame)
        if commit is not None and commit.verdict == "ambiguous":
            pending = session.state.pending
            assert pending is not None
            asked.append(pending)
            moves = [o["moves"] for o in pending["options"]]
            assert TRUE_MOVES[7:] in moves
            session.confirm(moves.index(TRUE_MOVES[7:]))
    return session, loop, asked


# -- the tests ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("reader", ["deck profile", "general pipeline"])
def test_the_companion_referees_the_superheld_video(tmp_path: Path, video: tuple[Path, list[str]],
                                                    profile: Path, reader: str) -> None:
    if reader == "deck profile":
        recogniser = recogniser_for("superheld", profile)
        assert isinstance(recogniser, ProfileSuperheld)
    else:
        try:
            recogniser = recogniser_for("superheld")
        except RecogniserUnavailable as exc:
            pytest.skip(str(exc))
        assert isinstance(recogniser, VisionSuperheld)
    session, loop, asked = _referee(tmp_path, recogniser, video[0])
    verdicts = [c.verdict for c in loop.commits]
    if reader == "deck profile":
        assert verdicts == ["same", "moves", "moves", "moves", "moves", "moves", "violation", "same", "misread", "same",
                            "ambiguous"], list(zip(video[1], verdicts, strict=False))
    else:  # the general reader may miss a card on a frame: shown as a misread, settled by the next still
        assert verdicts.count("violation") == 1 and verdicts[-1] == "ambiguous", verdicts
        assert isinstance(recogniser, VisionSuperheld) and recogniser.follower.updated >= len(verdicts) // 2
    record = session.record()
    assert record["moves"] == TRUE_MOVES
    state = Match.replay(Record("superheld", {}, SETUP, record["moves"])).to_json()
    assert [v["rule"] for v in state["violations"]] == ["skill-order"]
    assert state["hero_at"] == ["4H"] and state["coins"] == [3]
    # the ambiguity named both ways out of 3H; the misread was shown with what was seen and expected, then cleared
    assert len(asked) == 1 and sorted(o["moves"][-1]["go"] for o in asked[0]["options"]) == ["4H", "5D"]
    kinds = [e.kind for e in session.store.events(session.state.game_id)]
    assert kinds.count("pending") == kinds.count("resolve") == verdicts.count("misread") + 1
    assert session.state.pending is None
    # the store alone gives the same game back (resume)
    again = Session(Store(tmp_path / "superheld.db"))
    assert again.resume() and again.record() == record


@pytest.mark.parametrize("factor", [0.6, 1.6])
def test_the_general_pipeline_referees_the_map_when_the_light_changes(tmp_path: Path, factor: float) -> None:
    """From the fifth still on the room is lit at `factor` of its light: dimmer, the cards are read as they are;
    brighter, the white paper is past the camera's range and each still is read brought back down to the first
    frame's light (without: from the 6H turned on, one still unreadable and four misread)."""
    try:
        recogniser = recogniser_for("superheld")
    except RecogniserUnavailable as exc:
        pytest.skip(str(exc))
    session, loop, _ = _referee(tmp_path, recogniser, _write(tmp_path / "relit.mp4", (4, factor))[0])
    verdicts = [c.verdict for c in loop.commits]
    assert session.record()["moves"] == TRUE_MOVES, verdicts
    assert verdicts.count("violation") == 1 and verdicts.count("misread") <= 1


def test_the_general_pipeline_referees_the_map_from_a_far_camera(tmp_path: Path) -> None:
    """The camera 2.4 times further off: the map's cards are under 13 px wide at the detector's input. Each whole
    frame is read through the part the cards lie in, and each update reads its changed region at that closer
    scale (without either, the referee takes the stills for moves that were never made and asks about them;
    further off, 2.6 and more, stills are misread: the readers lose the 40-50 px cards)."""
    try:
        recogniser = recogniser_for("superheld")
    except RecogniserUnavailable as exc:
        pytest.skip(str(exc))
    session, loop, _ = _referee(tmp_path, recogniser, _write(tmp_path / "far.mp4", distance=2.4)[0])
    verdicts = [c.verdict for c in loop.commits]
    assert session.record()["moves"] == TRUE_MOVES, verdicts
    assert verdicts.count("violation") == 1 and verdicts.count("misread") <= 1


def test_a_misread_is_shown_with_what_was_seen_and_expected(tmp_path: Path, video: tuple[Path, list[str]],
                                                            profile: Path) -> None:
    """A king no move can take vanishes from the opening map: the referee never changes the state silently."""
    recogniser = recogniser_for("superheld", profile)
    assert recogniser is not None
    painter = MapPainter()
    session = Session(Store(tmp_path / "misread.db"))
    session.new_game("superheld", {}, SETUP)
    assert session.observe(recogniser.read(_state_still(painter, [])).observation) == "same"
    assert session.observe(recogniser.read(_state_still(painter, [], lose="KD")).observation) == "misread"
    pending = session.state.pending
    assert pending is not None and session.record()["moves"] == []
    assert set(pending["expected"]["map"]) - set(pending["seen"]["map"]) == {"KD"}
    assert pending["seen"]["face_down"] == pending["expected"]["face_down"] == 8
    assert session.observe(recogniser.read(_state_still(painter, [])).observation) == "same"  # the king is back
    assert session.state.pending is None and session.record()["moves"] == []


def test_the_reading_parts_the_map_from_the_piles(video: tuple[Path, list[str]], profile: Path) -> None:
    recogniser = recogniser_for("superheld", profile)
    assert recogniser is not None
    reading = recogniser.read(dict(_stills())["2H taken, 6H turned"])
    obs = reading.observation
    s = Match.replay(Record("superheld", {}, SETUP, TRUE_MOVES[:5])).game.s  # type: ignore[attr-defined]
    assert obs["map"] == sorted(code(c) for c in s.present - s.hidden)
    assert obs["face_down"] == 7 and obs["hero"] is None and obs["heroes"] == obs["pawns"] == []
    assert obs["off_map"] == sorted(["4S", "2H", "AD", "AC", WARRIOR_TOP])  # skill piles' tops and the warrior
    assert len(reading.cards) == 48 - 4 + 5


def test_observations_are_checked_and_the_table_model_names_what_it_expects() -> None:
    table = SuperheldTable(SETUP)
    game = Match(Record("superheld", {}, SETUP, [])).game
    want = table.expected(game)
    assert want["face_down"] == 8 and len(want["map"]) == 40 and want["hero"] is None
    assert table.fit(game, parse_view(want), frozenset()) == []
    with pytest.raises(ValueError, match="face_down"):
        parse_view({"map": [], "face_down": -1})
    with pytest.raises(ValueError, match="map\\[0\\]"):
        parse_view({"map": ["ZZ"], "face_down": 0})
    assert observation(CardDetections()) == {"map": [], "face_down": 0, "hero": None, "heroes": [], "pawns": [],
                                             "off_map": []}
    assert table.observable({"go": "3S", "take": True}) and not table.observable({"go": "3S", "buy": True})
    assert not table.observable("stay")
