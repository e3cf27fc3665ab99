"""Thirty-ninth round (issue 7): small boards. Every game passes through boards of two to twelve tiles, which no set
drew before (`tune-small.yaml`, `heldout-small.yaml`). A board that is one convex quadrilateral longer than a tile
looks is a strip of tiles one tile wide, counted by its seams and its sides' ratio (`lone_tile._strip_tiles`),
where the comb search had few borders to go by: two tiles were read as one 2:1 cell or as hundreds of cells of a
comb at a seventh of their pitch, and a strip of four as three.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.tiles.evaluate import Tally
from vision.tiles.lone_tile import _strip_tiles

UNIT = np.eye(3)


@pytest.mark.parametrize(("index", "tiles"), [(48, 2), (112, 2), (88, 2), (114, 4)])
def test_a_strip_of_tiles_is_read_tile_by_tile(index: int, tiles: int, tile_board: Callable[[str, int], Tally]) -> None:
    """tune-small 48 (painted) and 112 (classic): two tiles on a comb at a seventh of their pitch (245 and 103 extra
    tiles); 88: two tiles as one 2:1 cell; 114: a strip of four as three cells."""
    tally = tile_board("tune-small", index)
    assert tally.tiles == tiles
    assert tally.tiles_right == tiles and tally.tiles_extra == 0


@pytest.mark.parametrize(("index", "tiles"), [(1, 3), (4, 6)])
def test_a_long_strip_and_a_board_of_steps_keep_their_counts(index: int, tiles: int,
                                                             tile_board: Callable[[str, int], Tally]) -> None:
    """tune-small 1: three tiles whose outline runs 3.5 times its width (perspective) and whose first seam, between
    two fields, is faint, while a meeple and a road lie along the middle lines of four; 4: six tiles in two columns,
    one convex outline they do not fill (no strip: the general search reads it)."""
    tally = tile_board("tune-small", index)
    assert tally.tiles == tiles
    assert tally.tiles_right == tiles and tally.tiles_extra == 0


@pytest.mark.parametrize(("aspect", "expected"), [(2.0, (2, 1)), (1 / 2.3, (1, 2)), (1 / 3.6, (1, 4)),
                                                  (3.2, (3, 1))])
def test_a_strip_that_shows_no_seam_is_counted_by_its_sides(aspect: float, expected: tuple[int, int]) -> None:
    """No edge anywhere (a blank picture): the count nearest the sides' ratio, as a lone tile needs no border."""
    assert _strip_tiles(np.full((200, 200), 128, np.float32), UNIT, aspect, np.ones((200, 200), bool)) == expected
