"""Edition enrollment (tiles A..X in the 5 x 5 grid) and Strijders enrollment (one photo per card)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.enroll import synthetic as sy
from vision.enroll.canon import jittered, turn_corners
from vision.enroll.deck import EnrollError
from vision.enroll.edition import enroll_edition
from vision.enroll.grids import tile_grid
from vision.enroll.matcher import Matcher
from vision.enroll.strijders import enroll_catalog
from vision.tiles.catalog import canonical_rotation

CATALOG = Path(__file__).resolve().parents[1] / "datasets" / "strijders" / "catalog.json"


def test_tile_grid_has_every_letter_and_a_hole() -> None:
    grid = tile_grid()
    assert len(grid) == 5 and all(len(row) == 5 for row in grid)
    assert grid[0] == ("A", "B", "C", "D", "E") and grid[4] == ("U", "V", "W", "X", None)


def test_edition_letter_and_rotation_on_boards() -> None:
    rng = np.random.default_rng(2)
    photo = sy.edition_photo(sy.AUTUMN, tile_grid(), rng)
    profile, _ = enroll_edition("autumn", [photo.image])
    assert profile.labels[0] == "A" and len(profile.labels) == 24
    matcher = Matcher(profile)
    ok = n = 0
    for _ in range(2):
        image, found = sy.board_scene(sy.AUTUMN, rng, 14)
        outlines = np.stack([jittered(c, rng, 0.03) for _, _, c in found])
        for (letter, rotation, _), got in zip(found, matcher.identify_many(image, outlines), strict=True):
            n += 1
            ok += got.label == letter and canonical_rotation(letter, got.rotation) == canonical_rotation(letter,
                                                                                                        rotation)
    assert ok / n >= 0.8  # a floor; the measured figure is in models/enroll.md


def test_edition_photo_without_tiles_is_refused() -> None:
    with pytest.raises(EnrollError, match="photo 1"):
        enroll_edition("x", [sy.cloth(np.random.default_rng(1), 600, 600)])
    with pytest.raises(EnrollError, match="at least one photo"):
        enroll_edition("x", [])


@pytest.fixture(scope="module")
def catalog() -> list[dict[str, object]]:
    return json.loads(CATALOG.read_text(encoding="utf-8"))["cards"][:10]


def test_strijders_cards_found_in_scenes(catalog: list[dict[str, object]]) -> None:
    rng = np.random.default_rng(9)
    ids = [str(c["id"]) for c in catalog]
    shots = [(str(c["id"]), sy.strijders_photo(c, rng).image) for c in catalog]
    profile, notes = enroll_catalog("ours", shots, ids + ["extra"])
    assert notes == ["no photo yet for: extra"] and profile.manifest["missing"] == ["extra"]
    matcher = Matcher(profile)
    ok = n = 0
    for _ in range(3):
        picked = [catalog[i] for i in rng.choice(len(catalog), 4, replace=False)]
        image, found = sy.strijders_scene(picked, rng)
        outlines = np.stack([turn_corners(jittered(c, rng, 0.03), 2 * int(rng.integers(2))) for _, c in found])
        for (card_id, _), got in zip(found, matcher.identify_many(image, outlines), strict=True):
            n += 1
            ok += got.label == card_id
    assert ok >= n - 1


def test_strijders_refusals(catalog: list[dict[str, object]]) -> None:
    rng = np.random.default_rng(1)
    shot = sy.strijders_photo(catalog[0], rng).image
    with pytest.raises(EnrollError, match="not in the catalog: nope"):
        enroll_catalog("x", [("nope", shot)], ["boer"])
    with pytest.raises(EnrollError, match="more than one photo for: boer"):
        enroll_catalog("x", [("boer", shot), ("boer", shot)])
    with pytest.raises(EnrollError, match="boer: no card found"):
        enroll_catalog("x", [("boer", sy.cloth(rng, 400, 500))])
