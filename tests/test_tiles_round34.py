"""Thirty-fourth round (issue 7): no meeple stands on a tile's corner. Where four tiles meet, the gaps between them
show dark table or a shadow; a black candidate there passed the verifier and was read as an extra meeple. A foot
within `CORNER` of its tile's corner along both axes is dropped before the one-per-tile choice
(`pipeline._off_corners`, `_on_corner`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import vision.tiles.pipeline as pipeline
from vision.tiles.evaluate import EvalConfig, Tally, draw_scene, evaluate_scene
from vision.tiles.meeples import Blob
from vision.tiles.pipeline import CORNER, _off_corners, _on_corner, _one_per_tile
from vision.tiles.reader import PATCH

SETS = Path(__file__).resolve().parent.parent / "datasets" / "tiles"


def _blob(colour: str) -> Blob:
    return Blob(colour, (0.0, 0.0), (0, 0), np.ones((8, 6), bool))


@pytest.mark.parametrize("u,v", [(0.05, 0.06), (0.07, 0.03), (0.95, 0.98), (0.01, 0.999), (0.92, 0.05)])
def test_a_foot_in_a_corner_is_no_meeple(u: float, v: float) -> None:
    """The extra meeples' feet on the tuning sets (tune2 47, tune-clear 339, tune4 233, tune-hands2 50, ...)."""
    assert _on_corner(((0, 0), u, v))


@pytest.mark.parametrize("u,v", [(0.109, 0.999), (0.5, 0.02), (0.02, 0.5), (0.155, 0.155), (0.5, 0.5), (0.86, 0.5)])
def test_a_foot_by_one_side_or_off_the_corner_stands(u: float, v: float) -> None:
    """A city cap's figure stands by the middle of a side (its foot read up to 0.001 from it), and the true feet
    nearest a corner on the tuning sets lie 0.109-0.16 off it along one axis."""
    assert not _on_corner(((0, 0), u, v))
    assert not _on_corner(None)
    assert CORNER == 0.1


def test_the_corner_blob_leaves_its_tile_to_the_next() -> None:
    """Dropped before `_one_per_tile`: the tile's next candidate is kept, and a foot off the laid tiles stays for
    `_place_meeples` to drop as before."""
    cells = {(0, 0), (1, 0)}
    corner, middle, other, beyond = _blob("black"), _blob("red"), _blob("yellow"), _blob("blue")
    feet = [(0.04 * PATCH, 0.05 * PATCH), (0.5 * PATCH, 0.4 * PATCH), (1.5 * PATCH, 0.95 * PATCH),
            (3.5 * PATCH, 0.5 * PATCH)]
    blobs, kept = _off_corners([corner, middle, other, beyond], feet, cells, 0, 0)
    assert [b.colour for b in blobs] == ["red", "yellow", "blue"]
    assert kept == feet[1:]
    blobs, _ = _one_per_tile(blobs, kept, cells, 0, 0)
    assert [b.colour for b in blobs] == ["red", "yellow", "blue"]


def test_tune_clear_297_reads_no_meeple_in_a_corner(monkeypatch: pytest.MonkeyPatch) -> None:
    """`tune-clear.yaml` board 297 (8 painted tiles): a black candidate where four tiles meet, its foot at (0.97,
    1.00) of an E, was an extra meeple; every true meeple still reads right."""
    config = EvalConfig.from_yaml(SETS / "tune-clear.yaml")
    scene, calibration, style = draw_scene(config, 297)
    tally = Tally()
    evaluate_scene(scene, calibration, tally, style)
    assert (tally.meeples_right, tally.meeples_extra) == (tally.meeples, 0)
    monkeypatch.setattr(pipeline, "CORNER", 0.0)  # the rule off: the extra meeple, as before
    before = Tally()
    evaluate_scene(scene, calibration, before, style)
    assert (before.meeples_right, before.meeples_extra) == (tally.meeples, 1)
