"""Forty-first round (issue 7, session 44): small boards read as one tile. A domino or a U of five tiles in strong
perspective can look as squarish as one tile, their seams no stronger than a tile's own art, and the lone-tile path
took them for one. The combs' grid that splits such an outline into a few tiles is kept beside it (`Grid.others`), and
the reading chooses (`pipeline._read_as`): read as one tile, what the cell shows is like no catalog tile; read as the
tiles they are, each is one (`matcher.catalog_fit`). A lone tile whose combs split it stays one tile. And a grid the
combs find at a fraction of the pitch, with far more cells than a game has tiles, offers every pitch they guessed."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.tiles.evaluate import Tally
from vision.tiles.grid import find_grid
from vision.tiles.pipeline import OTHER_FIT, _fit, _read_as


@pytest.mark.parametrize(("index", "tiles"), [(48, 2), (51, 5), (232, 2)])
def test_a_few_tiles_taken_for_one_are_read_as_they_lie(tile_board: Callable[[str, int], Tally], index: int,
                                                        tiles: int) -> None:
    """tune-small3 48 (a classic domino on a white table, aspect 1.54 in perspective), 51 (a painted U of five
    tiles round an empty cell) and 232 (a modern domino): each read as one tile before, every tile lost."""
    tally = tile_board("tune-small3", index)
    assert tally.tiles == tiles
    assert tally.tiles_right == tiles and tally.tiles_extra == 0 and tally.tiles_missed == 0
    assert tally.meeples_right == tally.meeples == 1


@pytest.mark.parametrize(("name", "index"), [("tune-clear", 132), ("tune-clear", 580), ("tune-modern", 316)])
def test_a_lone_tile_the_combs_split_stays_one(tile_picture: Callable[[str, int], np.ndarray], name: str,
                                               index: int) -> None:
    """Lone tiles whose combs' grid splits their outline in two (a road along the middle): the split reads worse
    than the tile by 0.7-4.7, the closest of the 18 such tuning tiles; the tile is kept."""
    image = tile_picture(name, index)
    grid = find_grid(image)
    assert grid is not None and grid.cells == [(0, 0)]
    assert any(len(other.cells) == 2 for other in grid.others)
    assert all(_fit(image, other) < _fit(image, grid) + OTHER_FIT for other in grid.others)
    assert _read_as(image, grid) is grid


@pytest.mark.parametrize(("name", "index", "tiles", "right"), [("tune-small2", 33, 3, 3), ("tune-small3", 103, 12, 11)])
def test_a_comb_at_a_fraction_of_the_pitch_gives_way(tile_board: Callable[[str, int], Tally], name: str, index: int,
                                                    tiles: int, right: int) -> None:
    """Combs at a fraction of the tiles' pitch held 269 and 127 candidate cells (an L of three flat tiles, one of them
    as tan as the wooden table; twelve classic tiles), read as 271 and 115 extra tiles: far more cells than a game has
    tiles is no board, and the pitch the combs also guessed whose cells read as tiles is taken."""
    tally = tile_board(name, index)
    assert tally.tiles == tiles
    assert tally.tiles_right == right and tally.tiles_extra == 0 and tally.tiles_missed == 0
