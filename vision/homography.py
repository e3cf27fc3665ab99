"""The table's homography (image px -> table mm) from the cards themselves: every card is a 63 x 88 mm
rectangle lying flat, so the map that makes all outlines that size and square is the table plane.

The table frame is the frame of the most confident card (its printed top-left at the origin, its
short side along x); only distances and adjacency matter, so that choice is harmless.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.geometry import CARD_H_MM, CARD_MM, CARD_W_MM
from vision.detections import CardDetections

_DIAG = float(np.hypot(CARD_W_MM, CARD_H_MM))
_SIDES = np.array([CARD_W_MM, CARD_H_MM, CARD_W_MM, CARD_H_MM, _DIAG, _DIAG])


def _shape_residuals(params: np.ndarray, quads: np.ndarray, ref: np.ndarray) -> np.ndarray:
    h = np.append(params, 1.0).reshape(3, 3)
    pts = cv2.perspectiveTransform(quads.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 4, 2)
    sides = np.linalg.norm(pts - np.roll(pts, -1, axis=1), axis=2)
    diags = np.stack([np.linalg.norm(pts[:, 2] - pts[:, 0], axis=1), np.linalg.norm(pts[:, 3] - pts[:, 1], axis=1)], 1)
    shape = (np.concatenate([sides, diags], axis=1) - _SIDES).reshape(-1)
    anchor = cv2.perspectiveTransform(ref[None, :2].astype(np.float64), h)[0]
    gauge = np.array([anchor[0, 0], anchor[0, 1], anchor[1, 1]]) * 3.0  # fixes the table frame
    return np.concatenate([shape, gauge])


def table_homography(dets: CardDetections, min_cards: int = 1) -> np.ndarray | None:
    """Image -> table mm, or None when no full card outline is seen."""
    full = np.array([s or c == "back" for s, c in zip(dets.index_seen, dets.codes, strict=True)], bool)
    if full.sum() < min_cards:
        return None
    quads = dets.corners[full].astype(np.float64)
    ref = quads[int(np.argmax(dets.confidence[full]))]
    start = cv2.getPerspectiveTransform(ref.astype(np.float32), CARD_MM)
    start = start / start[2, 2]
    if len(quads) < 3:
        return start
    try:
        from scipy.optimize import least_squares
    except ImportError:  # scipy is optional: the reference card alone still gives a homography
        return start
    # x_scale="jac": the parameters differ in scale by 10^6 (perspective terms against translations); scaled by
    # the Jacobian the fit converges in 8 evaluations instead of 31, to the same cost (56-card map: 18 -> 6 ms).
    fit = least_squares(_shape_residuals, start.reshape(-1)[:8], args=(quads, ref), loss="soft_l1", f_scale=3.0,
                        max_nfev=200, x_scale="jac")
    h = np.append(fit.x, 1.0).reshape(3, 3)
    return h if np.isfinite(h).all() else start


def to_table(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Image points (..., 2) to table mm."""
    p = np.asarray(pts, np.float64)
    return cv2.perspectiveTransform(p.reshape(-1, 1, 2), h).reshape(p.shape)
