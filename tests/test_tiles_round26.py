"""Twenty-sixth round (issue 7): the rim cut for meeples coloured like the table takes the table away off the tiles
only (`pipeline.TABLE_EDGE`), so a figure on a rim tile's cap city, its head over the table, keeps its body.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from vision.tiles.evaluate import EvalConfig, draw_scene
from vision.tiles.pipeline import predict

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"


def _scene(name: str, index: int):  # noqa: ANN202 - (Scene, Calibration, style) as evaluate draws them
    config = EvalConfig.from_dict(yaml.safe_load((DATASETS / f"{name}.yaml").read_text()))
    return draw_scene(config, index)


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
