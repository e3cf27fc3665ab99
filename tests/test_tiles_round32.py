"""Thirty-second round (issue 7): a shield spot whose blue leads red and green by a few levels on average is evidence
for the shield though the strict blue mask reads (next to) nothing there: a blurred modern shield mixes its blue with
the city's tan (`reader.blue_lead`, `TileFeatures.lead`, `matcher.SPOT_LEAD`, `SPOT_LEAD_SCALE`).
"""

from __future__ import annotations

import numpy as np

from vision.tiles.matcher import SPOT_LEAD, _shield_scores, _table
from vision.tiles.reader import PATCH, SEEN_GRID, TileFeatures, blue_lead, read_tiles


def _twin_odds(lead: np.ndarray) -> float:
    """Log odds of S at 270 against its plain twin T at 270: no strict blue, the tile seen whole, `lead` per cell."""
    t = _table()
    shield, plain = t.keys.index(("S", 270)), t.keys.index(("T", 270))
    f = TileFeatures(np.zeros(4), np.zeros(4), 0.0, np.zeros(4), 0.0, 1.0, np.zeros(4), lead=lead)
    scores = _shield_scores(f, t)
    return float(scores[shield] - scores[plain])


def test_a_blurred_shields_blue_lead_at_its_spot_counts_for_the_shield() -> None:
    """Blurred modern shields (tune-modern 197, 355, modern-x 411) left the blue mask a px or two, under
    `SHIELD_BLUE`, and the plain twin won though the spot's blue led by 6-20 levels. A lead of twice `SPOT_LEAD` at
    S at 270's spot now puts the shield ahead; no lead, or the little a plain city shows (under 2), leaves the plain
    twin well ahead as before; the same lead off every shield spot says nothing."""
    t = _table()
    spot = t.spot_cells[:, t.spots[t.keys.index(("S", 270))][0]].reshape(SEEN_GRID, SEEN_GRID) > 0
    none = _twin_odds(np.zeros((SEEN_GRID, SEEN_GRID)))
    assert none < -2.0
    assert _twin_odds(np.where(spot, 1.8, 0.0)) < -1.5
    assert _twin_odds(np.where(spot, 2 * SPOT_LEAD, 0.0)) > 1.0
    far = np.where(t.spot_cells.sum(axis=1).reshape(SEEN_GRID, SEEN_GRID) > 0, 0.0, 2 * SPOT_LEAD)  # off every spot
    assert _twin_odds(far) == none
    assert _twin_odds(np.where(spot, 2 * SPOT_LEAD, 0.0)) > _twin_odds(np.where(spot, SPOT_LEAD, 0.0)) > none


def test_the_lead_map_is_blue_over_red_and_green_per_seen_cell() -> None:
    """`blue_lead` is blue's lead over the larger of red and green, 0 where it trails; `read_tiles` averages it over
    each cell, a hidden px counting 0, and leaves it 0 without a lead map."""
    bgr = np.zeros((PATCH, PATCH, 3), np.uint8)
    bgr[...] = (90, 120, 150)  # tan: blue trails
    bgr[:PATCH // 2] = (130, 110, 100)  # blue leads by 20
    lead = blue_lead(bgr)
    assert lead[0, 0] == 20 and lead[-1, -1] == 0
    valid = np.ones((PATCH, PATCH), bool)
    valid[:, :PATCH // 2] = False  # the left half hidden
    empty = np.zeros((PATCH, PATCH), bool)
    f = read_tiles(empty, empty, valid, [(0, 0)], lead)[0]
    assert f.lead[0, -1] == 20 and f.lead[0, 0] == 0 and f.lead[-1, -1] == 0
    assert not read_tiles(empty, empty, valid, [(0, 0)])[0].lead.any()
