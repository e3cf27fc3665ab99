"""Forty-third round (issue 7, session 46): small boards whose combs found a grid at a quarter of the tiles' pitch with
more cells than COARSE_MOST (a grid of that size is most often a true board, whose own cells read once more to judge
it would cost a 72-tile board 25-50 ms), a grid folded onto a line by a horizon placed across the board, and a block
two tiles wide whose outline was counted as a strip's."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.tiles.combs import _ahead
from vision.tiles.evaluate import Tally
from vision.tiles.grid import COARSE_MOST, HALVED_MOST, MANY_CELLS, SPLIT_MOST, find_grid
from vision.tiles.lone_tile import STRIP_SLACK, block_counts


@pytest.mark.parametrize(("index", "tiles", "right"), [(94, 9, 7), (157, 7, 5)])
def test_a_grid_at_a_quarter_of_the_pitch_gives_way_after_its_reading(
        tile_board: Callable[[str, int], Tally], tile_picture: Callable[[str, int], np.ndarray], index: int,
        tiles: int, right: int) -> None:
    """tune-small6 94 (nine flat tiles) and 157 (seven): combs at a quarter of the pitch, 95 and 66 cells, in no
    whole 2 x 2 blocks, read as 94 and 67 extra tiles, none right. Their reading reads unlike tiles, so the grids at
    twice and four times the pitch are looked for then, and the one whose cells read as tiles is read (94: two tan
    tiles on a wooden table still missed; 157: one still missed, one F read G)."""
    grid = find_grid(tile_picture("tune-small6", index))
    assert grid is not None and grid.late and COARSE_MOST < len(grid.cells) <= MANY_CELLS * 72
    tally = tile_board("tune-small6", index)
    assert tally.tiles == tiles
    assert tally.tiles_right == right and tally.tiles_extra == 0


def test_a_horizon_across_the_board_is_no_rectification(tile_board: Callable[[str, int], Tally]) -> None:
    """tune-small8 57: three classic tiles in a strip in steep perspective. A road's sides placed a vanishing point
    inside the board, the horizon through it crossed the board and the grid fitted there folded the board onto a
    line: 703 tiles read. That rectification is refused now: three cells, no extra tile (the three still read wrong:
    the parallel rectifications leave the grid sheared)."""
    tally = tile_board("tune-small8", 57)
    assert tally.tiles == 3
    assert tally.tiles_extra == 0 and tally.tiles_missed == 0
    assert tally.meeples_right == tally.meeples == 1


def test_ahead_tells_a_horizon_beside_the_points_from_one_across_them() -> None:
    points = np.array([[-0.2, -0.1, 1.0], [0.2, -0.1, 1.0], [0.2, 0.1, 1.0], [-0.2, 0.1, 1.0]])
    rect = np.eye(3)
    assert _ahead(rect, points)  # no horizon: w = 1 everywhere
    rect[2] = [0.0, 2.0, 1.0]  # the horizon y = -0.5, above the points
    assert _ahead(rect, points)
    rect[2] = [0.0, 20.0, 1.0]  # y = -0.05, between the rows
    assert not _ahead(rect, points)


def test_a_block_two_tiles_wide_counted_as_a_strip_is_read_as_it_lies(
        tile_board: Callable[[str, int], Tally]) -> None:
    """tune-small8 196: two columns of three large flat tiles, an outline whose sides' ratio (1.74) made it a strip,
    counted as two cells (each spanning three tiles), then read through the combs' grid of eight: 2 of 6 right, 4
    extra. The blocks that ratio allows are offered too, and the 2 x 3 one reads as tiles."""
    tally = tile_board("tune-small8", 196)
    assert tally.tiles == 6
    assert tally.tiles_right == 6 and tally.tiles_extra == 0 and tally.tiles_missed == 0
    assert tally.meeples_right == tally.meeples == 2


def test_a_block_is_taken_only_where_its_cells_read_as_tiles(tile_board: Callable[[str, int], Tally]) -> None:
    """tune-small4 153: an L of three painted tiles, one cut by the picture's foot, whose outline reads as a strip of
    two. Every grid reads it unsurely; a 2 x 4 block's cells across it read no worse than the combs' three (-11.5
    against -12.0) and, taken, read 1 of 3 with 5 extra. A block must read as tiles itself (`Grid.only_sure`)."""
    tally = tile_board("tune-small4", 153)
    assert tally.tiles == 3
    assert tally.tiles_right == 2 and tally.tiles_extra == 0


def test_block_counts_hold_two_or_more_across_within_the_strips_slack() -> None:
    for aspect in (1.6, 0.6, 2.0, 2.6):
        counts = block_counts(aspect, SPLIT_MOST)
        ratio = max(aspect, 1 / aspect)
        assert counts and all(2 <= m < n and m * n <= SPLIT_MOST for m, n in counts)
        assert all(ratio / STRIP_SLACK <= n / m <= ratio * STRIP_SLACK for m, n in counts)
    assert (2, 3) in block_counts(1.74, SPLIT_MOST)
    assert block_counts(1.74, 5) == []


def test_combs_at_different_fractions_across_and_down_give_way_to_a_stretched_grid(
        tile_board: Callable[[str, int], Tally]) -> None:
    """tune-small8 233: three flat tiles whose combs found half the pitch across and a third of it down (14 cells,
    own cells -15.5), read as 18 tiles, 1 right. Among the grids at 2 x 3, 3 x 2 and 3 x 3 times its pitch
    (`STRETCHES`, each phase) one reads as tiles (-2.1) and is taken."""
    tally = tile_board("tune-small8", 233)
    assert tally.tiles == 3
    assert tally.tiles_right == 3 and tally.tiles_extra == 0 and tally.tiles_missed == 0


def test_stretched_grids_are_offered_only_where_they_must_read_as_tiles(
        tile_picture: Callable[[str, int], np.ndarray]) -> None:
    grid = find_grid(tile_picture("tune-small8", 233))
    assert grid is not None and HALVED_MOST < len(grid.cells) <= COARSE_MOST
    sure = [other for other in grid.others if other.only_sure]
    assert len(sure) >= 1 and all(len(other.cells) <= len(grid.cells) for other in sure)
