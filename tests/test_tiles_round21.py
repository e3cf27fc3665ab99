"""Round 21 (issue 7): farmers drawn clear of the features (`field_clearance`), older sets' pictures unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.tiles.board import Board, add_meeples, random_board
from vision.tiles.catalog import TILES, distinct_rotations
from vision.tiles.evaluate import EvalConfig, draw_scene, make_board
from vision.tiles.figures import MEEPLE_OUTLINE
from vision.tiles.geometry import FIELD_LABEL, rotated_feature_map

SETS = Path(__file__).resolve().parent.parent / "datasets" / "tiles"
CLEARANCE = 0.15


def _config(name: str, **extra: object) -> EvalConfig:
    return EvalConfig.from_yaml(SETS / f"{name}.yaml", **extra)


def _gap(letter: str, rotation: int, point: tuple[float, float]) -> float:
    """Distance (tiles) from a point to the nearest square of a city, road or monastery pixel of the
    32 px label map, or to the tile's sides, whichever is nearer: measured square by square."""
    labels = rotated_feature_map(letter, rotation, 32)
    x, y = point
    rows, cols = np.nonzero(labels != FIELD_LABEL)
    dx = np.maximum(np.maximum(cols / 32 - x, x - (cols + 1) / 32), 0.0)
    dy = np.maximum(np.maximum(rows / 32 - y, y - (rows + 1) / 32), 0.0)
    return float(min(x, y, 1 - x, 1 - y, np.hypot(dx, dy).min(initial=np.inf)))


def _clearest(letter: str, rotation: int) -> float:
    """The largest `_gap` over the field pixels' centres of a tile."""
    labels = rotated_feature_map(letter, rotation, 32)
    return max((_gap(letter, rotation, ((c + 0.5) / 32, (r + 0.5) / 32))
                for r, c in np.argwhere(labels == FIELD_LABEL)), default=0.0)


def test_absent_key_draws_the_older_sets_pictures_byte_for_byte() -> None:
    """`field_clearance` 0 and the key absent give the same pictures; tune.yaml board 3's farmer stands where
    round 20's code put it (0.266, 0.578 on an A: 0.047 tile from its monastery or road, closer than the
    option allows)."""
    plain, zero = _config("tune"), _config("tune", field_clearance=0.0)
    assert plain.field_clearance == 0.0
    for index in (3, 5):
        a, _, _ = draw_scene(plain, index)
        b, _, _ = draw_scene(zero, index)
        assert a.image.tobytes() == b.image.tobytes()
        assert a.meeples == b.meeples
    scene, _, _ = draw_scene(plain, 3)
    farmers = [m for m in scene.meeples if m.feature == "field"]
    assert [m.point for m in farmers] == [(0.265625, 0.578125)]
    letter, rotation = scene.board.tiles[farmers[0].cell]
    assert letter == "A"
    assert abs(_gap(letter, rotation, farmers[0].point) - 1.5 / 32) < 1e-9


def test_default_generator_unchanged_for_farmers() -> None:
    """With every meeple a farmer, the default and an explicit 0 lay the same boards from the same seeds."""
    for seed in range(6):
        boards = []
        for extra in ({}, {"field_clearance": 0.0}):
            rng = np.random.default_rng(seed)
            board = random_board(30, rng)
            add_meeples(board, ("red", "blue"), 10, rng, field_rate=1.0, **extra)
            boards.append(board)
        assert boards[0].meeples == boards[1].meeples
        assert all(0.21 < m.point[0] < 0.79 and 0.21 < m.point[1] < 0.79 for m in boards[0].meeples)


def test_clearance_keeps_every_farmer_clear_or_at_the_clearest_spot() -> None:
    """On every letter and rotation a farmer stands 0.15 tile from every feature and the tile's sides, or,
    where the tile's field is too thin for that (three-sided cities, O and P), at its clearest spot."""
    rng = np.random.default_rng(21)
    thin = set()
    for letter in TILES:
        for rotation in distinct_rotations(letter):
            board = Board({(0, 0): (letter, rotation)})
            clearest = _clearest(letter, rotation)
            for _ in range(4):
                board.meeples.clear()
                add_meeples(board, ("red",), 1, rng, field_rate=1.0, field_clearance=CLEARANCE)
                if clearest == 0.0:  # no field (C)
                    assert board.meeples == []
                    continue
                (meeple,) = board.meeples
                assert meeple.feature == "field"
                gap = _gap(letter, rotation, meeple.point)
                if clearest >= CLEARANCE:
                    assert gap >= CLEARANCE - 1e-9
                else:
                    thin.add(letter)
                    assert gap >= clearest - 1e-9
    assert thin == set("FGOPQRST")


def test_clearance_is_half_the_widest_figure_drawn() -> None:
    """The scene draws a figure 0.26-0.32 tile wide, its feet spanning the outline's base: half the widest
    figure's base stands within 0.15 tile of the foot, so a clear farmer's base lies wholly on its field."""
    base = MEEPLE_OUTLINE[MEEPLE_OUTLINE[:, 1] == 1.0, 0]
    assert 0.32 * (base.max() - base.min()) / 2 <= CLEARANCE <= 0.32 / 2


def test_clear_sets_draw_clear_farmers() -> None:
    """tune-clear.yaml sets the option; its farmers keep the clearance where their tile allows it."""
    config = _config("tune-clear")
    assert config.field_clearance == CLEARANCE
    assert _config("heldout-clear").field_clearance == CLEARANCE
    farmers = 0
    for index in range(12):
        rng = np.random.default_rng(config.seed + index)
        board = make_board(config, index, rng)
        for meeple in board.meeples:
            if meeple.feature != "field":
                continue
            farmers += 1
            letter, rotation = board.tiles[meeple.cell]
            assert _gap(letter, rotation, meeple.point) >= min(CLEARANCE, _clearest(letter, rotation)) - 1e-9
    assert farmers >= 1
