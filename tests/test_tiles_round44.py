"""Forty-fourth round (issue 7, session 47): the field wedge between an I's two city caps judged on the part of the
diagonal a figure leaves seen. A meeple on one cap stands over the tile's middle, hides the deeper windows along the
diagonal, and the wedge read as no evidence then (any window hidden): the catalog's counts read the tile as the corner
city N."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from vision.tiles.evaluate import Tally
from vision.tiles.reader import WEDGE_LEAST, WEDGE_PX, _least_seen


def test_the_wedge_is_the_least_share_of_the_windows_seen() -> None:
    shares = np.full((len(WEDGE_PX), 3), np.nan)
    shares[:, 0] = np.linspace(1.0, 0.2, len(WEDGE_PX))  # all seen: the least of them
    shares[:4, 1] = [1.0, 1.0, 0.4, 0.6]  # the deeper windows under a figure: the least of those seen
    shares[:WEDGE_LEAST - 1, 2] = 0.0  # too few seen to judge: no evidence
    least = _least_seen(shares)
    assert least[0] == pytest.approx(0.2) and least[1] == pytest.approx(0.4)
    assert np.isnan(least[2])


@pytest.mark.parametrize(("name", "index", "tiles"), [("tune-small3", 71, 12), ("tune-small4", 182, 9)])
def test_an_i_under_a_figure_on_its_cap_reads_as_two_caps(tile_board: Callable[[str, int], Tally], name: str,
                                                          index: int, tiles: int) -> None:
    """tune-small3 71 (an I at 270 under a red knight on its south cap) and tune-small4 182 (an I at 180 under a
    black farmer below its middle): the windows near the corner show the field between the caps, the deeper ones lie
    under the figure. Each board read N there, one tile wrong; now every tile right."""
    tally = tile_board(name, index)
    assert tally.tiles == tiles
    assert tally.tiles_right == tiles and tally.tiles_extra == 0
