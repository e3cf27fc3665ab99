"""Carcassonne solo refereed from a real video: tiles drawn by vision.tiles.render, laid one by one on a table
under a fixed camera, hands reaching in between the stills (`companion.carcassonne_render`), written to an mp4
and read back through the RefereeLoop with the board reader (`vision.tiles.predict`) and a real SQLite store.

The stacks lie face down (`{"stacks": "hidden"}`): the companion learns each tile when it is laid. The game
has a road closed with a meeple on it (it comes back a still later), a tile first laid against the rules and
then put right, and stills that show a tile before its meeple stands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from companion.carcassonne_render import BoardCamera, Script, Still, table_of, write_video
from companion.loop import RefereeLoop
from companion.overlay import draw
from companion.recognisers import VisionCarcassonne, recogniser_for
from companion.session import ActionError, Session
from companion.store import Store
from companion.tables.carcassonne import COLOUR_NAMES, CarcassonneTable, parse_view
from engine.carcassonne.board import oriented
from engine.match import Match
from engine.record import Record
from vision import degrade

SEED = 3  # the true stacks: {"seed": SEED}; the companion is only told they lie face down
TRUE_MOVES: list[dict[str, Any]] = [
    {"tile": "N", "x": 0, "y": -1, "rot": 270, "meeple": "S"},
    {"tile": "L", "x": -1, "y": 0, "rot": 180, "meeple": "E"},
    {"tile": "U", "x": 0, "y": 1, "rot": 90, "meeple": "E"},
    {"tile": "U", "x": -2, "y": 0, "rot": 90, "meeple": "E"},
    {"tile": "T", "x": -3, "y": 0, "rot": 270, "meeple": "N"},  # closes colour 1's road: its meeple comes back
    {"tile": "V", "x": -2, "y": -1, "rot": 0, "meeple": "S"},  # its road against the U's field
    {"tile": "V", "x": -2, "y": -1, "rot": 180, "meeple": "N"},  # put right
    {"tile": "P", "x": 1, "y": 0, "rot": 180, "meeple": "E"},
    {"tile": "B", "x": -2, "y": 1, "rot": 0, "meeple": "monastery"},
    {"tile": "D", "x": 2, "y": 0, "rot": 270, "meeple": "N"},
    {"tile": "P", "x": 2, "y": -1, "rot": 0, "meeple": "N"},
]
BAD = 5  # TRUE_MOVES[BAD] breaks the rules and is put right by the next one
SCRIPT = Script(SEED, tuple(TRUE_MOVES), BAD, tile_first=(2, 7))  # tiles 2 and 7 are seen before their meeple


@pytest.fixture(scope="module")
def video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, str]]]:
    path = tmp_path_factory.mktemp("carcassonne") / "carcassonne.mp4"
    return path, [(still.name, still.verdict) for still in write_video(path, SCRIPT)]


def _truth() -> Record:
    return SCRIPT.record()


def _referee(db: Path, video: Path, setup: dict[str, Any]) -> tuple[Session, RefereeLoop]:
    recogniser = recogniser_for("carcassonne")
    assert isinstance(recogniser, VisionCarcassonne)
    session = Session(Store(db))
    session.new_game("carcassonne", {}, setup)
    loop = RefereeLoop(session, recogniser)
    loop.run_file(str(video))
    return session, loop


# -- the tests ----------------------------------------------------------------------------------------------
def test_the_companion_referees_a_carcassonne_video_with_face_down_stacks(
        tmp_path: Path, video: tuple[Path, list[tuple[str, str]]]) -> None:
    session, loop = _referee(tmp_path / "carcassonne.db", video[0], {"stacks": "hidden"})
    verdicts = [c.verdict for c in loop.commits]
    assert verdicts == [v for _, v in video[1]], list(zip([n for n, _ in video[1]], verdicts, strict=False))
    # the first still (meeples on the bare table) calibrated the meeple colours
    calibration = loop.recogniser.calibration  # type: ignore[union-attr]
    assert calibration is not None and set(calibration.colours) == set(COLOUR_NAMES)
    record, truth = session.record(), _truth()
    assert record["moves"] == truth.moves
    state = session.api_state()
    assert [v["rule"] for v in state["violations"]] == ["edges-mismatch"]
    assert [(s["turn"], s["kind"], s["meeples"]) for s in state["scorings"]] == [(5, "road", [1])]
    # every tile laid was learnt where it was drawn; the tiles never drawn keep the companion's stand-in order
    true_state = Match.replay(truth).to_json()
    assert {k: v for k, v in state.items() if k not in ("tile", "source")} == \
        {k: v for k, v in true_state.items() if k != "tile"}
    laid = [0, 0, 0]
    for k in range(len(TRUE_MOVES)):
        if k != BAD:
            laid[Match.replay(Record("carcassonne", {}, {"seed": SEED}, TRUE_MOVES[:k])).game.colour] += 1
    true_stacks = [list(s) for s in Match(truth).game.initial_stacks]  # type: ignore[attr-defined]
    for colour, count in enumerate(laid):
        assert record["setup"]["stacks"][colour][:count] == true_stacks[colour][:count]
    kinds = [e.kind for e in session.store.events(session.state.game_id)]
    assert kinds.count("reveal") == len(TRUE_MOVES) - 1  # the tile put right was seen already
    assert kinds.count("pending") == 0 and session.state.pending is None
    assert "calibration" not in kinds  # tiles are not 63 x 88 mm cards: the table is not measured from them
    # the store alone gives the same game back (resume)
    again = Session(Store(tmp_path / "carcassonne.db"))
    assert again.resume() and again.record() == record and again.api_state() == state


def test_with_known_stacks_the_record_is_the_true_one(tmp_path: Path, video: tuple[Path, list[tuple[str, str]]]
                                                      ) -> None:
    session, loop = _referee(tmp_path / "known.db", video[0], {"seed": SEED})
    assert [c.verdict for c in loop.commits] == [v for _, v in video[1]]
    assert session.record() == _truth().to_json()
    again = Session(Store(tmp_path / "known.db"))
    assert again.resume() and again.record() == session.record()


DIMMED = (4, 0.45)  # from the fifth still on the room's light is 0.45 of the calibration's (a lamp put out)


def test_a_lamp_put_out_mid_game_changes_nothing_refereed(tmp_path: Path) -> None:
    """The meeples' colours were calibrated in the first still's light; from the fifth still on the picture has
    0.45 of it. The stillness gate takes the darker picture for the room's light, not an arm, and the board is read
    brought back to the calibration's light (`vision.tiles.meeples.in_calibration_light`): every verdict and move as
    in full light (read as shot, the tiles and meeples from there on were misread)."""
    path = tmp_path / "dimmed.mp4"
    shown = write_video(path, SCRIPT, dimmed=DIMMED)
    session, loop = _referee(tmp_path / "dimmed.db", path, {"stacks": "hidden"})
    assert [c.verdict for c in loop.commits] == [still.verdict for still in shown]
    assert session.record()["moves"] == _truth().moves
    calibration = loop.recogniser.calibration  # type: ignore[union-attr]
    assert calibration is not None and calibration.table is not None  # the calibration frame's table kept


def test_a_calibration_given_follows_the_light_from_the_first_board_frame() -> None:
    """Colours given (as a resumed game or `--setup` would), no calibration shot: the first board frame's table is
    the light they belong to, and a darker frame of the same board reads the same tiles and meeples."""
    camera = BoardCamera(SCRIPT.cells())
    tiles, meeples = table_of(SEED, TRUE_MOVES[:4])
    image = camera.still(Still("four tiles", "moves", tiles, meeples))
    shot = VisionCarcassonne().read(camera.still(Still("calibrate", "unreadable", {}, [], tuple(COLOUR_NAMES[:4]))))
    recogniser = VisionCarcassonne(calibration=shot.observation["calibration"])  # colours only, as stored
    assert recogniser.calibration is not None and recogniser.calibration.table is None
    full = recogniser.read(image)
    assert recogniser.calibration.table is not None  # taken from that first board frame
    dim = recogniser.read(degrade.relit(image, 0.45))
    assert len(full.observation["meeples"]) == len(meeples)
    assert dim.observation["meeples"] == full.observation["meeples"]
    assert sorted(c["code"] for c in dim.cards) == sorted(c["code"] for c in full.cards)


def test_the_overlay_outlines_and_names_the_read_tiles(video: tuple[Path, list[tuple[str, str]]]) -> None:
    camera = BoardCamera(SCRIPT.cells())
    tiles, meeples = table_of(SEED, TRUE_MOVES[:3])
    image = camera.still(Still("three tiles", "moves", tiles, meeples))
    reading = VisionCarcassonne().read(image)
    assert sorted(c["code"] for c in reading.cards) == sorted(f"{t}{r}" for t, r in tiles.values())
    drawn = draw(image, reading.cards, set(), "still", {"state": "live"}, None)
    corners = np.asarray(reading.cards[0]["corners"], np.int32)
    assert drawn.shape == image.shape and (drawn != image).any()
    assert any((drawn[y, x] != image[y, x]).any() for x, y in corners)


def test_observations_are_checked_and_a_turned_camera_is_aligned(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no tile seen"):
        parse_view({"tiles": [], "meeples": []})
    with pytest.raises(ValueError, match=r"tiles\[0\]: no Carcassonne tile"):
        parse_view({"tiles": [{"letter": "Z", "rotation": 0, "cell": [0, 0]}]})
    with pytest.raises(ValueError, match=r"meeples\[0\]: colour"):
        parse_view({"tiles": [{"letter": "D", "rotation": 0, "cell": [0, 0]}],
                    "meeples": [{"colour": "green", "cell": [0, 0], "feature": "N"}]})
    with pytest.raises(ValueError, match=r"meeples\[0\]: no tile in cell"):
        parse_view({"tiles": [{"letter": "D", "rotation": 0, "cell": [0, 0]}],
                    "meeples": [{"colour": "red", "cell": [1, 0], "feature": "N"}]})
    session = Session(Store(tmp_path / "turned.db"))
    session.new_game("carcassonne", {}, {"stacks": "hidden"})
    # the camera on the board's east side: the whole view a quarter turn anticlockwise (D at 270, N -> W)
    first = {"tiles": [{"letter": "D", "rotation": 270, "cell": [1, 0]},
                       {"letter": "E", "rotation": 90, "cell": [0, 0]}],
             "meeples": [{"colour": "red", "cell": [0, 0], "feature": "E"}]}
    assert session.observe(first) == "moves"
    assert session.record()["moves"] == [{"tile": "E", "x": 0, "y": -1, "rot": 180, "meeple": "S"}]
    assert session.record()["setup"]["stacks"][0][0] == "E"
    # the city closed at once: the red meeple may stand until the player takes it back
    assert session.observe({**first, "meeples": []}) == "same"


def test_a_tile_the_stacks_no_longer_hold_is_a_misread_and_changes_nothing(tmp_path: Path) -> None:
    session = Session(Store(tmp_path / "misread.db"))
    session.new_game("carcassonne", {}, {"stacks": "hidden"})
    start = {"letter": "D", "rotation": 0, "cell": [0, 1]}
    assert session.observe({"tiles": [start, {"letter": "C", "rotation": 0, "cell": [0, 0]}],
                            "meeples": [{"colour": "red", "cell": [0, 0], "feature": "N"}]}) == "moves"
    red = {"colour": "red", "cell": [0, 0], "feature": "N"}
    second_c = {"tiles": [start, {"letter": "C", "rotation": 0, "cell": [0, 0]}, {"letter": "C", "rotation": 0,
                                                                                 "cell": [1, 0]}],
                "meeples": [red, {"colour": "blue", "cell": [1, 0], "feature": "N"}]}
    assert session.observe(second_c) == "misread"  # the game has one C: this is another tile misread
    pending = session.state.pending
    assert pending is not None and pending["options"] and len(session.record()["moves"]) == 1
    assert pending["expected"] == {"tiles": ["C 0° at 0,-1", "D 0° at 0,0"], "meeples": ["red N at 0,-1"]}
    # what was seen is listed from the start tile too, so only the odd tile differs from what was expected
    assert pending["seen"]["tiles"] == ["C 0° at 0,-1", "C 0° at 1,-1", "D 0° at 0,0"]
    # the player confirms the closest legal move: its tile is then the one drawn, and the game goes on from it
    with pytest.raises(ActionError, match="confirming a suggested move"):
        session.correct("tiles", 0, "C")
    chosen = session.confirm(0)
    record = session.record()
    assert record["moves"][1:] == chosen and record["setup"]["stacks"][1][0] == chosen[0]["tile"]
    state = Match.replay(Record("carcassonne", {}, record["setup"], record["moves"])).game.state()
    assert session.observe(_perfect(state)) == "same"
    table = CarcassonneTable({"stacks": "hidden"})
    table.reveal("C", "1:0")
    assert table.record_setup()["stacks"][0][0] == "C"
    with pytest.raises(ValueError, match="no unseen C"):
        table.reveal("C", "2:0")
    table.reveal("E", "1:0")  # named again (a misread set right before the tile is laid): C goes back unseen
    stacks = table.record_setup()["stacks"]
    assert stacks[0][0] == "E" and sum(stack.count("C") for stack in stacks) == 1 and (0, 0) not in {
        (c, i) for c, stack in enumerate(stacks) for i, t in enumerate(stack) if t == "C"}
    with pytest.raises(ValueError, match="slot"):
        table.reveal("E", "7:0")


# -- whole games seen by a perfect reader ---------------------------------------------------------------------
def _perfect(state: dict[str, Any], laid: tuple[int, int, str, int] | None = None,
             meeples: list[tuple[int, int, int, str]] | None = None, slip: bool = False) -> dict[str, Any]:
    """What a reader that never errs reports for a state's board (cells from the top-left, as the recogniser);
    `slip`: once four tiles lie, it reads the second one laid as an X, its meeples as standing on a field."""
    tiles = [(t["x"], t["y"], t["tile"], t["rot"]) for t in state["board"]] + ([laid] if laid else [])
    figures = meeples if meeples is not None else [(m["x"], m["y"], m["colour"], m["spot"]) for m in state["meeples"]]
    if slip and len(state["board"]) >= 4:
        x, y = tiles[1][:2]
        tiles[1] = (x, y, "X", 0)
        figures = [(mx, my, c, "field" if (mx, my) == (x, y) else f) for mx, my, c, f in figures]
    x0, y0 = min(t[0] for t in tiles), min(t[1] for t in tiles)
    return {"tiles": [{"letter": t, "rotation": r, "cell": [x - x0, y - y0]} for x, y, t, r in tiles],
            "meeples": [{"colour": COLOUR_NAMES[c - 1], "cell": [x - x0, y - y0], "feature": f}
                        for x, y, c, f in figures]}


def _standing(before: dict[str, Any], move: dict[str, Any]) -> list[tuple[int, int, int, str]]:
    """The meeples on the table just after `move`, before the player takes back those it scored."""
    standing = {(m["x"], m["y"], m["colour"], m["spot"]) for m in before["meeples"]}
    if move["meeple"] is not None:
        lies = oriented(move["tile"], move["rot"])
        standing.add((move["x"], move["y"], before["colour"], lies.spot_of(lies.part_at(move["meeple"]))))
    return sorted(standing)


@pytest.mark.parametrize(("seed", "setup", "slip"), [(s, {"stacks": "hidden"}, False) for s in range(6)] +
                         [(6, {"seed": 6}, False), (7, {"stacks": "hidden"}, True), (8, {"seed": 8}, True)])
def test_random_games_seen_tile_by_tile_are_refereed_exactly(tmp_path: Path, seed: int, setup: dict[str, Any],
                                                             slip: bool) -> None:
    """Each turn: the tile alone (when a meeple is owed), tile and meeple with the scored meeples still standing,
    then the scored meeples taken back. A reader that keeps misreading a tile laid long ago changes nothing."""
    rng = np.random.default_rng(seed)
    truth = Match(Record("carcassonne", {}, {"seed": seed}, []))
    session = Session(Store(tmp_path / "perfect.db"))
    session.new_game("carcassonne", {}, setup)
    verdicts = [session.observe(_perfect(truth.game.state()))]
    for _ in range(14):
        if truth.game.status != "playing":
            break
        before = truth.game.state()
        moves = truth.legal_moves()
        move = moves[int(rng.integers(len(moves)))]
        laid = (move["x"], move["y"], move["tile"], move["rot"])
        if move["meeple"] is not None:
            verdicts.append(session.observe(_perfect(before, laid, slip=slip)))
        truth.play(move)
        after = truth.game.state()
        verdicts.append(session.observe(_perfect(after, None, _standing(before, move), slip=slip)))
        verdicts.append(session.observe(_perfect(after, slip=slip)))
    assert not {"misread", "ambiguous", "violation", "unreadable"} & set(verdicts), verdicts
    assert session.record()["moves"] == truth.record.moves
    if "seed" in setup:
        assert session.record() == truth.record.to_json()
    mine, true = session.api_state(), truth.to_json()
    assert {k: v for k, v in mine.items() if k not in ("tile", "source")} == \
        {k: v for k, v in true.items() if k != "tile"}


def test_companion_serve_referees_carcassonne_from_a_video(tmp_path: Path, video: tuple[Path, list[tuple[str, str]]]
                                                          ) -> None:
    """What `companion serve --source VIDEO --game carcassonne --setup '{"stacks": "hidden"}'` starts."""
    from companion.runtime import Companion, Config

    companion = Companion(Config(db=tmp_path / "serve.db", source=str(video[0]), game="carcassonne",
                                 setup={"stacks": "hidden"}, port=0))
    try:
        assert isinstance(companion.recogniser, VisionCarcassonne) and companion.warning is None
        assert companion.session.snapshot()["camera_referees"] is True
    finally:
        companion.stop()


def test_a_face_down_tile_played_on_the_dashboard_is_revealed_by_the_move(tmp_path: Path) -> None:
    session = Session(Store(tmp_path / "typed.db"))
    session.new_game("carcassonne", {}, {"stacks": "hidden"})
    move = {"tile": "E", "x": 0, "y": -1, "rot": 180, "meeple": "S"}
    assert session.play(move) is None  # not a wrong tile: the player named the tile drawn face down
    record = session.record()
    assert record["moves"] == [move] and record["setup"]["stacks"][0][0] == "E"
    again = Session(Store(tmp_path / "typed.db"))
    assert again.resume() and again.record() == record
    # the camera misreads the next tile (K for J) while its meeple is still to come; the player types the true one
    k_laid = {"tiles": [_tile("E", 180, 0, 0), _tile("D", 0, 0, 1), _tile("K", 0, 1, 1)],
              "meeples": [_meeple("red", 0, 0, "S")]}
    assert session.observe(k_laid) == "same" and session.record()["setup"]["stacks"][1][0] == "K"
    true_move = {"tile": "J", "x": 1, "y": 0, "rot": 90, "meeple": "E"}
    assert session.play(true_move) is None
    assert session.record()["moves"][-1] == true_move and session.record()["setup"]["stacks"][1][0] == "J"


def _tile(letter: str, rotation: int, x: int, y: int) -> dict[str, Any]:
    return {"letter": letter, "rotation": rotation, "cell": [x, y]}


def _meeple(colour: str, x: int, y: int, feature: str) -> dict[str, Any]:
    return {"colour": colour, "cell": [x, y], "feature": feature}


@pytest.mark.parametrize(("views", "rule"), [
    ([{"tiles": [_tile("D", 0, 0, 0), _tile("E", 0, 2, 0)], "meeples": [_meeple("red", 2, 0, "N")]}], "not-adjacent"),
    ([{"tiles": [_tile("D", 0, 0, 1), _tile("E", 180, 0, 0)], "meeples": [_meeple("red", 0, 0, "field")]}],
     "no-feature"),
    ([{"tiles": [_tile("D", 0, 0, 0), _tile("U", 90, 1, 0)], "meeples": [_meeple("red", 1, 0, "E")]},
      {"tiles": [_tile("U", 90, 0, 0), _tile("D", 0, 1, 0), _tile("U", 90, 2, 0)],
       "meeples": [_meeple("red", 2, 0, "E"), _meeple("blue", 0, 0, "E")]}], "feature-taken"),
    ([{"tiles": [_tile("D", 0, 0, 0), _tile("U", 90, 1, 0)], "meeples": [_meeple("red", 1, 0, "E")]}], "wrong-tile"),
])
def test_a_tile_or_meeple_against_the_rules_is_named_with_the_engines_rule(tmp_path: Path, views: list[Any],
                                                                          rule: str) -> None:
    """Face-down stacks, except for the wrong tile: only a known stack says which tile the colour drew."""
    session = Session(Store(tmp_path / "rules.db"))
    known = {"stacks": [["E", "V"], ["U"], ["V"]]}
    session.new_game("carcassonne", {}, known if rule == "wrong-tile" else {"stacks": "hidden"})
    verdicts = [session.observe(v) for v in views]
    assert verdicts == ["moves"] * (len(views) - 1) + ["violation"]
    assert [v["rule"] for v in session.api_state()["violations"]] == [rule]
    assert session.observe(views[-1]) == "violation-standing"


def _lay_quietly(truth: Match, rng: np.random.Generator) -> bool:
    """Plays a legal move that places a meeple and scores nothing, if there is one."""
    scorings = len(truth.game.state()["scorings"])
    moves = [m for m in truth.legal_moves() if m["meeple"] is not None]
    for k in rng.permutation(len(moves)):
        truth.play(moves[int(k)])
        if len(truth.game.state()["scorings"]) == scorings:
            return True
        truth.undo()
    return False


@pytest.mark.parametrize("seed", range(3))
def test_two_face_down_tiles_laid_between_two_stills_are_told_apart_by_their_meeples(tmp_path: Path,
                                                                                     seed: int) -> None:
    """The camera missed a still or two: the meeples' colours say which tile came first, and both are learnt."""
    rng = np.random.default_rng(100 + seed)
    truth = Match(Record("carcassonne", {}, {"seed": seed}, []))
    session = Session(Store(tmp_path / "pairs.db"))
    session.new_game("carcassonne", {}, {"stacks": "hidden"})
    pairs = 0
    while truth.game.status == "playing" and len(truth.record.moves) < 14:
        before = truth.game.state()
        moves = truth.legal_moves()
        truth.play(moves[int(rng.integers(len(moves)))])
        scored = len(truth.game.state()["scorings"]) > len(before["scorings"])
        if not scored and truth.record.moves[-1]["meeple"] and truth.game.status == "playing" and \
                _lay_quietly(truth, rng):  # a second tile whose meeple stands (not scored at once)
            pairs += 1
            if pairs % 2:  # the first tile was seen alone, then the still with its meeple was missed
                first = truth.record.moves[-2]
                assert session.observe(_perfect(before, (first["x"], first["y"], first["tile"], first["rot"]))) == \
                    "same"
            played = len(session.record()["moves"])
            verdict = session.observe(_perfect(truth.game.state()))
            assert verdict == "moves" and len(session.record()["moves"]) == played + 2, verdict
            continue
        after = truth.game.state()
        assert session.observe(_perfect(after, None, _standing(before, truth.record.moves[-1]))) == "moves"
        assert session.observe(_perfect(after)) == "same"
    assert pairs >= 2 and session.record()["moves"] == truth.record.moves


def test_the_dashboard_shows_a_carcassonne_misread_and_its_confirmation(tmp_path: Path, browser: Any) -> None:
    """Real headless Chromium: the misread's seen and expected tiles, the odd one marked, a suggestion confirmed."""
    from playwright.sync_api import expect

    from companion.runtime import Companion, Config

    companion = Companion(Config(db=tmp_path / "dash.db", port=0, game="carcassonne", setup={"stacks": "hidden"},
                                 recognise=False)).start()
    errors: list[str] = []
    try:
        page = browser.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"http://127.0.0.1:{companion.port}/")
        expect(page.locator("#game-name")).to_have_text("carcassonne")
        expect(page.locator("#headline")).to_have_text("scores [1,2,3]")
        s = companion.session
        start, c = _tile("D", 0, 0, 1), _tile("C", 0, 0, 0)
        red = _meeple("red", 0, 0, "N")
        assert s.observe({"tiles": [start, c], "meeples": [red]}) == "moves"
        expect(page.locator("#field-tiles_placed")).to_have_text("2")
        assert s.observe({"tiles": [start, c, _tile("C", 0, 1, 0)],
                          "meeples": [red, _meeple("blue", 1, 0, "N")]}) == "misread"
        expect(page.locator("#pending-panel")).to_be_visible()
        expect(page.locator("#seen .card.wrong")).to_have_text(["C 0° at 1,-1", "blue N at 1,-1"])
        expect(page.locator("#expected .card")).to_have_count(3)
        page.locator("#options button").first.click()
        expect(page.locator("#pending-panel")).to_be_hidden()
        expect(page.locator("#field-tiles_placed")).to_have_text("3")
        assert len(s.record()["moves"]) == 2
        page.close()
    finally:
        companion.stop()
    assert errors == []
