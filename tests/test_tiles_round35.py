"""Thirty-fifth round (issue 7): a grid whose first fits drift across a small board is grown from the board's
middle outwards (`grid._grown`, `_grown_best`), and a grid at a third of the tiles' pitch whose cells fill whole
3 x 3 blocks is taken at the tiles' pitch (`grid._whole_blocks`); a cell a shield alone shows must show one blue
patch of a shield's size (`pipeline.SHIELD_PX`), not the colour fringe where a dark table meets the tiles around a hole.

Both boards once read a grid off the tiles: tune-clear 267 (72 small modern tiles on wood, about 17 working px a
tile) drifted half a tile across its upper half, its vanishing points placed badly by the short tile sides; the
8 modern tiles of tune-modern 589 (modern-x 109), laid apart and askew, were read as 72 cells at a third of their
pitch, roads and city walls inside the tiles giving a wrong phase of the coarser grid the strongest borders.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.tiles.evaluate import Tally
from vision.tiles.grid import _whole_blocks


def test_a_grid_drifting_across_a_small_board_is_grown_from_its_middle(tile_board: Callable[[str, int], Tally]) -> None:
    """tune-clear 267: 46 of 72 tiles read right and 19 extra before; every tile found, at most three misread (shield
    twins and a T read S: 28 px tiles)."""
    tally = tile_board("tune-clear", 267)
    assert tally.tiles == 72 and tally.tiles_missed == 0 and tally.tiles_extra == 0
    assert tally.tiles_right >= 69


def test_a_grid_at_a_third_of_the_pitch_is_taken_at_the_tiles_pitch(tile_board: Callable[[str, int], Tally]) -> None:
    """tune-modern 589 (modern-x 109): 8 tiles read as 73 cells (65 extra, 7 misread) before; now every tile right."""
    tally = tile_board("tune-modern", 589)
    assert tally.tiles == 8 and tally.tiles_right == 8
    assert tally.tiles_extra <= 1  # a lone cell of gap and shadow between the askew tiles


def test_cells_in_whole_three_by_three_blocks_are_a_grid_at_a_third_of_the_pitch() -> None:
    """Each tile seen as 3 x 3 cells fills aligned blocks; the board the blocks make, laid by play, does not."""
    tiles = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (3, 2)]
    thirds = [(3 * i + di + 2, 3 * j + dj + 1) for i, j in tiles for di in range(3) for dj in range(3)]
    coarse = _whole_blocks(thirds, np.eye(3))
    assert coarse is not None
    # the block holding cells (2..4, 1..3) is the tile (0, 0) at three times the pitch
    for x, y in [(2.5, 1.5), (4.5, 3.5)]:
        u, v, w = coarse @ np.array([x, y, 1.0])
        assert (int(np.floor(u / w)), int(np.floor(v / w))) == (0, 0)
    assert _whole_blocks(thirds[:-2], np.eye(3)) is not None  # two cells lost (a meeple, an arm) still tell
    # a board laid by play at the tiles' own pitch: a winding road of 40 tiles fills no whole blocks
    board = [(i, j) for j in range(0, 10, 2) for i in range(8)]
    assert _whole_blocks(board, np.eye(3)) is None


def test_a_hole_in_the_board_on_a_dark_table_is_no_tile(tile_board: Callable[[str, int], Tally]) -> None:
    """tune-clear 175 (72 modern tiles on a dark cloth): the blur's colour fringe where the table meets the tiles
    around four holes made blue bits of 9-12 px in each, which passed for a shield (7 extra tiles before)."""
    tally = tile_board("tune-clear", 175)
    assert tally.tiles_right == tally.tiles == 72
    assert tally.tiles_extra <= 3  # two holes a misfitted grid shows some field in, one with a 21 px fringe
