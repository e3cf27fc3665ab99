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


def inputs(board_bgr: np.ndarray, blobs: list[Blob], patch: int, calibration: Calibration,
           lab: np.ndarray | None = None, refs: np.ndarray | None = None) -> np.ndarray:
    """(N, CHANNELS, SIDE, SIDE) float32 crops, one per candidate, all cut at once.

    `lab`, when the caller has it, is the board in Lab (uint8, as OpenCV converts it) and saves a conversion.
    `refs`: (N, 3) Lab colour each candidate's closeness is measured to (default: its calibrated colour).
    """
    from vision.tiles.meeples import _distance

    half = int(round(CROP * patch / 2))
    side = 2 * half
    out = np.zeros((len(blobs), CHANNELS, SIDE, SIDE), np.float32)
    if not blobs:
        return out
    if lab is None:
        lab = cv2.cvtColor(board_bgr, cv2.COLOR_BGR2LAB)
    black = cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2LAB)[0, 0]  # the padding as Lab sees it
    pad = cv2.copyMakeBorder(board_bgr, half, half, half, half, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    pad_lab = cv2.copyMakeBorder(lab, half, half, half, half, cv2.BORDER_CONSTANT, value=tuple(map(int, black)))
    origin = np.array([b.origin for b in blobs])  # (N, 2) x, y
    size = np.array([b.crop.shape[::-1] for b in blobs])  # (N, 2) w, h
    centre = origin + size // 2 + half  # in padded px
    x0 = np.clip(centre[:, 0] - half, 0, pad.shape[1] - side)
    y0 = np.clip(centre[:, 1] - half, 0, pad.shape[0] - side)
    rows = (y0[:, None] + np.arange(side))[:, :, None]
    cols = (x0[:, None] + np.arange(side))[:, None, :]
    bgr = pad[rows, cols].astype(np.float32) / 255 - 0.5  # (N, side, side, 3)
    if refs is None:
        refs = np.stack([calibration.colours[b.colour] for b in blobs])
    refs = np.asarray(refs, np.float32)[:, None, None, :]
    near = 1 - np.clip(_distance(pad_lab[rows, cols].astype(np.float32), refs) / DISTANCE_SCALE, 0, 1)
    mask = np.zeros((len(blobs), side, side), np.float32)
    for n, blob in enumerate(blobs):
        mx, my = origin[n, 0] + half - x0[n], origin[n, 1] + half - y0[n]
        sub = blob.crop[max(0, -my):side - my, max(0, -mx):side - mx]
        mask[n, max(0, my):max(0, my) + sub.shape[0], max(0, mx):max(0, mx) + sub.shape[1]] = sub
    stack = np.concatenate([bgr, mask[..., None], near[..., None]], axis=3)  # (N, side, side, CHANNELS)
    if side != SIDE:
        stack = np.stack([cv2.resize(s, (SIDE, SIDE), interpolation=cv2.INTER_AREA) for s in stack])
    out[:] = stack.transpose(0, 3, 1, 2)
    return out


def scores(model: Verifier, board_bgr: np.ndarray, blobs: list[Blob], patch: int, calibration: Calibration,
           lab: np.ndarray | None = None, refs: np.ndarray | None = None) -> list[float]:
    """Probability that each candidate is a standing meeple (`lab` and `refs` as for `inputs`)."""
    if not blobs:
        return []
    logits = model.logits(inputs(board_bgr, blobs, patch, calibration, lab, refs))
    return (1 / (1 + np.exp(-logits))).tolist()
