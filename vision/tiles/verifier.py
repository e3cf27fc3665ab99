"""The meeple verifier: a tiny CNN that tells a standing meeple from paint of its colour on the tile art.

Candidates come from colour (`meeples.candidates`); the net sees a crop of the rectified board around
each one, the candidate's own pixels and how close every pixel is to its calibrated colour, so it can
use what the outline rules cannot: shading, the shadow a figure casts, roofs' and shields' shapes.
It runs with OpenCV's dnn module (`models/tiles-meeples.onnx`), which runs the whole batch of crops at
once: onnxruntime 1.32 convolves each crop on its own, and on this net's small maps (12x12 and 6x6) that
took 0.36 ms a crop (1.1 ms with its default NCHWc layout) against 0.1 ms here, with logits equal to
4e-6. `vision.tiles.train_verifier` trains it.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

if TYPE_CHECKING:
    from vision.tiles.meeples import Blob, Calibration

MODEL = Path(__file__).resolve().parents[2] / "models" / "tiles-meeples.onnx"
CROP = 0.5  # tiles: the crop's side, centred on the candidate's box
SIDE = 24  # px of the crop the net sees
CHANNELS = 5  # B, G, R, candidate mask, closeness to its calibrated colour
THRESHOLD = 0.65
DISTANCE_SCALE = 40.0  # Lab units at which closeness reaches 0


@lru_cache(maxsize=4)
def _net(path: str) -> Verifier:
    return Verifier(cv2.dnn.readNetFromONNX(path))


class Verifier:
    """The loaded net; one forward pass at a time (an OpenCV net keeps its input between calls)."""

    def __init__(self, net: cv2.dnn.Net) -> None:
        self._net = net
        self._lock = threading.Lock()

    def logits(self, crops: np.ndarray) -> np.ndarray:
        """(N,) logits for (N, CHANNELS, SIDE, SIDE) float32 crops."""
        with self._lock:
            self._net.setInput(np.ascontiguousarray(crops, np.float32))
            return self._net.forward().reshape(-1).astype(np.float32)


def load(path: Path = MODEL) -> Verifier | None:
    """The verifier, or None when the model file is absent (the outline rules decide then)."""
    return _net(str(path)) if path.exists() else None


def inputs(board_bgr: np.ndarray, blobs: list[Blob], patch: int, calibration: Calibration) -> np.ndarray:
    """(N, CHANNELS, SIDE, SIDE) float32 crops, one per candidate."""
    from vision.tiles.meeples import _distance

    half = int(round(CROP * patch / 2))
    side = 2 * half
    pad = cv2.copyMakeBorder(board_bgr, half, half, half, half, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    out = np.zeros((len(blobs), CHANNELS, SIDE, SIDE), np.float32)
    for n, blob in enumerate(blobs):
        x, y = blob.origin
        h, w = blob.crop.shape
        cx, cy = x + w // 2 + half, y + h // 2 + half  # in padded px
        x0, y0 = int(np.clip(cx - half, 0, pad.shape[1] - side)), int(np.clip(cy - half, 0, pad.shape[0] - side))
        window = np.s_[y0:y0 + side, x0:x0 + side]
        mask = np.zeros((side, side), np.float32)
        mx, my = x + half - x0, y + half - y0
        sub = blob.crop[max(0, -my):side - my, max(0, -mx):side - mx]
        mask[max(0, my):max(0, my) + sub.shape[0], max(0, mx):max(0, mx) + sub.shape[1]] = sub
        lab = cv2.cvtColor(pad[window], cv2.COLOR_BGR2LAB).astype(np.float32)  # only the crop: the board is large
        near = 1 - np.clip(_distance(lab, calibration.colours[blob.colour]) / DISTANCE_SCALE, 0, 1)
        stack = np.dstack([pad[window].astype(np.float32) / 255 - 0.5, mask, near])
        out[n] = cv2.resize(stack, (SIDE, SIDE), interpolation=cv2.INTER_AREA).transpose(2, 0, 1)
    return out


def scores(model: Verifier, board_bgr: np.ndarray, blobs: list[Blob], patch: int, calibration: Calibration
           ) -> list[float]:
    """Probability that each candidate is a standing meeple."""
    if not blobs:
        return []
    logits = model.logits(inputs(board_bgr, blobs, patch, calibration))
    return (1 / (1 + np.exp(-logits))).tolist()
