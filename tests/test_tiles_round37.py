"""Thirty-seventh round (issue 7): a meeple's foot is looked up on its tile as the tile lies, not as its grid cell
lies (`register.tile_shift`, `pipeline._on_tiles`). Tiles are laid a little apart and askew, so a farmer drawn a
hundredth of a tile beside a city wall or a road was read on them when its cell, not its tile, was asked.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.tiles.evaluate import Tally
from vision.tiles.matcher import truth_masks
from vision.tiles.reader import PATCH
from vision.tiles.register import REACH, tile_shift


def _board(letter: str, rotation: int, dx: int, dy: int) -> np.ndarray:
    """A not-field mask three cells square with the tile's catalog features painted (dx, dy) px off the middle."""
    not_field = np.zeros((3 * PATCH, 3 * PATCH), bool)
    not_field[PATCH + dy:2 * PATCH + dy, PATCH + dx:2 * PATCH + dx] = truth_masks(letter, rotation)[0]
    return not_field


@pytest.mark.parametrize(("letter", "rotation", "dx", "dy"),
                         [("D", 90, 2, 1), ("A", 0, -1, 2), ("U", 0, 2, -2), ("V", 270, -3, 1), ("E", 180, 0, 0)])
def test_a_tile_is_found_where_its_features_lie(letter: str, rotation: int, dx: int, dy: int) -> None:
    not_field = _board(letter, rotation, dx, dy)
    found = tile_shift(not_field, np.zeros_like(not_field), letter, rotation, (PATCH, PATCH))
    assert found == pytest.approx((dx, dy), abs=0.3)


def test_pixels_a_figure_hides_do_not_count() -> None:
    not_field = _board("D", 90, 2, 1)
    hidden = np.zeros_like(not_field)
    hidden[PATCH:PATCH + 20, PATCH:2 * PATCH] = True  # a figure's paint, not field, over a third of the tile
    not_field[hidden] = True
    assert tile_shift(not_field, hidden, "D", 90, (PATCH, PATCH)) == pytest.approx((2, 1), abs=0.3)


def test_a_cell_whose_window_leaves_the_board_stays() -> None:
    not_field = _board("D", 90, 2, 1)
    assert tile_shift(not_field, np.zeros_like(not_field), "D", 90, (REACH - 1, PATCH)) == (0.0, 0.0)


@pytest.mark.parametrize(("name", "index"), [("tune-modern", 195), ("tune-modern", 439), ("tune2", 66)])
def test_a_farmer_beside_a_feature_stands_on_the_field(name: str, index: int,
                                                     tile_board: Callable[[str, int], Tally]) -> None:
    """tune-modern 195 (72 tiles: one farmer read on its O's north part, one on the monastery beside it), 439 (a
    farmer read on a monastery) and tune2 66 (classic, 30 tiles: a farmer read on its K's south road)."""
    tally = tile_board(name, index)
    assert tally.meeples == 8 and tally.meeples_missed == 0
    assert tally.meeples_right == 8
