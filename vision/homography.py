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


def _mapped(params: np.ndarray, pts: np.ndarray, derivatives: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
    """Points (N, 2) through the homography of the 8 parameters (h22 = 1), and where asked their derivatives by the
    parameters (N, 2, 8)."""
    h = np.append(params, 1.0).reshape(3, 3)
    x, y = pts[:, 0], pts[:, 1]
    w = h[2, 0] * x + h[2, 1] * y + 1.0
    u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
    v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    if not derivatives:
        return np.stack([u, v], 1), None
    d = np.zeros((len(pts), 2, 8))
    ones = np.ones_like(x)
    d[:, 0, 0:3] = np.stack([x, y, ones], 1) / w[:, None]
    d[:, 1, 3:6] = d[:, 0, 0:3]
    d[:, 0, 6:8] = -np.stack([u * x, u * y], 1) / w[:, None]
    d[:, 1, 6:8] = -np.stack([v * x, v * y], 1) / w[:, None]
    return np.stack([u, v], 1), d


_PAIRS = np.array([[1, 0], [2, 1], [3, 2], [0, 3], [2, 0], [3, 1]])  # four sides, two diagonals (b - a)
_GAUGE = ((0, 0), (0, 1), (1, 1))  # the reference card's top-left x and y and top-right y fix the table frame


def _shape_residuals(params: np.ndarray, quads: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """Each card's sides and diagonals against 63 x 88 mm, then three terms that fix the table frame on the
    reference card."""
    pts, _ = _mapped(params, quads.reshape(-1, 2), derivatives=False)
    pts = pts.reshape(-1, 4, 2)
    length = np.linalg.norm(pts[:, _PAIRS[:, 0]] - pts[:, _PAIRS[:, 1]], axis=2)
    anchor, _ = _mapped(params, ref[:2], derivatives=False)
    gauge = np.array([anchor[k] for k in _GAUGE]) * 3.0
    return np.concatenate([(length - _SIDES).reshape(-1), gauge])


def _shape_jacobian(params: np.ndarray, quads: np.ndarray, ref: np.ndarray) -> np.ndarray:
    """`_shape_residuals`' Jacobian in closed form: the finite-difference one took nine evaluations an iteration
    (56-card map: 7.6 -> 2.7 ms)."""
    pts, d = _mapped(params, quads.reshape(-1, 2))
    pts, d = pts.reshape(-1, 4, 2), d.reshape(-1, 4, 2, 8)
    vec = pts[:, _PAIRS[:, 0]] - pts[:, _PAIRS[:, 1]]  # (n, 6, 2)
    unit = vec / np.maximum(np.linalg.norm(vec, axis=2), 1e-12)[..., None]
    dvec = d[:, _PAIRS[:, 0]] - d[:, _PAIRS[:, 1]]  # (n, 6, 2, 8)
    shape_jac = np.einsum("nsc,nsck->nsk", unit, dvec).reshape(-1, 8)
    _, da = _mapped(params, ref[:2])
    gauge_jac = np.stack([da[k] for k in _GAUGE]) * 3.0
    return np.vstack([shape_jac, gauge_jac])


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
    fit = least_squares(_shape_residuals, start.reshape(-1)[:8], jac=_shape_jacobian, args=(quads, ref),
                        loss="soft_l1", f_scale=3.0, max_nfev=200, x_scale="jac")
    h = np.append(fit.x, 1.0).reshape(3, 3)
    return h if np.isfinite(h).all() else start


def to_table(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Image points (..., 2) to table mm."""
    p = np.asarray(pts, np.float64)
    return cv2.perspectiveTransform(p.reshape(-1, 1, 2), h).reshape(p.shape)
