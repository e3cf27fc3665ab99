"""Twenty-fourth round (issue 7): no letter is read on more tiles than the game holds (`matcher.within_counts`),
the tiles an arm touches (`Grid.by_arm`) left out.

A meeple over a shield leaves no pixel that tells M from N or Q from R, and the catalog's counts then read the
commoner plain twin; on a board that already shows every N the game has, a fourth N is the M. The tile of an
over-read letter that loses least moves to its best letter with tiles left.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from vision.tiles.catalog import TILES
from vision.tiles.evaluate import EvalConfig, draw_scene
from vision.tiles.grid import find_grid
from vision.tiles.matcher import _table, within_counts
from vision.tiles.pipeline import predict

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"


def _scores(preferences: list[dict[tuple[str, int], float]]) -> np.ndarray:
    """(T, H) log-scores: each tile's listed hypotheses at their score, every other one far below."""
    keys = _table().keys
    scores = np.full((len(preferences), len(keys)), -50.0)
    for k, preferred in enumerate(preferences):
        for key, score in preferred.items():
            scores[k, keys.index(key)] = score
    return scores


def _letters(chosen: np.ndarray) -> list[str]:
    return [_table().keys[h][0] for h in chosen]


def test_an_over_read_letter_moves_where_it_loses_least() -> None:
    """Two tiles read T (the game has one): the one whose R is nearly as likely becomes R."""
    chosen = within_counts(_scores([{("T", 90): 0.0, ("R", 90): -4.0}, {("T", 0): 0.0, ("R", 0): -0.5}]))
    assert _letters(chosen) == ["T", "R"]
    assert _table().keys[chosen[1]] == ("R", 0)



def test_tiles_an_arm_touches_neither_count_nor_move() -> None:
    """A tile beside an arm read T as surely as a whole tile (what the arm leaves of it may read as anything) no
    longer pushes the board's one T, read less surely, to R; left out of the tally, it keeps its own reading."""
    scores = _scores([{("T", 90): 0.0, ("R", 90): -4.0}, {("T", 0): 0.0, ("R", 0): -0.5}])
    assert _letters(within_counts(scores)) == ["T", "R"]
    assert _letters(within_counts(scores, np.array([False, True]))) == ["T", "T"]

def test_letters_within_their_counts_are_left_alone() -> None:
    """Three N and the game's three: each tile keeps its best, however close its runner-up."""
    preferences = [{("N", r): 0.0, ("M", r): -0.1} for r in (0, 90, 180)]
    assert _letters(within_counts(_scores(preferences))) == ["N", "N", "N"]


def test_a_full_set_reads_within_the_catalog() -> None:
    """Every tile of the game, each scored with its plain twin a little better than its own letter where it has
    one: the reading stays a set the game holds, and the tiles moved are those closest to their own letter."""
    rng = np.random.default_rng(24)
    bag = [letter for letter, tile in TILES.items() for _ in range(tile.count)]
    twins = {"M": "N", "Q": "R", "S": "T", "F": "G", "O": "P"}
    preferences = []
    for letter in bag:
        own = -float(rng.uniform(0.1, 1.0))
        preferences.append({(twins[letter], 0): 0.0, (letter, 0): own} if letter in twins else {(letter, 0): 0.0})
    read = Counter(_letters(within_counts(_scores(preferences))))
    assert all(read[letter] <= tile.count for letter, tile in TILES.items())
    assert read == Counter(bag)



def test_a_full_tuning_board_reads_its_m_under_a_meeple() -> None:
    """tune-clear 187 (modern, 72 tiles: the whole game): a red meeple on the M at (5, 1) hides its shield, and
    round 23 read it as a fourth N; the board's reading now holds no letter beyond the game's count, and that
    tile reads M."""
    config = EvalConfig.from_yaml(DATASETS / "tune-clear.yaml")
    scene, calibration, _ = draw_scene(config, 187)
    assert scene.board.tiles[(5, 1)] == ("M", 0) and any(m.cell == (5, 1) for m in scene.meeples)
    out = predict(scene.image, calibration=calibration)
    read = Counter(t["letter"] for t in out["tiles"])
    assert all(read[letter] <= tile.count for letter, tile in TILES.items())
    assert _read_at(out, scene.corners[(5, 1)]) == ("M", 0)


def _read_at(out: dict, quad: np.ndarray) -> tuple[str, int]:
    """(letter, rotation) of the read tile nearest a true tile's corners in the picture."""
    centre = quad.mean(axis=0)
    nearest = min(out["tiles"], key=lambda t: float(np.linalg.norm(np.mean(t["corners"], axis=0) - centre)))
    return nearest["letter"], nearest["rotation"]


def test_a_tile_under_a_hand_does_not_push_the_boards_t() -> None:
    """tune-hands 12 (painted, 30 tiles): a hand covers the S at (1, 3), and what shows of it reads T; counted, it
    pushed the board's one T, at (-1, -2), to S. The grid finds the arm, and the tiles it touches are not counted."""
    config = EvalConfig.from_yaml(DATASETS / "tune-hands.yaml")
    scene, calibration, _ = draw_scene(config, 12)
    assert scene.board.tiles[(-1, -2)] == ("T", 0) and (1, 3) in scene.hidden
    assert find_grid(scene.image).by_arm
    assert _read_at(predict(scene.image, calibration=calibration), scene.corners[(-1, -2)]) == ("T", 0)
