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
BRIGHTEST = 99.0  # the percentile of a picture's lightness that tells how bright its brightest things (paper) are
EXPOSED_LEAST = 150.0  # a picture whose brightest lie under this lightness (OpenCV's 0-255 L) is too dark to read:
# the real card photos 171-253 (median 236), synthetic card scenes 155 and more; the demo table at half light 135
EXPOSED_AIM = 230.0  # ... and is brought up to this (within LIGHT_GAINS)


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


def down_to_light(image: np.ndarray, then: np.ndarray, now: np.ndarray) -> np.ndarray:
    """`back_in_light` for a picture lit more brightly than then only: paper lit past the camera's range reads worse
    than the card readers read a dimmer room, while a dim picture brought up amplifies its noise and its steps of
    grey (a Superheld map at 0.7 of its light brought back read a card twice that the dim picture read once)."""
    return back_in_light(image, then, now) if light_gain(then, now) > 1.0 else image


def brightest(image: np.ndarray) -> float:
    """The BRIGHTEST percentile of the picture's lightness (OpenCV's 0-255 L), on a quarter-size copy."""
    small = image if min(image.shape[:2]) <= 64 else cv2.resize(image, None, fx=0.25, fy=0.25,
                                                                 interpolation=cv2.INTER_AREA)
    return float(np.percentile(cv2.cvtColor(small, cv2.COLOR_BGR2LAB)[..., 0], BRIGHTEST))


def exposed(image: np.ndarray, lightness: float) -> np.ndarray:
    """The picture brought up so that its brightest (`lightness`, `brightest`) reach EXPOSED_AIM where they lie
    under EXPOSED_LEAST, or the picture itself: with no first light to follow (a game begun in a dim room), a
    white card's paper tells how far the light is from one the readers know."""
    if lightness >= EXPOSED_LEAST:
        return image
    grey = np.array([[lightness, 128.0, 128.0], [EXPOSED_AIM, 128.0, 128.0]], np.float32)
    return degrade.relit(image, min(light_gain(grey[0], grey[1]), LIGHT_GAINS[1]))
