"""Image degradations shared by the synthetic generator and enrollment's augmentations."""

from __future__ import annotations

import cv2
import numpy as np


def motion_blur(img: np.ndarray, rng: np.random.Generator, max_length: int) -> np.ndarray:
    """A straight streak 3..max_length pixels long at a random angle, as a moving camera or hand makes."""
    length = int(rng.integers(3, max_length))
    kernel = np.zeros((length, length), np.float32)
    kernel[length // 2, :] = 1.0 / length
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1.0)
    return cv2.filter2D(img, -1, cv2.warpAffine(kernel, rot, (length, length)))
