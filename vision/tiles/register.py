"""Where a laid tile really lies in its grid cell: its paint matched to its reading's catalog geometry.

The grid is one homography for the whole board, but players lay tiles a little apart and askew (a gap of up to
0.04 tile, a shift of 0.02 in the synthetic sets), so a point's place in its cell is not its place on the tile.
That matters only where a figure stands: a farmer's foot a hundredth of a tile beside a city wall or a road.
On the tuning sets a meeple's foot lay a median 0.030 tile from its true place on its tile, 0.023 after this.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from vision.tiles.geometry import peak_offset
from vision.tiles.matcher import truth_masks
from vision.tiles.reader import PATCH

REACH = 3  # board px (PATCH per tile) a tile is looked for off its cell, each way: 0.06 tile
# share of the cell's pixels one px of shift must win to be taken: a road running on across the cell's side
# agrees equally well one px along it, and a tile of field and nothing else agrees everywhere
SHIFT_COST = 0.003


@cache
def _template(letter: str, rotation: int) -> np.ndarray:
    return truth_masks(letter, rotation)[0].astype(np.float32)


def tile_shift(not_field: np.ndarray, hidden: np.ndarray, letter: str, rotation: int, origin: tuple[int, int]
               ) -> tuple[float, float]:
    """(dx, dy) board px from the cell at `origin` (its top-left board px) to where the tile's features lie.

    The shift is the one at which the board's not-field mask agrees best with the catalog's (pixels a figure
    hides do not count), refined between pixels by a parabola; (0, 0) for a cell whose window leaves the board.
    """
    ox, oy = origin
    height, width = not_field.shape
    if ox < REACH or oy < REACH or ox + PATCH + REACH > width or oy + PATCH + REACH > height:
        return (0.0, 0.0)
    window = (slice(oy - REACH, oy + PATCH + REACH), slice(ox - REACH, ox + PATCH + REACH))
    valid = (~hidden[window]).astype(np.float32)
    seen = not_field[window].astype(np.float32) * valid
    template = _template(letter, rotation)
    ones = np.ones_like(template)

    def correlate(image: np.ndarray, kernel: np.ndarray) -> np.ndarray:
        return np.rint(cv2.matchTemplate(image, kernel, cv2.TM_CCORR))  # counts of pixels, whole numbers

    # disagreeing pixels per shift: seen but not in the template, plus in the template but not seen
    wrong = correlate(seen, ones) - 2 * correlate(seen, template) + correlate(valid, template)
    agree = 1 - wrong / np.maximum(correlate(valid, ones), 1)
    off = np.abs(np.arange(2 * REACH + 1) - REACH)
    iy, ix = np.unravel_index(int(np.argmax(agree - SHIFT_COST * (off[:, None] + off[None, :]))), agree.shape)
    dx = ix - REACH + (float(peak_offset(*agree[iy, ix - 1:ix + 2])) if 0 < ix < 2 * REACH else 0.0)
    dy = iy - REACH + (float(peak_offset(*agree[iy - 1:iy + 2, ix])) if 0 < iy < 2 * REACH else 0.0)
    return (float(dx), float(dy))
