"""`vision.tiles.predict` on synthetic pictures: output shape, accuracy, single tiles, cells, meeples."""

from __future__ import annotations

import json

import numpy as np
import pytest

from vision.tiles import predict
from vision.tiles.board import Board, Meeple, add_meeples, random_board
from vision.tiles.catalog import TILES, canonical_rotation
from vision.tiles.evaluate import Tally, _score
from vision.tiles.meeples import Calibration, calibrate
from vision.tiles.pipeline import align_to_board
from vision.tiles.scene import Scene, SceneSpec, compose

FEATURES = {"N", "E", "S", "W", "monastery", "field"}


def scene(seed: int, tiles: int, meeples: int = 0, **spec: object) -> Scene:
    rng = np.random.default_rng(seed)
    board = random_board(tiles, rng)
    add_meeples(board, ("red", "blue", "yellow"), meeples, rng)
    return compose(board, SceneSpec(**spec), rng)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def big() -> tuple[Scene, dict]:
    s = scene(11, 72, meeples=8)
    return s, predict(s.image)


def test_output_has_the_issue_shape_and_is_json(big: tuple[Scene, dict]) -> None:
    _, out = big
    assert set(out) == {"tiles", "meeples"}
    json.dumps(out)  # plain types only
    for t in out["tiles"]:
        assert set(t) == {"letter", "rotation", "cell", "corners", "confidence"}
        assert t["letter"] in TILES and t["rotation"] in (0, 90, 180, 270)
        assert t["rotation"] == canonical_rotation(t["letter"], t["rotation"])  # symmetric turns are equal
        assert len(t["cell"]) == 2 and all(isinstance(v, int) for v in t["cell"])
        assert len(t["corners"]) == 4 and all(len(p) == 2 for p in t["corners"])
        assert 0.0 <= t["confidence"] <= 1.0
    for m in out["meeples"]:
        assert set(m) == {"colour", "cell", "feature"} and m["feature"] in FEATURES


def test_a_72_tile_board_is_read(big: tuple[Scene, dict]) -> None:
    s, out = big
    tally = Tally()
    _score(s, out, tally, "any")
    assert tally.tiles == 72 and tally.tiles_missed == 0 and tally.tiles_extra == 0
    assert tally.tiles_right >= 0.95 * tally.tiles


def test_cells_count_from_the_top_left_and_grow_south(big: tuple[Scene, dict]) -> None:
    s, out = big
    cells = {tuple(t["cell"]) for t in out["tiles"]}
    assert min(c[0] for c in cells) == 0 and min(c[1] for c in cells) == 0
    # the true board, shifted to its own top-left, has the same cells: east is +x, south is +y
    x0, y0, _, _ = s.board.bounds()
    assert cells == {(x - x0, y - y0) for (x, y) in s.board.tiles}


def test_start_cell_moves_the_origin(big: tuple[Scene, dict]) -> None:
    s, out = big
    x0, y0, _, _ = s.board.bounds()
    start = (-x0, -y0)  # where the start tile lies in the top-left frame
    shifted = predict(s.image, start_cell=start)
    by_cell = {tuple(t["cell"]): t["letter"] for t in shifted["tiles"]}
    assert by_cell[(0, 0)] == "D"
    assert len(shifted["tiles"]) == len(out["tiles"])


def test_align_to_board_finds_the_start_tile(big: tuple[Scene, dict]) -> None:
    s, out = big
    found = align_to_board(out, s.board.tiles)
    x0, y0, _, _ = s.board.bounds()
    assert found == ((-x0, -y0), 0)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_photograph_of_one_tile(seed: int) -> None:
    s = scene(seed, 1, fill=(0.5, 0.8), tilt=0.25)
    out = predict(s.image)
    assert len(out["tiles"]) == 1
    t = out["tiles"][0]
    assert (t["letter"], t["rotation"], t["cell"]) == ("D", 0, [0, 0])
    truth = s.corners[(0, 0)]
    assert np.abs(np.array(t["corners"]) - truth).max() < 0.08 * np.linalg.norm(truth[1] - truth[0])


def test_meeples_on_a_plain_board_are_found_with_colour_and_feature() -> None:
    rng = np.random.default_rng(5)
    board = random_board(12, rng)
    cells = [c for c, (letter, _) in board.tiles.items() if TILES[letter].roads or TILES[letter].monastery][:2]
    board.meeples = []
    for cell, colour in zip(cells, ("red", "yellow"), strict=False):
        letter, rotation = board.tiles[cell]
        from vision.tiles.geometry import feature_edge, meeple_spots, rotate_points

        kind, index, point = meeple_spots(letter)[-1]
        u, v = rotate_points(np.array([point]), rotation)[0]
        feature = "monastery" if kind == "monastery" else feature_edge(letter, rotation, kind, index)
        board.meeples.append(Meeple(colour, cell, feature, (float(u), float(v))))
    s = compose(board, SceneSpec(fill=(0.9, 0.95), tilt=0.05, light=0.05, blur=0.3), rng)
    out = predict(s.image, calibration=Calibration())
    tally = Tally()
    _score(s, out, tally, "any")
    assert tally.meeples == 2 and tally.meeples_right == 2 and tally.meeples_extra == 0


def test_calibration_measures_the_shown_meeples() -> None:
    from vision.tiles.evaluate import calibration_picture

    s = scene(4, 8, meeples=2)
    colours = ("red", "blue", "black")
    cal = calibrate(calibration_picture(s, colours, np.random.default_rng(0)), colours)
    assert set(cal.colours) == {"red", "blue", "black"}
    assert Calibration.from_json(cal.to_json()).to_json() == cal.to_json()
    assert cal.colours["black"][0] < 60 < cal.colours["red"][0]  # Lab lightness: black is dark


def test_an_empty_table_has_no_tiles_and_bad_input_is_refused() -> None:
    table = np.full((360, 640, 3), (60, 100, 150), np.uint8)
    assert predict(table) == {"tiles": [], "meeples": []}
    with pytest.raises(ValueError):
        predict(np.zeros((10, 10), np.uint8))


def test_board_type_roundtrip() -> None:
    b = Board({(0, 0): ("D", 0)})
    assert b.bounds() == (0, 0, 0, 0)
