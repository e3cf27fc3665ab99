"""Forty-fifth round (issue 7, session 48): a shield's blue peeking out round a figure that is not blue. The mask that
hides a figure from the tile reading is grown by a few px (`RIM_KERNEL`), and a knight standing in front of a shield
leaves of it only the px or two round its head, all of them in that rim: the shield read as absent (an S read T).
Also: a reading of more tiles than a game holds by half is no board, and a corner city's edges thin towards the far
corner read as a corner city's once the grid is taken."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.tiles.evaluate import Tally
from vision.tiles.matcher import _corner_ends, _edge_logliks, _thin_gain
from vision.tiles.meeples import Blob
from vision.tiles.pipeline import _peeking
from vision.tiles.reader import TileFeatures


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


def test_a_corner_citys_edges_end_at_its_corner() -> None:
    """N at 0 holds N and W, its corner NW: the N edge's first end box and the W edge's second lie there."""
    ends = _corner_ends("N", 0)
    assert ends[0].tolist() == [1.0, 0.0] and ends[3].tolist() == [0.0, 1.0]
    assert not ends[1].any() and not ends[2].any()
    assert not _corner_ends("I", 0).any() and not _corner_ends("C", 0).any() and not _corner_ends("F", 0).any()


def test_an_edge_thin_only_at_its_far_end_reads_as_a_corner_citys() -> None:
    """An N's city edge whose end at the city's corner reads city and whose far end mostly field (the wall's paint
    near the far corner) gains for N's hypotheses; a road's edge, an I's cap thin at both ends, and a hidden end
    do not."""
    def tile(ends_n: tuple[float, float], middle: float, sides: float, clearest: float) -> TileFeatures:
        ends = np.zeros((4, 2))
        ends[0] = ends_n
        return TileFeatures(np.array([sides, 0, 0, 0.0]), np.array([middle, 0, 0, 0.0]), 0.0, np.zeros(4), 0.0, 1.0,
                            np.array([clearest, 0, 0, 0.0]), ends=ends)
    thin = tile((1.0, 0.2), 1.0, 0.6, 0.15)  # N edge: full at NW, thin at NE
    road = tile((0.0, 0.0), 1.0, 0.0, 0.0)
    cap = tile((0.5, 0.5), 1.0, 0.5, 0.1)
    hidden = tile((np.nan, 0.2), 1.0, 0.6, 0.15)
    features = [thin, road, cap, hidden]
    gain = _thin_gain(features, _edge_logliks(features))
    assert gain[0, 0, 0] > 3.0 and gain[0, 0, 1] == 0.0
    assert not gain[1:].any()


@pytest.mark.parametrize(("name", "index", "tiles"), [("tune-small2", 13, 7), ("tune-small2", 108, 6)])
def test_a_corner_city_thin_at_its_far_corner_is_read_whole(tile_board: Callable[[str, int], Tally], name: str,
                                                            index: int, tiles: int) -> None:
    """tune-small2 13 (an N at 180, flat art, a knight on it) and 108 (an N at 180, painted): the wall's paint near the
    far corners left their city edges reading like roads (clearest 0.14-0.33), and each N was read as a V."""
    tally = tile_board(name, index)
    assert tally.tiles == tally.tiles_right == tiles


def test_the_grid_is_still_chosen_by_the_catalogs_geometry(tile_board: Callable[[str, int], Tally]) -> None:
    """tune-small4 9, a strip of three the picture cuts: with the thin edges in the grids' fits, another grid's cells
    read like corner cities by more and it was taken, every tile lost. The fits judge without them."""
    tally = tile_board("tune-small4", 9)
    assert tally.tiles == tally.tiles_right == 3 and tally.tiles_extra == 0
