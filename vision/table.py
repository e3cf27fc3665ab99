"""The table a picture shows around what lies on it: the colour its border shows most.

Both readers judge things against it: the board reader cuts the board out of the table, and the card
reader refuses a face-down box whose middle is the table's own colour (the detector sees backs in a map's
holes, where the table shows between cards).
"""

from __future__ import annotations

import cv2
import numpy as np

LEAST_FREE = 0.1  # the share of the border that must show the table for its colour to be read


def border_band(shape: tuple[int, ...]) -> int:
    """Width of the band along a picture's border that shows the table: a fortieth of its shorter side."""
    return max(2, min(shape[:2]) // 40)


def border_mask(shape: tuple[int, ...]) -> np.ndarray:
    """(H, W) bool: the `border_band` all round the picture."""
    h, w = shape[:2]
    band = border_band(shape)
    edge = np.zeros((h, w), bool)
    edge[:band], edge[-band:], edge[:, :band], edge[:, -band:] = True, True, True, True
    return edge


def border_pixels(image: np.ndarray) -> np.ndarray:
    """The pixels (N, C) of the `border_band` all round the picture."""
    band = border_band(image.shape)
    c = image.shape[2] if image.ndim == 3 else 1
    return np.concatenate([image[:band].reshape(-1, c), image[-band:].reshape(-1, c),
                           image[:, :band].reshape(-1, c), image[:, -band:].reshape(-1, c)])


def table_pixels(image: np.ndarray, free: np.ndarray, step: int = 1) -> np.ndarray | None:
    """The border's pixels (N, C) that show the table, every `step`-th of them. `free`: where the table may show
    (zero on the things found on it); None when too little of the border does."""
    border = border_pixels(image)[::step]
    shown = border_pixels(free)[::step, 0] > 0
    return border[shown] if shown.mean() >= LEAST_FREE else None


def table_colour(lab: np.ndarray) -> tuple[np.ndarray, float]:
    """The table's Lab colour (the border's median) and its spread there (75th percentile of the distances)."""
    border = border_pixels(lab)
    table = np.median(border, axis=0)
    return table, float(np.percentile(table_distance(border, table), 75))


def table_distance(lab: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Colour distance from the table; darker than the table counts little (shadows are table too).

    A uint8 Lab picture goes through one look-up table per channel (it runs over whole boards).
    """
    if lab.dtype == np.uint8 and lab.ndim == 3:
        levels = np.arange(256, dtype=np.float32)[:, None] - np.asarray(table, np.float32)[None, :]  # (256, 3)
        levels[:, 0] *= np.where(levels[:, 0] > 0, 0.25, 0.08)
        squares = cv2.LUT(lab, (levels * levels).reshape(1, 256, 3))
        return cv2.sqrt(cv2.transform(squares, np.ones((1, 3), np.float32)))
    lab = lab if lab.dtype.kind == "f" else lab.astype(np.float32)
    diff = lab - np.asarray(table, lab.dtype)  # float32 pictures stay float32
    light = diff[..., 0]
    light *= np.where(light > 0, 0.25, 0.08).astype(lab.dtype)
    return np.sqrt(light * light + diff[..., 1] * diff[..., 1] + diff[..., 2] * diff[..., 2])
