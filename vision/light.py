"""The room's light between two pictures, measured on a surface both show (the table round a board, the cards'
paper) and undone: a lamp put out, a cloud or the camera's exposure moves every colour, and the colours calibrated
in the first light (meeples, pawns) then fall outside their cuts. One gain for all three channels: a change of
colour cast is not followed."""

from __future__ import annotations

import cv2
import numpy as np

from vision import degrade
from vision.table import border_pixels

LIGHT_FOLLOWED = 0.05  # a change of the light, as a share, from which it is undone
LIGHT_GAINS = (0.5, 2.0)  # the most a picture's light is brought back by, either way


def table_seen(image: np.ndarray) -> np.ndarray:
    """The table's Lab colour as the picture's border shows it: the median of its border's pixels, as the board
    mask takes it (`vision.table.table_colour`)."""
    border = cv2.cvtColor(border_pixels(image)[:, None, :], cv2.COLOR_BGR2LAB)[:, 0]
    return np.median(border, axis=0).astype(np.float32)


def bgr_of(lab: np.ndarray) -> np.ndarray:
    """(n, 3) Lab colours (OpenCV's 8-bit scale) as BGR floats."""
    return cv2.cvtColor(np.clip(np.round(lab), 0, 255).astype(np.uint8)[None], cv2.COLOR_LAB2BGR)[0].astype(np.float64)


def light_gain(then: np.ndarray, now: np.ndarray) -> float:
    """By how much the light changed between Lab colours of the same things then and now (one colour (3,), or
    several (n, 3)): the ratio of their BGR sums."""
    before = bgr_of(np.asarray(then, np.float32).reshape(-1, 3)).sum()
    after = bgr_of(np.asarray(now, np.float32).reshape(-1, 3)).sum()
    return float(after / max(before, 1.0))


def back_in_light(image: np.ndarray, then: np.ndarray, now: np.ndarray) -> np.ndarray:
    """The picture brought back to the light in which a surface showed the Lab colour `then`, where it shows `now`
    (`light_gain`, held within LIGHT_GAINS), or the picture itself where they lie within LIGHT_FOLLOWED."""
    gain = float(np.clip(light_gain(then, now), *LIGHT_GAINS))
    if abs(gain - 1.0) < LIGHT_FOLLOWED:
        return image
    return degrade.relit(image, 1.0 / gain)
