"""The board's outline on a grid: outline points, and the homography that puts them on whole grid lines."""

from __future__ import annotations

import cv2
import numpy as np

from vision.tiles.geometry import percentile_lerp

SLOP = 0.03  # how far (in tiles) a laid tile's side may sit from its grid line
REFIT_SHARE = 0.9  # share of the outline on the best grid under which the pitch is searched again on that grid
GROW_RADII = (1.5, 2.5, 4.0, 6.0, 9.0)  # tiles about the board's middle whose outline a grown fit takes, round by round
GROWN_AREA = (0.7, 1.4)  # cell area a grown fit (and the grid it grows from) may have against the best grid so far
FIT_TOLERANCES = (0.3, 0.2, 0.12, 0.08)  # tiles: outline points this near a grid line steer the fit, round by round


def _grown_best(tried: list[tuple[np.ndarray, float, float]], outline: np.ndarray, centre: np.ndarray,
                found: tuple[np.ndarray, float, float]) -> tuple[np.ndarray, float, float]:
    """The grid a fit grown from the board's middle outwards (`_grown`) gives from any grid tried, when the outline
    fits it at `REFIT_SHARE` and better than `found`, at about found's pitch (`GROWN_AREA`: a finer grid fits an
    outline as well, and the searches chose the pitch).

    A small board's short tile sides place the vanishing points badly: the grids the combs fit drift half a tile
    across the board, and a fit to the whole outline then takes its far sides to the wrong lines.
    """
    best = found
    area = _cell_area(found[0], centre)
    for start, _, score in tried:
        if not GROWN_AREA[0] <= _cell_area(start, centre) / area <= GROWN_AREA[1]:
            continue
        grown, share = _grown(start, outline)
        ratio = _cell_area(grown, centre) / area
        if share >= REFIT_SHARE and share > best[1] and GROWN_AREA[0] <= ratio <= GROWN_AREA[1]:
            best = (grown, share, score)
    return best


def _grown(to_board: np.ndarray, outline: np.ndarray) -> tuple[np.ndarray, float]:
    """`_fit_outline` on the outline within `GROW_RADII` tiles of its median cell, round by round, each round
    starting from the last: near the middle a drifting grid still lies on the right lines, and each fit carries
    the lines out to where the next takes them."""
    uv = cv2.perspectiveTransform(outline[None].astype(np.float64), to_board)[0]
    middle = np.median(uv, axis=0)
    for radius in GROW_RADII:
        near = np.abs(uv - middle).max(axis=1) < radius
        if near.sum() < 16:
            continue
        to_board, _ = _fit_outline(to_board, outline[near])
        uv = cv2.perspectiveTransform(outline[None].astype(np.float64), to_board)[0]
    return _fit_outline(to_board, outline)


def _cell_area(to_board: np.ndarray, at: np.ndarray) -> float:
    """Picture px of one cell at image point `at` (the map's local scale there)."""
    pts = cv2.perspectiveTransform(np.array([[at, at + [1.0, 0.0], at + [0.0, 1.0]]], np.float64), to_board)[0]
    (a, b), (c, d) = pts[1] - pts[0], pts[2] - pts[0]
    return 1.0 / max(abs(float(a * d - b * c)), 1e-12)


def _outline_points(mask: np.ndarray, arm: np.ndarray | None = None) -> np.ndarray:
    """The board outline in image px, at most 6000 points, without its runs along an arm."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    kept = [c.reshape(-1, 2) for c in contours if len(c) >= 8]
    if arm is not None:
        # each run kept whole (the fit reads a run's direction from its neighbouring points)
        kept = [run for c in kept for run in _runs_outside(c, arm) if len(run) >= 8]
    if not kept:
        return np.zeros((0, 2))
    pts = np.vstack(kept).astype(np.float64)
    return pts[:: max(1, len(pts) // 6000)]


def _runs_outside(points: np.ndarray, arm: np.ndarray) -> list[np.ndarray]:
    """The stretches of a closed outline that stay off the arm."""
    off = ~arm[points[:, 1], points[:, 0]]
    if off.all():
        return [points]
    start = int(np.argmin(off))  # roll so the outline starts on the arm: no run wraps around
    points, off = np.roll(points, -start, axis=0), np.roll(off, -start)
    edges = np.flatnonzero(np.diff(np.r_[0, off.astype(np.int8), 0]))
    return [points[a:b] for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _fit_outline(to_board: np.ndarray, pts: np.ndarray, rounds: int = 4, sample: int = 0
                 ) -> tuple[np.ndarray, float]:
    """Refines image -> board units so the board's outline falls on integer grid lines.

    Each outline point on a side running along y must have an integer u (and along x an integer v);
    both conditions are linear in the homography, so a few rounds of least squares pull a slightly
    wrong perspective or pitch onto the outline of the whole board. Notches and tiles laid askew pull a
    least-squares fit too, so the tolerance tightens round by round and the round whose grid the most
    outline points lie on wins (the start included). Returns the homography and that share of outline
    points within 2 px (or SLOP) of a grid line.
    """
    if len(pts) < 16:
        return to_board, 0.0
    if sample and len(pts) > sample:
        pts = pts[:: len(pts) // sample]
    p, norm, f = _normalised(pts)
    current = to_board @ np.linalg.inv(norm)
    state = _Fit(p, current, 2.0 / f)
    best, extent = (state.share, current), state.extent
    for k in range(rounds):
        uv, along_x, along_y = state.uv, state.along_x, state.along_y
        n, m = np.round(uv[:, 0]), np.round(uv[:, 1])
        tol = FIT_TOLERANCES[min(k, len(FIT_TOLERANCES) - 1)]
        use_u = along_y & (np.abs(uv[:, 0] - n) < tol)
        use_v = along_x & (np.abs(uv[:, 1] - m) < tol)
        if use_u.sum() < 4 or use_v.sum() < 4:
            break
        # rows [p, 0, -n p] for u, [0, p, -m p] for v, each family weighted equally so a long board does not
        # starve the short axis
        pu, pv = p[use_u], p[use_v]
        a = np.zeros((len(pu) + len(pv), 9))
        wu, wv = np.sqrt(len(pu)), np.sqrt(len(pv))
        a[:len(pu), :3], a[:len(pu), 6:] = pu / wu, -n[use_u, None] * pu / wu
        a[len(pu):, 3:6], a[len(pu):, 6:] = pv / wv, -m[use_v, None] * pv / wv
        solution = np.linalg.svd(a.T @ a)[2][-1].reshape(3, 3)
        if abs(np.linalg.det(solution)) < 1e-12:
            break
        if solution[2, 2] * current[2, 2] < 0:
            solution = -solution
        current = solution / np.linalg.norm(solution) * np.linalg.norm(current)
        state = _Fit(p, current, 2.0 / f)
        if not np.all(np.abs(np.log(state.extent / extent)) < 0.2):
            break  # the fit collapses the board onto a few lines (every point then lies on one): no refinement
        if state.share > best[0]:
            best = (state.share, current)
    return best[1] @ norm, best[0]


def _normalised(pts: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Image points as homogeneous rows centred on their span and scaled by its larger side (a well-conditioned
    least-squares fit), the map image -> those units, and that side in image px."""
    span = np.ptp(pts, axis=0)
    f = float(max(span.max(), 1.0))
    centre = pts.min(axis=0) + span / 2
    norm = np.array([[1 / f, 0, -centre[0] / f], [0, 1 / f, -centre[1] / f], [0, 0, 1]])
    return np.c_[pts, np.ones(len(pts))] @ norm.T, norm, f


class _Fit:
    """Outline points (normalised image units) under a homography: their grid coordinates, which run along
    x or y, which lie within `tol` (or SLOP) of their grid line, that share, and the board's extent in grid units."""

    def __init__(self, p: np.ndarray, h: np.ndarray, tol: float) -> None:
        self.uv, self.along_x, self.along_y = _on_grid(p, h)
        uv, w = self.uv, p @ h[2]
        # grid units moved by a `tol` step in the picture, per axis (the map's derivative there): a residual
        # below that is within `tol` of the line
        reach_u = tol * np.hypot(h[0, 0] - uv[:, 0] * h[2, 0], h[0, 1] - uv[:, 0] * h[2, 1]) / np.abs(w)
        reach_v = tol * np.hypot(h[1, 0] - uv[:, 1] * h[2, 0], h[1, 1] - uv[:, 1] * h[2, 1]) / np.abs(w)
        # tiles sit a few percent off their grid line, which matters more than 2 px on large tiles
        ok_u = self.along_y & (np.abs(uv[:, 0] - np.round(uv[:, 0])) < np.maximum(reach_u, SLOP))
        ok_v = self.along_x & (np.abs(uv[:, 1] - np.round(uv[:, 1])) < np.maximum(reach_v, SLOP))
        self.ok_u, self.ok_v = ok_u, ok_v
        straight = (self.along_x | self.along_y).sum()
        self.straight = int(straight)
        self.share = float((ok_u.sum() + ok_v.sum()) / straight) if straight else 0.0
        low, high = _percentiles(uv[::4], (1.0, 99.0))
        self.extent = np.maximum(high - low, 1e-9)


def _percentiles(values: np.ndarray, q: tuple[float, float]) -> np.ndarray:
    """`np.percentile(values, q, axis=0)` (its linear method), bit for bit, without its overhead: an outline fit
    runs some 40 times a picture. NaN anywhere goes to numpy itself."""
    if np.isnan(values).any():
        return np.percentile(values, q, axis=0)
    n = len(values)
    virtual = (n - 1) * (np.asarray(q, np.float64) / 100)
    below = np.floor(virtual).astype(np.intp)
    above = np.minimum(below + 1, n - 1)
    ordered = np.partition(values, np.unique(np.r_[below, above]), axis=0)
    a, b = ordered[below], ordered[above]
    return percentile_lerp(a, b, (virtual - below)[:, None])


def _on_grid(p: np.ndarray, h: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Board coordinates of outline points and which run along x or along y there."""
    uv = p @ h.T
    uv = uv[:, :2] / uv[:, 2:]
    tangent = np.concatenate([uv[3:], uv[:3]]) - np.concatenate([uv[-3:], uv[:-3]])  # np.roll by -3 and 3
    along_y = np.abs(tangent[:, 1]) > 2.5 * np.abs(tangent[:, 0])
    along_x = np.abs(tangent[:, 0]) > 2.5 * np.abs(tangent[:, 1])
    return uv, along_x, along_y
