"""Forty-second round (issue 7, session 45): small boards whose combs found a grid at half the tiles' pitch with a few
dozen cells (no whole 2 x 2 blocks to tell it), and L-shaped or cut boards read as one tile whose combs' grid the
split test refused. A grid of at most COARSE_MOST cells offers the grid at twice its pitch at each of its four phases,
a lone outline offers the combs' grid and what that offers in turn, and the reading takes whichever reads most like
catalog tiles (`pipeline._read_as`). Those offers are looked for only where the grid's own cells read unlike tiles
(OWN_SURE): most grids' do, and looking costs a comb search or four more readings."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.tiles.evaluate import Tally
from vision.tiles.grid import COARSE_MOST, MANY_CELLS, find_grid
from vision.tiles.pipeline import OWN_SURE, _fit, _read_as


@pytest.mark.parametrize(("name", "index", "tiles", "right", "extra"),
                         [("tune-small4", 124, 6, 5, 2), ("tune-small4", 147, 5, 5, 0), ("tune-small4", 224, 2, 2, 0)])
def test_a_grid_at_half_the_pitch_gives_way_to_twice_it(tile_board: Callable[[str, int], Tally], name: str,
                                                         index: int, tiles: int, right: int, extra: int) -> None:
    """Combs at half the pitch held 28, 18 and 7 cells (six flat tiles in three blocks, five painted tiles, a flat
    domino): read as 24, 17 and 5 extra tiles, none right. At twice the pitch, at the phase whose cells read as
    tiles, they read as they lie (124: one of six is still read S for T, two cells beside the board as tiles)."""
    tally = tile_board(name, index)
    assert tally.tiles == tiles
    assert tally.tiles_right == right and tally.tiles_extra == extra and tally.tiles_missed == 0


@pytest.mark.parametrize(("name", "index", "tiles"), [("tune-small4", 113, 3), ("tune-small3", 155, 5)])
def test_a_board_read_as_one_tile_takes_the_combs_grid(tile_board: Callable[[str, int], Tally], name: str,
                                                       index: int, tiles: int) -> None:
    """113: an L of three classic tiles whose mask reaches the picture's top (the table's dark grain), read as one
    tile spanning the L's hull, whose corner lay beyond the picture: the combs' 3-cell grid spans less than 0.75 of
    that quadrilateral and was refused as no split of it. 155: five painted tiles cut by the picture's foot, read as
    one; the combs' grid held 20 cells, at half the pitch. Both read every tile now."""
    tally = tile_board(name, index)
    assert tally.tiles == tiles
    assert tally.tiles_right == tiles and tally.tiles_extra == 0 and tally.tiles_missed == 0
    assert tally.meeples_right == tally.meeples == 1


def test_a_grid_whose_cells_read_as_tiles_looks_for_no_other(tile_picture: Callable[[str, int], np.ndarray]) -> None:
    """A lone tile (tune-clear 132) whose combs split it in two: its own cell reads as a tile (OWN_SURE), so the
    comb search behind its other grid is never run; asked for, the split is there and reads worse."""
    image = tile_picture("tune-clear", 132)
    grid = find_grid(image)
    assert grid is not None and grid.cells == [(0, 0)] and grid.offers is not None
    assert _fit(image, grid) >= OWN_SURE
    assert _read_as(image, grid) is grid
    assert "others" not in grid.__dict__  # `Grid.others` is a cached property: never computed
    assert any(len(other.cells) == 2 for other in grid.others)
    assert all(_fit(image, other) < _fit(image, grid) for other in grid.others)


def test_a_large_grid_looks_for_others_only_when_its_reading_reads_unlike_tiles(
        tile_picture: Callable[[str, int], np.ndarray]) -> None:
    """A 72-tile board (tune 3) read at the tiles' pitch holds more than COARSE_MOST cells and fewer than a broken
    comb's: its others are looked for only after its reading (`Grid.late`, session 46), which reads as tiles, so
    none is looked for (the benchmark's boards are such)."""
    from vision.tiles.meeples import Calibration
    from vision.tiles.pipeline import read_board

    image = tile_picture("tune", 3)
    grid = find_grid(image)
    assert grid is not None and COARSE_MOST < len(grid.cells) <= MANY_CELLS * 72
    assert grid.late and grid.offers is not None
    assert _read_as(image, grid) is grid
    fits: list[float] = []
    read_board(image, grid, Calibration(), fits=fits)
    assert len(fits) == 1 and fits[0] >= OWN_SURE
    assert "others" not in grid.__dict__


def test_a_compact_block_read_by_its_borders_takes_the_combs_grid(tile_board: Callable[[str, int], Tally]) -> None:
    """tune-small5 83: five modern tiles, two columns laid a third of a tile apart, whose outline's hull is squarish
    and whose inner borders read as a compact 2 x 2 block: every cell straddled two tiles (0 of 5 right). A compact
    block now offers the combs' grid too (5 cells), which reads as tiles."""
    tally = tile_board("tune-small5", 83)
    assert tally.tiles == 5
    assert tally.tiles_right == 5 and tally.tiles_extra == 0 and tally.tiles_missed == 0
    assert tally.meeples_right == tally.meeples == 1


def test_closing_leaves_the_table_between_a_board_and_the_picture_edge() -> None:
    """OpenCV's erosion takes what lies beyond the picture as foreground, so a closing filled the table between a
    board and the picture's edge wherever they lay nearer than its disc: the outline then ran along the edge and the
    grid's rows slid (tune-small5 196 and 74, tune-small4 9). The mask is now closed as if table lay beyond."""
    from vision.tiles.board_mask import _close_channels

    mask = np.zeros((200, 300), bool)
    mask[6:150, 40:120] = True  # a board 6 px below the picture's top
    mask[6:150, 124:200] = True  # and beside it, across a 4 px channel (a pale road on a pale table)
    closed = _close_channels(mask)
    assert not closed[:5, :].any()  # the table above stays table
    assert closed[60, 120:124].all()  # the channel is closed
    assert (closed | ~mask).all()  # a closing only adds


@pytest.mark.parametrize(("name", "index", "tiles"), [("tune-small5", 196, 6), ("tune-small5", 74, 4),
                                                      ("tune-small4", 9, 3)])
def test_a_board_near_the_picture_edge_keeps_its_rows(tile_board: Callable[[str, int], Tally], name: str, index: int,
                                                      tiles: int) -> None:
    """Boards a few pixels from the picture's top (196, 9) or cut by it (74): read with a row off (196: H and E
    swapped between the top row's cells, 74: D read W) or at a third of the pitch (9: 22 extra tiles); every tile
    right now."""
    tally = tile_board(name, index)
    assert tally.tiles == tiles
    assert tally.tiles_right == tiles and tally.tiles_extra == 0 and tally.tiles_missed == 0
