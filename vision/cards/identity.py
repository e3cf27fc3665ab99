"""Stage 2: read the printed index. Each card outline gives two upright index crops (its two printed
corners, 180 degrees apart); a small CNN classifies them into the 52 cards, the joker, or "none".
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import numpy as np

from vision.cards.detect import MODELS, session
from vision.cards.geometry import index_crop, rotate_corners
from vision.cards.labels import CROP_CLASSES, NONE_CLASS

CLASSIFIER = MODELS / "cards-index.onnx"
ZOOMS = (1.0,)  # crop scales tried per corner; (1.0, 1.6) also tries big real-deck indices (2x the cost)


@cache
def _classifier(path: str):  # noqa: ANN202
    if not Path(path).exists():
        raise FileNotFoundError(f"index classifier model missing: {path}")
    return session(Path(path))


def classify(crops: np.ndarray, model: Path = CLASSIFIER) -> np.ndarray:
    """Class probabilities (N, len(CROP_CLASSES)) for uint8 crops (N, H, W, 3)."""
    if len(crops) == 0:
        return np.zeros((0, len(CROP_CLASSES)), np.float32)
    sess = _classifier(str(model))
    blob = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), np.float32) / 255.0
    logits = sess.run(None, {sess.get_inputs()[0].name: blob})[0]
    logits = logits - logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def read_cards(image: np.ndarray, outlines: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Codes ("none" when no index is readable), confidences, and outlines turned to start at the printed
    top-left (the corner whose index read best). Each corner is read at every zoom in ZOOMS."""
    n = len(outlines)
    if n == 0:
        return [], np.zeros(0, np.float32), np.zeros((0, 4, 2), np.float32)
    turned = np.stack([rotate_corners(o, 2) for o in outlines])
    views = [(quads, z) for quads in (outlines, turned) for z in ZOOMS]
    crops = np.stack([index_crop(image, o, z) for quads, z in views for o in quads])
    p = classify(crops).reshape(len(views), n, -1)  # view, card, class
    none = p[:, :, NONE_CLASS].min(axis=0)
    cards = p.copy()
    cards[:, :, NONE_CLASS] = 0.0
    best_view = cards.max(axis=2).argmax(axis=0)  # per card
    rows = np.arange(n)
    best = cards[best_view, rows].argmax(axis=1)
    conf = cards[best_view, rows, best]
    codes = [CROP_CLASSES[b] if conf[i] > none[i] else "none" for i, b in enumerate(best)]
    use_turned = best_view >= len(ZOOMS)
    corners = np.where(use_turned[:, None, None], turned, outlines).astype(np.float32)
    return codes, conf.astype(np.float32), corners
