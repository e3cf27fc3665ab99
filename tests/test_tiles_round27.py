"""Twenty-seventh round (issue 7): of the blobs that are one meeple, one whose foot stands on a tile stands for it
(`meeples._distinct`'s `stands`), and a cell beyond the grid's candidates that only blue showed is no tile to stand
on (`pipeline._confirmed`'s second answer): it may be a blue figure's head over the table.

A blue figure on a lone tile's cap city stands with its head over the next square; its blue read as a shield there
made a tile of a grey cloth (a C), and the figure's blob nearest a meeple's usual size, its foot a hair above its
own tile's side, stood on that C: the meeple was read there (one missed, one extra).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.tiles.evaluate import EvalConfig, draw_scene
from vision.tiles.meeples import Blob, _distinct
from vision.tiles.pipeline import predict

DATASETS = Path(__file__).resolve().parents[1] / "datasets" / "tiles"


def _scene(name: str, index: int):  # noqa: ANN202 - (Scene, Calibration, style) as evaluate draws them
    config = EvalConfig.from_yaml(DATASETS / f"{name}.yaml")
    return draw_scene(config, index)


def test_a_blue_figure_by_its_tiles_side_is_read_on_its_tile() -> None:
    """tune-modern 60: a lone D on a grey cloth, a blue meeple on its city cap. The cell above is still read (a C
    its blue shows), but the meeple now stands on the D's city, not on that C."""
    scene, calibration, _ = _scene("tune-modern", 60)
    (meeple,) = scene.meeples
    assert scene.board.tiles == {(0, 0): ("D", 0)} and (meeple.colour, meeple.feature) == ("blue", "N")
    out = predict(scene.image, calibration=calibration)
    centre = scene.corners[(0, 0)].mean(axis=0)
    tile = min(out["tiles"], key=lambda t: float(np.linalg.norm(np.mean(t["corners"], axis=0) - centre)))
    assert (tile["letter"], tile["rotation"]) == ("D", 0)
    assert [(m["colour"], m["cell"], m["feature"]) for m in out["meeples"]] == [("blue", tile["cell"], "N")]


def test_a_meeple_is_a_blob_whose_foot_stands_on_a_tile() -> None:
    """Of one figure's blobs, the one nearest a meeple's usual size (0.048 tile², its foot 0.001 tile above its
    tile's side) stood for it, while a larger one (0.057, its foot 0.045 tile in) stood on the tile: the one that
    stands is chosen, and without a tile to stand on the usual size still decides."""
    patch = 48
    near_usual = np.ones((10, 11), bool)  # 110 px: 0.048 tile²
    larger = np.ones((12, 11), bool)  # 132 px: 0.057 tile²
    blobs = [Blob("blue", (70.0, 47.95), (63, 34), near_usual), Blob("blue", (68.0, 50.2), (62, 34), larger)]

    def stands(blob: Blob) -> bool:
        return blob.foot[1] >= patch  # the tile below the board's first row of squares

    assert _distinct(blobs, patch, [0.85, 0.84]) == [blobs[0]]
    assert _distinct(blobs, patch, [0.85, 0.84], stands) == [blobs[1]]
