"""Second look: the few best labels of the learned metric re-scored by plain template correlation.

The metric sees the whole card coarsely; a spade and a club of the same rank differ in a few
pixels of every pip. Correlating the grey crop with each candidate's own enrolled crop, over a
few pixels of shift (outline error), sees those pixels.
"""

from __future__ import annotations

import cv2
import numpy as np

SHIFT = 4  # pixels of the canonical crop searched each way
BLUR = 1.2  # both sides are blurred alike, so a sharp template meets a soft query halfway
CANDIDATES = 3
WEIGHT = 1.0  # of the correlation added to the metric's cosine


def grey(crop: np.ndarray) -> np.ndarray:
    g = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    return cv2.GaussianBlur(g.astype(np.float32), (0, 0), BLUR)


def correlation(query: np.ndarray, template: np.ndarray) -> float:
    """Best normalised correlation of the template's inner part anywhere within SHIFT pixels."""
    inner = template[SHIFT:-SHIFT, SHIFT:-SHIFT]
    return float(cv2.matchTemplate(query, inner, cv2.TM_CCOEFF_NORMED).max())

