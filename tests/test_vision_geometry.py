"""The batch geometry of the card pipeline agrees with OpenCV's one-pair answers."""

from __future__ import annotations

import cv2
import numpy as np

from vision.cards.geometry import pairwise_iou, points_in_quads, quad_iou


def _quads(rng: np.random.Generator, n: int) -> np.ndarray:
    """Turned, stretched card-like rectangles scattered over a 400 px square, clockwise or not."""
    out = []
    for _ in range(n):
        rect = ((float(rng.uniform(0, 400)), float(rng.uniform(0, 400))),
                (float(rng.uniform(20, 120)), float(rng.uniform(20, 120))), float(rng.uniform(0, 180)))
        q = cv2.boxPoints(rect)
        out.append(q if rng.random() < 0.5 else q[::-1])
    return np.array(out, np.float32)


def test_pairwise_iou_equals_quad_iou_for_every_pair() -> None:
    rng = np.random.default_rng(5)
    a, b = _quads(rng, 30), _quads(rng, 25)
    got = pairwise_iou(a, b)
    want = np.array([[quad_iou(p, q) for q in b] for p in a], np.float32)
    assert got.shape == (30, 25)
    assert np.allclose(got, want, atol=1e-6)
    assert (want > 0).sum() > 10  # the scatter has overlapping pairs, not only zeros
    assert pairwise_iou(a[:0], b).shape == (0, 25) and pairwise_iou(a, b[:0]).shape == (30, 0)


def test_points_in_quads_equals_point_polygon_test() -> None:
    rng = np.random.default_rng(6)
    quads = _quads(rng, 20)
    points = rng.uniform(0, 400, (200, 2)).astype(np.float32)
    got = points_in_quads(points, quads)
    want = np.array([[cv2.pointPolygonTest(q.reshape(-1, 1, 2), (float(x), float(y)), False) >= 0 for q in quads]
                     for x, y in points])
    assert got.shape == (200, 20)
    assert (got == want).all()
    assert want.sum() > 20

