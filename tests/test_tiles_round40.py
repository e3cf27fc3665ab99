"""Fortieth round (issue 7): small boards again. Two tiles laid apart, each with a road along its middle and cut by
the picture's frame, were counted as four cells, their roads' edges taken for seams: where the table shows through a
gap between tiles, that line is a seam (`lone_tile._strip_tiles`, `STRIP_GAP`). And a tile at a small board's rim
lying 0.13 tile or more off its grid cell was read from its cell, the table in its edge strip read as city: it is
read where its sides show it against the table (`register.rim_shifts`)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.tiles.evaluate import Tally
from vision.tiles.lone_tile import _strip_tiles
from vision.tiles.reader import PATCH
from vision.tiles.register import rim_shifts

SIDE = 200
TO_UNIT = np.diag([1 / SIDE, 1 / SIDE, 1.0])  # a 200 x 200 px picture is the strip's outline
BLANK = np.full((SIDE, SIDE), 128, np.float32)  # no edge anywhere: the seams tell nothing


def _board_with_gaps(*xs: float) -> np.ndarray:
    board = np.ones((SIDE, SIDE), bool)
    for x in xs:
        board[:, int(x * SIDE) - 3:int(x * SIDE) + 3] = False
    return board


def test_a_strip_without_gaps_is_counted_by_its_sides() -> None:
    """A ratio of 2.9 allows two to four tiles; with no seam and no gap the count nearest it."""
    assert _strip_tiles(BLANK, TO_UNIT, 2.9, _board_with_gaps()) == (3, 1)


@pytest.mark.parametrize(("gaps", "expected"), [((0.5,), (2, 1)), ((0.25, 0.5, 0.75), (4, 1))])
def test_the_table_between_tiles_counts_them(gaps: tuple[float, ...], expected: tuple[int, int]) -> None:
    """The same strip with the table showing across it at its middle is two tiles; at each quarter, four."""
    assert _strip_tiles(BLANK, TO_UNIT, 2.9, _board_with_gaps(*gaps)) == expected
    # the strip down the picture: the same count along the other axis
    assert _strip_tiles(BLANK.T.copy(), TO_UNIT, 1 / 2.9, _board_with_gaps(*gaps).T.copy()) == expected[::-1]


def test_two_tiles_halved_by_their_roads_are_two(tile_board: Callable[[str, int], Tally]) -> None:
    """tune-small2 32 (painted): a D over a U, each with its road across its middle, the picture's frame cutting
    the upper one, laid a little apart: read as four cells (two tiles missed or wrong, three extra) before."""
    tally = tile_board("tune-small2", 32)
    assert tally.tiles == 2
    assert tally.tiles_right == 2 and tally.tiles_extra == 0


def _tile_at(dx: int, dy: int) -> np.ndarray:
    """A board of 3 x 3 cells (48 px, the laid tile in the middle one, cell (0, 0) with x0 = y0 = -1) whose tile lies
    (dx, dy) px off its cell: what `unlike_table` shows."""
    unlike = np.zeros((3 * PATCH, 3 * PATCH), bool)
    unlike[PATCH + dy:2 * PATCH + dy, PATCH + dx:2 * PATCH + dx] = True
    return unlike


@pytest.mark.parametrize("shift", [(0, 5), (-6, 0), (5, -7), (0, 0), (4, 0), (3, 6)])
def test_a_rim_tile_is_read_where_the_table_shows_its_sides(shift: tuple[int, int]) -> None:
    """Shifts under 5 px along an axis are left (`RIM_LEAST`): the reader's windows allow for those."""
    seen = np.ones((3 * PATCH, 3 * PATCH), bool)
    moved = tuple(d if abs(d) >= 5 else 0 for d in shift)
    expected = {} if moved == (0, 0) else {(0, 0): moved}
    assert rim_shifts(_tile_at(*shift), seen, [(0, 0)], -1, -1) == expected


def test_a_side_the_frame_cuts_is_found_where_the_table_shows_before_it() -> None:
    """The picture ends 8 px above the cell: the table between the frame and the tile still shows its side; a tile
    the frame itself cuts shows none there (its other sides still do)."""
    seen = np.ones((3 * PATCH, 3 * PATCH), bool)
    seen[:PATCH - 8] = False
    assert rim_shifts(_tile_at(0, 5), seen, [(0, 0)], -1, -1) == {(0, 0): (0, 5)}
    seen[:PATCH + 8] = False  # the frame cuts the tile: only its bottom side tells, and it says the same
    assert rim_shifts(_tile_at(0, 5), seen, [(0, 0)], -1, -1) == {(0, 0): (0, 5)}


def test_no_side_moves_a_tile_like_the_table_or_one_beside_a_laid_tile_or_an_arm() -> None:
    seen = np.ones((3 * PATCH, 3 * PATCH), bool)
    assert rim_shifts(np.zeros((3 * PATCH, 3 * PATCH), bool), seen, [(0, 0)], -1, -1) == {}
    # the cells around it all laid: no side faces the table
    around = [(i, j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
    assert (0, 0) not in rim_shifts(_tile_at(0, 5), seen, around, -2, -2)
    assert rim_shifts(_tile_at(0, 5), seen, [(0, 0)], -1, -1, frozenset({(0, 0)})) == {}


def test_a_figure_over_the_side_hides_its_columns_only() -> None:
    """A figure hides a fifth of the side's columns (seen False there, as `read_board` passes what figures leave
    seen): the others still find it."""
    seen = np.ones((3 * PATCH, 3 * PATCH), bool)
    seen[PATCH - 10:PATCH + 14, PATCH + 20:PATCH + 26] = False
    assert rim_shifts(_tile_at(0, 5), seen, [(0, 0)], -1, -1) == {(0, 0): (0, 5)}


@pytest.mark.parametrize(("name", "index", "tiles"), [("tune-small", 62, 9), ("tune-small", 76, 6),
                                                      ("tune-small2", 9, 3)])
def test_a_rim_tile_off_its_cell_reads_right(name: str, index: int, tiles: int,
                                             tile_board: Callable[[str, int], Tally]) -> None:
    """tune-small 62 and 76 (classic): the top tile lies 0.13-0.16 tile below its cell, the table filling its cell's
    edge strip, and its road edge read as a city's (O and P read as S); tune-small2 9 (painted): R read as C."""
    tally = tile_board(name, index)
    assert tally.tiles == tiles
    assert tally.tiles_right == tiles and tally.tiles_extra == 0
