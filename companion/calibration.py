"""Automatic table calibration: the image -> table-mm homography measured from the cards' own 63 x 88 mm size.

The cards read on a stable frame give the homography (`vision.homography.table_homography`); it is
put in a frame fixed by the image (its centre at the origin, its x axis along table x) so that a
steady camera gives the same matrix whichever cards it came from. It is stored as a `calibration`
event (source "auto") only when it moves the seen cards by more than MOVE_MM, so a steady camera
writes it once and `--resume` restores it. A manual play area (four corners clicked on the
dashboard) overrides it; clearing that returns to the auto calibration.
"""

from __future__ import annotations

from typing import Any, Protocol

import cv2
import numpy as np

from vision.cards.geometry import CARD_H_MM, CARD_W_MM
from vision.detections import CardDetections
from vision.homography import table_homography, to_table

MOVE_MM = 4.0  # a new fit that maps the seen cards this much elsewhere is a new calibration
MAX_SIZE_ERROR = 0.12  # a fit that leaves most cards further off 63 x 88 mm is not trusted
MARGIN_MM = 30.0  # the play area drawn around the cards the calibration came from


class _Session(Protocol):
    state: Any

    def calibrate_auto(self, data: dict[str, Any]) -> None: ...


def detections(cards: list[dict[str, Any]]) -> CardDetections:
    """The recogniser's read cards (code, corners, confidence) as CardDetections, every outline taken as whole."""
    ok = [c for c in cards if np.asarray(c.get("corners", []), np.float32).shape == (4, 2)]
    n = len(ok)
    return CardDetections([str(c.get("code", "?")) for c in ok],
                          np.array([c["corners"] for c in ok], np.float32).reshape(-1, 4, 2),
                          np.array([float(c.get("confidence", 1.0)) for c in ok], np.float32),
                          np.full(n, -1, np.int16), np.ones(n, bool))


def canonical(h: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """The same table plane in the image's frame: the image centre at (0, 0) mm, the image x axis along x."""
    centre = np.array([[shape[1] / 2.0, shape[0] / 2.0], [shape[1] / 2.0 + shape[1] / 10.0, shape[0] / 2.0]])
    p0, p1 = to_table(h, centre)
    a = -np.arctan2(p1[1] - p0[1], p1[0] - p0[0])
    rot = np.array([[np.cos(a), -np.sin(a), 0.0], [np.sin(a), np.cos(a), 0.0], [0.0, 0.0, 1.0]])
    shift = np.array([[1.0, 0.0, -p0[0]], [0.0, 1.0, -p0[1]], [0.0, 0.0, 1.0]])
    out = rot @ shift @ h
    return out / out[2, 2]


def measure(cards: list[dict[str, Any]], shape: tuple[int, ...]) -> dict[str, Any] | None:
    """An auto calibration event's data from the read cards, or None when they give no trustworthy homography."""
    dets = detections(cards)
    try:
        h = table_homography(dets)
        if h is None:
            return None
        h = canonical(h, shape)
        mm = to_table(h, dets.corners.astype(np.float64))
    except (cv2.error, ValueError, np.linalg.LinAlgError):
        return None
    if not np.isfinite(mm).all():
        return None
    widths = np.linalg.norm(mm[:, 1] - mm[:, 0], axis=1)
    heights = np.linalg.norm(mm[:, 3] - mm[:, 0], axis=1)
    size = (float(np.median(widths)), float(np.median(heights)))
    off = np.maximum(np.abs(widths / CARD_W_MM - 1), np.abs(heights / CARD_H_MM - 1))  # per card
    if float(np.median(off)) > MAX_SIZE_ERROR:
        return None
    flat = mm.reshape(-1, 2)
    lo, hi = flat.min(axis=0) - MARGIN_MM, flat.max(axis=0) + MARGIN_MM
    return {"source": "auto", "cards": len(dets), "homography": [[float(v) for v in row] for row in h],
            "image_size": [int(shape[1]), int(shape[0])], "card_mm": [round(size[0], 1), round(size[1], 1)],
            "extent_mm": [round(float(v), 1) for v in (*lo, *hi)]}


def homography(data: dict[str, Any] | None, shape: tuple[int, ...] | None = None) -> np.ndarray | None:
    """The stored image -> table-mm matrix, or None (none stored, or it was measured on another image size)."""
    if not data or "homography" not in data:
        return None
    if shape is not None and list(data.get("image_size", [])) != [shape[1], shape[0]]:
        return None
    return np.asarray(data["homography"], np.float64)


def drift_mm(a: dict[str, Any], b: dict[str, Any], points: np.ndarray) -> float:
    """How far apart (mm, 90th percentile) two calibrations put the image `points`."""
    if a.get("image_size") != b.get("image_size") or len(points) == 0:
        return float("inf")
    ha, hb = homography(a), homography(b)
    assert ha is not None and hb is not None
    d = np.linalg.norm(to_table(ha, points) - to_table(hb, points), axis=-1)
    return float(np.percentile(d, 90)) if np.isfinite(d).all() else float("inf")


class AutoCalibrator:
    """Decides, per stable read, whether the cards give a calibration worth storing."""

    def __init__(self) -> None:
        self._candidate: dict[str, Any] | None = None  # a new fit seen once; stored when the next read agrees

    def update(self, session: _Session, cards: list[dict[str, Any]], shape: tuple[int, ...]) -> dict[str, Any] | None:
        """Store (through `session.calibrate_auto`) and return a new calibration, or None when nothing changed."""
        st = session.state
        if st.live is None or st.play_area is not None:  # no game to store it in, or the player's own area rules
            return None
        data = measure(cards, shape)
        if data is None:
            return None
        stored = st.auto_calibration
        if stored is not None and not self._worth_storing(stored, data, cards):
            return None
        session.calibrate_auto(data)
        self._candidate = None
        return data

    def _worth_storing(self, stored: dict[str, Any], data: dict[str, Any], cards: list[dict[str, Any]]) -> bool:
        points = detections(cards).corners.reshape(-1, 2).astype(np.float64)
        if drift_mm(stored, data, points) <= MOVE_MM:
            self._candidate = None
            # the same plane from many more cards is a better measure of it (at most log2(cards) times)
            return data["cards"] >= max(3, 2 * stored["cards"])
        agrees = self._candidate is not None and drift_mm(self._candidate, data, points) <= MOVE_MM
        self._candidate = data  # one read alone may be a misfit: a moved camera shows on two in a row
        return agrees


def status(play_area: list[list[float]] | None, auto: dict[str, Any] | None) -> dict[str, Any]:
    """What the dashboard shows: manual beats auto; without either the table is not calibrated."""
    if play_area is not None:
        return {"source": "manual", "text": "manual play area"}
    if auto is not None:
        n = auto["cards"]
        return {"source": "auto", "cards": n, "card_mm": auto.get("card_mm"),
                "text": f"calibrated from {n} card{'s' if n != 1 else ''}"}
    return {"source": None, "text": "not calibrated"}


def grid_lines(data: dict[str, Any], shape: tuple[int, ...], step_mm: float = 50.0) -> list[np.ndarray]:
    """The calibration's play area (first) and a mm grid inside it, as image polylines (int32, (n, 2))."""
    h = homography(data, shape)
    if h is None:
        return []
    try:
        inv = np.linalg.inv(h)
    except np.linalg.LinAlgError:
        return []
    x0, y0, x1, y1 = data["extent_mm"]
    lines = [np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1], [x0, y0]], np.float64)]
    xs = np.arange(np.ceil(x0 / step_mm) * step_mm, x1, step_mm)
    ys = np.arange(np.ceil(y0 / step_mm) * step_mm, y1, step_mm)
    lines += [np.array([[x, y0], [x, y1]]) for x in xs] + [np.array([[x0, y], [x1, y]]) for y in ys]
    out = []
    for line in lines:
        dense = np.concatenate([np.linspace(a, b, 8) for a, b in zip(line[:-1], line[1:], strict=True)])
        px = to_table(inv, dense)
        if np.isfinite(px).all() and np.abs(px).max() < 1e5:
            out.append(np.round(px).astype(np.int32))
    return out
