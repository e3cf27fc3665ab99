"""The meeple verifier: a tiny CNN that tells a standing meeple from paint of its colour on the tile art.

Candidates come from colour (`meeples.candidates`); the net sees a crop of the rectified board around
each one, the candidate's own pixels and how close every pixel is to its calibrated colour, so it can
use what the outline rules cannot: shading, the shadow a figure casts, roofs' and shields' shapes.
It runs with onnxruntime (`models/tiles-meeples.onnx`); `vision.tiles.train_verifier` trains it.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

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


@lru_cache(maxsize=1)
def _session(path: str) -> Any:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    return ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])


def load(path: Path = MODEL) -> Any | None:
    """The onnxruntime session, or None when the model file is absent (the outline rules decide then)."""
    return _session(str(path)) if path.exists() else None


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


def scores(session: Any, board_bgr: np.ndarray, blobs: list[Blob], patch: int, calibration: Calibration
           ) -> list[float]:
    """Probability that each candidate is a standing meeple."""
    if not blobs:
        return []
    x = inputs(board_bgr, blobs, patch, calibration)
    logits = session.run(None, {session.get_inputs()[0].name: x})[0].reshape(-1)
    return (1 / (1 + np.exp(-logits))).tolist()
