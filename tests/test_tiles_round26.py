"""Twenty-sixth round (issue 7): a foot's feature is looked up on a fine raster of the catalog's outlines
(`geometry.FOOT_MAP`, `geometry.foot_pixel`), as the art paints them, not on a 32 px map whose rounding moves every
outline by up to 1/32 tile (a city's outwards), so a foot just beside a wall or a road's label reads where it
stands; and the rim cut for meeples coloured like the table takes the table away off the tiles only
(`pipeline.TABLE_EDGE`), so a figure on a rim tile's cap city, its head over the table, keeps its body.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.tiles.evaluate import EvalConfig, draw_scene
from vision.tiles.geometry import CITY_LABEL, rotate_points, rotated_feature_map, shapes
from vision.tiles.meeples import feature_at
from vision.tiles.pipeline import predict

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"


def _scene(name: str, index: int):  # noqa: ANN202 - (Scene, Calibration, style) as evaluate draws them
    config = EvalConfig.from_yaml(DATASETS / f"{name}.yaml")
    return draw_scene(config, index)


def test_a_foot_outside_a_city_outline_reads_field() -> None:
    """G at 90 (its city runs from N to S): a farmer's foot read at (0.250, 0.503), 0.03 tile outside the painted
    city, lay in the city on the 32 px map's rounded outline, and was read on the city."""
    u, v = 0.250, 0.503
    (city,) = [s for s in shapes("G") if s.kind == "city"]
    outline = rotate_points(city.points, 90).astype(np.float32)
    assert cv2.pointPolygonTest(outline, (u, v), True) < -0.02  # outside the outline the art paints
    assert rotated_feature_map("G", 90, 32)[int(v * 32), int(u * 32)] == CITY_LABEL  # the coarse map: in the city
    assert feature_at("G", 90, u, v) == "field"
    assert feature_at("G", 90, 0.5, 0.5) == "N"  # the city's own middle still reads as the city


def test_a_road_meeple_by_the_curve_reads_on_its_road() -> None:
    """tune-hands2 72 (modern, 30 tiles): a blue meeple on L's east road (L at 180), its foot read 0.09 tile below
    its spot, fell on the field beside the coarse map's road and was read as a farmer; now it reads on the road."""
    scene, calibration, _ = _scene("tune-hands2", 72)
    cell = (-1, 1)
    assert scene.board.tiles[cell] == ("L", 180)
    (meeple,) = [m for m in scene.meeples if m.cell == cell]
    assert (meeple.colour, meeple.feature) == ("blue", "E")
    out = predict(scene.image, calibration=calibration)
    centre = scene.corners[cell].mean(axis=0)
    tile = min(out["tiles"], key=lambda t: float(np.linalg.norm(np.mean(t["corners"], axis=0) - centre)))
    assert (tile["letter"], tile["rotation"]) == ("L", 180)
    assert [(m["colour"], m["feature"]) for m in out["meeples"] if m["cell"] == tile["cell"]] == [("blue", "E")]


@pytest.mark.parametrize(("index", "colour"), [(364, "black"), (112, "blue")])
def test_a_figure_over_a_table_of_its_colour_on_a_lone_tiles_city_is_found(index: int, colour: str) -> None:
    """tune-clear 364 (black meeple, dark cloth) and 112 (blue meeple, blue cloth): a lone D, the meeple on its
    city cap 0.14 tile in from the top side, head and shoulders over the table. The rim cut took the table away
    0.06 tile into the square as well, which cut the figure at its waist: 364 left no candidate, 112 only the
    head over the side (its foot on the side, so the rim's lower bar did not apply); both were missed."""
    scene, calibration, _ = _scene("tune-clear", index)
    (meeple,) = scene.meeples
    assert scene.board.tiles == {(0, 0): ("D", 0)} and (meeple.colour, meeple.feature) == (colour, "N")
    out = predict(scene.image, calibration=calibration)
    assert [(t["letter"], t["rotation"]) for t in out["tiles"]] == [("D", 0)]
    assert [(m["colour"], m["feature"]) for m in out["meeples"]] == [(colour, "N")]
