"""Thirty-third round (issue 7): a shield spot whose city is much less yellow (Lab b*) than the rest of the tile's city
is evidence of the shield where a blurred modern shield leaves the blue mask and the blue lead next to nothing; it
only moves a shield letter against its plain twin (`reader.read_tiles`' `tint` and `cover`, `matcher._greyer`,
`_twin_lift`, `_Table.twin_pairs`, `SPOT_YELLOW`, `SPOT_YELLOW_SCALE`, `SPOT_CITY`, `SPOT_TINT`).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.tiles.matcher as matcher
from vision.tiles.matcher import SPOT_TINT, SPOT_YELLOW, SPOT_YELLOW_SCALE, _greyer, _table, _twin_lift, match_board
from vision.tiles.reader import PATCH, SEEN_GRID, TileFeatures, blue_lead, blue_mask, field_mask, read_tiles
from vision.tiles.render import render_tile
from vision.tiles.styles import STYLES


def _blurred(letter: str, rotation: int, seed: int) -> TileFeatures:
    """A modern tile drawn at 4 x PATCH, blurred hard and shrunk, read as the pipeline reads a board."""
    art = render_tile(letter, rotation, STYLES["modern"], 4 * PATCH, np.random.default_rng(seed))
    art = cv2.resize(cv2.GaussianBlur(art, (0, 0), 10.0), (PATCH, PATCH), interpolation=cv2.INTER_AREA)
    valid = np.ones((PATCH, PATCH), bool)
    b = cv2.cvtColor(art, cv2.COLOR_BGR2LAB)[..., 2]
    return read_tiles(~field_mask(art), blue_mask(art), valid, [(0, 0)], blue_lead(art), b)[0]


def _read(f: TileFeatures) -> tuple[str, int]:
    r = match_board({(0, 0): f})[(0, 0)]
    return r.letter, r.rotation


@pytest.mark.parametrize("letter,rotation,seed", [("M", 0, 0), ("Q", 90, 1), ("S", 270, 2)])
def test_a_blurred_modern_shield_reads_shielded(letter: str, rotation: int, seed: int,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Blurred this hard, the shield leaves the blue mask under 0.002 of the tile and its plain twin won (N, R, T);
    its spot's city is still far greyer than the rest of the city, which now reads the shield."""
    f = _blurred(letter, rotation, seed)
    assert _read(f) == (letter, rotation)
    monkeypatch.setattr(matcher, "SPOT_CITY", 2.0)  # the greyer evidence off: the plain twin, as before
    assert _read(f)[0] == {"M": "N", "Q": "R", "S": "T"}[letter]


@pytest.mark.parametrize("letter,rotation", [("N", 0), ("R", 90), ("T", 270), ("G", 0)])
def test_a_plain_modern_city_stays_plain(letter: str, rotation: int) -> None:
    """A plain city's spot is no greyer than the rest of its city: no evidence, and it reads plain."""
    f = _blurred(letter, rotation, 1)
    assert _greyer([f], _table()).max() < 0.5
    assert _read(f) == (letter, rotation)


def _features(city_b: float, spot_b: float, spot_cover: float = 1.0) -> tuple[TileFeatures, np.ndarray]:
    """A tile all city of b* `city_b` but at M at 0's shield spot (b* `spot_b`, the city covering `spot_cover`)."""
    t = _table()
    spot = t.spots[t.keys.index(("M", 0))][0]
    at = t.spot_cells[:, spot].reshape(SEEN_GRID, SEEN_GRID) > 0
    f = TileFeatures(np.ones(4), np.ones(4), 1.0, np.ones(4), 0.0, 1.0, np.ones(4),
                     tint=np.where(at, spot_b, city_b), cover=np.where(at, spot_cover, 1.0))
    return f, _greyer([f], t)[0, [spot]]


def test_the_greyer_odds_are_a_logistic_in_the_yellow_drop() -> None:
    """Even odds at a drop of `SPOT_YELLOW` in b*, about 3 to 1 `SPOT_YELLOW_SCALE` further, clipped to 0.02-0.98;
    a spot the city covers under `SPOT_CITY` of gives none (0)."""
    city = 35.0
    assert _features(city, city - SPOT_YELLOW)[1][0] == pytest.approx(0.5)
    assert _features(city, city - SPOT_YELLOW - SPOT_YELLOW_SCALE)[1][0] == pytest.approx(1 / (1 + np.exp(-1)))
    assert _features(city, city)[1][0] == pytest.approx(0.02)
    assert _features(city, city - 60)[1][0] == pytest.approx(0.98)
    assert _features(city, city - 60, spot_cover=0.8)[1][0] == 0.0


def test_a_grey_city_gives_no_evidence_and_only_twins_move() -> None:
    """A city tinted under `SPOT_TINT` (grey light, pastel art) gives no greyer evidence; where there is some, only a
    shield letter and its plain twin (same edges and city parts) move: M up and N down by the log odds, I (the same
    edges, two cities) not at all (O and P, whose shield lies at the same spot, move alike)."""
    t = _table()
    grey, g = _features(SPOT_TINT - 5, SPOT_TINT - 45)
    assert g[0] == 0.0 and not _greyer([grey], t).any()
    pairs = {(t.keys[a][0], t.keys[b][0]) for a, b in t.twin_pairs}
    assert pairs == {("F", "G"), ("M", "N"), ("O", "P"), ("Q", "R"), ("S", "T")}
    assert not _twin_lift(_greyer([grey], t), t).any()
    _, yellow = _features(35.0, -10.0)
    spots = np.zeros((1, t.spot_cells.shape[1]))
    spots[0, t.spots[t.keys.index(("M", 0))][0]] = yellow[0]
    moved = _twin_lift(spots, t)[0]
    m, n, i = (t.keys.index((letter, 0)) for letter in "MNI")
    assert moved[m] == pytest.approx(np.log(0.98 / 0.02)) and moved[n] == -moved[m] and moved[i] == 0.0
    assert set(np.flatnonzero(moved)) == {t.keys.index(h) for h in (("M", 0), ("N", 0), ("O", 0), ("P", 0))}
    spots[:] = 0.4  # under even odds: nothing
    assert not _twin_lift(spots, t).any()
