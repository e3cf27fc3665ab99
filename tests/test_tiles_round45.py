"""Forty-fifth round (issue 7, session 48): a shield's blue peeking out round a figure that is not blue. The mask that
hides a figure from the tile reading is grown by a few px (`RIM_KERNEL`), and a knight standing in front of a shield
leaves of it only the px or two round its head, all of them in that rim: the shield read as absent (an S read T)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from vision.tiles.evaluate import Tally
from vision.tiles.meeples import Blob
from vision.tiles.pipeline import _peeking


def test_blue_in_the_rim_counts_beside_figures_not_blue() -> None:
    """Beside a black figure the rim's blue is the shield's; round a blue figure it may be the figure's own edge, and
    outside the rim the reading sees the blue anyway."""
    blue = np.zeros((40, 40), bool)
    blue[8:10, 5:35] = True  # a blue strip touching both figures' tops
    rim = np.zeros((40, 40), bool)
    rim[7:11, :] = True
    black = Blob("black", (10.0, 30.0), (6, 10), np.ones((20, 8), bool))
    blue_figure = Blob("blue", (30.0, 30.0), (26, 10), np.ones((20, 8), bool))
    peeking = _peeking(blue, rim, [black, blue_figure]) > 0
    assert peeking[8:10, 5:20].all()  # beside the black figure
    assert not peeking[8:10, 26:34].any()  # within the blue figure's own rim
    assert not peeking[~rim].any()


def test_a_figure_whose_paint_reads_blue_keeps_its_rim() -> None:
    """A black figure lit navy reads shield blue over much of its paint (`tune-small8.yaml` 186: 0.94 of its px): the
    blue round it is its own, not a shield's."""
    blue = np.zeros((40, 40), bool)
    blue[10:30, 6:14] = True  # the figure's own paint, read blue
    blue[8:10, 6:14] = True  # and its rim, above it
    rim = np.zeros((40, 40), bool)
    rim[7:10, :] = True
    navy = Blob("black", (10.0, 30.0), (6, 10), np.ones((20, 8), bool))
    assert not _peeking(blue, rim, [navy]).any()


def test_a_shield_peeking_round_a_black_knight_is_seen(tile_board: Callable[[str, int], Tally]) -> None:
    """tune5 169: an S at 270 under a black knight on its city, the shield's blue showing a px or two either side of
    the head, all of it in the rim the hidden mask grew the figure by: blue share 0.0016, read T. Now 0.0117: S."""
    tally = tile_board("tune5", 169)
    assert tally.tiles == tally.tiles_right == 8
    assert tally.meeples_right == tally.meeples == 2


def test_a_reading_of_more_tiles_than_a_game_holds_by_half_is_no_board(
        tile_board: Callable[[str, int], Tally]) -> None:
    """tune-small3 144: a strip of two tiles on a streaked table, whose streaks join the board mask; the combs found a
    tenth of the pitch and every cell of art read as a tile, 254 tiles. No reading now, not 252 phantom tiles."""
    tally = tile_board("tune-small3", 144)
    assert tally.tiles == 2 and tally.tiles_missed == 2
    assert tally.tiles_extra == 0 and tally.meeples_extra == 0
