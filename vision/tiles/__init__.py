"""Carcassonne board vision: tiles (letter, rotation), meeples (colour, feature) from one picture.

`predict(image)` is the entry point `companion analyze --game carcassonne` calls; the heavy modules
load on first use so importing `vision.tiles` costs nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def predict(image: np.ndarray, start_cell: tuple[int, int] | None = None, calibration: Any = None) -> dict[str, Any]:
    """{"tiles": [...], "meeples": [...]} for a BGR image; see `vision.tiles.pipeline.predict`."""
    from vision.tiles.pipeline import predict as run

    return run(image, start_cell=start_cell, calibration=calibration)
