"""Twenty-second round (issue 7): a farmer on a three-sided city's thin field strip hides where T's road would
cross, and the field it leaves seen between its base and the city now tells R (`reader._field_behind`); the label
map draws the monastery over the end of its road (A), as the art paints it, so a monastery meeple whose foot is
read low stays on the monastery (`geometry.feature_map`)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.tiles.evaluate import EvalConfig, Tally, draw_scene, evaluate_scene
from vision.tiles.geometry import FIELD_LABEL, MONASTERY_LABEL, feature_map, rotate_points
from vision.tiles.matcher import match_board, truth_masks
from vision.tiles.meeples import feature_at
from vision.tiles.reader import PATCH, TileFeatures, read_tile

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_a_monastery_meeple_read_low_stays_on_the_monastery(rotation: int) -> None:
    """A's road ends at the monastery's side; its wide label used to take the monastery's lower third, where
    monastery meeples' feet are read (0.60-0.62 tile down on the tuning boards). The road's own spot is road."""
    low, road = rotate_points(np.array([(0.5, 0.62), (0.5, 0.86)]), rotation)
    assert feature_at("A", rotation, *low) == "monastery"
    assert feature_at("A", rotation, *road) not in ("monastery", "field")


def test_the_monastery_drawn_last_changes_no_field() -> None:
    """A's monastery square is all monastery, and its field is what lies outside the square and the road: the
    generator's farmers and the matcher's field prior read only the field, so every set is drawn as before."""
    labels = feature_map("A")
    inside = np.zeros_like(labels, bool)
    inside[10:22, 10:22] = True  # MONASTERY_HALF 0.17 about the middle, in the 32 px map
    assert (labels[inside] == MONASTERY_LABEL).all()
    assert ((labels == MONASTERY_LABEL) == inside).all()
    assert ((labels == FIELD_LABEL) == ~inside & (labels < 10)).all()


def _figure_on_the_north_edge(letter: str, rotation: int) -> TileFeatures:
    """The tile's catalog geometry with a figure standing on the middle of its north edge, its base 0.2 tile in:
    the blob (as the reader hides it) covers the edge strip from the tile's side to its feet, 0.3 tile wide."""
    not_field, shield = truth_masks(letter, rotation)
    valid = np.ones((PATCH, PATCH), bool)
    valid[:int(0.2 * PATCH), int(0.35 * PATCH):int(0.65 * PATCH)] = False
    return read_tile(not_field, shield, valid)


def test_the_field_below_a_farmer_reads_as_a_field_edge() -> None:
    """R's field strip shows between the figure's feet and the city: the crossing reads low (it was NaN, no
    evidence). T's road shows there as road, which is not taken (a figure's rim reads as not field too): NaN."""
    farmer = _figure_on_the_north_edge("R", 180)
    assert farmer.middles[0] < 0.2
    road_meeple = _figure_on_the_north_edge("T", 180)
    assert np.isnan(road_meeple.middles[0])


@pytest.mark.parametrize("letter", ["R", "T"])
def test_a_meeple_on_the_north_edge_reads_the_tile_under_it(letter: str) -> None:
    """Read alone, with the meeple's foot where it stands: R with a farmer on its strip (round 21's code read T,
    the field prior outweighing the counts) and T with a meeple on its road."""
    reading = match_board({(0, 0): _figure_on_the_north_edge(letter, 180)}, {(0, 0): [(0.5, 0.2)]})[(0, 0)]
    assert (reading.letter, reading.rotation) == (letter, 180)


@pytest.mark.parametrize(("index", "cell"), [(611, (7, 4)), (87, (4, 0))])
def test_tuning_boards_read_right(index: int, cell: tuple[int, int]) -> None:
    """tune-clear 611: a farmer on an R's strip, its R read as T and the farmer on T's road; tune-clear 87: a
    monastery meeple on A read on the road. Every meeple of both boards is now read right."""
    config = EvalConfig.from_yaml(DATASETS / "tune-clear.yaml")
    scene, calibration, style = draw_scene(config, index)
    assert any(m.cell == cell and m.feature in ("field", "monastery") for m in scene.meeples)
    tally = Tally()
    evaluate_scene(scene, calibration, tally, style)
    assert tally.meeples_right == tally.meeples
    assert not any(truth[0] in "RA" for truth, _ in tally.confusions)
