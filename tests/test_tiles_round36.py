"""Thirty-sixth round (issue 7): a figure standing on a monastery whose blob is smaller than a figure's there
(`pipeline.ROOF_AREA`) must pass the verifier on its own, with the calibrated colours (`pipeline._not_roofs`): a
monastery's roof is a patch of red paint in the middle of its tile, and the second chances a figure gets elsewhere
let part of it through as a red meeple.

tune-clear 59 (flat tiles, a red meeple on one monastery and a bare monastery's roof taken for another: verifier
0.43, 0.028 tile squared) and 339 (classic, a roof at 0.28) each read one red meeple too many before. tune 119 (a
red meeple on a monastery the verifier scores 0.48, its blob 0.0295 tile squared), tune-clear 122 (a yellow one
scored 0.66) and tune4 96 (a blue one whose blob a shield joined) stand as they did.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from vision.tiles.evaluate import Tally


@pytest.mark.parametrize("index", [59, 339])
def test_a_monastery_roof_is_no_red_meeple(index: int, tile_board: Callable[[str, int], Tally]) -> None:
    tally = tile_board("tune-clear", index)
    assert tally.meeples == 8
    assert tally.meeples_extra == 0
    assert tally.meeples_right == 8


@pytest.mark.parametrize(("name", "index"), [("tune", 119), ("tune-clear", 122), ("tune4", 96)])
def test_a_meeple_on_a_monastery_stays(name: str, index: int, tile_board: Callable[[str, int], Tally]) -> None:
    tally = tile_board(name, index)
    assert tally.meeples == 8
    assert tally.meeples_right == 8 and tally.meeples_missed == 0
